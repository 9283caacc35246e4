/* SPDX-License-Identifier: MIT */
/* crowd_scene.h - the standard crowd benchmark, shared by tests/c/test_orca.c and
 * bench/bench_crowd.c: N vehicles spaced on a circle, each crossing to the antipodal point (vehicle
 * radius 8, max speed 60, dt 1/60). A vehicle has arrived when within its radius of its goal; an
 * overlap is two vehicles closer than 0.9 of the sum of their radii.
 *
 * Two ways to cross: reciprocal avoidance (arrive + orca{horizon = 2, obstacle_horizon = 1,
 * max_neighbors = 10, range = 80}), and the older steering (arrive + separate + avoid_collisions)
 * as the baseline.
 */
#ifndef STEER_CROWD_SCENE_H
#define STEER_CROWD_SCENE_H

#include <stdbool.h>
#include <stdlib.h>

#include "steer/steer.h"

typedef enum CrowdMethod { CROWD_ORCA, CROWD_STEERING } CrowdMethod;

typedef struct CrowdScene {
    SteerWorld *world;
    int count;
    SteerVehicleId *ids;
    SteerVec2 *goals;
    SteerVec2 *positions; ///< this step's, filled by crowd_measure
    int *order;           ///< scratch for the overlap sweep
    bool *arrived;
} CrowdScene;

/// What one step showed.
typedef struct CrowdStep {
    int arrived;    ///< vehicles within their radius of their goal
    int overlaps;   ///< pairs closer than 0.9 of the sum of their radii
    double closest; ///< the smallest centre distance seen between two vehicles
} CrowdStep;

#define CROWD_RADIUS 8.0
#define CROWD_SPEED 60.0

/// The circle scene: `count` vehicles on a circle of radius `circle` around (0, 0), each heading
/// for the antipode, on `threads` threads. NULL world on failure.
static inline CrowdScene crowd_circle(int count, double circle, CrowdMethod method, int threads)
{
    CrowdScene s = {0};
    SteerWorldDef wd = steer_default_world_def();
    wd.width = wd.height = 4.0 * circle + 400.0;
    wd.edges = STEER_EDGES_NONE;
    wd.threads = threads;
    s.world = steer_world_create(&wd);
    s.count = count;
    s.ids = calloc((size_t)count, sizeof *s.ids);
    s.goals = calloc((size_t)count, sizeof *s.goals);
    s.positions = calloc((size_t)count, sizeof *s.positions);
    s.order = calloc((size_t)count, sizeof *s.order);
    s.arrived = calloc((size_t)count, sizeof *s.arrived);
    if (!s.world || !s.ids || !s.goals || !s.positions || !s.order || !s.arrived) {
        if (s.world) steer_world_destroy(s.world);
        s.world = NULL;
        return s;
    }
    SteerBehaviourDef arrive = steer_default_behaviour_def(STEER_ARRIVE);
    arrive.arrive.slowing_radius = 20.0;
    SteerBehaviourDef orca = steer_default_behaviour_def(STEER_ORCA);
    orca.orca.horizon = 2.0;
    orca.orca.obstacle_horizon = 1.0;
    orca.orca.max_neighbors = 10;
    orca.orca.range = 80.0;
    SteerBehaviourDef separate = steer_default_behaviour_def(STEER_SEPARATE);
    SteerBehaviourDef avoid = steer_default_behaviour_def(STEER_AVOID_COLLISIONS);
    avoid.weight = 2.0;
    for (int i = 0; i < count; i++) {
        double angle = 2.0 * STEER_PI * i / count;
        SteerVec2 at = steer_scale(steer_vec2(cos(angle), sin(angle)), circle);
        SteerVehicleDef vd = steer_default_vehicle_def();
        vd.position = at;
        vd.heading = angle + STEER_PI;
        vd.radius = CROWD_RADIUS;
        vd.max_speed = CROWD_SPEED;
        if (method == CROWD_ORCA) {
            /* The preferred velocity is arrive's desired one (response_time = dt) and the velocity may
             * change by up to max_speed in a step: the model ORCA's guarantees are stated for. */
            vd.max_force = CROWD_SPEED / wd.dt;
            vd.response_time = wd.dt;
            vd.neighbor_radius = 80.0;
        } else {
            vd.max_force = 600.0;
            vd.neighbor_radius = 40.0;
        }
        s.goals[i] = steer_neg(at);
        arrive.arrive.target = steer_target_point(s.goals[i].x, s.goals[i].y);
        bool ok = steer_vehicle_create(s.world, &vd, &s.ids[i]) == STEER_OK &&
                  steer_vehicle_set_behaviour(s.world, s.ids[i], &arrive) == STEER_OK;
        if (ok && method == CROWD_ORCA) ok = steer_vehicle_set_behaviour(s.world, s.ids[i], &orca) == STEER_OK;
        if (ok && method == CROWD_STEERING)
            ok = steer_vehicle_set_behaviour(s.world, s.ids[i], &separate) == STEER_OK &&
                 steer_vehicle_set_behaviour(s.world, s.ids[i], &avoid) == STEER_OK;
        if (!ok) {
            steer_world_destroy(s.world);
            s.world = NULL;
            return s;
        }
    }
    return s;
}

static inline void crowd_free(CrowdScene *s)
{
    if (s->world) steer_world_destroy(s->world);
    free(s->ids);
    free(s->goals);
    free(s->positions);
    free(s->order);
    free(s->arrived);
    s->world = NULL;
}

static const SteerVec2 *crowd_sort_positions;
static inline int crowd_by_x(const void *a, const void *b)
{
    double x = crowd_sort_positions[*(const int *)a].x, y = crowd_sort_positions[*(const int *)b].x;
    return (x > y) - (x < y);
}

/// Arrivals and overlaps where the vehicles are now (a sweep along x: no pair loop over everyone).
static inline CrowdStep crowd_measure(CrowdScene *s)
{
    CrowdStep m = {0, 0, 1e300};
    for (int i = 0; i < s->count; i++) {
        s->positions[i] = steer_vehicle_position(s->world, s->ids[i]);
        s->order[i] = i;
        if (steer_distance_sq(s->positions[i], s->goals[i]) <= CROWD_RADIUS * CROWD_RADIUS) s->arrived[i] = true;
        if (s->arrived[i]) m.arrived++;
    }
    crowd_sort_positions = s->positions;
    qsort(s->order, (size_t)s->count, sizeof *s->order, crowd_by_x);
    double touch = 2.0 * CROWD_RADIUS;
    for (int a = 0; a < s->count; a++) {
        SteerVec2 p = s->positions[s->order[a]];
        for (int b = a + 1; b < s->count; b++) {
            SteerVec2 q = s->positions[s->order[b]];
            if (q.x - p.x >= touch) break;
            double d = steer_distance(p, q);
            if (d < m.closest) m.closest = d;
            if (d < 0.9 * touch) m.overlaps++;
        }
    }
    return m;
}

/// A whole crossing: stepped until everyone has arrived or `max_steps` passed.
typedef struct CrowdRun {
    int arrived;       ///< vehicles that reached their goal (and count as arrived from then on)
    int last_step;     ///< the step at which the last one arrived (or max_steps)
    int overlap_steps; ///< steps after which some pair overlapped
    double closest;    ///< the closest two vehicles ever came
    int steps;         ///< steps taken
} CrowdRun;

static inline CrowdRun crowd_cross(CrowdScene *s, int max_steps)
{
    CrowdRun r = {0, max_steps, 0, 1e300, 0};
    for (int step = 1; step <= max_steps; step++) {
        steer_world_step(s->world);
        CrowdStep m = crowd_measure(s);
        r.steps = step;
        if (m.overlaps > 0) r.overlap_steps++;
        if (m.closest < r.closest) r.closest = m.closest;
        r.arrived = m.arrived;
        if (m.arrived == s->count) {
            r.last_step = step;
            break;
        }
    }
    return r;
}

#endif
