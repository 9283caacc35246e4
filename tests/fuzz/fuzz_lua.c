/* SPDX-License-Identifier: MIT */
/* fuzz_lua.c - libFuzzer harness for the Lua module: the input bytes become a sequence of Lua
 * statements (spawns, behaviour calls with hostile targets and options, field writes, setters,
 * shapes, queries, removals, steps, brains), each run with a protected call on a real lua_State
 * with the module (linked in, as the program embeds it). A statement may fail with a Lua error;
 * it must never crash (ASan/UBSan) or break the world: steer_world_check_state() runs after every
 * statement. The state has a memory cap and an instruction budget, so no input can hang it. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "fuzz_support.h"
#include "steer_lua.h"
#include "world_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_STATEMENTS = 120, MEMORY_CAP = 64 << 20 };

/* ---- A capped allocator and an instruction budget ------------------------------------------- */

typedef struct Heap {
    size_t used;
} Heap;

static void *capped_alloc(void *ud, void *block, size_t old_size, size_t new_size)
{
    Heap *heap = ud;
    size_t old = block ? old_size : 0;
    if (new_size == 0) {
        free(block);
        heap->used -= old;
        return NULL;
    }
    if (new_size > old && heap->used + (new_size - old) > MEMORY_CAP) return NULL;
    void *grown = realloc(block, new_size);
    if (grown) heap->used = heap->used - old + new_size;
    return grown;
}

static void budget_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    luaL_error(L, "instruction budget exceeded");
}

/* ---- Writing the statements ------------------------------------------------------------------ */

typedef struct Script {
    FuzzBytes in;
    char text[2048];
    size_t length;
} Script;

static void put(Script *s, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void put(Script *s, const char *format, ...)
{
    if (s->length >= sizeof s->text) return;
    va_list args;
    va_start(args, format);
    int n = vsnprintf(s->text + s->length, sizeof s->text - s->length, format, args);
    va_end(args);
    if (n > 0) s->length += (size_t)n < sizeof s->text - s->length ? (size_t)n : sizeof s->text - s->length - 1;
}

static const char *const VALUES[] = {
    "0",
    "-0.0",
    "1",
    "-1",
    "0.5",
    "100",
    "-100",
    "30",
    "1e-6",
    "9.9999999999999984e-07",
    "5e-324",
    "1e-300",
    "1e9",
    "1000000000.0000001",
    "-1e9",
    "1e6",
    "1000000.0000000001",
    "1e12",
    "1e15",
    "1e300",
    "-1e308",
    "1.7976931348623157e308",
    "math.huge",
    "-math.huge",
    "0/0",
    "-(0/0)",
    "2^53",
    "2^63",
    "math.maxinteger",
    "math.mininteger",
    "2*math.pi",
    "6.2831853071795874",
    "1/60",
    "'x'",
    "'seek'",
    "'prey'",
    "''",
    "nil",
    "true",
    "false",
    "{}",
    "{1, 2}",
    "{0, 0}",
    "{x = 1}",
    "V[1]",
    "V[2]",
    "S[1]",
    "W",
    "function() end",
    "print",
    "setmetatable({}, {__index = function() error('boom') end})",
};
enum { VALUE_COUNT = sizeof VALUES / sizeof VALUES[0] };

/// Mostly a plain number, sometimes anything at all.
static void value(Script *s)
{
    uint8_t b = fuzz_u8(&s->in);
    if (b < 100)
        put(s, "%d", (int)(int8_t)fuzz_u8(&s->in) * (b & 1 ? 10 : 1));
    else
        put(s, "%s", VALUES[b % VALUE_COUNT]);
}

static void vehicle(Script *s) { put(s, "V[%d]", 1 + fuzz_u8(&s->in) % 12); }

static const char *const OPTIONS[] = {
    "x",
    "y",
    "vx",
    "vy",
    "heading",
    "mass",
    "max_speed",
    "max_force",
    "max_turn_rate",
    "radius",
    "r",
    "response_time",
    "neighbor_radius",
    "view_angle",
    "kind",
    "combine",
    "color",
    "flock_with",
    "data",
    "brain",
    "state",
    "weight",
    "priority",
    "probability",
    "slowing_radius",
    "panic_distance",
    "threat_range",
    "offset",
    "distance",
    "jitter",
    "leash",
    "anchor",
    "return_radius",
    "max_distance",
    "roam_rate",
    "waypoint_radius",
    "detection_length",
    "braking",
    "feeler_length",
    "margin",
    "lookahead",
    "comfort_distance",
    "comfort_multiplier",
    "separation",
    "alignment",
    "cohesion",
    "wander",
    "behind",
    "sight_radius",
    "ahead",
    "horizon",
    "x1",
    "y1",
    "x2",
    "y2",
    "cell_size",
    "cols",
    "rows",
    "vectors",
    "loop",
    "raduis",
    "width",
    "height",
    "edges",
    "dt",
    "seed",
    "wrap",
    "think_hz",
};
enum { OPTION_COUNT = sizeof OPTIONS / sizeof OPTIONS[0] };

static void options(Script *s)
{
    int n = fuzz_u8(&s->in) % 4;
    put(s, "{");
    for (int i = 0; i < n; i++) {
        put(s, "%s = ", OPTIONS[fuzz_u8(&s->in) % OPTION_COUNT]);
        uint8_t b = fuzz_u8(&s->in);
        if (b < 40)
            put(s, "'%s'", b & 1 ? "pull" : (b & 2 ? "roam" : "priority"));
        else
            value(s);
        put(s, ", ");
    }
    put(s, "}");
}

static void target(Script *s)
{
    uint8_t b = fuzz_u8(&s->in) % 3;
    if (b == 0)
        vehicle(s);
    else {
        value(s);
        put(s, ", ");
        value(s);
    }
}

static const char *const FIELDS[] = {
    "max_speed",  "max_force", "mass",    "radius",     "max_turn_rate", "response_time", "neighbor_radius",
    "view_angle", "color",     "combine", "flock_with", "data",          "brain",         "state",
    "x",          "kind",      "id",
};
enum { FIELD_COUNT = sizeof FIELDS / sizeof FIELDS[0] };

static void statement(Script *s)
{
    switch (fuzz_u8(&s->in) % 14) {
    case 0:
    case 1:
        put(s, "V[#V + 1] = W:spawn");
        options(s);
        break;
    case 2:
    case 3: {
        SteerBehaviour type = (SteerBehaviour)(fuzz_u8(&s->in) % STEER_BEHAVIOUR_COUNT);
        vehicle(s);
        put(s, ":%s(", steer_behaviour_name(type));
        if (type == STEER_FOLLOW || type == STEER_FOLLOW_FLOW)
            put(s, "S[%d], ", 1 + fuzz_u8(&s->in) % 6);
        else if (type == STEER_INTERPOSE) {
            target(s);
            put(s, ", ");
            target(s);
            put(s, ", ");
        } else if (type < STEER_WANDER || type == STEER_FOLLOW_LEADER) {
            target(s);
            put(s, ", ");
        }
        options(s);
        put(s, ")");
        break;
    }
    case 4:
        vehicle(s);
        put(s, ".%s = ", FIELDS[fuzz_u8(&s->in) % FIELD_COUNT]);
        if (fuzz_u8(&s->in) < 30)
            put(s, "'%s'", fuzz_u8(&s->in) & 1 ? "dither" : "priority");
        else
            value(s);
        break;
    case 5: {
        static const char *const SETTERS[] = {"set_position", "set_velocity", "set_heading"};
        vehicle(s);
        put(s, ":%s(", SETTERS[fuzz_u8(&s->in) % 3]);
        value(s);
        put(s, ", ");
        value(s);
        put(s, ")");
        break;
    }
    case 6:
        vehicle(s);
        if (fuzz_u8(&s->in) & 1)
            put(s, ":stop('%s')", steer_behaviour_name((SteerBehaviour)(fuzz_u8(&s->in) % STEER_BEHAVIOUR_COUNT)));
        else
            put(s, ":stop()");
        break;
    case 7:
        put(s, "W:remove(");
        if (fuzz_u8(&s->in) & 1)
            vehicle(s);
        else
            put(s, "S[%d]", 1 + fuzz_u8(&s->in) % 6);
        put(s, ")");
        break;
    case 8: {
        uint8_t b = fuzz_u8(&s->in) % 4;
        put(s, "S[#S + 1] = W:%s", b == 0 ? "obstacle" : b == 1 ? "wall" : b == 2 ? "flow_field" : "path");
        if (b == 3) {
            put(s, "{");
            int n = fuzz_u8(&s->in) % 4;
            for (int i = 0; i < n; i++) {
                put(s, "{");
                value(s);
                put(s, ", ");
                value(s);
                put(s, "}, ");
            }
            put(s, "loop = %s}", fuzz_u8(&s->in) & 1 ? "true" : "false");
        } else {
            options(s);
        }
        break;
    }
    case 9:
        switch (fuzz_u8(&s->in) % 4) {
        case 0:
            put(s, "local _ = W:closest(");
            target(s);
            put(s, ", ");
            value(s);
            put(s, ", ");
            value(s);
            put(s, ")");
            break;
        case 1:
            put(s, "local _ = W:neighbors(");
            vehicle(s);
            put(s, ", ");
            value(s);
            put(s, ")");
            break;
        case 2:
            put(s, "local _ = W:vehicles(");
            value(s);
            put(s, ")");
            break;
        default:
            put(s, "local _ = S[%d]:sample(", 1 + fuzz_u8(&s->in) % 6);
            value(s);
            put(s, ", ");
            value(s);
            put(s, ")");
            break;
        }
        break;
    case 10:
    case 11: put(s, "W:step(%d)", 1 + fuzz_u8(&s->in) % 3); break;
    case 12:
        switch (fuzz_u8(&s->in) % 7) {
        case 0:
            put(s, "local _ = tostring(");
            vehicle(s);
            put(s, ")");
            break;
        case 5: put(s, "collectgarbage()"); break;
        case 6:
            put(s, "local _ = W:count(), W:kinds(), W:obstacles(), W:walls(), W:random(");
            value(s);
            put(s, ")");
            break;
        case 1:
            vehicle(s);
            put(s, ":forces()");
            break;
        case 2:
            vehicle(s);
            put(s, ":behaviours()");
            break;
        case 3:
            put(s, "W.dt = ");
            value(s);
            break;
        default:
            put(s, "local _ = ");
            vehicle(s);
            put(s, ".speed + ");
            vehicle(s);
            put(s, ".heading");
            break;
        }
        break;
    default:
        /* brains: a function or a table, some that fail, then a think */
        vehicle(s);
        put(s, ".brain = %s; W:think()",
            fuzz_u8(&s->in) & 1 ? "function(v) v:wander{} end" : "{think = function(v) error('no') end}");
        break;
    }
}

/* ---- Running them ---------------------------------------------------------------------------- */

static void check_world(lua_State *L, const char *after)
{
    lua_getglobal(L, "W");
    SteerWorld *world = steer_lua_to_world(L, -1);
    lua_pop(L, 1);
    char why[256];
    if (world && !steer_world_check_state(world, why, sizeof why)) {
        fprintf(stderr, "state check failed after `%s`: %s\n", after, why);
        abort();
    }
}

static void run(lua_State *L, const char *chunk, size_t length)
{
    lua_sethook(L, budget_hook, LUA_MASKCOUNT, 2000000);
    if (luaL_loadbuffer(L, chunk, length, "=fuzz") == LUA_OK) lua_pcall(L, 0, 0, 0);
    lua_settop(L, 0);
    lua_sethook(L, NULL, 0, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Heap heap = {0};
    lua_State *L = lua_newstate(capped_alloc, &heap);
    if (!L) return 0;
    luaL_openlibs(L);
    luaL_requiref(L, "steer", luaopen_steer, 1);
    lua_pop(L, 1);

    Script s;
    memset(&s, 0, sizeof s);
    s.in = (FuzzBytes){data, size, 0};
    /* The world: hostile options too; a refused one leaves the default. */
    put(&s, "V, S = {}, {}; W = steer.world{edges = '%s', width = ",
        (const char *[]){"none", "wrap", "contain", "bogus"}[fuzz_u8(&s.in) % 4]);
    value(&s);
    put(&s, ", dt = ");
    value(&s);
    put(&s, "}");
    run(L, s.text, s.length);
    run(L, "if not W then W = steer.world{} end", 36);
    check_world(L, "world");

    for (int i = 0; i < MAX_STATEMENTS && !fuzz_done(&s.in); i++) {
        s.length = 0;
        s.text[0] = '\0';
        statement(&s);
        run(L, s.text, s.length);
        check_world(L, s.text);
    }
    run(L, "W:step()", 8);
    check_world(L, "the last step");
    lua_close(L);
    return 0;
}
