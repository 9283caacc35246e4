/* SPDX-License-Identifier: MIT */
/* steer_math.h - 2D vector helpers used by the core and available to its users.
 *
 * Every function here has a defined result for zero-length input: normalising a zero vector gives
 * the zero vector, never NaN. Units are whatever the caller's are (the world uses units, units/s).
 */
#ifndef STEER_MATH_H
#define STEER_MATH_H

#include <math.h>
#include <stdbool.h>

typedef struct SteerVec2 {
    double x, y;
} SteerVec2;

#define STEER_PI 3.14159265358979323846

/// A vector from its components. Every helper below builds its result through this rather than a
/// compound literal, which C++ lacks: the public headers compile as C++ too.
static inline SteerVec2 steer_vec2(double x, double y)
{
    SteerVec2 v = {x, y};
    return v;
}
static inline SteerVec2 steer_add(SteerVec2 a, SteerVec2 b) { return steer_vec2(a.x + b.x, a.y + b.y); }
static inline SteerVec2 steer_sub(SteerVec2 a, SteerVec2 b) { return steer_vec2(a.x - b.x, a.y - b.y); }
static inline SteerVec2 steer_scale(SteerVec2 a, double s) { return steer_vec2(a.x * s, a.y * s); }
static inline SteerVec2 steer_neg(SteerVec2 a) { return steer_vec2(-a.x, -a.y); }
static inline double steer_dot(SteerVec2 a, SteerVec2 b) { return a.x * b.x + a.y * b.y; }
/// z of the 3D cross product: positive when b is clockwise from a on screen (y points down).
static inline double steer_cross(SteerVec2 a, SteerVec2 b) { return a.x * b.y - a.y * b.x; }
static inline double steer_length_sq(SteerVec2 a) { return a.x * a.x + a.y * a.y; }
/// Exact for any finite a: past about 1.3e154 the squares overflow and below about 1e-154 they
/// lose bits (denormals) or vanish, and there hypot (slower, which is why it is not the common
/// path) gives the length; inf only when it is over DBL_MAX.
static inline double steer_length(SteerVec2 a)
{
    double len = sqrt(a.x * a.x + a.y * a.y);
    return isinf(len) || (len < 1e-150 && (a.x != 0.0 || a.y != 0.0)) ? hypot(a.x, a.y) : len;
}
static inline double steer_distance(SteerVec2 a, SteerVec2 b) { return steer_length(steer_sub(a, b)); }
static inline double steer_distance_sq(SteerVec2 a, SteerVec2 b) { return steer_length_sq(steer_sub(a, b)); }
/// Perpendicular (rotated +90 degrees): the "side" vector of a heading.
static inline SteerVec2 steer_perp(SteerVec2 a) { return steer_vec2(-a.y, a.x); }
static inline bool steer_vec2_is_finite(SteerVec2 a) { return isfinite(a.x) && isfinite(a.y); }

/// Unit vector in a's direction, or (0, 0) when a is (nearly) zero; a unit vector for any finite a.
static inline SteerVec2 steer_normalize(SteerVec2 a)
{
    double len = steer_length(a);
    if (len < 1e-12) return steer_vec2(0.0, 0.0);
    if (isinf(len)) { /* finite parts whose length is over DBL_MAX: scaled by a power of two, exactly */
        a = steer_vec2(ldexp(a.x, -600), ldexp(a.y, -600));
        len = steer_length(a);
    }
    return steer_vec2(a.x / len, a.y / len);
}

/// a shortened to at most max_length (direction kept).
static inline SteerVec2 steer_truncate(SteerVec2 a, double max_length)
{
    double len_sq = steer_length_sq(a);
    if (len_sq <= max_length * max_length) return a;
    if (isinf(len_sq)) return steer_scale(steer_normalize(a), max_length); /* (huge finite parts) */
    double len = sqrt(len_sq);
    return steer_scale(a, max_length / len);
}

/// Unit vector for an angle in radians (0 = +x, growing clockwise on screen since y points down).
static inline SteerVec2 steer_vec2_from_angle(double radians) { return steer_vec2(cos(radians), sin(radians)); }
static inline double steer_angle_of(SteerVec2 a) { return atan2(a.y, a.x); }

/// Rotates v by the rotation whose unit x axis is `axis` (local to world when axis is a heading).
static inline SteerVec2 steer_rotate(SteerVec2 v, SteerVec2 axis)
{
    return steer_vec2(v.x * axis.x - v.y * axis.y, v.x * axis.y + v.y * axis.x);
}

/// Inverse of steer_rotate: world direction to the local frame whose x axis is `axis`.
static inline SteerVec2 steer_unrotate(SteerVec2 v, SteerVec2 axis)
{
    return steer_vec2(v.x * axis.x + v.y * axis.y, -v.x * axis.y + v.y * axis.x);
}

#endif
