local steer = require "steer"
local H = require "tests.lua.helpers"
local error_of, snapshot = H.error_of, H.snapshot

local function dist(a, x, y) return math.sqrt((a.x - x) ^ 2 + (a.y - y) ^ 2) end
local function between(a, b) return dist(a, b.x, b.y) end

describe("behaviour toggles", function()
  local w, v
  before_each(function()
    w = steer.world{width = 1000, height = 1000, seed = 2}
    v = w:spawn{kind = "prey", x = 100, y = 100}
  end)

  it("exist for every behaviour name and nothing else", function()
    local expected = {"seek", "flee", "arrive", "pursue", "evade", "offset_pursue", "interpose", "hide", "wander",
      "follow", "avoid_obstacles", "avoid_walls", "contain", "follow_flow", "separate", "align", "cohere", "flock",
      "follow_leader", "queue", "avoid_collisions", "navigate", "orca"}
    assert.same(expected, steer.behaviours)
    for _, name in ipairs(expected) do assert.is_function(v[name], name) end
  end)

  it("seek: heads for a point, or a vehicle", function()
    v:seek(400, 100)
    w:step(60)
    assert.is_true(v.x > 150 and math.abs(v.y - 100) < 1e-9)
    local t = w:spawn{x = 100, y = 500}
    local d0 = between(v, t)
    v:seek(t)
    w:step(60)
    assert.is_true(between(v, t) < d0)
    assert.equal(t, v:behaviours().seek.target)
  end)

  it("flee: runs away, only inside its panic distance", function()
    v:flee(150, 100)
    w:step(30)
    assert.is_true(v.x < 100)
    local calm = w:spawn{x = 500, y = 500}
    calm:flee(100, 100, {panic_distance = 50})
    w:step(30)
    assert.same({500, 500}, {calm.x, calm.y})
  end)

  it("arrive: comes to rest at the target", function()
    v:arrive(300, 200, {slowing_radius = 80})
    w:step(600)
    assert.is_true(dist(v, 300, 200) < 1, "distance " .. dist(v, 300, 200))
    assert.is_true(v.speed < 1)
    assert.equal(80, v:behaviours().arrive.slowing_radius)
  end)

  it("pursue and evade: closes in on a moving target / gets away from a hunter", function()
    local prey = w:spawn{x = 300, y = 100, vx = 0, vy = 50, max_speed = 50}
    local d0 = between(v, prey)
    v:pursue(prey)
    w:step(60)
    assert.is_true(between(v, prey) < d0 - 50)
    local runner = w:spawn{x = 600, y = 600}
    local chaser = w:spawn{x = 650, y = 600, max_speed = 30}
    chaser:pursue(runner)
    runner:evade(chaser, {threat_range = 200})
    w:step(120)
    assert.is_true(between(runner, chaser) > 50)
  end)

  it("offset_pursue: keeps a slot beside its leader", function()
    local leader = w:spawn{x = 500, y = 500}
    leader:seek(50000, 500)
    v:set_position(470, 540)
    v.max_speed = 150
    v:offset_pursue(leader, {offset = {-20, 20}})
    w:step(300)
    -- the leader heads +x, so its side (+90 degrees, y down) is +y: the slot is 20 behind, 20 to the side
    assert.is_true(dist(v, leader.x - 20, leader.y + 20) < 0.5, "off by " .. dist(v, leader.x - 20, leader.y + 20))
    assert.same({-20, 20}, v:behaviours().offset_pursue.offset)
  end)

  it("interpose: places itself midway between two targets", function()
    local a = w:spawn{x = 200, y = 400}
    v:interpose(a, 400, 400)
    w:step(600)
    assert.is_true(dist(v, 300, 400) < 2, "off by " .. dist(v, 300, 400))
    local b = v:behaviours().interpose
    assert.equal(a, b.a)
    assert.same({400, 400}, b.b)
  end)

  it("hide: goes behind an obstacle, away from the hunter", function()
    w:obstacle{x = 300, y = 300, radius = 30}
    local hunter = w:spawn{kind = "hunter", x = 150, y = 300}
    v:set_position(350, 250)
    v:hide(hunter, {distance = 20})
    w:step(600)
    assert.is_true(v.x > 330, "x = " .. v.x)
    assert.is_true(math.abs(v.y - 300) < 10, "y = " .. v.y)
  end)

  it("wander: moves, and calling it again keeps its wander target", function()
    local function run(twice)
      local t = steer.world{seed = 9}
      local u = t:spawn{}
      u:wander{radius = 20, distance = 40, jitter = 100}
      if twice then u:wander{radius = 20, distance = 40, jitter = 100} end
      t:step(120)
      return u.x, u.y
    end
    local x1, y1 = run(false)
    local x2, y2 = run(true)
    assert.same({x1, y1}, {x2, y2})
    assert.is_true(x1 ~= 0 or y1 ~= 0)
  end)

  it("wander: takes a leash, an anchor and its parameters", function()
    v:wander{leash = "roam", anchor = {500, 500}, max_distance = 100, roam_rate = 0.5}
    local b = v:behaviours().wander
    assert.same({"roam", 500, 500, 100, 0.5, 30}, {b.leash, b.anchor[1], b.anchor[2], b.max_distance, b.roam_rate,
      b.radius})
    assert.equal("bad argument #1 to 'wander' (option 'leash': 'none', 'pull' or 'roam' expected, got 'tight')",
      error_of(function() v:wander{leash = "tight"} end))
  end)

  it("follow: walks an open path to its end", function()
    local p = w:path{{100, 100}, {300, 100}, {300, 300}}
    v:follow(p, {waypoint_radius = 15})
    w:step(900)
    assert.is_true(dist(v, 300, 300) < 5, "off by " .. dist(v, 300, 300))
    assert.equal(p, v:behaviours().follow.path)
  end)

  it("avoid_obstacles: steers round an obstacle on its way", function()
    w:obstacle{x = 300, y = 102, radius = 40}
    v:seek(600, 100)
    v:avoid_obstacles{detection_length = 80}
    local closest = math.huge
    for _ = 1, 300 do
      w:step()
      closest = math.min(closest, dist(v, 300, 102))
    end
    assert.is_true(closest > 40, "came within " .. closest)
    assert.is_true(v.x > 400)
  end)

  it("avoid_walls: turns before a wall", function()
    w:wall{x1 = 300, y1 = 0, x2 = 300, y2 = 1000}
    v:set_velocity(100, 20)
    v:seek(900, 200, {weight = 0.2})
    v:avoid_walls{feeler_length = 60}
    for _ = 1, 300 do
      w:step()
      assert.is_true(v.x < 300, "crossed the wall at step " .. w.step_count)
    end
  end)

  it("contain: stays inside the bounds", function()
    local t = steer.world{width = 200, height = 200}
    local u = t:spawn{x = 100, y = 100, vx = 100, vy = 0}
    u:contain{margin = 40}
    for _ = 1, 300 do
      t:step()
      u:set_velocity(u.vx ~= 0 and u.vx or 1, u.vy)
    end
    assert.is_true(u.x < 200 and u.x > 0)
  end)

  it("follow_flow: lines up with the field", function()
    local field = w:flow_field{cell_size = 100, cols = 10, rows = 10}
    for col = 1, 10 do for row = 1, 10 do field:set(col, row, 0, 1) end end
    v:set_velocity(50, 0)
    v:follow_flow(field)
    w:step(120)
    assert.is_true(v.vy > 10 * math.abs(v.vx), string.format("v = (%g, %g)", v.vx, v.vy))
    assert.equal(field, v:behaviours().follow_flow.field)
  end)

  it("group behaviours are bound through the core's parameters", function()
    local leader = w:spawn{kind = "prey", x = 120, y = 100}
    v:separate{comfort_distance = 10, comfort_multiplier = 2}
    v:align{weight = 0.5}
    v:cohere()
    v:flock{separation = 2, wander_radius = 10}
    v:follow_leader(leader, {behind = 20, separation = 3})
    v:queue{ahead = 20, braking = 0.5}
    v:avoid_collisions{horizon = 2}
    local on = v:behaviours()
    assert.equal(10, on.separate.comfort_distance)
    assert.equal(2, on.separate.comfort_multiplier)
    assert.equal(0.5, on.align.weight)
    assert.is_table(on.cohere)
    assert.equal(2, on.flock.separation)
    assert.equal(10, on.flock.wander_radius)
    assert.equal(20, on.follow_leader.behind)
    assert.equal(3, on.follow_leader.separation)
    assert.equal(leader, on.follow_leader.target)
    assert.equal(20, on.queue.ahead)
    assert.equal(0.5, on.queue.braking)
    assert.equal(2, on.avoid_collisions.horizon)
    assert.equal("bad argument #1 to 'separate' (option 'comfort_multiplier': number >= 1 expected, got 0.5)",
      error_of(function() v:separate{comfort_multiplier = 0.5} end))
    assert.equal("unknown option 'sepration' for flock (did you mean 'separation'?)",
      error_of(function() v:flock{sepration = 1} end))
    assert.equal("bad argument #1 to 'follow_leader' (vehicle expected, got number)",
      error_of(function() v:follow_leader(1, 2) end))
  end)

  it("orca: two head on pass one another untouched; its options read back and are checked", function()
    local a = w:spawn{x = 400, y = 500, max_speed = 60, max_force = 3600, response_time = 1 / 60}
    local b = w:spawn{x = 600, y = 500, max_speed = 60, max_force = 3600, response_time = 1 / 60}
    a:arrive(600, 500):orca{range = 80}
    b:arrive(400, 500):orca{range = 80, precedence = 1, layer = 2, heading_smoothing = 0}
    local closest = math.huge
    for _ = 1, 600 do
      w:step()
      closest = math.min(closest, math.sqrt((a.x - b.x) ^ 2 + (a.y - b.y) ^ 2))
    end
    assert.is_true(closest >= a.radius + b.radius, tostring(closest))
    assert.is_true(math.abs(a.x - 600) < 8 and math.abs(b.x - 400) < 8)
    local on = b:behaviours().orca
    assert.same({2, 1, 10, 65535, 0}, {on.horizon, on.precedence, on.max_neighbors, on.avoids, on.heading_smoothing})
    assert.equal(2, on.layer)
    assert.equal("bad argument #1 to 'orca' (orca: layer must be an integer in [0, 15] (got 16))",
      error_of(function() v:orca{layer = 16} end))
    assert.equal("bad argument #1 to 'orca' (option 'horizon': finite number expected, got nan)",
      error_of(function() v:orca{horizon = 0 / 0} end))
    assert.equal("bad argument #1 to 'orca' (option 'max_neighbors': integer expected, got 2.5)",
      error_of(function() v:orca{max_neighbors = 2.5} end))
  end)

  it("lists what is on with its parameters, weight, priority and probability", function()
    v:seek(1, 2, {weight = 2, priority = 5, probability = 0.25})
    v:wander()
    local b = v:behaviours()
    assert.same({1, 2}, b.seek.target)
    assert.same({2, 5, 0.25}, {b.seek.weight, b.seek.priority, b.seek.probability})
    assert.same({30, 60, 80, 1}, {b.wander.radius, b.wander.distance, b.wander.jitter, b.wander.weight})
    local names = {}
    for name in pairs(b) do names[#names + 1] = name end
    table.sort(names)
    assert.same({"seek", "wander"}, names)
  end)

  it("updates a behaviour that is on, keeping the options not given", function()
    v:arrive(10, 10, {slowing_radius = 30, weight = 2})
    v:arrive(20, 20)
    local a = v:behaviours().arrive
    assert.same({20, 20}, a.target)
    assert.same({30, 2}, {a.slowing_radius, a.weight})
    v:stop("arrive")
    v:arrive(20, 20)
    assert.equal(50, v:behaviours().arrive.slowing_radius) -- off and on again: the defaults
  end)

  it("forces: says what each behaviour asked for, what was kept and where it steered", function()
    v:set_velocity(50, 0)
    v:wander{radius = 30, distance = 60}
    v:seek(900, 100, {weight = 0})
    assert.same({}, w:spawn{kind = "idle"}:forces())
    w:step()
    local f = v:forces()
    -- one pushing behaviour under max_force: its force is the combined force, wholly kept
    assert.is_true(f.wander.evaluated)
    assert.equal(1, f.wander.kept)
    assert.near(v.force_x, f.wander.force[1], 1e-9)
    assert.near(v.force_y, f.wander.force[2], 1e-9)
    assert.same({0, 0}, f.seek.force)
    assert.same({900, 100}, f.seek.target)
    -- the wander target sits on the circle `distance` ahead (measured from before the step's move)
    local t = f.wander.wander_target
    local d = math.sqrt((t[1] - (v.x + v.hx * 60)) ^ 2 + (t[2] - (v.y + v.hy * 60)) ^ 2)
    assert.is_true(math.abs(d - 30) < 3, "wander target " .. d .. " from the circle's centre")

    local path = w:path{{300, 100}, {400, 100}, {400, 200}}
    local u = w:spawn{kind = "walker", x = 100, y = 100}
    u:follow(path):avoid_obstacles{detection_length = 40}
    w:step(180) -- 3 s: past the first point, on the way to the second
    local g = u:forces()
    assert.equal(2, g.follow.waypoint)
    assert.same({400, 100}, g.follow.target)
    assert.is_true(g.avoid_obstacles.box_length >= 40)
    assert.is_nil(g.follow.wander_target)
    w:remove(u)
    assert.equal("vehicle #3 (walker) was removed", error_of(function() u:forces() end))
  end)

  it("returns the vehicle, so toggles chain", function()
    assert.equal(v, v:seek(5, 5):avoid_obstacles():contain())
    assert.is_table(v:behaviours().contain)
  end)

  it("stops one, several or all behaviours", function()
    v:seek(1, 1):wander():contain()
    v:stop("wander")
    assert.is_nil(v:behaviours().wander)
    assert.is_table(v:behaviours().seek)
    v:stop("seek", "contain")
    assert.same({}, v:behaviours())
    v:seek(1, 1):wander()
    v:stop()
    assert.same({}, v:behaviours())
    v:stop("flee") -- off already: fine
  end)

  it("refuses unknown behaviour names in stop, changing nothing", function()
    v:seek(1, 1):wander()
    assert.equal("bad argument #1 to 'stop' (unknown behaviour 'wandr' (did you mean 'wander'?))",
      error_of(function() v:stop("wandr") end))
    assert.equal("bad argument #2 to 'stop' (unknown behaviour 'fly')", error_of(function() v:stop("seek", "fly") end))
    assert.equal("bad argument #1 to 'stop' (unknown behaviour 'avoid_obstacle' (did you mean 'avoid_obstacles'?))",
      error_of(function() v:stop("avoid_obstacle") end))
    assert.equal("bad argument #1 to 'stop' (behaviour name (string) expected, got table)",
      error_of(function() v:stop({}) end))
    -- a number is no name (Lua would turn it into "unknown behaviour '3'")
    assert.equal("bad argument #2 to 'stop' (behaviour name (string) expected, got number)",
      error_of(function() v:stop("seek", 3) end))
    assert.equal("bad argument #1 to 'stop' (behaviour name (string) expected, got nil)",
      error_of(function() v:stop(nil) end))
    assert.is_table(v:behaviours().seek)
    assert.is_table(v:behaviours().wander)
  end)

  it("explains wrong targets and options in luaL_argerror style", function()
    local cases = {
      {function() v:wander{radius = "x"} end,
        "bad argument #1 to 'wander' (option 'radius': number expected, got string)"},
      {function() v:wander{raduis = 3} end, "unknown option 'raduis' for wander (did you mean 'radius'?)"},
      {function() v:wander{radius = 0 / 0} end,
        "bad argument #1 to 'wander' (option 'radius': finite number expected, got nan)"},
      {function() v:wander{jitter = -1} end,
        "bad argument #1 to 'wander' (option 'jitter': number >= 0 expected, got -1)"},
      {function() v:wander(5) end, "bad argument #1 to 'wander' (table of options expected, got number)"},
      {function() v:wander{banana = 1} end,
        "unknown option 'banana' for wander (known: anchor, distance, jitter, leash, max_distance, priority, " ..
        "probability, radius, return_radius, roam_rate, weight)"},
      {function() v:seek() end, "bad argument #1 to 'seek' (vehicle or x, y expected, got no value)"},
      {function() v:seek(1) end, "bad argument #2 to 'seek' (number expected, got no value)"},
      {function() v:seek(1, math.huge) end, "bad argument #2 to 'seek' (finite number expected, got inf)"},
      {function() v:seek(v) end, "bad argument #1 to 'seek' (a vehicle cannot target itself)"},
      {function() v:seek(1, 2, 3) end, "bad argument #3 to 'seek' (table of options expected, got number)"},
      {function() v:seek(1, 2, {}, 4) end,
        "bad argument #4 to 'seek' (no more arguments expected (options go in one table))"},
      {function() v:pursue(1, 2) end, "bad argument #1 to 'pursue' (vehicle expected, got number)"},
      {function() v:arrive(1, 2, {slowing_radius = -3}) end,
        "bad argument #3 to 'arrive' (option 'slowing_radius': number >= 0 expected, got -3)"},
      {function() v:arrive(1, 2, {weight = -1}) end,
        "bad argument #3 to 'arrive' (option 'weight': number >= 0 expected, got -1)"},
      {function() v:seek(1, 2, {priority = 1.5}) end,
        "bad argument #3 to 'seek' (option 'priority': integer expected, got 1.5)"},
      {function() v:seek(1, 2, {probability = 2}) end,
        "bad argument #3 to 'seek' (option 'probability': number in [0, 1] expected, got 2)"},
      {function() v:seek(1, 2, {wieght = 2}) end, "unknown option 'wieght' for seek (did you mean 'weight'?)"},
      {function() v:avoid_obstacles{detection_length = 0} end,
        "bad argument #1 to 'avoid_obstacles' (option 'detection_length': number > 0 expected, got 0)"},
      {function() v:offset_pursue(w:spawn{}, {offset = {1}}) end,
        "bad argument #2 to 'offset_pursue' (option 'offset': {x, y} of two finite numbers expected)"},
      {function() v:follow({}) end, "bad argument #1 to 'follow' (steer.Path expected, got table)"},
      {function() v:follow_flow(w:path{{1, 1}}) end,
        "bad argument #1 to 'follow_flow' (steer.FlowField expected, got steer.Path)"},
      {function() v:interpose(1, 2) end, "bad argument #3 to 'interpose' (vehicle or x, y expected, got no value)"},
      {function() v:seek{1, 2} end, "bad argument #1 to 'seek' (vehicle or x, y expected, got table)"},
      {function() v:contain{margin = 5, colour = 1} end,
        "unknown option 'colour' for contain (known: margin, priority, probability, weight)"},
    }
    for i, case in ipairs(cases) do
      assert.equal(case[2], error_of(case[1]), "case " .. i)
    end
  end)

  it("changes nothing when a call fails", function()
    local t = w:spawn{x = 5, y = 5}
    v:wander{radius = 5}
    v:seek(t, {weight = 3})
    w:obstacle{x = 1, y = 1, radius = 1}
    local before = snapshot(w)
    error_of(function() v:wander{radius = 10, jitter = -1} end)
    error_of(function() v:wander{radius = 10, leash = "x"} end)
    error_of(function() v:seek(7, 7, {weight = 0 / 0}) end)
    error_of(function() v:seek(7, 7, {weigth = 1}) end)
    error_of(function() v:stop("seek", "nope") end)
    error_of(function() v.max_speed = -1 end)
    error_of(function() w:spawn{kind = "x", radius = -1} end)
    error_of(function() w:obstacle{x = 1, y = 1, radius = -1} end)
    error_of(function() w:path{{1, 1}, {2, 0 / 0}} end)
    assert.same(before, snapshot(w))
    w:step(10)
    assert.are_not.same(before, snapshot(w))
  end)

  it("combines with the method chosen in v.combine", function()
    v.combine = "priority"
    v:seek(200, 100, {priority = 2})
    v:flee(150, 100, {priority = 1})
    w:step()
    assert.is_true(v.force_x < 0) -- flee goes first and takes the whole max_force
    v.combine = "weighted"
    v:flee(150, 100, {weight = 0})
    w:step()
    assert.is_true(v.force_x > 0)
  end)
end)
