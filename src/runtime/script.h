/* SPDX-License-Identifier: MIT */
/* script.h - the Lua host of the `steer` program: one lua_State (capped allocator, time budget)
 * running a scene script, its callbacks, the brains of its vehicles, and reloads of its files.
 *
 * Every call into Lua goes through one protected-call helper with a traceback; an error is kept
 * for the on-screen panel, printed on stderr and counted, and the program goes on.
 */
#ifndef STEER_RUNTIME_SCRIPT_H
#define STEER_RUNTIME_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <lua.h>

#include "steer/steer.h"

#include "run_settings.h"

struct SteerRender;

/// A file a script opened for reading (io.open, io.lines), as the recording keeps it.
typedef enum ScriptFileOutcome {
    SCRIPT_FILE_FAILED,     ///< it did not open: `message` (strerror's) and `errnum`
    SCRIPT_FILE_READ,       ///< its bytes, read whole when it was opened: `text`, `len`
    SCRIPT_FILE_UNCAPTURED, ///< not a regular file, or over SCRIPT_FILE_CAPTURE_MAX: read from the machine
    SCRIPT_FILE_WRITTEN,    ///< opened to write ("w", "a"): a replay's handle writes nowhere
} ScriptFileOutcome;
/// Files larger than this are read from the machine (a replay may then diverge), not recorded.
#define SCRIPT_FILE_CAPTURE_MAX ((size_t)1 << 20)
typedef struct ScriptFileRead {
    ScriptFileOutcome outcome;
    const char *text; ///< SCRIPT_FILE_READ: the bytes
    size_t len;
    const char *message; ///< SCRIPT_FILE_FAILED: why ("No such file or directory"), `message_len` bytes
    size_t message_len;
    int errnum;
} ScriptFileRead;

/// What a recorded or replayed run exchanges with the host (src/runtime/record.c, replay.c): the
/// text of every script it loads, the wall clock, the environment and the files its scripts read,
/// and its reaches outside the run that cannot be recorded. Without a tape, files come from disk
/// and clocks from the system.
typedef struct ScriptTape {
    void *ctx;
    /// Recording: each script text as it was loaded, from `path` (absolute) as module `module` (""
    /// for the scene). NULL when replaying.
    void (*loaded)(void *ctx, const char *path, const char *module, const char *text, size_t len);
    /// Replaying: the text the recording loaded at this point, which came from `path`; false when
    /// the recording loaded something else here (the tape then knows the run diverged). NULL when
    /// recording.
    bool (*read)(void *ctx, const char *path, const char **text, size_t *len);
    /// Replaying: where the recording found module `module` when the next text it loaded is that
    /// module's; NULL otherwise (require then finds no file, as it found none when recording).
    const char *(*find)(void *ctx, const char *module);
    /// A script read the wall clock (`which`: 0 os.time, 1 os.clock) and got `value`: recording keeps
    /// it and returns it; replaying returns the value the recording got instead.
    double (*clock)(void *ctx, int which, double value);
    /// A script reached outside the run where no recording can follow it (`what`: "io.popen",
    /// "dofile", ...) at `where` (file:line).
    void (*outside)(void *ctx, const char *what, const char *where);
    /// Replaying: a script is about to act on the machine (`what`: "os.execute", "os.remove",
    /// "os.rename", "os.exit", "io.output") at `where`: a recording runs the code it holds. May be
    /// NULL (a recording, the rewind's replays: the run is the user's own).
    void (*acts)(void *ctx, const char *what, const char *where);
    /// A script read environment variable `name` (os.getenv): recording keeps `*value` (`*len`
    /// bytes; NULL: unset); replaying sets them to what the recording got. False when the recording
    /// read no such variable here (the tape then knows the run diverged).
    bool (*env)(void *ctx, const char *name, const char **value, size_t *len);
    /// A script opened `path` (as the script named it) to read, or to write: recording keeps
    /// `*file`, which the host read from the disk (or how the open went); replaying fills it from
    /// the recording (the disk is not touched). False when the recording opened no such file here.
    bool (*file)(void *ctx, const char *path, ScriptFileRead *file);
} ScriptTape;

typedef struct ScriptConfig {
    const char *scene_path; ///< the scene file
    const char *exe_path;   ///< the program (to find scripts/lib next to it); may be NULL
    /// The run's settings (run_settings.h): seeds, rates, threads, the guard's budgets. think_hz
    /// RUN_THINK_HZ_SCENE keeps the scene's w.think_hz. keep_failed must be 0 or 1 here: a scene
    /// that fails to load still gives a host (script_failed) when 1: its world is the one the scene
    /// made, else a default one, and the panel says why. A window wants that; headless not.
    RunSettings run;
    const ScriptTape *tape; ///< NULL: a plain run
    /// The global `arg`, as lua's: arg[0] (NULL: no `arg` at all) and the words after `--`.
    const char *arg0;
    const char *const *words;
    int word_count;
    /// Whether `name` is a key name the program can report (steer.keyboard.is_down checks its
    /// arguments with it); when not, `hint` gets the closest name or "". NULL: every name is.
    bool (*key_known)(const char *name, char *hint, size_t hint_size);
    /// The program's name for a key it uses ("Left"), and whether a scene takes it by listing it in
    /// `keys`; NULL for the scene's keys. is_down warns once about a key the scene cannot hold.
    const char *(*program_key)(const char *name, bool *movable);
    /// Prints nothing (a host replaying in the background: rewind.c): no error, warning or note on
    /// stderr, and the scripts' print, io.write and writes to io.stdout / io.stderr go nowhere
    /// (with the same checks of their arguments, so the scripts run the same). script_set_quiet.
    bool quiet;
    /// A scene played a sound effect (steer.sound, script_sound.c): `count` samples at SOUND_RATE,
    /// each in -1..1, and the volume to play them at. Never called by a quiet host. NULL: the
    /// program plays no sound (the scenes' calls are checked all the same).
    void (*sound)(void *ctx, const float *samples, int count, float volume);
    void *sound_ctx;
} ScriptConfig;

typedef struct ScriptHost ScriptHost;

/// Creates the state, runs the scene file, makes the world and calls load(world). When the scene
/// fails to load, `error` holds the message (file:line, traceback) and the result is NULL, or a
/// failed host with config->keep_failed.
ScriptHost *script_create(const ScriptConfig *config, char *error, size_t error_size);
void script_destroy(ScriptHost *host);

/// Changes the tape of a host made with one (a rewound host re-simulated from a recording goes on
/// recording from where it stands: rewind.c).
void script_set_tape(ScriptHost *host, const ScriptTape *tape);

/// Makes a host quiet (ScriptConfig.quiet) or lets it speak again: a host replayed in the background
/// becomes the one shown, whose output from then on is the run's.
void script_set_quiet(ScriptHost *host, bool quiet);
bool script_quiet(const ScriptHost *host);

lua_State *script_state(ScriptHost *host);
SteerWorld *script_world(ScriptHost *host);
/// Pushes the scene's steer.World userdata.
void script_push_world(ScriptHost *host);
/// Pushes the scene's environment: the table its globals live in (reads fall through to _G, so a
/// scene's `load` or `update` never hides Lua's own from the modules it requires).
void script_push_env(ScriptHost *host);
/// Pushes the scene's global `name` (from its environment; Lua's own when the scene has none).
void script_push_global(ScriptHost *host, const char *name);

/// Runs the brains whose turn it is in the coming step (what w:think() does: vehicle slot i thinks
/// when step % k == i % k, k = physics rate / think rate, with dt = simulated time since it last
/// thought); a brain that fails pauses its vehicle only, reported once per distinct error.
void script_think(ScriptHost *host);
/// Keeps the sense events of the step just taken for the next think pass (right after each step).
void script_collect_events(ScriptHost *host);
/// update(world, dt), once per physics step.
void script_update(ScriptHost *host, double dt);
/// draw(gfx, world) with gfx drawing through `render` (world space) and gfx.hud collecting HUD lines;
/// `overlays` (SteerOverlay bits) is what gfx.overlay(name) tells the scene is on.
void script_draw(ScriptHost *host, struct SteerRender *render, unsigned overlays);
/// keypressed(key); the key is held (steer.keyboard.is_down) until its script_keyreleased.
void script_keypressed(ScriptHost *host, const char *key);
/// keyreleased(key), when the scene holds that key (it heard its keypressed); false otherwise, and
/// nothing is called.
bool script_keyreleased(ScriptHost *host, const char *key);
/// True while the scene holds `key` (heard its keypressed and not yet its keyreleased).
bool script_key_held(ScriptHost *host, const char *key);
/// The keys the scene holds, for the runtime to release those the keyboard no longer holds.
int script_held_keys(ScriptHost *host, const char *const **keys);
/// Whether the scene asked for key repeat (steer.keyboard.set_key_repeat(true); off by default).
bool script_key_repeat(ScriptHost *host);
/// mousepressed(x, y, button); the button is down for the scene until its script_mousereleased.
void script_mousepressed(ScriptHost *host, double x, double y, int button);
/// mousereleased(x, y, button), when the scene heard that button's press; false otherwise.
bool script_mousereleased(ScriptHost *host, double x, double y, int button);
/// True while the scene holds mouse button `button` (LÖVE's numbers).
bool script_button_held(ScriptHost *host, int button);
void script_mousemoved(ScriptHost *host, double x, double y);
/// What steer.mouse() returns (world coordinates); until the first call it returns nil.
void script_set_mouse(ScriptHost *host, double x, double y);

/// The colour words of the world's kinds by kind number (steer_render_name_color of each name: a
/// kind has the same colour in every scene); *count kinds. For SteerFrame.kind_colors.
const uint32_t *script_kind_colors(ScriptHost *host, int *count);
/// The HUD lines the last draw(gfx, world) gave with gfx.hud.
const char *const *script_hud_lines(ScriptHost *host, int *count);

/// A key the scene declares for the help overlay: an entry of its `keys` table, a list of
/// {key, text} pairs (`keys = { {"h", "one more hunter"}, {"left click", "drop an obstacle"} }`).
typedef struct ScriptKey {
    char *key;  ///< as the scene names it
    char *text; ///< what it does
} ScriptKey;
/// At most this many keys in a scene's table (more is an error: the help would not fit).
#define SCRIPT_MAX_SCENE_KEYS 32
/// The scene's keys, in its order: read (and checked) after load(world) and after each good
/// reload, so a save changes them; none for a scene without a `keys` table. *count of them.
const ScriptKey *script_scene_keys(ScriptHost *host, int *count);

/// The error the panel shows (NULL when none), how many errors happened in total.
const char *script_error(ScriptHost *host);
int script_error_count(ScriptHost *host);
/// How many vehicles have a brain paused by an error now (until a good reload resumes them).
int script_failing_vehicles(ScriptHost *host);
/// Shows an error in the panel and on stderr and counts it (used for errors found outside Lua too).
void script_report_error(ScriptHost *host, const char *message);
/// Reports that the file at `path` (absolute) fails to load: its entry stays in the panel, next to
/// those of other failing files, until that file loads cleanly.
void script_report_file_error(ScriptHost *host, const char *path, const char *message);
/// The panel's entry for the file at `path` (absolute) while it fails to load (malloc'd), or NULL.
char *script_file_error_text(ScriptHost *host, const char *path);
/// Puts that entry in this host's panel, without saying it on stderr or counting it again (a host
/// that takes over from the one that reported it: a rewind).
void script_keep_file_error(ScriptHost *host, const char *path, const char *text);
/// The scene's file (absolute).
const char *script_scene_file(ScriptHost *host);
/// True for a host whose scene failed to load (ScriptConfig.keep_failed): it shows the error, runs
/// nothing of the scene, and its files are watched so that a fix can be loaded (a restart).
bool script_failed(ScriptHost *host);
/// True while a reload has changed the scene's `world = {...}` options from those its world was made
/// with: they apply at the next restart (the HUD says so; stderr said it once).
bool script_world_options_pending(ScriptHost *host);

/// Seconds spent in Lua since the last call (and resets the counter).
double script_take_lua_seconds(ScriptHost *host);
/// Bytes the Lua state holds now.
size_t script_memory_used(ScriptHost *host);

/// Every script file the scene loaded (the scene and the modules it required from the scene's
/// folder or scripts/lib), absolute paths. Calls fn for each.
void script_for_each_file(ScriptHost *host, void (*fn)(void *ctx, const char *path), void *ctx);

/// Grows whenever a new file was loaded (a module required for the first time): watch it too.
int script_files_serial(ScriptHost *host);

typedef enum ScriptReload { SCRIPT_RELOAD_NOT_OURS, SCRIPT_RELOAD_OK, SCRIPT_RELOAD_FAILED } ScriptReload;
/// Re-runs the module (or scene) loaded from `path` in protected mode, merges its new table into the
/// old one and calls reload(world). On failure the old code stays and the error is reported.
ScriptReload script_reload_file(ScriptHost *host, const char *path);
/// After a reload that returned SCRIPT_RELOAD_OK: what the reload could not do, for the line that
/// announces it (vehicles whose brains still run the file's old code, by kind), or NULL.
const char *script_reload_note(const ScriptHost *host);
/// Says on stderr that `path` reloaded (`steer: reloaded PATH`), with the note if there is one.
void script_announce_reload(const ScriptHost *host, const char *path);

/// v.state of a vehicle as text (NULL when it has none); valid until the next call.
const char *script_vehicle_state(ScriptHost *host, SteerVehicleId id);
/// The name the scene gave the vehicle's kind ("prey"), or NULL; lives as long as the world.
const char *script_kind_name(ScriptHost *host, SteerVehicleId id);
/// Extra inspector lines for a vehicle (state, state history, why its brain is paused); valid until
/// the next call.
int script_inspector_lines(ScriptHost *host, SteerVehicleId id, const char ***lines);

/// The i-th name of the callbacks the program calls in a scene (load, update, ...), NULL past the
/// last: what `steer --luacheckrc` lists.
const char *script_callback_name(int i);

#endif
