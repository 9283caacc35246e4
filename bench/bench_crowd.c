/* SPDX-License-Identifier: MIT */
/* bench_crowd.c - crowds (make bench-crowd): the standard circle test - N vehicles of radius 8 and
 * max speed 60 on a circle, each crossing to the antipode, dt 1/60 (tests/c/crowd_scene.h) - with
 * reciprocal avoidance (orca) and, in the same run, the older steering (arrive + separate +
 * avoid_collisions) as the baseline; two streams of 200 crossing at right angles, and a room of
 * 400 emptied through a door four and eight vehicles wide, the same two ways; then the cost of orca
 * in a dense crowd of 10,000 (about 10 neighbours each) on 1 and 2 threads.
 *
 * Per crowd: how many arrived, when the last did (and the straight line's time, the lower bound,
 * and the reference implementation's, RVO2's, where the issue gives it), how many were stuck (not
 * arrived and slower than a twentieth of max_speed) for more than 2 s at a time and the longest
 * anyone was, steps with an overlap (two closer than 0.9 of the sum of their radii), the closest
 * two came, and the step's cost: the median over the steps of the step's CPU time, per vehicle
 * (two threads: wall time). Never part of make test.
 *
 * usage: bench_crowd [quick]   (quick: 100 and 250 only, no 1,000, a shorter dense run)
 *        bench_crowd dense [steps]   (only the dense crowd on one thread: for a profiler)
 *        bench_crowd crowds   (only the two streams and the doorway)
 *        bench_crowd threads [rounds]   (the dense crowd on 1 and 2 threads, alternating: wall clock, CPU time)
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

/// Steps scene `s` until everyone has arrived or `max_steps` passed; prints a row of the table.
static void run(CrowdScene *s, const char *scene, const char *name, double straight, double reference, int max_steps)
{
    if (!s->world) {
        fprintf(stderr, "bench_crowd: cannot make the scene\n");
        exit(1);
    }
    double *times = malloc((size_t)max_steps * sizeof *times);
    if (!times) exit(1);
    CrowdRun r = {0, max_steps, 0, 1e300, 0, 0, 0};
    for (int step = 1; step <= max_steps; step++) {
        double t0 = bench_cpu_seconds();
        steer_world_step(s->world);
        times[step - 1] = bench_cpu_seconds() - t0;
        CrowdStep m = crowd_measure(s);
        crowd_note_stuck(s, &r, m);
        r.steps = step;
        if (m.overlaps > 0) r.overlap_steps++;
        if (m.closest < r.closest) r.closest = m.closest;
        r.arrived = m.arrived;
        if (m.arrived == s->count) {
            r.last_step = step;
            break;
        }
    }
    double per = bench_median(times, r.steps) * 1e6 / s->count;
    char last[32], ref[32], line[32];
    if (r.arrived == s->count)
        snprintf(last, sizeof last, "%.1f s", r.last_step / 60.0);
    else
        snprintf(last, sizeof last, "> %.0f s", max_steps / 60.0);
    if (reference > 0.0)
        snprintf(ref, sizeof ref, "%.1f s", reference);
    else
        snprintf(ref, sizeof ref, "-");
    if (straight > 0.0)
        snprintf(line, sizeof line, "%.1f s", straight);
    else
        snprintf(line, sizeof line, "-");
    printf("| %-16s | %-16s | %4d/%-4d | %-8s | %-8s | %-7s | %5d | %6.1f s | %5d | %7.2f | %6.2f |\n", scene, name,
           r.arrived, s->count, last, line, ref, r.stuck_long, r.stuck / 60.0, r.overlap_steps, r.closest, per);
    fflush(stdout);
    free(times);
    crowd_free(s);
}

static void cross(const Case *c, CrowdMethod method, const char *name)
{
    CrowdScene s = crowd_circle(c->count, c->circle, method, 1);
    double straight = (2.0 * c->circle - 2.0 * CROWD_RADIUS) / CROWD_SPEED;
    char scene[32];
    snprintf(scene, sizeof scene, "circle %d, r %.0f", c->count, c->circle);
    run(&s, scene, name, straight, c->reference, (int)(3.0 * straight * 60.0) + 1200);
}

/// A dense crowd: `count` vehicles with orca in a square sized for about 10 neighbours within 80
/// units each, every one heading for a random point; the median step's time per vehicle: the CPU
/// time of all the process's threads, or the wall clock's when `wall`.
static double dense_clock(int count, int threads, int steps, bool wall)
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
    bool cpu = !wall;
    for (int s = 0; s < steps; s++) {
        double t0 = cpu ? bench_cpu_seconds() : bench_wall_seconds();
        steer_world_step(world);
        times[s] = (cpu ? bench_cpu_seconds() : bench_wall_seconds()) - t0;
    }
    double per = bench_median(times, steps) * 1e6 / count;
    free(times);
    steer_world_destroy(world);
    return per;
}

/// One thread: its CPU time (what the step costs, whatever else the machine runs); more: the wall
/// clock (what they save).
static double dense(int count, int threads, int steps) { return dense_clock(count, threads, steps, threads > 1); }

/// The dense crowd's step per vehicle by the process's CPU time (all its threads together).
static double dense_cpu(int count, int threads, int steps) { return dense_clock(count, threads, steps, false); }

/// `rounds` of the dense crowd on 1 thread then 2: by the wall clock, the medians of each and their
/// ratio (a shared machine's load shows in both alike); and by the CPU time of all the process's
/// threads, how much work the two threads do together against the one (1.0: none lost to
/// splitting the step - the most two idle cores could then give is 2x less what the step does on
/// one thread only).
static void threads_ratio(int rounds)
{
    double *one = malloc((size_t)rounds * sizeof *one), *two = malloc((size_t)rounds * sizeof *two);
    double *cpu_one = malloc((size_t)rounds * sizeof *cpu_one), *cpu_two = malloc((size_t)rounds * sizeof *cpu_two);
    if (!one || !two || !cpu_one || !cpu_two) exit(1);
    for (int r = 0; r < rounds; r++) {
        one[r] = dense_clock(10000, 1, 60, true);
        two[r] = dense_clock(10000, 2, 60, true);
        cpu_one[r] = dense_cpu(10000, 1, 60);
        cpu_two[r] = dense_cpu(10000, 2, 60);
    }
    double a = bench_median(one, rounds), b = bench_median(two, rounds);
    double ca = bench_median(cpu_one, rounds), cb = bench_median(cpu_two, rounds);
    printf("dense crowd of 10000, %d alternating rounds: wall clock %.2f us per vehicle-step on 1 thread, %.2f on 2 "
           "(%.2fx); CPU time of all threads %.2f on 1, %.2f on 2 (the two do %.2fx the work of one)\n",
           rounds, a, b, a / b, ca, cb, cb / ca);
    free(one);
    free(two);
    free(cpu_one);
    free(cpu_two);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "threads") == 0) {
        threads_ratio(argc > 2 ? atoi(argv[2]) : 5);
        return 0;
    }
    bool quick = argc > 1 && strcmp(argv[1], "quick") == 0;
    if (argc > 1 && strcmp(argv[1], "dense") == 0) {
        double one = dense(10000, 1, argc > 2 ? atoi(argv[2]) : 60);
        printf("dense crowd of 10000: %.2f us per vehicle-step on 1 thread\n", one);
        return 0;
    }
    /* 1,000: the circle whose start spacing is 1.6 diameters (25.6 units) */
    const Case cases[] = {{100, 450.0, 25.9}, {250, 600.0, 45.5}, {1000, 4075.0, 0.0}};
    bool crowds_only = argc > 1 && strcmp(argv[1], "crowds") == 0;
    int count = crowds_only ? 0 : quick ? 2 : 3;
    printf("crowds of vehicles of radius 8, max speed 60, dt 1/60; overlap = closer than 14.4; stuck = not arrived "
           "and slower than %.0f units/s; step cost = median step, CPU time, one thread\n\n",
           CROWD_STUCK_SPEED);
    printf("| scene            | method           |  arrived | last     | straight | RVO2    | stuck > 2 s | "
           "longest stuck | overlap steps | closest | us/vehicle-step |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < count; i++) {
        cross(&cases[i], CROWD_ORCA, "orca");
        cross(&cases[i], CROWD_STEERING, "avoid_collisions");
    }
    const CrowdMethod methods[] = {CROWD_ORCA, CROWD_STEERING};
    const char *names[] = {"orca", "avoid_collisions"};
    for (int k = 0; k < 2; k++) {
        /* each goes 1,800 units straight ahead */
        CrowdScene s = crowd_streams(200, methods[k], 1);
        run(&s, "2 streams x 200", names[k], (1800.0 - CROWD_RADIUS) / CROWD_SPEED, 0.0, 120 * 60);
    }
    /* a door four vehicles wide, and one eight wide */
    for (int d = 4; d <= 8; d += 4) {
        for (int k = 0; k < 2; k++) {
            CrowdScene s = crowd_doorway(400, d * 2.0 * CROWD_RADIUS, methods[k], 1);
            char scene[32];
            snprintf(scene, sizeof scene, "door %d wide, 400", d);
            run(&s, scene, names[k], 0.0, 0.0, 240 * 60);
        }
    }
    if (crowds_only) return 0;
    int n = 10000, steps = quick ? 20 : 60;
    double one = dense(n, 1, steps);
    double two = dense(n, 2, steps);
    printf("\ndense crowd of %d with orca (about 10 neighbours within 80 each): %.2f us per vehicle-step on 1 "
           "thread, %.2f on 2 (%.2fx)\n",
           n, one, two, one / two);
    return 0;
}
