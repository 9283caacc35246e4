function load(w)
  for _ = 1, 10 do
    w:spawn{brain = {think = function() error(string.rep("x", 1024 * 1024)) end}}
  end
end
function update(w) error(setmetatable({}, {__tostring = function() return string.rep("y", 1024 * 1024) end})) end
function draw() error(setmetatable({}, {__tostring = function() while true do end end})) end
--@ fFi
