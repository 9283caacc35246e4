/* SPDX-License-Identifier: MIT */
/* world.c - world lifetime, errors, time and the fixed step (force, then integration). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "behaviours_internal.h"
#include "nav_internal.h"

/* Below this squared speed (units²/s²) the heading is left alone: normalising a tiny velocity
 * would spin a vehicle at rest. */
#define STEER_HEADING_SPEED_SQ_EPSILON 1e-6

SteerWorldDef steer_default_world_def(void)
{
    SteerWorldDef def = {0};
    for (int f = 0; f < STEER_WORLD_FIELD_COUNT; f++) {
        const SteerFieldInfo *row = &steer_world_field_table[f];
        char *at = (char *)&def + row->def_offset;
        if (row->check == STEER_FIELD_INTEGER) {
            int value = (int)row->fallback;
            memcpy(at, &value, sizeof value);
        } else {
            memcpy(at, &row->fallback, sizeof row->fallback);
        }
    }
    def.edges = STEER_EDGES_NONE;
    def.seed = 1;
    return def;
}

static SteerResult check_message(char *message, size_t size, const char *text)
{
    if (message && size > 0) snprintf(message, size, "%s", text);
    return STEER_ERROR_INVALID_ARGUMENT;
}

static bool in_range(double value, double lo, double hi) { return isfinite(value) && value >= lo && value <= hi; }

/// Whether `value` suits world row `f` (a double, or an int for an INTEGER row); if not, the
/// message in `text`.
static bool world_field_ok(int f, double value, char *text, size_t size)
{
    const SteerFieldInfo *row = &steer_world_field_table[f];
    switch (row->check) {
    case STEER_FIELD_INTEGER:
        if (value >= 0 && value <= row->max) return true; /* 0: a zeroed definition, one thread */
        snprintf(text, size, "%s must be an integer in [%g, %g] (got %d)", row->name, row->min, row->max, (int)value);
        return false;
    case STEER_FIELD_STEP:
        if (!(isfinite(value) && value > 0.0 && value <= row->max)) {
            snprintf(text, size, "%s must be a finite number in (0, %g] seconds (got %g)", row->name, row->max, value);
            return false;
        }
        if (value >= row->min) return true;
        snprintf(text, size, "%s must be at least %g seconds (got %g)", row->name, row->min, value);
        return false;
    default:
        if (in_range(value, row->min, row->max)) return true;
        snprintf(text, size, "%s must be a finite number in [%g, %g] %s (got %g)", row->name, row->min, row->max,
                 row->unit, value);
        return false;
    }
}

/// Checks rows [first, last) of the world field table in `def`; `text` receives the message.
static bool world_rows_ok(const SteerWorldDef *def, int first, int last, char *text, size_t size)
{
    for (int f = first; f < last; f++) {
        const SteerFieldInfo *row = &steer_world_field_table[f];
        const char *at = (const char *)def + row->def_offset;
        double value;
        if (row->check == STEER_FIELD_INTEGER) {
            int i;
            memcpy(&i, at, sizeof i);
            value = i;
        } else {
            memcpy(&value, at, sizeof value);
        }
        if (!world_field_ok(f, value, text, size)) return false;
    }
    return true;
}

static SteerResult check_world_def(const SteerWorldDef *def, char *message, size_t message_size)
{
    char text[160];
    if (!def) return check_message(message, message_size, "world definition is NULL");
    /* The size (the table's first two rows), then edges, then the rest: the order messages have
     * always come in. */
    if (!world_rows_ok(def, 0, STEER_WORLD_FIELD_DT, text, sizeof text))
        return check_message(message, message_size, text);
    if (def->edges != STEER_EDGES_NONE && def->edges != STEER_EDGES_WRAP && def->edges != STEER_EDGES_CONTAIN) {
        snprintf(text, sizeof text, "edges must be none, wrap or contain (got %d)", (int)def->edges);
        return check_message(message, message_size, text);
    }
    if (!world_rows_ok(def, STEER_WORLD_FIELD_DT, STEER_WORLD_FIELD_COUNT, text, sizeof text))
        return check_message(message, message_size, text);
    if (!def->enqueue_task != !def->finish_task) {
        snprintf(text, sizeof text, "enqueue_task and finish_task must be set together (got only %s)",
                 def->enqueue_task ? "enqueue_task" : "finish_task");
        return check_message(message, message_size, text);
    }
    if (message && message_size > 0) message[0] = '\0';
    return STEER_OK;
}

SteerResult steer_world_def_check(const SteerWorldDef *def, char *message, size_t message_size)
{
    SteerResult result = check_world_def(def, message, message_size);
    /* Size and step all zero: a definition that never got its defaults (`SteerWorldDef def = {0}`),
     * which the message then names. */
    if (result != STEER_OK && def && def->width == 0.0 && def->height == 0.0 && def->dt == 0.0 && message &&
        message_size > 0) {
        size_t used = strlen(message);
        snprintf(message + used, message_size - used, "; %s", STEER_ZEROED_DEF_HINT("world"));
    }
    return result;
}

static uint16_t world_tag(const SteerWorld *world)
{
    /* Different live worlds have different addresses; a hash of the address makes an id of
     * another world very unlikely to be taken for one of ours. A world made after another was
     * destroyed may get its address, so the moment of creation goes into the hash too: an id kept
     * past its world is then refused by the next one but once in 65,535 times. Nothing simulated
     * reads the tag, so this costs no determinism. 0 is reserved for null ids. */
    struct timespec now = {0, 0};
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint64_t bits = (uint64_t)(uintptr_t)world ^ ((uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec);
    bits ^= bits >> 33;
    bits *= 0xff51afd7ed558ccdULL;
    bits ^= bits >> 29;
    uint16_t tag = (uint16_t)(bits >> 24);
    return tag ? tag : 1;
}

void *steer_default_alloc(void *user, void *block, size_t old_size, size_t new_size)
{
    (void)user;
    (void)old_size;
    if (new_size == 0) {
        free(block);
        return NULL;
    }
    return realloc(block, new_size);
}

const char *steer_version(void) { return STEER_VERSION; }

SteerWorld *steer_world_create(const SteerWorldDef *def)
{
    if (steer_world_def_check(def, NULL, 0) != STEER_OK) return NULL;
    SteerAllocator alloc = {def->alloc ? def->alloc : steer_default_alloc, def->alloc_user};
    SteerWorld *world = steer_realloc(&alloc, NULL, 0, sizeof *world);
    if (!world) return NULL;
    memset(world, 0, sizeof *world);
    world->def = *def;
    world->alloc = alloc;
    world->tag = world_tag(world);
    world->next_serial = 1;
    steer_world_reseed(world, def->seed);
    steer_pool_init(&world->vehicles, sizeof(SteerVehicle), &world->alloc);
    steer_pool_init(&world->obstacles, sizeof(SteerObstacle), &world->alloc);
    steer_pool_init(&world->walls, sizeof(SteerWall), &world->alloc);
    steer_pool_init(&world->paths, sizeof(SteerPath), &world->alloc);
    steer_pool_init(&world->fields, sizeof(SteerFlowField), &world->alloc);
    world->grid_stale = true;
    world->index_stale = true;
    world->obstacles_stale = true;
    world->walls_stale = true;
    world->parallel_min = STEER_PARALLEL_MIN_VEHICLES;
    world->prefetch_min = STEER_PREFETCH_MIN_VEHICLES;
    world->sense_order_min = STEER_SENSE_ORDER_MIN_VEHICLES;
    /* A pool that cannot be had leaves the world on one thread: the same result, only slower. */
    world->pool = def->enqueue_task ? steer_thread_pool_create_user(&world->alloc, def->threads, def->enqueue_task,
                                                                    def->finish_task, def->user_task_context)
                                    : steer_thread_pool_create(&world->alloc, def->threads);
    world->grid.count_tasks = steer_thread_pool_size(world->pool);
    world->grid.prefetchw = steer_cpu_has_prefetchw();
    world->grid.vehicles = world;
    /* An empty world can be queried too: give the grid its first cells now. */
    if (!steer_grid_reserve(&world->grid, &world->alloc, 1, 1)) {
        steer_world_destroy(world);
        return NULL;
    }
    return world;
}

void steer_world_destroy(SteerWorld *world)
{
    if (!world) return;
    steer_thread_pool_destroy(world->pool, &world->alloc);
    steer_nav_free(world);
    for (int i = 0; i < world->vehicles.count; i++) {
        SteerVehicle *vehicle = steer_pool_at(&world->vehicles, i);
        if (vehicle->header.alive) steer_vehicle_free_behaviours(world, vehicle);
    }
    for (int i = 0; i < world->paths.count; i++) {
        SteerPath *path = steer_pool_at(&world->paths, i);
        if (path->header.alive) steer_free(&world->alloc, path->points, (size_t)path->count * sizeof *path->points);
    }
    for (int i = 0; i < world->fields.count; i++) {
        SteerFlowField *field = steer_pool_at(&world->fields, i);
        if (field->header.alive)
            steer_free(&world->alloc, field->vectors,
                       (size_t)field->cols * (size_t)field->rows * sizeof *field->vectors);
    }
    steer_pool_free(&world->vehicles);
    steer_free(&world->alloc, world->vehicle_cold, (size_t)world->vehicle_cold_capacity * sizeof *world->vehicle_cold);
    steer_pool_free(&world->obstacles);
    steer_pool_free(&world->walls);
    steer_pool_free(&world->paths);
    steer_pool_free(&world->fields);
    steer_free(&world->alloc, world->order, (size_t)world->order_capacity * sizeof *world->order);
    steer_grid_free(&world->grid, &world->alloc);
    steer_shape_grid_free(&world->obstacle_grid, &world->alloc);
    steer_shape_grid_free(&world->wall_grid, &world->alloc);
    steer_senses_free(world);
    steer_orca_watch_free(world);
    SteerAllocator alloc = world->alloc; /* the world's own block goes last, through a copy */
    steer_free(&alloc, world, sizeof *world);
}

SteerResult steer_fail(const SteerWorld *world, SteerResult code, const char *format, ...)
{
    /* The error buffer is scratch space, not world state: reporting a failure through a const
     * world pointer (a failed query) is allowed. */
    SteerWorld *mutable_world = (SteerWorld *)world;
    char *error = mutable_world->error;
    size_t size = sizeof mutable_world->error;
    int named = world->api ? snprintf(error, size, "%s: ", world->api) : 0;
    if (named > 0 && (size_t)named < size) {
        error += named;
        size -= (size_t)named;
    }
    va_list args;
    va_start(args, format);
    vsnprintf(error, size, format, args);
    va_end(args);
    return code;
}

SteerResult steer_check_range(const SteerWorld *world, const char *prefix, const char *name, double value, double lo,
                              double hi)
{
    if (in_range(value, lo, hi)) return STEER_OK;
    return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "%s%s must be a finite number in [%g, %g] (got %g)", prefix,
                      name, lo, hi, value);
}

SteerResult steer_check_vector(const SteerWorld *world, const char *prefix, const char *name, SteerVec2 value,
                               double limit)
{
    if (!steer_vec2_is_finite(value))
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "%s%s must be finite (got %g, %g)", prefix, name,
                          value.x, value.y);
    if (fabs(value.x) > limit || fabs(value.y) > limit)
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "%s%s must be within ±%g on each axis (got %g, %g)",
                          prefix, name, limit, value.x, value.y);
    return STEER_OK;
}

SteerResult steer_check_point(const SteerWorld *world, const char *prefix, const char *name, SteerVec2 point)
{
    return steer_check_vector(world, prefix, name, point, STEER_MAX_COORDINATE);
}

SteerResult steer_fail_hint(const SteerWorld *world, SteerResult code, const char *hint)
{
    SteerWorld *mutable_world = (SteerWorld *)world;
    size_t used = strlen(mutable_world->error);
    snprintf(mutable_world->error + used, sizeof mutable_world->error - used, "; %s", hint);
    return code;
}

void steer_clear_error(const SteerWorld *world) { ((SteerWorld *)world)->error[0] = '\0'; }

const char *steer_world_last_error(const SteerWorld *world) { return world->error; }

double steer_world_time(const SteerWorld *world) { return world->time; }
uint64_t steer_world_step_count(const SteerWorld *world) { return world->step_count; }
double steer_world_dt(const SteerWorld *world) { return world->def.dt; }
double steer_world_width(const SteerWorld *world) { return world->def.width; }
double steer_world_height(const SteerWorld *world) { return world->def.height; }
SteerEdges steer_world_edges(const SteerWorld *world) { return world->def.edges; }

SteerResult steer_world_set_dt(SteerWorld *world, double dt)
{
    STEER_ENTRY(world);
    char text[160];
    if (!world_field_ok(STEER_WORLD_FIELD_DT, dt, text, sizeof text))
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "%s", text);
    world->def.dt = dt;
    return STEER_OK;
}

SteerVec2 steer_world_offset(const SteerWorld *world, SteerVec2 a, SteerVec2 b)
{
    return steer_world_offset_fast(world, a, b);
}

uint32_t steer_world_random_u32(SteerWorld *world) { return steer_pcg32_next(&world->rng); }
double steer_world_random(SteerWorld *world) { return steer_pcg32_unit(&world->rng); }

void steer_world_reseed(SteerWorld *world, uint64_t seed)
{
    world->def.seed = seed;
    steer_pcg32_seed(&world->rng, seed, 0x5eedULL);
    /* The noise is keyed by the seed too, so roaming leashes differ between seeds. */
    world->noise_seed = seed * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
}

/* ---- The step ------------------------------------------------------------------------------ */

/// Turns `velocity` toward its own direction by at most max_angle from `heading`.
static SteerVec2 limit_turn(SteerVec2 heading, SteerVec2 velocity, double max_angle)
{
    double speed = steer_length(velocity);
    if (speed * speed <= STEER_HEADING_SPEED_SQ_EPSILON) return velocity;
    SteerVec2 direction = steer_scale(velocity, 1.0 / speed);
    double angle = atan2(steer_cross(heading, direction), steer_dot(heading, direction));
    if (fabs(angle) <= max_angle) return velocity;
    double turn = angle > 0.0 ? max_angle : -max_angle;
    SteerVec2 turned = steer_rotate(heading, steer_vec2_from_angle(turn));
    return steer_scale(turned, speed);
}

static void apply_edges(const SteerWorld *world, SteerVehicle *vehicle)
{
    double width = world->def.width, height = world->def.height;
    switch (world->def.edges) {
    case STEER_EDGES_WRAP:
        /* Most vehicles are inside: skip floor() (a libm call at -O2) for them. */
        if (!(vehicle->position.x >= 0.0 && vehicle->position.x < width))
            vehicle->position.x -= width * floor(vehicle->position.x / width);
        if (!(vehicle->position.y >= 0.0 && vehicle->position.y < height))
            vehicle->position.y -= height * floor(vehicle->position.y / height);
        /* floor() can leave exactly `width` after rounding a tiny negative value. */
        if (vehicle->position.x >= width) vehicle->position.x = 0.0;
        if (vehicle->position.y >= height) vehicle->position.y = 0.0;
        break;
    case STEER_EDGES_CONTAIN:
        if (vehicle->position.x < 0.0) {
            vehicle->position.x = 0.0;
            if (vehicle->velocity.x < 0.0) vehicle->velocity.x = 0.0;
        }
        if (vehicle->position.x > width) {
            vehicle->position.x = width;
            if (vehicle->velocity.x > 0.0) vehicle->velocity.x = 0.0;
        }
        if (vehicle->position.y < 0.0) {
            vehicle->position.y = 0.0;
            if (vehicle->velocity.y < 0.0) vehicle->velocity.y = 0.0;
        }
        if (vehicle->position.y > height) {
            vehicle->position.y = height;
            if (vehicle->velocity.y > 0.0) vehicle->velocity.y = 0.0;
        }
        break;
    case STEER_EDGES_NONE:
        /* Unbounded, but not without limit: a vehicle that drifts to STEER_MAX_COORDINATE (hours
         * at a high speed) stops there as at a wall, so every offset the step takes stays finite. */
        if (vehicle->position.x < -STEER_MAX_COORDINATE) {
            vehicle->position.x = -STEER_MAX_COORDINATE;
            if (vehicle->velocity.x < 0.0) vehicle->velocity.x = 0.0;
        }
        if (vehicle->position.x > STEER_MAX_COORDINATE) {
            vehicle->position.x = STEER_MAX_COORDINATE;
            if (vehicle->velocity.x > 0.0) vehicle->velocity.x = 0.0;
        }
        if (vehicle->position.y < -STEER_MAX_COORDINATE) {
            vehicle->position.y = -STEER_MAX_COORDINATE;
            if (vehicle->velocity.y < 0.0) vehicle->velocity.y = 0.0;
        }
        if (vehicle->position.y > STEER_MAX_COORDINATE) {
            vehicle->position.y = STEER_MAX_COORDINATE;
            if (vehicle->velocity.y > 0.0) vehicle->velocity.y = 0.0;
        }
        break;
    }
}

/// Newton with a semi-implicit Euler step: force -> acceleration -> velocity -> position.
static void integrate(const SteerWorld *world, SteerVehicle *vehicle, double dt)
{
    SteerVec2 acceleration = steer_scale(vehicle->force, 1.0 / vehicle->mass);
    SteerVec2 velocity = steer_add(vehicle->velocity, steer_scale(acceleration, dt));
    if (vehicle->max_turn_rate > 0.0) velocity = limit_turn(vehicle->heading, velocity, vehicle->max_turn_rate * dt);
    velocity = steer_truncate(velocity, vehicle->max_speed);
    bool orca = steer_orca_on(vehicle);
    if (orca) { /* reciprocal avoidance: the velocity above is the preferred one (orca.c) */
        velocity = steer_orca_velocity(world, vehicle, velocity);
        if (vehicle->max_turn_rate > 0.0)
            velocity =
                steer_truncate(limit_turn(vehicle->heading, velocity, vehicle->max_turn_rate * dt), vehicle->max_speed);
    }
    vehicle->velocity = velocity;
    vehicle->position = steer_add(vehicle->position, steer_scale(velocity, dt));
    apply_edges(world, vehicle);
    if (orca) {
        vehicle->heading = steer_orca_heading(vehicle, vehicle->velocity, dt);
    } else if (steer_length_sq(vehicle->velocity) > STEER_HEADING_SPEED_SQ_EPSILON) {
        vehicle->heading = steer_normalize(vehicle->velocity);
    }
}

/// Drops behaviours whose target vehicle, path or field was removed (no allocation: in place).
static void drop_lost_behaviours(const SteerWorld *world, SteerVehicle *vehicle)
{
    int kept = 0;
    for (int i = 0; i < vehicle->behaviour_count; i++) {
        SteerBehaviourSlot *slot = &vehicle->behaviours[i];
        if (slot->lost || steer_slot_target_lost(world, slot)) continue;
        if (kept != i) vehicle->behaviours[kept] = *slot;
        kept++;
    }
    if (kept != vehicle->behaviour_count) {
        vehicle->behaviour_count = kept;
        steer_vehicle_refresh_group_flags(vehicle);
    }
}

#if defined(__GNUC__)
/// Asks for the first cache line of every vehicle `vehicle`'s behaviours aim at (pursue, evade, ...):
/// their forces read its position, velocity and heading, scattered reads that miss the cache in a
/// world of any size, since the vehicle at hand is visited in creation order and its target is
/// anywhere. The vehicle's slots are in cache by then (asked for further ahead).
static void prefetch_targets(const SteerWorld *world, const SteerVehicle *vehicle)
{
    for (int i = 0; i < vehicle->behaviour_count; i++) {
        const SteerBehaviourDef *def = &vehicle->behaviours[i].def;
        const SteerBehaviourInfo *info = &steer_behaviour_rows[def->type].info;
        for (int t = 0; t < info->target_count; t++) {
            const SteerTargetSpec *spec = &info->targets[t];
            if (spec->arg != STEER_ARG_VEHICLE && spec->arg != STEER_ARG_POINT_OR_VEHICLE) continue;
            SteerTarget target;
            memcpy(&target, (const char *)def + spec->offset, sizeof target);
            uint32_t index1 = target.vehicle.index1;
            if (target.kind != STEER_TARGET_VEHICLE || index1 == 0 || index1 > (uint32_t)world->vehicles.count)
                continue;
            const char *at = steer_pool_at(&world->vehicles, (int)index1 - 1);
            __builtin_prefetch(at, 0, 1);
            __builtin_prefetch(at + offsetof(SteerVehicle, radius) - 1, 0, 1); /* through the heading */
        }
    }
}
#endif

/// Moves the vehicle of creation index `rank` and copies it for the next grid build while it is
/// in cache (grid.h: staged), widening `bounds`.
static void move_and_stage(SteerWorld *world, SteerVehicle *vehicle, int rank, SteerGridBounds *bounds)
{
    integrate(world, vehicle, world->def.dt);
    steer_grid_stage_into(&world->grid, bounds, vehicle, rank, world->order[rank], world->grid.stage_whole);
}

/// Forces (and, if `move`, integration) of a batch of plain flockers; returns 0, the new batch size.
static int flush_flockers(SteerWorld *world, SteerVehicle *const *batch, const int *ranks, int count, bool move,
                          SteerGridBounds *bounds)
{
    if (count == 0) return 0;
    steer_flock_step_forces(world, batch, ranks, count);
    if (move)
        for (int k = 0; k < count; k++) move_and_stage(world, batch[k], ranks[k], bounds);
    return 0;
}

/// The forces of the vehicles of creation indices [begin, end), in creation order, each moved as
/// soon as its force is known when `move`. Draws come in creation order (step_rng for a task).
static void forces_range(SteerWorld *world, int begin, int end, bool move, SteerGridBounds *bounds)
{
    /* Plain flockers go through step_flock.c in batches; any other vehicle first flushes the
     * batch, so that PRNG draws still come in creation order. */
    SteerVehicle *batch[STEER_FLOCK_BATCH];
    int batch_ranks[STEER_FLOCK_BATCH], batched = 0;
    /* A world whose behaviours aim at vehicles (pursue, evade: hunters and prey) switches them all
     * the time, which moves each vehicle's slots away from it: their misses cost even a world that
     * fits the caches (bench-mixed's hunter/prey step, 10,000 vehicles: 1.15x faster asking). */
    bool ask_ahead = world->order_count >= world->prefetch_min ||
                     (world->vehicle_targets && world->order_count >= STEER_PREFETCH_TARGETS_MIN_VEHICLES);
    /* Targets are lost only by removals: none since the last look, nothing to drop. */
    bool check_lost = world->target_removals != world->targets_checked;
    for (int i = begin; i < end; i++) {
        int pool_slot = world->order[i];
        SteerVehicle *vehicle = steer_pool_at(&world->vehicles, pool_slot);
#if defined(__GNUC__)
        /* Two stages of prefetching, so that neither waits for memory: the vehicle 16 ahead (its
         * three lines, consecutive or not: left to the hardware, the load of its pointer to its
         * slots was the loop's longest wait), then the slots of the vehicle 8 ahead, through that
         * pointer, in cache by then. Its slots are read when its batch is full. Both into the
         * second-level cache only (locality 1): a prefetch into the first level holds one of its
         * few fill buffers until the line arrives, and at six lines a vehicle the loop ran out of
         * them (1,000,000 flockers: 1.04-1.05x faster this way). */
        if (ask_ahead && i + 16 < end) {
            const char *further = steer_pool_at(&world->vehicles, world->order[i + 16]);
            for (size_t at = 0; at < sizeof(SteerVehicle); at += 64) __builtin_prefetch(further + at, 0, 1);
            __builtin_prefetch(further + sizeof(SteerVehicle) - 1, 0, 1);
        }
        /* Then what the vehicle 4 ahead aims at, through its slots, in cache by then. */
        if (ask_ahead && world->vehicle_targets && i + 4 < end)
            prefetch_targets(world, steer_pool_at(&world->vehicles, world->order[i + 4]));
        if (ask_ahead && i + 8 < end) {
            const SteerVehicle *ahead = steer_pool_at(&world->vehicles, world->order[i + 8]);
            /* (none before its first behaviour: arithmetic on a null pointer is undefined) */
            const char *hot = (const char *)ahead->behaviours;
            if (hot) {
                for (size_t at = 0; at < STEER_SLOT_HOT_BYTES; at += 64) __builtin_prefetch(hot + at, 0, 1);
                __builtin_prefetch(hot + STEER_SLOT_HOT_BYTES - 1, 0, 1);
                /* and its other slots (flock and evade: two), whose targets prefetch_targets reads */
                for (int k = 1; k < ahead->behaviour_count; k++) {
                    const char *more = hot + (size_t)k * sizeof(SteerBehaviourSlot);
                    for (size_t at = 0; at < STEER_SLOT_HOT_BYTES; at += 64) __builtin_prefetch(more + at, 0, 1);
                    __builtin_prefetch(more + STEER_SLOT_HOT_BYTES - 1, 0, 1);
                }
            }
        }
#endif
        if (steer_flock_step_eligible(world, vehicle)) {
            batch[batched] = vehicle;
            batch_ranks[batched++] = i;
            if (batched == STEER_FLOCK_BATCH)
                batched = flush_flockers(world, batch, batch_ranks, batched, move, bounds);
            continue;
        }
        batched = flush_flockers(world, batch, batch_ranks, batched, move, bounds);
        if (check_lost) drop_lost_behaviours(world, vehicle);
        vehicle->force = steer_combine_forces(world, vehicle);
        if (move) move_and_stage(world, vehicle, i, bounds);
    }
    flush_flockers(world, batch, batch_ranks, batched, move, bounds);
}

/// Integration of the vehicles of creation indices [begin, end) (forces all known).
static void moves_range(SteerWorld *world, int begin, int end, SteerGridBounds *bounds)
{
    for (int i = begin; i < end; i++)
        move_and_stage(world, steer_pool_at(&world->vehicles, world->order[i]), i, bounds);
}

/* ---- The step on a pool ---------------------------------------------------------------------- */

typedef struct StepJob {
    SteerWorld *world;
    bool move; ///< forces_task moves each vehicle too
    SteerGridBounds bounds[STEER_MAX_THREADS];
} StepJob;

static void forces_task(void *context, int t, int tasks)
{
    (void)tasks;
    StepJob *job = context;
    SteerWorld *world = job->world;
    /* Widened at every vehicle: on this thread's stack, not beside the other tasks' in the job
     * (a cache line two cores write in turn). */
    SteerGridBounds bounds = job->bounds[t];
    forces_range(world, world->step_begin[t], world->step_begin[t + 1], job->move, &bounds);
    job->bounds[t] = bounds;
}

static void moves_task(void *context, int t, int tasks)
{
    (void)tasks;
    StepJob *job = context;
    SteerWorld *world = job->world;
    SteerGridBounds bounds = job->bounds[t]; /* (as in forces_task) */
    moves_range(world, world->step_begin[t], world->step_begin[t + 1], &bounds);
    job->bounds[t] = bounds;
}

/// The forces and moves on the pool, each task a range of creation order: the same bits as one
/// thread, since a vehicle's force depends only on the snapshot (grid, neighbourhoods) and its
/// own state, and each task draws from the generator where one thread would be at its first
/// vehicle. False (nothing done) when this step must run on one thread: some vehicle draws a
/// number of values that depends on its forces, or uses a grid's query scratch, or the grid's
/// plan was made for another split.
static bool step_on_pool(SteerWorld *world, SteerThreadPool *pool, bool move_at_once)
{
    const SteerGrid *g = &world->grid;
    int tasks = steer_thread_pool_size(pool);
    int n = world->order_count;
    if ((g->step_classes & STEER_STEP_SERIAL) || g->plan_tasks != tasks || g->count != n) return false;
    /* Behaviours that read whole entries (SteerBehaviourInfo.reads_grid): gather them now, not
     * lazily from a task. */
    if (g->step_classes & STEER_STEP_ENTRIES) steer_grid_gather_on(g, pool);
    StepJob job;
    job.world = world;
    job.move = move_at_once;
    uint64_t drawn = 0;
    for (int t = 0; t < tasks; t++) {
        int begin, end;
        steer_task_range(n, tasks, t, &begin, &end);
        world->step_begin[t] = begin;
        steer_grid_bounds_clear(&job.bounds[t]);
        world->step_rng[t].rng = world->rng;
        steer_pcg32_advance(&world->step_rng[t].rng, drawn);
        drawn += (uint64_t)g->draws[t];
    }
    world->step_begin[tasks] = n;
    world->step_tasks = tasks;
    steer_thread_pool_run(pool, forces_task, &job);
    if (!move_at_once) steer_thread_pool_run(pool, moves_task, &job);
    world->step_tasks = 0;
    steer_pcg32_advance(&world->rng, drawn);
    for (int t = 0; t < tasks; t++) steer_grid_bounds_merge(&world->grid.bounds, &job.bounds[t]);
    return true;
}

void steer_world_step(SteerWorld *world)
{
    double dt = world->def.dt;
    bool queried = world->queried;
    world->queried = false;
    steer_nav_before_step(world); /* plans first, on this thread: nav.c */
    /* Neighbours are looked up in the grid of the positions everyone has before anyone moves. */
    steer_world_grid_cells(world); /* entries are gathered only if a behaviour asks for them */
    steer_world_obstacle_grid(world);
    steer_world_wall_grid(world);
    steer_prepare_neighbourhoods(world);
    /* Every force is computed from the same snapshot before anyone moves, in creation order, so
     * the result does not depend on slot reuse and PRNG draws come in a fixed order. Forces read
     * the others through the grid's copy, taken above - except behaviours aimed at a vehicle,
     * which read it itself: without any of those in the world, each vehicle moves as soon as its
     * force is known, and the step walks the vehicles once instead of twice. */
    bool move_at_once = !world->vehicle_targets;
    /* The grid is built: its stage and bounds are free to collect the moved vehicles - whole
     * entries only if this build was gathered, or something in it might ask (grid.h: stage_whole).
     * A world whose behaviours read only their summed neighbourhoods never does (flock, separate,
     * align, cohere, and every behaviour that needs no neighbour): its step writes a third of the
     * bytes per vehicle, and gathers nothing. */
    SteerGrid *g = &world->grid;
    g->stage_whole = g->gathered || (g->step_classes & STEER_STEP_ENTRIES) || g->slow_askers;
    steer_grid_bounds_clear(&g->bounds);
    SteerThreadPool *pool = steer_world_step_pool(world);
    steer_grid_gather_before_moves(g, pool);
    if (!pool || !step_on_pool(world, pool, move_at_once)) {
        forces_range(world, 0, world->order_count, move_at_once, &world->grid.bounds);
        if (!move_at_once) moves_range(world, 0, world->order_count, &world->grid.bounds);
    }
    world->targets_checked = world->target_removals;
    world->grid_stale = true;
    world->index_stale = true; /* everyone moved: the next query rebuilds (from the stage) */
    world->grid.staged = true; /* every vehicle was staged as it moved */
    world->hoods_ready = false;
    world->step_count++;
    world->time += dt;
    /* Senses see where everyone moved to (senses.c): a phase of its own, after the moves. */
    steer_senses_step(world);
    if (queried) { /* see SteerWorld.queried: no brain's think then pays for the whole build */
        steer_world_grid_cells(world);
        steer_grid_gather_on(&world->grid, steer_world_step_pool(world));
    }
}
