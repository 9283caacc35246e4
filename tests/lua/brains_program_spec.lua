-- brains_program_spec.lua - the same brain scene run in plain Lua (w:think(), update, w:step(), as
-- the program orders them) and in `steer --headless` with the same seed prints the same
-- trajectories, digit for digit.
local steer = require "steer"

local BUILD = os.getenv("STEER_BUILD") or "build"
local PROGRAM = BUILD .. "/asan/steer"

-- Hunters pursue the closest prey in sight for a while, then wander; prey evade the closest hunter
-- in range and retune their wander with the world's PRNG. Every think queries the world and may
-- switch behaviours; dt (the time since that vehicle last thought) drives the hunters' clocks.
local SCENE = [[
local scene = {}
scene.world = { width = 600, height = 400, edges = "wrap", seed = 1, think_hz = 12 }

local Hunter = {}
function Hunter.think(v, dt)
  v.data.clock = v.data.clock + dt
  local prey = v.world:closest(v, "prey", 150)
  if prey and v.data.clock < 3 then
    v:stop("wander")
    v:pursue(prey)
  else
    v:stop("pursue")
    v:wander{ jitter = 40 }
    if v.data.clock > 4 then v.data.clock = 0 end
  end
end

local function prey_brain(v, dt)
  local hunter = v.world:closest(v, "hunter", 100)
  if hunter then v:evade(hunter) else v:stop("evade") end
  if v.world:random() < 0.1 then v:wander{ jitter = v.world:random(20, 80) } end
end

function scene.load(w)
  for _ = 1, 4 do
    w:spawn{ kind = "hunter", x = w:random(600), y = w:random(400), max_speed = 80, data = { clock = 0 },
             brain = Hunter }:wander{}
  end
  for _ = 1, 20 do
    w:spawn{ kind = "prey", x = w:random(600), y = w:random(400), max_speed = 70, brain = prey_brain }:wander{}
  end
end

function scene.update(w, dt)
  if w.step_count % 60 == 59 then
    for _, v in ipairs(w:vehicles()) do
      print(string.format("%d %d %s %.17g %.17g", w.step_count, v.id, v.kind, v.x, v.y))
    end
  end
end

return scene
]]

local function write_scene()
  local path = os.tmpname() .. ".lua"
  local f = assert(io.open(path, "w"))
  f:write(SCENE)
  f:close()
  return path
end

local function plain_lua(path, seed, steps)
  local lines = {}
  local env = setmetatable({ print = function(s) lines[#lines + 1] = s end }, { __index = _G })
  local scene = assert(loadfile(path, "t", env))()
  local options = {}
  for k, v in pairs(scene.world) do options[k] = v end
  options.seed = seed
  local w = steer.world(options)
  scene.load(w)
  for _ = 1, steps do
    w:think()
    scene.update(w, w.dt)
    w:step()
  end
  return table.concat(lines, "\n") .. "\n"
end

local function program(path, seed, steps)
  local cmd = ("SDL_VIDEODRIVER=dummy %s --headless --time-budget 20000 --steps %d --seed %d %s 2>&1"):format(PROGRAM, steps, seed, path)
  local p = assert(io.popen(cmd))
  local out = p:read("a")
  local ok = p:close()
  assert(ok, "steer failed:\n" .. out)
  local summary = out:find("summary:", 1, true)
  assert(summary, out)
  return out:sub(1, summary - 1)
end

describe("brains in plain Lua and in the program", function()
  it("give identical trajectories for the same seed", function()
    local path = write_scene()
    local a = plain_lua(path, 5, 600)
    local b = program(path, 5, 600)
    os.remove(path)
    assert.equal(240, select(2, a:gsub("\n", ""))) -- 10 samples x 24 vehicles
    assert.equal(a, b)
  end)

  it("and those trajectories depend on the seed (the comparison is not vacuous)", function()
    local path = write_scene()
    local a = plain_lua(path, 5, 120)
    local b = plain_lua(path, 6, 120)
    os.remove(path)
    assert.are_not.equal(a, b)
  end)
end)
