/* SPDX-License-Identifier: MIT */
/* script_outside.c - what a script reads from outside the run, for recordings and replays: the
 * wall clock (os.time(), os.clock(), os.date() of now), the environment (os.getenv) and the files
 * it opens for reading (io.open, io.lines: script_input_files.c) go through the tape, which records
 * each value or gives back the recorded one, so a replay of a script that reads them still runs
 * exactly as recorded, whatever the machine holds now. What no recording can follow (io.popen,
 * io.read and io.input, files opened to write, os.tmpname, dofile, loadfile) is told to the tape
 * (which notes it in the recording and warns in a replay) before the real function runs. */
#include "script_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>

static const ScriptTape *tape_of(lua_State *L)
{
    ScriptHost *host = lua_touserdata(L, lua_upvalueindex(1));
    return host->config.tape;
}

/* os.time() of now through the tape; os.time(table) is a pure conversion, left to Lua's. */
static int tape_time(lua_State *L)
{
    if (!lua_isnoneornil(L, 1)) {
        lua_pushvalue(L, lua_upvalueindex(2));
        lua_insert(L, 1);
        lua_call(L, lua_gettop(L) - 1, 1);
        return 1;
    }
    const ScriptTape *tape = tape_of(L);
    double now = tape->clock(tape->ctx, 0, (double)time(NULL));
    lua_pushinteger(L, (lua_Integer)now);
    return 1;
}

static int tape_clock(lua_State *L)
{
    const ScriptTape *tape = tape_of(L);
    lua_pushnumber(L, tape->clock(tape->ctx, 1, (double)clock() / (double)CLOCKS_PER_SEC));
    return 1;
}

/* os.date(format) formats now: the tape's now, so that a replay formats the recorded time. */
static int tape_date(lua_State *L)
{
    int args = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushvalue(L, 1);
    if (args >= 2 && !lua_isnil(L, 2)) {
        lua_pushvalue(L, 2);
    } else {
        const ScriptTape *tape = tape_of(L);
        lua_pushinteger(L, (lua_Integer)tape->clock(tape->ctx, 0, (double)time(NULL)));
    }
    lua_call(L, 2, 1);
    return 1;
}

/* os.getenv(name) through the tape: the machine's value, recorded, or the recording's. */
static int tape_getenv(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    const ScriptTape *tape = tape_of(L);
    const char *value = getenv(name);
    size_t len = value ? strlen(value) : 0;
    if (!tape->env(tape->ctx, name, &value, &len)) { /* (a replay that diverged: the machine's) */
        value = getenv(name);
        len = value ? strlen(value) : 0;
    }
    if (value)
        lua_pushlstring(L, value, len);
    else
        luaL_pushfail(L);
    return 1;
}

void script_note_outside(lua_State *L, const char *what)
{
    const ScriptTape *tape = tape_of(L);
    luaL_where(L, 1);
    tape->outside(tape->ctx, what, lua_tostring(L, -1));
    lua_pop(L, 1);
}

int script_call_original(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* A function that reaches outside the run: the tape hears of it (name in upvalue 3, where from
 * the caller's line), then the original (upvalue 2) runs with the same arguments. */
static int tape_outside(lua_State *L)
{
    script_note_outside(L, lua_tostring(L, lua_upvalueindex(3)));
    return script_call_original(L);
}

/* A function that acts on the machine (os.execute, os.remove, ...) in a replay: the tape hears
 * of it (a warning: the recording's code runs here), then the original runs. io.output() without
 * an argument only answers the current output. */
static int tape_acts(lua_State *L)
{
    const ScriptTape *tape = tape_of(L);
    const char *what = lua_tostring(L, lua_upvalueindex(3));
    if (strcmp(what, "io.output") != 0 || !lua_isnoneornil(L, 1)) {
        luaL_where(L, 1);
        tape->acts(tape->ctx, what, lua_tostring(L, -1));
        lua_pop(L, 1);
    }
    return script_call_original(L);
}

/* Replaces lib[name] (lib at the top of the stack) by `fn` with the host, the original and the
 * qualified name as upvalues. */
static void wrap(ScriptHost *host, const char *lib, const char *name, lua_CFunction fn)
{
    lua_State *L = host->L;
    lua_getfield(L, -1, name);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    lua_pushlightuserdata(L, host);
    lua_insert(L, -2);
    lua_pushfstring(L, "%s%s%s", lib, lib[0] ? "." : "", name);
    lua_pushcclosure(L, fn, 3);
    lua_setfield(L, -2, name);
}

void script_outside_open(ScriptHost *host)
{
    lua_State *L = host->L;
    lua_getglobal(L, "os");
    wrap(host, "os", "time", tape_time);
    wrap(host, "os", "clock", tape_clock);
    wrap(host, "os", "date", tape_date);
    wrap(host, "os", "getenv", tape_getenv);
    wrap(host, "os", "tmpname", tape_outside);
    if (host->config.tape->acts) {
        static const char *const acts[] = {"execute", "remove", "rename", "exit"};
        for (size_t i = 0; i < sizeof acts / sizeof acts[0]; i++) wrap(host, "os", acts[i], tape_acts);
    }
    lua_pop(L, 1);
    lua_getglobal(L, "io");
    wrap(host, "io", "open", script_tape_io_open);
    wrap(host, "io", "lines", script_tape_io_lines);
    static const char *const io_fns[] = {"popen", "read", "input"};
    for (size_t i = 0; i < sizeof io_fns / sizeof io_fns[0]; i++) wrap(host, "io", io_fns[i], tape_outside);
    if (host->config.tape->acts) wrap(host, "io", "output", tape_acts);
    lua_pop(L, 1);
    lua_pushglobaltable(L);
    wrap(host, "", "dofile", tape_outside);
    wrap(host, "", "loadfile", tape_outside);
    lua_pop(L, 1);
}
