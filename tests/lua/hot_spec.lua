-- steer.hot (scripts/lib/steer/hot.lua): the program's reload rules as a library. Real files in a
-- temporary folder are edited and hot.update() is called, as a LÖVE game does once per frame.
package.path = "scripts/lib/?.lua;" .. package.path
local steer = require "steer"
local hot = require "steer.hot"

local dir, seq = nil, 0

local function write(name, text)
  local f = assert(io.open(dir .. "/" .. name, "wb"))
  f:write(text)
  f:close()
end

-- A brain module: version `n`, a sub-table of states, and one key only the first version has.
local function brain_source(n, extra)
  return ([[
local M = {}
M.version = %d
M.states = { chase = { speed = %d } }
function M.think(v, dt)
  v.data.seen = (v.data.seen or 0) + 1
  v.data.version = M.version
  v.state = "thought by " .. %d
end
%s
return M
]]):format(n, n * 10, n, extra or "")
end

describe("steer.hot", function()
  local name, module, errors_seen
  before_each(function()
    dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir -p " .. dir))
    seq = seq + 1
    name = "hotbrain" .. seq
    module = name
    package.path = dir .. "/?.lua;" .. package.path
    write(name .. ".lua", brain_source(1, "M.only_in_v1 = true"))
    hot.reset()
    errors_seen = {}
    hot.on_error = function(path, msg) errors_seen[#errors_seen + 1] = path .. ": " .. msg end
  end)
  after_each(function()
    os.execute("rm -rf " .. dir)
    package.loaded[module] = nil
  end)

  it("reloads an edited module in place: the change takes effect, v.data and v.state stay", function()
    hot.watch{ root = dir, name .. ".lua" }
    local M = package.loaded[module]
    assert.equal(1, M.version)
    local chase = M.states.chase
    local w = steer.world{ seed = 1, think_hz = 60, dt = 1 / 60 }
    local v = w:spawn{ kind = "hunter" }
    v.brain = M
    v.data.stamina = 42
    local data = v.data
    w:think()
    assert.equal(1, v.data.version)
    assert.equal(0, (hot.update())) -- nothing changed yet

    write(name .. ".lua", brain_source(2))
    local good, bad = hot.update()
    assert.equal(1, good)
    assert.equal(0, bad)
    assert.equal(M, package.loaded[module])   -- same table...
    assert.equal(2, M.version)                -- ...new values
    assert.equal(chase, M.states.chase)       -- plain sub-tables merged, not replaced
    assert.equal(20, chase.speed)
    assert.is_true(M.only_in_v1)              -- keys the new file lacks stay
    assert.equal("thought by 1", v.state)     -- untouched until the brain thinks again
    w:step()
    w:think()
    assert.equal(2, v.data.version)           -- the vehicle's brain runs the new code
    assert.equal("thought by 2", v.state)
    assert.equal(data, v.data)                -- v.data kept, with what was in it
    assert.equal(42, v.data.stamina)
    assert.equal(2, v.data.seen)
    assert.same({}, hot.errors())
  end)

  it("reports a syntax error with file:line and keeps the old code running", function()
    hot.watch{ root = dir, name .. ".lua" }
    local M = package.loaded[module]
    local w = steer.world{ seed = 1, think_hz = 60, dt = 1 / 60 }
    local v = w:spawn{}
    v.brain = M
    write(name .. ".lua", "local M = {}\nM.version = 3\nfunction M.think(v)\n  v.data.version = \nend\nreturn M\n")
    local good, bad = hot.update()
    assert.equal(0, good)
    assert.equal(1, bad)
    assert.equal(1, #errors_seen)
    local err = hot.errors()[name .. ".lua"]
    assert.matches("^" .. name .. "%.lua:5: ", err)
    assert.equal(1, M.version)
    w:think()
    assert.equal(1, v.data.version)
    assert.is_nil(v.brain_error)
    -- the same broken file is not reported again; a fix clears the error
    assert.equal(0, select(2, hot.update()))
    write(name .. ".lua", brain_source(4))
    assert.equal(1, (hot.update()))
    assert.same({}, hot.errors())
    w:step()
    w:think()
    assert.equal(4, v.data.version)
  end)

  it("reloads a file saved with a byte order mark or a #! line, as require loads it", function()
    hot.watch{ root = dir, name .. ".lua" }
    local M = package.loaded[module]
    write(name .. ".lua", "\239\187\191" .. brain_source(2))
    assert.equal(1, (hot.update()))
    assert.equal(2, M.version)
    write(name .. ".lua", "\239\187\191#!/usr/bin/env lua\n" .. brain_source(3))
    assert.equal(1, (hot.update()))
    assert.equal(3, M.version)
    write(name .. ".lua", "\239\187\191#!/usr/bin/env lua\nlocal M = {}\nerror('on line 3')\n")
    assert.equal(1, select(2, hot.update()))
    assert.matches("^" .. name .. "%.lua:3: on line 3", hot.errors()[name .. ".lua"])
    assert.equal(1, #errors_seen) -- only the last save failed
  end)

  it("an error while the chunk runs changes nothing and is reported with a traceback", function()
    hot.watch{ root = dir, name .. ".lua" }
    local M = package.loaded[module]
    write(name .. ".lua", "local M = {version = 5}\nerror('broken on purpose')\nreturn M\n")
    local _, bad = hot.update()
    assert.equal(1, bad)
    local err = hot.errors()[name .. ".lua"]
    assert.matches(name .. "%.lua:2: broken on purpose", err)
    assert.matches("stack traceback", err)
    assert.equal(1, M.version)
  end)

  it("a save that returns no table (its `return M` forgotten) fails and keeps the old table in place", function()
    hot.watch{ root = dir, name .. ".lua" }
    local M = package.loaded[module]
    write(name .. ".lua", "local M = {}\nM.version = 2\n")
    local good, bad = hot.update()
    assert.equal(0, good)
    assert.equal(1, bad)
    assert.equal("module '" .. module .. "' returned nil instead of its table: the old code keeps running "
      .. "(does the file end with `return M`?)", hot.errors()[name .. ".lua"])
    assert.equal(M, package.loaded[module])
    assert.equal(1, M.version)
    -- the next good save still reaches the table every brain holds
    write(name .. ".lua", brain_source(3))
    assert.equal(1, (hot.update()))
    assert.equal(3, M.version)
    assert.same({}, hot.errors())
  end)

  it("a module that is not a plain table is replaced, as require would", function()
    write(name .. ".lua", "return function() return 1 end")
    hot.watch{ root = dir, name .. ".lua" }
    assert.equal(1, package.loaded[module]())
    write(name .. ".lua", "return function() return 22 end")
    hot.update()
    assert.equal(22, package.loaded[module]())
  end)

  it("a file missing for a moment (a save through a rename) is looked at again later", function()
    hot.watch{ root = dir, name .. ".lua" }
    os.remove(dir .. "/" .. name .. ".lua")
    assert.equal(0, select(2, hot.update()))
    write(name .. ".lua", brain_source(6))
    assert.equal(1, (hot.update()))
    assert.equal(6, package.loaded[module].version)
  end)

  it("a watched file that became a folder or a FIFO is a failed reload with its message, never a hang", function()
    hot.watch{ root = dir, name .. ".lua" }
    local file = dir .. "/" .. name .. ".lua"
    os.remove(file)
    assert(os.execute("mkdir " .. file))
    assert.same({0, 1}, {hot.update()})
    assert.equal(name .. ".lua: cannot read " .. file .. ": it is a folder, not a file", errors_seen[1])
    assert.equal("cannot read " .. file .. ": it is a folder, not a file", hot.errors()[name .. ".lua"])
    os.execute("rmdir " .. file)
    assert(os.execute("mkfifo " .. file)) -- no writer: opening it would block
    assert.same({0, 1}, {hot.update()})
    assert.equal("cannot read " .. file .. ": it is a fifo, not a file", hot.errors()[name .. ".lua"])
    os.remove(file)
    write(name .. ".lua", brain_source(7))
    assert.same({1, 0}, {hot.update()})
    assert.same({}, hot.errors())
  end)

  it("checks its arguments", function()
    assert.has_error(function() hot.watch("x.lua") end, "hot.watch: table of paths expected, got string")
    local ok, err = pcall(hot.watch, { root = dir, "missing.lua" })
    assert.is_false(ok)
    assert.matches("missing%.lua: No such file or directory", err)
  end)
end)

describe("steer.file_mtime", function()
  it("gives a file's modification time and size, or nil and why", function()
    local path = os.tmpname()
    local f = assert(io.open(path, "wb"))
    f:write("12345")
    f:close()
    assert(os.execute("touch -d @1000000000.25 " .. path))
    local mtime, size = steer.file_mtime(path)
    assert.near(1000000000.25, mtime, 1e-6) -- seconds since the epoch, with the fraction
    assert.equal(5, size)
    assert.equal("file", select(3, steer.file_mtime(path)))
    assert.equal("folder", select(3, steer.file_mtime("/")))
    assert.equal("device", select(3, steer.file_mtime("/dev/null")))
    os.remove(path)
    local none, msg = steer.file_mtime(path)
    assert.is_nil(none)
    assert.equal(path .. ": No such file or directory", msg)
    assert.has_error(function() steer.file_mtime() end)
  end)
end)
