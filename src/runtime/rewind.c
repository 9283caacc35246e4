/* SPDX-License-Identifier: MIT */
/* rewind.c - the window's rewind: a recording in memory, past steps shown by replaying it. See
 * rewind.h and docs/runtime.md (Rewind). */
#define _DEFAULT_SOURCE /* realpath */
#include "rewind.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "guard.h"
#include "keys.h"
#include "record.h"
#include "replay.h"

/* Steps more than the plots' window that a replay samples the selected vehicle over (the window
 * is counted in simulated time, the replay in steps). */
#define PLOT_SLACK_STEPS 2
/* Jumps within this many steps of a start point replay quickly enough (~20 ms for the demo at
 * 600): no keyframe is built for a smaller gap. */
#define MIN_GAP_STEPS 600
/* Steps a keyframe builder plays between two looks at the clock. */
#define BUILD_SLICE_STEPS 60

/* A host replayed to a past step and kept there, to start later jumps from. */
typedef struct Keyframe {
    ScriptHost *host;
    Player *player; ///< its replay, the cursor right after its step
    long long step;
    long long player_last; ///< the last step its player's copy of the recording can be trusted up to
} Keyframe;

/* A future a branch dropped, kept aside so that one key brings it back (rewind_swap_future). */
typedef struct Future {
    Recorder *recorder; ///< the whole recording as it was before the branch; NULL when none is kept
    long long last;     ///< its last step
    long long branch;   ///< the step the branch left it at (the recordings are the same up to there)
    long long mark_steps[REWIND_MAX_MARKS];
    unsigned char mark_kinds[REWIND_MAX_MARKS];
    int mark_count;
} Future;

struct Rewind {
    Recorder *recorder;
    Player *player;    ///< the shown host's replay while in the past; NULL live
    long long head;    ///< the last step recorded once in the past (live: the app's step)
    long long full_at; ///< the step where the recording reached its cap; -1 while it has not
    long long draws;   ///< the shown host's draws while in the past (recorded at a branch)
    int errors_seen;   ///< the host's error count when last looked at
    double last_jump_ms;
    char scene[PATH_MAX];
    Keyframe keys[REWIND_KEYFRAMES];
    int key_count;
    Keyframe builder;       ///< a host being replayed (in slices, when idle) to become a keyframe
    long long build_target; ///< the step it stops at; 0 when nothing is being built
    bool build_failed;      ///< a build diverged: none is tried again until the next branch
    long long mark_steps[REWIND_MAX_MARKS];
    unsigned char mark_kinds[REWIND_MAX_MARKS];
    int mark_count;
    Future future;     ///< the future the last branch dropped
    Future held;       ///< while a branch waits to be confirmed (rewind_branch_tentative): the one before
    bool tentative;    ///< a branch that rewind_branch_undo may still take back
    long long swapped; ///< the step rewind_swap_future went back to (-1: none since the last branch)
    bool kept;         ///< the last branch kept the future it dropped
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
    rw->swapped = -1;
    opt->recorder = rw->recorder;
    opt->tape = record_tape(rw->recorder);
    return rw;
}

static void keyframe_free(Keyframe *k)
{
    if (k->host) {
        guard_watch_closing(GUARD_HARD_MIN_S); /* (its finalizers, bounded as at any exit) */
        script_destroy(k->host);
        guard_closed();
    }
    replay_close(k->player);
    memset(k, 0, sizeof *k);
}

static void drop_builder(Rewind *rw)
{
    keyframe_free(&rw->builder);
    rw->build_target = 0;
}

static void future_free(Future *f)
{
    record_close(f->recorder, 0, NULL, 0);
    f->recorder = NULL;
    f->mark_count = 0;
}

void rewind_destroy(Rewind *rw)
{
    if (!rw) return;
    future_free(&rw->future);
    future_free(&rw->held);
    for (int i = 0; i < rw->key_count; i++) keyframe_free(&rw->keys[i]);
    drop_builder(rw);
    replay_close(rw->player);
    record_close(rw->recorder, 0, NULL, 0);
    free(rw);
}

void rewind_started(Rewind *rw, Session *s)
{
    if (!rw) return;
    record_check(rw->recorder, script_world(s->host), 0);
    rw->errors_seen = script_error_count(s->host);
}

bool rewind_in_past(const Rewind *rw) { return rw && rw->player; }

long long rewind_last_step(const Rewind *rw, const Session *s)
{
    if (!rw) return s->steps;
    if (rw->player) return rw->head;
    return rw->full_at >= 0 ? rw->full_at : s->steps;
}

double rewind_last_jump_ms(const Rewind *rw) { return rw ? rw->last_jump_ms : 0.0; }

void rewind_mark(Rewind *rw, long long step, int kind)
{
    if (!rw || rw->mark_count >= REWIND_MAX_MARKS) return;
    if (rw->mark_count > 0 && rw->mark_steps[rw->mark_count - 1] == step && rw->mark_kinds[rw->mark_count - 1] == kind)
        return; /* one mark per kind and step */
    rw->mark_steps[rw->mark_count] = step;
    rw->mark_kinds[rw->mark_count] = (unsigned char)kind;
    rw->mark_count++;
}

void rewind_note_draw(Rewind *rw, Session *s)
{
    if (rw && rw->player)
        rw->draws++;
    else
        record_draw(s->recorder);
}

void rewind_note_errors(Rewind *rw, const Session *s)
{
    if (!rw || rw->player) return;
    int errors = script_error_count(s->host);
    if (errors > rw->errors_seen) rewind_mark(rw, s->steps, STEER_MARK_ERROR);
    rw->errors_seen = errors;
}

void rewind_note_frame(Rewind *rw, const Session *s)
{
    if (!rw || rw->player) return;
    if (rw->full_at < 0 && record_full(rw->recorder)) rw->full_at = s->steps;
    rewind_note_errors(rw, s);
}

/* A session that replays headless through `player` into `host` from step `steps` (session.h). */
static void sim_session(Session *sim, const Session *live, const Rewind *rw, Player *player, ScriptHost *host,
                        long long steps)
{
    session_init_replayer(sim, live, rw->scene, replay_tape(player), host, steps);
}

/* What a replay for the shell samples: the selected vehicle into the plots' ring (when given). A
 * restart in the recording selects nothing and empties the ring, as the live run's did. */
typedef struct Sampler {
    Session *sim;
    History *history;
    SteerVehicleId selected;
} Sampler;

static void sample_step(void *ctx)
{
    Sampler *smp = ctx;
    app_sample_history(smp->history, smp->sim->host, smp->selected, smp->sim->steps);
}

static void sample_restarted(void *ctx, bool was_failed)
{
    Sampler *smp = ctx;
    (void)was_failed;
    smp->selected = (SteerVehicleId)STEER_NULL_ID;
    if (smp->history) history_reset(smp->history, 0);
}

/* Ids carry a tag of the world that made them: the same vehicle (the same slot and generation, the
 * worlds being alike) in another host's world has that world's tag. */
static SteerVehicleId in_world(SteerVehicleId id, ScriptHost *host)
{
    SteerVehicleId any;
    if (id.index1 != 0 && steer_world_get_vehicles(script_world(host), &any, 1) >= 1) id.world = any.world;
    return id;
}

/* Steps the inspector's plots span in `host`'s world: their window of simulated time, in steps. */
static long long plot_steps(ScriptHost *host)
{
    double dt = steer_world_dt(script_world(host));
    return (dt > 0.0 ? (long long)ceil(HISTORY_WINDOW_S / dt) : 0) + PLOT_SLACK_STEPS;
}

/* Plays `*host` on through `player` from step `*steps` to `to`, sampling the selected vehicle into
 * `history` (when given) over the steps the plots show; *host changes when the recording restarts.
 * What was printed live is not printed again: the host is quiet while it replays. */
static bool play(const Rewind *rw, const Session *live, Player *player, ScriptHost **host, long long *steps,
                 long long to, History *history, SteerVehicleId *selected)
{
    Session sim;
    sim_session(&sim, live, rw, player, *host, *steps);
    script_set_quiet(*host, true);
    Sampler smp = {.sim = &sim, .selected = selected ? *selected : (SteerVehicleId)STEER_NULL_ID};
    sim.hooks = (SessionHooks){.ctx = &smp, .after_step = sample_step, .restarted = sample_restarted};
    long long span = plot_steps(*host);
    bool ok = replay_play_to(&sim, player, to - span > sim.steps ? to - span : sim.steps);
    smp.history = history;
    smp.selected = in_world(smp.selected, sim.host);
    if (ok) ok = replay_play_to(&sim, player, to);
    *host = sim.host;
    *steps = sim.steps;
    if (selected) *selected = smp.selected; /* (a restart in the recording clears it) */
    return ok;
}

/* A host of the scene as the recording first loaded it, replaying through `player`. */
static ScriptHost *fresh_host(const Rewind *rw, const Session *live, Player *player, char *error, size_t error_size)
{
    Session sim;
    sim_session(&sim, live, rw, player, NULL, 0);
    char why[4096];
    ScriptHost *host = session_start(&sim, why, sizeof why);
    if (!host) snprintf(error, error_size, "the scene did not load again: %s", why);
    return host;
}

/* Makes keyframe `k` able to play up to `step`: a new copy of the recording when its own is
 * shorter (the run went on since it was made) or was cut (a branch). */
static bool extend(Rewind *rw, Keyframe *k, long long step, long long last, char *error, size_t error_size)
{
    if (k->player_last >= step) return true;
    size_t len;
    const unsigned char *bytes = record_bytes(rw->recorder, &len);
    Player *p = replay_reopen(k->player, bytes, len, last, error, error_size);
    if (!p) return false;
    replay_close(k->player);
    k->player = p;
    k->player_last = last;
    script_set_tape(k->host, replay_tape(p));
    return true;
}

long long rewind_keyframes(const Rewind *rw) { return rw ? rw->key_count : 0; }

/* Shows `step` of the recording, which holds `last` steps; `may_continue`: the host shown may play
 * on to it (it shows a past step of this very recording). */
static bool jump(Rewind *rw, App *app, long long step, long long last, bool may_continue, char *error,
                 size_t error_size)
{
    if (step < 0) step = 0;
    if (step > last) step = last;
    if (may_continue && !rw->player && step == app->session.steps) return true; /* live and already there */
    double t0 = guard_now();
    /* The inspector's plots show the window before the step: going back over steps their ring
     * holds, it is trimmed to the step (what the run had there); otherwise the replay samples the
     * window, so it starts no later than the window's first step. */
    SteerWorld *world = script_world(app->session.host);
    bool inspecting = app->history && steer_vehicle_is_valid(world, app->selected);
    long long span = plot_steps(app->session.host);
    bool trimmed = inspecting && step < app->session.steps &&
                   history_covers(app->history, steer_vehicle_serial(world, app->selected), step - span, step);
    long long sample_from = inspecting && !trimmed ? step - span : step;
    /* Start from the latest of: the step shown (when going forward in the past), a keyframe not
     * past `sample_from`, the beginning. */
    long long shown = may_continue && rw->player && app->session.steps <= step ? app->session.steps : -1;
    int best = -1;
    for (int i = 0; i < rw->key_count; i++)
        if (rw->keys[i].step <= sample_from && (best < 0 || rw->keys[i].step > rw->keys[best].step)) best = i;
    bool continuing = shown >= 0 && (best < 0 || rw->keys[best].step <= shown);
    Keyframe from = {0};
    if (continuing) {
        from = (Keyframe){app->session.host, rw->player, shown, last};
    } else if (best >= 0) {
        from = rw->keys[best]; /* taken out of the pool: it becomes the host shown */
        rw->keys[best] = rw->keys[--rw->key_count];
        if (!extend(rw, &from, step, last, error, error_size)) {
            keyframe_free(&from);
            return false;
        }
    } else {
        size_t len;
        const unsigned char *bytes = record_bytes(rw->recorder, &len);
        from.player = replay_open_bytes(bytes, len, last, error, error_size);
        if (!from.player) return false;
        from.host = fresh_host(rw, &app->session, from.player, error, error_size);
        if (!from.host) {
            replay_close(from.player);
            return false;
        }
    }
    if (trimmed)
        history_trim(app->history, step);
    else if (!continuing && app->history)
        history_reset(app->history, 0); /* sampled again up to the step */
    ScriptHost *host = from.host;
    long long at = from.step;
    SteerVehicleId selected = app->selected;
    bool ok = play(rw, &app->session, from.player, &host, &at, step, trimmed ? NULL : app->history, &selected);
    if (!ok)
        snprintf(error, error_size, "the replay of the recording diverged: %s",
                 replay_divergence(from.player) ? replay_divergence(from.player) : "it ended early");
    if (!ok && !continuing) {
        /* The host shown (the live run, most often) stays: a replay that diverged shows a world
         * the run never had, and taking its place lost the live run and the rest of the recording. */
        rewind_keep_shown_after_divergence(error, error_size, step, app->session.steps, rw->player == NULL);
        guard_watch_closing(GUARD_HARD_MIN_S);
        if (host) script_destroy(host);
        guard_closed();
        replay_close(from.player);
        rw->last_jump_ms = (guard_now() - t0) * 1000.0;
        return false;
    }
    if (!continuing) { /* the host shown until now goes (a restart in the replay replaced only its own) */
        guard_watch_closing(GUARD_HARD_MIN_S);
        script_destroy(app->session.host);
        guard_closed();
        replay_close(rw->player);
        rw->player = from.player;
    }
    if (!continuing || host != app->session.host) app->watched_serial = -1; /* watch what this host loaded */
    session_show(&app->session, host, at);
    script_set_quiet(host, false); /* the run shown: what it does from here is news */
    rw->head = last;
    app->selected = selected;
    app->accumulator = 0.0;
    app->paused = true;
    rw->draws = 0;
    rw->errors_seen = script_error_count(app->session.host);
    rw->last_jump_ms = (guard_now() - t0) * 1000.0;
    return ok;
}

bool rewind_jump(Rewind *rw, App *app, long long step, char *error, size_t error_size)
{
    if (!rw) return false;
    return jump(rw, app, step, rewind_last_step(rw, &app->session), true, error, error_size);
}

/* The step a new keyframe would help most at: the middle of the longest stretch without a start
 * point (the beginning, a keyframe, the step shown); 0 when none is longer than MIN_GAP_STEPS. When
 * the pool is full, the keyframe whose loss merges the two shortest stretches makes room, when
 * their sum is shorter than the longest stretch: so the longest stretch only ever shrinks. */
static long long build_target(Rewind *rw, const App *app, long long last)
{
    long long points[REWIND_KEYFRAMES + 3];
    int n = 0;
    points[n++] = 0;
    for (int i = 0; i < rw->key_count; i++) points[n++] = rw->keys[i].step;
    if (rw->player) points[n++] = app->session.steps;
    points[n++] = last;
    for (int i = 1; i < n; i++) /* (a handful: insertion sort) */
        for (int j = i; j > 0 && points[j] < points[j - 1]; j--) {
            long long t = points[j];
            points[j] = points[j - 1];
            points[j - 1] = t;
        }
    long long gap = 0, target = 0;
    for (int i = 1; i < n; i++)
        if (points[i] - points[i - 1] > gap) gap = points[i] - points[i - 1], target = points[i - 1] + gap / 2;
    if (gap <= MIN_GAP_STEPS) return 0;
    if (rw->key_count < REWIND_KEYFRAMES) return target;
    int evict = -1;
    long long merged_min = 0;
    for (int i = 0; i < rw->key_count; i++) {
        long long below = 0, above = last;
        for (int j = 0; j < rw->key_count; j++) {
            if (j == i) continue;
            if (rw->keys[j].step <= rw->keys[i].step && rw->keys[j].step > below) below = rw->keys[j].step;
            if (rw->keys[j].step > rw->keys[i].step && rw->keys[j].step < above) above = rw->keys[j].step;
        }
        if (evict < 0 || above - below < merged_min) evict = i, merged_min = above - below;
    }
    if (merged_min >= gap) return 0; /* (dropping one would open a stretch as long: no better) */
    keyframe_free(&rw->keys[evict]);
    rw->keys[evict] = rw->keys[--rw->key_count];
    return target;
}

bool rewind_idle(Rewind *rw, App *app, double budget_s)
{
    if (!rw || rw->build_failed) return false;
    double deadline = guard_now() + budget_s;
    long long last = rewind_last_step(rw, &app->session);
    /* One memory cap for the whole run (guard_total_memory: every host): a keyframe is about the
     * size of the live host, and one that would take the run's scripts past --memory-cap is not
     * built; one that passes it while built is dropped, and none is tried again until a branch. */
    if (rw->build_target != 0 && guard_total_memory() > app->session.run.memory_cap) {
        drop_builder(rw);
        rw->build_failed = true;
        return false;
    }
    if (rw->build_target == 0) {
        if (guard_total_memory() + script_memory_used(app->session.host) > app->session.run.memory_cap) return false;
        long long target = build_target(rw, app, last);
        if (target == 0) return false;
        char error[512];
        size_t len;
        const unsigned char *bytes = record_bytes(rw->recorder, &len);
        Keyframe *b = &rw->builder;
        b->player = replay_open_bytes(bytes, len, last, error, sizeof error);
        b->host = b->player ? fresh_host(rw, &app->session, b->player, error, sizeof error) : NULL;
        if (!b->host) {
            drop_builder(rw);
            rw->build_failed = true;
            return false;
        }
        b->step = 0;
        b->player_last = last;
        rw->build_target = target;
    }
    Keyframe *b = &rw->builder;
    while (b->step < rw->build_target && guard_now() < deadline) {
        long long to = b->step + BUILD_SLICE_STEPS < rw->build_target ? b->step + BUILD_SLICE_STEPS : rw->build_target;
        if (!play(rw, &app->session, b->player, &b->host, &b->step, to, NULL, NULL)) {
            drop_builder(rw);
            rw->build_failed = true;
            return false;
        }
    }
    if (b->step == rw->build_target && rw->key_count < REWIND_KEYFRAMES) {
        rw->keys[rw->key_count++] = *b;
        memset(b, 0, sizeof *b);
        rw->build_target = 0;
    }
    return true;
}

/* Keyframes past `step` replayed a future that is no longer the recording's; the others are good up
 * to `step`. The keyframe being built goes too. */
static void forget_keyframes_after(Rewind *rw, long long step)
{
    int keep = 0;
    for (int i = 0; i < rw->key_count; i++) {
        if (rw->keys[i].step > step) {
            keyframe_free(&rw->keys[i]);
            continue;
        }
        if (rw->keys[i].player_last > step) rw->keys[i].player_last = step;
        rw->keys[keep++] = rw->keys[i];
    }
    rw->key_count = keep;
    drop_builder(rw);
    rw->build_failed = false;
}

/* Keeps the recording as it is now (its last step `last`, branching at `branch`) aside in `rw->future`;
 * what was kept there before is freed, or held while the branch is tentative. */
static bool keep_future(Rewind *rw, long long branch, long long last)
{
    Recorder *copy = record_clone(rw->recorder);
    if (!copy) {
        fprintf(stderr, "steer: rewind: out of memory to keep the %lld steps the branch dropped: they are lost\n",
                last - branch);
        return false;
    }
    future_free(&rw->held);
    if (rw->tentative)
        rw->held = rw->future; /* (the held recorder is moved, not copied: future's is replaced below) */
    else
        future_free(&rw->future);
    rw->future.recorder = copy;
    rw->future.last = last;
    rw->future.branch = branch;
    memcpy(rw->future.mark_steps, rw->mark_steps, sizeof rw->mark_steps);
    memcpy(rw->future.mark_kinds, rw->mark_kinds, sizeof rw->mark_kinds);
    rw->future.mark_count = rw->mark_count;
    return true;
}

bool rewind_branch(Rewind *rw, Session *s)
{
    if (!rw || !rw->player) return false;
    bool dropped = s->steps < rw->head;
    rw->kept = dropped && keep_future(rw, s->steps, rw->head);
    record_truncate(rw->recorder, replay_position(rw->player));
    for (long long i = 0; i < rw->draws; i++) record_draw(rw->recorder);
    script_set_tape(s->host, record_tape(rw->recorder));
    replay_close(rw->player);
    rw->player = NULL;
    rw->draws = 0;
    rw->full_at = -1;
    forget_keyframes_after(rw, s->steps);
    int kept = 0;
    for (int i = 0; i < rw->mark_count; i++) { /* the old future's marks go with it (kept aside with it) */
        if (rw->mark_steps[i] > s->steps || (dropped && rw->mark_steps[i] == s->steps)) continue;
        rw->mark_steps[kept] = rw->mark_steps[i];
        rw->mark_kinds[kept++] = rw->mark_kinds[i];
    }
    rw->mark_count = kept;
    if (dropped) {
        rewind_mark(rw, s->steps, STEER_MARK_BRANCH);
        rw->swapped = -1;
        if (!rw->tentative && rw->future.recorder)
            fprintf(stderr,
                    "steer: rewind: the run branched at step %lld; the %lld steps it dropped are kept: %s goes back to "
                    "them\n",
                    s->steps, rw->head - s->steps, keys_for_action(KEY_SWAP_FUTURE)->key);
    }
    rw->head = s->steps;
    return true;
}

void rewind_branch_tentative(Rewind *rw, Session *s)
{
    if (!rw || !rw->player) return;
    rw->tentative = true;
    rw->tentative = rewind_branch(rw, s) && rw->kept; /* (nothing dropped, or nothing kept: nothing to undo) */
}

void rewind_branch_confirm(Rewind *rw)
{
    if (!rw || !rw->tentative) return;
    rw->tentative = false;
    future_free(&rw->held);
    fprintf(stderr,
            "steer: rewind: the run branched at step %lld; the %lld steps it dropped are kept: %s goes back to them\n",
            rw->future.branch, rw->future.last - rw->future.branch, keys_for_action(KEY_SWAP_FUTURE)->key);
}

/* Makes the kept future the recording (and the recording the kept future), showing step `step`. */
static bool swap_future(Rewind *rw, App *app, long long step, bool mark, char *error, size_t error_size)
{
    long long now_last = rewind_last_step(rw, &app->session), branch = rw->future.branch;
    long long last = rw->future.last;
    record_swap(rw->recorder, rw->future.recorder);
    long long steps[REWIND_MAX_MARKS];
    unsigned char kinds[REWIND_MAX_MARKS];
    int count = rw->mark_count;
    memcpy(steps, rw->mark_steps, sizeof steps);
    memcpy(kinds, rw->mark_kinds, sizeof kinds);
    memcpy(rw->mark_steps, rw->future.mark_steps, sizeof steps);
    memcpy(rw->mark_kinds, rw->future.mark_kinds, sizeof kinds);
    rw->mark_count = rw->future.mark_count;
    memcpy(rw->future.mark_steps, steps, sizeof steps);
    memcpy(rw->future.mark_kinds, kinds, sizeof kinds);
    rw->future.mark_count = count;
    rw->future.last = now_last;
    if (mark) rewind_mark(rw, branch, STEER_MARK_BRANCH); /* (the two recordings part there, either way round) */
    forget_keyframes_after(rw, branch);
    rw->full_at = -1;
    rw->head = last;
    return jump(rw, app, step, last, false, error, error_size);
}

bool rewind_branch_undo(Rewind *rw, App *app, char *error, size_t error_size)
{
    if (!rw || !rw->tentative) return true;
    rw->tentative = false;
    long long branch = rw->future.branch;
    bool ok = swap_future(rw, app, branch, false, error, error_size);
    future_free(&rw->future); /* the branch undone, the future kept before it again */
    rw->future = rw->held;
    rw->held = (Future){0};
    return ok;
}

bool rewind_swap_future(Rewind *rw, App *app, char *error, size_t error_size)
{
    if (!rw || !rw->future.recorder) {
        snprintf(error, error_size, "no branch has dropped steps: there is no other future to go back to");
        return false;
    }
    long long branch = rw->future.branch;
    bool ok = swap_future(rw, app, branch, true, error, error_size);
    rw->swapped = branch;
    fprintf(stderr,
            "steer: rewind: back to the future dropped at step %lld (%lld steps; the one left is kept: %s again "
            "goes back to it)\n",
            branch, rw->head - branch, keys_for_action(KEY_SWAP_FUTURE)->key);
    return ok;
}

long long rewind_dropped_steps(const Rewind *rw, long long *branch)
{
    if (!rw || !rw->future.recorder) return 0;
    if (branch) *branch = rw->future.branch;
    return rw->future.last - rw->future.branch;
}

long long rewind_timeline_span(const Rewind *rw, const Session *s)
{
    long long last = rewind_last_step(rw, s);
    return rw && rw->future.recorder && rw->future.last > last ? rw->future.last : last;
}

void rewind_timeline(const Rewind *rw, App *app, SteerTimeline *t, char *label, size_t label_size)
{
    long long last = rewind_last_step(rw, &app->session);
    /* The bar spans the whole recording; the label counts within the run shown, from its restart
     * (the world's clock, which the HUD shows, started again there) to the next one or the end. */
    long long from = 0, to = last;
    for (int i = 0; i < rw->mark_count; i++) {
        if (rw->mark_kinds[i] != STEER_MARK_RESTART) continue;
        if (rw->mark_steps[i] <= app->session.steps) from = rw->mark_steps[i];
        if (rw->mark_steps[i] > app->session.steps && rw->mark_steps[i] < to) to = rw->mark_steps[i];
    }
    char kept[128] = "", past[96] = "";
    long long branch = 0, dropped = rewind_dropped_steps(rw, &branch);
    if (dropped > 0) /* the other future, and the key back to it */
        snprintf(kept, sizeof kept, "   %s: the %lld steps %s at %lld", app_action_key(app, KEY_SWAP_FUTURE), dropped,
                 rw->swapped >= 0 ? "left" : "dropped", branch);
    if (rw->player) snprintf(past, sizeof past, "  rewound: %s goes on from here", app_action_key(app, KEY_PAUSE));
    snprintf(label, label_size, "step %lld of %lld (%.1f s%s)%s%s", app->session.steps - from, to - from,
             steer_world_time(script_world(app->session.host)), from > 0 ? " since the restart" : "", past, kept);
    *t = (SteerTimeline){.last = last,
                         .current = app->session.steps,
                         .mark_steps = rw->mark_steps,
                         .mark_kinds = rw->mark_kinds,
                         .mark_count = rw->mark_count,
                         .label = app->paused || rw->player ? label : NULL,
                         .span = rewind_timeline_span(rw, &app->session),
                         .future_branch = branch,
                         .future_last = dropped > 0 ? branch + dropped : 0};
}

void rewind_draw(Rewind *rw, App *app)
{
    if (!rw || !app->render) return;
    char label[320];
    SteerTimeline t;
    rewind_timeline(rw, app, &t, label, sizeof label);
    steer_render_timeline(app->render, &t);
}
