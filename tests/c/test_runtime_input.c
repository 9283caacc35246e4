/* SPDX-License-Identifier: MIT */
/* test_runtime_input.c - the program's event path, in-process: SDL events fed to app_handle_event
 * (the function the window's loop calls) on a real scene, then the effect checked: pause, single
 * step and time scale through app_frame, overlays, restart, selection, zoom, pan, and what the
 * scene's keypressed / mousepressed / mousemoved receive; and the help overlay: the key table,
 * then the keys the scene declares in its `keys` table. */
#include "runtime_support.h"

#include <math.h>

#include <lua.h>

#include "app.h"
#include "steer_lua.h"

static const char *SCENE =
    "local steer = require 'steer'\n"
    "world = { width = 400, height = 300, seed = 4 }\n"
    "events = {}\n"
    "function load(w)\n"
    "  A = w:spawn{ kind = 'a', x = 100, y = 100 }\n"
    "  B = w:spawn{ kind = 'b', x = 300, y = 200 }\n"
    "end\n"
    "function keypressed(key) events[#events + 1] = 'key ' .. key end\n"
    "function mousepressed(x, y, b) events[#events + 1] = string.format('press %.1f %.1f %d', x, y, b) end\n"
    "function mouse_text()\n"
    "  local n, x, y = select('#', steer.mouse()), steer.mouse()\n"
    "  return x == nil and string.format('nil (%d value)', n) or string.format('%.1f %.1f', x, y)\n"
    "end\n"
    "function mousemoved(x, y)\n"
    "  local mx, my = steer.mouse()\n"
    "  events[#events + 1] = string.format('move %.1f %.1f mouse %.1f %.1f', x, y, mx, my)\n"
    "end\n";

static App app;

static int setup(void **state)
{
    rt_setup(state);
    rt_write("input.lua", SCENE);
    AppOptions opt = options_default();
    opt.headless = true;
    opt.width = 800;
    opt.height = 600;
    opt.script = rt_path("input.lua");
    return app_init(&app, &opt, NULL);
}

static int teardown(void **state)
{
    app_shutdown(&app);
    return rt_teardown(state);
}

static void key(SDL_Keycode sym, Uint16 mod) { app_feed_key(&app, sym, mod); }
static void mouse_button(Uint32 type, Uint8 button, int x, int y) { app_feed_button(&app, type, button, x, y); }
static void mouse_move(int x, int y) { app_feed_motion(&app, x, y); }
static void wheel(int y) { app_feed_wheel(&app, y); }

/* Pushes the scene's global `name` (scenes keep their globals in their own environment). */
static void push_scene_global(const char *name) { script_push_global(app.session.host, name); }

/* The scene's events list, joined with '|'. */
static const char *events(void)
{
    static char buf[2048];
    lua_State *L = script_state(app.session.host);
    push_scene_global("events");
    buf[0] = '\0';
    size_t len = 0;
    for (lua_Integer i = 1; i <= (lua_Integer)lua_rawlen(L, -1); i++) {
        lua_rawgeti(L, -1, i);
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i > 1 ? "|" : "", lua_tostring(L, -1));
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return buf;
}

static SteerVehicleId vehicle(const char *global)
{
    lua_State *L = script_state(app.session.host);
    push_scene_global(global);
    SteerVehicleId id;
    assert_true(steer_lua_to_vehicle(L, -1, &id));
    lua_pop(L, 1);
    return id;
}

static void screen_of(double wx, double wy, int *sx, int *sy)
{
    double x, y;
    steer_camera_to_screen(&app.camera, wx, wy, &x, &y);
    *sx = (int)lround(x);
    *sy = (int)lround(y);
}

static long long steps_after_frame(double seconds)
{
    long long before = app.session.steps;
    app_frame(&app, seconds);
    return app.session.steps - before;
}

static void test_space_pauses_and_period_steps_once_through_the_frame_path(void **state)
{
    (void)state;
    assert_int_equal(steps_after_frame(1.0 / 60.0), 1);
    key(SDLK_SPACE, 0);
    assert_true(app.paused);
    assert_int_equal(steps_after_frame(0.5), 0);
    key(SDLK_PERIOD, 0);
    assert_int_equal(steps_after_frame(0.5), 1);
    assert_int_equal(steps_after_frame(0.5), 0); /* one step, still paused */
    assert_true(app.paused);
    key(SDLK_SPACE, 0);
    assert_false(app.paused);
    assert_int_equal(steps_after_frame(1.0 / 60.0), 1);
    assert_string_equal(events(), ""); /* the runtime's keys do not reach the script */
}

static void test_minus_and_equals_scale_time_from_quarter_to_eight(void **state)
{
    (void)state;
    key(SDLK_MINUS, 0);
    assert_near(app_time_scale(&app), 0.5, 0);
    assert_int_equal(steps_after_frame(2.0 / 60.0), 1);
    for (int i = 0; i < 5; i++) key(SDLK_MINUS, 0);
    assert_near(app_time_scale(&app), 0.25, 0);
    for (int i = 0; i < 9; i++) key(SDLK_EQUALS, 0);
    assert_near(app_time_scale(&app), 8.0, 0);
    assert_int_equal(steps_after_frame(1.0 / 60.0), 8);
    /* the simulated time stays a whole number of fixed steps */
    assert_near(steer_world_time(script_world(app.session.host)), (double)app.session.steps / 60.0, 1e-9);
}

static void test_function_keys_toggle_overlays_help_and_restart(void **state)
{
    (void)state;
    const struct {
        SDL_Keycode key;
        unsigned bit;
    } map[] = {
        {SDLK_F2, STEER_OVERLAY_WANDER}, {SDLK_F3, STEER_OVERLAY_AVOIDANCE},   {SDLK_F4, STEER_OVERLAY_NEIGHBORS},
        {SDLK_F6, STEER_OVERLAY_FORCES}, {SDLK_F7, STEER_OVERLAY_STATES},      {SDLK_F8, STEER_OVERLAY_PATHS},
        {SDLK_F9, STEER_OVERLAY_GRID},   {SDLK_F12, STEER_OVERLAY_NAVIGATION}, {SDLK_F11, STEER_OVERLAY_SENSES},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        key(map[i].key, 0);
        assert_int_equal(app.overlays, map[i].bit);
        key(map[i].key, 0);
        assert_int_equal(app.overlays, 0);
    }
    key(SDLK_F1, 0);
    assert_true(app.show_help);
    for (int i = 0; i < 30; i++) app_frame(&app, 1.0 / 60.0);
    assert_near(steer_world_time(script_world(app.session.host)), 0.5, 1e-9);
    key(SDLK_F5, 0);
    app_frame(&app, 0.0);
    assert_near(steer_world_time(script_world(app.session.host)), 0.0, 0); /* a fresh world */
    assert_int_equal(steer_world_vehicle_count(script_world(app.session.host)), 2);
    key(SDLK_q, 0);
    assert_false(app.quit);
    key(SDLK_q, KMOD_LCTRL);
    assert_true(app.quit);
}

/* A reload that changes world = {...} waits for a restart: stderr said so, which a window does not
 * show, so the change seemed ignored. The HUD says it until F5 makes the world again. */
static void test_the_hud_says_changed_world_options_wait_for_the_restart_key(void **state)
{
    (void)state;
    assert_string_equal(hud_status_line(&app), "x1   F1 help");
    char *text = rt_read(rt_path("input.lua"));
    char *at = strstr(text, "width = 400");
    assert_non_null(at);
    memcpy(at, "width = 500", 11);
    rt_write("input.lua", text);
    free(text);
    char path[1024];
    snprintf(path, sizeof path, "%s", rt_path("input.lua"));
    assert_int_equal(script_reload_file(app.session.host, path), SCRIPT_RELOAD_OK);
    assert_near(steer_world_width(script_world(app.session.host)), 400, 0); /* the world as it was */
    assert_string_equal(hud_status_line(&app), "x1   F1 help   world options changed: F5 applies them");
    key(SDLK_SPACE, 0);
    assert_string_equal(hud_status_line(&app), "x1   PAUSED   F1 help   world options changed: F5 applies them");
    key(SDLK_SPACE, 0);
    key(SDLK_F5, 0);
    app_frame(&app, 0.0);
    assert_near(steer_world_width(script_world(app.session.host)), 500, 0);
    assert_string_equal(hud_status_line(&app), "x1   F1 help");
}

/* The HUD's frame line says where a frame's time goes, by part, and the parts with "other" make up
 * the frame (each figure rounded to 0.1 ms). Numbers are measured, so only their sum is checked. */
static void test_the_hud_says_where_the_frame_goes(void **state)
{
    (void)state;
    for (int i = 0; i < 30; i++) app_frame(&app, 1.0 / 60.0);
    const char *line = hud_frame_line(&app);
    double frame, physics, lua, draw, present, idle, other;
    int got = sscanf(line, "frame %lf ms: physics %lf Lua %lf draw %lf present %lf idle %lf other %lf", &frame,
                     &physics, &lua, &draw, &present, &idle, &other);
    if (got != 7) fail_msg("the frame line reads '%s'", line);
    double parts[] = {physics, lua, draw, present, idle, other};
    for (int i = 0; i < 6; i++) assert_true(parts[i] >= 0.0);
    assert_true(fabs(physics + lua + draw + present + idle + other - frame) <= 0.35);
}

static void test_other_keys_reach_the_script_with_love_names(void **state)
{
    (void)state;
    key(SDLK_a, 0);
    key(SDLK_F10, 0);
    key(SDLK_LSHIFT, 0);
    key(SDLK_RETURN, 0);
    key(SDLK_UP, 0);
    key(SDLK_3, 0);
    assert_string_equal(events(), "key a|key f10|key lshift|key return|key up|key 3");
}

static void test_left_click_selects_the_vehicle_under_the_cursor_else_goes_to_the_script(void **state)
{
    (void)state;
    int sx, sy;
    screen_of(300, 200, &sx, &sy);
    mouse_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, sx + 2, sy - 2);
    SteerVehicleId b = vehicle("B");
    assert_int_equal(app.selected.index1, b.index1);
    assert_string_equal(events(), "");
    /* far from every vehicle: deselects and the script gets world coordinates, LÖVE button 1 */
    screen_of(200, 50, &sx, &sy);
    mouse_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, sx, sy);
    assert_int_equal(app.selected.index1, 0);
    assert_string_equal(events(), "press 200.0 50.0 1");
}

static void test_right_click_middle_click_and_right_drag_pan(void **state)
{
    (void)state;
    int sx, sy;
    screen_of(150, 120, &sx, &sy);
    mouse_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_RIGHT, sx, sy);
    mouse_button(SDL_MOUSEBUTTONUP, SDL_BUTTON_RIGHT, sx, sy);
    mouse_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_MIDDLE, sx, sy);
    double wx, wy;
    steer_camera_to_world(&app.camera, sx, sy, &wx, &wy); /* the pixel's world point */
    char expect[128];
    snprintf(expect, sizeof expect, "press %.1f %.1f 2|press %.1f %.1f 3", wx, wy, wx, wy);
    assert_string_equal(events(), expect);
    assert_near(wx, 150.0, 1.0 / app.camera.zoom);

    double cx = app.camera.center_x, cy = app.camera.center_y, zoom = app.camera.zoom;
    mouse_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_RIGHT, 400, 300);
    mouse_move(420, 300);
    mouse_move(450, 340);
    mouse_button(SDL_MOUSEBUTTONUP, SDL_BUTTON_RIGHT, 450, 340);
    /* the world follows the cursor: the camera centre moves the other way, in world units */
    assert_near(app.camera.center_x, cx - 50.0 / zoom, 1e-9);
    assert_near(app.camera.center_y, cy - 40.0 / zoom, 1e-9);
    assert_int_equal(rt_count(events(), "press"), 2); /* a drag is not a click */
}

static void test_wheel_zooms_keeping_the_point_under_the_cursor(void **state)
{
    (void)state;
    mouse_move(200, 150);
    double wx0, wy0;
    steer_camera_to_world(&app.camera, 200, 150, &wx0, &wy0);
    double zoom = app.camera.zoom;
    wheel(2);
    assert_true(app.camera.zoom > zoom * 1.2);
    double wx1, wy1;
    steer_camera_to_world(&app.camera, 200, 150, &wx1, &wy1);
    assert_near(wx1, wx0, 1e-6);
    assert_near(wy1, wy0, 1e-6);
    wheel(-2);
    assert_near(app.camera.zoom, zoom, 1e-9);
}

/* What the scene's mouse_text() says: steer.mouse()'s values, or how many values it gave with nil. */
static const char *mouse_text(void)
{
    static char buf[128];
    lua_State *L = script_state(app.session.host);
    push_scene_global("mouse_text");
    assert_int_equal(lua_pcall(L, 0, 1, 0), LUA_OK);
    snprintf(buf, sizeof buf, "%s", lua_tostring(L, -1));
    lua_pop(L, 1);
    return buf;
}

static void test_mouse_motion_reaches_the_script_in_world_coordinates_and_steer_mouse(void **state)
{
    (void)state;
    assert_string_equal(mouse_text(), "nil (1 value)"); /* no pointer event yet: not 0, 0 */
    app_frame(&app, 1.0 / 60.0);
    assert_string_equal(mouse_text(), "nil (1 value)");
    int sx, sy;
    screen_of(250, 75, &sx, &sy);
    mouse_move(sx, sy);
    assert_string_equal(events(), "move 250.0 75.0 mouse 250.0 75.0");
    screen_of(0, 0, &sx, &sy);
    mouse_move(sx, sy); /* the world's corner: 0, 0 is a real position, not "none" */
    assert_string_equal(mouse_text(), "0.0 0.0");
    /* the view zooms under the still pointer: from the next frame steer.mouse() is the world point
     * now under it (the point the next click would give), not where it was before the zoom */
    screen_of(200, 150, &sx, &sy);
    mouse_move(sx, sy);
    wheel(3);
    app_frame(&app, 1.0 / 60.0);
    double wx, wy;
    steer_camera_to_world(&app.camera, sx, sy, &wx, &wy);
    char want[64];
    snprintf(want, sizeof want, "%.1f %.1f", wx, wy);
    assert_string_equal(mouse_text(), want);
    mouse_move(sx + 40, sy); /* and a pan (right-drag) moves the world under it too */
    mouse_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_RIGHT, sx + 40, sy);
    mouse_move(sx + 10, sy + 20);
    mouse_button(SDL_MOUSEBUTTONUP, SDL_BUTTON_RIGHT, sx + 10, sy + 20);
    app_frame(&app, 1.0 / 60.0);
    steer_camera_to_world(&app.camera, sx + 10, sy + 20, &wx, &wy);
    snprintf(want, sizeof want, "%.1f %.1f", wx, wy);
    assert_string_equal(mouse_text(), want);
}

/* A second App on a scene of its own (the fixture's `app` stays as setup made it). */
static App other;

static int open_other(const char *name, const char *scene)
{
    rt_write(name, scene);
    AppOptions opt = options_default();
    opt.headless = true;
    opt.script = rt_path(name);
    return app_init(&other, &opt, NULL);
}

/* The help overlay's lines joined with '\n'. */
static const char *help_text(App *a)
{
    static char buf[8192];
    const char *const *lines;
    int n = hud_help_lines(a, &lines);
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) len += (size_t)snprintf(buf + len, sizeof buf - len, "%s\n", lines[i]);
    return buf;
}

static void test_help_lists_the_key_table_then_the_scenes_keys(void **state)
{
    (void)state;
    /* the fixture's scene declares none: the program's keys, then the footer, nothing more */
    const char *plain = help_text(&app);
    assert_non_null(strstr(plain, "Space       pause / resume (alt. Ctrl+Space)\n"));
    assert_non_null(strstr(plain, "F2          wander circles and targets\n"));
    assert_non_null(strstr(plain, "Ctrl+Q      quit\nScripts reload when saved; errors show below.\n"));
    assert_null(strstr(plain, "input.lua"));

    /* a scene of globals: its list, in its order, under the program's; a key the runtime owns is
     * marked, since the scene never receives it; a key with an alternative is the scene's, and the
     * program's row names the alternative */
    assert_int_equal(open_other("keyed.lua", "keys = { {'a', 'adds an event'}, {'space', 'pauses the hunt'},\n"
                                             "         {'f2', 'nothing'}, {'left click', 'drops a rock'} }\n"),
                     0);
    const char *text = help_text(&other);
    assert_non_null(strstr(text, "errors show below.\n\nkeyed.lua:\n"
                                 "a           adds an event\n"
                                 "space       pauses the hunt\n"
                                 "f2          nothing  (the runtime's key: the scene never gets it)\n"
                                 "left click  drops a rock\n"));
    assert_non_null(strstr(text, "Ctrl+Space  pause / resume  (Space is the scene's)\n"));
    app_shutdown(&other);

    /* a scene that returns a table, with a key longer than the program's: the column widens */
    assert_int_equal(open_other("table.lua", "return { keys = { {'shift + wheel', 'nothing at all'} } }\n"), 0);
    text = help_text(&other);
    assert_non_null(strstr(text, "Space          pause / resume (alt. Ctrl+Space)\n"));
    assert_non_null(strstr(text, "table.lua:\nshift + wheel  nothing at all\n"));
    app_shutdown(&other);
}

static void test_a_reload_changes_the_scenes_keys_and_a_bad_one_keeps_them(void **state)
{
    (void)state;
    assert_int_equal(open_other("keyed.lua", "keys = { {'a', 'first'} }\n"), 0);
    int count;
    const ScriptKey *keys = script_scene_keys(other.session.host, &count);
    assert_int_equal(count, 1);
    assert_string_equal(keys[0].text, "first");
    rt_write("keyed.lua", "keys = { {'a', 'second'}, {'b', 'new'} }\n");
    assert_int_equal(script_reload_file(other.session.host, rt_path("keyed.lua")), SCRIPT_RELOAD_OK);
    keys = script_scene_keys(other.session.host, &count);
    assert_int_equal(count, 2);
    assert_string_equal(keys[0].text, "second");
    assert_string_equal(keys[1].key, "b");
    /* a map is the wrong form: the reload fails, the old code and the old list stay */
    rt_write("keyed.lua", "keys = { a = 'third' }\n");
    assert_int_equal(script_reload_file(other.session.host, rt_path("keyed.lua")), SCRIPT_RELOAD_FAILED);
    assert_non_null(strstr(script_error(other.session.host), "keyed.lua: 'keys' must be a list of {key, text} pairs"));
    assert_non_null(strstr(script_error(other.session.host), "got a field 'a'"));
    keys = script_scene_keys(other.session.host, &count);
    assert_int_equal(count, 2);
    assert_string_equal(keys[0].text, "second");
    app_shutdown(&other);
}

/* What script_create says about a scene with these keys (NULL when it loads). */
static const char *keys_error(const char *keys)
{
    static char error[8192];
    char scene[512];
    snprintf(scene, sizeof scene, "keys = %s\n", keys);
    rt_write("bad.lua", scene);
    ScriptConfig c = {
        .scene_path = rt_path("bad.lua"),
        .run = {.think_hz = RUN_THINK_HZ_SCENE, .time_budget_ms = 20000.0, .memory_cap = (size_t)256 << 20}};
    ScriptHost *host = script_create(&c, error, sizeof error);
    if (host) {
        script_destroy(host);
        return NULL;
    }
    return error;
}

static void test_malformed_keys_stop_the_scene_with_a_clear_message(void **state)
{
    (void)state;
    assert_null(keys_error("{}"));
    assert_null(keys_error("nil"));
    assert_non_null(strstr(keys_error("'h'"), "bad.lua: 'keys' must be a list of {key, text} pairs"));
    assert_non_null(strstr(keys_error("'h'"), "got string"));
    assert_non_null(strstr(keys_error("{ {'h', 'hunter'}, {'p'} }"),
                           "bad.lua: keys[2] must be a {key, text} pair of strings, got {string, nil}"));
    assert_non_null(
        strstr(keys_error("{ 'h' }"), "bad.lua: keys[1] must be a {key, text} pair of strings, got string"));
    assert_non_null(strstr(keys_error("{ {'h', 1} }"), "got {string, number}"));
    assert_non_null(strstr(keys_error("{ space = 'pause' }"), "got a field 'space'"));
    assert_non_null(strstr(keys_error("{ [0] = {'h', 'x'} }"), "got a number key"));
    char many[4096] = "{";
    for (int i = 0; i <= SCRIPT_MAX_SCENE_KEYS; i++) strcat(many, " {'k', 'x'},");
    strcat(many, " }");
    assert_non_null(strstr(keys_error(many), "bad.lua: 'keys' lists 33 keys, the help shows at most 32"));
}

/* F5 closes the old Lua state, which runs its finalizers with hooks off: one that never returns
 * is ended by the watchdog (exit 4), as at exit, instead of hanging the window. The watchdog ends
 * the process, and its timers are not inherited across fork(): this test binary runs the restart
 * again as a fresh process (restart_in_fresh_process). */
static int restart_in_fresh_process(const char *scene)
{
    AppOptions opt = options_default();
    opt.headless = true;
    opt.script = scene;
    App stuck;
    if (app_init(&stuck, &opt, NULL) != 0) return 99;
    app_restart(&stuck);
    return 0; /* the restart returned: the finalizer was not run, or not bounded */
}

static void test_a_finalizer_that_never_returns_at_a_restart_ends_the_program(void **state)
{
    (void)state;
    rt_write("stuck.lua", "function load(w)\n"
                          "  keep = setmetatable({}, { __gc = function() while true do end end })\n"
                          "end\n");
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execl("/proc/self/exe", "test_runtime_input", "--restart", rt_path("stuck.lua"), (char *)NULL);
        _exit(98);
    }
    RtProcess child = {.pid = pid}; /* rt_wait kills and fails a regression that would spin for ever */
    assert_int_equal(rt_wait(&child), 4);
}

/* The same scene with something to draw on (a headless screenshot's renderer): the inspector's
 * plots' history exists. */
static int setup_drawn_sized(void **state, int width, int height)
{
    rt_setup(state);
    rt_write("input.lua", SCENE);
    AppOptions opt = options_default();
    opt.headless = true;
    opt.width = width;
    opt.height = height;
    opt.script = rt_path("input.lua");
    opt.screenshot = rt_path("never.png");
    return app_init(&app, &opt, NULL);
}

static int setup_drawn(void **state) { return setup_drawn_sized(state, 800, 600); }

static void test_the_selected_vehicle_alone_is_sampled_for_the_plots(void **state)
{
    (void)state;
    assert_non_null(app.history);
    SteerWorld *w = script_world(app.session.host);
    SteerVehicleId a = vehicle("A"), b = vehicle("B");
    for (int i = 0; i < 10; i++) app_frame(&app, 1.0 / 60.0);
    assert_int_equal(app.history->count, 0); /* nothing selected: nothing sampled */
    /* a click while paused: the first sample is taken when the inspector is drawn */
    key(SDLK_SPACE, 0);
    int sx, sy;
    screen_of(300, 200, &sx, &sy);
    mouse_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, sx, sy);
    assert_int_equal(app.selected.index1, b.index1);
    app_render(&app, 1.0);
    assert_true(app.history->serial == steer_vehicle_serial(w, b));
    assert_int_equal(app.history->count, 1);
    app_render(&app, 1.0); /* drawing again adds nothing: no time passed */
    assert_int_equal(app.history->count, 1);
    /* running: one sample per step, of B only */
    key(SDLK_SPACE, 0);
    long long steps = 0;
    for (int i = 0; i < 30; i++) steps += steps_after_frame(1.0 / 60.0);
    assert_int_equal(app.history->count, 1 + steps);
    assert_true(app.history->time[app.history->count - 1] == steer_world_time(w));
    /* another vehicle starts afresh */
    screen_of(100, 100, &sx, &sy);
    mouse_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, sx, sy);
    assert_int_equal(app.selected.index1, a.index1);
    app_frame(&app, 1.0 / 60.0);
    assert_true(app.history->serial == steer_vehicle_serial(w, a));
    assert_int_equal(app.history->count, 1);
    /* F5: a new world, whose serials start again at 1: the old samples are gone */
    key(SDLK_F5, 0);
    app_frame(&app, 0.0);
    assert_int_equal(app.history->count, 0);
    assert_true(app.history->serial == 0);
}

static int setup_drawn_1024(void **state) { return setup_drawn_sized(state, 1024, 768); }

/* Where the world's right edge is on the screen. */
static double world_right_px(void)
{
    double sx, sy;
    steer_camera_to_screen(&app.camera, 400, 150, &sx, &sy);
    return sx;
}

/* The inspector's column at the top right hid the world's top-right corner: while a vehicle is
 * selected, the fitted world moves left of it, and back when none is; a view the user zoomed (or
 * panned) is the user's and stays as it is. */
static void test_the_fitted_world_makes_room_for_the_inspector_while_a_vehicle_is_selected(void **state)
{
    (void)state;
    int column_left = 1024 - steer_render_inspector_column(app.render);
    app_render(&app, 1.0);
    SteerCamera fitted = app.camera;
    assert_true(world_right_px() > column_left); /* (the 400 x 300 world fills the band's width) */
    int sx, sy;
    screen_of(300, 200, &sx, &sy);
    mouse_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, sx, sy);
    assert_int_equal(app.selected.index1, vehicle("B").index1);
    app_render(&app, 1.0);
    assert_true(world_right_px() <= column_left);
    double lx, ty;
    steer_camera_to_screen(&app.camera, 0, 0, &lx, &ty);
    assert_true(lx >= 0 && ty >= steer_render_hud_bottom(app.render, APP_FIT_HUD_LINES));
    assert_true(app.camera.zoom > 0.5 * fitted.zoom); /* smaller, not lost */
    /* and the selected vehicle itself is left of the column */
    screen_of(300, 200, &sx, &sy);
    assert_true(sx < column_left);
    /* a click beside every vehicle: nothing selected, the whole band again */
    screen_of(200, 20, &sx, &sy);
    mouse_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, sx, sy);
    assert_int_equal(app.selected.index1, 0);
    app_render(&app, 1.0);
    assert_memory_equal(&app.camera, &fitted, sizeof fitted);
    /* zoomed by the user: selecting leaves the view alone */
    mouse_move(512, 384);
    wheel(1);
    SteerCamera zoomed = app.camera;
    screen_of(300, 200, &sx, &sy);
    mouse_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, sx, sy);
    assert_int_equal(app.selected.index1, vehicle("B").index1);
    app_render(&app, 1.0);
    assert_memory_equal(&app.camera, &zoomed, sizeof zoomed);
}

static void resize(int w, int h)
{
    SDL_Event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = SDL_WINDOWEVENT;
    ev.window.event = SDL_WINDOWEVENT_SIZE_CHANGED;
    ev.window.data1 = w;
    ev.window.data2 = h;
    app_handle_event(&app, &ev);
}

/* A resized window kept the world at its old size: cut off in a smaller window, small in the middle
 * of a bigger one. The fitted view fits the new size (beside the inspector while one is shown); a
 * view the user zoomed stays as it is. */
static void test_a_resized_window_refits_the_fitted_world(void **state)
{
    (void)state;
    double zoom = app.camera.zoom, sx0, sy0, sx1, sy1;
    resize(1600, 1000);
    assert_int_equal(app.camera.width, 1600);
    assert_true(app.camera.zoom > 1.2 * zoom);
    steer_camera_to_screen(&app.camera, 0, 0, &sx0, &sy0);
    steer_camera_to_screen(&app.camera, 400, 300, &sx1, &sy1);
    assert_true(sx0 >= 0 && sx1 <= 1600 && sy0 >= steer_render_hud_bottom(app.render, APP_FIT_HUD_LINES));
    assert_true(sy1 <= 1000 && sy1 - sy0 > 0.9 * (1000 - sy0)); /* the height limits it and it fills it */
    resize(500, 400);
    steer_camera_to_screen(&app.camera, 400, 300, &sx1, &sy1);
    assert_true(sx1 <= 500 && sy1 <= 400);
    /* selected: beside the inspector in the new size too */
    resize(1600, 1000);
    int sx, sy;
    screen_of(300, 200, &sx, &sy);
    mouse_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, sx, sy);
    app_render(&app, 1.0);
    assert_true(world_right_px() <= 1600 - steer_render_inspector_column(app.render));
    /* zoomed by the user: a resize keeps the zoom and the centre */
    wheel(1);
    SteerCamera zoomed = app.camera;
    resize(1200, 900);
    assert_true(app.camera.zoom == zoomed.zoom);
    assert_true(app.camera.center_x == zoomed.center_x && app.camera.center_y == zoomed.center_y);
    assert_int_equal(app.camera.width, 1200);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--restart") == 0) return restart_in_fresh_process(argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_space_pauses_and_period_steps_once_through_the_frame_path, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_minus_and_equals_scale_time_from_quarter_to_eight, setup, teardown),
        cmocka_unit_test_setup_teardown(test_function_keys_toggle_overlays_help_and_restart, setup, teardown),
        cmocka_unit_test_setup_teardown(test_the_hud_says_changed_world_options_wait_for_the_restart_key, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_the_hud_says_where_the_frame_goes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_other_keys_reach_the_script_with_love_names, setup, teardown),
        cmocka_unit_test_setup_teardown(test_left_click_selects_the_vehicle_under_the_cursor_else_goes_to_the_script,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_right_click_middle_click_and_right_drag_pan, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wheel_zooms_keeping_the_point_under_the_cursor, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mouse_motion_reaches_the_script_in_world_coordinates_and_steer_mouse,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_finalizer_that_never_returns_at_a_restart_ends_the_program, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_help_lists_the_key_table_then_the_scenes_keys, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_reload_changes_the_scenes_keys_and_a_bad_one_keeps_them, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_malformed_keys_stop_the_scene_with_a_clear_message, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_the_selected_vehicle_alone_is_sampled_for_the_plots, setup_drawn,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_the_fitted_world_makes_room_for_the_inspector_while_a_vehicle_is_selected,
                                        setup_drawn_1024, teardown),
        cmocka_unit_test_setup_teardown(test_a_resized_window_refits_the_fitted_world, setup_drawn_1024, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
