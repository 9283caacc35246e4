/* SPDX-License-Identifier: MIT */
/* lsenses.c - senses from Lua (issue #28): v:sense{...} gives a vehicle a named sight or hearing
 * sense that the core computes in the step; v:sensed(name) and v:memory(name) read what it found,
 * without allocating; v:emit{...} and w:emit{...} make sounds; v:wake_in(s) sets the vehicle's
 * timer; w:line_of_sight tests a segment as sight does. What changes (sensed, lost, forgot, heard,
 * timer) reaches the brains as events: lbrains.c delivers them.
 *
 * Names. A sense is named per vehicle (the core keeps the name); a sound's tag is a name interned
 * per world to a number 0..31 (UV_TAGS), as kinds are. Angles: the cone's `fov` is in degrees, the
 * way fields of view are usually given (the core takes radians). */
#include <math.h>
#include <string.h>

#include "lsteer_internal.h"

/* ---- Sound tags: names interned per world to numbers < STEER_MAX_SOUND_TAGS ------------------ */

/// The tag of a sound emitted without one.
static const char DEFAULT_TAG[] = "sound";

static int tag_find(lua_State *L, int world_idx, const char *name)
{
    lsteer_push_uv(L, world_idx, UV_TAGS);
    int tag = lua_getfield(L, -1, name) == LUA_TNUMBER ? (int)lua_tointeger(L, -1) : -1;
    lua_pop(L, 2);
    return tag;
}

void lsteer_push_tag_name(lua_State *L, int world_idx, uint32_t tag)
{
    lsteer_push_uv(L, world_idx, UV_TAGS);
    if (lua_rawgeti(L, -1, (lua_Integer)tag + 1) != LUA_TSTRING) {
        lua_pop(L, 1);
        lua_pushinteger(L, (lua_Integer)tag); /* a tag a C host emitted by number */
    }
    lua_remove(L, -2);
}

/// Tag names wanted by one call: new names are interned only when the call succeeds.
typedef struct TagPlan {
    const char *fresh[STEER_MAX_SOUND_TAGS];
    int fresh_count;
    int base;
} TagPlan;

/// The tag name at idx (a string the caller keeps alive) to its number, planned.
static const char *plan_tag(lua_State *L, int world_idx, TagPlan *plan, int idx, uint32_t *out)
{
    if (lua_type(L, idx) != LUA_TSTRING)
        return lua_pushfstring(L, "tag name (string) expected, got %s", luaL_typename(L, idx));
    size_t len;
    const char *name = lua_tolstring(L, idx, &len);
    if (len == 0) return "tag name must not be empty";
    if (strlen(name) != len) return "tag name must not hold a NUL byte (\\0)";
    int tag = tag_find(L, world_idx, name);
    if (tag >= 0) {
        *out = (uint32_t)tag;
        return NULL;
    }
    for (int i = 0; i < plan->fresh_count; i++) {
        if (strcmp(plan->fresh[i], name) == 0) {
            *out = (uint32_t)(plan->base + i);
            return NULL;
        }
    }
    if (plan->base + plan->fresh_count >= STEER_MAX_SOUND_TAGS) return "too many sound tags (at most 32 per world)";
    plan->fresh[plan->fresh_count] = name;
    *out = (uint32_t)(plan->base + plan->fresh_count++);
    return NULL;
}

static void plan_tags_commit(lua_State *L, int world_idx, const TagPlan *plan)
{
    LWorld *w = lua_touserdata(L, world_idx);
    lsteer_push_uv(L, world_idx, UV_TAGS);
    for (int i = 0; i < plan->fresh_count; i++) {
        uint32_t tag = (uint32_t)w->tag_count;
        lua_pushstring(L, plan->fresh[i]);
        lua_pushvalue(L, -1);
        lua_rawseti(L, -3, (lua_Integer)tag + 1);
        lua_pushinteger(L, (lua_Integer)tag);
        lua_rawset(L, -3);
        w->tag_count++;
    }
    lua_pop(L, 1);
}

/* ---- Sense names ----------------------------------------------------------------------------- */

/// Raises `bad argument #n to 'f' (vehicle #3 (guard) has no sense 'eyez' (did you mean 'eyes'?))`.
static int unknown_sense(lua_State *L, const LVehicle *h, int arg, const char *name)
{
    SteerWorld *world = h->owner->world;
    const char *names[STEER_MAX_SENSES];
    SteerSenseDef defs[STEER_MAX_SENSES];
    int n = steer_vehicle_sense_count(world, h->id);
    if (n > STEER_MAX_SENSES) n = STEER_MAX_SENSES;
    for (int i = 0; i < n; i++) {
        if (steer_vehicle_get_sense(world, h->id, i, &defs[i]) != STEER_OK || !defs[i].name) defs[i].name = "?";
        names[i] = defs[i].name;
    }
    lua_pushvalue(L, 1);
    lsteer_push_vehicle_label(L, lua_gettop(L));
    const char *label = lua_tostring(L, -1);
    const char *hint = lsteer_suggest(name, names, n);
    if (hint)
        return luaL_argerror(L, arg,
                             lua_pushfstring(L, "%s has no sense '%s' (did you mean '%s'?)", label, name, hint));
    if (n == 0) return luaL_argerror(L, arg, lua_pushfstring(L, "%s has no sense '%s' (it has none)", label, name));
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 0; i < n; i++) {
        if (i) luaL_addstring(&b, ", ");
        luaL_addstring(&b, names[i]);
    }
    luaL_pushresult(&b);
    return luaL_argerror(L, arg,
                         lua_pushfstring(L, "%s has no sense '%s' (senses: %s)", label, name, lua_tostring(L, -1)));
}

/// The index of the live vehicle's (at 1) sense named by the string at arg, or an argument error.
static int check_sense(lua_State *L, const LVehicle *h, int arg)
{
    const char *name = luaL_checkstring(L, arg);
    int sense = steer_vehicle_find_sense(h->owner->world, h->id, name);
    if (sense < 0) unknown_sense(L, h, arg, name);
    return sense;
}

/* ---- Listening: the events a vehicle's senses make ------------------------------------------ */

/* A sense makes only the events someone handles (the core's mask, SteerSenseDef.events): the
 * vehicle's brain's handlers, unless v:listen chose. Events no brain handles then cost nothing,
 * neither in the step nor here. Set when a sense is added, when v.brain is set, by v:listen, and
 * for every vehicle by w:listen_to_brains() (a reload runs it: handlers may have come or gone). */

/// The sense events by name, in SteerSenseEventType order.
static const char *const SENSE_EVENTS[] = {"sensed", "lost", "forgot", "heard"};
enum { SENSE_EVENT_COUNT = 4 };

uint32_t lsteer_brain_events(lua_State *L, int idx)
{
    if (lua_type(L, idx) != LUA_TTABLE) return 0; /* (a function brain gets no events) */
    idx = lua_absindex(L, idx);
    uint32_t events = 0;
    for (int e = 0; e < SENSE_EVENT_COUNT; e++) {
        if (lua_getfield(L, idx, SENSE_EVENTS[e]) == LUA_TFUNCTION) events |= STEER_EVENT_BIT(e);
        lua_pop(L, 1);
    }
    return events;
}

/// What the vehicle whose handle is at idx listens to (v:listen's, else its brain's handlers).
static uint32_t listening(lua_State *L, int idx)
{
    const LVehicle *h = lua_touserdata(L, idx);
    if (h->listening >= 0) return (uint32_t)h->listening;
    lua_getiuservalue(L, idx, HUV_BRAIN);
    uint32_t events = lsteer_brain_events(L, -1);
    lua_pop(L, 1);
    return events;
}

void lsteer_listen(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    const LVehicle *h = lua_touserdata(L, idx);
    uint32_t events = listening(L, idx); /* (a brain's __index may run code: then the checks) */
    if (lsteer_vehicle_alive(h)) steer_vehicle_set_sense_events(h->owner->world, h->id, -1, events);
}

/// v:listen({"sensed", "lost", ...}): its senses make only these events, whatever handlers its
/// brain has (the fsm library narrows them to what the current state handles); v:listen() goes
/// back to its brain's handlers. Setting v.brain goes back too. Returns v.
static int vehicle_listen(lua_State *L)
{
    LVehicle *h = lsteer_check_vehicle(L, 1);
    lua_settop(L, 2);
    if (lua_isnil(L, 2)) {
        h->listening = -1;
    } else {
        if (!lua_istable(L, 2))
            return luaL_argerror(
                L, 2, lua_pushfstring(L, "array of sense event names expected, got %s", luaL_typename(L, 2)));
        uint32_t events = 0;
        lua_Integer n = (lua_Integer)lua_rawlen(L, 2);
        for (lua_Integer i = 1; i <= n; i++) {
            lua_rawgeti(L, 2, i);
            const char *name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
            int e = 0;
            while (name && e < SENSE_EVENT_COUNT && strcmp(name, SENSE_EVENTS[e]) != 0) e++;
            if (!name || e == SENSE_EVENT_COUNT) {
                const char *hint = name ? lsteer_suggest(name, SENSE_EVENTS, SENSE_EVENT_COUNT) : NULL;
                if (hint)
                    return luaL_argerror(
                        L, 2,
                        lua_pushfstring(L, "item %I: unknown sense event '%s' (did you mean '%s'?)", i, name, hint));
                return luaL_argerror(L, 2,
                                     lua_pushfstring(L,
                                                     "item %I: sense event name expected ('sensed', 'lost', "
                                                     "'forgot' or 'heard'), got %s",
                                                     i, name ? name : luaL_typename(L, -1)));
            }
            events |= STEER_EVENT_BIT(e);
            lua_pop(L, 1);
        }
        h->listening = (int8_t)events;
    }
    lsteer_listen(L, 1);
    lua_settop(L, 1);
    return 1;
}

/// w:listen_to_brains(): every vehicle's senses make the events its brain handles (v:listen's
/// choices go). A reload runs it once the new code is in place. Returns w.
int lsteer_world_listen_to_brains(lua_State *L)
{
    LWorld *w = lsteer_check_world(L, 1);
    lua_settop(L, 1);
    /* By the ids of now (a brain's __index may spawn or remove while it is asked), through the
     * handles: a vehicle never pushed to Lua has no brain, and its senses were made so. */
    int n = steer_world_vehicle_count(w->world);
    SteerVehicleId *ids = lua_newuserdatauv(L, (size_t)(n > 0 ? n : 1) * sizeof *ids, 0); /* 2 */
    n = steer_world_get_vehicles(w->world, ids, n);
    lsteer_push_uv(L, 1, UV_HANDLES); /* 3 */
    for (int i = 0; i < n && w->world; i++) {
        if (lua_rawgeti(L, 3, lsteer_handle_key(ids[i])) == LUA_TUSERDATA) {
            LVehicle *h = lua_touserdata(L, -1);
            if (lsteer_vehicle_alive(h) && steer_vehicle_id_equal(h->id, ids[i])) {
                h->listening = -1;
                lsteer_listen(L, -1);
            }
        }
        lua_settop(L, 3);
    }
    lua_settop(L, 1);
    return 1;
}

/* ---- v:sense{name =, sight = {...} | hearing = {...}} ---------------------------------------- */

enum { K_KINDS, K_TAGS, K_RANGE, K_FOV, K_WALLS, K_OBSTACLES, K_FORGET, K_PERIOD, K_MAX_MEMORIES, K_COUNT };

static const struct {
    const char *key;
    OptType type;
    bool sight, hearing;
} SENSE_KEYS[K_COUNT] = {
    [K_KINDS] = {"kinds", OPT_CUSTOM, true, false},
    [K_TAGS] = {"tags", OPT_CUSTOM, false, true},
    [K_RANGE] = {"range", OPT_POSITIVE, true, true},
    [K_FOV] = {"fov", OPT_POSITIVE, true, false},
    [K_WALLS] = {"walls_block", OPT_BOOL, true, false},
    [K_OBSTACLES] = {"obstacles_block", OPT_BOOL, true, false},
    [K_FORGET] = {"forget_after", OPT_NONNEG, true, true},
    [K_PERIOD] = {"period", OPT_NONNEG, true, true},
    [K_MAX_MEMORIES] = {"max_memories", OPT_INT, true, true},
};

static bool key_of(SteerSenseType type, int k)
{
    return type == STEER_SENSE_SIGHT ? SENSE_KEYS[k].sight : SENSE_KEYS[k].hearing;
}

/// Every key of the table at t must be one of the type's: else the smallest unknown one is
/// reported (`unknown option 'rnage' for sight (did you mean 'range'?)`).
static void check_keys(lua_State *L, int t, int arg, const char *what, const char *const *keys, int count)
{
    const char *unknown = NULL;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        if (lua_type(L, -2) != LUA_TSTRING) {
            lua_pushfstring(L, "option names must be strings, got %s", luaL_typename(L, -2));
            luaL_argerror(L, arg, lua_tostring(L, -1));
        }
        const char *key = lua_tostring(L, -2);
        bool known = false;
        for (int i = 0; i < count && !known; i++) known = strcmp(keys[i], key) == 0;
        if (!known && (!unknown || strcmp(key, unknown) < 0)) unknown = key; /* alive: a key of t */
        lua_pop(L, 1);
    }
    if (unknown) {
        lua_pushfstring(L, " for %s", what);
        lsteer_unknown_error(L, "option", unknown, lua_tostring(L, -1), keys, count);
    }
}

/// Reads the sight or hearing table at t (the options of argument `arg`) into def.
static void read_sense_type(lua_State *L, int world_idx, int arg, int t, SteerSenseDef *def, KindPlan *kinds,
                            TagPlan *tags)
{
    const char *what = def->type == STEER_SENSE_SIGHT ? "sight" : "hearing";
    if (!lua_istable(L, t))
        lsteer_option_error(L, arg, what, lua_pushfstring(L, "table expected, got %s", luaL_typename(L, t)));
    const char *keys[K_COUNT];
    int n = 0;
    for (int k = 0; k < K_COUNT; k++)
        if (key_of(def->type, k)) keys[n++] = SENSE_KEYS[k].key;
    check_keys(L, t, arg, what, keys, n);
    for (int k = 0; k < K_COUNT; k++) {
        if (!key_of(def->type, k)) continue;
        const char *key = SENSE_KEYS[k].key;
        if (lua_getfield(L, t, key) == LUA_TNIL) {
            lua_pop(L, 1);
            continue;
        }
        const char *msg = NULL;
        double x = 0.0;
        int i = 0;
        bool flag = false;
        switch (k) {
        case K_KINDS:
        case K_TAGS: {
            if (!lua_istable(L, -1)) {
                msg = lua_pushfstring(L, "array of %s names expected, got %s", k == K_KINDS ? "kind" : "tag",
                                      luaL_typename(L, -1));
                break;
            }
            if (lua_rawlen(L, -1) == 0) {
                msg = k == K_KINDS
                          ? "array of kind names expected, got an empty one (leave 'kinds' out to see every kind)"
                          : "array of tag names expected, got an empty one (leave 'tags' out to hear every tag)";
                break;
            }
            if (k == K_KINDS) {
                msg = lsteer_plan_kinds(L, world_idx, kinds, -1, &def->kinds);
                break;
            }
            uint32_t mask = 0;
            int top = lua_gettop(L);
            lua_Integer len = (lua_Integer)lua_rawlen(L, top);
            for (lua_Integer j = 1; j <= len && !msg; j++) {
                lua_rawgeti(L, top, j);
                uint32_t tag = 0;
                msg = plan_tag(L, world_idx, tags, -1, &tag);
                if (!msg) {
                    mask |= 1u << tag;
                    lua_pop(L, 1);
                }
            }
            def->tags = mask;
            break;
        }
        case K_FOV:
            if ((msg = lsteer_check_value(L, -1, OPT_NUMBER, &x))) break;
            if (!(x > 0.0 && x <= 360.0)) {
                lsteer_push_number_text(L, x);
                msg = lua_pushfstring(L, "degrees in (0, 360] expected, got %s", lua_tostring(L, -1));
                break;
            }
            def->fov = x >= 360.0 ? 2.0 * STEER_PI : x * (STEER_PI / 180.0);
            break;
        case K_WALLS:
        case K_OBSTACLES:
            if ((msg = lsteer_check_value(L, -1, OPT_BOOL, &flag))) break;
            if (k == K_WALLS)
                def->walls_block = flag;
            else
                def->obstacles_block = flag;
            break;
        case K_MAX_MEMORIES:
            if ((msg = lsteer_check_value(L, -1, OPT_INT, &i))) break;
            if (i < 1 || i > STEER_MAX_MEMORIES) {
                msg = lua_pushfstring(L, "integer in [1, %d] expected, got %d", STEER_MAX_MEMORIES, i);
                break;
            }
            def->max_memories = i;
            break;
        default:
            if ((msg = lsteer_check_value(L, -1, SENSE_KEYS[k].type, &x))) break;
            if (k == K_RANGE) def->range = x;
            if (k == K_FORGET) def->forget_after = x;
            if (k == K_PERIOD) def->period = x;
            break;
        }
        if (msg) lsteer_option_error(L, arg, key, msg);
        lua_settop(L, t);
    }
}

static const char *const SENSE_TOP_KEYS[] = {"name", "sight", "hearing"};

/// v:sense{name = "eyes", sight = {...}} or v:sense{name = "ears", hearing = {...}}: adds the sense,
/// or replaces the vehicle's sense of that name (its memories stay). Returns v.
static int vehicle_sense(lua_State *L)
{
    LVehicle *h = lsteer_check_vehicle(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    lua_getiuservalue(L, 1, HUV_WORLD); /* 3 */
    int world_idx = 3;
    check_keys(L, 2, 2, "sense", SENSE_TOP_KEYS, 3);

    lua_getfield(L, 2, "name"); /* 4: kept alive on the stack */
    size_t len = 0;
    const char *name = lua_type(L, 4) == LUA_TSTRING ? lua_tolstring(L, 4, &len) : NULL;
    if (!name)
        lsteer_option_error(L, 2, "name",
                            lua_pushfstring(L, "sense name (string) expected, got %s", luaL_typename(L, 4)));
    if (len == 0 || len > STEER_MAX_SENSE_NAME || strlen(name) != len)
        lsteer_option_error(L, 2, "name",
                            lua_pushfstring(L, "sense name of 1 to %d bytes without NUL expected, got '%s'",
                                            STEER_MAX_SENSE_NAME, name));
    int sight = lua_getfield(L, 2, "sight");     /* 5 */
    int hearing = lua_getfield(L, 2, "hearing"); /* 6 */
    if ((sight == LUA_TNIL) == (hearing == LUA_TNIL))
        luaL_argerror(L, 2,
                      sight == LUA_TNIL ? "sight = {...} or hearing = {...} expected"
                                        : "sight = {...} or hearing = {...} expected, not both");
    SteerSenseDef def = steer_default_sense_def(sight != LUA_TNIL ? STEER_SENSE_SIGHT : STEER_SENSE_HEARING);
    def.name = name;
    def.events = listening(L, 1); /* (first: a brain's __index may run code; the reads below do not) */
    h = lsteer_check_vehicle(L, 1);
    KindPlan kinds = {.fresh_count = 0, .base = h->owner->kind_count};
    TagPlan tags = {.fresh_count = 0, .base = h->owner->tag_count};
    read_sense_type(L, world_idx, 2, sight != LUA_TNIL ? 5 : 6, &def, &kinds, &tags);
    /* the core checks the rest (upper limits, too many senses) before it changes anything */
    SteerWorld *world = h->owner->world;
    if (steer_vehicle_add_sense(world, h->id, &def, NULL) != STEER_OK)
        return luaL_argerror(L, 2, lsteer_core_error(world));
    lsteer_plan_commit(L, world_idx, &kinds);
    plan_tags_commit(L, world_idx, &tags);
    lua_settop(L, 1);
    return 1;
}

/// v:forget_sense(name): removes the sense and its memories (no events). Returns v.
static int vehicle_forget_sense(lua_State *L)
{
    LVehicle *h = lsteer_check_vehicle(L, 1);
    check_sense(L, h, 2);
    if (steer_vehicle_remove_sense(h->owner->world, h->id, lua_tostring(L, 2)) != STEER_OK)
        return luaL_argerror(L, 2, lsteer_core_error(h->owner->world));
    lua_settop(L, 1);
    return 1;
}

/// v:senses(): {{name =, type = "sight" | "hearing", range =, fov = (degrees), kinds =, tags =,
/// walls_block =, obstacles_block =, forget_after =, period =, max_memories =, events =}, ...} in index
/// order (events: the sense events it makes, v:listen).
static int vehicle_senses(lua_State *L)
{
    LVehicle *h = lsteer_check_vehicle(L, 1);
    SteerWorld *world = h->owner->world;
    lua_getiuservalue(L, 1, HUV_WORLD);
    int world_idx = lua_gettop(L);
    int n = steer_vehicle_sense_count(world, h->id);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        SteerSenseDef def;
        if (steer_vehicle_get_sense(world, h->id, i, &def) != STEER_OK) continue;
        bool sight = def.type == STEER_SENSE_SIGHT;
        lua_createtable(L, 0, 12);
        lua_pushstring(L, def.name ? def.name : "?");
        lua_setfield(L, -2, "name");
        lua_pushstring(L, sight ? "sight" : "hearing");
        lua_setfield(L, -2, "type");
        lua_pushnumber(L, def.range);
        lua_setfield(L, -2, "range");
        if (sight) {
            lua_pushnumber(L, def.fov >= 2.0 * STEER_PI ? 360.0 : def.fov * (180.0 / STEER_PI));
            lua_setfield(L, -2, "fov");
            if (def.kinds) {
                lsteer_push_kind_list(L, world_idx, def.kinds);
                lua_setfield(L, -2, "kinds");
            }
            lua_pushboolean(L, def.walls_block);
            lua_setfield(L, -2, "walls_block");
            lua_pushboolean(L, def.obstacles_block);
            lua_setfield(L, -2, "obstacles_block");
        } else if (def.tags) {
            lua_newtable(L);
            int k = 0;
            for (uint32_t t = 0; t < STEER_MAX_SOUND_TAGS; t++) {
                if (!(def.tags & (1u << t))) continue;
                lsteer_push_tag_name(L, world_idx, t);
                lua_rawseti(L, -2, ++k);
            }
            lua_setfield(L, -2, "tags");
        }
        lua_pushnumber(L, def.forget_after);
        lua_setfield(L, -2, "forget_after");
        lua_pushnumber(L, def.period);
        lua_setfield(L, -2, "period");
        lua_pushinteger(L, def.max_memories);
        lua_setfield(L, -2, "max_memories");
        lua_createtable(L, SENSE_EVENT_COUNT, 0);
        for (int e = 0, k = 0; e < SENSE_EVENT_COUNT; e++) {
            if (!(def.events & STEER_EVENT_BIT(e))) continue;
            lua_pushstring(L, SENSE_EVENTS[e]);
            lua_rawseti(L, -2, ++k);
        }
        lua_setfield(L, -2, "events");
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* ---- Reads: v:sensed(name), v:memory(name) ---------------------------------------------------- */

/// v:sensed(name) -> the closest vehicle the sense senses now and its distance (when sensed), or nil.
static int vehicle_sensed(lua_State *L)
{
    LVehicle *h = lsteer_check_vehicle(L, 1);
    int sense = check_sense(L, h, 2);
    SteerMemory m;
    if (!steer_vehicle_closest_sensed(h->owner->world, h->id, sense, &m)) {
        lua_pushnil(L);
        return 1;
    }
    lua_getiuservalue(L, 1, HUV_WORLD);
    steer_lua_push_vehicle(L, -1, m.other);
    if (lua_isnil(L, -1)) return 1; /* removed since the step (by a brain) */
    lua_pushnumber(L, m.distance);
    return 2;
}

/// Copies the memories of `sense` of the handle's vehicle into the world's snapshot.
static void memories_fetch(lua_State *L, LWorld *w, const LVehicle *h, int sense)
{
    int n = steer_vehicle_get_memories(w->world, h->id, sense, w->memories.items, w->memories.capacity);
    if (n > w->memories.capacity) {
        int cap = w->memories.capacity ? w->memories.capacity : 16;
        while (cap < n) cap *= 2;
        void *ud;
        lua_Alloc alloc = lua_getallocf(L, &ud);
        void *p = alloc(ud, w->memories.items, (size_t)w->memories.capacity * sizeof *w->memories.items,
                        (size_t)cap * sizeof *w->memories.items);
        if (!p) luaL_error(L, "not enough memory");
        w->memories.items = p;
        w->memories.capacity = cap;
        n = steer_vehicle_get_memories(w->world, h->id, sense, w->memories.items, w->memories.capacity);
    }
    w->memories.count = n < 0 ? 0 : n;
    w->memories.vehicle = h->id;
    w->memories.serial = h->serial;
    w->memories.sense = sense;
    w->memories.step = steer_world_step_count(w->world);
    w->memories.pos = -1;
}

static bool same_id(SteerVehicleId a, SteerVehicleId b)
{
    return a.index1 == b.index1 && a.world == b.world && a.generation == b.generation;
}

/// The iterator of v:memory(name), one per sense index (upvalue 1): (v, previous other) -> other,
/// x, y, vx, vy, age (s since last sensed), sensed_now. A loop reads a snapshot taken at its first
/// call; an interleaved loop over another sense takes the snapshot again and finds its place.
static int memory_next(lua_State *L)
{
    int sense = (int)lua_tointeger(L, lua_upvalueindex(1));
    LVehicle *h = lsteer_check_vehicle(L, 1);
    LWorld *w = h->owner;
    int pos;
    bool current = w->memories.serial == h->serial && same_id(w->memories.vehicle, h->id) &&
                   w->memories.sense == sense && w->memories.step == steer_world_step_count(w->world);
    LVehicle *prev = lua_isnil(L, 2) ? NULL : lsteer_test_vehicle(L, 2);
    if (!prev) {
        memories_fetch(L, w, h, sense);
        pos = 0;
    } else if (current && w->memories.pos >= 0 && w->memories.pos < w->memories.count &&
               same_id(w->memories.items[w->memories.pos].other, prev->id)) {
        pos = w->memories.pos + 1;
    } else {
        if (!current) memories_fetch(L, w, h, sense);
        pos = w->memories.count;
        for (int i = 0; i < w->memories.count; i++) {
            if (same_id(w->memories.items[i].other, prev->id)) {
                pos = i + 1;
                break;
            }
        }
    }
    lua_settop(L, 2);
    lua_getiuservalue(L, 1, HUV_WORLD); /* 3 */
    for (; pos < w->memories.count; pos++) {
        steer_lua_push_vehicle(L, 3, w->memories.items[pos].other);
        if (!lua_isnil(L, -1)) break;
        lua_pop(L, 1); /* removed since the step: skipped */
    }
    if (pos >= w->memories.count) return 0;
    w->memories.pos = pos;
    const SteerMemory *m = &w->memories.items[pos];
    lua_pushnumber(L, m->position.x);
    lua_pushnumber(L, m->position.y);
    lua_pushnumber(L, m->velocity.x);
    lua_pushnumber(L, m->velocity.y);
    lua_pushnumber(L, steer_world_time(w->world) - m->time);
    lua_pushboolean(L, m->sensed_now);
    return 7;
}

static const char MEMORY_ITERATORS = 0; /* its address keys the iterators in the registry */

/// v:memory(name) -> iterator, v, nil: `for other, x, y, vx, vy, age, sensed_now in v:memory("eyes")`.
static int vehicle_memory(lua_State *L)
{
    LVehicle *h = lsteer_check_vehicle(L, 1);
    int sense = check_sense(L, h, 2);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &MEMORY_ITERATORS);
    lua_rawgeti(L, -1, sense + 1);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

void lsteer_open_senses(lua_State *L)
{
    lua_createtable(L, STEER_MAX_SENSES, 0);
    for (int i = 0; i < STEER_MAX_SENSES; i++) {
        lua_pushinteger(L, i);
        lua_pushcclosure(L, memory_next, 1);
        lua_rawseti(L, -2, i + 1);
    }
    lua_rawsetp(L, LUA_REGISTRYINDEX, &MEMORY_ITERATORS);
}

/* ---- Sounds and timers ----------------------------------------------------------------------- */

static const char *const EMIT_WORLD_KEYS[] = {"x", "y", "radius", "tag"};
static const char *const EMIT_VEHICLE_KEYS[] = {"radius", "tag"};

/// Reads radius and tag of the options at 2 into sound (x, y too when `at_point`); tag plan in *plan.
static void read_sound(lua_State *L, int world_idx, bool at_point, SteerSoundDef *sound, TagPlan *plan)
{
    int top = lua_gettop(L);
    if (at_point) {
        luaL_checktype(L, 2, LUA_TTABLE);
        check_keys(L, 2, 2, "emit", EMIT_WORLD_KEYS, 4);
    } else if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        check_keys(L, 2, 2, "emit", EMIT_VEHICLE_KEYS, 2);
    }
    static const char *const XY[] = {"x", "y"};
    for (int i = 0; at_point && i < 2; i++) {
        lua_getfield(L, 2, XY[i]);
        double x = 0.0;
        const char *msg = lsteer_check_value(L, -1, OPT_NUMBER, &x);
        if (msg) lsteer_option_error(L, 2, XY[i], msg);
        if (i == 0)
            sound->position.x = x;
        else
            sound->position.y = x;
        lua_pop(L, 1);
    }
    if (lua_istable(L, 2) && lua_getfield(L, 2, "radius") != LUA_TNIL) {
        const char *msg = lsteer_check_value(L, -1, OPT_POSITIVE, &sound->radius);
        if (msg) lsteer_option_error(L, 2, "radius", msg);
    }
    lua_settop(L, top);
    if (!lua_istable(L, 2) || lua_getfield(L, 2, "tag") == LUA_TNIL) {
        lua_settop(L, top);
        lua_pushstring(L, DEFAULT_TAG);
    }
    const char *msg = plan_tag(L, world_idx, plan, -1, &sound->tag); /* the string stays on the stack */
    if (msg) lsteer_option_error(L, 2, "tag", msg);
}

/// w:emit{x =, y =, radius = 100, tag = "sound"}: a sound hearing senses hear in the next step.
int lsteer_world_emit(lua_State *L)
{
    LWorld *w = lsteer_check_world(L, 1);
    SteerSoundDef sound = steer_default_sound_def();
    TagPlan plan = {.fresh_count = 0, .base = w->tag_count};
    read_sound(L, 1, true, &sound, &plan);
    if (steer_world_emit(w->world, &sound) != STEER_OK) return luaL_argerror(L, 2, lsteer_core_error(w->world));
    plan_tags_commit(L, 1, &plan);
    lua_settop(L, 1);
    return 1;
}

/// v:emit{radius = 100, tag = "sound"}: a sound from the vehicle's position; v is its source (it
/// does not hear itself).
static int vehicle_emit(lua_State *L)
{
    LVehicle *h = lsteer_check_vehicle(L, 1);
    lua_settop(L, 2);
    lua_getiuservalue(L, 1, HUV_WORLD); /* 3 */
    int world_idx = 3;
    SteerSoundDef sound = steer_default_sound_def();
    sound.position = steer_vehicle_position(h->owner->world, h->id);
    sound.source = h->id;
    TagPlan plan = {.fresh_count = 0, .base = h->owner->tag_count};
    read_sound(L, world_idx, false, &sound, &plan);
    if (steer_world_emit(h->owner->world, &sound) != STEER_OK)
        return luaL_argerror(L, 2, lsteer_core_error(h->owner->world));
    plan_tags_commit(L, world_idx, &plan);
    lua_settop(L, 1);
    return 1;
}

/// v:wake_in(seconds): its `timer` handler runs after that much simulated time (rounded up to
/// whole steps, at least one); a new call replaces the pending timer. Returns v.
static int vehicle_wake_in(lua_State *L)
{
    LVehicle *h = lsteer_check_vehicle(L, 1);
    double seconds = 0.0;
    const char *msg = lsteer_check_value(L, 2, OPT_NONNEG, &seconds);
    if (msg) return luaL_argerror(L, 2, msg);
    if (steer_vehicle_wake_in(h->owner->world, h->id, seconds) != STEER_OK)
        return luaL_argerror(L, 2, lsteer_core_error(h->owner->world));
    lua_settop(L, 1);
    return 1;
}

/// v:cancel_wake(): drops the pending timer, if any. Returns v.
static int vehicle_cancel_wake(lua_State *L)
{
    LVehicle *h = lsteer_check_vehicle(L, 1);
    steer_vehicle_cancel_wake(h->owner->world, h->id);
    lua_settop(L, 1);
    return 1;
}

/* ---- w:line_of_sight ------------------------------------------------------------------------- */

/// A point at arg: a vehicle of the world (its position) or x, y. Returns the next argument.
static int check_point(lua_State *L, LWorld *w, int arg, SteerVec2 *out)
{
    LVehicle *v = lsteer_test_vehicle(L, arg);
    if (v) {
        if (!lsteer_vehicle_alive(v)) lsteer_check_vehicle(L, arg); /* raises: removed */
        if (v->owner != w) luaL_argerror(L, arg, "vehicle of another world");
        *out = steer_vehicle_position(w->world, v->id);
        return arg + 1;
    }
    if (lua_type(L, arg) != LUA_TNUMBER) luaL_typeerror(L, arg, "vehicle or x, y");
    *out = steer_vec2(lsteer_check_coordinate(L, arg), lsteer_check_coordinate(L, arg + 1));
    return arg + 2;
}

static const char *const LOS_KEYS[] = {"walls", "obstacles"};

/// w:line_of_sight(x1, y1, x2, y2[, {walls = true, obstacles = true}]) (a vehicle for either point
/// too) -> whether the segment touches no wall and no obstacle: the test sight makes.
int lsteer_world_line_of_sight(lua_State *L)
{
    LWorld *w = lsteer_check_world(L, 1);
    SteerVec2 a, b;
    int arg = check_point(L, w, 2, &a);
    arg = check_point(L, w, arg, &b);
    bool blockers[2] = {true, true};
    if (!lua_isnoneornil(L, arg)) {
        luaL_checktype(L, arg, LUA_TTABLE);
        check_keys(L, arg, arg, "line_of_sight", LOS_KEYS, 2);
        for (int i = 0; i < 2; i++) {
            if (lua_getfield(L, arg, LOS_KEYS[i]) != LUA_TNIL) {
                const char *msg = lsteer_check_value(L, -1, OPT_BOOL, &blockers[i]);
                if (msg) lsteer_option_error(L, arg, LOS_KEYS[i], msg);
            }
            lua_pop(L, 1);
        }
    }
    lua_pushboolean(L, steer_world_line_of_sight(w->world, a, b, blockers[0], blockers[1]));
    return 1;
}

/* ---- Registration ---------------------------------------------------------------------------- */

static const luaL_Reg SENSE_METHODS[] = {
    {"sense", vehicle_sense},     {"forget_sense", vehicle_forget_sense},
    {"senses", vehicle_senses},   {"sensed", vehicle_sensed},
    {"memory", vehicle_memory},   {"emit", vehicle_emit},
    {"wake_in", vehicle_wake_in}, {"cancel_wake", vehicle_cancel_wake},
    {"listen", vehicle_listen},   {NULL, NULL},
};

void lsteer_add_sense_methods(lua_State *L)
{
    for (const luaL_Reg *r = SENSE_METHODS; r->name; r++) {
        lua_pushcfunction(L, r->func);
        lua_setfield(L, -2, r->name);
    }
}
