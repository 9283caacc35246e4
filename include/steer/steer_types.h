/* SPDX-License-Identifier: MIT */
/* steer_types.h - ids, enums and definition structs of the steer core's public API.
 *
 * Units, once for all: positions in units (1 unit = 1 pixel at zoom 1, y points down), velocities
 * in units/s, forces in mass·units/s², angles in radians, times in seconds.
 */
#ifndef STEER_TYPES_H
#define STEER_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "steer_math.h"

/* ---- Limits -------------------------------------------------------------------------------- */

/* Every number the core accepts is finite and within these limits (inclusive); anything beyond is
 * refused with STEER_ERROR_INVALID_ARGUMENT and a message naming the value and the limit. They are
 * chosen so that everything the step computes stays finite: differences of coordinates are at most
 * 2e9, their squares 4e18; the largest force asked for is about weight·mass·speed/response_time =
 * 1e6·1e6·1e6/1e-6 per behaviour; quotients never have a divisor below STEER_MIN_POSITIVE. The step
 * keeps positions within STEER_MAX_COORDINATE too: in an unbounded world a vehicle that reaches it
 * stops there, as at a wall. */
#define STEER_MAX_COORDINATE                                                                                           \
    1e9 ///< |x|, |y| of every point: positions, targets, anchors, centres, wall ends, path points, origins
#define STEER_MAX_LENGTH                                                                                               \
    1e9 ///< every length: world size, radii, behaviour distances, offsets, cell sizes, query radii, jitter (units/s)
#define STEER_MAX_SPEED                                                                                                \
    1e6 ///< max_speed and each velocity component, units/s (velocities are also truncated to max_speed)
#define STEER_MAX_FORCE 1e12 ///< max_force, mass·units/s²
#define STEER_MAX_MASS 1e6
#define STEER_MAX_TIME 1e6   ///< response_time, lookahead, horizon, s
#define STEER_MAX_RATE 1e6   ///< max_turn_rate (radians/s), roam_rate (1/s)
#define STEER_MAX_WEIGHT 1e6 ///< weights: behaviour weight, flock parts, follow_leader separation, comfort_multiplier
/// Smallest value of every quantity that must be positive: mass, max_speed, max_force,
/// response_time, dt, world width and height, cell_size, return_radius, detection_length,
/// feeler_length, margin, horizon, an obstacle's radius. A denormal divisor would overflow.
#define STEER_MIN_POSITIVE 1e-6

/* ---- Results ------------------------------------------------------------------------------- */

/// What a fallible call returned. On anything but STEER_OK the world is unchanged and
/// steer_world_last_error() holds a message naming the function, the argument and what was
/// expected.
typedef enum SteerResult {
    STEER_OK = 0,
    STEER_ERROR_INVALID_ARGUMENT, ///< a NaN/inf, out-of-range or missing value
    STEER_ERROR_INVALID_ID,       ///< a null id, an id of another world, or of a removed object
    STEER_ERROR_OUT_OF_MEMORY,
} SteerResult;

/* ---- Ids ----------------------------------------------------------------------------------- */

/* Ids are small values, never pointers: a 1-based slot index (so a zeroed id is the null id), a
 * tag of the world that made it, and the slot's generation, which grows each time the slot is
 * reused. An id whose generation no longer matches names a removed object and is refused. */
#define STEER_DECLARE_ID(Name)                                                                                         \
    typedef struct Name {                                                                                              \
        uint32_t index1;                                                                                               \
        uint16_t world;                                                                                                \
        uint16_t generation;                                                                                           \
    } Name

STEER_DECLARE_ID(SteerVehicleId);
STEER_DECLARE_ID(SteerObstacleId);
STEER_DECLARE_ID(SteerWallId);
STEER_DECLARE_ID(SteerPathId);
STEER_DECLARE_ID(SteerFlowFieldId);

/// The null id of any type, as an initializer (`SteerVehicleId id = STEER_NULL_ID;`); in an
/// expression, steer_vehicle_id_unpack(0) and its kin give it.
#define STEER_NULL_ID                                                                                                  \
    {                                                                                                                  \
        0, 0, 0                                                                                                        \
    }

/* ---- World --------------------------------------------------------------------------------- */

/// What happens at the world's bounds [0, width] x [0, height].
typedef enum SteerEdges {
    STEER_EDGES_NONE = 0, ///< unbounded: the bounds are only a hint for drawing and containment
    STEER_EDGES_WRAP,     ///< torus: leaving one side enters the other; distances are the shortest wrapped ones
    STEER_EDGES_CONTAIN,  ///< positions are clamped inside and the outward velocity is removed
} SteerEdges;

/// Where a world gets its memory, with lua_Alloc's signature and contract: `block` of `old_size`
/// bytes (NULL and 0 for a new one) becomes `new_size` bytes, or is freed when new_size is 0
/// (returning NULL); NULL when memory runs out, the block then untouched; shrinking never fails.
typedef void *(*SteerAllocFn)(void *user, void *block, size_t old_size, size_t new_size);

/// A job system's side of a step (Box2D v3's enqueueTask/finishTask): steer hands it a task of
/// `item_count` items (one per worker of SteerWorldDef.threads) to run as task(start, end,
/// worker_index, task_context) over ranges [start, end) of at least `min_range` items that cover
/// [0, item_count) once each, on any threads, in any order, at once or later. worker_index is
/// the job system's to give (steer's results do not depend on it). It returns a handle for
/// finish_task, or NULL when every item has already run (finish_task is then not called).
typedef void (*SteerTaskCallback)(int start, int end, uint32_t worker_index, void *task_context);
typedef void *(*SteerEnqueueTaskFn)(SteerTaskCallback task, int item_count, int min_range, void *task_context,
                                    void *user_context);
/// Returns once every item of the task enqueue_task returned `user_task` for has run.
typedef void (*SteerFinishTaskFn)(void *user_task, void *user_context);

typedef struct SteerWorldDef {
    double width, height; ///< units, > 0
    SteerEdges edges;
    double dt;     ///< fixed physics step, s (> 0, at most 1)
    uint64_t seed; ///< seeds the world's PRNG: same seed, same calls, same bits
    /// Threads a step runs on (the caller's included), 1 to 64; 0 counts as 1. The result is the
    /// same bits for every count; small worlds step on one thread whatever the count. With
    /// enqueue_task: how many items (parallel ranges) each task has, your job system's workers.
    int threads;
    /// Every allocation of the world and of what it holds goes through `alloc(alloc_user, ...)`;
    /// NULL (the default) uses realloc and free. A call that cannot get memory returns
    /// STEER_ERROR_OUT_OF_MEMORY and changes nothing.
    SteerAllocFn alloc;
    void *alloc_user;
    /// Your job system instead of the world's own threads: set both (or neither) and the world
    /// starts no thread; a step of `threads` >= 2 hands its parallel passes to enqueue_task and
    /// waits in finish_task, each call given `user_task_context`. The same bits as the world's
    /// own threads, whatever order the job system runs the ranges in.
    SteerEnqueueTaskFn enqueue_task;
    SteerFinishTaskFn finish_task;
    void *user_task_context;
} SteerWorldDef;

/* ---- Vehicles ------------------------------------------------------------------------------ */

/// How a vehicle combines the forces of its active behaviours.
typedef enum SteerCombine {
    STEER_COMBINE_WEIGHTED = 0, ///< weighted sum, truncated to max_force
    STEER_COMBINE_PRIORITY, ///< prioritised weighted running sum: smaller priority first, until max_force is used up
    STEER_COMBINE_DITHER,   ///< prioritised dithering: each behaviour is tried with its probability; the first non-zero
                            ///< wins
} SteerCombine;

typedef struct SteerVehicleDef {
    SteerVec2 position;     ///< units
    SteerVec2 velocity;     ///< units/s
    double heading;         ///< radians; used when velocity is zero, else the velocity's direction wins
    double mass;            ///< > 0
    double max_speed;       ///< units/s, > 0
    double max_force;       ///< mass·units/s², > 0
    double max_turn_rate;   ///< radians/s, 0 = unlimited
    double radius;          ///< bounding radius, units, >= 0
    double response_time;   ///< s, > 0: velocity-matching behaviours ask for mass·(desired - velocity)/response_time
    double neighbor_radius; ///< units, >= 0: how far group behaviours look for neighbours
    double view_angle;    ///< radians in (0, 2π]: full width of the cone around the heading where neighbours are seen
    uint64_t flock_kinds; ///< bit k set = group behaviours consider kind k; 0 = only the vehicle's own kind
    uint32_t kind;        ///< small integer < 64 the caller gives meaning to (e.g. an interned name)
    uint32_t color;       ///< a word the core stores for the caller (e.g. 0xRRGGBBAA) and never reads
    uint64_t user_data;   ///< another word for the caller
    SteerCombine combine;
} SteerVehicleDef;

#define STEER_MAX_KINDS 64
/// orca's max_neighbors at most
#define STEER_ORCA_MAX_NEIGHBORS 64

/// A snapshot of one vehicle, filled by steer_vehicle_get().
typedef struct SteerVehicleState {
    uint64_t serial; ///< never reused within a world: creation order
    SteerVec2 position, velocity;
    SteerVec2 heading; ///< unit vector
    SteerVec2 side;    ///< heading rotated +90°
    double speed;
    SteerVec2 force; ///< combined force applied last step (after truncation)
    SteerVec2 spawn; ///< where it was created: the default leash anchor
    double mass, max_speed, max_force, max_turn_rate, radius, response_time;
    double neighbor_radius, view_angle;
    uint64_t flock_kinds;
    uint32_t kind, color;
    uint64_t user_data;
    SteerCombine combine;
    int behaviour_count;
} SteerVehicleState;

/* ---- Behaviours ---------------------------------------------------------------------------- */

/// One name per behaviour; steer_behaviour_name() gives the snake_case spelling.
typedef enum SteerBehaviour {
    STEER_SEEK = 0,
    STEER_FLEE,
    STEER_ARRIVE,
    STEER_PURSUE,
    STEER_EVADE,
    STEER_OFFSET_PURSUE,
    STEER_INTERPOSE,
    STEER_HIDE,
    STEER_WANDER,
    STEER_FOLLOW,
    STEER_AVOID_OBSTACLES,
    STEER_AVOID_WALLS,
    STEER_CONTAIN,
    STEER_FOLLOW_FLOW,
    STEER_SEPARATE,
    STEER_ALIGN,
    STEER_COHERE,
    STEER_FLOCK,
    STEER_FOLLOW_LEADER,
    STEER_QUEUE,
    STEER_AVOID_COLLISIONS,
    STEER_NAVIGATE,
    STEER_ORCA,
    STEER_BEHAVIOUR_COUNT
} SteerBehaviour;

typedef enum SteerTargetKind {
    STEER_TARGET_NONE = 0,
    STEER_TARGET_POINT,
    STEER_TARGET_VEHICLE,
} SteerTargetKind;

/// A point or another vehicle. A behaviour whose target vehicle is removed switches itself off.
typedef struct SteerTarget {
    SteerTargetKind kind;
    SteerVec2 point;
    SteerVehicleId vehicle;
} SteerTarget;

static inline SteerTarget steer_target_point(double x, double y)
{
    SteerTarget t = {STEER_TARGET_POINT, {x, y}, STEER_NULL_ID};
    return t;
}

static inline SteerTarget steer_target_vehicle(SteerVehicleId id)
{
    SteerTarget t = {STEER_TARGET_VEHICLE, {0.0, 0.0}, id};
    return t;
}

/// How wander keeps a vehicle near an anchor (two methods: pulled back toward it, or roaming around it).
typedef enum SteerLeash {
    STEER_LEASH_NONE = 0,
    STEER_LEASH_PULL, ///< method 1: a pull toward the anchor that grows past return_radius
    STEER_LEASH_ROAM, ///< method 2: seek a noise-driven point that roams within max_distance of the anchor
} SteerLeash;

typedef struct SteerSeekParams {
    SteerTarget target;
} SteerSeekParams;
typedef struct SteerFleeParams {
    SteerTarget target;
    double panic_distance; ///< units; 0 = always flee
} SteerFleeParams;
typedef struct SteerArriveParams {
    SteerTarget target;
    double slowing_radius; ///< units; inside it the desired speed falls linearly to 0 at the target
} SteerArriveParams;
typedef struct SteerPursueParams {
    SteerTarget target;
} SteerPursueParams; ///< target must be a vehicle
typedef struct SteerEvadeParams {
    SteerTarget target;  ///< a vehicle
    double threat_range; ///< units; 0 = always evade
} SteerEvadeParams;
typedef struct SteerOffsetPursueParams {
    SteerTarget target;    ///< the leader, a vehicle
    SteerVec2 offset;      ///< in the leader's frame: x ahead, y to its side (units)
    double slowing_radius; ///< units
} SteerOffsetPursueParams;
typedef struct SteerInterposeParams {
    SteerTarget a, b;      ///< vehicles or points; the vehicle places itself midway
    double slowing_radius; ///< units
} SteerInterposeParams;
typedef struct SteerHideParams {
    SteerTarget target;    ///< the hunter (vehicle or point)
    double distance;       ///< units kept between the obstacle's edge and the hiding spot
    double slowing_radius; ///< units
} SteerHideParams;
typedef struct SteerWanderParams {
    double radius;   ///< units, radius of the wander circle
    double distance; ///< units, how far ahead the circle's centre is projected
    double jitter;   ///< units/s: the target moves by at most jitter·dt per axis each step
    SteerLeash leash;
    bool has_anchor; ///< false: the vehicle's spawn point is the anchor
    SteerVec2 anchor;
    double return_radius; ///< units (pull): no pull inside, full pull at twice this
    double max_distance;  ///< units (roam): how far the roaming point may get from the anchor
    double roam_rate;     ///< 1/s (roam): how quickly the roaming point moves
} SteerWanderParams;
typedef struct SteerFollowParams {
    SteerPathId path;
    double waypoint_radius; ///< units: a waypoint counts as reached within this distance
    double slowing_radius;  ///< units: arrive at the end of an open path
} SteerFollowParams;
typedef struct SteerAvoidObstaclesParams {
    double detection_length; ///< units: the detection box is this long at rest, twice as long at max_speed
    double braking;          ///< 0..1: weight of the braking part against the lateral part
} SteerAvoidObstaclesParams;
typedef struct SteerAvoidWallsParams {
    double feeler_length; ///< units: the front feeler; the two side feelers are half as long
} SteerAvoidWallsParams;
typedef struct SteerContainParams {
    double margin; ///< units: steering back starts this far inside the bounds
} SteerContainParams;
typedef struct SteerFollowFlowParams {
    SteerFlowFieldId field;
    double lookahead; ///< s: the field is sampled at position + velocity·lookahead
} SteerFollowFlowParams;
typedef struct SteerSeparateParams {
    double comfort_distance;   ///< units: neighbours closer than this push harder
    double comfort_multiplier; ///< how much harder (>= 1)
} SteerSeparateParams;
typedef struct SteerAlignParams {
    double unused;
} SteerAlignParams;
typedef struct SteerCohereParams {
    double unused;
} SteerCohereParams;
typedef struct SteerFlockParams {
    double separation, alignment, cohesion, wander; ///< weights of the four parts
    SteerWanderParams wander_params;
} SteerFlockParams;
typedef struct SteerFollowLeaderParams {
    SteerTarget target;    ///< the leader, a vehicle
    double behind;         ///< units behind the leader to arrive at
    double sight_radius;   ///< units: within this of the point ahead of the leader, get out of its way
    double slowing_radius; ///< units
    double separation;     ///< weight of keeping apart from the other followers (its neighbours), >= 0
} SteerFollowLeaderParams;
typedef struct SteerQueueParams {
    double ahead;   ///< units: how far ahead to look for someone to queue behind
    double radius;  ///< units: how close to that point someone must be
    double braking; ///< 0..1: fraction of the velocity removed per step when someone slower is ahead
} SteerQueueParams;
typedef struct SteerAvoidCollisionsParams {
    double horizon; ///< s: how far ahead closest approaches are predicted
} SteerAvoidCollisionsParams;
typedef struct SteerNavigateParams {
    SteerTarget target;     ///< a point or a vehicle to reach around the walls and obstacles (steer_nav.h)
    double radius;          ///< units: clearance kept from walls, obstacles and bounds; 0 = the vehicle's radius
    double cell_size;       ///< units >= 1: the navigation map's grid
    double waypoint_radius; ///< units: a corner of the path counts as passed within this distance
    double slowing_radius;  ///< units: arrive at the end of the path
    double replan_distance; ///< units: a target this far from where the path ends is planned for again
} SteerNavigateParams;
/// Reciprocal velocity avoidance (ORCA): not a force but a post-process of the step. The combined
/// force of the other behaviours gives the preferred velocity; the step then takes the velocity
/// nearest to it that collides with no vehicle within `horizon` and no obstacle or wall within
/// `obstacle_horizon`, within max_speed, reached under max_force (docs/core.md: Crowds).
typedef struct SteerOrcaParams {
    double horizon;           ///< s: vehicles are avoided this far ahead (> 0)
    double obstacle_horizon;  ///< s: obstacle circles and walls are avoided this far ahead (> 0)
    int max_neighbors;        ///< 1..64: the nearest this many vehicles within range (ties: the older first)
    double range;             ///< units: how far it looks for vehicles; 0: its neighbor_radius
    int layer;                ///< 0..15: the layer it is in (a vehicle without orca is in layer 0)
    int avoids;               ///< 0..65535: bit mask of the layers whose vehicles it avoids (all: 65535)
    int precedence;           ///< 0..255: of two that avoid each other, the lower gives way alone
    double heading_smoothing; ///< s: how slowly its heading follows its velocity; 0: at once
} SteerOrcaParams;

/// What bound a vehicle's orca velocity in the last step (steer_vehicle_orca_constraint): the
/// half-plane its velocity ended on, or none.
typedef enum SteerOrcaBound {
    STEER_ORCA_FREE = 0, ///< it took its preferred velocity: nothing in the way
    STEER_ORCA_SPEED,    ///< only max_speed: its preferred velocity was faster
    STEER_ORCA_VEHICLE,  ///< another vehicle (SteerOrcaConstraint.vehicle): it gives way to it
    STEER_ORCA_OBSTACLE, ///< an obstacle circle (.obstacle)
    STEER_ORCA_WALL,     ///< a wall (.wall)
    STEER_ORCA_CROWDED,  ///< no velocity kept clear of everyone: the one least in the way was taken
} SteerOrcaBound;

/// steer_vehicle_orca_constraint's answer: the bound and what it came from (the other ids null).
typedef struct SteerOrcaConstraint {
    SteerOrcaBound bound;
    SteerVehicleId vehicle;
    SteerObstacleId obstacle;
    SteerWallId wall;
} SteerOrcaConstraint;

/// One behaviour with its parameters. Get one from steer_default_behaviour_def(type), change what
/// you need, and pass it to steer_vehicle_set_behaviour().
typedef struct SteerBehaviourDef {
    SteerBehaviour type;
    double weight;      ///< multiplies the behaviour's force, >= 0
    int priority;       ///< priority/dither combination: smaller is considered first
    double probability; ///< dither combination: chance, in [0, 1], that the behaviour is evaluated
    union {
        SteerSeekParams seek;
        SteerFleeParams flee;
        SteerArriveParams arrive;
        SteerPursueParams pursue;
        SteerEvadeParams evade;
        SteerOffsetPursueParams offset_pursue;
        SteerInterposeParams interpose;
        SteerHideParams hide;
        SteerWanderParams wander;
        SteerFollowParams follow;
        SteerAvoidObstaclesParams avoid_obstacles;
        SteerAvoidWallsParams avoid_walls;
        SteerContainParams contain;
        SteerFollowFlowParams follow_flow;
        SteerSeparateParams separate;
        SteerAlignParams align;
        SteerCohereParams cohere;
        SteerFlockParams flock;
        SteerFollowLeaderParams follow_leader;
        SteerQueueParams queue;
        SteerAvoidCollisionsParams avoid_collisions;
        SteerNavigateParams navigate;
        SteerOrcaParams orca;
    };
} SteerBehaviourDef;

/// What one behaviour did in the last step: for inspectors and debug drawing. Filled by the step
/// without allocating.
typedef struct SteerBehaviourState {
    SteerVec2 force;         ///< its weighted force (mass·units/s²); zero if it was not evaluated
    double kept;             ///< fraction of that force the combination used, 0..1
    bool evaluated;          ///< false when the combination stopped before reaching it
    SteerVec2 target;        ///< the point it steered for (seek point, predicted position, hiding spot, ...)
    SteerVec2 wander_target; ///< wander: the target on the circle, world coordinates
    double box_length;       ///< avoid_obstacles: detection box length this step; orca: (internal) what bound it
    SteerVec2 feelers[3];    ///< avoid_walls: feeler end points (front, left, right); orca: where its preferred,
                             ///< safe and taken velocities lead in a second
    int waypoint;            ///< follow, navigate: index of the waypoint being steered to; orca: its SteerOrcaBound
                             ///< (steer_vehicle_orca_constraint names what it was)
} SteerBehaviourState;

/* ---- Senses -------------------------------------------------------------------------------- */

/// What a sense perceives (steer.h, "Senses").
typedef enum SteerSenseType {
    STEER_SENSE_SIGHT = 0, ///< other vehicles within range, in a cone around the heading, in line of sight
    STEER_SENSE_HEARING,   ///< sounds emitted between steps (steer_world_emit), not blocked by walls
} SteerSenseType;

#define STEER_MAX_SENSES 16     ///< senses per vehicle
#define STEER_MAX_SENSE_NAME 31 ///< bytes of a sense's name (not counting the terminating zero)
#define STEER_MAX_MEMORIES 1024 ///< SteerSenseDef.max_memories
#define STEER_MAX_SOUND_TAGS 32 ///< sound tags are 0 .. 31 (a hearing sense's `tags` is a mask of them)

/// A sense of a vehicle. Get one from steer_default_sense_def(type), change what you need, and
/// pass it to steer_vehicle_add_sense().
typedef struct SteerSenseDef {
    const char *name; ///< 1..STEER_MAX_SENSE_NAME bytes, unique per vehicle (copied)
    SteerSenseType type;
    /// units, > 0. Sight: a vehicle whose centre is at most this far (shortest wrapped offset) can
    /// be seen. Hearing: a sound is heard when the listener is within the sound's radius and
    /// within this range (the default, STEER_MAX_LENGTH, leaves it to the sound's radius).
    double range;
    /// Sight: full width of the cone around the heading, radians, in (0, 2π]; 2π sees all around.
    /// Ignored by hearing.
    double fov;
    /// Sight: bit k set = vehicles of kind k are seen; 0 = every kind. A vehicle never senses itself.
    uint64_t kinds;
    /// Hearing: bit t set = sounds of tag t are heard; 0 = every tag.
    uint32_t tags;
    bool walls_block;     ///< sight: walls hide what is behind them (default true)
    bool obstacles_block; ///< sight: obstacles hide what is behind them (default true)
    /// s, >= 0: a memory not sensed now is forgotten after this long, in whole steps: with
    /// n = floor(forget_after / dt) (a quotient within a billionth below a whole number counts as
    /// that number: 0.1 s at dt 1/60 is 6 steps), a memory last sensed at step s is forgotten at
    /// the end of step s + n + 1, the first at which more than forget_after has passed.
    double forget_after;
    /// s, >= 0: time between updates; 0 = every step. A sense of period p updates every
    /// n = max(1, round(p / dt)) steps, staggered by the vehicle's serial (step s updates when
    /// (s + serial) mod n == 0), so that a crowd spreads its work over the steps.
    double period;
    /// 1..STEER_MAX_MEMORIES: how many vehicles the sense remembers at once (allocated when the
    /// sense is added, so the step never allocates). Also how many sounds a hearing update hears.
    int max_memories;
    /// The events the sense reports (steer_world_get_sense_events): STEER_EVENT_BIT of each type
    /// wanted among SENSED, LOST, FORGOT and HEARD; default STEER_SENSE_EVENTS_ALL. The others are
    /// not made at all; memories are the same whatever the mask. Changed in place by
    /// steer_vehicle_set_sense_events.
    uint32_t events;
} SteerSenseDef;

/// A SteerSenseEventType's bit in SteerSenseDef.events.
#define STEER_EVENT_BIT(type) (1u << (unsigned)(type))
/// Every event a sense can report: SENSED, LOST, FORGOT and HEARD (TIMER is the vehicle's).
#define STEER_SENSE_EVENTS_ALL 0x0fu

/// What a sense remembers of one vehicle (steer_vehicle_get_memories).
typedef struct SteerMemory {
    SteerVehicleId other; ///< a live vehicle (memories of removed vehicles are never returned)
    SteerVec2 position;   ///< where it was last sensed (hearing: where its sound was), units
    SteerVec2 velocity;   ///< its velocity then, units/s
    uint64_t step;        ///< the step (steer_world_step_count after it) it was last sensed in
    double time;          ///< steer_world_time at that step, s
    double distance;      ///< units from the sensing vehicle when it was last sensed
    bool sensed_now;      ///< sensed at the sense's last update
} SteerMemory;

/// A sound for hearing senses (steer_world_emit).
typedef struct SteerSoundDef {
    SteerVec2 position;    ///< units
    double radius;         ///< units, > 0: how far it carries
    uint32_t tag;          ///< 0 .. STEER_MAX_SOUND_TAGS - 1
    SteerVehicleId source; ///< the vehicle that made it (never hears it itself), or the null id for the world
} SteerSoundDef;

/// What changed for a vehicle in a step (steer_world_get_sense_events).
typedef enum SteerSenseEventType {
    STEER_EVENT_SENSED = 0, ///< `other` is sensed and was not at the sense's previous update
    STEER_EVENT_LOST,       ///< `other` was sensed at the previous update and is not any more (still remembered)
    STEER_EVENT_FORGOT,     ///< the memory of `other` is dropped: expired, pushed out, or `other` was removed
    STEER_EVENT_HEARD,      ///< a sound was heard: position, radius, tag, other = its source (null id: the world)
    STEER_EVENT_TIMER,      ///< the vehicle's timer (steer_vehicle_wake_in) ran out; sense is -1
} SteerSenseEventType;

typedef struct SteerSenseEvent {
    SteerSenseEventType type;
    SteerVehicleId vehicle; ///< the vehicle whose sense (or timer) it is
    int sense;              ///< the sense's index in the vehicle (steer_vehicle_find_sense), -1 for a timer
    /// the vehicle sensed, lost or forgotten (FORGOT of a removed vehicle: its old id, no longer
    /// valid), or a sound's source
    SteerVehicleId other;
    SteerVec2 position; ///< SENSED, LOST: where `other` was last sensed; HEARD: the sound's position
    double distance;    ///< units from the vehicle, at that time
    uint32_t tag;       ///< HEARD: the sound's tag
    double radius;      ///< HEARD: the sound's radius
} SteerSenseEvent;

#endif
