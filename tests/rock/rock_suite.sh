#!/bin/sh
# The rock as a Lua programmer gets it: `luarocks make` of steer-*.rockspec into a temporary tree,
# for Lua 5.4 and for LuaJIT 2.1 (luarocks' 5.1 with LuaJIT's headers), then tests/rock/walk.lua
# run from a shell that has only `luarocks path` (fsm brains walking vehicles to their targets),
# under LuaJIT also inside LÖVE.
# Also: PUC Lua 5.1's headers are refused at compile time instead of giving a module that fails
# when required, and a binary rock packed from the tree installs into another one and runs.
# Nothing is downloaded: the only dependency, lua, is the interpreter itself, and the build reads
# a copy of the checkout (so that luarocks' objects, which it writes beside the sources, do not
# land in the checkout). Prints cmocka's lines, which tests/run_suites.sh counts.
top=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# luarocks and the programs see neither make test's sanitizer preload nor the user's luarocks
# config, cache or paths: a clean shell, its home the temporary folder
unset MAKEFLAGS MAKELEVEL MFLAGS LD_PRELOAD
clean_env() { env -i PATH="$PATH" HOME="$tmp/home" LANG=C "$@"; }
mkdir -p "$tmp/home" "$tmp/run"

. tests/suite_check.sh

version=$(sed -n 's/^#define STEER_VERSION "\([^"]*\)".*/\1/p' include/steer/steer.h)
rockspec=$(ls steer-"$version"-*.rockspec)
src=$tmp/src
mkdir -p "$src"
tar -C "$top" --exclude=./.git --exclude=./build --exclude='*.o' --exclude='*.so' --exclude='*.a' -cf - . |
    tar -C "$src" -xf -
luajit_inc=$(pkg-config --variable=includedir luajit)

# make_rock LUA_VERSION TREE [VAR=VALUE...]: luarocks make in the copy; its output in TREE.log
make_rock() {
    lv=$1
    tree=$2
    shift 2
    (cd "$src" && clean_env luarocks --lua-version="$lv" --tree "$tree" make "$rockspec" "$@") >"$tree.log" 2>&1
}

# builds TREE LUA_VERSION [VAR=VALUE...]: builds, without a single compiler warning
builds() {
    tree=$1
    lv=$2
    shift 2
    make_rock "$lv" "$tree" "$@" || { cat "$tree.log"; return 1; }
    ! grep -i 'warning' "$tree.log"
}

# installs TREE LUA_VERSION: the module and both libraries where that Lua looks in the tree; the
# module does not link a Lua library (the host provides the API: linking liblua5.4 would give
# LuaJIT or LÖVE a second Lua) nor carry a search path
installs() {
    tree=$1
    lv=$2
    for f in lib/lua/$lv/steer.so share/lua/$lv/fsm.lua share/lua/$lv/steer/hot.lua; do
        [ -f "$tree/$f" ] || { echo "missing: $f"; find "$tree" -type f; return 1; }
    done
    ! readelf -d "$tree/lib/lua/$lv/steer.so" | grep -E 'NEEDED.*(lua|luajit)|RPATH|RUNPATH'
}

# walks TREE LUA_VERSION INTERPRETER: walk.lua with only the tree's paths, from a folder that is not
# the checkout; its output in TREE.out
walks() {
    tree=$1
    lv=$2
    interpreter=$3
    paths=$(clean_env luarocks --lua-version="$lv" --tree "$tree" path) || return 1
    (cd "$tmp/run" && clean_env STEER_VERSION="$version" sh -c "$paths
        exec $interpreter '$top/tests/rock/walk.lua' '$tree'") >"$tree.out" 2>&1
    status=$?
    cat "$tree.out"
    [ $status -eq 0 ] && [ "$(tail -n 1 "$tree.out")" = "ok $version" ]
}

# the same program, the same core: LuaJIT's run prints exactly what Lua 5.4's did
same_walk() {
    cmp "$tmp/t54.out" "$tmp/tjit.out"
}

# LÖVE 11 is LuaJIT too: started from the same shell (tests/rock/love: no window, so no display),
# its require finds the tree's module and libraries, and the program prints what plain LuaJIT did
loves() {
    paths=$(clean_env luarocks --lua-version=5.1 --tree "$tmp/tjit" path) || return 1
    (cd "$tmp/run" && clean_env STEER_VERSION="$version" SDL_AUDIODRIVER=dummy sh -c "$paths
        exec timeout 60 love '$top/tests/rock/love' '$top/tests/rock/walk.lua' '$tmp/tjit'") >"$tmp/love.out" 2>"$tmp/love.err"
    status=$?
    cat "$tmp/love.out"
    [ $status -eq 0 ] || { cat "$tmp/love.err"; return 1; }
    cmp "$tmp/tjit.out" "$tmp/love.out"
}

# luarocks' own 5.1 on Debian is PUC Lua, whose API lacks what LuaJIT adds: the build must stop with
# a message that says how to build for LuaJIT, and install nothing
puc_refused() {
    if make_rock 5.1 "$tmp/t51"; then
        echo "built against PUC Lua 5.1's headers"
        return 1
    fi
    if [ -f "$(clean_env luarocks --lua-version=5.1 config variables.LUA_INCDIR)/lua.h" ]; then
        grep -q 'needs Lua 5.4 or LuaJIT 2.1, not PUC Lua 5.1' "$tmp/t51.log" || { cat "$tmp/t51.log"; return 1; }
    fi
    [ ! -e "$tmp/t51/lib/lua/5.1/steer.so" ]
}

# what a user ships to another machine of the same kind: `luarocks pack` of the installed rock,
# `luarocks install` of that file into an empty tree, the program against it, then `luarocks
# remove` takes every module back
binary_rock() {
    mkdir -p "$tmp/pack"
    (cd "$tmp/pack" && clean_env luarocks --lua-version=5.4 --tree "$tmp/t54" pack steer) || return 1
    rock=$(ls "$tmp/pack"/steer-"$version"-*.rock) || return 1
    clean_env luarocks --lua-version=5.4 --tree "$tmp/t2" install "$rock" || return 1
    walks "$tmp/t2" 5.4 lua5.4 || return 1
    clean_env luarocks --lua-version=5.4 --tree "$tmp/t2" remove steer || return 1
    left=$(find "$tmp/t2/lib/lua" "$tmp/t2/share/lua" -type f 2>/dev/null)
    [ -z "$left" ] || { echo "left behind: $left"; return 1; }
}

echo "[==========] luarocks $(luarocks --version | sed -n '1s/.* //p'), $rockspec"
check the_rock_builds_for_lua_5_4_without_warnings builds "$tmp/t54" 5.4
check it_installs_steer_fsm_and_steer_hot_for_5_4 installs "$tmp/t54" 5.4
check a_5_4_program_with_fsm_brains_walks_to_its_targets walks "$tmp/t54" 5.4 lua5.4
check the_rock_builds_for_luajit_without_warnings builds "$tmp/tjit" 5.1 LUA_INCDIR="$luajit_inc"
check it_installs_steer_fsm_and_steer_hot_for_luajit installs "$tmp/tjit" 5.1
check the_same_program_walks_under_luajit walks "$tmp/tjit" 5.1 luajit
check luajit_and_lua_5_4_print_the_same_positions same_walk
check love_requires_the_luajit_rock_and_walks_the_same loves
check puc_lua_5_1_headers_stop_the_build puc_refused
check a_packed_binary_rock_installs_runs_and_removes binary_rock

check_summary
