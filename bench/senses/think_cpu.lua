-- SPDX-License-Identifier: MIT
-- bench/senses/think_cpu.lua - the CPU time of the brains alone: a scene of bench-senses (its
-- world table and load(w)) run in plain Lua on the module (build/steer.so), `w:step()` then
-- `w:think()` for each frame, and only the think pass timed, in CPU seconds of this process
-- (os.clock). The program's figure is wall clock, which a busy machine stretches whenever the
-- process waits for a core; this one counts only the time spent running, so it stays readable on a
-- shared machine (caches shared with the other processes still slow it). bench/senses/run.sh runs
-- it for the polling and the event scene in turn, as it runs the program.
--   lua5.4 bench/senses/think_cpu.lua SCENE [STEPS] [THINK_HZ]
-- prints `think_cpu_ms_per_frame=<ms> frames=<n>`. The first pass (the machines' start) and the
-- load are left out. THINK_HZ (when given and > 0) replaces the scene's think rate, as the
-- program's --think-hz does.
local scene, steps, hz = arg[1], tonumber(arg[2] or "600"), tonumber(arg[3] or "0")
if not scene then
  io.stderr:write("usage: lua5.4 bench/senses/think_cpu.lua SCENE [STEPS] [THINK_HZ]\n")
  os.exit(2)
end
local steer = require "steer"
local env = setmetatable({}, { __index = _G })
assert(loadfile(scene, "t", env))()
local def = env.world
def.threads = def.threads or 1 -- (as run.sh runs the program: os.clock would count idle workers' spins too)
local w = steer.world(def)
env.load(w)
if hz > 0 then w.think_hz = hz end
w:think() -- the first pass: machines started by their first think, every vehicle's first thought
local clock = os.clock
local spent = 0
for _ = 1, steps do
  w:step()
  local t0 = clock()
  w:think()
  spent = spent + (clock() - t0)
end
print(("think_cpu_ms_per_frame=%.4f frames=%d"):format(spent / steps * 1000, steps))
