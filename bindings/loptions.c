/* SPDX-License-Identifier: MIT */
/* loptions.c - the one reader of option tables. It reads every behaviour's keys from the core's
 * behaviour table (and knows spawn's and world's), so unknown keys, did-you-mean suggestions, type
 * and range errors all come from here and read the same everywhere. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsteer_internal.h"

#define SPEC(key, type, field)                                                                                         \
    {                                                                                                                  \
        key, type, offsetof(SteerVehicleDef, field)                                                                    \
    }
#define LIST(what, specs)                                                                                              \
    {                                                                                                                  \
        what, specs, (int)(sizeof specs / sizeof specs[0]), NULL, NULL                                                 \
    }

/* ---- Behaviour options: the core's table (steer_behaviours.h), read through the same reader - */

static inline OptType option_type(const SteerOptionSpec *spec)
{
    switch (spec->kind) {
    case STEER_OPTION_NUMBER:
        /* The Lua check names the lower bound; the core then checks the upper limit. */
        if (spec->min == 0.0) return spec->max == 1.0 ? OPT_UNIT : OPT_NONNEG;
        if (spec->min == 1.0) return OPT_AT_LEAST_1;
        if (spec->min > 0.0) return OPT_POSITIVE;
        return OPT_NUMBER;
    case STEER_OPTION_PROPORTION: return OPT_UNIT;
    case STEER_OPTION_INTEGER: return OPT_INT;
    case STEER_OPTION_OFFSET:
    case STEER_OPTION_POINT: return OPT_VEC2;
    case STEER_OPTION_LEASH: return OPT_CUSTOM; /* by name: lbehaviours.c */
    }
    return OPT_CUSTOM;
}

OptType lsteer_option_type(const SteerOptionSpec *spec) { return option_type(spec); }

OptList lsteer_common_options(void)
{
    OptList list = {"behaviour", NULL, STEER_COMMON_OPTION_COUNT, steer_behaviour_common_options(), NULL};
    return list;
}

static const OptSpec SPAWN[] = {
    SPEC("x", OPT_NUMBER, position.x),
    SPEC("y", OPT_NUMBER, position.y),
    SPEC("vx", OPT_NUMBER, velocity.x),
    SPEC("vy", OPT_NUMBER, velocity.y),
    SPEC("heading", OPT_NUMBER, heading),
    {"kind", OPT_CUSTOM, 0},
    {"flock_with", OPT_CUSTOM, 0},
    {"color", OPT_CUSTOM, 0},
    {"combine", OPT_CUSTOM, 0},
    {"data", OPT_CUSTOM, 0},
    {"brain", OPT_CUSTOM, 0},
    {"state", OPT_CUSTOM, 0},
};
static const OptList SPAWN_LIST = LIST("spawn", SPAWN);

#undef SPEC
#define SPEC(key, type, field)                                                                                         \
    {                                                                                                                  \
        key, type, offsetof(SteerWorldDef, field)                                                                      \
    }
static const OptSpec WORLD[] = {
    {"edges", OPT_CUSTOM, 0},
    {"wrap", OPT_CUSTOM, 0},
    {"seed", OPT_CUSTOM, 0},
    {"think_hz", OPT_CUSTOM, 0},
};
static const OptList WORLD_LIST = LIST("world", WORLD);

/* The tunables: rows of the core's field tables (steer_fields.h), read after the lists above, so
 * that of several bad options the one reported is the one it always was. */
static const OptList VEHICLE_FIELD_LIST = {"spawn", NULL, STEER_VEHICLE_FIELD_COUNT, NULL, steer_vehicle_field_table};
static const OptList WORLD_FIELD_LIST = {"world", NULL, STEER_WORLD_FIELD_COUNT, NULL, steer_world_field_table};

const OptList *lsteer_spawn_options(void) { return &SPAWN_LIST; }
const OptList *lsteer_vehicle_field_options(void) { return &VEHICLE_FIELD_LIST; }
const OptList *lsteer_world_options(void) { return &WORLD_LIST; }
const OptList *lsteer_world_field_options(void) { return &WORLD_FIELD_LIST; }

OptType lsteer_field_type(const SteerFieldInfo *row)
{
    switch (row->check) {
    case STEER_FIELD_RANGE: return row->min > 0.0 ? OPT_POSITIVE : row->min == 0.0 ? OPT_NONNEG : OPT_NUMBER;
    case STEER_FIELD_ZERO_OR_RANGE: return OPT_NONNEG;
    case STEER_FIELD_ANGLE: return OPT_ANGLE;
    case STEER_FIELD_STEP: return OPT_POSITIVE;
    case STEER_FIELD_INTEGER: return OPT_INT;
    }
    return OPT_NUMBER;
}

/* ---- Values -------------------------------------------------------------------------------- */

void lsteer_push_number_text(lua_State *L, double x)
{
    if (isnan(x))
        lua_pushliteral(L, "nan");
    else if (isinf(x))
        lua_pushstring(L, x > 0 ? "inf" : "-inf");
    else {
        char buf[64];
        snprintf(buf, sizeof buf, "%.14g", x);
        lua_pushstring(L, buf);
    }
}

/// Pushes "<expected> expected, got <what was there>" and returns it.
static const char *expected(lua_State *L, int idx, const char *what)
{
    if (lua_type(L, idx) == LUA_TNUMBER) {
        lsteer_push_number_text(L, lua_tonumber(L, idx));
        const char *got = lua_tostring(L, -1);
        lua_pushfstring(L, "%s expected, got %s", what, got);
        lua_remove(L, -2);
    } else {
        lua_pushfstring(L, "%s expected, got %s", what, luaL_typename(L, idx));
    }
    return lua_tostring(L, -1);
}

/// What a number option of `type` refuses (NULL: nothing), as in "<this> expected, got ...".
static const char *number_refusal(OptType type, double x)
{
    if (!isfinite(x)) return "finite number";
    switch (type) {
    case OPT_NONNEG: return x >= 0.0 ? NULL : "number >= 0";
    case OPT_POSITIVE: return x > 0.0 ? NULL : "number > 0";
    case OPT_UNIT: return x >= 0.0 && x <= 1.0 ? NULL : "number in [0, 1]";
    case OPT_AT_LEAST_1: return x >= 1.0 ? NULL : "number >= 1";
    case OPT_ANGLE: return x > 0.0 && x <= 2.0 * STEER_PI + 1e-9 ? NULL : "angle in (0, 2*pi]";
    default: return NULL;
    }
}

bool lsteer_number_ok(OptType type, double x)
{
    bool number_type = type == OPT_NUMBER || type == OPT_NONNEG || type == OPT_POSITIVE || type == OPT_UNIT ||
                       type == OPT_AT_LEAST_1 || type == OPT_ANGLE;
    return number_type && number_refusal(type, x) == NULL;
}

static const char *check_number(lua_State *L, int idx, OptType type, double *out)
{
    if (lua_type(L, idx) != LUA_TNUMBER) return expected(L, idx, "number");
    double x = lua_tonumber(L, idx);
    const char *refused = number_refusal(type, x);
    if (refused) return expected(L, idx, refused);
    *out = x;
    return NULL;
}

const char *lsteer_check_value(lua_State *L, int idx, OptType type, void *out)
{
    idx = lua_absindex(L, idx);
    switch (type) {
    case OPT_INT: {
        if (lua_type(L, idx) != LUA_TNUMBER) return expected(L, idx, "integer");
        int ok = 0;
        lua_Integer i = lua_tointegerx(L, idx, &ok);
        if (!ok || i < -1000000000 || i > 1000000000) return expected(L, idx, "integer");
        *(int *)out = (int)i;
        return NULL;
    }
    case OPT_BOOL:
        if (!lua_isboolean(L, idx)) return expected(L, idx, "boolean");
        *(bool *)out = lua_toboolean(L, idx);
        return NULL;
    case OPT_VEC2: {
        if (!lua_istable(L, idx)) return expected(L, idx, "{x, y}");
        double xy[2];
        for (int i = 0; i < 2; i++) {
            lua_rawgeti(L, idx, i + 1);
            bool good = lua_type(L, -1) == LUA_TNUMBER && isfinite(lua_tonumber(L, -1));
            xy[i] = lua_tonumber(L, -1);
            lua_pop(L, 1);
            if (!good) {
                lua_pushliteral(L, "{x, y} of two finite numbers expected");
                return lua_tostring(L, -1);
            }
        }
        *(SteerVec2 *)out = steer_vec2(xy[0], xy[1]);
        return NULL;
    }
    case OPT_CUSTOM: return NULL;
    default: return check_number(L, idx, type, (double *)out);
    }
}

int lsteer_option_error(lua_State *L, int idx, const char *key, const char *msg)
{
    return luaL_argerror(L, idx, lua_pushfstring(L, "option '%s': %s", key, msg));
}

double lsteer_check_finite(lua_State *L, int arg)
{
    double x = 0.0;
    const char *msg = check_number(L, arg, OPT_NUMBER, &x);
    if (msg) luaL_argerror(L, arg, msg);
    return x;
}

double lsteer_check_coordinate(lua_State *L, int arg)
{
    double x = lsteer_check_finite(L, arg);
    if (fabs(x) > STEER_MAX_COORDINATE) {
        char text[80];
        snprintf(text, sizeof text, "coordinate within ±%g expected, got %g", STEER_MAX_COORDINATE, x);
        luaL_argerror(L, arg, lua_pushstring(L, text));
    }
    return x;
}

/* ---- Did you mean? ------------------------------------------------------------------------- */

/// US spelling of a word, for comparing: "colour" -> "color", "behaviours" -> "behaviors".
static void us_spelling(const char *in, char *out, size_t size)
{
    size_t n = 0;
    for (size_t i = 0; in[i] && n + 1 < size; i++) {
        /* "our" -> "or" (colour, neighbour, behaviour); "ise" -> "ize" */
        if (i > 0 && in[i] == 'o' && in[i + 1] == 'u' && in[i + 2] == 'r') {
            out[n++] = 'o';
            i++;
            continue;
        }
        if (i > 0 && in[i] == 'i' && in[i + 1] == 's' && in[i + 2] == 'e') {
            if (n + 3 < size) {
                out[n++] = 'i';
                out[n++] = 'z';
                out[n++] = 'e';
            }
            i += 2;
            continue;
        }
        out[n++] = in[i];
    }
    out[n] = '\0';
}

/// Edit distance with adjacent transpositions (raduis -> radius is one edit).
static int edit_distance(const char *a, const char *b)
{
    enum { MAX = 48 };
    size_t la = strlen(a), lb = strlen(b);
    if (la >= MAX || lb >= MAX) return 99;
    int d[MAX][MAX];
    for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        for (size_t j = 1; j <= lb; j++) {
            int cost = a[i - 1] != b[j - 1];
            int best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < best) best = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    }
    return d[la][lb];
}

const char *lsteer_suggest(const char *word, const char *const *candidates, int count)
{
    char us_word[64], us_candidate[64];
    us_spelling(word, us_word, sizeof us_word);
    const char *best = NULL;
    int best_distance = 99;
    for (int i = 0; i < count; i++) {
        us_spelling(candidates[i], us_candidate, sizeof us_candidate);
        if (strcmp(us_word, us_candidate) == 0) return candidates[i];
        int d = edit_distance(word, candidates[i]);
        if (d < best_distance) {
            best_distance = d;
            best = candidates[i];
        }
    }
    /* Close enough to be a typo, and not most of the word. */
    size_t len = strlen(word);
    int limit = len <= 3 ? 1 : 2;
    return best_distance <= limit ? best : NULL;
}

const char *steer_lua_suggest(const char *word, const char *const *candidates, int count)
{
    return lsteer_suggest(word, candidates, count);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int lsteer_unknown_error(lua_State *L, const char *what, const char *word, const char *context,
                         const char *const *unsorted, int count)
{
    /* Sorted, so that neither the hint nor the list depends on a table's traversal order. */
    const char *candidates[128];
    if (count > 128) count = 128;
    memcpy(candidates, unsorted, (size_t)count * sizeof *candidates);
    qsort(candidates, (size_t)count, sizeof *candidates, compare_names);
    const char *hint = lsteer_suggest(word, candidates, count);
    if (hint) return luaL_error(L, "unknown %s '%s'%s (did you mean '%s'?)", what, word, context, hint);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 0; i < count; i++) {
        if (i) luaL_addstring(&b, ", ");
        luaL_addstring(&b, candidates[i]);
    }
    luaL_pushresult(&b);
    if (count == 0) return luaL_error(L, "unknown %s '%s'%s (it takes none)", what, word, context);
    return luaL_error(L, "unknown %s '%s'%s (known: %s)", what, word, context, lua_tostring(L, -1));
}

/* ---- The reader ---------------------------------------------------------------------------- */

/// Spec i of a list as the reader sees it; false when it is no option of Lua (a core-only one).
static bool spec_at(const OptList *list, int i, OptSpec *out)
{
    if (list->fields) {
        out->key = list->fields[i].name;
        out->type = lsteer_field_type(&list->fields[i]);
        out->offset = list->fields[i].def_offset;
        return true;
    }
    if (!list->core) {
        *out = list->specs[i];
        return true;
    }
    const SteerOptionSpec *spec = &list->core[i];
    out->key = spec->key;
    out->type = option_type(spec);
    out->offset = spec->offset;
    return !spec->core_only;
}

typedef struct Pending {
    OptSpec spec;
    void *base;
    union {
        double d;
        int i;
        bool b;
        SteerVec2 v;
    } value;
} Pending;

static bool find_spec(const OptList *list, const char *key, int *index, OptSpec *out)
{
    /* Compared by key first: the spec is converted only once it matches (every option of every
     * behaviour call comes through here), and by first letter before strcmp, which most keys of a
     * list fail. */
    for (int i = 0; i < list->count; i++) {
        const char *candidate = list->fields ? list->fields[i].name
                                : list->core ? list->core[i].key
                                             : list->specs[i].key;
        if (candidate[0] == key[0] && strcmp(candidate, key) == 0 && spec_at(list, i, out)) {
            *index = i;
            return true;
        }
    }
    return false;
}

static void unknown_key(lua_State *L, const OptList *a, const OptList *b, const char *key)
{
    const char *names[64];
    int n = 0;
    OptSpec spec;
    for (int i = 0; i < a->count && n < 64; i++)
        if (spec_at(a, i, &spec)) names[n++] = spec.key;
    for (int i = 0; b && i < b->count && n < 64; i++)
        if (spec_at(b, i, &spec)) names[n++] = spec.key;
    lua_pushfstring(L, " for %s", a->what);
    lsteer_unknown_error(L, "option", key, lua_tostring(L, -1), names, n);
}

uint64_t lsteer_read_options2(lua_State *L, int idx, const OptList *a, void *base_a, const OptList *b, void *base_b)
{
    if (lua_isnoneornil(L, idx)) return 0;
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx)) luaL_typeerror(L, idx, "table of options");

    /* One pass over the table checks and stages every value. Of several problems it reports
     * the smallest unknown key first, else the first bad option in the lists' order, so that a
     * message never depends on the table's traversal order. */
    Pending pending[64];
    int n = 0;
    uint64_t mask = 0;
    const char *unknown = NULL;
    int first_bad = 64; /* list * 32 + index of the first bad option */
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (lua_type(L, -2) != LUA_TSTRING) {
            lua_pushfstring(L, "option names must be strings, got %s", luaL_typename(L, -2));
            luaL_argerror(L, idx, lua_tostring(L, -1));
        }
        const char *key = lua_tostring(L, -2);
        int i, list = 0;
        OptSpec spec;
        bool known = find_spec(a, key, &i, &spec);
        if (!known && b && (known = find_spec(b, key, &i, &spec))) list = 1;
        if (!known) {
            if (!unknown || strcmp(key, unknown) < 0) unknown = key; /* alive: a key of the table */
        } else if (n < 64) {
            Pending *p = &pending[n];
            p->spec = spec;
            p->base = list ? base_b : base_a;
            if (lsteer_check_value(L, -1, spec.type, &p->value)) {
                lua_pop(L, 1); /* the message: made again below if this one is reported */
                if (list * 32 + i < first_bad) first_bad = list * 32 + i;
            } else {
                n++;
                mask |= 1ULL << (i + 32 * list);
            }
        }
        lua_pop(L, 1);
    }
    if (unknown) unknown_key(L, a, b, unknown);
    if (first_bad < 64) {
        OptSpec spec;
        if (first_bad >= 32)
            spec_at(b, first_bad - 32, &spec);
        else
            spec_at(a, first_bad, &spec);
        Pending scratch;
        lsteer_rawfield(L, idx, spec.key);
        lsteer_option_error(L, idx, spec.key, lsteer_check_value(L, -1, spec.type, &scratch.value));
    }
    for (int i = 0; i < n; i++) {
        char *at = (char *)pending[i].base + pending[i].spec.offset;
        switch (pending[i].spec.type) {
        case OPT_INT: memcpy(at, &pending[i].value.i, sizeof(int)); break;
        case OPT_BOOL: memcpy(at, &pending[i].value.b, sizeof(bool)); break;
        case OPT_VEC2: memcpy(at, &pending[i].value.v, sizeof(SteerVec2)); break;
        case OPT_CUSTOM: break;
        default: memcpy(at, &pending[i].value.d, sizeof(double)); break;
        }
    }
    return mask;
}

uint64_t lsteer_read_options(lua_State *L, int idx, const OptList *list, void *base)
{
    return lsteer_read_options2(L, idx, list, base, NULL, NULL);
}

/* ---- Back to Lua --------------------------------------------------------------------------- */

static void push_spec_value(lua_State *L, const OptSpec *spec, const void *base)
{
    const char *at = (const char *)base + spec->offset;
    switch (spec->type) {
    case OPT_INT: {
        int i;
        memcpy(&i, at, sizeof i);
        lua_pushinteger(L, i);
        break;
    }
    case OPT_BOOL: {
        bool b;
        memcpy(&b, at, sizeof b);
        lua_pushboolean(L, b);
        break;
    }
    case OPT_VEC2: {
        SteerVec2 v;
        memcpy(&v, at, sizeof v);
        lua_createtable(L, 2, 0);
        lua_pushnumber(L, v.x);
        lua_rawseti(L, -2, 1);
        lua_pushnumber(L, v.y);
        lua_rawseti(L, -2, 2);
        break;
    }
    case OPT_CUSTOM: lua_pushnil(L); break;
    default: {
        double d;
        memcpy(&d, at, sizeof d);
        lua_pushnumber(L, d);
        break;
    }
    }
}

void lsteer_push_behaviour_params(lua_State *L, const SteerBehaviourDef *def)
{
    const SteerBehaviourInfo *info = steer_behaviour_info(def->type);
    lua_createtable(L, 0, info->option_count + STEER_COMMON_OPTION_COUNT);
    for (int list = 0; list < 2; list++) {
        const SteerOptionSpec *specs = list ? steer_behaviour_common_options() : info->options;
        int count = list ? STEER_COMMON_OPTION_COUNT : info->option_count;
        for (int i = 0; i < count; i++) {
            const SteerOptionSpec *spec = &specs[i];
            if (spec->core_only) continue;
            if (spec->given_offset) {
                bool given;
                memcpy(&given, (const char *)def + spec->given_offset, sizeof given);
                if (!given) continue; /* wander's anchor: the spawn point, shown as no anchor */
            }
            if (spec->kind == STEER_OPTION_LEASH) {
                SteerLeash leash;
                memcpy(&leash, (const char *)def + spec->offset, sizeof leash);
                lua_pushstring(L, LSTEER_LEASH_NAMES.names[leash]);
            } else {
                OptSpec as_lua = {spec->key, lsteer_option_type(spec), spec->offset};
                push_spec_value(L, &as_lua, def);
            }
            lua_setfield(L, -2, spec->key);
        }
    }
}
