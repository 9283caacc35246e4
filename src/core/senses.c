/* SPDX-License-Identifier: MIT */
/* senses.c - sight, hearing, memory and timers: what vehicles perceive, computed in the step after
 * the moves (docs/core.md "Senses"). Work in progress: the API is in place, the pass follows. */
#include <string.h>

#include "world_internal.h"

SteerSenseDef steer_default_sense_def(SteerSenseType type)
{
    SteerSenseDef def;
    memset(&def, 0, sizeof def);
    def.type = type;
    def.range = type == STEER_SENSE_HEARING ? STEER_MAX_LENGTH : 200.0;
    def.fov = type == STEER_SENSE_HEARING ? 2.0 * STEER_PI : STEER_PI;
    def.walls_block = true;
    def.obstacles_block = true;
    def.forget_after = 5.0;
    def.period = 0.0;
    def.max_memories = 16;
    return def;
}

static SteerResult not_yet(const SteerWorld *world)
{
    return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "not implemented yet");
}

SteerResult steer_vehicle_add_sense(SteerWorld *world, SteerVehicleId id, const SteerSenseDef *def, int *out_index)
{
    STEER_ENTRY(world);
    (void)id;
    (void)def;
    (void)out_index;
    return not_yet(world);
}

SteerResult steer_vehicle_remove_sense(SteerWorld *world, SteerVehicleId id, const char *name)
{
    STEER_ENTRY(world);
    (void)id;
    (void)name;
    return not_yet(world);
}

int steer_vehicle_find_sense(const SteerWorld *world, SteerVehicleId id, const char *name)
{
    (void)world;
    (void)id;
    (void)name;
    return -1;
}

int steer_vehicle_sense_count(const SteerWorld *world, SteerVehicleId id)
{
    (void)world;
    (void)id;
    return 0;
}

SteerResult steer_vehicle_get_sense(const SteerWorld *world, SteerVehicleId id, int sense, SteerSenseDef *out)
{
    STEER_ENTRY(world);
    (void)id;
    (void)sense;
    (void)out;
    return not_yet(world);
}

int steer_vehicle_get_memories(const SteerWorld *world, SteerVehicleId id, int sense, SteerMemory *out, int capacity)
{
    (void)world;
    (void)id;
    (void)sense;
    (void)out;
    (void)capacity;
    return 0;
}

bool steer_vehicle_closest_sensed(const SteerWorld *world, SteerVehicleId id, int sense, SteerMemory *out)
{
    (void)world;
    (void)id;
    (void)sense;
    (void)out;
    return false;
}

bool steer_vehicle_recall(const SteerWorld *world, SteerVehicleId id, int sense, SteerVehicleId other, SteerMemory *out)
{
    (void)world;
    (void)id;
    (void)sense;
    (void)other;
    (void)out;
    return false;
}

SteerSoundDef steer_default_sound_def(void)
{
    SteerSoundDef def;
    memset(&def, 0, sizeof def);
    def.radius = 100.0;
    return def;
}

SteerResult steer_world_emit(SteerWorld *world, const SteerSoundDef *sound)
{
    STEER_ENTRY(world);
    (void)sound;
    return not_yet(world);
}

int steer_world_get_sounds(const SteerWorld *world, SteerSoundDef *out, int capacity)
{
    (void)world;
    (void)out;
    (void)capacity;
    return 0;
}

SteerResult steer_vehicle_wake_in(SteerWorld *world, SteerVehicleId id, double seconds)
{
    STEER_ENTRY(world);
    (void)id;
    (void)seconds;
    return not_yet(world);
}

SteerResult steer_vehicle_cancel_wake(SteerWorld *world, SteerVehicleId id)
{
    STEER_ENTRY(world);
    (void)id;
    return not_yet(world);
}

uint64_t steer_vehicle_wake_step(const SteerWorld *world, SteerVehicleId id)
{
    (void)world;
    (void)id;
    return 0;
}

int steer_world_get_sense_events(const SteerWorld *world, SteerSenseEvent *out, int capacity, int first)
{
    (void)world;
    (void)out;
    (void)capacity;
    (void)first;
    return 0;
}

bool steer_world_line_of_sight(const SteerWorld *world, SteerVec2 a, SteerVec2 b, bool walls, bool obstacles)
{
    (void)world;
    (void)a;
    (void)b;
    (void)walls;
    (void)obstacles;
    return true;
}

void steer_vehicle_debug_draw_senses(const SteerWorld *world, SteerVehicleId id, const SteerDebugDraw *draw)
{
    (void)world;
    (void)id;
    (void)draw;
}
