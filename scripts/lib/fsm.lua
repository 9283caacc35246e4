-- SPDX-License-Identifier: MIT
-- fsm.lua - a small state machine for vehicle brains (Buckland's StateMachine, Lua style).
--
--   local fsm = require "fsm"
--   local Hunter = fsm.machine{ initial = "hunt", global = "always", states = {
--     always = { think = function(v, dt) ... end },
--     hunt   = { enter = function(v) v:pursue(...) end,
--                think = function(v, dt) if tired then return "rest" end end,
--                exit  = function(v) v:stop("pursue") end,
--                on_message = function(v, msg) ... return true end },
--     rest   = { ... },
--   }}
--   v.brain = Hunter          -- the runtime calls Hunter.think(v, dt) at the think rate
--
-- Why by name: a vehicle keeps only the NAME of its state (v.state, which overlays and the
-- inspector show). Every think looks the state table up by that name, so when hot reload replaces
-- the functions of `states.hunt`, the next think already runs the new code.
--
-- Per-vehicle bookkeeping lives in v.data.fsm (v.data survives reloads): the clock (simulated
-- seconds this machine has thought through), the transitions (from, to, at) and the number of
-- changes. v.data.history holds just the names of the last states entered, oldest first: that is
-- what the runtime's inspector shows.
--
-- Messages: fsm.send(world, to, name, {delay =, from =, data =}) delivers at once when there is no
-- delay, else when the world's clock (world.time) reaches it: the scene calls fsm.update(world)
-- from its update(world, dt). Due messages go out in (due time, send order) order, so runs are
-- deterministic. A message to a removed vehicle is dropped.
--
-- Events (a brain woken by its senses, docs/lua-api.md#senses): a state may declare on_sensed(v,
-- sense, other), on_lost(v, sense, other), on_forgot(v, sense, other), on_heard(v, sense, sound, x,
-- y, from) and on_timer(v). The machine gets the matching brain handlers (sensed, lost, forgot,
-- heard, timer) for the events some state handles, and routes each to the current state's
-- on_<event> (or, when that state has none, to the global state's). A handler may return a state
-- name to change to, as a think does. A machine whose states handle events but none thinks gets
-- no think at all: the runtime calls it only when something happened (start it with fsm.start,
-- which enters its initial state; otherwise its first event does). Its clock is then the world's
-- time (v.world.time): transitions are stamped with it and fsm.time_in_state reads it.
-- Entering a state also tells the vehicle's senses to make only the events that state (or the
-- global state) handles (v:listen): the step makes no event the current state would ignore. So a
-- state hears what happens from the first step after it is entered; a state entered by a handler
-- does not get that step's later events of another kind (a `lost` right after the `sensed` that
-- made a hunter pursue, say, when its wander state has no on_lost).
--
-- A state's on_message(v, msg) gets the message as a table; it returns true when it handled it
-- (else the global state's on_message gets it too):
--   msg.name   the name given to fsm.send (any value but nil; usually a string)
--   msg.from   opts.from: the sending vehicle, or nil when none was given
--   msg.data   opts.data: anything, or nil
--   msg.to     the receiving vehicle (the handler's v)
--   msg.sent   world.time when it was sent, s
--   msg.due    world.time it was due, s: sent + delay (sent when undelayed)
--   msg.seq    its place in the send order (a counter of the library, growing by 1 per send)
-- The table is the handler's to keep or change: the library drops it after the delivery.

local fsm = {}

fsm.HISTORY = 8 -- transitions remembered per vehicle unless the machine says otherwise

-- Every think needs the vehicle's bookkeeping, and reading v.data is a call into C: the books are
-- also kept here by handle (a handle is the same userdata for the vehicle's whole life). Weak keys:
-- a removed vehicle's book goes with its handle. A reload of this file starts an empty cache that
-- refills from v.data.fsm, so the clock and history survive it.
local books = setmetatable({}, { __mode = "k" })
local data_of = setmetatable({}, { __mode = "k" }) -- vehicle -> the v.data its book was found in
local world_of = setmetatable({}, { __mode = "k" }) -- vehicle -> v.world (the same for its whole life)

-- A state's event handler -> the brain handler the runtime calls for that event (docs/lua-api.md).
local EVENTS = { on_sensed = "sensed", on_lost = "lost", on_forgot = "forgot", on_heard = "heard",
  on_timer = "timer" }
local EVENT_ORDER = { "on_sensed", "on_lost", "on_forgot", "on_heard", "on_timer" }

local function bookkeeping(v)
  local data = v.data
  local book = data.fsm
  if not book then
    book = { clock = 0, changes = 0, history = {} }
    data.fsm = book
  end
  books[v] = book
  data_of[v] = data
  return book
end

local function state_names(states)
  local names = {}
  for name in pairs(states) do names[#names + 1] = tostring(name) end
  table.sort(names) -- pairs order is shuffled per run; the message must not be
  return table.concat(names, ", ")
end

---------------------------------------------------------------------------------------------------
-- Errors blame the user's code, never this file: a misuse is reported at the line that called into
-- the library, however deep inside it the mistake is found (fsm.start -> change) and even when that
-- line tail-called it (`return fsm.change(v, "chase")` from a function the scene called). When the
-- user's line is gone from the stack (a state's think returned a bad name, or a handler the library
-- called tail-called back into it), the message points at that user function's definition.

local SOURCE = debug.getinfo(1, "S").source
local running -- the user's handler (think, enter, exit, on_message) the library is calling now

local function defined_at(fn)
  local info = type(fn) == "function" and debug.getinfo(fn, "S")
  if info and info.what == "Lua" then return ("%s:%d: "):format(info.short_src, info.linedefined) end
  return ""
end

local call, think_in
local thinks = setmetatable({}, { __mode = "k" }) -- every machine's think (make_think): frames of ours

-- Raises msg at the first Lua function up the stack that is not this library's (`where`, a
-- "file:line: " prefix, instead when given).
local function fail(msg, where)
  if where then error(where .. msg, 0) end
  local level = 2 -- error() and debug.getinfo count alike from here: 1 = fail, 2 = its caller
  while true do
    local info = debug.getinfo(level, "Sf")
    -- reaching call() first: the handler it runs tail-called into the library and left the stack
    if not info or info.func == call or info.func == think_in or thinks[info.func] then
      error(defined_at(running) .. msg, 0)
    end
    if info.what ~= "C" and info.source ~= SOURCE then error(msg, level) end
    level = level + 1
  end
end

-- Calls a user handler (enter, exit, on_message: at most two arguments; events: up to six),
-- remembering it for fail().
function call(handler, a, b, c, d, e, f)
  local outer = running
  running = handler
  local result = handler(a, b, c, d, e, f)
  running = outer
  return result
end

local function lookup(machine, name, caller)
  local state = machine.states[name]
  if type(state) ~= "table" then
    fail(("%s: unknown state '%s' (states: %s)"):format(caller, tostring(name), state_names(machine.states)))
  end
  return state
end

-- `live`: also refuse a removed vehicle here (its v.data would fail inside this file). The hot
-- readers (fsm.time_in_state runs at every think) only check the type.
local function check_vehicle(v, caller, live)
  local t = type(v)
  if t ~= "table" and t ~= "userdata" then fail(("%s: vehicle expected, got %s"):format(caller, t)) end
  if live and type(v.alive) == "function" and not v:alive() then
    fail(("%s: live vehicle expected, got %s"):format(caller, tostring(v)))
  end
end

-- A machine thinks, or handles events, or both (fsm.machine gives it what its states need). Every
-- transition asks: the machines found so are remembered (a machine stays one), so that the answer
-- costs a table read rather than a call of type() per handler.
local machines = setmetatable({}, { __mode = "k" })
local function is_machine(m)
  if machines[m] then return true end
  if type(m) ~= "table" or type(m.states) ~= "table" then return false end
  local yes = type(m.think) == "function" or type(m.sensed) == "function" or type(m.lost) == "function"
    or type(m.forgot) == "function" or type(m.heard) == "function" or type(m.timer) == "function"
  if yes then machines[m] = true end
  return yes
end

-- What a vehicle listens to in a state (v:listen): the sense events that state or the global state
-- handles, as the list v:listen takes, by bits (1 sensed, 2 lost, 4 forgot, 8 heard).
local LISTENS, EVENT_NAMES = {}, { "sensed", "lost", "forgot", "heard" }
for bits = 0, 15 do
  local list = {}
  for i, name in ipairs(EVENT_NAMES) do
    if math.floor(bits / 2 ^ (i - 1)) % 2 == 1 then list[#list + 1] = name end -- (no bit ops: LuaJIT too)
  end
  LISTENS[bits] = list
end

-- Tells the vehicle's senses to make only the events its new state (or the global state) handles:
-- the others would reach a state that ignores them. Only for a machine that handles events at all
-- (its brain handlers say which) and a vehicle that listens (a steer vehicle, not a test's table).
local listened = setmetatable({}, { __mode = "k" }) -- vehicle -> the bits it was told last
local listen_of_class = setmetatable({}, { __mode = "k" }) -- a vehicle metatable -> its listen method

local function listen(v, machine, state)
  if not (machine.sensed or machine.lost or machine.forgot or machine.heard) then return end
  local bits = (state.on_sensed and 1 or 0) + (state.on_lost and 2 or 0) + (state.on_forgot and 4 or 0)
    + (state.on_heard and 8 or 0)
  local g = machine.global ~= nil and machine.states[machine.global] or nil
  if g then
    bits = ((state.on_sensed or g.on_sensed) and 1 or 0) + ((state.on_lost or g.on_lost) and 2 or 0)
      + ((state.on_forgot or g.on_forgot) and 4 or 0) + ((state.on_heard or g.on_heard) and 8 or 0)
  end
  if listened[v] == bits then return end
  -- v.listen is the same function for every vehicle of a class: found once per metatable (each
  -- read of a vehicle field is a call into C)
  local mt = getmetatable(v)
  local set
  if mt ~= nil then
    set = listen_of_class[mt]
    if set == nil then
      set = v.listen or false
      listen_of_class[mt] = set
    end
  else
    set = v.listen
  end
  if set then
    set(v, LISTENS[bits])
    listened[v] = bits
  end
end

local function push_capped(list, item, keep)
  local n = #list + 1
  list[n] = item
  if n > keep then -- the oldest go (moved down here: table.remove is a call into C per item)
    local drop = n - keep
    for i = 1, keep do list[i] = list[i + drop] end
    for i = keep + 1, n do list[i] = nil end
  end
end

-- Appends the transition (from, to, at) to a history list capped at `keep` entries. Once the list
-- is full, the oldest entry's table is the new one (filled anew): a transition allocates nothing,
-- which in a large world costs the collector less than the table would (a tenth of the Lua time of
-- bench-senses' brains).
local function push_transition(list, from, to, at, keep)
  local n = #list
  if keep < 1 then
    for i = 1, n do list[i] = nil end
    return
  end
  local entry = n >= keep and list[1] or nil
  if entry then
    local drop = n - keep + 1
    for i = 1, keep - 1 do list[i] = list[i + drop] end
    for i = keep, n do list[i] = nil end
    n = keep - 1
    entry.from, entry.to, entry.at = from, to, at
  else
    entry = { from = from, to = to, at = at }
  end
  list[n + 1] = entry
end

local function remember(machine, v, book, from, to)
  local keep = machine.history or fsm.HISTORY
  push_transition(book.history, from, to, book.clock, keep)
  local data = data_of[v] or v.data -- (v.data is a call into C)
  local names = data.history
  if type(names) ~= "table" then
    names = {}
    data.history = names
  end
  push_capped(names, to, keep)
  book.changes = book.changes + 1
end

-- The transition itself, the machine and the state `to` (named `name`) known good: the current
-- state's exit runs, then `to`'s enter.
local function enter_state(v, machine, name, to)
  local book = books[v] or bookkeeping(v)
  if machine.think == nil then -- an event-only machine: its clock is the world's
    local w = world_of[v]
    if w == nil then
      w = v.world
      world_of[v] = w
    end
    if w then book.clock = w.time end
  end
  local from_name = v.state
  local from = from_name ~= nil and machine.states[from_name] or nil
  if from and from.exit then call(from.exit, v) end
  v.state = name
  remember(machine, v, book, from_name, name)
  listen(v, machine, to) -- (before enter: a change enter makes listens last)
  if to.enter then call(to.enter, v) end
end

-- Leaves the current state (its exit runs) and enters `name` (its enter runs). `machine`: v.brain,
-- when the caller has it at hand (each read of a vehicle field is a call into C).
local function change(v, name, machine)
  machine = machine or v.brain
  if not is_machine(machine) then fail("fsm.change: the vehicle's brain is not an fsm machine") end
  enter_state(v, machine, name, lookup(machine, name, "fsm.change"))
end

-- Leaves the current state (its exit runs) and enters `name` (its enter runs). Entering the state
-- it is already in runs exit and enter again: a deliberate restart. Usable from anywhere (a
-- state's think, a message handler, the scene), as long as v.brain is a machine.
function fsm.change(v, name)
  check_vehicle(v, "fsm.change", true)
  change(v, name)
end

-- Follows the transition a think (or the handler `key`) returned (`next_name`, not the state the
-- vehicle is in).
local function follow(v, state, state_name, next_name, key)
  key = key or "think"
  local machine = v.brain -- (read again: the handler may have set another)
  local to
  if machines[machine] then
    to = machine.states[next_name]
  else
    to = type(machine) == "table" and type(machine.states) == "table" and machine.states[next_name]
  end
  if type(to) ~= "table" then -- blame the function that returned it
    local states = type(machine) == "table" and type(machine.states) == "table" and machine.states or {}
    fail(("fsm: %s of state '%s' returned unknown state '%s' (states: %s)"):format(key, tostring(state_name),
      tostring(next_name), state_names(states)), defined_at(state[key]))
  end
  if not is_machine(machine) then fail("fsm.change: the vehicle's brain is not an fsm machine") end
  enter_state(v, machine, next_name, to)
end

-- Runs the global state's think and follows the transition it returns; returns the name of the
-- state the vehicle is in afterwards. `current` is that name before: v.state is read again only
-- when the think changed state itself (fsm.change bumps book.changes), since every read of a
-- vehicle field is a call into C and this runs at every think of every vehicle.
function think_in(v, dt, state, state_name, current, book)
  local changes = book.changes
  local outer = running
  running = state.think
  local next_name = state.think(v, dt)
  running = outer
  if book.changes ~= changes then current = v.state end
  if next_name ~= nil and next_name ~= current then
    follow(v, state, state_name, next_name)
    current = next_name
  end
  return current
end

-- The whole machine in one call: the runtime calls machine.think(v, dt), which is this function
-- bound to its machine (fsm.machine): one Lua call less per think than a wrapper would cost. The
-- current state's think is run in line (think_in's steps, without its call), as it runs at every
-- think of every vehicle.
local function make_think(machine)
  local function think(v, dt)
    running = nil -- a fresh call from outside: nothing of ours runs yet
    local book = books[v] or bookkeeping(v)
    book.clock = book.clock + dt
    local states = machine.states
    local current = v.state
    local state = current ~= nil and states[current]
    if not state then
      -- first think, or the state was deleted by a reload: start over from the initial state
      change(v, machine.initial)
      current = v.state
      state = states[current]
    end
    if machine.global then
      local global = lookup(machine, machine.global, "fsm global state")
      if global.think then
        current = think_in(v, dt, global, machine.global, current, book)
        state = states[current]
      end
    end
    local handler = state.think
    if handler then
      local changes = book.changes
      running = handler
      local next_name = handler(v, dt)
      running = nil
      if next_name ~= nil then
        local now = book.changes ~= changes and v.state or current
        if next_name ~= now then follow(v, state, current, next_name) end
      end
    end
  end
  thinks[think] = true
  return think
end

-- An event's handler for the machine (EVENTS): routes it to the current state's `on` (the global
-- state's when the current one has none, as messages go) and follows the state name it returns.
local function make_event(machine, on)
  local function handle(v, a, b, c, d, e)
    running = nil -- a fresh call from outside
    local states = machine.states
    local current = v.state
    local state = current ~= nil and states[current]
    if not state then -- never started (fsm.start), or the state was deleted by a reload
      change(v, machine.initial, machine)
      current = v.state
      state = states[current]
    end
    local handler, owner, owner_name = state[on], state, current
    if handler == nil and machine.global ~= nil then
      owner_name = machine.global
      owner = lookup(machine, owner_name, "fsm global state")
      handler = owner[on]
    end
    if handler == nil then return end -- (most events, in a busy world: nothing else is read)
    local book = books[v] or bookkeeping(v)
    local changes = book.changes
    running = handler
    local next_name = handler(v, a, b, c, d, e)
    running = nil
    if next_name ~= nil then
      local now = book.changes ~= changes and v.state or current
      if next_name ~= now then follow(v, owner, owner_name, next_name, on) end
    end
  end
  thinks[handle] = true
  return handle
end

-- What a state may define; a function named like one of them but not quite (`thinks`, `Enter`,
-- `on_enter`, `onMessage`) is a slip the machine would never call, and the state would silently do
-- nothing. Only such near-exact forms count: a helper function of another name is the scene's own.
local HANDLERS = { "enter", "think", "exit", "on_message", "on_sensed", "on_lost", "on_forgot", "on_heard", "on_timer" }

local function handler_meant(key)
  local folded = key:lower():gsub("_", "")
  for _, name in ipairs(HANDLERS) do
    local h = name:gsub("_", "")
    if folded == h or folded == h .. "s" or folded == "on" .. h or "on" .. folded == h then return name end
  end
end

local function check_states(states)
  local keys = {}
  for key in pairs(states) do keys[#keys + 1] = key end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end) -- the same message whatever pairs' order
  for _, key in ipairs(keys) do
    local state, name = states[key], tostring(key)
    if type(state) ~= "table" then
      fail(("fsm.machine: state '%s' must be a table of handlers, got %s"):format(name, type(state)))
    end
    for _, h in ipairs(HANDLERS) do
      if state[h] ~= nil and type(state[h]) ~= "function" then
        fail(("fsm.machine: state '%s': '%s' must be a function, got %s"):format(name, h, type(state[h])))
      end
    end
    local funcs = {}
    for k, value in pairs(state) do
      if type(k) == "string" and type(value) == "function" then funcs[#funcs + 1] = k end
    end
    table.sort(funcs)
    for _, k in ipairs(funcs) do
      local meant = handler_meant(k)
      if meant and meant ~= k and state[meant] == nil then
        fail(("fsm.machine: state '%s' has '%s', which the machine never calls (did you mean '%s'?)"):format(
          name, k, meant))
      end
    end
  end
end

-- Makes a machine: `def.states` (name -> state table), `def.initial` (a name), optional
-- `def.global` (a name of a state whose think runs before the current state's on every think, and
-- whose on_message sees what the current state did not handle) and `def.history` (entries kept).
-- The returned table is the brain: assign it to v.brain. Extra keys of def are kept (config).
function fsm.machine(def)
  if type(def) ~= "table" then fail("fsm.machine: table expected, got " .. type(def)) end
  if type(def.states) ~= "table" then fail("fsm.machine: 'states' must be a table of states") end
  check_states(def.states)
  -- Left out (or misspelt, which leaves it nil too), it would read as a state named 'nil'.
  if def.initial == nil then
    fail(("fsm.machine: 'initial' missing: the name of the state to start in expected (states: %s)"):format(
      state_names(def.states)))
  end
  lookup(def, def.initial, "fsm.machine (initial)")
  if def.global ~= nil then lookup(def, def.global, "fsm.machine (global)") end
  local machine = def
  -- What the states need: think when one thinks (or none handles an event: a machine of old,
  -- entered at its first think), and each event's handler when a state handles that event.
  local thinking, handles = false, {}
  for _, state in pairs(def.states) do
    if state.think then thinking = true end
    for on in pairs(EVENTS) do
      if state[on] then handles[on] = true end
    end
  end
  if thinking or next(handles) == nil then machine.think = make_think(machine) end
  for _, on in ipairs(EVENT_ORDER) do
    if handles[on] then machine[EVENTS[on]] = make_event(machine, on) end
  end
  return machine
end

-- Starts a vehicle's machine now (instead of at its first think): sets v.brain and enters the
-- initial state (or `name`).
function fsm.start(v, machine, name)
  check_vehicle(v, "fsm.start", true)
  if not is_machine(machine) then fail("fsm.start: machine expected (made by fsm.machine), got " .. type(machine)) end
  local state = name or machine.initial
  lookup(machine, state, "fsm.start") -- before v.brain changes: a bad call changes nothing
  v.brain = machine -- (its senses listen to the machine's handlers: the state narrows them)
  listened[v] = nil
  change(v, state)
end

--- The transition history of v, oldest first: array of {from =, to =, at = machine clock}. Read it
--- as it is: once the history is full, the oldest entry's table is reused for the newest.
function fsm.history(v)
  check_vehicle(v, "fsm.history")
  local book = books[v] or v.data.fsm
  return book and book.history or {}
end

--- Seconds (machine clock) since v entered its current state.
function fsm.time_in_state(v)
  local book = books[v]
  if not book then
    check_vehicle(v, "fsm.time_in_state")
    book = v.data.fsm
    if not book then return 0 end
  end
  local last = book.history[#book.history]
  local brain = v.brain
  if type(brain) == "table" and brain.think == nil and last then -- an event-only machine: the world's clock
    local w = v.world
    if w then return w.time - last.at end
  end
  return last and (book.clock - last.at) or book.clock
end

---------------------------------------------------------------------------------------------------
-- Messages

local pending = setmetatable({}, { __mode = "k" }) -- world -> array sorted by (due, seq)
local sequence = 0

local function deliver(to, msg)
  if not to:alive() then return false end
  local machine = to.brain
  if type(machine) ~= "table" or type(machine.states) ~= "table" then return false end
  local state = to.state ~= nil and machine.states[to.state] or nil
  if state and state.on_message and call(state.on_message, to, msg) then return true end
  if machine.global then
    local global = machine.states[machine.global]
    if global and global.on_message and call(global.on_message, to, msg) then return true end
  end
  return false
end

-- Sends message `name` to vehicle `to`. opts: delay (s of world time, default 0), from (a
-- vehicle), data (anything). Without a delay it is delivered now and the handler's verdict is
-- returned (true = handled); with one it waits for fsm.update(world) and true is returned.
function fsm.send(world, to, name, opts)
  local now = (type(world) == "table" or type(world) == "userdata") and world.time
  if type(now) ~= "number" then fail("fsm.send: world expected (with a time), got " .. type(world)) end
  local t = type(to)
  if (t ~= "table" and t ~= "userdata") or to.alive == nil then fail("fsm.send: vehicle expected, got " .. t) end
  if name == nil then fail("fsm.send: message name expected, got nil") end
  if opts ~= nil and type(opts) ~= "table" then fail("fsm.send: options table expected, got " .. type(opts)) end
  opts = opts or {}
  local delay = opts.delay or 0
  if type(delay) ~= "number" or delay ~= delay or delay < 0 then
    fail("fsm.send: option 'delay' must be a number >= 0, got " .. tostring(delay))
  end
  sequence = sequence + 1
  local msg = { name = name, from = opts.from, data = opts.data, to = to, sent = now, due = now + delay,
    seq = sequence }
  if delay == 0 then return deliver(to, msg) end
  local queue = pending[world]
  if not queue then queue = {}; pending[world] = queue end
  -- insert after every message due no later (binary search): equal due times keep send order
  local lo, hi = 1, #queue + 1
  while lo < hi do
    local mid = math.floor((lo + hi) / 2) -- not //: LuaJIT (LÖVE) parses Lua 5.1
    if queue[mid].due <= msg.due then lo = mid + 1 else hi = mid end
  end
  table.insert(queue, lo, msg)
  return true
end

-- Delivers every delayed message whose time has come (world.time >= due), in order. Returns how
-- many were delivered (dropped ones, to removed vehicles, are not counted).
function fsm.update(world)
  local queue = pending[world]
  if not queue or #queue == 0 then return 0 end
  local now = world.time
  local due = 0
  while due < #queue and queue[due + 1].due <= now do due = due + 1 end
  if due == 0 then return 0 end
  local batch = table.move(queue, 1, due, 1, {})
  table.move(queue, due + 1, #queue + due, 1) -- shift the rest down (the tail copies nils)
  local delivered = 0
  for i = 1, due do
    local msg = batch[i]
    if msg.to:alive() then
      delivered = delivered + 1
      deliver(msg.to, msg)
    end
  end
  return delivered
end

--- Number of delayed messages still waiting in world.
function fsm.pending(world)
  local queue = pending[world]
  return queue and #queue or 0
end

return fsm
