/* SPDX-License-Identifier: MIT */
/* script_debug.c - the debug library a scene sees. Lua's own can change what C code relies on:
 * debug.setmetatable gives any value the metatable of a world (and the next w:step() reads a
 * SteerWorld that is not one), debug.setuservalue swaps what a handle keeps, debug.sethook removes
 * the time budget's hook, and debug.getregistry, getuservalue and the reads of a C function's
 * locals or upvalues reach values the program never hands out. A scene's `debug` (the global and
 * require("debug")) is a table of its own holding the functions that only read Lua code: the
 * program keeps the real library for its own Lua (steer.patch, script_reload.c). */
#include "script_internal.h"

#include <stdbool.h>

#include <lauxlib.h>
#include <lualib.h>

#define REAL_DEBUG "steer.debug" /* the registry key of the full library */

/* The real debug function named by upvalue 1, called with the arguments given. */
static int call_real(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* The index of the first argument after the optional thread. */
static int first_arg(lua_State *L) { return lua_type(L, 1) == LUA_TTHREAD ? 2 : 1; }

/* A level argument at arg (after the optional thread) counts from the scene's caller; the real
 * function, called from here, counts from this wrapper: one more on the scene's own thread. Whether
 * that level runs a C function, whose slots and identity are the program's (a pass's closer, the
 * trampolines the program calls the scene through), comes back in *c. */
static void shift_level(lua_State *L, int arg, bool *c)
{
    lua_State *co = arg == 2 ? lua_tothread(L, 1) : L;
    *c = false;
    if (!lua_isinteger(L, arg)) return;
    int level = (int)lua_tointeger(L, arg);
    lua_Debug ar;
    if (level >= 0 && lua_getstack(co, level, &ar) && lua_getinfo(co, "S", &ar)) *c = ar.what[0] == 'C';
    if (co == L) {
        lua_pushinteger(L, (lua_Integer)level + 1);
        lua_replace(L, arg);
    }
}

/* debug.getlocal(level or function, n): none at a level running C code. */
static int scene_getlocal(lua_State *L)
{
    bool c;
    shift_level(L, first_arg(L), &c);
    if (c) {
        lua_pushnil(L);
        return 1;
    }
    return call_real(L);
}

/* debug.getinfo: as Lua's, without the function itself (`func`, option "f") when it is C code. */
static int scene_getinfo(lua_State *L)
{
    int arg = first_arg(L);
    bool c;
    shift_level(L, arg, &c);
    if (lua_iscfunction(L, arg)) c = true;
    int n = call_real(L);
    if (c && n == 1 && lua_istable(L, -1)) {
        lua_pushnil(L);
        lua_setfield(L, -2, "func");
    }
    return n;
}

/* debug.getupvalue(f, n): a C function's upvalues are the program's (hosts, originals). */
static int scene_getupvalue(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    if (lua_iscfunction(L, 1)) return 0;
    return call_real(L);
}

/* The functions copied as they are: they read Lua code and what the scene may see anyway. */
static const char *const AS_IS[] = {"traceback", "gethook", NULL};

void script_debug_open(ScriptHost *host)
{
    lua_State *L = host->L;
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    int loaded = lua_gettop(L);
    lua_getfield(L, loaded, LUA_DBLIBNAME);
    int real = lua_gettop(L);
    lua_pushvalue(L, real);
    lua_setfield(L, LUA_REGISTRYINDEX, REAL_DEBUG);
    lua_newtable(L);
    for (int i = 0; AS_IS[i]; i++) {
        lua_getfield(L, real, AS_IS[i]);
        lua_setfield(L, -2, AS_IS[i]);
    }
    lua_getfield(L, real, "getlocal");
    lua_pushcclosure(L, scene_getlocal, 1);
    lua_setfield(L, -2, "getlocal");
    lua_getfield(L, real, "getinfo");
    lua_pushcclosure(L, scene_getinfo, 1);
    lua_setfield(L, -2, "getinfo");
    lua_getfield(L, real, "getupvalue");
    lua_pushcclosure(L, scene_getupvalue, 1);
    lua_setfield(L, -2, "getupvalue");
    /* getmetatable as the base library's: a protected metatable (every steer handle's) answers
     * with its __metatable field, not with the table whose __gc and __index C code relies on */
    lua_getglobal(L, "getmetatable");
    lua_setfield(L, -2, "getmetatable");
    lua_pushvalue(L, -1);
    lua_setfield(L, loaded, LUA_DBLIBNAME);
    lua_setglobal(L, LUA_DBLIBNAME);
    lua_settop(L, loaded - 1);
}

void script_debug_push_real(ScriptHost *host) { lua_getfield(host->L, LUA_REGISTRYINDEX, REAL_DEBUG); }
