/* SPDX-License-Identifier: MIT */
/* queries.c - questions scripts and behaviours ask about who is where.
 * Candidates come from the grids (grid.h); each is then tested exactly as the documented semantics
 * say (shortest wrapped offset, kinds, exclusion, view cone), and results are put back into
 * creation (or slot) order. */
#include <stdlib.h>

#include "world_internal.h"

SteerQueryFilter steer_default_query_filter(void)
{
    SteerQueryFilter filter = {0};
    filter.view_angle = 2.0 * STEER_PI;
    filter.heading = steer_vec2(1.0, 0.0);
    return filter;
}

static bool filter_ok(const SteerWorld *world, const SteerQueryFilter *filter)
{
    if (!filter) return true;
    if (!(isfinite(filter->view_angle) && filter->view_angle > 0.0)) {
        steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "view_angle must be a positive finite number (got %g)",
                   filter->view_angle);
        /* `SteerQueryFilter filter = {0}`: a cone of no width, which sees nothing */
        if (filter->view_angle == 0.0 && filter->heading.x == 0.0 && filter->heading.y == 0.0)
            steer_fail_hint(world, STEER_ERROR_INVALID_ARGUMENT,
                            "was the filter zeroed instead of made by steer_default_query_filter()?");
        return false;
    }
    if (filter->view_angle < 2.0 * STEER_PI && !steer_vec2_is_finite(filter->heading)) {
        steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "heading must be finite");
        return false;
    }
    return true;
}

/// Does the vehicle at `offset` from the asker (with this slot index) pass the filter?
static bool passes(const SteerWorld *world, const SteerQueryFilter *filter, int index, const SteerVehicle *vehicle,
                   SteerVec2 offset)
{
    if (!filter) return true;
    if (filter->kinds && !(filter->kinds & (1ULL << vehicle->kind))) return false;
    if (filter->exclude.index1 == (uint32_t)index + 1 && filter->exclude.world == world->tag &&
        filter->exclude.generation == vehicle->header.generation)
        return false;
    if (filter->view_angle < 2.0 * STEER_PI) {
        double length = steer_length(offset);
        if (length > 1e-12) {
            double cosine = steer_dot(offset, steer_normalize(filter->heading)) / length;
            if (cosine < cos(0.5 * filter->view_angle)) return false;
        }
    }
    return true;
}

static SteerVehicleId id_of(const SteerWorld *world, int slot)
{
    const SteerVehicle *vehicle = steer_pool_at(&world->vehicles, slot);
    return (SteerVehicleId){(uint32_t)slot + 1, world->tag, vehicle->header.generation};
}

/* Both queries walk the cells around the point through the index (grid.h): the sorted vehicles
 * of the last build, skipping those detached since, and the vehicles placed in each cell since.
 * A sorted entry answers the kind test and, when it holds the position itself, the distance test
 * without touching the vehicle: only the few that pass read it (for the filter's other tests). */

/// One candidate as the inner loops see it.
typedef struct Candidate {
    int slot, rank;
    uint32_t kind;
    SteerVec2 position;
} Candidate;

/// A sorted entry as a candidate; false when the filter's kinds rule it out.
static inline bool entry_candidate(const SteerWorld *world, const SteerGridEntry *e, uint64_t kinds, Candidate *c)
{
    if (kinds && !((kinds >> e->kind) & 1u)) return false;
    c->slot = e->slot;
    c->rank = e->rank;
    c->kind = e->kind;
    if (e->exact)
        c->position = steer_vec2(e->x, e->y);
    else
        c->position = ((const SteerVehicle *)steer_pool_at(&world->vehicles, e->slot))->position;
    return true;
}

/// A vehicle placed since the build as a candidate.
static inline bool placed_candidate(const SteerWorld *world, int slot, uint64_t kinds, Candidate *c)
{
    const SteerVehicle *vehicle = steer_pool_at(&world->vehicles, slot);
    if (kinds && !((kinds >> vehicle->kind) & 1u)) return false;
    c->slot = slot;
    c->rank = vehicle->rank;
    c->kind = vehicle->kind;
    c->position = vehicle->position;
    return true;
}

/// Hands every candidate in the cells within `reach` of `local` (a point as the grid stores it)
/// that the kinds allow to `consider`: sorted entries not detached since the build, then each
/// cell's vehicles placed since. Inline with a constant `consider`, so no call per candidate.
static inline void walk_candidates(const SteerWorld *world, const SteerGrid *grid, SteerVec2 local, double reach,
                                   uint64_t kinds, void (*consider)(const SteerWorld *, void *, const Candidate *),
                                   void *query)
{
    bool changed = grid->touched_count > 0;
    SteerGridCursor cursor;
    SteerGridRun run;
    Candidate c;
    steer_grid_cursor_begin(&cursor, grid, local.x, local.y, reach);
    while (steer_grid_cursor_next(&cursor, &run)) {
        for (int k = run.begin; k < run.end; k++) {
            /* (most entries of a run are of other kinds when a kind is rare: one byte tells) */
            if (kinds && !((kinds >> grid->entry_kind[k]) & 1u)) continue;
            if (changed && grid->link[grid->entry[k].slot].detached) continue;
            if (entry_candidate(world, &grid->entry[k], 0, &c)) consider(world, query, &c);
        }
        if (!changed) continue;
        for (int cell = run.first_cell; cell < run.first_cell + run.cells; cell++)
            for (int slot = grid->extra_head[cell]; slot >= 0; slot = grid->link[slot].next)
                if (placed_candidate(world, slot, kinds, &c)) consider(world, query, &c);
    }
}

/// What a radius query collects: creation ranks of the vehicles that pass.
typedef struct RadiusQuery {
    SteerVec2 center;
    double radius_sq;
    const SteerQueryFilter *filter;
    int *ranks;
    int count;
} RadiusQuery;

static inline void radius_consider(const SteerWorld *world, void *query, const Candidate *c)
{
    RadiusQuery *q = query;
    SteerVec2 offset = steer_world_offset_fast(world, q->center, c->position);
    if (steer_length_sq(offset) > q->radius_sq) return;
    if (!passes(world, q->filter, c->slot, steer_pool_at(&world->vehicles, c->slot), offset)) return;
    q->ranks[q->count++] = c->rank;
}

/// steer_world_query_radius without naming itself, for steer_world_query_neighbors too.
static int query_radius(const SteerWorld *world, SteerVec2 center, double radius, const SteerQueryFilter *filter,
                        SteerVehicleId *out, int capacity)
{
    if (steer_check_point(world, "", "center", center) != STEER_OK) return -1;
    if (steer_check_range(world, "", "radius", radius, 0.0, STEER_MAX_LENGTH) != STEER_OK) return -1;
    if (!filter_ok(world, filter)) return -1;
    const SteerGrid *grid = steer_world_query_grid(world);
    /* Results are collected as creation ranks, then sorted: the grid lists them by cell. */
    if (!steer_grid_reserve_results((SteerGrid *)grid, &world->alloc, steer_world_vehicle_count(world))) {
        steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
        return -1;
    }
    RadiusQuery q = {center, radius * radius, filter, grid->result, 0};
    walk_candidates(world, grid, steer_grid_local_point(grid, center), radius, filter ? filter->kinds : 0,
                    radius_consider, &q);
    steer_sort_ints(q.ranks, q.count);
    for (int i = 0; out && i < q.count && i < capacity; i++) out[i] = id_of(world, world->order[q.ranks[i]]);
    return q.count;
}

int steer_world_query_radius(const SteerWorld *world, SteerVec2 center, double radius, const SteerQueryFilter *filter,
                             SteerVehicleId *out, int capacity)
{
    STEER_ENTRY(world);
    return query_radius(world, center, radius, filter, out, capacity);
}

/// What a closest query keeps: the best so far.
typedef struct ClosestQuery {
    SteerVec2 point;
    const SteerQueryFilter *filter;
    double best;   ///< squared distance of the best so far (range² to begin with)
    int best_rank; ///< its creation rank, -1 while none
} ClosestQuery;

static inline void closest_consider(const SteerWorld *world, void *query, const Candidate *c)
{
    ClosestQuery *q = query;
    SteerVec2 offset = steer_world_offset_fast(world, q->point, c->position);
    double distance_sq = steer_length_sq(offset);
    if (distance_sq > q->best) return;
    /* Ties go to the vehicle created first, whatever order the cells come in. */
    if (q->best_rank >= 0 && distance_sq == q->best && c->rank > q->best_rank) return;
    if (!passes(world, q->filter, c->slot, steer_pool_at(&world->vehicles, c->slot), offset)) return;
    q->best = distance_sq;
    q->best_rank = c->rank;
}

/* A closest search walks every cell within its range, yet when the kinds it looks for are common
 * the answer is usually much nearer: a hunter asking for the closest of 8,000 prey within 150
 * units finds one within 65 nineteen times in twenty. So it first looks within a radius where,
 * were the vehicles of those kinds spread evenly over the grid, about CLOSEST_FIRST_EXPECTED of
 * them would lie. Whatever it finds there is the answer: everything nearer lies within that
 * radius too, so ties are settled among the same vehicles as by a full search. Only when it finds
 * nothing does it walk the whole range (the first walk is then wasted, which is rare: one time
 * in fifty were they spread evenly). */
#define CLOSEST_FIRST_EXPECTED 4.0

/// The radius of closest's first search, or `reach` when a single search is cheaper.
static double closest_first_reach(const SteerWorld *world, const SteerGrid *grid, uint64_t kinds, double reach)
{
    double population = 0.0;
    if (!kinds) {
        population = steer_world_vehicle_count(world);
    } else {
        for (int k = 0; k < STEER_MAX_KINDS && (kinds >> k); k++)
            if ((kinds >> k) & 1u) population += world->kind_population[k];
    }
    double area = (double)grid->cols * grid->cell_w * (double)grid->rows * grid->cell_h;
    if (!(population > 0.0 && area > 0.0)) return reach;
    /* (squared: a sparse kind, the usual case for a long range, is told without a square root) */
    double first_sq = CLOSEST_FIRST_EXPECTED * area / (STEER_PI * population);
    double cell = grid->cell_w > grid->cell_h ? grid->cell_w : grid->cell_h;
    if (first_sq < cell * cell) first_sq = cell * cell; /* no gain from less than a cell */
    /* else the two walks differ by a row of cells or so */
    return first_sq < 0.5625 * reach * reach ? sqrt(first_sq) : reach; /* 0.5625 = 0.75² */
}

bool steer_world_query_closest(const SteerWorld *world, SteerVec2 point, double range, const SteerQueryFilter *filter,
                               SteerVehicleId *out)
{
    STEER_ENTRY(world);
    if (!steer_vec2_is_finite(point) || !(range >= 0.0) || isnan(range)) {
        steer_fail(world, STEER_ERROR_INVALID_ARGUMENT,
                   "closest needs a finite point and a range >= 0 (got point (%g, %g), range %g)", point.x, point.y,
                   range);
        return false;
    }
    if (!filter_ok(world, filter)) return false;
    /* Any range (infinity too) is fine: it is only compared with squared distances. */
    if (steer_check_point(world, "closest: ", "point", point) != STEER_OK) return false;
    const SteerGrid *grid = steer_world_query_grid(world);
    /* An infinite range would walk every cell anyway; the cursor clamps it to the grid. */
    double reach = isfinite(range) ? range : 1e300;
    uint64_t kinds = filter ? filter->kinds : 0;
    SteerVec2 local = steer_grid_local_point(grid, point);
    double first = closest_first_reach(world, grid, kinds, reach);
    ClosestQuery q = {point, filter, first * first, -1};
    if (first < reach) walk_candidates(world, grid, local, first, kinds, closest_consider, &q);
    if (q.best_rank < 0) {
        q.best = range * range;
        walk_candidates(world, grid, local, reach, kinds, closest_consider, &q);
    }
    if (q.best_rank < 0) return false;
    if (out) *out = id_of(world, world->order[q.best_rank]);
    return true;
}

SteerQueryFilter steer_vehicle_neighbor_filter(const SteerWorld *world, SteerVehicleId id)
{
    SteerQueryFilter filter = steer_default_query_filter();
    const SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle) return filter;
    filter.kinds = vehicle->flock_kinds ? vehicle->flock_kinds : 1ULL << vehicle->kind;
    filter.exclude = id;
    filter.view_angle = steer_vehicle_cold(world, vehicle)->view_angle;
    filter.heading = vehicle->heading;
    return filter;
}

int steer_world_query_neighbors(const SteerWorld *world, SteerVehicleId id, double radius, SteerVehicleId *out,
                                int capacity)
{
    STEER_ENTRY(world);
    const SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle) {
        steer_vehicle_invalid_id(world, id);
        return -1;
    }
    if (radius < 0.0) radius = vehicle->neighbor_radius;
    if (steer_check_range(world, "neighbors: ", "radius", radius, 0.0, STEER_MAX_LENGTH) != STEER_OK) return -1;
    SteerQueryFilter filter = steer_vehicle_neighbor_filter(world, id);
    return query_radius(world, vehicle->position, radius, &filter, out, capacity);
}

/// Is obstacle `o` within `radius` of segment a-b (ab = the offset from a to b)?
static bool obstacle_near_segment(const SteerWorld *world, const SteerObstacle *o, SteerVec2 a, SteerVec2 ab,
                                  double length_sq, double radius)
{
    SteerVec2 ac = steer_world_offset(world, a, o->center);
    double t = length_sq > 0.0 ? steer_dot(ac, ab) / length_sq : 0.0;
    if (t < 0.0) t = 0.0;
    if (t > 1.0) t = 1.0;
    double reach = radius + o->radius;
    return steer_distance_sq(ac, steer_scale(ab, t)) <= reach * reach;
}

int steer_world_query_obstacles(const SteerWorld *world, SteerVec2 a, SteerVec2 b, double radius, SteerObstacleId *out,
                                int capacity)
{
    STEER_ENTRY(world);
    if (!steer_vec2_is_finite(a) || !steer_vec2_is_finite(b) || !(isfinite(radius) && radius >= 0.0)) {
        steer_fail(world, STEER_ERROR_INVALID_ARGUMENT,
                   "obstacle query needs finite ends and a radius >= 0 (got (%g, %g) to (%g, %g), radius %g)", a.x, a.y,
                   b.x, b.y, radius);
        return -1;
    }
    if (steer_check_point(world, "obstacle query: ", "a", a) != STEER_OK ||
        steer_check_point(world, "obstacle query: ", "b", b) != STEER_OK ||
        steer_check_range(world, "obstacle query: ", "radius", radius, 0.0, STEER_MAX_LENGTH) != STEER_OK)
        return -1;
    SteerVec2 ab = steer_world_offset(world, a, b);
    double length_sq = steer_length_sq(ab);
    const SteerShapeGrid *grid = steer_world_obstacle_grid(world);
    int n = 0;
    if (grid) {
        SteerVec2 end = steer_add(a, ab);
        SteerVec2 lo = steer_vec2(fmin(a.x, end.x) - radius, fmin(a.y, end.y) - radius);
        SteerVec2 hi = steer_vec2(fmax(a.x, end.x) + radius, fmax(a.y, end.y) + radius);
        int candidates = steer_shape_grid_candidates(grid, lo, hi);
        for (int c = 0; c < candidates; c++) {
            int i = grid->result[c];
            const SteerObstacle *obstacle = steer_pool_at(&world->obstacles, i);
            if (!obstacle_near_segment(world, obstacle, a, ab, length_sq, radius)) continue;
            if (out && n < capacity)
                out[n] = (SteerObstacleId){(uint32_t)i + 1, world->tag, obstacle->header.generation};
            n++;
        }
        return n;
    }
    /* Out of memory for the grid: the scan still answers correctly. */
    for (int i = 0; i < world->obstacles.count; i++) {
        const SteerObstacle *obstacle = steer_pool_at(&world->obstacles, i);
        if (!obstacle->header.alive || !obstacle_near_segment(world, obstacle, a, ab, length_sq, radius)) continue;
        if (out && n < capacity) out[n] = (SteerObstacleId){(uint32_t)i + 1, world->tag, obstacle->header.generation};
        n++;
    }
    return n;
}
