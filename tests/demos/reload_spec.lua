-- reload_spec.lua - hot reload of the hunter/prey brains while the game runs: new state code takes
-- effect at once, the score and every vehicle's state survive.
package.path = "tests/demos/?.lua;" .. package.path
local H = require "helper"

local function sh(cmd) assert(os.execute(cmd), cmd) end

describe("hot reload", function()
  it("hunter_prey: a saved hunter.lua changes how hunters think while the game keeps its score and states", function()
    local dir = os.tmpname()
    os.remove(dir)
    sh(("mkdir -p %s/scripts && cp -r %s/scripts/hunter_prey.lua %s/scripts/hunter_prey %s/scripts/lib %s/scripts/")
      :format(dir, H.ROOT, H.ROOT, H.ROOT, dir))
    local scene = io.open(dir .. "/scripts/watch.lua", "w")
    scene:write([[
local scene = require "hunter_prey"
local update = scene.update
function scene.update(world, dt)
  update(world, dt)
  local t = math.floor(world.time * 2)
  if t ~= last then
    last = t
    local resting = 0
    for _, h in ipairs(world:vehicles("hunter")) do if h.state == "rest" then resting = resting + 1 end end
    print(("@tick=%.1f caught=%d hunters=%d resting=%d"):format(world.time, scene.game.caught,
      world:count("hunter"), resting))
  end
end
return scene
]])
    scene:close()
    -- the edit, saved once the game has run 1 s: every hunter goes to rest and stays there
    -- (printing as it thinks). The run goes on until SIGTERM; each step waits for what it needs.
    local hunter = dir .. "/scripts/hunter_prey/hunter.lua"
    local f = io.open(hunter)
    local text = f:read("a")
    f:close()
    local patched, n = text:gsub("\nHunter%.brain = ", [[

Hunter.states.hunt.think = function() return "rest" end
Hunter.states.chase.think = function() return "rest" end
Hunter.states.rest.think = function() print("@new_code=1") end
Hunter.brain = ]])
    assert.are.equal(1, n)
    f = io.open(hunter .. ".next", "w")
    f:write(patched)
    f:close()
    local p = H.start(dir, "game", ("SDL_VIDEODRIVER=dummy %s --headless --watch --seed 4 --time-budget %s scripts/watch.lua")
      :format(H.BIN, H.TIME_BUDGET))
    local function context() return H.read(p.err) .. "\n" .. H.read(p.out):sub(-2000) end
    H.wait_until("the game to run 1 s", function() return H.read(p.out):find("@tick=1.0", 1, true) end, context)
    sh(("mv %s.next %s"):format(hunter, hunter))
    local new_at = H.wait_until("the new state code to run", function() return H.read(p.out):find("@new_code=1", 1, true) end,
      context)
    -- two more ticks after the new code, and at least 4 s of game for the score's history
    H.wait_until("ticks after the reload", function()
      local out = H.read(p.out)
      local _, after = out:sub(new_at):gsub("@tick=", "")
      return after >= 2 and out:find("@tick=4.0", 1, true)
    end, context)
    local rc = H.stop(p)
    local out, err = H.read(p.out), H.read(p.err)
    sh("rm -rf " .. dir)
    assert.are.equal(0, rc, err)
    assert.is_truthy(err:find("reloaded", 1, true), "the program never reloaded hunter.lua\n" .. err)
    assert.is_truthy(out:find("@new_code=1", 1, true), "the new state code never ran\n" .. err)
    -- by the end both hunters rest (the new code sends them there); the score was kept (no error)
    local last_tick = out:match(".*(@tick=[^\n]*)")
    assert.is_truthy(last_tick:find("hunters=2 resting=2", 1, true), last_tick .. "\n" .. err)
    assert.is_falsy(err:find("error", 1, true), err)
    local ticks, before = 0, -1
    for caught in out:gmatch("@tick=[%d.]+ caught=(%d+)") do
      ticks = ticks + 1
      assert.is_true(tonumber(caught) >= before, "the score went back from " .. before .. " to " .. caught)
      before = tonumber(caught)
    end
    assert.is_true(ticks >= 7)
  end)

  it("the README's sentries.lua: a print added to its sense handler runs after the save", function()
    -- the scene exactly as README.md shows it (the brain is a file-level local fsm machine; its handler a file-level local function)
    local readme = io.open(H.ROOT .. "/README.md"):read("a")
    local scene = readme:match("```lua\n(%-%- sentries%.lua:.-)```")
    assert.is_truthy(scene, "README.md has no sentries.lua block")
    local dir = os.tmpname()
    os.remove(dir)
    sh(("mkdir -p %s/scripts && cp -r %s/scripts/lib %s/scripts/"):format(dir, H.ROOT, dir))
    scene = scene .. 'print("@ready")\n' -- (so that the test saves only once the program runs it)
    local path = dir .. "/scripts/sentries.lua"
    local f = io.open(path, "w")
    f:write(scene)
    f:close()
    local edited, n = scene:gsub("local function spotted%(v, sense, other%) ",
      "local function spotted(v, sense, other) print(\"@spotted \" .. v.id) ")
    assert.are.equal(1, n)
    local p = H.start(dir, "sentries", ("SDL_VIDEODRIVER=dummy %s --headless --watch --seed 1 --time-budget %s "
      .. "scripts/sentries.lua"):format(H.BIN, H.TIME_BUDGET))
    local function context() return H.read(p.err) .. "\n" .. H.read(p.out):sub(-2000) end
    H.wait_until("the scene to run", function() return H.read(p.out):find("@ready", 1, true) end, context)
    -- a guard that sees the intruder from then on prints (with --seed 1 one does within seconds).
    -- (A save that lands before the program watches the file is made again.)
    H.wait_until("the edited sense handler to run", function()
      if H.read(p.out):find("@spotted", 1, true) then return true end
      f = io.open(path .. ".next", "w")
      f:write(edited)
      f:close()
      sh(("mv %s.next %s"):format(path, path))
      os.execute("sleep 0.5")
      return false
    end, context)
    local rc = H.stop(p)
    local err = H.read(p.err)
    sh("rm -rf " .. dir)
    assert.are.equal(0, rc, err)
    assert.is_truthy(err:find("steer: reloaded [^\n]*sentries%.lua\n"), err) -- and no vehicle left behind
    assert.is_falsy(err:find("old code", 1, true), err)
  end)

  it("every demo survives a save of its own file while it runs (reload picks the run back up)", function()
    local dir = os.tmpname()
    os.remove(dir)
    sh(("mkdir -p %s && cp -r %s/scripts %s/"):format(dir, H.ROOT, dir))
    local names = {}
    for name in io.popen("ls " .. dir .. "/scripts/*.lua"):lines() do
      names[#names + 1] = name:match("([%w_]+)%.lua$")
    end
    -- the saved version prints a marker when its chunk runs again, before `return M`. Every demo
    -- runs (--watch, until SIGTERM) while the saves land; a save that came before its program
    -- watched the file is simply made again, until every saved chunk has run.
    local saved_text, procs = {}, {}
    for _, name in ipairs(names) do
      local path = ("%s/scripts/%s.lua"):format(dir, name)
      local f = io.open(path)
      local text = f:read("a")
      f:close()
      local saved, n = text:gsub("\nreturn M%s*$", ("\nprint(\"@chunk=%s\")\nreturn M\n"):format(name))
      assert.are.equal(1, n, name .. " does not end with return M")
      saved_text[name] = saved
      procs[name] = H.start(dir, name, ("SDL_VIDEODRIVER=dummy %s --headless --watch --time-budget %s scripts/%s.lua")
        :format(H.BIN, H.TIME_BUDGET, name))
    end
    local function save(name) -- like an editor: a temporary file renamed over the script
      local path = ("%s/scripts/%s.lua"):format(dir, name)
      local f = io.open(path .. ".next", "w")
      f:write(saved_text[name])
      f:close()
      assert(os.rename(path .. ".next", path))
    end
    -- (a save can even land before its program first loads the file: then a later one reloads it)
    local function reloaded(name)
      return H.read(procs[name].err):find("reloaded", 1, true) and H.read(procs[name].out):find("@chunk=" .. name, 1, true)
    end
    local pending = {}
    H.wait_until("every demo to run its saved chunk", function()
      pending = {}
      for _, name in ipairs(names) do
        if not reloaded(name) then
          pending[#pending + 1] = name
          save(name)
        end
      end
      if #pending == 0 then return true end
      os.execute("sleep 1") -- a reload, before saving the rest again
      return false
    end, function() return "still waiting: " .. table.concat(pending, ", ") end)
    for _, name in ipairs(names) do
      local rc = H.stop(procs[name])
      local err = H.read(procs[name].err)
      assert.are.equal(0, rc, name .. ": " .. err)
      assert.is_truthy(err:find("reloaded", 1, true), name .. " was not reloaded: " .. err)
      assert.is_truthy(reloaded(name), name .. ": the saved chunk did not run")
      assert.is_falsy(err:find("error", 1, true), name .. ": " .. err)
    end
    sh("rm -rf " .. dir)
  end)
end)
