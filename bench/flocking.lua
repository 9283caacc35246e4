-- flocking.lua - the benchmark's flock in plain Lua 5.4: the baseline bench_flocking.c compares
-- the core against. The same model as the core's flock behaviour (separation r/|r|^2, alignment,
-- cohesion, Reynolds wander; forces truncated to max_force; a wrapping square; dt fixed), written
-- the way a Lua game programmer writes a hot loop: one table per boid, a uniform grid of reusable
-- buckets rebuilt each step, locals for everything touched in the loop, no garbage per step.

local sqrt, floor, random, cos, sin, pi = math.sqrt, math.floor, math.random, math.cos, math.sin, math.pi

local MAX_SPEED, MAX_FORCE, MASS, RESPONSE = 100.0, 300.0, 1.0, 0.25
local W_SEPARATION, W_ALIGNMENT, W_COHESION, W_WANDER = 1.5, 1.0, 1.0, 0.3
local WANDER_RADIUS, WANDER_DISTANCE, WANDER_JITTER = 30.0, 60.0, 80.0
local SEPARATION_REACH = 0.25

local Flock = {}

function Flock.new(n, size, radius, seed)
  math.randomseed(seed)
  local cols = floor(size / radius)
  if cols < 1 then cols = 1 end
  local flock = {
    n = n, size = size, half = size / 2, radius = radius,
    cols = cols, cell = size / cols,
    boids = {}, cells = {}, counts = {}, neighbours = 0,
  }
  for c = 1, cols * cols do
    flock.cells[c] = {}
    flock.counts[c] = 0
  end
  for i = 1, n do
    local angle = random() * 2 * pi
    local wander = random() * 2 * pi
    flock.boids[i] = {
      x = random() * size, y = random() * size,
      vx = 50 * cos(angle), vy = 50 * sin(angle),
      hx = cos(angle), hy = sin(angle),
      wx = WANDER_RADIUS * cos(wander), wy = WANDER_RADIUS * sin(wander),
      fx = 0.0, fy = 0.0, cell = 1,
    }
  end
  return flock
end

local function rebuild_grid(flock)
  local cells, counts, boids, cols = flock.cells, flock.counts, flock.boids, flock.cols
  local inv = 1 / flock.cell
  for c = 1, cols * cols do counts[c] = 0 end
  for i = 1, flock.n do
    local b = boids[i]
    local cx, cy = floor(b.x * inv), floor(b.y * inv)
    if cx >= cols then cx = cols - 1 end
    if cy >= cols then cy = cols - 1 end
    local c = cy * cols + cx + 1
    local k = counts[c] + 1
    counts[c] = k
    cells[c][k] = b
  end
end

local function steer(flock, b, dt)
  local cells, counts, cols = flock.cells, flock.counts, flock.cols
  local size, half, radius = flock.size, flock.half, flock.radius
  local r2 = radius * radius
  local x, y = b.x, b.y
  local inv = 1 / flock.cell
  local cx, cy = floor(x * inv), floor(y * inv)
  if cx >= cols then cx = cols - 1 end
  if cy >= cols then cy = cols - 1 end

  local sx, sy, ax, ay, ox, oy, count = 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0
  for dy = -1, 1 do
    local row = (cy + dy) % cols * cols
    for dx = -1, 1 do
      local c = row + (cx + dx) % cols + 1
      local bucket = cells[c]
      for k = 1, counts[c] do
        local o = bucket[k]
        if o ~= b then
          local ddx, ddy = o.x - x, o.y - y
          if ddx > half then ddx = ddx - size elseif ddx < -half then ddx = ddx + size end
          if ddy > half then ddy = ddy - size elseif ddy < -half then ddy = ddy + size end
          local d2 = ddx * ddx + ddy * ddy
          if d2 <= r2 then
            local inv_d2 = 1 / (d2 + 1e-12)
            sx, sy = sx - ddx * inv_d2, sy - ddy * inv_d2
            ax, ay = ax + o.hx, ay + o.hy
            ox, oy = ox + ddx, oy + ddy
            count = count + 1
          end
        end
      end
    end
  end
  flock.neighbours = flock.neighbours + count

  local push = MASS * MAX_SPEED / RESPONSE
  local fx, fy = 0.0, 0.0
  if count > 0 then
    local s = push * SEPARATION_REACH * radius * W_SEPARATION
    local inv_count = 1 / count
    local a = push * W_ALIGNMENT
    local k = push / radius * W_COHESION
    fx = sx * s + (ax * inv_count - b.hx) * a + ox * inv_count * k
    fy = sy * s + (ay * inv_count - b.hy) * a + oy * inv_count * k
  end

  -- Reynolds wander: jitter a point on a circle ahead, seek it.
  local step = WANDER_JITTER * dt
  local wx, wy = b.wx + (random() * 2 - 1) * step, b.wy + (random() * 2 - 1) * step
  local len = sqrt(wx * wx + wy * wy)
  if len > 1e-12 then wx, wy = wx / len * WANDER_RADIUS, wy / len * WANDER_RADIUS else wx, wy = WANDER_RADIUS, 0.0 end
  b.wx, b.wy = wx, wy
  local hx, hy = b.hx, b.hy
  local lx = wx + WANDER_DISTANCE
  local tx, ty = lx * hx - wy * hy, lx * hy + wy * hx -- target relative to the boid
  local tl = sqrt(tx * tx + ty * ty)
  if tl > 1e-12 then tx, ty = tx / tl * MAX_SPEED, ty / tl * MAX_SPEED else tx, ty = 0.0, 0.0 end
  local m = MASS / RESPONSE * W_WANDER
  fx = fx + (tx - b.vx) * m
  fy = fy + (ty - b.vy) * m

  local f2 = fx * fx + fy * fy
  if f2 > MAX_FORCE * MAX_FORCE then
    local s = MAX_FORCE / sqrt(f2)
    fx, fy = fx * s, fy * s
  end
  b.fx, b.fy = fx, fy
end

local function integrate(flock, b, dt)
  local size = flock.size
  local vx, vy = b.vx + b.fx / MASS * dt, b.vy + b.fy / MASS * dt
  local v2 = vx * vx + vy * vy
  if v2 > MAX_SPEED * MAX_SPEED then
    local s = MAX_SPEED / sqrt(v2)
    vx, vy = vx * s, vy * s
    v2 = MAX_SPEED * MAX_SPEED
  end
  b.vx, b.vy = vx, vy
  local x, y = b.x + vx * dt, b.y + vy * dt
  b.x, b.y = x % size, y % size
  if v2 > 1e-6 then
    local speed = sqrt(v2)
    b.hx, b.hy = vx / speed, vy / speed
  end
end

function Flock.step(flock, dt)
  rebuild_grid(flock)
  flock.neighbours = 0
  local boids = flock.boids
  for i = 1, flock.n do steer(flock, boids[i], dt) end
  for i = 1, flock.n do integrate(flock, boids[i], dt) end
end

--- Mean neighbours per boid in the last step, and the polarisation (length of the mean heading).
function Flock.stats(flock)
  local hx, hy = 0.0, 0.0
  for i = 1, flock.n do
    local b = flock.boids[i]
    hx, hy = hx + b.hx, hy + b.hy
  end
  return flock.neighbours / flock.n, sqrt(hx * hx + hy * hy) / flock.n
end

return Flock
