/* SPDX-License-Identifier: MIT */
/* crowd_scene.h - the standard crowd benchmark, shared by tests/c/test_orca.c and
 * bench/bench_crowd.c: N vehicles spaced on a circle, each crossing to the antipodal point (vehicle
 * radius 8, max speed 60, dt 1/60). A vehicle has arrived when within its radius of its goal; an
 * overlap is two vehicles closer than 0.9 of the sum of their radii.
 *
 * Two more crowds of the same vehicles: two streams that cross at right angles (crowd_streams), and
 * a room emptied through a door in a wall (crowd_doorway: each heads for a point past the door,
 * then, once through, for its own place on the far side). In them a vehicle is stuck while it has
 * not arrived and goes slower than CROWD_STUCK_SPEED; a crowd jams when someone stays stuck for
 * long (the benchmark's bound: 2 s).
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
    CrowdMethod method;
    SteerVehicleId *ids;
    SteerVec2 *goals;
    SteerVec2 *positions; ///< this step's, filled by crowd_measure
    int *order;           ///< scratch for the overlap sweep
    bool *arrived;
    int *still;       ///< steps each has been stuck in a row (not arrived, slower than CROWD_STUCK_SPEED)
    bool *stuck_long; ///< each has been stuck for more than 2 s at a time
    bool *through;    ///< crowd_doorway: past the door (heading for its own place), else NULL
    int passed;       ///< crowd_doorway: how many are through
    bool walls;       ///< the older steering avoids walls too (crowd_doorway)
} CrowdScene;

/// What one step showed.
typedef struct CrowdStep {
    int arrived;    ///< vehicles within their radius of their goal
    int overlaps;   ///< pairs closer than 0.9 of the sum of their radii
    double closest; ///< the smallest centre distance seen between two vehicles
    int stuck;      ///< the longest spell (steps) of any vehicle stuck until now, arrived or not
    int stuck_now;  ///< vehicles stuck now
} CrowdStep;

#define CROWD_RADIUS 8.0
#define CROWD_SPEED 60.0
/// Slower than this (units/s, a twentieth of max_speed) and not arrived: stuck.
#define CROWD_STUCK_SPEED (0.05 * CROWD_SPEED)

/// crowd_doorway: where a vehicle heads until it is through.
#define CROWD_DOOR_AIM 60.0

/// Allocates the scene's arrays for `count` vehicles and a world of the given size; false on failure.
static inline bool crowd_alloc(CrowdScene *s, int count, double size, int threads, CrowdMethod method)
{
    SteerWorldDef wd = steer_default_world_def();
    wd.width = wd.height = size;
    wd.edges = STEER_EDGES_NONE;
    wd.threads = threads;
    s->world = steer_world_create(&wd);
    s->count = count;
    s->method = method;
    s->ids = calloc((size_t)count, sizeof *s->ids);
    s->goals = calloc((size_t)count, sizeof *s->goals);
    s->positions = calloc((size_t)count, sizeof *s->positions);
    s->order = calloc((size_t)count, sizeof *s->order);
    s->arrived = calloc((size_t)count, sizeof *s->arrived);
    s->still = calloc((size_t)count, sizeof *s->still);
    s->stuck_long = calloc((size_t)count, sizeof *s->stuck_long);
    return s->world && s->ids && s->goals && s->positions && s->order && s->arrived && s->still && s->stuck_long;
}

/// A vehicle of the crowd at `at` facing `heading`, with the behaviours of `method` and (arrive or
/// seek) toward `goal`; false on failure.
static inline bool crowd_vehicle(CrowdScene *s, int i, SteerVec2 at, double heading, SteerVec2 goal, bool seek)
{
    double dt = steer_default_world_def().dt;
    SteerVehicleDef vd = steer_default_vehicle_def();
    vd.position = at;
    vd.heading = heading;
    vd.radius = CROWD_RADIUS;
    vd.max_speed = CROWD_SPEED;
    if (s->method == CROWD_ORCA) {
        /* The preferred velocity is arrive's desired one (response_time = dt) and the velocity may
         * change by up to max_speed in a step: the model ORCA's guarantees are stated for. */
        vd.max_force = CROWD_SPEED / dt;
        vd.response_time = dt;
        vd.neighbor_radius = 80.0;
    } else {
        vd.max_force = 600.0;
        vd.neighbor_radius = 40.0;
    }
    SteerBehaviourDef go = steer_default_behaviour_def(seek ? STEER_SEEK : STEER_ARRIVE);
    if (seek)
        go.seek.target = steer_target_point(goal.x, goal.y);
    else {
        go.arrive.target = steer_target_point(goal.x, goal.y);
        go.arrive.slowing_radius = 20.0;
    }
    if (steer_vehicle_create(s->world, &vd, &s->ids[i]) != STEER_OK) return false;
    if (steer_vehicle_set_behaviour(s->world, s->ids[i], &go) != STEER_OK) return false;
    if (s->method == CROWD_ORCA) {
        SteerBehaviourDef orca = steer_default_behaviour_def(STEER_ORCA);
        orca.orca.horizon = 2.0;
        orca.orca.obstacle_horizon = 1.0;
        orca.orca.max_neighbors = 10;
        orca.orca.range = 80.0;
        return steer_vehicle_set_behaviour(s->world, s->ids[i], &orca) == STEER_OK;
    }
    SteerBehaviourDef separate = steer_default_behaviour_def(STEER_SEPARATE);
    SteerBehaviourDef avoid = steer_default_behaviour_def(STEER_AVOID_COLLISIONS);
    avoid.weight = 2.0;
    SteerBehaviourDef walls = steer_default_behaviour_def(STEER_AVOID_WALLS);
    walls.weight = 3.0;
    walls.avoid_walls.feeler_length = 30.0;
    return steer_vehicle_set_behaviour(s->world, s->ids[i], &separate) == STEER_OK &&
           steer_vehicle_set_behaviour(s->world, s->ids[i], &avoid) == STEER_OK &&
           (!s->walls || steer_vehicle_set_behaviour(s->world, s->ids[i], &walls) == STEER_OK);
}

static inline void crowd_free(CrowdScene *s);

/// Two streams of `per_stream` vehicles each, in blocks of 10 abreast, 40 units apart (2.5
/// diameters), one going +x and one +y, timed to meet in a square around (0, 0); each vehicle's
/// goal is 1,800 units straight ahead of where it starts (30 s at max_speed). NULL world on failure.
static inline CrowdScene crowd_streams(int per_stream, CrowdMethod method, int threads)
{
    CrowdScene s = {0};
    bool ok = crowd_alloc(&s, 2 * per_stream, 6000.0, threads, method);
    for (int i = 0; ok && i < 2 * per_stream; i++) {
        int k = i % per_stream, across = k % 10, along = k / 10;
        double side = -180.0 + 40.0 * across, back = -440.0 - 40.0 * along;
        bool east = i < per_stream;
        SteerVec2 at = east ? steer_vec2(back, side) : steer_vec2(side, back);
        s.goals[i] = east ? steer_vec2(back + 1800.0, side) : steer_vec2(side, back + 1800.0);
        ok = crowd_vehicle(&s, i, at, east ? 0.0 : 0.5 * STEER_PI, s.goals[i], false);
    }
    if (!ok) crowd_free(&s);
    return s;
}

/// A room of `count` vehicles (rows of 20, 32 units apart: 2 diameters) emptied through a door
/// `door` units wide in a wall along x = 0; each seeks a point CROWD_DOOR_AIM past the door until
/// it is through, then arrives at its own place on the far side (crowd_measure hands those out,
/// the farthest first, in the order they come through). NULL world on failure.
static inline CrowdScene crowd_doorway(int count, double door, CrowdMethod method, int threads)
{
    CrowdScene s = {0};
    bool ok = crowd_alloc(&s, count, 6000.0, threads, method);
    s.through = ok ? calloc((size_t)count, sizeof *s.through) : NULL;
    ok = ok && s.through;
    s.walls = true;
    double half = 0.5 * door;
    ok = ok && steer_world_add_wall(s.world, steer_vec2(0.0, -2000.0), steer_vec2(0.0, -half), NULL) == STEER_OK &&
         steer_world_add_wall(s.world, steer_vec2(0.0, half), steer_vec2(0.0, 2000.0), NULL) == STEER_OK;
    for (int i = 0; ok && i < count; i++) {
        int across = i % 20, along = i / 20;
        SteerVec2 at = steer_vec2(-200.0 - 32.0 * along, -304.0 + 32.0 * across);
        ok = crowd_vehicle(&s, i, at, 0.0, steer_vec2(CROWD_DOOR_AIM, 0.0), true);
    }
    if (!ok) crowd_free(&s);
    return s;
}

/// crowd_doorway: once vehicle `i` is past the door, its own place on the far side (the k-th
/// through gets the k-th place: columns of 20, 40 apart, the farthest column first, so that nobody
/// has to cross those already standing).
static inline void crowd_send_through(CrowdScene *s, int i)
{
    int k = s->passed++, columns = (s->count + 19) / 20;
    double x = 200.0 + 40.0 * (columns - 1 - k / 20), y = -380.0 + 40.0 * (k % 20);
    s->through[i] = true;
    s->goals[i] = steer_vec2(x, y);
    SteerBehaviourDef arrive = steer_default_behaviour_def(STEER_ARRIVE);
    arrive.arrive.target = steer_target_point(x, y);
    arrive.arrive.slowing_radius = 20.0;
    steer_vehicle_clear_behaviour(s->world, s->ids[i], STEER_SEEK);
    steer_vehicle_set_behaviour(s->world, s->ids[i], &arrive);
}

/// The circle scene: `count` vehicles on a circle of radius `circle` around (0, 0), each heading
/// for the antipode, on `threads` threads. NULL world on failure.
static inline CrowdScene crowd_circle(int count, double circle, CrowdMethod method, int threads)
{
    CrowdScene s = {0};
    bool ok = crowd_alloc(&s, count, 4.0 * circle + 400.0, threads, method);
    for (int i = 0; ok && i < count; i++) {
        double angle = 2.0 * STEER_PI * i / count;
        SteerVec2 at = steer_scale(steer_vec2(cos(angle), sin(angle)), circle);
        s.goals[i] = steer_neg(at);
        ok = crowd_vehicle(&s, i, at, angle + STEER_PI, s.goals[i], false);
    }
    if (!ok) crowd_free(&s);
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
    free(s->still);
    free(s->stuck_long);
    free(s->through);
    s->world = NULL;
    s->ids = NULL;
    s->goals = s->positions = NULL;
    s->order = s->still = NULL;
    s->arrived = s->through = s->stuck_long = NULL;
}

static const SteerVec2 *crowd_sort_positions;
static inline int crowd_by_x(const void *a, const void *b)
{
    double x = crowd_sort_positions[*(const int *)a].x, y = crowd_sort_positions[*(const int *)b].x;
    return (x > y) - (x < y);
}

/// Arrivals, overlaps and who is stuck where the vehicles are now (a sweep along x: no pair loop
/// over everyone); in crowd_doorway, also sends those just through the door to their places.
static inline CrowdStep crowd_measure(CrowdScene *s)
{
    CrowdStep m = {0, 0, 1e300, 0, 0};
    for (int i = 0; i < s->count; i++) {
        s->positions[i] = steer_vehicle_position(s->world, s->ids[i]);
        s->order[i] = i;
        if (s->through && !s->through[i] && s->positions[i].x > CROWD_RADIUS) crowd_send_through(s, i);
        if (steer_distance_sq(s->positions[i], s->goals[i]) <= CROWD_RADIUS * CROWD_RADIUS &&
            (!s->through || s->through[i]))
            s->arrived[i] = true;
        if (s->arrived[i]) m.arrived++;
        double speed = steer_length(steer_vehicle_velocity(s->world, s->ids[i]));
        s->still[i] = !s->arrived[i] && speed < CROWD_STUCK_SPEED ? s->still[i] + 1 : 0;
        if (s->still[i] > 0) m.stuck_now++;
        if (s->still[i] > m.stuck) m.stuck = s->still[i];
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
    int stuck;         ///< the longest any vehicle stayed stuck (steps)
    int stuck_long;    ///< vehicles stuck for more than 2 s at a time, at some point (each once)
} CrowdRun;

/// Adds what step `m` showed of stuck vehicles to `r` (a vehicle counts once in stuck_long, when
/// a spell of it first passes 2 s).
static inline void crowd_note_stuck(const CrowdScene *s, CrowdRun *r, CrowdStep m)
{
    if (m.stuck > r->stuck) r->stuck = m.stuck;
    if (m.stuck > 120)
        for (int i = 0; i < s->count; i++)
            if (s->still[i] > 120 && !s->stuck_long[i]) {
                s->stuck_long[i] = true;
                r->stuck_long++;
            }
}

static inline CrowdRun crowd_cross(CrowdScene *s, int max_steps)
{
    CrowdRun r = {0, max_steps, 0, 1e300, 0, 0, 0};
    for (int step = 1; step <= max_steps; step++) {
        steer_world_step(s->world);
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
    return r;
}

#endif
