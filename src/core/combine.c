/* SPDX-License-Identifier: MIT */
/* combine.c - turning a vehicle's active behaviours into one force (Buckland's three methods). */
#include "behaviours_internal.h"

SteerVec2 steer_behaviour_force(SteerWorld *world, SteerVehicle *vehicle, SteerBehaviourSlot *slot)
{
    /* One indirect call through the row (before: a switch to the family, then one in it). */
    return steer_behaviour_rows[slot->def.type].force(world, vehicle, slot);
}

/// Evaluates one slot and records its weighted force for inspectors.
static SteerVec2 evaluate(SteerWorld *world, SteerVehicle *vehicle, SteerBehaviourSlot *slot)
{
    SteerVec2 force = steer_scale(steer_behaviour_force(world, vehicle, slot), slot->def.weight);
    slot->state.force = force;
    slot->state.evaluated = true;
    return force;
}

static SteerVec2 weighted_sum(SteerWorld *world, SteerVehicle *vehicle)
{
    SteerVec2 total = {0.0, 0.0};
    for (int i = 0; i < vehicle->behaviour_count; i++)
        total = steer_add(total, evaluate(world, vehicle, &vehicle->behaviours[i]));
    double kept = steer_truncation_kept(vehicle, steer_length(total));
    for (int i = 0; i < vehicle->behaviour_count; i++) vehicle->behaviours[i].state.kept = kept;
    return steer_scale(total, kept);
}

/* Prioritised weighted truncated running sum: behaviours in priority order each add what still
 * fits under max_force; once it is used up the rest are not even evaluated. */
static SteerVec2 priority_sum(SteerWorld *world, SteerVehicle *vehicle)
{
    SteerVec2 total = {0.0, 0.0};
    for (int i = 0; i < vehicle->behaviour_count; i++) {
        SteerBehaviourSlot *slot = &vehicle->behaviours[i];
        double remaining = vehicle->max_force - steer_length(total);
        if (remaining <= 1e-12) break;
        SteerVec2 force = evaluate(world, vehicle, slot);
        double length = steer_length(force);
        if (length <= remaining) {
            total = steer_add(total, force);
            slot->state.kept = 1.0;
        } else {
            total = steer_add(total, steer_scale(force, remaining / length));
            slot->state.kept = remaining / length;
        }
    }
    return total;
}

/* Prioritised dithering: in priority order, each behaviour gets its turn with its probability; the
 * first that asks for something wins alone, scaled by 1/probability so that on average it pulls
 * as hard as under the weighted sum. */
static SteerVec2 dither(SteerWorld *world, SteerVehicle *vehicle)
{
    for (int i = 0; i < vehicle->behaviour_count; i++) {
        SteerBehaviourSlot *slot = &vehicle->behaviours[i];
        double probability = slot->def.probability;
        if (probability <= 0.0 || steer_pcg32_unit(steer_step_rng(world, vehicle)) >= probability) continue;
        SteerVec2 force = evaluate(world, vehicle, slot);
        double length = steer_length(force);
        if (length > 0.0) {
            /* force / probability, truncated to max_force: compared as length > max_force·probability
             * so that a tiny probability never overflows the quotient. */
            if (length > vehicle->max_force * probability) {
                slot->state.kept = vehicle->max_force * probability / length;
                return steer_scale(force, vehicle->max_force / length);
            }
            slot->state.kept = 1.0;
            return steer_scale(force, 1.0 / probability);
        }
    }
    return steer_vec2(0.0, 0.0);
}

SteerVec2 steer_combine_forces(SteerWorld *world, SteerVehicle *vehicle)
{
    for (int i = 0; i < vehicle->behaviour_count; i++) {
        SteerSlotState *state = &vehicle->behaviours[i].state;
        state->force = steer_vec2(0.0, 0.0);
        state->kept = 0.0;
        state->evaluated = false;
    }
    switch (vehicle->combine) {
    case STEER_COMBINE_PRIORITY: return priority_sum(world, vehicle);
    case STEER_COMBINE_DITHER: return dither(world, vehicle);
    case STEER_COMBINE_WEIGHTED:
    default: return weighted_sum(world, vehicle);
    }
}
