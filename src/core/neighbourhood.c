/* neighbourhood.c - the one pass over a vehicle's neighbours that separation, alignment, cohesion
 * and flocking share, straight over the grid's cell-ordered arrays.
 *
 * This is the hot loop of every flock. About a third of the candidates in the 3 x 3 cells pass the
 * radius test, unpredictably, so the test is not a branch (DESIGN.md "Speed": a branch here doubles
 * the cost): every candidate is written to a buffer whose end advances only when it passes. A fast path serves the common
 * case - all-round vision, every kind around is one the asker flocks with - with nothing but the
 * distance test per candidate; the general path beside it adds kinds, view cone, comfort distance
 * and an excluded vehicle. Both give the same sums for the same neighbours.
 *
 * Flocks sum their neighbourhoods at the start of the step, in cell order (steer_prepare_
 * neighbourhoods): consecutive vehicles then look at the same cells, which stay in cache.
 */
#include <stddef.h>
#include <string.h>

#include "behaviours_internal.h"

/* Squared distances up to this count as "the same point": r/|r|² is replaced by a push along the
 * side (add_coincident) and never divides by zero. */
#define COINCIDENT_SQ 1e-12

typedef struct Query {
    double px, py;         ///< the asker, as stored by the grid
    double hx, hy;         ///< its heading
    double r2;             ///< neighbour radius squared
    double cos_half;       ///< cosine of half the view angle; < -1: all-round vision
    double comfort2, extra;///< comfort distance squared (<= 0: none); multiplier - 1
    uint64_t kinds;
    int self, exclude;     ///< cell-order indices of the asker and of one more to leave out (-1: none)
} Query;

/* Candidates that pass are first packed, without a branch, into a small buffer; the sums are
 * then taken over the packed neighbours only. The division in r/|r|² is the slowest operation of
 * the loop, and this way it runs for the third of the candidates that pass instead of for all. */
#define PACK 128

typedef struct Sums {
    double sx, sy, ax, ay, cx, cy;
    int count, zero;       ///< neighbours; candidates at distance 0 (the asker itself included)
    int packed;            ///< neighbours in the buffer, not yet summed
    double dx[PACK], dy[PACK], d2[PACK], weight[PACK];
    int index[PACK];
} Sums;

static void sum_packed(const SteerGrid *g, Sums *s)
{
    const double *restrict hxs = g->hx, *restrict hys = g->hy;
    double sx = 0.0, sy = 0.0, ax = 0.0, ay = 0.0, cx = 0.0, cy = 0.0;
    for (int i = 0; i < s->packed; i++) {
        double dx = s->dx[i], dy = s->dy[i];
        double inv = s->weight[i] / s->d2[i]; /* d2 > COINCIDENT_SQ: packed neighbours are never on the asker's point */
        sx -= dx * inv;
        sy -= dy * inv;
        ax += hxs[s->index[i]];
        ay += hys[s->index[i]];
        cx += dx;
        cy += dy;
    }
    s->sx += sx; s->sy += sy; s->ax += ax; s->ay += ay; s->cx += cx; s->cy += cy;
    s->count += s->packed;
    s->packed = 0;
}

/* The fast path: all-round vision, every kind in the world is one the asker flocks with, no
 * comfort distance, nobody else to leave out - a flock whose members share their parameters. Per
 * candidate: an offset, a squared distance, a comparison, five stores. The asker itself and anyone
 * on its very point (d2 = 0) are not packed; they are counted in `zero`. */
static void pack_fast(const SteerGrid *g, double r2, int begin, int end, double ox, double oy, Sums *s)
{
    const double *restrict xs = g->x, *restrict ys = g->y;
    int n = s->packed, zero = 0;
    for (int j = begin; j < end; j++) {
        double dx = xs[j] - ox, dy = ys[j] - oy;
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
/* The fast path, two candidates at a time with GCC/Clang vector extensions (SSE2 on x86-64, NEON
 * on ARM): everything a candidate needs sits in the same slots of the cell-ordered arrays, so a
 * pair loads as one vector and the 0/1 weight is a comparison mask. One comparison, one division
 * per pair, sums kept in vectors across all the runs of the neighbourhood. The asker itself
 * (d2 = 0) passes the test; its offset is zero, and its heading and count are taken out at the end. */
typedef double Pair __attribute__((vector_size(16)));
typedef long long PairMask __attribute__((vector_size(16)));

static inline Pair load_pair(const double *p)
{
    Pair v;
    memcpy(&v, p, sizeof v);
    return v;
}

typedef struct PairSums {
    Pair sx, sy, ax, ay, cx, cy;
    PairMask count, zero;
} PairSums;

static inline __attribute__((always_inline)) void pair_run(const SteerGrid *g, double r2, int begin, int end, double ox,
                                                           double oy, PairSums *p)
{
    const Pair vox = {ox, ox}, voy = {oy, oy}, vr2 = {r2, r2}, eps = {COINCIDENT_SQ, COINCIDENT_SQ}, one = {1.0, 1.0};
    int j = begin;
    for (; j + 2 <= end; j += 2) {
        Pair dx = load_pair(g->x + j) - vox, dy = load_pair(g->y + j) - voy;
        Pair d2 = dx * dx + dy * dy;
        PairMask near = d2 <= vr2;
        Pair w = (Pair)(near & (PairMask)one);
        Pair inv = w / (d2 + eps);
        p->sx -= dx * inv;
        p->sy -= dy * inv;
        p->ax += w * load_pair(g->hx + j);
        p->ay += w * load_pair(g->hy + j);
        p->cx += w * dx;
        p->cy += w * dy;
        p->count -= near; /* masks are -1 */
        p->zero -= d2 <= eps;
    }
    if (j < end) { /* the odd one out, same arithmetic */
        double dx = g->x[j] - ox, dy = g->y[j] - oy;
        double d2 = dx * dx + dy * dy;
        double w = d2 <= r2 ? 1.0 : 0.0;
        double inv = w / (d2 + COINCIDENT_SQ);
        p->sx[0] -= dx * inv;
        p->sy[0] -= dy * inv;
        p->ax[0] += w * g->hx[j];
        p->ay[0] += w * g->hy[j];
        p->cx[0] += w * dx;
        p->cy[0] += w * dy;
        p->count[0] += d2 <= r2;
        p->zero[0] += d2 <= COINCIDENT_SQ;
    }
}

/// Returns false (and sums nothing) when the cells must be walked with per-candidate wrapping.
static bool sum_fast_pairs(const SteerGrid *g, const Query *q, double radius, Sums *s)
{
    SteerGridCursor cursor;
    SteerGridRun run;
    steer_grid_cursor_begin(&cursor, g, q->px, q->py, radius);
    if (cursor.wrap_each) return false;
    PairSums p = {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}};
    if (cursor.col_lo >= 0 && cursor.col_hi < g->cols && cursor.row >= 0 && cursor.row_hi < g->rows) {
        /* Nothing crosses the world's edge (the usual case): one run per row, no shifts. */
        for (int row = cursor.row; row <= cursor.row_hi; row++) {
            const int *starts = g->cell_start + row * g->cols;
            pair_run(g, q->r2, starts[cursor.col_lo], starts[cursor.col_hi + 1], q->px, q->py, &p);
        }
    } else {
        while (steer_grid_cursor_next(&cursor, &run))
            pair_run(g, q->r2, run.begin, run.end, q->px - run.shift_x, q->py - run.shift_y, &p);
    }
    s->sx = p.sx[0] + p.sx[1];
    s->sy = p.sy[0] + p.sy[1];
    s->ax = p.ax[0] + p.ax[1] - g->hx[q->self];
    s->ay = p.ay[0] + p.ay[1] - g->hy[q->self];
    s->cx = p.cx[0] + p.cx[1];
    s->cy = p.cy[0] + p.cy[1];
    s->count = (int)(p.count[0] + p.count[1]) - 1;
    s->zero = (int)(p.zero[0] + p.zero[1]);
    return true;
}
#endif

/* The general path: kinds, a view cone, a comfort distance, one more vehicle to leave out; still
 * no branch on the candidates. `wrap`: wrap each offset itself (a radius that covers a wrapping
 * world more than once, where runs carry no shift). */
static void pack_general(const SteerGrid *g, const Query *q, int begin, int end, double ox, double oy, bool wrap,
                         Sums *s)
{
    const bool cone = q->cos_half >= -1.0, comfort = q->comfort2 > 0.0;
    int n = s->packed;
    for (int j = begin; j < end; j++) {
        double dx = g->x[j] - ox, dy = g->y[j] - oy;
        if (wrap) {
            dx = steer_grid_wrap_delta(dx, g->width);
            dy = steer_grid_wrap_delta(dy, g->height);
        }
        double d2 = dx * dx + dy * dy;
        int m = (d2 <= q->r2) & (d2 > COINCIDENT_SQ) & (j != q->exclude) & (int)((q->kinds >> g->kind[j]) & 1u);
        if (cone) m &= dx * q->hx + dy * q->hy >= q->cos_half * sqrt(d2);
        s->dx[n] = dx;
        s->dy[n] = dy;
        s->d2[n] = d2;
        s->weight[n] = comfort && d2 < q->comfort2 ? 1.0 + q->extra : 1.0;
        s->index[n] = j;
        n += m;
        s->zero += d2 <= COINCIDENT_SQ;
    }
    s->packed = n;
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
    int my_rank = g->rank[q->self];
    SteerGridCursor cursor;
    SteerGridRun run;
    steer_grid_cursor_begin(&cursor, g, q->px, q->py, 1e-6);
    while (steer_grid_cursor_next(&cursor, &run)) {
        for (int j = run.begin; j < run.end; j++) {
            if (j == q->self || j == q->exclude || !((q->kinds >> g->kind[j]) & 1u)) continue;
            double dx = g->x[j] - q->px, dy = g->y[j] - q->py;
            if (g->wrap) {
                dx = steer_grid_wrap_delta(dx, g->width);
                dy = steer_grid_wrap_delta(dy, g->height);
            }
            if (dx * dx + dy * dy > COINCIDENT_SQ) continue;
            double sign = g->rank[j] > my_rank ? 1.0 : -1.0;
            /* side = heading rotated +90 degrees */
            s->sx += -q->hy * sign;
            s->sy += q->hx * sign;
            if (counted) continue; /* the fast path summed them as neighbours already */
            s->ax += g->hx[j];
            s->ay += g->hy[j];
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
    counted = fast_path(g, q) && sum_fast_pairs(g, q, radius, &s);
#endif
    if (!counted) {
        bool fast = fast_path(g, q);
        SteerGridCursor cursor;
        SteerGridRun run;
        steer_grid_cursor_begin(&cursor, g, q->px, q->py, radius);
        while (steer_grid_cursor_next(&cursor, &run)) {
            /* Candidate offsets are stored position + shift - asker: fold the shift into the origin. */
            double ox = q->px - run.shift_x, oy = q->py - run.shift_y;
            /* Pack in pieces that fit the buffer whatever the crowd. */
            for (int begin = run.begin; begin < run.end; begin += PACK / 2) {
                int end = run.end - begin > PACK / 2 ? begin + PACK / 2 : run.end;
                if (s.packed > PACK / 2) sum_packed(g, &s);
                if (cursor.wrap_each) pack_general(g, q, begin, end, ox, oy, true, &s);
                else if (fast) pack_fast(g, q->r2, begin, end, ox, oy, &s);
                else pack_general(g, q, begin, end, ox, oy, false, &s);
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
    q.px = g->x[k];
    q.py = g->y[k];
    q.hx = g->hx[k];
    q.hy = g->hy[k];
    q.r2 = g->neighbor_radius[k] * g->neighbor_radius[k];
    q.cos_half = g->view_cos[k];
    q.comfort2 = -1.0;
    q.extra = 0.0;
    q.kinds = g->flock_kinds[k];
    return q;
}

void steer_prepare_neighbourhoods(SteerWorld *world)
{
    const SteerGrid *g = steer_world_grid(world);
    for (int k = 0; k < g->count; k++) {
        if (!g->wants[k]) continue;
        Query q = query_for(g, k);
        /* Stored by slot: the forces are computed in creation order, which walks slots nearly in
         * order, so reading these back is a stream rather than a jump per vehicle. */
        sum_neighbourhood(g, &q, g->neighbor_radius[k], &g->hood[g->slot[k]]);
    }
    world->hoods_ready = true;
}

void steer_neighbourhood(const SteerWorld *world, const SteerVehicle *vehicle, int exclude_slot, double comfort_distance,
                         double comfort_multiplier, SteerNeighbourhood *out)
{
    const SteerGrid *g = steer_world_grid(world);
    int slot = steer_vehicle_slot(world, vehicle);
    bool comfort = comfort_distance > 0.0 && comfort_multiplier != 1.0;
    if (world->hoods_ready && vehicle->wants_neighbourhood && exclude_slot < 0 && !comfort) {
        *out = g->hood[slot];
        return;
    }
    int k = g->where[slot];
    Query q = query_for(g, k);
    q.exclude = exclude_slot >= 0 ? g->where[exclude_slot] : -1;
    q.comfort2 = comfort ? comfort_distance * comfort_distance : -1.0;
    q.extra = comfort_multiplier - 1.0;
    sum_neighbourhood(g, &q, g->neighbor_radius[k], out);
}
