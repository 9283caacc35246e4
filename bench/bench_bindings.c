/* SPDX-License-Identifier: MIT */
/* bench_bindings.c - what the Lua binding costs: ns per behaviour toggle (v:wander{...}), per
 * field read (v.x) and per world:closest query, each next to the same work done through the C
 * API in the same process on the same world. Medians of 9 runs; run with `make bench-bindings`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "bench_support.h"
#include "steer/steer.h"
#include "steer_lua.h"

enum { RUNS = 9, VEHICLES = 1000 };

static double now_ns(void) { return bench_wall_seconds() * 1e9; }

static void check(lua_State *L, int status)
{
    if (status != LUA_OK) {
        fprintf(stderr, "bench_bindings: %s\n", lua_tostring(L, -1));
        exit(1);
    }
}

/// ns per iteration of a Lua loop body, minus the same loop with an empty body.
static double lua_ns(lua_State *L, const char *body, long n)
{
    char chunk[512], empty[256];
    snprintf(chunk, sizeof chunk, "local w, v, n = W, V, ... local s = 0 for i = 1, n do %s end return s", body);
    snprintf(empty, sizeof empty, "local w, v, n = W, V, ... local s = 0 for i = 1, n do end return s");
    double runs[RUNS], base[RUNS];
    for (int r = 0; r < RUNS; r++) {
        for (int which = 0; which < 2; which++) {
            check(L, luaL_loadstring(L, which ? empty : chunk));
            lua_pushinteger(L, n);
            double t0 = now_ns();
            check(L, lua_pcall(L, 1, 1, 0));
            double t = (now_ns() - t0) / (double)n;
            lua_pop(L, 1);
            (which ? base : runs)[r] = t;
        }
    }
    return bench_median(runs, RUNS) - bench_median(base, RUNS);
}

static volatile double sink;

int main(void)
{
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    luaL_requiref(L, "steer", luaopen_steer, 1);
    lua_pop(L, 1);
    char setup[512];
    snprintf(setup, sizeof setup,
             "local steer = require 'steer' "
             "W = steer.world{width = 1000, height = 1000, wrap = true, seed = 1} "
             "for i = 1, %d do W:spawn{kind = i %% 2 == 0 and 'prey' or 'hunter', x = W:random() * 1000, "
             "y = W:random() * 1000} end "
             "V = W:vehicles()[1] V:wander{}",
             VEHICLES);
    check(L, luaL_dostring(L, setup));

    lua_getglobal(L, "W");
    SteerWorld *world = steer_lua_to_world(L, -1);
    lua_getglobal(L, "V");
    SteerVehicleId v;
    steer_lua_to_vehicle(L, -1, &v);
    lua_pop(L, 2);

    const long n_toggle = 200000, n_field = 2000000, n_closest = 20000;
    double lua_toggle = lua_ns(L, "v:wander{radius = 20, distance = 40, jitter = 80}", n_toggle);
    double lua_toggle_reused = lua_ns(L, "v:wander(OPTS)", n_toggle);
    double lua_field = lua_ns(L, "s = s + v.x", n_field);
    check(L, luaL_dostring(L, "V.data.t = 1.5 V.state = 'wander'"));
    double lua_data = lua_ns(L, "s = s + v.data.t", n_field);
    double lua_state = lua_ns(L, "s = v.state", n_field);
    double lua_speed = lua_ns(L, "s = s + v.speed", n_field);
    double lua_max_speed = lua_ns(L, "s = s + v.max_speed", n_field);
    double lua_method = lua_ns(L, "s = v.seek", n_field);
    check(L, luaL_dostring(L, "T = {x = 1.5}"));
    double lua_table_field = lua_ns(L, "s = s + T.x", n_field);
    double lua_closest = lua_ns(L, "w:closest(v, 'prey', 100)", n_closest);
    (void)lua_toggle_reused;

    /* the same work through the C API */
    double c_toggle[RUNS], c_field[RUNS], c_closest[RUNS];
    SteerQueryFilter filter = steer_default_query_filter();
    filter.kinds = 1ULL << 1; /* "hunter" was interned first (kind 0), "prey" second */
    filter.exclude = v;
    for (int r = 0; r < RUNS; r++) {
        double t0 = now_ns();
        for (long i = 0; i < n_toggle; i++) {
            SteerBehaviourDef def;
            if (steer_vehicle_get_behaviour(world, v, STEER_WANDER, &def, NULL) != STEER_OK)
                def = steer_default_behaviour_def(STEER_WANDER);
            def.wander.radius = 20;
            def.wander.distance = 40;
            def.wander.jitter = 80;
            steer_vehicle_set_behaviour(world, v, &def);
        }
        c_toggle[r] = (now_ns() - t0) / (double)n_toggle;
        t0 = now_ns();
        double s = 0;
        for (long i = 0; i < n_field; i++) s += steer_vehicle_position(world, v).x;
        sink = s;
        c_field[r] = (now_ns() - t0) / (double)n_field;
        t0 = now_ns();
        SteerVehicleId found;
        for (long i = 0; i < n_closest; i++)
            sink += steer_world_query_closest(world, steer_vehicle_position(world, v), 100, &filter, &found);
        c_closest[r] = (now_ns() - t0) / (double)n_closest;
    }
    double ct = bench_median(c_toggle, RUNS), cf = bench_median(c_field, RUNS), cc = bench_median(c_closest, RUNS);

    /* the options table reused: what the toggle costs without building its table each call */
    check(L, luaL_dostring(L, "OPTS = {radius = 20, distance = 40, jitter = 80}"));
    lua_toggle_reused = lua_ns(L, "v:wander(OPTS)", n_toggle);

    printf("bench_bindings: %d vehicles, medians of %d runs (ns per call; Lua loop overhead subtracted)\n", VEHICLES,
           RUNS);
    printf("  %-44s %9s %9s %7s\n", "operation", "Lua", "C", "Lua/C");
    printf("  %-44s %9.1f %9.1f %7.1f\n", "toggle v:wander{radius=, distance=, jitter=}", lua_toggle, ct,
           lua_toggle / ct);
    printf("  %-44s %9.1f %9.1f %7.1f\n", "toggle v:wander(opts), table reused", lua_toggle_reused, ct,
           lua_toggle_reused / ct);
    printf("  %-44s %9.1f %9.1f %7.1f\n", "field read v.x", lua_field, cf, lua_field / cf);
    printf("  %-44s %9.1f %9s %7s\n", "field read v.data.t (per-vehicle table)", lua_data, "", "");
    printf("  %-44s %9.1f %9s %7s\n", "field read v.state", lua_state, "", "");
    printf("  %-44s %9.1f %9s %7s\n", "field read v.speed", lua_speed, "", "");
    printf("  %-44s %9.1f %9s %7s\n", "field read v.max_speed (full state copy)", lua_max_speed, "", "");
    printf("  %-44s %9.1f %9s %7s\n", "method lookup v.seek", lua_method, "", "");
    printf("  %-44s %9.1f %9s %7s\n", "(for scale: a plain Lua table read T.x)", lua_table_field, "", "");
    printf("  %-44s %9.1f %9.1f %7.1f\n", "world:closest(v, 'prey', 100) (spatial grid)", lua_closest, cc,
           lua_closest / cc);
    lua_close(L);
    return 0;
}
