#!/bin/sh
# The LÖVE example (examples/love) in the real LÖVE 11 under Xvfb, against $BUILD/luajit/steer.so
# (BUILD as make passes it, default build).
# Prints cmocka's summary lines, which tests/run_suites.sh counts.
#  1. `love examples/love --test N --seed S --screenshot PATH` exits 0, writes the screenshot at
#     PATH and nothing into its current directory; the screenshot is not blank (the game reads the
#     PNG back and counts the pixels that are not background), and the run prints the same summary
#     line as a plain LuaJIT run of the same simulation (examples/love/headless.lua).
#  2. A copy of what the game needs (examples/love, scripts/lib, scripts/hunter_prey) runs with
#     STEER_ROOT naming the copy and --wait-reload K: at step K it waits; this script then edits
#     the copy's scripts/hunter_prey/hunter.lua (its on_think marks the hunter in v.data),
#     steer.hot reloads it, and the run goes on. The summary shows every hunter marked, and
#     otherwise equals the plain run: the reload changed the code and kept the world, v.data and
#     the states. The repository's own brain is never written. Without --screenshot the run writes
#     nothing, in its current directory or in the copy.
#  3. An unknown option (the --out of earlier versions) is refused with exit status 2 and a message
#     naming it, instead of being ignored.
# LÖVE may print ALSA/OpenAL complaints on a machine without a sound card: harmless.
BUILD=${BUILD:-build}
repo=$(cd "$(dirname "$0")/../.." && pwd)
case "$BUILD" in /*) build="$BUILD" ;; *) build="$repo/$BUILD" ;; esac
export STEER_BUILD="$build" STEER_ROOT="$repo"
# neither the sanitizer preload nor the dummy video driver of the other suites (LÖVE needs Xvfb's
# OpenGL), and no sound device
unset LD_PRELOAD SDL_VIDEODRIVER
export SDL_AUDIODRIVER=dummy
FRAMES=600
SEED=4
run=0
passed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { run=$((run + 1)); passed=$((passed + 1)); echo "[       OK ] $1"; }
fail() { run=$((run + 1)); echo "[  FAILED  ] $1: $2"; }

echo "[==========] LÖVE example (love $(love --version 2>/dev/null | head -n 1 | sed 's/^LOVE //'), $build/luajit/steer.so)"
expected=$(luajit "$repo/examples/love/headless.lua" --frames $FRAMES --seed $SEED | sed -n 's/^summary: //p')
if [ -z "$expected" ]; then
    fail love_headless_run "luajit examples/love/headless.lua printed no summary"
else
    ok love_headless_run
fi

# 1. the example as it is, from an empty current directory, its screenshot asked for elsewhere
mkdir -p "$tmp/out" "$tmp/cwd1"
(cd "$tmp/cwd1" && timeout 180 xvfb-run -a love "$repo/examples/love" --test $FRAMES --seed $SEED \
    --screenshot "$tmp/out/frame.png") >"$tmp/run1.log" 2>&1
status=$?
summary=$(sed -n 's/^summary: //p' "$tmp/run1.log")
lit=$(sed -n 's/^screenshot: .* lit=\([0-9]*\)$/\1/p' "$tmp/run1.log")
if [ $status -ne 0 ]; then
    fail love_test_run "exit status $status"; cat "$tmp/run1.log"
elif [ ! -s "$tmp/out/frame.png" ] || [ "${lit:-0}" -lt 2000 ] || [ "$(wc -c <"$tmp/out/frame.png")" -lt 20000 ]; then
    # (a blank 1000x700 PNG compresses to a few KB; the game's frame is about 90 KB)
    fail love_test_run "screenshot missing or blank (lit pixels: ${lit:-none})"; cat "$tmp/run1.log"
elif [ -n "$(ls -A "$tmp/cwd1")" ]; then
    fail love_test_run "it wrote into its current directory: $(ls -A "$tmp/cwd1")"
elif [ "$summary" != "$expected" ]; then
    fail love_test_run "LÖVE: '$summary', plain LuaJIT: '$expected'"
else
    ok "love_test_run ($summary; $lit lit pixels)"
fi

# 2. a brain edited while the game runs: in a copy laid out as the repository is, found through
# STEER_ROOT (steer.so still comes from $build)
copy="$tmp/root"
mkdir -p "$copy/examples" "$copy/scripts"
cp -r "$repo/examples/love" "$copy/examples/love"
cp -r "$repo/scripts/lib" "$repo/scripts/hunter_prey" "$copy/scripts/"
brain="$copy/scripts/hunter_prey/hunter.lua"
grep -q '^function Hunter.on_think(v, dt) end$' "$brain" || fail love_hot_reload "hunter_prey/hunter.lua has no on_think line to edit"
mkdir -p "$tmp/cwd2"
find "$copy" -type f | sort >"$tmp/copy.before"
(cd "$tmp/cwd2" && STEER_ROOT="$copy" exec timeout 180 xvfb-run -a love "$copy/examples/love" --test $FRAMES --seed $SEED \
    --wait-reload 200) >"$tmp/run2.log" 2>&1 &
pid=$!
waited=0
until grep -q '^waiting for a reload' "$tmp/run2.log" 2>/dev/null || [ $waited -ge 1200 ] || ! kill -0 $pid 2>/dev/null; do
    sleep 0.1; waited=$((waited + 1))
done
sed 's/^function Hunter.on_think(v, dt) end$/function Hunter.on_think(v, dt) v.data.edited = true end/' "$brain" >"$brain.new"
mv "$brain.new" "$brain" # a save through a rename, as many editors do
wait $pid
status=$?
summary=$(sed -n 's/^summary: //p' "$tmp/run2.log")
want=$(echo "$expected" | sed 's/edited=0/edited=2/')
if [ $status -ne 0 ]; then
    fail love_hot_reload "exit status $status"; cat "$tmp/run2.log"
elif ! grep -q '^reloaded hunter_prey/hunter.lua' "$tmp/run2.log" || ! grep -q '^reloads: 1$' "$tmp/run2.log"; then
    fail love_hot_reload "no reload reported"; cat "$tmp/run2.log"
elif [ "$summary" != "$want" ]; then
    fail love_hot_reload "after the edit: '$summary', expected '$want'"
elif [ -n "$(ls -A "$tmp/cwd2")" ] || ! find "$copy" -type f | sort | cmp -s - "$tmp/copy.before"; then
    fail love_hot_reload "a run without --screenshot wrote files: $(ls -A "$tmp/cwd2") $(find "$copy" -type f | sort | comm -13 "$tmp/copy.before" -)"
else
    ok "love_hot_reload ($summary)"
fi

# 3. a misspelt or outdated option is refused, not ignored
(cd "$tmp/cwd2" && timeout 180 xvfb-run -a love "$repo/examples/love" --test 5 --out .) >"$tmp/run3.log" 2>&1
status=$?
if [ $status -ne 2 ] || ! grep -q "unknown option --out" "$tmp/run3.log"; then
    fail love_bad_option "exit status $status"; cat "$tmp/run3.log"
elif [ -n "$(ls -A "$tmp/cwd2")" ]; then
    fail love_bad_option "it wrote into its current directory: $(ls -A "$tmp/cwd2")"
else
    ok love_bad_option
fi

echo "[==========] $run test(s) run."
echo "[  PASSED  ] $passed test(s)."
[ $passed -eq $run ]
