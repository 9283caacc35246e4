-- SPDX-License-Identifier: MIT
-- hunter_prey/waves.lua - the game on top of the hunter/prey rules: waves of hunters, each faster,
-- more stamina and one more of them, against the player's herd. The player keeps at least
-- `keep` prey alive until each wave's clock runs out; a wave cleared scores its survivors times its
-- number, a near miss (a prey a chasing hunter nearly touched, and still alive a second later) five
-- points; the game ends when the herd falls below `keep`. The mode is "title" (the classic sandbox
-- runs behind the start screen), "play" or "over". Everything here is game rules in Lua: the scene
-- draws it (hunter_prey.lua) and keeps the best score; nothing reads the clock or the machine.
local rules = require "hunter_prey.rules"

local waves = {}

-- The numbers of wave n, rising with n: the whole difficulty curve in one place.
function waves.level(n)
  return {
    name = "wave " .. n,
    hunters = math.min(1 + math.floor((n + 1) / 2), 6), -- 2, 2, 3, 3, 4, ...
    hunter_speed = math.min(102 + 6 * n, 160),
    stamina = 50 + 15 * n,
  }
end

waves.LENGTH = 30      -- s: how long a wave lasts
waves.KEEP = 4         -- prey: the herd may not fall below this
waves.FIRST_HERD = 12  -- prey at the start of wave 1
waves.REINFORCE = 3    -- prey joining the herd at every later wave
waves.MAX_HERD = 20
waves.NEAR = 14        -- units beyond catching distance that count as a near miss
waves.NEAR_POINTS = 5
waves.EVENT_LIFE = 1.6 -- s: how long an event's pop stays drawn

--- Adds what the game keeps to a rules game: mode, score, events (pops the scene draws), and a
--- `note` the brains call (the hunter's rest says "tired" through it).
function waves.attach(game)
  game.mode, game.score, game.wave, game.events = "title", 0, 0, {}
  game.note = function(kind, v, text) waves.event(game, kind, v.x, v.y, text) end
  return game
end

--- Something the player should see at (x, y): kind is "catch", "tired", "near", "wave", "cleared",
--- "rocks" or "over"; the scene draws each kind its own way for EVENT_LIFE seconds, and hears of
--- it at once through game.on_event(event) when it set one (the program's scene plays a sound).
function waves.event(game, kind, x, y, text)
  local list = game.events
  local e = { kind = kind, x = x, y = y, text = text, t = game.world.time }
  list[#list + 1] = e
  if game.on_event then game.on_event(e) end
end

--- The rocks the player may still drop this wave (in play), or nil (no limit outside a game).
function waves.rocks_left(game)
  if game.mode ~= "play" then return nil end
  return 2 + game.wave - (#game.obstacles - game.fixed)
end

local function spawn_hunters(game, count)
  local w = game.world
  for i = 1, count do
    -- at the left and right edges, away from the herd in the middle
    local x = (i % 2 == 1) and 50 or w.width - 50
    rules.add_hunter(game):set_position(x, w:random(60, w.height - 60))
  end
end

--- The next wave: its level for every hunter, hunters brought up to its count, reinforcements.
function waves.next(game)
  local w = game.world
  game.wave = game.wave + 1
  game.level = waves.level(game.wave)
  for _, h in ipairs(w:vehicles("hunter")) do
    h.data.stamina = game.level.stamina
    h.max_speed = game.level.hunter_speed * (h.state == "rest" and 0.35 or 1)
  end
  spawn_hunters(game, game.level.hunters - w:count("hunter"))
  local herd = game.wave == 1 and waves.FIRST_HERD or math.min(w:count("prey") + waves.REINFORCE, waves.MAX_HERD)
  for _ = w:count("prey") + 1, herd do rules.add_prey(game) end
  game.wave_started, game.wave_ends = w.time, w.time + waves.LENGTH
  waves.event(game, "wave", w.width / 2, w.height / 2, "WAVE " .. game.wave)
end

--- A new game: an empty field but for its fixed rocks, score 0, wave 1.
function waves.start(game)
  local w = game.world
  for _, v in ipairs(w:vehicles()) do w:remove(v) end
  rules.clear_obstacles(game)
  game.mode, game.score, game.wave, game.caught, game.events = "play", 0, 0, 0, {}
  game.respawn = false -- a caught prey is gone for good
  game.new_best = false
  waves.next(game)
end

--- Seconds left in the current wave.
function waves.time_left(game)
  if game.mode ~= "play" then return 0 end
  return math.max(0, game.wave_ends - game.world.time)
end

-- Near misses: a chasing hunter within NEAR of catching a prey marks it; a marked prey still
-- alive a second later escaped.
local function near_misses(game)
  local w, now = game.world, game.world.time
  for _, h in ipairs(w:vehicles("hunter")) do
    if h.state == "chase" then
      local p = w:closest(h, "prey", h.radius + 8 + waves.NEAR)
      if p and not p.data.near and (p.data.near_again or 0) <= now then p.data.near = now end
    end
  end
  for _, p in ipairs(w:vehicles("prey")) do
    if p.data.near and now - p.data.near >= 1.0 then
      p.data.near, p.data.near_again = nil, now + 3
      if game.mode == "play" then game.score = game.score + waves.NEAR_POINTS end
      waves.event(game, "near", p.x, p.y, game.mode == "play" and "close! +" .. waves.NEAR_POINTS or "close!")
    end
  end
end

--- Once per physics step, after rules.catch: near misses, the wave's clock, the end of the game,
--- and old events dropped. Returns "over" on the step the game is lost.
function waves.update(game)
  local w = game.world
  near_misses(game)
  local list, keep = game.events, {}
  for _, e in ipairs(list) do
    if w.time - e.t < waves.EVENT_LIFE then keep[#keep + 1] = e end
  end
  game.events = keep
  if game.mode ~= "play" then return nil end
  local herd = w:count("prey")
  if herd < waves.KEEP then
    game.mode, game.over_at = "over", w.time
    game.respawn = nil -- the sandbox's rules again behind the end screen
    waves.event(game, "over", w.width / 2, w.height / 2, "THE HERD IS LOST")
    return "over"
  end
  if w.time >= game.wave_ends then
    local points = 10 * herd * game.wave
    game.score = game.score + points
    waves.event(game, "cleared", w.width / 2, w.height / 2 + 40, ("wave %d cleared: %d prey x %d = +%d"):format(
      game.wave, herd, 10 * game.wave, points))
    waves.next(game)
  end
  return nil
end

--- A catch as rules.catch reports it: the flash and pop where it happened.
function waves.caught(game, hunter, x, y)
  waves.event(game, "catch", x, y, game.mode == "play" and ("caught! %d left"):format(game.world:count("prey"))
    or "caught!")
  hunter.data.catches = (hunter.data.catches or 0) + 1
end

return waves
