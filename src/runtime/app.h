/* SPDX-License-Identifier: MIT */
/* app.h - the shell of the `steer` program around its session (session.h, docs/architecture.md):
 * the window, camera, HUD, selection, overlays and what the devices hold, and its one loop: a fixed
 * physics step with an accumulator, rendering with interpolation, pause, single step and time
 * scale. A window runs it on the real clock; headless runs the same frames on a virtual clock
 * (1/fps per frame), so both modes share one code path. The shell never writes the session's
 * state: what the scene hears goes through session_input, steps through session_step. */
#ifndef STEER_RUNTIME_APP_H
#define STEER_RUNTIME_APP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <SDL.h>

#include "history.h"
#include "keys.h"
#include "options.h"
#include "reload.h"
#include "render.h"
#include "script.h"
#include "session.h"
#include "sound.h"
#include "trace.h"

#define APP_TIME_SCALES 6 /* x1/4, x1/2, x1, x2, x4, x8 */
#define APP_DEFAULT_HEADLESS_STEPS OPTIONS_DEFAULT_HEADLESS_STEPS
#define APP_DEFAULT_WINDOW_FPS 120.0

#define APP_FONT_PATH "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
#define APP_FONT_FALLBACK "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
#define APP_FONT_PX 14
/* Lines of the HUD the fitted world stays below (the program's three and a scene's first two: a
 * game's score and its counts), so the HUD does not hide the world's top-left corner. */
#define APP_FIT_HUD_LINES 5

typedef struct App {
    AppOptions opt;
    const char *exe;
    Session session;    ///< the deterministic part: the host, the steps, the tape, the rewind's branch point
    Watcher *watcher;   ///< NULL when not reloading
    SDL_Window *window; ///< NULL headless
    SDL_Renderer *sdl;  ///< the window's, or a software one on `surface` for headless screenshots
    SDL_Surface *surface;
    SteerRender *render; ///< NULL when nothing is drawn (headless without --screenshot)
    SteerCamera camera;
    bool view_fitted;         ///< the camera is the program's fit (no zoom or pan since): it follows the inspector
    bool fitted_beside_panel; ///< that fit left the inspector's column free (a vehicle was selected)
    unsigned overlays;        ///< SteerOverlay bits
    SteerVehicleId selected;
    bool paused;
    bool step_requested; ///< '.': one step, then stay paused
    bool show_help;
    bool quit;
    bool restart_requested; ///< the restart key (KEY_RESTART): handled between frames
    int scale_index;        ///< into the time scales; 2 = x1
    double accumulator;     ///< simulated seconds not yet stepped
    uint64_t frames;
    bool screenshot_done;
    bool screenshot_failed; ///< it could not be saved: the run ends with status 3
    Trace *trace;           ///< --trace: the CSV rows after each (K-th) step; NULL without
    History *history;       ///< the selected vehicle's samples for the inspector's plots; NULL when nothing is drawn
    Sound *sound;           ///< the scenes' sound effects (sound.h); NULL: none (headless, a replay, --mute)
    bool sound_failed;      ///< the device would not open: said once, not tried again
    int watched_serial;     ///< script_files_serial when the watch list was last brought up to date
    long long rewind_to;    ///< a step asked for (keys, the timeline) and shown at the next frame; -1 none
    bool scrubbing;         ///< the left button went down on the timeline and is held
    /* mouse */
    bool right_down, panned;
    int press_x, press_y, last_x, last_y;
    /* what the keyboard and mouse hold now, whoever they went to: a branch from a past step releases
     * for the scene what the replayed host holds and they no longer do (input.c) */
    SDL_Keycode keys_down[32];
    int keys_down_count;
    unsigned buttons_down;      ///< LÖVE button b: bit b-1
    bool pointer_seen;          ///< a pointer event told where it is (last_x, last_y)
    SteerCamera pointer_camera; ///< the camera the scene's pointer was last worked out through
    uint64_t focus_frame;       ///< app->frames + 1 when the window last gained focus (0: never)
    /* statistics, smoothed over frames */
    double fps, lua_ms;
    double lua_ms_total; ///< the sum for the summary
    /// Where a frame's time goes, ms, smoothed over frames (the HUD's frame line): physics steps,
    /// Lua (brains, update, draw's script), drawing, SDL's present, the frame cap's sleep, the whole.
    double frame_physics_ms, frame_lua_ms, frame_draw_ms, frame_present_ms, frame_idle_ms, frame_ms;
    double idle_ms_last; ///< the sleep after the last frame
} App;

/// Parses nothing; starts from options. Returns 0, or 1 when the scene fails to load or the
/// window cannot be opened (the reason on stderr).
int app_init(App *app, const AppOptions *opt, const char *exe);
void app_shutdown(App *app);
/// Flushes `out` (stdout, after the summary line): false, said on stderr, when the summary could not
/// be written (a full disk, a closed pipe); the caller exits 3 then.
bool app_summary_written(FILE *out);
/// Runs until quit (or --steps); returns the exit status: 0; 2 after a script error headless; 3
/// when the screenshot asked for was not written (cannot save, or its step was never reached) or
/// the --trace could not be written.
int app_run(App *app);

/// One frame of `seconds` of real (or virtual) time: reloads, steps as the accumulator allows,
/// draws when there is something to draw on. Headless it still calls the scene's draw(gfx) each
/// frame (gfx checks its arguments and draws nothing), so a broken draw fails the same way with or
/// without --screenshot.
void app_frame(App *app, double seconds);
/// One physics step of the session (session_step), with the shell's part: capture for
/// interpolation before it, the trace's rows of that step, a sample of the selected vehicle for
/// the inspector's plots and the screenshot after it.
void app_step(App *app);
/// Draws the world, the script's drawing, the HUD, inspector, error panel and help (no present).
void app_render(App *app, double alpha);
/// Shows step `step` of the recording (rewind.h): the host becomes one replayed to it, paused. A
/// divergence is reported like a script error. Nothing without a rewind.
void app_rewind_to(App *app, long long step);
/// Looks for changed scripts and reloads them.
void app_check_reload(App *app);
/// The restart key: a fresh world and a fresh run of the scene (through the session's door: at a past
/// step, a branch); keeps the old one if the new fails to load.
void app_restart(App *app);

double app_time_scale(const App *app);
/// Samples the selected vehicle into app->history (after a step): one vehicle's reads, whatever the
/// world's size; nothing when none is selected or nothing is drawn.
void app_record_history(App *app);
/// That sample, of `selected` in `host`'s world after `steps` steps, into `history` (NULL: none).
void app_sample_history(History *history, ScriptHost *host, SteerVehicleId selected, long long steps);

/* input.c */
/// Handles one SDL event exactly as the window does (tests feed events here).
void app_handle_event(App *app, const SDL_Event *event);
/// Fits the world into the window as it now is: below the HUD, above the rewind's timeline and,
/// while a vehicle is selected, left of its inspector. The view then keeps fitting itself (to the
/// inspector, to a resized window) until the user zooms or pans.
void app_fit_camera(App *app);
/* Input made up rather than read from a window (tests, benchmarks, scripted sessions): each builds
 * the event the window would deliver and hands it to app_handle_event. */
void app_feed_key(App *app, SDL_Keycode key, Uint16 mod);
/// A key's press (SDL_KEYDOWN, `repeat` for the keyboard's repeats while held) or release (SDL_KEYUP).
void app_feed_key_event(App *app, Uint32 type, SDL_Keycode key, Uint16 mod, bool repeat);
/// A window event (SDL_WINDOWEVENT_FOCUS_GAINED, ..._FOCUS_LOST, ..._SIZE_CHANGED with the size).
void app_feed_window(App *app, Uint8 event, int data1, int data2);
void app_feed_motion(App *app, int x, int y);
/// `type` is SDL_MOUSEBUTTONDOWN or SDL_MOUSEBUTTONUP.
void app_feed_button(App *app, Uint32 type, Uint8 button, int x, int y);
void app_feed_wheel(App *app, int y);
/// The LÖVE name of a key ("space", "a", "lshift", "f10"), or NULL for none.
const char *app_key_name(SDL_Keycode key);
/// True when the key of this LÖVE name is the runtime's (keys.c): the scene never receives it.
bool app_key_owned(const char *love_name);
/// The key that does `action` now: its row's key, or its alternative while the scene takes the key
/// (keys.h). "" when the scene takes the alternative too.
const char *app_action_key(App *app, KeyAction action);
/// True when the scene takes the key of this row: it lists the row's key in its `keys` and the row
/// has an alternative the binding moves to.
bool app_scene_takes(App *app, const KeyBinding *row);
/// Goes on live from the step shown when a past step is shown (rewind_branch), then settles the
/// scene's input with the devices': keys and buttons the replayed host holds and they no longer
/// do are released for the scene (recorded), and the pointer is where it is now.
void app_go_live(App *app);
/// That settling alone, after a branch (app_go_live does it).
void app_settle_input(App *app);
/// After a frame's events: when the view moved under a still pointer (zoom, pan, a fit), the
/// scene's pointer becomes the world point now under it (recorded).
void app_refresh_pointer(App *app);
/// The vehicle under the pointer (as a left click would pick it), or the null id: none there, no
/// pointer event yet, or the pointer busy dragging (the timeline, a pan).
SteerVehicleId app_hovered(App *app);
/// The sound key: opens the sound (the first time) or mutes and unmutes it.
void app_toggle_sound(App *app);
/// With sound on, the headless summary's second line: "sound: driver=NAME plays=N samples=N".
void app_print_sound(const App *app);
/// The program's name for the key of this LÖVE name when a row of its table has it ("Left"), with
/// whether a scene can take it (the row has an alternative); NULL when the key is the scene's.
const char *app_program_key(const char *name, bool *movable);
/// Whether `name` is a name app_key_name gives some key (ScriptConfig.key_known): when not, `hint`
/// gets the closest such name, or "".
bool app_key_known(const char *name, char *hint, size_t hint_size);

/* hud.c */
/// Draws the HUD, the inspector of the selected vehicle and the help overlay.
void hud_draw(App *app);
/// The help overlay's lines: every row of the key table (keys.c), then the keys the scene
/// declares (script_scene_keys). Valid until the next call.
int hud_help_lines(App *app, const char *const **lines);
/// The HUD's third line: time scale, PAUSED, the help key and, after a reload changed the scene's
/// world options, the key that applies them (a static buffer).
const char *hud_status_line(App *app);
/// The HUD's line that says where the frame goes: "frame 16.7 ms: physics 1.9 Lua 0.4 draw 12.1
/// present 1.3 idle 0.9 other 0.1" (other: what none of those measured: events, reload checks, ...).
const char *hud_frame_line(App *app);

#endif
