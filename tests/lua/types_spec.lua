local steer = require "steer"

-- types/steer.lua (the lua-language-server annotations) must name exactly what the C module
-- exposes: each handle class's fields and methods, and the module's own functions and fields.

local function read_annotations(path)
  local classes, locals, current = {}, {}, nil
  for line in io.lines(path) do
    local class = line:match("^%-%-%-@class ([%w%.]+)")
    if class then
      current = class
      classes[class] = classes[class] or {fields = {}, methods = {}}
    end
    local field = line:match("^%-%-%-@field ([%w_]+)")
    if field and current then classes[current].fields[field] = true end
    local var = line:match("^local (%w+) = {}")
    if var and current then locals[var] = current end
    local owner, method = line:match("^function (%w+)[:.]([%w_]+)%(")
    if owner then
      local c = locals[owner] or owner
      classes[c] = classes[c] or {fields = {}, methods = {}}
      classes[c].methods[method] = true
    end
  end
  return classes
end

local sorted_keys = require("tests.lua.helpers").sorted_keys

--- The names a handle's __index answers to: methods are functions, fields are numbers.
local function exposed(metatable_name)
  local mt = debug.getregistry()[metatable_name]
  local _, dispatch = debug.getupvalue(mt.__index, 1)
  local fields, methods = {}, {}
  for name, value in pairs(dispatch) do
    if type(value) == "function" then methods[name] = true else fields[name] = true end
  end
  return fields, methods
end

describe("types/steer.lua", function()
  local classes = read_annotations("types/steer.lua")

  for _, class in ipairs{"steer.World", "steer.Vehicle", "steer.Obstacle", "steer.Wall", "steer.Path",
                          "steer.FlowField"} do
    it("names every field and method of " .. class, function()
      local fields, methods = exposed(class)
      assert.is_table(classes[class], class .. " is not annotated")
      assert.same(sorted_keys(fields), sorted_keys(classes[class].fields))
      assert.same(sorted_keys(methods), sorted_keys(classes[class].methods))
    end)
  end

  it("names the module's functions and fields", function()
    local fields, functions = {}, {}
    for name, value in pairs(steer) do
      if type(value) == "function" then functions[name] = true else fields[name] = true end
    end
    assert.same(sorted_keys(fields), sorted_keys(classes.steer.fields))
    assert.same(sorted_keys(functions), sorted_keys(classes.steer.methods))
  end)

  it("documents an options class for every behaviour that takes options", function()
    for _, name in ipairs(steer.behaviours) do
      assert.is_true(classes["steer.Vehicle"].methods[name], name)
    end
    assert.is_table(classes["steer.WanderOptions"])
    assert.is_true(classes["steer.WanderOptions"].fields.jitter)
  end)
end)
