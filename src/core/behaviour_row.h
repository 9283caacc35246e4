/* SPDX-License-Identifier: MIT */
/* behaviour_row.h - a behaviour as the core sees it: the public SteerBehaviourInfo (name, defaults,
 * options, targets: what users and the bindings read through steer_behaviour_info()) and, beside
 * it, the core's own functions and flags for it, which no public header shows. One row per
 * behaviour in one const table (behaviour_table.c); adding a behaviour is adding a row
 * (docs/adding-a-behaviour.md).
 */
#ifndef STEER_BEHAVIOUR_ROW_H
#define STEER_BEHAVIOUR_ROW_H

#include "world_internal.h"

/// A behaviour's force (mass·units/s², before its weight); it may record what it did in slot->state.
typedef SteerVec2 SteerForceFn(SteerWorld *world, SteerVehicle *vehicle, SteerBehaviourSlot *slot);
/// Its own debug drawing (wander circle, detection box, feelers) at the vehicle's drawn pose.
typedef void SteerBehaviourDrawFn(const SteerDebugDraw *draw, const SteerVehicle *vehicle,
                                  const SteerBehaviourSlot *slot, SteerVec2 position, SteerVec2 heading);

/// One row: everything that makes a behaviour what it is.
typedef struct SteerBehaviourRow {
    SteerBehaviourInfo info; ///< the public part: steer_behaviour_info() returns a pointer to it
    bool draws_target;       ///< state.target is a point it steered for: the targets overlay draws it
    /// It reads the obstacle or wall grid, whose answers go to one scratch array per world: a
    /// parallel step must run such a vehicle on one thread.
    bool shared_scratch;
    /// 0, or the offset in SteerBehaviourDef of its SteerWanderParams: a fresh slot starts its
    /// wander point at a random place on that circle.
    size_t wander_offset;
    SteerForceFn *force;
    /// PRNG numbers one evaluation draws (a parallel step plans them per task); NULL: none.
    int (*draws)(const SteerBehaviourDef *def);
    /// Whether it uses the plain neighbourhood the step sums for every vehicle that wants one
    /// (separation, alignment, cohesion sums); NULL: never. The other group behaviours (leader
    /// following, queueing, collision avoidance) read the vehicle grid themselves.
    bool (*wants_neighbourhood)(const SteerBehaviourDef *def);
    /// Whether its force reads the vehicle grid's whole entries (the others' positions and
    /// velocities as the step's snapshot): leader following, queueing, collision avoidance, a
    /// separation with a comfort distance. A step gathers them before anyone moves only when some
    /// vehicle has such a behaviour; NULL: never.
    bool (*reads_grid)(const SteerBehaviourDef *def);
    /// Called when the behaviour is switched on or updated, after its checks, before its slot
    /// changes: what it needs beyond its slot is made here, outside the step (navigate's plan
    /// storage and map). An error refuses the call. NULL: nothing.
    SteerResult (*prepare)(SteerWorld *world, SteerVehicle *vehicle, const SteerBehaviourDef *def);
    SteerBehaviourDrawFn *debug_draw; ///< NULL where it draws nothing of its own
    unsigned debug_flags;             ///< the SteerDebugDrawFlags under which debug_draw runs
} SteerBehaviourRow;

/// The table, indexed by SteerBehaviour.
extern const SteerBehaviourRow steer_behaviour_rows[STEER_BEHAVIOUR_COUNT];
/// The options every behaviour takes (steer_behaviour_common_options() returns them).
extern const SteerOptionSpec steer_common_option_specs[STEER_COMMON_OPTION_COUNT];

#endif
