-- SPDX-License-Identifier: MIT
-- Two streams crossing at right angles: one going east, one going south, through the same square.
-- Keys: o toggles reciprocal avoidance (orca; off: separation + avoid_collisions); r starts again.
-- Try: with orca off, watch them overlap where the streams meet; select one (click) to see its half-planes.
local crowd_lib = require "crowd"

local M = { world = { width = 1000, height = 1000, edges = "none", seed = 7 } }

M.keys = {
  { "o", "reciprocal avoidance (orca) on / off" },
  { "r", "start again" },
}

M.PER_STREAM = 70
M.LANES = 5       -- lanes of each stream, 40 apart, around the world's middle
M.RADIUS = 8
M.SPEED = 60
M.EVERY = 0.7     -- s between two vehicles let into the same lane
M.STUCK = 0.05    -- slower than this fraction of max_speed, and not parked: stuck

local orca = true
local crowd = {}
local the_world, crossed, overlaps, longest, released_at

-- lane k (1..LANES) of a stream: its offset across the world's middle
local function lane(k) return (k - (M.LANES + 1) / 2) * 40 end

local function set_up(v)
  v:stop()
  local d = v.data
  if d.east then v:seek(M.world.width + 200, d.y0) else v:seek(d.x0, M.world.height + 200) end
  crowd_lib.avoid(v, orca, M.SPEED)
end

local function moving(v) return not v.data.parked end

-- Out of the way, each at a place of its own, until its lane lets it in.
local function park(v, i)
  v:stop()
  v:set_velocity(0, 0)
  v:set_position(-400 - 30 * (i % 40), -400 - 30 * (i // 40))
  v.data.parked, v.data.still = true, 0
end

local function release(v, k)
  local d, w, h = v.data, M.world.width, M.world.height
  d.parked = false
  if d.east then
    d.y0 = h / 2 + lane(k)
    v:set_position(30, d.y0)
    v:set_velocity(M.SPEED, 0)
  else
    d.x0 = w / 2 + lane(k)
    v:set_position(d.x0, 30)
    v:set_velocity(0, M.SPEED)
  end
  set_up(v)
end

local function start(world)
  crossed, overlaps, longest = 0, 0, 0
  released_at = {}
  for i, v in ipairs(crowd) do park(v, i) end
end

function M.load(world)
  orca, crowd, the_world = true, {}, world
  for i = 1, 2 * M.PER_STREAM do
    local east = i <= M.PER_STREAM
    crowd[i] = world:spawn{ kind = "walker", x = 0, y = 0, radius = M.RADIUS, max_speed = M.SPEED,
                            neighbor_radius = 80, color = east and { 235, 160, 90 } or { 110, 180, 255 } }
    crowd[i].data.east = east
  end
  start(world)
  M.crowd = crowd
end

-- Lets one parked vehicle of a stream into lane k when its entry is clear and the lane's last one
-- went in long enough ago.
local function feed(world, east, k)
  local key = (east and "e" or "s") .. k
  if released_at[key] and world.time - released_at[key] < M.EVERY then return end
  local x, y = 30, 30
  if east then y = world.height / 2 + lane(k) else x = world.width / 2 + lane(k) end
  for _, v in ipairs(crowd) do
    if not v.data.parked then
      local dx, dy = v.x - x, v.y - y
      if dx * dx + dy * dy < (3 * M.RADIUS) ^ 2 then return end
    end
  end
  for _, v in ipairs(crowd) do
    if v.data.parked and v.data.east == east then
      release(v, k)
      released_at[key] = world.time
      return
    end
  end
end

function M.update(world)
  for k = 1, M.LANES do
    feed(world, true, k)
    feed(world, false, k)
  end
  for i, v in ipairs(crowd) do
    local d = v.data
    if not d.parked then
      if (d.east and v.x > world.width - 30) or (not d.east and v.y > world.height - 30) then
        crossed = crossed + 1
        park(v, i)
      else
        d.still = v.speed < M.STUCK * M.SPEED and d.still + world.dt or 0
        if d.still > longest then longest = d.still end
      end
    end
  end
  if crowd_lib.overlapping(world, crowd, M.RADIUS, moving) then overlaps = overlaps + 1 end
  M.crossed, M.overlaps, M.longest_stuck = crossed, overlaps, longest
end

function M.reload(world)
  the_world, crowd = world, world:vehicles("walker")
  M.crowd = crowd
end

function M.keypressed(key)
  if key == "o" then
    orca = not orca
    for _, v in ipairs(crowd) do if not v.data.parked then set_up(v) end end
  elseif key == "r" then
    start(the_world)
  end
end

function M.draw(gfx)
  gfx.hud(("%s (o)   crossed %d   steps with an overlap %d   longest stuck %.1f s"):format(
    orca and "orca" or "separate + avoid_collisions", crossed or 0, overlaps or 0, longest or 0))
end

return M
