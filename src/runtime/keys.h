/* SPDX-License-Identifier: MIT */
/* keys.h - the one table of the `steer` program's keys and mouse actions: what each does, the
 * overlay it toggles and that overlay's name on the command line (--overlays), and the words that
 * describe it. Input dispatches through it (input.c), the help overlay, the HUD and --help print
 * it (hud.c, options.c), --overlays parses and explains its names (options.c), and
 * tests/c/test_runtime_keys.c checks docs/runtime.md's key table against it row for row. No other
 * list of keys or overlay names exists in the C code.
 */
#ifndef STEER_RUNTIME_KEYS_H
#define STEER_RUNTIME_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include <SDL.h>

#include "render.h"

typedef enum KeyAction {
    KEY_PAUSE,       ///< pause / resume
    KEY_STEP,        ///< one physics step, then stay paused
    KEY_SLOWER,      ///< the next slower time scale
    KEY_FASTER,      ///< the next faster time scale
    KEY_HELP,        ///< show / hide the help overlay
    KEY_OVERLAY,     ///< toggle KeyBinding.overlay
    KEY_RESTART,     ///< restart the scene
    KEY_ZOOM,        ///< mouse: the wheel zooms at the cursor
    KEY_PAN,         ///< mouse: right-drag pans
    KEY_SELECT,      ///< mouse: a left click on a vehicle selects it
    KEY_QUIT,        ///< quit
    KEY_BACK,        ///< rewind: one physics step back, with Shift one second (pauses)
    KEY_FORWARD,     ///< rewind: one physics step forward in the recording, with Shift one second
    KEY_SCRUB,       ///< mouse: a left press or drag on the timeline shows that step
    KEY_SWAP_FUTURE, ///< rewind: back to the future the last branch dropped (which keeps the one left)
    KEY_SOUND,       ///< sound on / off
} KeyAction;

enum { KEY_MAX_SYMS = 3 };

typedef struct KeyBinding {
    const char *key; ///< as the help, --help and the docs name it: "Space", "F2", "Ctrl+Q", "wheel"
    KeyAction action;
    unsigned overlay;              ///< KEY_OVERLAY: the SteerOverlay bit it toggles; else 0
    const char *cli;               ///< KEY_OVERLAY: the overlay's name in --overlays; else NULL
    const char *help;              ///< what it does, one short line (the help overlay, --help, docs/runtime.md)
    SDL_Keycode sym[KEY_MAX_SYMS]; ///< the keycodes that do it (0 after the last; none for the mouse)
    bool ctrl;                     ///< only with Ctrl held (without it the key goes to the scene)
    bool repeats;                  ///< held down, it acts again at each key repeat
    /// Where the binding moves when the scene takes its key (lists sym[0]'s name in its `keys`): the
    /// key as named ("[", "Ctrl+Space"), its keycode, and whether Ctrl must be held. NULL: the key is
    /// the runtime's whatever the scene lists (the help says the scene never gets it).
    const char *alt_key;
    SDL_Keycode alt_sym;
    bool alt_ctrl;
} KeyBinding;

/// The table, in the order the help overlay, --help and the docs list it.
extern const KeyBinding KEYS[];
extern const int KEY_COUNT;

/// The binding a key press triggers (Ctrl held or not), or NULL: the key is the scene's.
const KeyBinding *keys_for_keycode(SDL_Keycode sym, bool ctrl);
/// The binding whose alternative (alt_sym) a key press is, or NULL.
const KeyBinding *keys_for_alt_keycode(SDL_Keycode sym, bool ctrl);
/// The first binding with this action (e.g. KEY_HELP, whose key the HUD names).
const KeyBinding *keys_for_action(KeyAction action);
/// The KEY_OVERLAY binding whose --overlays name is the `len` bytes at `name`, or NULL.
const KeyBinding *keys_for_overlay_name(const char *name, size_t len);
/// The --overlays names in table order into names[0..max); returns how many there are.
int keys_overlay_names(const char **names, int max);

#endif
