/* SPDX-License-Identifier: MIT */
/* luacheckrc.h - `steer --luacheckrc`: a luacheck configuration for a user's folder of scenes. */
#ifndef STEER_RUNTIME_LUACHECKRC_H
#define STEER_RUNTIME_LUACHECKRC_H

#include <stdio.h>

/// Writes the configuration (Lua, for .luacheckrc): the scene's callbacks and settings as a std.
void luacheckrc_print(FILE *out);

#endif
