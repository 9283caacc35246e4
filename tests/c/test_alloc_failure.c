/* SPDX-License-Identifier: MIT */
/* test_alloc_failure.c - every allocation of the core can fail, as in Lua's own test suite: a
 * scenario (create a world, spawn past every initial capacity, switch behaviours on, add
 * obstacles, walls, paths and flow fields, step, query, remove, spawn into reused slots) runs each
 * call with the Nth allocation from then on failing, for N = 1, 2, ... until the call gets all it
 * asks for. Each failure must be STEER_ERROR_OUT_OF_MEMORY with the world unchanged; the world is
 * then stepped and queried, and a twin world built by the same calls without failures must stay
 * identical to it, bit for bit, to the end. The allocator checks that the core names the exact
 * size of every block it returns, and that nothing is left when the world is destroyed (ASan
 * checks the same for the C library's heap). */
#include "test_support.h"

#include <stdlib.h>

/* ---- An allocator that fails on request and checks sizes ------------------------------------ */

typedef struct Failing {
    long fail_from; ///< growths counted since arming; this one and every later one fail (0: none)
    long growths;
    bool failed;        ///< a growth was refused since arming
    size_t live;        ///< bytes held
    long size_mismatch; ///< calls whose old_size was not the block's size
} Failing;

/* Each block carries its size in front, so that old_size can be checked. */
typedef union Header {
    size_t size;
    max_align_t align;
} Header;

static void *failing_alloc(void *user, void *block, size_t old_size, size_t new_size)
{
    Failing *f = user;
    Header *h = block ? (Header *)block - 1 : NULL;
    if (h && h->size != old_size) f->size_mismatch++;
    if (!h && old_size != 0) f->size_mismatch++;
    size_t old = h ? h->size : 0;
    if (new_size == 0) {
        free(h);
        f->live -= old;
        return NULL;
    }
    if (new_size > old && f->fail_from > 0 && ++f->growths >= f->fail_from) {
        f->failed = true;
        return NULL;
    }
    Header *grown = realloc(h, sizeof *grown + new_size);
    if (!grown) return NULL;
    grown->size = new_size;
    f->live = f->live - old + new_size;
    return grown + 1;
}

static void arm(Failing *f, long n)
{
    f->fail_from = n;
    f->growths = 0;
    f->failed = false;
}

static void disarm(Failing *f) { f->fail_from = 0; }

/* ---- The scene: a world and the ids it handed out -------------------------------------------- */

enum { VEHICLES = 90, OBSTACLES = 24, WALLS = 12, PATHS = 3, FIELDS = 2 };

typedef struct Scene {
    SteerWorld *w;
    SteerVehicleId v[VEHICLES + 8];
    SteerObstacleId o[OBSTACLES];
    SteerWallId wall[WALLS];
    SteerPathId p[PATHS];
    SteerFlowFieldId f[FIELDS];
} Scene;

typedef SteerResult (*Op)(Scene *s, int i);

static SteerResult op_spawn(Scene *s, int i)
{
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(37.0 * i, 23.0 * (i % 17));
    def.velocity = steer_vec2(10.0, 5.0 - i % 3);
    def.kind = (uint32_t)(i % 3);
    def.radius = 4.0;
    return steer_vehicle_create(s->w, &def, &s->v[i]);
}

static SteerResult op_obstacle(Scene *s, int i)
{
    return steer_world_add_obstacle(s->w, steer_vec2(40.0 + 41.0 * i, 500.0 - 13.0 * i), 6.0 + i % 5, &s->o[i]);
}

static SteerResult op_wall(Scene *s, int i)
{
    return steer_world_add_wall(s->w, steer_vec2(30.0 * i, 700.0), steer_vec2(30.0 * i + 25.0, 760.0 + i), &s->wall[i]);
}

static SteerResult op_path(Scene *s, int i)
{
    SteerVec2 points[8];
    for (int k = 0; k < 8; k++) points[k] = steer_vec2(100.0 + 90.0 * k, 200.0 + 50.0 * i + (k % 2) * 40.0);
    return steer_world_add_path(s->w, points, 3 + 2 * i, i == 1, &s->p[i]);
}

static SteerResult op_field(Scene *s, int i)
{
    SteerVec2 vectors[12 * 10];
    for (int k = 0; k < 12 * 10; k++) vectors[k] = steer_vec2(1.0, 0.1 * (k % 7) - 0.3);
    SteerFlowFieldDef def = {steer_vec2(0.0, 0.0), 80.0 + 20.0 * i, 12, 10, i == 0 ? vectors : NULL};
    return steer_world_add_flow_field(s->w, &def, &s->f[i]);
}

/// Vehicle i gets behaviour number b of its list: every behaviour appears somewhere.
static SteerResult op_behaviour(Scene *s, int i)
{
    int vehicle = i / 4, b = i % 4;
    static const SteerBehaviour kinds[] = {
        STEER_WANDER,      STEER_SEEK,      STEER_SEPARATE,      STEER_AVOID_OBSTACLES,
        STEER_AVOID_WALLS, STEER_FOLLOW,    STEER_FOLLOW_FLOW,   STEER_PURSUE,
        STEER_FLOCK,       STEER_ARRIVE,    STEER_EVADE,         STEER_CONTAIN,
        STEER_ALIGN,       STEER_COHERE,    STEER_QUEUE,         STEER_AVOID_COLLISIONS,
        STEER_HIDE,        STEER_INTERPOSE, STEER_OFFSET_PURSUE, STEER_FOLLOW_LEADER,
        STEER_FLEE,
    };
    SteerBehaviour type = kinds[(vehicle * 3 + b * 5) % (int)(sizeof kinds / sizeof kinds[0])];
    SteerBehaviourDef def = steer_default_behaviour_def(type);
    SteerVehicleId other = s->v[(vehicle + 1) % VEHICLES], third = s->v[(vehicle + 2) % VEHICLES];
    switch (type) {
    case STEER_SEEK: def.seek.target = steer_target_point(500, 400); break;
    case STEER_FLEE: def.flee.target = steer_target_point(100, 100); break;
    case STEER_ARRIVE: def.arrive.target = steer_target_point(300, 300); break;
    case STEER_PURSUE: def.pursue.target = steer_target_vehicle(other); break;
    case STEER_EVADE: def.evade.target = steer_target_vehicle(other); break;
    case STEER_OFFSET_PURSUE: def.offset_pursue.target = steer_target_vehicle(other); break;
    case STEER_INTERPOSE:
        def.interpose.a = steer_target_vehicle(other);
        def.interpose.b = steer_target_vehicle(third);
        break;
    case STEER_HIDE: def.hide.target = steer_target_vehicle(other); break;
    case STEER_FOLLOW: def.follow.path = s->p[vehicle % PATHS]; break;
    case STEER_FOLLOW_FLOW: def.follow_flow.field = s->f[vehicle % FIELDS]; break;
    case STEER_FOLLOW_LEADER: def.follow_leader.target = steer_target_vehicle(other); break;
    default: break;
    }
    return steer_vehicle_set_behaviour(s->w, s->v[vehicle], &def);
}

/// Senses of many sizes (blocks of every size class, the tasks' scratch growing with the largest),
/// replaced (a new block) and of both types, with masks.
static SteerResult op_sense(Scene *s, int i)
{
    SteerSenseDef def = steer_default_sense_def(i % 5 == 4 ? STEER_SENSE_HEARING : STEER_SENSE_SIGHT);
    def.name = i % 7 == 3 ? "second" : "eyes";
    def.range = 80.0 + 7.0 * (i % 11);
    def.max_memories = 1 + (i * 37) % (i < VEHICLES / 2 ? 24 : 300);
    def.period = (i % 3) * 0.05;
    def.forget_after = 0.1 * (i % 4);
    def.events = (uint32_t)(i * 5) % 16;
    return steer_vehicle_add_sense(s->w, s->v[i % VEHICLES], &def, NULL);
}

/// Timers: vehicles with no sense join the sensing list too.
static SteerResult op_wake(Scene *s, int i) { return steer_vehicle_wake_in(s->w, s->v[i], 0.05 * (1 + i % 9)); }

static SteerResult op_emit(Scene *s, int i)
{
    SteerSoundDef sound = steer_default_sound_def();
    sound.position = steer_vec2(37.0 * i, 23.0 * (i % 17));
    sound.radius = 150.0;
    sound.tag = (uint32_t)(i % 3);
    return steer_world_emit(s->w, &sound);
}

static SteerResult op_step(Scene *s, int i)
{
    (void)i;
    steer_world_step(s->w);
    return STEER_OK;
}

/* A query that runs out of memory returns -1 (or false) with the world's error set, named after
 * the query: "steer_world_query_radius: out of memory". */
static SteerResult query_result(Scene *s, bool ok)
{
    if (ok) return STEER_OK;
    const char *message = steer_world_last_error(s->w);
    bool oom = strncmp(message, "steer_world_query_", 18) == 0 && strstr(message, ": out of memory") &&
               strcmp(strstr(message, ": out of memory"), ": out of memory") == 0;
    return oom ? STEER_ERROR_OUT_OF_MEMORY : STEER_ERROR_INVALID_ARGUMENT;
}

static SteerResult op_query(Scene *s, int i)
{
    SteerVehicleId out[VEHICLES + 8];
    SteerObstacleId obstacles[OBSTACLES];
    SteerVehicleId closest;
    int n = steer_world_query_radius(s->w, steer_vec2(400, 300), 250.0 + i, NULL, out, VEHICLES + 8);
    if (n < 0) return query_result(s, false);
    if (steer_vehicle_is_valid(s->w, s->v[i % VEHICLES])) {
        n = steer_world_query_neighbors(s->w, s->v[i % VEHICLES], 120.0, out, VEHICLES + 8);
        if (n < 0) return query_result(s, false);
    }
    if (!steer_world_query_closest(s->w, steer_vec2(10.0 * i, 50), 1e4, NULL, &closest) &&
        steer_world_vehicle_count(s->w) > 0)
        return query_result(s, false);
    n = steer_world_query_obstacles(s->w, steer_vec2(0, 0), steer_vec2(900, 600), 20.0, obstacles, OBSTACLES);
    return query_result(s, n >= 0);
}

static SteerResult op_remove(Scene *s, int i)
{
    SteerResult r = steer_vehicle_destroy(s->w, s->v[i]);
    if (r == STEER_OK && i % 9 == 0) r = steer_world_remove_obstacle(s->w, s->o[i / 9]);
    return r;
}

static SteerResult op_respawn(Scene *s, int i) { return op_spawn(s, i); }

static SteerResult op_remove_shapes(Scene *s, int i)
{
    (void)i;
    SteerResult r = steer_world_remove_path(s->w, s->p[2]);
    if (r == STEER_OK) r = steer_world_remove_flow_field(s->w, s->f[1]);
    if (r == STEER_OK) r = steer_world_remove_wall(s->w, s->wall[3]);
    return r;
}

/* ---- What "unchanged" and "identical" compare ------------------------------------------------ */

static uint64_t mix(uint64_t h, const void *bytes, size_t n)
{
    const unsigned char *p = bytes;
    for (size_t k = 0; k < n; k++) h = (h ^ p[k]) * 0x100000001b3ULL;
    return h;
}

#define MIX(h, value)                                                                                                  \
    do {                                                                                                               \
        __typeof__(value) v_ = (value);                                                                                \
        h = mix(h, &v_, sizeof v_);                                                                                    \
    } while (0)

/// Everything a caller can read of the world, folded into one number.
static uint64_t fingerprint(const SteerWorld *w)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    MIX(h, steer_world_time(w));
    MIX(h, steer_world_step_count(w));
    SteerVehicleId ids[VEHICLES + 8];
    int n = steer_world_get_vehicles(w, ids, VEHICLES + 8);
    MIX(h, n);
    for (int i = 0; i < n && i < VEHICLES + 8; i++) {
        SteerVehicleState st;
        assert_int_equal(steer_vehicle_get(w, ids[i], &st), STEER_OK);
        MIX(h, st.serial);
        MIX(h, st.position.x);
        MIX(h, st.position.y);
        MIX(h, st.velocity.x);
        MIX(h, st.velocity.y);
        MIX(h, st.heading.x);
        MIX(h, st.heading.y);
        MIX(h, st.force.x);
        MIX(h, st.force.y);
        MIX(h, st.kind);
        MIX(h, st.behaviour_count);
        SteerBehaviour types[STEER_BEHAVIOUR_COUNT];
        int nb = steer_vehicle_get_behaviours(w, ids[i], types, STEER_BEHAVIOUR_COUNT);
        for (int b = 0; b < nb; b++) {
            SteerBehaviourDef def;
            assert_int_equal(steer_vehicle_get_behaviour(w, ids[i], types[b], &def, NULL), STEER_OK);
            MIX(h, (int)def.type);
            MIX(h, def.weight);
            MIX(h, def.priority);
        }
    }
    SteerObstacleId obstacles[OBSTACLES];
    int no = steer_world_get_obstacles(w, obstacles, OBSTACLES);
    MIX(h, no);
    for (int i = 0; i < no && i < OBSTACLES; i++) {
        SteerVec2 c;
        double r;
        assert_true(steer_obstacle_get(w, obstacles[i], &c, &r));
        MIX(h, c.x);
        MIX(h, c.y);
        MIX(h, r);
    }
    SteerWallId walls[WALLS];
    MIX(h, steer_world_get_walls(w, walls, WALLS));
    MIX(h, steer_world_checksum(w)); /* (senses, memories, timers and sounds too) */
    MIX(h, steer_world_get_sense_events(w, NULL, 0, 0));
    return h;
}

static uint64_t fingerprint_scene(const Scene *s)
{
    uint64_t h = fingerprint(s->w);
    for (int i = 0; i < PATHS; i++) MIX(h, steer_path_get(s->w, s->p[i], NULL, 0, NULL));
    for (int i = 0; i < FIELDS; i++) MIX(h, steer_flow_field_get(s->w, s->f[i], NULL));
    return h;
}

/* ---- Running the scenario ------------------------------------------------------------------- */

typedef struct Run {
    Failing failing;
    Scene s;    ///< through the failing allocator
    Scene twin; ///< the same calls through the default allocator, never failing
    long failures;
} Run;

/// Runs op(i) on the scene with the Nth allocation on failing for N = 1, 2, ... until it succeeds;
/// checks each failure, then does the same call on the twin and compares the two.
static void run_op(Run *run, Op op, int i, const char *name)
{
    for (long n = 1;; n++) {
        uint64_t before = fingerprint_scene(&run->s);
        arm(&run->failing, n);
        SteerResult r = op(&run->s, i);
        bool failed = run->failing.failed;
        disarm(&run->failing);
        if (r == STEER_OK) break;
        if (r != STEER_ERROR_OUT_OF_MEMORY || !failed)
            fail_msg("%s(%d) with allocation %ld failing: result %d, '%s'", name, i, n, (int)r,
                     steer_world_last_error(run->s.w));
        run->failures++;
        if (fingerprint_scene(&run->s) != before)
            fail_msg("%s(%d): allocation %ld failed and the world changed", name, i, n);
        /* Usable: it steps and answers queries (and the twin steps with it). */
        assert_int_equal(op_step(&run->s, 0), STEER_OK);
        assert_int_equal(op_step(&run->twin, 0), STEER_OK);
        assert_int_equal(op_query(&run->s, i), STEER_OK);
        if (fingerprint_scene(&run->s) != fingerprint_scene(&run->twin))
            fail_msg("%s(%d): after allocation %ld failed the world no longer matches its twin", name, i, n);
    }
    assert_int_equal(op(&run->twin, i), STEER_OK);
    if (fingerprint_scene(&run->s) != fingerprint_scene(&run->twin))
        fail_msg("%s(%d): the world no longer matches its twin", name, i);
}

#define RUN_OP(run, op, i) run_op(run, op, i, #op)

static void test_every_allocation_of_a_scenario_can_fail(void **state)
{
    (void)state;
    Run *run = calloc(1, sizeof *run);
    assert_non_null(run);
    SteerWorldDef def = steer_default_world_def();
    def.width = 1200.0;
    def.height = 900.0;
    def.seed = 5;
    def.edges = STEER_EDGES_WRAP;
    def.alloc = failing_alloc;
    def.alloc_user = &run->failing;

    /* Creation: every allocation of steer_world_create fails in turn and leaves nothing behind. */
    for (long n = 1;; n++) {
        arm(&run->failing, n);
        run->s.w = steer_world_create(&def);
        disarm(&run->failing);
        if (run->s.w) break;
        assert_true(run->failing.failed);
        assert_int_equal(run->failing.live, 0);
        run->failures++;
    }
    SteerWorldDef plain = def;
    plain.alloc = NULL;
    plain.alloc_user = NULL;
    run->twin.w = steer_world_create(&plain);
    assert_non_null(run->twin.w);

    /* Past every initial capacity: pools (16), the order (16), the grid (64 vehicles, 16 slots). */
    for (int i = 0; i < VEHICLES; i++) RUN_OP(run, op_spawn, i);
    for (int i = 0; i < OBSTACLES; i++) RUN_OP(run, op_obstacle, i);
    for (int i = 0; i < WALLS; i++) RUN_OP(run, op_wall, i);
    for (int i = 0; i < PATHS; i++) RUN_OP(run, op_path, i);
    for (int i = 0; i < FIELDS; i++) RUN_OP(run, op_field, i);
    for (int i = 0; i < 4 * VEHICLES; i++) RUN_OP(run, op_behaviour, i);        /* slots grow 1, 2, 4 */
    for (int i = 0; i < VEHICLES + VEHICLES / 3; i++) RUN_OP(run, op_sense, i); /* (a third again: replaced) */
    for (int i = 0; i < VEHICLES; i += 2) RUN_OP(run, op_wake, i);
    for (int i = 0; i < 40; i++) RUN_OP(run, op_emit, i);
    for (int i = 0; i < 3; i++) RUN_OP(run, op_step, i); /* builds the obstacle and wall grids */
    for (int i = 0; i < 4; i++) RUN_OP(run, op_query, i);
    for (int i = 0; i < VEHICLES; i += 3) RUN_OP(run, op_remove, i);
    RUN_OP(run, op_remove_shapes, 0);
    for (int i = 0; i < 2; i++) RUN_OP(run, op_step, i);                    /* the shape grids again, after removals */
    for (int i = 0; i < VEHICLES; i += 3) RUN_OP(run, op_respawn, i);       /* into reused slots */
    for (int i = VEHICLES; i < VEHICLES + 8; i++) RUN_OP(run, op_spawn, i); /* and new ones */
    for (int i = 0; i < 30; i++) RUN_OP(run, op_step, i);
    RUN_OP(run, op_query, 7);

    /* Every allocation that could fail did, somewhere (a few hundred of them). */
    assert_true(run->failures > 100);
    assert_int_equal(run->failing.size_mismatch, 0);
    steer_world_destroy(run->s.w);
    steer_world_destroy(run->twin.w);
    assert_int_equal(run->failing.live, 0);
    assert_int_equal(run->failing.size_mismatch, 0);
    free(run);
}

/// A grid growth that fails half way leaves every array at its size: the sizes the allocator is
/// told later stay exact (checked by its header), with the failure at each of the arrays in turn.
static void test_a_failed_grid_growth_keeps_every_block_size(void **state)
{
    (void)state;
    for (long n = 1; n <= 24; n++) {
        Failing f = {0};
        SteerWorldDef def = steer_default_world_def();
        def.alloc = failing_alloc;
        def.alloc_user = &f;
        SteerWorld *w = steer_world_create(&def);
        assert_non_null(w);
        Scene s = {.w = w};
        for (int i = 0; i < 64; i++) assert_int_equal(op_spawn(&s, i), STEER_OK);
        arm(&f, n); /* the 65th vehicle grows the grid's by-vehicle arrays from 64 to 128 */
        SteerResult r = op_spawn(&s, 64);
        disarm(&f);
        assert_true(r == STEER_OK || r == STEER_ERROR_OUT_OF_MEMORY);
        assert_int_equal(steer_world_vehicle_count(w), r == STEER_OK ? 65 : 64);
        for (int i = 65; i < 200; i++) assert_int_equal(op_spawn(&s, i % VEHICLES), STEER_OK);
        steer_world_step(w);
        steer_world_destroy(w);
        assert_int_equal(f.live, 0);
        assert_int_equal(f.size_mismatch, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_allocation_of_a_scenario_can_fail),
        cmocka_unit_test(test_a_failed_grid_growth_keeps_every_block_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
