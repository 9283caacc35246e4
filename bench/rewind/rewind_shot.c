/* SPDX-License-Identifier: MIT */
/* rewind_shot.c - docs/rewind.png: the hunter/prey demo (a copy in a temporary folder) played for
 * 40 s with the pointer moving, a module saved at 10 s (a reload), saved broken at 15 s and fixed
 * (a reload and its error, then a reload, stacked on one step), then rewound to 20 s where a key
 * for the scene branches the run, which goes on 10 s and is restarted (F5) at 30 s and runs 5 s
 * more; then rewound to 24.8 s with hunter #2 selected and its plots full, and the picture taken:
 * the timeline with its marks, the step shown and the label of a rewound run (counted within the
 * run before the restart), the inspector. The program's own loop, headless with a renderer, as
 * `--screenshot` draws it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "rewind.h"

static void feed_motion(App *app, int x, int y) { app_feed_motion(app, x, y); }
static void feed_key(App *app, SDL_Keycode sym) { app_feed_key(app, sym, 0); }

static void run_to(App *app, long long step)
{
    for (long long f = 0; app->session.steps < step; f++) {
        feed_motion(app, 512 + (int)(300 * sin(app->session.steps * 0.01)),
                    384 + (int)(200 * sin(app->session.steps * 0.02)));
        app_frame(app, 1.0 / 60.0);
    }
}

/* Saves `text` as `path` and runs frames (in real time: the watcher sees the save) until it loads. */
static void save(App *app, const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) exit(1);
    fputs(text, f);
    fclose(f);
    for (int i = 0; i < 50; i++) {
        app_frame(app, 0.0); /* (no time passes for the world: the save lands at this step) */
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : "docs/rewind.png";
    char dir[] = "/tmp/steer_rewind_shot_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    char cmd[512], scene[256], rules[256];
    snprintf(cmd, sizeof cmd, "cp -r scripts/hunter_prey.lua scripts/hunter_prey %s/", dir);
    if (system(cmd) != 0) return 1;
    snprintf(scene, sizeof scene, "%s/hunter_prey.lua", dir);
    snprintf(rules, sizeof rules, "%s/hunter_prey/rules.lua", dir);
    FILE *f = fopen(rules, "r");
    if (!f) return 1;
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 64, f);
    fclose(f);
    text[n] = '\0';
    AppOptions opt = options_default();
    opt.headless = true;
    opt.rewind = true;
    opt.watch = true;
    opt.script = scene;
    opt.screenshot = out;
    opt.run.has_seed = true;
    opt.run.seed = 4;
    opt.steps = 100000;
    opt.overlays = STEER_OVERLAY_FORCES;
    static App app;
    if (app_init(&app, &opt, "build/steer") != 0) return 1;
    run_to(&app, 600);
    save(&app, rules, text); /* the same rules saved again: a reload */
    run_to(&app, 900);
    save(&app, rules, "return {\n"); /* broken: an error */
    save(&app, rules, text);         /* fixed: a reload */
    run_to(&app, 2400);
    char error[2048];
    if (!rewind_jump(app.session.rewind, &app, 1200, error, sizeof error)) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    feed_key(&app, SDLK_h); /* a hunter more at 20 s: the run branches there */
    feed_key(&app, SDLK_SPACE);
    run_to(&app, 1800);
    feed_key(&app, SDLK_F5); /* a restart at 30 s */
    run_to(&app, 2100);
    if (!rewind_jump(app.session.rewind, &app, 1500, error, sizeof error)) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    SteerVehicleId ids[2]; /* hunter #2 (the restart cleared the selection), its plots by a jump */
    if (steer_world_get_vehicles(script_world(app.session.host), ids, 2) < 2) return 1;
    app.selected = ids[1];
    if (!rewind_jump(app.session.rewind, &app, 1490, error, sizeof error)) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    app.fps = 60.0; /* (what a window would show; headless frames have no rate of their own) */
    app_render(&app, 1.0);
    int status = steer_render_save_png(app.sdl, out);
    app.opt.screenshot = NULL;
    app_shutdown(&app);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) return 1;
    if (status == 0) printf("wrote %s\n", out);
    return status == 0 ? 0 : 1;
}
