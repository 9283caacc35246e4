#!/bin/sh
# make bench-brains: the decision layer at scale. First the program: 10,000 vehicles (2,000
# hunters, 8,000 prey) whose fsm brains think at 10 Hz, query the world at every think and switch
# behaviours on transitions, headless, against the same scene with the brains silent (think-hz 0:
# the physics alone), and against its floor: the same thinks as plain functions that only make
# their query, then that do nothing. Then one think's world calls through the module at 1k, 10k and 100k vehicles.
# Then what each call of a think costs, for one frame's share of thinks (calls.lua). Last, what a
# pass costs around brains that do nothing, at 10,000 and 100,000 vehicles (pass.lua).
# Then the same scene under LuaJIT the way a LÖVE game runs it (jit_game.lua): steer's module (its
# FFI path, and its classic path for reference) against the plain-Lua game of plain_world.lua, in
# alternating rounds, and the largest scene each holds at 60 fps, with Lua 5.4's (the program).
# Before those, one think's cost against N in both think orders (think_cost.lua).
steer=${1:-build/steer}
module_dir=${2:-build}
luajit_dir=${3:-build/luajit}
dir=$(dirname "$0")
steps=${STEER_BENCH_STEPS:-600}
echo "== bench-brains: 2,000 hunters + 8,000 prey on the fsm library, $steps steps headless ($steer)"
for hz in 0 10; do
    line=$("$steer" --headless --steps "$steps" --think-hz $hz --time-budget 2000 "$dir/hunt_10k.lua" | grep '^summary:')
    lua=$(echo "$line" | sed -n 's/.*lua_ms_per_frame=\([0-9.]*\).*/\1/p')
    step=$(echo "$line" | sed -n 's/.*step_ms=\([0-9.]*\).*/\1/p')
    echo "think-hz $hz: Lua $lua ms/frame, physics step $step ms (1 frame = 1 step at 60 Hz)"
done
# The floor: the same scene and thinks, each brain a plain function that only makes its think's
# query (no fsm, no switch), then one that does nothing.
for brain in query empty; do
    line=$(STEER_BENCH_BRAIN=$brain "$steer" --headless --steps "$steps" --think-hz 10 --time-budget 2000 "$dir/hunt_10k.lua" | grep '^summary:')
    lua=$(echo "$line" | sed -n 's/.*lua_ms_per_frame=\([0-9.]*\).*/\1/p')
        what="only make their think's query"
    [ $brain = empty ] && what="do nothing"
    echo "floor, plain-function brains that $what: Lua $lua ms/frame"
done
echo "target: Lua under 1 ms per frame at think-hz 10"
LUA_CPATH="$module_dir/?.so;;" lua5.4 "$dir/micro.lua"
LUA_CPATH="$module_dir/?.so;;" lua5.4 "$dir/calls.lua"
LUA_CPATH="$module_dir/?.so;;" lua5.4 "$dir/pass.lua"

if ! command -v luajit >/dev/null 2>&1 || [ ! -f "$luajit_dir/steer.so" ]; then
    echo "(no luajit or no $luajit_dir/steer.so: the LuaJIT rows are skipped)"
    exit 0
fi
rounds=${STEER_BENCH_ROUNDS:-3}
frames=${STEER_BENCH_FRAMES:-120}
# Lua's cost per think and N (docs/benchmarks.md): one think's CPU time at four sizes of the same
# density, the brains thinking in creation order (STEER_THINK_ORDER_MIN above N) and by place (0),
# in alternating rounds, under Lua 5.4 and under LuaJIT (its FFI path); medians of the rounds.
echo "== one think's CPU time against N (think_cost.lua, one thread, $rounds alternating rounds): creation order / place order"
echo "   load: $(uptime | sed 's/.*load average/load average/')"
for n in 10000 33500 45000 100000; do
    for lua in lua5.4 luajit; do
        cpath="$module_dir/?.so;;"
        [ $lua = luajit ] && cpath="$luajit_dir/?.so;;"
        created="" placed=""
        for r in $(seq 1 "$rounds"); do
            c=$(STEER_THINK_ORDER_MIN=1000000000 LUA_CPATH="$cpath" $lua "$dir/think_cost.lua" $n 60 30 | sed -n 's/.*think_us=\([0-9.]*\).*/\1/p')
            p=$(STEER_THINK_ORDER_MIN=0 LUA_CPATH="$cpath" $lua "$dir/think_cost.lua" $n 60 30 | sed -n 's/.*think_us=\([0-9.]*\).*/\1/p')
            created="$created $c" placed="$placed $p"
        done
        cm=$(echo "$created" | tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
        pm=$(echo "$placed" | tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
        echo "$n vehicles, $lua: creation order $cm us (rounds:$created), place order $pm us (rounds:$placed)"
    done
done

echo "== under LuaJIT: the same scene as a LÖVE game runs it (w:think(), w:step() each frame), 10,000 vehicles,"
echo "   2 threads, medians of $frames frames after 60, $rounds alternating rounds; brains in the main thread's CPU"
echo "   time (w:think() only), frames on the wall clock; plain = the plain-Lua game"
echo "   (bench/brains/plain_world.lua), ffi = steer's module, classic = the same module with STEER_FFI=0"
echo "   load: $(uptime | sed 's/.*load average/load average/')"
jit() { LUA_CPATH="$luajit_dir/?.so;;" luajit "$dir/jit_game.lua" "$@"; }
field() { echo "$1" | sed -n "s/.*$2=\([0-9.]*\).*/\1/p"; }
ratios=""
for r in $(seq 1 "$rounds"); do
    plain=$(jit run plain 10000 "$frames" 2)
    ffi=$(jit run steer 10000 "$frames" 2)
    classic=$(STEER_FFI=0 jit run steer 10000 "$frames" 2)
    pb=$(field "$plain" brains_cpu_ms); pf=$(field "$plain" frame_ms)
    fb=$(field "$ffi" brains_cpu_ms); ff=$(field "$ffi" frame_ms)
    cb=$(field "$classic" brains_cpu_ms); cf=$(field "$classic" frame_ms)
    line=$(awk -v pb="$pb" -v pf="$pf" -v fb="$fb" -v ff="$ff" -v cb="$cb" -v cf="$cf" 'BEGIN {
        printf "brains (CPU ms) plain %.2f ffi %.2f classic %.2f (ffi/plain %.2fx, classic/plain %.2fx); ", pb, fb, cb, fb / pb, cb / pb
        printf "frame (wall ms) plain %.2f ffi %.2f classic %.2f (plain/ffi %.2fx faster)", pf, ff, cf, pf / ff }')
    echo "round $r: $line"
    ratios="$ratios $(awk -v pb="$pb" -v pf="$pf" -v fb="$fb" -v ff="$ff" 'BEGIN { printf "%.4f:%.4f", fb / pb, pf / ff }')"
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
bm=$(echo "$ratios" | tr ' ' '\n' | grep : | cut -d: -f1 | tr '\n' ' ' | median)
fm=$(echo "$ratios" | tr ' ' '\n' | grep : | cut -d: -f2 | tr '\n' ' ' | median)
echo "median of rounds: steer (ffi) brains ${bm}x the plain game's (target <= 1.0), whole frame ${fm}x faster (target >= 3)"
echo "== the largest hunter/prey scene at 60 fps (median frame = brains + step <= 16.7 ms, brains on, 2 threads)"
echo "   load: $(uptime | sed 's/.*load average/load average/')"
plain=$(jit search plain 2)
echo "plain-Lua game (LuaJIT):      $plain"
ffi=$(jit search steer 2)
echo "steer, LuaJIT (FFI path):     $ffi"
lua54=$(STEER_BIN="$steer" jit search program 2)
echo "steer, Lua 5.4 (the program): $lua54"
awk -v p="$(field "$plain" largest)" -v f="$(field "$ffi" largest)" -v l="$(field "$lua54" largest)" 'BEGIN {
    if (p > 0) printf "steer holds %.1fx the plain game'"'"'s vehicles under LuaJIT, %.1fx under Lua 5.4 (target >= 3)\n", f / p, l / p }'
echo "== under LuaJIT, a brain's calls one by one (jit_calls.lua), FFI path then classic path"
LUA_CPATH="$luajit_dir/?.so;;" luajit "$dir/jit_calls.lua"
LUA_CPATH="$luajit_dir/?.so;;" STEER_FFI=0 luajit "$dir/jit_calls.lua"
