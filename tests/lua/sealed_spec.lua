-- SPDX-License-Identifier: MIT
-- Issue #29 "Sealed": one line of script must not crash the module. Each case here crashed (ASan:
-- heap-use-after-free, UBSan: a null world, an index past kind_names[64], a SEGV in lua_rawgeti)
-- before the fix; now each is a clear error or simply works.
local steer = require "steer"

-- A table whose __index closes the world w when it is asked for key (and answers `answer`).
local function closing(w, t, key, answer)
  return setmetatable(t, {__index = function(_, k)
    if k == key then
      w:close()
      collectgarbage()
      collectgarbage()
      return answer
    end
  end})
end

describe("option tables are read raw, so no metamethod runs in the middle of a call", function()
  it("w:path's loop option", function()
    local w = steer.world{}
    local path = w:path(closing(w, {{1, 2}, {3, 4}}, "loop"))
    assert.is_true(path:alive())
  end)

  it("w:flow_field's vectors option", function()
    local w = steer.world{}
    local field = w:flow_field(closing(w, {x = 0, y = 0, cell_size = 10, cols = 1, rows = 1}, "vectors", {{1, 0}}))
    assert.is_true(field:alive())
  end)

  it("v:wander's leash option", function()
    local w = steer.world{}
    local v = w:spawn{}
    v:wander(closing(w, {}, "leash"))
    assert.is_truthy(v:behaviours().wander)
  end)

  it("w:debug_draw's callbacks table", function()
    local w = steer.world{}
    for _ = 1, 10 do w:spawn{} end
    w:debug_draw(closing(w, {}, "line", function() end))
    w:step()
  end)

  it("steer.world's options", function()
    local w = steer.world(setmetatable({}, {__index = function() error("not read") end}))
    assert.equal(800, w.width)
  end)
end)

describe("w:debug_draw calls its callbacks after the core's drawing", function()
  it("a callback that closes the world or spawns is no use after free", function()
    local w = steer.world{}
    for _ = 1, 10 do w:spawn{}:wander{} end
    w:step()
    local lines = 0
    local ok, err = pcall(w.debug_draw, w, {
      line = function()
        lines = lines + 1
        for _ = 1, 100 do w:spawn{} end
      end,
      circle = function() w:close(); collectgarbage() end,
      layers = "all",
    })
    assert.is_true(lines > 0)
    assert.is_false(ok)
    assert.matches("world was closed", err)
  end)

  it("still draws the same shapes in the same order", function()
    local w = steer.world{seed = 3}
    for i = 1, 5 do w:spawn{x = 10 * i, y = 20}:wander{} end
    w:obstacle{x = 100, y = 100, radius = 10}
    w:step()
    local calls = {}
    w:debug_draw{
      line = function(x1, y1, x2, y2, r, g, b, a) calls[#calls + 1] = {"line", x1, y1, x2, y2, r, g, b, a} end,
      circle = function(x, y, rad, r, g, b, a) calls[#calls + 1] = {"circle", x, y, rad, r, g, b, a} end,
      solid_polygon = function(points, r, g, b, a) calls[#calls + 1] = {"solid_polygon", #points, r, g, b, a} end,
      layers = "all",
    }
    assert.is_true(#calls > 10)
    for _, c in ipairs(calls) do
      for i = 2, #c do assert.equal("number", type(c[i])) end
    end
  end)
end)

describe("spawn's kind plan", function()
  it("cannot be overflowed by a brain's __index that spawns kinds", function()
    local w = steer.world{}
    w:spawn{kind = "k0"}
    local brain = setmetatable({}, {__index = function(_, k)
      if k == "think" then
        for i = 1, 63 do w:spawn{kind = "k" .. i} end
        return function() end
      end
    end})
    local ok, err = pcall(w.spawn, w, {kind = "fresh", flock_with = {"fresh2"}, brain = brain})
    assert.is_false(ok)
    assert.matches("option 'kind': too many kinds %(at most 64 per world%)", err)
    assert.equal(64, w:count())
  end)

  it("refuses a world closed by a brain's __index", function()
    local w = steer.world{}
    local brain = setmetatable({}, {__index = function(_, k)
      if k == "think" then w:close(); collectgarbage(); return function() end end
    end})
    local ok, err = pcall(w.spawn, w, {brain = brain})
    assert.is_false(ok)
    assert.matches("world was closed", err)
  end)
end)

-- (Lua 5.4 only: LuaJIT's debug library has no setuservalue)
local describe_uv = debug.setuservalue and describe or function() end
describe_uv("handles whose user values were replaced (debug.setuservalue)", function()
  it("a vehicle is refused, not read through", function()
    local w = steer.world{}
    local v = w:spawn{}
    debug.setuservalue(v, "junk", 1)
    local ok, err = pcall(function() return v:seek(1, 2) end)
    assert.is_false(ok)
    assert.matches("steer.Vehicle whose world was taken from it %(debug.setuservalue%)", err)
    ok = pcall(function() return v.x end)
    assert.is_false(ok)
    ok, err = pcall(w.closest, w, v, "vehicle", 10)
    assert.is_false(ok)
    assert.matches("bad argument #2", err)
  end)

  it("a world's tables are refused, not read through", function()
    local w = steer.world{}
    w:spawn{}
    local junk = {}
    junk[1] = io.stdout
    debug.setuservalue(w, junk, 1)
    local ok, err = pcall(w.vehicles, w)
    assert.is_false(ok)
    assert.matches("steer.World whose tables were replaced %(debug.setuservalue%)", err)
    debug.setuservalue(w, "junk", 2)
    ok = pcall(w.spawn, w, {kind = "x"})
    assert.is_false(ok)
  end)

  it("a shape is refused, not read through", function()
    local w = steer.world{}
    local o = w:obstacle{x = 1, y = 2, radius = 3}
    debug.setuservalue(o, 42, 1)
    w = nil -- luacheck: ignore
    collectgarbage()
    collectgarbage()
    local ok, err = pcall(function() return o.x end)
    assert.is_false(ok)
    assert.matches("whose world was taken from it", err)
    ok = pcall(function() o:remove() end)
    assert.is_false(ok)
  end)
end)
