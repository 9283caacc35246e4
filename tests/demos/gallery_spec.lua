-- gallery_spec.lua - every demo runs headless without error, drawing included (a screenshot), and
-- the gallery demos do what they are meant to show.
package.path = "tests/demos/?.lua;" .. package.path
local H = require "helper"

local function demos()
  local list = {}
  for name in io.popen("ls scripts/*.lua"):lines() do list[#list + 1] = name:match("scripts/(.+)%.lua$") end
  return list
end

local function wrap(name, body)
  return ("local scene = require %q\n%s\nreturn scene\n"):format(name, body or "")
end

describe("gallery", function()
  for _, name in ipairs(demos()) do
    it(name .. " runs 240 steps headless and draws a frame without error", function()
      local png = os.tmpname() .. ".png"
      local r = H.ok(H.run(wrap(name), { steps = 240, seed = 1, args = { "--screenshot", png, "--at-step", "240" } }))
      local f = io.open(png, "rb")
      assert.is_not_nil(f, "no screenshot written\n" .. r.err)
      assert.are.equal("\137PNG", f:read(4))
      f:close()
      os.remove(png)
    end)

    -- F1 shows a scene's keys only when it lists them: a key it answers but leaves out is one
    -- nobody finds. Each listed key (one character; "q / a" names two) is pressed twice, so a toggle
    -- goes both ways, and the scene must take it without an error.
    it(name .. " lists its keys for F1, and each listed key works", function()
      local r = H.ok(H.run(wrap(name, [[
local presses = {}
for _, row in ipairs(scene.keys or {}) do
  for k in row[1]:gmatch("[^ /]+") do if #k == 1 then presses[#presses + 1] = k end end
end
report("rows", #(scene.keys or {})); report("presses", #presses); report("answers", (scene.keypressed or scene.mousepressed) and 1 or 0)
local update = scene.update or function() end
function scene.update(world, dt)
  update(world, dt)
  local n = world.step_count
  local k = n % 20 == 0 and #presses > 0 and presses[(n // 20 - 1) % #presses + 1]
  if k and n > 0 and n <= 40 * #presses then scene.keypressed(k); report("pressed", k) end
end]]), { steps = 300, seed = 1 }))
      if r.values.answers == 1 then assert.is_true(r.values.rows > 0, name .. " answers keys but lists none") end
      assert.are.equal(2 * r.values.presses, #(r.all.pressed or {}))
    end)
  end

  it("navigation: hunters that navigate catch more prey than hunters that seek straight into walls", function()
    local function catches(key)
      local r = H.ok(H.run(wrap("navigation", ([[
local load = scene.load
function scene.load(world) load(world); if %q ~= "" then scene.keypressed(%q) end end
local update = scene.update
function scene.update(world, dt)
  update(world, dt)
  if world.time >= 39.9 and not said then said = true
    local n = 0
    for _, h in ipairs(scene.hunters) do n = n + h.data.catches end
    report("catches", n)
  end
end]]):format(key, key)), { steps = 2400, seed = 1 }))
      return r.values.catches
    end
    local navigating, seeking = catches(""), catches("n")
    assert.is_true(navigating >= 2 * seeking + 5, ("navigate %d catches, seek %d"):format(navigating, seeking))
  end)

  it("navigation: hunters chase what they see, search where they last saw it, roam; the crowd crosses the maze", function()
    local r = H.ok(H.run(wrap("navigation", [[
local update = scene.update
function scene.update(world, dt)
  update(world, dt)
  if world.time >= 29.9 and not said then said = true
    report("chase", scene.decisions.chase); report("search", scene.decisions.search)
    report("roam", scene.decisions.roam); report("arrivals", scene.arrivals)
  end
end]]), { steps = 1800, seed = 1 }))
    local v = r.values
    assert.is_true(v.chase > 0 and v.search > 0 and v.roam > 0,
      ("chase %d, search %d, roam %d decisions"):format(v.chase, v.search, v.roam))
    assert.is_true(v.arrivals >= 20, ("%d walkers crossed the maze in 30 s"):format(v.arrivals))
  end)

  it("pursuit_evade: pursuit (aiming ahead) catches the evading runner more often than plain seek", function()
    local r = H.ok(H.run(wrap("pursuit_evade", [[
local update = scene.update
function scene.update(world, dt)
  update(world, dt)
  if world.time >= 59.9 and not said then said = true
    report("pursuer", scene.hunters[1].data.catches); report("seeker", scene.hunters[2].data.catches) end
end]]), { steps = 3600, seed = 1 }))
    assert.is_true(r.values.pursuer >= r.values.seeker + 2 and r.values.pursuer >= 5,
      ("pursuer %d catches, seeker %d"):format(r.values.pursuer, r.values.seeker))
  end)

  it("seek_flee_arrive: with no mouse, arrive stops on each resting target, seek overshoots, flee stays out", function()
    local function run(key)
      return H.ok(H.run(wrap("seek_flee_arrive", ([[
local load = scene.load
function scene.load(world) load(world); scene.keypressed(%q) end
local update = scene.update
local overshoot, near = 0, false
function scene.update(world, dt)
  update(world, dt)
  local a = world:vehicles("agent")[1]
  local spot = scene.SPOTS[math.floor(world.time / scene.DWELL) %% #scene.SPOTS + 1]
  local d = math.sqrt((a.x - spot[1]) ^ 2 + (a.y - spot[2]) ^ 2)
  if math.floor(world.time / scene.DWELL) ~= math.floor((world.time + dt) / scene.DWELL) then
    report("end_dist", d); report("end_speed", a.speed); near = false -- the last step before the target moves
  else
    near = near or d < 10 -- how far past the target it goes once it has reached it
    if near then overshoot = math.max(overshoot, d) end
  end
  if world.time >= 23.9 and not said then said = true; report("overshoot", overshoot) end
end]]):format(key)), { steps = 1500, seed = 1 }))
    end
    local arrive, seek, flee = run("3"), run("1"), run("2")
    assert.is_true(#arrive.all.end_dist >= 4, "the target rested only " .. #arrive.all.end_dist .. " times")
    for i, d in ipairs(arrive.all.end_dist) do
      assert.is_true(d < 2 and arrive.all.end_speed[i] < 1, ("arrive ended rest %d at %.1f units, speed %.2f")
        :format(i, d, arrive.all.end_speed[i]))
    end
    assert.is_true(arrive.values.overshoot < 12, "arrive overshot by " .. arrive.values.overshoot)
    assert.is_true(seek.values.overshoot > 30, "seek passed its target by only " .. seek.values.overshoot)
    for i, d in ipairs(flee.all.end_dist) do assert.is_true(d > 190, ("flee ended rest %d at %.1f units"):format(i, d)) end
  end)

  it("seek_flee_arrive: starts with the three side by side, each named; a key leaves one, 4 brings the three back",
    function()
    local r = H.ok(H.run(wrap("seek_flee_arrive", [[
local update = scene.update
function scene.update(world, dt)
  update(world, dt)
  local n = world.step_count
  if n == 30 or n == 90 or n == 150 then
    local states = {}
    for _, v in ipairs(world:vehicles("agent")) do states[#states + 1] = v.state end
    table.sort(states)
    report("agents", table.concat(states, ","))
  end
  if n == 60 then scene.keypressed("1") end
  if n == 120 then scene.keypressed("4") end
end]]), { steps = 151, seed = 1 }))
    assert.are.same({ "arrive,flee,seek", "seek", "arrive,flee,seek" }, r.all.agents)
  end)

  it("hide_interpose: hiding sheep keep a rock between them and the wolf; the guard keeps to the line", function()
    local function run(hide)
      return H.ok(H.run(wrap("hide_interpose", ([[
local load = scene.load
function scene.load(world) load(world); if not %s then scene.keypressed("h") end end
-- does a rock cut the segment a-b?
local function blocked(ax, ay, bx, by)
  for _, r in ipairs(scene.rocks) do
    local dx, dy = bx - ax, by - ay
    local t = math.max(0, math.min(1, ((r[1] - ax) * dx + (r[2] - ay) * dy) / (dx * dx + dy * dy)))
    if (ax + t * dx - r[1]) ^ 2 + (ay + t * dy - r[2]) ^ 2 < r[3] ^ 2 then return true end
  end
  return false
end
local hidden, n, off, between, m = 0, 0, 0, 0, 0
local update = scene.update
function scene.update(world, dt)
  update(world, dt)
  if world.time < 10 then return end -- time to find a rock
  local w, v, g = scene.wolf, scene.vip, scene.guard
  for _, s in ipairs(scene.sheep) do
    if blocked(w.x, w.y, s.x, s.y) then hidden = hidden + 1 end
    n = n + 1
  end
  local dx, dy = v.x - w.x, v.y - w.y
  local len2 = dx * dx + dy * dy
  local t = ((g.x - w.x) * dx + (g.y - w.y) * dy) / len2
  off, m = off + math.abs((g.x - w.x) * dy - (g.y - w.y) * dx) / math.sqrt(len2), m + 1
  if t > 0 and t < 1 then between = between + 1 end
  if world.time >= 59.9 and not said then said = true
    report("hidden", hidden / n); report("off", off / m); report("between", between / m) end
end]]):format(tostring(hide))), { steps = 3600, seed = 1 }))
    end
    local on, off = run(true), run(false)
    assert.is_true(on.values.hidden > 0.9, "hidden from the wolf only " .. on.values.hidden .. " of the time")
    assert.is_true(off.values.hidden < 0.6, "wandering sheep were hidden " .. off.values.hidden .. ": proves nothing")
    assert.is_true(on.values.off < 15, "the guard was on average " .. on.values.off .. " off the wolf-VIP line")
    assert.is_true(on.values.between > 0.95, "the guard was between them only " .. on.values.between .. " of the time")
  end)

  it("leashed_wander: roaming stays within its max distance of home, pulling within twice the return radius", function()
    local r = H.ok(H.run(wrap("leashed_wander", [[
local far = { pull = 0, roam = 0 }
function scene.update(world)
  for _, h in ipairs(scene.homes) do
    far[h.method] = math.max(far[h.method], math.sqrt((h.v.x - h.x) ^ 2 + (h.v.y - h.y) ^ 2))
  end
  if world.time >= 59.9 and not said then said = true
    report("pull", far.pull); report("roam", far.roam); report("radius", scene.RADIUS) end
end]]), { steps = 3600, seed = 2 }))
    assert.is_true(r.values.roam <= r.values.radius + 15, "a roaming vehicle got " .. r.values.roam .. " from home")
    assert.is_true(r.values.pull <= 2 * r.values.radius, "a pulled vehicle got " .. r.values.pull .. " from home")
    assert.is_true(r.values.pull > r.values.radius, "pulled vehicles never strayed past the return radius")
  end)

  it("leader_following: the followers keep close, mostly behind the leader, who keeps off the walls", function()
    local r = H.ok(H.run(wrap("leader_following", [[
local behind, n, dist = 0, 0, 0
function scene.update(world)
  if world.time < 10 then return end -- they start scattered: judge from 10 s on
  local L = scene.leader
  local hx, hy = math.cos(L.heading), math.sin(L.heading)
  for _, f in ipairs(world:vehicles("follower")) do
    local dx, dy = f.x - L.x, f.y - L.y
    if dx * hx + dy * hy < 0 then behind = behind + 1 end
    dist, n = dist + math.sqrt(dx * dx + dy * dy), n + 1
  end
  local margin = math.min(L.x, world.width - L.x, L.y, world.height - L.y)
  if margin < 100 then near_edge = (near_edge or 0) + 1 end
  if world.time >= 59.9 and not said then said = true
    report("behind", behind / n); report("dist", dist / n); report("near_edge", near_edge or 0) end
end]]), { steps = 3600, seed = 1 }))
    -- scattered followers would be behind half the time and hundreds of units away
    assert.is_true(r.values.behind >= 0.6, "behind the leader only " .. r.values.behind .. " of the time")
    assert.is_true(r.values.dist < 90, "mean distance to the leader " .. r.values.dist)
    -- and the leader keeps off the walls, where the followers would be squeezed
    assert.are.equal(0, r.values.near_edge, "steps the leader spent within 100 of an edge")
  end)

  it("walls: with wall avoidance nobody crosses a wall; without it they walk through", function()
    local function run(avoid)
      return H.ok(H.run(wrap("walls", ([[
local last, crossings = {}, 0
-- do segments p-q and a-b cross?
local function side(ax, ay, bx, by, px, py) return (bx - ax) * (py - ay) - (by - ay) * (px - ax) end
local function cross(px, py, qx, qy, s)
  local d1, d2 = side(s[1], s[2], s[3], s[4], px, py), side(s[1], s[2], s[3], s[4], qx, qy)
  local d3, d4 = side(px, py, qx, qy, s[1], s[2]), side(px, py, qx, qy, s[3], s[4])
  return d1 * d2 < 0 and d3 * d4 < 0
end
local load = scene.load
function scene.load(world) load(world); if not %s then scene.keypressed("w") end end
function scene.update(world)
  for _, v in ipairs(scene.walkers) do
    local p = last[v]
    for _, s in ipairs(p and scene.segments or {}) do
      if cross(p[1], p[2], v.x, v.y, s) then crossings = crossings + 1 end
    end
    last[v] = { v.x, v.y }
  end
  if world.time >= 29.9 and not said then said = true; report("crossings", crossings) end
end]]):format(tostring(avoid))), { steps = 1800, seed = 3 }))
    end
    local on, off = run(true), run(false)
    assert.are.equal(0, on.values.crossings)
    assert.is_true(off.values.crossings > 0, "nobody crossed a wall even without avoidance: the test proves nothing")
  end)

  it("obstacle_course: no rock is hit with avoidance on, some are without", function()
    local function run(avoid)
      return H.ok(H.run(wrap("obstacle_course", ([[
local worst = math.huge
local load = scene.load
function scene.load(world) load(world); if not %s then scene.keypressed("o") end end
function scene.update(world)
  for _, v in ipairs(scene.crowd) do
    for _, o in ipairs(scene.rocks) do
      worst = math.min(worst, math.sqrt((v.x - o.x) ^ 2 + (v.y - o.y) ^ 2) - o.r - v.radius)
    end
  end
  if world.time >= 19.9 and not said then said = true; report("clearance", worst) end
end]]):format(tostring(avoid))), { steps = 1200, seed = 1 }))
    end
    assert.is_true(run(true).values.clearance >= 0, "a vehicle ran into a rock")
    assert.is_true(run(false).values.clearance < 0, "nobody hit a rock even without avoidance: the test proves nothing")
  end)

  it("flow_field: the drifters fly along the field", function()
    local r = H.ok(H.run(wrap("flow_field", [[
local sum, n = 0, 0
function scene.update(world)
  if world.time < 5 then return end
  for _, v in ipairs(world:vehicles("drifter")) do
    local dx, dy = scene.field:sample(v.x, v.y)
    local len = math.sqrt(dx * dx + dy * dy)
    if len > 0 and v.speed > 0 then sum, n = sum + (dx * v.vx + dy * v.vy) / (len * v.speed), n + 1 end
  end
  if world.time >= 9.9 and not said then said = true; report("alignment", sum / n) end
end]]), { steps = 600, seed = 1 }))
    assert.is_true(r.values.alignment > 0.9, "mean cosine between velocity and field " .. r.values.alignment)
  end)

  it("flow_field: where the field converges the drifters form bands, not single files on top of each other", function()
    local function run(key)
      return H.ok(H.run(wrap("flow_field", ([[
local load = scene.load
function scene.load(world) load(world); if %q ~= "" then scene.keypressed(%q) end end
function scene.update(world)
  if world.time >= 29.9 and not said then
    said = true
    local vs, stacked = world:vehicles("drifter"), 0
    for i = 1, #vs do
      for j = i + 1, #vs do
        local a, b = vs[i], vs[j]
        if (a.x - b.x) ^ 2 + (a.y - b.y) ^ 2 < (0.5 * (a.radius + b.radius)) ^ 2 then stacked = stacked + 1 end
      end
    end
    report("stacked", stacked)
  end
end]]):format(key, key)), { steps = 1800, seed = 1 }))
    end
    -- pairs closer than half their radii's sum: one drawn over the other
    for _, key in ipairs({ "", "f" }) do
      local r = run(key)
      assert.is_true(r.values.stacked <= 4, r.values.stacked .. " pairs of drifters on top of each other")
    end
  end)

  it("path_following: every follower visits its waypoints in order, none skipped", function()
    local r = H.ok(H.run(wrap("path_following", [[
local update = scene.update
function scene.update(world, dt)
  update(world, dt)
  if world.time >= 29.9 and not said then
    said = true
    for _, f in ipairs(scene.followers) do
      report(f.v.kind, table.concat(f.v.data.visits, ","))
    end
  end
end]]), { steps = 1800 }))
    assert.are.equal(3, #r.all.open)
    for _, visits in ipairs(r.all.open) do assert.are.equal("1,2,3,4,5,6,7", visits) end
    for _, visits in ipairs(r.all.loop) do
      local seq = {}
      for n in tostring(visits):gmatch("%d+") do seq[#seq + 1] = tonumber(n) end
      assert.is_true(#seq >= 8, "a looped follower only got to " .. visits)
      for i, n in ipairs(seq) do assert.are.equal((i - 1) % 6 + 1, n, "visits " .. visits) end
    end
  end)

  it("path_following: nobody strays farther from the path than the waypoint radius; blue ones park apart", function()
    local r = H.ok(H.run(wrap("path_following", [[
local function seg_dist(px, py, a, b)
  local dx, dy = b[1] - a[1], b[2] - a[2]
  local t = math.max(0, math.min(1, ((px - a[1]) * dx + (py - a[2]) * dy) / (dx * dx + dy * dy)))
  return math.sqrt((a[1] + t * dx - px) ^ 2 + (a[2] + t * dy - py) ^ 2)
end
local worst = 0
local update = scene.update
function scene.update(world, dt)
  update(world, dt)
  for _, f in ipairs(scene.followers) do
    local pts, loop = f.points, f.v.kind == "loop"
    local near = math.huge
    for i = 1, #pts - (loop and 0 or 1) do near = math.min(near, seg_dist(f.v.x, f.v.y, pts[i], pts[i % #pts + 1])) end
    worst = math.max(worst, near)
  end
  if world.time >= 59.9 and not said then
    said = true
    report("worst", worst); report("radius", scene.WAYPOINT)
    local blue, last = world:vehicles("open"), scene.open_points[#scene.open_points]
    for i, a in ipairs(blue) do
      report("end_speed", a.speed); report("from_end", math.sqrt((a.x - last[1]) ^ 2 + (a.y - last[2]) ^ 2))
      for j = i + 1, #blue do
        local b = blue[j]
        report("gap", math.sqrt((a.x - b.x) ^ 2 + (a.y - b.y) ^ 2) - a.radius - b.radius)
      end
    end
  end
end]]), { steps = 3600 }))
    assert.is_true(r.values.worst <= r.values.radius, ("a follower got %.1f units off its path"):format(r.values.worst))
    -- the blue ones end stopped at the open path's end, side by side rather than stacked on one point
    assert.are.equal(3, #r.all.end_speed)
    for i = 1, 3 do
      assert.are.equal(0, r.all.end_speed[i])
      assert.is_true(r.all.from_end[i] <= r.values.radius, "a blue one stopped " .. r.all.from_end[i] .. " from the end")
      assert.is_true(r.all.gap[i] >= 0, "two blue ones overlap by " .. -r.all.gap[i])
    end
  end)

  it("queueing: everyone gets through the narrow door with no two overlapping", function()
    local r = H.ok(H.run(wrap("queueing", [[
local update = scene.update
local overlaps, closest = 0, math.huge
function scene.update(world, dt)
  update(world, dt)
  local crowd = scene.crowd
  for i = 1, #crowd do
    for j = i + 1, #crowd do
      local a, b = crowd[i], crowd[j]
      local d = math.sqrt((a.x - b.x) ^ 2 + (a.y - b.y) ^ 2)
      closest = math.min(closest, d / (a.radius + b.radius))
      if d < a.radius + b.radius then overlaps = overlaps + 1 end
    end
  end
  if scene.done_at and not said then said = true; report("done_at", scene.done_at) end
  if world.time >= 59.9 and not ended then ended = true; report("overlaps", overlaps); report("closest", closest) end
end]]), { steps = 3600 }))
    assert.is_not_nil(r.values.done_at, "not everyone got through the door in 60 s")
    assert.are.equal(0, r.values.overlaps, "closest approach " .. tostring(r.values.closest) .. " of the radii sum")
  end)

  it("queueing: nobody walks through the door's walls, and queueing keeps the waiting crowd's headings steady", function()
    local r = H.ok(H.run(wrap("queueing", [[
local update = scene.update
local inside, turn = 0, 0
local last = {}
function scene.update(world, dt)
  update(world, dt)
  for i, v in ipairs(scene.crowd) do
    if math.abs(v.x - scene.DOOR.x) < v.radius and math.abs(v.y - scene.DOOR.y) > scene.DOOR.half then inside = inside + 1 end
    -- how much the headings of those waiting (slow, not yet through) turn, summed over the run
    if not v.data.through and v.speed < 10 and last[i] then
      local d = math.abs(v.heading - last[i])
      turn = turn + math.min(d, 2 * math.pi - d)
    end
    last[i] = v.heading
  end
  if world.time >= 19.9 and not said then said = true; report("inside", inside); report("turn", turn) end
  if world.time >= 19.9 and not toggled then toggled = true; scene.keypressed("q"); scene.keypressed("r"); inside, turn = 0, 0 end
  if world.time >= 39.9 and not said2 then said2 = true; report("inside_off", inside); report("turn_off", turn) end
end]]), { steps = 2400 }))
    assert.are.equal(0, r.values.inside, "a walker stood in a wall")
    assert.are.equal(0, r.values.inside_off, "a walker stood in a wall (queueing off)")
    assert.is_true(r.values.turn < 0.5 * r.values.turn_off,
      ("headings turned %.1f rad with queueing, %.1f without"):format(r.values.turn, r.values.turn_off))
  end)

  it("circle_crossing: with orca all 100 cross to the opposite point with no overlap", function()
    local r = H.ok(H.run(wrap("circle_crossing", [[
local update = scene.update
function scene.update(world, dt)
  update(world, dt)
  if scene.done_at and not said then said = true; report("done_at", scene.done_at); report("overlaps", scene.overlaps) end
end]]), { steps = 2000 }))
    assert.is_not_nil(r.values.done_at, "not everyone arrived in 33 s")
    assert.are.equal(0, r.values.overlaps)
  end)

  it("two_streams: with orca the streams cross with no overlap and nobody stuck for 2 s", function()
    local r = H.ok(H.run(wrap("two_streams", [[
local update = scene.update
function scene.update(world, dt)
  update(world, dt)
  if world.time >= 39.9 and not said then said = true
    report("crossed", scene.crossed); report("overlaps", scene.overlaps); report("stuck", scene.longest_stuck) end
end]]), { steps = 2400 }))
    -- 10 lanes, one in every 0.7 s each while its entry is clear (the crossing holds them up):
    -- about 250 in 40 s
    assert.is_true(r.values.crossed > 200, "only " .. r.values.crossed .. " crossed in 40 s")
    assert.are.equal(0, r.values.overlaps)
    assert.is_true(r.values.stuck < 2, "one stood still for " .. r.values.stuck .. " s")
  end)

  it("flocking: a random swarm orders itself into aligned flocks", function()
    local r = H.ok(H.run(wrap("flocking", [[
scene.COUNT = 600
local update = scene.update or function() end
function scene.update(world, dt)
  update(world, dt)
  if not first then first = true; report("order0", scene.local_order(world, 60)) end
  if world.time >= 24.9 and not said then said = true
    report("order", scene.local_order(world, 60)); report("polarisation", scene.polarisation(world)) end
end]]), { steps = 1500 }))
    -- measured within 60 units (a few neighbours' worth: random headings score about 0.36 there)
    assert.is_true(r.values.order0 < 0.5, "already ordered at the start: " .. r.values.order0)
    assert.is_true(r.values.order > 0.85, "local order after 25 s only " .. r.values.order)
  end)
end)
