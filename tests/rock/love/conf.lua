-- No window, graphics or sound: the game only runs tests/rock/walk.lua inside LÖVE's LuaJIT, so
-- it needs no display (and no Xvfb).
function love.conf(t)
  t.window = false
  t.modules.window = false
  t.modules.graphics = false
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
end
