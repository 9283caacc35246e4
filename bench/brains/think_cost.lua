-- SPDX-License-Identifier: MIT
-- bench/brains/think_cost.lua - what one think of bench/brains/hunt_10k.lua's brains costs at a
-- given world size (the density kept), on steer's module under Lua 5.4 or LuaJIT: the CPU time of
-- w:think() per frame (os.clock, one thread: the step's time is not counted), divided by the
-- thinks of that frame, median over the frames after 60 of warm-up (or `warm-up`).
--
--   lua5.4 bench/brains/think_cost.lua N [frames [warm-up]]    (LUA_CPATH reaching steer.so; from the top)
--       prints `n=... think_us=... order_min=...`
-- make bench-brains runs it at 10,000, 33,500, 45,000 and 100,000 with the brains thinking in
-- creation order and in place order (STEER_THINK_ORDER_MIN, lbrains.c), alternating.
local here = (arg[0]:match("^(.*)/[^/]*$") or ".")
package.path = here .. "/?.lua;scripts/lib/?.lua;" .. package.path
local n, frames, warm = tonumber(arg[1] or "10000"), tonumber(arg[2] or "120"), tonumber(arg[3] or "60")

local env = setmetatable({}, { __index = _G })
env.os = setmetatable({ getenv = function(k)
  if k == "STEER_BENCH_VEHICLES" then return tostring(n) end
  if k == "STEER_BENCH_THREADS" then return "1" end
  return os.getenv(k)
end }, { __index = os })
local source = assert(io.open(here .. "/hunt_10k.lua")):read("a")
local chunk
if rawget(_G, "setfenv") then -- LuaJIT (Lua 5.1's way to give a chunk its globals)
  chunk = assert(rawget(_G, "loadstring")(source, "=hunt_10k.lua"))
  rawget(_G, "setfenv")(chunk, env)
else
  chunk = assert(load(source, "=hunt_10k.lua", "t", env))
end
chunk()
local w = require("steer").world(env.world)
env.load(w)
local per = {}
local stride = math.max(1, math.floor(1 / (w.dt * w.think_hz) + 0.5))
for f = 1, warm + frames do
  local c0 = os.clock()
  w:think()
  local c1 = os.clock()
  w:step()
  if f > warm then per[#per + 1] = (c1 - c0) * 1e6 / (n / stride) end
end
table.sort(per)
print(("n=%d think_us=%.3f order_min=%s"):format(n, per[math.floor((#per + 1) / 2)],
  os.getenv("STEER_THINK_ORDER_MIN") or "default"))
