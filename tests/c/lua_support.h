/* SPDX-License-Identifier: MIT */
/* lua_support.h - what the C tests of the Lua module share: a fresh Lua state with the standard
 * libraries and `steer` loaded as a global, and running a chunk in it, where an error fails the
 * test with Lua's message and the chunk. Include after cmocka.h. */
#ifndef LUA_SUPPORT_H
#define LUA_SUPPORT_H

#include <lauxlib.h>
#include <lualib.h>

#include "steer_lua.h"

static lua_State *open_state(void)
{
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    luaL_requiref(L, "steer", luaopen_steer, 1);
    lua_pop(L, 1);
    return L;
}

static void run(lua_State *L, const char *code)
{
    if (luaL_dostring(L, code) != LUA_OK) fail_msg("%s\n-- in: %s", lua_tostring(L, -1), code);
}

#endif
