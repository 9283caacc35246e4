-- From a checkout (no source is fetched: `source.url` names nothing to download):
--   luarocks --lua-version=5.4 make        Debian's luarocks defaults to 5.1, which is PUC Lua there
--   luarocks --lua-version=5.1 make LUA_INCDIR=/usr/include/luajit-2.1
--                                          the same sources for LuaJIT 2.1 (LÖVE): 5.1 must mean
--                                          LuaJIT's headers; PUC Lua 5.1's stop the build with an
--                                          #error (bindings/lsteer_compat.h bridges LuaJIT's API)
-- Builds the `steer` C module (bindings/ + the core it depends on) with the builtin backend, so no
-- make is needed, and installs the Lua libraries `fsm` and `steer.hot` beside it. The objects land
-- beside their sources (luarocks' way; `make clean` removes them). tests/rock/rock_suite.sh (make
-- test) builds this rock into a temporary tree for both and runs a program against it.
-- Keep `sources` in step with bindings/*.c and src/core/*.c (tests/lua/install_spec.lua checks).
rockspec_format = "3.0"
package = "steer"
version = "0.1.0-1"
source = {
  url = "git+file:///dev/null", -- built from a checkout with `luarocks make`; nothing is fetched
}
description = {
  summary = "Reynolds-style steering behaviours in C, scripted from Lua 5.4 or LuaJIT 2.1",
  detailed = [[
    A 2D world of vehicles moved by steering behaviours (seek, arrive, pursue, wander, path
    following, obstacle and wall avoidance, flocking, ...). Vehicles are userdata handles whose
    methods switch behaviours on and off; the simulation runs in C and is deterministic per seed.
  ]],
  license = "MIT",
}
dependencies = {
  "lua >= 5.1, < 5.5", -- 5.4, or 5.1 as LuaJIT 2.1 (a dependency cannot say "5.4 or LuaJIT")
}
build = {
  type = "builtin",
  modules = {
    crowd = "scripts/lib/crowd.lua",
    fsm = "scripts/lib/fsm.lua",
    ["steer.hot"] = "scripts/lib/steer/hot.lua",
    ["steer.patch"] = "scripts/lib/steer/patch.lua",
    steer = {
      sources = {
        "bindings/lbehaviours.c",
        "bindings/lbrains.c",
        "bindings/lclass.c",
        "bindings/lffi.c",
        "bindings/lhost.c",
        "bindings/lnames.c",
        "bindings/lnav.c",
        "bindings/loptions.c",
        "bindings/lpairs.c",
        "bindings/lsenses.c",
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
        "src/core/fields.c",
        "src/core/grid.c",
        "src/core/ids.c",
        "src/core/nav.c",
        "src/core/neighbourhood.c",
        "src/core/orca.c",
        "src/core/pool.c",
        "src/core/prng.c",
        "src/core/queries.c",
        "src/core/senses.c",
        "src/core/shapes.c",
        "src/core/step_flock.c",
        "src/core/thread_pool.c",
        "src/core/vehicle.c",
        "src/core/world.c",
      },
      incdirs = {"include", "bindings"},
      -- builtin compiles with luarocks' CFLAGS (-O2 -fPIC) in the compiler's default dialect: it has
      -- no place for -std=c11, and the sources build warning-free as gnu17 too (the rock test checks
      -- the build log). POSIX 2008 for stat's st_mtim (steer.file_mtime) and the threads, as the
      -- Makefile asks.
      defines = {"_POSIX_C_SOURCE=200809L"},
      libraries = {"m", "pthread"},
      libdirs = {}, -- else luarocks adds -L and an rpath of the system library folder
    },
  },
  copy_directories = {"types", "docs"},
}
