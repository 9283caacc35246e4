/* step_flock.c - the step's specialised path for the common case of a flock: vehicles whose only
 * behaviour is flock (wander without a leash) under the weighted sum: a specialised path for the
 * common case, beside the general one.
 *
 * It computes exactly what the general path computes - the same operations in the same order, so
 * the same bits, and the same inspector state (force, kept, evaluated, target, wander_target) -
 * but straight from the packed neighbourhood the step's pre-pass summed, without the dispatch
 * through combine -> behaviour -> group -> flock -> neighbourhood lookup (which finds the vehicle's
 * grid index with an integer division) -> wander -> seek.
 *
 * Per vehicle the force is a chain of square roots and divisions, each waiting for the one
 * before (normalise the wander point, aim at it, measure the total): alone, a vehicle is mostly
 * latency. So a batch of vehicles goes through it one stage at a time: within a stage the
 * vehicles are independent and the processor overlaps their chains.
 */
#include "behaviours_internal.h"

#define SEPARATION_REACH 0.25 /* as in behaviours_group.c */

bool steer_flock_step_eligible(const SteerWorld *world, const SteerVehicle *vehicle)
{
    /* plain_flock is kept with the behaviours (steer_vehicle_refresh_group_flags): the decision
     * reads no slot, so the first look at a flocker's slot comes in its batch, with the others'. */
    return vehicle->plain_flock && vehicle->combine == STEER_COMBINE_WEIGHTED && world->hoods_ready &&
           vehicle->wants_neighbourhood;
}

void steer_flock_step_forces(SteerWorld *world, SteerVehicle *const *vehicles, const int *ranks, int count)
{
    SteerVec2 force[STEER_FLOCK_BATCH], local[STEER_FLOCK_BATCH], to_target[STEER_FLOCK_BATCH];
    double dt = world->def.dt;
    /* A batch never spans two tasks of a parallel step: one generator for all of it. */
    SteerPcg32 *rng = steer_step_rng(world, vehicles[0]);

    /* Stage 1: separation, alignment, cohesion (behaviours_group.c) from the packed sums; the
     * neighbours' centre as the inspector's target; wander's jittered point, drawn from the
     * world's PRNG (or its task's copy) in creation order (as the general path draws). */
    for (int k = 0; k < count; k++) {
        SteerVehicle *vehicle = vehicles[k];
        SteerBehaviourSlot *slot = &vehicle->behaviours[0];
        const SteerFlockParams *p = &slot->def.flock;
        const SteerPackedNeighbourhood *packed = &world->grid.hood[ranks[k]];
        SteerVec2 separation = steer_vec2(packed->separation[0], packed->separation[1]);
        SteerVec2 heading_sum = steer_vec2(packed->heading_sum[0], packed->heading_sum[1]);
        SteerVec2 offset_sum = steer_vec2(packed->offset_sum[0], packed->offset_sum[1]);
        int n = packed->count;

        double push = vehicle->mass * vehicle->max_speed / vehicle->response_time;
        double radius = vehicle->neighbor_radius;
        double scale = radius <= 0.0 ? push : push * SEPARATION_REACH * radius;
        SteerVec2 f = steer_scale(steer_scale(separation, scale), p->separation);
        SteerVec2 alignment = steer_vec2(0.0, 0.0), cohesion = steer_vec2(0.0, 0.0);
        if (n != 0) {
            SteerVec2 mean = steer_scale(heading_sum, 1.0 / n);
            alignment = steer_scale(steer_sub(mean, vehicle->heading), push);
            if (radius > 0.0) cohesion = steer_scale(steer_scale(offset_sum, 1.0 / n), push / radius);
        }
        f = steer_add(f, steer_scale(alignment, p->alignment));
        force[k] = steer_add(f, steer_scale(cohesion, p->cohesion));
        slot->state.target = n == 0 ? vehicle->position : steer_add(vehicle->position, steer_scale(offset_sum, 1.0 / n));
        if (p->wander > 0.0) {
            double step = p->wander_params.jitter * dt;
            SteerVec2 w = slot->wander_local;
            w.x += steer_pcg32_signed(rng) * step;
            w.y += steer_pcg32_signed(rng) * step;
            local[k] = w;
        }
    }

    /* Stage 2: Reynolds' wander without a leash (behaviours_individual.c, wander_circle): the
     * point back on its circle, and the target ahead of the vehicle. */
    for (int k = 0; k < count; k++) {
        SteerVehicle *vehicle = vehicles[k];
        SteerBehaviourSlot *slot = &vehicle->behaviours[0];
        const SteerFlockParams *p = &slot->def.flock;
        if (!(p->wander > 0.0)) continue;
        const SteerWanderParams *w = &p->wander_params;
        SteerVec2 point = steer_scale(steer_normalize(local[k]), w->radius);
        if (steer_length_sq(point) == 0.0) point = steer_vec2(w->radius, 0.0);
        slot->wander_local = point;
        SteerVec2 ahead = steer_add(point, steer_vec2(w->distance, 0.0));
        SteerVec2 target = steer_add(vehicle->position, steer_rotate(ahead, vehicle->heading));
        slot->state.wander_target = target;
        to_target[k] = steer_sub(target, vehicle->position);
    }

    /* Stage 3: seek the wander target; the weighted sum of one behaviour (combine.c). */
    for (int k = 0; k < count; k++) {
        SteerVehicle *vehicle = vehicles[k];
        SteerBehaviourSlot *slot = &vehicle->behaviours[0];
        const SteerFlockParams *p = &slot->def.flock;
        SteerVec2 f = force[k];
        if (p->wander > 0.0) {
            const SteerWanderParams *w = &p->wander_params;
            SteerVec2 desired = w->distance == 0.0 && w->radius == 0.0
                                    ? steer_scale(vehicle->heading, vehicle->max_speed)
                                    : steer_scale(steer_normalize(to_target[k]), vehicle->max_speed);
            SteerVec2 wander = steer_scale(steer_sub(desired, vehicle->velocity), vehicle->mass / vehicle->response_time);
            f = steer_add(f, steer_scale(wander, p->wander));
        }
        f = steer_scale(f, slot->def.weight);
        slot->state.force = f;
        slot->state.evaluated = true;
        force[k] = steer_add(steer_vec2(0.0, 0.0), f);
    }

    /* Stage 4: truncated to max_force. */
    for (int k = 0; k < count; k++) {
        SteerVehicle *vehicle = vehicles[k];
        double length = steer_length(force[k]);
        double kept = length > vehicle->max_force ? vehicle->max_force / length : 1.0;
        vehicle->behaviours[0].state.kept = kept;
        vehicle->force = steer_scale(force[k], kept);
    }
}
