/* SPDX-License-Identifier: MIT */
/* test_wall_grid.c - wall avoidance through the wall grid moves every vehicle exactly as a scan of
 * every wall does: random worlds (wrapping, bounded, unbounded) with hundreds of walls - short and
 * long, axis-aligned and diagonal, on cell borders, across and outside the world's edges - and
 * vehicles of many sizes and feeler lengths, stepped side by side with a twin world whose
 * avoid_walls scans every wall (world->wall_grid_off); walls are added and removed mid-run. */
#include "test_support.h"

#include <stdlib.h>

#include "world_internal.h"

/* The test's own generator: both twins must see the same scene. */
static uint64_t test_state = 0x9e3779b97f4a7c15ULL;
static double urand(void)
{
    test_state = test_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(test_state >> 11) * (1.0 / 9007199254740992.0);
}
static double between(double lo, double hi) { return lo + (hi - lo) * urand(); }

#define WORLD 1000.0
#define VEHICLES 80
#define MAX_WALLS 400

typedef struct Twins {
    SteerWorld *grid, *scan;
    SteerVehicleId grid_ids[VEHICLES], scan_ids[VEHICLES];
    SteerWallId grid_walls[MAX_WALLS], scan_walls[MAX_WALLS];
    int walls;
} Twins;

/// A random wall, the same in both worlds.
static void add_wall(Twins *t)
{
    SteerVec2 a, b;
    double kind = urand();
    if (kind < 0.2) { /* axis-aligned, on round coordinates: on cell borders for many cell sizes */
        a = steer_vec2(50.0 * (int)between(-2, 22), 50.0 * (int)between(-2, 22));
        double length = 50.0 * (int)between(1, 8);
        b = urand() < 0.5 ? steer_vec2(a.x + length, a.y) : steer_vec2(a.x, a.y - length);
    } else if (kind < 0.3) { /* longer than the world: wraps onto itself */
        a = steer_vec2(between(0, WORLD), between(0, WORLD));
        b = steer_add(a, steer_scale(steer_vec2_from_angle(between(0, 2 * STEER_PI)), between(1.1, 2.5) * WORLD));
    } else if (kind < 0.45) { /* across an edge of the world, or wholly outside it */
        a = steer_vec2(between(-200, WORLD + 200), urand() < 0.5 ? between(-60, 30) : between(WORLD - 30, WORLD + 60));
        b = steer_add(a, steer_scale(steer_vec2_from_angle(between(0, 2 * STEER_PI)), between(5, 300)));
    } else { /* short or long, anywhere */
        a = steer_vec2(between(0, WORLD), between(0, WORLD));
        double length = urand() < 0.6 ? between(2, 40) : between(40, 600);
        b = steer_add(a, steer_scale(steer_vec2_from_angle(between(0, 2 * STEER_PI)), length));
    }
    assert_int_equal(steer_world_add_wall(t->grid, a, b, &t->grid_walls[t->walls]), STEER_OK);
    assert_int_equal(steer_world_add_wall(t->scan, a, b, &t->scan_walls[t->walls]), STEER_OK);
    t->walls++;
}

static void remove_wall(Twins *t, int k)
{
    assert_int_equal(steer_world_remove_wall(t->grid, t->grid_walls[k]), STEER_OK);
    assert_int_equal(steer_world_remove_wall(t->scan, t->scan_walls[k]), STEER_OK);
    t->grid_walls[k] = t->grid_walls[t->walls - 1];
    t->scan_walls[k] = t->scan_walls[t->walls - 1];
    t->walls--;
}

static void make_twins(Twins *t, SteerEdges edges, uint64_t seed, int wall_count)
{
    memset(t, 0, sizeof *t);
    t->grid = make_world(edges, seed);
    t->scan = make_world(edges, seed);
    t->scan->wall_grid_off = true;
    for (int i = 0; i < wall_count; i++) add_wall(t);
    for (int i = 0; i < VEHICLES; i++) {
        SteerVehicleDef def = steer_default_vehicle_def();
        def.position = steer_vec2(between(-20, WORLD + 20), between(-20, WORLD + 20));
        def.velocity = steer_scale(steer_vec2_from_angle(between(0, 2 * STEER_PI)), between(0, 80));
        def.radius = urand() < 0.2 ? 0.0 : between(1, 25);
        def.max_speed = between(30, 200);
        def.max_force = between(50, 400);
        SteerBehaviourDef walls = steer_default_behaviour_def(STEER_AVOID_WALLS);
        walls.avoid_walls.feeler_length = urand() < 0.2 ? between(0.5, 5) : between(5, 150);
        SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
        SteerBehaviourDef seek = steer_default_behaviour_def(STEER_SEEK);
        seek.seek.target = steer_target_point(between(0, WORLD), between(0, WORLD));
        assert_int_equal(steer_vehicle_create(t->grid, &def, &t->grid_ids[i]), STEER_OK);
        assert_int_equal(steer_vehicle_create(t->scan, &def, &t->scan_ids[i]), STEER_OK);
        turn_on(t->grid, t->grid_ids[i], &walls);
        turn_on(t->scan, t->scan_ids[i], &walls);
        turn_on(t->grid, t->grid_ids[i], &wander);
        turn_on(t->scan, t->scan_ids[i], &wander);
        if (i % 2) {
            turn_on(t->grid, t->grid_ids[i], &seek);
            turn_on(t->scan, t->scan_ids[i], &seek);
        }
    }
}

static bool same_vec(SteerVec2 a, SteerVec2 b) { return memcmp(&a, &b, sizeof a) == 0; }

/// Steps both twins, comparing every vehicle bit for bit after each step; returns the number of
/// vehicle-steps in which wall avoidance pushed (so that a run where no wall mattered is caught).
static int step_and_compare(Twins *t, int steps)
{
    int pushed = 0;
    for (int s = 0; s < steps; s++) {
        steer_world_step(t->grid);
        steer_world_step(t->scan);
        for (int i = 0; i < VEHICLES; i++) {
            SteerVehicleState g, r;
            assert_int_equal(steer_vehicle_get(t->grid, t->grid_ids[i], &g), STEER_OK);
            assert_int_equal(steer_vehicle_get(t->scan, t->scan_ids[i], &r), STEER_OK);
            SteerBehaviourState gw, rw;
            assert_int_equal(steer_vehicle_get_behaviour(t->grid, t->grid_ids[i], STEER_AVOID_WALLS, NULL, &gw),
                             STEER_OK);
            assert_int_equal(steer_vehicle_get_behaviour(t->scan, t->scan_ids[i], STEER_AVOID_WALLS, NULL, &rw),
                             STEER_OK);
            if (!same_vec(g.position, r.position) || !same_vec(g.velocity, r.velocity) || !same_vec(gw.force, rw.force))
                fail_msg("step %d vehicle %d: grid at (%.17g, %.17g) force (%.17g, %.17g), scan at (%.17g, %.17g) "
                         "force (%.17g, %.17g)",
                         s, i, g.position.x, g.position.y, gw.force.x, gw.force.y, r.position.x, r.position.y,
                         rw.force.x, rw.force.y);
            if (gw.force.x != 0.0 || gw.force.y != 0.0) pushed++;
        }
    }
    return pushed;
}

static void run_twins(SteerEdges edges, uint64_t seed)
{
    Twins t;
    make_twins(&t, edges, seed, 150 + (int)(urand() * 150));
    int pushed = step_and_compare(&t, 120);
    /* Walls come and go: the grid is rebuilt before the next step. */
    for (int k = 0; k < 40; k++) remove_wall(&t, (int)(urand() * t.walls));
    for (int k = 0; k < 60 && t.walls < MAX_WALLS; k++) add_wall(&t);
    pushed += step_and_compare(&t, 120);
    /* The grid was really used, with many cells, and walls really acted. */
    assert_false(t.grid->walls_stale);
    assert_true(t.grid->wall_grid.cols * t.grid->wall_grid.rows >= 16);
    assert_true(pushed > 100);
    steer_world_destroy(t.grid);
    steer_world_destroy(t.scan);
}

static void test_wrapping_worlds_match_the_full_scan(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 3; seed++) run_twins(STEER_EDGES_WRAP, seed);
}

static void test_bounded_worlds_match_the_full_scan(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 2; seed++) run_twins(STEER_EDGES_CONTAIN, seed);
}

static void test_unbounded_worlds_match_the_full_scan(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 2; seed++) run_twins(STEER_EDGES_NONE, seed);
}

/// The walls a grid query returns: every wall within the box, in slot order, each once.
static void test_candidates_cover_the_box_in_slot_order(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_WRAP, 7);
    /* A long diagonal wall crossing the world's corner, and a short one far from it. */
    SteerWallId far, diagonal;
    assert_int_equal(steer_world_add_wall(world, steer_vec2(500, 500), steer_vec2(510, 500), &far), STEER_OK);
    assert_int_equal(steer_world_add_wall(world, steer_vec2(900, 900), steer_vec2(1100, 1100), &diagonal), STEER_OK);
    for (int i = 0; i < 30; i++)
        assert_int_equal(
            steer_world_add_wall(world, steer_vec2(300 + 10 * i, 100), steer_vec2(300 + 10 * i, 120), NULL), STEER_OK);
    const SteerShapeGrid *grid = steer_world_wall_grid(world);
    assert_non_null(grid);
    /* Near (50, 50): the diagonal's wrapped image passes through it; the short wall is far. */
    int n = steer_shape_grid_candidates(grid, steer_vec2(40, 40), steer_vec2(60, 60));
    bool seen_diagonal = false;
    for (int k = 0; k < n; k++) {
        if (k > 0) assert_true(grid->result[k - 1] < grid->result[k]);
        if (grid->result[k] == (int)diagonal.index1 - 1) seen_diagonal = true;
        assert_int_not_equal(grid->result[k], (int)far.index1 - 1);
    }
    assert_true(seen_diagonal);
    /* Removing it drops it from the next query. */
    assert_int_equal(steer_world_remove_wall(world, diagonal), STEER_OK);
    grid = steer_world_wall_grid(world);
    n = steer_shape_grid_candidates(grid, steer_vec2(40, 40), steer_vec2(60, 60));
    for (int k = 0; k < n; k++) assert_int_not_equal(grid->result[k], (int)diagonal.index1 - 1);
    steer_world_destroy(world);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrapping_worlds_match_the_full_scan),
        cmocka_unit_test(test_bounded_worlds_match_the_full_scan),
        cmocka_unit_test(test_unbounded_worlds_match_the_full_scan),
        cmocka_unit_test(test_candidates_cover_the_box_in_slot_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
