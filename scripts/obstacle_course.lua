-- Obstacle avoidance for a crowd: 80 vehicles cross a field of rocks, each with a detection box that grows with speed.
-- Keys: s toggles separation between them; o toggles obstacle avoidance (watch them plough through).
-- Try: turn separation off and see them bunch up behind the rocks; F3 shows the detection boxes.
local M = { world = { width = 1100, height = 650, edges = "wrap", seed = 7 } }

-- What F1 lists under the program's keys; keypressed and the mouse callbacks below do these.
M.keys = {
  { "s", "separation on / off" },
  { "o", "obstacle avoidance on / off" },
}

local separating, avoiding = true, true
local crowd = {}
M.rocks = {}

local function steer_all()
  for _, v in ipairs(crowd) do
    v:stop()
    -- keep heading east in its lane; the point is less than half the width ahead because distances wrap
    v:seek(v.x + 300, v.data.lane, { weight = 0.4, priority = 3 })
    v:wander{ radius = 15, distance = 40, jitter = 40, weight = 0.3, priority = 3 }
    if avoiding then v:avoid_obstacles{ detection_length = 50, priority = 0, weight = 2 } end
    if separating then v:separate{ priority = 1, weight = 1.5 } end
  end
end

function M.load(world)
  separating, avoiding, crowd, M.rocks = true, true, {}, {}
  -- rocks on a jittered grid across the middle of the field, all inside it (rows 160 apart pushed
  -- the last ones over the bottom edge, where a wrapping world does not wrap an obstacle)
  for col = 0, 4 do
    for row = 0, 3 do
      local x, y = 320 + col * 120 + world:random(-25, 25), 80 + row * 150 + (col % 2) * 60 + world:random(-20, 20)
      local r = world:random(18, 38)
      world:obstacle{ x = x, y = y, radius = r }
      M.rocks[#M.rocks + 1] = { x = x, y = y, r = r }
    end
  end
  for i = 1, 80 do
    local y = 20 + (i - 1) * 610 / 80
    crowd[i] = world:spawn{ kind = "walker", x = world:random(0, 200), y = y, heading = 0, max_speed = 90,
                            max_force = 260, radius = 5, neighbor_radius = 25, combine = "priority",
                            color = { 120, 200, 255 }, data = { lane = y } }
  end
  steer_all()
  M.crowd = crowd
end

-- The seek point is re-aimed ahead every step so they keep crossing the wrapping field.
function M.update()
  for _, v in ipairs(crowd) do v:seek(v.x + 300, v.data.lane, { weight = 0.4, priority = 3 }) end
end

-- A hot reload runs this file again, so its locals start afresh: pick the run back up from the
-- world (the vehicles and their v.data survive).
function M.reload(world)
  crowd = world:vehicles("walker")
  M.crowd = crowd
  steer_all() -- with the behaviours as the file now says
end

function M.keypressed(key)
  if key == "s" then separating = not separating; steer_all()
  elseif key == "o" then avoiding = not avoiding; steer_all() end
end

function M.draw(gfx)
  gfx.hud(("separation %s (s)   obstacle avoidance %s (o)"):format(separating and "on" or "off",
    avoiding and "on" or "off"))
end

return M
