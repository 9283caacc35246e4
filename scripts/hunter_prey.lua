-- Hunter and prey: hunters chase the prey they see until out of stamina, then rest; prey evade.
-- Keys: M.keys below, which F1 lists under the program's own (mouse lure, click obstacle, h, p, d, e, c).
-- Try: lure a herd behind an obstacle so the hunters lose sight of it; evading off (e) and the longest survival falls.
local fsm = require "fsm"
local rules = require "hunter_prey.rules"

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

function M.load(world)
  game = rules.new(world, M.config, function() return M.lure() end)
  M.game = game
  rules.populate(game)
end

-- A reload keeps the world and every v.data: pick the shared game table back up from a vehicle.
function M.reload(world)
  for _, v in ipairs(world:vehicles()) do
    if v.data.game then game = v.data.game; M.game = game; break end
  end
  if game then game.config = M.config end
end

function M.update(world)
  fsm.update(world)
  rules.catch(game)
end

function M.longest_alive() return rules.longest_alive(game) end

function M.keypressed(key)
  if key == "h" then rules.add_hunter(game)
  elseif key == "p" then for _ = 1, 5 do rules.add_prey(game) end
  elseif key == "e" then M.config.evade = not M.config.evade
  elseif key == "c" then rules.clear_obstacles(game)
  elseif key == "d" then rules.next_difficulty(game)
  end
end

function M.mousepressed(x, y, button)
  if button == 1 then rules.add_obstacle(game, x, y, 25) end
end

local GREY, RED, GREEN, YELLOW = { 200, 200, 200 }, { 230, 70, 60 }, { 90, 220, 90 }, { 250, 220, 80, 60 }

function M.draw(gfx)
  local world = game.world
  local labels = not gfx.overlay("states") -- with F7 on, its labels already name every state
  local x, y = M.lure()
  if x then gfx.circle(x, y, M.config.lure_range, YELLOW) end
  for _, h in ipairs(world:vehicles("hunter")) do
    local full = h.data.stamina / game.level.stamina
    for dy = -20, -17 do -- a bar 4 lines thick: grey track, green (red when nearly empty) fill
      gfx.line(h.x - 15, h.y + dy, h.x + 15, h.y + dy, { 70, 70, 70 })
      gfx.line(h.x - 15, h.y + dy, h.x - 15 + 30 * full, h.y + dy, full > 0.25 and GREEN or RED)
    end
    if labels then gfx.text(h.x - 15, h.y - 36, h.state or "", RED) end -- above the bar
  end
  for _, p in ipairs(world:vehicles("prey")) do
    -- only the states worth a glance: lured prey gather at the pointer and their labels would pile up
    if labels and (p.state == "evade" or p.state == "alarmed") then gfx.text(p.x - 12, p.y - 24, p.state, GREY) end
  end
  gfx.hud(("prey %d   caught %d   longest survival %.1f s"):format(world:count("prey"), game.caught,
    rules.longest_alive(game)))
  gfx.hud(("hunters %d   difficulty %s   evading %s"):format(world:count("hunter"), game.level.name,
    M.config.evade and "on" or "off"))
end

return M
