/* behaviour.c - behaviour names and defaults, and switching behaviours on and off per vehicle.
 * Everything a caller passes is checked here, before any of it is stored. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "world_internal.h"

typedef struct BehaviourInfo {
    const char *name;
    int priority;        ///< default: avoidance first, wander last (Buckland's order)
    double probability;  ///< default for dithering (Buckland's values where he gives them)
    bool group;          ///< needs the neighbourhood (group behaviours)
} BehaviourInfo;

static const BehaviourInfo INFO[STEER_BEHAVIOUR_COUNT] = {
    [STEER_AVOID_WALLS] = {"avoid_walls", 10, 0.5, false},
    [STEER_AVOID_OBSTACLES] = {"avoid_obstacles", 20, 0.5, false},
    [STEER_CONTAIN] = {"contain", 30, 0.5, false},
    [STEER_AVOID_COLLISIONS] = {"avoid_collisions", 40, 0.5, true},
    [STEER_EVADE] = {"evade", 50, 1.0, false},
    [STEER_FLEE] = {"flee", 60, 0.6, false},
    [STEER_HIDE] = {"hide", 70, 0.8, false},
    [STEER_SEPARATE] = {"separate", 80, 0.2, true},
    [STEER_QUEUE] = {"queue", 90, 0.8, true},
    [STEER_ALIGN] = {"align", 100, 0.3, true},
    [STEER_COHERE] = {"cohere", 110, 0.6, true},
    [STEER_FLOCK] = {"flock", 120, 0.8, true},
    [STEER_FOLLOW_LEADER] = {"follow_leader", 130, 0.8, true},
    [STEER_OFFSET_PURSUE] = {"offset_pursue", 140, 0.8, false},
    [STEER_PURSUE] = {"pursue", 150, 0.8, false},
    [STEER_INTERPOSE] = {"interpose", 160, 0.8, false},
    [STEER_FOLLOW] = {"follow", 170, 0.8, false},
    [STEER_FOLLOW_FLOW] = {"follow_flow", 180, 0.8, false},
    [STEER_ARRIVE] = {"arrive", 190, 0.5, false},
    [STEER_SEEK] = {"seek", 200, 0.8, false},
    [STEER_WANDER] = {"wander", 250, 0.8, false},
};

const char *steer_behaviour_name(SteerBehaviour type)
{
    if ((int)type < 0 || type >= STEER_BEHAVIOUR_COUNT) return NULL;
    return INFO[type].name;
}

bool steer_behaviour_from_name(const char *name, SteerBehaviour *out)
{
    if (!name) return false;
    for (int i = 0; i < STEER_BEHAVIOUR_COUNT; i++) {
        if (strcmp(INFO[i].name, name) == 0) {
            if (out) *out = (SteerBehaviour)i;
            return true;
        }
    }
    return false;
}

static SteerWanderParams default_wander(void)
{
    SteerWanderParams w = {0};
    w.radius = 30.0;
    w.distance = 60.0;
    w.jitter = 80.0;
    w.leash = STEER_LEASH_NONE;
    w.return_radius = 100.0;
    w.max_distance = 150.0;
    w.roam_rate = 0.25;
    return w;
}

SteerBehaviourDef steer_default_behaviour_def(SteerBehaviour type)
{
    SteerBehaviourDef def;
    memset(&def, 0, sizeof def);
    def.type = type;
    def.weight = 1.0;
    if ((int)type < 0 || type >= STEER_BEHAVIOUR_COUNT) return def;
    def.priority = INFO[type].priority;
    def.probability = INFO[type].probability;
    switch (type) {
    case STEER_ARRIVE: def.arrive.slowing_radius = 50.0; break;
    case STEER_OFFSET_PURSUE: def.offset_pursue.slowing_radius = 20.0; break;
    case STEER_INTERPOSE: def.interpose.slowing_radius = 20.0; break;
    case STEER_HIDE:
        def.hide.distance = 20.0;
        def.hide.slowing_radius = 20.0;
        break;
    case STEER_WANDER: def.wander = default_wander(); break;
    case STEER_FOLLOW:
        def.follow.waypoint_radius = 10.0;
        def.follow.slowing_radius = 50.0;
        break;
    case STEER_AVOID_OBSTACLES:
        def.avoid_obstacles.detection_length = 50.0;
        def.avoid_obstacles.braking = 0.2;
        break;
    case STEER_AVOID_WALLS: def.avoid_walls.feeler_length = 50.0; break;
    case STEER_CONTAIN: def.contain.margin = 50.0; break;
    case STEER_SEPARATE: def.separate.comfort_multiplier = 1.0; break;
    case STEER_FLOCK:
        def.flock.separation = 1.5;
        def.flock.alignment = 1.0;
        def.flock.cohesion = 1.0;
        def.flock.wander = 0.3;
        def.flock.wander_params = default_wander();
        break;
    case STEER_FOLLOW_LEADER:
        def.follow_leader.behind = 30.0;
        def.follow_leader.sight_radius = 30.0;
        def.follow_leader.slowing_radius = 30.0;
        def.follow_leader.separation = 1.0;
        break;
    case STEER_QUEUE:
        def.queue.ahead = 30.0;
        def.queue.radius = 15.0;
        def.queue.braking = 0.8;
        break;
    case STEER_AVOID_COLLISIONS: def.avoid_collisions.horizon = 1.0; break;
    default: break;
    }
    return def;
}

/* ---- Validation ---------------------------------------------------------------------------- */

static SteerResult bad(const SteerWorld *world, const SteerBehaviourDef *def, const char *what)
{
    return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "%s: %s", INFO[def->type].name, what);
}

/* The limits of steer_types.h, with the behaviour's name in front of the message ("wander: "). */
typedef struct Checker {
    const SteerWorld *world;
    char prefix[32];
} Checker;

static SteerResult in_range(const Checker *c, const char *name, double value, double lo, double hi)
{
    return steer_check_range(c->world, c->prefix, name, value, lo, hi);
}
static SteerResult length(const Checker *c, const char *name, double value) { return in_range(c, name, value, 0.0, STEER_MAX_LENGTH); }
static SteerResult positive_length(const Checker *c, const char *name, double value)
{
    return in_range(c, name, value, STEER_MIN_POSITIVE, STEER_MAX_LENGTH);
}
static SteerResult weight(const Checker *c, const char *name, double value) { return in_range(c, name, value, 0.0, STEER_MAX_WEIGHT); }
static SteerResult fraction(const Checker *c, const char *name, double value) { return in_range(c, name, value, 0.0, 1.0); }

static SteerResult check_target(const Checker *c, const SteerBehaviourDef *def, const char *name, SteerTarget target,
                                SteerVehicleId self, bool vehicle_only)
{
    const SteerWorld *world = c->world;
    switch (target.kind) {
    case STEER_TARGET_POINT:
        if (vehicle_only)
            return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "%s: %s must be a vehicle, not a point", INFO[def->type].name, name);
        return steer_check_point(world, c->prefix, name, target.point);
    case STEER_TARGET_VEHICLE:
        if (!steer_vehicle_lookup(world, target.vehicle))
            return steer_fail(world, STEER_ERROR_INVALID_ID, "%s: %s names a vehicle that does not exist", INFO[def->type].name, name);
        if (target.vehicle.index1 == self.index1)
            return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "%s: %s must be another vehicle, not itself", INFO[def->type].name, name);
        return STEER_OK;
    case STEER_TARGET_NONE:
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "%s: %s is missing", INFO[def->type].name, name);
    }
    return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "%s: %s has an unknown kind", INFO[def->type].name, name);
}

static SteerResult check_wander(const Checker *c, const SteerBehaviourDef *def, const SteerWanderParams *w)
{
    TRY(length(c, "radius", w->radius));
    TRY(length(c, "distance", w->distance));
    TRY(length(c, "jitter", w->jitter));
    if (w->leash != STEER_LEASH_NONE && w->leash != STEER_LEASH_PULL && w->leash != STEER_LEASH_ROAM)
        return bad(c->world, def, "leash must be none, pull or roam");
    if (w->has_anchor) TRY(steer_check_point(c->world, c->prefix, "anchor", w->anchor));
    TRY(positive_length(c, "return_radius", w->return_radius));
    TRY(length(c, "max_distance", w->max_distance));
    TRY(in_range(c, "roam_rate", w->roam_rate, 0.0, STEER_MAX_RATE));
    return STEER_OK;
}

static SteerResult check_params(const Checker *c, SteerVehicleId self, const SteerBehaviourDef *def)
{
    const SteerWorld *world = c->world;
    switch (def->type) {
    case STEER_SEEK: return check_target(c, def, "target", def->seek.target, self, false);
    case STEER_FLEE:
        TRY(length(c, "panic_distance", def->flee.panic_distance));
        return check_target(c, def, "target", def->flee.target, self, false);
    case STEER_ARRIVE:
        TRY(length(c, "slowing_radius", def->arrive.slowing_radius));
        return check_target(c, def, "target", def->arrive.target, self, false);
    case STEER_PURSUE: return check_target(c, def, "target", def->pursue.target, self, true);
    case STEER_EVADE:
        TRY(length(c, "threat_range", def->evade.threat_range));
        return check_target(c, def, "target", def->evade.target, self, true);
    case STEER_OFFSET_PURSUE:
        if (!steer_vec2_is_finite(def->offset_pursue.offset)) return bad(world, def, "offset must be finite");
        TRY(steer_check_vector(world, c->prefix, "offset", def->offset_pursue.offset, STEER_MAX_LENGTH));
        TRY(length(c, "slowing_radius", def->offset_pursue.slowing_radius));
        return check_target(c, def, "target", def->offset_pursue.target, self, true);
    case STEER_INTERPOSE:
        TRY(length(c, "slowing_radius", def->interpose.slowing_radius));
        TRY(check_target(c, def, "a", def->interpose.a, self, false));
        return check_target(c, def, "b", def->interpose.b, self, false);
    case STEER_HIDE:
        TRY(length(c, "distance", def->hide.distance));
        TRY(length(c, "slowing_radius", def->hide.slowing_radius));
        return check_target(c, def, "target", def->hide.target, self, false);
    case STEER_WANDER: return check_wander(c, def, &def->wander);
    case STEER_FOLLOW:
        if (!steer_pool_get(&world->paths, def->follow.path.index1, def->follow.path.generation) ||
            def->follow.path.world != world->tag)
            return steer_fail(world, STEER_ERROR_INVALID_ID, "follow: path does not exist");
        TRY(length(c, "waypoint_radius", def->follow.waypoint_radius));
        TRY(length(c, "slowing_radius", def->follow.slowing_radius));
        return STEER_OK;
    case STEER_AVOID_OBSTACLES:
        TRY(positive_length(c, "detection_length", def->avoid_obstacles.detection_length));
        if (!(isfinite(def->avoid_obstacles.braking) && def->avoid_obstacles.braking >= 0.0 && def->avoid_obstacles.braking <= 1.0))
            return bad(world, def, "braking must be in [0, 1]");
        return STEER_OK;
    case STEER_AVOID_WALLS: return positive_length(c, "feeler_length", def->avoid_walls.feeler_length);
    case STEER_CONTAIN: return positive_length(c, "margin", def->contain.margin);
    case STEER_FOLLOW_FLOW:
        if (!steer_pool_get(&world->fields, def->follow_flow.field.index1, def->follow_flow.field.generation) ||
            def->follow_flow.field.world != world->tag)
            return steer_fail(world, STEER_ERROR_INVALID_ID, "follow_flow: flow field does not exist");
        return in_range(c, "lookahead", def->follow_flow.lookahead, 0.0, STEER_MAX_TIME);
    case STEER_SEPARATE:
        TRY(length(c, "comfort_distance", def->separate.comfort_distance));
        return in_range(c, "comfort_multiplier", def->separate.comfort_multiplier, 1.0, STEER_MAX_WEIGHT);
    case STEER_ALIGN:
    case STEER_COHERE:
        return STEER_OK;
    case STEER_FLOCK:
        TRY(weight(c, "separation", def->flock.separation));
        TRY(weight(c, "alignment", def->flock.alignment));
        TRY(weight(c, "cohesion", def->flock.cohesion));
        TRY(weight(c, "wander", def->flock.wander));
        return check_wander(c, def, &def->flock.wander_params);
    case STEER_FOLLOW_LEADER:
        TRY(length(c, "behind", def->follow_leader.behind));
        TRY(length(c, "sight_radius", def->follow_leader.sight_radius));
        TRY(length(c, "slowing_radius", def->follow_leader.slowing_radius));
        TRY(weight(c, "separation", def->follow_leader.separation));
        return check_target(c, def, "target", def->follow_leader.target, self, true);
    case STEER_QUEUE:
        TRY(length(c, "ahead", def->queue.ahead));
        TRY(length(c, "radius", def->queue.radius));
        return fraction(c, "braking", def->queue.braking);
    case STEER_AVOID_COLLISIONS:
        return in_range(c, "horizon", def->avoid_collisions.horizon, STEER_MIN_POSITIVE, STEER_MAX_TIME);
    default:
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "unknown behaviour type %d", (int)def->type);
    }
}

static SteerResult check_behaviour_def(const SteerWorld *world, SteerVehicleId self, const SteerBehaviourDef *def)
{
    if (!def) return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "behaviour definition is NULL");
    if ((int)def->type < 0 || def->type >= STEER_BEHAVIOUR_COUNT)
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "unknown behaviour type %d", (int)def->type);
    Checker c = {world, {0}};
    /* Every behaviour call comes through here: snprintf was a tenth of a switch's cost. */
    const char *name = INFO[def->type].name;
    size_t n = strlen(name);
    if (n > sizeof c.prefix - 3) n = sizeof c.prefix - 3;
    memcpy(c.prefix, name, n);
    memcpy(c.prefix + n, ": ", 3);
    TRY(weight(&c, "weight", def->weight));
    if (!(isfinite(def->probability) && def->probability >= 0.0 && def->probability <= 1.0))
        return bad(world, def, "probability must be in [0, 1]");
    return check_params(&c, self, def);
}

/* ---- Per-vehicle slots --------------------------------------------------------------------- */

static bool target_lost(const SteerWorld *world, SteerTarget target)
{
    return target.kind == STEER_TARGET_VEHICLE && !steer_vehicle_lookup(world, target.vehicle);
}

bool steer_slot_target_lost(const SteerWorld *world, const SteerBehaviourSlot *slot)
{
    const SteerBehaviourDef *def = &slot->def;
    switch (def->type) {
    case STEER_SEEK: return target_lost(world, def->seek.target);
    case STEER_FLEE: return target_lost(world, def->flee.target);
    case STEER_ARRIVE: return target_lost(world, def->arrive.target);
    case STEER_PURSUE: return target_lost(world, def->pursue.target);
    case STEER_EVADE: return target_lost(world, def->evade.target);
    case STEER_OFFSET_PURSUE: return target_lost(world, def->offset_pursue.target);
    case STEER_INTERPOSE: return target_lost(world, def->interpose.a) || target_lost(world, def->interpose.b);
    case STEER_HIDE: return target_lost(world, def->hide.target);
    case STEER_FOLLOW_LEADER: return target_lost(world, def->follow_leader.target);
    case STEER_FOLLOW: return !steer_pool_get(&world->paths, def->follow.path.index1, def->follow.path.generation);
    case STEER_FOLLOW_FLOW: return !steer_pool_get(&world->fields, def->follow_flow.field.index1, def->follow_flow.field.generation);
    default: return false;
    }
}

/// PRNG numbers one behaviour draws when evaluated: wander's jitter (none when roaming: noise).
static int behaviour_draws(const SteerBehaviourDef *def)
{
    switch (def->type) {
    case STEER_WANDER: return def->wander.leash == STEER_LEASH_ROAM ? 0 : 2;
    case STEER_FLOCK: return def->flock.wander > 0.0 && def->flock.wander_params.leash != STEER_LEASH_ROAM ? 2 : 0;
    default: return 0;
    }
}

/// What a parallel step needs to know of the vehicle (world_internal.h: STEER_STEP_*). Under the
/// weighted sum every behaviour is evaluated every step, so its draws are fixed; priority stops
/// evaluating when max_force is used up and dither draws until one behaviour wins, so theirs
/// depend on the forces and the vehicle must take its turn in creation order on one thread.
static uint8_t step_class(const SteerVehicle *vehicle)
{
    if (vehicle->behaviour_count == 0) return 0;
    int draws = 0;
    bool serial = vehicle->combine == STEER_COMBINE_DITHER;
    for (int i = 0; i < vehicle->behaviour_count; i++) {
        const SteerBehaviourDef *def = &vehicle->behaviours[i].def;
        draws += behaviour_draws(def);
        /* The obstacle and wall grids answer into one shared scratch array. */
        if (def->type == STEER_AVOID_OBSTACLES || def->type == STEER_AVOID_WALLS) serial = true;
    }
    if (vehicle->combine == STEER_COMBINE_PRIORITY && draws > 0) serial = true;
    if (draws > STEER_STEP_DRAWS) serial = true;
    uint8_t c = serial ? STEER_STEP_SERIAL : (uint8_t)draws;
    if (!(vehicle->plain_flock && vehicle->combine == STEER_COMBINE_WEIGHTED && vehicle->wants_neighbourhood))
        c |= STEER_STEP_GENERAL;
    return c;
}

void steer_vehicle_refresh_group_flags(SteerVehicle *vehicle)
{
    bool wants = false;
    for (int i = 0; i < vehicle->behaviour_count; i++) {
        const SteerBehaviourDef *def = &vehicle->behaviours[i].def;
        switch (def->type) {
        case STEER_FLOCK:
        case STEER_ALIGN:
        case STEER_COHERE: wants = true; break;
        case STEER_SEPARATE:
            /* A comfort distance changes the sums: such a separation looks for itself. */
            if (!(def->separate.comfort_distance > 0.0 && def->separate.comfort_multiplier != 1.0)) wants = true;
            break;
        default: break;
        }
    }
    vehicle->wants_neighbourhood = wants;
    vehicle->plain_flock = false;
    if (vehicle->behaviour_count == 1) {
        const SteerBehaviourSlot *only = &vehicle->behaviours[0];
        vehicle->plain_flock = only->def.type == STEER_FLOCK && !only->lost &&
                               only->def.flock.wander_params.leash == STEER_LEASH_NONE;
    }
    vehicle->step_class = step_class(vehicle);
}

void steer_vehicle_free_behaviours(SteerWorld *world, SteerVehicle *vehicle)
{
    steer_free(&world->alloc, vehicle->behaviours, (size_t)vehicle->behaviour_capacity * sizeof *vehicle->behaviours);
    vehicle->behaviours = NULL;
    vehicle->behaviour_count = 0;
    vehicle->behaviour_capacity = 0;
    vehicle->plain_flock = false;
}

static bool slot_before(const SteerBehaviourDef *a, const SteerBehaviourDef *b)
{
    if (a->priority != b->priority) return a->priority < b->priority;
    return a->type < b->type;
}

/// Keeps the slots sorted by (priority, type) after slot i changed: move it to its place.
static void resort_slot(SteerVehicle *vehicle, int i)
{
    SteerBehaviourSlot moving = vehicle->behaviours[i];
    while (i > 0 && slot_before(&moving.def, &vehicle->behaviours[i - 1].def)) {
        vehicle->behaviours[i] = vehicle->behaviours[i - 1];
        i--;
    }
    while (i + 1 < vehicle->behaviour_count && slot_before(&vehicle->behaviours[i + 1].def, &moving.def)) {
        vehicle->behaviours[i] = vehicle->behaviours[i + 1];
        i++;
    }
    vehicle->behaviours[i] = moving;
}

static int find_slot(const SteerWorld *world, const SteerVehicle *vehicle, SteerBehaviour type)
{
    for (int i = 0; i < vehicle->behaviour_count; i++) {
        const SteerBehaviourSlot *slot = &vehicle->behaviours[i];
        if (slot->def.type == type) return (slot->lost || steer_slot_target_lost(world, slot)) ? -1 : i;
    }
    return -1;
}

static void start_slot(SteerWorld *world, SteerVehicle *vehicle, SteerBehaviourSlot *slot)
{
    /* A fresh wander starts at a random point of its circle; a fresh roam at a random place in
     * its noise streams, so vehicles switched on together do not move in lockstep. */
    double angle = steer_world_random(world) * 2.0 * STEER_PI;
    /* Only wander and flock have wander parameters: for the others the union holds other fields
     * (a target's kind and padding where the radius would be), so nothing is read from it. */
    bool wanders = slot->def.type == STEER_WANDER || slot->def.type == STEER_FLOCK;
    const SteerWanderParams *w = slot->def.type == STEER_FLOCK ? &slot->def.flock.wander_params : &slot->def.wander;
    slot->wander_local = wanders ? steer_scale(steer_vec2_from_angle(angle), w->radius) : steer_vec2(0.0, 0.0);
    slot->noise_offset = steer_vec2(steer_world_random(world) * 4096.0, steer_world_random(world) * 4096.0);
    slot->roam_time = 0.0;
    slot->waypoint = 0;
    (void)vehicle;
}

/// Does this behaviour read another vehicle (not just the grid's snapshot of it) during a step?
static bool targets_vehicle(const SteerBehaviourDef *def)
{
    switch (def->type) {
    case STEER_SEEK: return def->seek.target.kind == STEER_TARGET_VEHICLE;
    case STEER_FLEE: return def->flee.target.kind == STEER_TARGET_VEHICLE;
    case STEER_ARRIVE: return def->arrive.target.kind == STEER_TARGET_VEHICLE;
    case STEER_HIDE: return def->hide.target.kind == STEER_TARGET_VEHICLE;
    case STEER_INTERPOSE:
        return def->interpose.a.kind == STEER_TARGET_VEHICLE || def->interpose.b.kind == STEER_TARGET_VEHICLE;
    case STEER_PURSUE:
    case STEER_EVADE:
    case STEER_OFFSET_PURSUE:
    case STEER_FOLLOW_LEADER: return true;
    default: return false;
    }
}

SteerResult steer_vehicle_set_behaviour(SteerWorld *world, SteerVehicleId id, const SteerBehaviourDef *def)
{
    SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle) return steer_fail(world, STEER_ERROR_INVALID_ID, "vehicle was removed");
    TRY(check_behaviour_def(world, id, def));
    if (targets_vehicle(def)) world->vehicle_targets = true;

    /* A lost slot of the same type is replaced like an absent one. */
    for (int i = 0; i < vehicle->behaviour_count; i++) {
        SteerBehaviourSlot *slot = &vehicle->behaviours[i];
        if (slot->def.type != def->type) continue;
        if (slot->lost || steer_slot_target_lost(world, slot)) {
            slot->def = *def;
            memset(&slot->state, 0, sizeof slot->state);
            slot->lost = false;
            start_slot(world, vehicle, slot);
        } else {
            /* Already on: new parameters, same internal state. A changed path restarts it. */
            bool new_path = def->type == STEER_FOLLOW && (def->follow.path.index1 != slot->def.follow.path.index1 ||
                                                          def->follow.path.generation != slot->def.follow.path.generation);
            slot->def = *def;
            if (new_path) slot->waypoint = 0;
        }
        resort_slot(vehicle, i);
        steer_vehicle_refresh_group_flags(vehicle);
        steer_world_index_restyle(world, vehicle, steer_vehicle_slot(world, vehicle));
        return STEER_OK;
    }

    if (vehicle->behaviour_count == vehicle->behaviour_capacity) {
        /* One to start with (a flocker has one behaviour): the slots of consecutive vehicles then
         * lie close together, and a step over a crowd streams through half the memory. */
        int capacity = vehicle->behaviour_capacity ? vehicle->behaviour_capacity * 2 : 1;
        SteerBehaviourSlot *slots =
            steer_realloc(&world->alloc, vehicle->behaviours, (size_t)vehicle->behaviour_capacity * sizeof *slots,
                          (size_t)capacity * sizeof *slots);
        if (!slots) return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
        vehicle->behaviours = slots;
        vehicle->behaviour_capacity = capacity;
    }
    int i = vehicle->behaviour_count++;
    SteerBehaviourSlot *slot = &vehicle->behaviours[i];
    memset(slot, 0, sizeof *slot);
    slot->def = *def;
    start_slot(world, vehicle, slot);
    resort_slot(vehicle, i);
    steer_vehicle_refresh_group_flags(vehicle);
    steer_world_index_restyle(world, vehicle, steer_vehicle_slot(world, vehicle));
    return STEER_OK;
}

SteerResult steer_vehicle_clear_behaviour(SteerWorld *world, SteerVehicleId id, SteerBehaviour type)
{
    SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle) return steer_fail(world, STEER_ERROR_INVALID_ID, "vehicle was removed");
    if ((int)type < 0 || type >= STEER_BEHAVIOUR_COUNT)
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "unknown behaviour type %d", (int)type);
    for (int i = 0; i < vehicle->behaviour_count; i++) {
        if (vehicle->behaviours[i].def.type != type) continue;
        memmove(&vehicle->behaviours[i], &vehicle->behaviours[i + 1],
                (size_t)(vehicle->behaviour_count - i - 1) * sizeof *vehicle->behaviours);
        vehicle->behaviour_count--;
        break;
    }
    steer_vehicle_refresh_group_flags(vehicle);
    steer_world_index_restyle(world, vehicle, steer_vehicle_slot(world, vehicle));
    return STEER_OK;
}

SteerResult steer_vehicle_clear_behaviours(SteerWorld *world, SteerVehicleId id)
{
    SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle) return steer_fail(world, STEER_ERROR_INVALID_ID, "vehicle was removed");
    vehicle->behaviour_count = 0; /* keep the allocation: switching on again needs none */
    vehicle->wants_neighbourhood = false;
    vehicle->plain_flock = false;
    vehicle->step_class = 0;
    steer_world_index_restyle(world, vehicle, steer_vehicle_slot(world, vehicle));
    return STEER_OK;
}

bool steer_vehicle_has_behaviour(const SteerWorld *world, SteerVehicleId id, SteerBehaviour type)
{
    const SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    return vehicle && find_slot(world, vehicle, type) >= 0;
}

int steer_vehicle_get_behaviours(const SteerWorld *world, SteerVehicleId id, SteerBehaviour *out, int capacity)
{
    const SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle) return 0;
    int n = 0;
    for (int i = 0; i < vehicle->behaviour_count; i++) {
        const SteerBehaviourSlot *slot = &vehicle->behaviours[i];
        if (slot->lost || steer_slot_target_lost(world, slot)) continue;
        if (out && n < capacity) out[n] = slot->def.type;
        n++;
    }
    return n;
}

SteerResult steer_vehicle_get_behaviour(const SteerWorld *world, SteerVehicleId id, SteerBehaviour type,
                                        SteerBehaviourDef *def, SteerBehaviourState *state)
{
    const SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle) return steer_fail(world, STEER_ERROR_INVALID_ID, "vehicle was removed");
    int i = find_slot(world, vehicle, type);
    if (i < 0) {
        const char *name = steer_behaviour_name(type);
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "%s is not on", name ? name : "behaviour");
    }
    if (def) *def = vehicle->behaviours[i].def;
    if (state) *state = vehicle->behaviours[i].state;
    return STEER_OK;
}

bool steer_resolve_target(const SteerWorld *world, SteerVec2 from, SteerTarget target, SteerVec2 *position,
                          SteerVec2 *velocity)
{
    SteerVec2 p = target.point, v = {0.0, 0.0};
    if (target.kind == STEER_TARGET_VEHICLE) {
        const SteerVehicle *other = steer_vehicle_lookup(world, target.vehicle);
        if (!other) return false;
        p = other->position;
        v = other->velocity;
    }
    /* In a wrapping world the target is wherever it is nearest to `from`. */
    *position = steer_add(from, steer_world_offset(world, from, p));
    if (velocity) *velocity = v;
    return true;
}
