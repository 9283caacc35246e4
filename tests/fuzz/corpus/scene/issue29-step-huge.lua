function load(w) for _ = 1, 20 do w:spawn{}:wander{} end end
function update(w) w:step(1e9) end
--@ ff
