-- headless.lua - the game of main.lua without LÖVE, for a plain LuaJIT (or Lua 5.4):
--   luajit examples/love/headless.lua [--frames 300] [--seed 3]
-- Runs that many physics steps (one per frame, as `love examples/love --test N` does) and prints
-- the same summary line as the LÖVE run, so the two can be compared. Finds steer.so in
-- $STEER_BUILD/luajit (default build/luajit) for LuaJIT, $STEER_BUILD (default build) for Lua 5.4,
-- and the brains (scripts/hunter_prey/) and libraries (scripts/lib/) in the repository, or in
-- $STEER_ROOT when that is set, as main.lua does.
local here = (arg and arg[0] or ""):match("^(.*)[/\\]") or "."
local root = os.getenv("STEER_ROOT") or (here .. "/../..")
local build = os.getenv("STEER_BUILD") or (root .. "/build")
package.cpath = (jit and build .. "/luajit/?.so;" or build .. "/?.so;") .. package.cpath
package.path = here .. "/?.lua;" .. root .. "/scripts/?.lua;" .. root .. "/scripts/lib/?.lua;" .. package.path

local frames, seed = 300, 3
local i = 1
while arg and arg[i] do
  if arg[i] == "--frames" then frames = assert(tonumber(arg[i + 1]), "--frames N"); i = i + 2
  elseif arg[i] == "--seed" then seed = assert(tonumber(arg[i + 1]), "--seed N"); i = i + 2
  else error("unknown argument " .. arg[i] .. " (--frames N, --seed N)") end
end

local Game = require "game"
local game = Game.new(seed)
for _ = 1, frames do game:step() end
print("summary: " .. game:summary())
