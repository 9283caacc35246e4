-- hunter.lua - the hunter's brain (the classic hunter/prey game's hunter, as a state machine).
-- hunt:   wander and look for prey: its eyes (a sight sense) see the prey in range, in a wide cone,
--         not behind a rock or a wall
-- chase:  pursue the closest prey it sees; stamina drains while chasing; out of stamina -> rest;
--         prey out of sight -> search
-- search: go where the prey was last seen (the eyes remember it), heading on along its way; prey in
--         sight again -> chase; nothing there -> hunt
-- rest:   wander slowly while stamina refills; full again -> hunt
-- State code reads everything through v.data.game (the scene's shared table), so it has no
-- module-level state for a reload to lose.
-- The LÖVE example (examples/love) runs this same file: save it while either runs and it reloads.
local fsm = require "fsm"

local Hunter = {}

--- What a hunter sees: prey within the game's sight range, in a 300-degree cone, not hidden by a
--- rock or a wall (the core's sight, computed in the step); each one seen is remembered 4 s.
function Hunter.eyes(v)
  v:sense{ name = "eyes", sight = { kinds = { "prey" }, range = v.data.game.config.hunter_sight, fov = 300,
                                    forget_after = 4 } }
end

--- The closest prey v sees now, or nil.
function Hunter.closest_visible_prey(v) return (v:sensed("eyes")) end

--- Where v last saw `prey`, a little ahead along the way it was going, or nil if it forgot it.
function Hunter.last_seen(v, prey)
  for other, x, y, vx, vy in v:memory("eyes") do
    if other == prey then return x + 0.5 * vx, y + 0.5 * vy end
  end
end

local function level(v) return v.data.game.level end

-- Called at every think, whatever the state: a place to try things while the game runs (the LÖVE
-- example's test replaces it with a version that marks the hunter, and looks for the marks). It
-- does nothing and returns nothing, so it changes no state and draws no random number: the runs
-- are the same as without it.
function Hunter.on_think(v, dt) end

Hunter.states = {
  hunt = {
    enter = function(v)
      v.max_speed = level(v).hunter_speed
      v:wander{ radius = 30, distance = 60, jitter = 120, weight = 1, priority = 2 }
    end,
    think = function(v)
      local prey = Hunter.closest_visible_prey(v)
      if prey then
        v.data.target = prey
        return "chase"
      end
    end,
    exit = function(v) v:stop("wander") end,
  },

  chase = {
    enter = function(v)
      v.max_speed = level(v).hunter_speed
      v:pursue(v.data.target, { weight = 1, priority = 2 })
    end,
    think = function(v, dt)
      local game = v.data.game
      v.data.stamina = math.max(0, v.data.stamina - game.config.drain * dt)
      if v.data.stamina <= 0 then return "rest" end
      local target = v.data.target
      -- keep after the closest visible prey: a nearer one, or lose sight and search where it went
      local prey = Hunter.closest_visible_prey(v)
      if not prey then -- out of sight: where was it going?
        local x, y = Hunter.last_seen(v, target)
        if not x then return "hunt" end
        v.data.search = { x, y }
        return "search"
      end
      if not target:alive() or prey ~= target then
        v.data.target = prey
        v:pursue(prey, { weight = 1, priority = 2 })
      end
    end,
    exit = function(v)
      v:stop("pursue")
      v.data.target = nil
    end,
  },

  search = {
    enter = function(v)
      local at = v.data.search
      v:arrive(at[1], at[2], { slowing_radius = 20, weight = 1, priority = 2 })
    end,
    think = function(v, dt)
      local game = v.data.game
      v.data.stamina = math.max(0, v.data.stamina - game.config.drain * dt) -- searching is running too
      if v.data.stamina <= 0 then return "rest" end
      local prey = Hunter.closest_visible_prey(v)
      if prey then
        v.data.target = prey
        return "chase"
      end
      local at = v.data.search
      if (v.x - at[1]) ^ 2 + (v.y - at[2]) ^ 2 < 15 ^ 2 or fsm.time_in_state(v) > 3 then return "hunt" end
    end,
    exit = function(v)
      v:stop("arrive")
      v.data.search = nil
    end,
  },

  rest = {
    enter = function(v)
      local game = v.data.game
      if game.note then game.note("tired", v, "tired") end -- the game's pop (hunter_prey/waves.lua)
      v.max_speed = level(v).hunter_speed * 0.35
      v:wander{ radius = 20, distance = 40, jitter = 60, weight = 1, priority = 2 }
    end,
    think = function(v, dt)
      local game = v.data.game
      v.data.stamina = math.min(level(v).stamina, v.data.stamina + game.config.refill * dt)
      if v.data.stamina >= level(v).stamina then return "hunt" end
    end,
    exit = function(v)
      v:stop("wander")
      v.max_speed = level(v).hunter_speed
    end,
  },
}

-- The global state: its think runs before the current state's, at every think.
Hunter.states.always = { think = function(v, dt) Hunter.on_think(v, dt) end }

Hunter.brain = fsm.machine{ initial = "hunt", global = "always", states = Hunter.states }

function Hunter.spawn(game, x, y)
  local lv = game.level
  local v = game.world:spawn{
    kind = "hunter", x = x, y = y, heading = game.world:random() * 2 * math.pi,
    max_speed = lv.hunter_speed, max_force = 400, mass = 1, radius = 9, color = { 230, 70, 60 },
  }
  v.combine = "priority"
  v:avoid_obstacles{ priority = 0, weight = 3 }
  v:avoid_walls{ priority = 0, weight = 3 }
  v:contain{ priority = 1, margin = 30 }
  v.data.game = game
  v.data.stamina = lv.stamina
  Hunter.eyes(v)
  fsm.start(v, Hunter.brain)
  return v
end

return Hunter
