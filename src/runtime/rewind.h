/* SPDX-License-Identifier: MIT */
/* rewind.h - rewinding a run in the window (docs/runtime.md, Rewind). The run is recorded in
 * memory as it goes (record.c's format, bounded by REWIND_MEMORY_CAP); to show step k a session of
 * its own replays that recording headless up to step k through its door (replay.c), and its host
 * becomes the app's session's host.
 * Lua's state cannot be copied, so replaying is the exact way back: every checksum on the way is
 * compared with the recording's. Going forward from the step shown plays on from there, with no
 * replay from the start. When the run goes on live from a past step (resumed, stepped, a key or
 * click for the scene, a reload that loads, a restart), the recording is cut there and goes on from
 * that step: the timeline marks where the branch began, and the old future is kept aside (one at a
 * time) for rewind_swap_future to bring back. A save at a past step branches tentatively: one that
 * fails to load is taken back (rewind_branch_undo), so that it never drops the future. */
#ifndef STEER_RUNTIME_REWIND_H
#define STEER_RUNTIME_REWIND_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"
#include "render.h"
#include "session.h"

typedef struct App App; /* (app.h: the shell, whose view a jump moves) */

/// Bytes the in-memory recording may hold: 64 MiB, about 14 hours of the hunter/prey demo played
/// with the pointer moving every frame. Past it the run goes on unrecorded (the timeline ends where
/// the recording stopped).
#define REWIND_MEMORY_CAP ((size_t)64 << 20)
/// Markers kept for the timeline (reloads, errors, branches); later ones beyond it are not marked.
#define REWIND_MAX_MARKS 1024

/// Hosts kept at past steps to start jumps from (keyframes): a jump replays only from the nearest
/// one before its step. The hunter/prey demo's host holds about 0.3 MB of Lua.
#define REWIND_KEYFRAMES 16
/// Seconds of each window frame given to building keyframes: while running, and while paused.
#define REWIND_IDLE_LIVE_S 0.001
#define REWIND_IDLE_PAUSED_S 0.004

typedef struct Rewind Rewind;

/// Starts the recording in memory of the run `opt` describes: points opt->recorder and opt->tape at
/// it and picks math.random's seed when --seed is not given. NULL when out of memory.
Rewind *rewind_begin(AppOptions *opt);
void rewind_destroy(Rewind *rw);
/// After the session made its host: the recording's first checksum (step 0).
void rewind_started(Rewind *rw, Session *s);

/// True while the app shows a past step (a host replayed from the recording).
bool rewind_in_past(const Rewind *rw);
/// The last step recorded: the live run's step, or where the recording stopped.
long long rewind_last_step(const Rewind *rw, const Session *s);

/// Shows step `step` (clamped to 0..last): the app's host becomes one replayed to that step (played
/// on from the host shown when it is not past `step`), paused. False with the reason in `error`
/// (the replay diverged from the recording, or out of memory): the app then shows what it could.
bool rewind_jump(Rewind *rw, App *app, long long step, char *error, size_t error_size);
/// A jump's replay diverged (the reason in `error`): rewrites `error` as the message the user gets,
/// naming `step`, why, the likely hazards, and that the run stays at `shown` (live or not).
/// (rewind_divergence.c)
void rewind_keep_shown_after_divergence(char *error, size_t error_size, long long step, long long shown, bool live);

/// Idle work, at most `budget_s` seconds of it: builds keyframes (a host replayed in slices to the
/// middle of the longest stretch of the recording without one), so that later jumps replay less.
/// False when there was nothing to do.
bool rewind_idle(Rewind *rw, App *app, double budget_s);
/// Keyframes built and not used yet.
long long rewind_keyframes(const Rewind *rw);
/// The app goes on live from the step shown: the recording is cut at that step and records from
/// there; when steps were dropped, a branch mark goes on the timeline and the dropped future is kept
/// aside (replacing the one kept before), for rewind_swap_future. False (nothing done) when not in
/// the past.
bool rewind_branch(Rewind *rw, Session *s);
/// A branch that may be taken back (a save while a past step is shown, which may fail to load):
/// rewind_branch_undo restores the recording, the future kept before and the step shown, as if the
/// branch had never been; rewind_branch_confirm makes it a branch like any other.
void rewind_branch_tentative(Rewind *rw, Session *s);
void rewind_branch_confirm(Rewind *rw);
/// False with the reason when the step could not be shown again (the app shows what it could).
bool rewind_branch_undo(Rewind *rw, App *app, char *error, size_t error_size);
/// Goes back to the future the last branch dropped: it becomes the recording, shown at the branch's
/// step (paused), and the recording as it was is kept aside instead, so the same call goes back
/// again. False with the reason when no future is kept or its step could not be shown.
bool rewind_swap_future(Rewind *rw, App *app, char *error, size_t error_size);
/// Steps the kept future has past its branch (0 when none is kept); *branch its step.
long long rewind_dropped_steps(const Rewind *rw, long long *branch);
/// The steps the timeline spans: the recording's, and the kept future's when it goes further.
long long rewind_timeline_span(const Rewind *rw, const Session *s);

/// A frame drew the scene (its draw callback ran): recorded live, counted while in the past (a
/// branch records them, so that a replay calls draw as often).
void rewind_note_draw(Rewind *rw, Session *s);
/// After each frame: marks the steps where scripts reloaded or failed.
void rewind_note_frame(Rewind *rw, const Session *s);
/// Marks an error at the step now when scripts failed since the last look (after a reload: a save
/// that fails is marked where its reload is, not a step later).
void rewind_note_errors(Rewind *rw, const Session *s);
void rewind_mark(Rewind *rw, long long step, int kind);

/// What the timeline shows: the span, the step shown, the marks (in step order) and the label,
/// written into `label` ("step 120 of 400 (2.0 s since the restart)": counted from the last
/// restart at or before the step shown, as the HUD's clock is). NULL label while running live.
void rewind_timeline(const Rewind *rw, App *app, SteerTimeline *timeline, char *label, size_t label_size);
/// Draws the timeline at the bottom of the window.
void rewind_draw(Rewind *rw, App *app);
/// How long the last jump took, ms (the HUD shows it).
double rewind_last_jump_ms(const Rewind *rw);

#endif
