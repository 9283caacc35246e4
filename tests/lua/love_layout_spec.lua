-- SPDX-License-Identifier: MIT
-- love_layout_spec.lua - where the LÖVE example (examples/love) draws what, checked without LÖVE:
-- the HUD in its own strip over nothing of the world, the world inside the window with a margin (so
-- a vehicle at its edge is not cut), mouse points turned into world points and back, each catch
-- kept a second for its flash, and no debug overlay on at the start.
package.path = "examples/love/?.lua;scripts/?.lua;scripts/lib/?.lua;" .. package.path
local Game = require "game"

describe("the LÖVE example's layout", function()
  it("keeps the world below the HUD's panel and inside the window, with a margin all round", function()
    local hx, hy, hw, hh = Game.hud_box()
    local x0, y0 = Game.to_screen(0, 0)
    local x1, y1 = Game.to_screen(Game.WIDTH, Game.HEIGHT)
    assert.is_true(hy + hh < y0, "the HUD's panel reaches into the world")
    assert.is_true(hx >= 0 and hx + hw <= Game.WINDOW_W)
    local vehicle = 12 -- pixels: the largest vehicle's reach past its centre at the edge
    assert.is_true(x0 >= vehicle and y0 - (hy + hh) >= vehicle, "no margin at the top or left")
    assert.is_true(Game.WINDOW_W - x1 >= vehicle and Game.WINDOW_H - y1 >= vehicle, "no margin at the bottom or right")
  end)

  it("turns window points into world points and back", function()
    for _, p in ipairs{ { 0, 0 }, { 500, 350 }, { Game.WIDTH, Game.HEIGHT } } do
      local sx, sy = Game.to_screen(p[1], p[2])
      local wx, wy = Game.to_world(sx, sy)
      assert.are.same(p, { wx, wy })
    end
  end)

  it("shows each catch for a second where it happened (main.lua draws a ring and 'caught!')", function()
    local game = Game.new(4)
    local seen
    for _ = 1, 1800 do
      local before = game.shared.caught
      game:step()
      if game.shared.caught > before then
        seen = game:recent_catches()
        break
      end
    end
    assert.is_table(seen, "no catch in 30 s: the test proves nothing")
    assert.are.equal(1, #seen)
    assert.is_true(seen[1].age < 0.05 and seen[1].x >= 0 and seen[1].x <= Game.WIDTH)
    for _ = 1, 30 do game:step() end
    local half = game:recent_catches()
    assert.is_true(#half >= 1 and math.abs(half[1].age - 0.5) < 0.05, "half a second later")
    for _ = 1, 31 do game:step() end
    for _, c in ipairs(game:recent_catches()) do assert.is_true(c.age < 1, "a catch shown past its second") end
  end)

  it("starts with every debug overlay off", function()
    assert.are.same({}, Game.default_overlays())
  end)

  it("conf.lua opens the window the layout needs", function()
    local t = { window = {}, modules = {} }
    local fake = {}
    _G.love = fake -- conf.lua defines love.conf on LÖVE's global table
    dofile("examples/love/conf.lua")
    _G.love = nil
    fake.conf(t)
    assert.are.equal(Game.WINDOW_W, t.window.width)
    assert.are.equal(Game.WINDOW_H, t.window.height)
  end)
end)
