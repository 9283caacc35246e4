-- prey.lua - the prey's brain (the classic hunter/prey game's prey, as a state machine).
-- Its eyes (a sight sense all round: a hunter behind a rock or a wall is not seen) tell it of
-- hunters. A global state picks what matters most at every think: a hunter it sees within threat
-- range -> evade it (when the game has evading on); one it sees farther off, with rocks on the
-- field -> hide behind the rock that puts the rock between them; else the lure (the mouse) within
-- lure range -> arrive at it with a slowing radius; else wander.
-- Beyond the classic game: a prey that starts evading alarms the prey around it (an fsm message
-- that arrives after a reaction time); alarmed prey evade that hunter for a while before it is
-- near enough for them to see it themselves.
local fsm = require "fsm"

local Prey = {}

--- What a prey sees: hunters all round within its sight range, not hidden by a rock or a wall.
function Prey.eyes(v)
  v:sense{ name = "eyes", sight = { kinds = { "hunter" }, range = v.data.game.config.prey_sight, fov = 360,
                                    forget_after = 1 } }
end

-- The closest hunter it sees within threat range, or nil (always nil when evading is switched off).
function Prey.threat(v)
  local game = v.data.game
  if not game.config.evade then return nil end
  local hunter, d = v:sensed("eyes")
  if hunter and d <= game.config.threat_range then return hunter end
  return nil
end

-- A hunter it sees farther off, when there are rocks to hide behind (and evading is on), or nil.
function Prey.seen(v)
  local game = v.data.game
  if not game.config.evade or #game.obstacles == 0 then return nil end
  return (v:sensed("eyes"))
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
      if Prey.seen(v) then return "hide" end
      if v.state == "hide" and fsm.time_in_state(v) < 2 then return nil end -- out of sight: stay hidden a while
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

  hide = {
    think = function(v)
      local hunter = Prey.seen(v)
      if hunter then v:hide(hunter, { distance = 18, priority = 2 }) end -- behind the rock from it
    end,
    exit = function(v) v:stop("hide") end,
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
  Prey.eyes(v)
  fsm.start(v, Prey.brain)
  return v
end

return Prey
