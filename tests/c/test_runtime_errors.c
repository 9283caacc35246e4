/* SPDX-License-Identifier: MIT */
/* test_runtime_errors.c - a script error never ends the program in a window: a scene that fails to
 * load (in load, at its top level, a syntax error, a module it requires) opens the window with the
 * error panel and loads as soon as the fix is saved; headless still exits 1. The panel keeps one
 * entry per file that fails to load until that file loads cleanly; a scene that closes the
 * program's world gets an error, not a crash. The real program on real files
 * (SDL's dummy video driver gives it a window), and the host in-process for the panel's text. */
#include "runtime_support.h"

#include "script.h"

static const char *GOOD_SCENE = "local helper = require 'helper'\n"
                                "function load(w)\n"
                                "  w:spawn{ kind = 'a', x = 10, y = 10 }\n"
                                "  io.stderr:write('LOADED with ' .. helper.word .. '\\n')\n"
                                "end\n"
                                "function update(w, dt)\n"
                                "  if w.step_count == 30 then io.stderr:write('STEPPING\\n') end\n"
                                "end\n";

/* Starts the program in a window on scene.lua and waits until it says the scene failed to load
 * (with `why`) and that it watches the files. */
static RtProcess start_failing_window(const char *why)
{
    const char *args[] = {rt_path("scene.lua"), NULL};
    RtProcess p = rt_start(args);
    long at = rt_wait_for(p.err, 0, "steer: the scene failed to load: ", RT_DEADLINE_S);
    if (at < 0) fail_msg("no load failure reported");
    if (rt_wait_for(p.err, at, why, RT_DEADLINE_S) < 0) fail_msg("the failure does not say '%s'", why);
    assert_true(rt_wait_for(p.err, at, "save the fix to load it", RT_DEADLINE_S) > 0);
    return p;
}

/* Saves `text` as `name` and waits until the scene loads and steps. */
static void fix_and_expect_loaded(RtProcess *p, const char *name, const char *text)
{
    char *err = rt_read(p->err);
    long mark = (long)strlen(err);
    free(err);
    rt_write_rename(name, text);
    long at = rt_wait_for(p->err, mark, "LOADED with first", RT_DEADLINE_S);
    if (at < 0) {
        err = rt_read(p->err);
        fail_msg("the fixed scene did not load; stderr:\n%s", err);
    }
    assert_true(rt_wait_for(p->err, at, "steer: loaded ", RT_DEADLINE_S) > 0);
    assert_true(rt_wait_for(p->err, at, "STEPPING", RT_DEADLINE_S) > 0); /* and runs */
}

static void test_a_scene_failing_in_load_opens_the_window_and_loads_the_fix(void **state)
{
    (void)state;
    rt_write("helper.lua", "return { word = 'first' }\n");
    rt_write("scene.lua", "local helper = require 'helper'\nfunction load(w)\n  error('not yet')\nend\n");
    RtProcess p = start_failing_window("scene.lua:3: not yet");
    fix_and_expect_loaded(&p, "scene.lua", GOOD_SCENE);
    assert_int_equal(rt_stop(&p), 0);
}

static void test_a_syntax_error_or_a_top_level_error_then_a_fix(void **state)
{
    (void)state;
    rt_write("helper.lua", "return { word = 'first' }\n");
    rt_write("scene.lua", "function load(w)\n  local x = = 1\nend\n");
    RtProcess p = start_failing_window("scene.lua:2: unexpected symbol near '='");
    /* another broken save: still failing, with the new reason */
    char *err = rt_read(p.err);
    long mark = (long)strlen(err);
    free(err);
    rt_write_rename("scene.lua", "local t = nil\nprint(#t)\n");
    assert_true(rt_wait_for(p.err, mark,
                            "the scene still fails to load: scene.lua:2: attempt to get length of a nil "
                            "value (local 't')",
                            RT_DEADLINE_S) > 0);
    fix_and_expect_loaded(&p, "scene.lua", GOOD_SCENE);
    assert_int_equal(rt_stop(&p), 0);
}

static void test_a_broken_module_the_scene_requires_is_watched_and_its_fix_loads_the_scene(void **state)
{
    (void)state;
    rt_write("helper.lua", "return { word = = 'first' }\n");
    rt_write("scene.lua", GOOD_SCENE);
    RtProcess p = start_failing_window("helper.lua:1: unexpected symbol near '='");
    fix_and_expect_loaded(&p, "helper.lua", "return { word = 'first' }\n");
    assert_int_equal(rt_stop(&p), 0);
}

static void test_headless_a_scene_that_fails_to_load_still_exits_1(void **state)
{
    (void)state;
    rt_write("scene.lua", "function load(w) error('broken') end\n");
    const char *args[] = {"--headless", "--steps", "10", rt_path("scene.lua"), NULL};
    char *out, *err;
    assert_int_equal(rt_run(args, &out, &err), 1);
    assert_non_null(strstr(err, "steer: the scene failed to load: scene.lua:1: broken"));
    free(out);
    free(err);
    const char *watching[] = {"--headless", "--watch", rt_path("scene.lua"), NULL};
    assert_int_equal(rt_run(watching, &out, &err), 1);
    free(out);
    free(err);
}

/* A window with --steps is a run of set length (a script's, a test's, a screenshot's): a scene that
 * fails to load ends it with the error and status 1, instead of waiting for a fix nobody saves; a
 * script error during it makes the status 2.
 * (rt_run kills a run that never ends and fails the test.) */
static void test_a_window_with_steps_ends_with_1_when_the_scene_fails_to_load_and_2_after_an_error(void **state)
{
    (void)state;
    rt_write("scene.lua", "function load(w)\n  w:spawn{ kind = 'a', x = 'left' }\nend\n");
    char *out, *err;
    const char *args[] = {"--steps", "30", rt_path("scene.lua"), NULL};
    assert_int_equal(rt_run(args, &out, &err), 1);
    assert_non_null(strstr(err, "steer: the scene failed to load: scene.lua:2: bad argument #1 to 'spawn' (option "
                                "'x': number expected, got string)"));
    assert_null(strstr(err, "save the fix"));
    free(out);
    free(err);
    const char *shot[] = {"--steps", "30", "--screenshot", rt_path("shot.png"), rt_path("scene.lua"), NULL};
    assert_int_equal(rt_run(shot, &out, &err), 1);
    assert_non_null(strstr(err, "steer: the scene failed to load: scene.lua:2: "));
    free(out);
    free(err);
    /* the same scene fixed runs its 30 steps in the window and ends with 0 */
    rt_write("scene.lua", "function load(w)\n  w:spawn{ kind = 'a', x = 10 }\nend\n"
                          "function update(w) if w.step_count == 29 then print('stepped 29') end end\n");
    assert_int_equal(rt_run(args, &out, &err), 0);
    assert_non_null(strstr(out, "stepped 29"));
    free(out);
    free(err);
    /* a script error on the way: the run goes on to its end, which says so with 2, as headless */
    rt_write("scene.lua", "function load(w)\n  w:spawn{ kind = 'a', x = 10 }\nend\n"
                          "function update(w) if w.step_count == 10 then error('at step 10') end\n"
                          "  if w.step_count == 29 then print('stepped 29') end end\n");
    assert_int_equal(rt_run(args, &out, &err), 2);
    assert_non_null(strstr(out, "stepped 29"));
    assert_non_null(strstr(err, "scene.lua:4: at step 10"));
    free(out);
    free(err);
}

/* w:close() on the world the program steps (it used to free it under the loop: a segfault) is a
 * script error like any other, with the hint; the world goes on stepping. A world the scene makes
 * for itself with steer.world still closes. */
static void test_closing_the_programs_world_is_a_script_error_and_the_run_goes_on(void **state)
{
    (void)state;
    rt_write("scene.lua",
             "local steer = require 'steer'\n"
             "function load(w)\n"
             "  w:spawn{ kind = 'a', x = 10, y = 10, vx = 60 }\n"
             "  local own = steer.world{}\n"
             "  own:close()\n"
             "  print('own world ' .. tostring(own))\n"
             "end\n"
             "function update(w, dt)\n"
             "  if w.step_count == 5 then w:close() end\n"
             "  if w.step_count == 9 then local closing <close> = w end\n"
             "end\n"
             "function draw(gfx, w) if w.step_count == 20 then print('x ' .. w:vehicles()[1].x) end end\n");
    const char *args[] = {"--headless", "--steps", "20", rt_path("scene.lua"), NULL};
    char *out, *err;
    assert_int_equal(rt_run(args, &out, &err), 2);
    assert_non_null(strstr(out, "own world world (closed)"));
    assert_non_null(strstr(out, "x 30"));
    assert_non_null(strstr(out, "steps=20 time=0.333 vehicles=1 errors=2 "));
    assert_non_null(strstr(err, "scene.lua:9: close: this world belongs to the program running the scene"));
    assert_non_null(strstr(err, "scene.lua:10: close: this world belongs to the program running the scene"));
    free(out);
    free(err);
}

/* A bad option in the scene's world table has no line to point at: the message names the scene
 * file and its world table, without a traceback of C frames only. */
static void test_a_bad_world_table_names_the_scene_file(void **state)
{
    (void)state;
    rt_write("scene.lua", "world = { widht = 800 }\nfunction load(w) end\n");
    const char *args[] = {"--headless", "--steps", "10", rt_path("scene.lua"), NULL};
    char *out, *err;
    assert_int_equal(rt_run(args, &out, &err), 1);
    assert_string_equal(err, "steer: the scene failed to load: scene.lua: in its world table: unknown option 'widht' "
                             "for world (did you mean 'width'?)\n");
    free(out);
    free(err);
    rt_write("scene.lua", "world = 800\n");
    assert_int_equal(rt_run(args, &out, &err), 1);
    assert_string_equal(err, "steer: the scene failed to load: scene.lua: 'world' must be a table of steer.world "
                             "options, got number\n");
    free(out);
    free(err);
}

/* ---- the panel, in-process ---------------------------------------------------------------- */

static ScriptHost *host_on(const char *scene)
{
    ScriptConfig config = {0};
    config.scene_path = rt_path(scene);
    config.run.think_hz = -1.0;
    config.run.time_budget_ms = 1000;
    config.run.memory_cap = 64u * 1024 * 1024;
    char error[4096];
    ScriptHost *host = script_create(&config, error, sizeof error);
    if (!host) fail_msg("%s", error);
    return host;
}

static void expect_panel(ScriptHost *host, const char *const *has, const char *const *has_not)
{
    const char *panel = script_error(host);
    for (; has && *has; has++)
        if (!panel || !strstr(panel, *has)) fail_msg("the panel lacks '%s':\n%s", *has, panel ? panel : "(none)");
    for (; has_not && *has_not; has_not++)
        if (panel && strstr(panel, *has_not)) fail_msg("the panel still shows '%s':\n%s", *has_not, panel);
}

static void test_the_panel_keeps_one_entry_per_failing_file_until_it_loads_cleanly(void **state)
{
    (void)state;
    rt_write("a.lua", "return { n = 1 }\n");
    rt_write("b.lua", "return { n = 2 }\n");
    rt_write("scene.lua", "local a, b = require 'a', require 'b'\n"
                          "function update(w, dt) if FAIL then error('update fails') end end\n");
    ScriptHost *host = host_on("scene.lua");
    char a[1024], b[1024];
    snprintf(a, sizeof a, "%s", rt_path("a.lua"));
    snprintf(b, sizeof b, "%s", rt_path("b.lua"));
    assert_null(script_error(host));

    rt_write("a.lua", "return { n = = 1 }\n");
    assert_int_equal(script_reload_file(host, a), SCRIPT_RELOAD_FAILED);
    expect_panel(host, (const char *[]){"a.lua:1: unexpected symbol near '='", NULL}, NULL);

    /* a good save of another file does not hide it */
    rt_write("b.lua", "return { n = 3 }\n");
    assert_int_equal(script_reload_file(host, b), SCRIPT_RELOAD_OK);
    expect_panel(host, (const char *[]){"a.lua:1: unexpected symbol near '='", NULL}, NULL);

    /* two files failing: one entry each; a second failure of one file replaces its entry */
    rt_write("b.lua", "error('b is broken')\n");
    assert_int_equal(script_reload_file(host, b), SCRIPT_RELOAD_FAILED);
    rt_write("b.lua", "error('b is broken again')\n");
    assert_int_equal(script_reload_file(host, b), SCRIPT_RELOAD_FAILED);
    expect_panel(host, (const char *[]){"a.lua:1: unexpected symbol", "b.lua:1: b is broken again", NULL},
                 (const char *[]){"b.lua:1: b is broken\n", NULL});

    /* an error while the scene runs sits beside them, and any good reload clears it */
    lua_State *L = script_state(host);
    script_push_env(host);
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "FAIL");
    lua_pop(L, 1);
    script_update(host, 1.0 / 60.0);
    expect_panel(host, (const char *[]){"a.lua:1:", "b.lua:1:", "scene.lua:2: update fails", NULL}, NULL);
    script_push_env(host);
    lua_pushnil(L);
    lua_setfield(L, -2, "FAIL");
    lua_pop(L, 1);

    rt_write("a.lua", "return { n = 1 }\n");
    assert_int_equal(script_reload_file(host, a), SCRIPT_RELOAD_OK);
    expect_panel(host, (const char *[]){"b.lua:1: b is broken again", NULL},
                 (const char *[]){"a.lua:1:", "update fails", NULL});
    rt_write("b.lua", "return { n = 2 }\n");
    assert_int_equal(script_reload_file(host, b), SCRIPT_RELOAD_OK);
    assert_null(script_error(host));
    assert_int_equal(script_error_count(host), 4);
    script_destroy(host);
}

static void test_a_failing_reload_callback_is_filed_under_the_file_being_reloaded(void **state)
{
    (void)state;
    rt_write("a.lua", "return { ok = true }\n");
    rt_write("scene.lua", "local a = require 'a'\n"
                          "function reload(w) if not require('a').ok then error('a is not ok') end end\n");
    ScriptHost *host = host_on("scene.lua");
    char a[1024];
    snprintf(a, sizeof a, "%s", rt_path("a.lua"));
    rt_write("a.lua", "return { ok = false }\n");
    assert_int_equal(script_reload_file(host, a), SCRIPT_RELOAD_FAILED);
    expect_panel(host, (const char *[]){"scene.lua:2: a is not ok", NULL}, NULL);
    rt_write("a.lua", "return { ok = true }\n"); /* fixing a.lua is what clears it */
    assert_int_equal(script_reload_file(host, a), SCRIPT_RELOAD_OK);
    assert_null(script_error(host));
    script_destroy(host);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_a_scene_failing_in_load_opens_the_window_and_loads_the_fix, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_syntax_error_or_a_top_level_error_then_a_fix, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_broken_module_the_scene_requires_is_watched_and_its_fix_loads_the_scene,
                                        rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_headless_a_scene_that_fails_to_load_still_exits_1, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(
            test_a_window_with_steps_ends_with_1_when_the_scene_fails_to_load_and_2_after_an_error, rt_setup,
            rt_teardown),
        cmocka_unit_test_setup_teardown(test_closing_the_programs_world_is_a_script_error_and_the_run_goes_on, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_bad_world_table_names_the_scene_file, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_the_panel_keeps_one_entry_per_failing_file_until_it_loads_cleanly,
                                        rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_failing_reload_callback_is_filed_under_the_file_being_reloaded, rt_setup,
                                        rt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
