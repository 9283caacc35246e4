/* steer_lua.h - the Lua 5.4 module `steer` as seen from C: what the runtime (src/runtime) needs
 * beyond `require "steer"`. Script writers never see this header; they see types/steer.lua.
 */
#ifndef STEER_LUA_H
#define STEER_LUA_H

#include <stdbool.h>
#include <stdint.h>

#include <lua.h>

#include "steer.h"

/// Opens the module: pushes the `steer` table (steer.world, steer.version, ...). Registered by the
/// runtime in package.preload; also the entry point of steer.so.
int luaopen_steer(lua_State *L);

/// The world behind a steer.World userdata at index idx, or NULL when the value is not one (or is
/// a world that was closed).
SteerWorld *steer_lua_to_world(lua_State *L, int idx);

/// Pushes the one cached handle (steer.Vehicle) of vehicle `id` of the world at index world_idx;
/// pushes nil when the id names no live vehicle of that world.
void steer_lua_push_vehicle(lua_State *L, int world_idx, SteerVehicleId id);

/// The id behind the steer.Vehicle handle at index idx; false when the value is not a handle. The
/// id may name a removed vehicle: check it with steer_vehicle_is_valid().
bool steer_lua_to_vehicle(lua_State *L, int idx, SteerVehicleId *out);

/// Removes vehicle `id` of the world at world_idx the way world:remove does: the core vehicle, and
/// its cached handle, v.data, v.brain and v.state. Returns false (changing nothing) when the id
/// names no live vehicle of that world. C code that removes vehicles of a scripted world should
/// use this rather than steer_vehicle_destroy, which would leave the Lua values behind.
bool steer_lua_remove_vehicle(lua_State *L, int world_idx, SteerVehicleId id);

/// The name a script gave to kind number `kind` in the world at index world_idx (`"prey"`), or
/// NULL when no vehicle was ever spawned with that kind. The string lives as long as the world.
const char *steer_lua_kind_name(lua_State *L, int world_idx, uint32_t kind);

#endif
