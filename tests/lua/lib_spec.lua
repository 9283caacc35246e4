-- The Lua libraries (scripts/lib), the LÖVE example and the hunter/prey brains it runs
-- (scripts/hunter_prey) are written for Lua 5.1 (LuaJIT, LÖVE's Lua) to 5.4: make test runs this
-- spec under both, so 5.3+ syntax (//, bitwise operators, <close>, <const>) in any of them fails
-- here.
describe("Lua files for both Lua versions", function()
  it("every file in scripts/lib, scripts/hunter_prey and examples/love compiles on " .. _VERSION
    .. (jit and " (" .. jit.version .. ")" or ""), function()
    local pipe = io.popen("find scripts/lib scripts/hunter_prey examples/love -name '*.lua' | sort")
    local count = 0
    for path in pipe:lines() do
      local chunk, err = loadfile(path)
      assert(chunk, err)
      count = count + 1
    end
    pipe:close()
    assert.is_true(count >= 8, "found " .. count .. " files")
  end)
end)
