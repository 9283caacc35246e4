/* SPDX-License-Identifier: MIT */
/* test_runtime_guard.c - the script guards on a bare Lua state: the time budget stops endless
 * loops (even ones wrapped in pcall) with file:line, costs nothing while it is not needed, and the
 * memory cap turns runaway allocation into Lua's memory error with the state still usable. */
#include "test_support.h"

#include <stdlib.h>

#include <lauxlib.h>
#include <lualib.h>

#include "guard.h"

typedef struct Fixture {
    Guard guard;
    lua_State *L;
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof *f);
    assert_true(guard_init(&f->guard, 50.0, 8u * 1024 * 1024));
    f->L = lua_newstate(guard_alloc, &f->guard);
    assert_non_null(f->L);
    guard_attach(&f->guard, f->L);
    luaL_openlibs(f->L);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fixture *f = *state;
    guard_shutdown(&f->guard);
    lua_close(f->L);
    free(f);
    return 0;
}

/* Runs `code` (chunk name "@brain.lua") under the guard; returns the Lua status, leaves the
 * message in `msg` and the elapsed seconds in `elapsed`. */
static int run_guarded(Fixture *f, const char *code, char *msg, size_t size, double *elapsed, bool *expired)
{
    assert_int_equal(luaL_loadbufferx(f->L, code, strlen(code), "@brain.lua", "t"), LUA_OK);
    double t0 = guard_now();
    guard_begin(&f->guard);
    int status = lua_pcall(f->L, 0, 0, 0);
    *expired = guard_end(&f->guard);
    *elapsed = guard_now() - t0;
    snprintf(msg, size, "%s", status == LUA_OK ? "" : lua_tostring(f->L, -1));
    if (status != LUA_OK) {
        if (*expired) snprintf(msg, size, "%s", f->guard.message);
        lua_pop(f->L, 1);
    }
    return status;
}

static void test_endless_loop_stops_at_budget_with_file_and_line(void **state)
{
    Fixture *f = *state;
    char msg[512];
    double elapsed;
    bool expired;
    int status = run_guarded(f, "local n = 0\nwhile true do\n  n = n + 1\nend\n", msg, sizeof msg, &elapsed, &expired);
    assert_int_equal(status, LUA_ERRRUN);
    assert_true(expired);
    assert_non_null(strstr(msg, "brain.lua:"));
    assert_non_null(strstr(msg, "script exceeded its time budget (50 ms)"));
    assert_true(elapsed >= 0.049); /* not before its budget (a busy machine only makes it later) */
}

static void test_pcall_in_the_script_cannot_swallow_the_timeout(void **state)
{
    Fixture *f = *state;
    char msg[512];
    double elapsed;
    bool expired;
    const char *code = "for i = 1, 1000 do\n"
                       "  pcall(function() while true do end end)\n"
                       "end\n"
                       "ran_past = true\n";
    int status = run_guarded(f, code, msg, sizeof msg, &elapsed, &expired);
    assert_int_equal(status, LUA_ERRRUN);
    assert_true(expired);
    lua_getglobal(f->L, "ran_past");
    assert_true(lua_isnil(f->L, -1));
    lua_pop(f->L, 1);
}

static void test_endless_loops_inside_coroutines_are_stopped_too(void **state)
{
    Fixture *f = *state;
    guard_open_coroutines(&f->guard, f->L);
    char msg[512];
    double elapsed;
    bool expired;
    const char *cases[] = {
        "local co = coroutine.create(function()\n  while true do end\nend)\nlocal ok = coroutine.resume(co)\nafter = "
        "true\n",
        "local f = coroutine.wrap(function()\n  while true do end\nend)\npcall(f)\nafter = true\n",
        /* a coroutine made before the budget expired, resumed in a loop that swallows errors */
        "local co = coroutine.wrap(function() while true do coroutine.yield() end end)\n"
        "co()\nwhile true do pcall(co) end\n",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int status = run_guarded(f, cases[i], msg, sizeof msg, &elapsed, &expired);
        assert_int_equal(status, LUA_ERRRUN);
        assert_true(expired);
        assert_non_null(strstr(msg, "script exceeded its time budget (50 ms)"));
        lua_getglobal(f->L, "after");
        assert_true(lua_isnil(f->L, -1));
        lua_pop(f->L, 1);
    }
    /* and coroutines still work as Lua's own */
    assert_int_equal(
        luaL_dostring(f->L,
                      "local co = coroutine.create(function(a) local b = coroutine.yield(a + 1) return b * 2 end)\n"
                      "local _, x = coroutine.resume(co, 1)\n"
                      "local _, y = coroutine.resume(co, 10)\n"
                      "local ok, e = coroutine.resume(co)\n"
                      "local g = coroutine.wrap(function() error('inner') end)\n"
                      "local ok2, e2 = pcall(g)\n"
                      "return x, y, ok, e, ok2, e2"),
        LUA_OK);
    assert_int_equal(lua_tointeger(f->L, -6), 2);
    assert_int_equal(lua_tointeger(f->L, -5), 20);
    assert_false(lua_toboolean(f->L, -4));
    assert_string_equal(lua_tostring(f->L, -3), "cannot resume dead coroutine");
    assert_false(lua_toboolean(f->L, -2));
    assert_non_null(strstr(lua_tostring(f->L, -1), "inner"));
    lua_settop(f->L, 0);
}

static void test_state_runs_normally_after_a_timeout(void **state)
{
    Fixture *f = *state;
    char msg[512];
    double elapsed;
    bool expired;
    run_guarded(f, "while true do end", msg, sizeof msg, &elapsed, &expired);
    f->guard.budget_s = 1.0; /* the quick call below must not meet a busy machine's preemption */
    int status =
        run_guarded(f, "local s = 0 for i = 1, 1000 do s = s + i end result = s", msg, sizeof msg, &elapsed, &expired);
    assert_int_equal(status, LUA_OK);
    assert_false(expired);
    lua_getglobal(f->L, "result");
    assert_int_equal(lua_tointeger(f->L, -1), 500500);
    lua_pop(f->L, 1);
}

static void test_quick_calls_never_expire_and_leave_no_hook(void **state)
{
    Fixture *f = *state;
    char msg[512];
    double elapsed;
    bool expired;
    f->guard.budget_s = 1.0; /* far beyond a quick call, even preempted on a busy machine */
    for (int i = 0; i < 200; i++) {
        assert_int_equal(
            run_guarded(f, "local x = 0 for i = 1, 100 do x = x + i end", msg, sizeof msg, &elapsed, &expired), LUA_OK);
        assert_false(expired);
    }
    assert_null(lua_gethook(f->L));
}

static int wall_clock(lua_State *L)
{
    lua_pushnumber(L, guard_now());
    return 1;
}

static void test_each_call_of_a_stretch_gets_its_own_budget(void **state)
{
    Fixture *f = *state;
    /* Three calls of 0.8 s (wall clock) in one stretch (2.4 s > a 2 s budget): none is over. The
     * 1.2 s left to each call absorb a busy machine's preemptions (120 ms of slack was not always
     * enough while other jobs ran). */
    f->guard.budget_s = 2.0;
    lua_pushcfunction(f->L, wall_clock);
    lua_setglobal(f->L, "wall_clock");
    const char *code = "return function() local t = wall_clock() while wall_clock() - t < 0.8 do end end";
    assert_int_equal(luaL_loadbufferx(f->L, code, strlen(code), "@slow.lua", "t"), LUA_OK);
    lua_call(f->L, 0, 1);
    guard_begin(&f->guard);
    for (int i = 0; i < 3; i++) {
        guard_mark_call(&f->guard);
        lua_pushvalue(f->L, -1);
        assert_int_equal(lua_pcall(f->L, 0, 0, 0), LUA_OK);
    }
    assert_false(guard_end(&f->guard));
    lua_pop(f->L, 1);
}

static void test_memory_cap_raises_memory_error_and_state_survives(void **state)
{
    Fixture *f = *state;
    f->guard.budget_s = 10.0; /* the full collections near the cap are slow under ASan */
    const char *bomb = "local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 1000) .. i end";
    assert_int_equal(luaL_loadbufferx(f->L, bomb, strlen(bomb), "@bomb.lua", "t"), LUA_OK);
    guard_begin(&f->guard);
    int status = lua_pcall(f->L, 0, 0, 0);
    guard_end(&f->guard);
    if (status != LUA_ERRMEM) fail_msg("status %d: %s", status, lua_tostring(f->L, -1));
    assert_string_equal(lua_tostring(f->L, -1), "not enough memory");
    lua_pop(f->L, 1);
    assert_true(f->guard.memory_peak <= f->guard.memory_cap);
    lua_gc(f->L, LUA_GCCOLLECT);
    assert_true(f->guard.memory_used < 1024u * 1024);
    assert_int_equal(luaL_dostring(f->L, "ok_after = #string.rep('y', 1000)"), LUA_OK);
    lua_getglobal(f->L, "ok_after");
    assert_int_equal(lua_tointeger(f->L, -1), 1000);
    lua_pop(f->L, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_endless_loop_stops_at_budget_with_file_and_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pcall_in_the_script_cannot_swallow_the_timeout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_endless_loops_inside_coroutines_are_stopped_too, setup, teardown),
        cmocka_unit_test_setup_teardown(test_state_runs_normally_after_a_timeout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_quick_calls_never_expire_and_leave_no_hook, setup, teardown),
        cmocka_unit_test_setup_teardown(test_each_call_of_a_stretch_gets_its_own_budget, setup, teardown),
        cmocka_unit_test_setup_teardown(test_memory_cap_raises_memory_error_and_state_survives, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
