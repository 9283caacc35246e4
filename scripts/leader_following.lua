-- Leader following: followers arrive behind the leader, keep apart, and dodge out of its way when in front of it.
-- Keys: m makes the leader follow the mouse (else it tours a loop, turning back through them every 10 s); f adds 5.
-- Try: steer the leader back through its own followers with the mouse and watch them step aside.
local M = { world = { width = 1000, height = 650, edges = "contain", seed = 10 } }

-- What F1 lists under the program's keys; keypressed and the mouse callbacks below do these.
M.keys = {
  { "mouse", "the leader's target while m is on" },
  { "m", "leader follows the mouse / tours its loop" },
  { "f", "five more followers" },
}

-- The pointer as the last mousemoved callback gave it: there is none before the mouse first moves
-- over the window (nor in headless runs, where steer.mouse() has nothing real to say).
local pointer
function M.mousemoved(x, y) pointer = { x, y } end
local function mouse() if pointer then return pointer[1], pointer[2] end end

local leader, the_world
local by_mouse = false
M.TURN_EVERY = 10 -- s: the touring leader turns back through its followers this often
local turn -- while it turns back: { x, y, until }; next_turn: when it next does
local next_turn = M.TURN_EVERY
local trail = {} -- the leader's last positions, oldest first

local function add_follower(world)
  local v = world:spawn{ kind = "follower", x = world:random(50, 950), y = world:random(50, 600),
                         max_speed = 110, max_force = 300, radius = 6, neighbor_radius = 30,
                         color = { 120, 200, 255 } }
  v:follow_leader(leader, { behind = 40, sight_radius = 60, slowing_radius = 60 })
  v:separate{ weight = 1.5 }
  v:contain{ margin = 30 }
end

-- The leader's tour without the mouse: a loop 150 or more from every wall, where the followers have
-- room behind and around it.
M.TOUR = { { 260, 190 }, { 740, 190 }, { 840, 325 }, { 740, 460 }, { 260, 460 }, { 160, 325 }, loop = true }
local tour_path
local function go_round() leader:follow(tour_path, { waypoint_radius = 40 }) end

function M.load(world)
  the_world, by_mouse = world, false
  leader = world:spawn{ kind = "leader", x = 500, y = 190, max_speed = 80, max_force = 200, radius = 10,
                        color = { 250, 220, 80 } }
  tour_path = world:path(M.TOUR)
  leader.data.tour = tour_path
  go_round()
  -- turning back 150 from the edges (80 had it along a wall or in a corner half the time) leaves the
  -- followers room behind and around it
  leader:contain{ margin = 150, weight = 2 }
  for _ = 1, 15 do add_follower(world) end
  M.leader = leader
  turn, next_turn, trail = nil, M.TURN_EVERY, {}
end

-- Without the mouse, every TURN_EVERY seconds the leader heads for a point behind it (kept off the
-- walls) for two seconds: back through its own followers, who get out of its way.
local function tour(world)
  if turn and world.time >= turn[3] then
    turn = nil
    leader:stop("seek")
    go_round()
    next_turn = world.time + M.TURN_EVERY
  elseif not turn and world.time >= next_turn then
    local x = math.max(200, math.min(world.width - 200, leader.x - 250 * math.cos(leader.heading)))
    local y = math.max(200, math.min(world.height - 200, leader.y - 250 * math.sin(leader.heading)))
    turn = { x, y, world.time + 2 }
    leader:stop("follow")
    leader:seek(x, y)
  end
end

function M.update(world)
  local x, y = mouse()
  if by_mouse and x then leader:arrive(x, y, { slowing_radius = 80 })
  elseif not by_mouse then tour(world) end
  if world.step_count % 3 == 0 then
    trail[#trail + 1] = { leader.x, leader.y }
    if #trail > 120 then table.remove(trail, 1) end
  end
end

-- A hot reload runs this file again, so its locals start afresh: pick the run back up from the
-- world (the vehicles and their v.data survive).
function M.reload(world)
  the_world, leader = world, world:vehicles("leader")[1]
  tour_path = leader.data.tour
  M.leader = leader
end

function M.keypressed(key)
  if key == "m" then
    by_mouse = not by_mouse
    turn = nil
    leader:stop("seek")
    if by_mouse then
      leader:stop("follow")
    else
      leader:stop("arrive")
      go_round()
      next_turn = the_world.time + M.TURN_EVERY
    end
  elseif key == "f" then
    for _ = 1, 5 do add_follower(the_world) end
  end
end

function M.draw(gfx)
  for i = 2, #trail do
    gfx.line(trail[i - 1][1], trail[i - 1][2], trail[i][1], trail[i][2], { 250, 220, 80, 20 + i })
  end
  local hx, hy = math.cos(leader.heading), math.sin(leader.heading)
  gfx.circle(leader.x - hx * 40, leader.y - hy * 40, 4, { 250, 220, 80, 160 }, true)  -- the point they arrive at
  gfx.circle(leader.x + hx * 40, leader.y + hy * 40, 60, { 250, 120, 80, 70 })        -- get out of the way here
  gfx.text(leader.x + hx * 40, leader.y + hy * 40 - 90, turn and "turning back: out of its way!" or "keep out",
    { 250, 140, 100, 220 }, "center")
  gfx.text(leader.x, leader.y + 16, "leader", { 250, 220, 80 }, "center")
  gfx.hud(("%d followers (f adds 5)   leader: %s (m)"):format(the_world:count("follower"),
    by_mouse and "mouse" or "touring"))
end

return M
