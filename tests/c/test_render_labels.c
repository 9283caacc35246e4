/* SPDX-License-Identifier: MIT */
/* test_render_labels.c - what keeps the view readable in a crowd: state labels that never overlap
 * one another nor enter a panel (HUD, inspector, error panel, timeline, script text), counted into
 * a neighbour of the same text when there is no room, the selected and hovered vehicles' placed
 * first; vehicles at least 14 pixels long at any zoom; headings drawn eased and held near rest; every script text on a
 * backing panel; the timeline's label clear of an error panel that ends above the timeline. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_support.h"

#define PI 3.14159265358979323846

enum { W = 640, H = 480 };

typedef RenderFixture Fixture;

static int setup(void **state)
{
    *state = render_fixture_new(W, H);
    return 0;
}

static SteerVehicleId spawn(Fixture *f, double x, double y, double vx, double vy, double radius)
{
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(x, y);
    def.velocity = steer_vec2(vx, vy);
    def.max_speed = 1000;
    def.radius = radius;
    SteerVehicleId id;
    assert_int_equal(steer_vehicle_create(f->world, &def, &id), STEER_OK);
    return id;
}

/* Every vehicle says "evade", but one in seven "alarmed": a crowd whose labels would pile up. */
static const char *crowd_label(void *ctx, SteerVehicleId id)
{
    (void)ctx;
    return id.index1 % 7 == 0 ? "alarmed" : "evade";
}

static bool intersect(SDL_Rect a, SDL_Rect b)
{
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/* A dense crowd (300 vehicles in a third of the view) with every overlay on, the HUD and an error
 * panel drawn before the labels: no two label rectangles intersect, none enters a panel or leaves
 * the view, and the labels with no room were counted into others ("evade x5"). */
static void test_labels_in_a_dense_crowd_never_overlap_nor_enter_a_panel(void **state)
{
    Fixture *f = *state;
    uint32_t seed = 7; /* a small LCG: the same crowd every run */
    for (int i = 0; i < 300; i++) {
        seed = seed * 1664525u + 1013904223u;
        double x = 40 + 200 * (seed >> 8) / 16777216.0;
        seed = seed * 1664525u + 1013904223u;
        double y = 40 + 200 * (seed >> 8) / 16777216.0;
        spawn(f, x, y, 10, 0, 5);
    }
    f->frame.overlays = STEER_OVERLAY_WANDER | STEER_OVERLAY_AVOIDANCE | STEER_OVERLAY_NEIGHBORS |
                        STEER_OVERLAY_FORCES | STEER_OVERLAY_STATES | STEER_OVERLAY_PATHS | STEER_OVERLAY_GRID;
    f->frame.vehicle_label = crowd_label;
    f->frame.defer_labels = true;
    steer_world_step(f->world);
    steer_render_world(f->render, f->world, &f->frame);
    const char *hud[] = {"60 fps   t 1.00 s   300 vehicles", "frame 16.7 ms: physics 1.9", "x1   F1 help"};
    steer_render_hud(f->render, hud, 3);
    steer_render_error_panel(f->render, "scene.lua:3: attempt to index a nil value");
    steer_render_labels(f->render);

    SDL_Rect rects[400];
    int n = steer_render_label_rects(f->render, rects, 400);
    assert_true(n >= 10); /* some are drawn */
    assert_true(n < 300); /* not all: they would pile up */
    int hud_bottom = steer_render_hud_bottom(f->render, 3);
    for (int i = 0; i < n; i++) {
        SDL_Rect r = rects[i];
        if (r.x < 0 || r.y < 0 || r.x + r.w > W || r.y + r.h > H) fail_msg("label %d off the view", i);
        if (r.y < hud_bottom && r.x < 400) fail_msg("label %d at (%d, %d) under the HUD", i, r.x, r.y);
        if (r.y + r.h > H - 3 * steer_render_line_height(f->render)) fail_msg("label %d in the error panel", i);
        for (int j = 0; j < i; j++)
            if (intersect(r, rects[j]))
                fail_msg("labels %d (%d,%d %dx%d) and %d (%d,%d %dx%d) overlap", i, r.x, r.y, r.w, r.h, j, rects[j].x,
                         rects[j].y, rects[j].w, rects[j].h);
    }
    /* and counted: the placed labels' counts add up to more than their number */
    int counted = 0;
    for (int i = 0; i < f->render->label_count; i++) counted += f->render->labels[i].count;
    assert_true(counted > n);
}

/* The selected vehicle's label is placed first, so it shows even in the middle of a crowd. */
static void test_the_selected_vehicles_label_is_placed_first(void **state)
{
    Fixture *f = *state;
    SteerVehicleId last = {0};
    for (int i = 0; i < 60; i++) last = spawn(f, 150 + (i % 8) * 3, 150 + (i / 8) * 3, 0, 0, 5);
    f->frame.overlays = STEER_OVERLAY_STATES;
    f->frame.vehicle_label = crowd_label;
    f->frame.selected = last;
    steer_render_world(f->render, f->world, &f->frame);
    assert_true(f->render->label_count >= 1);
    assert_true(steer_vehicle_id_equal(f->render->labels[0].id, last));
}

static bool label_placed(const Fixture *f, SteerVehicleId id)
{
    for (int i = 0; i < f->render->label_count; i++)
        if (steer_vehicle_id_equal(f->render->labels[i].id, id)) return true;
    return false;
}

/* The hovered vehicle's label comes right after the selected one's: a vehicle in the middle of a
 * dense crowd, whose label finds no room when it is not hovered, keeps its own when it is, and the
 * selected one's stays first. */
static void test_the_hovered_vehicles_label_is_placed_next(void **state)
{
    Fixture *f = *state;
    SteerVehicleId ids[60];
    for (int i = 0; i < 60; i++) ids[i] = spawn(f, 150 + (i % 8) * 3, 150 + (i / 8) * 3, 0, 0, 5);
    SteerVehicleId middle = ids[4 * 8 + 4], selected = ids[59];
    f->frame.overlays = STEER_OVERLAY_STATES;
    f->frame.vehicle_label = crowd_label;
    steer_render_world(f->render, f->world, &f->frame);
    assert_false(label_placed(f, middle)); /* lost in the crowd (counted into a neighbour) */

    f->frame.hovered = middle;
    steer_render_world(f->render, f->world, &f->frame);
    assert_true(steer_vehicle_id_equal(f->render->labels[0].id, middle));

    f->frame.selected = selected;
    steer_render_world(f->render, f->world, &f->frame);
    assert_true(f->render->label_count >= 2);
    assert_true(steer_vehicle_id_equal(f->render->labels[0].id, selected));
    assert_true(steer_vehicle_id_equal(f->render->labels[1].id, middle));
    /* the two drawn, apart */
    SDL_Rect rects[64];
    int n = steer_render_label_rects(f->render, rects, 64);
    assert_true(n >= 2);
    assert_false(intersect(rects[0], rects[1]));
}

/* Without defer_labels the labels are drawn with the world, laid out the same way. */
static void test_labels_drawn_with_the_world_when_not_deferred(void **state)
{
    Fixture *f = *state;
    spawn(f, 100, 100, 0, 0, 5);
    spawn(f, 102, 101, 0, 0, 5);
    f->frame.overlays = STEER_OVERLAY_STATES;
    f->frame.vehicle_label = crowd_label;
    steer_render_world(f->render, f->world, &f->frame);
    SDL_Rect rects[4];
    assert_int_equal(steer_render_label_rects(f->render, rects, 4), 2); /* below and above */
    assert_false(intersect(rects[0], rects[1]));
}

/* The columns and rows a red vehicle's drawn pixels span (its fill, rim and nose are reddish). */
static void drawn_extent(const Fixture *f, int *w, int *h)
{
    int x0 = W, x1 = -1, y0 = H, y1 = -1;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (render_pixel(f, x, y).r > render_pixel(f, x, y).g + 40) {
                if (x < x0) x0 = x;
                if (x > x1) x1 = x;
                if (y < y0) y0 = y;
                if (y > y1) y1 = y;
            }
    *w = x1 - x0 + 1;
    *h = y1 - y0 + 1;
}

/* Zoomed far out, a vehicle is still an arrow about 14 pixels long (and slimmer than long). */
static void test_vehicles_are_at_least_14_pixels_long_at_any_zoom(void **state)
{
    Fixture *f = *state;
    SteerVehicleId id = spawn(f, 0, 0, 10, 0, 5); /* heading along +x */
    assert_int_equal(steer_vehicle_set_color(f->world, id, 0xff0000ffu), STEER_OK);
    f->frame.camera = (SteerCamera){0, 0, 0.05, W, H};
    steer_render_world(f->render, f->world, &f->frame);
    int w, h;
    drawn_extent(f, &w, &h);
    assert_true(w >= 13 && w <= 16);
    assert_true(h < w);
}

/* Its nose is lighter than its body. */
static void test_a_vehicle_has_a_lighter_nose(void **state)
{
    Fixture *f = *state;
    spawn(f, W / 2, H / 2, 10, 0, 12); /* 30 pixels long, nose 18 pixels ahead */
    steer_render_world(f->render, f->world, &f->frame);
    SDL_Color body = render_pixel(f, W / 2, H / 2), nose = render_pixel(f, W / 2 + 10, H / 2);
    assert_true(nose.r + nose.g + nose.b > body.r + body.g + body.b + 60);
}

/* The angle of the drawn vehicle's nose from its centre: the direction of its lightest pixels. */
static double drawn_heading(const Fixture *f, int cx, int cy)
{
    int best = -1;
    for (int y = cy - 20; y <= cy + 20; y++)
        for (int x = cx - 20; x <= cx + 20; x++) {
            SDL_Color c = render_pixel(f, x, y);
            if (!render_is_background(c) && c.r + c.g + c.b > best) best = c.r + c.g + c.b;
        }
    double sx = 0, sy = 0;
    for (int y = cy - 20; y <= cy + 20; y++)
        for (int x = cx - 20; x <= cx + 20; x++) {
            SDL_Color c = render_pixel(f, x, y);
            if (!render_is_background(c) && c.r + c.g + c.b >= best - 20) sx += x - cx, sy += y - cy;
        }
    return atan2(sy, sx);
}

/* With smooth_headings a vehicle that nearly stops keeps pointing where it went, whatever its
 * heading does then; without, it is drawn with the heading it has. */
static void test_nearly_still_vehicles_keep_their_drawn_heading(void **state)
{
    Fixture *f = *state;
    SteerVehicleId id = spawn(f, W / 2, H / 2, 40, 0, 12);
    f->frame.smooth_headings = true;
    steer_render_world(f->render, f->world, &f->frame);
    assert_true(fabs(drawn_heading(f, W / 2, H / 2)) < 0.3);
    /* nearly still, and turned to point down */
    assert_int_equal(steer_vehicle_set_velocity(f->world, id, steer_vec2(0, 0.5)), STEER_OK);
    assert_int_equal(steer_vehicle_set_heading(f->world, id, PI / 2), STEER_OK);
    steer_world_step(f->world);
    steer_render_world(f->render, f->world, &f->frame);
    assert_true(fabs(drawn_heading(f, W / 2, H / 2)) < 0.3);
    f->frame.smooth_headings = false;
    steer_render_world(f->render, f->world, &f->frame);
    assert_true(fabs(drawn_heading(f, W / 2, H / 2) - PI / 2) < 0.3);
}

/* A moving vehicle's drawn heading follows its real one, eased over a few frames. */
static void test_moving_vehicles_headings_follow_eased(void **state)
{
    Fixture *f = *state;
    SteerVehicleId id = spawn(f, W / 2, H / 2, 40, 0, 12);
    f->frame.smooth_headings = true;
    steer_render_world(f->render, f->world, &f->frame);
    assert_int_equal(steer_vehicle_set_velocity(f->world, id, steer_vec2(0, 40)), STEER_OK);
    assert_int_equal(steer_vehicle_set_heading(f->world, id, PI / 2), STEER_OK);
    steer_world_step(f->world); /* 1/60 s */
    SteerVec2 p = steer_vehicle_position(f->world, id);
    f->frame.camera.center_x = p.x, f->frame.camera.center_y = p.y;
    steer_render_world(f->render, f->world, &f->frame);
    double first = drawn_heading(f, W / 2, H / 2);
    assert_true(first < PI / 2 - 0.2); /* not there at once */
    for (int i = 0; i < 60; i++) {
        steer_vehicle_set_position(f->world, id, p);
        steer_world_step(f->world);
        steer_render_world(f->render, f->world, &f->frame);
    }
    assert_true(fabs(drawn_heading(f, W / 2, H / 2) - PI / 2) < 0.2); /* there within a second */
}

/* Script text is drawn on a backing panel: the pixels round it are not the background. */
static void test_script_text_sits_on_a_backing_panel(void **state)
{
    Fixture *f = *state;
    steer_render_world(f->render, f->world, &f->frame);
    steer_render_text_panel_at(f->render, 100, 100, "caught!", (SDL_Color){255, 120, 100, 255}, false);
    assert_false(render_is_background(render_pixel(f, 99, 100 + steer_render_line_height(f->render) / 2)));
    /* centred: the block's middle on x */
    steer_render_world(f->render, f->world, &f->frame);
    steer_render_text_panel_at(f->render, 300, 100, "WAVE 2\nkeep 4 prey", (SDL_Color){255, 230, 120, 255}, true);
    int left = W, right = -1;
    for (int x = 150; x < 450; x++) /* (the world's bounds are drawn at the view's edges) */
        if (!render_is_background(render_pixel(f, x, 104))) {
            if (x < left) left = x;
            right = x;
        }
    assert_true(abs((left + right) / 2 - 300) <= 2);
}

/* An error panel that ends where steer_render_timeline_top says leaves the timeline's label whole. */
static void test_the_timeline_label_stays_clear_of_the_error_panel(void **state)
{
    Fixture *f = *state;
    steer_render_world(f->render, f->world, &f->frame);
    int top = steer_render_timeline_top(f->render, W, H);
    steer_render_error_panel_above(f->render, "scene.lua:3: bad\nline 2\nline 3\nline 4", H - top);
    SteerTimeline t = {.last = 100, .current = 50, .label = "step 50 of 100 (0.8 s)"};
    /* the panel's rows end above the top the timeline may reach */
    int red_bottom = -1;
    for (int y = 0; y < H; y++) {
        SDL_Color c = render_pixel(f, W - 4, y);
        if (c.r > 120 && c.g < 60 && c.b < 60) red_bottom = y;
    }
    assert_true(red_bottom >= 0 && red_bottom < top);
    steer_render_timeline(f->render, &t);
    int bx, by, bw, bh;
    steer_render_timeline_bar(W, H, &bx, &by, &bw, &bh);
    assert_true(by - steer_render_line_height(f->render) - 7 >= top);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_labels_in_a_dense_crowd_never_overlap_nor_enter_a_panel, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_the_selected_vehicles_label_is_placed_first, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_the_hovered_vehicles_label_is_placed_next, setup, render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_labels_drawn_with_the_world_when_not_deferred, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_vehicles_are_at_least_14_pixels_long_at_any_zoom, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_a_vehicle_has_a_lighter_nose, setup, render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_nearly_still_vehicles_keep_their_drawn_heading, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_moving_vehicles_headings_follow_eased, setup, render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_script_text_sits_on_a_backing_panel, setup, render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_the_timeline_label_stays_clear_of_the_error_panel, setup,
                                        render_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
