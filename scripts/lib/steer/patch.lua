-- SPDX-License-Identifier: MIT
-- steer.patch - what a hot reload does with the values a file's new run made: the one set of rules
-- behind the `steer` program's reloads and `steer.hot` (Lua 5.1 (LuaJIT) to 5.4).
--
-- A file that runs again makes new tables and functions. Vehicles, other modules and the scene's
-- own callbacks still hold the old ones, so the new run's values are matched with the old by
-- *where the file keeps them*: the same global name, the same key of a matched table, the same
-- name of a file-level local its functions use (an upvalue), a matched table's metatable. Then:
--  * a matched table stays the one everybody holds: the new run's keys are copied into the old
--    table (keys the new run no longer has stay) and the new run's references to the new table
--    are pointed at the old one, so a brain table, an fsm machine and its states, a class and the
--    metatable its instances share all run the new code from their next call;
--  * a function cannot be changed in place: a vehicle whose brain is an old function of the file
--    gets the new function kept at the same place;
--  * everything else is the new run's: `score = 0` at a file's top level resets it, as it reads;
--    but a file-level local the new run leaves nil (`local hunter`, set in load) keeps its value,
--    as a global the new run does not assign does.
-- Values matched are never looked into when both runs hold the same one (a library such as fsm, a
-- table the file keeps with `X = X or {}`). A brain the new run has no place for (a table made by
-- a function the reload did not call again, one per vehicle) keeps its old code: `stale` counts
-- those vehicles by kind so that the reload can say so.
--
-- Every write is logged, so that `undo` puts back exactly what was there when the caller's next
-- step (the scene's reload(world)) fails.
local patch = {}

local getupvalue, setupvalue = debug.getupvalue, debug.setupvalue
local getmeta, setmeta = debug.getmetatable, debug.setmetatable
local getinfo = debug.getinfo

-- The keys of t whose values are walked (tables and functions: the values that can hold code), in
-- an order that does not depend on the string hash seed (which changes between runs): numbers and
-- booleans in `next` order, then strings sorted. Two runs of a file meet the same values in the same
-- order, so their first places are the same.
local NONE = {}

local function keys_of(t)
  local plain, strings -- (made only when needed: most data tables hold neither)
  for k, v in next, t do
    local vt = type(v)
    if vt == "table" or vt == "function" then
      local kt = type(k)
      if kt == "string" then
        strings = strings or {}
        strings[#strings + 1] = k
      elseif kt == "number" or kt == "boolean" then
        plain = plain or {}
        plain[#plain + 1] = k
      end
    end
  end
  if not strings then return plain or NONE end
  if #strings > 1 then table.sort(strings) end
  if not plain then return strings end
  for i = 1, #strings do plain[#plain + 1] = strings[i] end
  return plain
end

-- The session of one apply: ctx.source (the file's chunk source, "@path"), ctx.skip (values never
-- walked: other modules, _G), ctx.old_of (new table or function -> the old one at its place),
-- ctx.new_of (old function -> new), ctx.tables / ctx.funcs (new ones met, in order), ctx.met.
local function own(ctx, f)
  local info = getinfo(f, "S")
  return info ~= nil and (info.source == ctx.source or ctx.sources[info.source] == true)
end

-- Walks the new run's values from (old, new) pairs found at the same places, depth first, with a
-- stack of its own rather than recursion (a long linked structure must not overflow the C stack).
-- `todo` holds pairs as flat old, new entries (either may be nil), n of them; a pair's children are
-- pushed in reverse so that they are met in keys_of order. Returns the new n.
local function visit(ctx, old, new, todo, n)
  local tn = type(new)
  if tn ~= "table" and tn ~= "function" then return n end
  if tn == "function" then ctx.fresh[new] = true end
  if ctx.skip[new] or new == old then return n end -- a library, or a value both runs hold
  if ctx.old_of[new] == nil and old ~= nil and type(old) == tn and not ctx.skip[old] and not ctx.claimed[old] then
    ctx.old_of[new] = old
    ctx.claimed[old] = true
    if tn == "function" then ctx.new_of[old] = new end
  end
  if ctx.met[new] then return n end
  ctx.met[new] = true
  local matched = ctx.old_of[new]
  if tn == "function" then
    if not own(ctx, new) then return n end
    ctx.funcs[#ctx.funcs + 1] = new
    -- its upvalues (file-level locals), matched by name with the old function's
    local olds = {}
    if type(matched) == "function" and own(ctx, matched) then
      for i = 1, 255 do
        local name, value = getupvalue(matched, i)
        if name == nil then break end
        olds[name] = value
      end
    end
    local count = 0
    while getupvalue(new, count + 1) ~= nil do count = count + 1 end
    for i = count, 1, -1 do
      local name, value = getupvalue(new, i)
      if name ~= "_ENV" then
        todo[n + 1], todo[n + 2] = olds[name], value
        n = n + 2
        -- a file-level local the new run left nil (`local hunter`, set by load, which does not run
        -- again) keeps the old run's value, as a global the chunk does not assign does
        if value == nil and olds[name] ~= nil then ctx.carry[#ctx.carry + 1] = { new, i, olds[name] } end
      end
    end
    return n
  end
  ctx.tables[#ctx.tables + 1] = new
  local oldt = type(matched) == "table" and matched or nil
  local mt = getmeta(new)
  if mt ~= nil then
    todo[n + 1], todo[n + 2] = oldt and getmeta(oldt), mt
    n = n + 2
  end
  local keys = keys_of(new)
  for i = #keys, 1, -1 do
    local k = keys[i]
    todo[n + 1], todo[n + 2] = oldt and rawget(oldt, k), rawget(new, k)
    n = n + 2
  end
  return n
end

local function walk(ctx, old, new)
  local todo = { old, new }
  local n = 2
  while n > 0 do
    local o, v = todo[n - 1], todo[n]
    todo[n - 1], todo[n] = nil, nil
    n = visit(ctx, o, v, todo, n - 2)
  end
end

local function log(ctx, kind, a, b, c) ctx.undo[#ctx.undo + 1] = { kind, a, b, c } end

local function set(ctx, t, k, v)
  local was = rawget(t, k)
  if was == v then return end
  log(ctx, "set", t, k, was)
  rawset(t, k, v)
end

local function resolve(ctx, v)
  local old = ctx.old_of[v]
  if old ~= nil and type(old) == "table" then return old end
  return v
end

-- Points every reference the new run holds to a matched new table at the old table, then copies
-- the new run's contents into the old tables.
local function settle(ctx)
  for _, t in ipairs(ctx.tables) do
    local keys = keys_of(t)
    for i = 1, #keys do
      local k = keys[i]
      local v = rawget(t, k)
      local r = resolve(ctx, v)
      if r ~= v then set(ctx, t, k, r) end
    end
    local mt = getmeta(t)
    if mt ~= nil and resolve(ctx, mt) ~= mt then
      log(ctx, "meta", t, mt)
      setmeta(t, resolve(ctx, mt))
    end
  end
  for _, c in ipairs(ctx.carry) do
    if select(2, getupvalue(c[1], c[2])) == nil then -- (closures sharing the local: once)
      log(ctx, "upvalue", c[1], c[2], nil)
      setupvalue(c[1], c[2], c[3])
    end
  end
  for _, f in ipairs(ctx.funcs) do
    for i = 1, 255 do
      local name, value = getupvalue(f, i)
      if name == nil then break end
      local r = resolve(ctx, value)
      if r ~= value then
        log(ctx, "upvalue", f, i, value)
        setupvalue(f, i, r)
      end
    end
  end
  for _, new in ipairs(ctx.tables) do
    local old = ctx.old_of[new]
    if type(old) == "table" then
      for k, v in next, new do set(ctx, old, k, v) end
      local mt = getmeta(new)
      if mt ~= nil and getmeta(old) ~= mt then
        log(ctx, "meta", old, getmeta(old))
        setmeta(old, mt)
      end
    end
  end
end

-- What a brain runs, to tell old code from new: the function itself, its table's think (a plain
-- field, else through its metatable) or else its first event handler (sensed, lost, ...), and for
-- an fsm machine (a table with `states`) the think (or else first event handler) of its first
-- state by name that has one: a machine patched in place has new code in every state, one made
-- anew per vehicle in none, so one state tells.
local BRAIN_KEYS = { "think", "sensed", "lost", "forgot", "heard", "timer" }
local STATE_KEYS = { "think", "on_sensed", "on_lost", "on_forgot", "on_heard", "on_timer" }

local function first_function(t, keys)
  for i = 1, #keys do
    local f = rawget(t, keys[i])
    if type(f) == "function" then return f end
  end
end

local function brain_code(brain)
  if type(brain) == "function" then return brain end
  if type(brain) ~= "table" then return nil end
  local states = rawget(brain, "states")
  if type(states) == "table" then
    local names = keys_of(states)
    for i = 1, #names do
      local s = rawget(states, names[i])
      local code = type(s) == "table" and first_function(s, STATE_KEYS)
      if code then return code end
    end
  end
  local code = first_function(brain, BRAIN_KEYS)
  if code == nil and getmeta(brain) ~= nil then
    local ok, found = pcall(function() return brain.think end)
    code = ok and found or nil
  end
  return type(code) == "function" and code or nil
end

--- Matches the new run of a file with the old and puts the new code in place. `spec`:
---   source   the chunk's source ("@path"): functions from it are the file's
---   sources  optional array of other sources the file's functions may carry (the old run's, when
---            `require` named the chunk by another path)
---   globals  optional {old = copy of the globals before the run, new = the globals table}: each
---            global is a place (the scene)
---   roots    optional array of {old =, new =}: values at one place (a module's or the scene's
---            returned value); a matched table root stays the old table
---   skip     optional array of values never walked (other modules, _G)
---   brains   optional: patch.brains(vehicles) taken before the file ran again; the vehicles whose
---            brain is a function of the file get the new function
--- Returns a report: undo (the log for patch.undo), rebrained (vehicles given a new function), and
--- what patch.stale needs.
local apply

function patch.apply(spec)
  local ctx = {
    source = spec.source, sources = {}, skip = {}, old_of = {}, new_of = {}, claimed = {}, met = {},
    tables = {}, funcs = {}, undo = {}, fresh = {}, carry = {},
  }
  local ok, report = pcall(apply, ctx, spec)
  if not ok then -- (a vehicle's brain refused, say): nothing stays half done
    patch.undo(ctx.undo)
    error(report, 0)
  end
  return report
end

function apply(ctx, spec)
  for _, v in ipairs(spec.skip or {}) do ctx.skip[v] = true end
  for _, source in ipairs(spec.sources or {}) do ctx.sources[source] = true end
  local globals = spec.globals
  if globals then
    ctx.skip[globals.new] = true
    ctx.skip[globals.old] = true
    local keys = keys_of(globals.new)
    for i = 1, #keys do
      local k = keys[i]
      walk(ctx, rawget(globals.old, k), rawget(globals.new, k))
    end
  end
  for _, root in ipairs(spec.roots or {}) do walk(ctx, root.old, root.new) end
  settle(ctx)
  if globals then
    local keys = keys_of(globals.new)
    for i = 1, #keys do
      local k = keys[i]
      local v = rawget(globals.new, k)
      local r = resolve(ctx, v)
      if r ~= v then set(ctx, globals.new, k, r) end
    end
  end
  local report = { undo = ctx.undo, fresh = ctx.fresh, source = ctx.source, sources = ctx.sources, rebrained = 0 }
  local snap = spec.brains
  if snap then
    for i = 1, #snap.vehicles do
      local new = ctx.new_of[snap.brain[i]]
      if new ~= nil then
        local v = snap.vehicles[i]
        log(ctx, "brain", v, snap.brain[i])
        v.brain = new
        report.rebrained = report.rebrained + 1
      end
    end
  end
  return report
end

--- Each vehicle's brain before the file runs again: the snapshot `apply` (its `brains`) and
--- `stale` take. One read of v.brain per vehicle; what a brain runs is worked out once per brain.
function patch.brains(vehicles)
  local snap = { vehicles = vehicles, brain = {}, code = {} }
  local memo = {}
  for i = 1, #vehicles do
    local brain = vehicles[i].brain
    snap.brain[i] = brain
    local code = false
    if brain ~= nil then
      code = memo[brain]
      if code == nil then
        code = brain_code(brain) or false
        memo[brain] = code
      end
    end
    snap.code[i] = code
  end
  return snap
end

--- After apply (and whatever the reload ran next, reload(world) included): the vehicles whose
--- brain still runs the same function of the file as before the file ran again, a function the new
--- run does not hold. Returns their count and their kinds with counts ("guard 3, sheep 1", sorted).
function patch.stale(report, snap)
  local count, kinds, names = 0, {}, {}
  local ctx = { source = report.source, sources = report.sources }
  local old_code, now = {}, {} -- function -> old code of the file?; brain -> what it runs now
  for i = 1, #snap.vehicles do
    local was = snap.code[i]
    local old = false
    if was then
      old = old_code[was]
      if old == nil then
        old = not report.fresh[was] and own(ctx, was)
        old_code[was] = old
      end
    end
    if old then -- its brain ran old code of the file: does the same brain still?
      local brain = snap.brain[i]
      if now[brain] == nil then now[brain] = brain_code(brain) or false end
      local v = snap.vehicles[i]
      -- (unless reload(world) gave the vehicle another brain, or removed it)
      if now[brain] == was and v:alive() and v.brain == brain then
        count = count + 1
        local kind = tostring(v.kind or "?")
        if not kinds[kind] then names[#names + 1] = kind end
        kinds[kind] = (kinds[kind] or 0) + 1
      end
    end
  end
  table.sort(names)
  for i, kind in ipairs(names) do names[i] = kind .. " " .. kinds[kind] end
  return count, table.concat(names, ", ")
end

--- Puts back everything apply wrote, newest first.
function patch.undo(log_)
  for i = #log_, 1, -1 do
    local e = log_[i]
    local kind = e[1]
    if kind == "set" then
      rawset(e[2], e[3], e[4])
    elseif kind == "meta" then
      setmeta(e[2], e[3])
    elseif kind == "upvalue" then
      setupvalue(e[2], e[3], e[4])
    else -- "brain"
      e[2].brain = e[3]
    end
  end
end

return patch
