/* SPDX-License-Identifier: MIT */
/* test_api_errors.c - what a C caller gets back from a call it got wrong: the result code, and a
 * message that starts with the name of the function it called and says what was expected. */
#include "test_support.h"

/// The last error is "<function>: <rest>", and <rest> mentions `fragment`.
static void assert_error_of(const SteerWorld *world, const char *function, const char *fragment)
{
    const char *message = steer_world_last_error(world);
    size_t n = strlen(function);
    if (strncmp(message, function, n) != 0 || strncmp(message + n, ": ", 2) != 0)
        fail_msg("error \"%s\" does not start with \"%s: \"", message, function);
    if (!strstr(message + n + 2, fragment)) fail_msg("error \"%s\" does not mention \"%s\"", message, fragment);
}

/// A world with one vehicle (`*a`), one of each shape, and a vehicle of another world (`*foreign`).
typedef struct Scene {
    SteerWorld *world, *other;
    SteerVehicleId a, removed, foreign;
    SteerObstacleId obstacle;
    SteerWallId wall;
    SteerPathId path;
    SteerFlowFieldId field;
} Scene;

static Scene make_scene(void)
{
    Scene s;
    s.world = make_world(STEER_EDGES_NONE, 1);
    s.other = make_world(STEER_EDGES_NONE, 1);
    s.a = spawn_at(s.world, 10, 10);
    s.removed = spawn_at(s.world, 20, 20);
    assert_int_equal(steer_vehicle_destroy(s.world, s.removed), STEER_OK);
    spawn_at(s.other, 1, 1);
    s.foreign = spawn_at(s.other, 2, 2);
    assert_int_equal(steer_world_add_obstacle(s.world, steer_vec2(100, 100), 10, &s.obstacle), STEER_OK);
    assert_int_equal(steer_world_add_wall(s.world, steer_vec2(0, 0), steer_vec2(50, 0), &s.wall), STEER_OK);
    SteerVec2 points[2] = {{0, 0}, {100, 0}};
    assert_int_equal(steer_world_add_path(s.world, points, 2, false, &s.path), STEER_OK);
    SteerFlowFieldDef fd = {{0, 0}, 10, 2, 2, NULL};
    assert_int_equal(steer_world_add_flow_field(s.world, &fd, &s.field), STEER_OK);
    return s;
}

static void free_scene(Scene *s)
{
    steer_world_destroy(s->world);
    steer_world_destroy(s->other);
}

static void test_every_fallible_call_names_itself(void **state)
{
    (void)state;
    Scene s = make_scene();
    SteerWorld *w = s.world;
    SteerVehicleDef vdef = steer_default_vehicle_def();
    vdef.mass = -1;
    SteerVehicleId id;
    SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
    wander.wander.radius = -1;
    SteerObstacleId obstacle;
    SteerWallId wall;
    SteerPathId path;
    SteerFlowFieldId field;
    SteerFlowFieldDef fd = {{0, 0}, 0, 2, 2, NULL};
    SteerVehicleState vs;
    SteerVehicleId ids[4];

    assert_int_equal(steer_world_set_dt(w, 0), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_world_set_dt", "dt must be");
    assert_int_equal(steer_vehicle_create(w, &vdef, &id), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_vehicle_create", "mass must be");
    assert_int_equal(steer_vehicle_destroy(w, s.removed), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_vehicle_destroy", "vehicle was removed");
    assert_int_equal(steer_vehicle_create_undo(w, s.removed), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_vehicle_create_undo", "only the vehicle made last");
    assert_int_equal(steer_vehicle_get(w, s.removed, &vs), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_vehicle_get", "vehicle was removed");

    assert_int_equal(steer_vehicle_set_position(w, s.a, steer_vec2(NAN, 0)), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_vehicle_set_position", "position must be finite");
    assert_int_equal(steer_vehicle_set_velocity(w, s.a, steer_vec2(INFINITY, 0)), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_vehicle_set_velocity", "velocity must be finite");
    assert_int_equal(steer_vehicle_set_heading(w, s.a, NAN), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_vehicle_set_heading", "heading must be finite");
    assert_int_equal(steer_vehicle_set_mass(w, s.a, 0), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_vehicle_set_mass", "mass must be");
    assert_int_equal(steer_vehicle_set_max_speed(w, s.a, -1), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_vehicle_set_max_speed", "max_speed must be");
    assert_int_equal(steer_vehicle_set_max_force(w, s.a, -1), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_vehicle_set_max_force", "max_force must be");
    assert_int_equal(steer_vehicle_set_max_turn_rate(w, s.a, -1), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_vehicle_set_max_turn_rate", "max_turn_rate must be");
    assert_int_equal(steer_vehicle_set_radius(w, s.a, -1), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_vehicle_set_radius", "radius must be");
    assert_int_equal(steer_vehicle_set_response_time(w, s.a, 0), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_vehicle_set_response_time", "response_time must be");
    assert_int_equal(steer_vehicle_set_neighbor_radius(w, s.a, -1), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_vehicle_set_neighbor_radius", "neighbor_radius must be");
    assert_int_equal(steer_vehicle_set_view_angle(w, s.a, 0), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_vehicle_set_view_angle", "view_angle must be");
    assert_int_equal(steer_vehicle_set_flock_kinds(w, s.removed, 1), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_vehicle_set_flock_kinds", "vehicle was removed");
    assert_int_equal(steer_vehicle_set_kind(w, s.a, STEER_MAX_KINDS), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_vehicle_set_kind", "kind must be below 64");
    assert_int_equal(steer_vehicle_set_color(w, s.removed, 1), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_vehicle_set_color", "vehicle was removed");
    assert_int_equal(steer_vehicle_set_user_data(w, s.removed, 1), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_vehicle_set_user_data", "vehicle was removed");
    assert_int_equal(steer_vehicle_set_combine(w, s.a, (SteerCombine)7), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_vehicle_set_combine", "combine must be");

    assert_int_equal(steer_vehicle_set_behaviour(w, s.a, &wander), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_vehicle_set_behaviour", "wander: radius must be");
    assert_int_equal(steer_vehicle_clear_behaviour(w, s.a, (SteerBehaviour)99), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_vehicle_clear_behaviour", "unknown behaviour type 99");
    assert_int_equal(steer_vehicle_clear_behaviours(w, s.removed), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_vehicle_clear_behaviours", "vehicle was removed");
    assert_int_equal(steer_vehicle_get_behaviour(w, s.a, STEER_SEEK, NULL, NULL), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_vehicle_get_behaviour", "seek is not on");
    assert_int_equal(steer_vehicle_get_behaviour(w, s.a, STEER_BEHAVIOUR_COUNT, NULL, NULL),
                     STEER_ERROR_INVALID_ARGUMENT);
    char unknown[64];
    snprintf(unknown, sizeof unknown, "unknown behaviour type %d", (int)STEER_BEHAVIOUR_COUNT);
    assert_error_of(w, "steer_vehicle_get_behaviour", unknown);

    assert_int_equal(steer_world_query_radius(w, steer_vec2(0, 0), -1, NULL, ids, 4), -1);
    assert_error_of(w, "steer_world_query_radius", "radius must be");
    assert_false(steer_world_query_closest(w, steer_vec2(NAN, 0), 10, NULL, ids));
    assert_error_of(w, "steer_world_query_closest",
                    "closest needs a finite point and a range >= 0 (got point (nan, 0), range 10)");
    assert_false(steer_world_query_closest(w, steer_vec2(0, 0), -1, NULL, ids));
    assert_error_of(w, "steer_world_query_closest", "(got point (0, 0), range -1)");
    assert_int_equal(steer_world_query_neighbors(w, s.a, NAN, ids, 4), -1);
    assert_error_of(w, "steer_world_query_neighbors", "radius must be");
    assert_int_equal(steer_world_query_obstacles(w, steer_vec2(0, 0), steer_vec2(1, 0), -1, NULL, 0), -1);
    assert_error_of(w, "steer_world_query_obstacles",
                    "obstacle query needs finite ends and a radius >= 0 (got (0, 0) to (1, 0), radius -1)");

    assert_int_equal(steer_world_add_obstacle(w, steer_vec2(0, 0), 0, &obstacle), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_world_add_obstacle", "radius must be");
    assert_int_equal(steer_world_remove_obstacle(w, (SteerObstacleId)STEER_NULL_ID), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_world_remove_obstacle", "obstacle");
    assert_int_equal(steer_world_add_wall(w, steer_vec2(0, 0), steer_vec2(0, 0), &wall), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_world_add_wall", "wall ends must differ");
    assert_int_equal(steer_world_remove_wall(w, (SteerWallId)STEER_NULL_ID), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_world_remove_wall", "wall");
    assert_int_equal(steer_world_add_path(w, NULL, 0, false, &path), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_world_add_path", "at least one point");
    assert_int_equal(steer_world_remove_path(w, (SteerPathId)STEER_NULL_ID), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_world_remove_path", "path");
    assert_int_equal(steer_world_add_flow_field(w, &fd, &field), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_world_add_flow_field", "cell_size must be");
    assert_int_equal(steer_world_remove_flow_field(w, (SteerFlowFieldId)STEER_NULL_ID), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_world_remove_flow_field", "flow field");
    assert_int_equal(steer_flow_field_set(w, s.field, 2, 0, steer_vec2(1, 0)), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_flow_field_set", "outside the 2 x 2 field");
    free_scene(&s);
}

/* The calls that take a vehicle id say which of the three ways it names nothing, whichever call
 * it is given to. */
static void test_a_bad_vehicle_id_says_why(void **state)
{
    (void)state;
    Scene s = make_scene();
    SteerWorld *w = s.world;
    SteerVehicleId null_id = STEER_NULL_ID;
    SteerBehaviourDef seek = steer_default_behaviour_def(STEER_SEEK);
    seek.seek.target = steer_target_point(0, 0);
    SteerVehicleId ids[4];

    assert_int_equal(steer_vehicle_set_behaviour(w, null_id, &seek), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_vehicle_set_behaviour", "vehicle id is null");
    assert_int_equal(steer_vehicle_set_behaviour(w, s.foreign, &seek), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_vehicle_set_behaviour", "vehicle id belongs to another world");
    assert_int_equal(steer_vehicle_set_behaviour(w, s.removed, &seek), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_vehicle_set_behaviour", "vehicle was removed");
    assert_int_equal(steer_vehicle_clear_behaviour(w, s.foreign, STEER_SEEK), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_vehicle_clear_behaviour", "belongs to another world");
    assert_int_equal(steer_vehicle_get_behaviour(w, null_id, STEER_SEEK, NULL, NULL), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_vehicle_get_behaviour", "vehicle id is null");
    assert_int_equal(steer_world_query_neighbors(w, s.foreign, 10, ids, 4), -1);
    assert_error_of(w, "steer_world_query_neighbors", "vehicle id belongs to another world");
    assert_int_equal(steer_world_query_neighbors(w, s.removed, 10, ids, 4), -1);
    assert_error_of(w, "steer_world_query_neighbors", "vehicle was removed");
    free_scene(&s);
}

/* A behaviour's target, path or field that names nothing says why, and so does removing a shape
 * whose id names nothing. */
static void test_a_bad_target_or_shape_id_says_why(void **state)
{
    (void)state;
    Scene s = make_scene();
    SteerWorld *w = s.world;
    SteerBehaviourDef pursue = steer_default_behaviour_def(STEER_PURSUE);
    pursue.pursue.target = steer_target_vehicle(s.foreign);
    assert_int_equal(steer_vehicle_set_behaviour(w, s.a, &pursue), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_vehicle_set_behaviour",
                    "pursue: target names a vehicle that does not exist (its id belongs to another world)");
    pursue.pursue.target = steer_target_vehicle(s.removed);
    assert_int_equal(steer_vehicle_set_behaviour(w, s.a, &pursue), STEER_ERROR_INVALID_ID);
    assert_error_contains(w, "(it was removed)");
    SteerVehicleId null_id = STEER_NULL_ID;
    pursue.pursue.target = steer_target_vehicle(null_id);
    assert_int_equal(steer_vehicle_set_behaviour(w, s.a, &pursue), STEER_ERROR_INVALID_ID);
    assert_error_contains(w, "(its id is null)");

    SteerBehaviourDef follow = steer_default_behaviour_def(STEER_FOLLOW);
    assert_int_equal(steer_vehicle_set_behaviour(w, s.a, &follow), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_vehicle_set_behaviour", "follow: path does not exist (its id is null)");
    SteerVec2 points[1] = {{5, 5}};
    SteerPathId other_path;
    assert_int_equal(steer_world_add_path(s.other, points, 1, false, &other_path), STEER_OK);
    follow.follow.path = other_path;
    assert_int_equal(steer_vehicle_set_behaviour(w, s.a, &follow), STEER_ERROR_INVALID_ID);
    assert_error_contains(w, "follow: path does not exist (its id belongs to another world)");
    SteerBehaviourDef flow = steer_default_behaviour_def(STEER_FOLLOW_FLOW);
    flow.follow_flow.field = s.field;
    assert_int_equal(steer_world_remove_flow_field(w, s.field), STEER_OK);
    assert_int_equal(steer_vehicle_set_behaviour(w, s.a, &flow), STEER_ERROR_INVALID_ID);
    assert_error_contains(w, "follow_flow: flow field does not exist (it was removed)");

    assert_int_equal(steer_world_remove_obstacle(w, s.obstacle), STEER_OK);
    assert_int_equal(steer_world_remove_obstacle(w, s.obstacle), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_world_remove_obstacle", "obstacle id names nothing (it was removed)");
    assert_int_equal(steer_world_remove_path(w, other_path), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_world_remove_path", "path id names nothing (its id belongs to another world)");
    assert_int_equal(steer_world_remove_wall(w, (SteerWallId)STEER_NULL_ID), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_world_remove_wall", "wall id names nothing (its id is null)");
    assert_int_equal(steer_flow_field_set(w, s.field, 0, 0, steer_vec2(1, 0)), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_flow_field_set", "flow field id names nothing (it was removed)");
    free_scene(&s);
}

/* A query's own name heads its message even when the check that failed is shared with another
 * query, and a bad filter says what is wrong with it rather than something generic. */
static void test_queries_name_themselves_and_their_filter(void **state)
{
    (void)state;
    Scene s = make_scene();
    SteerWorld *w = s.world;
    SteerVehicleId ids[4];
    SteerQueryFilter filter = steer_default_query_filter();
    filter.view_angle = NAN;
    assert_false(steer_world_query_closest(w, steer_vec2(0, 0), 10, &filter, ids));
    assert_error_of(w, "steer_world_query_closest", "view_angle must be a positive finite number");
    assert_int_equal(steer_world_query_radius(w, steer_vec2(0, 0), 10, &filter, ids, 4), -1);
    assert_error_of(w, "steer_world_query_radius", "view_angle");
    assert_int_equal(steer_world_query_neighbors(w, s.a, 2e9, ids, 4), -1);
    assert_error_of(w, "steer_world_query_neighbors", "radius must be a finite number in [0, 1e+09]");
    free_scene(&s);
}

/* A zeroed query filter (a cone of no width) is refused with a pointer to its default. */
static void test_a_zeroed_filter_points_at_its_default(void **state)
{
    (void)state;
    Scene s = make_scene();
    SteerQueryFilter filter;
    memset(&filter, 0, sizeof filter);
    filter.kinds = 1;
    SteerVehicleId ids[4];
    assert_int_equal(steer_world_query_radius(s.world, steer_vec2(0, 0), 100, &filter, ids, 4), -1);
    assert_error_of(s.world, "steer_world_query_radius",
                    "view_angle must be a positive finite number (got 0); was the filter zeroed instead of made by "
                    "steer_default_query_filter()?");
    filter = steer_default_query_filter();
    filter.kinds = 1;
    assert_int_equal(steer_world_query_radius(s.world, steer_vec2(0, 0), 100, &filter, ids, 4), 1);
    free_scene(&s);
}

/* The default debug-draw struct draws the world once given callbacks: no flags to find first. */
static int solid_polygons;
static void count_solid_polygon(const SteerVec2 *points, int count, uint32_t color, SteerDebugLayer layer,
                                void *context)
{
    (void)points;
    (void)count;
    (void)color;
    (void)context;
    if (layer == STEER_DEBUG_LAYER_VEHICLES) solid_polygons++;
}

static void test_the_default_debug_draw_shows_the_world(void **state)
{
    (void)state;
    Scene s = make_scene();
    SteerDebugDraw draw = steer_default_debug_draw();
    assert_int_equal(draw.flags, STEER_DEBUG_DRAW_WORLD);
    draw.draw_solid_polygon = count_solid_polygon;
    solid_polygons = 0;
    steer_world_debug_draw(s.world, &draw);
    assert_int_equal(solid_polygons, 1); /* the one live vehicle */
    free_scene(&s);
}

/* A successful call leaves the last failure's message as it was (the header's contract). */
static void test_success_keeps_the_last_message(void **state)
{
    (void)state;
    Scene s = make_scene();
    SteerWorld *w = s.world;
    assert_string_equal(steer_world_last_error(s.other), "");
    assert_int_equal(steer_vehicle_set_mass(w, s.a, -1), STEER_ERROR_INVALID_ARGUMENT);
    assert_int_equal(steer_vehicle_set_max_speed(w, s.a, 50), STEER_OK);
    assert_error_of(w, "steer_vehicle_set_mass", "mass must be");
    free_scene(&s);
}

/* Out pointers may be NULL: a list call then only counts, whatever the capacity; a get only
 * checks the id. None of them writes through NULL. */
static void test_null_out_pointers_count_or_check(void **state)
{
    (void)state;
    Scene s = make_scene();
    SteerWorld *w = s.world;
    spawn_at(w, 12, 12);
    assert_int_equal(steer_world_get_vehicles(w, NULL, 8), 2);
    assert_int_equal(steer_world_get_obstacles(w, NULL, 8), 1);
    assert_int_equal(steer_world_get_walls(w, NULL, 8), 1);
    assert_int_equal(steer_path_get(w, s.path, NULL, 8, NULL), 2);
    assert_int_equal(steer_world_query_radius(w, steer_vec2(10, 10), 50, NULL, NULL, 8), 2);
    assert_int_equal(steer_world_query_neighbors(w, s.a, 50, NULL, 8), 1);
    assert_int_equal(steer_world_query_obstacles(w, steer_vec2(0, 100), steer_vec2(200, 100), 1, NULL, 8), 1);
    assert_int_equal(steer_vehicle_get_behaviours(w, s.a, NULL, 8), 0);
    assert_int_equal(steer_vehicle_get(w, s.a, NULL), STEER_OK);
    assert_int_equal(steer_vehicle_get(w, s.removed, NULL), STEER_ERROR_INVALID_ID);
    assert_error_of(w, "steer_vehicle_get", "vehicle was removed");
    /* a negative capacity writes nothing either */
    SteerVehicleId ids[2] = {STEER_NULL_ID, STEER_NULL_ID};
    assert_int_equal(steer_world_get_vehicles(w, ids, -1), 2);
    assert_true(steer_vehicle_id_is_null(ids[0]));
    /* a NULL draw struct draws nothing */
    steer_world_debug_draw(w, NULL);
    free_scene(&s);
}

/* `SteerXDef def = {0}` instead of the default constructor: refused like any bad value, and the
 * message says what to start from. A definition that only has one bad value gets no such hint. */
static void test_a_zeroed_definition_points_at_its_default(void **state)
{
    (void)state;
    char message[256];
    SteerWorldDef wdef;
    memset(&wdef, 0, sizeof wdef);
    assert_int_equal(steer_world_def_check(&wdef, message, sizeof message), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(message, "width must be"));
    assert_non_null(strstr(message, "; was the definition zeroed instead of made by steer_default_world_def()?"));
    assert_null(steer_world_create(&wdef));
    wdef = steer_default_world_def();
    wdef.width = 0;
    assert_int_equal(steer_world_def_check(&wdef, message, sizeof message), STEER_ERROR_INVALID_ARGUMENT);
    assert_null(strstr(message, "steer_default_world_def"));
    /* each bad value of a definition is named with what it was */
    wdef = steer_default_world_def();
    wdef.dt = NAN;
    assert_int_equal(steer_world_def_check(&wdef, message, sizeof message), STEER_ERROR_INVALID_ARGUMENT);
    assert_string_equal(message, "dt must be a finite number in (0, 1] seconds (got nan)");
    wdef = steer_default_world_def();
    wdef.edges = (SteerEdges)17;
    assert_int_equal(steer_world_def_check(&wdef, message, sizeof message), STEER_ERROR_INVALID_ARGUMENT);
    assert_string_equal(message, "edges must be none, wrap or contain (got 17)");
    /* a short buffer still gets a terminated message */
    memset(&wdef, 0, sizeof wdef);
    assert_int_equal(steer_world_def_check(&wdef, message, 8), STEER_ERROR_INVALID_ARGUMENT);
    assert_int_equal(strlen(message), 7);

    Scene s = make_scene();
    SteerWorld *w = s.world;
    SteerVehicleDef vdef;
    memset(&vdef, 0, sizeof vdef);
    SteerVehicleId id;
    assert_int_equal(steer_vehicle_create(w, &vdef, &id), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_vehicle_create", "mass must be");
    assert_error_contains(w, "; was the definition zeroed instead of made by steer_default_vehicle_def()?");
    vdef = steer_default_vehicle_def();
    vdef.mass = 0;
    assert_int_equal(steer_vehicle_create(w, &vdef, &id), STEER_ERROR_INVALID_ARGUMENT);
    if (strstr(steer_world_last_error(w), "steer_default")) fail_msg("hint for one bad value");

    SteerBehaviourDef bdef;
    memset(&bdef, 0, sizeof bdef);
    bdef.type = STEER_WANDER;
    assert_int_equal(steer_vehicle_set_behaviour(w, s.a, &bdef), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_of(w, "steer_vehicle_set_behaviour", "wander: ");
    assert_error_contains(w, "; was the definition zeroed instead of made by steer_default_behaviour_def()?");
    assert_false(steer_vehicle_has_behaviour(w, s.a, STEER_WANDER));
    bdef = steer_default_behaviour_def(STEER_WANDER);
    bdef.wander.radius = -1;
    assert_int_equal(steer_vehicle_set_behaviour(w, s.a, &bdef), STEER_ERROR_INVALID_ARGUMENT);
    if (strstr(steer_world_last_error(w), "steer_default")) fail_msg("hint for one bad value");
    free_scene(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_fallible_call_names_itself),
        cmocka_unit_test(test_a_bad_vehicle_id_says_why),
        cmocka_unit_test(test_a_bad_target_or_shape_id_says_why),
        cmocka_unit_test(test_queries_name_themselves_and_their_filter),
        cmocka_unit_test(test_success_keeps_the_last_message),
        cmocka_unit_test(test_a_zeroed_filter_points_at_its_default),
        cmocka_unit_test(test_the_default_debug_draw_shows_the_world),
        cmocka_unit_test(test_null_out_pointers_count_or_check),
        cmocka_unit_test(test_a_zeroed_definition_points_at_its_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
