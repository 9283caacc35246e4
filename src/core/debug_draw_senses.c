/* SPDX-License-Identifier: MIT */
/* debug_draw_senses.c - senses as debug-draw shapes (steer_debug_draw.h): each sight sense's cone
 * (a circle when it sees all around), each hearing sense's range when it has one, a line to every
 * memory (bright while sensed now, dimmer to where a remembered vehicle was last sensed), a ray to
 * every vehicle of its kinds in the cone (clear, or blocked by a wall or an obstacle, by the very
 * test sight uses) and the sounds the last step heard from. Reads the world through the public
 * queries and its list of sensing vehicles; allocates nothing (at most 64 rays and lines to
 * memories per sense and 64 sounds a call, from buffers on the stack). */
#include "debug_draw_senses.h"

#include "world_internal.h"

/// Rays drawn per sight sense (the closest in creation order of the query: a crowd in a cone
/// would bury the picture anyway) and sounds drawn per call.
enum { SENSE_RAYS = 64, SOUND_MAX = 64, MEMORY_LINES = 64 };

static void segment(const SteerDebugDraw *d, SteerVec2 a, SteerVec2 b, uint32_t color, SteerDebugLayer layer)
{
    if (d->draw_segment) d->draw_segment(a, b, color, layer, d->context);
}

static void circle(const SteerDebugDraw *d, SteerVec2 c, double r, uint32_t color, SteerDebugLayer layer)
{
    if (d->draw_circle) d->draw_circle(c, r, color, layer, d->context);
}

static void arc(const SteerDebugDraw *d, SteerVec2 center, double radius, double from, double to, uint32_t color,
                SteerDebugLayer layer)
{
    if (d->draw_arc) {
        d->draw_arc(center, radius, from, to, color, layer, d->context);
        return;
    }
    enum { PIECES = 24 };
    SteerVec2 previous = steer_add(center, steer_scale(steer_vec2_from_angle(from), radius));
    for (int i = 1; i <= PIECES; i++) {
        SteerVec2 next = steer_add(center, steer_scale(steer_vec2_from_angle(from + (to - from) * i / PIECES), radius));
        segment(d, previous, next, color, layer);
        previous = next;
    }
}

/// Where a vehicle is drawn: the caller's pose when it gives one.
static void pose(const SteerWorld *world, const SteerDebugDraw *d, SteerVehicleId id, SteerVec2 *position,
                 SteerVec2 *heading)
{
    if (d->vehicle_pose && d->vehicle_pose(id, position, heading, d->context)) return;
    SteerVehicleState v;
    if (steer_vehicle_get(world, id, &v) == STEER_OK) {
        *position = v.position;
        *heading = v.heading;
    }
}

/// Where a vehicle seen from `from` is drawn: its pose, carried to the image nearest `from` in a
/// wrapping world, so a line never crosses the whole world.
static SteerVec2 near_image(const SteerWorld *world, const SteerDebugDraw *d, SteerVec2 from, SteerVehicleId other)
{
    SteerVec2 p = steer_vehicle_position(world, other), h = {1.0, 0.0};
    pose(world, d, other, &p, &h);
    return steer_add(from, steer_world_offset(world, from, p));
}

static void draw_sight(const SteerWorld *world, const SteerDebugDraw *d, SteerVehicleId id, const SteerSenseDef *def,
                       SteerVec2 position, SteerVec2 heading)
{
    const SteerDebugLayer layer = STEER_DEBUG_LAYER_SENSES;
    if (d->flags & STEER_DEBUG_DRAW_SENSES) {
        if (def->fov >= 2.0 * STEER_PI) {
            circle(d, position, def->range, STEER_DEBUG_COLOR_SENSE, layer);
        } else {
            double facing = steer_angle_of(heading), half = 0.5 * def->fov;
            segment(d, position, steer_add(position, steer_scale(steer_vec2_from_angle(facing - half), def->range)),
                    STEER_DEBUG_COLOR_SENSE, layer);
            segment(d, position, steer_add(position, steer_scale(steer_vec2_from_angle(facing + half), def->range)),
                    STEER_DEBUG_COLOR_SENSE, layer);
            arc(d, position, def->range, facing - half, facing + half, STEER_DEBUG_COLOR_SENSE, layer);
        }
    }
    if (!(d->flags & STEER_DEBUG_DRAW_SENSE_RAYS)) return;
    /* every vehicle of its kinds in the cone, as the world is now: clear or blocked */
    SteerVehicleState self;
    if (steer_vehicle_get(world, id, &self) != STEER_OK) return;
    SteerQueryFilter filter = steer_default_query_filter();
    filter.kinds = def->kinds;
    filter.exclude = id;
    filter.view_angle = def->fov;
    filter.heading = self.heading;
    SteerVehicleId seen[SENSE_RAYS];
    int count = steer_world_query_radius(world, self.position, def->range, &filter, seen, SENSE_RAYS);
    if (count > SENSE_RAYS) count = SENSE_RAYS;
    for (int i = 0; i < count; i++) {
        SteerVec2 there = steer_vehicle_position(world, seen[i]);
        bool clear = steer_world_line_of_sight(world, self.position, there, def->walls_block, def->obstacles_block);
        segment(d, position, near_image(world, d, position, seen[i]),
                clear ? STEER_DEBUG_COLOR_RAY_CLEAR : STEER_DEBUG_COLOR_RAY_BLOCKED, STEER_DEBUG_LAYER_SENSE_RAYS);
    }
}

static void draw_vehicle_senses(const SteerWorld *world, SteerVehicleId id, const SteerDebugDraw *d)
{
    int senses = steer_vehicle_sense_count(world, id);
    if (senses <= 0) return;
    SteerVec2 position = steer_vehicle_position(world, id), heading = {1.0, 0.0};
    pose(world, d, id, &position, &heading);
    for (int s = 0; s < senses; s++) {
        SteerSenseDef def;
        if (steer_vehicle_get_sense(world, id, s, &def) != STEER_OK) continue;
        if (def.type == STEER_SENSE_SIGHT)
            draw_sight(world, d, id, &def, position, heading);
        else if ((d->flags & STEER_DEBUG_DRAW_SENSES) && def.range < STEER_MAX_LENGTH)
            circle(d, position, def.range, STEER_DEBUG_COLOR_SENSE, STEER_DEBUG_LAYER_SENSES);
        if (!(d->flags & STEER_DEBUG_DRAW_SENSES)) continue;
        /* a line to each memory: to the vehicle while sensed now, else to where it was last sensed */
        SteerMemory memories[MEMORY_LINES];
        int n = steer_vehicle_get_memories(world, id, s, memories, MEMORY_LINES);
        if (n > MEMORY_LINES) n = MEMORY_LINES;
        for (int m = 0; m < n; m++) {
            const SteerMemory *memory = &memories[m];
            SteerVec2 to = memory->sensed_now && def.type == STEER_SENSE_SIGHT
                               ? near_image(world, d, position, memory->other)
                               : steer_add(position, steer_world_offset(world, position, memory->position));
            segment(d, position, to, memory->sensed_now ? STEER_DEBUG_COLOR_SENSED : STEER_DEBUG_COLOR_REMEMBERED,
                    STEER_DEBUG_LAYER_SENSES);
        }
    }
}

static void draw_sounds(const SteerWorld *world, const SteerDebugDraw *d, SteerVehicleId listener)
{
    SteerSoundDef sounds[SOUND_MAX];
    int count = steer_world_get_sounds(world, sounds, SOUND_MAX);
    if (count > SOUND_MAX) count = SOUND_MAX;
    SteerVec2 at = {0.0, 0.0};
    bool one = steer_vehicle_is_valid(world, listener);
    if (one) at = steer_vehicle_position(world, listener);
    for (int i = 0; i < count; i++) {
        /* for one vehicle: the sounds that reached it (a hearing sense of it hears within radius) */
        if (one && steer_length(steer_world_offset(world, at, sounds[i].position)) > sounds[i].radius) continue;
        circle(d, sounds[i].position, sounds[i].radius, STEER_DEBUG_COLOR_SOUND, STEER_DEBUG_LAYER_SOUNDS);
    }
}

void steer_vehicle_debug_draw_senses(const SteerWorld *world, SteerVehicleId id, const SteerDebugDraw *draw)
{
    if (!world || !draw || !steer_vehicle_is_valid(world, id)) return;
    draw_vehicle_senses(world, id, draw);
    if ((draw->flags & STEER_DEBUG_DRAW_SOUNDS) && steer_vehicle_sense_count(world, id) > 0)
        draw_sounds(world, draw, id);
}

void steer_debug_draw_world_senses(const SteerWorld *world, const SteerDebugDraw *draw)
{
    if (draw->flags & (STEER_DEBUG_DRAW_SENSES | STEER_DEBUG_DRAW_SENSE_RAYS)) {
        for (int i = 0; i < world->sensing_count; i++) {
            int slot = world->sensing[i];
            if (slot < 0 || slot >= world->sensor_capacity || world->sensors[slot].sense_count == 0) continue;
            const SteerVehicle *v = steer_pool_at(&world->vehicles, slot);
            if (!v->header.alive) continue;
            SteerVehicleId id = {(uint32_t)slot + 1u, world->tag, v->header.generation};
            draw_vehicle_senses(world, id, draw);
        }
    }
    if (draw->flags & STEER_DEBUG_DRAW_SOUNDS) draw_sounds(world, draw, (SteerVehicleId)STEER_NULL_ID);
}
