/* SPDX-License-Identifier: MIT */
/* snapshot.c - the vehicles' poses before the last step, so a frame drawn between two steps can
 * place each vehicle part of the way along its move (the loop's interpolation alpha). Indexed by
 * slot, checked by generation: a vehicle created since the capture is drawn where it is. */
#include <math.h>
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

/* ---- Headings as drawn: eased, and held near rest (SteerFrame.smooth_headings) ------------- */

void render_shown_free(RenderShownHeadings *shown)
{
    free(shown->heading);
    free(shown->generation);
    free(shown->frame);
    memset(shown, 0, sizeof *shown);
}

void render_shown_begin(RenderShownHeadings *shown, double time)
{
    double dt = shown->frame_count > 0 ? time - shown->time : 0.0;
    shown->dt = dt < 0.0 ? 0.0 : (dt > 0.25 ? 0.25 : dt); /* a rewind or a long pause: no jump */
    shown->time = time;
    shown->frame_count++;
}

static bool shown_reserve(RenderShownHeadings *s, int slots)
{
    if (slots <= s->capacity) return true;
    int capacity = s->capacity ? s->capacity : 256;
    while (capacity < slots) capacity *= 2;
    SteerVec2 *heading = realloc(s->heading, (size_t)capacity * sizeof *heading);
    if (heading) s->heading = heading;
    uint16_t *generation = realloc(s->generation, (size_t)capacity * sizeof *generation);
    if (generation) s->generation = generation;
    unsigned *frame = realloc(s->frame, (size_t)capacity * sizeof *frame);
    if (frame) s->frame = frame;
    if (!heading || !generation || !frame) return false;
    memset(s->frame + s->capacity, 0, (size_t)(capacity - s->capacity) * sizeof *frame);
    s->capacity = capacity;
    return true;
}

SteerVec2 render_shown_heading(RenderShownHeadings *s, const SteerWorld *world, SteerVehicleId id, SteerVec2 heading)
{
    int slot = (int)id.index1 - 1;
    if (slot < 0 || !shown_reserve(s, slot + 1)) return heading;
    if (s->frame[slot] == s->frame_count && s->generation[slot] == id.generation) return s->heading[slot];
    bool known = s->frame[slot] != 0 && s->generation[slot] == id.generation;
    SteerVec2 out = heading;
    if (known) {
        SteerVec2 before = s->heading[slot];
        if (steer_length_sq(steer_vehicle_velocity(world, id)) < RENDER_HOLD_SPEED * RENDER_HOLD_SPEED) {
            out = before; /* nearly still: keep pointing where it went */
        } else {
            double k = 1.0 - exp(-s->dt / 0.08); /* eased over about 0.08 s of simulated time */
            SteerVec2 blend = steer_add(before, steer_scale(steer_sub(heading, before), k));
            out = steer_length_sq(blend) > 1e-12 ? steer_normalize(blend) : heading;
        }
    }
    s->heading[slot] = out;
    s->generation[slot] = id.generation;
    s->frame[slot] = s->frame_count;
    return out;
}
