-- Guards in rooms: guards patrol, chase the intruders they see, search where they lost them, give up
-- when they forget, and go and look where they hear a noise. Keys: M.keys (click or n: a noise; i, f).
-- Try: F11 shows cones, rays (green clear, red blocked by a wall or crate), sounds and memories' ghosts.
local fsm = require "fsm"
local Guard = require "guards.guard"
local Intruder = require "guards.intruder"

local M = {}

M.world = { width = 960, height = 640, edges = "contain", seed = 5 }

M.keys = {
  { "left click", "a noise there: guards in earshot come to look" },
  { "n", "a noise at the pointer (the middle without one)" },
  { "i", "one more intruder" },
  { "f", "intruders' footsteps on / off" },
}

-- Tunables (tests change them before load). Units, units/s, s, degrees.
M.config = {
  guards = {  -- where each guard starts and its round (nil: it stands at its post, facing `heading`)
    { x = 80, y = 80, route = { { 80, 80 }, { 400, 80 }, { 400, 260 }, { 80, 260 } } },
    { x = 880, y = 260, route = { { 880, 260 }, { 560, 260 }, { 560, 80 }, { 880, 80 } } },
    { x = 80, y = 560, route = { { 80, 560 }, { 80, 380 }, { 400, 380 }, { 400, 560 } } },
    { x = 880, y = 380, route = { { 880, 380 }, { 880, 560 }, { 560, 560 }, { 560, 380 } } },
  },
  intruders = { { 300, 300 }, { 640, 350 }, { 200, 420 } },
  sight_range = 220, fov = 110, forget_after = 4,
  patrol_speed = 50, chase_speed = 85, catch_distance = 14, catch_check = 0.2,
  search_lead = 0.5, look_after = 2, investigate_for = 5,
  intruder_speed = 55, intruder_sight = 130, step_every = 0.5, step_radius = 70,
  noise_radius = 320,
}

-- Four rooms: walls with doors between them, a crate in the middle of each.
M.walls = {
  { 20, 20, 940, 20 }, { 940, 20, 940, 620 }, { 940, 620, 20, 620 }, { 20, 620, 20, 20 },
  { 480, 20, 480, 130 }, { 480, 210, 480, 430 }, { 480, 510, 480, 620 },  -- doors at y 130-210, 430-510
  { 20, 320, 200, 320 }, { 280, 320, 680, 320 }, { 760, 320, 940, 320 }, -- doors at x 200-280, 680-760
}
M.crates = { { 240, 170 }, { 710, 170 }, { 240, 470 }, { 710, 470 } }
M.CRATE_RADIUS = 24

local game -- shared by every brain through v.data.game (so it survives reloads)

function M.spawn_guard(world, g)
  local v = world:spawn{ kind = "guard", x = g.x, y = g.y, heading = g.heading or 0, radius = 7,
                         max_speed = game.config.patrol_speed, max_force = 260, combine = "priority" }
  v.data.game = game
  if g.route then v.data.route = world:path{ loop = true, table.unpack(g.route) } end
  Guard.senses(v, game.config)
  fsm.start(v, Guard.machine)
  game.guards[#game.guards + 1] = v
  return v
end

function M.spawn_intruder(world, x, y, opts)
  opts = opts or {}
  local v = world:spawn{ kind = "intruder", x = x, y = y, heading = opts.heading or world:random() * 2 * math.pi,
                         radius = 6, max_speed = game.config.intruder_speed, max_force = 220, combine = "priority" }
  v.data.game = game
  v.data.still = opts.still -- tests: an intruder that stays where it is put
  Intruder.senses(v, game.config)
  fsm.start(v, Intruder.machine)
  v:wake_in(game.config.step_every * (1 + #game.intruders % 3) / 3) -- footsteps out of step
  game.intruders[#game.intruders + 1] = v
  return v
end

-- A noise the guards in earshot hear (through walls) in the next step.
function M.noise(world, x, y)
  world:emit{ x = x, y = y, radius = game.config.noise_radius, tag = "noise" }
  game.noises[#game.noises + 1] = { x = x, y = y, at = world.time }
end

-- Where caught intruders go back to: the corner furthest from the guard that caught them.
local ENTRANCES = { { 60, 300 }, { 900, 300 }, { 60, 340 }, { 900, 340 } }

function M.load(world)
  game = { config = M.config, guards = {}, intruders = {}, noises = {}, caught = nil, count = 0,
           footsteps = true, world = world }
  M.game = game
  game.caught = function(guard, intruder)
    game.count = game.count + 1
    local best, far = ENTRANCES[1], -1
    for _, e in ipairs(ENTRANCES) do
      local d = (e[1] - guard.x) ^ 2 + (e[2] - guard.y) ^ 2
      if d > far then best, far = e, d end
    end
    intruder:set_position(best[1], best[2])
  end
  for _, s in ipairs(M.walls) do world:wall{ x1 = s[1], y1 = s[2], x2 = s[3], y2 = s[4] } end
  for _, c in ipairs(M.crates) do world:obstacle{ x = c[1], y = c[2], radius = M.CRATE_RADIUS } end
  for _, g in ipairs(M.config.guards) do M.spawn_guard(world, g) end
  for _, p in ipairs(M.config.intruders) do M.spawn_intruder(world, p[1], p[2]) end
end

function M.reload(world)
  for _, v in ipairs(world:vehicles()) do
    if v.data.game then game = v.data.game; M.game = game; break end
  end
  if game then game.config = M.config end
end

function M.update(world)
  fsm.update(world)
  while game.noises[1] and world.time - game.noises[1].at > 1 do table.remove(game.noises, 1) end
end

local pointer
function M.mousemoved(x, y) pointer = { x, y } end

function M.mousepressed(x, y, button)
  if button == 1 then M.noise(game.world, x, y) end
end

function M.keypressed(key)
  if key == "n" then
    local x, y = 480, 320
    if pointer then x, y = pointer[1], pointer[2] end
    M.noise(game.world, x, y)
  elseif key == "i" then
    local e = ENTRANCES[#game.intruders % #ENTRANCES + 1]
    M.spawn_intruder(game.world, e[1], e[2])
  elseif key == "f" then
    game.footsteps = not game.footsteps
  end
end

function M.draw(gfx)
  local now = game.world.time
  for _, n in ipairs(game.noises) do -- a noise shows for a second as a growing ring
    local age = now - n.at
    if age < 1 then gfx.circle(n.x, n.y, 10 + age * game.config.noise_radius, { 200, 150, 255, 200 - 180 * age }) end
  end
  local states = {}
  for _, v in ipairs(game.guards) do states[#states + 1] = v.state or "?" end
  gfx.hud(("caught %d   guards: %s"):format(game.count, table.concat(states, ", ")))
  gfx.hud(("footsteps %s (f)   click or n: a noise   F11: senses"):format(game.footsteps and "on" or "off"))
end

return M
