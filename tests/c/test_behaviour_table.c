/* SPDX-License-Identifier: MIT */
/* test_behaviour_table.c - the behaviour table (steer_behaviours.h) row by row: every row complete
 * and consistent with itself, with the core's defaults and checks, with the Lua module (every
 * option reachable under its name, read back by v:behaviours()), and with what documents it
 * (docs/lua-api.md's table and the lua-language-server types in types/steer.lua). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include "lua_support.h"
#include "behaviour_row.h"

/* ---- Helpers ------------------------------------------------------------------------------- */

static const SteerBehaviourInfo *row(int type) { return steer_behaviour_info((SteerBehaviour)type); }

static double number_at(const SteerBehaviourDef *def, size_t offset)
{
    double x;
    memcpy(&x, (const char *)def + offset, sizeof x);
    return x;
}

static size_t option_size(const SteerOptionSpec *spec)
{
    switch (spec->kind) {
    case STEER_OPTION_NUMBER:
    case STEER_OPTION_PROPORTION: return sizeof(double);
    case STEER_OPTION_INTEGER: return sizeof(int);
    case STEER_OPTION_OFFSET:
    case STEER_OPTION_POINT: return sizeof(SteerVec2);
    case STEER_OPTION_LEASH: return sizeof(SteerLeash);
    }
    return 0;
}

static size_t target_size(const SteerTargetSpec *spec)
{
    switch (spec->arg) {
    case STEER_ARG_POINT_OR_VEHICLE:
    case STEER_ARG_VEHICLE: return sizeof(SteerTarget);
    case STEER_ARG_PATH: return sizeof(SteerPathId);
    case STEER_ARG_FLOW_FIELD: return sizeof(SteerFlowFieldId);
    }
    return 0;
}

/// Does [offset, offset + size) of one field overlap another's?
static bool overlap(size_t a, size_t a_size, size_t b, size_t b_size) { return a < b + b_size && b < a + a_size; }

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s (tests run from the repository's root)", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    return text;
}

/* ---- The rows on their own ----------------------------------------------------------------- */

static void test_every_row_is_complete_and_its_name_unique(void **state)
{
    (void)state;
    for (int t = 0; t < STEER_BEHAVIOUR_COUNT; t++) {
        const SteerBehaviourInfo *info = row(t);
        assert_non_null(info->name);
        assert_true(strlen(info->name) > 0 && strlen(info->name) < 28); /* fits the checker's prefix */
        for (const char *c = info->name; *c; c++)
            if (!((*c >= 'a' && *c <= 'z') || *c == '_')) fail_msg("%s: not snake_case", info->name);
        for (int u = 0; u < t; u++)
            if (strcmp(row(u)->name, info->name) == 0) fail_msg("two rows named %s", info->name);
        SteerBehaviour back;
        assert_true(steer_behaviour_from_name(info->name, &back));
        assert_int_equal(back, t);
        assert_string_equal(steer_behaviour_name((SteerBehaviour)t), info->name);

        const SteerBehaviourRow *core = &steer_behaviour_rows[t];
        assert_ptr_equal(&core->info, info); /* steer_behaviour_info() is the public part of the core's row */
        if (!core->force) fail_msg("%s has no force function", info->name);
        assert_true(info->probability >= 0.0 && info->probability <= 1.0);
        for (int u = 0; u < t; u++)
            if (row(u)->priority == info->priority) fail_msg("%s and %s share a priority", row(u)->name, info->name);
        /* a debug drawing runs under some overlay, and an overlay flag has a drawing to run */
        assert_int_equal(core->debug_draw != NULL, core->debug_flags != 0);
        assert_true(info->option_count >= 0 && info->option_count <= 32); /* the Lua reader's mask */
        assert_true(info->option_count == 0 || info->options != NULL);
        assert_true(info->target_count >= 0 && info->target_count <= STEER_MAX_TARGETS);
    }
    assert_null(steer_behaviour_info(STEER_BEHAVIOUR_COUNT));
    assert_null(steer_behaviour_info((SteerBehaviour)-1));
}

static void test_every_option_and_target_lies_in_the_behaviours_own_params(void **state)
{
    (void)state;
    const size_t params = offsetof(SteerBehaviourDef, seek); /* the union of the parameters */
    for (int t = 0; t < STEER_BEHAVIOUR_COUNT; t++) {
        const SteerBehaviourInfo *info = row(t);
        for (int i = 0; i < info->option_count; i++) {
            const SteerOptionSpec *o = &info->options[i];
            assert_non_null(o->key);
            if (o->offset < params || o->offset + option_size(o) > sizeof(SteerBehaviourDef))
                fail_msg("%s.%s lies outside the parameters", info->name, o->key);
            if (o->given_offset && o->given_offset < params)
                fail_msg("%s.%s: flag outside the parameters", info->name, o->key);
            /* the keys a Lua table may hold: none twice, none a common option's or a target's */
            for (int j = 0; j < i; j++) {
                const SteerOptionSpec *p = &info->options[j];
                if (!o->core_only && !p->core_only && strcmp(p->key, o->key) == 0)
                    fail_msg("%s: two options %s", info->name, o->key);
                if (overlap(o->offset, option_size(o), p->offset, option_size(p)))
                    fail_msg("%s: options %s and %s overlap", info->name, p->key, o->key);
            }
            for (int j = 0; j < STEER_COMMON_OPTION_COUNT; j++)
                if (strcmp(steer_behaviour_common_options()[j].key, o->key) == 0)
                    fail_msg("%s: %s is a common option", info->name, o->key);
            for (int j = 0; j < info->target_count; j++) {
                const SteerTargetSpec *g = &info->targets[j];
                if (strcmp(g->name, o->key) == 0) fail_msg("%s: %s is both a target and an option", info->name, o->key);
                if (overlap(o->offset, option_size(o), g->offset, target_size(g)))
                    fail_msg("%s: option %s overlaps target %s", info->name, o->key, g->name);
            }
        }
        for (int j = 0; j < info->target_count; j++) {
            const SteerTargetSpec *g = &info->targets[j];
            assert_non_null(g->name);
            if (g->offset < params || g->offset + target_size(g) > sizeof(SteerBehaviourDef))
                fail_msg("%s.%s lies outside the parameters", info->name, g->name);
            for (int k = 0; k < j; k++)
                if (strcmp(info->targets[k].name, g->name) == 0) fail_msg("%s: two targets %s", info->name, g->name);
        }
        size_t wander_offset = steer_behaviour_rows[t].wander_offset;
        if (wander_offset) {
            /* its wander circle's radius is one of its options */
            bool found = false;
            for (int i = 0; i < info->option_count; i++)
                found |= info->options[i].offset == wander_offset + offsetof(SteerWanderParams, radius);
            if (!found) fail_msg("%s: wander_offset names no wander parameters of its options", info->name);
        }
    }
}

/// The defaults lie in their ranges, and steer_default_behaviour_def gives exactly them.
static void test_defaults_come_from_the_table_and_lie_in_their_ranges(void **state)
{
    (void)state;
    for (int t = 0; t < STEER_BEHAVIOUR_COUNT; t++) {
        const SteerBehaviourInfo *info = row(t);
        SteerBehaviourDef def = steer_default_behaviour_def((SteerBehaviour)t);
        assert_int_equal(def.type, t);
        assert_int_equal(def.priority, info->priority);
        assert_true(def.probability == info->probability);
        assert_true(def.weight == steer_behaviour_common_options()[0].fallback);
        for (int i = 0; i < info->option_count; i++) {
            const SteerOptionSpec *o = &info->options[i];
            if (!(o->min <= o->max)) fail_msg("%s.%s: empty range", info->name, o->key);
            switch (o->kind) {
            case STEER_OPTION_NUMBER:
            case STEER_OPTION_PROPORTION:
                if (!(o->fallback >= o->min && o->fallback <= o->max))
                    fail_msg("%s.%s: default %g outside [%g, %g]", info->name, o->key, o->fallback, o->min, o->max);
                if (o->kind == STEER_OPTION_PROPORTION) assert_true(o->min == 0.0 && o->max == 1.0);
                if (number_at(&def, o->offset) != o->fallback)
                    fail_msg("%s.%s: default def holds %g, the table %g", info->name, o->key,
                             number_at(&def, o->offset), o->fallback);
                break;
            case STEER_OPTION_LEASH: {
                SteerLeash leash;
                memcpy(&leash, (const char *)&def + o->offset, sizeof leash);
                assert_int_equal((int)leash, (int)o->fallback);
                break;
            }
            case STEER_OPTION_OFFSET:
            case STEER_OPTION_POINT: {
                SteerVec2 v;
                memcpy(&v, (const char *)&def + o->offset, sizeof v);
                assert_true(v.x == 0.0 && v.y == 0.0);
                break;
            }
            case STEER_OPTION_INTEGER: break;
            }
        }
    }
}

/* ---- The core checks what the table says --------------------------------------------------- */

typedef struct Scene {
    SteerWorld *world;
    SteerVehicleId self, other;
    SteerPathId path;
    SteerFlowFieldId field;
} Scene;

static Scene scene(void)
{
    Scene s;
    SteerWorldDef wd = steer_default_world_def();
    s.world = steer_world_create(&wd);
    assert_non_null(s.world);
    SteerVehicleDef vd = steer_default_vehicle_def();
    assert_int_equal(steer_vehicle_create(s.world, &vd, &s.self), STEER_OK);
    vd.position = steer_vec2(50.0, 50.0);
    assert_int_equal(steer_vehicle_create(s.world, &vd, &s.other), STEER_OK);
    SteerVec2 points[2] = {{0.0, 0.0}, {100.0, 0.0}};
    assert_int_equal(steer_world_add_path(s.world, points, 2, false, &s.path), STEER_OK);
    SteerFlowFieldDef fd = {{0.0, 0.0}, 50.0, 2, 2, NULL};
    assert_int_equal(steer_world_add_flow_field(s.world, &fd, &s.field), STEER_OK);
    return s;
}

/// The row's defaults with its targets filled in: a definition the core takes.
static SteerBehaviourDef complete_def(const Scene *s, int t)
{
    const SteerBehaviourInfo *info = row(t);
    SteerBehaviourDef def = steer_default_behaviour_def((SteerBehaviour)t);
    for (int j = 0; j < info->target_count; j++) {
        char *at = (char *)&def + info->targets[j].offset;
        switch (info->targets[j].arg) {
        case STEER_ARG_POINT_OR_VEHICLE:
        case STEER_ARG_VEHICLE: {
            SteerTarget target = steer_target_vehicle(s->other);
            memcpy(at, &target, sizeof target);
            break;
        }
        case STEER_ARG_PATH: memcpy(at, &s->path, sizeof s->path); break;
        case STEER_ARG_FLOW_FIELD: memcpy(at, &s->field, sizeof s->field); break;
        }
    }
    return def;
}

static void test_the_core_takes_the_defaults_and_refuses_each_number_past_its_range(void **state)
{
    (void)state;
    Scene s = scene();
    char expected[160];
    for (int t = 0; t < STEER_BEHAVIOUR_COUNT; t++) {
        const SteerBehaviourInfo *info = row(t);
        SteerBehaviourDef def = complete_def(&s, t);
        if (steer_vehicle_set_behaviour(s.world, s.self, &def) != STEER_OK)
            fail_msg("%s refuses its defaults: %s", info->name, steer_world_last_error(s.world));
        for (int i = 0; i < info->option_count; i++) {
            const SteerOptionSpec *o = &info->options[i];
            if (o->kind != STEER_OPTION_NUMBER && o->kind != STEER_OPTION_PROPORTION) continue;
            const char *name = o->label ? o->label : o->key;
            double outside[2] = {o->min > 0.0 ? o->min / 2.0 : o->min - 1.0,
                                 o->max > 1.0 ? o->max * 2.0 : o->max + 1.0};
            for (int k = 0; k < 2; k++) {
                SteerBehaviourDef bad = def;
                memcpy((char *)&bad + o->offset, &outside[k], sizeof(double));
                if (steer_vehicle_set_behaviour(s.world, s.self, &bad) == STEER_OK)
                    fail_msg("%s.%s = %g was taken", info->name, o->key, outside[k]);
                snprintf(expected, sizeof expected, "%s: %s must be", info->name, name);
                if (!strstr(steer_world_last_error(s.world), expected))
                    fail_msg("%s.%s: '%s' does not say '%s'", info->name, o->key, steer_world_last_error(s.world),
                             expected);
            }
        }
        assert_int_equal(steer_vehicle_clear_behaviours(s.world, s.self), STEER_OK);
    }
    steer_world_destroy(s.world);
}

/* ---- Lua: every option reachable under its name -------------------------------------------- */

/// A value of the option inside its range and unlike its default, as Lua source.
static void lua_value(const SteerOptionSpec *o, char *out, size_t size, double *number)
{
    static const double candidates[] = {0.25, 0.5, 2.0, 7.25, 1.0};
    switch (o->kind) {
    case STEER_OPTION_LEASH: snprintf(out, size, "'pull'"); return;
    case STEER_OPTION_OFFSET:
    case STEER_OPTION_POINT: snprintf(out, size, "{3, 4}"); return;
    default: break;
    }
    for (size_t k = 0; k < sizeof candidates / sizeof candidates[0]; k++) {
        double x = candidates[k];
        if (x >= o->min && x <= o->max && x != o->fallback) {
            *number = x;
            snprintf(out, size, "%.17g", x);
            return;
        }
    }
    fail_msg("no test value for option %s", o->key);
}

static void test_every_option_is_reachable_from_lua_under_its_name(void **state)
{
    (void)state;
    lua_State *L = open_state();
    run(L, "W = steer.world{width = 400, height = 400}\n"
           "V = W:spawn{x = 10, y = 10} O = W:spawn{x = 200, y = 200}\n"
           "P = W:path{{0, 0}, {100, 0}} F = W:flow_field{x = 0, y = 0, cell_size = 50, cols = 2, rows = 2}");
    lua_getglobal(L, "W");
    SteerWorld *world = steer_lua_to_world(L, -1);
    lua_getglobal(L, "V");
    SteerVehicleId self;
    assert_true(steer_lua_to_vehicle(L, -1, &self));
    lua_pop(L, 2);

    char code[512], value[64], targets[32];
    for (int t = 0; t < STEER_BEHAVIOUR_COUNT; t++) {
        const SteerBehaviourInfo *info = row(t);
        targets[0] = '\0';
        for (int j = 0; j < info->target_count; j++) {
            const char *arg = info->targets[j].arg == STEER_ARG_PATH         ? "P, "
                              : info->targets[j].arg == STEER_ARG_FLOW_FIELD ? "F, "
                                                                             : "O, ";
            strcat(targets, arg);
        }
        for (int list = 0; list < 2; list++) {
            const SteerOptionSpec *specs = list ? steer_behaviour_common_options() : info->options;
            int count = list ? STEER_COMMON_OPTION_COUNT : info->option_count;
            for (int i = 0; i < count; i++) {
                const SteerOptionSpec *o = &specs[i];
                if (o->core_only) continue;
                double number = 0.0;
                lua_value(o, value, sizeof value, &number);
                if (o->kind == STEER_OPTION_INTEGER) {
                    snprintf(value, sizeof value, "7");
                    number = 7.0;
                }
                /* set it by its key; v:behaviours() shows it under the same key */
                snprintf(code, sizeof code,
                         "V:stop() V:%s(%s{%s = %s})\n"
                         "local shown = V:behaviours().%s.%s\n"
                         "local want = %s\n"
                         "if type(want) == 'table' then assert(shown[1] == want[1] and shown[2] == want[2], 'shown')\n"
                         "else assert(shown == want, 'shown ' .. tostring(shown)) end",
                         info->name, targets, o->key, value, info->name, o->key, value);
                run(L, code);
                /* and the core holds it where the table says */
                SteerBehaviourDef def;
                assert_int_equal(steer_vehicle_get_behaviour(world, self, (SteerBehaviour)t, &def, NULL), STEER_OK);
                const char *at = (const char *)&def + o->offset;
                switch (o->kind) {
                case STEER_OPTION_NUMBER:
                case STEER_OPTION_PROPORTION:
                    if (number_at(&def, o->offset) != number) fail_msg("%s.%s not stored", info->name, o->key);
                    break;
                case STEER_OPTION_INTEGER: {
                    int i7;
                    memcpy(&i7, at, sizeof i7);
                    assert_int_equal(i7, 7);
                    break;
                }
                case STEER_OPTION_LEASH: {
                    SteerLeash leash;
                    memcpy(&leash, at, sizeof leash);
                    assert_int_equal(leash, STEER_LEASH_PULL);
                    break;
                }
                case STEER_OPTION_OFFSET:
                case STEER_OPTION_POINT: {
                    SteerVec2 v;
                    memcpy(&v, at, sizeof v);
                    assert_true(v.x == 3.0 && v.y == 4.0);
                    break;
                }
                }
                if (o->given_offset) {
                    bool given;
                    memcpy(&given, (const char *)&def + o->given_offset, sizeof given);
                    if (!given) fail_msg("%s.%s given from Lua did not set its flag", info->name, o->key);
                }
            }
        }
        /* the targets come back under their names */
        for (int j = 0; j < info->target_count; j++) {
            snprintf(code, sizeof code, "V:stop() V:%s(%s{}) assert(V:behaviours().%s.%s ~= nil, 'target')", info->name,
                     targets, info->name, info->targets[j].name);
            run(L, code);
        }
    }
    lua_close(L);
}

/* ---- What documents it --------------------------------------------------------------------- */

/// docs/lua-api.md's behaviour table: the row of `v:<name>` names every option in backquotes.
static void test_docs_table_names_every_option(void **state)
{
    (void)state;
    char *docs = read_text("docs/lua-api.md");
    char call[64], key[64], key_eq[64];
    for (int t = 0; t < STEER_BEHAVIOUR_COUNT; t++) {
        const SteerBehaviourInfo *info = row(t);
        char *line = NULL;
        const char *forms[2] = {"(", "{"};
        for (int f = 0; f < 2 && !line; f++) {
            snprintf(call, sizeof call, "| `v:%s%s", info->name, forms[f]);
            line = strstr(docs, call);
            if (!line) {
                snprintf(call, sizeof call, ", `v:%s%s", info->name, forms[f]); /* `v:align{}`, `v:cohere{}` */
                line = strstr(docs, call);
            }
        }
        if (!line) fail_msg("docs/lua-api.md has no row for v:%s", info->name);
        char *end = strchr(line + 1, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        char *text = malloc(n + 1);
        memcpy(text, line, n);
        text[n] = '\0';
        for (int i = 0; i < info->option_count; i++) {
            const SteerOptionSpec *o = &info->options[i];
            if (o->core_only) continue;
            snprintf(key, sizeof key, "`%s`", o->key);
            snprintf(key_eq, sizeof key_eq, "`%s =", o->key);
            if (!strstr(text, key) && !strstr(text, key_eq))
                fail_msg("docs/lua-api.md: v:%s's row lacks `%s`", info->name, o->key);
        }
        free(text);
    }
    free(docs);
}

/// "follow_leader" -> "FollowLeader"
static void pascal_case(const char *name, char *out, size_t size)
{
    size_t n = 0;
    bool upper = true;
    for (const char *c = name; *c && n + 1 < size; c++) {
        if (*c == '_') {
            upper = true;
            continue;
        }
        out[n++] = upper ? (char)(*c - 'a' + 'A') : *c;
        upper = false;
    }
    out[n] = '\0';
}

/// types/steer.lua: each behaviour with options has a steer.<Name>Options class whose fields are
/// exactly its Lua options, with the table's default where a field gives one; steer.BehaviourOptions
/// holds the common options; every behaviour has its method.
static void test_lua_types_match_the_table(void **state)
{
    (void)state;
    char *types = read_text("types/steer.lua");
    char header[160], name[64], method[96];
    for (int t = 0; t <= STEER_BEHAVIOUR_COUNT; t++) {
        bool common = t == STEER_BEHAVIOUR_COUNT;
        const SteerBehaviourInfo *info = common ? NULL : row(t);
        const SteerOptionSpec *specs = common ? steer_behaviour_common_options() : info->options;
        int count = common ? STEER_COMMON_OPTION_COUNT : info->option_count;
        int lua_count = 0;
        for (int i = 0; i < count; i++) lua_count += !specs[i].core_only;
        if (!common) {
            snprintf(method, sizeof method, "function Vehicle:%s(", info->name);
            if (!strstr(types, method)) fail_msg("types/steer.lua lacks %s", method);
            /* and steer.BehaviourName, the names v:stop takes, lists it */
            const char *alias = strstr(types, "---@alias steer.BehaviourName ");
            assert_non_null(alias);
            snprintf(method, sizeof method, "\"%s\"", info->name);
            const char *found = strstr(alias, method);
            if (!found || found > strchr(alias, '\n')) fail_msg("steer.BehaviourName lacks %s", method);
            if (lua_count == 0) continue;
            pascal_case(info->name, name, sizeof name);
            snprintf(header, sizeof header, "---@class steer.%sOptions: steer.BehaviourOptions\n", name);
        } else {
            snprintf(header, sizeof header, "---@class steer.BehaviourOptions\n");
        }
        char *at = strstr(types, header);
        if (!at) fail_msg("types/steer.lua lacks %s", header);
        at += strlen(header);
        int fields = 0;
        while (strncmp(at, "---@field ", 10) == 0) {
            char field[64];
            assert_int_equal(sscanf(at + 10, "%63s", field), 1);
            const SteerOptionSpec *o = NULL;
            for (int i = 0; i < count; i++)
                if (!specs[i].core_only && strcmp(specs[i].key, field) == 0) o = &specs[i];
            if (!o) fail_msg("types/steer.lua: %s has a field %s the table does not", header, field);
            char *eol = strchr(at, '\n');
            const char *d = strstr(at, "(default ");
            if (d && d < eol && (o->kind == STEER_OPTION_NUMBER || o->kind == STEER_OPTION_PROPORTION)) {
                double documented = strtod(d + 9, NULL);
                if (documented != o->fallback)
                    fail_msg("types/steer.lua: %s%s defaults to %g, the table to %g", header, field, documented,
                             o->fallback);
            }
            fields++;
            at = eol + 1;
        }
        if (fields != lua_count)
            fail_msg("types/steer.lua: %s has %d fields, the table %d options", header, fields, lua_count);
    }
    free(types);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_row_is_complete_and_its_name_unique),
        cmocka_unit_test(test_every_option_and_target_lies_in_the_behaviours_own_params),
        cmocka_unit_test(test_defaults_come_from_the_table_and_lie_in_their_ranges),
        cmocka_unit_test(test_the_core_takes_the_defaults_and_refuses_each_number_past_its_range),
        cmocka_unit_test(test_every_option_is_reachable_from_lua_under_its_name),
        cmocka_unit_test(test_docs_table_names_every_option),
        cmocka_unit_test(test_lua_types_match_the_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
