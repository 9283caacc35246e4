/* SPDX-License-Identifier: MIT */
/* behaviour_table.c - the one table of behaviours (behaviour_row.h): one row per behaviour with its
 * name, defaults, options, targets (the public SteerBehaviourInfo of steer_behaviours.h) and the
 * core's functions for it. The checks and defaults
 * (behaviour.c), the force dispatch (combine.c), the debug drawing (debug_draw.c) and the Lua
 * bindings read this table; nothing else lists behaviours. Adding one: docs/adding-a-behaviour.md.
 */
#include "behaviour_row.h"
#include "behaviours_internal.h"
#include "nav_internal.h"

/* ---- Option specs -------------------------------------------------------------------------- */

/* The specs and rows below are laid out as tables, one line per option or field group. */
// clang-format off

#define AT(field) offsetof(SteerBehaviourDef, field)
#define NUMBER(key, field, lo, hi, value) {key, NULL, STEER_OPTION_NUMBER, lo, hi, value, AT(field), 0, false}
/// Lengths and distances: units, [0, STEER_MAX_LENGTH].
#define LENGTH(key, field, value) NUMBER(key, field, 0.0, STEER_MAX_LENGTH, value)
/// Lengths that divide or bound a probe: units, at least STEER_MIN_POSITIVE.
#define POSITIVE_LENGTH(key, field, value) NUMBER(key, field, STEER_MIN_POSITIVE, STEER_MAX_LENGTH, value)
#define WEIGHT(key, field, value) NUMBER(key, field, 0.0, STEER_MAX_WEIGHT, value)
#define OPTIONS(specs) .info.options = specs, .info.option_count = (int)(sizeof specs / sizeof specs[0])

const SteerOptionSpec steer_common_option_specs[STEER_COMMON_OPTION_COUNT] = {
    WEIGHT("weight", weight, 1.0),
    /* priority's and probability's defaults are the row's */
    {"priority", NULL, STEER_OPTION_INTEGER, -1e9, 1e9, 0.0, AT(priority), 0, false},
    {"probability", NULL, STEER_OPTION_PROPORTION, 0.0, 1.0, 0.0, AT(probability), 0, false},
};

static const SteerOptionSpec FLEE[] = {LENGTH("panic_distance", flee.panic_distance, 0.0)};
static const SteerOptionSpec ARRIVE[] = {LENGTH("slowing_radius", arrive.slowing_radius, 50.0)};
static const SteerOptionSpec EVADE[] = {LENGTH("threat_range", evade.threat_range, 0.0)};
static const SteerOptionSpec OFFSET_PURSUE[] = {
    {"offset", NULL, STEER_OPTION_OFFSET, -STEER_MAX_LENGTH, STEER_MAX_LENGTH, 0.0, AT(offset_pursue.offset), 0, false},
    LENGTH("slowing_radius", offset_pursue.slowing_radius, 20.0),
};
static const SteerOptionSpec INTERPOSE[] = {LENGTH("slowing_radius", interpose.slowing_radius, 20.0)};
static const SteerOptionSpec HIDE[] = {
    LENGTH("distance", hide.distance, 20.0),
    LENGTH("slowing_radius", hide.slowing_radius, 20.0),
};
static const SteerOptionSpec WANDER[] = {
    LENGTH("radius", wander.radius, 30.0),
    LENGTH("distance", wander.distance, 60.0),
    LENGTH("jitter", wander.jitter, 80.0),
    {"leash", NULL, STEER_OPTION_LEASH, STEER_LEASH_NONE, STEER_LEASH_ROAM, STEER_LEASH_NONE, AT(wander.leash), 0, false},
    {"anchor", NULL, STEER_OPTION_POINT, -STEER_MAX_COORDINATE, STEER_MAX_COORDINATE, 0.0, AT(wander.anchor),
     AT(wander.has_anchor), false},
    POSITIVE_LENGTH("return_radius", wander.return_radius, 100.0),
    LENGTH("max_distance", wander.max_distance, 150.0),
    NUMBER("roam_rate", wander.roam_rate, 0.0, STEER_MAX_RATE, 0.25),
};
static const SteerOptionSpec FOLLOW[] = {
    LENGTH("waypoint_radius", follow.waypoint_radius, 10.0),
    LENGTH("slowing_radius", follow.slowing_radius, 50.0),
};
static const SteerOptionSpec AVOID_OBSTACLES[] = {
    POSITIVE_LENGTH("detection_length", avoid_obstacles.detection_length, 50.0),
    {"braking", NULL, STEER_OPTION_PROPORTION, 0.0, 1.0, 0.2, AT(avoid_obstacles.braking), 0, false},
};
static const SteerOptionSpec AVOID_WALLS[] = {POSITIVE_LENGTH("feeler_length", avoid_walls.feeler_length, 50.0)};
static const SteerOptionSpec CONTAIN[] = {POSITIVE_LENGTH("margin", contain.margin, 50.0)};
static const SteerOptionSpec FOLLOW_FLOW[] = {NUMBER("lookahead", follow_flow.lookahead, 0.0, STEER_MAX_TIME, 0.0)};
static const SteerOptionSpec SEPARATE[] = {
    LENGTH("comfort_distance", separate.comfort_distance, 0.0),
    NUMBER("comfort_multiplier", separate.comfort_multiplier, 1.0, STEER_MAX_WEIGHT, 1.0),
};
/* Flock's wander is wander's, under other names in Lua; the leash and what goes with it are set
 * from C only. The core names them as wander does (`flock: radius must be ...`). */
#define FLOCK_WANDER(key, label, field, lo, value) \
    {key, label, STEER_OPTION_NUMBER, lo, STEER_MAX_LENGTH, value, AT(flock.wander_params.field), 0, false}
#define FLOCK_CORE_ONLY(key, kind, lo, hi, value, field, given) \
    {key, NULL, kind, lo, hi, value, AT(flock.wander_params.field), given, true}
static const SteerOptionSpec FLOCK[] = {
    WEIGHT("separation", flock.separation, 1.5),
    WEIGHT("alignment", flock.alignment, 1.0),
    WEIGHT("cohesion", flock.cohesion, 1.0),
    WEIGHT("wander", flock.wander, 0.3),
    FLOCK_WANDER("wander_radius", "radius", radius, 0.0, 30.0),
    FLOCK_WANDER("wander_distance", "distance", distance, 0.0, 60.0),
    FLOCK_WANDER("wander_jitter", "jitter", jitter, 0.0, 80.0),
    FLOCK_CORE_ONLY("leash", STEER_OPTION_LEASH, STEER_LEASH_NONE, STEER_LEASH_ROAM, STEER_LEASH_NONE, leash, 0),
    FLOCK_CORE_ONLY("anchor", STEER_OPTION_POINT, -STEER_MAX_COORDINATE, STEER_MAX_COORDINATE, 0.0, anchor,
                    AT(flock.wander_params.has_anchor)),
    FLOCK_CORE_ONLY("return_radius", STEER_OPTION_NUMBER, STEER_MIN_POSITIVE, STEER_MAX_LENGTH, 100.0, return_radius, 0),
    FLOCK_CORE_ONLY("max_distance", STEER_OPTION_NUMBER, 0.0, STEER_MAX_LENGTH, 150.0, max_distance, 0),
    FLOCK_CORE_ONLY("roam_rate", STEER_OPTION_NUMBER, 0.0, STEER_MAX_RATE, 0.25, roam_rate, 0),
};
static const SteerOptionSpec FOLLOW_LEADER[] = {
    LENGTH("behind", follow_leader.behind, 30.0),
    LENGTH("sight_radius", follow_leader.sight_radius, 30.0),
    LENGTH("slowing_radius", follow_leader.slowing_radius, 30.0),
    WEIGHT("separation", follow_leader.separation, 1.0),
};
static const SteerOptionSpec QUEUE[] = {
    LENGTH("ahead", queue.ahead, 30.0),
    LENGTH("radius", queue.radius, 15.0),
    NUMBER("braking", queue.braking, 0.0, 1.0, 0.8),
};
static const SteerOptionSpec AVOID_COLLISIONS[] = {
    NUMBER("horizon", avoid_collisions.horizon, STEER_MIN_POSITIVE, STEER_MAX_TIME, 1.0),
};
static const SteerOptionSpec NAVIGATE[] = {
    LENGTH("radius", navigate.radius, 0.0),
    NUMBER("cell_size", navigate.cell_size, 1.0, STEER_MAX_LENGTH, STEER_NAV_DEFAULT_CELL_SIZE), /* units */
    LENGTH("waypoint_radius", navigate.waypoint_radius, 12.0),
    LENGTH("slowing_radius", navigate.slowing_radius, 50.0),
    LENGTH("replan_distance", navigate.replan_distance, 32.0),
};
#define INTEGER(key, field, lo, hi, value) {key, NULL, STEER_OPTION_INTEGER, lo, hi, value, AT(field), 0, false}
static const SteerOptionSpec ORCA[] = {
    NUMBER("horizon", orca.horizon, STEER_MIN_POSITIVE, STEER_MAX_TIME, 2.0),
    NUMBER("obstacle_horizon", orca.obstacle_horizon, STEER_MIN_POSITIVE, STEER_MAX_TIME, 1.0),
    INTEGER("max_neighbors", orca.max_neighbors, 1, STEER_ORCA_MAX_NEIGHBORS, 10),
    LENGTH("range", orca.range, 0.0),
    INTEGER("layer", orca.layer, 0, 15, 0),
    INTEGER("avoids", orca.avoids, 0, 65535, 65535),
    INTEGER("precedence", orca.precedence, 0, 255, 0),
    NUMBER("heading_smoothing", orca.heading_smoothing, 0.0, STEER_MAX_TIME, 0.25),
};

/* ---- Targets ------------------------------------------------------------------------------- */

/// A row's public part starts with its name, default priority and default probability.
#define ROW(name_, priority_, probability_) \
    .info.name = name_, .info.priority = priority_, .info.probability = probability_
#define TARGET(arg, field) .info.targets = {{"target", arg, AT(field)}}, .info.target_count = 1
#define POINT_OR_VEHICLE(field) TARGET(STEER_ARG_POINT_OR_VEHICLE, field)
#define VEHICLE(field) TARGET(STEER_ARG_VEHICLE, field)

/* ---- What the table's functions need besides the force ------------------------------------- */

/// Wander's jitter draws two numbers per evaluation; roaming draws none (it follows noise).
static int wander_draws(const SteerBehaviourDef *def) { return def->wander.leash == STEER_LEASH_ROAM ? 0 : 2; }
static int flock_draws(const SteerBehaviourDef *def)
{
    return def->flock.wander > 0.0 && def->flock.wander_params.leash != STEER_LEASH_ROAM ? 2 : 0;
}

static bool always(const SteerBehaviourDef *def)
{
    (void)def;
    return true;
}
/// A comfort distance changes the sums: such a separation looks for itself.
static bool separate_wants(const SteerBehaviourDef *def)
{
    return !(def->separate.comfort_distance > 0.0 && def->separate.comfort_multiplier != 1.0);
}

/// ... and then reads the grid's entries for them (steer_neighbourhood's own sum).
static bool separate_reads_grid(const SteerBehaviourDef *def) { return !separate_wants(def); }

/* The forces (behaviours_individual.c, behaviours_navigation.c, behaviours_group.c) and the debug
 * drawings (debug_draw.c). */
SteerForceFn steer_force_seek, steer_force_flee, steer_force_arrive, steer_force_pursue, steer_force_evade,
    steer_force_offset_pursue, steer_force_interpose, steer_force_hide, steer_force_wander;
SteerForceFn steer_force_follow, steer_force_avoid_obstacles, steer_force_avoid_walls, steer_force_contain,
    steer_force_follow_flow;
SteerForceFn steer_force_separate, steer_force_align, steer_force_cohere, steer_force_flock, steer_force_follow_leader,
    steer_force_queue, steer_force_avoid_collisions;
SteerForceFn steer_force_navigate; /* nav.c */
SteerForceFn steer_force_orca;
SteerForceFn steer_force_orca;
SteerBehaviourDrawFn steer_draw_wander, steer_draw_flock_wander, steer_draw_detection_box, steer_draw_feelers,
    steer_draw_orca;

/* ---- The table ----------------------------------------------------------------------------- */

const SteerBehaviourRow steer_behaviour_rows[STEER_BEHAVIOUR_COUNT] = {
    /* Fields left out are 0, NULL or false: no options, no targets, nothing more to inspect or
     * draw, no PRNG draws, no neighbourhood. */
    [STEER_SEEK] = {ROW("seek", 200, 0.8), POINT_OR_VEHICLE(seek.target),
                    .draws_target = true, .force = steer_force_seek},
    [STEER_FLEE] = {ROW("flee", 60, 0.6), OPTIONS(FLEE), POINT_OR_VEHICLE(flee.target),
                    .draws_target = true, .force = steer_force_flee},
    [STEER_ARRIVE] = {ROW("arrive", 190, 0.5), OPTIONS(ARRIVE),
                      POINT_OR_VEHICLE(arrive.target), .draws_target = true, .force = steer_force_arrive},
    [STEER_PURSUE] = {ROW("pursue", 150, 0.8), VEHICLE(pursue.target),
                      .draws_target = true, .force = steer_force_pursue},
    [STEER_EVADE] = {ROW("evade", 50, 1.0), OPTIONS(EVADE), VEHICLE(evade.target),
                     .draws_target = true, .force = steer_force_evade},
    [STEER_OFFSET_PURSUE] = {ROW("offset_pursue", 140, 0.8), OPTIONS(OFFSET_PURSUE),
                             VEHICLE(offset_pursue.target), .draws_target = true, .force = steer_force_offset_pursue},
    [STEER_INTERPOSE] = {ROW("interpose", 160, 0.8), OPTIONS(INTERPOSE),
                         .info.targets = {{"a", STEER_ARG_POINT_OR_VEHICLE, AT(interpose.a)},
                                          {"b", STEER_ARG_POINT_OR_VEHICLE, AT(interpose.b)}},
                         .info.target_count = 2, .draws_target = true, .force = steer_force_interpose},
    [STEER_HIDE] = {ROW("hide", 70, 0.8), OPTIONS(HIDE), POINT_OR_VEHICLE(hide.target),
                    .draws_target = true, .force = steer_force_hide},
    [STEER_WANDER] = {ROW("wander", 250, 0.8), OPTIONS(WANDER),
                      .info.inspect = STEER_INSPECT_WANDER_TARGET, .wander_offset = AT(wander),
                      .force = steer_force_wander, .draws = wander_draws, .debug_draw = steer_draw_wander,
                      .debug_flags = STEER_DEBUG_DRAW_WANDER},
    [STEER_FOLLOW] = {ROW("follow", 170, 0.8), OPTIONS(FOLLOW),
                      .info.targets = {{"path", STEER_ARG_PATH, AT(follow.path)}}, .info.target_count = 1,
                      .info.inspect = STEER_INSPECT_WAYPOINT, .draws_target = true, .force = steer_force_follow},
    [STEER_AVOID_OBSTACLES] = {ROW("avoid_obstacles", 20, 0.5), OPTIONS(AVOID_OBSTACLES),
                               .info.inspect = STEER_INSPECT_BOX_LENGTH, .shared_scratch = true,
                               .force = steer_force_avoid_obstacles, .debug_draw = steer_draw_detection_box,
                               .debug_flags = STEER_DEBUG_DRAW_AVOIDANCE},
    [STEER_AVOID_WALLS] = {ROW("avoid_walls", 10, 0.5), OPTIONS(AVOID_WALLS),
                           .info.inspect = STEER_INSPECT_FEELERS, .shared_scratch = true,
                           .force = steer_force_avoid_walls,
                           .debug_draw = steer_draw_feelers, .debug_flags = STEER_DEBUG_DRAW_AVOIDANCE},
    [STEER_CONTAIN] = {ROW("contain", 30, 0.5), OPTIONS(CONTAIN),
                       .force = steer_force_contain},
    [STEER_FOLLOW_FLOW] = {ROW("follow_flow", 180, 0.8), OPTIONS(FOLLOW_FLOW),
                           .info.targets = {{"field", STEER_ARG_FLOW_FIELD, AT(follow_flow.field)}},
                           .info.target_count = 1,
                           .force = steer_force_follow_flow},
    [STEER_SEPARATE] = {ROW("separate", 80, 0.2), OPTIONS(SEPARATE),
                        .force = steer_force_separate, .wants_neighbourhood = separate_wants,
                        .reads_grid = separate_reads_grid},
    [STEER_ALIGN] = {ROW("align", 100, 0.3), .force = steer_force_align,
                     .wants_neighbourhood = always},
    [STEER_COHERE] = {ROW("cohere", 110, 0.6), .force = steer_force_cohere,
                      .wants_neighbourhood = always},
    [STEER_FLOCK] = {ROW("flock", 120, 0.8), OPTIONS(FLOCK),
                     .info.inspect = STEER_INSPECT_WANDER_TARGET, .wander_offset = AT(flock.wander_params),
                     .force = steer_force_flock, .draws = flock_draws, .wants_neighbourhood = always,
                     .debug_draw = steer_draw_flock_wander, .debug_flags = STEER_DEBUG_DRAW_WANDER},
    [STEER_FOLLOW_LEADER] = {ROW("follow_leader", 130, 0.8), OPTIONS(FOLLOW_LEADER),
                             VEHICLE(follow_leader.target), .draws_target = true, .force = steer_force_follow_leader,
                             .reads_grid = always},
    [STEER_QUEUE] = {ROW("queue", 90, 0.8), OPTIONS(QUEUE), .force = steer_force_queue,
                     .reads_grid = always},
    [STEER_AVOID_COLLISIONS] = {ROW("avoid_collisions", 40, 0.5),
                                OPTIONS(AVOID_COLLISIONS), .force = steer_force_avoid_collisions,
                                .reads_grid = always},
    [STEER_NAVIGATE] = {ROW("navigate", 175, 0.8), OPTIONS(NAVIGATE), POINT_OR_VEHICLE(navigate.target),
                        .info.inspect = STEER_INSPECT_WAYPOINT, .draws_target = true,
                        .force = steer_force_navigate, .prepare = steer_nav_prepare},
    /* A post-process of the velocity (orca.c), not a force: its force is zero, so that it changes
     * no combination; the step reads the grid's entries for it. */
    [STEER_ORCA] = {ROW("orca", 5, 1.0), OPTIONS(ORCA), .force = steer_force_orca,
                    .reads_grid = always, .debug_draw = steer_draw_orca,
                    .debug_flags = STEER_DEBUG_DRAW_AVOIDANCE},
};
// clang-format on

const SteerBehaviourInfo *steer_behaviour_info(SteerBehaviour type)
{
    if ((int)type < 0 || type >= STEER_BEHAVIOUR_COUNT) return NULL;
    return &steer_behaviour_rows[type].info;
}

const SteerOptionSpec *steer_behaviour_common_options(void) { return steer_common_option_specs; }
