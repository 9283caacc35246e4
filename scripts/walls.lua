-- Wall avoidance: vehicles wander through rooms of wall segments, feeling ahead with three feelers.
-- Keys: w toggles wall avoidance (without it they walk through walls: the core adds no hidden collisions).
-- Try: F3 shows the feelers; watch a vehicle slide along a wall instead of bouncing off it.
local M = { world = { width = 900, height = 600, edges = "contain", seed = 8 } }

-- What F1 lists under the program's keys; keypressed and the mouse callbacks below do these.
M.keys = {
  { "w", "wall avoidance on / off" },
}

M.segments = {
  { 20, 20, 880, 20 }, { 880, 20, 880, 580 }, { 880, 580, 20, 580 }, { 20, 580, 20, 20 }, -- the box
  { 300, 20, 300, 250 }, { 300, 350, 300, 580 },   -- a wall with a door
  { 600, 120, 600, 480 },                          -- a free-standing wall
  { 300, 300, 480, 300 }, { 700, 300, 880, 300 },  -- shelves
  { 80, 150, 200, 250 },                           -- a diagonal
}

local avoiding = true
local walkers = {}

local function steer_all()
  for _, v in ipairs(walkers) do
    if avoiding then v:avoid_walls{ feeler_length = 40, priority = 0, weight = 3 } else v:stop("avoid_walls") end
  end
end

function M.load(world)
  avoiding, walkers = true, {}
  for _, s in ipairs(M.segments) do world:wall{ x1 = s[1], y1 = s[2], x2 = s[3], y2 = s[4] } end
  for i = 1, 30 do
    local v = world:spawn{ kind = "walker", x = 60 + (i - 1) % 10 * 80, y = 60 + (i - 1) // 10 * 200,
                           heading = world:random() * 2 * math.pi, max_speed = 80, max_force = 300, radius = 6,
                           combine = "priority", color = { 120, 200, 255 } }
    v:wander{ radius = 25, distance = 50, jitter = 80, priority = 2 }
    walkers[i] = v
  end
  steer_all()
  M.walkers = walkers
end

-- A hot reload runs this file again, so its locals start afresh: pick the run back up from the
-- world (the vehicles and their v.data survive).
function M.reload(world)
  walkers = world:vehicles("walker")
  M.walkers = walkers
  steer_all()
end

function M.keypressed(key)
  if key == "w" then avoiding = not avoiding; steer_all() end
end

function M.draw(gfx)
  gfx.hud("wall avoidance " .. (avoiding and "on" or "off") .. " (w)")
end

return M
