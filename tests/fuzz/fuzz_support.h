/* SPDX-License-Identifier: MIT */
/* fuzz_support.h - reading a fuzzer's bytes as a sequence of choices and hostile numbers, shared
 * by the harnesses (tests/fuzz/fuzz_*.c) and tests/c/test_limits.c. Past the end of the input
 * every read gives 0, so any byte string is a complete program. */
#ifndef STEER_FUZZ_SUPPORT_H
#define STEER_FUZZ_SUPPORT_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "steer/steer.h"

typedef struct FuzzBytes {
    const uint8_t *data;
    size_t size, at;
} FuzzBytes;

static inline bool fuzz_done(const FuzzBytes *in) { return in->at >= in->size; }

static inline uint8_t fuzz_u8(FuzzBytes *in) { return in->at < in->size ? in->data[in->at++] : 0; }

/// A small signed number, -128..127: positions and speeds near the usual ones.
static inline double fuzz_small(FuzzBytes *in) { return (double)(int8_t)fuzz_u8(in); }

/// The numbers that break things: zeros of both signs, denormals, each limit and the next double
/// past it, huge, NaN and infinities, plus small integers and raw bit patterns.
static inline double fuzz_hostile(FuzzBytes *in)
{
    static const double TABLE[] = {
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        100.0,
        -100.0,
        1e-300,
        4.9406564584124654e-324,
        -4.9406564584124654e-324,
        DBL_MIN,
        STEER_MIN_POSITIVE,
        9.9999999999999984e-07 /* just below the minimum */,
        STEER_MAX_COORDINATE,
        -STEER_MAX_COORDINATE,
        1000000000.0000001,
        -1000000000.0000001,
        STEER_MAX_SPEED,
        1000000.0000000001,
        STEER_MAX_FORCE,
        1000000000000.0001,
        STEER_MAX_TIME,
        2.0 * STEER_PI,
        6.2831853071795874 /* just past 2π */,
        STEER_PI,
        1e15,
        1e300,
        -1e300,
        1e308,
        -1e308,
        DBL_MAX,
        -DBL_MAX,
        INFINITY,
        -INFINITY,
        NAN,
        1e-9,
        1e-12,
        1.0 / 60.0,
    };
    enum { N = sizeof TABLE / sizeof TABLE[0] };
    uint8_t b = fuzz_u8(in);
    if (b < 3 * N) return TABLE[b % N];
    if (b < 240) return fuzz_small(in) * (b & 1 ? 1.0 : 10.0);
    uint64_t raw = 0;
    for (int i = 0; i < 8; i++) raw = raw << 8 | fuzz_u8(in);
    double x;
    memcpy(&x, &raw, sizeof x);
    return x;
}

#endif
