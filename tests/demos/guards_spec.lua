-- SPDX-License-Identifier: MIT
-- guards_spec.lua - the guards scene (scripts/guards.lua): what its guards see, hear, remember and
-- forget, with guards and intruders placed by hand (no patrol rounds, intruders that stay put) so
-- that each test sets up one situation. The brains are the scene's own, woken by events only.
package.path = "tests/demos/?.lua;" .. package.path
local H = require "helper"

-- A wrapper scene: the guards scene with no guards or intruders of its own; `setup` (Lua source, run
-- at the end of load with `world`, `scene` and `game` in scope) places them, `each` (run after every
-- step's update, with `world` too) reports.
local function scene(setup, each)
  return ([[
local scene = require "guards"
scene.config.guards = {}
scene.config.intruders = {}
local load, update = scene.load, scene.update
function scene.load(world)
  load(world)
  local game = scene.game
  %s
end
function scene.update(world, dt)
  update(world, dt)
  %s
end
return scene
]]):format(setup, each or "")
end

-- Reports every state change of guard `g` as "state@time".
local WATCH = [[
  local g = scene.game.guards[1]
  if g.state ~= scene.last_state then scene.last_state = g.state; report("state", g.state .. "@" .. world.time) end
]]

local function states(r)
  local list = {}
  for _, s in ipairs(r.all.state or {}) do
    local name, at = s:match("^(%w+)@(.+)$")
    list[#list + 1] = { name = name, at = tonumber(at) }
  end
  return list
end

local function names(list)
  local out = {}
  for i, s in ipairs(list) do out[i] = s.name end
  return table.concat(out, " ")
end

describe("guards", function()
  it("a guard that sees an intruder in its room chases it and catches it", function()
    local r = H.ok(H.run(scene([[
      scene.spawn_guard(world, { x = 100, y = 400, heading = 0 })
      scene.spawn_intruder(world, 300, 400, { still = true })
]], WATCH .. [[
  if world.step_count % 30 == 0 then report("caught", scene.game.count) end
]]), { steps = 360 }))
    local list = states(r)
    assert.are.equal("patrol", list[1].name)
    assert.are.equal("chase", list[2] and list[2].name, names(list))
    assert.is_true(list[2].at < 0.1, "it saw the intruder at once: " .. list[2].at)
    assert.is_true(r.values.caught >= 1, "caught " .. tostring(r.values.caught))
  end)

  it("an intruder behind a wall is not seen; the same intruder through the door is", function()
    local function run(y)
      return H.ok(H.run(scene(([[
      scene.spawn_guard(world, { x = 400, y = %d, heading = 0 })
      scene.spawn_intruder(world, 560, %d, { still = true })
]]):format(y, y), WATCH .. [[
  local g = scene.game.guards[1]
  local other = g:sensed("eyes")
  if other then report("seen", world.step_count) end
  report("in_line", world:line_of_sight(g, scene.game.intruders[1]) and 1 or 0)
]]), { steps = 120 }))
    end
    local wall = run(80)    -- the wall x = 480 runs from y = 20 to 130
    assert.is_nil(wall.values.seen)
    assert.are.equal(0, wall.values.in_line)
    assert.are.equal("patrol", names(states(wall)))
    local door = run(170)   -- the door between the top rooms: y 130 to 210
    assert.are.equal(1, door.values.in_line)
    assert.is_not_nil(door.values.seen)
    assert.are.equal("patrol chase", names(states(door)):sub(1, 12))
  end)

  it("a guard that hears a noise out of its sight goes to it, then back to patrol", function()
    local r = H.ok(H.run(scene([[
      scene.spawn_guard(world, { x = 120, y = 120, heading = 0 })
]], WATCH .. [[
  local g = scene.game.guards[1]
  if world.step_count == 30 then scene.noise(world, 120, 270) end -- below it: outside its 110 degree cone
  if world.step_count > 30 then
    local d = math.sqrt((g.x - 120) ^ 2 + (g.y - 270) ^ 2)
    scene.nearest = math.min(scene.nearest or math.huge, d)
    if world.step_count % 30 == 0 then report("nearest", scene.nearest) end
  end
]]), { steps = 900 }))
    local list = states(r)
    assert.are.equal("patrol investigate patrol", names(list))
    assert.is_true(list[2].at > 0.5 and list[2].at < 0.6, "heard in the step after the noise: " .. list[2].at)
    assert.is_true(r.values.nearest < 30, "came within " .. r.values.nearest)
    -- nothing found: it gives up after config.investigate_for (5 s)
    assert.is_true(math.abs(list[3].at - list[2].at - 5) < 0.05, ("investigated %.3f s"):format(list[3].at - list[2].at))
  end)

  it("a guard that loses sight of an intruder searches where it was, and gives up when it forgets", function()
    local r = H.ok(H.run(scene([[
      scene.spawn_guard(world, { x = 100, y = 80, heading = 0 })
      scene.intruder = scene.spawn_intruder(world, 300, 80, { still = true })
]], WATCH .. [[
  local g = scene.game.guards[1]
  -- half a second into the chase, the intruder slips into the far room (behind two walls)
  if g.state == "chase" and not scene.moved and world.time > 0.5 then
    scene.moved = true
    scene.intruder:set_position(880, 580)
    report("moved", world.time)
  end
]]), { steps = 900 }))
    local list = states(r)
    assert.are.equal("patrol chase search patrol", names(list))
    -- lost in the step after the move, forgotten forget_after (4 s) after it was last seen
    assert.is_true(list[3].at - r.values.moved < 0.05, ("lost %.3f s after the move"):format(list[3].at - r.values.moved))
    local searched = list[4].at - list[3].at
    assert.is_true(searched > 4 - 1e-6 and searched < 4.05, ("searched %.3f s"):format(searched))
  end)
end)
