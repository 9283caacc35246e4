-- SPDX-License-Identifier: MIT
-- Queueing: a crowd lines up in a funnel, files along a corridor one vehicle wide and out by its door.
-- Keys: q toggles queueing (without it they press into the funnel and jostle); r sends everyone back.
-- Try: count how long the crowd takes with and without queueing (the HUD times it); watch the line's headings.
local M = { world = { width = 1000, height = 600, edges = "contain", seed = 11 } }

-- What F1 lists under the program's keys; keypressed and the mouse callbacks below do these.
M.keys = {
  { "q", "queueing on / off (off: they press on the door)" },
  { "r", "everyone back to the start" },
}

M.DOOR = { x = 500, y = 300, half = 14 }  -- a gap 28 units wide in a wall at x = 500
-- A funnel narrows to a corridor as wide as the door, CORRIDOR units long before it: the crowd
-- gathers in the funnel's mouth and goes on in single file.
M.CORRIDOR = 180
M.FUNNEL = { x = 200, half = 200 }        -- the funnel's mouth: at x = 200, 400 units wide
M.COUNT = 40
M.RADIUS = 6
-- Nobody overlaps and nobody walks into a wall: reciprocal avoidance (orca) keeps every velocity
-- safe against the others and the walls; it may change a velocity by up to max_force / mass per
-- second. Queueing brakes behind whoever is ahead, and keeps a vehicle nearly at rest facing the
-- way it goes (heading_smoothing), so that the crowd at the door looks like a queue.
M.TUNE = { speed = 60, force = 3600, response_time = 0.1, ahead = 22, queue_radius = 9, braking = 0.8,
           horizon = 1, range = 40, smoothing = 0.5 }

local queueing = true
local crowd = {}
local done_at, started_at, the_world

local function head_for_door(v)
  v.data.through, v.data.place = false, nil
  v:stop("arrive")
  v:seek(M.DOOR.x + 30, M.DOOR.y, { priority = 3 })
  local t = M.TUNE
  if queueing then v:queue{ ahead = t.ahead, radius = t.queue_radius, braking = t.braking, priority = 2 } end
  v:orca{ horizon = t.horizon, obstacle_horizon = t.horizon / 2, range = t.range, max_neighbors = 8,
          heading_smoothing = queueing and t.smoothing or 0 }
end

-- With queueing on, those not yet in the corridor line up on the funnel's middle line: the one
-- nearest the corridor first, each SPACING behind the one before, as far as the funnel's mouth;
-- the rest wait where they are. Places are handed out again six times a second, so the line moves up
-- as its head goes in.
M.SPACING = 20
local function line_up(world)
  local d = M.DOOR
  local entry = d.x - M.CORRIDOR
  local waiting = {}
  for i, v in ipairs(crowd) do
    if not v.data.through and v.x < entry - 2 then waiting[#waiting + 1] = { v = v, i = i } end
    if not v.data.through and v.x >= entry - 2 and v.data.place then head_for_door(v) end
  end
  table.sort(waiting, function(a, b) if a.v.x ~= b.v.x then return a.v.x > b.v.x end return a.i < b.i end)
  for k, w in ipairs(waiting) do
    local v, x = w.v, entry - 4 - M.SPACING * (k - 1)
    if x < 40 then x = nil end
    local place = x and ("%d"):format(x) or "wait"
    if v.data.place ~= place then
      v.data.place = place
      -- the line keeps its own order: no braking behind whoever the heading points at (a vehicle
      -- that stepped sideways into the line would brake for its neighbour in it)
      v:stop("seek", "queue", "arrive")
      if x then
        -- the head of the line goes on into the corridor; the others to their places
        if k == 1 then
          v:seek(d.x + 30, d.y, { priority = 3 })
        else
          v:arrive(x, d.y, { slowing_radius = 15, priority = 3 })
        end
      else
        v:arrive(v.x, v.y, { slowing_radius = 10, priority = 3 })
      end
    end
  end
end

-- Once through, each goes to its own place in a grid on the far side, so the door stays free.
local function go_to_slot(v, i)
  v.data.through = true
  v:stop("seek")
  v:stop("queue")
  local col, row = (i - 1) % 8, (i - 1) // 8
  v:arrive(600 + col * 45, 160 + row * 70, { slowing_radius = 40, priority = 3 })
end

local function start(world)
  done_at, started_at = nil, world.time
  for i, v in ipairs(crowd) do
    v:set_position(30 + (i - 1) % 5 * 36 + world:random(-4, 4), 130 + (i - 1) // 5 * 48)
    head_for_door(v)
  end
end

function M.load(world)
  queueing, crowd, the_world = true, {}, world
  local d, f = M.DOOR, M.FUNNEL
  local cx = d.x - M.CORRIDOR -- where the corridor starts
  world:wall{ x1 = d.x, y1 = 0, x2 = d.x, y2 = d.y - d.half }
  world:wall{ x1 = d.x, y1 = d.y + d.half, x2 = d.x, y2 = 600 }
  world:wall{ x1 = cx, y1 = d.y - d.half, x2 = d.x, y2 = d.y - d.half }
  world:wall{ x1 = cx, y1 = d.y + d.half, x2 = d.x, y2 = d.y + d.half }
  world:wall{ x1 = f.x, y1 = d.y - f.half, x2 = cx, y2 = d.y - d.half }
  world:wall{ x1 = f.x, y1 = d.y + f.half, x2 = cx, y2 = d.y + d.half }
  for i = 1, M.COUNT do
    local t = M.TUNE
    crowd[i] = world:spawn{ kind = "walker", x = 0, y = 0, heading = 0, max_speed = t.speed, max_force = t.force,
                            response_time = t.response_time, radius = M.RADIUS, neighbor_radius = t.range,
                            combine = "priority", color = { 120, 200, 255 } }
  end
  start(world)
  M.crowd = crowd
end

function M.update(world)
  if queueing and world.step_count % 10 == 0 then line_up(world) end
  local all = true
  for i, v in ipairs(crowd) do
    if not v.data.through and v.x > M.DOOR.x + 15 then go_to_slot(v, i) end
    all = all and v.data.through
  end
  if all and not done_at then done_at = world.time - started_at end
  M.done_at = done_at
end

-- A hot reload runs this file again, so its locals start afresh: pick the run back up from the
-- world (the vehicles and their v.data survive).
function M.reload(world)
  the_world, crowd, started_at = world, world:vehicles("walker"), world.time
  M.crowd = crowd
end

function M.keypressed(key)
  if key == "q" then
    queueing = not queueing
    for _, v in ipairs(crowd) do if not v.data.through then head_for_door(v) end end
  elseif key == "r" then
    start(the_world)
  end
end

function M.draw(gfx)
  local through = 0
  for _, v in ipairs(crowd) do if v.data.through then through = through + 1 end end
  gfx.hud(("queueing %s (q)   through the door %d / %d%s"):format(queueing and "on" or "off", through, #crowd,
    done_at and ("   all through after %.1f s"):format(done_at) or ""))
end

return M
