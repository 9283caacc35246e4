/* SPDX-License-Identifier: MIT */
/* arrive.c - the C core alone, as a C game uses it once `make install` has run: a hunter pursues a
 * prey that arrives at a point, for ten simulated seconds. Built against the installed library:
 *
 *   cc arrive.c $(pkg-config --cflags --libs steer) -o arrive && ./arrive
 *
 * It prints the library's version and where both vehicles ended, and exits non-zero when the prey
 * did not come to rest on its target or the hunter did not close in: the install test
 * (tests/install/install_suite.sh) runs it against the static and the shared library. */
#include <stdio.h>

#include "steer/steer.h"

static int fail(SteerWorld *world, const char *what)
{
    fprintf(stderr, "arrive: %s: %s\n", what, steer_world_last_error(world));
    steer_world_destroy(world);
    return 1;
}

int main(void)
{
    SteerWorldDef wdef = steer_default_world_def();
    wdef.seed = 7;
    SteerWorld *world = steer_world_create(&wdef);
    if (!world) return 1;

    SteerVehicleDef vdef = steer_default_vehicle_def();
    vdef.position = steer_vec2(100, 100);
    vdef.max_speed = 90;
    SteerVehicleId prey, hunter;
    if (steer_vehicle_create(world, &vdef, &prey) != STEER_OK) return fail(world, "prey");
    vdef.position = steer_vec2(700, 500);
    vdef.max_speed = 60;
    if (steer_vehicle_create(world, &vdef, &hunter) != STEER_OK) return fail(world, "hunter");

    SteerBehaviourDef arrive = steer_default_behaviour_def(STEER_ARRIVE);
    arrive.arrive.target = steer_target_point(400, 300);
    if (steer_vehicle_set_behaviour(world, prey, &arrive) != STEER_OK) return fail(world, "arrive");
    SteerBehaviourDef pursue = steer_default_behaviour_def(STEER_PURSUE);
    pursue.pursue.target = steer_target_vehicle(prey);
    if (steer_vehicle_set_behaviour(world, hunter, &pursue) != STEER_OK) return fail(world, "pursue");

    double start = steer_length(
        steer_world_offset(world, steer_vehicle_position(world, hunter), steer_vehicle_position(world, prey)));
    for (int i = 0; i < 600; i++) steer_world_step(world);

    SteerVec2 p = steer_vehicle_position(world, prey), h = steer_vehicle_position(world, hunter);
    double off_target = steer_length(steer_sub(p, steer_vec2(400, 300)));
    double gap = steer_length(steer_world_offset(world, h, p));
    printf("steer %s: %llu steps, prey at (%.3f, %.3f), hunter at (%.3f, %.3f)\n", STEER_VERSION,
           (unsigned long long)steer_world_step_count(world), p.x, p.y, h.x, h.y);
    steer_world_destroy(world);
    /* arrive settles on its target; the hunter starts 500 units away and ends next to the prey */
    return off_target < 1.0 && gap < start / 2 ? 0 : 1;
}
