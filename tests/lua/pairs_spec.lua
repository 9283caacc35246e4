-- SPDX-License-Identifier: MIT
-- steer.pairs and steer.next (the `steer` program's pairs and next): a table walked in an order that
-- does not depend on where its objects live or on the string hash seed, so that a replay, in a
-- fresh Lua state, walks it as the recorded run did (issue #29). Lua 5.4 and LuaJIT alike.
local steer = require "steer"
local spairs, snext = steer.pairs, steer.next

local function keys_of(t, iter)
  local keys = {}
  for k in (iter or spairs)(t) do keys[#keys + 1] = k end
  return keys
end

-- The keys of t as text, in steer.pairs order.
local function order_text(t)
  local out = {}
  for k, v in spairs(t) do out[#out + 1] = tostring(k):gsub("0x%x+", "") .. "=" .. tostring(v) end
  return table.concat(out, " ")
end

describe("steer.pairs' order", function()
  it("numbers by value, integers and floats together, then strings by their bytes, then false, true", function()
    local t = {}
    for _, k in ipairs{ "b", "a", "ab", "", "a\0b", "a\0", "B", "\255", 3, -1, 2.5, 1e300, -math.huge, math.huge,
                        0, 10, 0.5, -2.5 } do t[k] = true end
    t[true], t[false] = 1, 0
    local keys = keys_of(t)
    local expect = { -math.huge, -2.5, -1, 0, 0.5, 2.5, 3, 10, 1e300, math.huge,
                     "", "B", "a", "a\0", "a\0b", "ab", "b", "\255", false, true }
    assert.equal(#expect, #keys)
    for i = 1, #expect do assert.equal(expect[i], keys[i]) end
  end)

  if math.type then
    it("compares an integer with a float exactly, past 2^53", function()
      local big = math.maxinteger
      local t = { [big] = 1, [big - 1] = 2, [2.0^63] = 3, [9007199254740993] = 4, [2.0^53] = 5, [math.mininteger] = 6,
                  [-2.0^63 - 2048.0] = 7 }
      local keys = keys_of(t)
      assert.same({ -2.0^63 - 2048.0, math.mininteger, 2.0^53, 9007199254740993, big - 1, big, 2.0^63 }, keys)
    end)
  end

  it("an array comes in order, with its hash part after it sorted", function()
    local t = {}
    for i = 1, 100 do t[i] = i end
    t.x, t[1000], t[-5] = 1, 2, 3
    local keys = keys_of(t)
    assert.equal(-5, keys[1])
    for i = 1, 100 do assert.equal(i, keys[i + 1]) end
    assert.equal(1000, keys[102])
    assert.equal("x", keys[103])
  end)

  it("floats between an array's integers, before and after them", function()
    assert.same({ 1, 2, 3, 3.5, 10 }, keys_of({ 1, 2, 3, [3.5] = 4, [10] = 5 }))
    assert.same({ 1, 2, 2.5, 3 }, keys_of({ 1, 2, 3, [2.5] = 4 }))
    assert.same({ -0.5, 1, 2 }, keys_of({ 1, 2, [-0.5] = 4 }))
    assert.same({ 1, 2, false, true }, keys_of({ 1, 2, [true] = 1, [false] = 0 }))
  end)

  it("vehicles by their world, then by v.id; the world first, shapes after its vehicles", function()
    local w1 = steer.world{}
    local w2 = steer.world{}
    local t = {}
    for i = 1, 50 do t[(i % 2 == 0 and w2 or w1):spawn{ x = i }] = i end
    local o = w1:obstacle{ x = 1, y = 1, radius = 2 }
    local wall = w1:wall{ x1 = 0, y1 = 0, x2 = 1, y2 = 1 }
    t[o], t[wall], t[w1], t[w2] = "o", "wall", "w1", "w2"
    local keys = keys_of(t)
    assert.equal(w1, keys[1])
    local prev = 0
    for i = 2, 26 do
      assert.equal(keys[i].world, w1)
      assert.is_true(keys[i].id > prev)
      prev = keys[i].id
    end
    assert.equal(o, keys[27])
    assert.equal(wall, keys[28])
    assert.equal(w2, keys[29])
    prev = 0
    for i = 30, 54 do
      assert.equal(keys[i].world, w2)
      assert.is_true(keys[i].id > prev)
      prev = keys[i].id
    end
    assert.equal(54, #keys)
  end)

  it("tables, functions and coroutines in the order the walks first met them", function()
    local a, b, c = {}, function() end, coroutine.create(function() end)
    for _, x in ipairs{ a, b, c } do
      local t = { [x] = true }
      for _ in spairs(t) do end -- met one at a time: a, then b, then c
    end
    local t = { [c] = 3, [a] = 1, [b] = 2, [5] = 0 }
    local keys = keys_of(t)
    assert.same({ 5, a, b, c }, keys)
    -- the serials stay: the same order however the table was built
    for _ = 1, 10 do
      local u = {}
      for _, x in ipairs{ b, c, a } do u[x] = true end
      local k = keys_of(u)
      assert.same({ a, b, c }, k)
    end
  end)

  it("is the same in two processes (whose string hash seeds and addresses differ)", function()
    local lua = os.getenv("LUA") or "lua5.4"
    local script = os.tmpname()
    local f = assert(io.open(script, "w"))
    f:write([[
      local steer = require "steer"
      local w = steer.world{ seed = 3 }
      local t = {}
      for i = 1, 200 do t["key" .. i] = i end
      for i = 1, 40 do t[w:spawn{ x = i }] = i end
      for i = 1, 30 do -- each met alone first: objects keep the order their first walks met them in
        local o = {}
        for _ in steer.pairs{ [o] = true } do end
        t[o] = i
      end
      for i = 1, 20 do t[i * 1.5] = i end
      local out = {}
      for k, v in steer.pairs(t) do out[#out + 1] = type(k) .. ":" .. tostring(v) end
      local k = steer.next(t)
      while k ~= nil do out[#out + 1] = type(k); k = steer.next(t, k) end
      io.write(table.concat(out, ","))
    ]])
    f:close()
    local function run()
      local p = assert(io.popen(lua .. " " .. script .. " 2>&1"))
      local out = p:read("a")
      p:close()
      return out
    end
    local first, second = run(), run()
    os.remove(script)
    assert.is_true(#first > 1000, first)
    assert.equal(first, second)
  end)
end)

describe("steer.pairs as Lua's pairs", function()
  it("honours __pairs", function()
    local t = setmetatable({}, { __pairs = function(self)
      local i = 0
      return function() i = i + 1; if i <= 3 then return i, i * 10 end end, self, nil
    end })
    local got = {}
    for k, v in spairs(t) do got[k] = v end
    assert.same({ 10, 20, 30 }, got)
  end)

  it("reads each value when it gets there: nil assigned during the walk skips it, another value is seen", function()
    local t = {}
    for i = 1, 20 do t["k" .. string.format("%02d", i)] = i end
    local seen = {}
    for k, v in spairs(t) do
      seen[#seen + 1] = v
      t[k] = nil -- the one just walked
      if k == "k05" then t.k10 = nil end -- one ahead
      if k == "k06" then t.k11 = 111 end -- one ahead, changed
    end
    assert.same({ 1, 2, 3, 4, 5, 6, 7, 8, 9, 111, 12, 13, 14, 15, 16, 17, 18, 19, 20 }, seen)
    assert.is_nil(next(t))
  end)

  it("clears a whole table as it walks it, as the idiom does with Lua's", function()
    local t = {}
    for i = 1, 1000 do t[i] = i; t["s" .. i] = i end
    local n = 0
    for k in spairs(t) do t[k] = nil; n = n + 1 end
    assert.equal(2000, n)
    assert.is_nil(snext(t))
  end)

  it("refuses what is not a table, naming pairs", function()
    local ok, err = pcall(spairs, 42)
    assert.is_false(ok)
    assert.matches("bad argument #1 to '[%w.]*' %(table expected, got number%)", err)
    ok, err = pcall(spairs)
    assert.is_false(ok)
    assert.matches("bad argument #1", err)
  end)

  it("walks nested, broken off, raising and in coroutines, then walks again from the start", function()
    local t = {}
    for i = 1, 30 do t["x" .. i] = i end
    local expect = order_text(t)
    for _ = 1, 40 do -- more than the pool holds, some loops left half way
      for k in spairs(t) do
        for k2 in spairs(t) do if k2 == "x3" then break end end
        if k == "x20" then break end
      end
      assert.is_false(pcall(function() for k in spairs(t) do if k == "x7" then error("stop") end end end))
    end
    local co = coroutine.wrap(function()
      for k in spairs(t) do coroutine.yield(k) end
    end)
    local first = co()
    assert.equal(expect, order_text(t)) -- a walk while the coroutine's is suspended
    assert.equal(keys_of(t)[1], first)
    assert.equal(keys_of(t)[2], co())
    -- the iterator called again with nil starts again
    local f, s = spairs(t)
    local k1 = f(s, nil)
    f(s, k1)
    assert.equal(k1, (f(s, nil)))
  end)

  it("lets the keys it walked go once the loop ends", function()
    local weak = setmetatable({}, { __mode = "k" })
    do
      local t = {}
      for i = 1, 100 do
        local key = { i }
        t[key] = i
        weak[key] = true
      end
      for k in spairs(t) do t[k] = nil end
    end
    collectgarbage()
    collectgarbage()
    assert.is_nil(next(weak))
  end)

  it("orders 10,000 keys of every kind the same as a sort would", function()
    local t = {}
    for i = 1, 10000 do
      if i % 3 == 0 then t["s" .. (i * 7919 % 10007)] = i elseif i % 3 == 1 then t[(i * 7919) % 10007] = i else t[i + 0.5] = i end
    end
    local keys = keys_of(t)
    local n = 0
    for _ in pairs(t) do n = n + 1 end
    assert.equal(n, #keys)
    for i = 2, #keys do
      local a, b = keys[i - 1], keys[i]
      if type(a) == type(b) then assert.is_true(a < b) else assert.is_true(type(a) == "number") end
    end
  end)
end)

describe("steer.pairs under the debug library", function()
  it("a cursor or the shared state tampered with walks wrongly at worst, and crashes nothing", function()
    local t = {}
    for i = 1, 50 do t["k" .. i] = i end
    local expect = order_text(t)
    local f, s = spairs(t)
    f(s, nil)
    local mt = debug.getmetatable(s)
    if debug.setuservalue then
      debug.setuservalue(s, "junk", 1)
      debug.setuservalue(s, 42, 2)
    end
    for _ = 1, 60 do f(s, "k1") end
    mt.__gc(s)
    for _ = 1, 60 do f(s, "k1") end
    mt.__close(s)
    mt.__close(s)
    f(s, nil)
    f(s, {})
    assert.is_false(pcall(f, nil))
    assert.is_false(pcall(f, 42, 1))
    local _, state = debug.getupvalue(snext, 1)
    if debug.setuservalue and state then
      for uv = 1, 6 do debug.setuservalue(state, "junk", uv) end
      assert.equal(expect, order_text(t))
      assert.equal("k1", (snext(t)))
      assert.equal(keys_of(t)[2], (snext(t, "k1")))
      debug.setuservalue(state, setmetatable({}, { __index = error }), 2)
    end
    -- a walk after all that
    assert.equal(expect, order_text(t))
    local got = {}
    for k in snext, t do got[#got + 1] = k end
    assert.same(keys_of(t), got)
  end)
end)

describe("steer.pairs and finalizers", function()
  it("finalizers that walk with pairs and next in the middle of other walks break none", function()
    local shared = {}
    for i = 1, 40 do shared["s" .. i] = i end
    local expect = keys_of(shared)
    local finalized = 0
    local function finalize()
      finalized = finalized + 1
      for k in snext, shared do local _ = k end
      for k in spairs(shared) do local _ = k end
      local k = snext(shared, "s1")
      while k do k = snext(shared, k) end
    end
    local function garbage()
      local newproxy = rawget(_G, "newproxy") -- LuaJIT: a table's __gc is never called
      for _ = 1, 5 do
        if newproxy then
          getmetatable(newproxy(true)).__gc = finalize
        else
          setmetatable({}, { __gc = finalize })
        end
      end
    end
    local tables = {}
    for j = 1, 6 do
      tables[j] = {}
      for i = 1, 200 do tables[j][("k%03d"):format(i)] = i end
    end
    for _ = 1, 3 do
      for j = 1, 6 do
        local got = {}
        for k in snext, tables[j] do
          got[#got + 1] = k
          if #got % 4 == 0 then garbage() end
          if #got % 50 == 0 then collectgarbage("step") end
        end
        assert.equal(200, #got)
        local n = 0
        for _ in spairs(tables[j]) do
          n = n + 1
          if n % 4 == 0 then garbage() end
        end
        assert.equal(200, n)
      end
    end
    collectgarbage()
    assert.is_true(finalized > 0)
    assert.same(expect, keys_of(shared))
  end)
end)

describe("steer.next", function()
  it("next(t) is the first key in steer.pairs' order; next(t, k) the one after k", function()
    local t = { z = 1, a = 2, [7] = 3, [true] = 4 }
    assert.equal(7, (snext(t)))
    assert.equal("a", (snext(t, 7)))
    assert.equal("z", (snext(t, "a")))
    local k, v = snext(t, "z")
    assert.equal(true, k)
    assert.equal(4, v)
    assert.is_nil(snext(t, true))
    assert.is_nil(snext({}))
  end)

  it("for k, v in next, t walks as pairs does, interleaved with more walks than it keeps", function()
    local tables = {}
    for j = 1, 7 do
      tables[j] = {}
      for i = 1, 50 do tables[j]["k" .. i] = i * j end
    end
    local expect = keys_of(tables[1])
    local walks = {}
    for j = 1, 7 do walks[j] = { key = snext(tables[j]), got = {} } end
    for _ = 1, 50 do
      for j = 1, 7 do
        local walk = walks[j]
        walk.got[#walk.got + 1] = walk.key
        walk.key = snext(tables[j], walk.key)
      end
    end
    for j = 1, 7 do
      assert.same(expect, walks[j].got)
      assert.is_nil(walks[j].key)
    end
    assert.same(expect, keys_of(tables[2], function(t) return snext, t, nil end))
  end)

  it("goes on after a key assigned nil during the walk, and sees keys added since a walk that ended", function()
    local t = { a = 1, b = 2, c = 3, d = 4 }
    local got = {}
    for k in snext, t do
      got[#got + 1] = k
      t[k] = nil
    end
    assert.same({ "a", "b", "c", "d" }, got)
    t.x = 1
    assert.equal("x", (snext(t)))
    local u = { a = 1 }
    assert.equal("a", (snext(u)))
    u.b = 2
    assert.equal("b", (snext(u, "a")))
  end)

  it("refuses what is not a table", function()
    assert.is_false(pcall(snext, nil))
    assert.is_false(pcall(snext, "x"))
  end)
end)
