/* SPDX-License-Identifier: MIT */
/* fuzz_scene.c - libFuzzer harness for the program's scene host: the input is a scene file (Lua
 * text) run by the real App, headless, with a rewind recording, under a small time budget and
 * memory cap, then driven by a list of actions between calls: frames (brains, update, draw), keys
 * and clicks for the scene, reloads of the file, restarts, rewinds to a past step and back, keyframe
 * building, the inspector's reads. Whatever the scene does (hostile metatables on option and scene
 * tables, closing or stepping its world from callbacks, endless loops, error objects, coroutines,
 * memory hogs), the program must not crash (ASan/UBSan), hang, or break its world:
 * steer_world_check_state() runs after every action.
 *
 * The actions come after the scene, on a last line `--@ ACTIONS` (a Lua comment, so the file is a
 * scene as it is); without one, DEFAULT_ACTIONS. Each character is one action:
 *   f  a frame of 1/60 s        F  ten frames           k  the key `a` (the scene's)
 *   p  Space (pause / resume)   c  a click and a move   r  reload the scene file (saved again)
 *   R  restart (F5)             b  rewind to half the steps, then play on a frame
 *   w  build keyframes          i  the inspector's reads of every vehicle
 * The corpus (tests/fuzz/corpus/scene) holds every reproducer of issue #29; `make test` replays it. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "options.h"
#include "rewind.h"
#include "script.h"
#include "world_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_ACTIONS = 48, MAX_SCENE = 64 * 1024 };
static const char DEFAULT_ACTIONS[] = "fFkcfirfbfpfwfiRf";

static char dir[64];
static char scene_path[128];

static bool write_scene(const uint8_t *data, size_t size)
{
    FILE *f = fopen(scene_path, "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

static void check_world(App *app)
{
    SteerWorld *world = app->session.host ? script_world(app->session.host) : NULL;
    if (!world) return;
    char why[256];
    if (!steer_world_check_state(world, why, sizeof why)) {
        fprintf(stderr, "fuzz_scene: the world broke: %s\n", why);
        abort();
    }
}

static void inspect(App *app)
{
    SteerWorld *world = script_world(app->session.host);
    SteerVehicleId ids[64];
    int n = steer_world_get_vehicles(world, ids, 64);
    for (int i = 0; i < n && i < 64; i++) {
        const char **lines;
        script_inspector_lines(app->session.host, ids[i], &lines);
        script_vehicle_state(app->session.host, ids[i]);
        script_kind_name(app->session.host, ids[i]);
    }
}

static void act(App *app, char action, const uint8_t *scene, size_t scene_size)
{
    switch (action) {
    case 'f': app_frame(app, 1.0 / 60.0); break;
    case 'F':
        for (int i = 0; i < 10; i++) app_frame(app, 1.0 / 60.0);
        break;
    case 'k':
        app_feed_key(app, SDLK_a, 0);
        app_feed_key_event(app, SDL_KEYUP, SDLK_a, 0, false);
        break;
    case 'p': app_feed_key(app, SDLK_SPACE, 0); break;
    case 'c':
        app_feed_motion(app, 200, 150);
        app_feed_button(app, SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, 400, 300);
        app_feed_button(app, SDL_MOUSEBUTTONUP, SDL_BUTTON_LEFT, 400, 300);
        break;
    case 'r':
        if (write_scene(scene, scene_size))
            session_input(&app->session, &(SessionInput){.kind = SESSION_RELOAD, .name = scene_path});
        break;
    case 'R': app_restart(app); break;
    case 'b':
        app_rewind_to(app, app->session.steps / 2);
        app_frame(app, 1.0 / 60.0);
        break;
    case 'w': rewind_idle(app->session.rewind, app, 0.02); break;
    case 'i': inspect(app); break;
    default: break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > MAX_SCENE) return 0;
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/steer_fuzz_scene_XXXXXX");
        if (!mkdtemp(dir)) abort();
        snprintf(scene_path, sizeof scene_path, "%s/scene.lua", dir);
    }
    /* the actions: the text after the last "--@ " line start, up to its line's end */
    const char *actions = DEFAULT_ACTIONS;
    char given[MAX_ACTIONS + 1];
    for (size_t i = size; i-- > 0;) {
        if (data[i] == '@' && i >= 2 && data[i - 1] == '-' && data[i - 2] == '-' && (i == 2 || data[i - 3] == '\n')) {
            size_t n = 0;
            for (size_t j = i + 1; j < size && data[j] != '\n' && n < MAX_ACTIONS; j++)
                if (data[j] != ' ') given[n++] = (char)data[j];
            given[n] = '\0';
            actions = given;
            break;
        }
    }
    if (!write_scene(data, size)) return 0;

    static App app;
    AppOptions opt = options_default();
    opt.headless = true;
    opt.rewind = true;
    opt.quiet = true;
    opt.steps = -1;
    opt.run.has_seed = true;
    opt.run.seed = 1;
    opt.run.time_budget_ms = 50;
    opt.run.memory_cap = (size_t)64 << 20;
    opt.width = 800;
    opt.height = 600;
    opt.script = scene_path;
    if (app_init(&app, &opt, NULL) != 0) return 0; /* (it freed what it made) */
    check_world(&app);
    for (const char *a = actions; *a; a++) {
        act(&app, *a, data, size);
        check_world(&app);
    }
    app_shutdown(&app);
    return 0;
}
