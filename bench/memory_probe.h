/* SPDX-License-Identifier: MIT */
/* memory_probe.h - how much faster two threads stream through memory than one, on this machine.
 *
 * A step of a large flock moves a lot of memory, so its 2-thread speedup is read beside how the
 * machine's memory bus shares out between two threads (on the 2-core development machine about
 * 1.75x; the flock, whose cores mostly wait on the latency of their own misses, reaches 1.9-2.0x).
 * The probe measures that with the simplest loop that streams like the step does: read one array,
 * write another, both far larger than any cache (b[i] = k·a[i]; 8 bytes read and 8 written per
 * element, plus the line the write brings in first). One thread walks the whole arrays; two
 * threads walk a half each. The repetitions alternate, on the wall clock, and the medians are
 * compared.
 */
#ifndef STEER_BENCH_MEMORY_PROBE_H
#define STEER_BENCH_MEMORY_PROBE_H

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_support.h"

#define PROBE_ELEMENTS (64L * 1024 * 1024) /* 512 MiB per array */
#define PROBE_REPETITIONS 7

typedef struct ProbeSpan {
    const double *a;
    double *b;
    long begin, end;
} ProbeSpan;

static void *probe_stream(void *arg)
{
    const ProbeSpan *s = arg;
    for (long i = s->begin; i < s->end; i++) s->b[i] = 1.000001 * s->a[i];
    return NULL;
}

/// One pass over both arrays split between `threads` threads (1 or 2); its bandwidth in GB/s.
static double probe_pass(const double *a, double *b, int threads)
{
    ProbeSpan spans[2];
    pthread_t other;
    for (int t = 0; t < threads; t++)
        spans[t] = (ProbeSpan){a, b, PROBE_ELEMENTS * t / threads, PROBE_ELEMENTS * (t + 1) / threads};
    double start = bench_wall_seconds();
    if (threads == 2 && pthread_create(&other, NULL, probe_stream, &spans[1]) != 0) return 0.0;
    probe_stream(&spans[0]);
    if (threads == 2) pthread_join(other, NULL);
    double seconds = bench_wall_seconds() - start;
    return 16.0 * PROBE_ELEMENTS / seconds * 1e-9;
}

/// Prints the machine's streaming bandwidth on 1 and 2 threads and returns their ratio (2 / 1);
/// 0 when the arrays cannot be had.
static double memory_probe(void)
{
    double *a = malloc(PROBE_ELEMENTS * sizeof *a), *b = malloc(PROBE_ELEMENTS * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        printf("memory: no room for the probe's arrays\n");
        return 0.0;
    }
    for (long i = 0; i < PROBE_ELEMENTS; i++) a[i] = b[i] = (double)(i & 1023); /* touch every page first */
    double one[PROBE_REPETITIONS], two[PROBE_REPETITIONS];
    for (int r = 0; r < PROBE_REPETITIONS; r++) {
        one[r] = probe_pass(a, b, 1);
        two[r] = probe_pass(a, b, 2);
    }
    double m1 = bench_median(one, PROBE_REPETITIONS), m2 = bench_median(two, PROBE_REPETITIONS);
    printf("memory: streaming read+write over 2 x 512 MiB, 1 thread %.1f GB/s, 2 threads %.1f GB/s: the machine's "
           "memory scaling %.2fx (medians of %d alternating; 1: %.1f..%.1f, 2: %.1f..%.1f)\n",
           m1, m2, m2 / m1, PROBE_REPETITIONS, one[0], one[PROBE_REPETITIONS - 1], two[0], two[PROBE_REPETITIONS - 1]);
    fflush(stdout);
    free(a);
    free(b);
    return m2 / m1;
}

#endif
