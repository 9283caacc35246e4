#!/bin/sh
# The Lua specs (tests/lua/*_spec.lua) against the sanitized module build/asan/steer.so.
# lua5.4 itself is not built with ASan, so the runtime must be preloaded; LSan then checks the
# whole interpreter at exit (tests/lua/lsan.supp lists what is not ours).
BUILD=${BUILD:-build}
here=$(cd "$(dirname "$0")" && pwd)
asan=$(${CC:-cc} -print-file-name=libasan.so)
export LD_PRELOAD="$asan"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LUA_CPATH="$BUILD/asan/?.so;;"
export STEER_BUILD="$BUILD"
exec busted --lua=lua5.4 --cpath="$BUILD/asan/?.so" -o utfTerminal "$here"
