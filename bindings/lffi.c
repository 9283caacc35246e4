/* SPDX-License-Identifier: MIT */
/* lffi.c - under LuaJIT, the calls brains make at every think as FFI calls the JIT compiles.
 *
 * A classic C API call (lua_CFunction) is a wall for LuaJIT's compiler: a trace stops at it, so a
 * brain that reads v.x, asks w:closest and switches v:pursue runs in the interpreter between C
 * calls. Loaded by LuaJIT, luaopen_steer also runs the Lua layer bindings/lffi.lua (compiled into
 * the module as lffi_lua.h), which replaces the hot members of steer.Vehicle and steer.World with
 * Lua functions calling the plain C functions below through the FFI (a table of function pointers
 * handed over as a light userdata: nothing is exported, so it works wherever the module loads).
 *
 * The rule that keeps both paths one: these functions only ever do what the classic method would
 * do on a call the classic method accepts. Anything else - a dead handle, a closed world, a value
 * out of range, an option the FFI does not carry - returns a refusal (NaN, -1) and the Lua layer
 * calls the classic method with the same arguments, which raises its own message (or handles the
 * rare case itself). So results are the same bits and errors the same words, by construction.
 * STEER_FFI=0 in the environment keeps the classic path (tests/lua/ffi_spec.lua runs both). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lsteer_internal.h"

#ifdef LSTEER_COMPAT_51

/* Field codes of get(): the order of lffi.lua's FIELD table. */
enum {
    FF_X,
    FF_Y,
    FF_VX,
    FF_VY,
    FF_SPEED,
    FF_HEADING,
    FF_HX,
    FF_HY,
    FF_ID,
    FF_FORCE_X,
    FF_FORCE_Y,
    FF_ALIVE,
    FF_KIND,
    FF_CORE = 32, /* + SteerVehicleField: the core's tunables */
};

/// The table the Lua layer reads through the FFI (lffi.lua declares the same struct). The sizes and
/// offsets let the Lua side refuse a layout it does not know rather than read a wrong one.
typedef struct LSteerFfi {
    int version;
    int vehicle_size, vehicle_serial, vehicle_owner;
    int world_kind_count;
    double (*get)(const void *v, int code);
    int (*closest)(const void *w, const void *v, double x, double y, int kind, double range, uint64_t *serial);
    int (*neighbors)(const void *w, const void *v, double radius, int kind, uint32_t *slots, uint64_t *serials,
                     int capacity);
    int (*behaviour)(const void *v, int type, int target, double x, double y, const void *other, int n,
                     const int *codes, const double *values);
    int (*stop)(const void *v, int type);
    uint32_t (*think_turn)(void *w, int i, double *dt);
    int (*think_owns)(const void *w, int i, const void *v);
    void (*think_end)(void *w);
    int (*world_open)(const void *w);
} LSteerFfi;

/// The handle at p if it is a vehicle's whose vehicle lives (lvehicle.c's handle_live), else NULL.
static const LVehicle *live_vehicle(const void *p)
{
    const LVehicle *h = p;
    if (!h || h->tag != LSTEER_VEHICLE_TAG || h->removed || !h->owner || !h->owner->world) return NULL;
    return steer_vehicle_serial(h->owner->world, h->id) == h->serial ? h : NULL;
}

static const LWorld *open_world(const void *p)
{
    const LWorld *w = p;
    return w && w->tag == LSTEER_WORLD_TAG && w->world ? w : NULL;
}

/// What lsteer_check_coordinate accepts.
static bool coordinate_ok(double x) { return isfinite(x) && fabs(x) <= STEER_MAX_COORDINATE; }

static double ffi_get(const void *p, int code)
{
    const LVehicle *h = live_vehicle(p);
    if (!h) return code == FF_ALIVE ? 0.0 : NAN;
    SteerWorld *world = h->owner->world;
    switch (code) { /* as lvehicle.c's vehicle_get, value for value */
    case FF_X: return steer_vehicle_position(world, h->id).x;
    case FF_Y: return steer_vehicle_position(world, h->id).y;
    case FF_VX: return steer_vehicle_velocity(world, h->id).x;
    case FF_VY: return steer_vehicle_velocity(world, h->id).y;
    case FF_SPEED: return steer_length(steer_vehicle_velocity(world, h->id));
    case FF_HEADING: {
        SteerVec2 hd = steer_vehicle_heading(world, h->id);
        return atan2(hd.y, hd.x);
    }
    case FF_HX: return steer_vehicle_heading(world, h->id).x;
    case FF_HY: return steer_vehicle_heading(world, h->id).y;
    case FF_ID: return (double)h->serial;
    case FF_ALIVE: return 1.0;
    case FF_KIND: return (double)steer_vehicle_kind(world, h->id);
    default: break;
    }
    SteerVehicleState s;
    if (steer_vehicle_get(world, h->id, &s) != STEER_OK) return NAN;
    if (code == FF_FORCE_X) return s.force.x;
    if (code == FF_FORCE_Y) return s.force.y;
    if (code < FF_CORE || code >= FF_CORE + STEER_VEHICLE_FIELD_COUNT) return NAN;
    double value;
    memcpy(&value, (const char *)&s + steer_vehicle_field_table[code - FF_CORE].state_offset, sizeof value);
    return value;
}

/// The query's filter from a kind number (-1: every kind; -2: a name never spawned, nothing).
static bool kind_filter(const LWorld *w, int kind, SteerQueryFilter *filter)
{
    if (kind >= w->kind_count || kind < -2) return false;
    filter->kinds = kind >= 0 ? 1ULL << kind : 0;
    return true;
}

/// w:closest: the found vehicle's slot (its serial in *serial), 0 for none, -1 to refuse.
static int ffi_closest(const void *wp, const void *vp, double x, double y, int kind, double range, uint64_t *serial)
{
    const LWorld *w = open_world(wp);
    if (!w) return -1;
    SteerQueryFilter filter = steer_default_query_filter();
    SteerVec2 point;
    if (vp) {
        const LVehicle *v = live_vehicle(vp);
        if (!v || v->owner != w) return -1;
        point = steer_vehicle_position(w->world, v->id);
        filter.exclude = v->id;
    } else {
        if (!coordinate_ok(x) || !coordinate_ok(y)) return -1;
        point = steer_vec2(x, y);
    }
    if (!(range >= 0.0) || !kind_filter(w, kind, &filter)) return -1;
    SteerVehicleId found;
    if (kind == -2 || !steer_world_query_closest(w->world, point, range, &filter, &found)) return 0;
    *serial = steer_vehicle_serial(w->world, found);
    return (int)found.index1;
}

/// w:neighbors: how many there are, their slots and serials written; -1 to refuse (more than 64).
static int ffi_neighbors(const void *wp, const void *vp, double radius, int kind, uint32_t *slots, uint64_t *serials,
                         int capacity)
{
    const LWorld *w = open_world(wp);
    const LVehicle *v = live_vehicle(vp);
    if (!w || !v || v->owner != w || !(isfinite(radius) && radius >= 0.0)) return -1;
    SteerQueryFilter filter = steer_default_query_filter();
    if (!kind_filter(w, kind, &filter)) return -1;
    if (kind == -2) return 0;
    filter.exclude = v->id;
    SteerVec2 center = steer_vehicle_position(w->world, v->id);
    int n = steer_world_query_radius(w->world, center, radius, &filter, NULL, 0);
    if (n < 0 || n > 64 || n > capacity) return -1; /* many: the classic method (one array of them) */
    SteerVehicleId ids[64];
    n = steer_world_query_radius(w->world, center, radius, &filter, ids, n);
    for (int i = 0; i < n; i++) {
        slots[i] = ids[i].index1;
        serials[i] = steer_vehicle_serial(w->world, ids[i]);
    }
    return n;
}

/// v:<behaviour>(target, {options}): 0 when switched on, -1 to refuse (nothing changed then).
/// `target` 0: none, 1: the point (x, y), 2: the vehicle `other`. Option i is codes[i] (list * 64
/// + index: list 0 the behaviour's own options, 1 the common ones) with values[i].
static int ffi_behaviour(const void *vp, int type, int target, double x, double y, const void *other, int n,
                         const int *codes, const double *values)
{
    const LVehicle *v = live_vehicle(vp);
    if (!v || type < 0 || type >= STEER_BEHAVIOUR_COUNT || n < 0 || n > 64) return -1;
    SteerWorld *world = v->owner->world;
    const SteerBehaviourInfo *info = steer_behaviour_info((SteerBehaviour)type);
    if (info->target_count != (target ? 1 : 0)) return -1;
    SteerBehaviourDef def;
    /* (asked first: reading a behaviour that is off formats the core's error message) */
    if (!steer_vehicle_has_behaviour(world, v->id, (SteerBehaviour)type) ||
        steer_vehicle_get_behaviour(world, v->id, (SteerBehaviour)type, &def, NULL) != STEER_OK)
        def = steer_default_behaviour_def((SteerBehaviour)type);
    if (target) { /* as lbehaviours.c's check_target */
        const SteerTargetSpec *spec = &info->targets[0];
        SteerTarget t;
        if (target == 1) {
            if (spec->arg != STEER_ARG_POINT_OR_VEHICLE || !coordinate_ok(x) || !coordinate_ok(y)) return -1;
            t = steer_target_point(x, y);
        } else {
            const LVehicle *o = live_vehicle(other);
            if (spec->arg != STEER_ARG_POINT_OR_VEHICLE && spec->arg != STEER_ARG_VEHICLE) return -1;
            if (!o || o->owner != v->owner || o->serial == v->serial) return -1;
            t = steer_target_vehicle(o->id);
        }
        memcpy((char *)&def + spec->offset, &t, sizeof t);
    }
    OptList own = {info->name, NULL, info->option_count, info->options, NULL};
    OptList common = lsteer_common_options();
    for (int i = 0; i < n; i++) {
        int list = codes[i] / 64, index = codes[i] % 64;
        const OptList *from = list == 0 ? &own : &common;
        if (list > 1 || index < 0 || index >= from->count) return -1;
        const SteerOptionSpec *core = &from->core[index];
        if (core->core_only || core->given_offset || core->kind == STEER_OPTION_LEASH) return -1;
        if (!lsteer_number_ok(lsteer_option_type(core), values[i])) return -1;
        memcpy((char *)&def + core->offset, &values[i], sizeof(double));
    }
    return steer_vehicle_set_behaviour(world, v->id, &def) == STEER_OK ? 0 : -1;
}

/// v:stop(name): 0 when done, -1 to refuse.
static int ffi_stop(const void *vp, int type)
{
    const LVehicle *v = live_vehicle(vp);
    if (!v || type < 0 || type >= STEER_BEHAVIOUR_COUNT) return -1;
    steer_vehicle_clear_behaviour(v->owner->world, v->id, (SteerBehaviour)type);
    return 0;
}

/// The i-th due vehicle of the pass prepare began (lsteer_think_turn): its slot (its dt in *dt), or
/// 0 to skip it (removed by an earlier brain, paused; every one once the world is closed).
static uint32_t ffi_think_turn(void *wp, int i, double *dt)
{
    LWorld *w = wp;
    uint64_t serial;
    if (!w || w->tag != LSTEER_WORLD_TAG) return 0;
    return lsteer_think_turn(w, i, &serial, dt);
}

/// 1 when the handle vp is the one of the pass's i-th due vehicle (the same vehicle: its slot and
/// serial), else 0 (the Lua side then asks for the handle the classic way).
static int ffi_think_owns(const void *wp, int i, const void *vp)
{
    const LWorld *w = wp;
    const LVehicle *h = vp;
    if (!w || w->tag != LSTEER_WORLD_TAG || !w->world || i < 0 || i >= w->brains.due_count) return 0;
    if (!h || h->tag != LSTEER_VEHICLE_TAG || h->removed || h->owner != w) return 0;
    SteerVehicleId id = w->brains.due[i];
    return h->id.index1 == id.index1 && h->serial == steer_vehicle_serial(w->world, id);
}

static void ffi_think_end(void *wp)
{
    LWorld *w = wp;
    if (w && w->tag == LSTEER_WORLD_TAG) lsteer_think_end(w);
}

static int ffi_world_open(const void *wp) { return open_world(wp) != NULL; }

static const LSteerFfi FFI = {
    .version = 2,
    .vehicle_size = (int)sizeof(LVehicle),
    .vehicle_serial = (int)offsetof(LVehicle, serial),
    .vehicle_owner = (int)offsetof(LVehicle, owner),
    .world_kind_count = (int)offsetof(LWorld, kind_count),
    .get = ffi_get,
    .closest = ffi_closest,
    .neighbors = ffi_neighbors,
    .behaviour = ffi_behaviour,
    .stop = ffi_stop,
    .think_turn = ffi_think_turn,
    .think_owns = ffi_think_owns,
    .think_end = ffi_think_end,
    .world_open = ffi_world_open,
};

/* ---- What the Lua layer learns once, through the classic API --------------------------------- */

/// aux.behaviours() -> {name = {type =, target = "point_or_vehicle" | "vehicle" | "other" | nil,
/// options = {key = code}}, ...}: the options the FFI carries (numbers of the double kinds) with
/// their codes; any other key sends a call down the classic path.
static int aux_behaviours(lua_State *L)
{
    OptList common = lsteer_common_options();
    lua_createtable(L, 0, STEER_BEHAVIOUR_COUNT);
    for (int type = 0; type < STEER_BEHAVIOUR_COUNT; type++) {
        const SteerBehaviourInfo *info = steer_behaviour_info((SteerBehaviour)type);
        lua_createtable(L, 0, 3);
        lua_pushinteger(L, type);
        lua_setfield(L, -2, "type");
        if (info->target_count == 1) {
            SteerTargetArg arg = info->targets[0].arg;
            lua_pushstring(L, arg == STEER_ARG_POINT_OR_VEHICLE ? "point_or_vehicle"
                              : arg == STEER_ARG_VEHICLE        ? "vehicle"
                                                                : "other");
            lua_setfield(L, -2, "target");
        } else if (info->target_count > 1) {
            lua_pushliteral(L, "other");
            lua_setfield(L, -2, "target");
        }
        lua_newtable(L);
        for (int list = 0; list < 2; list++) {
            const SteerOptionSpec *specs = list == 0 ? info->options : common.core;
            int count = list == 0 ? info->option_count : common.count;
            for (int i = 0; i < count && i < 64; i++) {
                const SteerOptionSpec *spec = &specs[i];
                OptType t = lsteer_option_type(spec);
                if (spec->core_only || spec->given_offset || spec->kind == STEER_OPTION_LEASH) continue;
                if (t == OPT_INT || t == OPT_BOOL || t == OPT_VEC2 || t == OPT_CUSTOM) continue;
                lua_pushinteger(L, list * 64 + i);
                lua_setfield(L, -2, spec->key);
            }
        }
        lua_setfield(L, -2, "options");
        lua_setfield(L, -2, info->name);
    }
    return 1;
}

/// aux.core_fields() -> {name = code}: the core's tunables as get() codes.
static int aux_core_fields(lua_State *L)
{
    lua_createtable(L, 0, STEER_VEHICLE_FIELD_COUNT);
    for (int i = 0; i < STEER_VEHICLE_FIELD_COUNT; i++) {
        lua_pushinteger(L, FF_CORE + i);
        lua_setfield(L, -2, steer_vehicle_field_table[i].name);
    }
    return 1;
}

/// aux.handles(w) -> the world's table of handles by slot (UV_HANDLES), or nil for no open world.
static int aux_handles(lua_State *L)
{
    LWorld *w = lsteer_test_world(L, 1);
    if (!w || !w->world) return 0;
    lsteer_push_uv(L, 1, UV_HANDLES);
    return 1;
}

/// aux.values(v) -> the table of a handle's user values (v.data, v.brain, ... by HUV_*), or nil.
static int aux_values(lua_State *L)
{
    if (!lsteer_test_vehicle(L, 1)) return 0;
    lua_getfenv(L, 1);
    return 1;
}

/// aux.think_begin(w) -> how many vehicles are due in this pass, the world marked thinking; or
/// nothing when the classic pass has to run it (lsteer_think_prepare).
static int aux_think_begin(lua_State *L)
{
    LWorld *w = lsteer_test_world(L, 1);
    if (!w || !w->world) return 0;
    int n = lsteer_think_prepare(L, w);
    if (n < 0) return 0;
    lua_pushinteger(L, n);
    return 1;
}

/// aux.think_handle(w, i) -> the handle of the pass's i-th due vehicle, made when it has none yet.
static int aux_think_handle(lua_State *L)
{
    LWorld *w = lsteer_test_world(L, 1);
    int i = (int)luaL_checkinteger(L, 2);
    if (!w || !w->world || i < 0 || i >= w->brains.due_count) return 0;
    steer_lua_push_vehicle(L, 1, w->brains.due[i]);
    return 1;
}

/// aux.think_failed(w, v, error, on_error): what the classic pass does after a failed think (the
/// vehicle paused, v.brain_error, the handler called: unprotected, its error is the caller's).
static int aux_think_failed(lua_State *L)
{
    LWorld *w = lsteer_test_world(L, 1);
    if (!w || !lsteer_test_vehicle(L, 2)) return 0;
    lua_settop(L, 4);
    int on_error = lua_isfunction(L, 4) ? 4 : 0;
    lua_pushvalue(L, 3); /* think_failed pops the error at the top */
    lsteer_think_failed(L, w, 2, on_error);
    return 0;
}

static const luaL_Reg AUX[] = {
    {"think_begin", aux_think_begin},
    {"think_handle", aux_think_handle},
    {"think_failed", aux_think_failed},
    {"msgh", lsteer_brain_msgh},
    {"behaviours", aux_behaviours},
    {"core_fields", aux_core_fields},
    {"handles", aux_handles},
    {"values", aux_values},
    {NULL, NULL},
};

#include "lffi_lua.h" /* LSTEER_FFI_LUA: bindings/lffi.lua as a C string (make bindings/lffi_lua.h) */

void lsteer_open_ffi(lua_State *L)
{
    const char *env = getenv("STEER_FFI");
    bool on = !(env && strcmp(env, "0") == 0);
    int top = lua_gettop(L); /* the module table */
    if (on && luaL_loadbuffer(L, LSTEER_FFI_LUA, sizeof LSTEER_FFI_LUA - 1, "=steer.ffi") == LUA_OK) {
        lua_pushvalue(L, top);
        lua_pushlightuserdata(L, (void *)(uintptr_t)&FFI);
        luaL_getmetatable(L, VEHICLE_MT);
        luaL_getmetatable(L, WORLD_MT);
        lua_newtable(L);
        luaL_setfuncs(L, AUX, 0);
        /* a LuaJIT without its FFI (or a layout it does not know) keeps the classic path */
        on = lua_pcall(L, 5, 1, 0) == LUA_OK && lua_toboolean(L, -1);
    } else {
        on = false;
    }
    lua_settop(L, top);
    lua_pushboolean(L, on);
    lua_setfield(L, top, "ffi");
}

#else

void lsteer_open_ffi(lua_State *L)
{
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "ffi");
}

#endif
