/* SPDX-License-Identifier: MIT */
/* test_runtime_watch.c - the file watcher behind hot reload, on real files in a temporary folder:
 * a save in place and a save by rename are reported at once (inotify) or a poll later (polling),
 * a file still being written is never reported until its writer closes it, files nobody watches
 * give nothing, --settle waits for quiet, a file whose folder cannot be watched is polled, and
 * without inotify the watcher polls and says why. */
#include "test_support.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "reload.h"

static char g_dir[256];

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *read_file(const char *path)
{
    static char buf[1024];
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void in_dir(char *out, size_t size, const char *name) { snprintf(out, size, "%s/%s", g_dir, name); }

/* The watcher is told the time (watcher_next(w, now)) rather than reading a clock, so these tests
 * run it on a virtual clock: what it reports, and after how much (virtual) time, does not depend on
 * how busy the machine is. inotify queues an event when the write returns and polling reads the
 * file's stat, so nothing here waits for real time to pass. */
static double g_now;

/* Runs the watcher for `seconds` of virtual time in 5 ms ticks, from a call at the current time:
 * how many files it reports and how long after the start the first came (0: at the first call). */
static int changes_within(Watcher *w, double seconds, const char *expect_path, double *first_after)
{
    double start = g_now;
    int n = 0;
    *first_after = -1;
    for (int tick = 0; tick * 0.005 < seconds; tick++) {
        g_now = start + tick * 0.005;
        const char *p;
        while ((p = watcher_next(w, g_now)) != NULL) {
            if (expect_path) assert_string_equal(p, expect_path);
            if (n++ == 0) *first_after = g_now - start;
        }
    }
    g_now = start + seconds;
    return n;
}

static int setup(void **state)
{
    (void)state;
    g_now = 1000.0;
    snprintf(g_dir, sizeof g_dir, "/tmp/steer_watch_XXXXXX");
    assert_non_null(mkdtemp(g_dir));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Saves in place, by rename, a file beside it, and five saves in a row; `latest` is the most
 * virtual time a finished save may take to be reported (0: at the first call after it). */
static void check_saves(bool poll, double latest)
{
    char path[300], tmp[300], other[300];
    in_dir(path, sizeof path, "brain.lua");
    in_dir(tmp, sizeof tmp, ".brain.lua.swp");
    in_dir(other, sizeof other, "other.lua");
    write_file(path, "return {}\n");
    write_file(other, "return {}\n");
    Watcher *w = watcher_create(poll, 0);
    assert_non_null(w);
    assert_int_equal(watcher_is_polling(w), poll);
    assert_null(watcher_fallback_reason(w));
    watcher_add(w, path);
    watcher_add(w, path); /* twice: still one file */
    double first;
    assert_int_equal(changes_within(w, 0.3, NULL, &first), 0);

    /* write in place */
    write_file(path, "return { v = 2 }\n");
    assert_int_equal(changes_within(w, 0.5, path, &first), 1);
    assert_true(first <= latest);

    /* write a temporary file, rename it over the script */
    write_file(tmp, "return { v = 333 }\n");
    assert_int_equal(rename(tmp, path), 0);
    assert_int_equal(changes_within(w, 0.5, path, &first), 1);
    assert_true(first <= latest);

    /* an unwatched file in the same folder */
    write_file(other, "return { x = 1 }\n");
    assert_int_equal(changes_within(w, 0.5, NULL, &first), 0);

    /* five saves before the watcher looks: one change */
    for (int i = 0; i < 5; i++) {
        char text[64];
        snprintf(text, sizeof text, "return { v = %d }\n", 10 + i * 11111);
        write_file(path, text);
    }
    assert_int_equal(changes_within(w, 0.5, path, &first), 1);
    assert_true(first <= latest);
    watcher_destroy(w);
}

static void test_inotify_reports_in_place_and_rename_saves_at_once(void **state)
{
    (void)state;
    check_saves(false, 0.0);
}

static void test_polling_reports_in_place_and_rename_saves_a_poll_later(void **state)
{
    (void)state;
    /* seen at the first poll after the save, reported at the next one that sees it unchanged */
    check_saves(true, 2 * WATCH_POLL_S + 0.005);
}

/* An editor that writes the file in two chunks with a pause between them (however long), then
 * closes it: nothing is reported until the close, and then the whole text is there. */
static void test_inotify_never_reports_a_file_while_it_is_being_written(void **state)
{
    (void)state;
    char path[300];
    in_dir(path, sizeof path, "brain.lua");
    write_file(path, "return { v = 1 }\n");
    Watcher *w = watcher_create(false, 0);
    watcher_add(w, path);
    const char *first_half = "return { v = 2,\n", *second_half = "  w = 3 }\n";
    int fd = open(path, O_WRONLY | O_TRUNC);
    assert_true(fd >= 0);
    double first;
    assert_int_equal(changes_within(w, 5.0, NULL, &first), 0); /* truncated, still open */
    assert_int_equal(write(fd, first_half, strlen(first_half)), (ssize_t)strlen(first_half));
    assert_int_equal(changes_within(w, 5.0, NULL, &first), 0);
    assert_int_equal(write(fd, second_half, strlen(second_half)), (ssize_t)strlen(second_half));
    assert_int_equal(changes_within(w, 5.0, NULL, &first), 0);
    assert_int_equal(close(fd), 0);
    assert_string_equal(watcher_next(w, g_now), path);
    assert_string_equal(read_file(path), "return { v = 2,\n  w = 3 }\n");
    assert_null(watcher_next(w, g_now));
    watcher_destroy(w);
}

/* A save that deletes the file and writes a new one: reported once the new one is closed. */
static void test_inotify_reports_a_deleted_and_rewritten_file_once_closed(void **state)
{
    (void)state;
    char path[300];
    in_dir(path, sizeof path, "scene.lua");
    write_file(path, "x = 1\n");
    Watcher *w = watcher_create(false, 0);
    watcher_add(w, path);
    assert_int_equal(unlink(path), 0);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    double first;
    assert_int_equal(changes_within(w, 1.0, NULL, &first), 0);
    assert_int_equal(write(fd, "x = 2\n", 6), 6);
    assert_int_equal(changes_within(w, 1.0, NULL, &first), 0);
    assert_int_equal(close(fd), 0);
    assert_int_equal(changes_within(w, 0.5, path, &first), 1);
    assert_true(first == 0.0);
    watcher_destroy(w);
}

static void test_settle_reports_only_after_that_much_quiet(void **state)
{
    (void)state;
    char path[300];
    in_dir(path, sizeof path, "scene.lua");
    write_file(path, "x = 1\n");
    Watcher *w = watcher_create(false, 0.1);
    watcher_add(w, path);
    write_file(path, "x = 2\n");
    double first;
    assert_int_equal(changes_within(w, 0.06, NULL, &first), 0);
    write_file(path, "x = 3\n"); /* a second round 60 ms later: the wait starts again */
    assert_int_equal(changes_within(w, 0.095, NULL, &first), 0);
    assert_int_equal(changes_within(w, 0.1, path, &first), 1);
    assert_true(first < 0.011);
    watcher_destroy(w);
}

/* Polling compares more than size and mtime: a rename of a file of the same size and the same
 * mtime (written within one clock tick of the old one, or copied with its times) is a change. */
static void test_polling_sees_a_rename_that_keeps_size_and_mtime(void **state)
{
    (void)state;
    char path[300], tmp[300];
    in_dir(path, sizeof path, "brain.lua");
    in_dir(tmp, sizeof tmp, ".brain.lua.new");
    write_file(path, "return { v = 1 }\n");
    Watcher *w = watcher_create(true, 0);
    watcher_add(w, path);
    double first;
    assert_int_equal(changes_within(w, 0.1, NULL, &first), 0);
    write_file(tmp, "return { v = 2 }\n");
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    struct timespec times[2] = {st.st_atim, st.st_mtim};
    assert_int_equal(utimensat(AT_FDCWD, tmp, times, 0), 0);
    assert_int_equal(rename(tmp, path), 0);
    assert_int_equal(changes_within(w, 0.1, path, &first), 1);
    watcher_destroy(w);
}

/* inotify cannot watch a folder that does not exist yet: that file is polled instead, and its
 * first save is seen. */
static void test_a_file_whose_folder_cannot_be_watched_is_polled(void **state)
{
    (void)state;
    char sub[300], path[300];
    in_dir(sub, sizeof sub, "later");
    in_dir(path, sizeof path, "later/brain.lua");
    Watcher *w = watcher_create(false, 0);
    assert_false(watcher_is_polling(w));
    watcher_add(w, path);
    double first;
    assert_int_equal(changes_within(w, 0.1, NULL, &first), 0);
    assert_int_equal(mkdir(sub, 0755), 0);
    write_file(path, "return {}\n");
    assert_int_equal(changes_within(w, 0.1, path, &first), 1);
    watcher_destroy(w);
}

/* No file descriptor left for inotify (as when the user's inotify instances run out): the watcher
 * polls, says why, and still sees a save. In a child process, whose descriptor limit is lowered
 * to the descriptors it already has; the parent writes the file. */
static void test_without_inotify_the_watcher_polls_and_says_why(void **state)
{
    (void)state;
    char path[300];
    in_dir(path, sizeof path, "brain.lua");
    write_file(path, "return {}\n");
    int ready[2], saved[2];
    assert_int_equal(pipe(ready), 0);
    assert_int_equal(pipe(saved), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int lowest_free = dup(0);
        close(lowest_free);
        struct rlimit limit = {(rlim_t)lowest_free, (rlim_t)lowest_free};
        if (setrlimit(RLIMIT_NOFILE, &limit) != 0) _exit(10);
        Watcher *w = watcher_create(false, 0);
        if (!w || !watcher_is_polling(w)) _exit(11);
        const char *why = watcher_fallback_reason(w);
        if (!why || strcmp(why, "inotify_init1: Too many open files") != 0) _exit(12);
        watcher_add(w, path);
        if (watcher_next(w, g_now)) _exit(13);
        char byte = 0;
        if (write(ready[1], &byte, 1) != 1 || read(saved[0], &byte, 1) != 1) _exit(14);
        double first;
        if (changes_within(w, 0.1, path, &first) != 1) _exit(15);
        _exit(0);
    }
    char byte;
    assert_int_equal(read(ready[0], &byte, 1), 1);
    write_file(path, "return { v = 2 }\n");
    assert_int_equal(write(saved[1], &byte, 1), 1);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    for (int i = 0; i < 2; i++) {
        close(ready[i]);
        close(saved[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_inotify_reports_in_place_and_rename_saves_at_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_polling_reports_in_place_and_rename_saves_a_poll_later, setup, teardown),
        cmocka_unit_test_setup_teardown(test_inotify_never_reports_a_file_while_it_is_being_written, setup, teardown),
        cmocka_unit_test_setup_teardown(test_inotify_reports_a_deleted_and_rewritten_file_once_closed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_settle_reports_only_after_that_much_quiet, setup, teardown),
        cmocka_unit_test_setup_teardown(test_polling_sees_a_rename_that_keeps_size_and_mtime, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_file_whose_folder_cannot_be_watched_is_polled, setup, teardown),
        cmocka_unit_test_setup_teardown(test_without_inotify_the_watcher_polls_and_says_why, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
