-- bench/soak/scene.lua - the scene `make soak` runs for an hour of simulated time: 10,000 vehicles
-- (SOAK_VEHICLES) whose brains (brain.lua) switch between every behaviour, two removed and two
-- spawned at random every step, obstacles, walls, a path and a flow field. check(w) counts the
-- non-finite x, y, vx, vy; the soak calls it every simulated minute.
local Brain = require "brain"

world = { width = 5000, height = 5000, edges = "wrap", seed = 17, think_hz = 10 }

local N = tonumber(os.getenv("SOAK_VEHICLES")) or 10000
local KINDS = { "hunter", "prey", "guard", "boid" }
local alive = {} -- handles; a removal swaps the last one in

local function spawn(w)
  local v = w:spawn{
    kind = KINDS[w:random(#KINDS)],
    x = w:random() * 5000, y = w:random() * 5000,
    vx = w:random(-50, 50), vy = w:random(-50, 50),
    max_speed = 60 + w:random(60),
    data = {}, brain = Brain,
  }
  alive[#alive + 1] = v
end

function load(w)
  Brain.setup(w)
  for _ = 1, N do spawn(w) end
end

function update(w, dt)
  for _ = 1, 2 do
    local i = w:random(#alive)
    w:remove(alive[i])
    alive[i] = alive[#alive]
    alive[#alive] = nil
    spawn(w)
  end
end

local function finite(x) return x == x and x ~= math.huge and x ~= -math.huge end

function check(w)
  local bad, n = 0, 0
  for _, v in ipairs(w:vehicles()) do
    n = n + 1
    if not finite(v.x) then bad = bad + 1 end
    if not finite(v.y) then bad = bad + 1 end
    if not finite(v.vx) then bad = bad + 1 end
    if not finite(v.vy) then bad = bad + 1 end
  end
  return bad, n
end
