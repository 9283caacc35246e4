-- hunter.lua - the hunter's brain (the classic hunter/prey game's hunter, as a state machine).
-- hunt:  wander and look for the closest prey it can see (in sight range, not behind an obstacle)
-- chase: pursue it; stamina drains while chasing; out of stamina -> rest; prey lost -> hunt
-- rest:  wander slowly while stamina refills; full again -> hunt
-- State code reads everything through v.data.game (the scene's shared table), so it has no
-- module-level state for a reload to lose.
-- The LÖVE example (examples/love) runs this same file: save it while either runs and it reloads.
local fsm = require "fsm"

local Hunter = {}

-- Does the segment from (ax, ay) to (bx, by) pass through any obstacle circle?
local function blocked(obstacles, ax, ay, bx, by)
  local dx, dy = bx - ax, by - ay
  local len2 = dx * dx + dy * dy
  for i = 1, #obstacles do
    local o = obstacles[i]
    local t = len2 > 0 and ((o.x - ax) * dx + (o.y - ay) * dy) / len2 or 0
    t = math.max(0, math.min(1, t))
    local cx, cy = ax + t * dx - o.x, ay + t * dy - o.y
    if cx * cx + cy * cy < o.r * o.r then return true end
  end
  return false
end
Hunter.blocked = blocked

-- The closest prey v can see, or nil. Neighbours come back in id order, so ties break the same way
-- on every run.
function Hunter.closest_visible_prey(v)
  local game = v.data.game
  local best, best_d2
  for _, p in ipairs(game.world:neighbors(v, game.config.hunter_sight, "prey")) do
    local dx, dy = p.x - v.x, p.y - v.y
    local d2 = dx * dx + dy * dy
    if (not best_d2 or d2 < best_d2) and not blocked(game.obstacles, v.x, v.y, p.x, p.y) then
      best, best_d2 = p, d2
    end
  end
  return best
end

local function level(v) return v.data.game.level end

-- Called at every think, whatever the state: a place to try things while the game runs (the LÖVE
-- example's test replaces it with a version that marks the hunter, and looks for the marks). It
-- does nothing and returns nothing, so it changes no state and draws no random number: the runs
-- are the same as without it.
function Hunter.on_think(v, dt) end

Hunter.states = {
  hunt = {
    enter = function(v)
      v.max_speed = level(v).hunter_speed
      v:wander{ radius = 30, distance = 60, jitter = 120, weight = 1, priority = 2 }
    end,
    think = function(v)
      local prey = Hunter.closest_visible_prey(v)
      if prey then
        v.data.target = prey
        return "chase"
      end
    end,
    exit = function(v) v:stop("wander") end,
  },

  chase = {
    enter = function(v)
      v.max_speed = level(v).hunter_speed
      v:pursue(v.data.target, { weight = 1, priority = 2 })
    end,
    think = function(v, dt)
      local game = v.data.game
      v.data.stamina = math.max(0, v.data.stamina - game.config.drain * dt)
      if v.data.stamina <= 0 then return "rest" end
      local target = v.data.target
      -- keep after the closest visible prey: a nearer one, or lose sight and go back to hunting
      local prey = Hunter.closest_visible_prey(v)
      if not prey then return "hunt" end
      if not target:alive() or prey ~= target then
        v.data.target = prey
        v:pursue(prey, { weight = 1, priority = 2 })
      end
    end,
    exit = function(v)
      v:stop("pursue")
      v.data.target = nil
    end,
  },

  rest = {
    enter = function(v)
      local game = v.data.game
      if game.note then game.note("tired", v, "tired") end -- the game's pop (hunter_prey/waves.lua)
      v.max_speed = level(v).hunter_speed * 0.35
      v:wander{ radius = 20, distance = 40, jitter = 60, weight = 1, priority = 2 }
    end,
    think = function(v, dt)
      local game = v.data.game
      v.data.stamina = math.min(level(v).stamina, v.data.stamina + game.config.refill * dt)
      if v.data.stamina >= level(v).stamina then return "hunt" end
    end,
    exit = function(v)
      v:stop("wander")
      v.max_speed = level(v).hunter_speed
    end,
  },
}

-- The global state: its think runs before the current state's, at every think.
Hunter.states.always = { think = function(v, dt) Hunter.on_think(v, dt) end }

Hunter.brain = fsm.machine{ initial = "hunt", global = "always", states = Hunter.states }

function Hunter.spawn(game, x, y)
  local lv = game.level
  local v = game.world:spawn{
    kind = "hunter", x = x, y = y, heading = game.world:random() * 2 * math.pi,
    max_speed = lv.hunter_speed, max_force = 400, mass = 1, radius = 9, color = { 230, 70, 60 },
  }
  v.combine = "priority"
  v:avoid_obstacles{ priority = 0, weight = 3 }
  v:avoid_walls{ priority = 0, weight = 3 }
  v:contain{ priority = 1, margin = 30 }
  v.data.game = game
  v.data.stamina = lv.stamina
  fsm.start(v, Hunter.brain)
  return v
end

return Hunter
