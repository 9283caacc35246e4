/* SPDX-License-Identifier: MIT */
/* script.c - the Lua host: creating the state and the world, the protected-call helper every
 * call into Lua goes through, and the scene's callbacks. Brains live in script_brains.c, files and
 * require in script_files.c, gfx in script_gfx.c, reloads in script_reload.c, what the error
 * panel shows in script_errors.c. */
#define _DEFAULT_SOURCE /* realpath */
#include "script_internal.h"

#include <libgen.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

#include "steer_lua.h"

/* Cuts the message at the stack top to SCRIPT_MAX_MESSAGE bytes (in place); returns it. A script
 * may raise a 20 MB string: every copy the program keeps and prints (stderr, the panel, the brain
 * failures) would then be that long. */
static const char *bound_message(lua_State *L)
{
    size_t len;
    const char *msg = lua_tolstring(L, -1, &len);
    if (len <= SCRIPT_MAX_MESSAGE) return msg;
    size_t keep = SCRIPT_MAX_MESSAGE;
    while (keep > 0 && ((unsigned char)msg[keep] & 0xC0) == 0x80) keep--; /* not in a UTF-8 sequence */
    lua_pushlstring(L, msg, keep);
    char cut[32]; /* (snprintf: cppcheck takes lua_pushfstring's %I for a length modifier) */
    snprintf(cut, sizeof cut, "%zu", len - keep);
    lua_pushfstring(L, "%s... (%s more bytes cut)", lua_tostring(L, -1), cut);
    lua_replace(L, -3);
    lua_pop(L, 1);
    return lua_tostring(L, -1);
}

static int traceback_handler(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (msg) {
        lua_settop(L, 1);
        (void)lua_tostring(L, 1); /* a number message becomes its text in place */
    } else {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            msg = lua_tostring(L, -1);
        else
            msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    msg = bound_message(L);
    if (strstr(msg, "\nstack traceback:")) return 1; /* traced already (a nested protected call) */
    luaL_traceback(L, L, msg, 1);
    /* A traceback of C frames only (`[C]: in ?`: an error raised by the program itself, about the
     * scene's world table say) points at no line of a script: the message alone says more. */
    const char *trace = strstr(lua_tostring(L, -1), "\nstack traceback:");
    for (const char *line = trace ? strchr(trace + 1, '\n') : NULL; line; line = strchr(line + 1, '\n'))
        if (strncmp(line + 1, "\t[C]:", 5) != 0) return 1;
    if (trace) lua_pushstring(L, msg);
    return 1;
}

bool script_pcall(ScriptHost *host, int nargs, int nresults)
{
    lua_State *L = host->L;
    int base = lua_gettop(L) - nargs;
    lua_rawgeti(L, LUA_REGISTRYINDEX, host->traceback_ref);
    lua_insert(L, base);
    double start = 0.0;
    if (host->depth++ == 0) {
        start = guard_now();
        guard_begin(&host->guard);
    }
    int status = lua_pcall(L, nargs, nresults, base);
    bool expired = false;
    if (--host->depth == 0) {
        expired = guard_end(&host->guard);
        host->lua_seconds += guard_now() - start;
    }
    if (status == LUA_ERRMEM && host->depth == 0) {
        /* Lua raises "not enough memory" without running the message handler: say where, in
         * which callback, and what the cap is (the guard noted the line it refused at). */
        const char *at = host->guard.refused_at;
        lua_pop(L, 1);
        lua_pushfstring(L, "%s%snot enough memory: the scripts reached --memory-cap (%d MB)%s%s%s", at,
                        at[0] ? ": " : "", (int)(host->guard.memory_cap >> 20), host->calling ? " in '" : "",
                        host->calling ? host->calling : "", host->calling ? "'" : "");
    }
    if (status != LUA_OK) {
        if (expired && host->guard.message[0]) {
            /* The sticky hook may have re-raised the timeout elsewhere; report where it struck. */
            const char *tb = strstr(lua_tostring(L, -1) ? lua_tostring(L, -1) : "", "\nstack traceback:");
            lua_pushfstring(L, "%s%s", host->guard.message, tb ? tb : "");
            lua_remove(L, -2);
        }
        script_report_top(host);
        lua_remove(L, base);
        return false;
    }
    lua_remove(L, base);
    return true;
}

bool script_push_callback(ScriptHost *host, const char *name)
{
    lua_State *L = host->L;
    if (host->scene_ref != LUA_NOREF) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, host->scene_ref);
        lua_getfield(L, -1, name);
        lua_remove(L, -2);
        if (lua_isfunction(L, -1)) return true;
        lua_pop(L, 1);
    }
    /* Raw: the scene's own globals only, never Lua's (a scene without load must not call Lua's). */
    script_push_env(host);
    lua_pushstring(L, name);
    lua_rawget(L, -2);
    lua_remove(L, -2);
    if (lua_isfunction(L, -1)) return true;
    lua_pop(L, 1);
    return false;
}

/* script_push_callback without running any script code: raw reads of the scene's table and of
 * its environment. The program's own hints (the load-time warnings) look callbacks up this way,
 * outside any protected call and any budget: an __index there that raises would end the program
 * (a panic), one that loops would hang it. */
static bool push_callback_raw(ScriptHost *host, const char *name)
{
    lua_State *L = host->L;
    if (host->scene_ref != LUA_NOREF) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, host->scene_ref);
        lua_pushstring(L, name);
        lua_rawget(L, -2);
        lua_remove(L, -2);
        if (lua_isfunction(L, -1)) return true;
        lua_pop(L, 1);
    }
    script_push_env(host);
    lua_pushstring(L, name);
    lua_rawget(L, -2);
    lua_remove(L, -2);
    if (lua_isfunction(L, -1)) return true;
    lua_pop(L, 1);
    return false;
}

/* Whether the scene's table has a metatable: its callbacks may then come from an __index, which
 * the hints do not run (they would say "defines none" of a scene that defines them there). */
static bool scene_table_has_metatable(ScriptHost *host)
{
    if (host->scene_ref == LUA_NOREF) return false;
    lua_rawgeti(host->L, LUA_REGISTRYINDEX, host->scene_ref);
    bool has = lua_getmetatable(host->L, -1);
    lua_pop(host->L, has ? 2 : 1);
    return has;
}

/* Protected: looks the callback named by upvalue 2 up and calls it with the arguments given. */
static int callback_trampoline(lua_State *L)
{
    ScriptHost *host = lua_touserdata(L, lua_upvalueindex(1));
    if (!script_push_callback(host, lua_tostring(L, lua_upvalueindex(2)))) return 0;
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 0);
    return 0;
}

bool script_callback(ScriptHost *host, const char *name, int nargs)
{
    lua_State *L = host->L;
    if (host->failed) { /* nothing of a scene that did not load runs */
        lua_pop(L, nargs);
        return true;
    }
    lua_pushlightuserdata(L, host);
    lua_pushstring(L, name);
    lua_pushcclosure(L, callback_trampoline, 2);
    lua_insert(L, -(nargs + 1));
    const char *outer = host->calling;
    host->calling = name;
    bool ok = script_pcall(host, nargs, 0);
    host->calling = outer;
    return ok;
}

/* Runs in protected mode: libraries, package setup, gfx table, traceback handler. */
static int setup_state(lua_State *L)
{
    ScriptHost *host = lua_touserdata(L, 1);
    luaL_openlibs(L);
    /* pairs and next walk tables in an order every state that runs the same code repeats (by key:
     * numbers, strings by bytes, handles by id; lpairs.c), not in Lua's hash order, which depends
     * on addresses and on the string hash seed Lua draws per state: a replay, and a rewind's, in a
     * fresh state then walks vehicles kept as keys of a table as the recorded run did. */
    steer_lua_push_pairs(L);
    lua_setglobal(L, "next");
    lua_setglobal(L, "pairs");
    /* The scene's globals go into a table of their own; reads fall through to the real ones. */
    lua_newtable(L);
    lua_createtable(L, 0, 1);
    lua_pushglobaltable(L);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, -2);
    host->env_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    if (host->config.run.has_seed ||
        host->config.run.has_math_seed) { /* --seed replays math.random too (Lua
                                           * seeds it from the clock), and so does a recording */
        lua_getglobal(L, "math");
        lua_getfield(L, -1, "randomseed");
        lua_pushinteger(L,
                        (lua_Integer)(host->config.run.has_seed ? host->config.run.seed : host->config.run.math_seed));
        lua_call(L, 1, 0);
        lua_pop(L, 1);
    }
    guard_open_coroutines(&host->guard, L);
    guard_open_xpcall(&host->guard, L);
    lua_pushcfunction(L, guard_step_check); /* w:step(1e9) stops at the budget too */
    lua_setfield(L, LUA_REGISTRYINDEX, STEER_LUA_STEP_CHECK);
    script_chunks_open(host); /* before script_outside_open, which wraps what it finds */
    lua_pushcfunction(L, traceback_handler);
    host->traceback_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    script_files_setup(host);
    script_input_set_arg(host);
    if (host->config.tape) script_outside_open(host);
    script_quiet_open(host);
    script_gfx_open(host);
    host->gfx_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    script_debug_open(host); /* last: what is set up above keeps the real library */
    return 0;
}

const char *script_scene_name(const ScriptHost *host)
{
    const char *slash = strrchr(host->scene_file, '/');
    return slash ? slash + 1 : host->scene_file;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The table at idx as sorted `key=value` text (raw reads, no metamethod runs), "" for a non-table:
 * enough to tell whether the scene's world options changed. */
static void options_text(lua_State *L, int idx, char *out, size_t size)
{
    enum { MAX = 32 };
    char pairs[MAX][64];
    const char *sorted[MAX];
    int n = 0;
    out[0] = '\0';
    if (!lua_istable(L, idx)) return;
    idx = lua_absindex(L, idx);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (n < MAX && lua_type(L, -2) == LUA_TSTRING) {
            int t = lua_type(L, -1);
            lua_pushvalue(L, -1); /* a copy: lua_tostring would turn a number key into a string */
            const char *value = t == LUA_TNUMBER || t == LUA_TSTRING ? lua_tostring(L, -1)
                                : t == LUA_TBOOLEAN                  ? (lua_toboolean(L, -1) ? "true" : "false")
                                                                     : lua_typename(L, t);
            snprintf(pairs[n], sizeof pairs[n], "%s=%s", lua_tostring(L, -3), value);
            sorted[n] = pairs[n];
            n++;
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    qsort(sorted, (size_t)n, sizeof *sorted, compare_strings);
    size_t used = 0;
    for (int i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%s", i ? ", " : "", sorted[i]);
}

/* Pushes the scene's world options: the `world` field of the table it returned, else its global. */
static void push_world_options(ScriptHost *host)
{
    lua_State *L = host->L;
    /* Raw reads (the scene's table, its own global, then Lua's): this runs after a reload,
     * outside any protected call, where an __index could only raise into a panic or loop. */
    lua_pushnil(L);
    if (host->scene_ref != LUA_NOREF) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, host->scene_ref);
        lua_pushliteral(L, "world");
        lua_rawget(L, -2);
        lua_replace(L, -3);
        lua_pop(L, 1);
    }
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        script_push_env(host);
        lua_pushliteral(L, "world");
        lua_rawget(L, -2);
        lua_remove(L, -2);
    }
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_pushglobaltable(L);
        lua_pushliteral(L, "world");
        lua_rawget(L, -2);
        lua_remove(L, -2);
    }
}

void script_note_world_options(ScriptHost *host)
{
    lua_State *L = host->L;
    if (host->config.tape && host->config.tape->read) return; /* a replayed reload noted it live */
    push_world_options(host);
    if (steer_lua_to_world(L, -1)) { /* a scene that makes its world itself: nothing to compare */
        lua_pop(L, 1);
        return;
    }
    char now[sizeof host->world_options];
    options_text(L, -1, now, sizeof now);
    lua_pop(L, 1);
    if (strcmp(now, host->world_options) == 0) { /* (back to) those of the world as it is */
        host->world_options_noted[0] = '\0';
        return;
    }
    if (strcmp(now, host->world_options_noted) == 0) return; /* said already */
    fprintf(stderr,
            "steer: note: %s changed its world options to {%s}: they apply when the world is made again, at "
            "the next restart (F5 in a window)\n",
            script_scene_name(host), now);
    snprintf(host->world_options_noted, sizeof host->world_options_noted, "%s", now);
}

bool script_world_options_pending(ScriptHost *host) { return host->world_options_noted[0] != '\0'; }

/* Runs in protected mode with the scene's result at 1: finds the world options (the scene table's
 * `world` field or the global), applies --seed and --threads, and makes the world with steer.world. */
static int make_world(lua_State *L)
{
    ScriptHost *host = lua_touserdata(L, lua_upvalueindex(1));
    lua_settop(L, 1);
    if (lua_istable(L, 1))
        lua_getfield(L, 1, "world");
    else
        lua_pushnil(L);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        script_push_env(host);
        lua_getfield(L, -1, "world");
        lua_remove(L, -2);
    }
    int opts = lua_gettop(L);
    if (steer_lua_to_world(L, opts)) return 1; /* the scene made its world itself */
    options_text(L, opts, host->world_options, sizeof host->world_options);
    host->world_options_noted[0] = '\0';
    lua_getglobal(L, "require");
    lua_pushliteral(L, "steer");
    lua_call(L, 1, 1);
    lua_getfield(L, -1, "world");
    lua_newtable(L); /* a copy, so that --seed does not write into the script's table */
    if (lua_istable(L, opts)) {
        lua_pushnil(L);
        while (lua_next(L, opts)) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_settable(L, -4);
        }
    } else if (!lua_isnil(L, opts)) {
        return luaL_error(L, "%s: 'world' must be a table of steer.world options, got %s", script_scene_name(host),
                          luaL_typename(L, opts));
    }
    if (host->config.run.has_seed) {
        lua_pushinteger(L, (lua_Integer)host->config.run.seed);
        lua_setfield(L, -2, "seed");
    }
    if (host->config.run.threads > 0) {
        lua_pushinteger(L, host->config.run.threads);
        lua_setfield(L, -2, "threads");
    }
    /* A bad option has no line of the scene to point at (steer.world is called from here): name
     * the scene file and its world table instead. */
    if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
        const char *why = lua_tostring(L, -1);
        return luaL_error(L, "%s: in its world table: %s", script_scene_name(host),
                          why ? why : "(error object is not a string)");
    }
    return 1;
}

/* The callbacks the program calls by name (script_callback). */
static const char *const CALLBACKS[] = {"load",         "update",     "draw",          "keypressed", "keyreleased",
                                        "mousepressed", "mousemoved", "mousereleased", "reload"};
enum { CALLBACK_COUNT = sizeof CALLBACKS / sizeof CALLBACKS[0] };

/* `name` folded to compare with a callback: lower case, without '_' (Update, mouse_pressed). */
static bool same_folded(const char *name, const char *callback)
{
    for (;; name++) {
        if (*name == '_') continue;
        char c = (char)tolower((unsigned char)*name);
        if (c != *callback) return false;
        if (!c) return true;
        callback++;
    }
}

const char *script_callback_name(int i) { return i >= 0 && i < CALLBACK_COUNT ? CALLBACKS[i] : NULL; }

/* Warns about each function of the table at idx named like a callback the scene does not define
 * (`Load`, `updat`, `key_pressed`): the program would never call it, and the scene would run
 * silently without it. */
static bool warn_misnamed_callbacks(ScriptHost *host, int idx)
{
    bool warned = false;
    lua_State *L = host->L;
    const char *file = script_scene_name(host);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (lua_type(L, -2) == LUA_TSTRING && lua_isfunction(L, -1)) {
            const char *name = lua_tostring(L, -2), *meant = NULL;
            for (int i = 0; i < CALLBACK_COUNT && !meant; i++)
                if (!strcmp(name, CALLBACKS[i]))
                    break;
                else if (same_folded(name, CALLBACKS[i]))
                    meant = CALLBACKS[i];
            if (!meant && strlen(name) >= 4) meant = steer_lua_suggest(name, CALLBACKS, CALLBACK_COUNT);
            if (meant && strcmp(name, meant) != 0) {
                bool defined = push_callback_raw(host, meant);
                if (defined) lua_pop(L, 1);
                defined = defined || scene_table_has_metatable(host);
                if (!defined) {
                    fprintf(stderr,
                            "steer: warning: %s defines '%s', which the program never calls (did you mean '%s'?)\n",
                            file, name, meant);
                    warned = true;
                }
            }
        }
        lua_pop(L, 1);
    }
    return warned;
}

/* A scene whose callbacks are all `local function`s (good style elsewhere in Lua) defines none the
 * program can see: it would open an empty world and stay silent about why. */
static void warn_no_callbacks(ScriptHost *host)
{
    if (scene_table_has_metatable(host)) return;
    for (int i = 0; i < CALLBACK_COUNT; i++) {
        if (push_callback_raw(host, CALLBACKS[i])) {
            lua_pop(host->L, 1);
            return;
        }
    }
    fprintf(stderr,
            "steer: warning: %s defines none of the callbacks (load, update, draw, keypressed, keyreleased, "
            "mousepressed, mousemoved, mousereleased, reload), so the program calls nothing of it; a callback must be "
            "a global function "
            "(not a `local function`) or a field of the table the file returns\n",
            script_scene_name(host));
}

/* Whether a parameter's name says it is a time step (dt, delta, elapsed, ...). */
static bool names_a_time_step(const char *name)
{
    static const char *const NAMES[] = {"dt", "delta", "deltatime", "delta_time", "dtime", "elapsed", "t", "time"};
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
        if (!strcmp(name, NAMES[i])) return true;
    return false;
}

/* LÖVE's love.update(dt) has one parameter; the program calls update(world, dt), so a scene written
 * the LÖVE way gets the world as its `dt` and fails on its first arithmetic with it ("attempt to
 * perform arithmetic on a steer.World value"). Says so when the scene loads, where it is defined;
 * update(w), which needs only the world, is fine. */
static void warn_update_without_world(ScriptHost *host)
{
    lua_State *L = host->L;
    if (!push_callback_raw(host, "update")) return;
    lua_Debug ar;
    lua_pushvalue(L, -1);
    if (lua_getinfo(L, ">uS", &ar) && ar.nparams == 1 && !ar.isvararg) {
        const char *param = lua_getlocal(L, NULL, 1); /* (pushes nothing) */
        if (param && names_a_time_step(param))
            fprintf(stderr,
                    "steer: warning: %s:%d: update(%s) has one parameter, but the program calls update(world, dt): "
                    "'%s' will be the world\n",
                    ar.short_src, ar.linedefined, param, param);
    }
    lua_pop(L, 1);
}

/* Runs the scene file, makes the world, calls load(world), reads the scene's keys. Errors are
 * reported (filed under the scene's file); false when one happened. */
static bool read_scene(ScriptHost *host)
{
    lua_State *L = host->L;
    script_files_record(host, "", host->scene_file); /* first: a scene that fails is watched too */
    host->loading_module = "";
    if (script_load_scene(host, host->scene_file) != LUA_OK) {
        script_report_top(host);
        return false;
    }
    if (!script_pcall(host, 0, 1)) return false;
    if (lua_istable(L, -1)) {
        lua_pushvalue(L, -1);
        host->scene_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    bool warn_none = false; /* once the world is made: a scene whose world table fails has that to fix first */
    if (!host->config.tape || !host->config.tape->read) { /* a replayed or rewound load warned live */
        bool misnamed = host->scene_ref != LUA_NOREF && warn_misnamed_callbacks(host, lua_gettop(L));
        script_push_env(host);
        misnamed = warn_misnamed_callbacks(host, lua_gettop(L)) || misnamed;
        lua_pop(L, 1);
        warn_none = !misnamed;
        warn_update_without_world(host);
    }
    lua_pushlightuserdata(L, host);
    lua_pushcclosure(L, make_world, 1);
    lua_insert(L, -2);
    if (!script_pcall(host, 1, 1)) return false;
    host->world = steer_lua_to_world(L, -1);
    if (!host->world) {
        lua_pop(L, 1);
        script_report_error(host, "scene: steer.world did not return a world");
        return false;
    }
    steer_lua_hold_world(L, -1); /* a scene's w:close() would free it under the loop */
    host->world_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    if (host->config.run.physics_hz > 0.0 &&
        steer_world_set_dt(host->world, 1.0 / host->config.run.physics_hz) != STEER_OK) {
        script_report_error(host, steer_world_last_error(host->world));
        return false;
    }
    script_push_world(host);
    if (host->config.run.think_hz >= 0.0) steer_lua_set_think_hz(L, -1, host->config.run.think_hz); /* --think-hz */
    if (warn_none) warn_no_callbacks(host);
    if (!script_callback(host, "load", 1)) return false;
    return script_read_keys(host); /* after load, which may set them */
}

/* A scene that failed to load: keep the world it made (else make a default one) to show behind
 * the error panel, and run nothing of it. False when not even that works. */
static int make_default_world(lua_State *L)
{
    lua_getglobal(L, "require");
    lua_pushliteral(L, "steer");
    lua_call(L, 1, 1);
    lua_getfield(L, -1, "world");
    lua_call(L, 0, 1);
    return 1;
}

static bool keep_failed(ScriptHost *host)
{
    host->failed = true;
    if (host->world) return true;
    lua_State *L = host->L;
    lua_pushcfunction(L, make_default_world);
    if (lua_pcall(L, 0, 1, 0) != LUA_OK || !(host->world = steer_lua_to_world(L, -1))) {
        lua_pop(L, 1);
        return false;
    }
    steer_lua_hold_world(L, -1);
    host->world_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return true;
}

ScriptHost *script_create(const ScriptConfig *config, char *error, size_t error_size)
{
    ScriptHost *host = calloc(1, sizeof *host);
    if (!host) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    host->config = *config;
    host->scene_ref = host->env_ref = host->world_ref = host->gfx_ref = host->traceback_ref = host->patch_ref =
        LUA_NOREF;
    if (config->tape && config->tape->read) { /* a replay: the recorded path, which need not exist here */
        snprintf(host->scene_file, sizeof host->scene_file, "%s", config->scene_path);
    } else if (!realpath(config->scene_path, host->scene_file)) {
        snprintf(error, error_size, "cannot open scene %s: %s", config->scene_path,
                 errno == ENOENT ? "no such file" : strerror(errno));
        free(host);
        return NULL;
    }
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", host->scene_file);
    snprintf(host->scene_dir, sizeof host->scene_dir, "%s", dirname(tmp));
    if (!guard_init(&host->guard, config->run.time_budget_ms, config->run.memory_cap) && !config->quiet)
        fprintf(stderr, "steer: warning: no timer for the script time budget\n");
    host->L = lua_newstate(guard_alloc, &host->guard);
    if (!host->L) {
        snprintf(error, error_size, "cannot create the Lua state (memory cap too small?)");
        free(host);
        return NULL;
    }
    guard_attach(&host->guard, host->L);
    lua_pushcfunction(host->L, setup_state);
    lua_pushlightuserdata(host->L, host);
    if (lua_pcall(host->L, 1, 0, 0) != LUA_OK) {
        snprintf(error, error_size, "cannot set up Lua: %s", lua_tostring(host->L, -1));
        script_destroy(host);
        return NULL;
    }
    /* Setting a big scene up may take longer than a frame: the scene file and load(world) get ten
     * budgets. (Endless loops there are still stopped, only later.) */
    char scene_chunk[4096];
    script_files_chunk_name(host, host->scene_file, scene_chunk, sizeof scene_chunk);
    host->loading = true;
    host->failing_file = scene_chunk; /* whatever fails while it loads, the scene fails to load */
    host->guard.budget_s *= 10.0;
    bool loaded = read_scene(host);
    host->guard.budget_s /= 10.0;
    host->failing_file = NULL;
    host->loading = false;
    host->lua_seconds = 0.0; /* the statistics are per frame: setting up is not a frame */
    if (loaded) return host;
    const char *why = host->file_error_count > 0 ? host->file_errors[0].text : "the scene failed to load";
    snprintf(error, error_size, "%s", why);
    if (config->run.keep_failed > 0 && keep_failed(host)) return host;
    script_destroy(host);
    return NULL;
}

bool script_failed(ScriptHost *host) { return host->failed; }

const char *script_scene_file(ScriptHost *host) { return host->scene_file; }

void script_destroy(ScriptHost *host)
{
    if (!host) return;
    if (host->L) {
        guard_shutdown(&host->guard);
        if (host->world_ref != LUA_NOREF) { /* held until now: its __gc refused to free it */
            lua_rawgeti(host->L, LUA_REGISTRYINDEX, host->world_ref);
            steer_lua_release_world(host->L, -1);
            lua_pop(host->L, 1);
        }
        lua_close(host->L);
    }
    script_hud_clear(host);
    for (int i = 0; i < host->inspector_count; i++) free(host->inspector[i]);
    script_errors_free(host);
    script_brains_free(host);
    script_keys_free(host);
    free(host);
}

lua_State *script_state(ScriptHost *host) { return host->L; }
SteerWorld *script_world(ScriptHost *host) { return host->world; }

void script_push_world(ScriptHost *host) { lua_rawgeti(host->L, LUA_REGISTRYINDEX, host->world_ref); }

void script_push_env(ScriptHost *host) { lua_rawgeti(host->L, LUA_REGISTRYINDEX, host->env_ref); }

void script_push_global(ScriptHost *host, const char *name)
{
    script_push_env(host);
    lua_getfield(host->L, -1, name);
    lua_remove(host->L, -2);
}

int script_load_scene(ScriptHost *host, const char *path)
{
    int status = script_load_file(host, path);
    if (status != LUA_OK) return status;
    script_push_env(host);
    if (!lua_setupvalue(host->L, -2, 1)) lua_pop(host->L, 1); /* a main chunk's first upvalue is _ENV */
    return LUA_OK;
}

void script_think(ScriptHost *host)
{
    if (host->failed) return;
    script_push_world(host); /* a world that never thinks costs no protected call */
    double hz = steer_lua_think_hz(host->L, -1);
    bool events = steer_lua_has_events(host->L, -1); /* (handlers run whatever think_hz is) */
    lua_pop(host->L, 1);
    if (!(hz > 0.0) && !events) return;
    lua_pushlightuserdata(host->L, host);
    lua_pushcclosure(host->L, script_think_pass, 1);
    script_pcall(host, 0, 0);
}

/* In protected mode: the events' array grows with the world (memory may run out). */
static int collect_events(lua_State *L)
{
    ScriptHost *host = lua_touserdata(L, lua_upvalueindex(1));
    script_push_world(host);
    steer_lua_collect_events(L, -1);
    return 0;
}

void script_collect_events(ScriptHost *host)
{
    if (host->failed) return;
    lua_pushlightuserdata(host->L, host);
    lua_pushcclosure(host->L, collect_events, 1);
    script_pcall(host, 0, 0);
}

void script_update(ScriptHost *host, double dt)
{
    script_push_world(host);
    lua_pushnumber(host->L, dt);
    script_callback(host, "update", 2);
}

void script_draw(ScriptHost *host, struct SteerRender *render, unsigned overlays)
{
    script_hud_clear(host);
    host->render = render;
    host->overlays = overlays;
    lua_rawgeti(host->L, LUA_REGISTRYINDEX, host->gfx_ref);
    script_push_world(host);
    script_callback(host, "draw", 2);
    host->render = NULL;
}

void script_keypressed(ScriptHost *host, const char *key)
{
    script_input_hold_key(host, key);
    lua_pushstring(host->L, key);
    script_callback(host, "keypressed", 1);
}

void script_mousepressed(ScriptHost *host, double x, double y, int button)
{
    script_input_hold_button(host, button);
    lua_pushnumber(host->L, x);
    lua_pushnumber(host->L, y);
    lua_pushinteger(host->L, button);
    script_callback(host, "mousepressed", 3);
}

void script_mousemoved(ScriptHost *host, double x, double y)
{
    lua_pushnumber(host->L, x);
    lua_pushnumber(host->L, y);
    script_callback(host, "mousemoved", 2);
}

void script_set_mouse(ScriptHost *host, double x, double y)
{
    host->mouse_x = x;
    host->mouse_y = y;
    host->mouse_known = true;
}

const char *const *script_hud_lines(ScriptHost *host, int *count)
{
    *count = host->hud_count;
    return (const char *const *)host->hud;
}

double script_take_lua_seconds(ScriptHost *host)
{
    double s = host->lua_seconds;
    host->lua_seconds = 0.0;
    return s;
}

size_t script_memory_used(ScriptHost *host) { return host->guard.memory_used; }

void script_set_tape(ScriptHost *host, const ScriptTape *tape) { host->config.tape = tape; }

void script_set_quiet(ScriptHost *host, bool quiet) { host->config.quiet = quiet; }

bool script_quiet(const ScriptHost *host) { return host->config.quiet; }
