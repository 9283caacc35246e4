/* script_reload.c - hot reload of one file: re-run the chunk in protected mode (under the time
 * budget and memory cap); on success copy its new keys into the old module table, recursing into
 * plain tables, so that every reference held by vehicles, brains and other modules sees the new
 * code; keep the world, vehicles, v.data and v.state; call reload(world). On failure nothing of the
 * old module is touched. */
#include "script_internal.h"

#include <string.h>

#include <lauxlib.h>

/* A "plain" table is one without a metatable: a module's sub-table such as M.states.chase. Tables
 * with metatables (classes, objects) are replaced as values, not merged into. */
static bool is_plain_table(lua_State *L, int idx)
{
    if (!lua_istable(L, idx)) return false;
    if (!lua_getmetatable(L, idx)) return true;
    lua_pop(L, 1);
    return false;
}

/* Copies every key of the table at `src` into the table at `dst` (absolute indices). `seen` (an
 * absolute index) maps source tables already merged, so cycles end. Keys the new code no longer
 * has are kept: old data a vehicle might still use stays valid. */
static int merge(lua_State *L)
{
    int dst = 1, src = 2, seen = 3;
    luaL_checkstack(L, 8, "module tables nested too deep");
    lua_pushvalue(L, src);
    if (lua_rawget(L, seen) != LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    lua_pop(L, 1);
    lua_pushvalue(L, src);
    lua_pushboolean(L, 1);
    lua_rawset(L, seen);
    lua_pushnil(L);
    while (lua_next(L, src)) {
        int key = lua_gettop(L) - 1, value = lua_gettop(L);
        lua_pushvalue(L, key);
        lua_rawget(L, dst);
        int old = lua_gettop(L);
        if (is_plain_table(L, value) && is_plain_table(L, old) && !lua_rawequal(L, value, old)) {
            lua_pushcfunction(L, merge);
            lua_pushvalue(L, old);
            lua_pushvalue(L, value);
            lua_pushvalue(L, seen);
            lua_call(L, 3, 0);
        } else {
            lua_pushvalue(L, key);
            lua_pushvalue(L, value);
            lua_rawset(L, dst);
        }
        lua_settop(L, key);
    }
    return 0;
}

/* Protected: chunk at 1, module name at 2 ("" for the scene), file path at 3. Runs the chunk and
 * puts its result into place. */
static int apply(lua_State *L)
{
    ScriptHost *host = lua_touserdata(L, lua_upvalueindex(1));
    const char *name = lua_tostring(L, 2);
    bool scene = name[0] == '\0';
    lua_pushvalue(L, 1);
    if (scene) {
        lua_call(L, 0, 1);
    } else {
        lua_pushvalue(L, 2);
        lua_pushvalue(L, 3);
        lua_call(L, 2, 1);
    }
    int fresh = lua_gettop(L);
    if (scene) {
        if (!lua_istable(L, fresh)) return 0; /* globals: the chunk has already replaced them */
        if (host->scene_ref == LUA_NOREF) {
            lua_pushvalue(L, fresh);
            host->scene_ref = luaL_ref(L, LUA_REGISTRYINDEX);
            return 0;
        }
        lua_rawgeti(L, LUA_REGISTRYINDEX, host->scene_ref);
    } else {
        lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
        lua_getfield(L, -1, name);
        if (!is_plain_table(L, -1) || !lua_istable(L, fresh)) {
            /* Nothing to merge into: the new value takes the old one's place, as require would. */
            lua_pushvalue(L, fresh);
            if (lua_isnil(L, -1)) {
                lua_pop(L, 1);
                lua_pushboolean(L, 1);
            }
            lua_setfield(L, -3, name);
            return 0;
        }
    }
    int old = lua_gettop(L);
    lua_pushcfunction(L, merge);
    lua_pushvalue(L, old);
    lua_pushvalue(L, fresh);
    lua_newtable(L);
    lua_call(L, 3, 0);
    return 0;
}

ScriptReload script_reload_file(ScriptHost *host, const char *path)
{
    lua_State *L = host->L;
    script_files_name_of(host, path);
    if (!lua_isstring(L, -1)) {
        lua_pop(L, 1);
        return SCRIPT_RELOAD_NOT_OURS;
    }
    int name = lua_gettop(L);
    if (script_load_file(host, path) != LUA_OK) {
        script_report_top(host);
        lua_pop(L, 1);
        return SCRIPT_RELOAD_FAILED;
    }
    int chunk = lua_gettop(L);
    lua_pushlightuserdata(L, host);
    lua_pushcclosure(L, apply, 1);
    lua_pushvalue(L, chunk);
    lua_pushvalue(L, name);
    lua_pushstring(L, path);
    bool ok = script_pcall(host, 3, 0);
    lua_settop(L, name - 1);
    if (!ok) return SCRIPT_RELOAD_FAILED;

    /* The new code is in place: failed brains get another chance, the scene hears of it. */
    script_brains_forgive(host);
    int errors = host->error_count;
    if (script_push_callback(host, "reload")) {
        script_push_world(host);
        script_pcall(host, 1, 0);
    }
    if (host->error_count != errors) return SCRIPT_RELOAD_FAILED;
    script_clear_error(host);
    return SCRIPT_RELOAD_OK;
}
