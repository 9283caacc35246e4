/* SPDX-License-Identifier: MIT */
/* script_internal.h - the ScriptHost's insides, shared by the script_*.c files. */
#ifndef STEER_RUNTIME_SCRIPT_INTERNAL_H
#define STEER_RUNTIME_SCRIPT_INTERNAL_H

#include "guard.h"
#include "script.h"

#define SCRIPT_MAX_HUD_LINES 32
#define SCRIPT_MAX_LIB_DIRS 4
#define SCRIPT_MAX_KINDS 64 /* a world's kind filters are 64-bit masks */

#define SCRIPT_MAX_BRAIN_FAILURES 16
/* Bytes of an error message kept (the traceback comes on top): longer ones are cut. */
#define SCRIPT_MAX_MESSAGE 2000
/* Keys a scene can hold at once (a keyboard reports about ten): a press beyond is heard, not held. */
#define SCRIPT_MAX_HELD_KEYS 32
#define SCRIPT_KEY_NAME_SIZE 32

/// A distinct brain error (its message) and how many vehicles failed with it since the last good
/// reload.
typedef struct BrainFailure {
    char *message;   ///< file:line: message, without the traceback
    char *first;     ///< the first vehicle that failed with it: "vehicle #12 (hunter)"
    char *traceback; ///< that vehicle's
    int count;
    int printed; ///< count when stderr last heard of it
} BrainFailure;

/// A file that fails to load, as the panel shows it until the file loads cleanly.
typedef struct ScriptFileError {
    char *file; ///< its chunk name (path relative to the scene's folder)
    char *text; ///< the message and traceback
    int serial; ///< when it was last reported (the newest is shown in full)
} ScriptFileError;

struct ScriptHost {
    lua_State *L;
    Guard guard;
    int depth;           ///< nesting of protected calls (the guard covers the outermost)
    const char *calling; ///< the callback script_callback is calling (for memory errors), or NULL
    ScriptConfig config;
    char scene_dir[4096];  ///< absolute, no trailing slash
    char scene_file[4096]; ///< absolute
    char lib_dirs[SCRIPT_MAX_LIB_DIRS][4096];
    int lib_dir_count;
    int scene_ref;     ///< the table the scene returned (LUA_NOREF: callbacks are globals)
    int env_ref;       ///< the scene's environment: its globals (reads fall through to _G)
    int world_ref;     ///< the steer.World userdata
    int gfx_ref;       ///< the gfx table
    int traceback_ref; ///< the message handler
    int patch_ref;     ///< the steer.patch table (script_reload.c), LUA_NOREF until the first reload
    /// After a good reload: the vehicles that still run the file's old code, by kind ("" none).
    char reload_note[320];
    SteerWorld *world;
    struct SteerRender *render; ///< set during draw(gfx) only
    unsigned overlays;          ///< the overlays on (SteerOverlay bits) at the last draw: gfx.overlay
    double mouse_x, mouse_y;
    /* what the scene holds (script_input.c): keys and buttons whose press it heard and release not yet */
    char held_keys[SCRIPT_MAX_HELD_KEYS][SCRIPT_KEY_NAME_SIZE];
    const char *held_key_list[SCRIPT_MAX_HELD_KEYS];
    int held_key_count;
    unsigned held_buttons; ///< bit b-1: LÖVE button b
    bool key_repeat;       ///< steer.keyboard.set_key_repeat(true): a held key's repeats are keypressed too
    char warned_keys[8][SCRIPT_KEY_NAME_SIZE]; ///< the program's keys is_down warned about (once each)
    int warned_key_count;
    bool mouse_known; ///< false until the first pointer event (always, headless): steer.mouse() is nil
    bool failed;      ///< the scene did not load: nothing of it runs; a change to any of its files retries
    char *error;      ///< the latest error while the scene runs (a callback's), cleared by a good reload
    int error_serial_runtime;
    ScriptFileError *file_errors; ///< files that fail to load (script_errors.c)
    int file_error_count, file_error_capacity;
    const char *failing_file; ///< while a file loads: the chunk name errors are filed under
    int error_serial;         ///< counts reports, to tell the newest
    char *error_panel;        ///< the composed panel text
    char *last_printed;       ///< last message written to stderr (repeats are not printed again)
    int error_count;
    BrainFailure brain_failures[SCRIPT_MAX_BRAIN_FAILURES];
    int brain_failure_count;
    int brain_failures_other;   ///< failures with a message beyond the table's room
    char *panel;                ///< the panel text when brains failed (script_brains_panel)
    int files_serial;           ///< grows each time a file is recorded (the watcher catches up)
    bool loading;               ///< inside script_create: errors are returned, not printed
    const char *loading_module; ///< the module name of the file being loaded ("" the scene), for the tape
    double lua_seconds;
    char *hud[SCRIPT_MAX_HUD_LINES];
    int hud_count;
    char label[128];
    char *inspector[8];
    int inspector_count;
    uint32_t kind_colors[SCRIPT_MAX_KINDS]; ///< steer_render_name_color of each kind's name, by number
    int kind_color_count;                   ///< kinds coloured so far (kinds are only ever added)
    ScriptKey *keys;                        ///< the scene's `keys` table as last read (script_keys.c)
    int key_count;
    /// The scene's `world = {...}` options as the world was made with them, as sorted `key=value`
    /// text: a reload that changes them is told they wait for a restart (script_note_world_options).
    char world_options[512];
    char world_options_noted[512]; ///< the changed options last noted ("" none since the world was made)
};

/* script.c */
/// Calls the function below nargs arguments on the stack in protected mode with a traceback,
/// under the time budget; reports an error and returns false when it fails. Pops function and
/// arguments; leaves nresults results on success.
bool script_pcall(ScriptHost *host, int nargs, int nresults);
/// Turns a failed call's message (on the stack top) into the reported text; pops it.
/// The scene file's name as its chunk is named in messages (`chase.lua`), for the program's own
/// messages about the scene (its world table, its keys).
const char *script_scene_name(const ScriptHost *host);
/// After a good reload of the scene: says on stderr when its `world = {...}` options differ from
/// those the world was made with (they apply at the next restart only), once per change.
void script_note_world_options(ScriptHost *host);
void script_report_top(ScriptHost *host);
/// Loads the scene file like script_load_file, with the scene's environment as its _ENV.
int script_load_scene(ScriptHost *host, const char *path);
/// Pushes the callback `name` (from the scene's table, else its environment) or nothing: false.
/// May raise (a metatable on the scene table): call it in protected mode.
bool script_push_callback(ScriptHost *host, const char *name);
/// Calls callback `name`, if the scene has one, with the nargs values on the stack (popped), all
/// in protected mode. False when it raised an error (reported).
bool script_callback(ScriptHost *host, const char *name, int nargs);

/* script_errors.c */
/// `path` loaded cleanly: its entry leaves the panel, and so does the latest runtime error.
void script_file_loaded(ScriptHost *host, const char *path);
void script_errors_free(ScriptHost *host);

/* script_files.c */
/// Sets package.path (scene folder, scripts/lib), the file searcher that records every module it
/// loads, and the registry tables of loaded files. Runs inside a protected call.
void script_files_setup(ScriptHost *host);
/// Loads a file as a chunk named by its path relative to the scene's folder. Lua status code;
/// pushes the chunk or an error message.
int script_load_file(ScriptHost *host, const char *path);
/// Records that `path` was loaded as module `name` ("" for the scene).
void script_files_record(ScriptHost *host, const char *name, const char *path);
/// The chunk name of the file at `path` (absolute): its path relative to the scene's folder.
void script_files_chunk_name(ScriptHost *host, const char *path, char *out, size_t size);
/// Pushes the module name recorded for `path` or nil.
void script_files_name_of(ScriptHost *host, const char *path);

/* script_outside.c */
/// With a tape: os.time() and os.clock() go through it (recorded, or replayed from the recording);
/// io.open, io.lines, io.popen, io.read, io.input, os.getenv, os.tmpname, dofile and loadfile are
/// reported to it before they run. Runs inside setup_state's protected call.
void script_outside_open(ScriptHost *host);
/// Inside a wrapped function (upvalue 1 the host): tells the tape that the script reached outside
/// the run with `what` ("io.popen"), at the calling line.
void script_note_outside(lua_State *L, const char *what);
/// Inside a wrapped function (upvalue 2 the original): calls the original with the arguments given
/// and returns what it returns.
int script_call_original(lua_State *L);

/* script_input_files.c */
/// io.open and io.lines wrapped as script_outside_open wraps them (upvalues: the host, the original,
/// the name): a file opened to read is read whole through the tape, the script reading it from
/// memory; other modes and files the tape cannot keep are reaches outside.
int script_tape_io_open(lua_State *L);
int script_tape_io_lines(lua_State *L);

/* script_quiet.c */
/// Wraps print, io.write and the files' write method so that a quiet host's scripts write nothing to
/// stdout or stderr. Runs inside setup_state's protected call.
void script_quiet_open(ScriptHost *host);

/* script_chunks.c */
/// Makes the global load, loadfile and dofile load text chunks only (never bytecode). Runs inside
/// setup_state's protected call.
void script_chunks_open(ScriptHost *host);

/* script_debug.c */
/// Gives scenes a debug library that only reads Lua code (the global and require("debug")), and
/// keeps the real one for the program. Runs inside setup_state's protected call.
void script_debug_open(ScriptHost *host);
/// Pushes the real debug library (for the program's own Lua: steer.patch).
void script_debug_push_real(ScriptHost *host);

/* script_gfx.c */
/// Pushes the gfx table; adds mouse() to the steer table at index steer_idx.
void script_gfx_open(ScriptHost *host);
int script_open_steer(lua_State *L);
void script_hud_clear(ScriptHost *host);

/* script_input.c */
/// Adds keyboard (is_down, set_key_repeat, has_key_repeat) to the steer table on the stack top.
void script_input_open(ScriptHost *host, lua_State *L);

/// Notes a key pressed or a button down (keypressed, mousepressed), before the callback runs.
void script_input_hold_key(ScriptHost *host, const char *key);
void script_input_hold_button(ScriptHost *host, int button);
/// Sets the global `arg` from the configuration (inside setup_state's protected call).
void script_input_set_arg(ScriptHost *host);

/* script_sound.c */
/// Adds steer.sound (new, play) to the steer table on the top of the stack.
void script_sound_open(ScriptHost *host, lua_State *L);

/* script_keys.c */
/// Reads and checks the scene's `keys` table (its table's field, else its own global): a list of
/// {key, text} pairs of strings. Reports what is wrong and returns false (keeping the keys read
/// before); the scene failing to load, or the reload that made it wrong failing.
bool script_read_keys(ScriptHost *host);
void script_keys_free(ScriptHost *host);

/* script_brains.c */
int script_think_pass(lua_State *L);
/// Lets every vehicle whose brain failed think again and forgets the failures (a good reload).
void script_brains_forgive(ScriptHost *host);
/// The panel's text: the brain failures, then `other` (the last other error, may be NULL); just
/// `other` when no brain failed. Valid until the next call.
const char *script_brains_panel(ScriptHost *host, const char *other);
void script_brains_free(ScriptHost *host);

#endif
