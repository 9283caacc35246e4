/* SPDX-License-Identifier: MIT */
/* steer_behaviours.h - what each behaviour is, as data: its name, default priority and
 * probability, its options (key, kind, range, default, where it lies in SteerBehaviourDef), its
 * targets, and what the inspector shows of it. steer_behaviour_info(type) gives one row.
 *
 * The core's checks and defaults read the same rows, and so do the Lua bindings (option tables,
 * positional targets, v:behaviours()): adding a behaviour is adding a row (docs/adding-a-behaviour.md).
 * Everything here is plain, read-only C data; how the core computes, plans and draws a behaviour
 * stays inside the library.
 */
#ifndef STEER_BEHAVIOURS_H
#define STEER_BEHAVIOURS_H

#include <stdbool.h>
#include <stddef.h>

#include "steer_export.h"
#include "steer_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// How an option's value is checked. Each kind keeps the message the core has always given for it.
typedef enum SteerOptionKind {
    STEER_OPTION_NUMBER,     ///< double in [min, max]: `wander: radius must be a finite number in [0, 1e+09] (got -1)`
    STEER_OPTION_PROPORTION, ///< double in [0, 1]: `avoid_obstacles: braking must be in [0, 1]`
    STEER_OPTION_INTEGER,    ///< int in [min, max] (priority; the core takes any)
    STEER_OPTION_OFFSET,     ///< SteerVec2, finite, each axis within ±max (a length: offset_pursue's offset)
    STEER_OPTION_POINT,      ///< SteerVec2, a position: each axis within ±STEER_MAX_COORDINATE (wander's anchor)
    STEER_OPTION_LEASH,      ///< SteerLeash: none, pull or roam (by name in Lua)
} SteerOptionKind;

/// One option of a behaviour.
typedef struct SteerOptionSpec {
    const char *key;   ///< its name in a Lua option table and in v:behaviours()
    const char *label; ///< its name in the core's messages when that differs from key (flock's
                       ///< wander_radius is `flock: radius ...`), else NULL
    SteerOptionKind kind;
    double min, max; ///< the accepted range, inclusive (NUMBER, INTEGER; OFFSET: max per axis)
    double fallback; ///< its default (LEASH: the SteerLeash value); vectors default to (0, 0)
    size_t offset;   ///< where the value lies in SteerBehaviourDef
    /// 0, or the offset of a bool in SteerBehaviourDef: the option counts only while that is true,
    /// and giving it from Lua sets it (wander's anchor: false = the spawn point).
    size_t given_offset;
    /// Checked and defaulted by the core, but no option of the Lua API (flock's nested wander
    /// leash, anchor, return_radius, ...: settable from C only).
    bool core_only;
} SteerOptionSpec;

/// What a positional target of a behaviour may be.
typedef enum SteerTargetArg {
    STEER_ARG_POINT_OR_VEHICLE, ///< a SteerTarget: a point or another vehicle
    STEER_ARG_VEHICLE,          ///< a SteerTarget that must be another vehicle
    STEER_ARG_PATH,             ///< a SteerPathId
    STEER_ARG_FLOW_FIELD,       ///< a SteerFlowFieldId
} SteerTargetArg;

typedef struct SteerTargetSpec {
    const char *name; ///< in messages (`pursue: target must be a vehicle, not a point`) and v:behaviours()
    SteerTargetArg arg;
    size_t offset; ///< where it lies in SteerBehaviourDef
} SteerTargetSpec;

#define STEER_MAX_TARGETS 2

/// What a behaviour's SteerBehaviourState holds beyond force, kept, evaluated and target
/// (v:forces() shows these).
enum {
    STEER_INSPECT_WANDER_TARGET = 1u << 0, ///< state.wander_target
    STEER_INSPECT_BOX_LENGTH = 1u << 1,    ///< state.box_length
    STEER_INSPECT_FEELERS = 1u << 2,       ///< state.feelers
    STEER_INSPECT_WAYPOINT = 1u << 3,      ///< state.waypoint
};

/// One row: what a behaviour is, for its users.
typedef struct SteerBehaviourInfo {
    const char *name;               ///< snake_case: the Lua method, steer_behaviour_name(), message prefixes
    int priority;                   ///< default: avoidance first, wander last (Buckland's order)
    double probability;             ///< default for dithering (Buckland's values where he gives them)
    const SteerOptionSpec *options; ///< its own options, in the order they are checked
    int option_count;
    /// Positional targets, in the order Lua takes them. The core checks paths and fields before
    /// the options and points or vehicles after them (the order of its messages).
    SteerTargetSpec targets[STEER_MAX_TARGETS];
    int target_count;
    unsigned inspect; ///< STEER_INSPECT_*
} SteerBehaviourInfo;

/// How many options every behaviour takes besides its own: weight, priority, probability.
#define STEER_COMMON_OPTION_COUNT 3

/// The row of a behaviour, or NULL for a value outside the enum.
STEER_API const SteerBehaviourInfo *steer_behaviour_info(SteerBehaviour type);
/// The STEER_COMMON_OPTION_COUNT options every behaviour takes (weight, priority, probability), in
/// that order; priority's and probability's defaults are each row's.
STEER_API const SteerOptionSpec *steer_behaviour_common_options(void);

#ifdef __cplusplus
}
#endif

#endif
