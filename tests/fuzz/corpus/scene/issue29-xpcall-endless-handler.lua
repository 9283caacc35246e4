function update(w) xpcall(error, function() while true do end end) end
--@ ff
