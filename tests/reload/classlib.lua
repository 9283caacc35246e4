-- classlib.lua - a small class library shaped like the popular ones (middleclass's layout): a
-- class is a table whose methods live in a separate instance dictionary, which is the metatable
-- of its instances; `Class:new()` or `Class()` makes one. The reload tests define brains with it.
local function declare(class, name, f)
  rawset(class.__instanceDict, name, f)
end

local function new(class, ...)
  local instance = setmetatable({ class = class }, class.__instanceDict)
  if instance.initialize then instance:initialize(...) end
  return instance
end

return function(name)
  local dict = {}
  dict.__index = dict
  local class = { name = name, __instanceDict = dict, static = {} }
  class.static.new = new
  return setmetatable(class, {
    __index = function(_, k) return rawget(class.static, k) or rawget(dict, k) end,
    __newindex = declare,
    __call = new,
    __tostring = function() return "class " .. name end,
  })
end
