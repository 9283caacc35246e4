-- SPDX-License-Identifier: MIT
-- bench/senses/hunt_senses.lua - bench-brains' hunter/prey scene (bench/brains/hunt_10k.lua: 2,000
-- hunters, 8,000 prey, the same rules) written with senses and events instead of polling. Nothing
-- thinks: each vehicle's sight runs in the step at 10 Hz (staggered, as thinks are), and the fsm
-- library routes what changed to the current state, so Lua runs only when something happened.
--   hunters: wander -> pursue the closest prey in sight (at most 4 s: a timer) -> rest 2 s -> wander
--   prey:    flock -> evade the closest hunter in range -> flock once none is in range
-- make bench-senses runs it headless (bench/senses/run.sh). STEER_BENCH_VEHICLES changes the count
-- (the world grows with it, so that density and so the events per vehicle stay the same);
-- STEER_BENCH_BRAIN=none leaves the senses on and the brains off (the physics with senses).
local fsm = require "fsm"

local n = tonumber(os.getenv("STEER_BENCH_VEHICLES") or "10000")
local side = 6000 * math.sqrt(n / 10000)
-- Nothing thinks: the brains only handle events, so the world runs no think pass (think_hz 0;
-- handlers run whatever it is).
world = { width = side, height = side, edges = "wrap", seed = 11, think_hz = 0 }

local SIGHT, THREAT = 150, 100
local PERIOD = 0.1 -- s: each sense updates at 10 Hz, the polling brains' think rate
local EVADE = { weight = 3 }
local target = setmetatable({}, { __mode = "k" }) -- vehicle -> the one it pursues or evades

local Hunter = fsm.machine{
  initial = "wander",
  states = {
    wander = {
      enter = function(v) v:wander{ radius = 30, distance = 60, jitter = 80 } end,
      on_sensed = function() return "pursue" end,
      exit = function(v) v:stop("wander") end,
    },
    pursue = {
      enter = function(v)
        local prey = v:sensed("prey")
        target[v] = prey
        if prey then v:pursue(prey) end
        v:wake_in(4)
      end,
      on_lost = function(v, _, other) -- the one it chased went out of sight: the closest still in sight
        if other ~= target[v] then return end
        local prey = v:sensed("prey")
        if not prey then return "wander" end
        target[v] = prey
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
      enter = function(v) v:flock{} end,
      on_sensed = function() return "evade" end,
    },
    evade = {
      enter = function(v)
        local hunter = v:sensed("hunters")
        target[v] = hunter
        if hunter then v:evade(hunter, EVADE) end
      end,
      on_lost = function(v, _, other)
        if other ~= target[v] then return end
        local hunter = v:sensed("hunters")
        if not hunter then return "flock" end
        target[v] = hunter
        v:evade(hunter, EVADE)
      end,
      exit = function(v) v:stop("evade") end,
    },
  },
}

local HUNTER_SIGHT = { name = "prey", sight = { kinds = { "prey" }, range = SIGHT, fov = 360, period = PERIOD,
  forget_after = 0, max_memories = 32 } }
local PREY_SIGHT = { name = "hunters", sight = { kinds = { "hunter" }, range = THREAT, fov = 360, period = PERIOD,
  forget_after = 0, max_memories = 8 } }

function load(w)
  local brains = os.getenv("STEER_BENCH_BRAIN") ~= "none"
  for i = 1, n do
    local hunter = i % 5 == 0
    local v = w:spawn{ kind = hunter and "hunter" or "prey", x = w:random() * w.width, y = w:random() * w.height,
                       max_speed = hunter and 90 or 80, neighbor_radius = 30 }
    v:sense(hunter and HUNTER_SIGHT or PREY_SIGHT)
    if brains then fsm.start(v, hunter and Hunter or Prey) end
  end
end
