/* SPDX-License-Identifier: MIT */
/* render_scene.c - the C core and src/render without the runtime, raylib-example style: build a
 * small world (prey that wander and evade, hunters that pursue, a patrol on a path, obstacles and
 * walls), step it, draw one frame offscreen with some overlays and save it as a PNG.
 *
 *   SDL_VIDEODRIVER=dummy build/render_scene [OUT.png] [--steps N] [--prey N] [--plain]
 *
 * --plain draws the world without overlays, HUD or inspector.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

enum { WIDTH = 1280, HEIGHT = 800, TOP_BAR = 76, HUNTER_KIND = 1, PATROL_KIND = 2, HIDER_KIND = 3 };

static SteerVehicleId add_vehicle(SteerWorld *world, double x, double y, double heading, uint32_t kind,
                                  double max_speed, double radius)
{
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(x, y);
    def.heading = heading;
    def.velocity = steer_scale(steer_vec2_from_angle(heading), 0.5 * max_speed);
    def.kind = kind;
    def.max_speed = max_speed;
    def.radius = radius;
    SteerVehicleId id;
    if (steer_vehicle_create(world, &def, &id) != STEER_OK) {
        fprintf(stderr, "render_scene: %s\n", steer_world_last_error(world));
        exit(1);
    }
    return id;
}

static void behave(SteerWorld *world, SteerVehicleId id, const SteerBehaviourDef *def)
{
    if (steer_vehicle_set_behaviour(world, id, def) != STEER_OK) {
        fprintf(stderr, "render_scene: %s\n", steer_world_last_error(world));
        exit(1);
    }
}

/// Obstacle and wall avoidance plus containment: what every vehicle in the scene has.
static void keep_safe(SteerWorld *world, SteerVehicleId id)
{
    SteerBehaviourDef avoid = steer_default_behaviour_def(STEER_AVOID_OBSTACLES);
    avoid.weight = 3.0;
    behave(world, id, &avoid);
    SteerBehaviourDef walls = steer_default_behaviour_def(STEER_AVOID_WALLS);
    walls.weight = 3.0;
    behave(world, id, &walls);
    SteerBehaviourDef contain = steer_default_behaviour_def(STEER_CONTAIN);
    contain.weight = 2.0;
    behave(world, id, &contain);
}

typedef struct Scene {
    SteerWorld *world;
    SteerVehicleId hunters[2];
} Scene;

static Scene build_scene(int prey)
{
    SteerWorldDef wdef = steer_default_world_def();
    wdef.width = 1200;
    wdef.height = 680;
    wdef.seed = 2026;
    Scene scene = {steer_world_create(&wdef), {STEER_NULL_ID, STEER_NULL_ID}};
    SteerWorld *world = scene.world;
    if (!world) exit(1);

    static const double obstacles[][3] = {
        {330, 200, 45}, {600, 420, 60}, {840, 230, 40}, {1000, 480, 50}, {290, 520, 30}};
    for (size_t i = 0; i < sizeof obstacles / sizeof *obstacles; i++)
        steer_world_add_obstacle(world, steer_vec2(obstacles[i][0], obstacles[i][1]), obstacles[i][2], NULL);
    steer_world_add_wall(world, steer_vec2(640, 90), steer_vec2(640, 260), NULL);
    steer_world_add_wall(world, steer_vec2(760, 600), steer_vec2(1000, 600), NULL);

    SteerVec2 route[] = {{90, 420}, {430, 400}, {460, 620}, {110, 630}};
    SteerPathId path;
    steer_world_add_path(world, route, 4, true, &path);

    /* Two hunters pursue the first two prey. */
    for (int i = 0; i < prey; i++) {
        double x = 150 + steer_world_random(world) * 900, y = 100 + steer_world_random(world) * 480;
        SteerVehicleId id = add_vehicle(world, x, y, steer_world_random(world) * 6.283, 0, 90, 8);
        SteerBehaviourDef wander = steer_default_behaviour_def(STEER_WANDER);
        behave(world, id, &wander);
        keep_safe(world, id);
        if (i < 2) {
            scene.hunters[i] = add_vehicle(world, x - 140, y + 90 * (i ? 1 : -1), 0.0, HUNTER_KIND, 110, 10);
            SteerBehaviourDef pursue = steer_default_behaviour_def(STEER_PURSUE);
            pursue.pursue.target = steer_target_vehicle(id);
            behave(world, scene.hunters[i], &pursue);
            keep_safe(world, scene.hunters[i]);
        }
    }
    /* Prey flee the hunters when they come close. */
    SteerVehicleId ids[512];
    int count = steer_world_get_vehicles(world, ids, 512);
    for (int i = 0; i < count && i < 512; i++) {
        SteerVehicleState v;
        steer_vehicle_get(world, ids[i], &v);
        if (v.kind != 0) continue;
        SteerBehaviourDef evade = steer_default_behaviour_def(STEER_EVADE);
        evade.evade.target = steer_target_vehicle(scene.hunters[i % 2]);
        evade.evade.threat_range = 140;
        behave(world, ids[i], &evade);
    }
    /* A patrol on the path, and one vehicle hiding from the first hunter. */
    for (int i = 0; i < 3; i++) {
        SteerVehicleId id = add_vehicle(world, 110 + 70 * i, 420 - 2 * i, 0.0, PATROL_KIND, 70, 8);
        SteerBehaviourDef follow = steer_default_behaviour_def(STEER_FOLLOW);
        follow.follow.path = path;
        behave(world, id, &follow);
        keep_safe(world, id);
    }
    SteerVehicleId hider = add_vehicle(world, 900, 330, 3.14, HIDER_KIND, 80, 8);
    SteerBehaviourDef hide = steer_default_behaviour_def(STEER_HIDE);
    hide.hide.target = steer_target_vehicle(scene.hunters[0]);
    behave(world, hider, &hide);
    keep_safe(world, hider);
    return scene;
}

/// State labels, as a script's brain would set them.
static const char *label(void *ctx, SteerVehicleId id)
{
    const SteerWorld *world = ctx;
    SteerVehicleState v;
    if (steer_vehicle_get(world, id, &v) != STEER_OK) return NULL;
    switch (v.kind) {
    case HUNTER_KIND: return "chase";
    case PATROL_KIND: return "patrol";
    case HIDER_KIND: return "hide";
    default: {
        SteerBehaviourState evade;
        if (steer_vehicle_get_behaviour(world, id, STEER_EVADE, NULL, &evade) == STEER_OK &&
            steer_length(evade.force) > 0.0)
            return "flee!";
        return NULL; /* wandering prey stay unlabelled: less clutter */
    }
    }
}

int main(int argc, char **argv)
{
    const char *out = "render_scene.png";
    int steps = 240, prey = 16;
    bool plain = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--steps") && i + 1 < argc)
            steps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--prey") && i + 1 < argc)
            prey = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--plain"))
            plain = true;
        else if (argv[i][0] != '-')
            out = argv[i];
        else {
            fprintf(stderr, "usage: render_scene [OUT.png] [--steps N] [--prey N] [--plain]\n");
            return 2;
        }
    }
    if (prey < 2) prey = 2;

    Scene scene = build_scene(prey);
    SteerWorld *world = scene.world;

    SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "render_scene: SDL_Init: %s\n", SDL_GetError());
        return 1;
    }
    SDL_Surface *surface = SDL_CreateRGBSurfaceWithFormat(0, WIDTH, HEIGHT, 32, SDL_PIXELFORMAT_RGBA32);
    SDL_Renderer *sdl = surface ? SDL_CreateSoftwareRenderer(surface) : NULL;
    SteerRender *render = sdl ? steer_render_create(sdl, RENDER_FONT, 14) : NULL;
    if (!render) {
        fprintf(stderr, "render_scene: %s\n", SDL_GetError());
        return 1;
    }

    for (int i = 0; i < steps; i++) {
        steer_render_capture(render, world);
        steer_world_step(world);
    }

    SteerFrame frame = {0};
    /* Fit the world below a strip kept for the HUD, so the panels cover as little as possible. */
    frame.camera = steer_camera_fit(steer_world_width(world), steer_world_height(world), WIDTH, HEIGHT - TOP_BAR);
    frame.camera.height = HEIGHT;
    frame.camera.center_y -= 0.5 * TOP_BAR / frame.camera.zoom;
    frame.alpha = 1.0;
    frame.overlays = plain ? 0u
                           : STEER_OVERLAY_WANDER | STEER_OVERLAY_AVOIDANCE | STEER_OVERLAY_FORCES |
                                 STEER_OVERLAY_STATES | STEER_OVERLAY_PATHS;
    frame.selected = plain ? (SteerVehicleId)STEER_NULL_ID : scene.hunters[1];
    frame.vehicle_label = label;
    frame.label_ctx = world;
    steer_render_world(render, world, &frame);
    if (!plain) {
        char counts[96];
        snprintf(counts, sizeof counts, "steer render_scene   %d vehicles   t = %.1f s",
                 steer_world_vehicle_count(world), steer_world_time(world));
        const char *hud[] = {
            counts,
            "blue prey wander and evade  red hunters pursue  green patrol a path  amber hides",
            "overlays: wander circle+target, detection box, feelers, velocity (green), force (red)",
        };
        steer_render_hud(render, hud, (int)(sizeof hud / sizeof *hud));
        const char *extra[] = {"state: chase"};
        steer_render_inspector(render, world, scene.hunters[1], "hunter", extra, 1);
    }
    int status = steer_render_save_png(sdl, out);
    if (status != 0)
        fprintf(stderr, "render_scene: saving %s: %s\n", out, SDL_GetError());
    else
        printf("render_scene: %d steps, %d vehicles, saved %s\n", steps, steer_world_vehicle_count(world), out);

    steer_render_destroy(render);
    SDL_DestroyRenderer(sdl);
    SDL_FreeSurface(surface);
    SDL_Quit();
    steer_world_destroy(world);
    return status == 0 ? 0 : 1;
}
