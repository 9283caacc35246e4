/* SPDX-License-Identifier: MIT */
/* test_render_orca.c - the selected vehicle's orca velocity constraints (its half-planes) and the
 * inspector's line naming what bounds it. Two vehicles with orca meet head on: A at (100, 120)
 * going east, B at (150, 120) going west, each at 40 units/s. After a step, A's half-plane against
 * B is drawn (where velocities lead in a second, inside A's max_speed circle) when A is selected and
 * the world keeps A's half-planes, in the bound colour; not for another selection; and the
 * inspector says A gives way to B. Pixels are read along the half-plane's boundary as the core
 * emits it (a recording SteerDebugDraw), away from the vehicles. */
#include <math.h>

#include "render_support.h"

enum { W = 320, H = 240, MAX_SEGMENTS = 256 };

typedef struct Scene {
    RenderFixture f;
    SteerVehicleId a, b;
} Scene;

/// What steer_vehicle_debug_draw_orca emitted.
typedef struct Recorded {
    int count;
    SteerVec2 from[MAX_SEGMENTS], to[MAX_SEGMENTS];
    uint32_t color[MAX_SEGMENTS];
    int circles;
} Recorded;

static void record_segment(SteerVec2 a, SteerVec2 b, uint32_t color, SteerDebugLayer layer, void *context)
{
    (void)layer;
    Recorded *r = context;
    if (r->count == MAX_SEGMENTS) return;
    r->from[r->count] = a;
    r->to[r->count] = b;
    r->color[r->count++] = color;
}

static void record_circle(SteerVec2 c, double radius, uint32_t color, SteerDebugLayer layer, void *context)
{
    (void)c, (void)radius, (void)color, (void)layer;
    ((Recorded *)context)->circles++;
}

static Recorded record(const Scene *s, SteerVehicleId id)
{
    Recorded r = {0};
    SteerDebugDraw d = steer_default_debug_draw();
    d.draw_segment = record_segment;
    d.draw_circle = record_circle;
    d.context = &r;
    steer_vehicle_debug_draw_orca(s->f.world, id, &d);
    return r;
}

static SteerVehicleId walker(Scene *s, double x, double vx)
{
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(x, 120);
    def.heading = vx > 0 ? 0.0 : STEER_PI;
    def.velocity = steer_vec2(vx, 0);
    def.radius = 8;
    def.max_speed = 60;
    def.max_force = 3600;
    def.response_time = 1.0 / 60.0;
    def.neighbor_radius = 80;
    SteerVehicleId id;
    assert_int_equal(steer_vehicle_create(s->f.world, &def, &id), STEER_OK);
    SteerBehaviourDef seek = steer_default_behaviour_def(STEER_SEEK);
    seek.seek.target = steer_target_point(vx > 0 ? 300 : 0, 120);
    assert_int_equal(steer_vehicle_set_behaviour(s->f.world, id, &seek), STEER_OK);
    SteerBehaviourDef orca = steer_default_behaviour_def(STEER_ORCA);
    assert_int_equal(steer_vehicle_set_behaviour(s->f.world, id, &orca), STEER_OK);
    return id;
}

static int setup(void **state)
{
    Scene *s = calloc(1, sizeof *s);
    render_fixture_open(&s->f, W, H);
    s->a = walker(s, 100, 40);
    s->b = walker(s, 150, -40);
    assert_int_equal(steer_world_watch_orca(s->f.world, s->a), STEER_OK);
    steer_world_step(s->f.world);
    *state = s;
    return 0;
}

/// The pixels of points along the bound half-plane's boundary, 24 units or more from both vehicles
/// (the darts and the selection ring hide nothing there); returns how many (at most `max`).
static int boundary_points(const Scene *s, const Recorded *r, SDL_Point *out, int max)
{
    int n = 0;
    SteerVec2 pa = steer_vehicle_position(s->f.world, s->a), pb = steer_vehicle_position(s->f.world, s->b);
    for (int i = 0; i < r->count && n < max; i++) {
        if (r->color[i] != STEER_DEBUG_COLOR_BOUND) continue;
        if (steer_distance(r->from[i], r->to[i]) < 30.0) continue; /* a tick, not the boundary */
        for (int k = 1; k < 10 && n < max; k++) {
            SteerVec2 p = steer_add(r->from[i], steer_scale(steer_sub(r->to[i], r->from[i]), k / 10.0));
            if (steer_distance(p, pa) < 24.0 || steer_distance(p, pb) < 24.0) continue;
            if (p.x < 2 || p.y < 2 || p.x > W - 3 || p.y > H - 3) continue;
            out[n++] = (SDL_Point){(int)lround(p.x), (int)lround(p.y)};
        }
    }
    return n;
}

static void test_the_selected_vehicle_shows_the_half_plane_that_bounds_it(void **state)
{
    Scene *s = *state;
    Recorded r = record(s, s->a);
    if (r.count < 6) fail_msg("A's half-planes: %d segments emitted, a boundary and its ticks expected", r.count);
    assert_int_equal(r.circles, 1); /* its max_speed circle */
    SDL_Point points[16];
    int n = boundary_points(s, &r, points, 16);
    if (n < 3) fail_msg("A's bound half-plane: %d points of its boundary clear of the vehicles", n);

    render_fixture_draw(&s->f, 0, s->a);
    for (int i = 0; i < n; i++) {
        SDL_Color c = render_drawn_around(&s->f, points[i].x, points[i].y);
        if (render_is_background(c) || c.r < 1.4 * c.g)
            fail_msg("bound half-plane at (%d, %d): (%d, %d, %d), its red expected", points[i].x, points[i].y, c.r, c.g,
                     c.b);
    }
    /* B is not watched: nothing of its own, and none of A's when B is selected */
    assert_int_equal(record(s, s->b).count, 0);
    render_fixture_draw(&s->f, 0, s->b);
    for (int i = 0; i < n; i++) render_assert_blank(&s->f, points[i].x, points[i].y, "B selected: A's half-plane");
    render_fixture_draw(&s->f, 0, (SteerVehicleId)STEER_NULL_ID);
    for (int i = 0; i < n; i++) render_assert_blank(&s->f, points[i].x, points[i].y, "nothing selected");
}

static void test_watching_another_vehicle_draws_its_half_planes_after_a_step(void **state)
{
    Scene *s = *state;
    assert_int_equal(steer_world_watch_orca(s->f.world, s->b), STEER_OK);
    assert_int_equal(record(s, s->b).count, 0); /* not before a step */
    assert_int_equal(record(s, s->a).count, 0); /* A's are gone */
    steer_world_step(s->f.world);
    assert_true(record(s, s->b).count >= 6);
    assert_int_equal(record(s, s->a).count, 0);
    /* the null id stops */
    assert_int_equal(steer_world_watch_orca(s->f.world, (SteerVehicleId)STEER_NULL_ID), STEER_OK);
    steer_world_step(s->f.world);
    assert_int_equal(record(s, s->b).count, 0);
}

static void test_the_inspector_names_what_bounds_it(void **state)
{
    Scene *s = *state;
    char line[96];
    assert_true(render_orca_line(s->f.world, s->a, line, sizeof line));
    if (!strstr(line, "giving way to #2")) fail_msg("A's orca line: \"%s\", \"giving way to #2\" expected", line);
    assert_true(render_orca_line(s->f.world, s->b, line, sizeof line));
    if (!strstr(line, "giving way to #1")) fail_msg("B's orca line: \"%s\", \"giving way to #1\" expected", line);
    /* the inspector itself has the line: one more than without orca's */
    steer_render_inspector(s->f.render, s->f.world, s->a, NULL, NULL, 0);
    float with = s->f.render->inspector_h;
    assert_int_equal(steer_vehicle_clear_behaviour(s->f.world, s->a, STEER_ORCA), STEER_OK);
    steer_render_inspector(s->f.render, s->f.world, s->a, NULL, NULL, 0);
    assert_true(with >= s->f.render->inspector_h + 2 * (float)steer_render_line_height(s->f.render) - 0.5f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_the_selected_vehicle_shows_the_half_plane_that_bounds_it, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_watching_another_vehicle_draws_its_half_planes_after_a_step, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_the_inspector_names_what_bounds_it, setup, render_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
