/* SPDX-License-Identifier: MIT */
/* test_orca.c - reciprocal velocity avoidance (src/core/orca.c, the `orca` behaviour): the circle
 * test at small N (everyone arrives within a step bound, no two ever overlap), a head-on pair, a
 * wall corner, an obstacle circle, a vehicle without orca as a moving obstacle, precedence and
 * layers, the heading of a vehicle nearly at rest, the options' checks, the same bits on 1, 2,
 * 3 and 8 threads, what bounds a velocity and the watched vehicle's half-planes, and two small
 * crowds of crowd_scene.h (crossing streams, a room emptied by a door) that neither overlap nor
 * jam. No test reads a clock.
 */
#include "test_support.h"

#include <stdlib.h>

#include "crowd_scene.h"
#include "world_internal.h" /* parallel_min: small worlds on the pool too */

/// A vehicle of radius 8 and max speed 60 at (x, y) that arrives at (gx, gy) with orca on.
static SteerVehicleId walker(SteerWorld *world, double x, double y, double gx, double gy)
{
    SteerVehicleDef vd = steer_default_vehicle_def();
    vd.position = steer_vec2(x, y);
    vd.radius = CROWD_RADIUS;
    vd.max_speed = CROWD_SPEED;
    vd.max_force = CROWD_SPEED / steer_world_dt(world);
    vd.response_time = steer_world_dt(world);
    vd.neighbor_radius = 80.0;
    SteerVehicleId id;
    assert_int_equal(steer_vehicle_create(world, &vd, &id), STEER_OK);
    SteerBehaviourDef arrive = steer_default_behaviour_def(STEER_ARRIVE);
    arrive.arrive.target = steer_target_point(gx, gy);
    arrive.arrive.slowing_radius = 20.0;
    assert_int_equal(steer_vehicle_set_behaviour(world, id, &arrive), STEER_OK);
    SteerBehaviourDef orca = steer_default_behaviour_def(STEER_ORCA);
    orca.orca.range = 80.0;
    assert_int_equal(steer_vehicle_set_behaviour(world, id, &orca), STEER_OK);
    return id;
}

static SteerWorld *open_world(void)
{
    SteerWorldDef wd = steer_default_world_def();
    wd.width = wd.height = 2000.0;
    SteerWorld *world = steer_world_create(&wd);
    assert_non_null(world);
    return world;
}

/// Distance from p to segment [a, b].
static double segment_distance(SteerVec2 p, SteerVec2 a, SteerVec2 b)
{
    SteerVec2 ab = steer_sub(b, a);
    double t = steer_dot(steer_sub(p, a), ab) / steer_length_sq(ab);
    if (t < 0.0) t = 0.0;
    if (t > 1.0) t = 1.0;
    return steer_distance(p, steer_add(a, steer_scale(ab, t)));
}

/* ---- The circle test -------------------------------------------------------------------------- */

static void check_circle(int count, double circle, int step_bound)
{
    CrowdScene s = crowd_circle(count, circle, CROWD_ORCA, 1);
    assert_non_null(s.world);
    CrowdRun r = crowd_cross(&s, step_bound);
    if (r.arrived != count)
        fail_msg("%d vehicles on a circle of %g: %d arrived in %d steps", count, circle, r.arrived, step_bound);
    if (r.overlap_steps != 0)
        fail_msg("%d vehicles on a circle of %g: overlaps in %d steps (closest %.2f)", count, circle, r.overlap_steps,
                 r.closest);
    char why[256];
    if (!steer_world_check_state(s.world, why, sizeof why)) fail_msg("state: %s", why);
    crowd_free(&s);
}

static void test_circle_of_20_all_arrive_without_overlap(void **state)
{
    (void)state;
    /* the straight line takes 9.7 s; the older steering's best took 16.4 s */
    check_circle(20, 300.0, 16 * 60);
}

static void test_circle_of_100_all_arrive_without_overlap(void **state)
{
    (void)state;
    /* the straight line takes 14.7 s; the reference ORCA implementation 25.9 s: at most 1.3 x that */
    check_circle(100, 450.0, (int)(1.3 * 25.9 * 60));
}

/// Runs a crowd to the end (or max_steps): everyone arrives, nobody overlaps, nobody is stuck for
/// more than 2 s at a time.
static void check_crowd(CrowdScene *s, const char *what, int max_steps)
{
    assert_non_null(s->world);
    CrowdRun r = crowd_cross(s, max_steps);
    if (r.arrived != s->count) fail_msg("%s: %d of %d arrived in %d steps", what, r.arrived, s->count, max_steps);
    if (r.overlap_steps != 0) fail_msg("%s: overlaps in %d steps (closest %.2f)", what, r.overlap_steps, r.closest);
    if (r.stuck_long != 0)
        fail_msg("%s: %d stuck for more than 2 s (the longest %d steps)", what, r.stuck_long, r.stuck);
    crowd_free(s);
}

static void test_two_small_streams_cross_without_overlap_or_jam(void **state)
{
    (void)state;
    CrowdScene s = crowd_streams(40, CROWD_ORCA, 1);
    check_crowd(&s, "two streams of 40", 60 * 60);
}

static void test_a_room_of_80_leaves_by_a_wide_door_without_overlap_or_jam(void **state)
{
    (void)state;
    CrowdScene s = crowd_doorway(80, 8 * 2.0 * CROWD_RADIUS, CROWD_ORCA, 1);
    check_crowd(&s, "80 through a door 8 wide", 60 * 60);
}

static void test_a_room_of_80_leaves_by_a_narrow_door_without_anyone_held_at_its_jamb(void **state)
{
    (void)state;
    /* A door 4 wide: those pressed against the wall beside its jamb by the crowd found no velocity
     * among their half-planes and stood still for up to 6 s (6 of 80 for more than 2 s) while the
     * others went through, until the others gave them way (orca.c: standing). */
    CrowdScene s = crowd_doorway(80, 4 * 2.0 * CROWD_RADIUS, CROWD_ORCA, 1);
    check_crowd(&s, "80 through a door 4 wide", 60 * 60);
}

/* ---- Pairs, walls, obstacles ----------------------------------------------------------------- */

static void test_head_on_pair_passes_and_both_arrive(void **state)
{
    (void)state;
    SteerWorld *world = open_world();
    SteerVehicleId a = walker(world, 700.0, 1000.0, 1300.0, 1000.0);
    SteerVehicleId b = walker(world, 1300.0, 1000.0, 700.0, 1000.0);
    double closest = 1e300;
    for (int s = 0; s < 20 * 60; s++) {
        steer_world_step(world);
        double d = steer_distance(steer_vehicle_position(world, a), steer_vehicle_position(world, b));
        if (d < closest) closest = d;
    }
    assert_true(closest >= 0.99 * 2.0 * CROWD_RADIUS);
    assert_true(steer_distance(steer_vehicle_position(world, a), steer_vec2(1300.0, 1000.0)) < CROWD_RADIUS);
    assert_true(steer_distance(steer_vehicle_position(world, b), steer_vec2(700.0, 1000.0)) < CROWD_RADIUS);
    steer_world_destroy(world);
}

static void test_vehicle_in_a_wall_corner_never_enters_either_wall(void **state)
{
    (void)state;
    SteerWorld *world = open_world();
    /* an L: a wall along y = 1000 from x = 900 to 1100, and one along x = 1100 from y = 800 to 1000;
     * the vehicle inside the corner wants to go through it, diagonally */
    SteerVec2 corner = steer_vec2(1100.0, 1000.0);
    SteerVec2 w1a = steer_vec2(900.0, 1000.0), w2a = steer_vec2(1100.0, 800.0);
    assert_int_equal(steer_world_add_wall(world, w1a, corner, NULL), STEER_OK);
    assert_int_equal(steer_world_add_wall(world, w2a, corner, NULL), STEER_OK);
    SteerVehicleId v = walker(world, 1000.0, 900.0, 1300.0, 1200.0);
    double closest = 1e300;
    for (int s = 0; s < 10 * 60; s++) {
        steer_world_step(world);
        SteerVec2 p = steer_vehicle_position(world, v);
        double d = segment_distance(p, w1a, corner);
        double d2 = segment_distance(p, w2a, corner);
        if (d2 < d) d = d2;
        if (d < closest) closest = d;
        assert_true(p.x < 1100.0 && p.y < 1000.0); /* never through */
    }
    assert_true(closest >= 0.9 * CROWD_RADIUS);
    /* it ends in the corner, as close as its radius lets it */
    assert_true(steer_distance(steer_vehicle_position(world, v), corner) < 3.0 * CROWD_RADIUS);
    steer_world_destroy(world);
}

static void test_vehicle_goes_around_an_obstacle_circle(void **state)
{
    (void)state;
    SteerWorld *world = open_world();
    SteerVec2 centre = steer_vec2(1000.0, 1000.0);
    assert_int_equal(steer_world_add_obstacle(world, centre, 40.0, NULL), STEER_OK);
    SteerVehicleId v = walker(world, 800.0, 1000.0, 1200.0, 1000.0);
    double closest = 1e300;
    for (int s = 0; s < 15 * 60; s++) {
        steer_world_step(world);
        double d = steer_distance(steer_vehicle_position(world, v), centre);
        if (d < closest) closest = d;
    }
    assert_true(closest >= 0.95 * (40.0 + CROWD_RADIUS));
    assert_true(steer_distance(steer_vehicle_position(world, v), steer_vec2(1200.0, 1000.0)) < CROWD_RADIUS);
    steer_world_destroy(world);
}

static void test_vehicle_without_orca_is_a_moving_obstacle(void **state)
{
    (void)state;
    SteerWorld *world = open_world();
    SteerVehicleId v = walker(world, 1000.0, 1000.0, 1000.0, 1000.0); /* standing at its goal */
    SteerVehicleDef vd = steer_default_vehicle_def();
    vd.position = steer_vec2(700.0, 1000.0);
    vd.velocity = steer_vec2(50.0, 0.0); /* straight through where v stands, never swerving */
    vd.radius = CROWD_RADIUS;
    SteerVehicleId blind;
    assert_int_equal(steer_vehicle_create(world, &vd, &blind), STEER_OK);
    double closest = 1e300;
    for (int s = 0; s < 12 * 60; s++) {
        steer_world_step(world);
        double d = steer_distance(steer_vehicle_position(world, v), steer_vehicle_position(world, blind));
        if (d < closest) closest = d;
    }
    assert_near(steer_vehicle_position(world, blind).y, 1000.0, 1e-9); /* it never moved aside */
    assert_true(closest >= 0.95 * 2.0 * CROWD_RADIUS);
    /* and v came back to its place afterwards */
    assert_true(steer_distance(steer_vehicle_position(world, v), steer_vec2(1000.0, 1000.0)) < CROWD_RADIUS);
    steer_world_destroy(world);
}

/// Largest sideways deviation of a and b from the line y = 1000 in a head-on crossing.
static void head_on_deviations(int precedence_a, int precedence_b, double *dev_a, double *dev_b)
{
    SteerWorld *world = open_world();
    SteerVehicleId a = walker(world, 700.0, 1000.0, 1300.0, 1000.0);
    SteerVehicleId b = walker(world, 1300.0, 1000.0, 700.0, 1000.0);
    SteerBehaviourDef orca = steer_default_behaviour_def(STEER_ORCA);
    orca.orca.range = 80.0;
    orca.orca.precedence = precedence_a;
    assert_int_equal(steer_vehicle_set_behaviour(world, a, &orca), STEER_OK);
    orca.orca.precedence = precedence_b;
    assert_int_equal(steer_vehicle_set_behaviour(world, b, &orca), STEER_OK);
    *dev_a = *dev_b = 0.0;
    for (int s = 0; s < 15 * 60; s++) {
        steer_world_step(world);
        double da = fabs(steer_vehicle_position(world, a).y - 1000.0);
        double db = fabs(steer_vehicle_position(world, b).y - 1000.0);
        if (da > *dev_a) *dev_a = da;
        if (db > *dev_b) *dev_b = db;
        assert_true(steer_distance(steer_vehicle_position(world, a), steer_vehicle_position(world, b)) >=
                    0.95 * 2.0 * CROWD_RADIUS);
    }
    steer_world_destroy(world);
}

static void test_lower_precedence_gives_way_alone(void **state)
{
    (void)state;
    double a, b;
    head_on_deviations(0, 0, &a, &b);
    assert_true(a > 2.0 && b > 2.0); /* equals share the way */
    head_on_deviations(5, 0, &a, &b);
    assert_true(a < 1.0); /* the one of higher precedence keeps its line, nearly */
    assert_true(b > 8.0);
}

static void test_layers_choose_whom_to_avoid(void **state)
{
    (void)state;
    SteerWorld *world = open_world();
    SteerVehicleId a = walker(world, 700.0, 1000.0, 1300.0, 1000.0);
    SteerVehicleId b = walker(world, 1300.0, 1000.0, 700.0, 1000.0);
    /* two ghosts: each in its own layer and avoiding only its own */
    SteerBehaviourDef orca = steer_default_behaviour_def(STEER_ORCA);
    orca.orca.range = 80.0;
    orca.orca.layer = 1;
    orca.orca.avoids = 1 << 1;
    assert_int_equal(steer_vehicle_set_behaviour(world, a, &orca), STEER_OK);
    orca.orca.layer = 2;
    orca.orca.avoids = 1 << 2;
    assert_int_equal(steer_vehicle_set_behaviour(world, b, &orca), STEER_OK);
    double closest = 1e300;
    for (int s = 0; s < 12 * 60; s++) {
        steer_world_step(world);
        double d = steer_distance(steer_vehicle_position(world, a), steer_vehicle_position(world, b));
        if (d < closest) closest = d;
    }
    assert_true(closest < 1.0); /* straight through one another */
    steer_world_destroy(world);
}

/* ---- Headings ---------------------------------------------------------------------------------- */

static void test_heading_nearly_at_rest_stays_steady(void **state)
{
    (void)state;
    /* facing +x, it shuffles half a unit back to its spot: a queue's jostle */
    SteerWorld *world = open_world();
    SteerVehicleId v = walker(world, 1000.0, 1000.0, 999.5, 1000.0);
    assert_true(steer_default_behaviour_def(STEER_ORCA).orca.heading_smoothing > 0.0);
    for (int s = 0; s < 60; s++) steer_world_step(world);
    assert_true(steer_distance(steer_vehicle_position(world, v), steer_vec2(999.5, 1000.0)) < 0.1);
    assert_true(steer_vehicle_heading(world, v).x > 0.9); /* still facing where it was */
    /* without smoothing, it turns round for the shuffle */
    SteerVehicleId w = walker(world, 1500.0, 1000.0, 1499.5, 1000.0);
    SteerBehaviourDef orca = steer_default_behaviour_def(STEER_ORCA);
    orca.orca.range = 80.0;
    orca.orca.heading_smoothing = 0.0;
    assert_int_equal(steer_vehicle_set_behaviour(world, w, &orca), STEER_OK);
    steer_world_step(world);
    assert_true(steer_vehicle_heading(world, w).x < -0.9);
    steer_world_destroy(world);
}

/* ---- Debug drawing ------------------------------------------------------------------------------ */

static int orca_segments;
static void count_segment(SteerVec2 a, SteerVec2 b, uint32_t color, SteerDebugLayer layer, void *context)
{
    (void)a;
    (void)b;
    (void)color;
    (void)context;
    if (layer == STEER_DEBUG_LAYER_AVOIDANCE) orca_segments++;
}

static void test_debug_draw_shows_preferred_and_chosen_velocities(void **state)
{
    (void)state;
    SteerWorld *world = open_world();
    SteerVehicleId a = walker(world, 900.0, 1000.0, 1100.0, 1000.0);
    SteerVehicleId b = walker(world, 1100.0, 1000.0, 900.0, 1000.0);
    /* until they are about to pass */
    for (int s = 0;
         s < 600 && steer_distance(steer_vehicle_position(world, a), steer_vehicle_position(world, b)) > 40.0; s++)
        steer_world_step(world);
    SteerBehaviourState st;
    assert_int_equal(steer_vehicle_get_behaviour(world, a, STEER_ORCA, NULL, &st), STEER_OK);
    SteerVec2 p = steer_vehicle_position(world, a);
    /* it wanted to go straight on, and goes aside: the two differ */
    assert_true(steer_distance(st.feelers[0], st.feelers[1]) > 1.0);
    assert_true(steer_distance(p, st.feelers[0]) > 1.0);
    SteerDebugDraw d = steer_default_debug_draw();
    d.draw_segment = count_segment;
    orca_segments = 0;
    steer_world_debug_draw(world, &d);
    assert_int_equal(orca_segments, 0); /* not without the avoidance overlay */
    d.flags |= STEER_DEBUG_DRAW_AVOIDANCE;
    steer_world_debug_draw(world, &d);
    assert_int_equal(orca_segments, 4); /* two vehicles, two lines each */
    steer_world_destroy(world);
}

static void test_constraint_names_what_bounds_the_velocity(void **state)
{
    (void)state;
    SteerWorld *world = open_world();
    SteerOrcaConstraint c;
    /* alone, going where it wants: free (and free before its first step) */
    SteerVehicleId lone = walker(world, 200.0, 200.0, 600.0, 200.0);
    assert_int_equal(steer_vehicle_orca_constraint(world, lone, &c), STEER_OK);
    assert_int_equal(c.bound, STEER_ORCA_FREE);
    steer_world_step(world);
    assert_int_equal(steer_vehicle_orca_constraint(world, lone, &c), STEER_OK);
    assert_int_equal(c.bound, STEER_ORCA_FREE);
    /* head on: each gives way to the other, named by its id */
    SteerVehicleId a = walker(world, 900.0, 1000.0, 1100.0, 1000.0);
    SteerVehicleId b = walker(world, 960.0, 1000.0, 800.0, 1000.0);
    assert_int_equal(steer_vehicle_set_velocity(world, a, steer_vec2(50.0, 0.0)), STEER_OK);
    assert_int_equal(steer_vehicle_set_velocity(world, b, steer_vec2(-50.0, 0.0)), STEER_OK);
    steer_world_step(world);
    assert_int_equal(steer_vehicle_orca_constraint(world, a, &c), STEER_OK);
    assert_int_equal(c.bound, STEER_ORCA_VEHICLE);
    assert_true(steer_vehicle_id_equal(c.vehicle, b));
    assert_true(steer_obstacle_id_is_null(c.obstacle) && steer_wall_id_is_null(c.wall));
    assert_int_equal(steer_vehicle_orca_constraint(world, b, &c), STEER_OK);
    assert_int_equal(c.bound, STEER_ORCA_VEHICLE);
    assert_true(steer_vehicle_id_equal(c.vehicle, a));
    /* straight at a wall close ahead: the wall, named by its id */
    SteerWallId wall;
    assert_int_equal(steer_world_add_wall(world, steer_vec2(1500.0, 300.0), steer_vec2(1500.0, 500.0), &wall),
                     STEER_OK);
    SteerVehicleId w = walker(world, 1470.0, 400.0, 1700.0, 400.0);
    assert_int_equal(steer_vehicle_set_velocity(world, w, steer_vec2(60.0, 0.0)), STEER_OK);
    steer_world_step(world);
    assert_int_equal(steer_vehicle_orca_constraint(world, w, &c), STEER_OK);
    assert_int_equal(c.bound, STEER_ORCA_WALL);
    assert_true(steer_wall_id_equal(c.wall, wall));
    /* ... and an obstacle circle */
    SteerObstacleId rock;
    assert_int_equal(steer_world_add_obstacle(world, steer_vec2(400.0, 1600.0), 20.0, &rock), STEER_OK);
    SteerVehicleId o = walker(world, 350.0, 1600.0, 700.0, 1600.0);
    assert_int_equal(steer_vehicle_set_velocity(world, o, steer_vec2(60.0, 0.0)), STEER_OK);
    steer_world_step(world);
    assert_int_equal(steer_vehicle_orca_constraint(world, o, &c), STEER_OK);
    assert_int_equal(c.bound, STEER_ORCA_OBSTACLE);
    assert_true(steer_obstacle_id_equal(c.obstacle, rock));
    /* bad input is named */
    assert_int_equal(steer_vehicle_orca_constraint(world, a, NULL), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(steer_world_last_error(world), "steer_vehicle_orca_constraint"));
    assert_int_equal(steer_vehicle_orca_constraint(world, (SteerVehicleId)STEER_NULL_ID, &c), STEER_ERROR_INVALID_ID);
    assert_int_equal(steer_world_watch_orca(world, (SteerVehicleId)STEER_NULL_ID), STEER_OK);
    steer_world_destroy(world);
}

static int half_plane_segments;
static void count_half_plane(SteerVec2 a, SteerVec2 b, uint32_t color, SteerDebugLayer layer, void *context)
{
    (void)a, (void)b, (void)context;
    if (layer == STEER_DEBUG_LAYER_AVOIDANCE &&
        (color == STEER_DEBUG_COLOR_BOUND || color == STEER_DEBUG_COLOR_HALF_PLANE))
        half_plane_segments++;
}

static void test_half_planes_are_kept_for_the_watched_vehicle_only_and_change_nothing(void **state)
{
    (void)state;
    /* the same crossing with and without a watched vehicle: the same bits */
    uint64_t sums[2];
    for (int watched = 0; watched < 2; watched++) {
        CrowdScene s = crowd_circle(20, 300.0, CROWD_ORCA, 1);
        assert_non_null(s.world);
        if (watched) assert_int_equal(steer_world_watch_orca(s.world, s.ids[3]), STEER_OK);
        SteerDebugDraw d = steer_default_debug_draw();
        d.draw_segment = count_half_plane;
        int drawn_steps = 0;
        for (int step = 0; step < 600; step++) {
            steer_world_step(s.world);
            half_plane_segments = 0;
            steer_vehicle_debug_draw_orca(s.world, s.ids[3], &d);
            if (half_plane_segments > 0) drawn_steps++;
            half_plane_segments = 0;
            steer_vehicle_debug_draw_orca(s.world, s.ids[4], &d);
            assert_int_equal(half_plane_segments, 0); /* never another's */
        }
        if (watched)
            assert_true(drawn_steps > 100); /* among the others for most of the crossing */
        else
            assert_int_equal(drawn_steps, 0);
        sums[watched] = steer_world_checksum(s.world);
        crowd_free(&s);
    }
    assert_true(sums[0] == sums[1]);
}

/// A vehicle of radius 1 at `at`, moving at `velocity`, with orca (max_neighbors `max`) and no goal.
static SteerVehicleId dot(SteerWorld *world, SteerVec2 at, SteerVec2 velocity, int max)
{
    SteerVehicleDef vd = steer_default_vehicle_def();
    vd.position = at;
    vd.velocity = velocity;
    vd.radius = 1.0;
    vd.max_speed = CROWD_SPEED;
    vd.max_force = CROWD_SPEED / steer_world_dt(world);
    vd.neighbor_radius = 80.0;
    SteerVehicleId id;
    assert_int_equal(steer_vehicle_create(world, &vd, &id), STEER_OK);
    SteerBehaviourDef orca = steer_default_behaviour_def(STEER_ORCA);
    orca.orca.range = 80.0;
    orca.orca.max_neighbors = max;
    assert_int_equal(steer_vehicle_set_behaviour(world, id, &orca), STEER_OK);
    return id;
}

/// How many half-planes the watched vehicle's last step had.
static int half_planes_of(SteerWorld *world, SteerVehicleId id)
{
    const SteerOrcaWatch *watch = steer_orca_watched(world, steer_vehicle_lookup(world, id));
    assert_non_null(watch);
    return steer_orca_watch_count(watch);
}

static void test_a_crowd_denser_than_the_gathering_keeps_the_nearest_neighbours(void **state)
{
    (void)state;
    /* A vehicle with 10 neighbours within 28 units, all heading at it, and (in the crowded world)
     * 150 more between 40 and 78 units, created after them: far more in range than the unsorted
     * candidates orca gathers before it keeps the nearest. With max_neighbors 10 it must pick the
     * same 10 as in a world without the 150 - the same velocity, to the bit. */
    SteerVec2 centre = steer_vec2(1000.0, 1000.0);
    SteerVec2 velocity[2];
    for (int crowded = 0; crowded < 2; crowded++) {
        SteerWorld *world = open_world();
        SteerVehicleId me = dot(world, centre, steer_vec2(30.0, 0.0), 10);
        for (int i = 0; i < 10; i++) {
            double angle = 0.6 * i, distance = 10.0 + 2.0 * i;
            SteerVec2 where = steer_vec2(cos(angle), sin(angle));
            dot(world, steer_add(centre, steer_scale(where, distance)), steer_scale(where, -40.0), 10);
        }
        for (int i = 0; crowded && i < 150; i++) {
            double angle = 2.399963 * i, distance = 40.0 + 38.0 * (i % 15) / 14.0;
            SteerVec2 where = steer_vec2(cos(angle), sin(angle));
            dot(world, steer_add(centre, steer_scale(where, distance)), steer_scale(where, -50.0), 10);
        }
        assert_int_equal(steer_world_watch_orca(world, me), STEER_OK);
        steer_world_step(world);
        assert_int_equal(half_planes_of(world, me), 10);
        velocity[crowded] = steer_vehicle_velocity(world, me);
        if (crowded) {
            /* all 160 in range with room for them: every one of them bounds it */
            SteerBehaviourDef orca = steer_default_behaviour_def(STEER_ORCA);
            orca.orca.range = 80.0;
            orca.orca.max_neighbors = STEER_ORCA_MAX_NEIGHBORS;
            assert_int_equal(steer_vehicle_set_behaviour(world, me, &orca), STEER_OK);
            steer_world_step(world);
            assert_int_equal(half_planes_of(world, me), STEER_ORCA_MAX_NEIGHBORS);
        }
        steer_world_destroy(world);
    }
    assert_true(velocity[0].x == velocity[1].x && velocity[0].y == velocity[1].y);
    assert_true(velocity[0].x != 30.0 || velocity[0].y != 0.0); /* they did bound it */
}

/* ---- Options ----------------------------------------------------------------------------------- */

static void test_options_out_of_range_are_refused_with_their_name(void **state)
{
    (void)state;
    SteerWorld *world = open_world();
    SteerVehicleId v = walker(world, 1000.0, 1000.0, 1000.0, 1000.0);
    SteerBehaviourDef d = steer_default_behaviour_def(STEER_ORCA);
    assert_near(d.orca.horizon, 2.0, 0.0);
    assert_near(d.orca.obstacle_horizon, 1.0, 0.0);
    assert_int_equal(d.orca.max_neighbors, 10);
    assert_int_equal(d.orca.avoids, 65535);
    d.orca.horizon = 0.0;
    assert_int_equal(steer_vehicle_set_behaviour(world, v, &d), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(steer_world_last_error(world), "orca: horizon"));
    d = steer_default_behaviour_def(STEER_ORCA);
    d.orca.obstacle_horizon = NAN;
    assert_int_equal(steer_vehicle_set_behaviour(world, v, &d), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(steer_world_last_error(world), "orca: obstacle_horizon"));
    d = steer_default_behaviour_def(STEER_ORCA);
    d.orca.range = INFINITY;
    assert_int_equal(steer_vehicle_set_behaviour(world, v, &d), STEER_ERROR_INVALID_ARGUMENT);
    d = steer_default_behaviour_def(STEER_ORCA);
    d.orca.max_neighbors = 0;
    assert_int_equal(steer_vehicle_set_behaviour(world, v, &d), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(steer_world_last_error(world), "orca: max_neighbors must be an integer in [1, 64]"));
    d.orca.max_neighbors = STEER_ORCA_MAX_NEIGHBORS + 1;
    assert_int_equal(steer_vehicle_set_behaviour(world, v, &d), STEER_ERROR_INVALID_ARGUMENT);
    d = steer_default_behaviour_def(STEER_ORCA);
    d.orca.layer = 16;
    assert_int_equal(steer_vehicle_set_behaviour(world, v, &d), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(steer_world_last_error(world), "orca: layer"));
    d = steer_default_behaviour_def(STEER_ORCA);
    d.orca.avoids = -1;
    assert_int_equal(steer_vehicle_set_behaviour(world, v, &d), STEER_ERROR_INVALID_ARGUMENT);
    d = steer_default_behaviour_def(STEER_ORCA);
    d.orca.precedence = 256;
    assert_int_equal(steer_vehicle_set_behaviour(world, v, &d), STEER_ERROR_INVALID_ARGUMENT);
    d = steer_default_behaviour_def(STEER_ORCA);
    d.orca.heading_smoothing = -1.0;
    assert_int_equal(steer_vehicle_set_behaviour(world, v, &d), STEER_ERROR_INVALID_ARGUMENT);
    steer_world_destroy(world);
}

/* ---- Threads and the checksum ----------------------------------------------------------------- */

/// A small crossing among obstacles and walls, with vehicles of two precedences and layers and a
/// few without orca; the world checksum after every step.
static void crossing_checksums(int threads, uint64_t *sums, int steps)
{
    SteerWorldDef wd = steer_default_world_def();
    wd.width = wd.height = 1000.0;
    wd.threads = threads;
    SteerWorld *world = steer_world_create(&wd);
    assert_non_null(world);
    world->parallel_min = 1;
    assert_int_equal(steer_world_add_obstacle(world, steer_vec2(500.0, 500.0), 30.0, NULL), STEER_OK);
    assert_int_equal(steer_world_add_wall(world, steer_vec2(420.0, 380.0), steer_vec2(580.0, 380.0), NULL), STEER_OK);
    for (int i = 0; i < 48; i++) {
        double angle = 2.0 * STEER_PI * i / 48.0;
        SteerVec2 at = steer_add(steer_vec2(500.0, 500.0), steer_scale(steer_vec2_from_angle(angle), 200.0));
        SteerVec2 goal = steer_sub(steer_vec2(1000.0, 1000.0), at);
        SteerVehicleId id = walker(world, at.x, at.y, goal.x, goal.y);
        SteerBehaviourDef orca = steer_default_behaviour_def(STEER_ORCA);
        orca.orca.range = 80.0;
        orca.orca.precedence = i % 5 == 0;
        orca.orca.layer = i % 7 == 0;
        if (i % 11 == 3)
            assert_int_equal(steer_vehicle_clear_behaviour(world, id, STEER_ORCA), STEER_OK);
        else
            assert_int_equal(steer_vehicle_set_behaviour(world, id, &orca), STEER_OK);
    }
    for (int s = 0; s < steps; s++) {
        steer_world_step(world);
        sums[s] = steer_world_checksum(world);
    }
    steer_world_destroy(world);
}

static void test_same_bits_on_1_2_3_and_8_threads(void **state)
{
    (void)state;
    enum { STEPS = 240 };
    static uint64_t one[STEPS], many[STEPS];
    crossing_checksums(1, one, STEPS);
    static const int counts[] = {2, 3, 8};
    for (int c = 0; c < 3; c++) {
        crossing_checksums(counts[c], many, STEPS);
        for (int s = 0; s < STEPS; s++)
            if (one[s] != many[s]) fail_msg("%d threads differ from one at step %d", counts[c], s + 1);
    }
}

static void test_orca_options_change_the_checksum(void **state)
{
    (void)state;
    SteerWorld *a = open_world(), *b = open_world();
    walker(a, 1000.0, 1000.0, 1100.0, 1000.0);
    SteerVehicleId v = walker(b, 1000.0, 1000.0, 1100.0, 1000.0);
    assert_true(steer_world_checksum(a) == steer_world_checksum(b));
    assert_int_equal(steer_vehicle_clear_behaviour(b, v, STEER_ORCA), STEER_OK);
    assert_true(steer_world_checksum(a) != steer_world_checksum(b));
    steer_world_destroy(a);
    steer_world_destroy(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options_out_of_range_are_refused_with_their_name),
        cmocka_unit_test(test_head_on_pair_passes_and_both_arrive),
        cmocka_unit_test(test_vehicle_in_a_wall_corner_never_enters_either_wall),
        cmocka_unit_test(test_vehicle_goes_around_an_obstacle_circle),
        cmocka_unit_test(test_vehicle_without_orca_is_a_moving_obstacle),
        cmocka_unit_test(test_lower_precedence_gives_way_alone),
        cmocka_unit_test(test_layers_choose_whom_to_avoid),
        cmocka_unit_test(test_heading_nearly_at_rest_stays_steady),
        cmocka_unit_test(test_orca_options_change_the_checksum),
        cmocka_unit_test(test_debug_draw_shows_preferred_and_chosen_velocities),
        cmocka_unit_test(test_constraint_names_what_bounds_the_velocity),
        cmocka_unit_test(test_half_planes_are_kept_for_the_watched_vehicle_only_and_change_nothing),
        cmocka_unit_test(test_same_bits_on_1_2_3_and_8_threads),
        cmocka_unit_test(test_a_crowd_denser_than_the_gathering_keeps_the_nearest_neighbours),
        cmocka_unit_test(test_circle_of_20_all_arrive_without_overlap),
        cmocka_unit_test(test_circle_of_100_all_arrive_without_overlap),
        cmocka_unit_test(test_two_small_streams_cross_without_overlap_or_jam),
        cmocka_unit_test(test_a_room_of_80_leaves_by_a_wide_door_without_overlap_or_jam),
        cmocka_unit_test(test_a_room_of_80_leaves_by_a_narrow_door_without_anyone_held_at_its_jamb),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
