/* SPDX-License-Identifier: MIT */
/* grid.c - the uniform grids behind neighbour and obstacle queries; see grid.h. */
#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "world_internal.h"

static bool grow(const SteerAllocator *alloc, void **array, int *capacity, int needed, size_t item_size)
{
    if (needed <= *capacity) return true;
    int next = *capacity ? *capacity : 16;
    while (next < needed) next *= 2;
    void *grown = steer_realloc(alloc, *array, (size_t)*capacity * item_size, (size_t)next * item_size);
    if (!grown) return false;
    *array = grown;
    *capacity = next;
    return true;
}

/// One of several parallel arrays that share a capacity.
typedef struct Parallel {
    void **array;
    size_t item_size;
} Parallel;

/// Grows `count` parallel arrays from `old` to `next` items, all or none: if one fails, those
/// already grown shrink back (shrinking never fails), so that every block keeps the size the
/// shared capacity says (the allocator is told exact sizes) and nothing leaks.
static bool grow_parallel(const SteerAllocator *alloc, const Parallel *arrays, int count, int old, int next)
{
    for (int i = 0; i < count; i++) {
        void *grown = steer_realloc(alloc, *arrays[i].array, (size_t)old * arrays[i].item_size,
                                    (size_t)next * arrays[i].item_size);
        if (grown) {
            *arrays[i].array = grown;
            continue;
        }
        while (i-- > 0) {
            if (old == 0) {
                steer_free(alloc, *arrays[i].array, (size_t)next * arrays[i].item_size);
                *arrays[i].array = NULL;
            } else {
                *arrays[i].array = steer_realloc(alloc, *arrays[i].array, (size_t)next * arrays[i].item_size,
                                                 (size_t)old * arrays[i].item_size);
            }
        }
        return false;
    }
    return true;
}

/// Grows the by-vehicle arrays; the capacity moves only if all succeed.
static bool grow_vehicle_arrays(SteerGrid *g, const SteerAllocator *alloc, int needed)
{
    if (needed <= g->capacity) return true;
    int next = g->capacity ? g->capacity : 64;
    while (next < needed) next *= 2;
    const Parallel arrays[] = {
        {(void **)&g->scratch, sizeof(int)},
        {(void **)&g->stage, sizeof(SteerGridEntry)},
        {(void **)&g->built, sizeof(SteerGridEntry)},
        {(void **)&g->entry, sizeof(SteerGridEntry)},
        {(void **)&g->quick, sizeof *g->quick},
        {(void **)&g->placed, sizeof *g->placed},
        {(void **)&g->asker, sizeof *g->asker},
        {(void **)&g->hood, sizeof *g->hood},
        {(void **)&g->fx, sizeof(float)},
        {(void **)&g->fy, sizeof(float)},
        {(void **)&g->fhx, sizeof(float)},
        {(void **)&g->fhy, sizeof(float)},
        {(void **)&g->entry_kind, sizeof(uint8_t)},
        {(void **)&g->exact, sizeof *g->exact},
    };
    if (!grow_parallel(alloc, arrays, (int)(sizeof arrays / sizeof arrays[0]), g->capacity, next)) return false;
    g->capacity = next;
    return true;
}

/// The most cells a grid for `vehicles` vehicles may have: a few per vehicle keeps the cost of
/// clearing and prefix-summing the cells below that of sorting the vehicles.
static int max_cells_for(int vehicles) { return 2 * vehicles + 64; }

/// Grows the by-slot arrays (where, link, touched) to `slots`; new links start unlisted.
static bool grow_slot_arrays(SteerGrid *g, const SteerAllocator *alloc, int slots)
{
    if (slots <= g->where_capacity) return true;
    int next = g->where_capacity ? g->where_capacity : 16;
    while (next < slots) next *= 2;
    const Parallel arrays[] = {
        {(void **)&g->where, sizeof *g->where},
        {(void **)&g->touched, sizeof *g->touched},
        {(void **)&g->link, sizeof *g->link},
    };
    if (!grow_parallel(alloc, arrays, (int)(sizeof arrays / sizeof arrays[0]), g->where_capacity, next)) return false;
    SteerGridLink *link = g->link;
    for (int i = g->where_capacity; i < next; i++) link[i] = (SteerGridLink){-1, -1, -1, false, false};
    g->where_capacity = next;
    return true;
}

/// Grows the by-cell arrays (cell_start, extra_head) to `cells`; new lists start empty.
static bool grow_cell_arrays(SteerGrid *g, const SteerAllocator *alloc, int cells)
{
    if (cells <= g->cell_capacity) return true;
    int next = g->cell_capacity ? g->cell_capacity : 16;
    while (next < cells) next *= 2;
    const Parallel arrays[] = {
        {(void **)&g->cell_start, sizeof *g->cell_start},
        {(void **)&g->extra_head, sizeof *g->extra_head},
    };
    if (!grow_parallel(alloc, arrays, (int)(sizeof arrays / sizeof arrays[0]), g->cell_capacity, next)) return false;
    int *head = g->extra_head;
    for (int i = g->cell_capacity; i < next; i++) head[i] = -1;
    g->cell_capacity = next;
    return true;
}

bool steer_grid_reserve(SteerGrid *g, const SteerAllocator *alloc, int vehicles, int slots)
{
    if (!grow_vehicle_arrays(g, alloc, vehicles)) return false;
    if (!grow_slot_arrays(g, alloc, slots)) return false;
    if (!grow_cell_arrays(g, alloc, max_cells_for(g->capacity) + 1)) return false;
    /* A column per thread costs 4 bytes per cell per thread: beyond a few threads the build counts
     * by bands of cells instead, as it does when the columns could not be had. */
    if (g->count_tasks > 1 && g->count_tasks <= STEER_GRID_COLUMN_TASKS)
        return grow(alloc, (void **)&g->task_counts, &g->task_counts_capacity, g->count_tasks * g->cell_capacity,
                    sizeof(int));
    return true;
}

bool steer_grid_reserve_results(SteerGrid *g, const SteerAllocator *alloc, int count)
{
    return grow(alloc, (void **)&g->result, &g->result_capacity, count, sizeof(int));
}

void steer_grid_free(SteerGrid *g, const SteerAllocator *alloc)
{
    size_t n = (size_t)g->capacity;
    steer_free(alloc, g->stage, n * sizeof *g->stage);
    steer_free(alloc, g->built, n * sizeof *g->built);
    steer_free(alloc, g->entry, n * sizeof *g->entry);
    steer_free(alloc, g->quick, n * sizeof *g->quick);
    steer_free(alloc, g->placed, n * sizeof *g->placed);
    steer_free(alloc, g->asker, n * sizeof *g->asker);
    steer_free(alloc, g->hood, n * sizeof *g->hood);
    steer_free(alloc, g->scratch, n * sizeof(int));
    steer_free(alloc, g->fx, n * sizeof(float));
    steer_free(alloc, g->fy, n * sizeof(float));
    steer_free(alloc, g->fhx, n * sizeof(float));
    steer_free(alloc, g->fhy, n * sizeof(float));
    steer_free(alloc, g->entry_kind, n * sizeof(uint8_t));
    steer_free(alloc, g->exact, n * sizeof *g->exact);
    size_t slots = (size_t)g->where_capacity;
    steer_free(alloc, g->where, slots * sizeof *g->where);
    steer_free(alloc, g->touched, slots * sizeof *g->touched);
    steer_free(alloc, g->link, slots * sizeof *g->link);
    steer_free(alloc, g->cell_start, (size_t)g->cell_capacity * sizeof *g->cell_start);
    steer_free(alloc, g->extra_head, (size_t)g->cell_capacity * sizeof *g->extra_head);
    steer_free(alloc, g->task_counts, (size_t)g->task_counts_capacity * sizeof(int));
    steer_free(alloc, g->result, (size_t)g->result_capacity * sizeof(int));
    memset(g, 0, sizeof *g);
}

/// Chooses cols x rows cells of at least `wanted` units over `extent_x` x `extent_y` units (the
/// world's size when wrapping), with at most `max_cells` cells.
static void choose_cells(double extent_x, double extent_y, double wanted, bool wrap, int max_cells, int *cols,
                         int *rows, double *cell_w, double *cell_h)
{
    double area = extent_x * extent_y;
    double floor_size = area > 0.0 ? sqrt(area / max_cells) : 0.0;
    if (wanted < floor_size) wanted = floor_size;
    if (!(wanted > 0.0)) wanted = 1.0;
    /* Positions are kept within STEER_MAX_COORDINATE, but whatever the extent (even one that
     * overflowed to infinity) the loop ends: each round grows the cell by a quarter, and a round
     * that cannot get under max_cells that way settles for one cell over everything. */
    for (int round = 0;; round++) {
        if (round == 400 || !isfinite(extent_x) || !isfinite(extent_y)) {
            *cols = *rows = 1;
            *cell_w = isfinite(extent_x) && extent_x > 0.0 ? extent_x : 1.0;
            *cell_h = isfinite(extent_y) && extent_y > 0.0 ? extent_y : 1.0;
            return;
        }
        double fc = wrap ? floor(extent_x / wanted) : floor(extent_x / wanted) + 1.0;
        double fr = wrap ? floor(extent_y / wanted) : floor(extent_y / wanted) + 1.0;
        if (fc < 1.0) fc = 1.0;
        if (fr < 1.0) fr = 1.0;
        if (fc * fr <= (double)max_cells) {
            *cols = (int)fc;
            *rows = (int)fr;
            break;
        }
        wanted *= 1.25;
    }
    *cell_w = wrap ? extent_x / *cols : wanted;
    *cell_h = wrap ? extent_y / *rows : wanted;
}

/// Forgets what was placed and detached since the last build: O(changes), not O(N).
static void reset_index_changes(SteerGrid *g)
{
    for (int i = 0; i < g->touched_count; i++) {
        SteerGridLink *link = &g->link[g->touched[i]];
        if (link->cell >= 0) g->extra_head[link->cell] = -1;
        *link = (SteerGridLink){-1, -1, -1, false, false};
    }
    g->touched_count = 0;
}

/* A build's passes over the vehicles split into ranges, one per thread of the world's pool (or
 * one range on the calling thread): each range's output depends on the range only. */
typedef struct BuildJob {
    SteerGrid *g;
    const SteerWorld *world;
    int n;
    bool count;   ///< one range: count the cells in the same pass (no second pass)
    bool columns; ///< each task counts its range into its column of task_counts
    bool every_kind;
    int cells;
    int band_total[STEER_MAX_THREADS]; ///< vehicles in each task's band of cells
    int band_offset[STEER_MAX_THREADS];
    SteerGridBounds bounds[STEER_MAX_THREADS];
    uint8_t classes[STEER_MAX_THREADS];
    bool slow[STEER_MAX_THREADS];
} BuildJob;

/// Pass 1 over one range: copy each vehicle's hot fields once, in creation order (the only read
/// of the vehicles), and find the largest radii and speed and the vehicles' bounding box.
static void stage_range(void *context, int t, int tasks)
{
    BuildJob *job = context;
    const SteerWorld *world = job->world;
    int begin, end;
    steer_task_range(job->n, tasks, t, &begin, &end);
    /* Widened at every vehicle: on this thread's stack, not beside the other tasks' in the job. */
    SteerGridBounds local, *b = &local;
    steer_grid_bounds_clear(b);
    for (int i = begin; i < end; i++) {
#if defined(__GNUC__)
        /* Both cache lines the copy reads, a few vehicles ahead (vehicles are 192 bytes apart:
         * the hardware's own prefetching lags behind such a stride). */
        if (i + 6 < end) {
            const char *ahead = steer_pool_at(&world->vehicles, world->order[i + 6]);
            __builtin_prefetch(ahead);
            __builtin_prefetch(ahead + 64);
            __builtin_prefetch(ahead + 95);
        }
#endif
        steer_grid_stage_into(job->g, b, steer_pool_at(&world->vehicles, world->order[i]), i, world->order[i], true);
    }
    job->bounds[t] = local;
}

/// Asks for vehicle i's staged copy, into the second-level cache (see forces_range in world.c).
/// The passes over the stage read it in order, but the hardware's prefetching alone left them
/// waiting on it once the world outgrows the cache (cells_range: 7 % of a 1,000,000-flocker step,
/// 3.8 % with this).
static inline void read_ahead(const SteerGrid *g, int i)
{
#if defined(__GNUC__)
    __builtin_prefetch(&g->quick[i], 0, 1);
#else
    (void)g, (void)i;
#endif
}

/// Vehicles ahead of the one being read that read_ahead asks for.
#define READ_AHEAD 24

/// Vehicles whose cells cells_range works out before it counts them.
#define COUNT_CHUNK 64

/// Pass 2 over one range: each vehicle's cell (counted at once when there is one range), and the
/// step's plan: the numbers the range draws, the classes of its vehicles.
static void cells_range(void *context, int t, int tasks)
{
    BuildJob *job = context;
    SteerGrid *g = job->g;
    int begin, end;
    steer_task_range(job->n, tasks, t, &begin, &end);
    int draws = 0;
    uint8_t classes = 0;
    int *column = job->columns ? g->task_counts + (size_t)t * (size_t)job->cells : NULL;
    if (column) memset(column, 0, (size_t)job->cells * sizeof *column);
    /* The counts are scattered over the cells (a megabyte at 1,000,000 vehicles, out of the
     * first-level cache): each increment waited for its line, and the next one for it. So the
     * vehicles go by chunks: first each one's cell, its counter asked for; then the counting, its
     * lines arriving meanwhile (1.06-1.08x the whole step at 100,000 and 1,000,000). */
    int *counts = job->count ? g->cell_start : column;
    for (int chunk = begin; chunk < end; chunk += COUNT_CHUNK) {
        int stop = end - chunk > COUNT_CHUNK ? chunk + COUNT_CHUNK : end;
        for (int i = chunk; i < stop; i++) {
            if (i + READ_AHEAD < end) read_ahead(g, i + READ_AHEAD);
            int cx = clamp_cell(fast_floor((g->quick[i].x - g->origin_x) * g->inv_w), g->cols);
            int cy = clamp_cell(fast_floor((g->quick[i].y - g->origin_y) * g->inv_h), g->rows);
            int cell = cy * g->cols + cx;
            g->scratch[i] = cell;
#if defined(__GNUC__)
            if (counts) __builtin_prefetch(&counts[cell], 1);
#endif
            draws += g->quick[i].step_class & STEER_STEP_DRAWS;
            classes |= g->quick[i].step_class;
        }
        if (counts)
            for (int i = chunk; i < stop; i++) counts[g->scratch[i]]++;
    }
    g->draws[t] = draws;
    job->classes[t] = classes;
}

/// The resolved flock kinds of the vehicle of creation index `rank` as `entries` (the stage, or the
/// build's) copied it - or, when they hold only `quick` (whole is false), as the vehicle has them:
/// nothing changed it since it was staged (see SteerGrid.stage_whole).
static uint64_t staged_kinds(const SteerGrid *g, const SteerGridEntry *entries, bool whole, int rank)
{
    if (whole) return entries[rank].flock_kinds;
    const SteerVehicle *v = steer_pool_at(&g->vehicles->vehicles, g->vehicles->order[rank]);
    return v->flock_kinds ? v->flock_kinds : 1ULL << v->kind;
}

/* Pass 3 puts each vehicle in cell order. The step's pre-pass reads a few of its fields there, as
 * sorted arrays (fx, fy, fhx, fhy, asker). Gathering them in cell order would read each vehicle's
 * copy from a scattered place, and wait for memory at every one once the world outgrows the cache
 * (over half of a 1,000,000-vehicle build). Instead, the pass that places each vehicle, reading
 * them in creation order, writes those fields as one 32-byte record at its sorted place - a
 * scattered write, which nothing waits for, asked for ahead - and pass 4 copies the records, in
 * order, into the sorted arrays. */

/// Vehicle i (creation order) packed at sorted index k; true for a slow asker.
static inline bool place_packed(const SteerGrid *g, bool every_kind, int i, int k)
{
    const SteerGridQuick *q = &g->quick[i];
    SteerGridPlaced *p = &g->placed[k];
    p->fx = (float)(q->x - g->origin_x);
    p->fy = (float)(q->y - g->origin_y);
    p->fhx = q->hx;
    p->fhy = q->hy;
    p->asker.rank = i;
    p->asker.r2 = q->r2;
    p->asker.wants = q->wants;
    p->asker.fast =
        q->wants && q->all_round && (every_kind || (g->all_kinds & ~staged_kinds(g, g->stage, g->stage_whole, i)) == 0);
    return p->asker.wants && !p->asker.fast;
}

/// Asks for the line where vehicle i will be placed (through the cursor of its cell as it stands:
/// a vehicle or two off at most), for writing.
static inline void place_ahead(const SteerGrid *g, const int *cursor, int i, int offset)
{
    int at = cursor[g->scratch[i]] + offset;
    if (at >= 0) steer_prefetch_write(&g->placed[at], g->prefetchw);
}

/// Vehicles placed ahead of the one being placed, so that its line is in cache when it is written.
#define PLACE_AHEAD 16

/* Passes 2b and 3 on a pool: each task owns a band of cells, [lo, hi) of steer_task_range over
 * the cells, and touches cell_start only there. Every task reads all of scratch (sequentially: far
 * cheaper than the scattered writes it saves the others), keeping the vehicles of its band. */

/// Counts the vehicles of each cell of the band into cell_start[c], then turns the counts into
/// running totals within the band (the end of each cell, less the bands before).
static void count_band(void *context, int t, int tasks)
{
    BuildJob *job = context;
    SteerGrid *g = job->g;
    int lo, hi;
    steer_task_range(job->cells, tasks, t, &lo, &hi);
    int *start = g->cell_start;
    memset(start + lo, 0, (size_t)(hi - lo) * sizeof *start);
    unsigned width = (unsigned)(hi - lo);
    for (int i = 0; i < job->n; i++) {
        int cell = g->scratch[i];
        if ((unsigned)(cell - lo) < width) start[cell]++;
    }
    int total = 0;
    for (int c = lo; c < hi; c++) {
        total += start[c];
        start[c] = total;
    }
    job->band_total[t] = total;
}

/// Pass 3 for one band: cell_start[c] from the end of cell c down to its start, each vehicle
/// placed just before the cursor of its cell, the last created first - so that each cell lists
/// its vehicles in creation order.
static void place_band(void *context, int t, int tasks)
{
    BuildJob *job = context;
    SteerGrid *g = job->g;
    int lo, hi;
    steer_task_range(job->cells, tasks, t, &lo, &hi);
    int *start = g->cell_start;
    int offset = job->band_offset[t];
    if (offset)
        for (int c = lo; c < hi; c++) start[c] += offset;
    unsigned width = (unsigned)(hi - lo);
    bool slow = false;
    for (int i = job->n - 1; i >= 0; i--) {
        if (i >= PLACE_AHEAD && (unsigned)(g->scratch[i - PLACE_AHEAD] - lo) < width) {
            read_ahead(g, i - PLACE_AHEAD);
            place_ahead(g, start, i - PLACE_AHEAD, -1);
        }
        int cell = g->scratch[i];
        if ((unsigned)(cell - lo) < width) slow |= place_packed(g, job->every_kind, i, --start[cell]);
    }
    job->slow[t] = slow;
}

/* The same with a column of counts per task: no task reads another's vehicles. */

/// The vehicles, of every task's range, in the band of cells.
static void band_totals(void *context, int t, int tasks)
{
    BuildJob *job = context;
    int lo, hi;
    steer_task_range(job->cells, tasks, t, &lo, &hi);
    int total = 0;
    for (int u = 0; u < tasks; u++) {
        const int *column = job->g->task_counts + (size_t)u * (size_t)job->cells;
        for (int c = lo; c < hi; c++) total += column[c];
    }
    job->band_total[t] = total;
}

/// Each cell's start, and each task's write cursor in it: after the cursors of the tasks before
/// (whose vehicles were created earlier), so that each cell lists its vehicles in creation order.
static void band_cursors(void *context, int t, int tasks)
{
    BuildJob *job = context;
    SteerGrid *g = job->g;
    int lo, hi;
    steer_task_range(job->cells, tasks, t, &lo, &hi);
    int at = job->band_offset[t];
    for (int c = lo; c < hi; c++) {
        g->cell_start[c] = at;
        for (int u = 0; u < tasks; u++) {
            int *count = &g->task_counts[(size_t)u * (size_t)job->cells + (size_t)c];
            int here = *count;
            *count = at;
            at += here;
        }
    }
}

/// Pass 3 for one task's range of vehicles, through its cursors.
static void place_range(void *context, int t, int tasks)
{
    BuildJob *job = context;
    SteerGrid *g = job->g;
    int begin, end;
    steer_task_range(job->n, tasks, t, &begin, &end);
    int *cursor = g->task_counts + (size_t)t * (size_t)job->cells;
    bool slow = false;
    for (int i = begin; i < end; i++) {
        if (i + READ_AHEAD < end) read_ahead(g, i + READ_AHEAD);
        if (i + PLACE_AHEAD < end) place_ahead(g, cursor, i + PLACE_AHEAD, 0);
        slow |= place_packed(g, job->every_kind, i, cursor[g->scratch[i]]++);
    }
    job->slow[t] = slow;
}

/// Pass 4 over one range of the sorted order: the placed records, in order, into the sorted arrays
/// (sequential reads and writes).
static void unpack_range(void *context, int t, int tasks)
{
    BuildJob *job = context;
    SteerGrid *g = job->g;
    int begin, end;
    steer_task_range(job->n, tasks, t, &begin, &end);
    for (int k = begin; k < end; k++) {
        const SteerGridPlaced *p = &g->placed[k];
        g->fx[k] = p->fx;
        g->fy[k] = p->fy;
        g->fhx[k] = p->fhx;
        g->fhy[k] = p->fhy;
        g->asker[k] = p->asker;
    }
}

void steer_grid_build(SteerGrid *g, const SteerWorld *world)
{
    reset_index_changes(g);
    g->builds++;
    int n = world->order_count;
    g->count = n;
    g->wrap = world->def.edges == STEER_EDGES_WRAP;
    g->width = world->def.width;
    g->height = world->def.height;
    SteerThreadPool *pool = steer_world_step_pool(world);
    int tasks = steer_thread_pool_size(pool);
    /* On the stack: a few kilobytes. */
    BuildJob job_storage, *job = &job_storage;
    job->g = g;
    job->world = world;
    job->n = n;
    job->count = tasks == 1;

    /* Pass 1, unless the step that moved the vehicles staged them already. */
    if (!g->staged) {
        g->stage_whole = true;
        steer_thread_pool_run(pool, stage_range, job);
        steer_grid_bounds_clear(&g->bounds);
        for (int t = 0; t < tasks; t++) steer_grid_bounds_merge(&g->bounds, &job->bounds[t]);
    }
    g->staged = false;
    const SteerGridBounds *b = &g->bounds;
    double max_neighbor = b->max_neighbor_radius;
    double min_x = b->min_x, min_y = b->min_y, max_x = b->max_x, max_y = b->max_y;
    g->max_neighbor_radius = max_neighbor;
    g->max_radius = b->max_radius;
    g->max_speed = sqrt(b->max_speed_sq);
    g->all_kinds = b->all_kinds;

    /* A little over the largest radius: a neighbour exactly one radius away is then always in the
     * 3 x 3 block, never on the far border of the next cell. */
    double wanted = max_neighbor * (1.0 + 1e-6);
    int max_cells = max_cells_for(n);
    if (max_cells + 1 > g->cell_capacity) max_cells = g->cell_capacity - 1;
    if (g->wrap) {
        g->origin_x = g->origin_y = 0.0;
        choose_cells(g->width, g->height, wanted, true, max_cells, &g->cols, &g->rows, &g->cell_w, &g->cell_h);
    } else if (n > 0) {
        g->origin_x = min_x;
        g->origin_y = min_y;
        choose_cells(max_x - min_x, max_y - min_y, wanted, false, max_cells, &g->cols, &g->rows, &g->cell_w,
                     &g->cell_h);
    } else {
        g->origin_x = g->origin_y = 0.0;
        g->cols = g->rows = 1;
        g->cell_w = g->cell_h = 1.0;
    }
    g->inv_w = 1.0 / g->cell_w;
    g->inv_h = 1.0 / g->cell_h;
    int cells = g->cols * g->rows;
    g->float_ok = g->cols * g->cell_w < STEER_GRID_FLOAT_EXTENT && g->rows * g->cell_h < STEER_GRID_FLOAT_EXTENT;

    /* Pass 2: each vehicle's cell; count vehicles per cell. On one thread into cell_start[c], then
     * the totals before each cell: cell_start[c] is the start of cell c. On a pool, into each
     * task's column (or by bands of cells), then each band's total. */
    job->cells = cells;
    job->columns = !job->count && (long long)g->task_counts_capacity >= (long long)tasks * cells;
    if (job->count) {
        memset(g->cell_start, 0, (size_t)cells * sizeof *g->cell_start);
        steer_thread_pool_run(pool, cells_range, job);
        for (int c = 0, total = 0; c < cells; c++) {
            int here = g->cell_start[c];
            g->cell_start[c] = total;
            total += here;
        }
    } else if (job->columns) {
        steer_thread_pool_run(pool, cells_range, job);
        steer_thread_pool_run(pool, band_totals, job);
    } else {
        steer_thread_pool_run(pool, cells_range, job);
        steer_thread_pool_run(pool, count_band, job);
    }
    g->plan_tasks = tasks;
    g->step_classes = 0;
    for (int t = 0, before = 0; t < tasks; t++) {
        g->step_classes |= job->classes[t];
        job->band_offset[t] = before;
        if (!job->count) before += job->band_total[t];
    }

    /* Pass 3: the permutation, each vehicle's record scattered to its place (SteerGridPlaced), in
     * creation order within each cell. On one thread the cursors run up from each cell's start;
     * by bands they run down from each cell's end and stop at its start, where cell_start[c] then
     * points; with columns, each task's cursors run up from where the tasks before it end. */
    job->every_kind = (g->all_kinds & ~b->common_kinds) == 0; /* everyone flocks with every kind */
    g->every_kind = job->every_kind;
    if (job->count) {
        bool slow = false;
        for (int i = 0; i < n; i++) {
            if (i + READ_AHEAD < n) read_ahead(g, i + READ_AHEAD);
            if (i + PLACE_AHEAD < n) place_ahead(g, g->cell_start, i + PLACE_AHEAD, 0);
            slow |= place_packed(g, job->every_kind, i, g->cell_start[g->scratch[i]]++);
        }
        job->slow[0] = slow;
        /* Each cursor ended where its cell ends, which is where the next one starts. */
        memmove(g->cell_start + 1, g->cell_start, (size_t)cells * sizeof *g->cell_start);
        g->cell_start[0] = 0;
    } else if (job->columns) {
        steer_thread_pool_run(pool, band_cursors, job);
        steer_thread_pool_run(pool, place_range, job);
    } else {
        steer_thread_pool_run(pool, place_band, job);
    }
    g->cell_start[cells] = n;

    /* Pass 4: the sorted arrays; the whole entries are gathered only when something asks for them
     * (steer_grid_gather). */
    steer_thread_pool_run(pool, unpack_range, job);
    g->slow_askers = false;
    for (int t = 0; t < tasks; t++) g->slow_askers |= job->slow[t];
    /* The step stages the next build in the other buffer; gathering reads this one. */
    SteerGridEntry *sorted = g->stage;
    g->stage = g->built;
    g->built = sorted;
    g->built_whole = g->stage_whole;
    g->gathered = false;
}

/// Gathers sorted entries [begin, end) from the vehicles themselves, as staging would have copied
/// them (the positions from `quick`, which the build sorted).
static void gather_vehicles(SteerGrid *g, int begin, int end)
{
    const SteerWorld *world = g->vehicles;
    for (int k = begin; k < end; k++) {
#if defined(__GNUC__)
        /* Scattered reads, each waiting for the one before (sorted -> creation order -> slot ->
         * vehicle): ask for the two cache lines of a vehicle a few ahead, and its slot further on. */
        if (k + 16 < end) __builtin_prefetch(&world->order[g->asker[k + 16].rank]);
        if (k + 8 < end) {
            const char *ahead = steer_pool_at(&world->vehicles, world->order[g->asker[k + 8].rank]);
            __builtin_prefetch(ahead);
            __builtin_prefetch(ahead + 95);
            __builtin_prefetch(&g->quick[g->asker[k + 8].rank]);
        }
#endif
        int rank = g->asker[k].rank, slot = world->order[rank];
        const SteerGridQuick *q = &g->quick[rank];
        const SteerVehicle *v = steer_pool_at(&world->vehicles, slot);
        SteerGridEntry *e = &g->entry[k];
        steer_grid_entry_fill(e, v, steer_vec2(q->x, q->y), rank, slot);
        g->entry_kind[k] = e->kind;
        g->exact[k] = (SteerGridExact){e->x, e->y, e->hx, e->hy};
        g->where[slot] = k;
    }
}

/// Gathers sorted entries [begin, end).
static void gather_range(SteerGrid *g, int begin, int end)
{
    if (!g->built_whole) {
        gather_vehicles(g, begin, end);
        return;
    }
    for (int k = begin; k < end; k++) {
#if defined(__GNUC__)
        if (k + 8 < end) {
            const SteerGridEntry *ahead = &g->built[g->asker[k + 8].rank];
            __builtin_prefetch(ahead);
            __builtin_prefetch((const char *)ahead + 64);
        }
#endif
        const SteerGridEntry *e = &g->built[g->asker[k].rank];
        g->entry[k] = *e;
        g->entry_kind[k] = e->kind;
        g->exact[k] = (SteerGridExact){e->x, e->y, e->hx, e->hy};
        g->where[e->slot] = k;
    }
}

static void gather_task(void *context, int t, int tasks)
{
    SteerGrid *g = context;
    int begin, end;
    steer_task_range(g->count, tasks, t, &begin, &end);
    gather_range(g, begin, end);
}

void steer_grid_gather_on(const SteerGrid *grid, SteerThreadPool *pool)
{
    SteerGrid *g = (SteerGrid *)grid; /* a cache: see steer_world_grid */
    if (g->gathered) return;
    steer_thread_pool_run(pool, gather_task, g);
    g->gathered = true;
}

void steer_grid_gather_before_moves(const SteerGrid *grid, SteerThreadPool *pool)
{
    if (!grid->built_whole && (grid->step_classes & STEER_STEP_ENTRIES)) steer_grid_gather_on(grid, pool);
}

void steer_grid_gather(const SteerGrid *grid)
{
    SteerGrid *g = (SteerGrid *)grid;
    if (g->gathered) return;
    gather_range(g, 0, g->count);
    g->gathered = true;
}

void steer_world_compact_order(SteerWorld *world)
{
    if (world->order_holes == 0) return;
    int kept = 0;
    for (int i = 0; i < world->order_count; i++) {
        int slot = world->order[i];
        if (slot < 0) continue;
        SteerVehicle *vehicle = steer_pool_at(&world->vehicles, slot);
        vehicle->rank = kept;
        world->order[kept++] = slot;
    }
    world->order_count = kept;
    world->order_holes = 0;
}

static void rebuild(SteerWorld *world)
{
    steer_world_compact_order(world);
    steer_grid_build(&world->grid, world);
    world->grid_stale = false;
    world->index_stale = false;
}

const SteerGrid *steer_world_grid_cells(const SteerWorld *world)
{
    SteerWorld *cache = (SteerWorld *)world;
    if (cache->grid_stale || cache->index_stale) rebuild(cache);
    return &world->grid;
}

const SteerGrid *steer_world_query_grid(const SteerWorld *world)
{
    SteerWorld *cache = (SteerWorld *)world;
    cache->queried = true;
    if (cache->index_stale) rebuild(cache);
    steer_grid_gather(&world->grid);
    return &world->grid;
}

/* ---- The index between builds -------------------------------------------------------------- */

/// Records that a slot's link changed, so the next build resets it.
static SteerGridLink *touch(SteerGrid *g, int slot)
{
    SteerGridLink *link = &g->link[slot];
    if (!link->touched) {
        link->touched = true;
        g->touched[g->touched_count++] = slot;
    }
    return link;
}

static void unlist(SteerGrid *g, SteerGridLink *link)
{
    if (link->cell < 0) return;
    if (link->prev >= 0)
        g->link[link->prev].next = link->next;
    else
        g->extra_head[link->cell] = link->next;
    if (link->next >= 0) g->link[link->next].prev = link->prev;
    link->next = link->prev = link->cell = -1;
}

void steer_world_index_place(SteerWorld *world, int slot)
{
    if (world->index_stale) return; /* the next query rebuilds from the vehicles themselves */
    SteerGrid *g = &world->grid;
    const SteerVehicle *vehicle = steer_pool_at(&world->vehicles, slot);
    /* The cell a build would give it: the same arithmetic, so the query cursor finds it. */
    SteerVec2 p = steer_grid_local_point(g, vehicle->position);
    int cx = clamp_cell(fast_floor((p.x - g->origin_x) * g->inv_w), g->cols);
    int cy = clamp_cell(fast_floor((p.y - g->origin_y) * g->inv_h), g->rows);
    int cell = cy * g->cols + cx;
    SteerGridLink *link = touch(g, slot);
    link->detached = true;
    unlist(g, link);
    link->cell = cell;
    link->prev = -1;
    link->next = g->extra_head[cell];
    if (link->next >= 0) g->link[link->next].prev = slot;
    g->extra_head[cell] = slot;
}

/* A behaviour switch changes two things the grid copies of a vehicle: whether it wants the plain
 * neighbourhood, and its step class (the numbers it draws, which path its force takes). Brains
 * switch behaviours between every two steps, so rather than a rebuild from every vehicle, the copies
 * of this one are patched where they lie: the staged copy the next build sorts, or the build itself
 * and the step's plan made from it. The plan's flags (step_classes, slow_askers) may then be a
 * superset of what a build would find: they only choose slower paths to the same result. The draws
 * of each task range stay exact: they tell each thread where its vehicles' numbers begin. */
void steer_world_index_restyle(SteerWorld *world, const SteerVehicle *vehicle, int slot)
{
    SteerGrid *g = &world->grid;
    int rank = vehicle->rank;
    bool wants = vehicle->wants_neighbourhood;
    world->hoods_ready = false;
    if (world->grid_stale) {
        if (!g->staged) return; /* the next build reads every vehicle itself */
        g->quick[rank].wants = wants;
        g->quick[rank].step_class = vehicle->step_class;
        g->stage[rank].wants = wants;
        return;
    }
    SteerGridQuick *q = &g->quick[rank];
    int old_draws = q->step_class & STEER_STEP_DRAWS;
    q->wants = wants;
    q->step_class = vehicle->step_class;
    g->built[rank].wants = wants;
    steer_grid_gather(g); /* for where[]; queries gather each build anyway */
    int k = g->where[slot];
    g->entry[k].wants = wants;
    SteerGridAsker *a = &g->asker[k];
    a->wants = wants;
    a->fast = wants && q->all_round &&
              (g->every_kind || (g->all_kinds & ~staged_kinds(g, g->built, g->built_whole, rank)) == 0);
    g->slow_askers |= a->wants && !a->fast;
    g->step_classes |= vehicle->step_class;
    for (int t = 0; t < g->plan_tasks; t++) {
        int begin, end;
        steer_task_range(g->count, g->plan_tasks, t, &begin, &end);
        if (rank < begin || rank >= end) continue;
        g->draws[t] += (vehicle->step_class & STEER_STEP_DRAWS) - old_draws;
        break;
    }
}

void steer_world_index_drop(SteerWorld *world, int slot)
{
    if (world->index_stale) return;
    SteerGridLink *link = touch(&world->grid, slot);
    link->detached = true;
    unlist(&world->grid, link);
}

const SteerGrid *steer_world_grid(const SteerWorld *world)
{
    const SteerGrid *g = steer_world_grid_cells(world);
    steer_grid_gather(g);
    return g;
}

/* ---- Cursor -------------------------------------------------------------------------------- */

/* ---- Obstacles and walls ----------------------------------------------------------------------------- */

void steer_shape_grid_free(SteerShapeGrid *g, const SteerAllocator *alloc)
{
    steer_free(alloc, g->cell_start, (size_t)g->cell_capacity * sizeof(int));
    steer_free(alloc, g->items, (size_t)g->item_capacity * sizeof(int));
    steer_free(alloc, g->stamp, (size_t)g->stamp_capacity * sizeof(uint32_t));
    steer_free(alloc, g->result, (size_t)g->result_capacity * sizeof(int));
    memset(g, 0, sizeof *g);
}

/// What a shape grid needs of one item: its bounding box (unwrapped coordinates) and, for a
/// wall, the segment itself (so that a long diagonal wall lands only in the cells it crosses).
typedef struct GridShape {
    double x0, y0, x1, y1; ///< segment ends, or the box's corners for a circle
    bool segment;
} GridShape;

/// Item i of the pool the grid indexes, as placed in the grid (in a wrapping world shifted so that
/// its first point lies inside the world); false for a dead slot.
static bool shape_at(const SteerShapeGrid *g, const SteerPool *pool, int i, GridShape *s)
{
    if (g->walls) {
        const SteerWall *w = steer_pool_at(pool, i);
        if (!w->header.alive) return false;
        double sx = 0.0, sy = 0.0;
        if (g->wrap) {
            sx = steer_grid_wrap_coordinate(w->a.x, g->width) - w->a.x;
            sy = steer_grid_wrap_coordinate(w->a.y, g->height) - w->a.y;
        }
        *s = (GridShape){w->a.x + sx, w->a.y + sy, w->b.x + sx, w->b.y + sy, true};
        return true;
    }
    const SteerObstacle *o = steer_pool_at(pool, i);
    if (!o->header.alive) return false;
    double cx = g->wrap ? steer_grid_wrap_coordinate(o->center.x, g->width) : o->center.x;
    double cy = g->wrap ? steer_grid_wrap_coordinate(o->center.y, g->height) : o->center.y;
    *s = (GridShape){cx - o->radius, cy - o->radius, cx + o->radius, cy + o->radius, false};
    return true;
}

/// Clips the parameter range [*t0, *t1] of p + t·d to lo <= coordinate <= hi; false when empty.
static bool clip_axis(double p, double d, double lo, double hi, double *t0, double *t1)
{
    if (d == 0.0) return p >= lo && p <= hi;
    double a = (lo - p) / d, b = (hi - p) / d;
    if (a > b) {
        double swap = a;
        a = b;
        b = swap;
    }
    if (a > *t0) *t0 = a;
    if (b < *t1) *t1 = b;
    return *t0 <= *t1;
}

/// Whether segment s may touch unwrapped cell (xx, yy): the cell is widened a little, so that
/// rounding never leaves a cell out, and border cells of a bounded grid reach to infinity (points
/// beyond the grid are clamped into them).
static bool segment_touches_cell(const SteerShapeGrid *g, const GridShape *s, int xx, int yy)
{
    double ex = 1e-6 * g->cell_w, ey = 1e-6 * g->cell_h;
    double lx = g->origin_x + xx * g->cell_w - ex, hx = g->origin_x + (xx + 1) * g->cell_w + ex;
    double ly = g->origin_y + yy * g->cell_h - ey, hy = g->origin_y + (yy + 1) * g->cell_h + ey;
    if (!g->wrap) {
        if (xx == 0) lx = -INFINITY;
        if (xx == g->cols - 1) hx = INFINITY;
        if (yy == 0) ly = -INFINITY;
        if (yy == g->rows - 1) hy = INFINITY;
    }
    double t0 = 0.0, t1 = 1.0;
    return clip_axis(s->x0, s->x1 - s->x0, lx, hx, &t0, &t1) && clip_axis(s->y0, s->y1 - s->y0, ly, hy, &t0, &t1);
}

/// Calls back for every cell a shape covers (its bounding box's cells, less those a segment misses);
/// used twice (count, then fill).
#define FOR_SHAPE_CELLS(g, s, cell, body)                                                                              \
    do {                                                                                                               \
        double hx_ = 0.5 * fabs((s)->x1 - (s)->x0), hy_ = 0.5 * fabs((s)->y1 - (s)->y0);                               \
        int xlo_, xhi_, ylo_, yhi_;                                                                                    \
        bool once_x_ =                                                                                                 \
            axis_range(0.5 * ((s)->x0 + (s)->x1), hx_, (g)->origin_x, (g)->inv_w, (g)->cols, (g)->wrap, &xlo_, &xhi_); \
        bool once_y_ =                                                                                                 \
            axis_range(0.5 * ((s)->y0 + (s)->y1), hy_, (g)->origin_y, (g)->inv_h, (g)->rows, (g)->wrap, &ylo_, &yhi_); \
        /* A segment longer than a wrapping world is in every cell of its rows or columns. */                          \
        bool test_ = (s)->segment && once_x_ && once_y_;                                                               \
        for (int yy_ = ylo_; yy_ <= yhi_; yy_++) {                                                                     \
            for (int xx_ = xlo_; xx_ <= xhi_; xx_++) {                                                                 \
                if (test_ && !segment_touches_cell((g), (s), xx_, yy_)) continue;                                      \
                int cell = ((g)->wrap ? positive_mod(yy_, (g)->rows) : yy_) * (g)->cols +                              \
                           ((g)->wrap ? positive_mod(xx_, (g)->cols) : xx_);                                           \
                body;                                                                                                  \
            }                                                                                                          \
        }                                                                                                              \
    } while (0)

/* Beyond this, a wrapping world's coordinates lose the precision that placing a wall's image in
 * the grid needs: such worlds scan every wall instead. */
#define WRAP_COORDINATE_LIMIT 1e9

/// Builds a grid of the live items of `pool` (obstacles, or walls if g->walls); false when memory
/// runs out or a wall lies too far out for a wrapping grid.
static bool build_shape_grid(SteerShapeGrid *g, const SteerWorld *world, const SteerPool *pool)
{
    g->wrap = world->def.edges == STEER_EDGES_WRAP;
    g->width = world->def.width;
    g->height = world->def.height;
    int live = 0;
    double min_x = INFINITY, min_y = INFINITY, max_x = -INFINITY, max_y = -INFINITY, sizes = 0.0, max_radius = 0.0;
    for (int i = 0; i < pool->count; i++) {
        GridShape s;
        if (!shape_at(g, pool, i, &s)) continue;
        if (g->wrap && g->walls) {
            const SteerWall *w = steer_pool_at(pool, i);
            double far = fmax(fmax(fabs(w->a.x), fabs(w->a.y)), fmax(fabs(w->b.x), fabs(w->b.y)));
            if (!(far < WRAP_COORDINATE_LIMIT)) return false;
        }
        live++;
        double w = fabs(s.x1 - s.x0), h = fabs(s.y1 - s.y0);
        sizes += w > h ? w : h;
        if (0.5 * w > max_radius) max_radius = 0.5 * w;
        min_x = fmin(min_x, fmin(s.x0, s.x1));
        min_y = fmin(min_y, fmin(s.y0, s.y1));
        max_x = fmax(max_x, fmax(s.x0, s.x1));
        max_y = fmax(max_y, fmax(s.y0, s.y1));
    }
    g->max_radius = g->walls ? 0.0 : max_radius;
    /* Cells about as large as an item, so each lands in a few cells; at most a few per item. A
     * wall lands only in the cells it crosses, so a few walls as long as the world must not make
     * the cells that large: walls ask for no more than a sixteenth of the grid's extent. */
    int max_cells = 4 * live + 16;
    double wanted = live ? sizes / live : 1.0;
    if (g->walls) {
        double extent = g->wrap ? fmax(g->width, g->height) : fmax(max_x - min_x, max_y - min_y);
        if (live && wanted > extent / 16.0) wanted = extent / 16.0;
    }
    if (g->wrap) {
        g->origin_x = g->origin_y = 0.0;
        choose_cells(g->width, g->height, wanted, true, max_cells, &g->cols, &g->rows, &g->cell_w, &g->cell_h);
    } else if (live) {
        g->origin_x = min_x;
        g->origin_y = min_y;
        choose_cells(max_x - min_x, max_y - min_y, wanted, false, max_cells, &g->cols, &g->rows, &g->cell_w,
                     &g->cell_h);
    } else {
        g->origin_x = g->origin_y = 0.0;
        g->cols = g->rows = 1;
        g->cell_w = g->cell_h = 1.0;
    }
    g->inv_w = 1.0 / g->cell_w;
    g->inv_h = 1.0 / g->cell_h;
    int cells = g->cols * g->rows;
    const SteerAllocator *alloc = &world->alloc;
    if (!grow(alloc, (void **)&g->cell_start, &g->cell_capacity, cells + 1, sizeof(int))) return false;
    if (!grow(alloc, (void **)&g->stamp, &g->stamp_capacity, pool->count, sizeof(uint32_t))) return false;
    if (g->stamp) memset(g->stamp, 0, (size_t)g->stamp_capacity * sizeof(uint32_t));
    g->query_stamp = 0;

    memset(g->cell_start, 0, (size_t)(cells + 1) * sizeof(int));
    for (int i = 0; i < pool->count; i++) {
        GridShape s;
        if (!shape_at(g, pool, i, &s)) continue;
        FOR_SHAPE_CELLS(g, &s, cell, g->cell_start[cell + 1]++);
    }
    for (int c = 0; c < cells; c++) g->cell_start[c + 1] += g->cell_start[c];
    if (!grow(alloc, (void **)&g->items, &g->item_capacity, g->cell_start[cells], sizeof(int))) return false;
    if (!grow(alloc, (void **)&g->result, &g->result_capacity, live, sizeof(int))) return false;
    for (int i = 0; i < pool->count; i++) {
        GridShape s;
        if (!shape_at(g, pool, i, &s)) continue;
        FOR_SHAPE_CELLS(g, &s, cell, g->items[g->cell_start[cell]++] = i);
    }
    for (int c = cells; c > 0; c--) g->cell_start[c] = g->cell_start[c - 1];
    g->cell_start[0] = 0;
    return true;
}

const SteerShapeGrid *steer_world_obstacle_grid(const SteerWorld *world)
{
    SteerWorld *cache = (SteerWorld *)world;
    if (cache->obstacles_stale) {
        cache->obstacle_grid.walls = false;
        if (!build_shape_grid(&cache->obstacle_grid, world, &world->obstacles)) return NULL;
        cache->obstacles_stale = false;
    }
    return &world->obstacle_grid;
}

const SteerShapeGrid *steer_world_wall_grid(const SteerWorld *world)
{
    SteerWorld *cache = (SteerWorld *)world;
    if (world->wall_grid_off) return NULL;
    if (cache->walls_stale) {
        cache->wall_grid.walls = true;
        /* Stays stale when the build fails: every step scans all walls and tries again. */
        if (!build_shape_grid(&cache->wall_grid, world, &world->walls)) return NULL;
        cache->walls_stale = false;
    }
    return &world->wall_grid;
}

void steer_sort_ints(int *a, int n)
{
    static const int gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
    for (size_t g = 0; g < sizeof gaps / sizeof gaps[0]; g++) {
        int gap = gaps[g];
        if (gap >= n) continue;
        for (int i = gap; i < n; i++) {
            int value = a[i], j = i;
            for (; j >= gap && a[j - gap] > value; j -= gap) a[j] = a[j - gap];
            a[j] = value;
        }
    }
}

int steer_shape_grid_candidates(const SteerShapeGrid *grid, SteerVec2 lo, SteerVec2 hi)
{
    SteerShapeGrid *g = (SteerShapeGrid *)grid; /* scratch: stamps and results */
    if (++g->query_stamp == 0 && g->stamp) {
        memset(g->stamp, 0, (size_t)g->stamp_capacity * sizeof(uint32_t));
        g->query_stamp = 1;
    }
    double cx = 0.5 * (lo.x + hi.x), cy = 0.5 * (lo.y + hi.y);
    double rx = 0.5 * (hi.x - lo.x), ry = 0.5 * (hi.y - lo.y);
    if (g->wrap) {
        cx = steer_grid_wrap_coordinate(cx, g->width);
        cy = steer_grid_wrap_coordinate(cy, g->height);
    }
    int xlo, xhi, ylo, yhi;
    axis_range(cx, rx, g->origin_x, g->inv_w, g->cols, g->wrap, &xlo, &xhi);
    axis_range(cy, ry, g->origin_y, g->inv_h, g->rows, g->wrap, &ylo, &yhi);
    int n = 0;
    for (int yy = ylo; yy <= yhi; yy++) {
        for (int xx = xlo; xx <= xhi; xx++) {
            int cell =
                (g->wrap ? positive_mod(yy, g->rows) : yy) * g->cols + (g->wrap ? positive_mod(xx, g->cols) : xx);
            for (int k = g->cell_start[cell]; k < g->cell_start[cell + 1]; k++) {
                int item = g->items[k];
                if (g->stamp[item] == g->query_stamp) continue;
                g->stamp[item] = g->query_stamp;
                g->result[n++] = item;
            }
        }
    }
    if (n > 1) steer_sort_ints(g->result, n);
    return n;
}
