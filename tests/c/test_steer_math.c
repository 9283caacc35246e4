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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_length_is_exact_past_the_overflow_of_the_squares),
        cmocka_unit_test(test_normalize_gives_a_unit_vector_for_any_finite_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
