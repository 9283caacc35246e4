/* SPDX-License-Identifier: MIT */
/* senses.c - what the renderer adds about senses to what the core draws (docs/rendering.md,
 * Overlays): a ghost where each remembered vehicle was last sensed, arcs for the core's cones, and
 * the inspector's lines about the selected vehicle's senses and memories. It reads the world through
 * the core's sense queries and changes nothing; the one scratch buffer grows, never shrinks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "render_internal.h"

/// Room for the memories of any sense (STEER_MAX_MEMORIES at most): false when memory ran out.
static bool reserve_memories(SteerRender *r, int count)
{
    if (count <= r->memory_capacity) return true;
    int capacity = r->memory_capacity ? r->memory_capacity : 16;
    while (capacity < count) capacity *= 2;
    SteerMemory *grown = realloc(r->memories, (size_t)capacity * sizeof *grown);
    if (!grown) return false;
    r->memories = grown;
    r->memory_capacity = capacity;
    return true;
}

/// The memories of sense `sense` of `id` in r->memories; their count (0 when none fit).
static int read_memories(SteerRender *r, const SteerWorld *world, SteerVehicleId id, int sense)
{
    int count = steer_vehicle_get_memories(world, id, sense, NULL, 0);
    if (count <= 0 || !reserve_memories(r, count)) return 0;
    count = steer_vehicle_get_memories(world, id, sense, r->memories, count);
    return count < r->memory_capacity ? count : r->memory_capacity;
}

static SDL_FPoint screen(const SteerRender *r, SteerVec2 p)
{
    double x, y;
    steer_camera_to_screen(&r->camera, p.x, p.y, &x, &y);
    return (SDL_FPoint){(float)x, (float)y};
}

void render_arc(SteerRender *r, SteerVec2 center, double radius, double from, double to, SDL_Color c, float width)
{
    if (!(to > from) || !(radius > 0.0)) return;
    double pixels = radius * r->camera.zoom * (to - from); /* its length on screen */
    int pieces = (int)ceil(pixels / 6.0);
    if (pieces < 4) pieces = 4;
    if (pieces > 96) pieces = 96;
    SDL_FPoint previous = screen(r, steer_add(center, steer_scale(steer_vec2_from_angle(from), radius)));
    for (int i = 1; i <= pieces; i++) {
        double a = from + (to - from) * i / pieces;
        SDL_FPoint next = screen(r, steer_add(center, steer_scale(steer_vec2_from_angle(a), radius)));
        render_stroke(r, previous.x, previous.y, next.x, next.y, width, c);
        previous = next;
    }
}

/// The remembered colour, fading from its full alpha to a third of it as the memory ages towards
/// being forgotten, so a fresh trace reads stronger than a stale one.
static SDL_Color ghost_color(double age, double forget_after)
{
    SDL_Color c = steer_render_color_from_word(STEER_DEBUG_COLOR_REMEMBERED | 0xffu);
    double left = forget_after > 0.0 ? 1.0 - age / forget_after : 0.0;
    if (left < 0.0) left = 0.0;
    if (left > 1.0) left = 1.0;
    c.a = (Uint8)lround(255.0 * (1.0 + 2.0 * left) / 3.0 * 0.8);
    return c;
}

void render_sense_ghosts(SteerRender *r, SteerVehicleId id)
{
    const SteerWorld *world = r->world;
    int senses = steer_vehicle_sense_count(world, id);
    if (senses <= 0) return;
    SteerVec2 self = steer_vehicle_position(world, id);
    double now = steer_world_time(world);
    for (int s = 0; s < senses; s++) {
        SteerSenseDef def;
        if (steer_vehicle_get_sense(world, id, s, &def) != STEER_OK) continue;
        int count = read_memories(r, world, id, s);
        for (int m = 0; m < count; m++) {
            const SteerMemory *memory = &r->memories[m];
            if (memory->sensed_now) continue; /* it is drawn where it is */
            SDL_Color c = ghost_color(now - memory->time, def.forget_after);
            SteerVehicleState other;
            double radius = steer_vehicle_get(world, memory->other, &other) == STEER_OK ? other.radius : 5.0;
            if (def.type == STEER_SENSE_HEARING) { /* where its sound was: a cross */
                SDL_FPoint p = screen(r, memory->position);
                float h = fmaxf((float)(radius * r->camera.zoom), 4.0f);
                render_stroke(r, p.x - h, p.y - h, p.x + h, p.y + h, 1.0f, c);
                render_stroke(r, p.x - h, p.y + h, p.x + h, p.y - h, 1.0f, c);
                continue;
            }
            /* facing where it was going, else away from the one that saw it */
            SteerVec2 heading = steer_normalize(memory->velocity);
            if (steer_length_sq(heading) == 0.0)
                heading = steer_normalize(steer_world_offset(world, self, memory->position));
            if (steer_length_sq(heading) == 0.0) heading = steer_vec2(1.0, 0.0);
            SteerVec2 shape[3];
            steer_debug_vehicle_shape(memory->position, heading, radius, shape);
            SDL_FPoint p[3];
            for (int k = 0; k < 3; k++) p[k] = screen(r, shape[k]);
            /* never smaller than a few pixels, like the vehicles themselves */
            float cx = (p[0].x + p[1].x + p[2].x) / 3.0f, cy = (p[0].y + p[1].y + p[2].y) / 3.0f;
            float size = fabsf(p[0].x - cx) + fabsf(p[0].y - cy);
            if (size < 5.0f && size > 0.0f)
                for (int k = 0; k < 3; k++) {
                    p[k].x = cx + (p[k].x - cx) * 5.0f / size;
                    p[k].y = cy + (p[k].y - cy) * 5.0f / size;
                }
            for (int k = 0; k < 3; k++) render_stroke(r, p[k].x, p[k].y, p[(k + 1) % 3].x, p[(k + 1) % 3].y, 1.0f, c);
        }
    }
}

void render_all_sense_ghosts(SteerRender *r)
{
    int count = render_vehicle_ids(r, r->world);
    if (count > r->id_capacity) count = r->id_capacity;
    for (int i = 0; i < count; i++) render_sense_ghosts(r, r->ids[i]);
}

/// A range for the inspector: hearing's default (no limit of its own) reads "any".
static void range_text(char *out, size_t size, double range)
{
    if (range >= 1e6)
        snprintf(out, size, "any");
    else
        snprintf(out, size, "%.0f", range);
}

int render_sense_lines(SteerRender *r, const SteerWorld *world, SteerVehicleId id, char *text, int width, int max)
{
    int senses = steer_vehicle_sense_count(world, id);
    int n = 0;
#define SENSE_LINE(...) (n < max ? (snprintf(text + (size_t)n * (size_t)width, (size_t)width, __VA_ARGS__), n++) : 0)
    if (senses <= 0) return 0;
    uint64_t step = steer_world_step_count(world);
    double dt = steer_world_dt(world);
    for (int s = 0; s < senses && n < max; s++) {
        SteerSenseDef def;
        if (steer_vehicle_get_sense(world, id, s, &def) != STEER_OK) continue;
        char range[24];
        range_text(range, sizeof range, def.range);
        if (def.type == STEER_SENSE_SIGHT)
            SENSE_LINE("sight   %-14.14s r %s  fov %.0f deg", def.name ? def.name : "?", range,
                       def.fov * 180.0 / STEER_PI);
        else
            SENSE_LINE("hearing %-14.14s r %s", def.name ? def.name : "?", range);
        int count = read_memories(r, world, id, s);
        int now = 0;
        for (int m = 0; m < count; m++) now += r->memories[m].sensed_now;
        char every[32] = "every step";
        if (def.period > 0.0) snprintf(every, sizeof every, "every %.2g s", def.period);
        SENSE_LINE("  %d now, %d/%d kept, forget %.3g s, %s", now, count, def.max_memories, def.forget_after, every);
        for (int m = 0; m < count && m < RENDER_MEMORY_LINES; m++) {
            const SteerMemory *memory = &r->memories[m];
            unsigned long long serial = (unsigned long long)steer_vehicle_serial(world, memory->other);
            if (memory->sensed_now)
                SENSE_LINE("  #%-5llu now    d %5.1f  (%.1f, %.1f)", serial, memory->distance, memory->position.x,
                           memory->position.y);
            else
                SENSE_LINE("  #%-5llu %5.1f s ago  (%.1f, %.1f)", serial,
                           (double)(step - (memory->step < step ? memory->step : step)) * dt, memory->position.x,
                           memory->position.y);
        }
        if (count > RENDER_MEMORY_LINES) SENSE_LINE("  ... %d more", count - RENDER_MEMORY_LINES);
    }
#undef SENSE_LINE
    return n;
}
