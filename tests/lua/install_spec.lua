-- Packaging: `make install` into a DESTDIR puts steer.so where lua5.4 finds C modules, and a
-- plain lua5.4 (no sanitizer, no LUA_CPATH from the build) loads it from there.
describe("make install", function()
  local function run(cmd)
    -- the build tools and the plain interpreter must not inherit the sanitizer preload
    local pipe = io.popen("env -u LD_PRELOAD -u MAKEFLAGS -u MAKELEVEL -u MFLAGS sh -c '" .. cmd .. "' 2>&1")
    local out = pipe:read("a")
    local ok = pipe:close()
    return ok, out
  end

  it("installs steer.so under PREFIX/lib/lua/5.4 in DESTDIR, where lua5.4 finds it", function()
    local build = os.getenv("STEER_BUILD") or "build"
    local dest = os.tmpname()
    os.remove(dest)
    local ok, out = run("make -s install-lua BUILD=" .. build .. " PREFIX=/usr/local DESTDIR=" .. dest)
    assert.is_true(ok, out)
    local so = dest .. "/usr/local/lib/lua/5.4/steer.so"
    assert.is_not_nil(io.open(so, "rb"), so .. " is missing")
    ok, out = run("LUA_CPATH=\"" .. dest .. "/usr/local/lib/lua/5.4/?.so\" lua5.4 -e \"" ..
      "local steer = require [[steer]]; local w = steer.world{seed = 1}; w:spawn{}:seek(10, 0); w:step(10); " ..
      "io.write(steer.version, [[ ]], package.searchpath([[steer]], package.cpath))\"")
    assert.is_true(ok, out)
    assert.equal("0.1.0 " .. so, out)
    run("rm -rf " .. dest)
  end)

  it("has a rockspec that lists every C source of the module and the core", function()
    local spec = assert(io.open("steer-0.1.0-1.rockspec")):read("a")
    assert.matches('type = "builtin"', spec, 1, true)
    for _, dir in ipairs{"bindings", "src/core"} do
      local pipe = io.popen("ls " .. dir .. "/*.c")
      for file in pipe:lines() do
        assert.matches('"' .. file .. '"', spec, 1, true)
      end
      pipe:close()
    end
  end)
end)
