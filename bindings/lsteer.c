/* SPDX-License-Identifier: MIT */
/* lsteer.c - luaopen_steer: the `steer` module table (steer.world, steer.version, the behaviour
 * names) and the metatables of every handle type. */
#include "lsteer_internal.h"

/// steer.behaviours: the behaviour names, in the core's order (the same names as the methods).
static void push_behaviour_names(lua_State *L)
{
    lua_createtable(L, STEER_BEHAVIOUR_COUNT, 0);
    for (int i = 0; i < STEER_BEHAVIOUR_COUNT; i++) {
        lua_pushstring(L, steer_behaviour_name((SteerBehaviour)i));
        lua_rawseti(L, -2, i + 1);
    }
}

static const luaL_Reg STEER_FUNCTIONS[] = {
    {"world", lsteer_world_new},
    {"file_mtime", lsteer_file_mtime},
    {NULL, NULL},
};

int luaopen_steer(lua_State *L)
{
    luaL_checkversion(L);
    lsteer_open_world(L);
    lsteer_open_vehicle(L);
    lsteer_open_shapes(L);
    lsteer_open_senses(L);
    luaL_newlib(L, STEER_FUNCTIONS);
    lua_pushliteral(L, STEER_VERSION);
    lua_setfield(L, -2, "version");
    push_behaviour_names(L);
    lua_setfield(L, -2, "behaviours");
    lsteer_open_ffi(L);      /* under LuaJIT: the hot members as FFI calls (lffi.c) */
    steer_lua_push_pairs(L); /* the same two functions as every other require of the state */
    lua_setfield(L, -3, "next");
    lua_setfield(L, -2, "pairs");
    return 1;
}
