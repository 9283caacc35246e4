/* SPDX-License-Identifier: MIT */
/* behaviours_group.c - behaviours about neighbours: separation, alignment, cohesion, flocking,
 * leader following, queueing and unaligned collision avoidance.
 * Formulas: Reynolds (1987, 1999) and Buckland (Programming Game AI by Example, 2005).
 * Separation, alignment and cohesion, their scale and units, are in flock_formulas.h, shared with
 * the step's flock path (step_flock.c).
 */
#include <string.h>

#include "behaviours_internal.h"

static SteerVec2 separation_force(const SteerVehicle *vehicle, const SteerNeighbourhood *n)
{
    return steer_separation_force(vehicle, n->separation);
}

static SteerVec2 centre_of(const SteerVehicle *vehicle, const SteerNeighbourhood *n)
{
    return steer_neighbours_centre(vehicle, n->offset_sum, n->count);
}

STEER_BEHAVIOUR_FORCE(separate)
{
    const SteerSeparateParams *p = &slot->def.separate;
    SteerNeighbourhood n;
    steer_neighbourhood(world, vehicle, -1, p->comfort_distance, p->comfort_multiplier, &n);
    SteerVec2 force = separation_force(vehicle, &n);
    slot->state.target = centre_of(vehicle, &n);
    return force;
}

STEER_BEHAVIOUR_FORCE(align)
{
    SteerNeighbourhood n;
    steer_neighbourhood(world, vehicle, -1, 0.0, 1.0, &n);
    slot->state.target = steer_add(vehicle->position, steer_scale(n.heading_sum, n.count ? 1.0 / n.count : 0.0));
    return steer_alignment_force(vehicle, n.heading_sum, n.count);
}

STEER_BEHAVIOUR_FORCE(cohere)
{
    SteerNeighbourhood n;
    steer_neighbourhood(world, vehicle, -1, 0.0, 1.0, &n);
    slot->state.target = centre_of(vehicle, &n);
    return steer_cohesion_force(vehicle, n.offset_sum, n.count);
}

/* Flocking: the three from one pass over the neighbours, plus wander so that a flock meanders
 * instead of flying straight forever. */
STEER_BEHAVIOUR_FORCE(flock)
{
    const SteerFlockParams *p = &slot->def.flock;
    SteerNeighbourhood n;
    steer_neighbourhood(world, vehicle, -1, 0.0, 1.0, &n);
    SteerVec2 force = steer_flock_group_force(vehicle, p, n.separation, n.heading_sum, n.offset_sum, n.count);
    if (p->wander > 0.0)
        force = steer_add(force, steer_scale(steer_wander_force(world, vehicle, slot, &p->wander_params), p->wander));
    slot->state.target = centre_of(vehicle, &n);
    return force;
}

/* Leader following: arrive at a point `behind` units behind the leader; when standing
 * in front of it (within sight_radius of the point as far ahead, or of the leader while ahead of
 * it), step sideways out of its path instead; and keep apart from the other followers and the
 * leader (separation, weighted by `separation`). */
STEER_BEHAVIOUR_FORCE(follow_leader)
{
    const SteerFollowLeaderParams *p = &slot->def.follow_leader;
    const SteerVehicle *leader = steer_vehicle_lookup(world, p->target.vehicle);
    SteerVec2 position, velocity;
    steer_resolve_target(world, vehicle->position, p->target, &position, &velocity);
    SteerVec2 direction = steer_length_sq(velocity) > 1e-6 ? steer_normalize(velocity) : leader->heading;
    SteerVec2 behind = steer_sub(position, steer_scale(direction, p->behind));
    SteerVec2 ahead = steer_add(position, steer_scale(direction, p->behind));
    SteerVec2 from_leader = steer_sub(vehicle->position, position);
    double sight_sq = p->sight_radius * p->sight_radius;
    bool in_the_way = steer_distance_sq(vehicle->position, ahead) <= sight_sq ||
                      (steer_length_sq(from_leader) <= sight_sq && steer_dot(from_leader, direction) > 0.0);

    SteerVec2 force;
    if (in_the_way) {
        /* Sideways, away from the line the leader moves along; straight on it, to the leader's
         * right if this follower's serial is even, left if odd, so a crowd splits both ways. */
        SteerVec2 lateral = steer_sub(from_leader, steer_scale(direction, steer_dot(from_leader, direction)));
        SteerVec2 out = steer_normalize(lateral);
        if (steer_length_sq(out) == 0.0)
            out = steer_scale(steer_perp(direction), (steer_vehicle_cold(world, vehicle)->serial & 1u) ? -1.0 : 1.0);
        slot->state.target = steer_add(vehicle->position, steer_scale(out, p->sight_radius));
        force = steer_match_velocity(vehicle, steer_scale(out, vehicle->max_speed));
    } else {
        /* Match the leader's velocity and close the gap to the spot: no lag once there. */
        slot->state.target = behind;
        SteerVec2 desired = steer_add(velocity, steer_arrive_velocity(vehicle, behind, p->slowing_radius));
        force = steer_match_velocity(vehicle, steer_truncate(desired, vehicle->max_speed));
    }
    if (p->separation > 0.0) {
        /* Apart from the other followers, and from the leader too (it may not be of a kind this
         * vehicle flocks with, but a follower must not sit on it): counted once either way. */
        SteerNeighbourhood n;
        steer_neighbourhood(world, vehicle, steer_vehicle_slot(world, leader), 0.0, 1.0, &n);
        double distance_sq = steer_length_sq(from_leader);
        if (distance_sq <= vehicle->neighbor_radius * vehicle->neighbor_radius && distance_sq > 1e-12)
            n.separation = steer_add(n.separation, steer_scale(from_leader, 1.0 / distance_sq));
        force = steer_add(force, steer_scale(separation_force(vehicle, &n), p->separation));
    }
    return force;
}

/* Queueing: when someone slower stands just ahead - within `radius` of the stretch
 * `ahead` units long in front of the vehicle - brake, removing `braking` of the velocity per step.
 * The usual formulation scales the velocity directly; a force that does the same keeps the step the only
 * place that changes velocity (and max_force still bounds it). */
STEER_BEHAVIOUR_FORCE(queue)
{
    const SteerQueueParams *p = &slot->def.queue;
    const SteerGrid *g = steer_world_grid(world);
    double speed_sq = steer_length_sq(vehicle->velocity);
    SteerVec2 direction = speed_sq > 1e-6 ? steer_normalize(vehicle->velocity) : vehicle->heading;
    slot->state.target = steer_add(vehicle->position, steer_scale(direction, p->ahead));
    if (speed_sq <= 1e-6) return steer_vec2(0.0, 0.0);

    int self = g->where[steer_vehicle_slot(world, vehicle)];
    uint64_t kinds = steer_flock_kinds(vehicle);
    double px = g->entry[self].x, py = g->entry[self].y;
    double radius_sq = p->radius * p->radius;
    SteerGridCursor cursor;
    SteerGridRun run;
    steer_grid_cursor_begin(&cursor, g, px, py, p->ahead + p->radius);
    while (steer_grid_cursor_next(&cursor, &run)) {
        for (int j = run.begin; j < run.end; j++) {
            if (j == self || !((kinds >> g->entry[j].kind) & 1u)) continue;
            SteerVec2 d = steer_vec2(g->entry[j].x + run.shift_x - px, g->entry[j].y + run.shift_y - py);
            if (cursor.wrap_each)
                d = steer_vec2(steer_grid_wrap_delta(d.x, g->width), steer_grid_wrap_delta(d.y, g->height));
            double along = steer_dot(d, direction);
            if (along <= 0.0) continue; /* beside or behind: not in the way */
            double reach = along < p->ahead ? along : p->ahead;
            if (steer_distance_sq(d, steer_scale(direction, reach)) > radius_sq) continue;
            if (g->entry[j].vx * g->entry[j].vx + g->entry[j].vy * g->entry[j].vy >= speed_sq)
                continue; /* faster: it gets away */
            return steer_scale(vehicle->velocity, -p->braking * vehicle->mass / world->def.dt);
        }
    }
    return steer_vec2(0.0, 0.0);
}

/* Unaligned collision avoidance (Reynolds 1999): predict, for every vehicle that could come close
 * within the horizon, when the two are nearest; if that is closer than the sum of the radii, steer
 * away from where the other will be then. Only the soonest such threat counts. */
STEER_BEHAVIOUR_FORCE(avoid_collisions)
{
    double horizon = slot->def.avoid_collisions.horizon;
    const SteerGrid *g = steer_world_grid(world);
    int self = g->where[steer_vehicle_slot(world, vehicle)];
    uint64_t kinds = steer_flock_kinds(vehicle);
    double px = g->entry[self].x, py = g->entry[self].y;
    SteerVec2 v = vehicle->velocity;
    double reach = horizon * (steer_length(v) + g->max_speed) + vehicle->radius + g->max_radius;

    double soonest = INFINITY;
    SteerVec2 away = {0.0, 0.0}, threat_at = {0.0, 0.0};
    SteerGridCursor cursor;
    SteerGridRun run;
    steer_grid_cursor_begin(&cursor, g, px, py, reach);
    while (steer_grid_cursor_next(&cursor, &run)) {
        for (int j = run.begin; j < run.end; j++) {
            if (j == self || !((kinds >> g->entry[j].kind) & 1u)) continue;
            SteerVec2 d = steer_vec2(g->entry[j].x + run.shift_x - px, g->entry[j].y + run.shift_y - py);
            if (cursor.wrap_each)
                d = steer_vec2(steer_grid_wrap_delta(d.x, g->width), steer_grid_wrap_delta(d.y, g->height));
            SteerVec2 dv = steer_vec2(g->entry[j].vx - v.x, g->entry[j].vy - v.y);
            double dv_sq = steer_length_sq(dv);
            /* Moving together: the distance never changes, nothing to predict. */
            double t = dv_sq > 1e-9 ? -steer_dot(d, dv) / dv_sq : 0.0;
            if (t < 0.0 || t > horizon || t >= soonest) continue;
            SteerVec2 gap = steer_add(d, steer_scale(dv, t)); /* from us to it, at closest approach */
            double clear = vehicle->radius + g->entry[j].radius;
            if (steer_length_sq(gap) > clear * clear) continue;
            soonest = t;
            away = steer_neg(gap);
            /* Dead on course for the same point at the same time (a symmetric crossing): turning
             * aside by the same rule would keep it symmetric. The one created first speeds up,
             * the other brakes, so it passes behind. */
            if (steer_length_sq(away) < 1e-6 * clear * clear) {
                SteerVec2 ahead = steer_length_sq(v) > 1e-12 ? steer_normalize(v) : vehicle->heading;
                away = steer_scale(ahead, g->entry[self].rank < g->entry[j].rank ? 1.0 : -1.0);
            }
            threat_at =
                steer_add(vehicle->position, steer_add(d, steer_scale(steer_vec2(g->entry[j].vx, g->entry[j].vy), t)));
        }
    }
    if (!isfinite(soonest)) return steer_vec2(0.0, 0.0);
    slot->state.target = threat_at;
    /* Sooner is more urgent: full push now, a quarter of it at the horizon. */
    double urgency = 1.0 - 0.75 * soonest / horizon;
    return steer_scale(steer_normalize(away), steer_full_push(vehicle) * urgency);
}
