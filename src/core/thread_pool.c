/* SPDX-License-Identifier: MIT */
/* thread_pool.c - the worker threads a world steps with; see thread_pool.h.
 *
 * A step is several runs in a row (grid passes, neighbourhoods, forces) with a little serial work
 * between them, and on a virtual machine waking a sleeping thread takes tens of microseconds - as
 * long as a whole run of a mid-sized world. So after a run a worker watches for the next one, and
 * the caller for the last task's end, for at most STEER_POOL_WATCH_NS before sleeping on a
 * condition variable; between steps (scripts, drawing) every worker sleeps.
 *
 * Tasks are claimed, not handed out: a run's tasks are numbered, and whoever is free - the caller
 * first, then each worker as it wakes - takes the next number with one atomic operation. A worker
 * that the system has not scheduled yet (its core busy with another program) claims nothing, and
 * the caller runs its tasks itself instead of waiting for it: with the other core taken, a run
 * costs what it costs on one thread, never the wait for a descheduled worker. Which thread runs a
 * task changes nothing in what it computes (thread_pool.h), so the bits stay the same.
 *
 * The claim word holds the run's sequence number beside the next task number, so that a worker
 * that wakes for a run already over cannot take a task of the next one with the old function.
 */
#include "thread_pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

/// How long a thread watches for the next event before it sleeps (nanoseconds).
#define STEER_POOL_WATCH_NS 50000

struct SteerThreadPool;

typedef struct Worker {
    struct SteerThreadPool *pool;
    pthread_t thread;
} Worker;

struct SteerThreadPool {
    pthread_mutex_t lock;
    pthread_cond_t wake; ///< workers wait here for the next run (or for stop)
    pthread_cond_t done; ///< the caller waits here for the last task of a run
    atomic_ulong run_id; ///< bumped (under the lock) by each run: a worker looks once per new value
    atomic_ullong claim; ///< the run's sequence number (high 32 bits) and its next unclaimed task
    atomic_int finished; ///< tasks of the current run that have returned
    bool sleeping;       ///< the caller sleeps on `done` (under the lock)
    bool stop;
    bool running; ///< a run is under way (a task that runs the pool runs it inline)
    SteerTaskFn fn;
    void *context;
    /* A user pool (steer_thread_pool_create_user) has these, and no lock, condition or worker. */
    SteerEnqueueTaskFn enqueue;
    SteerFinishTaskFn finish;
    void *user_context;
    int size;         ///< threads, the caller included, and tasks per run
    int started;      ///< workers actually started
    Worker workers[]; ///< size - 1 of them
};

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/// Watches for a run after `seen` for up to STEER_POOL_WATCH_NS (the next phase of a step
/// usually follows within microseconds); the caller then takes the lock either way.
static void watch_for_run(SteerThreadPool *pool, unsigned long seen)
{
    long long deadline = now_ns() + STEER_POOL_WATCH_NS;
    for (int i = 1; atomic_load_explicit(&pool->run_id, memory_order_relaxed) == seen; i++) {
        if ((i & 63) == 0 && now_ns() > deadline) return;
        cpu_relax();
    }
}

/// Claims the next task of run `seq`: its number, or -1 when every task of it is taken or the run
/// is over (the word has moved on to a later run).
static int claim_task(SteerThreadPool *pool, uint32_t seq)
{
    unsigned long long word = atomic_load_explicit(&pool->claim, memory_order_acquire);
    for (;;) {
        if ((uint32_t)(word >> 32) != seq) return -1;
        int task = (int)(uint32_t)word;
        if (task >= pool->size) return -1;
        if (atomic_compare_exchange_weak_explicit(&pool->claim, &word, word + 1, memory_order_acq_rel,
                                                  memory_order_acquire))
            return task;
    }
}

/// Runs every task of run `seq` it can claim; returns with the run's last task counted.
static void run_claimed(SteerThreadPool *pool, uint32_t seq, SteerTaskFn fn, void *context)
{
    for (int task; (task = claim_task(pool, seq)) >= 0;) {
        fn(context, task, pool->size);
        if (atomic_fetch_add_explicit(&pool->finished, 1, memory_order_acq_rel) + 1 == pool->size) {
            /* the last one: wake the caller if it went to sleep */
            pthread_mutex_lock(&pool->lock);
            if (pool->sleeping) pthread_cond_signal(&pool->done);
            pthread_mutex_unlock(&pool->lock);
        }
    }
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    SteerThreadPool *pool = w->pool;
    unsigned long seen = 0;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->stop && atomic_load_explicit(&pool->run_id, memory_order_relaxed) == seen)
            pthread_cond_wait(&pool->wake, &pool->lock);
        if (pool->stop) break;
        seen = atomic_load_explicit(&pool->run_id, memory_order_relaxed);
        SteerTaskFn fn = pool->fn;
        void *context = pool->context;
        pthread_mutex_unlock(&pool->lock);
        run_claimed(pool, (uint32_t)seen, fn, context);
        watch_for_run(pool, seen);
        pthread_mutex_lock(&pool->lock);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

static size_t pool_bytes(int threads) { return sizeof(SteerThreadPool) + (size_t)(threads - 1) * sizeof(Worker); }

SteerThreadPool *steer_thread_pool_create(const SteerAllocator *alloc, int threads)
{
    if (threads < 2) return NULL;
    if (threads > STEER_MAX_THREADS) threads = STEER_MAX_THREADS;
    SteerThreadPool *pool = steer_realloc(alloc, NULL, 0, pool_bytes(threads));
    if (!pool) return NULL;
    memset(pool, 0, pool_bytes(threads));
    pool->size = threads;
    atomic_init(&pool->run_id, 0);
    atomic_init(&pool->claim, 0);
    atomic_init(&pool->finished, 0);
    if (pthread_mutex_init(&pool->lock, NULL) != 0) goto no_lock;
    if (pthread_cond_init(&pool->wake, NULL) != 0) goto no_wake;
    if (pthread_cond_init(&pool->done, NULL) != 0) goto no_done;
    for (int i = 0; i < threads - 1; i++) {
        Worker *w = &pool->workers[i];
        w->pool = pool;
        if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
            /* Fewer threads than asked: stop those started and step on one thread instead. */
            steer_thread_pool_destroy(pool, alloc);
            return NULL;
        }
        pool->started++;
    }
    return pool;
no_done:
    pthread_cond_destroy(&pool->wake);
no_wake:
    pthread_mutex_destroy(&pool->lock);
no_lock:
    steer_free(alloc, pool, pool_bytes(threads));
    return NULL;
}

SteerThreadPool *steer_thread_pool_create_user(const SteerAllocator *alloc, int threads, SteerEnqueueTaskFn enqueue,
                                               SteerFinishTaskFn finish, void *user_context)
{
    if (threads < 2) return NULL;
    if (threads > STEER_MAX_THREADS) threads = STEER_MAX_THREADS;
    SteerThreadPool *pool = steer_realloc(alloc, NULL, 0, pool_bytes(1));
    if (!pool) return NULL;
    memset(pool, 0, pool_bytes(1));
    pool->size = threads;
    pool->enqueue = enqueue;
    pool->finish = finish;
    pool->user_context = user_context;
    return pool;
}

/// A range of a user pool's run: items are task numbers.
static void user_range(int start, int end, uint32_t worker_index, void *task_context)
{
    (void)worker_index;
    const SteerThreadPool *pool = task_context;
    for (int t = start; t < end; t++) pool->fn(pool->context, t, pool->size);
}

void steer_thread_pool_destroy(SteerThreadPool *pool, const SteerAllocator *alloc)
{
    if (!pool) return;
    if (pool->enqueue) {
        steer_free(alloc, pool, pool_bytes(1));
        return;
    }
    pthread_mutex_lock(&pool->lock);
    pool->stop = true;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (int i = 0; i < pool->started; i++) pthread_join(pool->workers[i].thread, NULL);
    pthread_cond_destroy(&pool->done);
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->lock);
    steer_free(alloc, pool, pool_bytes(pool->size));
}

int steer_thread_pool_size(const SteerThreadPool *pool) { return pool ? pool->size : 1; }

int steer_thread_pool_started(const SteerThreadPool *pool) { return pool ? pool->started : 0; }

void steer_thread_pool_run(SteerThreadPool *pool, SteerTaskFn fn, void *context)
{
    /* A task that runs the pool again (the calling thread's task 0 reaching a phase that could run
     * in parallel) runs that nested run inline: `running` was set under the lock before any task
     * started, so every task sees it. */
    if (!pool || pool->running) {
        int size = steer_thread_pool_size(pool);
        for (int t = 0; t < size; t++) fn(context, t, size);
        return;
    }
    if (pool->enqueue) {
        /* The job system publishes the task to its threads and finish_task waits for them, so
         * `running` and fn need no lock: they are written only outside a run. */
        pool->running = true;
        pool->fn = fn;
        pool->context = context;
        void *task = pool->enqueue(user_range, pool->size, 1, pool, pool->user_context);
        if (task) pool->finish(task, pool->user_context);
        pool->running = false;
        return;
    }
    pthread_mutex_lock(&pool->lock);
    pool->running = true;
    pool->fn = fn;
    pool->context = context;
    unsigned long seq = atomic_load_explicit(&pool->run_id, memory_order_relaxed) + 1;
    atomic_store_explicit(&pool->finished, 0, memory_order_relaxed);
    atomic_store_explicit(&pool->claim, (unsigned long long)(uint32_t)seq << 32, memory_order_release);
    atomic_store_explicit(&pool->run_id, seq, memory_order_release);
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    /* The caller claims like a worker: every task no worker has taken yet, in order. */
    run_claimed(pool, (uint32_t)seq, fn, context);
    /* Then waits for the tasks the workers took (none if they were late): watching for a while,
     * then asleep. */
    long long deadline = now_ns() + STEER_POOL_WATCH_NS;
    for (int i = 1; atomic_load_explicit(&pool->finished, memory_order_acquire) < pool->size; i++) {
        if ((i & 63) == 0 && now_ns() > deadline) break;
        cpu_relax();
    }
    pthread_mutex_lock(&pool->lock);
    pool->sleeping = true;
    while (atomic_load_explicit(&pool->finished, memory_order_acquire) < pool->size)
        pthread_cond_wait(&pool->done, &pool->lock);
    pool->sleeping = false;
    pool->running = false;
    pthread_mutex_unlock(&pool->lock);
}
