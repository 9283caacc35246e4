-- bench/brains/pass.lua - what w:think() costs around the brains themselves: a pass over 10,000
-- and 100,000 vehicles whose brains do nothing, at 10 Hz and at 1 Hz (60 steps a second: a sixth
-- or a sixtieth of them think in a pass). The baseline, in the same process: a plain Lua loop that
-- pcalls the same number of brains from an array, the least any scheduler could cost.
-- Run: LUA_CPATH='build/?.so;;' lua5.4 bench/brains/pass.lua
local steer = require "steer"

local PASSES, SAMPLES = 60, 7

local function median_ms(run)
  local samples = {}
  for s = 1, SAMPLES do
    local start = os.clock()
    for _ = 1, PASSES do run() end
    samples[s] = (os.clock() - start) * 1000 / PASSES
  end
  table.sort(samples)
  return samples[(SAMPLES + 1) // 2]
end

print("== bench-brains (pass): w:think() with brains that do nothing, medians of " .. SAMPLES .. " x " .. PASSES
  .. " passes")
print(("%9s %6s %8s %16s %26s"):format("vehicles", "rate", "thinks", "w:think()", "a Lua loop of pcalls"))
for _, n in ipairs{ 10000, 100000 } do
  for _, hz in ipairs{ 10, 1 } do
    local w = steer.world{ width = 20000, height = 20000, seed = 1, think_hz = hz }
    local brain = function() end
    local handles = {}
    for i = 1, n do
      handles[i] = w:spawn{ x = w:random() * 20000, y = w:random() * 20000 }
      handles[i].brain = brain
    end
    local thinks = n * hz // 60
    local pass = median_ms(function() w:think() end)
    local loop = median_ms(function()
      for i = 1, thinks do pcall(brain, handles[i], 0.1) end
    end)
    print(("%9d %4d Hz %8d %13.3f ms %15.3f ms (%.2fx)"):format(n, hz, thinks, pass, loop, pass / loop))
    w:close()
  end
end
