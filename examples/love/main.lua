-- Hunter and prey in LÖVE 11, on the steer module built for LuaJIT (make luajit):
--   love examples/love
-- Hunters (red) chase the prey (blue) they can see until their stamina runs out; prey evade hunters
-- and come to your mouse pointer when it is near. Click to drop an obstacle that shields them.
-- Keys: h hunter, p five prey, c clear your obstacles, d difficulty, e evading on/off, space
-- pause (a sign says so), escape quit; overlays (all off at the start) on the steer program's keys:
-- F2 wander, F3 avoidance, F4 neighbours, F6 forces (with the behaviours' targets), F8 flow fields.
-- The brains are the steer program's: scripts/hunter_prey/hunter.lua and prey.lua of the
-- repository. Edit them while it runs: steer.hot reloads them on save with the steer program's
-- rules (vehicles, v.data and states stay; a broken save is shown and the old code goes on).
--
-- Test mode (make test): love examples/love --test FRAMES [--seed N] [--screenshot PATH]
-- [--wait-reload K] runs FRAMES physics steps, one per frame (a fixed dt, whatever the frame
-- rate), prints the summary line of headless.lua and quits. It writes nothing unless asked:
-- --screenshot PATH saves the last frame there as a PNG (and prints how many of its pixels are not
-- background). --wait-reload K stops the simulation after step K until a watched brain reloads
-- (at most 60 s). An unknown option is refused (exit status 2), so that a misspelt one is not
-- silently ignored.

-- Where steer.so, the brains and the Lua libraries are: this folder is examples/love of the
-- repository, whose scripts/ holds the brains (scripts/hunter_prey/) and scripts/lib/ the
-- libraries. $STEER_ROOT names another tree laid out the same way (the test runs a copy, so that
-- the brain it edits is not the repository's); $STEER_BUILD the build directory (default
-- ROOT/build).
local source = love.filesystem.getSource()
local root = os.getenv("STEER_ROOT") or (source .. "/../..")
local build = os.getenv("STEER_BUILD") or (root .. "/build")
package.cpath = build .. "/luajit/?.so;" .. package.cpath
package.path = root .. "/scripts/?.lua;" .. root .. "/scripts/lib/?.lua;" .. package.path

local steer = require "steer"
local hot = require "steer.hot"
local Game = require "game"

local game
local paused = false
-- the overlays drawn over the world (w:debug_draw's layers), toggled by the steer program's keys
-- for them (its F6 shows forces and targets together; F7 state names and F9 the grid are its own)
local overlays = Game.default_overlays()
local OVERLAY_KEYS = { f2 = { "wander" }, f3 = { "avoidance" }, f4 = { "neighbors" }, f6 = { "forces", "targets" },
  f8 = { "flow_fields" } }
local accumulator = 0
local test -- the test mode's settings, or nil
local reload_errors = {}
local reloads = 0

local USAGE = "options: --test FRAMES, --seed N, --screenshot PATH (with --test), --wait-reload K (with --test)"

local OPTIONS = { ["--test"] = "frames", ["--seed"] = "seed", ["--screenshot"] = "screenshot",
  ["--wait-reload"] = "wait_reload" }

-- The options, or nil and why not.
local function parse_args(args)
  local t = {}
  local i = 1
  while args[i] do
    local a, v = args[i], args[i + 1]
    local key = OPTIONS[a]
    if not key then return nil, "unknown option " .. tostring(a) end
    local value = key == "screenshot" and v or tonumber(v)
    if value == nil then return nil, a .. " needs a value" end
    t[key] = value
    i = i + 2
  end
  if (t.screenshot or t.wait_reload) and not t.frames then
    return nil, "--screenshot and --wait-reload go with --test"
  end
  return t
end

function love.load(args)
  local opts, why = parse_args(args or {})
  if not opts then
    io.stderr:write("examples/love: ", why, " (", USAGE, ")\n")
    love.event.quit(2)
    return
  end
  if opts.frames then test = opts end
  love.graphics.setBackgroundColor(0.09, 0.10, 0.13)
  hot.on_reload = function(path)
    reloads = reloads + 1
    reload_errors[path] = nil
    print("reloaded " .. path)
  end
  hot.on_error = function(path, message)
    reload_errors[path] = message
    io.stderr:write(message, "\n")
  end
  -- the files game.lua required, under the same module names: a reload merges into those tables
  hot.watch{ root = root .. "/scripts", "hunter_prey/hunter.lua", "hunter_prey/prey.lua" }
  game = Game.new(opts.seed or 2)
end

-- Saves the frame at `path` as a PNG, reads the file back and prints how many of its pixels (one in
-- four) are not the background.
local function save_screenshot(image, path)
  local f = assert(io.open(path, "wb"))
  f:write(image:encode("png"):getString())
  f:close()
  local back = io.open(path, "rb"):read("*a")
  local decoded = love.image.newImageData(love.filesystem.newFileData(back, "screenshot.png"))
  local lit = 0
  for y = 0, decoded:getHeight() - 1, 2 do
    for x = 0, decoded:getWidth() - 1, 2 do
      local r, g, b = decoded:getPixel(x, y)
      if math.abs(r - 0.09) + math.abs(g - 0.10) + math.abs(b - 0.13) > 0.05 then lit = lit + 1 end
    end
  end
  print(("screenshot: %s %dx%d lit=%d"):format(path, decoded:getWidth(), decoded:getHeight(), lit))
end

-- Test mode: at the end of the frame, the screenshot if one was asked for, the summary, quit.
local function finish_test()
  local function finish()
    print("reloads: " .. reloads)
    print("summary: " .. game:summary())
    io.stdout:flush()
    love.event.quit(0)
  end
  if not test.screenshot then return finish() end
  love.graphics.captureScreenshot(function(image)
    save_screenshot(image, test.screenshot)
    finish()
  end)
end

function love.update(dt)
  if not game then return end -- (a bad command line: quitting)
  hot.update(game.world) -- the world whose vehicles get their brains' new code
  if test then
    if test.done then return end
    if test.wait_reload and game.steps == test.wait_reload and reloads == 0 then
      if not test.waiting then
        test.waiting = love.timer.getTime()
        print("waiting for a reload at step " .. game.steps)
        io.stdout:flush()
      elseif love.timer.getTime() - test.waiting > 60 then
        print("no reload came")
        love.event.quit(3)
      end
      return
    end
    game:step() -- one fixed step per frame: the same run as headless.lua
    if game.steps >= test.frames then
      test.done = true
      finish_test()
    end
    return
  end
  if paused then return end
  game:set_lure(Game.to_world(love.mouse.getPosition()))
  accumulator = math.min(accumulator + dt, 0.25) -- after a long stall, do not try to catch up
  while accumulator >= Game.DT do
    game:step()
    accumulator = accumulator - Game.DT
  end
end

-- The module's debug drawing, onto love.graphics: the same overlays as the steer program.
local function set_color(r, g, b, a) love.graphics.setColor(r, g, b, a) end
local draw = {
  line = function(x1, y1, x2, y2, r, g, b, a)
    set_color(r, g, b, a)
    love.graphics.line(x1, y1, x2, y2)
  end,
  circle = function(x, y, radius, r, g, b, a)
    set_color(r, g, b, a)
    love.graphics.circle("line", x, y, radius)
  end,
  solid_circle = function(x, y, radius, r, g, b, a)
    set_color(r, g, b, a)
    love.graphics.circle("fill", x, y, radius)
  end,
  polygon = function(points, r, g, b, a)
    set_color(r, g, b, a)
    love.graphics.polygon("line", points)
  end,
  solid_polygon = function(points, r, g, b, a)
    set_color(r, g, b, a)
    love.graphics.polygon("fill", points)
  end,
  point = function(x, y, size, r, g, b, a)
    set_color(r, g, b, a)
    love.graphics.circle("fill", x, y, size / 2)
  end,
}
local function panel(x, y, w, h)
  love.graphics.setColor(0.05, 0.06, 0.09, 0.85)
  love.graphics.rectangle("fill", x, y, w, h)
  love.graphics.setColor(0.30, 0.34, 0.42)
  love.graphics.rectangle("line", x, y, w, h)
end

function love.draw()
  if not game then return end
  local world = game.world
  local layers = { "world" }
  for name, on in pairs(overlays) do if on then layers[#layers + 1] = name end end
  draw.layers = layers
  love.graphics.push()
  love.graphics.translate(Game.VIEW.x, Game.VIEW.y) -- the world below the HUD's strip, in its margin
  love.graphics.setColor(0.30, 0.34, 0.42) -- its border
  love.graphics.rectangle("line", 0, 0, Game.WIDTH, Game.HEIGHT)
  world:debug_draw(draw)
  local shared = game.shared
  local x, y = game:lure()
  if x then
    love.graphics.setColor(0.98, 0.86, 0.31, 0.25)
    love.graphics.circle("line", x, y, shared.config.lure_range)
  end
  local font = love.graphics.getFont()
  for _, h in ipairs(world:vehicles("hunter")) do -- stamina bars and states
    local full = h.data.stamina / shared.level.stamina
    love.graphics.setColor(0.27, 0.27, 0.27)
    love.graphics.rectangle("fill", h.x - 15, h.y - 20, 30, 4)
    if full > 0.25 then love.graphics.setColor(0.35, 0.86, 0.35) else love.graphics.setColor(0.9, 0.27, 0.24) end
    love.graphics.rectangle("fill", h.x - 15, h.y - 20, 30 * full, 4)
    local state = h.state or ""
    if state ~= "" then -- on a small backing panel, readable over whatever is under it
      local w = font:getWidth(state)
      love.graphics.setColor(0.05, 0.06, 0.09, 0.75)
      love.graphics.rectangle("fill", h.x - w / 2 - 3, h.y - 38, w + 6, font:getHeight() + 2)
      love.graphics.setColor(1, 0.45, 0.4)
      love.graphics.print(state, math.floor(h.x - w / 2), h.y - 37)
    end
  end
  for _, c in ipairs(game:recent_catches()) do -- a catch: a red ring that widens and fades, "caught!" rising
    local fade = math.max(0, 1 - c.age)
    love.graphics.setColor(1, 0.35, 0.25, fade)
    love.graphics.circle("line", c.x, c.y, 8 + 40 * c.age)
    local w, ty = font:getWidth("caught!"), c.y - 30 - 20 * c.age
    love.graphics.setColor(0.05, 0.06, 0.09, 0.75 * fade)
    love.graphics.rectangle("fill", c.x - w / 2 - 3, ty - 1, w + 6, font:getHeight() + 2)
    love.graphics.setColor(1, 0.5, 0.4, fade)
    love.graphics.print("caught!", math.floor(c.x - w / 2), ty)
  end
  love.graphics.pop()
  -- the HUD on its panel, in its own strip: nothing of the world is drawn under its text
  panel(Game.hud_box())
  love.graphics.setColor(1, 1, 1)
  love.graphics.print(("prey %d   caught %d   longest survival %.1f s"):format(world:count("prey"), shared.caught,
    game:longest_alive()), 12, 10)
  love.graphics.print(("hunters %d   difficulty %s   evading %s   steer %s on %s"):format(world:count("hunter"),
    shared.level.name, shared.config.evade and "on" or "off", steer.version, jit and jit.version or _VERSION), 12, 30)
  love.graphics.setColor(0.7, 0.74, 0.8) -- the keys, at the right: what a player can do
  local right = Game.WINDOW_W - 12
  love.graphics.printf("mouse lures prey   click drops a rock   h / p hunter / prey", 0, 10, right, "right")
  love.graphics.printf("space pause   d difficulty   e evading   F2-F8 overlays   esc quit", 0, 30, right, "right")
  local line = Game.VIEW.y + 8
  for path, message in pairs(reload_errors) do -- a broken save: shown until the file loads cleanly
    panel(Game.VIEW.x + 4, line - 4, Game.WIDTH - 8, 28)
    love.graphics.setColor(1, 0.4, 0.4)
    love.graphics.printf(path .. ": " .. message:match("^[^\n]*"), Game.VIEW.x + 10, line, Game.WIDTH - 20)
    line = line + 36
  end
  if paused then -- a sign nobody misses
    local w, h = 360, 64
    local px, py = (Game.WINDOW_W - w) / 2, Game.VIEW.y + (Game.HEIGHT - h) / 2
    panel(px, py, w, h)
    love.graphics.setColor(1, 0.85, 0.4)
    love.graphics.printf("PAUSED\nspace resumes", px, py + 14, w, "center")
  end
end

function love.keypressed(key)
  if key == "escape" then love.event.quit()
  elseif key == "space" then paused = not paused
  elseif OVERLAY_KEYS[key] then
    for _, layer in ipairs(OVERLAY_KEYS[key]) do overlays[layer] = not overlays[layer] end
  elseif key == "h" then game:add_hunter()
  elseif key == "p" then for _ = 1, 5 do game:add_prey() end
  elseif key == "c" then game:clear_obstacles()
  elseif key == "d" then game:next_difficulty()
  elseif key == "e" then game:toggle_evade()
  end
end

function love.mousepressed(x, y, button)
  if button ~= 1 then return end
  local wx, wy = Game.to_world(x, y)
  if wx < 0 or wy < 0 or wx > Game.WIDTH or wy > Game.HEIGHT then return end -- beside the world
  game:add_obstacle(math.max(25, math.min(Game.WIDTH - 25, wx)), math.max(25, math.min(Game.HEIGHT - 25, wy)), 25)
end
