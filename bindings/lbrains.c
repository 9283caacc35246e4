/* SPDX-License-Identifier: MIT */
/* lbrains.c - the brain scheduler: w:think() calls each vehicle's brain (v.brain) at the world's
 * think rate, staggered over the steps, with the simulated time since that vehicle last thought;
 * a brain that raises an error pauses that vehicle only. The `steer` program runs the same code
 * through steer_lua_think (steer_lua.h), so a plain Lua loop and the program think alike.
 *
 * Staggering: with k = round(1 / (dt * think_hz)) steps between two thoughts (at least 1), the
 * vehicle in core slot i thinks in the steps where step_count % k == i % k, so each step runs
 * about 1/k of the brains. Per-vehicle bookkeeping is a C array indexed by the core slot (a clock
 * and a paused flag, tied to the vehicle's serial so that a new vehicle in a reused slot starts
 * afresh); the error message lives in the handle's user value (v.brain_error). A think allocates
 * nothing: the arrays grow with the world only. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsteer_internal.h"

/* ---- Memory: the Lua state's allocator, so that a capped state counts these too ------------- */

static void *grow_block(lua_State *L, void *block, int *capacity, int needed, size_t item)
{
    if (needed <= *capacity) return block;
    int cap = *capacity ? *capacity : 64;
    while (cap < needed) cap *= 2;
    void *ud;
    lua_Alloc alloc = lua_getallocf(L, &ud);
    void *p = alloc(ud, block, block ? (size_t)*capacity * item : 0, (size_t)cap * item);
    if (!p) luaL_error(L, "not enough memory");
    memset((char *)p + (size_t)*capacity * item, 0, (size_t)(cap - *capacity) * item);
    *capacity = cap;
    return p;
}

/* Worlds of fewer vehicles think in creation order within a pass; from this many on, in place
 * order (place_order). STEER_THINK_ORDER_MIN in the environment, read when a world is made,
 * changes it (make bench-brains compares both orders in one run). */
#define LSTEER_THINK_ORDER_MIN_VEHICLES 32768
/* The place order's buckets: a grid of LSTEER_THINK_SIDE x LSTEER_THINK_SIDE over the world. */
#define LSTEER_THINK_SIDE 64
#define LSTEER_THINK_PLACES (LSTEER_THINK_SIDE * LSTEER_THINK_SIDE)

static int think_order_min(void)
{
    const char *env = getenv("STEER_THINK_ORDER_MIN");
    if (!env || !*env) return LSTEER_THINK_ORDER_MIN_VEHICLES;
    char *end;
    long n = strtol(env, &end, 10);
    return *end || n < 0 || n > INT_MAX ? LSTEER_THINK_ORDER_MIN_VEHICLES : (int)n;
}

void lsteer_brains_init(LBrains *b, double hz)
{
    memset(b, 0, sizeof *b);
    b->hz = hz;
    b->order_min = think_order_min();
}

/* A pass marks the world as thinking and a to-be-closed value clears the mark however the pass
 * ends (an error in on_error, a hook or an allocation unwinds through it). One per world, made on
 * the first pass and kept in the registry under the LBrains' address. */
static int end_pass(lua_State *L)
{
    LBrains **b = lua_touserdata(L, 1);
    if (b && *b) (*b)->thinking = false;
    return 0;
}

static void push_pass_closer(lua_State *L, LBrains *b)
{
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, b) == LUA_TUSERDATA) return;
    lua_pop(L, 1);
    LBrains **closer = lua_newuserdatauv(L, sizeof *closer, 0);
    *closer = b;
    lua_createtable(L, 0, 1); /* not a named metatable: scripts never see this value */
    lua_pushcfunction(L, end_pass);
    lua_setfield(L, -2, "__close");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, b);
}

void lsteer_brains_free(lua_State *L, LBrains *b)
{
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, b) == LUA_TUSERDATA) { /* a pass may still hold it */
        *(LBrains **)lua_touserdata(L, -1) = NULL;
        lua_pushnil(L);
        lua_rawsetp(L, LUA_REGISTRYINDEX, b);
    }
    lua_pop(L, 1);
    void *ud;
    lua_Alloc alloc = lua_getallocf(L, &ud);
    if (b->slots) alloc(ud, b->slots, (size_t)b->slot_capacity * sizeof *b->slots, 0);
    if (b->ids) alloc(ud, b->ids, (size_t)b->id_capacity * sizeof *b->ids, 0);
    if (b->roster) alloc(ud, b->roster, (size_t)b->roster_capacity * sizeof *b->roster, 0);
    if (b->phase_start) alloc(ud, b->phase_start, (size_t)b->phase_capacity * sizeof *b->phase_start, 0);
    if (b->events) alloc(ud, b->events, (size_t)b->event_capacity * sizeof *b->events, 0);
    if (b->order) alloc(ud, b->order, (size_t)b->order_capacity * sizeof *b->order, 0);
    if (b->place_of) alloc(ud, b->place_of, (size_t)b->place_capacity * sizeof *b->place_of, 0);
    if (b->place_count) alloc(ud, b->place_count, (size_t)b->place_count_capacity * sizeof *b->place_count, 0);
    int order_min = b->order_min;
    lsteer_brains_init(b, b->hz);
    b->order_min = order_min;
}

/* ---- Checks --------------------------------------------------------------------------------- */

const char *lsteer_check_think_hz(lua_State *L, int idx, double *out)
{
    double hz = 0.0;
    const char *msg = lsteer_check_value(L, idx, OPT_NONNEG, &hz);
    if (msg) return msg;
    *out = hz;
    return NULL;
}

double lsteer_default_think_hz(void) { return STEER_LUA_DEFAULT_THINK_HZ; }

/* The event handlers a brain may declare (lsenses.c makes the events), by SteerSenseEventType. */
static const char *const EVENT_HANDLERS[] = {
    [STEER_EVENT_SENSED] = "sensed", [STEER_EVENT_LOST] = "lost",   [STEER_EVENT_FORGOT] = "forgot",
    [STEER_EVENT_HEARD] = "heard",   [STEER_EVENT_TIMER] = "timer",
};
enum { EVENT_HANDLER_COUNT = (int)(sizeof EVENT_HANDLERS / sizeof EVENT_HANDLERS[0]) };

/* The message for a brain table without think or handler: one that has a function named nearly so
 * (Think, thinks, thnik, Sensed) names it, since the runtime would otherwise never call that
 * function. Among several, the first by name, so that the message does not depend on the table's
 * traversal order. */
static const char *brain_near_miss(lua_State *L, int idx)
{
    static const char *const WANTED[] = {"think", "sensed", "lost", "forgot", "heard", "timer"};
    char meant[64] = "";
    const char *hint = NULL;
    idx = lua_absindex(L, idx);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        const char *near =
            key && lua_isfunction(L, -1) && strlen(key) < sizeof meant ? lsteer_suggest(key, WANTED, 6) : NULL;
        if (near && (!meant[0] || strcmp(key, meant) < 0)) {
            strcpy(meant, key);
            hint = near;
        }
        lua_pop(L, 1);
    }
    if (!meant[0]) return "brain has no think function";
    return lua_pushfstring(L, "brain has no think function (it has '%s': did you mean '%s'?)", meant, hint);
}

const char *lsteer_check_brain(lua_State *L, int idx)
{
    int type = lua_type(L, idx);
    if (type == LUA_TNIL || type == LUA_TFUNCTION) return NULL;
    if (type != LUA_TTABLE)
        return lua_pushfstring(L,
                               "brain has no think function: a table with think(v, dt) or a function expected, got %s",
                               luaL_typename(L, idx));
    /* through __index: class-like brains are fine */
    bool handles = false;
    for (int e = 0; e < EVENT_HANDLER_COUNT; e++) {
        int t = lua_getfield(L, idx, EVENT_HANDLERS[e]);
        lua_pop(L, 1);
        if (t == LUA_TFUNCTION) handles = true;
        if (t != LUA_TNIL && t != LUA_TFUNCTION)
            return lua_pushfstring(L, "brain's event handler '%s' must be a function, got %s", EVENT_HANDLERS[e],
                                   lua_typename(L, t));
    }
    int think = lua_getfield(L, idx, "think");
    lua_pop(L, 1);
    if (think == LUA_TFUNCTION || (think == LUA_TNIL && handles)) return NULL;
    if (think == LUA_TNIL) return brain_near_miss(L, idx);
    return lua_pushfstring(L, "brain has no think function ('think' is a %s)", lua_typename(L, think));
}

/* ---- Pausing and resuming -------------------------------------------------------------------- */

/// The slot of a live vehicle, or NULL when its bookkeeping was never made.
static LThinkSlot *slot_of(LBrains *b, SteerVehicleId id, uint64_t serial)
{
    if ((int)id.index1 >= b->slot_capacity) return NULL;
    LThinkSlot *s = &b->slots[id.index1];
    return s->serial == serial ? s : NULL;
}

void lsteer_brains_forget(LWorld *w, SteerVehicleId id, uint64_t serial)
{
    LThinkSlot *s = slot_of(&w->brains, id, serial);
    if (!s) return;
    if (s->paused) w->brains.paused--;
    memset(s, 0, sizeof *s);
}

void lsteer_brains_resume(lua_State *L, int handle_idx)
{
    LVehicle *h = lua_touserdata(L, handle_idx);
    LThinkSlot *s = slot_of(&h->owner->brains, h->id, h->serial);
    if (s && s->paused) {
        s->paused = false;
        h->owner->brains.paused--;
    }
    lua_pushnil(L);
    lua_setiuservalue(L, handle_idx, HUV_BRAIN_ERROR);
}

/// Resumes every paused vehicle of the world at world_idx; returns how many.
static int resume_all(lua_State *L, int world_idx, LWorld *w)
{
    LBrains *b = &w->brains;
    if (b->paused == 0) return 0;
    /* One walk over the cached handles clears the messages (every paused vehicle has a handle:
     * it was pushed to think); then the flags go. */
    lsteer_push_uv(L, world_idx, UV_HANDLES);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        LVehicle *h = lua_touserdata(L, -1);
        if (h && slot_of(b, h->id, h->serial) && b->slots[h->id.index1].paused) {
            lua_pushnil(L);
            lua_setiuservalue(L, -2, HUV_BRAIN_ERROR);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    int resumed = 0;
    for (int i = 0; i < b->slot_capacity; i++) {
        if (!b->slots[i].paused) continue;
        b->slots[i].paused = false;
        resumed++;
    }
    b->paused = 0;
    return resumed;
}

/* ---- The pass -------------------------------------------------------------------------------- */

/// Message handler of a think: the message (tostring'd) with a traceback.
/// The most bytes of a brain's error message kept (longer ones are cut, saying how much).
#define LSTEER_MAX_BRAIN_MESSAGE 2000

int lsteer_brain_msgh(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            msg = lua_tostring(L, -1);
        else
            msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    /* A brain may raise a 20 MB string: v.brain_error and every copy a host keeps of it would be
     * that long, for each failing vehicle. */
    size_t len = strlen(msg);
    if (len > LSTEER_MAX_BRAIN_MESSAGE) {
        size_t keep = LSTEER_MAX_BRAIN_MESSAGE;
        while (keep > 0 && ((unsigned char)msg[keep] & 0xC0) == 0x80) keep--; /* not in a UTF-8 sequence */
        lua_pushlstring(L, msg, keep);
        char cut[32]; /* (snprintf: cppcheck takes lua_pushfstring's %I for a length modifier) */
        snprintf(cut, sizeof cut, "%zu", len - keep);
        msg = lua_pushfstring(L, "%s... (%s more bytes cut)", lua_tostring(L, -1), cut);
    }
    if (strstr(msg, "\nstack traceback:")) { /* traced already (a nested protected call) */
        lua_pushstring(L, msg);
        return 1;
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

/// A brain whose think is not a plain field but comes through its metatable (an instance of a
/// class): a method, called as brain:think(v, dt), the way `function Guard:think(v, dt)` is
/// written. Looked up inside the protected call, so that an erring __index pauses only this
/// vehicle. Brain, v, dt at 1..3.
static int think_through_index(lua_State *L)
{
    if (lua_getfield(L, 1, "think") != LUA_TFUNCTION) return 0; /* changed since it was set: skip */
    lua_insert(L, 1);
    lua_call(L, 3, 0);
    return 0;
}

/// Steps between two thoughts of one vehicle.
static uint64_t think_stride(double dt, double hz)
{
    double steps = 1.0 / (dt * hz);
    if (!(steps < 1e15)) steps = 1e15; /* a vanishing rate: (practically) never, without overflow */
    return steps < 1.0 ? 1 : (uint64_t)llround(steps);
}

/// After a failed think: the vehicle at v_idx is paused, its message (the error at the top, with
/// a traceback) split into v.brain_error and the traceback. Then the hook, the handler or a
/// warning hears of it. Pops the error.
static void think_failed(lua_State *L, int v_idx, LThinkSlot *s, LBrains *b, const SteerLuaThinkHooks *hooks,
                         int on_error)
{
    if (s) { /* first: whatever follows may run out of memory */
        s->paused = true;
        b->paused++;
    }
    if (hooks && hooks->failed) hooks->failed(hooks->ctx, L, v_idx);
    const char *msg = lua_tostring(L, -1);
    if (!msg) {
        lua_pop(L, 1);
        lua_pushliteral(L, "(error without a message)");
        msg = lua_tostring(L, -1);
    }
    const char *tb = strstr(msg, "\nstack traceback:");
    if (tb)
        lua_pushlstring(L, msg, (size_t)(tb - msg));
    else
        lua_pushvalue(L, -1);
    lua_pushvalue(L, -1);
    if (s)
        lua_setiuservalue(L, v_idx, HUV_BRAIN_ERROR); /* stack: error, message */
    else
        lua_pop(L, 1); /* the brain removed its own vehicle, then failed: nothing to pause */
    if (hooks) {
        lua_pop(L, 2);
        return;
    }
    if (on_error) {
        lua_pushvalue(L, on_error);
        lua_pushvalue(L, v_idx);
        lua_pushvalue(L, -3);
        if (tb)
            lua_pushstring(L, tb + 1);
        else
            lua_pushliteral(L, "");
        lua_call(L, 3, 0); /* unprotected: an error in the handler is the caller's */
    } else {
        lsteer_push_vehicle_label(L, v_idx);
        lua_warning(L, lua_tostring(L, -1), 1);
        lua_warning(L, ": brain paused: ", 1);
        lua_warning(L, lua_tostring(L, -2), 0);
        lua_pop(L, 1);
    }
    lua_pop(L, 2);
}

/// A vehicle's think phase: it thinks in the steps whose number is that modulo the stride.
/// (A 32-bit division when it can: several times cheaper than a 64-bit one.)
static uint64_t phase_of(SteerVehicleId id, uint64_t stride)
{
    return stride <= UINT32_MAX ? id.index1 % (uint32_t)stride : id.index1 % stride;
}

/* A pass used to walk every vehicle to find the sixth (at 10 Hz and 60 steps a second) whose turn
 * it is: O(N) a step, most of a pass over brains that think little. The roster groups the ids by
 * phase once, by a counting sort that keeps creation order within a phase, and is built again only
 * when a vehicle was spawned since (a new id to place), the stride changed (w.think_hz, w.dt), or
 * removals left it half dead ids (a pass skips those as it always skipped removed vehicles). With
 * more phases than vehicles (a vanishing rate) the pass scans instead: the roster would be mostly
 * empty phases. Returns false then. */
static bool roster_ready(lua_State *L, LBrains *b, const SteerWorld *world, uint64_t stride, int count)
{
    if (stride > (uint64_t)count * 2 + 64) return false;
    if (b->roster_stride == stride && b->roster_spawns == b->spawns && count * 2 >= b->roster_count) return true;
    b->ids = grow_block(L, b->ids, &b->id_capacity, count, sizeof *b->ids);
    int n = steer_world_get_vehicles(world, b->ids, b->id_capacity);
    int phases = (int)stride;
    b->roster = grow_block(L, b->roster, &b->roster_capacity, n, sizeof *b->roster);
    b->phase_start = grow_block(L, b->phase_start, &b->phase_capacity, phases + 2, sizeof *b->phase_start);
    int *start = b->phase_start;
    memset(start, 0, (size_t)(phases + 2) * sizeof *start);
    for (int i = 0; i < n; i++) start[phase_of(b->ids[i], stride) + 2]++;
    for (int p = 2; p < phases + 2; p++) start[p] += start[p - 1]; /* start[p + 1]: where p begins */
    for (int i = 0; i < n; i++) b->roster[start[phase_of(b->ids[i], stride) + 1]++] = b->ids[i];
    /* each start[p + 1] moved on to where p ends, which is where p + 1 begins */
    b->roster_count = n;
    b->roster_stride = stride;
    b->roster_spawns = b->spawns;
    return true;
}

/* In a large world, brains thinking one after the other in creation order ask about parts of the
 * world no recent think touched: each query's grid cells, the vehicles it finds and their handles
 * are cold (docs/benchmarks.md, "Lua's cost per think and N"). From order_min vehicles on, the ids
 * due in a pass are sorted by place first: into the buckets of a 64 x 64 grid over the world
 * (clamped at its edges), rows one after the other, each row the other way than the last (so that
 * the walk never jumps across the world), by a counting sort that keeps creation order within a
 * bucket. The order depends on the positions only: the same on any number of threads, in a replay
 * and after a rewind. Writes ids[begin .. end) in that order to b->order and returns it. */
static const SteerVehicleId *place_order(lua_State *L, LBrains *b, const SteerWorld *world, const SteerVehicleId *ids,
                                         int begin, int end)
{
    int n = end - begin;
    b->order = grow_block(L, b->order, &b->order_capacity, n, sizeof *b->order);
    b->place_of = grow_block(L, b->place_of, &b->place_capacity, n, sizeof *b->place_of);
    b->place_count =
        grow_block(L, b->place_count, &b->place_count_capacity, LSTEER_THINK_PLACES + 1, sizeof *b->place_count);
    int *count = b->place_count, *place_of = b->place_of;
    memset(count, 0, (LSTEER_THINK_PLACES + 1) * sizeof *count);
    double sx = LSTEER_THINK_SIDE / steer_world_width(world), sy = LSTEER_THINK_SIDE / steer_world_height(world);
    for (int i = 0; i < n; i++) {
        SteerVec2 p = steer_vehicle_position(world, ids[begin + i]); /* (a removed one: 0, 0) */
        double fx = p.x * sx, fy = p.y * sy;
        int cx = fx > 0.0 ? (fx < LSTEER_THINK_SIDE - 1 ? (int)fx : LSTEER_THINK_SIDE - 1) : 0;
        int cy = fy > 0.0 ? (fy < LSTEER_THINK_SIDE - 1 ? (int)fy : LSTEER_THINK_SIDE - 1) : 0;
        if (cy & 1) cx = LSTEER_THINK_SIDE - 1 - cx;
        place_of[i] = cy * LSTEER_THINK_SIDE + cx;
        count[place_of[i] + 1]++;
    }
    for (int p = 1; p <= LSTEER_THINK_PLACES; p++) count[p] += count[p - 1]; /* count[p]: where p begins */
    for (int i = 0; i < n; i++) b->order[count[place_of[i]]++] = ids[begin + i];
    return b->order;
}

/* ---- Events: what the senses and timers reported ---------------------------------------------- */

void lsteer_collect_events(lua_State *L, LWorld *w)
{
    LBrains *b = &w->brains;
    if (b->thinking) return; /* (a brain stepping the world: the pass reads the array) */
    uint64_t step = steer_world_step_count(w->world);
    if (step == 0 || step == b->events_step) return;
    b->events_step = step;
    int n = steer_world_get_sense_events(w->world, NULL, 0, 0);
    if (n <= 0) return;
    b->events = grow_block(L, b->events, &b->event_capacity, b->event_count + n, sizeof *b->events);
    steer_world_get_sense_events(w->world, b->events + b->event_count, n, 0);
    b->event_count += n;
}

/// A brain whose handler is not a plain field but comes through its metatable: a method, called
/// as brain:sensed(v, sense, other). Brain, handler name, v, arguments at 1.. (as think_through_index).
static int event_through_index(lua_State *L)
{
    if (lua_getfield(L, 1, lua_tostring(L, 2)) != LUA_TFUNCTION) return 0; /* changed since it was set */
    lua_replace(L, 2);                                                     /* brain, f, v, ... */
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 1);
    lua_replace(L, 2);
    lua_replace(L, 1); /* f, brain, v, ... */
    lua_call(L, lua_gettop(L) - 1, 0);
    return 0;
}

/// The bookkeeping slot of a live vehicle, made (or started afresh for a new vehicle in the slot)
/// when needed. `first_last` is the clock a new vehicle starts with.
static LThinkSlot *slot_for(lua_State *L, LBrains *b, SteerVehicleId id, uint64_t serial, double first_last)
{
    if ((int)id.index1 >= b->slot_capacity)
        b->slots = grow_block(L, b->slots, &b->slot_capacity, (int)id.index1 + 1, sizeof *b->slots);
    LThinkSlot *s = &b->slots[id.index1];
    if (s->serial != serial) { /* a vehicle new to this slot: its first thought sees one period */
        if (s->paused) b->paused--;
        s->serial = serial;
        s->last = first_last;
        s->paused = false;
    }
    return s;
}

/// Pushes the cached handle of the live vehicle id (serial) at the top.
static void push_handle(lua_State *L, int world_idx, int handles, SteerVehicleId id, uint64_t serial)
{
    if (lua_rawgeti(L, handles, lsteer_handle_key(id)) != LUA_TUSERDATA ||
        ((LVehicle *)lua_touserdata(L, -1))->serial != serial) {
        lua_pop(L, 1);
        steer_lua_push_vehicle(L, world_idx, id);
    }
}

/// Pushes the handle of `other` (nil when it is no live vehicle: removed, or a sound of the world),
/// through the handle table at `handles`.
static void push_other(lua_State *L, int world_idx, int handles, SteerWorld *world, SteerVehicleId other)
{
    uint64_t serial = other.index1 == 0 ? 0 : steer_vehicle_serial(world, other);
    if (!serial)
        lua_pushnil(L);
    else
        push_handle(L, world_idx, handles, other, serial);
}

/// Sets the slot `cache` to the name of the vehicle's sense (the string it holds, when the name is
/// the same: no new string is hashed), or nil.
static void push_sense_name(lua_State *L, SteerWorld *world, SteerVehicleId id, int sense, int cache)
{
    SteerSenseDef def;
    if (sense < 0 || steer_vehicle_get_sense(world, id, sense, &def) != STEER_OK || !def.name) {
        lua_pushnil(L);
        lua_replace(L, cache);
        return;
    }
    const char *held = lua_type(L, cache) == LUA_TSTRING ? lua_tostring(L, cache) : NULL;
    if (held && strcmp(held, def.name) == 0) return;
    lua_pushstring(L, def.name);
    lua_replace(L, cache);
}

static bool same_vehicle(SteerVehicleId a, SteerVehicleId b)
{
    return a.index1 == b.index1 && a.generation == b.generation && a.world == b.world;
}

/// Delivers the pending events in their order (the core's: by vehicle, timer first, then senses by
/// index, then the other's creation order; docs/lua-api.md) to the brains that handle them. The
/// stack holds the pass's message handler and handle table at msgh and handles. Returns how many
/// handlers failed.
///
/// What costs is reaching a vehicle's data (its slot, its handle, its brain: cache misses in a
/// large world), so the events of one vehicle, which come together, share one lookup; the brain
/// is read again after each call (hot by then), since a handler may change it, pause it by
/// failing, or remove its vehicle. A brain without the event's handler costs a raw table read.
static int deliver_events(lua_State *L, int world_idx, LWorld *w, const SteerLuaThinkHooks *hooks, int on_error,
                          int msgh, int handles, double first_last)
{
    LBrains *b = &w->brains;
    int n = b->event_count;
    b->event_count = 0; /* taken: whatever happens below, they are not delivered twice */
    int failed = 0;
    int names = lua_gettop(L) + 1; /* the handler names, pushed once */
    for (int e = 0; e < EVENT_HANDLER_COUNT; e++) lua_pushstring(L, EVENT_HANDLERS[e]);
    /* The name of the sense of the events being delivered: the same for most of them (a vehicle's
     * events come together, and vehicles mostly name their senses alike), so pushed once, not
     * hashed anew for each event. */
    int sense_name = names + EVENT_HANDLER_COUNT;
    lua_pushnil(L);
    int v = sense_name + 1;
    for (int i = 0, next; i < n && w->world; i = next) {
        SteerVehicleId id = b->events[i].vehicle;
        for (next = i + 1; next < n && same_vehicle(b->events[next].vehicle, id);) next++;
        uint64_t serial = steer_vehicle_serial(w->world, id);
        if (!serial) continue; /* removed since (by an earlier handler, say) */
        if (slot_for(L, b, id, serial, first_last)->paused) continue;
        push_handle(L, world_idx, handles, id, serial); /* v */
        int named = -2; /* the sense whose name sense_name holds for this vehicle (-2: none yet) */
        for (int k = i; k < next; k++) {
            const SteerSenseEvent *e = &b->events[k];
            if ((int)e->type < 0 || (int)e->type >= EVENT_HANDLER_COUNT) continue;
            if (lua_getiuservalue(L, v, HUV_BRAIN) != LUA_TTABLE) break; /* v + 1: no events for it */
            lua_pushvalue(L, names + (int)e->type);
            if (lua_rawget(L, v + 1) == LUA_TFUNCTION) {
                lua_remove(L, v + 1); /* v, f */
            } else {
                lua_pop(L, 1);
                if (!lua_getmetatable(L, v + 1)) {
                    lua_settop(L, v);
                    continue;
                }
                lua_pop(L, 1);
                lua_pushcfunction(L, event_through_index);
                lua_insert(L, v + 1); /* v, trampoline, brain */
                lua_pushvalue(L, names + (int)e->type);
            }
            lua_pushvalue(L, v);
            if (e->type != STEER_EVENT_TIMER) {
                if (e->sense != named) {
                    push_sense_name(L, w->world, id, e->sense, sense_name);
                    named = e->sense;
                }
                lua_pushvalue(L, sense_name);
            }
            if (e->type == STEER_EVENT_HEARD) {
                lsteer_push_tag_name(L, world_idx, e->tag);
                lua_pushnumber(L, e->position.x);
                lua_pushnumber(L, e->position.y);
            }
            if (e->type != STEER_EVENT_TIMER) push_other(L, world_idx, handles, w->world, e->other);
            if (hooks && hooks->before) hooks->before(hooks->ctx);
            int status = lua_pcall(L, lua_gettop(L) - v - 1, 0, msgh);
            if (!w->world) break; /* a handler closed the world */
            if (status != LUA_OK) {
                failed++;
                think_failed(L, v, slot_of(b, id, serial), b, hooks, on_error);
            }
            lua_settop(L, v);
            /* its handler may have removed it, or paused it by failing: then its other events go */
            LThinkSlot *s = slot_of(b, id, serial);
            if (!s || s->paused || steer_vehicle_serial(w->world, id) != serial) break;
        }
        lua_settop(L, v - 1);
    }
    lua_settop(L, names - 1);
    return failed;
}

/* ---- The pass -------------------------------------------------------------------------------- */

/// One pass: first the events of the steps since the last pass, then the thinks of the vehicles
/// whose turn it is in the coming step. `on_error` is the stack index of w:think's handler (0:
/// none). Returns how many brains failed.
static int think_pass(lua_State *L, int world_idx, const SteerLuaThinkHooks *hooks, int on_error)
{
    world_idx = lua_absindex(L, world_idx);
    LWorld *w = lsteer_check_world(L, world_idx);
    LBrains *b = &w->brains;
    SteerWorld *world = w->world;
    /* before anything else: a nested pass would overwrite this one's scratch */
    if (b->thinking) return luaL_error(L, "think: the world is thinking already (w:think() called from a brain?)");
    lsteer_collect_events(L, w);
    b->collecting = true; /* from now on w:step keeps the events of every step for the next pass */
    bool thinks = b->hz > 0.0 && steer_world_vehicle_count(world) > 0;
    if (!thinks && b->event_count == 0) return 0;
    double dt = steer_world_dt(world);
    uint64_t k = b->hz > 0.0 ? think_stride(dt, b->hz) : 1;
    double period = (double)k * dt;

    int top = lua_gettop(L);
    luaL_checkstack(L, 16, "think");
    push_pass_closer(L, b); /* top + 1 */
    lua_toclose(L, top + 1);
    b->thinking = true;
    lua_pushcfunction(L, lsteer_brain_msgh);  /* top + 2 */
    lsteer_push_uv(L, world_idx, UV_HANDLES); /* top + 3 */
    lua_pushliteral(L, "think");              /* top + 4 */
    int msgh = top + 2, handles = top + 3, think_key = top + 4, v = top + 5;
    int failed = 0;
    if (b->event_count > 0)
        failed += deliver_events(L, world_idx, w, hooks, on_error, msgh, handles, steer_world_time(world) - period);
    int count = w->world ? steer_world_vehicle_count(world) : 0; /* (the handlers may have spawned, removed) */
    if (!thinks || count == 0 || !(b->hz > 0.0)) {
        lua_closeslot(L, top + 1);
        lua_settop(L, top);
        return failed;
    }
    k = think_stride(dt, b->hz);
    uint64_t turn = steer_world_step_count(world) % k;
    double now = steer_world_time(world);
    period = (double)k * dt;
    const SteerVehicleId *ids;
    int begin = 0, end;
    if (roster_ready(L, b, world, k, count)) { /* the ids of phase `turn` only */
        ids = b->roster;
        begin = b->phase_start[turn];
        end = b->phase_start[turn + 1];
        if (count >= b->order_min && end - begin > 1) { /* by place (place_order) */
            ids = place_order(L, b, world, ids, begin, end);
            end -= begin;
            begin = 0;
        }
    } else { /* every id, filtered below */
        b->ids = grow_block(L, b->ids, &b->id_capacity, count, sizeof *b->ids);
        end = steer_world_get_vehicles(world, b->ids, b->id_capacity);
        ids = b->ids;
    }
    for (int i = begin; i < end; i++) {
        SteerVehicleId id = ids[i];
        if (phase_of(id, k) != turn) continue; /* (only when scanning every id) */
        uint64_t serial = steer_vehicle_serial(world, id);
        if (!serial) continue; /* removed by an earlier brain of this pass */
        LThinkSlot *s = slot_for(L, b, id, serial, now - period);
        if (s->paused) continue;
        /* the cached handle (steer_lua_push_vehicle makes one when there is none yet) */
        push_handle(L, world_idx, handles, id, serial);
        int type = lua_getiuservalue(L, v, HUV_BRAIN); /* v + 1 */
        if (type == LUA_TTABLE) {
            lua_pushvalue(L, think_key);
            if (lua_rawget(L, v + 1) == LUA_TFUNCTION) {
                lua_remove(L, v + 1); /* think */
            } else {
                lua_pop(L, 1);
                if (!lua_getmetatable(L, v + 1)) {
                    lua_settop(L, think_key);
                    continue;
                }
                lua_pop(L, 1);
                lua_pushcfunction(L, think_through_index);
                lua_insert(L, v + 1); /* trampoline, brain */
            }
        } else if (type != LUA_TFUNCTION) {
            lua_settop(L, think_key);
            continue;
        }
        lua_pushvalue(L, v);
        lua_pushnumber(L, now - s->last);
        s->last = now;
        if (hooks && hooks->before) hooks->before(hooks->ctx);
        int status = lua_pcall(L, lua_gettop(L) - v - 1, 0, msgh);
        if (!w->world) break; /* the brain closed the world: its bookkeeping is gone */
        if (status != LUA_OK) {
            failed++;
            /* (the brain may have removed its own vehicle: then there is nothing to pause) */
            s = slot_of(b, id, serial);
            think_failed(L, v, s, b, hooks, on_error);
        }
        lua_settop(L, think_key);
    }
    lua_closeslot(L, top + 1);
    lua_settop(L, top);
    return failed;
}

/* ---- The pass run from Lua (LuaJIT) ----------------------------------------------------------- */

int lsteer_think_prepare(lua_State *L, LWorld *w)
{
    LBrains *b = &w->brains;
    SteerWorld *world = w->world;
    if (!world || b->thinking) return -1; /* (the classic pass raises for a nested call) */
    lsteer_collect_events(L, w);
    b->collecting = true;
    int count = steer_world_vehicle_count(world);
    if (b->event_count > 0 || !(b->hz > 0.0) || count == 0) return -1;
    double dt = steer_world_dt(world);
    uint64_t k = think_stride(dt, b->hz);
    if (!roster_ready(L, b, world, k, count)) return -1; /* (a vanishing rate: the classic scan) */
    uint64_t turn = steer_world_step_count(world) % k;
    const SteerVehicleId *ids = b->roster;
    int begin = b->phase_start[turn], end = b->phase_start[turn + 1];
    if (count >= b->order_min && end - begin > 1) {
        ids = place_order(L, b, world, ids, begin, end);
        end -= begin;
        begin = 0;
    }
    /* every due slot's bookkeeping made now, so that a turn allocates nothing */
    uint32_t top = 0;
    for (int i = begin; i < end; i++)
        if (ids[i].index1 > top) top = ids[i].index1;
    if ((int)top >= b->slot_capacity)
        b->slots = grow_block(L, b->slots, &b->slot_capacity, (int)top + 1, sizeof *b->slots);
    b->due = ids + begin;
    b->due_count = end - begin;
    b->due_now = steer_world_time(world);
    b->due_period = (double)k * dt;
    b->thinking = true;
    return b->due_count;
}

uint32_t lsteer_think_turn(LWorld *w, int i, uint64_t *serial, double *dt)
{
    LBrains *b = &w->brains;
    if (!w->world || !b->thinking || i < 0 || i >= b->due_count) return 0;
    SteerVehicleId id = b->due[i];
    uint64_t sn = steer_vehicle_serial(w->world, id);
    if (!sn || (int)id.index1 >= b->slot_capacity) return 0;               /* removed by an earlier brain */
    LThinkSlot *s = slot_for(NULL, b, id, sn, b->due_now - b->due_period); /* (grown by prepare) */
    if (s->paused) return 0;
    *dt = b->due_now - s->last;
    s->last = b->due_now;
    *serial = sn;
    return id.index1;
}

void lsteer_think_end(LWorld *w)
{
    w->brains.thinking = false;
    w->brains.due = NULL;
    w->brains.due_count = 0;
}

void lsteer_think_failed(lua_State *L, LWorld *w, int v_idx, int on_error)
{
    LVehicle *h = lua_touserdata(L, v_idx);
    LThinkSlot *s = w->world ? slot_of(&w->brains, h->id, h->serial) : NULL;
    think_failed(L, v_idx, s, &w->brains, NULL, on_error);
}

/* ---- Lua: w:think([on_error]), w:resume_brains() ------------------------------------------- */

#ifdef LSTEER_COMPAT_51
/* Lua 5.1 (LuaJIT) has no to-be-closed slot to clear the mark when an error unwinds through a pass
 * (from on_error, say): there the pass runs in a protected call that clears it. */
static int think_protected(lua_State *L)
{
    lua_pushinteger(L, think_pass(L, 1, NULL, lua_isnil(L, 2) ? 0 : 2));
    return 1;
}
#endif

int lsteer_world_think(lua_State *L)
{
    LWorld *w = lsteer_check_world(L, 1);
    if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
#ifdef LSTEER_COMPAT_51
    if (!w->brains.thinking) { /* (a nested call goes on below: the pass refuses it, naming the line) */
        lua_pushcfunction(L, think_protected);
        lua_insert(L, 1);
        if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
            w->brains.thinking = false;
            return lua_error(L);
        }
        return 1;
    }
#else
    (void)w;
#endif
    lua_pushinteger(L, think_pass(L, 1, NULL, lua_isnil(L, 2) ? 0 : 2));
    return 1;
}

int lsteer_world_resume_brains(lua_State *L)
{
    LWorld *w = lsteer_check_world(L, 1);
    lua_pushinteger(L, resume_all(L, 1, w));
    return 1;
}

/* ---- C: the runtime's way in (steer_lua.h) ------------------------------------------------- */

int steer_lua_think(lua_State *L, int world_idx, const SteerLuaThinkHooks *hooks)
{
    static const SteerLuaThinkHooks none = {0};
    return think_pass(L, world_idx, hooks ? hooks : &none, 0);
}

int steer_lua_resume_brains(lua_State *L, int world_idx)
{
    LWorld *w = lsteer_test_world(L, world_idx);
    return w && w->world ? resume_all(L, lua_absindex(L, world_idx), w) : 0;
}

int steer_lua_paused_brains(lua_State *L, int world_idx)
{
    LWorld *w = lsteer_test_world(L, world_idx);
    return w && w->world ? w->brains.paused : 0;
}

bool steer_lua_set_think_hz(lua_State *L, int world_idx, double hz)
{
    LWorld *w = lsteer_test_world(L, world_idx);
    if (!w || !w->world || !(hz >= 0.0) || !isfinite(hz)) return false;
    w->brains.hz = hz;
    return true;
}

double steer_lua_think_hz(lua_State *L, int world_idx)
{
    LWorld *w = lsteer_test_world(L, world_idx);
    return w && w->world ? w->brains.hz : 0.0;
}

void steer_lua_push_vehicle_label(lua_State *L, int idx)
{
    if (lsteer_test_vehicle(L, idx))
        lsteer_push_vehicle_label(L, idx);
    else
        lua_pushliteral(L, "(not a vehicle)");
}

bool steer_lua_has_events(lua_State *L, int world_idx)
{
    LWorld *w = lsteer_test_world(L, world_idx);
    if (!w || !w->world) return false;
    if (w->brains.event_count > 0) return true;
    uint64_t step = steer_world_step_count(w->world);
    return step != 0 && step != w->brains.events_step && steer_world_get_sense_events(w->world, NULL, 0, 0) > 0;
}

void steer_lua_collect_events(lua_State *L, int world_idx)
{
    LWorld *w = lsteer_test_world(L, world_idx);
    if (w && w->world && w->brains.collecting) lsteer_collect_events(L, w);
}
