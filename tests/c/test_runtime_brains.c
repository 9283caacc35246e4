/* SPDX-License-Identifier: MIT */
/* test_runtime_brains.c - a failing brain pauses its vehicle only: in-process (the panel's text,
 * the failing count, a good reload resuming every paused vehicle) and the real program headless
 * (stderr names the vehicle once per distinct error with a count, the summary counts failing
 * vehicles). On real files. */
#include "runtime_support.h"

#include <lauxlib.h>
#include <lua.h>

#include "script.h"

/* Six hunters sharing one brain; v.data.fails says which of them raise an error. */
static const char *SCENE = "local Hunt = require 'hunt'\n"
                           "world = { width = 400, height = 400, seed = 1 }\n"
                           "function load(w)\n"
                           "  W = w\n"
                           "  for i = 1, 6 do\n"
                           "    local v = w:spawn{ kind = 'hunter', x = 50 * i, y = 200 }\n"
                           "    v.data.slot = i; v.data.n = 0; v.data.fails = FAILING[i]\n"
                           "    v.brain = Hunt\n"
                           "  end\n"
                           "end\n"
                           "function update(w, dt)\n"
                           "  if w.step_count % 60 == 59 then\n"
                           "    local t = {}\n"
                           "    for i, v in ipairs(w:vehicles()) do t[i] = v.data.n end\n"
                           "    print('counts ' .. table.concat(t, ' '))\n"
                           "  end\n"
                           "end\n";
static const char *BROKEN = "local M = {}\n"
                            "function M.think(v, dt)\n"
                            "  v.data.n = v.data.n + 1\n"
                            "  if v.data.fails then error(v.data.fails) end\n"
                            "end\n"
                            "return M\n";
static const char *FIXED = "local M = {}\n"
                           "function M.think(v, dt)\n"
                           "  v.data.n = v.data.n + 1\n"
                           "end\n"
                           "return M\n";

/* The scene with FAILING = the Lua table constructor given. */
static void write_scene(const char *failing)
{
    char text[4096];
    snprintf(text, sizeof text, "FAILING = %s\n%s", failing, SCENE);
    rt_write("scene.lua", text);
}

static ScriptHost *start(double think_hz)
{
    ScriptConfig config = {0};
    config.scene_path = rt_path("scene.lua");
    config.run.think_hz = think_hz;
    config.run.time_budget_ms = 1000;
    config.run.memory_cap = 256u * 1024 * 1024;
    char error[2048];
    ScriptHost *host = script_create(&config, error, sizeof error);
    if (!host) fail_msg("%s", error);
    return host;
}

/* What app_step does for each step. */
static void think_steps(ScriptHost *host, int steps)
{
    SteerWorld *world = script_world(host);
    for (int i = 0; i < steps; i++) {
        script_think(host);
        script_update(host, steer_world_dt(world));
        steer_world_step(world);
    }
}

/* v.data.n of the vehicles, in id order, as "n1 n2 ...". */
static const char *counts(ScriptHost *host)
{
    static char buf[256];
    lua_State *L = script_state(host);
    assert_int_equal(luaL_loadstring(L, "local t = {}\n"
                                        "for i, v in ipairs(W:vehicles()) do t[i] = v.data.n end\n"
                                        "return table.concat(t, ' ')"),
                     LUA_OK);
    script_push_env(host);
    assert_non_null(lua_setupvalue(L, -2, 1));
    assert_int_equal(lua_pcall(L, 0, 1, 0), LUA_OK);
    snprintf(buf, sizeof buf, "%s", lua_tostring(L, -1));
    lua_pop(L, 1);
    return buf;
}

static char hunt_path[1024];

static void test_one_failing_vehicle_of_six_sharing_a_brain_pauses_alone(void **state)
{
    (void)state;
    write_scene("{ [4] = 'no prey in sight' }");
    rt_write("hunt.lua", BROKEN);
    snprintf(hunt_path, sizeof hunt_path, "%s", rt_path("hunt.lua"));
    ScriptHost *host = start(10);
    think_steps(host, 120); /* 2 s at 10 Hz: 20 thoughts each */
    assert_string_equal(counts(host), "20 20 20 1 20 20");
    assert_int_equal(script_failing_vehicles(host), 1);
    assert_int_equal(script_error_count(host), 1);
    const char *panel = script_error(host);
    assert_non_null(panel);
    assert_non_null(strstr(panel, "1 vehicle paused by brain errors"));
    assert_non_null(strstr(panel, "vehicle #4 (hunter): hunt.lua:4: no prey in sight\n"));
    assert_non_null(strstr(panel, "stack traceback:"));
    /* the inspector says why when the paused vehicle is selected */
    SteerVehicleId ids[6];
    assert_int_equal(steer_world_get_vehicles(script_world(host), ids, 6), 6);
    const char **lines;
    int n = script_inspector_lines(host, ids[3], &lines);
    bool said = false;
    for (int i = 0; i < n; i++) said |= strcmp(lines[i], "brain paused: hunt.lua:4: no prey in sight") == 0;
    assert_true(said);
    n = script_inspector_lines(host, ids[2], &lines);
    for (int i = 0; i < n; i++) assert_null(strstr(lines[i], "brain paused"));
    /* the kind goes by name beside the renderer's kind number, not as a line of its own */
    for (int i = 0; i < n; i++) assert_null(strstr(lines[i], "kind"));
    assert_string_equal(script_kind_name(host, ids[2]), "hunter");

    /* a broken save keeps it paused and the entry on the panel */
    rt_write("hunt.lua", "local M = {}\nfunction M.think(v\nreturn M\n");
    assert_int_equal(script_reload_file(host, hunt_path), SCRIPT_RELOAD_FAILED);
    assert_int_equal(script_failing_vehicles(host), 1);
    assert_non_null(strstr(script_error(host), "vehicle #4 (hunter): hunt.lua:4: no prey in sight"));
    assert_non_null(strstr(script_error(host), "hunt.lua:3:")); /* and the syntax error below it */

    /* the next good save resumes it and clears the panel */
    rt_write("hunt.lua", FIXED);
    assert_int_equal(script_reload_file(host, hunt_path), SCRIPT_RELOAD_OK);
    assert_int_equal(script_failing_vehicles(host), 0);
    assert_null(script_error(host));
    think_steps(host, 60);
    assert_string_equal(counts(host), "30 30 30 11 30 30");
    script_destroy(host);
}

static void test_one_panel_entry_per_distinct_error_with_a_count(void **state)
{
    (void)state;
    write_scene("{ 'odd', 'even', 'odd', 'even', 'odd', 'even' }");
    rt_write("hunt.lua", BROKEN);
    snprintf(hunt_path, sizeof hunt_path, "%s", rt_path("hunt.lua"));
    ScriptHost *host = start(10);
    think_steps(host, 60);
    assert_string_equal(counts(host), "1 1 1 1 1 1");
    assert_int_equal(script_failing_vehicles(host), 6);
    assert_int_equal(script_error_count(host), 6);
    const char *panel = script_error(host);
    assert_non_null(strstr(panel, "6 vehicles paused by brain errors"));
    assert_non_null(strstr(panel, "vehicle #1 (hunter): hunt.lua:4: odd (x3)\n"));
    assert_non_null(strstr(panel, "vehicle #6 (hunter): hunt.lua:4: even (x3)\n")); /* slot 6 thinks first */
    assert_int_equal(rt_count(panel, "hunt.lua:4: odd"), 1);
    rt_write("hunt.lua", FIXED);
    assert_int_equal(script_reload_file(host, hunt_path), SCRIPT_RELOAD_OK);
    assert_null(script_error(host));
    think_steps(host, 60);
    assert_string_equal(counts(host), "11 11 11 11 11 11");
    script_destroy(host);
}

static void test_think_rate_is_the_worlds_unless_given(void **state)
{
    (void)state;
    rt_write("hunt.lua", FIXED);
    rt_write("scene.lua", "FAILING = {}\n"
                          "world = { width = 400, height = 400, think_hz = 30 }\n"
                          "function load(w)\n"
                          "  W = w\n"
                          "  local v = w:spawn{ kind = 'hunter' }\n"
                          "  v.data.n = 0; v.brain = require('hunt')\n"
                          "end\n");
    ScriptHost *host = start(-1); /* no --think-hz: the scene's 30 Hz */
    think_steps(host, 60);
    assert_string_equal(counts(host), "30");
    script_destroy(host);
    host = start(5); /* --think-hz 5 */
    think_steps(host, 60);
    assert_string_equal(counts(host), "5");
    script_destroy(host);
    host = start(0);
    think_steps(host, 60);
    assert_string_equal(counts(host), "0");
    script_destroy(host);
}

static void test_the_program_names_the_vehicle_once_and_counts_failing_vehicles(void **state)
{
    (void)state;
    write_scene("{ [4] = 'no prey in sight' }");
    rt_write("hunt.lua", BROKEN);
    char *out, *err;
    const char *args[] = {"--headless", "--steps", "120", rt_path("scene.lua"), NULL};
    assert_int_equal(rt_run(args, &out, &err), 2);
    assert_non_null(strstr(out, "counts 10 10 10 1 10 10\n"));
    assert_non_null(strstr(out, "counts 20 20 20 1 20 20\n")); /* the five went on */
    assert_non_null(strstr(err, "steer: script error: vehicle #4 (hunter): hunt.lua:4: no prey in sight\n"
                                "stack traceback:"));
    assert_int_equal(rt_count(err, "no prey in sight"), 1);
    assert_non_null(strstr(out, " errors=1 failing_vehicles=1 "));
    free(out);
    free(err);

    /* all six with one error: printed in full once, then its count as more vehicles fail */
    write_scene("{ 'stuck', 'stuck', 'stuck', 'stuck', 'stuck', 'stuck' }");
    assert_int_equal(rt_run(args, &out, &err), 2);
    assert_non_null(strstr(err, "steer: script error: vehicle #6 (hunter): hunt.lua:4: stuck\nstack traceback:"));
    assert_int_equal(rt_count(err, "stack traceback:"), 1);
    assert_non_null(strstr(err, "steer: script error: vehicle #6 (hunter) and 5 more: hunt.lua:4: stuck (x6)\n"));
    assert_non_null(strstr(out, " errors=6 failing_vehicles=6 "));
    free(out);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_one_failing_vehicle_of_six_sharing_a_brain_pauses_alone, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_one_panel_entry_per_distinct_error_with_a_count, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_think_rate_is_the_worlds_unless_given, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_the_program_names_the_vehicle_once_and_counts_failing_vehicles, rt_setup,
                                        rt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
