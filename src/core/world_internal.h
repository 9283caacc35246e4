/* SPDX-License-Identifier: MIT */
/* world_internal.h - the world's private layout, shared by the core's .c files and white-box tests.
 * Nothing outside src/core (and tests) includes this.
 */
#ifndef STEER_WORLD_INTERNAL_H
#define STEER_WORLD_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "grid.h"
#include "pool.h"
#include "prng.h"
#include "steer/steer.h"
#include "thread_pool.h"

/// Format checking of the core's printf-style messages. MinGW's GCC reads plain `printf` as
/// msvcrt's dialect (no %zu); a MinGW build uses MinGW's C99 printf (__USE_MINGW_ANSI_STDIO, set by
/// CMakeLists.txt), whose dialect is gnu_printf.
#if defined(__MINGW32__)
#define STEER_PRINTF_FORMAT(format_arg, first_arg) __attribute__((format(gnu_printf, format_arg, first_arg)))
#else
#define STEER_PRINTF_FORMAT(format_arg, first_arg) __attribute__((format(printf, format_arg, first_arg)))
#endif

/// What every step writes of a behaviour, for inspectors and debug drawing: the first fields of
/// SteerBehaviourState, under the same names.
typedef struct SteerSlotState {
    SteerVec2 force;
    double kept;
    bool evaluated;
    SteerVec2 target, wander_target;
} SteerSlotState;

/// The rest of SteerBehaviourState: what only a few behaviours write (avoid_obstacles, avoid_walls,
/// follow).
typedef struct SteerSlotDetail {
    double box_length;
    SteerVec2 feelers[3];
    int waypoint;
} SteerSlotDetail;

/// One active behaviour of a vehicle: its definition, what it did last step, and the state it keeps
/// between steps (never in statics: behaviours are pure functions of vehicle, slot and world).
typedef struct SteerBehaviourSlot {
    /* What a step reads and writes comes first and together: the flags, the wander point, what it
     * did (state), then the definition, whose parameters for the common behaviours (flock and
     * its wander, seek, pursue, ...) lie in its first hundred bytes - a flocker's step touches
     * bytes 8 to 176 of its slot, three cache lines where slots start 16 bytes into a line, as
     * glibc places them (the step prefetches them: STEER_SLOT_HOT_BYTES). What few behaviours
     * write (detail) and the roam state come last. */
    bool lost;              ///< its target vehicle, path or field was removed: switched off
    int waypoint;           ///< follow: index of the current waypoint; orca: 1 while pinned (orca.c: standing)
    SteerVec2 wander_local; ///< wander: target on the circle, relative to the circle's centre, vehicle frame
    SteerSlotState state;
    SteerBehaviourDef def;
    SteerSlotDetail detail;
    SteerVec2 noise_offset; ///< wander roam: where this vehicle's noise streams start
    double roam_time;       ///< wander roam: noise time, s·roam_rate
} SteerBehaviourSlot;

/// Bytes at the start of a slot that a plain flocker's step touches (through its wander jitter).
#define STEER_SLOT_HOT_BYTES                                                                                           \
    (offsetof(SteerBehaviourSlot, def) + offsetof(SteerBehaviourDef, flock) +                                          \
     offsetof(SteerFlockParams, wander_params) + offsetof(SteerWanderParams, leash))

/// A slot's state as the public API gives it.
static inline SteerBehaviourState steer_slot_public_state(const SteerBehaviourSlot *slot)
{
    SteerBehaviourState out;
    memset(&out, 0, sizeof out); /* (padding too: a caller may compare states byte for byte) */
    out.force = slot->state.force;
    out.kept = slot->state.kept;
    out.evaluated = slot->state.evaluated;
    out.target = slot->state.target;
    out.wander_target = slot->state.wander_target;
    out.box_length = slot->detail.box_length;
    for (int f = 0; f < 3; f++) out.feelers[f] = slot->detail.feelers[f];
    out.waypoint = slot->detail.waypoint;
    return out;
}

typedef struct SteerVehicle {
    /* A step streams through every byte of the vehicles: what no step reads is kept apart
     * (SteerVehicleCold), and the side is not stored (always the heading turned a quarter:
     * steer_vehicle_side), so that a vehicle is 192 bytes, three cache lines, not 240. */
    /* What the grid copies every step comes first, so that rebuilding it reads two cache lines of
     * each vehicle (64-byte lines): header to heading, then radius to wants_neighbourhood. */
    SteerPoolHeader header; ///< generation, alive flag, free-list link
    uint32_t kind;
    bool wants_neighbourhood; ///< an active behaviour uses the plain neighbourhood (flock, align, ...)
    bool plain_flock;         ///< a flock without a leash, and behaviours that draw nothing (step_flock.c)
    uint8_t step_class;       ///< how a parallel step may treat it: STEER_STEP_* (behaviour.c)
    uint8_t flock_slot;       ///< plain_flock: the index of its flock slot
    SteerVec2 position, velocity, heading;
    double radius, neighbor_radius;
    double view_cos; ///< cos(view_angle / 2), or -2 for all-round vision (no cone test)
    uint64_t flock_kinds;
    /* Then what the step reads for the forces and the integration. */
    double mass, max_speed, max_force, max_turn_rate, response_time;
    SteerCombine combine;
    int behaviour_count;
    /* Active behaviours sorted by (priority, type). Allocated when a behaviour is switched on,
     * never during a step. */
    SteerBehaviourSlot *behaviours;
    SteerVec2 force, spawn;
    int rank; ///< index in world->order (stable until the next compaction)
    /* Reciprocal avoidance (orca.c), kept with the behaviours (steer_vehicle_refresh_group_flags)
     * and copied into the grid's entries, where the others read them: in what was padding. */
    uint8_t avoid_bits;       ///< its orca layer (STEER_AVOID_LAYER bits), | STEER_AVOID_ON when it runs orca
    uint8_t avoid_precedence; ///< orca precedence: of two that avoid each other, the lower gives way
    uint16_t avoid_mask;      ///< the layers it avoids (0 without orca)
} SteerVehicle;

#define STEER_AVOID_LAYER 0x0f ///< SteerVehicle.avoid_bits: the layer
#define STEER_AVOID_ON 0x10    ///< SteerVehicle.avoid_bits: it runs orca
/// SteerVehicle.avoid_bits: its last step found no velocity clear of everyone with a wall or an
/// obstacle in reach - held against it by the others, who give it way this step (orca.c)
#define STEER_AVOID_PINNED 0x20

/// What no step reads of a vehicle, by pool slot beside the vehicles (SteerWorld.vehicle_cold).
typedef struct SteerVehicleCold {
    double view_angle;
    uint64_t serial;
    uint64_t user_data;
    uint32_t color;
    int behaviour_capacity; ///< slots allocated at SteerVehicle.behaviours
} SteerVehicleCold;

typedef struct SteerObstacle {
    SteerPoolHeader header;
    SteerVec2 center;
    double radius;
} SteerObstacle;

typedef struct SteerWall {
    SteerPoolHeader header;
    SteerVec2 a, b, normal;
} SteerWall;

typedef struct SteerPath {
    SteerPoolHeader header;
    SteerVec2 *points;
    int count;
    bool loop;
} SteerPath;

typedef struct SteerFlowField {
    SteerPoolHeader header;
    SteerVec2 origin;
    double cell_size;
    int cols, rows;
    SteerVec2 *vectors;
} SteerFlowField;

/// A parallel task's generator, padded so that no two of them, nor anything else, share a 64-byte
/// cache line (whatever the alignment of the array's start, given the 64 bytes before it).
typedef struct SteerTaskRng {
    SteerPcg32 rng;
    char apart[128 - sizeof(SteerPcg32)];
} SteerTaskRng;

/* ---- Senses (senses.c) --------------------------------------------------------------------- */

/// What a sense remembers of one vehicle (the public SteerMemory, plus the key it is sorted by and
/// the events the sense's last visit made of it). 80 bytes.
typedef struct SteerSenseMemory {
    uint64_t serial; ///< the other's serial: memories are kept in this (creation) order
    SteerVehicleId other;
    SteerVec2 position, velocity;
    uint64_t step;
    double time, distance;
    bool sensed_now;
    uint8_t events; ///< STEER_NOTE_SENSED / STEER_NOTE_LOST: its events of the sense's last visit
    /// sight: the other's rank (world->order) when the sense last checked its memories; while no
    /// vehicle was removed since (SteerSense.removals), ranks are current and in serial order, so
    /// an update matches what it sees with what it remembers by rank, reading no vehicle
    int32_t rank;
} SteerSenseMemory;

/* Bits of SteerSenseMemory.events and SteerSenseNote.events. */
#define STEER_NOTE_SENSED 0x01u ///< a SENSED event (memories only)
#define STEER_NOTE_LOST 0x02u   ///< a LOST event
#define STEER_NOTE_FORGOT 0x04u ///< a FORGOT event (a note's memory was dropped)
#define STEER_NOTE_PUSHED 0x08u ///< dropped by push-out: its FORGOT comes after the others, in push order
#define STEER_NOTE_HEARD 0x10u  ///< a sound heard (hearing notes only; reported when the mask has HEARD)
#define STEER_NOTE_REPORT 0x20u ///< a heard sound that is also an event (the others are kept for drawing)

/// An event of a sense's last visit that no memory carries: a memory it dropped (LOST and FORGOT
/// as the mask asks: it is no longer among the memories), or a sound it heard. 56 bytes.
typedef struct SteerSenseNote {
    uint64_t serial; ///< a dropped memory's: where its LOST and FORGOT come in creation order
    SteerVehicleId other;
    SteerVec2 position;
    double distance;
    double radius; ///< a sound's
    uint32_t tag;  ///< a sound's
    uint8_t events;
} SteerSenseNote;

/// One sense of a vehicle. What a visit of the step reads comes first (two cache lines), the
/// definition as given after it. Memories and notes are arrays of the vehicle's block (senses.c):
/// allocated when the sense is added, so the step never allocates.
typedef struct SteerSense {
    uint8_t type; ///< SteerSenseType
    bool walls_block, obstacles_block;
    uint8_t report; ///< def.events: the events it makes (STEER_EVENT_BIT)
    int max_memories;
    int memory_count;
    int note_count;             ///< notes of the last visit
    int note_split;             ///< notes [0, note_split) are in serial order; the rest come after
    int event_count;            ///< events of the last visit (as the mask allowed)
    uint64_t filter;            ///< sight: def.kinds; hearing: def.tags
    double range, cos_half;     ///< cos_half: cos(fov / 2), -2 for all-round sight (no cone test)
    uint64_t period;            ///< steps between updates at the world's dt (SteerWorld.sense_dt)
    uint64_t forget_steps;      ///< forget_after in whole steps of that dt (steer_sense_forget_steps)
    uint64_t last_update;       ///< step of its last update (hearing hears the sounds after it)
    uint64_t removals;          ///< world->removals when its memories were last checked for removed vehicles
    SteerSenseMemory *memories; ///< max_memories, memory_count of them in use, by serial
    SteerSenseNote *notes;      ///< max_memories (sight) or twice that (hearing: sounds too)
    SteerSenseDef def;          ///< as given (def.name NULL: the name is `name`)
    char name[STEER_MAX_SENSE_NAME + 1];
} SteerSense;

/// Notes a sense can make in one visit: one per memory it held (dropped), and for hearing one per
/// sound it hears (at most max_memories each).
static inline int steer_sense_note_capacity(SteerSenseType type, int max_memories)
{
    return type == STEER_SENSE_HEARING ? 2 * max_memories : max_memories;
}

/// A sight candidate: squared distance, creation rank (ties: the first made), pool slot, offset.
typedef struct SteerSeen {
    double distance_sq;
    int rank, slot;
    int entry; ///< its index in the grid's sorted entries
    SteerVec2 offset;
} SteerSeen;

/// A vehicle's senses and timer, by pool slot (SteerWorld.sensors).
typedef struct SteerSensor {
    SteerSense *senses; ///< sense_count of them, at the start of the vehicle's block (senses.c)
    int sense_count;
    int event_count;    ///< events of the last visit, timer included
    uint64_t wake_step; ///< the step at whose end its timer fires; 0: none
    bool woke;          ///< its timer fired in the last visit
} SteerSensor;

/// A vehicle's block (senses.c): its SteerSense structs, then each one's memories and notes
/// (16-aligned arrays), class_size(size_class) bytes from the senses' chunks.
typedef struct SteerSenseBlock {
    int size_class;
    int unused;
    uint64_t serial; ///< the vehicle's: a visit reads it here rather than from the cold side
    SteerSense senses[];
} SteerSenseBlock;

/// Bytes of the senses' size class c: 8 classes per doubling from 256 (256, 288, ... 480, 512,
/// 576, ...), so that a freed block serves any later one of its class, and at most an eighth is
/// lost to rounding.
static inline size_t steer_sense_class_size(int c) { return (size_t)(8 + c % 8) << (5 + c / 8); }

/// The block a vehicle's senses (SteerSensor.senses) start.
static inline SteerSenseBlock *steer_sense_block_of(const SteerSense *senses)
{
    return (SteerSenseBlock *)(void *)((char *)(uintptr_t)senses - offsetof(SteerSenseBlock, senses));
}

/// A vehicle with senses or a timer as SteerWorld.sensing lists it, with the first step the pass
/// must look at it again: a step visits only the vehicles with an update due, a timer running out
/// or a memory to forget (all three whole steps), and the others cost a read of these 32 bytes,
/// in a dense array. The serial orders the list, and finds an entry (a timer set between steps)
/// reading this array alone; the senses pointer lets a task ask for a vehicle's block ahead of its
/// visit without waiting for its SteerSensor first.
typedef struct SteerSensing {
    uint64_t next_visit; ///< the first step with an update, its timer or a forgetting due (0: the next)
    uint64_t serial;     ///< the vehicle's
    SteerSense *senses;  ///< its SteerSensor's (NULL: a timer only)
    int slot;
} SteerSensing;

/// Steps between updates of a sense of `period` seconds at this dt: max(1, round(period / dt)).
static inline uint64_t steer_sense_period_steps(double period, double dt)
{
    if (period <= 0.0) return 1;
    double steps = floor(period / dt + 0.5);
    if (!(steps < 1e15)) steps = 1e15;
    return steps < 1.0 ? 1 : (uint64_t)steps;
}

/// forget_after in whole steps of dt, n = floor(forget_after / dt) - a quotient within a billionth
/// (relative) below a whole number counts as that number, so that 0.1 s at dt 1/60 is 6 steps
/// whatever the rounding: a memory last sensed at step s is forgotten at the end of step s + n + 1.
static inline uint64_t steer_sense_forget_steps(double forget_after, double dt)
{
    double q = forget_after / dt;
    double n = floor(q + 1e-9 * (1.0 + q));
    if (!(n < 1e15)) n = 1e15;
    return n < 0.0 ? 0 : (uint64_t)n;
}

/// Size classes of the senses' blocks: 8 per doubling from 256 bytes (senses.c).
#define STEER_SENSE_SIZE_CLASSES 160

/// A chunk senses carve their blocks from (senses.c).
typedef struct SteerSenseChunk {
    void *block;
    size_t size;
} SteerSenseChunk;

/// A sound waiting to be heard (SteerWorld.sounds).
typedef struct SteerSound {
    SteerSoundDef def;
    uint64_t step;          ///< the step whose sense pass first hears it (the one after its emission)
    uint64_t source_serial; ///< 0: the world
    SteerVec2 velocity;     ///< the source's velocity when it was emitted
} SteerSound;

struct SteerWorld {
    SteerWorldDef def;
    SteerAllocator alloc; ///< def.alloc, or the default: every block of the world comes from it
    uint16_t tag;         ///< stamped into every id this world makes
    double time;
    uint64_t step_count;
    SteerPcg32 rng;
    uint64_t noise_seed;
    uint64_t next_serial;

    SteerPool vehicles;             ///< of SteerVehicle
    SteerVehicleCold *vehicle_cold; ///< by pool slot, as many as vehicles.capacity
    int vehicle_cold_capacity;
    /* Live vehicle slot indices (0-based) in creation order. A removal leaves a hole (-1) rather
     * than shifting the rest, so it costs O(1) and the ranks the grid holds stay right between
     * steps; the next grid build closes the holes (steer_world_compact_order). */
    int *order;
    int order_count, order_capacity;
    int order_holes;
    /// Live vehicles of each kind: how thinly a kind is spread, for closest's first guess at how
    /// far it must look (queries.c).
    int kind_population[STEER_MAX_KINDS];

    SteerPool obstacles;  ///< of SteerObstacle
    SteerPool walls;      ///< of SteerWall
    SteerPool paths;      ///< of SteerPath
    SteerPool fields;     ///< of SteerFlowField
    struct SteerNav *nav; ///< navigation maps, plans and goal fields (nav_internal.h); NULL until first used

    /* Spatial indexes (grid.h): caches rebuilt when marked stale. Whatever changes what the grid
     * copies of a vehicle, adds or removes one sets grid_stale: the step then rebuilds it. Queries
     * rebuild only when index_stale (the step moved every vehicle): spawns, removals and moves in
     * between are placed into the index as they happen (grid.h). Adding or removing an obstacle
     * sets obstacles_stale. */
    SteerGrid grid;
    bool grid_stale;
    bool index_stale;
    SteerShapeGrid obstacle_grid;
    bool obstacles_stale;
    SteerShapeGrid wall_grid; ///< rebuilt when walls_stale (set by adding or removing a wall)
    bool walls_stale;
    bool wall_grid_off; ///< tests: avoid_walls scans every wall (the reference the grid must match)
    bool hoods_ready;   ///< during a step: grid.hood holds the plain neighbourhoods
    /* Scripts that ask the world between steps need the index of where the step left everyone.
     * The step that follows needs the same build (nothing moved since), so such a world builds it at
     * the end of the step, as part of stepping, rather than in the first query; a world nobody
     * queries keeps building at the start of its step, after whatever spawns came in between. */
    bool queried; ///< a query went through the index since the last step began
    /* Set for good once any behaviour was given a vehicle as its target: only such behaviours read
     * another vehicle itself (rather than the grid's snapshot) while forces are computed. Until
     * then the step may move each vehicle as soon as its force is known (one pass, not two). */
    bool vehicle_targets;
    /* orca.c: the half-planes of the one vehicle an inspector watches (steer_world_watch_orca),
     * kept by the step; NULL until one is watched. Not state: no checksum, no rewind. */
    struct SteerOrcaWatch *orca_watch;
    /* Behaviours lose their target only when a vehicle, path or flow field is removed: each removal
     * bumps target_removals, and a step looks for lost targets (drop_lost_behaviours, a lookup of
     * every target of every behaviour) only when it moved since the last step that did. */
    uint64_t target_removals;
    uint64_t targets_checked; ///< target_removals when the step last looked
    bool flock_plus_off;      ///< tests: a flock with other behaviours takes the general path (the reference)

    /* Threads (thread_pool.h, step_parallel.c). */
    SteerThreadPool *pool; ///< NULL: every step runs on the calling thread
    int parallel_min;      ///< worlds of fewer vehicles step on one thread (tests lower it)
    int prefetch_min;      ///< worlds of fewer vehicles step without asking for vehicles ahead (tests lower it)
    /* During a parallel force phase, task t moves ranks [step_begin[t], step_begin[t + 1]) and
     * draws from step_rng[t]: the world's generator advanced by the draws of every vehicle
     * before its first, so each vehicle gets the numbers a one-thread step would give it. */
    int step_tasks; ///< 0 outside a parallel force phase: draws come from rng
    int step_begin[STEER_MAX_THREADS + 1];
    /* Each task writes its generator at every draw while the others read step_begin and draw
     * from theirs, so a generator shares its cache line with nothing: when one line held them
     * all, every draw waited for the line to come back from the other core. */
    char step_rng_apart[64];
    SteerTaskRng step_rng[STEER_MAX_THREADS];

    /* Senses (senses.c): by pool slot, the senses and timer of each vehicle (sensor_capacity of
     * them, zeroed past the slots that have any); `sensing` lists the slots of the vehicles that
     * have a sense or a timer, in creation order (by serial), so the step visits only those. */
    SteerSensor *sensors;
    int sensor_capacity;
    SteerSensing *sensing;
    int sensing_count, sensing_capacity;
    int *sense_due;      ///< sensing_capacity: the pass's list of the entries it visits (each task a range)
    int *sense_visit;    ///< sensing_capacity: the same entries in the order they are visited (by place)
    int sense_order_min; ///< worlds of fewer vehicles visit in creation order (tests lower it)
    int sight_senses;    ///< sight senses in the world: the step builds the grid after the moves for them
    uint64_t removals;   ///< vehicles removed so far: a sense checks its memories when this moved
    double sense_dt;     ///< dt of the last sense pass: another dt moves every update, so all are visited
    /* Hearing senses by period (seconds), so that a sound is kept as long as the slowest one
     * needs, whatever dt is: `hearing_periods` distinct periods, each with its count. */
    struct SteerHearingPeriod {
        double period;
        int count;
    } * hearing_periods;
    int hearing_period_count, hearing_period_capacity;
    /* Scratch of the pass, one per task (the world's threads): candidates, what an update senses,
     * a merge's output; for senses of up to sense_scratch_max memories. */
    struct SteerSenseScratch *sense_scratch;
    int sense_scratch_tasks, sense_scratch_max;
    /* The senses' own blocks (one per vehicle: its senses, memories and notes), carved from chunks
     * of the world's allocator and reused by size class once freed: a block per sense from malloc
     * would lie between the vehicles' behaviour slots and scatter them over pages (a step 1.4x
     * slower at 10,000). */
    struct SteerSenseChunk *sense_chunks;
    int sense_chunk_count, sense_chunk_capacity;
    char *sense_at;                             ///< the free end of the last chunk
    size_t sense_left;                          ///< bytes left there
    void *sense_free[STEER_SENSE_SIZE_CLASSES]; ///< freed blocks by size class, linked through their first bytes
    SteerSound *sounds; ///< emitted, in emission order, kept until every hearing sense had its update
    int sound_count, sound_capacity;
    /* The last step's events, vehicle by vehicle: event_slots[i] had events event_start[i] ..
     * event_start[i + 1] - 1 of the step (event_vehicles of them; sensing_capacity + 1 each). */
    int *event_slots, *event_start;
    int event_vehicles;
    bool events_dirty; ///< a vehicle's senses changed since: event_start is recounted before a read

    /* The public function being called, set on entry by STEER_ENTRY: steer_fail starts its message
     * with this name, so a C caller reads which call failed. Scratch space, like error. */
    const char *api;
    char error[256];
};

/* What a vehicle's step needs, kept with its behaviours and combine (SteerVehicle.step_class) and
 * copied into the grid's stage, so that a parallel step can plan from the stage alone. */
#define STEER_STEP_DRAWS 0x3f   ///< numbers it draws from the PRNG every step (weighted sum: fixed)
#define STEER_STEP_ENTRIES 0x40 ///< a behaviour of it reads whole grid entries (SteerBehaviourInfo.reads_grid)
#define STEER_STEP_SERIAL                                                                                              \
    0x80 ///< must run in creation order on one thread: how many numbers it draws
         ///< depends on its forces (priority, dither), or its behaviour uses
         ///< the obstacle or wall grid's query scratch

/// Worlds with fewer vehicles step on one thread. With the second core free, 2 threads step a flock
/// faster from 1,000 vehicles up (1.2-1.5x at 1,000-6,000 on 2 cores), but they save at most a few
/// tenths of a millisecond there, while a step whose worker waits for a busy core loses more
/// (1,000-3,000 flockers: 0.5-0.9 ms a step slower than one thread). From here up a step takes a
/// millisecond or more, and what threads save outweighs that.
#define STEER_PARALLEL_MIN_VEHICLES 8192

/* A smaller world's vehicles and slots stay in the caches, and the step's asking for them ahead
 * (forces_range) only costs: 1-2 % of a step at 1,000 and 10,000 vehicles; it pays from about
 * 30,000. */
#define STEER_PREFETCH_MIN_VEHICLES 16384
/// The same for a world with vehicle targets (world.c: forces_range).
#define STEER_PREFETCH_TARGETS_MIN_VEHICLES 2048

/// Worlds of fewer vehicles visit their sensing vehicles in creation order rather than by place
/// (senses.c, place_order): below this their grid stays in the caches.
#define STEER_SENSE_ORDER_MIN_VEHICLES 32768

/// The pool the world's next build and step run on: NULL (one thread) for a small world.
static inline SteerThreadPool *steer_world_step_pool(const SteerWorld *world)
{
    return world->order_count >= world->parallel_min ? world->pool : NULL;
}

/// The generator a behaviour of `vehicle` draws from during a step: the world's, or in a parallel
/// force phase the copy its task owns.
static inline SteerPcg32 *steer_step_rng(SteerWorld *world, const SteerVehicle *vehicle)
{
    if (world->step_tasks == 0) return &world->rng;
    int t = 0;
    while (vehicle->rank >= world->step_begin[t + 1]) t++;
    return &world->step_rng[t].rng;
}

/// One vehicle as a grid entry: its position as the grid stores it (`p`), creation index `rank`,
/// pool slot `slot`. The stage and a gather from the vehicles both fill entries through this.
static inline void steer_grid_entry_fill(SteerGridEntry *e, const SteerVehicle *v, SteerVec2 p, int rank, int slot)
{
    e->x = p.x;
    e->y = p.y;
    e->hx = v->heading.x;
    e->hy = v->heading.y;
    e->vx = v->velocity.x;
    e->vy = v->velocity.y;
    e->radius = v->radius;
    e->neighbor_radius = v->neighbor_radius;
    e->view_cos = v->view_cos;
    e->flock_kinds = v->flock_kinds ? v->flock_kinds : 1ULL << v->kind;
    e->rank = rank;
    e->slot = slot;
    e->kind = (uint8_t)v->kind;
    e->wants = v->wants_neighbourhood;
    e->exact = p.x == v->position.x && p.y == v->position.y;
    e->avoid_bits = v->avoid_bits;
    e->avoid_precedence = v->avoid_precedence;
    e->avoid_mask = v->avoid_mask;
}

/// Copies one vehicle's hot fields into the grid's stage (creation index `rank`, pool `slot`) and
/// widens `b`, the bounds the next build chooses its cells from (the grid's own, or a task's share
/// of them in a parallel step: steer_grid_bounds_merge). The whole entry only if `whole`
/// (SteerGrid.stage_whole); `quick` always.
static inline void steer_grid_stage_into(SteerGrid *g, SteerGridBounds *b, const SteerVehicle *v, int rank, int slot,
                                         bool whole)
{
    if (v->neighbor_radius > b->max_neighbor_radius) b->max_neighbor_radius = v->neighbor_radius;
    b->all_kinds |= 1ULL << v->kind;
    if (v->radius > b->max_radius) b->max_radius = v->radius;
    double speed_sq = steer_length_sq(v->velocity);
    if (speed_sq > b->max_speed_sq) b->max_speed_sq = speed_sq;
    if (v->position.x < b->min_x) b->min_x = v->position.x;
    if (v->position.y < b->min_y) b->min_y = v->position.y;
    if (v->position.x > b->max_x) b->max_x = v->position.x;
    if (v->position.y > b->max_y) b->max_y = v->position.y;
    uint64_t kinds = v->flock_kinds ? v->flock_kinds : 1ULL << v->kind;
    b->common_kinds &= kinds;
    SteerVec2 p = steer_grid_local_point(g, v->position);
    SteerGridQuick *q = &g->quick[rank];
    q->x = p.x;
    q->y = p.y;
    q->hx = (float)v->heading.x;
    q->hy = (float)v->heading.y;
    q->r2 = (float)(v->neighbor_radius * v->neighbor_radius);
    q->wants = v->wants_neighbourhood;
    q->all_round = v->view_cos < -1.0;
    q->step_class = v->step_class;
    if (whole) steer_grid_entry_fill(&g->stage[rank], v, p, rank, slot);
}

/// The shortest offset from a to b (steer_world_offset), inline for the queries' inner loops.
static inline SteerVec2 steer_world_offset_fast(const SteerWorld *world, SteerVec2 a, SteerVec2 b)
{
    SteerVec2 delta = steer_sub(b, a);
    if (world->def.edges == STEER_EDGES_WRAP) {
        delta.x = steer_grid_wrap_delta(delta.x, world->def.width);
        delta.y = steer_grid_wrap_delta(delta.y, world->def.height);
    }
    return delta;
}

/// Something other than the step changed a vehicle the grid copies, or created or removed one:
/// the grid must be rebuilt from the vehicles themselves.
static inline void steer_world_vehicles_changed(SteerWorld *world)
{
    world->grid_stale = true;
    world->grid.staged = false;
}

/* grid.c: keeping the query index right between steps, O(1) each */
/// The vehicle in `slot` is now at its position (just spawned or moved).
void steer_world_index_place(SteerWorld *world, int slot);
/// The vehicle in `slot` is being removed.
void steer_world_index_drop(SteerWorld *world, int slot);
/// The behaviours of the vehicle in `slot` changed (its wants_neighbourhood and step_class are
/// already refreshed): the grid's copies of both follow, without a rebuild.
void steer_world_index_restyle(SteerWorld *world, const SteerVehicle *vehicle, int slot);
/// Closes the holes removals left in world->order and renumbers the ranks (O(N); builds only).
void steer_world_compact_order(SteerWorld *world);

/// Returns early with the result of a failed check.
#define TRY(expr)                                                                                                      \
    do {                                                                                                               \
        SteerResult try_result_ = (expr);                                                                              \
        if (try_result_ != STEER_OK) return try_result_;                                                               \
    } while (0)

/// First statement of every public function that can fail: its name heads the messages of
/// steer_fail ("steer_vehicle_set_mass: mass must be ..."). Never used by anything the step calls,
/// which may run on the pool's threads.
#define STEER_ENTRY(world) (((SteerWorld *)(world))->api = __func__)

/* world.c */
SteerResult steer_fail(const SteerWorld *world, SteerResult code, const char *format, ...) STEER_PRINTF_FORMAT(3, 4);
/// What a message adds when a definition was zeroed instead of taken from its default constructor.
#define STEER_ZEROED_DEF_HINT(what) "was the definition zeroed instead of made by steer_default_" what "_def()?"
/// Adds "; hint" to the message of the failure being returned, `code`: what to do about it.
SteerResult steer_fail_hint(const SteerWorld *world, SteerResult code, const char *hint);
void steer_clear_error(const SteerWorld *world);
/// The limits of steer_types.h, checked at every input. `prefix` starts the message ("" or, say,
/// "wander: "); on failure the world's error names the value and the limit.
/// A finite number in [lo, hi].
SteerResult steer_check_range(const SteerWorld *world, const char *prefix, const char *name, double value, double lo,
                              double hi);
/// A point whose coordinates are finite and within ±STEER_MAX_COORDINATE.
SteerResult steer_check_point(const SteerWorld *world, const char *prefix, const char *name, SteerVec2 point);
/// A vector whose components are finite and within ±limit (velocities, offsets, directions).
SteerResult steer_check_vector(const SteerWorld *world, const char *prefix, const char *name, SteerVec2 value,
                               double limit);
SteerVehicle *steer_vehicle_lookup(const SteerWorld *world, SteerVehicleId id);
/// Why an id (its slot and world tag) that names nothing here does not, for messages: null, of
/// another world, or removed.
static inline const char *steer_why_no_object(const SteerWorld *world, uint32_t index1, uint16_t tag)
{
    if (index1 == 0) return "its id is null";
    if (tag != world->tag) return "its id belongs to another world";
    return "it was removed";
}
/// Fails with why `id` names no vehicle here: null, of another world, or removed.
SteerResult steer_vehicle_invalid_id(const SteerWorld *world, SteerVehicleId id);
/// The pool slot (0-based) a live vehicle occupies. (The pool's items are SteerVehicles: dividing
/// by their size, a constant, is a multiplication - every API call that finds a vehicle's cold
/// part goes through here.)
static inline int steer_vehicle_slot(const SteerWorld *world, const SteerVehicle *vehicle)
{
    return (int)(vehicle - (const SteerVehicle *)(const void *)world->vehicles.items);
}
/// The part of a vehicle the step never reads.
static inline SteerVehicleCold *steer_vehicle_cold(const SteerWorld *world, const SteerVehicle *vehicle)
{
    return &world->vehicle_cold[steer_vehicle_slot(world, vehicle)];
}
/// The vehicle's side: its heading turned +90 degrees (exact: a swap and a sign).
static inline SteerVec2 steer_vehicle_side(const SteerVehicle *vehicle) { return steer_perp(vehicle->heading); }

/* senses.c */
/// The sense pass of the step: after the moves, with step_count and time of the step just made.
void steer_senses_step(SteerWorld *world);
/// The vehicle in `slot` is being removed: its senses and timer go (others' memories of it are
/// dropped at their next update or step, with a FORGOT event).
void steer_senses_vehicle_removed(SteerWorld *world, int slot);
void steer_senses_free(SteerWorld *world);
/// Whether a sight line from a to a + d is clear (the test steer_world_line_of_sight makes).
bool steer_sight_clear(const SteerWorld *world, SteerVec2 a, SteerVec2 d, bool walls, bool obstacles);

/* check.c */
/// Tests and fuzzing: checks every invariant of a world (each vehicle field finite and within the
/// limits, every id and rank valid, order, pools and grid consistent). Returns false and says
/// what failed in `why` (may be NULL) at the first broken one.
bool steer_world_check_state(const SteerWorld *world, char *why, size_t why_size);

/* behaviour.c */
void steer_vehicle_free_behaviours(SteerWorld *world, SteerVehicle *vehicle);
/// Recomputes wants_neighbourhood after the vehicle's behaviours changed.
void steer_vehicle_refresh_group_flags(SteerVehicle *vehicle);
/// True when the slot's target vehicle / path / field no longer exists.
bool steer_slot_target_lost(const SteerWorld *world, const SteerBehaviourSlot *slot);

/* behaviours_*.c: each computes one behaviour's unweighted force (mass·units/s²) */
SteerVec2 steer_behaviour_force(SteerWorld *world, SteerVehicle *vehicle, SteerBehaviourSlot *slot);

/* step_flock.c: vehicles whose behaviours are a plain flock under the weighted sum, with perhaps
 * others beside it that draw no random numbers (prey that evade, pursuers that flock), get their
 * flock's force straight from their packed neighbourhoods, in batches - the same result and
 * inspector state as steer_combine_forces. */
#define STEER_FLOCK_BATCH 8
/// Whether the vehicle goes through step_flock.c this step. Inline: asked of every vehicle, and
/// the decision reads no slot (plain_flock is kept with the behaviours:
/// steer_vehicle_refresh_group_flags), so the first look at a flocker's slot comes in its batch.
/// A vehicle with other behaviours takes the general path in a step that must look for lost
/// targets first (world.c: drop_lost_behaviours).
static inline bool steer_flock_step_eligible(const SteerWorld *world, const SteerVehicle *vehicle)
{
    return vehicle->plain_flock && vehicle->combine == STEER_COMBINE_WEIGHTED && world->hoods_ready &&
           vehicle->wants_neighbourhood &&
           (vehicle->behaviour_count == 1 ||
            (world->target_removals == world->targets_checked && !world->flock_plus_off));
}
/// Sets vehicle->force of `count` (<= STEER_FLOCK_BATCH) eligible vehicles, given in creation order
/// with their indices in it (`ranks`).
void steer_flock_step_forces(SteerWorld *world, SteerVehicle *const *vehicles, const int *ranks, int count);

/* orca.c: reciprocal velocity avoidance, a post-process of the step's velocity */
/// Sets avoid_bits, avoid_precedence and avoid_mask from the vehicle's orca behaviour (none: zeroes).
void steer_orca_refresh(SteerVehicle *vehicle);
/// Whether the vehicle runs orca this step (its behaviour switched on and not lost).
static inline bool steer_orca_on(const SteerVehicle *vehicle) { return (vehicle->avoid_bits & STEER_AVOID_ON) != 0; }
/// The velocity the step gives a vehicle that runs orca, from `preferred` (what its combined force
/// would give): the nearest safe one, reached under max_force. Sets its force to match and records
/// what it did in its orca slot.
SteerVec2 steer_orca_velocity(const SteerWorld *world, SteerVehicle *vehicle, SteerVec2 preferred);
/// Its new heading, given its new velocity (the orca option heading_smoothing).
SteerVec2 steer_orca_heading(const SteerVehicle *vehicle, SteerVec2 velocity, double dt);
/// Frees what steer_world_watch_orca allocated (steer_world_destroy).
void steer_orca_watch_free(SteerWorld *world);
typedef struct SteerOrcaWatch SteerOrcaWatch;
/// The half-planes the last step kept for `vehicle` (the watched one), or NULL (debug_draw.c).
const SteerOrcaWatch *steer_orca_watched(const SteerWorld *world, const SteerVehicle *vehicle);
int steer_orca_watch_count(const SteerOrcaWatch *watch);
/// Half-plane i: velocities v with (v - point)·normal >= 0; its SteerOrcaBound kind; whether the
/// velocity ended on it; the vehicle's max_speed.
bool steer_orca_watch_line(const SteerOrcaWatch *watch, int i, SteerVec2 *point, SteerVec2 *normal, int *kind,
                           bool *bound, double *limit);

/* combine.c: the vehicle's combined, truncated force for this step */
SteerVec2 steer_combine_forces(SteerWorld *world, SteerVehicle *vehicle);

/// Position and velocity a target stands for, as seen from `from` (wrapped offsets applied), or
/// false when it names a vehicle that no longer exists.
bool steer_resolve_target(const SteerWorld *world, SteerVec2 from, SteerTarget target, SteerVec2 *position,
                          SteerVec2 *velocity);

#endif
