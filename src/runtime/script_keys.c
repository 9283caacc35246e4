/* SPDX-License-Identifier: MIT */
/* script_keys.c - the keys a scene declares for the help overlay (F1): its `keys` table, a list of
 * {key, text} pairs, found like its `world` (a field of the table the scene returned, else the
 * scene's own global; never one of Lua's globals), read after load(world) and after each good
 * reload, and kept as C strings for the help overlay to show between frames. */
#include "script_internal.h"

#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#define KEYS_FORM "a list of {key, text} pairs: keys = { {\"h\", \"one more hunter\"}, ... }"

/* Protected: pushes the scene's `keys` (nil when it has none) after checking its shape with raw
 * reads only, so that what the caller then copies (raw) is what was checked. */
static int check_keys(lua_State *L)
{
    ScriptHost *host = lua_touserdata(L, lua_upvalueindex(1));
    lua_settop(L, 0);
    if (host->scene_ref != LUA_NOREF) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, host->scene_ref);
        lua_getfield(L, 1, "keys"); /* the scene table's field, like its callbacks */
        lua_remove(L, 1);
    } else {
        lua_pushnil(L);
    }
    if (lua_isnil(L, 1)) {
        lua_pop(L, 1);
        script_push_env(host);
        lua_pushliteral(L, "keys");
        lua_rawget(L, -2); /* the scene's own global only */
        lua_remove(L, -2);
    }
    if (lua_isnil(L, 1)) return 1;
    if (!lua_istable(L, 1))
        return luaL_error(L, "%s: 'keys' must be " KEYS_FORM ", got %s", script_scene_name(host), luaL_typename(L, 1));
    lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
    lua_pushnil(L);
    while (lua_next(L, 1)) { /* nothing but 1..n: a map ({space = "..."}) is the wrong form */
        lua_pop(L, 1);
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > n) {
            if (lua_type(L, -1) == LUA_TSTRING)
                return luaL_error(L, "%s: 'keys' must be " KEYS_FORM ", got a field '%s'", script_scene_name(host),
                                  lua_tostring(L, -1));
            return luaL_error(L, "%s: 'keys' must be " KEYS_FORM ", got a %s key", script_scene_name(host),
                              luaL_typename(L, -1));
        }
    }
    if (n > SCRIPT_MAX_SCENE_KEYS)
        return luaL_error(L, "%s: 'keys' lists %d keys, the help shows at most %d", script_scene_name(host), (int)n,
                          SCRIPT_MAX_SCENE_KEYS);
    for (lua_Integer i = 1; i <= n; i++) {
        int entry = lua_gettop(L) + 1;
        lua_rawgeti(L, 1, i);
        if (!lua_istable(L, entry))
            return luaL_error(L, "%s: keys[%d] must be a {key, text} pair of strings, got %s", script_scene_name(host),
                              (int)i, luaL_typename(L, entry));
        lua_rawgeti(L, entry, 1);
        lua_rawgeti(L, entry, 2);
        if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TSTRING)
            return luaL_error(L, "%s: keys[%d] must be a {key, text} pair of strings, got {%s, %s}",
                              script_scene_name(host), (int)i, luaL_typename(L, -2), luaL_typename(L, -1));
        lua_settop(L, 1);
    }
    return 1;
}

static void free_keys(ScriptKey *keys, int count)
{
    for (int i = 0; i < count; i++) {
        free(keys[i].key);
        free(keys[i].text);
    }
    free(keys);
}

static char *copy_field(lua_State *L, int table, int i)
{
    lua_rawgeti(L, table, i);
    char *s = strdup(lua_tostring(L, -1));
    lua_pop(L, 1);
    return s;
}

bool script_read_keys(ScriptHost *host)
{
    lua_State *L = host->L;
    lua_pushlightuserdata(L, host);
    lua_pushcclosure(L, check_keys, 1);
    if (!script_pcall(host, 0, 1)) return false;
    int t = lua_gettop(L);
    int n = lua_istable(L, t) ? (int)lua_rawlen(L, t) : 0;
    ScriptKey *keys = n > 0 ? calloc((size_t)n, sizeof *keys) : NULL;
    bool ok = n == 0 || keys != NULL;
    for (int i = 0; ok && i < n; i++) {
        lua_rawgeti(L, t, i + 1);
        keys[i].key = copy_field(L, -1, 1);
        keys[i].text = copy_field(L, -1, 2);
        lua_pop(L, 1);
        ok = keys[i].key && keys[i].text;
    }
    lua_settop(L, t - 1);
    if (!ok) {
        free_keys(keys, n);
        script_report_error(host, "scene: not enough memory for its keys");
        return false;
    }
    free_keys(host->keys, host->key_count);
    host->keys = keys;
    host->key_count = n;
    return true;
}

const ScriptKey *script_scene_keys(ScriptHost *host, int *count)
{
    *count = host->key_count;
    return host->keys;
}

void script_keys_free(ScriptHost *host)
{
    free_keys(host->keys, host->key_count);
    host->keys = NULL;
    host->key_count = 0;
}
