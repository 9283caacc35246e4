function load(w)
  local v = w:spawn{}
  print(pcall(function() debug.setmetatable(v, getmetatable(w)); v:step() end))
  print(pcall(function() debug.setuservalue(v, "junk", 1); v:seek(1, 2) end))
  print(pcall(function() debug.sethook() end))
  print(pcall(function() debug.setlocal(1, 1, nil) end))
  print(pcall(function() debug.setupvalue(print, 1, nil) end))
  print(pcall(function() return debug.getregistry() end))
end
function update(w) debug.sethook() end
--@ fF
