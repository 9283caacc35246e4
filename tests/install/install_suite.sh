#!/bin/sh
# The C library as a user gets it: `make install` into a temporary prefix, examples/arrive.c built
# against it with pkg-config and run on the static and on the shared library (and compiled as C++),
# what libsteer.so and steer.so export against what their headers declare, the license,
# `steer --version`, then `make uninstall` must leave no file behind. Prints cmocka's lines, which run_suites.sh counts.
# Needs the release builds (make test builds them first: TEST_PREREQS in mk/install.mk).
BUILD=${BUILD:-build}
CC=${CC:-cc}
top=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the nested make and the programs must not inherit make test's flags or a sanitizer preload
unset MAKEFLAGS MAKELEVEL MFLAGS LD_PRELOAD

. tests/suite_check.sh

prefix=$tmp/prefix
version=$(sed -n 's/^#define STEER_VERSION "\([^"]*\)".*/\1/p' include/steer/steer.h)
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig

installs() {
    make -s -C "$top" install BUILD="$BUILD" PREFIX="$prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; return 1; }
    for f in lib/libsteer.a lib/libsteer.so.$version lib/pkgconfig/steer.pc include/steer/steer.h \
             include/steer/steer_types.h include/steer/steer_math.h include/steer/steer_debug_draw.h \
             include/steer/steer_behaviours.h include/steer/steer_export.h include/steer/steer_fields.h include/steer/steer_nav.h lib/lua/5.4/steer.so share/lua/5.4/fsm.lua share/lua/5.4/steer/hot.lua bin/steer \
             share/steer/hunter_prey.lua share/steer/hunter_prey/hunter.lua share/steer/hunter_prey/prey.lua; do
        [ -f "$prefix/$f" ] || { echo "missing: $f"; return 1; }
    done
    [ "$(readlink "$prefix/lib/libsteer.so")" = libsteer.so.${version%%.*} ] || { echo "libsteer.so: $(readlink "$prefix/lib/libsteer.so")"; return 1; }
    [ "$(readlink "$prefix/lib/libsteer.so.${version%%.*}")" = "libsteer.so.$version" ] || { echo "bad soname link"; return 1; }
    # no private header is installed
    [ "$(ls "$prefix/include/steer")" = "$(ls "$top/include/steer")" ] || { ls "$prefix/include/steer"; return 1; }
    # every demo
    for f in scripts/*.lua; do [ -f "$prefix/share/steer/${f#scripts/}" ] || { echo "missing demo $f"; return 1; }; done
}

pkg_config_names_the_prefix() {
    [ "$(pkg-config --modversion steer)" = "$version" ] || { pkg-config --modversion steer; return 1; }
    [ "$(pkg-config --variable=prefix steer)" = "$prefix" ] || { pkg-config --variable=prefix steer; return 1; }
    pkg-config --cflags steer | grep -q -- "-I$prefix/include" || { pkg-config --cflags steer; return 1; }
}

shared_soname() {
    readelf -d "$prefix/lib/libsteer.so.$version" | grep -q "SONAME.*\[libsteer.so.${version%%.*}\]" || { readelf -d "$prefix/lib/libsteer.so.$version"; return 1; }
}

# cc against the installed library only: the checkout's include/ is not on the path.
builds_and_runs_static() {
    libs=$(pkg-config --libs --static steer | sed 's/-lsteer/-Wl,-Bstatic -lsteer -Wl,-Bdynamic/')
    (cd "$tmp" && $CC -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags steer) "$top/examples/arrive.c" $libs -o arrive_static) || return 1
    readelf -d "$tmp/arrive_static" | grep -q 'libsteer' && { echo "arrive_static links libsteer.so"; return 1; }
    "$tmp/arrive_static" >"$tmp/static.out" || { cat "$tmp/static.out"; return 1; }
    grep -q "^steer $version: 600 steps, prey at (" "$tmp/static.out" || { cat "$tmp/static.out"; return 1; }
}

builds_and_runs_shared() {
    (cd "$tmp" && $CC -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags steer) "$top/examples/arrive.c" $(pkg-config --libs steer) -o arrive_shared) || return 1
    readelf -d "$tmp/arrive_shared" | grep -q "NEEDED.*\[libsteer.so.${version%%.*}\]" || { readelf -d "$tmp/arrive_shared"; return 1; }
    LD_LIBRARY_PATH=$prefix/lib "$tmp/arrive_shared" >"$tmp/shared.out" || { cat "$tmp/shared.out"; return 1; }
    LD_LIBRARY_PATH=$prefix/lib ldd "$tmp/arrive_shared" | grep -q "libsteer.so.${version%%.*} => $prefix/lib/" || return 1
    # the same core, the same bits
    cmp "$tmp/static.out" "$tmp/shared.out" && cat "$tmp/shared.out"
}

# The same program compiled as C++ (g++, ISO C++ with pedantic warnings as errors) against the
# installed headers: extern "C", no C-only syntax in the inline helpers; and the headers one by
# one, each including what it needs.
builds_as_cplusplus() {
    CXX=${CXX:-c++}
    (cd "$tmp" && $CXX -x c++ -std=c++11 -Wall -Wextra -pedantic -Werror $(pkg-config --cflags steer) "$top/examples/arrive.c" \
        $(pkg-config --libs steer) -o arrive_cxx) || return 1
    LD_LIBRARY_PATH=$prefix/lib "$tmp/arrive_cxx" >"$tmp/cxx.out" || { cat "$tmp/cxx.out"; return 1; }
    cmp "$tmp/static.out" "$tmp/cxx.out" || return 1
    for h in "$prefix"/include/steer/*.h; do
        # (a declaration after it: ISO C refuses an empty unit, which steer_export.h's macros alone are)
        printf '#include "steer/%s"\ntypedef int one_header;\n' "${h##*/}" >"$tmp/one.c"
        $CC -std=c11 -Wall -Wextra -pedantic -Werror $(pkg-config --cflags steer) -fsyntax-only "$tmp/one.c" || return 1
        $CXX -x c++ -std=c++11 -Wall -Wextra -pedantic -Werror $(pkg-config --cflags steer) -fsyntax-only "$tmp/one.c" || return 1
    done
}

# examples/flock_ascii.c: debug-draw callbacks, a query and a removed id, on the installed library.
flock_ascii_draws_the_world() {
    (cd "$tmp" && $CC -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags steer) "$top/examples/flock_ascii.c" \
        $(pkg-config --libs steer) -o flock_ascii) || return 1
    LD_LIBRARY_PATH=$prefix/lib "$tmp/flock_ascii" >"$tmp/flock.out" || { cat "$tmp/flock.out"; return 1; }
    # 24 rows of 80 characters, the hunter, the obstacle's rim and some birds, then the two last lines
    [ "$(head -n 24 "$tmp/flock.out" | awk 'length($0) == 80' | wc -l)" -eq 24 ] || { cat "$tmp/flock.out"; return 1; }
    head -n 24 "$tmp/flock.out" | grep -q H && head -n 24 "$tmp/flock.out" | grep -q ooo &&
        [ "$(head -n 24 "$tmp/flock.out" | tr -cd b | wc -c)" -ge 20 ] || { cat "$tmp/flock.out"; return 1; }
    sed -n 25p "$tmp/flock.out" | grep -qx 'steer_vehicle_set_max_speed: vehicle was removed' &&
        sed -n 26p "$tmp/flock.out" | grep -qx '41 vehicles after 300 steps' || { cat "$tmp/flock.out"; return 1; }
}

# make install-lib: the C library alone (libraries, headers, steer.pc) and nothing else; a program
# builds against it; make uninstall-lib takes it back.
install_lib_alone() {
    lib_prefix=$tmp/lib-prefix
    make -s -C "$top" install-lib BUILD="$BUILD" PREFIX="$lib_prefix" >"$tmp/install-lib.log" 2>&1 || { cat "$tmp/install-lib.log"; return 1; }
    files=$(cd "$lib_prefix" && find . ! -type d | sort | tr '\n' ' ')
    [ "$files" = "./include/steer/steer.h ./include/steer/steer_behaviours.h ./include/steer/steer_debug_draw.h ./include/steer/steer_export.h ./include/steer/steer_fields.h ./include/steer/steer_math.h ./include/steer/steer_nav.h ./include/steer/steer_types.h ./lib/libsteer.a ./lib/libsteer.so ./lib/libsteer.so.${version%%.*} ./lib/libsteer.so.$version ./lib/pkgconfig/steer.pc " ] ||
        { echo "install-lib put: $files"; return 1; }
    (cd "$tmp" && $CC -std=c11 -I"$lib_prefix/include" "$top/examples/arrive.c" "$lib_prefix/lib/libsteer.a" -lm -pthread \
        -o arrive_lib) && "$tmp/arrive_lib" >/dev/null || return 1
    make -s -C "$top" uninstall-lib BUILD="$BUILD" PREFIX="$lib_prefix" >"$tmp/uninstall-lib.log" 2>&1 || { cat "$tmp/uninstall-lib.log"; return 1; }
    left=$(find "$lib_prefix" ! -type d)
    [ -z "$left" ] || { echo "left behind: $left"; return 1; }
}

# docs/core.md's "API at a glance" names every function the installed headers declare, so that a
# newcomer finds each one from the docs (the header comment says the rest).
every_function_is_in_the_docs() {
    missing=$(grep -ho '\bsteer_[a-z0-9_]*(' "$prefix"/include/steer/*.h | tr -d '(' | sort -u | while read -r f; do
        grep -q "\b$f\b" "$top/docs/core.md" || echo "$f"
    done)
    [ -z "$missing" ] || { echo "not in docs/core.md: $missing"; return 1; }
}

# The functions a set of headers declares (static inline ones aside), one per line, sorted: GCC's
# own list of the prototypes it read (-aux-info), kept to those of the files under $2. The list is
# the compiler's, so a function declared without STEER_API is still in it (and then missing from
# the library's exports), and one exported by mistake is in the library's list only.
declared_functions() { # declared_functions SOURCE_FILE DIR [CFLAGS...]
    src=$1 dir=$2
    shift 2
    gcc -std=c11 "$@" -aux-info "$tmp/aux.txt" -fsyntax-only "$src" || return 1
    grep -F "/* $dir/" "$tmp/aux.txt" | sed -E 's#^/\* [^*]* \*/ ##' | grep -v '^static ' |
        sed -E 's/^([^(]*[ *])?([A-Za-z_][A-Za-z0-9_]*) \(.*/\2/' | sort -u
}

# What a shared object exports: every defined dynamic symbol, functions and data alike.
exported_symbols() { nm -D --defined-only "$1" | awk '{print $3}' | sort -u; }

# $1 and $2 name the same lines; else what each lacks.
same_lists() {
    [ -s "$1" ] || { echo "no function found in the headers"; return 1; }
    if ! cmp -s "$1" "$2"; then
        echo "declared, not exported: $(comm -23 "$1" "$2" | tr '\n' ' ')"
        echo "exported, not declared: $(comm -13 "$1" "$2" | tr '\n' ' ')"
        return 1
    fi
}

# libsteer.so exports exactly the functions of the installed headers: no internal symbol (the
# core is built with -fvisibility=hidden, the public functions marked STEER_API) and none missing.
libsteer_exports_the_public_functions() {
    for h in "$prefix"/include/steer/*.h; do printf '#include "steer/%s"\n' "${h##*/}"; done >"$tmp/all_headers.c"
    declared_functions "$tmp/all_headers.c" "$prefix/include/steer" -I"$prefix/include" >"$tmp/declared.txt" || return 1
    grep -qx steer_world_create "$tmp/declared.txt" || { cat "$tmp/declared.txt"; return 1; }
    # and the tables they declare as exported data (STEER_API extern const ... name[...])
    sed -nE 's/^STEER_API extern const [A-Za-z_]+ ([A-Za-z_][A-Za-z0-9_]*)\[.*/\1/p' "$prefix"/include/steer/*.h \
        >>"$tmp/declared.txt"
    sort -u -o "$tmp/declared.txt" "$tmp/declared.txt"
    exported_symbols "$prefix/lib/libsteer.so.$version" >"$tmp/exported.txt" || return 1
    same_lists "$tmp/declared.txt" "$tmp/exported.txt"
}

# The Lua module exports luaopen_steer and the functions bindings/steer_lua.h declares for a host:
# the core inside it stays its own (linked from the static library with its symbols hidden).
lua_module_exports_its_entry_points() {
    printf '#include "steer_lua.h"\n' >"$tmp/module_header.c"
    declared_functions "$tmp/module_header.c" "$top/bindings" -I"$top/include" -I"$top/bindings" \
        $(pkg-config --cflags lua5.4) >"$tmp/declared_lua.txt" || return 1
    grep -qx luaopen_steer "$tmp/declared_lua.txt" || { cat "$tmp/declared_lua.txt"; return 1; }
    exported_symbols "$prefix/lib/lua/5.4/steer.so" >"$tmp/exported_lua.txt" || return 1
    same_lists "$tmp/declared_lua.txt" "$tmp/exported_lua.txt"
}

# The project is MIT: LICENSE, an SPDX line heading every C source and header and every Lua library
# file, and the same word in steer.pc and the rockspec.
the_license_is_stated_everywhere() {
    head -n 1 "$top/LICENSE" | grep -qx 'MIT License' && grep -q 'Copyright (c) .* the steer authors$' "$top/LICENSE" ||
        { echo "LICENSE is not MIT by the steer authors"; return 1; }
    unmarked=$(cd "$top" && find src bindings include tests bench examples scripts/lib -type f \( -name '*.[ch]' -o -path 'scripts/lib/*.lua' \) |
        while read -r f; do head -n 1 "$f" | grep -q 'SPDX-License-Identifier: MIT' || echo "$f"; done)
    [ -z "$unmarked" ] || { echo "no SPDX line: $unmarked"; return 1; }
    grep -qx 'License: MIT' "$prefix/lib/pkgconfig/steer.pc" || { cat "$prefix/lib/pkgconfig/steer.pc"; return 1; }
    grep -q '^  license = "MIT",$' "$top"/steer-"$version"-*.rockspec || { echo "the rockspec does not say MIT"; return 1; }
}

program_version() {
    [ "$("$prefix/bin/steer" --version)" = "steer $version" ] || { "$prefix/bin/steer" --version; return 1; }
}

lua_module_version() {
    out=$(LUA_CPATH="$prefix/lib/lua/5.4/?.so" LUA_PATH="$prefix/share/lua/5.4/?.lua" \
          lua5.4 -e 'local steer = require "steer"; require "steer.hot"; require "fsm"; io.write(steer.version)') || return 1
    [ "$out" = "$version" ] || { echo "steer.version = $out"; return 1; }
}

rockspec_version() {
    ls "$top"/steer-"$version"-*.rockspec >/dev/null 2>&1 || { echo "no steer-$version-*.rockspec"; return 1; }
    grep -q "^version = \"$version-" "$top"/steer-"$version"-*.rockspec
}

uninstall_leaves_nothing() {
    make -s -C "$top" uninstall BUILD="$BUILD" PREFIX="$prefix" >"$tmp/uninstall.log" 2>&1 || { cat "$tmp/uninstall.log"; return 1; }
    left=$(find "$prefix" ! -type d)
    [ -z "$left" ] || { echo "left behind: $left"; return 1; }
    # the directories only steer uses are gone too
    for d in include/steer share/steer share/lua/5.4/steer; do [ ! -e "$prefix/$d" ] || { echo "left: $d"; return 1; }; done
}

check make_install_puts_every_part_under_the_prefix installs
check steer_pc_names_the_prefix_and_version pkg_config_names_the_prefix
check libsteer_so_has_its_soname shared_soname
check a_c_program_builds_with_pkg_config_and_runs_on_the_static_library builds_and_runs_static
check the_same_program_runs_on_the_shared_library builds_and_runs_shared
check the_headers_compile_as_cplusplus builds_as_cplusplus
check the_flock_ascii_example_builds_and_draws flock_ascii_draws_the_world
check make_install_lib_installs_the_c_library_alone install_lib_alone
check every_installed_function_is_named_in_docs_core_md every_function_is_in_the_docs
check libsteer_so_exports_exactly_the_functions_of_the_public_headers libsteer_exports_the_public_functions
check steer_so_exports_only_luaopen_steer_and_steer_lua_h lua_module_exports_its_entry_points
check the_license_is_mit_and_every_source_says_so the_license_is_stated_everywhere
check steer_version_prints_the_header_s_version program_version
check the_installed_lua_module_and_libraries_load lua_module_version
check the_rockspec_carries_the_same_version rockspec_version
check make_uninstall_leaves_no_file_behind uninstall_leaves_nothing

check_summary
