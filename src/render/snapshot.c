/* SPDX-License-Identifier: MIT */
/* snapshot.c - the vehicles' poses before the last step, so a frame drawn between two steps can
 * place each vehicle part of the way along its move (the loop's interpolation alpha). Indexed by
 * slot, checked by generation: a vehicle created since the capture is drawn where it is. */
#include <stdlib.h>
#include <string.h>

#include "render_internal.h"

void render_snapshot_free(RenderSnapshot *s)
{
    free(s->position);
    free(s->heading);
    free(s->generation);
    free(s->valid);
    memset(s, 0, sizeof *s);
}

static bool snapshot_reserve(RenderSnapshot *s, int slots)
{
    if (slots <= s->capacity) return true;
    int capacity = s->capacity ? s->capacity : 256;
    while (capacity < slots) capacity *= 2;
    SteerVec2 *position = realloc(s->position, (size_t)capacity * sizeof *position);
    if (position) s->position = position;
    SteerVec2 *heading = realloc(s->heading, (size_t)capacity * sizeof *heading);
    if (heading) s->heading = heading;
    uint16_t *generation = realloc(s->generation, (size_t)capacity * sizeof *generation);
    if (generation) s->generation = generation;
    bool *valid = realloc(s->valid, (size_t)capacity * sizeof *valid);
    if (valid) s->valid = valid;
    if (!position || !heading || !generation || !valid) return false;
    memset(s->valid + s->capacity, 0, (size_t)(capacity - s->capacity) * sizeof *valid);
    s->capacity = capacity;
    return true;
}

int render_vehicle_ids(SteerRender *r, const SteerWorld *world)
{
    int count = steer_world_get_vehicles(world, r->ids, r->id_capacity);
    if (count > r->id_capacity) {
        int capacity = r->id_capacity ? r->id_capacity : 256;
        while (capacity < count) capacity *= 2;
        SteerVehicleId *ids = realloc(r->ids, (size_t)capacity * sizeof *ids);
        if (!ids) return r->id_capacity; /* draw what fits */
        r->ids = ids;
        r->id_capacity = capacity;
        count = steer_world_get_vehicles(world, r->ids, r->id_capacity);
    }
    return count;
}

void steer_render_capture(SteerRender *r, const SteerWorld *world)
{
    RenderSnapshot *s = &r->snapshot;
    int count = render_vehicle_ids(r, world);
    if (count > r->id_capacity) count = r->id_capacity;
    uint32_t max_slot = 0;
    for (int i = 0; i < count; i++)
        if (r->ids[i].index1 > max_slot) max_slot = r->ids[i].index1;
    if (!snapshot_reserve(s, (int)max_slot)) return;
    if (s->capacity > 0)
        memset(s->valid, 0, (size_t)s->capacity * sizeof *s->valid); /* NULL while nothing was ever captured */
    for (int i = 0; i < count; i++) {
        SteerVehicleId id = r->ids[i];
        int slot = (int)id.index1 - 1;
        s->position[slot] = steer_vehicle_position(world, id);
        s->heading[slot] = steer_vehicle_heading(world, id);
        s->generation[slot] = id.generation;
        s->valid[slot] = true;
    }
}

bool render_snapshot_pose(const RenderSnapshot *s, const SteerWorld *world, SteerVehicleId id, double alpha,
                          SteerVec2 *position, SteerVec2 *heading)
{
    int slot = (int)id.index1 - 1;
    if (slot < 0 || slot >= s->capacity || !s->valid[slot] || s->generation[slot] != id.generation) return false;
    if (alpha >= 1.0) return false;
    if (alpha < 0.0) alpha = 0.0;
    SteerVec2 p0 = s->position[slot], p1 = steer_vehicle_position(world, id);
    SteerVec2 move = steer_sub(p1, p0);
    /* A vehicle that left through a wrapping edge came in on the other side: sliding it across the
     * whole world for a frame would be wrong, so draw it where it is. */
    if (steer_distance_sq(move, steer_world_offset(world, p0, p1)) > 1e-12) return false;
    *position = steer_add(p0, steer_scale(move, alpha));
    SteerVec2 h0 = s->heading[slot], h1 = steer_vehicle_heading(world, id);
    SteerVec2 h = steer_normalize(steer_add(steer_scale(h0, 1.0 - alpha), steer_scale(h1, alpha)));
    *heading = steer_length_sq(h) > 0.0 ? h : h1;
    return true;
}
