/* SPDX-License-Identifier: MIT */
/* orca.c - reciprocal velocity avoidance, the `orca` behaviour: a post-process of the step's
 * velocity, not a force.
 *
 * After its combined force gives a vehicle its preferred velocity (what the force would make of its
 * velocity this step), the step picks the velocity nearest to it that is safe: for every neighbour,
 * obstacle circle and wall, the velocities that would bring the two within each other's radius
 * before a time horizon (the velocity obstacle: a cone truncated at the horizon) are cut off by one
 * half-plane through the nearest point of the obstacle's boundary. Against another vehicle that
 * avoids it too, each takes half of the change that separates them, so that neither has to take
 * it all and they do not oscillate (reciprocity); against anything else, the whole of it. The
 * velocity is then the point of the half-planes' intersection, inside the max_speed disc, nearest
 * to the preferred one: an incremental two-dimensional linear program. When the half-planes leave
 * nothing (a dense crowd), the velocity that least violates the vehicles' half-planes while keeping
 * to the static ones is taken instead (a three-dimensional program solved as a sequence of
 * two-dimensional ones).
 *
 * The method is ORCA, as published by van den Berg, Guy, Lin and Manocha, "Reciprocal n-body
 * collision avoidance" (Robotics Research, 2011); this is a fresh implementation of the paper's
 * description. Half-planes are kept as (point, inward normal); obstacles and walls take the same
 * geometric construction as vehicles: a velocity obstacle of a convex shape seen from the vehicle
 * is itself convex (the union of the shape scaled by every s >= 1/horizon), so the half-plane
 * tangent to it at any point of its boundary leaves it whole out; the nearest such point is the
 * least restrictive.
 *
 * Who gives way: of two vehicles that avoid each other, the lower precedence takes the whole change
 * (the other does not count it among its neighbours); of the same precedence, one that is free
 * gives way to one pinned against a wall or an obstacle - whose last step found no velocity clear
 * of everyone with a static shape in reach (STEER_AVOID_PINNED, read by the others from the grid's
 * entries: the snapshot). ORCA's half-plane for a neighbour is the side of the velocity obstacle
 * nearest the present relative velocity; against a wall, a crowd pressing from the side leaves
 * such a vehicle nothing but the least bad, nearly still, velocity, step after step (beside a
 * door's jamb: for seconds while the others went through).
 *
 * Everything here reads the step's snapshot (the grid's entries, the static shapes) and writes only
 * the vehicle itself: the same bits on any number of threads. Neighbours are chosen by distance,
 * ties by creation order, and the half-planes go in that order (static ones first): the program's
 * answer depends on its input order, which is thus fixed.
 */
#include "behaviours_internal.h"

/// Inlined where it is used: disc_line (a call passed its vectors through the stack, a neighbour at
/// a time) and orca_ask_ahead (see there).
#if defined(__GNUC__)
#define ORCA_INLINE static inline __attribute__((always_inline))
#else
#define ORCA_INLINE static inline
#endif

/// Obstacle circles and walls each considered at most (the nearest, after deduplication).
#define ORCA_MAX_SHAPES 32
/// Candidates gathered from a shape grid's cells before keeping the nearest ORCA_MAX_SHAPES.
#define ORCA_MAX_CANDIDATES 128
#define ORCA_MAX_LINES (STEER_ORCA_MAX_NEIGHBORS + 2 * ORCA_MAX_SHAPES)
/// How far the preferred velocity turns to one side among others (radians, about: atan of it)...
#define ORCA_KEEP_SIDE 0.05
/// ... give or take half of this, by vehicle and step.
#define ORCA_JITTER 0.1
/// Two vehicles of the same precedence share the change between them 0.5 ± ORCA_SHARE_SPREAD / 2.
#define ORCA_SHARE_SPREAD 0.2
/// Two vehicles keep apart by their radii times this: a hair of clearance, so that the discrete step
/// and the least-violation fallback near walls never let them touch (a crowd at a door came within
/// 0.5 % of touching without it).
#define ORCA_MARGIN 1.01
/// Below this a denominator is taken for parallel lines (unit normals: a dimensionless cosine).
#define ORCA_PARALLEL 1e-12

/// A half-plane of velocities: those v with (v - point)·normal >= 0 (normal unit, pointing in).
typedef struct OrcaLine {
    SteerVec2 point, normal;
} OrcaLine;

/// A number in [0, 1) from two integers (a SplitMix64-style mix): the tie-breakers' dice, which
/// depend only on ranks and the step, never on the world's generator or the thread.
static double orca_unit_hash(uint64_t a, uint64_t b)
{
    uint64_t h = a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL) * 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 31;
    h *= 0x94d049bb133111ebULL;
    h ^= h >> 29;
    return (double)(h >> 11) * (1.0 / 9007199254740992.0);
}

/* ---- The linear programs ---------------------------------------------------------------------- */

/// How far `v` lies outside half-plane `line` (<= 0: inside).
static inline double violation(const OrcaLine *line, SteerVec2 v)
{
    return steer_dot(steer_sub(line->point, v), line->normal);
}

/// The best point of line `i`'s boundary inside the disc of radius `limit` and half-planes [0, i):
/// nearest `target`, or farthest along `target` (a unit direction) when `along`. False when that
/// part of the line is empty.
static bool solve_on_line(const OrcaLine *lines, int i, double limit, SteerVec2 target, bool along, SteerVec2 *out)
{
    const OrcaLine *line = &lines[i];
    SteerVec2 d = steer_perp(line->normal); /* the boundary: point + t·d */
    double b = steer_dot(line->point, d);
    double disc = b * b + limit * limit - steer_length_sq(line->point);
    if (disc < 0.0) return false; /* the line misses the speed disc */
    double root = sqrt(disc);
    double lo = -b - root, hi = -b + root;
    for (int j = 0; j < i; j++) {
        /* (point + t·d - other.point)·other.normal >= 0  <=>  t·den >= num */
        double den = steer_dot(d, lines[j].normal);
        double num = steer_dot(steer_sub(lines[j].point, line->point), lines[j].normal);
        if (fabs(den) <= ORCA_PARALLEL) {
            if (num > 0.0) return false; /* parallel, and the whole line is outside j */
            continue;
        }
        double t = num / den;
        if (den > 0.0) {
            if (t > lo) lo = t;
        } else if (t < hi) {
            hi = t;
        }
        if (lo > hi) return false;
    }
    double t;
    if (along) {
        t = steer_dot(target, d) > 0.0 ? hi : lo;
    } else {
        t = steer_dot(steer_sub(target, line->point), d);
        if (t < lo) t = lo;
        if (t > hi) t = hi;
    }
    *out = steer_add(line->point, steer_scale(d, t));
    return true;
}

/// The point of the disc of radius `limit` inside every half-plane [0, count) nearest `target` (or
/// farthest along the unit direction `target` when `along`), added one half-plane at a time.
/// Returns count, or the index of the first half-plane that left nothing (then *out is the answer
/// for the half-planes before it). *moved (unless NULL): the last half-plane that moved the answer,
/// the one it ends on (-1: none).
static int solve_plane(const OrcaLine *lines, int count, double limit, SteerVec2 target, bool along, SteerVec2 *out,
                       int *moved)
{
    if (along)
        *out = steer_scale(target, limit);
    else
        *out = steer_length_sq(target) > limit * limit ? steer_scale(steer_normalize(target), limit) : target;
    for (int i = 0; i < count; i++) {
        if (violation(&lines[i], *out) <= 0.0) continue;
        SteerVec2 on_line;
        if (!solve_on_line(lines, i, limit, target, along, &on_line)) return i;
        *out = on_line;
        if (moved) *moved = i;
    }
    return count;
}

/// When the half-planes leave nothing: from `first` (the half-plane where the plane program
/// failed) on, the velocity whose worst violation of half-planes [hard, count) is least, keeping
/// to half-planes [0, hard) (obstacles and walls). For each half-plane i violated more than the
/// worst so far, the velocity moves as far into it as it can while no earlier vehicle half-plane is
/// violated more than i: "j no worse than i" is itself a half-plane,
/// x·(n_j - n_i) >= p_j·n_j - p_i·n_i.
static void solve_least_violation(const OrcaLine *lines, int count, int hard, int first, double limit, SteerVec2 *out,
                                  OrcaLine *scratch)
{
    double worst = 0.0;
    for (int i = first; i < count; i++) {
        if (violation(&lines[i], *out) <= worst) continue;
        int n = 0;
        for (int j = 0; j < hard; j++) scratch[n++] = lines[j];
        for (int j = hard; j < i; j++) {
            SteerVec2 normal = steer_sub(lines[j].normal, lines[i].normal);
            double length = steer_length(normal);
            /* Parallel and facing the same way: one of the two is always the worse, whatever the
             * velocity; nothing to balance. */
            if (length <= 1e-9) continue;
            double c = steer_dot(lines[j].point, lines[j].normal) - steer_dot(lines[i].point, lines[i].normal);
            normal = steer_scale(normal, 1.0 / length);
            scratch[n].normal = normal;
            scratch[n].point = steer_scale(normal, c / length);
            n++;
        }
        SteerVec2 before = *out;
        /* It fails only by rounding (the previous answer satisfied all of these): keep that one. */
        if (solve_plane(scratch, n, limit, lines[i].normal, true, out, NULL) < n) *out = before;
        worst = violation(&lines[i], *out);
    }
}

/* ---- Half-planes ------------------------------------------------------------------------------ */

/// The half-plane for a disc of radius `r` at `p` (relative to the vehicle), seen at relative
/// velocity `v`, avoided for `horizon` seconds; `share` of the change is this vehicle's, applied
/// to its velocity `own`. Already overlapping: the change that separates them within one step.
/// `side` is a unit direction to push along when they are on the very same point. (`inverse_horizon`
/// and `inverse_dt`: 1 / horizon and 1 / dt, worked out once by the caller, not once a neighbour.)
ORCA_INLINE OrcaLine disc_line(SteerVec2 p, SteerVec2 v, double r, double horizon, double inverse_horizon, double dt,
                               double inverse_dt, double share, SteerVec2 own, SteerVec2 side)
{
    double distance_sq = steer_length_sq(p), r_sq = r * r;
    SteerVec2 u, normal;
    if (distance_sq > r_sq) {
        /* w: from the centre of the truncating disc (the obstacle as it is at the horizon) to v */
        SteerVec2 w = steer_sub(v, steer_scale(p, inverse_horizon));
        double w_sq = steer_length_sq(w);
        double w_dot_p = steer_dot(w, p);
        if (w_dot_p < 0.0 && w_dot_p * w_dot_p > r_sq * w_sq) {
            /* nearest the front of the truncating disc */
            double w_length = sqrt(w_sq);
            normal = steer_scale(w, 1.0 / w_length);
            u = steer_scale(normal, r / horizon - w_length);
        } else {
            /* nearest one of the cone's sides: the tangent from the vehicle on the side of w */
            double leg = sqrt(distance_sq - r_sq);
            SteerVec2 d;
            if (steer_cross(p, w) > 0.0) {
                d = steer_scale(steer_vec2(p.x * leg - p.y * r, p.x * r + p.y * leg), 1.0 / distance_sq);
                normal = steer_vec2(-d.y, d.x);
            } else {
                d = steer_scale(steer_vec2(p.x * leg + p.y * r, -p.x * r + p.y * leg), 1.0 / distance_sq);
                normal = steer_vec2(d.y, -d.x);
            }
            u = steer_sub(steer_scale(d, steer_dot(v, d)), v);
        }
    } else {
        /* overlapping: the relative velocity that puts them just apart after one step */
        SteerVec2 w = steer_sub(v, steer_scale(p, inverse_dt));
        double w_length = steer_length(w);
        if (w_length > 1e-9) {
            normal = steer_scale(w, 1.0 / w_length);
        } else {
            double p_length = sqrt(distance_sq);
            normal = p_length > 1e-9 ? steer_scale(p, -1.0 / p_length) : side;
        }
        u = steer_scale(normal, r / dt - w_length);
        /* Overlapping already: the plain half each (a ring of vehicles that start too close then
         * spreads evenly instead of closing in on one pair). */
        if (share < 1.0) share = 0.5;
    }
    OrcaLine line = {steer_add(own, steer_scale(u, share)), normal};
    return line;
}

/// The point of segment [a, b] nearest p.
static SteerVec2 nearest_on_segment(SteerVec2 p, SteerVec2 a, SteerVec2 b)
{
    SteerVec2 ab = steer_sub(b, a);
    double length_sq = steer_length_sq(ab);
    double t = length_sq > 0.0 ? steer_dot(steer_sub(p, a), ab) / length_sq : 0.0;
    if (t < 0.0) t = 0.0;
    if (t > 1.0) t = 1.0;
    return steer_add(a, steer_scale(ab, t));
}

/// Squared distance between segments [p0, p1] and [q0, q1].
static double segments_distance_sq(SteerVec2 p0, SteerVec2 p1, SteerVec2 q0, SteerVec2 q1)
{
    SteerVec2 r = steer_sub(p1, p0), s = steer_sub(q1, q0);
    double den = steer_cross(r, s);
    if (fabs(den) > 1e-18) {
        SteerVec2 qp = steer_sub(q0, p0);
        double tp = steer_cross(qp, s) / den, tq = steer_cross(qp, r) / den;
        if (tp >= 0.0 && tp <= 1.0 && tq >= 0.0 && tq <= 1.0) return 0.0; /* they cross */
    }
    double best = steer_distance_sq(p0, nearest_on_segment(p0, q0, q1));
    double d = steer_distance_sq(p1, nearest_on_segment(p1, q0, q1));
    if (d < best) best = d;
    d = steer_distance_sq(q0, nearest_on_segment(q0, p0, p1));
    if (d < best) best = d;
    d = steer_distance_sq(q1, nearest_on_segment(q1, p0, p1));
    return d < best ? d : best;
}

/// A candidate point of a velocity obstacle's boundary, with its outward normal.
typedef struct Touch {
    SteerVec2 point, normal;
    double distance_sq; ///< from the velocity
} Touch;

static void consider(Touch *best, SteerVec2 v, SteerVec2 point, SteerVec2 normal)
{
    double d = steer_distance_sq(v, point);
    if (d < best->distance_sq) {
        best->point = point;
        best->normal = normal;
        best->distance_sq = d;
    }
}

/// The unit tangent directions from the origin to the disc of radius r at c (|c| > r), the one
/// counterclockwise (`left`) and the other; and the distance to where they touch.
static double tangents(SteerVec2 c, double r, SteerVec2 *left, SteerVec2 *right)
{
    double c_sq = steer_length_sq(c);
    double leg_sq = c_sq - r * r;
    double leg = leg_sq > 0.0 ? sqrt(leg_sq) : 0.0;
    *left = steer_scale(steer_vec2(c.x * leg - c.y * r, c.x * r + c.y * leg), 1.0 / c_sq);
    *right = steer_scale(steer_vec2(c.x * leg + c.y * r, -c.x * r + c.y * leg), 1.0 / c_sq);
    return leg;
}

/// The half-plane for a wall: segment [a, b] (relative to the vehicle) thickened by the vehicle's
/// radius r (a capsule), velocity v, avoided for `horizon` seconds; `limit`: max_speed.
static OrcaLine wall_line(SteerVec2 a, SteerVec2 b, double r, double horizon, double dt, SteerVec2 v, double limit)
{
    OrcaLine line;
    SteerVec2 zero = steer_vec2(0.0, 0.0);
    SteerVec2 q = nearest_on_segment(zero, a, b);
    double distance = steer_length(q);
    SteerVec2 along = steer_sub(b, a);
    SteerVec2 side = steer_length_sq(along) > 0.0 ? steer_normalize(steer_perp(along)) : steer_vec2(1.0, 0.0);
    if (steer_dot(side, a) > 0.0) side = steer_neg(side); /* pointing from the wall toward the vehicle */
    if (distance < r || distance <= 1e-9) {
        /* overlapping (or on it, for a vehicle of radius 0): away from the wall, out of it within one step (at most at
         * max_speed) */
        SteerVec2 away = distance > 1e-9 ? steer_scale(q, -1.0 / distance) : side;
        double speed = (r - distance) / dt;
        if (speed > limit) speed = limit;
        line.point = steer_scale(away, speed);
        line.normal = away;
        return line;
    }
    /* K: the capsule as it is seen at the horizon (scaled by 1/horizon); the velocity obstacle is
     * K and the two rays that go on from its tangent points, away from the origin. */
    double inverse = 1.0 / horizon;
    SteerVec2 ka = steer_scale(a, inverse), kb = steer_scale(b, inverse);
    double kr = r * inverse;
    SteerVec2 left_a, right_a, left_b, right_b;
    double leg_a = tangents(a, r, &left_a, &right_a);
    double leg_b = tangents(b, r, &left_b, &right_b);
    /* the capsule's tangents: the outermost of its two end discs' */
    bool left_from_b = steer_cross(left_a, left_b) > 0.0;
    bool right_from_b = steer_cross(right_a, right_b) < 0.0;
    SteerVec2 left = left_from_b ? left_b : left_a, right = right_from_b ? right_b : right_a;
    SteerVec2 left_start = steer_scale(left, (left_from_b ? leg_b : leg_a) * inverse);
    SteerVec2 right_start = steer_scale(right, (right_from_b ? leg_b : leg_a) * inverse);
    SteerVec2 left_out = steer_vec2(-left.y, left.x), right_out = steer_vec2(right.y, -right.x);

    Touch best = {zero, side, INFINITY};
    double t = steer_dot(steer_sub(v, left_start), left);
    consider(&best, v, steer_add(left_start, steer_scale(left, t > 0.0 ? t : 0.0)), left_out);
    t = steer_dot(steer_sub(v, right_start), right);
    consider(&best, v, steer_add(right_start, steer_scale(right, t > 0.0 ? t : 0.0)), right_out);
    SteerVec2 kq = nearest_on_segment(v, ka, kb);
    SteerVec2 from = steer_sub(v, kq);
    double from_length = steer_length(from);
    SteerVec2 k_normal = from_length > 1e-12 ? steer_scale(from, 1.0 / from_length) : side;
    SteerVec2 k_point = steer_add(kq, steer_scale(k_normal, kr));
    bool inside = segments_distance_sq(zero, v, ka, kb) <= kr * kr;
    if (!inside) {
        /* v is safe: the half-plane touches the obstacle where it comes nearest v */
        consider(&best, v, k_point, k_normal);
        SteerVec2 out = steer_sub(v, best.point);
        double out_length = steer_length(out);
        line.point = best.point;
        line.normal = out_length > 1e-12 ? steer_scale(out, 1.0 / out_length) : best.normal;
        return line;
    }
    /* v would hit it: out across the nearest part of the boundary (the near side of K, or a ray) */
    if (steer_dot(k_normal, k_point) < 0.0) consider(&best, v, k_point, k_normal);
    line.point = best.point;
    line.normal = best.normal;
    return line;
}

/* ---- Gathering ---------------------------------------------------------------------------------- */

/// A neighbour kept for the program, sorted by distance, then by creation order.
typedef struct OrcaNeighbour {
    SteerVec2 offset; ///< from the vehicle to it (units)
    int rank;
    int entry; ///< its index in the grid's sorted entries
} OrcaNeighbour;

/// Who gives way to whom among two that avoid each other: the lower precedence, and of the same
/// precedence, one that is free to one held against a wall or an obstacle by the others (pinned:
/// STEER_AVOID_PINNED). Among a crowd that presses on it, such a vehicle's half-planes - half of
/// each neighbour's change, and the wall's whole - leave no velocity, and the one least in the
/// way keeps it all but still (beside a door's jamb, for seconds while the others went through);
/// given way for a step, it slips along the wall.
static inline int standing(uint8_t precedence, uint8_t bits)
{
    return 2 * (int)precedence + ((bits & STEER_AVOID_PINNED) != 0);
}

/// The share of the avoidance this vehicle takes against entry `e`; 0: none (it gives way to us).
static double share_against(const SteerVehicle *vehicle, const SteerGridEntry *e)
{
    bool mutual =
        (e->avoid_bits & STEER_AVOID_ON) && ((e->avoid_mask >> (vehicle->avoid_bits & STEER_AVOID_LAYER)) & 1u);
    if (!mutual) return 1.0; /* a moving obstacle */
    int mine = standing(vehicle->avoid_precedence, vehicle->avoid_bits);
    int its = standing(e->avoid_precedence, e->avoid_bits);
    if (its == mine) {
        /* Half each - give or take ORCA_SHARE_SPREAD / 2, by a hash of the two ranks, the one
         * adding what the other takes off, so that the two still make up the whole change. */
        int older = vehicle->rank < e->rank ? vehicle->rank : e->rank;
        int younger = vehicle->rank < e->rank ? e->rank : vehicle->rank;
        double delta = ORCA_SHARE_SPREAD * (orca_unit_hash((uint64_t)older, (uint64_t)younger) - 0.5);
        return vehicle->rank == older ? 0.5 + delta : 0.5 - delta;
    }
    return its > mine ? 1.0 : 0.0;
}

/// Whether the vehicle of entry `e` takes the whole avoidance between it and `vehicle` (share_against
/// is then 0), without the hash.
static inline bool gives_way_to(const SteerGridEntry *e, const SteerVehicle *vehicle)
{
    return (e->avoid_bits & STEER_AVOID_ON) && ((e->avoid_mask >> (vehicle->avoid_bits & STEER_AVOID_LAYER)) & 1u) &&
           standing(e->avoid_precedence, e->avoid_bits) < standing(vehicle->avoid_precedence, vehicle->avoid_bits);
}

/// Candidates in range gathered unsorted before the nearest are chosen; a crowd denser than this
/// within range has the nearest chosen whenever they fill up (orca_compact), which leaves room for
/// at least 32 more.
#define ORCA_POOL (STEER_ORCA_MAX_NEIGHBORS + 32)

/// A candidate's sort key: 16 bytes, what the sort moves.
typedef struct OrcaKey {
    double distance_sq;
    int rank;
    int at; ///< its place in OrcaGather's offset and entry
} OrcaKey;

/// What gather_neighbours keeps while it looks through the grid's cells.
typedef struct OrcaGather {
    const SteerGrid *g;
    const SteerVehicle *vehicle;
    int self;      ///< the vehicle's own index in the grid's entries
    double px, py; ///< its position as the grid has it
    double range_sq;
    double bound_sq; ///< farther than this, a candidate cannot be among the nearest (range_sq until a compaction)
    unsigned mask;   ///< the layers it avoids
    int max, count;  ///< how many to keep, and candidates gathered so far
    OrcaKey key[ORCA_POOL];
    SteerVec2 offset[ORCA_POOL];
    int entry[ORCA_POOL];
} OrcaGather;

/// How many candidates the first look through a run of cells collects before the exact look.
#define ORCA_BATCH 64

/// Sorts keys by distance, then creation order (insertion: about ten of them).
static void orca_sort_keys(OrcaKey *key, int n)
{
    for (int i = 1; i < n; i++) {
        OrcaKey k = key[i];
        int at = i;
        while (at > 0 && (key[at - 1].distance_sq > k.distance_sq ||
                          (key[at - 1].distance_sq == k.distance_sq && key[at - 1].rank > k.rank))) {
            key[at] = key[at - 1];
            at--;
        }
        key[at] = k;
    }
}

/// The candidates fill the pool: keeps the nearest `max` of them, in the pool's first places.
static void orca_compact(OrcaGather *s)
{
    orca_sort_keys(s->key, s->count);
    SteerVec2 offset[STEER_ORCA_MAX_NEIGHBORS];
    int entry[STEER_ORCA_MAX_NEIGHBORS];
    for (int i = 0; i < s->max; i++) {
        offset[i] = s->offset[s->key[i].at];
        entry[i] = s->entry[s->key[i].at];
    }
    for (int i = 0; i < s->max; i++) {
        s->offset[i] = offset[i];
        s->entry[i] = entry[i];
        s->key[i].at = i;
    }
    s->count = s->max;
    s->bound_sq = s->key[s->max - 1].distance_sq;
}

/// The exact look at candidates `js` [0, n) of a run shifted by (sx, sy): those in range that the
/// vehicle avoids and that do not give way to it alone join the pool, unsorted.
static void gather_exact(OrcaGather *s, const int *js, int n, double sx, double sy, bool wrap_each)
{
    const SteerGrid *g = s->g;
    /* One pass, and no branch on whether a candidate joins: it is written to the pool's next place
     * whatever, and the count moves past it if it does (the pool keeps a free place: orca_compact
     * runs when it is full). Two passes, and a branch on each candidate, mispredicted eight times a
     * vehicle in the dense crowd. */
    for (int k = 0; k < n; k++) {
        int j = js[k];
        const SteerGridEntry *e = &g->entry[j];
        SteerVec2 d = steer_vec2(e->x + sx - s->px, e->y + sy - s->py);
        if (wrap_each) d = steer_vec2(steer_grid_wrap_delta(d.x, g->width), steer_grid_wrap_delta(d.y, g->height));
        double distance_sq = steer_length_sq(d);
        if (s->count == ORCA_POOL) orca_compact(s);
        bool joins = (distance_sq <= s->bound_sq) & (j != s->self) &
                     (((s->mask >> (e->avoid_bits & STEER_AVOID_LAYER)) & 1u) != 0) & !gives_way_to(e, s->vehicle);
        int at = s->count;
        s->key[at] = (OrcaKey){distance_sq, e->rank, at};
        s->offset[at] = d;
        s->entry[at] = j;
        s->count += joins;
    }
}

/// The nearest `max` vehicles within `range` that the vehicle avoids and that do not give way to it
/// alone, sorted; returns how many.
static int gather_neighbours(const SteerWorld *world, const SteerVehicle *vehicle, double range, int max,
                             OrcaNeighbour *out)
{
    const SteerGrid *g = steer_world_grid(world);
    OrcaGather s;
    s.g = g;
    s.vehicle = vehicle;
    s.self = g->where[steer_vehicle_slot(world, vehicle)];
    s.px = g->entry[s.self].x;
    s.py = g->entry[s.self].y;
    s.range_sq = range * range;
    s.bound_sq = s.range_sq;
    s.mask = vehicle->avoid_mask;
    s.max = max;
    s.count = 0;
    /* A first look through the grid's float copy of the positions (good to ~0.004 units) skips
     * the candidates plainly out of range without touching their entries: most of the cells'
     * vehicles. Without a branch (a dense crowd's candidates are in range or not about as often as
     * not, which a branch predicts badly): every index is written, and the count moves on past
     * those in range. */
    float fx = g->fx[s.self], fy = g->fy[s.self];
    float loose_sq = (float)((range + 1.0) * (range + 1.0));
    int batch[ORCA_BATCH];
    SteerGridCursor cursor;
    SteerGridRun run;
    steer_grid_cursor_begin(&cursor, g, s.px, s.py, range);
    bool quick = g->float_ok && !cursor.wrap_each;
    while (steer_grid_cursor_next(&cursor, &run)) {
        int n = 0;
        if (quick) {
            float x0 = fx - (float)run.shift_x, y0 = fy - (float)run.shift_y;
            for (int j = run.begin; j < run.end; j++) {
                float dx = g->fx[j] - x0, dy = g->fy[j] - y0;
                batch[n] = j;
                n += dx * dx + dy * dy <= loose_sq;
                if (n == ORCA_BATCH) {
                    gather_exact(&s, batch, n, run.shift_x, run.shift_y, false);
                    n = 0;
                }
            }
        } else {
            for (int j = run.begin; j < run.end; j++) {
                batch[n++] = j;
                if (n == ORCA_BATCH) {
                    gather_exact(&s, batch, n, run.shift_x, run.shift_y, cursor.wrap_each);
                    n = 0;
                }
            }
        }
        gather_exact(&s, batch, n, run.shift_x, run.shift_y, cursor.wrap_each);
    }
    orca_sort_keys(s.key, s.count);
    int found = s.count < max ? s.count : max;
    for (int i = 0; i < found; i++) {
        int at = s.key[i].at;
        out[i] = (OrcaNeighbour){s.offset[at], s.key[i].rank, s.entry[at]};
    }
    return found;
}

/// Slots of the shapes whose grid cells touch the square of half-side `reach` around `at`, each
/// once, ascending (the first ORCA_MAX_CANDIDATES: a crowd of shapes that dense is kept to the
/// nearest of those); returns how many. (Not steer_shape_grid_candidates: its stamps and results
/// are one scratch per world, which would keep the vehicle off the pool's threads.)
static int shape_candidates(const SteerShapeGrid *g, SteerVec2 at, double reach, int *out)
{
    int n = 0;
    if (!g->cell_start || g->cols <= 0 || g->rows <= 0) return 0;
    double cx = at.x, cy = at.y;
    if (g->wrap) {
        cx = steer_grid_wrap_coordinate(cx, g->width);
        cy = steer_grid_wrap_coordinate(cy, g->height);
    }
    int xlo, xhi, ylo, yhi;
    axis_range(cx, reach, g->origin_x, g->inv_w, g->cols, g->wrap, &xlo, &xhi);
    axis_range(cy, reach, g->origin_y, g->inv_h, g->rows, g->wrap, &ylo, &yhi);
    for (int yy = ylo; yy <= yhi; yy++) {
        for (int xx = xlo; xx <= xhi; xx++) {
            int cell =
                (g->wrap ? positive_mod(yy, g->rows) : yy) * g->cols + (g->wrap ? positive_mod(xx, g->cols) : xx);
            for (int k = g->cell_start[cell]; k < g->cell_start[cell + 1]; k++) {
                int item = g->items[k];
                bool seen = false;
                for (int s = 0; s < n && !seen; s++) seen = out[s] == item;
                if (seen) continue;
                if (n == ORCA_MAX_CANDIDATES) goto full;
                out[n++] = item;
            }
        }
    }
full:
    if (n > 1) steer_sort_ints(out, n);
    return n;
}

/// What a half-plane comes from: a SteerOrcaBound (vehicle, obstacle or wall) and its pool slot.
typedef struct OrcaSource {
    int kind;
    int slot;
} OrcaSource;

/// A static shape kept for the program: its half-plane, by distance then slot.
typedef struct OrcaShape {
    double distance_sq;
    int slot;
    OrcaLine line;
} OrcaShape;

/// Inserts `shape` into `kept` (sorted, at most ORCA_MAX_SHAPES); returns the new count.
static int keep_shape(OrcaShape *kept, int count, const OrcaShape *shape)
{
    if (count == ORCA_MAX_SHAPES && kept[count - 1].distance_sq <= shape->distance_sq) return count;
    int at = count < ORCA_MAX_SHAPES ? count++ : ORCA_MAX_SHAPES - 1;
    while (at > 0 && kept[at - 1].distance_sq > shape->distance_sq) {
        kept[at] = kept[at - 1];
        at--;
    }
    kept[at] = *shape;
    return count;
}

/// The half-planes of the obstacle circles and walls near the vehicle, nearest first, into `lines`.
static int static_lines(const SteerWorld *world, const SteerVehicle *vehicle, const SteerOrcaParams *p, double dt,
                        OrcaLine *lines, OrcaSource *sources)
{
    int count = 0;
    int candidates[ORCA_MAX_CANDIDATES];
    OrcaShape kept[ORCA_MAX_SHAPES];
    double horizon = p->obstacle_horizon;
    double reach = horizon * vehicle->max_speed + vehicle->radius;
    SteerVec2 v = vehicle->velocity;
    SteerVec2 side = steer_perp(vehicle->heading);

    if (world->obstacles.live > 0) {
        const SteerShapeGrid *grid = steer_world_obstacle_grid(world);
        double widest = grid ? grid->max_radius : 0.0;
        /* no grid (memory ran out): every obstacle */
        int n = grid ? shape_candidates(grid, vehicle->position, reach + widest, candidates) : world->obstacles.count;
        int k = 0;
        for (int c = 0; c < n; c++) {
            int slot = grid ? candidates[c] : c;
            const SteerObstacle *o = steer_pool_at(&world->obstacles, slot);
            if (!o->header.alive) continue;
            SteerVec2 offset = steer_world_offset_fast(world, vehicle->position, o->center);
            double r = o->radius + vehicle->radius;
            double near = steer_length(offset) - o->radius;
            if (near > reach) continue;
            OrcaShape shape = {
                near, slot,
                disc_line(offset, v, r, horizon, 1.0 / horizon, dt, 1.0 / dt, 1.0, vehicle->velocity, side)};
            k = keep_shape(kept, k, &shape);
        }
        for (int i = 0; i < k; i++) {
            sources[count] = (OrcaSource){STEER_ORCA_OBSTACLE, kept[i].slot};
            lines[count++] = kept[i].line;
        }
    }
    if (world->walls.live > 0) {
        const SteerShapeGrid *grid = steer_world_wall_grid(world);
        /* no grid (memory ran out, walls too far out of a wrapping world): every wall */
        int n = grid ? shape_candidates(grid, vehicle->position, reach, candidates) : world->walls.count;
        int k = 0;
        for (int c = 0; c < n; c++) {
            int slot = grid ? candidates[c] : c;
            const SteerWall *w = steer_pool_at(&world->walls, slot);
            if (!w->header.alive) continue;
            SteerVec2 a = steer_world_offset_fast(world, vehicle->position, w->a);
            SteerVec2 b = steer_add(a, steer_sub(w->b, w->a));
            double near = steer_length(nearest_on_segment(steer_vec2(0.0, 0.0), a, b));
            if (near > reach) continue;
            OrcaShape shape = {near, slot, wall_line(a, b, vehicle->radius, horizon, dt, v, vehicle->max_speed)};
            k = keep_shape(kept, k, &shape);
        }
        for (int i = 0; i < k; i++) {
            sources[count] = (OrcaSource){STEER_ORCA_WALL, kept[i].slot};
            lines[count++] = kept[i].line;
        }
    }
    return count;
}

static SteerBehaviourSlot *orca_slot(const SteerVehicle *vehicle)
{
    for (int i = 0; i < vehicle->behaviour_count; i++)
        if (vehicle->behaviours[i].def.type == STEER_ORCA && !vehicle->behaviours[i].lost)
            return &vehicle->behaviours[i];
    return NULL;
}

/* ---- Watching one vehicle ----------------------------------------------------------------------- */

/// The half-planes of the watched vehicle's last step (steer_world_watch_orca), for drawing.
struct SteerOrcaWatch {
    int slot;            ///< the vehicle's pool slot, -1: none
    uint16_t generation; ///< ... and its generation
    uint64_t step;       ///< world->step_count during the step that kept them
    bool kept;           ///< a step has kept them since the vehicle was chosen
    int count;           ///< half-planes
    int bound;           ///< the one the velocity ended on, -1: none
    double limit;        ///< its max_speed
    OrcaLine lines[ORCA_MAX_LINES];
    int kinds[ORCA_MAX_LINES]; ///< SteerOrcaBound of each
};

/// Copies the half-planes into the watch (the step's one writer of it: the watched vehicle).
static void orca_watch_keep(SteerOrcaWatch *watch, const SteerWorld *world, const OrcaLine *lines,
                            const OrcaSource *sources, int count, int bound, double limit)
{
    watch->step = world->step_count;
    watch->kept = true;
    watch->count = count;
    watch->bound = bound;
    watch->limit = limit;
    for (int i = 0; i < count; i++) {
        watch->lines[i] = lines[i];
        watch->kinds[i] = sources[i].kind;
    }
}

SteerResult steer_world_watch_orca(SteerWorld *world, SteerVehicleId id)
{
    STEER_ENTRY(world);
    SteerVehicle *vehicle = NULL;
    if (id.index1 != 0) {
        vehicle = steer_vehicle_lookup(world, id);
        if (!vehicle) return steer_vehicle_invalid_id(world, id);
    }
    if (!world->orca_watch) {
        if (!vehicle) return STEER_OK;
        world->orca_watch = steer_realloc(&world->alloc, NULL, 0, sizeof *world->orca_watch);
        if (!world->orca_watch)
            return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "no memory for the half-planes it keeps");
    }
    SteerOrcaWatch *watch = world->orca_watch;
    int slot = vehicle ? steer_vehicle_slot(world, vehicle) : -1;
    if (watch->slot == slot && (!vehicle || watch->generation == vehicle->header.generation))
        return STEER_OK; /* the same: what the last step kept stays */
    watch->slot = slot;
    watch->generation = vehicle ? vehicle->header.generation : 0;
    watch->kept = false;
    watch->count = 0;
    return STEER_OK;
}

void steer_orca_watch_free(SteerWorld *world)
{
    steer_free(&world->alloc, world->orca_watch, sizeof *world->orca_watch);
    world->orca_watch = NULL;
}

/// The half-planes kept for vehicle `vehicle` in the last step, or NULL.
const SteerOrcaWatch *steer_orca_watched(const SteerWorld *world, const SteerVehicle *vehicle)
{
    const SteerOrcaWatch *watch = world->orca_watch;
    if (!watch || !watch->kept || watch->slot != steer_vehicle_slot(world, vehicle) ||
        watch->generation != vehicle->header.generation || watch->step + 1 != world->step_count)
        return NULL;
    return watch;
}

int steer_orca_watch_count(const SteerOrcaWatch *watch) { return watch->count; }

bool steer_orca_watch_line(const SteerOrcaWatch *watch, int i, SteerVec2 *point, SteerVec2 *normal, int *kind,
                           bool *bound, double *limit)
{
    if (i < 0 || i >= watch->count) return false;
    *point = watch->lines[i].point;
    *normal = watch->lines[i].normal;
    *kind = watch->kinds[i];
    *bound = i == watch->bound;
    *limit = watch->limit;
    return true;
}

SteerResult steer_vehicle_orca_constraint(const SteerWorld *world, SteerVehicleId id, SteerOrcaConstraint *out)
{
    STEER_ENTRY(world);
    SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle) return steer_vehicle_invalid_id(world, id);
    if (!out) return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "out is NULL (expected a SteerOrcaConstraint)");
    SteerOrcaConstraint c;
    memset(&c, 0, sizeof c);
    const SteerBehaviourSlot *slot = orca_slot(vehicle);
    int bound = slot ? slot->detail.waypoint : STEER_ORCA_FREE;
    if (bound < STEER_ORCA_FREE || bound > STEER_ORCA_CROWDED) bound = STEER_ORCA_FREE; /* before its first step */
    c.bound = (SteerOrcaBound)bound;
    double at = slot ? slot->detail.box_length : -1.0;
    int other = at >= 0.0 && at < (double)INT32_MAX ? (int)at : -1;
    if (bound == STEER_ORCA_VEHICLE && other >= 0 && other < world->vehicles.count) {
        const SteerVehicle *v = steer_pool_at(&world->vehicles, other);
        if (v->header.alive) c.vehicle = (SteerVehicleId){(uint32_t)other + 1, world->tag, v->header.generation};
    } else if (bound == STEER_ORCA_OBSTACLE && other >= 0 && other < world->obstacles.count) {
        const SteerObstacle *o = steer_pool_at(&world->obstacles, other);
        if (o->header.alive) c.obstacle = (SteerObstacleId){(uint32_t)other + 1, world->tag, o->header.generation};
    } else if (bound == STEER_ORCA_WALL && other >= 0 && other < world->walls.count) {
        const SteerWall *w = steer_pool_at(&world->walls, other);
        if (w->header.alive) c.wall = (SteerWallId){(uint32_t)other + 1, world->tag, w->header.generation};
    }
    *out = c;
    return STEER_OK;
}

/* ---- The behaviour and the step ------------------------------------------------------------- */

/// Its force is zero: it acts on the velocity after the forces are combined (steer_orca_velocity).
STEER_BEHAVIOUR_FORCE(orca)
{
    (void)world;
    slot->state.target = vehicle->position;
    return steer_vec2(0.0, 0.0);
}

void steer_orca_refresh(SteerVehicle *vehicle)
{
    const SteerBehaviourSlot *slot = orca_slot(vehicle);
    if (!slot) {
        vehicle->avoid_bits = 0;
        vehicle->avoid_precedence = 0;
        vehicle->avoid_mask = 0;
        return;
    }
    const SteerOrcaParams *p = &slot->def.orca;
    vehicle->avoid_bits = (uint8_t)((p->layer & STEER_AVOID_LAYER) | STEER_AVOID_ON);
    vehicle->avoid_precedence = (uint8_t)p->precedence;
    vehicle->avoid_mask = (uint16_t)p->avoids;
}

/// How far ahead in creation order orca_ask_ahead asks for a vehicle's own place in the grid, and
/// then for its neighbours' entries.
#define ORCA_AHEAD_PLACE 12
#define ORCA_AHEAD_NEIGHBOURS 6
/// Lines of entries orca_ask_ahead asks for per row of cells.
#define ORCA_AHEAD_LINES 16

/// Asks the memory, into the second-level cache, for what the vehicles a few places later in
/// creation order (the step's order) will read: the entries of their neighbours. Those lie
/// wherever the grid sorted them, as a rule nowhere near the last vehicle's (in a dense crowd of
/// 10,000, a wait on each neighbour's first line was most of orca's time). Two stages, so that
/// neither waits: the grid's float position of the vehicle ORCA_AHEAD_PLACE later, then, for the
/// one ORCA_AHEAD_NEIGHBOURS later (its position in cache by then), the runs of entries of the
/// cells around it (those a neighbour within a cell's width can be in). Changes nothing - which is
/// why it is inlined: GCC takes a function of loads and prefetches alone for one without effects
/// and drops the call.
ORCA_INLINE void orca_ask_ahead(const SteerWorld *world, const SteerGrid *g, int rank)
{
#if defined(__GNUC__)
    int n = world->order_count;
    if (!g->float_ok || g->wrap || g->count != n) return; /* (a wrapping grid: not worth its arithmetic) */
    if (rank + ORCA_AHEAD_PLACE < n) {
        int k = g->where[world->order[rank + ORCA_AHEAD_PLACE]];
        if (k >= 0) {
            __builtin_prefetch(&g->fx[k], 0, 1);
            __builtin_prefetch(&g->fy[k], 0, 1);
        }
    }
    if (rank + ORCA_AHEAD_NEIGHBOURS >= n) return;
    int k = g->where[world->order[rank + ORCA_AHEAD_NEIGHBOURS]];
    if (k < 0) return;
    float fx = g->fx[k] * (float)g->inv_w, fy = g->fy[k] * (float)g->inv_h;
    if (!(fx >= 0.0f && fy >= 0.0f && fx < (float)g->cols && fy < (float)g->rows)) return;
    int col = (int)fx, row = (int)fy;
    int c0 = col > 0 ? col - 1 : 0, c1 = col + 1 < g->cols ? col + 1 : g->cols - 1;
    int r0 = row > 0 ? row - 1 : 0, r1 = row + 1 < g->rows ? row + 1 : g->rows - 1;
    for (int r = r0; r <= r1; r++) {
        int begin = g->cell_start[r * g->cols + c0], end = g->cell_start[r * g->cols + c1 + 1];
        if (begin >= end) continue;
        /* A fixed number of lines, whatever the run's length (about ten entries in the dense crowd:
         * fifteen lines): a loop to the run's end mispredicted its exit three times a vehicle. The
         * lines past a short run's end are the next cells' - prefetches never fault. */
        uintptr_t from = (uintptr_t)&g->entry[begin];
        for (unsigned line = 0; line < ORCA_AHEAD_LINES; line++)
            __builtin_prefetch((const void *)(from + 64u * line), 0, 1);
        __builtin_prefetch(&g->fx[begin], 0, 1);
        __builtin_prefetch(&g->fx[end - 1], 0, 1);
        __builtin_prefetch(&g->fy[begin], 0, 1);
        __builtin_prefetch(&g->fy[end - 1], 0, 1);
    }
#else
    (void)world;
    (void)g;
    (void)rank;
#endif
}

SteerVec2 steer_orca_velocity(const SteerWorld *world, SteerVehicle *vehicle, SteerVec2 preferred)
{
    SteerBehaviourSlot *slot = orca_slot(vehicle);
    if (!slot) return preferred;
    if (vehicle->avoid_mask) orca_ask_ahead(world, steer_world_grid(world), vehicle->rank);
    const SteerOrcaParams *p = &slot->def.orca;
    double dt = world->def.dt;
    OrcaLine lines[ORCA_MAX_LINES], scratch[ORCA_MAX_LINES];
    OrcaSource sources[ORCA_MAX_LINES];
    OrcaNeighbour neighbours[STEER_ORCA_MAX_NEIGHBORS];

    int hard = static_lines(world, vehicle, p, dt, lines, sources);
    int count = hard;
    double range = p->range > 0.0 ? p->range : vehicle->neighbor_radius;
    int max = p->max_neighbors < 1                          ? 1
              : p->max_neighbors > STEER_ORCA_MAX_NEIGHBORS ? STEER_ORCA_MAX_NEIGHBORS
                                                            : p->max_neighbors;
    int found = vehicle->avoid_mask ? gather_neighbours(world, vehicle, range, max, neighbours) : 0;
    SteerVec2 own = vehicle->velocity;
    int self_rank = vehicle->rank;
    const SteerGrid *g = found ? steer_world_grid(world) : NULL;
    double inverse_horizon = 1.0 / p->horizon, inverse_dt = 1.0 / dt;
    for (int i = 0; i < found; i++) {
        const OrcaNeighbour *n = &neighbours[i];
        const SteerGridEntry *e = &g->entry[n->entry];
        /* On the very same point: the older goes one way, the younger the other. */
        SteerVec2 side =
            steer_scale(steer_perp(vehicle->heading), (double)(2 * (self_rank < n->rank) - 1)); /* (no branch) */
        sources[count] = (OrcaSource){STEER_ORCA_VEHICLE, e->slot};
        lines[count++] =
            disc_line(n->offset, steer_sub(own, steer_vec2(e->vx, e->vy)), (vehicle->radius + e->radius) * ORCA_MARGIN,
                      p->horizon, inverse_horizon, dt, inverse_dt, share_against(vehicle, e), own, side);
    }

    double limit = vehicle->max_speed;
    if (count > 0) {
        /* Among others (or before an obstacle dead ahead), the preferred velocity turns a little to one side, the same
         * for everyone (as walkers keep to one side), give or take a little that differs by vehicle and step: a crowd
         * that is symmetric (the circle test) otherwise stalls where everyone meets. A turn by atan(t), from (1, t)
         * normalised: no libm trigonometry, the same bits everywhere. */
        double t = ORCA_KEEP_SIDE + ORCA_JITTER * (orca_unit_hash((uint64_t)self_rank, world->step_count) - 0.5);
        double norm = 1.0 / sqrt(1.0 + t * t);
        preferred = steer_rotate(preferred, steer_vec2(norm, t * norm));
    }
    SteerVec2 chosen;
    int moved = -1;
    int failed = solve_plane(lines, count, limit, preferred, false, &chosen, &moved);
    if (failed < count) solve_least_violation(lines, count, hard, failed, limit, &chosen, scratch);
    /* What bound it, for inspectors (steer_vehicle_orca_constraint): in the slot's detail, which orca
     * has no other use for - its kind as the waypoint, the pool slot of what it was as the box
     * length. */
    int bound = failed < count                               ? STEER_ORCA_CROWDED
                : moved >= 0                                 ? sources[moved].kind
                : steer_length_sq(preferred) > limit * limit ? STEER_ORCA_SPEED
                                                             : STEER_ORCA_FREE;
    slot->detail.waypoint = bound;
    /* Pinned for the next step (standing) - kept in the slot's waypoint too, which the checksum
     * sums: it changes what the next step does. */
    bool pinned = failed < count && hard > 0;
    vehicle->avoid_bits =
        (uint8_t)(pinned ? vehicle->avoid_bits | STEER_AVOID_PINNED : vehicle->avoid_bits & ~STEER_AVOID_PINNED);
    slot->waypoint = pinned;
    slot->detail.box_length = failed == count && moved >= 0 ? (double)sources[moved].slot : -1.0;
    SteerOrcaWatch *watch = world->orca_watch;
    if (watch && watch->slot == steer_vehicle_slot(world, vehicle) && watch->generation == vehicle->header.generation)
        orca_watch_keep(watch, world, lines, sources, count, failed < count ? -1 : moved, limit);
    if (!steer_vec2_is_finite(chosen)) chosen = preferred; /* (never seen: inputs are finite) */

    /* max_force bounds how fast the velocity may change, as for every other behaviour: the
     * velocity moves toward the safe one by at most max_force / mass · dt this step. */
    double reach = vehicle->max_force / vehicle->mass * dt;
    SteerVec2 velocity = steer_add(own, steer_truncate(steer_sub(chosen, own), reach));
    velocity = steer_truncate(velocity, limit);
    vehicle->force = steer_scale(steer_sub(velocity, own), vehicle->mass / dt);
    /* For inspectors: the change avoidance made to the preferred velocity, as a force, and where the
     * chosen velocity leads in one second. */
    slot->state.force = steer_scale(steer_sub(velocity, preferred), vehicle->mass / dt);
    slot->state.target = steer_add(vehicle->position, chosen);
    slot->state.kept = 1.0;
    /* For the debug drawing (steer_draw_orca): where the preferred velocity, the safe one and the
     * one taken lead in a second, in the slot's otherwise unused feeler ends. */
    slot->detail.feelers[0] = steer_add(vehicle->position, preferred);
    slot->detail.feelers[1] = steer_add(vehicle->position, chosen);
    slot->detail.feelers[2] = steer_add(vehicle->position, velocity);
    return velocity;
}

SteerVec2 steer_orca_heading(const SteerVehicle *vehicle, SteerVec2 velocity, double dt)
{
    double speed_sq = steer_length_sq(velocity);
    if (speed_sq <= 1e-6) return vehicle->heading;
    SteerVec2 direction = steer_scale(velocity, 1.0 / sqrt(speed_sq));
    const SteerBehaviourSlot *slot = orca_slot(vehicle);
    double smoothing = slot ? slot->def.orca.heading_smoothing : 0.0;
    if (!(smoothing > 0.0)) return direction;
    /* The heading follows the direction of motion with time constant `smoothing`, and the slower
     * the vehicle goes, the more slowly: below half its max_speed in proportion to its speed, so
     * that one nearly at rest, jostled this way and that, keeps facing where it was going. */
    double rate = 2.0 * sqrt(speed_sq) / vehicle->max_speed;
    if (rate > 1.0) rate = 1.0;
    double k = rate * dt / (smoothing + dt);
    SteerVec2 heading = vehicle->heading;
    if (steer_dot(heading, direction) < 0.0) {
        /* more than a quarter turn away: toward the side first (a blend straight across would not
         * turn at all) */
        direction = steer_cross(heading, direction) >= 0.0 ? steer_perp(heading) : steer_neg(steer_perp(heading));
    }
    SteerVec2 blended = steer_add(heading, steer_scale(steer_sub(direction, heading), k));
    double length = steer_length(blended);
    return length > 1e-9 ? steer_scale(blended, 1.0 / length) : heading;
}
