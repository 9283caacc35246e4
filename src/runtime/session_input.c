/* SPDX-License-Identifier: MIT */
/* session_input.c - the one door of a session (session.h): every input the scene may hear comes
 * in here, from the window (input.c), from the shell (a restart, a reload, the pointer under a
 * moved view) or from a tape (replay.c). Only here is decided what is the scene's input now, what
 * is recorded and what changes the past:
 * - while a recording plays, the user's input goes nowhere (the tape's is delivered as recorded);
 * - while a past step is shown (rewind.h), only a change of the past reaches the scene, and it goes
 *   on live from that step first (a branch): a key press that is not a modifier or a repeat, a
 *   click that did not just focus the window, a reload, a restart. What only looks at the past (a
 *   modifier like Shift for Shift+Left or Alt for Alt+Tab, a repeat, a release, the pointer, a
 *   resize) is dropped: the replayed host holds what the recording held there;
 * - a release reaches the scene only for a key or button it heard pressed. */
#include "session.h"

#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "rewind.h"

/* The keys that only modify others, by the names the window gives them (input.c, app_key_name). */
static const char *const MODIFIERS[] = {"lshift",  "rshift",   "lctrl",      "rctrl",    "lalt",   "ralt",
                                        "leftgui", "rightgui", "modeswitch", "capslock", "numlock"};

bool session_is_modifier(const char *name)
{
    for (size_t i = 0; i < sizeof MODIFIERS / sizeof MODIFIERS[0]; i++)
        if (!strcmp(MODIFIERS[i], name)) return true;
    return false;
}

/* A saved file: loaded again. At a past step a save changes the past when it loads: a branch, taken
 * back when the save fails (or was not the scene's), so that a broken save never drops the future. */
static bool reload(Session *s, const char *path, bool from_tape)
{
    if (from_tape) {
        ScriptReload r = script_reload_file(s->host, path);
        if (r == SCRIPT_RELOAD_OK && !s->quiet) script_announce_reload(s->host, path);
        return true;
    }
    bool past = session_in_past(s);
    if (past) {
        rewind_branch_tentative(s->rewind, s);
        if (s->hooks.settle) s->hooks.settle(s->hooks.ctx);
    }
    record_reload(s->recorder, path);
    ScriptReload r = script_reload_file(s->host, path);
    if (r == SCRIPT_RELOAD_OK) script_announce_reload(s->host, path);
    if (past && r != SCRIPT_RELOAD_OK) {
        if (s->hooks.reload_undone) s->hooks.reload_undone(s->hooks.ctx, path);
        return false;
    }
    if (past) rewind_branch_confirm(s->rewind);
    if (r != SCRIPT_RELOAD_NOT_OURS) rewind_mark(s->rewind, s->steps, STEER_MARK_RELOAD);
    rewind_note_errors(s->rewind, s); /* a failed save: its error on its reload's step */
    return true;
}

/* Whether the door lets a live input through, and goes on live first when it changes the past. */
static bool admit(Session *s, const SessionInput *in)
{
    bool past = session_in_past(s);
    switch (in->kind) {
    case SESSION_KEY_PRESS:
        if (in->repeat && (past || !script_key_repeat(s->host))) return false;
        if (past && session_is_modifier(in->name)) return false; /* not a change of the past */
        break;
    case SESSION_KEY_RELEASE: return !past && script_key_held(s->host, in->name);
    case SESSION_RELEASE: return !past && script_button_held(s->host, in->button);
    case SESSION_POINTER:
    case SESSION_MOTION: return !past; /* a past step shows the pointer it had */
    case SESSION_PRESS:
        if (past && in->focus_click) return false; /* the click that focused the window */
        break;
    case SESSION_VIEW:
        return !(past && in->view == TAPE_VIEW_RESIZE); /* (a past step's recording ends where it ends) */
    case SESSION_RELOAD: return true;                   /* (it branches tentatively itself) */
    case SESSION_RESTART: break;
    }
    session_go_live(s); /* input at a past step changes the past */
    return true;
}

static void put_on_tape(Session *s, const SessionInput *in)
{
    struct Recorder *r = s->recorder;
    switch (in->kind) {
    case SESSION_KEY_PRESS: record_key(r, in->name); break;
    case SESSION_KEY_RELEASE: record_key_release(r, in->name); break;
    case SESSION_POINTER: record_pointer(r, in->x, in->y); break;
    case SESSION_MOTION: record_motion(r, in->camera, in->sx, in->sy, in->x, in->y); break;
    case SESSION_PRESS: record_press(r, in->x, in->y, in->button); break;
    case SESSION_RELEASE: record_release(r, in->x, in->y, in->button); break;
    case SESSION_VIEW: record_view(r, in->view, in->a, in->b); break;
    case SESSION_RELOAD: /* (reload() records it, after a tentative branch) */
    case SESSION_RESTART: /* (session_restart records it) */ break;
    }
}

static void deliver(Session *s, const SessionInput *in)
{
    ScriptHost *h = s->host;
    switch (in->kind) {
    case SESSION_KEY_PRESS: script_keypressed(h, in->name); break;
    case SESSION_KEY_RELEASE: script_keyreleased(h, in->name); break;
    case SESSION_POINTER: script_set_mouse(h, in->x, in->y); break;
    case SESSION_MOTION:
        script_set_mouse(h, in->x, in->y);
        script_mousemoved(h, in->x, in->y);
        break;
    case SESSION_PRESS:
        script_set_mouse(h, in->x, in->y);
        script_mousepressed(h, in->x, in->y, in->button);
        break;
    case SESSION_RELEASE:
        script_set_mouse(h, in->x, in->y);
        script_mousereleased(h, in->x, in->y, in->button);
        break;
    case SESSION_RESTART: session_restart(s); break;
    case SESSION_RELOAD:
    case SESSION_VIEW: break;
    }
}

bool session_input(Session *s, const SessionInput *in)
{
    if ((in->kind == SESSION_KEY_PRESS || in->kind == SESSION_KEY_RELEASE || in->kind == SESSION_RELOAD) && !in->name)
        return false;
    if (in->from_tape) { /* the recording is the truth: as it was, never recorded again */
        if (in->kind == SESSION_RELOAD) return reload(s, in->name, true);
        deliver(s, in);
        return true;
    }
    if (s->replaying) return false; /* the viewer's input only moves the view */
    if (!admit(s, in)) return false;
    if (in->kind == SESSION_RELOAD) return reload(s, in->name, false);
    put_on_tape(s, in);
    deliver(s, in);
    return true;
}
