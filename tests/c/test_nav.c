/* SPDX-License-Identifier: MIT */
/* test_nav.c - navigation (src/core/nav.c, include/steer/steer_nav.h): paths that keep their
 * clearance (checked by brute force against every wall and obstacle), no longer than the best
 * path over the map's cells, the reasons a path is not found, maps updated in place equal to maps
 * built afresh, the navigate behaviour going around a wall that stops a plain seek, replanning when
 * a wall is added, and flow fields to a goal. */
#include <stdlib.h>

#include "nav_internal.h"
#include "test_support.h"
#include "world_internal.h"

/* ---- Helpers ------------------------------------------------------------------------------- */

static SteerWorld *nav_world(double width, double height, SteerEdges edges)
{
    SteerWorldDef def = steer_default_world_def();
    def.width = width;
    def.height = height;
    def.edges = edges;
    SteerWorld *world = steer_world_create(&def);
    assert_non_null(world);
    return world;
}

static SteerWallId wall(SteerWorld *world, double x1, double y1, double x2, double y2)
{
    SteerWallId id;
    assert_int_equal(steer_world_add_wall(world, steer_vec2(x1, y1), steer_vec2(x2, y2), &id), STEER_OK);
    return id;
}

static SteerObstacleId obstacle(SteerWorld *world, double x, double y, double r)
{
    SteerObstacleId id;
    assert_int_equal(steer_world_add_obstacle(world, steer_vec2(x, y), r, &id), STEER_OK);
    return id;
}

static SteerVec2 cell_centre_of(int x, int y, double cell) { return steer_vec2((x + 0.5) * cell, (y + 0.5) * cell); }

static double seg_point_sq(SteerVec2 p, SteerVec2 a, SteerVec2 b)
{
    SteerVec2 ab = steer_sub(b, a);
    double l = steer_length_sq(ab);
    double t = l > 0.0 ? steer_dot(steer_sub(p, a), ab) / l : 0.0;
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    return steer_distance_sq(p, steer_add(a, steer_scale(ab, t)));
}

/// Distance between two segments, by brute force: the closest of many sampled points refined by
/// the exact point-segment distances of the ends, and 0 when they cross.
static double seg_seg(SteerVec2 p0, SteerVec2 p1, SteerVec2 q0, SteerVec2 q1)
{
    SteerVec2 r = steer_sub(p1, p0), s = steer_sub(q1, q0);
    double d = steer_cross(r, s);
    if (d != 0.0) {
        SteerVec2 qp = steer_sub(q0, p0);
        double t = steer_cross(qp, s) / d, u = steer_cross(qp, r) / d;
        if (t >= 0.0 && t <= 1.0 && u >= 0.0 && u <= 1.0) return 0.0;
    }
    double best = seg_point_sq(p0, q0, q1);
    best = fmin(best, seg_point_sq(p1, q0, q1));
    best = fmin(best, seg_point_sq(q0, p0, p1));
    best = fmin(best, seg_point_sq(q1, p0, p1));
    return sqrt(best);
}

/// The smallest distance from a polyline to every wall and obstacle of the world (every pair).
static double path_clearance(const SteerWorld *world, const SteerVec2 *points, int count)
{
    double best = INFINITY;
    SteerObstacleId obstacles[512];
    SteerWallId walls[512];
    int no = steer_world_get_obstacles(world, obstacles, 512), nw = steer_world_get_walls(world, walls, 512);
    for (int i = 0; i + 1 < count; i++) {
        for (int k = 0; k < no; k++) {
            SteerVec2 c;
            double r;
            assert_true(steer_obstacle_get(world, obstacles[k], &c, &r));
            best = fmin(best, sqrt(seg_point_sq(c, points[i], points[i + 1])) - r);
        }
        for (int k = 0; k < nw; k++) {
            SteerVec2 a, b;
            assert_true(steer_wall_get(world, walls[k], &a, &b, NULL));
            best = fmin(best, seg_seg(points[i], points[i + 1], a, b));
        }
    }
    return best;
}

static double polyline_length(const SteerVec2 *points, int count)
{
    double length = 0.0;
    for (int i = 1; i < count; i++) length += steer_distance(points[i - 1], points[i]);
    return length;
}

static SteerPathResult find(SteerWorld *world, SteerVec2 a, SteerVec2 b, double radius, SteerVec2 *points, int capacity)
{
    SteerPathQueryDef q = steer_default_path_query_def();
    q.start = a;
    q.goal = b;
    q.radius = radius;
    SteerPathResult result;
    assert_int_equal(steer_world_find_path(world, &q, points, capacity, &result), STEER_OK);
    return result;
}

/// A scene of rooms: walls with doors and a few obstacles in a 600 x 600 world.
static void rooms(SteerWorld *world)
{
    wall(world, 200, 0, 200, 250);
    wall(world, 200, 320, 200, 600);
    wall(world, 400, 0, 400, 400);
    wall(world, 400, 470, 400, 600);
    wall(world, 0, 300, 130, 300);
    wall(world, 470, 200, 600, 200);
    obstacle(world, 300, 150, 40);
    obstacle(world, 300, 450, 30);
    obstacle(world, 520, 420, 35);
    obstacle(world, 90, 480, 25);
}

/* ---- Paths --------------------------------------------------------------------------------- */

static void test_straight_line_when_nothing_is_in_the_way(void **state)
{
    (void)state;
    SteerWorld *world = nav_world(400, 300, STEER_EDGES_CONTAIN);
    SteerVec2 points[8];
    SteerPathResult r = find(world, steer_vec2(50, 50), steer_vec2(350, 250), 5.0, points, 8);
    assert_int_equal(r.status, STEER_PATH_FOUND);
    assert_int_equal(r.count, 2);
    assert_near(points[0].x, 50.0, 0.0);
    assert_near(points[1].y, 250.0, 0.0);
    assert_near(r.length, steer_distance(steer_vec2(50, 50), steer_vec2(350, 250)), 1e-9);
    steer_world_destroy(world);
}

static void test_path_goes_around_a_wall_with_clearance(void **state)
{
    (void)state;
    SteerWorld *world = nav_world(600, 400, STEER_EDGES_CONTAIN);
    wall(world, 300, 0, 300, 320);
    SteerVec2 points[64];
    SteerPathResult r = find(world, steer_vec2(100, 100), steer_vec2(500, 100), 10.0, points, 64);
    assert_int_equal(r.status, STEER_PATH_FOUND);
    assert_true(r.count >= 3 && r.count <= 6); /* any-angle: a few corners, no staircase */
    assert_true(path_clearance(world, points, r.count) >= 10.0 - 1e-9);
    /* around the wall's end (300, 320) with 10 of clearance: at least 2·|(200, 220)| */
    assert_true(r.length >= 2.0 * hypot(200.0, 220.0) - 1e-6);
    assert_true(r.length <= 2.0 * hypot(200.0, 240.0) + 20.0);
    steer_world_destroy(world);
}

/// 10,000 random queries in the rooms: every path found keeps its clearance from every shape
/// (brute force), starts and ends where asked, and a path not found has a reason that holds.
static void test_random_paths_never_come_closer_than_the_radius(void **state)
{
    (void)state;
    SteerWorld *world = nav_world(600, 600, STEER_EDGES_CONTAIN);
    rooms(world);
    uint32_t seed = 12345;
    int found = 0;
    SteerVec2 points[512];
    for (int q = 0; q < 10000; q++) {
        seed = seed * 1664525u + 1013904223u;
        double ax = (seed >> 8) % 600, ay = ((seed = seed * 1664525u + 1013904223u) >> 8) % 600;
        double bx = ((seed = seed * 1664525u + 1013904223u) >> 8) % 600;
        double by = ((seed = seed * 1664525u + 1013904223u) >> 8) % 600;
        double radius = (double)(q % 4) * 3.0 + 2.0;
        SteerVec2 a = steer_vec2(ax + 0.25, ay + 0.5), b = steer_vec2(bx + 0.75, by + 0.125);
        SteerPathResult r = find(world, a, b, radius, points, 512);
        if (r.status == STEER_PATH_FOUND) {
            found++;
            assert_true(r.count >= 2 && r.count <= 512);
            assert_true(points[0].x == a.x && points[0].y == a.y);
            assert_true(points[r.count - 1].x == b.x && points[r.count - 1].y == b.y);
            double c = path_clearance(world, points, r.count);
            if (!(c >= radius - 1e-9))
                fail_msg("query %d: a path comes within %.6f of a shape (radius %g)", q, c, radius);
            for (int i = 0; i < r.count; i++)
                assert_true(points[i].x >= radius && points[i].x <= 600 - radius && points[i].y >= radius &&
                            points[i].y <= 600 - radius);
        } else if (r.status == STEER_PATH_START_BLOCKED) {
            assert_true(path_clearance(world, (SteerVec2[]){a, a}, 2) < radius);
        } else if (r.status == STEER_PATH_GOAL_BLOCKED) {
            double c = path_clearance(world, (SteerVec2[]){b, b}, 2);
            if (!(c < radius))
                fail_msg("query %d: goal (%g, %g) is %g from the shapes, radius %g", q, b.x, b.y, c, radius);
        }
    }
    assert_true(found > 5000);
    steer_world_destroy(world);
}

/// Dijkstra over the map's free cells (8 neighbours, no cut corners), by brute force: the length
/// of the best cell path between two cells, in units; INFINITY when there is none.
static double grid_shortest(const SteerNavMap *map, int from, int to)
{
    int n = map->cols * map->rows;
    double *dist = malloc((size_t)n * sizeof *dist);
    char *done = calloc((size_t)n, 1);
    assert_non_null(dist);
    assert_non_null(done);
    for (int i = 0; i < n; i++) dist[i] = INFINITY;
    dist[from] = 0.0;
    for (;;) {
        int best = -1;
        for (int i = 0; i < n; i++) /* O(n²): the brute force */
            if (!done[i] && isfinite(dist[i]) && (best < 0 || dist[i] < dist[best])) best = i;
        if (best < 0 || best == to) break;
        done[best] = 1;
        int x = best % map->cols, y = best / map->cols;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int nx = x + dx, ny = y + dy;
                if ((dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= map->cols || ny >= map->rows) continue;
                if (map->blocked[ny * map->cols + nx]) continue;
                if (dx && dy && (map->blocked[y * map->cols + nx] || map->blocked[ny * map->cols + x])) continue;
                double d = dist[best] + (dx && dy ? sqrt(2.0) : 1.0) * map->cell_size;
                if (d < dist[ny * map->cols + nx]) dist[ny * map->cols + nx] = d;
            }
    }
    double result = dist[to];
    free(dist);
    free(done);
    return result;
}

/// Between cell centres of free cells, a path is never longer than the best cell path (the pulled
/// path only takes shortcuts), never shorter than the straight line, and found exactly when the
/// brute force finds one.
static void test_paths_are_no_longer_than_the_best_cell_path(void **state)
{
    (void)state;
    SteerWorld *world = nav_world(600, 600, STEER_EDGES_CONTAIN);
    rooms(world);
    const SteerNavMap *map = steer_nav_map_get(world, 6.0, 10.0);
    assert_non_null(map);
    int cols = map->cols;
    uint32_t seed = 99;
    int compared = 0;
    for (int q = 0; q < 60; q++) {
        int from, to;
        do {
            seed = seed * 1664525u + 1013904223u;
            from = (int)((seed >> 8) % (uint32_t)(cols * map->rows));
        } while (map->blocked[from]);
        do {
            seed = seed * 1664525u + 1013904223u;
            to = (int)((seed >> 8) % (uint32_t)(cols * map->rows));
        } while (map->blocked[to]);
        SteerVec2 a = steer_vec2((from % cols + 0.5) * 10.0, (from / cols + 0.5) * 10.0);
        SteerVec2 b = steer_vec2((to % cols + 0.5) * 10.0, (to / cols + 0.5) * 10.0);
        SteerPathQueryDef def = steer_default_path_query_def();
        def.start = a, def.goal = b, def.radius = 6.0, def.cell_size = 10.0;
        SteerVec2 points[256];
        SteerPathResult r;
        assert_int_equal(steer_world_find_path(world, &def, points, 256, &r), STEER_OK);
        double best = grid_shortest(map, from, to);
        if (!isfinite(best)) {
            assert_int_equal(r.status, STEER_PATH_UNREACHABLE);
            continue;
        }
        assert_int_equal(r.status, STEER_PATH_FOUND);
        compared++;
        assert_true(r.length <= best * (1.0 + 1e-5) + 1e-6);
        assert_true(r.length >= steer_distance(a, b) - 1e-9);
        assert_near(polyline_length(points, r.count), r.length, 1e-9);
    }
    assert_true(compared > 30);
    steer_world_destroy(world);
}

static void test_reasons_when_no_path_is_found(void **state)
{
    (void)state;
    SteerWorld *world = nav_world(600, 400, STEER_EDGES_CONTAIN);
    /* a closed box around (450, 200) */
    wall(world, 400, 150, 500, 150);
    wall(world, 500, 150, 500, 250);
    wall(world, 500, 250, 400, 250);
    wall(world, 400, 250, 400, 150);
    obstacle(world, 150, 200, 40);
    SteerVec2 points[16];
    assert_int_equal(find(world, steer_vec2(50, 50), steer_vec2(450, 200), 5, points, 16).status,
                     STEER_PATH_UNREACHABLE);
    assert_int_equal(find(world, steer_vec2(450, 200), steer_vec2(50, 50), 5, points, 16).status,
                     STEER_PATH_UNREACHABLE);
    assert_int_equal(find(world, steer_vec2(150, 200), steer_vec2(50, 50), 5, points, 16).status,
                     STEER_PATH_START_BLOCKED);
    assert_int_equal(find(world, steer_vec2(50, 50), steer_vec2(190, 200), 5, points, 16).status,
                     STEER_PATH_GOAL_BLOCKED); /* 40 + 5 of the obstacle's centre */
    assert_int_equal(find(world, steer_vec2(50, 50), steer_vec2(403, 200), 5, points, 16).status,
                     STEER_PATH_GOAL_BLOCKED); /* 3 from a wall */
    assert_int_equal(find(world, steer_vec2(2, 50), steer_vec2(50, 50), 5, points, 16).status,
                     STEER_PATH_START_OUTSIDE);
    assert_int_equal(find(world, steer_vec2(50, 50), steer_vec2(50, 700), 5, points, 16).status,
                     STEER_PATH_GOAL_OUTSIDE);
    SteerPathResult r = find(world, steer_vec2(50, 50), steer_vec2(450, 200), 5, points, 16);
    assert_int_equal(r.count, 0);
    assert_near(r.length, 0.0, 0.0);
    assert_string_equal(steer_path_status_name(STEER_PATH_UNREACHABLE), "unreachable");
    assert_string_equal(steer_path_status_name(STEER_PATH_START_BLOCKED), "start inside geometry");
    assert_null(steer_path_status_name(STEER_PATH_STATUS_COUNT));
    steer_world_destroy(world);

    /* a world narrower than the clearance: no point is inside it */
    world = nav_world(8, 8, STEER_EDGES_CONTAIN);
    assert_int_equal(find(world, steer_vec2(4, 4), steer_vec2(4, 5), 5, points, 16).status, STEER_PATH_START_OUTSIDE);
    assert_int_equal(find(world, steer_vec2(4, 4), steer_vec2(4, 5), 0, points, 16).status, STEER_PATH_FOUND);
    steer_world_destroy(world);
}

/// Paths do not cross a wrapping world's edges, and the statuses say so: a wall across the middle
/// leaves the two halves joined only across the seam at x = 0 / 400, so a path between them is
/// "unreachable without crossing the wrapping edges" (plain "unreachable" in a contained world),
/// and an end nearer an edge than the radius is "too near a wrapping edge". Paths that are found
/// stay inside the bounds shrunk by the radius (checked point by point, and their segments by
/// brute force against every wall).
static void test_paths_do_not_cross_wrapping_edges_and_say_why(void **state)
{
    (void)state;
    for (int wraps = 0; wraps <= 1; wraps++) {
        SteerWorld *world = nav_world(400, 200, wraps ? STEER_EDGES_WRAP : STEER_EDGES_CONTAIN);
        wall(world, 200, 0, 200, 200);
        SteerVec2 points[32];
        SteerPathResult r = find(world, steer_vec2(30, 100), steer_vec2(370, 100), 5, points, 32);
        assert_int_equal(r.status, wraps ? STEER_PATH_UNREACHABLE_WITHOUT_WRAPPING : STEER_PATH_UNREACHABLE);
        r = find(world, steer_vec2(2, 100), steer_vec2(100, 100), 5, points, 32);
        assert_int_equal(r.status, wraps ? STEER_PATH_START_AT_WRAPPING_EDGE : STEER_PATH_START_OUTSIDE);
        r = find(world, steer_vec2(100, 100), steer_vec2(100, 198), 5, points, 32);
        assert_int_equal(r.status, wraps ? STEER_PATH_GOAL_AT_WRAPPING_EDGE : STEER_PATH_GOAL_OUTSIDE);
        r = find(world, steer_vec2(100, 100), steer_vec2(100, 260), 5, points, 32); /* outside the world */
        assert_int_equal(r.status, STEER_PATH_GOAL_OUTSIDE);
        /* on one side of the wall, round an obstacle: found, inside the bounds, clear of the shapes */
        obstacle(world, 100, 100, 30);
        for (int k = 0; k < 20; k++) {
            SteerVec2 a = steer_vec2(20 + 7 * k, 15 + 8 * k), b = steer_vec2(180 - 7 * k, 185 - 8 * k);
            r = find(world, a, b, 5, points, 32);
            if (r.status != STEER_PATH_FOUND) continue;
            for (int i = 0; i < r.count; i++)
                assert_true(points[i].x >= 5 && points[i].x <= 395 && points[i].y >= 5 && points[i].y <= 195);
            assert_true(path_clearance(world, points, r.count) >= 5.0 - 1e-9);
        }
        steer_world_destroy(world);
    }
    assert_string_equal(steer_path_status_name(STEER_PATH_UNREACHABLE_WITHOUT_WRAPPING),
                        "unreachable without crossing the wrapping edges");
    assert_string_equal(steer_path_status_name(STEER_PATH_START_AT_WRAPPING_EDGE), "start too near a wrapping edge");
    assert_string_equal(steer_path_status_name(STEER_PATH_GOAL_AT_WRAPPING_EDGE), "goal too near a wrapping edge");
}

static void test_bad_queries_are_refused_with_a_reason(void **state)
{
    (void)state;
    SteerWorld *world = nav_world(600, 400, STEER_EDGES_NONE);
    SteerPathQueryDef def = steer_default_path_query_def();
    SteerPathResult r;
    def.start = steer_vec2(NAN, 0);
    assert_int_equal(steer_world_find_path(world, &def, NULL, 0, &r), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(steer_world_last_error(world), "steer_world_find_path: start"));
    def = steer_default_path_query_def();
    def.radius = -1;
    assert_int_equal(steer_world_find_path(world, &def, NULL, 0, &r), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(steer_world_last_error(world), "radius"));
    def = steer_default_path_query_def();
    def.goal = steer_vec2(0, INFINITY);
    assert_int_equal(steer_world_find_path(world, &def, NULL, 0, &r), STEER_ERROR_INVALID_ARGUMENT);
    SteerPathQueryDef zeroed;
    memset(&zeroed, 0, sizeof zeroed);
    assert_int_equal(steer_world_find_path(world, &zeroed, NULL, 0, &r), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(steer_world_last_error(world), "steer_default_path_query_def()"));
    def = steer_default_path_query_def();
    def.cell_size = 0.01; /* 60000 x 40000 cells */
    assert_int_equal(steer_world_find_path(world, &def, NULL, 0, &r), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(steer_world_last_error(world), "larger cell_size"));
    assert_int_equal(steer_world_find_path(world, NULL, NULL, 0, &r), STEER_ERROR_INVALID_ARGUMENT);
    /* a count with no buffer */
    def = steer_default_path_query_def();
    def.start = steer_vec2(10, 10);
    def.goal = steer_vec2(100, 100);
    assert_int_equal(steer_world_find_path(world, &def, NULL, 0, &r), STEER_OK);
    assert_int_equal(r.count, 2);
    steer_world_destroy(world);
}

/* ---- Maps ---------------------------------------------------------------------------------- */

/// Walls and obstacles added and removed at random: after each change the map, updated only where
/// the change reached, equals the same map computed from scratch.
static void test_updated_maps_equal_maps_built_afresh(void **state)
{
    (void)state;
    SteerWorld *world = nav_world(500, 400, STEER_EDGES_CONTAIN);
    rooms(world);
    assert_non_null(steer_nav_map_get(world, 5.0, 8.0));
    assert_non_null(steer_nav_map_get(world, 12.0, 10.0));
    SteerWallId walls[40];
    SteerObstacleId obstacles[40];
    int nw = 0, no = 0;
    uint32_t seed = 7;
#define NEXT() ((seed = seed * 1664525u + 1013904223u) >> 8)
    for (int round = 0; round < 80; round++) {
        unsigned what = NEXT() % 4;
        if (what == 0 && nw < 40) {
            double x1 = NEXT() % 500, y1 = NEXT() % 400, x2 = NEXT() % 500 + 0.5, y2 = NEXT() % 400 + 0.5;
            walls[nw++] = wall(world, x1, y1, x2, y2);
        } else if (what == 1 && no < 40) {
            double x = NEXT() % 500, y = NEXT() % 400, r = 5 + NEXT() % 40;
            obstacles[no++] = obstacle(world, x, y, r);
        } else if (what == 2 && nw > 0) {
            int k = (int)(NEXT() % (unsigned)nw);
            assert_int_equal(steer_world_remove_wall(world, walls[k]), STEER_OK);
            walls[k] = walls[--nw];
        } else if (no > 0) {
            int k = (int)(NEXT() % (unsigned)no);
            assert_int_equal(steer_world_remove_obstacle(world, obstacles[k]), STEER_OK);
            obstacles[k] = obstacles[--no];
        }
        double radii[2] = {5.0, 12.0}, cells[2] = {8.0, 10.0};
        for (int m = 0; m < 2; m++) {
            SteerNavMap *map = (SteerNavMap *)steer_nav_map_get(world, radii[m], cells[m]);
            assert_non_null(map);
            size_t n = (size_t)map->cols * (size_t)map->rows;
            unsigned char *updated = malloc(n);
            assert_non_null(updated);
            memcpy(updated, map->blocked, n);
            steer_nav_map_rebuild(world, map);
            if (memcmp(updated, map->blocked, n) != 0) fail_msg("round %d: map %d differs from a rebuild", round, m);
            free(updated);
        }
    }
#undef NEXT
    steer_world_destroy(world);
}

static void test_map_reports_its_cells(void **state)
{
    (void)state;
    SteerWorld *world = nav_world(100, 50, STEER_EDGES_CONTAIN);
    int cols = 0, rows = 0;
    assert_int_equal(steer_world_nav_map(world, 0.0, 10.0, NULL, 0, &cols, &rows), 50);
    assert_int_equal(cols, 10);
    assert_int_equal(rows, 5);
    unsigned char cells[50];
    obstacle(world, 50, 25, 5);
    assert_int_equal(steer_world_nav_map(world, 0.0, 10.0, cells, 50, NULL, NULL), 50);
    assert_int_equal(cells[2 * 10 + 5], 1);
    assert_int_equal(cells[2 * 10 + 0], 0);
    assert_int_equal(steer_world_nav_map(world, -1.0, 10.0, cells, 50, NULL, NULL), -1);
    steer_world_destroy(world);
}

/* ---- The navigate behaviour ---------------------------------------------------------------- */

static SteerVehicleId vehicle_at(SteerWorld *world, double x, double y)
{
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(x, y);
    def.radius = 6.0;
    def.max_speed = 80.0;
    def.max_force = 400.0;
    SteerVehicleId id;
    assert_int_equal(steer_vehicle_create(world, &def, &id), STEER_OK);
    return id;
}

/// A long wall between the vehicles and the goal: navigate reaches it, a plain seek slides along
/// the wall and never does.
static void test_navigate_reaches_a_goal_that_seek_never_reaches(void **state)
{
    (void)state;
    SteerWorld *world = nav_world(600, 400, STEER_EDGES_CONTAIN);
    wall(world, 300, 40, 300, 400);
    wall(world, 300, 40, 200, 40);
    SteerVehicleId navigator = vehicle_at(world, 100, 200), seeker = vehicle_at(world, 100, 220);
    SteerBehaviourDef d = steer_default_behaviour_def(STEER_NAVIGATE);
    d.navigate.target = steer_target_point(500, 200);
    assert_int_equal(steer_vehicle_set_behaviour(world, navigator, &d), STEER_OK);
    SteerBehaviourDef walls = steer_default_behaviour_def(STEER_AVOID_WALLS);
    assert_int_equal(steer_vehicle_set_behaviour(world, navigator, &walls), STEER_OK);
    SteerBehaviourDef s = steer_default_behaviour_def(STEER_SEEK);
    s.seek.target = steer_target_point(500, 200);
    assert_int_equal(steer_vehicle_set_behaviour(world, seeker, &s), STEER_OK);
    assert_int_equal(steer_vehicle_set_behaviour(world, seeker, &walls), STEER_OK);
    SteerNavState st;
    assert_int_equal(steer_vehicle_nav_path(world, navigator, NULL, 0, &st, NULL, NULL), 0);
    assert_int_equal(st, STEER_NAV_PLANNING);
    run_steps(world, 1);
    SteerVec2 points[STEER_NAV_AGENT_POINTS];
    int waypoint, replans;
    int n = steer_vehicle_nav_path(world, navigator, points, STEER_NAV_AGENT_POINTS, &st, &waypoint, &replans);
    assert_true(n >= 3);
    assert_int_equal(st, STEER_NAV_FOLLOWING);
    assert_int_equal(replans, 1);
    assert_true(path_clearance(world, points, n) >= 6.0);
    double path_length = polyline_length(points, n);
    int steps = 0;
    while (steps < 60 * 30 && steer_distance(steer_vehicle_position(world, navigator), steer_vec2(500, 200)) > 3.0) {
        steer_world_step(world);
        steps++;
    }
    assert_true(steer_distance(steer_vehicle_position(world, navigator), steer_vec2(500, 200)) <= 3.0);
    /* within 1.5x the time the path's length takes at full speed (with a second to slow down) */
    assert_true(steps <= (int)(1.5 * 60.0 * path_length / 80.0) + 60);
    run_steps(world, 30);
    steer_vehicle_nav_path(world, navigator, NULL, 0, &st, NULL, NULL);
    assert_int_equal(st, STEER_NAV_ARRIVED);
    assert_true(steer_vehicle_position(world, seeker).x < 300.0);
    steer_world_destroy(world);
}

/// 500 vehicles navigating through the rooms to goals of their own: every one arrives within 1.5x
/// the time its path takes at full speed (plus a second to speed up and slow down).
static void test_five_hundred_navigators_all_arrive_in_time(void **state)
{
    (void)state;
    enum { N = 500 };
    SteerWorld *world = nav_world(600, 600, STEER_EDGES_CONTAIN);
    rooms(world);
    SteerVehicleId ids[N];
    SteerVec2 goals[N];
    uint32_t seed = 4242;
    for (int i = 0; i < N; i++) {
        SteerVec2 a, b;
        SteerVec2 scratch[256];
        for (;;) {
            double v[4];
            for (int k = 0; k < 4; k++) v[k] = 20.0 + ((seed = seed * 1664525u + 1013904223u) >> 8) % 560;
            a = steer_vec2(v[0], v[1]), b = steer_vec2(v[2], v[3]);
            SteerPathResult r = find(world, a, b, 6.0, scratch, 256);
            if (r.status == STEER_PATH_FOUND && r.length > 100.0) break;
        }
        ids[i] = vehicle_at(world, a.x, a.y);
        goals[i] = b;
        SteerBehaviourDef d = steer_default_behaviour_def(STEER_NAVIGATE);
        d.navigate.target = steer_target_point(b.x, b.y);
        assert_int_equal(steer_vehicle_set_behaviour(world, ids[i], &d), STEER_OK);
    }
    steer_world_step(world);
    double budget[N];
    int arrived_at[N];
    for (int i = 0; i < N; i++) {
        SteerVec2 points[STEER_NAV_AGENT_POINTS];
        SteerNavState st;
        int n = steer_vehicle_nav_path(world, ids[i], points, STEER_NAV_AGENT_POINTS, &st, NULL, NULL);
        assert_int_equal(st, STEER_NAV_FOLLOWING);
        budget[i] = 1.5 * 60.0 * polyline_length(points, n) / 80.0 + 60.0;
        arrived_at[i] = -1;
    }
    int left = N;
    for (int s = 1; s < 60 * 40 && left > 0; s++) {
        steer_world_step(world);
        for (int i = 0; i < N; i++)
            if (arrived_at[i] < 0 && steer_distance(steer_vehicle_position(world, ids[i]), goals[i]) <= 4.0) {
                arrived_at[i] = s;
                left--;
            }
    }
    for (int i = 0; i < N; i++) {
        if (arrived_at[i] < 0) fail_msg("vehicle %d never arrived", i);
        if (arrived_at[i] > budget[i])
            fail_msg("vehicle %d arrived after %d steps (budget %.0f)", i, arrived_at[i], budget[i]);
    }
    steer_world_destroy(world);
}

static void test_navigate_replans_when_a_wall_blocks_its_path(void **state)
{
    (void)state;
    SteerWorld *world = nav_world(600, 400, STEER_EDGES_CONTAIN);
    SteerVehicleId v = vehicle_at(world, 50, 200);
    SteerBehaviourDef d = steer_default_behaviour_def(STEER_NAVIGATE);
    d.navigate.target = steer_target_point(550, 200);
    assert_int_equal(steer_vehicle_set_behaviour(world, v, &d), STEER_OK);
    run_steps(world, 5);
    SteerVec2 points[STEER_NAV_AGENT_POINTS];
    int replans;
    assert_int_equal(steer_vehicle_nav_path(world, v, points, STEER_NAV_AGENT_POINTS, NULL, NULL, &replans), 2);
    assert_int_equal(replans, 1);
    /* the same call again (a brain's every think) keeps the plan */
    assert_int_equal(steer_vehicle_set_behaviour(world, v, &d), STEER_OK);
    run_steps(world, 1);
    steer_vehicle_nav_path(world, v, NULL, 0, NULL, NULL, &replans);
    assert_int_equal(replans, 1);
    /* a wall far from the path changes nothing */
    wall(world, 50, 20, 150, 20);
    run_steps(world, 1);
    steer_vehicle_nav_path(world, v, NULL, 0, NULL, NULL, &replans);
    assert_int_equal(replans, 1);
    /* a wall across it: planned again within one step, around the wall */
    wall(world, 300, 100, 300, 400);
    run_steps(world, 1);
    int n = steer_vehicle_nav_path(world, v, points, STEER_NAV_AGENT_POINTS, NULL, NULL, &replans);
    assert_int_equal(replans, 2);
    assert_true(n >= 3);
    assert_true(path_clearance(world, points, n) >= 6.0);
    run_steps(world, 60 * 12);
    assert_true(steer_distance(steer_vehicle_position(world, v), steer_vec2(550, 200)) < 5.0);
    steer_world_destroy(world);
}

static void test_navigate_to_a_vehicle_replans_as_it_moves(void **state)
{
    (void)state;
    SteerWorld *world = nav_world(600, 400, STEER_EDGES_CONTAIN);
    wall(world, 300, 0, 300, 300);
    SteerVehicleId hunter = vehicle_at(world, 100, 100), prey = vehicle_at(world, 500, 100);
    SteerBehaviourDef d = steer_default_behaviour_def(STEER_NAVIGATE);
    d.navigate.target = steer_target_vehicle(prey);
    d.navigate.replan_distance = 20.0;
    assert_int_equal(steer_vehicle_set_behaviour(world, hunter, &d), STEER_OK);
    run_steps(world, 1);
    int replans;
    steer_vehicle_nav_path(world, hunter, NULL, 0, NULL, NULL, &replans);
    assert_int_equal(replans, 1);
    assert_int_equal(steer_vehicle_set_position(world, prey, steer_vec2(500, 200)), STEER_OK);
    run_steps(world, 1);
    steer_vehicle_nav_path(world, hunter, NULL, 0, NULL, NULL, &replans);
    assert_int_equal(replans, 2);
    run_steps(world, 60 * 12);
    assert_true(steer_distance(steer_vehicle_position(world, hunter), steer_vec2(500, 200)) < 20.0);
    /* the prey removed: navigate switches itself off */
    assert_int_equal(steer_vehicle_destroy(world, prey), STEER_OK);
    run_steps(world, 1);
    assert_false(steer_vehicle_has_behaviour(world, hunter, STEER_NAVIGATE));
    SteerNavState st;
    assert_int_equal(steer_vehicle_nav_path(world, hunter, NULL, 0, &st, NULL, NULL), 0);
    assert_int_equal(st, STEER_NAV_NONE);
    steer_world_destroy(world);
}

static void test_navigate_unreachable_waits_then_goes_when_opened(void **state)
{
    (void)state;
    SteerWorld *world = nav_world(600, 400, STEER_EDGES_CONTAIN);
    SteerWallId door = wall(world, 300, 0, 300, 400);
    SteerVehicleId v = vehicle_at(world, 100, 200);
    SteerBehaviourDef d = steer_default_behaviour_def(STEER_NAVIGATE);
    d.navigate.target = steer_target_point(500, 200);
    assert_int_equal(steer_vehicle_set_behaviour(world, v, &d), STEER_OK);
    run_steps(world, 30);
    SteerNavState st;
    steer_vehicle_nav_path(world, v, NULL, 0, &st, NULL, NULL);
    assert_int_equal(st, STEER_NAV_UNREACHABLE);
    assert_near(steer_vehicle_position(world, v).x, 100.0, 1e-9); /* asks for nothing */
    assert_int_equal(steer_world_remove_wall(world, door), STEER_OK);
    run_steps(world, 1);
    steer_vehicle_nav_path(world, v, NULL, 0, &st, NULL, NULL);
    assert_int_equal(st, STEER_NAV_FOLLOWING);
    assert_string_equal(steer_nav_state_name(st), "following");
    steer_world_destroy(world);
}

/// A wall dropped right onto a moving vehicle: it plans from a free cell next to it that it reaches
/// without crossing the wall, and goes on.
static void test_a_wall_added_under_a_moving_vehicle(void **state)
{
    (void)state;
    SteerWorld *world = nav_world(600, 400, STEER_EDGES_CONTAIN);
    SteerVehicleId v = vehicle_at(world, 100, 200);
    SteerBehaviourDef d = steer_default_behaviour_def(STEER_NAVIGATE);
    d.navigate.target = steer_target_point(500, 210);
    assert_int_equal(steer_vehicle_set_behaviour(world, v, &d), STEER_OK);
    run_steps(world, 60);
    SteerVec2 p = steer_vehicle_position(world, v);
    wall(world, p.x - 2.0, 100, p.x - 2.0, 300); /* just behind it, within its radius */
    run_steps(world, 1);
    SteerNavState st;
    SteerVec2 points[STEER_NAV_AGENT_POINTS];
    int n = steer_vehicle_nav_path(world, v, points, STEER_NAV_AGENT_POINTS, &st, NULL, NULL);
    assert_int_equal(st, STEER_NAV_FOLLOWING);
    assert_true(n >= 2);
    assert_true(points[1].x > p.x - 2.0); /* sets out on its own side */
    run_steps(world, 60 * 10);
    assert_true(steer_distance(steer_vehicle_position(world, v), steer_vec2(500, 210)) < 5.0);
    steer_world_destroy(world);
}

static void test_navigate_options_are_checked(void **state)
{
    (void)state;
    SteerWorld *world = nav_world(6000, 4000, STEER_EDGES_CONTAIN);
    SteerVehicleId v = vehicle_at(world, 100, 200);
    SteerBehaviourDef d = steer_default_behaviour_def(STEER_NAVIGATE);
    d.navigate.target = steer_target_point(500, 200);
    d.navigate.cell_size = 1.0; /* 24,000,000 cells */
    assert_int_equal(steer_vehicle_set_behaviour(world, v, &d), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(steer_world_last_error(world), "larger cell_size"));
    assert_false(steer_vehicle_has_behaviour(world, v, STEER_NAVIGATE));
    d.navigate.cell_size = 0.5; /* below a unit */
    assert_int_equal(steer_vehicle_set_behaviour(world, v, &d), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(steer_world_last_error(world), "navigate: cell_size"));
    d.navigate.cell_size = NAN;
    assert_int_equal(steer_vehicle_set_behaviour(world, v, &d), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(steer_world_last_error(world), "navigate: cell_size"));
    steer_world_destroy(world);
}

/// The same scene twice, with a wall added half way: the same checksums; and a plan that differs
/// (another goal) shows in the checksum at once.
static void test_navigation_is_deterministic_and_summed(void **state)
{
    (void)state;
    uint64_t sums[2][40];
    for (int run = 0; run < 2; run++) {
        SteerWorld *world = nav_world(600, 600, STEER_EDGES_CONTAIN);
        rooms(world);
        for (int i = 0; i < 40; i++) {
            SteerVehicleId v = vehicle_at(world, 30 + (i * 37) % 540, 30 + (i * 53) % 540);
            SteerBehaviourDef d = steer_default_behaviour_def(STEER_NAVIGATE);
            d.navigate.target = steer_target_point(560 - (i * 41) % 500, 40 + (i * 29) % 520);
            steer_vehicle_set_behaviour(world, v, &d); /* a start inside a shape is still accepted */
        }
        for (int s = 0; s < 40; s++) {
            if (s == 20) wall(world, 100, 100, 500, 110);
            steer_world_step(world);
            sums[run][s] = steer_world_checksum(world);
        }
        steer_world_destroy(world);
    }
    for (int s = 0; s < 40; s++) assert_true(sums[0][s] == sums[1][s]);

    SteerWorld *a = nav_world(600, 400, STEER_EDGES_CONTAIN), *b = nav_world(600, 400, STEER_EDGES_CONTAIN);
    SteerVehicleId va = vehicle_at(a, 100, 100), vb = vehicle_at(b, 100, 100);
    SteerBehaviourDef d = steer_default_behaviour_def(STEER_NAVIGATE);
    d.navigate.target = steer_target_point(400, 300);
    steer_vehicle_set_behaviour(a, va, &d);
    d.navigate.target = steer_target_point(400, 300.5); /* the same first step, another plan */
    steer_vehicle_set_behaviour(b, vb, &d);
    steer_world_step(a);
    steer_world_step(b);
    assert_true(steer_world_checksum(a) != steer_world_checksum(b));
    steer_world_destroy(a);
    steer_world_destroy(b);
}

/// An allocator that counts the blocks it grows.
static void *counting_alloc(void *user, void *block, size_t old_size, size_t new_size)
{
    (void)old_size;
    if (new_size == 0) {
        free(block);
        return NULL;
    }
    ++*(long *)user;
    return realloc(block, new_size);
}

/// The step never allocates for navigation: a navigating vehicle whose radius changes gets its new
/// map when the radius is set, and a map that would be a ninth in use is refused, with a reason, by
/// the call that asks for it (navigate, or setting the radius); the step then allocates nothing.
static void test_navigation_never_allocates_in_the_step(void **state)
{
    (void)state;
    long grown = 0;
    SteerWorldDef wdef = steer_default_world_def();
    wdef.width = 600;
    wdef.height = 600;
    wdef.edges = STEER_EDGES_CONTAIN;
    wdef.alloc = counting_alloc;
    wdef.alloc_user = &grown;
    SteerWorld *world = steer_world_create(&wdef);
    assert_non_null(world);
    rooms(world);
    SteerVehicleId v[10];
    for (int i = 0; i < 10; i++) {
        v[i] = vehicle_at(world, 40 + 50 * (i % 5), 40 + 30 * (i / 5));
        /* radii 1, 3, 5, ... 15: 8 clearances of a quarter cell (2 units) apart, 8 maps */
        assert_int_equal(steer_vehicle_set_radius(world, v[i], 1.0 + 2.0 * (i < 8 ? i : 1)), STEER_OK);
        SteerBehaviourDef d = steer_default_behaviour_def(STEER_NAVIGATE);
        d.navigate.target = steer_target_point(540, 540);
        if (i < 9) assert_int_equal(steer_vehicle_set_behaviour(world, v[i], &d), STEER_OK);
    }
    SteerFlowGoalDef fdef = steer_default_flow_goal_def();
    fdef.goal = steer_vec2(540, 540);
    fdef.radius = 8.0; /* the map of radius 7's clearance (8): shared */
    SteerFlowFieldId field;
    assert_int_equal(steer_world_add_flow_field_to(world, &fdef, &field), STEER_OK);
    assert_int_equal(world->nav->map_count, STEER_NAV_MAX_MAPS);
    for (int i = 0; i < 3; i++) steer_world_step(world); /* warm */
    long before = grown;
    for (int i = 0; i < 30; i++) steer_world_step(world);
    assert_int_equal(grown, before);

    /* a ninth clearance: navigate refuses it, and the vehicle's radius keeps its value */
    assert_int_equal(steer_vehicle_set_radius(world, v[9], 19.0), STEER_OK); /* not navigating: no map */
    SteerBehaviourDef d = steer_default_behaviour_def(STEER_NAVIGATE);
    d.navigate.target = steer_target_point(540, 540);
    assert_int_equal(steer_vehicle_set_behaviour(world, v[9], &d), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(steer_world_last_error(world), "would be a ninth in use"));
    /* v[0] alone uses its map: its radius may move it to a new one (its old map goes) */
    assert_int_equal(steer_vehicle_set_radius(world, v[0], 19.0), STEER_OK);
    /* v[8] shares its map with v[1]: a new one for it would be a ninth, refused; its radius stays */
    assert_int_equal(steer_vehicle_set_radius(world, v[8], 21.0), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(steer_world_last_error(world), "steer_vehicle_set_radius"));
    assert_non_null(strstr(steer_world_last_error(world), "would be a ninth in use"));
    double radius = 0.0;
    assert_int_equal(steer_vehicle_get_field(world, v[8], STEER_FIELD_RADIUS, &radius), STEER_OK);
    assert_near(radius, 3.0, 0.0);
    /* v[9]'s navigate now shares v[0]'s new map */
    assert_int_equal(steer_vehicle_set_behaviour(world, v[9], &d), STEER_OK);
    before = grown;
    for (int i = 0; i < 30; i++) steer_world_step(world);
    assert_int_equal(grown, before);
    SteerNavState nav_state;
    steer_vehicle_nav_path(world, v[9], NULL, 0, &nav_state, NULL, NULL);
    assert_int_equal(nav_state, STEER_NAV_FOLLOWING);
    steer_vehicle_nav_path(world, v[0], NULL, 0, &nav_state, NULL, NULL);
    assert_int_equal(nav_state, STEER_NAV_FOLLOWING);
    steer_world_destroy(world);
}

/* ---- Flow fields to a goal ----------------------------------------------------------------- */

static void test_flow_field_leads_around_walls_to_the_goal(void **state)
{
    (void)state;
    SteerWorld *world = nav_world(600, 600, STEER_EDGES_CONTAIN);
    rooms(world);
    SteerFlowGoalDef def = steer_default_flow_goal_def();
    def.goal = steer_vec2(550, 550);
    def.radius = 6.0;
    SteerFlowFieldId field;
    assert_int_equal(steer_world_add_flow_field_to(world, &def, &field), STEER_OK);
    SteerFlowFieldDef got;
    assert_true(steer_flow_field_get(world, field, &got));
    assert_int_equal(got.cols, 75);
    assert_near(steer_flow_field_distance(world, field, steer_vec2(550, 550)), 0.0, 8.0);
    double far = steer_flow_field_distance(world, field, steer_vec2(50, 50));
    assert_true(far > steer_distance(steer_vec2(50, 50), steer_vec2(550, 550)));
    assert_near(steer_flow_field_distance(world, field, steer_vec2(-5, 50)), -1.0, 0.0);
    /* a crowd following it arrives */
    SteerVehicleId crowd[30];
    for (int i = 0; i < 30; i++) {
        crowd[i] = vehicle_at(world, 30 + (i % 6) * 25, 30 + (i / 6) * 25);
        SteerBehaviourDef f = steer_default_behaviour_def(STEER_FOLLOW_FLOW);
        f.follow_flow.field = field;
        assert_int_equal(steer_vehicle_set_behaviour(world, crowd[i], &f), STEER_OK);
    }
    run_steps(world, 60 * 25);
    for (int i = 0; i < 30; i++)
        assert_true(steer_flow_field_distance(world, field, steer_vehicle_position(world, crowd[i])) < 60.0);
    steer_world_destroy(world);
}

/// A flow field's distances are Dijkstra's, exactly: outside the goal's window (whose cells see
/// the goal and start with their straight distance), every cell's distance equals the fixpoint of
/// brute-force sweeps over the same float steps (1 and √2 cells: free cells from free cells without
/// cutting corners, blocked cells from any), and every vector points at a neighbour it was reached
/// from (or at the goal, from the window).
static void check_field_against_brute_force(SteerWorld *world, SteerVec2 goal, double radius, double cell)
{
    SteerFlowGoalDef def = steer_default_flow_goal_def();
    def.goal = goal;
    def.radius = radius;
    def.cell_size = cell;
    SteerFlowFieldId field;
    assert_int_equal(steer_world_add_flow_field_to(world, &def, &field), STEER_OK);
    const SteerNavMap *map = steer_nav_map_get(world, radius, cell);
    assert_non_null(map);
    const SteerNavGoalField *gf = &world->nav->goal_fields[world->nav->goal_field_count - 1];
    int cols = map->cols, rows = map->rows, n = cols * rows;
    int gx = (int)(goal.x / cell), gy = (int)(goal.y / cell);
    float hf = (float)cell, *g = malloc((size_t)n * sizeof *g);
    assert_non_null(g);
    for (int i = 0; i < n; i++) {
        int x = i % cols, y = i / cols;
        bool window = abs(x - gx) <= STEER_NAV_WINDOW && abs(y - gy) <= STEER_NAV_WINDOW;
        /* the window's distances in cells, as the search left them (its scratch, padded by a cell) */
        float cells = world->nav->flow_g[(size_t)(y + 1) * (size_t)(cols + 2) + (size_t)x + 1];
        g[i] = window && isfinite(gf->distance[i]) ? cells : INFINITY;
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < n; i++) {
            if (!isfinite(g[i])) continue;
            int x = i % cols, y = i / cols;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = x + dx, ny = y + dy, next = ny * cols + nx;
                    if ((!dx && !dy) || nx < 0 || ny < 0 || nx >= cols || ny >= rows) continue;
                    if (!map->blocked[next] &&
                        (map->blocked[i] || (dx && dy && (map->blocked[y * cols + nx] || map->blocked[ny * cols + x]))))
                        continue;
                    float ng = g[i] + (dx && dy ? 1.41421356237309515f : 1.0f);
                    if (ng < g[next]) g[next] = ng, changed = true;
                }
        }
    }
    int reached = 0;
    for (int i = 0; i < n; i++) {
        int x = i % cols, y = i / cols;
        float want = isfinite(g[i]) ? g[i] * hf : INFINITY;
        if (gf->distance[i] != want)
            fail_msg("cell (%d, %d): field %.9g, brute force %.9g", x, y, (double)gf->distance[i], (double)want);
        SteerVec2 v = steer_flow_field_sample(world, field, cell_centre_of(x, y, cell));
        if (!isfinite(g[i])) {
            assert_true(v.x == 0.0 && v.y == 0.0);
            continue;
        }
        reached++;
        int sx = v.x > 0.1 ? 1 : v.x < -0.1 ? -1 : 0, sy = v.y > 0.1 ? 1 : v.y < -0.1 ? -1 : 0;
        int px = x + sx, py = y + sy;
        bool window = abs(x - gx) <= STEER_NAV_WINDOW && abs(y - gy) <= STEER_NAV_WINDOW;
        if (px >= 0 && py >= 0 && px < cols && py < rows && (sx || sy) &&
            g[py * cols + px] + (sx && sy ? 1.41421356237309515f : 1.0f) == g[i])
            continue;
        if (!window) fail_msg("cell (%d, %d): its vector (%g, %g) leads to no neighbour it came from", x, y, v.x, v.y);
    }
    if (reached <= n / 2) fail_msg("goal (%g, %g): only %d of %d cells reached", goal.x, goal.y, reached, n);
    free(g);
    assert_int_equal(steer_world_remove_flow_field(world, field), STEER_OK);
}

static void test_flow_field_distances_equal_brute_force(void **state)
{
    (void)state;
    SteerWorld *world = nav_world(600, 600, STEER_EDGES_CONTAIN);
    rooms(world);
    check_field_against_brute_force(world, steer_vec2(550, 550), 6.0, 8.0);
    check_field_against_brute_force(world, steer_vec2(45, 300), 0.0, 10.0);
    steer_world_destroy(world);
    /* a map about 30 % blocked by random obstacles and walls */
    world = nav_world(512, 512, STEER_EDGES_CONTAIN);
    uint32_t seed = 7;
    for (int i = 0; i < 90; i++) {
        seed = seed * 1664525u + 1013904223u;
        double x = (seed >> 8) % 512;
        seed = seed * 1664525u + 1013904223u;
        double y = (seed >> 8) % 512;
        if (i % 3 == 2)
            wall(world, x, y, x + 40.0 * cos(i), y + 40.0 * sin(i));
        else
            obstacle(world, x, y, 4.0 + i % 17);
    }
    for (int k = 0; k < 2; k++) { /* goals in open ground: the first cell from a corner whose 3x3 is free */
        const SteerNavMap *map = steer_nav_map_get(world, 4.0, 8.0);
        int cell = -1;
        for (int i = k ? map->cols * map->rows - 1 : 0; cell < 0 && i >= 0 && i < map->cols * map->rows;
             i += k ? -1 : 1) {
            int x = i % map->cols, y = i / map->cols, free_cells = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    free_cells += x + dx >= 0 && y + dy >= 0 && x + dx < map->cols && y + dy < map->rows &&
                                  !map->blocked[(y + dy) * map->cols + x + dx];
            if (free_cells == 9) cell = i;
        }
        assert_true(cell >= 0);
        check_field_against_brute_force(world, cell_centre_of(cell % map->cols, cell / map->cols, 8.0), k ? 2.0 : 4.0,
                                        8.0);
    }
    steer_world_destroy(world);
}

static void test_flow_field_follows_geometry_changes(void **state)
{
    (void)state;
    SteerWorld *world = nav_world(400, 200, STEER_EDGES_CONTAIN);
    SteerFlowGoalDef def = steer_default_flow_goal_def();
    def.goal = steer_vec2(350, 100);
    SteerFlowFieldId field;
    assert_int_equal(steer_world_add_flow_field_to(world, &def, &field), STEER_OK);
    double before = steer_flow_field_distance(world, field, steer_vec2(50, 100));
    assert_near(before, 300.0, 10.0);
    SteerWallId w = wall(world, 200, 0, 200, 150);
    steer_world_step(world);
    double after = steer_flow_field_distance(world, field, steer_vec2(50, 100));
    assert_true(after > before + 40.0);
    assert_int_equal(steer_world_remove_wall(world, w), STEER_OK);
    steer_world_step(world);
    assert_near(steer_flow_field_distance(world, field, steer_vec2(50, 100)), before, 1e-3);
    wall(world, 200, 0, 200, 200); /* cut off */
    steer_world_step(world);
    assert_near(steer_flow_field_distance(world, field, steer_vec2(50, 100)), -1.0, 0.0);
    assert_near(steer_length(steer_flow_field_sample(world, field, steer_vec2(50, 100))), 0.0, 0.0);
    assert_int_equal(steer_world_remove_flow_field(world, field), STEER_OK);
    steer_world_step(world);
    assert_near(steer_flow_field_distance(world, field, steer_vec2(50, 100)), -1.0, 0.0);
    SteerFlowGoalDef zeroed;
    memset(&zeroed, 0, sizeof zeroed);
    assert_int_equal(steer_world_add_flow_field_to(world, &zeroed, &field), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(steer_world_last_error(world), "steer_world_add_flow_field_to: cell_size"));
    steer_world_destroy(world);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_straight_line_when_nothing_is_in_the_way),
        cmocka_unit_test(test_path_goes_around_a_wall_with_clearance),
        cmocka_unit_test(test_random_paths_never_come_closer_than_the_radius),
        cmocka_unit_test(test_paths_are_no_longer_than_the_best_cell_path),
        cmocka_unit_test(test_reasons_when_no_path_is_found),
        cmocka_unit_test(test_paths_do_not_cross_wrapping_edges_and_say_why),
        cmocka_unit_test(test_bad_queries_are_refused_with_a_reason),
        cmocka_unit_test(test_updated_maps_equal_maps_built_afresh),
        cmocka_unit_test(test_map_reports_its_cells),
        cmocka_unit_test(test_navigate_reaches_a_goal_that_seek_never_reaches),
        cmocka_unit_test(test_five_hundred_navigators_all_arrive_in_time),
        cmocka_unit_test(test_navigate_replans_when_a_wall_blocks_its_path),
        cmocka_unit_test(test_navigate_to_a_vehicle_replans_as_it_moves),
        cmocka_unit_test(test_navigate_unreachable_waits_then_goes_when_opened),
        cmocka_unit_test(test_a_wall_added_under_a_moving_vehicle),
        cmocka_unit_test(test_navigate_options_are_checked),
        cmocka_unit_test(test_navigation_is_deterministic_and_summed),
        cmocka_unit_test(test_navigation_never_allocates_in_the_step),
        cmocka_unit_test(test_flow_field_leads_around_walls_to_the_goal),
        cmocka_unit_test(test_flow_field_follows_geometry_changes),
        cmocka_unit_test(test_flow_field_distances_equal_brute_force),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
