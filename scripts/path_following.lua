-- Path following: blue vehicles set off along an open path one after another and arrive at its end; green ones loop.
-- Keys: r sends the blue ones back to the start of their path (they set off again 3 s apart).
-- Try: watch the blue ones slow down into the last point and stop; the green ones never skip a waypoint.
local M = { world = { width = 1000, height = 650, edges = "none", seed = 6 } }

-- What F1 lists under the program's keys; keypressed and the mouse callbacks below do these.
M.keys = {
  { "r", "blue ones back to the start of their path" },
}

M.open_points = { { 80, 560 }, { 220, 420 }, { 160, 250 }, { 320, 110 }, { 480, 230 }, { 440, 420 }, { 560, 560 } }
M.loop_points = { { 650, 120 }, { 900, 110 }, { 940, 320 }, { 880, 560 }, { 700, 520 }, { 760, 330 } }
M.WAYPOINT = 20

-- Followers steer by seeking the next waypoint, so at a corner they swing out by about speed^2 / force:
-- a max_force of 600 keeps the fastest (170) within the waypoint radius of the path (300 let it out 40).
M.FORCE = 600
M.STAGGER = 3 -- s between the blue ones setting off (the fastest first)

local open_path, loop_path
local followers = {}

local trails = {} -- per vehicle id: its last positions, oldest first

-- Puts v on the path's first point; it sets off `delay` seconds from now (M.update starts it).
local function start(v, path, points, delay)
  v:set_position(points[1][1], points[1][2])
  v:set_velocity(0, 0)
  v.data.visits = {}
  v.data.path = path
  v.data.spreading, v.data.parked = false, false
  v.data.sets_off = v.world.time + (delay or 0)
  trails[v.id] = {}
  -- off first: calling follow on a vehicle already following keeps its current waypoint (as every
  -- behaviour keeps its state), and a restarted one would drive from waypoint 1 straight to it
  v:stop("separate"):stop("follow")
end

function M.load(world)
  open_path = world:path(M.open_points)
  local loop = { loop = true }
  for i, p in ipairs(M.loop_points) do loop[i] = p end
  loop_path = world:path(loop)
  followers = {}
  for i = 1, 3 do
    local v = world:spawn{ kind = "open", x = 0, y = 0, max_speed = 110 + 20 * i, max_force = M.FORCE, radius = 7,
                           neighbor_radius = 16,
                           color = { 120, 200, 255 } }
    start(v, open_path, M.open_points, (3 - i) * M.STAGGER)
    followers[#followers + 1] = { v = v, points = M.open_points }
  end
  for i = 1, 3 do
    local v = world:spawn{ kind = "loop", x = 0, y = 0, max_speed = 100 + 20 * i, max_force = M.FORCE, radius = 7,
                           color = { 150, 230, 130 } }
    start(v, loop_path, M.loop_points)
    followers[#followers + 1] = { v = v, points = M.loop_points }
  end
  M.followers = followers
end

-- Records, per vehicle, the waypoints it passes within the waypoint radius, in order (v.data.visits).
-- The blue ones all stop on the open path's last point: near it they start keeping apart, so they
-- end side by side, not stacked into what looks like one vehicle (not before: they all begin on the
-- first point, where separation would burst them off the path). Arrive and separation would then
-- nudge each other for ever, so one that has all but stopped parks (no behaviour, no speed) and the
-- others keep apart from it.
function M.update(world)
  local last = M.open_points[#M.open_points]
  for _, f in ipairs(followers) do
    local v, visits = f.v, f.v.data.visits
    if v.data.sets_off and world.time >= v.data.sets_off then
      v.data.sets_off = nil
      v:follow(v.data.path, { waypoint_radius = M.WAYPOINT, slowing_radius = 60 })
    end
    if world.step_count % 3 == 0 and not v.data.parked and not v.data.sets_off then
      local t = trails[v.id] or {}
      trails[v.id] = t
      t[#t + 1] = { v.x, v.y }
      if #t > 40 then table.remove(t, 1) end
    end
    local d2 = (v.x - last[1]) ^ 2 + (v.y - last[2]) ^ 2
    if v.kind == "open" and not v.data.parked then
      if v.data.spreading and d2 < M.WAYPOINT ^ 2 and v.speed < 2 then
        v:stop()
        v:set_velocity(0, 0)
        v.data.parked = true
      elseif not v.data.spreading and d2 < 60 ^ 2 then
        v:separate{ weight = 2 }
        v.data.spreading = true
      end
    end
    for i, p in ipairs(f.points) do
      if (v.x - p[1]) ^ 2 + (v.y - p[2]) ^ 2 <= M.WAYPOINT ^ 2 and visits[#visits] ~= i then
        visits[#visits + 1] = i
      end
    end
  end
end

-- A hot reload runs this file again, so its locals start afresh: pick the run back up from the
-- world (the vehicles and their v.data survive).
function M.reload(world)
  followers = {}
  for _, v in ipairs(world:vehicles()) do
    local points = v.kind == "open" and M.open_points or M.loop_points
    if v.kind == "open" then open_path = v.data.path else loop_path = v.data.path end
    followers[#followers + 1] = { v = v, points = points }
  end
  M.followers = followers
end

function M.keypressed(key)
  if key == "r" then
    local n = 0
    for _, f in ipairs(followers) do
      if f.points == M.open_points then
        start(f.v, open_path, M.open_points, n * M.STAGGER)
        n = n + 1
      end
    end
  end
end

local function draw_path(gfx, points, loop, color)
  for i = 1, #points - (loop and 0 or 1) do
    local a, b = points[i], points[i % #points + 1]
    gfx.line(a[1], a[2], b[1], b[2], color)
  end
  for i, p in ipairs(points) do
    gfx.circle(p[1], p[2], M.WAYPOINT, color)
    gfx.text(p[1] + 14, p[2] - 22, tostring(i), color)
  end
end

function M.draw(gfx)
  draw_path(gfx, M.open_points, false, { 120, 200, 255, 140 })
  draw_path(gfx, M.loop_points, true, { 150, 230, 130, 140 })
  for _, f in ipairs(followers) do -- each one's last 2 s: how it swings round the corners
    local t, c = trails[f.v.id] or {}, f.v.color
    for i = 2, #t do gfx.line(t[i - 1][1], t[i - 1][2], t[i][1], t[i][2], { c[1], c[2], c[3], 40 + 5 * i }) end
  end
  local first, last = M.open_points[1], M.open_points[#M.open_points]
  gfx.text(first[1], first[2] + 26, "start", { 120, 200, 255 }, "center")
  gfx.text(last[1], last[2] + 26, "end: slows in and stops", { 120, 200, 255 }, "center")
  gfx.text(845, 380, "round and round", { 150, 230, 130 }, "center") -- (inside the loop)
  gfx.hud("blue: open path, set off 3 s apart (arrive at the end; r: again)    green: looped path")
end

return M
