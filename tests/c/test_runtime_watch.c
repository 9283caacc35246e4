/* test_runtime_watch.c - the file watcher behind hot reload, on real files in a temporary folder:
 * write-in-place and write-then-rename saves are seen (inotify and polling), several quick saves
 * give one change, files nobody watches give none. */
#include "test_support.h"

#include <stdlib.h>
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

/* The watcher is told the time (watcher_next(w, now)) rather than reading a clock, so these tests
 * run it on a virtual clock: what it reports, and after how much (virtual) time, does not depend on
 * how busy the machine is. inotify queues an event when the write returns and polling reads the
 * file's mtime and size, so nothing here waits for real time to pass. */
static double g_now;

/* Runs the watcher for `seconds` of virtual time in 10 ms ticks: how many changes it reports and
 * how long after the start the first came. */
static int changes_within(Watcher *w, double seconds, const char *expect_path, double *first_after)
{
    double start = g_now;
    int n = 0;
    *first_after = -1;
    for (; g_now - start < seconds; g_now += 0.01) {
        const char *p;
        while ((p = watcher_next(w, g_now)) != NULL) {
            if (expect_path) assert_string_equal(p, expect_path);
            if (n++ == 0) *first_after = g_now - start;
        }
    }
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

static void check_saves(bool poll)
{
    char path[300], tmp[300], other[300];
    snprintf(path, sizeof path, "%s/brain.lua", g_dir);
    snprintf(tmp, sizeof tmp, "%s/.brain.lua.swp", g_dir);
    snprintf(other, sizeof other, "%s/other.lua", g_dir);
    write_file(path, "return {}\n");
    write_file(other, "return {}\n");
    Watcher *w = watcher_create(poll);
    assert_non_null(w);
    assert_int_equal(watcher_is_polling(w), poll);
    watcher_add(w, path);
    watcher_add(w, path); /* twice: still one file */
    double first;
    assert_int_equal(changes_within(w, 0.3, NULL, &first), 0);

    /* write in place */
    write_file(path, "return { v = 2 }\n");
    assert_int_equal(changes_within(w, 0.8, path, &first), 1);
    assert_true(first < 0.6);

    /* write a temporary file, rename it over the script */
    write_file(tmp, "return { v = 333 }\n");
    assert_int_equal(rename(tmp, path), 0);
    assert_int_equal(changes_within(w, 0.8, path, &first), 1);

    /* an unwatched file in the same folder */
    write_file(other, "return { x = 1 }\n");
    assert_int_equal(changes_within(w, 0.5, NULL, &first), 0);

    /* five saves 20 ms apart: one change once they settle */
    for (int i = 0; i < 5; i++) {
        char text[64];
        snprintf(text, sizeof text, "return { v = %d }\n", 10 + i * 11111);
        write_file(path, text);
        assert_int_equal(changes_within(w, 0.02, NULL, &first), 0);
    }
    assert_int_equal(changes_within(w, 0.8, path, &first), 1);
    watcher_destroy(w);
}

static void test_inotify_sees_in_place_and_rename_saves_once(void **state)
{
    (void)state;
    check_saves(false);
}

static void test_polling_sees_in_place_and_rename_saves_once(void **state)
{
    (void)state;
    check_saves(true);
}

static void test_inotify_waits_for_quiet_before_reporting(void **state)
{
    (void)state;
    char path[300];
    snprintf(path, sizeof path, "%s/scene.lua", g_dir);
    write_file(path, "x = 1\n");
    Watcher *w = watcher_create(false);
    watcher_add(w, path);
    write_file(path, "x = 2\n");
    /* seen at once, reported only once the debounce has passed without another event */
    double first;
    assert_int_equal(changes_within(w, WATCH_DEBOUNCE_S - 0.005, NULL, &first), 0);
    assert_int_equal(changes_within(w, 0.1, path, &first), 1);
    assert_true(first < 0.02);
    watcher_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_inotify_sees_in_place_and_rename_saves_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_polling_sees_in_place_and_rename_saves_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_inotify_waits_for_quiet_before_reporting, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
