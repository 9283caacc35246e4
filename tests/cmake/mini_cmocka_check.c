/* SPDX-License-Identifier: MIT */
/* mini_cmocka_check.c - tests/mini_cmocka/cmocka.h must fail as cmocka does: this program has one
 * passing test and two failing ones, and tests/cmake/cmake_suite.sh checks that the run reports
 * exactly that (the summary lines, the failed tests' names, the assertion's file:line and values)
 * and exits non-zero, so the Windows runs of the core's tests could not pass by accident. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

static void test_that_passes(void **state)
{
    (void)state;
    assert_int_equal(2 + 2, 4);
    assert_string_equal("steer", "steer");
    assert_float_equal(0.5, 0.25 + 0.25, 0.0);
}

static void test_whose_integers_differ(void **state)
{
    (void)state;
    assert_int_equal(7, 8);
    fail_msg("not reached");
}

static void test_whose_strings_differ(void **state)
{
    (void)state;
    assert_string_equal("wander", "wonder");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_that_passes),
        cmocka_unit_test(test_whose_integers_differ),
        cmocka_unit_test(test_whose_strings_differ),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
