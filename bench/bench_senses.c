/* SPDX-License-Identifier: MIT */
/* bench_senses.c - what senses cost in the core (issue #28), each figure against a baseline
 * measured in the same process, in alternating repetitions so that both meet the same load:
 *
 *   1. steer_world_line_of_sight between a vehicle and a point up to 150 units away, among 10,000
 *      vehicles, 1,000 obstacles and 500 walls (6,000 x 6,000 units, wrapping), through the grids;
 *      baseline: the same test scanning every obstacle and wall (target: <= 2 us per check).
 *   2. The physics step of a hunter/prey scene like bench-brains' (1 in 5 hunters wandering, the
 *      prey flocking, no obstacle or wall) with senses - hunters see prey (150 units, 270
 *      degrees), prey see hunters (100 units, all round), both at 10 Hz, staggered - against the
 *      same scene without senses (target: at most 1.5x), at 10,000 vehicles (1 and 2 threads) and
 *      100,000 (2 threads); and at 10,000 among 1,000 obstacles and 500 walls, where every sighting
 *      is a line of sight through them. Then the same at 10,000 and 100,000 with the senses of the
 *      Lua event scene (bench/senses/hunt_senses.lua: one memory each, the closest, all round).
 *
 * Times are medians of the repetitions: CPU time on one thread, wall time on two.
 *
 * usage: bench_senses [--quick | --closest]   (--quick: fewer repetitions and no 100,000 run;
 *        --closest: only the event scene's senses, at 10,000 and 100,000, to compare two builds)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_support.h"
#include "steer/steer.h"
#include "world_internal.h" /* wall_grid_off / obstacles_stale: the full scan, for the baseline */

#define SIDE 6000.0
#define OBSTACLES 1000
#define WALLS 500
#define SIGHT 150.0

static void check(SteerResult r, const char *what)
{
    if (r != STEER_OK) {
        fprintf(stderr, "bench_senses: %s failed\n", what);
        exit(1);
    }
}

/// How the scene's senses are made: this file's (hunters see prey at 150 over 270 degrees, prey
/// hunters at 100 all round, 16 memories each, default neighbour radius), or the Lua event scene's
/// (bench/senses/hunt_senses.lua: both all round, one memory - the closest - forgotten at once,
/// neighbour radius 30).
static bool closest_only;

/// A hunter/prey world of `vehicles` (1 in 5 hunters, kind 1; prey kind 0), `obstacles` and
/// `walls` scattered over SIDE x SIDE; with senses when `senses`.
static SteerWorld *make_scene(int vehicles, int obstacles, int walls, bool senses, int threads, double side)
{
    SteerWorldDef wd = steer_default_world_def();
    wd.width = wd.height = side;
    wd.edges = STEER_EDGES_WRAP;
    wd.seed = 11;
    wd.threads = threads;
    SteerWorld *world = steer_world_create(&wd);
    if (!world) exit(1);
    for (int i = 0; i < obstacles; i++)
        check(steer_world_add_obstacle(world,
                                       steer_vec2(side * steer_world_random(world), side * steer_world_random(world)),
                                       10.0 + 30.0 * steer_world_random(world), NULL),
              "add_obstacle");
    for (int i = 0; i < walls; i++) {
        SteerVec2 a = steer_vec2(side * steer_world_random(world), side * steer_world_random(world));
        SteerVec2 d = steer_scale(steer_vec2_from_angle(2.0 * STEER_PI * steer_world_random(world)),
                                  20.0 + 180.0 * steer_world_random(world));
        check(steer_world_add_wall(world, a, steer_add(a, d), NULL), "add_wall");
    }
    SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
    SteerBehaviourDef flock = steer_default_behaviour_def(STEER_FLOCK);
    SteerSenseDef prey_sight = steer_default_sense_def(STEER_SENSE_SIGHT);
    prey_sight.name = "prey";
    prey_sight.kinds = 1u << 0;
    prey_sight.range = SIGHT;
    prey_sight.fov = 1.5 * STEER_PI;
    prey_sight.period = 0.1;
    SteerSenseDef threats = steer_default_sense_def(STEER_SENSE_SIGHT);
    threats.name = "threats";
    threats.kinds = 1u << 1;
    threats.range = 100.0;
    threats.fov = 2.0 * STEER_PI;
    threats.period = 0.1;
    if (closest_only) {
        prey_sight.fov = 2.0 * STEER_PI;
        prey_sight.max_memories = threats.max_memories = 1;
        prey_sight.forget_after = threats.forget_after = 0.0;
    }
    for (int i = 0; i < vehicles; i++) {
        bool hunter = i % 5 == 0;
        SteerVehicleDef vd = steer_default_vehicle_def();
        vd.position = steer_vec2(side * steer_world_random(world), side * steer_world_random(world));
        vd.heading = 2.0 * STEER_PI * steer_world_random(world);
        vd.velocity = steer_scale(steer_vec2_from_angle(vd.heading), 40.0);
        vd.kind = hunter ? 1 : 0;
        vd.max_speed = hunter ? 90.0 : 80.0;
        if (closest_only) vd.neighbor_radius = 30.0;
        SteerVehicleId id;
        check(steer_vehicle_create(world, &vd, &id), "vehicle_create");
        check(steer_vehicle_set_behaviour(world, id, hunter ? &wander : &flock), "set_behaviour");
        if (senses) check(steer_vehicle_add_sense(world, id, hunter ? &prey_sight : &threats, NULL), "add_sense");
    }
    for (int s = 0; s < 12; s++) steer_world_step(world); /* warm: caches, grids, memories */
    return world;
}

/* ---- 1. Line of sight ---------------------------------------------------------------------- */

#define LOS_CHECKS 200000

static double time_lines(SteerWorld *world, const SteerVec2 *from, const SteerVec2 *to, int *clear)
{
    double start = bench_cpu_seconds();
    int n = 0;
    for (int i = 0; i < LOS_CHECKS; i++) n += steer_world_line_of_sight(world, from[i], to[i], true, true);
    *clear = n;
    return (bench_cpu_seconds() - start) * 1e9 / LOS_CHECKS;
}

static void bench_line_of_sight(int repetitions)
{
    SteerWorld *grid = make_scene(10000, OBSTACLES, WALLS, false, 1, SIDE);
    SteerWorld *scan = make_scene(10000, OBSTACLES, WALLS, false, 1, SIDE);
    scan->wall_grid_off = true;
    SteerVehicleId *ids = malloc(10000 * sizeof *ids);
    SteerVec2 *from = malloc(LOS_CHECKS * sizeof *from), *to = malloc(LOS_CHECKS * sizeof *to);
    if (!ids || !from || !to) exit(1);
    int n = steer_world_get_vehicles(grid, ids, 10000);
    for (int i = 0; i < LOS_CHECKS; i++) {
        from[i] = steer_vehicle_position(grid, ids[steer_world_random_u32(grid) % (uint32_t)n]);
        double r = SIGHT * sqrt(steer_world_random(grid));
        to[i] = steer_add(from[i], steer_scale(steer_vec2_from_angle(2.0 * STEER_PI * steer_world_random(grid)), r));
    }
    double g[16], s[16];
    int clear_grid = 0, clear_scan = 0;
    for (int r = 0; r < repetitions; r++) {
        /* the baseline scans every obstacle too: its grid is left stale (senses.c scans then) */
        scan->obstacles_stale = true;
        s[r] = time_lines(scan, from, to, &clear_scan) * 1.0;
        g[r] = time_lines(grid, from, to, &clear_grid);
    }
    double mg = bench_median(g, repetitions), ms = bench_median(s, repetitions);
    printf("line of sight, 10,000 vehicles, %d obstacles, %d walls, %gx%g wrapping, segments up to %g units:\n",
           OBSTACLES, WALLS, SIDE, SIDE, SIGHT);
    printf("  scan of every obstacle and wall: %8.0f ns per check\n", ms);
    printf("  through the grids:               %8.0f ns per check (%.0fx faster; target <= 2000 ns)\n", mg, ms / mg);
    printf("  (%d of %d lines clear; the scan agrees: %s)\n", clear_grid, LOS_CHECKS,
           clear_grid == clear_scan ? "yes" : "NO");
    free(ids);
    free(from);
    free(to);
    steer_world_destroy(grid);
    steer_world_destroy(scan);
}

/* ---- 2. The step with senses --------------------------------------------------------------- */

static double time_steps(SteerWorld *world, int steps, bool wall_clock)
{
    double start = wall_clock ? bench_wall_seconds() : bench_cpu_seconds();
    for (int s = 0; s < steps; s++) steer_world_step(world);
    return ((wall_clock ? bench_wall_seconds() : bench_cpu_seconds()) - start) * 1e3 / steps;
}

static void bench_step(int vehicles, int threads, int steps, int repetitions, bool shapes)
{
    /* the density of bench-brains' 10,000 on 6,000 x 6,000 (which has no obstacle or wall), or
     * with those of the line-of-sight figure at the same density (`shapes`) */
    double side = SIDE * sqrt(vehicles / 10000.0);
    int obstacles = shapes ? (int)(OBSTACLES * vehicles / 10000.0) : 0;
    int walls = shapes ? (int)(WALLS * vehicles / 10000.0) : 0;
    SteerWorld *base = make_scene(vehicles, obstacles, walls, false, threads, side);
    SteerWorld *sensed = make_scene(vehicles, obstacles, walls, true, threads, side);
    double b[16], s[16];
    for (int r = 0; r < repetitions; r++) {
        b[r] = time_steps(base, steps, threads > 1);
        s[r] = time_steps(sensed, steps, threads > 1);
    }
    double mb = bench_median(b, repetitions), ms = bench_median(s, repetitions);
    int events = steer_world_get_sense_events(sensed, NULL, 0, 0);
    printf("step, %d hunters/prey%s, %d obstacles, %d walls, %d thread%s (%s time), median of %d x %d steps:\n",
           vehicles, closest_only ? " (senses of the Lua event scene: the closest only)" : "", obstacles, walls,
           threads, threads > 1 ? "s" : "", threads > 1 ? "wall" : "CPU", repetitions, steps);
    printf("  without senses: %7.3f ms per step\n", mb);
    printf("  with senses:    %7.3f ms per step (%.2fx; target <= 1.5x; %d events in the last step)\n", ms, ms / mb,
           events);
    steer_world_destroy(base);
    steer_world_destroy(sensed);
}

int main(int argc, char **argv)
{
    bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    /* --closest: the event scene's senses only (comparing two builds) */
    bool closest = argc > 1 && strcmp(argv[1], "--closest") == 0;
    int repetitions = quick ? 3 : 7;
    if (!closest) {
        bench_line_of_sight(repetitions);
        bench_step(10000, 1, 30, repetitions, false);
        bench_step(10000, 2, 30, repetitions, false);
        bench_step(10000, 1, 30, repetitions, true);
        if (!quick) bench_step(100000, 2, 10, 5, false);
    }
    closest_only = true;
    bench_step(10000, 1, 30, repetitions, false);
    if (!quick) bench_step(100000, 2, 10, 5, false);
    return 0;
}
