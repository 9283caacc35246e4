/* SPDX-License-Identifier: MIT */
/* test_fields.c - the field tables (include/steer/steer_fields.h, src/core/fields.c): every row is
 * complete, the default constructors, checks, generic setter and checksum follow it, the typed
 * setters are the generic one under their own names, and the documentation lists every row
 * (docs/lua-api.md and the lua-language-server types in types/steer.lua). */
#include "test_support.h"

#include <stdlib.h>

#include "world_internal.h"

/// The typed setter of each vehicle row: what C callers had before the table.
typedef SteerResult (*TypedSetter)(SteerWorld *world, SteerVehicleId id, double value);
static const TypedSetter TYPED[STEER_VEHICLE_FIELD_COUNT] = {
    [STEER_FIELD_MASS] = steer_vehicle_set_mass,
    [STEER_FIELD_MAX_SPEED] = steer_vehicle_set_max_speed,
    [STEER_FIELD_MAX_FORCE] = steer_vehicle_set_max_force,
    [STEER_FIELD_MAX_TURN_RATE] = steer_vehicle_set_max_turn_rate,
    [STEER_FIELD_RADIUS] = steer_vehicle_set_radius,
    [STEER_FIELD_RESPONSE_TIME] = steer_vehicle_set_response_time,
    [STEER_FIELD_NEIGHBOR_RADIUS] = steer_vehicle_set_neighbor_radius,
    [STEER_FIELD_VIEW_ANGLE] = steer_vehicle_set_view_angle,
};

static const SteerFieldInfo *vrow(int f) { return &steer_vehicle_field_table[f]; }

static double def_value(const void *def, const SteerFieldInfo *row)
{
    double value;
    memcpy(&value, (const char *)def + row->def_offset, sizeof value);
    return value;
}

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

/// A value inside the row's range other than its default, to set and read back.
static double other_value(const SteerFieldInfo *row) { return row->fallback == 0.5 ? 0.75 : 0.5; }

/* ---- The rows on their own ----------------------------------------------------------------- */

static void test_every_row_is_complete_and_its_name_unique(void **state)
{
    (void)state;
    for (int f = 0; f < STEER_VEHICLE_FIELD_COUNT; f++) {
        const SteerFieldInfo *row = vrow(f);
        assert_non_null(row->name);
        assert_non_null(row->unit);
        assert_non_null(row->doc);
        assert_ptr_equal(steer_vehicle_field_info((SteerVehicleField)f), row);
        SteerVehicleField found;
        assert_true(steer_vehicle_field_from_name(row->name, &found));
        assert_int_equal(found, f);
        assert_true(row->def_offset + sizeof(double) <= sizeof(SteerVehicleDef));
        assert_true(row->state_offset + sizeof(double) <= sizeof(SteerVehicleState));
        assert_true(row->min <= row->fallback && row->fallback <= row->max);
        for (int g = 0; g < f; g++) {
            if (strcmp(vrow(g)->name, row->name) == 0) fail_msg("two rows are named %s", row->name);
            assert_int_not_equal(vrow(g)->def_offset, row->def_offset);
            assert_int_not_equal(vrow(g)->state_offset, row->state_offset);
        }
    }
    assert_null(steer_vehicle_field_info(STEER_VEHICLE_FIELD_COUNT));
    assert_false(steer_vehicle_field_from_name("max_sped", NULL));
    assert_false(steer_vehicle_field_from_name(NULL, NULL));
    for (int f = 0; f < STEER_WORLD_FIELD_COUNT; f++) {
        const SteerFieldInfo *row = &steer_world_field_table[f];
        assert_non_null(row->name);
        assert_non_null(row->doc);
        assert_true(row->min <= row->fallback && row->fallback <= row->max);
    }
}

/// The default constructors give each row's default.
static void test_defaults_are_the_rows(void **state)
{
    (void)state;
    SteerVehicleDef vdef = steer_default_vehicle_def();
    for (int f = 0; f < STEER_VEHICLE_FIELD_COUNT; f++)
        if (def_value(&vdef, vrow(f)) != vrow(f)->fallback)
            fail_msg("steer_default_vehicle_def: %s is %g, its row says %g", vrow(f)->name, def_value(&vdef, vrow(f)),
                     vrow(f)->fallback);
    SteerWorldDef wdef = steer_default_world_def();
    assert_true(wdef.width == steer_world_field_table[STEER_WORLD_FIELD_WIDTH].fallback);
    assert_true(wdef.height == steer_world_field_table[STEER_WORLD_FIELD_HEIGHT].fallback);
    assert_true(wdef.dt == steer_world_field_table[STEER_WORLD_FIELD_DT].fallback);
    assert_int_equal(wdef.threads, (int)steer_world_field_table[STEER_WORLD_FIELD_THREADS].fallback);
}

/* ---- Setting by row ------------------------------------------------------------------------ */

/// Each row's limits are accepted and the next double past them refused, by spawn, by the generic
/// setter and by the typed one, with the same message but for the function's name.
static void test_each_row_checked_at_its_limits(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId id = spawn_at(world, 10.0, 10.0);
    for (int f = 0; f < STEER_VEHICLE_FIELD_COUNT; f++) {
        const SteerFieldInfo *row = vrow(f);
        double lo = row->check == STEER_FIELD_ANGLE ? nextafter(0.0, 1.0) : row->min;
        double below = row->check == STEER_FIELD_ANGLE ? 0.0 : nextafter(row->min, -INFINITY);
        double above = row->check == STEER_FIELD_ANGLE ? 7.0 : nextafter(row->max, INFINITY);
        const double good[] = {lo, row->max, row->fallback};
        for (int k = 0; k < 3; k++) {
            assert_int_equal(steer_vehicle_set_field(world, id, (SteerVehicleField)f, good[k]), STEER_OK);
            double back = -1.0;
            assert_int_equal(steer_vehicle_get_field(world, id, (SteerVehicleField)f, &back), STEER_OK);
            assert_true(back == good[k]);
        }
        const double bad[] = {below, above, NAN, INFINITY};
        for (int k = 0; k < 4; k++) {
            uint64_t before = steer_vehicle_checksum(world, id);
            assert_int_equal(steer_vehicle_set_field(world, id, (SteerVehicleField)f, bad[k]),
                             STEER_ERROR_INVALID_ARGUMENT);
            char generic[256], typed[256], expected[256];
            snprintf(generic, sizeof generic, "%s", steer_world_last_error(world));
            assert_int_equal(TYPED[f](world, id, bad[k]), STEER_ERROR_INVALID_ARGUMENT);
            snprintf(typed, sizeof typed, "%s", steer_world_last_error(world));
            snprintf(expected, sizeof expected, "steer_vehicle_set_%s: %s", row->name,
                     generic + strlen("steer_vehicle_set_field: "));
            assert_string_equal(typed, expected);
            assert_non_null(strstr(generic, row->name));
            assert_true(steer_vehicle_checksum(world, id) == before); /* unchanged */
            SteerVehicleDef def = steer_default_vehicle_def();
            memcpy((char *)&def + row->def_offset, &bad[k], sizeof bad[k]);
            assert_int_equal(steer_vehicle_create(world, &def, NULL), STEER_ERROR_INVALID_ARGUMENT);
            snprintf(expected, sizeof expected, "steer_vehicle_create: %s",
                     generic + strlen("steer_vehicle_set_field: "));
            assert_string_equal(steer_world_last_error(world), expected);
        }
    }
    /* not a row, and a removed vehicle */
    assert_int_equal(steer_vehicle_set_field(world, id, STEER_VEHICLE_FIELD_COUNT, 1.0), STEER_ERROR_INVALID_ARGUMENT);
    assert_string_equal(steer_world_last_error(world), "steer_vehicle_set_field: no vehicle field 8");
    assert_int_equal(steer_vehicle_destroy(world, id), STEER_OK);
    double out = 5.0;
    assert_int_equal(steer_vehicle_get_field(world, id, STEER_FIELD_MASS, &out), STEER_ERROR_INVALID_ID);
    assert_true(out == 0.0);
    assert_int_equal(steer_vehicle_set_field(world, id, STEER_FIELD_MASS, 2.0), STEER_ERROR_INVALID_ID);
    assert_string_equal(steer_world_last_error(world), "steer_vehicle_set_field: vehicle was removed");
    steer_world_destroy(world);
}

/// The typed setters are the generic one: twin worlds, one set by row and one by name, step alike;
/// and every row is in the checksum (a changed value changes it).
static void test_typed_setters_and_checksum_follow_the_rows(void **state)
{
    (void)state;
    SteerWorld *a = make_world(STEER_EDGES_WRAP, 3), *b = make_world(STEER_EDGES_WRAP, 3);
    SteerVehicleId va = spawn_moving(a, 100.0, 100.0, 90.0, 10.0), vb = spawn_moving(b, 100.0, 100.0, 90.0, 10.0);
    SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
    turn_on(a, va, &wander);
    turn_on(b, vb, &wander);
    for (int f = 0; f < STEER_VEHICLE_FIELD_COUNT; f++) {
        uint64_t before = steer_vehicle_checksum(a, va);
        double value = other_value(vrow(f));
        assert_int_equal(steer_vehicle_set_field(a, va, (SteerVehicleField)f, value), STEER_OK);
        assert_int_equal(TYPED[f](b, vb, value), STEER_OK);
        if (steer_vehicle_checksum(a, va) == before) fail_msg("the checksum does not see %s", vrow(f)->name);
        SteerVehicleState s;
        assert_int_equal(steer_vehicle_get(a, va, &s), STEER_OK);
        assert_true(def_value(&s, &(SteerFieldInfo){.def_offset = vrow(f)->state_offset}) == value);
        run_steps(a, 5);
        run_steps(b, 5);
        assert_true(steer_world_checksum(a) == steer_world_checksum(b));
    }
    /* max_speed by row truncates the velocity, as its typed setter always did */
    assert_true(steer_length(steer_vehicle_velocity(a, va)) <= 0.5 * (1.0 + 1e-12));
    steer_world_destroy(a);
    steer_world_destroy(b);
}

/// The world rows check a definition: each row's bad value is refused with a message naming it.
static void test_world_rows_check_the_definition(void **state)
{
    (void)state;
    char message[200];
    for (int f = 0; f < STEER_WORLD_FIELD_COUNT; f++) {
        const SteerFieldInfo *row = &steer_world_field_table[f];
        SteerWorldDef def = steer_default_world_def();
        char *at = (char *)&def + row->def_offset;
        if (row->check == STEER_FIELD_INTEGER) {
            int bad = (int)row->max + 1;
            memcpy(at, &bad, sizeof bad);
        } else {
            double bad = nextafter(row->max, INFINITY);
            memcpy(at, &bad, sizeof bad);
        }
        assert_int_equal(steer_world_def_check(&def, message, sizeof message), STEER_ERROR_INVALID_ARGUMENT);
        if (strncmp(message, row->name, strlen(row->name)) != 0) fail_msg("%s: \"%s\"", row->name, message);
    }
    SteerWorldDef def = steer_default_world_def();
    def.dt = 1e-7;
    assert_int_equal(steer_world_def_check(&def, message, sizeof message), STEER_ERROR_INVALID_ARGUMENT);
    assert_string_equal(message, "dt must be at least 1e-06 seconds (got 1e-07)");
    def = steer_default_world_def();
    def.width = -1.0;
    assert_int_equal(steer_world_def_check(&def, message, sizeof message), STEER_ERROR_INVALID_ARGUMENT);
    assert_string_equal(message, "width must be a finite number in [1e-06, 1e+09] units (got -1)");
    def = steer_default_world_def();
    def.threads = 65;
    assert_int_equal(steer_world_def_check(&def, message, sizeof message), STEER_ERROR_INVALID_ARGUMENT);
    assert_string_equal(message, "threads must be an integer in [1, 64] (got 65)");
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    assert_int_equal(steer_world_set_dt(world, 2.0), STEER_ERROR_INVALID_ARGUMENT);
    assert_string_equal(steer_world_last_error(world), "steer_world_set_dt: dt must be a finite number in (0, 1] "
                                                       "seconds (got 2)");
    steer_world_destroy(world);
}

/* ---- The documentation --------------------------------------------------------------------- */

/// docs/lua-api.md: the spawn table has a row `name` with its default, the vehicle's field table
/// names each writable row as `v.name`, and steer.world's option list each world row as `name =`.
static void test_docs_list_every_row(void **state)
{
    (void)state;
    char *docs = read_text("docs/lua-api.md");
    char needle[96];
    const char *fields_row = strstr(docs, "| `v.max_speed`");
    assert_non_null(fields_row);
    const char *fields_end = strchr(fields_row, '\n');
    for (int f = 0; f < STEER_VEHICLE_FIELD_COUNT; f++) {
        snprintf(needle, sizeof needle, "| `%s` | ", vrow(f)->name);
        const char *line = strstr(docs, needle);
        if (!line) fail_msg("docs/lua-api.md's spawn table has no row %s", needle);
        snprintf(needle, sizeof needle, "`v.%s`", vrow(f)->name);
        const char *field = strstr(fields_row, needle);
        if (vrow(f)->writable && (!field || field > fields_end))
            fail_msg("docs/lua-api.md's vehicle fields do not name %s as writable", needle);
    }
    /* the signature line: `steer.world{width =, height =, ...}` */
    const char *world = strstr(docs, "`steer.world{");
    while (world && world[strlen("`steer.world{")] == '.') world = strstr(world + 1, "`steer.world{");
    assert_non_null(world);
    const char *world_end = strchr(world, '}');
    for (int f = 0; f < STEER_WORLD_FIELD_COUNT; f++) {
        snprintf(needle, sizeof needle, "%s =", steer_world_field_table[f].name);
        const char *at = strstr(world, needle);
        if (!at || at > world_end) fail_msg("docs/lua-api.md's steer.world{...} lacks %s", needle);
    }
    free(docs);
}

/// Whether `class` in types/steer.lua (its ---@field lines) has `field` with a type starting `type`.
static bool types_class_has(const char *types, const char *class_line, const char *field, const char *type)
{
    const char *at = strstr(types, class_line);
    if (!at) fail_msg("types/steer.lua lacks %s", class_line);
    at = strchr(at, '\n') + 1;
    char needle[96];
    snprintf(needle, sizeof needle, "---@field %s %s", field, type);
    while (strncmp(at, "---@field ", 10) == 0) {
        if (strncmp(at, needle, strlen(needle)) == 0) return true;
        at = strchr(at, '\n') + 1;
    }
    return false;
}

/// types/steer.lua: every vehicle row is a field of steer.SpawnOptions (optional) and of
/// steer.Vehicle, every world row one of steer.WorldOptions, each with its default where given.
static void test_lua_types_list_every_row(void **state)
{
    (void)state;
    char *types = read_text("types/steer.lua");
    for (int f = 0; f < STEER_VEHICLE_FIELD_COUNT; f++) {
        const char *name = vrow(f)->name;
        if (!types_class_has(types, "---@class steer.SpawnOptions\n", name, "number?"))
            fail_msg("types/steer.lua: steer.SpawnOptions lacks ---@field %s number?", name);
        if (!types_class_has(types, "---@class steer.Vehicle\n", name, "number "))
            fail_msg("types/steer.lua: steer.Vehicle lacks ---@field %s number", name);
    }
    for (int f = 0; f < STEER_WORLD_FIELD_COUNT; f++) {
        const SteerFieldInfo *row = &steer_world_field_table[f];
        if (!types_class_has(types, "---@class steer.WorldOptions\n", row->name,
                             row->check == STEER_FIELD_INTEGER ? "integer?" : "number?"))
            fail_msg("types/steer.lua: steer.WorldOptions lacks %s", row->name);
    }
    free(types);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_row_is_complete_and_its_name_unique),
        cmocka_unit_test(test_defaults_are_the_rows),
        cmocka_unit_test(test_each_row_checked_at_its_limits),
        cmocka_unit_test(test_typed_setters_and_checksum_follow_the_rows),
        cmocka_unit_test(test_world_rows_check_the_definition),
        cmocka_unit_test(test_docs_list_every_row),
        cmocka_unit_test(test_lua_types_list_every_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
