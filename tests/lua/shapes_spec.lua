local steer = require "steer"
local H = require "tests.lua.helpers"
local error_of = H.error_of

describe("shapes", function()
  local w
  before_each(function() w = steer.world{} end)

  it("obstacle: a circle from radius or r, listed in creation order", function()
    local a = w:obstacle{x = 10, y = 20, radius = 5}
    local b = w:obstacle{x = 30, y = 40, r = 6}
    assert.same({10, 20, 5}, {a.x, a.y, a.radius})
    assert.same({30, 40, 6}, {b.x, b.y, b.radius})
    local list = w:obstacles()
    assert.equal(2, #list)
    assert.is_true(rawequal(list[1], a) and rawequal(list[2], b))
    assert.equal("obstacle #1", tostring(a))
  end)

  it("obstacle: explains bad options", function()
    assert.equal("bad argument #1 to 'obstacle' (option 'radius': number > 0 expected, got -1)",
      error_of(function() w:obstacle{x = 1, y = 1, radius = -1} end))
    assert.equal("bad argument #1 to 'obstacle' (option 'x': finite number expected, got nan)",
      error_of(function() w:obstacle{x = 0 / 0, y = 1, r = 1} end))
    assert.equal("bad argument #1 to 'obstacle' (option 'radius': number expected, got nil)",
      error_of(function() w:obstacle{x = 1, y = 1} end))
    assert.equal("bad argument #1 to 'obstacle' (give radius or r, not both)",
      error_of(function() w:obstacle{x = 1, y = 1, r = 1, radius = 2} end))
    assert.equal("unknown option 'radus' for obstacle (did you mean 'radius'?)",
      error_of(function() w:obstacle{x = 1, y = 1, radus = 1} end))
    assert.equal("bad argument #1 to 'obstacle' (table expected, got no value)", error_of(function() w:obstacle() end))
    assert.same({}, w:obstacles())
  end)

  it("wall: a segment with its left normal", function()
    local wall = w:wall{x1 = 0, y1 = 0, x2 = 10, y2 = 0}
    assert.same({0, 0, 10, 0}, {wall.x1, wall.y1, wall.x2, wall.y2})
    assert.near(0, wall.nx, 1e-12)
    assert.near(1, math.abs(wall.ny), 1e-12)
    assert.equal(wall, w:walls()[1])
    assert.equal("bad argument #1 to 'wall' (option 'y2': number expected, got nil)",
      error_of(function() w:wall{x1 = 0, y1 = 0, x2 = 1} end))
  end)

  it("path: points and loop", function()
    local p = w:path{{0, 0}, {10, 0}, {10, 10}, loop = true}
    assert.is_true(p.loop)
    assert.equal(3, p.count)
    assert.same({{0, 0}, {10, 0}, {10, 10}}, p:points())
    assert.is_false(w:path{{1, 2}}.loop)
    assert.equal("bad argument #1 to 'path' (point 2: {x, y} of two finite numbers expected)",
      error_of(function() w:path{{0, 0}, {1, math.huge}} end))
    assert.equal("bad argument #1 to 'path' (a path needs at least one {x, y} point)",
      error_of(function() w:path{} end))
    assert.equal("unknown option 'looped' for path (did you mean 'loop'?)",
      error_of(function() w:path{{0, 0}, looped = true} end))
    assert.equal("bad argument #1 to 'path' (option 'loop': boolean expected, got string)",
      error_of(function() w:path{{0, 0}, loop = "yes"} end))
  end)

  it("flow_field: a grid of directions, set 1-based and sampled", function()
    local f = w:flow_field{x = 0, y = 0, cell_size = 10, cols = 2, rows = 3}
    assert.same({0, 0, 10, 2, 3}, {f.x, f.y, f.cell_size, f.cols, f.rows})
    assert.same({0, 0}, {f:sample(5, 5)})
    f:set(1, 1, 1, 0)
    local dx, dy = f:sample(0, 0)
    assert.same({1, 0}, {dx, dy})
    local g = w:flow_field{cell_size = 5, cols = 1, rows = 2, vectors = {{0, 1}, {0, 1}}}
    assert.same({0, 1}, {g:sample(0, 0)})
    assert.equal("bad argument #1 to 'set' (column out of range)", error_of(function() f:set(3, 1, 0, 0) end))
    assert.equal("bad argument #4 to 'set' (finite number expected, got nan)",
      error_of(function() f:set(1, 1, 0, 0 / 0) end))
    assert.equal("bad argument #1 to 'flow_field' (option 'vectors': cols * rows = 2 vectors expected, got 1)",
      error_of(function() w:flow_field{cell_size = 5, cols = 1, rows = 2, vectors = {{0, 1}}} end))
    assert.equal("bad argument #1 to 'flow_field' (option 'cols': integer expected, got 1.5)",
      error_of(function() w:flow_field{cell_size = 5, cols = 1.5, rows = 2} end))
  end)

  it("are removed by handle:remove() or world:remove(), and say so afterwards", function()
    local o = w:obstacle{x = 1, y = 1, r = 1}
    local wall = w:wall{x1 = 0, y1 = 0, x2 = 1, y2 = 1}
    local p = w:path{{0, 0}}
    local f = w:flow_field{cell_size = 1, cols = 1, rows = 1}
    o:remove()
    w:remove(wall)
    p:remove()
    w:remove(f)
    for _, h in ipairs{o, wall, p, f} do assert.is_false(h:alive()) end
    assert.same({}, w:obstacles())
    assert.same({}, w:walls())
    assert.equal("obstacle #1 was removed", error_of(function() return o.x end))
    assert.equal("obstacle #1 was removed", error_of(function() o:remove() end))
    assert.equal("path #1 was removed", error_of(function() return p:points() end))
    assert.equal("flow field #1 was removed", error_of(function() return f:sample(0, 0) end))
    assert.equal("obstacle #1 (removed)", tostring(o))
    local v = w:spawn{}
    assert.equal("bad argument #1 to 'follow' (path #1 was removed)", error_of(function() v:follow(p) end))
    assert.equal("bad argument #1 to 'remove' (wall #1 was removed)", error_of(function() w:remove(wall) end))
  end)

  it("belong to their world", function()
    local v = w:spawn{}
    local other = steer.world{}
    assert.equal("bad argument #1 to 'follow' (path of another world)",
      error_of(function() v:follow(other:path{{0, 0}}) end))
    assert.equal("bad argument #1 to 'follow_flow' (flow field of another world)",
      error_of(function() v:follow_flow(other:flow_field{cell_size = 1, cols = 1, rows = 1}) end))
    assert.equal("bad argument #1 to 'remove' (shape of another world)",
      error_of(function() w:remove(other:obstacle{x = 0, y = 0, r = 1}) end))
  end)

  it("switch off the behaviours that use them when removed", function()
    local v = w:spawn{}
    local p = w:path{{0, 0}, {100, 0}}
    v:follow(p)
    p:remove()
    assert.is_nil(v:behaviours().follow)
  end)

  it("are read-only and know their fields", function()
    local o = w:obstacle{x = 1, y = 1, r = 1}
    assert.equal("steer.Obstacle handles are read-only (remove it and make a new one)",
      error_of(function() o.x = 3 end))
    assert.equal("unknown field 'radus' of steer.Obstacle (did you mean 'radius'?)",
      error_of(function() return o.radus end))
  end)
end)
