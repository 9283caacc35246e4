/* SPDX-License-Identifier: MIT */
/* senses.c - sight, hearing, memory and timers: what vehicles perceive, computed by the step after
 * every vehicle has moved (docs/core.md "Senses").
 *
 * Layout. Each vehicle with senses has one block (carved from the world's chunks): its SteerSense
 * structs, then each sense's memories (max_memories, by serial) and notes. A visit of the step
 * reads the vehicle's SteerSensor, its block and the vehicle itself, each asked for ahead of time
 * (a visit otherwise waits on three dependent cache misses). The scratch of an update (candidates,
 * what it senses, the merge's output) is the task's, not the sense's: a sense costs its memories
 * and notes, 80 + 56 bytes per memory it may hold, and nothing per event.
 *
 * Events are not stored as events. A memory the visit keeps carries its SENSED or LOST bit; what
 * it dropped (and a sound it heard) is a note; steer_world_get_sense_events reads them back in the
 * documented order. A sense's mask (SteerSenseDef.events) decides which of them are made at all.
 *
 * The pass. Sight walks the vehicle grid around each sensing vehicle (rebuilt at the end of such a
 * step: the next step reuses that build), keeps the candidates within range, of its kinds and in
 * its cone, and tests line of sight from the closest on until max_memories are seen. Line of sight
 * walks the obstacle and wall grids over the cells the segment crosses, without the grids' query
 * scratch, so that the pass runs on every thread: each task takes a range of the sensing vehicles
 * (in creation order), lists those due (an update, the timer or a forgetting: whole steps, in a
 * dense array), then visits them, writing only their own senses. The pass then lists, in creation
 * order, the vehicles that have events. Nothing here allocates during the step: every array is
 * sized when a sense is added, a timer set or a sound emitted. */
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
    def.events = STEER_SENSE_EVENTS_ALL;
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

static SteerResult check_events(const SteerWorld *world, uint32_t events)
{
    if (events & ~STEER_SENSE_EVENTS_ALL)
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT,
                          "sense events must be STEER_EVENT_BIT of SENSED, LOST, FORGOT or HEARD (got 0x%x)",
                          (unsigned)events);
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
    return check_events(world, def->events);
}

/* ---- The senses' blocks ----------------------------------------------------------------------- */

#define SENSE_CHUNK_BYTES (256u * 1024u)

static size_t class_size(int c) { return steer_sense_class_size(c); }

static int size_class(size_t size)
{
    int c = 0;
    while (c < STEER_SENSE_SIZE_CLASSES - 1 && class_size(c) < size) c++;
    return c;
}

/// A block of class c (class_size(c) bytes, 16-aligned): a freed one of that class, or carved from
/// the last chunk, or from a new one; NULL when memory runs out.
static void *sense_alloc(SteerWorld *world, int c)
{
    if (world->sense_free[c]) {
        void *block = world->sense_free[c];
        world->sense_free[c] = *(void **)block;
        return block;
    }
    size_t size = class_size(c);
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

/// Gives a block of class c back for the next sense_alloc of its class (NULL: nothing). Chunks go
/// back to the world's allocator only with the world.
static void sense_release(SteerWorld *world, void *block, int c)
{
    if (!block) return;
    *(void **)block = world->sense_free[c]; /* (a freed block's first bytes link the list) */
    world->sense_free[c] = block;
}

typedef SteerSenseBlock SenseBlock;

static SenseBlock *block_of(const SteerSense *senses) { return steer_sense_block_of(senses); }

static size_t align16(size_t n) { return (n + 15u) & ~(size_t)15u; }

/// Bytes of a block holding these senses (their max_memories and types).
static size_t block_bytes(const SteerSense *senses, int count)
{
    size_t bytes = align16(offsetof(SenseBlock, senses) + (size_t)count * sizeof(SteerSense));
    for (int i = 0; i < count; i++) {
        int cap = senses[i].max_memories;
        bytes += align16((size_t)cap * sizeof(SteerSenseMemory));
        bytes +=
            align16((size_t)steer_sense_note_capacity((SteerSenseType)senses[i].type, cap) * sizeof(SteerSenseNote));
    }
    return bytes;
}

/// A block for `count` senses copied from `senses` (their memories too, events dropped), for the
/// vehicle of `serial`; NULL when memory runs out.
static SenseBlock *make_block(SteerWorld *world, uint64_t serial, const SteerSense *senses, int count)
{
    int c = size_class(block_bytes(senses, count));
    SenseBlock *block = sense_alloc(world, c);
    if (!block) return NULL;
    block->size_class = c;
    block->unused = 0;
    block->serial = serial;
    char *at = (char *)block + align16(offsetof(SenseBlock, senses) + (size_t)count * sizeof(SteerSense));
    for (int i = 0; i < count; i++) {
        SteerSense *s = &block->senses[i];
        *s = senses[i];
        int cap = s->max_memories;
        s->memories = (SteerSenseMemory *)(void *)at;
        at += align16((size_t)cap * sizeof(SteerSenseMemory));
        s->notes = (SteerSenseNote *)(void *)at;
        at += align16((size_t)steer_sense_note_capacity((SteerSenseType)s->type, cap) * sizeof(SteerSenseNote));
        if (s->memory_count > 0) memcpy(s->memories, senses[i].memories, (size_t)s->memory_count * sizeof *s->memories);
        for (int m = 0; m < s->memory_count; m++) s->memories[m].events = 0;
        s->note_count = s->note_split = s->event_count = 0;
    }
    return block;
}

/* ---- The pass's scratch: one per task --------------------------------------------------------- */

typedef struct SteerSenseScratch {
    SteerSeen *best;         ///< max: sight's visible candidates so far (closest first once full)
    SteerSenseMemory *fresh; ///< max: what a hearing update hears, by serial
    SteerSenseMemory *out;   ///< 2·max: a merge's output before the push-out
    uint64_t *keys;          ///< max: sight: what it sees, by rank or serial (see sight)...
    int *index;              ///< max: ... and where each is in `best`
} SteerSenseScratch;

static size_t scratch_bytes(int max)
{
    return (size_t)max * (sizeof(SteerSeen) + 3 * sizeof(SteerSenseMemory) + sizeof(uint64_t) + sizeof(int));
}

static void free_scratch(SteerWorld *world)
{
    for (int t = 0; t < world->sense_scratch_tasks; t++)
        steer_free(&world->alloc, world->sense_scratch[t].best, scratch_bytes(world->sense_scratch_max));
    steer_free(&world->alloc, world->sense_scratch, (size_t)world->sense_scratch_tasks * sizeof *world->sense_scratch);
    world->sense_scratch = NULL;
    world->sense_scratch_tasks = world->sense_scratch_max = 0;
}

/// Makes every task's scratch hold senses of `max` memories; false when memory runs out (the old
/// scratch then stays).
static bool reserve_scratch(SteerWorld *world, int max)
{
    int tasks = steer_thread_pool_size(world->pool);
    if (max <= world->sense_scratch_max && tasks <= world->sense_scratch_tasks) return true;
    if (max < world->sense_scratch_max) max = world->sense_scratch_max;
    SteerSenseScratch *made = steer_realloc(&world->alloc, NULL, 0, (size_t)tasks * sizeof *made);
    if (!made) return false;
    memset(made, 0, (size_t)tasks * sizeof *made);
    for (int t = 0; t < tasks; t++) {
        char *p = steer_realloc(&world->alloc, NULL, 0, scratch_bytes(max));
        if (!p) {
            for (int k = 0; k < t; k++) steer_free(&world->alloc, made[k].best, scratch_bytes(max));
            steer_free(&world->alloc, made, (size_t)tasks * sizeof *made);
            return false;
        }
        made[t].best = (SteerSeen *)(void *)p;
        made[t].fresh = (SteerSenseMemory *)(void *)(p + (size_t)max * sizeof(SteerSeen));
        made[t].out = made[t].fresh + max;
        made[t].keys = (uint64_t *)(void *)(made[t].out + 2 * max);
        made[t].index = (int *)(void *)(made[t].keys + max);
    }
    free_scratch(world);
    world->sense_scratch = made;
    world->sense_scratch_tasks = tasks;
    world->sense_scratch_max = max;
    return true;
}

/* ---- Hearing periods ------------------------------------------------------------------------- */

/// Counts a hearing sense of `period` seconds in (delta +1) or out (-1); false when memory runs out
/// (only when counting in).
static bool count_hearing(SteerWorld *world, double period, int delta)
{
    int i = 0;
    while (i < world->hearing_period_count && world->hearing_periods[i].period != period) i++;
    if (i == world->hearing_period_count) {
        if (delta < 0) return true; /* (not counted: cannot happen) */
        if (i == world->hearing_period_capacity) {
            int next = i ? 2 * i : 4;
            struct SteerHearingPeriod *grown = steer_realloc(&world->alloc, world->hearing_periods,
                                                             (size_t)i * sizeof *grown, (size_t)next * sizeof *grown);
            if (!grown) return false;
            world->hearing_periods = grown;
            world->hearing_period_capacity = next;
        }
        world->hearing_periods[i].period = period;
        world->hearing_periods[i].count = 0;
        world->hearing_period_count++;
    }
    world->hearing_periods[i].count += delta;
    if (world->hearing_periods[i].count <= 0)
        world->hearing_periods[i] = world->hearing_periods[--world->hearing_period_count];
    return true;
}

/// Steps between updates of the world's slowest hearing sense at the current dt (1: none).
static uint64_t slowest_hearing(const SteerWorld *world)
{
    uint64_t longest = 1;
    for (int i = 0; i < world->hearing_period_count; i++) {
        uint64_t p = steer_sense_period_steps(world->hearing_periods[i].period, world->def.dt);
        if (p > longest) longest = p;
    }
    return longest;
}

/// A sense comes (+1) or goes (-1): the world's counts of sight and hearing senses.
static void count_sense(SteerWorld *world, const SteerSense *s, int delta)
{
    if (s->type == STEER_SENSE_SIGHT)
        world->sight_senses += delta;
    else if (delta < 0)
        count_hearing(world, s->def.period, -1);
}

/* ---- Sensors: the per-vehicle part ----------------------------------------------------------- */

static SteerSensor *sensor_of(const SteerWorld *world, int slot)
{
    return slot < world->sensor_capacity ? &world->sensors[slot] : NULL;
}

static bool has_anything(const SteerSensor *s) { return s->sense_count > 0 || s->wake_step != 0; }

/// Makes sure the vehicle in `slot` can be listed among the sensing ones (sensors, sensing, the
/// due list and the event lists have room); false when memory runs out (nothing then changed that
/// matters).
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
    if (needed <= old && world->event_slots) return true;
    int cap = needed > old ? (old ? 2 * old : 16) : old;
    /* Every array that follows sensing's capacity (event_start has one more), then sensing itself;
     * when one cannot grow, those grown already shrink back (which never fails): every array then
     * keeps the capacity the world says it has. */
    int have = world->event_slots ? old : 0;
    size_t from[4] = {(size_t)have * sizeof(int), (size_t)(have ? have + 1 : 0) * sizeof(int),
                      (size_t)have * sizeof(int), (size_t)have * sizeof(int)};
    size_t to[4] = {(size_t)cap * sizeof(int), (size_t)(cap + 1) * sizeof(int), (size_t)cap * sizeof(int),
                    (size_t)cap * sizeof(int)};
    int **arrays[4] = {&world->event_slots, &world->event_start, &world->sense_due, &world->sense_visit};
    int grown = 0;
    for (; grown < 4; grown++) {
        int *p = steer_realloc(&world->alloc, *arrays[grown], from[grown], to[grown]);
        if (!p) break;
        *arrays[grown] = p;
    }
    SteerSensing *sensing = world->sensing;
    if (grown == 4 && cap != old) {
        sensing =
            steer_realloc(&world->alloc, world->sensing, (size_t)old * sizeof *sensing, (size_t)cap * sizeof *sensing);
        if (sensing) {
            world->sensing = sensing;
            world->sensing_capacity = cap;
        }
    }
    if (grown == 4 && sensing) return true;
    for (int k = 0; k < grown; k++) *arrays[k] = steer_realloc(&world->alloc, *arrays[k], to[k], from[k]);
    return false;
}

static uint64_t serial_of(const SteerWorld *world, int slot) { return world->vehicle_cold[slot].serial; }

/// Where the vehicle of `serial` is, or would go, in the sensing list (creation order).
static int sensing_place(const SteerWorld *world, uint64_t serial)
{
    int lo = 0, hi = world->sensing_count;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (world->sensing[mid].serial < serial)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/// Lists `slot` among the sensing vehicles, in creation order (room reserved by reserve_sensor).
static void list_sensor(SteerWorld *world, int slot)
{
    uint64_t serial = serial_of(world, slot);
    int at = sensing_place(world, serial);
    memmove(world->sensing + at + 1, world->sensing + at, (size_t)(world->sensing_count - at) * sizeof *world->sensing);
    world->sensing[at] = (SteerSensing){0, serial, world->sensors[slot].senses, slot}; /* (visited at the next step) */
    world->sensing_count++;
}

/// The entry of the vehicle in `slot` in the sensing list, or NULL when it is not listed.
static SteerSensing *sensing_of(SteerWorld *world, int slot)
{
    int at = sensing_place(world, serial_of(world, slot));
    return at < world->sensing_count && world->sensing[at].slot == slot ? &world->sensing[at] : NULL;
}

/// The vehicle in `slot` has another block (or none): its entry in the sensing list, if listed, says so.
static void sync_senses(SteerWorld *world, int slot)
{
    SteerSensing *entry = sensing_of(world, slot);
    if (entry) entry->senses = world->sensors[slot].senses;
}

static void unlist_sensor(SteerWorld *world, int slot)
{
    SteerSensing *entry = sensing_of(world, slot);
    if (!entry) return;
    int at = (int)(entry - world->sensing);
    memmove(world->sensing + at, world->sensing + at + 1,
            (size_t)(world->sensing_count - at - 1) * sizeof *world->sensing);
    world->sensing_count--;
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
/// (their sense indices may name other senses now), but for its timer's; and it is visited in the
/// next step, whatever was due.
static void vehicle_events_changed(SteerWorld *world, int slot)
{
    SteerSensor *sensor = &world->sensors[slot];
    for (int i = 0; i < sensor->sense_count; i++) {
        SteerSense *s = &sensor->senses[i];
        s->event_count = s->note_count = s->note_split = 0;
        for (int m = 0; m < s->memory_count; m++) s->memories[m].events = 0;
    }
    sensor->event_count = sensor->woke ? 1 : 0;
    SteerSensing *listed = sensing_of(world, slot);
    if (listed) listed->next_visit = 0;
    world->events_dirty = true;
}

/// Frees the vehicle's block (if any).
static void free_block(SteerWorld *world, SteerSensor *sensor)
{
    if (!sensor->senses) return;
    SenseBlock *block = block_of(sensor->senses);
    sense_release(world, block, block->size_class);
    sensor->senses = NULL;
}

void steer_senses_vehicle_removed(SteerWorld *world, int slot)
{
    world->removals++;
    SteerSensor *sensor = sensor_of(world, slot);
    if (!sensor) return;
    drop_events_of(world, slot);
    if (has_anything(sensor)) unlist_sensor(world, slot);
    for (int i = 0; i < sensor->sense_count; i++) count_sense(world, &sensor->senses[i], -1);
    free_block(world, sensor);
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
        steer_free(&world->alloc, world->sense_due, (size_t)world->sensing_capacity * sizeof(int));
        steer_free(&world->alloc, world->sense_visit, (size_t)world->sensing_capacity * sizeof(int));
    }
    steer_free(&world->alloc, world->sounds, (size_t)world->sound_capacity * sizeof *world->sounds);
    steer_free(&world->alloc, world->hearing_periods,
               (size_t)world->hearing_period_capacity * sizeof *world->hearing_periods);
    free_scratch(world);
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
static void note_pushed(const struct SenseContext *c, const SteerSenseMemory *m);

/// Keeps the `keep` memories of `memories` (count of them, in serial order) a full sense keeps:
/// those sensed now first, then the most recently sensed (ties: the closer, then the first made).
/// Returns how many remain, in serial order; with a context, each one dropped is a note (its
/// FORGOT event, and its LOST if it had one), in the order they go.
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
        if (c) note_pushed(c, &memories[worst]);
        memmove(memories + worst, memories + worst + 1, (size_t)(count - worst - 1) * sizeof *memories);
        count--;
    }
    return count;
}

/// A sense as the pass keeps it, from its definition (memories none yet; arrays set by make_block).
static SteerSense sense_from(const SteerWorld *world, const SteerSenseDef *def)
{
    SteerSense s;
    memset(&s, 0, sizeof s);
    s.type = (uint8_t)def->type;
    s.walls_block = def->walls_block;
    s.obstacles_block = def->obstacles_block;
    s.report = (uint8_t)def->events;
    s.max_memories = def->max_memories;
    s.filter = def->type == STEER_SENSE_SIGHT ? def->kinds : def->tags;
    s.range = def->range;
    s.cos_half = cone_cos(def);
    s.period = steer_sense_period_steps(def->period, world->def.dt);
    s.forget_steps = steer_sense_forget_steps(def->forget_after, world->def.dt);
    s.last_update = world->step_count;
    s.removals = world->removals;
    s.def = *def;
    s.def.name = NULL; /* (pointed at `name` when read: the sense moves with its block) */
    memcpy(s.name, def->name, strlen(def->name) + 1);
    return s;
}

/// Gives the vehicle in `slot` these senses (a new block; the old one goes); false when memory runs
/// out (nothing changed then).
static bool set_senses(SteerWorld *world, int slot, const SteerSense *senses, int count)
{
    SteerSensor *sensor = &world->sensors[slot];
    SenseBlock *block = NULL;
    if (count > 0) {
        block = make_block(world, serial_of(world, slot), senses, count);
        if (!block) return false;
    }
    free_block(world, sensor);
    sensor->senses = block ? block->senses : NULL;
    sensor->sense_count = count;
    return true;
}

SteerResult steer_vehicle_add_sense(SteerWorld *world, SteerVehicleId id, const SteerSenseDef *def, int *out_index)
{
    STEER_ENTRY(world);
    SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle) return steer_vehicle_invalid_id(world, id);
    TRY(check_sense_def(world, def));
    int slot = steer_vehicle_slot(world, vehicle);
    if (!reserve_sensor(world, slot) || !reserve_scratch(world, def->max_memories))
        return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
    SteerSensor *sensor = &world->sensors[slot];
    int index = find_by_name(sensor, def->name);
    if (index < 0 && sensor->sense_count == STEER_MAX_SENSES)
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "vehicle has %d senses already, the most it can have",
                          STEER_MAX_SENSES);
    if (def->type == STEER_SENSE_HEARING && !count_hearing(world, def->period, +1))
        return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
    /* The new set of senses - the others as they are, the new one in its place - into a new block:
     * a failure leaves the vehicle's senses as they were. */
    SteerSense senses[STEER_MAX_SENSES];
    int count = sensor->sense_count;
    if (count > 0) memcpy(senses, sensor->senses, (size_t)count * sizeof *senses); /* (memories: the old block's) */
    SteerSense made = sense_from(world, def);
    bool replacing = index >= 0;
    SteerSense old;
    memset(&old, 0, sizeof old);
    if (replacing) {
        /* A replacement keeps what it can of the memories (pushed out in a copy: the scratch holds
         * twice the memories of any sense added so far). */
        old = senses[index];
        SteerSenseMemory *copy = world->sense_scratch[0].out;
        memcpy(copy, old.memories, (size_t)old.memory_count * sizeof *copy);
        made.memory_count = push_out(NULL, copy, old.memory_count, def->max_memories);
        made.memories = copy;
        made.last_update = old.last_update;
        /* (a sight sense's memories carry ranks; a hearing sense's do not: checked at the next
         * update, which takes their ranks from the vehicles) */
        made.removals = old.type == made.type ? old.removals : UINT64_MAX;
    } else {
        index = count++;
    }
    senses[index] = made;
    bool listed = has_anything(sensor);
    if (!set_senses(world, slot, senses, count)) {
        if (def->type == STEER_SENSE_HEARING) count_hearing(world, def->period, -1);
        return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    if (replacing) count_sense(world, &old, -1);
    if (made.type == STEER_SENSE_SIGHT) world->sight_senses++;
    vehicle_events_changed(world, slot);
    if (!listed)
        list_sensor(world, slot);
    else
        sync_senses(world, slot);
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
    count_sense(world, &sensor->senses[index], -1);
    /* In place: the senses after it move down (their arrays stay where they are in the block; its
     * own stay unused until the block is made again). */
    memmove(sensor->senses + index, sensor->senses + index + 1,
            (size_t)(sensor->sense_count - index - 1) * sizeof *sensor->senses);
    sensor->sense_count--;
    vehicle_events_changed(world, slot);
    if (sensor->sense_count == 0) {
        free_block(world, sensor);
        sync_senses(world, slot);
    }
    if (!has_anything(sensor)) unlist_sensor(world, slot);
    return STEER_OK;
}

SteerResult steer_vehicle_set_sense_events(SteerWorld *world, SteerVehicleId id, int sense, uint32_t events)
{
    STEER_ENTRY(world);
    SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle) return steer_vehicle_invalid_id(world, id);
    TRY(check_events(world, events));
    SteerSensor *sensor = sensor_of(world, steer_vehicle_slot(world, vehicle));
    int count = sensor ? sensor->sense_count : 0;
    if (sense < -1 || sense >= count)
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "sense index must be -1 or in [0, %d) (got %d)", count,
                          sense);
    for (int i = sense < 0 ? 0 : sense; i < (sense < 0 ? count : sense + 1); i++) {
        sensor->senses[i].report = (uint8_t)events;
        sensor->senses[i].def.events = events;
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

/// What one visit of one sense needs to know.
typedef struct SenseContext {
    SteerWorld *world;
    const SteerGrid *grid;
    SteerSenseScratch *scratch; ///< the task's
    uint64_t step;
    double time;
    int slot;                 ///< the sensing vehicle's pool slot
    uint64_t serial;          ///< ... its serial
    SteerVehicleId id;        ///< ... its id
    const SteerVehicle *self; ///< ... itself
    SteerSense *sense;
} SenseContext;

/// Appends the note of a memory that leaves the sense (the events `bits` it makes).
static void note_memory(SteerSense *s, const SteerSenseMemory *m, unsigned bits)
{
    SteerSenseNote *n = &s->notes[s->note_count++];
    n->serial = m->serial;
    n->other = m->other;
    n->position = m->position;
    n->distance = m->distance;
    n->radius = 0.0;
    n->tag = 0;
    n->events = (uint8_t)bits;
}

/// A dropped memory's note: the events `bits` (LOST, FORGOT) that its sense reports, if any.
static void note_dropped(const SenseContext *c, const SteerSenseMemory *m, unsigned bits)
{
    SteerSense *s = c->sense;
    if (!(s->report & STEER_EVENT_BIT(STEER_EVENT_LOST))) bits &= ~STEER_NOTE_LOST;
    if (!(s->report & STEER_EVENT_BIT(STEER_EVENT_FORGOT))) bits &= ~STEER_NOTE_FORGOT;
    if (!(bits & (STEER_NOTE_LOST | STEER_NOTE_FORGOT))) return;
    note_memory(s, m, bits);
    s->event_count += ((bits & STEER_NOTE_LOST) != 0) + ((bits & STEER_NOTE_FORGOT) != 0);
}

/// A memory pushed out of a full sense: its FORGOT comes after the others (its LOST, if this
/// update made one - counted already, on the memory - stays in creation order).
static void note_pushed(const SenseContext *c, const SteerSenseMemory *m)
{
    SteerSense *s = c->sense;
    unsigned bits = STEER_NOTE_PUSHED | (m->events & STEER_NOTE_LOST);
    if (s->report & STEER_EVENT_BIT(STEER_EVENT_FORGOT)) {
        bits |= STEER_NOTE_FORGOT;
        s->event_count++;
    }
    if (!(bits & (STEER_NOTE_LOST | STEER_NOTE_FORGOT))) return;
    note_memory(s, m, bits);
}

/// Whether a memory not sensed now is forgotten at the end of this step: more than forget_steps
/// whole steps since it was last sensed.
static bool expired(const SenseContext *c, const SteerSenseMemory *m)
{
    return !m->sensed_now && c->step - m->step > c->sense->forget_steps;
}

/// A visit without an update: only forgetting.
static void expire(const SenseContext *c)
{
    SteerSense *s = c->sense;
    int kept = 0;
    for (int i = 0; i < s->memory_count; i++) {
        SteerSenseMemory *m = &s->memories[i];
        if (expired(c, m)) {
            note_dropped(c, m, STEER_NOTE_FORGOT);
            continue;
        }
        m->events = 0;
        if (kept != i) s->memories[kept] = *m;
        kept++;
    }
    s->memory_count = kept;
    s->note_split = s->note_count;
}

/// What an update senses now, for the merge: a hearing update's records (by serial), or a sight
/// update's candidates (`best`, in the order of `keys`: ranks when `by_rank`, else serials).
typedef struct Fresh {
    int count;
    bool sight, by_rank;
    const SteerSenseMemory *records;
    const SteerSeen *best;
    const uint64_t *keys;
    const int *index;
} Fresh;

/// Fills the memory of a vehicle sensed now (sight and hearing alike): made this step, no events yet.
static void sensed_memory(const SenseContext *c, SteerSenseMemory *m, uint64_t serial, SteerVehicleId other,
                          SteerVec2 position, SteerVec2 velocity, double distance)
{
    m->serial = serial;
    m->other = other;
    m->position = position;
    m->velocity = velocity;
    m->step = c->step;
    m->time = c->time;
    m->distance = distance;
    m->sensed_now = true;
    m->events = 0;
}

/// The memory of the j-th vehicle a sight update sees, with its serial and id (`known`: taken from
/// the old memory of it; else read from the vehicle).
static void seen_memory(const SenseContext *c, const Fresh *f, int j, const SteerSenseMemory *known,
                        SteerSenseMemory *m)
{
    const SteerSeen *seen = &f->best[f->index[j]];
    const SteerWorld *world = c->world;
    const SteerGridEntry *e = &c->grid->entry[seen->entry];
    uint64_t serial;
    SteerVehicleId id;
    if (known) {
        serial = known->serial;
        id = known->other;
    } else {
        const SteerVehicle *other = steer_pool_at(&world->vehicles, seen->slot);
        serial = f->by_rank ? serial_of(world, seen->slot) : f->keys[j];
        id = (SteerVehicleId){(uint32_t)seen->slot + 1, world->tag, other->header.generation};
    }
    SteerVec2 position = e->exact ? steer_vec2(e->x, e->y)
                                  : ((const SteerVehicle *)steer_pool_at(&world->vehicles, seen->slot))->position;
    sensed_memory(c, m, serial, id, position, steer_vec2(e->vx, e->vy), sqrt(seen->distance_sq));
    m->rank = seen->rank;
}

/// An update: merges what the sense senses now into its memories (both in creation order), with
/// the events of every change as its mask asks.
static void merge(const SenseContext *c, const Fresh *f)
{
    SteerSense *s = c->sense;
    bool check = s->removals != c->world->removals;
    s->removals = c->world->removals;
    const SteerSenseMemory *old = s->memories;
    SteerSenseMemory *out = c->scratch->out;
    bool report_sensed = s->report & STEER_EVENT_BIT(STEER_EVENT_SENSED);
    bool report_lost = s->report & STEER_EVENT_BIT(STEER_EVENT_LOST);
    bool by_rank = f->by_rank;
    int n = s->memory_count, count = f->count, i = 0, j = 0, made = 0;
    while (i < n || j < count) {
        int order; /* <0: the old memory comes first, 0: the same vehicle, >0: the fresh one */
        if (j == count) {
            order = -1;
        } else if (i == n) {
            order = 1;
        } else {
            uint64_t ko = by_rank ? (uint64_t)(uint32_t)old[i].rank : old[i].serial;
            uint64_t kf = f->sight ? f->keys[j] : f->records[j].serial;
            order = ko < kf ? -1 : ko > kf;
        }
        if (order < 0) {
            SteerSenseMemory *m = &out[made];
            *m = old[i++];
            m->events = 0;
            if (check) {
                const SteerVehicle *v = steer_vehicle_lookup(c->world, m->other);
                if (!v || serial_of(c->world, steer_vehicle_slot(c->world, v)) != m->serial) {
                    note_dropped(c, m, STEER_NOTE_FORGOT);
                    continue;
                }
                m->rank = v->rank; /* (current: the step's grid build closed the ranks' holes) */
            }
            unsigned lost = 0;
            if (m->sensed_now) {
                m->sensed_now = false;
                lost = STEER_NOTE_LOST;
            }
            if (expired(c, m)) {
                note_dropped(c, m, lost | STEER_NOTE_FORGOT);
                continue;
            }
            if (lost && report_lost) {
                m->events = STEER_NOTE_LOST;
                s->event_count++;
            }
            made++;
        } else {
            const SteerSenseMemory *known = order == 0 ? &old[i++] : NULL;
            SteerSenseMemory *m = &out[made++];
            if (f->sight) {
                seen_memory(c, f, j, known, m);
            } else {
                *m = f->records[j];
                m->events = 0;
            }
            j++;
            if ((!known || !known->sensed_now) && report_sensed) {
                m->events = STEER_NOTE_SENSED;
                s->event_count++;
            }
        }
    }
    s->note_split = s->note_count;
    made = push_out(c, out, made, s->max_memories);
    memcpy(s->memories, out, (size_t)made * sizeof *out);
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

/// Whether sight from the vehicle to `offset` is clear for the sense (no test when nothing of what
/// blocks it is in the world).
static inline bool clear_to(const SenseContext *c, SteerVec2 offset, bool blockers)
{
    const SteerSense *s = c->sense;
    return !blockers || steer_sight_clear(c->world, c->self->position, offset, s->walls_block, s->obstacles_block);
}

/// Sorts best[0, kept) closest first (insertion: it is mostly small).
static void sort_best(SteerSeen *best, int kept)
{
    for (int i = 1; i < kept; i++) {
        SteerSeen x = best[i];
        int at = i;
        while (at > 0 && seen_before(&x, &best[at - 1])) {
            best[at] = best[at - 1];
            at--;
        }
        best[at] = x;
    }
}

/// Takes a batch of candidates (in range, in the cone, of the kinds) into the scratch's `best`
/// (`*kept` of them): while they all fit, every visible one in any order; once the sense is full,
/// the closest visible ones, closest first, testing line of sight only while a candidate could
/// still enter (`*sorted`: best is in that order).
static void take_batch(const SenseContext *c, SteerSeen *batch, int count, int *kept, bool *sorted, bool blockers)
{
    SteerSeen *best = c->scratch->best;
    int cap = c->sense->max_memories;
    if (*kept + count <= cap) {
        /* Room for all (the common case): every visible one goes in, no order needed to choose. */
        for (int i = 0; i < count; i++)
            if (clear_to(c, batch[i].offset, blockers)) best[(*kept)++] = batch[i];
        *sorted = *kept <= 1;
        return;
    }
    if (!*sorted) {
        sort_best(best, *kept);
        *sorted = true;
    }
    for (int i = count / 2 - 1; i >= 0; i--) sift_down(batch, count, i);
    while (count > 0) {
        SteerSeen top = batch[0];
        batch[0] = batch[--count];
        sift_down(batch, count, 0);
        if (*kept == cap && !seen_before(&top, &best[cap - 1])) return; /* the rest are farther */
        if (!clear_to(c, top.offset, blockers)) continue;
        int at = *kept < cap ? (*kept)++ : cap - 1;
        while (at > 0 && seen_before(&top, &best[at - 1])) {
            best[at] = best[at - 1];
            at--;
        }
        best[at] = top;
    }
}

/// Sorts keys[0, n) ascending, index[] along (Shell sort: no allocation; n is mostly small).
static void sort_keys(uint64_t *keys, int *index, int n)
{
    static const int gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
    size_t first = 0;
    while (gaps[first] >= n && gaps[first] > 1) first++;
    for (size_t g = first; g < sizeof gaps / sizeof gaps[0]; g++) {
        int gap = gaps[g];
        for (int i = gap; i < n; i++) {
            uint64_t k = keys[i];
            int x = index[i], at = i;
            while (at >= gap && keys[at - gap] > k) {
                keys[at] = keys[at - gap];
                index[at] = index[at - gap];
                at -= gap;
            }
            keys[at] = k;
            index[at] = x;
        }
    }
}

/// Candidates a sight update gathers before testing their line of sight, closest first.
#define SIGHT_BATCH 256

/// What sight tests of a candidate, exactly: range and cone from the vehicle at p facing h.
typedef struct SightTest {
    SteerVec2 p, h;
    double range_sq, cos_half;
    bool cone, blockers;
} SightTest;

/// The candidates near[0, count) (grid indices that passed the cells' quick tests): those in range
/// and in the cone, exactly, into the scratch's best (take_batch).
static void take_near(const SenseContext *c, const SightTest *t, const int *near, int count, SteerSeen *batch,
                      int *kept, bool *sorted)
{
    const SteerGrid *g = c->grid;
    const SteerWorld *world = c->world;
    int batched = 0;
    for (int i = 0; i < count; i++) {
        int k = near[i];
        const SteerGridEntry *e = &g->entry[k];
        if (e->slot == c->slot) continue;
        SteerVec2 q = e->exact ? steer_vec2(e->x, e->y)
                               : ((const SteerVehicle *)steer_pool_at(&world->vehicles, e->slot))->position;
        SteerVec2 d = steer_world_offset_fast(world, t->p, q);
        double d2 = steer_length_sq(d);
        if (d2 > t->range_sq) continue;
        if (t->cone && d2 > 0.0 && steer_dot(d, t->h) < t->cos_half * sqrt(d2)) continue;
        batch[batched++] = (SteerSeen){d2, e->rank, e->slot, k, d};
    }
    take_batch(c, batch, batched, kept, sorted, t->blockers);
}

/// A sight update: what it sees now into the scratch (`best`, and `keys` / `index` in creation
/// order), described by *f for the merge. While no vehicle was removed since the sense checked its
/// memories, ranks stand for creation order and match memories to what is seen (no vehicle read
/// for a vehicle it remembers); else serials do, read from each vehicle seen.
static void sight(const SenseContext *c, Fresh *f)
{
    SteerSense *s = c->sense;
    const SteerGrid *g = c->grid;
    const SteerWorld *world = c->world;
    SteerVec2 p = c->self->position, h = c->self->heading;
    double range_sq = s->range * s->range, cos_half = s->cos_half;
    bool cone = cos_half >= -1.0;
    uint64_t kinds = s->filter;
    bool blockers = (s->walls_block && world->walls.live > 0) || (s->obstacles_block && world->obstacles.live > 0);
    SteerSeen batch[SIGHT_BATCH];
    int kept = 0;
    bool sorted = true;
    SteerVec2 local = steer_grid_local_point(g, p);
    SteerGridCursor cursor;
    SteerGridRun run;
    steer_grid_cursor_begin(&cursor, g, local.x, local.y, s->range);
    /* Most candidates of the cells walked lie beyond range: the grid's float copy of the positions
     * (good to a few thousandths of a unit) rules those out before their entry is read. */
    bool quick = g->float_ok && !cursor.wrap_each;
    double px = local.x - g->origin_x, py = local.y - g->origin_y;
    double reach = s->range + 0.05 + 1e-6 * s->range;
    float reach_sq = (float)(reach * reach);
    float fhx = (float)h.x, fhy = (float)h.y, fcos = (float)cos_half;
    SightTest test = {p, h, range_sq, cos_half, cone, blockers};
    /* Two passes: the cells' cheap tests first, asking for the entries of what passes them; then
     * those entries (in flight together rather than one miss after another). */
    int near[SIGHT_BATCH];
    int nears = 0;
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
#if defined(__GNUC__)
            __builtin_prefetch(&g->entry[k]);
#endif
            near[nears++] = k;
            if (nears == SIGHT_BATCH) {
                take_near(c, &test, near, nears, batch, &kept, &sorted);
                nears = 0;
            }
        }
    }
    take_near(c, &test, near, nears, batch, &kept, &sorted);
    const SteerSeen *best = c->scratch->best;
    uint64_t *keys = c->scratch->keys;
    int *index = c->scratch->index;
    bool by_rank = s->removals == world->removals;
    for (int i = 0; i < kept; i++) {
        keys[i] = by_rank ? (uint64_t)(uint32_t)best[i].rank : serial_of(world, best[i].slot);
        index[i] = i;
    }
    sort_keys(keys, index, kept);
    f->count = kept;
    f->sight = true;
    f->by_rank = by_rank;
    f->records = NULL;
    f->best = best;
    f->keys = keys;
    f->index = index;
}

/// Whether the sense hears sound `sound` in this update; its squared distance to `*d2`.
static bool hears(const SenseContext *c, const SteerSound *sound, SteerVec2 *offset, double *d2)
{
    const SteerSense *s = c->sense;
    if (sound->step <= s->last_update || sound->step > c->step) return false;
    if (sound->source_serial == c->serial) return false;
    if (s->filter && !((s->filter >> sound->def.tag) & 1u)) return false;
    *offset = steer_world_offset_fast(c->world, c->self->position, sound->def.position);
    *d2 = steer_length_sq(*offset);
    return *d2 <= sound->def.radius * sound->def.radius && *d2 <= s->range * s->range;
}

/// A hearing update: the live sources of the sounds it hears (at most max_memories sounds, in
/// emission order; a source's later sound wins), in serial order, into the scratch's `fresh`.
static void hearing(const SenseContext *c, Fresh *f)
{
    SteerSense *s = c->sense;
    const SteerWorld *world = c->world;
    SteerSenseMemory *fresh = c->scratch->fresh;
    int heard = 0, count = 0;
    for (int i = 0; i < world->sound_count && heard < s->max_memories; i++) {
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
        sensed_memory(c, &m, sound->source_serial, sound->def.source, sound->def.position, sound->velocity, sqrt(d2));
        int at = count;
        while (at > 0 && fresh[at - 1].serial > m.serial) at--;
        if (at > 0 && fresh[at - 1].serial == m.serial) {
            fresh[at - 1] = m;
            continue;
        }
        memmove(fresh + at + 1, fresh + at, (size_t)(count - at) * sizeof *fresh);
        fresh[at] = m;
        count++;
    }
    memset(f, 0, sizeof *f);
    f->count = count;
    f->records = fresh;
}

/// The sounds a hearing update heard, in emission order, as notes after the others: events when
/// the mask has HEARD, and kept for debug drawing either way.
static void heard_notes(const SenseContext *c)
{
    SteerSense *s = c->sense;
    const SteerWorld *world = c->world;
    bool report = s->report & STEER_EVENT_BIT(STEER_EVENT_HEARD);
    int heard = 0;
    for (int i = 0; i < world->sound_count && heard < s->max_memories; i++) {
        const SteerSound *sound = &world->sounds[i];
        SteerVec2 offset;
        double d2;
        if (!hears(c, sound, &offset, &d2)) continue;
        heard++;
        SteerSenseNote *n = &s->notes[s->note_count++];
        n->serial = 0;
        n->other = sound->def.source;
        n->position = sound->def.position;
        n->distance = sqrt(d2);
        n->radius = sound->def.radius;
        n->tag = sound->def.tag;
        n->events = (uint8_t)(STEER_NOTE_HEARD | (report ? STEER_NOTE_REPORT : 0));
        s->event_count += report;
    }
}

typedef struct SenseJob {
    SteerWorld *world;
    const SteerGrid *grid;
    bool all;                       ///< visit every sensing vehicle, their periods and forgetting again (dt changed)
    int due[STEER_MAX_THREADS];     ///< how many each task visited (listed at sense_due + its range's start)
    int emptied[STEER_MAX_THREADS]; ///< vehicles it left with nothing (a timer fired, no sense)
} SenseJob;

/// First step at which a memory last sensed at `step` may be forgotten (saturating).
static uint64_t forget_step(uint64_t step, uint64_t forget_steps)
{
    uint64_t at = step + forget_steps + 1;
    return at < step ? UINT64_MAX : at;
}

/// One sensing vehicle's visit: its timer, then each sense (an update when due, else forgetting
/// only); the first step it must be visited again.
static void visit(const SenseJob *job, SteerSenseScratch *scratch, SteerSensing *entry)
{
    SteerWorld *world = job->world;
    uint64_t step = world->step_count;
    int slot = entry->slot;
    SteerSensor *sensor = &world->sensors[slot];
    int events = 0;
    sensor->woke = false;
    if (sensor->wake_step != 0 && sensor->wake_step <= step) {
        sensor->woke = true;
        sensor->wake_step = 0;
        events = 1;
    }
    uint64_t next = sensor->wake_step ? sensor->wake_step : UINT64_MAX;
    if (sensor->sense_count > 0) {
        const SteerVehicle *self = steer_pool_at(&world->vehicles, slot);
        SenseContext c;
        c.world = world;
        c.grid = job->grid;
        c.scratch = scratch;
        c.step = step;
        c.time = world->time;
        c.slot = slot;
        c.serial = block_of(sensor->senses)->serial;
        c.id = (SteerVehicleId){(uint32_t)slot + 1, world->tag, self->header.generation};
        c.self = self;
        for (int i = 0; i < sensor->sense_count; i++) {
            SteerSense *s = &sensor->senses[i];
            c.sense = s;
            if (job->all) {
                s->period = steer_sense_period_steps(s->def.period, world->def.dt);
                s->forget_steps = steer_sense_forget_steps(s->def.forget_after, world->def.dt);
            }
            s->event_count = s->note_count = s->note_split = 0;
            uint64_t period = s->period;
            uint64_t phase = period == 1 ? 0 : (step + c.serial) % period;
            if (phase == 0) {
#if defined(__GNUC__)
                /* (its memories, all of them, while sight walks the grid: the merge reads them) */
                const char *first = (const char *)s->memories;
                for (size_t at = 256; at < (size_t)s->memory_count * sizeof *s->memories; at += 64)
                    __builtin_prefetch(first + at, 1, 3);
#endif
                bool hearing_sense = s->type == STEER_SENSE_HEARING;
                Fresh fresh;
                if (hearing_sense)
                    hearing(&c, &fresh);
                else
                    sight(&c, &fresh);
                merge(&c, &fresh);
                if (hearing_sense) heard_notes(&c);
                s->last_update = step;
            } else if (s->memory_count > 0) {
                expire(&c);
            }
            events += s->event_count;
            uint64_t due = step + (period - phase);
            if (due < next) next = due;
            for (int m = 0; m < s->memory_count; m++) {
                if (s->memories[m].sensed_now) continue;
                uint64_t at = forget_step(s->memories[m].step, s->forget_steps);
                if (at < next) next = at;
            }
        }
    }
    sensor->event_count = events;
    entry->next_visit = next;
}

/// Buckets of the grid's order a task sorts its visits into.
#define SENSE_PLACES 1024

/// The order a task visits its due entries in (`due`, n of them, in creation order): by where the
/// vehicles are in the grid's cell order, in SENSE_PLACES buckets of it (a counting sort that keeps
/// creation order within a bucket), so that vehicles visited one after the other look at the same
/// cells, and the grid's arrays stay in the caches of a large world. Without a grid (no sight), or
/// with few to visit, the creation order itself. What a visit computes does not depend on the
/// order; the events are listed from `due`, in creation order. (From sense_order_min vehicles on:
/// in a smaller world the grid stays in the caches anyway, and the sort only costs, 2-3 % of a step
/// at 10,000; at 50,000 and 100,000 it saves 8-15 %.)
static const int *place_order(const SenseJob *job, const int *due, int n, int *out)
{
    const SteerGrid *g = job->grid;
    if (!g || !g->gathered || g->count == 0 || n < 64 || job->world->order_count < job->world->sense_order_min)
        return due;
    const SteerWorld *world = job->world;
    int counts[SENSE_PLACES + 1];
    memset(counts, 0, sizeof counts);
    uint64_t scale = (uint64_t)g->count;
    for (int k = 0; k < n; k++) {
        int where = g->where[world->sensing[due[k]].slot];
        counts[(uint64_t)(unsigned)where * SENSE_PLACES / scale + 1]++;
    }
    for (int p = 1; p <= SENSE_PLACES; p++) counts[p] += counts[p - 1];
    for (int k = 0; k < n; k++) {
        int where = g->where[world->sensing[due[k]].slot];
        out[counts[(uint64_t)(unsigned)where * SENSE_PLACES / scale]++] = due[k];
    }
    return out;
}

/// How far ahead a task asks for the vehicles it will visit: their block (the sensing list says
/// where it is), their SteerSensor and the vehicle.
#define SENSE_AHEAD 4

static void sense_task(void *context, int t, int tasks)
{
    SenseJob *job = context;
    SteerWorld *world = job->world;
    int begin, end;
    steer_task_range(world->sensing_count, tasks, t, &begin, &end);
    uint64_t step = world->step_count;
    /* The visits due, from the dense list alone. */
    int *due = world->sense_due + begin;
    int n = 0;
    const SteerSensing *sensing = world->sensing;
    if (job->all) {
        for (int i = begin; i < end; i++) due[n++] = i;
    } else {
        for (int i = begin; i < end; i++) {
            due[n] = i;
            n += sensing[i].next_visit <= step;
        }
    }
    job->due[t] = n;
    const int *order = place_order(job, due, n, world->sense_visit + begin);
    SteerSenseScratch *scratch = world->sense_scratch ? &world->sense_scratch[t] : NULL;
    int emptied = 0;
    for (int k = 0; k < n; k++) {
#if defined(__GNUC__)
        /* the entry itself further ahead: reading it below, to find what to ask for, would
         * otherwise wait for it (in place order, the entries are spread over the whole list) */
        if (k + 2 * SENSE_AHEAD < n) __builtin_prefetch(&sensing[order[k + 2 * SENSE_AHEAD]], 1, 3);
        if (k + SENSE_AHEAD < n) {
            const SteerSensing *ahead = &sensing[order[k + SENSE_AHEAD]];
            __builtin_prefetch(&world->sensors[ahead->slot], 1, 3);
            __builtin_prefetch(steer_pool_at(&world->vehicles, ahead->slot), 0, 3);
            if (ahead->senses) {
                /* the block's start (its first sense's hot half) and the first memories, where a
                 * block of one sense has them */
                const char *b = (const char *)block_of(ahead->senses);
                for (size_t at = 0; at < 128; at += 64) __builtin_prefetch(b + at, 1, 3);
                const char *m = b + align16(offsetof(SenseBlock, senses) + sizeof(SteerSense));
                for (size_t at = 0; at < 256; at += 64) __builtin_prefetch(m + at, 1, 3);
            }
        }
#endif
        SteerSensing *entry = &world->sensing[order[k]];
        visit(job, scratch, entry);
        emptied += !has_anything(&world->sensors[entry->slot]);
    }
    job->emptied[t] = emptied;
}

static void list_events(SteerWorld *world);

void steer_senses_step(SteerWorld *world)
{
    uint64_t step = world->step_count;
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
        /* The vehicles with events, in creation order (each task's visits are, and the tasks'
         * ranges follow each other). */
        int emptied = 0;
        for (int t = 0; t < tasks; t++) {
            int begin, end;
            steer_task_range(world->sensing_count, tasks, t, &begin, &end);
            const int *due = world->sense_due + begin;
            for (int k = 0; k < job.due[t]; k++) {
                int slot = world->sensing[due[k]].slot;
                if (world->sensors[slot].event_count > 0) world->event_slots[world->event_vehicles++] = slot;
            }
            emptied += job.emptied[t];
        }
        /* A timer that fired leaves the list of a vehicle that has no sense (its event stays
         * readable until the next step). */
        if (emptied > 0) {
            int kept = 0;
            for (int i = 0; i < world->sensing_count; i++)
                if (has_anything(&world->sensors[world->sensing[i].slot])) world->sensing[kept++] = world->sensing[i];
            world->sensing_count = kept;
        }
    }
    list_events(world);
    /* A sound is kept until the slowest hearing sense has had its update after it (and, for
     * steer_world_get_sounds, through the step that first heard it). */
    uint64_t hearing_period = slowest_hearing(world);
    int kept = 0;
    for (int i = 0; i < world->sound_count; i++)
        if (world->sounds[i].step + hearing_period > step) world->sounds[kept++] = world->sounds[i];
    world->sound_count = kept;
}

/* ---- Events -------------------------------------------------------------------------------- */

/// Where events go as they are read back: `skip` of them first, then up to `capacity` into `out`.
typedef struct Emitter {
    SteerSenseEvent *out;
    int skip, capacity, written;
} Emitter;

static void emit(Emitter *em, SteerSenseEventType type, SteerVehicleId vehicle, int sense, SteerVehicleId other,
                 SteerVec2 position, double distance)
{
    if (em->skip > 0) {
        em->skip--;
        return;
    }
    if (em->written == em->capacity) return;
    SteerSenseEvent *e = &em->out[em->written++];
    memset(e, 0, sizeof *e);
    e->type = type;
    e->vehicle = vehicle;
    e->sense = sense;
    e->other = other;
    e->position = position;
    e->distance = distance;
}

/// Among the notes after the split: the pushed one with a LOST whose serial comes first after
/// `after` (exclusive; `any`: from the start), or -1.
static int next_pushed_lost(const SteerSense *s, uint64_t after, bool any)
{
    int best = -1;
    for (int k = s->note_split; k < s->note_count; k++) {
        const SteerSenseNote *n = &s->notes[k];
        if (!(n->events & STEER_NOTE_LOST) || (!any && n->serial <= after)) continue;
        if (best < 0 || n->serial < s->notes[best].serial) best = k;
    }
    return best;
}

/// The events of one sense in their order: by the other's creation order SENSED and LOST of the
/// memories, LOST and FORGOT of the notes; then FORGOT of the memories pushed out, in the order
/// they went; then the sounds heard.
static void sense_events(Emitter *em, SteerVehicleId id, int index, const SteerSense *s)
{
    int m = 0, k = 0;
    int pushed = next_pushed_lost(s, 0, true);
    while (em->written < em->capacity) {
        uint64_t sm = m < s->memory_count ? s->memories[m].serial : UINT64_MAX;
        uint64_t sk = k < s->note_split ? s->notes[k].serial : UINT64_MAX;
        uint64_t sp = pushed >= 0 ? s->notes[pushed].serial : UINT64_MAX;
        if (sm == UINT64_MAX && sk == UINT64_MAX && sp == UINT64_MAX) break;
        if (sm < sk && sm < sp) {
            const SteerSenseMemory *r = &s->memories[m++];
            if (r->events & STEER_NOTE_SENSED)
                emit(em, STEER_EVENT_SENSED, id, index, r->other, r->position, r->distance);
            else if (r->events & STEER_NOTE_LOST)
                emit(em, STEER_EVENT_LOST, id, index, r->other, r->position, r->distance);
        } else if (sk < sp) {
            const SteerSenseNote *n = &s->notes[k++];
            if (n->events & STEER_NOTE_LOST) emit(em, STEER_EVENT_LOST, id, index, n->other, n->position, n->distance);
            if (n->events & STEER_NOTE_FORGOT)
                emit(em, STEER_EVENT_FORGOT, id, index, n->other, n->position, n->distance);
        } else {
            const SteerSenseNote *n = &s->notes[pushed];
            emit(em, STEER_EVENT_LOST, id, index, n->other, n->position, n->distance);
            pushed = next_pushed_lost(s, n->serial, false);
        }
    }
    for (k = s->note_split; k < s->note_count && em->written < em->capacity; k++) {
        const SteerSenseNote *n = &s->notes[k];
        if ((n->events & STEER_NOTE_PUSHED) && (n->events & STEER_NOTE_FORGOT))
            emit(em, STEER_EVENT_FORGOT, id, index, n->other, n->position, n->distance);
        if ((n->events & STEER_NOTE_HEARD) && (n->events & STEER_NOTE_REPORT)) {
            int before = em->written;
            emit(em, STEER_EVENT_HEARD, id, index, n->other, n->position, n->distance);
            if (em->written > before) {
                em->out[before].tag = n->tag;
                em->out[before].radius = n->radius;
            }
        }
    }
}

/// The events of the vehicle in `slot` (listed with events in the last step), into `em`.
static void vehicle_events(const SteerWorld *world, int slot, Emitter *em)
{
    const SteerSensor *sensor = &world->sensors[slot];
    const SteerVehicle *vehicle = steer_pool_at(&world->vehicles, slot);
    SteerVehicleId id = {(uint32_t)slot + 1, world->tag, vehicle->header.generation};
    if (sensor->woke) emit(em, STEER_EVENT_TIMER, id, -1, steer_vehicle_id_unpack(0), vehicle->position, 0.0);
    for (int i = 0; i < sensor->sense_count && em->written < em->capacity; i++) {
        const SteerSense *s = &sensor->senses[i];
        if (s->event_count == 0) continue;
        if (em->skip >= s->event_count) {
            em->skip -= s->event_count;
            continue;
        }
        sense_events(em, id, i, s);
    }
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
    Emitter em = {out, first - world->event_start[lo], capacity, 0};
    for (int v = lo; v < world->event_vehicles && em.written < capacity; v++)
        vehicle_events(world, world->event_slots[v], &em);
    return total;
}
