/* SPDX-License-Identifier: MIT */
/* steer.h - the public API of the steer core: a 2D world of vehicles moved by Reynolds-style
 * steering behaviours. Pure C11; no Lua, no SDL, no globals. The rest of the project (bindings,
 * renderer, runtime) uses only this header. The guide is the project's docs/core.md (the model,
 * units, limits, every function by topic); examples/arrive.c and examples/flock_ascii.c are whole
 * programs built against the installed library.
 *
 * Every function that takes a world pointer expects a live world. Every function that takes an id
 * checks it first: an id of a removed object gives STEER_ERROR_INVALID_ID (or false / a zero
 * value for the queries that say so), never a read of another object. Every fallible call leaves
 * the world unchanged on failure and explains why in steer_world_last_error(): the function's name,
 * then what was wrong ("steer_vehicle_set_mass: mass must be a finite number in [1e-06, 1e+06]
 * (got 0)").
 *
 * Out pointers may be NULL when the result is not wanted: a call that lists (ids, points) writes
 * at most `capacity` items into `out` and returns how many there are in all, so NULL (or a capacity
 * of 0) only counts; a get given NULL only checks the id. A world pointer may never be NULL, except
 * in steer_world_destroy. The core keeps no pointer you pass beyond the call (paths and flow
 * fields copy their points and vectors), except SteerWorldDef's alloc and alloc_user.
 */
#ifndef STEER_H
#define STEER_H

#include <stddef.h>

#include "steer_behaviours.h"
#include "steer_export.h"
#include "steer_math.h"
#include "steer_types.h"

/// The version of the library, the Lua module (steer.version), the program (steer --version) and
/// the pkg-config file: the Makefile reads it from here, so this is the one place to change it.
/// The numbers are for `#if`; test_world checks that they spell the string.
#define STEER_VERSION "0.1.0"
#define STEER_VERSION_MAJOR 0
#define STEER_VERSION_MINOR 1
#define STEER_VERSION_PATCH 0

#ifdef __cplusplus
extern "C" {
#endif

typedef struct SteerWorld SteerWorld;

/* ---- World --------------------------------------------------------------------------------- */

/// Defaults: 800 x 600 units, edges none, dt 1/60 s, seed 1, threads 1.
STEER_API SteerWorldDef steer_default_world_def(void);
/// Checks a definition; on failure writes a message (if message is not NULL) and returns the error.
STEER_API SteerResult steer_world_def_check(const SteerWorldDef *def, char *message, size_t message_size);
/// STEER_VERSION as the library was built: compare it with the header's to catch a program that
/// runs against another libsteer.so than the one it was compiled for.
STEER_API const char *steer_version(void);

/// Creates a world, or returns NULL when the definition is invalid (steer_world_def_check() says
/// why) or memory runs out. Start from steer_default_world_def(): a zeroed definition is refused.
STEER_API SteerWorld *steer_world_create(const SteerWorldDef *def);
/// Frees the world and everything in it (NULL: nothing); every id of it is then meaningless.
STEER_API void steer_world_destroy(SteerWorld *world);
/// Advances the simulation by one fixed step of dt seconds. Never allocates once warm.
STEER_API void steer_world_step(SteerWorld *world);
/// The message of the last failed call on this world, "<function>: <what was wrong>" ("" if none
/// failed yet; a call that succeeds leaves it as it was). Owned by the world: valid until its next
/// failed call or its destruction.
STEER_API const char *steer_world_last_error(const SteerWorld *world);

STEER_API double steer_world_time(const SteerWorld *world);         ///< simulated seconds since creation
STEER_API uint64_t steer_world_step_count(const SteerWorld *world); ///< steps taken since creation
STEER_API double steer_world_dt(const SteerWorld *world);           ///< the fixed step, seconds
/// A new fixed step, in seconds: finite, in [STEER_MIN_POSITIVE, 1]; the next step uses it.
STEER_API SteerResult steer_world_set_dt(SteerWorld *world, double dt);
STEER_API double steer_world_width(const SteerWorld *world);  ///< units
STEER_API double steer_world_height(const SteerWorld *world); ///< units
STEER_API SteerEdges steer_world_edges(const SteerWorld *world);

/// Shortest offset from a to b: the wrapped one in a wrapping world.
STEER_API SteerVec2 steer_world_offset(const SteerWorld *world, SteerVec2 a, SteerVec2 b);

/* ---- Checksums (replays compare these instead of every field) ------------------------------ */

/// A 64-bit sum of the whole world state: time, step count, dt, the PRNG's state, the counts of
/// vehicles and shapes, and every vehicle's fields in creation order (each double by its bits, so
/// any changed bit shows), with its behaviours' kept state (wander point, waypoint, roam state)
/// and weights. Equal worlds give equal sums; O(vehicles + behaviours), no allocation.
STEER_API uint64_t steer_world_checksum(const SteerWorld *world);
/// The sum of one vehicle's part of steer_world_checksum (its fields and behaviours' state), to
/// tell which vehicle differs; 0 for an invalid id.
STEER_API uint64_t steer_vehicle_checksum(const SteerWorld *world, SteerVehicleId id);

/* ---- Random numbers (the world's own PCG32; scripts use it to stay deterministic) ---------- */

/// 32 uniform bits. The world's generator is the one wander and dithering draw from in the step, so
/// drawing here changes the steps that follow (the same calls still give the same bits).
STEER_API uint32_t steer_world_random_u32(SteerWorld *world);
/// Uniform in [0, 1), from the same generator.
STEER_API double steer_world_random(SteerWorld *world);
/// Restarts the sequence as if the world had been created with this seed.
STEER_API void steer_world_reseed(SteerWorld *world, uint64_t seed);

/* ---- Ids (the same four helpers for every id type) ---------------------------------------- */

/// pack: the id in 64 bits (for scripting languages and hash keys; the null id packs to 0), and
/// unpack back. is_null: the zeroed id (STEER_NULL_ID), which names nothing. equal: the same
/// object, generation included (an id of a removed object never equals one of its slot's reuse).
/// None of them looks at a world: a valid id is told by steer_vehicle_is_valid, steer_obstacle_get, ...
STEER_API uint64_t steer_vehicle_id_pack(SteerVehicleId id);
STEER_API SteerVehicleId steer_vehicle_id_unpack(uint64_t packed);
STEER_API bool steer_vehicle_id_is_null(SteerVehicleId id);
STEER_API bool steer_vehicle_id_equal(SteerVehicleId a, SteerVehicleId b);

STEER_API uint64_t steer_obstacle_id_pack(SteerObstacleId id);
STEER_API SteerObstacleId steer_obstacle_id_unpack(uint64_t packed);
STEER_API bool steer_obstacle_id_is_null(SteerObstacleId id);
STEER_API bool steer_obstacle_id_equal(SteerObstacleId a, SteerObstacleId b);

STEER_API uint64_t steer_wall_id_pack(SteerWallId id);
STEER_API SteerWallId steer_wall_id_unpack(uint64_t packed);
STEER_API bool steer_wall_id_is_null(SteerWallId id);
STEER_API bool steer_wall_id_equal(SteerWallId a, SteerWallId b);

STEER_API uint64_t steer_path_id_pack(SteerPathId id);
STEER_API SteerPathId steer_path_id_unpack(uint64_t packed);
STEER_API bool steer_path_id_is_null(SteerPathId id);
STEER_API bool steer_path_id_equal(SteerPathId a, SteerPathId b);

STEER_API uint64_t steer_flow_field_id_pack(SteerFlowFieldId id);
STEER_API SteerFlowFieldId steer_flow_field_id_unpack(uint64_t packed);
STEER_API bool steer_flow_field_id_is_null(SteerFlowFieldId id);
STEER_API bool steer_flow_field_id_equal(SteerFlowFieldId a, SteerFlowFieldId b);

/* ---- Vehicles ------------------------------------------------------------------------------ */

/// Defaults: at the origin, at rest, heading 0, mass 1, max_speed 100, max_force 300, no turn
/// limit, radius 8, response_time 0.25, neighbor_radius 50, view_angle 2π, kind 0, weighted sum.
STEER_API SteerVehicleDef steer_default_vehicle_def(void);
/// Adds a vehicle made from `def` (start from steer_default_vehicle_def()) and writes its id to
/// `out`.
STEER_API SteerResult steer_vehicle_create(SteerWorld *world, const SteerVehicleDef *def, SteerVehicleId *out);
/// Removes a vehicle. Behaviours of other vehicles that target it switch themselves off.
STEER_API SteerResult steer_vehicle_destroy(SteerWorld *world, SteerVehicleId id);
/// Takes back the vehicle the last steer_vehicle_create made, as if it had never been made (its
/// serial is handed out again): for a binding whose own half of a spawn ran out of memory after the
/// core's. STEER_ERROR_INVALID_ID for any other vehicle.
STEER_API SteerResult steer_vehicle_create_undo(SteerWorld *world, SteerVehicleId id);
STEER_API bool steer_vehicle_is_valid(const SteerWorld *world, SteerVehicleId id);
/// The vehicle's serial (SteerVehicleState.serial, never reused within a world), or 0 for an
/// invalid id: a validity check and an identity check in one cheap call, for handles that must
/// tell their vehicle from a later one in a reused slot.
STEER_API uint64_t steer_vehicle_serial(const SteerWorld *world, SteerVehicleId id);
/// A snapshot of the vehicle: every field, its speed and the force it applied last step.
STEER_API SteerResult steer_vehicle_get(const SteerWorld *world, SteerVehicleId id, SteerVehicleState *out);
STEER_API int steer_world_vehicle_count(const SteerWorld *world);
/// Writes up to `capacity` ids in creation order and returns how many vehicles there are.
STEER_API int steer_world_get_vehicles(const SteerWorld *world, SteerVehicleId *out, int capacity);

/// Shorthands of steer_vehicle_get for the common reads; zero for an invalid id.
STEER_API SteerVec2 steer_vehicle_position(const SteerWorld *world, SteerVehicleId id);
STEER_API SteerVec2 steer_vehicle_velocity(const SteerWorld *world, SteerVehicleId id);
STEER_API SteerVec2 steer_vehicle_heading(const SteerWorld *world, SteerVehicleId id);
STEER_API uint32_t steer_vehicle_kind(const SteerWorld *world, SteerVehicleId id);

/// Setters take the unit and range of the SteerVehicleDef field of the same name (steer_types.h)
/// and change nothing when the value is outside it (STEER_ERROR_INVALID_ARGUMENT) or the id names
/// no vehicle (STEER_ERROR_INVALID_ID). They take effect at once: queries see the new value.
STEER_API SteerResult steer_vehicle_set_position(SteerWorld *world, SteerVehicleId id, SteerVec2 position);
/// Also turns the heading to the velocity's direction when it is not zero.
STEER_API SteerResult steer_vehicle_set_velocity(SteerWorld *world, SteerVehicleId id, SteerVec2 velocity);
/// Any finite angle; a moving vehicle's velocity turns with its heading.
STEER_API SteerResult steer_vehicle_set_heading(SteerWorld *world, SteerVehicleId id, double radians);
STEER_API SteerResult steer_vehicle_set_mass(SteerWorld *world, SteerVehicleId id, double mass);
/// Also truncates the current velocity to the new limit.
STEER_API SteerResult steer_vehicle_set_max_speed(SteerWorld *world, SteerVehicleId id, double max_speed);
STEER_API SteerResult steer_vehicle_set_max_force(SteerWorld *world, SteerVehicleId id, double max_force);
STEER_API SteerResult steer_vehicle_set_max_turn_rate(SteerWorld *world, SteerVehicleId id, double radians_per_s);
STEER_API SteerResult steer_vehicle_set_radius(SteerWorld *world, SteerVehicleId id, double radius);
STEER_API SteerResult steer_vehicle_set_response_time(SteerWorld *world, SteerVehicleId id, double seconds);
STEER_API SteerResult steer_vehicle_set_neighbor_radius(SteerWorld *world, SteerVehicleId id, double radius);
STEER_API SteerResult steer_vehicle_set_view_angle(SteerWorld *world, SteerVehicleId id, double radians);
STEER_API SteerResult steer_vehicle_set_flock_kinds(SteerWorld *world, SteerVehicleId id, uint64_t kinds);
STEER_API SteerResult steer_vehicle_set_kind(SteerWorld *world, SteerVehicleId id, uint32_t kind);
STEER_API SteerResult steer_vehicle_set_color(SteerWorld *world, SteerVehicleId id, uint32_t color);
STEER_API SteerResult steer_vehicle_set_user_data(SteerWorld *world, SteerVehicleId id, uint64_t user_data);
STEER_API SteerResult steer_vehicle_set_combine(SteerWorld *world, SteerVehicleId id, SteerCombine combine);

/* ---- Behaviours ---------------------------------------------------------------------------- */

/// "seek", "flee", ... (the names scripts use); NULL for an out-of-range value.
STEER_API const char *steer_behaviour_name(SteerBehaviour type);
/// Looks a name up; returns false when it is unknown.
STEER_API bool steer_behaviour_from_name(const char *name, SteerBehaviour *out);
/// The documented defaults of one behaviour: weight 1, its default priority and probability, and
/// its parameters (targets are left empty: set them).
STEER_API SteerBehaviourDef steer_default_behaviour_def(SteerBehaviour type);
/// Switches a behaviour on, or updates its parameters if it is on (keeping its internal state:
/// wander target, current waypoint).
STEER_API SteerResult steer_vehicle_set_behaviour(SteerWorld *world, SteerVehicleId id, const SteerBehaviourDef *def);
/// Switches one behaviour off (no error if it was off).
STEER_API SteerResult steer_vehicle_clear_behaviour(SteerWorld *world, SteerVehicleId id, SteerBehaviour type);
STEER_API SteerResult steer_vehicle_clear_behaviours(SteerWorld *world, SteerVehicleId id);
STEER_API bool steer_vehicle_has_behaviour(const SteerWorld *world, SteerVehicleId id, SteerBehaviour type);
/// Writes up to `capacity` active behaviour types in the order the combination considers them
/// (priority, then type) and returns how many are active (0 for an invalid id).
STEER_API int steer_vehicle_get_behaviours(const SteerWorld *world, SteerVehicleId id, SteerBehaviour *out,
                                           int capacity);
/// Reads one active behaviour's parameters and what it did in the last step (either may be NULL).
STEER_API SteerResult steer_vehicle_get_behaviour(const SteerWorld *world, SteerVehicleId id, SteerBehaviour type,
                                                  SteerBehaviourDef *def, SteerBehaviourState *state);
/// What bound the vehicle's orca velocity in the last step (steer_types.h, SteerOrcaBound): free
/// for a vehicle without orca or before its first step. Fails on an invalid id or NULL out.
STEER_API SteerResult steer_vehicle_orca_constraint(const SteerWorld *world, SteerVehicleId id,
                                                    SteerOrcaConstraint *out);
/// Keeps the orca half-planes of vehicle `id` from every step on, for
/// steer_vehicle_debug_draw_orca (one vehicle at a time: an inspector's selected one; the null id
/// stops; the same vehicle again keeps what the last step kept). Allocates once, at the first call;
/// changes nothing the step computes.
STEER_API SteerResult steer_world_watch_orca(SteerWorld *world, SteerVehicleId id);

/* ---- Queries ------------------------------------------------------------------------------- */

/// Which vehicles a query considers.
typedef struct SteerQueryFilter {
    uint64_t kinds;         ///< bit k set = kind k matches; 0 = every kind
    SteerVehicleId exclude; ///< a vehicle to leave out (usually the asker); null id = none
    double view_angle;      ///< radians: full width of a cone around `heading`; >= 2π (the default) = all around
    SteerVec2 heading;      ///< unit vector the cone is centred on
} SteerQueryFilter;

/// Every kind, nobody excluded, all around.
STEER_API SteerQueryFilter steer_default_query_filter(void);
/// Vehicles whose centre lies within `radius` of `center` (filter may be NULL), in creation order.
/// Writes up to `capacity` ids and returns how many matched, or -1 for a bad argument.
STEER_API int steer_world_query_radius(const SteerWorld *world, SteerVec2 center, double radius,
                                       const SteerQueryFilter *filter, SteerVehicleId *out, int capacity);
/// The vehicle nearest to `point` within `range` (filter may be NULL); false when there is none.
/// Ties go to the vehicle created first.
STEER_API bool steer_world_query_closest(const SteerWorld *world, SteerVec2 point, double range,
                                         const SteerQueryFilter *filter, SteerVehicleId *out);
/// The filter a vehicle's group behaviours see the world through: its flock kinds (its own kind when
/// flock_kinds is 0), itself excluded, its view cone around its heading. Default filter for an
/// invalid id.
STEER_API SteerQueryFilter steer_vehicle_neighbor_filter(const SteerWorld *world, SteerVehicleId id);
/// The vehicles a vehicle's group behaviours consider: within `radius` (its neighbor_radius when
/// radius < 0) through steer_vehicle_neighbor_filter(), in creation order. Writes up to `capacity`
/// ids and returns how many matched, or -1 for an invalid id or radius.
STEER_API int steer_world_query_neighbors(const SteerWorld *world, SteerVehicleId id, double radius,
                                          SteerVehicleId *out, int capacity);
/// Obstacles whose circle comes within `radius` of the segment a-b, in slot order. Writes up to
/// `capacity` ids and returns how many matched, or -1 for a bad argument.
STEER_API int steer_world_query_obstacles(const SteerWorld *world, SteerVec2 a, SteerVec2 b, double radius,
                                          SteerObstacleId *out, int capacity);

/* ---- Obstacles, walls, paths, flow fields -------------------------------------------------- */

/// A circle (centre in units, radius in units, at least STEER_MIN_POSITIVE) that avoid_obstacles
/// and hide see. Removing an id that names nothing is STEER_ERROR_INVALID_ID.
STEER_API SteerResult steer_world_add_obstacle(SteerWorld *world, SteerVec2 center, double radius,
                                               SteerObstacleId *out);
STEER_API SteerResult steer_world_remove_obstacle(SteerWorld *world, SteerObstacleId id);
/// False for an invalid id; either out pointer may be NULL.
STEER_API bool steer_obstacle_get(const SteerWorld *world, SteerObstacleId id, SteerVec2 *center, double *radius);
/// Writes up to `capacity` ids in creation order and returns how many there are.
STEER_API int steer_world_get_obstacles(const SteerWorld *world, SteerObstacleId *out, int capacity);

/// A wall is a segment (ends in units, distinct), solid from both sides; steer_wall_get's `normal`
/// is its unit normal on the left of a to b.
STEER_API SteerResult steer_world_add_wall(SteerWorld *world, SteerVec2 a, SteerVec2 b, SteerWallId *out);
STEER_API SteerResult steer_world_remove_wall(SteerWorld *world, SteerWallId id);
STEER_API bool steer_wall_get(const SteerWorld *world, SteerWallId id, SteerVec2 *a, SteerVec2 *b, SteerVec2 *normal);
STEER_API int steer_world_get_walls(const SteerWorld *world, SteerWallId *out, int capacity);

/// A polyline of at least one point (copied); a looped path returns from its last point to its
/// first. Removing a path switches off the follow behaviours that use it.
STEER_API SteerResult steer_world_add_path(SteerWorld *world, const SteerVec2 *points, int count, bool loop,
                                           SteerPathId *out);
STEER_API SteerResult steer_world_remove_path(SteerWorld *world, SteerPathId id);
/// Returns the number of points (0 for an invalid id), writing up to `capacity` of them.
STEER_API int steer_path_get(const SteerWorld *world, SteerPathId id, SteerVec2 *points, int capacity, bool *loop);

/// A grid of cols x rows vectors, cell (i, j) covering origin + (i, j)·cell_size; sampled bilinearly.
typedef struct SteerFlowFieldDef {
    SteerVec2 origin;
    double cell_size;         ///< units, > 0
    int cols, rows;           ///< each in 1..16384
    const SteerVec2 *vectors; ///< cols·rows directions, row-major, copied (NULL: all zero, set them later)
} SteerFlowFieldDef;
STEER_API SteerResult steer_world_add_flow_field(SteerWorld *world, const SteerFlowFieldDef *def,
                                                 SteerFlowFieldId *out);
STEER_API SteerResult steer_world_remove_flow_field(SteerWorld *world, SteerFlowFieldId id);
/// Cell (col, row), 0-based, gets a new vector (each component within ±STEER_MAX_LENGTH).
STEER_API SteerResult steer_flow_field_set(SteerWorld *world, SteerFlowFieldId id, int col, int row,
                                           SteerVec2 direction);
/// The field's grid: origin, cell_size, cols, rows, and `vectors` pointing at its cols·rows
/// directions (read-only, valid until the field is removed or the world destroyed). False (and
/// `out` untouched) for an invalid id; `out` may be NULL to only test that the field is live.
STEER_API bool steer_flow_field_get(const SteerWorld *world, SteerFlowFieldId id, SteerFlowFieldDef *out);
/// The field's interpolated direction at a point (zero outside the grid or for an invalid id).
STEER_API SteerVec2 steer_flow_field_sample(const SteerWorld *world, SteerFlowFieldId id, SteerVec2 point);

/* ---- Senses (perception in the step; docs/core.md "Senses") ------------------------------- */

/* A vehicle's senses run in the step after every vehicle has moved, on the world's threads, and
 * what they found is part of the checksum. Sight sees other vehicles' centres within range, in
 * the cone, with nothing in between: the segment from the vehicle to the other (the shortest
 * wrapped one) touches no wall and no obstacle's disc (touching counts: a wall that ends exactly
 * on the line hides). Hearing hears the sounds emitted before the step within their radius and the
 * sense's range, whatever is in between. Each sense keeps up to max_memories memories, one per
 * vehicle, and reports changes as events, read after the step. */

/// Defaults: sight - range 200, fov π, every kind, walls and obstacles block; hearing - range
/// STEER_MAX_LENGTH, every tag; both: name NULL (set one), forget_after 5 s, period 0 (every
/// step), max_memories 16, every event (STEER_SENSE_EVENTS_ALL).
STEER_API SteerSenseDef steer_default_sense_def(SteerSenseType type);
/// Adds a sense to a vehicle, or replaces the vehicle's sense of the same name (keeping its index
/// and, up to the new max_memories, its memories; no events). Writes its index to `out_index`
/// (may be NULL). At most STEER_MAX_SENSES per vehicle. The sense first updates in the next step
/// whose number its period and the vehicle's serial select (every step for period 0).
STEER_API SteerResult steer_vehicle_add_sense(SteerWorld *world, SteerVehicleId id, const SteerSenseDef *def,
                                              int *out_index);
/// Removes a vehicle's sense by name, and its memories (no events); the senses after it move down
/// one index. STEER_ERROR_INVALID_ARGUMENT when it has no sense of that name.
STEER_API SteerResult steer_vehicle_remove_sense(SteerWorld *world, SteerVehicleId id, const char *name);
/// Sets which events a vehicle's sense reports from the next step on (`events`: STEER_EVENT_BIT
/// of SENSED, LOST, FORGOT, HEARD; 0 reports none): the ones no one handles then cost nothing.
/// `sense` -1 sets every sense of the vehicle. Memories, and the last step's events, stay as they
/// are. STEER_ERROR_INVALID_ARGUMENT for an index out of range or a bit outside
/// STEER_SENSE_EVENTS_ALL.
STEER_API SteerResult steer_vehicle_set_sense_events(SteerWorld *world, SteerVehicleId id, int sense, uint32_t events);
/// The index of a vehicle's sense of that name, or -1 (no such sense, or an invalid id).
STEER_API int steer_vehicle_find_sense(const SteerWorld *world, SteerVehicleId id, const char *name);
/// How many senses a vehicle has (0 for an invalid id); their indices are 0 .. count - 1.
STEER_API int steer_vehicle_sense_count(const SteerWorld *world, SteerVehicleId id);
/// A sense's definition (its name points into the world: valid until the sense is removed or
/// replaced). STEER_ERROR_INVALID_ARGUMENT for an index out of range.
STEER_API SteerResult steer_vehicle_get_sense(const SteerWorld *world, SteerVehicleId id, int sense,
                                              SteerSenseDef *out);
/// A sense's memories, in the creation order of the vehicles remembered. Writes up to `capacity`
/// and returns how many there are (0 for an invalid id or index).
STEER_API int steer_vehicle_get_memories(const SteerWorld *world, SteerVehicleId id, int sense, SteerMemory *out,
                                         int capacity);
/// The memory of what the sense senses now that was closest when sensed (ties: created first);
/// false when it senses nothing now (or for an invalid id or index). `out` may be NULL.
STEER_API bool steer_vehicle_closest_sensed(const SteerWorld *world, SteerVehicleId id, int sense, SteerMemory *out);
/// The memory of `other` (sensed now or not); false when the sense does not remember it.
STEER_API bool steer_vehicle_recall(const SteerWorld *world, SteerVehicleId id, int sense, SteerVehicleId other,
                                    SteerMemory *out);

/// Defaults: at the origin, radius 100, tag 0, from the world (null source).
STEER_API SteerSoundDef steer_default_sound_def(void);
/// Emits a sound: hearing senses hear it in the next step (a sense of a lower rate, at its next
/// update). The source, if any, must be a live vehicle; it does not hear itself, and its listeners
/// remember it at the sound's position.
STEER_API SteerResult steer_world_emit(SteerWorld *world, const SteerSoundDef *sound);
/// The sounds the last step's hearing heard from (those emitted before it), in emission order.
/// Writes up to `capacity` and returns how many there are.
STEER_API int steer_world_get_sounds(const SteerWorld *world, SteerSoundDef *out, int capacity);

/// Sets the vehicle's timer: a STEER_EVENT_TIMER after max(1, ceil(seconds / dt - 1e-9)) steps of
/// the current dt (seconds finite, in [0, STEER_MAX_TIME]). A vehicle has one timer: a new call
/// replaces the pending one.
STEER_API SteerResult steer_vehicle_wake_in(SteerWorld *world, SteerVehicleId id, double seconds);
/// Cancels the vehicle's pending timer (no error when there is none).
STEER_API SteerResult steer_vehicle_cancel_wake(SteerWorld *world, SteerVehicleId id);
/// The step (steer_world_step_count) at whose end the vehicle's timer fires, or 0 when none is set.
STEER_API uint64_t steer_vehicle_wake_step(const SteerWorld *world, SteerVehicleId id);

/// The events of the last step, in order: by vehicle in creation order; for each vehicle its timer
/// first, then its senses by index; within a sense SENSED, LOST and FORGOT by the other's creation
/// order (for one vehicle LOST before FORGOT), then FORGOT of the memories pushed out (in the order
/// they went), then HEARD in emission order. Writes events first .. first + capacity - 1 to `out`
/// and returns how many there are in all. Read them right after the step: adding, replacing or
/// removing a vehicle's sense drops that vehicle's events (its timer's stays), removing a vehicle
/// drops its own.
STEER_API int steer_world_get_sense_events(const SteerWorld *world, SteerSenseEvent *out, int capacity, int first);

/// Whether the segment a-b (in a wrapping world: from a to a + steer_world_offset(a, b)) is clear
/// of every wall (if `walls`) and every obstacle's disc (if `obstacles`): the test sight uses.
STEER_API bool steer_world_line_of_sight(const SteerWorld *world, SteerVec2 a, SteerVec2 b, bool walls, bool obstacles);

#include "steer_debug_draw.h"
#include "steer_fields.h"
#include "steer_nav.h"

#ifdef __cplusplus
}
#endif

#endif
