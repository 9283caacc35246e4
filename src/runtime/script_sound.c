/* SPDX-License-Identifier: MIT */
/* script_sound.c - steer.sound: effects a scene makes once from a few numbers and plays on its
 * events, as LÖVE's sources are made once and played (docs/lua-api.md#sound).
 *
 *   local catch = steer.sound.new{wave = "square", freq = 660, to = 1320, duration = 0.12}
 *   catch:play()   -- or steer.sound.play(catch), catch:play(0.5) at half its volume
 *
 * An effect is synthesised when it is made (sound.c) and kept in its userdata; a play hands its
 * samples to the program (ScriptConfig.sound), which mixes them in at once, so nothing refers to
 * the effect afterwards. A quiet host (a replay in the background) and a program without sound
 * play nothing, with the same checks of their arguments: a scene runs the same either way, and no
 * sound ever changes what the simulation does. */
#include "script_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>

#include "sound.h"
#include "steer_lua.h"

#define SOUND_MT "steer.Sound"

typedef struct LuaSound {
    SoundWave wave;
    double duration;
    int count;
    float samples[]; ///< count samples at SOUND_RATE
} LuaSound;

static const char *const OPTIONS[] = {"wave", "freq", "to", "duration", "volume", "attack", "notes", "seed"};
enum { OPTION_COUNT = (int)(sizeof OPTIONS / sizeof OPTIONS[0]) };

static ScriptHost *host_of(lua_State *L) { return lua_touserdata(L, lua_upvalueindex(1)); }

/// Option `name` of the table at 1 as a number in lo..hi, or `fallback` when absent.
static double number_option(lua_State *L, const char *name, double lo, double hi, double fallback)
{
    int type = lua_getfield(L, 1, name);
    double v = fallback;
    if (type != LUA_TNIL) {
        if (type != LUA_TNUMBER)
            luaL_error(L, "steer.sound.new: option '%s' must be a number (got %s)", name, luaL_typename(L, -1));
        v = lua_tonumber(L, -1);
        if (!isfinite(v) || v < lo || v > hi) {
            char text[160];
            snprintf(text, sizeof text, "steer.sound.new: option '%s' must be from %g to %g (got %g)", name, lo, hi, v);
            luaL_error(L, "%s", text);
        }
    }
    lua_pop(L, 1);
    return v;
}

/// steer.sound.new{wave =, freq =, to =, duration =, volume =, attack =, notes =, seed =} -> an effect
static int sound_new(lua_State *L)
{
    if (!lua_istable(L, 1))
        return luaL_error(L, "steer.sound.new: a table of options expected (got %s)", luaL_typename(L, 1));
    lua_pushnil(L);
    while (lua_next(L, 1)) { /* every key a known option */
        lua_pop(L, 1);
        const char *key = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        bool known = false;
        for (int i = 0; key && i < OPTION_COUNT; i++) known = known || !strcmp(key, OPTIONS[i]);
        if (known) continue;
        if (!key) return luaL_error(L, "steer.sound.new: option names are strings (got a %s)", luaL_typename(L, -1));
        const char *hint = steer_lua_suggest(key, OPTIONS, OPTION_COUNT);
        if (hint) return luaL_error(L, "steer.sound.new: unknown option '%s' (did you mean '%s'?)", key, hint);
        return luaL_error(L,
                          "steer.sound.new: unknown option '%s' (options: wave, freq, to, duration, volume, attack, "
                          "notes, seed)",
                          key);
    }
    SoundSpec spec = {0};
    spec.wave = SOUND_SQUARE;
    if (lua_getfield(L, 1, "wave") != LUA_TNIL) {
        const char *name = lua_tostring(L, -1);
        if (lua_type(L, -1) != LUA_TSTRING || !sound_wave_from_name(name, &spec.wave))
            return luaL_error(L,
                              "steer.sound.new: option 'wave' must be \"sine\", \"square\", \"triangle\", \"saw\" "
                              "or \"noise\" (got %s)",
                              lua_type(L, -1) == LUA_TSTRING ? name : luaL_typename(L, -1));
    }
    lua_pop(L, 1);
    spec.freq = number_option(L, "freq", 20.0, 12000.0, 440.0);
    spec.to = number_option(L, "to", 20.0, 12000.0, spec.freq);
    spec.duration = number_option(L, "duration", 0.01, SOUND_MAX_SECONDS, 0.2);
    spec.volume = number_option(L, "volume", 0.0, 1.0, 0.5);
    spec.attack = number_option(L, "attack", 0.0, SOUND_MAX_SECONDS, 0.005);
    spec.seed = (unsigned)number_option(L, "seed", 0.0, 4294967295.0, 1.0);
    if (lua_getfield(L, 1, "notes") != LUA_TNIL) {
        if (!lua_istable(L, -1))
            return luaL_error(L, "steer.sound.new: option 'notes' must be a list of pitches in Hz (got %s)",
                              luaL_typename(L, -1));
        int n = (int)lua_rawlen(L, -1);
        if (n < 1 || n > SOUND_MAX_NOTES)
            return luaL_error(L, "steer.sound.new: option 'notes' must list 1 to %d pitches (got %d)", SOUND_MAX_NOTES,
                              n);
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            double f = lua_tonumber(L, -1);
            if (!lua_isnumber(L, -1) || !isfinite(f) || f < 20.0 || f > 12000.0)
                return luaL_error(L, "steer.sound.new: notes[%d] must be a pitch from 20 to 12000 Hz", i);
            spec.notes[i - 1] = f;
            lua_pop(L, 1);
        }
        spec.note_count = n;
    }
    lua_pop(L, 1);
    int count = sound_sample_count(&spec);
    LuaSound *s = lua_newuserdatauv(L, sizeof *s + (size_t)count * sizeof s->samples[0], 0);
    s->wave = spec.wave;
    s->duration = spec.duration;
    s->count = count;
    sound_synth(&spec, s->samples);
    luaL_setmetatable(L, SOUND_MT);
    return 1;
}

/// steer.sound.play(effect [, volume]) and effect:play([volume]): heard at the next frame.
static int sound_play_lua(lua_State *L)
{
    ScriptHost *host = host_of(L);
    LuaSound *s = luaL_testudata(L, 1, SOUND_MT);
    if (!s)
        return luaL_error(L, "steer.sound.play: an effect from steer.sound.new expected (got %s)", luaL_typename(L, 1));
    double volume = 1.0;
    if (!lua_isnoneornil(L, 2)) {
        volume = lua_tonumber(L, 2);
        if (!lua_isnumber(L, 2) || !isfinite(volume) || volume < 0.0 || volume > 1.0)
            return luaL_error(L, "steer.sound.play: the volume must be a number from 0 to 1 (got %s)",
                              lua_isnumber(L, 2) ? lua_tostring(L, 2) : luaL_typename(L, 2));
    }
    if (!host->config.quiet && host->config.sound)
        host->config.sound(host->config.sound_ctx, s->samples, s->count, (float)volume);
    return 0;
}

static int sound_tostring(lua_State *L)
{
    LuaSound *s = luaL_checkudata(L, 1, SOUND_MT);
    static const char *const names[] = {"sine", "square", "triangle", "saw", "noise"};
    lua_pushfstring(L, "steer.Sound (%s, %d ms)", names[s->wave], (int)lround(s->duration * 1000.0));
    return 1;
}

static int sound_duration(lua_State *L)
{
    lua_pushnumber(L, ((LuaSound *)luaL_checkudata(L, 1, SOUND_MT))->duration);
    return 1;
}

void script_sound_open(ScriptHost *host, lua_State *L)
{
    /* the effects' metatable: play and duration as methods */
    luaL_newmetatable(L, SOUND_MT);
    lua_newtable(L);
    lua_pushlightuserdata(L, host);
    lua_pushcclosure(L, sound_play_lua, 1);
    lua_setfield(L, -2, "play");
    lua_pushcfunction(L, sound_duration);
    lua_setfield(L, -2, "duration");
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, sound_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushliteral(L, SOUND_MT);
    lua_setfield(L, -2, "__name");
    lua_pop(L, 1);
    /* steer.sound */
    lua_newtable(L);
    lua_pushcfunction(L, sound_new);
    lua_setfield(L, -2, "new");
    lua_pushlightuserdata(L, host);
    lua_pushcclosure(L, sound_play_lua, 1);
    lua_setfield(L, -2, "play");
    lua_setfield(L, -2, "sound");
}
