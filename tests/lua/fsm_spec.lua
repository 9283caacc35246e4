-- fsm_spec.lua - the state-machine library of scripts/lib, with fake vehicles (no steer.so needed).
package.path = "scripts/lib/?.lua;" .. package.path
local fsm = require "fsm"

local function vehicle()
  local v = { data = {}, dead = false }
  function v.alive(self) return not self.dead end
  return v
end

-- A machine whose states log what runs into `log`.
local function logging_machine(log, extra, global_next)
  local function state(name, next_name)
    return {
      enter = function() log[#log + 1] = "enter " .. name end,
      think = function() log[#log + 1] = "think " .. name; return next_name and next_name() end,
      exit = function() log[#log + 1] = "exit " .. name end,
    }
  end
  local def = {
    initial = "idle",
    states = { idle = state("idle"), busy = state("busy") },
  }
  for k, x in pairs(extra or {}) do def[k] = x end
  if def.global then def.states[def.global] = state(def.global, global_next) end
  return fsm.machine(def)
end

describe("fsm", function()
  it("enters the initial state on the first think and sets v.state to its name", function()
    local log = {}
    local m = logging_machine(log)
    local v = vehicle()
    v.brain = m
    m.think(v, 0.1)
    assert.are.equal("idle", v.state)
    assert.are.same({ "enter idle", "think idle" }, log)
  end)

  it("changes state when think returns a name: exit, then enter, then no think until next time", function()
    local log = {}
    local m = logging_machine(log)
    m.states.idle.think = function() log[#log + 1] = "think idle"; return "busy" end
    local v = vehicle()
    v.brain = m
    m.think(v, 0.1)
    assert.are.equal("busy", v.state)
    assert.are.same({ "enter idle", "think idle", "exit idle", "enter busy" }, log)
    m.think(v, 0.1)
    assert.are.equal("think busy", log[#log])
  end)

  it("keeps each vehicle's clock and history in v.data.fsm, so a fresh copy of the library carries on", function()
    local m = logging_machine({})
    m.states.idle.think = function() return "busy" end
    local v = vehicle()
    v.brain = m
    m.think(v, 0.5) -- idle -> busy at clock 0.5
    m.think(v, 0.25)
    assert.are.equal(0.75, v.data.fsm.clock)
    -- what a reload of fsm.lua does: a new module instance, with nothing cached of this vehicle
    package.loaded.fsm = nil
    local fresh = require "fsm"
    package.loaded.fsm = fsm
    assert.are_not.equal(fsm, fresh)
    assert.are.equal(0.25, fresh.time_in_state(v))
    local again = fresh.machine({ initial = "idle", states = { idle = {}, busy = {} } })
    v.brain = again
    v.state = "busy"
    again.think(v, 0.5)
    assert.are.equal(1.25, v.data.fsm.clock)
    assert.are.equal(0.75, fresh.time_in_state(v))
    assert.are.equal(#fsm.history(v), #fresh.history(v))
  end)

  it("looks states up by name at every think, so replaced state code takes effect at once", function()
    local m = logging_machine({})
    local v = vehicle()
    v.brain = m
    m.think(v, 0.1)
    local seen
    m.states.idle.think = function() seen = "new code" end -- what a hot reload does to the table
    m.think(v, 0.1)
    assert.are.equal("new code", seen)
  end)

  it("restarts from the initial state when the current state's name no longer exists", function()
    local m = logging_machine({})
    local v = vehicle()
    v.brain = m
    fsm.change(v, "busy")
    m.states.busy = nil -- a reload deleted it
    m.think(v, 0.1)
    assert.are.equal("idle", v.state)
  end)

  it("runs the global state's think before the current state's, every think", function()
    local log = {}
    local m = logging_machine(log, { global = "always" })
    local v = vehicle()
    v.brain = m
    m.think(v, 0.1)
    m.think(v, 0.1)
    assert.are.same({ "enter idle", "think always", "think idle", "think always", "think idle" }, log)
  end)

  it("lets the global state force a transition (e.g. panic from any state)", function()
    local log = {}
    local m = logging_machine(log, { global = "always" }, function() return "busy" end)
    local v = vehicle()
    v.brain = m
    m.think(v, 0.1)
    assert.are.equal("busy", v.state)
    assert.are.same({ "enter idle", "think always", "exit idle", "enter busy", "think busy" }, log)
  end)

  it("refuses an unknown state name with a message listing the states", function()
    local m = logging_machine({})
    local v = vehicle()
    v.brain = m
    assert.has_error(function() fsm.change(v, "bsuy") end, "fsm.change: unknown state 'bsuy' (states: busy, idle)")
    assert.has_error(function() fsm.machine{ initial = "nope", states = {} } end,
      "fsm.machine (initial): unknown state 'nope' (states: )")
    assert.has_error(function() fsm.change(vehicle(), "idle") end,
      "fsm.change: the vehicle's brain is not an fsm machine")
  end)

  it("keeps a short history of transitions with the machine clock", function()
    local m = logging_machine({}, { history = 3 })
    local v = vehicle()
    v.brain = m
    m.think(v, 0.5) -- nil -> idle at 0.5
    for i = 1, 4 do
      m.think(v, 0.25)
      fsm.change(v, i % 2 == 1 and "busy" or "idle")
    end
    local h = fsm.history(v)
    assert.are.equal(3, #h)
    assert.are.same({ from = "busy", to = "idle", at = 1.0 }, h[1])
    assert.are.same({ from = "busy", to = "idle", at = 1.5 }, h[3])
    assert.are.equal(5, v.data.fsm.changes)
    assert.are.same({ "idle", "busy", "idle" }, v.data.history) -- names only, for the inspector
    m.think(v, 0.1)
    assert.is_true(math.abs(fsm.time_in_state(v) - 0.1) < 1e-12)
  end)

  it("fsm.start enters the initial state at once without thinking", function()
    local log = {}
    local m = logging_machine(log)
    local v = vehicle()
    fsm.start(v, m)
    assert.are.equal(m, v.brain)
    assert.are.equal("idle", v.state)
    assert.are.same({ "enter idle" }, log)
  end)

  describe("errors point at the caller's file:line, never at fsm.lua", function()
    local HERE = debug.getinfo(1, "S").short_src
    -- The message f raised and the line the caller wrote it on (both on the caller's one line).
    local function failure(f)
      local ok, err = pcall(f)
      assert.is_false(ok)
      return err
    end
    local function at(line, msg) return ("%s:%d: %s"):format(HERE, line, msg) end
    local function line() return debug.getinfo(2, "l").currentline end
    local function started()
      local v = vehicle()
      fsm.start(v, logging_machine({}))
      return v
    end
    local UNKNOWN = "unknown state 'chse' (states: busy, idle)"

    it("fsm.change with an unknown state, called directly or tail-called", function()
      local v = started()
      local l, err = line(), failure(function() fsm.change(v, "chse") end)
      assert.are.equal(at(l, "fsm.change: " .. UNKNOWN), err)
      local function go() return fsm.change(v, "chse") end -- a tail call: this frame leaves the stack
      l, err = line(), failure(function() go() end)
      assert.are.equal(at(l, "fsm.change: " .. UNKNOWN), err)
      assert.are.equal("idle", v.state) -- and nothing changed
    end)

    it("fsm.change and fsm.start with a bad vehicle or machine", function()
      local l, err = line(), failure(function() fsm.change(nil, "idle") end)
      assert.are.equal(at(l, "fsm.change: vehicle expected, got nil"), err)
      l, err = line(), failure(function() fsm.change(vehicle(), "idle") end)
      assert.are.equal(at(l, "fsm.change: the vehicle's brain is not an fsm machine"), err)
      local dead = started()
      dead.dead = true
      l, err = line(), failure(function() fsm.change(dead, "busy") end)
      assert.are.equal(at(l, "fsm.change: live vehicle expected, got " .. tostring(dead)), err)
      local v = vehicle()
      l, err = line(), failure(function() fsm.start(v, { states = {} }) end)
      assert.are.equal(at(l, "fsm.start: machine expected (made by fsm.machine), got table"), err)
      l, err = line(), failure(function() fsm.start(v, logging_machine({}), "chse") end)
      assert.are.equal(at(l, "fsm.start: " .. UNKNOWN), err)
      assert.is_nil(v.brain) -- a refused start changes nothing
      l, err = line(), failure(function() fsm.time_in_state(42) end)
      assert.are.equal(at(l, "fsm.time_in_state: vehicle expected, got number"), err)
      l, err = line(), failure(function() fsm.history() end)
      assert.are.equal(at(l, "fsm.history: vehicle expected, got nil"), err)
    end)

    it("fsm.machine and fsm.send argument errors", function()
      local l, err = line(), failure(function() fsm.machine{ initial = "nope", states = {} } end)
      assert.are.equal(at(l, "fsm.machine (initial): unknown state 'nope' (states: )"), err)
      l, err = line(), failure(function() fsm.machine{ inital = "idle", states = { idle = {}, run = {} } } end)
      assert.are.equal(at(l, "fsm.machine: 'initial' missing: the name of the state to start in expected"
        .. " (states: idle, run)"), err)
      l, err = line(), failure(function() fsm.machine("x") end)
      assert.are.equal(at(l, "fsm.machine: table expected, got string"), err)
      local v = started()
      l, err = line(), failure(function() fsm.send({ time = 0 }, v, "x", { delay = -1 }) end)
      assert.are.equal(at(l, "fsm.send: option 'delay' must be a number >= 0, got -1"), err)
      l, err = line(), failure(function() fsm.send(nil, v, "x") end)
      assert.are.equal(at(l, "fsm.send: world expected (with a time), got nil"), err)
      l, err = line(), failure(function() fsm.send({ time = 0 }, "v", "x") end)
      assert.are.equal(at(l, "fsm.send: vehicle expected, got string"), err)
      l, err = line(), failure(function() fsm.send({ time = 0 }, v, nil) end)
      assert.are.equal(at(l, "fsm.send: message name expected, got nil"), err)
    end)

    it("fsm.machine refuses a state handler misnamed so that it would never be called", function()
      local f = function() end
      local l, err = line(), failure(function() fsm.machine{ initial = "a", states = { a = { thinks = f } } } end)
      assert.are.equal(at(l, "fsm.machine: state 'a' has 'thinks', which the machine never calls (did you mean "
        .. "'think'?)"), err)
      for slip, meant in pairs{ Enter = "enter", on_enter = "enter", onExit = "exit", onMessage = "on_message",
        message = "on_message" } do
        err = failure(function() fsm.machine{ initial = "a", states = { a = { [slip] = f } } } end)
        assert.matches(("state 'a' has '%s', which the machine never calls (did you mean '%s'?)"):format(slip, meant),
          err, 1, true)
      end
      l, err = line(), failure(function() fsm.machine{ initial = "a", states = { a = { think = "run" } } } end)
      assert.are.equal(at(l, "fsm.machine: state 'a': 'think' must be a function, got string"), err)
      l, err = line(), failure(function() fsm.machine{ initial = "a", states = { a = {}, b = 5 } } end)
      assert.are.equal(at(l, "fsm.machine: state 'b' must be a table of handlers, got number"), err)
      -- the state's own helpers and data, and a slip beside the handler it means, are left alone
      local m = fsm.machine{ initial = "a", states = { a = { think = f, Think = f, emit = f, color = { 1, 2, 3 },
        exits = "the doors" } } }
      assert.is_function(m.think)
    end)

    it("a think that returns an unknown state is blamed where it is defined", function()
      local m = logging_machine({})
      local think = function() return "chse" end
      m.states.idle.think = think
      local v = vehicle()
      v.brain = m
      local err = failure(function() m.think(v, 0.1) end)
      local defined = debug.getinfo(think, "S").linedefined
      assert.are.equal(at(defined, "fsm: think of state 'idle' returned " .. UNKNOWN), err)
    end)

    it("a state's think that tail-calls fsm.change badly is blamed where it is defined", function()
      local m = logging_machine({})
      local think = function(v) return fsm.change(v, "chse") end
      m.states.idle.think = think
      local v = vehicle()
      v.brain = m
      local err = failure(function() m.think(v, 0.1) end)
      assert.are.equal(at(debug.getinfo(think, "S").linedefined, "fsm.change: " .. UNKNOWN), err)
    end)

    it("a handler the library runs that tail-calls fsm.change badly is blamed where it is defined", function()
      local m = logging_machine({})
      local enter = function(v) return fsm.change(v, "chse") end
      m.states.busy.enter = enter
      m.states.idle.think = function() return "busy" end
      local v = vehicle()
      v.brain = m
      local err = failure(function() m.think(v, 0.1) end)
      assert.are.equal(at(debug.getinfo(enter, "S").linedefined, "fsm.change: " .. UNKNOWN), err)
    end)
  end)

  describe("messages", function()
    local function receiver(got, handled_by_state)
      local m = fsm.machine{
        initial = "idle", global = "always",
        states = {
          idle = { on_message = function(_, msg)
            if handled_by_state then got[#got + 1] = "idle:" .. msg.name; return true end
          end },
          always = { on_message = function(_, msg) got[#got + 1] = "global:" .. msg.name; return true end },
        },
      }
      local v = vehicle()
      fsm.start(v, m)
      return v
    end

    it("delivers an undelayed message at once to the current state", function()
      local got = {}
      local v = receiver(got, true)
      local world = { time = 3 }
      local sender = vehicle()
      assert.is_true(fsm.send(world, v, "hello", { from = sender, data = 42 }))
      assert.are.same({ "idle:hello" }, got)
    end)

    it("falls back to the global state when the current state does not handle it", function()
      local got = {}
      local v = receiver(got, false)
      fsm.send({ time = 0 }, v, "hello")
      assert.are.same({ "global:hello" }, got)
    end)

    it("holds a delayed message until the world's clock reaches it, then delivers in due order", function()
      local got = {}
      local v = receiver(got, true)
      local world = { time = 10 }
      fsm.send(world, v, "late", { delay = 2 })
      fsm.send(world, v, "early", { delay = 1 })
      fsm.send(world, v, "early2", { delay = 1 })
      assert.are.same({}, got)
      assert.are.equal(3, fsm.pending(world))
      world.time = 10.5
      assert.are.equal(0, fsm.update(world))
      world.time = 11
      assert.are.equal(2, fsm.update(world))
      assert.are.same({ "idle:early", "idle:early2" }, got)
      world.time = 13
      assert.are.equal(1, fsm.update(world))
      assert.are.same({ "idle:early", "idle:early2", "idle:late" }, got)
      assert.are.equal(0, fsm.pending(world))
    end)

    it("passes name, sender, data and the send and due times", function()
      local seen
      local function remember(_, msg) seen = msg; return true end
      local m = fsm.machine{ initial = "s", states = { s = { on_message = remember } } }
      local v, from = vehicle(), vehicle()
      fsm.start(v, m)
      local world = { time = 1 }
      fsm.send(world, v, "ping", { from = from, data = { x = 1 }, delay = 0.5 })
      world.time = 2
      fsm.update(world)
      assert.are.equal("ping", seen.name)
      assert.are.equal(from, seen.from)
      assert.are.same({ x = 1 }, seen.data)
      assert.are.equal(1, seen.sent)
      assert.are.equal(1.5, seen.due)
    end)

    -- (docs/demos.md and fsm.lua's header list these keys: a new one goes there too)
    it("gives on_message the documented table, delayed or not: name, from, data, to, sent, due, seq", function()
      local seen = {}
      local m = fsm.machine{ initial = "s", states = { s = { on_message = function(_, msg)
        seen[#seen + 1] = msg
        return true
      end } } }
      local v, from = vehicle(), vehicle()
      fsm.start(v, m)
      local world = { time = 4 }
      fsm.send(world, v, "now", { from = from, data = "d" })
      fsm.send(world, v, "later", { delay = 1 })
      world.time = 5
      fsm.update(world)
      assert.are.equal(2, #seen)
      local function keys(t)
        local list = {}
        for k in pairs(t) do list[#list + 1] = k end
        table.sort(list)
        return list
      end
      assert.are.same({ "data", "due", "from", "name", "sent", "seq", "to" }, keys(seen[1]))
      assert.are.same({ "due", "name", "sent", "seq", "to" }, keys(seen[2])) -- from and data nil: not given
      assert.are.same({ "now", 4, 4 }, { seen[1].name, seen[1].sent, seen[1].due })
      assert.are.same({ "later", 4, 5 }, { seen[2].name, seen[2].sent, seen[2].due })
      assert.is_true(rawequal(v, seen[1].to) and rawequal(v, seen[2].to) and rawequal(from, seen[1].from))
      assert.are.equal(seen[1].seq + 1, seen[2].seq)
    end)

    it("drops a message to a vehicle removed before it was due", function()
      local got = {}
      local v = receiver(got, true)
      local world = { time = 0 }
      fsm.send(world, v, "x", { delay = 1 })
      v.dead = true
      world.time = 5
      assert.are.equal(0, fsm.update(world))
      assert.are.same({}, got)
      assert.are.equal(0, fsm.pending(world))
    end)

    it("keeps each world's queue apart", function()
      local got = {}
      local v = receiver(got, true)
      local a, b = { time = 0 }, { time = 0 }
      fsm.send(a, v, "a", { delay = 1 })
      fsm.send(b, v, "b", { delay = 1 })
      b.time = 1
      fsm.update(b)
      assert.are.same({ "idle:b" }, got)
      assert.are.equal(1, fsm.pending(a))
    end)

    it("refuses a negative or NaN delay", function()
      local v = receiver({}, true)
      assert.has_error(function() fsm.send({ time = 0 }, v, "x", { delay = -1 }) end,
        "fsm.send: option 'delay' must be a number >= 0, got -1")
      assert.has_error(function() fsm.send({ time = 0 }, v, "x", { delay = 0 / 0 }) end)
    end)
  end)

  describe("events", function()
    -- A fake vehicle with a world clock, as an event-only machine reads it.
    local function sensing_vehicle(t)
      local v = vehicle()
      v.world = { time = t or 0 }
      return v
    end
    local function guard_machine(log)
      return fsm.machine{ initial = "patrol", global = "any", states = {
        any = { on_heard = function(_, sense, sound) log[#log + 1] = "any heard " .. sense .. " " .. sound end },
        patrol = {
          enter = function() log[#log + 1] = "enter patrol" end,
          on_sensed = function(_, sense, other) log[#log + 1] = "patrol sensed " .. sense .. " " .. other; return "chase" end,
          on_timer = function() log[#log + 1] = "patrol timer" end,
        },
        chase = {
          enter = function() log[#log + 1] = "enter chase" end,
          on_lost = function(_, _, other) log[#log + 1] = "chase lost " .. other; return "search" end,
          on_heard = function(_, _, sound, x, y, from) log[#log + 1] = ("chase heard %s %g %g %s"):format(sound, x, y,
            tostring(from)) end,
        },
        search = {
          on_forgot = function() return "patrol" end,
          on_sensed = function() return "chase" end,
        },
      } }
    end

    it("gives a machine whose states handle events those handlers, and no think when none thinks", function()
      local m = guard_machine({})
      assert.is_nil(m.think)
      for _, name in ipairs{ "sensed", "lost", "forgot", "heard", "timer" } do assert.is_function(m[name]) end
      local only = fsm.machine{ initial = "a", states = { a = { on_timer = function() end } } }
      assert.is_function(only.timer)
      assert.is_nil(only.sensed)
      assert.is_nil(only.think)
      local both = fsm.machine{ initial = "a", states = { a = { on_lost = function() end, think = function() end } } }
      assert.is_function(both.think)
      assert.is_function(both.lost)
      -- a machine of old (no events) thinks, even when no state has a think: it enters at its first think
      assert.is_function(fsm.machine{ initial = "a", states = { a = {} } }.think)
    end)

    it("routes each event to the current state's handler, else the global state's, and follows the name returned", function()
      local log = {}
      local m = guard_machine(log)
      local v = sensing_vehicle(2)
      fsm.start(v, m)
      m.sensed(v, "eyes", "thief")
      assert.are.equal("chase", v.state)
      m.heard(v, "ears", "bang", 10, 20, "thief")
      m.lost(v, "eyes", "thief")
      assert.are.equal("search", v.state)
      m.heard(v, "ears", "step") -- search has none: the global state's
      m.timer(v)                 -- nobody handles it in search: nothing happens
      v.world.time = 7
      m.forgot(v, "eyes", "thief")
      assert.are.equal("patrol", v.state)
      m.timer(v)
      assert.are.same({ "enter patrol", "patrol sensed eyes thief", "enter chase", "chase heard bang 10 20 thief",
        "chase lost thief", "any heard ears step", "enter patrol", "patrol timer" }, log)
      -- the clock of a machine that never thinks is the world's time
      local h = fsm.history(v)
      assert.are.same({ from = "search", to = "patrol", at = 7 }, h[#h])
      assert.are.equal(2, h[1].at)
      assert.are.equal(0, fsm.time_in_state(v))
      v.world.time = 9.5
      assert.are.equal(2.5, fsm.time_in_state(v))
    end)

    it("has the senses make only the events the new state and the global state handle (v:listen)", function()
      local m = guard_machine({})
      local v = sensing_vehicle()
      local told = {}
      function v.listen(self, events) told[#told + 1] = table.concat(events, " ") return self end
      fsm.start(v, m)
      m.sensed(v, "eyes", "thief") -- patrol -> chase
      m.lost(v, "eyes", "thief")   -- chase -> search
      m.sensed(v, "eyes", "thief") -- search -> chase
      fsm.change(v, "chase")       -- the same again: nothing new to tell
      assert.are.same({ "sensed heard", "lost heard", "sensed forgot heard", "lost heard" }, told)
      -- a machine without event handlers tells nothing (its brain handles none: none are made)
      local thinker = fsm.machine{ initial = "a", states = { a = { think = function() end } } }
      local quiet = sensing_vehicle()
      function quiet.listen() error("told") end
      fsm.start(quiet, thinker)
      fsm.change(quiet, "a")
    end)

    it("enters the initial state at the first event when the machine was not started", function()
      local log = {}
      local m = guard_machine(log)
      local v = sensing_vehicle()
      v.brain = m
      m.sensed(v, "eyes", "x")
      assert.are.same({ "enter patrol", "patrol sensed eyes x", "enter chase" }, log)
    end)

    it("blames a handler that returns an unknown state where it is defined", function()
      local bad = function() return "chse" end
      local m = fsm.machine{ initial = "a", states = { a = { on_sensed = bad } } }
      local v = sensing_vehicle()
      fsm.start(v, m)
      local ok, err = pcall(m.sensed, v, "eyes", "x")
      assert.is_false(ok)
      assert.matches("fsm_spec%.lua:%d+: fsm: on_sensed of state 'a' returned unknown state 'chse' %(states: a%)$", err)
      assert.are.equal("a", v.state)
    end)

    it("knows the event handlers' names when checking a state for slips", function()
      local f = function() end
      for slip, meant in pairs{ sensed = "on_sensed", onLost = "on_lost", OnHeard = "on_heard",
        on_timers = "on_timer" } do
        local ok, err = pcall(fsm.machine, { initial = "a", states = { a = { [slip] = f } } })
        assert.is_false(ok)
        assert.matches(("has '%s', which the machine never calls (did you mean '%s'?)"):format(slip, meant), err, 1, true)
      end
    end)
  end)
end)
