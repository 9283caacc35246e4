/* SPDX-License-Identifier: MIT */
/* app.c - the loop of the `steer` program. See app.h. */
#include "app.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lua.h>

#include "guard.h"
#include "steer_lua.h"
#include "record.h"
#include "rewind.h"

/* Longest stretch of simulated time one frame may catch up on (x time scale): beyond it the
 * simulation slows down instead of spiralling. */
#define MAX_CATCH_UP_S 0.25

static const double TIME_SCALES[APP_TIME_SCALES] = {0.25, 0.5, 1.0, 2.0, 4.0, 8.0};

static volatile sig_atomic_t g_stop;
/* The loop ends at the next frame; a script that keeps it from getting there (one that cannot be
 * interrupted, or runs under a long --time-budget) is ended by the guard's watchdog a second later. */
static void on_stop_signal(int sig)
{
    g_stop = 1;
    guard_request_exit(sig);
}

double app_time_scale(const App *app) { return TIME_SCALES[app->scale_index]; }

static void watch_file(void *ctx, const char *path) { watcher_add(ctx, path); }

/* (below: what the app hears of its session) */
static void before_step(void *ctx);
static void after_step(void *ctx);
static void settle(void *ctx);
static void restarted(void *ctx, bool was_failed);
static void undo_branch(void *ctx, const char *path);
static void play_sound(void *ctx, const float *samples, int count, float volume);
static void open_sound(App *app);
static bool no_display(void);

/* The world fits between the HUD and the rewind's timeline, which would otherwise hide its top-left
 * corner and its bottom edge (and whatever is there), and while a vehicle is selected, left of its
 * inspector, which would hide the world's top-right corner. Without a renderer yet, the whole window. */
void app_fit_camera(App *app)
{
    SteerWorld *w = script_world(app->session.host);
    int win_w = app->camera.width > 0 ? app->camera.width : app->opt.width; /* (resized since) */
    int win_h = app->camera.height > 0 ? app->camera.height : app->opt.height;
    int top = 0, bottom = 0, right = 0;
    app->fitted_beside_panel = app->render && steer_vehicle_is_valid(w, app->selected);
    if (app->render) {
        top = steer_render_hud_bottom(app->render, APP_FIT_HUD_LINES);
        if (app->session.rewind) {
            int bx, by, bw, bh;
            steer_render_timeline_bar(win_w, win_h, &bx, &by, &bw, &bh);
            bottom = win_h - by;
        }
        if (app->fitted_beside_panel) right = steer_render_inspector_column(app->render);
    }
    app->camera = steer_camera_fit_box(steer_world_width(w), steer_world_height(w), win_w, win_h, top, right, bottom);
    app->view_fitted = true;
}

/* The fitted view makes room for the inspector when a vehicle gets selected and takes it back when
 * none is (a click beside the vehicles, the vehicle removed, a restart); a view the user zoomed or
 * panned is left as it is. */
static void refit_for_inspector(App *app)
{
    bool inspecting = app->render && steer_vehicle_is_valid(script_world(app->session.host), app->selected);
    if (app->view_fitted && inspecting != app->fitted_beside_panel) app_fit_camera(app);
}

/* --select N: the N-th vehicle in creation order. False (said on stderr) when the scene, loaded,
 * has fewer: what the command line asks and cannot be done ends the run, as a screenshot's step
 * never reached does. (A scene that failed to load and waits for its fix has none yet.) */
static bool select_nth(App *app)
{
    SteerWorld *w = script_world(app->session.host);
    int count = steer_world_vehicle_count(w);
    if (app->opt.select <= 0 || script_failed(app->session.host)) return true;
    if (app->opt.select > count) {
        fprintf(stderr, "steer: option --select %d: the scene has %d vehicle%s once loaded\n", app->opt.select, count,
                count == 1 ? "" : "s");
        return false;
    }
    SteerVehicleId *ids = malloc((size_t)count * sizeof *ids);
    if (!ids) return true;
    steer_world_get_vehicles(w, ids, count);
    app->selected = ids[app->opt.select - 1];
    free(ids);
    return true;
}

static bool open_renderer(App *app)
{
    if (app->opt.headless) {
        app->surface = SDL_CreateRGBSurfaceWithFormat(0, app->opt.width, app->opt.height, 32, SDL_PIXELFORMAT_ARGB8888);
        if (!app->surface) return false;
        app->sdl = SDL_CreateSoftwareRenderer(app->surface);
    } else {
        SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
        if (SDL_Init(SDL_INIT_VIDEO) != 0) return false;
        /* Without a display SDL falls back to a driver that shows nothing, and the program would run
         * on with no visible window: unless that driver was asked for (the tests ask for dummy),
         * say what to do instead. */
        const char *driver = SDL_GetCurrentVideoDriver(), *asked = getenv("SDL_VIDEODRIVER");
        if (driver && (!strcmp(driver, "offscreen") || !strcmp(driver, "dummy")) && !(asked && *asked)) {
            SDL_SetError("no display to show it on (SDL found only its '%s' video driver): run with "
                         "--headless (add --screenshot out.png for a picture), or under a display "
                         "(DISPLAY, or xvfb-run)",
                         driver);
            return false;
        }
        app->window = SDL_CreateWindow("steer", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, app->opt.width,
                                       app->opt.height, SDL_WINDOW_RESIZABLE);
        if (!app->window) return false;
        Uint32 flags = SDL_RENDERER_SOFTWARE | (app->opt.vsync ? SDL_RENDERER_PRESENTVSYNC : 0);
        app->sdl = SDL_CreateRenderer(app->window, -1, flags);
    }
    if (!app->sdl) return false;
    app->render = steer_render_create(app->sdl, APP_FONT_PATH, APP_FONT_PX);
    if (!app->render) app->render = steer_render_create(app->sdl, APP_FONT_FALLBACK, APP_FONT_PX);
    /* headless, the renderer draws into our surface: vehicles are then filled straight into it */
    if (app->render && app->surface) steer_render_set_surface(app->render, app->surface);
    return app->render != NULL;
}

int app_init(App *app, const AppOptions *opt, const char *exe)
{
    memset(app, 0, sizeof *app);
    app->opt = *opt;
    app->exe = exe;
    app->scale_index = 2;
    if (!app->opt.arg0) app->opt.arg0 = app->opt.script; /* (a rewound host sees the same arg[0]) */
    if (app->opt.headless && app->opt.steps < 0 && !app->opt.watch) app->opt.steps = APP_DEFAULT_HEADLESS_STEPS;
    char error[8192];
    if (app->opt.trace) { /* before the scene runs: a file that cannot be written is a bad command line */
        app->trace = trace_open(app->opt.trace, app->opt.trace_every, error, sizeof error);
        if (!app->trace) {
            fprintf(stderr, "steer: %s\n", error);
            return 1;
        }
    }
    app->rewind_to = -1;
    /* a window can always be rewound (headless only when asked: tests) */
    SessionHooks hooks = {.ctx = app,
                          .sound = play_sound,
                          .sound_ctx = app,
                          .before_step = before_step,
                          .after_step = after_step,
                          .settle = settle,
                          .restarted = restarted,
                          .reload_undone = undo_branch,
                          .key_known = app_key_known,
                          .program_key = app_program_key};
    /* before the scene loads, whose load() may play an effect */
    if (app->opt.sound == 1 || (app->opt.sound < 0 && !app->opt.headless && !app->opt.replaying && !no_display()))
        open_sound(app);
    session_init(&app->session, &app->opt, exe, !app->opt.headless || app->opt.rewind, &hooks);
    session_start(&app->session, error, sizeof error);
    if (!app->session.host || script_failed(app->session.host))
        fprintf(stderr, "steer: the scene failed to load: %s\n", error);
    if (!app->session.host) {
        trace_close(app->trace, error, sizeof error);
        app->trace = NULL;
        session_stop(&app->session);
        return 1;
    }
    app_fit_camera(app);
    app->overlays = app->opt.overlays;
    app->show_help = app->opt.show_help;
    if (!select_nth(app)) {
        app_shutdown(app);
        return 1;
    }
    if (!app->opt.headless || app->opt.screenshot) {
        if (!open_renderer(app)) {
            fprintf(stderr, "steer: cannot open the %s: %s\n", app->opt.headless ? "renderer" : "window",
                    SDL_GetError());
            app_shutdown(app);
            return 1;
        }
        app_fit_camera(app); /* again, now that the HUD's size is known */
    }
    if (app->render) { /* the plots' ring: made once, ~100 KB, filled in place from then on */
        app->history = calloc(1, sizeof *app->history);
        if (!app->history) {
            fprintf(stderr, "steer: out of memory\n");
            app_shutdown(app);
            return 1;
        }
    }
    if ((!app->opt.headless || app->opt.watch) && !app->session.replaying) { /* a replay's reloads are recorded */
        app->watcher = watcher_create(app->opt.poll, app->opt.settle_ms / 1000.0);
        if (app->watcher && watcher_fallback_reason(app->watcher)) /* (saves then show up a poll later) */
            fprintf(stderr, "steer: cannot watch with inotify (%s): polling the scripts every %.0f ms\n",
                    watcher_fallback_reason(app->watcher), WATCH_POLL_S * 1000.0);
        if (app->watcher) script_for_each_file(app->session.host, watch_file, app->watcher);
        app->watched_serial = script_files_serial(app->session.host);
    }
    if (script_failed(app->session.host)) /* (said once the files are watched: a save from now on counts) */
        fprintf(stderr, "steer: watching %s and the files it loaded: save the fix to load it\n", app->opt.script);
    return 0;
}

/* Whether SDL was asked for a video driver that shows nothing (the tests' dummy, offscreen): a
 * window there is a test's, which hears nothing unless it asks (--sound). */
static bool no_display(void)
{
    const char *driver = getenv("SDL_VIDEODRIVER");
    return driver && (!strcmp(driver, "dummy") || !strcmp(driver, "offscreen"));
}

/* Sound is on in a window (not in a replay, nor on a driver with no display) unless --mute, and
 * anywhere with --sound. A device that
 * will not open leaves the run silent, said once. */
static void open_sound(App *app)
{
    if (app->sound || app->sound_failed) return;
    char error[512];
    app->sound = sound_open(app->opt.headless, error, sizeof error);
    if (!app->sound) {
        app->sound_failed = true;
        fprintf(stderr, "steer: %s\n", error);
    }
}

void app_toggle_sound(App *app)
{
    if (!app->sound) {
        app->sound_failed = false; /* (asked for: try again) */
        open_sound(app);
        return;
    }
    sound_set_muted(app->sound, !sound_muted(app->sound));
}

/* (ScriptConfig.sound) A scene played an effect: heard unless the run shows a past step (stepping
 * through the recording again is no news). */
static void play_sound(void *ctx, const float *samples, int count, float volume)
{
    App *app = ctx;
    if (!app->sound || rewind_in_past(app->session.rewind)) return;
    sound_play(app->sound, samples, count, volume);
}

void app_shutdown(App *app)
{
    bool audio = app->sound || app->sound_failed;
    sound_close(app->sound);
    if (app->render) steer_render_destroy(app->render);
    if (app->sdl) SDL_DestroyRenderer(app->sdl);
    if (app->surface) SDL_FreeSurface(app->surface);
    if (app->window) SDL_DestroyWindow(app->window);
    if (!app->opt.headless || audio) SDL_Quit();
    watcher_destroy(app->watcher);
    char error[512];
    trace_close(app->trace, error, sizeof error); /* finish() closed it after a run */
    free(app->history);
    session_stop(&app->session);
    memset(app, 0, sizeof *app);
}

static void maybe_screenshot(App *app, bool at_end)
{
    if (!app->opt.screenshot || app->screenshot_done || !app->render) return;
    /* at the end: unless --at-step names a step this run never reached (reported by the caller) */
    bool now = app->opt.at_step < 0 ? at_end : app->session.steps >= app->opt.at_step;
    if (!now) return;
    app_render(app, 1.0);
    if (steer_render_save_png(app->sdl, app->opt.screenshot) != 0) {
        fprintf(stderr, "steer: cannot save the screenshot %s: %s\n", app->opt.screenshot, SDL_GetError());
        app->screenshot_failed = true;
    }
    app->screenshot_done = true;
}

/* The exit status once the run is over: a screenshot that was asked for and not written is a
 * failure to do what was asked, whatever the scripts did. */
static int finish(App *app, int status)
{
    if (app->trace) {
        char error[512];
        bool written = trace_close(app->trace, error, sizeof error);
        app->trace = NULL;
        if (!written) {
            if (error[0]) fprintf(stderr, "steer: %s\n", error); /* (else said when the write failed) */
            status = 3;
        }
    }
    maybe_screenshot(app, true);
    if (!app->opt.screenshot) return status;
    if (!app->screenshot_done) {
        fprintf(stderr, "steer: no screenshot written: step %lld was never reached (the run ended after step %lld)\n",
                app->opt.at_step, app->session.steps);
        return 3;
    }
    return app->screenshot_failed ? 3 : status;
}

void app_step(App *app) { session_step(&app->session); }

/* (SessionHooks) The renderer keeps the world as it was, to draw in between. */
static void before_step(void *ctx)
{
    App *app = ctx;
    SteerWorld *world = script_world(app->session.host);
    if (app->render) steer_render_capture(app->render, world);
    /* the step keeps the selected vehicle's orca half-planes for the overlay (headless too, where
     * only the screenshot is drawn) */
    if (app->render)
        steer_world_watch_orca(world, steer_vehicle_is_valid(world, app->selected) ? app->selected
                                                                                   : (SteerVehicleId)STEER_NULL_ID);
}

/* (SessionHooks) The trace's rows of the step, a sample for the inspector's plots, the screenshot. */
static void after_step(void *ctx)
{
    App *app = ctx;
    if (app->trace) {
        lua_State *L = script_state(app->session.host);
        script_push_world(app->session.host);
        trace_step(app->trace, L, -1, script_world(app->session.host));
        lua_pop(L, 1);
    }
    app_record_history(app);
    maybe_screenshot(app, false);
}

void app_record_history(App *app)
{
    app_sample_history(app->history, app->session.host, app->selected, app->session.steps);
}

void app_sample_history(History *history, ScriptHost *host, SteerVehicleId selected, long long steps)
{
    if (!history) return;
    SteerWorld *world = script_world(host);
    SteerVehicleState v;
    if (steer_vehicle_get(world, selected, &v) != STEER_OK) return;
    HistorySample s;
    s.time = steer_world_time(world);
    s.step = steps;
    s.speed = (float)v.speed;
    s.force = (float)steer_length(v.force);
    s.max_speed = (float)v.max_speed;
    s.max_force = (float)v.max_force;
    for (int b = 0; b < STEER_BEHAVIOUR_COUNT; b++) s.behaviour[b] = NAN;
    SteerBehaviour types[STEER_BEHAVIOUR_COUNT];
    int active = steer_vehicle_get_behaviours(world, selected, types, STEER_BEHAVIOUR_COUNT);
    for (int k = 0; k < active && k < STEER_BEHAVIOUR_COUNT; k++) {
        SteerBehaviourState st;
        if (steer_vehicle_get_behaviour(world, selected, types[k], NULL, &st) == STEER_OK)
            s.behaviour[types[k]] = st.evaluated ? (float)steer_length(st.force) : 0.0f;
    }
    lua_State *L = script_state(host);
    script_push_world(host);
    s.state = steer_lua_vehicle_state(L, -1, selected, &s.state_len);
    history_record(history, v.serial, &s); /* copies the name before Lua runs again */
    lua_pop(L, 1);
}

static bool steps_done(const App *app) { return app->opt.steps >= 0 && app->session.steps >= app->opt.steps; }

/* (SessionHooks) A save at a past step that did not load: the recording, the kept future and the
 * step shown come back as they were (the host is replayed there again), and the panel keeps the
 * file's error. */
static void undo_branch(void *ctx, const char *path)
{
    App *app = ctx;
    char *why = script_file_error_text(app->session.host, path);
    char error[2048];
    if (!rewind_branch_undo(app->session.rewind, app, error, sizeof error))
        script_report_error(app->session.host, error);
    if (why) script_keep_file_error(app->session.host, path, why);
    free(why);
    fprintf(stderr, "steer: rewind: %s did not load: the run stays at step %lld with its future\n", path,
            app->session.steps);
}

/* (SessionHooks) A restart made a fresh host: nothing is selected in its world, whose serials
 * start again at 1; a scene that loads at last gets its own world's fit; its files are watched. */
static void restarted(void *ctx, bool was_failed)
{
    App *app = ctx;
    app->selected = (SteerVehicleId)STEER_NULL_ID;
    if (app->history) history_reset(app->history, 0);
    app->accumulator = 0.0;
    if (was_failed) app_fit_camera(app);
    if (app->watcher) script_for_each_file(app->session.host, watch_file, app->watcher);
    app->watched_serial = script_files_serial(app->session.host);
}

static void settle(void *ctx) { app_settle_input(ctx); }

void app_check_reload(App *app)
{
    if (!app->watcher) return;
    const char *path;
    bool retry = false;
    while ((path = watcher_next(app->watcher, guard_now())) != NULL) {
        if (script_failed(app->session.host)) /* a scene that never loaded: any save may be the fix */
            retry = true;
        else
            session_input(&app->session, &(SessionInput){.kind = SESSION_RELOAD, .name = path});
    }
    if (retry) app_restart(app);
    /* Modules required for the first time (by a reload, or lazily by a callback) are watched too. */
    if (script_files_serial(app->session.host) != app->watched_serial) {
        app->watched_serial = script_files_serial(app->session.host);
        script_for_each_file(app->session.host, watch_file, app->watcher);
    }
}

void app_restart(App *app) { session_input(&app->session, &(SessionInput){.kind = SESSION_RESTART}); }

void app_rewind_to(App *app, long long step)
{
    if (!app->session.rewind) return;
    char error[2048];
    if (!rewind_jump(app->session.rewind, app, step, error, sizeof error))
        script_report_error(app->session.host, error);
}

/* Smooths one frame's measure into the HUD's figure. */
static void smooth(double *figure, double ms, bool first) { *figure = first ? ms : *figure * 0.9 + ms * 0.1; }

void app_frame(App *app, double seconds)
{
    double frame_t0 = guard_now();
    double physics_before = app->session.step_ms_total; /* (the frame's physics: what its steps add) */
    if (app->rewind_to >= 0) {
        long long step = app->rewind_to;
        app->rewind_to = -1;
        app_rewind_to(app, step);
    }
    if (app->restart_requested) {
        app->restart_requested = false;
        app_restart(app); /* (at a past step: a branch, the door's) */
    }
    app_check_reload(app);
    /* going on live from a past step (resumed, or one step) drops the recorded future */
    if (!app->paused || app->step_requested) session_go_live(&app->session);
    app_refresh_pointer(app);
    SteerWorld *world = script_world(app->session.host);
    double dt = steer_world_dt(world);
    if (script_failed(app->session.host)) {
        /* nothing to simulate until the scene loads */
    } else if (!app->paused) {
        double max_catch_up = MAX_CATCH_UP_S * app_time_scale(app);
        app->accumulator += seconds * app_time_scale(app);
        if (app->accumulator > max_catch_up && !app->opt.headless) app->accumulator = max_catch_up;
        /* SIGTERM/SIGINT (g_stop) end the frame at the next step, not after the frame's steps */
        for (int n = 0; app->accumulator >= dt && !steps_done(app) && !g_stop; n++) {
            if (n == APP_MAX_STEPS_PER_FRAME && !app->opt.headless) {
                app->accumulator = 0.0;
                break;
            }
            app->accumulator -= dt;
            app_step(app);
        }
    } else if (app->step_requested && !steps_done(app)) {
        app_step(app);
    }
    app->step_requested = false;
    sound_pump(app->sound, seconds); /* (headless, the effects are queued as virtual time passes) */
    double lua_ms = script_take_lua_seconds(app->session.host) * 1000.0;
    app->lua_ms_total += lua_ms;
    app->lua_ms = app->frames == 0 ? lua_ms : app->lua_ms * 0.95 + lua_ms * 0.05;
    bool first = app->frames == 0;
    app->frames++;
    double draw_t0 = guard_now(), present_t0 = draw_t0;
    if (app->window) {
        app_render(app, app->paused ? 1.0 : app->accumulator / dt);
        present_t0 = guard_now();
        SDL_RenderPresent(app->sdl);
        /* keyframes for the rewind, in the frame's spare time: more while the user looks at the past */
        rewind_idle(app->session.rewind, app, app->paused ? REWIND_IDLE_PAUSED_S : REWIND_IDLE_LIVE_S);
    } else {
        session_note_draw(&app->session);
        script_draw(app->session.host, NULL, app->overlays); /* headless: the same draw(gfx) calls, drawing nothing */
        present_t0 = guard_now();
    }
    double present_t1 = guard_now();
    /* where the frame went (the HUD's frame line): the draw's share of Lua (the scene's draw) is
     * counted as Lua, not twice */
    double draw_lua_ms = script_take_lua_seconds(app->session.host) * 1000.0;
    app->lua_ms_total += draw_lua_ms;
    smooth(&app->frame_physics_ms, app->session.step_ms_total - physics_before, first);
    smooth(&app->frame_lua_ms, lua_ms + draw_lua_ms, first);
    smooth(&app->frame_draw_ms, fmax(0.0, (present_t0 - draw_t0) * 1000.0 - draw_lua_ms), first);
    smooth(&app->frame_present_ms, (present_t1 - present_t0) * 1000.0, first);
    smooth(&app->frame_idle_ms, app->idle_ms_last, first);
    smooth(&app->frame_ms, (present_t1 - frame_t0) * 1000.0 + app->idle_ms_last, first);
    app->idle_ms_last = 0.0;
    rewind_note_frame(app->session.rewind, &app->session);
}

static const char *vehicle_label(void *ctx, SteerVehicleId id) { return script_vehicle_state(ctx, id); }

void app_render(App *app, double alpha)
{
    if (!app->render) return;
    SteerWorld *world = script_world(app->session.host);
    refit_for_inspector(app);
    SteerFrame frame = {0};
    frame.camera = app->camera;
    frame.alpha = alpha;
    frame.overlays = app->overlays;
    frame.selected = steer_vehicle_is_valid(world, app->selected) ? app->selected : (SteerVehicleId)STEER_NULL_ID;
    frame.hovered = app_hovered(app); /* its label laid out next: it shows in a crowd */
    /* the next steps keep its orca half-planes for the overlay (none for a vehicle without orca) */
    steer_world_watch_orca(world, frame.selected);
    frame.vehicle_label = vehicle_label;
    frame.label_ctx = app->session.host;
    frame.kind_colors = script_kind_colors(app->session.host, &frame.kind_color_count); /* by name, stable */
    frame.defer_labels = true;    /* drawn last, around the panels (steer_render_labels) */
    frame.smooth_headings = true; /* a crowd nearly at rest keeps still on screen */
    steer_render_world(app->render, world, &frame);
    session_note_draw(&app->session);
    script_draw(app->session.host, app->render, app->overlays);
    hud_draw(app);
    if (script_error(app->session.host)) {
        /* above the rewind timeline, which would otherwise be drawn over the panel's last lines */
        int bottom = 0; /* (and above its label, which would be drawn over the panel's text) */
        if (app->session.rewind)
            bottom =
                app->camera.height - steer_render_timeline_top(app->render, app->camera.width, app->camera.height) + 2;
        steer_render_error_panel_above(app->render, script_error(app->session.host), bottom);
    }
    rewind_draw(app->session.rewind, app);
    steer_render_labels(app->render);
}

static void sleep_until(double deadline)
{
    double left = deadline - guard_now();
    if (left <= 0) return;
    struct timespec ts = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};
    nanosleep(&ts, NULL);
}

void app_print_sound(const App *app)
{
    if (app->sound)
        printf("sound: driver=%s plays=%lld samples=%lld\n", sound_driver(app->sound), sound_plays(app->sound),
               sound_samples_queued(app->sound));
}

/* False (said on stderr) when the summary could not be written: a full disk behind stdout, a
 * closed pipe. A run whose summary is lost did not do what was asked (exit 3, as a lost trace). */
bool app_summary_written(FILE *out)
{
    errno = 0;
    if (fflush(out) == 0 && !ferror(out)) return true;
    fprintf(stderr, "steer: cannot write the summary to standard output: %s\n", strerror(errno ? errno : EIO));
    return false;
}

static bool print_summary(App *app)
{
    SteerWorld *world = script_world(app->session.host);
    double frames = app->frames ? (double)app->frames : 1.0;
    double steps = app->session.steps ? (double)app->session.steps : 1.0;
    printf("summary: steps=%lld time=%.3f vehicles=%d errors=%d failing_vehicles=%d frames=%llu "
           "lua_ms_per_frame=%.4f step_ms=%.4f lua_heap_kb=%zu\n",
           app->session.steps, steer_world_time(world), steer_world_vehicle_count(world),
           script_error_count(app->session.host), script_failing_vehicles(app->session.host),
           (unsigned long long)app->frames, app->lua_ms_total / frames, app->session.step_ms_total / steps,
           script_memory_used(app->session.host) / 1024);
    app_print_sound(app);
    return app_summary_written(stdout);
}

static int run_headless(App *app)
{
    /* Virtual frames of 1/fps; paced in real time only when watching files (edits arrive in real
     * time), otherwise as fast as the machine goes. */
    double frame_s = 1.0 / (app->opt.fps > 0 ? app->opt.fps : 60.0);
    bool paced = app->opt.watch;
    app->fps = 1.0 / frame_s; /* what the HUD of a headless screenshot shows */
    double next = guard_now();
    while (!steps_done(app) && !app->quit && !g_stop) {
        app_frame(app, frame_s);
        if (paced) {
            next += frame_s;
            sleep_until(next);
        }
    }
    int status = finish(app, script_error_count(app->session.host) > 0 ? 2 : 0);
    /* what was queued is played out (written out, by the disk driver), within reason: the dummy
     * driver plays in real time */
    sound_drain(app->sound, 2.0);
    if (!print_summary(app) && status == 0) status = 3;
    return status;
}

static int run_window(App *app)
{
    double last = guard_now();
    double fps_window_start = last;
    int fps_frames = 0;
    while (!app->quit && !g_stop && !steps_done(app)) {
        SDL_Event ev;
        while (SDL_PollEvent(&ev)) app_handle_event(app, &ev);
        double now = guard_now();
        app_frame(app, now - last);
        last = now;
        if (++fps_frames >= 20) {
            app->fps = fps_frames / (guard_now() - fps_window_start);
            fps_window_start = guard_now();
            fps_frames = 0;
        }
        /* A frame cap keeps an idle scene from burning a core: --fps, else 120 without vsync. */
        double cap = app->opt.fps > 0 ? app->opt.fps : (app->opt.vsync ? 0.0 : APP_DEFAULT_WINDOW_FPS);
        double idle_t0 = guard_now();
        if (cap > 0) sleep_until(now + 1.0 / cap);
        app->idle_ms_last = (guard_now() - idle_t0) * 1000.0; /* (the next frame's HUD tells it) */
    }
    /* a run of set length (--steps) is a script's or CI's, which learns of script errors only here */
    return finish(app, app->opt.steps >= 0 && script_error_count(app->session.host) > 0 ? 2 : 0);
}

int app_run(App *app)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL); /* in a window too, instead of SDL's, which only queues a quit event */
    int status = app->opt.headless ? run_headless(app) : run_window(app);
    return guard_stopped_by() ? 128 + guard_stopped_by() : status; /* a script held the run at the signal */
}
