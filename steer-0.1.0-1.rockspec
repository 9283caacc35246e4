-- luarocks --lua-version=5.4 make   (Debian's luarocks defaults to Lua 5.1)
-- luarocks --lua-version=5.1 make   builds the same sources for LuaJIT 2.1 (LÖVE) when luarocks'
--                                   5.1 is LuaJIT (bindings/lsteer_compat.h bridges the API)
-- Builds the `steer` C module (bindings/ + the core it depends on) with the builtin backend.
-- Keep `sources` in step with bindings/*.c and src/core/*.c (tests/lua/install_spec.lua checks).
rockspec_format = "3.0"
package = "steer"
version = "0.1.0-1"
source = {
  url = "git+file:///dev/null", -- built from a checkout with `luarocks make`; nothing is fetched
}
description = {
  summary = "Reynolds-style steering behaviours in C, scripted from Lua 5.4",
  detailed = [[
    A 2D world of vehicles moved by steering behaviours (seek, arrive, pursue, wander, path
    following, obstacle and wall avoidance, flocking, ...). Vehicles are userdata handles whose
    methods switch behaviours on and off; the simulation runs in C and is deterministic per seed.
  ]],
  license = "MIT",
}
dependencies = {
  "lua >= 5.1, < 5.5", -- 5.4, or 5.1 as LuaJIT 2.1
}
build = {
  type = "builtin",
  modules = {
    fsm = "scripts/lib/fsm.lua",
    ["steer.hot"] = "scripts/lib/steer/hot.lua",
    steer = {
      sources = {
        "bindings/lbehaviours.c",
        "bindings/lbrains.c",
        "bindings/lclass.c",
        "bindings/lhost.c",
        "bindings/lnames.c",
        "bindings/loptions.c",
        "bindings/lshapes.c",
        "bindings/lsteer.c",
        "bindings/lvehicle.c",
        "bindings/lworld.c",
        "src/core/behaviour.c",
        "src/core/behaviour_table.c",
        "src/core/behaviours_group.c",
        "src/core/behaviours_individual.c",
        "src/core/behaviours_navigation.c",
        "src/core/check.c",
        "src/core/checksum.c",
        "src/core/combine.c",
        "src/core/debug_draw.c",
        "src/core/grid.c",
        "src/core/ids.c",
        "src/core/neighbourhood.c",
        "src/core/pool.c",
        "src/core/prng.c",
        "src/core/queries.c",
        "src/core/shapes.c",
        "src/core/step_flock.c",
        "src/core/thread_pool.c",
        "src/core/vehicle.c",
        "src/core/world.c",
      },
      incdirs = {"include", "bindings"},
      defines = {"_POSIX_C_SOURCE=200809L"},
      libraries = {"m", "pthread"},
    },
  },
  copy_directories = {"types", "docs"},
}
