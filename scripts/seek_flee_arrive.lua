-- Seek, flee and arrive with the mouse pointer as the target (the same target, three behaviours).
-- Keys: 1 seek, 2 flee (panic distance 200), 3 arrive (slowing radius 120); the mouse moves the target.
-- Try: arrive, hold the pointer still: it settles without overshooting; seek overshoots and circles (see the trail).
local M = { world = { width = 900, height = 600, edges = "contain", seed = 1 } }

-- What F1 lists under the program's keys; keypressed and the mouse callbacks below do these.
M.keys = {
  { "mouse", "the target (else it tours four spots)" },
  { "1", "seek" },
  { "2", "flee (panic distance 200)" },
  { "3", "arrive (slowing radius 120)" },
}

-- The pointer as the last mousemoved callback gave it: there is none before the mouse first moves
-- over the window (nor in headless runs, where steer.mouse() has nothing real to say).
local pointer
function M.mousemoved(x, y) pointer = { x, y } end
local function mouse() if pointer then return pointer[1], pointer[2] end end

local mode, switched = "arrive", true
local agent
local trail = {} -- the last positions, oldest first: shows overshoot (seek) and settling (arrive)
local tx, ty = 450, 300

-- Without a mouse (headless runs, screenshots) the target tours these spots, resting M.DWELL seconds
-- at each: a target that never stops would hide the point of arrive (it settles and stops) and of
-- flee (it runs to the panic distance and no further).
M.SPOTS = { { 300, 220 }, { 640, 400 }, { 620, 190 }, { 280, 420 } }
M.DWELL = 6

-- The mouse, or the spot of the moment.
local function target(world)
  local x, y = mouse()
  if x then return x, y end
  local spot = M.SPOTS[math.floor(world.time / M.DWELL) % #M.SPOTS + 1]
  return spot[1], spot[2]
end

function M.load(world)
  mode, switched, trail = "arrive", true, {}
  agent = world:spawn{ kind = "agent", x = 150, y = 520, max_speed = 180, max_force = 300, radius = 8,
                       color = { 120, 200, 255 } }
end

-- Calling a behaviour that is already on only moves its target, so this runs every step.
function M.update(world)
  tx, ty = target(world)
  if switched then
    agent:stop()
    agent:contain{ margin = 40 }
    switched = false
  end
  if mode == "seek" then agent:seek(tx, ty)
  elseif mode == "flee" then agent:flee(tx, ty, { panic_distance = 200 })
  else agent:arrive(tx, ty, { slowing_radius = 120 }) end
  if world.step_count % 3 == 0 then
    trail[#trail + 1] = { agent.x, agent.y }
    if #trail > 60 then table.remove(trail, 1) end
  end
end

-- A hot reload runs this file again, so its locals start afresh: pick the run back up from the
-- world (the vehicles and their v.data survive).
function M.reload(world)
  agent, switched, trail = world:vehicles("agent")[1], true, {}
end

function M.keypressed(key)
  local new = ({ ["1"] = "seek", ["2"] = "flee", ["3"] = "arrive" })[key]
  if new and new ~= mode then mode, switched = new, true end
end

function M.draw(gfx)
  for i = 2, #trail do
    gfx.line(trail[i - 1][1], trail[i - 1][2], trail[i][1], trail[i][2], { 120, 200, 255, 40 + 3 * i })
  end
  gfx.circle(tx, ty, 6, { 250, 220, 80 }, true)
  gfx.text(tx, ty + 10, "target", { 250, 220, 80 }, "center")
  if mode == "flee" then
    gfx.circle(tx, ty, 200, { 250, 120, 80, 90 })
    gfx.text(tx, ty - 200 - 20, "panic distance 200: flees only inside", { 250, 150, 110 }, "center")
  end
  if mode == "arrive" then
    gfx.circle(tx, ty, 120, { 250, 220, 80, 90 })
    gfx.text(tx, ty - 120 - 20, "slowing radius 120: brakes inside", { 250, 220, 80 }, "center")
  end
  gfx.hud("mode: " .. mode .. "   (1 seek, 2 flee, 3 arrive)")
end

return M
