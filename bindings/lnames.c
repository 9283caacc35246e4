/* SPDX-License-Identifier: MIT */
/* lnames.c - the names scripts use for the core's small enums (edges, leash, combine): one array
 * each, indexed by the enum's value, read by the parsers, by tostring and field reads, and by the
 * messages that list them. */
#include <string.h>

#include "lsteer_internal.h"

static const char *const EDGES[] = {"none", "wrap", "contain"};
static const int EDGES_LISTED[] = {STEER_EDGES_WRAP, STEER_EDGES_CONTAIN, STEER_EDGES_NONE};
const LNames LSTEER_EDGES_NAMES = {EDGES, 3, EDGES_LISTED};

static const char *const LEASH[] = {"none", "pull", "roam"};
const LNames LSTEER_LEASH_NAMES = {LEASH, 3, NULL};

static const char *const COMBINE[] = {"weighted", "priority", "dither"};
const LNames LSTEER_COMBINE_NAMES = {COMBINE, 3, NULL};

int lsteer_names_find(lua_State *L, int idx, const LNames *names)
{
    if (lua_type(L, idx) != LUA_TSTRING) return -1;
    const char *s = lua_tostring(L, idx);
    for (int i = 0; i < names->count; i++)
        if (strcmp(s, names->names[i]) == 0) return i;
    return -1;
}

const char *lsteer_names_expected(lua_State *L, int idx, const LNames *names)
{
    idx = lua_absindex(L, idx);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 0; i < names->count; i++) {
        if (i) luaL_addstring(&b, i == names->count - 1 ? " or " : ", ");
        luaL_addchar(&b, '\'');
        luaL_addstring(&b, names->names[names->listed ? names->listed[i] : i]);
        luaL_addchar(&b, '\'');
    }
    luaL_pushresult(&b);
    if (lua_type(L, idx) == LUA_TSTRING)
        lua_pushfstring(L, "%s expected, got '%s'", lua_tostring(L, -1), lua_tostring(L, idx));
    else
        lua_pushfstring(L, "%s expected, got %s", lua_tostring(L, -1), luaL_typename(L, idx));
    lua_remove(L, -2);
    return lua_tostring(L, -1);
}
