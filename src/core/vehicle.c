/* SPDX-License-Identifier: MIT */
/* vehicle.c - creating, removing, reading and tuning vehicles. Every value is checked here, at the
 * boundary, so no NaN, infinity or out-of-range number ever reaches vehicle state. */
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "nav_internal.h"

SteerVehicleDef steer_default_vehicle_def(void)
{
    SteerVehicleDef def = {0};
    for (int f = 0; f < STEER_VEHICLE_FIELD_COUNT; f++)
        memcpy((char *)&def + steer_vehicle_field_table[f].def_offset, &steer_vehicle_field_table[f].fallback,
               sizeof(double));
    def.combine = STEER_COMBINE_WEIGHTED;
    return def;
}

SteerVehicle *steer_vehicle_lookup(const SteerWorld *world, SteerVehicleId id)
{
    if (id.world != world->tag) return NULL;
    return steer_pool_get(&world->vehicles, id.index1, id.generation);
}

SteerResult steer_vehicle_invalid_id(const SteerWorld *world, SteerVehicleId id)
{
    if (id.index1 == 0) return steer_fail(world, STEER_ERROR_INVALID_ID, "vehicle id is null");
    if (id.world != world->tag) return steer_fail(world, STEER_ERROR_INVALID_ID, "vehicle id belongs to another world");
    return steer_fail(world, STEER_ERROR_INVALID_ID, "vehicle was removed");
}

#define LOOKUP_OR_FAIL(vehicle, world, id)                                                                             \
    STEER_ENTRY(world);                                                                                                \
    SteerVehicle *vehicle = steer_vehicle_lookup(world, id);                                                           \
    if (!vehicle) return steer_vehicle_invalid_id(world, id)

/* Setters change what the grid copied (position, velocity, heading, kind, radii): rebuild it
 * before the next query. Cheap: the step rebuilds it anyway. */
#define LOOKUP_FOR_CHANGE(vehicle, world, id)                                                                          \
    LOOKUP_OR_FAIL(vehicle, world, id);                                                                                \
    steer_world_vehicles_changed(world)

/* ---- Checks shared by creation and the setters --------------------------------------------- */

static SteerResult check_position(const SteerWorld *world, const char *name, SteerVec2 value)
{
    return steer_check_point(world, "", name, value);
}

static SteerResult check_velocity(const SteerWorld *world, const char *name, SteerVec2 value)
{
    return steer_check_vector(world, "", name, value, STEER_MAX_SPEED);
}

static SteerResult check_kind(const SteerWorld *world, uint32_t kind)
{
    if (kind < STEER_MAX_KINDS) return STEER_OK;
    return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "kind must be below %d (got %u)", STEER_MAX_KINDS, kind);
}

static SteerResult check_combine(const SteerWorld *world, SteerCombine combine)
{
    if (combine == STEER_COMBINE_WEIGHTED || combine == STEER_COMBINE_PRIORITY || combine == STEER_COMBINE_DITHER)
        return STEER_OK;
    return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "combine must be weighted, priority or dither (got %d)",
                      (int)combine);
}

static SteerResult check_def(const SteerWorld *world, const SteerVehicleDef *def)
{
    if (!def) return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "vehicle definition is NULL");
    TRY(check_position(world, "position", def->position));
    TRY(check_velocity(world, "velocity", def->velocity));
    if (!isfinite(def->heading))
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "heading must be finite (got %g)", def->heading);
    for (int f = 0; f < STEER_VEHICLE_FIELD_COUNT; f++)
        TRY(steer_vehicle_field_check(world, (SteerVehicleField)f, steer_vehicle_def_field(def, (SteerVehicleField)f)));
    TRY(check_kind(world, def->kind));
    TRY(check_combine(world, def->combine));
    return STEER_OK;
}

static bool order_reserve(SteerWorld *world, int needed)
{
    if (needed <= world->order_capacity) return true;
    int capacity = world->order_capacity ? world->order_capacity * 2 : 16;
    while (capacity < needed) capacity *= 2;
    int *order = steer_realloc(&world->alloc, world->order, (size_t)world->order_capacity * sizeof *order,
                               (size_t)capacity * sizeof *order);
    if (!order) return false;
    world->order = order;
    world->order_capacity = capacity;
    return true;
}

/// Makes room in vehicle_cold for pool slots up to `slots` (the pool's next slot included), before
/// the pool hands one out: a failure then changes nothing.
static bool cold_reserve(SteerWorld *world, int slots)
{
    if (slots <= world->vehicle_cold_capacity) return true;
    int capacity = world->vehicle_cold_capacity ? world->vehicle_cold_capacity : 16;
    while (capacity < slots) capacity *= 2;
    SteerVehicleCold *grown =
        steer_realloc(&world->alloc, world->vehicle_cold, (size_t)world->vehicle_cold_capacity * sizeof *grown,
                      (size_t)capacity * sizeof *grown);
    if (!grown) return false;
    world->vehicle_cold = grown;
    world->vehicle_cold_capacity = capacity;
    return true;
}

/// Closes the holes removals left in `order` once they are half of it, so that spawning and
/// removing for long without a step keeps `order` (and the grid's arrays) the size of the world.
/// O(N) once per N/2 removals; the ranks change, so the index is rebuilt at the next query.
static void compact_when_sparse(SteerWorld *world)
{
    if (world->order_holes < 64 || world->order_holes * 2 < world->order_count) return;
    steer_world_compact_order(world);
    world->index_stale = true;
}

SteerResult steer_vehicle_create(SteerWorld *world, const SteerVehicleDef *def, SteerVehicleId *out)
{
    STEER_ENTRY(world);
    SteerResult checked = check_def(world, def);
    /* mass, max_speed and max_force all zero: `SteerVehicleDef def = {0}` */
    if (checked != STEER_OK && def && def->mass == 0.0 && def->max_speed == 0.0 && def->max_force == 0.0)
        return steer_fail_hint(world, checked, STEER_ZEROED_DEF_HINT("vehicle"));
    TRY(checked);
    compact_when_sparse(world);
    if (!order_reserve(world, world->order_count + 1))
        return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
    /* The grid grows here, never during a step: the new slot index is at most vehicles.count. */
    if (!steer_grid_reserve(&world->grid, &world->alloc, world->order_count + 1, world->vehicles.count + 1) ||
        !cold_reserve(world, world->vehicles.count + 1))
        return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
    int index = steer_pool_alloc(&world->vehicles);
    if (index < 0) return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
    SteerVehicle *vehicle = steer_pool_at(&world->vehicles, index);
    SteerVehicleCold *cold = &world->vehicle_cold[index];
    cold->serial = world->next_serial++;
    cold->behaviour_capacity = 0;
    /* The tunables first: storing max_speed truncates a velocity, set just after. */
    vehicle->velocity = steer_vec2(0.0, 0.0);
    for (int f = 0; f < STEER_VEHICLE_FIELD_COUNT; f++)
        steer_vehicle_store_field(world, vehicle, (SteerVehicleField)f,
                                  steer_vehicle_def_field(def, (SteerVehicleField)f));
    vehicle->position = def->position;
    vehicle->spawn = def->position;
    vehicle->velocity = steer_truncate(def->velocity, def->max_speed);
    /* A velocity too small to have a direction (a denormal) leaves the heading to `heading`. */
    SteerVec2 direction = steer_normalize(vehicle->velocity);
    if (steer_length_sq(direction) > 0.0)
        vehicle->heading = direction;
    else
        vehicle->heading = steer_vec2_from_angle(def->heading);
    vehicle->flock_kinds = def->flock_kinds;
    vehicle->kind = def->kind;
    cold->color = def->color;
    cold->user_data = def->user_data;
    vehicle->combine = def->combine;
    /* Serials grow, so appending keeps `order` sorted by creation. */
    vehicle->rank = world->order_count;
    world->order[world->order_count++] = index;
    world->kind_population[vehicle->kind]++;
    steer_world_vehicles_changed(world);
    steer_world_index_place(world, index);
    if (out) *out = (SteerVehicleId){(uint32_t)index + 1, world->tag, vehicle->header.generation};
    return STEER_OK;
}

SteerResult steer_vehicle_destroy(SteerWorld *world, SteerVehicleId id)
{
    LOOKUP_OR_FAIL(vehicle, world, id);
    int index = (int)id.index1 - 1;
    /* A hole, closed at the next grid build: shifting the rest would cost O(N) per removal. */
    world->order[vehicle->rank] = -1;
    world->order_holes++;
    world->kind_population[vehicle->kind]--;
    steer_world_index_drop(world, index);
    steer_senses_vehicle_removed(world, index);
    steer_vehicle_free_behaviours(world, vehicle);
    steer_pool_release(&world->vehicles, index);
    steer_world_vehicles_changed(world);
    world->target_removals++;
    /* Behaviours of others that target it notice at their next step or query
     * (steer_slot_target_lost): no scan over every vehicle here. The count tells the next step
     * to look (SteerWorld.target_removals). */
    return STEER_OK;
}

SteerResult steer_vehicle_create_undo(SteerWorld *world, SteerVehicleId id)
{
    STEER_ENTRY(world);
    const SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle || steer_vehicle_cold(world, vehicle)->serial + 1 != world->next_serial ||
        vehicle->rank != world->order_count - 1)
        return steer_fail(world, STEER_ERROR_INVALID_ID, "only the vehicle made last can be taken back");
    TRY(steer_vehicle_destroy(world, id));
    /* It was appended last: drop its hole rather than leave one, and hand its serial out again. */
    world->order_count--;
    world->order_holes--;
    world->next_serial--;
    return STEER_OK;
}

bool steer_vehicle_is_valid(const SteerWorld *world, SteerVehicleId id)
{
    return steer_vehicle_lookup(world, id) != NULL;
}

uint64_t steer_vehicle_serial(const SteerWorld *world, SteerVehicleId id)
{
    const SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    return vehicle ? steer_vehicle_cold(world, vehicle)->serial : 0;
}

int steer_world_vehicle_count(const SteerWorld *world) { return world->order_count - world->order_holes; }

int steer_world_get_vehicles(const SteerWorld *world, SteerVehicleId *out, int capacity)
{
    int n = 0;
    for (int i = 0; i < world->order_count; i++) {
        int index = world->order[i];
        if (index < 0) continue; /* removed since the last build */
        if (out && n < capacity) {
            const SteerVehicle *vehicle = steer_pool_at(&world->vehicles, index);
            out[n] = (SteerVehicleId){(uint32_t)index + 1, world->tag, vehicle->header.generation};
        }
        n++;
    }
    return n;
}

SteerResult steer_vehicle_get(const SteerWorld *world, SteerVehicleId id, SteerVehicleState *out)
{
    LOOKUP_OR_FAIL(vehicle, world, id);
    SteerVehicleState s = {0};
    const SteerVehicleCold *cold = steer_vehicle_cold(world, vehicle);
    s.serial = cold->serial;
    s.position = vehicle->position;
    s.velocity = vehicle->velocity;
    s.heading = vehicle->heading;
    s.side = steer_vehicle_side(vehicle);
    s.speed = steer_length(vehicle->velocity);
    s.force = vehicle->force;
    s.spawn = vehicle->spawn;
    s.mass = vehicle->mass;
    s.max_speed = vehicle->max_speed;
    s.max_force = vehicle->max_force;
    s.max_turn_rate = vehicle->max_turn_rate;
    s.radius = vehicle->radius;
    s.response_time = vehicle->response_time;
    s.neighbor_radius = vehicle->neighbor_radius;
    s.view_angle = cold->view_angle;
    s.flock_kinds = vehicle->flock_kinds;
    s.kind = vehicle->kind;
    s.color = cold->color;
    s.user_data = cold->user_data;
    s.combine = vehicle->combine;
    s.behaviour_count = steer_vehicle_get_behaviours(world, id, NULL, 0);
    if (out) *out = s;
    return STEER_OK;
}

SteerVec2 steer_vehicle_position(const SteerWorld *world, SteerVehicleId id)
{
    const SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    return vehicle ? vehicle->position : steer_vec2(0.0, 0.0);
}

uint32_t steer_vehicle_kind(const SteerWorld *world, SteerVehicleId id)
{
    const SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    return vehicle ? vehicle->kind : 0;
}

SteerVec2 steer_vehicle_velocity(const SteerWorld *world, SteerVehicleId id)
{
    const SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    return vehicle ? vehicle->velocity : steer_vec2(0.0, 0.0);
}

SteerVec2 steer_vehicle_heading(const SteerWorld *world, SteerVehicleId id)
{
    const SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    return vehicle ? vehicle->heading : steer_vec2(0.0, 0.0);
}

/* ---- Setters ------------------------------------------------------------------------------- */

SteerResult steer_vehicle_set_position(SteerWorld *world, SteerVehicleId id, SteerVec2 position)
{
    LOOKUP_FOR_CHANGE(vehicle, world, id);
    TRY(check_position(world, "position", position));
    vehicle->position = position;
    steer_world_index_place(world, (int)id.index1 - 1);
    return STEER_OK;
}

SteerResult steer_vehicle_set_velocity(SteerWorld *world, SteerVehicleId id, SteerVec2 velocity)
{
    LOOKUP_FOR_CHANGE(vehicle, world, id);
    TRY(check_velocity(world, "velocity", velocity));
    vehicle->velocity = steer_truncate(velocity, vehicle->max_speed);
    SteerVec2 direction = steer_normalize(vehicle->velocity);
    if (steer_length_sq(direction) > 0.0) { /* too small to have a direction: heading kept */
        vehicle->heading = direction;
    }
    return STEER_OK;
}

SteerResult steer_vehicle_set_heading(SteerWorld *world, SteerVehicleId id, double radians)
{
    LOOKUP_FOR_CHANGE(vehicle, world, id);
    if (!isfinite(radians))
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "heading must be finite (got %g)", radians);
    /* Turning a moving vehicle turns its velocity with it: heading follows velocity otherwise. */
    double speed = steer_length(vehicle->velocity);
    vehicle->heading = steer_vec2_from_angle(radians);
    vehicle->velocity = steer_scale(vehicle->heading, speed);
    return STEER_OK;
}

/* The tunables: one generic setter over the field table (fields.c), and the typed setters as
 * its wrappers, each under its own name in messages. */
SteerResult steer_vehicle_set_field_as(SteerWorld *world, SteerVehicleId id, SteerVehicleField field, double value)
{
    SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle) return steer_vehicle_invalid_id(world, id);
    steer_world_vehicles_changed(world);
    if ((unsigned)field >= STEER_VEHICLE_FIELD_COUNT)
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "no vehicle field %d", (int)field);
    if (!steer_vehicle_field_table[field].writable)
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "%s is read-only",
                          steer_vehicle_field_table[field].name);
    TRY(steer_vehicle_field_check(world, field, value));
    if (field == STEER_FIELD_RADIUS) TRY(steer_nav_radius_changing(world, vehicle, value)); /* its map, now */
    steer_vehicle_store_field(world, vehicle, field, value);
    return STEER_OK;
}

#define FIELD_SETTER(name, field)                                                                                      \
    SteerResult steer_vehicle_set_##name(SteerWorld *world, SteerVehicleId id, double value)                           \
    {                                                                                                                  \
        STEER_ENTRY(world);                                                                                            \
        return steer_vehicle_set_field_as(world, id, field, value);                                                    \
    }

FIELD_SETTER(mass, STEER_FIELD_MASS)
FIELD_SETTER(max_speed, STEER_FIELD_MAX_SPEED)
FIELD_SETTER(max_force, STEER_FIELD_MAX_FORCE)
FIELD_SETTER(max_turn_rate, STEER_FIELD_MAX_TURN_RATE)
FIELD_SETTER(radius, STEER_FIELD_RADIUS)
FIELD_SETTER(response_time, STEER_FIELD_RESPONSE_TIME)
FIELD_SETTER(neighbor_radius, STEER_FIELD_NEIGHBOR_RADIUS)
FIELD_SETTER(view_angle, STEER_FIELD_VIEW_ANGLE)

SteerResult steer_vehicle_set_flock_kinds(SteerWorld *world, SteerVehicleId id, uint64_t kinds)
{
    LOOKUP_FOR_CHANGE(vehicle, world, id);
    vehicle->flock_kinds = kinds;
    return STEER_OK;
}

SteerResult steer_vehicle_set_kind(SteerWorld *world, SteerVehicleId id, uint32_t kind)
{
    LOOKUP_FOR_CHANGE(vehicle, world, id);
    TRY(check_kind(world, kind));
    world->kind_population[vehicle->kind]--;
    world->kind_population[kind]++;
    vehicle->kind = kind;
    steer_world_index_place(world, (int)id.index1 - 1); /* the index's entry holds the kind it had */
    return STEER_OK;
}

SteerResult steer_vehicle_set_color(SteerWorld *world, SteerVehicleId id, uint32_t color)
{
    LOOKUP_FOR_CHANGE(vehicle, world, id);
    steer_vehicle_cold(world, vehicle)->color = color;
    return STEER_OK;
}

SteerResult steer_vehicle_set_user_data(SteerWorld *world, SteerVehicleId id, uint64_t user_data)
{
    LOOKUP_FOR_CHANGE(vehicle, world, id);
    steer_vehicle_cold(world, vehicle)->user_data = user_data;
    return STEER_OK;
}

SteerResult steer_vehicle_set_combine(SteerWorld *world, SteerVehicleId id, SteerCombine combine)
{
    LOOKUP_FOR_CHANGE(vehicle, world, id);
    TRY(check_combine(world, combine));
    vehicle->combine = combine;
    steer_vehicle_refresh_group_flags(vehicle); /* the step class depends on it */
    return STEER_OK;
}
