/* SPDX-License-Identifier: MIT */
/* script_files.c - where scripts come from: package.path (the scene's folder, then scripts/lib),
 * a file searcher that names chunks by their path relative to the scene's folder (so every
 * message reads file:line) and records each module it loads, for the watcher and for reloads. */
#define _DEFAULT_SOURCE /* realpath */
#include "script_internal.h"

#include "regular_file.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lauxlib.h>

static const char FILES_KEY = 'f'; /* registry[&FILES_KEY] = { [absolute path] = module name } */

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void add_lib_dir(ScriptHost *host, const char *candidate)
{
    char abs[4096];
    if (host->lib_dir_count >= SCRIPT_MAX_LIB_DIRS || !realpath(candidate, abs) || !is_dir(abs)) return;
    for (int i = 0; i < host->lib_dir_count; i++)
        if (!strcmp(host->lib_dirs[i], abs)) return;
    snprintf(host->lib_dirs[host->lib_dir_count++], sizeof host->lib_dirs[0], "%s", abs);
}

/* scripts/lib of the repository the scene sits in, of the repository the program was built in,
 * and the installed share path ($(PREFIX)/share/lua/5.4 next to $(PREFIX)/bin/steer). */
static void find_lib_dirs(ScriptHost *host)
{
    char dir[4096], candidate[4200];
    snprintf(dir, sizeof dir, "%s", host->scene_dir);
    for (int up = 0; up < 8; up++) {
        snprintf(candidate, sizeof candidate, "%s/scripts/lib", dir);
        if (is_dir(candidate)) {
            add_lib_dir(host, candidate);
            break;
        }
        if (!strcmp(dir, "/")) break;
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s", dir);
        snprintf(dir, sizeof dir, "%s", dirname(tmp));
    }
    char exe[4096];
    if (realpath("/proc/self/exe", exe) || (host->config.exe_path && realpath(host->config.exe_path, exe))) {
        char *exe_dir = dirname(exe);
        static const char *const rel[] = {"../scripts/lib", "../../scripts/lib", "../share/lua/5.4"};
        for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
            snprintf(candidate, sizeof candidate, "%s/%s", exe_dir, rel[i]);
            add_lib_dir(host, candidate);
        }
    }
}

/* `to` relative to the directory `from` (both absolute): "brains/hunter.lua", "../lib/fsm.lua". */
static void relative_path(const char *from, const char *to, char *out, size_t size)
{
    size_t common = 0, i = 0;
    while (from[i] && to[i] && from[i] == to[i]) {
        if (from[i] == '/') common = i;
        i++;
    }
    if (!from[i] && to[i] == '/') common = i; /* `to` is inside `from` */
    out[0] = '\0';
    size_t len = 0;
    for (const char *p = from + common; *p; p++)
        if (*p == '/') len += (size_t)snprintf(out + len, len < size ? size - len : 0, "../");
    snprintf(out + (len < size ? len : size - 1), len < size ? size - len : 1, "%s", to + common + 1);
}

void script_files_chunk_name(ScriptHost *host, const char *path, char *out, size_t size)
{
    relative_path(host->scene_dir, path, out, size);
}

/* Pushes the file's text: from disk, or in a replay the text the recording loaded here. */
static int read_text(ScriptHost *host, const char *path)
{
    lua_State *L = host->L;
    const ScriptTape *tape = host->config.tape;
    if (tape && tape->read) {
        const char *text;
        size_t len;
        if (!tape->read(tape->ctx, path, &text, &len)) {
            lua_pushfstring(L, "cannot open %s: the recording loaded another file here (the replay diverged)", path);
            return LUA_ERRFILE;
        }
        lua_pushlstring(L, text, len);
        return LUA_OK;
    }
    char why[256];
    size_t read_len;
    char *data = regular_file_read(path, REGULAR_FILE_SCRIPT_MAX, &read_len, why, sizeof why);
    if (!data) {
        lua_pushfstring(L, "cannot open %s: %s", path, why);
        return LUA_ERRFILE;
    }
    lua_pushlstring(L, data, read_len); /* (raises out of memory: callers run protected) */
    free(data);
    if (tape && tape->loaded) {
        size_t len;
        const char *text = lua_tolstring(L, -1, &len);
        tape->loaded(tape->ctx, path, host->loading_module ? host->loading_module : "", text, len);
    }
    return LUA_OK;
}

int script_load_file(ScriptHost *host, const char *path)
{
    lua_State *L = host->L;
    int read = read_text(host, path);
    if (read != LUA_OK) return read;
    char rel[4096], name[4200];
    script_files_chunk_name(host, path, rel, sizeof rel);
    snprintf(name, sizeof name, "@%s", rel);
    size_t len;
    const char *text = lua_tolstring(L, -1, &len);
    /* What luaL_loadfile skips: a UTF-8 byte order mark (some editors save one), then a #! line
     * (its newline stays, so that errors name the lines as written). */
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
        text += 3;
        len -= 3;
    }
    if (len > 0 && text[0] == '#') {
        while (len > 0 && *text != '\n') text++, len--;
    }
    int status = luaL_loadbufferx(L, text, len, name, "t");
    lua_remove(L, -2);
    return status;
}

void script_files_record(ScriptHost *host, const char *name, const char *path)
{
    lua_State *L = host->L;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &FILES_KEY);
    lua_pushstring(L, name);
    lua_setfield(L, -2, path);
    lua_pop(L, 1);
    host->files_serial++;
}

int script_files_serial(ScriptHost *host) { return host->files_serial; }

void script_files_name_of(ScriptHost *host, const char *path)
{
    lua_rawgetp(host->L, LUA_REGISTRYINDEX, &FILES_KEY);
    lua_getfield(host->L, -1, path);
    lua_remove(host->L, -2);
}

void script_for_each_file(ScriptHost *host, void (*fn)(void *ctx, const char *path), void *ctx)
{
    lua_State *L = host->L;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &FILES_KEY);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) == LUA_TSTRING) fn(ctx, lua_tostring(L, -1));
    }
    lua_pop(L, 1);
}

static bool is_under(const char *dir, const char *path)
{
    size_t n = strlen(dir);
    return strncmp(dir, path, n) == 0 && path[n] == '/';
}

/* package.searchpath(name, package.path), except that a file is found by stat() where Lua's opens
 * it to see whether it is readable (an open that blocks on a FIFO): pushes the path found and nil,
 * or the "no file" lines alone (false). Reading it then refuses what is no regular file. */
static bool search_path(lua_State *L, const char *name)
{
    lua_getglobal(L, "package");
    lua_getfield(L, -1, "path");
    const char *path = lua_tostring(L, -1);
    if (!path) luaL_error(L, "'package.path' must be a string");
    const char *file = luaL_gsub(L, name, ".", LUA_DIRSEP);
    lua_pushliteral(L, "");
    int tried = lua_gettop(L);
    for (const char *p = path; *p;) {
        const char *end = strchr(p, *LUA_PATH_SEP);
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > 0) {
            lua_pushlstring(L, p, len);
            const char *candidate = luaL_gsub(L, lua_tostring(L, -1), LUA_PATH_MARK, file);
            struct stat st;
            if (stat(candidate, &st) == 0 && access(candidate, R_OK) == 0) {
                lua_pushnil(L);
                return true;
            }
            const char *before = lua_tostring(L, tried); /* as Lua's: the lines joined by "\n\t" */
            lua_pushfstring(L, "%s%sno file '%s'", before, *before ? "\n\t" : "", candidate);
            lua_replace(L, tried);
            lua_pop(L, 2);
        }
        p += len + (end ? 1 : 0);
    }
    return false;
}

/* package.searchers[2]: finds `name` on package.path like Lua's own searcher, but loads it through
 * script_load_file and remembers files from the scene's folder and scripts/lib. */
static int searcher(lua_State *L)
{
    ScriptHost *host = lua_touserdata(L, lua_upvalueindex(1));
    const char *name = luaL_checkstring(L, 1);
    const ScriptTape *tape = host->config.tape;
    if (tape && tape->find) { /* a replay: the file the recording found, whether it exists here or not */
        const char *path = tape->find(tape->ctx, name);
        if (!path) {
            lua_pushfstring(L, "\n\tno file for '%s' in the recording", name);
            return 1;
        }
        lua_pushstring(L, path); /* (kept: the path the module is loaded from) */
        script_files_record(host, name, lua_tostring(L, -1));
        host->loading_module = name;
        if (script_load_file(host, lua_tostring(L, -1)) != LUA_OK)
            return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s", name, path, lua_tostring(L, -1));
        lua_insert(L, -2);
        return 2;
    }
    if (!search_path(L, name)) return 1; /* the "no file ..." lines */
    char abs[4096];
    const char *found = lua_tostring(L, -2);
    if (!realpath(found, abs)) snprintf(abs, sizeof abs, "%s", found);
    /* Recorded first, so that one that does not load is watched too: saving the fix loads it. */
    bool ours = is_under(host->scene_dir, abs);
    for (int i = 0; i < host->lib_dir_count && !ours; i++) ours = is_under(host->lib_dirs[i], abs);
    if (ours) script_files_record(host, name, abs);
    host->loading_module = name;
    if (script_load_file(host, abs) != LUA_OK)
        return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s", name, found, lua_tostring(L, -1));
    lua_pushstring(L, abs);
    return 2;
}

void script_files_setup(ScriptHost *host)
{
    lua_State *L = host->L;
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &FILES_KEY);
    find_lib_dirs(host);

    lua_getglobal(L, "package");
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    lua_pushfstring(L, "%s/?.lua;%s/?/init.lua;", host->scene_dir, host->scene_dir);
    luaL_addvalue(&b);
    for (int i = 0; i < host->lib_dir_count; i++) {
        lua_pushfstring(L, "%s/?.lua;%s/?/init.lua;", host->lib_dirs[i], host->lib_dirs[i]);
        luaL_addvalue(&b);
    }
    lua_getfield(L, -2, "path");
    luaL_addvalue(&b);
    luaL_pushresult(&b);
    lua_setfield(L, -2, "path");

    lua_getfield(L, -1, "preload");
    lua_pushlightuserdata(L, host);
    lua_pushcclosure(L, script_open_steer, 1);
    lua_setfield(L, -2, "steer");
    lua_pop(L, 1);

    lua_getfield(L, -1, "searchers");
    lua_pushlightuserdata(L, host);
    lua_pushcclosure(L, searcher, 1);
    lua_rawseti(L, -2, 2);
    lua_pop(L, 2);
}
