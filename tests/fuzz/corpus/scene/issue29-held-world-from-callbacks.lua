function load(w) W = w for _ = 1, 5 do w:spawn{}:wander{} end end
function update(w)
  pcall(w.close, w)
  pcall(function() local x <close> = w end)
  w:step(3)
end
function draw(gfx)
  pcall(W.debug_draw, W, {line = function() W:step() W:spawn{} end, circle = function() pcall(W.close, W) end,
                          layers = "all"})
end
function keypressed(k) for _, v in ipairs(W:vehicles()) do W:remove(v) end end
--@ fkfFcfb
