-- forms_module.lua - every form of brain a module can hold, for the hot-reload tests
-- (tests/c/test_runtime_brain_reload.c, tests/lua/hot_brains_spec.lua). Each brain writes the
-- file's version into v.data.ran when it thinks; the tests save the file again with
-- `local V = 2` and expect every brain but the one made per vehicle to write 2 at its next think.
local V = 1
local fsm = require "fsm"
local class = require "classlib"

local M = {}

-- in the module's table
M.table_brain = { think = function(v) v.data.ran = V end }
M.nested = { deep = { brain = { think = function(v) v.data.ran = V end } } }
function M.function_brain(v) v.data.ran = V end
M.machine = fsm.machine{ initial = "watch", states = { watch = { think = function(v) v.data.ran = V end } } }

-- file-level locals that the module's functions use
local local_table = { think = function(v) v.data.ran = V end }
local function local_function(v) v.data.ran = V end
local local_states = { watch = { think = function(v) v.data.ran = V end } }

-- a class whose instances keep the vehicle's own state, and one made by a class library
local Guard = {}
Guard.__index = Guard
function Guard.new() return setmetatable({ thoughts = 0 }, Guard) end
function Guard:think(v)
  self.thoughts = self.thoughts + 1
  v.data.ran = V
end
local Knight = class("Knight")
function Knight:initialize() self.thoughts = 0 end
function Knight:think(v)
  self.thoughts = self.thoughts + 1
  v.data.ran = V
end

-- a brain made for each vehicle by a function the reload does not call again
local function make_brain() return { think = function(v) v.data.ran = V end } end

function M.setup(w)
  local function spawn(kind, brain)
    local v = w:spawn{ kind = kind }
    v.data.count = 0
    v.brain = brain
  end
  spawn("table", M.table_brain)
  spawn("nested", M.nested.deep.brain)
  spawn("function", M.function_brain)
  spawn("machine", M.machine)
  spawn("local_table", local_table)
  spawn("local_function", local_function)
  spawn("local_machine", fsm.machine{ initial = "watch", states = local_states })
  spawn("class", Guard.new())
  spawn("class_library", Knight:new())
  spawn("made_per_vehicle", make_brain())
end

return M
