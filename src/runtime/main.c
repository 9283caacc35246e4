/* SPDX-License-Identifier: MIT */
/* main.c - `steer [options] SCRIPT`: parses the command line and runs the program; with --record
 * the run is written to a replay file, with --replay FILE a recorded run is played back. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lua.h>

#include "app.h"
#include "guard.h"
#include "luacheckrc.h"
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

static int run_recorded(AppOptions *opt, const char *exe)
{
    char error[1024];
    if (!record_begin(opt, error, sizeof error)) {
        fprintf(stderr, "steer: %s\n", error);
        return 1;
    }
    Recorder *rec = opt->recorder;
    App app;
    if (app_init(&app, opt, exe) != 0) {
        record_close(rec, 0, error, sizeof error);
        return 1;
    }
    record_check(rec, script_world(app.session.host), 0);
    int status = app_run(&app);
    long long steps = app.session.steps;
    record_check(rec, script_world(app.session.host), steps); /* the end state too, wherever the run stopped */
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
    const char *const *args;
    int arg_count = replay_args(p, &args);
    if (arg_count > 0) { /* the scene's `arg` as the recorded run had it */
        opt->arg0 = args[0];
        opt->words = args + 1;
        opt->word_count = arg_count - 1;
    }
    double budget = opt->run.time_budget_ms;
    opt->run = h->run; /* the recorded run's settings, whole */
    if (budget != options_default().run.time_budget_ms) opt->run.time_budget_ms = budget; /* unless given */
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
        printf("summary: steps=%lld time=%.3f vehicles=%d errors=%d\n", app.session.steps,
               steer_world_time(script_world(app.session.host)),
               steer_world_vehicle_count(script_world(app.session.host)), script_error_count(app.session.host));
        app_print_sound(&app);
        if (!app_summary_written(stdout) && status == 0) status = 3;
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
    case OPTIONS_LUACHECKRC: luacheckrc_print(stdout); return 0;
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
