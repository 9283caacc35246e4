/* SPDX-License-Identifier: MIT */
/* test_combine.c - the three ways a vehicle's behaviours become one force. */
#include "test_support.h"

#include <math.h>

static SteerBehaviourDef seek_point(double x, double y, double weight, int priority)
{
    SteerBehaviourDef def = steer_default_behaviour_def(STEER_SEEK);
    def.seek.target = steer_target_point(x, y);
    def.weight = weight;
    def.priority = priority;
    return def;
}

/* Heavily weighted, mutually opposed and aligned behaviours on many vehicles: whatever the method,
 * the combined force never exceeds max_force. */
static void test_combined_force_never_exceeds_max_force(void **state)
{
    (void)state;
    const SteerCombine methods[] = {STEER_COMBINE_WEIGHTED, STEER_COMBINE_PRIORITY, STEER_COMBINE_DITHER};
    for (int m = 0; m < 3; m++) {
        SteerWorld *world = make_world(STEER_EDGES_WRAP, 7 + (uint64_t)m);
        SteerVehicleId ids[20];
        for (int i = 0; i < 20; i++) {
            ids[i] = spawn_moving(world, 50.0 * i, 500, 30, -20);
            steer_vehicle_set_combine(world, ids[i], methods[m]);
            SteerBehaviourDef seek = seek_point(900, 100 + 40 * i, 5.0 + i, 3);
            turn_on(world, ids[i], &seek);
            SteerBehaviourDef flee = steer_default_behaviour_def(STEER_FLEE);
            flee.flee.target = steer_target_point(50.0 * i + 1, 480);
            flee.weight = 7.0;
            turn_on(world, ids[i], &flee);
            SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
            wander.weight = 20.0;
            wander.probability = 0.9;
            turn_on(world, ids[i], &wander);
            if (i > 0) {
                SteerBehaviourDef pursue = steer_default_behaviour_def(STEER_PURSUE);
                pursue.pursue.target = steer_target_vehicle(ids[i - 1]);
                pursue.weight = 3.0;
                turn_on(world, ids[i], &pursue);
            }
        }
        double largest = 0.0;
        for (int step = 0; step < 600; step++) {
            steer_world_step(world);
            for (int i = 0; i < 20; i++) {
                SteerVehicleState s;
                assert_int_equal(steer_vehicle_get(world, ids[i], &s), STEER_OK);
                double f = steer_length(s.force);
                assert_true(f <= s.max_force * (1.0 + 1e-9));
                if (f > largest) largest = f;
            }
        }
        /* the forces asked for are large, so the limit was actually reached */
        assert_true(largest > 0.99 * steer_default_vehicle_def().max_force);
        steer_world_destroy(world);
    }
}

/* With a running sum in priority order, a first behaviour that uses up max_force decides the
 * direction alone. Swap the priorities and the roles swap. */
static void test_priority_sum_honours_priority_order(void **state)
{
    (void)state;
    for (int swap = 0; swap < 2; swap++) {
        SteerWorld *world = make_world(STEER_EDGES_NONE, 3);
        SteerVehicleId id = spawn_at(world, 500, 500);
        steer_vehicle_set_combine(world, id, STEER_COMBINE_PRIORITY);
        SteerBehaviourDef east = seek_point(900, 500, 10.0, swap ? 2 : 1);
        SteerBehaviourDef north = steer_default_behaviour_def(STEER_FLEE); /* away from a point south */
        north.flee.target = steer_target_point(500, 900);
        north.weight = 10.0;
        north.priority = swap ? 1 : 2;
        turn_on(world, id, &east);
        turn_on(world, id, &north);
        SteerBehaviour order[4];
        assert_int_equal(steer_vehicle_get_behaviours(world, id, order, 4), 2);
        assert_int_equal(order[0], swap ? STEER_FLEE : STEER_SEEK);
        steer_world_step(world);
        SteerVehicleState s;
        steer_vehicle_get(world, id, &s);
        if (swap)
            assert_true(s.force.y < -0.99 * steer_length(s.force));
        else
            assert_true(s.force.x > 0.99 * steer_length(s.force));
        assert_true(steer_length(s.force) > 0.99 * s.max_force);
        steer_world_destroy(world);
    }
}

/* Two different behaviours: the first in priority order saturates the budget, so the second is
 * not evaluated and its recorded force is zero. */
static void test_priority_sum_skips_behaviours_once_the_budget_is_spent(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 3);
    SteerVehicleId id = spawn_at(world, 500, 500);
    steer_vehicle_set_combine(world, id, STEER_COMBINE_PRIORITY);
    SteerBehaviourDef seek = seek_point(900, 500, 10.0, 1);
    SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
    wander.priority = 2;
    turn_on(world, id, &wander);
    turn_on(world, id, &seek);
    SteerBehaviour order[4];
    assert_int_equal(steer_vehicle_get_behaviours(world, id, order, 4), 2);
    assert_int_equal(order[0], STEER_SEEK);
    assert_int_equal(order[1], STEER_WANDER);
    steer_world_step(world);
    SteerBehaviourState seek_state, wander_state;
    steer_vehicle_get_behaviour(world, id, STEER_SEEK, NULL, &seek_state);
    steer_vehicle_get_behaviour(world, id, STEER_WANDER, NULL, &wander_state);
    assert_true(seek_state.evaluated);
    assert_true(seek_state.kept < 1.0);
    assert_false(wander_state.evaluated);
    assert_true(steer_length(wander_state.force) == 0.0);

    /* a weak first behaviour leaves room: the second is evaluated and kept */
    seek.weight = 0.01;
    turn_on(world, id, &seek);
    steer_world_step(world);
    steer_vehicle_get_behaviour(world, id, STEER_WANDER, NULL, &wander_state);
    assert_true(wander_state.evaluated);
    assert_true(wander_state.kept > 0.0);
    steer_world_destroy(world);
}

/* The weighted sum keeps every behaviour, scaled by the same factor. */
static void test_weighted_sum_scales_all_behaviours_alike(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 3);
    SteerVehicleId id = spawn_at(world, 500, 500);
    SteerBehaviourDef seek = seek_point(900, 500, 10.0, 1);
    SteerBehaviourDef flee = steer_default_behaviour_def(STEER_FLEE);
    flee.flee.target = steer_target_point(500, 600);
    flee.weight = 10.0;
    turn_on(world, id, &seek);
    turn_on(world, id, &flee);
    steer_world_step(world);
    SteerBehaviourState a, b;
    steer_vehicle_get_behaviour(world, id, STEER_SEEK, NULL, &a);
    steer_vehicle_get_behaviour(world, id, STEER_FLEE, NULL, &b);
    assert_true(a.evaluated && b.evaluated);
    assert_true(a.kept < 1.0);
    assert_near(a.kept, b.kept, 1e-12);
    SteerVehicleState s;
    steer_vehicle_get(world, id, &s);
    SteerVec2 expected = steer_scale(steer_add(a.force, b.force), a.kept);
    assert_near(s.force.x, expected.x, 1e-9);
    assert_near(s.force.y, expected.y, 1e-9);
    steer_world_destroy(world);
}

/* Dithering: in priority order each behaviour gets its turn with its probability; the first that
 * asks for a force wins. With p1 = 0.3 and p2 = 0.5 the winners' shares are 0.3, 0.7·0.5 = 0.35,
 * and 0.35 for nobody. */
static void test_dithering_frequencies_match_probabilities(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 99);
    SteerVehicleId id = spawn_at(world, 500, 500);
    steer_vehicle_set_combine(world, id, STEER_COMBINE_DITHER);
    SteerBehaviourDef seek = seek_point(900, 500, 1.0, 1);
    seek.probability = 0.3;
    SteerBehaviourDef flee = steer_default_behaviour_def(STEER_FLEE);
    flee.flee.target = steer_target_point(500, 900);
    flee.priority = 2;
    flee.probability = 0.5;
    turn_on(world, id, &seek);
    turn_on(world, id, &flee);
    enum { STEPS = 20000 };
    int seek_wins = 0, flee_wins = 0, none = 0;
    for (int step = 0; step < STEPS; step++) {
        /* hold the vehicle still so both behaviours always ask for a force */
        steer_vehicle_set_position(world, id, steer_vec2(500, 500));
        steer_vehicle_set_velocity(world, id, steer_vec2(0, 0));
        steer_world_step(world);
        SteerBehaviourState a, b;
        steer_vehicle_get_behaviour(world, id, STEER_SEEK, NULL, &a);
        steer_vehicle_get_behaviour(world, id, STEER_FLEE, NULL, &b);
        if (a.evaluated && a.kept > 0.0)
            seek_wins++;
        else if (b.evaluated && b.kept > 0.0)
            flee_wins++;
        else
            none++;
    }
    /* binomial standard deviation is about 0.0034 at these counts: allow four of them */
    assert_near((double)seek_wins / STEPS, 0.30, 0.014);
    assert_near((double)flee_wins / STEPS, 0.35, 0.014);
    assert_near((double)none / STEPS, 0.35, 0.014);
    steer_world_destroy(world);
}

/* A dithered winner is scaled by 1/probability, so on average it pulls as the weighted sum would. */
static void test_dithering_scales_the_winner_by_its_probability(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 5);
    SteerVehicleId id = spawn_at(world, 500, 500);
    steer_vehicle_set_combine(world, id, STEER_COMBINE_DITHER);
    SteerBehaviourDef seek = seek_point(900, 500, 0.1, 1);
    seek.probability = 0.5;
    turn_on(world, id, &seek);
    SteerWorld *reference = make_world(STEER_EDGES_NONE, 5);
    SteerVehicleId ref = spawn_at(reference, 500, 500);
    turn_on(reference, ref, &seek);
    steer_world_step(reference);
    SteerVehicleState expected;
    steer_vehicle_get(reference, ref, &expected);
    bool saw_win = false;
    for (int step = 0; step < 50 && !saw_win; step++) {
        steer_vehicle_set_position(world, id, steer_vec2(500, 500));
        steer_vehicle_set_velocity(world, id, steer_vec2(0, 0));
        steer_world_step(world);
        SteerVehicleState s;
        steer_vehicle_get(world, id, &s);
        if (steer_length(s.force) > 0.0) {
            saw_win = true;
            assert_near(s.force.x, expected.force.x / 0.5, 1e-9);
        }
    }
    assert_true(saw_win);
    steer_world_destroy(world);
    steer_world_destroy(reference);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_combined_force_never_exceeds_max_force),
        cmocka_unit_test(test_priority_sum_honours_priority_order),
        cmocka_unit_test(test_priority_sum_skips_behaviours_once_the_budget_is_spent),
        cmocka_unit_test(test_weighted_sum_scales_all_behaviours_alike),
        cmocka_unit_test(test_dithering_frequencies_match_probabilities),
        cmocka_unit_test(test_dithering_scales_the_winner_by_its_probability),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
