/* SPDX-License-Identifier: MIT */
/* regular_file.h - reading a whole file the program was named (a scene, a module, a recording)
 * only when it is a regular file of bounded size: a path that names a FIFO, a device (a symlink to
 * /dev/zero) or a folder is refused with a message, and opening one never blocks. */
#ifndef STEER_RUNTIME_REGULAR_FILE_H
#define STEER_RUNTIME_REGULAR_FILE_H

#include <stdbool.h>
#include <stddef.h>

/// The most a scene or a module may hold (bytes).
#define REGULAR_FILE_SCRIPT_MAX ((size_t)64 << 20)
/// The most a recording may hold (bytes): every script it ran and every step's input.
#define REGULAR_FILE_RECORDING_MAX ((size_t)1 << 30)

/// Reads the regular file at path whole (malloc'd, NUL-terminated; its length in *len). NULL when
/// it cannot be opened, is no regular file or holds more than `limit` bytes, with the reason in
/// `why` ("No such file or directory", "it is a folder, not a file", ...).
char *regular_file_read(const char *path, size_t limit, size_t *len, char *why, size_t why_size);

/// Whether path is longer than the system takes (PATH_MAX bytes, or a name in it longer than
/// NAME_MAX): then `why` says so ("the path is too long: 5012 bytes, the system takes at most
/// 4095") and `shown` holds the path cut to its ends for a message ("/tmp/aaaa...ccc.lua"). Such a
/// path would otherwise read as a missing file (realpath and open say ENAMETOOLONG).
bool path_too_long(const char *path, char *why, size_t why_size, char *shown, size_t shown_size);

#endif