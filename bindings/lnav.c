/* SPDX-License-Identifier: MIT */
/* lnav.c - navigation from Lua (the core's steer_nav.h): world:find_path, world:nav_map and
 * v:nav_path. world:flow_field_to is with the other shapes (lshapes.c), v:navigate with the other
 * behaviours (lbehaviours.c). */
#include <string.h>

#include "lsteer_internal.h"

typedef struct PathOpts {
    double radius, cell_size;
} PathOpts;
static const OptSpec PATH_OPTS[] = {
    {"radius", OPT_NONNEG, offsetof(PathOpts, radius)},
    {"cell_size", OPT_POSITIVE, offsetof(PathOpts, cell_size)},
};
static const OptList FIND_PATH_LIST = {"find_path", PATH_OPTS, 2, NULL, NULL};
static const OptList NAV_MAP_LIST = {"nav_map", PATH_OPTS, 2, NULL, NULL};

static void push_points(lua_State *L, const SteerVec2 *points, int count)
{
    lua_createtable(L, count, 0);
    for (int i = 0; i < count; i++) {
        lua_createtable(L, 2, 0);
        lua_pushnumber(L, points[i].x);
        lua_rawseti(L, -2, 1);
        lua_pushnumber(L, points[i].y);
        lua_rawseti(L, -2, 2);
        lua_rawseti(L, -2, i + 1);
    }
}

/// world:find_path(x1, y1, x2, y2[, {radius =, cell_size =}]) -> {{x, y}, ...}, length, or nil and
/// the reason ("unreachable", "start inside geometry", ...).
int lsteer_world_find_path(lua_State *L)
{
    LWorld *w = lsteer_check_world(L, 1);
    SteerPathQueryDef def = steer_default_path_query_def();
    def.start = steer_vec2(lsteer_check_coordinate(L, 2), lsteer_check_coordinate(L, 3));
    def.goal = steer_vec2(lsteer_check_coordinate(L, 4), lsteer_check_coordinate(L, 5));
    if (lua_gettop(L) > 6) luaL_argerror(L, 7, "no more arguments expected (options go in one table)");
    PathOpts o = {def.radius, def.cell_size};
    if (!lua_isnoneornil(L, 6)) luaL_checktype(L, 6, LUA_TTABLE);
    lsteer_read_options(L, 6, &FIND_PATH_LIST, &o);
    def.radius = o.radius;
    def.cell_size = o.cell_size;
    /* a first call for the count, a second into a buffer of the right size */
    SteerPathResult result;
    if (steer_world_find_path(w->world, &def, NULL, 0, &result) != STEER_OK)
        return luaL_argerror(L, 6, lsteer_core_error(w->world));
    if (result.status != STEER_PATH_FOUND) {
        lua_pushnil(L);
        lua_pushstring(L, steer_path_status_name(result.status));
        return 2;
    }
    SteerVec2 *points = lua_newuserdatauv(L, (size_t)result.count * sizeof *points, 0);
    steer_world_find_path(w->world, &def, points, result.count, &result);
    push_points(L, points, result.count);
    lua_pushnumber(L, result.length);
    return 2;
}

/// world:nav_map{radius =, cell_size =} -> {cols =, rows =, cell_size =, blocked = "..."}: the
/// navigation map a path of that radius uses, one byte a cell ("\1" where a path may not go),
/// row by row; for overlays and tests.
int lsteer_world_nav_map(lua_State *L)
{
    LWorld *w = lsteer_check_world(L, 1);
    PathOpts o = {0.0, STEER_NAV_DEFAULT_CELL_SIZE};
    if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TTABLE);
    lsteer_read_options(L, 2, &NAV_MAP_LIST, &o);
    int cols, rows;
    int cells = steer_world_nav_map(w->world, o.radius, o.cell_size, NULL, 0, &cols, &rows);
    if (cells < 0) return luaL_argerror(L, 2, lsteer_core_error(w->world));
    unsigned char *blocked = lua_newuserdatauv(L, (size_t)cells, 0);
    steer_world_nav_map(w->world, o.radius, o.cell_size, blocked, cells, NULL, NULL);
    lua_createtable(L, 0, 4);
    lua_pushinteger(L, cols);
    lua_setfield(L, -2, "cols");
    lua_pushinteger(L, rows);
    lua_setfield(L, -2, "rows");
    lua_pushnumber(L, o.cell_size);
    lua_setfield(L, -2, "cell_size");
    lua_pushlstring(L, (const char *)blocked, (size_t)cells);
    lua_setfield(L, -2, "blocked");
    return 1;
}

/// v:nav_path() -> {{x, y}, ...}, state, waypoint: the path navigate follows (an empty table
/// without one), its state ("none", "planning", "following", "arrived", "unreachable") and the
/// 1-based index of the point it steers to (0 without a path).
int lsteer_vehicle_nav_path(lua_State *L)
{
    LVehicle *v = lsteer_check_vehicle(L, 1);
    SteerWorld *world = v->owner->world;
    SteerNavState state;
    int waypoint;
    int count = steer_vehicle_nav_path(world, v->id, NULL, 0, &state, &waypoint, NULL);
    SteerVec2 *points = lua_newuserdatauv(L, (size_t)(count > 0 ? count : 1) * sizeof *points, 0);
    steer_vehicle_nav_path(world, v->id, points, count, NULL, NULL, NULL);
    push_points(L, points, count);
    lua_pushstring(L, steer_nav_state_name(state));
    lua_pushinteger(L, count > 0 ? waypoint + 1 : 0);
    return 3;
}
