-- Hunter and prey: hunters chase the prey they see until out of stamina, then rest; prey evade.
-- Keys: M.keys below, which F1 lists under the program's own (mouse lure, click obstacle, h, p, d, e, c).
-- Try: lure a herd behind an obstacle so the hunters lose sight of it; evading off (e) and the longest survival falls.
local fsm = require "fsm"
local Hunter = require "hunter_prey.hunter"
local Prey = require "hunter_prey.prey"

local M = {}

M.world = { width = 1000, height = 700, edges = "contain", seed = 2 }

-- The player's keys, as the help overlay (F1) lists them under the program's; keypressed and
-- mousepressed below do what they say.
M.keys = {
  { "mouse", "prey within 300 come to the pointer" },
  { "left click", "drop an obstacle (shield the prey)" },
  { "h", "one more hunter" },
  { "p", "five more prey" },
  { "d", "difficulty: easy / normal / hard" },
  { "e", "prey evading on / off" },
  { "c", "clear the obstacles you dropped" },
}

-- Everything a test or a player may want to change, read when the scene loads and while it runs:
-- hunter_prey/config.lua (save it while the scene runs to try other numbers).
M.config = require "hunter_prey.config"

-- The pointer as the last mousemoved callback gave it: there is none before the mouse first moves
-- over the window (nor in headless runs, where steer.mouse() has nothing real to say).
local pointer
function M.mousemoved(x, y) pointer = { x, y } end
local function mouse() if pointer then return pointer[1], pointer[2] end end

-- Where the lure is: the mouse pointer in world coordinates, or nil. Tests replace this.
function M.lure() return mouse() end

local game -- the shared table every brain reads through v.data.game; survives reloads there

local function level() return M.config.levels[M.config.difficulty] end

-- A random point at least `clear` units from every hunter (a few tries, then anywhere).
local function open_spot(world, clear)
  local x, y
  for _ = 1, 20 do
    x, y = world:random(40, world.width - 40), world:random(40, world.height - 40)
    if not world:closest(x, y, "hunter", clear) then break end
  end
  return x, y
end

local function add_prey(world)
  local x, y = open_spot(world, 250)
  Prey.spawn(game, x, y)
end

local function add_hunter(world)
  Hunter.spawn(game, world:random(40, world.width - 40), world:random(40, world.height - 40))
end

local function add_obstacle(world, x, y, r)
  local handle = world:obstacle{ x = x, y = y, radius = r }
  game.obstacles[#game.obstacles + 1] = { x = x, y = y, r = r, handle = handle }
end

function M.load(world)
  local cfg = M.config
  game = { world = world, config = cfg, level = level(), obstacles = {}, caught = 0, longest = 0, lived = 0,
           lure = function() return M.lure() end }
  M.game = game
  for _, o in ipairs(cfg.obstacles) do add_obstacle(world, o.x, o.y, o.r) end
  game.fixed = #game.obstacles
  for _, w in ipairs(cfg.walls) do world:wall{ x1 = w[1], y1 = w[2], x2 = w[3], y2 = w[4] } end
  for _ = 1, cfg.hunters do add_hunter(world) end
  for _ = 1, cfg.prey do add_prey(world) end
end

-- A reload keeps the world and every v.data: pick the shared game table back up from a vehicle.
function M.reload(world)
  for _, v in ipairs(world:vehicles()) do
    if v.data.game then game = v.data.game; M.game = game; break end
  end
  if game then game.config = M.config end
end

-- Catches are checked every physics step (brains think at 10 Hz only): a chasing hunter touching a
-- prey eats it; the prey is counted and a new one appears away from the hunters.
function M.update(world)
  fsm.update(world)
  for _, h in ipairs(world:vehicles("hunter")) do
    if h.state == "chase" then
      local p = world:closest(h, "prey", h.radius + 6 + 2)
      if p then
        local age = world.time - p.data.born
        game.caught = game.caught + 1
        game.lived = game.lived + age -- total lifetime of the caught, for their mean survival
        game.longest = math.max(game.longest, age)
        world:remove(p)
        add_prey(world)
      end
    end
  end
end

local function longest_alive(world)
  local best = game.longest
  for _, p in ipairs(world:vehicles("prey")) do best = math.max(best, world.time - p.data.born) end
  return best
end
M.longest_alive = longest_alive

function M.keypressed(key)
  local world = game.world
  if key == "h" then add_hunter(world)
  elseif key == "p" then for _ = 1, 5 do add_prey(world) end
  elseif key == "e" then M.config.evade = not M.config.evade
  elseif key == "c" then
    for i = #game.obstacles, game.fixed + 1, -1 do
      game.obstacles[i].handle:remove()
      game.obstacles[i] = nil
    end
  elseif key == "d" then
    M.config.difficulty = M.config.difficulty % #M.config.levels + 1
    game.level = level()
    for _, h in ipairs(world:vehicles("hunter")) do
      h.data.stamina = math.min(h.data.stamina, game.level.stamina)
      h.max_speed = game.level.hunter_speed * (h.state == "rest" and 0.35 or 1)
    end
  end
end

function M.mousepressed(x, y, button)
  if button == 1 then add_obstacle(game.world, x, y, 25) end
end

local GREY, RED, GREEN, YELLOW = { 200, 200, 200 }, { 230, 70, 60 }, { 90, 220, 90 }, { 250, 220, 80, 60 }

function M.draw(gfx)
  local world = game.world
  local x, y = M.lure()
  if x then gfx.circle(x, y, M.config.lure_range, YELLOW) end
  for _, h in ipairs(world:vehicles("hunter")) do
    local full = h.data.stamina / game.level.stamina
    for dy = -20, -17 do -- a bar 4 lines thick: grey track, green (red when nearly empty) fill
      gfx.line(h.x - 15, h.y + dy, h.x + 15, h.y + dy, { 70, 70, 70 })
      gfx.line(h.x - 15, h.y + dy, h.x - 15 + 30 * full, h.y + dy, full > 0.25 and GREEN or RED)
    end
    gfx.text(h.x - 15, h.y - 36, h.state or "", RED) -- above the bar: the F7 overlay labels below
  end
  for _, p in ipairs(world:vehicles("prey")) do
    -- only the states worth a glance: lured prey gather at the pointer and their labels would pile up
    if p.state == "evade" or p.state == "alarmed" then gfx.text(p.x - 12, p.y - 24, p.state, GREY) end
  end
  gfx.hud(("prey %d   caught %d   longest survival %.1f s"):format(world:count("prey"), game.caught,
    longest_alive(world)))
  gfx.hud(("hunters %d   difficulty %s   evading %s"):format(world:count("hunter"), game.level.name,
    M.config.evade and "on" or "off"))
end

return M
