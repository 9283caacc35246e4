/* SPDX-License-Identifier: MIT */
/* test_runtime_sealed.c - issue #29 "Sealed": nothing one line of a scene does crashes the program,
 * hangs it or escapes its budget. Each test here failed before its fix: a SIGABRT (an __index run
 * by the program's own lookups outside any protected call), a hang, the watchdog ending the whole
 * run (exit 4) where the budget should have stopped one callback, a binary chunk loaded, 335 MB of
 * stderr from one error message, a SIGTERM that waited for a million physics steps. The real
 * program on real files, plus the inspector in-process. No test asserts how long anything took. */
#include "runtime_support.h"

#include <lauxlib.h>
#include <lua.h>

#include "app.h"
#include "guard.h"
#include "rewind.h"
#include "script.h"

/* Runs `scene` headless for `steps` steps with a budget of `budget_ms`; returns the status, and
 * *err (free it) gets stderr, *out stdout. */
static int run_scene(const char *scene, const char *steps, const char *budget_ms, char **out, char **err)
{
    rt_write("scene.lua", scene);
    const char *args[] = {"--headless", "--steps", steps, "--time-budget", budget_ms, rt_path("scene.lua"), NULL};
    return rt_run(args, out, err);
}

/* The status of a run stopped by the budget in each update: script errors (2), never the watchdog's
 * 4, and every step taken. */
static void assert_stopped_by_budget_each_step(const char *scene)
{
    char *out, *err;
    int status = run_scene(scene, "3", "300", &out, &err);
    if (status != 2) fail_msg("status %d, stderr:\n%s", status, err);
    assert_non_null(strstr(err, "script exceeded its time budget (300 ms)"));
    assert_null(strstr(err, "where it cannot be interrupted"));
    assert_non_null(strstr(out, "summary: steps=3 "));
    free(out);
    free(err);
}

static void test_xpcall_with_an_endless_message_handler_is_stopped_at_the_budget(void **state)
{
    (void)state;
    assert_stopped_by_budget_each_step("function update(w)\n"
                                       "  xpcall(error, function() while true do end end)\n"
                                       "end\n");
}

static void test_forty_nested_coroutines_are_stopped_at_the_budget(void **state)
{
    (void)state;
    assert_stopped_by_budget_each_step("local function nest(n)\n"
                                       "  if n == 0 then while true do end end\n"
                                       "  return coroutine.wrap(function() nest(n - 1)() end)\n"
                                       "end\n"
                                       "function update(w) nest(40)() end\n");
}

static void test_a_huge_step_count_is_stopped_at_the_budget(void **state)
{
    (void)state;
    assert_stopped_by_budget_each_step("function load(w) for i = 1, 50 do w:spawn{}:wander{} end end\n"
                                       "function update(w) w:step(1e9) end\n");
}

static void test_an_erroring_index_on_the_scene_table_is_an_error_not_an_abort(void **state)
{
    (void)state;
    char *out, *err;
    /* `Load` makes the program look for `load` (did you mean?); `world` is looked up too */
    int status = run_scene("return setmetatable({ update = function() end, Load = function() end },\n"
                           "  { __index = function(t, k) error('no field ' .. k) end })\n",
                           "3", "1000", &out, &err);
    if (status != 1) fail_msg("status %d, stderr:\n%s", status, err);
    assert_non_null(strstr(err, "scene.lua:2: no field world"));
    free(out);
    free(err);
    /* one that answers nil runs */
    status = run_scene("return setmetatable({ update = function() end, Load = function() end },\n"
                       "  { __index = function(t, k) return nil end })\n",
                       "3", "1000", &out, &err);
    if (status != 0) fail_msg("status %d, stderr:\n%s", status, err);
    assert_non_null(strstr(out, "summary: steps=3 "));
    free(out);
    free(err);
}

static void test_an_endless_index_on_the_scene_table_is_stopped_at_the_budget(void **state)
{
    (void)state;
    char *out, *err;
    int status =
        run_scene("return setmetatable({}, { __index = function() while true do end end })\n", "3", "300", &out, &err);
    if (status != 1) fail_msg("status %d, stderr:\n%s", status, err);
    assert_non_null(strstr(err, "script exceeded its time budget"));
    free(out);
    free(err);
}

static void test_scenes_load_no_bytecode(void **state)
{
    (void)state;
    char *out, *err;
    int status = run_scene("local f = string.dump(function() return 1 end)\n"
                           "print('load', select(2, load(f)))\n"
                           "print('mode b', select(2, load(f, 'x', 'b')))\n"
                           "local path = os.tmpname()\n"
                           "local file = io.open(path, 'wb') file:write(f) file:close()\n"
                           "print('loadfile', select(2, loadfile(path)))\n"
                           "print('dofile', select(2, pcall(dofile, path)))\n"
                           "os.remove(path)\n"
                           "print('text', load('return 41 + 1')())\n",
                           "1", "1000", &out, &err);
    if (status != 0) fail_msg("status %d, stderr:\n%s", status, err);
    assert_int_equal(rt_count(out, "attempt to load a binary chunk (mode is 't')"), 4);
    assert_non_null(strstr(out, "text\t42"));
    free(out);
    free(err);
}

static void test_a_huge_error_message_is_cut(void **state)
{
    (void)state;
    char *out, *err;
    int status = run_scene("function load(w)\n"
                           "  for i = 1, 40 do\n"
                           "    w:spawn{ brain = { think = function() error(string.rep('x', 4 * 1024 * 1024)) end } }\n"
                           "  end\n"
                           "end\n"
                           "function update(w) error(string.rep('y', 4 * 1024 * 1024)) end\n",
                           "30", "20000", &out, &err);
    if (status != 2) fail_msg("status %d", status);
    assert_true(strlen(err) < 200000); /* 40 vehicles x 4 MB, 30 updates x 4 MB before */
    assert_non_null(strstr(err, "more bytes cut)"));
    free(out);
    free(err);
}

static void test_a_memory_error_says_where_in_which_callback_and_the_cap(void **state)
{
    (void)state;
    char *out, *err;
    rt_write("scene.lua", "local t = {}\n"
                          "function update(w)\n"
                          "  for i = 1, 1e9 do t[#t + 1] = string.rep('x', 1000) .. i end\n"
                          "end\n");
    const char *args[] = {"--headless", "--steps", "2", "--memory-cap", "32", rt_path("scene.lua"), NULL};
    int status = rt_run(args, &out, &err);
    if (status != 2) fail_msg("status %d, stderr:\n%s", status, err);
    assert_non_null(
        strstr(err, "scene.lua:3: not enough memory: the scripts reached --memory-cap (32 MB) in 'update'"));
    free(out);
    free(err);
}

static void test_fps_is_bounded(void **state)
{
    (void)state;
    char *out, *err;
    int status = run_scene("function update(w) end\n", "5", "1000", &out, &err);
    assert_int_equal(status, 0);
    free(out);
    free(err);
    const char *args[] = {"--headless", "--steps", "5", "--fps", "1e9", rt_path("scene.lua"), NULL};
    status = rt_run(args, &out, &err);
    assert_int_equal(status, 1);
    assert_non_null(strstr(err, "--fps"));
    assert_non_null(strstr(err, "a number from 0 to 1000"));
    free(out);
    free(err);
}

/* SIGTERM while a frame has a million physics steps to take: the run ends (a hang fails the test
 * at rt_wait's deadline; nothing is timed). */
static void test_sigterm_ends_a_frame_of_many_steps(void **state)
{
    (void)state;
    rt_write("scene.lua", "function load(w)\n"
                          "  for i = 1, 2000 do w:spawn{ x = i % 800, y = (i * 7) % 600 }:wander{} end\n"
                          "  print('loaded')\n"
                          "end\n");
    const char *args[] = {"--headless",         "--steps", "100000000", "--physics-hz", "1000000", "--fps", "1",
                          rt_path("scene.lua"), NULL};
    RtProcess p = rt_start(args);
    assert_true(rt_wait_for(p.out, 0, "loaded", RT_DEADLINE_S) >= 0);
    rt_sleep(0.5);
    int status = rt_stop(&p);
    assert_int_equal(status, 0);
    char *out = rt_read(p.out);
    assert_non_null(strstr(out, "summary: steps="));
    free(out);
}

/* SIGTERM while a script loops under a long budget: the script is stopped like a timeout, the run
 * ends cleanly, and its recording has its end (it replays). */
static void test_sigterm_stops_an_endless_script_and_finishes_the_recording(void **state)
{
    (void)state;
    rt_write("scene.lua", "function update(w)\n"
                          "  if w.step_count == 3 then print('looping') io.stdout:flush() while true do end end\n"
                          "end\n");
    const char *args[] = {
        "--headless",         "--steps", "1000", "--time-budget", "600000", "--record", rt_path("r.steer"),
        rt_path("scene.lua"), NULL};
    RtProcess p = rt_start(args);
    assert_true(rt_wait_for(p.out, 0, "looping", RT_DEADLINE_S) >= 0);
    int status = rt_stop(&p);
    char *err = rt_read(p.err);
    if (status != 128 + SIGTERM) fail_msg("status %d, stderr:\n%s", status, err);
    assert_non_null(strstr(err, "scene.lua:2: script stopped: the program received SIGTERM"));
    free(err);
    char *out;
    const char *replay[] = {"--replay", rt_path("r.steer"), "--headless", "--time-budget", "1000", NULL};
    status = rt_run(replay, &out, &err);
    assert_null(strstr(err, "truncated"));
    assert_non_null(strstr(err, "checksums matched"));
    free(out);
    free(err);
}

/* The recording of a run that was killed (SIGKILL: no end record, perhaps cut inside a record)
 * replays up to its last complete step, saying so; it was refused as truncated. */
static void test_the_recording_of_a_killed_run_replays_up_to_its_last_complete_step(void **state)
{
    (void)state;
    rt_write("scene.lua", "function load(w) for i = 1, 20 do w:spawn{ x = 30 * i, y = 100 }:wander{} end end\n"
                          "function update(w)\n"
                          "  if w.step_count == 300 then print('recorded') io.stdout:flush() end\n"
                          "end\n");
    const char *args[] = {"--headless",         "--steps", "100000000", "--record", rt_path("r.steer"),
                          rt_path("scene.lua"), NULL};
    RtProcess p = rt_start(args);
    assert_true(rt_wait_for(p.out, 0, "recorded", RT_DEADLINE_S) >= 0);
    kill(p.pid, SIGKILL);
    assert_int_equal(rt_wait(&p), 128 + SIGKILL);
    char *out, *err;
    const char *replay[] = {"--replay", rt_path("r.steer"), "--headless", NULL};
    int status = rt_run(replay, &out, &err);
    if (status != 0) fail_msg("status %d, stderr:\n%s", status, err);
    assert_non_null(strstr(err, "was cut off (truncated: "));
    assert_non_null(strstr(err, "its last complete step"));
    assert_non_null(strstr(err, "checksums matched"));
    free(out);
    free(err);
}

/* The inspector reads v.data.history raw: an __index on v.data runs no script code between frames
 * (an erroring one ended the program with SIGABRT, an endless one hung it). */
static void test_the_inspector_runs_no_index_of_v_data(void **state)
{
    (void)state;
    rt_write("scene.lua", "function load(w)\n"
                          "  local v = w:spawn{}\n"
                          "  v.data = setmetatable({}, { __index = function(t, k)\n"
                          "    if k == 'history' then while true do end end\n"
                          "    error('no ' .. k)\n"
                          "  end })\n"
                          "  local u = w:spawn{}\n"
                          "  u.data.history = { 'idle', 'chase' }\n"
                          "end\n");
    ScriptConfig config = {0};
    config.scene_path = rt_path("scene.lua");
    config.run.time_budget_ms = 1000;
    config.run.memory_cap = 256u * 1024 * 1024;
    char error[2048];
    ScriptHost *host = script_create(&config, error, sizeof error);
    if (!host) fail_msg("%s", error);
    SteerVehicleId ids[2];
    assert_int_equal(steer_world_get_vehicles(script_world(host), ids, 2), 2);
    const char **lines;
    int n = script_inspector_lines(host, ids[0], &lines);
    for (int i = 0; i < n; i++) assert_null(strstr(lines[i], "history"));
    n = script_inspector_lines(host, ids[1], &lines);
    bool said = false;
    for (int i = 0; i < n; i++) said |= strcmp(lines[i], "history: idle > chase") == 0;
    assert_true(said);
    script_destroy(host);
}

/* A scene holding about 20 MB under a cap of 64 MB: rewind's keyframes (hosts replayed to past
 * steps, each as big as the live one) each had a cap of their own, and 16 of them grew the process
 * past 300 MB. One cap for the run: a keyframe that would pass it is not built. */
static void test_rewind_keyframes_stay_under_the_run_memory_cap(void **state)
{
    (void)state;
    rt_write("scene.lua", "local big = {}\n"
                          "function load(w) for i = 1, 200 do big[i] = string.rep('k', 100000) .. i end end\n");
    static App app;
    AppOptions opt = options_default();
    opt.headless = true;
    opt.rewind = true;
    opt.steps = 4000;
    opt.run.has_seed = true;
    opt.run.seed = 1;
    opt.run.time_budget_ms = 20000;
    opt.run.memory_cap = (size_t)64 << 20;
    opt.script = rt_path("scene.lua");
    assert_int_equal(app_init(&app, &opt, NULL), 0);
    size_t live = script_memory_used(app.session.host);
    assert_true(live > ((size_t)15 << 20));
    for (int i = 0; i < 3600; i++) app_frame(&app, 1.0 / 60.0);
    for (int i = 0; i < 200 && rewind_idle(app.session.rewind, &app, 0.05); i++) {
        assert_true(guard_total_memory() <= opt.run.memory_cap + ((size_t)4 << 20));
    }
    assert_true(rewind_keyframes(app.session.rewind) >= 1);
    assert_true(rewind_keyframes(app.session.rewind) <= 2);
    assert_true(guard_total_memory() <= opt.run.memory_cap);
    app_shutdown(&app);
}

/* A jump whose replay diverges keeps the live run: the run reads a file it opened to write too at
 * step 100 (the recording only notes it), which the test changes before the jump, so the replay
 * spawns another number of vehicles there. Before, the diverged replay took the live host's place: the live run
 * and the rest of its recording were lost. */
static void test_a_rewind_whose_replay_diverges_keeps_the_live_run(void **state)
{
    (void)state;
    char scene[1024];
    snprintf(scene, sizeof scene,
             "function update(w)\n"
             "  if w.step_count == 100 then\n"
             "    local f = io.open('%s', 'r+')\n" /* (a file opened to write too: the tape only notes it) */
             "    local n = tonumber(f:read('a'))\n"
             "    f:close()\n"
             "    for i = 1, n do w:spawn{ x = 10 * i }:wander{} end\n"
             "  end\n"
             "end\n",
             rt_path("n.txt"));
    rt_write("scene.lua", scene);
    rt_write("n.txt", "1");
    static App app;
    AppOptions opt = options_default();
    opt.headless = true;
    opt.rewind = true;
    opt.steps = 4000;
    opt.run.has_seed = true;
    opt.run.seed = 1;
    opt.run.time_budget_ms = 20000;
    opt.script = rt_path("scene.lua");
    assert_int_equal(app_init(&app, &opt, NULL), 0);
    for (int i = 0; i < 200; i++) app_frame(&app, 1.0 / 60.0);
    assert_int_equal(app.session.steps, 200);
    ScriptHost *live = app.session.host;
    uint64_t sum = steer_world_checksum(script_world(app.session.host));
    rt_write("n.txt", "3");
    char error[2048] = "";
    assert_false(rewind_jump(app.session.rewind, &app, 150, error, sizeof error));
    if (!strstr(error, "rewind: step 150 cannot be shown: the replay of the recording diverged")) fail_msg("%s", error);
    assert_non_null(strstr(error, "The live run goes on at step 200"));
    assert_non_null(strstr(error, "a file opened to write"));
    /* the live run, as it was, goes on and is still recorded */
    assert_ptr_equal(app.session.host, live);
    assert_false(rewind_in_past(app.session.rewind));
    assert_int_equal(app.session.steps, 200);
    assert_int_equal(steer_world_checksum(script_world(app.session.host)), sum);
    assert_int_equal(steer_world_vehicle_count(script_world(app.session.host)), 1);
    app_rewind_to(&app, 150); /* as the window does: the message goes on the panel */
    assert_non_null(script_error(app.session.host));
    assert_non_null(strstr(script_error(app.session.host), "cannot be shown"));
    for (int i = 0; i < 10; i++) app_frame(&app, 1.0 / 60.0);
    assert_int_equal(app.session.steps, 210);
    assert_int_equal(rewind_last_step(app.session.rewind, &app.session), 210);
    /* the window's way: Left pauses and shows the step before, which replays past step 100 too */
    app_feed_key(&app, SDLK_LEFT, 0);
    app_frame(&app, 1.0 / 60.0);
    assert_ptr_equal(app.session.host, live);
    assert_false(rewind_in_past(app.session.rewind));
    assert_int_equal(app.session.steps, 210);
    assert_true(app.paused);
    assert_non_null(strstr(script_error(app.session.host), "step 209 cannot be shown"));
    app_feed_key(&app, SDLK_SPACE, 0); /* resuming goes on live, recording */
    for (int i = 0; i < 10; i++) app_frame(&app, 1.0 / 60.0);
    assert_int_equal(app.session.steps, 220);
    assert_int_equal(rewind_last_step(app.session.rewind, &app.session), 220);
    assert_int_equal(steer_world_vehicle_count(script_world(app.session.host)), 1);
    /* a step before the divergence can still be shown, and the live step again after it */
    rt_write("n.txt", "1");
    assert_true(rewind_jump(app.session.rewind, &app, 50, error, sizeof error));
    assert_true(rewind_in_past(app.session.rewind));
    assert_true(rewind_jump(app.session.rewind, &app, 220, error, sizeof error));
    assert_int_equal(app.session.steps, 220);
    app_shutdown(&app);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_xpcall_with_an_endless_message_handler_is_stopped_at_the_budget, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_forty_nested_coroutines_are_stopped_at_the_budget, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_huge_step_count_is_stopped_at_the_budget, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_an_erroring_index_on_the_scene_table_is_an_error_not_an_abort, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_an_endless_index_on_the_scene_table_is_stopped_at_the_budget, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_scenes_load_no_bytecode, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_huge_error_message_is_cut, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_memory_error_says_where_in_which_callback_and_the_cap, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_fps_is_bounded, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_sigterm_ends_a_frame_of_many_steps, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_sigterm_stops_an_endless_script_and_finishes_the_recording, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_the_recording_of_a_killed_run_replays_up_to_its_last_complete_step,
                                        rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_the_inspector_runs_no_index_of_v_data, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_rewind_keyframes_stay_under_the_run_memory_cap, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_rewind_whose_replay_diverges_keeps_the_live_run, rt_setup, rt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
