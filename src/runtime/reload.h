/* reload.h - notices when script files change on disk. Watches directories, not files (an
 * editor that saves by writing a temporary file and renaming it over the old one would kill a
 * watch on the file): inotify IN_CLOSE_WRITE | IN_MOVED_TO on each directory, then a debounce of
 * ~100 ms so several quick saves give one reload. Without inotify (or with --poll) it compares
 * each file's mtime and size every 250 ms. Knows nothing of Lua. */
#ifndef STEER_RUNTIME_RELOAD_H
#define STEER_RUNTIME_RELOAD_H

#include <stdbool.h>

typedef struct Watcher Watcher;

#define WATCH_DEBOUNCE_S 0.1
#define WATCH_POLL_S 0.25

/// A watcher using inotify, or polling when `poll` is true or inotify is not available.
Watcher *watcher_create(bool poll);
void watcher_destroy(Watcher *watcher);
bool watcher_is_polling(const Watcher *watcher);
/// Starts watching an absolute file path (again: no effect).
void watcher_add(Watcher *watcher, const char *path);
/// Reads pending events at monotonic time `now` (seconds); returns a file whose changes have been
/// quiet for the debounce time, or NULL. Call until it returns NULL.
const char *watcher_next(Watcher *watcher, double now);

#endif
