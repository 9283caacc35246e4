-- SPDX-License-Identifier: MIT
-- tests/lua/ffi_scenario.lua - a run that touches every vehicle field, every behaviour method (no
-- target, a point, a vehicle, its options, bad values of each), stop, closest and neighbors (every
-- form, good and bad arguments), removed vehicles and a closed world, and steps the world between,
-- printing every value and every error message. ffi_spec.lua runs it under LuaJIT on the FFI path
-- and on the classic one (STEER_FFI=0) and wants the two outputs equal, byte for byte.
local steer = require "steer"
local unpack = table.unpack or rawget(_G, "unpack")

local out = {}
local function say(...)
  local parts = { ... }
  for i = 1, select("#", ...) do
    local x = parts[i]
    parts[i] = type(x) == "number" and ("%.17g"):format(x) or tostring(x)
  end
  out[#out + 1] = table.concat(parts, " ")
end

local function try(label, f, ...)
  local ok, a, b = pcall(f, ...)
  if ok and type(a) == "table" and getmetatable(a) == nil then -- an array of handles
    local ids = {}
    for i, h in ipairs(a) do ids[i] = h.id end
    a = "{" .. table.concat(ids, ",") .. "}"
  end
  say(label, ok, a, b)
end

-- A table's keys and values in key order (v:behaviours(): the parameters every path set).
local function dump(t, indent)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  for _, k in ipairs(keys) do
    local v = t[k]
    if type(v) == "table" and getmetatable(v) == nil then
      say(indent .. tostring(k) .. ":")
      dump(v, indent .. "  ")
    elseif type(v) == "userdata" then
      say(indent .. tostring(k), v.id)
    else
      say(indent .. tostring(k), v)
    end
  end
end

local w = steer.world{ width = 800, height = 600, edges = "wrap", seed = 42 }
local vs = {}
local KINDS = { "prey", "hunter", "scout" }
for i = 1, 40 do
  vs[i] = w:spawn{ kind = KINDS[i % 3 + 1], x = w:random() * 800, y = w:random() * 600,
                   vx = w:random(-20, 20), vy = w:random(-20, 20), neighbor_radius = 60 }
end
w:step(5)

local FIELDS = { "x", "y", "vx", "vy", "speed", "heading", "hx", "hy", "id", "kind", "force_x", "force_y",
  "brain_error", "color", "combine", "flock_with", "state", "mass", "max_speed", "max_force", "max_turn_rate",
  "radius", "response_time", "neighbor_radius", "view_angle" }

local function fields(v, label)
  for _, f in ipairs(FIELDS) do
    local ok, value = pcall(function() return v[f] end)
    if type(value) == "table" then value = table.concat(value, ",") end
    say(label, f, ok, value)
  end
  say(label, "world", pcall(function() return v.world == w end))
  say(label, "data", pcall(function() return type(v.data) end))
  say(label, "brain", pcall(function() return type(v.brain) end))
end

-- every behaviour: plain, with a point, with a vehicle, with its own options (from what
-- v:behaviours() says it has), and with bad values
local a, b = vs[1], vs[2]
for _, name in ipairs(steer.behaviours) do
  try(name .. "()", function() return a[name](a) == a end)
  try(name .. "(x, y)", function() return a[name](a, 400, 300) == a end)
  try(name .. "(v)", function() return a[name](a, b) == a end)
  try(name .. "(v, {})", function() return a[name](a, b, {}) == a end)
  try(name .. "({})", function() return a[name](a, {}) == a end)
  try(name .. "(nan, 1)", a[name], a, 0 / 0, 1)
  try(name .. "(1e10, 1)", a[name], a, 1e10, 1)
  try(name .. "(self)", a[name], a, a)
  try(name .. "(x, y, 3)", a[name], a, 1, 2, 3)
  try(name .. "(v, {}, 3)", a[name], a, b, {}, 3)
  try(name .. "{raduis}", a[name], a, { raduis = 1 })
  try(name .. "(v, 'x')", a[name], a, b, "x")
  try(name .. " dot", a[name], 1, 2)
  local now = a:behaviours()[name]
  if now then
    local keys = {}
    for key in pairs(now) do keys[#keys + 1] = key end
    table.sort(keys)
    for _, key in ipairs(keys) do
      local value = now[key]
      if type(value) == "number" then
        for _, bad in ipairs({ -1, 0, 0 / 0, 1 / 0, 1.5, 1e300, "s", true }) do
          local opts = { [key] = bad }
          try(name .. " " .. key .. "=" .. tostring(bad), function() return a[name](a, opts) == a end)
          try(name .. "(x, y) " .. key .. "=" .. tostring(bad), function() return a[name](a, 10, 20, opts) == a end)
          try(name .. "(v) " .. key .. "=" .. tostring(bad), function() return a[name](a, b, opts) == a end)
        end
        local opts = { [key] = value * 1.25 + 0.5, weight = 2, probability = 0.5 }
        try(name .. " " .. key .. " good", function() return a[name](a, b, opts) == a end)
        try(name .. " " .. key .. " good, no target", function() return a[name](a, opts) == a end)
      end
    end
  end
  dump(a:behaviours(), name .. ": ")
  try("stop " .. name, function() return a:stop(name) == a end)
end
try("stop()", function() return a:stop() == a end)
try("stop(x)", a.stop, a, "wandr")
try("stop(3)", a.stop, a, 3)
try("stop(two)", function() return a:stop("seek", "flee") == a end)

-- behaviours for the run: a mix of targets and options
for i, v in ipairs(vs) do
  local other = vs[i % #vs + 1]
  local m = i % 6
  if m == 0 then v:wander{ radius = 20 + i, distance = 30, jitter = 40 }
  elseif m == 1 then v:pursue(other)
  elseif m == 2 then v:evade(other, { weight = 3 })
  elseif m == 3 then v:arrive(100 + i, 200, { slowing_radius = 50 })
  elseif m == 4 then v:flock{}
  else v:seek(other):flee(300, 300, { weight = 0.5, priority = 3 }) end
end

for step = 1, 30 do
  w:step()
  for i, v in ipairs(vs) do
    if step % 10 == 0 then fields(v, "v" .. i) end
    say("pos", i, v.x, v.y, v.vx, v.vy, v.heading)
    local c = w:closest(v, KINDS[step % 3 + 1], 120)
    say("closest", i, c and c.id)
    if step % 5 == 0 then
      try("neighbors", w.neighbors, w, v, 80)
      try("neighbors kind", w.neighbors, w, v, 200, "prey")
      try("closest point", w.closest, w, v.x + 10, v.y, "hunter")
      try("closest all", w.closest, w, v)
    end
    if step % 3 == 0 then
      if v.kind == "hunter" then
        local prey = w:closest(v, "prey", 150)
        if prey then v:pursue(prey) else v:stop("pursue"):wander{} end
      else
        local hunter = w:closest(v, "hunter", 100)
        if hunter then v:evade(hunter, { weight = 3 }) else v:stop("evade") end
      end
    end
  end
end

-- queries with bad arguments
local v = vs[3]
for _, args in ipairs({ { v }, { v, "prey" }, { v, "nothing" }, { v, 7 }, { v, "prey", 50 }, { v, "prey", -1 },
  { v, "prey", 0 / 0 }, { v, "prey", 1 / 0 }, { v, "prey", "far" }, { 10, 20 }, { 10, 20, "prey", 100 },
  { 10 }, { 0 / 0, 1 }, { 1e10, 5 }, { "v" }, { w }, {} }) do
  try("closest " .. #args, w.closest, w, unpack(args))
end
for _, args in ipairs({ { v, 50 }, { v, -1 }, { v, 0 / 0 }, { v, 1 / 0 }, { v, "r" }, { v, 50, "hunter" },
  { v, 50, "nothing" }, { v, 50, 3 }, { 5, 50 }, { v }, { v, 5000 } }) do
  try("neighbors " .. #args, w.neighbors, w, unpack(args))
end
try("closest dot", w.closest, v, "prey")
try("neighbors dot", w.neighbors, v, 10)

-- another world's vehicle, a removed one, a closed world
local other = steer.world{ seed = 1 }
local stranger = other:spawn{ kind = "prey" }
try("closest stranger", w.closest, w, stranger, "prey")
try("pursue stranger", v.pursue, v, stranger)
try("neighbors stranger", w.neighbors, w, stranger, 10)
local gone = vs[4]
w:remove(gone)
fields(gone, "gone")
try("gone pursue", v.pursue, v, gone)
try("gone seek", gone.seek, gone, 1, 2)
try("gone stop", gone.stop, gone, "seek")
try("gone closest", w.closest, w, gone)
try("gone neighbors", w.neighbors, w, gone, 10)
try("gone alive", gone.alive, gone)
w:step(3)
for i, u in ipairs(vs) do
  if u:alive() then say("end", i, u.x, u.y) end
end
other:close()
try("closed closest", other.closest, other, 1, 2)
try("closed field", function() return stranger.x end)
try("closed seek", stranger.seek, stranger, 1, 2)

-- The think pass (w:think(), a Lua loop on the FFI path): every kind of brain, failures with and
-- without a handler, a handler that raises, brains that remove, spawn, resume, close the world or
-- call w:think() again, think_hz changes; the order brains think in (ffi_spec.lua runs this
-- scenario with STEER_THINK_ORDER_MIN low, so that the small worlds here think by place too).
local bw = steer.world{ seed = 7, width = 500, height = 500, edges = "wrap", think_hz = 20 }
local log = {}
local function note(...) log[#log + 1] = table.concat({ ... }, " ") end
local Class = {}
Class.__index = Class
function Class:think(u, dt) note("class", u.id, ("%.17g"):format(dt), tostring(self.tag)) end
local brains = {
  function(u, dt) note("fn", u.id, ("%.17g"):format(dt), select("#", u, dt)) u:seek(u.y, u.x) end,
  { think = function(u, dt) note("tbl", u.id, ("%.17g"):format(dt)) local c = bw:closest(u, "b", 200)
      if c then u:pursue(c) end end },
  setmetatable({ tag = "t" }, Class),
  { think = function(u) note("err", u.id) error("brain " .. u.id .. " fails") end },
  { think = function(u)
      note("obj", u.id)
      error(setmetatable({}, { __tostring = function() return "object" end }))
    end },
  { think = function(u) note("nil", u.id) error() end },
  { think = function(u) note("long", u.id) error(("x"):rep(3000)) end },
  { sensed = function() end }, -- no think: events only
  { think = function(u) note("nested", u.id, tostring(pcall(bw.think, bw))) end },
  { think = function(u) note("varargs", u.id, select("#", u)) return 1, 2, 3 end },
}
local bvs = {}
for i = 1, 40 do
  local u = bw:spawn{ kind = i % 3 == 0 and "b" or "a", x = bw:random() * 500, y = bw:random() * 500 }
  u.brain = brains[(i - 1) % #brains + 1]
  bvs[i] = u
end
bvs[39].brain = nil
try("brain 12", function() bvs[38].brain = 12 end)
local function show(tag, r)
  say(tag, r, #log)
  for _, line in ipairs(log) do say("  ", line) end
  log = {}
  for i, u in ipairs(bvs) do
    if u:alive() then say("  v", i, u.x, u.y, u.brain_error and u.brain_error:sub(1, 80) or "-") end
  end
end
for step = 1, 8 do
  show("think " .. step, bw:think())
  bw:step()
end
-- failures with a handler; a handler that raises
bw:resume_brains()
show("think handler", bw:think(function(u, msg, tb) note("handler", u.id, msg:sub(1, 60), type(tb)) end))
bw:resume_brains()
bw:step()
try("think handler raises", bw.think, bw, function(u) error("handler of " .. u.id) end)
show("after", 0)
bw:resume_brains()
bw:step()
-- bad arguments
try("think bad", bw.think, bw, 5)
try("think bad self", bw.think, 5)
-- brains that remove the next vehicle, spawn one (a new slot: the roster is built again), change rate
local spawned
bvs[1].brain = function(u) note("remover", u.id) for i = 2, 40 do if bvs[i]:alive() then bw:remove(bvs[i]) break end end
  spawned = spawned or bw:spawn{ kind = "a", x = 10, y = 10 } end
for step = 1, 6 do
  show("think change " .. step, bw:think())
  bw:step()
end
bw.think_hz = 60
show("think 60", bw:think())
bw:step()
bw.think_hz = 0
show("think 0", bw:think())
-- a brain that closes its world
bw.think_hz = 60
for i = 40, 2, -1 do
  if bvs[i]:alive() then
    bvs[i].brain = function(u) note("closer", u.id) bw:close() end
    break
  end
end
try("think closes", bw.think, bw)
say(#log)
try("think closed", bw.think, bw)
io.write(table.concat(out, "\n"), "\n")
