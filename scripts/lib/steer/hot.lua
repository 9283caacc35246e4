-- SPDX-License-Identifier: MIT
-- steer.hot - the steer program's hot-reload rules as a library, for a host that runs its own loop
-- (a LÖVE game, a plain Lua program). Lua 5.1 (LuaJIT) to 5.4.
--
--   local hot = require "steer.hot"
--   hot.watch{"brains/hunter.lua", "brains/prey.lua"}   -- modules "brains.hunter", "brains.prey"
--   function love.update(dt) hot.update(world) ... end
--
-- hot.update(world, ...) looks at each watched file's modification time and size
-- (steer.file_mtime: plain Lua has no stat) and reloads the files that changed, with the program's
-- rules (steer.patch):
--  * the new run's tables are matched with the old ones by where the file keeps them (the module's
--    table, its keys, the file-level locals its functions use, metatables) and the old tables are
--    patched in place, classes and fsm machines included, so every reference to `Hunter`,
--    `Hunter.states.chase` or an instance of a class the module defines sees the new code at once;
--    keys the new file no longer has stay;
--  * a vehicle of the worlds given whose brain is a function of the file (v.brain = M.think) gets
--    the new one; the world, v.data, v.state and every other vehicle field stay; and every
--    vehicle's senses make the events its brain handles now (w:listen_to_brains());
--  * a vehicle whose brain still runs the file's old code after that (a brain made per vehicle by
--    a function the reload did not call again) is reported once, with the kinds and count, through
--    hot.on_warning;
--  * a syntax error or an error while the chunk runs is reported (file:line and a traceback), and
--    whatever the failed reload had overwritten is put back: the old code keeps running. The
--    error stays in hot.errors() until that file loads cleanly.
-- A file that is missing for a moment (an editor saving through a rename) is looked at again on
-- the next call. The reload of a file that was saved twice between two calls happens once.
local steer = require "steer"
local patch = require "steer.patch"

local hot = {}

local watched = {}      -- array of entries {path =, file =, module =, mtime =, size =}
local errors = {}       -- path -> message of its last failed reload (until it loads cleanly)

-- Called after a good reload with (path, module name); after a failed one with (path, message).
-- The default error handler writes the message to stderr.
hot.on_reload = nil
hot.on_error = function(path, message) io.stderr:write("steer.hot: ", message, "\n") end

-- Called when vehicles still run the old code of a file that reloaded: (path, message). The
-- default handler writes the message to stderr.
hot.on_warning = function(path, message) io.stderr:write("steer.hot: ", path, ": ", message, "\n") end

-- Every value of another module (and the globals): a reload never walks into those.
local function others(module)
  local skip = { _G }
  for name, value in pairs(package.loaded) do
    if name ~= module then skip[#skip + 1] = value end
  end
  return skip
end

-- The worlds given to hot.update, checked at every call (not only when a file changed), without
-- listing their vehicles: a game calls it every frame. (A steer handle's metatable reads as its
-- type name.)
local function check_worlds(worlds)
  for i = 1, worlds.n do
    local w = worlds[i]
    if getmetatable(w) ~= "steer.World" then
      error(("hot.update: argument #%d: steer.World expected, got %s"):format(i, type(w)), 3)
    end
  end
end

local function vehicles_of(worlds)
  local all = {}
  for i = 1, worlds.n do
    for _, v in ipairs(worlds[i]:vehicles()) do all[#all + 1] = v end
  end
  return all
end

-- "brains/hunter.lua" -> "brains.hunter"
local function module_name(path)
  return (path:gsub("%.lua$", ""):gsub("[/\\]", "."):gsub("^%.+", ""))
end

-- The most a watched file may hold (bytes), as the steer program's limit for a script.
local MAX_BYTES = 64 * 1024 * 1024

-- Only a regular file is opened (opening a FIFO blocks; reading a folder fails, a device may never
-- end), so that each of these is a failed reload with its message, as a syntax error is.
local function read(file)
  local _, size, kind = steer.file_mtime(file)
  if kind == nil then return nil, size end
  if kind ~= "file" then
    local what = kind == "other" and "something else" or "a " .. kind
    return nil, ("cannot read %s: it is %s, not a file"):format(file, what)
  end
  if size > MAX_BYTES then return nil, ("cannot read %s: it is larger than 64 MiB"):format(file) end
  local f, err = io.open(file, "rb")
  if not f then return nil, err end
  local text, read_err = f:read(MAX_BYTES + 1)
  f:close()
  if text == nil and read_err then return nil, ("cannot read %s: %s"):format(file, read_err) end
  text = text or "" -- (an empty file reads as nil: end of file)
  if #text > MAX_BYTES then return nil, ("cannot read %s: it is larger than 64 MiB"):format(file) end
  return text
end

-- Runs the file's chunk as require would (arguments: module name, file) and puts the new code in
-- place (steer.patch). Returns true and a warning (or nil), or false and the message (with a
-- traceback when the chunk raised).
local function apply(entry, worlds)
  local text, err = read(entry.file)
  if not text then return false, err end
  -- what loadfile (and so require) skips: a UTF-8 byte order mark, some editors' habit, and a #!
  -- line, whose newline stays so that errors name the lines as written
  text = text:gsub("^\239\187\191", "")
  if text:sub(1, 1) == "#" then text = text:gsub("^[^\n]*", "") end
  local source = "@" .. entry.path
  local chunk
  chunk, err = (loadstring or load)(text, source)
  if not chunk then return false, err end
  local vehicles = vehicles_of(worlds)
  local before = patch.brains(vehicles)
  local ok, fresh = xpcall(function() return chunk(entry.module, entry.file) end, function(e)
    return debug.traceback(tostring(e), 2)
  end)
  if not ok then return false, fresh end
  local old = package.loaded[entry.module]
  if type(old) == "table" and type(fresh) ~= "table" then
    -- a save without its `return M` (or one made mid-edit): replacing the table would leave every
    -- brain holding the old one with the old code, and later saves merging into a table nobody holds
    return false, ("module '%s' returned %s instead of its table: the old code keeps running (does the file "
      .. "end with `return M`?)"):format(entry.module, type(fresh))
  end
  local report
  -- the old run's functions carry the chunk name `require` gave them (the path package.path found)
  local found = package.searchpath and package.searchpath(entry.module, package.path)
  ok, report = pcall(patch.apply, {
    source = source, sources = { "@" .. entry.file, found and "@" .. found }, roots = { { old = old, new = fresh } },
    skip = others(entry.module), brains = before,
  })
  if not ok then return false, tostring(report) end
  if type(old) ~= "table" or type(fresh) ~= "table" then
    -- nothing to patch in place: the new value takes the old one's place, as require would
    package.loaded[entry.module] = fresh == nil and true or fresh
  end
  local stale, kinds = patch.stale(report, before)
  if stale > 0 then
    local one = stale == 1
    return true, ("%d %s (%s) still %s the old code: %s made by code this save did not run again (set v.brain "
      .. "anew, or restart)"):format(stale, one and "vehicle" or "vehicles", kinds, one and "runs" or "run",
      one and "its brain was" or "their brains were")
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

--- Reloads every watched file that changed since it was last looked at; the vehicles of the worlds
--- given get their brains' new code (see above). Returns how many reloaded and how many failed.
function hot.update(...)
  local worlds = { n = select("#", ...), ... }
  check_worlds(worlds)
  local good, bad = 0, 0
  for _, entry in ipairs(watched) do
    local mtime, size = steer.file_mtime(entry.file)
    if mtime and (mtime ~= entry.mtime or size ~= entry.size) then
      entry.mtime, entry.size = mtime, size
      local ok, err = apply(entry, worlds)
      if ok then
        -- senses make the events brains handle now (the save may have added or dropped a handler)
        for i = 1, worlds.n do worlds[i]:listen_to_brains() end
        good = good + 1
        errors[entry.path] = nil
        if err and hot.on_warning then hot.on_warning(entry.path, err) end
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
