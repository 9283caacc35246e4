/* behaviour_table.c - the one table of behaviours (steer_behaviours.h): one row per behaviour with
 * its name, defaults, options, targets and the core's functions for it. The checks and defaults
 * (behaviour.c), the force dispatch (combine.c), the debug drawing (debug_draw.c) and the Lua
 * bindings read this table; nothing else lists behaviours. Adding one: docs/adding-a-behaviour.md.
 */
#include "behaviours_internal.h"

/* ---- Option specs -------------------------------------------------------------------------- */

#define AT(field) offsetof(SteerBehaviourDef, field)
#define NUMBER(key, field, lo, hi, value) {key, NULL, STEER_OPTION_NUMBER, lo, hi, value, AT(field), 0, false}
/// Lengths and distances: units, [0, STEER_MAX_LENGTH].
#define LENGTH(key, field, value) NUMBER(key, field, 0.0, STEER_MAX_LENGTH, value)
/// Lengths that divide or bound a probe: units, at least STEER_MIN_POSITIVE.
#define POSITIVE_LENGTH(key, field, value) NUMBER(key, field, STEER_MIN_POSITIVE, STEER_MAX_LENGTH, value)
#define WEIGHT(key, field, value) NUMBER(key, field, 0.0, STEER_MAX_WEIGHT, value)
#define OPTIONS(specs) specs, (int)(sizeof specs / sizeof specs[0])
#define NO_OPTIONS NULL, 0

const SteerOptionSpec steer_behaviour_common_options[STEER_COMMON_OPTION_COUNT] = {
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

/* ---- Targets ------------------------------------------------------------------------------- */

#define TARGET(arg, field) {{"target", arg, AT(field)}}, 1
#define POINT_OR_VEHICLE(field) TARGET(STEER_ARG_POINT_OR_VEHICLE, field)
#define VEHICLE(field) TARGET(STEER_ARG_VEHICLE, field)
#define NO_TARGETS {{NULL, STEER_ARG_POINT_OR_VEHICLE, 0}}, 0

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

/* The forces (behaviours_individual.c, behaviours_navigation.c, behaviours_group.c) and the debug
 * drawings (debug_draw.c). */
SteerForceFn steer_force_seek, steer_force_flee, steer_force_arrive, steer_force_pursue, steer_force_evade,
    steer_force_offset_pursue, steer_force_interpose, steer_force_hide, steer_force_wander;
SteerForceFn steer_force_follow, steer_force_avoid_obstacles, steer_force_avoid_walls, steer_force_contain,
    steer_force_follow_flow;
SteerForceFn steer_force_separate, steer_force_align, steer_force_cohere, steer_force_flock, steer_force_follow_leader,
    steer_force_queue, steer_force_avoid_collisions;
SteerBehaviourDrawFn steer_draw_wander, steer_draw_flock_wander, steer_draw_detection_box, steer_draw_feelers;

#define WANDER_DRAW steer_draw_wander, STEER_DEBUG_DRAW_WANDER
#define NO_DRAW NULL, 0

/* ---- The table ----------------------------------------------------------------------------- */

const SteerBehaviourInfo steer_behaviour_table[STEER_BEHAVIOUR_COUNT] = {
    /* name, priority, probability, options, targets, inspect, draws_target, shared_scratch,
     * wander_offset, force, draws, wants_neighbourhood, debug_draw, debug_flags */
    [STEER_SEEK] = {"seek", 200, 0.8, NO_OPTIONS, POINT_OR_VEHICLE(seek.target), 0, true, false, 0, steer_force_seek,
                    NULL, NULL, NO_DRAW},
    [STEER_FLEE] = {"flee", 60, 0.6, OPTIONS(FLEE), POINT_OR_VEHICLE(flee.target), 0, true, false, 0, steer_force_flee,
                    NULL, NULL, NO_DRAW},
    [STEER_ARRIVE] = {"arrive", 190, 0.5, OPTIONS(ARRIVE), POINT_OR_VEHICLE(arrive.target), 0, true, false, 0,
                      steer_force_arrive, NULL, NULL, NO_DRAW},
    [STEER_PURSUE] = {"pursue", 150, 0.8, NO_OPTIONS, VEHICLE(pursue.target), 0, true, false, 0, steer_force_pursue,
                      NULL, NULL, NO_DRAW},
    [STEER_EVADE] = {"evade", 50, 1.0, OPTIONS(EVADE), VEHICLE(evade.target), 0, true, false, 0, steer_force_evade,
                     NULL, NULL, NO_DRAW},
    [STEER_OFFSET_PURSUE] = {"offset_pursue", 140, 0.8, OPTIONS(OFFSET_PURSUE), VEHICLE(offset_pursue.target), 0,
                             true, false, 0, steer_force_offset_pursue, NULL, NULL, NO_DRAW},
    [STEER_INTERPOSE] = {"interpose", 160, 0.8, OPTIONS(INTERPOSE),
                         {{"a", STEER_ARG_POINT_OR_VEHICLE, AT(interpose.a)}, {"b", STEER_ARG_POINT_OR_VEHICLE, AT(interpose.b)}},
                         2, 0, true, false, 0, steer_force_interpose, NULL, NULL, NO_DRAW},
    [STEER_HIDE] = {"hide", 70, 0.8, OPTIONS(HIDE), POINT_OR_VEHICLE(hide.target), 0, true, false, 0, steer_force_hide,
                    NULL, NULL, NO_DRAW},
    [STEER_WANDER] = {"wander", 250, 0.8, OPTIONS(WANDER), NO_TARGETS, STEER_INSPECT_WANDER_TARGET, false, false,
                      AT(wander), steer_force_wander, wander_draws, NULL, WANDER_DRAW},
    [STEER_FOLLOW] = {"follow", 170, 0.8, OPTIONS(FOLLOW), {{"path", STEER_ARG_PATH, AT(follow.path)}}, 1,
                      STEER_INSPECT_WAYPOINT, true, false, 0, steer_force_follow, NULL, NULL, NO_DRAW},
    [STEER_AVOID_OBSTACLES] = {"avoid_obstacles", 20, 0.5, OPTIONS(AVOID_OBSTACLES), NO_TARGETS, STEER_INSPECT_BOX_LENGTH,
                               false, true, 0, steer_force_avoid_obstacles, NULL, NULL, steer_draw_detection_box,
                               STEER_DEBUG_DRAW_AVOIDANCE},
    [STEER_AVOID_WALLS] = {"avoid_walls", 10, 0.5, OPTIONS(AVOID_WALLS), NO_TARGETS, STEER_INSPECT_FEELERS, false, true,
                           0, steer_force_avoid_walls, NULL, NULL, steer_draw_feelers, STEER_DEBUG_DRAW_AVOIDANCE},
    [STEER_CONTAIN] = {"contain", 30, 0.5, OPTIONS(CONTAIN), NO_TARGETS, 0, false, false, 0, steer_force_contain, NULL,
                       NULL, NO_DRAW},
    [STEER_FOLLOW_FLOW] = {"follow_flow", 180, 0.8, OPTIONS(FOLLOW_FLOW),
                           {{"field", STEER_ARG_FLOW_FIELD, AT(follow_flow.field)}}, 1, 0, false, false, 0,
                           steer_force_follow_flow, NULL, NULL, NO_DRAW},
    [STEER_SEPARATE] = {"separate", 80, 0.2, OPTIONS(SEPARATE), NO_TARGETS, 0, false, false, 0, steer_force_separate,
                        NULL, separate_wants, NO_DRAW},
    [STEER_ALIGN] = {"align", 100, 0.3, NO_OPTIONS, NO_TARGETS, 0, false, false, 0, steer_force_align, NULL, always,
                     NO_DRAW},
    [STEER_COHERE] = {"cohere", 110, 0.6, NO_OPTIONS, NO_TARGETS, 0, false, false, 0, steer_force_cohere, NULL, always,
                      NO_DRAW},
    [STEER_FLOCK] = {"flock", 120, 0.8, OPTIONS(FLOCK), NO_TARGETS, STEER_INSPECT_WANDER_TARGET, false, false,
                     AT(flock.wander_params), steer_force_flock, flock_draws, always, steer_draw_flock_wander,
                     STEER_DEBUG_DRAW_WANDER},
    [STEER_FOLLOW_LEADER] = {"follow_leader", 130, 0.8, OPTIONS(FOLLOW_LEADER), VEHICLE(follow_leader.target), 0, true,
                             false, 0, steer_force_follow_leader, NULL, NULL, NO_DRAW},
    [STEER_QUEUE] = {"queue", 90, 0.8, OPTIONS(QUEUE), NO_TARGETS, 0, false, false, 0, steer_force_queue, NULL, NULL,
                     NO_DRAW},
    [STEER_AVOID_COLLISIONS] = {"avoid_collisions", 40, 0.5, OPTIONS(AVOID_COLLISIONS), NO_TARGETS, 0, false, false, 0,
                                steer_force_avoid_collisions, NULL, NULL, NO_DRAW},
};

const SteerBehaviourInfo *steer_behaviour_info(SteerBehaviour type)
{
    if ((int)type < 0 || type >= STEER_BEHAVIOUR_COUNT) return NULL;
    return &steer_behaviour_table[type];
}
