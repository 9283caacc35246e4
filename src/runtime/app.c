/* SPDX-License-Identifier: MIT */
/* app.c - the loop of the `steer` program. See app.h. */
#include "app.h"

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

ScriptConfig app_script_config(const App *app)
{
    ScriptConfig c = {0};
    c.scene_path = app->opt.script;
    c.exe_path = app->exe;
    c.has_seed = app->opt.has_seed;
    c.seed = app->opt.seed;
    c.threads = app->opt.threads;
    c.think_hz = app->opt.has_think_hz ? app->opt.think_hz : -1.0; /* else the scene's w.think_hz */
    c.physics_hz = app->opt.physics_hz;
    c.time_budget_ms = app->opt.time_budget_ms;
    c.memory_cap = app->opt.memory_cap;
    c.keep_failed = options_keep_failed(&app->opt);
    c.has_math_seed = app->opt.has_math_seed;
    c.math_seed = app->opt.math_seed;
    c.tape = app->opt.tape;
    c.arg0 = app->opt.arg0 ? app->opt.arg0 : app->opt.script;
    c.words = app->opt.words;
    c.word_count = app->opt.word_count;
    c.key_known = app_key_known;
    c.program_key = app_program_key;
    c.quiet = app->opt.quiet;
    return c;
}

static void watch_file(void *ctx, const char *path) { watcher_add(ctx, path); }

/* The world fits between the HUD and the rewind's timeline, which would otherwise hide its top-left
 * corner and its bottom edge (and whatever is there), and while a vehicle is selected, left of its
 * inspector, which would hide the world's top-right corner. Without a renderer yet, the whole window. */
void app_fit_camera(App *app)
{
    SteerWorld *w = script_world(app->script);
    int win_w = app->camera.width > 0 ? app->camera.width : app->opt.width; /* (resized since) */
    int win_h = app->camera.height > 0 ? app->camera.height : app->opt.height;
    int top = 0, bottom = 0, right = 0;
    app->fitted_beside_panel = app->render && steer_vehicle_is_valid(w, app->selected);
    if (app->render) {
        top = steer_render_hud_bottom(app->render, APP_FIT_HUD_LINES);
        if (app->rewind) {
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
    bool inspecting = app->render && steer_vehicle_is_valid(script_world(app->script), app->selected);
    if (app->view_fitted && inspecting != app->fitted_beside_panel) app_fit_camera(app);
}

/* --select N: the N-th vehicle in creation order. False (said on stderr) when the scene, loaded,
 * has fewer: what the command line asks and cannot be done ends the run, as a screenshot's step
 * never reached does. (A scene that failed to load and waits for its fix has none yet.) */
static bool select_nth(App *app)
{
    SteerWorld *w = script_world(app->script);
    int count = steer_world_vehicle_count(w);
    if (app->opt.select <= 0 || script_failed(app->script)) return true;
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
    if ((!app->opt.headless || app->opt.rewind) && !app->opt.recorder && !app->opt.replaying && app->opt.script) {
        app->rewind = rewind_begin(&app->opt); /* (without memory for it, the run goes on unrecorded) */
        if (!app->rewind) fprintf(stderr, "steer: out of memory for the rewind's recording: rewind is off\n");
    }
    ScriptConfig config = app_script_config(app);
    app->script = script_create(&config, error, sizeof error);
    if (!app->script || script_failed(app->script)) fprintf(stderr, "steer: the scene failed to load: %s\n", error);
    if (!app->script) {
        trace_close(app->trace, error, sizeof error);
        app->trace = NULL;
        rewind_destroy(app->rewind);
        app->rewind = NULL;
        return 1;
    }
    rewind_started(app->rewind, app);
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
    if ((!app->opt.headless || app->opt.watch) && !app->opt.replaying) { /* a replay's reloads are recorded */
        app->watcher = watcher_create(app->opt.poll, app->opt.settle_ms / 1000.0);
        if (app->watcher && watcher_fallback_reason(app->watcher)) /* (saves then show up a poll later) */
            fprintf(stderr, "steer: cannot watch with inotify (%s): polling the scripts every %.0f ms\n",
                    watcher_fallback_reason(app->watcher), WATCH_POLL_S * 1000.0);
        if (app->watcher) script_for_each_file(app->script, watch_file, app->watcher);
        app->watched_serial = script_files_serial(app->script);
    }
    if (script_failed(app->script)) /* (said once the files are watched: a save from now on counts) */
        fprintf(stderr, "steer: watching %s and the files it loaded: save the fix to load it\n", app->opt.script);
    return 0;
}

void app_shutdown(App *app)
{
    if (app->render) steer_render_destroy(app->render);
    if (app->sdl) SDL_DestroyRenderer(app->sdl);
    if (app->surface) SDL_FreeSurface(app->surface);
    if (app->window) SDL_DestroyWindow(app->window);
    if (!app->opt.headless) SDL_Quit();
    watcher_destroy(app->watcher);
    char error[512];
    trace_close(app->trace, error, sizeof error); /* finish() closed it after a run */
    free(app->history);
    script_destroy(app->script);
    rewind_destroy(app->rewind); /* after the host, which records through it */
    memset(app, 0, sizeof *app);
}

static void maybe_screenshot(App *app, bool at_end)
{
    if (!app->opt.screenshot || app->screenshot_done || !app->render) return;
    /* at the end: unless --at-step names a step this run never reached (reported by the caller) */
    bool now = app->opt.at_step < 0 ? at_end : app->steps >= app->opt.at_step;
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
            fprintf(stderr, "steer: %s\n", error);
            status = 3;
        }
    }
    maybe_screenshot(app, true);
    if (!app->opt.screenshot) return status;
    if (!app->screenshot_done) {
        fprintf(stderr, "steer: no screenshot written: step %lld was never reached (the run ended after step %lld)\n",
                app->opt.at_step, app->steps);
        return 3;
    }
    return app->screenshot_failed ? 3 : status;
}

void app_step(App *app)
{
    SteerWorld *world = script_world(app->script);
    if (app->render) steer_render_capture(app->render, world);
    record_step(app->opt.recorder);
    script_think(app->script);
    script_update(app->script, steer_world_dt(world));
    double t0 = guard_now();
    steer_world_step(world);
    double ms = (guard_now() - t0) * 1000.0;
    script_collect_events(app->script); /* the step's sense events, for the next pass */
    app->step_ms_total += ms;
    app->step_ms = app->steps == 0 ? ms : app->step_ms * 0.95 + ms * 0.05;
    app->steps++;
    if (app->trace) {
        lua_State *L = script_state(app->script);
        script_push_world(app->script);
        trace_step(app->trace, L, -1, world);
        lua_pop(L, 1);
    }
    app_record_history(app);
    if (app->opt.recorder && app->steps % TAPE_CHECK_INTERVAL == 0)
        record_check(app->opt.recorder, script_world(app->script), app->steps);
    maybe_screenshot(app, false);
}

void app_record_history(App *app)
{
    if (!app->history) return;
    SteerWorld *world = script_world(app->script);
    SteerVehicleState v;
    if (steer_vehicle_get(world, app->selected, &v) != STEER_OK) return;
    HistorySample s;
    s.time = steer_world_time(world);
    s.step = app->steps;
    s.speed = (float)v.speed;
    s.force = (float)steer_length(v.force);
    s.max_speed = (float)v.max_speed;
    s.max_force = (float)v.max_force;
    for (int b = 0; b < STEER_BEHAVIOUR_COUNT; b++) s.behaviour[b] = NAN;
    SteerBehaviour types[STEER_BEHAVIOUR_COUNT];
    int active = steer_vehicle_get_behaviours(world, app->selected, types, STEER_BEHAVIOUR_COUNT);
    for (int k = 0; k < active && k < STEER_BEHAVIOUR_COUNT; k++) {
        SteerBehaviourState st;
        if (steer_vehicle_get_behaviour(world, app->selected, types[k], NULL, &st) == STEER_OK)
            s.behaviour[types[k]] = st.evaluated ? (float)steer_length(st.force) : 0.0f;
    }
    lua_State *L = script_state(app->script);
    script_push_world(app->script);
    s.state = steer_lua_vehicle_state(L, -1, app->selected, &s.state_len);
    history_record(app->history, v.serial, &s); /* copies the name before Lua runs again */
    lua_pop(L, 1);
}

static bool steps_done(const App *app) { return app->opt.steps >= 0 && app->steps >= app->opt.steps; }

/* A save at a past step that did not load: the recording, the kept future and the step shown come
 * back as they were (the host is replayed there again), and the panel keeps the file's error. */
static void undo_branch(App *app, const char *path)
{
    char *why = script_file_error_text(app->script, path);
    char error[2048];
    if (!rewind_branch_undo(app->rewind, app, error, sizeof error)) script_report_error(app->script, error);
    if (why) script_keep_file_error(app->script, path, why);
    free(why);
    fprintf(stderr, "steer: rewind: %s did not load: the run stays at step %lld with its future\n", path, app->steps);
}

void app_check_reload(App *app)
{
    if (!app->watcher) return;
    const char *path;
    bool retry = false;
    while ((path = watcher_next(app->watcher, guard_now())) != NULL) {
        if (script_failed(app->script)) { /* a scene that never loaded: any save may be the fix */
            retry = true;
            continue;
        }
        /* A save while a past step is shown changes the past when it loads: a branch, taken back when
         * the save fails (or was not the scene's), so that a broken save never drops the future. */
        bool past = rewind_in_past(app->rewind);
        if (past) {
            rewind_branch_tentative(app->rewind, app);
            app_settle_input(app);
        }
        record_reload(app->opt.recorder, path);
        ScriptReload r = script_reload_file(app->script, path);
        if (r == SCRIPT_RELOAD_OK) script_announce_reload(app->script, path);
        if (past && r != SCRIPT_RELOAD_OK) {
            undo_branch(app, path);
            continue;
        }
        if (past) rewind_branch_confirm(app->rewind, app);
        if (r != SCRIPT_RELOAD_NOT_OURS) rewind_mark(app->rewind, app->steps, STEER_MARK_RELOAD);
        rewind_note_errors(app->rewind, app); /* a failed save: its error on its reload's step */
    }
    if (retry) app_restart(app);
    /* Modules required for the first time (by a reload, or lazily by a callback) are watched too. */
    if (script_files_serial(app->script) != app->watched_serial) {
        app->watched_serial = script_files_serial(app->script);
        script_for_each_file(app->script, watch_file, app->watcher);
    }
}

void app_restart(App *app)
{
    record_restart(app->opt.recorder);
    char error[8192];
    ScriptConfig config = app_script_config(app);
    ScriptHost *fresh = script_create(&config, error, sizeof error);
    bool was_failed = script_failed(app->script);
    if (!fresh || (script_failed(fresh) && !was_failed)) {
        /* The run goes on; the panel shows why the scene does not load until it loads cleanly. */
        script_report_file_error(app->script, script_scene_file(app->script), error);
        script_destroy(fresh);
        return;
    }
    /* closing the old state runs its finalizers, which hooks cannot interrupt: bounded as at exit */
    guard_watch_closing(GUARD_HARD_MIN_S);
    script_destroy(app->script);
    guard_closed();
    app->script = fresh;
    app->selected = (SteerVehicleId)STEER_NULL_ID;
    if (app->history) history_reset(app->history, 0); /* the new world's serials start again at 1 */
    app->accumulator = 0.0;
    if (was_failed) app_fit_camera(app); /* the scene's own world at last */
    if (app->watcher) script_for_each_file(app->script, watch_file, app->watcher);
    app->watched_serial = script_files_serial(app->script);
    rewind_mark(app->rewind, app->steps, STEER_MARK_RESTART); /* the timeline counts from here */
    if (app->opt.quiet) return;
    if (script_failed(fresh))
        fprintf(stderr, "steer: the scene still fails to load: %s\n", error);
    else
        fprintf(stderr, "steer: %s %s\n", was_failed ? "loaded" : "restarted", app->opt.script);
}

void app_rewind_to(App *app, long long step)
{
    if (!app->rewind) return;
    char error[2048];
    if (!rewind_jump(app->rewind, app, step, error, sizeof error)) script_report_error(app->script, error);
}

void app_frame(App *app, double seconds)
{
    if (app->rewind_to >= 0) {
        long long step = app->rewind_to;
        app->rewind_to = -1;
        app_rewind_to(app, step);
    }
    if (app->restart_requested) {
        app->restart_requested = false;
        app_go_live(app);
        app_restart(app);
    }
    app_check_reload(app);
    /* going on live from a past step (resumed, or one step) drops the recorded future */
    if ((!app->paused || app->step_requested) && rewind_in_past(app->rewind)) app_go_live(app);
    app_refresh_pointer(app);
    SteerWorld *world = script_world(app->script);
    double dt = steer_world_dt(world);
    if (script_failed(app->script)) {
        /* nothing to simulate until the scene loads */
    } else if (!app->paused) {
        double max_catch_up = MAX_CATCH_UP_S * app_time_scale(app);
        app->accumulator += seconds * app_time_scale(app);
        if (app->accumulator > max_catch_up && !app->opt.headless) app->accumulator = max_catch_up;
        while (app->accumulator >= dt && !steps_done(app)) {
            app->accumulator -= dt;
            app_step(app);
        }
    } else if (app->step_requested && !steps_done(app)) {
        app_step(app);
    }
    app->step_requested = false;
    double lua_ms = script_take_lua_seconds(app->script) * 1000.0;
    app->lua_ms_total += lua_ms;
    app->lua_ms = app->frames == 0 ? lua_ms : app->lua_ms * 0.95 + lua_ms * 0.05;
    app->frames++;
    if (app->window) {
        app_render(app, app->paused ? 1.0 : app->accumulator / dt);
        SDL_RenderPresent(app->sdl);
        /* keyframes for the rewind, in the frame's spare time: more while the user looks at the past */
        rewind_idle(app->rewind, app, app->paused ? REWIND_IDLE_PAUSED_S : REWIND_IDLE_LIVE_S);
    } else {
        rewind_note_draw(app->rewind, app);
        script_draw(app->script, NULL, app->overlays); /* headless: the same draw(gfx) calls, drawing nothing */
    }
    rewind_note_frame(app->rewind, app);
}

static const char *vehicle_label(void *ctx, SteerVehicleId id) { return script_vehicle_state(ctx, id); }

void app_render(App *app, double alpha)
{
    if (!app->render) return;
    SteerWorld *world = script_world(app->script);
    refit_for_inspector(app);
    SteerFrame frame = {0};
    frame.camera = app->camera;
    frame.alpha = alpha;
    frame.overlays = app->overlays;
    frame.selected = steer_vehicle_is_valid(world, app->selected) ? app->selected : (SteerVehicleId)STEER_NULL_ID;
    frame.vehicle_label = vehicle_label;
    frame.label_ctx = app->script;
    frame.kind_colors = script_kind_colors(app->script, &frame.kind_color_count); /* by name, stable */
    steer_render_world(app->render, world, &frame);
    if (app->rewind)
        rewind_note_draw(app->rewind, app);
    else
        record_draw(app->opt.recorder);
    script_draw(app->script, app->render, app->overlays);
    hud_draw(app);
    if (script_error(app->script)) {
        /* above the rewind timeline, which would otherwise be drawn over the panel's last lines */
        int bottom = 0;
        if (app->rewind) {
            int bx, by, bw, bh;
            steer_render_timeline_bar(app->camera.width, app->camera.height, &bx, &by, &bw, &bh);
            bottom = app->camera.height - by + 4;
        }
        steer_render_error_panel_above(app->render, script_error(app->script), bottom);
    }
    rewind_draw(app->rewind, app);
}

static void sleep_until(double deadline)
{
    double left = deadline - guard_now();
    if (left <= 0) return;
    struct timespec ts = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};
    nanosleep(&ts, NULL);
}

static void print_summary(App *app)
{
    SteerWorld *world = script_world(app->script);
    double frames = app->frames ? (double)app->frames : 1.0;
    double steps = app->steps ? (double)app->steps : 1.0;
    printf("summary: steps=%lld time=%.3f vehicles=%d errors=%d failing_vehicles=%d frames=%llu "
           "lua_ms_per_frame=%.4f step_ms=%.4f lua_heap_kb=%zu\n",
           app->steps, steer_world_time(world), steer_world_vehicle_count(world), script_error_count(app->script),
           script_failing_vehicles(app->script), (unsigned long long)app->frames, app->lua_ms_total / frames,
           app->step_ms_total / steps, script_memory_used(app->script) / 1024);
    fflush(stdout);
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
    int status = finish(app, script_error_count(app->script) > 0 ? 2 : 0);
    print_summary(app);
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
        if (cap > 0) sleep_until(now + 1.0 / cap);
    }
    /* a run of set length (--steps) is a script's or CI's, which learns of script errors only here */
    return finish(app, app->opt.steps >= 0 && script_error_count(app->script) > 0 ? 2 : 0);
}

int app_run(App *app)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL); /* in a window too, instead of SDL's, which only queues a quit event */
    return app->opt.headless ? run_headless(app) : run_window(app);
}
