local function nest(n)
  if n == 0 then while true do end end
  return coroutine.wrap(function() nest(n - 1)() end)
end
function update(w) nest(60)() end
--@ ff
