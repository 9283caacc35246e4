/* SPDX-License-Identifier: MIT */
/* test_support.h - small helpers shared by the C test files (cmocka). */
#ifndef STEER_TEST_SUPPORT_H
#define STEER_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

/* cmocka's assert_float_equal compares floats; the core works in doubles. */
#define assert_near(actual, expected, tolerance)                                                                       \
    do {                                                                                                               \
        double actual_ = (actual), expected_ = (expected);                                                             \
        if (!(fabs(actual_ - expected_) <= (tolerance)))                                                               \
            fail_msg("%s = %.17g, expected %.17g within %g", #actual, actual_, expected_, (double)(tolerance));        \
    } while (0)

#include "steer/steer.h"

static inline SteerWorld *make_world(SteerEdges edges, uint64_t seed)
{
    SteerWorldDef def = steer_default_world_def();
    def.width = 1000.0;
    def.height = 1000.0;
    def.edges = edges;
    def.seed = seed;
    SteerWorld *world = steer_world_create(&def);
    assert_non_null(world);
    return world;
}

static inline SteerVehicleId spawn_at(SteerWorld *world, double x, double y)
{
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(x, y);
    SteerVehicleId id;
    assert_int_equal(steer_vehicle_create(world, &def, &id), STEER_OK);
    return id;
}

static inline SteerVehicleId spawn_moving(SteerWorld *world, double x, double y, double vx, double vy)
{
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(x, y);
    def.velocity = steer_vec2(vx, vy);
    SteerVehicleId id;
    assert_int_equal(steer_vehicle_create(world, &def, &id), STEER_OK);
    return id;
}

static inline void run_steps(SteerWorld *world, int steps)
{
    for (int i = 0; i < steps; i++) steer_world_step(world);
}

static inline void turn_on(SteerWorld *world, SteerVehicleId id, const SteerBehaviourDef *def)
{
    SteerResult result = steer_vehicle_set_behaviour(world, id, def);
    if (result != STEER_OK) fail_msg("set_behaviour failed: %s", steer_world_last_error(world));
}

static inline void assert_error_contains(const SteerWorld *world, const char *fragment)
{
    const char *message = steer_world_last_error(world);
    if (!strstr(message, fragment)) fail_msg("error \"%s\" does not mention \"%s\"", message, fragment);
}

#endif
