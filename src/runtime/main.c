/* main.c - `steer [options] SCRIPT`: parses the command line and runs the program; with --record
 * the run is written to a replay file, with --replay FILE a recorded run is played back. */
#define _DEFAULT_SOURCE /* realpath */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lua.h>

#include "app.h"
#include "guard.h"
#include "options.h"
#include "record.h"
#include "replay.h"

/* Runs the app to its end and closes it, finalizers bounded as at any exit. */
static int run_app(App *app)
{
    int status = app_run(app);
    guard_watch_closing(GUARD_HARD_MIN_S);
    app_shutdown(app);
    guard_closed();
    return status;
}

/* What the recording's header says about the run: the options that shape it. */
static TapeHeader header_of(const AppOptions *opt, const char *scene)
{
    TapeHeader h;
    memset(&h, 0, sizeof h);
    snprintf(h.program, sizeof h.program, "%s", STEER_VERSION);
    snprintf(h.lua, sizeof h.lua, "%s", LUA_RELEASE);
    snprintf(h.scene, sizeof h.scene, "%s", scene);
    h.has_seed = opt->has_seed;
    h.seed = opt->seed;
    h.math_seed = opt->math_seed;
    h.has_think_hz = opt->has_think_hz;
    h.think_hz = opt->think_hz;
    h.physics_hz = opt->physics_hz;
    h.threads = opt->threads;
    h.time_budget_ms = opt->time_budget_ms;
    h.memory_cap = opt->memory_cap;
    h.width = opt->width;
    h.height = opt->height;
    h.keep_failed = !opt->headless;
    h.check_interval = TAPE_CHECK_INTERVAL;
    return h;
}

static int run_recorded(AppOptions *opt, const char *exe)
{
    char scene[PATH_MAX], error[1024];
    if (!realpath(opt->script, scene)) {
        fprintf(stderr, "steer: the scene failed to load: cannot open scene %s: no such file\n", opt->script);
        return 1;
    }
    /* Lua seeds math.random from the clock; a recording picks the seed, so that its replay draws alike. */
    opt->has_math_seed = !opt->has_seed;
    opt->math_seed = ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid();
    TapeHeader header = header_of(opt, scene);
    Recorder *rec = record_open(opt->record, &header, error, sizeof error);
    if (!rec) {
        fprintf(stderr, "steer: %s\n", error);
        return 1;
    }
    opt->recorder = rec;
    opt->tape = record_tape(rec);
    App app;
    if (app_init(&app, opt, exe) != 0) {
        record_close(rec, 0, error, sizeof error);
        return 1;
    }
    record_check(rec, script_world(app.script), 0);
    int status = app_run(&app);
    long long steps = app.steps;
    guard_watch_closing(GUARD_HARD_MIN_S);
    app_shutdown(&app);
    guard_closed();
    if (!record_close(rec, steps, error, sizeof error)) {
        fprintf(stderr, "steer: %s\n", error);
        if (status == 0) status = 1;
    }
    return status;
}

static int run_replay(AppOptions *opt, const char *exe)
{
    char error[1024];
    Player *p = replay_open(opt->replay, error, sizeof error);
    if (!p) {
        fprintf(stderr, "steer: %s\n", error);
        return 1;
    }
    const TapeHeader *h = replay_header(p);
    if (strcmp(h->program, STEER_VERSION) != 0 || strcmp(h->lua, LUA_RELEASE) != 0)
        fprintf(stderr, "steer: warning: %s was recorded by steer %s on %s; this is steer %s on %s: it may diverge\n",
                opt->replay, h->program, h->lua, STEER_VERSION, LUA_RELEASE);
    opt->script = h->scene;
    opt->has_seed = h->has_seed;
    opt->seed = h->seed;
    opt->has_math_seed = !h->has_seed;
    opt->math_seed = h->math_seed;
    opt->has_think_hz = h->has_think_hz;
    opt->think_hz = h->think_hz;
    opt->physics_hz = h->physics_hz;
    opt->threads = h->threads;
    opt->memory_cap = h->memory_cap;
    opt->keep_failed = h->keep_failed;
    opt->tape = replay_tape(p);
    opt->replaying = true;
    opt->steps = -1; /* the recording says when it ends */
    App app;
    if (app_init(&app, opt, exe) != 0) {
        replay_close(p);
        return REPLAY_DIVERGED_STATUS;
    }
    int status = replay_run(&app, p);
    if (opt->headless) {
        printf("summary: steps=%lld time=%.3f vehicles=%d errors=%d\n", app.steps,
               steer_world_time(script_world(app.script)), steer_world_vehicle_count(script_world(app.script)),
               script_error_count(app.script));
        fflush(stdout);
    }
    guard_watch_closing(GUARD_HARD_MIN_S);
    app_shutdown(&app);
    guard_closed();
    replay_close(p);
    return status;
}

int main(int argc, char **argv)
{
    AppOptions opt = options_default();
    char error[512];
    switch (options_parse(&opt, argc, argv, error, sizeof error)) {
    case OPTIONS_HELP: options_print_help(stdout, argv[0]); return 0;
    case OPTIONS_VERSION: options_print_version(stdout); return 0;
    case OPTIONS_ERROR: fprintf(stderr, "steer: %s\n", error); return 1;
    case OPTIONS_RUN: break;
    }
    if (!options_check_paths(&opt, error, sizeof error)) {
        fprintf(stderr, "steer: %s\n", error);
        return 1;
    }
    if (opt.replay) return run_replay(&opt, argv[0]);
    if (opt.record) return run_recorded(&opt, argv[0]);
    App app;
    if (app_init(&app, &opt, argv[0]) != 0) return 1;
    return run_app(&app);
}
