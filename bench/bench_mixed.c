/* SPDX-License-Identifier: MIT */
/* bench_mixed.c - what a mixed-kind world's step costs against a one-kind flock at the same
 * neighbour count, in the same process, repetitions alternating (make bench-mixed).
 *
 * The hunter/prey scene of bench/brains/hunt_10k.lua, brains in C: a fifth of the vehicles are
 * hunters (wander; pursue the closest prey within 150 for at most 4 s; rest 2 s), the others prey
 * (flock with prey only - flock_kinds 0, their own kind - and evade the closest hunter within 100,
 * weight 3). Each vehicle thinks every sixth step, a sixth of them at each step, as brains at
 * 10 Hz do; the thinking is not timed, only steer_world_step. The hunters' phases are spread over
 * their 6 s cycle (make_scene), so that about two thirds of them are pursuing at any time. Against it: a one-kind flock
 * (every vehicle flocks) of as many vehicles in a square 1.25 times as large, so that flockers stand as thick as the
 * prey do - the same neighbour count - measured at two densities: the scene's own (10,000 in 6,000 x 6,000: about 2
 * neighbours once flocks form) and about 15 neighbours (the density of make bench-flocking).
 *
 * Figures are CPU time per vehicle-step, one thread, medians of alternating repetitions; the
 * mean neighbour count of each (prey only in the scene) is printed beside them.
 *
 * Then (without N) the same at 100,000 vehicles, hunt_10k.lua's density, on 2 threads: wall time,
 * as a game steps it (issue #28's scene; 6 steps a repetition).
 *
 * usage: bench_mixed [N]   (default 10000, and the 100,000 row)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_support.h"
#include "steer/steer.h"

#define RADIUS 30.0
#define HUNTER 1u
#define PREY 2u
#define REPETITIONS 9
#define THINK_EVERY 6 /* steps between two thinks of a vehicle: 10 Hz at 60 Hz */

typedef enum Mode { WANDER, PURSUE, REST, FLOCK, EVADE } Mode;

typedef struct Brain {
    SteerVehicleId id;
    bool hunter;
    Mode mode;
    double since; ///< world time the mode began
} Brain;

typedef struct Scene {
    SteerWorld *world;
    Brain *brains;
    int n;
    uint64_t steps;
    bool wall_clock; ///< time the steps by the wall (more than one thread), not by CPU time
} Scene;

static void must(SteerWorld *world, SteerResult result)
{
    if (result == STEER_OK) return;
    fprintf(stderr, "bench_mixed: %s\n", steer_world_last_error(world));
    exit(1);
}

static void set_wander(Scene *s, Brain *b)
{
    SteerBehaviourDef d = steer_default_behaviour_def(STEER_WANDER);
    d.wander.radius = 30;
    d.wander.distance = 60;
    d.wander.jitter = 80;
    must(s->world, steer_vehicle_set_behaviour(s->world, b->id, &d));
}

static void set_flock(Scene *s, Brain *b)
{
    SteerBehaviourDef d = steer_default_behaviour_def(STEER_FLOCK);
    must(s->world, steer_vehicle_set_behaviour(s->world, b->id, &d));
}

static void enter(Scene *s, Brain *b, Mode mode)
{
    SteerWorld *w = s->world;
    switch (b->mode) { /* exit */
    case WANDER: must(w, steer_vehicle_clear_behaviour(w, b->id, STEER_WANDER)); break;
    case PURSUE: must(w, steer_vehicle_clear_behaviour(w, b->id, STEER_PURSUE)); break;
    case REST: must(w, steer_vehicle_clear_behaviour(w, b->id, STEER_ARRIVE)); break;
    case EVADE: must(w, steer_vehicle_clear_behaviour(w, b->id, STEER_EVADE)); break;
    case FLOCK: break;
    }
    b->mode = mode;
    b->since = steer_world_time(w);
    if (mode == WANDER) set_wander(s, b);
    if (mode == FLOCK) set_flock(s, b);
    if (mode == REST) {
        SteerBehaviourDef d = steer_default_behaviour_def(STEER_ARRIVE);
        d.arrive.target.kind = STEER_TARGET_POINT;
        d.arrive.target.point = steer_vehicle_position(w, b->id);
        must(w, steer_vehicle_set_behaviour(w, b->id, &d));
    }
}

/// The closest vehicle of `kind` within `range` of b (itself left out).
static bool closest(Scene *s, const Brain *b, uint32_t kind, double range, SteerVehicleId *out)
{
    SteerQueryFilter f = steer_default_query_filter();
    f.kinds = 1ULL << kind;
    f.exclude = b->id;
    return steer_world_query_closest(s->world, steer_vehicle_position(s->world, b->id), range, &f, out);
}

/// What hunt_10k.lua's machines do at a think.
static void think(Scene *s, Brain *b)
{
    SteerWorld *w = s->world;
    SteerVehicleId other;
    double in_mode = steer_world_time(w) - b->since;
    switch (b->mode) {
    case WANDER:
        if (closest(s, b, PREY, 150, &other)) enter(s, b, PURSUE);
        break;
    case PURSUE:
        if (!closest(s, b, PREY, 150, &other)) {
            enter(s, b, WANDER);
        } else if (in_mode > 4) {
            enter(s, b, REST);
        } else {
            SteerBehaviourDef d = steer_default_behaviour_def(STEER_PURSUE);
            d.pursue.target.kind = STEER_TARGET_VEHICLE;
            d.pursue.target.vehicle = other;
            must(w, steer_vehicle_set_behaviour(w, b->id, &d));
        }
        break;
    case REST:
        if (in_mode > 2) enter(s, b, WANDER);
        break;
    case FLOCK:
        if (closest(s, b, HUNTER, 100, &other)) enter(s, b, EVADE);
        break;
    case EVADE:
        if (!closest(s, b, HUNTER, 100, &other)) {
            enter(s, b, FLOCK);
        } else {
            SteerBehaviourDef d = steer_default_behaviour_def(STEER_EVADE);
            d.weight = 3;
            d.evade.target.kind = STEER_TARGET_VEHICLE;
            d.evade.target.vehicle = other;
            must(w, steer_vehicle_set_behaviour(w, b->id, &d));
        }
        break;
    }
}

/// The hunter/prey scene (hunters) or a one-kind flock (!hunters) of n vehicles in a side x side
/// wrapping square, stepped on `threads` threads.
static Scene make_scene(int n, double side, bool hunters, int threads)
{
    SteerWorldDef wd = steer_default_world_def();
    wd.width = wd.height = side;
    wd.edges = STEER_EDGES_WRAP;
    wd.seed = 11;
    wd.threads = threads;
    Scene s = {steer_world_create(&wd), calloc((size_t)n, sizeof(Brain)), n, 0, threads > 1};
    if (!s.world || !s.brains) exit(1);
    for (int i = 0; i < n; i++) {
        Brain *b = &s.brains[i];
        b->hunter = hunters && (i + 1) % 5 == 0;
        SteerVehicleDef def = steer_default_vehicle_def();
        def.position = steer_vec2(steer_world_random(s.world) * side, steer_world_random(s.world) * side);
        def.kind = b->hunter ? HUNTER : PREY;
        def.max_speed = b->hunter ? 90 : 80;
        def.neighbor_radius = RADIUS;
        must(s.world, steer_vehicle_create(s.world, &def, &b->id));
        b->mode = FLOCK;
        if (b->hunter) {
            b->mode = WANDER;
            set_wander(&s, b);
            /* A hunter's cycle is 4 s of pursuit and 2 s of rest. Started together, as in
             * hunt_10k.lua, they would keep in step, and a repetition would time all of them
             * pursuing or all resting: their phases are spread evenly over the cycle instead, so
             * that every repetition times the same mix. */
            double phase = (double)((i / 5) % 60) / 10.0; /* 0 to 5.9 s into the cycle */
            enter(&s, b, phase < 4.0 ? PURSUE : REST);
            b->since = -(phase < 4.0 ? phase : phase - 4.0);
        } else {
            set_flock(&s, b);
        }
    }
    return s;
}

/// `steps` steps, the sixth of the brains whose turn it is thinking before each (not timed);
/// ns of CPU time (wall time on more than one thread) per vehicle-step.
static double run(Scene *s, int steps, bool brains)
{
    double spent = 0.0;
    for (int k = 0; k < steps; k++) {
        if (brains)
            for (int i = (int)(s->steps % THINK_EVERY); i < s->n; i += THINK_EVERY) think(s, &s->brains[i]);
        double start = s->wall_clock ? bench_wall_seconds() : bench_cpu_seconds();
        steer_world_step(s->world);
        spent += (s->wall_clock ? bench_wall_seconds() : bench_cpu_seconds()) - start;
        s->steps++;
    }
    return spent * 1e9 / ((double)steps * s->n);
}

/// Mean neighbour count of the vehicles that flock (a sample), and the share of the scene's prey
/// evading and hunters pursuing.
static double neighbours(const Scene *s, double *evading, double *pursuing)
{
    double total = 0.0;
    int sampled = 0, prey = 0, hunters = 0, evade = 0, pursue = 0;
    for (int i = 0; i < s->n; i++) {
        const Brain *b = &s->brains[i];
        if (b->hunter) {
            hunters++;
            pursue += b->mode == PURSUE;
            continue;
        }
        prey++;
        evade += b->mode == EVADE;
        if (i % 7 == 0) {
            total += steer_world_query_neighbors(s->world, b->id, -1.0, NULL, 0);
            sampled++;
        }
    }
    *evading = prey ? (double)evade / prey : 0.0;
    *pursuing = hunters ? (double)pursue / hunters : 0.0;
    return total / sampled;
}

static void destroy(Scene *s)
{
    steer_world_destroy(s->world);
    free(s->brains);
}

/// The scene at n vehicles in side x side against the one-kind flock at the same density of
/// flockers; returns the ratio of the medians (scene / flock).
static double compare(int n, double side, int steps, int threads, const char *label)
{
    Scene hunt = make_scene(n, side, true, threads), flock = make_scene(n, side * sqrt(1.25), false, threads);
    run(&hunt, 120, true); /* warm: flocks form, hunters find prey */
    run(&flock, 120, false);
    double h[REPETITIONS], f[REPETITIONS];
    for (int r = 0; r < REPETITIONS; r++) {
        h[r] = run(&hunt, steps, true);
        f[r] = run(&flock, steps, false);
    }
    double evading, pursuing, unused;
    double hn = neighbours(&hunt, &evading, &pursuing), fn = neighbours(&flock, &unused, &unused);
    double mh = bench_median(h, REPETITIONS), mf = bench_median(f, REPETITIONS);
    printf("%s N=%d: hunter/prey %.1f ns/vehicle-step, %.2f ms a step (at the end: prey %.1f neighbours, %.0f %% "
           "evading, hunters %.0f %% pursuing), one-kind flock %.1f ns/vehicle-step, %.2f ms a step (%.1f neighbours): "
           "%.2fx (target <= 1.2x; medians of %d x %d steps, alternating; hunt %.1f..%.1f, flock %.1f..%.1f)\n",
           label, n, mh, mh * n * 1e-6, hn, 100 * evading, 100 * pursuing, mf, mf * n * 1e-6, fn, mh / mf, REPETITIONS,
           steps, h[0], h[REPETITIONS - 1], f[0], f[REPETITIONS - 1]);
    fflush(stdout);
    destroy(&hunt);
    destroy(&flock);
    return mh / mf;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    if (n < 100) n = 100;
    printf("mixed kinds: the hunter/prey scene's step against a one-kind flock at the same neighbour count, one "
           "thread, CPU time\n");
    /* hunt_10k.lua's density: 10,000 vehicles in 6,000 x 6,000 */
    double sparse = 6000.0 * sqrt(n / 10000.0);
    /* about 15 neighbours for the prey, uniformly spread: 0.8 n / side² · π r² = 15 */
    double dense = sqrt(0.8 * n * STEER_PI * RADIUS * RADIUS / 15.0);
    int steps = n >= 50000 ? 6 : 60;
    double r1 = compare(n, sparse, steps, 1, "sparse (hunt_10k.lua)");
    double r2 = compare(n, dense, steps, 1, "dense (~15 neighbours)");
    printf("hunter/prey vs one-kind flock: %.2fx sparse, %.2fx dense (target <= 1.2x)\n", r1, r2);
    if (argc > 1) return 0;
    /* The physics of issue #28's 100,000 (bench-brains' scene at its density), as a game steps it. */
    printf("100,000 vehicles on 2 threads, wall time:\n");
    double r3 = compare(100000, 6000.0 * sqrt(10.0), 6, 2, "sparse (hunt_10k.lua's density), 2 threads");
    printf("hunter/prey vs one-kind flock at 100,000 on 2 threads: %.2fx\n", r3);
    return 0;
}
