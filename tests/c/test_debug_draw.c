/* SPDX-License-Identifier: MIT */
/* test_debug_draw.c - steer_world_debug_draw emits the world's geometry: records every call and
 * checks where the shapes are, their colours and layers, and that each flag adds exactly its part. */
#include <stdlib.h>

#include "test_support.h"

enum { MAX_CALLS = 512 };

typedef struct Call {
    SteerVec2 a, b; /* segment ends; circle/point centre in a */
    double radius;  /* circle radius, point size */
    SteerVec2 poly[8];
    int count;
    uint32_t color;
    SteerDebugLayer layer;
} Call;

typedef struct Recorder {
    Call segments[MAX_CALLS];
    int segment_count;
    Call circles[MAX_CALLS];
    int circle_count;
    Call solid_circles[MAX_CALLS];
    int solid_circle_count;
    Call polygons[MAX_CALLS];
    int polygon_count;
    Call solid_polygons[MAX_CALLS];
    int solid_polygon_count;
    Call points[MAX_CALLS];
    int point_count;
    /* every call's layer, in order, and how many */
    SteerDebugLayer layers[6 * MAX_CALLS];
    int layer_count;
    /* vehicle_pose override */
    bool override_pose;
    SteerVec2 pose_position, pose_heading;
} Recorder;

static Call *add(Recorder *r, Call *calls, int *count, SteerDebugLayer layer)
{
    assert_true(*count < MAX_CALLS);
    assert_true(layer >= 0 && layer < STEER_DEBUG_LAYER_COUNT);
    Call *c = &calls[(*count)++];
    memset(c, 0, sizeof *c);
    c->layer = layer;
    r->layers[r->layer_count++] = layer;
    return c;
}

static void rec_segment(SteerVec2 a, SteerVec2 b, uint32_t color, SteerDebugLayer layer, void *ctx)
{
    Recorder *r = ctx;
    Call *c = add(r, r->segments, &r->segment_count, layer);
    c->a = a, c->b = b, c->color = color;
}

static void rec_circle(SteerVec2 center, double radius, uint32_t color, SteerDebugLayer layer, void *ctx)
{
    Recorder *r = ctx;
    Call *c = add(r, r->circles, &r->circle_count, layer);
    c->a = center, c->radius = radius, c->color = color;
}

static void rec_solid_circle(SteerVec2 center, double radius, uint32_t color, SteerDebugLayer layer, void *ctx)
{
    Recorder *r = ctx;
    Call *c = add(r, r->solid_circles, &r->solid_circle_count, layer);
    c->a = center, c->radius = radius, c->color = color;
}

static void rec_polygon_into(Call *c, const SteerVec2 *points, int count, uint32_t color)
{
    assert_true(count >= 3 && count <= 8);
    memcpy(c->poly, points, (size_t)count * sizeof *points);
    c->count = count, c->color = color;
}

static void rec_polygon(const SteerVec2 *points, int count, uint32_t color, SteerDebugLayer layer, void *ctx)
{
    Recorder *r = ctx;
    rec_polygon_into(add(r, r->polygons, &r->polygon_count, layer), points, count, color);
}

static void rec_solid_polygon(const SteerVec2 *points, int count, uint32_t color, SteerDebugLayer layer, void *ctx)
{
    Recorder *r = ctx;
    rec_polygon_into(add(r, r->solid_polygons, &r->solid_polygon_count, layer), points, count, color);
}

static void rec_point(SteerVec2 p, double size, uint32_t color, SteerDebugLayer layer, void *ctx)
{
    Recorder *r = ctx;
    Call *c = add(r, r->points, &r->point_count, layer);
    c->a = p, c->radius = size, c->color = color;
}

static bool rec_pose(SteerVehicleId id, SteerVec2 *position, SteerVec2 *heading, void *ctx)
{
    (void)id;
    Recorder *r = ctx;
    if (!r->override_pose) return false;
    *position = r->pose_position;
    *heading = r->pose_heading;
    return true;
}

static Recorder *draw_with(const SteerWorld *world, unsigned flags, Recorder *r)
{
    SteerDebugDraw d = steer_default_debug_draw();
    d.draw_segment = rec_segment;
    d.draw_circle = rec_circle;
    d.draw_solid_circle = rec_solid_circle;
    d.draw_polygon = rec_polygon;
    d.draw_solid_polygon = rec_solid_polygon;
    d.draw_point = rec_point;
    d.vehicle_pose = rec_pose;
    d.flags = flags;
    d.context = r;
    steer_world_debug_draw(world, &d);
    return r;
}

static Recorder *fresh(void)
{
    Recorder *r = calloc(1, sizeof *r);
    assert_non_null(r);
    return r;
}

static int total_calls(const Recorder *r)
{
    return r->segment_count + r->circle_count + r->solid_circle_count + r->polygon_count + r->solid_polygon_count +
           r->point_count;
}

static void assert_vec_near(SteerVec2 actual, SteerVec2 expected)
{
    assert_near(actual.x, expected.x, 1e-9);
    assert_near(actual.y, expected.y, 1e-9);
}

static bool has_segment(const Recorder *r, SteerVec2 a, SteerVec2 b, uint32_t color)
{
    for (int i = 0; i < r->segment_count; i++) {
        const Call *c = &r->segments[i];
        if (c->color == color && steer_distance(c->a, a) < 1e-6 && steer_distance(c->b, b) < 1e-6) return true;
    }
    return false;
}

static void test_obstacles_are_filled_circles_with_an_outline(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerObstacleId id;
    assert_int_equal(steer_world_add_obstacle(world, steer_vec2(100, 120), 20, &id), STEER_OK);
    Recorder *r = draw_with(world, STEER_DEBUG_DRAW_OBSTACLES, fresh());
    assert_int_equal(r->solid_circle_count, 1);
    assert_vec_near(r->solid_circles[0].a, steer_vec2(100, 120));
    assert_near(r->solid_circles[0].radius, 20, 1e-12);
    assert_int_equal(r->solid_circles[0].color, STEER_DEBUG_COLOR_OBSTACLE_FILL);
    assert_int_equal(r->circle_count, 1);
    assert_int_equal(r->circles[0].color, STEER_DEBUG_COLOR_OBSTACLE_EDGE);
    assert_int_equal(r->solid_circles[0].layer, STEER_DEBUG_LAYER_OBSTACLES);
    assert_int_equal(r->circles[0].layer, STEER_DEBUG_LAYER_OBSTACLES);
    assert_int_equal(total_calls(r), 2);
    free(r);
    steer_world_destroy(world);
}

static void test_walls_show_their_normal_at_the_middle(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerWallId id;
    assert_int_equal(steer_world_add_wall(world, steer_vec2(100, 200), steer_vec2(300, 200), &id), STEER_OK);
    SteerVec2 a, b, normal;
    assert_true(steer_wall_get(world, id, &a, &b, &normal));
    Recorder *r = draw_with(world, STEER_DEBUG_DRAW_WALLS, fresh());
    assert_true(has_segment(r, a, b, STEER_DEBUG_COLOR_WALL));
    SteerVec2 middle = steer_vec2(200, 200);
    SteerVec2 tip = steer_add(middle, steer_scale(normal, STEER_DEBUG_WALL_NORMAL_LENGTH));
    assert_true(has_segment(r, middle, tip, STEER_DEBUG_COLOR_WALL_NORMAL));
    /* the arrow head: two more strokes from the tip */
    assert_int_equal(r->segment_count, 4);
    /* the wall and its normal are told apart by layer, not by colour */
    assert_int_equal(r->segments[0].layer, STEER_DEBUG_LAYER_WALLS);
    for (int i = 1; i < 4; i++) assert_int_equal(r->segments[i].layer, STEER_DEBUG_LAYER_WALL_NORMALS);
    free(r);
    steer_world_destroy(world);
}

static void test_vehicle_is_a_triangle_pointing_along_its_heading(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(50, 60);
    def.heading = 0.5 * STEER_PI; /* facing +y */
    def.radius = 10;
    def.kind = 3;
    SteerVehicleId id;
    assert_int_equal(steer_vehicle_create(world, &def, &id), STEER_OK);
    Recorder *r = draw_with(world, STEER_DEBUG_DRAW_VEHICLES, fresh());
    assert_int_equal(r->solid_polygon_count, 1);
    const Call *c = &r->solid_polygons[0];
    assert_int_equal(c->count, 3);
    assert_near(c->poly[0].x, 50, 1e-9); /* nose 1.5 radius ahead */
    assert_near(c->poly[0].y, 75, 1e-9);
    assert_near(c->poly[1].y, 50, 1e-9); /* back corners one radius behind */
    assert_near(c->poly[2].y, 50, 1e-9);
    assert_near(fabs(c->poly[1].x - c->poly[2].x), 18, 1e-9);
    assert_int_equal(c->color, steer_debug_kind_color(3));
    assert_true(steer_debug_kind_color(3) != steer_debug_kind_color(0));

    /* a colour word wins over the palette */
    assert_int_equal(steer_vehicle_set_color(world, id, 0x11223344u), STEER_OK);
    Recorder *r2 = draw_with(world, STEER_DEBUG_DRAW_VEHICLES, fresh());
    assert_int_equal(r2->solid_polygons[0].color, 0x11223344u);
    free(r);
    free(r2);
    steer_world_destroy(world);
}

static void test_vehicle_pose_callback_moves_the_vehicle_and_its_overlays(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId id = spawn_at(world, 10, 10);
    SteerBehaviourDef walls = steer_default_behaviour_def(STEER_AVOID_WALLS);
    turn_on(world, id, &walls);
    Recorder *r = fresh();
    r->override_pose = true;
    r->pose_position = steer_vec2(400, 300);
    r->pose_heading = steer_vec2(0, -1);
    draw_with(world, STEER_DEBUG_DRAW_VEHICLES | STEER_DEBUG_DRAW_AVOIDANCE, r);
    assert_int_equal(r->solid_polygon_count, 1);
    assert_vec_near(r->solid_polygons[0].poly[0], steer_vec2(400, 300 - 12));
    /* the front feeler starts at the drawn pose and points along the drawn heading */
    assert_vec_near(r->segments[0].a, steer_vec2(400, 300));
    assert_vec_near(r->segments[0].b, steer_vec2(400, 300 - (walls.avoid_walls.feeler_length + 8)));
    free(r);
    steer_world_destroy(world);
}

static void test_feelers_match_the_ones_the_step_used(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(300, 300);
    def.heading = 0.3;
    SteerVehicleId id;
    assert_int_equal(steer_vehicle_create(world, &def, &id), STEER_OK);
    SteerBehaviourDef walls = steer_default_behaviour_def(STEER_AVOID_WALLS);
    turn_on(world, id, &walls);
    steer_world_step(world); /* at rest, no walls: it does not move */
    SteerBehaviourState st;
    assert_int_equal(steer_vehicle_get_behaviour(world, id, STEER_AVOID_WALLS, NULL, &st), STEER_OK);
    Recorder *r = draw_with(world, STEER_DEBUG_DRAW_AVOIDANCE, fresh());
    assert_int_equal(r->segment_count, 3);
    assert_int_equal(r->point_count, 3);
    for (int f = 0; f < 3; f++) {
        assert_vec_near(r->segments[f].a, steer_vec2(300, 300));
        assert_vec_near(r->segments[f].b, st.feelers[f]);
        assert_int_equal(r->segments[f].color, STEER_DEBUG_COLOR_AVOIDANCE);
    }
    free(r);
    steer_world_destroy(world);
}

static void test_detection_box_is_as_long_as_the_step_measured(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId id = spawn_moving(world, 100, 100, 50, 0);
    SteerBehaviourDef avoid = steer_default_behaviour_def(STEER_AVOID_OBSTACLES);
    turn_on(world, id, &avoid);
    steer_world_step(world);
    SteerBehaviourState st;
    assert_int_equal(steer_vehicle_get_behaviour(world, id, STEER_AVOID_OBSTACLES, NULL, &st), STEER_OK);
    assert_true(st.box_length > avoid.avoid_obstacles.detection_length);
    SteerVec2 p = steer_vehicle_position(world, id);
    Recorder *r = draw_with(world, STEER_DEBUG_DRAW_AVOIDANCE, fresh());
    assert_int_equal(r->polygon_count, 1);
    const Call *box = &r->polygons[0];
    assert_int_equal(box->count, 4);
    assert_vec_near(box->poly[0], steer_vec2(p.x, p.y - 8));
    assert_vec_near(box->poly[1], steer_vec2(p.x + st.box_length, p.y - 8));
    assert_vec_near(box->poly[2], steer_vec2(p.x + st.box_length, p.y + 8));
    free(r);
    steer_world_destroy(world);
}

static void test_wander_circle_ahead_and_target_on_it(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 7);
    SteerVehicleId id = spawn_moving(world, 500, 500, 0, 40);
    SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
    turn_on(world, id, &wander);
    run_steps(world, 5);
    SteerVec2 p = steer_vehicle_position(world, id);
    SteerVec2 h = steer_vehicle_heading(world, id);
    Recorder *r = draw_with(world, STEER_DEBUG_DRAW_WANDER, fresh());
    assert_int_equal(r->circle_count, 1);
    SteerVec2 center = steer_add(p, steer_scale(h, wander.wander.distance));
    assert_vec_near(r->circles[0].a, center);
    assert_near(r->circles[0].radius, wander.wander.radius, 1e-12);
    assert_int_equal(r->point_count, 1);
    assert_near(steer_distance(r->points[0].a, center), wander.wander.radius, 1e-9);
    assert_int_equal(r->points[0].color, STEER_DEBUG_COLOR_WANDER_TARGET);
    free(r);
    steer_world_destroy(world);
}

static void test_neighbor_radius_is_a_circle_or_a_cone(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId id = spawn_at(world, 200, 200);
    Recorder *r = draw_with(world, STEER_DEBUG_DRAW_NEIGHBORS, fresh());
    assert_int_equal(r->circle_count, 1);
    assert_near(r->circles[0].radius, 50, 1e-12);
    assert_int_equal(r->segment_count, 0);
    assert_int_equal(steer_vehicle_set_view_angle(world, id, 0.5 * STEER_PI), STEER_OK);
    Recorder *cone = draw_with(world, STEER_DEBUG_DRAW_NEIGHBORS, fresh());
    assert_int_equal(cone->circle_count, 0);
    assert_true(cone->segment_count > 2);
    /* every stroke stays within the radius and in the front quarter (heading 0 = +x) */
    for (int i = 0; i < cone->segment_count; i++) {
        SteerVec2 e = steer_sub(cone->segments[i].b, steer_vec2(200, 200));
        assert_true(steer_length(e) <= 50 + 1e-9);
        assert_true(e.x >= 50 * cos(0.25 * STEER_PI) - 1e-9);
    }
    free(r);
    free(cone);
    steer_world_destroy(world);
}

static void test_forces_show_velocity_and_force_arrows(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId id = spawn_moving(world, 100, 100, 60, 0);
    SteerBehaviourDef seek = steer_default_behaviour_def(STEER_SEEK);
    seek.seek.target = steer_target_point(100, 500);
    turn_on(world, id, &seek);
    steer_world_step(world);
    SteerVehicleState v;
    assert_int_equal(steer_vehicle_get(world, id, &v), STEER_OK);
    Recorder *r = draw_with(world, STEER_DEBUG_DRAW_FORCES, fresh());
    assert_true(has_segment(r, v.position, steer_add(v.position, steer_scale(v.velocity, STEER_DEBUG_VELOCITY_SCALE)),
                            STEER_DEBUG_COLOR_VELOCITY));
    assert_true(has_segment(r, v.position, steer_add(v.position, steer_scale(v.force, STEER_DEBUG_FORCE_SCALE)),
                            STEER_DEBUG_COLOR_FORCE));
    assert_int_equal(r->segment_count, 6); /* two arrows of three strokes */

    Recorder *t = draw_with(world, STEER_DEBUG_DRAW_TARGETS, fresh());
    assert_true(has_segment(t, v.position, steer_vec2(100, 500), STEER_DEBUG_COLOR_TARGET));
    free(r);
    free(t);
    steer_world_destroy(world);
}

static void test_paths_bounds_and_flow_fields(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVec2 pts[3] = {{10, 10}, {100, 10}, {100, 100}};
    SteerPathId path;
    assert_int_equal(steer_world_add_path(world, pts, 3, true, &path), STEER_OK);
    Recorder *r = draw_with(world, STEER_DEBUG_DRAW_PATHS, fresh());
    assert_int_equal(r->segment_count, 3); /* looped: back to the start */
    assert_true(has_segment(r, pts[2], pts[0], STEER_DEBUG_COLOR_PATH));
    assert_int_equal(r->point_count, 3);

    Recorder *b = draw_with(world, STEER_DEBUG_DRAW_BOUNDS, fresh());
    assert_int_equal(b->polygon_count, 1);
    assert_vec_near(b->polygons[0].poly[2], steer_vec2(1000, 1000));

    SteerVec2 vectors[2] = {{1, 0}, {0, 0}};
    SteerFlowFieldDef fd = {{0, 0}, 20, 2, 1, vectors};
    SteerFlowFieldId field;
    assert_int_equal(steer_world_add_flow_field(world, &fd, &field), STEER_OK);
    Recorder *f = draw_with(world, STEER_DEBUG_DRAW_FLOW_FIELDS, fresh());
    assert_int_equal(f->segment_count, 3); /* one arrow; the zero cell is a dot */
    assert_true(has_segment(f, steer_vec2(-8, 0), steer_vec2(8, 0), STEER_DEBUG_COLOR_FLOW));
    assert_int_equal(f->point_count, 1);
    free(r);
    free(b);
    free(f);
    steer_world_destroy(world);
}

/* Which layers each flag draws (SteerDebugLayer's documentation). */
static unsigned layers_of_flag(unsigned flag)
{
    switch (flag) {
    case STEER_DEBUG_DRAW_VEHICLES: return 1u << STEER_DEBUG_LAYER_VEHICLES;
    case STEER_DEBUG_DRAW_OBSTACLES: return 1u << STEER_DEBUG_LAYER_OBSTACLES;
    case STEER_DEBUG_DRAW_WALLS: return 1u << STEER_DEBUG_LAYER_WALLS | 1u << STEER_DEBUG_LAYER_WALL_NORMALS;
    case STEER_DEBUG_DRAW_PATHS: return 1u << STEER_DEBUG_LAYER_PATHS;
    case STEER_DEBUG_DRAW_BOUNDS: return 1u << STEER_DEBUG_LAYER_BOUNDS;
    case STEER_DEBUG_DRAW_WANDER: return 1u << STEER_DEBUG_LAYER_WANDER;
    case STEER_DEBUG_DRAW_AVOIDANCE: return 1u << STEER_DEBUG_LAYER_AVOIDANCE;
    case STEER_DEBUG_DRAW_NEIGHBORS: return 1u << STEER_DEBUG_LAYER_NEIGHBORS;
    case STEER_DEBUG_DRAW_FORCES: return 1u << STEER_DEBUG_LAYER_FORCES;
    case STEER_DEBUG_DRAW_TARGETS: return 1u << STEER_DEBUG_LAYER_TARGETS;
    case STEER_DEBUG_DRAW_FLOW_FIELDS: return 1u << STEER_DEBUG_LAYER_FLOW_FIELDS;
    case STEER_DEBUG_DRAW_SENSES: return 1u << STEER_DEBUG_LAYER_SENSES;
    case STEER_DEBUG_DRAW_SENSE_RAYS: return 1u << STEER_DEBUG_LAYER_SENSE_RAYS;
    case STEER_DEBUG_DRAW_SOUNDS: return 1u << STEER_DEBUG_LAYER_SOUNDS;
    case STEER_DEBUG_DRAW_NAVIGATION: return 1u << STEER_DEBUG_LAYER_NAV_MAP | 1u << STEER_DEBUG_LAYER_NAV_PATHS;
    default: return 0;
    }
}

static void test_every_shape_names_its_layer_and_each_flag_draws_its_own(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 3);
    SteerVehicleId id = spawn_moving(world, 200, 200, 40, 10);
    SteerBehaviourDef defs[4] = {
        steer_default_behaviour_def(STEER_WANDER), steer_default_behaviour_def(STEER_AVOID_OBSTACLES),
        steer_default_behaviour_def(STEER_AVOID_WALLS), steer_default_behaviour_def(STEER_SEEK)};
    defs[3].seek.target = steer_target_point(600, 200);
    for (int i = 0; i < 4; i++) turn_on(world, id, &defs[i]);
    SteerObstacleId ob;
    assert_int_equal(steer_world_add_obstacle(world, steer_vec2(300, 300), 30, &ob), STEER_OK);
    SteerWallId wall;
    assert_int_equal(steer_world_add_wall(world, steer_vec2(100, 400), steer_vec2(300, 400), &wall), STEER_OK);
    SteerVec2 pts[2] = {{10, 10}, {100, 10}};
    SteerPathId path;
    assert_int_equal(steer_world_add_path(world, pts, 2, false, &path), STEER_OK);
    SteerVec2 vectors[2] = {{1, 0}, {0, 0}};
    SteerFlowFieldDef fd = {{500, 500}, 20, 2, 1, vectors};
    SteerFlowFieldId field;
    assert_int_equal(steer_world_add_flow_field(world, &fd, &field), STEER_OK);
    /* navigation: a vehicle navigating (the obstacle and the wall block map cells), then replanning
     * for a new goal (the path it replaced is drawn for a second) */
    SteerVehicleId walker = spawn_at(world, 60, 300);
    SteerBehaviourDef go = steer_default_behaviour_def(STEER_NAVIGATE);
    go.navigate.target = steer_target_point(400, 300);
    turn_on(world, walker, &go);
    run_steps(world, 2);
    go.navigate.target = steer_target_point(200, 450);
    turn_on(world, walker, &go);
    run_steps(world, 2);

    /* senses: a sight cone with one vehicle in it, a hearing sense and a sound */
    spawn_at(world, 260, 215);
    SteerSenseDef sense = steer_default_sense_def(STEER_SENSE_SIGHT);
    sense.name = "eyes";
    assert_int_equal(steer_vehicle_add_sense(world, id, &sense, NULL), STEER_OK);
    run_steps(world, 2);
    SteerSoundDef sound = steer_default_sound_def();
    sound.position = steer_vec2(250, 250);
    assert_int_equal(steer_world_emit(world, &sound), STEER_OK);
    run_steps(world, 1);
    unsigned seen = 0;
    for (unsigned flag = 1; flag <= STEER_DEBUG_DRAW_NAVIGATION; flag <<= 1) {
        Recorder *r = draw_with(world, flag, fresh());
        if (r->layer_count == 0) fail_msg("flag 0x%x drew nothing", flag);
        for (int i = 0; i < r->layer_count; i++) {
            if (!(layers_of_flag(flag) & 1u << r->layers[i]))
                fail_msg("flag 0x%x drew a shape of layer %d", flag, (int)r->layers[i]);
            seen |= 1u << r->layers[i];
        }
        free(r);
    }
    assert_int_equal(seen, (1u << STEER_DEBUG_LAYER_COUNT) - 1); /* every layer was drawn */
    steer_world_destroy(world);
}

static void test_flags_select_exactly_their_part(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId id = spawn_moving(world, 100, 100, 30, 0);
    SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
    turn_on(world, id, &wander);
    SteerObstacleId ob;
    assert_int_equal(steer_world_add_obstacle(world, steer_vec2(300, 300), 30, &ob), STEER_OK);
    steer_world_step(world);
    Recorder *nothing = draw_with(world, 0, fresh());
    assert_int_equal(total_calls(nothing), 0);
    free(nothing);
    Recorder *only_vehicles = draw_with(world, STEER_DEBUG_DRAW_VEHICLES, fresh());
    assert_int_equal(total_calls(only_vehicles), 1);
    Recorder *world_only = draw_with(world, STEER_DEBUG_DRAW_WORLD, fresh());
    Recorder *with_wander = draw_with(world, STEER_DEBUG_DRAW_WORLD | STEER_DEBUG_DRAW_WANDER, fresh());
    assert_true(total_calls(with_wander) > total_calls(world_only));
    /* NULL callbacks are skipped */
    SteerDebugDraw none = steer_default_debug_draw();
    none.flags = ~0u;
    steer_world_debug_draw(world, &none);
    free(only_vehicles);
    free(world_only);
    free(with_wander);
    steer_world_destroy(world);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_obstacles_are_filled_circles_with_an_outline),
        cmocka_unit_test(test_walls_show_their_normal_at_the_middle),
        cmocka_unit_test(test_vehicle_is_a_triangle_pointing_along_its_heading),
        cmocka_unit_test(test_vehicle_pose_callback_moves_the_vehicle_and_its_overlays),
        cmocka_unit_test(test_feelers_match_the_ones_the_step_used),
        cmocka_unit_test(test_detection_box_is_as_long_as_the_step_measured),
        cmocka_unit_test(test_wander_circle_ahead_and_target_on_it),
        cmocka_unit_test(test_neighbor_radius_is_a_circle_or_a_cone),
        cmocka_unit_test(test_forces_show_velocity_and_force_arrows),
        cmocka_unit_test(test_paths_bounds_and_flow_fields),
        cmocka_unit_test(test_flags_select_exactly_their_part),
        cmocka_unit_test(test_every_shape_names_its_layer_and_each_flag_draws_its_own),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
