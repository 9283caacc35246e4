local steer = require "steer"

-- Handles are userdata the collector owns: a million spawn/remove cycles must leave the Lua heap
-- where it was (and the core reuses its slots, so the C side stays flat too).
describe("handles and the garbage collector", function()
  local function heap_kb()
    collectgarbage()
    collectgarbage()
    return collectgarbage("count")
  end

  it("keep memory flat over 10^6 create/remove cycles", function()
    local w = steer.world{seed = 1}
    local keep = w:spawn{kind = "keeper"}
    local spawn_options = {kind = "prey", x = 1, y = 2}
    local function cycles(n)
      for _ = 1, n do
        local v = w:spawn(spawn_options)
        v.data.n = 1
        v:seek(keep)
        w:remove(v)
      end
    end
    cycles(10000) -- warm up: tables reach their working size
    local before = heap_kb()
    cycles(1000000)
    local after = heap_kb()
    -- A leak of one byte a cycle would be about 1,000 KB. The bound leaves room for a table's
    -- part doubling or halving: under LuaJIT the heap measured after the cycles ends 128 KB below
    -- or 64 KB above where it started, from one run of the suite to the next.
    assert.is_true(after - before < 256, string.format("heap grew from %.0f KB to %.0f KB", before, after))
    assert.equal(1, w:count())
  end)

  it("release a removed vehicle's data, brain and state even while its handle is kept", function()
    local weak = setmetatable({}, {__mode = "v"})
    local w = steer.world{}
    local v = w:spawn{data = {}, brain = {think = function() end}}
    local id = v.id
    weak.data, weak.brain = v.data, v.brain
    v.state = "idle"
    w:remove(v)
    collectgarbage()
    collectgarbage()
    assert.is_nil(weak.data)
    assert.is_nil(weak.brain)
    assert.is_false(v:alive())
    local ok, err = pcall(function() return v.data end)
    assert.is_false(ok)
    assert.equal(string.format("vehicle #%d (vehicle) was removed", id), (err:gsub("^[^:]*:%d+: ", "")))
  end)

  it("collect a world and its vehicles once nothing refers to them", function()
    local weak = setmetatable({}, {__mode = "v"})
    do
      local w = steer.world{}
      weak.world = w
      weak.vehicle = w:spawn{}
      weak.vehicle.data.self = weak.vehicle -- a cycle through the data table
    end
    collectgarbage()
    collectgarbage()
    assert.is_nil(weak.world)
    assert.is_nil(weak.vehicle)
  end)
end)
