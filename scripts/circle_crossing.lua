-- SPDX-License-Identifier: MIT
-- Circle crossing, the standard crowd test: vehicles on a circle each cross to the opposite point.
-- Keys: o toggles reciprocal avoidance (orca; off: separation + avoid_collisions); r starts again.
-- Try: with orca off, watch them overlap or jam in the middle; the HUD counts arrivals and overlaps.
local crowd_lib = require "crowd"

local M = { world = { width = 1100, height = 1100, edges = "none", seed = 5 } }

M.keys = {
  { "o", "reciprocal avoidance (orca) on / off" },
  { "r", "start the crossing again" },
}

M.COUNT = 100
M.CIRCLE = 450          -- radius of the circle they start on, around the world's centre
M.RADIUS = 8
M.SPEED = 60

local orca = true
local crowd = {}
local started_at, done_at, overlaps, the_world

local function centre(world) return world.width / 2, world.height / 2 end

local function set_up(v)
  v:stop()
  v:arrive(v.data.gx, v.data.gy, { slowing_radius = 20 })
  crowd_lib.avoid(v, orca, M.SPEED)
end

local function walker(o) return o.kind == "walker" end

local function start(world)
  started_at, done_at, overlaps = world.time, nil, 0
  local cx, cy = centre(world)
  for i, v in ipairs(crowd) do
    local angle = 2 * math.pi * (i - 1) / #crowd
    local x, y = cx + M.CIRCLE * math.cos(angle), cy + M.CIRCLE * math.sin(angle)
    v:set_position(x, y)
    v.data.gx, v.data.gy = 2 * cx - x, 2 * cy - y
    v.data.arrived = false
    set_up(v)
  end
end

function M.load(world)
  orca, crowd, the_world = true, {}, world
  for i = 1, M.COUNT do
    local hue = (i - 1) / M.COUNT
    local color = { math.floor(80 + 175 * hue), 120, math.floor(255 - 175 * hue) }
    crowd[i] = world:spawn{ kind = "walker", x = 0, y = 0, radius = M.RADIUS, max_speed = M.SPEED,
                            neighbor_radius = 80, color = color }
  end
  start(world)
  M.crowd = crowd
end

function M.update(world)
  local arrived = 0
  for _, v in ipairs(crowd) do
    local dx, dy = v.x - v.data.gx, v.y - v.data.gy
    if dx * dx + dy * dy <= M.RADIUS * M.RADIUS then v.data.arrived = true end
    if v.data.arrived then arrived = arrived + 1 end
  end
  if crowd_lib.overlapping(world, crowd, M.RADIUS, walker) then overlaps = overlaps + 1 end
  if arrived == #crowd and not done_at then done_at = world.time - started_at end
  M.arrived, M.done_at, M.overlaps = arrived, done_at, overlaps
end

function M.reload(world)
  the_world, crowd = world, world:vehicles("walker")
  M.crowd = crowd
end

function M.keypressed(key)
  if key == "o" then
    orca = not orca
    start(the_world)
  elseif key == "r" then
    start(the_world)
  end
end

function M.draw(gfx)
  gfx.hud(("%s (o)   arrived %d / %d%s   steps with an overlap %d"):format(
    orca and "orca" or "separate + avoid_collisions", M.arrived or 0, #crowd,
    done_at and ("   all after %.1f s"):format(done_at) or "", overlaps or 0))
end

return M
