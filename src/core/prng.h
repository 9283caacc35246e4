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
uint32_t steer_pcg32_next(SteerPcg32 *rng);
/// Uniform in [0, 1) with 32 bits of resolution.
double steer_pcg32_unit(SteerPcg32 *rng);
/// Uniform in [-1, 1).
double steer_pcg32_signed(SteerPcg32 *rng);

/// 1D gradient noise in [-1, 1], smooth (C2) in x, a pure function of (seed, x).
double steer_noise1(uint64_t seed, double x);

#endif
