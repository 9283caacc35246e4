/* SPDX-License-Identifier: MIT */
/* lsteer_internal.h - what the files of the Lua module share: the userdata layouts, the world's
 * per-vehicle tables, and the one option reader. Private to bindings/.
 *
 * Ownership, once for all. A steer.World userdata owns its SteerWorld and holds these tables in
 * its user values:
 *   UV_HANDLES  vehicle slot (id.index1) -> the one steer.Vehicle userdata of the vehicle in it,
 *               made on first use and kept until the vehicle is removed, so that a handle is a
 *               stable key even in a script's weak-keyed table (an entry goes when its vehicle
 *               goes). Slots are small and dense: the table is an array, which a think pass
 *               walks nearly in order (lsteer_handle_key)
 *   UV_KINDS    kind number + 1 -> name and name -> kind number (interned per world, < 64)
 *   UV_SHAPES   packed id + type -> the steer.Obstacle/Wall/Path/FlowField handle (strong: shapes are
 *               few; removal drops the entry)
 *   UV_TAGS     sound tag number + 1 -> name and name -> tag number (interned per world, < 32)
 * A steer.Vehicle (or shape) userdata holds the id and a pointer to the world's block; its first
 * user value is the world userdata, which keeps that pointer valid. A vehicle handle's user values
 * 2-5 are v.data, v.brain, v.state and v.brain_error: the handle lives as long as its vehicle (UV_HANDLES), so
 * they do too, they die with an unreachable world (a cycle the collector breaks), removal clears
 * them, and a brain's reads of them touch only the handle (no lookup in a table of 10,000 keys).
 */
#ifndef LSTEER_INTERNAL_H
#define LSTEER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "lsteer_compat.h" /* the 5.4 API on LuaJIT too (make luajit) */
#include "steer/steer.h"
#include "steer_lua.h"

#define WORLD_MT "steer.World"
#define VEHICLE_MT "steer.Vehicle"
#define OBSTACLE_MT "steer.Obstacle"
#define WALL_MT "steer.Wall"
#define PATH_MT "steer.Path"
#define FLOW_FIELD_MT "steer.FlowField"

/* luaL_testudata finds a metatable by its name, which hashes and compares the name on every call:
 * a good part of a cheap method's cost (and even a metatable compared by identity costs three API
 * calls and a registry lookup). The two types every brain touches on every think start with a
 * 64-bit tag instead: a userdata is a World or a Vehicle when its size is that struct's and its
 * first word is the tag. Only C code writes a userdata's bytes, and these tags are random 64-bit
 * words no other library writes there. Errors still come from luaL_checkudata, so they read as
 * Lua's own. */
#define LSTEER_WORLD_TAG UINT64_C(0x8f3ac1d27e54b609)
#define LSTEER_VEHICLE_TAG UINT64_C(0x5d16e0b94ca3f27b)
/// A shape's tag is this plus its LShapeType: each shape metatable knows its own type by it.
#define LSTEER_SHAPE_TAG UINT64_C(0x2b7e9c40d5a1f368)

/// Pushes t[key] of the table at idx without metamethods and returns its type. Option tables are
/// read this way: an __index could run any script in the middle of a call (close the world the
/// call is using, spawn the kinds it planned), and an option is a key the table holds.
static inline int lsteer_rawfield(lua_State *L, int idx, const char *key)
{
    idx = lua_absindex(L, idx);
    lua_pushstring(L, key);
    return lua_rawget(L, idx);
}

/// Whether the handle p at idx (a vehicle or a shape: its tag says which) still has its world as
/// its first user value. That user value is what keeps the world its `owner` pointer reads alive;
/// debug.setuservalue can replace it (plain Lua has the whole debug library), and then the pointer
/// may outlive the world. A handle so changed is no handle: every call refuses it.
bool lsteer_owner_intact(lua_State *L, int idx, const void *p);

/// The userdata at idx if it is `size` bytes long and starts with `tag`, else NULL; a vehicle or
/// a shape whose world was taken from its user value (lsteer_owner_intact) is NULL too.
static inline void *lsteer_test_udata(lua_State *L, int idx, uint64_t tag, size_t size)
{
    void *p = lua_touserdata(L, idx); /* a light userdata has no length: rawlen gives 0 */
    if (!p || lua_rawlen(L, idx) != size || *(const uint64_t *)p != tag) return NULL;
    return tag == LSTEER_WORLD_TAG || lsteer_owner_intact(L, idx, p) ? p : NULL;
}
/// Self or an argument at idx of the class named `name`: luaL_checkudata's error for another type,
/// and an error naming debug.setuservalue for a handle whose world was taken from it.
void *lsteer_check_udata(lua_State *L, int idx, const char *name);
#define lsteer_test_world(L, idx) ((LWorld *)lsteer_test_udata((L), (idx), LSTEER_WORLD_TAG, sizeof(LWorld)))
#define lsteer_test_vehicle(L, idx) ((LVehicle *)lsteer_test_udata((L), (idx), LSTEER_VEHICLE_TAG, sizeof(LVehicle)))

/// A vehicle's key in UV_HANDLES. A slot outlives its vehicles: a found handle is the vehicle's
/// only if its serial matches.
static inline lua_Integer lsteer_handle_key(SteerVehicleId id) { return (lua_Integer)id.index1; }

/// The core's message for the last failed call without the C function's name that heads it
/// ("steer_vehicle_set_mass: "): a Lua error names the Lua method instead.
static inline const char *lsteer_core_error(const SteerWorld *world)
{
    const char *message = steer_world_last_error(world);
    const char *colon = strncmp(message, "steer_", 6) == 0 ? strstr(message, ": ") : NULL;
    return colon ? colon + 2 : message;
}

enum { UV_HANDLES = 1, UV_KINDS, UV_SHAPES, UV_TAGS, UV_COUNT = UV_TAGS };                            /* a world's */
enum { HUV_WORLD = 1, HUV_DATA, HUV_BRAIN, HUV_STATE, HUV_BRAIN_ERROR, HUV_COUNT = HUV_BRAIN_ERROR }; /* a handle's */

/// One core vehicle slot's think bookkeeping (lbrains.c).
typedef struct LThinkSlot {
    uint64_t serial; ///< the vehicle it belongs to (0: none): a new vehicle in the slot starts afresh
    double last;     ///< world time of its last thought
    bool paused;     ///< its brain raised an error: it thinks no more until resumed
} LThinkSlot;

/// A world's brain scheduler: arrays from the Lua state's allocator, grown with the world only.
typedef struct LBrains {
    double hz;         ///< w.think_hz; 0 = never
    LThinkSlot *slots; ///< indexed by the core slot (id.index1)
    int slot_capacity;
    SteerVehicleId *ids; ///< scratch: every vehicle, in creation order
    int id_capacity;
    /* The roster (lbrains.c, roster_ready): every vehicle's id grouped by think phase, each group
     * in creation order, so that a pass visits the vehicles whose turn it is and not all of them. */
    SteerVehicleId *roster;
    int roster_capacity, roster_count;
    int *phase_start; ///< phase p's ids are roster[phase_start[p] .. phase_start[p + 1])
    int phase_capacity;
    uint64_t roster_stride; ///< the phases it was grouped into (0: never built)
    /* From order_min vehicles on, a pass's due ids are put in place order first (lbrains.c,
     * place_order): the scratch they are sorted into, and the counts of the sort's buckets. */
    SteerVehicleId *order;
    int order_capacity;
    int *place_of; ///< each due id's bucket, by its index in the pass
    int place_capacity;
    int *place_count; ///< the buckets' counts (LSTEER_THINK_PLACES + 1)
    int place_count_capacity;
    int order_min; ///< lsteer_brains_init: LSTEER_THINK_ORDER_MIN_VEHICLES (STEER_THINK_ORDER_MIN)
    /* A pass run from Lua (LuaJIT's, bindings/lffi.lua; lsteer_think_prepare): its due ids. */
    const SteerVehicleId *due;
    int due_count;
    double due_now, due_period;
    /* Sense events (lbrains.c, collect_events): the core keeps the last step's only, so the events
     * of every step since the last pass are copied here (by w:step before it steps again, and by
     * the pass itself) and the next pass delivers them. */
    SteerSenseEvent *events;
    int event_capacity, event_count;
    uint64_t events_step;   ///< the step count whose events were collected last
    bool collecting;        ///< a pass ran once: w:step keeps the events for the next one
    uint64_t spawns;        ///< vehicles spawned in the world so far (lsteer_spawn counts them)
    uint64_t roster_spawns; ///< spawns when it was built
    int paused;             ///< slots with paused set
    bool thinking;          ///< a pass runs (w:think() is not re-entrant)
} LBrains;

/// The bits of lsteer_read_options' mask for the spawn options spawn reads itself (lvehicle.c).
typedef struct LSpawnBits {
    uint64_t kind, flock_with, color, combine;
    uint64_t lua_value[3]; ///< data, brain, state
} LSpawnBits;

typedef struct LWorld {
    uint64_t tag;      ///< LSTEER_WORLD_TAG (lsteer_test_world)
    SteerWorld *world; ///< NULL once closed
    /// 1 for the first world made in this Lua state, 2 for the next, ... (lsteer_next_world_serial):
    /// steer.pairs orders handles by it, then by their ids.
    uint64_t serial;
    /// Held by its host (steer_lua_hold_world): w:close() and `<close>` refuse, since the host
    /// goes on using the world; only __gc frees it.
    bool held;
    int kind_count; ///< kinds interned so far
    /// The interned name string of each kind (lua_topointer; kept alive in UV_KINDS): a query's
    /// kind argument is recognised by identity, without hashing it (lworld.c, check_kind_filter).
    const void *kind_names[STEER_MAX_KINDS];
    LBrains brains;
    int tag_count; ///< sound tags interned so far (UV_TAGS)
    /// v:memory's snapshot (lsenses.c): the memories of one sense, copied when a loop starts and
    /// read one per iteration; grown with the largest sense, never per call.
    struct {
        SteerMemory *items;
        int capacity, count, pos;
        SteerVehicleId vehicle;
        uint64_t serial, step;
        int sense;
    } memories;
    LSpawnBits spawn_bits; ///< found once per world, not by name at every spawn
    /// Its user value tables as made (lua_topointer), by UV_*: lsteer_push_uv refuses others, put
    /// there by debug.setuservalue (the handles table's values are read as handles without a check).
    const void *uv[UV_COUNT + 1];
} LWorld;

typedef struct LVehicle {
    uint64_t tag; ///< LSTEER_VEHICLE_TAG (lsteer_test_vehicle)
    SteerVehicleId id;
    uint64_t serial;       ///< v.id; also tells a reused slot from this vehicle
    uint64_t world_serial; ///< its world's LWorld.serial (steer.pairs' order, read without the owner)
    uint32_t kind;
    bool removed; ///< set by world:remove, so that no reuse of the slot can revive it
    /// The sense events its senses report (STEER_EVENT_BIT): v:listen's, or -1 for those its brain
    /// has handlers for (lsenses.c, lsteer_listen)
    int8_t listening;
    LWorld *owner; ///< kept alive by the handle's user value
} LVehicle;

typedef enum LShapeType { SHAPE_OBSTACLE, SHAPE_WALL, SHAPE_PATH, SHAPE_FLOW_FIELD } LShapeType;

typedef struct LShape {
    uint64_t tag; ///< LSTEER_SHAPE_TAG + type (lclass.c)
    LShapeType type;
    uint64_t packed;       ///< the core id, packed like a vehicle id
    uint64_t world_serial; ///< its world's LWorld.serial (steer.pairs' order)
    LWorld *owner;
} LShape;

/* ---- lclass.c: the one class builder ------------------------------------------------------ */

/// A field of a class: a code (> 0) the class's get and set switch on, and whether scripts may
/// assign it (else `field 'x' of steer.Vehicle is read-only` and the hint, e.g. " (use set_position)").
typedef struct LField {
    const char *name;
    int code;
    bool writable;
    const char *hint;
} LField;

/// What sets one class's messages apart from the others' (each kept exactly as scripts know it).
enum {
    LCLASS_UNNAMED_KEYS = 1,      ///< a key that is no string is an unknown field '?' (shapes)
    LCLASS_STRING_KEYS = 2,       ///< __newindex takes its key as luaL_checkstring does (worlds)
    LCLASS_METHODS_READ_ONLY = 4, ///< assigning a method is `field 'step' of ... is read-only` (worlds)
    LCLASS_READ_ONLY_HANDLES = 8, ///< every assignment is `... handles are read-only (...)` (shapes)
};

typedef struct LClass {
    const char *name; ///< the metatable's name, also the class's name in messages
    uint64_t tag;     ///< the userdata's first word, and its size (lsteer_test_udata)
    size_t size;
    const luaL_Reg *methods;           ///< NULL-terminated
    void (*add_methods)(lua_State *L); ///< adds more to the table on top, or NULL
    const LField *fields;
    int field_count;
    /// Fields that are rows of a core field table (steer_fields.h), after `fields`: row i has the
    /// code core_field_code + i and is writable as its row says; NULL for none.
    const SteerFieldInfo *core_fields;
    int core_field_count;
    int core_field_code;
    const luaL_Reg *metamethods; ///< __tostring, __eq, __gc, ... (NULL-terminated)
    int flags;                   ///< LCLASS_*
    /// Raises when self (at 1) cannot be read or written, before any member but a method is
    /// resolved (a closed world); NULL when get and set check self themselves.
    void (*check_first)(lua_State *L, void *self);
    /// Pushes field `code` of self (at 1): returns 1.
    int (*get)(lua_State *L, void *self, int code);
    /// Assigns the value at 3 to the writable field `code` named `key`: returns 0.
    int (*set)(lua_State *L, void *self, int code, const char *key);
    /// The class's own __index, `lsteer_class_index(L, its_get)`, for classes read at every think:
    /// the get is then a direct call the compiler can inline. NULL: the builder's (same code).
    lua_CFunction index;
} LClass;

/// Raises the error for a self (at 1) that is not a `class_name`: luaL_typeerror's, with the hint
/// `call it as a method, v:wander(...)` (`var` the usual variable name) when it was called with a
/// dot instead of a colon (self missing, or not a handle at all).
int lsteer_self_error(lua_State *L, const char *class_name, const char *var);

/// Registers the class's metatable: __index and __newindex over its methods and fields (a member
/// found by the address of its interned name), the unknown-member errors, and its metamethods.
/// The nup values on top of the stack (popped) are upvalues of every method and metamethod.
void lsteer_class_open(lua_State *L, const LClass *cls, int nup);

/* What every __index does, in line so that a class's own __index calls its get directly. Brains
 * read vehicle fields at every think, so a member is found without hashing its name: Lua interns
 * short strings, so a key is the member `x` exactly when it is the same string object as the
 * interned "x" (kept alive as a key of the dispatch table). LMemberKeys is an open addressing
 * table on those addresses; a key that is no member (or no string: lua_topointer gives another
 * address or NULL) ends at an empty slot and takes the error path (lsteer_class_member_miss).
 * Self is recognised by the class's 64-bit tag before luaL_checkudata, which would hash the
 * metatable's name on every read. */

enum { LCLASS_MEMBER_SLOTS = 256 }; /* a power of two, over twice the number of any class's members */
/// The upvalues of __index and __newindex.
enum { LCLASS_UP_DISPATCH = 1, LCLASS_UP_KEYS, LCLASS_UP_METHODS };

typedef struct LMemberKeys {
    const LClass *cls;
    const void *name[LCLASS_MEMBER_SLOTS]; ///< NULL: empty
    int code[LCLASS_MEMBER_SLOTS];         ///< field code (> 0), or -n for method n of the methods array
} LMemberKeys;

/// The key at 2 was not found by address: looks it up by value, else raises the unknown-member
/// error. Returns the field code, or 0 with the method pushed.
int lsteer_class_member_miss(lua_State *L, const LClass *cls, void *self);

static inline unsigned lsteer_member_slot(const void *name)
{
    uintptr_t a = (uintptr_t)name;
    return (unsigned)((a >> 4) ^ (a >> 12)) & (LCLASS_MEMBER_SLOTS - 1);
}

/// The field code of the key at 2, or 0 with the method pushed, or raises the unknown-member error.
static inline int lsteer_class_member(lua_State *L, const LMemberKeys *mk, void *self)
{
    const void *name = lua_topointer(L, 2);
    for (unsigned i = lsteer_member_slot(name); name && mk->name[i]; i = (i + 1) & (LCLASS_MEMBER_SLOTS - 1)) {
        if (mk->name[i] != name) continue;
        if (mk->code[i] > 0) return mk->code[i];
        lua_rawgeti(L, lua_upvalueindex(LCLASS_UP_METHODS), -mk->code[i]);
        return 0;
    }
    return lsteer_class_member_miss(L, mk->cls, self);
}

/// The body of every class's __index.
static inline int lsteer_class_index(lua_State *L, int (*get)(lua_State *L, void *self, int code))
{
    const LMemberKeys *mk = lua_touserdata(L, lua_upvalueindex(LCLASS_UP_KEYS));
    const LClass *cls = mk->cls;
    void *self = lsteer_test_udata(L, 1, cls->tag, cls->size);
    if (!self) self = lsteer_check_udata(L, 1, cls->name); /* raises */
    int code = lsteer_class_member(L, mk, self);
    if (code == 0) return 1; /* a method: methods check self themselves */
    if (cls->check_first) cls->check_first(L, self);
    return get(L, self, code);
}

/* ---- lnames.c: one name table per enum ------------------------------------------------------ */

/// The names of an enum's values, indexed by the value; `listed` is the order messages list them
/// in (NULL: the enum's).
typedef struct LNames {
    const char *const *names;
    int count;
    const int *listed;
} LNames;

extern const LNames LSTEER_EDGES_NAMES;   ///< SteerEdges
extern const LNames LSTEER_LEASH_NAMES;   ///< SteerLeash
extern const LNames LSTEER_COMBINE_NAMES; ///< SteerCombine

/// The value named by the string at idx, or -1 (not a string, or no such name).
int lsteer_names_find(lua_State *L, int idx, const LNames *names);
/// Pushes and returns `'wrap', 'contain' or 'none' expected, got 'x'` (or `got boolean`) for the
/// value at idx.
const char *lsteer_names_expected(lua_State *L, int idx, const LNames *names);

/* ---- lworld.c ------------------------------------------------------------------------------ */
int lsteer_open_world(lua_State *L);
/// steer.world{...}
int lsteer_world_new(lua_State *L);
/// The live world at idx, or an argument error (closed world or not a world).
LWorld *lsteer_check_world(lua_State *L, int idx);
/// Pushes user value `uv` of the world userdata at idx.
void lsteer_push_uv(lua_State *L, int world_idx, int uv);
/// Kind number of `name` in the world at world_idx, or -1 when it was never interned.
int lsteer_kind_find(lua_State *L, int world_idx, const char *name);
/// Interns `name` (the call must have checked that there is room: lsteer_kind_room).
uint32_t lsteer_kind_intern(lua_State *L, int world_idx, const char *name);
/// Pushes the kind's name (or "?").
void lsteer_push_kind_name(lua_State *L, int world_idx, uint32_t kind);

/* ---- lvehicle.c ---------------------------------------------------------------------------- */
int lsteer_open_vehicle(lua_State *L);
/// The handle at idx: its vehicle must be alive (error `vehicle #12 (prey) was removed`).
LVehicle *lsteer_check_vehicle(lua_State *L, int idx);
/// The handle at idx, alive or not (argument error when it is not a handle).
LVehicle *lsteer_check_handle(lua_State *L, int idx);
bool lsteer_vehicle_alive(const LVehicle *h);
/// Pushes `vehicle #12 (prey)` for the handle at idx.
void lsteer_push_vehicle_label(lua_State *L, int idx);
/// Removes a vehicle and forgets its handle, data, brain and state.
void lsteer_remove_vehicle(lua_State *L, int world_idx, SteerVehicleId id);
/// Spawn: world at 1, options at 2.
int lsteer_spawn(lua_State *L);

/// Kind names wanted by one call, resolved to numbers; names never seen get the next free
/// numbers but are interned only when the call succeeds (a failed call changes nothing).
typedef struct KindPlan {
    const char *fresh[STEER_MAX_KINDS];
    int fresh_count;
    int base; ///< kinds interned before the call
} KindPlan;
/// An array of kind names at idx (its strings kept alive by the caller) to a mask, planned in `plan`;
/// NULL if good, else a message.
const char *lsteer_plan_kinds(lua_State *L, int world_idx, KindPlan *plan, int idx, uint64_t *out);
/// Interns the plan's new kinds (when memory runs out half way, none stays and the error goes on).
void lsteer_plan_commit(lua_State *L, int world_idx, const KindPlan *plan);
/// Pushes an array of the names of the kinds in mask.
void lsteer_push_kind_list(lua_State *L, int world_idx, uint64_t mask);

/* ---- lsenses.c ----------------------------------------------------------------------------- */
/// Adds v:sense, v:forget_sense, v:senses, v:sensed, v:memory, v:emit, v:wake_in, v:cancel_wake
/// to the table on top of the stack.
void lsteer_add_sense_methods(lua_State *L);
/// The sense events the brain at idx handles (STEER_EVENT_BIT of each of sensed, lost, forgot and
/// heard it has a handler for, through __index); 0 for nil, a function or anything else.
uint32_t lsteer_brain_events(lua_State *L, int idx);
/// Sets the senses of the live vehicle whose handle is at idx to report what it listens to
/// (v:listen's events, else those its brain handles): events no one handles are not made.
void lsteer_listen(lua_State *L, int idx);
int lsteer_world_listen_to_brains(lua_State *L);
/// w:emit{...} and w:line_of_sight(x1, y1, x2, y2[, options]).
int lsteer_world_emit(lua_State *L);
int lsteer_world_line_of_sight(lua_State *L);
/// Makes v:memory's iterators (once, at luaopen_steer).
void lsteer_open_senses(lua_State *L);
/// Pushes the name of sound tag `tag` of the world at world_idx (its number when no name was given).
void lsteer_push_tag_name(lua_State *L, int world_idx, uint32_t tag);

/* ---- lbrains.c ---------------------------------------------------------------------------- */
void lsteer_brains_init(LBrains *b, double hz);
void lsteer_brains_free(lua_State *L, LBrains *b);
double lsteer_default_think_hz(void);
/// Checks a think rate (a finite number >= 0); NULL if good, else a message (as lsteer_check_value).
const char *lsteer_check_think_hz(lua_State *L, int idx, double *out);
/// Checks a value for v.brain: nil, a function, or a table with a think function or an event
/// handler (sensed, lost, forgot, heard, timer); NULL if good, else `brain has no think function...`.
const char *lsteer_check_brain(lua_State *L, int idx);
/// v.brain was set on the handle at idx: a paused vehicle thinks again, v.brain_error goes.
void lsteer_brains_resume(lua_State *L, int handle_idx);
/// A vehicle is being removed: its bookkeeping goes.
void lsteer_brains_forget(LWorld *w, SteerVehicleId id, uint64_t serial);
/// Copies the core's events of the last step into the world's pending events, once per step
/// (w:step calls it before each step, so that none is lost before the next pass).
void lsteer_collect_events(lua_State *L, LWorld *w);
/// w:think([on_error]) and w:resume_brains().
int lsteer_world_think(lua_State *L);
/* The think pass run from Lua (LuaJIT's FFI path, lffi.c): prepare lists the due vehicles and
 * marks the world thinking (-1: the classic pass has to run this one: events to deliver, a roster
 * to build, a nested call, ...); turn vouches for the i-th (its slot, serial and dt; 0 to skip it);
 * end clears the mark; failed does what the classic pass does after a failed think. */
int lsteer_think_prepare(lua_State *L, LWorld *w);
uint32_t lsteer_think_turn(LWorld *w, int i, uint64_t *serial, double *dt);
void lsteer_think_end(LWorld *w);
void lsteer_think_failed(lua_State *L, LWorld *w, int v_idx, int on_error);
int lsteer_brain_msgh(lua_State *L);
int lsteer_world_resume_brains(lua_State *L);

/* ---- lpairs.c: steer.pairs and steer.next ------------------------------------------------- */
/// The serial of a world being made in this state: 1, 2, ... (kept in the registry).
uint64_t lsteer_next_world_serial(lua_State *L);

/* ---- lhost.c: for hosts other than the program ---------------------------------------------- */
/// w:debug_draw{line = f, circle = f, ...}: the core's debug drawing as calls to Lua functions.
int lsteer_world_debug_draw(lua_State *L);
/// steer.file_mtime(path) -> mtime, size (or nil, message).
int lsteer_file_mtime(lua_State *L);

/* ---- lffi.c: under LuaJIT, the hot calls as FFI calls (bindings/lffi.lua) ------------------- */
/// Runs the FFI layer on the module table on top (unless STEER_FFI=0) and sets its `ffi` field.
void lsteer_open_ffi(lua_State *L);

/* ---- lbehaviours.c ------------------------------------------------------------------------- */
/// Adds v:seek ... v:avoid_collisions, v:stop and v:behaviours to the table on top of the stack.
void lsteer_add_behaviour_methods(lua_State *L);

/* ---- lshapes.c ----------------------------------------------------------------------------- */
int lsteer_open_shapes(lua_State *L);
int lsteer_world_obstacle(lua_State *L);
int lsteer_world_wall(lua_State *L);
int lsteer_world_path(lua_State *L);
int lsteer_world_flow_field(lua_State *L);
int lsteer_world_flow_field_to(lua_State *L);
/* lnav.c: world:find_path, world:nav_map, v:nav_path */
int lsteer_world_find_path(lua_State *L);
int lsteer_world_nav_map(lua_State *L);
int lsteer_vehicle_nav_path(lua_State *L);
int lsteer_world_obstacles(lua_State *L);
int lsteer_world_walls(lua_State *L);
/// The live shape of this type at idx (argument error naming `expected` otherwise).
LShape *lsteer_check_shape(lua_State *L, int idx, LShapeType type);
/// Pushes the (one cached) handle of a shape of the world at world_idx, or nil if it is gone.
void lsteer_push_shape(lua_State *L, int world_idx, LShapeType type, uint64_t packed);
/// The path / flow field behind a live handle of world `owner` at idx (argument error otherwise),
/// and back.
SteerPathId lsteer_check_path(lua_State *L, int idx, const LWorld *owner);
SteerFlowFieldId lsteer_check_flow_field(lua_State *L, int idx, const LWorld *owner);
void lsteer_push_path(lua_State *L, int world_idx, SteerPathId id);
void lsteer_push_flow_field(lua_State *L, int world_idx, SteerFlowFieldId id);
/// Removes any handle (vehicle or shape) at idx; used by world:remove.
int lsteer_remove_any(lua_State *L, int world_idx, int idx);

/* ---- loptions.c: the one option reader ----------------------------------------------------- */

/// How an option's value is checked and stored.
typedef enum OptType {
    OPT_NUMBER,     ///< finite double
    OPT_NONNEG,     ///< finite double >= 0
    OPT_POSITIVE,   ///< finite double > 0
    OPT_UNIT,       ///< finite double in [0, 1]
    OPT_AT_LEAST_1, ///< finite double >= 1
    OPT_ANGLE,      ///< finite double in (0, 2π] (a view angle)
    OPT_INT,        ///< integer (stored as int)
    OPT_VEC2,       ///< {x, y} of finite numbers (stored as SteerVec2)
    OPT_BOOL,       ///< boolean (stored as bool)
    OPT_CUSTOM,     ///< known key, read by the caller after the reader ran
} OptType;

typedef struct OptSpec {
    const char *key;
    OptType type;
    size_t offset; ///< where the value goes in the caller's struct
} OptSpec;

/// An option list: `what` names it in messages (`wander`, `spawn`, `world`). Its specs are either
/// the bindings' own (`specs`), a behaviour's in the core's table (`core`: its core-only options
/// are no keys of Lua's) or rows of a core field table (`fields`: steer_fields.h).
typedef struct OptList {
    const char *what;
    const OptSpec *specs;
    int count;
    const SteerOptionSpec *core;
    const SteerFieldInfo *fields;
} OptList;

/// Reads the options table at `idx` (nil or absent: nothing) into `base`: every key must be a
/// known string key (else `unknown option 'raduis' for wander (did you mean 'radius'?)`), every
/// value of the right type and range (else `bad argument #arg to 'fn' (option 'radius': ...)`).
/// Writes nothing to `base` unless every option is good. Errors are checked in the lists' order,
/// so the same bad table always gives the same message. Returns a mask of the specs present
/// (bit i = specs[i]).
uint64_t lsteer_read_options(lua_State *L, int idx, const OptList *list, void *base);
/// Finds the spawn options' bits in the reader's mask (lvehicle.c).
void lsteer_spawn_bits_init(LSpawnBits *bits);
/// The same with two lists read into two structs (a behaviour's own options and the common
/// weight/priority/probability): list a's specs are bits 0..31 of the mask, list b's 32..63.
uint64_t lsteer_read_options2(lua_State *L, int idx, const OptList *a, void *base_a, const OptList *b, void *base_b);

/// Checks one value against a type; returns NULL if good (the value stored at out) or a message
/// like `number > 0 expected, got -1` left on the stack.
const char *lsteer_check_value(lua_State *L, int idx, OptType type, void *out);
/// Whether check_value would take the number x for a number type (OPT_NUMBER ... OPT_ANGLE): the
/// same test, for the FFI path (lffi.c), which has no Lua value to check.
bool lsteer_number_ok(OptType type, double x);
/// Raises `bad argument #arg to 'fn' (option 'key': msg)`.
int lsteer_option_error(lua_State *L, int idx, const char *key, const char *msg);

/// The closest candidate to a misspelt `word` (a UK/US spelling of it, or within a small edit
/// distance), or NULL.
const char *lsteer_suggest(const char *word, const char *const *candidates, int count);
/// Raises `unknown <what> '<word>'<context> (did you mean '...'?)` or lists the candidates.
int lsteer_unknown_error(lua_State *L, const char *what, const char *word, const char *context,
                         const char *const *candidates, int count);

/// Checks a finite number argument (`bad argument #n to 'f' (finite number expected, got nan)`).
double lsteer_check_finite(lua_State *L, int arg);
/// Checks a coordinate: finite and within ±STEER_MAX_COORDINATE, the core's limit.
double lsteer_check_coordinate(lua_State *L, int arg);
/// Pushes a short description of a bad number: "nan", "inf", "-inf" or "%g".
void lsteer_push_number_text(lua_State *L, double x);

/// The options every behaviour takes (weight, priority, probability), from the core's table. A
/// behaviour's own list is {row->name, NULL, row->option_count, row->options}.
OptList lsteer_common_options(void);
/// How the Lua side checks a core option before the core checks it (OPT_NONNEG for a length, ...).
OptType lsteer_option_type(const SteerOptionSpec *spec);
/// How the Lua side checks a field of the core's field tables (OPT_POSITIVE for mass, ...).
OptType lsteer_field_type(const SteerFieldInfo *row);
/// Spawn's own options (position, velocity, heading and those it reads itself: kind, data, ...);
/// the vehicle field table's rows are the rest (lsteer_vehicle_field_options).
const OptList *lsteer_spawn_options(void);
const OptList *lsteer_vehicle_field_options(void);
/// The world options the bindings read themselves (edges, seed, ...); the world field table's
/// rows are the rest (lsteer_world_field_options).
const OptList *lsteer_world_options(void);
const OptList *lsteer_world_field_options(void);

/// Pushes a Lua table of a behaviour's parameters (for v:behaviours()): every option of its row
/// with its current value (an anchor only when given), plus weight, priority and probability.
/// Targets are added by the caller.
void lsteer_push_behaviour_params(lua_State *L, const SteerBehaviourDef *def);

#endif
