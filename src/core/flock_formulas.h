/* SPDX-License-Identifier: MIT */
/* flock_formulas.h - the per-vehicle formulas of flocking, wander, seek and the weighted sum's
 * truncation, each written once. The general path (behaviours_group.c, behaviours_individual.c,
 * combine.c) and the step's specialised path for plain flockers (step_flock.c) both call these, so
 * both compute the same operations in the same order: the same bits. They are static inline so
 * that step_flock.c, which runs them stage by stage over a batch of vehicles, keeps them in its
 * loops without a call each.
 *
 * Velocity matching. A behaviour that wants a velocity asks for the force that would close the gap
 * between it and the current velocity within the vehicle's response time:
 * mass·(desired - velocity)/response_time. The step then caps the sum at max_force.
 *
 * Scale of the group parts. A velocity-matching behaviour asks at most for a full change of
 * max_speed within the response time; call that push A = mass·max_speed/response_time. The
 * flocking parts are pushes in units of A, so that their weights compare with each other and with
 * seek or wander:
 *   separation  A·L·Σ r/|r|², L = SEPARATION_REACH·neighbor_radius: a neighbour at distance L
 *               pushes with A, one at 2L with A/2;
 *   alignment   A·(mean neighbour heading - own heading);
 *   cohesion    A·(offset to the neighbours' centre)/neighbor_radius: full at the radius' edge.
 * Lengths scale with neighbor_radius only, so a flock looks the same at any scale.
 *
 * Every function returns a finite force for any finite input.
 */
#ifndef STEER_FLOCK_FORMULAS_H
#define STEER_FLOCK_FORMULAS_H

#include "world_internal.h"

/// Separation's reach as a fraction of neighbor_radius (L above).
#define SEPARATION_REACH 0.25

/// mass·(desired - velocity)/response_time.
static inline SteerVec2 steer_match_velocity(const SteerVehicle *vehicle, SteerVec2 desired_velocity)
{
    SteerVec2 change = steer_sub(desired_velocity, vehicle->velocity);
    return steer_scale(change, vehicle->mass / vehicle->response_time);
}

/// Full speed along `offset` (from the vehicle to where it heads; no direction when zero).
static inline SteerVec2 steer_seek_offset(const SteerVehicle *vehicle, SteerVec2 offset)
{
    return steer_match_velocity(vehicle, steer_scale(steer_normalize(offset), vehicle->max_speed));
}

/// Full speed toward `point` (absolute coordinates already unwrapped near the vehicle).
static inline SteerVec2 steer_seek_point(const SteerVehicle *vehicle, SteerVec2 point)
{
    return steer_seek_offset(vehicle, steer_sub(point, vehicle->position));
}

/// The push A (units of force).
static inline double steer_full_push(const SteerVehicle *vehicle)
{
    return vehicle->mass * vehicle->max_speed / vehicle->response_time;
}

/// A·L·separation, from the neighbourhood's Σ r/|r|².
static inline SteerVec2 steer_separation_force(const SteerVehicle *vehicle, SteerVec2 separation)
{
    double push = steer_full_push(vehicle);
    /* Coincident neighbours were turned into unit pushes along the side (no length to scale). */
    double scale = vehicle->neighbor_radius <= 0.0 ? push : push * SEPARATION_REACH * vehicle->neighbor_radius;
    return steer_scale(separation, scale);
}

/// A·(mean neighbour heading - own heading); nothing without neighbours.
static inline SteerVec2 steer_alignment_force(const SteerVehicle *vehicle, SteerVec2 heading_sum, int count)
{
    if (count == 0) return steer_vec2(0.0, 0.0);
    SteerVec2 mean = steer_scale(heading_sum, 1.0 / count);
    return steer_scale(steer_sub(mean, vehicle->heading), steer_full_push(vehicle));
}

/// A·(offset to the neighbours' centre)/neighbor_radius; nothing without neighbours or radius.
static inline SteerVec2 steer_cohesion_force(const SteerVehicle *vehicle, SteerVec2 offset_sum, int count)
{
    if (count == 0 || vehicle->neighbor_radius <= 0.0) return steer_vec2(0.0, 0.0);
    SteerVec2 to_centre = steer_scale(offset_sum, 1.0 / count);
    return steer_scale(to_centre, steer_full_push(vehicle) / vehicle->neighbor_radius);
}

/// The neighbours' centre (the inspector's target); the vehicle's own position without any.
static inline SteerVec2 steer_neighbours_centre(const SteerVehicle *vehicle, SteerVec2 offset_sum, int count)
{
    if (count == 0) return vehicle->position;
    return steer_add(vehicle->position, steer_scale(offset_sum, 1.0 / count));
}

/// Flock's three group parts, weighted by its parameters (wander is added by the caller).
static inline SteerVec2 steer_flock_group_force(const SteerVehicle *vehicle, const SteerFlockParams *p,
                                                SteerVec2 separation, SteerVec2 heading_sum, SteerVec2 offset_sum,
                                                int count)
{
    SteerVec2 force = steer_scale(steer_separation_force(vehicle, separation), p->separation);
    force = steer_add(force, steer_scale(steer_alignment_force(vehicle, heading_sum, count), p->alignment));
    return steer_add(force, steer_scale(steer_cohesion_force(vehicle, offset_sum, count), p->cohesion));
}

/* Reynolds' wander: a point on a circle ahead of the vehicle (in the vehicle's frame), nudged at
 * random each step, then put back on the circle; the vehicle seeks it. Three stages, so that
 * step_flock.c can run each over a batch. */

/// The point nudged by up to jitter·dt on each axis, two draws from `rng` (x first).
static inline SteerVec2 steer_wander_jitter(SteerVec2 local, SteerPcg32 *rng, double step)
{
    local.x += steer_pcg32_signed(rng) * step;
    local.y += steer_pcg32_signed(rng) * step;
    return local;
}

/// The nudged point back on the circle of `radius`; on its right-hand edge when it had no direction.
static inline SteerVec2 steer_wander_on_circle(SteerVec2 local, double radius)
{
    SteerVec2 point = steer_scale(steer_normalize(local), radius);
    if (steer_length_sq(point) == 0.0) point = steer_vec2(radius, 0.0);
    return point;
}

/// The point on the circle `distance` ahead, in world coordinates.
static inline SteerVec2 steer_wander_target(const SteerVehicle *vehicle, SteerVec2 point, double distance)
{
    SteerVec2 ahead = steer_add(point, steer_vec2(distance, 0.0));
    return steer_add(vehicle->position, steer_rotate(ahead, vehicle->heading));
}

/// Wander's force: seek the target (`to_target` from the vehicle); with no circle at all, full
/// speed straight on.
static inline SteerVec2 steer_wander_seek(const SteerVehicle *vehicle, const SteerWanderParams *w, SteerVec2 to_target)
{
    if (w->distance == 0.0 && w->radius == 0.0)
        return steer_match_velocity(vehicle, steer_scale(vehicle->heading, vehicle->max_speed));
    return steer_seek_offset(vehicle, to_target);
}

/// The weighted sum's truncation: the factor that brings a total of `length` down to max_force.
static inline double steer_truncation_kept(const SteerVehicle *vehicle, double length)
{
    return length > vehicle->max_force ? vehicle->max_force / length : 1.0;
}

#endif
