/* SPDX-License-Identifier: MIT */
/* same_file.h - whether two paths name one file, for refusing an output option that names an
 * input (`--record s.lua s.lua` would write over the scene before it is read). */
#ifndef STEER_RUNTIME_SAME_FILE_H
#define STEER_RUNTIME_SAME_FILE_H

#include <stdbool.h>

/// True when a and b name the same file: the same device and inode when both exist (links and
/// other spellings included), else the same path once its folder is resolved.
bool same_file(const char *a, const char *b);

#endif
