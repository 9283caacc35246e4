/* SPDX-License-Identifier: MIT */
/* fuzz_core.c - libFuzzer harness for the C core: the input bytes are decoded into a sequence of
 * calls (create, spawn, remove, setters, behaviours, shapes, queries, steps) with hostile values
 * (huge, tiny, denormal, -0, NaN, inf, at and just past each limit). After every call:
 *   - a call that failed left the world as it was (a digest of everything the API can read);
 *   - steer_world_check_state() holds (every field finite and in range, ids, order, pools, grid).
 * Any breach aborts, which libFuzzer (or the replay driver, tests/fuzz/replay.c) reports.
 * Built with clang -fsanitize=fuzzer for `make fuzz`, and with the project's compiler for the
 * replay of the corpus in `make test` and for tests/c/test_limits.c, which feeds it random bytes. */
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_support.h"
#include "world_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_VEHICLES = 48, MAX_SHAPES = 24, MAX_OPS = 400, MAX_STEPS = 60 };

typedef struct Fuzz {
    FuzzBytes in;
    SteerWorld *world;
    SteerVehicleId vehicles[MAX_VEHICLES];
    int vehicle_count;
    SteerObstacleId obstacles[MAX_SHAPES];
    int obstacle_count;
    SteerWallId walls[MAX_SHAPES];
    int wall_count;
    SteerPathId paths[MAX_SHAPES];
    int path_count;
    SteerFlowFieldId fields[MAX_SHAPES];
    int field_count;
    int steps;
} Fuzz;

/* ---- What the API can see of a world, hashed: a failed call must not change it ------------- */

static uint64_t mix(uint64_t h, uint64_t x)
{
    h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
}

static uint64_t bits(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

static uint64_t mix_vec(uint64_t h, SteerVec2 v) { return mix(mix(h, bits(v.x)), bits(v.y)); }

static uint64_t digest(const SteerWorld *world)
{
    uint64_t h = mix(0, bits(steer_world_dt(world)));
    h = mix(h, steer_world_step_count(world));
    SteerVehicleId ids[MAX_VEHICLES * 2];
    int n = steer_world_get_vehicles(world, ids, MAX_VEHICLES * 2);
    h = mix(h, (uint64_t)n);
    for (int i = 0; i < n && i < MAX_VEHICLES * 2; i++) {
        SteerVehicleState s;
        if (steer_vehicle_get(world, ids[i], &s) != STEER_OK) return 0;
        h = mix_vec(mix_vec(mix_vec(h, s.position), s.velocity), s.heading);
        h = mix(mix(mix(mix(h, bits(s.mass)), bits(s.max_speed)), bits(s.max_force)), bits(s.max_turn_rate));
        h = mix(mix(mix(mix(h, bits(s.radius)), bits(s.response_time)), bits(s.neighbor_radius)), bits(s.view_angle));
        h = mix(mix(mix(mix(h, s.flock_kinds), s.kind), s.color), s.user_data);
        h = mix(mix(h, (uint64_t)s.combine), (uint64_t)s.behaviour_count);
        SteerBehaviour types[STEER_BEHAVIOUR_COUNT];
        int count = steer_vehicle_get_behaviours(world, ids[i], types, STEER_BEHAVIOUR_COUNT);
        for (int k = 0; k < count; k++) {
            SteerBehaviourDef def;
            steer_vehicle_get_behaviour(world, ids[i], types[k], &def, NULL);
            h = mix(mix(mix(mix(h, (uint64_t)def.type), bits(def.weight)), (uint64_t)def.priority),
                    bits(def.probability));
        }
    }
    SteerObstacleId shapes[MAX_SHAPES * 2];
    h = mix(h, (uint64_t)steer_world_get_obstacles(world, shapes, MAX_SHAPES * 2));
    h = mix(h, (uint64_t)steer_world_get_walls(world, (SteerWallId *)shapes, MAX_SHAPES * 2));
    return h;
}

/// What a failure report shows: each vehicle and what its behaviours did.
static void dump(const SteerWorld *world)
{
    for (int i = 0; i < world->order_count; i++) {
        if (world->order[i] < 0) continue;
        const SteerVehicle *v = steer_pool_at(&world->vehicles, world->order[i]);
        fprintf(stderr,
                "  vehicle slot %d: p (%g, %g) v (%g, %g) mass %g max_speed %g max_force %g radius %g nr %g view_cos "
                "%g kind %u\n",
                world->order[i], v->position.x, v->position.y, v->velocity.x, v->velocity.y, v->mass, v->max_speed,
                v->max_force, v->radius, v->neighbor_radius, v->view_cos, v->kind);
        for (int k = 0; k < v->behaviour_count; k++)
            fprintf(stderr, "    %s: force (%g, %g) target (%g, %g)\n", steer_behaviour_name(v->behaviours[k].def.type),
                    v->behaviours[k].state.force.x, v->behaviours[k].state.force.y, v->behaviours[k].state.target.x,
                    v->behaviours[k].state.target.y);
    }
}

static void check(Fuzz *f, const char *after)
{
    char why[256];
    if (!steer_world_check_state(f->world, why, sizeof why)) {
        fprintf(stderr, "state check failed after %s: %s\n", after, why);
        dump(f->world);
        abort();
    }
}

/// A failing call must leave the world as it was, with a message.
static void expect_clean(Fuzz *f, SteerResult result, uint64_t before, const char *call)
{
    if (result == STEER_OK) return;
    if (digest(f->world) != before) {
        fprintf(stderr, "%s failed (%s) but changed the world\n", call, steer_world_last_error(f->world));
        abort();
    }
    if (steer_world_last_error(f->world)[0] == '\0') {
        fprintf(stderr, "%s failed without a message\n", call);
        abort();
    }
}

/* ---- Picking things -------------------------------------------------------------------------- */

static SteerVehicleId pick_vehicle(Fuzz *f)
{
    uint8_t b = fuzz_u8(&f->in);
    if (f->vehicle_count == 0 || b >= 250) {
        /* a null id, an id of another world, or a made-up one */
        SteerVehicleId bogus = {b & 1 ? 0u : (uint32_t)(b % 7) + 1u, (uint16_t)(b & 2 ? 0 : 77), (uint16_t)(b % 3)};
        return bogus;
    }
    return f->vehicles[b % f->vehicle_count];
}

static SteerTarget pick_target(Fuzz *f)
{
    if (fuzz_u8(&f->in) & 1) return steer_target_vehicle(pick_vehicle(f));
    return steer_target_point(fuzz_hostile(&f->in), fuzz_hostile(&f->in));
}

static double maybe(Fuzz *f, double normal)
{
    /* Mostly sensible values with a hostile one here and there, so that calls also succeed. */
    return fuzz_u8(&f->in) < 200 ? normal : fuzz_hostile(&f->in);
}

static void fill_wander(Fuzz *f, SteerWanderParams *w)
{
    w->radius = maybe(f, w->radius);
    w->distance = maybe(f, w->distance);
    w->jitter = maybe(f, w->jitter);
    w->leash = (SteerLeash)(fuzz_u8(&f->in) % 4);
    w->has_anchor = fuzz_u8(&f->in) & 1;
    w->anchor = steer_vec2(maybe(f, 100.0), maybe(f, 100.0));
    w->return_radius = maybe(f, w->return_radius);
    w->max_distance = maybe(f, w->max_distance);
    w->roam_rate = maybe(f, w->roam_rate);
}

static SteerBehaviourDef pick_behaviour(Fuzz *f)
{
    SteerBehaviour type = (SteerBehaviour)(fuzz_u8(&f->in) % (STEER_BEHAVIOUR_COUNT + 1));
    SteerBehaviourDef def = steer_default_behaviour_def(type);
    def.weight = maybe(f, def.weight);
    def.probability = maybe(f, def.probability);
    def.priority = (int)(int8_t)fuzz_u8(&f->in);
    switch (type) {
    case STEER_SEEK: def.seek.target = pick_target(f); break;
    case STEER_FLEE:
        def.flee.target = pick_target(f);
        def.flee.panic_distance = maybe(f, 100.0);
        break;
    case STEER_ARRIVE:
        def.arrive.target = pick_target(f);
        def.arrive.slowing_radius = maybe(f, 50.0);
        break;
    case STEER_PURSUE: def.pursue.target = pick_target(f); break;
    case STEER_EVADE:
        def.evade.target = pick_target(f);
        def.evade.threat_range = maybe(f, 0.0);
        break;
    case STEER_OFFSET_PURSUE:
        def.offset_pursue.target = pick_target(f);
        def.offset_pursue.offset = steer_vec2(maybe(f, -20.0), maybe(f, 10.0));
        def.offset_pursue.slowing_radius = maybe(f, 20.0);
        break;
    case STEER_INTERPOSE:
        def.interpose.a = pick_target(f);
        def.interpose.b = pick_target(f);
        def.interpose.slowing_radius = maybe(f, 20.0);
        break;
    case STEER_HIDE:
        def.hide.target = pick_target(f);
        def.hide.distance = maybe(f, 20.0);
        def.hide.slowing_radius = maybe(f, 20.0);
        break;
    case STEER_WANDER: fill_wander(f, &def.wander); break;
    case STEER_FOLLOW:
        if (f->path_count) def.follow.path = f->paths[fuzz_u8(&f->in) % f->path_count];
        def.follow.waypoint_radius = maybe(f, 10.0);
        def.follow.slowing_radius = maybe(f, 50.0);
        break;
    case STEER_AVOID_OBSTACLES:
        def.avoid_obstacles.detection_length = maybe(f, 50.0);
        def.avoid_obstacles.braking = maybe(f, 0.2);
        break;
    case STEER_AVOID_WALLS: def.avoid_walls.feeler_length = maybe(f, 50.0); break;
    case STEER_CONTAIN: def.contain.margin = maybe(f, 50.0); break;
    case STEER_FOLLOW_FLOW:
        if (f->field_count) def.follow_flow.field = f->fields[fuzz_u8(&f->in) % f->field_count];
        def.follow_flow.lookahead = maybe(f, 0.5);
        break;
    case STEER_SEPARATE:
        def.separate.comfort_distance = maybe(f, 10.0);
        def.separate.comfort_multiplier = maybe(f, 2.0);
        break;
    case STEER_FLOCK:
        def.flock.separation = maybe(f, 1.5);
        def.flock.alignment = maybe(f, 1.0);
        def.flock.cohesion = maybe(f, 1.0);
        def.flock.wander = maybe(f, 0.3);
        fill_wander(f, &def.flock.wander_params);
        break;
    case STEER_FOLLOW_LEADER:
        def.follow_leader.target = pick_target(f);
        def.follow_leader.behind = maybe(f, 30.0);
        def.follow_leader.sight_radius = maybe(f, 30.0);
        def.follow_leader.slowing_radius = maybe(f, 30.0);
        def.follow_leader.separation = maybe(f, 1.0);
        break;
    case STEER_QUEUE:
        def.queue.ahead = maybe(f, 30.0);
        def.queue.radius = maybe(f, 15.0);
        def.queue.braking = maybe(f, 0.8);
        break;
    case STEER_AVOID_COLLISIONS: def.avoid_collisions.horizon = maybe(f, 1.0); break;
    case STEER_ORCA:
        def.orca.horizon = maybe(f, 2.0);
        def.orca.obstacle_horizon = maybe(f, 1.0);
        def.orca.range = maybe(f, 0.0);
        def.orca.heading_smoothing = maybe(f, 0.25);
        def.orca.max_neighbors = (int)(int8_t)fuzz_u8(&f->in);
        def.orca.layer = fuzz_u8(&f->in) % 20;
        def.orca.avoids = (int)fuzz_u8(&f->in) * 300 - 1000;
        def.orca.precedence = fuzz_u8(&f->in) & 3;
        break;
    default: break;
    }
    return def;
}

/* ---- The calls --------------------------------------------------------------------------------- */

static void do_spawn(Fuzz *f)
{
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(maybe(f, fuzz_small(&f->in) * 8.0), maybe(f, fuzz_small(&f->in) * 8.0));
    def.velocity = steer_vec2(maybe(f, fuzz_small(&f->in)), maybe(f, 0.0));
    def.heading = maybe(f, 0.0);
    def.mass = maybe(f, 1.0);
    def.max_speed = maybe(f, 100.0);
    def.max_force = maybe(f, 300.0);
    def.max_turn_rate = maybe(f, 0.0);
    def.radius = maybe(f, 8.0);
    def.response_time = maybe(f, 0.25);
    def.neighbor_radius = maybe(f, 50.0);
    def.view_angle = maybe(f, 2.0 * STEER_PI);
    def.kind = fuzz_u8(&f->in) < 240 ? fuzz_u8(&f->in) % 4 : fuzz_u8(&f->in);
    def.flock_kinds = fuzz_u8(&f->in) & 1 ? 0 : (uint64_t)fuzz_u8(&f->in) << (fuzz_u8(&f->in) % 57);
    def.combine = (SteerCombine)(fuzz_u8(&f->in) % 4);
    uint64_t before = digest(f->world);
    SteerVehicleId id;
    SteerResult r = steer_vehicle_create(f->world, &def, &id);
    expect_clean(f, r, before, "spawn");
    if (r != STEER_OK) return;
    if (f->vehicle_count < MAX_VEHICLES)
        f->vehicles[f->vehicle_count++] = id;
    else
        steer_vehicle_destroy(f->world, id);
}

static void do_remove(Fuzz *f)
{
    SteerVehicleId id = pick_vehicle(f);
    uint64_t before = digest(f->world);
    expect_clean(f, steer_vehicle_destroy(f->world, id), before, "remove");
    /* Keep dead ids in the list now and then: later calls must refuse them. */
    if (fuzz_u8(&f->in) < 128) {
        for (int i = 0; i < f->vehicle_count; i++) {
            if (f->vehicles[i].index1 == id.index1 && f->vehicles[i].generation == id.generation) {
                f->vehicles[i] = f->vehicles[--f->vehicle_count];
                break;
            }
        }
    }
}

static void do_set(Fuzz *f)
{
    SteerVehicleId id = pick_vehicle(f);
    uint8_t which = fuzz_u8(&f->in) % 16;
    double x = fuzz_hostile(&f->in);
    SteerWorld *w = f->world;
    uint64_t before = digest(w);
    SteerResult r = STEER_OK;
    switch (which) {
    case 0: r = steer_vehicle_set_position(w, id, steer_vec2(x, fuzz_hostile(&f->in))); break;
    case 1: r = steer_vehicle_set_velocity(w, id, steer_vec2(x, fuzz_hostile(&f->in))); break;
    case 2: r = steer_vehicle_set_heading(w, id, x); break;
    case 3: r = steer_vehicle_set_mass(w, id, x); break;
    case 4: r = steer_vehicle_set_max_speed(w, id, x); break;
    case 5: r = steer_vehicle_set_max_force(w, id, x); break;
    case 6: r = steer_vehicle_set_max_turn_rate(w, id, x); break;
    case 7: r = steer_vehicle_set_radius(w, id, x); break;
    case 8: r = steer_vehicle_set_response_time(w, id, x); break;
    case 9: r = steer_vehicle_set_neighbor_radius(w, id, x); break;
    case 10: r = steer_vehicle_set_view_angle(w, id, x); break;
    case 11: r = steer_vehicle_set_kind(w, id, fuzz_u8(&f->in)); break;
    case 12: r = steer_vehicle_set_flock_kinds(w, id, (uint64_t)fuzz_u8(&f->in) << (fuzz_u8(&f->in) % 57)); break;
    case 13: r = steer_vehicle_set_combine(w, id, (SteerCombine)(fuzz_u8(&f->in) % 5 - 1)); break;
    case 14: r = steer_world_set_dt(w, x); break;
    default:
        steer_world_reseed(w, fuzz_u8(&f->in));
        before = digest(w);
        break;
    }
    expect_clean(f, r, before, "a setter");
}

static void do_behaviour(Fuzz *f)
{
    SteerVehicleId id = pick_vehicle(f);
    uint8_t how = fuzz_u8(&f->in);
    uint64_t before = digest(f->world);
    if (how < 200) {
        SteerBehaviourDef def = pick_behaviour(f);
        expect_clean(f, steer_vehicle_set_behaviour(f->world, id, &def), before, "set_behaviour");
    } else if (how < 240) {
        SteerBehaviour type = (SteerBehaviour)(fuzz_u8(&f->in) % (STEER_BEHAVIOUR_COUNT + 2) - 1);
        expect_clean(f, steer_vehicle_clear_behaviour(f->world, id, type), before, "clear_behaviour");
    } else {
        expect_clean(f, steer_vehicle_clear_behaviours(f->world, id), before, "clear_behaviours");
    }
    /* Reads of what was set: any id, any type. */
    SteerBehaviourDef def;
    SteerBehaviourState state;
    steer_vehicle_get_behaviour(f->world, id, (SteerBehaviour)(fuzz_u8(&f->in) % STEER_BEHAVIOUR_COUNT), &def, &state);
}

static void do_shape(Fuzz *f)
{
    SteerWorld *w = f->world;
    uint8_t which = fuzz_u8(&f->in) % 8;
    uint64_t before = digest(w);
    SteerResult r = STEER_OK;
    switch (which) {
    case 0: {
        SteerObstacleId id;
        r = steer_world_add_obstacle(w, steer_vec2(maybe(f, 100.0), maybe(f, 100.0)), maybe(f, 20.0), &id);
        if (r == STEER_OK && f->obstacle_count < MAX_SHAPES) f->obstacles[f->obstacle_count++] = id;
        break;
    }
    case 1: {
        SteerWallId id;
        r = steer_world_add_wall(w, steer_vec2(maybe(f, 0.0), maybe(f, 0.0)),
                                 steer_vec2(maybe(f, 100.0), maybe(f, 0.0)), &id);
        if (r == STEER_OK && f->wall_count < MAX_SHAPES) f->walls[f->wall_count++] = id;
        break;
    }
    case 2: {
        SteerVec2 points[6];
        int count = fuzz_u8(&f->in) % 7;
        for (int i = 0; i < count; i++) points[i] = steer_vec2(maybe(f, 50.0 * i), maybe(f, 30.0));
        SteerPathId id;
        r = steer_world_add_path(w, count ? points : NULL, count, fuzz_u8(&f->in) & 1, &id);
        if (r == STEER_OK && f->path_count < MAX_SHAPES) f->paths[f->path_count++] = id;
        break;
    }
    case 3: {
        SteerVec2 vectors[9];
        SteerFlowFieldDef def = {steer_vec2(maybe(f, 0.0), maybe(f, 0.0)), maybe(f, 50.0), fuzz_u8(&f->in) % 4,
                                 fuzz_u8(&f->in) % 4, NULL};
        if (fuzz_u8(&f->in) & 1 && def.cols * def.rows <= 9) {
            for (int i = 0; i < def.cols * def.rows; i++) vectors[i] = steer_vec2(maybe(f, 1.0), maybe(f, 0.0));
            def.vectors = vectors;
        }
        SteerFlowFieldId id;
        r = steer_world_add_flow_field(w, &def, &id);
        if (r == STEER_OK && f->field_count < MAX_SHAPES) f->fields[f->field_count++] = id;
        break;
    }
    case 4:
        if (f->field_count) {
            r = steer_flow_field_set(w, f->fields[fuzz_u8(&f->in) % f->field_count], (int)(int8_t)fuzz_u8(&f->in) % 5,
                                     fuzz_u8(&f->in) % 4, steer_vec2(fuzz_hostile(&f->in), fuzz_hostile(&f->in)));
        }
        break;
    case 5:
        if (f->obstacle_count) {
            int i = fuzz_u8(&f->in) % f->obstacle_count;
            r = steer_world_remove_obstacle(w, f->obstacles[i]);
            if (fuzz_u8(&f->in) & 1) f->obstacles[i] = f->obstacles[--f->obstacle_count];
        }
        break;
    case 6:
        if (f->wall_count) {
            int i = fuzz_u8(&f->in) % f->wall_count;
            r = steer_world_remove_wall(w, f->walls[i]);
            if (fuzz_u8(&f->in) & 1) f->walls[i] = f->walls[--f->wall_count];
        }
        break;
    default:
        if (f->path_count && (fuzz_u8(&f->in) & 1)) {
            int i = fuzz_u8(&f->in) % f->path_count;
            r = steer_world_remove_path(w, f->paths[i]);
            if (fuzz_u8(&f->in) & 1) f->paths[i] = f->paths[--f->path_count];
        } else if (f->field_count) {
            int i = fuzz_u8(&f->in) % f->field_count;
            r = steer_world_remove_flow_field(w, f->fields[i]);
            if (fuzz_u8(&f->in) & 1) f->fields[i] = f->fields[--f->field_count];
        }
        break;
    }
    expect_clean(f, r, before, "a shape call");
}

static void do_query(Fuzz *f)
{
    SteerWorld *w = f->world;
    SteerVehicleId out[MAX_VEHICLES * 2];
    SteerQueryFilter filter = steer_default_query_filter();
    bool filtered = fuzz_u8(&f->in) & 1;
    if (filtered) {
        filter.kinds = fuzz_u8(&f->in);
        filter.exclude = pick_vehicle(f);
        filter.view_angle = maybe(f, 2.0);
        filter.heading = steer_vec2(maybe(f, 1.0), maybe(f, 0.0));
    }
    uint64_t before = digest(w);
    SteerVec2 at = steer_vec2(maybe(f, 100.0), maybe(f, 100.0));
    double radius = maybe(f, 80.0);
    int capacity = fuzz_u8(&f->in) % (MAX_VEHICLES * 2 + 1);
    switch (fuzz_u8(&f->in) % 4) {
    case 0: {
        int n = steer_world_query_radius(w, at, radius, filtered ? &filter : NULL, out, capacity);
        for (int i = 0; i < n && i < capacity; i++)
            if (!steer_vehicle_is_valid(w, out[i])) abort(); /* queries return live vehicles only */
        break;
    }
    case 1: {
        SteerVehicleId found;
        if (steer_world_query_closest(w, at, radius, filtered ? &filter : NULL, &found) &&
            !steer_vehicle_is_valid(w, found))
            abort();
        break;
    }
    case 2: {
        int n = steer_world_query_neighbors(w, pick_vehicle(f), radius, out, capacity);
        for (int i = 0; i < n && i < capacity; i++)
            if (!steer_vehicle_is_valid(w, out[i])) abort();
        break;
    }
    default: {
        SteerObstacleId obstacles[MAX_SHAPES * 2];
        steer_world_query_obstacles(w, at, steer_vec2(maybe(f, 0.0), maybe(f, 0.0)), radius, obstacles,
                                    fuzz_u8(&f->in) % (MAX_SHAPES * 2 + 1));
        break;
    }
    }
    /* Queries only read (the grid they may rebuild is a cache). */
    if (digest(w) != before) {
        fprintf(stderr, "a query changed the world\n");
        abort();
    }
}

static void do_step(Fuzz *f)
{
    int n = 1 + fuzz_u8(&f->in) % 4;
    for (int i = 0; i < n && f->steps < MAX_STEPS; i++, f->steps++) {
        steer_world_step(f->world);
        check(f, "a step");
    }
}

static SteerWorld *create_world(Fuzz *f)
{
    SteerWorldDef def = steer_default_world_def();
    def.edges = (SteerEdges)(fuzz_u8(&f->in) % 4);
    def.width = maybe(f, 800.0);
    def.height = maybe(f, 600.0);
    def.dt = maybe(f, 1.0 / 60.0);
    def.seed = fuzz_u8(&f->in);
    char message[200];
    if (steer_world_def_check(&def, message, sizeof message) != STEER_OK) {
        if (message[0] == '\0') abort(); /* a refusal always says why */
        if (steer_world_create(&def)) abort();
        def = steer_default_world_def();
        def.edges = STEER_EDGES_NONE;
    }
    return steer_world_create(&def);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Fuzz f;
    memset(&f, 0, sizeof f);
    f.in = (FuzzBytes){data, size, 0};
    f.world = create_world(&f);
    if (!f.world) abort();
    check(&f, "create");
    for (int op = 0; op < MAX_OPS && !fuzz_done(&f.in); op++) {
        switch (fuzz_u8(&f.in) % 10) {
        case 0:
        case 1: do_spawn(&f); break;
        case 2: do_remove(&f); break;
        case 3: do_set(&f); break;
        case 4:
        case 5: do_behaviour(&f); break;
        case 6: do_shape(&f); break;
        case 7: do_query(&f); break;
        default: do_step(&f); break;
        }
        check(&f, "a call");
    }
    /* Whatever the calls did, the world still steps. */
    steer_world_step(f.world);
    check(&f, "the last step");
    steer_world_destroy(f.world);
    return 0;
}
