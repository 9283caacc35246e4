-- SPDX-License-Identifier: MIT
-- bench/senses/hunt_senses.lua - bench-brains' hunter/prey scene (bench/brains/hunt_10k.lua: 2,000
-- hunters, 8,000 prey, the same rules) written with senses and events instead of polling. Nothing
-- thinks: each vehicle's sight runs in the step at 10 Hz (staggered, as thinks are), and the fsm
-- library routes what changed to the current state, so Lua runs only when something happened.
--   hunters: wander -> pursue the closest prey in sight (at most 4 s: a timer) -> rest 2 s -> wander
--   prey:    flock -> evade the closest hunter in range -> flock once none is in range
-- Written as docs/lua-api.md ("Brains woken by events") recommends for "the closest one":
--  * a sight of max_memories = 1 holds the closest visible vehicle only, so its events say when
--    that changes: `sensed` when one comes into sight, `lost` when the one it had is no longer the
--    closest (or gone); forget_after = 0 drops what it no longer sees at once;
--  * each state handles only what it acts on, and the fsm library has the senses make only those
--    events (v:listen): a wandering hunter hears `sensed`, a pursuing one `lost`, a resting one
--    nothing but its timer.
-- make bench-senses runs it headless (bench/senses/run.sh). STEER_BENCH_VEHICLES changes the count
-- (the world grows with it, so that density and so the events per vehicle stay the same);
-- STEER_BENCH_BRAIN=none leaves the senses on, making every event, and the brains off (the physics
-- with senses); STEER_BENCH_SENSES=none takes the senses off too (the physics alone, at any count).
local fsm = require "fsm"

local n = tonumber(os.getenv("STEER_BENCH_VEHICLES") or "10000")
local side = 6000 * math.sqrt(n / 10000)
-- Nothing thinks: the brains only handle events, so the world runs no think pass (think_hz 0;
-- handlers run whatever it is).
world = { width = side, height = side, edges = "wrap", seed = 11, think_hz = 0 }

local SIGHT, THREAT = 150, 100
local PERIOD = 0.1 -- s: each sense updates at 10 Hz, the polling brains' think rate
local EVADE = { weight = 3 }
local WANDER, FLOCK = { radius = 30, distance = 60, jitter = 80 }, {} -- (made once: a handler allocates nothing)

local Hunter = fsm.machine{
  initial = "wander",
  states = {
    wander = {
      enter = function(v) v:wander(WANDER) end,
      on_sensed = function() return "pursue" end,
      exit = function(v) v:stop("wander") end,
    },
    pursue = {
      enter = function(v)
        local prey = v:sensed("prey")
        if prey then v:pursue(prey) end
        v:wake_in(4)
      end,
      on_lost = function(v) -- the closest prey changed, or none is in sight any more
        local prey = v:sensed("prey")
        if not prey then return "wander" end
        v:pursue(prey)
      end,
      on_timer = function() return "rest" end,
      exit = function(v) v:stop("pursue") end,
    },
    rest = {
      enter = function(v)
        v:arrive(v.x, v.y)
        v:wake_in(2)
      end,
      on_timer = function(v) return v:sensed("prey") and "pursue" or "wander" end,
      exit = function(v) v:stop("arrive") end,
    },
  },
}

local Prey = fsm.machine{
  initial = "flock",
  states = {
    flock = {
      enter = function(v) v:flock(FLOCK) end,
      on_sensed = function() return "evade" end,
    },
    evade = {
      enter = function(v)
        local hunter = v:sensed("hunters")
        if hunter then v:evade(hunter, EVADE) end
      end,
      on_lost = function(v) -- the closest hunter changed, or none is in range any more
        local hunter = v:sensed("hunters")
        if not hunter then return "flock" end
        v:evade(hunter, EVADE)
      end,
      exit = function(v) v:stop("evade") end,
    },
  },
}

local HUNTER_SIGHT = { name = "prey", sight = { kinds = { "prey" }, range = SIGHT, fov = 360, period = PERIOD,
  forget_after = 0, max_memories = 1 } }
local PREY_SIGHT = { name = "hunters", sight = { kinds = { "hunter" }, range = THREAT, fov = 360, period = PERIOD,
  forget_after = 0, max_memories = 1 } }
local EVERY_EVENT = { "sensed", "lost", "forgot", "heard" }

function load(w)
  local senses = os.getenv("STEER_BENCH_SENSES") ~= "none"
  local brains = senses and os.getenv("STEER_BENCH_BRAIN") ~= "none"
  for i = 1, n do
    local hunter = i % 5 == 0
    local v = w:spawn{ kind = hunter and "hunter" or "prey", x = w:random() * w.width, y = w:random() * w.height,
                       max_speed = hunter and 90 or 80, neighbor_radius = 30 }
    if senses then v:sense(hunter and HUNTER_SIGHT or PREY_SIGHT) end
    if brains then
      fsm.start(v, hunter and Hunter or Prey)
    else
      if senses then v:listen(EVERY_EVENT) end -- (no brain: the step still makes every event)
      if hunter then v:wander(WANDER) else v:flock(FLOCK) end
    end
  end
end
