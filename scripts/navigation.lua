-- SPDX-License-Identifier: MIT
-- Navigation: hunters plan paths through rooms and doors to reach wandering prey; a crowd crosses
-- the maze to one goal by a single flow field. Keys: n navigate / plain seek, o paths on / off, g moves the goal.
-- Try: press n and watch the seeking hunters slide along the walls; F5 shows the targets overlay too.
local M = { world = { width = 1000, height = 700, edges = "contain", seed = 5 } }

M.keys = {
  { "n", "hunters navigate / seek straight" },
  { "o", "planned paths on / off" },
  { "g", "move the crowd's goal" },
}

-- Rooms with doors (x1, y1, x2, y2).
M.segments = {
  { 330, 0, 330, 280 }, { 330, 350, 330, 700 },       -- left rooms | middle
  { 660, 0, 660, 420 }, { 660, 490, 660, 700 },       -- middle | right rooms
  { 0, 350, 120, 350 }, { 190, 350, 330, 350 },       -- left: upper / lower room
  { 660, 250, 870, 250 }, { 940, 250, 1000, 250 },    -- right: upper / lower room
  { 430, 140, 560, 140 }, { 430, 560, 560, 560 },     -- furniture in the middle
}
M.rocks = { { 495, 350, 45 }, { 160, 170, 30 }, { 820, 480, 35 } }
M.goals = { { 930, 640 }, { 60, 60 }, { 930, 80 }, { 60, 640 } }

local navigating, show_paths, goal_index = true, true, 1
local hunters, prey, crowd = {}, {}, {}
local field

local function random_spot(world)
  -- a free spot: find_path from it to itself says whether it keeps clear of every wall and rock
  for _ = 1, 100 do
    local x, y = 30 + world:random() * 940, 30 + world:random() * 640
    if world:find_path(x, y, x, y, { radius = 10 }) then return x, y end
  end
  return 500, 250
end

local function closest_prey(h)
  local best, best_d
  for _, p in ipairs(prey) do
    local d = (p.x - h.x) ^ 2 + (p.y - h.y) ^ 2
    if not best_d or d < best_d then best, best_d = p, d end
  end
  return best
end

local function chase(h)
  local target = closest_prey(h)
  if navigating then
    h:stop("seek"):navigate{ target = target, replan_distance = 40, slowing_radius = 10 }
  else
    h:stop("navigate"):seek(target)
  end
end

local function make_field(world)
  if field then field:remove() end
  local g = M.goals[goal_index]
  field = world:flow_field_to{ x = g[1], y = g[2], radius = 6, cell_size = 10 }
  for _, v in ipairs(crowd) do v:follow_flow(field, { lookahead = 0.2 }) end
  M.field = field
end

function M.load(world)
  navigating, show_paths, goal_index = true, true, 1
  hunters, prey, crowd, field = {}, {}, {}, nil
  for _, s in ipairs(M.segments) do world:wall{ x1 = s[1], y1 = s[2], x2 = s[3], y2 = s[4] } end
  for _, r in ipairs(M.rocks) do world:obstacle{ x = r[1], y = r[2], radius = r[3] } end
  for i = 1, 6 do
    local x, y = random_spot(world)
    local p = world:spawn{ kind = "prey", x = x, y = y, max_speed = 50, radius = 6, color = { 120, 220, 140 } }
    p:wander{ radius = 20, distance = 40, jitter = 60 }:avoid_walls{ priority = 0, weight = 3 }:avoid_obstacles()
    prey[i] = p
  end
  for i = 1, 4 do
    local h = world:spawn{ kind = "hunter", x = 60 + 60 * i, y = 620, max_speed = 90, max_force = 400, radius = 7,
                           color = { 235, 110, 90 } }
    h.data.catches = 0
    h:avoid_walls{ feeler_length = 25, weight = 2 }
    hunters[i] = h
    chase(h)
  end
  for i = 1, 60 do
    local v = world:spawn{ kind = "walker", x = 40 + (i - 1) % 10 * 25, y = 420 + (i - 1) // 10 * 25, max_speed = 70,
                           radius = 4, color = { 130, 170, 255 } }
    v:separate{ weight = 0.6 }
    crowd[i] = v
  end
  make_field(world)
  M.hunters, M.prey, M.crowd = hunters, prey, crowd
end

function M.reload(world)
  hunters, prey, crowd = world:vehicles("hunter"), world:vehicles("prey"), world:vehicles("walker")
  M.hunters, M.prey, M.crowd = hunters, prey, crowd
end

function M.update(world)
  for _, h in ipairs(hunters) do
    local p = closest_prey(h)
    if p and (p.x - h.x) ^ 2 + (p.y - h.y) ^ 2 < 15 ^ 2 then -- caught: the prey runs off somewhere else
      h.data.catches = h.data.catches + 1
      p:set_position(random_spot(world))
    end
    if world.step_count % 30 == 0 then chase(h) end
  end
  local g = M.goals[goal_index]
  for _, v in ipairs(crowd) do -- arrived: back to the far side, to cross again
    if (v.x - g[1]) ^ 2 + (v.y - g[2]) ^ 2 < 40 ^ 2 then v:set_position(random_spot(world)) end
  end
end

function M.keypressed(key)
  local world = hunters[1] and hunters[1].world
  if not world then return end
  if key == "n" then
    navigating = not navigating
    for _, h in ipairs(hunters) do chase(h) end
  elseif key == "o" then
    show_paths = not show_paths
  elseif key == "g" then
    goal_index = goal_index % #M.goals + 1
    make_field(world)
  end
end

function M.draw(gfx)
  local catches, states = 0, {}
  for _, h in ipairs(hunters) do
    catches = catches + h.data.catches
    local points, state = h:nav_path()
    states[#states + 1] = navigating and state or "seek"
    if show_paths and #points > 1 then
      for k = 1, #points - 1 do
        gfx.line(points[k][1], points[k][2], points[k + 1][1], points[k + 1][2], { 235, 110, 90, 140 })
      end
    end
  end
  local g = M.goals[goal_index]
  gfx.circle(g[1], g[2], 40, { 130, 170, 255, 160 })
  gfx.hud(("hunters %s (n): %d catches   [%s]"):format(navigating and "navigate" or "seek", catches,
    table.concat(states, ", ")))
  gfx.hud("the crowd follows one flow field to the blue ring (g moves it); paths " ..
    (show_paths and "on" or "off") .. " (o)")
end

return M
