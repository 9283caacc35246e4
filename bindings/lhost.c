/* SPDX-License-Identifier: MIT */
/* lhost.c - what a host other than the steer program needs from the module: w:debug_draw{...},
 * the core's debug drawing (the program's overlays) as calls to Lua functions, so that any engine
 * that draws lines and circles (LÖVE's love.graphics, say) shows wander circles, feelers and
 * detection boxes; and steer.file_mtime(path), the one file fact a script needs to reload files on
 * save (plain Lua has no stat), used by steer.hot (scripts/lib/steer/hot.lua). */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "lsteer_internal.h"
#include "steer/steer_debug_draw.h"

/* ---- w:debug_draw{line = f, circle = f, ..., layers = {...}} ------------------------------- */

/// The callbacks a table may give, in the order of their stack slots (DRAW_BASE + i).
static const char *const CALLBACKS[] = {"line", "circle", "solid_circle", "polygon", "solid_polygon", "point"};
enum { CB_LINE, CB_CIRCLE, CB_SOLID_CIRCLE, CB_POLYGON, CB_SOLID_POLYGON, CB_POINT, CB_COUNT };

/// The layer names (a layer is one SteerDebugDrawFlags bit; "world" and "all" are sets).
static const struct {
    const char *name;
    unsigned flags;
} LAYERS[] = {
    {"vehicles", STEER_DEBUG_DRAW_VEHICLES},
    {"obstacles", STEER_DEBUG_DRAW_OBSTACLES},
    {"walls", STEER_DEBUG_DRAW_WALLS},
    {"paths", STEER_DEBUG_DRAW_PATHS},
    {"bounds", STEER_DEBUG_DRAW_BOUNDS},
    {"wander", STEER_DEBUG_DRAW_WANDER},
    {"avoidance", STEER_DEBUG_DRAW_AVOIDANCE},
    {"neighbors", STEER_DEBUG_DRAW_NEIGHBORS},
    {"forces", STEER_DEBUG_DRAW_FORCES},
    {"targets", STEER_DEBUG_DRAW_TARGETS},
    {"flow_fields", STEER_DEBUG_DRAW_FLOW_FIELDS},
    {"world", STEER_DEBUG_DRAW_WORLD},
    {"all", ~0u},
};
#define LAYER_COUNT ((int)(sizeof LAYERS / sizeof LAYERS[0]))

/* The core's drawing runs first and only records the shapes (DrawItem, in buffers that are Lua
 * userdata at two stack slots); the Lua functions are called after it returned. A callback may do
 * anything to the world (spawn, remove, close it): called while the core walked the world's
 * arrays, that freed them under the walk. */

/// One recorded shape: callback cb with up to four numbers (x1, y1, x2, y2 / x, y, r), or a
/// polygon's `count` points from `first` on in the points buffer.
typedef struct DrawItem {
    int cb;
    uint32_t color;
    double a[4];
    int count;
    size_t first;
} DrawItem;

/// What the core's callbacks need: the state, the callbacks' slots and the buffers.
typedef struct DrawCtx {
    lua_State *L;
    int base;        ///< stack slot of CALLBACKS[0]; the others follow
    int items_slot;  ///< stack slot of the DrawItem buffer (a userdata, replaced when it grows)
    int points_slot; ///< stack slot of the SteerVec2 buffer
    DrawItem *items;
    size_t item_count, item_capacity;
    SteerVec2 *points;
    size_t point_count, point_capacity;
} DrawCtx;

/// A buffer at stack slot `slot` holding *capacity elements of `size` bytes, grown to hold `need`
/// (a new userdata in the slot; the old one is garbage). A memory error unwinds through the core's
/// drawing, which only reads.
static void *grow(lua_State *L, int slot, void *old, size_t used, size_t *capacity, size_t need, size_t size)
{
    if (need <= *capacity) return old;
    size_t cap = *capacity ? *capacity : 64;
    while (cap < need) cap *= 2;
    if (cap > ((size_t)-1 >> 2) / size) luaL_error(L, "debug_draw: too many shapes");
    void *p = lua_newuserdatauv(L, cap * size, 0);
    if (used) memcpy(p, old, used * size);
    lua_replace(L, slot);
    *capacity = cap;
    return p;
}

static DrawItem *add_item(DrawCtx *c, int cb, uint32_t color)
{
    c->items =
        grow(c->L, c->items_slot, c->items, c->item_count, &c->item_capacity, c->item_count + 1, sizeof *c->items);
    DrawItem *it = &c->items[c->item_count++];
    memset(it, 0, sizeof *it);
    it->cb = cb;
    it->color = color;
    return it;
}

/// A colour word 0xRRGGBBAA as four numbers in [0, 1], the way love.graphics.setColor takes them.
static void push_color(lua_State *L, uint32_t color)
{
    for (int shift = 24; shift >= 0; shift -= 8) lua_pushnumber(L, (double)((color >> shift) & 0xFF) / 255.0);
}

/* The core passes each shape's layer; the Lua callbacks get the shape and its colour only (the
 * layers a table asks for are chosen with `layers`). */
static void draw_line(SteerVec2 a, SteerVec2 b, uint32_t color, SteerDebugLayer layer, void *context)
{
    (void)layer;
    DrawCtx *c = context;
    if (lua_isnil(c->L, c->base + CB_LINE)) return;
    DrawItem *it = add_item(c, CB_LINE, color);
    it->a[0] = a.x;
    it->a[1] = a.y;
    it->a[2] = b.x;
    it->a[3] = b.y;
}

static void circle(DrawCtx *c, int cb, SteerVec2 center, double radius, uint32_t color)
{
    if (lua_isnil(c->L, c->base + cb)) return;
    DrawItem *it = add_item(c, cb, color);
    it->a[0] = center.x;
    it->a[1] = center.y;
    it->a[2] = radius;
}

static void draw_circle(SteerVec2 center, double radius, uint32_t color, SteerDebugLayer layer, void *context)
{
    (void)layer;
    circle(context, CB_CIRCLE, center, radius, color);
}

static void draw_solid_circle(SteerVec2 center, double radius, uint32_t color, SteerDebugLayer layer, void *context)
{
    (void)layer;
    circle(context, CB_SOLID_CIRCLE, center, radius, color);
}

/// A dot: point(x, y, size in pixels, r, g, b, a).
static void draw_point(SteerVec2 p, double size, uint32_t color, SteerDebugLayer layer, void *context)
{
    (void)layer;
    circle(context, CB_POINT, p, size, color);
}

static void polygon(DrawCtx *c, int cb, const SteerVec2 *points, int count, uint32_t color)
{
    if (lua_isnil(c->L, c->base + cb) || count < 0) return;
    c->points = grow(c->L, c->points_slot, c->points, c->point_count, &c->point_capacity,
                     c->point_count + (size_t)count, sizeof *c->points);
    DrawItem *it = add_item(c, cb, color);
    it->count = count;
    it->first = c->point_count;
    if (count) memcpy(c->points + c->point_count, points, (size_t)count * sizeof *points);
    c->point_count += (size_t)count;
}

static void draw_polygon(const SteerVec2 *points, int count, uint32_t color, SteerDebugLayer layer, void *context)
{
    (void)layer;
    polygon(context, CB_POLYGON, points, count, color);
}

static void draw_solid_polygon(const SteerVec2 *points, int count, uint32_t color, SteerDebugLayer layer, void *context)
{
    (void)layer;
    polygon(context, CB_SOLID_POLYGON, points, count, color);
}

/// Calls the Lua function of every recorded shape, in the order the core drew them. The buffers
/// stay at their slots (a callback cannot reach them), so a callback that changes the world changes
/// nothing here. A polygon's points go as one flat table {x1, y1, x2, y2, ...} (love.graphics.polygon's form).
static void replay_items(DrawCtx *c)
{
    lua_State *L = c->L;
    for (size_t i = 0; i < c->item_count; i++) {
        const DrawItem *it = &c->items[i];
        lua_pushvalue(L, c->base + it->cb);
        int nargs;
        if (it->cb == CB_POLYGON || it->cb == CB_SOLID_POLYGON) {
            lua_createtable(L, 2 * it->count, 0);
            for (int k = 0; k < it->count; k++) {
                lua_pushnumber(L, c->points[it->first + (size_t)k].x);
                lua_rawseti(L, -2, 2 * k + 1);
                lua_pushnumber(L, c->points[it->first + (size_t)k].y);
                lua_rawseti(L, -2, 2 * k + 2);
            }
            nargs = 5;
        } else {
            int n = it->cb == CB_LINE ? 4 : 3;
            for (int k = 0; k < n; k++) lua_pushnumber(L, it->a[k]);
            nargs = n + 4;
        }
        push_color(L, it->color);
        lua_call(L, nargs, 0);
    }
}

/// The layers option at idx (an array of names, or a single name): flags, or an argument error.
static unsigned check_layers(lua_State *L, int idx)
{
    if (lua_isnil(L, idx)) return STEER_DEBUG_DRAW_WORLD | STEER_DEBUG_DRAW_WANDER | STEER_DEBUG_DRAW_AVOIDANCE;
    const char *names[LAYER_COUNT];
    for (int i = 0; i < LAYER_COUNT; i++) names[i] = LAYERS[i].name;
    int n = lua_istable(L, idx) ? (int)lua_rawlen(L, idx) : 1;
    if (!lua_istable(L, idx) && lua_type(L, idx) != LUA_TSTRING)
        lsteer_option_error(L, idx, "layers",
                            lua_pushfstring(L, "table or string expected, got %s", luaL_typename(L, idx)));
    unsigned flags = 0;
    for (int i = 1; i <= n; i++) {
        if (lua_istable(L, idx))
            lua_rawgeti(L, idx, i);
        else
            lua_pushvalue(L, idx);
        const char *name = lua_tostring(L, -1);
        if (lua_type(L, -1) != LUA_TSTRING)
            lsteer_option_error(L, idx, "layers",
                                lua_pushfstring(L, "layer name expected, got %s", luaL_typename(L, -1)));
        int k = 0;
        while (k < LAYER_COUNT && strcmp(LAYERS[k].name, name) != 0) k++;
        if (k == LAYER_COUNT) {
            lsteer_unknown_error(L, "layer", name, " for debug_draw", names, LAYER_COUNT); /* raises */
            return 0;
        }
        flags |= LAYERS[k].flags;
        lua_pop(L, 1);
    }
    return flags;
}

/// w:debug_draw{line = f, circle = f, solid_circle = f, polygon = f, solid_polygon = f,
/// point = f, layers = {...}}: the world as those calls, in world coordinates, each with the
/// colour as r, g, b, a in [0, 1]. A callback not given is skipped. Returns the world.
static int world_debug_draw(lua_State *L)
{
    LWorld *w = lsteer_check_world(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    /* every key must be known (a misspelt callback would draw nothing, silently) */
    const char *keys[CB_COUNT + 1];
    for (int i = 0; i < CB_COUNT; i++) keys[i] = CALLBACKS[i];
    keys[CB_COUNT] = "layers";
    lua_pushnil(L);
    while (lua_next(L, 2)) {
        lua_pop(L, 1);
        const char *key = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        int k = 0;
        while (key && k <= CB_COUNT && strcmp(keys[k], key) != 0) k++;
        if (!key) lsteer_option_error(L, 2, "?", "option names are strings");
        if (k > CB_COUNT) lsteer_unknown_error(L, "option", key, " for debug_draw", keys, CB_COUNT + 1);
    }
    int base = lua_gettop(L) + 1;
    luaL_checkstack(L, CB_COUNT + 20, "debug_draw");
    for (int i = 0; i < CB_COUNT; i++) {
        lsteer_rawfield(L, 2, CALLBACKS[i]);
        if (!lua_isnil(L, -1) && !lua_isfunction(L, -1))
            lsteer_option_error(L, 2, CALLBACKS[i],
                                lua_pushfstring(L, "function expected, got %s", luaL_typename(L, -1)));
    }
    lsteer_rawfield(L, 2, "layers");
    unsigned flags = check_layers(L, lua_gettop(L));
    lua_pushnil(L); /* the items buffer */
    lua_pushnil(L); /* the points buffer */
    DrawCtx ctx = {.L = L, .base = base, .items_slot = lua_gettop(L) - 1, .points_slot = lua_gettop(L)};
    SteerDebugDraw d = steer_default_debug_draw();
    d.draw_segment = draw_line;
    d.draw_circle = draw_circle;
    d.draw_solid_circle = draw_solid_circle;
    d.draw_polygon = draw_polygon;
    d.draw_solid_polygon = draw_solid_polygon;
    d.draw_point = draw_point;
    d.flags = flags;
    d.context = &ctx;
    steer_world_debug_draw(w->world, &d); /* reads only: a memory error unwinds through it */
    replay_items(&ctx);
    lua_settop(L, 1);
    return 1;
}

/* ---- steer.file_mtime(path) ---------------------------------------------------------------- */

/// steer.file_mtime(path) -> seconds since the epoch (with the nanoseconds as a fraction), size in
/// bytes, and what the path is ("file", "folder", "fifo", "device", "socket" or "other": a reader
/// such as steer.hot opens only a file, since opening a FIFO blocks); or nil and the system's
/// message when the file cannot be stat'ed.
static int file_mtime(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TSTRING); /* a number is no path, though Lua would turn it into one */
    const char *path = lua_tostring(L, 1);
    struct stat st;
    if (stat(path, &st) != 0) {
        lua_pushnil(L);
        lua_pushfstring(L, "%s: %s", path, strerror(errno));
        return 2;
    }
    lua_pushnumber(L, (double)st.st_mtim.tv_sec + (double)st.st_mtim.tv_nsec * 1e-9);
    lua_pushinteger(L, (lua_Integer)st.st_size);
    lua_pushstring(L, S_ISREG(st.st_mode)                          ? "file"
                      : S_ISDIR(st.st_mode)                        ? "folder"
                      : S_ISFIFO(st.st_mode)                       ? "fifo"
                      : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "device"
                      : S_ISSOCK(st.st_mode)                       ? "socket"
                                                                   : "other");
    return 3;
}

int lsteer_world_debug_draw(lua_State *L) { return world_debug_draw(L); }
int lsteer_file_mtime(lua_State *L) { return file_mtime(L); }
