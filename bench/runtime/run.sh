#!/bin/sh
# make bench-runtime: the Lua decision layer next to the physics step for the same scene.
# 10,000 vehicles, a small FSM brain at 10 Hz, 600 steps (10 s simulated), headless.
steer=${1:-build/steer}
dir=$(dirname "$0")
echo "== bench-runtime: 10,000 vehicles, FSM brain at 10 Hz, 600 steps, headless ($steer)"
for hz in 0 10; do
    line=$("$steer" --headless --steps 600 --think-hz $hz --time-budget 2000 "$dir/fsm_10k.lua" | grep '^summary:')
    lua=$(echo "$line" | sed -n 's/.*lua_ms_per_frame=\([0-9.]*\).*/\1/p')
    step=$(echo "$line" | sed -n 's/.*step_ms=\([0-9.]*\).*/\1/p')
    echo "think-hz $hz: Lua $lua ms/frame, physics step $step ms (1 frame = 1 step at 60 Hz)"
done
echo "target: Lua under 2 ms per frame at think-hz 10"
