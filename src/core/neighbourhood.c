/* SPDX-License-Identifier: MIT */
/* neighbourhood.c - the one pass over a vehicle's neighbours that separation, alignment, cohesion
 * and flocking share, straight over the grid's cell-ordered arrays.
 *
 * This is the hot loop of every flock. About a third of the candidates in the 3 x 3 cells pass the
 * radius test, unpredictably, so the test is never a branch (measured: a branch there doubles
 * the cost of the loop). Two paths:
 *  - fast: all-round vision and every kind in the world one the asker flocks with (a group
 *    sharing its parameters). Four candidates at a time in single precision with GCC/Clang vector
 *    extensions; the radius test is a lane mask.
 *  - general: kinds, view cone, comfort distance, an excluded vehicle, grids too large for floats,
 *    other compilers. Double precision; candidates that pass are packed into a buffer without a
 *    branch and summed afterwards, so the division runs only for them. One loop per set of tests
 *    a query needs (pack_general): prey among hunters test distance and kind alone.
 * Both give the same sums for the same neighbours (the fast path to float precision).
 *
 * A step sums the neighbourhoods of everyone who wants one first, cell by cell
 * (steer_prepare_neighbourhoods): all vehicles of a cell share the 3 x 3 block, worked out once,
 * and the block stays in cache while they use it. Behaviours then read the packed sums back.
 */
#include <stddef.h>
#include <string.h>

#include "behaviours_internal.h"

/* Squared distances up to this count as "the same point": r/|r|² is replaced by a push along the
 * side (add_coincident) and never divides by zero. */
#define COINCIDENT_SQ 1e-12

typedef struct Query {
    double px, py;          ///< the asker, as stored by the grid
    double hx, hy;          ///< its heading
    double r2;              ///< neighbour radius squared
    double cos_half;        ///< cosine of half the view angle; < -1: all-round vision
    double comfort2, extra; ///< comfort distance squared (<= 0: none); multiplier - 1
    uint64_t kinds;
    int self, exclude; ///< cell-order indices of the asker and of one more to leave out (-1: none)
} Query;

/* Candidates that pass are first packed, without a branch, into a small buffer; the sums are
 * then taken over the packed neighbours only. The division in r/|r|² is the slowest operation of
 * the loop, and this way it runs for the third of the candidates that pass instead of for all. */
#define PACK 128

typedef struct Sums {
    double sx, sy, ax, ay, cx, cy;
    int count, zero; ///< neighbours; candidates at distance 0 (the asker itself included)
    int packed;      ///< neighbours in the buffer, not yet summed
    bool weighted;   ///< weight[] holds the weights (a comfort distance); else every weight is 1
    double dx[PACK], dy[PACK], d2[PACK], weight[PACK];
    int index[PACK];
} Sums;

#if defined(__GNUC__)
#define ALWAYS_INLINE __attribute__((always_inline))
#else
#define ALWAYS_INLINE
#endif

/// Sums the packed neighbours into s (weight / d2 for separation; headings from the compact
/// copies, the entries' to the bit).
static inline ALWAYS_INLINE void sum_packed_as(const SteerGrid *g, Sums *s, bool weighted)
{
    double sx = 0.0, sy = 0.0, ax = 0.0, ay = 0.0, cx = 0.0, cy = 0.0;
    for (int i = 0; i < s->packed; i++) {
        double dx = s->dx[i], dy = s->dy[i];
        /* d2 > COINCIDENT_SQ: packed neighbours are never on the asker's point */
        double inv = (weighted ? s->weight[i] : 1.0) / s->d2[i];
        sx -= dx * inv;
        sy -= dy * inv;
        ax += g->exact[s->index[i]].hx;
        ay += g->exact[s->index[i]].hy;
        cx += dx;
        cy += dy;
    }
    s->sx += sx;
    s->sy += sy;
    s->ax += ax;
    s->ay += ay;
    s->cx += cx;
    s->cy += cy;
    s->count += s->packed;
    s->packed = 0;
}

static void sum_packed(const SteerGrid *g, Sums *s)
{
    if (s->weighted)
        sum_packed_as(g, s, true);
    else
        sum_packed_as(g, s, false);
}

/* The fast path: all-round vision, every kind in the world is one the asker flocks with, no
 * comfort distance, nobody else to leave out - a flock whose members share their parameters. Per
 * candidate: an offset, a squared distance, a comparison, five stores. The asker itself and anyone
 * on its very point (d2 = 0) are not packed; they are counted in `zero`. */
static void pack_fast(const SteerGrid *g, double r2, int begin, int end, double ox, double oy, Sums *s)
{
    int n = s->packed, zero = 0;
    for (int j = begin; j < end; j++) {
        double dx = g->entry[j].x - ox, dy = g->entry[j].y - oy;
        double d2 = dx * dx + dy * dy;
        s->dx[n] = dx;
        s->dy[n] = dy;
        s->d2[n] = d2;
        s->weight[n] = 1.0;
        s->index[n] = j;
        n += (d2 <= r2) & (d2 > COINCIDENT_SQ);
        zero += d2 <= COINCIDENT_SQ;
    }
    s->packed = n;
    s->zero += zero;
}

#if defined(__GNUC__)
/* Four at a time in single precision (float_ok grids): positions relative to the grid's origin
 * are good to a few thousandths of a unit, so only a neighbour that close to the edge of the
 * radius can come out the other way than in double precision. */
typedef float Quad __attribute__((vector_size(16)));
typedef int QuadMask __attribute__((vector_size(16)));

typedef struct QuadSums {
    Quad sx, sy, ax, ay, cx, cy;
    QuadMask count, zero;
} QuadSums;

static inline Quad load_quad(const float *p)
{
    Quad v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline __attribute__((always_inline)) void quad_step(const float *fx, const float *fy, const float *fhx,
                                                            const float *fhy, Quad vox, Quad voy, Quad vr2,
                                                            QuadMask keep, QuadSums *p)
{
    const Quad eps = {1e-12f, 1e-12f, 1e-12f, 1e-12f}, one = {1.0f, 1.0f, 1.0f, 1.0f};
    Quad dx = load_quad(fx) - vox, dy = load_quad(fy) - voy;
    Quad d2 = dx * dx + dy * dy;
    QuadMask near = (d2 <= vr2) & keep;
    Quad w = (Quad)(near & (QuadMask)one);
    Quad inv = w / (d2 + eps);
    p->sx -= dx * inv;
    p->sy -= dy * inv;
    p->ax += w * load_quad(fhx);
    p->ay += w * load_quad(fhy);
    p->cx += w * dx;
    p->cy += w * dy;
    p->count -= near;
    p->zero -= (d2 <= eps) & keep;
}

static inline __attribute__((always_inline)) void quad_run(const SteerGrid *g, float r2, int begin, int end, float ox,
                                                           float oy, QuadSums *p)
{
    const Quad vox = {ox, ox, ox, ox}, voy = {oy, oy, oy, oy}, vr2 = {r2, r2, r2, r2};
    const QuadMask all = {-1, -1, -1, -1};
    int j = begin;
    /* Sums in registers for the run (a local copy the compiler need not keep in memory). */
    QuadSums local = *p;
    for (; j + 4 <= end; j += 4) quad_step(g->fx + j, g->fy + j, g->fhx + j, g->fhy + j, vox, voy, vr2, all, &local);
    *p = local;
    int left = end - j;
    if (left == 0) return;
    if (end >= 4) {
        /* The last one to three: the four slots ending at `end`, the lanes already summed (or
         * before `begin`, another cell's) masked off. */
        const QuadMask lane = {0, 1, 2, 3};
        QuadMask keep = lane >= (4 - left);
        int at = end - 4;
        quad_step(g->fx + at, g->fy + at, g->fhx + at, g->fhy + at, vox, voy, vr2, keep, p);
        return;
    }
    for (; j < end; j++) { /* at the very start of the arrays: one at a time, same arithmetic */
        float dx = g->fx[j] - ox, dy = g->fy[j] - oy;
        float d2 = dx * dx + dy * dy;
        float w = d2 <= r2 ? 1.0f : 0.0f;
        float inv = w / (d2 + 1e-12f);
        p->sx[0] -= dx * inv;
        p->sy[0] -= dy * inv;
        p->ax[0] += w * g->fhx[j];
        p->ay[0] += w * g->fhy[j];
        p->cx[0] += w * dx;
        p->cy[0] += w * dy;
        p->count[0] += d2 <= r2;
        p->zero[0] += d2 <= 1e-12f;
    }
}

static inline double quad_total(Quad v) { return (double)v[0] + (double)v[1] + (double)v[2] + (double)v[3]; }

static void sum_fast_quads(const SteerGrid *g, const Query *q, SteerGridCursor *cursor, Sums *s)
{
    QuadSums p = {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0},
                  {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}};
    float r2 = (float)q->r2;
    double px = q->px - g->origin_x, py = q->py - g->origin_y;
    if (cursor->col_lo >= 0 && cursor->col_hi < g->cols && cursor->row >= 0 && cursor->row_hi < g->rows) {
        for (int row = cursor->row; row <= cursor->row_hi; row++) {
            const int *starts = g->cell_start + row * g->cols;
            quad_run(g, r2, starts[cursor->col_lo], starts[cursor->col_hi + 1], (float)px, (float)py, &p);
        }
    } else {
        SteerGridRun run;
        while (steer_grid_cursor_next(cursor, &run))
            quad_run(g, r2, run.begin, run.end, (float)(px - run.shift_x), (float)(py - run.shift_y), &p);
    }
    s->sx = quad_total(p.sx);
    s->sy = quad_total(p.sy);
    s->ax = quad_total(p.ax) - g->entry[q->self].hx;
    s->ay = quad_total(p.ay) - g->entry[q->self].hy;
    s->cx = quad_total(p.cx);
    s->cy = quad_total(p.cy);
    s->count = p.count[0] + p.count[1] + p.count[2] + p.count[3] - 1;
    s->zero = p.zero[0] + p.zero[1] + p.zero[2] + p.zero[3];
}

/// Returns false (and sums nothing) when the vector path does not apply: a radius that covers a
/// wrapping world more than once, or a grid too large for single precision.
static bool sum_fast_vectors(const SteerGrid *g, const Query *q, double radius, Sums *s)
{
    if (!g->float_ok) return false;
    SteerGridCursor cursor;
    steer_grid_cursor_begin(&cursor, g, q->px, q->py, radius);
    if (cursor.wrap_each) return false;
    sum_fast_quads(g, q, &cursor, s);
    return true;
}
#endif

/* The general path: kinds, a view cone, a comfort distance, one more vehicle to leave out; still
 * no branch on the candidates. One candidate, sorted index j, through the tests, over the compact
 * copies of position, heading and kind (grid.h: exact, entry_kind; the entry's values, 33 bytes
 * rather than two cache lines). `wrap` (wrap each offset itself: a radius that covers a wrapping
 * world more than once, where runs carry no shift), `cone`, `comfort` and `exclude` are constants
 * where pack_general calls it, so each of its loops has only the tests its query needs: a vehicle
 * that flocks with some kinds only, all round (prey among hunters), tests distance and kind alone,
 * and stores no weight (s->weighted is false: every weight is 1). */
typedef struct Tests {
    double r2, hx, hy, cos_half, comfort2, extra;
    uint64_t kinds;
    int exclude;
} Tests;

static inline ALWAYS_INLINE void pack_candidate(const SteerGrid *g, Tests t, int j, double ox, double oy, bool wrap,
                                                bool cone, bool comfort, bool exclude, Sums *s, int *n, int *zero)
{
    double dx = g->exact[j].x - ox, dy = g->exact[j].y - oy;
    if (wrap) {
        dx = steer_grid_wrap_delta(dx, g->width);
        dy = steer_grid_wrap_delta(dy, g->height);
    }
    double d2 = dx * dx + dy * dy;
    int m = (d2 <= t.r2) & (d2 > COINCIDENT_SQ) & (int)((t.kinds >> g->entry_kind[j]) & 1u);
    if (exclude) m &= j != t.exclude;
    if (cone) m &= dx * t.hx + dy * t.hy >= t.cos_half * sqrt(d2);
    int at = *n;
    s->dx[at] = dx;
    s->dy[at] = dy;
    s->d2[at] = d2;
    if (comfort) s->weight[at] = d2 < t.comfort2 ? 1.0 + t.extra : 1.0;
    s->index[at] = j;
    *n = at + m;
    *zero += d2 <= COINCIDENT_SQ;
}

/// Every candidate of [begin, end) through the tests its query needs. `g->kinds_path_off` (tests):
/// through all of them, the reference the specialised loops must match to the bit.
static void pack_general(const SteerGrid *g, const Query *q, int begin, int end, double ox, double oy, bool wrap,
                         Sums *s)
{
    /* The query's values by value, in registers: stores into s could otherwise alias them. */
    const Tests t = {q->r2, q->hx, q->hy, q->cos_half, q->comfort2, q->extra, q->kinds, q->exclude};
    const bool cone = t.cos_half >= -1.0, comfort = t.comfort2 > 0.0, exclude = t.exclude >= 0;
    int n = s->packed, zero = 0;
    if (wrap || g->kinds_path_off) { /* s->weighted is set for these (sum_neighbourhood) */
        for (int j = begin; j < end; j++) pack_candidate(g, t, j, ox, oy, wrap, true, true, true, s, &n, &zero);
    } else if (!cone && !comfort && !exclude) { /* kinds only, all round: prey among hunters */
        for (int j = begin; j < end; j++) pack_candidate(g, t, j, ox, oy, false, false, false, false, s, &n, &zero);
    } else {
        for (int j = begin; j < end; j++) pack_candidate(g, t, j, ox, oy, false, cone, comfort, exclude, s, &n, &zero);
    }
    s->packed = n;
    s->zero += zero;
}

uint64_t steer_flock_kinds(const SteerVehicle *vehicle)
{
    return vehicle->flock_kinds ? vehicle->flock_kinds : 1ULL << vehicle->kind;
}

/// Vehicles on the very same point have no direction between them. They count as neighbours
/// (heading, count) and are split deterministically: the one created first goes to its right,
/// the other to its left, each as hard as a neighbour one unit away would push. Rare, so a second
/// look at the asker's cell is fine.
static void add_coincident(const SteerGrid *g, const Query *q, bool counted, Sums *s)
{
    int my_rank = g->entry[q->self].rank;
    SteerGridCursor cursor;
    SteerGridRun run;
    steer_grid_cursor_begin(&cursor, g, q->px, q->py, 1e-6);
    while (steer_grid_cursor_next(&cursor, &run)) {
        for (int j = run.begin; j < run.end; j++) {
            if (j == q->self || j == q->exclude || !((q->kinds >> g->entry[j].kind) & 1u)) continue;
            double dx = g->entry[j].x - q->px, dy = g->entry[j].y - q->py;
            if (g->wrap) {
                dx = steer_grid_wrap_delta(dx, g->width);
                dy = steer_grid_wrap_delta(dy, g->height);
            }
            if (dx * dx + dy * dy > COINCIDENT_SQ) continue;
            double sign = g->entry[j].rank > my_rank ? 1.0 : -1.0;
            /* side = heading rotated +90 degrees */
            s->sx += -q->hy * sign;
            s->sy += q->hx * sign;
            if (counted) continue; /* the fast path summed them as neighbours already */
            s->ax += g->entry[j].hx;
            s->ay += g->entry[j].hy;
            s->count++;
        }
    }
}

/// Can this query take the fast path?
static bool fast_path(const SteerGrid *g, const Query *q)
{
    return q->cos_half < -1.0 && q->comfort2 <= 0.0 && q->exclude < 0 && (g->all_kinds & ~q->kinds) == 0;
}

/// The neighbourhood of sorted vehicle `q->self` within `radius`.
static void sum_neighbourhood(const SteerGrid *g, const Query *q, double radius, SteerNeighbourhood *out)
{
    Sums s;
    memset(&s, 0, offsetof(Sums, dx));
    bool counted = false;
#if defined(__GNUC__)
    counted = fast_path(g, q) && sum_fast_vectors(g, q, radius, &s);
#endif
    if (!counted) {
        bool fast = fast_path(g, q);
        SteerGridCursor cursor;
        SteerGridRun run;
        steer_grid_cursor_begin(&cursor, g, q->px, q->py, radius);
        s.weighted = q->comfort2 > 0.0 || cursor.wrap_each || g->kinds_path_off || fast;
        while (steer_grid_cursor_next(&cursor, &run)) {
            /* Candidate offsets are stored position + shift - asker: fold the shift into the origin. */
            double ox = q->px - run.shift_x, oy = q->py - run.shift_y;
            /* Pack in pieces that fit the buffer whatever the crowd. */
            for (int begin = run.begin; begin < run.end; begin += PACK / 2) {
                int end = run.end - begin > PACK / 2 ? begin + PACK / 2 : run.end;
                if (s.packed > PACK / 2) sum_packed(g, &s);
                if (fast && !cursor.wrap_each)
                    pack_fast(g, q->r2, begin, end, ox, oy, &s);
                else
                    pack_general(g, q, begin, end, ox, oy, cursor.wrap_each, &s);
            }
        }
        sum_packed(g, &s);
    }
    if (s.zero > 1) add_coincident(g, q, counted, &s);
    out->separation = steer_vec2(s.sx, s.sy);
    out->heading_sum = steer_vec2(s.ax, s.ay);
    out->offset_sum = steer_vec2(s.cx, s.cy);
    out->count = s.count;
    out->coincident = s.zero - 1;
}

/// The asker's part of a query, from the grid's own copy of it.
static Query query_for(const SteerGrid *g, int k)
{
    Query q;
    q.self = k;
    q.exclude = -1;
    q.px = g->entry[k].x;
    q.py = g->entry[k].y;
    q.hx = g->entry[k].hx;
    q.hy = g->entry[k].hy;
    q.r2 = g->entry[k].neighbor_radius * g->entry[k].neighbor_radius;
    q.cos_half = g->entry[k].view_cos;
    q.comfort2 = -1.0;
    q.extra = 0.0;
    q.kinds = g->entry[k].flock_kinds;
    return q;
}

static void pack_neighbourhood(const SteerNeighbourhood *n, SteerPackedNeighbourhood *packed)
{
    packed->separation[0] = (float)n->separation.x;
    packed->separation[1] = (float)n->separation.y;
    packed->heading_sum[0] = (float)n->heading_sum.x;
    packed->heading_sum[1] = (float)n->heading_sum.y;
    packed->offset_sum[0] = (float)n->offset_sum.x;
    packed->offset_sum[1] = (float)n->offset_sum.y;
    packed->count = n->count;
}

#if defined(__GNUC__)
/// The runs of cell `cx, cy`'s 3 x 3 block, with their shifts; false when the block would visit
/// a column or row twice (a wrapping world under three cells across).
static inline __attribute__((always_inline)) int block_runs(const SteerGrid *g, int cx, int cy, SteerGridRun runs[6])
{
    if (g->wrap && (g->cols < 3 || g->rows < 3)) return -1;
    int n = 0;
    int col_lo = cx - 1, col_hi = cx + 1, row_lo = cy - 1, row_hi = cy + 1;
    if (!g->wrap) {
        if (col_lo < 0) col_lo = 0;
        if (col_hi >= g->cols) col_hi = g->cols - 1;
        if (row_lo < 0) row_lo = 0;
        if (row_hi >= g->rows) row_hi = g->rows - 1;
    }
    for (int row = row_lo; row <= row_hi; row++) {
        int r = positive_mod(row, g->rows);
        double shift_y = (double)floor_div(row, g->rows) * g->height;
        for (int col = col_lo; col <= col_hi;) {
            int c = positive_mod(col, g->cols);
            int length = col_hi - col + 1;
            if (length > g->cols - c) length = g->cols - c;
            const int *starts = g->cell_start + r * g->cols;
            runs[n].begin = starts[c];
            runs[n].end = starts[c + length];
            runs[n].shift_x = (double)floor_div(col, g->cols) * g->width;
            runs[n].shift_y = shift_y;
            n++;
            col += length;
        }
    }
    return n;
}

#define HOOD_AHEAD 8 /* vehicles: a few times the pre-pass's time per vehicle covers a miss */

/// The neighbourhood of sorted vehicle k, whose cell's 3 x 3 block is `runs`, into hood (by its
/// rank). Returns false, writing only a mark (hood.unused = 1), when it needs the whole entries
/// (a slow asker, or vehicles on its very point) and they are not gathered and `may_gather` is
/// false: a parallel pre-pass leaves those to steer_prepare_neighbourhoods.
static inline __attribute__((always_inline)) bool prepare_one(const SteerGrid *g, int k, const SteerGridRun *runs,
                                                              int run_count, bool may_gather)
{
    const SteerGridAsker *a = &g->asker[k];
    SteerPackedNeighbourhood *packed = &g->hood[a->rank];
    if (!a->fast) {
        if (!g->gathered && !may_gather) {
            packed->unused = 1;
            return false;
        }
        steer_grid_gather(g); /* the general path reads whole entries */
        Query q = query_for(g, k);
        SteerNeighbourhood n;
        sum_neighbourhood(g, &q, g->entry[k].neighbor_radius, &n);
        pack_neighbourhood(&n, packed);
        packed->unused = 0;
        return true;
    }
    QuadSums p = {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0},
                  {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}};
    float r2 = a->r2;
    for (int r = 0; r < run_count; r++)
        quad_run(g, r2, runs[r].begin, runs[r].end, g->fx[k] - (float)runs[r].shift_x,
                 g->fy[k] - (float)runs[r].shift_y, &p);
    Sums s;
    s.sx = quad_total(p.sx);
    s.sy = quad_total(p.sy);
    s.ax = quad_total(p.ax) - g->fhx[k];
    s.ay = quad_total(p.ay) - g->fhy[k];
    s.cx = quad_total(p.cx);
    s.cy = quad_total(p.cy);
    s.count = p.count[0] + p.count[1] + p.count[2] + p.count[3] - 1;
    s.zero = p.zero[0] + p.zero[1] + p.zero[2] + p.zero[3];
    if (s.zero > 1) { /* rare: a second look, at whole entries */
        if (!g->gathered && !may_gather) {
            packed->unused = 1;
            return false;
        }
        steer_grid_gather(g);
        Query q = query_for(g, k);
        add_coincident(g, &q, true, &s);
    }
    /* By creation order, the order the step reads them in: the scattered accesses are these
     * writes, which nothing waits for, rather than the step's reads, which it would. */
    packed->separation[0] = (float)s.sx;
    packed->separation[1] = (float)s.sy;
    packed->heading_sum[0] = (float)s.ax;
    packed->heading_sum[1] = (float)s.ay;
    packed->offset_sum[0] = (float)s.cx;
    packed->offset_sum[1] = (float)s.cy;
    packed->count = s.count;
    packed->unused = 0;
    return true;
}

/// The pre-pass over rows [row_begin, row_end) of cells. `only_marked`: only the vehicles an
/// earlier pass left marked. Returns how many it left marked (never any when may_gather).
static inline __attribute__((always_inline)) int prepare_rows(const SteerGrid *g, int row_begin, int row_end,
                                                              bool may_gather, bool only_marked)
{
    int left = 0;
    for (int cy = row_begin; cy < row_end; cy++) {
        for (int cx = 0; cx < g->cols; cx++) {
            int cell = cy * g->cols + cx;
            int begin = g->cell_start[cell], end = g->cell_start[cell + 1];
            if (begin == end) continue;
            SteerGridRun runs[6];
            int run_count = block_runs(g, cx, cy, runs);
            for (int k = begin; k < end; k++) {
                /* The sums are stored by creation order: scattered writes, and x86 commits stores in
                 * order, so a store that misses the cache holds up every store behind it. Ask for
                 * the line a few vehicles ahead, for writing (40 ns a vehicle at 100,000 without). */
                if (k + HOOD_AHEAD < g->count)
                    steer_prefetch_write(&g->hood[g->asker[k + HOOD_AHEAD].rank], g->prefetchw);
                if (!g->asker[k].wants) continue;
                if (only_marked && g->hood[g->asker[k].rank].unused != 1) continue;
                if (!prepare_one(g, k, runs, run_count, may_gather)) left++;
            }
        }
    }
    return left;
}

/* The pre-pass walks the grid cell by cell: every vehicle of a cell looks at the same 3 x 3 block
 * (cells are at least as large as any neighbour radius), so the runs are worked out once per cell
 * and the fast path goes straight to the four-at-a-time loop. Rows of cells are independent, so
 * a pool's threads take a band of rows each, about as many vehicles in each band. */
typedef struct HoodJob {
    const SteerGrid *g;
    int row_begin[STEER_MAX_THREADS + 1];
    int left[STEER_MAX_THREADS];
} HoodJob;

static void prepare_band(void *context, int t, int tasks)
{
    (void)tasks;
    HoodJob *job = context;
    job->left[t] = prepare_rows(job->g, job->row_begin[t], job->row_begin[t + 1], false, false);
}

static bool prepare_by_cells(const SteerGrid *g, SteerThreadPool *pool)
{
    if (!g->float_ok) return false;
    if (g->wrap && (g->cols < 3 || g->rows < 3)) return false; /* a 3 x 3 block would visit a cell twice */
    if (!pool) {
        prepare_rows(g, 0, g->rows, true, false);
        return true;
    }
    if (g->slow_askers) steer_grid_gather_on(g, pool);
    HoodJob job;
    job.g = g;
    int tasks = steer_thread_pool_size(pool);
    /* Band t starts at the first row whose vehicles begin at or past t/tasks of them. */
    int row = 0;
    for (int t = 0; t < tasks; t++) {
        long long first = (long long)g->count * t / tasks;
        while (row < g->rows && g->cell_start[row * g->cols] < first) row++;
        job.row_begin[t] = row;
    }
    job.row_begin[tasks] = g->rows;
    steer_thread_pool_run(pool, prepare_band, &job);
    for (int t = 0; t < tasks; t++) {
        if (job.left[t] == 0) continue;
        steer_grid_gather_on(g, pool);
        prepare_rows(g, job.row_begin[t], job.row_begin[t + 1], true, true);
    }
    return true;
}
#endif

/// The general pre-pass over sorted vehicles [begin, end) (whole entries gathered).
static void prepare_general(const SteerGrid *g, int begin, int end)
{
    for (int k = begin; k < end; k++) {
        if (!g->entry[k].wants) continue;
        Query q = query_for(g, k);
        SteerNeighbourhood n;
        sum_neighbourhood(g, &q, g->entry[k].neighbor_radius, &n);
        pack_neighbourhood(&n, &g->hood[g->entry[k].rank]);
    }
}

static void prepare_general_task(void *context, int t, int tasks)
{
    const SteerGrid *g = context;
    int begin, end;
    steer_task_range(g->count, tasks, t, &begin, &end);
    prepare_general(g, begin, end);
}

void steer_prepare_neighbourhoods(SteerWorld *world)
{
    const SteerGrid *g = steer_world_grid_cells(world);
    SteerThreadPool *pool = steer_world_step_pool(world);
    world->hoods_ready = true;
#if defined(__GNUC__)
    if (prepare_by_cells(g, pool)) return;
#endif
    steer_grid_gather_on(g, pool);
    steer_thread_pool_run(pool, prepare_general_task, (void *)g);
}

void steer_neighbourhood(const SteerWorld *world, const SteerVehicle *vehicle, int exclude_slot,
                         double comfort_distance, double comfort_multiplier, SteerNeighbourhood *out)
{
    bool comfort = comfort_distance > 0.0 && comfort_multiplier != 1.0;
    if (world->hoods_ready && vehicle->wants_neighbourhood && exclude_slot < 0 && !comfort) {
        /* Summed by the pre-pass of this step's build, in which the vehicle's rank is its creation
         * index: straight there, without the two scattered reads (where, entry) that find it. */
        const SteerPackedNeighbourhood *packed = &world->grid.hood[vehicle->rank];
        out->separation = steer_vec2(packed->separation[0], packed->separation[1]);
        out->heading_sum = steer_vec2(packed->heading_sum[0], packed->heading_sum[1]);
        out->offset_sum = steer_vec2(packed->offset_sum[0], packed->offset_sum[1]);
        out->count = packed->count;
        out->coincident = 0; /* already turned into separation */
        return;
    }
    const SteerGrid *g = steer_world_grid(world);
    int k = g->where[steer_vehicle_slot(world, vehicle)];
    Query q = query_for(g, k);
    q.exclude = exclude_slot >= 0 ? g->where[exclude_slot] : -1;
    q.comfort2 = comfort ? comfort_distance * comfort_distance : -1.0;
    q.extra = comfort_multiplier - 1.0;
    sum_neighbourhood(g, &q, g->entry[k].neighbor_radius, out);
}
