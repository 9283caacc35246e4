/* SPDX-License-Identifier: MIT */
/* test_render_plots.c - the inspector's plots drawn by SDL's software renderer into a plain surface
 * (SDL_VIDEODRIVER=dummy), from a real history (src/runtime/history.c): under the inspector, one
 * line per series at the height of its value, a gap while a behaviour is off, values above the top
 * clipped into the plot, the states as stretches of their colours in time order, nothing without an
 * inspector, and the history left as it was (the renderer only reads). */
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "render_support.h"

enum { W = 640, H = 480 };

#define SPEED_COLOR ((SDL_Color){110, 200, 255, 255}) /* history.c's */

typedef struct Fixture {
    RenderFixture r;
    SteerVehicleId id;
    History *history;
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    render_fixture_open(&f->r, W, H);
    SteerVehicleDef vd = steer_default_vehicle_def();
    vd.position = steer_vec2(100, 300);
    assert_int_equal(steer_vehicle_create(f->r.world, &vd, &f->id), STEER_OK);
    f->history = calloc(1, sizeof *f->history);
    assert_non_null(f->history);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fixture *f = *state;
    free(f->history);
    render_fixture_close(&f->r);
    free(f);
    return 0;
}

static SDL_Color pixel(const Fixture *f, int x, int y) { return render_pixel(&f->r, x, y); }

static bool near(SDL_Color a, SDL_Color b, int tolerance)
{
    return abs(a.r - b.r) <= tolerance && abs(a.g - b.g) <= tolerance && abs(a.b - b.b) <= tolerance;
}

/* Rows y0..y1 of column x whose pixel is (near) `c`: the first, and how many. */
static int find_in_column(const Fixture *f, int x, int y0, int y1, SDL_Color c, int tolerance, int *count)
{
    int first = -1, n = 0;
    for (int y = y0; y < y1; y++)
        if (near(pixel(f, x, y), c, tolerance)) {
            if (first < 0) first = y;
            n++;
        }
    if (count) *count = n;
    return first;
}

/* 10 s at 60 Hz: speed 50 of 100 in the first half, 100 (the top) in the second; seek on only in the
 * second half; the state "alpha" then "beta". */
static void fill_history(Fixture *f)
{
    history_reset(f->history, 1);
    for (int i = 1; i <= 600; i++) {
        HistorySample s;
        memset(&s, 0, sizeof s);
        s.time = i / 60.0;
        bool late = i > 300;
        s.speed = late ? 100.0f : 50.0f;
        s.force = 100.0f;
        s.max_speed = 100;
        s.max_force = 300;
        for (int b = 0; b < STEER_BEHAVIOUR_COUNT; b++) s.behaviour[b] = NAN;
        if (late) s.behaviour[STEER_SEEK] = 150.0f;
        s.behaviour[STEER_WANDER] = 5000.0f; /* far above every top: clipped into its plot */
        s.state = late ? "beta" : "alpha";
        s.state_len = strlen(s.state);
        assert_true(history_record(f->history, 1, &s));
    }
}

static void draw_frame(Fixture *f, bool inspector)
{
    steer_render_world(f->r.render, f->r.world, &f->r.frame);
    if (inspector) steer_render_inspector(f->r.render, f->r.world, f->id, NULL, NULL, 0);
    SteerInspectorPlots plots;
    history_view(f->history, &plots);
    steer_render_inspector_plots(f->r.render, &plots);
}

static void test_no_plots_without_an_inspector(void **state)
{
    Fixture *f = *state;
    fill_history(f);
    draw_frame(f, false);
    for (int y = 4; y < H - 4; y += 3) /* (inside the world's bounds, drawn along the edges) */
        for (int x = W / 2; x < W - 4; x += 3)
            if (!near(pixel(f, x, y), RENDER_BACKGROUND, 0))
                fail_msg("pixel (%d, %d) drawn without an inspector", x, y);
}

static void test_plots_under_the_inspector_with_lines_gaps_and_states(void **state)
{
    Fixture *f = *state;
    fill_history(f);
    History before = *f->history;
    draw_frame(f, true);
    assert_memory_equal(&before, f->history, sizeof before); /* the renderer only reads */

    SteerRender *r = f->r.render;
    int panel_top = (int)(r->inspector_y + r->inspector_h);
    int right = (int)(r->inspector_x + r->inspector_w) - 20; /* t ~ 9.7 s: the second half */
    int left = right - 200;                                  /* t ~ 2.3 s: the first half */

    /* speed: a line half-way up its plot in the first half, at the top in the second */
    int n_left, n_right;
    int y_left = find_in_column(f, left, panel_top, H, SPEED_COLOR, 0, &n_left);
    int y_right = find_in_column(f, right, panel_top, H, SPEED_COLOR, 0, &n_right);
    if (y_left < 0 || y_right < 0)
        fail_msg("no speed line at x = %d (y %d) or x = %d (y %d)", left, y_left, right, y_right);
    assert_true(n_left <= 2 && n_right <= 2); /* one thin line */
    int plot_h = 2 * r->line_height + 2;
    assert_true(y_right < y_left);
    assert_true(abs((y_left - y_right) - (plot_h - 2) / 2) <= 2); /* 50 of 100: half the height lower */

    /* seek: its colour only where it was on (the second half) */
    SDL_Color seek = history_behaviour_color(STEER_SEEK);
    int y_seek = find_in_column(f, right, y_right, H, seek, 0, NULL);
    assert_true(y_seek > y_right);
    int none;
    find_in_column(f, left, y_right, H, seek, 0, &none);
    assert_int_equal(none, 0);

    /* wander, far above its top: drawn along the plot's top edge, not outside it */
    SDL_Color wander = history_behaviour_color(STEER_WANDER);
    int count;
    int y_wander = find_in_column(f, left, y_right, H, wander, 0, &count);
    assert_true(y_wander > y_seek);
    assert_true(count <= 2);
    /* the row above it is the seek plot's bottom or the gap between rows: no wander colour there */
    assert_false(near(pixel(f, left, y_wander - 2), wander, 0));

    /* the state strip: alpha's colour in the first half, beta's in the second, on the plots' bg */
    SDL_Color bg = {30, 34, 44, 255};
    SteerInspectorPlots view;
    history_view(f->history, &view);
    assert_string_equal(view.state_names[0], "alpha");
    assert_string_equal(view.state_names[1], "beta");
    SDL_Color a = view.state_colors[0], b = view.state_colors[1];
    SDL_Color blend_a = {(Uint8)((a.r * 210 + bg.r * 45) / 255), (Uint8)((a.g * 210 + bg.g * 45) / 255),
                         (Uint8)((a.b * 210 + bg.b * 45) / 255), 255};
    SDL_Color blend_b = {(Uint8)((b.r * 210 + bg.r * 45) / 255), (Uint8)((b.g * 210 + bg.g * 45) / 255),
                         (Uint8)((b.b * 210 + bg.b * 45) / 255), 255};
    int ya = find_in_column(f, left, y_wander, H, blend_a, 12, &count);
    assert_true(ya > y_wander);
    assert_true(count >= 8);
    int yb = find_in_column(f, right, y_wander, H, blend_b, 12, &count);
    assert_true(abs(yb - ya) <= 1);
    find_in_column(f, right, y_wander, H, blend_a, 12, &count);
    assert_true(count < 3); /* (a name's glyph may come close) */
}

/* The header's "last 10 s" ends before the time axis begins (its "-10 s" over the plots' left
 * edge): the two were drawn over each other as "last 10 s10 s". */
static void test_the_span_label_ends_before_the_time_axis(void **state)
{
    Fixture *f = *state;
    fill_history(f);
    draw_frame(f, true);
    SteerRender *r = f->r.render;
    float panel_w = r->inspector_w > RENDER_PLOTS_MIN_WIDTH ? r->inspector_w : RENDER_PLOTS_MIN_WIDTH;
    int panel_x = (int)(r->inspector_x + r->inspector_w - panel_w);
    int span_end = panel_x + 8 + render_text_width(r, "last 10 s", (size_t)-1); /* (PAD 8) */
    /* the plots' left edge: the first pixel of their background on the speed plot's middle row */
    SDL_Color bg = {30, 34, 44, 255};
    int row = (int)(r->inspector_y + r->inspector_h) + 4 + 8 + r->line_height + 4 + r->line_height;
    int plot_x = -1;
    for (int x = panel_x; x < W && plot_x < 0; x++)
        if (near(pixel(f, x, row), bg, 0)) plot_x = x;
    if (plot_x < 0) fail_msg("no plot background on row %d", row);
    if (plot_x < span_end + 4) fail_msg("the time axis begins at x = %d, the span label ends at %d", plot_x, span_end);
}

static void test_the_plots_scroll_with_time(void **state)
{
    Fixture *f = *state;
    fill_history(f);
    /* 5 s more at speed 100: the first half's slow stretch leaves the window */
    for (int i = 601; i <= 900; i++) {
        HistorySample s;
        memset(&s, 0, sizeof s);
        s.time = i / 60.0;
        s.speed = 100.0f;
        s.max_speed = 100;
        s.max_force = 300;
        for (int b = 0; b < STEER_BEHAVIOUR_COUNT; b++) s.behaviour[b] = NAN;
        history_record(f->history, 1, &s);
    }
    draw_frame(f, true);
    SteerRender *r = f->r.render;
    int panel_top = (int)(r->inspector_y + r->inspector_h);
    int right = (int)(r->inspector_x + r->inspector_w) - 20;
    int y_right = find_in_column(f, right, panel_top, H, SPEED_COLOR, 0, NULL);
    int y_left = find_in_column(f, right - 200, panel_top, H, SPEED_COLOR, 0, NULL);
    assert_true(y_right > 0);
    assert_int_equal(y_left, y_right); /* at the top all along now */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_no_plots_without_an_inspector, setup, teardown),
        cmocka_unit_test_setup_teardown(test_plots_under_the_inspector_with_lines_gaps_and_states, setup, teardown),
        cmocka_unit_test_setup_teardown(test_the_span_label_ends_before_the_time_axis, setup, teardown),
        cmocka_unit_test_setup_teardown(test_the_plots_scroll_with_time, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
