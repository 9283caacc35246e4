return setmetatable({update = function() end, Load = function() end},
  {__index = function(_, k) error("no field " .. k) end})
--@ fFrR
