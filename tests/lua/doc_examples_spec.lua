-- doc_examples_spec.lua - every ```lua block of README.md and docs/*.md runs, so that no example of
-- the documentation can go stale. The blocks are found anew at each run: a block added to any of
-- those files is run too, and a failure names the file and the line of the block's opening fence.
--
-- What a block is decides how it runs:
--   * A scene: it defines a global function or sets `world` or `keys` at the start of a line
--     (`function load(w)`, `world = {...}`), as a scene file does. It is written to a file of its
--     own and run by the program, `build/asan/steer --headless --steps 300`, which must exit 0 and
--     write nothing on stderr: no script error and no warning.
--   * A script: any other block that requires "steer". It runs here, on this run's Lua (Lua 5.4,
--     and LuaJIT in the LuaJIT run), in an environment of its own, with scripts/lib on
--     package.path (`require "fsm"`); what it prints goes nowhere. It must not raise an error.
--   * A fragment: a block whose opening fence reads ```lua fragment is an excerpt that uses names
--     it does not define (a `v`, a `world`). It is compiled, not run: it must be Lua.
-- Any other block is refused: make it one of these. Blocks are loaded with as many blank lines
-- before them as precede them in their file, so Lua's messages name the file's own lines.
local BUILD = os.getenv("STEER_BUILD") or "build"
local PROGRAM = BUILD .. "/asan/steer"
if not PROGRAM:match("^/") then PROGRAM = io.popen("pwd"):read("*l") .. "/" .. PROGRAM end -- (scenes run elsewhere)
local STEPS = 300

local function slurp(path)
  local f = io.open(path, "r")
  if not f then return "" end
  local s = f:read("*a")
  f:close()
  return s
end

local function shell_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local B = require "tests.lua.doc_blocks"
local padded, where = B.padded, B.where

local function run_scene(block)
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir -p " .. shell_quote(dir)))
  local name = block.file:match("[^/]+$") -- the scene's chunk name: messages read README.md:52: ...
  local f = assert(io.open(dir .. "/" .. name, "w"))
  f:write(padded(block))
  f:close()
  -- (the time budget is wall-clock time: a large one, as the other runs of the program in tests)
  local cmd = ("cd %s && SDL_VIDEODRIVER=dummy %s --headless --steps %d --time-budget 20000 %s >out 2>err"):format(
    shell_quote(dir), shell_quote(PROGRAM), STEPS, shell_quote(name))
  local ok, _, code = os.execute(cmd)
  if type(ok) == "number" then -- (LuaJIT's os.execute returns the wait status alone: the code times 256)
    code = ok % 256 == 0 and ok / 256 or ok
  end
  local out, err = slurp(dir .. "/out"), slurp(dir .. "/err")
  os.execute("rm -rf " .. shell_quote(dir))
  return code, out, err
end

local function run_script(block)
  local env = setmetatable({print = function() end}, {__index = _G})
  local chunk, err = load(padded(block), "@" .. block.file, "t", env)
  if not chunk then return false, err end
  local setfenv = rawget(_G, "setfenv") -- (LuaJIT: load's env is a 5.2 addition it may not honour)
  if setfenv then setfenv(chunk, env) end
  return xpcall(chunk, debug.traceback)
end

describe("the examples of the documentation", function()
  local saved_path
  setup(function()
    saved_path = package.path
    package.path = "scripts/lib/?.lua;" .. package.path
  end)
  teardown(function() package.path = saved_path end)

  local count = 0
  for _, path in ipairs(B.files()) do
    for _, block in ipairs(B.blocks(path)) do
      count = count + 1
      local kind = B.kind(block)
      it(("%s (%s)"):format(where(block), kind or "?"), function()
        if block.marker ~= "" and block.marker ~= "fragment" then
          error(("%s: unknown marker '%s' after ```lua (the one marker is 'fragment')"):format(where(block),
            block.marker), 0)
        end
        if not kind then
          error(("%s: a ```lua block that is neither a scene (no global function, world or keys) nor a script"
            .. " (no require \"steer\"): if it is an excerpt, open it with ```lua fragment"):format(where(block)), 0)
        end
        if kind == "fragment" then
          local chunk, err = load(padded(block), "@" .. block.file, "t")
          assert(chunk, ("%s: the fragment is not Lua: %s"):format(where(block), tostring(err)))
        elseif kind == "script" then
          local ok, err = run_script(block)
          assert(ok, ("%s: the script failed: %s"):format(where(block), tostring(err)))
        else
          local code, out, err = run_scene(block)
          assert(code == 0 and err == "", ("%s: the scene run by %s --headless --steps %d exited with %s:\n%s%s")
            :format(where(block), PROGRAM, STEPS, tostring(code), err, out))
          assert.truthy(out:match("summary: steps=" .. STEPS .. " "), out)
        end
      end)
    end
  end

  it("are found: README.md has blocks, so a broken search is no silent pass", function()
    assert.is_true(count >= 3, "only " .. count .. " blocks found")
  end)
end)

describe("the documentation test itself", function()
  -- The rules above, on blocks made up here: a test of the test, so that a broken one cannot pass
  -- every block by running none of them.
  local function block(source, marker)
    return {file = "made-up.md", line = 10, marker = marker or "", source = source}
  end

  it("tells scenes, scripts and fragments apart", function()
    assert.is_true(B.is_scene("world = {seed = 1}\n"))
    assert.is_true(B.is_scene("local fsm = require 'fsm'\nfunction load(w) end\n"))
    assert.is_false(B.is_scene("local function load(w) end\n  world = 1\n"))
    assert.is_true(B.is_script('local steer = require "steer"\n'))
    assert.is_true(B.is_script("local steer = require('steer')\n"))
    assert.is_false(B.is_script('local fsm = require "fsm"\n'))
    assert.equal("fragment", B.kind(block("function load(w) end\n", "fragment")))
    assert.equal("scene", B.kind(block('local steer = require "steer"\nfunction load(w) end\n')))
    assert.is_nil(B.kind(block("v:stop()\n")))
  end)

  it("fails a script that raises, naming the file's own line", function()
    local ok, err = run_script(block('local steer = require "steer"\nlocal w = steer.world{}\nw:spawn{kind = 1}\n'))
    assert.is_false(ok)
    assert.truthy(tostring(err):match("^made%-up%.md:13: bad argument #1 to 'spawn'"), err)
  end)

  it("fails a scene that raises or warns", function()
    local code, _, err = run_scene(block("function load(w) w:spawn{colour = {1, 2, 3}} end\n"))
    assert.equal(1, code)
    assert.truthy(err:match("made%-up%.md:11: unknown option 'colour' for spawn"), err)
    code, _, err = run_scene(block("function update(dt) end\n"))
    assert.equal(0, code)
    assert.truthy(err:match("warning: made%-up%.md:11: update%(dt%)"), err)
  end)

  it("finds every block of a file, with the line of its fence and its marker", function()
    local path = os.tmpname()
    local f = assert(io.open(path, "w"))
    f:write("# t\n\n```lua\nx = 1\n```\n\n- item:\n\n  ```lua fragment\n  v:stop()\n  ```\n```sh\nls\n```\n")
    f:close()
    local blocks = B.blocks(path)
    os.remove(path)
    assert.equal(2, #blocks)
    assert.same({3, "", "x = 1\n"}, {blocks[1].line, blocks[1].marker, blocks[1].source})
    assert.same({9, "fragment", "v:stop()\n"}, {blocks[2].line, blocks[2].marker, blocks[2].source})
  end)
end)
