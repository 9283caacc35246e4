-- vehicles kept as keys of a table, walked with pairs() and given w:random targets: the order
-- differs in a fresh Lua state, so a rewind's replay diverges from the run
local flock = {}
function load(w)
  for i = 1, 12 do flock[w:spawn{x = 50 * i, y = 100}] = true end
end
function update(w)
  if w.step_count % 10 == 0 then
    for v in pairs(flock) do v:seek(w:random(0, 800), w:random(0, 600)) end
  end
end
--@ FFFbfpFFbf
