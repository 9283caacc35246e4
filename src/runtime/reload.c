/* SPDX-License-Identifier: MIT */
/* reload.c - file watching for hot reload: inotify on directories, told a finished save from one
 * in progress by the events themselves, or polling of stat(). See reload.h. */
#define _DEFAULT_SOURCE /* struct stat's st_mtim, st_ctim */
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

/* What stat() says of a file: any difference is a change. The inode and ctime catch a rename of
 * a file of the same size written within the same clock tick as the old one (equal mtime). */
typedef struct FileState {
    bool exists;
    long long size;
    struct timespec mtime, ctime;
    ino_t ino;
    dev_t dev;
} FileState;

typedef struct WatchedFile {
    char *path;        ///< absolute
    const char *name;  ///< points into path: the part after the directory
    int wd;            ///< inotify watch of its directory; -1: this file is polled
    bool changed;      ///< saved since it was last reported
    bool writing;      ///< inotify: written to and not closed since; polling: not yet seen unchanged
    double changed_at; ///< when the last event (or change seen by polling) was noticed
    FileState state;   ///< at the last poll, or when last reported
} WatchedFile;

struct Watcher {
    int fd; ///< inotify, or -1 when polling everything
    double settle_s;
    WatchedFile *files;
    int count, capacity;
    double next_poll;
    char fallback_reason[128]; ///< why inotify is not used although it was asked for
};

static FileState stat_file(const char *path)
{
    struct stat st;
    FileState s = {0};
    s.exists = stat(path, &st) == 0;
    if (!s.exists) return s;
    s.size = (long long)st.st_size;
    s.mtime = st.st_mtim;
    s.ctime = st.st_ctim;
    s.ino = st.st_ino;
    s.dev = st.st_dev;
    return s;
}

static bool same_state(const FileState *a, const FileState *b)
{
    return a->exists == b->exists && a->size == b->size && a->mtime.tv_sec == b->mtime.tv_sec &&
           a->mtime.tv_nsec == b->mtime.tv_nsec && a->ctime.tv_sec == b->ctime.tv_sec &&
           a->ctime.tv_nsec == b->ctime.tv_nsec && a->ino == b->ino && a->dev == b->dev;
}

Watcher *watcher_create(bool poll, double settle_s)
{
    Watcher *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->settle_s = settle_s > 0 ? settle_s : 0;
    w->fd = -1;
    if (!poll) {
        w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        if (w->fd < 0) snprintf(w->fallback_reason, sizeof w->fallback_reason, "inotify_init1: %s", strerror(errno));
    }
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

bool watcher_is_polling(const Watcher *w) { return w->fd < 0; }

const char *watcher_fallback_reason(const Watcher *w) { return w->fallback_reason[0] ? w->fallback_reason : NULL; }

/* The events that tell a save: a rename onto the file, a write into it, the writer's close.
 * (Creating the file is not one: a new file's content arrives with IN_MODIFY, then IN_CLOSE_WRITE.) */
#define WATCH_EVENTS (IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO)

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
    f->state = stat_file(f->path);
    if (w->fd >= 0) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", path);
        /* One watch per directory: inotify returns the same descriptor for a directory twice. If
         * it refuses (the user's watch limit, a folder not there yet), this file is polled. */
        f->wd = inotify_add_watch(w->fd, dirname(dir), WATCH_EVENTS);
    }
    w->count++;
}

static void note_change(WatchedFile *f, bool writing, double now)
{
    f->changed = true;
    f->writing = writing;
    f->changed_at = now;
}

/* The kernel dropped events: whatever stat() shows changed since we last looked counts as a
 * finished save (a writer still at it will send more events). */
static void recover_from_overflow(Watcher *w, double now)
{
    for (int i = 0; i < w->count; i++) {
        WatchedFile *f = &w->files[i];
        if (f->wd < 0) continue;
        FileState s = stat_file(f->path);
        if (!same_state(&s, &f->state) && s.exists) note_change(f, false, now);
        f->state = s;
    }
}

static void on_event(Watcher *w, const struct inotify_event *ev, double now)
{
    if (ev->mask & IN_Q_OVERFLOW) {
        recover_from_overflow(w, now);
        return;
    }
    for (int i = 0; i < w->count; i++) {
        WatchedFile *f = &w->files[i];
        if (f->wd != ev->wd) continue;
        if (ev->mask & IN_IGNORED) { /* the directory's watch is gone (folder removed): poll */
            f->wd = -1;
            f->state = stat_file(f->path);
        } else if (ev->len > 0 && !strcmp(f->name, ev->name)) {
            note_change(f, (ev->mask & IN_MODIFY) != 0, now);
        }
    }
}

static void read_events(Watcher *w, double now)
{
    char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
    for (;;) {
        ssize_t n = read(w->fd, buf, sizeof buf);
        if (n <= 0) return;
        for (char *p = buf; p < buf + n;) {
            const struct inotify_event *ev = (const struct inotify_event *)p;
            on_event(w, ev, now);
            p += sizeof *ev + ev->len;
        }
    }
}

/* Polled files: a change starts a save; a poll that then sees the file unchanged finishes it. */
static void poll_files(Watcher *w, double now)
{
    if (now < w->next_poll) return;
    w->next_poll = now + WATCH_POLL_S;
    for (int i = 0; i < w->count; i++) {
        WatchedFile *f = &w->files[i];
        if (f->wd >= 0) continue;
        FileState s = stat_file(f->path);
        if (!same_state(&s, &f->state)) {
            f->state = s;
            if (s.exists) note_change(f, true, now);
        } else {
            f->writing = false;
        }
    }
}

const char *watcher_next(Watcher *w, double now)
{
    if (w->fd >= 0) read_events(w, now);
    poll_files(w, now);
    for (int i = 0; i < w->count; i++) {
        WatchedFile *f = &w->files[i];
        if (f->changed && !f->writing && now - f->changed_at >= w->settle_s) {
            f->changed = false;
            if (f->wd >= 0) f->state = stat_file(f->path); /* what an overflow is compared with */
            return f->path;
        }
    }
    return NULL;
}
