-- SPDX-License-Identifier: MIT
-- crowd.lua - what the crowd demos (circle_crossing, two_streams) share: the two ways their walkers
-- avoid one another, and the overlap they count.
--
--   local crowd = require "crowd"
--   crowd.avoid(v, orca, max_speed)   -- after its arrive or seek: orca, or separate + avoid_collisions
--   if crowd.overlapping(world, walkers, radius, counts) then ... end
--
-- An overlap is two vehicles closer than 0.9 of the sum of their radii, the crowd benchmark's
-- measure (make bench-crowd); the world's grid finds the pairs (world:neighbors), no loop over
-- every pair.
local M = {}

--- Sets how `v` avoids the others, its goal behaviour already set: reciprocal avoidance when `orca`
--- (its preferred velocity is its goal behaviour's, and max_force reaches any safe velocity in a
--- step), else the older steering (separate + avoid_collisions, at an ordinary max_force).
function M.avoid(v, orca, max_speed)
  if orca then
    v.max_force, v.response_time = max_speed * 60, 1 / 60
    v:orca{ horizon = 2, obstacle_horizon = 1, max_neighbors = 10, range = 80 }
  else
    v.max_force, v.response_time = 600, 0.25
    v:separate{}
    v:avoid_collisions{ weight = 2 }
  end
end

--- Whether two of `vehicles` (all of radius `radius`) overlap. `counts(v)`, if given, says which
--- vehicles take part (the others are neither tested nor counted as the other of a pair).
function M.overlapping(world, vehicles, radius, counts)
  for _, v in ipairs(vehicles) do
    if not counts or counts(v) then
      for _, o in ipairs(world:neighbors(v, 1.8 * radius)) do
        if not counts or counts(o) then return true end
      end
    end
  end
  return false
end

return M
