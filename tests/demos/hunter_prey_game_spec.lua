-- SPDX-License-Identifier: MIT
-- hunter_prey_game_spec.lua - the hunter/prey demo as a game (scripts/hunter_prey/waves.lua):
-- played headless through the program with scripted input, its rules checked where they could
-- break: Enter starts wave 1, the clock brings the next wave and scores its survivors, catches are
-- counted and not replaced, the end screen comes when the herd falls below the minimum, the best
-- score is kept in a file between runs, and the player's rocks are limited and kept in the world.
package.path = "tests/demos/?.lua;" .. package.path
local H = require "helper"

-- A scene that plays hunter_prey: keeps its best score in `best` (a file), runs `each_step` after
-- every update with `game` (the scene's game table) and `prev` (what it was before that update),
-- and reports every line of text the scene draws the first time it draws it.
local function scene(best, each_step, setup)
  return ([[
local scene = require "hunter_prey"
scene.best_path = function() return %q end
%s
local load, update, draw = scene.load, scene.update, scene.draw
function scene.load(world) load(world); report("loaded_best", scene.game.best) end
local prev = {}
function scene.update(world, dt)
  local game = scene.game
  prev = { wave = game.wave, score = game.score, herd = world:count("prey"), mode = game.mode, caught = game.caught }
  update(world, dt)
  %s
end
local seen = {}
function scene.draw(gfx)
  local spy = setmetatable({ text = function(_, _, s)
    for line in tostring(s):gmatch("[^\n]+") do
      if not seen[line] then seen[line] = true; report("drew", line) end
    end
  end }, { __index = gfx })
  draw(spy)
end
return scene
]]):format(best, setup or "", each_step)
end

local function tmpfile()
  local path = os.tmpname()
  os.remove(path)
  return path
end

local function has(list, wanted)
  for _, s in ipairs(list or {}) do if s == wanted then return true end end
  return false
end

describe("hunter_prey as a game", function()
  it("starts on a title screen that says what to do, with the sandbox running behind it", function()
    local r = H.ok(H.run(scene(tmpfile(), [[if world.step_count == 30 then report("mode", game.mode) end]]),
      { steps = 31 }))
    assert.are.equal("title", r.values.mode)
    assert.is_true(has(r.all.drew, "press Enter to start"), "no start prompt drawn")
    assert.are.equal(0, r.values.loaded_best) -- no file yet: best 0
  end)

  it("Enter starts wave 1; catches are counted and not replaced; every 30 s a new wave scores the survivors", function()
    local r = H.ok(H.run(scene(tmpfile(), [[
      if world.step_count == 5 then scene.keypressed("return") end
      if game.mode == "play" then
        -- every prey of the game is alive or caught: 12, then 3 more at each new wave
        report("sum", world:count("prey") + game.caught - 3 * (game.wave - 1))
      end
      if game.wave ~= prev.wave and prev.wave > 0 then
        report("wave", game.wave); report("at", world.time)
        report("herd_at_end", prev.herd); report("points", game.score - prev.score)
      end
      if world.step_count == 5 + 60 * 61 then report("caught", game.caught) end]]),
      { steps = 6 + 60 * 61, seed = 3 }))
    for _, n in ipairs(r.all.sum) do assert.are.equal(12, n) end -- no caught prey was ever replaced
    assert.are.same({ 2, 3 }, r.all.wave)
    for i, at in ipairs(r.all.at) do
      assert.is_true(math.abs(at - (5 / 60 + 30 * i)) < 0.05, "wave " .. (i + 1) .. " at " .. at)
      -- 10 points per survivor times the wave's number (a near miss in that step would add 5)
      local points, wanted = r.all.points[i], 10 * i * r.all.herd_at_end[i]
      assert.is_true(points == wanted or points == wanted + 5, ("wave %d: %d points for %d prey"):format(i, points,
        r.all.herd_at_end[i]))
    end
    assert.is_true(r.values.caught >= 1, "no catch in two waves: nothing was at stake")
    assert.is_true(has(r.all.drew, "WAVE 2") and has(r.all.drew, "WAVE 3"), "no banner for a new wave")
  end)

  it("waves rise in difficulty: more or faster hunters with more stamina", function()
    local r = H.ok(H.run([[
local waves = require "hunter_prey.waves"
function load() end
local a, b = waves.level(1), waves.level(6)
report("more", b.hunters > a.hunters and b.hunter_speed > a.hunter_speed and b.stamina > a.stamina)
return {}
]], { steps = 1 }))
    assert.are.equal("true", r.values.more)
  end)

  it("the herd falling below the minimum ends the game: the end screen, and the best score kept in its file", function()
    local best = tmpfile()
    local play = scene(best, [[
      if world.step_count == 5 then scene.keypressed("return") end
      if world.step_count == 60 then
        game.score = 1234 -- as if earned
        local prey = world:vehicles("prey")
        for i = 4, #prey do world:remove(prey[i]) end -- three left: fewer than the four to keep
      end
      if game.mode ~= prev.mode then report("mode", game.mode .. "@" .. world.step_count) end
      if world.step_count == 150 then report("best", game.best); report("new_best", tostring(game.new_best)) end]])
    local r = H.ok(H.run(play, { steps = 200, seed = 2 }))
    assert.are.same({ "play@5", "over@61" }, r.all.mode)
    assert.is_true(has(r.all.drew, "THE HERD IS LOST"), "no end screen")
    assert.is_true(has(r.all.drew, "score 1234      best 1234"), "the end screen does not show the score")
    assert.is_true(has(r.all.drew, "a new best score!"))
    assert.are.equal(1234, r.values.best)
    assert.are.equal("1234\n", H.read(best))
    -- the next run reads it back; a lower score leaves it alone
    local again = H.ok(H.run(play:gsub("game.score = 1234", "game.score = 50"), { steps = 200, seed = 2 }))
    assert.are.equal(1234, again.values.loaded_best)
    assert.are.equal("false", again.values.new_best)
    assert.are.equal("1234\n", H.read(best))
    assert.is_true(has(again.all.drew, "score 50      best 1234"))
    os.remove(best)
  end)

  it("a game gives 2 + the wave's number rocks, and keeps every rock inside the world", function()
    local r = H.ok(H.run(scene(tmpfile(), [[
      if world.step_count == 5 then
        scene.keypressed("return")
        local before = #world:obstacles()
        scene.mousepressed(-40, 300, 1)   -- beside the world: nothing
        report("outside", #world:obstacles() - before)
        scene.mousepressed(5, 5, 1)       -- in the corner: moved in so that all of it is inside
        local o = world:obstacles()[#world:obstacles()]
        report("corner", ("%g,%g"):format(o.x, o.y))
        scene.mousepressed(500, 350, 1); scene.mousepressed(600, 350, 1); scene.mousepressed(700, 350, 1)
        report("dropped", #world:obstacles() - before)
      end]]), { steps = 6 }))
    assert.are.equal(0, r.values.outside)
    assert.are.equal("25,25", r.values.corner)
    assert.are.equal(3, r.values.dropped) -- wave 1: three, the fourth refused
    assert.is_true(has(r.all.drew, "no rocks left this wave"))
  end)

  it("every event of a game has its sound, in the step it happens; the sandbox behind the start screen is silent",
    function()
    local heard = [[
local heard = {}
scene.sound = function(kind) heard[#heard + 1] = kind end
local function sorted(list) table.sort(list); return table.concat(list, ",") end
]]
    local r = H.ok(H.run(scene(tmpfile(), [[
      if world.step_count == 60 * 8 then scene.keypressed("return") end
      if world.step_count == 60 * 9 then scene.mousepressed(500, 350, 1) end
      local now = {}
      for _, e in ipairs(game.events) do if e.t == world.time then now[#now + 1] = e.kind end end
      if #now > 0 or #heard > 0 then
        report(game.mode == "play" and "play" or "title", sorted(now) .. "|" .. sorted(heard))
      end
      heard = {}]], heard), { steps = 60 * 45, seed = 1 }))
    local kinds = {}
    for _, line in ipairs(r.all.title or {}) do
      assert.are.equal("", line:match("|(.*)$"), "a sound in the sandbox: " .. line)
    end
    assert.is_true(#(r.all.title or {}) > 0, "nothing happened in the sandbox: the test proves nothing")
    for _, line in ipairs(r.all.play) do
      local events, sounds = line:match("^(.*)|(.*)$")
      if events ~= "" then assert.are.equal(events, sounds, "events and sounds of one step differ") end
      for kind in sounds:gmatch("[^,]+") do kinds[kind] = true end
    end
    assert.is_true(kinds.wave and kinds.catch and kinds.rock, "not heard: wave, catch and a rock dropped: " .. table.concat(r.all.play, " "))
  end)
end)
