/* SPDX-License-Identifier: MIT */
/* fields.c - the vehicle tunables and the world options as rows (steer_fields.h): their checks,
 * and how a vehicle's value is stored, which is the core's own business (the private half of each
 * row, beside the public half). */
#include <string.h>

#include "fields.h"

#define VEHICLE_ROW(field, check_, lo, hi, def_value, unit_, doc_)                                                     \
    {                                                                                                                  \
        .name = #field, .unit = unit_, .check = check_, .min = lo, .max = hi, .fallback = def_value,                   \
        .def_offset = offsetof(SteerVehicleDef, field), .state_offset = offsetof(SteerVehicleState, field),            \
        .writable = true, .doc = doc_                                                                                  \
    }

// clang-format off
const SteerFieldInfo steer_vehicle_field_table[STEER_VEHICLE_FIELD_COUNT] = {
    [STEER_FIELD_MASS] = VEHICLE_ROW(mass, STEER_FIELD_RANGE, STEER_MIN_POSITIVE, STEER_MAX_MASS, 1.0, "",
        "inertia: acceleration = force / mass"),
    [STEER_FIELD_MAX_SPEED] = VEHICLE_ROW(max_speed, STEER_FIELD_RANGE, STEER_MIN_POSITIVE, STEER_MAX_SPEED, 100.0,
        "units/s", "the velocity is truncated to it (setting it truncates the current one too)"),
    [STEER_FIELD_MAX_FORCE] = VEHICLE_ROW(max_force, STEER_FIELD_RANGE, STEER_MIN_POSITIVE, STEER_MAX_FORCE, 300.0,
        "mass·units/s²", "the combined force is truncated to it"),
    [STEER_FIELD_MAX_TURN_RATE] = VEHICLE_ROW(max_turn_rate, STEER_FIELD_RANGE, 0.0, STEER_MAX_RATE, 0.0,
        "radians/s", "how fast the velocity may turn; 0: unlimited"),
    [STEER_FIELD_RADIUS] = VEHICLE_ROW(radius, STEER_FIELD_RANGE, 0.0, STEER_MAX_LENGTH, 8.0,
        "units", "bounding radius: obstacle avoidance, queueing, drawing"),
    [STEER_FIELD_RESPONSE_TIME] = VEHICLE_ROW(response_time, STEER_FIELD_RANGE, STEER_MIN_POSITIVE, STEER_MAX_TIME,
        0.25, "s", "velocity-matching behaviours ask for mass·(desired - velocity) / response_time"),
    [STEER_FIELD_NEIGHBOR_RADIUS] = VEHICLE_ROW(neighbor_radius, STEER_FIELD_ZERO_OR_RANGE, STEER_MIN_POSITIVE,
        STEER_MAX_LENGTH, 50.0, "units", "how far group behaviours look for neighbours; 0: none"),
    [STEER_FIELD_VIEW_ANGLE] = VEHICLE_ROW(view_angle, STEER_FIELD_ANGLE, 0.0, 2.0 * STEER_PI, 2.0 * STEER_PI,
        "radians", "full width of the cone around the heading where neighbours are seen"),
};

#define WORLD_ROW(field, check_, lo, hi, def_value, writable_, unit_, doc_)                                                     \
    {                                                                                                                  \
        .name = #field, .unit = unit_, .check = check_, .min = lo, .max = hi, .fallback = def_value,                   \
        .def_offset = offsetof(SteerWorldDef, field), .writable = writable_, .doc = doc_                               \
    }

/* threads also accepts 0 (a zeroed definition: one thread). */
const SteerFieldInfo steer_world_field_table[STEER_WORLD_FIELD_COUNT] = {
    [STEER_WORLD_FIELD_WIDTH] = WORLD_ROW(width, STEER_FIELD_RANGE, STEER_MIN_POSITIVE, STEER_MAX_LENGTH, 800.0, false, "units",
        "the bounds' width: edges wrap or contain there"),
    [STEER_WORLD_FIELD_HEIGHT] = WORLD_ROW(height, STEER_FIELD_RANGE, STEER_MIN_POSITIVE, STEER_MAX_LENGTH, 600.0, false, "units", "the bounds' height"),
    [STEER_WORLD_FIELD_DT] = WORLD_ROW(dt, STEER_FIELD_STEP, STEER_MIN_POSITIVE, 1.0, 1.0 / 60.0, true, "s", "the fixed physics step"),
    [STEER_WORLD_FIELD_THREADS] = WORLD_ROW(threads, STEER_FIELD_INTEGER, 1, STEER_MAX_THREADS, 1, false, "",
        "threads a step runs on, the same bits for every count"),
};
// clang-format on

/* ---- Where a vehicle keeps each value ---------------------------------------------------------- */

/// Where a vehicle keeps a field: a double of SteerVehicle (hot: the step reads it) or of
/// SteerVehicleCold, and what storing it does beside, if anything.
typedef struct FieldStore {
    bool cold;
    size_t offset;
    void (*then)(SteerVehicle *vehicle, double value);
} FieldStore;

static void truncate_velocity(SteerVehicle *vehicle, double max_speed)
{
    vehicle->velocity = steer_truncate(vehicle->velocity, max_speed);
}

static void set_view_cos(SteerVehicle *vehicle, double view_angle) { vehicle->view_cos = steer_view_cos(view_angle); }

#define HOT(field)                                                                                                     \
    {                                                                                                                  \
        false, offsetof(SteerVehicle, field), NULL                                                                     \
    }
static const FieldStore STORES[STEER_VEHICLE_FIELD_COUNT] = {
    [STEER_FIELD_MASS] = HOT(mass),
    [STEER_FIELD_MAX_SPEED] = {false, offsetof(SteerVehicle, max_speed), truncate_velocity},
    [STEER_FIELD_MAX_FORCE] = HOT(max_force),
    [STEER_FIELD_MAX_TURN_RATE] = HOT(max_turn_rate),
    [STEER_FIELD_RADIUS] = HOT(radius),
    [STEER_FIELD_RESPONSE_TIME] = HOT(response_time),
    [STEER_FIELD_NEIGHBOR_RADIUS] = HOT(neighbor_radius),
    [STEER_FIELD_VIEW_ANGLE] = {true, offsetof(SteerVehicleCold, view_angle), set_view_cos},
};

static char *field_at(const SteerWorld *world, const SteerVehicle *vehicle, SteerVehicleField field)
{
    const FieldStore *store = &STORES[field];
    const void *base = store->cold ? (const void *)steer_vehicle_cold(world, vehicle) : (const void *)vehicle;
    return (char *)base + store->offset;
}

void steer_vehicle_store_field(SteerWorld *world, SteerVehicle *vehicle, SteerVehicleField field, double value)
{
    memcpy(field_at(world, vehicle, field), &value, sizeof value);
    if (STORES[field].then) STORES[field].then(vehicle, value);
}

double steer_vehicle_load_field(const SteerWorld *world, const SteerVehicle *vehicle, SteerVehicleField field)
{
    double value;
    memcpy(&value, field_at(world, vehicle, field), sizeof value);
    return value;
}

/* ---- Checks ------------------------------------------------------------------------------------ */

bool steer_vehicle_field_ok(SteerVehicleField field, double value)
{
    const SteerFieldInfo *row = &steer_vehicle_field_table[field];
    switch (row->check) {
    case STEER_FIELD_ZERO_OR_RANGE: return value == 0.0 || (isfinite(value) && value >= row->min && value <= row->max);
    case STEER_FIELD_ANGLE: return isfinite(value) && value > 0.0 && value <= row->max + 1e-9; /* 2π, rounded */
    default: return isfinite(value) && value >= row->min && value <= row->max;
    }
}

SteerResult steer_vehicle_field_check(const SteerWorld *world, SteerVehicleField field, double value)
{
    if (steer_vehicle_field_ok(field, value)) return STEER_OK;
    const SteerFieldInfo *row = &steer_vehicle_field_table[field];
    if (row->check == STEER_FIELD_ANGLE)
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "%s must be in (0, 2π] radians (got %g)", row->name,
                          value);
    return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "%s must be a finite number in [%g, %g] (got %g)", row->name,
                      row->min, row->max, value);
}

double steer_vehicle_def_field(const SteerVehicleDef *def, SteerVehicleField field)
{
    double value;
    memcpy(&value, (const char *)def + steer_vehicle_field_table[field].def_offset, sizeof value);
    return value;
}

/* ---- Public ------------------------------------------------------------------------------------ */

const SteerFieldInfo *steer_vehicle_field_info(SteerVehicleField field)
{
    return (unsigned)field < STEER_VEHICLE_FIELD_COUNT ? &steer_vehicle_field_table[field] : NULL;
}

bool steer_vehicle_field_from_name(const char *name, SteerVehicleField *out)
{
    for (int f = 0; name && f < STEER_VEHICLE_FIELD_COUNT; f++)
        if (strcmp(steer_vehicle_field_table[f].name, name) == 0) {
            if (out) *out = (SteerVehicleField)f;
            return true;
        }
    return false;
}

SteerResult steer_vehicle_set_field(SteerWorld *world, SteerVehicleId id, SteerVehicleField field, double value)
{
    STEER_ENTRY(world);
    return steer_vehicle_set_field_as(world, id, field, value);
}

SteerResult steer_vehicle_get_field(const SteerWorld *world, SteerVehicleId id, SteerVehicleField field, double *out)
{
    STEER_ENTRY(world);
    if (out) *out = 0.0;
    const SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle) return steer_vehicle_invalid_id(world, id);
    if ((unsigned)field >= STEER_VEHICLE_FIELD_COUNT)
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "no vehicle field %d", (int)field);
    if (out) *out = steer_vehicle_load_field(world, vehicle, field);
    return STEER_OK;
}
