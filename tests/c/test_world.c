/* SPDX-License-Identifier: MIT */
/* test_world.c - world definition, vehicle ids and lifetime, the step's integration and edges. */
#include "test_support.h"

#include <stdlib.h>

/* The numbers spell the string, and the library answers with the header's version. */
static void test_version_numbers_spell_the_version_and_the_library_agrees(void **state)
{
    (void)state;
    char spelled[32];
    snprintf(spelled, sizeof spelled, "%d.%d.%d", STEER_VERSION_MAJOR, STEER_VERSION_MINOR, STEER_VERSION_PATCH);
    assert_string_equal(spelled, STEER_VERSION);
    assert_string_equal(steer_version(), STEER_VERSION);
}

static void test_world_def_defaults_are_valid(void **state)
{
    (void)state;
    SteerWorldDef def = steer_default_world_def();
    assert_int_equal(steer_world_def_check(&def, NULL, 0), STEER_OK);
    assert_true(def.dt > 0.0 && def.dt < 0.1);
}

static void test_world_def_rejects_bad_values(void **state)
{
    (void)state;
    char message[128];
    SteerWorldDef def = steer_default_world_def();
    def.width = NAN;
    assert_int_equal(steer_world_def_check(&def, message, sizeof message), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(message, "width"));
    assert_null(steer_world_create(&def));
    def = steer_default_world_def();
    def.dt = 0.0;
    assert_int_equal(steer_world_def_check(&def, message, sizeof message), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(message, "dt"));
    def = steer_default_world_def();
    def.height = -5.0;
    assert_null(steer_world_create(&def));
    def = steer_default_world_def();
    def.edges = (SteerEdges)42;
    assert_null(steer_world_create(&def));
}

static void test_removed_vehicle_id_is_refused(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId a = spawn_at(world, 10, 10);
    assert_true(steer_vehicle_is_valid(world, a));
    assert_int_equal(steer_vehicle_destroy(world, a), STEER_OK);
    assert_false(steer_vehicle_is_valid(world, a));
    SteerVehicleState s;
    assert_int_equal(steer_vehicle_get(world, a, &s), STEER_ERROR_INVALID_ID);
    assert_error_contains(world, "removed");
    assert_int_equal(steer_vehicle_destroy(world, a), STEER_ERROR_INVALID_ID);
    assert_int_equal(steer_vehicle_set_max_speed(world, a, 50), STEER_ERROR_INVALID_ID);
    SteerBehaviourDef seek = steer_default_behaviour_def(STEER_SEEK);
    seek.seek.target = steer_target_point(0, 0);
    assert_int_equal(steer_vehicle_set_behaviour(world, a, &seek), STEER_ERROR_INVALID_ID);
    steer_world_destroy(world);
}

/* An allocator that hands a freed block back out for the next request of its size (up to 64 kept),
 * as malloc often does: a world made after another was destroyed then lies at its address. */
typedef struct Recycler {
    void *block[64];
    size_t size[64];
    int count;
} Recycler;

static void *recycle(void *user, void *block, size_t old_size, size_t new_size)
{
    Recycler *r = user;
    if (!block && new_size) {
        for (int i = 0; i < r->count; i++) {
            if (r->size[i] != new_size) continue;
            void *reused = r->block[i];
            r->block[i] = r->block[--r->count];
            r->size[i] = r->size[r->count];
            return reused;
        }
        return malloc(new_size);
    }
    if (block && !new_size) {
        if (r->count < 64) {
            r->block[r->count] = block;
            r->size[r->count++] = old_size;
        } else {
            free(block);
        }
        return NULL;
    }
    return realloc(block, new_size);
}

static void test_a_later_world_at_the_same_address_refuses_the_ids_of_the_first(void **state)
{
    (void)state;
    Recycler recycler = {.count = 0};
    SteerWorldDef def = steer_default_world_def();
    def.alloc = recycle;
    def.alloc_user = &recycler;
    int refused = 0, same_address = 0;
    for (int round = 0; round < 16; round++) {
        SteerWorld *first = steer_world_create(&def);
        SteerVehicleDef vdef = steer_default_vehicle_def();
        SteerVehicleId kept;
        assert_int_equal(steer_vehicle_create(first, &vdef, &kept), STEER_OK);
        steer_world_destroy(first);
        SteerWorld *later = steer_world_create(&def);
        same_address += later == first;
        SteerVehicleId fresh;
        assert_int_equal(steer_vehicle_create(later, &vdef, &fresh), STEER_OK);
        assert_int_equal(fresh.index1, kept.index1); /* the same slot and generation ... */
        assert_int_equal(fresh.generation, kept.generation);
        refused += !steer_vehicle_is_valid(later, kept); /* ... but another world's id */
        steer_world_destroy(later);
    }
    assert_int_equal(same_address, 16);
    assert_true(refused >= 15); /* the tags are 16 bits: two may still agree, once in 65,535 */
    for (int i = 0; i < recycler.count; i++) free(recycler.block[i]);
}

static void test_reused_slot_does_not_answer_to_the_old_id(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId old = spawn_at(world, 10, 10);
    steer_vehicle_destroy(world, old);
    SteerVehicleId fresh = spawn_at(world, 500, 500);
    assert_int_equal(fresh.index1, old.index1); /* the slot was reused ... */
    assert_int_not_equal(fresh.generation, old.generation);
    assert_false(steer_vehicle_is_valid(world, old)); /* ... but the old id does not reach it */
    assert_int_equal(steer_vehicle_set_position(world, old, steer_vec2(1, 1)), STEER_ERROR_INVALID_ID);
    SteerVec2 p = steer_vehicle_position(world, fresh);
    assert_float_equal(p.x, 500.0, 0.0);
    steer_world_destroy(world);
}

static void test_serial_names_the_live_vehicle_and_is_zero_once_removed(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId a = spawn_at(world, 10, 10), b = spawn_at(world, 20, 20);
    SteerVehicleState sa, sb;
    assert_int_equal(steer_vehicle_get(world, a, &sa), STEER_OK);
    assert_int_equal(steer_vehicle_get(world, b, &sb), STEER_OK);
    assert_true(sa.serial > 0 && sb.serial > sa.serial);
    assert_int_equal(steer_vehicle_serial(world, a), sa.serial);
    assert_int_equal(steer_vehicle_serial(world, b), sb.serial);
    steer_vehicle_destroy(world, a);
    assert_int_equal(steer_vehicle_serial(world, a), 0);
    SteerVehicleId c = spawn_at(world, 30, 30); /* reuses a's slot with a new serial */
    assert_int_equal(c.index1, a.index1);
    assert_int_equal(steer_vehicle_serial(world, a), 0);
    assert_true(steer_vehicle_serial(world, c) > sb.serial);
    assert_int_equal(steer_vehicle_serial(world, (SteerVehicleId){0}), 0);
    steer_world_destroy(world);
}

static void test_flow_field_get_returns_the_grid_until_removed(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVec2 vectors[6] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}, {0.5, 0.5}, {0, 0}};
    SteerFlowFieldDef def = {.origin = {10, 20}, .cell_size = 25, .cols = 3, .rows = 2, .vectors = vectors};
    SteerFlowFieldId id;
    assert_int_equal(steer_world_add_flow_field(world, &def, &id), STEER_OK);
    assert_int_equal(steer_flow_field_set(world, id, 2, 1, steer_vec2(7, 8)), STEER_OK);
    SteerFlowFieldDef got = {0};
    assert_true(steer_flow_field_get(world, id, &got));
    assert_true(steer_flow_field_get(world, id, NULL));
    assert_float_equal(got.origin.x, 10.0, 0.0);
    assert_float_equal(got.origin.y, 20.0, 0.0);
    assert_float_equal(got.cell_size, 25.0, 0.0);
    assert_int_equal(got.cols, 3);
    assert_int_equal(got.rows, 2);
    assert_true(got.vectors != vectors); /* the world's own copy ... */
    assert_float_equal(got.vectors[1].y, 1.0, 0.0);
    assert_float_equal(got.vectors[5].x, 7.0, 0.0); /* ... with the later change */
    assert_int_equal(steer_world_remove_flow_field(world, id), STEER_OK);
    SteerFlowFieldDef untouched = {.cols = -1};
    assert_false(steer_flow_field_get(world, id, &untouched));
    assert_int_equal(untouched.cols, -1);
    steer_world_destroy(world);
}

static void test_id_from_another_world_is_refused(void **state)
{
    (void)state;
    SteerWorld *one = make_world(STEER_EDGES_NONE, 1);
    SteerWorld *two = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId in_one = spawn_at(one, 1, 1);
    spawn_at(two, 2, 2);
    assert_false(steer_vehicle_is_valid(two, in_one));
    assert_int_equal(steer_vehicle_destroy(two, in_one), STEER_ERROR_INVALID_ID);
    assert_error_contains(two, "another world");
    SteerVehicleId null_id = STEER_NULL_ID;
    assert_false(steer_vehicle_is_valid(one, null_id));
    steer_world_destroy(one);
    steer_world_destroy(two);
}

static void test_packed_id_round_trips(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId id = spawn_at(world, 1, 1);
    SteerVehicleId back = steer_vehicle_id_unpack(steer_vehicle_id_pack(id));
    assert_true(steer_vehicle_is_valid(world, back));
    assert_int_equal(back.index1, id.index1);
    assert_int_equal(back.generation, id.generation);
    assert_int_equal(back.world, id.world);
    steer_world_destroy(world);
}

/* Every id type: the null id packs to 0 and is null; a live id round-trips through its own pack and
 * unpack and still names its object; ids of one type differ by index and by generation. */
#define CHECK_ID_HELPERS(name, null_id, first, second)                                                                 \
    do {                                                                                                               \
        assert_true(steer_##name##_id_is_null(null_id));                                                               \
        assert_int_equal(steer_##name##_id_pack(null_id), 0);                                                          \
        assert_true(steer_##name##_id_is_null(steer_##name##_id_unpack(0)));                                           \
        assert_false(steer_##name##_id_is_null(first));                                                                \
        assert_true(steer_##name##_id_equal(first, steer_##name##_id_unpack(steer_##name##_id_pack(first))));          \
        assert_true(steer_##name##_id_equal(first, first));                                                            \
        assert_false(steer_##name##_id_equal(first, second));                                                          \
        assert_false(steer_##name##_id_equal(first, null_id));                                                         \
        assert_int_not_equal(steer_##name##_id_pack(first), steer_##name##_id_pack(second));                           \
    } while (0)

static void test_every_id_type_packs_compares_and_knows_null(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId v1 = spawn_at(world, 1, 1), v2 = spawn_at(world, 2, 2), v0 = STEER_NULL_ID;
    CHECK_ID_HELPERS(vehicle, v0, v1, v2);

    SteerObstacleId o1, o2, o0 = STEER_NULL_ID;
    assert_int_equal(steer_world_add_obstacle(world, steer_vec2(10, 10), 5, &o1), STEER_OK);
    assert_int_equal(steer_world_add_obstacle(world, steer_vec2(50, 10), 5, &o2), STEER_OK);
    CHECK_ID_HELPERS(obstacle, o0, o1, o2);
    assert_true(steer_obstacle_get(world, steer_obstacle_id_unpack(steer_obstacle_id_pack(o2)), NULL, NULL));

    SteerWallId w1, w2, w0 = STEER_NULL_ID;
    assert_int_equal(steer_world_add_wall(world, steer_vec2(0, 0), steer_vec2(10, 0), &w1), STEER_OK);
    assert_int_equal(steer_world_add_wall(world, steer_vec2(0, 5), steer_vec2(10, 5), &w2), STEER_OK);
    CHECK_ID_HELPERS(wall, w0, w1, w2);
    assert_true(steer_wall_get(world, steer_wall_id_unpack(steer_wall_id_pack(w1)), NULL, NULL, NULL));

    SteerVec2 points[] = {{0, 0}, {100, 0}};
    SteerPathId p1, p2, p0 = STEER_NULL_ID;
    assert_int_equal(steer_world_add_path(world, points, 2, false, &p1), STEER_OK);
    assert_int_equal(steer_world_add_path(world, points, 2, true, &p2), STEER_OK);
    CHECK_ID_HELPERS(path, p0, p1, p2);
    assert_int_equal(steer_path_get(world, steer_path_id_unpack(steer_path_id_pack(p1)), NULL, 0, NULL), 2);

    SteerFlowFieldDef field = {steer_vec2(0, 0), 10, 2, 2, NULL};
    SteerFlowFieldId f1, f2, f0 = STEER_NULL_ID;
    assert_int_equal(steer_world_add_flow_field(world, &field, &f1), STEER_OK);
    assert_int_equal(steer_world_add_flow_field(world, &field, &f2), STEER_OK);
    CHECK_ID_HELPERS(flow_field, f0, f1, f2);
    assert_true(steer_flow_field_get(world, steer_flow_field_id_unpack(steer_flow_field_id_pack(f2)), NULL));

    /* A slot reused after a removal: same index, a later generation, so not equal to the old id. */
    assert_int_equal(steer_world_remove_obstacle(world, o1), STEER_OK);
    SteerObstacleId o3;
    assert_int_equal(steer_world_add_obstacle(world, steer_vec2(10, 10), 5, &o3), STEER_OK);
    assert_int_equal(o3.index1, o1.index1);
    assert_false(steer_obstacle_id_equal(o1, o3));
    assert_false(steer_obstacle_get(world, steer_obstacle_id_unpack(steer_obstacle_id_pack(o1)), NULL, NULL));
    steer_world_destroy(world);
}

static void test_bad_vehicle_def_is_rejected_and_world_unchanged(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    spawn_at(world, 1, 1);
    const char *fields[] = {"mass", "max_speed", "max_force", "radius", "position", "velocity"};
    SteerVehicleDef def;
    SteerVehicleId id = STEER_NULL_ID;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        def = steer_default_vehicle_def();
        switch (i) {
        case 0: def.mass = 0.0; break;
        case 1: def.max_speed = -1.0; break;
        case 2: def.max_force = INFINITY; break;
        case 3: def.radius = -2.0; break;
        case 4: def.position.x = NAN; break;
        case 5: def.velocity.y = INFINITY; break;
        }
        assert_int_equal(steer_vehicle_create(world, &def, &id), STEER_ERROR_INVALID_ARGUMENT);
        assert_error_contains(world, fields[i]);
        assert_int_equal(steer_world_vehicle_count(world), 1);
    }
    def = steer_default_vehicle_def();
    def.kind = STEER_MAX_KINDS;
    assert_int_equal(steer_vehicle_create(world, &def, &id), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "kind");
    assert_int_equal(steer_world_vehicle_count(world), 1);
    steer_world_destroy(world);
}

static void test_setters_reject_non_finite_values_and_keep_state(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId id = spawn_moving(world, 5, 5, 10, 0);
    SteerVehicleState before, after;
    steer_vehicle_get(world, id, &before);
    assert_int_equal(steer_vehicle_set_mass(world, id, NAN), STEER_ERROR_INVALID_ARGUMENT);
    assert_int_equal(steer_vehicle_set_mass(world, id, -1), STEER_ERROR_INVALID_ARGUMENT);
    assert_int_equal(steer_vehicle_set_max_speed(world, id, 0), STEER_ERROR_INVALID_ARGUMENT);
    assert_int_equal(steer_vehicle_set_max_force(world, id, INFINITY), STEER_ERROR_INVALID_ARGUMENT);
    assert_int_equal(steer_vehicle_set_radius(world, id, -0.5), STEER_ERROR_INVALID_ARGUMENT);
    assert_int_equal(steer_vehicle_set_position(world, id, steer_vec2(NAN, 0)), STEER_ERROR_INVALID_ARGUMENT);
    assert_int_equal(steer_vehicle_set_velocity(world, id, steer_vec2(0, -INFINITY)), STEER_ERROR_INVALID_ARGUMENT);
    assert_int_equal(steer_vehicle_set_heading(world, id, NAN), STEER_ERROR_INVALID_ARGUMENT);
    assert_int_equal(steer_vehicle_set_view_angle(world, id, 0), STEER_ERROR_INVALID_ARGUMENT);
    assert_int_equal(steer_vehicle_set_combine(world, id, (SteerCombine)9), STEER_ERROR_INVALID_ARGUMENT);
    steer_vehicle_get(world, id, &after);
    assert_memory_equal(&before, &after, sizeof before);
    assert_int_equal(steer_vehicle_set_max_speed(world, id, 4), STEER_OK);
    steer_vehicle_get(world, id, &after);
    assert_float_equal(after.speed, 4.0, 1e-12); /* a lower max_speed caps the current velocity */
    steer_world_destroy(world);
}

static void test_vehicles_are_listed_in_creation_order(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId ids[6];
    for (int i = 0; i < 6; i++) ids[i] = spawn_at(world, i, 0);
    steer_vehicle_destroy(world, ids[1]);
    steer_vehicle_destroy(world, ids[4]);
    SteerVehicleId late = spawn_at(world, 99, 0); /* reuses a freed slot, but comes last */
    SteerVehicleId listed[8];
    int n = steer_world_get_vehicles(world, listed, 8);
    assert_int_equal(n, 5);
    double expected_x[5] = {0, 2, 3, 5, 99};
    uint64_t last_serial = 0;
    for (int i = 0; i < n; i++) {
        SteerVehicleState s;
        assert_int_equal(steer_vehicle_get(world, listed[i], &s), STEER_OK);
        assert_float_equal(s.position.x, expected_x[i], 0.0);
        assert_true(s.serial > last_serial);
        last_serial = s.serial;
    }
    assert_int_equal(listed[4].index1, late.index1);
    steer_world_destroy(world);
}

static void test_step_truncates_force_and_speed(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId id = spawn_at(world, 0, 0);
    SteerBehaviourDef seek = steer_default_behaviour_def(STEER_SEEK);
    seek.seek.target = steer_target_point(100000, 0);
    seek.weight = 50.0; /* asks for far more than max_force */
    turn_on(world, id, &seek);
    steer_world_step(world);
    SteerVehicleState s;
    steer_vehicle_get(world, id, &s);
    assert_float_equal(steer_length(s.force), s.max_force, 1e-9);
    /* one step of acceleration max_force/mass */
    assert_float_equal(s.speed, s.max_force / s.mass * steer_world_dt(world), 1e-9);
    run_steps(world, 600);
    steer_vehicle_get(world, id, &s);
    assert_true(s.speed <= s.max_speed + 1e-9);
    assert_float_equal(s.speed, s.max_speed, 1e-6);
    steer_world_destroy(world);
}

static void test_heavier_vehicle_accelerates_slower(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleDef def = steer_default_vehicle_def();
    SteerVehicleId light, heavy;
    steer_vehicle_create(world, &def, &light);
    def.mass = 4.0;
    def.position.y = 100;
    steer_vehicle_create(world, &def, &heavy);
    SteerBehaviourDef seek = steer_default_behaviour_def(STEER_SEEK);
    seek.seek.target = steer_target_point(100000, 0);
    turn_on(world, light, &seek);
    seek.seek.target = steer_target_point(100000, 100);
    turn_on(world, heavy, &seek);
    run_steps(world, 10);
    SteerVehicleState l, h;
    steer_vehicle_get(world, light, &l);
    steer_vehicle_get(world, heavy, &h);
    assert_true(h.speed < l.speed * 0.5);
    steer_world_destroy(world);
}

static void test_heading_is_kept_at_rest(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleDef def = steer_default_vehicle_def();
    def.heading = 1.0;
    SteerVehicleId id;
    steer_vehicle_create(world, &def, &id);
    run_steps(world, 30);
    SteerVehicleState s;
    steer_vehicle_get(world, id, &s);
    assert_float_equal(steer_angle_of(s.heading), 1.0, 1e-12);
    assert_float_equal(s.side.x, -s.heading.y, 1e-12);
    assert_float_equal(s.side.y, s.heading.x, 1e-12);
    /* a tiny velocity below the epsilon does not turn it either */
    steer_vehicle_set_velocity(world, id, steer_vec2(0.0, 0.0));
    steer_vehicle_set_position(world, id, steer_vec2(0, 0));
    SteerBehaviourDef seek = steer_default_behaviour_def(STEER_SEEK);
    seek.seek.target = steer_target_point(-1000, 0);
    seek.weight = 1e-10;
    turn_on(world, id, &seek);
    steer_world_step(world);
    steer_vehicle_get(world, id, &s);
    assert_true(s.speed > 0.0);
    assert_float_equal(steer_angle_of(s.heading), 1.0, 1e-12);
    steer_world_destroy(world);
}

static void test_heading_follows_velocity(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId id = spawn_moving(world, 0, 0, 0, 50);
    steer_world_step(world);
    SteerVec2 h = steer_vehicle_heading(world, id);
    assert_float_equal(h.x, 0.0, 1e-12);
    assert_float_equal(h.y, 1.0, 1e-12);
    SteerVec2 p = steer_vehicle_position(world, id);
    assert_float_equal(p.y, 50.0 / 60.0, 1e-12);
    steer_world_destroy(world);
}

static void test_max_turn_rate_bounds_turning(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleDef def = steer_default_vehicle_def();
    def.velocity = steer_vec2(100, 0);
    def.max_force = 5000;
    def.max_turn_rate = 1.0; /* rad/s */
    SteerVehicleId id;
    steer_vehicle_create(world, &def, &id);
    SteerBehaviourDef seek = steer_default_behaviour_def(STEER_SEEK);
    seek.seek.target = steer_target_point(0, 1000); /* 90 degrees to the right */
    turn_on(world, id, &seek);
    double previous = 0.0;
    for (int i = 0; i < 60; i++) {
        steer_world_step(world);
        double angle = steer_angle_of(steer_vehicle_heading(world, id));
        assert_true(fabs(angle - previous) <= 1.0 / 60.0 + 1e-9);
        previous = angle;
    }
    assert_float_equal(previous, 1.0, 0.02); /* turned at the full rate for one second */
    steer_world_destroy(world);
}

static void test_wrap_edges_wrap_positions_and_offsets(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_WRAP, 1);
    SteerVehicleId id = spawn_moving(world, 999, 500, 100, 0);
    run_steps(world, 6);
    SteerVec2 p = steer_vehicle_position(world, id);
    assert_true(p.x >= 0.0 && p.x < 20.0);
    SteerVec2 offset = steer_world_offset(world, steer_vec2(990, 10), steer_vec2(5, 995));
    assert_float_equal(offset.x, 15.0, 1e-9);
    assert_float_equal(offset.y, -15.0, 1e-9);
    /* seeking across the seam goes the short way */
    SteerVehicleId seeker = spawn_at(world, 980, 300);
    SteerBehaviourDef seek = steer_default_behaviour_def(STEER_SEEK);
    seek.seek.target = steer_target_point(20, 300);
    turn_on(world, seeker, &seek);
    steer_world_step(world);
    assert_true(steer_vehicle_velocity(world, seeker).x > 0.0);
    steer_world_destroy(world);
}

static void test_contain_edges_keep_vehicles_inside(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_CONTAIN, 1);
    SteerVehicleId id = spawn_moving(world, 995, 3, 100, -100);
    run_steps(world, 30);
    SteerVehicleState s;
    steer_vehicle_get(world, id, &s);
    assert_float_equal(s.position.x, 1000.0, 0.0);
    assert_float_equal(s.position.y, 0.0, 0.0);
    assert_float_equal(s.speed, 0.0, 0.0); /* the outward velocity is removed */
    steer_world_destroy(world);
}

static void test_time_advances_by_dt(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    run_steps(world, 120);
    assert_float_equal(steer_world_time(world), 2.0, 1e-9);
    assert_int_equal(steer_world_step_count(world), 120);
    assert_int_equal(steer_world_set_dt(world, -1), STEER_ERROR_INVALID_ARGUMENT);
    assert_float_equal(steer_world_dt(world), 1.0 / 60.0, 0.0);
    steer_world_destroy(world);
}

/* A mixed scene: wander (the PRNG every step), dithering (the PRNG per decision), leashes (noise),
 * pursuit chains, obstacles and a wall, in a wrapping world. */
static SteerWorld *mixed_scene(uint64_t seed, SteerVehicleId *ids, int count)
{
    SteerWorld *world = make_world(STEER_EDGES_WRAP, seed);
    steer_world_add_obstacle(world, steer_vec2(500, 500), 40, NULL);
    steer_world_add_wall(world, steer_vec2(200, 200), steer_vec2(300, 260), NULL);
    for (int i = 0; i < count; i++) {
        ids[i] = spawn_moving(world, 37.0 * i, 900 - 23.0 * i, 10.0 * (i % 5), -5.0 * (i % 3));
        SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
        wander.wander.leash = (SteerLeash)(i % 3);
        wander.probability = 0.6;
        turn_on(world, ids[i], &wander);
        SteerBehaviourDef obstacles = steer_default_behaviour_def(STEER_AVOID_OBSTACLES);
        turn_on(world, ids[i], &obstacles);
        SteerBehaviourDef walls = steer_default_behaviour_def(STEER_AVOID_WALLS);
        turn_on(world, ids[i], &walls);
        if (i > 0 && i % 4 == 0) {
            SteerBehaviourDef pursue = steer_default_behaviour_def(STEER_PURSUE);
            pursue.pursue.target = steer_target_vehicle(ids[i - 1]);
            pursue.probability = 0.5;
            turn_on(world, ids[i], &pursue);
        }
        steer_vehicle_set_combine(world, ids[i], (SteerCombine)(i % 3));
    }
    return world;
}

static void test_same_seed_gives_identical_bits_and_other_seeds_differ(void **state)
{
    (void)state;
    enum { COUNT = 24 };
    SteerVehicleId a_ids[COUNT], b_ids[COUNT], c_ids[COUNT];
    SteerWorld *a = mixed_scene(1234, a_ids, COUNT);
    SteerWorld *b = mixed_scene(1234, b_ids, COUNT);
    SteerWorld *c = mixed_scene(1235, c_ids, COUNT);
    double largest_gap = 0.0;
    for (int step = 0; step < 900; step++) {
        steer_world_step(a);
        steer_world_step(b);
        steer_world_step(c);
        for (int i = 0; i < COUNT; i++) {
            SteerVehicleState sa, sb, sc;
            steer_vehicle_get(a, a_ids[i], &sa);
            steer_vehicle_get(b, b_ids[i], &sb);
            steer_vehicle_get(c, c_ids[i], &sc);
            assert_memory_equal(&sa.position, &sb.position, sizeof sa.position);
            assert_memory_equal(&sa.velocity, &sb.velocity, sizeof sa.velocity);
            assert_memory_equal(&sa.force, &sb.force, sizeof sa.force);
            double gap = steer_length(steer_world_offset(a, sa.position, sc.position));
            if (gap > largest_gap) largest_gap = gap;
        }
    }
    assert_true(largest_gap > 50.0);
    steer_world_destroy(a);
    steer_world_destroy(b);
    steer_world_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_numbers_spell_the_version_and_the_library_agrees),
        cmocka_unit_test(test_world_def_defaults_are_valid),
        cmocka_unit_test(test_a_later_world_at_the_same_address_refuses_the_ids_of_the_first),
        cmocka_unit_test(test_world_def_rejects_bad_values),
        cmocka_unit_test(test_removed_vehicle_id_is_refused),
        cmocka_unit_test(test_reused_slot_does_not_answer_to_the_old_id),
        cmocka_unit_test(test_serial_names_the_live_vehicle_and_is_zero_once_removed),
        cmocka_unit_test(test_flow_field_get_returns_the_grid_until_removed),
        cmocka_unit_test(test_id_from_another_world_is_refused),
        cmocka_unit_test(test_packed_id_round_trips),
        cmocka_unit_test(test_bad_vehicle_def_is_rejected_and_world_unchanged),
        cmocka_unit_test(test_setters_reject_non_finite_values_and_keep_state),
        cmocka_unit_test(test_vehicles_are_listed_in_creation_order),
        cmocka_unit_test(test_step_truncates_force_and_speed),
        cmocka_unit_test(test_heavier_vehicle_accelerates_slower),
        cmocka_unit_test(test_heading_is_kept_at_rest),
        cmocka_unit_test(test_heading_follows_velocity),
        cmocka_unit_test(test_max_turn_rate_bounds_turning),
        cmocka_unit_test(test_wrap_edges_wrap_positions_and_offsets),
        cmocka_unit_test(test_contain_edges_keep_vehicles_inside),
        cmocka_unit_test(test_time_advances_by_dt),
        cmocka_unit_test(test_every_id_type_packs_compares_and_knows_null),
        cmocka_unit_test(test_same_seed_gives_identical_bits_and_other_seeds_differ),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
