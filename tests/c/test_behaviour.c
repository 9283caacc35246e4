/* SPDX-License-Identifier: MIT */
/* test_behaviour.c - behaviour names, defaults, validation and the per-vehicle slots. */
#include "test_support.h"

#include "world_internal.h"

static void test_names_round_trip(void **state)
{
    (void)state;
    for (int t = 0; t < STEER_BEHAVIOUR_COUNT; t++) {
        const char *name = steer_behaviour_name((SteerBehaviour)t);
        assert_non_null(name);
        SteerBehaviour back;
        assert_true(steer_behaviour_from_name(name, &back));
        assert_int_equal(back, t);
    }
    assert_string_equal(steer_behaviour_name(STEER_AVOID_OBSTACLES), "avoid_obstacles");
    assert_string_equal(steer_behaviour_name(STEER_FOLLOW_FLOW), "follow_flow");
    assert_null(steer_behaviour_name(STEER_BEHAVIOUR_COUNT));
    SteerBehaviour unused;
    assert_false(steer_behaviour_from_name("wnader", &unused));
    assert_false(steer_behaviour_from_name("", &unused));
}

/* Every individual and navigation behaviour's defaults, with its target filled in, are accepted. */
static void test_default_definitions_are_accepted(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId self = spawn_at(world, 100, 100);
    SteerVehicleId other = spawn_at(world, 300, 100);
    const SteerVec2 points[] = {{0, 0}, {100, 0}};
    SteerPathId path;
    assert_int_equal(steer_world_add_path(world, points, 2, false, &path), STEER_OK);
    SteerFlowFieldDef field_def = {.origin = {0, 0}, .cell_size = 50, .cols = 4, .rows = 4, .vectors = NULL};
    SteerFlowFieldId field;
    assert_int_equal(steer_world_add_flow_field(world, &field_def, &field), STEER_OK);
    for (int t = 0; t <= STEER_FOLLOW_FLOW; t++) {
        SteerBehaviourDef def = steer_default_behaviour_def((SteerBehaviour)t);
        assert_int_equal(def.type, t);
        assert_near(def.weight, 1.0, 0.0);
        SteerTarget vehicle = steer_target_vehicle(other);
        switch (def.type) {
        case STEER_SEEK: def.seek.target = vehicle; break;
        case STEER_FLEE: def.flee.target = vehicle; break;
        case STEER_ARRIVE: def.arrive.target = vehicle; break;
        case STEER_PURSUE: def.pursue.target = vehicle; break;
        case STEER_EVADE: def.evade.target = vehicle; break;
        case STEER_OFFSET_PURSUE: def.offset_pursue.target = vehicle; break;
        case STEER_INTERPOSE:
            def.interpose.a = vehicle;
            def.interpose.b = steer_target_point(0, 0);
            break;
        case STEER_HIDE: def.hide.target = vehicle; break;
        case STEER_FOLLOW: def.follow.path = path; break;
        case STEER_FOLLOW_FLOW: def.follow_flow.field = field; break;
        default: break;
        }
        if (steer_vehicle_set_behaviour(world, self, &def) != STEER_OK)
            fail_msg("%s defaults refused: %s", steer_behaviour_name(def.type), steer_world_last_error(world));
    }
    assert_int_equal(steer_vehicle_get_behaviours(world, self, NULL, 0), STEER_FOLLOW_FLOW + 1);
    steer_world_destroy(world);
}

/* A refused definition names the behaviour and the parameter, and leaves the slot as it was. */
static void test_bad_parameters_are_rejected_and_change_nothing(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId id = spawn_at(world, 100, 100);
    SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
    turn_on(world, id, &wander);

    SteerBehaviourDef bad = wander;
    bad.wander.radius = NAN;
    assert_int_equal(steer_vehicle_set_behaviour(world, id, &bad), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "wander");
    assert_error_contains(world, "radius");
    bad = wander;
    bad.weight = -1.0;
    assert_int_equal(steer_vehicle_set_behaviour(world, id, &bad), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "weight");
    bad = wander;
    bad.probability = 1.5;
    assert_int_equal(steer_vehicle_set_behaviour(world, id, &bad), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "probability");
    bad = wander;
    bad.type = (SteerBehaviour)99;
    assert_int_equal(steer_vehicle_set_behaviour(world, id, &bad), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "unknown behaviour");

    SteerBehaviourDef now;
    assert_int_equal(steer_vehicle_get_behaviour(world, id, STEER_WANDER, &now, NULL), STEER_OK);
    assert_near(now.wander.radius, wander.wander.radius, 0.0);
    assert_near(now.weight, wander.weight, 0.0);
    assert_int_equal(steer_vehicle_get_behaviours(world, id, NULL, 0), 1);

    SteerBehaviourDef arrive = steer_default_behaviour_def(STEER_ARRIVE);
    arrive.arrive.target = steer_target_point(INFINITY, 0);
    assert_int_equal(steer_vehicle_set_behaviour(world, id, &arrive), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "arrive: target must be finite");
    arrive.arrive.target.kind = STEER_TARGET_NONE;
    assert_int_equal(steer_vehicle_set_behaviour(world, id, &arrive), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "target is missing");
    assert_false(steer_vehicle_has_behaviour(world, id, STEER_ARRIVE));

    SteerBehaviourDef pursue = steer_default_behaviour_def(STEER_PURSUE);
    pursue.pursue.target = steer_target_point(10, 10);
    assert_int_equal(steer_vehicle_set_behaviour(world, id, &pursue), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "must be a vehicle");
    steer_world_destroy(world);
}

static void test_a_vehicle_cannot_target_itself(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId id = spawn_at(world, 100, 100);
    SteerBehaviourDef seek = steer_default_behaviour_def(STEER_SEEK);
    seek.seek.target = steer_target_vehicle(id);
    assert_int_equal(steer_vehicle_set_behaviour(world, id, &seek), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "seek: target must be another vehicle, not itself");
    assert_false(steer_vehicle_has_behaviour(world, id, STEER_SEEK));
    steer_world_destroy(world);
}

static void test_a_removed_target_vehicle_is_refused(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId id = spawn_at(world, 100, 100);
    SteerVehicleId gone = spawn_at(world, 200, 100);
    steer_vehicle_destroy(world, gone);
    SteerBehaviourDef evade = steer_default_behaviour_def(STEER_EVADE);
    evade.evade.target = steer_target_vehicle(gone);
    assert_int_equal(steer_vehicle_set_behaviour(world, id, &evade), STEER_ERROR_INVALID_ID);
    assert_error_contains(world, "evade: target names a vehicle that does not exist");
    steer_world_destroy(world);
}

/* Setting a behaviour that is on updates its parameters and keeps its internal state: the wander
 * target carries on from where it was instead of jumping back to its start. */
static void test_updating_a_behaviour_keeps_its_state(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_WRAP, 4);
    SteerVehicleId id = spawn_moving(world, 500, 500, 50, 0);
    SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
    turn_on(world, id, &wander);
    run_steps(world, 30);
    SteerBehaviourState before, after;
    steer_vehicle_get_behaviour(world, id, STEER_WANDER, NULL, &before);
    SteerVec2 position = steer_vehicle_position(world, id);
    SteerVec2 local_before = steer_sub(before.wander_target, position);

    wander.weight = 2.0;
    wander.wander.jitter = 0.0; /* no more random motion: the target must stay where it was */
    turn_on(world, id, &wander);
    steer_world_step(world);
    steer_vehicle_get_behaviour(world, id, STEER_WANDER, NULL, &after);
    /* the circle moved with the vehicle, but the target kept its angle on it */
    SteerVec2 local_after = steer_sub(after.wander_target, steer_vehicle_position(world, id));
    double angle_before = atan2(local_before.y, local_before.x);
    double angle_after = atan2(local_after.y, local_after.x);
    assert_near(angle_after, angle_before, 0.2);
    SteerBehaviourDef now;
    steer_vehicle_get_behaviour(world, id, STEER_WANDER, &now, NULL);
    assert_near(now.weight, 2.0, 0.0);

    /* the path follower keeps its waypoint when its parameters change */
    const SteerVec2 points[] = {{100, 500}, {300, 500}, {300, 700}};
    SteerPathId path;
    steer_world_add_path(world, points, 3, false, &path);
    SteerVehicleId walker = spawn_at(world, 100, 500);
    SteerBehaviourDef follow = steer_default_behaviour_def(STEER_FOLLOW);
    follow.follow.path = path;
    turn_on(world, walker, &follow);
    run_steps(world, 200);
    SteerBehaviourState walked;
    steer_vehicle_get_behaviour(world, walker, STEER_FOLLOW, NULL, &walked);
    assert_true(walked.waypoint >= 1);
    follow.weight = 1.5;
    turn_on(world, walker, &follow);
    SteerBehaviourState kept;
    steer_vehicle_get_behaviour(world, walker, STEER_FOLLOW, NULL, &kept);
    assert_int_equal(kept.waypoint, walked.waypoint);
    steer_world_destroy(world);
}

/* The combination sees behaviours by priority (smaller first), ties by type; default priorities
 * put avoidance first and wander last. */
static void test_behaviours_are_ordered_by_priority(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId id = spawn_at(world, 100, 100);
    SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
    SteerBehaviourDef seek = steer_default_behaviour_def(STEER_SEEK);
    seek.seek.target = steer_target_point(0, 0);
    SteerBehaviourDef walls = steer_default_behaviour_def(STEER_AVOID_WALLS);
    SteerBehaviourDef obstacles = steer_default_behaviour_def(STEER_AVOID_OBSTACLES);
    turn_on(world, id, &wander);
    turn_on(world, id, &seek);
    turn_on(world, id, &walls);
    turn_on(world, id, &obstacles);
    SteerBehaviour order[8];
    assert_int_equal(steer_vehicle_get_behaviours(world, id, order, 8), 4);
    assert_true(order[0] == STEER_AVOID_WALLS || order[0] == STEER_AVOID_OBSTACLES);
    assert_true(order[1] == STEER_AVOID_WALLS || order[1] == STEER_AVOID_OBSTACLES);
    assert_int_equal(order[2], STEER_SEEK);
    assert_int_equal(order[3], STEER_WANDER);

    wander.priority = -5; /* moving one re-sorts */
    turn_on(world, id, &wander);
    assert_int_equal(steer_vehicle_get_behaviours(world, id, order, 8), 4);
    assert_int_equal(order[0], STEER_WANDER);

    assert_int_equal(steer_vehicle_clear_behaviour(world, id, STEER_SEEK), STEER_OK);
    assert_int_equal(steer_vehicle_get_behaviours(world, id, order, 8), 3);
    assert_false(steer_vehicle_has_behaviour(world, id, STEER_SEEK));
    assert_int_equal(steer_vehicle_clear_behaviours(world, id), STEER_OK);
    assert_int_equal(steer_vehicle_get_behaviours(world, id, order, 8), 0);
    steer_world_destroy(world);
}

/* ---- Switching on again what is on (a brain's think: evade the hunter, weight 3) ------------------ */

enum { RESET_VEHICLES = 24, RESET_STEPS = 40 };

/// The final definitions of both worlds below: a flock without a leash, a wander that draws (jitter)
/// at a smaller priority than its default, a separation with a comfort zone.
static void final_defs(SteerBehaviourDef *flock, SteerBehaviourDef *wander, SteerBehaviourDef *separate)
{
    *flock = steer_default_behaviour_def(STEER_FLOCK);
    flock->flock.cohesion = 0.7;
    flock->weight = 1.5;
    *wander = steer_default_behaviour_def(STEER_WANDER);
    wander->wander.jitter = 80.0;
    wander->priority = -2;
    wander->weight = 0.5;
    *separate = steer_default_behaviour_def(STEER_SEPARATE);
    separate->separate.comfort_distance = 15.0;
    separate->separate.comfort_multiplier = 2.0;
}

static SteerWorld *reset_world(int threads, SteerVehicleId *ids)
{
    SteerWorldDef def = steer_default_world_def();
    def.width = 400.0;
    def.height = 400.0;
    def.edges = STEER_EDGES_WRAP;
    def.seed = 7;
    def.threads = threads;
    SteerWorld *world = steer_world_create(&def);
    assert_non_null(world);
    for (int i = 0; i < RESET_VEHICLES; i++)
        ids[i] = spawn_moving(world, 100.0 + 30.0 * (i % 6), 100.0 + 30.0 * (i / 6), 20.0, 5.0 * (i % 3));
    return world;
}

static void assert_state_ok(const SteerWorld *world, const char *when)
{
    char why[256];
    if (!steer_world_check_state(world, why, sizeof why)) fail_msg("%s: %s", when, why);
}

/// What the world derives from a vehicle's slots: the order and the flags the step reads.
static void assert_same_slots(SteerWorld *a, SteerVehicleId ia, SteerWorld *b, SteerVehicleId ib)
{
    const SteerVehicle *va = steer_vehicle_lookup(a, ia), *vb = steer_vehicle_lookup(b, ib);
    assert_non_null(va);
    assert_non_null(vb);
    assert_int_equal(va->behaviour_count, vb->behaviour_count);
    for (int i = 0; i < va->behaviour_count; i++) {
        assert_int_equal(va->behaviours[i].def.type, vb->behaviours[i].def.type);
        assert_int_equal(va->behaviours[i].def.priority, vb->behaviours[i].def.priority);
        assert_near(va->behaviours[i].def.weight, vb->behaviours[i].def.weight, 0.0);
    }
    assert_int_equal(va->wants_neighbourhood, vb->wants_neighbourhood);
    assert_int_equal(va->plain_flock, vb->plain_flock);
    assert_int_equal(va->flock_slot, vb->flock_slot);
    assert_int_equal(va->step_class, vb->step_class);
    assert_int_equal(va->avoid_bits, vb->avoid_bits);
}

/* Switching on again, with other parameters or the same, what is already on lands where switching
 * it on once with the last parameters does: the same order of slots, the same flags (a leash on and
 * off again, jitter off and on again: the step class and the plain flock change and change back), the
 * same trajectory bit for bit on 1 and 2 threads; the grid's copies stay right (the world's own
 * check); a re-set with a bad value is refused and changes nothing. */
static void test_switching_on_again_matches_switching_on_once(void **state)
{
    (void)state;
    for (int threads = 1; threads <= 2; threads++) {
        SteerVehicleId ida[RESET_VEHICLES], idb[RESET_VEHICLES];
        SteerWorld *a = reset_world(threads, ida);
        SteerWorld *b = reset_world(threads, idb);
        SteerBehaviourDef flock, wander, separate;
        final_defs(&flock, &wander, &separate);
        for (int i = 0; i < RESET_VEHICLES; i++) {
            /* a: first something else of each, then the final definitions over them */
            SteerBehaviourDef first = flock;
            first.flock.wander_params.leash = STEER_LEASH_PULL; /* not a plain flock */
            first.weight = 3.0;
            turn_on(a, ida[i], &first);
            SteerBehaviourDef calm = wander;
            calm.wander.jitter = 0.0; /* draws nothing: another step class */
            calm.priority = 5;
            turn_on(a, ida[i], &calm);
            turn_on(a, ida[i], &separate);
            turn_on(a, ida[i], &flock);
            turn_on(a, ida[i], &wander); /* moves before the flock: priority -2 */
            turn_on(a, ida[i], &wander); /* the same bytes */
            /* b: the final definitions once, in the same order of first switching on (the draws) */
            turn_on(b, idb[i], &flock);
            turn_on(b, idb[i], &wander);
            turn_on(b, idb[i], &separate);
        }
        for (int i = 0; i < RESET_VEHICLES; i++) assert_same_slots(a, ida[i], b, idb[i]);
        SteerBehaviour order[4];
        assert_int_equal(steer_vehicle_get_behaviours(a, ida[0], order, 4), 3);
        assert_int_equal(order[0], STEER_WANDER);
        assert_state_ok(a, "after the first switches");

        for (int step = 0; step < RESET_STEPS; step++) {
            steer_world_step(a);
            steer_world_step(b);
            if (steer_world_checksum(a) != steer_world_checksum(b))
                fail_msg("%d thread(s): the trajectories part at step %d", threads, step + 1);
            /* a brain's query first: the grid is built, and the switches patch its copies */
            SteerVehicleId near_a, near_b;
            assert_true(steer_world_query_closest(a, steer_vec2(150, 150), 300.0, NULL, &near_a));
            assert_true(steer_world_query_closest(b, steer_vec2(150, 150), 300.0, NULL, &near_b));
            assert_state_ok(a, "after a query");
            if (step == RESET_STEPS / 2) { /* from here on a wander that draws nothing, in both */
                wander.wander.jitter = 0.0;
                for (int i = 0; i < RESET_VEHICLES; i++) turn_on(b, idb[i], &wander);
            }
            /* every think: the same definitions again (a copy: its own padding), and a round trip
             * through other flags and another place back to the same */
            for (int i = 0; i < RESET_VEHICLES; i++) {
                SteerBehaviourDef again = steer_default_behaviour_def(STEER_WANDER);
                again.wander.jitter = wander.wander.jitter;
                again.priority = wander.priority;
                again.weight = wander.weight;
                turn_on(a, ida[i], &again);
                turn_on(a, ida[i], &separate);
                if (step % 7 == 3) {
                    SteerBehaviourDef leashed = flock;
                    leashed.flock.wander_params.leash = STEER_LEASH_ROAM;
                    turn_on(a, ida[i], &leashed);
                    assert_false(steer_vehicle_lookup(a, ida[i])->plain_flock);
                    assert_state_ok(a, "after a leash");
                    SteerBehaviourDef still = wander;
                    still.wander.jitter = 80.0 - wander.wander.jitter; /* the other step class */
                    still.priority = 9;
                    turn_on(a, ida[i], &still);
                    assert_state_ok(a, "mid-think");
                    turn_on(a, ida[i], &flock);
                    turn_on(a, ida[i], &wander);
                }
                /* refused: nothing changes */
                SteerBehaviourDef bad = wander;
                bad.wander.radius = -1.0;
                assert_int_equal(steer_vehicle_set_behaviour(a, ida[i], &bad), STEER_ERROR_INVALID_ARGUMENT);
                assert_error_contains(a, "radius");
                bad = flock;
                bad.priority = 3;
                bad.weight = NAN;
                assert_int_equal(steer_vehicle_set_behaviour(a, ida[i], &bad), STEER_ERROR_INVALID_ARGUMENT);
                assert_error_contains(a, "weight");
                SteerBehaviourDef now;
                assert_int_equal(steer_vehicle_get_behaviour(a, ida[i], STEER_FLOCK, &now, NULL), STEER_OK);
                assert_int_equal(now.priority, flock.priority);
                assert_near(now.weight, flock.weight, 0.0);
                assert_same_slots(a, ida[i], b, idb[i]);
            }
            assert_state_ok(a, "after a think");
        }
        steer_world_destroy(a);
        steer_world_destroy(b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_round_trip),
        cmocka_unit_test(test_default_definitions_are_accepted),
        cmocka_unit_test(test_bad_parameters_are_rejected_and_change_nothing),
        cmocka_unit_test(test_a_vehicle_cannot_target_itself),
        cmocka_unit_test(test_a_removed_target_vehicle_is_refused),
        cmocka_unit_test(test_updating_a_behaviour_keeps_its_state),
        cmocka_unit_test(test_behaviours_are_ordered_by_priority),
        cmocka_unit_test(test_switching_on_again_matches_switching_on_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
