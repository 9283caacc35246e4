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
    -- the edit saved at about 1 s: every hunter goes to rest and stays there (printing as it thinks)
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
    local cmd = ("cd %s && (SDL_VIDEODRIVER=dummy %s --headless --watch --steps 240 --seed 4 scripts/watch.lua "
      .. ">out 2>err & pid=$!; sleep 1.5; mv %s.next %s; wait $pid; echo $? >rc)"):format(dir, H.BIN, hunter, hunter)
    sh(cmd)
    local function slurp(name) local f = io.open(dir .. "/" .. name); local s = f:read("a"); f:close(); return s end
    local out, err, rc = slurp("out"), slurp("err"), tonumber(slurp("rc"))
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

  it("every demo survives a save of its own file while it runs (reload picks the run back up)", function()
    local dir = os.tmpname()
    os.remove(dir)
    sh(("mkdir -p %s && cp -r %s/scripts %s/"):format(dir, H.ROOT, dir))
    local names = {}
    for name in io.popen("ls " .. dir .. "/scripts/*.lua"):lines() do
      names[#names + 1] = name:match("([%w_]+)%.lua$")
    end
    -- the saved version prints a marker when its chunk runs again, before `return M`; each run lasts
    -- 4 s of real time (--watch paces it) and the saves land at 1.5 s, well after every program started
    local cmds = {}
    for _, name in ipairs(names) do
      local path = ("%s/scripts/%s.lua"):format(dir, name)
      local f = io.open(path)
      local text = f:read("a")
      f:close()
      local saved, n = text:gsub("\nreturn M%s*$", ("\nprint(\"@chunk=%s\")\nreturn M\n"):format(name))
      assert.are.equal(1, n, name .. " does not end with return M")
      f = io.open(path .. ".next", "w")
      f:write(saved)
      f:close()
      cmds[#cmds + 1] = ("(SDL_VIDEODRIVER=dummy %s --headless --watch --steps 240 scripts/%s.lua >%s.out 2>%s.err; "
        .. "echo $? >%s.rc) &"):format(H.BIN, name, name, name, name)
    end
    local saves = {}
    for _, name in ipairs(names) do saves[#saves + 1] = ("mv scripts/%s.lua.next scripts/%s.lua"):format(name, name) end
    sh(("cd %s || exit 1; %s sleep 1.5; %s; wait"):format(dir, table.concat(cmds, " "), table.concat(saves, "; ")))
    for _, name in ipairs(names) do
      local function slurp(ext)
        local f = io.open(("%s/%s.%s"):format(dir, name, ext))
        local s = f:read("a")
        f:close()
        return s
      end
      local out, err = slurp("out"), slurp("err")
      assert.are.equal(0, tonumber(slurp("rc")), name .. ": " .. err)
      assert.is_truthy(err:find("reloaded", 1, true), name .. " was not reloaded: " .. err)
      assert.is_truthy(out:find("@chunk=" .. name, 1, true), name .. ": the saved chunk did not run")
      assert.is_falsy(err:find("error", 1, true), name .. ": " .. err)
    end
    sh("rm -rf " .. dir)
  end)
end)
