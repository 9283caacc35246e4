-- Wander (Reynolds): a target jitters on a circle projected ahead of the vehicle; the vehicle seeks it.
-- Keys: q/a radius +/-, w/s distance +/-, e/d jitter +/-; the big vehicle shows its wander circle.
-- Try: jitter high with a small radius (nervous), then a big radius far ahead (long lazy curves).
local M = { world = { width = 900, height = 600, edges = "wrap", seed = 4 } }

-- What F1 lists under the program's keys; keypressed and the mouse callbacks below do these.
M.keys = {
  { "q / a", "wander radius + / -" },
  { "w / s", "wander distance + / -" },
  { "e / d", "jitter + / -" },
}

local params = { radius = 30, distance = 60, jitter = 80 }
local STEPS = { radius = 5, distance = 10, jitter = 20 }
local KEYS = { q = { "radius", 1 }, a = { "radius", -1 }, w = { "distance", 1 }, s = { "distance", -1 },
               e = { "jitter", 1 }, d = { "jitter", -1 } }
local shown, the_world

local function apply(world)
  for _, v in ipairs(world:vehicles()) do v:wander(params) end
end

function M.load(world)
  params = { radius = 30, distance = 60, jitter = 80 }
  shown = world:spawn{ kind = "shown", x = 450, y = 300, max_speed = 90, max_force = 200, radius = 10,
                       color = { 250, 220, 80 } }
  for _ = 1, 25 do
    world:spawn{ kind = "wanderer", x = world:random(0, 900), y = world:random(0, 600),
                 heading = world:random() * 2 * math.pi, max_speed = 90, max_force = 200, radius = 6,
                 color = { 120, 200, 255 } }
  end
  apply(world)
  the_world = world
end

-- A hot reload runs this file again, so its locals start afresh: pick the run back up from the
-- world (the vehicles and their v.data survive).
function M.reload(world)
  shown, the_world = world:vehicles("shown")[1], world
  apply(world) -- the file's params, as just saved
end

function M.keypressed(key)
  local k = KEYS[key]
  if not k then return end
  params[k[1]] = math.max(0, params[k[1]] + k[2] * STEPS[k[1]])
  apply(the_world)
end

function M.draw(gfx)
  -- the circle sits `distance` ahead along the heading
  local hx, hy = math.cos(shown.heading), math.sin(shown.heading)
  local cx, cy = shown.x + hx * params.distance, shown.y + hy * params.distance
  gfx.line(shown.x, shown.y, cx, cy, { 250, 220, 80, 120 })
  gfx.circle(cx, cy, params.radius, { 250, 220, 80, 160 })
  local wander = shown:forces().wander -- where the target sat on the circle in the last step
  if wander then gfx.circle(wander.wander_target[1], wander.wander_target[2], 3, { 250, 220, 80 }, true) end
  gfx.hud(("radius %d (q/a)   distance %d (w/s)   jitter %d (e/d)"):format(params.radius, params.distance,
    params.jitter))
end

return M
