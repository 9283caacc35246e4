/* SPDX-License-Identifier: MIT */
/* reload.h - notices when script files have been saved. Knows nothing of Lua.
 *
 * A save is reported as soon as it is complete, not after a fixed delay. With inotify (the
 * default) the watcher watches each file's directory, not the file (an editor that saves by
 * writing a temporary file and renaming it over the old one would kill a watch on the file), and
 * reads the events for the file by name: a rename onto it (IN_MOVED_TO) is a finished save; a
 * write into it (IN_MODIFY, a truncation too) starts one that is finished when the writer closes
 * the file (IN_CLOSE_WRITE). So a file an editor writes in several chunks is never reported half
 * written, however long it pauses between them, and a finished save is reported at the first
 * watcher_next after it. Events lost to a queue overflow are made up for by comparing each file
 * with what stat() said last.
 *
 * Polling (--poll, or when inotify cannot be had: then the reason is kept for the caller to say)
 * stats each file every WATCH_POLL_S and reports a change once one poll later shows the file
 * unchanged (size, mtime, ctime, inode). A file whose directory inotify cannot watch (the watch
 * limit, a folder that does not exist yet) is polled the same way.
 *
 * settle_s > 0 adds a wait: a file is reported only once that long has passed without an event
 * (or a change seen by polling) for it, for tools that save in several rounds of open-write-close. */
#ifndef STEER_RUNTIME_RELOAD_H
#define STEER_RUNTIME_RELOAD_H

#include <stdbool.h>

typedef struct Watcher Watcher;

/// How often polling stats the files, in seconds: about once a frame at 60 Hz.
#define WATCH_POLL_S 0.015

/// A watcher using inotify, or polling when `poll` is true or inotify is not available;
/// `settle_s` (>= 0) as above.
Watcher *watcher_create(bool poll, double settle_s);
void watcher_destroy(Watcher *watcher);
bool watcher_is_polling(const Watcher *watcher);
/// Why the watcher polls although inotify was asked for ("inotify_init1: Too many open files"),
/// or NULL.
const char *watcher_fallback_reason(const Watcher *watcher);
/// Starts watching an absolute file path (again: no effect).
void watcher_add(Watcher *watcher, const char *path);
/// Reads pending events at monotonic time `now` (seconds); returns a file whose save is complete
/// (and has settled), or NULL. Call until it returns NULL.
const char *watcher_next(Watcher *watcher, double now);

#endif
