local steer = require "steer"
local H = require "tests.lua.helpers"
local error_of = H.error_of

describe("steer.world", function()
  it("takes bounds, edges, dt and seed, with documented defaults", function()
    local w = steer.world()
    assert.equal(800, w.width)
    assert.equal(600, w.height)
    assert.equal("none", w.edges)
    assert.near(1 / 60, w.dt, 1e-15)
    w = steer.world{width = 400, height = 300, edges = "contain", dt = 0.02, seed = 9}
    assert.same({400, 300, "contain", 0.02}, {w.width, w.height, w.edges, w.dt})
  end)

  it("accepts wrap = true as shorthand for edges = 'wrap'", function()
    assert.equal("wrap", steer.world{wrap = true}.edges)
    assert.equal("wrap", steer.world{wrap = true, edges = "wrap"}.edges)
    assert.equal("none", steer.world{wrap = false}.edges)
  end)

  it("explains bad options", function()
    assert.equal("bad argument #1 to 'steer.world' (option 'width': number > 0 expected, got -5)",
      error_of(steer.world, {width = -5}))
    assert.equal("bad argument #1 to 'steer.world' (option 'height': finite number expected, got nan)",
      error_of(steer.world, {height = 0 / 0}))
    assert.equal("bad argument #1 to 'steer.world' (option 'dt': finite number expected, got inf)",
      error_of(steer.world, {dt = math.huge}))
    assert.equal("bad argument #1 to 'steer.world' (option 'edges': 'wrap', 'contain' or 'none' expected, got 'wrp')",
      error_of(steer.world, {edges = "wrp"}))
    assert.equal("bad argument #1 to 'steer.world' (option 'wrap': true conflicts with edges = 'contain')",
      error_of(steer.world, {wrap = true, edges = "contain"}))
    assert.equal("bad argument #1 to 'steer.world' (option 'seed': non-negative integer expected, got 1.5)",
      error_of(steer.world, {seed = 1.5}))
    assert.equal("unknown option 'wdith' for world (did you mean 'width'?)", error_of(steer.world, {wdith = 3}))
    assert.equal("bad argument #1 to 'steer.world' (dt must be a finite number in (0, 1] seconds (got 2))",
      error_of(steer.world, {dt = 2}))
    assert.equal("bad argument #1 to 'steer.world' (table of options expected, got number)", error_of(steer.world, 5))
  end)

  it("steps by one or n fixed steps and counts time", function()
    local w = steer.world{dt = 0.1}
    w:step()
    assert.equal(1, w.step_count)
    w:step(9)
    assert.equal(10, w.step_count)
    assert.near(1.0, w.time, 1e-12)
    w:step(0)
    assert.equal(10, w.step_count)
    assert.equal("bad argument #1 to 'step' (number of steps must be >= 0)", error_of(function() return w:step(-1) end))
  end)

  it("has a writable, checked dt and read-only other fields", function()
    local w = steer.world()
    w.dt = 0.05
    assert.equal(0.05, w.dt)
    assert.equal("bad value for field 'dt' (number > 0 expected, got 0)", error_of(function() w.dt = 0 end))
    assert.equal("bad value for field 'dt' (number in (0, 1] expected, got 3)", error_of(function() w.dt = 3 end))
    assert.equal("bad value for field 'dt' (number in (0, 1] expected, got 1.5)", error_of(function() w.dt = 1.5 end))
    assert.equal(0.05, w.dt)
    assert.equal("field 'time' of steer.World is read-only", error_of(function() w.time = 3 end))
    assert.equal("unknown field 'tmie' of steer.World (did you mean 'time'?)", error_of(function() return w.tmie end))
  end)

  describe("random", function()
    it("works like math.random on the world's PRNG", function()
      local w = steer.world{seed = 5}
      for _ = 1, 1000 do
        local f = w:random()
        assert.is_true(f >= 0 and f < 1)
        local i = w:random(6)
        assert.is_true(H.is_integer(i) and i >= 1 and i <= 6)
        local j = w:random(-3, 3)
        assert.is_true(j >= -3 and j <= 3)
      end
      assert.equal(7, w:random(7, 7))
      -- the whole 64-bit range where Lua has 64-bit integers (LuaJIT's numbers are doubles)
      if math.mininteger then assert.is_number(w:random(math.mininteger, math.maxinteger)) end
    end)

    it("covers its range evenly", function()
      local w = steer.world{seed = 11}
      local counts = {0, 0, 0, 0, 0, 0}
      for _ = 1, 60000 do
        local i = w:random(6)
        counts[i] = counts[i] + 1
      end
      for i = 1, 6 do assert.is_true(math.abs(counts[i] - 10000) < 500, "face " .. i .. ": " .. counts[i]) end
    end)

    it("gives the same sequence for the same seed and another for another seed", function()
      local a, b, c = steer.world{seed = 42}, steer.world{seed = 42}, steer.world{seed = 43}
      local same, differ = true, false
      for _ = 1, 100 do
        local x, y, z = a:random(1000), b:random(1000), c:random(1000)
        same = same and x == y
        differ = differ or x ~= z
      end
      assert.is_true(same)
      assert.is_true(differ)
    end)

    it("steps on several threads to the same bits as on one (threads = N)", function()
      -- 9,000 vehicles: above the size from which a world uses its threads
      local function run(threads)
        local w = steer.world{width = 2400, height = 2400, edges = "wrap", seed = 3, threads = threads}
        for _ = 1, 9000 do
          w:spawn{x = w:random() * 2400, y = w:random() * 2400, vx = w:random(-50, 50), vy = w:random(-50, 50)}:flock{}
        end
        for _ = 1, 5 do w:step() end
        local v = w:vehicles()
        return string.format("%.17g %.17g %.17g %.17g %d", v[1].x, v[1].y, v[9000].x, v[9000].y, w:random(1000000))
      end
      assert.equal(run(1), run(2))
      assert.equal(run(1), run(3))
      assert.equal("bad argument #1 to 'steer.world' (threads must be an integer in [1, 64] (got 65))",
        error_of(steer.world, {threads = 65}))
      assert.is_truthy(error_of(steer.world, {threads = 1.5}))
      -- 0 is no number of threads (the C core reads it as its default, from a zeroed def)
      assert.equal("bad argument #1 to 'steer.world' (option 'threads': integer >= 1 expected, got 0)",
        error_of(steer.world, {threads = 0}))
    end)

    it("rejects empty intervals and non-integers", function()
      local w = steer.world()
      assert.equal("bad argument #1 to 'random' (interval is empty)", error_of(function() return w:random(0) end))
      assert.equal("bad argument #2 to 'random' (interval is empty)", error_of(function() return w:random(5, 4) end))
      assert.equal("bad argument #1 to 'random' (number has no integer representation)",
        error_of(function() return w:random(1.5) end))
    end)
  end)

  describe("queries", function()
    local w, a, b, c, d
    before_each(function()
      w = steer.world{width = 1000, height = 1000}
      a = w:spawn{kind = "hunter", x = 100, y = 100}
      b = w:spawn{kind = "prey", x = 130, y = 100}
      c = w:spawn{kind = "prey", x = 100, y = 150}
      d = w:spawn{kind = "rock", x = 400, y = 400}
    end)

    it("lists vehicles and counts them, all or of a kind, in id order", function()
      local all = w:vehicles()
      assert.equal(4, #all)
      assert.is_true(rawequal(all[1], a) and rawequal(all[2], b) and rawequal(all[3], c) and rawequal(all[4], d))
      local prey = w:vehicles("prey")
      assert.equal(2, #prey)
      assert.is_true(rawequal(prey[1], b) and rawequal(prey[2], c))
      assert.equal(4, w:count())
      assert.equal(2, w:count("prey"))
      assert.equal(0, w:count("ghost"))
      assert.same({}, w:vehicles("ghost"))
      assert.same({"hunter", "prey", "rock"}, w:kinds())
    end)

    it("finds the closest vehicle to a vehicle (not itself) or a point", function()
      assert.equal(b, w:closest(a))
      assert.equal(b, w:closest(a, "prey"))
      assert.equal(c, w:closest(100, 160, "prey"))
      assert.equal(a, w:closest(100, 100))
      assert.is_nil(w:closest(a, "prey", 20))
      assert.equal(b, w:closest(a, "prey", 30))
      assert.equal(d, w:closest(a, "rock"))
      assert.is_nil(w:closest(a, "ghost"))
      -- a long name is not interned: the query's string is another object with the same text
      local far = w:spawn{kind = string.rep("boulder", 7), x = 900, y = 900}
      assert.equal(far, w:closest(a, table.concat({string.rep("boulder", 6), "boulder"})))
    end)

    it("gives ties to the older vehicle", function()
      local e = w:spawn{kind = "prey", x = 70, y = 100} -- as far from a as b
      assert.equal(b, w:closest(a, "prey"))
      assert.is_true(e:alive())
    end)

    it("lists neighbours within a radius, in id order, without the asker", function()
      local n = w:neighbors(a, 60)
      assert.equal(2, #n)
      assert.equal(b, n[1])
      assert.equal(c, n[2])
      assert.equal(1, #w:neighbors(a, 40))
      assert.equal(0, #w:neighbors(a, 60, "hunter"))
      assert.equal(2, #w:neighbors(a, 1000, "prey"))
      assert.equal(3, #w:neighbors(a, 1000))
    end)

    it("looks all around, whatever the asker's view_angle, neighbor_radius and flock_with", function()
      local t = steer.world{}
      local me = t:spawn{x = 100, y = 100, vx = 10, vy = 0, view_angle = 0.5, neighbor_radius = 5,
                         flock_with = {"nobody"}}
      local behind = t:spawn{x = 80, y = 100}
      local ahead = t:spawn{x = 120, y = 100}
      assert.same({behind, ahead}, t:neighbors(me, 30))
    end)

    it("measures across the edges of a wrapping world", function()
      local t = steer.world{width = 100, height = 100, wrap = true}
      local p = t:spawn{x = 2, y = 50}
      local q = t:spawn{x = 97, y = 50}
      t:spawn{x = 30, y = 50}
      assert.equal(q, t:closest(p))
      assert.equal(1, #t:neighbors(p, 10))
    end)

    it("explains bad arguments", function()
      assert.equal("bad argument #1 to 'closest' (vehicle or x, y expected, got string)",
        error_of(function() return w:closest("x") end))
      assert.equal("bad argument #2 to 'closest' (finite number expected, got nan)",
        error_of(function() return w:closest(1, 0 / 0) end))
      assert.equal("bad argument #3 to 'closest' (range >= 0 expected, got -1)",
        error_of(function() return w:closest(a, "prey", -1) end))
      assert.equal("bad argument #2 to 'closest' (kind name (string) or nil expected, got number)",
        error_of(function() return w:closest(a, 5) end))
      assert.equal("bad argument #2 to 'neighbors' (finite radius >= 0 expected, got inf)",
        error_of(function() return w:neighbors(a, math.huge) end))
      assert.equal("bad argument #2 to 'neighbors' (number expected, got no value)",
        error_of(function() return w:neighbors(a) end))
      w:remove(b)
      assert.equal("bad argument #1 to 'neighbors' (vehicle #2 (prey) was removed)",
        error_of(function() return w:neighbors(b, 10) end))
      assert.equal("bad argument #1 to 'closest' (vehicle #2 (prey) was removed)",
        error_of(function() return w:closest(b) end))
      local other = steer.world():spawn{}
      assert.equal("bad argument #1 to 'closest' (vehicle of another world)",
        error_of(function() return w:closest(other) end))
    end)
  end)

  it("is deterministic: two worlds with the same seed give the same trajectories", function()
    local function run(seed)
      local w = steer.world{width = 500, height = 500, wrap = true, seed = seed}
      local hunter = w:spawn{kind = "hunter", x = 250, y = 250, max_speed = 120}
      for _ = 1, 20 do
        w:spawn{kind = "prey", x = w:random(500), y = w:random(500), heading = w:random() * 6.283}:wander{jitter = 200}
      end
      local trace = {}
      for step = 1, 300 do
        local prey = w:closest(hunter, "prey")
        if prey then hunter:pursue(prey) end
        if step % 50 == 0 and prey then w:remove(prey) end
        w:step()
        for _, v in ipairs(w:vehicles()) do trace[#trace + 1] = string.format("%a,%a", v.x, v.y) end
      end
      return table.concat(trace, ";")
    end
    local a, b, c = run(7), run(7), run(8)
    assert.equal(a, b)
    assert.are_not.equal(a, c)
  end)

  it("can be closed; later use is an error", function()
    local w = steer.world()
    local v = w:spawn{}
    w:close()
    assert.equal("world was closed", error_of(function() return w:step() end))
    assert.is_false(v:alive())
    assert.equal("world (closed)", tostring(w))
    w:close() -- twice is fine
    if _VERSION >= "Lua 5.4" then -- a to-be-closed world (the syntax is 5.4's: compiled only there)
      local scoped = assert(load("local steer = ...; local scoped <close> = steer.world(); scoped:step(); return scoped"))(steer)
      assert.equal("world (closed)", tostring(scoped))
    end
  end)

  it("describes itself", function()
    local w = steer.world{width = 400, height = 300, wrap = true, dt = 0.5}
    w:spawn{}
    w:step()
    assert.equal("world 400x300 (wrap), 1 vehicles, t = 0.5", tostring(w))
  end)
end)
