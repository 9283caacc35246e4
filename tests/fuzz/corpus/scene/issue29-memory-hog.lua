local t = {}
function update(w) for i = 1, 1e9 do t[#t + 1] = string.rep("x", 4096) .. i end end
function draw() local s = "x" while true do s = s .. s end end
--@ ffwb
