/* SPDX-License-Identifier: MIT */
/* fields.h - the core's side of the field tables (steer_fields.h, src/core/fields.c): checking a
 * vehicle field's value and storing it where the vehicle keeps it. */
#ifndef STEER_FIELDS_INTERNAL_H
#define STEER_FIELDS_INTERNAL_H

#include "world_internal.h"

/// Whether a value suits a vehicle field (the state checker asks too).
bool steer_vehicle_field_ok(SteerVehicleField field, double value);
/// Checks a value for a vehicle field (the message the typed setters have always given).
SteerResult steer_vehicle_field_check(const SteerWorld *world, SteerVehicleField field, double value);
/// Stores a checked value, with what the field does beside (max_speed truncates the velocity).
void steer_vehicle_store_field(SteerWorld *world, SteerVehicle *vehicle, SteerVehicleField field, double value);
/// The value a vehicle has.
double steer_vehicle_load_field(const SteerWorld *world, const SteerVehicle *vehicle, SteerVehicleField field);
/// The value of `field` in a definition.
double steer_vehicle_def_field(const SteerVehicleDef *def, SteerVehicleField field);
/// steer_vehicle_set_field under the public name the caller already set (STEER_API): the typed
/// setters' messages keep their own names.
SteerResult steer_vehicle_set_field_as(SteerWorld *world, SteerVehicleId id, SteerVehicleField field, double value);
/// The rows checksum.c sums by name, in the order replays recorded: the table's first ones.
#define STEER_FIELDS_SUMMED_BY_NAME 8
/// The cone test's threshold: all-round vision (2π, give or take rounding) skips the test.
static inline double steer_view_cos(double view_angle)
{
    return view_angle < 2.0 * STEER_PI - 1e-9 ? cos(0.5 * view_angle) : -2.0;
}

#endif
