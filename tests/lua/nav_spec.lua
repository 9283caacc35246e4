-- SPDX-License-Identifier: MIT
-- Navigation from Lua: world:find_path, v:navigate, v:nav_path, world:flow_field_to, world:nav_map
-- and their errors.
local steer = require "steer"
local H = require "tests.lua.helpers"
local error_of = H.error_of

local function seg_point(px, py, ax, ay, bx, by)
  local dx, dy = bx - ax, by - ay
  local l = dx * dx + dy * dy
  local t = l > 0 and ((px - ax) * dx + (py - ay) * dy) / l or 0
  t = math.max(0, math.min(1, t))
  local cx, cy = ax + t * dx, ay + t * dy
  return math.sqrt((px - cx) ^ 2 + (py - cy) ^ 2)
end

--- The closest a polyline comes to a wall (sampled along each segment, plus the wall's ends).
local function clearance(points, walls)
  local best = math.huge
  for i = 1, #points - 1 do
    local a, b = points[i], points[i + 1]
    for _, wl in ipairs(walls) do
      for k = 0, 100 do
        local x, y = a[1] + (b[1] - a[1]) * k / 100, a[2] + (b[2] - a[2]) * k / 100
        best = math.min(best, seg_point(x, y, wl.x1, wl.y1, wl.x2, wl.y2))
      end
      best = math.min(best, seg_point(wl.x1, wl.y1, a[1], a[2], b[1], b[2]))
      best = math.min(best, seg_point(wl.x2, wl.y2, a[1], a[2], b[1], b[2]))
    end
  end
  return best
end

describe("navigation", function()
  local w, walls
  before_each(function()
    w = steer.world{width = 600, height = 400, edges = "contain"}
    walls = {w:wall{x1 = 300, y1 = 0, x2 = 300, y2 = 320}}
  end)

  it("find_path goes around a wall, keeping its radius", function()
    local points, length = w:find_path(100, 100, 500, 100, {radius = 10})
    assert.is_table(points)
    assert.is_true(#points >= 3 and #points <= 6)
    assert.same({100, 100}, points[1])
    assert.same({500, 100}, points[#points])
    assert.is_true(clearance(points, walls) >= 10 - 1e-6)
    assert.is_true(length > 2 * math.sqrt(200 ^ 2 + 220 ^ 2) - 1e-6)
    -- a path usable as a world path
    local path = w:path(points)
    assert.equal(#points, path.count)
  end)

  it("find_path says why there is no path", function()
    assert.same({nil, "start inside geometry"}, {w:find_path(300, 100, 500, 100, {radius = 10})})
    assert.same({nil, "goal inside geometry"}, {w:find_path(100, 100, 305, 100, {radius = 10})})
    assert.same({nil, "start outside the map"}, {w:find_path(-5, 100, 500, 100)})
    w:wall{x1 = 300, y1 = 320, x2 = 300, y2 = 400}
    assert.same({nil, "unreachable"}, {w:find_path(100, 100, 500, 100, {radius = 10})})
  end)

  it("navigate refuses a ninth map in use, and so does a radius that would need one", function()
    local rooms = steer.world{width = 400, height = 400}
    local vs = {}
    for i = 1, 9 do -- radii 1, 3, ..., 15 need 8 maps (clearances 2, 4, ..., 16); the 9th shares #2's
      vs[i] = rooms:spawn{x = 40 + i * 30, y = 100, radius = i < 9 and 2 * i - 1 or 3}
      vs[i]:navigate{x = 300, y = 300}
    end
    local lone = rooms:spawn{x = 60, y = 300, radius = 17}
    assert.matches("navigate.*a navigation map of clearance 18 and cell_size 8 would be a ninth in use",
      error_of(function() lone:navigate{x = 300, y = 300} end))
    assert.matches("would be a ninth in use", error_of(function() vs[9].radius = 17 end))
    assert.equal(3, vs[9].radius)
    vs[1].radius = 17 -- #1 alone used its map: it moves to a new one
    lone:navigate{x = 300, y = 300} -- and shares it
    rooms:step()
    assert.equal("following", select(2, lone:nav_path()))
  end)

  it("find_path does not cross a wrapping world's edges, and says so", function()
    local torus = steer.world{width = 400, height = 200, edges = "wrap"}
    torus:wall{x1 = 200, y1 = 0, x2 = 200, y2 = 200} -- the halves meet only across the seam
    assert.same({nil, "unreachable without crossing the wrapping edges"}, {torus:find_path(30, 100, 370, 100)})
    assert.same({nil, "start too near a wrapping edge"}, {torus:find_path(2, 100, 100, 100, {radius = 5})})
    assert.same({nil, "goal too near a wrapping edge"}, {torus:find_path(100, 100, 100, 199, {radius = 5})})
    assert.is_table(torus:find_path(30, 100, 170, 100, {radius = 5}))
  end)

  it("find_path checks its arguments", function()
    assert.equal("bad argument #4 to 'find_path' (number expected, got no value)",
      error_of(function() return w:find_path(1, 2, 3) end))
    assert.matches("finite number expected, got nan", error_of(function() return w:find_path(1, 2, 0 / 0, 4) end))
    assert.equal("unknown option 'raduis' for find_path (did you mean 'radius'?)",
      error_of(function() return w:find_path(1, 2, 3, 4, {raduis = 1}) end))
    assert.matches("option 'radius': number >= 0 expected, got %-1",
      error_of(function() return w:find_path(1, 2, 3, 4, {radius = -1}) end))
    assert.matches("option 'cell_size': number > 0 expected, got 0",
      error_of(function() return w:find_path(1, 2, 3, 4, {cell_size = 0}) end))
    assert.matches("larger cell_size", error_of(function() return w:find_path(1, 2, 3, 4, {cell_size = 0.01}) end))
  end)

  it("navigate reaches a goal behind a wall that seek never reaches", function()
    local nav = w:spawn{x = 100, y = 150, radius = 6, max_speed = 80}
    local seeker = w:spawn{x = 100, y = 160, radius = 6, max_speed = 80}
    nav:navigate{x = 500, y = 150}:avoid_walls()
    seeker:seek(500, 150):avoid_walls()
    local points, state, waypoint = nav:nav_path()
    assert.same({}, points)
    assert.equal("planning", state)
    assert.equal(0, waypoint)
    w:step()
    points, state, waypoint = nav:nav_path()
    assert.is_true(#points >= 3)
    assert.equal("following", state)
    assert.equal(2, waypoint)
    w:step(60 * 15)
    assert.is_true(math.abs(nav.x - 500) < 3 and math.abs(nav.y - 150) < 3)
    assert.equal("arrived", select(2, nav:nav_path()))
    assert.is_true(seeker.x < 300)
    assert.equal(500, nav:behaviours().navigate.target[1])
    assert.is_number(nav:forces().navigate.waypoint)
  end)

  it("navigate takes a vehicle target, the positional forms and its options", function()
    local prey = w:spawn{x = 500, y = 300}
    local v = w:spawn{x = 100, y = 100}
    v:navigate{target = prey, replan_distance = 10, slowing_radius = 20}
    local on = v:behaviours().navigate
    assert.equal(prey, on.target)
    assert.equal(10, on.replan_distance)
    assert.equal(20, on.slowing_radius)
    v:navigate(400, 50, {radius = 3})
    assert.same({400, 50}, v:behaviours().navigate.target)
    assert.equal(3, v:behaviours().navigate.radius)
    v:navigate(prey)
    assert.equal(prey, v:behaviours().navigate.target)
    v:stop("navigate")
    assert.equal("none", select(2, v:nav_path()))
  end)

  it("navigate's errors name the function, the option and what was expected", function()
    local v = w:spawn{x = 100, y = 100}
    assert.equal("bad argument #1 to 'navigate' (option 'y': number expected, got nil)",
      error_of(function() v:navigate{x = 1} end))
    assert.equal("bad argument #1 to 'navigate' (give target or x, y, not both)",
      error_of(function() v:navigate{x = 1, y = 2, target = v} end))
    assert.equal("bad argument #1 to 'navigate' (navigate expects target = vehicle or x =, y =)",
      error_of(function() v:navigate{} end))
    assert.equal("unknown option 'raduis' for navigate (did you mean 'radius'?)",
      error_of(function() v:navigate{x = 1, y = 2, raduis = 2} end))
    assert.matches("a vehicle cannot target itself", error_of(function() v:navigate{target = v} end))
    assert.matches("option 'cell_size'", error_of(function() v:navigate{x = 1, y = 2, cell_size = -1} end))
    assert.matches("option 'cell_size'", error_of(function() v:navigate{x = 1, y = 2, cell_size = 0.01} end))
    assert.matches("finite number expected", error_of(function() v:navigate{x = 1 / 0, y = 2} end))
  end)

  it("flow_field_to leads around the wall, and follows geometry changes", function()
    local field = w:flow_field_to{x = 500, y = 100, radius = 5}
    assert.equal(75, field.cols)
    assert.equal(50, field.rows)
    local _, down = field:sample(100, 100)
    assert.is_true(down > 0.5) -- toward the wall's end
    local crowd = {}
    for i = 1, 10 do
      crowd[i] = w:spawn{x = 60 + 10 * i, y = 60, radius = 4}
      crowd[i]:follow_flow(field)
    end
    w:step(60 * 20)
    for _, v in ipairs(crowd) do assert.is_true(v.x > 300) end
    walls[1]:remove()
    w:step()
    local across = field:sample(100, 100)
    assert.is_true(across > 0.9)
    assert.equal("bad argument #1 to 'flow_field_to' (option 'y': number expected, got nil)",
      error_of(function() w:flow_field_to{x = 1} end))
    assert.equal("unknown option 'goal' for flow_field_to",
      (error_of(function() w:flow_field_to{x = 1, y = 2, goal = 3} end):gsub(" %(.*", "")))
  end)

  it("nav_map gives the cells a path may not enter", function()
    local m = w:nav_map{radius = 10, cell_size = 10}
    assert.equal(60, m.cols)
    assert.equal(40, m.rows)
    assert.equal(60 * 40, #m.blocked)
    local function blocked(x, y) return m.blocked:byte(y * m.cols + x + 1) == 1 end
    assert.is_true(blocked(30, 10))  -- on the wall
    assert.is_false(blocked(10, 10)) -- in the open
    assert.is_true(blocked(0, 10))   -- against the bounds
  end)
end)
