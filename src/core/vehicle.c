/* SPDX-License-Identifier: MIT */
/* vehicle.c - creating, removing, reading and tuning vehicles. Every value is checked here, at the
 * boundary, so no NaN, infinity or out-of-range number ever reaches vehicle state. */
#include <stdlib.h>
#include <string.h>

#include "world_internal.h"

SteerVehicleDef steer_default_vehicle_def(void)
{
    SteerVehicleDef def = {0};
    def.mass = 1.0;
    def.max_speed = 100.0;
    def.max_force = 300.0;
    def.max_turn_rate = 0.0;
    def.radius = 8.0;
    def.response_time = 0.25;
    def.neighbor_radius = 50.0;
    def.view_angle = 2.0 * STEER_PI;
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

/* Each tunable with its limits (steer_types.h). */
static SteerResult check_mass(const SteerWorld *world, const char *name, double value)
{
    return steer_check_range(world, "", name, value, STEER_MIN_POSITIVE, STEER_MAX_MASS);
}

static SteerResult check_speed(const SteerWorld *world, const char *name, double value)
{
    return steer_check_range(world, "", name, value, STEER_MIN_POSITIVE, STEER_MAX_SPEED);
}

static SteerResult check_force(const SteerWorld *world, const char *name, double value)
{
    return steer_check_range(world, "", name, value, STEER_MIN_POSITIVE, STEER_MAX_FORCE);
}

static SteerResult check_rate(const SteerWorld *world, const char *name, double value)
{
    return steer_check_range(world, "", name, value, 0.0, STEER_MAX_RATE);
}

static SteerResult check_length(const SteerWorld *world, const char *name, double value)
{
    return steer_check_range(world, "", name, value, 0.0, STEER_MAX_LENGTH);
}

/// Group behaviours divide by it: 0 (no neighbours) or at least STEER_MIN_POSITIVE.
static SteerResult check_neighbor_radius(const SteerWorld *world, const char *name, double value)
{
    if (value == 0.0) return STEER_OK;
    return steer_check_range(world, "", name, value, STEER_MIN_POSITIVE, STEER_MAX_LENGTH);
}

static SteerResult check_time(const SteerWorld *world, const char *name, double value)
{
    return steer_check_range(world, "", name, value, STEER_MIN_POSITIVE, STEER_MAX_TIME);
}

static SteerResult check_position(const SteerWorld *world, const char *name, SteerVec2 value)
{
    return steer_check_point(world, "", name, value);
}

static SteerResult check_velocity(const SteerWorld *world, const char *name, SteerVec2 value)
{
    return steer_check_vector(world, "", name, value, STEER_MAX_SPEED);
}

/// The cone test's threshold: all-round vision (2π, give or take rounding) skips the test.
static double steer_view_cos(double view_angle)
{
    return view_angle < 2.0 * STEER_PI - 1e-9 ? cos(0.5 * view_angle) : -2.0;
}

static SteerResult check_view_angle(const SteerWorld *world, double value)
{
    if (isfinite(value) && value > 0.0 && value <= 2.0 * STEER_PI + 1e-9) return STEER_OK;
    return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "view_angle must be in (0, 2π] radians (got %g)", value);
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
    TRY(check_mass(world, "mass", def->mass));
    TRY(check_speed(world, "max_speed", def->max_speed));
    TRY(check_force(world, "max_force", def->max_force));
    TRY(check_rate(world, "max_turn_rate", def->max_turn_rate));
    TRY(check_length(world, "radius", def->radius));
    TRY(check_time(world, "response_time", def->response_time));
    TRY(check_neighbor_radius(world, "neighbor_radius", def->neighbor_radius));
    TRY(check_view_angle(world, def->view_angle));
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
    vehicle->position = def->position;
    vehicle->spawn = def->position;
    vehicle->velocity = steer_truncate(def->velocity, def->max_speed);
    /* A velocity too small to have a direction (a denormal) leaves the heading to `heading`. */
    SteerVec2 direction = steer_normalize(vehicle->velocity);
    if (steer_length_sq(direction) > 0.0)
        vehicle->heading = direction;
    else
        vehicle->heading = steer_vec2_from_angle(def->heading);
    vehicle->mass = def->mass;
    vehicle->max_speed = def->max_speed;
    vehicle->max_force = def->max_force;
    vehicle->max_turn_rate = def->max_turn_rate;
    vehicle->radius = def->radius;
    vehicle->response_time = def->response_time;
    vehicle->neighbor_radius = def->neighbor_radius;
    cold->view_angle = def->view_angle;
    vehicle->view_cos = steer_view_cos(def->view_angle);
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
    steer_vehicle_free_behaviours(world, vehicle);
    steer_pool_release(&world->vehicles, index);
    steer_world_vehicles_changed(world);
    /* Behaviours of others that target it notice at their next step or query
     * (steer_slot_target_lost): no scan over every vehicle here. */
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

#define DEFINE_SETTER(field, check)                                                                                    \
    SteerResult steer_vehicle_set_##field(SteerWorld *world, SteerVehicleId id, double value)                          \
    {                                                                                                                  \
        LOOKUP_FOR_CHANGE(vehicle, world, id);                                                                         \
        TRY(check(world, #field, value));                                                                              \
        vehicle->field = value;                                                                                        \
        return STEER_OK;                                                                                               \
    }

DEFINE_SETTER(mass, check_mass)
DEFINE_SETTER(max_force, check_force)
DEFINE_SETTER(max_turn_rate, check_rate)
DEFINE_SETTER(radius, check_length)
DEFINE_SETTER(response_time, check_time)
DEFINE_SETTER(neighbor_radius, check_neighbor_radius)

SteerResult steer_vehicle_set_max_speed(SteerWorld *world, SteerVehicleId id, double value)
{
    LOOKUP_FOR_CHANGE(vehicle, world, id);
    TRY(check_speed(world, "max_speed", value));
    vehicle->max_speed = value;
    vehicle->velocity = steer_truncate(vehicle->velocity, value);
    return STEER_OK;
}

SteerResult steer_vehicle_set_view_angle(SteerWorld *world, SteerVehicleId id, double value)
{
    LOOKUP_FOR_CHANGE(vehicle, world, id);
    TRY(check_view_angle(world, value));
    steer_vehicle_cold(world, vehicle)->view_angle = value;
    vehicle->view_cos = steer_view_cos(value);
    return STEER_OK;
}

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
