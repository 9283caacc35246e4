-- bench/brains/micro.lua - what a brain's think costs at scale, through the Lua module: a closest
-- query alone, a behaviour switch then the query, a removal and a spawn then the query, at 1,000,
-- 10,000 and 100,000 vehicles. Each op is timed over a batch (median of several batches) and
-- reported against the query alone measured in the same world, in the same process.
-- Run: LUA_CPATH='build/?.so;;' lua5.4 bench/brains/micro.lua [N ...]
local steer = require "steer"

local BATCH, SAMPLES = 2000, 7
local SIGHT = 150

local function median(t)
  table.sort(t)
  return t[(#t + 1) // 2]
end

-- Microseconds per op of `op(i)` for i = 1, 2, ... (median over SAMPLES batches of BATCH ops).
local function time_per_op(op)
  local samples, i = {}, 0
  for s = 1, SAMPLES do
    local start = os.clock()
    for _ = 1, BATCH do
      i = i + 1
      op(i)
    end
    samples[s] = (os.clock() - start) * 1e6 / BATCH
  end
  return median(samples)
end

local function spawn(w, side, i)
  local v = w:spawn{ kind = (i % 5 == 0) and "hunter" or "prey", x = w:random() * side, y = w:random() * side }
  v:wander{ radius = 20, distance = 40, jitter = 60 }
  return v
end

local function measure(n)
  -- The same density at every N (one vehicle per 60 x 60 units): a query sees as many at each N.
  local side = math.sqrt(n) * 60
  local w = steer.world{ width = side, height = side, edges = "wrap", seed = 5 }
  local all = {}
  for i = 1, n do all[i] = spawn(w, side, i) end
  w:step() -- every vehicle moved: the first query below rebuilds the index, as after any step
  local function pick(i) return all[(i * 7919) % n + 1] end
  local query = time_per_op(function(i) w:closest(pick(i), "hunter", SIGHT) end)
  local switch = time_per_op(function(i)
    local v = pick(i)
    v:wander{ radius = 20, distance = 40, jitter = 60 }
    w:closest(v, "hunter", SIGHT)
  end)
  local respawn = time_per_op(function(i)
    local k = (i * 7919) % n + 1
    w:remove(all[k])
    local v = w:spawn{ kind = (k % 5 == 0) and "hunter" or "prey", x = w:random() * side, y = w:random() * side }
    all[k] = v
    w:closest(v, "hunter", SIGHT)
  end)
  -- The changes alone: what is left of the rows above is what the query costs after them.
  local switch_alone = time_per_op(function(i)
    pick(i):wander{ radius = 20, distance = 40, jitter = 60 }
  end)
  local respawn_alone = time_per_op(function(i)
    local k = (i * 7919) % n + 1
    w:remove(all[k])
    all[k] = w:spawn{ kind = (k % 5 == 0) and "hunter" or "prey", x = w:random() * side, y = w:random() * side }
  end)
  -- The floor of a switch: a C function that does nothing (type), called on a vehicle's method's
  -- worth of Lua with the same option table the switch builds. Less the loop's own cost (pick).
  local loop = time_per_op(function(i) pick(i) end)
  local call_floor = time_per_op(function(i)
    local _ = pick(i)
    type{ radius = 20, distance = 40, jitter = 60 }
  end) - loop
  return query, switch, respawn, switch_alone, respawn_alone, call_floor
end

local sizes = {}
for i = 1, #arg do sizes[#sizes + 1] = tonumber(arg[i]) end
if #sizes == 0 then sizes = { 1000, 10000, 100000 } end

print("== bench-brains (micro): one think's world calls, through the Lua module, medians of "
  .. SAMPLES .. " x " .. BATCH .. " ops")
print(("%9s %14s %24s %30s"):format("vehicles", "closest alone", "v:wander{} then closest",
  "remove + spawn then closest"))
local worst, after, floors = 0, {}, {}
for _, n in ipairs(sizes) do
  local q, s, r, sa, ra, cf = measure(n)
  worst = math.max(worst, s / q, r / q)
  print(("%9d %11.2f us %15.2f us (%.2fx) %21.2f us (%.2fx)"):format(n, q, s, s / q, r, r / q))
  after[#after + 1] = { n, sa, (s - sa) / q, ra, (r - ra) / q }
  floors[#floors + 1] = { n, cf, (q + cf) / q }
end
print(("target: switch-then-query and remove+spawn-then-query within 1.5x of the query alone: worst %.2fx")
  :format(worst))
print("the changes alone, and what the query costs after them (the row above less the change, / the query alone):")
print(("%9s %14s %18s %24s %18s"):format("vehicles", "v:wander{}", "query after it", "remove + spawn",
  "query after it"))
for _, a in ipairs(after) do
  print(("%9d %11.2f us %17.2fx %21.2f us %17.2fx"):format(a[1], a[2], a[3], a[4], a[5]))
end
print("the floor: Lua's own cost of the switch's call, a C function that does nothing called with the")
print("same option table (type{...}), and the best switch-then-query ratio it leaves even for a switch")
print("that costs nothing more:")
print(("%9s %14s %18s"):format("vehicles", "type{...}", "(query + it) / query"))
for _, f in ipairs(floors) do
  print(("%9d %11.2f us %17.2fx"):format(f[1], f[2], f[3]))
end
