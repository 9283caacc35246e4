-- luacheck settings for scripts/ and tests/lua: Lua 5.4, scene callbacks may be globals (LÖVE style).
std = "lua54"
max_line_length = 120
files["scripts/*.lua"] = {
  globals = { "load", "update", "draw", "keypressed", "mousepressed", "mousemoved", "reload", "world" },
}
files["tests/lua/*_spec.lua"] = { std = "+busted" }
files["tests/**/*_spec.lua"] = { std = "+busted" }
