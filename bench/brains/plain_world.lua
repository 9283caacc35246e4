-- SPDX-License-Identifier: MIT
-- bench/brains/plain_world.lua - the hunter/prey game without steer: what a LÖVE user writes in
-- plain Lua (LuaJIT) when they do it all themselves. Vehicles are tables; one spatial hash (a grid
-- of 100-unit cells, a counting sort rebuilt each step) answers the flocking neighbours and the brains' closest
-- queries; seek, flee, pursue, evade, arrive, wander and flock are Buckland's formulas in Lua. Its
-- API is the slice of steer's that bench/brains/hunt_10k.lua and scripts/lib/fsm.lua use, so that
-- the very same brains run on it (bench/brains/jit_game.lua): the baseline of `make bench-brains`
-- under LuaJIT. Not a steer module: no checks, no determinism across thread counts, no events.
local sqrt, floor, cos, sin, random = math.sqrt, math.floor, math.cos, math.sin, math.random

local plain = {}

local CELL = 100

local World = {}
World.__index = World

local Vehicle = {}
Vehicle.__index = Vehicle

function plain.world(opts)
  opts = opts or {}
  local w = setmetatable({
    width = opts.width or 800, height = opts.height or 600, wrap = opts.edges == "wrap",
    dt = 1 / 60, time = 0, step_count = 0, think_hz = opts.think_hz or 10,
    vehicles = {}, ids = 0, dirty = true, -- dirty: vehicles moved (or came) since the sort
  }, World)
  w.cols = math.max(1, floor(w.width / CELL))
  w.rows = math.max(1, floor(w.height / CELL))
  w.cw, w.ch = w.width / w.cols, w.height / w.rows
  w.counts, w.start, w.sorted = {}, {}, {}
  w.px, w.py, w.pk, w.phx, w.phy = {}, {}, {}, {}, {}
  if opts.seed then math.randomseed(opts.seed) end
  return w
end

function World:random(m, n)
  if m == nil then return random() end
  return random(m, n)
end

function World:count(kind)
  if kind == nil then return #self.vehicles end
  local n = 0
  for _, v in ipairs(self.vehicles) do if v.kind == kind then n = n + 1 end end
  return n
end

function World:spawn(o)
  self.ids = self.ids + 1
  -- What neighbours read (position, heading, kind) in a small table, the steering state in a
  -- table of its own: a neighbour scan touches a few cache lines per vehicle, not a big hash part.
  -- Every field is set here, none added later: tables built alike share one layout, which keeps
  -- LuaJIT's field guards passing (a field added later, or a nil here, would not).
  local v = setmetatable({
    world = self, id = self.ids, kind = o.kind or "vehicle", x = o.x or self.width / 2, y = o.y or self.height / 2,
    vx = 0, vy = 0, hx = 1, hy = 0, max_speed = o.max_speed or 100, data = {}, alive_ = true, last = false,
    cell = 1, state = false, brain = false,
    b = {
      max_force = o.max_force or 300, mass = 1, neighbor_radius = o.neighbor_radius or 50, fx = 0, fy = 0,
      wander_on = false, wr = 20, wd = 40, wj = 60, wtx = 1, wty = 0, -- (flock wanders too: these at first)
      pursue_t = false, evade_t = false, evade_w = 1, arrive_on = false, ax = 0, ay = 0, flock_on = false,
    },
  }, Vehicle)
  local theta = random() * 2 * math.pi
  v.b.wtx, v.b.wty = cos(theta), sin(theta)
  self.vehicles[#self.vehicles + 1] = v
  self.dirty = true
  return v
end

-- ---- The spatial hash ---------------------------------------------------------------------------
local function cell_of(w, x, y)
  local cx = floor(x / w.cw)
  local cy = floor(y / w.ch)
  if cx < 0 then cx = 0 elseif cx >= w.cols then cx = w.cols - 1 end
  if cy < 0 then cy = 0 elseif cy >= w.rows then cy = w.rows - 1 end
  return cx, cy
end

-- A counting sort by cell: `sorted` holds the vehicles cell after cell, cell c's from start[c] to
-- start[c + 1] - 1, so that a row of cells is one run of the array (one loop, not one per cell),
-- and px, py, pk, phx, phy their positions, kinds and headings in the same order: a scan reads
-- arrays, not a table per candidate.
local function rebuild(w)
  w.dirty = false
  local count, start, sorted, vs, cols = w.counts, w.start, w.sorted, w.vehicles, w.cols
  local ncells = w.cols * w.rows
  for c = 1, ncells + 1 do count[c] = 0 end
  for i = 1, #vs do
    local v = vs[i]
    local cx, cy = cell_of(w, v.x, v.y)
    local c = cy * cols + cx + 1
    v.cell = c
    count[c] = count[c] + 1
  end
  local at = 1
  for c = 1, ncells + 1 do
    start[c] = at
    at = at + count[c]
    count[c] = start[c]
  end
  local px, py, pk, phx, phy = w.px, w.py, w.pk, w.phx, w.phy
  for i = 1, #vs do
    local v = vs[i]
    local c = v.cell
    local k = count[c]
    sorted[k], px[k], py[k], pk[k], phx[k], phy[k] = v, v.x, v.y, v.kind, v.hx, v.hy
    count[c] = k + 1
  end
end

-- The shortest offset from a to b on a wrapping axis of length size.
local function delta(a, b, size, wrap)
  local d = b - a
  if wrap then
    if d > size / 2 then d = d - size elseif d < -size / 2 then d = d + size end
  end
  return d
end

-- The cells within r of (x, y): their range of columns and rows (wrapped later), clamped so that
-- no cell is visited twice.
local function cell_span(w, x, y, r)
  local cx, cy = cell_of(w, x, y)
  local rx, ry = math.ceil(r / w.cw), math.ceil(r / w.ch)
  if rx * 2 + 1 > w.cols then rx = floor((w.cols - 1) / 2) end
  if ry * 2 + 1 > w.rows then ry = floor((w.rows - 1) / 2) end
  return cx - rx, cx + rx, cy - ry, cy + ry
end

-- Every run of `sorted` that holds the cells within the span (cell_span) around a point, each with
-- the shift that brings its vehicles next to the point across a wrapped edge: scan(a, b, xs, ys)
-- for the vehicles sorted[a .. b - 1]. Off a world that does not wrap, the span is clamped.
local function each_run(w, i0, i1, j0, j1, scan)
  local cols, rows, start, wrap, width, height = w.cols, w.rows, w.start, w.wrap, w.width, w.height
  if not wrap then
    if i0 < 0 then i0 = 0 end
    if i1 >= cols then i1 = cols - 1 end
    if j0 < 0 then j0 = 0 end
    if j1 >= rows then j1 = rows - 1 end
  end
  local lo, hi = i0 < 0 and 0 or i0, i1 >= cols and cols - 1 or i1
  for j = j0, j1 do
    local jj, ys = j, 0
    if j < 0 then jj, ys = j + rows, -height elseif j >= rows then jj, ys = j - rows, height end
    local base = jj * cols + 1
    scan(start[base + lo], start[base + hi + 1], 0, ys)
    if i0 < 0 then scan(start[base + cols + i0], start[base + cols], -width, ys) end
    if i1 >= cols then scan(start[base], start[base + i1 - cols + 1], width, ys) end
  end
end

-- closest: the state of one query (a query runs to its end before the next begins)
local q_v, q_kind, q_x, q_y, q_best, q_d2
local function closest_scan(a, b, xs, ys)
  local w = q_v.world
  local sorted, px, py, pk = w.sorted, w.px, w.py, w.pk
  local x, y = q_x - xs, q_y - ys
  for k = a, b - 1 do
    if pk[k] == q_kind then
      local dx, dy = px[k] - x, py[k] - y
      local d2 = dx * dx + dy * dy
      if d2 <= q_d2 and sorted[k] ~= q_v then q_best, q_d2 = sorted[k], d2 end
    end
  end
end

function World:closest(v, kind, range)
  if self.dirty then rebuild(self) end
  range = range or 1e9
  q_v, q_kind, q_x, q_y, q_best, q_d2 = v, kind, v.x, v.y, nil, range * range
  local i0, i1, j0, j1 = cell_span(self, v.x, v.y, range)
  each_run(self, i0, i1, j0, j1, closest_scan)
  local best = q_best
  q_v, q_best = nil, nil
  return best
end

-- ---- Behaviours ---------------------------------------------------------------------------------
function Vehicle:alive() return self.alive_ end
function Vehicle:wander(o)
  self.b.wander_on, self.b.wr, self.b.wd, self.b.wj = true, o.radius or 20, o.distance or 40, o.jitter or 60
  return self
end
function Vehicle:pursue(t) self.b.pursue_t = t or false return self end
function Vehicle:evade(t, o)
  self.b.evade_t, self.b.evade_w = t or false, o and o.weight or 1
  return self
end
function Vehicle:arrive(x, y)
  self.b.arrive_on, self.b.ax, self.b.ay = true, x, y
  return self
end
function Vehicle:flock() self.b.flock_on = true return self end
function Vehicle:stop(name)
  if name == "wander" then self.b.wander_on = false
  elseif name == "pursue" then self.b.pursue_t = false
  elseif name == "evade" then self.b.evade_t = false
  elseif name == "arrive" then self.b.arrive_on = false
  elseif name == "flock" then self.b.flock_on = false end
  return self
end

-- mass * (desired - velocity) / response_time, desired full speed along (dx, dy)
local RESPONSE = 0.25
local function seek_force(v, dx, dy)
  local d = sqrt(dx * dx + dy * dy)
  if d < 1e-9 then return 0, 0 end
  local k = v.b.mass / RESPONSE
  return (dx / d * v.max_speed - v.vx) * k, (dy / d * v.max_speed - v.vy) * k
end

local function wander_force(v, w, dt)
  local j = v.b.wj * dt
  local tx, ty = v.b.wtx + (random() * 2 - 1) * j, v.b.wty + (random() * 2 - 1) * j
  local l = sqrt(tx * tx + ty * ty)
  tx, ty = tx / l * v.b.wr, ty / l * v.b.wr
  v.b.wtx, v.b.wty = tx, ty
  local lx, ly = tx + v.b.wd, ty -- in local space: ahead by wd
  return v.hx * lx - v.hy * ly, v.hy * lx + v.hx * ly
end

local function predict(v, t)
  local w = v.world
  local dx, dy = delta(v.x, t.x, w.width, w.wrap), delta(v.y, t.y, w.height, w.wrap)
  local d = sqrt(dx * dx + dy * dy)
  local ahead = d / (v.max_speed + sqrt(t.vx * t.vx + t.vy * t.vy))
  return dx + t.vx * ahead, dy + t.vy * ahead
end

-- separation, alignment and cohesion with the neighbours of its kind, plus a little wander
-- flocking: the sums of one vehicle's neighbourhood
local f_v, f_x, f_y, f_r2, sx, sy, ax, ay, cx, cy, fn
local function flock_scan(a, b, xs, ys)
  local w, kind = f_v.world, f_v.kind
  local px, py, pk, phx, phy = w.px, w.py, w.pk, w.phx, w.phy
  local x, y = f_x - xs, f_y - ys
  for k = a, b - 1 do
    if pk[k] == kind then
      local dx, dy = px[k] - x, py[k] - y
      local d2 = dx * dx + dy * dy
      if d2 <= f_r2 and d2 > 0 then -- (itself: d2 = 0)
        sx, sy = sx - dx / d2, sy - dy / d2
        ax, ay = ax + phx[k], ay + phy[k]
        cx, cy = cx + dx, cy + dy
        fn = fn + 1
      end
    end
  end
end

local function flock_force(v)
  local r = v.b.neighbor_radius
  f_v, f_x, f_y, f_r2, sx, sy, ax, ay, cx, cy, fn = v, v.x, v.y, r * r, 0, 0, 0, 0, 0, 0, 0
  local i0, i1, j0, j1 = cell_span(v.world, v.x, v.y, r)
  each_run(v.world, i0, i1, j0, j1, flock_scan)
  f_v = nil
  local n = fn
  if n == 0 then return 0, 0 end
  -- steer's formulas (src/core/flock_formulas.h), weighted as its flock's defaults: the push
  -- A = mass * max_speed / response_time; separation A * R/4 * sum(r / |r|^2), alignment
  -- A * (mean heading - heading), cohesion A * (mean offset) / R
  local push = v.b.mass * v.max_speed / RESPONSE
  local fx = 1.5 * push * 0.25 * r * sx + 1.0 * push * (ax / n - v.hx) + 1.0 * push * (cx / n) / r
  local fy = 1.5 * push * 0.25 * r * sy + 1.0 * push * (ay / n - v.hy) + 1.0 * push * (cy / n) / r
  return fx, fy
end

function World:step()
  local dt = self.dt
  if self.dirty then rebuild(self) end
  local vs = self.vehicles
  local width, height, wrap = self.width, self.height, self.wrap
  for i = 1, #vs do
    local v = vs[i]
    local fx, fy = 0, 0
    if v.b.wander_on then
      local x, y = wander_force(v, self, dt)
      fx, fy = fx + x, fy + y
    end
    if v.b.pursue_t and v.b.pursue_t.alive_ then
      local x, y = seek_force(v, predict(v, v.b.pursue_t))
      fx, fy = fx + x, fy + y
    end
    if v.b.evade_t and v.b.evade_t.alive_ then
      local px, py = predict(v, v.b.evade_t)
      local x, y = seek_force(v, -px, -py)
      fx, fy = fx + x * v.b.evade_w, fy + y * v.b.evade_w
    end
    if v.b.arrive_on then
      local dx, dy = delta(v.x, v.b.ax, width, wrap), delta(v.y, v.b.ay, height, wrap)
      local d = sqrt(dx * dx + dy * dy)
      if d > 1e-9 then
        local speed = math.min(v.max_speed, d / 0.3)
        fx, fy = fx + (dx / d * speed - v.vx) / RESPONSE, fy + (dy / d * speed - v.vy) / RESPONSE
      end
    end
    if v.b.flock_on then
      local x, y = flock_force(v)
      local wx, wy = wander_force(v, self, dt)
      fx, fy = fx + x + wx * 0.3, fy + y + wy * 0.3
    end
    v.b.fx, v.b.fy = fx, fy
  end
  for i = 1, #vs do
    local v = vs[i]
    local fx, fy = v.b.fx, v.b.fy
    local f = sqrt(fx * fx + fy * fy)
    if f > v.b.max_force then fx, fy = fx / f * v.b.max_force, fy / f * v.b.max_force end
    local vx, vy = v.vx + fx / v.b.mass * dt, v.vy + fy / v.b.mass * dt
    local s = sqrt(vx * vx + vy * vy)
    if s > v.max_speed then vx, vy, s = vx / s * v.max_speed, vy / s * v.max_speed, v.max_speed end
    v.vx, v.vy = vx, vy
    if s > 1e-9 then v.hx, v.hy = vx / s, vy / s end
    local x, y = v.x + vx * dt, v.y + vy * dt
    if wrap then
      x, y = x % width, y % height
    else
      x, y = math.max(0, math.min(width, x)), math.max(0, math.min(height, y))
    end
    v.x, v.y = x, y
  end
  self.dirty = true
  self.step_count = self.step_count + 1
  self.time = self.time + dt
  return self
end

-- The brains at think_hz, staggered over the steps as steer staggers them (a vehicle thinks when
-- the step count modulo the stride is its number's), each called with the time since its last.
function World:think()
  local stride = math.max(1, floor(1 / (self.dt * self.think_hz) + 0.5))
  local turn = self.step_count % stride
  local now = self.time
  local vs = self.vehicles
  for i = turn + 1, #vs, stride do
    local v = vs[i]
    local brain = v.brain
    if brain then
      local dt = now - (v.last or (now - stride * self.dt))
      v.last = now
      brain.think(v, dt)
    end
  end
  return 0
end

return plain
