/* SPDX-License-Identifier: MIT */
/* nav_internal.h - the navigation planner's private side (nav.c): the maps, the search, the
 * navigating vehicles' plans and the flow fields to a goal, and the few calls the rest of the core
 * makes into it (a shape changed, a step starts, the world goes). White-box tests include it.
 */
#ifndef STEER_NAV_INTERNAL_H
#define STEER_NAV_INTERNAL_H

#include <stdint.h>

#include "world_internal.h"

/// Maps a world keeps at once (one per clearance and cell size asked for).
#define STEER_NAV_MAX_MAPS 8
/// Points of a navigating vehicle's path; a longer plan keeps its first ones and plans again from
/// the last.
#define STEER_NAV_AGENT_POINTS 128
/// How far (in cells, each way) from the start's and the goal's cells a path may leave or join
/// the free cells: those near cells are checked exactly against the shapes.
#define STEER_NAV_WINDOW 3

/// One navigation map: a grid over the world's bounds, 1 where a cell comes closer than the
/// clearance to a shape or the bounds.
typedef struct SteerNavMap {
    double clearance, cell_size;
    int cols, rows;
    uint8_t *blocked;
    uint32_t revision;  ///< grows whenever cells are recomputed
    uint64_t last_used; ///< the world's use counter when it was last asked for
    bool dirty;         ///< cells [dirty_x0, dirty_x1] x [dirty_y0, dirty_y1] wait to be recomputed
    int dirty_x0, dirty_y0, dirty_x1, dirty_y1;
} SteerNavMap;

/// What a navigating vehicle planned (by vehicle pool slot; `serial` tells a reused slot).
typedef struct SteerNavAgent {
    uint64_t serial;
    SteerNavState state;
    SteerVec2 goal; ///< where the plan ends (the target when it was planned)
    int count;      ///< points in `points` (the start first)
    bool truncated; ///< the plan had more points: plan again at the last one
    bool replan;    ///< plan at the next step (the definition changed)
    uint32_t map_revision;
    int map_index;
    int replans;
    double clearance, cell_size; ///< its map's (made by navigate or a change of radius, never in the step)
    SteerVec2 points[STEER_NAV_AGENT_POINTS];
    /* What its last replan replaced, for the debug draw (not part of the simulation). */
    SteerVec2 previous[STEER_NAV_AGENT_POINTS];
    int previous_count;  ///< 0: no replan replaced a path yet
    double replanned_at; ///< world time (s) of that replan
} SteerNavAgent;

/// A flow field the world made with steer_world_add_flow_field_to and keeps up to date.
typedef struct SteerNavGoalField {
    SteerFlowFieldId id;
    SteerFlowGoalDef def;
    uint32_t map_revision;
    int map_index;
    float *distance; ///< per cell, units; INFINITY where the goal cannot be reached
    int cells;
} SteerNavGoalField;

/// An entry of the search's heap: its keys beside the cell, so that sifting reads one array.
typedef struct SteerNavHeapEntry {
    float f, g;
    int32_t cell;
} SteerNavHeapEntry;

typedef struct SteerNav {
    SteerNavMap maps[STEER_NAV_MAX_MAPS];
    int map_count;
    uint64_t uses;
    /* Search scratch, sized to the largest map. */
    int scratch_cells;
    float *g, *f;
    int32_t *parent, *heap_pos;
    SteerNavHeapEntry *heap;
    /* The flow fields' Dijkstra, over the largest goal field's grid with a border of one cell. */
    float *flow_g;         ///< per padded cell: distance to the goal in cells (INFINITY: unseen, -1: border)
    int8_t *flow_dir;      ///< the step (0..7) it was reached by, -1: it sees the goal
    uint8_t *flow_blocked; ///< the map's cells, 1 on the border
    int32_t *flow_queue;   ///< the ring of buckets, flow_capacity cells each
    int flow_capacity;     ///< padded cells
    uint32_t *mark;
    uint32_t generation;
    SteerVec2 *cell_points; ///< a plan's cell centres, then its smoothed points
    int *near;              ///< shapes near a plan's ends (obstacle slot * 2, wall slot * 2 + 1)
    int near_capacity;
    /* Navigating vehicles. */
    SteerNavAgent **agents; ///< by vehicle pool slot, allocated when navigate is switched on
    int agent_capacity;
    bool navigators; ///< some vehicle was given navigate: the step looks for them
    SteerNavGoalField *goal_fields;
    int goal_field_count, goal_field_capacity;
} SteerNav;

/// The world is going: frees its navigation state.
void steer_nav_free(SteerWorld *world);
/// A wall or obstacle covering [lo, hi] was added or is being removed: the maps recompute those
/// cells (and every map's revision grows) before their next use.
void steer_nav_shape_changed(SteerWorld *world, SteerVec2 lo, SteerVec2 hi);
/// Start of a step, on the calling thread: brings maps and goal fields up to date and plans (or
/// plans again) for every navigating vehicle, in creation order.
void steer_nav_before_step(SteerWorld *world);
/// Navigate is being switched on (or updated) for `vehicle`: its plan storage and map, made now so
/// that the step need not allocate.
SteerResult steer_nav_prepare(SteerWorld *world, SteerVehicle *vehicle, const SteerBehaviourDef *def);

/// A vehicle's radius is about to change: a navigating vehicle that keeps its radius as clearance
/// gets the map of the new one now, outside the step (an error when it would be a ninth in use).
SteerResult steer_nav_radius_changing(SteerWorld *world, SteerVehicle *vehicle, double radius);

/// Draws what each navigating vehicle has left of its path (from where it is drawn, through its
/// waypoint on), under STEER_DEBUG_DRAW_TARGETS, in the targets layer.
void steer_nav_debug_draw(const SteerWorld *world, const SteerDebugDraw *draw);
/// STEER_DEBUG_DRAW_NAVIGATION, under the shapes: every map's blocked cells, as they were last
/// brought up to date.
void steer_nav_debug_draw_maps(const SteerWorld *world, const SteerDebugDraw *draw);
/// STEER_DEBUG_DRAW_NAVIGATION, with the overlays: each navigating vehicle's path and the path its
/// last replan replaced, fading for STEER_DEBUG_NAV_GHOST_SECONDS.
void steer_nav_debug_draw_plans(const SteerWorld *world, const SteerDebugDraw *draw);

/// Tests: the map of (radius, cell_size), up to date (NULL: bad argument or no memory).
const SteerNavMap *steer_nav_map_get(SteerWorld *world, double radius, double cell_size);
/// Tests: recomputes every cell of a map from scratch (the reference incremental updates must equal).
void steer_nav_map_rebuild(SteerWorld *world, SteerNavMap *map);

#endif
