#!/bin/sh
# The CMake build as a game gets it (make test): CMakeLists.txt's lists against the files of the
# checkout, a configure and build in a temporary folder (core static and shared, the Lua module, the
# core's C tests run by ctest), then tests/cmake/consumer built two ways - add_subdirectory of the
# checkout, and find_package against a `cmake --install` prefix - whose fixed_world must print the
# same checksums as the same program linked with the Makefile's build/libsteer.a. Also checks that
# tests/mini_cmocka (the runner of the Windows tests) reports failures. Prints cmocka's lines.
# Needs $(BUILD)/libsteer.a (TEST_PREREQS in mk/cmake.mk); about 2 minutes on two cores.
BUILD=${BUILD:-build}
CC=${CC:-cc}
top=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the nested builds and the programs must not inherit make test's flags or a sanitizer preload
unset MAKEFLAGS MAKELEVEL MFLAGS LD_PRELOAD
export CMAKE_BUILD_PARALLEL_LEVEL=2

. tests/suite_check.sh

version=$(sed -n 's/^#define STEER_VERSION "\([^"]*\)".*/\1/p' include/steer/steer.h)
built=$tmp/build
prefix=$tmp/prefix

# listed NAME DIR: the files a list of CMakeLists.txt (or DIR/CMakeLists.txt) names, one a line.
listed() {
    sed -n "/^ *set($1\$/,/)/p; /add_library(steer_lua MODULE\$/,/)/p" "$2/CMakeLists.txt" |
        grep -o '[a-z_/]*\.[ch]\|^ *test_[a-z_]*' | sed 's/^ *//' | grep "$3" | sort
}

lists_name_every_source() {
    listed STEER_CORE_SOURCES . '^src/core/' >"$tmp/listed"
    ls src/core/*.c >"$tmp/present"
    diff "$tmp/listed" "$tmp/present" || { echo "(<: CMakeLists.txt's STEER_CORE_SOURCES, >: src/core/*.c)"; return 1; }
    [ "$(listed STEER_PUBLIC_HEADERS . '^include/')" = "$(ls include/steer/*.h)" ] ||
        { echo "STEER_PUBLIC_HEADERS: $(listed STEER_PUBLIC_HEADERS . '^include/' | tr '\n' ' ')"; return 1; }
    [ "$(listed none . '^bindings/')" = "$(ls bindings/*.c)" ] ||
        { echo "steer_lua's sources: $(listed none . '^bindings/' | tr '\n' ' ')"; return 1; }
}

# A test of tests/c is the core's when every header it includes in quotes is test_support.h, a
# header of src/core or of the fuzz harness (test_limits), or crowd_scene.h (test_orca: the circle
# test, public API only): those build without Lua, SDL or the program.
core_only_tests() {
    for f in tests/c/test_*.c; do
        ok=1
        for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
            [ "$h" = test_support.h ] || [ -f "src/core/$h" ] || [ -f "include/$h" ] || [ "$h" = fuzz_support.h ] ||
                [ "$h" = crowd_scene.h ] || ok=0
        done
        [ $ok = 1 ] && basename "$f" .c
    done | sort
}

lists_name_every_core_test() {
    [ "$(listed STEER_CORE_TESTS tests/cmake/core_tests '^test_')" = "$(core_only_tests)" ] ||
        { echo "STEER_CORE_TESTS: $(listed STEER_CORE_TESTS tests/cmake/core_tests '^test_' | tr '\n' ' ')"
          echo "core-only tests:  $(core_only_tests | tr '\n' ' ')"; return 1; }
}

configures_and_builds() {
    cmake -S "$top" -B "$built" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTEER_BUILD_TESTS=ON >"$tmp/configure.log" 2>&1 ||
        { cat "$tmp/configure.log"; return 1; }
    cmake --build "$built" >"$tmp/build.log" 2>&1 || { tail -n 40 "$tmp/build.log"; return 1; }
    for f in libsteer.a libsteer.so.$version steer.so; do [ -f "$built/$f" ] || { echo "missing: $f"; return 1; }; done
    readelf -d "$built/libsteer.so.$version" | grep -q "SONAME.*\[libsteer.so.${version%%.*}\]" || return 1
    # the module, like the Makefile's, links no liblua and loads in lua5.4
    readelf -d "$built/steer.so" | grep -q 'NEEDED.*liblua' && { echo "steer.so links liblua"; return 1; }
    [ "$(LUA_CPATH="$built/?.so" lua5.4 -e 'io.write(require("steer").version)')" = "$version" ]
}

ctest_passes_every_core_test() {
    count=$(listed STEER_CORE_TESTS tests/cmake/core_tests '^test_' | wc -l)
    (cd "$built" && ctest -j2 --output-on-failure) >"$tmp/ctest.log" 2>&1 || { tail -n 60 "$tmp/ctest.log"; return 1; }
    grep -q "100% tests passed, 0 tests failed out of $count\$" "$tmp/ctest.log" || { tail -n 5 "$tmp/ctest.log"; return 1; }
}

# fixed_world's output for both worlds, from the Makefile's library: what every build must print.
makefile_reference() {
    $CC -std=c11 -Wall -Wextra -Werror -O2 -Iinclude tests/cmake/fixed_world.c "$BUILD/libsteer.a" -lm -pthread \
        -o "$tmp/fixed_world_make" || return 1
    for world in exact full; do
        "$tmp/fixed_world_make" $world >"$tmp/reference_$world.out" || return 1
        grep -q "^steer $version $world world: 221 vehicles, 600 steps, checksum [0-9a-f]\{16\}\$" "$tmp/reference_$world.out" ||
            { cat "$tmp/reference_$world.out"; return 1; }
    done
}

# same_checksums PROGRAM: both worlds print what the Makefile's library printed, line for line.
same_checksums() {
    for world in exact full; do
        "$1" $world >"$tmp/out_$world" 2>&1 || { cat "$tmp/out_$world"; return 1; }
        diff "$tmp/reference_$world.out" "$tmp/out_$world" || return 1
    done
}

with_add_subdirectory() {
    cmake -S tests/cmake/consumer -B "$tmp/sub" -DSTEER_DIR="$top" -DCMAKE_BUILD_TYPE=Release -DSTEER_BUILD_SHARED=OFF \
        >"$tmp/sub.log" 2>&1 && cmake --build "$tmp/sub" >>"$tmp/sub.log" 2>&1 || { tail -n 40 "$tmp/sub.log"; return 1; }
    same_checksums "$tmp/sub/fixed_world"
}

installs() {
    cmake --install "$built" --prefix "$prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; return 1; }
    for f in include/steer/steer.h include/steer/steer_types.h include/steer/steer_math.h include/steer/steer_behaviours.h \
             include/steer/steer_debug_draw.h lib/libsteer.a lib/libsteer.so.$version lib/cmake/steer/steerConfig.cmake \
             lib/cmake/steer/steerConfigVersion.cmake lib/cmake/steer/steerTargets.cmake lib/lua/5.4/steer.so \
             share/lua/5.4/fsm.lua share/lua/5.4/steer/hot.lua; do
        [ -f "$prefix/$f" ] || { echo "missing: $f"; return 1; }
    done
    # the public headers, no private one, and the version file refuses another minor version
    [ "$(ls "$prefix/include/steer")" = "$(ls include/steer)" ] || { ls "$prefix/include/steer"; return 1; }
    grep -q "PACKAGE_VERSION \"$version\"" "$prefix/lib/cmake/steer/steerConfigVersion.cmake"
}

# consumer_package TARGET DIR: the consumer against the installed package only (the checkout's
# include/ is not on its path), linking TARGET.
consumer_package() {
    cmake -S tests/cmake/consumer -B "$2" -DSTEER_TAKEN_AS=package -DSTEER_TARGET="$1" -DCMAKE_PREFIX_PATH="$prefix" \
        -DCMAKE_BUILD_TYPE=Release >"$2.log" 2>&1 && cmake --build "$2" >>"$2.log" 2>&1 || { tail -n 40 "$2.log"; return 1; }
    grep -q "$top/include" "$2/CMakeFiles/fixed_world.dir/flags.make" && { echo "built against the checkout's headers"; return 1; }
    return 0
}

with_find_package() {
    consumer_package steer::steer "$tmp/pkg" || return 1
    readelf -d "$tmp/pkg/fixed_world" | grep -q 'NEEDED.*libsteer' && { echo "steer::steer is not the static library"; return 1; }
    same_checksums "$tmp/pkg/fixed_world"
}

with_find_package_shared() {
    consumer_package steer::steer_shared "$tmp/pkg-shared" || return 1
    readelf -d "$tmp/pkg-shared/fixed_world" | grep -q "NEEDED.*\[libsteer.so.${version%%.*}\]" || return 1
    same_checksums "$tmp/pkg-shared/fixed_world"
}

# find_package(steer 0.2) must refuse a 0.1 package (SameMinorVersion).
refuses_another_minor_version() {
    mkdir -p "$tmp/v"
    printf '%s\n' 'cmake_minimum_required(VERSION 3.16)' 'project(v LANGUAGES C)' 'find_package(steer 0.99 REQUIRED)' \
        >"$tmp/v/CMakeLists.txt"
    cmake -S "$tmp/v" -B "$tmp/v/build" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/v.log" 2>&1 && { echo "0.99 accepted"; return 1; }
    grep -q "$version" "$tmp/v.log" || { cat "$tmp/v.log"; return 1; }
}

mini_cmocka_reports_failures() {
    $CC -std=c11 -Wall -Wextra -Werror -Itests/mini_cmocka tests/cmake/mini_cmocka_check.c -o "$tmp/mini" || return 1
    "$tmp/mini" >"$tmp/mini.out" 2>&1 && { cat "$tmp/mini.out"; echo "exit status 0"; return 1; }
    grep -qx '\[==========\] 3 test(s) run\.' "$tmp/mini.out" && grep -qx '\[  PASSED  \] 1 test(s)\.' "$tmp/mini.out" &&
        grep -qx '\[       OK \] test_that_passes' "$tmp/mini.out" &&
        grep -qx '\[  FAILED  \] test_whose_integers_differ' "$tmp/mini.out" &&
        grep -qx '\[  FAILED  \] test_whose_strings_differ' "$tmp/mini.out" &&
        grep -q 'mini_cmocka_check.c:[0-9]*: error: 7 != 8$' "$tmp/mini.out" &&
        grep -q 'error: "wander" != "wonder"$' "$tmp/mini.out" && ! grep -q 'not reached' "$tmp/mini.out" ||
        { cat "$tmp/mini.out"; return 1; }
}

check cmakelists_names_every_core_source_header_and_binding lists_name_every_source
check cmakelists_names_every_core_only_c_test lists_name_every_core_test
check cmake_builds_the_libraries_the_lua_module_and_the_tests configures_and_builds
check ctest_passes_every_core_test ctest_passes_every_core_test
check the_makefile_library_prints_both_worlds_checksums makefile_reference
check add_subdirectory_gives_the_makefile_s_checksums with_add_subdirectory
check cmake_install_puts_the_package_under_the_prefix installs
check find_package_gives_the_makefile_s_checksums_on_the_static_library with_find_package
check find_package_gives_the_same_on_the_shared_library with_find_package_shared
check find_package_refuses_another_minor_version refuses_another_minor_version
check mini_cmocka_reports_failed_assertions_and_exits_non_zero mini_cmocka_reports_failures

check_summary
