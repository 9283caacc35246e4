/* SPDX-License-Identifier: MIT */
/* session.h - the deterministic part of a run (docs/architecture.md): the script host, the steps,
 * the tape tap (the recording every step and every input goes into) and the rewind's branch point
 * (a past step shown). Everything the scene hears comes in through one door, session_input: live
 * play (input.c, app.c), a replay (replay.c) and the rewind's replays (rewind.c) all drive a
 * session through it, and only it decides what is the scene's input, records it and delivers it.
 * The shell around a session (app.h: window, camera, HUD, selection, overlays, the devices) hears
 * back through SessionHooks. This header knows nothing of SDL, windows or cameras' insides. */
#ifndef STEER_RUNTIME_SESSION_H
#define STEER_RUNTIME_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"
#include "run_settings.h"
#include "script.h"
#include "tape_format.h"

struct Recorder;
struct Rewind;
struct SteerCamera; /* (render.h: a MOTION may say which camera it came through) */

/// Every kind of input a scene (or its run) can be given.
typedef enum SessionInputKind {
    SESSION_KEY_PRESS,   ///< keypressed(name)
    SESSION_KEY_RELEASE, ///< keyreleased(name): only a key the scene holds
    SESSION_POINTER,     ///< where steer.mouse() points: (x, y), no callback
    SESSION_MOTION,      ///< the pointer moved: steer.mouse() and mousemoved(x, y)
    SESSION_PRESS,       ///< steer.mouse() and mousepressed(x, y, button)
    SESSION_RELEASE,     ///< steer.mouse() and mousereleased(x, y, button): only a button the scene holds
    SESSION_RELOAD,      ///< a saved file (name) is loaded again
    SESSION_RESTART,     ///< a fresh world and a fresh run of the scene
    SESSION_VIEW,        ///< the viewer paused, changed the time scale or resized: recorded, never the scene's
} SessionInputKind;

/// One input, as the shell (or a tape) describes it. The shell says what happened; the door alone
/// decides what it is to the scene (a modifier key, a repeat, a click while a past step is shown).
typedef struct SessionInput {
    SessionInputKind kind;
    const char *name; ///< KEY_*: LÖVE's key name ("a", "lshift"); RELOAD: the file's path
    double x, y;      ///< the pointer kinds: the world point
    int button;       ///< PRESS, RELEASE: LÖVE's button number (1 left, 2 right, 3 middle)
    bool repeat;      ///< KEY_PRESS: the keyboard repeating a held key
    bool focus_click; ///< PRESS: the click that gave the window focus (in this frame)
    /// MOTION: the pixel the pointer is at and the camera that put it at (x, y): a recording
    /// writes pixels when it can (smaller). NULL camera: the point is written as it is.
    const struct SteerCamera *camera;
    int sx, sy;
    TapeView view; ///< VIEW: what changed, with its values a (and b for a resize)
    int a, b;
    bool from_tape; ///< played from a recording: delivered as recorded, never recorded again
} SessionInput;

/// What the shell hears of its session. Every member may be NULL.
typedef struct SessionHooks {
    void *ctx;
    void (*before_step)(void *ctx); ///< (the renderer's capture, for interpolation)
    void (*after_step)(void *ctx);  ///< the step's trace, plots, screenshot
    /// The run went on live from a past step (a branch): the devices' state is given to the scene
    /// (through session_input: what the replayed host holds and they no longer do is released).
    void (*settle)(void *ctx);
    /// A restart replaced the host (`was_failed`: the old one never loaded its scene).
    void (*restarted)(void *ctx, bool was_failed);
    /// A save at a past step did not load: its tentative branch is to be taken back (rewind.h).
    void (*reload_undone)(void *ctx, const char *path);
    /// The shell's key names, for the host (ScriptConfig.key_known, ScriptConfig.program_key).
    bool (*key_known)(const char *name, char *hint, size_t hint_size);
    const char *(*program_key)(const char *name, bool *movable);
    /// The shell's sound (ScriptConfig.sound, with its own context: a replayer's hosts, which may
    /// become the live one, are given the live shell's); NULL: none.
    void (*sound)(void *ctx, const float *samples, int count, float volume);
    void *sound_ctx;
} SessionHooks;

typedef struct Session {
    RunSettings run;   ///< keep_failed decided (0 or 1)
    const char *scene; ///< the scene file
    const char *exe;   ///< the program (to find scripts/lib next to it); may be NULL
    const char *arg0;  ///< the scene's `arg`: arg[0], then the words
    const char *const *words;
    int word_count;
    const ScriptTape *tape;        ///< what the host loads texts and reads the clock through; NULL: the disk
    ScriptHost *host;              ///< the scene running (NULL until session_start)
    long long steps;               ///< physics steps taken
    struct Recorder *recorder;     ///< the tape tap: steps and the inputs the door lets through; NULL: none
    struct Rewind *rewind;         ///< the branch point: a past step may be shown (rewind.h); NULL: none
    bool replaying;                ///< a recording plays: the user's inputs only move the view
    bool quiet;                    ///< a replay in the background: prints nothing (the live run did)
    double step_ms, step_ms_total; ///< the world's step: smoothed, and summed for the summary
    SessionHooks hooks;
} Session;

/// Sets a session up for the run `opt` describes (its settings, its tape and recording, whether it
/// replays), with the shell's hooks; with `rewind` (and neither a file recording nor a replay),
/// a recording in memory to rewind through (rewind_begin: it points opt's recorder and tape at it;
/// without memory for it the run goes on unrecorded, said on stderr). No host yet: session_start.
void session_init(Session *s, AppOptions *opt, const char *exe, bool rewind, const SessionHooks *hooks);
/// A session that replays `tape` (a recording of `live`'s run, whose scene is at `scene`) headless
/// into `host` from step `steps`: no recording, no rewind of its own, quiet (the live run printed
/// what it would print again), `live`'s settings otherwise (the same seeds, rates and guards).
void session_init_replayer(Session *s, const Session *live, const char *scene, const ScriptTape *tape, ScriptHost *host,
                           long long steps);
/// The rewind's: `host`, replayed to step `steps`, becomes the one the session runs (the one it ran
/// is the caller's to keep or destroy).
void session_show(Session *s, ScriptHost *host, long long steps);
/// The script host's configuration for this session.
ScriptConfig session_config(const Session *s);
/// Makes the host (and starts the rewind's recording on it). Returns it (s->host), or NULL with
/// the reason in `error`; a host that failed to load its scene (keep_failed) is returned too, with
/// the reason in `error`.
ScriptHost *session_start(Session *s, char *error, size_t error_size);
/// Destroys the host, then the rewind's recording it recorded through.
void session_stop(Session *s);

/// The one door: decides whether `in` is the scene's now, records it on the tape and delivers it.
/// Live input is dropped while replaying; a change of the past (a key or click for the scene, a
/// reload, a restart) while a past step is shown goes on live from it first, and what only looks
/// at the past (a modifier key, a repeat, a release, the click that focused the window, the
/// pointer) is dropped. True when the input reached the scene (or the run).
bool session_input(Session *s, const SessionInput *in);
/// Whether the key of this name (the window's, app_key_name) only modifies others: Shift, Ctrl,
/// Alt, GUI, AltGr, Caps Lock, Num Lock. Pressed at a past step, it changes nothing.
bool session_is_modifier(const char *name);
/// The run goes on live from the past step shown (resumed, stepped): a branch, then the shell
/// settles the devices (SessionHooks.settle). Nothing when live.
void session_go_live(Session *s);
/// True while a past step is shown.
bool session_in_past(const Session *s);

/// One physics step: brains, update(world, dt), the world's step, its checksum on the tape every
/// TAPE_CHECK_INTERVAL steps, with the shell's hooks before and after.
void session_step(Session *s);
/// A frame drew the scene: the tape notes it (while a past step is shown, the rewind counts it).
void session_note_draw(Session *s);

/// What SESSION_RESTART does past the door (the door's own: no other caller).
void session_restart(Session *s);
/// "loaded"/"restarted" messages and errors go through here: nothing when quiet.
bool session_speaks(const Session *s);

#endif
