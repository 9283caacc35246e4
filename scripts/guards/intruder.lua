-- SPDX-License-Identifier: MIT
-- guards/intruder.lua - an intruder's brain, woken by events only: it sneaks about (wanders, keeping
-- off walls and crates), runs from a guard it sees until it loses sight of every guard, and its
-- footsteps are sounds (a timer every config.step_every s) that guards near enough hear.
local fsm = require "fsm"

local Intruder = {}

function Intruder.senses(v, config)
  v:sense{ name = "eyes", sight = { kinds = { "guard" }, range = config.intruder_sight, fov = 180,
                                    forget_after = 1 } }
end

local function config(v) return v.data.game.config end

local function sneak(v)
  v:stop()
  v:avoid_walls{ feeler_length = 30, priority = 0, weight = 3 }
  v:avoid_obstacles{ detection_length = 35, priority = 1, weight = 2 }
  if not v.data.still then v:wander{ radius = 25, distance = 50, jitter = 60, priority = 2 } end
end

-- Runs from the closest guard in sight (the one v:sensed reports).
local function flee_closest(v)
  local guard = v:sensed("eyes")
  if not guard then return "sneak" end
  if v.data.still then return end
  sneak(v)
  v:evade(guard, { priority = 2, weight = 2 })
end

local function footsteps(v)
  if v.data.game.footsteps and v.speed > 1 then v:emit{ radius = config(v).step_radius, tag = "step" } end
  v:wake_in(config(v).step_every)
end

Intruder.machine = fsm.machine{
  initial = "sneak",
  states = {
    sneak = {
      enter = function(v)
        sneak(v)
        v.max_speed = config(v).intruder_speed
      end,
      on_sensed = function(v, sense) if sense == "eyes" then return "run" end end,
      on_timer = footsteps,
    },
    run = {
      enter = flee_closest,
      on_sensed = flee_closest, -- another guard: run from the closest
      on_lost = flee_closest,   -- out of one guard's sight: the next, or sneak on
      on_timer = footsteps,
    },
  },
}

return Intruder
