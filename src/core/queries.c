/* queries.c - questions scripts and behaviours ask about who is where.
 * These first versions scan linearly; the spatial grid replaces the scans (no query may loop over
 * all pairs of vehicles once behaviours call them per vehicle). */
#include <stdlib.h>

#include "world_internal.h"

SteerQueryFilter steer_default_query_filter(void)
{
    SteerQueryFilter filter = {0};
    filter.view_angle = 2.0 * STEER_PI;
    filter.heading = steer_vec2(1.0, 0.0);
    return filter;
}

static bool filter_ok(const SteerWorld *world, const SteerQueryFilter *filter)
{
    if (!filter) return true;
    if (!(isfinite(filter->view_angle) && filter->view_angle > 0.0)) {
        steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "view_angle must be a positive finite number (got %g)", filter->view_angle);
        return false;
    }
    if (filter->view_angle < 2.0 * STEER_PI && !steer_vec2_is_finite(filter->heading)) {
        steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "heading must be finite");
        return false;
    }
    return true;
}

/// Does the vehicle at `offset` from the asker (with this slot index) pass the filter?
static bool passes(const SteerWorld *world, const SteerQueryFilter *filter, int index, const SteerVehicle *vehicle,
                   SteerVec2 offset)
{
    if (!filter) return true;
    if (filter->kinds && !(filter->kinds & (1ULL << vehicle->kind))) return false;
    if (filter->exclude.index1 == (uint32_t)index + 1 && filter->exclude.world == world->tag &&
        filter->exclude.generation == vehicle->header.generation)
        return false;
    if (filter->view_angle < 2.0 * STEER_PI) {
        double length = steer_length(offset);
        if (length > 1e-12) {
            double cosine = steer_dot(offset, steer_normalize(filter->heading)) / length;
            if (cosine < cos(0.5 * filter->view_angle)) return false;
        }
    }
    return true;
}

int steer_world_query_radius(const SteerWorld *world, SteerVec2 center, double radius, const SteerQueryFilter *filter,
                             SteerVehicleId *out, int capacity)
{
    if (!steer_vec2_is_finite(center)) {
        steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "center must be finite");
        return -1;
    }
    if (!(isfinite(radius) && radius >= 0.0)) {
        steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "radius must be a finite number >= 0 (got %g)", radius);
        return -1;
    }
    if (!filter_ok(world, filter)) return -1;
    int n = 0;
    for (int i = 0; i < world->order_count; i++) {
        int index = world->order[i];
        const SteerVehicle *vehicle = steer_pool_at(&world->vehicles, index);
        SteerVec2 offset = steer_world_offset(world, center, vehicle->position);
        if (steer_length_sq(offset) > radius * radius) continue;
        if (!passes(world, filter, index, vehicle, offset)) continue;
        if (n < capacity) out[n] = (SteerVehicleId){(uint32_t)index + 1, world->tag, vehicle->header.generation};
        n++;
    }
    return n;
}

bool steer_world_query_closest(const SteerWorld *world, SteerVec2 point, double range, const SteerQueryFilter *filter,
                               SteerVehicleId *out)
{
    if (!steer_vec2_is_finite(point) || !(range >= 0.0) || isnan(range) || !filter_ok(world, filter)) {
        steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "closest needs a finite point and a range >= 0");
        return false;
    }
    double best = range * range;
    bool found = false;
    for (int i = 0; i < world->order_count; i++) {
        int index = world->order[i];
        const SteerVehicle *vehicle = steer_pool_at(&world->vehicles, index);
        SteerVec2 offset = steer_world_offset(world, point, vehicle->position);
        double distance_sq = steer_length_sq(offset);
        if (distance_sq > best || (found && distance_sq == best)) continue;
        if (!passes(world, filter, index, vehicle, offset)) continue;
        best = distance_sq;
        found = true;
        if (out) *out = (SteerVehicleId){(uint32_t)index + 1, world->tag, vehicle->header.generation};
    }
    return found;
}

int steer_world_query_obstacles(const SteerWorld *world, SteerVec2 a, SteerVec2 b, double radius, SteerObstacleId *out,
                                int capacity)
{
    if (!steer_vec2_is_finite(a) || !steer_vec2_is_finite(b) || !(isfinite(radius) && radius >= 0.0)) {
        steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "obstacle query needs finite ends and a radius >= 0");
        return -1;
    }
    SteerVec2 ab = steer_world_offset(world, a, b);
    double length_sq = steer_length_sq(ab);
    int n = 0;
    for (int i = 0; i < world->obstacles.count; i++) {
        const SteerObstacle *obstacle = steer_pool_at(&world->obstacles, i);
        if (!obstacle->header.alive) continue;
        SteerVec2 ac = steer_world_offset(world, a, obstacle->center);
        double t = length_sq > 0.0 ? steer_dot(ac, ab) / length_sq : 0.0;
        if (t < 0.0) t = 0.0;
        if (t > 1.0) t = 1.0;
        double reach = radius + obstacle->radius;
        if (steer_distance_sq(ac, steer_scale(ab, t)) > reach * reach) continue;
        if (n < capacity) out[n] = (SteerObstacleId){(uint32_t)i + 1, world->tag, obstacle->header.generation};
        n++;
    }
    return n;
}
