-- Leader following: followers arrive behind the leader, keep apart, and dodge out of its way when in front of it.
-- Keys: m makes the leader follow the mouse (else it wanders); f adds five followers.
-- Try: steer the leader back through its own followers with the mouse and watch them step aside.
local M = { world = { width = 1000, height = 650, edges = "contain", seed = 10 } }

-- What F1 lists under the program's keys; keypressed and the mouse callbacks below do these.
M.keys = {
  { "mouse", "the leader's target while m is on" },
  { "m", "leader follows the mouse / wanders" },
  { "f", "five more followers" },
}

-- The pointer as the last mousemoved callback gave it: there is none before the mouse first moves
-- over the window (nor in headless runs, where steer.mouse() has nothing real to say).
local pointer
function M.mousemoved(x, y) pointer = { x, y } end
local function mouse() if pointer then return pointer[1], pointer[2] end end

local leader, the_world
local by_mouse = false

local function add_follower(world)
  local v = world:spawn{ kind = "follower", x = world:random(50, 950), y = world:random(50, 600),
                         max_speed = 110, max_force = 300, radius = 6, neighbor_radius = 30,
                         color = { 120, 200, 255 } }
  v:follow_leader(leader, { behind = 40, sight_radius = 60, slowing_radius = 60 })
  v:separate{ weight = 1.5 }
  v:contain{ margin = 30 }
end

function M.load(world)
  the_world, by_mouse = world, false
  leader = world:spawn{ kind = "leader", x = 500, y = 320, max_speed = 80, max_force = 200, radius = 10,
                        color = { 250, 220, 80 } }
  leader:wander{ radius = 30, distance = 70, jitter = 50 }
  -- turning back 150 from the edges (80 had it along a wall or in a corner half the time) leaves the
  -- followers room behind and around it
  leader:contain{ margin = 150, weight = 2 }
  for _ = 1, 15 do add_follower(world) end
  M.leader = leader
end

function M.update()
  local x, y = mouse()
  if by_mouse and x then leader:arrive(x, y, { slowing_radius = 80 }) end
end

-- A hot reload runs this file again, so its locals start afresh: pick the run back up from the
-- world (the vehicles and their v.data survive).
function M.reload(world)
  the_world, leader = world, world:vehicles("leader")[1]
  M.leader = leader
end

function M.keypressed(key)
  if key == "m" then
    by_mouse = not by_mouse
    if by_mouse then
      leader:stop("wander")
    else
      leader:stop("arrive")
      leader:wander{ radius = 30, distance = 70, jitter = 50 }
    end
  elseif key == "f" then
    for _ = 1, 5 do add_follower(the_world) end
  end
end

function M.draw(gfx)
  local hx, hy = math.cos(leader.heading), math.sin(leader.heading)
  gfx.circle(leader.x - hx * 40, leader.y - hy * 40, 4, { 250, 220, 80, 160 }, true)  -- the point they arrive at
  gfx.circle(leader.x + hx * 40, leader.y + hy * 40, 60, { 250, 120, 80, 70 })        -- get out of the way here
  gfx.hud(("%d followers (f adds 5)   leader: %s (m)"):format(the_world:count("follower"),
    by_mouse and "mouse" or "wandering"))
end

return M
