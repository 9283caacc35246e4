/* SPDX-License-Identifier: MIT */
/* test_runtime_heap.c - 1,000 reloads in a row (and 100 failed ones) leave the Lua heap flat, and
 * the world, v.data and v.state survive every one of them. In-process, on real files. */
#include "runtime_support.h"

#include <lauxlib.h>
#include <lua.h>

#include "script.h"

static const char *SCENE = "local Brain = require 'brain'\n"
                           "function load(w)\n"
                           "  W = w\n"
                           "  for i = 1, 50 do\n"
                           "    local v = w:spawn{ kind = 'a', x = i * 10, y = 10, vx = 5 }\n"
                           "    v.data.n = 0; v.state = 'start'; v.brain = Brain\n"
                           "  end\n"
                           "end\n";
static const char *BRAIN = "local M = { states = { idle = {}, run = {} }, config = { speed = 3 } }\n"
                           "function M.states.idle.think(v) v.data.n = v.data.n + 1 end\n"
                           "function M.think(v, dt) M.states.idle.think(v) v.state = 'idle' end\n"
                           "return M\n";

static size_t lua_heap_after_gc(ScriptHost *host)
{
    lua_gc(script_state(host), LUA_GCCOLLECT);
    lua_gc(script_state(host), LUA_GCCOLLECT);
    return script_memory_used(host);
}

static void test_a_thousand_reloads_leave_the_lua_heap_flat(void **state)
{
    (void)state;
    rt_write("scene.lua", SCENE);
    rt_write("brain.lua", BRAIN);
    ScriptConfig config = {0};
    config.scene_path = rt_path("scene.lua");
    config.run.think_hz = 60;
    config.run.time_budget_ms = 1000;
    config.run.memory_cap = 256u * 1024 * 1024;
    char error[1024];
    ScriptHost *host = script_create(&config, error, sizeof error);
    if (!host) fail_msg("%s", error);
    char brain_path[1024];
    snprintf(brain_path, sizeof brain_path, "%s", rt_path("brain.lua")); /* /tmp: no symlinks */
    SteerWorld *world = script_world(host);
    for (int i = 0; i < 10; i++) {
        script_think(host);
        steer_world_step(world);
    }
    /* warm up: the first reloads allocate what every later one reuses */
    for (int i = 0; i < 10; i++) assert_int_equal(script_reload_file(host, brain_path), SCRIPT_RELOAD_OK);
    size_t before = lua_heap_after_gc(host);
    for (int i = 0; i < 1000; i++) assert_int_equal(script_reload_file(host, brain_path), SCRIPT_RELOAD_OK);
    size_t after_good = lua_heap_after_gc(host);
    rt_write("brain.lua", "local M = {}\nfunction M.think(v\nreturn M\n");
    for (int i = 0; i < 100; i++) assert_int_equal(script_reload_file(host, brain_path), SCRIPT_RELOAD_FAILED);
    rt_write("brain.lua", BRAIN);
    assert_int_equal(script_reload_file(host, brain_path), SCRIPT_RELOAD_OK);
    assert_null(script_error(host)); /* the good save cleared the panel */
    size_t after_all = lua_heap_after_gc(host);
    print_message("Lua heap: %zu bytes before, %zu after 1000 reloads, %zu after 100 failed + 1 good\n", before,
                  after_good, after_all);
    assert_true(after_good <= before + 4096);
    assert_true(after_all <= before + 4096);
    /* and the world went on: 50 vehicles, each with its count and state */
    for (int i = 0; i < 10; i++) {
        script_think(host);
        steer_world_step(world);
    }
    assert_int_equal(steer_world_vehicle_count(world), 50);
    lua_State *L = script_state(host);
    assert_int_equal(luaL_loadstring(L, "local n = 0\n"
                                        "for _, v in ipairs(W:vehicles()) do\n"
                                        "  if v.state == 'idle' then n = n + v.data.n end\n"
                                        "end\n"
                                        "return n"),
                     LUA_OK);
    script_push_env(host); /* W is a global of the scene: run in its environment */
    assert_non_null(lua_setupvalue(L, -2, 1));
    assert_int_equal(lua_pcall(L, 0, 1, 0), LUA_OK);
    assert_int_equal(lua_tointeger(L, -1), 50 * 20);
    lua_pop(L, 1);
    script_destroy(host);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_a_thousand_reloads_leave_the_lua_heap_flat, rt_setup, rt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
