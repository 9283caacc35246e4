/* SPDX-License-Identifier: MIT */
/* bench_crowd.c - crowds (make bench-crowd): the standard circle test - N vehicles of radius 8 and
 * max speed 60 on a circle, each crossing to the antipode, dt 1/60 (tests/c/crowd_scene.h) - with
 * reciprocal avoidance (orca) and, in the same run, the older steering (arrive + separate +
 * avoid_collisions) as the baseline; then the cost of orca in a dense crowd of 10,000 (about 10
 * neighbours each) on 1 and 2 threads.
 *
 * Per crossing: how many arrived, when the last did (and the straight line's time, the lower bound,
 * and the reference implementation's, RVO2's, where the issue gives it), steps with an overlap
 * (two closer than 0.9 of the sum of their radii), the closest two came, and the step's cost: the
 * median over the steps of the step's CPU time, per vehicle (two threads: wall time). Never part of make test.
 *
 * usage: bench_crowd [quick]   (quick: 100 and 250 only, no 1,000, a shorter dense run)
 *        bench_crowd dense [steps]   (only the dense crowd on one thread: for a profiler)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/c/crowd_scene.h"
#include "bench_support.h"

typedef struct Case {
    int count;
    double circle;
    double reference; ///< RVO2's last arrival in s (0: none given)
} Case;

static void cross(const Case *c, CrowdMethod method, const char *name)
{
    CrowdScene s = crowd_circle(c->count, c->circle, method, 1);
    if (!s.world) {
        fprintf(stderr, "bench_crowd: cannot make the scene\n");
        exit(1);
    }
    double straight = (2.0 * c->circle - 2.0 * CROWD_RADIUS) / CROWD_SPEED;
    int max_steps = (int)(3.0 * straight * 60.0) + 1200;
    double *times = malloc((size_t)max_steps * sizeof *times);
    if (!times) exit(1);
    CrowdRun r = {0, max_steps, 0, 1e300, 0};
    for (int step = 1; step <= max_steps; step++) {
        double t0 = bench_cpu_seconds();
        steer_world_step(s.world);
        times[step - 1] = bench_cpu_seconds() - t0;
        CrowdStep m = crowd_measure(&s);
        r.steps = step;
        if (m.overlaps > 0) r.overlap_steps++;
        if (m.closest < r.closest) r.closest = m.closest;
        r.arrived = m.arrived;
        if (m.arrived == c->count) {
            r.last_step = step;
            break;
        }
    }
    double per = bench_median(times, r.steps) * 1e6 / c->count;
    char last[32], ref[32];
    if (r.arrived == c->count)
        snprintf(last, sizeof last, "%.1f s", r.last_step / 60.0);
    else
        snprintf(last, sizeof last, "> %.0f s", max_steps / 60.0);
    if (c->reference > 0.0)
        snprintf(ref, sizeof ref, "%.1f s", c->reference);
    else
        snprintf(ref, sizeof ref, "-");
    printf("| %5d | %5.0f | %-17s | %4d/%-5d | %-9s | %6.1f s | %-7s | %5d | %7.2f | %6.2f |\n", c->count, c->circle,
           name, r.arrived, c->count, last, straight, ref, r.overlap_steps, r.closest, per);
    fflush(stdout);
    free(times);
    crowd_free(&s);
}

/// A dense crowd: `count` vehicles with orca in a square sized for about 10 neighbours within 80
/// units each, every one heading for a random point; the median step's time per vehicle.
static double dense(int count, int threads, int steps)
{
    SteerWorldDef wd = steer_default_world_def();
    double side = sqrt(count * STEER_PI * 80.0 * 80.0 / 10.0);
    wd.width = wd.height = side;
    wd.edges = STEER_EDGES_NONE;
    wd.threads = threads;
    wd.seed = 3;
    SteerWorld *world = steer_world_create(&wd);
    if (!world) exit(1);
    SteerBehaviourDef arrive = steer_default_behaviour_def(STEER_ARRIVE);
    SteerBehaviourDef orca = steer_default_behaviour_def(STEER_ORCA);
    orca.orca.range = 80.0;
    for (int i = 0; i < count; i++) {
        SteerVehicleDef vd = steer_default_vehicle_def();
        vd.position = steer_vec2(side * steer_world_random(world), side * steer_world_random(world));
        vd.radius = CROWD_RADIUS;
        vd.max_speed = CROWD_SPEED;
        vd.max_force = CROWD_SPEED / wd.dt;
        vd.response_time = wd.dt;
        vd.neighbor_radius = 80.0;
        SteerVehicleId id;
        if (steer_vehicle_create(world, &vd, &id) != STEER_OK) exit(1);
        arrive.arrive.target = steer_target_point(side * steer_world_random(world), side * steer_world_random(world));
        if (steer_vehicle_set_behaviour(world, id, &arrive) != STEER_OK) exit(1);
        if (steer_vehicle_set_behaviour(world, id, &orca) != STEER_OK) exit(1);
    }
    for (int s = 0; s < 5; s++) steer_world_step(world); /* warm */
    double *times = malloc((size_t)steps * sizeof *times);
    if (!times) exit(1);
    /* one thread: the process's CPU time (what the step costs, whatever else the shared machine
     * runs); two: the wall clock */
    for (int s = 0; s < steps; s++) {
        double t0 = threads == 1 ? bench_cpu_seconds() : bench_wall_seconds();
        steer_world_step(world);
        times[s] = (threads == 1 ? bench_cpu_seconds() : bench_wall_seconds()) - t0;
    }
    double per = bench_median(times, steps) * 1e6 / count;
    free(times);
    steer_world_destroy(world);
    return per;
}

int main(int argc, char **argv)
{
    bool quick = argc > 1 && strcmp(argv[1], "quick") == 0;
    if (argc > 1 && strcmp(argv[1], "dense") == 0) {
        double one = dense(10000, 1, argc > 2 ? atoi(argv[2]) : 60);
        printf("dense crowd of 10000: %.2f us per vehicle-step on 1 thread\n", one);
        return 0;
    }
    /* 1,000: the circle whose start spacing is 1.6 diameters (25.6 units) */
    const Case cases[] = {{100, 450.0, 25.9}, {250, 600.0, 45.5}, {1000, 4075.0, 0.0}};
    int count = quick ? 2 : 3;
    printf("circle test: radius 8, max speed 60, dt 1/60, overlap = closer than 14.4; step cost = median step, "
           "CPU time, one thread\n\n");
    printf("|     N |  circle | method            |    arrived | last      | straight | RVO2    | "
           "overlap steps | closest | us/vehicle-step |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < count; i++) {
        cross(&cases[i], CROWD_ORCA, "orca");
        cross(&cases[i], CROWD_STEERING, "avoid_collisions");
    }
    int n = 10000, steps = quick ? 20 : 60;
    double one = dense(n, 1, steps);
    double two = dense(n, 2, steps);
    printf("\ndense crowd of %d with orca (about 10 neighbours within 80 each): %.2f us per vehicle-step on 1 "
           "thread, %.2f on 2 (%.2fx)\n",
           n, one, two, one / two);
    return 0;
}
