/* SPDX-License-Identifier: MIT */
/* test_runtime_sealed.c - issue #29 "Sealed": nothing one line of a scene does crashes the program,
 * hangs it or escapes its budget. Each test here failed before its fix: a SIGABRT (an __index run
 * by the program's own lookups outside any protected call), a hang, the watchdog ending the whole
 * run (exit 4) where the budget should have stopped one callback, a binary chunk loaded, 335 MB of
 * stderr from one error message, a SIGTERM that waited for a million physics steps. The real
 * program on real files, plus the inspector in-process. No test asserts how long anything took. */
#include "runtime_support.h"

#include <limits.h>

#include <lauxlib.h>
#include <lua.h>

#include "app.h"
#include "guard.h"
#include "rewind.h"
#include "script.h"
#include "tape_format.h"

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

/// A headless run of scene.lua that keeps its rewind history, seeded, with a budget no slow
/// machine reaches.
static AppOptions rewinding_scene_options(void)
{
    AppOptions opt = options_default();
    opt.headless = true;
    opt.rewind = true;
    opt.steps = 4000;
    opt.run.has_seed = true;
    opt.run.seed = 1;
    opt.run.time_budget_ms = 20000;
    opt.script = rt_path("scene.lua");
    return opt;
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
    AppOptions opt = rewinding_scene_options();
    opt.run.memory_cap = (size_t)64 << 20;
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
    AppOptions opt = rewinding_scene_options();
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

/* A summary lost to a full stdout is a run that did not do what was asked: exit 3 and a line on
 * stderr (it exited 0, saying nothing). A replay's summary too. */
static void test_a_summary_lost_to_a_full_stdout_exits_non_zero(void **state)
{
    (void)state;
    if (access("/dev/full", W_OK) != 0) skip();
    rt_write("scene.lua", "function load(w) w:spawn{} end\n");
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s --headless --steps 3 --time-budget %s --record %s %s > /dev/full 2> %s", STEER_BIN,
             RT_TIME_BUDGET_MS, rt_path("run.steer"), rt_path("scene.lua"), rt_path("err.txt"));
    int status = system(cmd);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 3);
    char *err = rt_read(rt_path("err.txt"));
    if (!strstr(err, "steer: cannot write the summary to standard output: No space left on device"))
        fail_msg("%s", err);
    free(err);
    snprintf(cmd, sizeof cmd, "%s --headless --replay %s > /dev/full 2> %s", STEER_BIN, rt_path("run.steer"),
             rt_path("err.txt"));
    status = system(cmd);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 3);
    err = rt_read(rt_path("err.txt"));
    if (!strstr(err, "steer: cannot write the summary to standard output")) fail_msg("%s", err);
    free(err);
    /* written: 0, as before */
    snprintf(cmd, sizeof cmd, "%s --headless --steps 3 --time-budget %s %s > /dev/null 2> %s", STEER_BIN,
             RT_TIME_BUDGET_MS, rt_path("scene.lua"), rt_path("err.txt"));
    assert_int_equal(system(cmd), 0);
}

/* A path longer than the system takes is said to be so, not "no such file": the scene, a
 * recording to replay, an output; the whole path over PATH_MAX, or one name in it over NAME_MAX. */
static void test_a_path_longer_than_the_system_takes_is_said_to_be_too_long(void **state)
{
    (void)state;
    static char longer[PATH_MAX + 600], name[400];
    snprintf(longer, sizeof longer, "%s", rt_dir);
    while (strlen(longer) < PATH_MAX + 100) strcat(longer, "/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    strcat(longer, "/scene.lua");
    memset(name, 'n', 300);
    name[300] = '\0';
    rt_write("scene.lua", "function load(w) w:spawn{} end\n");
    char named[1024], named_png[1024], longer_png[sizeof longer];
    snprintf(named, sizeof named, "%s/%s.lua", rt_dir, name);
    snprintf(named_png, sizeof named_png, "%s/%s.png", rt_dir, name);
    snprintf(longer_png, sizeof longer_png, "%.*s.png", (int)strlen(longer) - 4, longer);
    const struct {
        const char *args[8];
        const char *expect;
    } cases[] = {
        {{"--headless", longer, NULL}, "cannot open scene "},
        {{"--headless", named, NULL}, "cannot open scene "},
        {{"--headless", "--replay", longer, NULL}, "option --replay: "},
        {{"--headless", "--record", longer, rt_path("scene.lua"), NULL}, "option --record: "},
        {{"--headless", "--trace", named, rt_path("scene.lua"), NULL}, "option --trace: "},
        {{"--headless", "--screenshot", longer_png, rt_path("scene.lua"), NULL}, "option --screenshot: "},
        {{"--headless", "--screenshot", named_png, rt_path("scene.lua"), NULL}, "option --screenshot: "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *out, *err;
        int status = rt_run(cases[i].args, &out, &err);
        bool too_long =
            strstr(err, "the path is too long: ") || strstr(err, "a name in the path is too long: 300 bytes");
        if (status != 1 || !strstr(err, cases[i].expect) || !too_long || strstr(err, "no such file"))
            fail_msg("case %zu: status %d, stderr: %s", i, status, err);
        assert_true(strlen(err) < 400); /* the path cut to its ends */
        free(out);
        free(err);
    }
}

/* A recording is a program: --replay warns, once per function and line, when the recorded scripts
 * act on this machine (os.execute, os.remove, os.rename, io.output(path)); the run that recorded
 * them (the user's own) says nothing of it. Before, nothing was said. */
static void test_a_replay_warns_when_the_recorded_scripts_act_on_the_machine(void **state)
{
    (void)state;
    char scene[1024];
    snprintf(scene, sizeof scene,
             "function load(w) w:spawn{} end\n"
             "function update(w)\n"
             "  os.remove('%s')\n" /* every frame: warned once */
             "  if w.step_count == 2 then\n"
             "    os.execute('true'); os.rename('%s', '%s'); io.output('%s'); io.output(io.stdout); io.output()\n"
             "  end\n"
             "end\n",
             rt_path("none1"), rt_path("none2"), rt_path("none3"), rt_path("out.txt"));
    rt_write("scene.lua", scene);
    char *out, *err;
    const char *rec[] = {"--headless", "--steps", "5", "--record", rt_path("run.steer"), rt_path("scene.lua"), NULL};
    int status = rt_run(rec, &out, &err);
    if (status != 0) fail_msg("status %d, stderr:\n%s", status, err);
    assert_null(strstr(err, "warning"));
    free(out);
    free(err);
    const char *play[] = {"--headless", "--replay", rt_path("run.steer"), NULL};
    status = rt_run(play, &out, &err);
    if (status != 0) fail_msg("status %d, stderr:\n%s", status, err);
    assert_int_equal(rt_count(err, "steer: warning: the recorded scripts run os.remove (scene.lua:3, step 1) on this "
                                   "machine: a recording runs the code it holds; replay only files from someone you "
                                   "trust"),
                     1);
    assert_int_equal(rt_count(err, "run os.execute (scene.lua:5"), 1);
    assert_int_equal(rt_count(err, "run os.rename (scene.lua:5"), 1);
    assert_int_equal(rt_count(err, "run io.output (scene.lua:5"), 1); /* io.output() only answers: not an act */
    assert_non_null(strstr(err, "5 steps, 2 checksums matched"));
    free(out);
    free(err);
}

/* A float of a header written as this, then replaced in the file by the value to try: the writer
 * writes a think_hz < 0 (NaN too) as the scene's, which a damaged file need not. */
#define HEADER_SENTINEL 12345.0

/* Writes a recording that is only a header (h) as `name`, the header float written as
 * HEADER_SENTINEL replaced by `value`; returns the status of replaying it, with stderr in *err. */
static int replay_header_only(const TapeHeader *h, double value, const char *name, char **err)
{
    TapeBuffer b = {0};
    tape_put_header(&b, h);
    assert_false(b.failed);
    double sentinel = HEADER_SENTINEL;
    for (size_t i = 0; i + sizeof sentinel <= b.len; i++)
        if (!memcmp(b.data + i, &sentinel, sizeof sentinel)) memcpy(b.data + i, &value, sizeof value);
    FILE *f = fopen(rt_path(name), "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b.data, 1, b.len, f), b.len);
    fclose(f);
    tape_buffer_free(&b);
    char *out;
    const char *args[] = {"--headless", "--replay", rt_path(name), NULL};
    int status = rt_run(args, &out, err);
    free(out);
    return status;
}

/* A header whose option is past what the command line takes is a corrupt file (exit 1, which
 * option and why), not a scene that failed (physics_hz = inf passed a check of >= 0, and the replay
 * ran, failed and exited 6). Each float of the header, and the integers beside them. */
static void test_a_replay_header_with_an_option_out_of_range_is_a_corrupt_file(void **state)
{
    (void)state;
    TapeHeader good = {0};
    snprintf(good.program, sizeof good.program, "%s", STEER_VERSION);
    snprintf(good.lua, sizeof good.lua, "%s", LUA_RELEASE);
    snprintf(good.scene, sizeof good.scene, "/nowhere/scene.lua");
    good.run = run_settings_default();
    good.width = 800;
    good.height = 600;
    good.check_interval = 60;
    const struct {
        const char *field;
        double value;
        const char *expect;
    } cases[] = {
        {"physics_hz", INFINITY, "corrupt: the header's physics_hz is inf (0, the scene's, or 1 to 1e+06 expected)"},
        {"physics_hz", NAN, "corrupt: the header's physics_hz is nan"},
        {"physics_hz", -1.0, "corrupt: the header's physics_hz is -1"},
        {"physics_hz", 0.5, "corrupt: the header's physics_hz is 0.5"},
        {"physics_hz", 2e6, "corrupt: the header's physics_hz is 2e+06"},
        {"think_hz", INFINITY, "corrupt: the header's think_hz is inf (a number >= 0 expected)"},
        {"think_hz", -INFINITY, "corrupt: the header's think_hz is -inf"},
        {"think_hz", NAN, "corrupt: the header's think_hz is nan"},
        {"time_budget_ms", INFINITY, "corrupt: the header's time_budget_ms is inf (a number of milliseconds >= 1"},
        {"time_budget_ms", 0.0, "corrupt: the header's time_budget_ms is 0"},
        {"threads", 65, "corrupt: the header's threads is 65"},
        {"memory_cap", 0, "corrupt: the header's memory_cap is 0 bytes"},
        {"width", 15, "corrupt: the header's view is 15 x 600 pixels"},
        {"interval", 0, "corrupt: the header's checksum interval is 0 steps"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        TapeHeader h = good;
        const char *f = cases[i].field;
        double v = cases[i].value;
        if (!strcmp(f, "physics_hz")) h.run.physics_hz = HEADER_SENTINEL;
        if (!strcmp(f, "think_hz")) h.run.think_hz = HEADER_SENTINEL;
        if (!strcmp(f, "time_budget_ms")) h.run.time_budget_ms = HEADER_SENTINEL;
        if (!strcmp(f, "threads")) h.run.threads = (int)v;
        if (!strcmp(f, "memory_cap")) h.run.memory_cap = (size_t)v;
        if (!strcmp(f, "width")) h.width = (int)v;
        if (!strcmp(f, "interval")) h.check_interval = (uint32_t)v;
        char *err;
        int status = replay_header_only(&h, v, "bad.steer", &err);
        if (status != 1 || !strstr(err, cases[i].expect))
            fail_msg("%s = %g: status %d (1 expected), stderr: %s (expected '%s')", f, v, status, err, cases[i].expect);
        free(err);
    }
    /* the good header gets past its check (and then finds no records: a recording cut in its header) */
    char *err;
    int status = replay_header_only(&good, 0.0, "good.steer", &err);
    assert_int_equal(status, 1);
    assert_null(strstr(err, "the header's"));
    free(err);
}

/* The scene of issue #29: vehicles kept as keys of a table, walked with pairs() and given w:random
 * targets; names kept as keys of another, walked the same way. Lua walks a table in hash order: a
 * handle's slot depends on its address and a string's on the hash seed Lua draws per state, so a
 * replay (a fresh process) and a rewind's replay (a fresh state) handed the targets out in another
 * order and diverged at the first checksum: `the replay of the recording diverged: at step 60`.
 * The program's pairs walks in an order of the keys themselves (lpairs.c): both now replay. */
static const char PAIRS_SCENE[] = "local targets, names = {}, {}\n"
                                  "function load(w)\n"
                                  "  for i = 1, 20 do\n"
                                  "    local v = w:spawn{kind = 'walker', x = w:random(800), y = w:random(600),\n"
                                  "                      max_speed = 80}\n"
                                  "    targets[v] = true\n"
                                  "    names['walker' .. i] = v\n"
                                  "  end\n"
                                  "end\n"
                                  "function update(w, dt)\n"
                                  "  if w.step_count % 30 == 0 then\n"
                                  "    for v in pairs(targets) do v:arrive(w:random(800), w:random(600)) end\n"
                                  "    local k, v = next(names)\n" /* next too */
                                  "    while k do v.max_speed = 40 + w:random(80); k, v = next(names, k) end\n"
                                  "  end\n"
                                  "end\n";

static void test_a_scene_walking_vehicles_with_pairs_replays_in_another_process(void **state)
{
    (void)state;
    rt_write("scene.lua", PAIRS_SCENE);
    char *out, *err;
    const char *rec[] = {
        "--headless",         "--steps", "300", "--time-budget", RT_TIME_BUDGET_MS, "--record", rt_path("run.steer"),
        rt_path("scene.lua"), NULL};
    int status = rt_run(rec, &out, &err);
    if (status != 0) fail_msg("status %d, stderr:\n%s", status, err);
    free(out);
    free(err);
    const char *play[] = {"--headless", "--replay", rt_path("run.steer"), NULL};
    status = rt_run(play, &out, &err);
    if (status != 0) fail_msg("status %d, stderr:\n%s", status, err);
    assert_non_null(strstr(err, "300 steps, 7 checksums matched"));
    free(out);
    free(err);
}

/* The same scene in the window's path: Left, a jump back, and the way back to the live step all
 * replay in fresh states, and none diverges. */
static void test_a_scene_walking_vehicles_with_pairs_rewinds(void **state)
{
    (void)state;
    rt_write("scene.lua", PAIRS_SCENE);
    static App app;
    AppOptions opt = rewinding_scene_options();
    assert_int_equal(app_init(&app, &opt, NULL), 0);
    for (int i = 0; i < 300; i++) app_frame(&app, 1.0 / 60.0);
    assert_int_equal(app.session.steps, 300);
    uint64_t live = steer_world_checksum(script_world(app.session.host));
    app_feed_key(&app, SDLK_LEFT, 0); /* in a window: run 5 s, press Left once */
    app_frame(&app, 1.0 / 60.0);
    if (script_error(app.session.host)) fail_msg("%s", script_error(app.session.host));
    assert_true(rewind_in_past(app.session.rewind));
    assert_int_equal(app.session.steps, 299);
    char error[2048] = "";
    if (!rewind_jump(app.session.rewind, &app, 61, error, sizeof error)) fail_msg("%s", error);
    assert_int_equal(app.session.steps, 61);
    if (!rewind_jump(app.session.rewind, &app, 300, error, sizeof error)) fail_msg("%s", error);
    assert_int_equal(app.session.steps, 300);
    assert_int_equal(steer_world_checksum(script_world(app.session.host)), live);
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
        cmocka_unit_test_setup_teardown(test_a_scene_walking_vehicles_with_pairs_replays_in_another_process, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_scene_walking_vehicles_with_pairs_rewinds, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_replay_header_with_an_option_out_of_range_is_a_corrupt_file, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_summary_lost_to_a_full_stdout_exits_non_zero, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_replay_warns_when_the_recorded_scripts_act_on_the_machine, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_path_longer_than_the_system_takes_is_said_to_be_too_long, rt_setup,
                                        rt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
