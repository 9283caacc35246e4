/* SPDX-License-Identifier: MIT */
/* steer_lua.h - the Lua 5.4 module `steer` as seen from C: what the runtime (src/runtime) needs
 * beyond `require "steer"`. Script writers never see this header; they see types/steer.lua.
 */
#ifndef STEER_LUA_H
#define STEER_LUA_H

#include <stdbool.h>
#include <stdint.h>

#include <lua.h>

#include "steer/steer.h"

/* steer.so is built with its symbols hidden (-fvisibility=hidden, the core linked in unexported):
 * what it exports is luaopen_steer and the functions below, each marked STEER_LUA_API. A Windows
 * DLL build of the module defines STEER_LUA_BUILD_DLL. */
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(STEER_LUA_BUILD_DLL)
#define STEER_LUA_API __declspec(dllexport)
#else
#define STEER_LUA_API
#endif
#elif defined(__GNUC__) && __GNUC__ >= 4
#define STEER_LUA_API __attribute__((visibility("default")))
#else
#define STEER_LUA_API
#endif

/// Opens the module: pushes the `steer` table (steer.world, steer.version, ...). Registered by the
/// runtime in package.preload; also the entry point of steer.so.
STEER_LUA_API int luaopen_steer(lua_State *L);

/// The world behind a steer.World userdata at index idx, or NULL when the value is not one (or is
/// a world that was closed).
STEER_LUA_API SteerWorld *steer_lua_to_world(lua_State *L, int idx);

/// Marks the world at idx as held by the host, which goes on using it: from then on w:close(), a
/// script's `<close>` variable and its __gc (a script can call it) raise an error instead of
/// freeing it, until steer_lua_release_world. Does nothing when idx is not a world.
STEER_LUA_API void steer_lua_hold_world(lua_State *L, int idx);
/// Lets the world at idx go again (before the host drops its reference or calls lua_close, so that
/// garbage collection frees it). Does nothing when idx is not a world.
STEER_LUA_API void steer_lua_release_world(lua_State *L, int idx);

/// The registry field where a host may put a C function (lua_pushcfunction) that w:step(n) calls
/// after each of its steps with the calling state, ignoring what it returns: a host's time budget
/// stops Lua code with a hook, which never runs inside one long C call, so this is where the host
/// checks its budget (and raises its error) in a w:step(1e9).
#define STEER_LUA_STEP_CHECK "steer.step_check"

/// Pushes the one cached handle (steer.Vehicle) of vehicle `id` of the world at index world_idx;
/// pushes nil when the id names no live vehicle of that world.
STEER_LUA_API void steer_lua_push_vehicle(lua_State *L, int world_idx, SteerVehicleId id);

/// The id behind the steer.Vehicle handle at index idx; false when the value is not a handle. The
/// id may name a removed vehicle: check it with steer_vehicle_is_valid().
STEER_LUA_API bool steer_lua_to_vehicle(lua_State *L, int idx, SteerVehicleId *out);

/// Removes vehicle `id` of the world at world_idx the way world:remove does: the core vehicle, and
/// its cached handle, v.data, v.brain and v.state. Returns false (changing nothing) when the id
/// names no live vehicle of that world. C code that removes vehicles of a scripted world should
/// use this rather than steer_vehicle_destroy, which would leave the Lua values behind.
STEER_LUA_API bool steer_lua_remove_vehicle(lua_State *L, int world_idx, SteerVehicleId id);

/// The name a script gave to kind number `kind` in the world at index world_idx (`"prey"`), or
/// NULL when no vehicle was ever spawned with that kind. The string lives as long as the world.
STEER_LUA_API const char *steer_lua_kind_name(lua_State *L, int world_idx, uint32_t kind);

/// v.state of vehicle `id` of the world at index world_idx (its length in *len when len is not NULL),
/// or NULL when it has none or the id names no live vehicle. Pushes nothing, never raises, never
/// allocates (no handle is made: a vehicle without one has no state). The string is the vehicle's
/// own user value: valid until a script changes v.state or removes the vehicle.
STEER_LUA_API const char *steer_lua_vehicle_state(lua_State *L, int world_idx, SteerVehicleId id, size_t *len);

/// Pushes `vehicle #12 (prey)` for the steer.Vehicle handle at idx (the words of tostring(v) and
/// of the removed-vehicle error).
STEER_LUA_API void steer_lua_push_vehicle_label(lua_State *L, int idx);

/// Pushes steer.pairs and steer.next: Lua's pairs and next walking a table in an order that is
/// the same in every Lua state that ran the same code (numbers, strings by bytes, booleans, steer
/// handles by world and id, other objects in the order the walks first met them: lpairs.c). The
/// same two functions on every call in a state. The `steer` program makes them the scenes' global
/// pairs and next, so that a replay walks tables as the recorded run did.
STEER_LUA_API void steer_lua_push_pairs(lua_State *L);

/* ---- Brains: the scheduler behind w:think(), for a host that runs it itself ----------------- */

/// What a host hears of each think. Both may be NULL.
typedef struct SteerLuaThinkHooks {
    void *ctx;
    /// Just before each brain is called (a host restarts its per-call time budget here).
    void (*before)(void *ctx);
    /// A brain raised an error: the vehicle's handle is at vehicle_idx, the error (the message
    /// with a traceback, or Lua's memory error) on the stack top. The hook may replace that value
    /// (keeping the stack's height); what it leaves becomes v.brain_error up to its traceback.
    /// The vehicle is paused already. Nothing else reports the error.
    void (*failed)(void *ctx, lua_State *L, int vehicle_idx);
} SteerLuaThinkHooks;

/// What w:think() does, for the world at world_idx: delivers the sense events of the steps since
/// the last pass to the brains that handle them, then calls the brains whose turn it is in the
/// coming step, and pauses each vehicle whose brain fails. Returns how many failed. Raises only
/// when memory runs out (the world's bookkeeping grows with it).
STEER_LUA_API int steer_lua_think(lua_State *L, int world_idx, const SteerLuaThinkHooks *hooks);
/// Keeps the sense events of the step just taken for the next steer_lua_think (w:step does it
/// itself): a host that steps the core with steer_world_step calls it right after each step, as
/// the core keeps only the last step's events and drops a vehicle's when a script changes its
/// senses. Does nothing before the world's first pass, or when they were kept already.
STEER_LUA_API void steer_lua_collect_events(lua_State *L, int world_idx);
/// Whether the world at world_idx has sense events that the next steer_lua_think would deliver (a
/// host that skips the pass when think_hz is 0 still runs it then).
STEER_LUA_API bool steer_lua_has_events(lua_State *L, int world_idx);
/// w:resume_brains(): every paused vehicle thinks again; returns how many were paused.
STEER_LUA_API int steer_lua_resume_brains(lua_State *L, int world_idx);
/// How many vehicles of the world at world_idx have a paused brain now.
STEER_LUA_API int steer_lua_paused_brains(lua_State *L, int world_idx);
/// w.think_hz of a world whose options do not set it, Hz: written once here (the world's option,
/// and the program's --think-hz default, which is "the scene's").
#define STEER_LUA_DEFAULT_THINK_HZ 10.0
/// Sets w.think_hz (>= 0, 0 = never); false when hz is not a finite number >= 0.
STEER_LUA_API bool steer_lua_set_think_hz(lua_State *L, int world_idx, double hz);
/// w.think_hz of the world at world_idx (0 when it is not a live world).
STEER_LUA_API double steer_lua_think_hz(lua_State *L, int world_idx);

/// The candidate a mistyped word most likely meant, or NULL: the module's "did you mean" (British
/// spellings match their American candidates, a typo is one or two edits), for a host's own
/// messages to read like the module's (the program's --overlays). Calls no Lua.
STEER_LUA_API const char *steer_lua_suggest(const char *word, const char *const *candidates, int count);

#endif
