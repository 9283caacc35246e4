/* SPDX-License-Identifier: MIT */
/* behaviours_navigation.c - behaviours about the static world: path following, obstacle and wall
 * avoidance, containment in the bounds and flow-field following. */
#include "behaviours_internal.h"

STEER_BEHAVIOUR_FORCE(follow)
{
    const SteerFollowParams *p = &slot->def.follow;
    const SteerPath *path = steer_pool_get(&world->paths, p->path.index1, p->path.generation);
    int count = path->count;
    int last = count - 1;
    bool loop = path->loop && count > 1; /* a one-point loop would orbit its point forever */
    if (slot->waypoint > last) slot->waypoint = last;

    SteerVec2 near = vehicle->position;
    SteerVec2 point = steer_add(near, steer_world_offset(world, near, path->points[slot->waypoint]));
    bool at_end = !loop && slot->waypoint == last;
    /* At most one waypoint per step: a waypoint is never skipped, even by a fast vehicle. */
    if (!at_end && steer_distance_sq(point, vehicle->position) <= p->waypoint_radius * p->waypoint_radius) {
        slot->waypoint = loop ? (slot->waypoint + 1) % count : slot->waypoint + 1;
        point = steer_add(near, steer_world_offset(world, near, path->points[slot->waypoint]));
        at_end = !loop && slot->waypoint == last;
    }
    slot->detail.waypoint = slot->waypoint;
    slot->state.target = point;
    if (at_end) return steer_arrive_point(vehicle, point, p->slowing_radius);
    return steer_seek_point(vehicle, point);
}

/// The velocity change that keeps a vehicle off something `depth` (0..1+) into its clearance band,
/// in direction `away`: cancel any approach at once, then back off harder the deeper it is.
static SteerVec2 body_push(const SteerVehicle *vehicle, SteerVec2 away, double depth)
{
    double approach = -steer_dot(vehicle->velocity, away);
    double out = vehicle->max_speed * (depth > 1.0 ? 1.0 : depth);
    if (approach > 0.0) out += approach;
    return steer_scale(away, out);
}

/* Buckland's detection box: a rectangle ahead of the vehicle, as wide as the vehicle and longer
 * the faster it goes. The closest obstacle crossing it is avoided by steering sideways (harder
 * the closer it is) and braking. */
STEER_BEHAVIOUR_FORCE(avoid_obstacles)
{
    const SteerAvoidObstaclesParams *p = &slot->def.avoid_obstacles;
    double speed = steer_length(vehicle->velocity);
    double box = p->detection_length * (1.0 + speed / vehicle->max_speed);
    slot->detail.box_length = box;

    /* Besides the box, a body check: an obstacle within `clearance` of the vehicle's edge pushes
     * it straight out, at full strength when touching. The box alone lets a vehicle graze an
     * obstacle that it is passing, when another behaviour pulls it sideways. */
    double clearance = vehicle->radius > 2.0 ? vehicle->radius : 2.0;
    SteerVec2 push = {0.0, 0.0};

    bool found = false;
    double closest = INFINITY;
    SteerVec2 closest_local = {0.0, 0.0};
    double closest_expanded = 0.0;
    /* Only obstacles whose centre is within box + 2·(radii) + clearance can touch the box or the
     * body check: ask the obstacle grid for those (in slot order, as a scan would visit them). */
    const SteerShapeGrid *grid = steer_world_obstacle_grid(world);
    int candidates = world->obstacles.count;
    if (grid) {
        double reach = box + 2.0 * (grid->max_radius + vehicle->radius) + clearance;
        SteerVec2 lo = steer_sub(vehicle->position, steer_vec2(reach, reach));
        SteerVec2 hi = steer_add(vehicle->position, steer_vec2(reach, reach));
        candidates = steer_shape_grid_candidates(grid, lo, hi);
    }
    for (int c = 0; c < candidates; c++) {
        int i = grid ? grid->result[c] : c;
        const SteerObstacle *obstacle = steer_pool_at(&world->obstacles, i);
        if (!obstacle->header.alive) continue;
        double expanded = obstacle->radius + vehicle->radius;
        SteerVec2 offset = steer_world_offset(world, vehicle->position, obstacle->center);
        double distance_sq = steer_length_sq(offset);
        if (distance_sq < (expanded + clearance) * (expanded + clearance)) {
            double distance = sqrt(distance_sq);
            SteerVec2 away =
                distance > 1e-9 ? steer_scale(offset, -1.0 / distance) : steer_neg(steer_vehicle_side(vehicle));
            double depth = (expanded + clearance - distance) / clearance;
            push = steer_add(push, body_push(vehicle, away, depth));
        }
        SteerVec2 local = steer_unrotate(offset, vehicle->heading);
        /* Beside or behind us still counts while it overlaps our sides: turning could hit it. */
        if (local.x + expanded < 0.0 || local.x - expanded > box) continue;
        if (fabs(local.y) >= expanded) continue;
        double half_chord = sqrt(expanded * expanded - local.y * local.y);
        double hit = local.x - half_chord;
        if (hit <= 0.0) hit = local.x + half_chord;
        if (hit < closest) {
            closest = hit;
            closest_local = local;
            closest_expanded = expanded;
            found = true;
        }
    }
    SteerVec2 body = steer_scale(push, vehicle->mass / vehicle->response_time);
    if (!found) return body;

    double ahead = closest > 0.0 ? closest : 0.0; /* where the box first meets the obstacle */
    double urgency = 1.0 + (box - ahead) / box;   /* 1 at the far end of the box, 2 touching it */
    double side = closest_local.y > 0.0 ? -1.0 : 1.0;
    double overlap = (closest_expanded - fabs(closest_local.y)) / closest_expanded;
    double lateral = side * vehicle->max_speed * overlap * urgency;
    double braking = closest_local.x > 0.0 ? -p->braking * speed * (box - ahead) / box : 0.0;
    SteerVec2 change = steer_rotate(steer_vec2(braking, lateral), vehicle->heading);
    slot->state.target = steer_add(vehicle->position, steer_rotate(closest_local, vehicle->heading));
    return steer_add(body, steer_scale(change, vehicle->mass / vehicle->response_time));
}

/// Where segment p0-p1 crosses q0-q1, as a fraction t of p0-p1; false when they do not cross.
static bool segments_cross(SteerVec2 p0, SteerVec2 p1, SteerVec2 q0, SteerVec2 q1, double *t)
{
    SteerVec2 r = steer_sub(p1, p0), s = steer_sub(q1, q0);
    double denominator = steer_cross(r, s);
    if (fabs(denominator) < 1e-12) return false; /* parallel */
    SteerVec2 qp = steer_sub(q0, p0);
    double tp = steer_cross(qp, s) / denominator;
    double tq = steer_cross(qp, r) / denominator;
    if (tp < 0.0 || tp > 1.0 || tq < 0.0 || tq > 1.0) return false;
    *t = tp;
    return true;
}

/// Distance from point p to segment a-b and the unit direction from the segment to p.
static double segment_distance(SteerVec2 p, SteerVec2 a, SteerVec2 b, SteerVec2 normal, SteerVec2 *away)
{
    SteerVec2 ab = steer_sub(b, a);
    double t = steer_dot(steer_sub(p, a), ab) / steer_length_sq(ab);
    if (t < 0.0) t = 0.0;
    if (t > 1.0) t = 1.0;
    SteerVec2 closest = steer_add(a, steer_scale(ab, t));
    SteerVec2 delta = steer_sub(p, closest);
    double distance = steer_length(delta);
    *away = distance > 1e-9 ? steer_scale(delta, 1.0 / distance) : normal;
    return distance;
}

void steer_wall_feelers(SteerVec2 heading, double radius, double feeler_length, SteerVec2 directions[3],
                        double lengths[3])
{
    const double diagonal = 0.70710678118654752;
    directions[0] = heading;
    directions[1] = steer_rotate(steer_vec2(diagonal, -diagonal), heading);
    directions[2] = steer_rotate(steer_vec2(diagonal, diagonal), heading);
    lengths[0] = feeler_length + radius;
    lengths[1] = 0.5 * feeler_length + radius;
    lengths[2] = 0.5 * feeler_length + radius;
}

/* Buckland's feelers: three probes (ahead, and half as long at ±45°). A feeler that crosses a wall
 * pushes along the wall's normal, on the vehicle's side, in proportion to how far it overshoots.
 * A body check catches what the feelers miss (a wall end brushing the vehicle's side). */
STEER_BEHAVIOUR_FORCE(avoid_walls)
{
    const SteerAvoidWallsParams *p = &slot->def.avoid_walls;
    SteerVec2 directions[3];
    double lengths[3];
    steer_wall_feelers(vehicle->heading, vehicle->radius, p->feeler_length, directions, lengths);
    double width = vehicle->radius + 2.0;                             /* of the wall-end check below */
    double clearance = vehicle->radius > 2.0 ? vehicle->radius : 2.0; /* of the body check */

    /* Every wall any check below can act on has a point within `reach` of the vehicle: a feeler's
     * crossing (within the longest feeler), an end in the end check's box (lengths[0] ahead,
     * `width` aside) or the point nearest the body (radius + clearance). Ask the wall grid for
     * those, in slot order as a scan would visit them: walls further out change nothing, so the
     * forces are those of a scan of every wall, to the bit. The margin covers rounding. */
    const SteerShapeGrid *grid = steer_world_wall_grid(world);
    int candidates = world->walls.count;
    if (grid) {
        double longest = fmax(lengths[0], fmax(lengths[1], lengths[2]));
        double reach = fmax(hypot(longest, width), vehicle->radius + clearance);
        SteerVec2 at = vehicle->position;
        reach += 1e-6 * (reach + fabs(at.x) + fabs(at.y)) + 1e-6;
        if (isfinite(reach) && steer_vec2_is_finite(at)) {
            candidates = steer_shape_grid_candidates(grid, steer_sub(at, steer_vec2(reach, reach)),
                                                     steer_add(at, steer_vec2(reach, reach)));
        } else {
            grid = NULL; /* a broken vehicle: let the scan give whatever it gives */
        }
    }

    SteerVec2 change = {0.0, 0.0};
    for (int f = 0; f < 3; f++) {
        SteerVec2 end = steer_add(vehicle->position, steer_scale(directions[f], lengths[f]));
        slot->detail.feelers[f] = end;
        double closest = INFINITY;
        SteerVec2 push = {0.0, 0.0};
        for (int c = 0; c < candidates; c++) {
            const SteerWall *wall = steer_pool_at(&world->walls, grid ? grid->result[c] : c);
            if (!wall->header.alive) continue;
            SteerVec2 a = steer_add(vehicle->position, steer_world_offset(world, vehicle->position, wall->a));
            SteerVec2 b = steer_add(a, steer_sub(wall->b, wall->a));
            double t;
            if (!segments_cross(vehicle->position, end, a, b, &t) || t >= closest) continue;
            closest = t;
            SteerVec2 normal = wall->normal;
            if (steer_dot(steer_sub(vehicle->position, a), normal) < 0.0) normal = steer_neg(normal);
            double overshoot = (1.0 - t) * lengths[f];
            push = steer_scale(normal, vehicle->max_speed * overshoot / lengths[f]);
        }
        change = steer_add(change, push);
    }
    /* A wall's end met head-on slips between the feelers: treat each end ahead of the vehicle,
     * within its width, as a point obstacle in a detection box as long as the front feeler. */
    double ahead = lengths[0];
    for (int c = 0; c < candidates; c++) {
        const SteerWall *wall = steer_pool_at(&world->walls, grid ? grid->result[c] : c);
        if (!wall->header.alive) continue;
        SteerVec2 ends[2] = {wall->a, wall->b};
        for (int e = 0; e < 2; e++) {
            SteerVec2 local = steer_unrotate(steer_world_offset(world, vehicle->position, ends[e]), vehicle->heading);
            if (local.x <= 0.0 || local.x >= ahead || fabs(local.y) >= width) continue;
            double side = local.y > 0.0 ? -1.0 : 1.0;
            double lateral = side * vehicle->max_speed * (1.0 - fabs(local.y) / width) * (2.0 - local.x / ahead);
            change = steer_add(change, steer_rotate(steer_vec2(0.0, lateral), vehicle->heading));
        }
    }
    /* Body check, as for obstacles: within `clearance` of the vehicle's edge, straight out, at
     * full strength when touching. */
    for (int c = 0; c < candidates; c++) {
        const SteerWall *wall = steer_pool_at(&world->walls, grid ? grid->result[c] : c);
        if (!wall->header.alive) continue;
        SteerVec2 a = steer_add(vehicle->position, steer_world_offset(world, vehicle->position, wall->a));
        SteerVec2 b = steer_add(a, steer_sub(wall->b, wall->a));
        SteerVec2 away;
        double distance = segment_distance(vehicle->position, a, b, wall->normal, &away);
        double depth = (vehicle->radius + clearance - distance) / clearance;
        if (depth > 0.0) change = steer_add(change, body_push(vehicle, away, depth));
    }
    return steer_scale(change, vehicle->mass / vehicle->response_time);
}

/// The inward velocity a vehicle `depth` units into a margin of width `margin` should have.
static double inward_speed(const SteerVehicle *vehicle, double depth, double margin)
{
    double fraction = depth / margin;
    return vehicle->max_speed * (fraction > 1.0 ? 1.0 : fraction);
}

/// Along one axis: the velocity change that brings a vehicle at `p` moving at `v` up to the inward
/// speed its depth into the margin at 0 or at `extent` asks for (0 when it already goes in as fast).
static double contain_axis(const SteerVehicle *vehicle, double p, double v, double extent, double margin)
{
    double change = 0.0;
    if (p < margin) {
        double want = inward_speed(vehicle, margin - p, margin);
        if (v < want) change = want - v;
    }
    if (p > extent - margin) {
        double want = -inward_speed(vehicle, p - (extent - margin), margin);
        if (v > want) change = want - v;
    }
    return change;
}

/* Inside a margin along the bounds, the vehicle wants an inward speed that grows with depth; only
 * the missing part is asked for, so a vehicle already heading in is left alone. */
STEER_BEHAVIOUR_FORCE(contain)
{
    if (world->def.edges == STEER_EDGES_WRAP) return steer_vec2(0.0, 0.0); /* nothing to stay inside */
    double margin = slot->def.contain.margin;
    SteerVec2 p = vehicle->position, v = vehicle->velocity;
    SteerVec2 change = {contain_axis(vehicle, p.x, v.x, world->def.width, margin),
                        contain_axis(vehicle, p.y, v.y, world->def.height, margin)};
    return steer_scale(change, vehicle->mass / vehicle->response_time);
}

STEER_BEHAVIOUR_FORCE(follow_flow)
{
    const SteerFollowFlowParams *p = &slot->def.follow_flow;
    SteerVec2 probe = steer_add(vehicle->position, steer_scale(vehicle->velocity, p->lookahead));
    SteerVec2 flow = steer_flow_field_sample(world, p->field, probe);
    slot->state.target = probe;
    if (steer_length_sq(flow) == 0.0) return steer_vec2(0.0, 0.0); /* outside the field: no opinion */
    /* A unit vector means full speed; shorter vectors ask for proportionally less. */
    return steer_match_velocity(vehicle, steer_scale(steer_truncate(flow, 1.0), vehicle->max_speed));
}
