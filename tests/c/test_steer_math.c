/* SPDX-License-Identifier: MIT */
/* test_steer_math.c - the vector helpers of the public steer_math.h at the edges of double: a
 * length past 1.3e154 (where the squares overflow) and a normalised vector of any finite size. */
#include "test_support.h"

#include <float.h>

#include "steer/steer_math.h"

static void test_length_is_exact_past_the_overflow_of_the_squares(void **state)
{
    (void)state;
    assert_true(steer_length(steer_vec2(3.0, 4.0)) == 5.0);
    assert_true(fabs(steer_length(steer_vec2(3e154, 4e154)) / 5e154 - 1.0) < 1e-15);
    assert_true(fabs(steer_length(steer_vec2(-3e300, 4e300)) / 5e300 - 1.0) < 1e-15);
    assert_true(steer_length(steer_vec2(DBL_MAX, 0.0)) == DBL_MAX);
    assert_true(steer_distance(steer_vec2(-1e200, 0.0), steer_vec2(1e200, 0.0)) == 2e200);
    /* only a length over DBL_MAX is inf */
    assert_true(isinf(steer_length(steer_vec2(DBL_MAX, DBL_MAX))));
}

static void test_normalize_gives_a_unit_vector_for_any_finite_input(void **state)
{
    (void)state;
    const SteerVec2 inputs[] = {steer_vec2(3e154, 4e154), steer_vec2(-3e300, 4e300), steer_vec2(DBL_MAX, DBL_MAX),
                                steer_vec2(-DBL_MAX, 0.0), steer_vec2(1e-5, 0.0)};
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
        SteerVec2 n = steer_normalize(inputs[i]);
        assert_true(steer_vec2_is_finite(n));
        assert_true(fabs(steer_length(n) - 1.0) < 1e-12);
        assert_true(n.x * inputs[i].x >= 0.0 && n.y * inputs[i].y >= 0.0); /* the same direction */
    }
    SteerVec2 d = steer_normalize(steer_vec2(DBL_MAX, DBL_MAX));
    assert_true(fabs(d.x - sqrt(0.5)) < 1e-15 && fabs(d.y - sqrt(0.5)) < 1e-15);
    SteerVec2 zero = steer_normalize(steer_vec2(0.0, 0.0));
    assert_true(zero.x == 0.0 && zero.y == 0.0);
}

/* Issue #29: safe for any finite input, the smallest included: denormal parts, whose squares
 * vanish, have their exact length; a vector too short to have a direction normalises to zero. */
static void test_length_and_normalize_of_denormals_and_tiny_parts(void **state)
{
    (void)state;
    assert_true(steer_length(steer_vec2(DBL_TRUE_MIN, 0.0)) == DBL_TRUE_MIN);
    assert_true(steer_length(steer_vec2(0.0, -DBL_TRUE_MIN)) == DBL_TRUE_MIN);
    assert_true(fabs(steer_length(steer_vec2(3e-170, 4e-170)) / 5e-170 - 1.0) < 1e-15);
    assert_true(fabs(steer_length(steer_vec2(3e-310, 4e-310)) / 5e-310 - 1.0) < 1e-9); /* denormals */
    assert_true(steer_length(steer_vec2(DBL_MIN, DBL_MIN)) > DBL_MIN);
    assert_true(steer_length(steer_vec2(0.0, 0.0)) == 0.0);
    const SteerVec2 tiny[] = {steer_vec2(DBL_TRUE_MIN, DBL_TRUE_MIN), steer_vec2(-3e-310, 4e-310),
                              steer_vec2(1e-200, 0.0), steer_vec2(DBL_MIN, -DBL_MIN)};
    for (size_t i = 0; i < sizeof tiny / sizeof *tiny; i++) {
        SteerVec2 n = steer_normalize(tiny[i]);
        assert_true(n.x == 0.0 && n.y == 0.0);
    }
    /* and a huge one next to a tiny one */
    SteerVec2 n = steer_normalize(steer_vec2(1e300, DBL_TRUE_MIN));
    assert_true(n.x == 1.0 && n.y >= 0.0 && n.y < 1e-300);
    /* steer_truncate of parts whose squares overflow: the direction at the length asked */
    SteerVec2 t = steer_truncate(steer_vec2(1e300, -1e300), 2.0);
    assert_true(fabs(t.x - sqrt(2.0)) < 1e-12 && fabs(t.y + sqrt(2.0)) < 1e-12);
    t = steer_truncate(steer_vec2(DBL_MAX, DBL_MAX), 1.0);
    assert_true(fabs(steer_length(t) - 1.0) < 1e-12);
    t = steer_truncate(steer_vec2(1e200, 0.0), 1e300); /* shorter than the limit: unchanged */
    assert_true(t.x == 1e200 && t.y == 0.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_length_is_exact_past_the_overflow_of_the_squares),
        cmocka_unit_test(test_normalize_gives_a_unit_vector_for_any_finite_input),
        cmocka_unit_test(test_length_and_normalize_of_denormals_and_tiny_parts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
