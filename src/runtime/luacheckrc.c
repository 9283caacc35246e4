/* SPDX-License-Identifier: MIT */
/* luacheckrc.c - `steer --luacheckrc`: a luacheck configuration for a user's folder of scenes.
 *
 * A scene gives the program its callbacks and settings as globals (LÖVE style), which luacheck
 * reports one by one with its default settings: a user's folder got a warning for every callback,
 * every global the scene keeps across reloads and every unused callback argument. The list comes
 * from the callbacks the program calls (script_callback_name), so the configuration never falls
 * behind the program. */
#include "luacheckrc.h"

#include <stdbool.h>
#include <string.h>

#include "script.h"
#include "steer/steer.h"

/* Settings the program reads from the scene besides its callbacks (script.c, script_keys.c). */
static const char *const SETTINGS[] = {"world", "keys"};
enum { SETTING_COUNT = sizeof SETTINGS / sizeof SETTINGS[0] };

/* Writes one string of a list: `"prefixname"`, after a comma unless it is the first, on a new line
 * indented by `indent` when it is the first or would run past 100 columns. */
static void print_item(FILE *out, int *column, int indent, bool first, const char *prefix, const char *name)
{
    int width = 2 + (int)(strlen(prefix) + strlen(name)) + 2;
    if (!first) fputc(',', out);
    if (first || *column + width > 100) {
        *column = fprintf(out, "\n%*s", indent - 1, "") - 1;
    }
    *column += fprintf(out, " \"%s%s\"", prefix, name);
}

/* Writes every scene global (the callbacks, then the settings) as Lua strings after `prefix`, one
 * list item each, then a new line. */
static void print_globals(FILE *out, int indent, const char *prefix)
{
    int column = 0, n = 0;
    for (const char *name; (name = script_callback_name(n)); n++)
        print_item(out, &column, indent, n == 0, prefix, name);
    for (int i = 0; i < SETTING_COUNT; i++) print_item(out, &column, indent, false, prefix, SETTINGS[i]);
    fputc('\n', out);
}

void luacheckrc_print(FILE *out)
{
    fprintf(out,
            "-- luacheck configuration for the scenes of the steer program (steer %s), printed by\n"
            "-- `steer --luacheckrc`: save it as .luacheckrc in your scenes' folder and run `luacheck .` there.\n"
            "--\n"
            "-- A scene gives the program its callbacks and settings as globals: the std steer_scene names them.\n"
            "-- `steer` is no global: a scene that needs the module writes local steer = require \"steer\".\n"
            "stds.steer_scene = {\n"
            "  globals = {",
            STEER_VERSION);
    print_globals(out, 4, "");
    fprintf(out, "  },\n"
                 "}\n"
                 "std = \"lua54+steer_scene\"\n"
                 "\n"
                 "-- A scene's globals survive a hot reload where a file-level local starts afresh, so a global set\n"
                 "-- in load and read in update is no mistake: a global set anywhere is defined, and what luacheck\n"
                 "-- still reports is a read of a name never set (a typo) and a global never read...\n"
                 "allow_defined = true\n"
                 "-- ...which the callbacks and settings are not: the program reads them.\n"
                 "ignore = {");
    print_globals(out, 2, "131/");
    fprintf(out, "}\n"
                 "\n"
                 "-- Callbacks take (world, dt), (x, y, button), ... and brains (v, dt), used or not.\n"
                 "unused_args = false\n");
}
