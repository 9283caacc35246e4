/* bench_render.c - milliseconds per rendered frame (steer_render_world + HUD) on SDL's software
 * renderer at 1280x720, for 200 and 1000 wandering, avoiding vehicles among obstacles and walls.
 * Each size is measured without overlays (the baseline) and with every overlay, in the same
 * process; the figures are medians over FRAMES frames, after WARMUP frames. The physics step is
 * not timed.
 *
 *   SDL_VIDEODRIVER=dummy build/bench_render
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_support.h"
#include "render.h"

enum { WIDTH = 1280, HEIGHT = 720, WARMUP = 10, FRAMES = 60 };

static double now_ms(void) { return bench_wall_seconds() * 1e3; }

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
    SDL_Surface *surface = SDL_CreateRGBSurfaceWithFormat(0, WIDTH, HEIGHT, 32, SDL_PIXELFORMAT_RGBA32);
    SDL_Renderer *sdl = surface ? SDL_CreateSoftwareRenderer(surface) : NULL;
    SteerRender *render = sdl ? steer_render_create(sdl, RENDER_FONT, 14) : NULL;
    if (!render) {
        fprintf(stderr, "bench_render: %s\n", SDL_GetError());
        return 1;
    }
    const unsigned all = STEER_OVERLAY_WANDER | STEER_OVERLAY_AVOIDANCE | STEER_OVERLAY_NEIGHBORS | STEER_OVERLAY_FORCES |
                         STEER_OVERLAY_STATES | STEER_OVERLAY_PATHS | STEER_OVERLAY_GRID;
    static const int sizes[] = {200, 1000};
    printf("bench-render: software renderer %dx%d, median of %d frames (after %d warm-up)\n", WIDTH, HEIGHT, FRAMES, WARMUP);
    for (int s = 0; s < 2; s++) {
        SteerWorld *world = make_scene(sizes[s]);
        double plain = measure(render, world, 0);
        double overlays = measure(render, world, all);
        printf("  %4d vehicles: %6.2f ms/frame plain, %6.2f ms/frame all overlays (x%.2f)\n", sizes[s], plain, overlays,
               overlays / plain);
        if (getenv("BENCH_RENDER_EACH")) {
            static const char *const names[] = {"wander", "avoidance", "neighbors", "forces", "states", "paths", "grid"};
            for (int bit = 0; bit < 7; bit++)
                printf("      + %-10s %6.2f ms/frame\n", names[bit], measure(render, world, 1u << bit));
        }
        steer_world_destroy(world);
    }
    steer_render_destroy(render);
    SDL_DestroyRenderer(sdl);
    SDL_FreeSurface(surface);
    SDL_Quit();
    return 0;
}
