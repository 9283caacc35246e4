-- w:debug_draw{...}: the core's debug drawing (the program's overlays) as calls to Lua functions,
-- in world coordinates with colours as r, g, b, a in [0, 1], for hosts such as LÖVE.
local steer = require "steer"
local H = require "tests.lua.helpers"
local error_of = H.error_of

-- Records every call: calls[kind] = array of argument arrays.
local function recorder()
  local calls = {}
  local cb = {}
  for _, kind in ipairs{"line", "circle", "solid_circle", "polygon", "solid_polygon", "point"} do
    calls[kind] = {}
    cb[kind] = function(...) table.insert(calls[kind], {...}) end
  end
  return cb, calls
end

local function near(a, b) return math.abs(a - b) < 1e-9 end

describe("w:debug_draw", function()
  local w, v
  before_each(function()
    w = steer.world{width = 400, height = 300, edges = "none", seed = 3}
    v = w:spawn{kind = "prey", x = 100, y = 100, heading = 0, radius = 5}
    v:wander{radius = 17, distance = 40}
    w:step()
  end)

  it("draws the wander circle ahead of the vehicle, and the vehicle as a triangle", function()
    local cb, calls = recorder()
    assert.equal(w, w:debug_draw(cb))
    local found
    for _, c in ipairs(calls.circle) do
      local hx, hy = v.hx, v.hy
      if near(c[3], 17) and near(c[1], v.x + 40 * hx) and near(c[2], v.y + 40 * hy) then found = c end
    end
    assert.is_not_nil(found, "no wander circle of radius 17, 40 units ahead")
    for i = 4, 7 do assert.is_true(found[i] >= 0 and found[i] <= 1) end
    -- STEER_DEBUG_COLOR_WANDER is 0x8fbcbb99
    assert.near(0x8f / 255, found[4], 1e-12)
    assert.near(0x99 / 255, found[7], 1e-12)
    assert.equal(1, #calls.solid_polygon)
    local tri = calls.solid_polygon[1][1]
    assert.equal(6, #tri) -- {x1, y1, x2, y2, x3, y3}
    assert.near(v.x + 1.5 * 5 * v.hx, tri[1], 1e-9) -- the nose, 1.5 radius ahead
  end)

  it("draws obstacle detection boxes and wall feelers", function()
    v:avoid_obstacles{}
    v:avoid_walls{}
    w:obstacle{x = 200, y = 100, radius = 20}
    w:wall{x1 = 300, y1 = 0, x2 = 300, y2 = 300}
    w:step()
    local cb, calls = recorder()
    w:debug_draw(cb)
    local box -- the detection box: four corners, the first beside the vehicle (the other polygon: the bounds)
    for _, p in ipairs(calls.polygon) do
      local pts = p[1]
      if #pts == 8 and math.abs(math.sqrt((pts[1] - v.x) ^ 2 + (pts[2] - v.y) ^ 2) - 5) < 1e-9 then box = pts end
    end
    assert.is_not_nil(box, "no detection box")
    assert.equal(2, #calls.polygon)
    local from_vehicle = 0
    for _, l in ipairs(calls.line) do
      if near(l[1], v.x) and near(l[2], v.y) then from_vehicle = from_vehicle + 1 end
    end
    assert.is_true(from_vehicle >= 4, "three feelers and the wander line start at the vehicle")
    assert.is_true(#calls.solid_circle >= 1)     -- the obstacle
  end)

  it("draws only the layers asked for; a callback not given is skipped", function()
    local cb, calls = recorder()
    w:debug_draw{solid_polygon = cb.solid_polygon, circle = cb.circle, layers = {"vehicles"}}
    assert.equal(1, #calls.solid_polygon)
    assert.equal(0, #calls.circle)
    cb, calls = recorder()
    w:debug_draw{circle = cb.circle, layers = "wander"}
    assert.is_true(#calls.circle >= 1)
    assert.equal(0, #calls.solid_polygon)
  end)

  it("explains bad tables and changes nothing", function()
    local before = H.snapshot(w)
    assert.equal("unknown option 'lines' for debug_draw (did you mean 'line'?)",
      error_of(function() return w:debug_draw{lines = print} end))
    assert.equal("unknown layer 'wandr' for debug_draw (did you mean 'wander'?)",
      error_of(function() return w:debug_draw{layers = {"wandr"}} end))
    assert.equal("bad argument #1 to 'debug_draw' (option 'circle': function expected, got number)",
      error_of(function() return w:debug_draw{circle = 3} end))
    assert.equal("bad argument #1 to 'debug_draw' (table expected, got no value)",
      error_of(function() return w:debug_draw() end))
    assert.equal("boom", error_of(function()
      return w:debug_draw{solid_polygon = function() error("boom", 0) end}
    end))
    assert.same(before, H.snapshot(w))
    w:close()
    assert.equal("world was closed", error_of(function() return w:debug_draw{} end))
  end)
end)
