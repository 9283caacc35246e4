-- Hide and interpose: grey sheep hide behind rocks from the red wolf; the green guard keeps between wolf and gold VIP.
-- Keys: the wolf follows the mouse when there is one (else it prowls); h toggles hiding.
-- Try: walk the wolf around a rock and watch the sheep slip round to its far side; the guard stays in the line of fire.
local M = { world = { width = 1000, height = 650, edges = "contain", seed = 12 } }

-- What F1 lists under the program's keys; keypressed and the mouse callbacks below do these.
M.keys = {
  { "mouse", "the wolf follows the pointer (else it prowls)" },
  { "h", "sheep hiding on / off" },
}

-- The pointer as the last mousemoved callback gave it: there is none before the mouse first moves
-- over the window (nor in headless runs, where steer.mouse() has nothing real to say).
local pointer
function M.mousemoved(x, y) pointer = { x, y } end
local function mouse() if pointer then return pointer[1], pointer[2] end end

M.rocks = { { 250, 200, 35 }, { 500, 420, 45 }, { 760, 220, 35 }, { 300, 500, 30 }, { 780, 500, 30 } }
local wolf, vip, guard
local sheep = {}
local hiding = true

local function steer_sheep()
  for i, s in ipairs(sheep) do
    if hiding then
      s:stop("wander")
      -- each keeps its own distance behind the rock, so they line up instead of piling up
      s:hide(wolf, { distance = 8 + (i - 1) % 4 * 14, slowing_radius = 40, priority = 2 })
    else
      s:stop("hide")
      s:wander{ radius = 20, distance = 40, jitter = 60, priority = 2 }
    end
  end
end

function M.load(world)
  hiding, sheep = true, {}
  for _, r in ipairs(M.rocks) do world:obstacle{ x = r[1], y = r[2], radius = r[3] } end
  wolf = world:spawn{ kind = "wolf", x = 500, y = 120, max_speed = 70, max_force = 200, radius = 10,
                      color = { 230, 70, 60 } }
  wolf:wander{ radius = 30, distance = 70, jitter = 40 }
  wolf:avoid_obstacles{ weight = 3 }
  wolf:contain{ margin = 60, weight = 2 }
  vip = world:spawn{ kind = "vip", x = 880, y = 600, max_speed = 20, max_force = 100, radius = 8,
                     color = { 250, 200, 60 } }
  vip:wander{ radius = 10, distance = 30, jitter = 20 }
  vip:contain{ margin = 40 }
  guard = world:spawn{ kind = "guard", x = 850, y = 450, max_speed = 130, max_force = 350, radius = 8,
                       color = { 120, 230, 130 } }
  guard:interpose(wolf, vip, { slowing_radius = 40 })
  for i = 1, 8 do
    local s = world:spawn{ kind = "sheep", x = 100 + i * 90, y = 330, max_speed = 90, max_force = 250, radius = 6,
                           combine = "priority", color = { 200, 200, 200 } }
    s:avoid_obstacles{ priority = 0, weight = 3 }
    s:contain{ margin = 30, priority = 1 }
    sheep[i] = s
  end
  steer_sheep()
  M.wolf, M.guard, M.vip, M.sheep = wolf, guard, vip, sheep
end

function M.update()
  local x, y = mouse()
  if x then
    wolf:stop("wander")
    wolf:arrive(x, y, { slowing_radius = 50 })
  end
end

-- A hot reload runs this file again, so its locals start afresh: pick the run back up from the
-- world (the vehicles and their v.data survive).
function M.reload(world)
  wolf, vip, guard = world:vehicles("wolf")[1], world:vehicles("vip")[1], world:vehicles("guard")[1]
  sheep = world:vehicles("sheep")
  M.wolf, M.guard, M.vip, M.sheep = wolf, guard, vip, sheep
  steer_sheep()
end

function M.keypressed(key)
  if key == "h" then hiding = not hiding; steer_sheep() end
end

function M.draw(gfx)
  gfx.line(wolf.x, wolf.y, vip.x, vip.y, { 250, 200, 60, 70 })
  gfx.hud("hiding " .. (hiding and "on" or "off") .. " (h)   green guard keeps between red wolf and gold VIP")
end

return M
