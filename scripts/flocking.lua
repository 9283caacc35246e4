-- Flocking (Reynolds boids): 1200 vehicles steered only by neighbours within 24 units: separation, alignment, cohesion.
-- Keys: 1 separation, 2 alignment, 3 cohesion (each toggles); the HUD shows polarisation (1 = all fly one way).
-- Try: switch alignment off and the flocks dissolve into swarms; cohesion off and they spread into thin streams.
local M = { world = { width = 1400, height = 900, edges = "wrap", seed = 9 } }

-- What F1 lists under the program's keys; keypressed and the mouse callbacks below do these.
M.keys = {
  { "1", "separation on / off" },
  { "2", "alignment on / off" },
  { "3", "cohesion on / off" },
}

M.COUNT = 1200
M.NEIGHBOR_RADIUS = 24 -- units: small against the world, so separate flocks form instead of one lattice
local weights = { separation = 1.0, alignment = 1.2, cohesion = 1.2, wander = 0.2 }
local on = { separation = true, alignment = true, cohesion = true }
local KEYS = { ["1"] = "separation", ["2"] = "alignment", ["3"] = "cohesion" }
local the_world

local function apply()
  local opts = { wander = weights.wander }
  for part, is_on in pairs(on) do opts[part] = is_on and weights[part] or 0 end
  for _, v in ipairs(the_world:vehicles("boid")) do v:flock(opts) end
end

function M.load(world)
  the_world = world
  on = { separation = true, alignment = true, cohesion = true }
  for _ = 1, M.COUNT do
    local heading = world:random() * 2 * math.pi -- every boid starts flying its own way
    world:spawn{ kind = "boid", x = world:random(0, world.width), y = world:random(0, world.height),
                 vx = 60 * math.cos(heading), vy = 60 * math.sin(heading), max_speed = 90, max_force = 180, radius = 3,
                 neighbor_radius = M.NEIGHBOR_RADIUS, color = { 150, 200, 255 } }
  end
  apply()
end

-- |mean of the unit velocities|: 0 for a swarm going every way, 1 when all fly the same way.
function M.polarisation(world)
  local sx, sy, n = 0, 0, 0
  for _, v in ipairs(world:vehicles("boid")) do
    if v.speed > 0 then sx, sy, n = sx + v.vx / v.speed, sy + v.vy / v.speed, n + 1 end
  end
  return n > 0 and math.sqrt(sx * sx + sy * sy) / n or 0
end

-- The same measured around each boid among its neighbours, then averaged: how aligned each local
-- flock is, even when separate flocks fly different ways.
function M.local_order(world, radius)
  local total, n = 0, 0
  for _, v in ipairs(world:vehicles("boid")) do
    local sx, sy, k = 0, 0, 0
    for _, u in ipairs(world:neighbors(v, radius, "boid")) do
      if u.speed > 0 then sx, sy, k = sx + u.vx / u.speed, sy + u.vy / u.speed, k + 1 end
    end
    if v.speed > 0 then sx, sy, k = sx + v.vx / v.speed, sy + v.vy / v.speed, k + 1 end
    if k > 1 then total, n = total + math.sqrt(sx * sx + sy * sy) / k, n + 1 end
  end
  return n > 0 and total / n or 0
end

-- A hot reload runs this file again, so its locals start afresh: pick the run back up from the
-- world (the vehicles and their v.data survive).
function M.reload(world)
  the_world = world
  apply() -- the file's weights, as just saved
end

function M.keypressed(key)
  local part = KEYS[key]
  if part then on[part] = not on[part]; apply() end
end

local shown_polarisation, last_update = 0, -1

function M.draw(gfx)
  -- polarisation walks every boid: twice a second is plenty for a HUD line
  if the_world.time - last_update >= 0.5 or the_world.time < last_update then
    shown_polarisation, last_update = M.polarisation(the_world), the_world.time
  end
  local function flag(part) return on[part] and "on" or "off" end
  gfx.hud(("%d boids   separation %s (1)   alignment %s (2)   cohesion %s (3)   polarisation %.2f"):format(
    the_world:count("boid"), flag("separation"), flag("alignment"), flag("cohesion"), shown_polarisation))
end

return M
