-- game.lua - the hunter/prey simulation, with nothing of LÖVE in it: main.lua plays it in a window,
-- headless.lua runs it in a plain LuaJIT (or Lua 5.4) for the same seed and prints the same
-- summary. Hunters chase the prey they can see until their stamina runs out; prey evade hunters
-- and come to the lure (the mouse) when it is near.
-- The brains are the steer program's own (scripts/hunter_prey/): one copy of each in the repository,
-- so the demo and this game cannot drift apart. Whoever requires this file puts the repository's
-- scripts/ and scripts/lib/ on package.path.
local steer = require "steer"
local fsm = require "fsm"
local Hunter = require "hunter_prey.hunter"
local Prey = require "hunter_prey.prey"

local Game = {}
Game.__index = Game

Game.WIDTH, Game.HEIGHT = 1000, 700
Game.DT = 1 / 60 -- the physics step: the world moves by fixed steps whatever the frame rate

-- A game's own settings: a copy of the program's (hunter_prey/config.lua), since a game changes its
-- copy (difficulty, evading) and a window may hold several games over its life.
local function copy(value)
  if type(value) ~= "table" then return value end
  local out = {}
  for k, v in pairs(value) do out[k] = copy(v) end
  return out
end

local function default_config() return copy(require "hunter_prey.config") end

-- A random point at least `clear` units from every hunter (a few tries, then anywhere).
local function open_spot(world, clear)
  local x, y
  for _ = 1, 20 do
    x, y = world:random(40, world.width - 40), world:random(40, world.height - 40)
    if not world:closest(x, y, "hunter", clear) then break end
  end
  return x, y
end

--- A new game on a world seeded with `seed`.
function Game.new(seed)
  local self = setmetatable({}, Game)
  local world = steer.world{ width = Game.WIDTH, height = Game.HEIGHT, edges = "contain", seed = seed or 2,
                             dt = Game.DT }
  local cfg = default_config()
  -- `shared` is what every brain reads through v.data.game: it lives in v.data, so a reload of a
  -- brain keeps it
  self.shared = { world = world, config = cfg, level = cfg.levels[cfg.difficulty], obstacles = {}, caught = 0,
                  longest = 0, lived = 0, lure = function() return self:lure() end }
  self.world = world
  self.steps = 0
  for _, o in ipairs(cfg.obstacles) do self:add_obstacle(o.x, o.y, o.r) end
  self.fixed = #self.shared.obstacles
  for _, w in ipairs(cfg.walls) do world:wall{ x1 = w[1], y1 = w[2], x2 = w[3], y2 = w[4] } end
  for _ = 1, cfg.hunters do self:add_hunter() end
  for _ = 1, cfg.prey do self:add_prey() end
  return self
end

--- Where the lure is (world coordinates), or nil: main.lua sets it from the mouse.
function Game:lure()
  if self.lure_x then return self.lure_x, self.lure_y end
end

function Game:set_lure(x, y) self.lure_x, self.lure_y = x, y end

function Game:add_prey()
  local x, y = open_spot(self.world, 250)
  return Prey.spawn(self.shared, x, y)
end

function Game:add_hunter()
  local w = self.world
  return Hunter.spawn(self.shared, w:random(40, w.width - 40), w:random(40, w.height - 40))
end

function Game:add_obstacle(x, y, r)
  local handle = self.world:obstacle{ x = x, y = y, radius = r }
  local list = self.shared.obstacles
  list[#list + 1] = { x = x, y = y, r = r, handle = handle }
end

--- Removes the obstacles the player dropped.
function Game:clear_obstacles()
  local list = self.shared.obstacles
  for i = #list, self.fixed + 1, -1 do
    list[i].handle:remove()
    list[i] = nil
  end
end

function Game:toggle_evade() self.shared.config.evade = not self.shared.config.evade end

--- Next difficulty level: hunters get its speed and stamina at once.
function Game:next_difficulty()
  local cfg = self.shared.config
  cfg.difficulty = cfg.difficulty % #cfg.levels + 1
  local level = cfg.levels[cfg.difficulty]
  self.shared.level = level
  for _, h in ipairs(self.world:vehicles("hunter")) do
    h.data.stamina = math.min(h.data.stamina, level.stamina)
    h.max_speed = level.hunter_speed * (h.state == "rest" and 0.35 or 1)
  end
end

--- One physics step: delayed fsm messages, the brains whose turn it is (at w.think_hz), the step,
--- then catches: a chasing hunter touching a prey eats it, and a new prey appears away from the
--- hunters.
function Game:step()
  local world, shared = self.world, self.shared
  fsm.update(world)
  world:think()
  world:step()
  self.steps = self.steps + 1
  for _, h in ipairs(world:vehicles("hunter")) do
    if h.state == "chase" then
      local p = world:closest(h, "prey", h.radius + 6 + 2)
      if p then
        local age = world.time - p.data.born
        shared.caught = shared.caught + 1
        shared.lived = shared.lived + age
        shared.longest = math.max(shared.longest, age)
        world:remove(p)
        self:add_prey()
      end
    end
  end
end

--- The longest a prey has lived so far (caught or alive), seconds.
function Game:longest_alive()
  local best = self.shared.longest
  for _, p in ipairs(self.world:vehicles("prey")) do best = math.max(best, self.world.time - p.data.born) end
  return best
end

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
