local n = 0
return setmetatable({load = function(w) for i = 1, 5 do w:spawn{} end end},
  {__index = function(_, k) n = n + 1 if n > 20 then error("no field " .. k) end end})
--@ fFkcrRbf
