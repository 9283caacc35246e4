-- chaining_spec.lua - every method without a result of its own returns its receiver, so calls
-- chain (`v:stop("flee"):wander{}`, `w:step(60):count()`); the only methods that return nothing
-- are those that end their own handle (`w:close()`, `shape:remove()`). Every method of every
-- handle class is listed below with what it returns, so a new method must say which it is, and
-- types/steer.lua must annotate it the same way (`---@return steer.Vehicle` for one that chains).
local steer = require "steer"
local sorted_keys = require("tests.lua.helpers").sorted_keys

--- The methods a handle's __index answers to (its dispatch table's functions).
local function exposed_methods(metatable_name)
  local mt = debug.getregistry()[metatable_name]
  local _, dispatch = debug.getupvalue(mt.__index, 1)
  local methods = {}
  for name, value in pairs(dispatch) do
    if type(value) == "function" then methods[name] = true end
  end
  return methods
end

--- class -> method -> the types its annotation returns ({} when it has no ---@return line).
local function annotated_returns(path)
  local classes, locals, current, returns = {}, {}, nil, {}
  for line in io.lines(path) do
    local class = line:match("^%-%-%-@class ([%w%.]+)")
    if class then current = class end
    local var = line:match("^local (%w+) = {}")
    if var and current then locals[var] = current end
    local ret = line:match("^%-%-%-@return ([%w%.%[%]|?]+)")
    if ret then returns[#returns + 1] = ret end
    local owner, method = line:match("^function (%w+):([%w_]+)%(")
    if owner then
      local c = locals[owner] or owner
      classes[c] = classes[c] or {}
      classes[c][method] = returns
    end
    if not line:match("^%-%-%-") then returns = {} end
  end
  return classes
end

-- A world with one of everything, and the handle each class's methods are called on.
local function fixtures()
  local w = steer.world{width = 400, height = 300, seed = 5}
  local f = {w = w}
  f.v = w:spawn{kind = "sheep", x = 100, y = 100, max_speed = 50}
  f.other = w:spawn{kind = "dog", x = 200, y = 150}
  f.obstacle = w:obstacle{x = 300, y = 200, radius = 20}
  f.wall = w:wall{x1 = 0, y1 = 250, x2 = 400, y2 = 250}
  f.path = w:path{{10, 10}, {200, 10}, {200, 200}}
  f.field = w:flow_field{x = 0, y = 0, cell_size = 50, cols = 8, rows = 6}
  return f
end

-- The targets each behaviour method takes, before its options.
local TARGETS = {
  seek = function(f) return 10, 20 end,
  flee = function(f) return f.other end,
  arrive = function(f) return 300, 100 end,
  pursue = function(f) return f.other end,
  evade = function(f) return f.other end,
  offset_pursue = function(f) return f.other end,
  interpose = function(f) return f.other, 50, 50 end,
  hide = function(f) return f.other end,
  follow = function(f) return f.path end,
  follow_flow = function(f) return f.field end,
  follow_leader = function(f) return f.other end,
  navigate = function(f) return {x = 300, y = 100} end,
}

-- class -> the handle its methods are called on, and method -> {returns, call}: "self" (the
-- receiver: it chains), "result" (a value of its own) or "nothing" (it ends the receiver).
local CLASSES = {
  ["steer.Vehicle"] = {
    self = function(f) return f.v end,
    methods = {
      set_position = {"self", function(f) return f.v:set_position(120, 80) end},
      set_velocity = {"self", function(f) return f.v:set_velocity(3, 4) end},
      set_heading = {"self", function(f) return f.v:set_heading(1) end},
      nav_path = {"result", function(f) return f.v:nav_path() end},
      stop = {"self", function(f) return f.v:stop("seek") end},
      alive = {"result", function(f) return f.v:alive() end},
      behaviours = {"result", function(f) return f.v:behaviours() end},
      forces = {"result", function(f) return f.v:forces() end},
      sense = {"self", function(f) return f.v:sense{name = "eyes", sight = {range = 100}} end},
      forget_sense = {"self", function(f) return f.v:sense{name = "ears", hearing = {}}:forget_sense("ears") end},
      senses = {"result", function(f) return f.v:senses() end},
      sensed = {"result", function(f) return f.v:sense{name = "eyes", sight = {}}:sensed("eyes") end},
      memory = {"result", function(f) return f.v:sense{name = "eyes", sight = {}}:memory("eyes") end},
      emit = {"self", function(f) return f.v:emit{radius = 50} end},
      wake_in = {"self", function(f) return f.v:wake_in(1) end},
      cancel_wake = {"self", function(f) return f.v:cancel_wake() end},
      listen = {"self", function(f) return f.v:listen{"lost"} end},
    },
  },
  ["steer.World"] = {
    self = function(f) return f.w end,
    methods = {
      step = {"self", function(f) return f.w:step(2) end},
      remove = {"self", function(f) return f.w:remove(f.other) end},
      debug_draw = {"self", function(f) return f.w:debug_draw{line = function() end} end},
      close = {"nothing", function(f) return f.w:close() end},
      think = {"result", function(f) return f.w:think() end},
      resume_brains = {"result", function(f) return f.w:resume_brains() end},
      random = {"result", function(f) return f.w:random() end},
      spawn = {"result", function(f) return f.w:spawn{} end},
      vehicles = {"result", function(f) return f.w:vehicles() end},
      count = {"result", function(f) return f.w:count() end},
      closest = {"result", function(f) return f.w:closest(f.v) end},
      neighbors = {"result", function(f) return f.w:neighbors(f.v, 500) end},
      obstacle = {"result", function(f) return f.w:obstacle{x = 1, y = 1, radius = 1} end},
      wall = {"result", function(f) return f.w:wall{x1 = 0, y1 = 0, x2 = 1, y2 = 0} end},
      path = {"result", function(f) return f.w:path{{1, 1}} end},
      flow_field = {"result", function(f) return f.w:flow_field{x = 0, y = 0, cell_size = 1, cols = 1, rows = 1} end},
      flow_field_to = {"result", function(f) return f.w:flow_field_to{x = 10, y = 10} end},
      find_path = {"result", function(f) return f.w:find_path(10, 10, 20, 20) end},
      nav_map = {"result", function(f) return f.w:nav_map() end},
      obstacles = {"result", function(f) return f.w:obstacles() end},
      walls = {"result", function(f) return f.w:walls() end},
      kinds = {"result", function(f) return f.w:kinds() end},
      emit = {"self", function(f) return f.w:emit{x = 10, y = 10} end},
      line_of_sight = {"result", function(f) return f.w:line_of_sight(0, 0, 10, 10) end},
      listen_to_brains = {"self", function(f) return f.w:listen_to_brains() end},
    },
  },
  ["steer.FlowField"] = {
    self = function(f) return f.field end,
    methods = {
      set = {"self", function(f) return f.field:set(2, 3, 1, 0) end},
      sample = {"result", function(f) return f.field:sample(10, 10) end},
      alive = {"result", function(f) return f.field:alive() end},
      remove = {"nothing", function(f) return f.field:remove() end},
    },
  },
  ["steer.Path"] = {
    self = function(f) return f.path end,
    methods = {
      points = {"result", function(f) return f.path:points() end},
      alive = {"result", function(f) return f.path:alive() end},
      remove = {"nothing", function(f) return f.path:remove() end},
    },
  },
  ["steer.Obstacle"] = {
    self = function(f) return f.obstacle end,
    methods = {
      alive = {"result", function(f) return f.obstacle:alive() end},
      remove = {"nothing", function(f) return f.obstacle:remove() end},
    },
  },
  ["steer.Wall"] = {
    self = function(f) return f.wall end,
    methods = {
      alive = {"result", function(f) return f.wall:alive() end},
      remove = {"nothing", function(f) return f.wall:remove() end},
    },
  },
}

-- Every behaviour is a method of steer.Vehicle that chains.
for _, name in ipairs(steer.behaviours) do
  CLASSES["steer.Vehicle"].methods[name] = {"self", function(f)
    local targets = TARGETS[name]
    if targets then return f.v[name](f.v, targets(f)) end
    return f.v[name](f.v)
  end}
end

local function pack(...) return {n = select("#", ...), ...} end

describe("methods without a result of their own", function()
  local types = annotated_returns("types/steer.lua")

  for class, spec in pairs(CLASSES) do
    it("are all listed here for " .. class, function()
      assert.same(sorted_keys(exposed_methods(class)), sorted_keys(spec.methods))
    end)

    for method, row in pairs(spec.methods) do
      local returns, call = row[1], row[2]
      it(("%s:%s returns %s"):format(class, method, returns == "self" and "its receiver" or returns == "nothing"
        and "nothing" or "a result of its own"), function()
        local f = fixtures()
        local receiver = spec.self(f)
        local got = pack(call(f))
        if returns == "self" then
          assert.equal(1, got.n)
          assert.is_true(rawequal(receiver, got[1]), ("%s:%s returned %s"):format(class, method, tostring(got[1])))
        elseif returns == "nothing" then
          assert.equal(0, got.n)
        else
          assert.is_true(got.n >= 1 and not rawequal(receiver, got[1]))
        end
      end)

      it(("%s:%s is annotated so in types/steer.lua"):format(class, method), function()
        local annotated = types[class] and types[class][method]
        assert.is_table(annotated, class .. ":" .. method .. " is not annotated")
        if returns == "self" then
          assert.same({class}, annotated)
        elseif returns == "nothing" then
          assert.same({}, annotated)
        else
          assert.is_true(#annotated >= 1 and annotated[1] ~= class, class .. ":" .. method .. " is annotated " ..
            table.concat(annotated, ", "))
        end
      end)
    end
  end
end)

describe("chained calls", function()
  it("v:stop(name):wander{} stops one behaviour and starts another", function()
    local f = fixtures()
    local v = f.v:flee(f.other)
    assert.is_true(rawequal(v, v:stop("flee"):wander{jitter = 40}))
    assert.same({"wander"}, sorted_keys(v:behaviours()))
    assert.equal(40, v:behaviours().wander.jitter)
    v:stop():seek(1, 1) -- all off, then one on
    assert.same({"seek"}, sorted_keys(v:behaviours()))
  end)

  it("the setters chain with each other and with the behaviours", function()
    local f = fixtures()
    f.v:set_position(30, 40):set_heading(1):set_velocity(0, 10):arrive(200, 200)
    assert.same({30, 40, 0, 10}, {f.v.x, f.v.y, f.v.vx, f.v.vy})
    assert.near(math.pi / 2, f.v.heading, 1e-12) -- the velocity's direction
    assert.is_table(f.v:behaviours().arrive)
  end)

  it("w:step(n) and w:remove(handle) return the world", function()
    local f = fixtures()
    assert.equal(1, f.w:remove(f.other):count())
    assert.equal(60, f.w:step(60).step_count)
    assert.equal(61, f.w:step():remove(f.obstacle):step(0).step_count)
    assert.equal(0, #f.w:obstacles())
  end)

  it("field:set chains, one cell after another", function()
    local f = fixtures()
    f.field:set(1, 1, 1, 0):set(2, 1, 0, 1)
    assert.same({1, 0}, {f.field:sample(25, 25)})
    assert.same({0, 1}, {f.field:sample(75, 25)})
  end)

  it("a call that fails raises: the chain stops there and changes nothing", function()
    local f = fixtures()
    f.v:wander{}
    assert.has_error(function() f.v:stop("wandr"):seek(1, 1) end)
    assert.same({"wander"}, sorted_keys(f.v:behaviours()))
  end)
end)
