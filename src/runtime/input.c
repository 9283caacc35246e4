/* input.c - what keys and the mouse do. The runtime owns the keys of the table in keys.c (and
 * the wheel, right-drag and a left click on a vehicle, which it also lists); everything else goes
 * to the scene's keypressed(key) / mousepressed(x, y, button) / mousemoved(x, y) with LÖVE's key
 * names, LÖVE's button numbers (1 left, 2 right, 3 middle) and world coordinates. */
#include "app.h"
#include "keys.h"
#include "record.h"
#include "rewind.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A click selects a vehicle when it lands within its radius plus this many pixels. */
#define PICK_SLACK_PX 6.0
#define PICK_MAX_RANGE 200.0
/* A right press that moved less than this is a click (for the script), not a pan. */
#define DRAG_THRESHOLD_PX 3
#define ZOOM_STEP 1.15

const char *app_key_name(SDL_Keycode key)
{
    static char buf[32];
    switch (key) {
    case SDLK_SPACE: return "space";
    case SDLK_RETURN: return "return";
    case SDLK_ESCAPE: return "escape";
    case SDLK_BACKSPACE: return "backspace";
    case SDLK_TAB: return "tab";
    case SDLK_DELETE: return "delete";
    case SDLK_UP: return "up";
    case SDLK_DOWN: return "down";
    case SDLK_LEFT: return "left";
    case SDLK_RIGHT: return "right";
    case SDLK_LSHIFT: return "lshift";
    case SDLK_RSHIFT: return "rshift";
    case SDLK_LCTRL: return "lctrl";
    case SDLK_RCTRL: return "rctrl";
    case SDLK_LALT: return "lalt";
    case SDLK_RALT: return "ralt";
    case SDLK_HOME: return "home";
    case SDLK_END: return "end";
    case SDLK_PAGEUP: return "pageup";
    case SDLK_PAGEDOWN: return "pagedown";
    case SDLK_INSERT: return "insert";
    case SDLK_KP_ENTER: return "kpenter";
    default: break;
    }
    if (key >= SDLK_KP_1 && key <= SDLK_KP_9) {
        snprintf(buf, sizeof buf, "kp%d", (int)(key - SDLK_KP_1) + 1);
        return buf;
    }
    if (key == SDLK_KP_0) return "kp0";
    if (key >= SDLK_F1 && key <= SDLK_F12) {
        snprintf(buf, sizeof buf, "f%d", (int)(key - SDLK_F1) + 1);
        return buf;
    }
    if (key > 32 && key < 127) {
        buf[0] = (char)tolower((int)key);
        buf[1] = '\0';
        return buf;
    }
    const char *name = SDL_GetKeyName(key);
    if (!name || !name[0]) return NULL;
    size_t n = 0;
    for (const char *p = name; *p && n + 1 < sizeof buf; p++)
        if (*p != ' ') buf[n++] = (char)tolower((unsigned char)*p);
    buf[n] = '\0';
    return buf;
}

bool app_key_owned(const char *name)
{
    for (int i = 0; i < KEY_COUNT; i++) {
        if (KEYS[i].ctrl) continue; /* without Ctrl the scene gets the key */
        for (int k = 0; k < KEY_MAX_SYMS && KEYS[i].sym[k]; k++) {
            const char *own = app_key_name(KEYS[i].sym[k]);
            if (own && SDL_strcasecmp(own, name) == 0) return true;
        }
    }
    return false;
}

static const KeyBinding *binding_of(const SDL_KeyboardEvent *k)
{
    return keys_for_keycode(k->keysym.sym, (k->keysym.mod & KMOD_CTRL) != 0);
}

/* Asks for the step `delta` steps from the one shown (or already asked for this frame): paused,
 * shown at the next frame. */
static void rewind_by(App *app, long long delta)
{
    if (!app->rewind) return;
    if (!app->paused) {
        app->paused = true;
        record_view(app->opt.recorder, TAPE_VIEW_PAUSE, 1, 0);
    }
    long long from = app->rewind_to >= 0 ? app->rewind_to : app->steps;
    long long to = from + delta;
    app->rewind_to = to < 0 ? 0 : to;
}

static long long steps_per_second(App *app)
{
    double dt = steer_world_dt(script_world(app->script));
    return dt > 0 ? (long long)floor(1.0 / dt + 0.5) : 60;
}

/* The step under (x, y) when it is on the timeline (a few pixels of slack around the bar). */
static bool timeline_step(App *app, int x, int y, long long *step)
{
    if (!app->rewind) return false;
    int bx, by, bw, bh;
    steer_render_timeline_bar(app->camera.width, app->camera.height, &bx, &by, &bw, &bh);
    if (x < bx - 4 || x > bx + bw + 4 || y < by - 6 || y > by + bh + 6) return false;
    *step = steer_render_timeline_step(app->camera.width, app->camera.height, rewind_last_step(app->rewind, app), x);
    return true;
}

/* Does what the key's row of the table says; false when the runtime does not own the key. */
static bool runtime_key(App *app, const SDL_KeyboardEvent *k)
{
    const KeyBinding *b = binding_of(k);
    if (!b) return false;
    switch (b->action) {
    case KEY_PAUSE:
        app->paused = !app->paused;
        record_view(app->opt.recorder, TAPE_VIEW_PAUSE, app->paused, 0);
        break;
    case KEY_STEP:
        app->paused = true;
        app->step_requested = true;
        record_view(app->opt.recorder, TAPE_VIEW_PAUSE, 1, 0);
        break;
    case KEY_SLOWER:
        if (app->scale_index > 0) app->scale_index--;
        record_view(app->opt.recorder, TAPE_VIEW_SCALE, app->scale_index, 0);
        break;
    case KEY_FASTER:
        if (app->scale_index < APP_TIME_SCALES - 1) app->scale_index++;
        record_view(app->opt.recorder, TAPE_VIEW_SCALE, app->scale_index, 0);
        break;
    case KEY_HELP: app->show_help = !app->show_help; break;
    case KEY_OVERLAY: app->overlays ^= b->overlay; break;
    case KEY_RESTART: app->restart_requested = !app->opt.replaying; break;
    case KEY_QUIT: app->quit = true; break;
    case KEY_BACK:
    case KEY_FORWARD: { /* one step, or with Shift one second */
        long long n = (k->keysym.mod & KMOD_SHIFT) ? steps_per_second(app) : 1;
        rewind_by(app, b->action == KEY_BACK ? -n : n);
        break;
    }
    case KEY_ZOOM:
    case KEY_PAN:
    case KEY_SELECT:
    case KEY_SCRUB: return false; /* mouse actions: no key does them */
    }
    return true;
}

/* The vehicle under screen point (sx, sy): the closest one whose radius (plus a few pixels) covers it. */
static SteerVehicleId pick_vehicle(App *app, double wx, double wy)
{
    SteerWorld *world = script_world(app->script);
    SteerVehicleId id = STEER_NULL_ID;
    if (!steer_world_query_closest(world, (SteerVec2){wx, wy}, PICK_MAX_RANGE, NULL, &id))
        return (SteerVehicleId)STEER_NULL_ID;
    SteerVehicleState st;
    if (steer_vehicle_get(world, id, &st) != STEER_OK) return (SteerVehicleId)STEER_NULL_ID;
    SteerVec2 d = steer_world_offset(world, (SteerVec2){wx, wy}, st.position);
    double reach = st.radius + PICK_SLACK_PX / app->camera.zoom;
    if (d.x * d.x + d.y * d.y > reach * reach) return (SteerVehicleId)STEER_NULL_ID;
    return id;
}

/* SDL numbers buttons 1 left, 2 middle, 3 right; LÖVE 1 left, 2 right, 3 middle. */
static int love_button(Uint8 sdl_button)
{
    switch (sdl_button) {
    case SDL_BUTTON_LEFT: return 1;
    case SDL_BUTTON_RIGHT: return 2;
    case SDL_BUTTON_MIDDLE: return 3;
    default: return sdl_button;
    }
}

static void mouse_world(App *app, int sx, int sy, double *wx, double *wy)
{
    steer_camera_to_world(&app->camera, sx, sy, wx, wy);
}

/* What the scene hears of the mouse, recorded when recording; in a replay the recording's
 * pointer and clicks reach the scene instead (replay.c), and the viewer's only move the view. */
static void scene_pointer(App *app, double wx, double wy)
{
    if (app->opt.replaying || rewind_in_past(app->rewind)) return; /* a past step shows what it had */
    record_pointer(app->opt.recorder, wx, wy);
    script_set_mouse(app->script, wx, wy);
}

static void scene_press(App *app, double wx, double wy, int button)
{
    if (app->opt.replaying) return;
    rewind_branch(app->rewind, app); /* input at a past step changes the past */
    record_press(app->opt.recorder, wx, wy, button);
    script_mousepressed(app->script, wx, wy, button);
}

void app_handle_event(App *app, const SDL_Event *ev)
{
    double wx, wy;
    switch (ev->type) {
    case SDL_QUIT: app->quit = true; break;
    case SDL_WINDOWEVENT:
        if (ev->window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
            app->camera.width = ev->window.data1;
            app->camera.height = ev->window.data2;
            if (app->view_fitted)
                app_fit_camera(app); /* else the world stayed its size, cut off or lost in the middle */
            record_view(app->opt.recorder, TAPE_VIEW_RESIZE, ev->window.data1, ev->window.data2);
        }
        break;
    case SDL_KEYDOWN:
        if (ev->key.repeat) { /* only a key whose row says so acts again while held */
            const KeyBinding *b = binding_of(&ev->key);
            if (!b || !b->repeats) break;
        }
        if (!runtime_key(app, &ev->key)) {
            const char *name = app_key_name(ev->key.keysym.sym);
            if (name && !app->opt.replaying) {
                rewind_branch(app->rewind, app); /* input at a past step changes the past */
                record_key(app->opt.recorder, name);
                script_keypressed(app->script, name);
            }
        }
        break;
    case SDL_MOUSEWHEEL: {
        int mx = app->last_x, my = app->last_y;
        double factor = pow(ZOOM_STEP, ev->wheel.y);
        steer_camera_zoom_at(&app->camera, mx, my, factor);
        app->view_fitted = false;
        break;
    }
    case SDL_MOUSEBUTTONDOWN:
        app->last_x = ev->button.x;
        app->last_y = ev->button.y;
        mouse_world(app, ev->button.x, ev->button.y, &wx, &wy);
        long long step;
        if (ev->button.button == SDL_BUTTON_LEFT && timeline_step(app, ev->button.x, ev->button.y, &step)) {
            app->scrubbing = true; /* the timeline's: the scene hears nothing of it */
            rewind_by(app, 0);
            app->rewind_to = step;
            break;
        }
        scene_pointer(app, wx, wy);
        if (ev->button.button == SDL_BUTTON_RIGHT) {
            app->right_down = true;
            app->panned = false;
            app->press_x = ev->button.x;
            app->press_y = ev->button.y;
        } else if (ev->button.button == SDL_BUTTON_LEFT) {
            SteerVehicleId id = pick_vehicle(app, wx, wy);
            app->selected = id;
            if (id.index1 == 0) scene_press(app, wx, wy, 1);
        } else {
            scene_press(app, wx, wy, love_button(ev->button.button));
        }
        break;
    case SDL_MOUSEBUTTONUP:
        if (ev->button.button == SDL_BUTTON_LEFT) app->scrubbing = false;
        if (ev->button.button == SDL_BUTTON_RIGHT && app->right_down) {
            app->right_down = false;
            if (!app->panned) {
                mouse_world(app, ev->button.x, ev->button.y, &wx, &wy);
                scene_press(app, wx, wy, 2);
            }
        }
        break;
    case SDL_MOUSEMOTION:
        if (app->scrubbing) { /* dragging along the timeline: the step under the pointer, at the next frame */
            int bx, by, bw, bh;
            steer_render_timeline_bar(app->camera.width, app->camera.height, &bx, &by, &bw, &bh);
            app->rewind_to = steer_render_timeline_step(app->camera.width, app->camera.height,
                                                        rewind_last_step(app->rewind, app), ev->motion.x);
            app->last_x = ev->motion.x;
            app->last_y = ev->motion.y;
            break;
        }
        if (app->right_down) {
            if (abs(ev->motion.x - app->press_x) > DRAG_THRESHOLD_PX ||
                abs(ev->motion.y - app->press_y) > DRAG_THRESHOLD_PX)
                app->panned = true;
            if (app->panned) {
                app->view_fitted = false; /* the user's view from now on: selecting leaves it be */
                app->camera.center_x -= (ev->motion.x - app->last_x) / app->camera.zoom;
                app->camera.center_y -= (ev->motion.y - app->last_y) / app->camera.zoom;
            }
        }
        app->last_x = ev->motion.x;
        app->last_y = ev->motion.y;
        mouse_world(app, ev->motion.x, ev->motion.y, &wx, &wy);
        if (!app->opt.replaying && !rewind_in_past(app->rewind)) {
            record_motion(app->opt.recorder, &app->camera, ev->motion.x, ev->motion.y, wx, wy);
            script_set_mouse(app->script, wx, wy);
            script_mousemoved(app->script, wx, wy);
        }
        break;
    default: break;
    }
}

/* ---- Input made up (app.h) ---------------------------------------------------------------- */

void app_feed_key(App *app, SDL_Keycode key, Uint16 mod)
{
    SDL_Event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = SDL_KEYDOWN;
    ev.key.keysym.sym = key;
    ev.key.keysym.mod = mod;
    app_handle_event(app, &ev);
}

void app_feed_motion(App *app, int x, int y)
{
    SDL_Event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = SDL_MOUSEMOTION;
    ev.motion.x = x;
    ev.motion.y = y;
    app_handle_event(app, &ev);
}

void app_feed_button(App *app, Uint32 type, Uint8 button, int x, int y)
{
    SDL_Event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = type;
    ev.button.button = button;
    ev.button.x = x;
    ev.button.y = y;
    app_handle_event(app, &ev);
}

void app_feed_wheel(App *app, int y)
{
    SDL_Event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = SDL_MOUSEWHEEL;
    ev.wheel.y = y;
    app_handle_event(app, &ev);
}
