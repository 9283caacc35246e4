-- SPDX-License-Identifier: MIT
-- bench/brains/jit_game.lua - the hunter/prey scene of bench/brains/hunt_10k.lua the way a LÖVE game
-- runs it: a Lua loop that calls w:think() and w:step() once a frame, under LuaJIT, on steer's
-- module or on the plain-Lua game of bench/brains/plain_world.lua (the same brains, the same fsm
-- library; its own spatial hash and steering). Wall-clock times through the FFI (clock_gettime).
--
--   luajit bench/brains/jit_game.lua run steer|plain N [frames [threads]]
--       prints `brains_ms=... brains_cpu_ms=... step_ms=... frame_ms=...`: medians per frame over
--       `frames` frames after 60 frames of warm-up (the JIT's and the brains' first states);
--       brains_cpu_ms is the thread's CPU time in w:think(), which the machine's load does not inflate.
--   luajit bench/brains/jit_game.lua search steer|plain|program THREADS
--       the largest N whose median frame (brains + step) is at most 16.7 ms: a few runs, each in
--       a fresh process, N scaled by 16.7 / frame from 10,000; `program` runs build/steer (Lua 5.4).
-- Needs LUA_CPATH to reach steer.so (run.sh sets it) and is run from the top of the repository.
local mode, engine = arg[1], arg[2]
local here = (arg[0]:match("^(.*)/[^/]*$") or ".")
package.path = here .. "/?.lua;scripts/lib/?.lua;" .. package.path

local ffi = require "ffi"
ffi.cdef [[
typedef struct { long tv_sec; long tv_nsec; } steer_bench_timespec;
int clock_gettime(int clock, steer_bench_timespec *t);
]]
local ts = ffi.new("steer_bench_timespec")
local function now_ms()
  ffi.C.clock_gettime(1, ts) -- CLOCK_MONOTONIC
  return tonumber(ts.tv_sec) * 1e3 + tonumber(ts.tv_nsec) / 1e6
end
-- The calling thread's CPU time: what the brains cost without the time the machine's other jobs
-- take the core away (the brains run on this thread only; the step's workers are not counted).
local function cpu_ms()
  ffi.C.clock_gettime(3, ts) -- CLOCK_THREAD_CPUTIME_ID
  return tonumber(ts.tv_sec) * 1e3 + tonumber(ts.tv_nsec) / 1e6
end

local function median(t)
  local s = {}
  for i = 1, #t do s[i] = t[i] end
  table.sort(s)
  return s[math.floor((#s + 1) / 2)]
end

if mode == "run" then
  local n, frames, threads = tonumber(arg[3]), tonumber(arg[4] or "300"), arg[5] or "1"
  -- the scene reads its count and threads from the environment, as under the program
  local env = setmetatable({}, { __index = _G })
  env.os = setmetatable({ getenv = function(k)
    if k == "STEER_BENCH_VEHICLES" then return tostring(n) end
    if k == "STEER_BENCH_THREADS" then return threads end
    return os.getenv(k)
  end }, { __index = os })
  local chunk = assert(loadfile(here .. "/hunt_10k.lua"))
  rawget(_G, "setfenv")(chunk, env) -- (LuaJIT: Lua 5.1's way to give a chunk its globals)
  chunk()
  local new_world = engine == "plain" and require("plain_world").world or require("steer").world
  local opts = {}
  for k, v in pairs(env.world) do opts[k] = v end
  if engine == "plain" then opts.threads = nil end
  local w = new_world(opts)
  env.load(w)
  local brains, brains_cpu, steps, whole = {}, {}, {}, {}
  local errors = 0
  for f = 1, 60 + frames do
    local c0, t0 = cpu_ms(), now_ms()
    errors = errors + w:think()
    local t1, c1 = now_ms(), cpu_ms()
    w:step()
    local t2 = now_ms()
    if f > 60 then
      brains[#brains + 1], steps[#steps + 1], whole[#whole + 1] = t1 - t0, t2 - t1, t2 - t0
      brains_cpu[#brains_cpu + 1] = c1 - c0
    end
  end
  local ffi_on = engine == "steer" and require("steer").ffi
  print(("brains_ms=%.3f brains_cpu_ms=%.3f step_ms=%.3f frame_ms=%.3f vehicles=%d errors=%d ffi=%s"):format(
    median(brains), median(brains_cpu), median(steps), median(whole), w:count(), errors, tostring(ffi_on)))
elseif mode == "search" then
  local threads = arg[3] or "2"
  local steer_bin = os.getenv("STEER_BIN") or "build/steer"
  local budget = 16.7
  -- Frame ms at n: fewer frames at large n (the plain game's frames are long); the program's
  -- frame is its Lua time per frame plus its step (1 frame = 1 step at 60 Hz).
  local function frame_at(n)
    local frames = n > 40000 and 120 or 240
    local cmd, line
    if engine == "program" then
      cmd = ("STEER_BENCH_VEHICLES=%d STEER_BENCH_THREADS=%s %s --headless --steps %d --think-hz 10 " ..
        "--time-budget 2000 %s/hunt_10k.lua"):format(n, threads, steer_bin, frames + 60, here)
    else
      cmd = ("luajit %s run %s %d %d %s"):format(arg[0], engine, n, frames, threads)
    end
    local p = io.popen(cmd .. " 2>/dev/null")
    local out = p:read("*a")
    p:close()
    if engine == "program" then
      local lua, step = out:match("lua_ms_per_frame=([%d.]+)"), out:match("step_ms=([%d.]+)")
      return lua and tonumber(lua) + tonumber(step)
    end
    line = out:match("frame_ms=([%d.]+)")
    return line and tonumber(line)
  end
  -- Bounds: lo the largest N seen within budget, hi the smallest seen over it. The next N is the
  -- one the last frame time scales to (frame ~ N), kept strictly between the bounds (their middle
  -- when it falls outside), to the nearest 500; at most six runs.
  local n, lo, hi, best_frame = 10000, 0, math.huge, nil
  local tried = {}
  for _ = 1, 6 do
    local f = frame_at(n)
    if not f then break end
    tried[#tried + 1] = ("%d:%.1f"):format(n, f)
    if f <= budget then
      if n > lo then lo, best_frame = n, f end
    elseif n < hi then
      hi = n
    end
    local next_n = math.floor(n * budget / f * 0.98 / 500 + 0.5) * 500
    if next_n <= lo or next_n >= hi then next_n = math.floor((lo + math.min(hi, lo * 4 + 1000)) / 1000 + 0.5) * 500 end
    if next_n <= lo or next_n >= hi or hi - lo <= 500 then break end
    n = math.max(500, next_n)
  end
  local best = lo
  print(("largest=%d frame_ms=%s tried=%s"):format(best, best_frame and ("%.2f"):format(best_frame) or "-",
    table.concat(tried, ",")))
else
  io.stderr:write("usage: luajit bench/brains/jit_game.lua run steer|plain N [frames [threads]]\n" ..
    "       luajit bench/brains/jit_game.lua search steer|plain|program THREADS\n")
  os.exit(2)
end
