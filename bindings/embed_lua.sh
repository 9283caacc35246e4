#!/bin/sh
# SPDX-License-Identifier: MIT
# embed_lua.sh NAME in.lua out.h - a Lua source as the C string NAME (one literal per line), so that
# the module carries bindings/lffi.lua without a file beside it. make regenerates the header when
# the Lua file changes; the header is committed, so that builds without make (CMake, luarocks)
# need no generator. tests/lua/ffi_spec.lua checks that it matches its source.
name=$1
in=$2
out=$3
{
    echo "/* SPDX-License-Identifier: MIT */"
    echo "/* Generated from $in by bindings/embed_lua.sh: edit the .lua file; make remakes this header. */"
    echo "/* clang-format off */"
    echo "static const char $name[] ="
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$/\\n"/' "$in"
    echo "    ;"
    echo "/* clang-format on */"
} >"$out.tmp" && mv "$out.tmp" "$out"
