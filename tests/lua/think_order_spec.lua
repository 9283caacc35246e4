-- SPDX-License-Identifier: MIT
-- The order brains think in within a pass (lbrains.c, place_order; docs/lua-api.md): creation
-- order below STEER_THINK_ORDER_MIN vehicles (32,768 unless the environment says otherwise), by
-- place from there on - the buckets of a 64 x 64 grid over the world, row after row, each row the
-- other way than the last, creation order within a bucket - the same on 1, 2, 3 and 8 threads.
-- think_order_scene.lua runs in a child process: the threshold is read when a world is made.
local lua = rawget(_G, "jit") and "luajit" or "lua5.4"

local function run(order_min, threads)
  local p = assert(io.popen(("STEER_THINK_ORDER_MIN=%d %s tests/lua/think_order_scene.lua %d 2>&1"):format(order_min,
    lua, threads)))
  local passes = {}
  for line in p:lines() do passes[#passes + 1] = line end
  p:close()
  assert.are.equal(12, #passes, table.concat(passes, "\n"))
  return passes
end

-- The entries of one pass: {id =, x =, y =} in the order they thought.
local function entries(line)
  local t = {}
  for id, x, y in line:gmatch("(%d+)@([^,]+),(%S+)") do
    t[#t + 1] = { id = tonumber(id), x = tonumber(x), y = tonumber(y) }
  end
  return t
end

local function place(e)
  local cx, cy = math.max(0, math.min(63, math.floor(e.x))), math.max(0, math.min(63, math.floor(e.y)))
  if cy % 2 == 1 then cx = 63 - cx end
  return cy * 64 + cx
end

describe("the think order", function()
  it("is creation order below the threshold", function()
    for _, line in ipairs(run(100000, 1)) do
      local t = entries(line)
      assert.is_true(#t > 40)
      for i = 2, #t do assert.is_true(t[i - 1].id < t[i].id, line) end
    end
  end)

  it("is by place from the threshold on, creation order within a place", function()
    local passes = run(300, 1)
    for _, line in ipairs(passes) do
      local t = entries(line)
      assert.is_true(#t > 40)
      for i = 2, #t do
        local a, b = place(t[i - 1]), place(t[i])
        assert.is_true(a < b or (a == b and t[i - 1].id < t[i].id), line)
      end
    end
    -- (not creation order: the test above would pass on it only by chance)
    local t = entries(passes[1])
    local sorted = true
    for i = 2, #t do sorted = sorted and t[i - 1].id < t[i].id end
    assert.is_false(sorted)
  end)

  it("is the same on 1, 2, 3 and 8 threads", function()
    local one = run(300, 1)
    for _, threads in ipairs({ 2, 3, 8 }) do
      assert.are.same(one, run(300, threads))
    end
  end)
end)
