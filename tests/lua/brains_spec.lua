-- brains_spec.lua - v.brain is checked when set; w:think() runs the brains the way the steer
-- program does (staggered at w.think_hz, per-vehicle dt) and a failing brain pauses its vehicle only.
local steer = require "steer"
local H = require "tests.lua.helpers"
local error_of = H.error_of

local function noop() end

describe("v.brain", function()
  local w, v
  before_each(function()
    w = steer.world{seed = 2}
    v = w:spawn{kind = "hunter"}
  end)

  it("accepts a table with a think function, a function, and nil", function()
    local B = {think = noop}
    v.brain = B
    assert.equal(B, v.brain)
    v.brain = noop
    assert.equal(noop, v.brain)
    v.brain = nil
    assert.is_nil(v.brain)
    local Class = {think = noop}
    local object = setmetatable({}, {__index = Class}) -- think through __index
    v.brain = object
    assert.equal(object, v.brain)
  end)

  it("refuses anything else where it is set, naming the field, and keeps the old brain", function()
    local B = {think = noop}
    v.brain = B
    assert.equal("bad value for field 'brain' (brain has no think function)", error_of(function() v.brain = {} end))
    assert.equal("bad value for field 'brain' (brain has no think function ('think' is a string))",
      error_of(function() v.brain = {think = "chase"} end))
    assert.equal("bad value for field 'brain' (brain has no think function: a table with think(v, dt) or a "
      .. "function expected, got number)", error_of(function() v.brain = 5 end))
    assert.equal("bad value for field 'brain' (brain has no think function (it has 'Think': did you mean "
      .. "'think'?))", error_of(function() v.brain = {Think = noop, update = noop, speed = 3} end))
    assert.equal("bad value for field 'brain' (brain has no think function (it has 'thinks': did you mean "
      .. "'think'?))", error_of(function() v.brain = {thinks = noop, thnik = noop} end))
    assert.equal(B, v.brain)
    -- the error points at the line that set it
    local ok, err = pcall(function() v.brain = "Brain" end)
    assert.is_false(ok)
    assert.matches("^[^:]*brains_spec%.lua:%d+: bad value for field 'brain'", err)
  end)

  it("is checked by spawn too", function()
    assert.equal("bad argument #1 to 'spawn' (option 'brain': brain has no think function)",
      error_of(function() w:spawn{brain = {name = "b"}} end))
    assert.equal(1, w:count())
  end)

  it("has a read-only brain_error, nil while the brain thinks", function()
    assert.is_nil(v.brain_error)
    assert.equal("field 'brain_error' of steer.Vehicle is read-only (assign v.brain to resume its brain)",
      error_of(function() v.brain_error = "x" end))
  end)
end)

describe("w.think_hz", function()
  it("defaults to 10, is a world option and a writable field, checked", function()
    assert.equal(10, steer.world{}.think_hz)
    local w = steer.world{think_hz = 4}
    assert.equal(4, w.think_hz)
    w.think_hz = 0
    assert.equal(0, w.think_hz)
    assert.equal("bad value for field 'think_hz' (number >= 0 expected, got -1)",
      error_of(function() w.think_hz = -1 end))
    assert.equal("bad argument #1 to 'world' (option 'think_hz': number expected, got string)",
      error_of(function() steer.world{think_hz = "fast"} end))
    assert.equal(0, w.think_hz)
  end)
end)

describe("w:think()", function()
  local w, log
  local function spawn_six(brain)
    local vs = {}
    for i = 1, 6 do
      vs[i] = w:spawn{kind = "hunter", x = 10 * i, y = 10, data = {slot = i, n = 0}}
      vs[i].brain = brain
    end
    return vs
  end
  before_each(function()
    w = steer.world{seed = 4} -- dt 1/60, think_hz 10: each brain every 6th step
    log = {}
  end)

  it("staggers the brains over the steps, each at the rate, with the time since it last thought", function()
    local Brain = {think = function(v, dt)
      log[#log + 1] = {slot = v.data.slot, step = w.step_count, dt = dt}
    end}
    spawn_six(Brain)
    for _ = 1, 120 do
      w:think()
      w:step()
    end
    assert.equal(120, #log) -- 6 brains x 10 Hz x 2 s
    local per_step, first = {}, {}
    for _, e in ipairs(log) do
      per_step[e.step] = (per_step[e.step] or 0) + 1
      first[e.slot] = first[e.slot] or e.step
      assert.equal(first[e.slot] % 6, e.step % 6) -- always in its own slot of the six
      assert.near(0.1, e.dt, 1e-9)
    end
    for s = 0, 119 do assert.equal(1, per_step[s]) end
  end)

  it("keeps every vehicle at the rate, in creation order, through spawns, removals and new rates", function()
    -- Every pass runs the brains whose turn it is in creation order; each live vehicle thinks once
    -- in every `stride` steps (6 at 10 Hz, 4 at 15 Hz, 2 at 15 Hz once dt is 1/30): a first time
    -- within a stride of its birth or of a new rate (`due`), then every stride steps; a removed
    -- one never again. Vehicles come and go between the passes and from inside them, in bursts
    -- large enough to leave most of the world new or gone.
    local last, due, gone, stride = {}, {}, {}, 6
    local pass_ids
    local brain = function(v)
      local id, step = v.id, w.step_count
      assert.is_nil(gone[id])
      if pass_ids[#pass_ids] then assert.is_true(id > pass_ids[#pass_ids]) end
      pass_ids[#pass_ids + 1] = id
      if last[id] then assert.equal(stride, step - last[id], "vehicle " .. id .. " at step " .. step) end
      last[id] = step
      if w:random() < 0.01 then -- a brain spawns: the newcomer thinks from the next pass on
        local n = w:spawn{x = w:random() * 500, y = w:random() * 500}
        n.brain = v.brain
        due[n.id] = step + stride
      end
    end
    local function spawn(n)
      for _ = 1, n do
        local v = w:spawn{x = w:random() * 500, y = w:random() * 500}
        v.brain = brain
        due[v.id] = w.step_count + stride - 1
      end
    end
    local function remove(n)
      local all = w:vehicles()
      for _ = 1, math.min(n, #all) do
        local v = table.remove(all, 1 + math.floor(w:random() * #all))
        gone[v.id] = true
        w:remove(v)
      end
    end
    local function new_rate(s)
      stride, last = s, {}
      for _, v in ipairs(w:vehicles()) do due[v.id] = w.step_count + stride - 1 end
    end
    spawn(60)
    for step = 0, 599 do
      if step % 7 == 3 then remove(1); spawn(1) end
      if step == 200 then w.think_hz = 15; new_rate(4) end
      if step == 300 then spawn(200) end
      if step == 360 then remove(230) end
      if step == 450 then w.dt = 1 / 30; new_rate(2) end
      pass_ids = {}
      w:think(function(_, message) error(message, 0) end) -- a failed check inside a brain fails the test
      for _, v in ipairs(w:vehicles()) do -- none is late for its first thought
        if not last[v.id] then assert.is_true(step < due[v.id], "vehicle " .. v.id .. " late at step " .. step) end
      end
      w:step()
    end
    assert.is_true(#w:vehicles() > 30)
  end)

  it("calls a function brain as f(v, dt), and no brain at think_hz 0", function()
    local seen
    local v = w:spawn{}
    v.brain = function(self, dt) seen = {self, dt} end
    for _ = 1, 6 do w:think(); w:step() end
    assert.equal(v, seen[1])
    assert.near(0.1, seen[2], 1e-9)
    seen = nil
    w.think_hz = 0
    for _ = 1, 12 do w:think(); w:step() end
    assert.is_nil(seen)
    w.think_hz = 1e-300 -- once in 10^15 steps: not in these
    for _ = 1, 12 do w:think(); w:step() end
    assert.is_nil(seen)
  end)

  it("calls a think stored in the brain as think(v, dt) and one from its class as brain:think(v, dt)", function()
    local v = w:spawn{}
    local seen
    v.brain = {think = function(a, b, c) seen = {a, b, c} end}
    for _ = 1, 6 do w:think(); w:step() end
    assert.equal(v, seen[1])
    assert.near(0.1, seen[2], 1e-9)
    assert.is_nil(seen[3])
    -- a class: `function Guard:think(v, dt)` is a method, and the instance holds the vehicle's state
    local Guard = {}
    Guard.__index = Guard
    function Guard:think(vehicle, dt)
      self.thoughts = self.thoughts + 1
      seen = {self, vehicle, dt}
    end
    local guard = setmetatable({thoughts = 0}, Guard)
    v.brain = guard
    for _ = 1, 6 do w:think(); w:step() end
    assert.equal(guard, seen[1])
    assert.equal(v, seen[2])
    assert.near(0.1, seen[3], 1e-9)
    assert.equal(1, guard.thoughts)
    -- a deeper class chain (a subclass whose think comes from its parent) is a method too
    local Elite = setmetatable({}, {__index = Guard})
    Elite.__index = Elite
    local elite = setmetatable({thoughts = 10}, Elite)
    v.brain = elite
    for _ = 1, 6 do w:think(); w:step() end
    assert.equal(elite, seen[1])
    assert.equal(v, seen[2])
    assert.equal(11, elite.thoughts)
  end)

  it("pauses only the vehicle whose brain fails: the five sharing its brain go on", function()
    local Brain = {think = function(v, dt)
      v.data.n = v.data.n + 1
      if v.data.slot == 3 then error("no prey in sight") end
    end}
    local vs = spawn_six(Brain)
    local failures = {}
    local failed_total = 0
    for _ = 1, 60 do
      failed_total = failed_total + w:think(function(v, message, traceback)
        failures[#failures + 1] = {v = v, message = message, traceback = traceback}
      end)
      w:step()
    end
    for i = 1, 6 do assert.equal(i == 3 and 1 or 10, vs[i].data.n) end
    assert.equal(1, failed_total)
    assert.equal(1, #failures)
    assert.equal(vs[3], failures[1].v)
    assert.matches("^[^:]*brains_spec%.lua:%d+: no prey in sight$", failures[1].message)
    assert.matches("^stack traceback:", failures[1].traceback)
    assert.equal(failures[1].message, vs[3].brain_error)
    for i = 1, 6 do
      if i ~= 3 then assert.is_nil(vs[i].brain_error) end
    end
  end)

  it("resumes a paused vehicle when its brain is set again, or all with w:resume_brains()", function()
    local healthy = false
    local Brain = {think = function(v, dt)
      v.data.n = v.data.n + 1
      if not healthy then error("broken") end
    end}
    local vs = spawn_six(Brain)
    for _ = 1, 6 do w:think(noop); w:step() end
    for i = 1, 6 do assert.is_string(vs[i].brain_error) end
    healthy = true
    vs[1].brain = Brain -- this one only
    for _ = 1, 12 do w:think(); w:step() end
    assert.equal(3, vs[1].data.n)
    assert.is_nil(vs[1].brain_error)
    assert.equal(1, vs[2].data.n)
    assert.equal(5, w:resume_brains())
    assert.equal(0, w:resume_brains())
    for _ = 1, 6 do w:think(); w:step() end
    for i = 2, 6 do
      assert.equal(2, vs[i].data.n)
      assert.is_nil(vs[i].brain_error)
    end
  end)

  it("lets an error in on_error through, and checks its arguments", function()
    spawn_six({think = function() error("x") end})
    local ok, err = pcall(w.think, w, function() error("handler failed", 0) end)
    assert.is_false(ok)
    assert.equal("handler failed", err)
    assert.equal("bad argument #1 to 'think' (function expected, got number)", error_of(function() w:think(3) end))
    -- the pass that error ended is over: the world thinks again
    for _, v in ipairs(w:vehicles()) do v.brain = function(self) self.data.thought = true end end
    for _ = 1, 12 do w:think(); w:step() end
    for _, v in ipairs(w:vehicles()) do assert.is_true(v.data.thought) end
  end)

  it("stringifies error objects and keeps going when a brain removes or spawns vehicles", function()
    local vs
    local Brain = {think = function(v, dt)
      v.data.n = v.data.n + 1
      if v.data.slot == 1 then error(setmetatable({}, {__tostring = function() return "custom error" end})) end
      if v.data.slot == 2 then error({}) end
      if v.data.slot == 4 and vs[5]:alive() then w:remove(vs[5]) end
      if v.data.slot == 6 and v.data.n == 1 then w:spawn{data = {slot = 7, n = 0}, brain = v.brain} end
    end}
    w.think_hz = 60 -- every brain every step
    vs = spawn_six(Brain)
    for _ = 1, 3 do w:think(noop); w:step() end
    assert.equal("custom error", vs[1].brain_error)
    assert.equal("(error object is a table value)", vs[2].brain_error)
    assert.is_false(vs[5]:alive())
    assert.equal(3, vs[4].data.n)
    local seventh = w:vehicles()[6]
    assert.equal(7, seventh.data.slot)
    assert.equal(2, seventh.data.n) -- born during the first pass: thinks from the next one
  end)

  it("gives a new vehicle in a paused vehicle's slot a fresh start", function()
    local a = w:spawn{data = {n = 0}}
    a.brain = function(v) v.data.n = v.data.n + 1; error("a fails") end
    w.think_hz = 60
    w:think(noop)
    assert.is_string(a.brain_error)
    w:remove(a)
    local b = w:spawn{data = {n = 0}} -- the same core slot
    b.brain = function(v) v.data.n = v.data.n + 1 end
    for _ = 1, 3 do w:think(noop); w:step() end
    assert.equal(3, b.data.n)
    assert.is_nil(b.brain_error)
    assert.equal(0, w:resume_brains())
  end)

  it("is not re-entrant, and survives a brain that closes the world or removes its own vehicle", function()
    local vs = spawn_six(function(v) v.data.n = v.data.n + 1; w:think() end)
    w.think_hz = 60
    w:think(noop)
    for i = 1, 6 do
      assert.equal(1, vs[i].data.n)
      assert.matches("think: the world is thinking already %(w:think%(%) called from a brain%?%)$", vs[i].brain_error)
    end
    assert.equal(6, w:resume_brains())
    -- a nested call leaves the running pass alone: here the list it walks would have shifted
    for i = 1, 6 do vs[i].data.n = 0 end
    for i = 2, 6 do vs[i].brain = function(v) v.data.n = v.data.n + 1 end end
    vs[1].brain = function(v)
      v.data.n = v.data.n + 1
      if vs[2]:alive() then w:remove(vs[2]) end
      w:think()
    end
    w:think(noop)
    assert.same({1, 1, 1, 1, 1}, {vs[1].data.n, vs[3].data.n, vs[4].data.n, vs[5].data.n, vs[6].data.n})
    assert.matches("thinking already", vs[1].brain_error)
    assert.equal(1, w:resume_brains())
    w:remove(vs[1])
    vs = {vs[3], vs[4], vs[5], vs[6], w:spawn{}, w:spawn{}}
    -- a brain that removes its own vehicle, then fails: reported, nothing left to pause
    local seen = {}
    for i = 1, 6 do vs[i].brain = function(v) w:remove(v); error("gone") end end
    assert.equal(6, w:think(function(v, msg) seen[#seen + 1] = msg end))
    assert.equal(6, #seen)
    assert.equal(0, w:count())
    assert.equal(0, w:resume_brains())
    -- a brain that closes the world ends the pass
    local calls = 0
    for _ = 1, 3 do w:spawn{}.brain = function() calls = calls + 1; w:close() end end
    w:think()
    assert.equal(1, calls)
    assert.equal("world was closed", error_of(function() w:think() end))
  end)

  it("allocates nothing per think", function()
    local Brain = {think = function(v, dt) end}
    for i = 1, 600 do w:spawn{x = i, y = i}.brain = Brain end
    w:think()
    w:step() -- the bookkeeping is made on the first passes
    for _ = 1, 6 do w:think(); w:step() end
    -- LuaJIT's compiler makes its traces in the Lua heap too: off, so that only the module counts
    if jit then jit.off(); jit.flush() end
    collectgarbage()
    collectgarbage("stop")
    local before = collectgarbage("count")
    for _ = 1, 60 do w:think() end -- 100 brains a call
    local after = collectgarbage("count")
    collectgarbage("restart")
    if jit then jit.on() end
    assert.equal(before, after)
  end)
end)
