/* SPDX-License-Identifier: MIT */
/* lshapes.c - handles of the world's static shapes: steer.Obstacle (circle), steer.Wall (segment),
 * steer.Path (polyline) and steer.FlowField (grid of directions). Each has :remove() and
 * :alive(); using a removed one is an error, as for vehicles. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lsteer_internal.h"

static const char *const SHAPE_MT[] = {OBSTACLE_MT, WALL_MT, PATH_MT, FLOW_FIELD_MT};
static const char *const SHAPE_NAME[] = {"obstacle", "wall", "path", "flow field"};

/* A handle keeps its id packed (one field for every shape type); each type converts with its own
 * helpers from steer.h, chosen by the id's type. */
#define AS_ID(Type, packed)                                                                                            \
    _Generic((Type){0}, SteerObstacleId                                                                                \
             : steer_obstacle_id_unpack, SteerWallId                                                                   \
             : steer_wall_id_unpack, SteerPathId                                                                       \
             : steer_path_id_unpack, SteerFlowFieldId                                                                  \
             : steer_flow_field_id_unpack)(packed)
#define PACK(id)                                                                                                       \
    _Generic((id), SteerObstacleId                                                                                     \
             : steer_obstacle_id_pack, SteerWallId                                                                     \
             : steer_wall_id_pack, SteerPathId                                                                         \
             : steer_path_id_pack, SteerFlowFieldId                                                                    \
             : steer_flow_field_id_pack)(id)

/// The shape's slot number, which messages and tostring show.
static int shape_number(const LShape *s)
{
    switch (s->type) {
    case SHAPE_OBSTACLE: return (int)AS_ID(SteerObstacleId, s->packed).index1;
    case SHAPE_WALL: return (int)AS_ID(SteerWallId, s->packed).index1;
    case SHAPE_PATH: return (int)AS_ID(SteerPathId, s->packed).index1;
    case SHAPE_FLOW_FIELD: return (int)AS_ID(SteerFlowFieldId, s->packed).index1;
    }
    return 0;
}

static bool shape_alive(const LShape *s)
{
    SteerWorld *world = s->owner->world;
    if (!world) return false;
    switch (s->type) {
    case SHAPE_OBSTACLE: return steer_obstacle_get(world, AS_ID(SteerObstacleId, s->packed), NULL, NULL);
    case SHAPE_WALL: return steer_wall_get(world, AS_ID(SteerWallId, s->packed), NULL, NULL, NULL);
    case SHAPE_PATH: return steer_path_get(world, AS_ID(SteerPathId, s->packed), NULL, 0, NULL) > 0;
    case SHAPE_FLOW_FIELD: return steer_flow_field_get(world, AS_ID(SteerFlowFieldId, s->packed), NULL);
    }
    return false;
}

static void push_cache_key(lua_State *L, LShapeType type, uint64_t packed)
{
    lua_pushfstring(L, "%d:%I", (int)type, (lua_Integer)packed);
}

static LShape *new_shape(lua_State *L, int world_idx, LShapeType type, uint64_t packed)
{
    world_idx = lua_absindex(L, world_idx);
    LShape *s = lua_newuserdatauv(L, sizeof *s, 1);
    memset(s, 0, sizeof *s);
    s->tag = LSTEER_SHAPE_TAG + (uint64_t)type;
    s->type = type;
    s->packed = packed;
    s->owner = lua_touserdata(L, world_idx);
    s->world_serial = s->owner->serial;
    luaL_setmetatable(L, SHAPE_MT[type]);
    lua_pushvalue(L, world_idx);
    lua_setiuservalue(L, -2, 1);
    lsteer_push_uv(L, world_idx, UV_SHAPES);
    push_cache_key(L, type, packed);
    lua_pushvalue(L, -3);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    return s;
}

/// new_shape in a protected call: (world, type, packed) -> the handle.
static int new_shape_protected(lua_State *L)
{
    new_shape(L, 1, (LShapeType)lua_tointeger(L, 2), (uint64_t)(uintptr_t)lua_touserdata(L, 3));
    return 1;
}

/// Pushes the handle of a shape the core has just added to the world at index 1. Making it
/// allocates; when memory runs out the shape is removed again, so that a failed call changes
/// nothing (new_shape's last allocation is the cache entry: a failure leaves none).
static void push_new_shape(lua_State *L, LShapeType type, uint64_t packed)
{
    lua_pushcfunction(L, new_shape_protected);
    lua_pushvalue(L, 1);
    lua_pushinteger(L, (lua_Integer)type);
    lua_pushlightuserdata(L, (void *)(uintptr_t)packed); /* 64 bits, which a LuaJIT number cannot hold */
    if (lua_pcall(L, 3, 1, 0) == LUA_OK) return;
    SteerWorld *world = ((LWorld *)lua_touserdata(L, 1))->world;
    switch (type) {
    case SHAPE_OBSTACLE: steer_world_remove_obstacle(world, AS_ID(SteerObstacleId, packed)); break;
    case SHAPE_WALL: steer_world_remove_wall(world, AS_ID(SteerWallId, packed)); break;
    case SHAPE_PATH: steer_world_remove_path(world, AS_ID(SteerPathId, packed)); break;
    case SHAPE_FLOW_FIELD: steer_world_remove_flow_field(world, AS_ID(SteerFlowFieldId, packed)); break;
    }
    lua_error(L);
}

void lsteer_push_shape(lua_State *L, int world_idx, LShapeType type, uint64_t packed)
{
    world_idx = lua_absindex(L, world_idx);
    lsteer_push_uv(L, world_idx, UV_SHAPES);
    push_cache_key(L, type, packed);
    lua_rawget(L, -2);
    lua_remove(L, -2);
    if (!lua_isnil(L, -1) && !shape_alive(lua_touserdata(L, -1))) {
        lua_pop(L, 1);
        lua_pushnil(L);
    }
}

LShape *lsteer_check_shape(lua_State *L, int idx, LShapeType type)
{
    LShape *s = lsteer_check_udata(L, idx, SHAPE_MT[type]);
    if (shape_alive(s)) return s;
    const char *what = lua_pushfstring(L, "%s #%d was removed", SHAPE_NAME[type], shape_number(s));
    if (idx == 1) luaL_error(L, "%s", what); /* self: like a removed vehicle */
    luaL_argerror(L, idx, what);
    return s;
}

static LShape *check_own_shape(lua_State *L, int idx, LShapeType type, const LWorld *owner)
{
    LShape *s = lsteer_check_shape(L, idx, type);
    if (s->owner != owner) luaL_argerror(L, idx, lua_pushfstring(L, "%s of another world", SHAPE_NAME[type]));
    return s;
}

SteerPathId lsteer_check_path(lua_State *L, int idx, const LWorld *owner)
{
    return AS_ID(SteerPathId, check_own_shape(L, idx, SHAPE_PATH, owner)->packed);
}

SteerFlowFieldId lsteer_check_flow_field(lua_State *L, int idx, const LWorld *owner)
{
    return AS_ID(SteerFlowFieldId, check_own_shape(L, idx, SHAPE_FLOW_FIELD, owner)->packed);
}

void lsteer_push_path(lua_State *L, int world_idx, SteerPathId id)
{
    lsteer_push_shape(L, world_idx, SHAPE_PATH, PACK(id));
}

void lsteer_push_flow_field(lua_State *L, int world_idx, SteerFlowFieldId id)
{
    lsteer_push_shape(L, world_idx, SHAPE_FLOW_FIELD, PACK(id));
}

/// Which shape type the userdata at idx is, or -1.
static int shape_type_of(lua_State *L, int idx)
{
    for (int t = 0; t < 4; t++)
        if (luaL_testudata(L, idx, SHAPE_MT[t])) return t;
    return -1;
}

static void remove_shape(lua_State *L, int world_idx, LShape *s)
{
    SteerWorld *world = s->owner->world;
    /* The cache key first: making it allocates, and a removal that fails must change nothing. */
    lsteer_push_uv(L, world_idx, UV_SHAPES);
    push_cache_key(L, s->type, s->packed);
    switch (s->type) {
    case SHAPE_OBSTACLE: steer_world_remove_obstacle(world, AS_ID(SteerObstacleId, s->packed)); break;
    case SHAPE_WALL: steer_world_remove_wall(world, AS_ID(SteerWallId, s->packed)); break;
    case SHAPE_PATH: steer_world_remove_path(world, AS_ID(SteerPathId, s->packed)); break;
    case SHAPE_FLOW_FIELD: steer_world_remove_flow_field(world, AS_ID(SteerFlowFieldId, s->packed)); break;
    }
    lua_pushnil(L);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

int lsteer_remove_any(lua_State *L, int world_idx, int idx)
{
    LWorld *w = lua_touserdata(L, world_idx);
    if (lsteer_test_vehicle(L, idx)) {
        LVehicle *v = lsteer_check_vehicle(L, idx);
        if (v->owner != w) luaL_argerror(L, idx, "vehicle of another world");
        lsteer_remove_vehicle(L, world_idx, v->id);
        return 0;
    }
    int type = shape_type_of(L, idx);
    if (type < 0) return luaL_typeerror(L, idx, "vehicle, obstacle, wall, path or flow field");
    LShape *s = lsteer_check_shape(L, idx, (LShapeType)type);
    if (s->owner != w) luaL_argerror(L, idx, "shape of another world");
    remove_shape(L, world_idx, s);
    return 0;
}

/* ---- Creating shapes ----------------------------------------------------------------------- */

typedef struct ObstacleOpts {
    double x, y, radius, r;
} ObstacleOpts;
static const OptSpec OBSTACLE[] = {
    {"x", OPT_NUMBER, offsetof(ObstacleOpts, x)},
    {"y", OPT_NUMBER, offsetof(ObstacleOpts, y)},
    {"radius", OPT_POSITIVE, offsetof(ObstacleOpts, radius)},
    {"r", OPT_POSITIVE, offsetof(ObstacleOpts, r)},
};
static const OptList OBSTACLE_LIST = {"obstacle", OBSTACLE, 4, NULL, NULL};

typedef struct WallOpts {
    double x1, y1, x2, y2;
} WallOpts;
static const OptSpec WALL[] = {
    {"x1", OPT_NUMBER, offsetof(WallOpts, x1)},
    {"y1", OPT_NUMBER, offsetof(WallOpts, y1)},
    {"x2", OPT_NUMBER, offsetof(WallOpts, x2)},
    {"y2", OPT_NUMBER, offsetof(WallOpts, y2)},
};
static const OptList WALL_LIST = {"wall", WALL, 4, NULL, NULL};

typedef struct FieldOpts {
    double x, y, cell_size;
    int cols, rows;
} FieldOpts;
static const OptSpec FIELD[] = {
    {"x", OPT_NUMBER, offsetof(FieldOpts, x)},
    {"y", OPT_NUMBER, offsetof(FieldOpts, y)},
    {"cell_size", OPT_POSITIVE, offsetof(FieldOpts, cell_size)},
    {"cols", OPT_INT, offsetof(FieldOpts, cols)},
    {"rows", OPT_INT, offsetof(FieldOpts, rows)},
    {"vectors", OPT_CUSTOM, 0},
};
static const OptList FIELD_LIST = {"flow_field", FIELD, 6, NULL, NULL};

static void require_options(lua_State *L, int idx, const OptList *list, uint64_t mask, uint64_t required)
{
    luaL_checktype(L, idx, LUA_TTABLE);
    for (int i = 0; i < list->count; i++)
        if ((required & (1ULL << i)) && !(mask & (1ULL << i)))
            lsteer_option_error(L, idx, list->specs[i].key, "number expected, got nil");
}

static int fail(lua_State *L, const char *what, LWorld *w)
{
    (void)what; /* the core's message names the value; the options table is argument 2 */
    return luaL_argerror(L, 2, lsteer_core_error(w->world));
}

/// world:obstacle{x =, y =, radius =} (r = is the same as radius)
int lsteer_world_obstacle(lua_State *L)
{
    LWorld *w = lsteer_check_world(L, 1);
    ObstacleOpts o = {0};
    luaL_checktype(L, 2, LUA_TTABLE);
    uint64_t mask = lsteer_read_options(L, 2, &OBSTACLE_LIST, &o);
    if (mask & 8) {
        if (mask & 4) return luaL_argerror(L, 2, "give radius or r, not both");
        o.radius = o.r;
        mask |= 4;
    }
    require_options(L, 2, &OBSTACLE_LIST, mask, 7);
    SteerObstacleId id;
    if (steer_world_add_obstacle(w->world, steer_vec2(o.x, o.y), o.radius, &id) != STEER_OK)
        return fail(L, "obstacle", w);
    push_new_shape(L, SHAPE_OBSTACLE, PACK(id));
    return 1;
}

/// world:wall{x1 =, y1 =, x2 =, y2 =}
int lsteer_world_wall(lua_State *L)
{
    LWorld *w = lsteer_check_world(L, 1);
    WallOpts o = {0};
    luaL_checktype(L, 2, LUA_TTABLE);
    uint64_t mask = lsteer_read_options(L, 2, &WALL_LIST, &o);
    require_options(L, 2, &WALL_LIST, mask, 15);
    SteerWallId id;
    if (steer_world_add_wall(w->world, steer_vec2(o.x1, o.y1), steer_vec2(o.x2, o.y2), &id) != STEER_OK)
        return fail(L, "wall", w);
    push_new_shape(L, SHAPE_WALL, PACK(id));
    return 1;
}

/// Reads {x, y} at idx (a point of a path or a flow vector), or raises naming the entry.
static SteerVec2 check_pair(lua_State *L, int arg, int idx, const char *what, lua_Integer n)
{
    SteerVec2 v;
    const char *msg = lsteer_check_value(L, idx, OPT_VEC2, &v);
    if (msg) luaL_argerror(L, arg, lua_pushfstring(L, "%s %I: %s", what, n, msg));
    return v;
}

/// world:path{{x, y}, {x, y}, ..., loop = false}
int lsteer_world_path(lua_State *L)
{
    LWorld *w = lsteer_check_world(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_Integer n = (lua_Integer)lua_rawlen(L, 2);
    /* the hash part holds the options: only `loop` */
    lua_pushnil(L);
    while (lua_next(L, 2)) {
        lua_pop(L, 1);
        if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1 && lua_tointeger(L, -1) <= n) continue;
        if (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "loop") == 0) continue;
        if (lua_type(L, -1) != LUA_TSTRING)
            return luaL_argerror(L, 2, "a path is an array of {x, y} points plus loop =");
        static const char *const KNOWN[] = {"loop"};
        return lsteer_unknown_error(L, "option", lua_tostring(L, -1), " for path", KNOWN, 1);
    }
    bool loop = false;
    if (lsteer_rawfield(L, 2, "loop") != LUA_TNIL) {
        const char *msg = lsteer_check_value(L, -1, OPT_BOOL, &loop);
        if (msg) lsteer_option_error(L, 2, "loop", msg);
    }
    lua_pop(L, 1);
    if (n < 1) return luaL_argerror(L, 2, "a path needs at least one {x, y} point");
    if (n > 1000000) return luaL_argerror(L, 2, "too many points");
    SteerVec2 *points = lua_newuserdatauv(L, (size_t)n * sizeof *points, 0);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 2, i);
        points[i - 1] = check_pair(L, 2, -1, "point", i);
        lua_pop(L, 1);
    }
    SteerPathId id;
    if (steer_world_add_path(w->world, points, (int)n, loop, &id) != STEER_OK) return fail(L, "path", w);
    push_new_shape(L, SHAPE_PATH, PACK(id));
    return 1;
}

/// world:flow_field{x =, y =, cell_size =, cols =, rows =, vectors = {{dx, dy}, ...}} (row-major)
int lsteer_world_flow_field(lua_State *L)
{
    LWorld *w = lsteer_check_world(L, 1);
    FieldOpts o = {0};
    luaL_checktype(L, 2, LUA_TTABLE);
    uint64_t mask = lsteer_read_options(L, 2, &FIELD_LIST, &o);
    require_options(L, 2, &FIELD_LIST, mask, 4 | 8 | 16);
    if (o.cols < 1 || o.rows < 1 || (int64_t)o.cols * o.rows > 4000000)
        return luaL_argerror(L, 2, "cols and rows must be >= 1 (and cols * rows at most 4000000)");
    SteerFlowFieldDef def = {steer_vec2(o.x, o.y), o.cell_size, o.cols, o.rows, NULL};
    lua_Integer cells = (lua_Integer)o.cols * o.rows;
    if (lsteer_rawfield(L, 2, "vectors") != LUA_TNIL) {
        if (!lua_istable(L, -1)) lsteer_option_error(L, 2, "vectors", "array of {dx, dy} expected");
        if ((lua_Integer)lua_rawlen(L, -1) != cells)
            lsteer_option_error(
                L, 2, "vectors",
                lua_pushfstring(L, "cols * rows = %I vectors expected, got %I", cells, (lua_Integer)lua_rawlen(L, -1)));
        int vectors = lua_gettop(L);
        SteerVec2 *v = lua_newuserdatauv(L, (size_t)cells * sizeof *v, 0);
        for (lua_Integer i = 1; i <= cells; i++) {
            lua_rawgeti(L, vectors, i);
            v[i - 1] = check_pair(L, 2, -1, "vector", i);
            lua_pop(L, 1);
        }
        def.vectors = v;
    }
    SteerFlowFieldId id;
    if (steer_world_add_flow_field(w->world, &def, &id) != STEER_OK) return fail(L, "flow_field", w);
    push_new_shape(L, SHAPE_FLOW_FIELD, PACK(id));
    return 1;
}

typedef struct FieldToOpts {
    double x, y, radius, cell_size;
} FieldToOpts;
static const OptSpec FIELD_TO[] = {
    {"x", OPT_NUMBER, offsetof(FieldToOpts, x)},
    {"y", OPT_NUMBER, offsetof(FieldToOpts, y)},
    {"radius", OPT_NONNEG, offsetof(FieldToOpts, radius)},
    {"cell_size", OPT_POSITIVE, offsetof(FieldToOpts, cell_size)},
};
static const OptList FIELD_TO_LIST = {"flow_field_to", FIELD_TO, 4, NULL, NULL};

/// world:flow_field_to{x =, y =, radius = 0, cell_size = 8}: a flow field over the world's bounds
/// whose vectors lead to (x, y) around walls and obstacles, kept up to date when they change.
int lsteer_world_flow_field_to(lua_State *L)
{
    LWorld *w = lsteer_check_world(L, 1);
    SteerFlowGoalDef def = steer_default_flow_goal_def();
    FieldToOpts o = {0.0, 0.0, def.radius, def.cell_size};
    luaL_checktype(L, 2, LUA_TTABLE);
    uint64_t mask = lsteer_read_options(L, 2, &FIELD_TO_LIST, &o);
    require_options(L, 2, &FIELD_TO_LIST, mask, 3);
    def.goal = steer_vec2(o.x, o.y);
    def.radius = o.radius;
    def.cell_size = o.cell_size;
    SteerFlowFieldId id;
    if (steer_world_add_flow_field_to(w->world, &def, &id) != STEER_OK) return fail(L, "flow_field_to", w);
    push_new_shape(L, SHAPE_FLOW_FIELD, PACK(id));
    return 1;
}

/* ---- Listing ------------------------------------------------------------------------------- */

static int list_shapes(lua_State *L, LShapeType type)
{
    LWorld *w = lsteer_check_world(L, 1);
    int n;
    switch (type) {
    case SHAPE_OBSTACLE: n = steer_world_get_obstacles(w->world, NULL, 0); break;
    case SHAPE_WALL: n = steer_world_get_walls(w->world, NULL, 0); break;
    default: n = 0; break;
    }
    SteerObstacleId *ids = lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof *ids, 0);
    if (type == SHAPE_OBSTACLE)
        n = steer_world_get_obstacles(w->world, ids, n);
    else
        n = steer_world_get_walls(w->world, (SteerWallId *)(void *)ids, n);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lsteer_push_shape(L, 1, type, PACK(ids[i]));
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

int lsteer_world_obstacles(lua_State *L) { return list_shapes(L, SHAPE_OBSTACLE); }
int lsteer_world_walls(lua_State *L) { return list_shapes(L, SHAPE_WALL); }

/* ---- Fields and methods -------------------------------------------------------------------- */

/* Every method and metamethod of a shape metatable is a closure that knows its shape type
 * (upvalue 1; __index and __newindex know it by their class, lclass.c): the code is shared, but
 * each checks that self is exactly its own type with luaL_checkudata, as liolib does, so that
 * `getmetatable(obstacle).__tostring(42)` or `path.remove(obstacle)` is an argument error, never a
 * read through a pointer to something else. */
#define SHAPE_TYPE(L, up) ((LShapeType)lua_tointeger(L, lua_upvalueindex(up)))

/// Self (argument 1) of a shape closure whose type is upvalue `up`: a handle of that type, alive or not.
static LShape *check_self(lua_State *L, int up) { return lsteer_check_udata(L, 1, SHAPE_MT[SHAPE_TYPE(L, up)]); }

static int shape_remove(lua_State *L)
{
    LShape *s = lsteer_check_shape(L, 1, SHAPE_TYPE(L, 1));
    lua_getiuservalue(L, 1, 1);
    remove_shape(L, lua_gettop(L), s);
    return 0;
}

static int shape_alive_method(lua_State *L)
{
    lua_pushboolean(L, shape_alive(check_self(L, 1)));
    return 1;
}

static int path_points(lua_State *L)
{
    LShape *s = lsteer_check_shape(L, 1, SHAPE_PATH);
    SteerPathId id = AS_ID(SteerPathId, s->packed);
    int n = steer_path_get(s->owner->world, id, NULL, 0, NULL);
    SteerVec2 *points = lua_newuserdatauv(L, (size_t)n * sizeof *points, 0);
    steer_path_get(s->owner->world, id, points, n, NULL);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_createtable(L, 2, 0);
        lua_pushnumber(L, points[i].x);
        lua_rawseti(L, -2, 1);
        lua_pushnumber(L, points[i].y);
        lua_rawseti(L, -2, 2);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/// field:set(col, row, dx, dy), 1-based like Lua arrays.
static int field_set(lua_State *L)
{
    LShape *s = lsteer_check_shape(L, 1, SHAPE_FLOW_FIELD);
    SteerFlowFieldId id = AS_ID(SteerFlowFieldId, s->packed);
    SteerFlowFieldDef grid;
    steer_flow_field_get(s->owner->world, id, &grid); /* live: checked */
    lua_Integer col = luaL_checkinteger(L, 2), row = luaL_checkinteger(L, 3);
    luaL_argcheck(L, col >= 1 && col <= grid.cols, 2, "column out of range");
    luaL_argcheck(L, row >= 1 && row <= grid.rows, 3, "row out of range");
    SteerVec2 d = steer_vec2(lsteer_check_finite(L, 4), lsteer_check_finite(L, 5));
    if (steer_flow_field_set(s->owner->world, id, (int)col - 1, (int)row - 1, d) != STEER_OK)
        return luaL_argerror(L, 4, lsteer_core_error(s->owner->world));
    /* the field, so that calls chain: field:set(1, 1, 1, 0):set(2, 1, 0, 1) (cppcheck, confused by the
     * _Generic of AS_ID above, takes this call for a comma expression) */
    // cppcheck-suppress constStatement
    lua_settop(L, 1);
    return 1;
}

/// field:sample(x, y) -> dx, dy (bilinear; 0, 0 outside the grid)
static int field_sample(lua_State *L)
{
    LShape *s = lsteer_check_shape(L, 1, SHAPE_FLOW_FIELD);
    SteerVec2 p = steer_vec2(lsteer_check_finite(L, 2), lsteer_check_finite(L, 3));
    SteerVec2 d = steer_flow_field_sample(s->owner->world, AS_ID(SteerFlowFieldId, s->packed), p);
    lua_pushnumber(L, d.x);
    lua_pushnumber(L, d.y);
    return 2;
}

/// The fields of each shape type (codes from 1 in each type, as shape_get reads them).
static const LField OBSTACLE_FIELDS[] = {{"x", 1, false, NULL}, {"y", 2, false, NULL}, {"radius", 3, false, NULL}};
static const LField WALL_FIELDS[] = {{"x1", 1, false, NULL}, {"y1", 2, false, NULL}, {"x2", 3, false, NULL},
                                     {"y2", 4, false, NULL}, {"nx", 5, false, NULL}, {"ny", 6, false, NULL}};
static const LField PATH_FIELDS[] = {{"loop", 1, false, NULL}, {"count", 2, false, NULL}};
static const LField FIELD_FIELDS[] = {{"x", 1, false, NULL},
                                      {"y", 2, false, NULL},
                                      {"cell_size", 3, false, NULL},
                                      {"cols", 4, false, NULL},
                                      {"rows", 5, false, NULL}};

/// Field `code` of the shape at 1 (the classes' get): a removed shape is an error.
static int shape_get(lua_State *L, void *self, int code)
{
    LShape *s = self;
    lsteer_check_shape(L, 1, s->type); /* raises `obstacle #3 was removed` */
    int f = code - 1;
    SteerWorld *world = s->owner->world;
    switch (s->type) {
    case SHAPE_OBSTACLE: {
        SteerVec2 c;
        double r;
        steer_obstacle_get(world, AS_ID(SteerObstacleId, s->packed), &c, &r);
        lua_pushnumber(L, f == 0 ? c.x : f == 1 ? c.y : r);
        break;
    }
    case SHAPE_WALL: {
        SteerVec2 a, b, nrm;
        steer_wall_get(world, AS_ID(SteerWallId, s->packed), &a, &b, &nrm);
        double values[] = {a.x, a.y, b.x, b.y, nrm.x, nrm.y};
        lua_pushnumber(L, values[f]);
        break;
    }
    case SHAPE_PATH: {
        bool loop = false;
        int n = steer_path_get(world, AS_ID(SteerPathId, s->packed), NULL, 0, &loop);
        if (f == 0)
            lua_pushboolean(L, loop);
        else
            lua_pushinteger(L, n);
        break;
    }
    case SHAPE_FLOW_FIELD: {
        SteerFlowFieldDef g;
        steer_flow_field_get(world, AS_ID(SteerFlowFieldId, s->packed), &g);
        if (f <= 2)
            lua_pushnumber(L, f == 0 ? g.origin.x : f == 1 ? g.origin.y : g.cell_size);
        else
            lua_pushinteger(L, f == 3 ? g.cols : g.rows);
        break;
    }
    }
    return 1;
}

static int shape_tostring(lua_State *L)
{
    LShape *s = check_self(L, 1);
    lua_pushfstring(L, "%s #%d%s", SHAPE_NAME[s->type], shape_number(s), shape_alive(s) ? "" : " (removed)");
    return 1;
}

static const luaL_Reg OBSTACLE_METHODS[] = {{"remove", shape_remove}, {"alive", shape_alive_method}, {NULL, NULL}};
static const luaL_Reg PATH_METHODS[] = {
    {"remove", shape_remove}, {"alive", shape_alive_method}, {"points", path_points}, {NULL, NULL}};
static const luaL_Reg FIELD_METHODS[] = {{"remove", shape_remove},
                                         {"alive", shape_alive_method},
                                         {"set", field_set},
                                         {"sample", field_sample},
                                         {NULL, NULL}};
static const luaL_Reg SHAPE_META[] = {{"__tostring", shape_tostring}, {NULL, NULL}};

#define SHAPE_CLASS(type, mt, methods_, fields_)                                                                       \
    {                                                                                                                  \
        .name = mt, .tag = LSTEER_SHAPE_TAG + (type), .size = sizeof(LShape), .methods = methods_, .fields = fields_,  \
        .field_count = (int)(sizeof fields_ / sizeof fields_[0]), .metamethods = SHAPE_META,                           \
        .flags = LCLASS_UNNAMED_KEYS | LCLASS_READ_ONLY_HANDLES, .get = shape_get,                                     \
    }
static const LClass SHAPE_CLASSES[] = {
    SHAPE_CLASS(SHAPE_OBSTACLE, OBSTACLE_MT, OBSTACLE_METHODS, OBSTACLE_FIELDS),
    SHAPE_CLASS(SHAPE_WALL, WALL_MT, OBSTACLE_METHODS, WALL_FIELDS),
    SHAPE_CLASS(SHAPE_PATH, PATH_MT, PATH_METHODS, PATH_FIELDS),
    SHAPE_CLASS(SHAPE_FLOW_FIELD, FLOW_FIELD_MT, FIELD_METHODS, FIELD_FIELDS),
};
#undef SHAPE_CLASS

int lsteer_open_shapes(lua_State *L)
{
    for (int t = 0; t < 4; t++) {
        lua_pushinteger(L, t); /* the type, upvalue 1 of every method and metamethod (SHAPE_TYPE) */
        lsteer_class_open(L, &SHAPE_CLASSES[t], 1);
    }
    return 0;
}
