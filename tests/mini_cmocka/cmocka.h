/* SPDX-License-Identifier: MIT */
/* cmocka.h - the part of cmocka's API that the core's C tests use, for platforms where no cmocka
 * is packaged (Debian has none for MinGW-w64): CMake's -DSTEER_MINI_CMOCKA=ON puts this folder
 * first on the tests' include path. Each test runs in turn; a failed assertion prints where and
 * why and jumps back to the runner (longjmp), as cmocka does, and the run ends with cmocka's
 * summary lines ("[==========] N test(s) run.", "[  PASSED  ] N test(s).", "[  FAILED  ] ...")
 * and a non-zero status when a test failed. Unlike cmocka it catches no signal: a crash ends the
 * process, which its exit status reports. tests/cmake/mini_cmocka_check.c shows it failing.
 *
 * Header-only: every test file is one translation unit that includes it once. */
#ifndef STEER_MINI_CMOCKA_H
#define STEER_MINI_CMOCKA_H

#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef uintmax_t LargestIntegralType;
typedef void (*CMUnitTestFunction)(void **state);
typedef int (*CMFixtureFunction)(void **state);

struct CMUnitTest {
    const char *name;
    CMUnitTestFunction test_func;
    CMFixtureFunction setup_func;
    CMFixtureFunction teardown_func;
    void *initial_state;
};

#define cmocka_unit_test(f)                                                                                            \
    {                                                                                                                  \
#f, f, NULL, NULL, NULL                                                                                        \
    }
#define cmocka_unit_test_setup_teardown(f, setup, teardown)                                                            \
    {                                                                                                                  \
#f, f, setup, teardown, NULL                                                                                   \
    }

/// Where a failed assertion returns to; one test runs at a time.
static jmp_buf mini_cmocka_jump;

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4), noreturn))
#endif
static void
mini_cmocka_fail(const char *file, int line, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    printf("[   LINE   ] --- %s:%d: error: ", file, line);
    vprintf(format, args);
    printf("\n");
    va_end(args);
    longjmp(mini_cmocka_jump, 1);
}

#define fail_msg(...) mini_cmocka_fail(__FILE__, __LINE__, __VA_ARGS__)
#define fail() fail_msg("Failure!")
/// Test output that is no failure (cmocka prints it on stdout too).
#define print_message(...) printf(__VA_ARGS__)

#define assert_true(c)                                                                                                 \
    do {                                                                                                               \
        if (!(c)) fail_msg("%s", #c);                                                                                  \
    } while (0)
#define assert_false(c)                                                                                                \
    do {                                                                                                               \
        if (c) fail_msg("%s", #c);                                                                                     \
    } while (0)
#define assert_non_null(p)                                                                                             \
    do {                                                                                                               \
        if ((const void *)(p) == NULL) fail_msg("%s is NULL", #p);                                                     \
    } while (0)
#define assert_null(p)                                                                                                 \
    do {                                                                                                               \
        if ((const void *)(p) != NULL) fail_msg("%s is not NULL", #p);                                                 \
    } while (0)
#define assert_ptr_equal(a, b)                                                                                         \
    do {                                                                                                               \
        const void *a_ = (const void *)(a), *b_ = (const void *)(b);                                                   \
        if (a_ != b_) fail_msg("%p != %p", a_, b_);                                                                    \
    } while (0)
/* cmocka casts both sides to its largest integral type and compares the bits. */
#define assert_int_equal(a, b)                                                                                         \
    do {                                                                                                               \
        LargestIntegralType a_ = (LargestIntegralType)(a), b_ = (LargestIntegralType)(b);                              \
        if (a_ != b_) fail_msg("%" PRIdMAX " != %" PRIdMAX, (intmax_t)a_, (intmax_t)b_);                               \
    } while (0)
#define assert_int_not_equal(a, b)                                                                                     \
    do {                                                                                                               \
        LargestIntegralType a_ = (LargestIntegralType)(a), b_ = (LargestIntegralType)(b);                              \
        if (a_ == b_) fail_msg("%" PRIdMAX " == %" PRIdMAX, (intmax_t)a_, (intmax_t)b_);                               \
    } while (0)
#define assert_float_equal(a, b, epsilon)                                                                              \
    do {                                                                                                               \
        double a_ = (double)(a), b_ = (double)(b);                                                                     \
        if (!(fabs(a_ - b_) <= (double)(epsilon))) fail_msg("%f != %f", a_, b_);                                       \
    } while (0)
#define assert_string_equal(a, b)                                                                                      \
    do {                                                                                                               \
        const char *a_ = (a), *b_ = (b);                                                                               \
        if (strcmp(a_, b_) != 0) fail_msg("\"%s\" != \"%s\"", a_, b_);                                                 \
    } while (0)
#define assert_memory_equal(a, b, size)                                                                                \
    do {                                                                                                               \
        if (memcmp((a), (b), (size)) != 0) fail_msg("%s and %s differ", #a, #b);                                       \
    } while (0)
#define assert_memory_not_equal(a, b, size)                                                                            \
    do {                                                                                                               \
        if (memcmp((a), (b), (size)) == 0) fail_msg("%s and %s are equal", #a, #b);                                    \
    } while (0)

/// Runs one test with its fixtures: 1 when it passed, 0 when an assertion jumped back here.
static int mini_cmocka_run_one(const struct CMUnitTest *test)
{
    /* volatile: set before the setjmp and read after a longjmp back into this frame */
    void *volatile state = test->initial_state;
    if (setjmp(mini_cmocka_jump) != 0) return 0;
    if (test->setup_func && test->setup_func((void **)&state) != 0) fail_msg("setup of %s failed", test->name);
    test->test_func((void **)&state);
    if (test->teardown_func && test->teardown_func((void **)&state) != 0) fail_msg("teardown of %s failed", test->name);
    return 1;
}

/// Runs the tests in turn and prints cmocka's lines; returns the number that failed.
static int mini_cmocka_run(const char *group, const struct CMUnitTest *tests, size_t count)
{
    size_t failed = 0;
    printf("[==========] Running %u test(s).\n", (unsigned)count);
    for (size_t i = 0; i < count; i++) {
        printf("[ RUN      ] %s\n", tests[i].name);
        fflush(stdout);
        if (mini_cmocka_run_one(&tests[i])) {
            printf("[       OK ] %s\n", tests[i].name);
        } else {
            printf("[  FAILED  ] %s\n", tests[i].name);
            failed++;
        }
        fflush(stdout);
    }
    printf("[==========] %u test(s) run.\n", (unsigned)count);
    printf("[  PASSED  ] %u test(s).\n", (unsigned)(count - failed));
    if (failed) printf("[  FAILED  ] %u test(s) in %s\n", (unsigned)failed, group);
    fflush(stdout);
    return (int)failed;
}

#define cmocka_run_group_tests(tests, setup, teardown)                                                                 \
    mini_cmocka_run(#tests, (tests), sizeof(tests) / sizeof((tests)[0]))

#endif
