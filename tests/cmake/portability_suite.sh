#!/bin/sh
# make test-portability: the core on a second compiler and a second platform, through CMake.
#   clang    the core and its C tests built by clang with AddressSanitizer and UBSan, run by ctest;
#            tests/cmake/fixed_world.c built by clang as a consumer (add_subdirectory)
#   Windows  the core and its C tests cross-built by MinGW-w64 (cmake/mingw-w64-x86_64.cmake) on
#            tests/mini_cmocka, run under Wine by ctest; fixed_world.exe on the static library and
#            on libsteer.dll
# Every fixed_world must print the checksums of the same program linked with the Makefile's
# build/libsteer.a (gcc, Linux): the exact world line for line on every platform; the full world,
# whose wander, turn-rate limits and view cones call the C library's cos, sin and atan2, on Linux
# with both compilers, and on Windows its comparison is printed (a C library may round those
# functions' last bit its own way: docs/core.md, Determinism). Prints cmocka's lines; Wine runs in
# a fresh prefix in a temporary folder. About 5 minutes on two cores.
BUILD=${BUILD:-build}
CC=${CC:-cc}
top=$(pwd)
tmp=$(mktemp -d)
# wineserver outlives the programs for a few seconds: stop it before removing its prefix
trap 'WINEPREFIX="$tmp/wine" wineserver -k 2>/dev/null; rm -rf "$tmp"' EXIT
unset MAKEFLAGS MAKELEVEL MFLAGS LD_PRELOAD
export CMAKE_BUILD_PARALLEL_LEVEL=2
export WINEPREFIX=$tmp/wine WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="

. tests/suite_check.sh

core_tests=$(sed -n '/^set(STEER_CORE_TESTS$/,/)/p' tests/cmake/core_tests/CMakeLists.txt | grep -c '^ *test_')
toolchain=$top/cmake/mingw-w64-x86_64.cmake

reference() {
    $CC -std=c11 -Wall -Wextra -Werror -O2 -Iinclude tests/cmake/fixed_world.c "$BUILD/libsteer.a" -lm -pthread \
        -o "$tmp/fixed_world_make" || return 1
    for world in exact full; do "$tmp/fixed_world_make" $world >"$tmp/reference_$world.out" || return 1; done
}

# build_and_ctest DIR CMAKE-ARGS...: configure, build and run every core test.
build_and_ctest() {
    dir=$1
    shift
    cmake -S "$top" -B "$dir" -DSTEER_BUILD_TESTS=ON -DSTEER_BUILD_LUA=OFF "$@" >"$dir.log" 2>&1 &&
        cmake --build "$dir" >>"$dir.log" 2>&1 || { tail -n 40 "$dir.log"; return 1; }
    (cd "$dir" && ctest -j2 --output-on-failure) >"$dir.ctest" 2>&1 || { tail -n 60 "$dir.ctest"; return 1; }
    grep -q "100% tests passed, 0 tests failed out of $core_tests\$" "$dir.ctest" || { tail -n 5 "$dir.ctest"; return 1; }
}

# consumer DIR CMAKE-ARGS...: tests/cmake/consumer with steer as a subdirectory.
consumer() {
    dir=$1
    shift
    cmake -S tests/cmake/consumer -B "$dir" -DSTEER_DIR="$top" -DCMAKE_BUILD_TYPE=Release "$@" >"$dir.log" 2>&1 &&
        cmake --build "$dir" >>"$dir.log" 2>&1 || { tail -n 40 "$dir.log"; return 1; }
}

# same_as_reference WORLD COMMAND...: the command's output (carriage returns of Windows' text
# mode removed) is the Makefile build's, line for line.
same_as_reference() {
    world=$1
    shift
    "$@" $world >"$tmp/out" 2>&1 || { cat "$tmp/out"; return 1; }
    tr -d '\r' <"$tmp/out" >"$tmp/out_$world"
    diff "$tmp/reference_$world.out" "$tmp/out_$world"
}

clang_core_tests() {
    CC=clang build_and_ctest "$tmp/clang" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTEER_SANITIZE=ON -DSTEER_BUILD_SHARED=OFF ||
        return 1
    grep -q 'The C compiler identification is Clang' "$tmp/clang.log" || { head -n 5 "$tmp/clang.log"; return 1; }
}

clang_checksums() {
    CC=clang consumer "$tmp/clang-consumer" -DSTEER_BUILD_SHARED=OFF || return 1
    same_as_reference exact "$tmp/clang-consumer/fixed_world" && same_as_reference full "$tmp/clang-consumer/fixed_world"
}

mingw_core_tests() {
    # Wine makes its prefix and starts its server on first use: once here, before ctest starts two
    # tests at a time (two first starts race, and one fails: "chdir to .../server-...: No such file")
    wineboot --init >/dev/null 2>&1 || true
    build_and_ctest "$tmp/mingw" -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTEER_MINI_CMOCKA=ON \
        -DSTEER_BUILD_SHARED=OFF || return 1
    # the tests are Windows programs that need no DLL beyond the system's
    x86_64-w64-mingw32-objdump -f "$tmp/mingw/tests/cmake/core_tests/test_world.exe" | grep -q 'file format pei-x86-64' ||
        return 1
    x86_64-w64-mingw32-objdump -p "$tmp/mingw/tests/cmake/core_tests/test_world.exe" | grep 'DLL Name' |
        grep -viq 'kernel32.dll\|msvcrt.dll' && { echo "test_world.exe needs another DLL"; return 1; }
    return 0
}

mingw_checksums() {
    consumer "$tmp/mingw-consumer" -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DSTEER_BUILD_SHARED=OFF || return 1
    same_as_reference exact wine "$tmp/mingw-consumer/fixed_world.exe"
}

mingw_dll_checksums() {
    consumer "$tmp/mingw-dll" -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DSTEER_TARGET=steer::steer_shared || return 1
    x86_64-w64-mingw32-objdump -p "$tmp/mingw-dll/fixed_world.exe" | grep -q 'DLL Name: libsteer.dll' || return 1
    WINEPATH="$tmp/mingw-dll/steer" same_as_reference exact wine "$tmp/mingw-dll/fixed_world.exe"
}

check the_makefile_library_prints_the_reference_checksums reference
check clang_with_sanitizers_passes_every_core_test clang_core_tests
check clang_prints_the_same_checksums_as_gcc clang_checksums
check mingw_w64_passes_every_core_test_under_wine mingw_core_tests
check mingw_w64_prints_the_same_exact_world_checksums_under_wine mingw_checksums
check the_same_on_libsteer_dll mingw_dll_checksums

# The full world on Windows, reported: equal or not, this is what the platforms' cos, sin and
# atan2 made of it.
if [ -f "$tmp/mingw-consumer/fixed_world.exe" ] && wine "$tmp/mingw-consumer/fixed_world.exe" full 2>&1 | tr -d '\r' >"$tmp/win_full"; then
    if diff "$tmp/reference_full.out" "$tmp/win_full" >"$tmp/full.diff"; then
        echo "note: the full world's checksums on Windows (MinGW-w64, Wine) are Linux's too"
    else
        echo "note: the full world's checksums differ between Linux (<) and Windows (>), the C libraries' cos/sin/atan2:"
        cat "$tmp/full.diff"
    fi
fi

check_summary
