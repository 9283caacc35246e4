/* SPDX-License-Identifier: MIT */
/* test_step_flock.c - the step's specialised path for plain flockers (src/core/step_flock.c) and
 * its one-pass stepping against the general path: the same flock, stepped three ways, must move
 * the same to the last bit and leave the same inspector state.
 *   fast:     flock alone -> the batched flocker path, each vehicle moved as soon as its force is known
 *   general:  flock plus a zero-weight seek of a point, the batch forbidden (flock_plus_off) ->
 *             combine.c's weighted sum, still one pass
 *   two-pass: flock plus a zero-weight seek of a vehicle, the batch forbidden -> the general path,
 *             and since a behaviour reads another vehicle itself, every force before anyone moves
 *   plus:     flock plus a zero-weight seek of a vehicle -> the batched path with the seek beside
 *             the flock (prey that evade take it), every force before anyone moves
 * A zero-weight seek adds exactly nothing to the weighted sum and draws nothing from the PRNG, so
 * any difference is the paths' own. */
#include "test_support.h"

#include <string.h>

#include "world_internal.h"

#define FLOCKERS 120
#define STEPS 40

typedef enum Way { FAST, GENERAL, TWO_PASS, PLUS } Way;

static SteerWorld *flock_world(SteerEdges edges, Way way, SteerVehicleId *ids)
{
    SteerWorld *world = make_world(edges, 7);
    world->flock_plus_off = way == GENERAL || way == TWO_PASS;
    /* crowded enough that everyone has neighbours, some vehicles at max_force */
    for (int i = 0; i < FLOCKERS; i++) {
        double angle = steer_world_random(world) * 2.0 * STEER_PI;
        ids[i] = spawn_moving(world, 400.0 + steer_world_random(world) * 200.0,
                              400.0 + steer_world_random(world) * 200.0, 60.0 * cos(angle), 60.0 * sin(angle));
        steer_vehicle_set_neighbor_radius(world, ids[i], 40.0);
    }
    SteerBehaviourDef flock = steer_default_behaviour_def(STEER_FLOCK);
    SteerBehaviourDef seek = steer_default_behaviour_def(STEER_SEEK);
    seek.weight = 0.0;
    for (int i = 0; i < FLOCKERS; i++) {
        turn_on(world, ids[i], &flock);
        /* Switching a behaviour on draws from the PRNG: every world switches a seek on, so all
         * three draw alike; the fast world switches it off again. */
        seek.seek.target = way == TWO_PASS || way == PLUS ? steer_target_vehicle(ids[(i + 1) % FLOCKERS])
                                                          : steer_target_point(500.0, 500.0);
        turn_on(world, ids[i], &seek);
        if (way == FAST) assert_int_equal(steer_vehicle_clear_behaviour(world, ids[i], STEER_SEEK), STEER_OK);
    }
    return world;
}

static void assert_same_vec(SteerVec2 a, SteerVec2 b, const char *what, int i)
{
    if (memcmp(&a, &b, sizeof a) != 0 && !(a.x == b.x && a.y == b.y))
        fail_msg("vehicle %d: %s (%.17g, %.17g) vs (%.17g, %.17g)", i, what, a.x, a.y, b.x, b.y);
}

static void assert_same_flocks(SteerWorld *a, const SteerVehicleId *ia, SteerWorld *b, const SteerVehicleId *ib)
{
    for (int i = 0; i < FLOCKERS; i++) {
        SteerVehicleState va, vb;
        assert_int_equal(steer_vehicle_get(a, ia[i], &va), STEER_OK);
        assert_int_equal(steer_vehicle_get(b, ib[i], &vb), STEER_OK);
        assert_same_vec(va.position, vb.position, "position", i);
        assert_same_vec(va.velocity, vb.velocity, "velocity", i);
        assert_same_vec(va.heading, vb.heading, "heading", i);
        SteerBehaviourState sa, sb;
        assert_int_equal(steer_vehicle_get_behaviour(a, ia[i], STEER_FLOCK, NULL, &sa), STEER_OK);
        assert_int_equal(steer_vehicle_get_behaviour(b, ib[i], STEER_FLOCK, NULL, &sb), STEER_OK);
        assert_true(sa.evaluated && sb.evaluated);
        assert_same_vec(sa.force, sb.force, "flock force", i);
        assert_same_vec(sa.target, sb.target, "flock target", i);
        assert_same_vec(sa.wander_target, sb.wander_target, "wander target", i);
        if (sa.kept != sb.kept) fail_msg("vehicle %d: kept %.17g vs %.17g", i, sa.kept, sb.kept);
    }
}

/// The seek beside the flock: evaluated, with the same force and kept, on both paths.
static void assert_same_seeks(SteerWorld *a, const SteerVehicleId *ia, SteerWorld *b, const SteerVehicleId *ib)
{
    for (int i = 0; i < FLOCKERS; i++) {
        SteerBehaviourState sa, sb;
        assert_int_equal(steer_vehicle_get_behaviour(a, ia[i], STEER_SEEK, NULL, &sa), STEER_OK);
        assert_int_equal(steer_vehicle_get_behaviour(b, ib[i], STEER_SEEK, NULL, &sb), STEER_OK);
        assert_true(sa.evaluated && sb.evaluated);
        assert_same_vec(sa.force, sb.force, "seek force", i);
        assert_same_vec(sa.target, sb.target, "seek target", i);
        if (sa.kept != sb.kept) fail_msg("vehicle %d: the seek's kept %.17g vs %.17g", i, sa.kept, sb.kept);
    }
}

static void check_edges(SteerEdges edges)
{
    SteerVehicleId fast_ids[FLOCKERS], general_ids[FLOCKERS], two_pass_ids[FLOCKERS], plus_ids[FLOCKERS];
    SteerWorld *fast = flock_world(edges, FAST, fast_ids);
    SteerWorld *general = flock_world(edges, GENERAL, general_ids);
    SteerWorld *two_pass = flock_world(edges, TWO_PASS, two_pass_ids);
    SteerWorld *plus = flock_world(edges, PLUS, plus_ids);
    SteerVehicleState before;
    steer_vehicle_get(fast, fast_ids[0], &before);
    bool some_truncated = false;
    for (int s = 0; s < STEPS; s++) {
        steer_world_step(fast);
        steer_world_step(general);
        steer_world_step(two_pass);
        steer_world_step(plus);
        assert_same_flocks(fast, fast_ids, general, general_ids);
        assert_same_flocks(fast, fast_ids, two_pass, two_pass_ids);
        assert_same_flocks(fast, fast_ids, plus, plus_ids);
        assert_same_seeks(two_pass, two_pass_ids, plus, plus_ids);
        for (int i = 0; i < FLOCKERS; i++) {
            SteerBehaviourState state;
            steer_vehicle_get_behaviour(fast, fast_ids[i], STEER_FLOCK, NULL, &state);
            if (state.kept < 1.0) some_truncated = true;
        }
    }
    /* the comparison covered real flocking: vehicles moved, and max_force cut in */
    SteerVehicleState after;
    steer_vehicle_get(fast, fast_ids[0], &after);
    assert_true(steer_length(steer_sub(after.position, before.position)) > 10.0);
    assert_true(some_truncated);
    steer_world_destroy(fast);
    steer_world_destroy(general);
    steer_world_destroy(two_pass);
    steer_world_destroy(plus);
}

static void test_fast_flockers_match_the_general_path_in_a_wrapping_world(void **state)
{
    (void)state;
    check_edges(STEER_EDGES_WRAP);
}

static void test_fast_flockers_match_the_general_path_in_an_open_world(void **state)
{
    (void)state;
    check_edges(STEER_EDGES_NONE);
}

/// Another vehicle (not a plain flocker) between flockers takes its PRNG draws in creation order:
/// a wanderer created between them sees the same draws whichever path the flockers take.
static void test_a_wanderer_among_fast_flockers_draws_in_creation_order(void **state)
{
    (void)state;
    SteerVec2 wanderer_at[2];
    for (int way = 0; way < 2; way++) {
        SteerWorld *world = make_world(STEER_EDGES_WRAP, 3);
        SteerVehicleId ids[20];
        for (int i = 0; i < 20; i++) ids[i] = spawn_moving(world, 480.0 + 2.0 * i, 500.0 + (i % 3), 40.0, 0.0);
        SteerBehaviourDef flock = steer_default_behaviour_def(STEER_FLOCK);
        SteerBehaviourDef seek = steer_default_behaviour_def(STEER_SEEK);
        seek.weight = 0.0;
        seek.seek.target = steer_target_point(0.0, 0.0);
        SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
        for (int i = 0; i < 20; i++) {
            if (i == 9) {
                turn_on(world, ids[i], &wander);
                continue;
            }
            turn_on(world, ids[i], &flock);
            turn_on(world, ids[i], &seek);
            if (way == 0) steer_vehicle_clear_behaviour(world, ids[i], STEER_SEEK);
        }
        run_steps(world, 30);
        wanderer_at[way] = steer_vehicle_position(world, ids[9]);
        steer_world_destroy(world);
    }
    assert_same_vec(wanderer_at[0], wanderer_at[1], "wanderer position", 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_flockers_match_the_general_path_in_a_wrapping_world),
        cmocka_unit_test(test_fast_flockers_match_the_general_path_in_an_open_world),
        cmocka_unit_test(test_a_wanderer_among_fast_flockers_draws_in_creation_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
