/* SPDX-License-Identifier: MIT */
/* runtime_support.h - helpers for the tests that run the real `steer` program (build/asan/steer)
 * on real scene files in a temporary folder. */
#ifndef STEER_RUNTIME_SUPPORT_H
#define STEER_RUNTIME_SUPPORT_H

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_support.h"

#ifndef STEER_BIN
#define STEER_BIN "build/asan/steer"
#endif

/* How long a test waits for something the program will do (a message, an exit): generous, since
 * a busy machine under ASan can be slow, and only a failing test ever waits that long. Waits end
 * as soon as the awaited thing happens; no test asserts how long it took. */
#define RT_DEADLINE_S 60.0
/* How long a whole run may take before the test gives up on it (kills it and fails) instead of
 * hanging `make test`: far beyond what any run here needs, however busy the machine. */
#define RT_RUN_DEADLINE_S 600.0
/* The time budget is wall-clock time: on a busy machine the program can be preempted for 100 ms
 * in the middle of any small call, which the default budget would report as a timeout. A run that
 * does not name its --time-budget gets this one; tests of the budget name theirs. */
#define RT_TIME_BUDGET_MS "20000"

static char rt_dir[256];

static inline int rt_setup(void **state)
{
    (void)state;
    snprintf(rt_dir, sizeof rt_dir, "/tmp/steer_rt_XXXXXX");
    if (!mkdtemp(rt_dir)) return -1;
    return 0;
}

static inline int rt_teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", rt_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static inline const char *rt_path(const char *name)
{
    static char paths[4][1024];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, 1024, "%s/%s", rt_dir, name);
    return p;
}

static inline void rt_write(const char *name, const char *text)
{
    const char *p = rt_path(name);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", p);
    *strrchr(dir, '/') = '\0';
    for (char *s = dir + strlen(rt_dir); *s; s++) { /* mkdir -p below the temp folder */
        if (*s != '/') continue;
        *s = '\0';
        mkdir(dir, 0755);
        *s = '/';
    }
    mkdir(dir, 0755);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Saves like editors that write a temporary file and rename it over the old one. */
static inline void rt_write_rename(const char *name, const char *text)
{
    char tmp[300];
    snprintf(tmp, sizeof tmp, ".%s.tmp", name);
    rt_write(tmp, text);
    char from[1024], to[1024];
    snprintf(from, sizeof from, "%s", rt_path(tmp));
    snprintf(to, sizeof to, "%s", rt_path(name));
    assert_int_equal(rename(from, to), 0);
}

/* Reads a whole file (malloc'd, "" when missing). */
static inline char *rt_read(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return strdup("");
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    buf[got] = '\0';
    fclose(f);
    return buf;
}

typedef struct RtProcess {
    pid_t pid;
    char out[512], err[512];
} RtProcess;

/* Starts steer with args (NULL-terminated; RT_TIME_BUDGET_MS unless they give --time-budget),
 * stdout and stderr going to files in the temp folder. */
static inline RtProcess rt_start(const char *const *args)
{
    static int serial;
    RtProcess p;
    int n = serial++;
    snprintf(p.out, sizeof p.out, "%s/out%d.txt", rt_dir, n);
    snprintf(p.err, sizeof p.err, "%s/err%d.txt", rt_dir, n);
    p.pid = fork();
    assert_true(p.pid >= 0);
    if (p.pid == 0) {
        char *argv[64];
        int argc = 0;
        bool budget = false;
        argv[argc++] = (char *)STEER_BIN;
        for (; *args && argc < 60; args++) {
            if (!strcmp(*args, "--time-budget")) budget = true;
            argv[argc++] = (char *)*args;
        }
        if (!budget) {
            argv[argc++] = (char *)"--time-budget";
            argv[argc++] = (char *)RT_TIME_BUDGET_MS;
        }
        argv[argc] = NULL;
        int fo = open(p.out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fe = open(p.err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fo, 1);
        dup2(fe, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    return p;
}

static inline double rt_now(void);
static inline void rt_sleep(double s);

/* Waits for the program to exit and returns its status (128 + signal when a signal ended it). A
 * program still running after RT_RUN_DEADLINE_S is killed and the test fails: a hang is a failure
 * to report, never a test that waits forever. */
static inline int rt_wait(RtProcess *p)
{
    int status;
    double end = rt_now() + RT_RUN_DEADLINE_S;
    pid_t got;
    while ((got = waitpid(p->pid, &status, WNOHANG)) == 0 && rt_now() < end) rt_sleep(0.01);
    if (got == 0) {
        kill(p->pid, SIGKILL);
        waitpid(p->pid, &status, 0);
        fail_msg("steer (pid %d) was still running after %.0f s: killed", (int)p->pid, RT_RUN_DEADLINE_S);
    }
    assert_int_equal(got, p->pid);
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + WTERMSIG(status);
}

static inline int rt_stop(RtProcess *p)
{
    kill(p->pid, SIGTERM);
    return rt_wait(p);
}

/* Runs steer to the end; *out and *err get its output (free them). Returns the exit status. */
static inline int rt_run(const char *const *args, char **out, char **err)
{
    RtProcess p = rt_start(args);
    int status = rt_wait(&p);
    *out = rt_read(p.out);
    *err = rt_read(p.err);
    return status;
}

static inline double rt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline void rt_sleep(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

/* Waits up to `timeout` s (RT_DEADLINE_S in the tests: the wait ends as soon as the text is
 * there) for `needle` to appear in the file `path` after byte `from`; returns the offset just past
 * it, or -1. */
static inline long rt_wait_for(const char *path, long from, const char *needle, double timeout)
{
    double end = rt_now() + timeout;
    do {
        char *text = rt_read(path);
        long len = (long)strlen(text);
        if (from <= len) {
            char *hit = strstr(text + from, needle);
            if (hit) {
                long at = (long)(hit - text) + (long)strlen(needle);
                free(text);
                return at;
            }
        }
        free(text);
        rt_sleep(0.02);
    } while (rt_now() < end);
    return -1;
}

/* Counts how many times needle occurs in text. */
static inline int rt_count(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

#endif
