-- steer.hot reaches every brain a saved module defined, as the program does: tables with think,
-- plain functions, fsm machines and their states, class instances (hand-made and from a class
-- library), in the module's table, nested, or in file-level locals its functions use
-- (tests/reload/forms_module.lua, whose brains write its version into v.data.ran). Real files in a
-- temporary folder, hot.update(world) as a game calls it once per frame.
package.path = "scripts/lib/?.lua;tests/reload/?.lua;" .. package.path
local steer = require "steer"
local hot = require "steer.hot"

local function read(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

local FORMS = read("tests/reload/forms_module.lua")
local ALL = "table=%d nested=%d function=%d machine=%d local_table=%d local_function=%d local_machine=%d "
  .. "class=%d class_library=%d made_per_vehicle=1"

describe("steer.hot on brains", function()
  local dir, module, w, warnings
  local seq = 0

  local function save(version, extra)
    local text = FORMS:gsub("local V = 1\n", "local V = " .. version .. "\n")
    if extra then text = text:gsub("\nreturn M\n$", "\n" .. extra .. "\nreturn M\n") end
    local f = assert(io.open(dir .. "/" .. module .. ".lua", "wb"))
    f:write(text)
    f:close()
    -- a later modification time even on a coarse clock: the size differs or the time does
    assert(os.execute(("touch -d @%d %s/%s.lua"):format(1000000000 + seq * 100 + version, dir, module)))
  end

  local function ran()
    local t = {}
    for _, v in ipairs(w:vehicles()) do t[#t + 1] = v.kind .. "=" .. tostring(v.data.ran) end
    return table.concat(t, " ")
  end

  local function steps(n)
    for _ = 1, n do
      w:think(function(_, message) error(message, 0) end)
      w:step()
    end
  end

  before_each(function()
    seq = seq + 1
    dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir -p " .. dir))
    module = "forms" .. seq
    package.path = dir .. "/?.lua;" .. package.path
    save(1)
    hot.reset()
    warnings = {}
    hot.on_warning = function(path, message) warnings[#warnings + 1] = path .. ": " .. message end
    hot.on_error = function(path, message) error(path .. ": " .. message) end
    hot.watch{ root = dir, module .. ".lua" }
    w = steer.world{ seed = 5, think_hz = 60, dt = 1 / 60 }
    package.loaded[module].setup(w)
  end)
  after_each(function()
    os.execute("rm -rf " .. dir)
    package.loaded[module] = nil
    hot.on_error = function(path, message) io.stderr:write("steer.hot: ", message, "\n") end
  end)

  it("runs the new code of every brain the module defined at the next think, keeping each vehicle's state", function()
    steps(4)
    assert.equal(ALL:format(1, 1, 1, 1, 1, 1, 1, 1, 1), ran())
    local guard = w:vehicles()[8].brain
    save(2)
    assert.equal(1, (hot.update(w)))
    steps(1)
    assert.equal(ALL:format(2, 2, 2, 2, 2, 2, 2, 2, 2), ran())
    -- the same class instance, fsm state and clock
    assert.equal(guard, w:vehicles()[8].brain)
    assert.equal(5, guard.thoughts)
    assert.equal("watch", w:vehicles()[4].state)
    assert.near(5 / 60, w:vehicles()[4].data.fsm.clock, 1e-9)
    -- the brain made per vehicle is named once, with its kind and count
    assert.same({ module .. ".lua: 1 vehicle (made_per_vehicle 1) still runs the old code: its brain was made by "
      .. "code this save did not run again (set v.brain anew, or restart)" }, warnings)
  end)

  it("without a world, patches the module's tables and says nothing of vehicles", function()
    save(2)
    assert.equal(1, (hot.update()))
    steps(1)
    -- function brains are the vehicles' own references: they need the world to be reached
    assert.equal("table=2 nested=2 function=1 machine=2 local_table=2 local_function=1 local_machine=2 class=2 "
      .. "class_library=2 made_per_vehicle=1", ran())
    assert.same({}, warnings)
  end)

  it("a save that fails while its chunk runs leaves every brain on the old code", function()
    save(2, "error('half written')")
    hot.on_error = function() end
    assert.equal(1, select(2, hot.update(w)))
    steps(1)
    assert.equal(ALL:format(1, 1, 1, 1, 1, 1, 1, 1, 1), ran())
    save(3)
    assert.equal(1, (hot.update(w)))
    steps(1)
    assert.equal(ALL:format(3, 3, 3, 3, 3, 3, 3, 3, 3), ran())
  end)

  it("checks the worlds it is given", function()
    assert.has_error(function() hot.update(w, 42) end, "hot.update: argument #2: steer.World expected, got number")
  end)
end)

describe("steer.patch", function()
  it("walks a long linked structure without running out of stack", function()
    local patch = require "steer.patch"
    local function build(tag)
      local head
      for i = 1, 100000 do head = { next = head, i = i } end
      return { list = head, think = function() return tag end }
    end
    local old, new = build("old"), build("new")
    local first = old.list
    local report = patch.apply{ source = "@nowhere", roots = { { old = old, new = new } } }
    assert.equal("new", old.think())
    assert.equal(first, old.list) -- the old nodes stay, with the new run's values
    assert.equal(100000, old.list.i)
    patch.undo(report.undo)
    assert.equal("old", old.think())
  end)
end)
