-- SPDX-License-Identifier: MIT
-- A* on a grid in plain Lua, written the way a LÖVE user would (the pure-Lua pathfinding
-- libraries' shape): 8 neighbours, no cut corners, octile heuristic, a binary heap of nodes.
-- bench/bench_nav.c runs it on the same map and the same queries as steer's find_path.
local M = {}

local SQRT2 = math.sqrt(2)

local function octile(ax, ay, bx, by)
  local dx, dy = math.abs(ax - bx), math.abs(ay - by)
  if dx < dy then dx, dy = dy, dx end
  return (dx - dy) + SQRT2 * dy
end

--- A map from a string of one byte a cell ("\1": blocked), cols x rows, row by row.
function M.new(blocked, cols, rows)
  local grid = {}
  for i = 1, cols * rows do grid[i] = blocked:byte(i) == 1 end
  return {grid = grid, cols = cols, rows = rows}
end

local function push(heap, node)
  heap[#heap + 1] = node
  local i = #heap
  while i > 1 do
    local p = i // 2
    if heap[p].f <= node.f then break end
    heap[i] = heap[p]
    i = p
  end
  heap[i] = node
end

local function pop(heap)
  local top, last = heap[1], heap[#heap]
  heap[#heap] = nil
  local n = #heap
  if n > 0 then
    local i = 1
    while true do
      local c = 2 * i
      if c > n then break end
      if c < n and heap[c + 1].f < heap[c].f then c = c + 1 end
      if heap[c].f >= last.f then break end
      heap[i] = heap[c]
      i = c
    end
    heap[i] = last
  end
  return top
end

local DX = {1, -1, 0, 0, 1, 1, -1, -1}
local DY = {0, 0, 1, -1, 1, -1, 1, -1}

--- The path from cell (sx, sy) to (gx, gy), 0-based, as a list of {x, y} cells, or nil.
function M.find(map, sx, sy, gx, gy)
  local grid, cols, rows = map.grid, map.cols, map.rows
  local nodes, closed = {}, {}
  local start = {x = sx, y = sy, g = 0, f = octile(sx, sy, gx, gy)}
  nodes[sy * cols + sx] = start
  local heap = {start}
  while #heap > 0 do
    local node = pop(heap)
    local key = node.y * cols + node.x
    if not closed[key] then
      closed[key] = true
      if node.x == gx and node.y == gy then
        local path = {}
        while node do
          table.insert(path, 1, {node.x, node.y})
          node = node.parent
        end
        return path
      end
      for d = 1, 8 do
        local nx, ny = node.x + DX[d], node.y + DY[d]
        if nx >= 0 and ny >= 0 and nx < cols and ny < rows and not grid[ny * cols + nx + 1]
          and (d <= 4 or (not grid[node.y * cols + nx + 1] and not grid[ny * cols + node.x + 1])) then
          local nkey = ny * cols + nx
          if not closed[nkey] then
            local g = node.g + (d <= 4 and 1 or SQRT2)
            local other = nodes[nkey]
            if not other or g < other.g then
              local next_node = {x = nx, y = ny, g = g, f = g + octile(nx, ny, gx, gy), parent = node}
              nodes[nkey] = next_node
              push(heap, next_node)
            end
          end
        end
      end
    end
  end
  return nil
end

return M
