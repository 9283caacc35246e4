-- bench/brains/hunt_10k.lua - the decision layer at scale: 2,000 hunters and 8,000 prey on the fsm
-- library. Every think asks the world (closest) and transitions switch behaviours.
--   hunters: wander -> pursue the closest prey in sight (at most 4 s) -> rest 2 s -> wander
--   prey:    flock -> evade the closest hunter in range -> flock once it is gone
-- make bench-brains runs it headless at --think-hz 10 and at 0 (brains silent: the physics alone)
-- and reads lua_ms_per_frame and step_ms from the summary. STEER_BENCH_VEHICLES changes the count.
-- bench/brains/jit_game.lua runs the same file under LuaJIT, on steer and on the plain-Lua game.
-- STEER_BENCH_BRAIN=query gives every vehicle, instead of its machine, a plain function that only
-- makes the query an fsm think makes (the least a brain asked to query at every think can cost);
-- STEER_BENCH_BRAIN=empty, a function that does nothing (what calling a brain costs).
local fsm = require "fsm"

-- The density stays that of 10,000 vehicles on 6,000 x 6,000 whatever the count (the 60 fps
-- search of make bench-brains grows the scene, not the crowding); STEER_BENCH_THREADS sets threads.
local count = tonumber(os.getenv("STEER_BENCH_VEHICLES") or "10000")
local side = 6000 * math.sqrt(count / 10000)
world = { width = side, height = side, edges = "wrap", seed = 11,
          threads = tonumber(os.getenv("STEER_BENCH_THREADS") or "1") }

local SIGHT, THREAT = 150, 100

local Hunter = fsm.machine{
  initial = "wander",
  states = {
    wander = {
      enter = function(v) v:wander{ radius = 30, distance = 60, jitter = 80 } end,
      think = function(v)
        if v.world:closest(v, "prey", SIGHT) then return "pursue" end
      end,
      exit = function(v) v:stop("wander") end,
    },
    pursue = {
      think = function(v)
        local prey = v.world:closest(v, "prey", SIGHT)
        if not prey then return "wander" end
        if fsm.time_in_state(v) > 4 then return "rest" end
        v:pursue(prey)
      end,
      exit = function(v) v:stop("pursue") end,
    },
    rest = {
      enter = function(v) v:arrive(v.x, v.y) end,
      think = function(v)
        if fsm.time_in_state(v) > 2 then return "wander" end
      end,
      exit = function(v) v:stop("arrive") end,
    },
  },
}

local Prey = fsm.machine{
  initial = "flock",
  states = {
    flock = {
      enter = function(v) v:flock{} end,
      think = function(v)
        if v.world:closest(v, "hunter", THREAT) then return "evade" end
      end,
    },
    evade = {
      think = function(v)
        local hunter = v.world:closest(v, "hunter", THREAT)
        if not hunter then return "flock" end
        v:evade(hunter, { weight = 3 })
      end,
      exit = function(v) v:stop("evade") end,
    },
  },
}

local floor = os.getenv("STEER_BENCH_BRAIN")
if floor == "" then floor = nil end
local the_world -- the floor's brains hold the world in an upvalue: not even v.world is read
local floor_brains = {
  query = { hunter = function(v) the_world:closest(v, "prey", SIGHT) end,
            prey = function(v) the_world:closest(v, "hunter", THREAT) end },
  empty = { hunter = function() end, prey = function() end },
}

function load(w)
  local n = count
  the_world = w
  for i = 1, n do
    local hunter = i % 5 == 0
    local v = w:spawn{ kind = hunter and "hunter" or "prey", x = w:random() * w.width, y = w:random() * w.height,
                       max_speed = hunter and 90 or 80, neighbor_radius = 30 }
    fsm.start(v, hunter and Hunter or Prey)
    if floor then v.brain = floor_brains[floor][v.kind] end
  end
end
