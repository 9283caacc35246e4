/* SPDX-License-Identifier: MIT */
/* bench_walls.c - what the wall grid saves: 1,000 vehicles avoiding walls (and wandering) among
 * 500 walls in a wrapping world, stepped with the wall grid and with the full scan of every wall
 * (world->wall_grid_off, the switch the tests compare against), in alternating repetitions of the
 * same process so that both meet the same load on a shared machine. Both worlds move identically
 * (tests/c/test_wall_grid.c); only the time differs.
 *
 * Times are the process's CPU time; each figure is the median repetition, in ns per vehicle-step.
 *
 * usage: bench_walls
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_support.h"
#include "steer/steer.h"
#include "world_internal.h" /* wall_grid_off: the full scan, for the baseline */

#define VEHICLES 1000
#define WALLS 500
#define SIDE 2000.0
#define STEPS 20
#define REPETITIONS 5

/// 500 walls of 20-200 units in random directions and 1,000 wandering vehicles feeling for them
/// (default feelers: 50 units); the same scene for the same seed.
static SteerWorld *make_scene(bool full_scan)
{
    SteerWorldDef wd = steer_default_world_def();
    wd.width = wd.height = SIDE;
    wd.edges = STEER_EDGES_WRAP;
    wd.seed = 7;
    SteerWorld *world = steer_world_create(&wd);
    if (!world) exit(1);
    world->wall_grid_off = full_scan;
    for (int i = 0; i < WALLS; i++) {
        SteerVec2 a = steer_vec2(SIDE * steer_world_random(world), SIDE * steer_world_random(world));
        SteerVec2 d = steer_scale(steer_vec2_from_angle(2.0 * STEER_PI * steer_world_random(world)),
                                  20.0 + 180.0 * steer_world_random(world));
        if (steer_world_add_wall(world, a, steer_add(a, d), NULL) != STEER_OK) exit(1);
    }
    SteerBehaviourDef walls = steer_default_behaviour_def(STEER_AVOID_WALLS);
    SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
    for (int i = 0; i < VEHICLES; i++) {
        SteerVehicleDef vd = steer_default_vehicle_def();
        vd.position = steer_vec2(SIDE * steer_world_random(world), SIDE * steer_world_random(world));
        vd.heading = 2.0 * STEER_PI * steer_world_random(world);
        SteerVehicleId id;
        if (steer_vehicle_create(world, &vd, &id) != STEER_OK) exit(1);
        if (steer_vehicle_set_behaviour(world, id, &walls) != STEER_OK) exit(1);
        if (steer_vehicle_set_behaviour(world, id, &wander) != STEER_OK) exit(1);
    }
    for (int s = 0; s < 10; s++) steer_world_step(world); /* warm: caches, grids */
    return world;
}

static double time_steps(SteerWorld *world)
{
    double start = bench_cpu_seconds();
    for (int s = 0; s < STEPS; s++) steer_world_step(world);
    return (bench_cpu_seconds() - start) * 1e9 / ((double)STEPS * VEHICLES);
}

int main(void)
{
    SteerWorld *grid = make_scene(false), *scan = make_scene(true);
    double with_grid[REPETITIONS], with_scan[REPETITIONS];
    for (int r = 0; r < REPETITIONS; r++) {
        with_scan[r] = time_steps(scan);
        with_grid[r] = time_steps(grid);
    }
    double g = bench_median(with_grid, REPETITIONS), s = bench_median(with_scan, REPETITIONS);
    printf("avoid_walls + wander, %d vehicles, %d walls, wrapping %gx%g, median of %d x %d steps:\n", VEHICLES, WALLS,
           SIDE, SIDE, REPETITIONS, STEPS);
    printf("  full scan of every wall: %8.0f ns per vehicle-step\n", s);
    printf("  wall grid:               %8.0f ns per vehicle-step (%.1fx faster)\n", g, s / g);
    steer_world_destroy(grid);
    steer_world_destroy(scan);
    return 0;
}
