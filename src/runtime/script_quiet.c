/* SPDX-License-Identifier: MIT */
/* script_quiet.c - what scripts write to the terminal: print, io.write and the write method of
 * io.stdout and io.stderr. A quiet host (one the rewind replays in the background, to show a past
 * step or to keep a keyframe) must not say again what the live run said once, so there these
 * write nothing; they still check and convert their arguments as Lua's do (print calls tostring,
 * __tostring included; write refuses what is not a string or a number), so that the scripts run
 * exactly as they ran live. Files a script opened itself are written as usual. */
#include "script_internal.h"

#include <stdio.h>

#include <lauxlib.h>

static bool quiet(lua_State *L)
{
    const ScriptHost *host = lua_touserdata(L, lua_upvalueindex(1));
    return host->config.quiet;
}

/* Calls the original (upvalue 2) with the arguments given, returning what it returns. */
static int original(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

static int quiet_print(lua_State *L)
{
    if (!quiet(L)) return original(L);
    int n = lua_gettop(L);
    for (int i = 1; i <= n; i++) {
        luaL_tolstring(L, i, NULL);
        lua_pop(L, 1);
    }
    return 0;
}

/* Whether the file handle at idx writes to the terminal (stdout or stderr). */
static bool terminal(lua_State *L, int idx)
{
    luaL_Stream *s = luaL_testudata(L, idx, LUA_FILEHANDLE);
    return s && s->closef && (s->f == stdout || s->f == stderr);
}

/* The arguments from `first` on, checked as Lua's write checks them (strings or numbers). */
static void check_written(lua_State *L, int first)
{
    for (int i = first; i <= lua_gettop(L); i++)
        if (lua_type(L, i) != LUA_TNUMBER) luaL_checklstring(L, i, NULL);
}

/* io.write(...): writes to the default output, which is stdout unless io.output changed it. */
static int quiet_io_write(lua_State *L)
{
    if (!quiet(L)) return original(L);
    lua_pushvalue(L, lua_upvalueindex(3)); /* io.output(): the default output file */
    lua_call(L, 0, 1);
    if (!terminal(L, -1)) {
        lua_pop(L, 1);
        return original(L);
    }
    lua_pop(L, 1);
    check_written(L, 1);
    lua_pushvalue(L, lua_upvalueindex(3));
    lua_call(L, 0, 1);
    return 1; /* the file, as io.write returns it */
}

/* file:write(...), the method of every file handle. */
static int quiet_file_write(lua_State *L)
{
    if (!quiet(L) || !terminal(L, 1)) return original(L);
    check_written(L, 2);
    lua_settop(L, 1);
    return 1;
}

/* Replaces table[name] (the table at the top of the stack) by fn with the host, the original
 * and `extra` (or nothing) as upvalues. */
static void wrap(ScriptHost *host, const char *name, lua_CFunction fn, bool extra_io_output)
{
    lua_State *L = host->L;
    lua_pushlightuserdata(L, host);
    lua_getfield(L, -2, name);
    int n = 2;
    if (extra_io_output) {
        lua_getglobal(L, "io");
        lua_getfield(L, -1, "output");
        lua_remove(L, -2);
        n++;
    }
    lua_pushcclosure(L, fn, n);
    lua_setfield(L, -2, name);
}

void script_quiet_open(ScriptHost *host)
{
    lua_State *L = host->L;
    lua_pushglobaltable(L);
    wrap(host, "print", quiet_print, false);
    lua_pop(L, 1);
    lua_getglobal(L, "io");
    wrap(host, "write", quiet_io_write, true);
    lua_pop(L, 1);
    luaL_getmetatable(L, LUA_FILEHANDLE); /* its __index: the methods of every file handle */
    lua_getfield(L, -1, "__index");
    if (lua_istable(L, -1)) wrap(host, "write", quiet_file_write, false);
    lua_pop(L, 2);
}
