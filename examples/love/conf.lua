-- LÖVE settings for the hunter/prey example (main.lua).
function love.conf(t)
  t.identity = "steer-hunter-prey"
  t.version = "11.0"
  t.window.title = "steer: hunter and prey"
  t.window.width = 1032  -- Game.WINDOW_W: the world (1000) and a margin each side
  t.window.height = 790  -- Game.WINDOW_H: the HUD's strip, the world (700) and its margins
  t.modules.audio = false -- the game makes no sound (and a test machine has no sound card)
  t.modules.sound = false
  for _, a in ipairs(arg or {}) do
    if a == "--test" then t.window.vsync = 0 end -- the test runs its frames as fast as it can
  end
end
