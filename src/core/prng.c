/* SPDX-License-Identifier: MIT */
/* prng.c - PCG32 and gradient noise; see prng.h. */
#include "prng.h"

#include <math.h>

void steer_pcg32_seed(SteerPcg32 *rng, uint64_t seed, uint64_t stream)
{
    rng->state = 0;
    rng->increment = (stream << 1u) | 1u;
    steer_pcg32_next(rng);
    rng->state += seed;
    steer_pcg32_next(rng);
}

void steer_pcg32_advance(SteerPcg32 *rng, uint64_t delta)
{
    /* Drawing is state' = a·state + c. Composing that step with itself gives another affine map,
     * so `delta` steps are the product of the maps for the set bits of delta: square the one-step
     * map (a, c) -> (a², (a + 1)·c) for each bit and fold it into the total where the bit is set. */
    uint64_t a = 6364136223846793005ULL, c = rng->increment;
    uint64_t total_a = 1, total_c = 0;
    while (delta > 0) {
        if (delta & 1u) {
            total_a *= a;
            total_c = total_c * a + c;
        }
        c = (a + 1) * c;
        a *= a;
        delta >>= 1;
    }
    rng->state = total_a * rng->state + total_c;
}

/* SplitMix64's finaliser: a well-mixed hash of a lattice point, so each integer gets an
 * independent pseudo-random gradient without any table. */
static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static double lattice_gradient(uint64_t seed, int64_t i)
{
    uint64_t h = mix64(seed ^ mix64((uint64_t)i));
    return (double)(h >> 11) * (2.0 / 9007199254740992.0) - 1.0; /* [-1, 1) */
}

double steer_noise1(uint64_t seed, double x)
{
    double floor_x = floor(x);
    int64_t i = (int64_t)floor_x;
    double t = x - floor_x;
    double g0 = lattice_gradient(seed, i);
    double g1 = lattice_gradient(seed, i + 1);
    double v0 = g0 * t;
    double v1 = g1 * (t - 1.0);
    double fade = t * t * t * (t * (t * 6.0 - 15.0) + 10.0); /* Perlin's quintic: C2 at the knots */
    /* The 1D gradient noise peaks at |g|/2 = 0.5; doubling maps it onto [-1, 1]. */
    return 2.0 * (v0 + fade * (v1 - v0));
}
