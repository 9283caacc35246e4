-- SPDX-License-Identifier: MIT
-- Navigation: hunters plan paths through rooms and doors to the prey they see, and to where they last
-- saw it; a crowd crosses a maze to one goal by a single flow field. Keys: n navigate / seek, o, g.
-- Try: press n and watch seeking hunters slide along walls; F12 shows the navigation maps and replans.
local M = { world = { width = 1400, height = 700, edges = "contain", seed = 5 } }

M.keys = {
  { "n", "hunters navigate / seek straight" },
  { "o", "planned paths on / off" },
  { "g", "move the crowd's goal in the maze" },
}

-- The rooms (x < 1000), with doors (x1, y1, x2, y2); the maze is made at load, right of x = 1000.
M.segments = {
  { 330, 0, 330, 280 }, { 330, 350, 330, 700 },       -- left rooms | middle
  { 660, 0, 660, 420 }, { 660, 490, 660, 700 },       -- middle | right rooms
  { 0, 350, 120, 350 }, { 190, 350, 330, 350 },       -- left: upper / lower room
  { 660, 250, 870, 250 }, { 940, 250, 1000, 250 },    -- right: upper / lower room
  { 430, 140, 560, 140 }, { 430, 560, 560, 560 },     -- furniture in the middle
  { 1000, 0, 1000, 700 },                             -- the rooms | the maze
}
M.rocks = { { 495, 350, 45 }, { 160, 170, 30 }, { 820, 480, 35 } }
-- The maze: MAZE_COLS x MAZE_ROWS cells of MAZE_CELL units from (MAZE_X, 0); the crowd's goals are
-- cells of it (column, row from 0).
M.MAZE_X, M.MAZE_CELL, M.MAZE_COLS, M.MAZE_ROWS = 1000, 50, 8, 14
M.goals = { { 7, 13 }, { 7, 0 }, { 0, 13 } }
-- Hunters' eyes (units, degrees, s) and how often they decide (s).
M.config = { sight_range = 280, fov = 140, forget_after = 6, decide_every = 0.5, catch_distance = 15 }

local navigating, show_paths, goal_index = true, true, 1
local hunters, prey, crowd = {}, {}, {}
local field

local function cell_centre(c, r) return M.MAZE_X + (c + 0.5) * M.MAZE_CELL, (r + 0.5) * M.MAZE_CELL end

-- A perfect maze (one way between any two cells) by a depth-first walk that knocks walls down, drawn
-- from the world's random numbers (the same maze for the same seed). Returns its wall segments.
local function maze_walls(world)
  local cols, rows, size, x0 = M.MAZE_COLS, M.MAZE_ROWS, M.MAZE_CELL, M.MAZE_X
  local right, down, seen = {}, {}, {} -- right[i], down[i]: the wall right of / below cell i stands
  for i = 1, cols * rows do right[i], down[i] = true, true end
  local function index(c, r) return r * cols + c + 1 end
  local stack = { { 0, 0 } }
  seen[index(0, 0)] = true
  while #stack > 0 do
    local c, r = stack[#stack][1], stack[#stack][2]
    local options = {}
    for _, d in ipairs{ { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } } do
      local nc, nr = c + d[1], r + d[2]
      if nc >= 0 and nr >= 0 and nc < cols and nr < rows and not seen[index(nc, nr)] then
        options[#options + 1] = { nc, nr }
      end
    end
    if #options == 0 then
      stack[#stack] = nil
    else
      local n = options[math.floor(world:random() * #options) + 1]
      local nc, nr = n[1], n[2]
      if nc > c then right[index(c, r)] = false
      elseif nc < c then right[index(nc, r)] = false
      elseif nr > r then down[index(c, r)] = false
      else down[index(c, nr)] = false end
      seen[index(nc, nr)] = true
      stack[#stack + 1] = { nc, nr }
    end
  end
  local segments = {}
  for r = 0, rows - 1 do
    for c = 0, cols - 1 do
      local x, y = x0 + c * size, r * size
      if right[index(c, r)] and c < cols - 1 then segments[#segments + 1] = { x + size, y, x + size, y + size } end
      if down[index(c, r)] and r < rows - 1 then segments[#segments + 1] = { x, y + size, x + size, y + size } end
    end
  end
  return segments
end

local function random_spot(world)
  -- a free spot in the rooms: find_path from it to itself says whether it keeps clear of every shape
  for _ = 1, 100 do
    local x, y = 30 + world:random() * 940, 30 + world:random() * 640
    if world:find_path(x, y, x, y, { radius = 10 }) then return x, y end
  end
  return 500, 250
end

local function random_maze_spot(world)
  return cell_centre(math.floor(world:random() * M.MAZE_COLS), math.floor(world:random() * M.MAZE_ROWS))
end

-- Go to a vehicle or a point: by a planned path, or (key n) in a straight line.
local function go(h, target, x, y)
  if navigating then
    h:stop("seek")
    if target then
      h:navigate{ target = target, replan_distance = 40, slowing_radius = 10 }
    else
      h:navigate{ x = x, y = y, slowing_radius = 10 }
    end
  else
    h:stop("navigate")
    if target then h:seek(target) else h:seek(x, y) end
  end
end

-- A hunter decides every decide_every seconds from what its eyes report: the closest prey in sight
-- is chased; else the freshest prey it remembers is searched for where it was last seen; else it
-- roams to spots at random.
local function decide(world, h)
  local seen = h:sensed("eyes")
  if seen then
    h.state, h.data.spot = "chase", nil
    M.decisions.chase = M.decisions.chase + 1
    return go(h, seen)
  end
  local best_age, sx, sy
  for _, x, y, _, _, age in h:memory("eyes") do
    local far = (x - h.x) ^ 2 + (y - h.y) ^ 2 > 30 ^ 2 -- not where it stands (nothing there any more)
    if far and (not best_age or age < best_age) then best_age, sx, sy = age, x, y end
  end
  if sx then
    h.state, h.data.spot = "search", nil
    M.decisions.search = M.decisions.search + 1
    return go(h, nil, sx, sy)
  end
  local spot = h.data.spot
  if h.state ~= "roam" or not spot or (spot[1] - h.x) ^ 2 + (spot[2] - h.y) ^ 2 < 30 ^ 2 then
    spot = { random_spot(world) }
    h.data.spot = spot
  end
  h.state = "roam"
  M.decisions.roam = M.decisions.roam + 1
  go(h, nil, spot[1], spot[2])
end

local function make_field(world)
  if field then field:remove() end
  local gx, gy = cell_centre(M.goals[goal_index][1], M.goals[goal_index][2])
  field = world:flow_field_to{ x = gx, y = gy, radius = 6, cell_size = 10 }
  for _, v in ipairs(crowd) do v:follow_flow(field, { lookahead = 0.2 }) end
  M.field = field
end

function M.load(world)
  navigating, show_paths, goal_index = true, true, 1
  hunters, prey, crowd, field = {}, {}, {}, nil
  M.decisions, M.arrivals = { chase = 0, search = 0, roam = 0 }, 0 -- how the hunters decided; crossings
  for _, s in ipairs(M.segments) do world:wall{ x1 = s[1], y1 = s[2], x2 = s[3], y2 = s[4] } end
  for _, s in ipairs(maze_walls(world)) do world:wall{ x1 = s[1], y1 = s[2], x2 = s[3], y2 = s[4] } end
  for _, r in ipairs(M.rocks) do world:obstacle{ x = r[1], y = r[2], radius = r[3] } end
  for i = 1, 6 do
    local x, y = random_spot(world)
    local p = world:spawn{ kind = "prey", x = x, y = y, max_speed = 50, radius = 6, color = { 120, 220, 140 } }
    p:wander{ radius = 20, distance = 40, jitter = 60 }:avoid_walls{ priority = 0, weight = 3 }:avoid_obstacles()
    prey[i] = p
  end
  local c = M.config
  for i = 1, 4 do
    local h = world:spawn{ kind = "hunter", x = 60 + 60 * i, y = 620, max_speed = 90, max_force = 400, radius = 7,
                           color = { 235, 110, 90 } }
    h.data.catches = 0
    h:sense{ name = "eyes", sight = { kinds = { "prey" }, range = c.sight_range, fov = c.fov,
                                      forget_after = c.forget_after } }
    h:avoid_walls{ feeler_length = 25, weight = 2 }
    hunters[i] = h
    decide(world, h)
  end
  for i = 1, 80 do
    local x, y = random_maze_spot(world)
    local v = world:spawn{ kind = "walker", x = x + (i % 3 - 1) * 8, y = y + (i % 2) * 8 - 4, max_speed = 60,
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
  local every = math.max(1, math.floor(M.config.decide_every / world.dt + 0.5))
  for i, h in ipairs(hunters) do
    for _, p in ipairs(prey) do
      if (p.x - h.x) ^ 2 + (p.y - h.y) ^ 2 < M.config.catch_distance ^ 2 then -- caught: it runs off elsewhere
        h.data.catches = h.data.catches + 1
        p:set_position(random_spot(world))
      end
    end
    if (world.step_count + i) % every == 0 then decide(world, h) end -- staggered
  end
  local gx, gy = cell_centre(M.goals[goal_index][1], M.goals[goal_index][2])
  for _, v in ipairs(crowd) do -- arrived: back somewhere in the maze, to cross it again
    if (v.x - gx) ^ 2 + (v.y - gy) ^ 2 < 20 ^ 2 then
      M.arrivals = M.arrivals + 1
      v:set_position(random_maze_spot(world))
    end
  end
end

function M.keypressed(key)
  local world = hunters[1] and hunters[1].world
  if not world then return end
  if key == "n" then
    navigating = not navigating
    for _, h in ipairs(hunters) do decide(world, h) end
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
    states[#states + 1] = (h.state or "?") .. ":" .. (navigating and state or "seek")
    if show_paths and #points > 1 then
      for k = 1, #points - 1 do
        gfx.line(points[k][1], points[k][2], points[k + 1][1], points[k + 1][2], { 235, 110, 90, 140 })
      end
    end
  end
  local gx, gy = cell_centre(M.goals[goal_index][1], M.goals[goal_index][2])
  gfx.circle(gx, gy, 20, { 130, 170, 255, 160 })
  gfx.hud(("hunters %s (n): %d catches   [%s]"):format(navigating and "navigate" or "seek", catches,
    table.concat(states, ", ")))
  gfx.hud("the crowd crosses the maze by one flow field to the blue ring (g moves it); paths " ..
    (show_paths and "on" or "off") .. " (o); F12: navigation maps")
end

return M
