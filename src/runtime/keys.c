/* SPDX-License-Identifier: MIT */
/* keys.c - the table of the program's keys (see keys.h). Change a key here and F1, the HUD,
 * --help and --overlays follow; `make test` then says which row of docs/runtime.md to fix. */
#include "keys.h"

#include <string.h>

const KeyBinding KEYS[] = {
    {.key = "Space",
     .action = KEY_PAUSE,
     .help = "pause / resume (alt. Ctrl+Space)",
     .sym = {SDLK_SPACE},
     .alt_key = "Ctrl+Space",
     .alt_sym = SDLK_SPACE,
     .alt_ctrl = true},
    {.key = ".", .action = KEY_STEP, .help = "one physics step (pauses)", .sym = {SDLK_PERIOD}, .repeats = true},
    {.key = "-", .action = KEY_SLOWER, .help = "slower: time scale down to x1/4", .sym = {SDLK_MINUS, SDLK_KP_MINUS}},
    {.key = "=",
     .action = KEY_FASTER,
     .help = "faster: time scale up to x8",
     .sym = {SDLK_EQUALS, SDLK_PLUS, SDLK_KP_PLUS}},
    {.key = "F1", .action = KEY_HELP, .help = "help: every key, the scene's own too", .sym = {SDLK_F1}},
    {.key = "F2",
     .action = KEY_OVERLAY,
     .overlay = STEER_OVERLAY_WANDER,
     .cli = "wander",
     .help = "wander circles and targets",
     .sym = {SDLK_F2}},
    {.key = "F3",
     .action = KEY_OVERLAY,
     .overlay = STEER_OVERLAY_AVOIDANCE,
     .cli = "avoidance",
     .help = "obstacle detection boxes and wall feelers",
     .sym = {SDLK_F3}},
    {.key = "F4",
     .action = KEY_OVERLAY,
     .overlay = STEER_OVERLAY_NEIGHBORS,
     .cli = "neighbors",
     .help = "neighbour radius (and view cone)",
     .sym = {SDLK_F4}},
    {.key = "F5", .action = KEY_RESTART, .help = "restart the scene (fresh world, load again)", .sym = {SDLK_F5}},
    {.key = "F6",
     .action = KEY_OVERLAY,
     .overlay = STEER_OVERLAY_FORCES,
     .cli = "forces",
     .help = "velocity and steering force vectors, behaviour targets",
     .sym = {SDLK_F6}},
    {.key = "F7",
     .action = KEY_OVERLAY,
     .overlay = STEER_OVERLAY_STATES,
     .cli = "states",
     .help = "state names (v.state) under the vehicles",
     .sym = {SDLK_F7}},
    {.key = "F8",
     .action = KEY_OVERLAY,
     .overlay = STEER_OVERLAY_PATHS,
     .cli = "paths",
     .help = "flow fields (paths are always drawn)",
     .sym = {SDLK_F8}},
    {.key = "F9",
     .action = KEY_OVERLAY,
     .overlay = STEER_OVERLAY_GRID,
     .cli = "grid",
     .help = "background grid",
     .sym = {SDLK_F9}},
    {.key = "F11",
     .action = KEY_OVERLAY,
     .overlay = STEER_OVERLAY_SENSES,
     .cli = "senses",
     .help = "senses: sight cones, rays clear/blocked, sounds, memories",
     .sym = {SDLK_F11}},
    {.key = "F12",
     .action = KEY_OVERLAY,
     .overlay = STEER_OVERLAY_NAVIGATION,
     .cli = "navigation",
     .help = "navigation maps (the selected vehicle's), paths, replans",
     .sym = {SDLK_F12}},
    {.key = "Left",
     .action = KEY_BACK,
     .help = "rewind: one step back, Shift: one second (alt. [)",
     .sym = {SDLK_LEFT},
     .repeats = true,
     .alt_key = "[",
     .alt_sym = SDLK_LEFTBRACKET},
    {.key = "Right",
     .action = KEY_FORWARD,
     .help = "rewound: one step forward, Shift: one second (alt. ])",
     .sym = {SDLK_RIGHT},
     .repeats = true,
     .alt_key = "]",
     .alt_sym = SDLK_RIGHTBRACKET},
    {.key = "Ctrl+Z",
     .action = KEY_SWAP_FUTURE,
     .help = "after a branch: back to the future it dropped",
     .sym = {SDLK_z},
     .ctrl = true},
    {.key = "Ctrl+M",
     .action = KEY_SOUND,
     .help = "sound on / off (the scene's steer.sound effects)",
     .sym = {SDLK_m},
     .ctrl = true},
    {.key = "wheel", .action = KEY_ZOOM, .help = "zoom at the cursor"},
    {.key = "right-drag", .action = KEY_PAN, .help = "pan"},
    {.key = "left click", .action = KEY_SELECT, .help = "select a vehicle (inspector)"},
    {.key = "timeline", .action = KEY_SCRUB, .help = "click or drag: show that step (paused)"},
    {.key = "Ctrl+Q", .action = KEY_QUIT, .help = "quit", .sym = {SDLK_q}, .ctrl = true},
};

const int KEY_COUNT = (int)(sizeof KEYS / sizeof KEYS[0]);

const KeyBinding *keys_for_keycode(SDL_Keycode sym, bool ctrl)
{
    if (sym == 0) return NULL;
    for (int i = 0; i < KEY_COUNT; i++) {
        if (KEYS[i].ctrl && !ctrl) continue;
        for (int k = 0; k < KEY_MAX_SYMS && KEYS[i].sym[k]; k++)
            if (KEYS[i].sym[k] == sym) return &KEYS[i];
    }
    return NULL;
}

const KeyBinding *keys_for_alt_keycode(SDL_Keycode sym, bool ctrl)
{
    if (sym == 0) return NULL;
    for (int i = 0; i < KEY_COUNT; i++)
        if (KEYS[i].alt_key && KEYS[i].alt_sym == sym && (ctrl || !KEYS[i].alt_ctrl)) return &KEYS[i];
    return NULL;
}

const KeyBinding *keys_for_action(KeyAction action)
{
    for (int i = 0; i < KEY_COUNT; i++)
        if (KEYS[i].action == action) return &KEYS[i];
    return NULL;
}

const KeyBinding *keys_for_overlay_name(const char *name, size_t len)
{
    for (int i = 0; i < KEY_COUNT; i++)
        if (KEYS[i].cli && strlen(KEYS[i].cli) == len && strncmp(KEYS[i].cli, name, len) == 0) return &KEYS[i];
    return NULL;
}

int keys_overlay_names(const char **names, int max)
{
    int n = 0;
    for (int i = 0; i < KEY_COUNT; i++) {
        if (!KEYS[i].cli) continue;
        if (n < max) names[n] = KEYS[i].cli;
        n++;
    }
    return n;
}
