-- SPDX-License-Identifier: MIT
-- The FFI path under LuaJIT (bindings/lffi.c, bindings/lffi.lua): chosen by itself when LuaJIT
-- loads the module, it takes the hot calls without a classic C API call, and it gives what the
-- classic path gives: the same values, trajectories and error messages (ffi_scenario.lua run on
-- both paths, outputs compared byte for byte). Under Lua 5.4 there is no FFI: steer.ffi is false.
local steer = require "steer"

local jit_loaded = rawget(_G, "jit") ~= nil

local function read_file(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("*a")
  f:close()
  return s
end

-- The classic path's functions (the C __index of each class and the C methods) called while f
-- runs. The FFI layer keeps them as upvalues of the __index functions it installs.
local function classic_calls(f)
  local classic = {}
  for _, class in ipairs({ "steer.Vehicle", "steer.World" }) do
    local index = debug.getregistry()[class].__index
    for i = 1, 64 do
      local name, value = debug.getupvalue(index, i)
      if not name then break end
      if name == "vindex_c" or name == "windex_c" then classic[value] = true end
      if name == "vclassic" or name == "wclassic" then
        for _, m in pairs(value) do classic[m] = true end
      end
    end
  end
  local n = 0
  debug.sethook(function()
    local info = debug.getinfo(2, "f")
    if info and classic[info.func] then n = n + 1 end
  end, "c")
  f()
  debug.sethook()
  return n
end

describe("the FFI path", function()
  if not jit_loaded then
    it("is off under Lua 5.4 (steer.ffi is false)", function()
      assert.is_false(steer.ffi)
    end)
    return
  end

  it("is on under LuaJIT unless STEER_FFI=0", function()
    assert.are.equal(os.getenv("STEER_FFI") ~= "0", steer.ffi)
  end)

  it("carries its Lua layer as the module's header says (make bindings/lffi_lua.h)", function()
    local tmp = os.tmpname()
    os.execute(("sh bindings/embed_lua.sh LSTEER_FFI_LUA bindings/lffi.lua %s"):format(tmp))
    local fresh = read_file(tmp)
    os.remove(tmp)
    assert.are.equal(fresh, read_file("bindings/lffi_lua.h"))
  end)

  if not steer.ffi then return end

  it("reads fields, queries and switches behaviours without a C API call", function()
    local w = steer.world{ seed = 3, width = 400, height = 400, edges = "wrap" }
    local a = w:spawn{ kind = "prey", x = 100, y = 100 }
    local b = w:spawn{ kind = "hunter", x = 130, y = 100 }
    w:closest(a, "hunter") -- (the first query of a world learns its kinds through the classic API)
    a.state = "s"
    local _ = a.state
    local got = {}
    local calls = classic_calls(function()
      for i = 1, 10 do
        got[i] = { a.x + a.y + a.vx + a.speed + a.heading + a.max_speed + a.id, w:closest(a, "hunter", 100), a.world,
                   a.state, #w:neighbors(a, 50) }
        a:pursue(b)
        a:evade(b, { weight = 3 })
        a:seek(10, 20)
        a:wander{ radius = 10, jitter = 5 }
        a:stop("seek")
      end
    end)
    -- the think pass: a Lua loop, brains called without a classic call between them
    a.brain = function(u) local _ = u.x + w:closest(u, "hunter", 100).x end
    b.brain = { think = function(u) u:seek(a.x, a.y) end }
    w:think()
    w:step()
    for _ = 1, 10 do -- (w:step itself is a classic call)
      calls = calls + classic_calls(function() assert.are.equal(0, w:think()) end)
      w:step()
    end
    assert.is_nil(a.brain_error)
    for i = 1, 10 do
      assert.are.equal(b, got[i][2])
      assert.are.equal(w, got[i][3])
      assert.are.equal("s", got[i][4])
      assert.are.equal(1, got[i][5])
    end
    assert.are.equal(0, calls)
  end)

  it("gives the classic path's values, trajectories and errors (ffi_scenario.lua on both)", function()
    local lua = "luajit"
    local function run(env)
      local p = assert(io.popen(("%s %s tests/lua/ffi_scenario.lua 2>&1"):format(env, lua)))
      local text = p:read("*a")
      p:close()
      return text
    end
    -- (the scenario's brains think by place in its small worlds too: STEER_THINK_ORDER_MIN)
    local ffi_out = run("STEER_FFI=1 STEER_THINK_ORDER_MIN=16")
    local classic_out = run("STEER_FFI=0 STEER_THINK_ORDER_MIN=16")
    assert.is_true(#ffi_out > 100000, ffi_out:sub(1, 2000)) -- (it ran: thousands of lines)
    assert.is_truthy(ffi_out:find("bad argument #2 to 'closest'", 1, true))
    if ffi_out ~= classic_out then -- the first line that differs, for the message
      local i, line = 1, 1
      while ffi_out:sub(i, i) == classic_out:sub(i, i) do
        if ffi_out:sub(i, i) == "\n" then line = line + 1 end
        i = i + 1
      end
      local function line_at(s)
        local n = 1
        for l in (s .. "\n"):gmatch("([^\n]*)\n") do
          if n == line then return l end
          n = n + 1
        end
      end
      error(("line %d differs:\n  ffi:     %s\n  classic: %s"):format(line, tostring(line_at(ffi_out)),
        tostring(line_at(classic_out))))
    end
  end)
end)
