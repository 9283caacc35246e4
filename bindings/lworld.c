/* SPDX-License-Identifier: MIT */
/* lworld.c - steer.World: creating a world, stepping it, its PRNG, kinds, and the queries scripts
 * ask (closest, neighbors, vehicles, count). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lsteer_internal.h"

/* ---- The userdata -------------------------------------------------------------------------- */

LWorld *lsteer_check_world(lua_State *L, int idx)
{
    LWorld *w = lsteer_test_world(L, idx);
    if (!w && idx == 1) lsteer_self_error(L, WORLD_MT, "w");
    if (!w) w = luaL_checkudata(L, idx, WORLD_MT); /* raises */
    if (w->world) return w;
    if (idx == 1) luaL_error(L, "world was closed"); /* self, like a closed file */
    luaL_argerror(L, idx, "world was closed");
    return w;
}

void lsteer_push_uv(lua_State *L, int world_idx, int uv)
{
    lua_getiuservalue(L, world_idx, uv);
    const LWorld *w = lua_touserdata(L, world_idx);
    if (lua_topointer(L, -1) != w->uv[uv]) luaL_error(L, "steer.World whose tables were replaced (debug.setuservalue)");
}

SteerWorld *steer_lua_to_world(lua_State *L, int idx)
{
    LWorld *w = lsteer_test_world(L, idx);
    return w ? w->world : NULL;
}

/* ---- Kinds: names interned per world to numbers < 64 --------------------------------------- */

int lsteer_kind_find(lua_State *L, int world_idx, const char *name)
{
    lsteer_push_uv(L, world_idx, UV_KINDS);
    int kind = lsteer_rawfield(L, -1, name) == LUA_TNUMBER ? (int)lua_tointeger(L, -1) : -1;
    lua_pop(L, 2);
    return kind;
}

uint32_t lsteer_kind_intern(lua_State *L, int world_idx, const char *name)
{
    int found = lsteer_kind_find(L, world_idx, name);
    if (found >= 0) return (uint32_t)found;
    LWorld *w = lua_touserdata(L, world_idx);
    /* (a spawn plans its kinds against this limit; this is the last line, never reached) */
    if (w->kind_count >= STEER_MAX_KINDS) luaL_error(L, "too many kinds (at most 64 per world)");
    uint32_t kind = (uint32_t)w->kind_count++;
    lsteer_push_uv(L, world_idx, UV_KINDS);
    lua_pushstring(L, name);
    w->kind_names[kind] = lua_topointer(L, -1);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, (lua_Integer)kind + 1);
    lua_pushinteger(L, kind);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    return kind;
}

void lsteer_push_kind_name(lua_State *L, int world_idx, uint32_t kind)
{
    lsteer_push_uv(L, world_idx, UV_KINDS);
    if (lua_rawgeti(L, -1, (lua_Integer)kind + 1) != LUA_TSTRING) {
        lua_pop(L, 1);
        lua_pushliteral(L, "?");
    }
    lua_remove(L, -2);
}

const char *steer_lua_kind_name(lua_State *L, int world_idx, uint32_t kind)
{
    world_idx = lua_absindex(L, world_idx);
    if (!lsteer_test_world(L, world_idx)) return NULL;
    lsteer_push_uv(L, world_idx, UV_KINDS);
    const char *name = lua_rawgeti(L, -1, (lua_Integer)kind + 1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    lua_pop(L, 2); /* the string stays alive in the kinds table, which lives as long as the world */
    return name;
}

/// A kind filter argument: nil = every kind (mask 0); a name = its bit; a name never spawned
/// matches nothing (*none set).
static uint64_t check_kind_filter(lua_State *L, int world_idx, int arg, bool *none)
{
    *none = false;
    if (lua_isnoneornil(L, arg)) return 0;
    if (lua_type(L, arg) != LUA_TSTRING) luaL_typeerror(L, arg, "kind name (string) or nil");
    /* Lua interns short strings: a brain's "prey" is the very string object kept as the name of
     * that kind, so a query (at every think) finds it by address. Other strings (a long name, or
     * one that is no kind) take the table lookup. */
    const LWorld *w = lua_touserdata(L, world_idx);
    const void *name = lua_topointer(L, arg);
    for (int k = 0; name && k < w->kind_count; k++) /* (a Lua that gives strings no address: none) */
        if (w->kind_names[k] == name) return 1ULL << k;
    size_t len;
    const char *text = lua_tolstring(L, arg, &len);
    int kind = strlen(text) == len ? lsteer_kind_find(L, world_idx, text) : -1; /* no kind holds a NUL */
    if (kind < 0) {
        *none = true;
        return 0;
    }
    return 1ULL << kind;
}

/* ---- steer.world{...} ---------------------------------------------------------------------- */

static SteerEdges check_edges(lua_State *L, int opts)
{
    lsteer_rawfield(L, opts, "edges");
    SteerEdges edges = STEER_EDGES_NONE;
    if (!lua_isnil(L, -1)) {
        int i = lsteer_names_find(L, -1, &LSTEER_EDGES_NAMES);
        if (i < 0) lsteer_option_error(L, opts, "edges", lsteer_names_expected(L, -1, &LSTEER_EDGES_NAMES));
        edges = (SteerEdges)i;
    }
    lua_pop(L, 1);
    lsteer_rawfield(L, opts, "wrap");
    if (!lua_isnil(L, -1)) {
        bool wrap = false;
        const char *msg = lsteer_check_value(L, -1, OPT_BOOL, &wrap);
        if (msg) lsteer_option_error(L, opts, "wrap", msg);
        if (wrap && edges != STEER_EDGES_NONE && edges != STEER_EDGES_WRAP)
            lsteer_option_error(L, opts, "wrap", "true conflicts with edges = 'contain'");
        if (wrap) edges = STEER_EDGES_WRAP;
    }
    lua_pop(L, 1);
    return edges;
}

int lsteer_world_new(lua_State *L)
{
    SteerWorldDef def = steer_default_world_def();
    double think_hz = lsteer_default_think_hz();
    lsteer_read_options2(L, 1, lsteer_world_options(), &def, lsteer_world_field_options(), &def);
    if (lua_istable(L, 1)) {
        def.edges = check_edges(L, 1);
        lsteer_rawfield(L, 1, "seed");
        if (!lua_isnil(L, -1)) {
            int ok = 0;
            lua_Integer seed = lua_tointegerx(L, -1, &ok);
            if (!ok || seed < 0) {
                lua_pushfstring(L, "non-negative integer expected, got %s",
                                lua_type(L, -1) == LUA_TNUMBER ? lua_tostring(L, -1) : luaL_typename(L, -1));
                lsteer_option_error(L, 1, "seed", lua_tostring(L, -1));
            }
            def.seed = (uint64_t)seed;
        }
        lua_pop(L, 1);
        /* the core takes 0 for its default (a zeroed SteerWorldDef); given in Lua it is a mistake */
        if (def.threads == 0) lsteer_option_error(L, 1, "threads", "integer >= 1 expected, got 0");
        const char *msg = NULL;
        if (lsteer_rawfield(L, 1, "think_hz") != LUA_TNIL && (msg = lsteer_check_think_hz(L, -1, &think_hz)))
            lsteer_option_error(L, 1, "think_hz", msg);
        lua_pop(L, 1);
    }
    char message[160];
    if (steer_world_def_check(&def, message, sizeof message) != STEER_OK) luaL_argerror(L, 1, message);

    LWorld *w = lua_newuserdatauv(L, sizeof *w, UV_COUNT);
    w->tag = LSTEER_WORLD_TAG;
    w->world = NULL;
    w->serial = lsteer_next_world_serial(L);
    w->kind_count = 0;
    w->held = false;
    lsteer_brains_init(&w->brains, think_hz);
    lsteer_spawn_bits_init(&w->spawn_bits);
    luaL_setmetatable(L, WORLD_MT);
    for (int uv = UV_HANDLES; uv <= UV_COUNT; uv++) {
        lua_newtable(L);
        w->uv[uv] = lua_topointer(L, -1);
        lua_setiuservalue(L, -2, uv);
    }
    w->tag_count = 0;
    memset(&w->memories, 0, sizeof w->memories);
    /* The world's memory comes from the Lua state's allocator, as the brains' arrays do: a capped
     * state bounds the world too, and a state that refuses memory refuses the core's as well. */
    def.alloc = lua_getallocf(L, &def.alloc_user);
    w->world = steer_world_create(&def);
    if (!w->world) return luaL_error(L, "not enough memory for a world");
    return 1;
}

/* ---- Methods ------------------------------------------------------------------------------- */

static int world_step(lua_State *L)
{
    LWorld *w = lsteer_check_world(L, 1);
    lua_Integer n = luaL_optinteger(L, 2, 1);
    luaL_argcheck(L, n >= 0, 2, "number of steps must be >= 0");
    lua_getfield(L, LUA_REGISTRYINDEX, STEER_LUA_STEP_CHECK); /* the host's budget (steer_lua.h) */
    lua_CFunction check = lua_tocfunction(L, -1);
    lua_pop(L, 1);
    for (lua_Integer i = 0; i < n; i++) {
        steer_world_step(w->world);
        /* right after the step: the core keeps only its events, and a change to a sense drops them */
        if (w->brains.collecting) lsteer_collect_events(L, w);
        if (check) check(L); /* may raise: the steps taken stay taken, as after any error */
    }
    lua_settop(L, 1); /* the world, so that calls chain: w:step(60):count() */
    return 1;
}

/// A uniform integer in [0, range] from the world's PCG32 (rejection: no modulo bias).
static uint64_t random_below_or_equal(SteerWorld *world, uint64_t range)
{
    if (range == 0) return 0;
    uint64_t mask = range;
    mask |= mask >> 1;
    mask |= mask >> 2;
    mask |= mask >> 4;
    mask |= mask >> 8;
    mask |= mask >> 16;
    mask |= mask >> 32;
    for (;;) {
        uint64_t bits = steer_world_random_u32(world);
        if (mask > UINT32_MAX) bits = (bits << 32) | steer_world_random_u32(world);
        bits &= mask;
        if (bits <= range) return bits;
    }
}

/// Like math.random, on the world's PRNG: () in [0, 1), (m) in [1, m], (m, n) in [m, n].
static int world_random(lua_State *L)
{
    LWorld *w = lsteer_check_world(L, 1);
    lua_Integer low, high;
    switch (lua_gettop(L)) {
    case 1: lua_pushnumber(L, steer_world_random(w->world)); return 1;
    case 2:
        low = 1;
        high = luaL_checkinteger(L, 2);
        break;
    case 3:
        low = luaL_checkinteger(L, 2);
        high = luaL_checkinteger(L, 3);
        break;
    default: return luaL_error(L, "wrong number of arguments to 'random'");
    }
    luaL_argcheck(L, low <= high, lua_gettop(L) == 2 ? 2 : 3, "interval is empty");
    uint64_t r = random_below_or_equal(w->world, (uint64_t)high - (uint64_t)low);
    lua_pushinteger(L, (lua_Integer)((uint64_t)low + r));
    return 1;
}

static int world_remove(lua_State *L)
{
    lsteer_check_world(L, 1);
    lsteer_remove_any(L, 1, 2);
    lua_settop(L, 1); /* the world, as every method without a result of its own */
    return 1;
}

/// Pushes an array of the ids' handles.
static void push_vehicle_array(lua_State *L, int world_idx, const SteerVehicleId *ids, int n)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        steer_lua_push_vehicle(L, world_idx, ids[i]);
        lua_rawseti(L, -2, i + 1);
    }
}

/// Every vehicle id, in creation order, in a scratch userdata left on the stack.
static SteerVehicleId *all_vehicles(lua_State *L, LWorld *w, int *count)
{
    int n = steer_world_vehicle_count(w->world);
    SteerVehicleId *ids = lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof *ids, 0);
    *count = steer_world_get_vehicles(w->world, ids, n);
    return ids;
}

static int filter_by_kind(LWorld *w, SteerVehicleId *ids, int n, uint64_t kinds)
{
    if (!kinds) return n;
    int kept = 0;
    SteerVehicleState s;
    for (int i = 0; i < n; i++) {
        if (steer_vehicle_get(w->world, ids[i], &s) == STEER_OK && (kinds & (1ULL << s.kind))) ids[kept++] = ids[i];
    }
    return kept;
}

static int world_vehicles(lua_State *L)
{
    LWorld *w = lsteer_check_world(L, 1);
    bool none;
    uint64_t kinds = check_kind_filter(L, 1, 2, &none);
    if (none) {
        lua_newtable(L);
        return 1;
    }
    int n;
    SteerVehicleId *ids = all_vehicles(L, w, &n);
    n = filter_by_kind(w, ids, n, kinds);
    push_vehicle_array(L, 1, ids, n);
    return 1;
}

static int world_count(lua_State *L)
{
    LWorld *w = lsteer_check_world(L, 1);
    bool none;
    uint64_t kinds = check_kind_filter(L, 1, 2, &none);
    if (none) {
        lua_pushinteger(L, 0);
        return 1;
    }
    if (!kinds) {
        lua_pushinteger(L, steer_world_vehicle_count(w->world));
        return 1;
    }
    int n;
    SteerVehicleId *ids = all_vehicles(L, w, &n);
    lua_pushinteger(L, filter_by_kind(w, ids, n, kinds));
    return 1;
}

/// world:closest(v, kind, range) or world:closest(x, y, kind, range) -> vehicle or nil.
static int world_closest(lua_State *L)
{
    LWorld *w = lsteer_check_world(L, 1);
    SteerQueryFilter filter = steer_default_query_filter();
    SteerVec2 point;
    LVehicle *v;
    int arg = 2;
    if (lua_type(L, 2) == LUA_TNUMBER) {
        point = steer_vec2(lsteer_check_coordinate(L, 2), lsteer_check_coordinate(L, 3));
        arg = 4;
    } else if ((v = lsteer_test_vehicle(L, 2))) {
        if (!lsteer_vehicle_alive(v)) lsteer_check_vehicle(L, 2); /* raises: removed */
        if (v->owner != w) luaL_argerror(L, 2, "vehicle of another world");
        point = steer_vehicle_position(w->world, v->id);
        filter.exclude = v->id;
        arg = 3;
    } else {
        return luaL_typeerror(L, 2, "vehicle or x, y");
    }
    bool none;
    filter.kinds = check_kind_filter(L, 1, arg, &none);
    double range = HUGE_VAL;
    if (!lua_isnoneornil(L, arg + 1)) {
        if (lua_type(L, arg + 1) != LUA_TNUMBER) luaL_typeerror(L, arg + 1, "number");
        range = lua_tonumber(L, arg + 1);
        if (isnan(range) || range < 0) {
            lsteer_push_number_text(L, range);
            luaL_argerror(L, arg + 1, lua_pushfstring(L, "range >= 0 expected, got %s", lua_tostring(L, -1)));
        }
    }
    SteerVehicleId found;
    if (none || !steer_world_query_closest(w->world, point, range, &filter, &found)) {
        lua_pushnil(L);
        return 1;
    }
    steer_lua_push_vehicle(L, 1, found);
    return 1;
}

/// world:neighbors(v, radius[, kind]) -> array in id order, without v.
static int world_neighbors(lua_State *L)
{
    LWorld *w = lsteer_check_world(L, 1);
    LVehicle *v = lsteer_check_vehicle(L, 2);
    if (v->owner != w) luaL_argerror(L, 2, "vehicle of another world");
    if (lua_type(L, 3) != LUA_TNUMBER) luaL_typeerror(L, 3, "number");
    double radius = lua_tonumber(L, 3);
    if (!(isfinite(radius) && radius >= 0)) {
        lsteer_push_number_text(L, radius);
        luaL_argerror(L, 3, lua_pushfstring(L, "finite radius >= 0 expected, got %s", lua_tostring(L, -1)));
    }
    bool none;
    SteerQueryFilter filter = steer_default_query_filter();
    filter.kinds = check_kind_filter(L, 1, 4, &none);
    filter.exclude = v->id;
    if (none) {
        lua_newtable(L);
        return 1;
    }
    SteerVec2 center = steer_vehicle_position(w->world, v->id);
    int n = steer_world_query_radius(w->world, center, radius, &filter, NULL, 0);
    if (n < 0) return luaL_argerror(L, 3, lsteer_core_error(w->world));
    SteerVehicleId *ids = lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof *ids, 0);
    n = steer_world_query_radius(w->world, center, radius, &filter, ids, n);
    push_vehicle_array(L, 1, ids, n);
    return 1;
}

/// The names of the kinds spawned so far, in kind-number order.
static int world_kinds(lua_State *L)
{
    LWorld *w = lsteer_check_world(L, 1);
    lua_createtable(L, w->kind_count, 0);
    for (int k = 0; k < w->kind_count; k++) {
        lsteer_push_kind_name(L, 1, (uint32_t)k);
        lua_rawseti(L, -2, k + 1);
    }
    return 1;
}

/// Destroys the world now (also __gc and __close); every later use is an error.
static int world_free(lua_State *L)
{
    LWorld *w = luaL_checkudata(L, 1, WORLD_MT);
    if (w->world) {
        steer_world_destroy(w->world);
        w->world = NULL;
        lsteer_brains_free(L, &w->brains);
        if (w->memories.items) {
            void *ud;
            lua_Alloc alloc = lua_getallocf(L, &ud);
            alloc(ud, w->memories.items, (size_t)w->memories.capacity * sizeof *w->memories.items, 0);
        }
        memset(&w->memories, 0, sizeof w->memories);
    }
    return 0;
}

/// w:close(), `local w <close>` and __gc: world_free, except on a world its host holds, which goes
/// on stepping it after the call (the program's world would be freed under it). A script can call
/// a __gc it reached itself; the collector reaches a held world only after the host let it go.
static int world_close_as(lua_State *L, const char *what)
{
    LWorld *w = luaL_checkudata(L, 1, WORLD_MT);
    if (w->held)
        return luaL_error(L,
                          "%s: this world belongs to the program running the scene, which closes it "
                          "itself (remove vehicles with w:remove)",
                          what);
    return world_free(L);
}

static int world_close(lua_State *L) { return world_close_as(L, "close"); }
static int world_gc(lua_State *L) { return world_close_as(L, "__gc"); }

void steer_lua_hold_world(lua_State *L, int idx)
{
    LWorld *w = lsteer_test_world(L, idx);
    if (w) w->held = true;
}

void steer_lua_release_world(lua_State *L, int idx)
{
    LWorld *w = lsteer_test_world(L, idx);
    if (w) w->held = false;
}

static int world_tostring(lua_State *L)
{
    LWorld *w = luaL_checkudata(L, 1, WORLD_MT);
    if (!w->world) {
        lua_pushliteral(L, "world (closed)");
        return 1;
    }
    lua_pushfstring(L, "world %dx%d (%s), %d vehicles, t = %f", (int)steer_world_width(w->world),
                    (int)steer_world_height(w->world), LSTEER_EDGES_NAMES.names[steer_world_edges(w->world)],
                    steer_world_vehicle_count(w->world), steer_world_time(w->world));
    return 1;
}

/* ---- Fields -------------------------------------------------------------------------------- */

enum { F_TIME = 1, F_DT, F_WIDTH, F_HEIGHT, F_STEP_COUNT, F_EDGES, F_THINK_HZ };
static const LField WORLD_FIELDS[] = {
    {"time", F_TIME, false, NULL},
    {"dt", F_DT, true, NULL},
    {"width", F_WIDTH, false, NULL},
    {"height", F_HEIGHT, false, NULL},
    {"step_count", F_STEP_COUNT, false, NULL},
    {"edges", F_EDGES, false, NULL},
    {"think_hz", F_THINK_HZ, true, NULL},
};

static const luaL_Reg WORLD_METHODS[] = {
    {"step", world_step},
    {"think", lsteer_world_think},
    {"resume_brains", lsteer_world_resume_brains},
    {"random", world_random},
    {"spawn", lsteer_spawn},
    {"remove", world_remove},
    {"vehicles", world_vehicles},
    {"count", world_count},
    {"closest", world_closest},
    {"neighbors", world_neighbors},
    {"obstacle", lsteer_world_obstacle},
    {"wall", lsteer_world_wall},
    {"path", lsteer_world_path},
    {"flow_field", lsteer_world_flow_field},
    {"flow_field_to", lsteer_world_flow_field_to},
    {"find_path", lsteer_world_find_path},
    {"nav_map", lsteer_world_nav_map},
    {"obstacles", lsteer_world_obstacles},
    {"walls", lsteer_world_walls},
    {"kinds", world_kinds},
    {"debug_draw", lsteer_world_debug_draw},
    {"emit", lsteer_world_emit},
    {"line_of_sight", lsteer_world_line_of_sight},
    {"listen_to_brains", lsteer_world_listen_to_brains},
    {"close", world_close},
    {NULL, NULL},
};

/// A closed world answers nothing but its methods (which say so themselves).
static void world_check_open(lua_State *L, void *self)
{
    if (!((LWorld *)self)->world) luaL_error(L, "world was closed"); /* self, like a closed file */
}

/// Field `code` of the (open) world at 1.
static int world_get(lua_State *L, void *self, int code)
{
    LWorld *w = self;
    switch (code) {
    case F_TIME: lua_pushnumber(L, steer_world_time(w->world)); break;
    case F_DT: lua_pushnumber(L, steer_world_dt(w->world)); break;
    case F_WIDTH: lua_pushnumber(L, steer_world_width(w->world)); break;
    case F_HEIGHT: lua_pushnumber(L, steer_world_height(w->world)); break;
    case F_STEP_COUNT: lua_pushinteger(L, (lua_Integer)steer_world_step_count(w->world)); break;
    case F_THINK_HZ: lua_pushnumber(L, w->brains.hz); break;
    case F_EDGES: lua_pushstring(L, LSTEER_EDGES_NAMES.names[steer_world_edges(w->world)]); break;
    }
    return 1;
}

/// Only dt (a number in (0, 1]) and think_hz (>= 0) may be written, checked.
static int world_set(lua_State *L, void *self, int code, const char *key)
{
    LWorld *w = self;
    (void)key;
    if (code == F_DT) {
        double dt = 0;
        const char *msg = lsteer_check_value(L, 3, OPT_POSITIVE, &dt);
        if (!msg && dt > 1.0) {
            lsteer_push_number_text(L, dt);
            msg = lua_pushfstring(L, "number in (0, 1] expected, got %s", lua_tostring(L, -1));
        }
        if (msg) return luaL_error(L, "bad value for field 'dt' (%s)", msg);
        if (steer_world_set_dt(w->world, dt) != STEER_OK)
            return luaL_error(L, "bad value for field 'dt' (%s)", lsteer_core_error(w->world));
        return 0;
    }
    double hz = 0;
    const char *msg = lsteer_check_think_hz(L, 3, &hz);
    if (msg) return luaL_error(L, "bad value for field 'think_hz' (%s)", msg);
    w->brains.hz = hz;
    return 0;
}

static const luaL_Reg WORLD_META[] = {
    {"__gc", world_gc},
    {"__close", world_close},
    {"__tostring", world_tostring},
    {NULL, NULL},
};

/// __index: the builder's, with world_get called directly.
static int world_index(lua_State *L) { return lsteer_class_index(L, world_get); }

static const LClass WORLD_CLASS = {
    .name = WORLD_MT,
    .tag = LSTEER_WORLD_TAG,
    .size = sizeof(LWorld),
    .methods = WORLD_METHODS,
    .fields = WORLD_FIELDS,
    .field_count = (int)(sizeof WORLD_FIELDS / sizeof WORLD_FIELDS[0]),
    .metamethods = WORLD_META,
    .flags = LCLASS_STRING_KEYS | LCLASS_METHODS_READ_ONLY,
    .check_first = world_check_open,
    .get = world_get,
    .set = world_set,
    .index = world_index,
};

int lsteer_open_world(lua_State *L)
{
    lsteer_class_open(L, &WORLD_CLASS, 0);
    return 0;
}
