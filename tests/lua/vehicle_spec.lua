local steer = require "steer"
local H = require "tests.lua.helpers"
local error_of, snapshot = H.error_of, H.snapshot

describe("world:spawn", function()
  local w
  before_each(function() w = steer.world{width = 800, height = 600, seed = 3} end)

  it("creates a vehicle with the documented defaults", function()
    local v = w:spawn()
    assert.same({400, 300, 0, 0, 0}, {v.x, v.y, v.vx, v.vy, v.speed}) -- the world's middle
    assert.same({1, 100, 300, 8, 0, 0.25, 50}, {v.mass, v.max_speed, v.max_force, v.radius, v.max_turn_rate,
      v.response_time, v.neighbor_radius})
    assert.near(2 * math.pi, v.view_angle, 1e-12)
    assert.equal("vehicle", v.kind)
    assert.equal("weighted", v.combine)
    assert.is_nil(v.color)
    assert.is_nil(v.flock_with)
    assert.equal(1, v.id)
  end)

  it("puts a vehicle without x or y in the middle of the world on that axis", function()
    assert.same({10, 300}, (function(v) return {v.x, v.y} end)(w:spawn{x = 10}))
    assert.same({400, 0}, (function(v) return {v.x, v.y} end)(w:spawn{y = 0}))
    local small = steer.world{width = 100, height = 40, edges = "contain"}
    local v = small:spawn{kind = "a"}
    assert.same({50, 20}, {v.x, v.y})
    small:step(30) -- nothing pushes it: it stays there
    assert.same({50, 20}, {v.x, v.y})
  end)

  it("takes every option", function()
    local B = {think = function() end}
    local v = w:spawn{kind = "prey", x = 10, y = 20, vx = 0, vy = 5, max_speed = 90, max_force = 200, mass = 2,
      radius = 6, max_turn_rate = 3, response_time = 0.5, neighbor_radius = 40, view_angle = 3,
      flock_with = {"prey", "fish"}, color = {255, 128, 0}, combine = "priority", data = {hp = 3},
      brain = B, state = "idle"}
    assert.same({10, 20, 0, 5, 5}, {v.x, v.y, v.vx, v.vy, v.speed})
    assert.near(math.pi / 2, v.heading, 1e-12) -- the velocity sets the heading
    assert.near(0, v.hx, 1e-12)
    assert.near(1, v.hy, 1e-12)
    assert.same({90, 200, 2, 6, 3, 0.5, 40, 3}, {v.max_speed, v.max_force, v.mass, v.radius, v.max_turn_rate,
      v.response_time, v.neighbor_radius, v.view_angle})
    assert.equal("prey", v.kind)
    assert.same({"prey", "fish"}, v.flock_with)
    assert.same({255, 128, 0, 255}, v.color)
    assert.equal("priority", v.combine)
    assert.same({hp = 3}, v.data)
    assert.equal(B, v.brain)
    assert.equal("idle", v.state)
    assert.same({"prey", "fish"}, w:kinds())
  end)

  it("turns a heading into hx, hy when at rest", function()
    local v = w:spawn{heading = math.pi}
    assert.near(-1, v.hx, 1e-12)
    assert.near(0, v.hy, 1e-12)
    assert.near(math.pi, math.abs(v.heading), 1e-12)
  end)

  it("gives serial ids that are never reused", function()
    local a = w:spawn()
    assert.equal(1, a.id)
    w:remove(a)
    local b = w:spawn()
    assert.equal(2, b.id)
  end)

  it("explains bad options and changes nothing when it fails", function()
    w:spawn{kind = "prey"}
    local before = snapshot(w)
    local cases = {
      {{x = "1"}, "bad argument #1 to 'spawn' (option 'x': number expected, got string)"},
      {{x = 0 / 0}, "bad argument #1 to 'spawn' (option 'x': finite number expected, got nan)"},
      {{vy = -math.huge}, "bad argument #1 to 'spawn' (option 'vy': finite number expected, got -inf)"},
      {{mass = 0}, "bad argument #1 to 'spawn' (option 'mass': number > 0 expected, got 0)"},
      {{radius = -1}, "bad argument #1 to 'spawn' (option 'radius': number >= 0 expected, got -1)"},
      {{view_angle = 7}, "bad argument #1 to 'spawn' (option 'view_angle': angle in (0, 2*pi] expected, got 7)"},
      {{kind = 3}, "bad argument #1 to 'spawn' (option 'kind': kind name (string) expected, got number)"},
      {{kind = "a\0b"},
        "bad argument #1 to 'spawn' (option 'kind': kind name must not hold a NUL byte (\\0): C code would cut it there)"},
      {{kind = "new", flock_with = {"prey\0"}},
        "bad argument #1 to 'spawn' (option 'flock_with': kind name must not hold a NUL byte (\\0): C code would cut it "
        .. "there)"},
      {{kind = "new", mass = -1}, "bad argument #1 to 'spawn' (option 'mass': number > 0 expected, got -1)"},
      {{kind = "new", color = {300, 0, 0}},
        "bad argument #1 to 'spawn' (option 'color': {r, g, b[, a]} of integers 0-255 expected)"},
      {{kind = "new", flock_with = {"a", 2}},
        "bad argument #1 to 'spawn' (option 'flock_with': kind name (string) expected, got number)"},
      {{combine = "sum"},
        "bad argument #1 to 'spawn' (option 'combine': 'weighted', 'priority' or 'dither' expected, got 'sum')"},
      {{data = 5}, "bad argument #1 to 'spawn' (option 'data': table or nil expected, got number)"},
      {{state = {}}, "bad argument #1 to 'spawn' (option 'state': state name (string) or nil expected, got table)"},
      {{colour = {1, 2, 3}}, "unknown option 'colour' for spawn (did you mean 'color'?)"},
      {{neighbour_radius = 3}, "unknown option 'neighbour_radius' for spawn (did you mean 'neighbor_radius'?)"},
      {{maxspeed = 3}, "unknown option 'maxspeed' for spawn (did you mean 'max_speed'?)"},
      {{[1] = 3}, "bad argument #1 to 'spawn' (option names must be strings, got number)"},
    }
    for _, case in ipairs(cases) do
      assert.equal(case[2], error_of(function() return w:spawn(case[1]) end))
    end
    assert.same(before, snapshot(w))
    assert.same({"prey"}, w:kinds()) -- "new" was never interned
    assert.equal(0, w:count("prey\0")) -- no kind holds a NUL: "prey\0" is not "prey"
  end)

  it("refuses a 65th kind and keeps the 64 it has", function()
    for i = 1, 63 do w:spawn{kind = "k" .. i} end
    w:spawn() -- the default kind "vehicle" is the 64th
    assert.equal(64, #w:kinds())
    assert.equal("bad argument #1 to 'spawn' (option 'kind': too many kinds (at most 64 per world))",
      error_of(function() return w:spawn{kind = "one more"} end))
    assert.equal(64, w:count())
    assert.equal("k1", w:spawn{kind = "k1"}.kind)
  end)
end)

describe("a vehicle handle", function()
  local w, v
  before_each(function()
    w = steer.world{seed = 1}
    v = w:spawn{kind = "prey", x = 103.46, y = 40.2}
  end)

  it("is one userdata per vehicle, usable as a table key", function()
    local t = {[v] = "mine"}
    assert.is_true(rawequal(v, w:vehicles()[1]))
    assert.is_true(rawequal(v, w:closest(0, 0)))
    assert.equal("mine", t[w:vehicles()[1]])
  end)

  it("stays the same handle while the vehicle lives, even in a weak-keyed table", function()
    local seen = setmetatable({}, {__mode = "k"})
    seen[v] = true
    v.data.hp = 7
    local id = v.id
    v = nil
    collectgarbage()
    collectgarbage()
    local again = w:vehicles()[1]
    assert.equal(id, again.id)
    assert.equal(7, again.data.hp)
    assert.is_true(seen[again])
    w:remove(again)
    again = nil -- luacheck: ignore (the last reference goes, for the collector)
    collectgarbage()
    collectgarbage()
    assert.is_nil(next(seen)) -- gone with its vehicle
  end)

  it("says what it is", function()
    assert.equal("vehicle #1 (prey) at (103.5, 40.2)", tostring(v))
    w:remove(v)
    assert.equal("vehicle #1 (prey) (removed)", tostring(v))
  end)

  it("has checked, writable tunables", function()
    v.max_speed = 50
    v.max_force = 10
    v.mass = 3
    v.radius = 0
    v.max_turn_rate = 1.5
    v.response_time = 0.1
    v.neighbor_radius = 70
    v.view_angle = math.pi
    v.combine = "dither"
    assert.same({50, 10, 3, 0, 1.5, 0.1, 70, math.pi, "dither"}, {v.max_speed, v.max_force, v.mass, v.radius,
      v.max_turn_rate, v.response_time, v.neighbor_radius, v.view_angle, v.combine})
    local cases = {
      {"max_speed", -1, "bad value for field 'max_speed' (number > 0 expected, got -1)"},
      {"max_force", 0 / 0, "bad value for field 'max_force' (finite number expected, got nan)"},
      {"mass", "heavy", "bad value for field 'mass' (number expected, got string)"},
      {"radius", math.huge, "bad value for field 'radius' (finite number expected, got inf)"},
      {"view_angle", 0, "bad value for field 'view_angle' (angle in (0, 2*pi] expected, got 0)"},
      {"combine", "best", "bad value for field 'combine' ('weighted', 'priority' or 'dither' expected, got 'best')"},
      {"color", {1, 2}, "bad value for field 'color' ({r, g, b[, a]} of integers 0-255 expected)"},
      {"data", 3, "bad value for field 'data' (table or nil expected, got number)"},
    }
    for _, case in ipairs(cases) do
      assert.equal(case[3], error_of(function() v[case[1]] = case[2] end))
    end
    assert.same({50, 10, 3, 0, "dither"}, {v.max_speed, v.max_force, v.mass, v.radius, v.combine})
  end)

  it("stores a colour as 0xRRGGBBAA and nil or 0 as the kind's colour", function()
    v.color = {1, 2, 3, 4}
    assert.same({1, 2, 3, 4}, v.color)
    v.color = 0x10203040
    assert.same({16, 32, 48, 64}, v.color)
    v.color = nil
    assert.is_nil(v.color)
    v.color = {9, 8, 7}
    v.color = 0
    assert.is_nil(v.color)
  end)

  it("flocks with the kinds it is given", function()
    v.flock_with = {"fish", "prey"}
    assert.same({"prey", "fish"}, v.flock_with) -- kind-number order
    v.flock_with = nil
    assert.is_nil(v.flock_with)
  end)

  it("refuses writes to read-only fields, methods and unknown fields", function()
    assert.equal("field 'x' of steer.Vehicle is read-only (use set_position)", error_of(function() v.x = 1 end))
    assert.equal("field 'vy' of steer.Vehicle is read-only (use set_velocity)", error_of(function() v.vy = 1 end))
    assert.equal("field 'heading' of steer.Vehicle is read-only (use set_heading)",
      error_of(function() v.heading = 1 end))
    for _, name in ipairs{"speed", "hx", "hy", "id", "kind", "force_x", "force_y", "world"} do
      assert.equal("field '" .. name .. "' of steer.Vehicle is read-only", error_of(function() v[name] = 1 end))
    end
    assert.equal("'seek' is a method of steer.Vehicle and cannot be assigned", error_of(function() v.seek = 1 end))
    assert.equal("unknown field 'colour' of steer.Vehicle (did you mean 'color'?)",
      error_of(function() v.colour = {1, 2, 3} end))
    assert.equal("unknown field 'behaviors' of steer.Vehicle (did you mean 'behaviours'?)",
      error_of(function() return v:behaviors() end))
    assert.equal("unknown field 'sped' of steer.Vehicle (did you mean 'speed'?)",
      error_of(function() return v.sped end))
  end)

  it("moves with set_position, set_velocity and set_heading, checked", function()
    v:set_position(5, 6)
    v:set_velocity(0, -10)
    assert.same({5, 6, 0, -10, 10}, {v.x, v.y, v.vx, v.vy, v.speed})
    assert.near(-math.pi / 2, v.heading, 1e-12)
    v:set_velocity(0, 0)
    v:set_heading(0)
    assert.near(1, v.hx, 1e-12)
    assert.equal("bad argument #2 to 'set_position' (finite number expected, got nan)",
      error_of(function() v:set_position(1, 0 / 0) end))
    assert.equal("bad argument #1 to 'set_velocity' (number expected, got string)",
      error_of(function() v:set_velocity("1", 0) end))
    assert.equal("bad argument #1 to 'set_heading' (finite number expected, got inf)",
      error_of(function() v:set_heading(math.huge) end))
    assert.same({5, 6}, {v.x, v.y})
  end)

  it("keeps a data table per vehicle, created on first use, and brain and state", function()
    local d = v.data
    assert.same({}, d)
    d.x = 1
    assert.equal(d, v.data)
    local other = w:spawn{}
    assert.are_not.equal(d, other.data)
    v.data = {y = 2}
    assert.same({y = 2}, v.data)
    v.state = "chase"
    assert.equal("chase", v.state)
    assert.equal("bad value for field 'state' (state name (string) or nil expected, got number)",
      error_of(function() v.state = 3 end))
    v.brain = print
    assert.equal(print, v.brain)
  end)

  it("frees its data, brain and state with the vehicle", function()
    local weak = setmetatable({}, {__mode = "v"})
    weak.data, weak.brain = {}, {think = function() end}
    v.data, v.brain = weak.data, weak.brain
    w:remove(v)
    collectgarbage()
    collectgarbage()
    assert.is_nil(weak.data)
    assert.is_nil(weak.brain)
  end)

  it("raises a clear error on every use once removed", function()
    local hunter = w:spawn{kind = "hunter"}
    hunter:pursue(v)
    w:remove(v)
    assert.is_false(v:alive())
    assert.is_true(hunter:alive())
    local msg = "vehicle #1 (prey) was removed"
    assert.equal(msg, error_of(function() return v.x end))
    assert.equal(msg, error_of(function() return v.data end))
    assert.equal(msg, error_of(function() v.max_speed = 3 end))
    assert.equal(msg, error_of(function() v:seek(1, 2) end))
    assert.equal(msg, error_of(function() v:stop() end))
    assert.equal(msg, error_of(function() v:behaviours() end))
    assert.equal(msg, error_of(function() v:set_position(1, 2) end))
    assert.equal("bad argument #1 to 'remove' (vehicle #1 (prey) was removed)", error_of(function() w:remove(v) end))
    assert.equal("bad argument #1 to 'closest' (vehicle #1 (prey) was removed)",
      error_of(function() w:closest(v, "hunter") end))
    assert.equal("bad argument #1 to 'pursue' (vehicle #1 (prey) was removed)",
      error_of(function() hunter:pursue(v) end))
    assert.is_nil(hunter:behaviours().pursue) -- a behaviour whose target went switches itself off
    assert.same({hunter}, w:vehicles())
  end)

  it("tells a removed vehicle from the one reusing its slot", function()
    w:remove(v)
    local newer = w:spawn{kind = "prey"}
    assert.is_false(v:alive())
    assert.is_true(newer:alive())
    assert.equal("vehicle #1 (prey) was removed", error_of(function() return v.x end))
    assert.equal(2, newer.id)
  end)

  it("refuses a vehicle of another world as a target and a non-vehicle", function()
    local other = steer.world():spawn{}
    assert.equal("bad argument #1 to 'seek' (vehicle of another world)", error_of(function() v:seek(other) end))
    assert.equal("bad argument #1 to 'remove' (vehicle of another world)", error_of(function() w:remove(other) end))
    assert.equal("bad argument #1 to 'remove' (vehicle, obstacle, wall, path or flow field expected, got table)",
      error_of(function() w:remove({}) end))
  end)
end)

-- Field reads take shortcuts (names matched by address, hot fields read without a state copy):
-- they must agree with each other and with the state, and tell members from other keys exactly.
describe("vehicle field reads", function()
  it("agree with each other on moving vehicles", function()
    local w = steer.world{width = 400, height = 400, edges = "wrap", seed = 5}
    local vs = {}
    for i = 1, 40 do
      vs[i] = w:spawn{x = w:random() * 400, y = w:random() * 400, vx = 10, vy = 0}
      vs[i]:wander{}
    end
    for _ = 1, 30 do w:step() end
    for i, v in ipairs(vs) do
      assert.near(math.sqrt(v.vx ^ 2 + v.vy ^ 2), v.speed, 1e-9)
      assert.near((math.atan2 or math.atan)(v.hy, v.hx), v.heading, 1e-12) -- LuaJIT's atan takes one argument
      assert.near(1, v.hx ^ 2 + v.hy ^ 2, 1e-9)
      assert.is_true(v.x >= 0 and v.x < 400 and v.y >= 0 and v.y < 400)
      assert.equal(i, v.id)
      assert.equal(w, v.world)
      assert.equal(vs[1].seek, v.seek) -- one function per method, whatever the handle
    end
  end)

  it("keep data, brain and state per vehicle, also in a reused slot", function()
    local w = steer.world{}
    local a = w:spawn{data = {n = 1}, brain = {name = "a", think = function() end}, state = "idle"}
    local b = w:spawn{}
    w:remove(a)
    local c = w:spawn{} -- reuses a's slot
    assert.equal(nil, c.brain)
    assert.equal(nil, c.state)
    assert.same({}, c.data)
    c.state, b.state = "run", "walk"
    assert.equal("run", c.state)
    assert.equal("walk", b.state)
    assert.equal("vehicle #1 (vehicle) was removed", error_of(function() return a.state end))
  end)

  it("refuse keys that are not members, whatever their type or length", function()
    local v = steer.world{}:spawn{}
    assert.equal("steer.Vehicle has no field of type number", error_of(function() return v[1] end))
    assert.equal("steer.Vehicle has no field of type boolean", error_of(function() return v[true] end))
    local long = string.rep("x", 50) -- a long string is not interned: matched by content, not address
    assert.matches("^unknown field 'x+' of steer.Vehicle", error_of(function() return v[long] end))
    assert.equal(1, select("#", v.data)) -- (the dispatch leaves nothing else behind)
  end)
end)

describe("a method called with a dot", function()
  local w, v
  before_each(function()
    w = steer.world{seed = 3}
    v = w:spawn{}
  end)

  it("says to call it with a colon, naming the method", function()
    assert.equal("bad argument #1 to 'wander' (steer.Vehicle expected, got table: call it as a method, "
      .. "v:wander(...))", error_of(function() v.wander{} end))
    assert.equal("bad argument #1 to 'seek' (steer.Vehicle expected, got number: call it as a method, "
      .. "v:seek(...))", error_of(function() v.seek(1, 2) end))
    assert.equal("bad argument #1 to 'step' (steer.World expected, got no value: call it as a method, "
      .. "w:step(...))", error_of(function() w.step() end))
    assert.equal(0, w.step_count)
    assert.same({}, v:behaviours())
  end)

  it("says so for a world method given the vehicle it was asked about", function()
    assert.equal("bad argument #1 to 'closest' (steer.World expected, got steer.Vehicle: call it as a "
      .. "method, w:closest(...))", error_of(function() w.closest(v, "vehicle", 100) end))
    assert.equal("bad argument #1 to 'remove' (steer.World expected, got steer.Vehicle: call it as a "
      .. "method, w:remove(...))", error_of(function() w.remove(v) end))
    assert.equal(1, w:count())
  end)

  it("keeps the plain message when self is another handle", function()
    assert.equal("bad argument #1 to 'wander' (steer.Vehicle expected, got steer.World)",
      error_of(function() v.wander(w, {}) end))
  end)
end)
