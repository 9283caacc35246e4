-- luacheck settings for every Lua file of the repository (`make lint`): Lua 5.4, and what each kind
-- of file may use besides.
std = "lua54"
max_line_length = 120
unused_args = false -- brains, callbacks and stubs take (v, dt) and the like whether they use them or not

-- A scene's callbacks and settings are its globals (LÖVE style); the program reads them. The same
-- list as `steer --luacheckrc` prints for users' scenes (a test keeps the two alike).
local scene = { "world", "load", "update", "draw", "keypressed", "keyreleased", "mousepressed", "mousereleased",
  "mousemoved", "reload", "keys" }
-- Files that also run under LuaJIT (the LÖVE example, the specs under `busted --run=luajit`, the
-- libraries the game uses) test for it and reach its Lua 5.1 names.
local luajit = { "jit", "unpack", "loadstring", math = { fields = { "atan2" } } }

files["scripts/*.lua"] = { globals = scene }
files["scripts/lib/**/*.lua"] = { read_globals = luajit }
files["bindings/*.lua"] = { read_globals = luajit } -- the FFI layer (lffi.lua) runs under LuaJIT only
files["bench/**/*.lua"] = { globals = scene }
files["bench/soak/scene.lua"] = { globals = { "check" } } -- the soak runner's per-step self-check
files["examples/love/*.lua"] = { std = "+love", read_globals = luajit }
files["tests/rock/love/*.lua"] = { std = "+love" }
-- Specs: long lines are the messages they assert, word for word.
files["tests/**/*_spec.lua"] = { std = "+busted", read_globals = luajit, max_line_length = false }
-- The LuaLS definitions: stubs whose arguments and locals exist only to carry their types.
files["types/*.lua"] = { unused = false, max_line_length = false }
-- The hot-reload fixtures: a scene that keeps brains in globals of every kind.
files["tests/reload/forms_scene.lua"] = {
  globals = { "world", "load", "W", "TableBrain", "Brains", "function_brain", "Machine" },
}
