-- Flow-field following: a grid of directions (a slow whirlpool around the centre) steers 400 vehicles.
-- Keys: f switches between the whirlpool and a field of curling noise bands.
-- Try: watch the vehicles bunch into streams where the field converges, then press f and watch them re-sort.
local M = { world = { width = 1000, height = 650, edges = "wrap", seed = 13 } }

-- What F1 lists under the program's keys; keypressed and the mouse callbacks below do these.
M.keys = {
  { "f", "whirlpool / curling noise bands" },
}

M.CELL = 40
local COLS, ROWS = 25, 17
local field, the_world
local mode = "whirl"

-- The direction at the centre of cell (c, r) for the current mode (unit vector).
local function direction(c, r)
  local x, y = (c + 0.5) * M.CELL, (r + 0.5) * M.CELL
  local dx, dy
  if mode == "whirl" then
    local ox, oy = x - 500, y - 325
    dx, dy = -oy + 0.3 * ox, ox - 0.3 * oy                     -- tangential with a little outward spiral
    if ox * ox + oy * oy > 280 * 280 then dx, dy = -ox, -oy end  -- far out: back towards the centre
  else
    local a = math.sin(y / 90) * 1.4 + math.cos(x / 140) * 0.6
    dx, dy = math.cos(a), math.sin(a)
  end
  local len = math.sqrt(dx * dx + dy * dy)
  if len == 0 then return 1, 0 end
  return dx / len, dy / len
end

local function fill()
  local vectors = {}
  for r = 0, ROWS - 1 do
    for c = 0, COLS - 1 do
      local dx, dy = direction(c, r)
      vectors[#vectors + 1] = { dx, dy }
    end
  end
  return vectors
end

function M.load(world)
  the_world, mode = world, "whirl"
  field = world:flow_field{ x = 0, y = 0, cell_size = M.CELL, cols = COLS, rows = ROWS, vectors = fill() }
  for _ = 1, 400 do
    local v = world:spawn{ kind = "drifter", x = world:random(0, 1000), y = world:random(0, 650),
                           heading = world:random() * 2 * math.pi, max_speed = 80, max_force = 200, radius = 3,
                           neighbor_radius = 12, color = { 150, 220, 255 }, data = { field = field } }
    v:follow_flow(field, { lookahead = 0.3 })
    -- where the field converges, everyone would end on the same streamline, in single file on top of
    -- one another: keeping a little apart, the stream stays a band of visible vehicles
    v:separate{ weight = 1.5 }
  end
  M.field = field
end

-- Writes the current mode's directions into the field the vehicles follow.
local function refill()
  local vectors = fill()
  for r = 0, ROWS - 1 do
    for c = 0, COLS - 1 do
      local d = vectors[r * COLS + c + 1]
      field:set(c + 1, r + 1, d[1], d[2]) -- the handle counts cells from 1
    end
  end
end

-- A hot reload runs this file again, so its locals start afresh: pick the field back up from a
-- vehicle (v.data survives) and fill it from the direction function as just saved.
function M.reload(world)
  the_world = world
  field = world:vehicles("drifter")[1].data.field
  M.field = field
  refill()
end

function M.keypressed(key)
  if key == "f" then
    mode = mode == "whirl" and "bands" or "whirl"
    refill()
  end
end

-- One arrow per cell, centred on it, its head showing which way the field flows.
local ARROW = { 100, 110, 150 }
local function arrow(gfx, x, y, dx, dy)
  local tx, ty = x + dx * 9, y + dy * 9
  gfx.line(x - dx * 9, y - dy * 9, tx, ty, ARROW)
  gfx.line(tx, ty, tx - dx * 5 - dy * 3.5, ty - dy * 5 + dx * 3.5, ARROW)
  gfx.line(tx, ty, tx - dx * 5 + dy * 3.5, ty - dy * 5 - dx * 3.5, ARROW)
end

function M.draw(gfx)
  for r = 0, ROWS - 1 do
    for c = 0, COLS - 1 do
      local x, y = (c + 0.5) * M.CELL, (r + 0.5) * M.CELL
      local dx, dy = direction(c, r)
      -- (the last row of cells reaches past the world's bottom edge: no arrows out there)
      if y < M.world.height then arrow(gfx, x, y, dx, dy) end
    end
  end
  gfx.hud(("field: %s (f)   %d vehicles"):format(mode, the_world:count("drifter")))
end

return M
