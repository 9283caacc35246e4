function load(w)
  local v = w:spawn{}
  v.data = setmetatable({}, {__index = function(_, k)
    if k == "history" then while true do end end
    error("no " .. k)
  end})
  local u = w:spawn{}
  u.data.history = setmetatable({"idle"}, {__index = function() error("history") end})
  u.state = "chase"
end
--@ ififb i
