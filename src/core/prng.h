/* SPDX-License-Identifier: MIT */
/* prng.h - PCG32 (O'Neill's permuted congruential generator, XSH-RR output) and a small
 * deterministic gradient noise. The world owns one generator; nothing in the core calls rand().
 */
#ifndef STEER_PRNG_H
#define STEER_PRNG_H

#include <stdint.h>

typedef struct SteerPcg32 {
    uint64_t state;
    uint64_t increment; ///< always odd
} SteerPcg32;

void steer_pcg32_seed(SteerPcg32 *rng, uint64_t seed, uint64_t stream);

/* Inline: wander draws twice per vehicle per step. */
static inline uint32_t steer_pcg32_next(SteerPcg32 *rng)
{
    uint64_t old = rng->state;
    rng->state = old * 6364136223846793005ULL + rng->increment;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rotation = (uint32_t)(old >> 59u);
    return (xorshifted >> rotation) | (xorshifted << ((-rotation) & 31u));
}

/// Moves the generator `delta` numbers ahead in O(log delta) steps, as if that many were drawn.
void steer_pcg32_advance(SteerPcg32 *rng, uint64_t delta);

/// Uniform in [0, 1) with 32 bits of resolution.
static inline double steer_pcg32_unit(SteerPcg32 *rng) { return steer_pcg32_next(rng) * (1.0 / 4294967296.0); }

/// Uniform in [-1, 1).
static inline double steer_pcg32_signed(SteerPcg32 *rng) { return 2.0 * steer_pcg32_unit(rng) - 1.0; }

/// 1D gradient noise in [-1, 1], smooth (C2) in x, a pure function of (seed, x).
double steer_noise1(uint64_t seed, double x);

#endif
