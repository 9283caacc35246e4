/* SPDX-License-Identifier: MIT */
/* behaviours_internal.h - building blocks the behaviour files share. The per-vehicle formulas the
 * step's flock path shares with them (velocity matching, seek, separation, alignment, cohesion,
 * wander, truncation) are in flock_formulas.h. Every function returns a finite force for any
 * finite input.
 */
#ifndef STEER_BEHAVIOURS_INTERNAL_H
#define STEER_BEHAVIOURS_INTERNAL_H

#include "behaviour_row.h"
#include "flock_formulas.h"
#include "world_internal.h"

/// Full speed away from `point`; straight ahead when standing on it.
SteerVec2 steer_flee_point(const SteerVehicle *vehicle, SteerVec2 point);
/// The velocity arrive wants: max_speed toward `point`, falling linearly inside slowing_radius.
SteerVec2 steer_arrive_velocity(const SteerVehicle *vehicle, SteerVec2 point, double slowing_radius);
/// Toward `point`, slowing linearly inside slowing_radius to rest on it.
SteerVec2 steer_arrive_point(const SteerVehicle *vehicle, SteerVec2 point, double slowing_radius);

/// The kinds a vehicle's group behaviours consider: flock_kinds, or its own kind when that is 0.
uint64_t steer_flock_kinds(const SteerVehicle *vehicle);
/// One pass over the neighbours. `exclude_slot` (-1: none) leaves one more vehicle out (a leader).
/// Neighbours closer than comfort_distance push comfort_multiplier times harder.
void steer_neighbourhood(const SteerWorld *world, const SteerVehicle *vehicle, int exclude_slot,
                         double comfort_distance, double comfort_multiplier, SteerNeighbourhood *out);

/// Sums the plain neighbourhood of every vehicle that wants one, in cell order (so the cells a
/// vehicle looks at are still in cache from its neighbour's turn). Called at the start of a step.
void steer_prepare_neighbourhoods(SteerWorld *world);

/// Defines behaviour `name`'s force, steer_force_<name>, which its row in behaviour_table.c names
/// (the declaration first: the function is the table's, not the file's).
#define STEER_BEHAVIOUR_FORCE(name)                                                                                    \
    SteerForceFn steer_force_##name;                                                                                   \
    SteerVec2 steer_force_##name(SteerWorld *world, SteerVehicle *vehicle, SteerBehaviourSlot *slot)
/// The same for a behaviour's own debug drawing, steer_draw_<name> (debug_draw.c).
#define STEER_BEHAVIOUR_DRAW(name)                                                                                     \
    SteerBehaviourDrawFn steer_draw_##name;                                                                            \
    void steer_draw_##name(const SteerDebugDraw *d, const SteerVehicle *v, const SteerBehaviourSlot *slot,             \
                           SteerVec2 position, SteerVec2 heading)
/// Wander (with its optional leash), also used by flock.
SteerVec2 steer_wander_force(SteerWorld *world, SteerVehicle *vehicle, SteerBehaviourSlot *slot,
                             const SteerWanderParams *w);

/// avoid_walls' three feelers (front, left, right), measured from the vehicle's centre: unit
/// directions and lengths (units). Shared with the debug drawing so both show the same probes.
void steer_wall_feelers(SteerVec2 heading, double radius, double feeler_length, SteerVec2 directions[3],
                        double lengths[3]);

#endif
