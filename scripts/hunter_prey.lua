-- Hunter and prey: a game. Keep your herd (blue) alive against waves of hunters (red), who chase
-- what they see until they tire. Keys: Enter starts; the mouse lures prey; a click drops a rock; Space pauses.
-- Try: hide the herd behind a rock from a coming hunter; on the start screen h/p/d/e/c play the sandbox.
local steer = require "steer"
local fsm = require "fsm"
local rules = require "hunter_prey.rules"
local waves = require "hunter_prey.waves"

local M = {}

M.world = { width = 1000, height = 700, edges = "contain", seed = 2 }

-- The player's keys, as the help overlay (F1) lists them under the program's; keypressed and
-- mousepressed below do what they say.
M.keys = {
  { "return", "start a game (again, after the end)" },
  { "mouse", "prey within 300 come to the pointer" },
  { "left click", "drop a rock (shield the prey): 2 + the wave's number per game" },
  { "c", "clear the rocks you dropped" },
  { "h", "start screen's sandbox: one more hunter" },
  { "p", "sandbox: five more prey" },
  { "d", "sandbox: difficulty easy / normal / hard" },
  { "e", "sandbox: prey evading on / off" },
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

-- The game's sounds: each made once from a few numbers (steer.sound.new: a wave, a pitch that
-- slides or steps through notes, a length and a volume) and played on the game's events.
local SOUNDS = {
  catch = steer.sound.new{ wave = "square", freq = 700, to = 160, duration = 0.25, volume = 0.45 },
  near = steer.sound.new{ wave = "triangle", freq = 500, to = 1500, duration = 0.14, volume = 0.4 },
  tired = steer.sound.new{ wave = "sine", freq = 420, to = 180, duration = 0.45, volume = 0.35, attack = 0.05 },
  wave = steer.sound.new{ wave = "triangle", notes = { 523, 659, 784, 1047 }, duration = 0.5, volume = 0.5 },
  cleared = steer.sound.new{ wave = "square", notes = { 784, 1047 }, duration = 0.24, volume = 0.3 },
  rocks = steer.sound.new{ wave = "saw", freq = 140, duration = 0.15, volume = 0.35 },
  rock = steer.sound.new{ wave = "noise", freq = 900, to = 200, duration = 0.12, volume = 0.4 },
  over = steer.sound.new{ wave = "saw", notes = { 392, 330, 262, 196 }, duration = 1.0, volume = 0.45 },
}

--- Plays the sound called `kind` (a key of SOUNDS). Tests replace this to hear what was played.
function M.sound(kind)
  local s = SOUNDS[kind]
  if s then s:play() end
end

-- Every game event's sound; the sandbox behind the start screen stays quiet.
local function listen(g)
  g.on_event = function(e)
    if g.mode == "play" or e.kind == "over" then M.sound(e.kind) end
  end
end

-- Where the best score is kept between runs: a file in the user's data folder (XDG's), read when the
-- scene loads and written when a game ends with a new best. Tests point it elsewhere. Both go
-- through the program's io.open, which a recording keeps: a replay reads the recorded best and
-- writes nowhere, so it runs as the recorded run did.
function M.best_path()
  local data = os.getenv("XDG_DATA_HOME")
  if not data or data == "" then
    local home = os.getenv("HOME")
    if not home or home == "" then return nil end
    data = home .. "/.local/share"
  end
  return data .. "/steer-hunter-prey.best"
end

local function read_best()
  local path = M.best_path()
  local f = path and io.open(path, "r")
  if not f then return 0 end
  local best = tonumber(f:read("l") or "") or 0
  f:close()
  return math.max(0, math.floor(best))
end

local function write_best(best)
  local path = M.best_path()
  local f = path and io.open(path, "w")
  if not f then return false end
  f:write(("%d\n"):format(best))
  f:close()
  return true
end

function M.load(world)
  game = rules.new(world, M.config, function() return M.lure() end)
  M.game = game
  waves.attach(game)
  game.on_catch = function(h, x, y) waves.caught(game, h, x, y) end
  listen(game)
  game.best = read_best()
  rules.populate(game)
  -- `steer scripts/hunter_prey.lua -- play` skips the start screen (the gallery's pictures of a game)
  if arg and arg[1] == "play" then waves.start(game) end
end

-- A reload keeps the world and every v.data: pick the shared game table back up from a vehicle.
function M.reload(world)
  for _, v in ipairs(world:vehicles()) do
    if v.data.game then game = v.data.game; M.game = game; break end
  end
  if game then
    game.config = M.config
    if not game.events then waves.attach(game) end -- a game from before waves.lua
    listen(game) -- this file's sounds
  end
end

function M.update(world)
  fsm.update(world)
  rules.catch(game)
  if waves.update(game) == "over" and game.score > game.best then
    game.best, game.new_best = game.score, true
    write_best(game.best)
  end
end

--- Starts a game (Enter does): waves from 1, score 0.
function M.start() waves.start(game) end

function M.longest_alive() return rules.longest_alive(game) end

function M.keypressed(key)
  if key == "return" or key == "kpenter" then
    if game.mode ~= "play" then M.start() end
    return
  end
  if key == "c" then return rules.clear_obstacles(game) end
  if game.mode == "play" then return end -- the sandbox's keys would be cheating in a game
  if key == "h" then rules.add_hunter(game)
  elseif key == "p" then for _ = 1, 5 do rules.add_prey(game) end
  elseif key == "e" then M.config.evade = not M.config.evade
  elseif key == "d" then rules.next_difficulty(game)
  end
end

function M.mousepressed(x, y, button)
  if button ~= 1 then return end
  local w, r = game.world, 25
  if x < 0 or y < 0 or x > w.width or y > w.height then return end -- a click beside the world drops nothing
  local left = waves.rocks_left(game)
  if left and left <= 0 then return waves.event(game, "rocks", x, y, "no rocks left this wave") end -- (and its buzz)
  -- the whole rock inside the world, where vehicles can go round it
  rules.add_obstacle(game, math.max(r, math.min(w.width - r, x)), math.max(r, math.min(w.height - r, y)), r)
  M.sound("rock")
end

local RED, GREEN, YELLOW = { 230, 70, 60 }, { 90, 220, 90 }, { 250, 220, 80, 60 }
local WHITE, GOLD = { 240, 240, 240 }, { 255, 210, 90 }

-- A pop's text at (x, y), moved up past the pops already placed this frame that it would cover and
-- kept inside the world: pops of events close together stack instead of piling up. `placed` holds
-- their boxes in world units (about 8 units a character at the usual zoom, 20 a line).
local function pop(gfx, placed, x, y, text, color)
  local w, h = 8 * #text + 8, 20
  local function free(at)
    for _, b in ipairs(placed) do
      if math.abs(b.x - x) < (b.w + w) / 2 and at < b.y + h and b.y < at + h then return false end
    end
    return true
  end
  local at = math.max(4, y)
  for k = 0, #placed do -- up first (pops rise), down when the world's top is in the way
    if at - k * h >= 4 and free(at - k * h) then at = at - k * h; break end
    if free(at + k * h) then at = at + k * h; break end
  end
  placed[#placed + 1] = { x = x, y = at, w = w }
  gfx.text(x, at, text, color, "center")
end

-- The pops of the game's events (hunter_prey/waves.lua), each fading over its life.
local function draw_events(gfx, now)
  local placed = {}
  for i = #game.events, 1, -1 do -- newest first: it gets the place nearest its event
    local e = game.events[i]
    local age = math.min(1, (now - e.t) / waves.EVENT_LIFE) -- 0 .. 1
    local fade = math.max(0, math.min(255, math.floor(255 * (1 - age))))
    if e.kind == "catch" then -- a red flash that widens, and the pop rising from it
      gfx.circle(e.x, e.y, 8 + 40 * age, { 255, 80, 60, fade })
      gfx.circle(e.x, e.y, 10 * (1 - age), { 255, 120, 90, math.floor(fade / 2) }, true)
      pop(gfx, placed, e.x, e.y - 18 - 30 * age, e.text, { 255, 120, 100, fade })
    elseif e.kind == "tired" then
      pop(gfx, placed, e.x, e.y - 30 - 20 * age, "zzz tired", { 170, 190, 255, fade })
    elseif e.kind == "near" then
      gfx.circle(e.x, e.y, 14, { 255, 230, 90, fade })
      pop(gfx, placed, e.x, e.y - 22 - 20 * age, e.text, { 255, 230, 90, fade })
    elseif e.kind == "rocks" then
      pop(gfx, placed, e.x, e.y - 20, e.text, { 255, 150, 120, fade })
    elseif e.kind == "cleared" then
      gfx.text(e.x, e.y, e.text, { 120, 240, 140, fade }, "center")
    elseif e.kind == "wave" then
      gfx.text(e.x, e.y - 60, ("%s\n%d hunters, faster and tougher\nkeep %d prey alive for %d s"):format(e.text,
        game.level.hunters, waves.KEEP, waves.LENGTH), { 255, 230, 120, fade }, "center")
    end
  end
end

local TITLE = [[HUNTER & PREY

Hunters (red) chase the prey (blue) they can see, until they tire.
Keep at least %d of your herd alive through each %d s wave.
Every wave brings one more hunter, faster and tougher.

mouse        prey within 300 come to the pointer
left click   drop a rock: hide them behind it (2 + wave number)
Space        pause          F1  every key

best score %d

press Enter to start]]

local function draw_screens(gfx, world)
  local cx, cy = world.width / 2, world.height / 2
  if game.mode == "title" then
    gfx.text(cx, cy - 130, TITLE:format(waves.KEEP, waves.LENGTH, game.best), WHITE, "center")
  elseif game.mode == "over" then
    local lines = { "THE HERD IS LOST", "", ("you reached wave %d"):format(game.wave),
      ("score %d      best %d"):format(game.score, game.best) }
    if game.new_best then lines[#lines + 1] = "a new best score!" end
    lines[#lines + 1] = ""
    lines[#lines + 1] = "press Enter to play again"
    gfx.text(cx, cy - 70, table.concat(lines, "\n"), game.new_best and GOLD or WHITE, "center")
  end
end

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
  end
  draw_events(gfx, world.time)
  draw_screens(gfx, world)
  if game.mode == "play" then
    gfx.hud(("WAVE %d   %2d s left   herd %d (keep %d)   score %d   best %d"):format(game.wave,
      math.ceil(waves.time_left(game)), world:count("prey"), waves.KEEP, game.score, math.max(game.best, game.score)))
    gfx.hud(("hunters %d (speed %d)   caught %d   rocks left %d"):format(world:count("hunter"),
      game.level.hunter_speed, game.caught, waves.rocks_left(game)))
  elseif game.mode == "over" then
    gfx.hud(("game over at wave %d   score %d   best %d   (Enter: play again)"):format(game.wave, game.score,
      game.best))
    gfx.hud(("prey %d   hunters %d   caught %d"):format(world:count("prey"), world:count("hunter"), game.caught))
  else
    gfx.hud(("prey %d   caught %d   longest survival %.1f s   best score %d"):format(world:count("prey"), game.caught,
      rules.longest_alive(game), game.best))
    gfx.hud(("hunters %d   difficulty %s   evading %s   (Enter: play)"):format(world:count("hunter"),
      game.level.name, M.config.evade and "on" or "off"))
  end
end

return M
