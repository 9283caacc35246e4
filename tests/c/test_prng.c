/* SPDX-License-Identifier: MIT */
/* test_prng.c - the world's generator and the leash's noise (white box: private prng.h). */
#include "test_support.h"

#include "prng.h"

static void test_same_seed_same_sequence_other_seed_other_sequence(void **state)
{
    (void)state;
    SteerPcg32 a, b, c;
    steer_pcg32_seed(&a, 42, 1);
    steer_pcg32_seed(&b, 42, 1);
    steer_pcg32_seed(&c, 43, 1);
    int differences = 0;
    for (int i = 0; i < 1000; i++) {
        uint32_t x = steer_pcg32_next(&a);
        assert_int_equal(x, steer_pcg32_next(&b));
        if (x != steer_pcg32_next(&c)) differences++;
    }
    assert_true(differences > 990);
}

/* Unit draws stay in [0, 1), fill it evenly (ten buckets within 5 % of their share), and their
 * mean is one half. */
static void test_unit_draws_are_uniform_in_the_half_open_interval(void **state)
{
    (void)state;
    SteerPcg32 rng;
    steer_pcg32_seed(&rng, 7, 3);
    enum { DRAWS = 100000 };
    int buckets[10] = {0};
    double sum = 0.0;
    for (int i = 0; i < DRAWS; i++) {
        double u = steer_pcg32_unit(&rng);
        assert_true(u >= 0.0 && u < 1.0);
        buckets[(int)(u * 10.0)]++;
        sum += u;
        double s = steer_pcg32_signed(&rng);
        assert_true(s >= -1.0 && s < 1.0);
    }
    for (int k = 0; k < 10; k++) assert_near(buckets[k], DRAWS / 10.0, DRAWS / 10.0 * 0.05);
    assert_near(sum / DRAWS, 0.5, 0.01);
}

/* The noise is a pure function, bounded, continuous (small steps in x give small changes) and not
 * constant; different seeds give different curves. */
static void test_noise_is_bounded_smooth_and_seeded(void **state)
{
    (void)state;
    double previous = steer_noise1(5, 0.0);
    double lowest = previous, highest = previous;
    int differs = 0;
    for (int i = 1; i <= 20000; i++) {
        double x = i * 0.001;
        double n = steer_noise1(5, x);
        assert_true(n >= -1.0 && n <= 1.0);
        assert_true(fabs(n - previous) < 0.01); /* slope bounded: no jumps at lattice points */
        assert_true(n == steer_noise1(5, x));
        if (fabs(n - steer_noise1(6, x)) > 1e-6) differs++;
        if (n < lowest) lowest = n;
        if (n > highest) highest = n;
        previous = n;
    }
    assert_true(highest - lowest > 0.5);
    assert_true(differs > 15000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_seed_same_sequence_other_seed_other_sequence),
        cmocka_unit_test(test_unit_draws_are_uniform_in_the_half_open_interval),
        cmocka_unit_test(test_noise_is_bounded_smooth_and_seeded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
