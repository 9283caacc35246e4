/* SPDX-License-Identifier: MIT */
/* test_runtime_cli.c - the `steer` program run headless on real scene files: brains think at the
 * asked rate and staggered, the physics rate does not depend on the frame rate, script errors are
 * reported with file:line and never crash it, exit statuses, guards, require paths, seeds, a
 * window without a display, only regular files read as scenes, modules and recordings, no output
 * written over an input. */
#include "runtime_support.h"

/* Six vehicles whose brain prints "think <slot> <step_count> <dt>". */
static const char *THINK_SCENE = "local Brain = require 'counter'\n"
                                 "world = { width = 400, height = 400, seed = 1 }\n"
                                 "function load(w)\n"
                                 "  W = w\n"
                                 "  for i = 1, 6 do\n"
                                 "    local v = w:spawn{ kind = 'prey', x = 50 * i, y = 200 }\n"
                                 "    v.data.slot = i\n"
                                 "    v.brain = Brain\n"
                                 "  end\n"
                                 "end\n";
static const char *THINK_BRAIN = "local M = {}\n"
                                 "function M.think(v, dt)\n"
                                 "  print(string.format('think %d %d %.6f', v.data.slot, v.world.step_count, dt))\n"
                                 "end\n"
                                 "return M\n";

typedef struct Thinks {
    int count[7];
    int first_step[7];
    int residue_bad;    /* a vehicle that thought at two different step residues */
    int per_step[1000]; /* thinks in each step */
    double dt_min, dt_max;
} Thinks;

static Thinks parse_thinks(const char *out, int k)
{
    Thinks t;
    memset(&t, 0, sizeof t);
    t.dt_min = 1e9;
    for (const char *p = strstr(out, "think "); p; p = strstr(p + 1, "think ")) {
        int slot, step;
        double dt;
        assert_int_equal(sscanf(p, "think %d %d %lf", &slot, &step, &dt), 3);
        assert_true(slot >= 1 && slot <= 6 && step >= 0 && step < 1000);
        if (t.count[slot]++ == 0)
            t.first_step[slot] = step;
        else if (step % k != t.first_step[slot] % k)
            t.residue_bad++;
        t.per_step[step]++;
        if (dt < t.dt_min) t.dt_min = dt;
        if (dt > t.dt_max) t.dt_max = dt;
    }
    return t;
}

static void test_brains_think_at_the_asked_rate_staggered_over_steps(void **state)
{
    (void)state;
    rt_write("scene.lua", THINK_SCENE);
    rt_write("counter.lua", THINK_BRAIN);
    char *out, *err;
    const char *args[] = {"--headless", "--steps", "120", "--think-hz", "10", rt_path("scene.lua"), NULL};
    assert_int_equal(rt_run(args, &out, &err), 0);
    Thinks t = parse_thinks(out, 6);
    for (int i = 1; i <= 6; i++) assert_int_equal(t.count[i], 20); /* 10 Hz for 2 s */
    assert_int_equal(t.residue_bad, 0);
    assert_near(t.dt_min, 0.1, 1e-6);
    assert_near(t.dt_max, 0.1, 1e-6);
    /* staggered: 6 vehicles over 6 steps, one per step, never all in the same step */
    for (int s = 0; s < 120; s++) assert_int_equal(t.per_step[s], 1);
    free(out);
    free(err);

    const char *fast[] = {"--headless", "--steps", "120", "--think-hz", "30", rt_path("scene.lua"), NULL};
    assert_int_equal(rt_run(fast, &out, &err), 0);
    t = parse_thinks(out, 2);
    for (int i = 1; i <= 6; i++) assert_int_equal(t.count[i], 60);
    for (int s = 0; s < 120; s++) assert_int_equal(t.per_step[s], 3);
    assert_near(t.dt_max, 1.0 / 30.0, 1e-6);
    free(out);
    free(err);

    const char *never[] = {"--headless", "--steps", "60", "--think-hz", "0", rt_path("scene.lua"), NULL};
    assert_int_equal(rt_run(never, &out, &err), 0);
    assert_null(strstr(out, "think "));
    free(out);
    free(err);
}

static const char *MOVING_SCENE =
    "world = { width = 500, height = 500, edges = 'wrap', seed = 5 }\n"
    "local updates = 0\n"
    "function load(w)\n"
    "  for i = 1, 5 do\n"
    "    local v = w:spawn{ kind = 'a', x = 80 * i, y = 100 + 40 * i, vx = 20, vy = -10 }\n"
    "    v:wander{ radius = 20, distance = 40, jitter = 80 }\n"
    "    v:seek(250, 250, { weight = 0.5 })\n"
    "  end\n"
    "end\n"
    "function update(w, dt)\n"
    "  updates = updates + 1\n"
    "  if w.step_count == 119 or w.step_count == 239 then\n"
    "    for _, v in ipairs(w:vehicles()) do print(string.format('pos %.9f %.9f', v.x, v.y)) end\n"
    "    print(string.format('updates %d dt %.6f time %.6f', updates, dt, w.time))\n"
    "  end\n"
    "end\n";

static char *positions(const char *out)
{
    const char *p = strstr(out, "pos ");
    assert_non_null(p);
    const char *end = strstr(out, "summary:");
    return strndup(p, (size_t)(end - p));
}

static void test_physics_rate_does_not_depend_on_the_frame_rate(void **state)
{
    (void)state;
    rt_write("moving.lua", MOVING_SCENE);
    char *out30, *out144, *err;
    const char *a30[] = {"--headless", "--steps", "240", "--fps", "30", rt_path("moving.lua"), NULL};
    const char *a144[] = {"--headless", "--steps", "240", "--fps", "144", rt_path("moving.lua"), NULL};
    assert_int_equal(rt_run(a30, &out30, &err), 0);
    free(err);
    assert_int_equal(rt_run(a144, &out144, &err), 0);
    free(err);
    char *p30 = positions(out30), *p144 = positions(out144);
    assert_string_equal(p30, p144); /* same trajectories, bit for bit */
    assert_non_null(strstr(p30, "updates 120 dt 0.016667 time 1.983333"));
    assert_non_null(strstr(p30, "updates 240 dt 0.016667"));
    /* 240 steps of 1/60 s: 120 frames of 1/30 s, but 576 frames of 1/144 s */
    assert_non_null(strstr(out30, "steps=240 time=4.000"));
    assert_non_null(strstr(out30, "frames=120 "));
    int frames144 = atoi(strstr(out144, "frames=") + 7);
    assert_true(frames144 >= 576 && frames144 <= 577);
    free(p30);
    free(p144);
    free(out30);
    free(out144);

    /* --physics-hz changes the step, not the simulated time per step count */
    char *out, *err2;
    const char *a120[] = {"--headless", "--steps", "240", "--physics-hz", "120", rt_path("moving.lua"), NULL};
    assert_int_equal(rt_run(a120, &out, &err2), 0);
    assert_non_null(strstr(out, "dt 0.008333"));
    assert_non_null(strstr(out, "steps=240 time=2.000"));
    free(out);
    free(err2);
}

static void test_update_error_is_reported_with_file_line_and_run_goes_on_exit_2(void **state)
{
    (void)state;
    rt_write("bad.lua", "function load(w) w:spawn{ kind = 'a', x = 10, y = 10 } end\n"
                        "function update(w, dt)\n"
                        "  if w.step_count >= 5 then\n"
                        "    local t = nil\n"
                        "    return t.field\n"
                        "  end\n"
                        "  if w.step_count % 10 == 0 then print('alive ' .. w.step_count) end\n"
                        "end\n");
    char *out, *err;
    const char *args[] = {"--headless", "--steps", "30", rt_path("bad.lua"), NULL};
    assert_int_equal(rt_run(args, &out, &err), 2);
    assert_non_null(strstr(err, "bad.lua:5: attempt to index a nil value (local 't')"));
    assert_non_null(strstr(err, "stack traceback:"));
    assert_int_equal(rt_count(err, "attempt to index"), 1); /* the same error each step, printed once */
    assert_non_null(strstr(out, "alive 0"));
    assert_non_null(strstr(out, "steps=30 "));  /* the simulation kept running */
    assert_non_null(strstr(out, "errors=25 ")); /* steps 5..29 */
    free(out);
    free(err);
}

static void test_failing_brain_stops_thinking_others_go_on(void **state)
{
    (void)state;
    rt_write("brains.lua", "local Good = { think = function(v, dt) v.data.n = v.data.n + 1 end }\n"
                           "local Bad = { think = function(v, dt) v.data.n = v.data.n + 1; error('bad brain') end }\n"
                           "function load(w)\n"
                           "  local a = w:spawn{ kind = 'a', x = 10, y = 10 }\n"
                           "  a.data.n = 0; a.brain = Good\n"
                           "  local b = w:spawn{ kind = 'b', x = 20, y = 10 }\n"
                           "  b.data.n = 0; b.brain = Bad\n"
                           "  A, B = a, b\n"
                           "end\n"
                           "function update(w, dt)\n"
                           "  if w.step_count == 59 then print('counts ' .. A.data.n .. ' ' .. B.data.n) end\n"
                           "end\n");
    char *out, *err;
    const char *args[] = {"--headless", "--steps", "60", rt_path("brains.lua"), NULL};
    assert_int_equal(rt_run(args, &out, &err), 2);
    assert_non_null(strstr(out, "counts 10 1"));
    assert_non_null(strstr(err, "brains.lua:2: bad brain"));
    assert_non_null(strstr(out, "errors=1 "));
    free(out);
    free(err);
}

static void test_scene_that_fails_to_load_exits_1_with_file_and_line(void **state)
{
    (void)state;
    char *out, *err;
    rt_write("syntax.lua", "function load(w)\n  local x = = 1\nend\n");
    const char *a1[] = {"--headless", rt_path("syntax.lua"), NULL};
    assert_int_equal(rt_run(a1, &out, &err), 1);
    assert_non_null(strstr(err, "syntax.lua:2: unexpected symbol near '='"));
    free(out);
    free(err);

    rt_write("loadfail.lua", "function load(w)\n  w:spawn{ kind = 'a', x = 'left' }\nend\n");
    const char *a2[] = {"--headless", rt_path("loadfail.lua"), NULL};
    assert_int_equal(rt_run(a2, &out, &err), 1);
    assert_non_null(strstr(err, "the scene failed to load: loadfail.lua:2: bad argument #1 to 'spawn'"));
    free(out);
    free(err);

    const char *a3[] = {"--headless", rt_path("missing.lua"), NULL};
    assert_int_equal(rt_run(a3, &out, &err), 1);
    assert_non_null(strstr(err, "missing.lua"));
    free(out);
    free(err);
}

static void test_endless_loop_in_update_is_stopped_at_the_budget(void **state)
{
    (void)state;
    rt_write("loop.lua", "function update(w, dt)\n"
                         "  if w.step_count == 3 then\n"
                         "    while true do end\n"
                         "  end\n"
                         "  if w.step_count == 9 then print('after the loop') end\n"
                         "end\n");
    char *out, *err;
    const char *args[] = {"--headless", "--steps", "10", "--time-budget", "50", rt_path("loop.lua"), NULL};
    assert_int_equal(rt_run(args, &out, &err), 2); /* (rt_run fails the test if it hangs) */
    assert_non_null(strstr(err, "loop.lua:3: script exceeded its time budget (50 ms)"));
    assert_non_null(strstr(out, "after the loop"));
    free(out);
    free(err);
}

static void test_memory_bomb_hits_the_cap_and_the_program_survives(void **state)
{
    (void)state;
    rt_write("bomb.lua", "local hoard = {}\n"
                         "local Bomb = { think = function(v, dt)\n"
                         "  for i = 1, 1e9 do hoard[#hoard + 1] = string.rep('x', 4096) .. i end\n"
                         "end }\n"
                         "function load(w) local v = w:spawn{ kind = 'a', x = 1, y = 1 }; v.brain = Bomb end\n"
                         "function update(w, dt)\n"
                         "  if w.step_count == 20 then hoard = {}; collectgarbage(); print('alive ' .. #hoard) end\n"
                         "end\n");
    char *out, *err;
    /* (a budget far beyond the bomb's run, however busy the machine: the cap must be what stops it) */
    const char *args[] = {"--headless", "--steps",           "30", "--memory-cap", "32", "--time-budget",
                          "60000",      rt_path("bomb.lua"), NULL};
    assert_int_equal(rt_run(args, &out, &err), 2);
    assert_non_null(strstr(err, "not enough memory"));
    assert_non_null(strstr(out, "alive 0"));
    assert_non_null(strstr(out, "steps=30 "));
    free(out);
    free(err);
}

static void test_require_finds_scene_folder_and_scripts_lib_with_relative_chunk_names(void **state)
{
    (void)state;
    rt_write("scripts/lib/helper.lua", "local M = {}\nfunction M.twice(x)\n  return x * 2\nend\n"
                                       "function M.fail()\n  error('from the lib')\nend\nreturn M\n");
    rt_write("scripts/demo/part.lua", "return { name = 'private part' }\n");
    rt_write("scripts/demo.lua", "local helper = require 'helper'\n"
                                 "local part = require 'demo.part'\n"
                                 "function load(w) print(part.name, helper.twice(21)) end\n"
                                 "function update(w, dt) if w.step_count == 2 then helper.fail() end end\n");
    char *out, *err;
    const char *args[] = {"--headless", "--steps", "5", rt_path("scripts/demo.lua"), NULL};
    assert_int_equal(rt_run(args, &out, &err), 2);
    assert_non_null(strstr(out, "private part\t42"));
    assert_non_null(strstr(err, "lib/helper.lua:6: from the lib"));
    assert_non_null(strstr(err, "demo.lua:4: in function <demo.lua:4>"));
    free(out);
    free(err);
}

static void test_world_options_from_scene_table_and_seed_override(void **state)
{
    (void)state;
    rt_write("seeded.lua",
             "return {\n"
             "  world = { width = 321, height = 123, seed = 9 },\n"
             "  load = function(w) print(string.format('size %d %d r %.12f', w.width, w.height, w:random())) end,\n"
             "}\n");
    char *o1, *o2, *o3, *err;
    const char *a1[] = {"--headless", "--steps", "1", rt_path("seeded.lua"), NULL};
    const char *a2[] = {"--headless", "--steps", "1", "--seed", "9", rt_path("seeded.lua"), NULL};
    const char *a3[] = {"--headless", "--steps", "1", "--seed", "10", rt_path("seeded.lua"), NULL};
    assert_int_equal(rt_run(a1, &o1, &err), 0);
    free(err);
    assert_int_equal(rt_run(a2, &o2, &err), 0);
    free(err);
    assert_int_equal(rt_run(a3, &o3, &err), 0);
    free(err);
    assert_non_null(strstr(o1, "size 321 123 r "));
    *strchr(o1, '\n') = *strchr(o2, '\n') = *strchr(o3, '\n') = '\0';
    assert_string_equal(o1, o2);
    assert_string_not_equal(o1, o3);
    free(o1);
    free(o2);
    free(o3);
}

static void test_help_and_bad_options(void **state)
{
    (void)state;
    char *out, *err;
    const char *a1[] = {"--help", NULL};
    assert_int_equal(rt_run(a1, &out, &err), 0);
    assert_non_null(strstr(out, "usage: "));
    assert_non_null(strstr(out, "--time-budget MS"));
    free(out);
    free(err);
    const char *a2[] = {"--steps", "x", "s.lua", NULL};
    assert_int_equal(rt_run(a2, &out, &err), 1);
    assert_non_null(strstr(err, "option --steps: a whole number >= 0 expected, got 'x'"));
    free(out);
    free(err);
}

/* ---- The CLI tells the truth: what cannot be done as asked is a message and a non-zero exit ---- */

static const char *PLAIN_SCENE = "function load(w) w:spawn{ kind = 'a', x = 10, y = 10 } end\n";

/* Runs steer with args; expects `status`, `needle` on stderr and, for a refusal before running,
 * no summary (the scene never ran). */
static void expect_refusal(const char *const *args, int status, const char *needle)
{
    char *out, *err;
    int got = rt_run(args, &out, &err);
    if (got != status || !strstr(err, needle))
        fail_msg("exit %d (expected %d), stderr: %s (expected '%s')", got, status, err, needle);
    if (status == 1) assert_null(strstr(out, "summary:"));
    free(out);
    free(err);
}

static void test_screenshot_into_a_missing_folder_is_refused_before_running(void **state)
{
    (void)state;
    rt_write("plain.lua", PLAIN_SCENE);
    const char *args[] = {"--headless",         "--steps", "5", "--screenshot", rt_path("nodir/x.png"),
                          rt_path("plain.lua"), NULL};
    expect_refusal(args, 1, "cannot write the screenshot");
    expect_refusal(args, 1, "no folder");
}

static void test_screenshot_that_cannot_be_saved_exits_3(void **state)
{
    (void)state;
    /* the folder exists when the run starts and is gone when the picture is saved */
    rt_write("shots/keep.txt", "");
    char scene[2048];
    snprintf(scene, sizeof scene,
             "function load(w)\n"
             "  w:spawn{ kind = 'a', x = 10, y = 10 }\n"
             "  assert(os.remove('%s'))\n"
             "  assert(os.remove('%s'))\n"
             "end\n",
             rt_path("shots/keep.txt"), rt_path("shots"));
    rt_write("vanish.lua", scene);
    char *out, *err;
    const char *args[] = {"--headless",          "--steps", "5", "--screenshot", rt_path("shots/x.png"),
                          rt_path("vanish.lua"), NULL};
    assert_int_equal(rt_run(args, &out, &err), 3);
    assert_non_null(strstr(err, "cannot save the screenshot"));
    assert_non_null(strstr(out, "steps=5 ")); /* the run itself went to its end */
    free(out);
    free(err);
}

static void test_scene_that_is_a_directory_is_refused(void **state)
{
    (void)state;
    rt_write("folder/scene.lua", PLAIN_SCENE);
    const char *args[] = {"--headless", "--steps", "5", rt_path("folder"), NULL};
    expect_refusal(args, 1, "is a directory; a scene is a Lua file");
}

/* A scene, module or recording that is a device (a link to /dev/zero read without end) or a FIFO
 * (whose open blocks without a writer) is refused at once, naming what it is. */
static void test_only_regular_files_are_read_as_scenes_modules_and_recordings(void **state)
{
    (void)state;
    assert_int_equal(symlink("/dev/zero", rt_path("zero.lua")), 0);
    assert_int_equal(mkfifo(rt_path("fifo.lua"), 0600), 0);
    assert_int_equal(mkfifo(rt_path("fifo.rec"), 0600), 0);
    rt_write("needs_fifo.lua", "require 'fifo'\n");
    const char *zero[] = {"--headless", "--steps", "3", rt_path("zero.lua"), NULL};
    expect_refusal(zero, 1, "cannot open /dev/zero: it is a device, not a file");
    const char *fifo[] = {"--headless", "--steps", "3", rt_path("fifo.lua"), NULL};
    expect_refusal(fifo, 1, "fifo.lua: it is a FIFO (a named pipe), not a file");
    const char *module[] = {"--headless", "--steps", "3", rt_path("needs_fifo.lua"), NULL};
    expect_refusal(module, 1, "fifo.lua: it is a FIFO (a named pipe), not a file");
    const char *replay_zero[] = {"--headless", "--replay", "/dev/zero", NULL};
    expect_refusal(replay_zero, 1, "option --replay: cannot open /dev/zero: it is a device, not a file");
    const char *replay_fifo[] = {"--headless", "--replay", rt_path("fifo.rec"), NULL};
    expect_refusal(replay_fifo, 1, "fifo.rec: it is a FIFO (a named pipe), not a file");
    const char *replay_folder[] = {"--headless", "--replay", rt_dir, NULL};
    expect_refusal(replay_folder, 1, "it is a folder, not a file");
}

/* An output option naming an input, however spelt, is refused before anything is written: the
 * input is left as it was. */
static void test_an_output_that_names_an_input_is_refused_and_the_input_kept(void **state)
{
    (void)state;
    rt_write("s.lua", PLAIN_SCENE);
    rt_write("run.steer", "not a recording, and kept");
    assert_int_equal(symlink(rt_path("run.steer"), rt_path("link.steer")), 0);
    char dotted[512];
    snprintf(dotted, sizeof dotted, "%s/./s.lua", rt_dir);
    const char *record[] = {"--headless", "--steps", "3", "--record", dotted, rt_path("s.lua"), NULL};
    expect_refusal(record, 1, "option --record: ");
    expect_refusal(record, 1, "s.lua is also the scene: writing the recording there would destroy the scene");
    const char *trace[] = {"--headless", "--steps", "3", "--trace", rt_path("s.lua"), rt_path("s.lua"), NULL};
    expect_refusal(trace, 1, "s.lua is also the scene: writing the trace there would destroy the scene");
    const char *replay[] = {"--headless", "--replay", rt_path("run.steer"), "--trace", rt_path("link.steer"), NULL};
    expect_refusal(replay, 1,
                   "link.steer is also the file of --replay: writing the trace there would destroy the recording");
    char *scene = rt_read(rt_path("s.lua")), *run = rt_read(rt_path("run.steer"));
    assert_string_equal(scene, PLAIN_SCENE);
    assert_string_equal(run, "not a recording, and kept");
    free(scene);
    free(run);
}

static void test_at_step_past_the_end_of_the_run_is_refused_before_running(void **state)
{
    (void)state;
    rt_write("plain.lua", PLAIN_SCENE);
    const char *a1[] = {"--headless",     "--at-step",          "5000", "--steps", "100", "--screenshot",
                        rt_path("a.png"), rt_path("plain.lua"), NULL};
    expect_refusal(a1, 1, "option --at-step: step 5000 is never reached, the run ends after step 100 (--steps)");
    /* headless without --steps runs 600 steps */
    const char *a2[] = {"--headless",     "--at-step",          "5000", "--screenshot",
                        rt_path("a.png"), rt_path("plain.lua"), NULL};
    expect_refusal(a2, 1, "the run ends after step 600");
    char *png = rt_read(rt_path("a.png"));
    assert_string_equal(png, ""); /* nothing written */
    free(png);
}

static void test_at_step_never_reached_because_the_run_was_stopped_exits_3(void **state)
{
    (void)state;
    /* --watch runs headless until SIGTERM, in real time: step 1,000,000 is hours away */
    rt_write("slow.lua", "function load(w) w:spawn{ kind = 'a', x = 10, y = 10 } end\n"
                         "function update(w, dt) if w.step_count == 2 then io.stderr:write('running\\n') end end\n");
    const char *args[] = {"--headless",   "--watch",           "--at-step",         "1000000",
                          "--screenshot", rt_path("late.png"), rt_path("slow.lua"), NULL};
    RtProcess p = rt_start(args);
    assert_true(rt_wait_for(p.err, 0, "running", RT_DEADLINE_S) >= 0);
    assert_int_equal(rt_stop(&p), 3);
    char *err = rt_read(p.err);
    assert_non_null(strstr(err, "no screenshot written: step 1000000 was never reached"));
    free(err);
}

static void test_screenshot_with_an_unknown_extension_is_refused(void **state)
{
    (void)state;
    rt_write("plain.lua", PLAIN_SCENE);
    const char *args[] = {"--headless", "--steps", "2", "--screenshot", rt_path("out.jpg"), rt_path("plain.lua"), NULL};
    expect_refusal(args, 1, "only PNG is written, a file name ending in .png expected, got");
    char *jpg = rt_read(rt_path("out.jpg"));
    assert_string_equal(jpg, ""); /* never PNG bytes under another name */
    free(jpg);
    /* the extension is not case-sensitive */
    const char *ok[] = {"--headless", "--steps", "2", "--screenshot", rt_path("OUT.PNG"), rt_path("plain.lua"), NULL};
    char *out, *err;
    assert_int_equal(rt_run(ok, &out, &err), 0);
    free(out);
    free(err);
    char *png = rt_read(rt_path("OUT.PNG"));
    assert_memory_equal(png + 1, "PNG", 3);
    free(png);
}

static void test_a_repeated_option_with_another_value_is_refused(void **state)
{
    (void)state;
    rt_write("plain.lua", PLAIN_SCENE);
    const char *a1[] = {
        "--headless",         "--steps", "10", "--screenshot", rt_path("a.png"), "--at-step", "5", "--at-step", "7",
        rt_path("plain.lua"), NULL};
    expect_refusal(a1, 1, "option --at-step given twice, with '5' and '7'");
    const char *a2[] = {"--headless", "--steps", "10", "--seed", "1", "--seed", "2", rt_path("plain.lua"), NULL};
    expect_refusal(a2, 1, "option --seed given twice");
    /* the same value twice asks for one thing: fine */
    const char *a3[] = {"--headless", "--steps", "3", "--steps", "3", rt_path("plain.lua"), NULL};
    char *out, *err;
    assert_int_equal(rt_run(a3, &out, &err), 0);
    assert_non_null(strstr(out, "steps=3 "));
    free(out);
    free(err);
}

/* --select N past the scene's vehicles selected nothing, silently: like any other thing the command
 * line asks and the run cannot do, it is a message and status 1. Within the count it runs. */
static void test_select_past_the_scenes_vehicles_is_refused(void **state)
{
    (void)state;
    rt_write("three.lua", "function load(w) for i = 1, 3 do w:spawn{ kind = 'a', x = 10 * i } end end\n");
    char *out, *err;
    const char *past[] = {"--headless", "--steps", "5", "--select", "4", rt_path("three.lua"), NULL};
    assert_int_equal(rt_run(past, &out, &err), 1);
    assert_string_equal(err, "steer: option --select 4: the scene has 3 vehicles once loaded\n");
    assert_string_equal(out, "");
    free(out);
    free(err);
    const char *last[] = {"--headless", "--steps", "5", "--select", "3", rt_path("three.lua"), NULL};
    assert_int_equal(rt_run(last, &out, &err), 0);
    free(out);
    free(err);
}

static void test_at_step_without_a_screenshot_is_refused(void **state)
{
    (void)state;
    rt_write("plain.lua", PLAIN_SCENE);
    const char *args[] = {"--headless", "--steps", "10", "--at-step", "5", rt_path("plain.lua"), NULL};
    expect_refusal(args, 1, "option --at-step: says when to take the --screenshot, but none was asked for");
}

static void test_headless_runs_call_draw_so_a_broken_draw_fails_with_or_without_screenshot(void **state)
{
    (void)state;
    rt_write("baddraw.lua", "local frames = 0\n"
                            "function load(w) w:spawn{ kind = 'a', x = 10, y = 10 } end\n"
                            "function draw(gfx)\n"
                            "  frames = frames + 1\n"
                            "  if frames == 3 then print('drawn 3 frames') end\n"
                            "  gfx.circle(10, 10, 5, {255, 0, 0}, true)\n"
                            "  gfx.line(0, 0, 10, 10, 'red')\n"
                            "end\n");
    const char *plain[] = {"--headless", "--steps", "5", rt_path("baddraw.lua"), NULL};
    const char *shot[] = {"--headless", "--steps", "5", "--screenshot", rt_path("d.png"), rt_path("baddraw.lua"), NULL};
    const char *const *runs[] = {plain, shot};
    for (int i = 0; i < 2; i++) {
        char *out, *err;
        assert_int_equal(rt_run(runs[i], &out, &err), 2);
        assert_non_null(strstr(out, "drawn 3 frames"));
        assert_non_null(
            strstr(err, "baddraw.lua:7: bad argument #5 to 'line' (color {r, g, b[, a]} expected, got string)"));
        free(out);
        free(err);
    }
    /* a draw that errors on its own, not through gfx */
    rt_write("baddraw.lua", "function draw(gfx)\n  local t = nil\n  return t.x\nend\n");
    for (int i = 0; i < 2; i++) {
        char *out, *err;
        assert_int_equal(rt_run(runs[i], &out, &err), 2);
        assert_non_null(strstr(err, "baddraw.lua:3: attempt to index a nil value (local 't')"));
        free(out);
        free(err);
    }
}

/* ---- No script can hang the program ---------------------------------------------------------- */

/* At step 3 update makes garbage whose finalizer never returns, and collects it: Lua runs
 * finalizers with hooks off, so the time budget cannot stop it. Line 6 is the endless loop. */
static const char *SPINNING_FINALIZER = "function load(w) w:spawn{ kind = 'a', x = 1, y = 1 } end\n"
                                        "function update(w, dt)\n"
                                        "  if w.step_count == 3 then\n"
                                        "    io.stderr:write('spinning\\n')\n"
                                        "    setmetatable({}, { __gc = function()\n"
                                        "      while true do end\n"
                                        "    end })\n"
                                        "    collectgarbage()\n"
                                        "  end\n"
                                        "end\n";

static void test_a_finalizer_that_never_returns_ends_the_run_naming_budget_and_line(void **state)
{
    (void)state;
    rt_write("gc.lua", SPINNING_FINALIZER);
    char *out, *err;
    const char *args[] = {"--headless", "--steps", "10", "--time-budget", "50", rt_path("gc.lua"), NULL};
    assert_int_equal(rt_run(args, &out, &err), 4); /* after 10 budgets, at least 5 s */
    assert_non_null(strstr(err, "gc.lua:6: script exceeded its time budget (50 ms) where it cannot be interrupted"));
    assert_non_null(strstr(err, "ending the run"));
    free(out);
    free(err);
}

static void test_one_long_c_call_ends_the_run_naming_budget_and_line(void **state)
{
    (void)state;
    /* a pattern that backtracks 2^40 times inside string.find: no hook runs in a C function */
    rt_write("find.lua", "function update(w, dt)\n"
                         "  if w.step_count == 2 then\n"
                         "    local s = ('a'):rep(40)\n"
                         "    return s:find(('a?'):rep(40) .. s)\n"
                         "  end\n"
                         "end\n");
    char *out, *err;
    const char *args[] = {"--headless", "--steps", "10", "--time-budget", "100", rt_path("find.lua"), NULL};
    assert_int_equal(rt_run(args, &out, &err), 4);
    assert_non_null(strstr(err, "find.lua:4: script exceeded its time budget (100 ms) where it cannot be interrupted"));
    free(out);
    free(err);
}

static void test_a_finalizer_that_never_returns_at_exit_ends_the_program(void **state)
{
    (void)state;
    /* kept alive until the Lua state closes, which runs its finalizer */
    rt_write("close.lua", "function load(w)\n"
                          "  keep = setmetatable({}, { __gc = function() while true do end end })\n"
                          "end\n");
    char *out, *err;
    const char *args[] = {"--headless", "--steps", "5", rt_path("close.lua"), NULL};
    assert_int_equal(rt_run(args, &out, &err), 4);
    assert_non_null(strstr(out, "steps=5 ")); /* the run itself was complete */
    assert_non_null(strstr(err, "closing the scripts took over 5 s"));
    free(out);
    free(err);
}

/* Starts the spinning scene, waits until its finalizer spins, sends `sig`; returns the status. */
static int signal_a_stuck_run(const char *const *args, int sig, char **err)
{
    rt_write("gc.lua", SPINNING_FINALIZER);
    RtProcess p = rt_start(args);
    assert_true(rt_wait_for(p.err, 0, "spinning", RT_DEADLINE_S) >= 0);
    kill(p.pid, sig);
    int status = rt_wait(&p);
    *err = rt_read(p.err);
    return status;
}

static void test_sigterm_ends_a_headless_run_stuck_in_a_finalizer(void **state)
{
    (void)state;
    /* a budget of 10 minutes: only the signal can end this run */
    const char *args[] = {"--headless", "--watch", "--time-budget", "600000", rt_path("gc.lua"), NULL};
    char *err;
    assert_int_equal(signal_a_stuck_run(args, SIGTERM, &err), 128 + SIGTERM);
    assert_non_null(strstr(err, "steer: SIGTERM: a script still held the program a second later (at gc.lua:6)"));
    free(err);
}

static void test_sigint_ends_a_window_stuck_in_a_finalizer(void **state)
{
    (void)state;
    setenv("SDL_VIDEODRIVER", "dummy", 1); /* a window without a display */
    const char *args[] = {"--time-budget", "600000", rt_path("gc.lua"), NULL};
    char *err;
    assert_int_equal(signal_a_stuck_run(args, SIGINT, &err), 128 + SIGINT);
    unsetenv("SDL_VIDEODRIVER");
    assert_non_null(strstr(err, "steer: SIGINT: a script still held the program a second later (at gc.lua:6)"));
    free(err);
}

/* The environment variable `name` as it was (malloc'd, NULL when unset), then unset. */
static char *take_env(const char *name)
{
    const char *value = getenv(name);
    char *copy = value ? strdup(value) : NULL;
    unsetenv(name);
    return copy;
}

static void give_env(const char *name, char *value)
{
    if (value) setenv(name, value, 1);
    free(value);
}

/* Without a display SDL falls back to a driver that shows nothing: the program says so and stops,
 * rather than run a window nobody sees. A driver asked for by name (the tests' dummy) still runs. */
static void test_a_window_without_a_display_says_so(void **state)
{
    (void)state;
    rt_write("scene.lua", "function load(w) w:spawn{} end\n");
    char *driver = take_env("SDL_VIDEODRIVER"), *display = take_env("DISPLAY"), *wayland = take_env("WAYLAND_DISPLAY");
    const char *args[] = {"--steps", "5", rt_path("scene.lua"), NULL};
    char *out, *err;
    int status = rt_run(args, &out, &err);
    give_env("SDL_VIDEODRIVER", driver);
    give_env("DISPLAY", display);
    give_env("WAYLAND_DISPLAY", wayland);
    if (status == 0) { /* SDL found a real screen all the same (a console with DRM access) */
        free(out);
        free(err);
        skip();
    }
    assert_int_equal(status, 1);
    assert_non_null(strstr(err, "steer: cannot open the window: no display to show it on (SDL found only its '"));
    assert_non_null(strstr(err, "run with --headless (add --screenshot out.png for a picture)"));
    free(out);
    free(err);
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    assert_int_equal(rt_run(args, &out, &err), 0);
    free(out);
    free(err);
}

static void test_sigterm_ends_a_long_interruptible_loop_under_a_long_budget(void **state)
{
    (void)state;
    rt_write("loop.lua", "function update(w, dt)\n"
                         "  if w.step_count == 3 then\n"
                         "    io.stderr:write('spinning\\n')\n"
                         "    while true do end\n"
                         "  end\n"
                         "end\n");
    const char *args[] = {"--headless", "--watch", "--time-budget", "600000", rt_path("loop.lua"), NULL};
    RtProcess p = rt_start(args);
    assert_true(rt_wait_for(p.err, 0, "spinning", RT_DEADLINE_S) >= 0);
    kill(p.pid, SIGTERM);
    assert_int_equal(rt_wait(&p), 128 + SIGTERM);
    char *err = rt_read(p.err);
    /* stopped at its line like a timeout, so the run ends cleanly (issue #29), not by the watchdog */
    assert_non_null(strstr(err, "loop.lua:4: script stopped: the program received SIGTERM"));
    char *stopped = rt_read(p.out);
    assert_non_null(strstr(stopped, "summary: steps="));
    free(stopped);
    free(err);
    /* and a run that holds nothing ends at the signal as before: status 0, with its summary */
    const char *calm[] = {"--headless", "--watch", rt_path("plain.lua"), NULL};
    rt_write("plain.lua", "function load(w) w:spawn{ kind = 'a', x = 10, y = 10 } end\n"
                          "function update(w, dt) if w.step_count == 2 then io.stderr:write('running\\n') end end\n");
    p = rt_start(calm);
    assert_true(rt_wait_for(p.err, 0, "running", RT_DEADLINE_S) >= 0);
    assert_int_equal(rt_stop(&p), 0);
    char *out = rt_read(p.out);
    assert_non_null(strstr(out, "summary: "));
    free(out);
}

/* The scene's words come after --, as its `arg`; a word given without -- is refused, saying so; a
 * misnamed key in steer.keyboard.is_down is an error naming the function, the argument and the
 * name it resembles. */
static void test_words_after_the_double_dash_are_the_scenes_arg_and_is_down_checks_its_names(void **state)
{
    (void)state;
    rt_write("words.lua", "local steer = require 'steer'\n"
                          "world = {}\n"
                          "function load(w)\n"
                          "  print('arg0', arg[0])\n"
                          "  print('words', #arg, table.concat(arg, '|', 1))\n"
                          "  print('is_down', steer.keyboard.is_down('left', 'a', 'space', 'kp1', 'f10', '['))\n"
                          "  for _, bad in ipairs{'lft', 'Left', 'A'} do\n"
                          "    print(select(2, pcall(steer.keyboard.is_down, 'a', bad)))\n"
                          "  end\n"
                          "  print(select(2, pcall(steer.keyboard.is_down)))\n"
                          "  print(select(2, pcall(steer.keyboard.is_down, 3)))\n"
                          "  print(select(2, pcall(steer.keyboard.set_key_repeat, 'yes')))\n"
                          "  print('repeat', steer.keyboard.has_key_repeat())\n"
                          "end\n");
    const char *scene = rt_path("words.lua");
    const char *args[] = {"--headless", "--steps", "1", "--time-budget", RT_TIME_BUDGET_MS, scene, "--", "a b",
                          "--seed",     "",        NULL};
    char *out, *err;
    assert_int_equal(rt_run(args, &out, &err), 0);
    char want[1200];
    snprintf(want, sizeof want, "arg0\t%s\n", scene);
    assert_non_null(strstr(out, want));
    assert_non_null(strstr(out, "words\t3\ta b|--seed|\n")); /* (after --, every word is the scene's) */
    assert_non_null(strstr(out, "is_down\tfalse\n"));
    assert_non_null(strstr(out, "bad argument #2 to 'is_down' (unknown key 'lft' (did you mean 'left'?))\n"));
    assert_non_null(strstr(out, "bad argument #2 to 'is_down' (unknown key 'Left' (did you mean 'left'?))\n"));
    assert_non_null(strstr(out, "bad argument #2 to 'is_down' (unknown key 'A' (did you mean 'a'?))\n"));
    assert_non_null(strstr(out, "bad argument #1 to 'is_down' (key name expected"));
    assert_non_null(strstr(out, "bad argument #1 to 'is_down' (key name (a string such as \"left\") expected, got "
                                "number)\n"));
    assert_non_null(strstr(out, "bad argument #1 to 'set_key_repeat' (boolean expected, got string)\n"));
    assert_non_null(strstr(out, "repeat\tfalse\n"));
    /* Left and Space are the program's keys (the scene does not list them): said once each */
    assert_int_equal(rt_count(err, "steer.keyboard.is_down('left'): Left is the program's key"), 1);
    assert_non_null(strstr(err,
                           "steer: warning: words.lua:6: steer.keyboard.is_down('left'): Left is the program's key, "
                           "so the scene never holds it; list it in the scene's keys ({\"left\", \"...\"}) to "
                           "take it (the program's binding moves to its alternative)\n"));
    assert_non_null(strstr(err, "steer.keyboard.is_down('space'): Space is the program's key"));
    free(out);
    free(err);
    const char *no_dash[] = {"--headless", scene, "fast", NULL};
    assert_int_equal(rt_run(no_dash, &out, &err), 1);
    snprintf(want, sizeof want,
             "steer: one SCRIPT expected, got '%s' and 'fast' (words for the scene's `arg` go "
             "after --: %s -- fast)\n",
             scene, scene);
    assert_non_null(strstr(err, want));
    free(out);
    free(err);
    const char *replay_words[] = {"--replay", "x.steer", "--", "fast", NULL};
    assert_int_equal(rt_run(replay_words, &out, &err), 1);
    assert_non_null(strstr(err, "option --replay: the scene's words (`arg`) come from the recording"));
    free(out);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_only_regular_files_are_read_as_scenes_modules_and_recordings, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_an_output_that_names_an_input_is_refused_and_the_input_kept, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_brains_think_at_the_asked_rate_staggered_over_steps, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_physics_rate_does_not_depend_on_the_frame_rate, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_update_error_is_reported_with_file_line_and_run_goes_on_exit_2, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_failing_brain_stops_thinking_others_go_on, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_scene_that_fails_to_load_exits_1_with_file_and_line, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_endless_loop_in_update_is_stopped_at_the_budget, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_memory_bomb_hits_the_cap_and_the_program_survives, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_require_finds_scene_folder_and_scripts_lib_with_relative_chunk_names,
                                        rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_world_options_from_scene_table_and_seed_override, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_help_and_bad_options, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(
            test_words_after_the_double_dash_are_the_scenes_arg_and_is_down_checks_its_names, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_screenshot_into_a_missing_folder_is_refused_before_running, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_screenshot_that_cannot_be_saved_exits_3, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_scene_that_is_a_directory_is_refused, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_at_step_past_the_end_of_the_run_is_refused_before_running, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_at_step_never_reached_because_the_run_was_stopped_exits_3, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_screenshot_with_an_unknown_extension_is_refused, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_repeated_option_with_another_value_is_refused, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_select_past_the_scenes_vehicles_is_refused, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_at_step_without_a_screenshot_is_refused, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_headless_runs_call_draw_so_a_broken_draw_fails_with_or_without_screenshot,
                                        rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_finalizer_that_never_returns_ends_the_run_naming_budget_and_line,
                                        rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_one_long_c_call_ends_the_run_naming_budget_and_line, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_finalizer_that_never_returns_at_exit_ends_the_program, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_sigterm_ends_a_headless_run_stuck_in_a_finalizer, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_sigint_ends_a_window_stuck_in_a_finalizer, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_window_without_a_display_says_so, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_sigterm_ends_a_long_interruptible_loop_under_a_long_budget, rt_setup,
                                        rt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
