/* SPDX-License-Identifier: MIT */
/* test_alloc_failure_lua.c - every allocation a binding call makes can fail: the Lua state's own
 * (handles, option tables, strings, the brains' arrays) and the core's, which a world gets from the
 * same lua_Alloc. Each call of a scenario runs with the Nth allocation from then on refused, for
 * N = 1, 2, ... until it gets all it asks for; each failure must be a memory error (LUA_ERRMEM, or
 * an error saying memory ran out where the core refused), with the world as it was before the
 * call; the world must then step and answer queries, and a twin world that got the same calls
 * without failures must read the same. Refusing every allocation from the Nth on, not only the
 * Nth, is what Lua's test suite does: Lua retries a failed allocation after a full collection.
 * w:think() runs brains, which are scripts: a pass cut short by memory has run some of them, so it
 * is tested on its own (each vehicle then thinks on or is paused with the memory error). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <lauxlib.h>
#include <lualib.h>

#include "steer_lua.h"

typedef struct Failing {
    long fail_from; ///< growths counted since arming; this one and every later one fail (0: none)
    long growths;
    bool failed;
} Failing;

static void *failing_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    Failing *f = ud;
    if (nsize == 0) {
        free(ptr);
        return NULL;
    }
    if (nsize > (ptr ? osize : 0) && f->fail_from > 0 && ++f->growths >= f->fail_from) {
        f->failed = true;
        return NULL;
    }
    return realloc(ptr, nsize);
}

/* The scenario. Each op(w, twin_index) is one call (or a few that belong together) on world w;
 * vehicles are found by position in V[w] so that both worlds get the same calls. snapshot(w) reads
 * everything a script can see of the world; usable(w) steps it and queries it. */
static const char *const SCENARIO =
    "local steer = require 'steer'\n"
    "W = {steer.world{width = 800, height = 600, edges = 'wrap', seed = 3},\n"
    "     steer.world{width = 800, height = 600, edges = 'wrap', seed = 3}}\n"
    /* Filled in advance: storing what a call returned must not allocate (a failure there would be
     * the script's own half-done change, not the binding's). */
    "V, S = {{}, {}}, {{}, {}}\n"
    "for k = 1, 2 do\n"
    "  for i = 1, 60 do V[k][i] = false end\n"
    "  S[k].o, S[k].o2, S[k].wall, S[k].path, S[k].field = false, false, false, false, false\n"
    "end\n"
    "local function brain(v, dt) if v.data.n then v.data.n = v.data.n + 1 end end\n"
    "local function fmt(x) return string.format('%.17g', x) end\n"
    "function snapshot(k)\n"
    "  local w, out = W[k], {}\n"
    "  out[#out + 1] = fmt(w.time) .. ' ' .. w:count() .. ' ' .. #w:obstacles() .. ' ' .. #w:walls()\n"
    "  for _, v in ipairs(w:vehicles()) do\n"
    "    local b = v:behaviours()\n"
    "    local names = {}\n"
    "    for name in pairs(b) do names[#names + 1] = name end\n"
    "    table.sort(names)\n"
    "    local data = {}\n"
    "    for key, value in pairs(v.data) do data[#data + 1] = tostring(key) .. '=' .. tostring(value) end\n"
    "    table.sort(data)\n"
    "    out[#out + 1] = table.concat({v.id, v.kind, fmt(v.x), fmt(v.y), fmt(v.vx), fmt(v.vy), v.combine,\n"
    "      fmt(v.max_speed), tostring(v.state), tostring(v.brain ~= nil), table.concat(names, ','),\n"
    "      table.concat(data, ',')}, ' ')\n"
    "  end\n"
    "  for i, kind in ipairs(w:kinds()) do out[#out + 1] = i .. kind end\n"
    "  return table.concat(out, '\\n')\n"
    "end\n"
    "function usable(k)\n"
    "  local w = W[k]\n"
    "  w:think() w:step()\n"
    "  local v = w:vehicles()[1]\n"
    "  if v then w:closest(v, 'prey', 1000) w:neighbors(v, 200) end\n"
    "  return w:count()\n"
    "end\n"
    /* Each op is one call into the module (its arguments are made first: a failure there changes
     * nothing either). */
    "local kinds = {'prey', 'hunter', 'guard'}\n"
    "OPS = {}\n"
    "local function op(f) OPS[#OPS + 1] = f end\n"
    "for i = 1, 40 do\n"
    "  op(function(k)\n"
    "    V[k][i] = W[k]:spawn{kind = kinds[i % 3 + 1], x = 17 * i, y = 11 * i % 600, max_speed = 80 + i,\n"
    "                         color = {i, 2 * i, 3 * i}, data = {n = i}}\n"
    "  end)\n"
    "end\n"
    "op(function(k) S[k].o = W[k]:obstacle{x = 300, y = 200, radius = 30} end)\n"
    "op(function(k) S[k].o2 = W[k]:obstacle{x = 500, y = 400, r = 20} end)\n"
    "op(function(k) S[k].wall = W[k]:wall{x1 = 100, y1 = 500, x2 = 400, y2 = 520} end)\n"
    "op(function(k) S[k].path = W[k]:path{{100, 100}, {300, 120}, {500, 400}, {200, 300}, loop = true} end)\n"
    "local VEC = {}\n"
    "for i = 1, 48 do VEC[i] = {1, i % 3 - 1} end\n"
    "op(function(k) S[k].field = W[k]:flow_field{x = 0, y = 0, cell_size = 100, cols = 8, rows = 6, vectors = VEC} "
    "end)\n"
    "local calls = {\n"
    "  function(v, o, k) v:wander{radius = 30, distance = 60, jitter = 80} end,\n"
    "  function(v, o, k) v:contain{margin = 40} end,\n"
    "  function(v, o, k) v:arrive(400, 300, {slowing_radius = 30, weight = 2}) end,\n"
    "  function(v, o, k) v:pursue(o, {weight = 2}) end,\n"
    "  function(v, o, k) v:avoid_obstacles{} end,\n"
    "  function(v, o, k) v:evade(o, {threat_range = 150}) end,\n"
    "  function(v, o, k) v:avoid_walls{} end,\n"
    "  function(v, o, k) v:follow(S[k].path) end,\n"
    "  function(v, o, k) v:separate{} end,\n"
    "  function(v, o, k) v:flock{} end,\n"
    "  function(v, o, k) v:follow_flow(S[k].field) end,\n"
    "  function(v, o, k) v:queue{} end,\n"
    "  function(v, o, k) v:interpose(o, V[k][1]) end,\n"
    "  function(v, o, k) v:hide(o) end,\n"
    "  function(v, o, k) v:avoid_collisions{} end,\n"
    "  function(v, o, k) v:seek(o) end,\n"
    "}\n"
    "for i = 1, 40 do\n"
    "  for j = 0, 1 do\n"
    "    local call = calls[(2 * i + j) % #calls + 1]\n"
    "    op(function(k) call(V[k][i], V[k][i % 40 + 1], k) end)\n"
    "  end\n"
    "end\n"
    "for i = 1, 40, 4 do\n"
    "  op(function(k) V[k][i].brain = brain end)\n"
    "  op(function(k) V[k][i].state = 'state' .. i end)\n"
    "  op(function(k) V[k][i].data.tag = 'tag' .. i end)\n"
    "  op(function(k) V[k][i].combine = 'priority' end)\n"
    "  op(function(k) V[k][i].max_speed = 120 end)\n"
    "  op(function(k) V[k][i].flock_with = {'prey', 'fresh' .. i, 'new' .. i} end)\n"
    "end\n"
    "op(function(k) W[k]:step() end)\n"
    "for i = 1, 40, 5 do\n"
    "  op(function(k) return tostring(V[k][i]) end)\n"
    "  op(function(k) return W[k]:closest(V[k][i], 'prey', 300) end)\n"
    "  op(function(k) return W[k]:neighbors(V[k][i], 150, 'hunter') end)\n"
    "  op(function(k) return W[k]:vehicles('guard') end)\n"
    "  op(function(k) return V[k][i]:behaviours() end)\n"
    "  op(function(k) return V[k][i]:forces() end)\n"
    "end\n"
    "for i = 2, 40, 6 do op(function(k) W[k]:remove(V[k][i]) end) end\n"
    "op(function(k) V[k][3]:stop('wander') end)\n"
    "op(function(k) V[k][9]:stop() end)\n"
    "op(function(k) S[k].o:remove() end)\n"
    "op(function(k) W[k]:remove(S[k].wall) end)\n"
    "for i = 41, 60 do\n"
    "  op(function(k) V[k][i] = W[k]:spawn{kind = 'k' .. i % 5, x = 7 * i, y = 5 * i, data = {n = i}} end)\n"
    "end\n"
    "for i = 1, 5 do op(function(k) W[k]:step() end) end\n";

static void check(lua_State *L, int status, const char *what)
{
    if (status != LUA_OK) fail_msg("%s: %s", what, lua_tostring(L, -1));
}

/// Calls global function `name`(k), unarmed, returning its first result as a string (or NULL).
static char *call_global(lua_State *L, const char *name, int k)
{
    lua_getglobal(L, name);
    lua_pushinteger(L, k);
    check(L, lua_pcall(L, 1, 1, 0), name);
    const char *s = lua_tostring(L, -1);
    char *copy = s ? strdup(s) : NULL;
    lua_pop(L, 1);
    return copy;
}

/// Whether the error on the stack top is a memory error: Lua's own, or one the bindings raised
/// when the core refused (its message says so).
static bool is_memory_error(lua_State *L, int status)
{
    if (status == LUA_ERRMEM) return true;
    const char *msg = lua_tostring(L, -1);
    return msg && (strstr(msg, "not enough memory") || strstr(msg, "out of memory"));
}

static void test_every_allocation_of_the_bindings_can_fail(void **state)
{
    (void)state;
    Failing f = {0};
    lua_State *L = lua_newstate(failing_alloc, &f);
    assert_non_null(L);
    luaL_openlibs(L);
    luaL_requiref(L, "steer", luaopen_steer, 0);
    lua_pop(L, 1);
    check(L, luaL_dostring(L, SCENARIO), "scenario");

    lua_getglobal(L, "OPS");
    int ops = (int)luaL_len(L, -1);
    lua_pop(L, 1);
    long failures = 0;
    for (int i = 1; i <= ops; i++) {
        for (long n = 1;; n++) {
            char *before = call_global(L, "snapshot", 1);
            lua_getglobal(L, "OPS");
            lua_rawgeti(L, -1, i);
            lua_remove(L, -2);
            lua_pushinteger(L, 1);
            f.fail_from = n;
            f.growths = 0;
            f.failed = false;
            int status = lua_pcall(L, 1, 0, 0);
            bool failed = f.failed;
            f.fail_from = 0;
            if (status == LUA_OK) {
                free(before);
                break;
            }
            if (!failed || !is_memory_error(L, status))
                fail_msg("op %d with allocation %ld failing: %s (status %d)", i, n, lua_tostring(L, -1), status);
            lua_pop(L, 1);
            failures++;
            char *after = call_global(L, "snapshot", 1);
            if (strcmp(before, after) != 0)
                fail_msg("op %d: allocation %ld failed and the world changed:\n--- before\n%s\n--- after\n%s", i, n,
                         before, after);
            free(before);
            free(after);
            /* Usable, and still the twin of the world that never failed. */
            free(call_global(L, "usable", 1));
            free(call_global(L, "usable", 2));
            char *a = call_global(L, "snapshot", 1), *b = call_global(L, "snapshot", 2);
            if (strcmp(a, b) != 0)
                fail_msg("op %d: after allocation %ld failed the twins differ:\n--- failing\n%s\n--- twin\n%s", i, n, a,
                         b);
            free(a);
            free(b);
        }
        lua_getglobal(L, "OPS");
        lua_rawgeti(L, -1, i);
        lua_remove(L, -2);
        lua_pushinteger(L, 2);
        check(L, lua_pcall(L, 1, 0, 0), "the twin's op");
        char *a = call_global(L, "snapshot", 1), *b = call_global(L, "snapshot", 2);
        if (strcmp(a, b) != 0) fail_msg("op %d: the twins differ:\n--- failing\n%s\n--- twin\n%s", i, a, b);
        free(a);
        free(b);
    }
    assert_true(failures > 200);
    lua_close(L);
}

/// steer.world itself: each allocation of making one fails in turn, then one is made.
static void test_making_a_world_can_fail_at_every_allocation(void **state)
{
    (void)state;
    Failing f = {0};
    lua_State *L = lua_newstate(failing_alloc, &f);
    luaL_openlibs(L);
    luaL_requiref(L, "steer", luaopen_steer, 1);
    lua_pop(L, 1);
    check(L,
          luaL_loadstring(L, "local w = steer.world{width = 100, height = 100, think_hz = 5}\n"
                             "w:spawn{x = 1, y = 2}:seek(5, 5)\n"
                             "w:step()\n"
                             "return w:count()"),
          "load");
    for (long n = 1;; n++) {
        lua_pushvalue(L, -1);
        f.fail_from = n;
        f.growths = 0;
        f.failed = false;
        int status = lua_pcall(L, 0, 1, 0);
        bool failed = f.failed;
        f.fail_from = 0;
        if (status == LUA_OK) {
            assert_int_equal(lua_tointeger(L, -1), 1);
            lua_pop(L, 1);
            break;
        }
        if (!failed || !is_memory_error(L, status)) fail_msg("allocation %ld: %s", n, lua_tostring(L, -1));
        lua_pop(L, 1);
        lua_gc(L, LUA_GCCOLLECT); /* worlds made half way are collected, and freed (ASan checks) */
    }
    lua_close(L);
}

/// w:think() with the Nth allocation on failing: a memory error or a brain paused with it; the
/// world then thinks and steps, and every brain that is not paused thinks again.
static void test_a_think_that_runs_out_of_memory_leaves_the_world_usable(void **state)
{
    (void)state;
    for (long n = 1; n < 400; n++) {
        Failing f = {0};
        lua_State *L = lua_newstate(failing_alloc, &f);
        luaL_openlibs(L);
        luaL_requiref(L, "steer", luaopen_steer, 1);
        lua_pop(L, 1);
        check(L,
              luaL_dostring(L, "W = steer.world{width = 400, height = 400, think_hz = 60}\n"
                               "local function brain(v) v.data.n = v.data.n + 1; v:seek(v.data.n, 5) end\n"
                               "for i = 1, 30 do W:spawn{x = 10 * i, y = 7 * i, brain = brain, data = {n = 0}} end\n"),
              "setup");
        lua_getglobal(L, "W");
        lua_getfield(L, -1, "think");
        lua_insert(L, -2);
        f.fail_from = n;
        f.growths = 0;
        f.failed = false;
        int status = lua_pcall(L, 1, 0, 0);
        bool failed = f.failed;
        f.fail_from = 0;
        if (status != LUA_OK && !is_memory_error(L, status)) fail_msg("allocation %ld: %s", n, lua_tostring(L, -1));
        lua_settop(L, 0);
        check(L,
              luaL_dostring(L, "local before = {}\n"
                               "for i, v in ipairs(W:vehicles()) do before[i] = v.data.n end\n"
                               "W:think() W:step()\n"
                               "for i, v in ipairs(W:vehicles()) do\n"
                               "  local e = v.brain_error\n"
                               "  if e then assert(e:find('memory'), e) assert(v.data.n == before[i])\n"
                               "  else assert(v.data.n == before[i] + 1, 'vehicle ' .. i .. ' did not think') end\n"
                               "end\n"
                               "W:resume_brains() W:think() W:step()\n"
                               "for _, v in ipairs(W:vehicles()) do assert(not v.brain_error) end"),
              "after");
        lua_close(L);
        if (!failed) break;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_allocation_of_the_bindings_can_fail),
        cmocka_unit_test(test_making_a_world_can_fail_at_every_allocation),
        cmocka_unit_test(test_a_think_that_runs_out_of_memory_leaves_the_world_usable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
