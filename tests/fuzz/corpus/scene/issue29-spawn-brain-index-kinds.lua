function load(w)
  w:spawn{kind = "k0"}
  local brain = setmetatable({}, {__index = function(_, k)
    if k == "think" then
      for i = 1, 63 do pcall(w.spawn, w, {kind = "k" .. i}) end
      return function() end
    end
  end})
  print(pcall(w.spawn, w, {kind = "fresh", flock_with = {"fresh2"}, brain = brain}))
  print(pcall(w.spawn, w, {kind = "fresh3", brain = setmetatable({}, {__index = function() w:close() end})}))
end
--@ fFbfi
