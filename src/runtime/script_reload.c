/* script_reload.c - hot reload of one file: re-run the chunk in protected mode (under the time
 * budget and memory cap); on success copy its new keys into the old module table, recursing into
 * plain tables, so that every reference held by vehicles, brains and other modules sees the new
 * code; keep the world, vehicles, v.data and v.state; call reload(world). Every value the reload
 * overwrites is written to an undo log first, so that when the chunk or reload(world) fails the
 * old code is put back exactly and keeps running. */
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

/* The undo log (a table at `undo`) holds triples t, k, old value at 1.., with its length in
 * field "n" (old values may be nil). */
static void undo_push(lua_State *L, int undo, int t, int k, int old)
{
    lua_getfield(L, undo, "n");
    lua_Integer n = lua_tointeger(L, -1);
    lua_pop(L, 1);
    lua_pushvalue(L, t);
    lua_rawseti(L, undo, n + 1);
    lua_pushvalue(L, k);
    lua_rawseti(L, undo, n + 2);
    lua_pushvalue(L, old);
    lua_rawseti(L, undo, n + 3);
    lua_pushinteger(L, n + 3);
    lua_setfield(L, undo, "n");
}

/* Puts every logged value back, newest first. The log is at 1. */
static int undo_replay(lua_State *L)
{
    lua_getfield(L, 1, "n");
    lua_Integer n = lua_tointeger(L, -1);
    lua_pop(L, 1);
    for (lua_Integer i = n - 2; i >= 1; i -= 3) {
        lua_rawgeti(L, 1, i);
        lua_rawgeti(L, 1, i + 1);
        lua_rawgeti(L, 1, i + 2);
        lua_rawset(L, -3);
        lua_pop(L, 1);
    }
    return 0;
}

/* Copies every key of the table at `src` into the table at `dst` (absolute indices). `seen` (an
 * absolute index) maps source tables already merged, so cycles end. Keys the new code no longer
 * has are kept: old data a vehicle might still use stays valid. */
static int merge(lua_State *L)
{
    int dst = 1, src = 2, seen = 3, undo = 4;
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
            lua_pushvalue(L, undo);
            lua_call(L, 4, 0);
        } else {
            undo_push(L, undo, dst, key, old);
            lua_pushvalue(L, key);
            lua_pushvalue(L, value);
            lua_rawset(L, dst);
        }
        lua_settop(L, key);
    }
    return 0;
}

/* Logs every global the scene chunk changed in its environment (compared with the copy `before`)
 * into the undo log. */
static void log_global_changes(ScriptHost *host, int before, int undo)
{
    lua_State *L = host->L;
    script_push_env(host);
    int g = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, g)) { /* changed or new */
        lua_pushvalue(L, -2);
        lua_rawget(L, before);
        if (!lua_rawequal(L, -1, -2)) undo_push(L, undo, g, lua_gettop(L) - 2, lua_gettop(L));
        lua_pop(L, 2);
    }
    lua_pushnil(L);
    while (lua_next(L, before)) { /* deleted */
        lua_pushvalue(L, -2);
        if (lua_rawget(L, g) == LUA_TNIL) undo_push(L, undo, g, lua_gettop(L) - 2, lua_gettop(L) - 1);
        lua_pop(L, 2);
    }
    lua_pop(L, 1);
}

/* A file that returned its table before and now returns something else (a save without its
 * `return M`, or one made mid-edit) would leave every reference to the old table with the old
 * code, and every later save merging into a table nobody holds: refuse it, keeping the old code. */
static int returned_no_table(lua_State *L, const char *what, int fresh)
{
    return luaL_error(L,
                      "%s returned %s instead of its table: the old code keeps running (does the file end with "
                      "`return M`?)",
                      what, luaL_typename(L, fresh));
}

/* Protected: chunk at 1, module name at 2 ("" for the scene), file path at 3, undo log at 4. Runs
 * the chunk and puts its result into place, logging what it overwrites. */
static int apply(lua_State *L)
{
    ScriptHost *host = lua_touserdata(L, lua_upvalueindex(1));
    const char *name = lua_tostring(L, 2);
    bool scene = name[0] == '\0';
    int undo = 4;
    int before = 0;
    if (scene) { /* a scene of globals changes its environment as it runs: remember it for the undo */
        lua_newtable(L);
        before = lua_gettop(L);
        script_push_env(host);
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, before);
        }
        lua_pop(L, 1);
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, host->traceback_ref);
    int handler = lua_gettop(L);
    lua_pushvalue(L, 1);
    int nargs = 0;
    if (!scene) {
        lua_pushvalue(L, 2);
        lua_pushvalue(L, 3);
        nargs = 2;
    }
    int status = lua_pcall(L, nargs, 1, handler);
    if (scene) log_global_changes(host, before, undo);
    if (status != LUA_OK) return lua_error(L); /* the caller replays the log */
    int fresh = lua_gettop(L);
    if (scene) {
        if (!lua_istable(L, fresh) && host->scene_ref != LUA_NOREF) return returned_no_table(L, "the scene", fresh);
        if (!lua_istable(L, fresh)) return 0; /* globals: the chunk has already replaced them */
        if (host->scene_ref == LUA_NOREF) {
            lua_pushvalue(L, fresh);
            host->scene_ref = luaL_ref(L, LUA_REGISTRYINDEX);
            return 0;
        }
        lua_rawgeti(L, LUA_REGISTRYINDEX, host->scene_ref);
    } else {
        lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
        int loaded = lua_gettop(L);
        lua_getfield(L, loaded, name);
        if (is_plain_table(L, -1) && !lua_istable(L, fresh))
            return returned_no_table(L, lua_pushfstring(L, "module '%s'", name), fresh);
        if (!is_plain_table(L, -1) || !lua_istable(L, fresh)) {
            /* Nothing to merge into: the new value takes the old one's place, as require would. */
            undo_push(L, undo, loaded, 2, lua_gettop(L));
            lua_pushvalue(L, fresh);
            if (lua_isnil(L, -1)) {
                lua_pop(L, 1);
                lua_pushboolean(L, 1);
            }
            lua_setfield(L, loaded, name);
            return 0;
        }
    }
    int old = lua_gettop(L);
    lua_pushcfunction(L, merge);
    lua_pushvalue(L, old);
    lua_pushvalue(L, fresh);
    lua_newtable(L);
    lua_pushvalue(L, undo);
    lua_call(L, 4, 0);
    return 0;
}

static void replay(ScriptHost *host, int undo)
{
    lua_pushcfunction(host->L, undo_replay);
    lua_pushvalue(host->L, undo);
    if (lua_pcall(host->L, 1, 0, 0) != LUA_OK) script_report_top(host);
}

ScriptReload script_reload_file(ScriptHost *host, const char *path)
{
    lua_State *L = host->L;
    if (host->failed) return SCRIPT_RELOAD_NOT_OURS; /* a scene that never loaded is restarted instead */
    script_files_name_of(host, path);
    if (!lua_isstring(L, -1)) {
        lua_pop(L, 1);
        return SCRIPT_RELOAD_NOT_OURS;
    }
    int name = lua_gettop(L);
    /* Whatever fails from here on (the chunk, reload(world)) is this file failing to load: the
     * panel keeps it until the file loads cleanly. */
    char file[4096];
    script_files_chunk_name(host, path, file, sizeof file);
    host->failing_file = file;
    bool ok = false;
    /* The scene runs again in the same environment, so its globals carry over. */
    bool scene = lua_tostring(L, name)[0] == '\0';
    host->loading_module = lua_tostring(L, name);
    if ((scene ? script_load_scene(host, path) : script_load_file(host, path)) != LUA_OK) {
        script_report_top(host);
    } else {
        int chunk = lua_gettop(L);
        lua_newtable(L);
        int undo = lua_gettop(L);
        lua_pushlightuserdata(L, host);
        lua_pushcclosure(L, apply, 1);
        lua_pushvalue(L, chunk);
        lua_pushvalue(L, name);
        lua_pushstring(L, path);
        lua_pushvalue(L, undo);
        ok = script_pcall(host, 4, 0);
        if (ok) {
            /* The new code is in place: the scene hears of it; if reload(world) fails, it goes.
             * The scene's keys are read again (a save may change them); wrong ones fail it too. */
            script_push_world(host);
            ok = script_callback(host, "reload", 1) && script_read_keys(host);
        }
        if (!ok) replay(host, undo);
    }
    host->failing_file = NULL;
    lua_settop(L, name - 1);
    if (!ok) return SCRIPT_RELOAD_FAILED;
    if (scene) script_note_world_options(host);
    script_brains_forgive(host); /* brains that failed get another chance */
    script_file_loaded(host, path);
    return SCRIPT_RELOAD_OK;
}
