#!/bin/sh
# The Lua specs (tests/lua/*_spec.lua) against the sanitized module build/asan/steer.so, or with
# LUA=luajit under LuaJIT against its build of the same sources, build/luajit/asan/steer.so.
# lua5.4 itself is not built with ASan, so the runtime must be preloaded; LSan then checks the
# whole interpreter at exit (tests/lua/lsan.supp lists what is not ours).
BUILD=${BUILD:-build}
here=$(cd "$(dirname "$0")" && pwd)
asan=$(${CC:-cc} -print-file-name=libasan.so)
export LD_PRELOAD="$asan"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
LUA=${LUA:-lua5.4}
case "$LUA" in
    luajit*) so="$BUILD/luajit/asan" ;;
    *) so="$BUILD/asan" ;;
esac
export LUA_CPATH="$so/?.so;;"
export STEER_BUILD="$BUILD"
echo "busted on $LUA ($so/steer.so)"
exec busted --lua="$LUA" --cpath="$so/?.so" -o utfTerminal "$here"
