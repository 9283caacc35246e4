/* SPDX-License-Identifier: MIT */
/* test_runtime_trace.c - `steer --headless --trace out.csv`: the real program on a real scene. The
 * scene prints what it reads through Lua (v.x, v.heading, v.state, w.time, ...) at some steps; the
 * trace's rows of those steps hold the same numbers, bit for bit; a behaviour's column is empty
 * while it is off and > 0 while it is on; --trace-every K writes every K-th step only; the header;
 * text fields quoted the RFC 4180 way; the sense columns against v:sensed and v:memory; bad options,
 * unwritable files. */
#include "runtime_support.h"

/* Four wanderers (ids 1-4); vehicle 1 also seeks during steps 11-20; vehicle 2 is removed at step
 * 25 and a vehicle without behaviours (id 5, kind "late") takes its place. update() prints what
 * Lua reads before it changes anything, so its line of step s is the world after step s. */
static const char *TRACE_SCENE =
    "world = { width = 600, height = 400, edges = 'wrap', seed = 5 }\n"
    "local vs = {}\n"
    "function load(w)\n"
    "  for i = 1, 4 do\n"
    "    local v = w:spawn{ kind = i % 2 == 0 and 'hunter' or 'prey', x = 100 * i, y = 200, max_speed = 60 + i }\n"
    "    v:wander{}\n"
    "    v.state = 'roam'\n"
    "    vs[i] = v\n"
    "  end\n"
    "  vs[3].state = 'odd, \"quoted\" state'\n"
    "end\n"
    "function update(w, dt)\n"
    "  local s = w.step_count\n"
    "  if s > 0 and s % 5 == 0 then\n"
    "    for _, v in ipairs(w:vehicles()) do\n"
    "      print(string.format('obs %d %.17g %d %s %.17g %.17g %.17g %.17g %.17g %.17g|%s', s, w.time, v.id, v.kind,\n"
    "        v.x, v.y, v.vx, v.vy, v.heading, v.speed, v.state or ''))\n"
    "    end\n"
    "  end\n"
    "  if s == 10 then vs[1]:seek(590, 390); vs[1].state = 'seeking' end\n"
    "  if s == 20 then vs[1]:stop('seek'); vs[1].state = nil end\n"
    "  if s == 25 then w:remove(vs[2]); vs[2] = w:spawn{ kind = 'late', x = 50, y = 50 } end\n"
    "end\n";

enum { MAX_FIELDS = 64, MAX_ROWS = 4096 };

typedef struct Csv {
    char *text;
    int rows;    /* data rows, header excluded */
    int columns; /* of the header */
    char *header[MAX_FIELDS];
    char *field[MAX_ROWS][MAX_FIELDS];
    int count[MAX_ROWS]; /* fields in each row */
} Csv;

/* Splits the file in place: fields of RFC 4180 (quoted ones unquoted, "" -> "). */
static Csv *csv_read(const char *path)
{
    Csv *c = calloc(1, sizeof *c);
    assert_non_null(c);
    c->text = rt_read(path);
    char *p = c->text;
    int row = -1;
    while (*p) {
        char **fields = row < 0 ? c->header : c->field[row];
        int n = 0;
        for (;;) {
            char *start = p, *out = p;
            if (*p == '"') {
                p++;
                for (;;) {
                    assert_true(*p != '\0');
                    if (*p == '"' && p[1] == '"') {
                        *out++ = '"';
                        p += 2;
                    } else if (*p == '"') {
                        p++;
                        break;
                    } else
                        *out++ = *p++;
                }
            } else {
                while (*p && *p != ',' && *p != '\n') *out++ = *p++;
            }
            char end = *p;
            assert_true(end == ',' || end == '\n'); /* every row ends with a line break */
            *out = '\0';
            assert_true(n < MAX_FIELDS);
            fields[n++] = start;
            p++;
            if (end == '\n') break;
        }
        if (row < 0)
            c->columns = n;
        else
            c->count[row] = n;
        row++;
        assert_true(row < MAX_ROWS);
    }
    c->rows = row < 0 ? 0 : row;
    return c;
}

static void csv_free(Csv *c)
{
    free(c->text);
    free(c);
}

static int csv_column(const Csv *c, const char *name)
{
    for (int i = 0; i < c->columns; i++)
        if (!strcmp(c->header[i], name)) return i;
    fail_msg("no column %s in the trace", name);
    return -1;
}

/* The row of vehicle `id` at step `step`, or -1. */
static int csv_find(const Csv *c, long step, long id)
{
    for (int r = 0; r < c->rows; r++)
        if (atol(c->field[r][0]) == step && atol(c->field[r][2]) == id) return r;
    return -1;
}

/* The same double, bit for bit: the trace's text reads back as what Lua printed with %.17g. */
static void assert_same_number(const char *trace, const char *lua, const char *what, long step, long id)
{
    double a = strtod(trace, NULL), b = strtod(lua, NULL);
    if (memcmp(&a, &b, sizeof a) != 0 || !*trace)
        fail_msg("step %ld vehicle %ld: %s is '%s' in the trace, '%s' in Lua", step, id, what, trace, lua);
}

static void test_trace_rows_match_what_lua_reads(void **state)
{
    (void)state;
    rt_write("scene.lua", TRACE_SCENE);
    char *out, *err;
    const char *args[] = {"--headless", "--steps", "40", "--trace", rt_path("trace.csv"), rt_path("scene.lua"), NULL};
    int status = rt_run(args, &out, &err);
    if (status != 0) fail_msg("exit %d: %s", status, err);
    Csv *c = csv_read(rt_path("trace.csv"));

    /* the header: the documented columns, then one per behaviour, then the senses' */
    const char *fixed[] = {"step", "time", "id", "kind", "x", "y", "vx", "vy", "heading", "state", "speed", "force"};
    const char *senses[] = {"sensed", "closest_sensed", "remembered", "senses"};
    assert_int_equal(c->columns, 12 + STEER_BEHAVIOUR_COUNT + 4);
    for (int i = 0; i < 12; i++) assert_string_equal(c->header[i], fixed[i]);
    for (int b = 0; b < STEER_BEHAVIOUR_COUNT; b++) {
        char name[64];
        snprintf(name, sizeof name, "force_%s", steer_behaviour_name((SteerBehaviour)b));
        assert_string_equal(c->header[12 + b], name);
    }
    for (int i = 0; i < 4; i++) assert_string_equal(c->header[12 + STEER_BEHAVIOUR_COUNT + i], senses[i]);
    /* every step, every vehicle: 40 steps x 4 vehicles, each row as long as the header */
    assert_int_equal(c->rows, 160);
    for (int r = 0; r < c->rows; r++) {
        assert_int_equal(c->count[r], c->columns);
        assert_int_equal(atol(c->field[r][0]), 1 + r / 4);
    }

    /* each line Lua printed has its row, with the same numbers and texts */
    int checked = 0;
    for (const char *p = strstr(out, "obs "); p; p = strstr(p + 1, "obs ")) {
        long step, id;
        char time[64], kind[32], x[64], y[64], vx[64], vy[64], heading[64], speed[64];
        assert_int_equal(sscanf(p, "obs %ld %63s %ld %31s %63s %63s %63s %63s %63s %63[^|]", &step, time, &id, kind, x,
                                y, vx, vy, heading, speed),
                         10);
        const char *bar = strchr(p, '|');
        size_t len = strcspn(bar + 1, "\n");
        char lua_state[128];
        snprintf(lua_state, sizeof lua_state, "%.*s", (int)len, bar + 1);
        int r = csv_find(c, step, id);
        if (r < 0) fail_msg("no row for vehicle %ld at step %ld", id, step);
        char **f = c->field[r];
        assert_same_number(f[1], time, "time", step, id);
        assert_string_equal(f[3], kind);
        assert_same_number(f[4], x, "x", step, id);
        assert_same_number(f[5], y, "y", step, id);
        assert_same_number(f[6], vx, "vx", step, id);
        assert_same_number(f[7], vy, "vy", step, id);
        assert_same_number(f[8], heading, "heading", step, id);
        assert_string_equal(f[9], lua_state);
        assert_same_number(f[10], speed, "speed", step, id);
        checked++;
    }
    assert_int_equal(checked, 7 * 4); /* steps 5, 10, ..., 35 */

    /* a behaviour's column: empty while it is off, > 0 while it is on */
    int seek = csv_column(c, "force_seek"), wander = csv_column(c, "force_wander"), force = csv_column(c, "force");
    for (int r = 0; r < c->rows; r++) {
        char **f = c->field[r];
        long step = atol(f[0]), id = atol(f[2]);
        bool seeking = id == 1 && step >= 11 && step <= 20;
        if (seeking) {
            if (!(strtod(f[seek], NULL) > 0)) fail_msg("step %ld: force_seek '%s', > 0 expected", step, f[seek]);
        } else if (f[seek][0]) {
            fail_msg("step %ld vehicle %ld: force_seek '%s' while seek is off", step, id, f[seek]);
        }
        if (id == 5) { /* no behaviours: every behaviour column empty, no force */
            assert_string_equal(f[3], "late");
            for (int b = 0; b < STEER_BEHAVIOUR_COUNT; b++) assert_string_equal(f[12 + b], "");
            assert_string_equal(f[force], "0");
        } else {
            assert_true(strtod(f[wander], NULL) > 0);
        }
        for (int i = 0; i < 4; i++) /* no senses: their columns are empty */
            assert_string_equal(f[12 + STEER_BEHAVIOUR_COUNT + i], "");
        assert_true(id != 2 || step <= 25); /* removed after step 25: its id is never reused */
        if (id == 1) assert_string_equal(f[9], seeking ? "seeking" : step <= 10 ? "roam" : "");
        if (id == 3) assert_string_equal(f[9], "odd, \"quoted\" state");
    }
    assert_true(csv_find(c, 26, 5) >= 0);
    /* the quoted field as the file holds it */
    char *text = rt_read(rt_path("trace.csv"));
    assert_non_null(strstr(text, ",\"odd, \"\"quoted\"\" state\","));
    free(text);
    csv_free(c);
    free(out);
    free(err);
}

/* A guard (id 1) sees the thieves (ids 2, 3) all round, except through a wall that hides thief 3;
 * at step 20 thief 2 goes behind the wall too. Lua prints what v:sensed and v:memory say. */
static const char *SENSES_SCENE =
    "world = { width = 400, height = 300, edges = 'contain', seed = 2 }\n"
    "local g, t\n"
    "function load(w)\n"
    "  g = w:spawn{ kind = 'guard', x = 50, y = 150 }\n"
    "  g:sense{ name = 'eyes', sight = { kinds = { 'thief' }, range = 300, fov = 360, forget_after = 1 } }\n"
    "  g:sense{ name = 'ears', hearing = {} }\n"
    "  t = w:spawn{ kind = 'thief', x = 150, y = 150 }\n"
    "  w:spawn{ kind = 'thief', x = 250, y = 150 }\n"
    "  w:wall{ x1 = 200, y1 = 100, x2 = 200, y2 = 200 }\n"
    "end\n"
    "function update(w)\n"
    "  local s = w.step_count\n"
    "  if s > 0 and s % 5 == 0 then\n"
    "    local other = g:sensed('eyes')\n"
    "    local now, before = 0, 0\n"
    "    for _, _, _, _, _, _, seen in g:memory('eyes') do\n"
    "      if seen then now = now + 1 else before = before + 1 end\n"
    "    end\n"
    "    print(string.format('obs %d %s %d %d', s, other and tostring(other.id) or '-', now, before))\n"
    "  end\n"
    "  if s == 20 then t:set_position(260, 120) end\n"
    "end\n";

static void test_trace_sense_columns_say_what_lua_reads(void **state)
{
    (void)state;
    rt_write("senses.lua", SENSES_SCENE);
    char *out, *err;
    const char *args[] = {"--headless", "--steps", "60", "--trace", rt_path("senses.csv"), rt_path("senses.lua"), NULL};
    int status = rt_run(args, &out, &err);
    if (status != 0) fail_msg("exit %d: %s", status, err);
    Csv *c = csv_read(rt_path("senses.csv"));
    int sensed = csv_column(c, "sensed"), closest = csv_column(c, "closest_sensed"),
        remembered = csv_column(c, "remembered"), senses = csv_column(c, "senses");
    int checked = 0;
    for (const char *p = strstr(out, "obs "); p; p = strstr(p + 1, "obs ")) {
        long step;
        char other[16];
        int now, before;
        assert_int_equal(sscanf(p, "obs %ld %15s %d %d", &step, other, &now, &before), 4);
        int r = csv_find(c, step, 1);
        if (r < 0) fail_msg("no row for the guard at step %ld", step);
        char **f = c->field[r];
        assert_int_equal(atoi(f[sensed]), now);
        assert_string_equal(f[closest], strcmp(other, "-") ? other : "");
        assert_int_equal(atoi(f[remembered]), before);
        char expected[64];
        if (strcmp(other, "-"))
            snprintf(expected, sizeof expected, "eyes:%d>%s;ears:0", now, other);
        else
            snprintf(expected, sizeof expected, "eyes:%d;ears:0", now);
        assert_string_equal(f[senses], expected);
        /* thief 2 in sight until it goes behind the wall; then remembered for forget_after (1 s) */
        if (step <= 20) assert_string_equal(f[senses], "eyes:1>2;ears:0");
        if (step > 20 && step <= 80) assert_string_equal(f[remembered], "1");
        checked++;
        for (long id = 2; id <= 3; id++) { /* the thieves have no senses: empty columns */
            char **t = c->field[csv_find(c, step, id)];
            assert_string_equal(t[sensed], "");
            assert_string_equal(t[senses], "");
        }
    }
    assert_int_equal(checked, 11); /* steps 5, 10, ..., 55 */
    csv_free(c);
    free(out);
    free(err);
}

static void test_trace_every_k_steps(void **state)
{
    (void)state;
    rt_write("scene.lua", TRACE_SCENE);
    char *out, *err;
    const char *args[] = {"--headless",         "--steps", "50", "--trace-every", "7", "--trace", rt_path("every.csv"),
                          rt_path("scene.lua"), NULL};
    assert_int_equal(rt_run(args, &out, &err), 0);
    Csv *c = csv_read(rt_path("every.csv"));
    assert_int_equal(c->rows, 7 * 4); /* steps 7, 14, ..., 49 */
    for (int r = 0; r < c->rows; r++) assert_int_equal(atol(c->field[r][0]), 7 * (1 + r / 4));
    /* the rows of a step are those of the every-step trace */
    const char *all[] = {"--headless", "--steps", "50", "--trace", rt_path("all.csv"), rt_path("scene.lua"), NULL};
    free(out);
    free(err);
    assert_int_equal(rt_run(all, &out, &err), 0);
    char *every = rt_read(rt_path("every.csv")), *full = rt_read(rt_path("all.csv"));
    for (char *line = strstr(every, "\n49,"); line; line = NULL) {
        char row[4096];
        snprintf(row, sizeof row, "%.*s", (int)strcspn(line + 1, "\n") + 1, line);
        assert_non_null(strstr(full, row));
    }
    free(every);
    free(full);
    csv_free(c);
    free(out);
    free(err);
}

/* In a window (SDL's dummy driver: no display) the trace is written the same way, each step as
 * the real clock makes it. */
static void test_trace_in_a_window(void **state)
{
    (void)state;
    rt_write("scene.lua", TRACE_SCENE);
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    char *out, *err;
    const char *args[] = {"--steps", "30", "--trace-every", "10", "--trace", rt_path("win.csv"), rt_path("scene.lua"),
                          NULL};
    int status = rt_run(args, &out, &err);
    unsetenv("SDL_VIDEODRIVER");
    if (status != 0) fail_msg("exit %d: %s", status, err);
    Csv *c = csv_read(rt_path("win.csv"));
    assert_int_equal(c->rows, 3 * 4);
    for (int r = 0; r < c->rows; r++) assert_int_equal(atol(c->field[r][0]), 10 * (1 + r / 4));
    /* the same world as headless: the row of vehicle 1 at step 20, as Lua printed it */
    int r = csv_find(c, 20, 1);
    assert_true(r >= 0);
    char line[256];
    snprintf(line, sizeof line, "obs 20 %s 1 prey %s %s ", c->field[r][1], c->field[r][4], c->field[r][5]);
    assert_non_null(strstr(out, line));
    csv_free(c);
    free(out);
    free(err);
}

static const char *PLAIN_SCENE = "function load(w) w:spawn{ kind = 'a', x = 10, y = 10 } end\n";

static void expect_refusal(const char *const *args, const char *needle)
{
    char *out, *err;
    int got = rt_run(args, &out, &err);
    if (got != 1 || !strstr(err, needle))
        fail_msg("exit %d (expected 1), stderr: %s (expected '%s')", got, err, needle);
    assert_null(strstr(out, "summary:")); /* refused before anything ran */
    free(out);
    free(err);
}

static void test_bad_trace_options_are_refused_naming_the_option(void **state)
{
    (void)state;
    rt_write("plain.lua", PLAIN_SCENE);
    const char *a1[] = {"--headless", "--trace", rt_path("t.csv"), "--trace-every", "0", rt_path("plain.lua"), NULL};
    expect_refusal(a1, "option --trace-every: a whole number of steps >= 1 expected, got '0'");
    const char *a2[] = {"--headless", "--trace", rt_path("t.csv"), "--trace-every", "x", rt_path("plain.lua"), NULL};
    expect_refusal(a2, "option --trace-every: a whole number of steps >= 1 expected, got 'x'");
    const char *a3[] = {"--headless", "--trace-every", "3", rt_path("plain.lua"), NULL};
    expect_refusal(a3, "option --trace-every: says how often to write the --trace, but none was asked for");
    const char *a4[] = {"--headless", "--trace", rt_path("nodir/t.csv"), rt_path("plain.lua"), NULL};
    expect_refusal(a4, "option --trace: cannot write");
    expect_refusal(a4, "nodir/t.csv: No such file or directory");
    const char *a5[] = {"--headless", "--trace", rt_dir, rt_path("plain.lua"), NULL};
    expect_refusal(a5, "option --trace: cannot write");
    const char *a6[] = {"--headless", "--trace", rt_path("plain.lua"), rt_path("plain.lua"), NULL};
    expect_refusal(a6, "option --trace: "); /* an output never names an input (issue #29) */
}

/* A disk that fills up during the run: said once on stderr, the run goes to its end, exit 3. */
static void test_a_trace_that_cannot_be_written_exits_3(void **state)
{
    (void)state;
    if (access("/dev/full", W_OK) != 0) skip();
    rt_write("scene.lua", TRACE_SCENE);
    char *out, *err;
    const char *args[] = {"--headless", "--steps", "600", "--trace", "/dev/full", rt_path("scene.lua"), NULL};
    assert_int_equal(rt_run(args, &out, &err), 3);
    assert_non_null(strstr(err, "option --trace: cannot write /dev/full: No space left on device"));
    /* said once (issue #29: the failed write during the run, then again at the end) */
    assert_int_equal(rt_count(err, "cannot write /dev/full"), 1);
    assert_non_null(strstr(out, "steps=600 "));
    free(out);
    free(err);
    /* a trace whose rows all fit in the buffer fails at its close only: said once too */
    const char *few[] = {"--headless", "--steps", "1", "--trace", "/dev/full", rt_path("scene.lua"), NULL};
    assert_int_equal(rt_run(few, &out, &err), 3);
    assert_int_equal(rt_count(err, "option --trace: cannot write /dev/full: No space left on device"), 1);
    free(out);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_trace_rows_match_what_lua_reads, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_trace_sense_columns_say_what_lua_reads, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_trace_every_k_steps, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_trace_in_a_window, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_bad_trace_options_are_refused_naming_the_option, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_trace_that_cannot_be_written_exits_3, rt_setup, rt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
