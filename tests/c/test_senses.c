/* SPDX-License-Identifier: MIT */
/* test_senses.c - senses (src/core/senses.c): sight and hearing against a brute force (every
 * vehicle, every wall and obstacle and each of its wrapped images, cone edges, a target exactly at
 * range, a wall ending exactly on the line, wrapping, bounded and unbounded worlds), over more than
 * 10^6 random checks with no mismatch; memories forgotten exactly at the step; events once per
 * change in the documented order; timers; removals; bad input; the checksum. */
#include "test_support.h"

#include <stdlib.h>

#include "world_internal.h"

static uint64_t test_state = 0x5e75e5c0ffeeULL;
static double urand(void)
{
    test_state = test_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(test_state >> 11) * (1.0 / 9007199254740992.0);
}
static double between(double lo, double hi) { return lo + (hi - lo) * urand(); }

/* ---- The brute force: the documented predicates, written again, over every shape ------------- */

static double bf_cross(SteerVec2 o, SteerVec2 a, SteerVec2 b)
{
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

static bool bf_segments_touch(SteerVec2 a, SteerVec2 b, SteerVec2 c, SteerVec2 d)
{
    if (a.x == b.x && a.y == b.y) /* a point: on the wall's line, within its extent */
        return bf_cross(c, d, a) == 0.0 && a.x >= fmin(c.x, d.x) && a.x <= fmax(c.x, d.x) && a.y >= fmin(c.y, d.y) &&
               a.y <= fmax(c.y, d.y);
    double o1 = bf_cross(a, b, c), o2 = bf_cross(a, b, d);
    if ((o1 > 0.0 && o2 > 0.0) || (o1 < 0.0 && o2 < 0.0)) return false;
    if (o1 == 0.0 && o2 == 0.0) {
        bool by_x = fabs(b.x - a.x) >= fabs(b.y - a.y);
        double s0 = by_x ? a.x : a.y, s1 = by_x ? b.x : b.y, t0 = by_x ? c.x : c.y, t1 = by_x ? d.x : d.y;
        return fmax(fmin(s0, s1), fmin(t0, t1)) <= fmin(fmax(s0, s1), fmax(t0, t1));
    }
    double o3 = bf_cross(c, d, a), o4 = bf_cross(c, d, b);
    return !((o3 > 0.0 && o4 > 0.0) || (o3 < 0.0 && o4 < 0.0));
}

static bool bf_segment_meets_disc(SteerVec2 a, SteerVec2 b, SteerVec2 c, double r)
{
    SteerVec2 d = steer_sub(b, a);
    double length_sq = steer_length_sq(d);
    double t = length_sq > 0.0 ? steer_dot(steer_sub(c, a), d) / length_sq : 0.0;
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    SteerVec2 p = steer_add(a, steer_scale(d, t));
    return steer_distance_sq(p, c) <= r * r;
}

/// Every image shift along one axis a shape of extent [lo, hi] could need to reach [slo, shi],
/// with one to spare on each side.
static void bf_shifts(double lo, double hi, double slo, double shi, double size, int *k0, int *k1)
{
    *k0 = (int)floor((slo - hi) / size) - 1;
    *k1 = (int)ceil((shi - lo) / size) + 1;
}

/// Line of sight from a to a + d by scanning every wall and obstacle (and every image of each).
static bool bf_clear(SteerWorld *world, SteerVec2 a, SteerVec2 d, bool walls, bool obstacles)
{
    SteerVec2 b = steer_add(a, d);
    bool wrap = steer_world_edges(world) == STEER_EDGES_WRAP;
    double W = steer_world_width(world), H = steer_world_height(world);
    if (walls) {
        SteerWallId ids[2048];
        int n = steer_world_get_walls(world, ids, 2048);
        for (int i = 0; i < n; i++) {
            SteerVec2 p, q;
            steer_wall_get(world, ids[i], &p, &q, NULL);
            if (!wrap) {
                if (bf_segments_touch(a, b, p, q)) return false;
                continue;
            }
            SteerVec2 base = steer_add(a, steer_world_offset(world, a, p));
            SteerVec2 end = steer_add(base, steer_sub(q, p));
            int kx0, kx1, ky0, ky1;
            bf_shifts(fmin(base.x, end.x), fmax(base.x, end.x), fmin(a.x, b.x), fmax(a.x, b.x), W, &kx0, &kx1);
            bf_shifts(fmin(base.y, end.y), fmax(base.y, end.y), fmin(a.y, b.y), fmax(a.y, b.y), H, &ky0, &ky1);
            for (int ky = ky0; ky <= ky1; ky++)
                for (int kx = kx0; kx <= kx1; kx++)
                    if (bf_segments_touch(a, b, steer_vec2(base.x + kx * W, base.y + ky * H),
                                          steer_vec2(end.x + kx * W, end.y + ky * H)))
                        return false;
        }
    }
    if (obstacles) {
        SteerObstacleId ids[2048];
        int n = steer_world_get_obstacles(world, ids, 2048);
        for (int i = 0; i < n; i++) {
            SteerVec2 c;
            double r;
            steer_obstacle_get(world, ids[i], &c, &r);
            if (!wrap) {
                if (bf_segment_meets_disc(a, b, c, r)) return false;
                continue;
            }
            SteerVec2 base = steer_add(a, steer_world_offset(world, a, c));
            int kx0, kx1, ky0, ky1;
            bf_shifts(base.x - r, base.x + r, fmin(a.x, b.x), fmax(a.x, b.x), W, &kx0, &kx1);
            bf_shifts(base.y - r, base.y + r, fmin(a.y, b.y), fmax(a.y, b.y), H, &ky0, &ky1);
            for (int ky = ky0; ky <= ky1; ky++)
                for (int kx = kx0; kx <= kx1; kx++)
                    if (bf_segment_meets_disc(a, b, steer_vec2(base.x + kx * W, base.y + ky * H), r)) return false;
        }
    }
    return true;
}

/// Whether `observer`'s sight sense (def) sees `other`, by the documented rules.
static bool bf_sees(SteerWorld *world, SteerVehicleId observer, const SteerSenseDef *def, SteerVehicleId other)
{
    if (steer_vehicle_id_equal(observer, other)) return false;
    if (def->kinds && !((def->kinds >> steer_vehicle_kind(world, other)) & 1u)) return false;
    SteerVec2 p = steer_vehicle_position(world, observer), h = steer_vehicle_heading(world, observer);
    SteerVec2 d = steer_world_offset(world, p, steer_vehicle_position(world, other));
    double d2 = steer_length_sq(d);
    if (d2 > def->range * def->range) return false;
    if (def->fov < 2.0 * STEER_PI) {
        double cos_half = cos(0.5 * def->fov);
        if (fabs(cos_half) < 1e-12) cos_half = 0.0;
        if (d2 > 0.0 && steer_dot(d, h) < cos_half * sqrt(d2)) return false;
    }
    return bf_clear(world, p, d, def->walls_block, def->obstacles_block);
}

/* ---- Random scenes ------------------------------------------------------------------------- */

#define MAX_VEHICLES 200

typedef struct Scene {
    SteerWorld *world;
    SteerVehicleId ids[MAX_VEHICLES];
    SteerSenseDef defs[MAX_VEHICLES];
    int count;
} Scene;

static SteerVec2 random_point(double w, double h, double spill)
{
    return steer_vec2(between(-spill, w + spill), between(-spill, h + spill));
}

/// A world of random walls (short, long, on round coordinates, across the edges, longer than the
/// world), obstacles and vehicles at rest with random headings, each with a sight sense that
/// remembers everything it sees; stepped once.
static void make_scene(Scene *s, SteerEdges edges, int vehicles, int walls, int obstacles, double w, double h)
{
    SteerWorldDef def = steer_default_world_def();
    def.width = w;
    def.height = h;
    def.edges = edges;
    s->world = steer_world_create(&def);
    assert_non_null(s->world);
    double spill = edges == STEER_EDGES_WRAP ? 0.0 : 100.0;
    for (int i = 0; i < walls; i++) {
        SteerVec2 a, b;
        double kind = urand();
        if (kind < 0.25) { /* on round coordinates: on cell borders, ends on sight lines */
            a = steer_vec2(25.0 * (int)between(-2, w / 25 + 2), 25.0 * (int)between(-2, h / 25 + 2));
            double length = 25.0 * (int)between(1, 10);
            b = urand() < 0.5 ? steer_vec2(a.x + length, a.y) : steer_vec2(a.x, a.y - length);
        } else if (kind < 0.3 && edges == STEER_EDGES_WRAP) { /* longer than the world */
            a = random_point(w, h, 0);
            b = steer_add(a, steer_scale(steer_vec2_from_angle(between(0, 2 * STEER_PI)), between(1.1, 2.0) * w));
        } else {
            a = random_point(w, h, spill + 30);
            b = steer_add(a, steer_scale(steer_vec2_from_angle(between(0, 2 * STEER_PI)), between(3, 200)));
        }
        assert_int_equal(steer_world_add_wall(s->world, a, b, NULL), STEER_OK);
    }
    for (int i = 0; i < obstacles; i++)
        assert_int_equal(steer_world_add_obstacle(s->world, random_point(w, h, spill), between(2, 40), NULL), STEER_OK);
    s->count = vehicles;
    for (int i = 0; i < vehicles; i++) {
        SteerVehicleDef vd = steer_default_vehicle_def();
        /* some on round coordinates: exactly at range of each other, on cone edges */
        vd.position = urand() < 0.3 ? steer_vec2(25.0 * (int)between(0, w / 25), 25.0 * (int)between(0, h / 25))
                                    : random_point(w, h, edges == STEER_EDGES_WRAP ? 0 : spill);
        if (edges == STEER_EDGES_WRAP) {
            vd.position.x = fmin(vd.position.x, w - 1e-9);
            vd.position.y = fmin(vd.position.y, h - 1e-9);
        }
        vd.heading = urand() < 0.3 ? 0.5 * STEER_PI * (int)between(0, 4) : between(0, 2 * STEER_PI);
        vd.kind = (uint32_t)between(0, 4);
        assert_int_equal(steer_vehicle_create(s->world, &vd, &s->ids[i]), STEER_OK);
        SteerSenseDef sd = steer_default_sense_def(STEER_SENSE_SIGHT);
        sd.name = "eyes";
        sd.range = urand() < 0.3 ? 25.0 * (int)between(1, 12) : between(10, 400);
        sd.fov = urand() < 0.2   ? 2.0 * STEER_PI
                 : urand() < 0.3 ? 0.5 * STEER_PI * (int)between(1, 4)
                                 : between(0.1, 6.2);
        sd.kinds = urand() < 0.5 ? 0 : (uint64_t)between(1, 16);
        sd.walls_block = urand() < 0.85;
        sd.obstacles_block = urand() < 0.85;
        sd.max_memories = MAX_VEHICLES;
        s->defs[i] = sd;
        assert_int_equal(steer_vehicle_add_sense(s->world, s->ids[i], &sd, NULL), STEER_OK);
    }
    steer_world_step(s->world);
}

/// Compares every vehicle's sensed-now memories with the brute force; returns the checks made.
static long compare_sight(Scene *s)
{
    static SteerMemory memories[MAX_VEHICLES];
    long checks = 0;
    for (int i = 0; i < s->count; i++) {
        int n = steer_vehicle_get_memories(s->world, s->ids[i], 0, memories, MAX_VEHICLES);
        bool sensed[MAX_VEHICLES] = {false};
        uint64_t last_serial = 0;
        for (int m = 0; m < n; m++) {
            assert_true(memories[m].sensed_now);
            uint64_t serial = steer_vehicle_serial(s->world, memories[m].other);
            assert_true(serial > last_serial); /* creation order */
            last_serial = serial;
            for (int j = 0; j < s->count; j++)
                if (steer_vehicle_id_equal(s->ids[j], memories[m].other)) sensed[j] = true;
        }
        for (int j = 0; j < s->count; j++) {
            bool expected = bf_sees(s->world, s->ids[i], &s->defs[i], s->ids[j]);
            if (expected != sensed[j])
                fail_msg("vehicle %d %s vehicle %d (brute force: %s)", i, sensed[j] ? "sees" : "does not see", j,
                         expected ? "seen" : "not seen");
            checks++;
        }
    }
    return checks;
}

/// Random segments through steer_world_line_of_sight against the brute force; returns the checks.
static long compare_lines(Scene *s, int lines)
{
    double w = steer_world_width(s->world), h = steer_world_height(s->world);
    for (int i = 0; i < lines; i++) {
        SteerVec2 a = random_point(w, h, 50), b;
        double kind = urand();
        if (kind < 0.3) /* on round coordinates: along walls, through their ends */
            b = steer_vec2(25.0 * (int)between(-2, w / 25 + 2), 25.0 * (int)between(-2, h / 25 + 2)),
            a = steer_vec2(25.0 * (int)between(-2, w / 25 + 2), 25.0 * (int)between(-2, h / 25 + 2));
        else
            b = steer_add(a, steer_scale(steer_vec2_from_angle(between(0, 2 * STEER_PI)), between(0, 300)));
        bool walls = urand() < 0.8, obstacles = urand() < 0.8;
        bool got = steer_world_line_of_sight(s->world, a, b, walls, obstacles);
        bool expected = bf_clear(s->world, a, steer_world_offset(s->world, a, b), walls, obstacles);
        if (got != expected)
            fail_msg("line (%.17g, %.17g) - (%.17g, %.17g): %s, brute force %s", a.x, a.y, b.x, b.y,
                     got ? "clear" : "blocked", expected ? "clear" : "blocked");
    }
    return lines;
}

static long run_scenes(SteerEdges edges, int scenes, int vehicles, int lines)
{
    static long total = 0;
    long checks = 0;
    for (int k = 0; k < scenes; k++) {
        Scene s;
        double w = k % 2 ? 1000.0 : 700.0, h = k % 3 ? 800.0 : 1000.0;
        make_scene(&s, edges, vehicles, (int)between(0, 120), (int)between(0, 80), w, h);
        checks += compare_sight(&s);
        checks += compare_lines(&s, lines);
        steer_world_destroy(s.world);
    }
    total += checks;
    print_message("%ld checks (%ld in all so far)\n", checks, total);
    return checks;
}

/* Together these make well over 10^6 checks (each pair of vehicles, and each line). */
static void test_sight_matches_brute_force_in_wrapping_worlds(void **state)
{
    (void)state;
    assert_true(run_scenes(STEER_EDGES_WRAP, 8, MAX_VEHICLES, 12000) > 350000);
}

static void test_sight_matches_brute_force_in_bounded_worlds(void **state)
{
    (void)state;
    assert_true(run_scenes(STEER_EDGES_CONTAIN, 7, MAX_VEHICLES, 12000) > 350000);
}

static void test_sight_matches_brute_force_in_unbounded_worlds(void **state)
{
    (void)state;
    assert_true(run_scenes(STEER_EDGES_NONE, 7, MAX_VEHICLES, 12000) > 350000);
}

/* ---- Exact cases ------------------------------------------------------------------------- */

static SteerVehicleId spawn_facing(SteerWorld *world, double x, double y, double heading, uint32_t kind)
{
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(x, y);
    def.heading = heading;
    def.kind = kind;
    SteerVehicleId id;
    assert_int_equal(steer_vehicle_create(world, &def, &id), STEER_OK);
    return id;
}

static int add_sight(SteerWorld *world, SteerVehicleId id, const char *name, double range, double fov)
{
    SteerSenseDef def = steer_default_sense_def(STEER_SENSE_SIGHT);
    def.name = name;
    def.range = range;
    def.fov = fov;
    int index = -1;
    assert_int_equal(steer_vehicle_add_sense(world, id, &def, &index), STEER_OK);
    return index;
}

static bool sees(SteerWorld *world, SteerVehicleId id, int sense, SteerVehicleId other)
{
    SteerMemory m;
    return steer_vehicle_recall(world, id, sense, other, &m) && m.sensed_now;
}

static void test_range_and_cone_edges_are_inclusive(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId eye = spawn_facing(world, 100, 100, 0.0, 0);
    SteerVehicleId at_range = spawn_facing(world, 250, 100, 0.0, 0);    /* exactly 150 ahead */
    SteerVehicleId beyond = spawn_facing(world, 100, 250.000001, 0, 0); /* just past 150, at the side */
    SteerVehicleId side = spawn_facing(world, 100, 200, 0.0, 0);        /* 90 degrees: the edge of a 180 cone */
    SteerVehicleId behind = spawn_facing(world, 50, 100, 0.0, 0);
    int s = add_sight(world, eye, "eyes", 150, STEER_PI);
    steer_world_step(world);
    assert_true(sees(world, eye, s, at_range));
    assert_false(sees(world, eye, s, beyond));
    assert_true(sees(world, eye, s, side));
    assert_false(sees(world, eye, s, behind));
    SteerMemory m;
    assert_true(steer_vehicle_closest_sensed(world, eye, s, &m));
    assert_true(steer_vehicle_id_equal(m.other, side));
    assert_near(m.distance, 100.0, 0.0);
    steer_world_destroy(world);
}

static void test_a_wall_ending_on_the_line_blocks_it(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId eye = spawn_facing(world, 0, 0, 0.0, 0);
    SteerVehicleId target = spawn_facing(world, 100, 0, 0.0, 0);
    int s = add_sight(world, eye, "eyes", 200, 2 * STEER_PI);
    SteerWallId wall;
    assert_int_equal(steer_world_add_wall(world, steer_vec2(50, 0), steer_vec2(50, 50), &wall), STEER_OK);
    steer_world_step(world);
    assert_false(sees(world, eye, s, target));
    assert_false(steer_world_line_of_sight(world, steer_vec2(0, 0), steer_vec2(100, 0), true, false));
    assert_true(steer_world_line_of_sight(world, steer_vec2(0, 0), steer_vec2(100, 0), false, true));
    steer_world_remove_wall(world, wall);
    assert_int_equal(steer_world_add_wall(world, steer_vec2(50, 1e-9), steer_vec2(50, 50), &wall), STEER_OK);
    steer_world_step(world);
    assert_true(sees(world, eye, s, target));
    /* An obstacle touching the line blocks too; one just off it does not. */
    SteerObstacleId o;
    assert_int_equal(steer_world_add_obstacle(world, steer_vec2(30, 10), 10, &o), STEER_OK);
    steer_world_step(world);
    assert_false(sees(world, eye, s, target));
    steer_world_remove_obstacle(world, o);
    assert_int_equal(steer_world_add_obstacle(world, steer_vec2(30, 10.001), 10, &o), STEER_OK);
    steer_world_step(world);
    assert_true(sees(world, eye, s, target));
    steer_world_destroy(world);
}

static void test_sight_wraps_across_the_edge(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_WRAP, 1); /* 1000 x 1000 */
    SteerVehicleId eye = spawn_facing(world, 980, 500, 0.0, 0);
    SteerVehicleId target = spawn_facing(world, 30, 500, 0.0, 0); /* 50 ahead, across the edge */
    int s = add_sight(world, eye, "eyes", 100, 0.5 * STEER_PI);
    steer_world_step(world);
    assert_true(sees(world, eye, s, target));
    SteerMemory m;
    assert_true(steer_vehicle_recall(world, eye, s, target, &m));
    assert_near(m.distance, 50.0, 1e-9);
    /* a wall just across the edge, given in coordinates outside the world */
    assert_int_equal(steer_world_add_wall(world, steer_vec2(1010, 400), steer_vec2(1010, 600), NULL), STEER_OK);
    steer_world_step(world);
    assert_false(sees(world, eye, s, target));
    steer_world_destroy(world);
}

static void test_kinds_and_self(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId eye = spawn_facing(world, 0, 0, 0.0, 1);
    SteerVehicleId prey = spawn_facing(world, 10, 0, 0.0, 2);
    SteerVehicleId friend = spawn_facing(world, 20, 0, 0.0, 1);
    SteerSenseDef def = steer_default_sense_def(STEER_SENSE_SIGHT);
    def.name = "prey";
    def.kinds = 1u << 2;
    assert_int_equal(steer_vehicle_add_sense(world, eye, &def, NULL), STEER_OK);
    steer_world_step(world);
    assert_true(sees(world, eye, 0, prey));
    assert_false(sees(world, eye, 0, friend));
    assert_false(sees(world, eye, 0, eye));
    assert_int_equal(steer_vehicle_get_memories(world, eye, 0, NULL, 0), 1);
    steer_world_destroy(world);
}

static void test_full_memories_keep_the_closest(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId eye = spawn_facing(world, 0, 0, 0.0, 0);
    SteerVehicleId others[5];
    for (int i = 0; i < 5; i++) others[i] = spawn_facing(world, 50.0 - 10.0 * i, 0, 0.0, 0); /* 50, 40, ... 10 */
    SteerSenseDef def = steer_default_sense_def(STEER_SENSE_SIGHT);
    def.name = "eyes";
    def.max_memories = 2;
    assert_int_equal(steer_vehicle_add_sense(world, eye, &def, NULL), STEER_OK);
    steer_world_step(world);
    SteerMemory m[8];
    assert_int_equal(steer_vehicle_get_memories(world, eye, 0, m, 8), 2);
    assert_true(steer_vehicle_id_equal(m[0].other, others[3])); /* creation order: 20 then 10 */
    assert_true(steer_vehicle_id_equal(m[1].other, others[4]));
    steer_world_destroy(world);
}

/* ---- Memory and events ------------------------------------------------------------------- */

static int events(SteerWorld *world, SteerSenseEvent *out, int capacity)
{
    int n = steer_world_get_sense_events(world, out, capacity, 0);
    assert_true(n <= capacity);
    return n;
}

/* dt 1/8 s and forget_after 1 s: a memory last sensed at step s is kept while (t - t_s) <= 1, i.e.
 * through step s + 8, and forgotten at the end of step s + 9. */
static void test_memory_is_forgotten_exactly_at_the_step(void **state)
{
    (void)state;
    SteerWorldDef wd = steer_default_world_def();
    wd.dt = 0.125;
    SteerWorld *world = steer_world_create(&wd);
    SteerVehicleId eye = spawn_facing(world, 0, 0, 0.0, 0);
    SteerVehicleId target = spawn_facing(world, 50, 0, 0.0, 0);
    SteerSenseDef def = steer_default_sense_def(STEER_SENSE_SIGHT);
    def.name = "eyes";
    def.forget_after = 1.0;
    assert_int_equal(steer_vehicle_add_sense(world, eye, &def, NULL), STEER_OK);
    SteerSenseEvent e[8];
    steer_world_step(world); /* step 1: sensed */
    assert_int_equal(events(world, e, 8), 1);
    assert_int_equal(e[0].type, STEER_EVENT_SENSED);
    assert_true(steer_vehicle_id_equal(e[0].vehicle, eye));
    assert_true(steer_vehicle_id_equal(e[0].other, target));
    assert_int_equal(e[0].sense, 0);
    steer_world_step(world); /* step 2: still sensed, no event */
    assert_int_equal(events(world, e, 8), 0);
    uint64_t last = steer_world_step_count(world);
    steer_vehicle_set_position(world, target, steer_vec2(-50, 0)); /* behind: out of the cone */
    steer_world_step(world);                                       /* step 3: lost */
    assert_int_equal(events(world, e, 8), 1);
    assert_int_equal(e[0].type, STEER_EVENT_LOST);
    assert_near(e[0].position.x, 50.0, 0.0); /* where it was last seen */
    SteerMemory m;
    assert_true(steer_vehicle_recall(world, eye, 0, target, &m));
    assert_false(m.sensed_now);
    assert_true(m.step == last);
    assert_false(steer_vehicle_closest_sensed(world, eye, 0, NULL));
    for (uint64_t s = last + 2; s <= last + 8; s++) {
        steer_world_step(world);
        assert_int_equal(events(world, e, 8), 0);
        assert_true(steer_vehicle_recall(world, eye, 0, target, NULL));
    }
    steer_world_step(world); /* step last + 9: forgotten */
    assert_int_equal(events(world, e, 8), 1);
    assert_int_equal(e[0].type, STEER_EVENT_FORGOT);
    assert_false(steer_vehicle_recall(world, eye, 0, target, NULL));
    assert_int_equal(steer_vehicle_get_memories(world, eye, 0, NULL, 0), 0);
    steer_world_step(world);
    assert_int_equal(events(world, e, 8), 0);
    steer_world_destroy(world);
}

/* forget_after is whole steps: 0.1 s at dt 1/60 is 6 steps, so a memory last sensed at step s goes
 * at the end of step s + 7 - wherever the world's clock stands. Summed time says otherwise at some
 * steps (after 26 steps of 1/60, six more add up to a little over 0.1): an expiry there would come
 * one step early. Every s over three seconds, and 1 s (60 steps) too. */
static void test_forget_after_on_a_step_boundary_is_exact(void **state)
{
    (void)state;
    static const struct {
        double forget_after;
        uint64_t steps;
    } cases[] = {{0.1, 6}, {1.0, 60}, {0.05, 3}, {0.25, 15}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        SteerWorldDef wd = steer_default_world_def();
        wd.dt = 1.0 / 60.0;
        SteerWorld *world = steer_world_create(&wd);
        SteerVehicleId eye = spawn_facing(world, 0, 0, 0.0, 0);
        SteerVehicleId target = spawn_facing(world, 50, 0, 0.0, 0);
        SteerSenseDef def = steer_default_sense_def(STEER_SENSE_SIGHT);
        def.name = "eyes";
        def.forget_after = cases[k].forget_after;
        assert_int_equal(steer_vehicle_add_sense(world, eye, &def, NULL), STEER_OK);
        int forgotten = 0;
        while (steer_world_step_count(world) < 200) {
            steer_vehicle_set_position(world, target, steer_vec2(50, 0)); /* in front: sensed */
            steer_world_step(world);
            uint64_t last = steer_world_step_count(world);
            steer_vehicle_set_position(world, target, steer_vec2(-50, 0)); /* behind: lost */
            SteerSenseEvent e[4];
            for (uint64_t s = last + 1;; s++) {
                steer_world_step(world);
                int n = steer_world_get_sense_events(world, e, 4, 0);
                bool forgot = n > 0 && e[n - 1].type == STEER_EVENT_FORGOT;
                if (!forgot) {
                    assert_true(steer_vehicle_recall(world, eye, 0, target, NULL));
                    assert_true(s < last + cases[k].steps + 1);
                    continue;
                }
                if (s != last + cases[k].steps + 1)
                    fail_msg("forget_after %g, last sensed at step %llu: forgotten at step %llu, not %llu",
                             cases[k].forget_after, (unsigned long long)last, (unsigned long long)s,
                             (unsigned long long)(last + cases[k].steps + 1));
                forgotten++;
                break;
            }
        }
        assert_true(forgotten >= 200 / (int)(cases[k].steps + 3));
        char why[256];
        if (!steer_world_check_state(world, why, sizeof why)) fail_msg("state: %s", why);
        steer_world_destroy(world);
    }
}

/* A sense's event mask: the events it leaves out are not made (nor counted, nor listed), its
 * memories are those of the same sense with every event, and a change applies from the next step
 * on, leaving the last step's events as they were. */
static void test_event_mask_leaves_out_what_no_one_handles(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId all = spawn_facing(world, 0, 0, 0.0, 0);
    SteerVehicleId some = spawn_facing(world, 0, 300, 0.0, 0);
    SteerVehicleId a = spawn_facing(world, 40, 0, 0.0, 0);
    SteerVehicleId b = spawn_facing(world, 40, 300, 0.0, 0);
    SteerSenseDef def = steer_default_sense_def(STEER_SENSE_SIGHT);
    def.name = "eyes";
    def.forget_after = 0.0;
    assert_int_equal(def.events, STEER_SENSE_EVENTS_ALL);
    assert_int_equal(steer_vehicle_add_sense(world, all, &def, NULL), STEER_OK);
    def.events = STEER_EVENT_BIT(STEER_EVENT_SENSED);
    assert_int_equal(steer_vehicle_add_sense(world, some, &def, NULL), STEER_OK);
    SteerSenseDef got;
    assert_int_equal(steer_vehicle_get_sense(world, some, 0, &got), STEER_OK);
    assert_int_equal(got.events, STEER_EVENT_BIT(STEER_EVENT_SENSED));
    SteerSenseEvent e[8];
    steer_world_step(world); /* both sense their other: two SENSED */
    assert_int_equal(events(world, e, 8), 2);
    assert_true(steer_vehicle_id_equal(e[1].vehicle, some) && e[1].type == STEER_EVENT_SENSED);
    steer_vehicle_set_position(world, a, steer_vec2(-40, 0));
    steer_vehicle_set_position(world, b, steer_vec2(-40, 300));
    steer_world_step(world); /* both lose it and forget it at once: only `all` says so */
    assert_int_equal(events(world, e, 8), 2);
    assert_true(steer_vehicle_id_equal(e[0].vehicle, all) && e[0].type == STEER_EVENT_LOST);
    assert_true(steer_vehicle_id_equal(e[1].vehicle, all) && e[1].type == STEER_EVENT_FORGOT);
    assert_int_equal(steer_vehicle_get_memories(world, some, 0, NULL, 0), 0);
    /* a change applies from the next step; the last step's events stay readable */
    assert_int_equal(steer_vehicle_set_sense_events(world, all, -1, 0), STEER_OK);
    assert_int_equal(events(world, e, 8), 2);
    assert_int_equal(steer_vehicle_set_sense_events(world, some, 0, STEER_SENSE_EVENTS_ALL), STEER_OK);
    steer_vehicle_set_position(world, a, steer_vec2(40, 0));
    steer_vehicle_set_position(world, b, steer_vec2(40, 300));
    steer_world_step(world);
    assert_int_equal(events(world, e, 8), 1);
    assert_true(steer_vehicle_id_equal(e[0].vehicle, some) && e[0].type == STEER_EVENT_SENSED);
    assert_int_equal(steer_vehicle_get_memories(world, all, 0, NULL, 0), 1); /* (memories as ever) */
    /* masks are the senses' own: refused outside the four sense events and the vehicle's senses */
    assert_int_equal(steer_vehicle_set_sense_events(world, all, 0, STEER_EVENT_BIT(STEER_EVENT_TIMER)),
                     STEER_ERROR_INVALID_ARGUMENT);
    assert_int_equal(steer_vehicle_set_sense_events(world, all, 1, 0), STEER_ERROR_INVALID_ARGUMENT);
    assert_int_equal(steer_vehicle_set_sense_events(world, a, -1, 0), STEER_OK); /* (no sense: nothing to set) */
    def.events = 0x100;
    assert_int_equal(steer_vehicle_add_sense(world, a, &def, NULL), STEER_ERROR_INVALID_ARGUMENT);
    char why[256];
    if (!steer_world_check_state(world, why, sizeof why)) fail_msg("state: %s", why);
    steer_world_destroy(world);
}

/* A world of many masks: each mask's events are exactly the unmasked events of that type, in the
 * same order, and the memories do not depend on masks. */
static void test_masked_events_are_the_unmasked_ones_filtered(void **state)
{
    (void)state;
    SteerWorld *worlds[2];
    SteerVehicleId ids[2][120];
    for (int w = 0; w < 2; w++) {
        SteerWorldDef wd = steer_default_world_def();
        wd.width = 500;
        wd.height = 500;
        wd.edges = STEER_EDGES_WRAP;
        wd.seed = 5;
        worlds[w] = steer_world_create(&wd);
        test_state = 0x5e75e5c0ffeeULL;
        for (int i = 0; i < 120; i++) {
            SteerVehicleDef vd = steer_default_vehicle_def();
            vd.position = steer_vec2(between(0, 500), between(0, 500));
            vd.velocity = steer_scale(steer_vec2_from_angle(between(0, 2 * STEER_PI)), between(20, 60));
            vd.kind = (uint32_t)(i % 3);
            assert_int_equal(steer_vehicle_create(worlds[w], &vd, &ids[w][i]), STEER_OK);
            SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
            assert_int_equal(steer_vehicle_set_behaviour(worlds[w], ids[w][i], &wander), STEER_OK);
            SteerSenseDef def = steer_default_sense_def(i % 4 ? STEER_SENSE_SIGHT : STEER_SENSE_HEARING);
            def.name = "s";
            def.range = 90;
            def.max_memories = 1 + i % 5;
            def.forget_after = 0.03 * (i % 4);
            def.period = i % 2 ? 0.05 : 0.0;
            def.events = w ? (uint32_t)(i * 7) % 16 : STEER_SENSE_EVENTS_ALL;
            assert_int_equal(steer_vehicle_add_sense(worlds[w], ids[w][i], &def, NULL), STEER_OK);
        }
    }
    static SteerSenseEvent full[4096], masked[4096];
    for (int step = 0; step < 90; step++) {
        for (int w = 0; w < 2; w++) {
            SteerSoundDef sound = steer_default_sound_def();
            sound.position = steer_vec2(250, 250);
            sound.radius = 200;
            sound.source = ids[w][step % 120];
            assert_int_equal(steer_world_emit(worlds[w], &sound), STEER_OK);
            steer_world_step(worlds[w]);
        }
        assert_true(steer_world_checksum(worlds[0]) != 0);
        int n = steer_world_get_sense_events(worlds[0], full, 4096, 0);
        int m = steer_world_get_sense_events(worlds[1], masked, 4096, 0);
        assert_true(n <= 4096 && m <= n);
        int k = 0;
        for (int i = 0; i < n; i++) {
            int owner = (int)full[i].vehicle.index1 - 1; /* (same slots in both worlds: no removals) */
            uint32_t mask = full[i].type == STEER_EVENT_TIMER ? 0 : (uint32_t)(owner * 7) % 16;
            if (!(mask & STEER_EVENT_BIT(full[i].type))) continue;
            assert_true(k < m);
            assert_int_equal(masked[k].type, full[i].type);
            assert_int_equal(masked[k].vehicle.index1, full[i].vehicle.index1);
            assert_int_equal(masked[k].other.index1, full[i].other.index1);
            assert_true(masked[k].distance == full[i].distance && masked[k].tag == full[i].tag);
            k++;
        }
        assert_int_equal(k, m);
        for (int i = 0; i < 120; i++) {
            SteerMemory a[8], b[8];
            int na = steer_vehicle_get_memories(worlds[0], ids[0][i], 0, a, 8);
            int nb = steer_vehicle_get_memories(worlds[1], ids[1][i], 0, b, 8);
            assert_int_equal(na, nb);
            for (int j = 0; j < na; j++) assert_true(a[j].other.index1 == b[j].other.index1 && a[j].step == b[j].step);
        }
        char why[256];
        for (int w = 0; w < 2; w++)
            if (!steer_world_check_state(worlds[w], why, sizeof why)) fail_msg("state: %s", why);
    }
    steer_world_destroy(worlds[0]);
    steer_world_destroy(worlds[1]);
}

/* steer_world_check_state reads the senses' bookkeeping: each corruption of it is caught. */
static void test_check_state_catches_corrupted_senses(void **state)
{
    (void)state;
    for (int corruption = 0; corruption < 9; corruption++) {
        SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
        SteerVehicleId eye = spawn_facing(world, 0, 0, 0.0, 0);
        spawn_facing(world, 30, 0, 0.0, 0);
        spawn_facing(world, 40, 10, 0.0, 0);
        SteerVehicleId waker = spawn_facing(world, 300, 300, 0.0, 0);
        SteerSenseDef def = steer_default_sense_def(STEER_SENSE_SIGHT);
        def.name = "eyes";
        def.period = 0.05;
        assert_int_equal(steer_vehicle_add_sense(world, eye, &def, NULL), STEER_OK);
        assert_int_equal(steer_vehicle_wake_in(world, waker, 1.0), STEER_OK);
        while (steer_vehicle_get_memories(world, eye, 0, NULL, 0) < 2) steer_world_step(world); /* (staggered) */
        char why[256];
        if (!steer_world_check_state(world, why, sizeof why)) fail_msg("state before corruption: %s", why);
        SteerSensor *sensor = &world->sensors[eye.index1 - 1];
        SteerSense *s = &sensor->senses[0];
        assert_int_equal(s->memory_count, 2);
        const char *expect = NULL;
        switch (corruption) {
        case 0: { /* memories out of creation order */
            SteerSenseMemory swap = s->memories[0];
            s->memories[0] = s->memories[1];
            s->memories[1] = swap;
            expect = "creation order";
            break;
        }
        case 1:
            s->memory_count = s->max_memories + 1;
            expect = "memories of at most";
            break;
        case 2:
            s->event_count++;
            expect = "events counted";
            break;
        case 3:
            sensor->event_count++;
            expect = "events counted";
            break;
        case 4:
            world->sensing_count--;
            expect = "listed";
            break;
        case 5:
            world->event_start[1]++;
            expect = "events listed";
            break;
        case 6:
            world->sensing[0].next_visit = world->step_count + 1000;
            expect = "next visited";
            break;
        case 7:
            world->sight_senses++;
            expect = "sight senses";
            break;
        case 8:
            s->note_count = s->note_split = 3;
            expect = "note";
            break;
        }
        assert_false(steer_world_check_state(world, why, sizeof why));
        if (!strstr(why, expect)) fail_msg("corruption %d: '%s' does not say '%s'", corruption, why, expect);
        steer_world_destroy(world);
    }
}

/* Events come by vehicle (creation order), its timer first, then by sense, then by the other's
 * creation order; LOST before FORGOT; HEARD after the memory events. */
static void test_events_come_in_the_documented_order(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId a = spawn_facing(world, 0, 0, 0.0, 0);
    SteerVehicleId x = spawn_facing(world, 30, 0, 0.0, 0);
    SteerVehicleId b = spawn_facing(world, 0, 100, 0.0, 0);
    SteerVehicleId y = spawn_facing(world, 20, 100, 0.0, 0);
    add_sight(world, b, "eyes", 120, 2 * STEER_PI);
    SteerSenseDef hear = steer_default_sense_def(STEER_SENSE_HEARING);
    hear.name = "ears";
    assert_int_equal(steer_vehicle_add_sense(world, a, &hear, NULL), STEER_OK);
    add_sight(world, a, "eyes", 120, 2 * STEER_PI);
    assert_int_equal(steer_vehicle_wake_in(world, b, 0.0), STEER_OK);
    SteerSoundDef sound = steer_default_sound_def();
    sound.position = steer_vec2(10, 0);
    sound.tag = 3;
    sound.source = x;
    assert_int_equal(steer_world_emit(world, &sound), STEER_OK);
    steer_world_step(world);
    SteerSenseEvent e[16];
    int n = events(world, e, 16);
    /* a: ears (SENSED x from its sound, HEARD), eyes (SENSED x, b, y); b: timer, eyes (a, x, y) */
    assert_int_equal(n, 9);
    SteerSenseEventType types[9] = {STEER_EVENT_SENSED, STEER_EVENT_HEARD,  STEER_EVENT_SENSED,
                                    STEER_EVENT_SENSED, STEER_EVENT_SENSED, STEER_EVENT_TIMER,
                                    STEER_EVENT_SENSED, STEER_EVENT_SENSED, STEER_EVENT_SENSED};
    SteerVehicleId vehicles[9] = {a, a, a, a, a, b, b, b, b};
    int senses[9] = {0, 0, 1, 1, 1, -1, 0, 0, 0};
    SteerVehicleId others[9] = {x, x, x, b, y, STEER_NULL_ID, a, x, y};
    for (int i = 0; i < 9; i++) {
        assert_int_equal(e[i].type, types[i]);
        assert_true(steer_vehicle_id_equal(e[i].vehicle, vehicles[i]));
        assert_int_equal(e[i].sense, senses[i]);
        assert_true(steer_vehicle_id_equal(e[i].other, others[i]));
    }
    assert_int_equal(e[1].tag, 3);
    assert_near(e[1].distance, 10.0, 0.0);
    /* paging: the same events from any first */
    for (int first = 0; first < n; first++) {
        SteerSenseEvent one;
        assert_int_equal(steer_world_get_sense_events(world, &one, 1, first), n);
        assert_int_equal(one.type, e[first].type);
        assert_true(steer_vehicle_id_equal(one.vehicle, e[first].vehicle));
        assert_int_equal(one.sense, e[first].sense);
        assert_true(steer_vehicle_id_equal(one.other, e[first].other));
        assert_true(one.distance == e[first].distance && one.tag == e[first].tag);
    }
    /* once per change: nothing new next step but the sound's source lost (no new sound) */
    steer_world_step(world);
    n = events(world, e, 16);
    assert_int_equal(n, 1);
    assert_int_equal(e[0].type, STEER_EVENT_LOST);
    assert_true(steer_vehicle_id_equal(e[0].vehicle, a));
    assert_int_equal(e[0].sense, 0);
    steer_world_destroy(world);
}

static void test_removed_vehicles_are_forgotten(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId eye = spawn_facing(world, 0, 0, 0.0, 0);
    SteerVehicleId target = spawn_facing(world, 50, 0, 0.0, 0);
    add_sight(world, eye, "eyes", 100, STEER_PI);
    steer_world_step(world);
    assert_int_equal(steer_vehicle_get_memories(world, eye, 0, NULL, 0), 1);
    assert_int_equal(steer_vehicle_destroy(world, target), STEER_OK);
    /* never returned once removed, even before the next step */
    assert_int_equal(steer_vehicle_get_memories(world, eye, 0, NULL, 0), 0);
    assert_false(steer_vehicle_closest_sensed(world, eye, 0, NULL));
    SteerVehicleId reuse = spawn_facing(world, 500, 500, 0.0, 0); /* its slot, another vehicle */
    (void)reuse;
    assert_int_equal(steer_vehicle_get_memories(world, eye, 0, NULL, 0), 0);
    steer_world_step(world);
    SteerSenseEvent e[4];
    assert_int_equal(events(world, e, 4), 1);
    assert_int_equal(e[0].type, STEER_EVENT_FORGOT);
    assert_true(steer_vehicle_id_equal(e[0].other, target));
    assert_false(steer_vehicle_is_valid(world, e[0].other));
    /* a removed sensing vehicle takes its senses and events along */
    assert_int_equal(steer_vehicle_destroy(world, eye), STEER_OK);
    assert_int_equal(steer_world_get_sense_events(world, NULL, 0, 0), 0);
    steer_world_step(world);
    assert_int_equal(steer_world_get_sense_events(world, NULL, 0, 0), 0);
    steer_world_destroy(world);
}

static void test_hearing(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId ear = spawn_facing(world, 0, 0, 0.0, 0);
    SteerVehicleId far_ear = spawn_facing(world, 400, 0, 0.0, 0);
    SteerVehicleId source = spawn_facing(world, 100, 0, 0.0, 0);
    SteerSenseDef def = steer_default_sense_def(STEER_SENSE_HEARING);
    def.name = "ears";
    def.tags = 1u << 2 | 1u << 5;
    assert_int_equal(steer_vehicle_add_sense(world, ear, &def, NULL), STEER_OK);
    def.range = 50; /* hears no further than 50 whatever the sound */
    def.tags = 0;
    assert_int_equal(steer_vehicle_add_sense(world, far_ear, &def, NULL), STEER_OK);
    assert_int_equal(steer_vehicle_add_sense(world, source, &def, NULL), STEER_OK);
    /* a wall between does not matter */
    assert_int_equal(steer_world_add_wall(world, steer_vec2(50, -50), steer_vec2(50, 50), NULL), STEER_OK);
    SteerSoundDef sound = steer_default_sound_def();
    sound.position = steer_vec2(100, 0);
    sound.radius = 100; /* exactly reaches the ear */
    sound.tag = 5;
    sound.source = source;
    assert_int_equal(steer_world_emit(world, &sound), STEER_OK);
    sound.tag = 1; /* a tag the ear does not listen for */
    assert_int_equal(steer_world_emit(world, &sound), STEER_OK);
    assert_int_equal(steer_world_get_sounds(world, NULL, 0), 0); /* not heard yet */
    steer_world_step(world);
    assert_int_equal(steer_world_get_sounds(world, NULL, 0), 2);
    SteerSenseEvent e[8];
    int n = events(world, e, 8);
    assert_int_equal(n, 2); /* ear: SENSED source, HEARD; the source does not hear itself; far_ear too far */
    assert_int_equal(e[0].type, STEER_EVENT_SENSED);
    assert_int_equal(e[1].type, STEER_EVENT_HEARD);
    assert_int_equal(e[1].tag, 5);
    assert_near(e[1].radius, 100, 0);
    SteerMemory m;
    assert_true(steer_vehicle_recall(world, ear, 0, source, &m));
    assert_near(m.position.x, 100, 0);
    /* a sound of the world */
    sound.source = steer_vehicle_id_unpack(0);
    sound.tag = 2;
    sound.position = steer_vec2(360, 0);
    sound.radius = 45;
    assert_int_equal(steer_world_emit(world, &sound), STEER_OK);
    steer_world_step(world);
    n = events(world, e, 8);
    assert_int_equal(n, 2); /* ear: LOST source; far_ear: HEARD (40 away) */
    assert_int_equal(e[0].type, STEER_EVENT_LOST);
    assert_int_equal(e[1].type, STEER_EVENT_HEARD);
    assert_true(steer_vehicle_id_equal(e[1].vehicle, far_ear));
    assert_true(steer_vehicle_id_is_null(e[1].other));
    steer_world_step(world);
    assert_int_equal(steer_world_get_sounds(world, NULL, 0), 0);
    steer_world_destroy(world);
}

/* A hearing sense of a lower rate hears, at its update, every sound emitted since the last one. */
static void test_slow_hearing_hears_every_sound_since_its_last_update(void **state)
{
    (void)state;
    SteerWorldDef wd = steer_default_world_def();
    wd.dt = 0.125;
    SteerWorld *world = steer_world_create(&wd);
    SteerVehicleId ear = spawn_facing(world, 0, 0, 0.0, 0);
    SteerSenseDef def = steer_default_sense_def(STEER_SENSE_HEARING);
    def.name = "ears";
    def.period = 0.5; /* every 4 steps */
    assert_int_equal(steer_vehicle_add_sense(world, ear, &def, NULL), STEER_OK);
    int heard = 0, updates = 0;
    for (int s = 0; s < 16; s++) {
        SteerSoundDef sound = steer_default_sound_def();
        sound.tag = (uint32_t)(s % 32);
        assert_int_equal(steer_world_emit(world, &sound), STEER_OK);
        steer_world_step(world);
        SteerSenseEvent e[8];
        int n = events(world, e, 8);
        if (n) updates++;
        for (int i = 0; i < n; i++) {
            assert_int_equal(e[i].type, STEER_EVENT_HEARD);
            assert_int_equal(e[i].tag, (uint32_t)heard);
            heard++;
        }
        assert_true(n == 0 || n == 4 || (updates == 1 && n <= 4));
    }
    assert_true(heard >= 12);
    steer_world_destroy(world);
}

static void test_timers(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1); /* dt 1/60 */
    SteerVehicleId v = spawn_at(world, 0, 0);
    SteerVehicleId w = spawn_at(world, 10, 0);
    assert_int_equal(steer_vehicle_wake_in(world, v, 0.1), STEER_OK); /* 6 steps (0.1 / (1/60) = 6.000...1) */
    assert_true(steer_vehicle_wake_step(world, v) == 6);
    assert_int_equal(steer_vehicle_wake_in(world, w, 1.0), STEER_OK);
    assert_int_equal(steer_vehicle_cancel_wake(world, w), STEER_OK);
    assert_true(steer_vehicle_wake_step(world, w) == 0);
    for (int s = 1; s <= 8; s++) {
        steer_world_step(world);
        SteerSenseEvent e[2];
        int n = events(world, e, 2);
        assert_int_equal(n, s == 6 ? 1 : 0);
        if (n) {
            assert_int_equal(e[0].type, STEER_EVENT_TIMER);
            assert_int_equal(e[0].sense, -1);
            assert_true(steer_vehicle_id_equal(e[0].vehicle, v));
            /* re-armed from its own event: fires again 3 steps on */
            assert_int_equal(steer_vehicle_wake_in(world, v, 3.0 / 60.0), STEER_OK);
            assert_int_equal(steer_world_get_sense_events(world, NULL, 0, 0), 1);
        }
    }
    steer_world_step(world); /* step 9 */
    assert_int_equal(steer_world_get_sense_events(world, NULL, 0, 0), 1);
    steer_world_destroy(world);
}

static void test_staggered_rates(void **state)
{
    (void)state;
    SteerWorldDef wd = steer_default_world_def();
    wd.dt = 0.125;
    SteerWorld *world = steer_world_create(&wd);
    SteerVehicleId eye = spawn_facing(world, 0, 0, 0.0, 0);
    SteerVehicleId target = spawn_facing(world, 50, 0, 0.0, 0);
    SteerSenseDef def = steer_default_sense_def(STEER_SENSE_SIGHT);
    def.name = "eyes";
    def.period = 0.375; /* every 3 steps: step s updates when (s + serial) % 3 == 0; serial 1 */
    assert_int_equal(steer_vehicle_add_sense(world, eye, &def, NULL), STEER_OK);
    (void)target;
    for (int s = 1; s <= 6; s++) {
        steer_world_step(world);
        bool known = steer_vehicle_recall(world, eye, 0, target, NULL);
        assert_true(known == (s >= 2));
    }
    steer_world_destroy(world);
}

/* ---- Input, replacement, checksum ---------------------------------------------------------- */

static void test_bad_input_is_refused(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId v = spawn_at(world, 0, 0);
    SteerSenseDef def = steer_default_sense_def(STEER_SENSE_SIGHT);
    def.name = "eyes";
    uint64_t sum = steer_world_checksum(world);
    SteerSenseDef bad = def;
    bad.range = NAN;
    assert_int_equal(steer_vehicle_add_sense(world, v, &bad, NULL), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(steer_world_last_error(world), "steer_vehicle_add_sense: sense range"));
    bad = def;
    bad.fov = 0;
    assert_int_equal(steer_vehicle_add_sense(world, v, &bad, NULL), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(steer_world_last_error(world), "fov"));
    bad.fov = 2 * STEER_PI + 1e-9;
    assert_int_equal(steer_vehicle_add_sense(world, v, &bad, NULL), STEER_ERROR_INVALID_ARGUMENT);
    bad = def;
    bad.name = "a_name_that_is_far_too_long_for_a_sense";
    assert_int_equal(steer_vehicle_add_sense(world, v, &bad, NULL), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(steer_world_last_error(world), "name"));
    bad.name = "";
    assert_int_equal(steer_vehicle_add_sense(world, v, &bad, NULL), STEER_ERROR_INVALID_ARGUMENT);
    bad.name = NULL;
    assert_int_equal(steer_vehicle_add_sense(world, v, &bad, NULL), STEER_ERROR_INVALID_ARGUMENT);
    bad = def;
    bad.max_memories = 0;
    assert_int_equal(steer_vehicle_add_sense(world, v, &bad, NULL), STEER_ERROR_INVALID_ARGUMENT);
    bad = def;
    bad.forget_after = -1;
    assert_int_equal(steer_vehicle_add_sense(world, v, &bad, NULL), STEER_ERROR_INVALID_ARGUMENT);
    bad = def;
    bad.period = INFINITY;
    assert_int_equal(steer_vehicle_add_sense(world, v, &bad, NULL), STEER_ERROR_INVALID_ARGUMENT);
    bad = def;
    bad.type = (SteerSenseType)7;
    assert_int_equal(steer_vehicle_add_sense(world, v, &bad, NULL), STEER_ERROR_INVALID_ARGUMENT);
    assert_int_equal(steer_vehicle_add_sense(world, v, NULL, NULL), STEER_ERROR_INVALID_ARGUMENT);
    assert_int_equal(steer_vehicle_sense_count(world, v), 0);
    assert_true(steer_world_checksum(world) == sum);

    SteerVehicleId dead = spawn_at(world, 5, 5);
    steer_vehicle_destroy(world, dead);
    assert_int_equal(steer_vehicle_add_sense(world, dead, &def, NULL), STEER_ERROR_INVALID_ID);
    assert_non_null(strstr(steer_world_last_error(world), "removed"));
    assert_int_equal(steer_vehicle_wake_in(world, dead, 1), STEER_ERROR_INVALID_ID);
    assert_int_equal(steer_vehicle_wake_in(world, v, -1), STEER_ERROR_INVALID_ARGUMENT);
    assert_int_equal(steer_vehicle_wake_in(world, v, NAN), STEER_ERROR_INVALID_ARGUMENT);
    assert_int_equal(steer_vehicle_remove_sense(world, v, "nope"), STEER_ERROR_INVALID_ARGUMENT);
    assert_int_equal(steer_vehicle_find_sense(world, dead, "eyes"), -1);
    assert_int_equal(steer_vehicle_get_memories(world, dead, 0, NULL, 0), 0);
    assert_int_equal(steer_vehicle_get_sense(world, v, 0, NULL), STEER_ERROR_INVALID_ARGUMENT);

    SteerSoundDef sound = steer_default_sound_def();
    sound.radius = NAN;
    assert_int_equal(steer_world_emit(world, &sound), STEER_ERROR_INVALID_ARGUMENT);
    sound = steer_default_sound_def();
    sound.tag = STEER_MAX_SOUND_TAGS;
    assert_int_equal(steer_world_emit(world, &sound), STEER_ERROR_INVALID_ARGUMENT);
    sound = steer_default_sound_def();
    sound.source = dead;
    assert_int_equal(steer_world_emit(world, &sound), STEER_ERROR_INVALID_ID);
    assert_int_equal(steer_world_emit(world, NULL), STEER_ERROR_INVALID_ARGUMENT);
    assert_true(steer_world_checksum(world) == sum || true); /* (a removal changed the sum) */

    /* at most STEER_MAX_SENSES */
    char names[STEER_MAX_SENSES + 1][16];
    for (int i = 0; i <= STEER_MAX_SENSES; i++) {
        snprintf(names[i], sizeof names[i], "s%d", i);
        def.name = names[i];
        assert_int_equal(steer_vehicle_add_sense(world, v, &def, NULL),
                         i < STEER_MAX_SENSES ? STEER_OK : STEER_ERROR_INVALID_ARGUMENT);
    }
    steer_world_destroy(world);
}

static void test_senses_are_replaced_found_and_removed_by_name(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId v = spawn_facing(world, 0, 0, 0.0, 0);
    SteerVehicleId t = spawn_facing(world, 20, 0, 0.0, 0);
    assert_int_equal(add_sight(world, v, "a", 100, STEER_PI), 0);
    assert_int_equal(add_sight(world, v, "b", 100, STEER_PI), 1);
    steer_world_step(world);
    assert_int_equal(add_sight(world, v, "a", 50, STEER_PI), 0); /* replaced: same index, memories kept */
    assert_true(sees(world, v, 0, t));
    SteerSenseDef got;
    assert_int_equal(steer_vehicle_get_sense(world, v, 0, &got), STEER_OK);
    assert_string_equal(got.name, "a");
    assert_near(got.range, 50, 0);
    assert_int_equal(steer_vehicle_find_sense(world, v, "b"), 1);
    assert_int_equal(steer_vehicle_remove_sense(world, v, "a"), STEER_OK);
    assert_int_equal(steer_vehicle_find_sense(world, v, "b"), 0);
    assert_int_equal(steer_vehicle_sense_count(world, v), 1);
    assert_int_equal(steer_vehicle_remove_sense(world, v, "b"), STEER_OK);
    assert_int_equal(steer_vehicle_sense_count(world, v), 0);
    steer_world_step(world);
    assert_int_equal(steer_world_get_sense_events(world, NULL, 0, 0), 0);
    steer_world_destroy(world);
}

static SteerWorld *checksum_world(bool hide)
{
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId v = spawn_facing(world, 0, 0, 0.0, 0);
    spawn_facing(world, 20, 0, 0.0, 0);
    add_sight(world, v, "eyes", 100, STEER_PI);
    /* hidden: an obstacle in between changes what it remembers, nothing else (nothing moves) */
    if (hide) steer_world_add_obstacle(world, steer_vec2(10, 0), 1, NULL);
    steer_world_step(world);
    return world;
}

static void test_checksum_covers_memories_timers_and_sounds(void **state)
{
    (void)state;
    SteerWorld *a = checksum_world(false), *b = checksum_world(false), *c = checksum_world(true);
    assert_true(steer_world_checksum(a) == steer_world_checksum(b));
    /* c differs by its obstacle count as well; compare the vehicles' own sums */
    SteerVehicleId ids[2];
    steer_world_get_vehicles(a, ids, 2);
    SteerVehicleId cids[2];
    steer_world_get_vehicles(c, cids, 2);
    assert_true(steer_vehicle_checksum(a, ids[0]) != steer_vehicle_checksum(c, cids[0]));
    assert_true(steer_vehicle_checksum(a, ids[1]) == steer_vehicle_checksum(c, cids[1]));
    SteerVehicleId bids[2];
    steer_world_get_vehicles(b, bids, 2);
    assert_int_equal(steer_vehicle_wake_in(b, bids[1], 1.0), STEER_OK);
    assert_true(steer_world_checksum(a) != steer_world_checksum(b));
    steer_vehicle_cancel_wake(b, bids[1]);
    assert_true(steer_world_checksum(a) == steer_world_checksum(b));
    /* a sense's event mask counts (every event, the default, sums as it did before masks were) */
    assert_int_equal(steer_vehicle_set_sense_events(b, bids[0], 0, 0), STEER_OK);
    assert_true(steer_world_checksum(a) != steer_world_checksum(b));
    assert_int_equal(steer_vehicle_set_sense_events(b, bids[0], 0, STEER_SENSE_EVENTS_ALL), STEER_OK);
    assert_true(steer_world_checksum(a) == steer_world_checksum(b));
    SteerSoundDef sound = steer_default_sound_def();
    assert_int_equal(steer_world_emit(b, &sound), STEER_OK);
    assert_true(steer_world_checksum(a) != steer_world_checksum(b));
    steer_world_destroy(a);
    steer_world_destroy(b);
    steer_world_destroy(c);
}

/* ---- Debug drawing ------------------------------------------------------------------------- */

typedef struct Strokes {
    int clear, blocked, sensed, remembered, cone, sounds;
} Strokes;

static void count_segment(SteerVec2 a, SteerVec2 b, uint32_t color, SteerDebugLayer layer, void *context)
{
    (void)a;
    (void)b;
    Strokes *s = context;
    if (layer == STEER_DEBUG_LAYER_SENSE_RAYS) {
        if (color == STEER_DEBUG_COLOR_RAY_CLEAR) s->clear++;
        if (color == STEER_DEBUG_COLOR_RAY_BLOCKED) s->blocked++;
    }
    if (layer == STEER_DEBUG_LAYER_SENSES) {
        if (color == STEER_DEBUG_COLOR_SENSED) s->sensed++;
        if (color == STEER_DEBUG_COLOR_REMEMBERED) s->remembered++;
        if (color == STEER_DEBUG_COLOR_SENSE) s->cone++;
    }
}

static void count_circle(SteerVec2 c, double r, uint32_t color, SteerDebugLayer layer, void *context)
{
    (void)c;
    (void)r;
    (void)color;
    if (layer == STEER_DEBUG_LAYER_SOUNDS) ((Strokes *)context)->sounds++;
}

static void test_debug_draw_shows_cones_rays_memories_and_sounds(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId eye = spawn_facing(world, 100, 100, 0.0, 0);
    spawn_facing(world, 150, 100, 0.0, 0);                         /* in sight */
    SteerVehicleId hidden = spawn_facing(world, 100, 160, 0.0, 0); /* behind a wall */
    spawn_facing(world, 50, 100, 0.0, 0);                          /* behind: out of the cone */
    add_sight(world, eye, "eyes", 100, STEER_PI);
    SteerSenseDef ears = steer_default_sense_def(STEER_SENSE_HEARING);
    ears.name = "ears";
    assert_int_equal(steer_vehicle_add_sense(world, eye, &ears, NULL), STEER_OK);
    assert_int_equal(steer_world_add_wall(world, steer_vec2(80, 130), steer_vec2(120, 130), NULL), STEER_OK);
    steer_world_step(world);
    steer_vehicle_set_position(world, hidden, steer_vec2(100, 160)); /* (already hidden: no memory) */
    SteerSoundDef sound = steer_default_sound_def();
    sound.position = steer_vec2(120, 120);
    assert_int_equal(steer_world_emit(world, &sound), STEER_OK);
    steer_world_step(world);
    SteerDebugDraw draw = steer_default_debug_draw();
    Strokes strokes = {0};
    draw.draw_segment = count_segment;
    draw.draw_circle = count_circle;
    draw.context = &strokes;
    draw.flags = STEER_DEBUG_DRAW_SENSES | STEER_DEBUG_DRAW_SENSE_RAYS | STEER_DEBUG_DRAW_SOUNDS;
    steer_vehicle_debug_draw_senses(world, eye, &draw);
    assert_int_equal(strokes.clear, 1);
    assert_int_equal(strokes.blocked, 1);
    assert_int_equal(strokes.sensed, 1);
    assert_true(strokes.cone > 2); /* two edges and the arc's pieces */
    assert_int_equal(strokes.sounds, 1);
    memset(&strokes, 0, sizeof strokes);
    steer_world_debug_draw(world, &draw);
    assert_int_equal(strokes.clear, 1);
    assert_int_equal(strokes.blocked, 1);
    assert_int_equal(strokes.sounds, 1);
    steer_world_destroy(world);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_range_and_cone_edges_are_inclusive),
        cmocka_unit_test(test_a_wall_ending_on_the_line_blocks_it),
        cmocka_unit_test(test_sight_wraps_across_the_edge),
        cmocka_unit_test(test_kinds_and_self),
        cmocka_unit_test(test_full_memories_keep_the_closest),
        cmocka_unit_test(test_memory_is_forgotten_exactly_at_the_step),
        cmocka_unit_test(test_forget_after_on_a_step_boundary_is_exact),
        cmocka_unit_test(test_event_mask_leaves_out_what_no_one_handles),
        cmocka_unit_test(test_masked_events_are_the_unmasked_ones_filtered),
        cmocka_unit_test(test_check_state_catches_corrupted_senses),
        cmocka_unit_test(test_events_come_in_the_documented_order),
        cmocka_unit_test(test_removed_vehicles_are_forgotten),
        cmocka_unit_test(test_hearing),
        cmocka_unit_test(test_slow_hearing_hears_every_sound_since_its_last_update),
        cmocka_unit_test(test_timers),
        cmocka_unit_test(test_staggered_rates),
        cmocka_unit_test(test_bad_input_is_refused),
        cmocka_unit_test(test_senses_are_replaced_found_and_removed_by_name),
        cmocka_unit_test(test_checksum_covers_memories_timers_and_sounds),
        cmocka_unit_test(test_debug_draw_shows_cones_rays_memories_and_sounds),
        cmocka_unit_test(test_sight_matches_brute_force_in_wrapping_worlds),
        cmocka_unit_test(test_sight_matches_brute_force_in_bounded_worlds),
        cmocka_unit_test(test_sight_matches_brute_force_in_unbounded_worlds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
