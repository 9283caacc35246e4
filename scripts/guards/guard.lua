-- SPDX-License-Identifier: MIT
-- guards/guard.lua - a guard's brain: an fsm machine woken only by what its senses report and by
-- its own timer (no think: the runtime calls it when something happened).
--
--   patrol      walks its round (or stands at its post); sees an intruder -> chase; hears -> investigate
--   chase       pursues what it saw; catches it at arm's length; loses sight of it -> search
--   search      goes where the intruder was last seen (a little along its way), then looks around;
--               sees it again -> chase; forgets it (forget_after) -> patrol: it gives up
--   investigate goes to a noise it heard and looks around for a while; sees someone -> chase
--
-- Everything it needs is in v.data (target, spot, game), so it survives reloads.
local fsm = require "fsm"

local Guard = {}

-- Its senses: eyes for intruders (a cone, blocked by walls and crates) and ears for noises and
-- footsteps (through walls). Tunables come from the scene's config through v.data.game.
function Guard.senses(v, config)
  v:sense{ name = "eyes", sight = { kinds = { "intruder" }, range = config.sight_range, fov = config.fov,
                                    forget_after = config.forget_after } }
  v:sense{ name = "ears", hearing = { tags = { "noise", "step" } } } -- as far as each sound carries
end

-- What every state keeps on: walls and crates are avoided first, whatever else it does.
local function base(v)
  v:stop()
  v:avoid_walls{ feeler_length = 30, priority = 0, weight = 3 }
  v:avoid_obstacles{ detection_length = 40, priority = 1, weight = 2 }
end

local function config(v) return v.data.game.config end

-- On any sense event: an intruder in sight is chased, whatever the guard was doing.
local function spotted(v, sense, other)
  if sense ~= "eyes" or not other then return end
  v.data.target = other
  return "chase"
end

-- A noise or a footstep: go and see.
local function heard(v, sense, tag, x, y)
  if sense ~= "ears" then return end
  v.data.spot = { x, y }
  v.data.heard = tag
  return "investigate"
end

Guard.machine = fsm.machine{
  initial = "patrol",
  states = {
    patrol = {
      enter = function(v)
        base(v)
        v.max_speed = config(v).patrol_speed
        v.data.target = nil
        if v.data.route then
          v:follow(v.data.route, { waypoint_radius = 16, priority = 2 })
        else
          v:set_velocity(0, 0) -- stands at its post, looking where it looks
        end
      end,
      on_sensed = spotted,
      on_heard = heard,
    },

    chase = {
      enter = function(v)
        base(v)
        v.max_speed = config(v).chase_speed
        v:pursue(v.data.target, { priority = 2 })
        v:wake_in(config(v).catch_check) -- a timer, not a think: is it within reach?
      end,
      on_timer = function(v)
        local target = v.data.target
        if not (target and target:alive()) then return "patrol" end
        local dx, dy = target.x - v.x, target.y - v.y
        if dx * dx + dy * dy <= config(v).catch_distance ^ 2 then
          v.data.game.caught(v, target)
          return "patrol"
        end
        v:wake_in(config(v).catch_check)
      end,
      on_lost = function(v, sense, other)
        if sense == "eyes" and other == v.data.target then return "search" end
      end,
      on_forgot = function(v, sense, other) -- its target was removed
        if sense == "eyes" and (other == nil or other == v.data.target) then return "patrol" end
      end,
      exit = function(v) v:cancel_wake() end,
    },

    search = {
      enter = function(v)
        base(v)
        v.max_speed = config(v).patrol_speed
        -- where the memory says it was last seen, and a little along the way it was going
        local lead = config(v).search_lead
        for other, x, y, vx, vy in v:memory("eyes") do
          if other == v.data.target then v.data.spot = { x + vx * lead, y + vy * lead } end
        end
        local spot = v.data.spot
        if spot then v:arrive(spot[1], spot[2], { slowing_radius = 30, priority = 2 }) end
        v:wake_in(config(v).look_after)
      end,
      on_timer = function(v) -- there (or as near as it got): look around until it forgets
        v:stop("arrive"):wander{ radius = 20, distance = 40, jitter = 120, priority = 2 }
      end,
      on_sensed = spotted,
      on_forgot = function(v, sense, other)
        if sense == "eyes" and (other == nil or other == v.data.target) then return "patrol" end
      end,
      on_heard = heard,
      exit = function(v) v:cancel_wake() end,
    },

    investigate = {
      enter = function(v)
        base(v)
        v.max_speed = config(v).patrol_speed
        local spot = v.data.spot
        v:arrive(spot[1], spot[2], { slowing_radius = 30, priority = 2 })
        v:wake_in(config(v).investigate_for)
      end,
      on_heard = function(v, sense, tag, x, y) -- another noise: go there instead
        if sense ~= "ears" then return end
        v.data.spot = { x, y }
        v:arrive(x, y, { slowing_radius = 30, priority = 2 })
        v:wake_in(config(v).investigate_for)
      end,
      on_sensed = spotted,
      on_timer = function() return "patrol" end, -- nothing found
      exit = function(v) v:cancel_wake() end,
    },
  },
}

return Guard
