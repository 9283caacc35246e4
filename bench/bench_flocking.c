/* bench_flocking.c - how fast the core steps a flock, and how that compares with the same flocking
 * written in plain Lua 5.4 (bench/flocking.lua), measured in the same process.
 *
 * Times are the process's CPU time (the machine is shared: wall time would count other jobs).
 *
 * Workload (DESIGN.md "Speed"): every vehicle flocks (separation, alignment, cohesion, wander) with
 * neighbour radius 30 in a wrapping square sized for a constant density of about 15 neighbours
 * each, dt 1/60 s, one thread. Each size is warmed up, then timed in several repetitions; the
 * median repetition is reported as ns per vehicle-step and steps per second.
 *
 * usage: bench_flocking [path/to/flocking.lua]   (default bench/flocking.lua)
 */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "steer.h"

#define RADIUS 30.0
#define NEIGHBOURS 15.0 /* wanted mean neighbour count: sets the density */
#define REPETITIONS 7

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, int count)
{
    qsort(values, (size_t)count, sizeof *values, compare_doubles);
    return values[count / 2];
}

/// Side of the square that holds n vehicles at the density giving NEIGHBOURS neighbours each.
static double side_for(int n) { return sqrt(n * STEER_PI * RADIUS * RADIUS / NEIGHBOURS); }

/// Steps per repetition: about 0.1-0.3 s of work whatever the size.
static int steps_for(int n) { return n >= 100000 ? 4 : n >= 10000 ? 25 : 200; }

/* ---- C ------------------------------------------------------------------------------------- */

static SteerWorld *make_flock(int n)
{
    SteerWorldDef wd = steer_default_world_def();
    wd.width = wd.height = side_for(n);
    wd.edges = STEER_EDGES_WRAP;
    wd.seed = 42;
    SteerWorld *world = steer_world_create(&wd);
    if (!world) exit(1);
    SteerBehaviourDef flock = steer_default_behaviour_def(STEER_FLOCK);
    for (int i = 0; i < n; i++) {
        SteerVehicleDef def = steer_default_vehicle_def();
        def.position = steer_vec2(steer_world_random(world) * wd.width, steer_world_random(world) * wd.height);
        double angle = steer_world_random(world) * 2.0 * STEER_PI;
        def.velocity = steer_scale(steer_vec2_from_angle(angle), 50.0);
        def.neighbor_radius = RADIUS;
        SteerVehicleId id;
        if (steer_vehicle_create(world, &def, &id) != STEER_OK || steer_vehicle_set_behaviour(world, id, &flock) != STEER_OK) {
            fprintf(stderr, "bench: %s\n", steer_world_last_error(world));
            exit(1);
        }
    }
    return world;
}

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

static double bench_c(int n)
{
    SteerWorld *world = make_flock(n);
    int steps = steps_for(n);
    for (int i = 0; i < 60; i++) steer_world_step(world); /* warm: caches, grid arrays, a flock forming */
    double samples[REPETITIONS];
    for (int r = 0; r < REPETITIONS; r++) {
        double start = now_seconds();
        for (int i = 0; i < steps; i++) steer_world_step(world);
        samples[r] = (now_seconds() - start) * 1e9 / ((double)steps * n);
    }
    double neighbours, polarisation;
    describe_flock(world, &neighbours, &polarisation);
    double ns = median(samples, REPETITIONS);
    printf("C    N=%7d  median %7.1f ns/vehicle-step  %8.1f steps/s  %6.2f ms/step  (min %.1f, max %.1f; %.1f neighbours, polarisation %.2f)\n",
           n, ns, 1e9 / (ns * n), ns * n * 1e-6, samples[0], samples[REPETITIONS - 1], neighbours, polarisation);
    fflush(stdout);
    steer_world_destroy(world);
    return ns;
}

/* ---- Lua ----------------------------------------------------------------------------------- */

static void lua_check(lua_State *L, int status)
{
    if (status == LUA_OK) return;
    fprintf(stderr, "bench: lua: %s\n", lua_tostring(L, -1));
    exit(1);
}

static double bench_lua(const char *script, int n)
{
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    lua_check(L, luaL_dofile(L, script)); /* returns the module */
    int module = lua_gettop(L);
    lua_getfield(L, module, "new");
    lua_pushinteger(L, n);
    lua_pushnumber(L, side_for(n));
    lua_pushnumber(L, RADIUS);
    lua_pushinteger(L, 42);
    lua_check(L, lua_pcall(L, 4, 1, 0));
    int flock = lua_gettop(L);
    lua_getfield(L, module, "step");
    int step = lua_gettop(L);

    int steps = steps_for(n) / 10 > 0 ? steps_for(n) / 10 : 1;
    double samples[REPETITIONS];
    for (int r = -1; r < REPETITIONS; r++) { /* r = -1: warm-up */
        double start = now_seconds();
        for (int i = 0; i < (r < 0 ? 20 : steps); i++) {
            lua_pushvalue(L, step);
            lua_pushvalue(L, flock);
            lua_pushnumber(L, 1.0 / 60.0);
            lua_check(L, lua_pcall(L, 2, 0, 0));
        }
        if (r >= 0) samples[r] = (now_seconds() - start) * 1e9 / ((double)steps * n);
    }
    lua_getfield(L, module, "stats");
    lua_pushvalue(L, flock);
    lua_check(L, lua_pcall(L, 1, 2, 0));
    double neighbours = lua_tonumber(L, -2), polarisation = lua_tonumber(L, -1);
    double ns = median(samples, REPETITIONS);
    printf("Lua  N=%7d  median %7.1f ns/vehicle-step  %8.1f steps/s  %6.2f ms/step  (%.1f neighbours, polarisation %.2f)\n", n,
           ns, 1e9 / (ns * n), ns * n * 1e-6, neighbours, polarisation);
    fflush(stdout);
    lua_close(L);
    return ns;
}

int main(int argc, char **argv)
{
    const char *script = argc > 1 ? argv[1] : "bench/flocking.lua";
    printf("flocking: radius %.0f, ~%.0f neighbours each, wrapping square, dt 1/60 s, one thread, median of %d\n",
           RADIUS, NEIGHBOURS, REPETITIONS);
    double c1k = bench_c(1000), c10k = bench_c(10000), c100k = bench_c(100000);
    double lua1k = bench_lua(script, 1000), lua10k = bench_lua(script, 10000);
    printf("C vs plain Lua 5.4: %.1fx at N=1,000, %.1fx at N=10,000\n", lua1k / c1k, lua10k / c10k);
    printf("N=100,000: %.2f ms per step (target < 16 ms)\n", c100k * 100000 * 1e-6);
    return 0;
}
