/* SPDX-License-Identifier: MIT */
/* test_behaviours_navigation.c - path following, obstacle and wall avoidance, containment and
 * flow fields: visiting order, resting at the end, and zero penetrations in feasible scenes. */

#include "test_support.h"

static SteerPathId add_path(SteerWorld *world, const SteerVec2 *points, int count, bool loop)
{
    SteerPathId path;
    assert_int_equal(steer_world_add_path(world, points, count, loop, &path), STEER_OK);
    return path;
}

static SteerBehaviourDef follow_def(SteerPathId path)
{
    SteerBehaviourDef def = steer_default_behaviour_def(STEER_FOLLOW);
    def.follow.path = path;
    return def;
}

static void test_open_path_is_visited_in_order_and_ends_at_rest_on_its_last_point(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    const SteerVec2 points[] = {{100, 100}, {400, 120}, {420, 400}, {150, 380}, {600, 600}};
    SteerPathId path = add_path(world, points, 5, false);
    SteerVehicleId id = spawn_at(world, 0, 0);
    SteerBehaviourDef follow = follow_def(path);
    turn_on(world, id, &follow);
    int visited = 0; /* how many points, in order, the vehicle has come within reach of */
    int previous_waypoint = 0;
    for (int i = 0; i < 60 * 40; i++) {
        steer_world_step(world);
        SteerVec2 p = steer_vehicle_position(world, id);
        if (visited < 5 && steer_distance(p, points[visited]) <= follow.follow.waypoint_radius + 1e-9) visited++;
        SteerBehaviourState s;
        steer_vehicle_get_behaviour(world, id, STEER_FOLLOW, NULL, &s);
        assert_true(s.waypoint == previous_waypoint || s.waypoint == previous_waypoint + 1); /* never skips */
        previous_waypoint = s.waypoint;
    }
    assert_int_equal(visited, 5);
    SteerVehicleState s;
    steer_vehicle_get(world, id, &s);
    assert_true(steer_distance(s.position, points[4]) < 0.5);
    assert_true(s.speed < 0.5);
    steer_world_destroy(world);
}

static void test_looped_path_keeps_looping(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    const SteerVec2 points[] = {{200, 200}, {600, 200}, {600, 600}, {200, 600}};
    SteerPathId path = add_path(world, points, 4, true);
    SteerVehicleId id = spawn_at(world, 180, 180);
    SteerBehaviourDef follow = follow_def(path);
    turn_on(world, id, &follow);
    int wraps = 0, previous = 0;
    double min_speed_late = INFINITY;
    for (int i = 0; i < 60 * 60; i++) {
        steer_world_step(world);
        SteerBehaviourState s;
        steer_vehicle_get_behaviour(world, id, STEER_FOLLOW, NULL, &s);
        if (s.waypoint < previous) wraps++;
        assert_true(s.waypoint == previous || s.waypoint == (previous + 1) % 4);
        previous = s.waypoint;
        if (i > 120) {
            double speed = steer_length(steer_vehicle_velocity(world, id));
            if (speed < min_speed_late) min_speed_late = speed;
        }
    }
    /* 1,600 units a lap at up to 100 units/s: about 3 laps a minute, and it never stops */
    assert_true(wraps >= 2);
    assert_true(min_speed_late > 30.0);
    steer_world_destroy(world);
}

static void test_one_point_path_arrives_at_that_point(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    const SteerVec2 point = {300, 300};
    SteerPathId open = add_path(world, &point, 1, false);
    SteerPathId looped = add_path(world, &point, 1, true);
    SteerVehicleId a = spawn_at(world, 0, 0);
    SteerVehicleId b = spawn_at(world, 600, 0);
    SteerBehaviourDef follow = follow_def(open);
    turn_on(world, a, &follow);
    follow = follow_def(looped);
    turn_on(world, b, &follow);
    run_steps(world, 60 * 15);
    assert_true(steer_distance(steer_vehicle_position(world, a), point) < 0.5);
    assert_true(steer_distance(steer_vehicle_position(world, b), point) < 0.5);
    steer_world_destroy(world);
}

static void test_removing_the_path_switches_follow_off(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    const SteerVec2 points[] = {{100, 0}, {200, 0}};
    SteerPathId path = add_path(world, points, 2, false);
    SteerVehicleId id = spawn_at(world, 0, 0);
    SteerBehaviourDef follow = follow_def(path);
    turn_on(world, id, &follow);
    steer_world_step(world);
    assert_int_equal(steer_world_remove_path(world, path), STEER_OK);
    assert_false(steer_vehicle_has_behaviour(world, id, STEER_FOLLOW));
    run_steps(world, 5); /* and the step does not read the freed points (ASan would say) */
    steer_world_destroy(world);
}

static void test_path_following_agrees_at_30_60_and_120_hz(void **state)
{
    (void)state;
    const SteerVec2 points[] = {{100, 100}, {400, 120}, {420, 400}};
    SteerVec2 end[3];
    double rates[3] = {30, 60, 120};
    for (int r = 0; r < 3; r++) {
        SteerWorldDef def = steer_default_world_def();
        def.dt = 1.0 / rates[r];
        SteerWorld *world = steer_world_create(&def);
        SteerPathId path = add_path(world, points, 3, false);
        SteerVehicleId id = spawn_at(world, 0, 0);
        SteerBehaviourDef follow = follow_def(path);
        turn_on(world, id, &follow);
        run_steps(world, (int)(5.0 * rates[r]));
        end[r] = steer_vehicle_position(world, id);
        steer_world_destroy(world);
    }
    assert_true(steer_distance(end[0], end[2]) < 8.0);
    assert_true(steer_distance(end[1], end[2]) < 4.0);
}

/* ---- Avoidance ----------------------------------------------------------------------------- */

typedef struct Scene {
    SteerVec2 centers[24];
    double radii[24];
    int obstacle_count;
    SteerVec2 wall_a[8], wall_b[8];
    int wall_count;
} Scene;

static double segment_distance(SteerVec2 p, SteerVec2 a, SteerVec2 b)
{
    SteerVec2 ab = steer_sub(b, a);
    double t = steer_dot(steer_sub(p, a), ab) / steer_length_sq(ab);
    if (t < 0.0) t = 0.0;
    if (t > 1.0) t = 1.0;
    return steer_distance(p, steer_add(a, steer_scale(ab, t)));
}

/* A random field of obstacles and walls in the middle band of a 1000 x 1000 contained world, and
 * vehicles that cross it toward targets on the far side and back. Feasible by construction:
 * obstacles are spaced so a vehicle fits between them, and the detection box (50 units at rest,
 * 100 at full speed) is longer than the 17 units needed to stop from full speed at max_force. */
static void test_random_runs_through_obstacles_and_walls_never_penetrate(void **state)
{
    (void)state;
    int penetrations = 0, arrivals = 0, total = 0;
    for (uint64_t run = 1; run <= 40; run++) {
        SteerWorld *world = make_world(STEER_EDGES_CONTAIN, run);
        Scene scene = {0};
        while (scene.obstacle_count < 14) {
            SteerVec2 c = steer_vec2(150 + 700 * steer_world_random(world), 250 + 500 * steer_world_random(world));
            double r = 15 + 25 * steer_world_random(world);
            bool clear = true;
            for (int i = 0; i < scene.obstacle_count; i++)
                if (steer_distance(c, scene.centers[i]) < r + scene.radii[i] + 40) clear = false;
            if (!clear) continue;
            scene.centers[scene.obstacle_count] = c;
            scene.radii[scene.obstacle_count++] = r;
            steer_world_add_obstacle(world, c, r, NULL);
        }
        /* two short walls that do not touch any obstacle */
        while (scene.wall_count < 2) {
            SteerVec2 a = steer_vec2(200 + 600 * steer_world_random(world), 300 + 400 * steer_world_random(world));
            SteerVec2 b = steer_add(a, steer_scale(steer_vec2_from_angle(steer_world_random(world) * STEER_PI), 80));
            bool clear = true;
            for (int i = 0; i < scene.obstacle_count; i++)
                if (segment_distance(scene.centers[i], a, b) < scene.radii[i] + 40) clear = false;
            for (int i = 0; i < scene.wall_count; i++)
                if (segment_distance(a, scene.wall_a[i], scene.wall_b[i]) < 60 ||
                    segment_distance(b, scene.wall_a[i], scene.wall_b[i]) < 60)
                    clear = false;
            if (!clear) continue;
            scene.wall_a[scene.wall_count] = a;
            scene.wall_b[scene.wall_count++] = b;
            steer_world_add_wall(world, a, b, NULL);
        }
        enum { N = 6 };
        SteerVehicleId ids[N];
        SteerVec2 goals[N];
        for (int i = 0; i < N; i++) {
            ids[i] = spawn_at(world, 100 + 160 * i, 60);
            goals[i] = steer_vec2(900 - 160 * i, 940);
            SteerBehaviourDef arrive = steer_default_behaviour_def(STEER_ARRIVE);
            arrive.arrive.target = steer_target_point(goals[i].x, goals[i].y);
            turn_on(world, ids[i], &arrive);
            SteerBehaviourDef obstacles = steer_default_behaviour_def(STEER_AVOID_OBSTACLES);
            turn_on(world, ids[i], &obstacles);
            SteerBehaviourDef walls = steer_default_behaviour_def(STEER_AVOID_WALLS);
            turn_on(world, ids[i], &walls);
            steer_vehicle_set_combine(world, ids[i], STEER_COMBINE_PRIORITY);
        }
        for (int step = 0; step < 60 * 40; step++) {
            steer_world_step(world);
            for (int i = 0; i < N; i++) {
                SteerVehicleState s;
                steer_vehicle_get(world, ids[i], &s);
                for (int k = 0; k < scene.obstacle_count; k++)
                    if (steer_distance(s.position, scene.centers[k]) < scene.radii[k] + s.radius) penetrations++;
                for (int k = 0; k < scene.wall_count; k++)
                    if (segment_distance(s.position, scene.wall_a[k], scene.wall_b[k]) < s.radius) penetrations++;
            }
        }
        for (int i = 0; i < N; i++) {
            total++;
            if (steer_distance(steer_vehicle_position(world, ids[i]), goals[i]) < 5.0) arrivals++;
        }
        steer_world_destroy(world);
    }
    assert_int_equal(penetrations, 0);
    assert_true(arrivals >= total * 9 / 10); /* and avoidance does not stop them getting there */
}

static void test_obstacle_avoidance_steers_away_from_the_obstacle_side(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    steer_world_add_obstacle(world, steer_vec2(200, 505), 20, NULL); /* ahead, slightly to the +y side */
    SteerVehicleId id = spawn_moving(world, 100, 500, 100, 0);
    SteerBehaviourDef avoid = steer_default_behaviour_def(STEER_AVOID_OBSTACLES);
    turn_on(world, id, &avoid);
    steer_world_step(world);
    SteerVehicleState s;
    steer_vehicle_get(world, id, &s);
    assert_true(s.force.y < 0.0); /* away from the obstacle's side */
    assert_true(s.force.x < 0.0); /* and braking */
    SteerBehaviourState b;
    steer_vehicle_get_behaviour(world, id, STEER_AVOID_OBSTACLES, NULL, &b);
    assert_near(b.box_length, 50.0 * (1.0 + 100.0 / 100.0), 1e-9);
    steer_world_destroy(world);
}

static void test_obstacle_behind_the_detection_box_is_ignored(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    steer_world_add_obstacle(world, steer_vec2(400, 500), 20, NULL); /* far ahead: beyond the box */
    steer_world_add_obstacle(world, steer_vec2(40, 500), 20, NULL);  /* behind */
    steer_world_add_obstacle(world, steer_vec2(150, 560), 20, NULL); /* ahead but off to the side */
    SteerVehicleId id = spawn_moving(world, 100, 500, 100, 0);
    SteerBehaviourDef avoid = steer_default_behaviour_def(STEER_AVOID_OBSTACLES);
    turn_on(world, id, &avoid);
    steer_world_step(world);
    SteerVehicleState s;
    steer_vehicle_get(world, id, &s);
    assert_near(steer_length(s.force), 0.0, 0.0);
    steer_world_destroy(world);
}

static void test_wall_avoidance_turns_away_from_a_wall_ahead(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    steer_world_add_wall(world, steer_vec2(150, 300), steer_vec2(150, 700), NULL);
    SteerVehicleId id = spawn_moving(world, 100, 500, 100, 20);
    SteerBehaviourDef walls = steer_default_behaviour_def(STEER_AVOID_WALLS);
    turn_on(world, id, &walls);
    double closest = INFINITY;
    SteerVec2 p = {0, 0};
    for (int i = 0; i < 180; i++) {
        p = steer_vehicle_position(world, id); /* forces come from the state before the step */
        steer_world_step(world);
        double gap = 150.0 - steer_vehicle_position(world, id).x;
        if (gap < closest) closest = gap;
    }
    assert_true(closest > 8.0);                             /* never closer than its radius */
    assert_true(steer_vehicle_velocity(world, id).x < 0.0); /* turned back */
    SteerBehaviourState b;
    steer_vehicle_get_behaviour(world, id, STEER_AVOID_WALLS, NULL, &b);
    assert_near(steer_distance(b.feelers[0], p), 50.0 + 8.0, 1e-6);
    steer_world_destroy(world);
}

static void test_contain_keeps_vehicles_inside_the_bounds(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 3); /* no hard edges: only the behaviour */
    SteerVehicleId ids[10];
    for (int i = 0; i < 10; i++) {
        ids[i] = spawn_moving(world, 100 + 80 * i, 500, 100 * cos(i), 100 * sin(i));
        SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
        turn_on(world, ids[i], &wander);
        SteerBehaviourDef contain = steer_default_behaviour_def(STEER_CONTAIN);
        contain.weight = 3.0;
        turn_on(world, ids[i], &contain);
    }
    double worst = 0.0;
    for (int step = 0; step < 60 * 60; step++) {
        steer_world_step(world);
        for (int i = 0; i < 10; i++) {
            SteerVec2 p = steer_vehicle_position(world, ids[i]);
            double outside = fmax(fmax(-p.x, p.x - 1000.0), fmax(-p.y, p.y - 1000.0));
            if (outside > worst) worst = outside;
        }
    }
    assert_true(worst <= 0.0);
    steer_world_destroy(world);
}

static void test_follow_flow_moves_along_the_field(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    /* a 10 x 10 field of 100-unit cells: the left half flows down (+y), the right half up */
    SteerVec2 vectors[100];
    for (int row = 0; row < 10; row++)
        for (int col = 0; col < 10; col++) vectors[row * 10 + col] = steer_vec2(0, col < 5 ? 1 : -1);
    SteerFlowFieldDef def = {steer_vec2(0, 0), 100, 10, 10, vectors};
    SteerFlowFieldId field;
    assert_int_equal(steer_world_add_flow_field(world, &def, &field), STEER_OK);
    SteerVehicleId left = spawn_at(world, 150, 500);
    SteerVehicleId right = spawn_at(world, 850, 500);
    SteerBehaviourDef follow = steer_default_behaviour_def(STEER_FOLLOW_FLOW);
    follow.follow_flow.field = field;
    turn_on(world, left, &follow);
    turn_on(world, right, &follow);
    run_steps(world, 120);
    assert_true(steer_vehicle_position(world, left).y > 600.0);
    assert_true(steer_vehicle_position(world, right).y < 400.0);
    assert_near(steer_vehicle_position(world, left).x, 150.0, 1e-9);
    steer_world_destroy(world);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_path_is_visited_in_order_and_ends_at_rest_on_its_last_point),
        cmocka_unit_test(test_looped_path_keeps_looping),
        cmocka_unit_test(test_one_point_path_arrives_at_that_point),
        cmocka_unit_test(test_removing_the_path_switches_follow_off),
        cmocka_unit_test(test_path_following_agrees_at_30_60_and_120_hz),
        cmocka_unit_test(test_random_runs_through_obstacles_and_walls_never_penetrate),
        cmocka_unit_test(test_obstacle_avoidance_steers_away_from_the_obstacle_side),
        cmocka_unit_test(test_obstacle_behind_the_detection_box_is_ignored),
        cmocka_unit_test(test_wall_avoidance_turns_away_from_a_wall_ahead),
        cmocka_unit_test(test_contain_keeps_vehicles_inside_the_bounds),
        cmocka_unit_test(test_follow_flow_moves_along_the_field),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
