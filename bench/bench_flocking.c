/* SPDX-License-Identifier: MIT */
/* bench_flocking.c - how fast the core steps a flock, and how that compares with the same flocking
 * written in plain Lua 5.4 (bench/flocking.lua), measured in the same process.
 *
 * Times are the process's CPU time (the machine is shared: wall time would count other jobs).
 *
 * Workload: every vehicle flocks (separation, alignment, cohesion, wander) with
 * neighbour radius 30 in a wrapping square sized for a constant density of about 15 neighbours
 * each, dt 1/60 s, one thread. Each size is warmed up, then timed in several repetitions; the
 * median repetition is reported as ns per vehicle-step and steps per second. At 1,000 and 10,000
 * the C and Lua repetitions alternate, so that both meet the same load on a shared machine.
 *
 * Then the same flock stepped with 1 and with 2 threads (SteerWorldDef.threads) at 1,000, 100,000
 * and 1,000,000 vehicles: two worlds made alike, their repetitions alternating, timed on the wall
 * clock (CPU time would add the threads up); the two must stay bit-identical throughout. Before
 * them, the machine's own memory scaling (memory_probe.h), to read the speedups against.
 *
 * Then the thread rows again with the second core busy: a spinning process of our own pinned to one
 * core (sched_setaffinity), this process's threads free to go where the system puts them (pinned to
 * the first core, the calling thread met there every other job of a shared machine, and the
 * one-thread figures meant nothing); 1 and 2 threads alternating at 1,000, 10,000, 100,000 and 1,000,000
 * vehicles, the ratio printed for each (target: 2 threads never below 0.95x one). The spinner is
 * killed at the end of the section (and by a signal handler if the bench is interrupted).
 *
 * Last, the general path (combine.c over each behaviour: wander + separate + align) at 100,000
 * vehicles on 1 and 2 threads, against the plain flock in the same minutes.
 *
 * usage: bench_flocking [path/to/flocking.lua] [--threads-only | --busy-only [N] | --general-only]
 *        (default bench/flocking.lua; --busy-only N: that size of the busy-core rows alone)
 */
#if defined(__linux__)
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET: the busy-core rows */
#include <sched.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#endif
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_support.h"
#include "memory_probe.h"
#include "steer/steer.h"

#define RADIUS 30.0
#define NEIGHBOURS 15.0 /* wanted mean neighbour count: sets the density */
#define REPETITIONS 7

/// Side of the square that holds n vehicles at the density giving NEIGHBOURS neighbours each.
static double side_for(int n) { return sqrt(n * STEER_PI * RADIUS * RADIUS / NEIGHBOURS); }

/* ---- C ------------------------------------------------------------------------------------- */

/// What the vehicles of a benchmark world do.
typedef enum Crowd {
    FLOCKERS,   ///< flock: the step's fast path (step_flock.c)
    SEPARATORS, ///< wander + separate + align: the general path (combine.c over each behaviour)
} Crowd;

static SteerWorld *make_crowd(int n, int threads, Crowd crowd)
{
    SteerWorldDef wd = steer_default_world_def();
    wd.threads = threads;
    wd.width = wd.height = side_for(n);
    wd.edges = STEER_EDGES_WRAP;
    wd.seed = 42;
    SteerWorld *world = steer_world_create(&wd);
    if (!world) exit(1);
    SteerBehaviourDef behaviours[3] = {steer_default_behaviour_def(STEER_FLOCK)};
    int behaviour_count = 1;
    if (crowd == SEPARATORS) {
        behaviours[0] = steer_default_behaviour_def(STEER_WANDER);
        behaviours[1] = steer_default_behaviour_def(STEER_SEPARATE);
        behaviours[2] = steer_default_behaviour_def(STEER_ALIGN);
        behaviour_count = 3;
    }
    for (int i = 0; i < n; i++) {
        SteerVehicleDef def = steer_default_vehicle_def();
        def.position = steer_vec2(steer_world_random(world) * wd.width, steer_world_random(world) * wd.height);
        double angle = steer_world_random(world) * 2.0 * STEER_PI;
        def.velocity = steer_scale(steer_vec2_from_angle(angle), 50.0);
        def.neighbor_radius = RADIUS;
        SteerVehicleId id;
        bool ok = steer_vehicle_create(world, &def, &id) == STEER_OK;
        for (int b = 0; ok && b < behaviour_count; b++)
            ok = steer_vehicle_set_behaviour(world, id, &behaviours[b]) == STEER_OK;
        if (!ok) {
            fprintf(stderr, "bench: %s\n", steer_world_last_error(world));
            exit(1);
        }
    }
    for (int i = 0; i < 60; i++) steer_world_step(world); /* warm: caches, grid arrays, a flock forming */
    return world;
}

static SteerWorld *make_flock_on(int n, int threads) { return make_crowd(n, threads, FLOCKERS); }
static SteerWorld *make_flock(int n) { return make_flock_on(n, 1); }

/// Mean neighbour count over a sample of vehicles, and the flock's polarisation.
static void describe_flock(SteerWorld *world, double *neighbours, double *polarisation)
{
    int n = steer_world_vehicle_count(world);
    SteerVehicleId *ids = malloc((size_t)n * sizeof *ids);
    steer_world_get_vehicles(world, ids, n);
    double total = 0.0, hx = 0.0, hy = 0.0;
    int sampled = 0;
    for (int i = 0; i < n; i++) {
        SteerVec2 h = steer_vehicle_heading(world, ids[i]);
        hx += h.x;
        hy += h.y;
        if (i % 97 == 0) {
            total += steer_world_query_neighbors(world, ids[i], -1.0, NULL, 0);
            sampled++;
        }
    }
    *neighbours = total / sampled;
    *polarisation = sqrt(hx * hx + hy * hy) / n;
    free(ids);
}

/// One repetition: `steps` steps, in ns per vehicle-step.
static double time_c(SteerWorld *world, int n, int steps)
{
    double start = bench_cpu_seconds();
    for (int i = 0; i < steps; i++) steer_world_step(world);
    return (bench_cpu_seconds() - start) * 1e9 / ((double)steps * n);
}

/* ---- Lua ----------------------------------------------------------------------------------- */

static void lua_check(lua_State *L, int status)
{
    if (status == LUA_OK) return;
    fprintf(stderr, "bench: lua: %s\n", lua_tostring(L, -1));
    exit(1);
}

typedef struct LuaFlock {
    lua_State *L;
    int module, flock, step;
} LuaFlock;

static LuaFlock make_lua_flock(const char *script, int n)
{
    LuaFlock f;
    f.L = luaL_newstate();
    luaL_openlibs(f.L);
    lua_check(f.L, luaL_dofile(f.L, script)); /* returns the module */
    f.module = lua_gettop(f.L);
    lua_getfield(f.L, f.module, "new");
    lua_pushinteger(f.L, n);
    lua_pushnumber(f.L, side_for(n));
    lua_pushnumber(f.L, RADIUS);
    lua_pushinteger(f.L, 42);
    lua_check(f.L, lua_pcall(f.L, 4, 1, 0));
    f.flock = lua_gettop(f.L);
    lua_getfield(f.L, f.module, "step");
    f.step = lua_gettop(f.L);
    return f;
}

static double time_lua(LuaFlock *f, int n, int steps)
{
    double start = bench_cpu_seconds();
    for (int i = 0; i < steps; i++) {
        lua_pushvalue(f->L, f->step);
        lua_pushvalue(f->L, f->flock);
        lua_pushnumber(f->L, 1.0 / 60.0);
        lua_check(f->L, lua_pcall(f->L, 2, 0, 0));
    }
    return (bench_cpu_seconds() - start) * 1e9 / ((double)steps * n);
}

static void report(const char *who, int n, double *samples, double neighbours, double polarisation)
{
    double ns = bench_median(samples, REPETITIONS);
    printf("%-4s N=%7d  median %7.1f ns/vehicle-step  %8.1f steps/s  %7.2f ms/step  (min %.1f, max %.1f; %.1f "
           "neighbours, polarisation %.2f)\n",
           who, n, ns, 1e9 / (ns * n), ns * n * 1e-6, samples[0], samples[REPETITIONS - 1], neighbours, polarisation);
    fflush(stdout);
}

/// C and Lua at the same size, repetitions interleaved so that both see the same machine load;
/// returns the ratio of the medians (Lua / C).
static double compare(const char *script, int n)
{
    SteerWorld *world = make_flock(n);
    LuaFlock lua = make_lua_flock(script, n);
    time_lua(&lua, n, 20); /* warm */
    int c_steps = n >= 10000 ? 50 : 300, lua_steps = n >= 10000 ? 8 : 30;
    double c[REPETITIONS], l[REPETITIONS];
    for (int r = 0; r < REPETITIONS; r++) {
        c[r] = time_c(world, n, c_steps);
        l[r] = time_lua(&lua, n, lua_steps);
    }
    double neighbours, polarisation;
    describe_flock(world, &neighbours, &polarisation);
    report("C", n, c, neighbours, polarisation);
    lua_getfield(lua.L, lua.module, "stats");
    lua_pushvalue(lua.L, lua.flock);
    lua_check(lua.L, lua_pcall(lua.L, 1, 2, 0));
    report("Lua", n, l, lua_tonumber(lua.L, -2), lua_tonumber(lua.L, -1));
    lua_close(lua.L);
    steer_world_destroy(world);
    return bench_median(l, REPETITIONS) / bench_median(c, REPETITIONS);
}

/// One repetition on the wall clock: `steps` steps, in ms per step.
static double time_wall(SteerWorld *world, int steps)
{
    double start = bench_wall_seconds();
    for (int i = 0; i < steps; i++) steer_world_step(world);
    return (bench_wall_seconds() - start) * 1e3 / steps;
}

/// Whether two worlds hold the same bits: every vehicle's position and velocity, and the PRNG.
static int same_bits(SteerWorld *a, SteerWorld *b)
{
    int n = steer_world_vehicle_count(a);
    if (n != steer_world_vehicle_count(b)) return 0;
    /* (ids carry their world's tag: each world lists its own) */
    SteerVehicleId *ia = malloc((size_t)n * sizeof *ia), *ib = malloc((size_t)n * sizeof *ib);
    steer_world_get_vehicles(a, ia, n);
    steer_world_get_vehicles(b, ib, n);
    int same = 1;
    for (int i = 0; i < n && same; i++) {
        SteerVec2 pa = steer_vehicle_position(a, ia[i]), pb = steer_vehicle_position(b, ib[i]);
        SteerVec2 va = steer_vehicle_velocity(a, ia[i]), vb = steer_vehicle_velocity(b, ib[i]);
        same = memcmp(&pa, &pb, sizeof pa) == 0 && memcmp(&va, &vb, sizeof va) == 0;
    }
    free(ia);
    free(ib);
    return same && steer_world_random_u32(a) == steer_world_random_u32(b);
}

/// 1 against 2 threads at n vehicles; returns the ratio of the medians (1 thread / 2 threads), and
/// the 2-thread median in ms per step in *two_ms.
static double compare_threads(int n, int steps, int repetitions, double *two_ms)
{
    SteerWorld *one = make_flock_on(n, 1), *two = make_flock_on(n, 2);
    double t1[REPETITIONS * 3], t2[REPETITIONS * 3];
    for (int r = 0; r < repetitions; r++) {
        t1[r] = time_wall(one, steps);
        t2[r] = time_wall(two, steps);
    }
    int same = same_bits(one, two);
    double m1 = bench_median(t1, repetitions), m2 = bench_median(t2, repetitions);
    printf("threads N=%7d  1 thread %8.3f ms/step  2 threads %8.3f ms/step  speedup %.2fx  (medians of %d x %d steps; "
           "1: %.3f..%.3f, 2: %.3f..%.3f; %s)\n",
           n, m1, m2, m1 / m2, repetitions, steps, t1[0], t1[repetitions - 1], t2[0], t2[repetitions - 1],
           same ? "bit-identical" : "DIFFERENT BITS");
    fflush(stdout);
    steer_world_destroy(one);
    steer_world_destroy(two);
    if (!same) exit(1);
    *two_ms = m2;
    return m1 / m2;
}

static void threads_section(void)
{
    double memory = memory_probe();
    printf("threads: the same flock with 1 and 2 threads, repetitions alternating, wall clock\n");
    double ms1k, ms100k, ms1m;
    double r1k = compare_threads(1000, 300, 3 * REPETITIONS, &ms1k);
    double r100k = compare_threads(100000, 10, 2 * REPETITIONS, &ms100k);
    double r1m = compare_threads(1000000, 3, REPETITIONS, &ms1m);
    printf("2 threads vs 1: %.2fx at N=1,000 (target: no slower), %.2fx at N=100,000, %.2fx at N=1,000,000 "
           "(target >= 1.8x; the machine's memory scaling: %.2fx)\n",
           r1k, r100k, r1m, memory);
    printf("N=1,000,000 on 2 threads: %.1f ms per step (target < 70 ms)\n", ms1m);
}

#if defined(__linux__)
/// The spinning process of the busy-core rows (0: none).
static pid_t spinner;

static void stop_spinner(void)
{
    if (spinner <= 0) return;
    kill(spinner, SIGKILL);
    waitpid(spinner, NULL, 0);
    spinner = 0;
}

static void on_signal(int sig)
{
    if (spinner > 0) kill(spinner, SIGKILL);
    signal(sig, SIG_DFL);
    raise(sig);
}

/// The first two CPUs this process may run on; false when it may run on fewer than two.
static bool two_cpus(int *a, int *b)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return false;
    int found = 0;
    for (int c = 0; c < CPU_SETSIZE && found < 2; c++) {
        if (!CPU_ISSET(c, &set)) continue;
        if (found++ == 0)
            *a = c;
        else
            *b = c;
    }
    return found == 2;
}

static void pin_self(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof set, &set);
}

/// 1 against 2 threads at each size with a process of our own spinning on the second core.
static void busy_section(int only)
{
    int mine, other;
    if (!two_cpus(&mine, &other)) {
        printf("busy core: skipped (this process may run on fewer than two CPUs)\n");
        return;
    }
    static const int sizes[] = {1000, 10000, 100000, 1000000};
    static const int steps[] = {200, 40, 6, 2};
    static const int reps[] = {15, 15, 9, 5};
    double ratio[4];
    printf("busy core: the same flock with 1 and 2 threads while a spinning process of ours is pinned to CPU %d (ours "
           "unpinned: on a shared machine CPU %d is busy with others' jobs too), repetitions alternating, wall "
           "clock\n",
           other, mine);
    fflush(stdout);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    for (int s = 0; s < 4; s++) {
        int n = sizes[s];
        ratio[s] = 0.0;
        if (only && n != only) continue;
        SteerWorld *one = make_flock_on(n, 1), *two = make_flock_on(n, 2);
        spinner = fork();
        if (spinner == 0) {
            pin_self(other);
            for (volatile unsigned long spin = 0;; spin++) {
            }
        }
        double t1[REPETITIONS * 3], t2[REPETITIONS * 3];
        time_wall(one, 1);
        time_wall(two, 1);
        for (int r = 0; r < reps[s]; r++) {
            t1[r] = time_wall(one, steps[s]);
            t2[r] = time_wall(two, steps[s]);
        }
        stop_spinner();
        int same = same_bits(one, two);
        double m1 = bench_median(t1, reps[s]), m2 = bench_median(t2, reps[s]);
        ratio[s] = m1 / m2;
        printf("busy   N=%7d  1 thread %8.3f ms/step  2 threads %8.3f ms/step  2 vs 1: %.2fx  (medians of %d x %d "
               "steps; 1: %.3f..%.3f, 2: %.3f..%.3f; %s)\n",
               n, m1, m2, ratio[s], reps[s], steps[s], t1[0], t1[reps[s] - 1], t2[0], t2[reps[s] - 1],
               same ? "bit-identical" : "DIFFERENT BITS");
        fflush(stdout);
        steer_world_destroy(one);
        steer_world_destroy(two);
        if (!same) exit(1);
    }
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    if (!only)
        printf("busy core, 2 threads vs 1: %.2fx at N=1,000, %.2fx at N=10,000, %.2fx at N=100,000, %.2fx at "
               "N=1,000,000 (target >= 0.95x everywhere)\n",
               ratio[0], ratio[1], ratio[2], ratio[3]);
}
#else
static void busy_section(int only)
{
    (void)only;
    printf("busy core: skipped (Linux only: sched_setaffinity)\n");
}
#endif

/// The general path at 100,000 vehicles, on 1 and 2 threads, against the plain flock's fast path in
/// the same minutes (wall clock, repetitions alternating).
static void general_section(void)
{
    const int n = 100000, steps = 5;
    SteerWorld *flock = make_flock_on(n, 1), *one = make_crowd(n, 1, SEPARATORS), *two = make_crowd(n, 2, SEPARATORS);
    double f[REPETITIONS], g1[REPETITIONS], g2[REPETITIONS];
    for (int r = 0; r < REPETITIONS; r++) {
        f[r] = time_wall(flock, steps);
        g1[r] = time_wall(one, steps);
        g2[r] = time_wall(two, steps);
    }
    int same = same_bits(one, two);
    double mf = bench_median(f, REPETITIONS), m1 = bench_median(g1, REPETITIONS), m2 = bench_median(g2, REPETITIONS);
    printf("general N=%d  wander + separate + align: 1 thread %.2f ms/step, 2 threads %.2f ms/step (%.2fx; %s); "
           "the plain flock %.2f ms/step on 1 thread, so the general path takes %.2fx its time (medians of %d x %d "
           "steps, wall clock)\n",
           n, m1, m2, m1 / m2, same ? "bit-identical" : "DIFFERENT BITS", mf, m1 / mf, REPETITIONS, steps);
    fflush(stdout);
    steer_world_destroy(flock);
    steer_world_destroy(one);
    steer_world_destroy(two);
    if (!same) exit(1);
}

int main(int argc, char **argv)
{
    const char *script = argc > 1 ? argv[1] : "bench/flocking.lua";
    if (argc > 2 && strcmp(argv[2], "--threads-only") == 0) {
        threads_section();
        return 0;
    }
    if (argc > 2 && strcmp(argv[2], "--busy-only") == 0) {
        busy_section(argc > 3 ? atoi(argv[3]) : 0); /* one size (1000, 10000, 100000, 1000000), or all */
        return 0;
    }
    if (argc > 2 && strcmp(argv[2], "--general-only") == 0) {
        general_section();
        return 0;
    }
    printf("flocking: radius %.0f, ~%.0f neighbours each, wrapping square, dt 1/60 s, one thread, median of %d (CPU "
           "time)\n",
           RADIUS, NEIGHBOURS, REPETITIONS);
    double ratio1k = compare(script, 1000);
    double ratio10k = compare(script, 10000);
    SteerWorld *world = make_flock(100000);
    double c[REPETITIONS], neighbours, polarisation;
    for (int r = 0; r < REPETITIONS; r++) c[r] = time_c(world, 100000, 4);
    describe_flock(world, &neighbours, &polarisation);
    report("C", 100000, c, neighbours, polarisation);
    double ms = bench_median(c, REPETITIONS) * 100000 * 1e-6;
    steer_world_destroy(world);
    printf("C vs plain Lua 5.4 (median of interleaved runs): %.1fx at N=1,000, %.1fx at N=10,000 (target >= 30x)\n",
           ratio1k, ratio10k);
    printf("N=100,000: %.2f ms per step (target < 16 ms)\n", ms);
    threads_section();
    busy_section(0);
    general_section();
    return 0;
}
