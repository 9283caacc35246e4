/* SPDX-License-Identifier: MIT */
/* test_mixed_kinds.c - mixed-kind worlds on their fast paths, against the general path.
 *
 * A vehicle that flocks with some kinds only, all round (prey among hunters), has its neighbourhood
 * summed by pack_general's loop for that case (neighbourhood.c), which tests distance and kind
 * alone, over the grid's compact copies. It must give the same bits as the loop that runs every
 * test, and prey that flock and evade must get from step_flock.c's batches the forces the general
 * path (combine.c) gives them: the same hunter/prey world is stepped twice, once with
 * grid.kinds_path_off and flock_plus_off (every neighbourhood through every test, every vehicle
 * with more than a flock on the general path: the reference), and the two must
 * agree on every checksum, step after step - with crowds of more than 64 neighbours (where the
 * general path sums in pieces), vehicles on the very same point, a kind that flocks with two kinds,
 * pursuers and evaders, removals, in every kind of edges, on 1, 2, 3 and 8 threads.
 *
 * Behaviours lose their target only when a vehicle, path or flow field is removed, so the step
 * looks for lost targets only after a removal (world.c: target_removals): the removals that must
 * still switch behaviours off are checked here too, however many steps without one came first. */
#include "test_support.h"

#include <stdlib.h>

#include "world_internal.h"

#define STEPS 40
#define VEHICLES 260

enum { HUNTER = 1, PREY = 2, STRAY = 3 };

static SteerVehicleId spawn_kind(SteerWorld *world, uint32_t kind, double x, double y)
{
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(x, y);
    double angle = steer_world_random(world) * 2.0 * STEER_PI;
    def.velocity = steer_vec2(40.0 * cos(angle), 40.0 * sin(angle));
    def.kind = kind;
    def.neighbor_radius = 35.0;
    def.max_speed = kind == HUNTER ? 90.0 : 80.0;
    SteerVehicleId id;
    assert_int_equal(steer_vehicle_create(world, &def, &id), STEER_OK);
    return id;
}

/// Hunters (wander or pursue), prey (flock with prey; some evade a hunter too), strays that flock
/// with prey and strays; a tight crowd of prey (over 64 neighbours each) with a few on one point.
static SteerWorld *hunt_world(SteerEdges edges, int threads, bool reference, SteerVehicleId *ids)
{
    SteerWorldDef def = steer_default_world_def();
    def.width = 700.0;
    def.height = 600.0;
    def.edges = edges;
    def.seed = 23;
    def.threads = threads;
    SteerWorld *world = steer_world_create(&def);
    assert_non_null(world);
    world->parallel_min = 1; /* small as it is, on the pool when threads > 1 */
    world->grid.kinds_path_off = reference;
    world->flock_plus_off = reference; /* prey that flock and evade: the general path, not step_flock.c's */
    for (int i = 0; i < VEHICLES; i++) {
        uint32_t kind = i % 5 == 0 ? HUNTER : i % 7 == 0 ? STRAY : PREY;
        double x = steer_world_random(world) * def.width, y = steer_world_random(world) * def.height;
        if (i < 120 && kind == PREY) { /* the crowd */
            x = 300.0 + steer_world_random(world) * 20.0;
            y = 250.0 + steer_world_random(world) * 20.0;
        }
        if (i >= 120 && i < 126) x = 500.0, y = 100.0; /* on one point (of every kind) */
        ids[i] = spawn_kind(world, kind, x, y);
    }
    SteerBehaviourDef flock = steer_default_behaviour_def(STEER_FLOCK);
    SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
    for (int i = 0; i < VEHICLES; i++) {
        uint32_t kind = steer_vehicle_kind(world, ids[i]);
        if (kind == HUNTER) {
            turn_on(world, ids[i], &wander);
            if (i % 2 == 0) {
                SteerBehaviourDef pursue = steer_default_behaviour_def(STEER_PURSUE);
                pursue.pursue.target = steer_target_vehicle(ids[(i + 3) % VEHICLES]);
                turn_on(world, ids[i], &pursue);
            }
            continue;
        }
        if (kind == STRAY)
            assert_int_equal(steer_vehicle_set_flock_kinds(world, ids[i], (1u << PREY) | (1u << STRAY)), STEER_OK);
        turn_on(world, ids[i], &flock);
        if (kind == PREY && i % 3 == 0) {
            SteerBehaviourDef evade = steer_default_behaviour_def(STEER_EVADE);
            evade.weight = 3.0;
            evade.evade.target = steer_target_vehicle(ids[(i / 5) * 5]);
            turn_on(world, ids[i], &evade);
        }
    }
    return world;
}

/// Steps the fast and the reference world side by side, comparing their checksums at every step;
/// removes a few vehicles (some of them targets) halfway through.
static void check_same_bits(SteerEdges edges, int threads)
{
    SteerVehicleId fast_ids[VEHICLES], ref_ids[VEHICLES];
    SteerWorld *fast = hunt_world(edges, threads, false, fast_ids);
    SteerWorld *ref = hunt_world(edges, threads, true, ref_ids);
    for (int s = 0; s < STEPS; s++) {
        if (s == STEPS / 2)
            for (int i = 3; i < VEHICLES; i += 41) {
                assert_int_equal(steer_vehicle_destroy(fast, fast_ids[i]), STEER_OK);
                assert_int_equal(steer_vehicle_destroy(ref, ref_ids[i]), STEER_OK);
            }
        steer_world_step(fast);
        steer_world_step(ref);
        uint64_t a = steer_world_checksum(fast), b = steer_world_checksum(ref);
        if (a != b)
            fail_msg("edges %d, %d threads: the fast paths differ from the general one at step %d", (int)edges, threads,
                     s + 1);
    }
    steer_world_destroy(fast);
    steer_world_destroy(ref);
}

static void test_kinds_path_same_bits_as_general(void **state)
{
    (void)state;
    check_same_bits(STEER_EDGES_WRAP, 1);
    check_same_bits(STEER_EDGES_NONE, 1);
    check_same_bits(STEER_EDGES_CONTAIN, 1);
    check_same_bits(STEER_EDGES_WRAP, 2);
    check_same_bits(STEER_EDGES_NONE, 3);
    check_same_bits(STEER_EDGES_CONTAIN, 8);
}

/// The scene exercises what it says: a crowd of over 64 prey neighbours, vehicles on one point.
static void test_scene_has_big_crowds_and_shared_points(void **state)
{
    (void)state;
    SteerVehicleId ids[VEHICLES];
    SteerWorld *world = hunt_world(STEER_EDGES_WRAP, 1, false, ids);
    int most = 0;
    for (int i = 0; i < 120; i++) {
        if (steer_vehicle_kind(world, ids[i]) != PREY) continue;
        int n = steer_world_query_neighbors(world, ids[i], -1.0, NULL, 0);
        if (n > most) most = n;
    }
    if (most <= 64) fail_msg("the crowd's prey have at most %d neighbours", most);
    SteerVec2 a = steer_vehicle_position(world, ids[121]), b = steer_vehicle_position(world, ids[122]);
    assert_true(a.x == b.x && a.y == b.y);
    steer_world_destroy(world);
}

static void test_removed_targets_switch_behaviours_off(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_WRAP, 5);
    SteerVehicleId hunter = spawn_at(world, 100, 100), prey = spawn_at(world, 200, 100),
                   other = spawn_at(world, 400, 400), walker = spawn_at(world, 300, 300),
                   drifter = spawn_at(world, 600, 600);
    SteerBehaviourDef pursue = steer_default_behaviour_def(STEER_PURSUE);
    pursue.pursue.target = steer_target_vehicle(prey);
    turn_on(world, hunter, &pursue);
    SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
    turn_on(world, hunter, &wander);
    /* a flocker that evades the same prey: it steps in step_flock.c's batches, beside its flock */
    SteerVehicleId flocker = spawn_at(world, 150, 150);
    SteerBehaviourDef flock = steer_default_behaviour_def(STEER_FLOCK);
    turn_on(world, flocker, &flock);
    SteerBehaviourDef evade = steer_default_behaviour_def(STEER_EVADE);
    evade.evade.target = steer_target_vehicle(prey);
    turn_on(world, flocker, &evade);
    SteerVec2 points[3] = {{300, 300}, {500, 300}, {500, 500}};
    SteerPathId path;
    assert_int_equal(steer_world_add_path(world, points, 3, true, &path), STEER_OK);
    SteerBehaviourDef follow = steer_default_behaviour_def(STEER_FOLLOW);
    follow.follow.path = path;
    turn_on(world, walker, &follow);
    SteerFlowFieldDef fd = {steer_vec2(0, 0), 100.0, 10, 10, NULL};
    SteerFlowFieldId field;
    assert_int_equal(steer_world_add_flow_field(world, &fd, &field), STEER_OK);
    SteerBehaviourDef flow = steer_default_behaviour_def(STEER_FOLLOW_FLOW);
    flow.follow_flow.field = field;
    turn_on(world, drifter, &flow);

    run_steps(world, 10); /* steps without a removal look for nothing */
    assert_true(steer_vehicle_has_behaviour(world, hunter, STEER_PURSUE));
    /* a removal of a vehicle nobody targets: the next step looks, and keeps everything */
    assert_int_equal(steer_vehicle_destroy(world, other), STEER_OK);
    run_steps(world, 3);
    assert_true(steer_vehicle_has_behaviour(world, hunter, STEER_PURSUE));
    assert_true(steer_vehicle_has_behaviour(world, walker, STEER_FOLLOW));
    assert_true(steer_vehicle_has_behaviour(world, flocker, STEER_EVADE));
    /* the target goes after steps that looked for nothing: the next step drops the pursuit only */
    assert_int_equal(steer_vehicle_destroy(world, prey), STEER_OK);
    steer_world_step(world);
    assert_false(steer_vehicle_has_behaviour(world, hunter, STEER_PURSUE));
    assert_true(steer_vehicle_has_behaviour(world, hunter, STEER_WANDER));
    assert_false(steer_vehicle_has_behaviour(world, flocker, STEER_EVADE)); /* off its batch for that step */
    assert_true(steer_vehicle_has_behaviour(world, flocker, STEER_FLOCK));
    SteerBehaviourState flocking;
    assert_int_equal(steer_vehicle_get_behaviour(world, flocker, STEER_FLOCK, NULL, &flocking), STEER_OK);
    assert_true(flocking.evaluated);
    SteerBehaviour types[4];
    assert_int_equal(steer_vehicle_get_behaviours(world, hunter, types, 4), 1);
    /* a path and a flow field removed */
    run_steps(world, 5);
    assert_int_equal(steer_world_remove_path(world, path), STEER_OK);
    steer_world_step(world);
    assert_int_equal(steer_vehicle_get_behaviours(world, walker, types, 4), 0);
    assert_true(steer_vehicle_has_behaviour(world, drifter, STEER_FOLLOW_FLOW));
    run_steps(world, 2);
    assert_int_equal(steer_world_remove_flow_field(world, field), STEER_OK);
    steer_world_step(world);
    assert_int_equal(steer_vehicle_get_behaviours(world, drifter, types, 4), 0);
    steer_world_destroy(world);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scene_has_big_crowds_and_shared_points),
        cmocka_unit_test(test_kinds_path_same_bits_as_general),
        cmocka_unit_test(test_removed_targets_switch_behaviours_off),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
