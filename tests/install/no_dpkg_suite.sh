#!/bin/sh
# SPDX-License-Identifier: MIT
# The core on a system that is not Debian: no dpkg, dpkg-query or apt-get on the PATH and no Lua or
# SDL for pkg-config to find. In a fresh build folder, `make` builds the core library and says what
# it skipped and why, `make test-core` builds and passes the core's C tests, `make install-lib`
# installs the library, and `make check-deps` says it checks nothing. Prints cmocka's lines, which
# run_suites.sh counts.
top=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the nested makes must not inherit make test's flags or a sanitizer preload
unset MAKEFLAGS MAKELEVEL MFLAGS LD_PRELOAD

. tests/suite_check.sh

# A PATH with every program of this one but dpkg's and apt's (the first of a name wins, as in PATH).
mkdir "$tmp/bin" "$tmp/no-pc"
old_ifs=$IFS
IFS=:
for d in $PATH; do
    for f in "$d"/*; do
        name=${f##*/}
        case $name in dpkg* | apt*) continue ;; esac
        [ -x "$f" ] && [ ! -e "$tmp/bin/$name" ] && ln -s "$f" "$tmp/bin/$name"
    done
done
IFS=$old_ifs

build=$tmp/build
# make, with the system hidden: its output in $tmp/$1.log
hidden_make() {
    log=$tmp/$1.log
    shift
    env PATH="$tmp/bin" PKG_CONFIG_LIBDIR="$tmp/no-pc" PKG_CONFIG_PATH= make -C "$top" --no-print-directory -j2 \
        BUILD="$build" "$@" >"$log" 2>&1 || { cat "$log"; return 1; }
}

# The test hides what it means to hide, or it proves nothing.
nothing_of_debian_is_left() {
    for c in dpkg dpkg-query apt-get; do
        ! env PATH="$tmp/bin" sh -c "command -v $c" >/dev/null || { echo "$c is still found"; return 1; }
    done
    env PATH="$tmp/bin" sh -c 'command -v cc && command -v make && command -v nm' >/dev/null || return 1
    ! env PATH="$tmp/bin" PKG_CONFIG_LIBDIR="$tmp/no-pc" PKG_CONFIG_PATH= pkg-config --exists lua5.4 ||
        { echo "pkg-config still finds lua5.4"; return 1; }
}

# `make` builds the core (static and shared) and names what it left out and the packages for it.
make_builds_the_core_and_says_what_it_skipped() {
    hidden_make make || return 1
    version=$(sed -n 's/^#define STEER_VERSION "\([^"]*\)".*/\1/p' "$top/include/steer/steer.h")
    [ -f "$build/libsteer.a" ] && [ -f "$build/libsteer.so.$version" ] || { ls "$build"; return 1; }
    [ ! -e "$build/steer" ] && [ ! -e "$build/steer.so" ] || { echo "built a part that needs Lua"; return 1; }
    grep -qx "steer: built the core library; skipped $build/steer.so $build/steer $build/render_scene: pkg-config finds no lua5.4 sdl2 SDL2_ttf SDL2_image (Debian: liblua5.4-dev libsdl2-dev libsdl2-ttf-dev libsdl2-image-dev)" \
        "$tmp/make.log" || { cat "$tmp/make.log"; return 1; }
}

# `make test-core` builds the sanitized core and its tests, and every one passes.
make_test_core_passes() {
    hidden_make test-core test-core || return 1
    tail -n 1 "$tmp/test-core.log" | grep -Eqx '[1-9][0-9]* passed, 0 failed' || { cat "$tmp/test-core.log"; return 1; }
    # one summary per program built for it (the core's tests and the corpus replay), none of them
    # the module's or the program's
    programs=$(ls "$build/asan/tests" | wc -l)
    [ "$(grep -c '^\[==========\] [0-9]* test(s) run\.' "$tmp/test-core.log")" -eq "$programs" ] || { ls "$build/asan/tests"; return 1; }
    [ ! -e "$build/asan/tests/test_lua_bindings" ] && [ ! -e "$build/asan/steer" ] || { echo "built a part that needs Lua"; return 1; }
}

# `make install-lib` puts the library in a prefix; a program builds against it and runs.
make_install_lib_installs_the_library() {
    hidden_make install-lib install-lib PREFIX="$tmp/prefix" || return 1
    [ -f "$tmp/prefix/include/steer/steer.h" ] && [ -f "$tmp/prefix/lib/libsteer.a" ] || { find "$tmp/prefix"; return 1; }
    cc -std=c11 -I"$tmp/prefix/include" "$top/examples/arrive.c" "$tmp/prefix/lib/libsteer.a" -lm -pthread -o "$tmp/arrive" &&
        "$tmp/arrive" >/dev/null
}

# check-deps, which make test runs first, says it cannot check instead of failing.
check_deps_says_it_checks_nothing() {
    hidden_make check-deps check-deps || return 1
    grep -q '^steer: no dpkg-query here, so the Debian packages are not checked: build-essential ' "$tmp/check-deps.log" ||
        { cat "$tmp/check-deps.log"; return 1; }
}

check the_path_has_no_dpkg_and_pkg_config_no_lua nothing_of_debian_is_left
check make_builds_the_core_library_and_names_what_it_skipped make_builds_the_core_and_says_what_it_skipped
check make_test_core_builds_and_passes make_test_core_passes
check make_install_lib_installs_the_library make_install_lib_installs_the_library
check check_deps_without_dpkg_says_it_checks_nothing check_deps_says_it_checks_nothing

check_summary
