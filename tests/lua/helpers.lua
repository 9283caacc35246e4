-- Shared helpers of the Lua specs.
local H = {}

--- The message of the error fn raises (without the "file:line: " prefix), or nil if it does not.
function H.error_of(fn, ...)
  local ok, err = pcall(fn, ...)
  if ok then return nil end
  return (tostring(err):gsub("^[^:]*:%d+: ", "", 1))
end

--- Whether x is an integer: Lua 5.4's integer subtype; on LuaJIT (numbers are doubles) an integral
--- number.
function H.is_integer(x)
  if math.type then return math.type(x) == "integer" end
  return type(x) == "number" and x == math.floor(x)
end

--- The keys of t, sorted (pairs order changes from run to run).
function H.sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

--- A snapshot of everything a script can observe about a world, to show a call changed nothing.
function H.snapshot(w)
  local s = {time = w.time, count = w:count(), kinds = table.concat(w:kinds(), ","), vehicles = {}}
  for _, v in ipairs(w:vehicles()) do
    local b = {}
    for name, params in pairs(v:behaviours()) do
      local keys = {}
      for k, val in pairs(params) do
        if type(val) == "table" and getmetatable(val) == nil then val = table.concat(val, ",") end
        keys[#keys + 1] = k .. "=" .. tostring(val)
      end
      table.sort(keys)
      b[#b + 1] = name .. "{" .. table.concat(keys, " ") .. "}"
    end
    table.sort(b)
    s.vehicles[#s.vehicles + 1] = table.concat({v.id, v.kind, v.x, v.y, v.vx, v.vy, v.max_speed, v.max_force,
      v.mass, v.radius, v.combine, tostring(v.color and table.concat(v.color, ",")), table.concat(b, ";")}, "|")
  end
  s.obstacles = #w:obstacles()
  s.walls = #w:walls()
  return s
end

return H
