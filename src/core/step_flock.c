/* SPDX-License-Identifier: MIT */
/* step_flock.c - the step's specialised path for the common case of a flock: vehicles whose
 * behaviour is flock (wander without a leash) under the weighted sum, alone or with others that
 * draw no random numbers (prey that also evade): a specialised path beside the general one.
 *
 * It computes exactly what the general path computes - the same operations in the same order, so
 * the same bits, and the same inspector state (force, kept, evaluated, target, wander_target) -
 * but straight from the packed neighbourhood the step's pre-pass summed, without the dispatch
 * through combine -> behaviour -> group -> flock -> neighbourhood lookup (which finds the vehicle's
 * grid index with an integer division) -> wander -> seek.
 *
 * The formulas are not written here: each stage calls the same static inline helpers as the general
 * path (flock_formulas.h), in the order the general path calls them.
 *
 * Per vehicle the force is a chain of square roots and divisions, each waiting for the one
 * before (normalise the wander point, aim at it, measure the total): alone, a vehicle is mostly
 * latency. So a batch of vehicles goes through it one stage at a time: within a stage the
 * vehicles are independent and the processor overlaps their chains.
 */
#include "behaviours_internal.h"

void steer_flock_step_forces(SteerWorld *world, SteerVehicle *const *vehicles, const int *ranks, int count)
{
    SteerVec2 force[STEER_FLOCK_BATCH], local[STEER_FLOCK_BATCH], to_target[STEER_FLOCK_BATCH];
    SteerBehaviourSlot *flock_slot[STEER_FLOCK_BATCH]; /* each vehicle's flock, found once */
    double dt = world->def.dt;
    /* A batch never spans two tasks of a parallel step: one generator for all of it. */
    SteerPcg32 *rng = steer_step_rng(world, vehicles[0]);

    /* Stage 1: separation, alignment, cohesion from the packed sums; the neighbours' centre as the
     * inspector's target; wander's jittered point, drawn from the world's PRNG (or its task's
     * copy) in creation order (as the general path draws). */
    for (int k = 0; k < count; k++) {
        SteerVehicle *vehicle = vehicles[k];
        SteerBehaviourSlot *slot = flock_slot[k] = &vehicle->behaviours[vehicle->flock_slot];
        const SteerFlockParams *p = &slot->def.flock;
        const SteerPackedNeighbourhood *packed = &world->grid.hood[ranks[k]];
        SteerVec2 separation = steer_vec2(packed->separation[0], packed->separation[1]);
        SteerVec2 heading_sum = steer_vec2(packed->heading_sum[0], packed->heading_sum[1]);
        SteerVec2 offset_sum = steer_vec2(packed->offset_sum[0], packed->offset_sum[1]);
        int n = packed->count;
        force[k] = steer_flock_group_force(vehicle, p, separation, heading_sum, offset_sum, n);
        slot->state.target = steer_neighbours_centre(vehicle, offset_sum, n);
        if (p->wander > 0.0) local[k] = steer_wander_jitter(slot->wander_local, rng, p->wander_params.jitter * dt);
    }

    /* Stage 2: wander without a leash: the point back on its circle, and the target ahead of the
     * vehicle. */
    for (int k = 0; k < count; k++) {
        SteerVehicle *vehicle = vehicles[k];
        SteerBehaviourSlot *slot = flock_slot[k];
        const SteerFlockParams *p = &slot->def.flock;
        if (!(p->wander > 0.0)) continue;
        const SteerWanderParams *w = &p->wander_params;
        SteerVec2 point = steer_wander_on_circle(local[k], w->radius);
        slot->wander_local = point;
        SteerVec2 target = steer_wander_target(vehicle, point, w->distance);
        slot->state.wander_target = target;
        to_target[k] = steer_sub(target, vehicle->position);
    }

    /* Stage 3: seek the wander target; the weighted sum (as combine.c sums): the flock alone, or
     * every behaviour in slot order, the others evaluated as combine.c evaluates them (pursue,
     * evade: none draws a random number, so the batch's draws above stay in creation order). */
    for (int k = 0; k < count; k++) {
        SteerVehicle *vehicle = vehicles[k];
        SteerBehaviourSlot *slot = flock_slot[k];
        const SteerFlockParams *p = &slot->def.flock;
        SteerVec2 f = force[k];
        if (p->wander > 0.0)
            f = steer_add(f, steer_scale(steer_wander_seek(vehicle, &p->wander_params, to_target[k]), p->wander));
        f = steer_scale(f, slot->def.weight);
        slot->state.force = f;
        slot->state.evaluated = true;
        if (vehicle->behaviour_count == 1) {
            force[k] = steer_add(steer_vec2(0.0, 0.0), f);
            continue;
        }
        SteerVec2 total = steer_vec2(0.0, 0.0);
        for (int i = 0; i < vehicle->behaviour_count; i++) {
            SteerBehaviourSlot *other = &vehicle->behaviours[i];
            if (other == slot) {
                total = steer_add(total, f);
                continue;
            }
            SteerVec2 g = steer_scale(steer_behaviour_force(world, vehicle, other), other->def.weight);
            other->state.force = g;
            other->state.evaluated = true;
            total = steer_add(total, g);
        }
        force[k] = total;
    }

    /* Stage 4: truncated to max_force; every slot records what was kept. */
    for (int k = 0; k < count; k++) {
        SteerVehicle *vehicle = vehicles[k];
        double kept = steer_truncation_kept(vehicle, steer_length(force[k]));
        if (vehicle->behaviour_count == 1)
            flock_slot[k]->state.kept = kept;
        else
            for (int i = 0; i < vehicle->behaviour_count; i++) vehicle->behaviours[i].state.kept = kept;
        vehicle->force = steer_scale(force[k], kept);
    }
}
