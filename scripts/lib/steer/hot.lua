-- steer.hot - the steer program's hot-reload rules as a library, for a host that runs its own loop
-- (a LÖVE game, a plain Lua program). Lua 5.1 (LuaJIT) to 5.4.
--
--   local hot = require "steer.hot"
--   hot.watch{"brains/hunter.lua", "brains/prey.lua"}   -- modules "brains.hunter", "brains.prey"
--   function love.update(dt) hot.update() ... end
--
-- hot.update() looks at each watched file's modification time and size (steer.file_mtime: plain
-- Lua has no stat) and reloads the files that changed, with the program's rules:
--  * the new module table is merged into the old one (package.loaded[name]) in place: its values
--    are copied into the old table, recursively into plain sub-tables (no metatable), so every
--    reference to `Hunter` or `Hunter.states.chase` sees the new code at once; keys the new file no
--    longer has stay; a module that is not a plain table is replaced, as require would;
--  * nothing else is touched: the world, every vehicle, v.data, v.state and v.brain stay;
--  * a syntax error or an error while the chunk runs is reported (file:line and a traceback), and
--    whatever the failed reload had overwritten is put back: the old code keeps running. The
--    error stays in hot.errors() until that file loads cleanly.
-- A file that is missing for a moment (an editor saving through a rename) is looked at again on
-- the next call. The reload of a file that was saved twice between two calls happens once.
local steer = require "steer"

local hot = {}

local watched = {}      -- array of entries {path =, file =, module =, mtime =, size =}
local errors = {}       -- path -> message of its last failed reload (until it loads cleanly)

-- Called after a good reload with (path, module name); after a failed one with (path, message).
-- The default error handler writes the message to stderr.
hot.on_reload = nil
hot.on_error = function(path, message) io.stderr:write("steer.hot: ", message, "\n") end

local function is_plain(t) return type(t) == "table" and getmetatable(t) == nil end

-- Copies src's keys into dst (recursively into plain sub-tables), logging each overwritten value in
-- undo as {table, key, old value}. seen ends cycles.
local function merge(dst, src, seen, undo)
  if seen[src] then return end
  seen[src] = true
  for k, v in pairs(src) do
    local old = rawget(dst, k)
    if is_plain(v) and is_plain(old) and v ~= old then
      merge(old, v, seen, undo)
    else
      undo[#undo + 1] = { dst, k, old }
      rawset(dst, k, v)
    end
  end
end

local function replay(undo)
  for i = #undo, 1, -1 do
    local u = undo[i]
    rawset(u[1], u[2], u[3])
  end
end

-- "brains/hunter.lua" -> "brains.hunter"
local function module_name(path)
  return (path:gsub("%.lua$", ""):gsub("[/\\]", "."):gsub("^%.+", ""))
end

local function read(file)
  local f, err = io.open(file, "rb")
  if not f then return nil, err end
  local text = f:read("*a")
  f:close()
  return text
end

-- Runs the file's chunk as require would (arguments: module name, file) and merges the result.
-- Returns true, or false and the message (with a traceback when the chunk raised).
local function apply(entry)
  local text, err = read(entry.file)
  if not text then return false, err end
  -- what loadfile (and so require) skips: a UTF-8 byte order mark, some editors' habit, and a #!
  -- line, whose newline stays so that errors name the lines as written
  text = text:gsub("^\239\187\191", "")
  if text:sub(1, 1) == "#" then text = text:gsub("^[^\n]*", "") end
  local chunk
  chunk, err = (loadstring or load)(text, "@" .. entry.path)
  if not chunk then return false, err end
  local ok, fresh = xpcall(function() return chunk(entry.module, entry.file) end, function(e)
    return debug.traceback(tostring(e), 2)
  end)
  if not ok then return false, fresh end
  local undo = {}
  local old = package.loaded[entry.module]
  if is_plain(old) and type(fresh) ~= "table" then
    -- a save without its `return M` (or one made mid-edit): replacing the table would leave every
    -- brain holding the old one with the old code, and later saves merging into a table nobody holds
    return false, ("module '%s' returned %s instead of its table: the old code keeps running (does the file "
      .. "end with `return M`?)"):format(entry.module, type(fresh))
  end
  if is_plain(old) and type(fresh) == "table" then
    ok, err = pcall(merge, old, fresh, {}, undo)
    if not ok then
      replay(undo)
      return false, tostring(err)
    end
  else -- nothing to merge into: the new value takes the old one's place
    package.loaded[entry.module] = fresh == nil and true or fresh
  end
  return true
end

--- Watches files: an array of paths (relative to `root`, default the current directory), each the
--- file of module path-without-.lua with / as . (or give {path =, module =} for another name).
--- The module is required now if it is not loaded yet. Returns hot.
function hot.watch(list)
  if type(list) ~= "table" then error("hot.watch: table of paths expected, got " .. type(list), 2) end
  local root = list.root
  if root ~= nil and type(root) ~= "string" then error("hot.watch: option 'root' must be a string", 2) end
  for i = 1, #list do
    local item = list[i]
    local path, name = item, nil
    if type(item) == "table" then path, name = item.path, item.module end
    if type(path) ~= "string" then error("hot.watch: item " .. i .. ": path expected, got " .. type(path), 2) end
    local entry = { path = path, module = name or module_name(path) }
    entry.file = root and (root .. "/" .. path) or path
    entry.mtime, entry.size = steer.file_mtime(entry.file)
    if not entry.mtime then error("hot.watch: " .. entry.size, 2) end
    local known = false
    for _, e in ipairs(watched) do if e.file == entry.file then known = true end end
    if not known then
      watched[#watched + 1] = entry
      if package.loaded[entry.module] == nil then require(entry.module) end
    end
  end
  return hot
end

--- Reloads every watched file that changed since it was last looked at. Returns how many reloaded
--- and how many failed.
function hot.update()
  local good, bad = 0, 0
  for _, entry in ipairs(watched) do
    local mtime, size = steer.file_mtime(entry.file)
    if mtime and (mtime ~= entry.mtime or size ~= entry.size) then
      entry.mtime, entry.size = mtime, size
      local ok, err = apply(entry)
      if ok then
        good = good + 1
        errors[entry.path] = nil
        if hot.on_reload then hot.on_reload(entry.path, entry.module) end
      else
        bad = bad + 1
        errors[entry.path] = err
        if hot.on_error then hot.on_error(entry.path, err) end
      end
    end
  end
  return good, bad
end

--- The files whose last reload failed: path -> message.
function hot.errors()
  local copy = {}
  for k, v in pairs(errors) do copy[k] = v end
  return copy
end

--- Forgets every watched file and error (the modules stay loaded).
function hot.reset()
  watched, errors = {}, {}
end

return hot
