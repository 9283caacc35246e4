/* SPDX-License-Identifier: MIT */
/* test_limits.c - the documented limits (steer_types.h) at every input, the step kept finite, and
 * the state checker: the two repros, each limit at and just past its bound, every setter
 * with hostile values, and random API calls (the core fuzz harness fed random bytes). */
#include "test_support.h"

#include <float.h>
#include <stdlib.h>

#include "fuzz_support.h"
#include "world_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void assert_state_ok(const SteerWorld *world)
{
    char why[256];
    if (!steer_world_check_state(world, why, sizeof why)) fail_msg("state check: %s", why);
}

static void step_checked(SteerWorld *world, int steps)
{
    for (int i = 0; i < steps; i++) {
        steer_world_step(world);
        assert_state_ok(world);
    }
}

/// Everything a caller can read of a vehicle, to tell that a refused call changed nothing.
static SteerVehicleState state_of(const SteerWorld *world, SteerVehicleId id)
{
    SteerVehicleState s;
    memset(&s, 0, sizeof s);
    assert_int_equal(steer_vehicle_get(world, id, &s), STEER_OK);
    return s;
}

static void assert_same_state(SteerVehicleState a, SteerVehicleState b)
{
    assert_memory_equal(&a.position, &b.position, sizeof a.position);
    assert_memory_equal(&a.velocity, &b.velocity, sizeof a.velocity);
    assert_memory_equal(&a.heading, &b.heading, sizeof a.heading);
    assert_true(a.mass == b.mass && a.max_speed == b.max_speed && a.max_force == b.max_force);
    assert_true(a.max_turn_rate == b.max_turn_rate && a.radius == b.radius && a.response_time == b.response_time);
    assert_true(a.neighbor_radius == b.neighbor_radius && a.view_angle == b.view_angle);
    assert_int_equal(a.behaviour_count, b.behaviour_count);
}

/* ---- The repros ---------------------------------------------------------------------- */

/* Two vehicles at y = ±1e308 in an unbounded world made the grid's extent overflow and the step
 * loop forever. Such positions are refused now; at the limit, the step returns. */
static void test_repro_far_apart_vehicles_no_longer_hang_the_step(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(0.0, 1e308);
    assert_int_equal(steer_vehicle_create(world, &def, NULL), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "position must be within ±1e+09 on each axis (got 0, 1e+308)");
    def.position = steer_vec2(0.0, -1e308);
    assert_int_equal(steer_vehicle_create(world, &def, NULL), STEER_ERROR_INVALID_ARGUMENT);
    assert_int_equal(steer_world_vehicle_count(world), 0);

    /* The farthest apart allowed, with every kind of neighbour lookup on. */
    SteerVehicleId a = spawn_at(world, -STEER_MAX_COORDINATE, -STEER_MAX_COORDINATE);
    SteerVehicleId b = spawn_at(world, STEER_MAX_COORDINATE, STEER_MAX_COORDINATE);
    SteerVehicleId c = spawn_at(world, 0.0, STEER_MAX_COORDINATE);
    assert_int_equal(steer_vehicle_set_neighbor_radius(world, c, STEER_MAX_LENGTH), STEER_OK);
    SteerBehaviourDef flock = steer_default_behaviour_def(STEER_FLOCK);
    turn_on(world, c, &flock);
    SteerBehaviourDef collisions = steer_default_behaviour_def(STEER_AVOID_COLLISIONS);
    turn_on(world, a, &collisions);
    step_checked(world, 20);
    SteerVehicleId out[4];
    assert_int_equal(steer_world_query_radius(world, steer_vehicle_position(world, a), STEER_MAX_LENGTH, NULL, out, 4),
                     1);
    assert_true(steer_vehicle_is_valid(world, b));
    steer_world_destroy(world);
}

/* The grid itself survives any extent, even one that overflows: white-box, two vehicles put at
 * ±1e308 behind the checks' back. The step returns and brings them back within the limit. */
static void test_the_grid_survives_an_infinite_extent(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId a = spawn_at(world, 0, 0), b = spawn_at(world, 0, 0);
    steer_vehicle_lookup(world, a)->position = steer_vec2(0.0, 1e308);
    steer_vehicle_lookup(world, b)->position = steer_vec2(0.0, -1e308);
    steer_world_step(world); /* used to loop forever in the grid's choose_cells */
    assert_true(steer_vehicle_position(world, a).y == STEER_MAX_COORDINATE);
    assert_true(steer_vehicle_position(world, b).y == -STEER_MAX_COORDINATE);
    step_checked(world, 3);
    steer_world_destroy(world);
}

/* interpose between vehicles far apart near 1e308 left x, y, vx, vy at NaN. Now the targets can be
 * at most 1e9 out, and there every behaviour aimed at them stays finite. */
static void test_repro_behaviours_between_far_vehicles_stay_finite(void **state)
{
    (void)state;
    const SteerEdges edges[] = {STEER_EDGES_NONE, STEER_EDGES_WRAP, STEER_EDGES_CONTAIN};
    for (int e = 0; e < 3; e++) {
        SteerWorldDef wdef = steer_default_world_def();
        wdef.edges = edges[e];
        wdef.width = wdef.height = STEER_MAX_LENGTH;
        SteerWorld *world = steer_world_create(&wdef);
        assert_non_null(world);
        const double m = STEER_MAX_COORDINATE;
        SteerVehicleId a = spawn_moving(world, -m, -m, 100, 0);
        SteerVehicleId b = spawn_moving(world, m, m, 0, -100);
        SteerVehicleId guard = spawn_at(world, m, -m);
        SteerVehicleId tiny = spawn_at(world, 0.0, 0.0);
        assert_int_equal(steer_vehicle_set_max_speed(world, tiny, STEER_MIN_POSITIVE), STEER_OK);
        assert_int_equal(steer_vehicle_set_mass(world, tiny, STEER_MIN_POSITIVE), STEER_OK);
        assert_int_equal(steer_vehicle_set_response_time(world, tiny, STEER_MIN_POSITIVE), STEER_OK);
        assert_int_equal(steer_vehicle_set_max_force(world, tiny, STEER_MAX_FORCE), STEER_OK);
        SteerObstacleId rock;
        assert_int_equal(steer_world_add_obstacle(world, steer_vec2(-m, m), STEER_MAX_LENGTH, &rock), STEER_OK);

        SteerBehaviourDef def = steer_default_behaviour_def(STEER_INTERPOSE);
        def.interpose.a = steer_target_vehicle(a);
        def.interpose.b = steer_target_vehicle(b);
        def.weight = STEER_MAX_WEIGHT;
        turn_on(world, guard, &def);
        turn_on(world, tiny, &def);
        const SteerBehaviour aimed[] = {STEER_PURSUE, STEER_EVADE, STEER_OFFSET_PURSUE, STEER_HIDE,
                                        STEER_FOLLOW_LEADER};
        for (int i = 0; i < 5; i++) {
            SteerBehaviourDef d = steer_default_behaviour_def(aimed[i]);
            d.seek.target = steer_target_vehicle(i & 1 ? a : b); /* every target sits first in its params */
            d.weight = STEER_MAX_WEIGHT;
            turn_on(world, tiny, &d);
            turn_on(world, guard, &d);
        }
        step_checked(world, 30);
        steer_world_destroy(world);
    }
}

/* ---- Each limit, at and just past its bound ------------------------------------------------- */

typedef SteerResult (*Setter)(SteerWorld *, SteerVehicleId, double);
typedef struct Limit {
    const char *name;
    Setter set;
    double lo, hi; ///< inclusive bounds
    bool zero_ok;  ///< 0 is accepted below lo (neighbor_radius)
} Limit;

static void test_every_vehicle_setter_accepts_its_bounds_and_refuses_past_them(void **state)
{
    (void)state;
    const Limit limits[] = {
        {"mass", steer_vehicle_set_mass, STEER_MIN_POSITIVE, STEER_MAX_MASS, false},
        {"max_speed", steer_vehicle_set_max_speed, STEER_MIN_POSITIVE, STEER_MAX_SPEED, false},
        {"max_force", steer_vehicle_set_max_force, STEER_MIN_POSITIVE, STEER_MAX_FORCE, false},
        {"max_turn_rate", steer_vehicle_set_max_turn_rate, 0.0, STEER_MAX_RATE, false},
        {"radius", steer_vehicle_set_radius, 0.0, STEER_MAX_LENGTH, false},
        {"response_time", steer_vehicle_set_response_time, STEER_MIN_POSITIVE, STEER_MAX_TIME, false},
        {"neighbor_radius", steer_vehicle_set_neighbor_radius, STEER_MIN_POSITIVE, STEER_MAX_LENGTH, true},
    };
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId id = spawn_moving(world, 10, 20, 30, 40);
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        const Limit *l = &limits[i];
        assert_int_equal(l->set(world, id, l->lo), STEER_OK);
        assert_int_equal(l->set(world, id, l->hi), STEER_OK);
        step_checked(world, 2);
        const double past[] = {nextafter(l->hi, INFINITY),
                               l->lo > 0.0 ? nextafter(l->lo, 0.0) : -DBL_MIN,
                               NAN,
                               INFINITY,
                               -INFINITY,
                               DBL_MAX,
                               -DBL_MAX,
                               4.9406564584124654e-324};
        for (size_t k = 0; k < sizeof past / sizeof past[0]; k++) {
            if (l->zero_ok && past[k] == 0.0) continue;
            if (past[k] == 4.9406564584124654e-324 && l->lo == 0.0) continue; /* a denormal length is fine */
            SteerVehicleState before = state_of(world, id);
            if (l->set(world, id, past[k]) != STEER_ERROR_INVALID_ARGUMENT)
                fail_msg("%s = %g was accepted", l->name, past[k]);
            assert_error_contains(world, l->name);
            char bound[64];
            snprintf(bound, sizeof bound, "[%g, %g]", l->lo, l->hi);
            assert_error_contains(world, bound);
            assert_same_state(before, state_of(world, id));
        }
        if (l->zero_ok) assert_int_equal(l->set(world, id, 0.0), STEER_OK);
        assert_int_equal(l->set(world, id, l->hi), STEER_OK); /* back to something ordinary below */
        assert_int_equal(l->set(world, id, l->lo > 0.0 ? 1.0 : l->lo), STEER_OK);
    }
    /* Positions and velocities, per axis, and -0.0 is zero. */
    assert_int_equal(steer_vehicle_set_position(world, id, steer_vec2(STEER_MAX_COORDINATE, -STEER_MAX_COORDINATE)),
                     STEER_OK);
    assert_int_equal(steer_vehicle_set_position(world, id, steer_vec2(-0.0, nextafter(STEER_MAX_COORDINATE, INFINITY))),
                     STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "position must be within ±1e+09 on each axis");
    assert_int_equal(steer_vehicle_set_max_speed(world, id, STEER_MAX_SPEED), STEER_OK);
    assert_int_equal(steer_vehicle_set_velocity(world, id, steer_vec2(-STEER_MAX_SPEED, STEER_MAX_SPEED)), STEER_OK);
    assert_near(steer_length(steer_vehicle_velocity(world, id)), STEER_MAX_SPEED, 1e-6); /* truncated to max_speed */
    assert_int_equal(steer_vehicle_set_velocity(world, id, steer_vec2(nextafter(-STEER_MAX_SPEED, -INFINITY), 0.0)),
                     STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "velocity must be within ±1e+06 on each axis");
    assert_int_equal(steer_vehicle_set_velocity(world, id, steer_vec2(4.9406564584124654e-324, -0.0)), STEER_OK);
    step_checked(world, 3);
    steer_world_destroy(world);
}

static void test_world_definitions_and_dt_are_bounded(void **state)
{
    (void)state;
    SteerWorldDef def = steer_default_world_def();
    char message[200];
    def.width = STEER_MAX_LENGTH;
    def.height = STEER_MIN_POSITIVE;
    def.dt = STEER_MIN_POSITIVE;
    assert_int_equal(steer_world_def_check(&def, message, sizeof message), STEER_OK);
    def.width = nextafter(STEER_MAX_LENGTH, INFINITY);
    assert_int_equal(steer_world_def_check(&def, message, sizeof message), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(message, "width must be a finite number in [1e-06, 1e+09] units (got 1e+09)"));
    assert_null(steer_world_create(&def));
    def.width = 100.0;
    def.dt = 1e-7;
    assert_int_equal(steer_world_def_check(&def, message, sizeof message), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(message, "dt must be at least 1e-06 seconds"));

    SteerWorld *world = make_world(STEER_EDGES_WRAP, 1);
    assert_int_equal(steer_world_set_dt(world, 4.9406564584124654e-324), STEER_ERROR_INVALID_ARGUMENT);
    assert_near(steer_world_dt(world), 1.0 / 60.0, 0.0);
    steer_world_destroy(world);
}

static SteerResult set_with(SteerWorld *world, SteerVehicleId id, SteerBehaviour type, size_t offset, double value)
{
    SteerBehaviourDef def = steer_default_behaviour_def(type);
    memcpy((char *)&def + offset, &value, sizeof value);
    return steer_vehicle_set_behaviour(world, id, &def);
}

static void test_behaviour_parameters_are_bounded(void **state)
{
    (void)state;
    typedef struct Param {
        SteerBehaviour type;
        const char *name;
        size_t offset;
        double hi;
    } Param;
#define P(type, field, name, hi)                                                                                       \
    {                                                                                                                  \
        type, name, offsetof(SteerBehaviourDef, field), hi                                                             \
    }
    const Param params[] = {
        P(STEER_WANDER, weight, "weight", STEER_MAX_WEIGHT),
        P(STEER_WANDER, wander.radius, "radius", STEER_MAX_LENGTH),
        P(STEER_WANDER, wander.distance, "distance", STEER_MAX_LENGTH),
        P(STEER_WANDER, wander.jitter, "jitter", STEER_MAX_LENGTH),
        P(STEER_WANDER, wander.return_radius, "return_radius", STEER_MAX_LENGTH),
        P(STEER_WANDER, wander.max_distance, "max_distance", STEER_MAX_LENGTH),
        P(STEER_WANDER, wander.roam_rate, "roam_rate", STEER_MAX_RATE),
        P(STEER_AVOID_OBSTACLES, avoid_obstacles.detection_length, "detection_length", STEER_MAX_LENGTH),
        P(STEER_AVOID_WALLS, avoid_walls.feeler_length, "feeler_length", STEER_MAX_LENGTH),
        P(STEER_CONTAIN, contain.margin, "margin", STEER_MAX_LENGTH),
        P(STEER_SEPARATE, separate.comfort_distance, "comfort_distance", STEER_MAX_LENGTH),
        P(STEER_SEPARATE, separate.comfort_multiplier, "comfort_multiplier", STEER_MAX_WEIGHT),
        P(STEER_FLOCK, flock.separation, "separation", STEER_MAX_WEIGHT),
        P(STEER_FLOCK, flock.cohesion, "cohesion", STEER_MAX_WEIGHT),
        P(STEER_QUEUE, queue.ahead, "ahead", STEER_MAX_LENGTH),
        P(STEER_AVOID_COLLISIONS, avoid_collisions.horizon, "horizon", STEER_MAX_TIME),
    };
#undef P
    SteerWorld *world = make_world(STEER_EDGES_CONTAIN, 1);
    SteerVehicleId id = spawn_at(world, 500, 500);
    spawn_at(world, 510, 500);
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
        const Param *p = &params[i];
        if (set_with(world, id, p->type, p->offset, p->hi) != STEER_OK)
            fail_msg("%s %s = %g refused: %s", steer_behaviour_name(p->type), p->name, p->hi,
                     steer_world_last_error(world));
        step_checked(world, 2);
        SteerBehaviourDef before;
        assert_int_equal(steer_vehicle_get_behaviour(world, id, p->type, &before, NULL), STEER_OK);
        const double past[] = {nextafter(p->hi, INFINITY), NAN, INFINITY, -1.0, 1e308};
        for (size_t k = 0; k < 5; k++) {
            assert_int_equal(set_with(world, id, p->type, p->offset, past[k]), STEER_ERROR_INVALID_ARGUMENT);
            char expected[96];
            snprintf(expected, sizeof expected, "%s: %s must be", steer_behaviour_name(p->type), p->name);
            assert_error_contains(world, expected);
            SteerBehaviourDef after;
            assert_int_equal(steer_vehicle_get_behaviour(world, id, p->type, &after, NULL), STEER_OK);
            assert_memory_equal((char *)&before + p->offset, (char *)&after + p->offset, sizeof(double));
        }
        assert_int_equal(steer_vehicle_clear_behaviours(world, id), STEER_OK);
    }
    /* Targets and offsets are points and lengths. */
    SteerBehaviourDef seek = steer_default_behaviour_def(STEER_SEEK);
    seek.seek.target = steer_target_point(STEER_MAX_COORDINATE, -STEER_MAX_COORDINATE);
    turn_on(world, id, &seek);
    seek.seek.target = steer_target_point(1e300, 0.0);
    assert_int_equal(steer_vehicle_set_behaviour(world, id, &seek), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "seek: target must be within ±1e+09 on each axis (got 1e+300, 0)");
    step_checked(world, 5);
    steer_world_destroy(world);
}

static void test_shapes_and_queries_are_bounded(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    const double m = STEER_MAX_COORDINATE, past = nextafter(STEER_MAX_COORDINATE, INFINITY);
    assert_int_equal(steer_world_add_obstacle(world, steer_vec2(m, -m), STEER_MAX_LENGTH, NULL), STEER_OK);
    assert_int_equal(steer_world_add_obstacle(world, steer_vec2(0, 0), STEER_MIN_POSITIVE, NULL), STEER_OK);
    assert_int_equal(steer_world_add_obstacle(world, steer_vec2(past, 0), 1.0, NULL), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "center must be within ±1e+09");
    assert_int_equal(steer_world_add_obstacle(world, steer_vec2(0, 0), 1e-7, NULL), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "obstacle radius must be a finite number in [1e-06, 1e+09] (got 1e-07)");
    assert_int_equal(steer_world_add_wall(world, steer_vec2(-m, -m), steer_vec2(m, m), NULL), STEER_OK);
    assert_int_equal(steer_world_add_wall(world, steer_vec2(-m, -m), steer_vec2(m, past), NULL),
                     STEER_ERROR_INVALID_ARGUMENT);
    SteerVec2 points[3] = {{-m, 0}, {m, 0}, {0, -past}};
    assert_int_equal(steer_world_add_path(world, points, 2, true, NULL), STEER_OK);
    assert_int_equal(steer_world_add_path(world, points, 3, true, NULL), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "path point 3 must be within ±1e+09 on each axis (got 0, -1e+09)");
    SteerVec2 vectors[2] = {{STEER_MAX_LENGTH, 0}, {0, 1e10}};
    SteerFlowFieldDef field = {{-m, -m}, STEER_MAX_LENGTH, 1, 1, vectors};
    SteerFlowFieldId fid;
    assert_int_equal(steer_world_add_flow_field(world, &field, &fid), STEER_OK);
    field.cols = 2;
    assert_int_equal(steer_world_add_flow_field(world, &field, NULL), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "flow vector 2 must be within ±1e+09");
    field.cols = 1;
    field.cell_size = 4.9406564584124654e-324;
    assert_int_equal(steer_world_add_flow_field(world, &field, NULL), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "cell_size must be a finite number in [1e-06, 1e+09]");
    assert_int_equal(steer_flow_field_set(world, fid, 0, 0, steer_vec2(-DBL_MAX, 0)), STEER_ERROR_INVALID_ARGUMENT);

    SteerVehicleId v = spawn_at(world, 0, 0), out[2];
    assert_int_equal(steer_world_query_radius(world, steer_vec2(past, 0), 1.0, NULL, out, 2), -1);
    assert_error_contains(world, "center must be within ±1e+09");
    assert_int_equal(
        steer_world_query_radius(world, steer_vec2(0, 0), nextafter(STEER_MAX_LENGTH, INFINITY), NULL, out, 2), -1);
    assert_int_equal(steer_world_query_neighbors(world, v, 2e9, out, 2), -1);
    assert_error_contains(world, "neighbors: radius must be a finite number in [0, 1e+09] (got 2e+09)");
    SteerVehicleId found;
    assert_false(steer_world_query_closest(world, steer_vec2(0, -past), INFINITY, NULL, &found));
    assert_error_contains(world, "closest: point must be within ±1e+09");
    assert_true(steer_world_query_closest(world, steer_vec2(m, m), INFINITY, NULL, &found)); /* any range is fine */
    SteerObstacleId obstacles[4];
    assert_int_equal(
        steer_world_query_obstacles(world, steer_vec2(-m, -m), steer_vec2(m, m), STEER_MAX_LENGTH, obstacles, 4), 2);
    assert_int_equal(steer_world_query_obstacles(world, steer_vec2(-m, -m), steer_vec2(past, m), 1.0, obstacles, 4),
                     -1);

    SteerBehaviourDef avoid = steer_default_behaviour_def(STEER_AVOID_OBSTACLES);
    turn_on(world, v, &avoid);
    SteerBehaviourDef walls = steer_default_behaviour_def(STEER_AVOID_WALLS);
    turn_on(world, v, &walls);
    step_checked(world, 10);
    steer_world_destroy(world);
}

/* ---- The step keeps everything finite --------------------------------------------------------- */

/* In an unbounded world a vehicle can still drift to the limit by integration: it stops there. */
static void test_a_vehicle_drifting_past_the_limit_stops_at_it(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(STEER_MAX_COORDINATE - 10.0, -STEER_MAX_COORDINATE + 10.0);
    def.max_speed = STEER_MAX_SPEED;
    def.velocity = steer_vec2(STEER_MAX_SPEED * 0.7, -STEER_MAX_SPEED * 0.7);
    SteerVehicleId id;
    assert_int_equal(steer_vehicle_create(world, &def, &id), STEER_OK);
    SteerBehaviourDef seek = steer_default_behaviour_def(STEER_SEEK);
    seek.seek.target = steer_target_point(STEER_MAX_COORDINATE, -STEER_MAX_COORDINATE);
    turn_on(world, id, &seek);
    step_checked(world, 1);
    SteerVec2 p = steer_vehicle_position(world, id);
    assert_true(p.x == STEER_MAX_COORDINATE && p.y == -STEER_MAX_COORDINATE);
    SteerVec2 v = steer_vehicle_velocity(world, id);
    assert_true(v.x == 0.0 && v.y == 0.0); /* the outward velocity is removed, as at a wall */
    step_checked(world, 100);
    steer_world_destroy(world);
}

/* Dithering divides by the probability: a denormal one must not overflow. */
static void test_dither_with_a_tiny_probability_stays_finite(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_WRAP, 3);
    SteerVehicleId id = spawn_at(world, 100, 100);
    assert_int_equal(steer_vehicle_set_combine(world, id, STEER_COMBINE_DITHER), STEER_OK);
    SteerBehaviourDef seek = steer_default_behaviour_def(STEER_SEEK);
    seek.seek.target = steer_target_point(900, 900);
    seek.probability = 1.0; /* always evaluated: the force is max_force */
    seek.weight = STEER_MAX_WEIGHT;
    turn_on(world, id, &seek);
    step_checked(world, 1);
    SteerVehicleState s = state_of(world, id);
    assert_near(steer_length(s.force), s.max_force, 1e-9);
    seek.probability = 4.9406564584124654e-324;
    turn_on(world, id, &seek);
    for (int i = 0; i < 50; i++) step_checked(world, 1);
    steer_world_destroy(world);
}

/* Every setter, with every hostile value: it takes the value (and it is then within the limits)
 * or refuses it with a message and changes nothing. The state checker runs after each step. */
static void test_hostile_values_in_every_setter(void **state)
{
    (void)state;
    const Setter setters[] = {steer_vehicle_set_mass,
                              steer_vehicle_set_max_speed,
                              steer_vehicle_set_max_force,
                              steer_vehicle_set_max_turn_rate,
                              steer_vehicle_set_radius,
                              steer_vehicle_set_response_time,
                              steer_vehicle_set_neighbor_radius,
                              steer_vehicle_set_view_angle,
                              steer_vehicle_set_heading};
    const SteerEdges edges[] = {STEER_EDGES_NONE, STEER_EDGES_WRAP, STEER_EDGES_CONTAIN};
    for (int e = 0; e < 3; e++) {
        SteerWorld *world = make_world(edges[e], 5);
        SteerVehicleId a = spawn_moving(world, 100, 100, 10, 0), b = spawn_at(world, 105, 100);
        SteerBehaviourDef flock = steer_default_behaviour_def(STEER_FLOCK);
        turn_on(world, a, &flock);
        SteerBehaviourDef pursue = steer_default_behaviour_def(STEER_PURSUE);
        pursue.pursue.target = steer_target_vehicle(a);
        turn_on(world, b, &pursue);
        for (int v = 0; v < 256; v++) {
            uint8_t byte = (uint8_t)v;
            FuzzBytes in = {&byte, 1, 0};
            double x = fuzz_hostile(&in);
            for (size_t s = 0; s < sizeof setters / sizeof setters[0]; s++) {
                SteerVehicleState before = state_of(world, a);
                if (setters[s](world, a, x) != STEER_OK) assert_same_state(before, state_of(world, a));
            }
            SteerVehicleState before = state_of(world, b);
            if (steer_vehicle_set_position(world, b, steer_vec2(x, 1.0)) != STEER_OK)
                assert_same_state(before, state_of(world, b));
            before = state_of(world, b);
            if (steer_vehicle_set_velocity(world, b, steer_vec2(-1.0, x)) != STEER_OK)
                assert_same_state(before, state_of(world, b));
            step_checked(world, 1);
        }
        steer_world_destroy(world);
    }
}

/* Random API calls with hostile values: the fuzz harness itself (every failed call leaves the
 * world unchanged, the state checker after every call and step), fed bytes from a fixed PRNG. */
static void test_random_api_calls_with_hostile_values(void **state)
{
    (void)state;
    uint64_t seed = 0x2545f4914f6cdd1dULL;
    uint8_t input[1536];
    for (int run = 0; run < 300; run++) {
        size_t size = 64 + (size_t)(run * 37) % (sizeof input - 64);
        for (size_t i = 0; i < size; i++) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            input[i] = (uint8_t)(seed >> 24);
        }
        LLVMFuzzerTestOneInput(input, size);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_repro_far_apart_vehicles_no_longer_hang_the_step),
        cmocka_unit_test(test_the_grid_survives_an_infinite_extent),
        cmocka_unit_test(test_repro_behaviours_between_far_vehicles_stay_finite),
        cmocka_unit_test(test_every_vehicle_setter_accepts_its_bounds_and_refuses_past_them),
        cmocka_unit_test(test_world_definitions_and_dt_are_bounded),
        cmocka_unit_test(test_behaviour_parameters_are_bounded),
        cmocka_unit_test(test_shapes_and_queries_are_bounded),
        cmocka_unit_test(test_a_vehicle_drifting_past_the_limit_stops_at_it),
        cmocka_unit_test(test_dither_with_a_tiny_probability_stays_finite),
        cmocka_unit_test(test_hostile_values_in_every_setter),
        cmocka_unit_test(test_random_api_calls_with_hostile_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
