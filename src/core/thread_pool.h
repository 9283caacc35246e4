/* SPDX-License-Identifier: MIT */
/* thread_pool.h - the worker threads a world steps with (private to the core).
 *
 * A pool of `threads` - 1 workers that live as long as their world; the thread that calls
 * steer_thread_pool_run is the first of the `threads`. A run has `threads` tasks, which the caller
 * and the workers claim one at a time as they get to them (an atomic counter): the caller starts at
 * once, and takes every task no worker has claimed yet, so a worker that the system has not
 * scheduled (its core busy with another program) costs the run nothing but its share of the
 * work. A run returns when every task is done. Idle workers sleep on a condition variable after
 * watching a little while for the next run: no thread is created or joined per step.
 *
 * Tasks split their work into fixed ranges (steer_task_range): what a task computes depends on
 * its range only, never on which thread ran it or when, so results are the same for any number
 * of threads as long as each range's work is itself independent of the split.
 */
#ifndef STEER_THREAD_POOL_H
#define STEER_THREAD_POOL_H

#include <stdbool.h>

#include "steer_alloc.h"

/// The most threads a world steps with (SteerWorldDef.threads is checked against it).
#define STEER_MAX_THREADS 64

typedef struct SteerThreadPool SteerThreadPool;

/// One task of a run: `task` in [0, task_count).
typedef void (*SteerTaskFn)(void *context, int task, int task_count);

/// Starts threads - 1 workers; NULL when threads < 2 (nothing to start) or when memory or a
/// thread could not be had (the world then steps on one thread: the result is the same).
SteerThreadPool *steer_thread_pool_create(const SteerAllocator *alloc, int threads);
/// A pool that starts no thread: each run goes to the job system of a SteerWorldDef (`enqueue`,
/// `finish`, given `user_context`) as one task of `threads` items, item t being task t. NULL when
/// threads < 2 or memory could not be had (the world then steps on one thread).
SteerThreadPool *steer_thread_pool_create_user(const SteerAllocator *alloc, int threads, SteerEnqueueTaskFn enqueue,
                                               SteerFinishTaskFn finish, void *user_context);
/// Wakes, stops and joins every worker, then frees the pool. NULL is fine.
void steer_thread_pool_destroy(SteerThreadPool *pool, const SteerAllocator *alloc);
/// How many threads a run uses (1 for a NULL pool).
int steer_thread_pool_size(const SteerThreadPool *pool);
/// How many threads the pool started (0 for a NULL or a user pool).
int steer_thread_pool_started(const SteerThreadPool *pool);
/// Runs fn(context, t, size) for every t in [0, size), each task once, on whichever thread claims
/// it - the calling thread first, which runs every task no worker has claimed (a user pool: every
/// task through the job system); returns when every task has returned. A NULL pool, or a call
/// from inside a task, runs every task in turn on the calling thread.
void steer_thread_pool_run(SteerThreadPool *pool, SteerTaskFn fn, void *context);

/// The share of [0, n) that task t of `tasks` takes: [*begin, *end), contiguous, in order.
static inline void steer_task_range(int n, int tasks, int t, int *begin, int *end)
{
    *begin = (int)((long long)n * t / tasks);
    *end = (int)((long long)n * (t + 1) / tasks);
}

#endif
