/* SPDX-License-Identifier: MIT */
/* test_threads.c - the step on a pool of threads (src/core/thread_pool.c, world.c's step_on_pool,
 * the parallel passes of grid.c and neighbourhood.c): the same world stepped with 1, 2, 3 and 8
 * threads must end in the same bits - positions, velocities, headings, every behaviour's
 * inspector state, the PRNG - step after step, with every behaviour, obstacles, walls, paths, a
 * flow field, leaders, removals and spawns while it runs, in every kind of edges. A game's own
 * job system (SteerWorldDef.enqueue_task, finish_task) must give the same bits too, whatever
 * order it runs the ranges in: the small ones below have threads of their own or run at once.
 *
 * The worlds here are small, so that the suite stays quick under ThreadSanitizer (make
 * test-tsan): each lowers parallel_min, the size below which a world steps on one thread, so the
 * pool runs anyway. */
#include "test_support.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "world_internal.h"

#define STEPS 36

/* ---- Digest ----------------------------------------------------------------------------------- */

static uint64_t mix(uint64_t h, const void *data, size_t size)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < size; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static uint64_t mix_vec(uint64_t h, SteerVec2 v)
{
    h = mix(h, &v.x, sizeof v.x);
    return mix(h, &v.y, sizeof v.y);
}

/// Everything a step leaves behind that scripts and inspectors can see, in creation order.
static uint64_t digest(SteerWorld *world)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    int n = steer_world_vehicle_count(world);
    SteerVehicleId *ids = malloc((size_t)(n > 0 ? n : 1) * sizeof *ids);
    assert_non_null(ids);
    steer_world_get_vehicles(world, ids, n);
    for (int i = 0; i < n; i++) {
        SteerVehicleState s;
        assert_int_equal(steer_vehicle_get(world, ids[i], &s), STEER_OK);
        h = mix_vec(h, s.position);
        h = mix_vec(h, s.velocity);
        h = mix_vec(h, s.heading);
        SteerBehaviour types[STEER_BEHAVIOUR_COUNT];
        int count = steer_vehicle_get_behaviours(world, ids[i], types, STEER_BEHAVIOUR_COUNT);
        h = mix(h, &count, sizeof count);
        for (int b = 0; b < count; b++) {
            SteerBehaviourState st;
            assert_int_equal(steer_vehicle_get_behaviour(world, ids[i], types[b], NULL, &st), STEER_OK);
            h = mix(h, &types[b], sizeof types[b]);
            h = mix_vec(h, st.force);
            h = mix(h, &st.kept, sizeof st.kept);
            h = mix(h, &st.evaluated, sizeof st.evaluated);
            h = mix_vec(h, st.target);
            h = mix_vec(h, st.wander_target);
            h = mix(h, &st.waypoint, sizeof st.waypoint);
        }
    }
    free(ids);
    /* where the generator stands: the next number scripts would get */
    SteerPcg32 rng = world->rng;
    uint32_t next = steer_pcg32_next(&rng);
    return mix(h, &next, sizeof next);
}

/* ---- Job systems of a game (SteerWorldDef.enqueue_task, finish_task) ------------------------------ */

/// How a test's job system runs the items of a task.
typedef enum JobOrder {
    THREADS_IN_ORDER, ///< its own pthreads take items from the first, the finishing caller helping
    THREADS_REVERSED, ///< the same, from the last item to the first
    AT_ONCE,          ///< every item at once inside enqueue_task, which then returns NULL
    AT_ONCE_REVERSED, ///< every item inside enqueue_task, last first, one range each; finish_task still called
} JobOrder;

#define JOB_WORKERS 3

/// A small job system with threads of its own, everything under one lock: one task at a time
/// (steer finishes each before it enqueues the next).
typedef struct JobSystem {
    JobOrder order;
    pthread_t threads[JOB_WORKERS];
    pthread_mutex_t lock;
    pthread_cond_t wake, finished;
    bool stop;
    SteerTaskCallback task;
    void *task_context;
    int item_count, claimed, done;
    bool outstanding;
    int enqueued, finishes;     ///< tasks enqueued, finish_task calls
    int ran[STEER_MAX_THREADS]; ///< how often each item ran, over every task
} JobSystem;

/// Claims the next item under the lock (-1 when none is left).
static int claim(JobSystem *jobs)
{
    if (!jobs->outstanding || jobs->claimed == jobs->item_count) return -1;
    int k = jobs->claimed++;
    return jobs->order == THREADS_REVERSED ? jobs->item_count - 1 - k : k;
}

/// Runs item `item` outside the lock, then counts it done; called and returns with the lock held.
static void run_item(JobSystem *jobs, int item, uint32_t worker)
{
    SteerTaskCallback task = jobs->task;
    void *context = jobs->task_context;
    jobs->ran[item]++;
    pthread_mutex_unlock(&jobs->lock);
    task(item, item + 1, worker, context);
    pthread_mutex_lock(&jobs->lock);
    if (++jobs->done == jobs->item_count) pthread_cond_broadcast(&jobs->finished);
}

static void *job_worker(void *arg)
{
    JobSystem *jobs = arg;
    pthread_mutex_lock(&jobs->lock);
    uint32_t worker = 1;
    for (int i = 0; i < JOB_WORKERS; i++)
        if (pthread_equal(jobs->threads[i], pthread_self())) worker = (uint32_t)i + 1;
    while (!jobs->stop) {
        int item = claim(jobs);
        if (item < 0)
            pthread_cond_wait(&jobs->wake, &jobs->lock);
        else
            run_item(jobs, item, worker);
    }
    pthread_mutex_unlock(&jobs->lock);
    return NULL;
}

static void *job_enqueue(SteerTaskCallback task, int item_count, int min_range, void *task_context, void *user_context)
{
    JobSystem *jobs = user_context;
    assert_true(min_range >= 1);
    assert_true(item_count >= 2 && item_count <= STEER_MAX_THREADS);
    jobs->enqueued++;
    if (jobs->order == AT_ONCE) {
        for (int t = 0; t < item_count; t++) jobs->ran[t]++;
        task(0, item_count, 0, task_context);
        return NULL;
    }
    if (jobs->order == AT_ONCE_REVERSED) {
        for (int t = item_count - 1; t >= 0; t--) {
            jobs->ran[t]++;
            task(t, t + 1, 0, task_context);
        }
        return jobs;
    }
    pthread_mutex_lock(&jobs->lock);
    assert_false(jobs->outstanding);
    jobs->task = task;
    jobs->task_context = task_context;
    jobs->item_count = item_count;
    jobs->claimed = jobs->done = 0;
    jobs->outstanding = true;
    pthread_cond_broadcast(&jobs->wake);
    pthread_mutex_unlock(&jobs->lock);
    return jobs;
}

static void job_finish(void *user_task, void *user_context)
{
    JobSystem *jobs = user_context;
    assert_ptr_equal(user_task, jobs);
    jobs->finishes++;
    if (jobs->order == AT_ONCE_REVERSED) return;
    pthread_mutex_lock(&jobs->lock);
    for (int item; (item = claim(jobs)) >= 0;) run_item(jobs, item, 0); /* the caller helps */
    while (jobs->done < jobs->item_count) pthread_cond_wait(&jobs->finished, &jobs->lock);
    jobs->outstanding = false;
    pthread_mutex_unlock(&jobs->lock);
}

static void job_system_start(JobSystem *jobs, JobOrder order)
{
    memset(jobs, 0, sizeof *jobs);
    jobs->order = order;
    assert_int_equal(pthread_mutex_init(&jobs->lock, NULL), 0);
    assert_int_equal(pthread_cond_init(&jobs->wake, NULL), 0);
    assert_int_equal(pthread_cond_init(&jobs->finished, NULL), 0);
    if (order == AT_ONCE || order == AT_ONCE_REVERSED) return;
    pthread_mutex_lock(&jobs->lock); /* the workers read threads[] for their index */
    for (int i = 0; i < JOB_WORKERS; i++)
        assert_int_equal(pthread_create(&jobs->threads[i], NULL, job_worker, jobs), 0);
    pthread_mutex_unlock(&jobs->lock);
}

static void job_system_stop(JobSystem *jobs)
{
    pthread_mutex_lock(&jobs->lock);
    jobs->stop = true;
    pthread_cond_broadcast(&jobs->wake);
    pthread_mutex_unlock(&jobs->lock);
    if (jobs->order == THREADS_IN_ORDER || jobs->order == THREADS_REVERSED)
        for (int i = 0; i < JOB_WORKERS; i++) pthread_join(jobs->threads[i], NULL);
    pthread_cond_destroy(&jobs->finished);
    pthread_cond_destroy(&jobs->wake);
    pthread_mutex_destroy(&jobs->lock);
}

/// The job system the next worlds of world_with() step with; NULL: their own threads.
static JobSystem *jobs_in_use;

/* ---- Scenes ----------------------------------------------------------------------------------- */

typedef enum Scene {
    FLOCK,    ///< plain flockers only, a few on the very same points: step_flock.c on every thread
    MIXED,    ///< every behaviour that may run on the pool, leaders (two passes), removals
    SERIAL,   ///< MIXED plus what must keep to one thread: obstacles, walls, priority, dither
    NAVIGATE, ///< vehicles navigating around walls and obstacles (plans before the step, forces on the pool)
} Scene;

static SteerWorld *world_with(int threads, SteerEdges edges, uint64_t seed)
{
    SteerWorldDef def = steer_default_world_def();
    def.width = 900.0;
    def.height = 700.0;
    def.edges = edges;
    def.seed = seed;
    def.threads = threads;
    if (jobs_in_use) {
        def.enqueue_task = job_enqueue;
        def.finish_task = job_finish;
        def.user_task_context = jobs_in_use;
    }
    SteerWorld *world = steer_world_create(&def);
    assert_non_null(world);
    assert_true(threads < 2 || world->pool != NULL);
    world->parallel_min = 1;
    world->prefetch_min = 1; /* the large worlds' path, under the sanitizers too */
    return world;
}

static SteerVehicleId spawn_random(SteerWorld *world, uint32_t kind)
{
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(steer_world_random(world) * 900.0, steer_world_random(world) * 700.0);
    double angle = steer_world_random(world) * 2.0 * STEER_PI;
    def.velocity = steer_scale(steer_vec2_from_angle(angle), 20.0 + 60.0 * steer_world_random(world));
    def.neighbor_radius = 35.0;
    def.kind = kind;
    SteerVehicleId id;
    assert_int_equal(steer_vehicle_create(world, &def, &id), STEER_OK);
    return id;
}

/// One vehicle of the mixed scenes: behaviour `which` (cycling through every kind of vehicle).
static void mixed_vehicle(SteerWorld *world, int which, SteerPathId path, SteerFlowFieldId field, SteerVehicleId leader,
                          SteerVehicleId other, bool serial)
{
    SteerVehicleId id = spawn_random(world, (uint32_t)(which % 3));
    SteerBehaviourDef d;
    switch (which % (serial ? 20 : 16)) {
    case 0:
    case 1:
        d = steer_default_behaviour_def(STEER_FLOCK);
        turn_on(world, id, &d);
        break;
    case 2:
        d = steer_default_behaviour_def(STEER_WANDER);
        turn_on(world, id, &d);
        break;
    case 3:
        d = steer_default_behaviour_def(STEER_WANDER);
        d.wander.leash = which % 2 ? STEER_LEASH_PULL : STEER_LEASH_ROAM;
        turn_on(world, id, &d);
        d = steer_default_behaviour_def(STEER_SEPARATE);
        d.separate.comfort_distance = 15.0;
        d.separate.comfort_multiplier = 3.0;
        turn_on(world, id, &d);
        break;
    case 4:
        d = steer_default_behaviour_def(STEER_FOLLOW);
        d.follow.path = path;
        turn_on(world, id, &d);
        break;
    case 5:
        d = steer_default_behaviour_def(STEER_FOLLOW_LEADER);
        d.follow_leader.target = steer_target_vehicle(leader);
        turn_on(world, id, &d);
        break;
    case 6:
        d = steer_default_behaviour_def(STEER_ARRIVE);
        d.arrive.target = steer_target_point(450.0, 350.0);
        turn_on(world, id, &d);
        d = steer_default_behaviour_def(STEER_QUEUE);
        turn_on(world, id, &d);
        d = steer_default_behaviour_def(STEER_ORCA); /* reciprocal avoidance: a post-process */
        d.orca.layer = which % 2;
        d.orca.precedence = which % 3 == 0;
        turn_on(world, id, &d);
        break;
    case 7:
        d = steer_default_behaviour_def(STEER_PURSUE);
        d.pursue.target = steer_target_vehicle(other);
        turn_on(world, id, &d);
        d = steer_default_behaviour_def(STEER_AVOID_COLLISIONS);
        turn_on(world, id, &d);
        break;
    case 8:
        d = steer_default_behaviour_def(STEER_EVADE);
        d.evade.target = steer_target_vehicle(other);
        turn_on(world, id, &d);
        d = steer_default_behaviour_def(STEER_ALIGN);
        turn_on(world, id, &d);
        d = steer_default_behaviour_def(STEER_COHERE);
        turn_on(world, id, &d);
        break;
    case 9:
        d = steer_default_behaviour_def(STEER_FOLLOW_FLOW);
        d.follow_flow.field = field;
        turn_on(world, id, &d);
        d = steer_default_behaviour_def(STEER_CONTAIN);
        turn_on(world, id, &d);
        break;
    case 10:
        d = steer_default_behaviour_def(STEER_FLOCK); /* a view cone: the neighbourhoods' general path */
        turn_on(world, id, &d);
        assert_int_equal(steer_vehicle_set_view_angle(world, id, 2.0), STEER_OK);
        break;
    case 11:
        d = steer_default_behaviour_def(STEER_FLOCK); /* flocks with two kinds only */
        turn_on(world, id, &d);
        assert_int_equal(steer_vehicle_set_flock_kinds(world, id, 3), STEER_OK);
        break;
    case 12:
        d = steer_default_behaviour_def(STEER_OFFSET_PURSUE);
        d.offset_pursue.target = steer_target_vehicle(leader);
        d.offset_pursue.offset = steer_vec2(-20.0, 15.0);
        turn_on(world, id, &d);
        break;
    case 13:
        d = steer_default_behaviour_def(STEER_INTERPOSE);
        d.interpose.a = steer_target_vehicle(leader);
        d.interpose.b = steer_target_vehicle(other);
        turn_on(world, id, &d);
        d = steer_default_behaviour_def(STEER_WANDER);
        d.weight = 0.5;
        turn_on(world, id, &d);
        break;
    case 14:
        d = steer_default_behaviour_def(STEER_SEEK);
        d.seek.target = steer_target_point(100.0, 600.0);
        turn_on(world, id, &d);
        d = steer_default_behaviour_def(STEER_FLEE);
        d.flee.target = steer_target_point(120.0, 580.0);
        d.flee.panic_distance = 80.0;
        turn_on(world, id, &d);
        assert_int_equal(steer_vehicle_set_combine(world, id, STEER_COMBINE_PRIORITY), STEER_OK); /* draws nothing */
        break;
    case 15:
        break; /* no behaviour at all: drifts */
    /* What keeps a step's forces on one thread: */
    case 16:
        d = steer_default_behaviour_def(STEER_AVOID_OBSTACLES);
        turn_on(world, id, &d);
        d = steer_default_behaviour_def(STEER_WANDER);
        turn_on(world, id, &d);
        break;
    case 17:
        d = steer_default_behaviour_def(STEER_AVOID_WALLS);
        turn_on(world, id, &d);
        d = steer_default_behaviour_def(STEER_SEEK);
        d.seek.target = steer_target_point(800.0, 100.0);
        turn_on(world, id, &d);
        break;
    case 18:
        d = steer_default_behaviour_def(STEER_HIDE);
        d.hide.target = steer_target_vehicle(other);
        turn_on(world, id, &d);
        d = steer_default_behaviour_def(STEER_WANDER);
        turn_on(world, id, &d);
        assert_int_equal(steer_vehicle_set_combine(world, id, STEER_COMBINE_DITHER), STEER_OK);
        break;
    case 19:
        d = steer_default_behaviour_def(STEER_FLOCK);
        turn_on(world, id, &d);
        d = steer_default_behaviour_def(STEER_SEEK);
        d.seek.target = steer_target_point(300.0, 300.0);
        turn_on(world, id, &d);
        assert_int_equal(steer_vehicle_set_combine(world, id, STEER_COMBINE_PRIORITY), STEER_OK);
        break;
    }
}

/// Walls, obstacles and 300 navigators (to points, to each other, some with a wander part).
static void build_navigate(SteerWorld *world, SteerVehicleId *leader)
{
    for (int i = 0; i < 5; i++) {
        SteerWallId w;
        assert_int_equal(steer_world_add_wall(world, steer_vec2(150.0 * (i + 1), 80.0 + 40.0 * (i % 2)),
                                              steer_vec2(150.0 * (i + 1), 560.0 + 40.0 * (i % 2)), &w),
                         STEER_OK);
        SteerObstacleId o;
        assert_int_equal(steer_world_add_obstacle(world, steer_vec2(75.0 + 150.0 * i, 350.0), 25.0, &o), STEER_OK);
    }
    *leader = spawn_random(world, 0);
    SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
    turn_on(world, *leader, &wander);
    SteerVehicleId previous = *leader;
    for (int i = 0; i < 300; i++) {
        SteerVehicleId id = spawn_random(world, (uint32_t)(i % 2));
        SteerBehaviourDef d = steer_default_behaviour_def(STEER_NAVIGATE);
        d.navigate.target = i % 3 == 0
                                ? steer_target_vehicle(previous)
                                : steer_target_point(30.0 + (double)((i * 97) % 840), 30.0 + (double)((i * 61) % 640));
        d.navigate.radius = 4.0 + (double)(i % 4);
        d.navigate.cell_size = i % 5 == 0 ? 12.0 : 8.0;
        turn_on(world, id, &d);
        if (i % 4 == 1) {
            SteerBehaviourDef w = steer_default_behaviour_def(STEER_WANDER);
            w.weight = 0.3;
            turn_on(world, id, &w);
        }
        previous = id;
    }
}

static void build(SteerWorld *world, Scene scene, SteerVehicleId *leader)
{
    if (scene == NAVIGATE) {
        build_navigate(world, leader);
        return;
    }
    if (scene == FLOCK) {
        for (int i = 0; i < 700; i++) {
            SteerVehicleId id = spawn_random(world, 0);
            SteerBehaviourDef d = steer_default_behaviour_def(STEER_FLOCK);
            turn_on(world, id, &d);
        }
        /* three stacks of vehicles on the very same point: the pre-pass's second look */
        for (int s = 0; s < 3; s++)
            for (int i = 0; i < 3; i++) {
                SteerVehicleId id = spawn_at(world, 100.0 + 250.0 * s, 200.0 + 100.0 * s);
                SteerBehaviourDef d = steer_default_behaviour_def(STEER_FLOCK);
                turn_on(world, id, &d);
            }
        *leader = steer_vehicle_id_unpack(0);
        return;
    }
    bool serial = scene == SERIAL;
    SteerVec2 points[] = {{100, 100}, {700, 150}, {750, 600}, {150, 550}};
    SteerPathId path;
    assert_int_equal(steer_world_add_path(world, points, 4, true, &path), STEER_OK);
    SteerVec2 vectors[12];
    for (int i = 0; i < 12; i++) vectors[i] = steer_vec2_from_angle(0.5 * i);
    SteerFlowFieldDef fd = {steer_vec2(0.0, 0.0), 250.0, 4, 3, vectors};
    SteerFlowFieldId field;
    assert_int_equal(steer_world_add_flow_field(world, &fd, &field), STEER_OK);
    if (serial) {
        for (int i = 0; i < 12; i++) {
            SteerObstacleId o;
            assert_int_equal(
                steer_world_add_obstacle(world, steer_vec2(60.0 + 70.0 * i, 80.0 + 45.0 * i), 12.0 + i, &o), STEER_OK);
        }
        for (int i = 0; i < 6; i++) {
            SteerWallId w;
            assert_int_equal(steer_world_add_wall(world, steer_vec2(100.0 + 120.0 * i, 400.0),
                                                  steer_vec2(160.0 + 120.0 * i, 480.0), &w),
                             STEER_OK);
        }
    }
    *leader = spawn_random(world, 0);
    SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
    turn_on(world, *leader, &wander);
    SteerVehicleId other = spawn_random(world, 1);
    turn_on(world, other, &wander);
    for (int i = 0; i < 500; i++) mixed_vehicle(world, i, path, field, *leader, other, serial);
}

/// Removes a few vehicles the world's PRNG picks (the leader among them at step 12) and spawns
/// flockers in their place: holes in the creation order, reused slots, lost targets.
static void churn(SteerWorld *world, int step, SteerVehicleId leader)
{
    int n = steer_world_vehicle_count(world);
    SteerVehicleId *ids = malloc((size_t)n * sizeof *ids);
    assert_non_null(ids);
    steer_world_get_vehicles(world, ids, n);
    for (int k = 0; k < 6; k++) {
        SteerVehicleId victim = ids[steer_world_random_u32(world) % (uint32_t)n];
        if (steer_vehicle_is_valid(world, victim)) steer_vehicle_destroy(world, victim);
    }
    if (step == 12 && steer_vehicle_is_valid(world, leader)) steer_vehicle_destroy(world, leader);
    for (int k = 0; k < 5; k++) {
        SteerVehicleId id = spawn_random(world, (uint32_t)(k % 2));
        SteerBehaviourDef d = steer_default_behaviour_def(STEER_FLOCK);
        turn_on(world, id, &d);
    }
    free(ids);
}

/// Steps a scene and returns the digest after every step.
static void run_scene(Scene scene, SteerEdges edges, int threads, uint64_t *digests)
{
    SteerWorld *world = world_with(threads, edges, 11);
    SteerVehicleId leader;
    build(world, scene, &leader);
    for (int s = 0; s < STEPS; s++) {
        if (scene != FLOCK && s % 6 == 5) churn(world, s, leader);
        if (scene == NAVIGATE && s == 8) { /* a wall across the middle: plans that cross it are made again */
            SteerWallId w;
            assert_int_equal(steer_world_add_wall(world, steer_vec2(100.0, 330.0), steer_vec2(800.0, 330.0), &w),
                             STEER_OK);
        }
        /* a query between steps builds the index the next step starts from */
        if (s % 7 == 3) steer_world_query_radius(world, steer_vec2(400.0, 300.0), 50.0, NULL, NULL, 0);
        steer_world_step(world);
        digests[s] = digest(world);
        if (threads > 1) {
            /* the forces ran on the pool unless the scene keeps them on one thread */
            bool serial_forces = (world->grid.step_classes & STEER_STEP_SERIAL) != 0;
            assert_int_equal(serial_forces, scene == SERIAL);
            assert_int_equal(world->grid.plan_tasks, threads);
        }
    }
    char why[256];
    if (!steer_world_check_state(world, why, sizeof why)) fail_msg("state: %s", why);
    steer_world_destroy(world);
}

static void check_scene(Scene scene, SteerEdges edges)
{
    static const int counts[] = {2, 3, 8};
    uint64_t one[STEPS], many[STEPS];
    run_scene(scene, edges, 1, one);
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        run_scene(scene, edges, counts[c], many);
        for (int s = 0; s < STEPS; s++)
            if (one[s] != many[s]) fail_msg("%d threads differ from one at step %d", counts[c], s + 1);
    }
}

static void test_flock_same_bits_for_every_thread_count(void **state)
{
    (void)state;
    check_scene(FLOCK, STEER_EDGES_WRAP);
    check_scene(FLOCK, STEER_EDGES_NONE);
}

static void test_mixed_same_bits_for_every_thread_count(void **state)
{
    (void)state;
    check_scene(MIXED, STEER_EDGES_WRAP);
    check_scene(MIXED, STEER_EDGES_CONTAIN);
    check_scene(MIXED, STEER_EDGES_NONE);
}

static void test_serial_behaviours_same_bits_for_every_thread_count(void **state)
{
    (void)state;
    check_scene(SERIAL, STEER_EDGES_WRAP);
    check_scene(SERIAL, STEER_EDGES_NONE);
}

/* ---- Senses ---------------------------------------------------------------------------------- */

/// A world of wanderers and flockers of two kinds among obstacles and walls, most with sight
/// senses (narrow and wide, every step and staggered, few memories and many), some with hearing;
/// sounds, timers and removals between steps. Returns, after every step, the checksum (which
/// holds every memory) mixed with every event of the step.
static void run_senses(int threads, SteerEdges edges, uint64_t *digests)
{
    SteerWorld *world = world_with(threads, edges, 17);
    world->sense_order_min = threads == 3 ? 1 : world->sense_order_min; /* (large worlds' visiting order too) */
    for (int i = 0; i < 10; i++)
        assert_int_equal(steer_world_add_obstacle(world, steer_vec2(80.0 + 75.0 * i, 90.0 + 50.0 * i), 15.0, NULL),
                         STEER_OK);
    for (int i = 0; i < 8; i++)
        assert_int_equal(steer_world_add_wall(world, steer_vec2(60.0 + 100.0 * i, 350.0),
                                              steer_vec2(120.0 + 100.0 * i, 420.0 - 20.0 * i), NULL),
                         STEER_OK);
    static const char *names[] = {"eyes", "ears", "wide"};
    for (int i = 0; i < 600; i++) {
        SteerVehicleId id = spawn_random(world, (uint32_t)(i % 3 == 0));
        SteerBehaviourDef d = steer_default_behaviour_def(i % 2 ? STEER_WANDER : STEER_FLOCK);
        turn_on(world, id, &d);
        if (i % 5 == 4) continue;
        SteerSenseDef sense = steer_default_sense_def(STEER_SENSE_SIGHT);
        sense.name = names[0];
        sense.range = 60.0 + (i % 7) * 15.0;
        sense.fov = 1.0 + (i % 5);
        sense.kinds = i % 3 ? 2u : 0u;
        sense.forget_after = 0.05 * (i % 4);
        sense.period = i % 2 ? 0.0 : 0.05;
        sense.max_memories = 1 + i % 9;
        assert_int_equal(steer_vehicle_add_sense(world, id, &sense, NULL), STEER_OK);
        if (i % 4 == 0) {
            SteerSenseDef ears = steer_default_sense_def(STEER_SENSE_HEARING);
            ears.name = names[1];
            ears.range = 200.0;
            ears.period = i % 8 ? 0.0 : 0.1;
            assert_int_equal(steer_vehicle_add_sense(world, id, &ears, NULL), STEER_OK);
        }
        if (i % 6 == 0) {
            sense.name = names[2];
            sense.fov = 2.0 * STEER_PI;
            sense.walls_block = false;
            assert_int_equal(steer_vehicle_add_sense(world, id, &sense, NULL), STEER_OK);
        }
    }
    SteerVehicleId ids[1024];
    for (int s = 0; s < STEPS; s++) {
        int n = steer_world_get_vehicles(world, ids, 1024);
        if (s % 5 == 2) {
            for (int k = 0; k < 4; k++) steer_vehicle_destroy(world, ids[steer_world_random_u32(world) % (uint32_t)n]);
            n = steer_world_get_vehicles(world, ids, 1024);
        }
        for (int k = 0; k < 3; k++) {
            SteerSoundDef sound = steer_default_sound_def();
            SteerVehicleId source = ids[steer_world_random_u32(world) % (uint32_t)n];
            sound.position = steer_vehicle_position(world, source);
            sound.radius = 50.0 + 100.0 * steer_world_random(world);
            sound.tag = k;
            sound.source = k ? source : steer_vehicle_id_unpack(0);
            assert_int_equal(steer_world_emit(world, &sound), STEER_OK);
        }
        assert_int_equal(steer_vehicle_wake_in(world, ids[steer_world_random_u32(world) % (uint32_t)n],
                                               steer_world_random(world) * 0.2),
                         STEER_OK);
        steer_world_step(world);
        uint64_t h = steer_world_checksum(world);
        SteerSenseEvent e[64];
        int total = steer_world_get_sense_events(world, NULL, 0, 0);
        for (int first = 0; first < total; first += 64) {
            int got = total - first < 64 ? total - first : 64;
            steer_world_get_sense_events(world, e, 64, first);
            for (int k = 0; k < got; k++) {
                h = mix(h, &e[k].type, sizeof e[k].type);
                /* (slots and generations: the world tag in an id differs between worlds) */
                uint64_t who = (uint64_t)e[k].vehicle.index1 << 16 | e[k].vehicle.generation;
                uint64_t other = (uint64_t)e[k].other.index1 << 16 | e[k].other.generation;
                h = mix(h, &who, sizeof who);
                h = mix(h, &other, sizeof other);
                h = mix(h, &e[k].sense, sizeof e[k].sense);
                h = mix_vec(h, e[k].position);
                h = mix(h, &e[k].distance, sizeof e[k].distance);
            }
        }
        h = mix(h, &total, sizeof total);
        digests[s] = h;
    }
    char why[256];
    if (!steer_world_check_state(world, why, sizeof why)) fail_msg("state: %s", why);
    steer_world_destroy(world);
}

/* Senses run on every thread of the world: the same memories, the same events in the same order,
 * the same checksum on 1, 2, 3 and 8 threads. */
static void test_senses_same_bits_for_every_thread_count(void **state)
{
    (void)state;
    static const int counts[] = {2, 3, 8};
    static const SteerEdges edges[] = {STEER_EDGES_WRAP, STEER_EDGES_NONE};
    for (int e = 0; e < 2; e++) {
        uint64_t one[STEPS], many[STEPS];
        run_senses(1, edges[e], one);
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            run_senses(counts[c], edges[e], many);
            for (int s = 0; s < STEPS; s++)
                if (one[s] != many[s]) fail_msg("senses: %d threads differ from one at step %d", counts[c], s + 1);
        }
    }
}

/// Steps `scene` with the job system of `order` at 1, 2 and 3 threads: the same bits as the
/// world's own threads at 1 and 2, every item of every task run exactly once, and at 1 thread
/// the job system never asked.
static void check_scene_on_jobs(Scene scene, SteerEdges edges, JobOrder order)
{
    uint64_t own[2][STEPS], theirs[STEPS];
    run_scene(scene, edges, 1, own[0]);
    run_scene(scene, edges, 2, own[1]);
    for (int s = 0; s < STEPS; s++)
        if (own[0][s] != own[1][s]) fail_msg("the world's own 2 threads differ from one at step %d", s + 1);
    for (int threads = 1; threads <= 3; threads++) {
        JobSystem jobs;
        job_system_start(&jobs, order);
        jobs_in_use = &jobs;
        run_scene(scene, edges, threads, theirs);
        jobs_in_use = NULL;
        job_system_stop(&jobs);
        for (int s = 0; s < STEPS; s++)
            if (theirs[s] != own[0][s])
                fail_msg("job system %d, %d threads: differs at step %d", order, threads, s + 1);
        if (threads == 1) {
            assert_int_equal(jobs.enqueued, 0);
            continue;
        }
        assert_true(jobs.enqueued >= STEPS);
        assert_int_equal(jobs.finishes, order == AT_ONCE ? 0 : jobs.enqueued);
        for (int t = 0; t < STEER_MAX_THREADS; t++) assert_int_equal(jobs.ran[t], t < threads ? jobs.enqueued : 0);
    }
}

/* A game's job system steps a world as its own threads do, bit for bit, whichever order and on
 * whichever threads it runs the ranges: its own pthreads, or at once inside enqueue_task. */
static void test_navigate_same_bits_for_every_thread_count(void **state)
{
    (void)state;
    check_scene(NAVIGATE, STEER_EDGES_CONTAIN);
    check_scene(NAVIGATE, STEER_EDGES_NONE);
}

/// Reciprocal avoidance among obstacle circles and walls (which it reads without the shape grids'
/// shared scratch, so it stays on the pool): a crossing on a circle, the digest after every step.
static void run_orca_crossing(int threads, uint64_t *digests)
{
    SteerWorld *world = world_with(threads, STEER_EDGES_NONE, 5);
    for (int i = 0; i < 5; i++) {
        SteerObstacleId o;
        assert_int_equal(steer_world_add_obstacle(world, steer_vec2(350.0 + 50.0 * i, 300.0 + 20.0 * i), 15.0, &o),
                         STEER_OK);
    }
    SteerWallId w;
    assert_int_equal(steer_world_add_wall(world, steer_vec2(380.0, 420.0), steer_vec2(520.0, 440.0), &w), STEER_OK);
    assert_int_equal(steer_world_add_wall(world, steer_vec2(300.0, 250.0), steer_vec2(300.0, 350.0), &w), STEER_OK);
    for (int i = 0; i < 40; i++) {
        double angle = 2.0 * STEER_PI * i / 40.0;
        SteerVec2 at = steer_add(steer_vec2(450.0, 350.0), steer_scale(steer_vec2_from_angle(angle), 100.0));
        SteerVehicleDef vd = steer_default_vehicle_def();
        vd.position = at;
        vd.max_speed = 60.0;
        vd.max_force = 1200.0;
        vd.neighbor_radius = 60.0;
        SteerVehicleId id;
        assert_int_equal(steer_vehicle_create(world, &vd, &id), STEER_OK);
        SteerBehaviourDef d = steer_default_behaviour_def(STEER_ARRIVE);
        d.arrive.target = steer_target_point(900.0 - at.x, 700.0 - at.y);
        turn_on(world, id, &d);
        if (i % 9 == 4) continue; /* a few without orca: moving obstacles to the others */
        d = steer_default_behaviour_def(STEER_ORCA);
        d.orca.precedence = i % 4 == 0;
        d.orca.layer = i % 5 == 0;
        turn_on(world, id, &d);
    }
    for (int s = 0; s < STEPS; s++) {
        steer_world_step(world);
        digests[s] = digest(world);
        if (threads > 1) assert_false(world->grid.step_classes & STEER_STEP_SERIAL);
    }
    steer_world_destroy(world);
}

static void test_orca_same_bits_for_every_thread_count(void **state)
{
    (void)state;
    static const int counts[] = {2, 3, 8};
    uint64_t one[STEPS], many[STEPS];
    run_orca_crossing(1, one);
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        run_orca_crossing(counts[c], many);
        for (int s = 0; s < STEPS; s++)
            if (one[s] != many[s]) fail_msg("%d threads differ from one at step %d", counts[c], s + 1);
    }
}

static void test_job_system_same_bits_as_own_threads(void **state)
{
    (void)state;
    check_scene_on_jobs(MIXED, STEER_EDGES_WRAP, THREADS_IN_ORDER);
    check_scene_on_jobs(FLOCK, STEER_EDGES_NONE, THREADS_REVERSED);
    check_scene_on_jobs(SERIAL, STEER_EDGES_WRAP, AT_ONCE);
    check_scene_on_jobs(MIXED, STEER_EDGES_CONTAIN, AT_ONCE_REVERSED);
}

/// With a job system the world starts no thread of its own, and the definition wants both callbacks.
static void test_job_system_replaces_the_pool(void **state)
{
    (void)state;
    JobSystem jobs;
    job_system_start(&jobs, AT_ONCE);
    SteerWorldDef def = steer_default_world_def();
    def.threads = 4;
    def.enqueue_task = job_enqueue;
    def.user_task_context = &jobs;
    char message[160];
    assert_int_equal(steer_world_def_check(&def, message, sizeof message), STEER_ERROR_INVALID_ARGUMENT);
    assert_string_equal(message, "enqueue_task and finish_task must be set together (got only enqueue_task)");
    assert_null(steer_world_create(&def));
    def.enqueue_task = NULL;
    def.finish_task = job_finish;
    assert_int_equal(steer_world_def_check(&def, message, sizeof message), STEER_ERROR_INVALID_ARGUMENT);
    assert_string_equal(message, "enqueue_task and finish_task must be set together (got only finish_task)");
    def.enqueue_task = job_enqueue;
    SteerWorld *world = steer_world_create(&def);
    assert_non_null(world);
    assert_non_null(world->pool);
    assert_int_equal(steer_thread_pool_started(world->pool), 0);
    assert_int_equal(steer_thread_pool_size(world->pool), 4);
    assert_int_equal(world->grid.count_tasks, 4);
    steer_world_destroy(world);
    job_system_stop(&jobs);
}

/* ---- Behaviours that read the grid themselves -------------------------------------------------- */

/// What reads the grid's whole entries itself (SteerBehaviourInfo.reads_grid).
typedef enum GridReader { QUEUES, AVOIDS_COLLISIONS, KEEPS_COMFORT, FOLLOWS_LEADER, GRID_READERS } GridReader;

/// Wanderers first, then wanderers that also `reader` among flockers - and nothing that would have
/// the entries gathered anyway (no view cone, no partial flock kinds, no queries). Created first,
/// the plain wanderers move before any reader's force is computed (each vehicle moves as soon as
/// its force is known, unless some behaviour targets a vehicle: leader following does).
static void build_grid_readers(SteerWorld *world, GridReader reader)
{
    for (int i = 0; i < 250; i++) {
        SteerVehicleId id = spawn_random(world, 0);
        SteerBehaviourDef d = steer_default_behaviour_def(STEER_WANDER);
        turn_on(world, id, &d);
    }
    SteerVehicleId leader = spawn_random(world, 0);
    for (int i = 0; i < 250; i++) {
        SteerVehicleId id = spawn_random(world, 0);
        SteerBehaviourDef d = steer_default_behaviour_def(i % 2 ? STEER_WANDER : STEER_FLOCK);
        turn_on(world, id, &d);
        if (i % 2 == 0) continue;
        switch (reader) {
        case QUEUES: d = steer_default_behaviour_def(STEER_QUEUE); break;
        case AVOIDS_COLLISIONS: d = steer_default_behaviour_def(STEER_AVOID_COLLISIONS); break;
        case KEEPS_COMFORT:
            d = steer_default_behaviour_def(STEER_SEPARATE);
            d.separate.comfort_distance = 15.0;
            d.separate.comfort_multiplier = 3.0;
            break;
        default:
            d = steer_default_behaviour_def(STEER_FOLLOW_LEADER);
            d.follow_leader.target = steer_target_vehicle(leader);
            break;
        }
        turn_on(world, id, &d);
    }
}

/// Steps the grid readers; `query`: a query before every step, which has each build's whole entries
/// gathered before the step starts (the reference: what every reader must see).
static void run_grid_readers(int threads, GridReader reader, bool query, uint64_t *digests)
{
    SteerWorld *world = world_with(threads, STEER_EDGES_WRAP, 23);
    build_grid_readers(world, reader);
    for (int s = 0; s < STEPS; s++) {
        if (query) steer_world_query_radius(world, steer_vec2(450.0, 350.0), 40.0, NULL, NULL, 0);
        steer_world_step(world);
        digests[s] = digest(world);
        assert_int_equal(world->grid.step_classes & STEER_STEP_ENTRIES, STEER_STEP_ENTRIES);
    }
    steer_world_destroy(world);
}

/* A force that reads other vehicles through the grid sees them where the step found them, never
 * as the vehicles before it in the same step left them: the step gathers the entries before anyone
 * moves whenever such a behaviour is on, on one thread as on several, and a world nobody queries
 * steps as one queried before every step. (Leader following targets a vehicle, so every force
 * comes before any move: gathered late it would give the same bits, but from every task at once -
 * which make test-tsan reports as a race.) */
static void test_grid_readers_see_the_step_snapshot(void **state)
{
    (void)state;
    static const char *const names[] = {"queue", "avoid_collisions", "separate with comfort", "follow_leader"};
    static const int counts[] = {1, 2, 3};
    for (int reader = 0; reader < GRID_READERS; reader++) {
        uint64_t reference[STEPS], plain[STEPS];
        run_grid_readers(1, (GridReader)reader, true, reference);
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            run_grid_readers(counts[c], (GridReader)reader, false, plain);
            for (int s = 0; s < STEPS; s++)
                if (reference[s] != plain[s])
                    fail_msg("%s, %d thread(s), no queries: differs at step %d", names[reader], counts[c], s + 1);
        }
    }
}

/// Neither wanderers nor anything that reads only its summed neighbourhood has the step gather or
/// stage whole entries: each step of such a world stages a third of the bytes.
static void test_summed_neighbourhoods_need_no_entries(void **state)
{
    (void)state;
    SteerWorld *world = world_with(2, STEER_EDGES_WRAP, 3);
    for (int i = 0; i < 300; i++) {
        SteerVehicleId id = spawn_random(world, 0);
        SteerBehaviourDef d = steer_default_behaviour_def(i % 2 ? STEER_WANDER : STEER_SEEK);
        if (i % 2 == 0) d.seek.target = steer_target_point(450.0, 350.0);
        turn_on(world, id, &d);
        d = steer_default_behaviour_def(i % 3 ? STEER_SEPARATE : STEER_ALIGN);
        turn_on(world, id, &d);
    }
    for (int s = 0; s < 5; s++) {
        steer_world_step(world);
        assert_int_equal(world->grid.step_classes & STEER_STEP_ENTRIES, 0);
        assert_false(world->grid.gathered);
        assert_false(world->grid.stage_whole);
    }
    /* one vehicle that queues changes that */
    SteerVehicleId id = spawn_random(world, 0);
    SteerBehaviourDef d = steer_default_behaviour_def(STEER_QUEUE);
    turn_on(world, id, &d);
    steer_world_step(world);
    assert_int_equal(world->grid.step_classes & STEER_STEP_ENTRIES, STEER_STEP_ENTRIES);
    assert_true(world->grid.stage_whole);
    steer_world_destroy(world);
}

/* ---- Behaviour switches between steps ------------------------------------------------------ */

/// Brains' way of changing a world: between two steps, some vehicles switch behaviours - wander
/// on and off (which changes how many numbers they draw), flock on and off (whether they want a
/// neighbourhood), everything off. `query` first asks the world something, as a brain would: the
/// grid is then built, and the switches patch it in place rather than leaving it to a rebuild.
static void switch_some(SteerWorld *world, bool query)
{
    if (query) steer_world_query_radius(world, steer_vec2(300.0, 200.0), 60.0, NULL, NULL, 0);
    int n = steer_world_vehicle_count(world);
    SteerVehicleId *ids = malloc((size_t)n * sizeof *ids);
    assert_non_null(ids);
    steer_world_get_vehicles(world, ids, n);
    for (int k = 0; k < 12; k++) {
        SteerVehicleId id = ids[steer_world_random_u32(world) % (uint32_t)n];
        SteerBehaviourDef d;
        switch (steer_world_random_u32(world) % 5) {
        case 0:
            d = steer_default_behaviour_def(STEER_WANDER);
            turn_on(world, id, &d);
            break;
        case 1: assert_int_equal(steer_vehicle_clear_behaviour(world, id, STEER_WANDER), STEER_OK); break;
        case 2:
            d = steer_default_behaviour_def(STEER_FLOCK);
            turn_on(world, id, &d);
            break;
        case 3: assert_int_equal(steer_vehicle_clear_behaviour(world, id, STEER_FLOCK), STEER_OK); break;
        default: assert_int_equal(steer_vehicle_clear_behaviours(world, id), STEER_OK); break;
        }
    }
    free(ids);
    char why[256];
    if (!steer_world_check_state(world, why, sizeof why)) fail_msg("state after switches: %s", why);
}

static void run_switching(int threads, bool query, uint64_t *digests, unsigned *builds)
{
    SteerWorld *world = world_with(threads, STEER_EDGES_WRAP, 5);
    SteerVehicleId leader;
    build(world, FLOCK, &leader);
    unsigned before = world->grid.builds;
    for (int s = 0; s < STEPS; s++) {
        switch_some(world, query);
        steer_world_step(world);
        digests[s] = digest(world);
    }
    *builds = world->grid.builds - before;
    steer_world_destroy(world);
}

/* Patched in place, the grid steps the world exactly as a grid rebuilt from the switched vehicles
 * does, on every number of threads; and no step builds twice (once for the queries, once for
 * itself). */
static void test_switches_after_a_query_same_bits_as_a_rebuild(void **state)
{
    (void)state;
    uint64_t rebuilt[STEPS], patched[STEPS];
    unsigned rebuilt_builds, patched_builds;
    run_switching(1, false, rebuilt, &rebuilt_builds);
    static const int counts[] = {1, 2, 3, 8};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        run_switching(counts[c], true, patched, &patched_builds);
        for (int s = 0; s < STEPS; s++)
            if (rebuilt[s] != patched[s]) fail_msg("%d threads, patched grid: differs at step %d", counts[c], s + 1);
        /* the first query's, then one per step at its end: the next queries' and the next step's */
        assert_int_equal(patched_builds, STEPS + 1);
    }
    assert_int_equal(rebuilt_builds, STEPS);
}

/// A world above parallel_min as shipped (no lowering): 2 threads match 1 too.
static void test_default_threshold(void **state)
{
    (void)state;
    uint64_t digests[2];
    for (int t = 1; t <= 2; t++) {
        SteerWorldDef def = steer_default_world_def();
        def.width = def.height = 1500.0;
        def.edges = STEER_EDGES_WRAP;
        def.threads = t;
        SteerWorld *world = steer_world_create(&def);
        assert_non_null(world);
        for (int i = 0; i < STEER_PARALLEL_MIN_VEHICLES + 100; i++) {
            SteerVehicleId id = spawn_random(world, 0);
            SteerBehaviourDef d = steer_default_behaviour_def(STEER_FLOCK);
            turn_on(world, id, &d);
        }
        run_steps(world, 4);
        digests[t - 1] = digest(world);
        steer_world_destroy(world);
    }
    assert_true(digests[0] == digests[1]);
}

/* ---- Pieces ----------------------------------------------------------------------------------- */

static void test_threads_option(void **state)
{
    (void)state;
    SteerWorldDef def = steer_default_world_def();
    assert_int_equal(def.threads, 1);
    char message[160];
    def.threads = 0; /* a zeroed definition: one thread */
    assert_int_equal(steer_world_def_check(&def, message, sizeof message), STEER_OK);
    def.threads = STEER_MAX_THREADS;
    assert_int_equal(steer_world_def_check(&def, message, sizeof message), STEER_OK);
    def.threads = STEER_MAX_THREADS + 1;
    assert_int_equal(steer_world_def_check(&def, message, sizeof message), STEER_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(message, "threads must be an integer in [1, 64] (got 65)"));
    def.threads = -1;
    assert_int_equal(steer_world_def_check(&def, message, sizeof message), STEER_ERROR_INVALID_ARGUMENT);
    assert_null(steer_world_create(&def));
    def.threads = 1;
    SteerWorld *world = steer_world_create(&def);
    assert_non_null(world);
    assert_null(world->pool);
    steer_world_destroy(world);
}

static void test_pcg32_advance_matches_drawing(void **state)
{
    (void)state;
    static const uint64_t deltas[] = {0, 1, 2, 3, 7, 64, 1000, 123457};
    for (size_t i = 0; i < sizeof deltas / sizeof deltas[0]; i++) {
        SteerPcg32 drawn, jumped;
        steer_pcg32_seed(&drawn, 99, 0x5eed);
        jumped = drawn;
        for (uint64_t k = 0; k < deltas[i]; k++) steer_pcg32_next(&drawn);
        steer_pcg32_advance(&jumped, deltas[i]);
        assert_true(drawn.state == jumped.state);
        assert_int_equal(steer_pcg32_next(&drawn), steer_pcg32_next(&jumped));
    }
}

typedef struct PoolCheck {
    SteerThreadPool *pool;
    int seen[STEER_MAX_THREADS];
    int nested[STEER_MAX_THREADS];
} PoolCheck;

static void nested_task(void *context, int t, int tasks)
{
    PoolCheck *c = context;
    c->nested[t] += tasks;
}

static void count_task(void *context, int t, int tasks)
{
    PoolCheck *c = context;
    c->seen[t] += tasks;
    /* a run from inside a task (on the caller or a worker, whoever claimed it) runs inline, every
     * task in turn */
    if (t == 0) steer_thread_pool_run(c->pool, nested_task, c);
}

/* ---- A busy core ------------------------------------------------------------------------------ */

/* The pool's tasks are claimed by whoever is free: with another program keeping a core busy, the
 * caller runs the tasks of a worker that has not been scheduled yet. Which thread ran which task
 * must change nothing. A spinning thread (one per core the machine has, less one) keeps the
 * workers from being scheduled at once. */

#define SPINNERS 2

typedef struct Spinner {
    pthread_t threads[SPINNERS];
    atomic_int stop;
} Spinner;

static void *spin(void *arg)
{
    Spinner *s = arg;
    while (!atomic_load_explicit(&s->stop, memory_order_relaxed)) {
    }
    return NULL;
}

static void spinner_start(Spinner *s)
{
    atomic_init(&s->stop, 0);
    for (int i = 0; i < SPINNERS; i++) assert_int_equal(pthread_create(&s->threads[i], NULL, spin, s), 0);
}

static void spinner_stop(Spinner *s)
{
    atomic_store(&s->stop, 1);
    for (int i = 0; i < SPINNERS; i++) pthread_join(s->threads[i], NULL);
}

static void test_same_bits_with_a_busy_core(void **state)
{
    (void)state;
    Spinner spinner;
    spinner_start(&spinner);
    check_scene(FLOCK, STEER_EDGES_WRAP);
    check_scene(MIXED, STEER_EDGES_NONE);
    spinner_stop(&spinner);
}

static void test_pool_runs_each_task_once_with_a_busy_core(void **state)
{
    (void)state;
    Spinner spinner;
    spinner_start(&spinner);
    SteerAllocator alloc = {steer_default_alloc, NULL};
    for (int threads = 2; threads <= 8; threads *= 2) {
        PoolCheck c = {0};
        c.pool = steer_thread_pool_create(&alloc, threads);
        assert_non_null(c.pool);
        for (int run = 0; run < 400; run++) steer_thread_pool_run(c.pool, count_task, &c);
        for (int t = 0; t < threads; t++) {
            assert_int_equal(c.seen[t], 400 * threads);
            assert_int_equal(c.nested[t], 400 * threads);
        }
        steer_thread_pool_destroy(c.pool, &alloc);
    }
    spinner_stop(&spinner);
}

static void test_pool_runs_each_task_once_per_run(void **state)
{
    (void)state;
    SteerAllocator alloc = {steer_default_alloc, NULL};
    assert_null(steer_thread_pool_create(&alloc, 1));
    for (int threads = 2; threads <= 8; threads += 3) {
        PoolCheck c = {0};
        c.pool = steer_thread_pool_create(&alloc, threads);
        assert_non_null(c.pool);
        assert_int_equal(steer_thread_pool_size(c.pool), threads);
        for (int run = 0; run < 50; run++) steer_thread_pool_run(c.pool, count_task, &c);
        for (int t = 0; t < threads; t++) {
            assert_int_equal(c.seen[t], 50 * threads);
            assert_int_equal(c.nested[t], 50 * threads);
        }
        assert_int_equal(c.seen[threads], 0);
        steer_thread_pool_destroy(c.pool, &alloc);
    }
    /* no pool: every task on the caller */
    PoolCheck c = {0};
    steer_thread_pool_run(NULL, nested_task, &c);
    assert_int_equal(c.nested[0], 1);
    assert_int_equal(c.nested[1], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_option),
        cmocka_unit_test(test_pcg32_advance_matches_drawing),
        cmocka_unit_test(test_pool_runs_each_task_once_per_run),
        cmocka_unit_test(test_pool_runs_each_task_once_with_a_busy_core),
        cmocka_unit_test(test_same_bits_with_a_busy_core),
        cmocka_unit_test(test_flock_same_bits_for_every_thread_count),
        cmocka_unit_test(test_mixed_same_bits_for_every_thread_count),
        cmocka_unit_test(test_serial_behaviours_same_bits_for_every_thread_count),
        cmocka_unit_test(test_senses_same_bits_for_every_thread_count),
        cmocka_unit_test(test_navigate_same_bits_for_every_thread_count),
        cmocka_unit_test(test_orca_same_bits_for_every_thread_count),
        cmocka_unit_test(test_switches_after_a_query_same_bits_as_a_rebuild),
        cmocka_unit_test(test_grid_readers_see_the_step_snapshot),
        cmocka_unit_test(test_summed_neighbourhoods_need_no_entries),
        cmocka_unit_test(test_default_threshold),
        cmocka_unit_test(test_job_system_replaces_the_pool),
        cmocka_unit_test(test_job_system_same_bits_as_own_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
