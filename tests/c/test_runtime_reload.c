/* SPDX-License-Identifier: MIT */
/* test_runtime_reload.c - hot reload end to end: the real program (`steer --headless --watch`) on
 * scene files in a temporary folder, edited while it runs. Saves in place and by rename (with
 * inotify, polling and --settle) run new code while vehicles keep their positions, v.data and
 * v.state; a save written in chunks loads only once complete; broken saves (syntax error, runtime error,
 * endless loop, memory bomb) are reported with file:line while the old code goes on, and the next
 * good save recovers. */
#include "runtime_support.h"

#include <math.h>

static const char *SCENE = "local Brain = require 'brain'\n"
                           "world = { width = 1000, height = 1000, edges = 'wrap', seed = 2 }\n"
                           "function load(w)\n"
                           "  W = w\n"
                           "  for i = 1, 3 do\n"
                           "    local v = w:spawn{ kind = 'walker', x = 100 * i, y = 100, vx = 30, vy = 0 }\n"
                           "    v.data.count = 0\n"
                           "    v.data.first = (i == 1)\n"
                           "    v.brain = Brain\n"
                           "  end\n"
                           "end\n"
                           "function update(w, dt)\n"
                           "  if w.step_count % 30 == 0 then print('tick ' .. w.step_count) end\n"
                           "end\n"
                           "function reload(w)\n"
                           "  if require('brain').poison then error('refusing a poisoned brain') end\n"
                           "  print('reload callback')\n"
                           "end\n";

/* Version n of the brain: counts its thoughts in v.data, prints what it sees, then sets v.state. */
static void write_brain(int version, bool rename_save)
{
    char text[1024];
    snprintf(text, sizeof text,
             "local M = {}\n"
             "function M.think(v, dt)\n"
             "  v.data.count = v.data.count + 1\n"
             "  if v.data.first then\n"
             "    print(string.format('think v%d count=%%d state=%%s x=%%.6f t=%%.6f', v.data.count,\n"
             "      tostring(v.state), v.x, v.world.time))\n"
             "  end\n"
             "  v.state = 'state%d'\n"
             "end\n"
             "return M\n",
             version, version);
    if (rename_save)
        rt_write_rename("brain.lua", text);
    else
        rt_write("brain.lua", text);
}

typedef struct ThinkLine {
    int count;
    char state[32];
    double x, t;
} ThinkLine;

/* Parses the first "think v<version>" line after `from` in the output file. */
static bool read_think(const char *path, long from, int version, ThinkLine *line, long *end)
{
    char needle[32];
    snprintf(needle, sizeof needle, "think v%d ", version);
    char *text = rt_read(path);
    bool ok = false;
    if ((long)strlen(text) >= from) {
        char *p = strstr(text + from, needle);
        if (p && strchr(p, '\n')) {
            ok = sscanf(p + strlen(needle), "count=%d state=%31s x=%lf t=%lf", &line->count, line->state, &line->x,
                        &line->t) == 4;
            if (end) *end = (long)(strchr(p, '\n') - text);
        }
    }
    free(text);
    return ok;
}

/* Last "think v<version>" line before `before`. */
static bool last_think_before(const char *path, long before, int version, ThinkLine *line)
{
    long from = 0, end;
    ThinkLine l;
    bool found = false;
    while (read_think(path, from, version, &l, &end) && end <= before) {
        *line = l;
        found = true;
        from = end;
    }
    return found;
}

static RtProcess start_scene_with(const char *extra, const char *extra2)
{
    rt_write("scene.lua", SCENE);
    write_brain(1, false);
    const char *args[] = {"--headless", "--watch", "--think-hz", "10", rt_path("scene.lua"), extra, extra2, NULL};
    RtProcess p = rt_start(args);
    assert_true(rt_wait_for(p.out, 0, "think v1 count=3", RT_DEADLINE_S) > 0);
    return p;
}

static RtProcess start_scene(void) { return start_scene_with(NULL, NULL); }

/* Saves version `version` and checks that it runs with the world intact. */
static long expect_reload(RtProcess *p, int version, bool rename_save, bool thought_meanwhile)
{
    char *before = rt_read(p->out);
    long mark = (long)strlen(before);
    free(before);
    ThinkLine old;
    write_brain(version, rename_save);
    char needle[32];
    snprintf(needle, sizeof needle, "think v%d ", version);
    /* (how soon is the watcher's business, tested on a virtual clock in test_runtime_watch.c) */
    long at = rt_wait_for(p->out, mark, needle, RT_DEADLINE_S);
    assert_true(at > 0);
    ThinkLine fresh;
    assert_true(read_think(p->out, at - (long)strlen(needle), version, &fresh, NULL));
    assert_true(last_think_before(p->out, at, version - 1, &old) || last_think_before(p->out, at, 1, &old));
    /* v.data and v.state survived, time went on, and the vehicle is where its velocity took it. */
    assert_int_equal(fresh.count, old.count + 1);
    char expect_state[32];
    snprintf(expect_state, sizeof expect_state, "state%d", version - 1);
    assert_string_equal(fresh.state, expect_state);
    /* (a brain stopped by an error meanwhile did not think: only later is then certain) */
    if (thought_meanwhile)
        assert_near(fresh.t, old.t + 0.1, 1e-5);
    else
        assert_true(fresh.t > old.t);
    assert_near(fresh.x, fmod(100.0 + 30.0 * fresh.t, 1000.0), 1e-3);
    assert_true(rt_wait_for(p->out, mark, "reload callback", RT_DEADLINE_S) > 0);
    return at;
}

static void test_in_place_and_rename_saves_run_new_code_keeping_the_world(void **state)
{
    (void)state;
    RtProcess p = start_scene();
    expect_reload(&p, 2, false, true);
    expect_reload(&p, 3, true, true);
    expect_reload(&p, 4, false, true);
    assert_int_equal(rt_stop(&p), 0);
    char *err = rt_read(p.err);
    assert_int_equal(rt_count(err, "steer: reloaded"), 3);
    assert_null(strstr(err, "script error"));
    free(err);
}

static void test_polling_fallback_reloads_too(void **state)
{
    (void)state;
    RtProcess p = start_scene_with("--poll", NULL);
    expect_reload(&p, 2, false, true);
    expect_reload(&p, 3, true, true);
    assert_int_equal(rt_stop(&p), 0);
}

static void test_settle_waits_and_then_reloads_each_save(void **state)
{
    (void)state;
    RtProcess p = start_scene_with("--settle", "50");
    expect_reload(&p, 2, false, true);
    expect_reload(&p, 3, true, true);
    assert_int_equal(rt_stop(&p), 0);
}

static void write_broken(const char *text) { rt_write("brain.lua", text); }

/* After a broken save: the error appears on stderr with file:line, the old version keeps thinking. */
static void expect_error_and_old_code(RtProcess *p, const char *error_text, int old_version)
{
    char *out = rt_read(p->out);
    long mark = (long)strlen(out);
    free(out);
    assert_true(rt_wait_for(p->err, 0, error_text, RT_DEADLINE_S) > 0);
    char needle[32];
    snprintf(needle, sizeof needle, "think v%d ", old_version);
    assert_true(rt_wait_for(p->out, mark, needle, RT_DEADLINE_S) > 0);
}

static void test_syntax_and_runtime_errors_keep_the_old_code_until_a_good_save(void **state)
{
    (void)state;
    RtProcess p = start_scene();
    write_broken("local M = {}\nfunction M.think(v, dt)\n  v.data.count = = 1\nend\nreturn M\n");
    expect_error_and_old_code(&p, "brain.lua:3: unexpected symbol near '='", 1);
    write_broken("local M = {}\nlocal broken = nil\nM.size = #broken\nreturn M\n");
    expect_error_and_old_code(&p, "brain.lua:3: attempt to get length of a nil value (local 'broken')", 1);
    /* loads, but reload(world) refuses it: the old code is put back */
    write_broken("local M = { poison = true }\nfunction M.think(v, dt) print('think poisoned') end\nreturn M\n");
    expect_error_and_old_code(&p, "scene.lua:16: refusing a poisoned brain", 1);
    char *out = rt_read(p.out);
    assert_null(strstr(out, "think poisoned"));
    free(out);
    expect_reload(&p, 2, true, true); /* a later good save recovers */
    assert_int_equal(rt_stop(&p), 2); /* errors happened */
}

/* A save that forgets its `return M` (or is caught mid-edit) returns no table: were it taken,
 * every brain would keep the old table and every later save would merge into one nobody holds. It
 * fails instead, and the next good save reaches the brains. */
static void test_a_module_that_returns_no_table_keeps_the_old_one(void **state)
{
    (void)state;
    RtProcess p = start_scene();
    write_broken("local M = {}\nfunction M.think(v, dt) print('think orphan') end\n");
    expect_error_and_old_code(&p,
                              "module 'brain' returned nil instead of its table: the old code keeps running (does "
                              "the file end with `return M`?)",
                              1);
    expect_reload(&p, 2, false, true);
    char *out = rt_read(p.out);
    assert_null(strstr(out, "think orphan"));
    free(out);
    assert_int_equal(rt_stop(&p), 2); /* an error happened */
}

static void test_endless_loops_are_stopped_and_reported_with_file_and_line(void **state)
{
    (void)state;
    RtProcess p = start_scene_with("--time-budget", "100");
    /* an endless loop while the chunk runs: reported, old code goes on */
    write_broken("local M = {}\nwhile true do\nend\nreturn M\n");
    expect_error_and_old_code(&p, "brain.lua:2: script exceeded its time budget (100 ms)", 1);
    /* an endless loop in think: reported, that brain stops, the scene goes on */
    write_broken("local M = {}\nfunction M.think(v, dt)\n  while true do end\nend\nreturn M\n");
    assert_true(rt_wait_for(p.err, 0, "brain.lua:3: script exceeded its time budget (100 ms)", RT_DEADLINE_S) > 0);
    char *out = rt_read(p.out);
    long mark = (long)strlen(out);
    free(out);
    assert_true(rt_wait_for(p.out, mark, "tick ", RT_DEADLINE_S) > 0);
    expect_reload(&p, 2, false, false);
    assert_int_equal(rt_stop(&p), 2);
}

static void test_memory_bomb_in_a_reload_is_capped_and_the_program_survives(void **state)
{
    (void)state;
    rt_write("scene.lua", SCENE);
    write_brain(1, false);
    const char *args[] = {"--headless",    "--watch", "--memory-cap",       "64",
                          "--time-budget", "60000",   rt_path("scene.lua"), NULL};
    RtProcess p = rt_start(args);
    assert_true(rt_wait_for(p.out, 0, "think v1 count=3", RT_DEADLINE_S) > 0);
    write_broken("local M = {}\nlocal t = {}\nfor i = 1, 1e9 do t[i] = string.rep('x', 4096) .. i end\nreturn M\n");
    expect_error_and_old_code(&p, "not enough memory", 1);
    expect_reload(&p, 2, false, true);
    assert_int_equal(rt_stop(&p), 2);
}

static void test_scene_file_reloads_its_callbacks(void **state)
{
    (void)state;
    RtProcess p = start_scene();
    /* a save that redefines update, then fails halfway: the old update is put back */
    rt_write("scene.lua", "function update(w, dt) print('HALF') end\nerror('stopped halfway')\n");
    assert_true(rt_wait_for(p.err, 0, "scene.lua:2: stopped halfway", RT_DEADLINE_S) > 0);
    char *after = rt_read(p.out);
    long at = (long)strlen(after);
    free(after);
    assert_true(rt_wait_for(p.out, at, "tick ", RT_DEADLINE_S) > 0);
    after = rt_read(p.out);
    assert_null(strstr(after, "HALF"));
    free(after);
    char scene2[2048];
    snprintf(scene2, sizeof scene2, "%s", SCENE);
    char *tick = strstr(scene2, "print('tick ' ..");
    memcpy(tick, "print('TOCK ' ..", strlen("print('TOCK ' .."));
    char *out = rt_read(p.out);
    long mark = (long)strlen(out);
    free(out);
    rt_write_rename("scene.lua", scene2);
    assert_true(rt_wait_for(p.out, mark, "reload callback", RT_DEADLINE_S) > 0);
    assert_true(rt_wait_for(p.out, mark, "TOCK ", RT_DEADLINE_S) > 0);
    /* the world was kept: brains still think with their counts going on */
    ThinkLine l;
    assert_true(read_think(p.out, mark, 1, &l, NULL));
    assert_true(l.count > 3);
    assert_int_equal(rt_stop(&p), 2);
}

/* An editor that writes the scene in two chunks and pauses between them: the program goes on with
 * the old code while the file is open (the first chunk alone is a scene that would load, and
 * print HALF), and loads the whole text once the file is closed. */
static void test_a_save_written_in_chunks_loads_only_once_complete(void **state)
{
    (void)state;
    RtProcess p = start_scene();
    const char *head = "function update(w, dt)\n"
                       "  if w.step_count % 30 == 0 then print('HALF ' .. w.step_count) end\n"
                       "end\n";
    const char *tail = "function update(w, dt)\n"
                       "  if w.step_count % 30 == 0 then print('WHOLE ' .. w.step_count) end\n"
                       "end\n";
    char *out = rt_read(p.out);
    long mark = (long)strlen(out);
    free(out);
    int fd = open(rt_path("scene.lua"), O_WRONLY | O_TRUNC);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, head, strlen(head)), (ssize_t)strlen(head));
    /* two of the old update's ticks (a second of frames, each checking the watcher) later... */
    long at = rt_wait_for(p.out, mark, "tick ", RT_DEADLINE_S);
    assert_true(at > 0);
    assert_true(rt_wait_for(p.out, at, "tick ", RT_DEADLINE_S) > 0);
    assert_int_equal(write(fd, tail, strlen(tail)), (ssize_t)strlen(tail));
    assert_int_equal(close(fd), 0);
    assert_true(rt_wait_for(p.out, mark, "WHOLE ", RT_DEADLINE_S) > 0);
    assert_int_equal(rt_stop(&p), 0);
    out = rt_read(p.out);
    assert_null(strstr(out, "HALF"));
    free(out);
    char *err = rt_read(p.err);
    assert_int_equal(rt_count(err, "steer: reloaded"), 1);
    const char *line = strstr(err, "steer: reloaded ");
    assert_non_null(line);
    assert_true(strncmp(strchr(line, '\n') - strlen("/scene.lua"), "/scene.lua", strlen("/scene.lua")) == 0);
    assert_null(strstr(err, "error"));
    free(err);
}

static void test_module_required_later_is_watched_too(void **state)
{
    (void)state;
    rt_write("lazy_scene.lua", "function update(w, dt)\n"
                               "  if w.step_count >= 20 and w.step_count % 10 == 0 then\n"
                               "    print('lazy says ' .. require('later').word)\n"
                               "  end\n"
                               "end\n");
    rt_write("later.lua", "return { word = 'first' }\n");
    const char *args[] = {"--headless", "--watch", rt_path("lazy_scene.lua"), NULL};
    RtProcess p = rt_start(args);
    long first = rt_wait_for(p.out, 0, "lazy says first", RT_DEADLINE_S);
    assert_true(first > 0);
    /* (the watch starts in the frame after the require: let one go by) */
    assert_true(rt_wait_for(p.out, first, "lazy says first", RT_DEADLINE_S) > 0);
    char *out = rt_read(p.out);
    long mark = (long)strlen(out);
    free(out);
    rt_write_rename("later.lua", "return { word = 'second' }\n");
    assert_true(rt_wait_for(p.out, mark, "lazy says second", RT_DEADLINE_S) > 0);
    assert_int_equal(rt_stop(&p), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_in_place_and_rename_saves_run_new_code_keeping_the_world, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_polling_fallback_reloads_too, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_settle_waits_and_then_reloads_each_save, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_syntax_and_runtime_errors_keep_the_old_code_until_a_good_save, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_module_that_returns_no_table_keeps_the_old_one, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_endless_loops_are_stopped_and_reported_with_file_and_line, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_memory_bomb_in_a_reload_is_capped_and_the_program_survives, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_scene_file_reloads_its_callbacks, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_save_written_in_chunks_loads_only_once_complete, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_module_required_later_is_watched_too, rt_setup, rt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
