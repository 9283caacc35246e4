-- hunter_prey_spec.lua - what the hunter/prey demo is meant to show, run headless in the program.
package.path = "tests/demos/?.lua;" .. package.path
local H = require "helper"

-- A scene that loads hunter_prey with `setup` (Lua source run with `cfg` = its config before load),
-- then places hunters and prey where `placement` says, and runs `each_step` after every update.
local function scene(setup, placement, each_step)
  return ([[
local scene = require "hunter_prey"
local cfg = scene.config
cfg.obstacles, cfg.walls = {}, {}
%s
local load, update = scene.load, scene.update
function scene.load(world)
  load(world)
  local hunters, prey = world:vehicles("hunter"), world:vehicles("prey")
  %s
end
local last = {}
function scene.update(world, dt)
  update(world, dt)
  local game = scene.game
  for _, h in ipairs(world:vehicles("hunter")) do
    if h.state ~= last[h.id] then report("h" .. h.id, h.state .. "@" .. world.time); last[h.id] = h.state end
  end
  %s
end
return scene
]]):format(setup, placement, each_step or "")
end

-- "chase@1.5" -> "chase", 1.5 ; the transitions of hunter id `id` in order
local function transitions(result, id)
  local list = {}
  for _, s in ipairs(result.all["h" .. id] or {}) do
    local name, t = s:match("^(%a+)@(.+)$")
    list[#list + 1] = { name = name, t = tonumber(t) }
  end
  return list
end

describe("hunter_prey", function()
  it("a rested hunter chases and catches a prey that does not evade, before its stamina runs out", function()
    local r = H.ok(H.run(scene("cfg.hunters, cfg.prey, cfg.evade = 1, 1, false",
      "hunters[1]:set_position(300, 350); prey[1]:set_position(450, 350)",
      [[if game.caught > 0 and not caught then
          caught = true
          local h = world:vehicles("hunter")[1]
          report("caught_at", world.time); report("stamina", h.data.stamina); report("prey", world:count("prey"))
        end]]), { steps = 300, seed = 3 }))
    local states = transitions(r, 1)
    assert.are.equal("hunt", states[1].name)
    assert.are.equal("chase", states[2].name)
    assert.is_not_nil(r.values.caught_at, "no catch in 5 s")
    assert.is_true(r.values.caught_at < 2.5, "caught only at " .. r.values.caught_at)
    assert.is_true(r.values.stamina > 0)
    assert.are.equal(1, r.values.prey) -- the caught prey was replaced
  end)

  it("an exhausted hunter stops chasing, rests slowly until stamina refills, then hunts again", function()
    -- a prey as fast as the hunter that evades: it stays in sight but cannot be caught in time
    local r = H.ok(H.run(scene([[cfg.hunters, cfg.prey = 1, 1
        cfg.prey_speed = cfg.levels[cfg.difficulty].hunter_speed
        cfg.drain, cfg.refill = 80, 50]],
      "hunters[1]:set_position(200, 350); prey[1]:set_position(320, 350)",
      [[local h = world:vehicles("hunter")[1]
        if h.state == "rest" then resting_top = math.max(resting_top or 0, h.speed) end
        if world.time > 4.9 and not said then said = true; report("rest_top_speed", resting_top or -1)
          report("caught", game.caught); report("max_speed", cfg.levels[cfg.difficulty].hunter_speed) end]]),
      { steps = 300, seed = 3 }))
    local s = transitions(r, 1)
    assert.are.same({ "hunt", "chase", "rest", "hunt" }, { s[1].name, s[2].name, s[3].name, s[4] and s[4].name })
    -- stamina 100 at 80 per second lasts 1.25 s; refilling at 50 per second takes 2 s (brains think at 10 Hz)
    assert.is_true(math.abs((s[3].t - s[2].t) - 1.25) <= 0.15, "chased for " .. (s[3].t - s[2].t))
    assert.is_true(math.abs((s[4].t - s[3].t) - 2.0) <= 0.15, "rested for " .. (s[4].t - s[3].t))
    assert.are.equal(0, r.values.caught)
    assert.is_true(r.values.rest_top_speed <= 0.35 * r.values.max_speed + 1e-6)
  end)

  it("prey survive markedly longer with evading on than off (same seed, one minute)", function()
    local function run(evade)
      return H.ok(H.run(scene(("cfg.hunters, cfg.prey, cfg.evade = 3, 12, %s"):format(evade), "",
        [[if world.time >= 59.9 and not said then said = true
            local alive, n = 0, 0
            for _, p in ipairs(world:vehicles("prey")) do alive, n = alive + world.time - p.data.born, n + 1 end
            report("caught", game.caught); report("mean_life", (game.lived + alive) / (game.caught + n)) end]]),
        { steps = 3600, seed = 1 }))
    end
    local on, off = run(true), run(false)
    local says = ("evading on: %d caught, mean life %.1f s; off: %d caught, %.1f s"):format(on.values.caught,
      on.values.mean_life, off.values.caught, off.values.mean_life)
    assert.is_true(off.values.caught >= 1.8 * math.max(on.values.caught, 1), says)
    assert.is_true(on.values.mean_life >= 1.3 * off.values.mean_life, says)
  end)

  it("an evading prey alarms the prey near it, who evade after a reaction time, before they see the hunter", function()
    local r = H.ok(H.run(scene("cfg.hunters, cfg.prey = 1, 2",
      "hunters[1]:set_position(300, 350); prey[1]:set_position(400, 350); prey[2]:set_position(500, 350)",
      [[local b = world:vehicles("prey")[2]
        if b.state ~= b_state then
          b_state = b.state
          local h = world:vehicles("hunter")[1]
          report("b", ("%s@%.3f@%.1f"):format(b.state, world.time, math.sqrt((h.x - b.x) ^ 2 + (h.y - b.y) ^ 2)))
        end]]), { steps = 120, seed = 2 }))
    local first_alarm
    for _, s in ipairs(r.all.b) do
      local state, t, d = s:match("^(%a+)@([%d.]+)@([%d.]+)$")
      if state == "alarmed" and not first_alarm then first_alarm = { t = tonumber(t), d = tonumber(d) } end
    end
    assert.is_not_nil(first_alarm, "prey 2 never alarmed: " .. table.concat(r.all.b, " "))
    -- prey 1 starts evading at its first think (within 0.1 s); the alarm takes 0.3 s more
    assert.is_true(first_alarm.t >= 0.3 and first_alarm.t <= 0.45, "alarmed at " .. first_alarm.t)
    assert.is_true(first_alarm.d > 130, "the hunter was already within sight: " .. first_alarm.d)
  end)

  it("the player's keys and clicks: more hunters and prey, difficulty, obstacles, evading", function()
    local r = H.ok(H.run(scene("cfg.hunters, cfg.prey = 2, 4", "", [[
        if world.step_count == 5 then
          local obstacles = #world:obstacles()
          scene.keypressed("h"); scene.keypressed("p"); scene.keypressed("d"); scene.keypressed("e")
          scene.mousepressed(500, 350, 1)
          scene.mousepressed(600, 350, 2) -- not the left button: nothing
          report("hunters", world:count("hunter")); report("prey", world:count("prey"))
          report("level", game.level.name); report("evade", tostring(cfg.evade))
          report("obstacles", #world:obstacles() - obstacles)
        end
        if world.step_count == 60 then
          local top = 0
          for _, h in ipairs(world:vehicles("hunter")) do top = math.max(top, h.max_speed) end
          report("top_speed", top)
          scene.keypressed("c")
          report("after_clear", #world:obstacles())
        end]]), { steps = 61 }))
    assert.are.equal(3, r.values.hunters)
    assert.are.equal(9, r.values.prey)
    assert.are.equal("hard", r.values.level)
    assert.are.equal("false", r.values.evade)
    assert.are.equal(1, r.values.obstacles)
    assert.are.equal(135, r.values.top_speed)
    assert.are.equal(0, r.values.after_clear) -- the scene's own obstacles were emptied by the spec's config
  end)

  it("the lure draws idle prey in range to rest near it, and leaves prey out of range alone", function()
    local r = H.ok(H.run(scene([[cfg.hunters, cfg.prey = 0, 7
        scene.lure = function() return 500, 350 end]],
      [[for i = 1, 6 do
          local a = i * math.pi / 3
          prey[i]:set_position(500 + 200 * math.cos(a), 350 + 200 * math.sin(a))
        end
        prey[7]:set_position(60, 60)]],
      [[if world.time >= 0.5 and not early then early = true; report("far_state", world:vehicles("prey")[7].state) end
        if world.time >= 9.9 and not said then said = true
          local worst, fastest = 0, 0
          for i = 1, 6 do
            local p = world:vehicles("prey")[i]
            worst = math.max(worst, math.sqrt((p.x - 500) ^ 2 + (p.y - 350) ^ 2))
            fastest = math.max(fastest, p.speed)
            report("state", p.state)
          end
          report("worst", worst); report("fastest", fastest)
        end]]), { steps = 600, seed = 5 }))
    assert.are.equal("wander", r.values.far_state)
    for _, s in ipairs(r.all.state) do assert.are.equal("lured", s) end
    assert.is_true(r.values.worst < 30, "farthest lured prey is " .. r.values.worst .. " from the lure")
    assert.is_true(r.values.fastest < 5, "a lured prey still moves at " .. r.values.fastest)
  end)
end)
