/* SPDX-License-Identifier: MIT */
/* test_runtime_scene.c - how the program runs a scene, mostly end to end with the real program on
 * real files: the scene's globals live in an environment of their own (so its `load` never hides
 * Lua's from the modules it requires) that survives reloads of the scene; --seed seeds math.random
 * too, and an F5 restart (in-process, as the window's key does it) reseeds it; the fsm library's
 * errors name the scene's file:line; a kind's colour depends on its name only; the README's first
 * scene survives a save while it runs; a misnamed callback is warned about; a reload that changes
 * the world options says they wait for a restart; a scene reaches none of the program's memory
 * (protected metatables, a debug library that only reads Lua code). */
#include "runtime_support.h"

#include <math.h>

#include <lua.h>

#include "app.h"

/* A module in the style of a serialisation library: it calls Lua's load() at its top level and
 * later, from inside the scene's callbacks. */
static const char *SERIAL = "local M = {}\n"
                            "M.top = load('return 1')()\n"
                            "function M.eval(s) return load('return ' .. s)() end\n"
                            "return M\n";

static const char *GLOBAL_SCENE = "local serial = require 'serial'\n"
                                  "world = { width = 200, height = 200, seed = 1 }\n"
                                  "loads = 0\n"
                                  "function load(w)\n"
                                  "  loads = loads + 1\n"
                                  "  w:spawn{ kind = 'a', x = 10, y = 10 }\n"
                                  "  print('module top ' .. serial.top .. ', in load ' .. serial.eval('40 + 2'))\n"
                                  "end\n"
                                  "function update(w, dt)\n"
                                  "  if w.step_count == 3 then\n"
                                  "    print('in update ' .. serial.eval('6 * 7') .. ' loads ' .. loads)\n"
                                  "    print('_G has load builtin: ' .. tostring(_G.load ~= load))\n"
                                  "    print('_G has update: ' .. tostring(rawget(_G, 'update') ~= nil))\n"
                                  "  end\n"
                                  "end\n";

static void test_a_module_calling_load_gets_luas_load_not_the_scenes(void **state)
{
    (void)state;
    rt_write("serial.lua", SERIAL);
    rt_write("scene.lua", GLOBAL_SCENE);
    const char *args[] = {"--headless", "--steps", "10", rt_path("scene.lua"), NULL};
    char *out, *err;
    int status = rt_run(args, &out, &err);
    if (status != 0) fail_msg("exit %d\nstdout:\n%s\nstderr:\n%s", status, out, err);
    assert_non_null(strstr(out, "module top 1, in load 42\n"));
    assert_non_null(strstr(out, "in update 42 loads 1\n"));
    assert_non_null(strstr(out, "_G has load builtin: true\n"));
    assert_non_null(strstr(out, "_G has update: false\n"));
    assert_non_null(strstr(out, "vehicles=1 errors=0"));
    free(out);
    free(err);
}

static void test_draw_receives_gfx_and_the_world(void **state)
{
    (void)state;
    rt_write("scene.lua", "function load(w) w:spawn{ kind = 'a', x = 1, y = 1 } end\n"
                          "function draw(gfx, w)\n"
                          "  gfx.circle(1, 1, 3)\n"
                          "  if w.step_count == 2 then print('draw sees ' .. w:count() .. ' at step 2') end\n"
                          "end\n");
    const char *args[] = {"--headless", "--steps", "4", rt_path("scene.lua"), NULL};
    char *out, *err;
    int status = rt_run(args, &out, &err);
    if (status != 0) fail_msg("exit %d\nstderr:\n%s", status, err);
    assert_non_null(strstr(out, "draw sees 1 at step 2\n"));
    free(out);
    free(err);
}

static void test_draw_text_without_a_color_is_white(void **state)
{
    (void)state;
    rt_write("scene.lua", "function draw(gfx, w) gfx.text(10, 10, 'no colour') gfx.text(10, 30, 42) end\n");
    const char *args[] = {"--headless", "--steps", "3", rt_path("scene.lua"), NULL};
    char *out, *err;
    int status = rt_run(args, &out, &err);
    if (status != 0) fail_msg("exit %d\nstderr:\n%s", status, err);
    free(out);
    free(err);
}

/* A text or HUD line left out is a mistake (it used to draw the words "no value"). */
static void test_draw_text_or_hud_without_its_text_is_an_error(void **state)
{
    (void)state;
    rt_write("scene.lua", "function draw(gfx, w)\n"
                          "  if w.step_count == 1 then gfx.text(10, 10) end\n"
                          "  if w.step_count == 2 then gfx.hud() end\n"
                          "  gfx.hud(w.step_count)\n"
                          "end\n");
    const char *args[] = {"--headless", "--steps", "3", rt_path("scene.lua"), NULL};
    char *out, *err;
    assert_int_equal(rt_run(args, &out, &err), 2);
    assert_non_null(strstr(err, "scene.lua:2: bad argument #3 to 'text' (value expected)"));
    assert_non_null(strstr(err, "scene.lua:3: bad argument #1 to 'hud' (value expected)"));
    assert_non_null(strstr(out, " errors=2 "));
    free(out);
    free(err);
}

/* A drawing call gfx does not have (LÖVE's rectangle, a typo) said only "attempt to call a nil value
 * (field 'rect')": it names gfx and lists what it has; the calls it has still draw. */
static void test_an_unknown_gfx_function_lists_what_gfx_has(void **state)
{
    (void)state;
    rt_write("scene.lua", "function draw(gfx, w)\n"
                          "  gfx.line(0, 0, 10, 10)\n"
                          "  if w.step_count == 1 then gfx.rect(0, 0, 10, 10) end\n"
                          "  gfx.hud('drawn ' .. w.step_count)\n"
                          "end\n");
    const char *args[] = {"--headless", "--steps", "3", rt_path("scene.lua"), NULL};
    char *out, *err;
    assert_int_equal(rt_run(args, &out, &err), 2);
    assert_non_null(strstr(err, "scene.lua:3: unknown field 'rect' of gfx (known: circle, hud, line, overlay, text)"));
    assert_non_null(strstr(out, " errors=1 "));
    free(out);
    free(err);
}

/* gfx.overlay(name) tells draw which overlays are on, so a scene can leave out what one draws. */
static void test_draw_asks_which_overlays_are_on(void **state)
{
    (void)state;
    rt_write("scene.lua", "function draw(gfx, w)\n"
                          "  if w.step_count == 1 then\n"
                          "    print('states', gfx.overlay('states'), 'forces', gfx.overlay('forces'))\n"
                          "  elseif w.step_count == 2 then gfx.overlay('state')\n"
                          "  elseif w.step_count == 3 then gfx.overlay('wings') end\n"
                          "end\n");
    const char *with[] = {"--headless", "--steps", "4", "--overlays", "states,grid", rt_path("scene.lua"), NULL};
    const char *without[] = {"--headless", "--steps", "3", rt_path("scene.lua"), NULL};
    char *out, *err;
    assert_int_equal(rt_run(with, &out, &err), 2);
    assert_non_null(strstr(out, "states\ttrue\tforces\tfalse\n"));
    assert_non_null(strstr(err, "scene.lua:4: bad argument #1 to 'overlay' (unknown overlay 'state' (did you mean "
                                "'states'?))"));
    assert_non_null(strstr(err, "scene.lua:5: bad argument #1 to 'overlay' (unknown overlay 'wings' (overlays: "
                                "wander, avoidance, neighbors, forces, states, paths, grid, senses, navigation))"));
    free(out);
    free(err);
    assert_int_equal(rt_run(without, &out, &err), 2);
    assert_non_null(strstr(out, "states\tfalse\tforces\tfalse\n"));
    free(out);
    free(err);
}

static void test_a_scene_without_load_never_calls_luas_load(void **state)
{
    (void)state;
    rt_write("scene.lua", "function update(w, dt) if w.step_count == 1 then print('updating') end end\n");
    const char *args[] = {"--headless", "--steps", "3", rt_path("scene.lua"), NULL};
    char *out, *err;
    int status = rt_run(args, &out, &err);
    if (status != 0) fail_msg("exit %d\nstderr:\n%s", status, err);
    assert_non_null(strstr(out, "updating\n"));
    free(out);
    free(err);
}

/* Version n of a scene of globals: a counter kept in a global goes on across reloads. */
static void write_counting_scene(int version)
{
    char text[1024];
    snprintf(text, sizeof text,
             "local serial = require 'serial'\n"
             "count = count or 0\n"
             "function load(w) w:spawn{ kind = 'a', x = 10, y = 10 } end\n"
             "function update(w, dt)\n"
             "  count = count + 1\n"
             "  if count %% 20 == 0 then print('v%d count ' .. count .. ' eval ' .. serial.eval('1 + 1')) end\n"
             "end\n"
             "function reload(w) print('reloaded as v%d, count ' .. count) end\n",
             version, version);
    rt_write_rename("scene.lua", text);
}

static int parse_count(const char *path, long from, const char *needle)
{
    char *text = rt_read(path);
    int count = -1;
    if ((long)strlen(text) >= from) {
        const char *p = strstr(text + from, needle);
        if (p) sscanf(p + strlen(needle), "%d", &count);
    }
    free(text);
    return count;
}

static void test_a_reloaded_scene_keeps_its_globals_in_the_same_environment(void **state)
{
    (void)state;
    rt_write("serial.lua", SERIAL);
    write_counting_scene(1);
    const char *args[] = {"--headless", "--watch", rt_path("scene.lua"), NULL};
    RtProcess p = rt_start(args);
    long at = rt_wait_for(p.out, 0, "v1 count 40 eval 2\n", RT_DEADLINE_S);
    assert_true(at > 0);
    write_counting_scene(2);
    long reloaded = rt_wait_for(p.out, at, "reloaded as v2, count ", RT_DEADLINE_S);
    assert_true(reloaded > 0);
    /* the counter went on from where version 1 left it (40, or more if steps ran before the save
     * was loaded; a fresh environment would say 0), and the new update runs */
    assert_true(parse_count(p.out, reloaded - (long)strlen("reloaded as v2, count "), "reloaded as v2, count ") >= 40);
    assert_true(rt_wait_for(p.out, reloaded, " eval 2\n", RT_DEADLINE_S) > 0);
    assert_true(rt_wait_for(p.out, reloaded, "v2 count ", RT_DEADLINE_S) > 0);
    assert_int_equal(rt_stop(&p), 0);
    char *err = rt_read(p.err);
    assert_null(strstr(err, "script error"));
    free(err);
}

/* math.random at the top level, in a required module, in load and in update. */
static const char *RANDOM_SCENE = "local lib = require 'dice'\n"
                                  "local top = math.random(1000000)\n"
                                  "function load(w)\n"
                                  "  first = { top, lib.roll(), math.random(1000000), math.random() }\n"
                                  "  print('load ' .. table.concat(first, ' '))\n"
                                  "end\n"
                                  "function update(w, dt)\n"
                                  "  if w.step_count % 5 == 0 then print('update ' .. math.random(1000000)) end\n"
                                  "end\n";
static const char *DICE = "local M = {}\nfunction M.roll() return math.random(6) end\nreturn M\n";

static char *run_random_scene(const char *seed)
{
    const char *args[] = {"--headless", "--steps", "20", "--seed", seed, rt_path("random.lua"), NULL};
    char *out, *err;
    int status = rt_run(args, &out, &err);
    if (status != 0) fail_msg("exit %d\nstderr:\n%s", status, err);
    free(err);
    /* everything but the summary line, whose timings vary */
    char *summary = strstr(out, "summary:");
    assert_non_null(summary);
    *summary = '\0';
    assert_int_equal(rt_count(out, "update "), 4);
    return out;
}

static void test_the_same_seed_replays_math_random_and_another_seed_differs(void **state)
{
    (void)state;
    rt_write("random.lua", RANDOM_SCENE);
    rt_write("dice.lua", DICE);
    char *a = run_random_scene("7");
    char *b = run_random_scene("7");
    char *c = run_random_scene("8");
    assert_string_equal(a, b);
    assert_string_not_equal(a, c);
    free(a);
    free(b);
    free(c);
}

/* The scene's global `first` joined with spaces. */
static void first_draws(App *app, char *buf, size_t size)
{
    lua_State *L = script_state(app->session.host);
    script_push_env(app->session.host);
    lua_getfield(L, -1, "first");
    assert_true(lua_istable(L, -1));
    size_t len = 0;
    buf[0] = '\0';
    for (lua_Integer i = 1; i <= (lua_Integer)lua_rawlen(L, -1); i++) {
        lua_rawgeti(L, -1, i);
        len += (size_t)snprintf(buf + len, size - len, "%s ", lua_tostring(L, -1));
        lua_pop(L, 1);
    }
    lua_pop(L, 2);
}

static void test_a_restart_reseeds_math_random(void **state)
{
    (void)state;
    rt_write("random.lua", RANDOM_SCENE);
    rt_write("dice.lua", DICE);
    AppOptions opt = options_default();
    opt.headless = true;
    opt.run.has_seed = true;
    opt.run.seed = 11;
    opt.script = rt_path("random.lua");
    static App app;
    assert_int_equal(app_init(&app, &opt, NULL), 0);
    char before[256], after[256];
    first_draws(&app, before, sizeof before);
    for (int i = 0; i < 10; i++) app_frame(&app, 1.0 / 60.0); /* update draws more meanwhile */
    ScriptHost *old = app.session.host;
    app_restart(&app);
    assert_true(app.session.host != old);
    first_draws(&app, after, sizeof after);
    assert_string_equal(before, after);
    app_shutdown(&app);
}

/* A scene on the real scripts/lib/fsm.lua (copied next to it, as a project's scripts/lib). */
static const char *FSM_SCENE = "local fsm = require 'fsm'\n"
                               "local Guard = fsm.machine{ initial = 'patrol', states = {\n"
                               "  patrol = { think = function(v)\n"
                               "    if v.world.time > 0.5 then return 'chse' end\n"
                               "  end },\n"
                               "  rest = {},\n"
                               "} }\n"
                               "function load(w)\n"
                               "  G = w:spawn{ kind = 'guard', x = 10, y = 10 }\n"
                               "  fsm.start(G, Guard)\n"
                               "end\n"
                               "function update(w, dt)\n"
                               "  if w.step_count == 3 then fsm.change(G, 'chase') end\n"
                               "end\n";

static void test_fsm_errors_name_the_scene_file_and_line(void **state)
{
    (void)state;
    char *lib = rt_read("scripts/lib/fsm.lua"); /* (tests run from the repository's root) */
    assert_true(strlen(lib) > 0);
    rt_write("scripts/lib/fsm.lua", lib);
    free(lib);
    rt_write("scripts/guards.lua", FSM_SCENE);
    const char *args[] = {"--headless", "--steps", "60", "--think-hz", "10", rt_path("scripts/guards.lua"), NULL};
    char *out, *err;
    assert_int_equal(rt_run(args, &out, &err), 2);
    assert_non_null(
        strstr(err, "script error: guards.lua:13: fsm.change: unknown state 'chase' (states: patrol, rest)"));
    /* (a brain's error also names its vehicle first) */
    assert_non_null(strstr(err, "guards.lua:3: fsm: think of state 'patrol' returned unknown state 'chse' (states: "
                                "patrol, rest)"));
    free(out);
    free(err);
}

/* Renders the scene at `name` (vehicles of kinds hunter and prey, then one hunter with its own
 * colour) and reads the pixel at each vehicle, in spawn order. */
static void render_kind_pixels(const char *name, SDL_Color *pixels, int count)
{
    AppOptions opt = options_default();
    opt.headless = true;
    opt.width = 400;
    opt.height = 300;
    opt.screenshot = rt_path("unused.png"); /* (a software renderer to draw on) */
    opt.script = rt_path(name);
    static App app;
    assert_int_equal(app_init(&app, &opt, NULL), 0);
    app_render(&app, 1.0);
    lua_State *L = script_state(app.session.host);
    script_push_world(app.session.host);
    lua_getfield(L, -1, "vehicles");
    lua_insert(L, -2);
    assert_int_equal(lua_pcall(L, 1, 1, 0), LUA_OK);
    assert_int_equal((int)lua_rawlen(L, -1), count);
    for (int i = 0; i < count; i++) {
        lua_rawgeti(L, -1, i + 1);
        lua_getfield(L, -1, "x");
        lua_getfield(L, -2, "y");
        double sx, sy;
        steer_camera_to_screen(&app.camera, lua_tonumber(L, -2), lua_tonumber(L, -1), &sx, &sy);
        lua_pop(L, 3);
        SDL_Rect at = {(int)lround(sx) + 2, (int)lround(sy), 1, 1}; /* (a little towards the nose) */
        Uint32 px = 0;
        assert_int_equal(SDL_RenderReadPixels(app.sdl, &at, SDL_PIXELFORMAT_ARGB8888, &px, 4), 0);
        pixels[i] = (SDL_Color){(Uint8)(px >> 16), (Uint8)(px >> 8), (Uint8)px, 255};
    }
    lua_pop(L, 1);
    app_shutdown(&app);
}

static void assert_word_color(uint32_t word, SDL_Color c)
{
    SDL_Color want = steer_render_color_from_word(word);
    if (want.r != c.r || want.g != c.g || want.b != c.b)
        fail_msg("pixel %d,%d,%d, expected %d,%d,%d", c.r, c.g, c.b, want.r, want.g, want.b);
}

static void test_a_kind_has_the_colour_of_its_name_whatever_the_spawn_order(void **state)
{
    (void)state;
    static const char *SPAWN = "world = { width = 400, height = 300 }\n"
                               "function load(w)\n"
                               "  for _, kind in ipairs{ %s } do\n"
                               "    w:spawn{ kind = kind, x = #w:vehicles() * 100 + 60, y = 150, radius = 12 }\n"
                               "  end\n"
                               "  w:spawn{ kind = 'hunter', x = 360, y = 150, radius = 12, color = { 10, 200, 30 } }\n"
                               "end\n";
    char text[1024];
    snprintf(text, sizeof text, SPAWN, "'hunter', 'prey'");
    rt_write("a.lua", text);
    snprintf(text, sizeof text, SPAWN, "'prey', 'hunter'");
    rt_write("b.lua", text);
    SDL_Color a[3], b[3];
    render_kind_pixels("a.lua", a, 3);
    render_kind_pixels("b.lua", b, 3);
    assert_word_color(steer_render_name_color("hunter"), a[0]);
    assert_word_color(steer_render_name_color("prey"), a[1]);
    assert_word_color(steer_render_name_color("prey"), b[0]);
    assert_word_color(steer_render_name_color("hunter"), b[1]);
    assert_word_color(0x0ac81eff, a[2]); /* an explicit colour still wins */
    assert_word_color(0x0ac81eff, b[2]);
    assert_true(steer_render_name_color("hunter") != steer_render_name_color("prey"));
}

/* The README's first scene as a newcomer copies it, followed by `tail`. */
static void write_readme_scene(const char *name, const char *tail)
{
    char *readme = rt_read("README.md");
    char *from = strstr(readme, "-- chase.lua:");
    assert_non_null(from);
    char *end = strstr(from, "\n```");
    assert_non_null(end);
    end[1] = '\0';
    size_t size = strlen(from) + strlen(tail) + 1;
    char *text = malloc(size);
    snprintf(text, size, "%s%s", from, tail);
    rt_write(name, text);
    free(text);
    free(readme);
}

/* The README invites an edit of its first scene while it runs: the scene must survive its own
 * reload (a file-level local holding the hunter would come back nil, and update fail each frame). */
static void test_the_readmes_first_scene_survives_a_save_while_it_runs(void **state)
{
    (void)state;
    static const char *TAIL = "local readme_update = update\n"
                              "function update(w, dt)\n"
                              "  readme_update(w, dt)\n"
                              "  if w.step_count %% 10 == 0 then print('%s hunter ' .. hunter.id) end\n"
                              "end\n";
    char tail[512];
    snprintf(tail, sizeof tail, TAIL, "v1");
    write_readme_scene("chase.lua", tail);
    const char *args[] = {"--headless", "--watch", rt_path("chase.lua"), NULL};
    RtProcess p = rt_start(args);
    long at = rt_wait_for(p.out, 0, "v1 hunter ", RT_DEADLINE_S);
    if (at < 0) rt_stop(&p);
    assert_true(at > 0);
    snprintf(tail, sizeof tail, TAIL, "v2");
    write_readme_scene("chase.lua", tail);
    long reloaded = rt_wait_for(p.out, at, "v2 hunter 4\n", RT_DEADLINE_S);
    int status = rt_stop(&p); /* first: a failed wait must not leave the program running */
    assert_true(reloaded > 0);
    assert_int_equal(status, 0);
    char *err = rt_read(p.err);
    assert_non_null(strstr(err, "reloaded"));
    assert_null(strstr(err, "script error"));
    free(err);
}

/* A callback misnamed in a way a newcomer would (case, an underscore, a typo) is never called: the
 * program says so when the scene loads, naming the callback meant, whether the scene defines its
 * callbacks as globals or returns them in a table; a name that is a callback, or a function near
 * one the scene also defines, is not warned about. */
static void test_a_misnamed_callback_is_warned_about_when_the_scene_loads(void **state)
{
    (void)state;
    rt_write("globals.lua", "function Load(w) end\n"
                            "function updat(w, dt) end\n"
                            "function key_pressed(k) end\n"
                            "function draw(gfx, w) end\n"
                            "function Draw(gfx, w) end\n"
                            "function spawn_herd(w) end\n");
    const char *args[] = {"--headless", "--steps", "3", rt_path("globals.lua"), NULL};
    char *out, *err;
    assert_int_equal(rt_run(args, &out, &err), 0);
    assert_non_null(strstr(err, "steer: warning: globals.lua defines 'Load', which the program never calls (did "
                                "you mean 'load'?)\n"));
    assert_non_null(strstr(err, "defines 'updat', which the program never calls (did you mean 'update'?)"));
    assert_non_null(strstr(err, "defines 'key_pressed', which the program never calls (did you mean 'keypressed'?)"));
    assert_int_equal(rt_count(err, "steer: warning:"), 3);
    free(out);
    free(err);
    rt_write("table.lua", "local M = {}\nfunction M.Update(w, dt) end\nfunction M.load(w) end\nreturn M\n");
    const char *table_args[] = {"--headless", "--steps", "3", rt_path("table.lua"), NULL};
    assert_int_equal(rt_run(table_args, &out, &err), 0);
    assert_non_null(strstr(err, "table.lua defines 'Update', which the program never calls (did you mean 'update'?)"));
    assert_int_equal(rt_count(err, "steer: warning:"), 1);
    free(out);
    free(err);
}

/// Runs a scene written from `source` for three steps headless: it exits 0 and warns about nothing.
static void assert_runs_without_warning(const char *name, const char *source)
{
    rt_write(name, source);
    const char *args[] = {"--headless", "--steps", "3", rt_path(name), NULL};
    char *out, *err;
    assert_int_equal(rt_run(args, &out, &err), 0);
    if (strstr(err, "warning")) fail_msg("%s: unexpected warning: %s", name, err);
    free(out);
    free(err);
}

/* A scene written with `local function load(w)` (local functions are good style elsewhere) gives the
 * program no callback to call: it ran an empty world and said nothing. It says so once; a scene
 * with one global callback, or one returned in a table, is not warned about. */
static void test_a_scene_with_only_local_callbacks_is_warned_about(void **state)
{
    (void)state;
    rt_write("locals.lua", "local function load(w) w:spawn{} end\n"
                           "local function update(w, dt) end\n");
    const char *args[] = {"--headless", "--steps", "3", rt_path("locals.lua"), NULL};
    char *out, *err;
    assert_int_equal(rt_run(args, &out, &err), 0);
    assert_non_null(strstr(err, "steer: warning: locals.lua defines none of the callbacks (load, update, draw, "));
    assert_non_null(strstr(err, "a callback must be a global function (not a `local function`)"));
    assert_int_equal(rt_count(err, "steer: warning:"), 1);
    assert_non_null(strstr(out, "vehicles=0"));
    free(out);
    free(err);
    assert_runs_without_warning("one_global.lua",
                                "local function helper(w) w:spawn{} end\nfunction draw(gfx, w) end\n");
    assert_runs_without_warning("returned.lua", "local M = {}\nfunction M.update(w, dt) end\nreturn M\n");
}

/* Editors on Windows save UTF-8 with a byte order mark (and CRLF line ends): plain lua5.4 runs such
 * a file, the program said "unexpected symbol near '<\239>'". A scene and a module it requires load,
 * and an error still names the line as written. */
static void test_a_scene_and_module_saved_with_a_byte_order_mark_load(void **state)
{
    (void)state;
    rt_write("bom_mod.lua", "\xEF\xBB\xBFreturn { speed = 42 }\r\n");
    rt_write("bom.lua", "\xEF\xBB\xBF-- saved by an editor that writes a BOM\r\n"
                        "local mod = require 'bom_mod'\r\n"
                        "function load(w) print('speed ' .. w:spawn{ max_speed = mod.speed }.max_speed) end\r\n"
                        "function update(w) if w.step_count == 1 then error('on line 4') end end\r\n");
    const char *args[] = {"--headless", "--steps", "3", rt_path("bom.lua"), NULL};
    char *out, *err;
    assert_int_equal(rt_run(args, &out, &err), 2);
    assert_non_null(strstr(out, "speed 42"));
    assert_non_null(strstr(err, "bom.lua:4: on line 4"));
    assert_null(strstr(err, "unexpected symbol"));
    free(out);
    free(err);
}

/* A scene written the LÖVE way, update(dt), gets the world as its dt: the program says so where
 * update is defined, before the first error; update(w), which needs only the world, and
 * update(w, dt) get no warning. */
static void test_update_with_only_a_dt_parameter_is_warned_about(void **state)
{
    (void)state;
    rt_write("love.lua", "function load(w) end\n"
                         "\n"
                         "function update(dt)\n"
                         "  local x = dt * 2\n"
                         "end\n");
    const char *args[] = {"--headless", "--steps", "3", rt_path("love.lua"), NULL};
    char *out, *err;
    assert_int_equal(rt_run(args, &out, &err), 2);
    const char *warning = strstr(err, "steer: warning: love.lua:3: update(dt) has one parameter, but the program "
                                      "calls update(world, dt): 'dt' will be the world\n");
    assert_non_null(warning);
    const char *error = strstr(err, "love.lua:4: attempt to perform arithmetic on a steer.World value (local 'dt')");
    assert_non_null(error);
    assert_true(warning < error);
    assert_int_equal(rt_count(err, "steer: warning:"), 1);
    free(out);
    free(err);
    const char *fine[] = {"function update(w) end\n", "function update(w, dt) end\n",
                          "local M = {}\nfunction M.update(world) end\nreturn M\n"};
    for (int i = 0; i < 3; i++) assert_runs_without_warning("fine.lua", fine[i]);
    rt_write("table.lua", "local M = {}\nfunction M.update(delta) end\nreturn M\n");
    const char *table_args[] = {"--headless", "--steps", "3", rt_path("table.lua"), NULL};
    assert_int_equal(rt_run(table_args, &out, &err), 0);
    assert_non_null(strstr(err, "steer: warning: table.lua:2: update(delta) has one parameter"));
    free(out);
    free(err);
}

/* world = {...} options apply when the world is made: a reload that changes them says so once
 * (the world keeps its own until a restart), and says nothing for a save that leaves them alone
 * or puts them back. */
static void test_a_reload_that_changes_the_world_options_says_they_wait_for_a_restart(void **state)
{
    (void)state;
    static const char *SCENE = "world = { width = %d, height = 300, edges = 'wrap' }\n"
                               "function update(w, dt)\n"
                               "  if w.step_count %% 10 == 0 then print('v%d width ' .. w.width) end\n"
                               "end\n";
    char text[512];
    snprintf(text, sizeof text, SCENE, 400, 1);
    rt_write("scene.lua", text);
    const char *args[] = {"--headless", "--watch", rt_path("scene.lua"), NULL};
    RtProcess p = rt_start(args);
    long at = rt_wait_for(p.out, 0, "v1 width 400", RT_DEADLINE_S);
    long seen[3] = {0};
    if (at > 0) {
        snprintf(text, sizeof text, SCENE, 900, 2);
        rt_write("scene.lua", text);
        seen[0] = rt_wait_for(p.out, at, "v2 width 400", RT_DEADLINE_S);
        snprintf(text, sizeof text, SCENE, 900, 3);
        rt_write("scene.lua", text);
        seen[1] = rt_wait_for(p.out, at, "v3 width 400", RT_DEADLINE_S);
        snprintf(text, sizeof text, SCENE, 400, 4);
        rt_write("scene.lua", text);
        seen[2] = rt_wait_for(p.out, at, "v4 width 400", RT_DEADLINE_S);
    }
    int status = rt_stop(&p);
    assert_true(at > 0 && seen[0] > 0 && seen[1] > 0 && seen[2] > 0);
    assert_int_equal(status, 0);
    char *err = rt_read(p.err);
    assert_non_null(strstr(err, "steer: note: scene.lua changed its world options to {edges=wrap, height=300, "
                                "width=900}: they apply when the world is made again, at the next restart"));
    assert_int_equal(rt_count(err, "steer: note:"), 1);
    free(err);
}

/* The repros of a scene freeing or retyping the program's values, and what its debug holds. */
static const char *SEALED_SCENE =
    "local function try(what, f, ...)\n"
    "  local ok = pcall(f, ...)\n"
    "  print(what .. ' ' .. (ok and 'ran' or 'refused'))\n"
    "end\n"
    "function load(w)\n"
    "  local v = w:spawn{ kind = 'a', x = 10, y = 10 }\n"
    "  print('metatables ' .. tostring(getmetatable(w)) .. ' ' .. tostring(getmetatable(v)) .. ' '\n"
    "        .. tostring(getmetatable(w:obstacle{ x = 50, y = 50, radius = 3 })))\n"
    "  try('__gc', function() getmetatable(w).__gc(w) end)\n"
    "  try('debug.getmetatable __gc', function() debug.getmetatable(w).__gc(w) end)\n"
    "  try('setmetatable', function() setmetatable(w, nil) end)\n"
    "  for _, name in ipairs{ 'setmetatable', 'setuservalue', 'getuservalue', 'sethook', 'setlocal',\n"
    "                         'setupvalue', 'upvaluejoin', 'upvalueid', 'getregistry' } do\n"
    "    print('debug.' .. name .. ' ' .. type(debug[name]))\n"
    "  end\n"
    "  print('require debug is the same ' .. tostring(require('debug') == debug))\n"
    "  local secret = 41\n"
    "  local function f() return secret + 1 end\n"
    "  print('reads ' .. debug.getinfo(1, 'S').short_src .. ' ' .. tostring(debug.getlocal(1, 1)) .. ' '\n"
    "        .. tostring(select(2, debug.getupvalue(f, 1))) .. ' ' .. type(debug.traceback()))\n"
    "  print('C level locals ' .. tostring(debug.getlocal(2, 1)) .. ', C upvalues '\n"
    "        .. tostring((debug.getupvalue(print, 1))))\n"
    "end\n"
    "function update(w) if w.step_count == 2 then print('steps on ' .. w:count()) end end\n";

static void test_a_scene_cannot_free_or_retype_the_programs_values(void **state)
{
    (void)state;
    rt_write("scene.lua", SEALED_SCENE);
    const char *args[] = {"--headless", "--steps", "5", rt_path("scene.lua"), NULL};
    char *out, *err;
    int status = rt_run(args, &out, &err);
    if (status != 0) fail_msg("exit %d\nstdout:\n%s\nstderr:\n%s", status, out, err);
    const char *expected[] = {
        "metatables steer.World steer.Vehicle steer.Obstacle\n",
        "__gc refused\n",
        "debug.getmetatable __gc refused\n",
        "setmetatable refused\n",
        "debug.setmetatable nil\n",
        "debug.setuservalue nil\n",
        "debug.getuservalue nil\n",
        "debug.sethook nil\n",
        "debug.setlocal nil\n",
        "debug.setupvalue nil\n",
        "debug.upvaluejoin nil\n",
        "debug.upvalueid nil\n",
        "debug.getregistry nil\n",
        "require debug is the same true\n",
        "reads scene.lua w 41 string\n",
        "C level locals nil, C upvalues nil\n",
        "steps on 1\n",
    };
    for (size_t i = 0; i < sizeof expected / sizeof *expected; i++)
        if (!strstr(out, expected[i])) fail_msg("no line %s\nstdout:\n%s\nstderr:\n%s", expected[i], out, err);
    assert_non_null(strstr(out, "errors=0"));
    free(out);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_a_scene_cannot_free_or_retype_the_programs_values, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_module_calling_load_gets_luas_load_not_the_scenes, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_scene_without_load_never_calls_luas_load, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_draw_receives_gfx_and_the_world, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_draw_text_without_a_color_is_white, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_draw_text_or_hud_without_its_text_is_an_error, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_an_unknown_gfx_function_lists_what_gfx_has, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_draw_asks_which_overlays_are_on, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_reloaded_scene_keeps_its_globals_in_the_same_environment, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_the_same_seed_replays_math_random_and_another_seed_differs, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_restart_reseeds_math_random, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_fsm_errors_name_the_scene_file_and_line, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_kind_has_the_colour_of_its_name_whatever_the_spawn_order, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_the_readmes_first_scene_survives_a_save_while_it_runs, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_update_with_only_a_dt_parameter_is_warned_about, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_scene_and_module_saved_with_a_byte_order_mark_load, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_misnamed_callback_is_warned_about_when_the_scene_loads, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_scene_with_only_local_callbacks_is_warned_about, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_reload_that_changes_the_world_options_says_they_wait_for_a_restart,
                                        rt_setup, rt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
