-- bench/runtime/fsm_10k.lua - the decision layer's cost: 10,000 vehicles wandering in a wrapping
-- world, each with a small state-machine brain (states by name) thinking at --think-hz.
-- make bench-runtime runs it headless and reads lua_ms_per_frame and step_ms from the summary.
world = { width = 4000, height = 4000, edges = "wrap", seed = 7 }

local Brain = { states = {} }

Brain.states.wander = function(v, dt)
  v.data.timer = v.data.timer - dt
  if v.data.timer <= 0 then
    v.data.timer = 1 + v.data.timer % 1
    v:seek(v.data.home_x, v.data.home_y, { weight = 0.3 })
    return "home"
  end
end

Brain.states.home = function(v, dt)
  v.data.timer = v.data.timer - dt
  if v.data.timer <= 0 then
    v.data.timer = 2
    v:stop("seek")
    return "wander"
  end
end

function Brain.think(v, dt)
  local next_state = Brain.states[v.state](v, dt)
  if next_state then v.state = next_state end
end

function load(w)
  local n = tonumber(os.getenv("STEER_BENCH_VEHICLES") or "10000")
  for i = 1, n do
    local x, y = w:random() * w.width, w:random() * w.height
    local v = w:spawn{ kind = "agent", x = x, y = y, vx = 20, vy = 0 }
    v:wander{ radius = 20, distance = 40, jitter = 60 }
    v.data.timer = w:random() * 2
    v.data.home_x, v.data.home_y = x, y
    v.state = "wander"
    v.brain = Brain
  end
end
