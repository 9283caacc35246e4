-- Seek, flee and arrive with the mouse pointer as the target (the same target, three behaviours).
-- Keys: 1 seek, 2 flee (panic distance 200), 3 arrive (slowing radius 120); the mouse moves the target.
-- Try: arrive, then hold the pointer still and watch them settle without overshooting; seek overshoots and circles.
local steer = require "steer"

local M = { world = { width = 900, height = 600, edges = "contain", seed = 1 } }

local mode, switched = "arrive", true
local agents = {}
local tx, ty = 450, 300

-- The mouse, or a point circling the centre when there is no mouse (headless runs, screenshots).
local function target(world)
  local x, y = steer.mouse()
  if x then return x, y end
  return 450 + 220 * math.cos(world.time * 0.4), 300 + 150 * math.sin(world.time * 0.4)
end

function M.load(world)
  mode, switched, agents = "arrive", true, {}
  for i = 1, 3 do
    agents[i] = world:spawn{ kind = "agent", x = 150 + 300 * (i - 1), y = 520, max_speed = 180,
                             max_force = 300, radius = 8, color = { 120, 200, 255 } }
  end
end

-- Calling a behaviour that is already on only moves its target, so this runs every step.
function M.update(world)
  tx, ty = target(world)
  for _, v in ipairs(agents) do
    if switched then
      v:stop()
      v:contain{ margin = 40 }
    end
    if mode == "seek" then v:seek(tx, ty)
    elseif mode == "flee" then v:flee(tx, ty, { panic_distance = 200 })
    else v:arrive(tx, ty, { slowing_radius = 120 }) end
  end
  switched = false
end

function M.keypressed(key)
  local new = ({ ["1"] = "seek", ["2"] = "flee", ["3"] = "arrive" })[key]
  if new and new ~= mode then mode, switched = new, true end
end

function M.draw(gfx)
  gfx.circle(tx, ty, 6, { 250, 220, 80 }, true)
  if mode == "flee" then gfx.circle(tx, ty, 200, { 250, 120, 80, 90 }) end
  if mode == "arrive" then gfx.circle(tx, ty, 120, { 250, 220, 80, 90 }) end
  gfx.hud("mode: " .. mode .. "   (1 seek, 2 flee, 3 arrive)")
end

return M
