-- SPDX-License-Identifier: MIT
-- senses_spec.lua - senses from Lua (issue #28): v:sense{...} and its checks, v:sensed and
-- v:memory, sounds, timers, w:line_of_sight, and brains woken by events: each event once per
-- change, in the documented order, delivered by w:think() between steps, with the brain error
-- rules of think.
local steer = require "steer"
local H = require "tests.lua.helpers"
local error_of = H.error_of

local EYES = {name = "eyes", sight = {range = 100, fov = 360}}

-- A guard at (100, 100) looking right (heading 0) and a world without edges.
local function scene(opts)
  local w = steer.world{width = 1000, height = 1000, seed = 3, think_hz = (opts or {}).think_hz or 10}
  local guard = w:spawn{kind = "guard", x = 100, y = 100, heading = 0}
  return w, guard
end

-- Runs n frames as the program does: the pass (events, thinks), then the step.
local function frames(w, n)
  for _ = 1, n do
    w:think()
    w:step()
  end
end

-- A brain that logs every event it gets as a string.
local function logger(log)
  local name = function(x) return x and (x.kind .. x.id) or "nil" end
  return {
    sensed = function(v, sense, other) log[#log + 1] = ("%s sensed %s %s"):format(name(v), sense, name(other)) end,
    lost = function(v, sense, other) log[#log + 1] = ("%s lost %s %s"):format(name(v), sense, name(other)) end,
    forgot = function(v, sense, other) log[#log + 1] = ("%s forgot %s %s"):format(name(v), sense, name(other)) end,
    heard = function(v, sense, tag, x, y, from)
      log[#log + 1] = ("%s heard %s %s %g %g %s"):format(name(v), sense, tag, x, y, name(from))
    end,
    timer = function(v) log[#log + 1] = ("%s timer %d"):format(name(v), v.world.step_count) end,
  }
end

describe("v:sense", function()
  local w, v
  before_each(function() w, v = scene() end)

  it("adds a named sense and returns the vehicle; v:senses() gives it back, fov in degrees", function()
    assert.equal(v, v:sense{name = "eyes", sight = {kinds = {"thief"}, range = 150, fov = 270, forget_after = 2,
      period = 0.1, max_memories = 8, walls_block = false}})
    v:sense{name = "ears", hearing = {range = 300, tags = {"step", "bang"}}}
    local s = v:senses()
    assert.equal(2, #s)
    -- (events: none, it has no brain to handle them; see "listening" below)
    assert.same({name = "eyes", type = "sight", range = 150, fov = 270, kinds = {"thief"}, walls_block = false,
      obstacles_block = true, forget_after = 2, period = 0.1, max_memories = 8, events = {}}, s[1])
    assert.same({name = "ears", type = "hearing", range = 300, tags = {"step", "bang"}, forget_after = 5, period = 0,
      max_memories = 16, events = {}}, s[2])
    -- a kind named in a sense is interned, as flock_with's are
    assert.same({"guard", "thief"}, w:kinds())
  end)

  it("replaces the sense of the same name, in its place", function()
    v:sense(EYES):sense{name = "ears", hearing = {}}
    v:sense{name = "eyes", sight = {range = 50}}
    local s = v:senses()
    assert.equal("eyes", s[1].name)
    assert.equal(50, s[1].range)
    assert.equal(2, #s)
  end)

  it("names the function, the option and what was expected", function()
    local cases = {
      {{name = "eyes", sight = {range = "far"}}, "bad argument #1 to 'sense' (option 'range': number expected, got string)"},
      {{name = "eyes", sight = {range = 0 / 0}}, "bad argument #1 to 'sense' (option 'range': finite number expected, got nan)"},
      {{name = "eyes", sight = {range = math.huge}},
        "bad argument #1 to 'sense' (option 'range': finite number expected, got inf)"},
      {{name = "eyes", sight = {range = -1}}, "bad argument #1 to 'sense' (option 'range': number > 0 expected, got -1)"},
      {{name = "eyes", sight = {fov = 400}}, "bad argument #1 to 'sense' (option 'fov': degrees in (0, 360] expected, got 400)"},
      {{name = "eyes", sight = {forget_after = -0.5}},
        "bad argument #1 to 'sense' (option 'forget_after': number >= 0 expected, got -0.5)"},
      {{name = "eyes", sight = {max_memories = 0}},
        "bad argument #1 to 'sense' (option 'max_memories': integer in [1, 1024] expected, got 0)"},
      {{name = "eyes", sight = {kinds = {1}}}, "bad argument #1 to 'sense' (option 'kinds': kind name (string) expected, got number)"},
      {{name = "eyes", sight = {kinds = "thief"}}, "bad argument #1 to 'sense' (option 'kinds': array of kind names expected, got string)"},
      {{name = "ears", hearing = {tags = {true}}}, "bad argument #1 to 'sense' (option 'tags': tag name (string) expected, got boolean)"},
      {{name = "eyes", sight = {walls_block = 1}}, "bad argument #1 to 'sense' (option 'walls_block': boolean expected, got 1)"},
      {{name = "eyes", sight = 5}, "bad argument #1 to 'sense' (option 'sight': table expected, got number)"},
      {{sight = {}}, "bad argument #1 to 'sense' (option 'name': sense name (string) expected, got nil)"},
      {{name = ""}, "bad argument #1 to 'sense' (option 'name': sense name of 1 to 31 bytes without NUL expected, got '')"},
      {{name = "eyes"}, "bad argument #1 to 'sense' (sight = {...} or hearing = {...} expected)"},
      {{name = "eyes", sight = {}, hearing = {}}, "bad argument #1 to 'sense' (sight = {...} or hearing = {...} expected, not both)"},
      {{name = "eyes", sight = {rnage = 3}}, "unknown option 'rnage' for sight (did you mean 'range'?)"},
      {{name = "ears", hearing = {fov = 90}}, "unknown option 'fov' for hearing (known: forget_after, max_memories, period, range, tags)"},
      {{name = "eyes", sigth = {}}, "unknown option 'sigth' for sense (did you mean 'sight'?)"},
    }
    for _, case in ipairs(cases) do assert.equal(case[2], error_of(function() v:sense(case[1]) end)) end
    assert.equal("bad argument #1 to 'sense' (table expected, got string)", error_of(function() v:sense("eyes") end))
    assert.equal("bad argument #1 to 'sense' (steer.Vehicle expected, got table: call it as a method, v:sense(...))",
      error_of(function() v.sense{name = "eyes", sight = {}} end))
  end)

  it("changes nothing when it fails: no sense, no kind, no tag interned", function()
    v:sense(EYES)
    assert.is_truthy(error_of(function() v:sense{name = "eyes", sight = {kinds = {"thief"}, range = "far"}} end))
    assert.is_truthy(error_of(function() v:sense{name = "ears", hearing = {tags = {"bang", 3}}} end))
    assert.same({"guard"}, w:kinds())
    assert.equal(1, #v:senses())
    assert.equal(100, v:senses()[1].range)
  end)

  it("refuses a removed vehicle, like every method", function()
    w:remove(v)
    assert.equal("vehicle #1 (guard) was removed", error_of(function() v:sense(EYES) end))
    assert.equal("vehicle #1 (guard) was removed", error_of(function() v:sensed("eyes") end))
    assert.equal("vehicle #1 (guard) was removed", error_of(function() v:memory("eyes") end))
    assert.equal("vehicle #1 (guard) was removed", error_of(function() v:wake_in(1) end))
  end)

  it("v:forget_sense removes a sense by name; an unknown name is an error with a hint", function()
    v:sense(EYES):sense{name = "ears", hearing = {}}
    assert.equal(v, v:forget_sense("eyes"))
    assert.equal("ears", v:senses()[1].name)
    assert.equal("bad argument #1 to 'forget_sense' (vehicle #1 (guard) has no sense 'eras' (did you mean 'ears'?))",
      error_of(function() v:forget_sense("eras") end))
    assert.equal("bad argument #1 to 'sensed' (vehicle #1 (guard) has no sense 'nose' (senses: ears))",
      error_of(function() v:sensed("nose") end))
    v:forget_sense("ears")
    assert.equal("bad argument #1 to 'memory' (vehicle #1 (guard) has no sense 'ears' (it has none))",
      error_of(function() v:memory("ears") end))
  end)
end)

describe("what a sense senses", function()
  it("v:sensed gives the closest vehicle sensed now and its distance, nil when none", function()
    local w, v = scene()
    v:sense(EYES)
    assert.is_nil(v:sensed("eyes"))
    local far = w:spawn{kind = "thief", x = 180, y = 100}
    local near = w:spawn{kind = "thief", x = 100, y = 160}
    w:spawn{kind = "thief", x = 300, y = 100} -- out of range
    w:step()
    local other, d = v:sensed("eyes")
    assert.equal(near, other)
    assert.near(60, d, 1e-9)
    w:remove(near)
    assert.equal(far, (v:sensed("eyes"))) -- the removed one is skipped until the next step
    w:step()
    other, d = v:sensed("eyes")
    assert.equal(far, other)
    assert.near(80, d, 1e-9)
  end)

  it("sight is a cone (fov in degrees) and walls and obstacles hide what is behind them", function()
    local w, v = scene()
    v:sense{name = "eyes", sight = {range = 200, fov = 90}}
    local ahead = w:spawn{kind = "thief", x = 180, y = 110}
    local behind = w:spawn{kind = "thief", x = 20, y = 100}
    w:step()
    assert.equal(ahead, (v:sensed("eyes")))
    w:wall{x1 = 150, y1 = 0, x2 = 150, y2 = 200}
    w:step()
    assert.is_nil(v:sensed("eyes"))
    assert.is_false(w:line_of_sight(v, ahead))
    assert.is_true(w:line_of_sight(v, behind))
    assert.is_true(w:line_of_sight(v, ahead, {walls = false}))
    assert.is_true(w:line_of_sight(100, 100, 140, 300))
  end)

  it("v:memory iterates the memories in creation order without a table per item", function()
    local w, v = scene()
    v:sense{name = "eyes", sight = {range = 100, fov = 360, forget_after = 10}}
    local a = w:spawn{kind = "thief", x = 150, y = 100, vx = 10}
    local b = w:spawn{kind = "thief", x = 100, y = 150}
    w:step()
    a:set_position(500, 500) -- out of sight: remembered where it was
    w:step(30)
    local seen = {}
    for other, x, y, vx, vy, age, now in v:memory("eyes") do
      seen[#seen + 1] = {other, x, y, vx, vy, age, now}
    end
    assert.equal(2, #seen)
    assert.equal(a, seen[1][1])
    assert.near(150, seen[1][2], 1)
    assert.near(100, seen[1][3], 1e-9)
    assert.is_true(seen[1][4] > 0)
    assert.near(30 / 60, seen[1][6], 1e-9)
    assert.is_false(seen[1][7])
    assert.equal(b, seen[2][1])
    assert.near(0, seen[2][6], 1e-9)
    assert.is_true(seen[2][7])
    -- loops over two senses interleaved, and an inner loop over the same sense
    v:sense{name = "eyes2", sight = {range = 100, fov = 360}}
    w:step()
    local pairs_seen = 0
    for o1 in v:memory("eyes") do
      for o2 in v:memory("eyes2") do
        for o3 in v:memory("eyes") do pairs_seen = pairs_seen + ((o1 and o2 and o3) and 1 or 0) end
      end
    end
    assert.equal(2 * 1 * 2, pairs_seen)
    -- no garbage: the iterator and its values are made without tables or closures (measured after
    -- a first round: LuaJIT's compiled traces are objects of its heap too)
    local function round()
      for _ = 1, 1000 do
        for _ in v:memory("eyes") do end
        local _ = v:sensed("eyes")
      end
    end
    round()
    collectgarbage("collect")
    collectgarbage("stop")
    local before = collectgarbage("count")
    round()
    round()
    local grown = collectgarbage("count") - before
    collectgarbage("restart")
    assert.is_true(grown < 1, ("v:memory and v:sensed allocated %.1f KB"):format(grown))
  end)
end)

describe("events", function()
  it("wake a brain without think once per change: sensed, lost, forgot (exact to the step)", function()
    local w, v = scene()
    local log = {}
    v:sense{name = "eyes", sight = {range = 100, fov = 360, forget_after = 0.51}}
    v.brain = logger(log)
    local thief = w:spawn{kind = "thief", x = 300, y = 100}
    frames(w, 3)
    assert.same({}, log)
    thief:set_position(150, 100)
    frames(w, 5) -- sensed in the first step, delivered by the next pass; never again while in sight
    assert.same({"guard1 sensed eyes thief2"}, log)
    thief:set_position(400, 100)
    local lost_at = w.step_count + 1
    frames(w, 2)
    assert.same({"guard1 sensed eyes thief2", "guard1 lost eyes thief2"}, log)
    -- forgotten at the end of the first step after which more than 0.51 s passed since it was last
    -- seen: 31 steps of 1/60 after the last step that saw it
    local forgot_step
    v.brain.forgot = function() forgot_step = w.step_count end
    v.brain = v.brain
    frames(w, 40)
    assert.equal(lost_at - 1 + 31, forgot_step)
  end)

  it("are delivered by vehicle id, then sense, then the other's id, whatever order they were made in", function()
    local w = steer.world{width = 1000, height = 1000, seed = 1}
    local log = {}
    local brain = logger(log)
    local g1 = w:spawn{kind = "guard", x = 100, y = 100, brain = brain}
    local g2 = w:spawn{kind = "guard", x = 120, y = 100, brain = brain}
    for _, g in ipairs{g2, g1} do
      g:sense{name = "eyes", sight = {range = 100, fov = 360, kinds = {"thief"}}}
      g:sense{name = "ears", hearing = {range = 500}}
      g:wake_in(1 / 60)
    end
    local t1 = w:spawn{kind = "thief", x = 700, y = 100}
    local t2 = w:spawn{kind = "thief", x = 700, y = 120}
    w:think()
    t2:set_position(110, 130)
    t1:set_position(110, 70)
    w:emit{x = 0, y = 0, radius = 1000, tag = "bang"}
    t1:emit{radius = 1000, tag = "step"}
    w:step()
    w:think()
    assert.same({
      -- (hearing remembers the vehicles it hears: thief3 is sensed by the ears too)
      "guard1 timer 1", "guard1 sensed eyes thief3", "guard1 sensed eyes thief4", "guard1 sensed ears thief3",
      "guard1 heard ears bang 0 0 nil", "guard1 heard ears step 110 70 thief3",
      "guard2 timer 1", "guard2 sensed eyes thief3", "guard2 sensed eyes thief4", "guard2 sensed ears thief3",
      "guard2 heard ears bang 0 0 nil", "guard2 heard ears step 110 70 thief3",
    }, log)
  end)

  it("fire timers exactly at the step: wake_in rounds up to whole steps, a new call replaces the old", function()
    local w, v = scene()
    local log = {}
    v.brain = logger(log)
    v:wake_in(0.5) -- 30 steps of 1/60
    frames(w, 40)
    assert.same({"guard1 timer 30"}, log)
    v:wake_in(0.01) -- under a step: the next one
    frames(w, 2)
    assert.same("guard1 timer 41", log[2])
    v:wake_in(1):wake_in(0.1)
    frames(w, 20)
    assert.same({"guard1 timer 30", "guard1 timer 41", "guard1 timer 48"}, log)
    v:wake_in(0.1):cancel_wake()
    frames(w, 20)
    assert.equal(3, #log)
    assert.equal("bad argument #1 to 'wake_in' (number >= 0 expected, got -1)", error_of(function() v:wake_in(-1) end))
    assert.equal("bad argument #1 to 'wake_in' (finite number expected, got nan)", error_of(function() v:wake_in(0 / 0) end))
  end)

  it("of several steps taken between two passes are all delivered, in step order", function()
    local w, v = scene()
    local log = {}
    v.brain = logger(log)
    v:sense{name = "ears", hearing = {}}
    w:think()
    w:emit{x = 1, y = 1, radius = 500, tag = "a"}
    w:step()
    w:emit{x = 2, y = 2, radius = 500, tag = "b"}
    w:step(3)
    w:think()
    assert.same({"guard1 heard ears a 1 1 nil", "guard1 heard ears b 2 2 nil"}, log)
  end)

  it("of a step are kept when a script changes a sense before the next pass", function()
    local w, v = scene()
    local log = {}
    v.brain = logger(log)
    v:sense(EYES)
    w:think()
    w:spawn{kind = "thief", x = 150, y = 100}
    w:step()
    v:sense{name = "eyes", sight = {range = 120, fov = 360}} -- (the core drops the vehicle's events)
    w:think()
    assert.same({"guard1 sensed eyes thief2"}, log)
  end)

  it("reach handlers whatever think_hz is, and a brain with both gets both", function()
    local w, v = scene{think_hz = 0}
    local log, thinks = {}, 0
    local brain = logger(log)
    brain.think = function() thinks = thinks + 1 end
    v.brain = brain
    v:wake_in(0.05)
    frames(w, 10)
    assert.same({"guard1 timer 3"}, log)
    assert.equal(0, thinks)
    w.think_hz = 60
    frames(w, 3)
    assert.equal(3, thinks)
  end)

  it("call a class instance's handlers as methods", function()
    local Guard = {}
    Guard.__index = Guard
    function Guard:timer(v) self.woken = v end
    local w, v = scene()
    local g = setmetatable({}, Guard)
    v.brain = g
    v:wake_in(0)
    frames(w, 2)
    assert.equal(v, g.woken)
  end)

  it("pause the vehicle of a handler that raises, as think does, until its brain is set again", function()
    local w, v = scene()
    local calls = 0
    v.brain = {timer = function(self_v)
      calls = calls + 1
      self_v:wake_in(0)
      error("boom")
    end}
    v:wake_in(0)
    local failures = {}
    w:step()
    assert.equal(1, w:think(function(who, msg) failures[#failures + 1] = {who, msg} end))
    assert.equal(v, failures[1][1])
    assert.matches("senses_spec%.lua:%d+: boom$", failures[1][2])
    assert.matches("boom$", v.brain_error)
    frames(w, 5)
    assert.equal(1, calls) -- paused: its next timer is dropped
    v.brain = v.brain
    v:wake_in(0)
    w:step()
    w:think(function() end)
    assert.equal(2, calls)
  end)

  it("give nil for another that was removed before its event was delivered", function()
    local w, v = scene()
    local log = {}
    v.brain = logger(log)
    v:sense{name = "eyes", sight = {range = 100, fov = 360}}
    local thief = w:spawn{kind = "thief", x = 150, y = 100}
    w:step()
    w:remove(thief)
    w:think()
    assert.same({"guard1 sensed eyes nil"}, log)
  end)
end)

describe("listening", function()
  local function events_of(v) return v:senses()[1].events end

  it("senses make the events the brain has handlers for: setting v.brain listens anew", function()
    local w, guard = scene()
    guard.brain = {sensed = function() end}
    guard:sense(EYES)
    assert.same({"sensed"}, events_of(guard))
    local log = {}
    guard.brain = logger(log)
    assert.same({"sensed", "lost", "forgot", "heard"}, events_of(guard))
    guard.brain = function() end -- (a function brain gets no events)
    assert.same({}, events_of(guard))
    guard.brain = nil
    assert.same({}, events_of(guard))
    -- a class instance's handlers count, found through its metatable
    local Class = {}
    Class.__index = Class
    function Class:lost() end
    guard.brain = setmetatable({}, Class)
    assert.same({"lost"}, events_of(guard))
    w:close()
  end)

  it("makes no event the brain would not handle: only its handlers' events reach it", function()
    local w, guard = scene()
    local log = {}
    local brain = logger(log)
    brain.lost, brain.forgot = nil, nil
    guard.brain = brain
    guard:sense{name = "eyes", sight = {range = 100, fov = 360, forget_after = 0}}
    local thief = w:spawn{kind = "thief", x = 150, y = 100}
    frames(w, 2)
    thief:set_position(900, 100)
    frames(w, 2)
    thief:set_position(150, 100)
    frames(w, 2)
    assert.same({"guard1 sensed eyes thief2", "guard1 sensed eyes thief2"}, log)
    w:close()
  end)

  it("v:listen chooses, v:listen() goes back to the brain's handlers, and so does setting v.brain", function()
    local w, guard = scene()
    local log = {}
    guard.brain = logger(log)
    assert.equal(guard, guard:sense(EYES):listen{"lost", "lost"})
    assert.same({"lost"}, events_of(guard))
    local thief = w:spawn{kind = "thief", x = 150, y = 100}
    frames(w, 2)
    thief:set_position(900, 100)
    frames(w, 2)
    assert.same({"guard1 lost eyes thief2"}, log)
    -- a sense added later makes what the vehicle listens to
    guard:sense{name = "ears", hearing = {}}
    assert.same({"lost"}, guard:senses()[2].events)
    assert.equal(guard, guard:listen())
    assert.same({"sensed", "lost", "forgot", "heard"}, events_of(guard))
    guard:listen{}
    assert.same({}, events_of(guard))
    guard.brain = logger(log)
    assert.same({"sensed", "lost", "forgot", "heard"}, events_of(guard))
    w:close()
  end)

  it("v:listen names what it expected", function()
    local w, guard = scene()
    guard:sense(EYES)
    assert.matches("bad argument #1 to 'listen' %(item 1: unknown sense event 'lots' %(did you mean 'lost'%?%)%)",
      error_of(function() guard:listen{"lots"} end))
    assert.matches("item 2: sense event name expected %('sensed', 'lost', 'forgot' or 'heard'%), got number",
      error_of(function() guard:listen{"sensed", 3} end))
    assert.matches("array of sense event names expected, got string", error_of(function() guard:listen("lost") end))
    assert.same({}, events_of(guard)) -- (unchanged)
    w:close()
  end)

  it("w:listen_to_brains() picks up handlers added to a brain since it was set", function()
    local w, guard = scene()
    local brain = {sensed = function() end}
    guard.brain = brain
    guard:sense(EYES)
    local other = w:spawn{kind = "guard", x = 500, y = 500}
    other:sense(EYES):listen{"heard"}
    brain.forgot = function() end
    assert.same({"sensed"}, events_of(guard))
    assert.equal(w, w:listen_to_brains())
    assert.same({"sensed", "forgot"}, events_of(guard))
    assert.same({}, events_of(other)) -- (v:listen's choice went: it has no brain)
    w:close()
  end)
end)

describe("brains with event handlers", function()
  it("are valid brains without think; a handler that is no function is refused", function()
    local _, v = scene()
    local B = {sensed = function() end}
    v.brain = B
    assert.equal(B, v.brain)
    assert.equal("bad value for field 'brain' (brain's event handler 'timer' must be a function, got string)",
      error_of(function() v.brain = {timer = "later"} end))
    assert.equal("bad value for field 'brain' (brain has no think function (it has 'Sensed': did you mean 'sensed'?))",
      error_of(function() v.brain = {Sensed = function() end} end))
    assert.equal(B, v.brain)
  end)
end)

describe("sounds", function()
  it("w:emit and v:emit return their receiver and check their options", function()
    local w, v = scene()
    assert.equal(w, w:emit{x = 1, y = 2, radius = 30, tag = "bang"})
    assert.equal(v, v:emit{tag = "step"})
    assert.equal(v, v:emit())
    assert.equal("bad argument #1 to 'emit' (option 'radius': number > 0 expected, got -1)",
      error_of(function() w:emit{x = 1, y = 2, radius = -1} end))
    assert.equal("bad argument #1 to 'emit' (option 'x': number expected, got nil)", error_of(function() w:emit{y = 2} end))
    assert.equal("bad argument #1 to 'emit' (option 'y': finite number expected, got nan)",
      error_of(function() w:emit{x = 1, y = 0 / 0} end))
    assert.equal("bad argument #1 to 'emit' (option 'tag': tag name (string) expected, got number)",
      error_of(function() v:emit{tag = 7} end))
    assert.equal("unknown option 'x' for emit (known: radius, tag)", error_of(function() v:emit{x = 3} end))
  end)

  it("a world holds at most 32 tags", function()
    local w = scene()
    for i = 1, 31 do w:emit{x = 0, y = 0, tag = "t" .. i} end -- "sound" was not interned: 31 + this one
    w:emit{x = 0, y = 0, tag = "t32"}
    assert.equal("bad argument #1 to 'emit' (option 'tag': too many sound tags (at most 32 per world))",
      error_of(function() w:emit{x = 0, y = 0, tag = "t33"} end))
  end)
end)

describe("w:line_of_sight", function()
  it("checks its points", function()
    local w = scene()
    assert.equal("bad argument #1 to 'line_of_sight' (finite number expected, got nan)",
      error_of(function() w:line_of_sight(0 / 0, 0, 1, 1) end))
    assert.equal("bad argument #3 to 'line_of_sight' (vehicle or x, y expected, got no value)",
      error_of(function() w:line_of_sight(0, 0) end))
    assert.equal("unknown option 'wall' for line_of_sight (did you mean 'walls'?)",
      error_of(function() w:line_of_sight(0, 0, 1, 1, {wall = false}) end))
  end)
end)
