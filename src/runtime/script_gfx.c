/* SPDX-License-Identifier: MIT */
/* script_gfx.c - what a scene draws with: the gfx table passed to draw(gfx, world) (world-space
 * lines, circles, text through the renderer; gfx.hud lines for the HUD), steer.mouse(), and the
 * colours of the world's kinds by name. */
#include "script_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "keys.h"
#include "render.h"
#include "steer_lua.h"

static ScriptHost *host_of(lua_State *L) { return lua_touserdata(L, lua_upvalueindex(1)); }

static double check_finite(lua_State *L, int arg)
{
    double v = luaL_checknumber(L, arg);
    if (!isfinite(v)) luaL_argerror(L, arg, "finite number expected");
    return v;
}

static Uint8 color_part(lua_State *L, int arg, int table, int i, lua_Integer fallback)
{
    lua_Integer v = fallback;
    if (lua_rawgeti(L, table, i) != LUA_TNIL) {
        int ok;
        double d = lua_tonumberx(L, -1, &ok);
        if (!ok || !(d >= 0 && d <= 255)) luaL_argerror(L, arg, "color {r, g, b[, a]} with parts 0-255 expected");
        v = (lua_Integer)d;
    } else if (i <= 3) {
        luaL_argerror(L, arg, "color {r, g, b[, a]} expected");
    }
    lua_pop(L, 1);
    return (Uint8)v;
}

/* An optional colour argument {r, g, b[, a]}, 0-255; white when absent. */
static SDL_Color opt_color(lua_State *L, int arg)
{
    SDL_Color c = {255, 255, 255, 255};
    if (lua_isnoneornil(L, arg)) return c;
    if (!lua_istable(L, arg)) luaL_typeerror(L, arg, "color {r, g, b[, a]}");
    c.r = color_part(L, arg, arg, 1, 0);
    c.g = color_part(L, arg, arg, 2, 0);
    c.b = color_part(L, arg, arg, 3, 0);
    c.a = color_part(L, arg, arg, 4, 255);
    return c;
}

static int gfx_line(lua_State *L)
{
    ScriptHost *host = host_of(L);
    double x1 = check_finite(L, 1), y1 = check_finite(L, 2), x2 = check_finite(L, 3), y2 = check_finite(L, 4);
    SDL_Color c = opt_color(L, 5);
    if (host->render) steer_render_line(host->render, x1, y1, x2, y2, c);
    return 0;
}

static int gfx_circle(lua_State *L)
{
    ScriptHost *host = host_of(L);
    double x = check_finite(L, 1), y = check_finite(L, 2), r = check_finite(L, 3);
    if (r < 0) luaL_argerror(L, 3, "radius >= 0 expected");
    SDL_Color c = opt_color(L, 4);
    bool fill = lua_toboolean(L, 5);
    if (host->render) steer_render_circle(host->render, x, y, r, c, fill);
    return 0;
}

/// gfx.text(x, y, s[, color[, align]]): on a backing panel; align "center" centres the block on x.
static int gfx_text(lua_State *L)
{
    ScriptHost *host = host_of(L);
    double x = check_finite(L, 1), y = check_finite(L, 2);
    luaL_checkany(L, 3);           /* any value shows as tostring shows it, but a forgotten one is a mistake */
    SDL_Color c = opt_color(L, 4); /* before luaL_tolstring pushes its string, which index 4 would then be */
    static const char *const aligns[] = {"left", "center", NULL};
    bool centered = luaL_checkoption(L, 5, "left", aligns) == 1;
    const char *s = luaL_tolstring(L, 3, NULL);
    if (host->render) steer_render_text_panel_at(host->render, x, y, s, c, centered);
    return 0;
}

static int gfx_hud(lua_State *L)
{
    ScriptHost *host = host_of(L);
    luaL_checkany(L, 1);
    const char *s = luaL_tolstring(L, 1, NULL);
    if (host->hud_count < SCRIPT_MAX_HUD_LINES) {
        char *copy = strdup(s);
        if (!copy) return luaL_error(L, "out of memory");
        host->hud[host->hud_count++] = copy;
    }
    return 0;
}

/// gfx.overlay(name) -> whether that overlay is on (its --overlays name: "states", "forces", ...),
/// so that a scene can leave out what the overlay already draws (its own state labels, say).
static int gfx_overlay(lua_State *L)
{
    size_t len;
    const char *name = luaL_checklstring(L, 1, &len);
    const KeyBinding *binding = keys_for_overlay_name(name, len);
    if (!binding || strlen(name) != len) {
        const char *names[16];
        int count = keys_overlay_names(names, 16);
        const char *hint = steer_lua_suggest(name, names, count < 16 ? count : 16); /* as --overlays does */
        if (hint)
            return luaL_argerror(L, 1, lua_pushfstring(L, "unknown overlay '%s' (did you mean '%s'?)", name, hint));
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        lua_pushfstring(L, "unknown overlay '%s' (overlays:", name);
        luaL_addvalue(&b);
        for (int i = 0; i < count; i++) {
            luaL_addstring(&b, i ? ", " : " ");
            luaL_addstring(&b, names[i]);
        }
        luaL_addchar(&b, ')');
        luaL_pushresult(&b);
        return luaL_argerror(L, 1, lua_tostring(L, -1));
    }
    lua_pushboolean(L, (host_of(L)->overlays & binding->overlay) != 0);
    return 1;
}

void script_hud_clear(ScriptHost *host)
{
    for (int i = 0; i < host->hud_count; i++) free(host->hud[i]);
    host->hud_count = 0;
}

/* gfx's __index: a name it does not have (gfx.rect, or LÖVE's gfx.print) is an error that says what
 * gfx has, as the module's handles do, instead of "attempt to call a nil value (field 'rect')". */
static int gfx_unknown(lua_State *L)
{
    /* The whole list, no did-you-mean: five short names are read at a glance, and two edits would
     * turn a LÖVE habit like gfx.rect into a wrong hint ('text'). */
    if (lua_type(L, 2) != LUA_TSTRING) return luaL_error(L, "gfx has no field of type %s", luaL_typename(L, 2));
    return luaL_error(L, "unknown field '%s' of gfx (known: circle, hud, line, overlay, text)", lua_tostring(L, 2));
}

void script_gfx_open(ScriptHost *host)
{
    static const luaL_Reg fns[] = {{"line", gfx_line}, {"circle", gfx_circle},   {"text", gfx_text},
                                   {"hud", gfx_hud},   {"overlay", gfx_overlay}, {NULL, NULL}};
    lua_newtable(host->L);
    lua_pushlightuserdata(host->L, host);
    luaL_setfuncs(host->L, fns, 1);
    lua_createtable(host->L, 0, 1);
    lua_pushcfunction(host->L, gfx_unknown);
    lua_setfield(host->L, -2, "__index");
    lua_setmetatable(host->L, -2);
}

const uint32_t *script_kind_colors(ScriptHost *host, int *count)
{
    lua_State *L = host->L;
    script_push_world(host);
    int world = lua_gettop(L);
    while (host->kind_color_count < SCRIPT_MAX_KINDS) { /* colour the kinds spawned since last time */
        const char *name = steer_lua_kind_name(L, world, (uint32_t)host->kind_color_count);
        if (!name) break;
        host->kind_colors[host->kind_color_count++] = steer_render_name_color(name);
    }
    lua_pop(L, 1);
    *count = host->kind_color_count;
    return host->kind_colors;
}

/// steer.mouse() -> x, y in world coordinates, or nil while no pointer event has told where it is
/// (before the mouse first moves over the window, and always when headless).
static int steer_mouse(lua_State *L)
{
    ScriptHost *host = host_of(L);
    if (!host->mouse_known) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushnumber(L, host->mouse_x);
    lua_pushnumber(L, host->mouse_y);
    return 2;
}

int script_open_steer(lua_State *L)
{
    ScriptHost *host = host_of(L);
    lua_pushcfunction(L, luaopen_steer);
    lua_call(L, 0, 1);
    lua_pushlightuserdata(L, host);
    lua_pushcclosure(L, steer_mouse, 1);
    lua_setfield(L, -2, "mouse");
    script_input_open(host, L);
    script_sound_open(host, L);
    return 1;
}
