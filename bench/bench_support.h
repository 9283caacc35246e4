/* SPDX-License-Identifier: MIT */
/* bench_support.h - the clocks, the median and the memory figure every benchmark reports with. */
#ifndef STEER_BENCH_SUPPORT_H
#define STEER_BENCH_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/// Seconds of CPU time this process has used: what a single-threaded step costs, whatever else
/// the (shared) machine runs.
static inline double bench_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/// Seconds on a monotonic wall clock.
static inline double bench_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int bench_compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/// The median of count samples (sorts them in place).
static inline double bench_median(double *samples, int count)
{
    qsort(samples, (size_t)count, sizeof *samples, bench_compare_doubles);
    return samples[count / 2];
}

/// The process's resident set in KiB (0 when /proc cannot tell).
static inline long bench_rss_kb(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f && fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    if (f) fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

#endif
