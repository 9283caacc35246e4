/* SPDX-License-Identifier: MIT */
/* test_render.c - src/render drawn by SDL's software renderer into a plain surface (no window,
 * SDL_VIDEODRIVER=dummy): pixels where the vehicle, obstacle, wall and panels are; the camera's
 * round trips; interpolation; overlays; PNG output. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <SDL_image.h>

#include "render_support.h"

enum { W = 320, H = 240 };

typedef RenderFixture Fixture;

static int setup(void **state)
{
    *state = render_fixture_new(W, H);
    return 0;
}

static SDL_Color pixel(const Fixture *f, int x, int y) { return render_pixel(f, x, y); }

static void assert_color_near(SDL_Color actual, SDL_Color expected, int tolerance, const char *what)
{
    if (abs(actual.r - expected.r) > tolerance || abs(actual.g - expected.g) > tolerance ||
        abs(actual.b - expected.b) > tolerance)
        fail_msg("%s: got (%d, %d, %d), expected (%d, %d, %d)", what, actual.r, actual.g, actual.b, expected.r,
                 expected.g, expected.b);
}

/// Thin lines land on one pixel or its neighbour depending on rounding: look at the 3x3 block.
static void assert_color_around(const Fixture *f, int x, int y, SDL_Color expected, const char *what)
{
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            SDL_Color c = pixel(f, x + dx, y + dy);
            if (c.r == expected.r && c.g == expected.g && c.b == expected.b) return;
        }
    fail_msg("%s: no pixel of (%d, %d, %d) around (%d, %d)", what, expected.r, expected.g, expected.b, x, y);
}

static int drawn_pixels(const Fixture *f)
{
    int n = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) n += !render_is_background(pixel(f, x, y));
    return n;
}

static SteerVehicleId vehicle(Fixture *f, double x, double y, double vx, double vy, uint32_t kind)
{
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(x, y);
    def.velocity = steer_vec2(vx, vy);
    def.max_speed = 1000;
    def.radius = 10;
    def.kind = kind;
    SteerVehicleId id;
    assert_int_equal(steer_vehicle_create(f->world, &def, &id), STEER_OK);
    return id;
}

static void draw(Fixture *f) { steer_render_world(f->render, f->world, &f->frame); }

static void test_vehicle_drawn_in_its_kind_colour_where_it_is(void **state)
{
    Fixture *f = *state;
    vehicle(f, 100, 100, 0, 0, 1);
    draw(f);
    assert_color_near(pixel(f, 102, 100), steer_render_kind_color(1), 0, "vehicle centre");
    assert_color_near(pixel(f, 109, 100), steer_render_kind_color(1), 0, "towards the nose (facing +x)");
    assert_true(render_is_background(pixel(f, 88, 100 - 10)));
    assert_true(render_is_background(pixel(f, 200, 200)));
}

static void test_colour_word_overrides_the_kind_palette(void **state)
{
    Fixture *f = *state;
    SteerVehicleId id = vehicle(f, 100, 100, 0, 0, 1);
    assert_int_equal(steer_vehicle_set_color(f->world, id, 0x20e040ffu), STEER_OK);
    draw(f);
    assert_color_near(pixel(f, 102, 100), (SDL_Color){0x20, 0xe0, 0x40, 255}, 0, "coloured vehicle");
    SDL_Color c = steer_render_color_from_word(0x11223344u);
    assert_int_equal(c.r, 0x11);
    assert_int_equal(c.g, 0x22);
    assert_int_equal(c.b, 0x33);
    assert_int_equal(c.a, 0x44);
}

static void test_obstacle_is_a_filled_circle(void **state)
{
    Fixture *f = *state;
    SteerObstacleId id;
    assert_int_equal(steer_world_add_obstacle(f->world, steer_vec2(200, 150), 30, &id), STEER_OK);
    draw(f);
    SDL_Color fill = steer_render_color_from_word(STEER_DEBUG_COLOR_OBSTACLE_FILL);
    assert_color_near(pixel(f, 200, 150), fill, 0, "obstacle centre");
    assert_color_near(pixel(f, 200 + 20, 150 - 10), fill, 0, "inside the obstacle");
    assert_true(render_is_background(pixel(f, 200 + 36, 150 + 10)));
}

static void test_wall_and_its_normal(void **state)
{
    Fixture *f = *state;
    SteerWallId id;
    assert_int_equal(steer_world_add_wall(f->world, steer_vec2(20, 200), steer_vec2(300, 200), &id), STEER_OK);
    SteerVec2 a, b, n;
    assert_true(steer_wall_get(f->world, id, &a, &b, &n));
    draw(f);
    assert_color_near(pixel(f, 60, 200), steer_render_color_from_word(STEER_DEBUG_COLOR_WALL), 0, "wall");
    int nx = 160, ny = (int)lround(200 + n.y * 7);
    assert_color_around(f, nx, ny, steer_render_color_from_word(STEER_DEBUG_COLOR_WALL_NORMAL), "normal tick");
    /* the other side of the wall has no tick */
    assert_true(render_is_background(pixel(f, nx, (int)lround(200 - n.y * 7))));
}

static void test_selected_vehicle_has_a_ring(void **state)
{
    Fixture *f = *state;
    SteerVehicleId id = vehicle(f, 100, 100, 0, 0, 0);
    draw(f);
    assert_true(render_is_background(pixel(f, 100, 120)));
    f->frame.selected = id;
    draw(f);
    assert_color_around(f, 100, 120, RENDER_SELECTED, "selection ring, 2 radii below");
}

static void test_interpolation_halfway_between_capture_and_step(void **state)
{
    Fixture *f = *state;
    assert_int_equal(steer_world_set_dt(f->world, 0.1), STEER_OK);
    vehicle(f, 100, 100, 600, 0, 2); /* 60 units per step */
    steer_render_capture(f->render, f->world);
    steer_world_step(f->world);
    f->frame.alpha = 0.5;
    draw(f);
    SDL_Color kind = steer_render_kind_color(2);
    assert_color_near(pixel(f, 132, 100), kind, 0, "halfway");
    assert_true(render_is_background(pixel(f, 100 - 5, 100)));
    assert_true(render_is_background(pixel(f, 160 + 17, 100)));
    f->frame.alpha = 1.0;
    draw(f);
    assert_color_near(pixel(f, 162, 100), kind, 0, "at the current position");
    assert_true(render_is_background(pixel(f, 132 - 5, 100)));
}

static void test_an_empty_world_captures_and_draws(void **state)
{
    Fixture *f = *state;
    steer_render_capture(f->render, f->world); /* nothing to remember yet: no buffers */
    steer_world_step(f->world);
    f->frame.alpha = 0.5;
    f->frame.overlays = ~0u;
    draw(f);
    /* a vehicle added after an empty capture is drawn where it is */
    vehicle(f, 100, 100, 0, 0, 0);
    steer_render_capture(f->render, f->world);
    draw(f);
    assert_color_near(pixel(f, 102, 100), steer_render_kind_color(0), 0, "vehicle after an empty capture");
}

static void test_no_interpolation_across_a_wrapping_edge(void **state)
{
    Fixture *f = *state;
    steer_world_destroy(f->world);
    SteerWorldDef def = steer_default_world_def();
    def.width = W;
    def.height = H;
    def.edges = STEER_EDGES_WRAP;
    def.dt = 0.1;
    f->world = steer_world_create(&def);
    assert_non_null(f->world);
    SteerVehicleId id = vehicle(f, 300, 100, 600, 0, 0); /* to 360: wraps to 40 */
    steer_render_capture(f->render, f->world);
    steer_world_step(f->world);
    assert_near(steer_vehicle_position(f->world, id).x, 40, 1e-9);
    f->frame.alpha = 0.5;
    draw(f);
    assert_color_near(pixel(f, 42, 100), steer_render_kind_color(0), 0, "drawn where it is");
    assert_true(render_is_background(pixel(f, 10, 100))); /* not halfway along the wrapped move either */
}

static const char *label_of(void *ctx, SteerVehicleId id)
{
    (void)id;
    return ctx;
}

static void test_each_overlay_draws_only_when_enabled(void **state)
{
    Fixture *f = *state;
    SteerVehicleId id = vehicle(f, 160, 120, 80, 0, 0);
    static const SteerBehaviour behaviours[] = {STEER_WANDER, STEER_AVOID_OBSTACLES, STEER_AVOID_WALLS};
    for (size_t i = 0; i < sizeof behaviours / sizeof *behaviours; i++) {
        SteerBehaviourDef def = steer_default_behaviour_def(behaviours[i]);
        assert_int_equal(steer_vehicle_set_behaviour(f->world, id, &def), STEER_OK);
    }
    SteerFlowFieldDef field = {{20, 20}, 40, 3, 2, NULL};
    SteerFlowFieldId fid;
    assert_int_equal(steer_world_add_flow_field(f->world, &field, &fid), STEER_OK);
    assert_int_equal(steer_flow_field_set(f->world, fid, 0, 0, steer_vec2(1, 0)), STEER_OK);
    steer_world_step(f->world);
    f->frame.vehicle_label = label_of;
    f->frame.label_ctx = "fleeing";

    f->frame.overlays = 0;
    draw(f);
    int plain = drawn_pixels(f);
    assert_true(plain > 50);
    static const unsigned bits[] = {STEER_OVERLAY_WANDER, STEER_OVERLAY_AVOIDANCE, STEER_OVERLAY_NEIGHBORS,
                                    STEER_OVERLAY_FORCES, STEER_OVERLAY_STATES,    STEER_OVERLAY_PATHS,
                                    STEER_OVERLAY_GRID};
    for (size_t i = 0; i < sizeof bits / sizeof *bits; i++) {
        f->frame.overlays = bits[i];
        draw(f);
        int with = drawn_pixels(f);
        if (with <= plain + 20) fail_msg("overlay bit %#x added only %d pixels", bits[i], with - plain);
    }
    f->frame.overlays = 0;
    draw(f);
    assert_int_equal(drawn_pixels(f), plain);
}

static void test_error_panel_covers_the_bottom_in_red(void **state)
{
    Fixture *f = *state;
    draw(f);
    assert_true(render_is_background(pixel(f, W - 4, H - 5)));
    steer_render_error_panel(f->render, "scene.lua:12: attempt to index a nil value (field 'target')\n"
                                        "stack traceback:\n  scene.lua:12: in function 'think'");
    SDL_Color c = pixel(f, W - 4, H - 5);
    if (!(c.r > 120 && c.g < 60 && c.b < 60)) fail_msg("not red: (%d, %d, %d)", c.r, c.g, c.b);
    /* three lines of text: the panel is taller than 3 lines, shorter than 6 */
    int lh = steer_render_line_height(f->render);
    SDL_Color above = pixel(f, W - 4, H - 3 * lh - 2);
    assert_true(above.r > 120 && above.g < 60);
    assert_true(render_is_background(pixel(f, W - 4, H - 6 * lh)));
}

/* In a window the rewind timeline runs along the bottom: the panel sits above it, not under it. */
static void test_error_panel_above_leaves_the_bottom_rows_free(void **state)
{
    Fixture *f = *state;
    draw(f);
    steer_render_error_panel_above(f->render, "scene.lua:12: attempt to index a nil value", 30);
    assert_true(render_is_background(pixel(f, W - 4, H - 5)));
    assert_true(render_is_background(pixel(f, W - 4, H - 29)));
    SDL_Color c = pixel(f, W - 4, H - 35);
    if (!(c.r > 120 && c.g < 60 && c.b < 60)) fail_msg("not red above the free rows: (%d, %d, %d)", c.r, c.g, c.b);
}

static void test_hud_text_and_help_draw_on_panels(void **state)
{
    Fixture *f = *state;
    draw(f);
    const char *lines[] = {"fps 60", "vehicles 1000"};
    steer_render_hud(f->render, lines, 2);
    /* text pixels are light: some inside the HUD box */
    int light = 0;
    for (int y = 10; y < 10 + 2 * steer_render_line_height(f->render) + 16; y++)
        for (int x = 10; x < 140; x++) light += pixel(f, x, y).r > 150;
    assert_true(light > 20);
    assert_true(render_is_background(pixel(f, 5, 5)));
    const char *help[] = {"F1  help", "F2  wander"};
    draw(f);
    steer_render_help(f->render, help, 2);
    SDL_Color centre_left = pixel(f, W / 2 - 30, H / 2);
    assert_false(render_is_background(centre_left));
    assert_true(render_text_width(f->render, "vehicles 1000", (size_t)-1) >
                render_text_width(f->render, "fps 60", (size_t)-1));
}

static void test_inspector_panel_at_the_top_right(void **state)
{
    Fixture *f = *state;
    SteerVehicleId id = vehicle(f, 50, 200, 10, 0, 0);
    SteerBehaviourDef seek = steer_default_behaviour_def(STEER_SEEK);
    seek.seek.target = steer_target_point(300, 200);
    assert_int_equal(steer_vehicle_set_behaviour(f->world, id, &seek), STEER_OK);
    steer_world_step(f->world);
    draw(f);
    assert_true(render_is_background(pixel(f, W - 14, 14)));
    const char *extra[] = {"state: hunting"};
    steer_render_inspector(f->render, f->world, id, "hunter", extra, 1);
    assert_false(render_is_background(pixel(f, W - 14, 14)));
    /* an invalid id draws nothing */
    draw(f);
    steer_render_inspector(f->render, f->world, (SteerVehicleId)STEER_NULL_ID, NULL, NULL, 0);
    assert_true(render_is_background(pixel(f, W - 14, 14)));
}

/* A world fitted into a band of the window (under a HUD, over a timeline) stays out of what is kept,
 * whole and centred in the band; a band too thin for a world is not kept. */
static void test_camera_fit_band_keeps_the_world_off_the_panels(void **state)
{
    (void)state;
    double sx0, sy0, sx1, sy1;
    for (int wide = 0; wide < 2; wide++) {
        double ww = wide ? 1200 : 600, wh = 600;
        SteerCamera cam = steer_camera_fit_band(ww, wh, 1024, 768, 94, 18);
        steer_camera_to_screen(&cam, 0, 0, &sx0, &sy0);
        steer_camera_to_screen(&cam, ww, wh, &sx1, &sy1);
        assert_true(sx0 >= 0 && sx1 <= 1024);
        assert_true(sy0 >= 94 && sy1 <= 768 - 18);
        assert_near(0.5 * (sy0 + sy1), 94 + 0.5 * (768 - 94 - 18), 1e-9);
        assert_near(0.5 * (sx0 + sx1), 512, 1e-9);
        /* and the band is filled, to the fit's margin, in the direction that limits it */
        assert_true(wide ? sx1 - sx0 > 0.9 * 1024 : sy1 - sy0 > 0.9 * (768 - 94 - 18));
    }
    SteerCamera plain = steer_camera_fit(800, 600, 400, 300), none = steer_camera_fit_band(800, 600, 400, 300, 0, 0);
    assert_memory_equal(&plain, &none, sizeof plain);
    SteerCamera thin = steer_camera_fit_band(800, 600, 400, 300, 100, 60); /* 140 of 300 pixels: not kept */
    assert_memory_equal(&plain, &thin, sizeof plain);
    /* a right margin (the inspector's column): the world left of it, centred in what is left */
    SteerCamera box = steer_camera_fit_box(800, 600, 1024, 768, 94, 404, 18);
    steer_camera_to_screen(&box, 0, 0, &sx0, &sy0);
    steer_camera_to_screen(&box, 800, 600, &sx1, &sy1);
    assert_true(sx0 >= 0 && sx1 <= 1024 - 404 && sy0 >= 94 && sy1 <= 768 - 18);
    assert_near(0.5 * (sx0 + sx1), 0.5 * (1024 - 404), 1e-9);
    assert_true(sx1 - sx0 > 0.9 * (1024 - 404)); /* the width limits it here */
    SteerCamera band = steer_camera_fit_band(800, 600, 1024, 768, 94, 18),
                nothing = steer_camera_fit_box(800, 600, 1024, 768, 94, 0, 18),
                wide = steer_camera_fit_box(800, 600, 1024, 768, 94, 640, 18); /* 384 of 1024 left: not kept */
    assert_memory_equal(&band, &nothing, sizeof band);
    assert_memory_equal(&band, &wide, sizeof band);
    SteerCamera narrow = steer_camera_fit_box(800, 600, 800, 600, 94, 404, 18); /* 396 of 800 left: kept */
    steer_camera_to_screen(&narrow, 800, 600, &sx1, &sy1);
    assert_true(sx1 <= 800 - 404);
}

static void test_camera_round_trips_and_zoom_keeps_the_cursor_point(void **state)
{
    (void)state;
    SteerCamera cam = steer_camera_fit(800, 600, 400, 300);
    double sx, sy, wx, wy;
    steer_camera_to_screen(&cam, 400, 300, &sx, &sy);
    assert_near(sx, 200, 1e-9);
    assert_near(sy, 150, 1e-9);
    steer_camera_to_screen(&cam, 0, 0, &sx, &sy);
    assert_true(sx >= 0 && sy >= 0); /* the whole world fits */
    steer_camera_to_screen(&cam, 800, 600, &sx, &sy);
    assert_true(sx <= 400 && sy <= 300);
    cam.center_x = 123.5;
    cam.zoom = 2.75;
    for (double x = -500; x <= 500; x += 137) {
        steer_camera_to_world(&cam, x, 0.5 * x + 7, &wx, &wy);
        steer_camera_to_screen(&cam, wx, wy, &sx, &sy);
        assert_near(sx, x, 1e-9);
        assert_near(sy, 0.5 * x + 7, 1e-9);
    }
    double before_x, before_y, after_x, after_y;
    steer_camera_to_world(&cam, 37, 211, &before_x, &before_y);
    steer_camera_zoom_at(&cam, 37, 211, 1.6);
    assert_near(cam.zoom, 2.75 * 1.6, 1e-12);
    steer_camera_to_world(&cam, 37, 211, &after_x, &after_y);
    assert_near(after_x, before_x, 1e-9);
    assert_near(after_y, before_y, 1e-9);
    steer_camera_zoom_at(&cam, 37, 211, 0.0); /* refused: unchanged */
    assert_near(cam.zoom, 2.75 * 1.6, 1e-12);
}

static void test_png_is_saved_and_reads_back(void **state)
{
    Fixture *f = *state;
    vehicle(f, 100, 100, 0, 0, 3);
    draw(f);
    char path[64];
    snprintf(path, sizeof path, "/tmp/steer_test_render_%d.png", (int)getpid());
    assert_int_equal(steer_render_save_png(f->sdl, path), 0);
    SDL_Surface *loaded = IMG_Load(path);
    if (!loaded) fail_msg("IMG_Load: %s", IMG_GetError());
    assert_int_equal(loaded->w, W);
    assert_int_equal(loaded->h, H);
    SDL_Surface *rgba = SDL_ConvertSurfaceFormat(loaded, SDL_PIXELFORMAT_RGBA32, 0);
    assert_non_null(rgba);
    const Uint8 *p = (const Uint8 *)rgba->pixels + 100 * rgba->pitch + 4 * 102;
    SDL_Color want = steer_render_kind_color(3);
    assert_int_equal(p[0], want.r);
    assert_int_equal(p[1], want.g);
    assert_int_equal(p[2], want.b);
    SDL_FreeSurface(rgba);
    SDL_FreeSurface(loaded);
    unlink(path);
    assert_int_equal(steer_render_save_png(f->sdl, "/nonexistent-dir/x.png"), -1);
}

static void test_warm_frames_do_not_grow_buffers(void **state)
{
    Fixture *f = *state;
    for (int i = 0; i < 50; i++) vehicle(f, 20 + 5 * i, 30 + 3 * i, 30, 10, (uint32_t)i % 5);
    f->frame.overlays = ~0u;
    f->frame.vehicle_label = label_of;
    f->frame.label_ctx = "idle";
    steer_render_capture(f->render, f->world);
    steer_world_step(f->world);
    draw(f);
    const SDL_Vertex *shapes = f->render->shapes.vertices, *text = f->render->text.vertices;
    int shape_capacity = f->render->shapes.capacity, id_capacity = f->render->id_capacity;
    for (int i = 0; i < 5; i++) {
        steer_render_capture(f->render, f->world);
        steer_world_step(f->world);
        f->frame.alpha = 0.3;
        draw(f);
    }
    assert_ptr_equal(f->render->shapes.vertices, shapes);
    assert_ptr_equal(f->render->text.vertices, text);
    assert_int_equal(f->render->shapes.capacity, shape_capacity);
    assert_int_equal(f->render->id_capacity, id_capacity);
}

static void test_create_fails_clearly_on_a_missing_font(void **state)
{
    Fixture *f = *state;
    assert_null(steer_render_create(f->sdl, "/nonexistent/font.ttf", 12));
    assert_true(strlen(SDL_GetError()) > 0);
    assert_null(steer_render_create(f->sdl, RENDER_FONT, 0));
    assert_non_null(strstr(SDL_GetError(), "steer_render_create"));
}

static void test_script_primitives_use_the_last_frame_camera(void **state)
{
    Fixture *f = *state;
    f->frame.camera = (SteerCamera){100, 100, 2.0, W, H}; /* world (100, 100) at the centre, 2 px per unit */
    draw(f);
    SDL_Color gold = {250, 200, 40, 255};
    steer_render_circle(f->render, 120, 90, 5, gold, true); /* screen (200, 100), radius 10 px */
    assert_color_near(pixel(f, 200, 100), gold, 0, "filled circle centre");
    assert_color_near(pixel(f, 207, 100), gold, 0, "inside its 10 px radius");
    assert_true(render_is_background(pixel(f, 213, 100)));
    steer_render_line(f->render, 80, 80, 80, 120, gold); /* screen x = 120, y 80..160 */
    assert_color_around(f, 120, 120, gold, "vertical line");
    int lit = 0;
    steer_render_text_at(f->render, 60, 60, "gfx", gold); /* top left at screen (80, 40) */
    for (int y = 40; y < 40 + steer_render_line_height(f->render); y++)
        for (int x = 80; x < 110; x++) lit += !render_is_background(pixel(f, x, y));
    assert_true(lit > 10);
}

static void test_non_ascii_text_draws_one_placeholder_per_character(void **state)
{
    Fixture *f = *state;
    int question = render_text_width(f->render, "?", (size_t)-1);
    assert_true(question > 0);
    assert_int_equal(render_text_width(f->render, "\xc3\xa9t\xc3\xa9", (size_t)-1), 3 * question); /* "été" */
    assert_int_equal(render_text_width(f->render, "ab\ncd", (size_t)-1), 2 * question);            /* one line */
}

static void test_error_panel_wraps_long_lines(void **state)
{
    Fixture *f = *state;
    char message[400];
    memset(message, 'x', sizeof message - 1);
    message[sizeof message - 1] = '\0';
    draw(f);
    steer_render_error_panel(f->render, message);
    int lh = steer_render_line_height(f->render);
    /* 399 glyphs do not fit in 320 px: several lines, so the panel reaches well above one line */
    SDL_Color c = pixel(f, W - 4, H - 3 * lh);
    assert_true(c.r > 120 && c.g < 60);
}

static void test_vehicle_has_a_darker_rim_along_its_edges(void **state)
{
    Fixture *f = *state;
    vehicle(f, 100, 100, 0, 0, 1); /* facing +x: its back edge is the vertical line x = 90 */
    draw(f);
    SDL_Color fill = steer_render_kind_color(1);
    SDL_Color rim = {(Uint8)(fill.r / 3), (Uint8)(fill.g / 3), (Uint8)(fill.b / 3), 255};
    assert_color_around(f, 90, 100, rim, "rim on the back edge");
    assert_color_near(pixel(f, 93, 100), fill, 0, "fill inside the rim");
    assert_true(render_is_background(pixel(f, 87, 100)));
}

static void test_small_dots_cover_the_pixels_of_their_scanlines(void **state)
{
    /* Dots go to the renderer as 1-pixel-high rectangles; they must cover exactly what the 1-pixel
     * lines of their rows covered, at whole and fractional positions, translucent or not. */
    Fixture *f = *state;
    SDL_Surface *expected = SDL_CreateRGBSurfaceWithFormat(0, W, H, 32, SDL_PIXELFORMAT_RGBA32);
    assert_non_null(expected);
    SDL_Renderer *lines = SDL_CreateSoftwareRenderer(expected);
    assert_non_null(lines);
    SDL_SetRenderDrawBlendMode(lines, SDL_BLENDMODE_BLEND);
    static const float dots[][3] = {{20, 20, 3},   {40.4f, 20.6f, 2.5f}, {60.5f, 20.5f, 1}, {80.2f, 21.7f, 4},
                                    {0.3f, 50, 3}, {-1.6f, 80, 3},       {100, 0.4f, 2}};
    SDL_Color colors[] = {{235, 203, 139, 255}, {208, 135, 112, 153}};
    f->frame.camera.center_x += 5000; /* an empty frame: the world's bounds out of view */
    draw(f);
    assert_int_equal(drawn_pixels(f), 0);
    SDL_SetRenderDrawColor(lines, RENDER_BACKGROUND.r, RENDER_BACKGROUND.g, RENDER_BACKGROUND.b, 255);
    SDL_RenderClear(lines);
    for (size_t c = 0; c < 2; c++)
        for (size_t i = 0; i < sizeof dots / sizeof *dots; i++) {
            float x = roundf(dots[i][0] + 120.0f * (float)c), y = roundf(dots[i][1] + 100.0f * (float)c),
                  radius = dots[i][2];
            render_dot(f->render, dots[i][0] + 120.0f * (float)c, dots[i][1] + 100.0f * (float)c, radius, colors[c]);
            SDL_SetRenderDrawColor(lines, colors[c].r, colors[c].g, colors[c].b, colors[c].a);
            int rows = (int)ceilf(radius);
            for (int dy = -rows + 1; dy < rows; dy++) {
                float half = sqrtf(radius * radius - (float)(dy * dy));
                if (half < 0.5f) half = 0.5f;
                SDL_RenderDrawLineF(lines, x - half, y + (float)dy, x + half, y + (float)dy);
            }
        }
    render_flush(f->render);
    int differ = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            SDL_Color want;
            const Uint8 *p = (const Uint8 *)expected->pixels + y * expected->pitch + 4 * x;
            SDL_GetRGBA(*(const Uint32 *)p, expected->format, &want.r, &want.g, &want.b, &want.a);
            SDL_Color got = pixel(f, x, y);
            if (got.r != want.r || got.g != want.g || got.b != want.b) {
                if (differ < 12)
                    print_message("differ at %d,%d: got %d,%d,%d want %d,%d,%d\n", x, y, got.r, got.g, got.b, want.r,
                                  want.g, want.b);
                differ++;
            }
        }
    assert_int_equal(differ, 0);
    assert_true(drawn_pixels(f) > 100);
    SDL_DestroyRenderer(lines);
    SDL_FreeSurface(expected);
}

static void test_off_screen_content_queues_nothing_and_edges_still_draw(void **state)
{
    Fixture *f = *state;
    for (int i = 0; i < 200; i++) {
        SteerVehicleId id = vehicle(f, -400 - 3 * i, 100 + i % 50, 10, 0, 0); /* all left of the view */
        SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
        assert_int_equal(steer_vehicle_set_behaviour(f->world, id, &wander), STEER_OK);
    }
    steer_world_step(f->world);
    f->frame.overlays = STEER_OVERLAY_WANDER | STEER_OVERLAY_FORCES | STEER_OVERLAY_NEIGHBORS;
    f->frame.camera = (SteerCamera){0.5 * W + 1000, 0.5 * H, 1.0, W, H}; /* looking far to the right */
    draw(f);
    assert_int_equal(f->render->shapes.capacity, 0); /* no vertex was ever queued */
    assert_int_equal(f->render->lines.layers[0].point_capacity, 0);
    assert_int_equal(drawn_pixels(f), 0);
    /* a vehicle straddling the left edge is still drawn */
    vehicle(f, 1000 + 3, 100, 0, 0, 2);
    draw(f);
    assert_color_near(pixel(f, 5, 100), steer_render_kind_color(2), 0, "the part inside the view");
}

static void test_overlay_strokes_draw_one_layer_per_colour(void **state)
{
    /* Thousands of overlay strokes in a handful of colours make a handful of layers, whatever order
     * the colours alternate in, and the frame shows each colour. */
    Fixture *f = *state;
    for (int i = 0; i < 100; i++) {
        SteerVehicleId id = vehicle(f, 20 + (i % 10) * 30, 20 + (i / 10) * 20, 40, 10, 0);
        static const SteerBehaviour behaviours[] = {STEER_WANDER, STEER_AVOID_WALLS};
        for (int b = 0; b < 2; b++) {
            SteerBehaviourDef def = steer_default_behaviour_def(behaviours[b]);
            assert_int_equal(steer_vehicle_set_behaviour(f->world, id, &def), STEER_OK);
        }
    }
    steer_world_step(f->world);
    f->frame.overlays = STEER_OVERLAY_WANDER | STEER_OVERLAY_AVOIDANCE | STEER_OVERLAY_FORCES;
    draw(f);
    assert_int_equal(f->render->lines.layer_count, 0); /* everything queued was drawn */
    int max_layers = 0; /* layers that ever held a stroke: their buffers stay allocated */
    for (int i = 0; i < RENDER_MAX_LAYERS; i++)
        if (f->render->lines.layers[i].point_capacity > 0 || f->render->lines.layers[i].span_capacity > 0)
            max_layers = i + 1;
    /* wander, wander target, avoidance, velocity, force (and the wall normal's colour at most) */
    assert_true(max_layers >= 4);
    assert_true(max_layers <= 6);
    assert_color_around(f, 20 + 3, 20, steer_render_kind_color(0), "a vehicle over its overlays");
}

static void test_text_in_the_common_colour_matches_modulated_text(void **state)
{
    /* RENDER_TEXT is copied from a pre-tinted atlas without modulation; any other colour from the
     * white atlas, modulated. One blue level apart, the two must look the same pixel for pixel
     * (within the blitters' rounding). */
    Fixture *f = *state;
    enum { TX = 20, TY = 20, TW = 120, TH = 20 };
    SDL_Color tinted[TH][TW];
    draw(f);
    steer_render_text(f->render, TX, TY, "wander 0.5 ms", RENDER_TEXT);
    int lit = 0;
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++) {
            tinted[y][x] = pixel(f, TX + x, TY + y);
            lit += !render_is_background(tinted[y][x]);
        }
    assert_true(lit > 40);
    draw(f);
    SDL_Color near = RENDER_TEXT;
    near.b--;
    steer_render_text(f->render, TX, TY, "wander 0.5 ms", near);
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++)
            assert_color_near(pixel(f, TX + x, TY + y), tinted[y][x], 2, "same text, other atlas");
}

static void test_a_frame_clears_every_pixel_to_the_opaque_background(void **state)
{
    /* The software renderer's frame is cleared by one triangle over the output: it must reach every
     * pixel, corners and edges included, as a clear does. */
    Fixture *f = *state;
    SDL_FillRect(f->surface, NULL, SDL_MapRGBA(f->surface->format, 200, 10, 10, 7));
    f->frame.camera.center_x += 5000; /* nothing of the world in view */
    draw(f);
    assert_int_equal(drawn_pixels(f), 0);
    for (int y = 0; y < H; y += H - 1)
        for (int x = 0; x < W; x += W - 1) assert_int_equal(pixel(f, x, y).a, 255);
}

static void test_culling_keeps_what_the_output_shows_beyond_the_camera_frame(void **state)
{
    /* A caller whose camera frame is smaller than the output still sees what lies past the frame's
     * edge on the output: it must not be culled. */
    Fixture *f = *state;
    f->frame.camera = (SteerCamera){0.25 * W, 0.25 * H, 1.0, W / 2, H / 2}; /* world = screen, a half-size frame */
    vehicle(f, 0.75 * W, 0.75 * H, 0, 0, 3);
    draw(f);
    assert_color_near(pixel(f, (int)(0.75 * W) + 2, (int)(0.75 * H)), steer_render_kind_color(3), 0,
                      "past the frame, on the output");
}

/// Vehicles of every size from a speck to 40 units, every heading, some across the output's edges,
/// one translucent (that one always goes through SDL).
static void crowd(Fixture *f)
{
    uint64_t seed = 12345;
    for (int i = 0; i < 400; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        double u = (double)(seed >> 11) / 9007199254740992.0, v = (double)((seed >> 7) & 0xffff) / 65536.0;
        double w = (double)((seed >> 23) & 0xffff) / 65536.0, angle = 6.2831853 * w;
        SteerVehicleDef def = steer_default_vehicle_def();
        def.position = steer_vec2(-30 + (W + 60) * u, -30 + (H + 60) * v);
        def.velocity = steer_vec2(cos(angle), sin(angle));
        def.radius = 0.3 + 40.0 * u * v * w;
        def.kind = (uint32_t)(i % 5);
        if (i == 7) def.color = 0x80ff80a0u;
        SteerVehicleId id;
        assert_int_equal(steer_vehicle_create(f->world, &def, &id), STEER_OK);
    }
}

static void test_vehicles_filled_into_the_surface_match_sdl_pixel_for_pixel(void **state)
{
    /* With the surface named, opaque vehicles are filled straight into it rather than by SDL's
     * triangles: the same pixels, at any zoom, whatever the corners' fractions. */
    Fixture *f = *state;
    crowd(f);
    static const double zooms[] = {1.0, 0.37, 1.93, 4.1};
    size_t bytes = (size_t)f->surface->pitch * H;
    Uint8 *through_sdl = malloc(bytes);
    assert_non_null(through_sdl);
    int differ = 0, first_x = -1, first_y = -1, first_zoom = 0;
    unsigned long through_sdl_filled = 0, filled[4];
    for (int z = 0; z < 4; z++) {
        /* centres off the pixel grid, so that corners fall on every fraction */
        f->frame.camera = (SteerCamera){0.5 * W + 0.3 * z, 0.5 * H - 0.7 * z, zooms[z], W, H};
        steer_render_set_surface(f->render, NULL);
        unsigned long before = f->render->raster.filled;
        draw(f);
        through_sdl_filled += f->render->raster.filled - before;
        memcpy(through_sdl, f->surface->pixels, bytes);
        steer_render_set_surface(f->render, f->surface);
        draw(f);
        filled[z] = f->render->raster.filled - before;
        for (int y = 0; y < H; y++) {
            const Uint32 *a = (const Uint32 *)(through_sdl + (size_t)y * f->surface->pitch);
            const Uint32 *b = (const Uint32 *)((const Uint8 *)f->surface->pixels + (size_t)y * f->surface->pitch);
            for (int x = 0; x < W; x++)
                if (a[x] != b[x] && differ++ == 0) first_x = x, first_y = y, first_zoom = z;
        }
    }
    free(through_sdl);
    if (differ)
        fail_msg("%d pixels differ from SDL's, the first (%d, %d) at zoom %.2f", differ, first_x, first_y,
                 zooms[first_zoom]);
    assert_int_equal(through_sdl_filled, 0);                      /* without the surface, everything went through SDL */
    for (int z = 0; z < 4; z++) assert_true(filled[z] >= 2 * 25); /* rim and fill of every vehicle in view */
}

static void test_vehicles_go_through_sdl_under_a_scale_or_a_clip(void **state)
{
    /* Where SDL would not draw at the coordinates given (a scale, a clip rectangle), vehicles go
     * through SDL even with the surface named. */
    Fixture *f = *state;
    crowd(f);
    steer_render_set_surface(f->render, f->surface);
    SDL_RenderSetScale(f->sdl, 2.0f, 2.0f);
    draw(f);
    SDL_RenderSetScale(f->sdl, 1.0f, 1.0f);
    SDL_RenderSetClipRect(f->sdl, &(SDL_Rect){10, 10, 100, 100});
    draw(f);
    assert_int_equal(f->render->raster.filled, 0);
    SDL_RenderSetClipRect(f->sdl, NULL);
    draw(f);
    assert_true(f->render->raster.filled > 0);
}

static void test_a_software_renderer_on_a_window_fills_into_the_window_surface(void **state)
{
    /* The program's window uses the software renderer: vehicles go straight into the window's
     * surface without the caller naming it, with SDL's pixels (a clip rectangle over the whole
     * output sends them through SDL for the reference). */
    Fixture *f = *state;
    crowd(f);
    SDL_Window *window = SDL_CreateWindow("test", 0, 0, W, H, SDL_WINDOW_HIDDEN);
    assert_non_null(window);
    SDL_Renderer *sdl = SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE);
    assert_non_null(sdl);
    SteerRender *render = steer_render_create(sdl, RENDER_FONT, 12);
    assert_non_null(render);
    static Uint32 through_sdl[W * H], direct[W * H];
    SDL_RenderSetClipRect(sdl, &(SDL_Rect){0, 0, W, H});
    steer_render_world(render, f->world, &f->frame);
    unsigned long filled_through_sdl = render->raster.filled;
    assert_int_equal(SDL_RenderReadPixels(sdl, NULL, SDL_PIXELFORMAT_ARGB8888, through_sdl, 4 * W), 0);
    SDL_RenderSetClipRect(sdl, NULL);
    steer_render_world(render, f->world, &f->frame);
    unsigned long filled = render->raster.filled;
    assert_int_equal(SDL_RenderReadPixels(sdl, NULL, SDL_PIXELFORMAT_ARGB8888, direct, 4 * W), 0);
    steer_render_destroy(render);
    SDL_DestroyRenderer(sdl);
    SDL_DestroyWindow(window);
    assert_int_equal(filled_through_sdl, 0);
    assert_true(filled > 300);
    assert_memory_equal(through_sdl, direct, sizeof direct);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_vehicle_drawn_in_its_kind_colour_where_it_is, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_colour_word_overrides_the_kind_palette, setup, render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_obstacle_is_a_filled_circle, setup, render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_wall_and_its_normal, setup, render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_selected_vehicle_has_a_ring, setup, render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_interpolation_halfway_between_capture_and_step, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_an_empty_world_captures_and_draws, setup, render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_no_interpolation_across_a_wrapping_edge, setup, render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_each_overlay_draws_only_when_enabled, setup, render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_error_panel_covers_the_bottom_in_red, setup, render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_error_panel_above_leaves_the_bottom_rows_free, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_hud_text_and_help_draw_on_panels, setup, render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_inspector_panel_at_the_top_right, setup, render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_camera_round_trips_and_zoom_keeps_the_cursor_point, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_camera_fit_band_keeps_the_world_off_the_panels, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_png_is_saved_and_reads_back, setup, render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_warm_frames_do_not_grow_buffers, setup, render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_create_fails_clearly_on_a_missing_font, setup, render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_script_primitives_use_the_last_frame_camera, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_non_ascii_text_draws_one_placeholder_per_character, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_error_panel_wraps_long_lines, setup, render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_vehicle_has_a_darker_rim_along_its_edges, setup, render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_small_dots_cover_the_pixels_of_their_scanlines, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_off_screen_content_queues_nothing_and_edges_still_draw, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_overlay_strokes_draw_one_layer_per_colour, setup, render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_text_in_the_common_colour_matches_modulated_text, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_a_frame_clears_every_pixel_to_the_opaque_background, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_culling_keeps_what_the_output_shows_beyond_the_camera_frame, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_vehicles_filled_into_the_surface_match_sdl_pixel_for_pixel, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_vehicles_go_through_sdl_under_a_scale_or_a_clip, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_a_software_renderer_on_a_window_fills_into_the_window_surface, setup,
                                        render_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
