/* SPDX-License-Identifier: MIT */
/* lvehicle.c - steer.Vehicle: spawning, the one cached handle per vehicle, and its fields
 * (read-only state, checked tunables, per-vehicle Lua values). The behaviour methods are in
 * lbehaviours.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lsteer_internal.h"

/* ---- Handles ------------------------------------------------------------------------------- */

/// True while the handle's vehicle lives. One slot lookup in the core: the serial tells this
/// vehicle from a later one that reuses its slot (even after the slot's generation wrapped), and
/// `removed` (set by world:remove) keeps a handle dead whatever happens to the slot later.
static bool handle_live(const LVehicle *h)
{
    return !h->removed && h->owner->world && steer_vehicle_serial(h->owner->world, h->id) == h->serial;
}

/// Fills the state of a handle's vehicle; false when it was removed.
static bool handle_state(const LVehicle *h, SteerVehicleState *s)
{
    return handle_live(h) && steer_vehicle_get(h->owner->world, h->id, s) == STEER_OK;
}

bool lsteer_vehicle_alive(const LVehicle *h) { return handle_live(h); }

/// Pushes the world userdata a handle at idx belongs to.
static void push_owner(lua_State *L, int idx) { lua_getiuservalue(L, idx, HUV_WORLD); }

void lsteer_push_vehicle_label(lua_State *L, int idx)
{
    LVehicle *h = lua_touserdata(L, idx);
    idx = lua_absindex(L, idx);
    push_owner(L, idx);
    lsteer_push_kind_name(L, lua_gettop(L), h->kind);
    lua_pushfstring(L, "vehicle #%I (%s)", (lua_Integer)h->serial, lua_tostring(L, -1));
    lua_replace(L, -3);
    lua_pop(L, 1);
}

static int removed_error(lua_State *L, int idx)
{
    lsteer_push_vehicle_label(L, idx);
    /* an argument (w:remove(v), w:closest(v)) is named like any bad argument, as a removed shape is */
    if (idx != 1) return luaL_argerror(L, idx, lua_pushfstring(L, "%s was removed", lua_tostring(L, -1)));
    return luaL_error(L, "%s was removed", lua_tostring(L, -1));
}

LVehicle *lsteer_check_handle(lua_State *L, int idx) { return lsteer_check_udata(L, idx, VEHICLE_MT); }

LVehicle *lsteer_check_vehicle(lua_State *L, int idx)
{
    LVehicle *h = lsteer_test_vehicle(L, idx);
    if (!h && idx == 1) lsteer_self_error(L, VEHICLE_MT, "v");
    if (!h) h = lsteer_check_udata(L, idx, VEHICLE_MT); /* raises */
    if (!handle_live(h)) removed_error(L, idx);
    return h;
}

bool steer_lua_to_vehicle(lua_State *L, int idx, SteerVehicleId *out)
{
    LVehicle *h = lsteer_test_vehicle(L, idx);
    if (!h) return false;
    if (out) *out = h->id;
    return true;
}

void steer_lua_push_vehicle(lua_State *L, int world_idx, SteerVehicleId id)
{
    world_idx = lua_absindex(L, world_idx);
    LWorld *w = lsteer_test_world(L, world_idx);
    uint64_t serial = w && w->world ? steer_vehicle_serial(w->world, id) : 0;
    if (!serial) {
        lua_pushnil(L);
        return;
    }
    lua_Integer key = lsteer_handle_key(id);
    lsteer_push_uv(L, world_idx, UV_HANDLES);
    if (lua_rawgeti(L, -1, key) == LUA_TUSERDATA && ((LVehicle *)lua_touserdata(L, -1))->serial == serial) {
        lua_remove(L, -2);
        return;
    }
    lua_pop(L, 1);
    LVehicle *h = lua_newuserdatauv(L, sizeof *h, HUV_COUNT);
    h->tag = LSTEER_VEHICLE_TAG;
    h->id = id;
    h->serial = serial;
    h->world_serial = w->serial;
    h->kind = steer_vehicle_kind(w->world, id);
    h->removed = false;
    h->listening = -1;
    h->owner = w;
    luaL_setmetatable(L, VEHICLE_MT);
    lua_pushvalue(L, world_idx);
    lua_setiuservalue(L, -2, HUV_WORLD);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, key);
    lua_remove(L, -2);
}

const char *steer_lua_vehicle_state(lua_State *L, int world_idx, SteerVehicleId id, size_t *len)
{
    world_idx = lua_absindex(L, world_idx);
    LWorld *w = lsteer_test_world(L, world_idx);
    uint64_t serial = w && w->world ? steer_vehicle_serial(w->world, id) : 0;
    if (!serial) return NULL;
    const char *state = NULL;
    lsteer_push_uv(L, world_idx, UV_HANDLES);
    if (lua_rawgeti(L, -1, lsteer_handle_key(id)) == LUA_TUSERDATA &&
        ((LVehicle *)lua_touserdata(L, -1))->serial == serial) {
        if (lua_getiuservalue(L, -1, HUV_STATE) == LUA_TSTRING) state = lua_tolstring(L, -1, len);
        lua_pop(L, 1); /* the string stays alive as the handle's user value */
    }
    lua_pop(L, 2);
    return state;
}

bool steer_lua_remove_vehicle(lua_State *L, int world_idx, SteerVehicleId id)
{
    LWorld *w = lsteer_test_world(L, world_idx);
    if (!w || !w->world || !steer_vehicle_is_valid(w->world, id)) return false;
    lsteer_remove_vehicle(L, world_idx, id);
    return true;
}

void lsteer_remove_vehicle(lua_State *L, int world_idx, SteerVehicleId id)
{
    world_idx = lua_absindex(L, world_idx);
    LWorld *w = lua_touserdata(L, world_idx);
    uint64_t serial = steer_vehicle_serial(w->world, id);
    if (steer_vehicle_destroy(w->world, id) != STEER_OK) return;
    lsteer_brains_forget(w, id, serial);
    lua_Integer key = lsteer_handle_key(id);
    lsteer_push_uv(L, world_idx, UV_HANDLES);
    if (lua_rawgeti(L, -1, key) == LUA_TUSERDATA) {
        ((LVehicle *)lua_touserdata(L, -1))->removed = true;
        for (int uv = HUV_DATA; uv <= HUV_COUNT; uv++) { /* a kept handle must not keep them alive */
            lua_pushnil(L);
            lua_setiuservalue(L, -2, uv);
        }
    }
    lua_pop(L, 1);
    lua_pushnil(L);
    lua_rawseti(L, -2, key);
    lua_pop(L, 1);
}

/* ---- Values the core does not check: kinds, colours, combine ------------------------------- */

static const char *check_combine(lua_State *L, int idx, SteerCombine *out)
{
    int i = lsteer_names_find(L, idx, &LSTEER_COMBINE_NAMES);
    if (i < 0) return lsteer_names_expected(L, idx, &LSTEER_COMBINE_NAMES);
    *out = (SteerCombine)i;
    return NULL;
}

/// {r, g, b[, a]} (0-255 each, a defaults to 255) or an integer word 0xRRGGBBAA or nil (= 0: the
/// kind's colour) to the core's colour word.
static const char *check_color(lua_State *L, int idx, uint32_t *out)
{
    idx = lua_absindex(L, idx);
    if (lua_isnil(L, idx)) {
        *out = 0;
        return NULL;
    }
    if (lua_type(L, idx) == LUA_TNUMBER) {
        int ok = 0;
        lua_Integer word = lua_tointegerx(L, idx, &ok);
        if (!ok || word < 0 || word > 0xFFFFFFFFLL) return "{r, g, b[, a]} or integer 0xRRGGBBAA expected";
        *out = (uint32_t)word;
        return NULL;
    }
    if (!lua_istable(L, idx)) return lua_pushfstring(L, "{r, g, b[, a]} expected, got %s", luaL_typename(L, idx));
    uint32_t word = 0;
    for (int i = 1; i <= 4; i++) {
        int type = lua_rawgeti(L, idx, i);
        int ok = 0;
        lua_Integer c = lua_tointegerx(L, -1, &ok);
        lua_pop(L, 1);
        if (i == 4 && type == LUA_TNIL) c = 255, ok = 1;
        if (type != LUA_TNUMBER && !(i == 4 && type == LUA_TNIL)) ok = 0;
        if (!ok || c < 0 || c > 255) return "{r, g, b[, a]} of integers 0-255 expected";
        word = (word << 8) | (uint32_t)c;
    }
    *out = word;
    return NULL;
}

static void push_color(lua_State *L, uint32_t word)
{
    if (!word) {
        lua_pushnil(L);
        return;
    }
    lua_createtable(L, 4, 0);
    for (int i = 0; i < 4; i++) {
        lua_pushinteger(L, (word >> (24 - 8 * i)) & 0xFF);
        lua_rawseti(L, -2, i + 1);
    }
}

/// `name` must outlive the call: a string of the options table, or a C literal.
static const char *plan_kind_name(lua_State *L, int world_idx, KindPlan *plan, const char *name, uint32_t *out)
{
    if (!*name) return "kind name must not be empty";
    int kind = lsteer_kind_find(L, world_idx, name);
    if (kind >= 0) {
        *out = (uint32_t)kind;
        return NULL;
    }
    for (int i = 0; i < plan->fresh_count; i++) {
        if (strcmp(plan->fresh[i], name) == 0) {
            *out = (uint32_t)(plan->base + i);
            return NULL;
        }
    }
    if (plan->base + plan->fresh_count >= STEER_MAX_KINDS) return "too many kinds (at most 64 per world)";
    plan->fresh[plan->fresh_count] = name;
    *out = (uint32_t)(plan->base + plan->fresh_count++);
    return NULL;
}

/// The kind name at idx, a value of the options table (which keeps the string alive).
static const char *plan_kind(lua_State *L, int world_idx, KindPlan *plan, int idx, uint32_t *out)
{
    if (lua_type(L, idx) != LUA_TSTRING)
        return lua_pushfstring(L, "kind name (string) expected, got %s", luaL_typename(L, idx));
    size_t len;
    const char *name = lua_tolstring(L, idx, &len);
    if (strlen(name) != len) return "kind name must not hold a NUL byte (\\0): C code would cut it there";
    return plan_kind_name(L, world_idx, plan, name, out);
}

static void plan_commit(lua_State *L, int world_idx, const KindPlan *plan)
{
    for (int i = 0; i < plan->fresh_count; i++) lsteer_kind_intern(L, world_idx, plan->fresh[i]);
}

/// An array of kind names to a mask.
static const char *plan_kinds(lua_State *L, int world_idx, KindPlan *plan, int idx, uint64_t *out)
{
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx)) return lua_pushfstring(L, "array of kind names expected, got %s", luaL_typename(L, idx));
    uint64_t mask = 0;
    lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, idx, i);
        uint32_t kind;
        const char *msg = plan_kind(L, world_idx, plan, -1, &kind);
        if (msg) return msg;
        lua_pop(L, 1);
        mask |= 1ULL << kind;
    }
    *out = mask;
    return NULL;
}

const char *lsteer_plan_kinds(lua_State *L, int world_idx, KindPlan *plan, int idx, uint64_t *out)
{
    return plan_kinds(L, world_idx, plan, idx, out);
}

void lsteer_push_kind_list(lua_State *L, int world_idx, uint64_t mask)
{
    lua_newtable(L);
    int n = 0;
    for (uint32_t k = 0; k < STEER_MAX_KINDS; k++) {
        if (!(mask & (1ULL << k))) continue;
        lsteer_push_kind_name(L, world_idx, k);
        lua_rawseti(L, -2, ++n);
    }
}

/* ---- Per-vehicle Lua values: data, brain, state -------------------------------------------- */

/// Sets user value huv of the handle at idx to the value at value_idx.
static void set_lua_value(lua_State *L, int handle, int huv, int value_idx)
{
    value_idx = lua_absindex(L, value_idx);
    handle = lua_absindex(L, handle);
    lua_pushvalue(L, value_idx);
    lua_setiuservalue(L, handle, huv);
}

static const char *check_lua_value(lua_State *L, int uv, int idx)
{
    if (uv == HUV_DATA && !lua_isnil(L, idx) && !lua_istable(L, idx))
        return lua_pushfstring(L, "table or nil expected, got %s", luaL_typename(L, idx));
    if (uv == HUV_BRAIN) return lsteer_check_brain(L, idx);
    if (uv == HUV_STATE && !lua_isnil(L, idx) && lua_type(L, idx) != LUA_TSTRING)
        return lua_pushfstring(L, "state name (string) or nil expected, got %s", luaL_typename(L, idx));
    return NULL;
}

/* ---- world:spawn{...} ---------------------------------------------------------------------- */

/// The kind of a vehicle spawned without one.
static const char DEFAULT_KIND[] = "vehicle";

typedef struct SpawnFinish {
    const KindPlan *plan;
    SteerVehicleId id;
    bool lua_values; ///< the options give data, brain or state
} SpawnFinish;

static const char *const LUA_VALUES[] = {"data", "brain", "state"}; /* HUV_DATA + i */

static uint64_t spawn_bit(const char *key)
{
    const OptList *list = lsteer_spawn_options();
    for (int i = 0; i < list->count; i++)
        if (strcmp(list->specs[i].key, key) == 0) return 1ULL << i;
    return ~0ULL; /* (never: every key below is a spawn option) - then always looked up */
}

void lsteer_spawn_bits_init(LSpawnBits *bits)
{
    bits->kind = spawn_bit("kind");
    bits->flock_with = spawn_bit("flock_with");
    bits->color = spawn_bit("color");
    bits->combine = spawn_bit("combine");
    for (int i = 0; i < 3; i++) bits->lua_value[i] = spawn_bit(LUA_VALUES[i]);
}

/// spawn's Lua half, in a protected call: (world, options, SpawnFinish) -> the new handle.
static int spawn_finish(lua_State *L)
{
    const SpawnFinish *finish = lua_touserdata(L, 3);
    plan_commit(L, 1, finish->plan);
    steer_lua_push_vehicle(L, 1, finish->id); /* 4 */
    if (finish->lua_values && lua_istable(L, 2)) {
        for (int i = 0; i < 3; i++) {
            lsteer_rawfield(L, 2, LUA_VALUES[i]);
            set_lua_value(L, 4, HUV_DATA + i, -1);
            lua_pop(L, 1);
        }
    }
    return 1;
}

/// Forgets the kinds interned since there were `base` of them (a spawn that failed after
/// interning): setting entries that exist to nil allocates nothing.
static void kinds_rollback(lua_State *L, int world_idx, int base)
{
    LWorld *w = lua_touserdata(L, world_idx);
    lsteer_push_uv(L, world_idx, UV_KINDS);
    while (w->kind_count > base) {
        lua_Integer k = --w->kind_count;
        if (lua_rawgeti(L, -1, k + 1) == LUA_TSTRING) {
            lua_pushvalue(L, -1);
            if (lua_rawget(L, -3) != LUA_TNIL) {
                lua_pop(L, 1);
                lua_pushnil(L);
                lua_rawset(L, -3); /* kinds[name] = nil */
            } else {
                lua_pop(L, 2);
            }
            lua_pushnil(L);
            lua_rawseti(L, -2, k + 1);
        } else {
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
}

int lsteer_spawn(lua_State *L)
{
    LWorld *w = lsteer_check_world(L, 1);
    lua_settop(L, 2);
    SteerVehicleDef def = steer_default_vehicle_def();
    /* Without x (or y) a vehicle starts at the middle of the world on that axis: at the core's
     * default (0, 0) it started in a corner, on the edge that wraps or contains it. */
    def.position.x = steer_world_width(w->world) * 0.5;
    def.position.y = steer_world_height(w->world) * 0.5;
    /* The reader checked every key and says which are there: the options it leaves to this
     * function (kind, data, ...) are looked up only when given, as most spawns give few. */
    uint64_t given = lsteer_read_options2(L, 2, lsteer_spawn_options(), &def, lsteer_vehicle_field_options(), &def);
    const LSpawnBits *bits = &w->spawn_bits;
    if (lua_istable(L, 2)) {
        /* First the values whose check may run script code (a class-like brain's think is found
         * through its __index, which may spawn, remove or close): the world and its kinds are
         * read after it, so that the kind plan below counts from the kinds as they are. */
        for (int i = 0; i < 3; i++) {
            if (!(given & bits->lua_value[i])) continue;
            const char *msg;
            lsteer_rawfield(L, 2, LUA_VALUES[i]);
            if ((msg = check_lua_value(L, HUV_DATA + i, -1))) lsteer_option_error(L, 2, LUA_VALUES[i], msg);
            lua_settop(L, 2);
        }
        w = lsteer_check_world(L, 1); /* closed by that code: "world was closed" */
    }
    KindPlan plan = {.fresh_count = 0, .base = w->kind_count};
    uint32_t kind;
    if (lua_istable(L, 2)) {
        const char *msg = NULL;
        if ((given & bits->kind) && lsteer_rawfield(L, 2, "kind") != LUA_TNIL)
            msg = plan_kind(L, 1, &plan, -1, &kind);
        else
            msg = plan_kind_name(L, 1, &plan, DEFAULT_KIND, &kind);
        if (msg) lsteer_option_error(L, 2, "kind", msg);
        def.kind = kind;
        if ((given & bits->flock_with) && lsteer_rawfield(L, 2, "flock_with") != LUA_TNIL &&
            (msg = plan_kinds(L, 1, &plan, -1, &def.flock_kinds)))
            lsteer_option_error(L, 2, "flock_with", msg);
        if ((given & bits->color) && lsteer_rawfield(L, 2, "color") != LUA_TNIL &&
            (msg = check_color(L, -1, &def.color)))
            lsteer_option_error(L, 2, "color", msg);
        if ((given & bits->combine) && lsteer_rawfield(L, 2, "combine") != LUA_TNIL &&
            (msg = check_combine(L, -1, &def.combine)))
            lsteer_option_error(L, 2, "combine", msg);
        lua_settop(L, 2);
    } else {
        plan_kind_name(L, 1, &plan, DEFAULT_KIND, &kind);
        def.kind = kind;
    }
    SteerVehicleId id;
    if (steer_vehicle_create(w->world, &def, &id) != STEER_OK) return luaL_argerror(L, 2, lsteer_core_error(w->world));
    w->brains.spawns++; /* (undone or not: the brains' roster is built again either way) */
    /* The Lua half allocates (kind names, the handle, its place among the handles): when memory
     * runs out there, the vehicle is taken back, so that a failed spawn changes nothing. */
    SpawnFinish finish = {&plan, id, (given & (bits->lua_value[0] | bits->lua_value[1] | bits->lua_value[2])) != 0};
    lua_pushcfunction(L, spawn_finish);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_pushlightuserdata(L, &finish);
    if (lua_pcall(L, 3, 1, 0) != LUA_OK) {
        kinds_rollback(L, 1, plan.base);
        lua_Integer key = lsteer_handle_key(id);
        lsteer_push_uv(L, 1, UV_HANDLES);
        if (lua_rawgeti(L, -1, key) != LUA_TNIL) {
            lua_pushnil(L);
            lua_rawseti(L, -3, key);
        }
        lua_pop(L, 2);
        steer_vehicle_create_undo(w->world, id);
        return lua_error(L);
    }
    return 1;
}

static int plan_commit_call(lua_State *L)
{
    plan_commit(L, 1, lua_touserdata(L, 2));
    return 0;
}

/// plan_commit where nothing else is to be undone: when memory runs out half way, the kinds
/// interned so far are forgotten again before the error goes on.
static void plan_commit_or_undo(lua_State *L, int world_idx, const KindPlan *plan)
{
    if (plan->fresh_count == 0) return;
    world_idx = lua_absindex(L, world_idx);
    lua_pushcfunction(L, plan_commit_call);
    lua_pushvalue(L, world_idx);
    lua_pushlightuserdata(L, (void *)plan);
    if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
        kinds_rollback(L, world_idx, plan->base);
        lua_error(L);
    }
}

void lsteer_plan_commit(lua_State *L, int world_idx, const KindPlan *plan) { plan_commit_or_undo(L, world_idx, plan); }

/* ---- Other methods ------------------------------------------------------------------------- */
/* The setters return the vehicle, as the behaviour methods do, so that calls chain
 * (`v:set_position(x, y):wander{}`). */

static int vehicle_alive(lua_State *L)
{
    lua_pushboolean(L, lsteer_vehicle_alive(lsteer_check_handle(L, 1)));
    return 1;
}

static int vehicle_set_position(lua_State *L)
{
    LVehicle *v = lsteer_check_vehicle(L, 1);
    SteerVec2 p = steer_vec2(lsteer_check_coordinate(L, 2), lsteer_check_coordinate(L, 3));
    steer_vehicle_set_position(v->owner->world, v->id, p);
    lua_settop(L, 1);
    return 1;
}

static int vehicle_set_velocity(lua_State *L)
{
    LVehicle *v = lsteer_check_vehicle(L, 1);
    SteerVec2 p = steer_vec2(lsteer_check_finite(L, 2), lsteer_check_finite(L, 3));
    if (steer_vehicle_set_velocity(v->owner->world, v->id, p) != STEER_OK)
        luaL_argerror(L, 2, lsteer_core_error(v->owner->world));
    lua_settop(L, 1);
    return 1;
}

static int vehicle_set_heading(lua_State *L)
{
    LVehicle *v = lsteer_check_vehicle(L, 1);
    steer_vehicle_set_heading(v->owner->world, v->id, lsteer_check_finite(L, 2));
    lua_settop(L, 1);
    return 1;
}

static int vehicle_tostring(lua_State *L)
{
    LVehicle *h = lsteer_check_handle(L, 1);
    lsteer_push_vehicle_label(L, 1);
    SteerVehicleState s;
    if (!handle_state(h, &s)) {
        lua_pushfstring(L, "%s (removed)", lua_tostring(L, -1));
        return 1;
    }
    char pos[80];
    snprintf(pos, sizeof pos, " at (%.1f, %.1f)", s.position.x, s.position.y);
    lua_pushfstring(L, "%s%s", lua_tostring(L, -1), pos);
    return 1;
}

/* ---- Fields -------------------------------------------------------------------------------- */

enum {
    /* read-only */
    F_X = 1,
    F_Y,
    F_VX,
    F_VY,
    F_SPEED,
    F_HEADING,
    F_HX,
    F_HY,
    F_ID,
    F_KIND,
    F_FORCE_X,
    F_FORCE_Y,
    F_WORLD,
    F_BRAIN_ERROR,
    /* writable */
    F_COLOR,
    F_COMBINE,
    F_FLOCK_WITH,
    F_DATA,
    F_BRAIN,
    F_STATE,
    /* the core's tunables (steer_vehicle_field_table): F_CORE_FIELD + SteerVehicleField */
    F_CORE_FIELD = 64,
};

#define RO(name, code, hint)                                                                                           \
    {                                                                                                                  \
        name, code, false, hint                                                                                        \
    }
#define RW(name, code)                                                                                                 \
    {                                                                                                                  \
        name, code, true, NULL                                                                                         \
    }
static const LField FIELDS[] = {
    RO("x", F_X, " (use set_position)"),
    RO("y", F_Y, " (use set_position)"),
    RO("vx", F_VX, " (use set_velocity)"),
    RO("vy", F_VY, " (use set_velocity)"),
    RO("speed", F_SPEED, NULL),
    RO("heading", F_HEADING, " (use set_heading)"),
    RO("hx", F_HX, NULL),
    RO("hy", F_HY, NULL),
    RO("id", F_ID, NULL),
    RO("kind", F_KIND, NULL),
    RO("force_x", F_FORCE_X, NULL),
    RO("force_y", F_FORCE_Y, NULL),
    RO("world", F_WORLD, NULL),
    RO("brain_error", F_BRAIN_ERROR, " (assign v.brain to resume its brain)"),
    RW("color", F_COLOR),
    RW("combine", F_COMBINE),
    RW("flock_with", F_FLOCK_WITH),
    RW("data", F_DATA),
    RW("brain", F_BRAIN),
    RW("state", F_STATE),
};
#undef RO
#undef RW

/// Pushes user value huv of the handle at idx; v.data is created on first read.
static void push_lua_value(lua_State *L, int handle, int huv)
{
    if (lua_getiuservalue(L, handle, huv) == LUA_TNIL && huv == HUV_DATA) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setiuservalue(L, handle, HUV_DATA);
    }
}

/// The fields read from a snapshot of the (live) vehicle: tunables and rarely read values.
static int vehicle_get_rest(lua_State *L, const LVehicle *h, int code)
{
    SteerWorld *world = h->owner->world;
    SteerVehicleState s;
    if (steer_vehicle_get(world, h->id, &s) != STEER_OK) return removed_error(L, 1);
    switch (code) {
    case F_FORCE_X: lua_pushnumber(L, s.force.x); break;
    case F_FORCE_Y: lua_pushnumber(L, s.force.y); break;
    case F_COLOR: push_color(L, s.color); break;
    case F_COMBINE: lua_pushstring(L, LSTEER_COMBINE_NAMES.names[s.combine]); break;
    case F_FLOCK_WITH:
        push_owner(L, 1);
        if (s.flock_kinds)
            lsteer_push_kind_list(L, lua_gettop(L), s.flock_kinds);
        else
            lua_pushnil(L);
        break;
    default: { /* a row of the field table */
        double value;
        memcpy(&value, (const char *)&s + steer_vehicle_field_table[code - F_CORE_FIELD].state_offset, sizeof value);
        lua_pushnumber(L, value);
        break;
    }
    }
    return 1;
}

/// Field `code` of the handle at 1 (the class's get: lclass.c found the member). Only the hot reads
/// are here, so that vehicle_index inlines them.
static inline int vehicle_get(lua_State *L, void *self, int code)
{
    const LVehicle *h = self;
    if (!handle_live(h)) return removed_error(L, 1);
    SteerWorld *world = h->owner->world;
    switch (code) { /* the hot reads: straight from the core or the world's tables, no snapshot */
    case F_X: lua_pushnumber(L, steer_vehicle_position(world, h->id).x); return 1;
    case F_Y: lua_pushnumber(L, steer_vehicle_position(world, h->id).y); return 1;
    case F_VX: lua_pushnumber(L, steer_vehicle_velocity(world, h->id).x); return 1;
    case F_VY: lua_pushnumber(L, steer_vehicle_velocity(world, h->id).y); return 1;
    case F_SPEED: lua_pushnumber(L, steer_length(steer_vehicle_velocity(world, h->id))); return 1;
    case F_HEADING: {
        SteerVec2 hd = steer_vehicle_heading(world, h->id);
        lua_pushnumber(L, atan2(hd.y, hd.x));
        return 1;
    }
    case F_HX: lua_pushnumber(L, steer_vehicle_heading(world, h->id).x); return 1;
    case F_HY: lua_pushnumber(L, steer_vehicle_heading(world, h->id).y); return 1;
    case F_ID: lua_pushinteger(L, (lua_Integer)h->serial); return 1;
    case F_KIND: /* brains ask it to tell friend from foe */
        push_owner(L, 1);
        lsteer_push_kind_name(L, lua_gettop(L), steer_vehicle_kind(world, h->id));
        lua_remove(L, -2);
        return 1;
    case F_WORLD: push_owner(L, 1); return 1;
    case F_DATA: push_lua_value(L, 1, HUV_DATA); return 1;
    case F_BRAIN: push_lua_value(L, 1, HUV_BRAIN); return 1;
    case F_STATE: push_lua_value(L, 1, HUV_STATE); return 1;
    case F_BRAIN_ERROR: push_lua_value(L, 1, HUV_BRAIN_ERROR); return 1;
    default: return vehicle_get_rest(L, h, code);
    }
}

static int field_error(lua_State *L, const char *key, const char *msg)
{
    return luaL_error(L, "bad value for field '%s' (%s)", key, msg);
}

/// Assigns the value at 3 to the writable field `code` of the handle at 1 (the class's set).
static int vehicle_set(lua_State *L, void *self, int code, const char *key)
{
    const LVehicle *h = self;
    if (!lsteer_vehicle_alive(h)) return removed_error(L, 1);
    SteerWorld *world = h->owner->world;
    const char *msg = NULL;
    double x = 0.0;
    SteerResult r = STEER_OK;
    switch (code) {
    case F_COLOR: {
        uint32_t word;
        if ((msg = check_color(L, 3, &word))) break;
        r = steer_vehicle_set_color(world, h->id, word);
        break;
    }
    case F_COMBINE: {
        SteerCombine combine = STEER_COMBINE_WEIGHTED; /* set when check_combine passes */
        if ((msg = check_combine(L, 3, &combine))) break;
        r = steer_vehicle_set_combine(world, h->id, combine);
        break;
    }
    case F_FLOCK_WITH: {
        push_owner(L, 1);
        int world_idx = lua_gettop(L);
        KindPlan plan = {.fresh_count = 0, .base = h->owner->kind_count};
        uint64_t mask = 0;
        if (!lua_isnil(L, 3) && (msg = plan_kinds(L, world_idx, &plan, 3, &mask))) break;
        plan_commit_or_undo(L, world_idx, &plan);
        r = steer_vehicle_set_flock_kinds(world, h->id, mask);
        break;
    }
    case F_DATA:
    case F_BRAIN:
    case F_STATE: {
        int uv = HUV_DATA + (code - F_DATA);
        if ((msg = check_lua_value(L, uv, 3))) break;
        set_lua_value(L, 1, uv, 3);
        if (uv == HUV_BRAIN) {
            lsteer_brains_resume(L, 1); /* a brain set anew starts thinking again */
            /* and its senses report what it handles (v:listen's choice went with the old brain) */
            ((LVehicle *)self)->listening = -1;
            lsteer_listen(L, 1);
        }
        break;
    }
    default: { /* a row of the field table: the Lua check names the lower bound, the core the rest */
        SteerVehicleField field = (SteerVehicleField)(code - F_CORE_FIELD);
        if ((msg = lsteer_check_value(L, 3, lsteer_field_type(&steer_vehicle_field_table[field]), &x))) break;
        r = steer_vehicle_set_field(world, h->id, field, x);
        break;
    }
    }
    if (msg) return field_error(L, key, msg);
    if (r != STEER_OK) return field_error(L, key, lsteer_core_error(world));
    return 0;
}

static const luaL_Reg VEHICLE_METHODS[] = {
    {"alive", vehicle_alive},
    {"set_position", vehicle_set_position},
    {"set_velocity", vehicle_set_velocity},
    {"set_heading", vehicle_set_heading},
    {"nav_path", lsteer_vehicle_nav_path},
    {NULL, NULL},
};

/// The behaviour methods (lbehaviours.c) and the senses' (lsenses.c).
static void add_methods(lua_State *L)
{
    lsteer_add_behaviour_methods(L);
    lsteer_add_sense_methods(L);
}

static const luaL_Reg VEHICLE_META[] = {{"__tostring", vehicle_tostring}, {NULL, NULL}};

/// __index: the builder's, with vehicle_get called directly.
static int vehicle_index(lua_State *L) { return lsteer_class_index(L, vehicle_get); }

static const LClass VEHICLE_CLASS = {
    .name = VEHICLE_MT,
    .tag = LSTEER_VEHICLE_TAG,
    .size = sizeof(LVehicle),
    .methods = VEHICLE_METHODS,
    .add_methods = add_methods,
    .fields = FIELDS,
    .field_count = (int)(sizeof FIELDS / sizeof FIELDS[0]),
    .core_fields = steer_vehicle_field_table,
    .core_field_count = STEER_VEHICLE_FIELD_COUNT,
    .core_field_code = F_CORE_FIELD,
    .metamethods = VEHICLE_META,
    .get = vehicle_get,
    .set = vehicle_set,
    .index = vehicle_index,
};

int lsteer_open_vehicle(lua_State *L)
{
    lsteer_class_open(L, &VEHICLE_CLASS, 0);
    return 0;
}
