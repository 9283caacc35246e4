/* SPDX-License-Identifier: MIT */
/* options.h - the command line of the `steer` program, parsed into one struct. */
#ifndef STEER_RUNTIME_OPTIONS_H
#define STEER_RUNTIME_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "run_settings.h"

/* The highest --fps: a frame rate no display has, so that a frame always advances some time. */
#define APP_MAX_FPS 1000.0
/* Physics steps one frame of a window may take (a catch-up at x8 with --physics-hz 1000000 was
 * 2,000,000): past it the frame drops the time left, and the simulation slows down instead. */
#define APP_MAX_STEPS_PER_FRAME 10000

typedef struct AppOptions {
    const char *script;     ///< the scene file
    bool headless;          ///< no window; prints a summary at the end
    long long steps;        ///< stop after this many physics steps; < 0 = run until quit
    const char *screenshot; ///< PNG to save, or NULL
    long long at_step;      ///< step at which to save it; < 0 = at the end
    double fps;             ///< frame cap (window) or virtual frame rate (headless); 0 = uncapped
    bool vsync;
    RunSettings run;   ///< what shapes the run: --seed, --think-hz, --physics-hz, --threads, budgets
    bool watch;        ///< hot reload (always on with a window, off headless unless asked)
    int width, height; ///< window (or headless screenshot) size in pixels
    bool poll;         ///< watch by polling instead of inotify (tests, odd file systems)
    double settle_ms;  ///< a saved file loads once it has had no event for this long; 0 = at once
    unsigned overlays; ///< SteerOverlay bits switched on at start (--overlays)
    bool show_help;    ///< --show-help: the help overlay on at start
    /// --sound 1: the scenes' sound effects are played (headless and in a replay too); --mute 0:
    /// none until the sound key; -1 neither: played in a window, except in a replay
    int sound;
    int select;               ///< select the n-th vehicle (creation order) at start; 0 = none
    const char *trace;        ///< CSV file of one row per vehicle per traced step, or NULL
    long long trace_every;    ///< trace every K-th step; 0 = not given (every step)
    const char *record;       ///< --record FILE: write a replay file of the run (docs/replay.md)
    const char *replay;       ///< --replay FILE: play a recorded run back and check it
    bool rewind;              ///< record in memory to rewind (rewind.h): always in a window; headless when set (tests)
    const char *const *words; ///< the scene's words, after `--` on the command line: arg[1..word_count]
    int word_count;
    const char *arg0; ///< the scene's arg[0]: the SCRIPT as given (NULL: opt->script), or as recorded
    /* Not from the command line: set for a recording or a replay (main.c, replay.c). run.math_seed
     * and run.keep_failed are too. */
    const struct ScriptTape *tape; ///< what the script host loads and reads the clock through (or NULL)
    struct Recorder *recorder;     ///< the recording the run writes into (or NULL)
    bool replaying;                ///< inputs and reloads come from a replay file, not from the user or the disk
    bool quiet; ///< a replay in the background (rewind.c): it prints nothing, the live run printed it all once
} AppOptions;

/// Physics steps of a headless run without --steps or --watch.
#define OPTIONS_DEFAULT_HEADLESS_STEPS 600

AppOptions options_default(void);

/// Whether a scene that fails to load keeps the run going, showing the error until the fix is
/// saved: in a window that runs until it is closed. Headless or with --steps the run ends with the
/// error and exit status 1 (a run of set length is a script's or a test's, and nobody will save a
/// fix into it); a replay does as its recording did.
bool options_keep_failed(const AppOptions *opt);

/// Overlay bits from "wander,forces,..." or "all" (the names of the key table, keys.c); false (and
/// *bad names the word) when a name is unknown.
bool options_parse_overlays(const char *list, unsigned *bits, char *bad, size_t bad_size);
/// The message for an unknown overlay name: "did you mean" the close one, else every name.
void options_overlay_error(const char *bad, char *error, size_t error_size);

typedef enum OptionsResult {
    OPTIONS_RUN,
    OPTIONS_HELP,
    OPTIONS_VERSION,
    OPTIONS_LUACHECKRC,
    OPTIONS_ERROR
} OptionsResult;

/// Parses argv; on OPTIONS_ERROR writes a one-line reason into `error`. Besides each value it
/// rejects what cannot be done as asked: an option given twice with different values, --at-step
/// without --screenshot or past the last step of the run, a screenshot name not ending in .png,
/// --trace-every without --trace.
OptionsResult options_parse(AppOptions *opt, int argc, char **argv, char *error, size_t error_size);

/// What the file system must allow before a run starts: the scene is not a directory, the
/// screenshot's folder exists and is writable. False with a one-line reason in `error`.
bool options_check_paths(const AppOptions *opt, char *error, size_t error_size);

/// The --help text.
void options_print_help(FILE *out, const char *program);
/// The --version line: "steer 0.1.0" (STEER_VERSION, the library's and the Lua module's too).
void options_print_version(FILE *out);

#endif
