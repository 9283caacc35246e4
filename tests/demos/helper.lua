-- helper.lua - runs scenes in the `steer` program headless and collects what they report.
--
-- A test scene is Lua source that returns a scene table; it may call report(key, value), which
-- prints "@key=value" on stdout. run() writes it into a fresh temporary folder (with package.path
-- reaching scripts/ and scripts/lib of this repository), runs
--   $STEER_BIN --headless --steps N --seed S scene.lua
-- and returns { code =, out =, err =, values = {key = last value}, all = {key = {values...}} }.
local H = {}

H.ROOT = os.getenv("STEER_ROOT") or io.popen("pwd"):read("l")
H.BIN = os.getenv("STEER_BIN") or (H.ROOT .. "/build/asan/steer")

-- The time budget is wall-clock time: on a busy machine the program can be preempted for 100 ms in
-- the middle of any small call, which the default budget would report as a timeout. Runs here get
-- this one unless they name theirs.
H.TIME_BUDGET = "20000"

local PRELUDE = [[
package.path = %q .. "/scripts/?.lua;" .. %q .. "/scripts/lib/?.lua;" .. package.path
local function report(key, value) print(("@%%s=%%s"):format(key, tostring(value))) end
]]

local function shell_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function slurp(path)
  local f = io.open(path, "r")
  if not f then return "" end
  local s = f:read("a")
  f:close()
  return s
end

function H.run(source, opts)
  opts = opts or {}
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir -p " .. shell_quote(dir)))
  local scene = dir .. "/scene.lua"
  local f = assert(io.open(scene, "w"))
  f:write(PRELUDE:format(H.ROOT, H.ROOT), source)
  f:close()
  local args = { H.BIN, "--headless", "--steps", tostring(opts.steps or 600), "--seed", tostring(opts.seed or 1) }
  local budget = false
  for _, a in ipairs(opts.args or {}) do
    args[#args + 1] = a
    budget = budget or a == "--time-budget"
  end
  if not budget then -- (see H.TIME_BUDGET)
    args[#args + 1] = "--time-budget"
    args[#args + 1] = H.TIME_BUDGET
  end
  args[#args + 1] = scene
  local quoted = {}
  for i, a in ipairs(args) do quoted[i] = shell_quote(a) end
  local cmd = "SDL_VIDEODRIVER=dummy " .. table.concat(quoted, " ") .. " >" .. dir .. "/out 2>" .. dir .. "/err"
  local _, _, code = os.execute(cmd)
  local result = { code = code, out = slurp(dir .. "/out"), err = slurp(dir .. "/err"), values = {}, all = {} }
  for key, value in result.out:gmatch("@([%w_]+)=([^\n]*)") do
    value = tonumber(value) or value
    result.values[key] = value
    result.all[key] = result.all[key] or {}
    table.insert(result.all[key], value)
  end
  os.execute("rm -rf " .. shell_quote(dir))
  return result
end

-- ---- Programs in the background, and waits that end as soon as what they wait for happens ----

-- How long a wait may last before the test fails: far beyond what any run needs, however busy
-- the machine (a wait ends as soon as its condition holds; only a failing test waits this long).
H.DEADLINE_S = 120

function H.read(path)
  return slurp(path)
end

local function nap() os.execute("sleep 0.05") end

-- Polls check() until it returns a true value (returned) or the deadline passes (an error naming
-- `what`, with describe() for context).
function H.wait_until(what, check, describe)
  local deadline = os.time() + H.DEADLINE_S
  while true do
    local v = check()
    if v then return v end
    if os.time() > deadline then
      error(("waited %d s for %s\n%s"):format(H.DEADLINE_S, what, describe and describe() or ""), 2)
    end
    nap()
  end
end

-- Starts the shell command `cmd` in the background in `dir`: stdout and stderr go to
-- <dir>/<name>.out and .err, its exit status to <dir>/<name>.rc once it ends. Returns a handle for
-- H.stop.
function H.start(dir, name, cmd)
  local base = dir .. "/" .. name
  assert(os.execute(("cd %s && (%s >%s.out 2>%s.err & echo $! >%s.pid; wait $!; echo $? >%s.rc) &")
    :format(shell_quote(dir), cmd, shell_quote(base), shell_quote(base), shell_quote(base), shell_quote(base))))
  local pid = H.wait_until(name .. " to start", function() return tonumber(slurp(base .. ".pid")) end)
  return { pid = pid, out = base .. ".out", err = base .. ".err", rc = base .. ".rc", name = name }
end

-- Sends SIGTERM (a headless run then ends as at its last step) and waits for the exit status.
function H.stop(p)
  os.execute("kill -TERM " .. p.pid)
  return H.wait_until(p.name .. " to exit", function() return tonumber(slurp(p.rc)) end,
    function() return slurp(p.err) end)
end

-- Asserts a run exited 0; shows its stderr when not.
function H.ok(result)
  assert(result.code == 0, ("steer exited with %s\nstderr:\n%s\nstdout:\n%s"):format(tostring(result.code),
    result.err, result.out:sub(1, 2000)))
  return result
end

return H
