-- Pursuit and evade: red pursues (aims where the blue runner WILL be), orange just seeks where it is.
-- Keys: e toggles the runner's evading; r sends the hunters back to their corners.
-- Try: compare how often red and orange catch the runner; switch evading off and watch the count climb.
local M = { world = { width = 900, height = 600, edges = "wrap", seed = 3 } }

-- What F1 lists under the program's keys; keypressed and the mouse callbacks below do these.
M.keys = {
  { "e", "the runner's evading on / off" },
  { "r", "hunters back to their corners" },
}

local runner, hunters
local evading = true
local trails = {} -- per vehicle: its last positions, oldest first (a gap where it wrapped or was sent home)
local flashes = {} -- catches: { x, y, t, color }

local function spawn_hunter(world, kind, x, y, color)
  return world:spawn{ kind = kind, x = x, y = y, max_speed = 150, max_force = 450, radius = 9, color = color,
                      data = { home = { x, y }, catches = 0 } }
end

local function send_home(h) h:set_position(h.data.home[1], h.data.home[2]) end

function M.load(world)
  runner = world:spawn{ kind = "runner", x = 450, y = 300, max_speed = 120, max_force = 250, radius = 8,
                        color = { 120, 200, 255 } }
  hunters = { spawn_hunter(world, "pursuer", 100, 100, { 230, 70, 60 }),
              spawn_hunter(world, "seeker", 100, 500, { 250, 160, 60 }) }
  hunters[1]:pursue(runner)
  hunters[2]:seek(runner)
  runner:wander{ radius = 30, distance = 60, jitter = 80 }
  evading = true
  trails, flashes = {}, {}
  M.hunters = hunters
end

-- The runner has one evade slot: each step it is aimed at the nearer hunter. A catch is counted
-- and the catcher goes back to its corner.
local function nearer_hunter()
  local a, b = hunters[1], hunters[2]
  local da = (a.x - runner.x) ^ 2 + (a.y - runner.y) ^ 2
  local db = (b.x - runner.x) ^ 2 + (b.y - runner.y) ^ 2
  return db < da and b or a
end

function M.update()
  if evading then runner:evade(nearer_hunter(), { threat_range = 150, weight = 2 }) end
  for _, h in ipairs(hunters) do
    local dx, dy = h.x - runner.x, h.y - runner.y
    if dx * dx + dy * dy < (h.radius + runner.radius) ^ 2 then
      h.data.catches = h.data.catches + 1
      flashes[#flashes + 1] = { runner.x, runner.y, h.world.time, h.color }
      send_home(h)
    end
  end
  local world = runner.world
  if world.step_count % 3 == 0 then
    for _, v in ipairs{ runner, hunters[1], hunters[2] } do
      local t = trails[v.id] or {}
      trails[v.id] = t
      t[#t + 1] = { v.x, v.y }
      if #t > 50 then table.remove(t, 1) end
    end
  end
  while flashes[1] and world.time - flashes[1][3] > 1 do table.remove(flashes, 1) end
end

-- A hot reload runs this file again, so its locals start afresh: pick the run back up from the
-- world (the vehicles and their v.data survive).
function M.reload(world)
  trails, flashes = {}, {}
  runner = world:vehicles("runner")[1]
  hunters = { world:vehicles("pursuer")[1], world:vehicles("seeker")[1] }
  M.hunters = hunters
end

function M.keypressed(key)
  if key == "e" then
    evading = not evading
    if not evading then runner:stop("evade") end
  elseif key == "r" then
    for _, h in ipairs(hunters) do send_home(h) end
  end
end

-- Each hunter's line goes to the point it steered for in the last step: orange's to the runner,
-- red's to the dot ahead of it, where pursuit predicts the runner will be.
local function draw_trail(gfx, v)
  local t, c = trails[v.id] or {}, v.color
  for i = 2, #t do
    local a, b = t[i - 1], t[i]
    if math.abs(a[1] - b[1]) < 60 and math.abs(a[2] - b[2]) < 60 then -- (no line across a wrap or a jump home)
      gfx.line(a[1], a[2], b[1], b[2], { c[1], c[2], c[3], 40 + 3 * i })
    end
  end
end

function M.draw(gfx)
  local red, orange = hunters[1], hunters[2]
  for _, v in ipairs{ runner, red, orange } do draw_trail(gfx, v) end
  local aim = (red:forces().pursue or {}).target
  local ax, ay = runner.x, runner.y
  if aim then ax, ay = aim[1], aim[2] end
  gfx.line(red.x, red.y, ax, ay, { 230, 70, 60, 110 })
  gfx.circle(ax, ay, 4, { 230, 70, 60, 200 }, true)
  gfx.line(orange.x, orange.y, runner.x, runner.y, { 250, 160, 60, 90 })
  if evading then gfx.circle(runner.x, runner.y, 150, { 120, 200, 255, 60 }) end
  gfx.text(red.x, red.y + 14, "pursue", red.color, "center")
  gfx.text(orange.x, orange.y + 14, "seek", orange.color, "center")
  gfx.text(runner.x, runner.y + 14, evading and "runner: evades" or "runner", runner.color, "center")
  local now = runner.world.time
  for _, f in ipairs(flashes) do -- a catch: a ring that widens and fades, "+1" rising
    local age = now - f[3]
    local alpha = math.max(0, math.min(255, math.floor(255 * (1 - age))))
    gfx.circle(f[1], f[2], 10 + 40 * age, { f[4][1], f[4][2], f[4][3], alpha })
    gfx.text(f[1], f[2] - 24 - 20 * age, "caught! +1", { f[4][1], f[4][2], f[4][3], alpha }, "center")
  end
  gfx.hud(("catches: pursuer (red) %d   seeker (orange) %d   evading %s"):format(hunters[1].data.catches,
    hunters[2].data.catches, evading and "on" or "off"))
  gfx.hud("red's dot: where pursuit predicts the runner will be   blue circle: the runner's threat range (150)")
end

return M
