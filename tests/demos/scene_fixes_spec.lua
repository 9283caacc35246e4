-- SPDX-License-Identifier: MIT
-- scene_fixes_spec.lua - defects found by playing the gallery, each checked where it could come back:
-- `r` in path_following while followers move, leash anchors pushed off the world, flow-field
-- arrows without heads, seek/flee/arrive's circles without names.
package.path = "tests/demos/?.lua;" .. package.path
local H = require "helper"

local function wrap(name, body)
  return ("local scene = require %q\n%s\nreturn scene\n"):format(name, body or "")
end

-- Source that wraps scene.draw so that every gfx call is counted and every text reported once.
local SPY = [[
local draw = scene.draw
local seen, lines = {}, 0
function scene.draw(gfx)
  lines = 0
  local spy = setmetatable({
    text = function(x, y, s, ...) if not seen[s] then seen[s] = true; report("drew", s) end; return gfx.text(x, y, s, ...) end,
    line = function(...) lines = lines + 1; return gfx.line(...) end,
  }, { __index = gfx })
  draw(spy)
  report("lines", lines)
end
]]

local function has(list, wanted)
  for _, s in ipairs(list or {}) do if s == wanted then return true end end
  return false
end

describe("scene fixes", function()
  it("path_following: r while the blue ones are mid-path starts them from waypoint 1 again, in order", function()
    local r = H.ok(H.run(wrap("path_following", [[
local update = scene.update
function scene.update(world, dt)
  update(world, dt)
  if world.step_count == 600 then -- (they set off 3 s apart: all three on their way)
    for _, f in ipairs(scene.followers) do if f.v.kind == "open" then report("before", #f.v.data.visits) end end
    scene.keypressed("r")
  end
  if world.time >= 33.9 and not said then
    said = true
    for _, f in ipairs(scene.followers) do
      if f.v.kind == "open" then report("open", table.concat(f.v.data.visits, ",")) end
    end
  end
end]]), { steps = 60 * 34 }))
    for _, n in ipairs(r.all.before) do assert.is_true(n >= 3, "not mid-path at the reset: " .. n .. " waypoints") end
    assert.are.equal(3, #r.all.open)
    for _, visits in ipairs(r.all.open) do assert.are.equal("1,2,3,4,5,6,7", visits) end
  end)

  it("leashed_wander: a click near a corner moves the homes only as far as every leash circle stays in the world", function()
    local r = H.ok(H.run(wrap("leashed_wander", [[
local update = scene.update or function() end
function scene.update(world, dt)
  update(world, dt)
  if world.step_count == 2 then
    scene.mousepressed(990, 590, 1)
    local worst = math.huge
    for _, h in ipairs(scene.homes) do
      worst = math.min(worst, h.x - scene.RADIUS, h.y - scene.RADIUS, world.width - scene.RADIUS - h.x,
        world.height - scene.RADIUS - h.y)
    end
    report("margin", worst)
    report("moved", scene.homes[1].x)
  end
end]]), { steps = 3 }))
    assert.is_true(r.values.margin >= 0, "a home's circle reaches " .. -r.values.margin .. " past the edge")
    assert.is_true(r.values.moved > 170, "the homes did not move at all")
  end)

  it("flow_field: every arrow of the field has a head", function()
    local r = H.ok(H.run(wrap("flow_field", SPY), { steps = 2 }))
    -- 25 columns x 16 rows inside the world (the 17th row lies past its bottom edge): 3 strokes each
    assert.are.equal(25 * 16 * 3, r.values.lines)
  end)

  it("seek_flee_arrive: the flee and arrive circles say what they are", function()
    local r = H.ok(H.run(wrap("seek_flee_arrive", SPY .. [[
local update = scene.update or function() end
function scene.update(world, dt)
  update(world, dt)
  if world.step_count == 2 then scene.keypressed("2") end
  if world.step_count == 4 then scene.keypressed("3") end
end]]), { steps = 6 }))
    assert.is_true(has(r.all.drew, "panic distance 200: flees only inside"))
    assert.is_true(has(r.all.drew, "slowing radius 120: brakes inside"))
    assert.is_true(has(r.all.drew, "target"))
  end)
end)
