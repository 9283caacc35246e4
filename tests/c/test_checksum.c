/* SPDX-License-Identifier: MIT */
/* test_checksum.c - steer_world_checksum and steer_vehicle_checksum: twin worlds built and stepped
 * alike sum alike; any changed vehicle field, behaviour state, vehicle set or PRNG state changes
 * the sum; the vehicle sum names the vehicle that differs. */
#include "test_support.h"

#include "world_internal.h"

/* A small world with wanderers, a seeker and a follower of a path, stepped `steps` times. */
static SteerWorld *build(uint64_t seed, int steps, SteerVehicleId *ids)
{
    SteerWorld *w = make_world(STEER_EDGES_WRAP, seed);
    for (int i = 0; i < 4; i++) {
        ids[i] = spawn_at(w, 100.0 + 50.0 * i, 200.0);
        SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
        assert_int_equal(steer_vehicle_set_behaviour(w, ids[i], &wander), STEER_OK);
    }
    SteerBehaviourDef seek = steer_default_behaviour_def(STEER_SEEK);
    seek.seek.target = steer_target_vehicle(ids[0]);
    assert_int_equal(steer_vehicle_set_behaviour(w, ids[3], &seek), STEER_OK);
    for (int s = 0; s < steps; s++) steer_world_step(w);
    return w;
}

static void test_twin_worlds_sum_alike_and_steps_change_the_sum(void **state)
{
    (void)state;
    SteerVehicleId a_ids[4], b_ids[4];
    SteerWorld *a = build(7, 30, a_ids), *b = build(7, 30, b_ids);
    assert_true(steer_world_checksum(a) == steer_world_checksum(b));
    for (int i = 0; i < 4; i++) assert_true(steer_vehicle_checksum(a, a_ids[i]) == steer_vehicle_checksum(b, b_ids[i]));
    uint64_t before = steer_world_checksum(a);
    steer_world_step(a);
    assert_true(steer_world_checksum(a) != before);
    steer_world_step(b);
    assert_true(steer_world_checksum(a) == steer_world_checksum(b));
    SteerVehicleId c_ids[4];
    SteerWorld *c = build(8, 30, c_ids); /* another seed: other wander draws */
    assert_true(steer_world_checksum(c) != steer_world_checksum(a));
    steer_world_destroy(a);
    steer_world_destroy(b);
    steer_world_destroy(c);
}

/* Every field of SteerVehicle that a run can change: each one alone changes both sums. */
static void test_any_changed_vehicle_field_changes_the_sums(void **state)
{
    (void)state;
    SteerVehicleId ids[4];
    SteerWorld *w = build(3, 10, ids);
    uint64_t world_sum = steer_world_checksum(w);
    uint64_t own = steer_vehicle_checksum(w, ids[2]);
    uint64_t other = steer_vehicle_checksum(w, ids[1]);
    SteerVehicle *v = steer_vehicle_lookup(w, ids[2]);
    SteerVehicle saved = *v;
    SteerVehicleCold *cold = steer_vehicle_cold(w, v), saved_cold = *cold;
    SteerBehaviourSlot saved_slot = v->behaviours[0];
#define CHANGES(field_change)                                                                                          \
    do {                                                                                                               \
        field_change;                                                                                                  \
        if (steer_world_checksum(w) == world_sum) fail_msg("world sum unchanged by %s", #field_change);                \
        if (steer_vehicle_checksum(w, ids[2]) == own) fail_msg("vehicle sum unchanged by %s", #field_change);          \
        assert_true(steer_vehicle_checksum(w, ids[1]) == other);                                                       \
        *v = saved;                                                                                                    \
        *cold = saved_cold;                                                                                            \
        v->behaviours[0] = saved_slot;                                                                                 \
        assert_true(steer_world_checksum(w) == world_sum);                                                             \
    } while (0)
    CHANGES(v->position.x = nextafter(v->position.x, 1e9));
    CHANGES(v->position.y += 1.0);
    CHANGES(v->velocity.x = -v->velocity.x);
    CHANGES(v->velocity.y = nextafter(v->velocity.y, -1e9));
    CHANGES(v->heading.x += 1e-9);
    CHANGES(v->force.x += 1.0);
    CHANGES(v->spawn.x += 1.0);
    CHANGES(v->radius += 1.0);
    CHANGES(v->neighbor_radius += 1.0);
    CHANGES(cold->view_angle -= 0.1);
    CHANGES(v->flock_kinds ^= 4);
    CHANGES(v->mass += 1.0);
    CHANGES(v->max_speed += 1.0);
    CHANGES(v->max_force += 1.0);
    CHANGES(v->max_turn_rate += 1.0);
    CHANGES(v->response_time += 1.0);
    CHANGES(v->combine = STEER_COMBINE_DITHER);
    CHANGES(cold->color ^= 1);
    CHANGES(cold->user_data ^= 1);
    CHANGES(v->kind ^= 1);
    CHANGES(cold->serial += 1000);
    CHANGES(v->behaviours[0].wander_local.x += 1e-9);
    CHANGES(v->behaviours[0].waypoint += 1);
    CHANGES(v->behaviours[0].def.weight += 1.0);
    CHANGES(v->behaviours[0].roam_time += 1.0);
    CHANGES(v->behaviours[0].lost = true);
#undef CHANGES
    steer_world_destroy(w);
}

static void test_prng_state_and_vehicle_set_change_the_world_sum(void **state)
{
    (void)state;
    SteerVehicleId ids[4];
    SteerWorld *w = build(5, 5, ids);
    uint64_t sum = steer_world_checksum(w);
    steer_world_random_u32(w); /* one draw: only the PRNG moved */
    assert_true(steer_world_checksum(w) != sum);
    sum = steer_world_checksum(w);
    SteerPcg32 saved = w->rng;
    w->rng.increment += 2;
    assert_true(steer_world_checksum(w) != sum);
    w->rng = saved;
    assert_true(steer_world_checksum(w) == sum);
    assert_int_equal(steer_vehicle_destroy(w, ids[1]), STEER_OK);
    assert_true(steer_world_checksum(w) != sum);
    assert_true(steer_vehicle_checksum(w, ids[1]) == 0); /* a removed vehicle has no sum */
    steer_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_twin_worlds_sum_alike_and_steps_change_the_sum),
        cmocka_unit_test(test_any_changed_vehicle_field_changes_the_sums),
        cmocka_unit_test(test_prng_state_and_vehicle_set_change_the_world_sum),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
