/* SPDX-License-Identifier: MIT */
/* steer_nav.h - navigation that feeds steering: paths around the world's own walls and obstacles
 * (any-angle, keeping a clearance), flow fields to a goal, and what a navigating vehicle planned.
 * Included by steer.h; the guide is docs/core.md's "Navigation".
 *
 * The world keeps one navigation map per (clearance, cell size) asked for: a grid over the world's
 * bounds [0, width] x [0, height] whose cells are free when every point of the cell is at least
 * the clearance away from every wall, every obstacle and the bounds. Maps are built on first use
 * and kept up to date: adding or removing a wall or an obstacle recomputes only the cells it can
 * touch (at the next query or step). A path runs through free cells only, so it never comes closer
 * than the clearance to any wall or obstacle; its two ends are checked exactly against the shapes.
 * A navigating vehicle's clearance is rounded up to a multiple of a quarter cell, so that vehicles
 * of nearly the same radius share a map (at most 8 maps are kept; the least recently used that no
 * navigating vehicle or goal field uses goes; a ninth in use is refused).
 *
 * Maps do not wrap. In a wrapping world the edges count as walls for navigation: paths and flow
 * fields to a goal stay inside the bounds and never cross a seam; the statuses say so when that is
 * why a path was not found (STEER_PATH_UNREACHABLE_WITHOUT_WRAPPING, ..._AT_WRAPPING_EDGE).
 */
#ifndef STEER_NAV_H
#define STEER_NAV_H

#include <stdbool.h>

#include "steer_export.h"
#include "steer_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct SteerWorld SteerWorld;

/// How a path query (or a navigating vehicle's last plan) ended.
typedef enum SteerPathStatus {
    STEER_PATH_FOUND = 0,     ///< a path was found
    STEER_PATH_UNREACHABLE,   ///< no way from start to goal keeps the clearance
    STEER_PATH_START_BLOCKED, ///< the start is closer than the clearance to a wall or obstacle
    STEER_PATH_GOAL_BLOCKED,  ///< the goal is closer than the clearance to a wall or obstacle
    STEER_PATH_START_OUTSIDE, ///< the start is outside the bounds shrunk by the clearance
    STEER_PATH_GOAL_OUTSIDE,  ///< the goal is outside the bounds shrunk by the clearance
    /// A wrapping world: no path inside the bounds; paths do not cross the wrapping edges (the map
    /// treats them as walls), so a way across them is not looked for
    STEER_PATH_UNREACHABLE_WITHOUT_WRAPPING,
    STEER_PATH_START_AT_WRAPPING_EDGE, ///< a wrapping world: the start is closer than the clearance to an edge
    STEER_PATH_GOAL_AT_WRAPPING_EDGE,  ///< a wrapping world: the goal is closer than the clearance to an edge
    STEER_PATH_STATUS_COUNT
} SteerPathStatus;

/// The default cell size of navigation maps, units.
#define STEER_NAV_DEFAULT_CELL_SIZE 8.0
/// A navigation map has at most this many cells (a larger world needs a larger cell size).
#define STEER_NAV_MAX_CELLS (1024 * 1024)

/// A path query: from start to goal keeping `radius` away from walls, obstacles and the bounds.
typedef struct SteerPathQueryDef {
    SteerVec2 start, goal; ///< units
    double radius;         ///< units >= 0: the clearance the path keeps (a vehicle's radius)
    double cell_size;      ///< units > 0: the map's grid (STEER_NAV_DEFAULT_CELL_SIZE)
} SteerPathQueryDef;

/// What a path query found.
typedef struct SteerPathResult {
    SteerPathStatus status;
    int count;     ///< points of the path, start and goal included (0 unless found)
    double length; ///< units, along the path (0 unless found)
} SteerPathResult;

/// start = goal = (0, 0), radius 0, cell_size STEER_NAV_DEFAULT_CELL_SIZE.
STEER_API SteerPathQueryDef steer_default_path_query_def(void);
/// Plans a smoothed, any-angle polyline from def->start to def->goal. Writes up to `capacity`
/// points to `points` (may be NULL) and the outcome to `out`: a path that was not found is no
/// error (out->status says why: unreachable, start or goal inside geometry or outside the bounds).
/// STEER_ERROR_INVALID_ARGUMENT for a bad definition (NaN, negative radius, a map past
/// STEER_NAV_MAX_CELLS), STEER_ERROR_OUT_OF_MEMORY when the map cannot be built. Deterministic:
/// the same world and query give the same points, bit for bit.
STEER_API SteerResult steer_world_find_path(SteerWorld *world, const SteerPathQueryDef *def, SteerVec2 *points,
                                            int capacity, SteerPathResult *out);
/// "found", "unreachable", "start inside geometry", "goal inside geometry", "start outside the
/// map", "goal outside the map", "unreachable without crossing the wrapping edges", "start too near
/// a wrapping edge", "goal too near a wrapping edge"; NULL for an out-of-range value.
STEER_API const char *steer_path_status_name(SteerPathStatus status);

/// The navigation map of (radius, cell_size), built or brought up to date: its grid size and, in
/// `blocked` (cols·rows bytes, row-major, may be NULL), 1 for each cell a path may not enter.
/// Returns cols·rows, or -1 for a bad argument or no memory (steer_world_last_error says which).
STEER_API int steer_world_nav_map(SteerWorld *world, double radius, double cell_size, unsigned char *blocked,
                                  int capacity, int *cols, int *rows);

/// A flow field toward a goal around the geometry: each cell's vector points along the shortest
/// way to the goal (Dijkstra over the navigation map of `radius` and `cell_size`); cells that
/// cannot reach it get a zero vector, cells inside the clearance point out of it.
typedef struct SteerFlowGoalDef {
    SteerVec2 goal;   ///< units
    double radius;    ///< units >= 0: clearance of the map the field is computed on
    double cell_size; ///< units > 0: the field's and the map's grid (STEER_NAV_DEFAULT_CELL_SIZE)
} SteerFlowGoalDef;
/// goal (0, 0), radius 0, cell_size STEER_NAV_DEFAULT_CELL_SIZE.
STEER_API SteerFlowGoalDef steer_default_flow_goal_def(void);
/// Adds a flow field (as steer_world_add_flow_field, used by follow_flow) that leads to def->goal,
/// covering the world's bounds. The world recomputes it at the next step after a wall or an
/// obstacle is added or removed. Remove it with steer_world_remove_flow_field.
STEER_API SteerResult steer_world_add_flow_field_to(SteerWorld *world, const SteerFlowGoalDef *def,
                                                    SteerFlowFieldId *out);
/// The distance (units, along the field's own grid) from `point` to the goal of a field made by
/// steer_world_add_flow_field_to; -1 outside it, where the goal cannot be reached, or for another id.
STEER_API double steer_flow_field_distance(const SteerWorld *world, SteerFlowFieldId id, SteerVec2 point);

/// What a navigating vehicle is doing.
typedef enum SteerNavState {
    STEER_NAV_NONE = 0,    ///< no navigate behaviour
    STEER_NAV_PLANNING,    ///< switched on, plans at the next step
    STEER_NAV_FOLLOWING,   ///< following its path
    STEER_NAV_ARRIVED,     ///< within its slowing radius of the goal's end
    STEER_NAV_UNREACHABLE, ///< its last plan found no path (it retries when the goal or the geometry changes)
    STEER_NAV_STATE_COUNT
} SteerNavState;

/// What a vehicle's navigate behaviour planned: its state, and the path it follows (up to
/// `capacity` points into `points`, may be NULL). Returns the number of points, 0 without a
/// path or for an invalid id. `waypoint` (may be NULL) gets the index of the point it steers to,
/// `replans` (may be NULL) how many plans it made.
STEER_API int steer_vehicle_nav_path(const SteerWorld *world, SteerVehicleId id, SteerVec2 *points, int capacity,
                                     SteerNavState *state, int *waypoint, int *replans);
/// "none", "planning", "following", "arrived", "unreachable"; NULL for an out-of-range value.
STEER_API const char *steer_nav_state_name(SteerNavState state);

#ifdef __cplusplus
}
#endif

#endif
