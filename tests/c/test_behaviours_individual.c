/* SPDX-License-Identifier: MIT */
/* test_behaviours_individual.c - seek, flee, arrive, pursue, evade, offset pursuit, interpose,
 * hide and wander (with both leashes), checked by the trajectories they produce. */
#include "test_support.h"

static SteerBehaviourDef seek_point(double x, double y)
{
    SteerBehaviourDef def = steer_default_behaviour_def(STEER_SEEK);
    def.seek.target = steer_target_point(x, y);
    return def;
}

static double distance_between(SteerWorld *world, SteerVehicleId a, SteerVehicleId b)
{
    return steer_distance(steer_vehicle_position(world, a), steer_vehicle_position(world, b));
}

static void test_seek_force_points_at_target(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId id = spawn_at(world, 100, 100);
    SteerBehaviourDef seek = seek_point(400, 500); /* direction (0.6, 0.8) */
    turn_on(world, id, &seek);
    steer_world_step(world);
    SteerVehicleState s;
    steer_vehicle_get(world, id, &s);
    SteerVec2 direction = steer_normalize(s.force);
    assert_float_equal(direction.x, 0.6, 1e-9);
    assert_float_equal(direction.y, 0.8, 1e-9);
    /* a vehicle moving across the line is pushed back toward it: desired minus current velocity */
    SteerVehicleId crossing = spawn_moving(world, 0, 0, 0, 100);
    SteerBehaviourDef east = seek_point(1000, 0);
    turn_on(world, crossing, &east);
    steer_world_step(world);
    steer_vehicle_get(world, crossing, &s);
    assert_true(s.force.x > 0.0);
    assert_true(s.force.y < 0.0);
    steer_world_destroy(world);
}

static void test_seek_reaches_a_vehicle_target(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId target = spawn_at(world, 300, 0);
    SteerVehicleId id = spawn_at(world, 0, 0);
    SteerBehaviourDef seek = steer_default_behaviour_def(STEER_SEEK);
    seek.seek.target = steer_target_vehicle(target);
    turn_on(world, id, &seek);
    double closest = INFINITY;
    for (int i = 0; i < 300; i++) {
        steer_world_step(world);
        double d = distance_between(world, id, target);
        if (d < closest) closest = d;
    }
    assert_true(closest < 2.0);
    steer_world_destroy(world);
}

/* Arrive from several directions and initial velocities: at rest near the target in the end,
 * and never further past it than a bound. */
static void test_arrive_rests_within_tolerance_and_bounded_overshoot(void **state)
{
    (void)state;
    const SteerVec2 target = {500, 500};
    const double slowing_radius = 50.0;
    for (int trial = 0; trial < 8; trial++) {
        SteerWorld *world = make_world(STEER_EDGES_NONE, 7);
        double angle = trial * STEER_PI / 4.0;
        SteerVec2 start = steer_add(target, steer_scale(steer_vec2_from_angle(angle), 300.0));
        SteerVec2 across = steer_scale(steer_perp(steer_vec2_from_angle(angle)), 80.0 * (trial % 2));
        SteerVehicleId id = spawn_moving(world, start.x, start.y, across.x, across.y);
        SteerBehaviourDef arrive = steer_default_behaviour_def(STEER_ARRIVE);
        arrive.arrive.target = steer_target_point(target.x, target.y);
        arrive.arrive.slowing_radius = slowing_radius;
        turn_on(world, id, &arrive);
        SteerVec2 approach = steer_normalize(steer_sub(target, start));
        double overshoot = 0.0;
        for (int i = 0; i < 600; i++) {
            steer_world_step(world);
            SteerVec2 p = steer_vehicle_position(world, id);
            double past = steer_dot(steer_sub(p, target), approach); /* > 0: beyond the target */
            if (past > overshoot) overshoot = past;
        }
        SteerVehicleState s;
        steer_vehicle_get(world, id, &s);
        assert_true(steer_distance(s.position, target) < 0.5);
        assert_true(s.speed < 0.5);
        assert_true(overshoot < 5.0);
        steer_world_destroy(world);
    }
}

static void test_arrive_with_zero_slowing_radius_stays_finite(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId id = spawn_at(world, 10, 10);
    SteerBehaviourDef arrive = steer_default_behaviour_def(STEER_ARRIVE);
    arrive.arrive.target = steer_target_point(10, 10); /* already there */
    arrive.arrive.slowing_radius = 0.0;
    turn_on(world, id, &arrive);
    run_steps(world, 100);
    SteerVehicleState s;
    steer_vehicle_get(world, id, &s);
    assert_true(steer_vec2_is_finite(s.position) && steer_vec2_is_finite(s.force));
    assert_float_equal(s.position.x, 10.0, 1e-9);
    steer_world_destroy(world);
}

/// Steps until the chaser is within `reach` of the runner; returns the simulated time or INFINITY.
static double time_to_catch(SteerBehaviour type)
{
    SteerWorld *world = make_world(STEER_EDGES_NONE, 3);
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(100, 600);
    def.velocity = steer_vec2(60, 0);
    def.max_speed = 60;
    SteerVehicleId runner;
    steer_vehicle_create(world, &def, &runner);
    SteerVehicleId chaser = spawn_at(world, 100, 100);
    SteerBehaviourDef chase = steer_default_behaviour_def(type);
    if (type == STEER_PURSUE)
        chase.pursue.target = steer_target_vehicle(runner);
    else
        chase.seek.target = steer_target_vehicle(runner);
    turn_on(world, chaser, &chase);
    double caught = INFINITY;
    for (int i = 0; i < 60 * 60; i++) {
        steer_world_step(world);
        if (distance_between(world, chaser, runner) < 16.0) {
            caught = steer_world_time(world);
            break;
        }
    }
    steer_world_destroy(world);
    return caught;
}

static void test_pursuit_intercepts_sooner_than_seek(void **state)
{
    (void)state;
    double pursue = time_to_catch(STEER_PURSUE);
    double seek = time_to_catch(STEER_SEEK);
    assert_true(isfinite(pursue));
    assert_true(pursue < seek * 0.9);
}

static void test_pursuit_of_a_head_on_target_seeks_it_directly(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId target = spawn_moving(world, 500, 0, -100, 0);
    SteerVehicleId id = spawn_moving(world, 0, 0, 100, 0);
    SteerBehaviourDef pursue = steer_default_behaviour_def(STEER_PURSUE);
    pursue.pursue.target = steer_target_vehicle(target);
    turn_on(world, id, &pursue);
    steer_world_step(world);
    SteerBehaviourState s;
    steer_vehicle_get_behaviour(world, id, STEER_PURSUE, NULL, &s);
    /* aims at where the target is (forces come from the state before the step), not ahead of it */
    assert_float_equal(s.target.x, 500.0, 1e-9);
    steer_world_destroy(world);
}

static void test_flee_and_evade_increase_distance(void **state)
{
    (void)state;
    SteerBehaviour types[2] = {STEER_FLEE, STEER_EVADE};
    for (int t = 0; t < 2; t++) {
        SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
        SteerVehicleDef def = steer_default_vehicle_def();
        def.position = steer_vec2(300, 500);
        def.max_speed = 70; /* slower than its prey: the gap must grow anyway */
        SteerVehicleId hunter;
        steer_vehicle_create(world, &def, &hunter);
        SteerVehicleId prey = spawn_at(world, 400, 500);
        SteerBehaviourDef hunt = steer_default_behaviour_def(STEER_PURSUE);
        hunt.pursue.target = steer_target_vehicle(prey);
        turn_on(world, hunter, &hunt);
        SteerBehaviourDef run = steer_default_behaviour_def(types[t]);
        run.flee.target = steer_target_vehicle(hunter); /* flee and evade share the layout of target */
        if (types[t] == STEER_EVADE) run.evade.target = steer_target_vehicle(hunter);
        turn_on(world, prey, &run);
        double start = distance_between(world, hunter, prey);
        run_steps(world, 60);
        double one_second = distance_between(world, hunter, prey);
        run_steps(world, 240);
        double five_seconds = distance_between(world, hunter, prey);
        assert_true(one_second > start);
        assert_true(five_seconds > one_second + 50.0);
        steer_world_destroy(world);
    }
}

static void test_flee_ignores_threats_beyond_panic_distance(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId id = spawn_at(world, 0, 0);
    SteerBehaviourDef flee = steer_default_behaviour_def(STEER_FLEE);
    flee.flee.target = steer_target_point(200, 0);
    flee.flee.panic_distance = 150;
    turn_on(world, id, &flee);
    run_steps(world, 10);
    assert_float_equal(steer_vehicle_position(world, id).x, 0.0, 0.0);
    flee.flee.panic_distance = 250;
    turn_on(world, id, &flee);
    run_steps(world, 10);
    assert_true(steer_vehicle_position(world, id).x < -1.0);
    steer_world_destroy(world);
}

static void test_evade_ignores_threats_beyond_threat_range(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId threat = spawn_at(world, 300, 0);
    SteerVehicleId id = spawn_at(world, 0, 0);
    SteerBehaviourDef evade = steer_default_behaviour_def(STEER_EVADE);
    evade.evade.target = steer_target_vehicle(threat);
    evade.evade.threat_range = 200;
    turn_on(world, id, &evade);
    run_steps(world, 10);
    assert_float_equal(steer_vehicle_position(world, id).x, 0.0, 0.0);
    steer_vehicle_set_position(world, threat, steer_vec2(150, 0));
    run_steps(world, 10);
    assert_true(steer_vehicle_position(world, id).x < -1.0);
    steer_world_destroy(world);
}

static void test_offset_pursuit_holds_formation(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(100, 300);
    def.velocity = steer_vec2(40, 0);
    def.max_speed = 40;
    SteerVehicleId leader;
    steer_vehicle_create(world, &def, &leader);
    SteerVehicleId wing = spawn_at(world, 50, 100);
    SteerBehaviourDef offset = steer_default_behaviour_def(STEER_OFFSET_PURSUE);
    offset.offset_pursue.target = steer_target_vehicle(leader);
    offset.offset_pursue.offset = steer_vec2(-30, 25); /* behind and to the leader's right */
    turn_on(world, wing, &offset);
    run_steps(world, 600);
    SteerVec2 lp = steer_vehicle_position(world, leader);
    SteerVec2 wp = steer_vehicle_position(world, wing);
    assert_float_equal(wp.x, lp.x - 30.0, 3.0);
    assert_float_equal(wp.y, lp.y + 25.0, 3.0);
    steer_world_destroy(world);
}

static void test_interpose_stands_between_two_vehicles(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId a = spawn_at(world, 200, 200);
    SteerVehicleId b = spawn_at(world, 600, 400);
    SteerVehicleId id = spawn_at(world, 800, 900);
    SteerBehaviourDef interpose = steer_default_behaviour_def(STEER_INTERPOSE);
    interpose.interpose.a = steer_target_vehicle(a);
    interpose.interpose.b = steer_target_vehicle(b);
    turn_on(world, id, &interpose);
    run_steps(world, 600);
    SteerVec2 p = steer_vehicle_position(world, id);
    assert_float_equal(p.x, 400.0, 1.0);
    assert_float_equal(p.y, 300.0, 1.0);
    steer_world_destroy(world);
}

/// Does the segment a-b pass through the circle?
static bool segment_hits_circle(SteerVec2 a, SteerVec2 b, SteerVec2 center, double radius)
{
    SteerVec2 ab = steer_sub(b, a);
    double t = steer_dot(steer_sub(center, a), ab) / steer_length_sq(ab);
    if (t < 0.0) t = 0.0;
    if (t > 1.0) t = 1.0;
    return steer_distance(steer_add(a, steer_scale(ab, t)), center) < radius;
}

static void test_hide_puts_an_obstacle_between_itself_and_the_hunter(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    steer_world_add_obstacle(world, steer_vec2(500, 500), 40, NULL);
    steer_world_add_obstacle(world, steer_vec2(150, 850), 40, NULL);
    SteerVehicleId hunter = spawn_at(world, 300, 450);
    SteerVehicleId id = spawn_at(world, 700, 300);
    assert_false(segment_hits_circle(steer_vehicle_position(world, hunter), steer_vehicle_position(world, id),
                                     steer_vec2(500, 500), 40));
    SteerBehaviourDef hide = steer_default_behaviour_def(STEER_HIDE);
    hide.hide.target = steer_target_vehicle(hunter);
    turn_on(world, id, &hide);
    run_steps(world, 600);
    SteerVec2 p = steer_vehicle_position(world, id);
    assert_true(segment_hits_circle(steer_vehicle_position(world, hunter), p, steer_vec2(500, 500), 40));
    assert_true(steer_distance(p, steer_vec2(500, 500)) > 40.0); /* next to it, not inside */
    steer_world_destroy(world);
}

static void test_hide_without_obstacles_runs_away(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId hunter = spawn_at(world, 300, 500);
    SteerVehicleId id = spawn_at(world, 400, 500);
    SteerBehaviourDef hide = steer_default_behaviour_def(STEER_HIDE);
    hide.hide.target = steer_target_vehicle(hunter);
    turn_on(world, id, &hide);
    run_steps(world, 60);
    assert_true(distance_between(world, hunter, id) > 150.0);
    steer_world_destroy(world);
}

static void record_wander(uint64_t seed, SteerVec2 *positions, int steps)
{
    SteerWorld *world = make_world(STEER_EDGES_WRAP, seed);
    SteerVehicleId id = spawn_moving(world, 500, 500, 50, 0);
    SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
    turn_on(world, id, &wander);
    for (int i = 0; i < steps; i++) {
        steer_world_step(world);
        positions[i] = steer_vehicle_position(world, id);
    }
    steer_world_destroy(world);
}

static void test_wander_is_reproducible_from_the_seed(void **state)
{
    (void)state;
    enum { STEPS = 600 };
    static SteerVec2 first[STEPS], again[STEPS], other[STEPS];
    record_wander(42, first, STEPS);
    record_wander(42, again, STEPS);
    record_wander(43, other, STEPS);
    assert_memory_equal(first, again, sizeof first); /* bit for bit */
    assert_memory_not_equal(first, other, sizeof first);
}

static void test_wander_turns_smoothly(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_WRAP, 9);
    SteerVehicleId id = spawn_moving(world, 500, 500, 100, 0);
    SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
    turn_on(world, id, &wander);
    double previous = steer_angle_of(steer_vehicle_heading(world, id));
    double total_turn = 0.0, max_rate = 0.0, min_speed = INFINITY;
    const int steps = 60 * 30;
    double dt = steer_world_dt(world);
    for (int i = 0; i < steps; i++) {
        steer_world_step(world);
        double angle = steer_angle_of(steer_vehicle_heading(world, id));
        double turn = fabs(remainder(angle - previous, 2.0 * STEER_PI));
        previous = angle;
        total_turn += turn;
        if (turn / dt > max_rate) max_rate = turn / dt;
        double speed = steer_length(steer_vehicle_velocity(world, id));
        if (speed < min_speed) min_speed = speed;
    }
    /* It keeps moving, it does turn, and it never jerks: its turn rate stays below what a jittered
     * random force could give (max_force / (mass·speed) = 3 rad/s at full speed) and is modest on
     * average (measured with the default parameters: max 1.6, mean 0.7 rad/s). */
    assert_true(min_speed > 50.0);
    assert_true(total_turn > 2.0);
    assert_true(max_rate < 2.0);
    assert_true(total_turn / (steps * dt) < 1.0);
    steer_world_destroy(world);
}

/// Largest distance from the spawn point over two simulated minutes of wandering.
static double wander_reach(SteerLeash leash, uint64_t seed)
{
    SteerWorld *world = make_world(STEER_EDGES_NONE, seed);
    SteerVehicleId id = spawn_moving(world, 0, 0, 100, 0);
    SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
    wander.wander.leash = leash;
    wander.wander.return_radius = 100;
    wander.wander.max_distance = 120;
    turn_on(world, id, &wander);
    double reach = 0.0;
    for (int i = 0; i < 60 * 120; i++) {
        steer_world_step(world);
        double d = steer_length(steer_vehicle_position(world, id));
        if (d > reach) reach = d;
    }
    steer_world_destroy(world);
    return reach;
}

static void test_wander_leashes_stay_near_the_spawn_point(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        double free_reach = wander_reach(STEER_LEASH_NONE, seed);
        double pull_reach = wander_reach(STEER_LEASH_PULL, seed);
        double roam_reach = wander_reach(STEER_LEASH_ROAM, seed);
        assert_true(free_reach > 300.0);        /* without a leash it strays far in two minutes */
        assert_true(pull_reach < 250.0);        /* pull: full pull at 2 x return_radius, some overshoot */
        assert_true(roam_reach < 120.0 + 60.0); /* roam: the point stays within max_distance */
    }
}

static void test_wander_roam_point_keeps_moving(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 5);
    SteerVehicleId id = spawn_at(world, 0, 0);
    SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
    wander.wander.leash = STEER_LEASH_ROAM;
    wander.wander.has_anchor = true;
    wander.wander.anchor = steer_vec2(300, 300);
    turn_on(world, id, &wander);
    SteerVec2 previous_target = {0, 0};
    double travelled = 0.0;
    for (int i = 0; i < 60 * 20; i++) {
        steer_world_step(world);
        SteerBehaviourState s;
        steer_vehicle_get_behaviour(world, id, STEER_WANDER, NULL, &s);
        assert_true(steer_distance(s.wander_target, steer_vec2(300, 300)) <= wander.wander.max_distance + 1e-9);
        if (i > 0) {
            double step = steer_distance(s.wander_target, previous_target);
            assert_true(step < 5.0); /* smooth: no jumps */
            travelled += step;
        }
        previous_target = s.wander_target;
    }
    assert_true(travelled > 100.0);
    assert_true(steer_distance(steer_vehicle_position(world, id), steer_vec2(300, 300)) < 250.0);
    steer_world_destroy(world);
}

static void test_behaviour_switches_off_when_its_target_is_removed(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId target = spawn_at(world, 300, 0);
    SteerVehicleId id = spawn_at(world, 0, 0);
    SteerBehaviourDef pursue = steer_default_behaviour_def(STEER_PURSUE);
    pursue.pursue.target = steer_target_vehicle(target);
    turn_on(world, id, &pursue);
    run_steps(world, 5);
    assert_true(steer_vehicle_has_behaviour(world, id, STEER_PURSUE));
    steer_vehicle_destroy(world, target);
    assert_false(steer_vehicle_has_behaviour(world, id, STEER_PURSUE));
    assert_int_equal(steer_vehicle_get_behaviours(world, id, NULL, 0), 0);
    /* a new vehicle in the same slot is not taken for the old target */
    SteerVehicleId newcomer = spawn_at(world, -300, 0);
    assert_int_equal(newcomer.index1, target.index1);
    SteerVec2 before = steer_vehicle_velocity(world, id);
    run_steps(world, 30);
    assert_false(steer_vehicle_has_behaviour(world, id, STEER_PURSUE));
    SteerVec2 after = steer_vehicle_velocity(world, id);
    assert_float_equal(after.x, before.x, 1e-12); /* no force at all now */
    steer_world_destroy(world);
}

/// Position after `seconds` of a scene run at `hz` physics steps per second.
static SteerVec2 run_at_rate(SteerBehaviour type, double hz, double seconds)
{
    SteerWorldDef def = steer_default_world_def();
    def.dt = 1.0 / hz;
    SteerWorld *world = steer_world_create(&def);
    SteerVehicleDef runner_def = steer_default_vehicle_def();
    runner_def.position = steer_vec2(400, 100);
    runner_def.velocity = steer_vec2(0, 50);
    runner_def.max_speed = 50;
    SteerVehicleId runner;
    steer_vehicle_create(world, &runner_def, &runner);
    SteerVehicleId id = spawn_moving(world, 0, 0, 30, 0);
    SteerBehaviourDef b = steer_default_behaviour_def(type);
    switch (type) {
    case STEER_SEEK: b.seek.target = steer_target_point(300, 200); break;
    case STEER_ARRIVE: b.arrive.target = steer_target_point(300, 200); break;
    case STEER_PURSUE: b.pursue.target = steer_target_vehicle(runner); break;
    default: break;
    }
    turn_on(world, id, &b);
    int steps = (int)lround(seconds * hz);
    run_steps(world, steps);
    SteerVec2 p = steer_vehicle_position(world, id);
    steer_world_destroy(world);
    return p;
}

static void test_paths_agree_at_30_60_and_120_hz(void **state)
{
    (void)state;
    SteerBehaviour types[3] = {STEER_SEEK, STEER_ARRIVE, STEER_PURSUE};
    double times[2] = {1.5, 4.0};
    for (int t = 0; t < 3; t++) {
        for (int k = 0; k < 2; k++) {
            SteerVec2 p30 = run_at_rate(types[t], 30, times[k]);
            SteerVec2 p60 = run_at_rate(types[t], 60, times[k]);
            SteerVec2 p120 = run_at_rate(types[t], 120, times[k]);
            /* within a few units after travelling a few hundred: dt is applied once, not twice */
            assert_true(steer_distance(p30, p120) < 6.0);
            assert_true(steer_distance(p60, p120) < 3.0);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seek_force_points_at_target),
        cmocka_unit_test(test_seek_reaches_a_vehicle_target),
        cmocka_unit_test(test_arrive_rests_within_tolerance_and_bounded_overshoot),
        cmocka_unit_test(test_arrive_with_zero_slowing_radius_stays_finite),
        cmocka_unit_test(test_pursuit_intercepts_sooner_than_seek),
        cmocka_unit_test(test_pursuit_of_a_head_on_target_seeks_it_directly),
        cmocka_unit_test(test_flee_and_evade_increase_distance),
        cmocka_unit_test(test_flee_ignores_threats_beyond_panic_distance),
        cmocka_unit_test(test_evade_ignores_threats_beyond_threat_range),
        cmocka_unit_test(test_offset_pursuit_holds_formation),
        cmocka_unit_test(test_interpose_stands_between_two_vehicles),
        cmocka_unit_test(test_hide_puts_an_obstacle_between_itself_and_the_hunter),
        cmocka_unit_test(test_hide_without_obstacles_runs_away),
        cmocka_unit_test(test_wander_is_reproducible_from_the_seed),
        cmocka_unit_test(test_wander_turns_smoothly),
        cmocka_unit_test(test_wander_leashes_stay_near_the_spawn_point),
        cmocka_unit_test(test_wander_roam_point_keeps_moving),
        cmocka_unit_test(test_behaviour_switches_off_when_its_target_is_removed),
        cmocka_unit_test(test_paths_agree_at_30_60_and_120_hz),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
