#!/bin/sh
# make bench-brains: the decision layer at scale. First the program: 10,000 vehicles (2,000
# hunters, 8,000 prey) whose fsm brains think at 10 Hz, query the world at every think and switch
# behaviours on transitions, headless, against the same scene with the brains silent (think-hz 0:
# the physics alone), and against its floor: the same thinks as plain functions that only make
# their query, then that do nothing. Then one think's world calls through the module at 1k, 10k and 100k vehicles.
# Then what each call of a think costs, for one frame's share of thinks (calls.lua). Last, what a
# pass costs around brains that do nothing, at 10,000 and 100,000 vehicles (pass.lua).
steer=${1:-build/steer}
module_dir=${2:-build}
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
