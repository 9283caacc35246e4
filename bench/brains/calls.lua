-- bench/brains/calls.lua - what each call a think makes costs, through the Lua module: one frame's
-- share of thinks (1,667: 10,000 brains at 10 Hz, 60 frames a second) of ever fuller brains, in a
-- world like hunt_10k.lua's (2,000 hunters, 8,000 prey on 6,000 x 6,000 units). Best of 9 passes,
-- so the figures are what the calls cost, not what a busy machine adds. The difference between two
-- lines is what the added call costs per frame.
-- Run: LUA_CPATH='build/?.so;;' lua5.4 bench/brains/calls.lua
local steer = require "steer"

local THINKS = 1667
local w = steer.world{ width = 6000, height = 6000, edges = "wrap", seed = 11 }
local all = {}
for i = 1, 10000 do
  local hunter = i % 5 == 0
  all[i] = w:spawn{ kind = hunter and "hunter" or "prey", x = w:random() * 6000, y = w:random() * 6000,
                    neighbor_radius = 30 }
  all[i]:wander{}
end

local function run(label, think)
  local best = math.huge
  for _ = 1, 9 do
    w:step()
    w:closest(all[1], "prey", 1) -- the index is rebuilt after the step, outside the timing
    local start = os.clock()
    for i = 1, THINKS do pcall(think, all[(i * 6) % 10000 + 1], 0.1) end
    best = math.min(best, os.clock() - start)
  end
  print(("%-52s %6.3f ms per frame"):format(label, best * 1000))
end

print(("== bench-brains (calls): %d thinks, the best of 9 passes"):format(THINKS))
run("a bare brain (pcall + Lua call)", function() end)
run("+ read v.state and v.world", function(v) local _, _ = v.state, v.world end)
run("+ w:closest(v, 'hunter', 100) (a sparse kind)", function(v)
  local _, world = v.state, v.world
  world:closest(v, "hunter", 100)
end)
run("+ w:closest(v, 'prey', 150) (a common kind) instead", function(v)
  local _, world = v.state, v.world
  world:closest(v, "prey", 150)
end)
run("+ v:wander{...} after the sparse query", function(v)
  local _, world = v.state, v.world
  world:closest(v, "hunter", 100)
  v:wander{ radius = 20, distance = 40, jitter = 60 }
end)
