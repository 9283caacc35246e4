/* script_brains.c - calls the vehicles' brains: brain.think(v, dt) at the think rate, staggered so
 * that each physics step runs about 1/k of them (k = physics rate / think rate); and reads what
 * the brains leave behind (v.state, the state history) for overlays and the inspector. */
#include "script_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "steer_lua.h"

static const char FAILED_KEY = 'b'; /* registry[&FAILED_KEY] = { [brain] = true }, weak keys */

/* Brains that raised an error; they stay silent until a module reloads successfully. */
static void push_failed_set(lua_State *L)
{
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &FAILED_KEY) == LUA_TTABLE) return;
    lua_pop(L, 1);
    lua_newtable(L);
    lua_newtable(L);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &FAILED_KEY);
}

void script_brains_forgive(ScriptHost *host)
{
    lua_pushnil(host->L);
    lua_rawsetp(host->L, LUA_REGISTRYINDEX, &FAILED_KEY);
    host->failed_brains = 0;
}

static bool grow(void **array, int *capacity, int needed, size_t item)
{
    if (needed <= *capacity) return true;
    int cap = *capacity ? *capacity : 64;
    while (cap < needed) cap *= 2;
    void *p = realloc(*array, (size_t)cap * item);
    if (!p) return false;
    memset((char *)p + (size_t)*capacity * item, 0, (size_t)(cap - *capacity) * item);
    *array = p;
    *capacity = cap;
    return true;
}

/* Steps between two thoughts of one vehicle. */
static uint64_t think_stride(const ScriptHost *host)
{
    double steps = 1.0 / (steer_world_dt(host->world) * host->config.think_hz);
    return steps < 1.0 ? 1 : (uint64_t)llround(steps);
}

int script_think_pass(lua_State *L)
{
    ScriptHost *host = lua_touserdata(L, lua_upvalueindex(1));
    SteerWorld *world = host->world;
    int count = steer_world_vehicle_count(world);
    if (count == 0) return 0;
    if (!grow((void **)&host->ids, &host->ids_capacity, count, sizeof *host->ids))
        return luaL_error(L, "out of memory");
    count = steer_world_get_vehicles(world, host->ids, host->ids_capacity);
    uint64_t k = think_stride(host);
    uint64_t slot = steer_world_step_count(world) % k;
    double now = steer_world_time(world), period = (double)k * steer_world_dt(world);

    lua_settop(L, 0);
    script_push_world(host);                                /* 1 */
    push_failed_set(L);                                     /* 2 */
    lua_rawgeti(L, LUA_REGISTRYINDEX, host->traceback_ref); /* 3 */
    for (int i = 0; i < count; i++) {
        SteerVehicleId id = host->ids[i];
        if (id.index1 % k != slot) continue;
        if (!grow((void **)&host->clocks, &host->clocks_capacity, (int)id.index1 + 1, sizeof *host->clocks))
            return luaL_error(L, "out of memory");
        ThinkClock *clock = &host->clocks[id.index1];
        if (!clock->seen || clock->generation != id.generation) {
            clock->seen = true;
            clock->generation = id.generation;
            clock->last = now - period;
        }
        steer_lua_push_vehicle(L, 1, id); /* 4: v */
        if (lua_isnil(L, 4)) {
            lua_settop(L, 3);
            continue;
        }
        lua_getfield(L, 4, "brain"); /* 5: brain */
        if (!lua_istable(L, 5)) {
            lua_settop(L, 3);
            continue;
        }
        bool failed = false;
        if (host->failed_brains > 0) { /* (most frames nobody has failed: skip the lookup) */
            lua_pushvalue(L, 5);
            failed = lua_rawget(L, 2) != LUA_TNIL;
            lua_pop(L, 1);
        }
        if (failed) {
            lua_settop(L, 3);
            continue;
        }
        lua_getfield(L, 5, "think"); /* 6: think */
        if (!lua_isfunction(L, 6)) {
            lua_settop(L, 3);
            continue;
        }
        double dt = now - clock->last;
        clock->last = now;
        lua_pushvalue(L, 4);
        lua_pushnumber(L, dt);
        guard_mark_call(&host->guard);
        if (lua_pcall(L, 2, 0, 3) != LUA_OK) {
            if (host->guard.expired) {
                const char *msg = lua_tostring(L, -1);
                const char *tb = strstr(msg ? msg : "", "\nstack traceback:");
                lua_pushfstring(L, "%s%s", host->guard.message, tb ? tb : "");
                lua_remove(L, -2);
                guard_recover(&host->guard);
            }
            script_report_top(host);
            lua_pushvalue(L, 5);
            lua_pushboolean(L, 1);
            lua_rawset(L, 2);
            host->failed_brains++;
        }
        lua_settop(L, 3);
    }
    return 0;
}

/* Reads v.<field> of vehicle id in protected mode: pushes it (or nil). */
static int read_field(lua_State *L)
{
    ScriptHost *host = lua_touserdata(L, 1);
    SteerVehicleId *id = lua_touserdata(L, 2);
    const char *field = lua_tostring(L, 3);
    script_push_world(host);
    steer_lua_push_vehicle(L, -1, *id);
    if (lua_isnil(L, -1)) return 1;
    lua_getfield(L, -1, field);
    return 1;
}

static bool push_field(ScriptHost *host, SteerVehicleId id, const char *field)
{
    lua_State *L = host->L;
    lua_pushcfunction(L, read_field);
    lua_pushlightuserdata(L, host);
    lua_pushlightuserdata(L, &id);
    lua_pushstring(L, field);
    if (lua_pcall(L, 3, 1, 0) != LUA_OK) {
        lua_pop(L, 1);
        return false;
    }
    return true;
}

const char *script_vehicle_state(ScriptHost *host, SteerVehicleId id)
{
    if (!push_field(host, id, "state")) return NULL;
    const char *s = lua_type(host->L, -1) == LUA_TSTRING ? lua_tostring(host->L, -1) : NULL;
    if (s) snprintf(host->label, sizeof host->label, "%s", s);
    lua_pop(host->L, 1);
    return s ? host->label : NULL;
}

static void add_line(ScriptHost *host, const char *fmt, const char *a)
{
    if (host->inspector_count >= (int)(sizeof host->inspector / sizeof host->inspector[0])) return;
    char buf[256];
    snprintf(buf, sizeof buf, fmt, a);
    char *copy = strdup(buf);
    if (copy) host->inspector[host->inspector_count++] = copy;
}

int script_inspector_lines(ScriptHost *host, SteerVehicleId id, const char ***lines)
{
    lua_State *L = host->L;
    for (int i = 0; i < host->inspector_count; i++) free(host->inspector[i]);
    host->inspector_count = 0;
    *lines = (const char **)host->inspector;
    SteerVehicleState st;
    if (steer_vehicle_get(host->world, id, &st) != STEER_OK) return 0;
    script_push_world(host);
    const char *kind = steer_lua_kind_name(L, lua_gettop(L), st.kind);
    lua_pop(L, 1);
    add_line(host, "kind: %s", kind ? kind : "?");
    const char *state = script_vehicle_state(host, id);
    add_line(host, "state: %s", state ? state : "(none)");
    /* The fsm library keeps the last few state names in v.data.history (oldest first). */
    int top = lua_gettop(L);
    if (push_field(host, id, "data")) {
        if (lua_istable(L, -1) && lua_getfield(L, -1, "history") == LUA_TTABLE) {
            char buf[200] = "";
            size_t len = 0;
            lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
            for (lua_Integer i = n > 5 ? n - 4 : 1; i <= n; i++) {
                lua_rawgeti(L, -1, i);
                const char *s = lua_tostring(L, -1);
                if (s && len < sizeof buf)
                    len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", len ? " > " : "", s);
                lua_pop(L, 1);
            }
            add_line(host, "history: %s", buf);
        }
    }
    lua_settop(L, top);
    return host->inspector_count;
}
