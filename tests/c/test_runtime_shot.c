/* SPDX-License-Identifier: MIT */
/* test_runtime_shot.c - screenshots of the real program (headless, software renderer, PNG): the
 * vehicle's colour where the vehicle is, the obstacle where the obstacle is, the script's own
 * gfx drawing, and the error panel when a script fails. */
#include "runtime_support.h"

#include <SDL.h>
#include <SDL_image.h>

#include "app.h"
#include "render.h"

#define SHOT_W 400
#define SHOT_H 300

typedef struct Rgb {
    int r, g, b;
} Rgb;

static SDL_Surface *load_png(const char *path)
{
    SDL_Surface *raw = IMG_Load(path);
    if (!raw) fail_msg("cannot load %s: %s", path, IMG_GetError());
    SDL_Surface *s = SDL_ConvertSurfaceFormat(raw, SDL_PIXELFORMAT_RGBA32, 0);
    SDL_FreeSurface(raw);
    assert_non_null(s);
    assert_int_equal(s->w, SHOT_W);
    assert_int_equal(s->h, SHOT_H);
    return s;
}

static Rgb pixel(SDL_Surface *s, int x, int y)
{
    const Uint8 *p = (const Uint8 *)s->pixels + y * s->pitch + x * 4;
    return (Rgb){p[0], p[1], p[2]};
}

static bool near_color(Rgb c, int r, int g, int b, int tol)
{
    return abs(c.r - r) <= tol && abs(c.g - g) <= tol && abs(c.b - b) <= tol;
}

/* The colour within 2 pixels of (x, y): a vehicle is a slim arrow, a few pixels high at its centre. */
static bool near_color_around(SDL_Surface *s, int x, int y, int r, int g, int b, int tol)
{
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++)
            if (near_color(pixel(s, x + dx, y + dy), r, g, b, tol)) return true;
    return false;
}

/* Bottom of the program's HUD of APP_FIT_HUD_LINES lines in its font: a renderer of our own measures it. */
static int hud_bottom(void)
{
    static int bottom = -1;
    if (bottom < 0) {
        SDL_Surface *surface = SDL_CreateRGBSurfaceWithFormat(0, SHOT_W, SHOT_H, 32, SDL_PIXELFORMAT_ARGB8888);
        SDL_Renderer *sdl = surface ? SDL_CreateSoftwareRenderer(surface) : NULL;
        SteerRender *render = sdl ? steer_render_create(sdl, APP_FONT_PATH, APP_FONT_PX) : NULL;
        if (!render) fail_msg("no renderer to measure the HUD with: %s", SDL_GetError());
        bottom = steer_render_hud_bottom(render, APP_FIT_HUD_LINES);
        steer_render_destroy(render);
        SDL_DestroyRenderer(sdl);
        SDL_FreeSurface(surface);
    }
    return bottom;
}

/* Where the program's camera (the world fitted into the picture below the HUD, and in a window above
 * the rewind's timeline) puts a world point. */
static void to_pixel_in(bool window, double wx, double wy, int *x, int *y)
{
    int bx, by, bw, bh;
    steer_render_timeline_bar(SHOT_W, SHOT_H, &bx, &by, &bw, &bh);
    SteerCamera cam = steer_camera_fit_band(200, 150, SHOT_W, SHOT_H, hud_bottom(), window ? SHOT_H - by : 0);
    double sx, sy;
    steer_camera_to_screen(&cam, wx, wy, &sx, &sy);
    *x = (int)lround(sx);
    *y = (int)lround(sy);
}

/* The same, headless. */
static void to_pixel(double wx, double wy, int *x, int *y) { to_pixel_in(false, wx, wy, x, y); }

static const char *SCENE = "world = { width = 200, height = 150, seed = 1 }\n"
                           "function load(w)\n"
                           "  w:spawn{ kind = 'a', x = 150, y = 100, color = {255, 0, 255} }\n"
                           "  w:obstacle{ x = 60, y = 110, radius = 12 }\n"
                           "end\n"
                           "function draw(gfx)\n"
                           "  gfx.circle(150, 40, 6, {0, 255, 0}, true)\n"
                           "  gfx.hud('custom line')\n"
                           "end\n";

static void take_at(const char *scene, const char *png, int expect_status, const char *at_step)
{
    char *out, *err;
    const char *args[] = {"--headless",
                          "--steps",
                          "5",
                          "--width",
                          "400",
                          "--height",
                          "300",
                          "--screenshot",
                          rt_path(png),
                          rt_path(scene),
                          at_step ? "--at-step" : NULL,
                          at_step,
                          NULL};
    int status = rt_run(args, &out, &err);
    if (status != expect_status) fail_msg("exit %d: %s", status, err);
    free(out);
    free(err);
}

static void take(const char *scene, const char *png, int expect_status) { take_at(scene, png, expect_status, NULL); }

static void test_bad_gfx_arguments_name_function_argument_and_expectation(void **state)
{
    (void)state;
    rt_write("badcolor.lua", "function draw(gfx)\n"
                             "  gfx.circle(10, 10, 5, {255, 0, 0}, true)\n"
                             "  gfx.line(0, 0, 10, 10, 'red')\n"
                             "end\n");
    char *out, *err;
    const char *args[] = {"--headless", "--steps", "2", "--screenshot", rt_path("bc.png"), rt_path("badcolor.lua"),
                          NULL};
    assert_int_equal(rt_run(args, &out, &err), 2);
    assert_non_null(
        strstr(err, "badcolor.lua:3: bad argument #5 to 'line' (color {r, g, b[, a]} expected, got string)"));
    free(out);
    free(err);
    rt_write("badcolor.lua", "function draw(gfx)\n  gfx.circle(0, 0, 5, {300, 0, 0})\nend\n");
    assert_int_equal(rt_run(args, &out, &err), 2);
    assert_non_null(
        strstr(err, "badcolor.lua:2: bad argument #4 to 'circle' (color {r, g, b[, a]} with parts 0-255 expected)"));
    free(out);
    free(err);
}

static void test_at_step_takes_the_picture_after_that_step(void **state)
{
    (void)state;
    /* 120 units/s to the right, max_speed 200: 2 units per step */
    rt_write("moving.lua", "world = { width = 200, height = 150 }\n"
                           "function load(w) w:spawn{ kind = 'a', x = 40, y = 75, vx = 120, vy = 0, max_speed = 200,\n"
                           "  radius = 4, color = {255, 255, 0} } end\n");
    take_at("moving.lua", "early.png", 0, "1");
    take_at("moving.lua", "late.png", 0, NULL);
    SDL_Surface *early = load_png(rt_path("early.png")), *late = load_png(rt_path("late.png"));
    int x1, y, x5;
    to_pixel(42, 75, &x1, &y); /* after 1 step */
    to_pixel(50, 75, &x5, &y); /* after 5 steps */
    assert_true(near_color_around(early, x1, y, 255, 255, 0, 10));
    assert_false(near_color(pixel(early, x5, y), 255, 255, 0, 60));
    assert_true(near_color_around(late, x5, y, 255, 255, 0, 10));
    assert_false(near_color(pixel(late, x1 - 4, y), 255, 255, 0, 60));
    SDL_FreeSurface(early);
    SDL_FreeSurface(late);
}

static void test_vehicle_obstacle_and_script_drawing_are_where_the_world_says(void **state)
{
    (void)state;
    rt_write("shot.lua", SCENE);
    take("shot.lua", "shot.png", 0);
    SDL_Surface *s = load_png(rt_path("shot.png"));
    int x, y;
    to_pixel(150, 100, &x, &y); /* the vehicle (at rest: it has not moved) */
    Rgb c = pixel(s, x, y);
    if (!near_color(c, 255, 0, 255, 10)) fail_msg("vehicle pixel (%d, %d) is %d %d %d", x, y, c.r, c.g, c.b);
    to_pixel(150, 80, &x, &y); /* open ground between vehicle and circle */
    Rgb ground = pixel(s, x, y);
    assert_false(near_color(ground, 255, 0, 255, 60));
    to_pixel(60, 110, &x, &y); /* the obstacle's centre */
    Rgb obstacle = pixel(s, x, y);
    if (near_color(obstacle, ground.r, ground.g, ground.b, 8))
        fail_msg("no obstacle at (%d, %d): %d %d %d", x, y, obstacle.r, obstacle.g, obstacle.b);
    to_pixel(60, 80, &x, &y); /* 30 units above it: ground again */
    assert_true(near_color(pixel(s, x, y), ground.r, ground.g, ground.b, 8));
    to_pixel(150, 40, &x, &y); /* gfx.circle, filled green */
    c = pixel(s, x, y);
    if (!near_color(c, 0, 255, 0, 10)) fail_msg("gfx.circle pixel is %d %d %d", c.r, c.g, c.b);
    /* the world, found where that camera says, is all below the HUD, which hides none of it */
    to_pixel(0, 0, &x, &y);
    assert_true(y >= hud_bottom() && x >= 0);
    to_pixel(200, 150, &x, &y);
    assert_true(y < SHOT_H && x < SHOT_W);
    /* no error panel: the bottom rows are not red */
    c = pixel(s, 10, SHOT_H - 4);
    assert_false(c.r > 100 && c.g < 80);
    SDL_FreeSurface(s);
}

static void test_failing_script_shows_the_error_panel(void **state)
{
    (void)state;
    rt_write("fail.lua", "world = { width = 200, height = 150 }\n"
                         "function update(w, dt)\n  error('panel please')\nend\n");
    take("fail.lua", "fail.png", 2);
    SDL_Surface *s = load_png(rt_path("fail.png"));
    int red_rows = 0;
    for (int y = SHOT_H - 40; y < SHOT_H; y++) {
        Rgb c = pixel(s, 3, y);
        if (c.r > 100 && c.g < 80 && c.b < 80) red_rows++;
    }
    assert_true(red_rows > 20);
    /* the top half has no panel */
    Rgb top = pixel(s, SHOT_W / 2, SHOT_H / 3);
    assert_false(top.r > 100 && top.g < 80);
    SDL_FreeSurface(s);
}

static void test_window_mode_runs_the_same_scene_and_saves_a_screenshot(void **state)
{
    (void)state;
    /* SDL's dummy video driver: a real window path (events, present) without a display */
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    rt_write("shot.lua", SCENE);
    char *out, *err;
    const char *args[] = {"--steps",           "20",
                          "--width",           "400",
                          "--height",          "300",
                          "--overlays",        "grid",
                          "--screenshot",      rt_path("window.png"),
                          rt_path("shot.lua"), NULL};
    int status = rt_run(args, &out, &err);
    if (status != 0) fail_msg("exit %d: %s", status, err);
    free(out);
    free(err);
    SDL_Surface *s = load_png(rt_path("window.png"));
    int x, y;
    to_pixel_in(true, 150, 40, &x, &y); /* the script's green circle */
    Rgb c = pixel(s, x, y);
    if (!near_color(c, 0, 255, 0, 10)) fail_msg("gfx.circle pixel is %d %d %d", c.r, c.g, c.b);
    SDL_FreeSurface(s);
}

/* Pixels of the speed plot's colour (history.c) right of x0 in a screenshot. */
static int speed_pixels(const char *path, int x0)
{
    SDL_Surface *raw = IMG_Load(path);
    if (!raw) fail_msg("cannot load %s: %s", path, IMG_GetError());
    SDL_Surface *s = SDL_ConvertSurfaceFormat(raw, SDL_PIXELFORMAT_RGBA32, 0);
    SDL_FreeSurface(raw);
    int n = 0;
    for (int y = 0; y < s->h; y++)
        for (int x = x0; x < s->w; x++) n += near_color(pixel(s, x, y), 110, 200, 255, 0);
    SDL_FreeSurface(s);
    return n;
}

/* --select N: the inspector's plots of that vehicle, from the steps since it was selected. */
static void test_selected_vehicle_has_plots_under_its_inspector(void **state)
{
    (void)state;
    rt_write("plots.lua", "world = { width = 400, height = 300, seed = 2 }\n"
                          "function load(w)\n"
                          "  local v = w:spawn{ kind = 'a', x = 100, y = 150, max_speed = 60 }\n"
                          "  v:wander{}\n"
                          "  v.state = 'roaming'\n"
                          "end\n");
    char *out, *err;
    const char *with[] = {"--headless",
                          "--steps",
                          "300",
                          "--width",
                          "800",
                          "--height",
                          "600",
                          "--select",
                          "1",
                          "--screenshot",
                          rt_path("plots.png"),
                          rt_path("plots.lua"),
                          NULL};
    int status = rt_run(with, &out, &err);
    if (status != 0) fail_msg("exit %d: %s", status, err);
    free(out);
    free(err);
    const char *without[] = {"--headless", "--steps", "300",          "--width",           "800",
                             "--height",   "600",     "--screenshot", rt_path("none.png"), rt_path("plots.lua"),
                             NULL};
    assert_int_equal(rt_run(without, &out, &err), 0);
    free(out);
    free(err);
    int n = speed_pixels(rt_path("plots.png"), 400);
    if (n < 100) fail_msg("%d pixels of the speed line in the right half", n);
    assert_int_equal(speed_pixels(rt_path("none.png"), 400), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_vehicle_obstacle_and_script_drawing_are_where_the_world_says, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_failing_script_shows_the_error_panel, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_at_step_takes_the_picture_after_that_step, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_bad_gfx_arguments_name_function_argument_and_expectation, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_window_mode_runs_the_same_scene_and_saves_a_screenshot, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_selected_vehicle_has_plots_under_its_inspector, rt_setup, rt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
