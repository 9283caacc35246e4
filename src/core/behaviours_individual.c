/* SPDX-License-Identifier: MIT */
/* behaviours_individual.c - behaviours of one vehicle about points and other vehicles: seek, flee,
 * arrive, pursue, evade, offset pursuit, interpose, hide and wander (with its leash).
 * Formulas: Reynolds (1999) and Buckland (Programming Game AI by Example, 2005). */
#include "behaviours_internal.h"

SteerVec2 steer_flee_point(const SteerVehicle *vehicle, SteerVec2 point)
{
    SteerVec2 away = steer_normalize(steer_sub(vehicle->position, point));
    if (steer_length_sq(away) == 0.0) away = vehicle->heading; /* on top of it: run the way we face */
    return steer_match_velocity(vehicle, steer_scale(away, vehicle->max_speed));
}

SteerVec2 steer_arrive_velocity(const SteerVehicle *vehicle, SteerVec2 point, double slowing_radius)
{
    SteerVec2 to_target = steer_sub(point, vehicle->position);
    double distance = steer_length(to_target);
    if (distance < 1e-9) return steer_vec2(0.0, 0.0);
    double speed = vehicle->max_speed;
    if (distance < slowing_radius) speed *= distance / slowing_radius; /* slowing_radius > 0 here */
    return steer_scale(to_target, speed / distance);
}

SteerVec2 steer_arrive_point(const SteerVehicle *vehicle, SteerVec2 point, double slowing_radius)
{
    return steer_match_velocity(vehicle, steer_arrive_velocity(vehicle, point, slowing_radius));
}

/// Seconds a pursuer needs to reach a target: Buckland's lookahead, distance / speed sum.
static double lookahead(const SteerVehicle *vehicle, SteerVec2 to_target, SteerVec2 target_velocity)
{
    return steer_length(to_target) / (vehicle->max_speed + steer_length(target_velocity));
}

STEER_BEHAVIOUR_FORCE(pursue)
{
    const SteerVehicle *target = steer_vehicle_lookup(world, slot->def.pursue.target.vehicle);
    SteerVec2 position, velocity;
    steer_resolve_target(world, vehicle->position, slot->def.pursue.target, &position, &velocity);
    SteerVec2 to_target = steer_sub(position, vehicle->position);
    /* Ahead of us and coming straight at us: just head for it. */
    double relative_heading = steer_dot(vehicle->heading, target->heading);
    if (steer_dot(to_target, vehicle->heading) > 0.0 && relative_heading < -0.95) {
        slot->state.target = position;
        return steer_seek_point(vehicle, position);
    }
    SteerVec2 future = steer_add(position, steer_scale(velocity, lookahead(vehicle, to_target, velocity)));
    slot->state.target = future;
    return steer_seek_point(vehicle, future);
}

STEER_BEHAVIOUR_FORCE(evade)
{
    SteerVec2 position, velocity;
    steer_resolve_target(world, vehicle->position, slot->def.evade.target, &position, &velocity);
    SteerVec2 to_threat = steer_sub(position, vehicle->position);
    double range = slot->def.evade.threat_range;
    if (range > 0.0 && steer_length_sq(to_threat) > range * range) return steer_vec2(0.0, 0.0);
    SteerVec2 future = steer_add(position, steer_scale(velocity, lookahead(vehicle, to_threat, velocity)));
    slot->state.target = future;
    return steer_flee_point(vehicle, future);
}

/* Buckland arrives at the leader's predicted offset point, which leaves a follower lagging by
 * the distance at which arrive's speed matches the leader's. Here the follower matches the
 * leader's velocity and adds an arrive correction toward the offset point, so it holds the slot
 * exactly once it is there. */
STEER_BEHAVIOUR_FORCE(offset_pursue)
{
    const SteerOffsetPursueParams *p = &slot->def.offset_pursue;
    const SteerVehicle *leader = steer_vehicle_lookup(world, p->target.vehicle);
    SteerVec2 position, velocity;
    steer_resolve_target(world, vehicle->position, p->target, &position, &velocity);
    SteerVec2 spot = steer_add(position, steer_rotate(p->offset, leader->heading));
    slot->state.target = spot;
    SteerVec2 desired = steer_add(velocity, steer_arrive_velocity(vehicle, spot, p->slowing_radius));
    return steer_match_velocity(vehicle, steer_truncate(desired, vehicle->max_speed));
}

STEER_BEHAVIOUR_FORCE(interpose)
{
    const SteerInterposeParams *p = &slot->def.interpose;
    SteerVec2 pa, va, pb, vb;
    steer_resolve_target(world, vehicle->position, p->a, &pa, &va);
    steer_resolve_target(world, vehicle->position, p->b, &pb, &vb);
    /* Where will the two be by the time we reach their current midpoint? Aim between those. */
    SteerVec2 midpoint = steer_scale(steer_add(pa, pb), 0.5);
    double time = steer_distance(midpoint, vehicle->position) / vehicle->max_speed;
    SteerVec2 future_a = steer_add(pa, steer_scale(va, time));
    SteerVec2 future_b = steer_add(pb, steer_scale(vb, time));
    SteerVec2 spot = steer_scale(steer_add(future_a, future_b), 0.5);
    slot->state.target = spot;
    return steer_arrive_point(vehicle, spot, p->slowing_radius);
}

STEER_BEHAVIOUR_FORCE(hide)
{
    const SteerHideParams *p = &slot->def.hide;
    SteerVec2 hunter, hunter_velocity;
    steer_resolve_target(world, vehicle->position, p->target, &hunter, &hunter_velocity);
    bool found = false;
    SteerVec2 best = {0.0, 0.0};
    double best_distance_sq = INFINITY;
    for (int i = 0; i < world->obstacles.count; i++) {
        const SteerObstacle *obstacle = steer_pool_at(&world->obstacles, i);
        if (!obstacle->header.alive) continue;
        SteerVec2 center = steer_add(vehicle->position, steer_world_offset(world, vehicle->position, obstacle->center));
        SteerVec2 away = steer_normalize(steer_sub(center, hunter));
        if (steer_length_sq(away) == 0.0) continue; /* the hunter stands inside it: nowhere to hide */
        SteerVec2 spot = steer_add(center, steer_scale(away, obstacle->radius + p->distance + vehicle->radius));
        double distance_sq = steer_distance_sq(spot, vehicle->position);
        if (distance_sq < best_distance_sq) {
            best_distance_sq = distance_sq;
            best = spot;
            found = true;
        }
    }
    if (!found) {
        /* No cover: run from the hunter as evade would. */
        SteerVec2 to_hunter = steer_sub(hunter, vehicle->position);
        SteerVec2 future =
            steer_add(hunter, steer_scale(hunter_velocity, lookahead(vehicle, to_hunter, hunter_velocity)));
        slot->state.target = future;
        return steer_flee_point(vehicle, future);
    }
    slot->state.target = best;
    return steer_arrive_point(vehicle, best, p->slowing_radius);
}

/// Reynolds' wander: a target on a circle ahead of the vehicle, nudged at random each step
/// (the formulas in flock_formulas.h, shared with step_flock.c).
static SteerVec2 wander_circle(SteerWorld *world, SteerVehicle *vehicle, SteerBehaviourSlot *slot,
                               const SteerWanderParams *w, double dt)
{
    SteerVec2 local = steer_wander_jitter(slot->wander_local, steer_step_rng(world, vehicle), w->jitter * dt);
    SteerVec2 point = steer_wander_on_circle(local, w->radius);
    slot->wander_local = point;
    SteerVec2 target = steer_wander_target(vehicle, point, w->distance);
    slot->state.wander_target = target;
    slot->state.target = target;
    return steer_wander_seek(vehicle, w, steer_sub(target, vehicle->position));
}

SteerVec2 steer_wander_force(SteerWorld *world, SteerVehicle *vehicle, SteerBehaviourSlot *slot,
                             const SteerWanderParams *w)
{
    double dt = world->def.dt;
    SteerVec2 anchor = vehicle->position; /* only a leash needs the anchor (and the wrapped offset to it) */
    if (w->leash != STEER_LEASH_NONE) {
        anchor = w->has_anchor ? w->anchor : vehicle->spawn;
        anchor = steer_add(vehicle->position, steer_world_offset(world, vehicle->position, anchor));
    }

    if (w->leash == STEER_LEASH_ROAM) {
        /* 004, method 2: a point driven by smooth noise roams around the anchor; seek it. */
        slot->roam_time += w->roam_rate * dt;
        double t = slot->roam_time;
        SteerVec2 offset = steer_vec2(steer_noise1(world->noise_seed, slot->noise_offset.x + t),
                                      steer_noise1(world->noise_seed ^ 0xa5a5a5a5ULL, slot->noise_offset.y + t));
        offset = steer_truncate(steer_scale(offset, w->max_distance), w->max_distance);
        SteerVec2 target = steer_add(anchor, offset);
        slot->state.wander_target = target;
        slot->state.target = target;
        return steer_seek_point(vehicle, target);
    }

    SteerVec2 force = wander_circle(world, vehicle, slot, w, dt);
    if (w->leash == STEER_LEASH_PULL) {
        /* 004, method 1: past return_radius a pull toward the anchor grows, full at twice it. */
        double distance = steer_distance(anchor, vehicle->position);
        double pull = (distance - w->return_radius) / w->return_radius;
        if (pull > 0.0) {
            if (pull > 1.0) pull = 1.0;
            force = steer_add(force, steer_scale(steer_seek_point(vehicle, anchor), pull));
        }
    }
    return force;
}

STEER_BEHAVIOUR_FORCE(seek)
{
    SteerVec2 point;
    steer_resolve_target(world, vehicle->position, slot->def.seek.target, &point, NULL);
    slot->state.target = point;
    return steer_seek_point(vehicle, point);
}

STEER_BEHAVIOUR_FORCE(flee)
{
    const SteerFleeParams *p = &slot->def.flee;
    SteerVec2 point;
    steer_resolve_target(world, vehicle->position, p->target, &point, NULL);
    slot->state.target = point;
    if (p->panic_distance > 0.0 && steer_distance_sq(point, vehicle->position) > p->panic_distance * p->panic_distance)
        return steer_vec2(0.0, 0.0);
    return steer_flee_point(vehicle, point);
}

STEER_BEHAVIOUR_FORCE(arrive)
{
    SteerVec2 point;
    steer_resolve_target(world, vehicle->position, slot->def.arrive.target, &point, NULL);
    slot->state.target = point;
    return steer_arrive_point(vehicle, point, slot->def.arrive.slowing_radius);
}

STEER_BEHAVIOUR_FORCE(wander) { return steer_wander_force(world, vehicle, slot, &slot->def.wander); }
