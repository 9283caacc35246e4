/* SPDX-License-Identifier: MIT */
/* test_lua_bindings.c - the C side of the Lua module (bindings/steer_lua.h), as the runtime uses
 * it: finding the world and vehicles behind handles, pushing the one cached handle, kind names, a
 * held world that no script can free (not even through its metatable's __gc), sense events delivered
 * to the brains' handlers by the host's pass. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>
#include "lua_support.h"

static void test_to_world_finds_the_world_behind_a_handle(void **state)
{
    (void)state;
    lua_State *L = open_state();
    run(L, "W = steer.world{width = 300, height = 200}");
    lua_getglobal(L, "W");
    SteerWorld *world = steer_lua_to_world(L, -1);
    assert_non_null(world);
    assert_true(steer_world_width(world) == 300.0);
    lua_pushinteger(L, 3);
    assert_null(steer_lua_to_world(L, -1));
    lua_pop(L, 1);
    run(L, "W:close()");
    assert_null(steer_lua_to_world(L, -1));
    lua_close(L);
}

static void test_push_vehicle_gives_the_one_cached_handle(void **state)
{
    (void)state;
    lua_State *L = open_state();
    run(L, "W = steer.world{} V = W:spawn{kind = 'prey', x = 5}");
    lua_getglobal(L, "W");
    int w = lua_gettop(L);
    lua_getglobal(L, "V");
    SteerVehicleId id;
    assert_true(steer_lua_to_vehicle(L, -1, &id));
    assert_true(steer_vehicle_is_valid(steer_lua_to_world(L, w), id));
    steer_lua_push_vehicle(L, w, id);
    assert_true(lua_rawequal(L, -1, -2));
    lua_pop(L, 2);

    /* a vehicle made from C gets a handle on demand, once */
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(7, 8);
    SteerVehicleId c_made;
    assert_int_equal(steer_vehicle_create(steer_lua_to_world(L, w), &def, &c_made), STEER_OK);
    steer_lua_push_vehicle(L, w, c_made);
    steer_lua_push_vehicle(L, w, c_made);
    assert_true(lua_rawequal(L, -1, -2));
    lua_getfield(L, -1, "x");
    assert_true(lua_tonumber(L, -1) == 7.0);
    lua_pop(L, 3);

    /* removed: nil, and the old handle still names the removed id */
    run(L, "W:remove(V)");
    steer_lua_push_vehicle(L, w, id);
    assert_true(lua_isnil(L, -1));
    lua_pop(L, 1);
    lua_pushinteger(L, 1);
    assert_false(steer_lua_to_vehicle(L, -1, &id));
    lua_close(L);
}

static void test_remove_vehicle_forgets_its_lua_values(void **state)
{
    (void)state;
    lua_State *L = open_state();
    run(L, "W = steer.world{} V = W:spawn{data = {hp = 1}} WEAK = setmetatable({V.data}, {__mode = 'v'})");
    lua_getglobal(L, "W");
    lua_getglobal(L, "V");
    SteerVehicleId id;
    assert_true(steer_lua_to_vehicle(L, -1, &id));
    lua_pop(L, 1);
    assert_true(steer_lua_remove_vehicle(L, -1, id));
    assert_false(steer_lua_remove_vehicle(L, -1, id));
    run(L, "collectgarbage() collectgarbage() assert(WEAK[1] == nil, 'data kept') assert(not V:alive())");
    assert_int_equal(steer_world_vehicle_count(steer_lua_to_world(L, -1)), 0);
    lua_close(L);
}

static void test_kind_names_are_interned_per_world(void **state)
{
    (void)state;
    lua_State *L = open_state();
    run(L, "W = steer.world{} W:spawn{kind = 'prey'} W:spawn{kind = 'hunter'} W:spawn{kind = 'prey'}");
    lua_getglobal(L, "W");
    const char *prey = steer_lua_kind_name(L, -1, 0);
    assert_string_equal(prey, "prey");
    assert_string_equal(steer_lua_kind_name(L, -1, 1), "hunter");
    assert_null(steer_lua_kind_name(L, -1, 2));
    lua_gc(L, LUA_GCCOLLECT);
    assert_string_equal(prey, "prey"); /* lives as long as the world */
    lua_close(L);
}

static void test_a_held_worlds_gc_refuses_like_close_until_the_host_lets_it_go(void **state)
{
    (void)state;
    lua_State *L = open_state();
    run(L, "W = steer.world{} W:spawn{kind = 'prey'}");
    lua_getglobal(L, "W");
    steer_lua_hold_world(L, -1);
    /* the metatable is protected: a script sees the class's name, not the table */
    run(L, "assert(getmetatable(W) == 'steer.World', tostring(getmetatable(W)))\n"
           "assert(not pcall(setmetatable, W, nil))");
    /* the debug library still reaches the table: its __gc is refused, and the world steps on */
    run(L, "local ok, err = pcall(debug.getmetatable(W).__gc, W)\n"
           "assert(not ok and err:find('__gc: this world belongs to the program', 1, true), err)\n"
           "W:step() assert(W:count() == 1)");
    steer_lua_release_world(L, -1);
    lua_pop(L, 1);
    lua_close(L); /* frees it now: the sanitizer would report the world leaked otherwise */
}

typedef struct HookLog {
    int before, failed;
} HookLog;

static void count_before(void *ctx) { ((HookLog *)ctx)->before++; }

static void count_failed(void *ctx, lua_State *L, int vehicle_idx)
{
    (void)L;
    (void)vehicle_idx;
    ((HookLog *)ctx)->failed++;
}

/* The program steps the core itself (steer_world_step, not w:step) and runs the pass before each
 * step: events reach the handlers through steer_lua_think, with the host's hooks around each call,
 * whatever think_hz is, and steer_lua_has_events tells the host there is a pass to run. */
static void test_think_delivers_events_to_handlers_with_the_hosts_hooks(void **state)
{
    (void)state;
    lua_State *L = open_state();
    run(L, "W = steer.world{think_hz = 0} LOG = {}\n"
           "A = W:spawn{brain = {timer = function(v) LOG[#LOG + 1] = 'a ' .. W.step_count end}}\n"
           "B = W:spawn{brain = {timer = function(v) error('b fails') end}}\n"
           "A:wake_in(2 / 60) B:wake_in(1 / 60)");
    lua_getglobal(L, "W");
    int w = lua_gettop(L);
    SteerWorld *world = steer_lua_to_world(L, w);
    HookLog log = {0, 0};
    SteerLuaThinkHooks hooks = {.ctx = &log, .before = count_before, .failed = count_failed};
    assert_false(steer_lua_has_events(L, w));
    steer_world_step(world); /* B's timer */
    assert_true(steer_lua_has_events(L, w));
    assert_int_equal(steer_lua_think(L, w, &hooks), 1);
    assert_int_equal(log.before, 1);
    assert_int_equal(log.failed, 1);
    assert_false(steer_lua_has_events(L, w));
    assert_int_equal(steer_lua_paused_brains(L, w), 1);
    steer_world_step(world); /* A's timer */
    assert_int_equal(steer_lua_think(L, w, &hooks), 0);
    assert_int_equal(log.before, 2);
    run(L, "assert(#LOG == 1 and LOG[1] == 'a 2', table.concat(LOG, ', '))\n"
           "assert(B.brain_error:find('b fails', 1, true), B.brain_error)");
    assert_int_equal(lua_gettop(L), w);
    lua_close(L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_to_world_finds_the_world_behind_a_handle),
        cmocka_unit_test(test_push_vehicle_gives_the_one_cached_handle),
        cmocka_unit_test(test_remove_vehicle_forgets_its_lua_values),
        cmocka_unit_test(test_kind_names_are_interned_per_world),
        cmocka_unit_test(test_a_held_worlds_gc_refuses_like_close_until_the_host_lets_it_go),
        cmocka_unit_test(test_think_delivers_events_to_handlers_with_the_hosts_hooks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
