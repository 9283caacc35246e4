-- Every function of every metatable the module creates, and of the module table, called with each
-- wrong type as self / first argument: each raises a Lua error with a string message (naming the
-- expected type where the value has the wrong type); none crashes the interpreter. The functions
-- are found by walking the metatables (and the dispatch tables their __index closes over), so a
-- method added later is covered without touching this file.
local steer = require "steer"
local unpack = table.unpack or unpack -- LuaJIT has only the 5.1 name

--- The message of the error fn raises, or nil if it does not.
local function error_of(fn, ...)
  local ok, err = pcall(fn, ...)
  if ok then return nil end
  return err
end

--- Every function reachable from a metatable: its own fields and the dispatch table(s) its
--- __index / __newindex close over (the methods). name -> function, names sorted on use.
local function functions_of(mt)
  local found = {}
  local function add_table(t, prefix)
    for k, v in pairs(t) do
      if type(v) == "function" and type(k) == "string" then found[prefix .. k] = v end
    end
  end
  add_table(mt, "")
  for _, meta in ipairs{"__index", "__newindex"} do
    local f = rawget(mt, meta)
    if type(f) == "function" then
      for i = 1, math.huge do
        local name, up = debug.getupvalue(f, i)
        if not name then break end
        if type(up) == "table" then add_table(up, ".") end
      end
    end
  end
  return found
end

local sorted_keys = require("tests.lua.helpers").sorted_keys

--- The metatables the module registered: registry entries named steer.*.
local function module_metatables()
  local found = {}
  for k, v in pairs(debug.getregistry()) do
    if type(k) == "string" and k:match("^steer%.") and type(v) == "table" then found[k] = v end
  end
  return found
end

-- Handles of every type, alive, plus a removed one of each (and a closed world).
local function make_handles()
  local w = steer.world{width = 200, height = 200}
  local h = {}
  h["steer.World"] = w
  h["steer.Vehicle"] = w:spawn{x = 1, y = 1}
  h["steer.Obstacle"] = w:obstacle{x = 50, y = 50, radius = 3}
  h["steer.Wall"] = w:wall{x1 = 0, y1 = 0, x2 = 10, y2 = 0}
  h["steer.Path"] = w:path{{0, 0}, {10, 10}}
  h["steer.FlowField"] = w:flow_field{x = 0, y = 0, cell_size = 10, cols = 2, rows = 2}
  h["steer.PairsCursor"] = select(2, steer.pairs{a = 1, b = 2}) -- (steer.pairs' state: not an array)
  local removed = {}
  local w2 = steer.world{}
  removed["steer.Vehicle"] = w2:spawn{}
  removed["steer.Obstacle"] = w2:obstacle{x = 1, y = 1, radius = 3}
  removed["steer.Wall"] = w2:wall{x1 = 0, y1 = 0, x2 = 1, y2 = 1}
  removed["steer.Path"] = w2:path{{0, 0}}
  removed["steer.FlowField"] = w2:flow_field{x = 0, y = 0, cell_size = 1, cols = 1, rows = 1}
  for _, handle in pairs(removed) do w2:remove(handle) end
  removed["steer.World"] = steer.world{}
  removed["steer.World"]:close()
  return w, h, removed
end

--- Wrong values for a function of metatable `mt_name`: every plain Lua type, a foreign userdata and
--- every other type's handle. name -> value (nil kept as a name: it cannot be a table value).
local function wrong_values(mt_name, handles)
  local values = {
    {"nil", nil}, {"boolean", true}, {"number", 42}, {"integer 0", 0}, {"string", "steer.World"},
    {"table", {}}, {"function", print}, {"thread", coroutine.create(print)}, {"io userdata", io.stdout},
  }
  for other, handle in pairs(handles) do
    if other ~= mt_name then values[#values + 1] = {other, handle} end
  end
  table.sort(values, function(a, b) return a[1] < b[1] end)
  return values
end

describe("every function checks its self", function()
  it("the repro: a shape's __tostring called with a number raises instead of crashing", function()
    local w = steer.world{}
    local err = error_of(debug.getmetatable(w:obstacle{x = 1, y = 1, radius = 3}).__tostring, 42)
    assert.is_string(err)
    assert.matches("steer.Obstacle expected, got number", err, 1, true)
  end)

  it("finds the metatables of every handle type", function()
    local _, handles = make_handles()
    local mts = module_metatables()
    for name, handle in pairs(handles) do
      assert.equal(mts[name], debug.getmetatable(handle), name)
    end
    for name in pairs(mts) do assert.is_not_nil(handles[name], "no handle made for metatable " .. name) end
  end)

  it("every function of every metatable: wrong self -> an error naming the expected type", function()
    local _, handles = make_handles()
    local calls = 0
    for _, mt_name in ipairs(sorted_keys(module_metatables())) do
      local fns = functions_of(debug.getregistry()[mt_name])
      assert.is_true(next(fns) ~= nil, mt_name .. " has no functions")
      for _, fname in ipairs(sorted_keys(fns)) do
        local f = fns[fname]
        for _, wrong in ipairs(wrong_values(mt_name, handles)) do
          for _, extra in ipairs{{}, {"x", 1}, {"max_speed", 1, 2, 3}} do
            calls = calls + 1
            local what = ("%s%s(%s, %d more)"):format(mt_name, fname, wrong[1], #extra)
            local err = error_of(f, wrong[2], unpack(extra))
            assert(type(err) == "string", what .. " raised no string error: " .. tostring(err))
            assert(err:find(mt_name .. " expected", 1, true), what .. ": message does not name " .. mt_name .. ": " .. err)
          end
        end
      end
    end
    assert.is_true(calls > 500)
  end)

  it("every function of every metatable: a removed handle (closed world) as self errors or answers, never crashes", function()
    local _, _, removed = make_handles()
    for _, mt_name in ipairs(sorted_keys(module_metatables())) do
      local fns = functions_of(debug.getregistry()[mt_name])
      for _, fname in ipairs(sorted_keys(fns)) do
        for _, extra in ipairs{{}, {"x", 1}, {"data", {}}, {1, 2, 3}} do
          local ok, err = pcall(fns[fname], removed[mt_name], unpack(extra))
          if not ok then
            assert(type(err) == "string" and #err > 0, mt_name .. fname .. " raised a " .. type(err))
          end
        end
      end
    end
    -- and the answers that make sense for a dead handle
    assert.is_false(removed["steer.Vehicle"]:alive())
    assert.is_false(removed["steer.Obstacle"]:alive())
    assert.matches("%(removed%)$", tostring(removed["steer.Wall"]))
    assert.equal("world (closed)", tostring(removed["steer.World"]))
  end)

  it("every function of the module table: a wrong first argument raises a string error", function()
    local _, handles = make_handles()
    -- arguments a function accepts as its first one (steer.world: no options, or a table of them;
    -- steer.file_mtime: a path; steer.pairs: a table; steer.next: a table, or the cursor pairs gives it)
    local accepts = {world = {["nil"] = true, table = true}, file_mtime = {string = true}, pairs = {table = true},
                     next = {table = true, ["steer.PairsCursor"] = true}}
    local names = {}
    for name, f in pairs(steer) do if type(f) == "function" then names[#names + 1] = name end end
    table.sort(names)
    assert.is_true(#names >= 1)
    for _, name in ipairs(names) do
      for _, wrong in ipairs(wrong_values("", handles)) do
        local ok, err = pcall(steer[name], wrong[2])
        if not (accepts[name] and accepts[name][wrong[1]]) then
          assert(not ok, ("steer.%s(%s) did not raise"):format(name, wrong[1]))
          assert(type(err) == "string", ("steer.%s(%s) raised a %s"):format(name, wrong[1], type(err)))
          assert(err:find("expected", 1, true), ("steer.%s(%s): %s"):format(name, wrong[1], err))
        end
      end
    end
  end)

  it("a method of one shape type does not take another shape type as self", function()
    local w = steer.world{}
    local path = w:path{{0, 0}, {1, 1}}
    local obstacle = w:obstacle{x = 1, y = 1, radius = 1}
    local err = error_of(path.remove, obstacle)
    assert.matches("steer.Path expected, got steer.Obstacle", err, 1, true)
    assert.is_true(obstacle:alive())
  end)
end)
