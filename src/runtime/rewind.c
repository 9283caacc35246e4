/* rewind.c - the window's rewind: a recording in memory, past steps shown by replaying it. See
 * rewind.h and docs/runtime.md (Rewind). */
#define _DEFAULT_SOURCE /* realpath */
#include "rewind.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "record.h"
#include "replay.h"

/* The inspector's plots show 10 s: a replay samples the selected vehicle only over the steps that
 * will still be on them (a little more than 10 s at 60 Hz, and at the fastest physics rates the
 * history keeps, which samples at most every 9.8 ms). */
#define HISTORY_STEPS 1100

struct Rewind {
    Recorder *recorder;
    Player *player;    ///< the shown host's replay while in the past; NULL live
    long long head;    ///< the last step recorded once in the past (live: the app's step)
    long long full_at; ///< the step where the recording reached its cap; -1 while it has not
    long long draws;   ///< the shown host's draws while in the past (recorded at a branch)
    int errors_seen;   ///< the host's error count when last looked at
    double last_jump_ms;
    char scene[PATH_MAX];
    long long mark_steps[REWIND_MAX_MARKS];
    unsigned char mark_kinds[REWIND_MAX_MARKS];
    int mark_count;
};

Rewind *rewind_begin(AppOptions *opt)
{
    Rewind *rw = calloc(1, sizeof *rw);
    if (!rw) return NULL;
    rw->recorder = record_begin_memory(opt, REWIND_MEMORY_CAP);
    if (!rw->recorder) {
        free(rw);
        return NULL;
    }
    if (!realpath(opt->script, rw->scene)) snprintf(rw->scene, sizeof rw->scene, "%s", opt->script);
    rw->full_at = -1;
    opt->recorder = rw->recorder;
    opt->tape = record_tape(rw->recorder);
    return rw;
}

void rewind_destroy(Rewind *rw)
{
    if (!rw) return;
    replay_close(rw->player);
    record_close(rw->recorder, 0, NULL, 0);
    free(rw);
}

void rewind_started(Rewind *rw, App *app)
{
    if (!rw) return;
    record_check(rw->recorder, script_world(app->script), 0);
    rw->errors_seen = script_error_count(app->script);
}

bool rewind_in_past(const Rewind *rw)
{
    return rw && rw->player;
}

long long rewind_last_step(const Rewind *rw, const App *app)
{
    if (!rw) return app->steps;
    if (rw->player) return rw->head;
    return rw->full_at >= 0 ? rw->full_at : app->steps;
}

double rewind_last_jump_ms(const Rewind *rw)
{
    return rw ? rw->last_jump_ms : 0.0;
}

void rewind_mark(Rewind *rw, long long step, int kind)
{
    if (!rw || rw->mark_count >= REWIND_MAX_MARKS) return;
    if (rw->mark_count > 0 && rw->mark_steps[rw->mark_count - 1] == step && rw->mark_kinds[rw->mark_count - 1] == kind)
        return; /* one mark per kind and step */
    rw->mark_steps[rw->mark_count] = step;
    rw->mark_kinds[rw->mark_count] = (unsigned char)kind;
    rw->mark_count++;
}

void rewind_note_draw(Rewind *rw, App *app)
{
    if (rw && rw->player)
        rw->draws++;
    else
        record_draw(app->opt.recorder);
}

void rewind_note_frame(Rewind *rw, App *app)
{
    if (!rw || rw->player) return;
    if (rw->full_at < 0 && record_full(rw->recorder)) rw->full_at = app->steps;
    int errors = script_error_count(app->script);
    if (errors > rw->errors_seen) rewind_mark(rw, app->steps, STEER_MARK_ERROR);
    rw->errors_seen = errors;
}

/* An app that replays headless through `player` into `host` from step `steps`: no recording,
 * drawing, trace, watcher or screenshot; the live app's options otherwise (the same seeds, rates
 * and guards). */
static void sim_app(App *sim, const App *app, const Rewind *rw, Player *player, ScriptHost *host, long long steps)
{
    memset(sim, 0, sizeof *sim);
    sim->opt = app->opt;
    sim->opt.script = rw->scene;
    sim->opt.recorder = NULL;
    sim->opt.tape = replay_tape(player);
    sim->opt.replaying = true;
    sim->opt.keep_failed = app->opt.keep_failed >= 0 ? app->opt.keep_failed : !app->opt.headless;
    sim->opt.headless = true;
    sim->opt.screenshot = NULL;
    sim->opt.trace = NULL;
    sim->opt.steps = -1;
    sim->exe = app->exe;
    sim->script = host;
    sim->steps = steps;
    sim->selected = app->selected;
    sim->scale_index = 2;
}

bool rewind_jump(Rewind *rw, App *app, long long step, char *error, size_t error_size)
{
    if (!rw) return false;
    long long last = rewind_last_step(rw, app);
    if (step < 0) step = 0;
    if (step > last) step = last;
    if (!rw->player && step == app->steps) return true; /* live and already there */
    double t0 = guard_now();
    /* forward from a past step shown: play on; else a fresh host from the start */
    bool from_start = !rw->player || step < app->steps;
    Player *player = rw->player;
    ScriptHost *host = app->script;
    App sim;
    if (from_start) {
        size_t len;
        const unsigned char *bytes = record_bytes(rw->recorder, &len);
        player = replay_open_bytes(bytes, len, last, error, error_size);
        if (!player) return false;
        sim_app(&sim, app, rw, player, NULL, 0);
        ScriptConfig config = app_script_config(&sim);
        char why[4096];
        host = script_create(&config, why, sizeof why);
        if (!host) {
            snprintf(error, error_size, "the scene did not load again: %s", why);
            replay_close(player);
            return false;
        }
    }
    sim_app(&sim, app, rw, player, host, from_start ? 0 : app->steps);
    /* the selected vehicle's plots: sampled over the last steps only (the ring holds 10 s) */
    bool ok = replay_play_to(&sim, player, step - HISTORY_STEPS > sim.steps ? step - HISTORY_STEPS : sim.steps);
    sim.history = app->history;
    if (ok && app->history && from_start) history_reset(app->history, 0);
    if (ok) ok = replay_play_to(&sim, player, step);
    if (!ok)
        snprintf(error, error_size, "the replay of the recording diverged: %s",
                 replay_divergence(player) ? replay_divergence(player) : "it ended early");
    if (from_start) { /* the host shown until now goes (a restart in the replay replaced only its own) */
        guard_watch_closing(GUARD_HARD_MIN_S);
        script_destroy(app->script);
        guard_closed();
        replay_close(rw->player);
        rw->player = player;
    }
    if (from_start || sim.script != app->script) app->watched_serial = -1; /* watch what this host loaded */
    app->script = sim.script;
    rw->head = last;
    app->steps = sim.steps;
    app->selected = sim.selected;
    app->accumulator = 0.0;
    app->paused = true;
    rw->draws = 0;
    rw->errors_seen = script_error_count(app->script);
    rw->last_jump_ms = (guard_now() - t0) * 1000.0;
    return ok;
}

void rewind_branch(Rewind *rw, App *app)
{
    if (!rw || !rw->player) return;
    record_truncate(rw->recorder, replay_position(rw->player));
    for (long long i = 0; i < rw->draws; i++) record_draw(rw->recorder);
    script_set_tape(app->script, record_tape(rw->recorder));
    replay_close(rw->player);
    rw->player = NULL;
    rw->draws = 0;
    rw->full_at = -1;
    bool dropped = app->steps < rw->head;
    int kept = 0;
    for (int i = 0; i < rw->mark_count; i++) { /* the old future's marks go with it */
        if (rw->mark_steps[i] > app->steps || (dropped && rw->mark_steps[i] == app->steps)) continue;
        rw->mark_steps[kept] = rw->mark_steps[i];
        rw->mark_kinds[kept++] = rw->mark_kinds[i];
    }
    rw->mark_count = kept;
    if (dropped) rewind_mark(rw, app->steps, STEER_MARK_BRANCH);
    rw->head = app->steps;
}

void rewind_draw(Rewind *rw, App *app)
{
    if (!rw || !app->render) return;
    long long last = rewind_last_step(rw, app);
    double dt = steer_world_dt(script_world(app->script));
    char label[160];
    snprintf(label, sizeof label, "step %lld of %lld (%.1f s)%s", app->steps, last, (double)app->steps * dt,
             rw->player ? "  rewound: Space goes on from here (the rest is dropped)" : "");
    SteerTimeline t = {.last = last,
                       .current = app->steps,
                       .mark_steps = rw->mark_steps,
                       .mark_kinds = rw->mark_kinds,
                       .mark_count = rw->mark_count,
                       .label = app->paused || rw->player ? label : NULL};
    steer_render_timeline(app->render, &t);
}
