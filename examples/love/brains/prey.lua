-- brains/prey.lua - the prey's brain (the classic hunter/prey game's prey, as a state machine).
-- A global state picks what matters most at every think: a hunter within threat range -> evade it
-- (when the game has evading on); else the lure (the mouse) within lure range -> arrive at it with
-- a slowing radius; else wander.
-- Beyond the classic game: a prey that starts evading alarms the prey around it (an fsm message
-- that arrives after a reaction time); alarmed prey evade that hunter for a while before it is
-- near enough for them to see it themselves.
local fsm = require "fsm"

local Prey = {}

-- The closest hunter within threat range, or nil (always nil when evading is switched off).
function Prey.threat(v)
  local game = v.data.game
  if not game.config.evade then return nil end
  return game.world:closest(v, "hunter", game.config.threat_range)
end

-- The lure point if it is within lure range of v, else nil.
function Prey.lure_near(v)
  local game = v.data.game
  local x, y = game.lure()
  if not x then return nil end
  local dx, dy = x - v.x, y - v.y
  if dx * dx + dy * dy > game.config.lure_range ^ 2 then return nil end
  return x, y
end

Prey.states = {
  -- decides, every think, which of the three the prey should be doing
  choose = {
    think = function(v)
      if Prey.threat(v) then return "evade" end
      if v.state == "alarmed" then return nil end -- alarmed ends by itself
      if Prey.lure_near(v) then return "lured" end
      return "wander"
    end,
    on_message = function(v, msg)
      local hunter = msg.data
      if msg.name ~= "alarm" or v.state == "evade" or not hunter:alive() then return false end
      fsm.change(v, "alarmed") -- a second alarm restarts it (its exit clears the old hunter first)
      v.data.alarm = hunter
      return true
    end,
  },

  wander = {
    enter = function(v) v:wander{ radius = 25, distance = 50, jitter = 100, priority = 2 } end,
    exit = function(v) v:stop("wander") end,
  },

  evade = {
    enter = function(v)
      local game = v.data.game
      local hunter = Prey.threat(v)
      for _, other in ipairs(game.world:neighbors(v, game.config.alarm_range, "prey")) do
        fsm.send(game.world, other, "alarm", { delay = game.config.alarm_delay, from = v, data = hunter })
      end
    end,
    think = function(v)
      local hunter = Prey.threat(v)
      if hunter then
        v:evade(hunter, { threat_range = v.data.game.config.threat_range, priority = 2 })
      end
    end,
    exit = function(v) v:stop("evade") end,
  },

  alarmed = {
    think = function(v)
      local game = v.data.game
      if not v.data.alarm:alive() or fsm.time_in_state(v) >= game.config.alarm_time then return "wander" end
      v:evade(v.data.alarm, { priority = 2 })
    end,
    exit = function(v)
      v:stop("evade")
      v.data.alarm = nil
    end,
  },

  lured = {
    think = function(v)
      local x, y = Prey.lure_near(v)
      if x then v:arrive(x, y, { slowing_radius = v.data.game.config.lure_slowing, priority = 2 }) end
    end,
    exit = function(v) v:stop("arrive") end,
  },
}

Prey.brain = fsm.machine{ initial = "wander", global = "choose", states = Prey.states }

function Prey.spawn(game, x, y)
  local world = game.world
  local v = world:spawn{
    kind = "prey", x = x, y = y, heading = world:random() * 2 * math.pi,
    max_speed = game.config.prey_speed, max_force = 400, mass = 1, radius = 6, neighbor_radius = 18,
    color = { 120, 200, 255 },
  }
  v.combine = "priority"
  v:avoid_obstacles{ priority = 0, weight = 3 }
  v:avoid_walls{ priority = 0, weight = 3 }
  v:contain{ priority = 1, margin = 30 }
  v:separate{ priority = 1, weight = 1 } -- a herd at the lure spreads round it instead of piling up
  v.data.game = game
  v.data.born = world.time
  fsm.start(v, Prey.brain)
  return v
end

return Prey
