/* SPDX-License-Identifier: MIT */
/* test_runtime_replay.c - record and replay (docs/replay.md). Every demo is recorded in-process,
 * headless, with input fed through app_handle_event (the window's own path: keys, pointer motion,
 * clicks, pause, time scale, a restart) and a reload in the middle (the scene file rewritten on disk, noticed
 * by the watcher); then the real program replays the file in another process and every checksum
 * must match. A window records too. Then what a replay refuses or reports: a flipped byte in a
 * recorded script, truncated files, another format version, a file that is no recording, a run
 * that diverges because a script ran a Lua file that changed (the step and the vehicle named), and
 * scripts that read the wall clock, the environment and files, which replay exactly. */
#define _GNU_SOURCE /* memmem */
#include "runtime_support.h"

#include <lauxlib.h>
#include <lua.h>

#include "app.h"
#include "record.h"
#include "replay.h"

static void key(App *app, SDL_Keycode sym) { app_feed_key(app, sym, 0); }
static void mouse_button(App *app, Uint32 type, Uint8 button, int x, int y)
{
    app_feed_button(app, type, button, x, y);
}
static void mouse_move(App *app, int x, int y) { app_feed_motion(app, x, y); }

static void frames(App *app, int n)
{
    for (int i = 0; i < n; i++) app_frame(app, 1.0 / 60.0);
}

/* The scene's global `name` (set by the rewritten file's chunk when it reloads). */
static bool scene_global_set(App *app, const char *name)
{
    script_push_global(app->session.host, name);
    bool set = !lua_isnil(script_state(app->session.host), -1);
    lua_pop(script_state(app->session.host), 1);
    return set;
}

/* True when the Lua expression `check` is true in the app's state (a module's reload landed). */
static bool lua_check(App *app, const char *check)
{
    lua_State *L = script_state(app->session.host);
    if (luaL_dostring(L, check) != LUA_OK) {
        lua_pop(L, 1);
        return false;
    }
    bool yes = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return yes;
}

/* Rewrites a file on disk with `text`, the old text's "\nreturn M" replaced by `insert` + that. */
static void rewrite_before_return(const char *path, const char *insert)
{
    char *text = rt_read(path);
    char *at = strstr(text, "\nreturn M");
    assert_non_null(at);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fwrite(text, 1, (size_t)(at - text), f);
    fprintf(f, "\n%s", insert);
    fputs(at, f);
    fclose(f);
    free(text);
}

/* Some of every kind of input the scene hears, and the runtime's own keys. */
static void play_some_input(App *app, int round)
{
    mouse_move(app, 300 + 40 * round, 200);
    frames(app, 5);
    key(app, SDLK_1 + round % 3);
    key(app, SDLK_h);
    key(app, SDLK_p);
    frames(app, 5);
    mouse_button(app, SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, 20, 20 + round); /* a corner: no vehicle there */
    mouse_button(app, SDL_MOUSEBUTTONUP, SDL_BUTTON_LEFT, 20, 20 + round);
    frames(app, 3);
    mouse_button(app, SDL_MOUSEBUTTONDOWN, SDL_BUTTON_RIGHT, 500, 400);
    mouse_button(app, SDL_MOUSEBUTTONUP, SDL_BUTTON_RIGHT, 500, 400); /* not dragged: a right click */
    mouse_move(app, 520, 380 - 10 * round);
    key(app, SDLK_EQUALS); /* x2: two steps a frame */
    frames(app, 10);
    key(app, SDLK_MINUS);
    key(app, SDLK_SPACE); /* paused: frames draw, nothing steps */
    frames(app, 4);
    key(app, SDLK_SPACE);
    frames(app, 20);
    if (round == 1) { /* a restart: a fresh world, the scene (as saved) and its modules loaded again */
        key(app, SDLK_F5);
        frames(app, 20);
    }
}

/* Records `scene` (in the temp folder) with input, a reload of the scene file rewritten on disk
 * (and of `module`, when given, rewritten with `module_insert`; `module_loaded` is a Lua
 * expression true once that reload landed), into `file`. Returns the steps. */
static long long record_scene(const char *scene, const char *module, const char *module_insert,
                              const char *module_loaded, const char *file, bool headless)
{
    AppOptions opt = options_default();
    opt.headless = headless;
    opt.watch = true;
    opt.width = 800;
    opt.height = 600;
    opt.run.has_seed = true;
    opt.run.seed = 5;
    opt.run.time_budget_ms = 20000;
    opt.script = scene;
    opt.record = file;
    char error[512];
    assert_true(record_begin(&opt, error, sizeof error));
    Recorder *rec = opt.recorder;
    static App app;
    assert_int_equal(app_init(&app, &opt, NULL), 0);
    record_check(rec, script_world(app.session.host), 0);
    play_some_input(&app, 0);
    /* the save, while paused (the watcher needs real time), then on */
    key(&app, SDLK_SPACE);
    rewrite_before_return(scene, "replay_saved = (replay_saved or 0) + 1\n");
    if (module) rewrite_before_return(module, module_insert);
    double end = rt_now() + RT_DEADLINE_S;
    while (!scene_global_set(&app, "replay_saved") && rt_now() < end) {
        app_frame(&app, 1.0 / 60.0);
        rt_sleep(0.02);
    }
    assert_true(scene_global_set(&app, "replay_saved"));
    while (module && !lua_check(&app, module_loaded) && rt_now() < end) { /* the module's save lands too */
        app_frame(&app, 1.0 / 60.0);
        rt_sleep(0.02);
    }
    if (module) assert_true(lua_check(&app, module_loaded));
    app_frame(&app, 1.0 / 60.0);
    key(&app, SDLK_SPACE);
    play_some_input(&app, 1);
    frames(&app, 30);
    long long steps = app.session.steps;
    record_check(rec, script_world(app.session.host), steps);
    app_shutdown(&app);
    assert_true(record_close(rec, steps, error, sizeof error));
    return steps;
}

/* Replays `file` in another process: every checksum matches, the reload is played again. */
static void assert_replays(const char *file, long long steps, bool headless)
{
    const char *args_headless[] = {"--headless", "--replay", file, NULL};
    const char *args_window[] = {"--replay", file, NULL};
    char *out, *err;
    int status = rt_run(headless ? args_headless : args_window, &out, &err);
    if (status != 0) fail_msg("replay of %s exited %d:\n%s", file, status, err);
    char want[128];
    snprintf(want, sizeof want, "%lld steps, ", steps);
    if (!strstr(err, want) || !strstr(err, "checksums matched")) fail_msg("replay of %s:\n%s", file, err);
    if (!strstr(err, "steer: reloaded ")) fail_msg("the replay of %s did not reload the saved file:\n%s", file, err);
    if (!strstr(err, "steer: restarted ")) fail_msg("the replay of %s did not restart:\n%s", file, err);
    free(out);
    free(err);
}

static void copy_scripts(void)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cp -r scripts %s/", rt_dir);
    assert_int_equal(system(cmd), 0);
}

static void test_every_demo_recorded_with_input_and_a_reload_replays_in_another_process(void **state)
{
    (void)state;
    copy_scripts();
    char list[1200];
    snprintf(list, sizeof list, "ls %s/scripts/*.lua > %s/demos.txt", rt_dir, rt_dir);
    assert_int_equal(system(list), 0);
    char *names = rt_read(rt_path("demos.txt"));
    int count = 0;
    for (char *line = strtok(names, "\n"); line; line = strtok(NULL, "\n")) {
        bool hunter_prey = strstr(line, "/hunter_prey.lua") != NULL;
        char file[512], config[512];
        snprintf(file, sizeof file, "%s.steer", line);
        snprintf(config, sizeof config, "%s/scripts/hunter_prey/config.lua", rt_dir);
        if (hunter_prey) { /* a module's save too: faster prey from then on */
            char *text = rt_read(config);
            char *ret = strstr(text, "return {");
            assert_non_null(ret);
            FILE *f = fopen(config, "w");
            fprintf(f, "local M = {\n%s\nreturn M\n", ret + strlen("return {"));
            fclose(f);
            free(text);
        }
        long long steps = record_scene(line, hunter_prey ? config : NULL, "M.prey_speed = 130\n",
                                       "return package.loaded['hunter_prey.config'].prey_speed == 130", file, true);
        assert_true(steps > 100);
        assert_replays(file, steps, true);
        count++;
    }
    free(names);
    assert_int_equal(count, 17); /* every scene in scripts/, hunter_prey.lua with its config */
}

static void test_a_window_records_its_input_and_replays_in_a_window_and_headless(void **state)
{
    (void)state;
    copy_scripts();
    const char *scene = rt_path("scripts/seek_flee_arrive.lua");
    const char *file = rt_path("window.steer");
    long long steps = record_scene(scene, NULL, NULL, NULL, file, false);
    assert_replays(file, steps, true);
    assert_replays(file, steps, false);
}

/* The file's encodings: varints and zigzags at their extremes come back as written, and a reader
 * never reads past the bytes it has (each cut short is "ended", not "malformed"). */
static void test_tape_encodings_round_trip_and_never_read_past_the_end(void **state)
{
    (void)state;
    TapeBuffer b = {0};
    const uint64_t unsigned_values[] = {0, 1, 127, 128, 16383, 16384, UINT32_MAX, UINT64_MAX};
    const int64_t signed_values[] = {0, -1, 1, -64, 64, INT32_MIN, INT64_MAX, INT64_MIN};
    for (int i = 0; i < 8; i++) {
        tape_put_varint(&b, unsigned_values[i]);
        tape_put_zigzag(&b, signed_values[i]);
    }
    tape_put_double(&b, -0.0);
    tape_put_string(&b, "hunter", 6);
    tape_put_u32(&b, 0xdeadbeefu);
    assert_false(b.failed);
    assert_int_equal(b.data[0], 0); /* 0 is one byte */
    TapeReader r = {.data = b.data, .len = b.len};
    for (int i = 0; i < 8; i++) {
        uint64_t u;
        int64_t z;
        assert_true(tape_get_varint(&r, &u) && tape_get_zigzag(&r, &z));
        assert_true(u == unsigned_values[i]);
        assert_true(z == signed_values[i]);
    }
    double d;
    const char *s;
    size_t n;
    uint32_t w;
    assert_true(tape_get_double(&r, &d) && signbit(d) && d == 0.0);
    assert_true(tape_get_string(&r, &s, &n) && n == 6 && !memcmp(s, "hunter", 6));
    assert_true(tape_get_u32(&r, &w) && w == 0xdeadbeefu);
    assert_true(r.pos == r.len);
    for (size_t cut = 0; cut < b.len; cut++) { /* read everything again from a shorter buffer */
        TapeReader short_r = {.data = b.data, .len = cut};
        uint64_t u;
        int64_t z;
        bool ok = true;
        for (int i = 0; i < 8 && ok; i++) ok = tape_get_varint(&short_r, &u) && tape_get_zigzag(&short_r, &z);
        ok = ok && tape_get_double(&short_r, &d) && tape_get_string(&short_r, &s, &n) && tape_get_u32(&short_r, &w);
        assert_false(ok);
        assert_true(short_r.ended && short_r.pos <= cut);
    }
    tape_buffer_free(&b);
}

/* A small recorded run to damage: a scene of one module. */
static const char *small_recording(void)
{
    rt_write("small/brain.lua", "local M = {}\nfunction M.speed() return 90 end\nreturn M\n");
    rt_write(
        "small/small.lua",
        "local brain = require 'brain'\n"
        "world = { width = 400, height = 300, seed = 2 }\n"
        "function load(w)\n"
        "  for i = 1, 5 do w:spawn{ kind = 'walker', x = 40 * i, y = 100, max_speed = brain.speed() }:wander{} end\n"
        "end\n");
    const char *file = rt_path("small.steer");
    const char *args[] = {"--headless", "--steps", "200", "--record", file, rt_path("small/small.lua"), NULL};
    char *out, *err;
    assert_int_equal(rt_run(args, &out, &err), 0);
    free(out);
    free(err);
    return file;
}

static char *replay_error(const char *file, int expected_status)
{
    const char *args[] = {"--headless", "--replay", file, NULL};
    char *out, *err;
    int status = rt_run(args, &out, &err);
    if (status != expected_status)
        fail_msg("replay of %s exited %d, expected %d:\n%s", file, status, expected_status, err);
    free(out);
    return err;
}

static void write_bytes(const char *path, const char *bytes, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(bytes, 1, n, f);
    fclose(f);
}

static size_t file_size(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return (size_t)st.st_size;
}

static void test_a_recording_needs_none_of_its_files_and_damage_is_reported_clearly(void **state)
{
    (void)state;
    const char *file = small_recording();
    /* the scripts gone: the replay runs from the recorded texts */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s/small", rt_dir);
    assert_int_equal(system(cmd), 0);
    char *err = replay_error(file, 0);
    assert_non_null(strstr(err, "200 steps, 5 checksums matched")); /* steps 0, 60, 120, 180, 200 */
    free(err);

    size_t n = file_size(file);
    FILE *f = fopen(file, "rb");
    char *bytes = malloc(n);
    assert_int_equal(fread(bytes, 1, n, f), n);
    fclose(f);
    const char *damaged = rt_path("damaged.steer");

    /* one byte of the recorded module's text flipped */
    char *at = memmem(bytes, n, "return 90", 9);
    assert_non_null(at);
    at[7] = '8';
    write_bytes(damaged, bytes, n);
    at[7] = '9';
    err = replay_error(damaged, 1);
    assert_non_null(strstr(err, "steer: option --replay: "));
    assert_non_null(strstr(err, "corrupt: the recorded text of "));
    assert_non_null(strstr(err, "small/brain.lua (at byte "));
    assert_non_null(strstr(err, "does not match its checksum"));
    free(err);

    /* cut off: inside a record (the module's text), inside the header, before the end record */
    write_bytes(damaged, bytes, (size_t)(at - bytes) + 3);
    err = replay_error(damaged, 1);
    assert_non_null(strstr(err, "truncated: the script text record at byte "));
    assert_non_null(strstr(err, "is cut off: the file ends inside it (after step 0)"));
    free(err);
    write_bytes(damaged, bytes, 12);
    err = replay_error(damaged, 1);
    assert_non_null(strstr(err, "truncated: the file ends inside its header"));
    free(err);
    /* without its end record (a run that crashed, was killed or filled its disk): it replays up to
     * its last complete step, saying where it ends (issue #29) */
    write_bytes(damaged, bytes, n - 3); /* the end record is 'E' and the step count (200: two bytes) */
    err = replay_error(damaged, 0);
    assert_non_null(strstr(err, "truncated: the file ends after step 200 without its end record"));
    assert_non_null(strstr(err, "it replays up to step 200, its last complete step"));
    assert_non_null(strstr(err, "200 steps"));
    free(err);

    /* another version, another file, an unknown record */
    bytes[8] = 7;
    write_bytes(damaged, bytes, n);
    bytes[8] = TAPE_VERSION;
    err = replay_error(damaged, 1);
    assert_non_null(strstr(err, "format version 7, but this steer reads version 2 only"));
    free(err);
    write_bytes(damaged, "-- a Lua file\n", 14);
    err = replay_error(damaged, 1);
    assert_non_null(strstr(err, "not a steer replay file (it does not start with STEERRPL)"));
    free(err);
    bytes[n - 3] = 'Z'; /* the end record's type */
    write_bytes(damaged, bytes, n);
    err = replay_error(damaged, 1);
    char want[128];
    snprintf(want, sizeof want, "corrupt: unknown record type 0x5a at byte %zu (after step 200)", n - 3);
    assert_non_null(strstr(err, want));
    free(err);
    free(bytes);
}

/* Every truncation and every single-byte change of a small recording (one with input records too)
 * is either refused with a message by the reader or, when it still parses, played to an end that
 * is a match, a divergence or a refusal: never a crash (the run is under ASan and UBSan). */
static void test_no_damaged_recording_crashes_the_reader_or_the_player(void **state)
{
    (void)state;
    copy_scripts();
    const char *file = rt_path("damage_me.steer");
    AppOptions opt = options_default();
    opt.headless = true;
    opt.steps = 130;
    opt.run.has_seed = true;
    opt.run.seed = 9;
    opt.run.time_budget_ms = 20000;
    opt.script = rt_path("scripts/seek_flee_arrive.lua");
    opt.record = file;
    const char *words[] = {"word"}; /* (the scene's words, a record of their own) */
    opt.words = words;
    opt.word_count = 1;
    char error[1024];
    assert_true(record_begin(&opt, error, sizeof error));
    static App app;
    assert_int_equal(app_init(&app, &opt, NULL), 0);
    record_check(opt.recorder, script_world(app.session.host), 0);
    mouse_move(&app, 300, 200);
    frames(&app, 40);
    key(&app, SDLK_2);
    app_feed_key_event(&app, SDL_KEYUP, SDLK_2, 0, false); /* and the releases' records */
    mouse_button(&app, SDL_MOUSEBUTTONDOWN, SDL_BUTTON_MIDDLE, 30, 30);
    mouse_button(&app, SDL_MOUSEBUTTONUP, SDL_BUTTON_MIDDLE, 40, 30);
    mouse_move(&app, 310, 190);
    frames(&app, 100);
    long long steps = app.session.steps;
    app_shutdown(&app);
    assert_true(record_close(opt.recorder, steps, error, sizeof error));

    size_t n = file_size(file);
    FILE *f = fopen(file, "rb");
    char *bytes = malloc(n);
    assert_int_equal(fread(bytes, 1, n, f), n);
    fclose(f);
    const char *damaged = rt_path("damaged.steer");
    /* every truncation before the first complete step is refused, saying so; after it, the
     * recording plays up to its last complete step (a run that was killed: issue #29) */
    int cut_played = 0;
    for (size_t cut = 0; cut < n; cut++) {
        write_bytes(damaged, bytes, cut);
        Player *p = replay_open(damaged, error, sizeof error);
        if (!p) {
            if (!strstr(error, "truncated") && !strstr(error, "not a steer replay file"))
                fail_msg("cut at byte %zu: %s", cut, error);
            continue;
        }
        replay_close(p);
        if (cut % 13 != 0 || cut_played >= 20) continue;
        cut_played++;
        const char *args[] = {"--headless", "--replay", damaged, NULL};
        char *out, *err;
        int status = rt_run(args, &out, &err);
        if (status != 0 || !strstr(err, "its last complete step"))
            fail_msg("cut at byte %zu: the replay ended with status %d\n%s", cut, status, err);
        free(out);
        free(err);
    }
    assert_true(cut_played > 5);
    int played = 0;
    for (size_t at = 0; at < n; at++) {
        char saved = bytes[at];
        bytes[at] = (char)(saved ^ 0x21);
        write_bytes(damaged, bytes, n);
        bytes[at] = saved;
        Player *p = replay_open(damaged, error, sizeof error);
        if (!p) {
            assert_non_null(strstr(error, "option --replay: "));
            continue;
        }
        replay_close(p);
        if (at % 7 != 0 || played >= 60) continue; /* play a spread of those that still parse */
        played++;
        const char *args[] = {"--headless", "--replay", damaged, NULL};
        char *out, *err;
        int status = rt_run(args, &out, &err);
        /* (a sanitizer's report exits 1 too: its text tells it from a refusal) */
        if ((status != 0 && status != 1 && status != REPLAY_DIVERGED_STATUS) || strstr(err, "Sanitizer") ||
            strstr(err, "runtime error"))
            fail_msg("byte %zu changed: the replay ended with status %d\n%s", at, status, err);
        free(out);
        free(err);
    }
    assert_true(played > 10);
    free(bytes);
}

/* A scene that runs a Lua file at load (dofile: code from outside the run, which the recording
 * does not keep): changed between recording and replay, the replay diverges, names the first
 * checksum's step and the vehicle, and says the scripts read outside the run. */
static void test_a_script_running_a_changed_file_diverges_with_the_step_and_vehicle_named(void **state)
{
    (void)state;
    rt_write("speed.lua", "return 60\n");
    char scene[1024];
    snprintf(scene, sizeof scene,
             "world = { width = 400, height = 300, seed = 3 }\n"
             "function load(w)\n"
             "  w:spawn{ kind = 'steady', x = 50, y = 50 }:seek(300, 50)\n"
             "  local speed = dofile('%s')\n"
             "  w:spawn{ kind = 'reader', x = 50, y = 150, max_speed = speed }:seek(300, 150)\n"
             "end\n",
             rt_path("speed.lua"));
    rt_write("reads.lua", scene);
    const char *file = rt_path("reads.steer");
    const char *args[] = {"--headless", "--steps", "120", "--record", file, rt_path("reads.lua"), NULL};
    char *out, *err;
    assert_int_equal(rt_run(args, &out, &err), 0);
    free(out);
    free(err);
    err = replay_error(file, 0); /* the file unchanged: the same run */
    free(err);
    rt_write("speed.lua", "return 70\n");
    err = replay_error(file, REPLAY_DIVERGED_STATUS);
    assert_non_null(strstr(err, "reads.lua:4: dofile at step 0 reads outside the recording"));
    assert_non_null(
        strstr(err, "diverged: at step 0 the world differs from the recording: vehicle #2 (reader) differs"));
    assert_non_null(strstr(err, "the recorded scripts read outside the run (files or the environment), which a replay "
                                "cannot repeat: first reads.lua:4: dofile at step 0"));
    free(err);
}

/* The text before the summary line (a replay's summary says less than the run's). */
static char *before_summary(char *text)
{
    char *summary = strstr(text, "summary: ");
    if (summary) *summary = '\0';
    return text;
}

/* A scene that reads the environment and files (os.getenv, io.open(...):read, io.lines, a file that
 * is missing, one opened to read with "rb") and writes one (and fails to open another to write):
 * the recording keeps what each read and open gave, so a replay with the variable changed, a file
 * rewritten and another removed prints the same lines, matches every checksum, warns of nothing
 * and writes no file. (The variable's length sets a vehicle's speed: a replay that read the
 * machine would diverge at the first checksum.) */
static void test_what_scripts_read_from_the_machine_is_recorded_and_replays_exactly(void **state)
{
    (void)state;
    rt_write("data.txt", "hello\nworld\n");
    rt_write("speed.txt", "60\n");
    char data[1024], speed[1024], missing[1024], written[1024], scene[8192];
    snprintf(data, sizeof data, "%s", rt_path("data.txt"));
    snprintf(speed, sizeof speed, "%s", rt_path("speed.txt"));
    snprintf(missing, sizeof missing, "%s", rt_path("missing.txt"));
    snprintf(written, sizeof written, "%s", rt_path("written.txt"));
    snprintf(scene, sizeof scene,
             "world = { width = 400, height = 300, seed = 3 }\n"
             "function load(w)\n"
             "  local x = os.getenv('STEER_TEST_X')\n"
             "  print('X', x, os.getenv('STEER_TEST_UNSET'))\n"
             "  local f = io.open('%s')\n"
             "  print('data', f:read('a'), io.type(f))\n"
             "  f:close()\n"
             "  for line in io.lines('%s') do print('line', line) end\n"
             "  local speed = tonumber(io.open('%s', 'rb'):read('l'))\n"
             "  print(io.open('%s'))\n"
             "  print(select(2, pcall(io.lines, '%s')))\n"
             "  local out = io.open('%s', 'w')\n"
             "  out:write('by the run ', x, '\\n')\n"
             "  out:close()\n"
             "  print('back', io.open('%s'):read('a'))\n"
             "  print(io.open('%s/no/such/folder.txt', 'w'))\n"
             "  w:spawn{ kind = 'reader', x = 50, y = 150, max_speed = speed + #x }:seek(300, 150)\n"
             "end\n"
             "function update(w) if w.step_count %% 60 == 0 then print('tick', os.getenv('STEER_TEST_X')) end end\n",
             data, data, speed, missing, missing, written, written, rt_dir);
    rt_write("reads.lua", scene);
    char file[1024];
    snprintf(file, sizeof file, "%s", rt_path("reads.steer"));
    const char *record[] = {"--headless", "--steps", "130", "--record", file, rt_path("reads.lua"), NULL};
    setenv("STEER_TEST_X", "abc", 1);
    unsetenv("STEER_TEST_UNSET");
    char *out, *err;
    assert_int_equal(rt_run(record, &out, &err), 0);
    assert_non_null(strstr(out, "X\tabc\tnil\ndata\thello\nworld\n\tfile\nline\thello\nline\tworld\n"));
    assert_non_null(strstr(out, "missing.txt: No such file or directory\t2\n"));
    assert_non_null(strstr(out, "cannot open file '"));
    assert_int_equal(rt_count(out, "tick\tabc"), 3);
    assert_non_null(strstr(out, "back\tby the run abc\n"));
    free(err);
    setenv("STEER_TEST_X", "something else entirely", 1);
    setenv("STEER_TEST_UNSET", "set now", 1);
    rt_write("data.txt", "changed\n");
    assert_int_equal(remove(rt_path("speed.txt")), 0);
    rt_write("written.txt", "since\n");
    const char *replay[] = {"--headless", "--replay", file, NULL};
    char *out2, *err2;
    int status = rt_run(replay, &out2, &err2);
    unsetenv("STEER_TEST_X");
    unsetenv("STEER_TEST_UNSET");
    if (status != 0) fail_msg("the replay exited %d:\n%s", status, err2);
    assert_string_equal(before_summary(out2), before_summary(out));
    assert_non_null(strstr(err2, "130 steps, 4 checksums matched"));
    assert_null(strstr(err2, "outside"));
    assert_null(strstr(err2, "diverge"));
    char *kept = rt_read(written);
    assert_string_equal(kept, "since\n"); /* the replay wrote nowhere: what was written since stays */
    free(kept);
    free(out);
    free(out2);
    free(err2);
}

/* A file that is not a regular one (a device here) cannot be kept whole: it is read from the machine
 * in the replay, which says so where it happens; a file opened for update is a reach outside too. */
static void test_a_device_or_a_file_opened_for_update_is_read_from_the_machine_and_said(void **state)
{
    (void)state;
    rt_write("rw.txt", "12\n");
    char scene[2048];
    snprintf(scene, sizeof scene,
             "world = { width = 400, height = 300, seed = 3 }\n"
             "function load(w)\n"
             "  print('null', #io.open('/dev/null'):read('a'))\n"
             "  local f = io.open('%s', 'r+')\n"
             "  print('update', f:read('l'))\n"
             "  f:close()\n"
             "end\n",
             rt_path("rw.txt"));
    rt_write("device.lua", scene);
    char file[1024];
    snprintf(file, sizeof file, "%s", rt_path("device.steer"));
    const char *record[] = {"--headless", "--steps", "30", "--record", file, rt_path("device.lua"), NULL};
    char *out, *err;
    assert_int_equal(rt_run(record, &out, &err), 0);
    assert_non_null(strstr(out, "null\t0\nupdate\t12\n"));
    free(out);
    free(err);
    err = replay_error(file, 0);
    assert_non_null(strstr(err, "device.lua:3: io.open at step 0 reads outside the recording"));
    assert_non_null(strstr(err, "device.lua:4: io.open at step 0 reads outside the recording"));
    assert_non_null(strstr(err, "30 steps, 2 checksums matched"));
    free(err);
}

/* A brain that reads the wall clock: the replay gets the recorded values and runs the same. */
static void test_a_script_reading_the_wall_clock_replays_exactly(void **state)
{
    (void)state;
    rt_write("clock.lua", "world = { width = 400, height = 300, seed = 3 }\n"
                          "function load(w) v = w:spawn{ kind = 'clocked', x = 200, y = 150 } end\n"
                          "function update(w, dt)\n"
                          "  local t = os.clock() * 1e6 + os.time() % 7\n"
                          "  v:seek(200 + 100 * math.sin(t), 150 + 100 * math.cos(t))\n"
                          "  if w.time > 0.5 and not shown then shown = os.date('%Y') end\n"
                          "end\n");
    const char *file = rt_path("clock.steer");
    const char *args[] = {"--headless", "--steps", "150", "--record", file, rt_path("clock.lua"), NULL};
    char *out, *err;
    assert_int_equal(rt_run(args, &out, &err), 0);
    free(out);
    free(err);
    err = replay_error(file, 0);
    assert_non_null(strstr(err, "150 steps, 4 checksums matched"));
    free(err);
}

static void test_a_replay_refuses_the_options_that_shape_a_run(void **state)
{
    (void)state;
    char *out, *err;
    const char *with_script[] = {"--replay", "x.steer", "scene.lua", NULL};
    assert_int_equal(rt_run(with_script, &out, &err), 1);
    assert_non_null(
        strstr(err, "option --replay: plays the scene the file recorded; give no SCRIPT (got 'scene.lua')"));
    free(out);
    free(err);
    const char *with_seed[] = {"--replay", "x.steer", "--seed", "4", NULL};
    assert_int_equal(rt_run(with_seed, &out, &err), 1);
    assert_non_null(strstr(err, "option --seed: a --replay runs with the options it was recorded with"));
    free(out);
    free(err);
    rt_write("s.lua", "world = {}\n");
    const char *unwritable[] = {"--headless", "--record", "/nonexistent/dir/run.steer", rt_path("s.lua"), NULL};
    assert_int_equal(rt_run(unwritable, &out, &err), 1);
    assert_non_null(
        strstr(err, "option --record: cannot create /nonexistent/dir/run.steer: No such file or directory"));
    free(out);
    free(err);
}

/* A scene that is a game's input loop: what it prints from keypressed, keyreleased, mousereleased,
 * steer.keyboard.is_down and its `arg`, recorded with input fed through the window's path, is
 * printed again, line for line, by a headless replay in another process; a run without input
 * (headless) hears none of it and is_down answers false. */
static const char *INPUT_SCENE =
    "local steer = require 'steer'\n"
    "world = {width = 400, height = 300, seed = 3}\n"
    "said = {}\n"
    "local function say(s) said[#said + 1] = s; print(s) end\n"
    "function load(w)\n"
    "  say('arg ' .. #arg .. ' ' .. table.concat(arg, ',', 1))\n"
    "  w:spawn{kind = 'walker', x = 200, y = 150}\n"
    "end\n"
    "function keypressed(k)\n"
    "  say('pressed ' .. k)\n"
    "  if k == 'r' then steer.keyboard.set_key_repeat(true) end\n"
    "end\n"
    "function keyreleased(k) say('released ' .. k) end\n"
    "function mousepressed(x, y, b) say(('mouse pressed %d'):format(b)) end\n"
    "function mousereleased(x, y, b) say(('mouse released %d at %.2f %.2f'):format(b, x, y)) end\n"
    "function update(w, dt)\n"
    "  if steer.keyboard.is_down('a', 'left') then say('a or left held at step ' .. w.step_count) end\n"
    "end\n";

static void test_held_keys_releases_and_arg_replay_line_for_line(void **state)
{
    (void)state;
    rt_write("input.lua", INPUT_SCENE);
    const char *file = rt_path("input.steer");
    AppOptions opt = options_default();
    opt.headless = true;
    opt.steps = -1;
    opt.watch = true; /* (a headless run of no set length: the test says when it ends) */
    opt.width = 800;
    opt.height = 600;
    opt.run.time_budget_ms = 20000;
    opt.script = rt_path("input.lua");
    opt.record = file;
    const char *words[] = {"fast", "7"};
    opt.words = words;
    opt.word_count = 2;
    char error[512];
    assert_true(record_begin(&opt, error, sizeof error));
    static App app;
    assert_int_equal(app_init(&app, &opt, NULL), 0);
    record_check(opt.recorder, script_world(app.session.host), 0);
    frames(&app, 5);
    app_feed_key_event(&app, SDL_KEYDOWN, SDLK_a, 0, false); /* held for three frames */
    frames(&app, 3);
    app_feed_key_event(&app, SDL_KEYDOWN, SDLK_a, 0, true); /* a repeat: not asked for, not heard */
    app_feed_key_event(&app, SDL_KEYUP, SDLK_a, 0, false);
    frames(&app, 2);
    app_feed_key_event(&app, SDL_KEYUP, SDLK_b, 0, false);   /* a release without its press: not heard */
    app_feed_key_event(&app, SDL_KEYDOWN, SDLK_r, 0, false); /* the scene asks for repeats */
    app_feed_key_event(&app, SDL_KEYDOWN, SDLK_r, 0, true);
    app_feed_key_event(&app, SDL_KEYUP, SDLK_r, 0, false);
    mouse_button(&app, SDL_MOUSEBUTTONDOWN, SDL_BUTTON_MIDDLE, 100, 100);
    frames(&app, 2);
    mouse_button(&app, SDL_MOUSEBUTTONUP, SDL_BUTTON_MIDDLE, 120, 90);
    mouse_button(&app, SDL_MOUSEBUTTONDOWN, SDL_BUTTON_RIGHT, 200, 200); /* a right click: pressed, released */
    mouse_button(&app, SDL_MOUSEBUTTONUP, SDL_BUTTON_RIGHT, 200, 200);
    app_feed_key_event(&app, SDL_KEYDOWN, SDLK_SPACE, 0, false); /* the runtime's: neither heard nor held */
    app_feed_key_event(&app, SDL_KEYUP, SDLK_SPACE, 0, false);
    app_feed_key_event(&app, SDL_KEYDOWN, SDLK_SPACE, 0, false);
    frames(&app, 4);
    long long steps = app.session.steps;
    /* what the scene said, as one text */
    lua_State *L = script_state(app.session.host);
    script_push_global(app.session.host, "said");
    lua_getglobal(L, "table");
    lua_getfield(L, -1, "concat");
    lua_pushvalue(L, -3);
    lua_pushliteral(L, "\n");
    lua_call(L, 2, 1);
    char *said = strdup(lua_tostring(L, -1));
    lua_pop(L, 3);
    record_check(opt.recorder, script_world(app.session.host), steps);
    app_shutdown(&app);
    assert_true(record_close(opt.recorder, steps, error, sizeof error));
    assert_non_null(strstr(said, "arg 2 fast,7\n"));
    assert_non_null(strstr(said, "pressed a\na or left held at step 5\na or left held at step 6\n"
                                 "a or left held at step 7\nreleased a\n"));
    assert_non_null(strstr(said, "pressed r\npressed r\nreleased r\nmouse pressed 3\n"));
    assert_non_null(strstr(said, "\nmouse released 3 at "));
    assert_non_null(strstr(said, "\nmouse pressed 2\nmouse released 2 at "));
    assert_null(strstr(said, "released b"));
    assert_null(strstr(said, "space"));
    assert_int_equal(rt_count(said, "held at step"), 3);

    const char *args[] = {"--headless", "--replay", file, NULL};
    char *out, *err;
    int status = rt_run(args, &out, &err);
    if (status != 0) fail_msg("the replay exited %d:\n%s", status, err);
    char *summary = strstr(out, "summary: ");
    assert_non_null(summary);
    *summary = '\0';
    if (strcmp(out, said) != 0 && !(strlen(out) == strlen(said) + 1 && !strncmp(out, said, strlen(said))))
        fail_msg("the replay printed:\n%s\nwhere the recorded run said:\n%s", out, said);
    free(out);
    free(err);
    free(said);

    /* headless without input: no callback fires, is_down answers false; arg as given after -- */
    const char *plain[] = {"--headless", "--steps", "30", "--time-budget", RT_TIME_BUDGET_MS, rt_path("input.lua"),
                           "--",         "x",       NULL}; /* (the budget before the words) */
    status = rt_run(plain, &out, &err);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "arg 1 x\nsummary: "));
    assert_null(strstr(out, "held"));
    free(out);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_every_demo_recorded_with_input_and_a_reload_replays_in_another_process,
                                        rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_window_records_its_input_and_replays_in_a_window_and_headless, rt_setup,
                                        rt_teardown),
        cmocka_unit_test(test_tape_encodings_round_trip_and_never_read_past_the_end),
        cmocka_unit_test_setup_teardown(test_a_recording_needs_none_of_its_files_and_damage_is_reported_clearly,
                                        rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_no_damaged_recording_crashes_the_reader_or_the_player, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_script_running_a_changed_file_diverges_with_the_step_and_vehicle_named,
                                        rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_what_scripts_read_from_the_machine_is_recorded_and_replays_exactly,
                                        rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_device_or_a_file_opened_for_update_is_read_from_the_machine_and_said,
                                        rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_script_reading_the_wall_clock_replays_exactly, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_replay_refuses_the_options_that_shape_a_run, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_held_keys_releases_and_arg_replay_line_for_line, rt_setup, rt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
