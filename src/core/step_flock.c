/* step_flock.c - the step's specialised path for the common case of a flock: a vehicle whose only
 * behaviour is flock (wander without a leash) under the weighted sum (DESIGN.md "Speed": a
 * specialised path for the common case beside the general one).
 *
 * It computes exactly what the general path computes - the same operations in the same order, so
 * the same bits, and the same inspector state (force, kept, evaluated, target, wander_target) -
 * but straight from the packed neighbourhood the step's pre-pass summed, without the dispatch
 * through combine -> behaviour -> group -> flock -> neighbourhood lookup (which finds the vehicle's
 * grid index with an integer division) -> wander -> seek. Anything else goes the general way.
 */
#include "behaviours_internal.h"

#define SEPARATION_REACH 0.25 /* as in behaviours_group.c */

bool steer_flock_step_force(SteerWorld *world, SteerVehicle *vehicle, int pool_slot, SteerVec2 *out)
{
    if (vehicle->behaviour_count != 1 || vehicle->combine != STEER_COMBINE_WEIGHTED || !world->hoods_ready ||
        !vehicle->wants_neighbourhood)
        return false;
    SteerBehaviourSlot *slot = &vehicle->behaviours[0];
    const SteerFlockParams *p = &slot->def.flock;
    if (slot->def.type != STEER_FLOCK || slot->lost || p->wander_params.leash != STEER_LEASH_NONE) return false;

    const SteerPackedNeighbourhood *packed = &world->grid.hood[world->grid.where[pool_slot]];
    SteerVec2 separation = steer_vec2(packed->separation[0], packed->separation[1]);
    SteerVec2 heading_sum = steer_vec2(packed->heading_sum[0], packed->heading_sum[1]);
    SteerVec2 offset_sum = steer_vec2(packed->offset_sum[0], packed->offset_sum[1]);
    int count = packed->count;

    /* separation, alignment, cohesion (behaviours_group.c) */
    double push = vehicle->mass * vehicle->max_speed / vehicle->response_time;
    double radius = vehicle->neighbor_radius;
    double scale = radius <= 0.0 ? push : push * SEPARATION_REACH * radius;
    SteerVec2 force = steer_scale(steer_scale(separation, scale), p->separation);
    SteerVec2 alignment = steer_vec2(0.0, 0.0), cohesion = steer_vec2(0.0, 0.0);
    if (count != 0) {
        SteerVec2 mean = steer_scale(heading_sum, 1.0 / count);
        alignment = steer_scale(steer_sub(mean, vehicle->heading), push);
        if (radius > 0.0) cohesion = steer_scale(steer_scale(offset_sum, 1.0 / count), push / radius);
    }
    force = steer_add(force, steer_scale(alignment, p->alignment));
    force = steer_add(force, steer_scale(cohesion, p->cohesion));

    if (p->wander > 0.0) {
        /* Reynolds' wander without a leash (behaviours_individual.c, wander_circle) */
        const SteerWanderParams *w = &p->wander_params;
        double step = w->jitter * world->def.dt;
        SteerVec2 local = slot->wander_local;
        local.x += steer_pcg32_signed(&world->rng) * step;
        local.y += steer_pcg32_signed(&world->rng) * step;
        local = steer_scale(steer_normalize(local), w->radius);
        if (steer_length_sq(local) == 0.0) local = steer_vec2(w->radius, 0.0);
        slot->wander_local = local;
        SteerVec2 ahead = steer_add(local, steer_vec2(w->distance, 0.0));
        SteerVec2 target = steer_add(vehicle->position, steer_rotate(ahead, vehicle->heading));
        slot->state.wander_target = target;
        SteerVec2 desired = w->distance == 0.0 && w->radius == 0.0
                                ? steer_scale(vehicle->heading, vehicle->max_speed)
                                : steer_scale(steer_normalize(steer_sub(target, vehicle->position)), vehicle->max_speed);
        SteerVec2 wander = steer_scale(steer_sub(desired, vehicle->velocity), vehicle->mass / vehicle->response_time);
        force = steer_add(force, steer_scale(wander, p->wander));
    }
    slot->state.target = count == 0 ? vehicle->position : steer_add(vehicle->position, steer_scale(offset_sum, 1.0 / count));

    /* the weighted sum of one behaviour (combine.c) */
    force = steer_scale(force, slot->def.weight);
    slot->state.force = force;
    slot->state.evaluated = true;
    SteerVec2 total = steer_add(steer_vec2(0.0, 0.0), force);
    double length = steer_length(total);
    double kept = length > vehicle->max_force ? vehicle->max_force / length : 1.0;
    slot->state.kept = kept;
    *out = steer_scale(total, kept);
    return true;
}
