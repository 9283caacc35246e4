/* SPDX-License-Identifier: MIT */
/* bench_edit_loop.c - the edit loop as a user sees it: the real `steer --watch` program on real
 * files, a brain module saved 20 times while the scene runs, and the time from the moment each
 * save completes (the last close, or the rename) to the first think of the new code, read off the
 * program's stdout through a pipe. The scene's 12 vehicles think at the default 10 Hz, staggered
 * over the 60 Hz steps, so some vehicle thinks at every step (as in any scene of a few vehicles
 * or more): what is measured is the watcher and the loop, not the wait for a brain's turn.
 *
 * Saves in place and by rename (a temporary file renamed over the module, as many editors do),
 * headless and in a window, each with the watcher's default and with `--settle 100`, the fixed
 * 100 ms debounce the watcher used to wait after every event: both in the same run, so the ratio
 * holds on a busy machine. Then the polling fallback (--poll), headless, alone.
 *
 * usage: bench_edit_loop STEER [SAVES]   (SAVES: per configuration, default 20)
 * The window uses SDL_VIDEODRIVER if set, else dummy: SDL_VIDEODRIVER=x11 xvfb-run -a ... times
 * a real X11 window. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../bench_support.h"

#define MAX_SAVES 200
#define WAIT_S 10.0 /* for one save to show up before the run counts as failed */

static char g_dir[64];
static const char *g_steer;

static void path_in_dir(char *out, size_t size, const char *name) { snprintf(out, size, "%s/%s", g_dir, name); }

static void write_all(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    size_t len = strlen(text);
    if (fd < 0 || write(fd, text, len) != (ssize_t)len || close(fd) != 0) {
        perror(path);
        exit(1);
    }
}

/* Version n of the brain: says so at the first think of any vehicle (a module-level local starts
 * afresh with each load), then thinks quietly. */
static void save_brain(int version, bool by_rename)
{
    char text[512], path[128], tmp[128];
    snprintf(text, sizeof text,
             "local M = {}\n"
             "local said = false\n"
             "function M.think(v, dt)\n"
             "  if not said then said = true; print('think v%d') end\n"
             "end\n"
             "return M\n",
             version);
    path_in_dir(path, sizeof path, "brain.lua");
    if (!by_rename) {
        write_all(path, text);
        return;
    }
    path_in_dir(tmp, sizeof tmp, ".brain.lua.tmp");
    write_all(tmp, text);
    if (rename(tmp, path) != 0) {
        perror("rename");
        exit(1);
    }
}

typedef struct Child {
    pid_t pid;
    int out; ///< read end of the program's stdout
    char buf[1 << 16];
    size_t len;
} Child;

static void start(Child *c, bool window, const char *option, const char *value)
{
    int fds[2];
    if (pipe(fds) != 0) exit(1);
    char scene[128];
    path_in_dir(scene, sizeof scene, "scene.lua");
    c->len = 0;
    c->out = fds[0];
    c->pid = fork();
    if (c->pid < 0) exit(1);
    if (c->pid == 0) {
        dup2(fds[1], 1);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 2);
        close(fds[0]);
        if (window) setenv("SDL_VIDEODRIVER", "dummy", 0); /* (unless one is named: x11 under xvfb-run) */
        const char *argv[16];
        int n = 0;
        argv[n++] = g_steer;
        if (!window) {
            argv[n++] = "--headless";
            argv[n++] = "--watch";
        }
        if (option) argv[n++] = option;
        if (value) argv[n++] = value;
        argv[n++] = scene;
        argv[n] = NULL;
        execv(g_steer, (char *const *)argv);
        _exit(127);
    }
    close(fds[1]);
}

/* Reads the program's output until `needle` appears in what came after the last match; the time
 * it arrived, or -1 after WAIT_S. */
static double wait_for(Child *c, const char *needle)
{
    double end = bench_wall_seconds() + WAIT_S;
    for (;;) {
        c->buf[c->len] = '\0';
        char *hit = strstr(c->buf, needle);
        if (hit) {
            double at = bench_wall_seconds();
            size_t used = (size_t)(hit - c->buf) + strlen(needle);
            memmove(c->buf, c->buf + used, c->len - used);
            c->len -= used;
            return at;
        }
        double left = end - bench_wall_seconds();
        if (left <= 0) return -1;
        struct pollfd p = {c->out, POLLIN, 0};
        if (poll(&p, 1, (int)(left * 1000) + 1) <= 0) continue;
        if (c->len + 1 >= sizeof c->buf) c->len = 0; /* (only lines of a failed run pile up) */
        ssize_t n = read(c->out, c->buf + c->len, sizeof c->buf - 1 - c->len);
        if (n <= 0) return -1;
        c->len += (size_t)n;
    }
}

static void stop(Child *c)
{
    kill(c->pid, SIGTERM);
    waitpid(c->pid, NULL, 0);
    close(c->out);
}

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

/* `saves` saves into a fresh run; fills ms[] with each save's latency. False if one never showed. */
static bool measure(bool window, bool by_rename, const char *option, const char *value, int saves, double *ms)
{
    save_brain(1, false);
    Child *c = malloc(sizeof *c);
    if (!c) exit(1);
    start(c, window, option, value);
    bool ok = wait_for(c, "think v1\n") > 0;
    for (int i = 0; ok && i < saves; i++) {
        /* saves land at different points of the program's frame (a 60 Hz frame is 16.7 ms) */
        sleep_s(0.05 + 0.0037 * (i * 7 % 20));
        char needle[32];
        snprintf(needle, sizeof needle, "think v%d\n", i + 2);
        save_brain(i + 2, by_rename);
        double saved = bench_wall_seconds();
        double seen = wait_for(c, needle);
        ok = seen > 0;
        ms[i] = (seen - saved) * 1000.0;
    }
    stop(c);
    free(c);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s STEER [SAVES]\n", argv[0]);
        return 1;
    }
    g_steer = argv[1];
    int saves = argc > 2 ? atoi(argv[2]) : 20;
    if (saves < 1 || saves > MAX_SAVES) {
        fprintf(stderr, "%s: SAVES must be 1..%d, got %s\n", argv[0], MAX_SAVES, argv[2]);
        return 1;
    }
    snprintf(g_dir, sizeof g_dir, "/tmp/steer_edit_loop_XXXXXX");
    if (!mkdtemp(g_dir)) return 1;
    char scene[128];
    path_in_dir(scene, sizeof scene, "scene.lua");
    write_all(scene, "local Brain = require 'brain'\n"
                     "world = { width = 400, height = 400, edges = 'wrap', seed = 1 }\n"
                     "function load(w)\n"
                     "  for i = 1, 12 do w:spawn{ kind = 'a', x = 30 * i, y = 10, vx = 10 }.brain = Brain end\n"
                     "end\n");
    printf("== edit loop: save -> first think of the new code, %d saves each (12 brains at 10 Hz, staggered: one "
           "thinks every step; %s)\n",
           saves, g_steer);
    printf("%-9s %-9s %22s %22s %7s\n", "", "", "default: median worst", "--settle 100: median worst", "ratio");
    int status = 0;
    for (int window = 0; window <= 1; window++) {
        for (int by_rename = 0; by_rename <= 1; by_rename++) {
            double fast[MAX_SAVES], slow[MAX_SAVES];
            bool ok = measure(window, by_rename, NULL, NULL, saves, fast) &&
                      measure(window, by_rename, "--settle", "100", saves, slow);
            if (!ok) {
                printf("%-9s %-9s a save never showed up within %.0f s\n", window ? "window" : "headless",
                       by_rename ? "rename" : "in place", WAIT_S);
                status = 1;
                continue;
            }
            double fast_med = bench_median(fast, saves), slow_med = bench_median(slow, saves);
            printf("%-9s %-9s %12.1f ms %6.1f ms %12.1f ms %6.1f ms %6.1fx\n", window ? "window" : "headless",
                   by_rename ? "rename" : "in place", fast_med, fast[saves - 1], slow_med, slow[saves - 1],
                   slow_med / fast_med);
        }
    }
    /* the fallback without inotify: figures alone (it used to poll every 250 ms and wait one more) */
    for (int by_rename = 0; by_rename <= 1; by_rename++) {
        double ms[MAX_SAVES];
        if (!measure(false, by_rename, "--poll", NULL, saves, ms)) {
            printf("--poll    %-9s a save never showed up within %.0f s\n", by_rename ? "rename" : "in place", WAIT_S);
            status = 1;
            continue;
        }
        double med = bench_median(ms, saves);
        printf("%-9s %-9s %12.1f ms %6.1f ms   (headless, the polling fallback)\n", "--poll",
               by_rename ? "rename" : "in place", med, ms[saves - 1]);
    }
    printf("target: under 50 ms from save to the first think of the new code\n");
    char path[128];
    path_in_dir(path, sizeof path, "brain.lua");
    unlink(path);
    unlink(scene);
    rmdir(g_dir);
    return status;
}
