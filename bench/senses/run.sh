#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/senses/run.sh - the Lua half of make bench-senses: bench-brains' hunter/prey scene (2,000
# hunters, 8,000 prey) with polling brains (bench/brains/hunt_10k.lua: every think queries
# closest, 10 Hz) against the same rules on senses and events (bench/senses/hunt_senses.lua: sight
# at 10 Hz in the step, Lua only when something changed), headless, in the same run; then the
# physics alone, without and with senses; then 100,000 vehicles of the event scene on 2 threads,
# whole frame (step + senses + Lua), with the physics alone at that count beside it. Each figure is
# the median of STEER_BENCH_RUNS runs (3) of STEER_BENCH_STEPS steps (600; STEER_BENCH_BIG_STEPS,
# 300, at STEER_BENCH_BIG vehicles); 1 frame = 1 step at 60 Hz; Lua per frame leaves out the
# scene's load (measured by a run of one step). The program's times are wall clock: on a busy
# machine every figure grows, which is why each one has its baseline measured in the same run; the
# think passes of both scenes are also timed alone in CPU time (think_cpu.lua, on build/steer.so).
steer=${1:-build/steer}
here=$(dirname "$0")
steps=${STEER_BENCH_STEPS:-600}
runs=${STEER_BENCH_RUNS:-3}
big=${STEER_BENCH_BIG:-100000}
big_steps=${STEER_BENCH_BIG_STEPS:-300}

# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# summary N SCENE HZ THREADS [ENV=VALUE ...]: the summary line of one headless run of N steps
summary() {
    n=$1 scene=$2 hz=$3 threads=$4
    shift 4
    rate="--think-hz $hz"
    [ "$hz" = - ] && rate= # the scene's own (hunt_senses.lua: 0, nothing thinks)
    # shellcheck disable=SC2086
    env "$@" "$steer" --headless --steps "$n" $rate --threads "$threads" --time-budget 20000 "$scene" |
        grep '^summary:'
}
field() { echo "$1" | sed -n "s/.*$2=\([0-9.]*\).*/\1/p"; }

# run SCENE THINK_HZ THREADS [ENV=VALUE ...]: prints "lua_ms step_ms" of one headless run. The
# program's Lua time includes the scene's load (10,000 spawns, their senses and machines): a run
# of one step measures it, and it is taken out of the figure, which is then Lua per frame.
run() {
    n=${run_steps:-$steps}
    first=$(field "$(summary 1 "$@")" lua_ms_per_frame)
    line=$(summary "$n" "$@")
    step=$(field "$line" step_ms)
    lua=$(awk -v t="$(field "$line" lua_ms_per_frame)" -v f="$first" -v n="$n" \
        'BEGIN { printf "%.4f", (t * n - f) / (n - 1) }')
    echo "$lua $step"
}

# measure NAME SCENE THINK_HZ THREADS [ENV...]: medians of `runs` runs into NAME_lua and NAME_step
measure() {
    name=$1
    shift
    : >"$tmp/$name"
    i=0
    while [ $i -lt "$runs" ]; do
        run "$@" >>"$tmp/$name"
        i=$((i + 1))
    done
    eval "${name}_lua=$(cut -d' ' -f1 "$tmp/$name" | median)"
    eval "${name}_step=$(cut -d' ' -f2 "$tmp/$name" | median)"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "== bench-senses (Lua): hunter/prey, 2,000 hunters + 8,000 prey, $steps steps headless, medians of $runs runs ($steer)"
echo "(machine load before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null))"
# alternated, so that a busy machine weighs on both alike
measure poll "$here/../brains/hunt_10k.lua" 10 1
measure events "$here/hunt_senses.lua" - 1
measure bare "$here/../brains/hunt_10k.lua" 0 1
measure sensing "$here/hunt_senses.lua" - 1 STEER_BENCH_BRAIN=none
echo "polling brains (closest at every think, 10 Hz): Lua $poll_lua ms/frame, step $poll_step ms"
echo "senses + events (sight at 10 Hz in the step, no thinks):  Lua $events_lua ms/frame, step $events_step ms"
echo "Lua per frame, events / polling: $(ratio "$events_lua" "$poll_lua") (target: under 0.5 ms; scale by the" \
    "polling figure of a quiet machine when this one is busy)"
echo "physics alone: without senses $bare_step ms/step, with senses (every event made) $sensing_step ms/step:" \
    "$(ratio "$sensing_step" "$bare_step")x (target: at most 1.5x)"
# The same two scenes' think passes alone in plain Lua on the module, in CPU time (think_cpu.lua):
# what the brains cost when the process has a core, whatever else the machine runs. Skipped when
# the module or lua5.4 is missing.
module_dir=$(dirname "$steer")
if [ -f "$module_dir/steer.so" ] && command -v lua5.4 >/dev/null 2>&1; then
    cpu() {
        LUA_CPATH="$module_dir/?.so;;" LUA_PATH="$here/../../scripts/lib/?.lua;;" \
            lua5.4 "$here/think_cpu.lua" "$@" | sed -n 's/.*think_cpu_ms_per_frame=\([0-9.]*\).*/\1/p'
    }
    : >"$tmp/cpu_poll"
    : >"$tmp/cpu_events"
    i=0
    while [ $i -lt "$runs" ]; do
        cpu "$here/../brains/hunt_10k.lua" "$steps" 10 >>"$tmp/cpu_poll"
        cpu "$here/hunt_senses.lua" "$steps" >>"$tmp/cpu_events"
        i=$((i + 1))
    done
    cpu_poll=$(median <"$tmp/cpu_poll")
    cpu_events=$(median <"$tmp/cpu_events")
    echo "think passes alone, CPU time (plain Lua, $module_dir/steer.so): polling $cpu_poll ms/frame," \
        "events $cpu_events ms/frame: $(ratio "$cpu_events" "$cpu_poll")x"
fi
# The same scene at 100,000 vehicles (the world grows with it: the same density) on 2 threads, with
# the default memory cap; for the breakdown, its physics alone (no senses, no brains: hunters
# wander, prey flock) and with senses (every event made, no brains). The rest of the step is what
# the brains' transitions switch on: pursue and evade, which read their targets themselves.
run_steps=$big_steps runs=${STEER_BENCH_BIG_RUNS:-$runs}
measure big "$here/hunt_senses.lua" - 2 STEER_BENCH_VEHICLES="$big"
measure big_bare "$here/hunt_senses.lua" - 2 STEER_BENCH_VEHICLES="$big" STEER_BENCH_SENSES=none
measure big_sensing "$here/hunt_senses.lua" - 2 STEER_BENCH_VEHICLES="$big" STEER_BENCH_BRAIN=none
whole=$(awk -v a="$big_lua" -v b="$big_step" 'BEGIN { printf "%.2f", a + b }')
senses=$(awk -v a="$big_sensing_step" -v b="$big_bare_step" 'BEGIN { printf "%.2f", a - b }')
chase=$(awk -v a="$big_step" -v b="$big_sensing_step" 'BEGIN { printf "%.2f", a - b }')
echo "$big vehicles ($big_steps steps, median of $runs), senses + events, 2 threads: step $big_step ms + Lua" \
    "$big_lua ms = $whole ms/frame (target: under 16.7 ms, 60 fps)"
echo "  the step: physics alone (wander, flock) $big_bare_step ms; senses $senses ms more" \
    "($(ratio "$big_sensing_step" "$big_bare_step")x); the brains' pursue and evade $chase ms more"
echo "(machine load after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null))"
