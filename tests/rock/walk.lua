-- The program tests/rock/rock_suite.sh runs against a luarocks tree, as a user's first program
-- would: no path set by hand, only `luarocks path`. Lua 5.4 and LuaJIT alike. Exits non-zero (an
-- assert) when anything is off; prints each vehicle's last position and state.
local tree = assert((...), "usage: walk.lua TREE") -- the script's argument, or the caller's

local steer = require "steer"
local fsm = require "fsm"
local hot = require "steer.hot"

-- Every module comes from the tree, not from a checkout or a system install that happens to be
-- on the default paths.
local function from_tree(name, path)
  local file = package.searchpath(name, path)
  assert(file and file:sub(1, #tree + 1) == tree .. "/", name .. " found at " .. tostring(file) .. ", not in " .. tree)
end
from_tree("steer", package.cpath)
from_tree("fsm", package.path)
from_tree("steer.hot", package.path)
assert(type(hot.update) == "function", "steer.hot has no update")
assert(steer.version == os.getenv("STEER_VERSION"), "steer.version " .. tostring(steer.version))

-- Each vehicle seeks its own target and, once close, switches to arrive: a brain that only goes
-- on if think, the states and the step all work.
local Walker = fsm.machine{
  initial = "go",
  states = {
    go = {
      enter = function(v) v:seek(v.data.tx, v.data.ty) end,
      think = function(v)
        local dx, dy = v.data.tx - v.x, v.data.ty - v.y
        if dx * dx + dy * dy < 80 * 80 then return "settle" end
      end,
      exit = function(v) v:stop("seek") end,
    },
    settle = { enter = function(v) v:arrive(v.data.tx, v.data.ty) end },
  },
}

local w = steer.world{seed = 3, width = 800, height = 600}
local targets = { {700, 500}, {100, 500}, {400, 50} }
local walkers = {}
for i, t in ipairs(targets) do
  local v = w:spawn{kind = "walker", x = 400, y = 300, max_speed = 150}
  v.data.tx, v.data.ty = t[1], t[2]
  v.brain = Walker
  walkers[i] = v
end
for _ = 1, 60 * 20 do
  w:think()
  w:step()
end
for i, v in ipairs(walkers) do
  local dx, dy = v.data.tx - v.x, v.data.ty - v.y
  print(string.format("%d %s %.2f %.2f", i, v.state, v.x, v.y))
  assert(v.state == "settle", "walker " .. i .. " is still in " .. tostring(v.state))
  assert(dx * dx + dy * dy < 2 * 2, "walker " .. i .. " stopped short of its target")
  assert(v.speed < 1, "walker " .. i .. " still moves at " .. v.speed)
end
print("ok " .. steer.version)
