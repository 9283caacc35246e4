function load(w)
  print(pcall(function() getmetatable(w).__gc(w) end))
  print(pcall(function() local mt = debug.getmetatable(w); mt.__gc(w) end))
  print(pcall(w.close, w))
end
function update(w) w:spawn{} end
--@ fFb
