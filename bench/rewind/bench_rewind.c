/* SPDX-License-Identifier: MIT */
/* bench_rewind.c - how long a jump to a past step takes: a 10-minute hunter/prey session (36,000
 * steps headless at 60 frames per second, with the input of bench/replay/record_size.c: the
 * pointer moving every frame, clicks, keys, a pause, a stretch at x2, a restart) recorded in memory
 * as a window does, then jumps to random steps in a random order (and to the last step from the
 * first, the longest replay there is). Each jump's world is checked against the session's own
 * checksum at that step. Prints the median and worst jump, and each against the time the session
 * took live to get that far (the same run's steps, in this process). Then the same jumps with a
 * vehicle selected, whose inspector's plots each jump fills with the 10 s before its step (a
 * replay from a keyframe at least that far back, or the ring trimmed when it holds them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "guard.h"
#include "record.h"
#include "rewind.h"

#include "../player_session.h"

#define STEPS 36000
#define JUMPS 24

static uint64_t sums[STEPS + 1];
static double live_at[STEPS + 1]; /* seconds the live session took to reach each step */

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Jumps to each target in turn, `selecting` the second vehicle of the world shown before each (the
 * inspector's plots then need their 10 s); prints each and the median and worst. Returns how many
 * worlds differed from the session's. */
static int jumps(App *app, const long long *targets, bool selecting)
{
    double ms[JUMPS + 2], ratio[JUMPS + 2];
    int n = 0, wrong = 0;
    double worst_ms = 0, worst_ratio = 0;
    long long worst_k = 0;
    for (int i = 0; i < JUMPS + 2; i++) {
        long long k = targets[i];
        char error[2048];
        SteerVehicleId ids[2];
        if (selecting && steer_world_get_vehicles(script_world(app->session.host), ids, 2) == 2) app->selected = ids[1];
        long long from = app->session.steps;
        double a = guard_now();
        if (!rewind_jump(app->session.rewind, app, k, error, sizeof error)) {
            fprintf(stderr, "jump to %lld: %s\n", k, error);
            return 1;
        }
        double took = (guard_now() - a) * 1000.0;
        for (int f = 0; f < 60; f++) rewind_idle(app->session.rewind, app, 0.004); /* half a second paused at 120 fps */
        if (app->session.steps != k || (sums[k] && steer_world_checksum(script_world(app->session.host)) != sums[k]))
            wrong++;
        ms[n] = took;
        ratio[n] = k > 0 && live_at[k] > 0 ? took / (live_at[k] * 1000.0) : 0.0;
        printf("  jump %2d: step %5lld -> %5lld  %8.1f ms  %s  (live took %7.1f ms to get there)\n", i + 1, from, k,
               took, k < from ? "back   " : "forward", live_at[k] * 1000.0);
        if (took > worst_ms) worst_ms = took, worst_k = k, worst_ratio = ratio[n];
        n++;
    }
    double sorted[JUMPS + 2];
    memcpy(sorted, ms, sizeof sorted);
    qsort(sorted, (size_t)n, sizeof sorted[0], by_value);
    double median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    memcpy(sorted, ratio, sizeof sorted);
    qsort(sorted, (size_t)n, sizeof sorted[0], by_value);
    double median_ratio = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    printf("%s: median %.1f ms, worst %.1f ms (to step %lld; target under 1 s: %s); a jump takes %.2fx (median; "
           "worst %.2fx) what the live session took to get that far; %d of %d worlds differ from the session's\n",
           selecting ? "jumps with a vehicle selected (its plots filled)" : "jumps", median, worst_ms, worst_k,
           worst_ms < 1000.0 ? "met" : "NOT met", median_ratio, worst_ratio, wrong, n);
    return wrong;
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    AppOptions opt = options_default();
    opt.headless = true;
    opt.rewind = true;
    opt.script = "scripts/hunter_prey.lua";
    opt.run.has_seed = true;
    opt.run.seed = 4;
    opt.steps = STEPS;
    static App app;
    if (app_init(&app, &opt, NULL) != 0) return 1;
    long long frame = 0;
    double t0 = guard_now();
    sums[0] = steer_world_checksum(script_world(app.session.host));
    while (app.session.steps < STEPS) {
        player_session_frame(&app, frame);
        long long before = app.session.steps;
        app_frame(&app, 1.0 / 60.0);
        double now = guard_now() - t0;
        for (long long s = before + 1; s <= app.session.steps; s++) live_at[s] = now; /* (x2: two steps a frame) */
        sums[app.session.steps] = steer_world_checksum(script_world(app.session.host));
        frame++;
    }
    double live_s = guard_now() - t0;
    size_t bytes;
    record_bytes(app.session.recorder, &bytes);
    printf("hunter/prey, %d steps (10 simulated minutes) with input, live in %.3f s; recorded in memory: %zu bytes "
           "(%.1f KiB; the cap is %zu MiB)\n",
           STEPS, live_s, bytes, bytes / 1024.0, REWIND_MEMORY_CAP >> 20);
    /* the keyframes a window builds in its frames' spare time (1 ms a frame while running: about 70 s
     * of a 10-minute session at 120 frames per second), built here at once */
    double b0 = guard_now();
    int slices = 0;
    while (rewind_idle(app.session.rewind, &app, 0.004)) slices++;
    printf("keyframes: %lld built in %.3f s (%d slices of at most 4 ms)\n", rewind_keyframes(app.session.rewind),
           guard_now() - b0, slices);
    srand(11);
    static long long targets[JUMPS + 2];
    for (int i = 0; i < JUMPS; i++) {
        long long k;
        do k = (long long)((double)rand() / RAND_MAX * STEPS); /* a step the session went through whole */
        while (k > 0 && sums[k] == 0);
        targets[i] = k;
    }
    targets[JUMPS] = 0;
    targets[JUMPS + 1] = STEPS; /* from the first step to the last: the longest replay */
    int wrong = jumps(&app, targets, false);
    app.history = calloc(1, sizeof *app.history); /* (a window has it: freed by app_shutdown) */
    if (!app.history) return 1;
    b0 = guard_now(); /* the keyframes the jumps used, built again: the same start */
    while (rewind_idle(app.session.rewind, &app, 0.004)) {
    }
    printf("keyframes: %lld again after %.3f s\n", rewind_keyframes(app.session.rewind), guard_now() - b0);
    wrong += jumps(&app, targets, true);
    app_shutdown(&app);
    return wrong == 0 ? 0 : 1;
}
