-- hunter_prey/rules.lua - the rules of the hunter/prey game that are nobody's brain: the table every
-- brain shares, setting the field, where a new prey appears, catches and the difficulty step. One
-- copy, played by the steer program's scene (scripts/hunter_prey.lua) and by the LÖVE game
-- (examples/love/game.lua), so the two cannot drift apart.
--
-- A game is the shared table brains read through v.data.game (it lives in v.data, so a reload of
-- any brain or of this file keeps it): world, config (hunter_prey/config.lua or a copy), the current
-- level, the obstacles, catch statistics and lure (a function giving the lure's x, y, or nothing).
local Hunter = require "hunter_prey.hunter"
local Prey = require "hunter_prey.prey"

local rules = {}

--- A new game on `world` with settings `config`; `lure` says where the lure is (or nothing).
function rules.new(world, config, lure)
  return { world = world, config = config, level = config.levels[config.difficulty], obstacles = {}, caught = 0,
           longest = 0, lived = 0, lure = lure }
end

--- A random point at least `clear` units from every hunter (a few tries, then anywhere).
function rules.open_spot(world, clear)
  local x, y
  for _ = 1, 20 do
    x, y = world:random(40, world.width - 40), world:random(40, world.height - 40)
    if not world:closest(x, y, "hunter", clear) then break end
  end
  return x, y
end

--- One prey, away from the hunters.
function rules.add_prey(game)
  local x, y = rules.open_spot(game.world, 250)
  return Prey.spawn(game, x, y)
end

--- One hunter, anywhere.
function rules.add_hunter(game)
  local w = game.world
  return Hunter.spawn(game, w:random(40, w.width - 40), w:random(40, w.height - 40))
end

--- An obstacle (the player's, or one of the field's).
function rules.add_obstacle(game, x, y, r)
  local handle = game.world:obstacle{ x = x, y = y, radius = r }
  game.obstacles[#game.obstacles + 1] = { x = x, y = y, r = r, handle = handle }
end

--- The field as the config sets it: obstacles, walls, hunters, then prey.
function rules.populate(game)
  local cfg = game.config
  for _, o in ipairs(cfg.obstacles) do rules.add_obstacle(game, o.x, o.y, o.r) end
  game.fixed = #game.obstacles
  for _, w in ipairs(cfg.walls) do game.world:wall{ x1 = w[1], y1 = w[2], x2 = w[3], y2 = w[4] } end
  for _ = 1, cfg.hunters do rules.add_hunter(game) end
  for _ = 1, cfg.prey do rules.add_prey(game) end
end

--- Removes the obstacles the player dropped (the field's stay).
function rules.clear_obstacles(game)
  for i = #game.obstacles, game.fixed + 1, -1 do
    game.obstacles[i].handle:remove()
    game.obstacles[i] = nil
  end
end

--- Catches, checked every physics step (brains think at 10 Hz only): a chasing hunter touching a
--- prey eats it; the prey is counted and a new one appears away from the hunters (unless the game
--- says `respawn = false`: hunter_prey/waves.lua's waves). `game.on_catch(hunter, x, y)`, when the
--- game has one, hears of each catch (the scene's flash and pop).
function rules.catch(game)
  local world = game.world
  for _, h in ipairs(world:vehicles("hunter")) do
    if h.state == "chase" then
      local p = world:closest(h, "prey", h.radius + 6 + 2)
      if p then
        local age = world.time - p.data.born
        game.caught = game.caught + 1
        game.lived = game.lived + age -- total lifetime of the caught, for their mean survival
        game.longest = math.max(game.longest, age)
        local x, y = p.x, p.y
        world:remove(p)
        if game.respawn ~= false then rules.add_prey(game) end
        if game.on_catch then game.on_catch(h, x, y) end
      end
    end
  end
end

--- The next difficulty level: hunters get its speed and stamina at once.
function rules.next_difficulty(game)
  local cfg = game.config
  cfg.difficulty = cfg.difficulty % #cfg.levels + 1
  game.level = cfg.levels[cfg.difficulty]
  for _, h in ipairs(game.world:vehicles("hunter")) do
    h.data.stamina = math.min(h.data.stamina, game.level.stamina)
    h.max_speed = game.level.hunter_speed * (h.state == "rest" and 0.35 or 1)
  end
end

--- The longest a prey has lived so far (caught or alive), seconds.
function rules.longest_alive(game)
  local world, best = game.world, game.longest
  for _, p in ipairs(world:vehicles("prey")) do best = math.max(best, world.time - p.data.born) end
  return best
end

return rules
