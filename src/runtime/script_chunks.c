/* SPDX-License-Identifier: MIT */
/* script_chunks.c - scenes load text only. Lua's load, loadfile and dofile also take precompiled
 * chunks (string.dump's output, luac's files), and the VM trusts bytecode: a crafted chunk reads
 * and writes outside its stack, and no check of the program can stop it. A scene's load, loadfile
 * and dofile are Lua's with the mode "t": a binary chunk gets Lua's own error ("attempt to load a
 * binary chunk (mode is 't')"). The program's own files load as text already (script_files.c). */
#include "script_internal.h"

#include <lauxlib.h>

/* Calls the original (upvalue 1) with the arguments given, the mode argument at `mode` made "t"
 * (the arguments after it, load's env, stay as given: a nil env is not a missing one). */
static int call_text_only(lua_State *L, int mode)
{
    if (lua_gettop(L) < mode) lua_settop(L, mode);
    lua_pushliteral(L, "t");
    lua_replace(L, mode);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/// load(chunk [, chunkname [, mode [, env]]])
static int text_load(lua_State *L) { return call_text_only(L, 3); }

/// loadfile([filename [, mode [, env]]])
static int text_loadfile(lua_State *L) { return call_text_only(L, 2); }

static int dofile_done(lua_State *L, int status, lua_KContext ctx)
{
    (void)status;
    (void)ctx;
    return lua_gettop(L) - 1;
}

/// dofile([filename]): loadfile (upvalue 1, text only) and the call, as Lua's dofile.
static int text_dofile(lua_State *L)
{
    lua_settop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    lua_call(L, 1, 2);
    if (lua_isnil(L, -2)) return lua_error(L);
    lua_pop(L, 1);
    lua_callk(L, 0, LUA_MULTRET, 0, dofile_done);
    return dofile_done(L, LUA_OK, 0);
}

void script_chunks_open(ScriptHost *host)
{
    lua_State *L = host->L;
    lua_getglobal(L, "load");
    lua_pushcclosure(L, text_load, 1);
    lua_setglobal(L, "load");
    lua_getglobal(L, "loadfile");
    lua_pushcclosure(L, text_loadfile, 1);
    lua_pushvalue(L, -1);
    lua_setglobal(L, "loadfile");
    lua_pushcclosure(L, text_dofile, 1);
    lua_setglobal(L, "dofile");
}
