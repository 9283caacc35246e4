-- The core's documented limits (docs/core.md#limits), as the module reports them: argument errors
-- that name the value and the limit, and the world unchanged.
local steer = require "steer"
local H = require "tests.lua.helpers"
local error_of = H.error_of

describe("limits", function()
  local w, v
  before_each(function()
    w = steer.world{edges = "none"}
    v = w:spawn{x = 1, y = 2}
  end)

  it("the issue's repro: vehicles at y = ±1e308 are refused, and the step returns", function()
    assert.equal("bad argument #1 to 'spawn' (position must be within ±1e+09 on each axis (got 0, 1e+308))",
      error_of(function() return w:spawn{x = 0, y = 1e308} end))
    assert.equal(1, w:count())
    w:spawn{x = 0, y = 1e9}
    w:spawn{x = 0, y = -1e9}
    w:step(3)
    assert.equal(3, w:count())
  end)

  it("vehicle options and fields at and past their limits", function()
    assert.equal("bad argument #1 to 'spawn' (max_speed must be a finite number in [1e-06, 1e+06] (got 2e+06))",
      error_of(function() return w:spawn{max_speed = 2e6} end))
    assert.equal("bad argument #1 to 'spawn' (mass must be a finite number in [1e-06, 1e+06] (got 1e-07))",
      error_of(function() return w:spawn{mass = 1e-7} end))
    v.max_force = 1e12
    assert.equal("bad value for field 'max_force' (max_force must be a finite number in [1e-06, 1e+12] (got 1e+13))",
      error_of(function() v.max_force = 1e13 end))
    assert.equal(1e12, v.max_force)
    assert.equal("bad argument #1 to 'set_position' (coordinate within ±1e+09 expected, got 1e+10)",
      error_of(function() v:set_position(1e10, 0) end))
    assert.same({1, 2}, {v.x, v.y})
    assert.equal("bad argument #1 to 'set_velocity' (velocity must be within ±1e+06 on each axis (got 0, 1e+300))",
      error_of(function() v:set_velocity(0, 1e300) end))
  end)

  it("behaviour targets and options", function()
    assert.equal("bad argument #1 to 'seek' (coordinate within ±1e+09 expected, got 1e+300)",
      error_of(function() v:seek(1e300, 0) end))
    assert.equal("bad argument #1 to 'wander' (wander: radius must be a finite number in [0, 1e+09] (got 2e+09))",
      error_of(function() v:wander{radius = 2e9} end))
    assert.equal("bad argument #3 to 'arrive' (arrive: weight must be a finite number in [0, 1e+06] (got 1e+07))",
      error_of(function() v:arrive(0, 0, {weight = 1e7}) end))
    assert.same({}, v:behaviours())
  end)

  it("shapes, queries and the world", function()
    assert.equal("bad argument #1 to 'obstacle' (obstacle radius must be a finite number in [1e-06, 1e+09] (got 1e+10))",
      error_of(function() return w:obstacle{x = 0, y = 0, radius = 1e10} end))
    assert.equal("bad argument #1 to 'path' (path point 2 must be within ±1e+09 on each axis (got 1e+10, 0))",
      error_of(function() return w:path{{0, 0}, {1e10, 0}} end))
    assert.equal("bad argument #2 to 'neighbors' (radius must be a finite number in [0, 1e+09] (got 1e+10))",
      error_of(function() return w:neighbors(v, 1e10) end))
    assert.equal("bad argument #1 to 'closest' (coordinate within ±1e+09 expected, got 1e+10)",
      error_of(function() return w:closest(1e10, 0) end))
    assert.equal("bad value for field 'dt' (dt must be at least 1e-06 seconds (got 1e-09))",
      error_of(function() w.dt = 1e-9 end))
    assert.equal("bad argument #1 to 'world' (width must be a finite number in [1e-06, 1e+09] units (got 1e+10))",
      error_of(function() local _ = steer.world{width = 1e10} end)) -- not a tail call: LuaJIT names none
  end)
end)
