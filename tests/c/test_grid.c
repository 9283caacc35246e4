/* SPDX-License-Identifier: MIT */
/* test_grid.c - the spatial grid answers exactly what a scan of every vehicle / obstacle answers,
 * on many random worlds: sizes, radii, view cones, kinds, vehicles on cell borders, outside the
 * bounds, stacked on one point; wrapping and not; after steps, moves, removals and slot reuse. */
#include "test_support.h"

#include <stdlib.h>

#include "world_internal.h"

/* The test's own generator (never the world's: queries must not change the world's sequence). */
static uint64_t test_state = 0x853c49e6748fea9bULL;
static double urand(void)
{
    test_state = test_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(test_state >> 11) * (1.0 / 9007199254740992.0);
}
static int irand(int n) { return (int)(urand() * n); }

/* ---- Brute force: the documented semantics, written out plainly ---------------------------- */

static bool brute_passes(const SteerWorld *world, const SteerQueryFilter *f, SteerVehicleId id, SteerVec2 offset)
{
    SteerVehicleState s;
    assert_int_equal(steer_vehicle_get(world, id, &s), STEER_OK);
    if (!f) return true;
    if (f->kinds && !(f->kinds & (1ULL << s.kind))) return false;
    if (f->exclude.index1 == id.index1 && f->exclude.generation == id.generation && f->exclude.world == id.world)
        return false;
    if (f->view_angle < 2.0 * STEER_PI) {
        double length = steer_length(offset);
        if (length > 1e-12) {
            double cosine = steer_dot(offset, steer_normalize(f->heading)) / length;
            if (cosine < cos(0.5 * f->view_angle)) return false;
        }
    }
    return true;
}

static int brute_radius(const SteerWorld *world, SteerVec2 center, double radius, const SteerQueryFilter *f,
                        SteerVehicleId *out)
{
    static SteerVehicleId all[4096];
    int count = steer_world_get_vehicles(world, all, 4096);
    int n = 0;
    for (int i = 0; i < count; i++) {
        SteerVec2 offset = steer_world_offset(world, center, steer_vehicle_position(world, all[i]));
        if (steer_length_sq(offset) > radius * radius) continue;
        if (!brute_passes(world, f, all[i], offset)) continue;
        out[n++] = all[i];
    }
    return n;
}

static bool brute_closest(const SteerWorld *world, SteerVec2 point, double range, const SteerQueryFilter *f,
                          SteerVehicleId *out)
{
    static SteerVehicleId all[4096];
    int count = steer_world_get_vehicles(world, all, 4096);
    bool found = false;
    double best = range * range;
    for (int i = 0; i < count; i++) {
        SteerVec2 offset = steer_world_offset(world, point, steer_vehicle_position(world, all[i]));
        double d = steer_length_sq(offset);
        if (d > best || (found && d == best)) continue;
        if (!brute_passes(world, f, all[i], offset)) continue;
        best = d;
        found = true;
        *out = all[i];
    }
    return found;
}

static bool same_id(SteerVehicleId a, SteerVehicleId b)
{
    return a.index1 == b.index1 && a.generation == b.generation && a.world == b.world;
}

/* ---- Random worlds ------------------------------------------------------------------------- */

static SteerWorld *random_world(SteerEdges edges)
{
    SteerWorldDef def = steer_default_world_def();
    def.width = 40.0 + urand() * 1500.0;
    def.height = 40.0 + urand() * 1500.0;
    def.edges = edges;
    def.seed = (uint64_t)irand(1000);
    SteerWorld *world = steer_world_create(&def);
    assert_non_null(world);
    return world;
}

/// A coordinate: mostly inside, some outside the bounds, some on round numbers (cell borders).
static double random_coordinate(double size)
{
    double pick = urand();
    if (pick < 0.6) return urand() * size;
    if (pick < 0.8) return floor(urand() * size / 25.0) * 25.0; /* on a lattice of borders */
    return -size + urand() * 3.0 * size;                        /* far outside, either side */
}

static SteerVehicleId random_vehicle(SteerWorld *world)
{
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position =
        steer_vec2(random_coordinate(steer_world_width(world)), random_coordinate(steer_world_height(world)));
    def.velocity = steer_vec2(urand() * 200.0 - 100.0, urand() * 200.0 - 100.0);
    def.kind = (uint32_t)irand(4);
    def.neighbor_radius = urand() < 0.1 ? 0.0 : urand() * 120.0;
    def.view_angle = urand() < 0.5 ? 2.0 * STEER_PI : 0.1 + urand() * 6.0;
    def.flock_kinds = urand() < 0.5 ? 0 : (uint64_t)irand(16);
    SteerVehicleId id;
    assert_int_equal(steer_vehicle_create(world, &def, &id), STEER_OK);
    return id;
}

static void populate(SteerWorld *world, SteerVehicleId *ids, int n)
{
    for (int i = 0; i < n; i++) {
        /* A few stacked exactly on an earlier vehicle (ties for closest, zero offsets). */
        if (i > 0 && urand() < 0.05) {
            ids[i] = random_vehicle(world);
            steer_vehicle_set_position(world, ids[i], steer_vehicle_position(world, ids[irand(i)]));
        } else {
            ids[i] = random_vehicle(world);
        }
    }
}

static SteerQueryFilter random_filter(const SteerVehicleId *ids, int n)
{
    SteerQueryFilter f = steer_default_query_filter();
    if (urand() < 0.5) f.kinds = (uint64_t)irand(16);
    if (n > 0 && urand() < 0.5) f.exclude = ids[irand(n)];
    if (urand() < 0.5) {
        f.view_angle = 0.05 + urand() * 6.2;
        f.heading = steer_vec2_from_angle(urand() * 2.0 * STEER_PI);
    }
    return f;
}

static double random_radius(const SteerWorld *world)
{
    double pick = urand();
    if (pick < 0.1) return 0.0;
    if (pick < 0.7) return urand() * 80.0;
    if (pick < 0.9) return urand() * 400.0;
    return urand() * 2.0 * steer_world_width(world); /* covers the world more than once */
}

static void check_queries(SteerWorld *world, const SteerVehicleId *ids, int n)
{
    static SteerVehicleId got[4096], expected[4096];
    for (int q = 0; q < 25; q++) {
        SteerVec2 center =
            steer_vec2(random_coordinate(steer_world_width(world)), random_coordinate(steer_world_height(world)));
        if (n > 0 && urand() < 0.3) center = steer_vehicle_position(world, ids[irand(n)]);
        double radius = random_radius(world);
        SteerQueryFilter f = random_filter(ids, n);
        const SteerQueryFilter *filter = urand() < 0.2 ? NULL : &f;

        int count = steer_world_query_radius(world, center, radius, filter, got, 4096);
        int want = brute_radius(world, center, radius, filter, expected);
        if (count != want)
            fail_msg("query_radius at (%g, %g) r %g: %d found, brute force %d", center.x, center.y, radius, count,
                     want);
        for (int i = 0; i < count; i++) assert_true(same_id(got[i], expected[i]));

        /* A short buffer gets the first ones in creation order and the full count. */
        if (want > 2) {
            SteerVehicleId two[2];
            assert_int_equal(steer_world_query_radius(world, center, radius, filter, two, 2), want);
            assert_true(same_id(two[0], expected[0]) && same_id(two[1], expected[1]));
        }

        SteerVehicleId closest = STEER_NULL_ID, brute = STEER_NULL_ID;
        bool found = steer_world_query_closest(world, center, radius, filter, &closest);
        bool brute_found = brute_closest(world, center, radius, filter, &brute);
        assert_int_equal(found, brute_found);
        if (found) assert_true(same_id(closest, brute));
    }
    /* Every vehicle's own neighbourhood, as its group behaviours see it. */
    for (int i = 0; i < n; i += 1 + n / 20) {
        if (!steer_vehicle_is_valid(world, ids[i])) continue;
        SteerVehicleState s;
        steer_vehicle_get(world, ids[i], &s);
        SteerQueryFilter f = steer_vehicle_neighbor_filter(world, ids[i]);
        assert_true(f.kinds == (s.flock_kinds ? s.flock_kinds : 1ULL << s.kind));
        int count = steer_world_query_neighbors(world, ids[i], -1.0, got, 4096);
        int want = brute_radius(world, s.position, s.neighbor_radius, &f, expected);
        assert_int_equal(count, want);
        for (int k = 0; k < count; k++) assert_true(same_id(got[k], expected[k]));
    }
}

static void grid_matches_brute_force(SteerEdges edges)
{
    static SteerVehicleId ids[600];
    for (int trial = 0; trial < 40; trial++) {
        SteerWorld *world = random_world(edges);
        int n = irand(trial < 3 ? 3 : 500);
        populate(world, ids, n);
        check_queries(world, ids, n);

        /* Move everyone (the step rebuilds the grid), then check again. */
        for (int i = 0; i < n; i++) {
            SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
            turn_on(world, ids[i], &wander);
        }
        run_steps(world, 3);
        check_queries(world, ids, n);

        /* Changes between steps are seen at once: moves, removals, new vehicles in freed slots. */
        for (int i = 0; i < n; i++) {
            double pick = urand();
            if (pick < 0.2) {
                SteerVec2 p = steer_vec2(random_coordinate(steer_world_width(world)),
                                         random_coordinate(steer_world_height(world)));
                assert_int_equal(steer_vehicle_set_position(world, ids[i], p), STEER_OK);
            } else if (pick < 0.3) {
                assert_int_equal(steer_vehicle_destroy(world, ids[i]), STEER_OK);
                ids[i] = random_vehicle(world);
            } else if (pick < 0.35) {
                assert_int_equal(steer_vehicle_set_kind(world, ids[i], (uint32_t)irand(4)), STEER_OK);
            }
        }
        check_queries(world, ids, n);
        steer_world_destroy(world);
    }
}

static void test_grid_matches_brute_force_unbounded(void **state)
{
    (void)state;
    grid_matches_brute_force(STEER_EDGES_NONE);
}

static void test_grid_matches_brute_force_wrapping(void **state)
{
    (void)state;
    grid_matches_brute_force(STEER_EDGES_WRAP);
}

static void test_grid_matches_brute_force_contained(void **state)
{
    (void)state;
    grid_matches_brute_force(STEER_EDGES_CONTAIN);
}

/* ---- The index between steps: changes a script makes, then queries ------------------------ */

/// A behaviour switch as a brain makes one: on (or updated), one off, or all off.
static void random_switch(SteerWorld *world, SteerVehicleId id, const SteerVehicleId *ids, int n)
{
    double pick = urand();
    if (pick < 0.3) {
        SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
        wander.wander.radius = 5.0 + urand() * 40.0;
        turn_on(world, id, &wander);
    } else if (pick < 0.5) {
        SteerBehaviourDef flock = steer_default_behaviour_def(STEER_FLOCK);
        turn_on(world, id, &flock);
    } else if (pick < 0.7 && n > 1) {
        SteerBehaviourDef pursue = steer_default_behaviour_def(STEER_PURSUE);
        SteerVehicleId target = ids[irand(n)];
        if (same_id(target, id)) return;
        pursue.pursue.target = steer_target_vehicle(target);
        turn_on(world, id, &pursue);
    } else if (pick < 0.9) {
        assert_int_equal(steer_vehicle_clear_behaviour(world, id, STEER_WANDER), STEER_OK);
    } else {
        assert_int_equal(steer_vehicle_clear_behaviours(world, id), STEER_OK);
    }
}

/// One change between steps: spawn, remove, move, switch a behaviour or change kind.
static void random_change(SteerWorld *world, SteerVehicleId *ids, int *n, int capacity)
{
    double pick = urand();
    if (*n == 0 || (pick < 0.2 && *n < capacity)) {
        ids[(*n)++] = random_vehicle(world);
    } else if (pick < 0.35) {
        int i = irand(*n);
        assert_int_equal(steer_vehicle_destroy(world, ids[i]), STEER_OK);
        ids[i] = ids[--*n];
    } else if (pick < 0.6) {
        SteerVec2 p =
            steer_vec2(random_coordinate(steer_world_width(world)), random_coordinate(steer_world_height(world)));
        assert_int_equal(steer_vehicle_set_position(world, ids[irand(*n)], p), STEER_OK);
    } else if (pick < 0.9) {
        random_switch(world, ids[irand(*n)], ids, *n);
    } else {
        assert_int_equal(steer_vehicle_set_kind(world, ids[irand(*n)], (uint32_t)irand(4)), STEER_OK);
    }
}

static void interleaved_changes_match_brute_force(SteerEdges edges)
{
    static SteerVehicleId ids[700];
    for (int trial = 0; trial < 12; trial++) {
        SteerWorld *world = random_world(edges);
        int n = irand(trial < 2 ? 4 : 400);
        populate(world, ids, n);
        for (int round = 0; round < 30; round++) {
            int changes = 1 + irand(trial % 3 == 0 ? 40 : 4);
            for (int c = 0; c < changes; c++) random_change(world, ids, &n, 700);
            check_queries(world, ids, n);
            if (urand() < 0.2) run_steps(world, 1 + irand(2));
        }
        steer_world_destroy(world);
    }
}

static void test_index_between_steps_matches_brute_force_unbounded(void **state)
{
    (void)state;
    interleaved_changes_match_brute_force(STEER_EDGES_NONE);
}

static void test_index_between_steps_matches_brute_force_wrapping(void **state)
{
    (void)state;
    interleaved_changes_match_brute_force(STEER_EDGES_WRAP);
}

static void test_index_between_steps_matches_brute_force_contained(void **state)
{
    (void)state;
    interleaved_changes_match_brute_force(STEER_EDGES_CONTAIN);
}

/* A brain's think switches behaviours, spawns, removes and moves vehicles and asks the world
 * between two steps: none of that may rebuild the index (O(N) per change). The step moves every
 * vehicle; in a world queried between steps it rebuilds the index at its end, so that no query
 * (no brain's think) pays for the build. */
static void test_changes_between_steps_never_rebuild_the_index(void **state)
{
    (void)state;
    static SteerVehicleId ids[1200];
    SteerWorld *world = make_world(STEER_EDGES_WRAP, 3);
    int n = 1000;
    populate(world, ids, n);
    run_steps(world, 1);
    SteerVehicleId found;
    steer_world_query_closest(world, steer_vec2(500.0, 500.0), 100.0, NULL, &found);
    unsigned builds = world->grid.builds;
    for (int i = 0; i < 300; i++) {
        random_switch(world, ids[irand(n)], ids, n);
        assert_int_equal(steer_vehicle_destroy(world, ids[i]), STEER_OK);
        ids[i] = random_vehicle(world);
        assert_int_equal(
            steer_vehicle_set_position(world, ids[irand(n)], steer_vec2(urand() * 1000.0, urand() * 1000.0)), STEER_OK);
        SteerVec2 at = steer_vec2(urand() * 1000.0, urand() * 1000.0);
        SteerVehicleId brute = STEER_NULL_ID;
        bool brute_found = brute_closest(world, at, 60.0, NULL, &brute);
        assert_int_equal(steer_world_query_closest(world, at, 60.0, NULL, &found), brute_found);
        if (brute_found) assert_true(same_id(found, brute));
    }
    assert_int_equal(world->grid.builds, builds);
    run_steps(world, 1);
    /* one build at the start (the step's own, after the spawns), one at the end (for the queries) */
    assert_int_equal(world->grid.builds, builds + 2);
    unsigned after_step = world->grid.builds;
    steer_world_query_closest(world, steer_vec2(500.0, 500.0), 100.0, NULL, &found);
    random_switch(world, ids[irand(n)], ids, n);
    steer_world_query_closest(world, steer_vec2(100.0, 500.0), 100.0, NULL, &found);
    assert_int_equal(world->grid.builds, after_step);
    /* the step reuses the end build: nothing moved since, switches patched it */
    run_steps(world, 1);
    assert_int_equal(world->grid.builds, after_step + 1);
    /* nobody asked since: the next step builds at its start only, not again at its end */
    run_steps(world, 2);
    assert_int_equal(world->grid.builds, after_step + 2);
    steer_world_destroy(world);
}

/* Spawning and removing for long without a step keeps the creation order compact. */
static void test_many_removals_between_steps_keep_order_compact(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId keep = spawn_at(world, 10.0, 10.0);
    for (int i = 0; i < 5000; i++) {
        SteerVehicleId v = spawn_at(world, urand() * 1000.0, urand() * 1000.0);
        assert_int_equal(steer_vehicle_destroy(world, v), STEER_OK);
    }
    assert_int_equal(steer_world_vehicle_count(world), 1);
    assert_true(world->order_count < 200);
    SteerVehicleId out[2];
    assert_int_equal(steer_world_get_vehicles(world, out, 2), 1);
    assert_true(same_id(out[0], keep));
    assert_int_equal(steer_world_query_radius(world, steer_vec2(10.0, 10.0), 1.0, NULL, out, 2), 1);
    assert_true(same_id(out[0], keep));
    steer_world_destroy(world);
}

/* ---- Hand-made cases ----------------------------------------------------------------------- */

static void test_wrapping_query_finds_neighbours_across_the_edge(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_WRAP, 1);
    SteerVehicleId near_corner = spawn_at(world, 995.0, 998.0);
    spawn_at(world, 500.0, 500.0);
    SteerVehicleId out[4];
    assert_int_equal(steer_world_query_radius(world, steer_vec2(3.0, 2.0), 10.0, NULL, out, 4), 1);
    assert_true(same_id(out[0], near_corner));
    steer_world_destroy(world);
}

static void test_far_outside_vehicles_are_found(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId far = spawn_at(world, -50000.0, 1e6);
    spawn_at(world, 10.0, 10.0);
    SteerVehicleId out[4];
    assert_int_equal(steer_world_query_radius(world, steer_vec2(-50001.0, 1e6), 2.0, NULL, out, 4), 1);
    assert_true(same_id(out[0], far));
    assert_true(steer_world_query_closest(world, steer_vec2(-40000.0, 1e6), 20000.0, NULL, &out[1]));
    assert_true(same_id(out[1], far));
    steer_world_destroy(world);
}

static void test_queries_between_steps_see_new_positions(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId a = spawn_at(world, 100.0, 100.0);
    SteerVehicleId out[4];
    assert_int_equal(steer_world_query_radius(world, steer_vec2(100.0, 100.0), 5.0, NULL, out, 4), 1);
    steer_vehicle_set_position(world, a, steer_vec2(700.0, 100.0));
    assert_int_equal(steer_world_query_radius(world, steer_vec2(100.0, 100.0), 5.0, NULL, out, 4), 0);
    assert_int_equal(steer_world_query_radius(world, steer_vec2(700.0, 100.0), 5.0, NULL, out, 4), 1);
    SteerVehicleId b = spawn_at(world, 702.0, 100.0);
    assert_int_equal(steer_world_query_radius(world, steer_vec2(700.0, 100.0), 5.0, NULL, out, 4), 2);
    steer_vehicle_destroy(world, a);
    assert_int_equal(steer_world_query_radius(world, steer_vec2(700.0, 100.0), 5.0, NULL, out, 4), 1);
    assert_true(same_id(out[0], b));
    steer_world_destroy(world);
}

static void test_neighbors_query_rejects_a_removed_vehicle(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId a = spawn_at(world, 100.0, 100.0);
    steer_vehicle_destroy(world, a);
    SteerVehicleId out[4];
    assert_int_equal(steer_world_query_neighbors(world, a, 10.0, out, 4), -1);
    assert_error_contains(world, "neighbors");
    steer_world_destroy(world);
}

static void test_step_does_not_grow_the_grid_once_warm(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_WRAP, 3);
    for (int i = 0; i < 300; i++) {
        SteerVehicleId id = spawn_moving(world, urand() * 1000.0, urand() * 1000.0, urand() * 50.0, 20.0);
        SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
        turn_on(world, id, &wander);
    }
    run_steps(world, 2);
    const SteerGrid *grid = &world->grid;
    SteerGridEntry *entry = grid->entry;
    int *cells = grid->cell_start;
    int capacity = grid->capacity, cell_capacity = grid->cell_capacity;
    run_steps(world, 50);
    assert_ptr_equal(grid->entry, entry);
    assert_ptr_equal(grid->cell_start, cells);
    assert_int_equal(grid->capacity, capacity);
    assert_int_equal(grid->cell_capacity, cell_capacity);
    /* Cells are at least the largest neighbour radius: the 3 x 3 block holds every neighbour. */
    assert_true(grid->cell_w >= 50.0 && grid->cell_h >= 50.0);
    steer_world_destroy(world);
}

/// Field by field: an entry gathered from the vehicles leaves its padding as it found it.
static bool same_entry(const SteerGridEntry *a, const SteerGridEntry *b)
{
    return memcmp(&a->x, &b->x, offsetof(SteerGridEntry, rank) - offsetof(SteerGridEntry, x)) == 0 &&
           a->rank == b->rank && a->slot == b->slot && a->kind == b->kind && a->wants == b->wants &&
           a->exact == b->exact;
}

/// The grid the build makes from the step's staged copy is the one it makes from the vehicles.
/// `plain`: only plain flockers (flocking with every kind) and drifters, so that the step stages
/// `quick` alone and gathering reads the vehicles (grid.h: stage_whole).
static void staged_build_matches_fresh_build(SteerEdges edges, bool vehicle_targets, bool plain)
{
    static SteerGridEntry staged[400];
    static int staged_cells[2048];
    SteerWorld *world = make_world(edges, 5);
    SteerVehicleId first = {0, 0, 0};
    for (int i = 0; i < 300; i++) {
        SteerVehicleId id = spawn_moving(world, urand() * 1000.0, urand() * 1000.0, urand() * 50.0, urand() * 20.0);
        if (i == 0) first = id;
        assert_int_equal(steer_vehicle_set_kind(world, id, (uint32_t)irand(3)), STEER_OK);
        if (plain) {
            if (i % 4 == 0) continue; /* a drifter, flocking with its own kind: not every kind in common */
            assert_int_equal(steer_vehicle_set_flock_kinds(world, id, 7), STEER_OK);
            SteerBehaviourDef flock = steer_default_behaviour_def(STEER_FLOCK);
            turn_on(world, id, &flock);
            continue;
        }
        if (i % 7 == 0) assert_int_equal(steer_vehicle_set_view_angle(world, id, 4.0), STEER_OK);
        if (i % 5 == 0) assert_int_equal(steer_vehicle_set_flock_kinds(world, id, 7), STEER_OK);
        /* flockers (the step's batched path) among wanderers (the general path) */
        SteerBehaviourDef def = steer_default_behaviour_def(i % 3 ? STEER_FLOCK : STEER_WANDER);
        turn_on(world, id, &def);
        if (vehicle_targets && i == 299) { /* aims at a vehicle: every force before anyone moves */
            SteerBehaviourDef pursue = steer_default_behaviour_def(STEER_PURSUE);
            pursue.pursue.target = steer_target_vehicle(first);
            turn_on(world, id, &pursue);
        }
    }
    for (int step = 0; step < 5; step++) {
        steer_world_step(world);
        assert_true(world->grid.staged);
        const SteerGrid *g = steer_world_grid(world);
        assert_true(g->count == 300 && g->cols * g->rows < 2048);
        assert_true(g->built_whole == !plain);
        memcpy(staged, g->entry, 300 * sizeof *staged);
        memcpy(staged_cells, g->cell_start, (size_t)(g->cols * g->rows + 1) * sizeof(int));
        double max_neighbor = g->max_neighbor_radius, max_radius = g->max_radius, max_speed = g->max_speed;
        double origin_x = g->origin_x, origin_y = g->origin_y;
        uint64_t kinds = g->all_kinds;
        steer_world_vehicles_changed(world); /* forget the staged copy: rebuild from the vehicles */
        g = steer_world_grid(world);
        for (int k = 0; k < 300; k++) assert_true(same_entry(&g->entry[k], &staged[k]));
        assert_memory_equal(g->cell_start, staged_cells, (size_t)(g->cols * g->rows + 1) * sizeof(int));
        assert_true(g->max_neighbor_radius == max_neighbor && g->max_radius == max_radius && g->max_speed == max_speed);
        assert_true(g->origin_x == origin_x && g->origin_y == origin_y && g->all_kinds == kinds);
        /* What the neighbourhood pre-pass reads instead of the entries says the same. */
        int fast = 0;
        for (int k = 0; k < 300; k++) {
            const SteerGridEntry *e = &g->entry[k];
            assert_int_equal(g->asker[k].rank, e->rank);
            assert_int_equal(g->asker[k].wants, e->wants);
            assert_true(g->asker[k].r2 == (float)(e->neighbor_radius * e->neighbor_radius));
            bool can = e->wants && e->view_cos < -1.0 && (g->all_kinds & ~e->flock_kinds) == 0;
            assert_int_equal(g->asker[k].fast, can);
            fast += can;
        }
        assert_true(fast > 0 && fast < 300);
        /* The next step then starts from a build nobody gathered: it stages the plain world's quick part only. */
        if (plain) steer_world_vehicles_changed(world);
    }
    /* A setter after the step invalidates the staged copy: the next build sees the change. */
    assert_int_equal(steer_vehicle_set_position(world, first, steer_vec2(123.0, 456.0)), STEER_OK);
    assert_false(world->grid.staged);
    const SteerGrid *g = steer_world_grid(world);
    const SteerGridEntry *e = &g->entry[g->where[steer_vehicle_slot(world, steer_vehicle_lookup(world, first))]];
    assert_true(e->x == 123.0 && e->y == 456.0);
    steer_world_destroy(world);
}

static void test_staged_build_matches_fresh_build(void **state)
{
    (void)state;
    staged_build_matches_fresh_build(STEER_EDGES_WRAP, false, false);
    staged_build_matches_fresh_build(STEER_EDGES_NONE, false, false);
    staged_build_matches_fresh_build(STEER_EDGES_CONTAIN, true, false);
    staged_build_matches_fresh_build(STEER_EDGES_WRAP, false, true);
    staged_build_matches_fresh_build(STEER_EDGES_NONE, false, true);
}

/* ---- Obstacles ----------------------------------------------------------------------------- */

static int brute_obstacles(const SteerWorld *world, SteerVec2 a, SteerVec2 b, double radius, SteerObstacleId *out)
{
    static SteerObstacleId all[2048];
    int count = steer_world_get_obstacles(world, all, 2048);
    SteerVec2 ab = steer_world_offset(world, a, b);
    double length_sq = steer_length_sq(ab);
    int n = 0;
    for (int i = 0; i < count; i++) {
        SteerVec2 center;
        double r;
        steer_obstacle_get(world, all[i], &center, &r);
        SteerVec2 ac = steer_world_offset(world, a, center);
        double t = length_sq > 0.0 ? steer_dot(ac, ab) / length_sq : 0.0;
        t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
        double reach = radius + r;
        if (steer_distance_sq(ac, steer_scale(ab, t)) > reach * reach) continue;
        out[n++] = all[i];
    }
    return n;
}

static void test_obstacle_query_matches_brute_force(void **state)
{
    (void)state;
    static SteerObstacleId got[2048], want[2048], ids[400];
    for (int trial = 0; trial < 60; trial++) {
        SteerWorld *world = random_world(trial % 3 == 0 ? STEER_EDGES_WRAP : STEER_EDGES_NONE);
        double w = steer_world_width(world), h = steer_world_height(world);
        int n = irand(300);
        for (int i = 0; i < n; i++) {
            double r = urand() < 0.1 ? urand() * 300.0 : 1.0 + urand() * 30.0;
            assert_int_equal(
                steer_world_add_obstacle(world, steer_vec2(random_coordinate(w), random_coordinate(h)), r, &ids[i]),
                STEER_OK);
        }
        for (int q = 0; q < 40; q++) {
            if (q == 20 && n > 0) {
                /* Removal and slot reuse between queries. */
                for (int i = 0; i < n; i += 3) steer_world_remove_obstacle(world, ids[i]);
                for (int i = 0; i < n; i += 6)
                    steer_world_add_obstacle(world, steer_vec2(random_coordinate(w), random_coordinate(h)), 5.0,
                                             &ids[i]);
            }
            SteerVec2 a = steer_vec2(random_coordinate(w), random_coordinate(h));
            SteerVec2 b =
                urand() < 0.2 ? a : steer_add(a, steer_vec2(urand() * 400.0 - 200.0, urand() * 400.0 - 200.0));
            double radius = urand() < 0.2 ? 0.0 : urand() * 60.0;
            int count = steer_world_query_obstacles(world, a, b, radius, got, 2048);
            int expected = brute_obstacles(world, a, b, radius, want);
            assert_int_equal(count, expected);
            for (int i = 0; i < count; i++) {
                assert_int_equal(got[i].index1, want[i].index1);
                assert_int_equal(got[i].generation, want[i].generation);
            }
        }
        steer_world_destroy(world);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid_matches_brute_force_unbounded),
        cmocka_unit_test(test_grid_matches_brute_force_wrapping),
        cmocka_unit_test(test_grid_matches_brute_force_contained),
        cmocka_unit_test(test_index_between_steps_matches_brute_force_unbounded),
        cmocka_unit_test(test_index_between_steps_matches_brute_force_wrapping),
        cmocka_unit_test(test_index_between_steps_matches_brute_force_contained),
        cmocka_unit_test(test_changes_between_steps_never_rebuild_the_index),
        cmocka_unit_test(test_many_removals_between_steps_keep_order_compact),
        cmocka_unit_test(test_wrapping_query_finds_neighbours_across_the_edge),
        cmocka_unit_test(test_far_outside_vehicles_are_found),
        cmocka_unit_test(test_queries_between_steps_see_new_positions),
        cmocka_unit_test(test_neighbors_query_rejects_a_removed_vehicle),
        cmocka_unit_test(test_step_does_not_grow_the_grid_once_warm),
        cmocka_unit_test(test_staged_build_matches_fresh_build),
        cmocka_unit_test(test_obstacle_query_matches_brute_force),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
