-- SPDX-License-Identifier: MIT
-- bench/brains/jit_calls.lua - a brain's calls one by one under LuaJIT, in compiled loops over
-- 10,000 vehicles: two field reads, a closest query, a pursue, an evade with an option table, a
-- stop and a v.state read, in ns per call (CPU time, median of 5 batches). make bench-brains runs
-- it on the FFI path and on the classic one (STEER_FFI=0) one after the other.
-- Run: LUA_CPATH='build/luajit/?.so;;' luajit bench/brains/jit_calls.lua
local steer = require "steer"
local w = steer.world{ seed = 7, width = 6000, height = 6000, edges = "wrap" }
local all = {}
for i = 1, 10000 do
  all[i] = w:spawn{ kind = i % 5 == 0 and "hunter" or "prey", x = w:random() * 6000, y = w:random() * 6000 }
end
w:step()

local function ns_per_call(n, f)
  local samples = {}
  for s = 1, 5 do
    local t = os.clock()
    f(n)
    samples[s] = (os.clock() - t) * 1e9 / n
  end
  table.sort(samples)
  return samples[3]
end

local rows = {
  { "v.x + v.y", 1000000, function(n)
    local s = 0
    for i = 1, n do
      local v = all[i % 10000 + 1]
      s = s + v.x + v.y
    end
    return s
  end },
  { "w:closest(v, 'hunter', 150)", 100000, function(n)
    for i = 1, n do w:closest(all[i % 10000 + 1], "hunter", 150) end
  end },
  { "v:pursue(other)", 100000, function(n)
    for i = 1, n do all[i % 10000 + 1]:pursue(all[(i + 7) % 10000 + 1]) end
  end },
  { "v:evade(other, {weight = 3})", 100000, function(n)
    for i = 1, n do all[i % 10000 + 1]:evade(all[(i + 7) % 10000 + 1], { weight = 3 }) end
  end },
  { "v:stop('pursue')", 100000, function(n)
    for i = 1, n do all[i % 10000 + 1]:stop("pursue") end
  end },
  { "v.state", 1000000, function(n)
    for i = 1, n do local _ = all[i % 10000 + 1].state end
  end },
}
local parts = {}
for _, row in ipairs(rows) do parts[#parts + 1] = ("%s %.0f ns"):format(row[1], ns_per_call(row[2], row[3])) end
print(("%s path: %s"):format(steer.ffi and "FFI" or "classic", table.concat(parts, ", ")))
