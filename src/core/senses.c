/* SPDX-License-Identifier: MIT */
/* senses.c - sight, hearing, memory and timers: what vehicles perceive, computed by the step after
 * every vehicle has moved (docs/core.md "Senses").
 *
 * Sight walks the vehicle grid around each sensing vehicle (rebuilt at the end of such a step:
 * the next step reuses that build), keeps the candidates within range, of its kinds and in its
 * cone, and tests line of sight from the closest on until max_memories are seen. Line of sight
 * walks the obstacle and wall grids over the cells the segment crosses, without the grids' query
 * scratch, so that the pass runs on every thread: each task takes a range of the sensing
 * vehicles (in creation order) and writes only their senses. Events stay with each sense; the
 * pass then lists, in creation order, the vehicles that have any. Nothing here allocates during
 * the step: every array is sized when a sense is added, a timer set or a sound emitted. */
#include <string.h>

#include "world_internal.h"

/* ---- Definitions and checks ---------------------------------------------------------------- */

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

SteerSoundDef steer_default_sound_def(void)
{
    SteerSoundDef def;
    memset(&def, 0, sizeof def);
    def.radius = 100.0;
    return def;
}

static SteerResult check_name(const SteerWorld *world, const char *name)
{
    if (!name) return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "sense name must not be NULL");
    size_t length = strnlen(name, STEER_MAX_SENSE_NAME + 1);
    if (length == 0 || length > STEER_MAX_SENSE_NAME)
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "sense name must be 1 to %d bytes (got %s%zu)",
                          STEER_MAX_SENSE_NAME, length > STEER_MAX_SENSE_NAME ? "more than " : "",
                          length > STEER_MAX_SENSE_NAME ? (size_t)STEER_MAX_SENSE_NAME : length);
    return STEER_OK;
}

static SteerResult check_sense_def(const SteerWorld *world, const SteerSenseDef *def)
{
    if (!def) return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "sense definition is NULL");
    if (def->type != STEER_SENSE_SIGHT && def->type != STEER_SENSE_HEARING)
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "type must be sight or hearing (got %d)",
                          (int)def->type);
    TRY(check_name(world, def->name));
    TRY(steer_check_range(world, "sense ", "range", def->range, STEER_MIN_POSITIVE, STEER_MAX_LENGTH));
    if (def->type == STEER_SENSE_SIGHT && !(isfinite(def->fov) && def->fov > 0.0 && def->fov <= 2.0 * STEER_PI))
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT,
                          "sense fov must be a finite angle in (0, 2π] radians (got %g)", def->fov);
    TRY(steer_check_range(world, "sense ", "forget_after", def->forget_after, 0.0, STEER_MAX_TIME));
    TRY(steer_check_range(world, "sense ", "period", def->period, 0.0, STEER_MAX_TIME));
    if (def->max_memories < 1 || def->max_memories > STEER_MAX_MEMORIES)
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "sense max_memories must be in [1, %d] (got %d)",
                          STEER_MAX_MEMORIES, def->max_memories);
    return STEER_OK;
}

/* ---- The senses' blocks ----------------------------------------------------------------------- */

#define SENSE_CHUNK_BYTES (256u * 1024u)

/// A block of `size` bytes for a sense (16-aligned): a freed one of that size, or carved from the
/// last chunk, or from a new one; NULL when memory runs out.
static void *sense_alloc(SteerWorld *world, size_t size)
{
    size = (size + 15u) & ~(size_t)15u;
    for (int k = 0; k < world->sense_free_kinds; k++) {
        struct SteerSenseFree *f = &world->sense_free[k];
        if (f->size != size || !f->head) continue;
        void *block = f->head;
        memcpy(&f->head, block, sizeof f->head);
        return block;
    }
    if (size > world->sense_left) {
        if (world->sense_chunk_count == world->sense_chunk_capacity) {
            int next = world->sense_chunk_capacity ? 2 * world->sense_chunk_capacity : 8;
            SteerSenseChunk *grown =
                steer_realloc(&world->alloc, world->sense_chunks, (size_t)world->sense_chunk_capacity * sizeof *grown,
                              (size_t)next * sizeof *grown);
            if (!grown) return NULL;
            world->sense_chunks = grown;
            world->sense_chunk_capacity = next;
        }
        size_t bytes = size > SENSE_CHUNK_BYTES ? size : SENSE_CHUNK_BYTES;
        char *chunk = steer_realloc(&world->alloc, NULL, 0, bytes);
        if (!chunk) return NULL;
        world->sense_chunks[world->sense_chunk_count++] = (SteerSenseChunk){chunk, bytes};
        world->sense_at = chunk;
        world->sense_left = bytes;
    }
    void *block = world->sense_at;
    world->sense_at += size;
    world->sense_left -= size;
    return block;
}

/// Gives a block back for the next sense_alloc of its size (NULL: nothing). Chunks go back to the
/// world's allocator only with the world.
static void sense_release(SteerWorld *world, void *block, size_t size)
{
    if (!block) return;
    size = (size + 15u) & ~(size_t)15u;
    int k = 0;
    while (k < world->sense_free_kinds && world->sense_free[k].size != size) k++;
    if (k == world->sense_free_kinds) {
        if (k == (int)(sizeof world->sense_free / sizeof world->sense_free[0])) return; /* kept till the end */
        world->sense_free[k].size = size;
        world->sense_free[k].head = NULL;
        world->sense_free_kinds++;
    }
    /* the free list runs through the blocks: each starts with the one after it */
    memcpy(block, &world->sense_free[k].head, sizeof world->sense_free[k].head);
    world->sense_free[k].head = block;
}

/* ---- Sensors: the per-vehicle part ----------------------------------------------------------- */

static SteerSensor *sensor_of(const SteerWorld *world, int slot)
{
    return slot < world->sensor_capacity ? &world->sensors[slot] : NULL;
}

static bool has_anything(const SteerSensor *s) { return s->sense_count > 0 || s->wake_step != 0; }

/// Makes sure the vehicle in `slot` can be listed among the sensing ones (sensors, sensing and
/// the event lists have room); false when memory runs out (nothing then changed that matters).
static bool reserve_sensor(SteerWorld *world, int slot)
{
    if (slot >= world->sensor_capacity) {
        int next = world->sensor_capacity ? world->sensor_capacity : 16;
        while (next <= slot) next *= 2;
        SteerSensor *grown =
            steer_realloc(&world->alloc, world->sensors, (size_t)world->sensor_capacity * sizeof *grown,
                          (size_t)next * sizeof *grown);
        if (!grown) return false;
        memset(grown + world->sensor_capacity, 0, (size_t)(next - world->sensor_capacity) * sizeof *grown);
        world->sensors = grown;
        world->sensor_capacity = next;
    }
    if (has_anything(&world->sensors[slot])) return true;
    int needed = world->sensing_count + 1;
    int old = world->sensing_capacity;
    if (needed > old) {
        int next = old ? 2 * old : 16;
        SteerSensing *grown =
            steer_realloc(&world->alloc, world->sensing, (size_t)old * sizeof *grown, (size_t)next * sizeof *grown);
        if (!grown) return false;
        world->sensing = grown;
        world->sensing_capacity = next;
    }
    if (world->sensing_capacity != old || !world->event_slots) {
        /* The event lists follow sensing's capacity (event_start has one more). */
        int cap = world->sensing_capacity, have = world->event_slots ? old : 0;
        int *slots =
            steer_realloc(&world->alloc, world->event_slots, (size_t)have * sizeof(int), (size_t)cap * sizeof(int));
        if (!slots) return false;
        world->event_slots = slots;
        int *start = steer_realloc(&world->alloc, world->event_start, (size_t)(have ? have + 1 : 0) * sizeof(int),
                                   (size_t)(cap + 1) * sizeof(int));
        if (!start) return false;
        world->event_start = start;
    }
    return true;
}

static uint64_t serial_of(const SteerWorld *world, int slot) { return world->vehicle_cold[slot].serial; }

/// Lists `slot` among the sensing vehicles, in creation order (room reserved by reserve_sensor).
static void list_sensor(SteerWorld *world, int slot)
{
    uint64_t serial = serial_of(world, slot);
    int lo = 0, hi = world->sensing_count;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (serial_of(world, world->sensing[mid].slot) < serial)
            lo = mid + 1;
        else
            hi = mid;
    }
    memmove(world->sensing + lo + 1, world->sensing + lo, (size_t)(world->sensing_count - lo) * sizeof *world->sensing);
    world->sensing[lo] = (SteerSensing){slot, 0, 0.0, 1, 0}; /* (visited at the next step) */
    world->sensing_count++;
}

/// The entry of the vehicle in `slot` in the sensing list, or NULL when it is not listed.
static SteerSensing *sensing_of(SteerWorld *world, int slot)
{
    uint64_t serial = serial_of(world, slot);
    int lo = 0, hi = world->sensing_count;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (serial_of(world, world->sensing[mid].slot) < serial)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < world->sensing_count && world->sensing[lo].slot == slot ? &world->sensing[lo] : NULL;
}

/// Drops the vehicle in `slot` from the last step's event lists (it is removed, or its slot is
/// about to name another).
static void drop_events_of(SteerWorld *world, int slot)
{
    for (int e = 0; e < world->event_vehicles; e++) {
        if (world->event_slots[e] != slot) continue;
        int removed = world->event_start[e + 1] - world->event_start[e];
        for (int k = e; k + 1 < world->event_vehicles; k++) {
            world->event_slots[k] = world->event_slots[k + 1];
            world->event_start[k + 1] = world->event_start[k + 2] - removed;
        }
        world->event_vehicles--;
        return;
    }
}

/// The senses of the vehicle in `slot` changed between steps: its events of the last step go
/// (their sense indices may name other senses now), but for its timer's.
static void vehicle_events_changed(SteerWorld *world, int slot)
{
    SteerSensor *sensor = &world->sensors[slot];
    for (int i = 0; i < sensor->sense_count; i++) sensor->senses[i].event_count = 0;
    sensor->event_count = sensor->woke ? 1 : 0;
    SteerSensing *listed = sensing_of(world, slot);
    if (listed) listed->next_visit = 0;
    world->events_dirty = true;
}

static void unlist_sensor(SteerWorld *world, int slot)
{
    for (int i = 0; i < world->sensing_count; i++) {
        if (world->sensing[i].slot != slot) continue;
        memmove(world->sensing + i, world->sensing + i + 1,
                (size_t)(world->sensing_count - i - 1) * sizeof *world->sensing);
        world->sensing_count--;
        return;
    }
}

/// Frees what a sense holds (any pointer may be NULL: a sense whose making failed halfway).
static void free_sense(SteerWorld *world, SteerSense *sense)
{
    size_t cap = (size_t)sense->def.max_memories;
    sense_release(world, sense->memories, 2 * cap * sizeof *sense->memories);
    sense_release(world, sense->spare, 2 * cap * sizeof *sense->spare);
    sense_release(world, sense->fresh, cap * sizeof *sense->fresh);
    sense_release(world, sense->best, cap * sizeof *sense->best);
    sense_release(world, sense->events, STEER_SENSE_EVENTS_PER_MEMORY * cap * sizeof *sense->events);
}

static void count_sight(SteerWorld *world, const SteerSense *sense, int delta)
{
    if (sense->def.type == STEER_SENSE_SIGHT) world->sight_senses += delta;
}

void steer_senses_vehicle_removed(SteerWorld *world, int slot)
{
    world->removals++;
    SteerSensor *sensor = sensor_of(world, slot);
    if (!sensor) return;
    drop_events_of(world, slot);
    if (has_anything(sensor)) unlist_sensor(world, slot);
    for (int i = 0; i < sensor->sense_count; i++) {
        count_sight(world, &sensor->senses[i], -1);
        free_sense(world, &sensor->senses[i]);
    }
    sense_release(world, sensor->senses, STEER_MAX_SENSES * sizeof *sensor->senses);
    memset(sensor, 0, sizeof *sensor);
}

void steer_senses_free(SteerWorld *world)
{
    for (int c = 0; c < world->sense_chunk_count; c++)
        steer_free(&world->alloc, world->sense_chunks[c].block, world->sense_chunks[c].size);
    steer_free(&world->alloc, world->sense_chunks, (size_t)world->sense_chunk_capacity * sizeof *world->sense_chunks);
    steer_free(&world->alloc, world->sensors, (size_t)world->sensor_capacity * sizeof *world->sensors);
    steer_free(&world->alloc, world->sensing, (size_t)world->sensing_capacity * sizeof *world->sensing);
    if (world->event_slots) {
        steer_free(&world->alloc, world->event_slots, (size_t)world->sensing_capacity * sizeof(int));
        steer_free(&world->alloc, world->event_start, (size_t)(world->sensing_capacity + 1) * sizeof(int));
    }
    steer_free(&world->alloc, world->sounds, (size_t)world->sound_capacity * sizeof *world->sounds);
}

static const SteerSensor *live_sensor(const SteerWorld *world, SteerVehicleId id, const SteerVehicle **vehicle)
{
    const SteerVehicle *v = steer_vehicle_lookup(world, id);
    if (vehicle) *vehicle = v;
    if (!v) return NULL;
    return sensor_of(world, steer_vehicle_slot(world, v));
}

static const SteerSense *live_sense(const SteerWorld *world, SteerVehicleId id, int index)
{
    const SteerSensor *sensor = live_sensor(world, id, NULL);
    if (!sensor || index < 0 || index >= sensor->sense_count) return NULL;
    return &sensor->senses[index];
}

static int find_by_name(const SteerSensor *sensor, const char *name)
{
    if (!sensor || !name) return -1;
    for (int i = 0; i < sensor->sense_count; i++)
        if (strcmp(sensor->senses[i].name, name) == 0) return i;
    return -1;
}

/// The cosine sight compares against: cos(fov / 2), or -2 for all-round sight. A cosine within
/// 1e-12 of 0 is 0, so that a half-circle cone (fov π) sees exactly to its sides.
static double cone_cos(const SteerSenseDef *def)
{
    if (def->type != STEER_SENSE_SIGHT || def->fov >= 2.0 * STEER_PI) return -2.0;
    double c = cos(0.5 * def->fov);
    return fabs(c) < 1e-12 ? 0.0 : c;
}

struct SenseContext;
static void forget_pushed(const struct SenseContext *c, const SteerSenseMemory *m);

/// Keeps the `keep` memories of `memories` (count of them, in serial order) a full sense keeps:
/// those sensed now first, then the most recently sensed (ties: the closer, then the first made).
/// Returns how many remain, in serial order; with a context, each one dropped is a FORGOT event,
/// in the order they go.
static int push_out(const struct SenseContext *c, SteerSenseMemory *memories, int count, int keep)
{
    while (count > keep) {
        int worst = -1;
        for (int i = 0; i < count; i++) {
            const SteerSenseMemory *m = &memories[i];
            if (m->sensed_now) continue;
            if (worst < 0) {
                worst = i;
                continue;
            }
            const SteerSenseMemory *w = &memories[worst];
            if (m->step < w->step || (m->step == w->step && (m->distance > w->distance ||
                                                             (m->distance == w->distance && m->serial > w->serial))))
                worst = i;
        }
        if (worst < 0) worst = count - 1; /* (only when keep is below the sensed-now count: a shrunk sense) */
        if (c) forget_pushed(c, &memories[worst]);
        memmove(memories + worst, memories + worst + 1, (size_t)(count - worst - 1) * sizeof *memories);
        count--;
    }
    return count;
}

SteerResult steer_vehicle_add_sense(SteerWorld *world, SteerVehicleId id, const SteerSenseDef *def, int *out_index)
{
    STEER_ENTRY(world);
    SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle) return steer_vehicle_invalid_id(world, id);
    TRY(check_sense_def(world, def));
    int slot = steer_vehicle_slot(world, vehicle);
    if (!reserve_sensor(world, slot)) return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
    SteerSensor *sensor = &world->sensors[slot];
    int index = find_by_name(sensor, def->name);
    if (index < 0 && sensor->sense_count == STEER_MAX_SENSES)
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "vehicle has %d senses already, the most it can have",
                          STEER_MAX_SENSES);
    if (!sensor->senses) {
        sensor->senses = sense_alloc(world, STEER_MAX_SENSES * sizeof *sensor->senses);
        if (!sensor->senses) return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
        memset(sensor->senses, 0, STEER_MAX_SENSES * sizeof *sensor->senses);
    }
    /* Every array of the new sense first: a failure leaves the old one as it was. */
    size_t cap = (size_t)def->max_memories;
    SteerSense made;
    memset(&made, 0, sizeof made);
    made.def.max_memories = def->max_memories;
    made.memories = sense_alloc(world, 2 * cap * sizeof *made.memories);
    made.spare = sense_alloc(world, 2 * cap * sizeof *made.spare);
    made.fresh = sense_alloc(world, cap * sizeof *made.fresh);
    made.best = sense_alloc(world, cap * sizeof *made.best);
    made.events = sense_alloc(world, STEER_SENSE_EVENTS_PER_MEMORY * cap * sizeof *made.events);
    if (!made.memories || !made.spare || !made.fresh || !made.best || !made.events) {
        free_sense(world, &made);
        if (sensor->sense_count == 0 && sensor->wake_step == 0) {
            sense_release(world, sensor->senses, STEER_MAX_SENSES * sizeof *sensor->senses);
            sensor->senses = NULL;
        }
        return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    made.def = *def;
    memcpy(made.name, def->name, strlen(def->name) + 1);
    made.def.name = NULL; /* (pointed at `name` when read: the sense moves when others are removed) */
    made.cos_half = cone_cos(def);
    made.last_update = world->step_count;
    made.removals = world->removals;
    bool listed = has_anything(sensor);
    if (index >= 0) {
        /* A replacement keeps what it can of the memories (its events are the last step's). */
        SteerSense *old = &sensor->senses[index];
        made.memory_count = push_out(NULL, old->memories, old->memory_count, def->max_memories);
        memcpy(made.memories, old->memories, (size_t)made.memory_count * sizeof *made.memories);
        made.last_update = old->last_update;
        made.removals = old->removals;
        count_sight(world, old, -1);
        free_sense(world, old);
    } else {
        index = sensor->sense_count++;
    }
    sensor->senses[index] = made;
    count_sight(world, &made, +1);
    vehicle_events_changed(world, slot);
    if (!listed) list_sensor(world, slot);
    if (out_index) *out_index = index;
    return STEER_OK;
}

SteerResult steer_vehicle_remove_sense(SteerWorld *world, SteerVehicleId id, const char *name)
{
    STEER_ENTRY(world);
    SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle) return steer_vehicle_invalid_id(world, id);
    TRY(check_name(world, name));
    int slot = steer_vehicle_slot(world, vehicle);
    SteerSensor *sensor = sensor_of(world, slot);
    int index = find_by_name(sensor, name);
    if (index < 0) return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "vehicle has no sense named '%s'", name);
    SteerSense *sense = &sensor->senses[index];
    count_sight(world, sense, -1);
    free_sense(world, sense);
    memmove(sensor->senses + index, sensor->senses + index + 1,
            (size_t)(sensor->sense_count - index - 1) * sizeof *sensor->senses);
    sensor->sense_count--;
    memset(&sensor->senses[sensor->sense_count], 0, sizeof *sensor->senses);
    vehicle_events_changed(world, slot);
    if (!has_anything(sensor)) {
        unlist_sensor(world, slot);
        sense_release(world, sensor->senses, STEER_MAX_SENSES * sizeof *sensor->senses);
        sensor->senses = NULL;
    }
    return STEER_OK;
}

int steer_vehicle_find_sense(const SteerWorld *world, SteerVehicleId id, const char *name)
{
    return find_by_name(live_sensor(world, id, NULL), name);
}

int steer_vehicle_sense_count(const SteerWorld *world, SteerVehicleId id)
{
    const SteerSensor *sensor = live_sensor(world, id, NULL);
    return sensor ? sensor->sense_count : 0;
}

SteerResult steer_vehicle_get_sense(const SteerWorld *world, SteerVehicleId id, int sense, SteerSenseDef *out)
{
    STEER_ENTRY(world);
    const SteerVehicle *vehicle;
    const SteerSensor *sensor = live_sensor(world, id, &vehicle);
    if (!vehicle) return steer_vehicle_invalid_id(world, id);
    int count = sensor ? sensor->sense_count : 0;
    if (sense < 0 || sense >= count)
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "sense index must be in [0, %d) (got %d)", count, sense);
    if (out) {
        *out = sensor->senses[sense].def;
        out->name = sensor->senses[sense].name;
    }
    return STEER_OK;
}

/// Whether the vehicle a memory names is still alive (the same vehicle, not a reuse of its slot).
static bool memory_alive(const SteerWorld *world, const SteerSenseMemory *m)
{
    const SteerVehicle *v = steer_vehicle_lookup(world, m->other);
    return v && serial_of(world, steer_vehicle_slot(world, v)) == m->serial;
}

static SteerMemory public_memory(const SteerSenseMemory *m)
{
    SteerMemory out;
    memset(&out, 0, sizeof out);
    out.other = m->other;
    out.position = m->position;
    out.velocity = m->velocity;
    out.step = m->step;
    out.time = m->time;
    out.distance = m->distance;
    out.sensed_now = m->sensed_now;
    return out;
}

int steer_vehicle_get_memories(const SteerWorld *world, SteerVehicleId id, int sense, SteerMemory *out, int capacity)
{
    const SteerSense *s = live_sense(world, id, sense);
    if (!s) return 0;
    bool check = s->removals != world->removals;
    int n = 0;
    for (int i = 0; i < s->memory_count; i++) {
        if (check && !memory_alive(world, &s->memories[i])) continue;
        if (out && n < capacity) out[n] = public_memory(&s->memories[i]);
        n++;
    }
    return n;
}

bool steer_vehicle_closest_sensed(const SteerWorld *world, SteerVehicleId id, int sense, SteerMemory *out)
{
    const SteerSense *s = live_sense(world, id, sense);
    if (!s) return false;
    bool check = s->removals != world->removals;
    const SteerSenseMemory *best = NULL;
    for (int i = 0; i < s->memory_count; i++) {
        const SteerSenseMemory *m = &s->memories[i];
        if (!m->sensed_now || (best && m->distance >= best->distance))
            continue; /* (serial order: ties keep the first) */
        if (check && !memory_alive(world, m)) continue;
        best = m;
    }
    if (!best) return false;
    if (out) *out = public_memory(best);
    return true;
}

bool steer_vehicle_recall(const SteerWorld *world, SteerVehicleId id, int sense, SteerVehicleId other, SteerMemory *out)
{
    const SteerSense *s = live_sense(world, id, sense);
    if (!s || !steer_vehicle_lookup(world, other)) return false;
    for (int i = 0; i < s->memory_count; i++) {
        const SteerSenseMemory *m = &s->memories[i];
        if (!steer_vehicle_id_equal(m->other, other)) continue;
        if (!memory_alive(world, m)) return false;
        if (out) *out = public_memory(m);
        return true;
    }
    return false;
}

/* ---- Sounds and timers --------------------------------------------------------------------- */

SteerResult steer_world_emit(SteerWorld *world, const SteerSoundDef *sound)
{
    STEER_ENTRY(world);
    if (!sound) return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "sound definition is NULL");
    TRY(steer_check_point(world, "sound ", "position", sound->position));
    TRY(steer_check_range(world, "sound ", "radius", sound->radius, STEER_MIN_POSITIVE, STEER_MAX_LENGTH));
    if (sound->tag >= STEER_MAX_SOUND_TAGS)
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "sound tag must be below %d (got %u)",
                          STEER_MAX_SOUND_TAGS, sound->tag);
    SteerSound made;
    memset(&made, 0, sizeof made);
    made.def = *sound;
    if (!steer_vehicle_id_is_null(sound->source)) {
        const SteerVehicle *source = steer_vehicle_lookup(world, sound->source);
        if (!source) {
            steer_vehicle_invalid_id(world, sound->source);
            return steer_fail_hint(world, STEER_ERROR_INVALID_ID, "the sound's source must be a live vehicle or null");
        }
        made.source_serial = serial_of(world, steer_vehicle_slot(world, source));
        made.velocity = source->velocity;
    } else {
        made.def.source = steer_vehicle_id_unpack(0);
    }
    made.step = world->step_count + 1;
    if (world->sound_count == world->sound_capacity) {
        int next = world->sound_capacity ? 2 * world->sound_capacity : 16;
        SteerSound *grown = steer_realloc(&world->alloc, world->sounds, (size_t)world->sound_capacity * sizeof *grown,
                                          (size_t)next * sizeof *grown);
        if (!grown) return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
        world->sounds = grown;
        world->sound_capacity = next;
    }
    world->sounds[world->sound_count++] = made;
    return STEER_OK;
}

int steer_world_get_sounds(const SteerWorld *world, SteerSoundDef *out, int capacity)
{
    int n = 0;
    for (int i = 0; i < world->sound_count; i++) {
        if (world->sounds[i].step != world->step_count) continue;
        if (out && n < capacity) out[n] = world->sounds[i].def;
        n++;
    }
    return n;
}

SteerResult steer_vehicle_wake_in(SteerWorld *world, SteerVehicleId id, double seconds)
{
    STEER_ENTRY(world);
    SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle) return steer_vehicle_invalid_id(world, id);
    TRY(steer_check_range(world, "", "seconds", seconds, 0.0, STEER_MAX_TIME));
    int slot = steer_vehicle_slot(world, vehicle);
    if (!reserve_sensor(world, slot)) return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
    SteerSensor *sensor = &world->sensors[slot];
    double steps = ceil(seconds / world->def.dt - 1e-9);
    if (steps < 1.0) steps = 1.0;
    bool listed = has_anything(sensor);
    sensor->wake_step = world->step_count + (uint64_t)steps;
    if (!listed) list_sensor(world, slot);
    SteerSensing *entry = sensing_of(world, slot);
    if (sensor->wake_step < entry->next_visit) entry->next_visit = sensor->wake_step;
    return STEER_OK;
}

SteerResult steer_vehicle_cancel_wake(SteerWorld *world, SteerVehicleId id)
{
    STEER_ENTRY(world);
    SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle) return steer_vehicle_invalid_id(world, id);
    int slot = steer_vehicle_slot(world, vehicle);
    SteerSensor *sensor = sensor_of(world, slot);
    if (!sensor || sensor->wake_step == 0) return STEER_OK;
    sensor->wake_step = 0;
    if (!has_anything(sensor)) unlist_sensor(world, slot);
    return STEER_OK;
}

uint64_t steer_vehicle_wake_step(const SteerWorld *world, SteerVehicleId id)
{
    const SteerSensor *sensor = live_sensor(world, id, NULL);
    return sensor ? sensor->wake_step : 0;
}

static void list_events(SteerWorld *world);

/* ---- Events -------------------------------------------------------------------------------- */

/// Event `k` of the vehicle listed `v`-th in the last step's event lists.
static SteerSenseEvent vehicle_event(const SteerWorld *world, int v, int k)
{
    int slot = world->event_slots[v];
    const SteerSensor *sensor = &world->sensors[slot];
    const SteerVehicle *vehicle = steer_pool_at(&world->vehicles, slot);
    SteerSenseEvent e;
    if (sensor->woke) {
        if (k == 0) {
            memset(&e, 0, sizeof e);
            e.type = STEER_EVENT_TIMER;
            e.vehicle = (SteerVehicleId){(uint32_t)slot + 1, world->tag, vehicle->header.generation};
            e.sense = -1;
            e.position = vehicle->position;
            return e;
        }
        k--;
    }
    for (int i = 0; i < sensor->sense_count; i++) {
        if (k < sensor->senses[i].event_count) return sensor->senses[i].events[k];
        k -= sensor->senses[i].event_count;
    }
    memset(&e, 0, sizeof e); /* (unreachable: the counts add up) */
    return e;
}

int steer_world_get_sense_events(const SteerWorld *world, SteerSenseEvent *out, int capacity, int first)
{
    if (world->events_dirty) list_events((SteerWorld *)world); /* (a cache of the counts, like the grids) */
    int total = world->event_vehicles ? world->event_start[world->event_vehicles] : 0;
    if (!out || capacity <= 0 || first < 0 || first >= total) return total;
    /* The vehicle holding event `first`: the last whose start is at most first. */
    int lo = 0, hi = world->event_vehicles - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (world->event_start[mid] <= first)
            lo = mid;
        else
            hi = mid - 1;
    }
    int n = 0;
    for (int v = lo; v < world->event_vehicles && n < capacity; v++) {
        int from = v == lo ? first - world->event_start[v] : 0;
        int count = world->event_start[v + 1] - world->event_start[v];
        for (int k = from; k < count && n < capacity; k++) out[n++] = vehicle_event(world, v, k);
    }
    return total;
}

/* ---- Line of sight --------------------------------------------------------------------------- */

static inline double cross3(SteerVec2 o, SteerVec2 a, SteerVec2 b)
{
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/// Whether the closed segments a-b and c-d share a point.
static bool segments_touch(SteerVec2 a, SteerVec2 b, SteerVec2 c, SteerVec2 d)
{
    if (a.x == b.x && a.y == b.y) /* a point: on the wall's line, within its extent */
        return cross3(c, d, a) == 0.0 && a.x >= fmin(c.x, d.x) && a.x <= fmax(c.x, d.x) && a.y >= fmin(c.y, d.y) &&
               a.y <= fmax(c.y, d.y);
    double o1 = cross3(a, b, c), o2 = cross3(a, b, d);
    if ((o1 > 0.0 && o2 > 0.0) || (o1 < 0.0 && o2 < 0.0)) return false;
    if (o1 == 0.0 && o2 == 0.0) {
        /* On one line: do their extents overlap (along the longer axis of a-b)? */
        bool by_x = fabs(b.x - a.x) >= fabs(b.y - a.y);
        double s0 = by_x ? a.x : a.y, s1 = by_x ? b.x : b.y, t0 = by_x ? c.x : c.y, t1 = by_x ? d.x : d.y;
        return fmax(fmin(s0, s1), fmin(t0, t1)) <= fmin(fmax(s0, s1), fmax(t0, t1));
    }
    double o3 = cross3(c, d, a), o4 = cross3(c, d, b);
    return !((o3 > 0.0 && o4 > 0.0) || (o3 < 0.0 && o4 < 0.0));
}

/// Whether the closed segment a-b meets the closed disc of centre c and radius r.
static bool segment_meets_disc(SteerVec2 a, SteerVec2 b, SteerVec2 c, double r)
{
    SteerVec2 d = steer_sub(b, a);
    double length_sq = steer_length_sq(d);
    double t = length_sq > 0.0 ? steer_dot(steer_sub(c, a), d) / length_sq : 0.0;
    if (t < 0.0) t = 0.0;
    if (t > 1.0) t = 1.0;
    SteerVec2 p = steer_add(a, steer_scale(d, t));
    return steer_distance_sq(p, c) <= r * r;
}

/// The range of whole shifts k (images at base + k·size) whose extent [lo, hi] + k·size may meet
/// [slo, shi] (a little wider than exact: the shape tests decide).
static void image_range(double lo, double hi, double slo, double shi, double size, int *k0, int *k1)
{
    double margin = 1e-9;
    *k0 = (int)ceil((slo - hi) / size - margin);
    *k1 = (int)floor((shi - lo) / size + margin);
}

/// Whether wall `w` (every image of it, in a wrapping world) touches the segment a-b.
static bool wall_blocks(const SteerWorld *world, const SteerWall *w, SteerVec2 a, SteerVec2 b)
{
    if (world->def.edges != STEER_EDGES_WRAP) return segments_touch(a, b, w->a, w->b);
    SteerVec2 base = steer_add(a, steer_world_offset_fast(world, a, w->a));
    SteerVec2 end = steer_add(base, steer_sub(w->b, w->a));
    double W = world->def.width, H = world->def.height;
    int kx0, kx1, ky0, ky1;
    image_range(fmin(base.x, end.x), fmax(base.x, end.x), fmin(a.x, b.x), fmax(a.x, b.x), W, &kx0, &kx1);
    image_range(fmin(base.y, end.y), fmax(base.y, end.y), fmin(a.y, b.y), fmax(a.y, b.y), H, &ky0, &ky1);
    for (int ky = ky0; ky <= ky1; ky++)
        for (int kx = kx0; kx <= kx1; kx++) {
            SteerVec2 c = steer_vec2(base.x + kx * W, base.y + ky * H);
            SteerVec2 d = steer_vec2(end.x + kx * W, end.y + ky * H);
            if (segments_touch(a, b, c, d)) return true;
        }
    return false;
}

/// Whether obstacle `o` (every image of it, in a wrapping world) meets the segment a-b.
static bool obstacle_blocks(const SteerWorld *world, const SteerObstacle *o, SteerVec2 a, SteerVec2 b)
{
    if (world->def.edges != STEER_EDGES_WRAP) return segment_meets_disc(a, b, o->center, o->radius);
    SteerVec2 base = steer_add(a, steer_world_offset_fast(world, a, o->center));
    double W = world->def.width, H = world->def.height, r = o->radius;
    int kx0, kx1, ky0, ky1;
    image_range(base.x - r, base.x + r, fmin(a.x, b.x), fmax(a.x, b.x), W, &kx0, &kx1);
    image_range(base.y - r, base.y + r, fmin(a.y, b.y), fmax(a.y, b.y), H, &ky0, &ky1);
    for (int ky = ky0; ky <= ky1; ky++)
        for (int kx = kx0; kx <= kx1; kx++)
            if (segment_meets_disc(a, b, steer_vec2(base.x + kx * W, base.y + ky * H), r)) return true;
    return false;
}

/// Whether the segment a-b crosses unwrapped cell (xx, yy) of a shape grid, widened a little (and
/// reaching to infinity at the border of a bounded grid, as the grid places shapes).
static bool segment_in_cell(const SteerShapeGrid *g, SteerVec2 a, SteerVec2 b, int xx, int yy)
{
    double ex = 1e-6 * g->cell_w, ey = 1e-6 * g->cell_h;
    double lx = g->origin_x + xx * g->cell_w - ex, hx = g->origin_x + (xx + 1) * g->cell_w + ex;
    double ly = g->origin_y + yy * g->cell_h - ey, hy = g->origin_y + (yy + 1) * g->cell_h + ey;
    if (!g->wrap) {
        if (xx == 0) lx = -INFINITY;
        if (xx == g->cols - 1) hx = INFINITY;
        if (yy == 0) ly = -INFINITY;
        if (yy == g->rows - 1) hy = INFINITY;
    }
    double t0 = 0.0, t1 = 1.0;
    double p[2] = {a.x, a.y}, d[2] = {b.x - a.x, b.y - a.y}, lo[2] = {lx, ly}, hi[2] = {hx, hy};
    for (int axis = 0; axis < 2; axis++) {
        if (d[axis] == 0.0) {
            if (p[axis] < lo[axis] || p[axis] > hi[axis]) return false;
            continue;
        }
        double u = (lo[axis] - p[axis]) / d[axis], v = (hi[axis] - p[axis]) / d[axis];
        if (u > v) {
            double swap = u;
            u = v;
            v = swap;
        }
        if (u > t0) t0 = u;
        if (v < t1) t1 = v;
        if (t0 > t1) return false;
    }
    return true;
}

/// Whether any shape of the grid (walls or obstacles of the world) blocks the segment a-b: the
/// cells of the segment's bounding box that it crosses, every shape listed there (a shape listed
/// in several is tested again: no scratch, so any thread may ask).
static bool grid_blocks(const SteerWorld *world, const SteerShapeGrid *g, SteerVec2 a, SteerVec2 b)
{
    double cx = 0.5 * (a.x + b.x), cy = 0.5 * (a.y + b.y);
    double rx = 0.5 * fabs(b.x - a.x), ry = 0.5 * fabs(b.y - a.y);
    int xlo, xhi, ylo, yhi;
    bool once_x = axis_range(cx, rx, g->origin_x, g->inv_w, g->cols, g->wrap, &xlo, &xhi);
    bool once_y = axis_range(cy, ry, g->origin_y, g->inv_h, g->rows, g->wrap, &ylo, &yhi);
    /* (a segment that covers a wrapping axis more than once: every cell of it, no crossing test) */
    bool test = once_x && once_y;
    for (int yy = ylo; yy <= yhi; yy++) {
        for (int xx = xlo; xx <= xhi; xx++) {
            if (test && !segment_in_cell(g, a, b, xx, yy)) continue;
            int cell =
                (g->wrap ? positive_mod(yy, g->rows) : yy) * g->cols + (g->wrap ? positive_mod(xx, g->cols) : xx);
            for (int k = g->cell_start[cell]; k < g->cell_start[cell + 1]; k++) {
                int item = g->items[k];
                if (g->walls ? wall_blocks(world, steer_pool_at(&world->walls, item), a, b)
                             : obstacle_blocks(world, steer_pool_at(&world->obstacles, item), a, b))
                    return true;
            }
        }
    }
    return false;
}

bool steer_sight_clear(const SteerWorld *world, SteerVec2 a, SteerVec2 d, bool walls, bool obstacles)
{
    SteerVec2 b = steer_add(a, d);
    if (obstacles && world->obstacles.live > 0) {
        /* The grid is current during a step (built at its start); between steps it may be stale,
         * and rebuilding it is only for the calling thread: steer_world_line_of_sight does. */
        const SteerShapeGrid *g = world->obstacles_stale ? NULL : &world->obstacle_grid;
        if (g) {
            if (grid_blocks(world, g, a, b)) return false;
        } else {
            for (int i = 0; i < world->obstacles.count; i++) {
                const SteerObstacle *o = steer_pool_at(&world->obstacles, i);
                if (o->header.alive && obstacle_blocks(world, o, a, b)) return false;
            }
        }
    }
    if (walls && world->walls.live > 0) {
        const SteerShapeGrid *g = world->walls_stale || world->wall_grid_off ? NULL : &world->wall_grid;
        if (g) {
            if (grid_blocks(world, g, a, b)) return false;
        } else {
            for (int i = 0; i < world->walls.count; i++) {
                const SteerWall *w = steer_pool_at(&world->walls, i);
                if (w->header.alive && wall_blocks(world, w, a, b)) return false;
            }
        }
    }
    return true;
}

bool steer_world_line_of_sight(const SteerWorld *world, SteerVec2 a, SteerVec2 b, bool walls, bool obstacles)
{
    if (!steer_vec2_is_finite(a) || !steer_vec2_is_finite(b)) return false;
    if (obstacles) steer_world_obstacle_grid(world);
    if (walls) steer_world_wall_grid(world);
    return steer_sight_clear(world, a, steer_world_offset_fast(world, a, b), walls, obstacles);
}

/* ---- The pass ------------------------------------------------------------------------------ */

/// What one update or step of one sense needs to know.
typedef struct SenseContext {
    SteerWorld *world;
    const SteerGrid *grid;
    uint64_t step;
    double time;
    int slot;                 ///< the sensing vehicle's pool slot
    uint64_t serial;          ///< ... its serial
    SteerVehicleId id;        ///< ... its id
    const SteerVehicle *self; ///< ... itself
    int index;                ///< the sense's index
    SteerSense *sense;
} SenseContext;

/// Steps between updates of a sense of `period` seconds at this dt.
static uint64_t period_steps(double period, double dt)
{
    if (period <= 0.0) return 1;
    double steps = floor(period / dt + 0.5);
    return steps < 1.0 ? 1 : (uint64_t)steps;
}

static void add_event(const SenseContext *c, SteerSenseEventType type, const SteerSenseMemory *m)
{
    SteerSense *s = c->sense;
    SteerSenseEvent *e = &s->events[s->event_count++];
    memset(e, 0, sizeof *e);
    e->type = type;
    e->vehicle = c->id;
    e->sense = c->index;
    e->other = m->other;
    e->position = m->position;
    e->distance = m->distance;
}

static void forget_pushed(const SenseContext *c, const SteerSenseMemory *m) { add_event(c, STEER_EVENT_FORGOT, m); }

/// Whether a memory is forgotten now: its vehicle was removed, or it is not sensed now and more
/// than forget_after has passed since it was.
static bool forgotten(const SenseContext *c, const SteerSenseMemory *m, bool check_removed)
{
    if (check_removed && !memory_alive(c->world, m)) return true;
    return !m->sensed_now && c->time - m->time > c->sense->def.forget_after;
}

/// A step without an update: only forgetting.
static void expire(const SenseContext *c)
{
    SteerSense *s = c->sense;
    int kept = 0;
    for (int i = 0; i < s->memory_count; i++) {
        const SteerSenseMemory *m = &s->memories[i];
        if (forgotten(c, m, false)) {
            add_event(c, STEER_EVENT_FORGOT, m);
            continue;
        }
        if (kept != i) s->memories[kept] = *m;
        kept++;
    }
    s->memory_count = kept;
}

/// An update: merges what the sense senses now (`fresh`, `count` of them, in serial order) into
/// its memories, with the events of every change.
static void merge(const SenseContext *c, int count)
{
    SteerSense *s = c->sense;
    bool check = s->removals != c->world->removals;
    s->removals = c->world->removals;
    const SteerSenseMemory *old = s->memories, *fresh = s->fresh;
    SteerSenseMemory *out = s->spare;
    int n = s->memory_count, i = 0, j = 0, made = 0;
    while (i < n || j < count) {
        if (j == count || (i < n && old[i].serial < fresh[j].serial)) {
            SteerSenseMemory m = old[i++];
            if (check && !memory_alive(c->world, &m)) {
                add_event(c, STEER_EVENT_FORGOT, &m);
                continue;
            }
            if (m.sensed_now) {
                m.sensed_now = false;
                add_event(c, STEER_EVENT_LOST, &m);
            }
            if (forgotten(c, &m, false)) {
                add_event(c, STEER_EVENT_FORGOT, &m);
                continue;
            }
            out[made++] = m;
        } else {
            bool known = i < n && old[i].serial == fresh[j].serial;
            if (!known || !old[i].sensed_now) add_event(c, STEER_EVENT_SENSED, &fresh[j]);
            if (known) i++;
            out[made++] = fresh[j++];
        }
    }
    made = push_out(c, out, made, s->def.max_memories);
    s->spare = s->memories;
    s->memories = out;
    s->memory_count = made;
}

/// Whether `a` comes before `b` among sight candidates: closer, then made first.
static inline bool seen_before(const SteerSeen *a, const SteerSeen *b)
{
    return a->distance_sq < b->distance_sq || (a->distance_sq == b->distance_sq && a->rank < b->rank);
}

static void sift_down(SteerSeen *heap, int count, int at)
{
    for (;;) {
        int first = at, left = 2 * at + 1, right = left + 1;
        if (left < count && seen_before(&heap[left], &heap[first])) first = left;
        if (right < count && seen_before(&heap[right], &heap[first])) first = right;
        if (first == at) return;
        SteerSeen swap = heap[at];
        heap[at] = heap[first];
        heap[first] = swap;
        at = first;
    }
}

/// Takes a batch of candidates (in range, in the cone, of the kinds) into c->sense->best, the
/// closest visible ones so far (`*kept` of them, closest first): closest first, testing line of
/// sight only while a candidate could still enter.
static void take_batch(const SenseContext *c, SteerSeen *batch, int count, int *kept)
{
    SteerSense *s = c->sense;
    int cap = s->def.max_memories;
    if (*kept + count <= cap) {
        /* Room for all (the common case): every visible one goes in, no order needed to choose. */
        for (int i = 0; i < count; i++) {
            if (!steer_sight_clear(c->world, c->self->position, batch[i].offset, s->def.walls_block,
                                   s->def.obstacles_block))
                continue;
            int at = (*kept)++;
            while (at > 0 && seen_before(&batch[i], &s->best[at - 1])) {
                s->best[at] = s->best[at - 1];
                at--;
            }
            s->best[at] = batch[i];
        }
        return;
    }
    for (int i = count / 2 - 1; i >= 0; i--) sift_down(batch, count, i);
    while (count > 0) {
        SteerSeen top = batch[0];
        batch[0] = batch[--count];
        sift_down(batch, count, 0);
        if (*kept == cap && !seen_before(&top, &s->best[cap - 1])) return; /* the rest are farther */
        if (!steer_sight_clear(c->world, c->self->position, top.offset, s->def.walls_block, s->def.obstacles_block))
            continue;
        int at = *kept < cap ? (*kept)++ : cap - 1;
        while (at > 0 && seen_before(&top, &s->best[at - 1])) {
            s->best[at] = s->best[at - 1];
            at--;
        }
        s->best[at] = top;
    }
}

/// Candidates a sight update gathers before testing their line of sight, closest first.
#define SIGHT_BATCH 256

/// A sight update: fills c->sense->fresh with what it sees now, in serial order; returns how many.
static int sight(const SenseContext *c)
{
    SteerSense *s = c->sense;
    const SteerGrid *g = c->grid;
    const SteerWorld *world = c->world;
    SteerVec2 p = c->self->position, h = c->self->heading;
    double range_sq = s->def.range * s->def.range, cos_half = s->cos_half;
    bool cone = cos_half >= -1.0;
    uint64_t kinds = s->def.kinds;
    SteerSeen batch[SIGHT_BATCH];
    int batched = 0, kept = 0;
    SteerVec2 local = steer_grid_local_point(g, p);
    SteerGridCursor cursor;
    SteerGridRun run;
    steer_grid_cursor_begin(&cursor, g, local.x, local.y, s->def.range);
    /* Most candidates of the cells walked lie beyond range: the grid's float copy of the positions
     * (good to a few thousandths of a unit) rules those out before their entry is read. */
    bool quick = g->float_ok && !cursor.wrap_each;
    double px = local.x - g->origin_x, py = local.y - g->origin_y;
    double reach = s->def.range + 0.05 + 1e-6 * s->def.range;
    float reach_sq = (float)(reach * reach);
    float fhx = (float)h.x, fhy = (float)h.y, fcos = (float)cos_half;
    while (steer_grid_cursor_next(&cursor, &run)) {
        float ox = (float)(px - run.shift_x), oy = (float)(py - run.shift_y);
        for (int k = run.begin; k < run.end; k++) {
            if (kinds && !((kinds >> g->entry_kind[k]) & 1u)) continue;
            if (quick) {
                float dx = g->fx[k] - ox, dy = g->fy[k] - oy;
                float dd = dx * dx + dy * dy;
                if (dd > reach_sq) continue;
                /* the cone too, a little wide (0.1 units): the exact test follows */
                if (cone && dx * fhx + dy * fhy < fcos * sqrtf(dd) - 0.1f) continue;
            }
            const SteerGridEntry *e = &g->entry[k];
            if (e->slot == c->slot) continue;
            SteerVec2 q = e->exact ? steer_vec2(e->x, e->y)
                                   : ((const SteerVehicle *)steer_pool_at(&world->vehicles, e->slot))->position;
            SteerVec2 d = steer_world_offset_fast(world, p, q);
            double d2 = steer_length_sq(d);
            if (d2 > range_sq) continue;
            if (cone && d2 > 0.0 && steer_dot(d, h) < cos_half * sqrt(d2)) continue;
            batch[batched++] = (SteerSeen){d2, e->rank, e->slot, k, d};
            if (batched == SIGHT_BATCH) {
                take_batch(c, batch, batched, &kept);
                batched = 0;
            }
        }
    }
    take_batch(c, batch, batched, &kept);
    /* A vehicle remembered already keeps its serial and id while no vehicle was removed since the
     * memories were checked (its slot holds it still): no read of the vehicle for those. */
    bool same_slots = s->removals == world->removals && s->memory_count <= 64;
    for (int i = 0; i < kept; i++) {
        const SteerSeen *seen = &s->best[i];
        const SteerGridEntry *e = &g->entry[seen->entry];
        SteerSenseMemory m;
        memset(&m, 0, sizeof m);
        int known = -1;
        if (same_slots)
            for (int j = 0; j < s->memory_count && known < 0; j++)
                if (s->memories[j].other.index1 == (uint32_t)seen->slot + 1) known = j;
        if (known >= 0) {
            m.serial = s->memories[known].serial;
            m.other = s->memories[known].other;
        } else {
            const SteerVehicle *other = steer_pool_at(&world->vehicles, seen->slot);
            m.serial = serial_of(world, seen->slot);
            m.other = (SteerVehicleId){(uint32_t)seen->slot + 1, world->tag, other->header.generation};
        }
        m.position = e->exact ? steer_vec2(e->x, e->y)
                              : ((const SteerVehicle *)steer_pool_at(&world->vehicles, seen->slot))->position;
        m.velocity = steer_vec2(e->vx, e->vy);
        m.step = c->step;
        m.time = c->time;
        m.distance = sqrt(seen->distance_sq);
        m.sensed_now = true;
        int at = i;
        while (at > 0 && s->fresh[at - 1].serial > m.serial) {
            s->fresh[at] = s->fresh[at - 1];
            at--;
        }
        s->fresh[at] = m;
    }
    return kept;
}

/// Whether the sense hears sound `sound` in this update; its squared distance to `*d2`.
static bool hears(const SenseContext *c, const SteerSound *sound, SteerVec2 *offset, double *d2)
{
    const SteerSense *s = c->sense;
    if (sound->step <= s->last_update || sound->step > c->step) return false;
    if (sound->source_serial == c->serial) return false;
    if (s->def.tags && !((s->def.tags >> sound->def.tag) & 1u)) return false;
    *offset = steer_world_offset_fast(c->world, c->self->position, sound->def.position);
    *d2 = steer_length_sq(*offset);
    return *d2 <= sound->def.radius * sound->def.radius && *d2 <= s->def.range * s->def.range;
}

/// A hearing update: fills c->sense->fresh with the live sources of the sounds it hears (at most
/// max_memories sounds, in emission order; a source's later sound wins), in serial order.
static int hearing(const SenseContext *c)
{
    SteerSense *s = c->sense;
    const SteerWorld *world = c->world;
    int heard = 0, count = 0;
    for (int i = 0; i < world->sound_count && heard < s->def.max_memories; i++) {
        const SteerSound *sound = &world->sounds[i];
        SteerVec2 offset;
        double d2;
        if (!hears(c, sound, &offset, &d2)) continue;
        heard++;
        if (sound->source_serial == 0) continue;
        const SteerVehicle *source = steer_vehicle_lookup(world, sound->def.source);
        if (!source || serial_of(world, steer_vehicle_slot(world, source)) != sound->source_serial) continue;
        SteerSenseMemory m;
        memset(&m, 0, sizeof m);
        m.serial = sound->source_serial;
        m.other = sound->def.source;
        m.position = sound->def.position;
        m.velocity = sound->velocity;
        m.step = c->step;
        m.time = c->time;
        m.distance = sqrt(d2);
        m.sensed_now = true;
        int at = count;
        while (at > 0 && s->fresh[at - 1].serial > m.serial) at--;
        if (at > 0 && s->fresh[at - 1].serial == m.serial) {
            s->fresh[at - 1] = m;
            continue;
        }
        memmove(s->fresh + at + 1, s->fresh + at, (size_t)(count - at) * sizeof *s->fresh);
        s->fresh[at] = m;
        count++;
    }
    return count;
}

/// HEARD events of a hearing update, in emission order (after its memory events).
static void heard_events(const SenseContext *c)
{
    SteerSense *s = c->sense;
    const SteerWorld *world = c->world;
    int heard = 0;
    for (int i = 0; i < world->sound_count && heard < s->def.max_memories; i++) {
        const SteerSound *sound = &world->sounds[i];
        SteerVec2 offset;
        double d2;
        if (!hears(c, sound, &offset, &d2)) continue;
        heard++;
        SteerSenseEvent *e = &s->events[s->event_count++];
        memset(e, 0, sizeof *e);
        e->type = STEER_EVENT_HEARD;
        e->vehicle = c->id;
        e->sense = c->index;
        e->other = sound->def.source;
        e->position = sound->def.position;
        e->distance = sqrt(d2);
        e->tag = sound->def.tag;
        e->radius = sound->def.radius;
    }
}

/// One sensing vehicle's part of the pass: its timer, then each sense (an update when due, else
/// forgetting only) - if anything is due (or `all`): a vehicle with nothing due costs a read of its
/// SteerSensor. Raises *hearing_period to the longest period of its hearing senses.
static void sense_vehicle(SteerWorld *world, const SteerGrid *grid, SteerSensing *entry, bool all,
                          uint64_t *hearing_period)
{
    uint64_t step = world->step_count;
    if (entry->hearing_period > *hearing_period) *hearing_period = entry->hearing_period;
    int slot = entry->slot;
    SteerSensor *sensor = &world->sensors[slot];
    if (!all && entry->next_visit > step && !(world->time >= entry->forget_hint)) {
        /* (the last step's events of a vehicle are listed only if it was visited: no need to
         * clear its counts here, which would read its SteerSensor) */
        return;
    }
    entry->visited = step;
    sensor->event_count = 0;
    sensor->woke = false;
    if (sensor->wake_step != 0 && sensor->wake_step <= step) {
        sensor->woke = true;
        sensor->wake_step = 0;
        sensor->event_count = 1;
    }
    const SteerVehicle *self = steer_pool_at(&world->vehicles, slot);
    SenseContext c;
    c.world = world;
    c.grid = grid;
    c.step = step;
    c.time = world->time;
    c.slot = slot;
    c.serial = serial_of(world, slot);
    c.id = (SteerVehicleId){(uint32_t)slot + 1, world->tag, self->header.generation};
    c.self = self;
    uint64_t next = sensor->wake_step ? sensor->wake_step : UINT64_MAX, longest = 1;
    double forget = INFINITY;
    for (int i = 0; i < sensor->sense_count; i++) {
        SteerSense *s = &sensor->senses[i];
        c.index = i;
        c.sense = s;
        s->event_count = 0;
        uint64_t period = period_steps(s->def.period, world->def.dt);
        bool hearing_sense = s->def.type == STEER_SENSE_HEARING;
        if (hearing_sense && period > longest) longest = period;
        uint64_t phase = (step + c.serial) % period;
        if (phase == 0) {
            merge(&c, hearing_sense ? hearing(&c) : sight(&c));
            if (hearing_sense) heard_events(&c);
            s->last_update = step;
        } else if (s->memory_count > 0) {
            expire(&c);
        }
        sensor->event_count += s->event_count;
        uint64_t due = step + (period - phase);
        if (due < next) next = due;
        for (int m = 0; m < s->memory_count; m++)
            if (!s->memories[m].sensed_now && s->memories[m].time + s->def.forget_after < forget)
                forget = s->memories[m].time + s->def.forget_after;
    }
    entry->next_visit = next;
    /* (a little early: the exact test, time - last > forget_after, then decides) */
    entry->forget_hint = forget - 1e-9 * (1.0 + fabs(forget));
    entry->hearing_period = longest;
    if (longest > *hearing_period) *hearing_period = longest;
}

typedef struct SenseJob {
    SteerWorld *world;
    const SteerGrid *grid;
    bool all; ///< visit every sensing vehicle (dt changed since the last pass)
    uint64_t hearing_period[STEER_MAX_THREADS];
} SenseJob;

static void sense_task(void *context, int t, int tasks)
{
    SenseJob *job = context;
    SteerWorld *world = job->world;
    int begin, end;
    steer_task_range(world->sensing_count, tasks, t, &begin, &end);
    uint64_t period = 1;
    for (int i = begin; i < end; i++) sense_vehicle(world, job->grid, &world->sensing[i], job->all, &period);
    job->hearing_period[t] = period;
}

/// Lists the vehicles with events of the last step, with where each one's events start.
static void list_events(SteerWorld *world)
{
    int total = 0, listed = 0;
    for (int i = 0; i < world->event_vehicles; i++) {
        int slot = world->event_slots[i];
        int count = world->sensors[slot].event_count;
        if (count == 0) continue;
        world->event_slots[listed] = slot;
        world->event_start[listed++] = total;
        total += count;
    }
    world->event_vehicles = listed;
    if (world->event_start) world->event_start[listed] = total; /* (none before the first sense or timer) */
    world->events_dirty = false;
}

void steer_senses_step(SteerWorld *world)
{
    uint64_t step = world->step_count;
    uint64_t hearing_period = 1;
    world->event_vehicles = 0;
    if (world->sensing_count > 0) {
        const SteerGrid *grid = NULL;
        SteerThreadPool *pool = steer_world_step_pool(world);
        if (world->sight_senses > 0) {
            /* Sight needs everyone where they moved: the build the next step would make anyway. */
            grid = steer_world_grid_cells(world);
            steer_grid_gather_on(grid, pool);
        }
        steer_world_obstacle_grid(world);
        steer_world_wall_grid(world);
        SenseJob job;
        job.world = world;
        job.grid = grid;
        job.all = world->sense_dt != world->def.dt;
        world->sense_dt = world->def.dt;
        int tasks = steer_thread_pool_size(pool);
        if (tasks > world->sensing_count) tasks = 1;
        if (tasks > 1) {
            steer_thread_pool_run(pool, sense_task, &job);
        } else {
            sense_task(&job, 0, 1);
        }
        for (int t = 0; t < tasks; t++)
            if (job.hearing_period[t] > hearing_period) hearing_period = job.hearing_period[t];
        /* The vehicles with events, in creation order; and a timer that fired leaves the list of
         * a vehicle that has no sense (its event stays readable until the next step). */
        int kept = 0;
        for (int i = 0; i < world->sensing_count; i++) {
            SteerSensing entry = world->sensing[i];
            if (entry.visited == step) {
                const SteerSensor *sensor = &world->sensors[entry.slot];
                if (sensor->event_count > 0) world->event_slots[world->event_vehicles++] = entry.slot;
                if (!has_anything(sensor)) continue;
            }
            world->sensing[kept++] = entry;
        }
        world->sensing_count = kept;
    }
    list_events(world);
    /* A sound is kept until the slowest hearing sense has had its update after it (and, for
     * steer_world_get_sounds, through the step that first heard it). */
    int kept = 0;
    for (int i = 0; i < world->sound_count; i++)
        if (world->sounds[i].step + hearing_period > step) world->sounds[kept++] = world->sounds[i];
    world->sound_count = kept;
}
