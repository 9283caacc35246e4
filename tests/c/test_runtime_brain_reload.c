/* SPDX-License-Identifier: MIT */
/* test_runtime_brain_reload.c - a save reaches every brain the saved file defined: tables with
 * think, plain functions, fsm machines and their states, class instances (a hand-made class and
 * one made by a class library), whether the file keeps them in globals, in its module table, in
 * nested tables or in file-level locals its callbacks use; in a scene file and in a required
 * module. In-process on real files (tests/reload/ holds the files), as the program reloads them:
 * each brain writes its file's version into v.data.ran, and every one must write the new version
 * at its next think while the vehicle keeps v.data, its fsm state and its class instance. A brain
 * made per vehicle by a function the save did not run again is the one that cannot be matched: the
 * reload says so, with the kinds and count. */
#include "runtime_support.h"

#include <lauxlib.h>
#include <lua.h>

#include "script.h"

/* The reload fixture `name` from tests/reload/, with its version line `local V = 1` made `version`. */
static char *fixture(const char *name, int version)
{
    char path[256];
    snprintf(path, sizeof path, "tests/reload/%s", name);
    char *text = rt_read(path);
    assert_true(strlen(text) > 0);
    char *at = strstr(text, "local V = 1\n");
    if (at) at[10] = (char)('0' + version);
    return text;
}

static void write_fixture(const char *as, const char *name, int version)
{
    char *text = fixture(name, version);
    rt_write(as, text);
    free(text);
}

/* Saves `text` (which starts with `local V = 1`) as `name` with its version line made `version`. */
static void write_version(const char *name, const char *text, int version)
{
    char *copy = strdup(text);
    char *at = strstr(copy, "local V = 1\n");
    assert_non_null(at);
    at[10] = (char)('0' + version);
    rt_write(name, copy);
    free(copy);
}

/* The libraries the fixtures require, beside them in the scene's folder. */
static void write_libraries(void)
{
    write_fixture("classlib.lua", "classlib.lua", 1);
    char *fsm = rt_read("scripts/lib/fsm.lua");
    assert_true(strlen(fsm) > 0);
    rt_write("fsm.lua", fsm);
    free(fsm);
}

/* A scene that requires the module fixture as `forms` and lets it spawn the vehicles. */
static const char *MODULE_SCENE = "local Forms = require 'forms'\n"
                                  "world = { width = 400, height = 400, seed = 3 }\n"
                                  "function load(w)\n"
                                  "  W = w\n"
                                  "  Forms.setup(w)\n"
                                  "end\n"
                                  "function reload(w)\n"
                                  "  if require('forms').poison then error('refusing a poisoned save') end\n"
                                  "end\n";

static ScriptHost *start(void)
{
    ScriptConfig config = {0};
    config.scene_path = rt_path("scene.lua");
    config.run.think_hz = 60; /* every vehicle thinks at every step */
    config.run.time_budget_ms = 5000;
    config.run.memory_cap = 256u * 1024 * 1024;
    char error[2048];
    ScriptHost *host = script_create(&config, error, sizeof error);
    if (!host) fail_msg("%s", error);
    return host;
}

static void think_steps(ScriptHost *host, int steps)
{
    SteerWorld *world = script_world(host);
    for (int i = 0; i < steps; i++) {
        script_think(host);
        script_update(host, steer_world_dt(world));
        steer_world_step(world);
    }
}

/* Runs `code` (a chunk returning a string) in the scene's environment. */
static const char *eval(ScriptHost *host, const char *code)
{
    static char buf[1024];
    lua_State *L = script_state(host);
    assert_int_equal(luaL_loadstring(L, code), LUA_OK);
    script_push_env(host);
    assert_non_null(lua_setupvalue(L, -2, 1));
    if (lua_pcall(L, 0, 1, 0) != LUA_OK) fail_msg("%s", lua_tostring(L, -1));
    snprintf(buf, sizeof buf, "%s", lua_tostring(L, -1));
    lua_pop(L, 1);
    return buf;
}

/* "kind=version ..." of every vehicle, in id order: what each brain wrote at its last think. */
static const char *ran(ScriptHost *host)
{
    return eval(host, "local t = {}\n"
                      "for _, v in ipairs(W:vehicles()) do t[#t + 1] = v.kind .. '=' .. tostring(v.data.ran) end\n"
                      "return table.concat(t, ' ')");
}

/* What each vehicle keeps across a reload: its fsm state and clock, its class instance's count. */
static const char *kept(ScriptHost *host)
{
    return eval(host,
                "local t = {}\n"
                "for _, v in ipairs(W:vehicles()) do\n"
                "  local b = v.brain\n"
                "  if v.state then t[#t + 1] = v.kind .. ':' .. v.state .. '@' .. math.floor(v.data.fsm.clock * 60 "
                "+ 0.5) end\n"
                "  if type(b) == 'table' and rawget(b, 'thoughts') then t[#t + 1] = v.kind .. '#' .. b.thoughts end\n"
                "end\n"
                "return table.concat(t, ' ')");
}

#define ALL_AT(n)                                                                                                      \
    "table=" #n " nested=" #n " function=" #n " machine=" #n " local_table=" #n " local_function=" #n                  \
    " local_machine=" #n " class=" #n " class_library=" #n

static void expect_kept(ScriptHost *host, int thoughts)
{
    char expected[512];
    snprintf(expected, sizeof expected, "machine:watch@%d local_machine:watch@%d class#%d class_library#%d", thoughts,
             thoughts, thoughts, thoughts);
    assert_string_equal(kept(host), expected);
}

static void reload(ScriptHost *host, const char *name, ScriptReload expected)
{
    assert_int_equal(script_reload_file(host, rt_path(name)), expected);
}

static void test_a_saved_scene_file_reaches_every_brain_it_defined(void **state)
{
    (void)state;
    write_libraries();
    write_fixture("scene.lua", "forms_scene.lua", 1);
    ScriptHost *host = start();
    think_steps(host, 5);
    assert_string_equal(ran(host), ALL_AT(1) " made_per_vehicle=1");
    expect_kept(host, 5);

    write_fixture("scene.lua", "forms_scene.lua", 2);
    reload(host, "scene.lua", SCRIPT_RELOAD_OK);
    think_steps(host, 1);
    assert_string_equal(ran(host), ALL_AT(2) " made_per_vehicle=1");
    expect_kept(host, 6); /* the same instances, machines' clocks and states */
    /* the one brain the save could not reach is named, once, with its kind and count */
    assert_non_null(script_reload_note(host));
    assert_string_equal(script_reload_note(host),
                        "1 vehicle (made_per_vehicle 1) still runs the old code: its brain was made by code this "
                        "save did not run again (set v.brain in reload(world), or restart with F5)");

    /* and the next save reaches them again */
    write_fixture("scene.lua", "forms_scene.lua", 3);
    reload(host, "scene.lua", SCRIPT_RELOAD_OK);
    think_steps(host, 1);
    assert_string_equal(ran(host), ALL_AT(3) " made_per_vehicle=1");
    expect_kept(host, 7);
    script_destroy(host);
}

static void test_a_saved_module_reaches_every_brain_it_defined(void **state)
{
    (void)state;
    write_libraries();
    write_fixture("forms.lua", "forms_module.lua", 1);
    rt_write("scene.lua", MODULE_SCENE);
    ScriptHost *host = start();
    think_steps(host, 4);
    assert_string_equal(ran(host), ALL_AT(1) " made_per_vehicle=1");

    write_fixture("forms.lua", "forms_module.lua", 2);
    reload(host, "forms.lua", SCRIPT_RELOAD_OK);
    assert_null(script_error(host));
    think_steps(host, 1);
    assert_string_equal(ran(host), ALL_AT(2) " made_per_vehicle=1");
    expect_kept(host, 5);
    assert_non_null(strstr(script_reload_note(host), "1 vehicle (made_per_vehicle 1) still runs the old code"));
    script_destroy(host);
}

static void test_a_reload_that_fails_puts_every_brain_back(void **state)
{
    (void)state;
    write_libraries();
    write_fixture("forms.lua", "forms_module.lua", 1);
    rt_write("scene.lua", MODULE_SCENE);
    ScriptHost *host = start();
    think_steps(host, 3);
    /* version 2, which reload(world) refuses: the patched tables, classes and function brains go back */
    char *text = fixture("forms_module.lua", 2);
    char *poisoned = malloc(strlen(text) + 64);
    char *end = strstr(text, "\nreturn M");
    assert_non_null(end);
    sprintf(poisoned, "%.*s\nM.poison = true\nreturn M\n", (int)(end - text), text);
    rt_write("forms.lua", poisoned);
    free(text);
    free(poisoned);
    reload(host, "forms.lua", SCRIPT_RELOAD_FAILED);
    assert_non_null(strstr(script_error(host), "refusing a poisoned save"));
    think_steps(host, 1);
    assert_string_equal(ran(host), ALL_AT(1) " made_per_vehicle=1");
    expect_kept(host, 4);
    /* a good save after it reaches them all */
    write_fixture("forms.lua", "forms_module.lua", 3);
    reload(host, "forms.lua", SCRIPT_RELOAD_OK);
    think_steps(host, 1);
    assert_string_equal(ran(host), ALL_AT(3) " made_per_vehicle=1");
    script_destroy(host);
}

/* A module that returns a class (a table with a metatable) is patched in place like any other. */
static const char *CLASS_MODULE = "local V = 1\n"
                                  "local Guard = setmetatable({}, { __call = function(cls)\n"
                                  "  return setmetatable({ thoughts = 0 }, cls)\n"
                                  "end })\n"
                                  "Guard.__index = Guard\n"
                                  "function Guard:think(v)\n"
                                  "  self.thoughts = self.thoughts + 1\n"
                                  "  v.data.ran = V\n"
                                  "end\n"
                                  "return Guard\n";

static void test_a_module_returning_a_class_is_patched_in_place(void **state)
{
    (void)state;
    rt_write("guard.lua", CLASS_MODULE);
    rt_write("scene.lua", "local Guard = require 'guard'\n"
                          "world = { width = 400, height = 400 }\n"
                          "function load(w)\n"
                          "  W = w\n"
                          "  for _ = 1, 3 do w:spawn{ kind = 'guard' }.brain = Guard() end\n"
                          "end\n");
    ScriptHost *host = start();
    think_steps(host, 2);
    assert_string_equal(ran(host), "guard=1 guard=1 guard=1");
    write_version("guard.lua", CLASS_MODULE, 2);
    reload(host, "guard.lua", SCRIPT_RELOAD_OK);
    assert_null(script_reload_note(host));
    think_steps(host, 1);
    assert_string_equal(ran(host), "guard=2 guard=2 guard=2");
    assert_string_equal(kept(host), "guard#3 guard#3 guard#3");
    assert_string_equal(eval(host, "return tostring(require('guard') == getmetatable(W:vehicles()[1].brain))"), "true");
    script_destroy(host);
}

/* A scene that returns its table (callbacks and brains as its fields) is matched through that table. */
static void test_a_scene_that_returns_its_table_reaches_the_brains_in_it(void **state)
{
    (void)state;
    const char *scene = "local V = 1\n"
                        "local scene = { world = { width = 400, height = 400 } }\n"
                        "scene.brains = { guard = { think = function(v) v.data.ran = V end } }\n"
                        "function scene.sheep(v) v.data.ran = V end\n"
                        "function scene.load(w)\n"
                        "  W = w\n"
                        "  w:spawn{ kind = 'guard' }.brain = scene.brains.guard\n"
                        "  w:spawn{ kind = 'sheep' }.brain = scene.sheep\n"
                        "end\n"
                        "return scene\n";
    rt_write("scene.lua", scene);
    ScriptHost *host = start();
    think_steps(host, 1);
    assert_string_equal(ran(host), "guard=1 sheep=1");
    write_version("scene.lua", scene, 2);
    reload(host, "scene.lua", SCRIPT_RELOAD_OK);
    assert_null(script_reload_note(host));
    think_steps(host, 1);
    assert_string_equal(ran(host), "guard=2 sheep=2");
    script_destroy(host);
}

/* A file-level table the callbacks use is the same table after a save: what load put in it stays,
 * and the new callbacks see it. */
static void test_a_file_level_table_the_callbacks_use_keeps_its_contents(void **state)
{
    (void)state;
    const char *scene = "local V = 1\n"
                        "local guards = {}\n"
                        "local config = { speed = 10 * V }\n"
                        "world = { width = 400, height = 400 }\n"
                        "function load(w)\n"
                        "  W = w\n"
                        "  for i = 1, 2 do guards[i] = w:spawn{ kind = 'guard' } end\n"
                        "end\n"
                        "function update(w)\n"
                        "  for _, g in ipairs(guards) do g.data.ran = V; g.data.speed = config.speed end\n"
                        "end\n";
    rt_write("scene.lua", scene);
    ScriptHost *host = start();
    think_steps(host, 1);
    assert_string_equal(ran(host), "guard=1 guard=1");
    write_version("scene.lua", scene, 2);
    reload(host, "scene.lua", SCRIPT_RELOAD_OK);
    think_steps(host, 1);
    assert_string_equal(ran(host), "guard=2 guard=2");
    /* the new run's values are written into the kept table */
    assert_string_equal(eval(host, "return tostring(W:vehicles()[1].data.speed)"), "20");
    script_destroy(host);
}

/* A file-level local declared without a value and set by load (which a save does not run again)
 * keeps its value, as a global would: the README's first scene written with `local hunter`. */
static void test_a_file_level_local_the_new_run_leaves_nil_keeps_its_value(void **state)
{
    (void)state;
    const char *scene = "local V = 1\n"
                        "local hunter\n"
                        "local score = 0\n"
                        "world = { width = 400, height = 400 }\n"
                        "function load(w)\n"
                        "  W = w\n"
                        "  hunter = w:spawn{ kind = 'hunter' }\n"
                        "end\n"
                        "function update(w)\n"
                        "  score = score + 1\n"
                        "  hunter.data.ran = V\n"
                        "  hunter.data.score = score\n"
                        "end\n";
    rt_write("scene.lua", scene);
    ScriptHost *host = start();
    think_steps(host, 3);
    assert_string_equal(ran(host), "hunter=1");
    write_version("scene.lua", scene, 2);
    reload(host, "scene.lua", SCRIPT_RELOAD_OK);
    assert_null(script_error(host));
    think_steps(host, 2);
    assert_string_equal(ran(host), "hunter=2");
    /* a local the new run assigns takes the new value: the score counts again from 0 */
    assert_string_equal(eval(host, "return tostring(W:vehicles()[1].data.score)"), "2");
    script_destroy(host);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_a_saved_scene_file_reaches_every_brain_it_defined, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_saved_module_reaches_every_brain_it_defined, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_reload_that_fails_puts_every_brain_back, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_module_returning_a_class_is_patched_in_place, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_scene_that_returns_its_table_reaches_the_brains_in_it, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_file_level_local_the_new_run_leaves_nil_keeps_its_value, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_file_level_table_the_callbacks_use_keeps_its_contents, rt_setup,
                                        rt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
