/* SPDX-License-Identifier: MIT */
/* script_reload.c - hot reload of one file: re-run the chunk in protected mode (under the time
 * budget and memory cap); on success put the new code in place by the rules of steer.patch
 * (scripts/lib/steer/patch.lua, compiled into the program): the new run's tables are matched with
 * the old ones by where the file keeps them and patched in place, and vehicles whose brain is a
 * function of the file get the new one; keep the world, vehicles, v.data and v.state; call
 * reload(world). Every value the reload overwrites is logged first, so that when the chunk or
 * reload(world) fails the old code is put back exactly and keeps running. */
#include "script_internal.h"

#include <stdio.h>
#include <string.h>

#include <lauxlib.h>

/* scripts/lib/steer/patch.lua as a C string (made by mk/runtime.mk): the same rules as the
 * module's steer.hot, without a file to find at run time. */
static const char PATCH_LUA[] =
#include "patch_lua.h"
    ;

/* Pushes the steer.patch table, loading it on first use (inside a protected call). */
static void push_patch(ScriptHost *host)
{
    lua_State *L = host->L;
    if (host->patch_ref != LUA_NOREF) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, host->patch_ref);
        return;
    }
    if (luaL_loadbufferx(L, PATCH_LUA, sizeof PATCH_LUA - 1, "=steer.patch", "t") != LUA_OK) lua_error(L);
    /* its _ENV: the globals, but the real debug library (a scene's cannot set upvalues) */
    lua_createtable(L, 0, 1);
    script_debug_push_real(host);
    lua_setfield(L, -2, "debug");
    lua_createtable(L, 0, 1);
    lua_pushglobaltable(L);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, -2);
    if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1); /* a main chunk's first upvalue is _ENV */
    lua_call(L, 0, 1);
    lua_pushvalue(L, -1);
    host->patch_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

/* Calls steer.patch's function `name` with the nargs values on the stack, leaving nresults. */
static void call_patch(ScriptHost *host, const char *name, int nargs, int nresults)
{
    lua_State *L = host->L;
    push_patch(host);
    lua_getfield(L, -1, name);
    lua_remove(L, -2);
    lua_insert(L, -nargs - 1);
    lua_call(L, nargs, nresults);
}

/* Pushes the world's vehicles (an array of handles). */
static void push_vehicles(ScriptHost *host)
{
    lua_State *L = host->L;
    script_push_world(host);
    lua_getfield(L, -1, "vehicles");
    lua_insert(L, -2);
    lua_call(L, 1, 1);
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

/* Pushes what a reload never walks into: _G and every loaded module but `own` (NULL: all). */
static void push_others(lua_State *L, const char *own)
{
    lua_newtable(L);
    int list = lua_gettop(L);
    lua_pushglobaltable(L);
    lua_rawseti(L, list, 1);
    lua_Integer n = 1;
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        if (!own || lua_type(L, -2) != LUA_TSTRING || strcmp(lua_tostring(L, -2), own) != 0)
            lua_rawseti(L, list, ++n);
        else
            lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* Protected: chunk at 1, module name at 2 ("" for the scene), file path at 3, undo log at 4. Runs
 * the chunk and puts its result into place, logging what it overwrites; the undo log keeps the
 * patch's own log ("patch"), and what the check for stale brains needs after reload(world)
 * ("report", "before"). */
static int apply(lua_State *L)
{
    ScriptHost *host = lua_touserdata(L, lua_upvalueindex(1));
    const char *name = lua_tostring(L, 2);
    bool scene = name[0] == '\0';
    int undo = 4;
    lua_Debug chunk_info;
    lua_pushvalue(L, 1);
    lua_getinfo(L, ">S", &chunk_info);
    lua_pushstring(L, chunk_info.source);
    int source = lua_gettop(L);
    /* what each vehicle's brain runs before the file runs again */
    push_vehicles(host);
    call_patch(host, "brains", 1, 1);
    lua_setfield(L, undo, "before");
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

    /* The patch's spec: source, globals (the scene), roots, skip, vehicles. */
    lua_newtable(L);
    int spec = lua_gettop(L);
    lua_pushvalue(L, source);
    lua_setfield(L, spec, "source");
    lua_newtable(L); /* roots: {old =, new =} */
    int roots = lua_gettop(L);
    bool replace = false; /* the module's new value takes the old one's place in package.loaded */
    int loaded = 0;
    if (scene) {
        if (!lua_istable(L, fresh) && host->scene_ref != LUA_NOREF) return returned_no_table(L, "the scene", fresh);
        if (lua_istable(L, fresh) && host->scene_ref == LUA_NOREF) {
            lua_pushvalue(L, fresh);
            host->scene_ref = luaL_ref(L, LUA_REGISTRYINDEX);
        } else if (lua_istable(L, fresh)) {
            lua_createtable(L, 0, 2);
            lua_rawgeti(L, LUA_REGISTRYINDEX, host->scene_ref);
            lua_setfield(L, -2, "old");
            lua_pushvalue(L, fresh);
            lua_setfield(L, -2, "new");
            lua_rawseti(L, roots, 1);
        }
        lua_createtable(L, 0, 2);
        lua_pushvalue(L, before);
        lua_setfield(L, -2, "old");
        script_push_env(host);
        lua_setfield(L, -2, "new");
        lua_setfield(L, spec, "globals");
        push_others(L, NULL);
    } else {
        lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
        loaded = lua_gettop(L);
        lua_getfield(L, loaded, name);
        int old = lua_gettop(L);
        if (lua_istable(L, old) && !lua_istable(L, fresh))
            return returned_no_table(L, lua_pushfstring(L, "module '%s'", name), fresh);
        /* two tables: the old one is patched and stays; else the new value replaces the old, as
         * require would (a function module's brains get the new function) */
        replace = !lua_istable(L, old) || !lua_istable(L, fresh);
        lua_createtable(L, 0, 2);
        lua_pushvalue(L, old);
        lua_setfield(L, -2, "old");
        lua_pushvalue(L, fresh);
        lua_setfield(L, -2, "new");
        lua_rawseti(L, roots, 1);
        lua_settop(L, old);
        push_others(L, name);
    }
    lua_setfield(L, spec, "skip");
    lua_pushvalue(L, roots);
    lua_setfield(L, spec, "roots");
    lua_getfield(L, undo, "before");
    lua_setfield(L, spec, "brains");
    lua_pushvalue(L, spec);
    call_patch(host, "apply", 1, 1);
    lua_getfield(L, -1, "undo");
    lua_setfield(L, undo, "patch");
    lua_setfield(L, undo, "report");
    if (replace) {
        lua_getfield(L, loaded, name);
        undo_push(L, undo, loaded, 2, lua_gettop(L));
        lua_pushvalue(L, fresh);
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            lua_pushboolean(L, 1);
        }
        lua_setfield(L, loaded, name);
    }
    return 0;
}

/* Protected: the undo log at 1. Puts back what the patch wrote, then every logged value, newest
 * first. */
static int undo_all(lua_State *L)
{
    ScriptHost *host = lua_touserdata(L, lua_upvalueindex(1));
    if (lua_getfield(L, 1, "patch") == LUA_TTABLE) call_patch(host, "undo", 1, 0);
    lua_settop(L, 1);
    return undo_replay(L);
}

static void replay(ScriptHost *host, int undo)
{
    lua_pushlightuserdata(host->L, host);
    lua_pushcclosure(host->L, undo_all, 1);
    lua_pushvalue(host->L, undo);
    if (lua_pcall(host->L, 1, 0, 0) != LUA_OK) script_report_top(host);
}

/* In protected mode (a brain's __index runs): every vehicle's senses make the events its brain
 * handles (lsenses.c: w:listen_to_brains). */
static int listen_to_brains(lua_State *L)
{
    ScriptHost *host = lua_touserdata(L, lua_upvalueindex(1));
    script_push_world(host);
    lua_getfield(L, -1, "listen_to_brains");
    lua_insert(L, -2);
    lua_call(L, 1, 0);
    return 0;
}

/* Protected: the undo log at 1. After a good reload: host->reload_note says how many vehicles,
 * of which kinds, still run code of the file that the new run does not hold ("" none). */
static int note_stale(lua_State *L)
{
    ScriptHost *host = lua_touserdata(L, lua_upvalueindex(1));
    host->reload_note[0] = '\0';
    if (lua_getfield(L, 1, "report") != LUA_TTABLE) return 0;
    lua_getfield(L, 1, "before");
    call_patch(host, "stale", 2, 2);
    lua_Integer stale = lua_tointeger(L, -2);
    if (stale > 0)
        snprintf(host->reload_note, sizeof host->reload_note,
                 "%lld %s (%s) still %s the old code: %s made by code this save did not run again (set v.brain "
                 "in reload(world), or restart with F5)",
                 (long long)stale, stale == 1 ? "vehicle" : "vehicles", lua_tostring(L, -1),
                 stale == 1 ? "runs" : "run", stale == 1 ? "its brain was" : "their brains were");
    return 0;
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
    host->reload_note[0] = '\0';
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
        if (!ok) {
            replay(host, undo);
        } else {
            lua_pushlightuserdata(L, host);
            lua_pushcclosure(L, note_stale, 1);
            lua_pushvalue(L, undo);
            (void)script_pcall(host, 1, 0); /* (fails only out of memory or time: the reload stands) */
        }
    }
    host->failing_file = NULL;
    lua_settop(L, name - 1);
    if (!ok) return SCRIPT_RELOAD_FAILED;
    if (scene) script_note_world_options(host);
    script_brains_forgive(host); /* brains that failed get another chance */
    /* and senses make the events brains handle now (a save may add or drop a handler) */
    lua_pushlightuserdata(L, host);
    lua_pushcclosure(L, listen_to_brains, 1);
    (void)script_pcall(host, 0, 0); /* (fails only out of memory or time: the reload stands) */
    script_file_loaded(host, path);
    return SCRIPT_RELOAD_OK;
}

const char *script_reload_note(const ScriptHost *host) { return host->reload_note[0] ? host->reload_note : NULL; }

void script_announce_reload(const ScriptHost *host, const char *path)
{
    const char *note = script_reload_note(host);
    if (note)
        fprintf(stderr, "steer: reloaded %s, but %s\n", path, note);
    else
        fprintf(stderr, "steer: reloaded %s\n", path);
}
