/* SPDX-License-Identifier: MIT */
/* lpairs.c - steer.pairs and steer.next: Lua's pairs and next in an order that is the same in
 * every Lua state that ran the same code. Lua walks a table in the order of its hash slots: a
 * string's slot depends on the hash seed, which Lua 5.4 draws per state, and an object's (a
 * vehicle handle, a table) on its address. A replay, or a rewind's, runs the recorded scripts in a
 * fresh state, so a scene that walks vehicles kept as keys of a table and gives each a w:random
 * target hands the targets out in another order there, and the replay diverges. The `steer`
 * program gives scenes these two as `pairs` and `next`: a hazard removed by construction.
 *
 * The order (lpairs_compare): numbers by value (integers and floats together), then strings by
 * their bytes, then false, true, then steer handles (by the world they belong to, in the order the
 * worlds were made; the world itself, then its vehicles by v.id, then its obstacles, walls, paths
 * and flow fields by id), then every other object (tables, functions, coroutines, other userdata)
 * by a serial given when pairs or next first meets it (the order in which a walk meets objects it
 * has never met is Lua's: the one order left to chance, docs/replay.md), then light userdata by
 * address (only C code makes those).
 *
 * How: pairs(t) takes a snapshot of t's keys (one lua_next walk), sorts it (merge sort; none when
 * the keys came in order, as an array's do) and returns an iterator over it with a cursor that
 * reads each value when it gets there: a field assigned nil during the walk is skipped, one
 * assigned another value is seen with it, as with Lua's. The cursor is the loop's closing value (the
 * generic for's fourth): when the loop ends, breaks or raises, the cursor goes back to a pool and
 * its buffers are reused by the next pairs: a walk allocates nothing once its sizes were met.
 * next(t, k) keeps the snapshots of the last few tables it walked (NEXT_SLOTS): a `for k, v in
 * next, t` loop costs what pairs does; next(t) alone (the first key) is one walk of t, without a
 * sort.
 *
 * The keys of a snapshot that are objects (strings included: a key assigned nil may be collected)
 * are kept alive in the cursor's anchors table; the records say where. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "lsteer_internal.h"

#define PAIRS_REGISTRY_KEY "steer.pairs"        /* the shared state (PairsState) */
#define WORLD_SERIAL_KEY "steer.worlds_made"    /* worlds made in this state (lsteer_next_world_serial) */
#define CURSOR_TAG UINT64_C(0x71c4e8a2d93b05f6) /* a PairsCursor's first word */
#define STATE_TAG UINT64_C(0x3e9d17b5a06c42f8)  /* a PairsState's */
#define POOL_MAX 16                             /* idle cursors kept for the next pairs */
#define NEXT_SLOTS 4                            /* tables next(t, k) keeps a snapshot of */
#define KEEP_KEYS 16384                         /* a cursor keeps its buffers for up to this many keys between walks */
#define INSERTION_RUN 16                        /* the merge sort's first runs, sorted by insertion */

enum { CLASS_NUMBER, CLASS_STRING, CLASS_BOOLEAN, CLASS_HANDLE, CLASS_OBJECT, CLASS_LIGHT };
/* a cursor's user values */
enum { CUV_TABLE = 1, CUV_ANCHORS, CUV_COUNT = CUV_ANCHORS };
/* the shared state's user values */
enum { SUV_POOL = 1, SUV_SERIALS, SUV_SLOTS, SUV_PAIRS, SUV_NEXT, SUV_RAW_NEXT, SUV_COUNT = SUV_RAW_NEXT };

/// One key of a snapshot, as the order compares it.
typedef struct PairsKey {
    uint8_t cls;       ///< CLASS_*
    uint8_t is_float;  ///< a number key: a.d rather than a.i
    uint32_t anchor;   ///< its index in the anchors table (0: pushed from the record itself)
    uint64_t ord;      ///< a prefix of the order (ord_of): a key with a smaller one comes first
    const void *ident; ///< an object's identity (lua_topointer), compared, never read
    union {
        lua_Integer i; ///< an integer key; a boolean (0, 1)
        lua_Number d;  ///< a float key
        const char *s; ///< a string key's bytes (valid while anchored)
        uint64_t u;    ///< a handle's world serial; an object's serial
        void *p;       ///< a light userdata
    } a;
    uint64_t b; ///< a string's length; a handle's type rank (world 0, vehicle 1, shapes 2 + type)
    uint64_t c; ///< a handle's id (v.id, a shape's packed id)
} PairsKey;

/// What the sort moves: a key's class and order prefix, and where its record is.
typedef struct PairsItem {
    uint64_t ord;
    uint32_t idx;
    uint8_t cls;
} PairsItem;

typedef struct PairsCursor {
    uint64_t tag;     ///< CURSOR_TAG
    PairsKey *keys;   ///< count keys in the order the walk met them
    PairsItem *items; ///< the order: 2 x capacity (the merge sort's other half); unused when in_order
    int count, capacity;
    bool in_order;     ///< the walk met the keys in order: keys[pos] is the pos-th
    int pos;           ///< the key returned last (-1: none yet)
    int anchored;      ///< anchors set in the anchors table (cleared when the walk ends)
    bool pooled;       ///< in the pool (idle)
    int slot;          ///< 1.. for one of next's slots (never pooled), 0 for pairs'
    uint32_t used;     ///< next's slots: when it was used last
    const void *table; ///< the table walked (lua_topointer), NULL when idle
} PairsCursor;

typedef struct PairsState {
    uint64_t tag;    ///< STATE_TAG (state_of)
    uint64_t serial; ///< the last serial given to an object
    int pool_count;
    uint32_t clock;                     ///< next's slots' use stamps
    const void *slot_table[NEXT_SLOTS]; ///< the table each of next's slots walks: a hint (checked)
} PairsState;

/* ---- the order ----------------------------------------------------------------------------- */

/* The sign of i - f, exactly (f is no NaN: a table has no NaN key). */
static int compare_integer_float(lua_Integer i, lua_Number f)
{
    if (f >= 9223372036854775808.0) return -1; /* 2^63: above every integer */
    if (f < -9223372036854775808.0) return 1;
    lua_Number fl = floor(f);
    lua_Integer fi = (lua_Integer)fl;
    if (i != fi) return i < fi ? -1 : 1;
    return fl == f ? 0 : -1;
}

static int compare_numbers(const PairsKey *x, const PairsKey *y)
{
    if (!x->is_float && !y->is_float) return x->a.i < y->a.i ? -1 : x->a.i > y->a.i;
    if (x->is_float && y->is_float) return x->a.d < y->a.d ? -1 : x->a.d > y->a.d;
    if (!x->is_float) return compare_integer_float(x->a.i, y->a.d);
    return -compare_integer_float(y->a.i, x->a.d);
}

static int compare_u64(uint64_t x, uint64_t y) { return x < y ? -1 : x > y; }

/* The order itself: -1, 0 (the same key) or 1. */
static int lpairs_compare(const PairsKey *x, const PairsKey *y)
{
    if (x->cls != y->cls) return x->cls < y->cls ? -1 : 1;
    if (x->ord != y->ord) return x->ord < y->ord ? -1 : 1;
    switch (x->cls) {
    case CLASS_NUMBER: return compare_numbers(x, y);
    case CLASS_STRING: {
        size_t n = x->b < y->b ? (size_t)x->b : (size_t)y->b;
        int r = n ? memcmp(x->a.s, y->a.s, n) : 0;
        if (r) return r < 0 ? -1 : 1;
        return compare_u64(x->b, y->b);
    }
    case CLASS_BOOLEAN: return x->a.i < y->a.i ? -1 : x->a.i > y->a.i;
    case CLASS_HANDLE: {
        int r = compare_u64(x->a.u, y->a.u);
        if (!r) r = compare_u64(x->b, y->b);
        return r ? r : compare_u64(x->c, y->c);
    }
    case CLASS_OBJECT: return compare_u64(x->a.u, y->a.u);
    default: return (uintptr_t)x->a.p < (uintptr_t)y->a.p ? -1 : (uintptr_t)x->a.p > (uintptr_t)y->a.p;
    }
}

/* A double's bits as an unsigned number in the double's order. */
static uint64_t double_ord(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return (u >> 63) ? ~u : u | (UINT64_C(1) << 63);
}

/* A 64-bit prefix of the order within a class: two keys whose prefixes differ compare as their
 * prefixes do (the map never decreases), so the sort compares two integers for most pairs and
 * reads the keys themselves only on a tie. Numbers: their double's bits (an integer rounded to the
 * nearest double: ties compared exactly); strings: their first 8 bytes; handles: world, type and
 * id packed (a field too large to pack gives its maximum and zeroes the fields after it). */
static uint64_t ord_of(const PairsKey *k)
{
    switch (k->cls) {
    case CLASS_NUMBER: return double_ord(k->is_float ? k->a.d : (double)k->a.i);
    case CLASS_STRING: {
        uint64_t o = 0;
        for (size_t i = 0; i < 8; i++) o = o << 8 | (i < k->b ? (unsigned char)k->a.s[i] : 0);
        return o;
    }
    case CLASS_HANDLE:
        if (k->a.u >= 255) return UINT64_C(255) << 56;
        if (k->b >= 255) return k->a.u << 56 | UINT64_C(255) << 48;
        return k->a.u << 56 | k->b << 48 | (k->c < (UINT64_C(1) << 48) ? k->c : (UINT64_C(1) << 48) - 1);
    case CLASS_LIGHT: return (uint64_t)(uintptr_t)k->a.p;
    default: return k->a.u; /* booleans (0, 1), objects (their serial) */
    }
}

static int compare_items(const PairsItem *x, const PairsItem *y, const PairsKey *keys)
{
    if (x->cls != y->cls) return x->cls < y->cls ? -1 : 1;
    if (x->ord != y->ord) return x->ord < y->ord ? -1 : 1;
    return lpairs_compare(&keys[x->idx], &keys[y->idx]);
}

/* Sorts items[0..n) with scratch[0..n) as the other half: runs of INSERTION_RUN by insertion, then
 * merge passes; the result ends in items. O(n log n), no allocation. */
static void sort_items(PairsItem *items, PairsItem *scratch, int n, const PairsKey *keys)
{
    for (int lo = 0; lo < n; lo += INSERTION_RUN) {
        int hi = lo + INSERTION_RUN < n ? lo + INSERTION_RUN : n;
        for (int i = lo + 1; i < hi; i++) {
            PairsItem it = items[i];
            int j = i;
            while (j > lo && compare_items(&items[j - 1], &it, keys) > 0) {
                items[j] = items[j - 1];
                j--;
            }
            items[j] = it;
        }
    }
    PairsItem *from = items, *to = scratch;
    for (int width = INSERTION_RUN; width < n; width *= 2) {
        for (int lo = 0; lo < n; lo += 2 * width) {
            int mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            int i = lo, j = mid, o = lo;
            if (mid == hi || compare_items(&from[mid - 1], &from[mid], keys) <= 0) { /* already in order */
                memcpy(&to[lo], &from[lo], (size_t)(hi - lo) * sizeof *to);
                continue;
            }
            while (i < mid && j < hi) to[o++] = compare_items(&from[j], &from[i], keys) < 0 ? from[j++] : from[i++];
            while (i < mid) to[o++] = from[i++];
            while (j < hi) to[o++] = from[j++];
        }
        PairsItem *swap = from;
        from = to;
        to = swap;
    }
    if (from != items) memcpy(items, from, (size_t)n * sizeof *items);
}

/* ---- keys ---------------------------------------------------------------------------------- */

/* The serial of the object at idx, given now if it has none (serials at serials_idx). */
static uint64_t object_serial(lua_State *L, PairsState *st, int idx, int serials_idx)
{
    lua_pushvalue(L, idx);
    if (lua_rawget(L, serials_idx) == LUA_TNUMBER) {
        uint64_t serial = (uint64_t)lua_tointeger(L, -1);
        lua_pop(L, 1);
        return serial;
    }
    lua_pop(L, 1);
    lua_pushvalue(L, idx);
    lua_pushinteger(L, (lua_Integer)++st->serial);
    lua_rawset(L, serials_idx);
    return st->serial;
}

/* Whether the full userdata at idx is a steer handle; if so, fills k's handle fields. Its bytes
 * say so (lsteer_test_udata's way, without the owner check: nothing here reads through the
 * owner pointer). */
static bool classify_handle(lua_State *L, int idx, PairsKey *k)
{
    const void *p = lua_touserdata(L, idx);
    size_t len = lua_rawlen(L, idx);
    if (len < sizeof(uint64_t)) return false;
    uint64_t tag = *(const uint64_t *)p;
    if (len == sizeof(LWorld) && tag == LSTEER_WORLD_TAG) {
        k->a.u = ((const LWorld *)p)->serial;
        k->b = 0;
        k->c = 0;
    } else if (len == sizeof(LVehicle) && tag == LSTEER_VEHICLE_TAG) {
        k->a.u = ((const LVehicle *)p)->world_serial;
        k->b = 1;
        k->c = ((const LVehicle *)p)->serial;
    } else if (len == sizeof(LShape) && tag >= LSTEER_SHAPE_TAG && tag <= LSTEER_SHAPE_TAG + SHAPE_FLOW_FIELD) {
        k->a.u = ((const LShape *)p)->world_serial;
        k->b = 2 + (tag - LSTEER_SHAPE_TAG);
        k->c = ((const LShape *)p)->packed;
    } else {
        return false;
    }
    k->cls = CLASS_HANDLE;
    return true;
}

/* Fills k for the key at idx (a number, a string, a boolean: plain keys, pushed back from the
 * record, strings from their anchor). Objects and strings are anchored in anchors_idx (at
 * ++*anchored) when anchors_idx is not 0; serials come from serials_idx. Runs no Lua code and no
 * garbage collection step (no finalizer can run in the middle). */
static void classify(lua_State *L, PairsState *st, int idx, PairsKey *k, int anchors_idx, int *anchored,
                     int serials_idx)
{
    k->is_float = 0;
    k->anchor = 0;
    k->ident = NULL;
    k->b = k->c = 0;
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER: k->cls = CLASS_NUMBER;
#if defined(LSTEER_COMPAT_51)
        k->is_float = 1; /* LuaJIT's numbers are all doubles */
        k->a.d = lua_tonumber(L, idx);
#else
        if (lua_isinteger(L, idx)) {
            k->a.i = lua_tointeger(L, idx);
        } else {
            k->is_float = 1;
            k->a.d = lua_tonumber(L, idx);
        }
#endif
        k->ord = ord_of(k);
        return;
    case LUA_TBOOLEAN:
        k->cls = CLASS_BOOLEAN;
        k->a.i = lua_toboolean(L, idx);
        k->ord = (uint64_t)k->a.i;
        return;
    case LUA_TLIGHTUSERDATA:
        k->cls = CLASS_LIGHT;
        k->a.p = lua_touserdata(L, idx);
        k->ord = ord_of(k);
        return;
    case LUA_TSTRING: {
        size_t len;
        k->cls = CLASS_STRING;
        k->a.s = lua_tolstring(L, idx, &len);
        k->b = len;
        break;
    }
    default: /* a handle, or another object: a table, a function, a coroutine, another userdata */
        if (lua_type(L, idx) != LUA_TUSERDATA || !classify_handle(L, idx, k)) {
            k->cls = CLASS_OBJECT;
            k->a.u = object_serial(L, st, idx, serials_idx);
        }
        break;
    }
    k->ord = ord_of(k);
    k->ident = lua_topointer(L, idx);
    if (anchors_idx) {
        lua_pushvalue(L, idx);
        lua_rawseti(L, anchors_idx, ++*anchored);
        k->anchor = (uint32_t)*anchored;
    }
}

/* Whether the value at idx is the key k (the one the walk returned last), as cheaply as the key's
 * class allows; never converts a value (no allocation). A false "no" only costs a search. */
static bool key_is(lua_State *L, const PairsKey *k, int idx)
{
    switch (k->cls) {
    case CLASS_NUMBER: {
        if (lua_type(L, idx) != LUA_TNUMBER) return false;
#if !defined(LSTEER_COMPAT_51)
        if (!k->is_float) return lua_isinteger(L, idx) && lua_tointeger(L, idx) == k->a.i;
        if (lua_isinteger(L, idx)) return false;
#endif
        return lua_tonumber(L, idx) == k->a.d;
    }
    case CLASS_BOOLEAN: return lua_type(L, idx) == LUA_TBOOLEAN && lua_toboolean(L, idx) == (int)k->a.i;
    case CLASS_LIGHT: return lua_type(L, idx) == LUA_TLIGHTUSERDATA && lua_touserdata(L, idx) == k->a.p;
    case CLASS_STRING: {
        if (lua_type(L, idx) != LUA_TSTRING) return false;
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        return s == k->a.s || (len == k->b && memcmp(s, k->a.s, len) == 0);
    }
    default: return lua_topointer(L, idx) == k->ident;
    }
}

/* ---- cursors ------------------------------------------------------------------------------- */

static PairsCursor *test_cursor(lua_State *L, int idx)
{
    PairsCursor *c = lua_touserdata(L, idx); /* a light userdata has no length: rawlen gives 0 */
    return c && lua_rawlen(L, idx) == sizeof *c && c->tag == CURSOR_TAG ? c : NULL;
}

/* The shared state, upvalue 1 of pairs, next and a cursor's __close (which plain Lua's
 * debug.setupvalue can replace: then an error rather than a read of what is no state). */
static PairsState *state_of(lua_State *L)
{
    PairsState *st = lua_touserdata(L, lua_upvalueindex(1));
    if (!st || lua_rawlen(L, lua_upvalueindex(1)) != sizeof *st || st->tag != STATE_TAG)
        luaL_error(L, "steer.pairs: its state was replaced (debug.setupvalue)");
    return st;
}

/* Pushes the C function fn kept in the state's user value uv (made again if it is not fn there:
 * debug.setuservalue), with the state as its upvalue when `closure`. */
static void push_state_function(lua_State *L, int uv, lua_CFunction fn, bool closure)
{
    if (lua_getiuservalue(L, lua_upvalueindex(1), uv) == LUA_TFUNCTION && lua_tocfunction(L, -1) == fn) return;
    lua_pop(L, 1);
    if (closure) {
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_pushcclosure(L, fn, 1);
    } else {
        lua_pushcfunction(L, fn);
    }
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, lua_upvalueindex(1), uv);
}

/* Pushes user value uv of the state (the upvalue) if it is a table, else a new one put there: a
 * plain Lua script may have replaced it (debug.setuservalue on the upvalue of steer.next). */
static int push_state_table(lua_State *L, int uv)
{
    if (lua_getiuservalue(L, lua_upvalueindex(1), uv) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setiuservalue(L, lua_upvalueindex(1), uv);
    }
    return lua_gettop(L);
}

static void free_buffers(lua_State *L, PairsCursor *c)
{
    void *ud;
    lua_Alloc alloc = lua_getallocf(L, &ud);
    if (c->keys) alloc(ud, c->keys, (size_t)c->capacity * sizeof *c->keys, 0);
    if (c->items) alloc(ud, c->items, (size_t)c->capacity * 2 * sizeof *c->items, 0);
    c->keys = NULL;
    c->items = NULL;
    c->capacity = 0;
}

/* Room for n keys and their order, from the state's allocator (a capped state caps it too). */
static void reserve(lua_State *L, PairsCursor *c, int n)
{
    if (n <= c->capacity) return;
    int capacity = c->capacity ? c->capacity : 16;
    while (capacity < n) {
        if (capacity > INT32_MAX / 4 / (int)sizeof(PairsKey)) luaL_error(L, "pairs: too many keys");
        capacity *= 2;
    }
    void *ud;
    lua_Alloc alloc = lua_getallocf(L, &ud);
    PairsKey *keys = alloc(ud, NULL, 0, (size_t)capacity * sizeof *keys);
    PairsItem *items = keys ? alloc(ud, NULL, 0, (size_t)capacity * 2 * sizeof *items) : NULL;
    if (!items) {
        if (keys) alloc(ud, keys, (size_t)capacity * sizeof *keys, 0);
        luaL_error(L, "not enough memory");
    }
    if (c->count) memcpy(keys, c->keys, (size_t)c->count * sizeof *keys);
    free_buffers(L, c);
    c->keys = keys;
    c->items = items;
    c->capacity = capacity;
}

/* Ends a walk: the anchored keys and the table are let go; the buffers of a large walk too. */
static void cursor_reset(lua_State *L, PairsCursor *c, int cursor_idx)
{
    cursor_idx = lua_absindex(L, cursor_idx);
    int anchored = c->anchored;
    c->anchored = 0;
    c->count = 0;
    c->pos = -1;
    c->table = NULL;
    if (c->capacity > KEEP_KEYS) free_buffers(L, c);
    lua_pushnil(L);
    lua_setiuservalue(L, cursor_idx, CUV_TABLE);
    if (anchored > KEEP_KEYS) {
        lua_newtable(L); /* rather than clearing a large one (and keeping its array) */
        lua_setiuservalue(L, cursor_idx, CUV_ANCHORS);
    } else if (anchored > 0) {
        if (lua_getiuservalue(L, cursor_idx, CUV_ANCHORS) == LUA_TTABLE)
            for (int i = 1; i <= anchored; i++) {
                lua_pushnil(L);
                lua_rawseti(L, -2, i);
            }
        lua_pop(L, 1);
    }
}

/* The walk of the cursor at cursor_idx ended (or its loop did): reset, and back to the pool. */
static void cursor_done(lua_State *L, PairsState *st, PairsCursor *c, int cursor_idx)
{
    cursor_idx = lua_absindex(L, cursor_idx);
    cursor_reset(L, c, cursor_idx);
    if (c->slot || c->pooled || st->pool_count >= POOL_MAX) return;
    int pool = push_state_table(L, SUV_POOL);
    lua_pushvalue(L, cursor_idx);
    lua_rawseti(L, pool, ++st->pool_count);
    lua_pop(L, 1);
    c->pooled = true;
}

static PairsCursor *new_cursor(lua_State *L, int slot)
{
    PairsCursor *c = lua_newuserdatauv(L, sizeof *c, CUV_COUNT);
    memset(c, 0, sizeof *c);
    c->tag = CURSOR_TAG;
    c->pos = -1;
    c->slot = slot;
    luaL_setmetatable(L, "steer.PairsCursor");
    lua_newtable(L);
    lua_setiuservalue(L, -2, CUV_ANCHORS);
    return c;
}

/* Whether every key of the table at t is a number or a boolean and Lua's next meets them in the
 * order (an array, with or without numbers in its hash part): Lua's next then walks it in the
 * order, and keeps to it even when a key is added during the walk (which rehashes the table) since
 * such keys hash the same in every state. Stops at the first key that is not. */
static bool plain_in_order(lua_State *L, int t)
{
    PairsKey prev = {0}, k;
    bool first = true;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
#if !defined(LSTEER_COMPAT_51)
        if (lua_isinteger(L, -1) && (first || (prev.cls == CLASS_NUMBER && !prev.is_float))) { /* an array's */
            lua_Integer i = lua_tointeger(L, -1);
            if (!first && i <= prev.a.i) {
                lua_pop(L, 1);
                return false;
            }
            prev.cls = CLASS_NUMBER;
            prev.is_float = 0;
            prev.a.i = i;
            prev.ord = double_ord((double)i);
            first = false;
            continue;
        }
#endif
        int type = lua_type(L, -1);
        if (type != LUA_TNUMBER && type != LUA_TBOOLEAN) {
            lua_pop(L, 1);
            return false;
        }
        classify(L, NULL, -1, &k, 0, NULL, 0); /* (a number or a boolean: nothing pushed, no serial) */
        if (!first && lpairs_compare(&prev, &k) >= 0) {
            lua_pop(L, 1);
            return false;
        }
        prev = k;
        first = false;
    }
    return true;
}

/* Takes the snapshot of the table at t_idx into the cursor at cursor_idx, set to walk it. */
static void snapshot(lua_State *L, PairsState *st, PairsCursor *c, int cursor_idx, int t_idx)
{
    cursor_idx = lua_absindex(L, cursor_idx);
    t_idx = lua_absindex(L, t_idx);
    if (c->count || c->anchored || c->table) cursor_reset(L, c, cursor_idx);
    lua_pushvalue(L, t_idx);
    lua_setiuservalue(L, cursor_idx, CUV_TABLE);
    if (lua_getiuservalue(L, cursor_idx, CUV_ANCHORS) != LUA_TTABLE) { /* (debug.setuservalue) */
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setiuservalue(L, cursor_idx, CUV_ANCHORS);
    }
    int anchors = lua_gettop(L);
    int serials = push_state_table(L, SUV_SERIALS);
    bool in_order = true;
    lua_pushnil(L);
    while (lua_next(L, t_idx)) {
        lua_pop(L, 1);
        if (c->count == c->capacity) reserve(L, c, c->count + 1);
        PairsKey *k = &c->keys[c->count];
        classify(L, st, lua_gettop(L), k, anchors, &c->anchored, serials);
        if (in_order && c->count > 0 && lpairs_compare(&c->keys[c->count - 1], k) > 0) in_order = false;
        c->count++;
    }
    c->in_order = in_order;
    if (!in_order) {
        for (int i = 0; i < c->count; i++)
            c->items[i] = (PairsItem){.ord = c->keys[i].ord, .idx = (uint32_t)i, .cls = c->keys[i].cls};
        sort_items(c->items, c->items + c->capacity, c->count, c->keys);
    }
    c->table = lua_topointer(L, t_idx);
    c->pos = -1;
    lua_pop(L, 2);
}

static const PairsKey *key_at(const PairsCursor *c, int pos)
{
    return c->in_order ? &c->keys[pos] : &c->keys[c->items[pos].idx];
}

/* The index of the last key <= the value at idx (-1: none). */
static int position_of(lua_State *L, PairsState *st, PairsCursor *c, int idx)
{
    int serials = push_state_table(L, SUV_SERIALS);
    PairsKey k;
    classify(L, st, idx, &k, 0, NULL, serials);
    lua_pop(L, 1);
    int lo = 0, hi = c->count; /* the first key > k is in [lo, hi] */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (lpairs_compare(key_at(c, mid), &k) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - 1;
}

/* Pushes the next key of the walk with a value and that value, and returns 2; at the end, ends the
 * walk (cursor_done) and pushes nil: 1. The table walked is at t_idx. Allocates nothing (no
 * finalizer runs) until the end. */
static int advance(lua_State *L, PairsState *st, PairsCursor *c, int cursor_idx, int t_idx)
{
    int anchors = 0; /* fetched at the first key that needs it; -1: missing (debug.setuservalue) */
    while (++c->pos < c->count) {
        const PairsKey *k = key_at(c, c->pos);
        switch (k->cls) {
        case CLASS_NUMBER:
            if (k->is_float)
                lua_pushnumber(L, k->a.d);
            else
                lua_pushinteger(L, k->a.i);
            break;
        case CLASS_BOOLEAN: lua_pushboolean(L, (int)k->a.i); break;
        case CLASS_LIGHT: lua_pushlightuserdata(L, k->a.p); break;
        default:
            if (!anchors) {
                anchors = lua_getiuservalue(L, cursor_idx, CUV_ANCHORS) == LUA_TTABLE ? lua_gettop(L) : -1;
                if (anchors < 0) lua_pop(L, 1);
            }
            if (anchors < 0 || lua_rawgeti(L, anchors, (lua_Integer)k->anchor) == LUA_TNIL) {
                if (anchors > 0) lua_pop(L, 1);
                continue;
            }
        }
        lua_pushvalue(L, -1);
        if (lua_rawget(L, t_idx) != LUA_TNIL) return 2;
        lua_pop(L, 2); /* assigned nil since the snapshot */
    }
    cursor_done(L, st, c, cursor_idx);
    lua_pushnil(L);
    return 1;
}

/* ---- next ---------------------------------------------------------------------------------- */

/* next(t): t's first key in the order and its value (nil when t is empty), in one walk. */
static int first_key(lua_State *L, PairsState *st)
{
    int serials = push_state_table(L, SUV_SERIALS);
    lua_pushnil(L); /* the least key so far */
    int least = lua_gettop(L);
    PairsKey best = {0}, k;
    bool found = false;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        classify(L, st, lua_gettop(L), &k, 0, NULL, serials);
        if (!found || lpairs_compare(&k, &best) < 0) {
            found = true;
            best = k; /* a string's bytes stay alive: the key is copied to `least` */
            lua_pushvalue(L, -1);
            lua_replace(L, least);
        }
    }
    if (!found) return 1; /* nil */
    lua_pushvalue(L, least);
    lua_rawget(L, 1);
    return 2;
}

/* The slot of next's snapshots walking t (at 1) whose last key is k (at 2), pushed; NULL (nothing
 * pushed) when none is. */
static PairsCursor *find_slot(lua_State *L, PairsState *st, int slots)
{
    const void *t = lua_topointer(L, 1);
    for (int i = 1; i <= NEXT_SLOTS; i++) {
        if (st->slot_table[i - 1] != t) continue;
        lua_rawgeti(L, slots, i);
        PairsCursor *c = test_cursor(L, -1);
        if (c && c->table == t && c->pos >= 0 && c->pos < c->count && key_is(L, key_at(c, c->pos), 2)) {
            lua_getiuservalue(L, -1, CUV_TABLE);
            bool same = lua_rawequal(L, -1, 1);
            lua_pop(L, 1);
            if (same) return c;
        }
        lua_pop(L, 1);
    }
    return NULL;
}

/* The least recently used slot (made when missing), pushed. */
static PairsCursor *oldest_slot(lua_State *L, int slots)
{
    PairsCursor *oldest = NULL;
    int oldest_i = 0;
    for (int i = 1; i <= NEXT_SLOTS; i++) {
        lua_rawgeti(L, slots, i);
        PairsCursor *c = test_cursor(L, -1);
        lua_pop(L, 1);
        if (!c || c->slot != i) {
            c = new_cursor(L, i);
            lua_pushvalue(L, -1);
            lua_rawseti(L, slots, i);
            return c;
        }
        if (!oldest || c->used < oldest->used) {
            oldest = c;
            oldest_i = i;
        }
    }
    lua_rawgeti(L, slots, oldest_i);
    return oldest;
}

/* next(t, k), or the iterator pairs returns: next(cursor, k). */
static int stable_next(lua_State *L)
{
    PairsCursor *c = lua_touserdata(L, 1);
    if (c && lua_rawlen(L, 1) == sizeof *c && c->tag == CURSOR_TAG && !c->slot) { /* pairs' iterator */
        PairsState *st = state_of(L);
        lua_settop(L, 2);
        if (lua_getiuservalue(L, 1, CUV_TABLE) != LUA_TTABLE) { /* a walk that ended */
            lua_pushnil(L);
            return 1;
        }
        if (lua_isnil(L, 2)) {
            if (c->pos >= 0) snapshot(L, st, c, 1, 3); /* called again from the start */
        } else if (c->pos < 0 || c->pos >= c->count || !key_is(L, key_at(c, c->pos), 2)) {
            c->pos = position_of(L, st, c, 2); /* a key not the last one given */
        }
        return advance(L, st, c, 1, 3);
    }
    PairsState *st = state_of(L);
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    int slots = push_state_table(L, SUV_SLOTS);
    if (lua_isnil(L, 2)) {
        /* a walk that starts again drops an old snapshot of t (the table may have changed since) */
        const void *t = lua_topointer(L, 1);
        for (int i = 1; i <= NEXT_SLOTS; i++) {
            if (st->slot_table[i - 1] != t) continue;
            st->slot_table[i - 1] = NULL;
            lua_rawgeti(L, slots, i);
            PairsCursor *s = test_cursor(L, -1);
            if (s && s->table == t) cursor_reset(L, s, -1);
            lua_pop(L, 1);
        }
        lua_settop(L, 1);
        return first_key(L, st);
    }
    PairsCursor *s = find_slot(L, st, slots);
    if (!s) {
        s = oldest_slot(L, slots);
        snapshot(L, st, s, -1, 1);
        s->pos = position_of(L, st, s, 2);
        st->slot_table[s->slot - 1] = s->table;
    }
    s->used = ++st->clock;
    return advance(L, st, s, lua_gettop(L), 1);
}

/* ---- pairs --------------------------------------------------------------------------------- */

static int raw_next(lua_State *L);

#if !defined(LSTEER_COMPAT_51)
static int pairs_continue(lua_State *L, int status, lua_KContext k)
{
    (void)L;
    (void)status;
    (void)k;
    return 3;
}
#endif

static int stable_pairs(lua_State *L)
{
    PairsState *st = state_of(L);
    luaL_checkany(L, 1);
    if (luaL_getmetafield(L, 1, "__pairs") != LUA_TNIL) { /* as Lua's pairs: its three results */
        lua_pushvalue(L, 1);
#if defined(LSTEER_COMPAT_51)
        lua_call(L, 1, 3);
#else
        lua_callk(L, 1, 3, 0, pairs_continue);
#endif
        return 3;
    }
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    if (plain_in_order(L, 1)) { /* an array, say: Lua's next walks it in the order, at Lua's speed */
        push_state_function(L, SUV_RAW_NEXT, raw_next, false);
        lua_pushvalue(L, 1);
        lua_pushnil(L);
        return 3;
    }
    push_state_function(L, SUV_NEXT, stable_next, true); /* the iterator: 2 */
    PairsCursor *c = NULL;
    if (st->pool_count > 0) {
        int pool = push_state_table(L, SUV_POOL);
        lua_rawgeti(L, pool, st->pool_count);
        lua_pushnil(L);
        lua_rawseti(L, pool, st->pool_count--);
        lua_remove(L, pool);
        c = test_cursor(L, -1);
        if (!c || c->slot) {
            lua_pop(L, 1);
            c = NULL;
        }
    }
    if (!c) c = new_cursor(L, 0);
    c->pooled = false;
    snapshot(L, st, c, 3, 1);
    lua_pushnil(L);
    lua_pushvalue(L, 3); /* the loop's closing value: back to the pool when the loop ends */
    return 4;
}

/* Lua's next (luaB_next), for the walks it takes in the order anyway. */
static int raw_next(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    if (lua_next(L, 1)) return 2;
    lua_pushnil(L);
    return 1;
}

/* __close of a cursor: the loop ended (normally, by break or by an error). */
static int cursor_close(lua_State *L)
{
    PairsCursor *c = test_cursor(L, 1);
    if (!c) return luaL_typeerror(L, 1, "steer.PairsCursor");
    if (!c->pooled && !c->slot) cursor_done(L, state_of(L), c, 1);
    return 0;
}

static int cursor_gc(lua_State *L)
{
    PairsCursor *c = test_cursor(L, 1);
    if (!c) return luaL_typeerror(L, 1, "steer.PairsCursor");
    free_buffers(L, c);
    c->count = c->anchored = 0;
    c->pos = -1;
    c->table = NULL;
    return 0;
}

/* ---- opening ------------------------------------------------------------------------------- */

uint64_t lsteer_next_world_serial(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, WORLD_SERIAL_KEY);
    uint64_t serial = (uint64_t)lua_tointeger(L, -1) + 1;
    lua_pop(L, 1);
    lua_pushinteger(L, (lua_Integer)serial);
    lua_setfield(L, LUA_REGISTRYINDEX, WORLD_SERIAL_KEY);
    return serial;
}

/* Whether the value at idx is the shared state. */
static bool is_state(lua_State *L, int idx)
{
    const PairsState *st = lua_touserdata(L, idx);
    return st && lua_rawlen(L, idx) == sizeof *st && st->tag == STATE_TAG;
}

/* Pushes user value uv of the state at idx if it is the C closure fn, else a new one (stored). */
static void push_closure(lua_State *L, int state, int uv, lua_CFunction fn)
{
    if (lua_getiuservalue(L, state, uv) == LUA_TFUNCTION && lua_tocfunction(L, -1) == fn) return;
    lua_pop(L, 1);
    lua_pushvalue(L, state);
    lua_pushcclosure(L, fn, 1);
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, state, uv);
}

void steer_lua_push_pairs(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, PAIRS_REGISTRY_KEY);
    if (!is_state(L, -1)) {
        lua_pop(L, 1);
        PairsState *st = lua_newuserdatauv(L, sizeof *st, SUV_COUNT);
        memset(st, 0, sizeof *st);
        st->tag = STATE_TAG;
        int state = lua_gettop(L);
        for (int uv = SUV_POOL; uv <= SUV_SLOTS; uv++) {
            lua_newtable(L);
            lua_setiuservalue(L, state, uv);
        }
        lua_getiuservalue(L, state, SUV_SERIALS); /* weak keys: a serial goes with its object */
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "k");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        lua_pop(L, 1);
        if (luaL_newmetatable(L, "steer.PairsCursor")) {
            lua_pushvalue(L, state);
            lua_pushcclosure(L, cursor_close, 1);
            lua_setfield(L, -2, "__close");
            lua_pushcfunction(L, cursor_gc);
            lua_setfield(L, -2, "__gc");
            lua_pushliteral(L, "steer.PairsCursor");
            lua_setfield(L, -2, "__metatable");
        }
        lua_pop(L, 1);
        lua_pushcfunction(L, raw_next);
        lua_setiuservalue(L, state, SUV_RAW_NEXT);
        lua_pushvalue(L, state);
        lua_setfield(L, LUA_REGISTRYINDEX, PAIRS_REGISTRY_KEY);
    }
    int state = lua_gettop(L);
    push_closure(L, state, SUV_PAIRS, stable_pairs);
    push_closure(L, state, SUV_NEXT, stable_next);
    lua_remove(L, state);
}
