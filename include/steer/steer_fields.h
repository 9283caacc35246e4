/* SPDX-License-Identifier: MIT */
/* steer_fields.h - what each vehicle tunable and each world option is, as data: one row each in
 * two const tables (src/core/fields.c), as steer_behaviours.h does for behaviours.
 *
 * A vehicle row gives a number of SteerVehicleDef (mass, max_speed, ...) its name, unit, check,
 * default and places; the core's checks, default constructor, generic setter and checksum read
 * it, and so do the Lua bindings (spawn options, v.field get and set). A world row does the same
 * for the numbers of SteerWorldDef the Lua world options take. Adding a tunable is adding a row
 * and using the value (docs/adding-a-field.md).
 */
#ifndef STEER_FIELDS_H
#define STEER_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "steer_export.h"
#include "steer_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// How a field's value is checked. Each keeps the message the core has always given for it.
typedef enum SteerFieldCheck {
    STEER_FIELD_RANGE,         ///< finite, in [min, max]: `mass must be a finite number in [1e-06, 1e+06] (got 0)`
    STEER_FIELD_ZERO_OR_RANGE, ///< 0, or finite in [min, max] (neighbor_radius: group behaviours divide by it)
    STEER_FIELD_ANGLE,         ///< in (0, max] radians: `view_angle must be in (0, 2π] radians (got 7)`
    STEER_FIELD_STEP,    ///< a time step in (0, max], at least min: `dt must be a finite number in (0, 1] seconds`
    STEER_FIELD_INTEGER, ///< an int in [min, max] (a world's threads; 0 counts as 1)
} SteerFieldCheck;

/// One tunable number.
typedef struct SteerFieldInfo {
    const char *name; ///< its name in C (the def's member), in Lua and in messages
    const char *unit; ///< "units/s", "mass·units/s²", "" for none: what docs and types say
    SteerFieldCheck check;
    double min, max;     ///< the accepted range, inclusive (ANGLE: (0, max])
    double fallback;     ///< its default, the default constructor's
    size_t def_offset;   ///< where the double (INTEGER: int) lies in its *Def
    size_t state_offset; ///< vehicles: where it lies in SteerVehicleState (what a get reads)
    bool writable;       ///< settable after creation (steer_vehicle_set_field, `v.name = x` in Lua)
    const char *doc;     ///< one line: what it does
} SteerFieldInfo;

/// The vehicle tunables, in the order a definition is checked.
typedef enum SteerVehicleField {
    STEER_FIELD_MASS = 0,
    STEER_FIELD_MAX_SPEED,
    STEER_FIELD_MAX_FORCE,
    STEER_FIELD_MAX_TURN_RATE,
    STEER_FIELD_RADIUS,
    STEER_FIELD_RESPONSE_TIME,
    STEER_FIELD_NEIGHBOR_RADIUS,
    STEER_FIELD_VIEW_ANGLE,
    STEER_VEHICLE_FIELD_COUNT
} SteerVehicleField;

/// The numbers of a world's definition that scripts set, in the order they are checked (edges,
/// no number, between the size and dt). dt is writable (steer_world_set_dt).
typedef enum SteerWorldField {
    STEER_WORLD_FIELD_WIDTH = 0,
    STEER_WORLD_FIELD_HEIGHT,
    STEER_WORLD_FIELD_DT,
    STEER_WORLD_FIELD_THREADS,
    STEER_WORLD_FIELD_COUNT
} SteerWorldField;

/// The tables, indexed by SteerVehicleField and SteerWorldField (the library's only exported data).
STEER_API extern const SteerFieldInfo steer_vehicle_field_table[STEER_VEHICLE_FIELD_COUNT];
STEER_API extern const SteerFieldInfo steer_world_field_table[STEER_WORLD_FIELD_COUNT];

struct SteerWorld; /* steer.h's SteerWorld: this header compiles on its own */

/// The row of a vehicle field, or NULL for a value outside the enum.
STEER_API const SteerFieldInfo *steer_vehicle_field_info(SteerVehicleField field);
/// Looks a vehicle field up by name; false when there is none.
STEER_API bool steer_vehicle_field_from_name(const char *name, SteerVehicleField *out);
/// Sets a writable field, checked like its typed setter (steer_vehicle_set_mass, ...), which
/// does the same; an unknown or read-only field is STEER_ERROR_INVALID_ARGUMENT.
STEER_API SteerResult steer_vehicle_set_field(struct SteerWorld *world, SteerVehicleId id, SteerVehicleField field,
                                              double value);
/// Reads a field into *out (0 for an invalid id, which also returns STEER_ERROR_INVALID_ID).
STEER_API SteerResult steer_vehicle_get_field(const struct SteerWorld *world, SteerVehicleId id,
                                              SteerVehicleField field, double *out);

#ifdef __cplusplus
}
#endif

#endif
