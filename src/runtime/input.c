/* SPDX-License-Identifier: MIT */
/* input.c - what keys and the mouse do. The runtime owns the keys of the table in keys.c (and
 * the wheel, right-drag and a left click on a vehicle, which it also lists), except those a scene
 * takes by listing them in its `keys` (a row with an alternative moves there); everything else is
 * handed to the session's one door (session_input) as what it is: a key by LÖVE's name, a button by
 * LÖVE's number (1 left, 2 right, 3 middle), a point in world coordinates. The door decides what
 * the scene hears (keypressed, keyreleased, mousepressed, mousereleased, mousemoved), what is
 * recorded and what changes the past while a past step is shown (session_input.c): nothing here
 * checks for a replay or a past step. */
#include "app.h"
#include "keys.h"
#include "record.h"
#include "rewind.h"
#include "steer_lua.h"

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
        if (KEYS[i].ctrl || KEYS[i].alt_key) continue; /* without Ctrl, or listed in `keys`: the scene's */
        for (int k = 0; k < KEY_MAX_SYMS && KEYS[i].sym[k]; k++) {
            const char *own = app_key_name(KEYS[i].sym[k]);
            if (own && SDL_strcasecmp(own, name) == 0) return true;
        }
    }
    return false;
}

const char *app_program_key(const char *name, bool *movable)
{
    for (int i = 0; i < KEY_COUNT; i++) {
        if (KEYS[i].ctrl) continue; /* without Ctrl the scene gets the key */
        for (int k = 0; k < KEY_MAX_SYMS && KEYS[i].sym[k]; k++) {
            const char *own = app_key_name(KEYS[i].sym[k]);
            if (own && SDL_strcasecmp(own, name) == 0) {
                *movable = KEYS[i].alt_key != NULL;
                return KEYS[i].key;
            }
        }
    }
    return NULL;
}

/* The names app_key_name gives, worked out once (a keycode for every scancode, then the printable
 * characters): what steer.keyboard.is_down accepts. */
#define KNOWN_MAX 600
static const char *known_names[KNOWN_MAX];
static int known_count;

static void learn_names(void)
{
    static char store[KNOWN_MAX][24];
    for (int sc = 0; sc < SDL_NUM_SCANCODES && known_count < KNOWN_MAX; sc++) {
        SDL_Keycode key = SDL_GetKeyFromScancode((SDL_Scancode)sc);
        if (key == SDLK_UNKNOWN) key = SDL_SCANCODE_TO_KEYCODE(sc);
        const char *name = app_key_name(key);
        if (!name || !name[0] || strlen(name) >= sizeof store[0]) continue;
        bool seen = false;
        for (int i = 0; i < known_count && !seen; i++) seen = !strcmp(known_names[i], name);
        if (seen) continue;
        snprintf(store[known_count], sizeof store[0], "%s", name);
        known_names[known_count] = store[known_count];
        known_count++;
    }
}

bool app_key_known(const char *name, char *hint, size_t hint_size)
{
    if (hint_size > 0) hint[0] = '\0';
    if (name[0] > 32 && name[0] < 127 && !name[1] && !isupper((unsigned char)name[0])) return true;
    if (!known_count) learn_names();
    for (int i = 0; i < known_count; i++)
        if (!strcmp(known_names[i], name)) return true;
    char lower[32];
    size_t n = 0;
    for (; name[n] && n + 1 < sizeof lower; n++) lower[n] = (char)tolower((unsigned char)name[n]);
    lower[n] = '\0';
    const char *close = NULL;
    for (int i = 0; i < known_count && !close; i++) /* "Left", "LSHIFT": the name in lower case */
        if (!strcmp(known_names[i], lower)) close = known_names[i];
    if (!close && n == 1 && lower[0] > 32 && lower[0] < 127) close = lower;
    if (!close) close = steer_lua_suggest(name, known_names, known_count);
    if (close) snprintf(hint, hint_size, "%s", close);
    return false;
}

/* Whether the scene lists the key named `name` (LÖVE's name, any case) in its `keys`. */
static bool scene_lists(App *app, const char *name)
{
    int count;
    const ScriptKey *keys = script_scene_keys(app->session.host, &count);
    for (int i = 0; i < count; i++)
        if (SDL_strcasecmp(keys[i].key, name) == 0) return true;
    return false;
}

bool app_scene_takes(App *app, const KeyBinding *row)
{
    if (!row->alt_key || !row->sym[0]) return false;
    const char *name = app_key_name(row->sym[0]);
    return name && scene_lists(app, name);
}

/* The alternative's own key, as the scene would name it ("[", or "space" for Ctrl+Space). */
static bool scene_takes_alternative(App *app, const KeyBinding *row)
{
    const char *name = app_key_name(row->alt_sym);
    return !row->alt_ctrl && name && scene_lists(app, name);
}

const char *app_action_key(App *app, KeyAction action)
{
    const KeyBinding *row = keys_for_action(action);
    if (!row) return "";
    if (!app_scene_takes(app, row)) return row->key;
    return scene_takes_alternative(app, row) ? "" : row->alt_key;
}

/* The row a key press triggers, the scene's `keys` considered; NULL: the key is the scene's. */
static const KeyBinding *binding_of(App *app, const SDL_KeyboardEvent *k)
{
    bool ctrl = (k->keysym.mod & KMOD_CTRL) != 0;
    const KeyBinding *alt = keys_for_alt_keycode(k->keysym.sym, ctrl);
    if (alt && app_scene_takes(app, alt) && !scene_takes_alternative(app, alt)) return alt;
    const KeyBinding *b = keys_for_keycode(k->keysym.sym, ctrl);
    if (b && !b->ctrl && app_scene_takes(app, b)) return NULL; /* the scene listed it: its own */
    return b;
}

/* The viewer paused, changed the time scale or resized: the tape notes it (the door's call). */
static void view_changed(App *app, TapeView what, int a, int b)
{
    session_input(&app->session, &(SessionInput){.kind = SESSION_VIEW, .view = what, .a = a, .b = b});
}

/* Asks for the step `delta` steps from the one shown (or already asked for this frame): paused,
 * shown at the next frame. */
static void rewind_by(App *app, long long delta)
{
    if (!app->session.rewind) return;
    if (!app->paused) {
        app->paused = true;
        view_changed(app, TAPE_VIEW_PAUSE, 1, 0);
    }
    long long from = app->rewind_to >= 0 ? app->rewind_to : app->session.steps;
    long long to = from + delta;
    app->rewind_to = to < 0 ? 0 : to;
}

static long long steps_per_second(App *app)
{
    double dt = steer_world_dt(script_world(app->session.host));
    return dt > 0 ? (long long)floor(1.0 / dt + 0.5) : 60;
}

/* The recorded step under pixel column x of the timeline (whose bar may reach past the last step
 * recorded, to a future a branch dropped: that part is not the recording's). */
static long long timeline_step_at(App *app, int x)
{
    long long step = steer_render_timeline_step(app->camera.width, app->camera.height,
                                                rewind_timeline_span(app->session.rewind, &app->session), x);
    long long last = rewind_last_step(app->session.rewind, &app->session);
    return step < last ? step : last;
}

/* The step under (x, y) when it is on the timeline (a few pixels of slack around the bar). */
static bool timeline_step(App *app, int x, int y, long long *step)
{
    if (!app->session.rewind) return false;
    int bx, by, bw, bh;
    steer_render_timeline_bar(app->camera.width, app->camera.height, &bx, &by, &bw, &bh);
    if (x < bx - 4 || x > bx + bw + 4 || y < by - 6 || y > by + bh + 6) return false;
    *step = timeline_step_at(app, x);
    return true;
}

/* Does what the key's row of the table says; false when the runtime does not own the key. */
static bool runtime_key(App *app, const SDL_KeyboardEvent *k)
{
    const KeyBinding *b = binding_of(app, k);
    if (!b) return false;
    switch (b->action) {
    case KEY_PAUSE:
        app->paused = !app->paused;
        view_changed(app, TAPE_VIEW_PAUSE, app->paused, 0);
        break;
    case KEY_STEP:
        app->paused = true;
        app->step_requested = true;
        view_changed(app, TAPE_VIEW_PAUSE, 1, 0);
        break;
    case KEY_SLOWER:
        if (app->scale_index > 0) app->scale_index--;
        view_changed(app, TAPE_VIEW_SCALE, app->scale_index, 0);
        break;
    case KEY_FASTER:
        if (app->scale_index < APP_TIME_SCALES - 1) app->scale_index++;
        view_changed(app, TAPE_VIEW_SCALE, app->scale_index, 0);
        break;
    case KEY_HELP: app->show_help = !app->show_help; break;
    case KEY_OVERLAY: app->overlays ^= b->overlay; break;
    case KEY_RESTART: app->restart_requested = true; break; /* (the door drops it in a replay) */
    case KEY_QUIT: app->quit = true; break;
    case KEY_BACK:
    case KEY_FORWARD: { /* one step, or with Shift one second */
        long long n = (k->keysym.mod & KMOD_SHIFT) ? steps_per_second(app) : 1;
        rewind_by(app, b->action == KEY_BACK ? -n : n);
        break;
    }
    case KEY_SWAP_FUTURE: {
        if (!app->session.rewind) break; /* (none in a replay) */
        char error[2048];
        app->rewind_to = -1; /* (a step asked for on the timeline left behind) */
        if (!rewind_swap_future(app->session.rewind, app, error, sizeof error))
            script_report_error(app->session.host, error);
        break;
    }
    case KEY_SOUND: app_toggle_sound(app); break;
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
    SteerWorld *world = script_world(app->session.host);
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

SteerVehicleId app_hovered(App *app)
{
    if (!app->pointer_seen || app->scrubbing || app->right_down) return (SteerVehicleId)STEER_NULL_ID;
    double wx, wy;
    steer_camera_to_world(&app->camera, app->last_x, app->last_y, &wx, &wy);
    return pick_vehicle(app, wx, wy);
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

/* What the scene hears of the mouse: the door decides (session_input). */
static void scene_pointer(App *app, double wx, double wy)
{
    session_input(&app->session, &(SessionInput){.kind = SESSION_POINTER, .x = wx, .y = wy});
}

static void scene_press(App *app, double wx, double wy, int button)
{
    /* the click that gave the window focus (in the same frame) is no change of a past step shown */
    bool focus_click = app->focus_frame == app->frames + 1;
    session_input(
        &app->session,
        &(SessionInput){.kind = SESSION_PRESS, .x = wx, .y = wy, .button = button, .focus_click = focus_click});
}

/* A button's release: for the scene when it heard its press. */
static void scene_release(App *app, double wx, double wy, int button)
{
    session_input(&app->session, &(SessionInput){.kind = SESSION_RELEASE, .x = wx, .y = wy, .button = button});
}

static void note_key(App *app, SDL_Keycode key, bool down)
{
    int i = 0;
    while (i < app->keys_down_count && app->keys_down[i] != key) i++;
    if (down && i == app->keys_down_count && i < (int)(sizeof app->keys_down / sizeof app->keys_down[0]))
        app->keys_down[app->keys_down_count++] = key;
    if (!down && i < app->keys_down_count) app->keys_down[i] = app->keys_down[--app->keys_down_count];
}

static bool device_holds(App *app, const char *name)
{
    for (int i = 0; i < app->keys_down_count; i++) {
        const char *held = app_key_name(app->keys_down[i]);
        if (held && !strcmp(held, name)) return true;
    }
    return false;
}

void app_go_live(App *app) { session_go_live(&app->session); }

void app_settle_input(App *app)
{
    /* The host replayed to the step shown holds what the recording held there; the devices may not. */
    ScriptHost *host = app->session.host;
    const char *const *held;
    char names[64][32];
    int n = script_held_keys(host, &held), count = 0;
    for (int i = 0; i < n && count < 64; i++) /* (a copy: releasing changes the list) */
        if (!device_holds(app, held[i])) snprintf(names[count++], sizeof names[0], "%s", held[i]);
    for (int i = 0; i < count; i++)
        session_input(&app->session, &(SessionInput){.kind = SESSION_KEY_RELEASE, .name = names[i]});
    double wx = 0.0, wy = 0.0;
    if (app->pointer_seen) {
        mouse_world(app, app->last_x, app->last_y, &wx, &wy);
        scene_pointer(app, wx, wy);
        app->pointer_camera = app->camera;
    }
    for (int b = 1; b <= 32; b++)
        if (!(app->buttons_down & (1u << (b - 1)))) scene_release(app, wx, wy, b); /* (when the scene holds it) */
}

void app_refresh_pointer(App *app)
{
    if (!app->pointer_seen || memcmp(&app->pointer_camera, &app->camera, sizeof app->camera) == 0) return;
    double wx, wy;
    mouse_world(app, app->last_x, app->last_y, &wx, &wy);
    if (session_input(&app->session, &(SessionInput){.kind = SESSION_POINTER, .x = wx, .y = wy}))
        app->pointer_camera = app->camera;
}

/* A key for the scene (not the runtime's): pressed, or released. */
static void scene_key(App *app, const SDL_KeyboardEvent *k, bool down)
{
    SessionInput in = {.kind = down ? SESSION_KEY_PRESS : SESSION_KEY_RELEASE,
                       .name = app_key_name(k->keysym.sym),
                       .repeat = down && k->repeat};
    session_input(&app->session, &in);
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
            view_changed(app, TAPE_VIEW_RESIZE, ev->window.data1, ev->window.data2);
        } else if (ev->window.event == SDL_WINDOWEVENT_FOCUS_GAINED) {
            app->focus_frame = app->frames + 1;
        }
        break;
    case SDL_KEYDOWN: {
        note_key(app, ev->key.keysym.sym, true);
        const KeyBinding *b = binding_of(app, &ev->key);
        if (b && ev->key.repeat && !b->repeats) break; /* only a key whose row says so acts again while held */
        if (!runtime_key(app, &ev->key)) scene_key(app, &ev->key, true);
        break;
    }
    case SDL_KEYUP: /* (SDL releases every key held when the window loses focus) */
        note_key(app, ev->key.keysym.sym, false);
        scene_key(app, &ev->key, false); /* (when the scene holds it: it heard its press, whoever has it now) */
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
        app->pointer_seen = true;
        app->buttons_down |= 1u << ((love_button(ev->button.button) - 1) & 31);
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
        app->buttons_down &= ~(1u << ((love_button(ev->button.button) - 1) & 31));
        mouse_world(app, ev->button.x, ev->button.y, &wx, &wy);
        if (ev->button.button == SDL_BUTTON_LEFT) app->scrubbing = false;
        if (ev->button.button == SDL_BUTTON_RIGHT && app->right_down) {
            app->right_down = false;
            if (!app->panned) scene_press(app, wx, wy, 2); /* a right click: its press now, then its release */
        }
        scene_release(app, wx, wy, love_button(ev->button.button)); /* (when the scene heard its press) */
        break;
    case SDL_MOUSEMOTION:
        if (app->scrubbing) { /* dragging along the timeline: the step under the pointer, at the next frame */
            app->rewind_to = timeline_step_at(app, ev->motion.x);
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
        app->pointer_seen = true;
        mouse_world(app, ev->motion.x, ev->motion.y, &wx, &wy);
        SessionInput moved = {
            .kind = SESSION_MOTION, .x = wx, .y = wy, .camera = &app->camera, .sx = ev->motion.x, .sy = ev->motion.y};
        if (session_input(&app->session, &moved)) app->pointer_camera = app->camera;
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

void app_feed_key_event(App *app, Uint32 type, SDL_Keycode key, Uint16 mod, bool repeat)
{
    SDL_Event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = type;
    ev.key.keysym.sym = key;
    ev.key.keysym.mod = mod;
    ev.key.repeat = repeat ? 1 : 0;
    ev.key.state = type == SDL_KEYDOWN ? SDL_PRESSED : SDL_RELEASED;
    app_handle_event(app, &ev);
}

void app_feed_window(App *app, Uint8 event, int data1, int data2)
{
    SDL_Event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = SDL_WINDOWEVENT;
    ev.window.event = event;
    ev.window.data1 = data1;
    ev.window.data2 = data2;
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
