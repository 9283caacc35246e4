-- SPDX-License-Identifier: MIT
-- lffi.lua - steer's hot members as FFI calls, under LuaJIT (bindings/lffi.c says why and how;
-- luaopen_steer runs this chunk, compiled into the module as lffi_lua.h: `make
-- bindings/lffi_lua.h` after an edit). Arguments: the module table, the C side's function table
-- (a light userdata), the Vehicle and World metatables, and a few classic helpers. Returns true
-- when the members are replaced, false to keep the classic path.
--
-- Every replacement follows one rule: do the common case through the FFI when every argument is
-- one the classic method accepts, else call the classic method with the very same arguments (a
-- tail call, so its errors name the method as before). The C side refuses (-1, NaN) whatever it
-- cannot vouch for, and the classic method then raises its own message.
local _, api_ud, VMT, WMT, aux = ...

local ok, ffi = pcall(require, "ffi")
if not ok or type(ffi) ~= "table" then return false end

local API = "struct steer_ffi_api_2"
if not pcall(ffi.typeof, API) then
  ffi.cdef[[
struct steer_ffi_api_2 {
  int version;
  int vehicle_size, vehicle_serial, vehicle_owner;
  int world_kind_count;
  double (*get)(const void *v, int code);
  int (*closest)(const void *w, const void *v, double x, double y, int kind, double range, uint64_t *serial);
  int (*neighbors)(const void *w, const void *v, double radius, int kind, uint32_t *slots, uint64_t *serials,
                   int capacity);
  int (*behaviour)(const void *v, int type, int target, double x, double y, const void *other, int n,
                   const int *codes, const double *values);
  int (*stop)(const void *v, int type);
  uint32_t (*think_turn)(void *w, int i, double *dt);
  int (*think_owns)(const void *w, int i, const void *v);
  void (*think_end)(void *w);
  int (*world_open)(const void *w);
};]]
end
local api = ffi.cast(API .. " *", api_ud)
if api.version ~= 2 or api.vehicle_serial % 8 ~= 0 or api.vehicle_owner % 8 ~= 0 or api.world_kind_count % 4 ~= 0 then
  return false
end

local cast, getmetatable, type, select, next, tonumber = ffi.cast, getmetatable, type, select, next, tonumber
local get, closest_c, neighbors_c, behaviour_c, stop_c = api.get, api.closest, api.neighbors, api.behaviour, api.stop
local U64P, UPTRP, INTP = ffi.typeof("const uint64_t *"), ffi.typeof("const uintptr_t *"), ffi.typeof("const int *")
local SERIAL, OWNER, KIND_COUNT = api.vehicle_serial / 8, api.vehicle_owner / 8, api.world_kind_count / 4
local VNAME, WNAME = VMT.__metatable, WMT.__metatable -- what getmetatable says of a handle

-- The classic members: the dispatch table is the first upvalue of the classic __index (lclass.c).
local vindex_c, windex_c = VMT.__index, WMT.__index
local function members(index)
  local _, dispatch = debug.getupvalue(index, 1)
  local methods = {}
  for name, m in pairs(dispatch) do
    if type(m) == "function" then methods[name] = m end
  end
  return dispatch, methods
end
local vdispatch, vclassic = members(vindex_c)
local wdispatch, wclassic = members(windex_c)

-- ---- Worlds: each one's handles by slot and kind numbers by name -----------------------------
-- Weak keys, and a weak reference from the entry to the world's handles: an entry must not keep
-- its world alive (LuaJIT's weak tables are no ephemerons: a value is marked whatever its key).
local worlds = setmetatable({}, { __mode = "k" })
local world_at = setmetatable({}, { __mode = "v" }) -- a world's LWorld address -> the world

local function world_state(w)
  local s = worlds[w]
  if s then return s end
  if type(w) ~= "userdata" or getmetatable(w) ~= WNAME then return nil end
  local handles = aux.handles(w)
  if not handles then return nil end -- closed
  s = { handles = setmetatable({ handles }, { __mode = "v" }), kinds = {}, names = {}, kind_count = -1,
    vals = setmetatable({}, { __mode = "v" }), owners = setmetatable({}, { __mode = "v" }) }
  worlds[w] = s
  world_at[tonumber(cast("uintptr_t", cast("const void *", w)))] = w
  return s
end

-- The kind number of name in world w (state s): -2 for a name never spawned (matches nothing).
local kinds_c = wclassic.kinds
local function kind_of(w, s, name)
  local n = cast(INTP, w)[KIND_COUNT]
  if n ~= s.kind_count then
    local kinds, names = {}, kinds_c(w)
    for i, kname in ipairs(names) do kinds[kname] = i - 1 end
    s.kinds, s.names, s.kind_count = kinds, names, n
  end
  return s.kinds[name] or -2
end

-- The handle of the vehicle in `slot` with `serial`, when it has one already (else nil: the
-- classic method makes it).
local function handle_of(s, slot, serial)
  local h = s.handles[1][slot]
  if h ~= nil and cast(U64P, h)[SERIAL] == serial then return h end
  return nil
end

local serial_out = ffi.new("uint64_t[1]")
local HUGE = math.huge

local function is_vehicle(x) return type(x) == "userdata" and getmetatable(x) == VNAME end

-- w:closest(v, kind, range) or w:closest(x, y, kind, range)
local closest_classic = wclassic.closest
local function closest(w, ...)
  local s = worlds[w] or world_state(w)
  local a, b, c, d = ...
  local v, x, y, kind, range = nil, 0, 0
  if type(a) == "number" then
    if type(b) ~= "number" then return closest_classic(w, ...) end
    x, y, kind, range = a, b, c, d
  elseif is_vehicle(a) then
    v, kind, range = a, b, c
  else
    return closest_classic(w, ...)
  end
  if s == nil then return closest_classic(w, ...) end
  local k = -1
  if kind ~= nil then
    if type(kind) ~= "string" then return closest_classic(w, ...) end
    k = s.kinds[kind]
    if k == nil or cast(INTP, w)[KIND_COUNT] ~= s.kind_count then k = kind_of(w, s, kind) end
  end
  if range == nil then
    range = HUGE
  elseif type(range) ~= "number" then
    return closest_classic(w, ...)
  end
  local slot = closest_c(w, v, x, y, k, range, serial_out)
  if slot == 0 then return nil end
  if slot > 0 then
    local h = handle_of(s, slot, serial_out[0])
    if h ~= nil then return h end
  end
  return closest_classic(w, ...)
end

-- w:neighbors(v, radius[, kind])
local neighbors_classic = wclassic.neighbors
local slots_out, serials_out = ffi.new("uint32_t[64]"), ffi.new("uint64_t[64]")
local function neighbors(w, ...)
  local s = worlds[w] or world_state(w)
  local v, radius, kind = ...
  if s == nil or not is_vehicle(v) or type(radius) ~= "number" or select("#", ...) > 3 then
    return neighbors_classic(w, ...)
  end
  local k = -1
  if kind ~= nil then
    if type(kind) ~= "string" then return neighbors_classic(w, ...) end
    k = s.kinds[kind]
    if k == nil or cast(INTP, w)[KIND_COUNT] ~= s.kind_count then k = kind_of(w, s, kind) end
  end
  local n = neighbors_c(w, v, radius, k, slots_out, serials_out, 64)
  if n < 0 then return neighbors_classic(w, ...) end
  local out = {}
  for i = 0, n - 1 do
    local h = handle_of(s, slots_out[i], serials_out[i])
    if h == nil then return neighbors_classic(w, ...) end
    out[i + 1] = h
  end
  return out
end

-- ---- Vehicles: fields -------------------------------------------------------------------------
-- The numbers: get(v, code) gives NaN for a handle whose vehicle is gone (the classic __index then
-- raises `vehicle #12 (prey) was removed`).
local FIELD = { x = 0, y = 1, vx = 2, vy = 3, speed = 4, heading = 5, hx = 6, hy = 7, id = 8, force_x = 9,
  force_y = 10 }
local ALIVE, KIND = 11, 12
for name, code in pairs(aux.core_fields()) do FIELD[name] = code end

-- v.data, v.brain, v.state, v.brain_error: the handle's user values (lsteer_internal.h's HUV_*).
-- The table that holds them is the handle's own for its whole life: found once, then read here.
local VALUE = { data = 2, brain = 3, state = 4, brain_error = 5 }
local values_of = setmetatable({}, { __mode = "kv" }) -- weak values too: the table refers to its world
local values_c = aux.values

local function special(v, k)
  if is_vehicle(v) and get(v, ALIVE) ~= 0 then
    local slot = VALUE[k]
    if slot then
      local t = values_of[v]
      if t == nil then
        t = values_c(v)
        values_of[v] = t
      end
      local value = t[slot]
      if value ~= nil or slot ~= 2 then return value end -- (v.data is made on first read: classic)
    elseif k == "world" then
      local w = world_at[tonumber(cast(UPTRP, v)[OWNER])]
      if w ~= nil then return w end
      w = vindex_c(v, k)
      world_state(w)
      return w
    elseif k == "kind" then
      local w = world_at[tonumber(cast(UPTRP, v)[OWNER])]
      local s = w and worlds[w]
      if s then
        kind_of(w, s, "")
        local name = s.names[get(v, KIND) + 1]
        if name ~= nil then return name end
      end
    end
  end
  return vindex_c(v, k)
end
local SPECIAL = { data = special, brain = special, state = special, brain_error = special, world = special,
  kind = special }

local vmethods = {}
for name, m in pairs(vclassic) do vmethods[name] = m end

local function vindex(v, k)
  local _, _ = vdispatch, vclassic -- (upvalues 1 and 2, as the classic __index's: see the end)
  local m = vmethods[k]
  if m ~= nil then return m end
  if type(v) ~= "userdata" then return vindex_c(v, k) end -- (a script calling __index itself)
  local code = FIELD[k]
  if code ~= nil then
    local r = get(v, code)
    if r == r then return r end
    return vindex_c(v, k)
  end
  local f = SPECIAL[k]
  if f ~= nil then return f(v, k) end
  return vindex_c(v, k)
end

-- ---- Vehicles: behaviour switches -------------------------------------------------------------
local codes_out, values_out = ffi.new("int[64]"), ffi.new("double[64]")
local BEHAVIOUR = {}

-- Adds option key = value to the FFI call's arrays as its count-th: the new count, or -1 for a
-- key or value the classic method has to judge.
local function option(options, key, value, count)
  local code = options[key]
  if code == nil or type(value) ~= "number" then return -1 end
  codes_out[count], values_out[count] = code, value
  return count + 1
end

local function behaviour_method(info, classic)
  local btype, target, options = info.type, info.target, info.options
  if target == "other" then return classic end
  return function(v, ...)
    if not is_vehicle(v) then return classic(v, ...) end
    local n = select("#", ...)
    local a, b, c = ...
    local kind, x, y, other, opts = 0, 0, 0, nil
    if target == nil then
      if n > 1 then return classic(v, ...) end
      opts = a
    elseif type(a) == "number" then
      if target ~= "point_or_vehicle" or type(b) ~= "number" or n > 3 then return classic(v, ...) end
      kind, x, y, opts = 1, a, b, c
    elseif is_vehicle(a) then
      if n > 2 then return classic(v, ...) end
      kind, other, opts = 2, a, b
    else
      return classic(v, ...)
    end
    local count = 0
    if opts ~= nil then
      if type(opts) ~= "table" then return classic(v, ...) end
      -- up to four options, unrolled: a loop here would be an inner loop of every brain's trace
      local key, value = next(opts)
      if key ~= nil then
        count = option(options, key, value, 0)
        key, value = next(opts, key)
        if key ~= nil and count > 0 then
          count = option(options, key, value, count)
          key, value = next(opts, key)
          if key ~= nil and count > 0 then
            count = option(options, key, value, count)
            key, value = next(opts, key)
            if key ~= nil and count > 0 then
              count = option(options, key, value, count)
              key = next(opts, key)
            end
          end
        end
        if key ~= nil or count < 0 then return classic(v, ...) end -- more than four, or one it refuses
      end
    end
    if behaviour_c(v, btype, kind, x, y, other, count, codes_out, values_out) ~= 0 then return classic(v, ...) end
    return v
  end
end

for name, info in pairs(aux.behaviours()) do
  BEHAVIOUR[name] = info.type
  if vclassic[name] then vmethods[name] = behaviour_method(info, vclassic[name]) end
end

-- v:stop("name"): one behaviour by name (v:stop() and several names: the classic method)
local stop_classic = vclassic.stop
vmethods.stop = function(v, ...)
  local name = ...
  local btype = select("#", ...) == 1 and BEHAVIOUR[name]
  if not btype or not is_vehicle(v) or stop_c(v, btype) ~= 0 then return stop_classic(v, ...) end
  return v
end

-- ---- The think pass -----------------------------------------------------------------------------
-- w:think([on_error]) as a Lua loop the JIT compiles (the classic pass is a C loop that calls each
-- brain through lua_pcall, where every trace ends). The C side lists the due vehicles in the
-- classic pass's order and marks the world thinking (aux.think_begin: one classic call a pass),
-- vouches for each in turn as the classic pass does (think_turn: removed by an earlier brain,
-- paused; its dt, its clock set), and the failures go to the classic pass's own code
-- (aux.think_failed). Whatever the C side does not vouch for - events to deliver, a roster to
-- build, a nested call, a bad argument - runs the classic pass, which raises its own errors.
local think_classic = wclassic.think
local think_begin, think_handle, think_failed, msgh = aux.think_begin, aux.think_handle, aux.think_failed, aux.msgh
local think_turn, think_owns, think_end, world_open = api.think_turn, api.think_owns, api.think_end, api.world_open
local turn_dt = ffi.new("double[1]")
local xpcall, rawget, dgetmetatable = xpcall, rawget, debug.getmetatable

-- A brain whose think comes through its metatable: brain:think(v, dt), looked up inside the
-- protected call (as lbrains.c's think_through_index).
local function think_through_index(brain, v, dt)
  local f = brain.think
  if type(f) == "function" then f(brain, v, dt) end
end

local function pass(w, s, on_error, n)
  local failed = 0
  local handles = s.handles[1]
  -- each due handle's user values (v.brain) by slot, with the handle they are of: arrays, which a
  -- pass in creation order reads nearly in order (values_of is a hash: a cold node per think)
  local vals, owners = s.vals, s.owners
  for i = 0, n - 1 do
    -- (no cdata made per think: the serials are compared in C, so that a pass in LuaJIT's
    -- interpreter allocates nothing either)
    local slot = think_turn(w, i, turn_dt)
    if slot ~= 0 then
      local v = handles[slot]
      if v == nil or think_owns(w, i, v) == 0 then v = think_handle(w, i) end
      local t = vals[slot]
      if t == nil or owners[slot] ~= v then
        t = values_c(v)
        vals[slot], owners[slot] = t, v
      end
      local brain, dt = t[3], turn_dt[0]
      local fine, err = true, nil
      if type(brain) == "table" then
        local f = rawget(brain, "think")
        if type(f) == "function" then
          fine, err = xpcall(f, msgh, v, dt)
        elseif dgetmetatable(brain) ~= nil then
          fine, err = xpcall(think_through_index, msgh, brain, v, dt)
        end
      elseif type(brain) == "function" then
        fine, err = xpcall(brain, msgh, v, dt)
      end
      -- a brain that closed the world: the rest of the pass is skipped (think_turn gives 0), and
      -- its own failure is not counted, as in the classic pass
      if not fine and world_open(w) ~= 0 then
        failed = failed + 1
        think_failed(w, v, err, on_error)
      end
    end
  end
  return failed
end

local function think(w, ...)
  local on_error = ...
  local s = worlds[w] or world_state(w)
  if s == nil or select("#", ...) > 1 or (on_error ~= nil and type(on_error) ~= "function") then
    return think_classic(w, ...)
  end
  local n = think_begin(w)
  if n == nil then return think_classic(w, ...) end
  local done, r = pcall(pass, w, s, on_error, n)
  think_end(w)
  if not done then error(r, 0) end
  return r
end

-- ---- World members ----------------------------------------------------------------------------
local wmethods = {}
for name, m in pairs(wclassic) do wmethods[name] = m end
wmethods.closest, wmethods.neighbors, wmethods.think = closest, neighbors, think

local function windex(w, k)
  local _, _ = wdispatch, wclassic -- (upvalues 1 and 2, as the classic __index's: see the end)
  local m = wmethods[k]
  if m ~= nil then return m end
  return windex_c(w, k)
end

-- The new __index keeps the classic one's dispatch table as its first upvalue (what tests and
-- tools read the members from) and the classic methods as its second: LuaJIT names a C function
-- reached by a tail call by looking for it among the tables in self's __index upvalues
-- (lsteer_compat.h), so a classic method's error reads as before. Last, both at once: the
-- metatables change here or not at all.
VMT.__index, WMT.__index = vindex, windex
return true
