-- SPDX-License-Identifier: MIT
-- make bench-pairs: what the stable walk costs (steer.pairs and steer.next, the `steer` program's
-- pairs and next: bindings/lpairs.c) against Lua's own pairs on the same table, in the same process,
-- at 10, 1,000 and 10,000 keys of four kinds: an array (1..n: comes in order, no sort), strings,
-- vehicle handles and a mix (half integers past the array, a quarter strings, a quarter floats).
-- Each figure is the best of 5 rounds of at least 0.1 s of walks, in ns per key walked (the loop
-- body reads the value); also the Lua heap growth of 1,000 walks (the buffers are reused).
local steer = require "steer"

local function tables(n)
  local w = steer.world{}
  local kinds = {}
  local array = {}
  for i = 1, n do array[i] = i end
  kinds[#kinds + 1] = { "array", array }
  local strings = {}
  for i = 1, n do strings["key" .. i] = i end
  kinds[#kinds + 1] = { "strings", strings }
  local vehicles = {}
  for i = 1, n do vehicles[w:spawn{ x = i }] = i end
  kinds[#kinds + 1] = { "vehicles", vehicles }
  local mixed = {}
  for i = 1, n do
    local r = i % 4
    if r < 2 then mixed[i * 7 + 1000000] = i elseif r == 2 then mixed["s" .. i] = i else mixed[i + 0.5] = i end
  end
  kinds[#kinds + 1] = { "mixed", mixed }
  return kinds
end

local function walk_pairs(iter, t)
  local sum = 0
  for _, v in iter(t) do sum = sum + v end
  return sum
end

local function walk_next(nxt, t)
  local sum = 0
  for _, v in nxt, t do sum = sum + v end
  return sum
end

-- ns per key of `walks` walks, best of 5 rounds
local function time(fn, a, t, n)
  local walks = math.max(1, math.floor(2e6 / n))
  local best = math.huge
  for _ = 1, 5 do
    local start = os.clock()
    local done = 0
    repeat
      for _ = 1, walks do fn(a, t) end
      done = done + walks
    until os.clock() - start >= 0.1
    best = math.min(best, (os.clock() - start) / done / n * 1e9)
  end
  return best
end

local function heap_growth(t)
  collectgarbage()
  collectgarbage("stop")
  local before = collectgarbage("count")
  for _ = 1, 1000 do walk_pairs(steer.pairs, t) end
  local after = collectgarbage("count")
  collectgarbage("restart")
  return (after - before) * 1024
end

print(("== bench-pairs: ns per key walked, best of 5 rounds (%s)"):format(_VERSION))
print(("%-8s %7s %10s %12s %12s %7s %22s"):format("keys", "n", "Lua pairs", "steer.pairs", "steer.next",
  "ratio", "heap, 1,000 walks"))
for _, n in ipairs{ 10, 1000, 10000 } do
  for _, kind in ipairs(tables(n)) do
    local name, t = kind[1], kind[2]
    assert(walk_pairs(pairs, t) == walk_pairs(steer.pairs, t))
    assert(walk_pairs(pairs, t) == walk_next(steer.next, t))
    local raw = time(walk_pairs, pairs, t, n)
    local stable = time(walk_pairs, steer.pairs, t, n)
    local nxt = time(walk_next, steer.next, t, n)
    print(("%-8s %7d %10.1f %12.1f %12.1f %6.1fx %16d bytes"):format(name, n, raw, stable, nxt, stable / raw,
      math.floor(heap_growth(t))))
  end
end
