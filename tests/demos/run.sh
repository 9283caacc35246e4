#!/bin/sh
# Runs the demo specs (tests/demos/*_spec.lua) against the steer program. STEER_BIN picks the
# binary (default build/asan/steer); run from the repository root.
cd "$(dirname "$0")/../.." || exit 1
exec busted --lua=lua5.4 --output=plainTerminal --pattern=_spec tests/demos "$@"
