-- SPDX-License-Identifier: MIT
-- tests/lua/think_order_scene.lua - prints the order brains think in, pass after pass, in a world
-- of 64 x 64 units (so that the place order's buckets, 64 x 64 over the world, are its unit
-- squares). think_order_spec.lua runs it with STEER_THINK_ORDER_MIN set (above or below the count)
-- and THREADS.
--   lua5.4 tests/lua/think_order_scene.lua THREADS   (LUA_CPATH reaching steer.so)
local steer = require "steer"
local threads = tonumber(arg[1] or "1")
local w = steer.world{ width = 64, height = 64, edges = "wrap", seed = 5, threads = threads, think_hz = 20 }
local log = {}
local brain = { think = function(v)
  log[#log + 1] = ("%d@%.17g,%.17g"):format(v.id, v.x, v.y)
  v:wander{}
end }
for _ = 1, 300 do
  local v = w:spawn{ x = w:random() * 64, y = w:random() * 64, max_speed = 20 }
  v.brain = brain
end
for _ = 1, 12 do
  w:think()
  print(table.concat(log, " "))
  log = {}
  w:step()
end
