/* SPDX-License-Identifier: MIT */
/* flock_ascii.c - the C core alone, drawn through its debug-draw callbacks: a flock wanders around
 * an obstacle, a hunter pursues the nearest bird, and the world is drawn as text in a terminal.
 * It also shows what happens to an id once its vehicle is removed. Built against the installed
 * library:
 *
 *   cc flock_ascii.c $(pkg-config --cflags --libs steer) -o flock_ascii && ./flock_ascii
 */
#include <stdio.h>
#include <string.h>

#include "steer/steer.h"

enum { COLS = 80, ROWS = 24, BIRDS = 40 };

/* The canvas the callbacks draw on: one character per 10 x 25 units of an 800 x 600 world. */
typedef struct Canvas {
    char cells[ROWS][COLS + 1];
} Canvas;

static void plot(Canvas *canvas, SteerVec2 p, char c)
{
    int col = (int)(p.x / 10.0), row = (int)(p.y / 25.0);
    if (col >= 0 && col < COLS && row >= 0 && row < ROWS) canvas->cells[row][col] = c;
}

/* An outline is 64 dots; a vehicle is one letter. */
static void draw_circle(SteerVec2 center, double radius, uint32_t color, SteerDebugLayer layer, void *context)
{
    (void)color;
    (void)layer;
    for (int i = 0; i < 64; i++)
        plot(context, steer_add(center, steer_scale(steer_vec2_from_angle(i * STEER_PI / 32), radius)), 'o');
}

/* A vehicle's colour word is the caller's: here it holds the letter to draw at the dart's nose. */
static void draw_vehicle(const SteerVec2 *points, int count, uint32_t color, SteerDebugLayer layer, void *context)
{
    (void)count;
    (void)layer;
    plot(context, points[0], (char)color);
}

int main(void)
{
    SteerWorldDef wdef = steer_default_world_def(); /* 800 x 600 */
    wdef.edges = STEER_EDGES_WRAP;
    wdef.seed = 3;
    SteerWorld *world = steer_world_create(&wdef);
    if (!world) return 1;

    SteerObstacleId rock;
    steer_world_add_obstacle(world, steer_vec2(400, 300), 60, &rock);

    SteerVehicleDef bird = steer_default_vehicle_def();
    bird.color = 'b';
    SteerBehaviourDef flock = steer_default_behaviour_def(STEER_FLOCK);
    SteerBehaviourDef avoid = steer_default_behaviour_def(STEER_AVOID_OBSTACLES);
    for (int i = 0; i < BIRDS; i++) {
        bird.position = steer_vec2(800 * steer_world_random(world), 600 * steer_world_random(world));
        SteerVehicleId id;
        if (steer_vehicle_create(world, &bird, &id) != STEER_OK ||
            steer_vehicle_set_behaviour(world, id, &flock) != STEER_OK ||
            steer_vehicle_set_behaviour(world, id, &avoid) != STEER_OK) {
            fprintf(stderr, "flock_ascii: %s\n", steer_world_last_error(world));
            return 1;
        }
    }
    SteerVehicleDef hunter_def = steer_default_vehicle_def();
    hunter_def.kind = 1;
    hunter_def.color = 'H';
    hunter_def.max_speed = 140;
    SteerVehicleId hunter;
    steer_vehicle_create(world, &hunter_def, &hunter);

    for (int step = 0; step < 300; step++) {
        /* every half second, the hunter picks the nearest bird (kind 0) within 300 units */
        if (step % 30 == 0) {
            SteerQueryFilter birds = steer_default_query_filter();
            birds.kinds = 1u << 0;
            SteerVehicleId prey;
            if (steer_world_query_closest(world, steer_vehicle_position(world, hunter), 300, &birds, &prey)) {
                SteerBehaviourDef pursue = steer_default_behaviour_def(STEER_PURSUE);
                pursue.pursue.target = steer_target_vehicle(prey);
                steer_vehicle_set_behaviour(world, hunter, &pursue);
            }
        }
        steer_world_step(world);
    }

    Canvas canvas;
    for (int row = 0; row < ROWS; row++) {
        memset(canvas.cells[row], ' ', COLS);
        canvas.cells[row][COLS] = '\0';
    }
    SteerDebugDraw draw = steer_default_debug_draw();
    draw.draw_circle = draw_circle;
    draw.draw_solid_polygon = draw_vehicle;
    draw.flags = STEER_DEBUG_DRAW_OBSTACLES | STEER_DEBUG_DRAW_VEHICLES;
    draw.context = &canvas;
    steer_world_debug_draw(world, &draw);
    for (int row = 0; row < ROWS; row++) puts(canvas.cells[row]);

    /* A removed vehicle's id stays refused, even once its slot holds a new vehicle. */
    SteerVehicleId ids[BIRDS + 1];
    steer_world_get_vehicles(world, ids, BIRDS + 1);
    steer_vehicle_destroy(world, ids[0]);
    steer_vehicle_create(world, &bird, NULL);
    if (steer_vehicle_set_max_speed(world, ids[0], 50) != STEER_OK) printf("%s\n", steer_world_last_error(world));
    printf("%d vehicles after %llu steps\n", steer_world_vehicle_count(world),
           (unsigned long long)steer_world_step_count(world));
    steer_world_destroy(world);
    return 0;
}
