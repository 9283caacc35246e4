/* SPDX-License-Identifier: MIT */
/* prefetch.h - asking for a cache line before it is written (private to the core).
 *
 * The step writes some arrays at scattered places: the grid build places each vehicle's record in
 * cell order, the pre-pass stores each neighbourhood by creation order. Each line is asked for a
 * few vehicles ahead. A plain prefetch may bring a line in shared with another core - the one that
 * read it last, in another phase - and the store must then ask again, for the line to itself,
 * while every store behind it waits. PREFETCHW asks for it owned from the start. Processors
 * without it (Intel's before 2014) get the plain prefetch; the result is the same either way.
 */
#ifndef STEER_PREFETCH_H
#define STEER_PREFETCH_H

#include <stdbool.h>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <cpuid.h>
#endif

/// Whether this processor has PREFETCHW (asked once per world, when it is created).
static inline bool steer_cpu_has_prefetchw(void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    unsigned a, b, c, d;
    return __get_cpuid(0x80000001u, &a, &b, &c, &d) && ((c >> 8) & 1u); /* ECX bit 8: PRFCHW */
#else
    return false;
#endif
}

/// Asks for the line holding `p`, to write it; `owned`: as steer_cpu_has_prefetchw() said.
static inline void steer_prefetch_write(const void *p, bool owned)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    if (owned)
        __asm__ volatile("prefetchw %0" ::"m"(*(const char *)p));
    else
        __builtin_prefetch(p, 1);
#elif defined(__GNUC__)
    (void)owned;
    __builtin_prefetch(p, 1);
#else
    (void)p, (void)owned;
#endif
}

#endif
