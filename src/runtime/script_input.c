/* SPDX-License-Identifier: MIT */
/* script_input.c - what a scene needs to be a game's input loop: the keys and mouse buttons it
 * holds (it heard their press and not yet their release), steer.keyboard.is_down(...) on them,
 * keyreleased / mousereleased, key repeat on request, and the global `arg` (the command line's
 * words after `--`). What is held is derived from the callbacks the scene heard, which a recording
 * holds one by one: a replay or a rewound host holds exactly what the recorded run held, and a
 * headless run, which hears no input, holds nothing. */
#include "script_internal.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <lauxlib.h>

static ScriptHost *host_of(lua_State *L) { return lua_touserdata(L, lua_upvalueindex(1)); }

static int find_key(const ScriptHost *host, const char *key)
{
    for (int i = 0; i < host->held_key_count; i++)
        if (!strcmp(host->held_keys[i], key)) return i;
    return -1;
}

void script_input_hold_key(ScriptHost *host, const char *key)
{
    if (find_key(host, key) >= 0 || host->held_key_count >= SCRIPT_MAX_HELD_KEYS) return;
    if (strlen(key) >= SCRIPT_KEY_NAME_SIZE) return; /* (no key name is that long) */
    int i = host->held_key_count++;
    snprintf(host->held_keys[i], sizeof host->held_keys[i], "%s", key);
    host->held_key_list[i] = host->held_keys[i];
}

void script_input_hold_button(ScriptHost *host, int button)
{
    if (button >= 1 && button <= 32) host->held_buttons |= 1u << (button - 1);
}

bool script_key_held(ScriptHost *host, const char *key) { return find_key(host, key) >= 0; }

bool script_button_held(ScriptHost *host, int button)
{
    return button >= 1 && button <= 32 && (host->held_buttons & (1u << (button - 1)));
}

int script_held_keys(ScriptHost *host, const char *const **keys)
{
    *keys = host->held_key_list;
    return host->held_key_count;
}

bool script_key_repeat(ScriptHost *host) { return host->key_repeat; }

bool script_keyreleased(ScriptHost *host, const char *key)
{
    int i = find_key(host, key);
    if (i < 0) return false; /* a release without its press (a runtime's key, a press before a restart) */
    host->held_key_count--;
    for (; i < host->held_key_count; i++) { /* (keep the order: the list is what is held, oldest first) */
        memcpy(host->held_keys[i], host->held_keys[i + 1], sizeof host->held_keys[i]);
        host->held_key_list[i] = host->held_keys[i];
    }
    lua_pushstring(host->L, key);
    script_callback(host, "keyreleased", 1);
    return true;
}

bool script_mousereleased(ScriptHost *host, double x, double y, int button)
{
    if (!script_button_held(host, button)) return false;
    host->held_buttons &= ~(1u << (button - 1));
    lua_pushnumber(host->L, x);
    lua_pushnumber(host->L, y);
    lua_pushinteger(host->L, button);
    script_callback(host, "mousereleased", 3);
    return true;
}

/* luaL_argerror's message, naming the function as its table does: a call through pcall or a local
 * leaves Lua no name to find ('?'). */
static int arg_error(lua_State *L, int arg, const char *function, const char *why)
{
    return luaL_error(L, "bad argument #%d to '%s' (%s)", arg, function, why);
}

/* Whether the scene lists `name` in its `keys` (any case), which takes a key of the program's. */
static bool scene_lists(const ScriptHost *host, const char *name)
{
    for (int i = 0; i < host->key_count; i++)
        if (!strcasecmp(host->keys[i].key, name)) return true;
    return false;
}

/* is_down on a key the program keeps for itself answers false for ever: say why, once per key (the
 * live run's: a replayed or rewound host said it when it ran). */
static void warn_program_key(lua_State *L, ScriptHost *host, const char *name)
{
    bool movable = false;
    const char *program = host->config.program_key ? host->config.program_key(name, &movable) : NULL;
    if (!program || (movable && scene_lists(host, name))) return;
    if (host->config.tape && host->config.tape->read) return;
    for (int i = 0; i < host->warned_key_count; i++)
        if (!strcmp(host->warned_keys[i], name)) return;
    if (host->warned_key_count < (int)(sizeof host->warned_keys / sizeof host->warned_keys[0]))
        snprintf(host->warned_keys[host->warned_key_count++], sizeof host->warned_keys[0], "%s", name);
    luaL_where(L, 1);
    if (movable)
        fprintf(stderr,
                "steer: warning: %ssteer.keyboard.is_down('%s'): %s is the program's key, so the scene never holds "
                "it; list it in the scene's keys ({\"%s\", \"...\"}) to take it (the program's binding moves to its "
                "alternative)\n",
                lua_tostring(L, -1), name, program, name);
    else
        fprintf(stderr,
                "steer: warning: %ssteer.keyboard.is_down('%s'): %s is the program's key: the scene never gets it\n",
                lua_tostring(L, -1), name, program);
    lua_pop(L, 1);
}

/// steer.keyboard.is_down(key, ...) -> true when the scene holds any of the keys named (LÖVE's
/// love.keyboard.isDown). Each name must be one the program reports (keypressed's names).
static int keyboard_is_down(lua_State *L)
{
    ScriptHost *host = host_of(L);
    int n = lua_gettop(L);
    if (n == 0) return arg_error(L, 1, "is_down", "key name expected (\"left\", \"a\", \"space\", ...), got no value");
    bool down = false;
    for (int i = 1; i <= n; i++) {
        if (lua_type(L, i) != LUA_TSTRING)
            return arg_error(
                L, i, "is_down",
                lua_pushfstring(L, "key name (a string such as \"left\") expected, got %s", luaL_typename(L, i)));
        const char *name = lua_tostring(L, i);
        if (find_key(host, name) >= 0) {
            down = true;
            continue; /* (the other names are still checked: a misspelt one is an error whatever is held) */
        }
        char hint[SCRIPT_KEY_NAME_SIZE] = "";
        warn_program_key(L, host, name);
        if (host->config.key_known && !host->config.key_known(name, hint, sizeof hint)) {
            if (hint[0])
                return arg_error(L, i, "is_down",
                                 lua_pushfstring(L, "unknown key '%s' (did you mean '%s'?)", name, hint));
            return arg_error(L, i, "is_down",
                             lua_pushfstring(L,
                                             "unknown key '%s' (keypressed's names: \"a\", \"left\", "
                                             "\"space\", \"lshift\", \"f10\", \"kp1\", ...)",
                                             name));
        }
    }
    lua_pushboolean(L, down);
    return 1;
}

/// steer.keyboard.set_key_repeat(on): whether a key held down sends keypressed again at the
/// keyboard's repeat rate (off by default, as in LÖVE).
static int keyboard_set_key_repeat(lua_State *L)
{
    if (lua_type(L, 1) != LUA_TBOOLEAN)
        return arg_error(L, 1, "set_key_repeat", lua_pushfstring(L, "boolean expected, got %s", luaL_typename(L, 1)));
    host_of(L)->key_repeat = lua_toboolean(L, 1);
    return 0;
}

static int keyboard_has_key_repeat(lua_State *L)
{
    lua_pushboolean(L, host_of(L)->key_repeat);
    return 1;
}

void script_input_open(ScriptHost *host, lua_State *L)
{
    static const luaL_Reg FUNCS[] = {{"is_down", keyboard_is_down},
                                     {"set_key_repeat", keyboard_set_key_repeat},
                                     {"has_key_repeat", keyboard_has_key_repeat},
                                     {NULL, NULL}};
    lua_newtable(L);
    lua_pushlightuserdata(L, host);
    luaL_setfuncs(L, FUNCS, 1);
    lua_setfield(L, -2, "keyboard");
}

void script_input_set_arg(ScriptHost *host)
{
    lua_State *L = host->L;
    if (!host->config.arg0) return;
    lua_createtable(L, host->config.word_count, 1);
    lua_pushstring(L, host->config.arg0);
    lua_rawseti(L, -2, 0);
    for (int i = 0; i < host->config.word_count; i++) {
        lua_pushstring(L, host->config.words[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setglobal(L, "arg");
}
