/* SPDX-License-Identifier: MIT */
/* script_input_files.c - files a script opens (io.open, io.lines) in a recorded or replayed run.
 * A file opened to read (io.open(path), with "r" or "rb", io.lines(path)) is read whole when it is
 * opened, through the tape, which records its bytes (or why it did not open) or, replaying, gives
 * back the recorded ones without looking at the disk; the script then reads a file handle over
 * those bytes in memory (fmemopen): a real Lua file, so io.type, read, lines, seek and close behave
 * as on the disk. So a replay reads what the recording read, whether the file has changed since or
 * is gone. A file opened to write ("w", "a") is written when recording; a replay gets what the
 * open gave (a handle, or the error) but its handle writes nowhere (/dev/null): a replay, in the
 * background or asked for, never writes over the files the run wrote since. A file that is not a
 * regular one (a pipe, a device) or is larger than SCRIPT_FILE_CAPTURE_MAX, a file opened for
 * update ("r+", ...) and io.lines() of the default input reach the machine as it is: the tape
 * notes them, and a replay warns. */
#include "script_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <lauxlib.h>

static const ScriptTape *tape_of(lua_State *L)
{
    ScriptHost *host = lua_touserdata(L, lua_upvalueindex(1));
    return host->config.tape;
}

/* A file handle over bytes kept in the userdata itself, which Lua's collector never moves. */
typedef struct MemoryFile {
    luaL_Stream stream; /* first: Lua's io library sees a luaL_Stream */
    char bytes[];
} MemoryFile;

static int memory_close(lua_State *L)
{
    luaL_Stream *s = luaL_checkudata(L, 1, LUA_FILEHANDLE);
    return luaL_fileresult(L, fclose(s->f) == 0, NULL);
}

static void push_memory_file(lua_State *L, const char *path, const char *text, size_t len)
{
    MemoryFile *m = lua_newuserdatauv(L, sizeof *m + len + 1, 0);
    m->stream.closef = NULL; /* closed until it is open, as Lua's own io.open makes them */
    luaL_setmetatable(L, LUA_FILEHANDLE);
    memcpy(m->bytes, text, len);
    m->stream.f = fmemopen(m->bytes, len, "r");
    if (!m->stream.f) luaL_error(L, "cannot open file '%s' (%s)", path, strerror(errno));
    m->stream.closef = memory_close;
}

/* Recording: reads `path` from the disk into `file`; pushes the bytes read (file->text points
 * into them) or nil. */
static void capture(lua_State *L, const char *path, ScriptFileRead *file)
{
    memset(file, 0, sizeof *file);
    lua_pushnil(L);
    FILE *f = fopen(path, "rb");
    if (!f) {
        file->errnum = errno;
        file->outcome = SCRIPT_FILE_FAILED;
        file->message = strerror(file->errnum);
        file->message_len = strlen(file->message);
        return;
    }
    struct stat st;
    file->outcome = SCRIPT_FILE_UNCAPTURED; /* unless it reads whole below */
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= SCRIPT_FILE_CAPTURE_MAX) {
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        size_t total = 0, n;
        do {
            char *into = luaL_prepbuffer(&b);
            n = fread(into, 1, LUAL_BUFFERSIZE, f);
            luaL_addsize(&b, n);
            total += n;
        } while (n > 0 && total <= SCRIPT_FILE_CAPTURE_MAX);
        luaL_pushresult(&b);
        lua_replace(L, -2);
        if (!ferror(f) && total <= SCRIPT_FILE_CAPTURE_MAX) { /* (a file that grew past it: the machine's) */
            file->outcome = SCRIPT_FILE_READ;
            file->text = lua_tolstring(L, -1, &file->len);
        }
    }
    fclose(f);
}

/* Opens `path` to read through the tape. 1: a file handle pushed; 0: it did not open (`file` says
 * why); -1: the script must read the machine's file (not recorded, or a replay that diverged).
 * The stack is as it was unless 1. */
static int open_recorded(lua_State *L, const char *path, ScriptFileRead *file)
{
    const ScriptTape *tape = tape_of(L);
    int top = lua_gettop(L);
    if (tape->read)
        lua_pushnil(L); /* replaying: the disk is not read */
    else
        capture(L, path, file);
    int result = -1;
    if (tape->file(tape->ctx, path, file) &&
        (file->outcome == SCRIPT_FILE_READ || file->outcome == SCRIPT_FILE_FAILED)) {
        result = file->outcome == SCRIPT_FILE_READ ? 1 : 0;
        if (result == 1) push_memory_file(L, path, file->text, file->len);
    }
    if (result == 1) lua_replace(L, top + 1);
    lua_settop(L, result == 1 ? top + 1 : top);
    return result;
}

/* Opens `path` to write through the tape, recording how the machine's open went, or replaying it
 * onto /dev/null. 1: a handle pushed; 0: it did not open (`file` says why); -1: the script must
 * open the machine's file (a replay that diverged). The stack is as it was unless 1. */
static int open_written(lua_State *L, const char *path, const char *mode, ScriptFileRead *file)
{
    const ScriptTape *tape = tape_of(L);
    int top = lua_gettop(L);
    memset(file, 0, sizeof *file);
    if (tape->read) { /* replaying */
        if (!tape->file(tape->ctx, path, file)) return -1;
        if (file->outcome == SCRIPT_FILE_FAILED) return 0;
        if (file->outcome != SCRIPT_FILE_WRITTEN) return -1;
        path = "/dev/null";
    }
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushstring(L, path);
    lua_pushstring(L, mode);
    lua_call(L, 2, 3);
    if (tape->read) { /* (/dev/null: nothing to record) */
        lua_settop(L, top + 1);
        return 1;
    }
    bool opened = !lua_isnil(L, -3);
    file->outcome = opened ? SCRIPT_FILE_WRITTEN : SCRIPT_FILE_FAILED;
    if (!opened) {
        file->errnum = (int)lua_tointeger(L, -1);
        file->message = strerror(file->errnum);
        file->message_len = strlen(file->message);
    }
    tape->file(tape->ctx, path, file);
    lua_settop(L, opened ? top + 1 : top);
    return opened ? 1 : 0;
}

/* What a mode opens a file for: 'r' to read, 'w' to write ("w", "a"), 'u' anything else (for
 * update, "r+"; or not a mode, which Lua's io.open refuses). */
static char mode_kind(const char *mode)
{
    if (!mode[0] || strspn(mode + 1, "b") != strlen(mode + 1)) return 'u';
    return mode[0] == 'r' ? 'r' : mode[0] == 'w' || mode[0] == 'a' ? 'w' : 'u';
}

int script_tape_io_open(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    const char *mode = luaL_optstring(L, 2, "r");
    ScriptFileRead file;
    char kind = mode_kind(mode);
    int opened = kind == 'r' ? open_recorded(L, path, &file) : kind == 'w' ? open_written(L, path, mode, &file) : -1;
    if (opened == 1) return 1;
    if (opened == 0) { /* what Lua's io.open returns for it */
        luaL_pushfail(L);
        lua_pushfstring(L, "%s: ", path);
        lua_pushlstring(L, file.message, file.message_len);
        lua_concat(L, 2);
        lua_pushinteger(L, file.errnum);
        return 3;
    }
    script_note_outside(L, "io.open");
    return script_call_original(L);
}

/* The iterator io.lines(path) returns: the file's lines method, and the file closed at its end
 * (upvalue 1 the method's iterator, 2 the file). */
static int lines_step(lua_State *L)
{
    lua_settop(L, 0);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_call(L, 0, LUA_MULTRET);
    if (lua_gettop(L) == 0 || lua_isnil(L, 1)) {
        luaL_Stream *s = luaL_checkudata(L, lua_upvalueindex(2), LUA_FILEHANDLE);
        if (s->closef) { /* (not closed by the script already) */
            lua_getfield(L, lua_upvalueindex(2), "close");
            lua_pushvalue(L, lua_upvalueindex(2));
            lua_call(L, 1, 0);
        }
    }
    return lua_gettop(L);
}

int script_tape_io_lines(lua_State *L)
{
    if (lua_isnoneornil(L, 1)) { /* the default input: stdin, or what io.input opened */
        script_note_outside(L, "io.lines");
        return script_call_original(L);
    }
    const char *path = luaL_checkstring(L, 1);
    ScriptFileRead file;
    int opened = open_recorded(L, path, &file);
    if (opened == 0) { /* Lua's io.lines says it so */
        lua_pushlstring(L, file.message, file.message_len);
        return luaL_error(L, "cannot open file '%s' (%s)", path, lua_tostring(L, -1));
    }
    if (opened < 0) {
        script_note_outside(L, "io.lines");
        return script_call_original(L);
    }
    int handle = lua_gettop(L);
    lua_getfield(L, handle, "lines"); /* handle:lines(formats...) */
    lua_pushvalue(L, handle);
    for (int i = 2; i < handle; i++) lua_pushvalue(L, i);
    lua_call(L, handle - 1, 1);
    lua_pushvalue(L, handle);
    lua_pushcclosure(L, lines_step, 2);
    lua_pushnil(L);
    lua_pushnil(L);
    lua_pushvalue(L, handle);
    return 4; /* what Lua's io.lines(path) returns: the iterator, two nils and the file */
}
