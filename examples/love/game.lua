-- game.lua - the hunter/prey simulation, with nothing of LÖVE in it: main.lua plays it in a window,
-- headless.lua runs it in a plain LuaJIT (or Lua 5.4) for the same seed and prints the same
-- summary. Hunters chase the prey they can see until their stamina runs out; prey evade hunters
-- and come to the lure (the mouse) when it is near.
-- The brains and the rules (catches, new prey, difficulty) are the steer program's own
-- (scripts/hunter_prey/): one copy of each in the repository, so the demo and this game cannot
-- drift apart. Whoever requires this file puts the repository's scripts/ and scripts/lib/ on
-- package.path.
local steer = require "steer"
local fsm = require "fsm"
local rules = require "hunter_prey.rules"

local Game = {}
Game.__index = Game

Game.WIDTH, Game.HEIGHT = 1000, 700
Game.DT = 1 / 60 -- the physics step: the world moves by fixed steps whatever the frame rate

-- Where main.lua draws what, in window pixels: the HUD on a panel in its own strip at the top, the
-- world below it inside a margin (so vehicles at its edge are never cut by the window's), with its
-- border drawn. No LÖVE here: tests/lua/love_layout_spec.lua checks it in plain Lua.
Game.VIEW = { margin = 16, hud = 58 }
Game.VIEW.x, Game.VIEW.y = Game.VIEW.margin, Game.VIEW.hud + Game.VIEW.margin
Game.WINDOW_W = Game.WIDTH + 2 * Game.VIEW.margin
Game.WINDOW_H = Game.VIEW.y + Game.HEIGHT + Game.VIEW.margin
--- The HUD panel's rectangle: x, y, w, h.
function Game.hud_box() return 4, 4, Game.WINDOW_W - 8, Game.VIEW.hud - 4 end
--- A window point in world coordinates, and back.
function Game.to_world(x, y) return x - Game.VIEW.x, y - Game.VIEW.y end
function Game.to_screen(x, y) return x + Game.VIEW.x, y + Game.VIEW.y end
--- The debug overlays on at the start: none (a player sees the game first; F2...F8 add them).
function Game.default_overlays() return {} end

-- A game's own settings: a copy of the program's (hunter_prey/config.lua), since a game changes its
-- copy (difficulty, evading) and a window may hold several games over its life.
local function copy(value)
  if type(value) ~= "table" then return value end
  local out = {}
  for k, v in pairs(value) do out[k] = copy(v) end
  return out
end

local function default_config() return copy(require "hunter_prey.config") end

--- A new game on a world seeded with `seed`.
function Game.new(seed)
  local self = setmetatable({}, Game)
  local world = steer.world{ width = Game.WIDTH, height = Game.HEIGHT, edges = "contain", seed = seed or 2,
                             dt = Game.DT }
  -- `shared` is what every brain reads through v.data.game (hunter_prey/rules.lua): it lives in
  -- v.data, so a reload of a brain keeps it
  self.shared = rules.new(world, default_config(), function() return self:lure() end)
  self.world = world
  self.steps = 0
  self.flashes = {} -- the catches of the last FLASH_LIFE seconds: { x, y, t }, for main.lua to draw
  self.shared.on_catch = function(_, x, y) self.flashes[#self.flashes + 1] = { x = x, y = y, t = world.time } end
  rules.populate(self.shared)
  return self
end

Game.FLASH_LIFE = 1 -- s

--- The catches still to be shown, oldest first, each with its age from 0 to 1 (of FLASH_LIFE).
function Game:recent_catches()
  local out = {}
  for _, f in ipairs(self.flashes) do
    out[#out + 1] = { x = f.x, y = f.y, age = (self.world.time - f.t) / Game.FLASH_LIFE }
  end
  return out
end

--- Where the lure is (world coordinates), or nil: main.lua sets it from the mouse.
function Game:lure()
  if self.lure_x then return self.lure_x, self.lure_y end
end

function Game:set_lure(x, y) self.lure_x, self.lure_y = x, y end

function Game:add_prey() return rules.add_prey(self.shared) end
function Game:add_hunter() return rules.add_hunter(self.shared) end
function Game:add_obstacle(x, y, r) rules.add_obstacle(self.shared, x, y, r) end
--- Removes the obstacles the player dropped.
function Game:clear_obstacles() rules.clear_obstacles(self.shared) end
function Game:toggle_evade() self.shared.config.evade = not self.shared.config.evade end
--- Next difficulty level: hunters get its speed and stamina at once.
function Game:next_difficulty() rules.next_difficulty(self.shared) end

--- One physics step: delayed fsm messages, the brains whose turn it is (at w.think_hz), the step,
--- then catches: a chasing hunter touching a prey eats it, and a new prey appears away from the
--- hunters.
function Game:step()
  fsm.update(self.world)
  self.world:think()
  self.world:step()
  self.steps = self.steps + 1
  rules.catch(self.shared)
  while self.flashes[1] and self.world.time - self.flashes[1].t >= Game.FLASH_LIFE do table.remove(self.flashes, 1) end
end

--- The longest a prey has lived so far (caught or alive), seconds.
function Game:longest_alive() return rules.longest_alive(self.shared) end

--- One line that tells two runs apart: counts, catches, and a digest of every position.
function Game:summary()
  local world = self.world
  local sx, sy, edited = 0, 0, 0
  for _, v in ipairs(world:vehicles()) do
    sx, sy = sx + v.x, sy + v.y
    if v.data.edited then edited = edited + 1 end
  end
  return ("steps=%d vehicles=%d hunters=%d prey=%d catches=%d edited=%d digest=%.6f,%.6f"):format(self.steps,
    world:count(), world:count("hunter"), world:count("prey"), self.shared.caught, edited, sx, sy)
end

return Game
