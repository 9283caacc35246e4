/* SPDX-License-Identifier: MIT */
/* grid.h - the world's spatial index (private to the core).
 *
 * Vehicles: a uniform grid rebuilt at the start of every step (and lazily before a query when
 * something moved since) by a counting sort over cells. The sort also copies the hot fields of
 * every vehicle into arrays in cell order, so a neighbourhood is a few contiguous runs of memory:
 * one run per row of cells, split in two where a row wraps around the world's edge.
 *
 * Cells are at least as large as the largest neighbour radius, so a vehicle's neighbours lie in
 * the 3 x 3 cells around it. In a wrapping world the grid covers the world and stores wrapped
 * positions; a run that crosses the edge comes with a shift (±width, ±height) that turns stored
 * positions into the image nearest to the asker. In other worlds the grid covers the bounding box
 * of the vehicles themselves, so a vehicle far outside the bounds is still found (and does not
 * crowd the border cells).
 *
 * Every array grows only when vehicles are created (steer_grid_reserve); a rebuild never allocates.
 *
 * Between steps the grid is also the index every query goes through, and scripts change the world
 * in between: they spawn, remove and move vehicles and switch behaviours. None of that rebuilds it
 * (an O(N) rebuild per change made a brain that switches and then asks cost O(N) per think).
 * Behaviour switches do not touch it at all: queries read kinds and positions from the vehicles.
 * A spawned or moved vehicle is linked into a per-cell list beside the sorted arrays, and its old
 * sorted entry, like a removed vehicle's, is marked detached: queries skip detached entries and
 * walk the lists of the cells they cover. The step rebuilds the whole grid anyway, which empties
 * the lists.
 *
 * Obstacles and walls: two shape grids hold each obstacle in every cell its bounding box touches,
 * each wall in every cell its segment crosses; each is rebuilt when its items are added or removed
 * (never during a step), and answers in slot order, as a scan of the pool would visit them.
 */
#ifndef STEER_GRID_H
#define STEER_GRID_H

#include <stdbool.h>
#include <stdint.h>

#include "prefetch.h"
#include "steer_alloc.h"
#include "steer/steer_math.h"
#include "thread_pool.h"
#include <math.h>

struct SteerWorld;

/// What a vehicle sees of its neighbours (within its neighbor_radius, of its flock kinds, in its
/// view cone, itself excluded), summed in one pass over the grid.
typedef struct SteerNeighbourhood {
    SteerVec2 separation;  ///< Σ r/|r|² (r from the neighbour to the vehicle, 1/units), comfort multiplier applied
    SteerVec2 heading_sum; ///< Σ neighbour headings
    SteerVec2 offset_sum;  ///< Σ offsets from the vehicle to each neighbour (units, shortest wrapped)
    int count;             ///< neighbours seen
    int coincident;        ///< neighbours on the very same point (pushed apart along the side instead)
} SteerNeighbourhood;

/// A neighbourhood as the step's pre-pass keeps it: single precision, half a cache line, so that
/// writing 100,000 of them from the cell-order pass and reading them back in creation order moves
/// half the memory (the sums are steering inputs: float is plenty).
typedef struct SteerPackedNeighbourhood {
    float separation[2], heading_sum[2], offset_sum[2];
    int count;
    int unused; ///< pads to 32 bytes: never across two cache lines
} SteerPackedNeighbourhood;

/// One vehicle as the grid copied it at the last build.
typedef struct SteerGridEntry {
    double x, y;   ///< position (wrapped into the world in a wrapping world)
    double hx, hy; ///< unit heading
    double vx, vy; ///< velocity
    double radius; ///< bounding radius
    double neighbor_radius;
    double view_cos;      ///< cosine of half the view angle; < -1 for all-round vision
    uint64_t flock_kinds; ///< resolved: never 0
    int rank;             ///< index in creation order (world->order)
    int slot;             ///< pool slot
    uint8_t kind;
    uint8_t wants; ///< 1: a behaviour of it uses the plain neighbourhood this step
    uint8_t exact; ///< 1: (x, y) is the vehicle's position itself, not a wrapped image of it
    /* Reciprocal avoidance (orca.c), in what was padding: SteerVehicle's fields of the same names. */
    uint8_t avoid_bits;       ///< layer | STEER_AVOID_ON
    uint8_t avoid_precedence; ///< who gives way
    uint16_t avoid_mask;      ///< layers it avoids (0: it avoids nobody)
} SteerGridEntry;

/// A vehicle's position and heading in double precision, as its entry has them, by sorted index:
/// what the neighbourhood of a vehicle that flocks with some kinds only reads of each candidate
/// (with entry_kind), 32 bytes where the entry is 96 (neighbourhood.c: pack_candidate).
typedef struct SteerGridExact {
    double x, y, hx, hy;
} SteerGridExact;

/// What a build reads of every vehicle to sort them and to set up the flocking fast path: 32 bytes
/// by creation order, one cache line (the whole SteerGridEntry is gathered only on demand).
typedef struct SteerGridQuick {
    double x, y;        ///< position, as in SteerGridEntry
    float hx, hy;       ///< unit heading
    float r2;           ///< neighbour radius squared
    uint8_t wants;      ///< SteerGridEntry.wants
    uint8_t all_round;  ///< no view cone
    uint8_t step_class; ///< SteerVehicle.step_class
} SteerGridQuick;

/// A vehicle of the sorted order as the step's neighbourhood pre-pass asks about it.
typedef struct SteerGridAsker {
    int rank;      ///< index in creation order
    float r2;      ///< neighbour radius squared
    uint8_t wants; ///< a behaviour of it uses the plain neighbourhood this step
    uint8_t fast;  ///< ... and it can take the fast path (all-round, flocks with every kind)
} SteerGridAsker;

/// A vehicle as the counting sort scatters it into cell order, read once, in order, to fill the
/// sorted arrays (fx, fy, fhx, fhy, asker).
typedef struct SteerGridPlaced {
    float fx, fy, fhx, fhy;
    SteerGridAsker asker;
    int unused; ///< pads to 32 bytes: never across two cache lines
} SteerGridPlaced;

/// What a build needs to know of all the vehicles before it can choose its cells, gathered while
/// they are copied (by the build itself, or by the step that moved them: steer_grid_stage_into).
typedef struct SteerGridBounds {
    double max_neighbor_radius, max_radius, max_speed_sq;
    uint64_t all_kinds;
    uint64_t common_kinds;             ///< kinds every vehicle flocks with (AND of the resolved flock_kinds)
    double min_x, min_y, max_x, max_y; ///< the vehicles' bounding box (unwrapped positions)
} SteerGridBounds;

/// A vehicle slot's place in the index between builds (steer_world_index_place / _drop).
typedef struct SteerGridLink {
    int next, prev; ///< the cell's list of vehicles placed since the build (-1 ends it)
    int cell;       ///< the cell it is listed in, or -1 when not listed
    bool detached;  ///< its sorted entry, if it has one, no longer stands for it
    bool touched;   ///< on the touched list (reset at the next build)
} SteerGridLink;

/// A world of more threads than this counts a parallel build by bands of cells (no columns).
#define STEER_GRID_COLUMN_TASKS 4

typedef struct SteerGrid {
    /* Geometry: cell (c, r) covers origin + [c, c+1)·cell_w x [r, r+1)·cell_h. */
    double origin_x, origin_y;
    double cell_w, cell_h, inv_w, inv_h;
    int cols, rows;
    bool wrap;
    double width, height; ///< the world's size (wrapping worlds)

    /* Hot data in cell order: vehicle k of the sorted order. The flocking fast path reads only the
     * four float arrays (positions relative to the origin, headings), four candidates per load;
     * everything else about vehicle k is in entry[k], one cache line, so the counting sort
     * scatters each vehicle with five writes rather than one per field. */
    int count;
    float *fx, *fy, *fhx, *fhy;
    bool float_ok;         ///< the grid spans less than STEER_GRID_FLOAT_EXTENT: fx, fy good to ~0.004 units
    SteerGridEntry *entry; ///< gathered on demand (steer_world_grid), not by every build
    uint8_t *entry_kind;   ///< entry[k].kind, gathered with it: a query for some kinds skips the
                           ///< others reading a byte each, not a whole entry
    SteerGridExact *exact; ///< entry[k]'s position and heading, gathered with it
    bool kinds_path_off;   ///< tests: general neighbourhoods run every test (the reference loop, pack_general)
    bool gathered;         ///< entry and where hold the last build
    SteerGridAsker *asker; ///< what the neighbourhood pre-pass needs, always gathered
    SteerPackedNeighbourhood
        *hood;       ///< by creation order (entry.rank): the plain neighbourhoods, summed at the start of the step
    int *cell_start; ///< cols·rows + 1 offsets into the sorted arrays

    int *where;              ///< by pool slot: index in the sorted arrays (-1 for a dead slot)
    int *scratch;            ///< by creation order: cell index during the sort
    SteerGridEntry *stage;   ///< by creation order: each vehicle as copied, read once from the vehicles
    SteerGridEntry *built;   ///< the stage the last build sorted (swapped with stage), for gathering
    SteerGridQuick *quick;   ///< by creation order: the part of stage a build always reads
    SteerGridPlaced *placed; ///< by sorted index: scattered there by the counting sort
    SteerGridBounds bounds;  ///< of the staged vehicles
    /* The step copies each vehicle into `stage` right after moving it, while the vehicle is in
     * cache; the next build then skips reading the vehicles again. Anything else that changes a
     * vehicle or the set of vehicles clears this (steer_world_vehicles_changed). */
    bool staged;
    /* Whole entries are read only by gathering, which a plain flock never asks for: a step after
     * which no gather is expected stages `quick` alone (a third of the bytes written per vehicle),
     * and a gather of such a build reads the vehicles themselves, which nothing changed since -
     * any change clears `staged`, and the step gathers before it moves anyone if a behaviour might
     * gather while it does (steer_grid_gather_before_moves). */
    bool stage_whole;                  ///< the step fills whole entries of `stage`, not only `quick`
    bool built_whole;                  ///< `built` holds whole entries (else gathering reads the vehicles)
    const struct SteerWorld *vehicles; ///< the world whose vehicles a gather may read
    int capacity;                      ///< vehicles the arrays hold
    int where_capacity;                ///< pool slots `where` holds
    int cell_capacity;                 ///< cells cell_start holds (plus one)
    /* A parallel build's counting sort: each task counts the cells of its own range of vehicles
     * into its own column of count_tasks x cells counts, which then become its write cursors. */
    int count_tasks; ///< the world's threads (set before the first reserve; 1: no columns)
    bool prefetchw;  ///< the processor has PREFETCHW (prefetch.h)
    int *task_counts;
    int task_counts_capacity;

    double max_neighbor_radius, max_radius, max_speed;
    uint64_t all_kinds; ///< bit k set: some vehicle has kind k

    /* What every build also sums for the step that follows, by the task ranges of the pool it ran
     * on (steer_task_range over creation order): a parallel step plans from these. */
    int plan_tasks;               ///< how many ranges draws holds
    int draws[STEER_MAX_THREADS]; ///< PRNG numbers the vehicles of each range draw per step
    uint8_t step_classes;         ///< OR of every vehicle's step_class (a superset after steer_world_index_restyle)
    bool slow_askers;             ///< some vehicle wants a neighbourhood the fast path cannot sum (or may)
    bool every_kind;              ///< every vehicle flocks with every kind (the askers' fast test)

    /* Query scratch (results sorted into creation order). */
    int *result;
    int result_capacity;

    /* The index's changes since the last build (see the top of this file). */
    SteerGridLink *link; ///< by pool slot (where_capacity of them)
    int *extra_head;     ///< by cell (cell_capacity of them): first listed slot, or -1
    int *touched;        ///< slots whose link changed since the build (where_capacity of them)
    int touched_count;   ///< 0: queries need not look at links or lists at all
    unsigned builds;     ///< how many times the grid was built (tests count rebuilds)
} SteerGrid;

typedef struct SteerShapeGrid {
    bool walls; ///< indexes the world's walls (else its obstacles)
    double origin_x, origin_y, cell_w, cell_h, inv_w, inv_h;
    double max_radius; ///< the largest obstacle radius (0 for walls)
    int cols, rows;
    bool wrap;
    double width, height;
    int *cell_start; ///< cols·rows + 1
    int *items;      ///< obstacle slot indices, by cell, in slot order within a cell
    int item_capacity, cell_capacity;
    uint32_t *stamp; ///< by obstacle slot: last query that saw it (deduplication)
    int stamp_capacity;
    uint32_t query_stamp;
    int *result;
    int result_capacity;
} SteerShapeGrid;

void steer_grid_free(SteerGrid *grid, const SteerAllocator *alloc);
/// Makes room for `vehicles` vehicles and `slots` pool slots; false when memory runs out (every
/// array then keeps its size and contents).
bool steer_grid_reserve(SteerGrid *grid, const SteerAllocator *alloc, int vehicles, int slots);
/// Rebuilds the grid from the world's vehicles (never allocates: see steer_grid_reserve).
void steer_grid_build(SteerGrid *grid, const struct SteerWorld *world);
/// Rebuilds the world's grid if vehicles changed since the last build. Callable through a const
/// world: the grid is a cache of the vehicles, not state of its own.
const SteerGrid *steer_world_grid(const struct SteerWorld *world);
/// The same without gathering entry and where: cells, the float arrays and asker only (the step's
/// flocking fast path needs no more; steer_grid_gather completes it).
const SteerGrid *steer_world_grid_cells(const struct SteerWorld *world);
/// The index queries go through: the last build, plus what was spawned, moved or removed since
/// (entries gathered). Rebuilt only when every vehicle moved (a step) or none was ever indexed.
const SteerGrid *steer_world_query_grid(const struct SteerWorld *world);
/// Gathers entry and where from the last build, if not done yet.
void steer_grid_gather(const SteerGrid *grid);
/// Gathers now (on the pool) if a behaviour might gather while the step moves the vehicles and the
/// last build did not keep whole entries: a gather then would read vehicles already moved.
void steer_grid_gather_before_moves(const SteerGrid *grid, SteerThreadPool *pool);
/// The same, split over a pool's threads (NULL: on this one).
void steer_grid_gather_on(const SteerGrid *grid, SteerThreadPool *pool);
/// Grows the query result scratch; false when memory runs out.
bool steer_grid_reserve_results(SteerGrid *grid, const SteerAllocator *alloc, int count);

/* ---- Walking the cells around a point ------------------------------------------------------ */

/// Walks the runs of sorted vehicles whose cells may hold points within `radius` of a point.
typedef struct SteerGridCursor {
    const SteerGrid *grid;
    int row, row_hi;    ///< unwrapped rows still to walk
    int col_lo, col_hi; ///< unwrapped columns of every row
    int col;            ///< next unwrapped column in the current row
    bool wrap_each;     ///< the range covers the world more than once: wrap each offset instead
    bool every_run;     ///< also yield runs with no sorted vehicle (their cells may list placed ones)
} SteerGridCursor;

/// One run: sorted vehicles [begin, end); add (shift_x, shift_y) to their stored positions to get
/// the image nearest to the asker (both 0 when wrap_each is set: wrap every offset yourself).
typedef struct SteerGridRun {
    int begin, end;
    double shift_x, shift_y;
    int first_cell, cells; ///< the run's cells: first_cell .. first_cell + cells - 1
} SteerGridRun;

#define STEER_GRID_FLOAT_EXTENT 65536.0

/* Queries widen their cell range by this fraction of a cell so that a point exactly on a cell
 * border, after rounding, is never left out. */
#define CELL_MARGIN 1e-7

/* The cursor runs once or more per vehicle per step: it is inline, and skips integer division
 * and libm's floor() in the usual case. */
/// floor() without a libm call (x86-64 at -O2 has no inline floor); huge values are left to floor().
static inline double fast_floor(double f)
{
    if (!(f > -1e9 && f < 1e9)) return floor(f);
    long i = (long)f;
    return (double)(i - (f < (double)i));
}

static inline int clamp_cell(double f, int n)
{
    if (!(f >= 0.0)) return 0; /* also NaN */
    if (f >= (double)(n - 1)) return n - 1;
    return (int)f;
}

/* Cell indices are nearly always already in range or one off: skip the integer division then. */
static inline int floor_div(int a, int b)
{
    if ((unsigned)a < (unsigned)b) return 0;
    if (a < 0 && a >= -b) return -1;
    if (a >= b && a < 2 * b) return 1;
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static inline int positive_mod(int a, int b)
{
    if ((unsigned)a < (unsigned)b) return a;
    if (a < 0 && a >= -b) return a + b;
    if (a >= b && a < 2 * b) return a - b;
    int m = a % b;
    return m < 0 ? m + b : m;
}

/// The unwrapped cell range [*lo, *hi] along one axis; false when it covers the axis more than
/// once (wrapping) - then it is the whole axis.
static inline bool axis_range(double center, double radius, double origin, double inverse, int n, bool wrap, int *lo,
                              int *hi)
{
    double flo = fast_floor((center - radius - origin) * inverse - CELL_MARGIN);
    double fhi = fast_floor((center + radius - origin) * inverse + CELL_MARGIN);
    if (!wrap) {
        *lo = clamp_cell(flo, n);
        *hi = clamp_cell(fhi, n);
        return true;
    }
    if (!(fhi - flo + 1.0 <= (double)n)) {
        *lo = 0;
        *hi = n - 1;
        return false;
    }
    *lo = (int)flo;
    *hi = (int)fhi;
    return true;
}

static inline void steer_grid_cursor_begin(SteerGridCursor *cursor, const SteerGrid *g, double x, double y,
                                           double radius)
{
    cursor->grid = g;
    cursor->wrap_each = false;
    cursor->col_lo = cursor->col_hi = cursor->col = 0;
    cursor->every_run = g->touched_count > 0;
    if (g->count == 0 && !cursor->every_run) {
        cursor->row = 1;
        cursor->row_hi = 0;
        return;
    }
    bool once_x = axis_range(x, radius, g->origin_x, g->inv_w, g->cols, g->wrap, &cursor->col_lo, &cursor->col_hi);
    bool once_y = axis_range(y, radius, g->origin_y, g->inv_h, g->rows, g->wrap, &cursor->row, &cursor->row_hi);
    cursor->wrap_each = !(once_x && once_y);
    cursor->col = cursor->col_lo;
}

static inline bool steer_grid_cursor_next(SteerGridCursor *cursor, SteerGridRun *run)
{
    const SteerGrid *g = cursor->grid;
    while (cursor->row <= cursor->row_hi) {
        if (cursor->col > cursor->col_hi) {
            cursor->row++;
            cursor->col = cursor->col_lo;
            continue;
        }
        int row = cursor->row, col = cursor->col;
        int r = g->wrap ? positive_mod(row, g->rows) : row;
        int c = g->wrap ? positive_mod(col, g->cols) : col;
        /* Consecutive cells of a row are consecutive in memory, up to the world's edge. */
        int length = cursor->col_hi - col + 1;
        if (length > g->cols - c) length = g->cols - c;
        cursor->col += length;
        int first = r * g->cols + c;
        run->begin = g->cell_start[first];
        run->end = g->cell_start[first + length];
        run->first_cell = first;
        run->cells = length;
        if (g->wrap && !cursor->wrap_each) {
            run->shift_x = floor_div(col, g->cols) * g->width;
            run->shift_y = floor_div(row, g->rows) * g->height;
        } else {
            run->shift_x = run->shift_y = 0.0;
        }
        if (run->begin < run->end || cursor->every_run) return true;
    }
    return false;
}

static inline double steer_grid_wrap_coordinate(double value, double size)
{
    if (value >= 0.0 && value < size) return value; /* the usual case after a step: no floor() */
    double wrapped = value - size * floor(value / size);
    /* Rounding can give exactly `size`; absurdly large inputs can give anything. */
    return (wrapped >= 0.0 && wrapped < size) ? wrapped : 0.0;
}

/// A point as the grid stores positions (wrapped into the world in a wrapping world).
static inline SteerVec2 steer_grid_local_point(const SteerGrid *g, SteerVec2 point)
{
    if (!g->wrap) return point;
    return steer_vec2(steer_grid_wrap_coordinate(point.x, g->width), steer_grid_wrap_coordinate(point.y, g->height));
}

static inline void steer_grid_bounds_clear(SteerGridBounds *b)
{
    b->max_neighbor_radius = b->max_radius = b->max_speed_sq = 0.0;
    b->all_kinds = 0;
    b->common_kinds = ~0ULL;
    b->min_x = b->min_y = INFINITY;
    b->max_x = b->max_y = -INFINITY;
}
/// Widens `into` by `b` (the shares of a parallel step's tasks): the same bounds in any order.
static inline void steer_grid_bounds_merge(SteerGridBounds *into, const SteerGridBounds *b)
{
    if (b->max_neighbor_radius > into->max_neighbor_radius) into->max_neighbor_radius = b->max_neighbor_radius;
    if (b->max_radius > into->max_radius) into->max_radius = b->max_radius;
    if (b->max_speed_sq > into->max_speed_sq) into->max_speed_sq = b->max_speed_sq;
    into->all_kinds |= b->all_kinds;
    into->common_kinds &= b->common_kinds;
    if (b->min_x < into->min_x) into->min_x = b->min_x;
    if (b->min_y < into->min_y) into->min_y = b->min_y;
    if (b->max_x > into->max_x) into->max_x = b->max_x;
    if (b->max_y > into->max_y) into->max_y = b->max_y;
}

/// The shortest offset along one wrapped axis of length `size`.
static inline double steer_grid_wrap_delta(double delta, double size)
{
    if (delta > 0.5 * size || delta < -0.5 * size) return delta - size * floor(delta / size + 0.5);
    return delta;
}

/// Sorts ints ascending in place without allocating (glibc's qsort may call malloc for larger
/// arrays, and queries run inside the step): Shell sort with Ciura's gaps, insertion sort when short.
void steer_sort_ints(int *a, int n);

/* ---- Obstacles and walls ------------------------------------------------------------------- */

void steer_shape_grid_free(SteerShapeGrid *grid, const SteerAllocator *alloc);
/// The world's obstacle grid, rebuilt if obstacles changed; NULL when memory ran out (callers
/// then scan every obstacle).
const SteerShapeGrid *steer_world_obstacle_grid(const struct SteerWorld *world);
/// The world's wall grid, rebuilt if walls changed; NULL when memory ran out, when a wrapping
/// world's walls lie too far out to place, or when world->wall_grid_off (callers then scan every wall).
const SteerShapeGrid *steer_world_wall_grid(const struct SteerWorld *world);
/// Slots (of obstacles or walls) whose cells touch the box [lo, hi] (unwrapped coordinates), each
/// once, in slot order. Returns how many, written to grid->result (the grid's scratch).
int steer_shape_grid_candidates(const SteerShapeGrid *grid, SteerVec2 lo, SteerVec2 hi);

#endif
