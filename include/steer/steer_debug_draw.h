/* SPDX-License-Identifier: MIT */
/* steer_debug_draw.h - what a world looks like, as calls to a struct of function pointers (in the
 * manner of Box2D's b2DebugDraw). The core decides the geometry and the colours; the caller only
 * rasterises segments, circles and polygons, so the core never links a renderer.
 *
 * Colours are words 0xRRGGBBAA. Every callback receives the layer the shape belongs to (a caller
 * styles layers by it, never by guessing from colours) and the struct's `context`. A callback left
 * NULL is skipped, so a caller that only wants, say, segments sets only draw_segment.
 */
#ifndef STEER_DEBUG_DRAW_H
#define STEER_DEBUG_DRAW_H

#include <stdbool.h>
#include <stdint.h>

#include "steer_export.h"
#include "steer_math.h"
#include "steer_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct SteerWorld;

/// What steer_world_debug_draw() emits; combine with |.
typedef enum SteerDebugDrawFlags {
    STEER_DEBUG_DRAW_VEHICLES = 1u << 0,  ///< oriented filled triangles (colour word, else kind palette)
    STEER_DEBUG_DRAW_OBSTACLES = 1u << 1, ///< filled circles with an outline
    STEER_DEBUG_DRAW_WALLS = 1u << 2,     ///< segments with a normal tick at their middle
    STEER_DEBUG_DRAW_PATHS = 1u << 3,     ///< polylines with a dot at each waypoint
    STEER_DEBUG_DRAW_BOUNDS = 1u << 4,    ///< the rectangle [0, width] x [0, height]
    STEER_DEBUG_DRAW_WANDER = 1u << 5,    ///< wander circles, their targets and leash anchors
    STEER_DEBUG_DRAW_AVOIDANCE = 1u << 6, ///< obstacle detection boxes and wall feelers
    STEER_DEBUG_DRAW_NEIGHBORS = 1u << 7, ///< neighbour radius (and view cone when narrower than 2π)
    STEER_DEBUG_DRAW_FORCES = 1u << 8,    ///< velocity and combined steering force vectors
    STEER_DEBUG_DRAW_TARGETS =
        1u << 9, ///< a line from each vehicle to the target point of each behaviour that pushed it
    STEER_DEBUG_DRAW_FLOW_FIELDS = 1u << 10, ///< one arrow per flow-field cell
    STEER_DEBUG_DRAW_SENSES = 1u << 11,      ///< sight cones (hearing: range circles) and a ray to each memory
    STEER_DEBUG_DRAW_SENSE_RAYS = 1u << 12,  ///< a ray to every vehicle in a sight cone: clear or blocked
    STEER_DEBUG_DRAW_SOUNDS = 1u << 13,      ///< the sounds the last step heard from, as circles of their radius
    /// navigation: every map's blocked cells (translucent, so cells blocked for smaller clearances
    /// show darker), each navigating vehicle's planned path, and for a second after a replan the
    /// path it replaced, fading
    STEER_DEBUG_DRAW_NAVIGATION = 1u << 14,
    STEER_DEBUG_DRAW_WORLD = STEER_DEBUG_DRAW_VEHICLES | STEER_DEBUG_DRAW_OBSTACLES | STEER_DEBUG_DRAW_WALLS |
                             STEER_DEBUG_DRAW_PATHS | STEER_DEBUG_DRAW_BOUNDS,
} SteerDebugDrawFlags;

/// What a shape belongs to, passed to every callback. Each layer is drawn by the flag of the same
/// name (STEER_DEBUG_LAYER_WALL_NORMALS by STEER_DEBUG_DRAW_WALLS, STEER_DEBUG_LAYER_TARGETS by
/// STEER_DEBUG_DRAW_TARGETS), and is finer than the flags where a renderer may style two parts of one
/// flag differently: a wall and its normal tick.
typedef enum SteerDebugLayer {
    STEER_DEBUG_LAYER_BOUNDS,       ///< the world's rectangle
    STEER_DEBUG_LAYER_FLOW_FIELDS,  ///< flow-field arrows, a dot for a zero cell
    STEER_DEBUG_LAYER_PATHS,        ///< path segments and waypoint dots
    STEER_DEBUG_LAYER_OBSTACLES,    ///< obstacle discs and rims
    STEER_DEBUG_LAYER_WALLS,        ///< wall segments
    STEER_DEBUG_LAYER_WALL_NORMALS, ///< the arrow along each wall's normal
    STEER_DEBUG_LAYER_WANDER,       ///< wander circles, targets, leash anchors
    STEER_DEBUG_LAYER_AVOIDANCE,    ///< detection boxes, wall feelers
    STEER_DEBUG_LAYER_NEIGHBORS,    ///< neighbour circles and view cones
    STEER_DEBUG_LAYER_TARGETS,      ///< lines to the behaviours' target points
    STEER_DEBUG_LAYER_FORCES,       ///< velocity and steering force arrows
    STEER_DEBUG_LAYER_VEHICLES,     ///< the vehicles' darts
    STEER_DEBUG_LAYER_SENSES,       ///< sense cones, hearing circles, lines to memories (remembered: dimmer)
    STEER_DEBUG_LAYER_SENSE_RAYS,   ///< rays to the vehicles in sight cones: clear or blocked colour
    STEER_DEBUG_LAYER_SOUNDS,       ///< heard sounds
    STEER_DEBUG_LAYER_NAV_MAP,      ///< a navigation map's blocked cells: one filled rectangle per run of a row
    STEER_DEBUG_LAYER_NAV_PATHS,    ///< planned paths, and the paths replans replaced (fading for a second)
    STEER_DEBUG_LAYER_COUNT
} SteerDebugLayer;

/* The colours the core uses (0xRRGGBBAA), chosen to read well on a dark background. */
#define STEER_DEBUG_COLOR_OBSTACLE_FILL 0x3a4a5eff
#define STEER_DEBUG_COLOR_OBSTACLE_EDGE 0x7d93adff
#define STEER_DEBUG_COLOR_WALL 0xd8dee9ff
#define STEER_DEBUG_COLOR_WALL_NORMAL 0x88c0d0ff
#define STEER_DEBUG_COLOR_PATH 0xb48eadff
#define STEER_DEBUG_COLOR_BOUNDS 0x4c566aff
#define STEER_DEBUG_COLOR_WANDER 0x8fbcbb99
#define STEER_DEBUG_COLOR_WANDER_TARGET 0xebcb8bff
#define STEER_DEBUG_COLOR_AVOIDANCE 0xd0877099
#define STEER_DEBUG_COLOR_NEIGHBORS 0x81a1c155
#define STEER_DEBUG_COLOR_VELOCITY 0xa3be8cff
#define STEER_DEBUG_COLOR_FORCE 0xbf616aff
#define STEER_DEBUG_COLOR_TARGET 0xe5e9f066
#define STEER_DEBUG_COLOR_FLOW 0x5e81ac99
#define STEER_DEBUG_COLOR_SENSE 0xebcb8b55      ///< sight cones and hearing circles
#define STEER_DEBUG_COLOR_SENSED 0xebcb8bcc     ///< a line to a vehicle sensed now
#define STEER_DEBUG_COLOR_REMEMBERED 0xd0877088 ///< a line to where a remembered vehicle was last sensed
#define STEER_DEBUG_COLOR_RAY_CLEAR 0xa3be8c99
#define STEER_DEBUG_COLOR_RAY_BLOCKED 0xbf616a99
#define STEER_DEBUG_COLOR_SOUND 0xb48ead99
#define STEER_DEBUG_COLOR_NAV_MAP 0xbf616a30   ///< blocked cells of a navigation map
#define STEER_DEBUG_COLOR_NAV_GHOST 0xd08770aa ///< a replaced path, just after its replan (alpha fades to 0)
/// Seconds a replaced path stays drawn after a replan.
#define STEER_DEBUG_NAV_GHOST_SECONDS 1.0
#define STEER_DEBUG_COLOR_HALF_PLANE 0xd087708c ///< an orca velocity constraint (steer_vehicle_debug_draw_orca)
#define STEER_DEBUG_COLOR_BOUND 0xbf616aff      ///< ... the one the velocity ended on

/// Length (units) of the normal tick drawn at the middle of each wall.
#define STEER_DEBUG_WALL_NORMAL_LENGTH 12.0
/// Seconds of motion a velocity arrow shows (velocity·this), and units per mass·units/s² of force.
#define STEER_DEBUG_VELOCITY_SCALE 0.5
#define STEER_DEBUG_FORCE_SCALE 0.25

typedef struct SteerDebugDraw {
    /// A line from a to b.
    void (*draw_segment)(SteerVec2 a, SteerVec2 b, uint32_t color, SteerDebugLayer layer, void *context);
    /// A circle outline.
    void (*draw_circle)(SteerVec2 center, double radius, uint32_t color, SteerDebugLayer layer, void *context);
    /// A filled circle.
    void (*draw_solid_circle)(SteerVec2 center, double radius, uint32_t color, SteerDebugLayer layer, void *context);
    /// A closed polygon outline (count >= 3).
    void (*draw_polygon)(const SteerVec2 *points, int count, uint32_t color, SteerDebugLayer layer, void *context);
    /// A filled convex polygon (count >= 3; vehicles are triangles).
    void (*draw_solid_polygon)(const SteerVec2 *points, int count, uint32_t color, SteerDebugLayer layer,
                               void *context);
    /// A dot `size` pixels wide whatever the zoom.
    void (*draw_point)(SteerVec2 p, double size, uint32_t color, SteerDebugLayer layer, void *context);
    /// Optional: where to draw a vehicle (e.g. interpolated between two steps). Return false to
    /// use its current position and heading. Everything drawn about a vehicle follows this pose.
    bool (*vehicle_pose)(SteerVehicleId id, SteerVec2 *position, SteerVec2 *heading, void *context);
    /// Optional: colour of a vehicle whose colour word is 0; NULL = steer_debug_kind_color(kind).
    uint32_t (*kind_color)(uint32_t kind, void *context);
    /// Optional: an arc of a circle from angle `from` to angle `to` (radians, to > from, measured
    /// like steer_vec2_from_angle). NULL: the core draws it as segments through draw_segment.
    void (*draw_arc)(SteerVec2 center, double radius, double from, double to, uint32_t color, SteerDebugLayer layer,
                     void *context);
    unsigned flags; ///< SteerDebugDrawFlags
    void *context;
} SteerDebugDraw;

/// No callbacks yet, flags STEER_DEBUG_DRAW_WORLD (vehicles, obstacles, walls, paths, bounds): set
/// the callbacks you have and add the overlays you want.
STEER_API SteerDebugDraw steer_default_debug_draw(void);
/// The default palette for vehicles by kind: distinct, bright colours (cycles after 12 kinds).
STEER_API uint32_t steer_debug_kind_color(uint32_t kind);
/// The outline of a vehicle of `radius` at `position` facing the unit vector `heading`: a dart
/// whose nose is 1.5·radius ahead (points[0]) and whose back corners are at ±0.9·radius.
STEER_API void steer_debug_vehicle_shape(SteerVec2 position, SteerVec2 heading, double radius, SteerVec2 points[3]);
/// Emits the world, in the order bounds, flow fields, paths, obstacles, walls, overlays, vehicles
/// (so vehicles are on top). Reads what the last step recorded; changes nothing.
STEER_API void steer_world_debug_draw(const struct SteerWorld *world, const SteerDebugDraw *draw);
/// Emits one vehicle's senses as the SENSES, SENSE_RAYS and SOUNDS flags of `draw` ask (for an
/// inspector's selected vehicle, whatever the world draws); nothing for an invalid id.
STEER_API void steer_vehicle_debug_draw_senses(const struct SteerWorld *world, SteerVehicleId id,
                                               const SteerDebugDraw *draw);
/// Emits one navigating vehicle's planned path and, for STEER_DEBUG_NAV_GHOST_SECONDS after a
/// replan, the path it replaced; with STEER_DEBUG_DRAW_NAVIGATION in draw->flags, also the blocked
/// cells of the map it plans on (its clearance). Nothing for an invalid id or one not navigating.
STEER_API void steer_vehicle_debug_draw_navigation(const struct SteerWorld *world, SteerVehicleId id,
                                                   const SteerDebugDraw *draw);
/// Emits the half-planes (velocity constraints) that bounded the watched vehicle's orca velocity
/// in the last step (steer_world_watch_orca), in the avoidance layer whatever `draw`'s flags: each
/// as its boundary inside the max_speed circle, drawn where velocities lead in a second (as the
/// orca overlay draws the preferred and chosen ones), with short ticks on the side it rules out;
/// the one the velocity ended on brighter. Nothing for another vehicle or before a step.
STEER_API void steer_vehicle_debug_draw_orca(const struct SteerWorld *world, SteerVehicleId id,
                                             const SteerDebugDraw *draw);

#ifdef __cplusplus
}
#endif

#endif
