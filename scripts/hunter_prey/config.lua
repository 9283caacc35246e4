-- hunter_prey/config.lua - the hunter/prey game's settings: everything a test or a player may want
-- to change. The program's scene (scripts/hunter_prey.lua) plays with this very table, so saving a
-- change here while it runs takes effect at once (a reload merges it in place); the LÖVE example
-- (examples/love/game.lua) starts each game from a copy of it.
return {
  hunters = 2, prey = 16,
  prey_speed = 100,
  hunter_sight = 260,  -- units: how far a hunter sees prey (obstacles block the view)
  threat_range = 130,  -- units: prey evade a hunter this close...
  prey_sight = 190,    -- units: ...and hide behind a rock from one they see this close
  lure_range = 300,    -- units: prey come to the mouse when it is this close
  lure_slowing = 30,   -- units: slowing radius of that arrival
  drain = 40,          -- stamina per second while chasing
  refill = 20,         -- stamina per second while resting
  evade = true,
  alarm_range = 120,   -- units: a prey that starts evading alarms the prey this close...
  alarm_delay = 0.3,   -- s: ...who hear it after this reaction time...
  alarm_time = 1.5,    -- s: ...and evade that hunter this long
  difficulty = 2,      -- index into levels
  levels = {
    { name = "easy", hunter_speed = 95, stamina = 60 },
    { name = "normal", hunter_speed = 115, stamina = 100 },
    { name = "hard", hunter_speed = 135, stamina = 160 },
  },
  obstacles = { { x = 330, y = 250, r = 40 }, { x = 680, y = 460, r = 50 }, { x = 720, y = 190, r = 30 } },
  walls = { { 180, 520, 380, 600 }, { 560, 90, 560, 200 } },
}
