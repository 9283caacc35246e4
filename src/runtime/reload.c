/* reload.c - file watching for hot reload: inotify on directories with a debounce, or polling of
 * mtime and size. See reload.h. */
#define _DEFAULT_SOURCE /* struct stat's st_mtim */
#include "reload.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct WatchedFile {
    char *path;       ///< absolute
    const char *name; ///< points into path: the part after the directory
    int wd;           ///< inotify watch of its directory
    bool pending;
    double changed_at; ///< last event (inotify) or noticed change (polling)
    struct timespec mtime;
    long long size;
    bool exists;
} WatchedFile;

struct Watcher {
    int fd; ///< inotify, or -1 when polling
    WatchedFile *files;
    int count, capacity;
    double next_poll;
};

static void stat_file(WatchedFile *f)
{
    struct stat st;
    f->exists = stat(f->path, &st) == 0;
    f->mtime = f->exists ? st.st_mtim : (struct timespec){0, 0};
    f->size = f->exists ? (long long)st.st_size : -1;
}

Watcher *watcher_create(bool poll)
{
    Watcher *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->fd = poll ? -1 : inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    return w;
}

void watcher_destroy(Watcher *w)
{
    if (!w) return;
    if (w->fd >= 0) close(w->fd);
    for (int i = 0; i < w->count; i++) free(w->files[i].path);
    free(w->files);
    free(w);
}

bool watcher_is_polling(const Watcher *w)
{
    return w->fd < 0;
}

void watcher_add(Watcher *w, const char *path)
{
    for (int i = 0; i < w->count; i++)
        if (!strcmp(w->files[i].path, path)) return;
    if (w->count == w->capacity) {
        int cap = w->capacity ? w->capacity * 2 : 16;
        WatchedFile *p = realloc(w->files, (size_t)cap * sizeof *p);
        if (!p) return;
        w->files = p;
        w->capacity = cap;
    }
    WatchedFile *f = &w->files[w->count];
    memset(f, 0, sizeof *f);
    f->path = strdup(path);
    if (!f->path) return;
    const char *slash = strrchr(f->path, '/');
    f->name = slash ? slash + 1 : f->path;
    f->wd = -1;
    stat_file(f);
    if (w->fd >= 0) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", path);
        /* One watch per directory: inotify returns the same descriptor for a directory twice. */
        f->wd = inotify_add_watch(w->fd, dirname(dir), IN_CLOSE_WRITE | IN_MOVED_TO);
    }
    w->count++;
}

static void read_events(Watcher *w, double now)
{
    char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
    for (;;) {
        ssize_t n = read(w->fd, buf, sizeof buf);
        if (n <= 0) return;
        for (char *p = buf; p < buf + n;) {
            const struct inotify_event *ev = (const struct inotify_event *)p;
            if (ev->len > 0) {
                for (int i = 0; i < w->count; i++) {
                    WatchedFile *f = &w->files[i];
                    if (f->wd == ev->wd && !strcmp(f->name, ev->name)) {
                        f->pending = true;
                        f->changed_at = now;
                    }
                }
            }
            p += sizeof *ev + ev->len;
        }
    }
}

static void poll_files(Watcher *w, double now)
{
    if (now < w->next_poll) return;
    w->next_poll = now + WATCH_POLL_S;
    for (int i = 0; i < w->count; i++) {
        WatchedFile *f = &w->files[i];
        struct timespec old_mtime = f->mtime;
        long long old_size = f->size;
        stat_file(f);
        if (f->exists &&
            (f->size != old_size || f->mtime.tv_sec != old_mtime.tv_sec || f->mtime.tv_nsec != old_mtime.tv_nsec)) {
            f->pending = true;
            f->changed_at = now;
        }
    }
}

const char *watcher_next(Watcher *w, double now)
{
    if (w->fd >= 0)
        read_events(w, now);
    else
        poll_files(w, now);
    for (int i = 0; i < w->count; i++) {
        WatchedFile *f = &w->files[i];
        /* Wait for the saves to settle: 100 ms without an event, or one poll that saw no change. */
        double quiet = w->fd >= 0 ? WATCH_DEBOUNCE_S : WATCH_POLL_S;
        if (f->pending && now - f->changed_at >= quiet) {
            f->pending = false;
            return f->path;
        }
    }
    return NULL;
}
