/* SPDX-License-Identifier: MIT */
/* bench_render.c - milliseconds per rendered frame (steer_render_world + HUD) on SDL's software
 * renderer at 1280x720, into the 32-bit ARGB surface the program renders into headless, for
 * wandering, avoiding vehicles among obstacles and a wall.
 *
 * Figures (medians over FRAMES frames, after WARMUP) in the same process:
 *   - the empty scene (obstacles, wall, HUD, no vehicle): what a frame costs before any vehicle;
 *   - 200, 1,000 and 10,000 vehicles with no overlay (the vehicles alone);
 *   - 200 and 1,000 vehicles with every overlay on (and labels under a third of them), with the
 *     ratio against the vehicles alone.
 * Time is the process's CPU time: rendering is single-threaded, and on a machine shared with other
 * jobs CPU time is what the frame costs whatever else runs. The physics step is not timed.
 * BENCH_RENDER_EACH=1 also times each overlay alone.
 *
 *   SDL_VIDEODRIVER=dummy build/bench_render
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_support.h"
#include "render.h"

enum { WIDTH = 1280, HEIGHT = 720, WARMUP = 10, FRAMES = 60 };

static double now_ms(void) { return bench_cpu_seconds() * 1e3; }

static SteerWorld *make_scene(int vehicles)
{
    SteerWorldDef wdef = steer_default_world_def();
    wdef.width = 1600;
    wdef.height = 900;
    wdef.edges = STEER_EDGES_WRAP;
    wdef.seed = 7;
    SteerWorld *world = steer_world_create(&wdef);
    for (int i = 0; i < 12; i++)
        steer_world_add_obstacle(world, steer_vec2(100 + 130 * i, 200 + 500 * (i % 2)), 30 + 3 * i, NULL);
    steer_world_add_wall(world, steer_vec2(300, 450), steer_vec2(1300, 450), NULL);
    for (int i = 0; i < vehicles; i++) {
        SteerVehicleDef def = steer_default_vehicle_def();
        def.position = steer_vec2(steer_world_random(world) * 1600, steer_world_random(world) * 900);
        def.velocity = steer_vec2(steer_world_random(world) * 60 - 30, steer_world_random(world) * 60 - 30);
        def.kind = (uint32_t)(i % 4);
        SteerVehicleId id;
        steer_vehicle_create(world, &def, &id);
        static const SteerBehaviour behaviours[] = {STEER_WANDER, STEER_AVOID_OBSTACLES, STEER_AVOID_WALLS};
        for (int b = 0; b < 3; b++) {
            SteerBehaviourDef bdef = steer_default_behaviour_def(behaviours[b]);
            steer_vehicle_set_behaviour(world, id, &bdef);
        }
    }
    return world;
}

static const char *label(void *ctx, SteerVehicleId id)
{
    (void)ctx;
    return (id.index1 % 3 == 0) ? "wander" : NULL;
}

/// Median ms per frame for `overlays`.
static double measure(SteerRender *render, SteerWorld *world, unsigned overlays)
{
    double samples[FRAMES];
    SteerFrame frame = {0};
    frame.camera = steer_camera_fit(steer_world_width(world), steer_world_height(world), WIDTH, HEIGHT);
    frame.alpha = 0.5;
    frame.overlays = overlays;
    frame.vehicle_label = label;
    const char *hud[] = {"fps 60", "t 12.0 s", "vehicles 1000", "step 0.5 ms  lua 0.2 ms"};
    for (int i = 0; i < WARMUP + FRAMES; i++) {
        steer_render_capture(render, world);
        steer_world_step(world);
        double start = now_ms();
        steer_render_world(render, world, &frame);
        steer_render_hud(render, hud, 4);
        double ms = now_ms() - start;
        if (i >= WARMUP) samples[i - WARMUP] = ms;
    }
    return bench_median(samples, FRAMES);
}

int main(void)
{
    SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
    if (SDL_Init(SDL_INIT_VIDEO) != 0) return 1;
    SDL_Surface *surface = SDL_CreateRGBSurfaceWithFormat(0, WIDTH, HEIGHT, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *sdl = surface ? SDL_CreateSoftwareRenderer(surface) : NULL;
    SteerRender *render = sdl ? steer_render_create(sdl, RENDER_FONT, 14) : NULL;
    if (!render) {
        fprintf(stderr, "bench_render: %s\n", SDL_GetError());
        return 1;
    }
#ifdef STEER_RENDER_SET_SURFACE /* as the program does headless; a renderer before it had no such call */
    steer_render_set_surface(render, surface);
#endif
    const unsigned all = STEER_OVERLAY_WANDER | STEER_OVERLAY_AVOIDANCE | STEER_OVERLAY_NEIGHBORS |
                         STEER_OVERLAY_FORCES | STEER_OVERLAY_STATES | STEER_OVERLAY_PATHS | STEER_OVERLAY_GRID;
    printf("bench-render: software renderer %dx%d ARGB8888, CPU ms per frame, median of %d frames (after %d warm-up)\n",
           WIDTH, HEIGHT, FRAMES, WARMUP);
    SteerWorld *empty = make_scene(0);
    double base = measure(render, empty, 0);
    steer_world_destroy(empty);
    printf("  empty scene (obstacles, wall, HUD): %6.2f ms/frame\n", base);
    static const int sizes[] = {200, 1000, 10000};
    for (int s = 0; s < 3; s++) {
        SteerWorld *world = make_scene(sizes[s]);
        double plain = measure(render, world, 0);
        printf("  %5d vehicles: %6.2f ms/frame plain (%.2f us per vehicle over the empty scene)", sizes[s], plain,
               (plain - base) * 1e3 / sizes[s]);
        if (sizes[s] <= 1000) {
            double overlays = measure(render, world, all);
            printf(", %6.2f ms/frame all overlays (x%.2f the plain frame)", overlays, overlays / plain);
        }
        printf("\n");
        if (getenv("BENCH_RENDER_EACH") && sizes[s] <= 1000) {
            static const char *const names[] = {"wander", "avoidance", "neighbors", "forces",
                                                "states", "paths",     "grid"};
            for (int bit = 0; bit < 7; bit++)
                printf("      + %-10s %6.2f ms/frame\n", names[bit], measure(render, world, 1u << bit));
        }
        steer_world_destroy(world);
    }
    printf("  targets: 1,000 vehicles with every overlay under 8 ms, 10,000 plain under 8 ms\n");
    steer_render_destroy(render);
    SDL_DestroyRenderer(sdl);
    SDL_FreeSurface(surface);
    SDL_Quit();
    return 0;
}
