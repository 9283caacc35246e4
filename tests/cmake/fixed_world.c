/* SPDX-License-Identifier: MIT */
/* fixed_world.c - one fixed world stepped 600 times, its checksum printed every 100 steps: the
 * program that shows a build of the core computes the same bits as another.
 *
 *   fixed_world [exact|full] [STEP]
 *
 * exact (the default): every behaviour whose force is plain arithmetic and square roots (seek to
 * queue, paths, flow fields, obstacles, walls, separation, alignment, cohesion), with all three ways
 * to combine forces, on wrapped edges. IEEE 754 makes those the same bits on every platform (with
 * no fused multiply-add: CMakeLists.txt builds the core with -ffp-contract=off).
 * full: the same plus what calls the C library's cos, sin and atan2 - wander and flocking (a wander
 * circle starts at cos/sin of a random angle), turn-rate limits (atan2, cos, sin) and view cones
 * (cos) - whose last bit a C library may round its own way: MinGW's cos(9.99) differs from glibc's
 * in the last bit, so the full world's bits can differ between Windows and Linux (docs/core.md,
 * Determinism).
 * The program itself calls no sin or cos: its inputs are the same bits everywhere. With STEP, it
 * also prints each vehicle's checksum and state after that step, to find the first that differs.
 *
 * tests/cmake/cmake_suite.sh builds it against the Makefile's libsteer.a and as a CMake consumer
 * (add_subdirectory, find_package); tests/cmake/portability_suite.sh with clang and with MinGW-w64
 * under Wine. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "steer/steer.h"

enum { STEPS = 600, EVERY = 100 };

static SteerWorld *world;

/// A call that failed ends the program: a world built differently has no checksum worth comparing.
static int fail(const char *what)
{
    fprintf(stderr, "fixed_world: %s: %s\n", what, steer_world_last_error(world));
    exit(1);
}

/// A vehicle at a point, heading and top speed drawn from the world's generator, with one behaviour on.
static SteerVehicleId spawn(uint32_t kind, SteerCombine combine, double max_turn_rate,
                            const SteerBehaviourDef *behaviour)
{
    SteerVehicleDef def = steer_default_vehicle_def();
    /* one draw a statement: the order of a call's arguments is the compiler's choice */
    def.position.x = 800 * steer_world_random(world);
    def.position.y = 600 * steer_world_random(world);
    def.velocity.x = 80 * steer_world_random(world) - 40;
    def.velocity.y = 80 * steer_world_random(world) - 40;
    def.kind = kind;
    def.combine = combine;
    def.max_turn_rate = max_turn_rate;
    def.max_speed = 60 + 60 * steer_world_random(world);
    SteerVehicleId id = STEER_NULL_ID;
    if (steer_vehicle_create(world, &def, &id) != STEER_OK) fail("create");
    if (behaviour && steer_vehicle_set_behaviour(world, id, behaviour) != STEER_OK) fail("behaviour");
    return id;
}

static void add(SteerVehicleId id, const SteerBehaviourDef *behaviour)
{
    if (steer_vehicle_set_behaviour(world, id, behaviour) != STEER_OK) fail("behaviour");
}

static int build(int full)
{
    SteerObstacleId rock;
    SteerWallId wall;
    SteerPathId path;
    SteerFlowFieldId field;
    if (steer_world_add_obstacle(world, steer_vec2(400, 300), 50, &rock) != STEER_OK ||
        steer_world_add_obstacle(world, steer_vec2(150, 450), 30, &rock) != STEER_OK ||
        steer_world_add_wall(world, steer_vec2(100, 100), steer_vec2(300, 140), &wall) != STEER_OK ||
        steer_world_add_wall(world, steer_vec2(600, 500), steer_vec2(700, 380), &wall) != STEER_OK)
        return fail("shapes");
    const SteerVec2 loop[] = {{120, 120}, {680, 140}, {700, 480}, {400, 560}, {100, 460}};
    if (steer_world_add_path(world, loop, 5, true, &path) != STEER_OK) return fail("path");
    SteerVec2 vectors[8 * 6];
    for (int i = 0; i < 8 * 6; i++) vectors[i] = steer_vec2((i % 5) - 2, (i % 3) - 1);
    SteerFlowFieldDef flow = {{0, 0}, 100, 8, 6, vectors};
    if (steer_world_add_flow_field(world, &flow, &field) != STEER_OK) return fail("flow field");

    /* a flock of 120 in kind 0 (separation, alignment and cohesion when exact), with obstacles and
     * walls first (priority) and, in the full world, a turn-rate limit on every other bird */
    SteerBehaviourDef flock = steer_default_behaviour_def(STEER_FLOCK);
    SteerBehaviourDef avoid = steer_default_behaviour_def(STEER_AVOID_OBSTACLES);
    SteerBehaviourDef walls = steer_default_behaviour_def(STEER_AVOID_WALLS);
    SteerBehaviourDef separate = steer_default_behaviour_def(STEER_SEPARATE);
    SteerBehaviourDef align = steer_default_behaviour_def(STEER_ALIGN);
    SteerBehaviourDef cohere = steer_default_behaviour_def(STEER_COHERE);
    SteerVehicleId bird = STEER_NULL_ID;
    for (int i = 0; i < 120; i++) {
        bird = spawn(0, STEER_COMBINE_PRIORITY, full && i % 2 ? 3.0 : 0.0, full ? &flock : &separate);
        if (!full) {
            add(bird, &align);
            add(bird, &cohere);
        }
        add(bird, &avoid);
        add(bird, &walls);
    }
    /* wanderers on each leash (seekers of the world's corners when exact), dithered with
     * separation and collision avoidance; in the full world they see in a 270° cone */
    SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
    SteerBehaviourDef corner = steer_default_behaviour_def(STEER_SEEK);
    SteerBehaviourDef collisions = steer_default_behaviour_def(STEER_AVOID_COLLISIONS);
    for (int i = 0; i < 30; i++) {
        wander.wander.leash = (SteerLeash)(i % 3);
        corner.seek.target = steer_target_point(i % 2 ? 800 : 0, i % 4 < 2 ? 600 : 0);
        SteerVehicleId id = spawn(1, STEER_COMBINE_DITHER, 0, full ? &wander : &corner);
        if (full && steer_vehicle_set_view_angle(world, id, 1.5 * STEER_PI) != STEER_OK) fail("view angle");
        add(id, &separate);
        add(id, &collisions);
    }
    /* path and flow followers, queueing */
    SteerBehaviourDef follow = steer_default_behaviour_def(STEER_FOLLOW);
    follow.follow.path = path;
    SteerBehaviourDef queue = steer_default_behaviour_def(STEER_QUEUE);
    SteerBehaviourDef flows = steer_default_behaviour_def(STEER_FOLLOW_FLOW);
    flows.follow_flow.field = field;
    for (int i = 0; i < 15; i++) add(spawn(2, STEER_COMBINE_WEIGHTED, full ? 2.0 : 0, &follow), &queue);
    for (int i = 0; i < 15; i++) add(spawn(3, STEER_COMBINE_WEIGHTED, 0, &flows), &separate);
    /* hunters pursue the last bird, prey evade the first hunter or hide from it */
    SteerBehaviourDef pursue = steer_default_behaviour_def(STEER_PURSUE);
    pursue.pursue.target = steer_target_vehicle(bird);
    SteerVehicleId hunter = spawn(4, STEER_COMBINE_WEIGHTED, 0, &pursue);
    for (int i = 0; i < 4; i++) spawn(4, STEER_COMBINE_WEIGHTED, full ? 4.0 : 0, &pursue);
    SteerBehaviourDef evade = steer_default_behaviour_def(STEER_EVADE);
    evade.evade.target = steer_target_vehicle(hunter);
    SteerBehaviourDef hide = steer_default_behaviour_def(STEER_HIDE);
    hide.hide.target = steer_target_vehicle(hunter);
    for (int i = 0; i < 5; i++) spawn(5, STEER_COMBINE_WEIGHTED, 0, i % 2 ? &evade : &hide);
    /* the point behaviours, the leader's followers and the rest */
    SteerBehaviourDef one[7];
    one[0] = steer_default_behaviour_def(STEER_SEEK);
    one[0].seek.target = steer_target_point(700, 100);
    one[1] = steer_default_behaviour_def(STEER_FLEE);
    one[1].flee.target = steer_target_vehicle(hunter);
    one[2] = steer_default_behaviour_def(STEER_ARRIVE);
    one[2].arrive.target = steer_target_point(200, 300);
    one[3] = steer_default_behaviour_def(STEER_INTERPOSE);
    one[3].interpose.a = steer_target_vehicle(hunter);
    one[3].interpose.b = steer_target_point(400, 300);
    one[4] = steer_default_behaviour_def(STEER_OFFSET_PURSUE);
    one[4].offset_pursue.target = steer_target_vehicle(hunter);
    one[4].offset_pursue.offset = steer_vec2(-20, 15);
    one[5] = steer_default_behaviour_def(STEER_FOLLOW_LEADER);
    one[5].follow_leader.target = steer_target_vehicle(hunter);
    one[6] = steer_default_behaviour_def(STEER_CONTAIN);
    for (int i = 0; i < 7 * 3; i++) spawn(6, STEER_COMBINE_WEIGHTED, full && i % 2 ? 2.5 : 0, &one[i % 7]);
    for (int i = 0; i < 10; i++) add(spawn(7, STEER_COMBINE_WEIGHTED, 0, &align), &cohere);
    return 1;
}

int main(int argc, char **argv)
{
    int full = argc > 1 && strcmp(argv[1], "full") == 0;
    if (argc > 1 && !full && strcmp(argv[1], "exact") != 0) {
        fprintf(stderr, "usage: fixed_world [exact|full] [STEP]\n");
        return 2;
    }
    int dump_at = argc > 2 ? atoi(argv[2]) : -1;
    SteerWorldDef wdef = steer_default_world_def(); /* 800 x 600 */
    wdef.edges = STEER_EDGES_WRAP;
    wdef.seed = 2026;
    world = steer_world_create(&wdef);
    if (!world || !build(full)) return 1;

    for (int step = 1; step <= STEPS; step++) {
        steer_world_step(world);
        if (step % EVERY == 0) printf("step %d checksum %016" PRIx64 "\n", step, (uint64_t)steer_world_checksum(world));
        if (step == dump_at) {
            SteerVehicleId ids[512];
            int n = steer_world_get_vehicles(world, ids, 512);
            for (int i = 0; i < n && i < 512; i++) {
                SteerVehicleState v;
                steer_vehicle_get(world, ids[i], &v);
                printf("step %d vehicle %d checksum %016" PRIx64 " p %a %a v %a %a h %a %a f %a %a\n", step, i,
                       (uint64_t)steer_vehicle_checksum(world, ids[i]), v.position.x, v.position.y, v.velocity.x,
                       v.velocity.y, v.heading.x, v.heading.y, v.force.x, v.force.y);
            }
        }
    }
    printf("steer %s %s world: %d vehicles, %d steps, checksum %016" PRIx64 "\n", steer_version(),
           full ? "full" : "exact", steer_world_vehicle_count(world), STEPS, (uint64_t)steer_world_checksum(world));
    steer_world_destroy(world);
    return 0;
}
