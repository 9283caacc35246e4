-- bench/soak/brain.lua - the soak's brain: about every two simulated seconds a vehicle drops what
-- it does and takes up one of the sets below, which between them use every behaviour. The soak
-- rewrites this file every simulated minute (its version line changes; one in ten is broken) and
-- reloads it. State lives in v.data and v.state, shapes in the module table, which survives a
-- reload (the new functions are copied into it): they reach it through v.brain, never through the
-- chunk's local M, which a reload makes afresh (without the shapes setup() put in the old one).
local M = {}
M.version = 0

local KINDS = { "hunter", "prey", "guard", "boid" }

function M.setup(w)
  M.path = w:path{ { 500, 500 }, { 2500, 800 }, { 4000, 3000 }, { 1500, 4000 }, loop = true }
  local vectors = {}
  for i = 1, 400 do
    local a = i * 0.37
    vectors[i] = { math.cos(a), math.sin(a) }
  end
  M.field = w:flow_field{ x = 0, y = 0, cell_size = 250, cols = 20, rows = 20, vectors = vectors }
  for _ = 1, 60 do w:obstacle{ x = w:random(5000), y = w:random(5000), radius = 20 + w:random(40) } end
  for _ = 1, 30 do
    local x, y = w:random(5000), w:random(5000)
    w:wall{ x1 = x, y1 = y, x2 = x + w:random(-200, 200), y2 = y + w:random(-200, 200) }
  end
end

local function other(v, w)
  return w:closest(v, KINDS[w:random(#KINDS)], 400)
end

local function point(w) return w:random() * 5000, w:random() * 5000 end

M.sets = {
  wander = function(v, w) v:wander{ radius = 30, distance = 60, jitter = 80 }:avoid_obstacles{}:avoid_walls{} end,
  seek = function(v, w) v:seek(point(w)):separate{} end,
  flee = function(v, w) v:flee(point(w)) end,
  arrive = function(v, w) local x, y = point(w); v:arrive(x, y, { slowing_radius = 40 }) end,
  pursue = function(v, w) local o = other(v, w); if o then v:pursue(o) else v:wander{} end end,
  evade = function(v, w) local o = other(v, w); if o then v:evade(o, { threat_range = 200 }) else v:wander{} end end,
  offset_pursue = function(v, w)
    local o = other(v, w)
    if o then v:offset_pursue(o, { offset = { -20, 10 } }) else v:wander{} end
  end,
  interpose = function(v, w)
    local a, b = other(v, w), other(v, w)
    if a and b and a ~= b then v:interpose(a, b) else v:wander{} end
  end,
  hide = function(v, w) local o = other(v, w); if o then v:hide(o) else v:wander{} end end,
  follow = function(v, w) v:follow(v.brain.path):avoid_collisions{} end,
  follow_flow = function(v, w) v:follow_flow(v.brain.field):contain{ margin = 40 } end,
  flock = function(v, w) v:flock{} end,
  group = function(v, w) v:separate{}:align{}:cohere{} end,
  follow_leader = function(v, w)
    local o = other(v, w)
    if o then v:follow_leader(o):queue{} else v:wander{} end
  end,
}
M.names = {}
for name in pairs(M.sets) do M.names[#M.names + 1] = name end
table.sort(M.names) -- pairs order changes from run to run: pick by sorted name

function M.think(v, dt)
  local d = v.data
  d.t = (d.t or 0) + dt
  if d.t < 2 then return end
  d.t = 0
  local B, w = v.brain, v.world
  local name = B.names[w:random(#B.names)]
  v:stop()
  B.sets[name](v, w)
  v.state = name
end

return M
