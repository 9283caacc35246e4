/* SPDX-License-Identifier: MIT */
/* behaviour.c - behaviour names, defaults and checks, read from each behaviour's row of the table
 * (behaviour_table.c), and switching behaviours on and off per vehicle. Everything a caller passes
 * is checked here, before any of it is stored. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "behaviour_row.h"

/// The row of a behaviour the caller has checked is one (steer_behaviours.h).
static const SteerBehaviourRow *row(SteerBehaviour type) { return &steer_behaviour_rows[type]; }
static const SteerBehaviourInfo *info_of(SteerBehaviour type) { return &steer_behaviour_rows[type].info; }

/// Where an option or target lies in a definition.
static void *field_at(SteerBehaviourDef *def, size_t offset) { return (char *)def + offset; }
static const void *field_in(const SteerBehaviourDef *def, size_t offset) { return (const char *)def + offset; }

static double number_in(const SteerBehaviourDef *def, size_t offset)
{
    double x;
    memcpy(&x, field_in(def, offset), sizeof x);
    return x;
}

static SteerVec2 vec2_in(const SteerBehaviourDef *def, size_t offset)
{
    SteerVec2 v;
    memcpy(&v, field_in(def, offset), sizeof v);
    return v;
}

static SteerTarget target_in(const SteerBehaviourDef *def, size_t offset)
{
    SteerTarget t;
    memcpy(&t, field_in(def, offset), sizeof t);
    return t;
}

/// An option whose given_offset flag is false does not count (wander without an anchor).
static bool option_given(const SteerBehaviourDef *def, const SteerOptionSpec *spec)
{
    if (!spec->given_offset) return true;
    bool given;
    memcpy(&given, field_in(def, spec->given_offset), sizeof given);
    return given;
}

const char *steer_behaviour_name(SteerBehaviour type)
{
    if ((int)type < 0 || type >= STEER_BEHAVIOUR_COUNT) return NULL;
    return info_of(type)->name;
}

bool steer_behaviour_from_name(const char *name, SteerBehaviour *out)
{
    if (!name) return false;
    for (int i = 0; i < STEER_BEHAVIOUR_COUNT; i++) {
        if (strcmp(info_of((SteerBehaviour)i)->name, name) == 0) {
            if (out) *out = (SteerBehaviour)i;
            return true;
        }
    }
    return false;
}

/// Writes an option's default (vectors and flags stay the zeroes the caller cleared them to).
static void set_default(SteerBehaviourDef *def, const SteerOptionSpec *spec)
{
    switch (spec->kind) {
    case STEER_OPTION_NUMBER:
    case STEER_OPTION_PROPORTION: memcpy(field_at(def, spec->offset), &spec->fallback, sizeof(double)); break;
    case STEER_OPTION_INTEGER: {
        int i = (int)spec->fallback;
        memcpy(field_at(def, spec->offset), &i, sizeof i);
        break;
    }
    case STEER_OPTION_LEASH: {
        SteerLeash leash = (SteerLeash)spec->fallback;
        memcpy(field_at(def, spec->offset), &leash, sizeof leash);
        break;
    }
    case STEER_OPTION_OFFSET:
    case STEER_OPTION_POINT: break;
    }
}

SteerBehaviourDef steer_default_behaviour_def(SteerBehaviour type)
{
    SteerBehaviourDef def;
    memset(&def, 0, sizeof def);
    def.type = type;
    def.weight = 1.0;
    if ((int)type < 0 || type >= STEER_BEHAVIOUR_COUNT) return def;
    const SteerBehaviourInfo *info = info_of(type);
    def.priority = info->priority;
    def.probability = info->probability;
    for (int i = 0; i < info->option_count; i++) set_default(&def, &info->options[i]);
    return def;
}

/* ---- Validation ---------------------------------------------------------------------------- */

/* The limits of steer_types.h, with the behaviour's name in front of the message ("wander: "). */
typedef struct Checker {
    const SteerWorld *world;
    const char *behaviour;
    char prefix[32]; ///< "wander: ", made on first use (prefix_of): every behaviour call is checked
} Checker;

static const char *prefix_of(Checker *c)
{
    if (c->prefix[0]) return c->prefix;
    size_t n = strlen(c->behaviour);
    if (n > sizeof c->prefix - 3) n = sizeof c->prefix - 3;
    memcpy(c->prefix, c->behaviour, n);
    memcpy(c->prefix + n, ": ", 3);
    return c->prefix;
}

static SteerResult bad(const Checker *c, const char *name, const char *what)
{
    return steer_fail(c->world, STEER_ERROR_INVALID_ARGUMENT, "%s: %s %s", c->behaviour, name, what);
}

/// An integer option in its range. One whose range reaches -1e9 takes any int: priority, an order
/// rather than a quantity (orca's counts, layers and masks have ranges of their own).
static bool integer_ok(const SteerBehaviourDef *def, const SteerOptionSpec *spec)
{
    if (spec->min <= -1e9) return true;
    int i;
    memcpy(&i, field_in(def, spec->offset), sizeof i);
    return i >= spec->min && i <= spec->max;
}

static SteerResult check_option(Checker *c, const SteerBehaviourDef *def, const SteerOptionSpec *spec)
{
    if (spec->given_offset && !option_given(def, spec)) return STEER_OK;
    if (spec->kind == STEER_OPTION_NUMBER) {
        /* Most options are numbers in range: decided here, the message made only when one is not. */
        double x = number_in(def, spec->offset);
        if (x >= spec->min && x <= spec->max) return STEER_OK; /* false for NaN */
        return steer_check_range(c->world, prefix_of(c), spec->label ? spec->label : spec->key, x, spec->min,
                                 spec->max);
    }
    const char *name = spec->label ? spec->label : spec->key;
    switch (spec->kind) {
    case STEER_OPTION_NUMBER: break; /* above */
    case STEER_OPTION_PROPORTION: {
        double x = number_in(def, spec->offset);
        if (!(isfinite(x) && x >= 0.0 && x <= 1.0)) return bad(c, name, "must be in [0, 1]");
        return STEER_OK;
    }
    case STEER_OPTION_INTEGER: {
        if (integer_ok(def, spec)) return STEER_OK;
        int i;
        memcpy(&i, field_in(def, spec->offset), sizeof i);
        return steer_fail(c->world, STEER_ERROR_INVALID_ARGUMENT, "%s: %s must be an integer in [%g, %g] (got %d)",
                          c->behaviour, name, spec->min, spec->max, i);
    }
    case STEER_OPTION_OFFSET: {
        SteerVec2 v = vec2_in(def, spec->offset);
        if (!steer_vec2_is_finite(v)) return bad(c, name, "must be finite");
        return steer_check_vector(c->world, prefix_of(c), name, v, spec->max);
    }
    case STEER_OPTION_POINT: return steer_check_point(c->world, prefix_of(c), name, vec2_in(def, spec->offset));
    case STEER_OPTION_LEASH: {
        SteerLeash leash;
        memcpy(&leash, field_in(def, spec->offset), sizeof leash);
        if (leash != STEER_LEASH_NONE && leash != STEER_LEASH_PULL && leash != STEER_LEASH_ROAM)
            return bad(c, name, "must be none, pull or roam");
        return STEER_OK;
    }
    }
    return STEER_OK;
}

static SteerResult check_target(Checker *c, const SteerBehaviourDef *def, const SteerTargetSpec *spec,
                                SteerVehicleId self)
{
    const SteerWorld *world = c->world;
    const char *name = spec->name;
    SteerTarget target = target_in(def, spec->offset);
    switch (target.kind) {
    case STEER_TARGET_POINT:
        if (spec->arg == STEER_ARG_VEHICLE)
            return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "%s: %s must be a vehicle, not a point",
                              c->behaviour, name);
        return steer_check_point(world, prefix_of(c), name, target.point);
    case STEER_TARGET_VEHICLE:
        if (!steer_vehicle_lookup(world, target.vehicle))
            return steer_fail(world, STEER_ERROR_INVALID_ID, "%s: %s names a vehicle that does not exist (%s)",
                              c->behaviour, name,
                              steer_why_no_object(world, target.vehicle.index1, target.vehicle.world));
        if (target.vehicle.index1 == self.index1)
            return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "%s: %s must be another vehicle, not itself",
                              c->behaviour, name);
        return STEER_OK;
    case STEER_TARGET_NONE:
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "%s: %s is missing", c->behaviour, name);
    }
    return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "%s: %s has an unknown kind", c->behaviour, name);
}

/// A path or flow field named by a behaviour: alive and of this world.
static SteerResult check_shape(Checker *c, const SteerBehaviourDef *def, const SteerTargetSpec *spec)
{
    const SteerWorld *world = c->world;
    if (spec->arg == STEER_ARG_PATH) {
        SteerPathId path;
        memcpy(&path, field_in(def, spec->offset), sizeof path);
        if (!steer_pool_get(&world->paths, path.index1, path.generation) || path.world != world->tag)
            return steer_fail(world, STEER_ERROR_INVALID_ID, "%s: path does not exist (%s)", c->behaviour,
                              steer_why_no_object(world, path.index1, path.world));
        return STEER_OK;
    }
    SteerFlowFieldId field;
    memcpy(&field, field_in(def, spec->offset), sizeof field);
    if (!steer_pool_get(&world->fields, field.index1, field.generation) || field.world != world->tag)
        return steer_fail(world, STEER_ERROR_INVALID_ID, "%s: flow field does not exist (%s)", c->behaviour,
                          steer_why_no_object(world, field.index1, field.world));
    return STEER_OK;
}

static bool is_shape(SteerTargetArg arg) { return arg == STEER_ARG_PATH || arg == STEER_ARG_FLOW_FIELD; }

/// Every behaviour call comes through the checks: a number in its range (most options) is
/// decided in line, and check_option (which makes the message) runs for the rest. (PROPORTION's
/// range is [0, 1], the same test.)
static inline bool number_in_range(const SteerBehaviourDef *def, const SteerOptionSpec *spec)
{
    if (spec->given_offset) return false;
    switch (spec->kind) {
    case STEER_OPTION_NUMBER:
    case STEER_OPTION_PROPORTION: {
        double x = number_in(def, spec->offset);
        return x >= spec->min && x <= spec->max; /* false for NaN */
    }
    case STEER_OPTION_INTEGER: return integer_ok(def, spec);
    default: return false;
    }
}

/// Paths and fields first, then the options in the row's order, then points and vehicles.
static SteerResult check_params(Checker *c, SteerVehicleId self, const SteerBehaviourDef *def)
{
    const SteerBehaviourInfo *info = info_of(def->type);
    for (int i = 0; i < info->target_count; i++)
        if (is_shape(info->targets[i].arg)) TRY(check_shape(c, def, &info->targets[i]));
    for (int i = 0; i < info->option_count; i++)
        if (!number_in_range(def, &info->options[i])) TRY(check_option(c, def, &info->options[i]));
    for (int i = 0; i < info->target_count; i++)
        if (!is_shape(info->targets[i].arg)) TRY(check_target(c, def, &info->targets[i], self));
    return STEER_OK;
}

static SteerResult check_behaviour_def(const SteerWorld *world, SteerVehicleId self, const SteerBehaviourDef *def)
{
    if (!def) return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "behaviour definition is NULL");
    if ((int)def->type < 0 || def->type >= STEER_BEHAVIOUR_COUNT)
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "unknown behaviour type %d", (int)def->type);
    /* Every behaviour call comes through here: snprintf was a tenth of a switch's cost. */
    const char *name = info_of(def->type)->name;
    Checker c;
    c.world = world;
    c.behaviour = name;
    c.prefix[0] = '\0';
    for (int i = 0; i < STEER_COMMON_OPTION_COUNT; i++) {
        const SteerOptionSpec *spec = &steer_common_option_specs[i];
        if (!number_in_range(def, spec)) TRY(check_option(&c, def, spec));
    }
    return check_params(&c, self, def);
}

/* ---- Per-vehicle slots --------------------------------------------------------------------- */

bool steer_slot_target_lost(const SteerWorld *world, const SteerBehaviourSlot *slot)
{
    const SteerBehaviourDef *def = &slot->def;
    const SteerBehaviourInfo *info = info_of(def->type);
    for (int i = 0; i < info->target_count; i++) {
        const SteerTargetSpec *spec = &info->targets[i];
        bool lost;
        if (spec->arg == STEER_ARG_PATH) {
            SteerPathId path;
            memcpy(&path, field_in(def, spec->offset), sizeof path);
            lost = !steer_pool_get(&world->paths, path.index1, path.generation);
        } else if (spec->arg == STEER_ARG_FLOW_FIELD) {
            SteerFlowFieldId field;
            memcpy(&field, field_in(def, spec->offset), sizeof field);
            lost = !steer_pool_get(&world->fields, field.index1, field.generation);
        } else {
            /* only the kind and the vehicle: a SteerTarget's point is of no interest here */
            SteerTargetKind kind;
            memcpy(&kind, field_in(def, spec->offset + offsetof(SteerTarget, kind)), sizeof kind);
            if (kind != STEER_TARGET_VEHICLE) continue;
            SteerVehicleId id;
            memcpy(&id, field_in(def, spec->offset + offsetof(SteerTarget, vehicle)), sizeof id);
            lost = !steer_vehicle_lookup(world, id);
        }
        if (lost) return true;
    }
    return false;
}

/// PRNG numbers one behaviour draws when evaluated (the row says: wander's jitter, say).
static int behaviour_draws(const SteerBehaviourDef *def)
{
    int (*draws)(const SteerBehaviourDef *) = row(def->type)->draws;
    return draws ? draws(def) : 0;
}

/// What a parallel step needs to know of the vehicle (world_internal.h: STEER_STEP_*). Under the
/// weighted sum every behaviour is evaluated every step, so its draws are fixed; priority stops
/// evaluating when max_force is used up and dither draws until one behaviour wins, so theirs
/// depend on the forces and the vehicle must take its turn in creation order on one thread.
static uint8_t step_class(const SteerVehicle *vehicle)
{
    if (vehicle->behaviour_count == 0) return 0;
    int draws = 0;
    bool serial = vehicle->combine == STEER_COMBINE_DITHER, entries = false;
    for (int i = 0; i < vehicle->behaviour_count; i++) {
        const SteerBehaviourDef *def = &vehicle->behaviours[i].def;
        draws += behaviour_draws(def);
        /* The obstacle and wall grids answer into one shared scratch array. */
        if (row(def->type)->shared_scratch) serial = true;
        bool (*reads_grid)(const SteerBehaviourDef *) = row(def->type)->reads_grid;
        if (reads_grid && reads_grid(def)) entries = true;
    }
    if (vehicle->combine == STEER_COMBINE_PRIORITY && draws > 0) serial = true;
    if (draws > STEER_STEP_DRAWS) serial = true;
    uint8_t c = serial ? STEER_STEP_SERIAL : (uint8_t)draws;
    if (entries) c |= STEER_STEP_ENTRIES;
    return c;
}

void steer_vehicle_refresh_group_flags(SteerVehicle *vehicle)
{
    bool wants = false;
    for (int i = 0; i < vehicle->behaviour_count; i++) {
        const SteerBehaviourDef *def = &vehicle->behaviours[i].def;
        bool (*wants_neighbourhood)(const SteerBehaviourDef *) = row(def->type)->wants_neighbourhood;
        if (wants_neighbourhood && wants_neighbourhood(def)) wants = true;
    }
    vehicle->wants_neighbourhood = wants;
    vehicle->plain_flock = false;
    steer_orca_refresh(vehicle);
    /* One flock without a leash; any other behaviour draws no random numbers (step_flock.c draws
     * the flocks' numbers of a batch first, which must stay the order of creation) and none is
     * lost. */
    int flocks = 0, flock_slot = 0;
    bool others_ok = true;
    for (int i = 0; i < vehicle->behaviour_count; i++) {
        const SteerBehaviourSlot *slot = &vehicle->behaviours[i];
        if (slot->lost) others_ok = false;
        if (slot->def.type == STEER_FLOCK) {
            flocks++;
            flock_slot = i;
            if (slot->def.flock.wander_params.leash != STEER_LEASH_NONE) others_ok = false;
            continue;
        }
        int (*draws)(const SteerBehaviourDef *) = row(slot->def.type)->draws;
        if (draws && draws(&slot->def) != 0) others_ok = false;
    }
    vehicle->plain_flock = flocks == 1 && others_ok;
    vehicle->flock_slot = (uint8_t)flock_slot;
    vehicle->step_class = step_class(vehicle);
}

void steer_vehicle_free_behaviours(SteerWorld *world, SteerVehicle *vehicle)
{
    SteerVehicleCold *cold = steer_vehicle_cold(world, vehicle);
    steer_free(&world->alloc, vehicle->behaviours, (size_t)cold->behaviour_capacity * sizeof *vehicle->behaviours);
    vehicle->behaviours = NULL;
    vehicle->behaviour_count = 0;
    cold->behaviour_capacity = 0;
    vehicle->plain_flock = false;
    steer_orca_refresh(vehicle);
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
    /* Only rows with a wander_offset have wander parameters: for the others the union holds other
     * fields (a target's kind and padding where the radius would be), so nothing is read from it. */
    size_t wander = row(slot->def.type)->wander_offset;
    double radius = wander ? number_in(&slot->def, wander + offsetof(SteerWanderParams, radius)) : 0.0;
    slot->wander_local = wander ? steer_scale(steer_vec2_from_angle(angle), radius) : steer_vec2(0.0, 0.0);
    /* Two statements: C leaves the order of a call's arguments open (GCC drew y first, clang x),
     * and the world must take the same draws on every compiler. y first keeps GCC's bits. */
    double noise_y = steer_world_random(world) * 4096.0;
    double noise_x = steer_world_random(world) * 4096.0;
    slot->noise_offset = steer_vec2(noise_x, noise_y);
    slot->roam_time = 0.0;
    slot->waypoint = 0;
    (void)vehicle;
}

/// Does this behaviour read another vehicle (not just the grid's snapshot of it) during a step?
static bool targets_vehicle(const SteerBehaviourDef *def)
{
    const SteerBehaviourInfo *info = info_of(def->type);
    for (int i = 0; i < info->target_count; i++) {
        const SteerTargetSpec *spec = &info->targets[i];
        if (spec->arg == STEER_ARG_VEHICLE) return true;
        if (spec->arg == STEER_ARG_POINT_OR_VEHICLE && target_in(def, spec->offset).kind == STEER_TARGET_VEHICLE)
            return true;
    }
    return false;
}

/// Does the new definition name another path than the slot follows? (It then starts over.)
static bool changes_path(const SteerBehaviourDef *def, const SteerBehaviourDef *old)
{
    const SteerBehaviourInfo *info = info_of(def->type);
    for (int i = 0; i < info->target_count; i++) {
        if (info->targets[i].arg != STEER_ARG_PATH) continue;
        SteerPathId a, b;
        memcpy(&a, field_in(def, info->targets[i].offset), sizeof a);
        memcpy(&b, field_in(old, info->targets[i].offset), sizeof b);
        if (a.index1 != b.index1 || a.generation != b.generation) return true;
    }
    return false;
}

/// Refreshes the vehicle's flags after its slots changed in place, and patches the grid's copies
/// of them (steer_world_index_restyle) only if the two it copies changed: that patch gathers the
/// whole grid's entries when they are not gathered yet, once per build.
static void restyle_if_changed(SteerWorld *world, SteerVehicle *vehicle)
{
    bool wants = vehicle->wants_neighbourhood;
    uint8_t step = vehicle->step_class;
    steer_vehicle_refresh_group_flags(vehicle);
    if (wants == vehicle->wants_neighbourhood && step == vehicle->step_class) {
        world->hoods_ready = false; /* as the restyle would */
        return;
    }
    steer_world_index_restyle(world, vehicle, steer_vehicle_slot(world, vehicle));
}

SteerResult steer_vehicle_set_behaviour(SteerWorld *world, SteerVehicleId id, const SteerBehaviourDef *def)
{
    STEER_ENTRY(world);
    SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle) return steer_vehicle_invalid_id(world, id);
    SteerResult checked = check_behaviour_def(world, id, def);
    /* weight, priority and probability all zero: `SteerBehaviourDef def = {0}` (no default has them) */
    if (checked != STEER_OK && def && def->weight == 0.0 && def->priority == 0 && def->probability == 0.0)
        return steer_fail_hint(world, checked, STEER_ZEROED_DEF_HINT("behaviour"));
    TRY(checked);
    if (steer_behaviour_rows[def->type].prepare) TRY(steer_behaviour_rows[def->type].prepare(world, vehicle, def));
    if (targets_vehicle(def)) world->vehicle_targets = true;

    /* A lost slot of the same type is replaced like an absent one. */
    for (int i = 0; i < vehicle->behaviour_count; i++) {
        SteerBehaviourSlot *slot = &vehicle->behaviours[i];
        if (slot->def.type != def->type) continue;
        if (slot->lost || steer_slot_target_lost(world, slot)) {
            slot->def = *def;
            memset(&slot->state, 0, sizeof slot->state);
            memset(&slot->detail, 0, sizeof slot->detail);
            slot->lost = false;
            start_slot(world, vehicle, slot);
        } else {
            /* Already on: new parameters, same internal state. A changed path restarts it. Brains
             * switch on what is already on at every think (evade the hunter, weight 3): in place,
             * and the order and the grid's copies of the flags only when something they are made
             * of changed. */
            if (memcmp(def, &slot->def, sizeof *def) == 0) { /* the same bytes: the same flags */
                world->hoods_ready = false;                  /* as the restyle would */
                return STEER_OK;
            }
            bool new_path = changes_path(def, &slot->def);
            bool same_place = def->priority == slot->def.priority; /* slot_before: (priority, type) */
            slot->def = *def;
            if (new_path) slot->waypoint = 0;
            if (!same_place) resort_slot(vehicle, i);
            restyle_if_changed(world, vehicle);
            return STEER_OK;
        }
        resort_slot(vehicle, i);
        steer_vehicle_refresh_group_flags(vehicle);
        steer_world_index_restyle(world, vehicle, steer_vehicle_slot(world, vehicle));
        return STEER_OK;
    }

    SteerVehicleCold *cold = steer_vehicle_cold(world, vehicle);
    if (vehicle->behaviour_count == cold->behaviour_capacity) {
        /* One to start with (a flocker has one behaviour): the slots of consecutive vehicles then
         * lie close together, and a step over a crowd streams through half the memory. */
        int capacity = cold->behaviour_capacity ? cold->behaviour_capacity * 2 : 1;
        SteerBehaviourSlot *slots =
            steer_realloc(&world->alloc, vehicle->behaviours, (size_t)cold->behaviour_capacity * sizeof *slots,
                          (size_t)capacity * sizeof *slots);
        if (!slots) return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
        vehicle->behaviours = slots;
        cold->behaviour_capacity = capacity;
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
    STEER_ENTRY(world);
    SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle) return steer_vehicle_invalid_id(world, id);
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
    STEER_ENTRY(world);
    SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle) return steer_vehicle_invalid_id(world, id);
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
    STEER_ENTRY(world);
    const SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle) return steer_vehicle_invalid_id(world, id);
    const char *name = steer_behaviour_name(type);
    if (!name) return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "unknown behaviour type %d", (int)type);
    int i = find_slot(world, vehicle, type);
    if (i < 0) return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "%s is not on", name);
    if (def) *def = vehicle->behaviours[i].def;
    if (state) *state = steer_slot_public_state(&vehicle->behaviours[i]);
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
