-- luacheckrc_spec.lua - `steer --luacheckrc` prints a luacheck configuration under which a user's
-- folder of scenes lints clean (the README's first scene, scenes that define every callback, the
-- demos of scripts/ with their modules) while a real mistake (a misspelt global) is still reported;
-- and it names exactly the callbacks docs/runtime.md lists, and the settings world and keys.
local BUILD = os.getenv("STEER_BUILD") or "build"
local PROGRAM = BUILD .. "/asan/steer"
if not PROGRAM:match("^/") then PROGRAM = io.popen("pwd"):read("*l") .. "/" .. PROGRAM end

local function shell_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

--- Runs a shell command; its exit code and its output (stdout and stderr).
local function run(cmd)
  local out_path = os.tmpname()
  local ok, _, code = os.execute(cmd .. " >" .. out_path .. " 2>&1")
  if type(ok) == "number" then code = ok % 256 == 0 and ok / 256 or ok end -- (LuaJIT: the wait status)
  local f = assert(io.open(out_path, "r"))
  local out = f:read("*a")
  f:close()
  os.remove(out_path)
  return code, out
end

local function write(path, text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

--- A fresh folder holding the printed configuration as .luacheckrc and `files` (name -> text).
local function scene_folder(files)
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir -p " .. shell_quote(dir)))
  local code, config = run(shell_quote(PROGRAM) .. " --luacheckrc")
  assert(code == 0, config)
  write(dir .. "/.luacheckrc", config)
  for name, text in pairs(files) do
    if name:find("/") then assert(os.execute("mkdir -p " .. shell_quote(dir .. "/" .. name:match("^(.*)/")))) end
    write(dir .. "/" .. name, text)
  end
  return dir
end

--- luacheck run in the folder, as the user would run it there: its exit code and its report.
local function luacheck(dir)
  return run("cd " .. shell_quote(dir) .. " && luacheck --no-color --codes --formatter plain .")
end

local function remove(dir) os.execute("rm -rf " .. shell_quote(dir)) end

local function read(path)
  local f = assert(io.open(path, "r"))
  local s = f:read("*a")
  f:close()
  return s
end

local B = require "tests.lua.doc_blocks"

--- The README's first ```lua block: the first scene a user writes.
local function first_scene()
  local first = assert(B.blocks("README.md")[1], "README.md has no ```lua block")
  assert(B.kind(first) == "scene", "README.md's first ```lua block is no scene any more: update this test")
  return first.source
end

--- The callbacks docs/runtime.md's table lists (`| callback | when |`), in its order.
local function documented_callbacks()
  local names, in_table = {}, false
  for line in io.lines("docs/runtime.md") do
    if line:match("^| callback | when |") then
      in_table = true
    elseif in_table and not line:match("^|") then
      break
    elseif in_table then
      local cell = line:match("^|([^|]*)|")
      for name in cell:gmatch("`([%a_]+)%(") do names[#names + 1] = name end
    end
  end
  assert(#names > 0, "docs/runtime.md has no callback table")
  return names
end

--- The printed configuration, run as luacheck runs it: {globals = {...}, std =, ignore =, ...}.
local function printed_config()
  local code, text = run(shell_quote(PROGRAM) .. " --luacheckrc")
  assert(code == 0, text)
  local env = {stds = {}}
  local chunk = assert(load(text, "=.luacheckrc", "t", env))
  local setfenv = rawget(_G, "setfenv") -- (LuaJIT)
  if setfenv then setfenv(chunk, env) end
  chunk()
  return env
end

--- A scene that defines every documented callback (and keys, world), keeping state in globals
--- across them as the README advises, with a brain module in its own folder.
local function callback_scene()
  local lines = {
    "local steer = require \"steer\"",
    "local Brain = require \"herd.brain\"",
    "world = {width = 640, height = 480, seed = 2}",
    "keys = { {\"space\", \"scatter\"} }",
  }
  local bodies = {
    load = "function load(w) herd = {} for i = 1, 5 do herd[i] = w:spawn{x = 100 * i, brain = Brain} end end",
    update = "function update(w, dt) clock = (clock or 0) + dt end",
    draw = "function draw(gfx, w) gfx.hud(('%d sheep, %.1f s'):format(#herd, clock or 0)) end",
    reload = "function reload(w) herd = w:vehicles() end",
  }
  for _, name in ipairs(documented_callbacks()) do
    lines[#lines + 1] = bodies[name] or ("function %s(...) inputs = (inputs or 0) + select('#', ...) end"):format(name)
  end
  lines[#lines + 1] = "function mouse_at() return steer.mouse() end"
  lines[#lines + 1] = "mouse_at()"
  return table.concat(lines, "\n") .. "\n"
end

local BRAIN = [[
local Brain = {}
function Brain.think(v, dt)
  if v.world:random() < 0.1 then v:wander{} end
end
return Brain
]]

describe("steer --luacheckrc", function()
  it("names exactly the callbacks docs/runtime.md lists, and the settings world and keys", function()
    local config = printed_config()
    local expected = documented_callbacks()
    expected[#expected + 1] = "world"
    expected[#expected + 1] = "keys"
    table.sort(expected)
    local globals = {}
    for i, name in ipairs(config.stds.steer_scene.globals) do globals[i] = name end
    table.sort(globals)
    local function missing(from, what)
      local set, out = {}, {}
      for _, name in ipairs(what) do set[name] = true end
      for _, name in ipairs(from) do if not set[name] then out[#out + 1] = name end end
      return table.concat(out, ", ")
    end
    assert.same(expected, globals, ("the program calls callbacks docs/runtime.md's table does not list (%s), or the"
      .. " table lists some the program does not call (%s)"):format(missing(globals, expected), missing(expected, globals)))
    assert.equal("lua54+steer_scene", config.std)
  end)

  it("names the same scene globals as the repository's own .luacheckrc gives scripts/*.lua", function()
    local env = {files = {}, stds = {}}
    local chunk = assert(load(read(".luacheckrc"), "=.luacheckrc", "t", env))
    local setfenv = rawget(_G, "setfenv") -- (LuaJIT)
    if setfenv then setfenv(chunk, env) end
    chunk()
    local ours, printed = {}, {}
    for i, name in ipairs(env.files["scripts/*.lua"].globals) do ours[i] = name end
    for i, name in ipairs(printed_config().stds.steer_scene.globals) do printed[i] = name end
    table.sort(ours)
    table.sort(printed)
    assert.same(printed, ours)
  end)

  it("lints clean a folder of scenes: the README's first, every callback, the demos and their modules", function()
    local files = {["chase.lua"] = first_scene(), ["herd.lua"] = callback_scene(), ["herd/brain.lua"] = BRAIN}
    for _, demo in ipairs{"hunter_prey.lua", "hunter_prey/hunter.lua", "hunter_prey/prey.lua",
                          "hunter_prey/rules.lua", "hunter_prey/config.lua", "flocking.lua", "seek_flee_arrive.lua"} do
      files[demo] = read("scripts/" .. demo)
    end
    local dir = scene_folder(files)
    local code, report = luacheck(dir)
    remove(dir)
    assert.equal(0, code, report)
    assert.equal("", report)
  end)

  it("lints clean every scene of the documentation (each in a folder of its own)", function()
    local scenes = 0
    for _, block in ipairs(B.all()) do
      if B.kind(block) == "scene" then
        scenes = scenes + 1
        local dir = scene_folder{["scene.lua"] = B.padded(block)} -- (padded: luacheck names the doc's lines)
        local code, report = luacheck(dir)
        remove(dir)
        assert(code == 0 and report == "", ("%s: the scene does not lint clean:\n%s"):format(B.where(block), report))
      end
    end
    assert.is_true(scenes >= 3, "only " .. scenes .. " scenes found")
  end)

  it("still reports a misspelt global: read where it was never set, or set and never read", function()
    local scene = first_scene()
    local read_typo = scene:gsub("hunter:set_position", "huntr:set_position")
    local set_typo = scene:gsub("hunter = w:spawn", "huntr = w:spawn")
    assert.is_true(read_typo ~= scene and set_typo ~= scene, "the README's first scene changed: update this test")
    -- (one folder each: luacheck takes a global set in any file of the run as defined in all)
    local dir = scene_folder{["chase.lua"] = read_typo}
    local code, report = luacheck(dir)
    remove(dir)
    assert.equal(1, code, report)
    assert.truthy(report:match("chase%.lua:%d+:%d+: %(W113%) accessing undefined variable '?huntr'?"), report)
    dir = scene_folder{["chase.lua"] = set_typo}
    code, report = luacheck(dir)
    remove(dir)
    assert.equal(1, code, report)
    assert.truthy(report:match("chase%.lua:%d+:%d+: %(W131%) unused global variable '?huntr'?"), report)
    assert.truthy(report:match("chase%.lua:%d+:%d+: %(W113%) accessing undefined variable '?hunter'?"), report)
  end)

  it("still reports a misspelt callback, which the program would never call", function()
    local dir = scene_folder{["scene.lua"] = "function laod(w) w:spawn{} end\n"}
    local code, report = luacheck(dir)
    remove(dir)
    assert.equal(1, code, report)
    assert.truthy(report:match("scene%.lua:1:10: %(W131%) unused global variable '?laod'?"), report)
  end)
end)
