local steer = require "steer"
local function closing(w, t, key, answer)
  return setmetatable(t, {__index = function(_, k)
    if k == key then w:close(); collectgarbage() return answer end
  end})
end
function load(world)
  local w = steer.world{}
  pcall(w.path, w, closing(w, {{1, 2}, {3, 4}}, "loop"))
  w = steer.world{}
  pcall(w.flow_field, w, closing(w, {x = 0, y = 0, cell_size = 10, cols = 1, rows = 1}, "vectors", {{1, 0}}))
  w = steer.world{}
  local v = w:spawn{}
  pcall(v.wander, v, closing(w, {}, "leash"))
  w = steer.world{}
  for _ = 1, 10 do w:spawn{}:wander{} end
  w:step()
  pcall(w.debug_draw, w, closing(w, {}, "line", function() end))
  w = steer.world{}
  for _ = 1, 10 do w:spawn{}:wander{} end
  w:step()
  pcall(w.debug_draw, w, {line = function() for _ = 1, 50 do w:spawn{} end end,
                           circle = function() w:close(); collectgarbage() end, layers = "all"})
  -- the program's world: options that try to close it (refused) or spawn through it
  local u = world:spawn{}
  pcall(u.wander, u, closing(world, {}, "leash"))
  pcall(world.path, world, setmetatable({{1, 2}}, {__index = function() for _ = 1, 100 do world:spawn{} end end}))
end
--@ fFrfb
