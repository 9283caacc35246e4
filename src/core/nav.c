/* SPDX-License-Identifier: MIT */
/* nav.c - navigation that feeds steering (steer_nav.h): maps built from the world's walls,
 * obstacles and bounds with a clearance, any-angle paths (A* over the map's cells, then pulled
 * taut along lines of sight), flow fields to a goal (Dijkstra), and the navigate behaviour's
 * planning, which runs at the start of a step on the calling thread, in creation order.
 *
 * Why a path never comes closer than the clearance r to a shape: a cell is free only when its
 * centre is at least r + h·√2/2 from every shape (h the cell size) and the cell lies inside the
 * bounds shrunk by r, so every point of a free cell is at least r from every shape. A segment of
 * the path is accepted only when every cell it touches is free, except the cells near its start or
 * goal (STEER_NAV_WINDOW), where the segment is instead checked exactly against every shape that
 * could come within r of them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "behaviours_internal.h"
#include "nav_internal.h"

/* ---- Small geometry ------------------------------------------------------------------------ */

/// Squared distance from p to segment a-b.
static double point_segment_sq(SteerVec2 p, SteerVec2 a, SteerVec2 b)
{
    SteerVec2 ab = steer_sub(b, a);
    double len_sq = steer_length_sq(ab);
    double t = len_sq > 0.0 ? steer_dot(steer_sub(p, a), ab) / len_sq : 0.0;
    if (t < 0.0) t = 0.0;
    if (t > 1.0) t = 1.0;
    return steer_distance_sq(p, steer_add(a, steer_scale(ab, t)));
}

/// Squared distance between segments p0-p1 and q0-q1 (0 when they cross).
static double segment_segment_sq(SteerVec2 p0, SteerVec2 p1, SteerVec2 q0, SteerVec2 q1)
{
    SteerVec2 r = steer_sub(p1, p0), s = steer_sub(q1, q0);
    double d = steer_cross(r, s);
    if (d != 0.0) {
        SteerVec2 qp = steer_sub(q0, p0);
        double t = steer_cross(qp, s) / d, u = steer_cross(qp, r) / d;
        if (t >= 0.0 && t <= 1.0 && u >= 0.0 && u <= 1.0) return 0.0;
    }
    double best = point_segment_sq(p0, q0, q1);
    best = fmin(best, point_segment_sq(p1, q0, q1));
    best = fmin(best, point_segment_sq(q0, p0, p1));
    return fmin(best, point_segment_sq(q1, p0, p1));
}

/* ---- Maps ---------------------------------------------------------------------------------- */

/// How far a cell's centre must be from a shape beyond the clearance: half its diagonal, rounded
/// up so that no rounding lets a corner of the cell in.
static double cell_margin(const SteerNavMap *map) { return map->clearance + map->cell_size * 0.70711; }

/// Shapes a plan lists near its ends; with more it checks its segments against every shape.
#define NAV_NEAR_CAPACITY 4096

static SteerNav *nav_get(SteerWorld *world)
{
    if (world->nav) return world->nav;
    SteerNav *nav = steer_realloc(&world->alloc, NULL, 0, sizeof *nav);
    if (!nav) return NULL;
    memset(nav, 0, sizeof *nav);
    /* the list of shapes near a plan's ends, at its full size now: plans run in the step */
    nav->near = steer_realloc(&world->alloc, NULL, 0, NAV_NEAR_CAPACITY * sizeof *nav->near);
    if (!nav->near) {
        steer_free(&world->alloc, nav, sizeof *nav);
        return NULL;
    }
    nav->near_capacity = NAV_NEAR_CAPACITY;
    world->nav = nav;
    return nav;
}

static int clamp_int(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/// The cell index of coordinate x along an axis of `count` cells, clamped.
static int cell_of(double x, double h, int count)
{
    double c = floor(x / h);
    if (!(c >= 0.0)) return 0;
    if (c >= (double)count) return count - 1;
    return (int)c;
}

static SteerVec2 cell_centre(const SteerNavMap *map, int x, int y)
{
    return steer_vec2(((double)x + 0.5) * map->cell_size, ((double)y + 0.5) * map->cell_size);
}

/// Recomputes cells [x0, x1] x [y0, y1] from every shape and the bounds: the same per-cell test
/// whatever the rectangle, so that an update equals a full rebuild bit for bit.
static void rasterize(const SteerWorld *world, SteerNavMap *map, int x0, int y0, int x1, int y1)
{
    double h = map->cell_size, r = map->clearance, m = cell_margin(map);
    double w = world->def.width, ht = world->def.height;
    for (int y = y0; y <= y1; y++) {
        for (int x = x0; x <= x1; x++) {
            double cx = ((double)x + 0.5) * h, cy = ((double)y + 0.5) * h;
            bool out = cx - 0.5 * h < r || cx + 0.5 * h > w - r || cy - 0.5 * h < r || cy + 0.5 * h > ht - r;
            map->blocked[(size_t)y * (size_t)map->cols + (size_t)x] = out;
        }
    }
    for (int i = 0; i < world->obstacles.count; i++) {
        const SteerObstacle *o = steer_pool_at(&world->obstacles, i);
        if (!o->header.alive) continue;
        double reach = o->radius + m;
        int ax = clamp_int((int)floor((o->center.x - reach) / h), x0, x1 + 1);
        int bx = clamp_int((int)floor((o->center.x + reach) / h), x0 - 1, x1);
        int ay = clamp_int((int)floor((o->center.y - reach) / h), y0, y1 + 1);
        int by = clamp_int((int)floor((o->center.y + reach) / h), y0 - 1, y1);
        for (int y = ay; y <= by; y++)
            for (int x = ax; x <= bx; x++)
                if (steer_distance_sq(cell_centre(map, x, y), o->center) < reach * reach)
                    map->blocked[(size_t)y * (size_t)map->cols + (size_t)x] = 1;
    }
    for (int i = 0; i < world->walls.count; i++) {
        const SteerWall *wall = steer_pool_at(&world->walls, i);
        if (!wall->header.alive) continue;
        int ax = clamp_int((int)floor((fmin(wall->a.x, wall->b.x) - m) / h), x0, x1 + 1);
        int bx = clamp_int((int)floor((fmax(wall->a.x, wall->b.x) + m) / h), x0 - 1, x1);
        int ay = clamp_int((int)floor((fmin(wall->a.y, wall->b.y) - m) / h), y0, y1 + 1);
        int by = clamp_int((int)floor((fmax(wall->a.y, wall->b.y) + m) / h), y0 - 1, y1);
        for (int y = ay; y <= by; y++)
            for (int x = ax; x <= bx; x++)
                if (point_segment_sq(cell_centre(map, x, y), wall->a, wall->b) < m * m)
                    map->blocked[(size_t)y * (size_t)map->cols + (size_t)x] = 1;
    }
    map->revision++;
}

void steer_nav_map_rebuild(SteerWorld *world, SteerNavMap *map)
{
    rasterize(world, map, 0, 0, map->cols - 1, map->rows - 1);
    map->dirty = false;
}

/// Recomputes what changed since the map was last used.
static void map_refresh(SteerWorld *world, SteerNavMap *map)
{
    if (!map->dirty) return;
    map->dirty = false;
    rasterize(world, map, map->dirty_x0, map->dirty_y0, map->dirty_x1, map->dirty_y1);
}

void steer_nav_shape_changed(SteerWorld *world, SteerVec2 lo, SteerVec2 hi)
{
    SteerNav *nav = world->nav;
    if (!nav) return;
    for (int i = 0; i < nav->map_count; i++) {
        SteerNavMap *map = &nav->maps[i];
        double m = cell_margin(map), h = map->cell_size;
        /* one cell more each way: whatever rounding floor() did above */
        int x0 = cell_of(lo.x - m, h, map->cols) - 1, x1 = cell_of(hi.x + m, h, map->cols) + 1;
        int y0 = cell_of(lo.y - m, h, map->rows) - 1, y1 = cell_of(hi.y + m, h, map->rows) + 1;
        x0 = clamp_int(x0, 0, map->cols - 1), x1 = clamp_int(x1, 0, map->cols - 1);
        y0 = clamp_int(y0, 0, map->rows - 1), y1 = clamp_int(y1, 0, map->rows - 1);
        if (!map->dirty) {
            map->dirty = true;
            map->dirty_x0 = x0, map->dirty_y0 = y0, map->dirty_x1 = x1, map->dirty_y1 = y1;
        } else {
            if (x0 < map->dirty_x0) map->dirty_x0 = x0;
            if (y0 < map->dirty_y0) map->dirty_y0 = y0;
            if (x1 > map->dirty_x1) map->dirty_x1 = x1;
            if (y1 > map->dirty_y1) map->dirty_y1 = y1;
        }
    }
}

/// A clearance rounded up to a multiple of a quarter cell (so that nearly equal radii share a map).
static double quantized_clearance(double radius, double cell_size)
{
    double q = cell_size * 0.25;
    return ceil(radius / q - 1e-9) * q;
}

/// Grows the search scratch to `cells`; false when memory runs out (nothing changed then).
static bool scratch_reserve(SteerNav *nav, const SteerAllocator *a, int cells)
{
    if (cells <= nav->scratch_cells) return true;
    size_t n = (size_t)cells, old = (size_t)nav->scratch_cells;
    float *g = steer_realloc(a, NULL, 0, n * sizeof *g);
    float *f = steer_realloc(a, NULL, 0, n * sizeof *f);
    int32_t *parent = steer_realloc(a, NULL, 0, n * sizeof *parent);
    SteerNavHeapEntry *heap = steer_realloc(a, NULL, 0, n * sizeof *heap);
    int32_t *heap_pos = steer_realloc(a, NULL, 0, n * sizeof *heap_pos);
    uint32_t *mark = steer_realloc(a, NULL, 0, n * sizeof *mark);
    SteerVec2 *points = steer_realloc(a, NULL, 0, (n + 2) * sizeof *points);
    if (!g || !f || !parent || !heap || !heap_pos || !mark || !points) {
        steer_free(a, g, n * sizeof *g);
        steer_free(a, f, n * sizeof *f);
        steer_free(a, parent, n * sizeof *parent);
        steer_free(a, heap, n * sizeof *heap);
        steer_free(a, heap_pos, n * sizeof *heap_pos);
        steer_free(a, mark, n * sizeof *mark);
        steer_free(a, points, (n + 2) * sizeof *points);
        return false;
    }
    steer_free(a, nav->g, old * sizeof *nav->g);
    steer_free(a, nav->f, old * sizeof *nav->f);
    steer_free(a, nav->parent, old * sizeof *nav->parent);
    steer_free(a, nav->heap, old * sizeof *nav->heap);
    steer_free(a, nav->heap_pos, old * sizeof *nav->heap_pos);
    steer_free(a, nav->mark, old * sizeof *nav->mark);
    steer_free(a, nav->cell_points, (old ? old + 2 : 0) * sizeof *nav->cell_points);
    memset(mark, 0, n * sizeof *mark);
    nav->g = g, nav->f = f, nav->parent = parent, nav->heap = heap, nav->heap_pos = heap_pos, nav->mark = mark;
    nav->cell_points = points;
    nav->scratch_cells = cells;
    nav->generation = 0;
    return true;
}

/// Checks a map's parameters; on failure the world's error says why.
static SteerResult check_map_args(SteerWorld *world, double radius, double cell_size, int *cols, int *rows)
{
    TRY(steer_check_range(world, "", "radius", radius, 0.0, STEER_MAX_LENGTH));
    TRY(steer_check_range(world, "", "cell_size", cell_size, STEER_MIN_POSITIVE, STEER_MAX_LENGTH));
    double c = ceil(world->def.width / cell_size), r = ceil(world->def.height / cell_size);
    if (c * r > (double)STEER_NAV_MAX_CELLS)
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT,
                          "a navigation map of cell_size %g over %g x %g would have %.0f cells (at most %d): use a "
                          "larger cell_size",
                          cell_size, world->def.width, world->def.height, c * r, STEER_NAV_MAX_CELLS);
    *cols = (int)c;
    *rows = (int)r;
    return STEER_OK;
}

static SteerNavAgent *agent_of(const SteerWorld *world, const SteerVehicle *vehicle);
static SteerBehaviourSlot *navigate_slot(const SteerWorld *world, SteerVehicle *vehicle);

/// Whether a navigating vehicle (other than `except`) or a flow field to a goal plans on `map`.
/// Such a map is never dropped for a new one, so that the step finds every map it needs and never
/// makes one (which would allocate).
static bool map_in_use(const SteerWorld *world, const SteerNavMap *map, const SteerNavAgent *except)
{
    const SteerNav *nav = world->nav;
    for (int i = 0; i < nav->goal_field_count; i++) {
        const SteerNavGoalField *gf = &nav->goal_fields[i];
        if (gf->def.radius == map->clearance && gf->def.cell_size == map->cell_size &&
            steer_pool_get(&world->fields, gf->id.index1, gf->id.generation))
            return true;
    }
    for (int i = 0; i < nav->agent_capacity && i < world->vehicles.count; i++) {
        const SteerNavAgent *agent = nav->agents[i];
        if (!agent || agent == except || agent->clearance != map->clearance || agent->cell_size != map->cell_size)
            continue;
        SteerVehicle *vehicle = steer_pool_at(&world->vehicles, i);
        if (vehicle->header.alive && agent_of(world, vehicle) == agent && navigate_slot(world, vehicle)) return true;
    }
    return false;
}

/// The map of (clearance, cell_size) when the world has it, brought up to date (its slot into
/// *index, may be NULL); NULL otherwise. Never allocates: the step's way to its maps.
static SteerNavMap *map_find(SteerWorld *world, double clearance, double cell_size, int *index)
{
    SteerNav *nav = world->nav;
    for (int i = 0; nav && i < nav->map_count; i++) {
        SteerNavMap *map = &nav->maps[i];
        if (map->clearance == clearance && map->cell_size == cell_size) {
            map_refresh(world, map);
            map->last_used = ++nav->uses;
            if (index) *index = i;
            return map;
        }
    }
    return NULL;
}

/// The map of (radius, cell_size), made or brought up to date, into *out (and its slot into
/// *index, may be NULL); on failure the world's error says why. A new map takes a free slot, or
/// the least recently used map's that nothing plans on (`except` aside: a vehicle moving to
/// another map); when all STEER_NAV_MAX_MAPS are in use, it is refused.
static SteerResult map_make(SteerWorld *world, double radius, double cell_size, const SteerNavAgent *except,
                            SteerNavMap **out, int *index)
{
    int cols = 0, rows = 0;
    TRY(check_map_args(world, radius, cell_size, &cols, &rows));
    SteerNav *nav = nav_get(world);
    if (!nav) return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
    SteerNavMap *found = map_find(world, radius, cell_size, index);
    if (found) {
        *out = found;
        return STEER_OK;
    }
    int slot = nav->map_count;
    if (slot == STEER_NAV_MAX_MAPS) { /* the least recently used map that nothing plans on goes */
        slot = -1;
        for (int i = 0; i < nav->map_count; i++)
            if ((slot < 0 || nav->maps[i].last_used < nav->maps[slot].last_used) &&
                !map_in_use(world, &nav->maps[i], except))
                slot = i;
        if (slot < 0)
            return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT,
                              "a navigation map of clearance %g and cell_size %g would be a ninth in use (at most "
                              "%d, one per clearance and cell size): share navigate's `radius` or use fewer radii",
                              radius, cell_size, STEER_NAV_MAX_MAPS);
    }
    size_t cells = (size_t)cols * (size_t)rows;
    if (!scratch_reserve(nav, &world->alloc, (int)cells))
        return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
    uint8_t *blocked = steer_realloc(&world->alloc, NULL, 0, cells);
    if (!blocked) return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
    if (slot == nav->map_count) {
        nav->map_count++;
    } else {
        SteerNavMap *old = &nav->maps[slot];
        steer_free(&world->alloc, old->blocked, (size_t)old->cols * (size_t)old->rows);
    }
    SteerNavMap *map = &nav->maps[slot];
    uint32_t revision = map->revision; /* a reused slot's revision keeps growing: plans on it notice */
    memset(map, 0, sizeof *map);
    map->revision = revision + 1;
    map->clearance = radius;
    map->cell_size = cell_size;
    map->cols = cols;
    map->rows = rows;
    map->blocked = blocked;
    map->last_used = ++nav->uses;
    steer_nav_map_rebuild(world, map);
    if (index) *index = slot;
    *out = map;
    return STEER_OK;
}

static SteerResult map_for(SteerWorld *world, double radius, double cell_size, SteerNavMap **out, int *index)
{
    return map_make(world, radius, cell_size, NULL, out, index);
}

const SteerNavMap *steer_nav_map_get(SteerWorld *world, double radius, double cell_size)
{
    SteerNavMap *map;
    return map_for(world, radius, cell_size, &map, NULL) == STEER_OK ? map : NULL;
}

/* ---- Lines of sight ------------------------------------------------------------------------ */

/// One plan's context: the map, its ends, and the shapes that could come within the clearance of
/// the cells near them (the only cells a segment may cross while blocked; checked exactly).
typedef struct NavPlan {
    const SteerWorld *world;
    SteerNav *nav;
    const SteerNavMap *map;
    SteerVec2 start, goal;
    int sx, sy, gx, gy;
    int near_count;
    bool near_all; ///< too many shapes near the ends for the list: check against every shape
} NavPlan;

static bool in_window(int x, int y, int cx, int cy)
{
    return abs(x - cx) <= STEER_NAV_WINDOW && abs(y - cy) <= STEER_NAV_WINDOW;
}

static bool near_window(const NavPlan *p, int x, int y)
{
    return in_window(x, y, p->sx, p->sy) || in_window(x, y, p->gx, p->gy);
}

/// Whether a shape's box [lo, hi] widened by the clearance meets the window around cell (cx, cy).
static bool box_meets_window(const NavPlan *p, SteerVec2 lo, SteerVec2 hi, int cx, int cy)
{
    double h = p->map->cell_size, r = p->map->clearance;
    double wx0 = (cx - STEER_NAV_WINDOW) * h, wx1 = (cx + STEER_NAV_WINDOW + 1) * h;
    double wy0 = (cy - STEER_NAV_WINDOW) * h, wy1 = (cy + STEER_NAV_WINDOW + 1) * h;
    return hi.x + r >= wx0 && lo.x - r <= wx1 && hi.y + r >= wy0 && lo.y - r <= wy1;
}

/// Lists a shape near the plan's ends; false when the list is full (never allocates: plans run in
/// the step).
static bool plan_near_add(NavPlan *p, int ref)
{
    SteerNav *nav = p->nav;
    if (p->near_count == nav->near_capacity) return false;
    nav->near[p->near_count++] = ref;
    return true;
}

/// Sets up a plan from start to goal on `map` (the ends' cells and the shapes near them).
static void plan_init(NavPlan *p, const SteerWorld *world, SteerNav *nav, const SteerNavMap *map, SteerVec2 start,
                      SteerVec2 goal)
{
    p->world = world;
    p->nav = nav;
    p->map = map;
    p->start = start;
    p->goal = goal;
    p->sx = cell_of(start.x, map->cell_size, map->cols), p->sy = cell_of(start.y, map->cell_size, map->rows);
    p->gx = cell_of(goal.x, map->cell_size, map->cols), p->gy = cell_of(goal.y, map->cell_size, map->rows);
    p->near_count = 0;
    p->near_all = false;
    for (int i = 0; i < world->obstacles.count && !p->near_all; i++) {
        const SteerObstacle *o = steer_pool_at(&world->obstacles, i);
        if (!o->header.alive) continue;
        SteerVec2 lo = steer_sub(o->center, steer_vec2(o->radius, o->radius));
        SteerVec2 hi = steer_add(o->center, steer_vec2(o->radius, o->radius));
        if ((box_meets_window(p, lo, hi, p->sx, p->sy) || box_meets_window(p, lo, hi, p->gx, p->gy)) &&
            !plan_near_add(p, i * 2))
            p->near_all = true;
    }
    for (int i = 0; i < world->walls.count && !p->near_all; i++) {
        const SteerWall *w = steer_pool_at(&world->walls, i);
        if (!w->header.alive) continue;
        SteerVec2 lo = steer_vec2(fmin(w->a.x, w->b.x), fmin(w->a.y, w->b.y));
        SteerVec2 hi = steer_vec2(fmax(w->a.x, w->b.x), fmax(w->a.y, w->b.y));
        if ((box_meets_window(p, lo, hi, p->sx, p->sy) || box_meets_window(p, lo, hi, p->gx, p->gy)) &&
            !plan_near_add(p, i * 2 + 1))
            p->near_all = true;
    }
}

static bool shape_clear(const SteerWorld *world, int ref, SteerVec2 a, SteerVec2 b, double r)
{
    if ((ref & 1) == 0) {
        const SteerObstacle *o = steer_pool_at(&world->obstacles, ref / 2);
        double reach = o->radius + r;
        return !(point_segment_sq(o->center, a, b) < reach * reach);
    }
    const SteerWall *w = steer_pool_at(&world->walls, ref / 2);
    return !(segment_segment_sq(a, b, w->a, w->b) < r * r);
}

/// Segment a-b checked exactly: at least `r` from every shape near the plan's ends (or from every
/// shape, when there were too many to list).
static bool exact_clear_by(const NavPlan *p, SteerVec2 a, SteerVec2 b, double r)
{
    const SteerWorld *world = p->world;
    if (!p->near_all) {
        for (int i = 0; i < p->near_count; i++)
            if (!shape_clear(world, p->nav->near[i], a, b, r)) return false;
        return true;
    }
    for (int i = 0; i < world->obstacles.count; i++)
        if (((const SteerObstacle *)steer_pool_at(&world->obstacles, i))->header.alive &&
            !shape_clear(world, i * 2, a, b, r))
            return false;
    for (int i = 0; i < world->walls.count; i++)
        if (((const SteerWall *)steer_pool_at(&world->walls, i))->header.alive &&
            !shape_clear(world, i * 2 + 1, a, b, r))
            return false;
    return true;
}

/// ... at least the clearance.
static bool exact_clear(const NavPlan *p, SteerVec2 a, SteerVec2 b)
{
    return exact_clear_by(p, a, b, p->map->clearance);
}

/// Whether a point lies inside the bounds shrunk by the clearance.
static bool inside_bounds(const NavPlan *p, SteerVec2 q)
{
    double r = p->map->clearance;
    return q.x >= r && q.x <= p->world->def.width - r && q.y >= r && q.y <= p->world->def.height - r;
}

/// Line of sight from a to b (each a cell centre, the start or the goal): every cell the segment
/// touches is free, or near an end and the segment is clear of the shapes there.
static bool line_of_sight(const NavPlan *p, SteerVec2 a, SteerVec2 b)
{
    const SteerNavMap *map = p->map;
    double inv = 1.0 / map->cell_size;
    double x = a.x * inv, y = a.y * inv, ex = b.x * inv, ey = b.y * inv;
    int ix = (int)floor(x), iy = (int)floor(y), jx = (int)floor(ex), jy = (int)floor(ey);
    double dx = ex - x, dy = ey - y;
    int step_x = dx > 0.0 ? 1 : dx < 0.0 ? -1 : 0, step_y = dy > 0.0 ? 1 : dy < 0.0 ? -1 : 0;
    double delta_x = step_x ? 1.0 / fabs(dx) : INFINITY, delta_y = step_y ? 1.0 / fabs(dy) : INFINITY;
    double max_x = step_x > 0 ? (ix + 1 - x) * delta_x : step_x < 0 ? (x - ix) * delta_x : INFINITY;
    double max_y = step_y > 0 ? (iy + 1 - y) * delta_y : step_y < 0 ? (y - iy) * delta_y : INFINITY;
    bool exact = false;
    int steps = abs(jx - ix) + abs(jy - iy) + 2;
#define NAV_VISIT(cx, cy)                                                                                              \
    do {                                                                                                               \
        int vx_ = (cx), vy_ = (cy);                                                                                    \
        if (vx_ < 0 || vy_ < 0 || vx_ >= map->cols || vy_ >= map->rows) return false;                                  \
        if (map->blocked[(size_t)vy_ * (size_t)map->cols + (size_t)vx_]) {                                             \
            if (!near_window(p, vx_, vy_)) return false;                                                               \
            exact = true;                                                                                              \
        }                                                                                                              \
    } while (0)
    NAV_VISIT(ix, iy);
    while ((ix != jx || iy != jy) && steps-- > 0) {
        if (max_x < max_y) {
            ix += step_x;
            max_x += delta_x;
        } else if (max_y < max_x) {
            iy += step_y;
            max_y += delta_y;
        } else { /* through a corner: the two cells beside it count too */
            NAV_VISIT(ix + step_x, iy);
            NAV_VISIT(ix, iy + step_y);
            ix += step_x;
            iy += step_y;
            max_x += delta_x;
            max_y += delta_y;
        }
        NAV_VISIT(ix, iy);
    }
    NAV_VISIT(jx, jy);
#undef NAV_VISIT
    return exact ? exact_clear(p, a, b) : true;
}

/* ---- The search ---------------------------------------------------------------------------- */

static const int NAV_DX[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const int NAV_DY[8] = {0, 0, 1, -1, 1, -1, 1, -1};
#define NAV_SQRT2 1.41421356237309515f

/// Heap order: smaller f first, then larger g (deeper first), then smaller cell: a total order, so
/// the search is the same whatever happened before.
static inline bool heap_less(const SteerNavHeapEntry *a, const SteerNavHeapEntry *b)
{
    if (a->f != b->f) return a->f < b->f;
    if (a->g != b->g) return a->g > b->g;
    return a->cell < b->cell;
}

static void heap_up(SteerNav *nav, int i)
{
    SteerNavHeapEntry e = nav->heap[i];
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!heap_less(&e, &nav->heap[parent])) break;
        nav->heap[i] = nav->heap[parent];
        nav->heap_pos[nav->heap[i].cell] = i;
        i = parent;
    }
    nav->heap[i] = e;
    nav->heap_pos[e.cell] = i;
}

static void heap_down(SteerNav *nav, int i, int n)
{
    SteerNavHeapEntry e = nav->heap[i];
    for (;;) {
        int child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && heap_less(&nav->heap[child + 1], &nav->heap[child])) child++;
        if (!heap_less(&nav->heap[child], &e)) break;
        nav->heap[i] = nav->heap[child];
        nav->heap_pos[nav->heap[i].cell] = i;
        i = child;
    }
    nav->heap[i] = e;
    nav->heap_pos[e.cell] = i;
}

static void heap_push(SteerNav *nav, int *n, int32_t cell, float f, float g)
{
    nav->heap[*n] = (SteerNavHeapEntry){f, g, cell};
    heap_up(nav, (*n)++);
}

/// The cell's keys fell: it moves up.
static void heap_decrease(SteerNav *nav, int32_t cell, float f, float g)
{
    int i = nav->heap_pos[cell];
    nav->heap[i].f = f;
    nav->heap[i].g = g;
    heap_up(nav, i);
}

static int32_t heap_pop(SteerNav *nav, int *n)
{
    int32_t cell = nav->heap[0].cell;
    nav->heap[0] = nav->heap[--*n];
    if (*n > 0) {
        nav->heap_pos[nav->heap[0].cell] = 0;
        heap_down(nav, 0, *n);
    }
    return cell;
}

/// A new search generation: marks of older ones read as unseen.
static uint32_t next_generation(SteerNav *nav)
{
    if (nav->generation >= 0x7ffffffe) {
        memset(nav->mark, 0, (size_t)nav->scratch_cells * sizeof *nav->mark);
        nav->generation = 0;
    }
    nav->generation++;
    return nav->generation * 2; /* seen: this; closed: this + 1 */
}

/// Octile distance between cells, in cells.
static float octile(int ax, int ay, int bx, int by)
{
    int dx = abs(ax - bx), dy = abs(ay - by);
    int lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
    return (float)(hi - lo) + NAV_SQRT2 * (float)lo;
}

/* Jump point search (Harabor and Grastien, 2011), in its variant that moves diagonally only
 * between two free orthogonal neighbours: A* over the cells where a shortest path may turn (jump
 * points), scanning straight and diagonal runs between them instead of queueing every cell. The
 * same shortest paths, far fewer heap operations. The goal's candidate cells are jump points. */
typedef struct NavJump {
    const uint8_t *blocked;
    int cols, rows;
    int gx, gy;
    const float *goal_leg;
} NavJump;

static inline bool walkable(const NavJump *j, int x, int y)
{
    return x >= 0 && y >= 0 && x < j->cols && y < j->rows && !j->blocked[(size_t)y * (size_t)j->cols + (size_t)x];
}

static inline bool goal_candidate(const NavJump *j, int x, int y)
{
    if (!in_window(x, y, j->gx, j->gy)) return false;
    int w = (y - j->gy + STEER_NAV_WINDOW) * (2 * STEER_NAV_WINDOW + 1) + (x - j->gx + STEER_NAV_WINDOW);
    return j->goal_leg[w] != INFINITY;
}

/// A horizontal run from (x, y), reached by a step (dx, 0) from a cell of the grid: the next jump
/// point's cell, or -1 when the run ends against a blocked cell or the edge first. Its row and the
/// rows beside it are read directly (this scan is most of a search's time).
static int32_t jump_x(const NavJump *j, int x, int y, int dx)
{
    const uint8_t *row = j->blocked + (size_t)y * (size_t)j->cols;
    const uint8_t *up = y > 0 ? row - j->cols : NULL, *down = y + 1 < j->rows ? row + j->cols : NULL;
    bool goal_row = abs(y - j->gy) <= STEER_NAV_WINDOW;
    for (;; x += dx) {
        if (x < 0 || x >= j->cols || row[x]) return -1;
        if (goal_row && abs(x - j->gx) <= STEER_NAV_WINDOW && goal_candidate(j, x, y)) return y * j->cols + x;
        int back = x - dx; /* the cell it came from: inside the grid */
        if ((up && !up[x] && up[back]) || (down && !down[x] && down[back])) return y * j->cols + x;
    }
}

/// The same, vertically: a step (0, dy).
static int32_t jump_y(const NavJump *j, int x, int y, int dy)
{
    const uint8_t *column = j->blocked + x;
    size_t cols = (size_t)j->cols;
    bool left = x > 0, right = x + 1 < j->cols;
    bool goal_column = abs(x - j->gx) <= STEER_NAV_WINDOW;
    for (;; y += dy) {
        if (y < 0 || y >= j->rows) return -1;
        const uint8_t *at = column + (size_t)y * cols, *back = column + (size_t)(y - dy) * cols;
        if (*at) return -1;
        if (goal_column && abs(y - j->gy) <= STEER_NAV_WINDOW && goal_candidate(j, x, y)) return y * j->cols + x;
        if ((left && !at[-1] && back[-1]) || (right && !at[1] && back[1])) return y * j->cols + x;
    }
}

/// From (x, y), reached by a step (dx, dy), on in that direction to the next jump point: its cell,
/// or -1 when the run ends against a blocked cell first.
static int32_t jump(const NavJump *j, int x, int y, int dx, int dy)
{
    if (!dy) return jump_x(j, x, y, dx);
    if (!dx) return jump_y(j, x, y, dy);
    for (;;) {
        if (!walkable(j, x, y)) return -1;
        if (goal_candidate(j, x, y)) return y * j->cols + x;
        if (jump_x(j, x + dx, y, dx) >= 0 || jump_y(j, x, y + dy, dy) >= 0) return y * j->cols + x;
        if (!walkable(j, x + dx, y) || !walkable(j, x, y + dy)) return -1;
        x += dx;
        y += dy;
    }
}

static int sign_of(int v) { return (v > 0) - (v < 0); }

/// The directions worth scanning from (x, y), reached from its parent in direction (dx, dy) (0, 0:
/// a start, every direction); returns how many, written to dirs as (dx, dy) pairs.
static int pruned_directions(const NavJump *j, int x, int y, int dx, int dy, int dirs[16])
{
    int n = 0;
#define NAV_DIR(a, b) (dirs[2 * n] = (a), dirs[2 * n + 1] = (b), n++)
    if (dx == 0 && dy == 0) {
        for (int d = 0; d < 8; d++) {
            int ax = NAV_DX[d], ay = NAV_DY[d];
            if (!walkable(j, x + ax, y + ay)) continue;
            if (ax && ay && (!walkable(j, x + ax, y) || !walkable(j, x, y + ay))) continue;
            NAV_DIR(ax, ay);
        }
    } else if (dx && dy) {
        bool across = walkable(j, x + dx, y), down = walkable(j, x, y + dy);
        if (down) NAV_DIR(0, dy);
        if (across) NAV_DIR(dx, 0);
        if (across && down && walkable(j, x + dx, y + dy)) NAV_DIR(dx, dy);
    } else if (dx) {
        bool next = walkable(j, x + dx, y), top = walkable(j, x, y + 1), bottom = walkable(j, x, y - 1);
        if (next) {
            NAV_DIR(dx, 0);
            if (top && walkable(j, x + dx, y + 1)) NAV_DIR(dx, 1);
            if (bottom && walkable(j, x + dx, y - 1)) NAV_DIR(dx, -1);
        }
        if (top) NAV_DIR(0, 1);
        if (bottom) NAV_DIR(0, -1);
    } else {
        bool next = walkable(j, x, y + dy), right = walkable(j, x + 1, y), left = walkable(j, x - 1, y);
        if (next) {
            NAV_DIR(0, dy);
            if (right && walkable(j, x + 1, y + dy)) NAV_DIR(1, dy);
            if (left && walkable(j, x - 1, y + dy)) NAV_DIR(-1, dy);
        }
        if (right) NAV_DIR(1, 0);
        if (left) NAV_DIR(-1, 0);
    }
#undef NAV_DIR
    return n;
}

/// A* from the free cells near the start that see it to those near the goal that see it. Writes
/// the smoothed path into nav->cell_points and returns its point count, 0 when unreachable.
static int search(NavPlan *p, bool relaxed_start)
{
    SteerNav *nav = p->nav;
    const SteerNavMap *map = p->map;
    int cols = map->cols;
    double h = map->cell_size;
    uint32_t seen = next_generation(nav), closed = seen + 1;
    int heap_n = 0;

    /* The goal's candidates: free cells near it that see it, each with its last leg (in cells). */
    float goal_leg[(2 * STEER_NAV_WINDOW + 1) * (2 * STEER_NAV_WINDOW + 1)];
    float k = INFINITY; /* min over candidates of (leg - octile to the goal's cell): h stays admissible */
    for (int dy = -STEER_NAV_WINDOW; dy <= STEER_NAV_WINDOW; dy++) {
        for (int dx = -STEER_NAV_WINDOW; dx <= STEER_NAV_WINDOW; dx++) {
            int x = p->gx + dx, y = p->gy + dy,
                w = (dy + STEER_NAV_WINDOW) * (2 * STEER_NAV_WINDOW + 1) + (dx + STEER_NAV_WINDOW);
            goal_leg[w] = INFINITY;
            if (x < 0 || y < 0 || x >= cols || y >= map->rows || map->blocked[(size_t)y * (size_t)cols + (size_t)x])
                continue;
            SteerVec2 c = cell_centre(map, x, y);
            if (!line_of_sight(p, c, p->goal)) continue;
            goal_leg[w] = (float)(steer_distance(c, p->goal) / h);
            float kk = goal_leg[w] - octile(x, y, p->gx, p->gy);
            if (kk < k) k = kk;
        }
    }
    if (k == INFINITY) return 0;

    /* The start's candidates. A navigating vehicle pushed into the clearance (relaxed_start) may
     * set out from any free cell near it. */
    for (int dy = -STEER_NAV_WINDOW; dy <= STEER_NAV_WINDOW; dy++) {
        for (int dx = -STEER_NAV_WINDOW; dx <= STEER_NAV_WINDOW; dx++) {
            int x = p->sx + dx, y = p->sy + dy;
            if (x < 0 || y < 0 || x >= cols || y >= map->rows || map->blocked[(size_t)y * (size_t)cols + (size_t)x])
                continue;
            SteerVec2 c = cell_centre(map, x, y);
            if (relaxed_start ? !exact_clear_by(p, p->start, c, 0.0) : !line_of_sight(p, p->start, c)) continue;
            int32_t cell = y * cols + x;
            float g = (float)(steer_distance(p->start, c) / h);
            float hh = octile(x, y, p->gx, p->gy) + k;
            nav->g[cell] = g;
            nav->f[cell] = g + (hh > 0.0f ? hh : 0.0f);
            nav->parent[cell] = -1;
            nav->mark[cell] = seen;
            heap_push(nav, &heap_n, cell, nav->f[cell], g);
        }
    }

    float best = INFINITY;
    int32_t best_cell = -1;
    NavJump jp = {map->blocked, cols, map->rows, p->gx, p->gy, goal_leg};
    while (heap_n > 0) {
        if (nav->heap[0].f >= best) break;
        int32_t cell = heap_pop(nav, &heap_n);
        nav->mark[cell] = closed;
        int x = cell % cols, y = cell / cols;
        float g = nav->g[cell];
        if (in_window(x, y, p->gx, p->gy)) {
            int w = (y - p->gy + STEER_NAV_WINDOW) * (2 * STEER_NAV_WINDOW + 1) + (x - p->gx + STEER_NAV_WINDOW);
            if (g + goal_leg[w] < best) {
                best = g + goal_leg[w];
                best_cell = cell;
            }
        }
        int from = nav->parent[cell], dirs[16];
        int pdx = from < 0 ? 0 : sign_of(x - from % cols), pdy = from < 0 ? 0 : sign_of(y - from / cols);
        int count = pruned_directions(&jp, x, y, pdx, pdy, dirs);
        for (int d = 0; d < count; d++) {
            int32_t next = jump(&jp, x + dirs[2 * d], y + dirs[2 * d + 1], dirs[2 * d], dirs[2 * d + 1]);
            if (next < 0 || nav->mark[next] == closed) continue;
            int nx = next % cols, ny = next / cols;
            float ng = g + octile(x, y, nx, ny);
            if (nav->mark[next] == seen) {
                if (ng >= nav->g[next]) continue;
                float hh = nav->f[next] - nav->g[next];
                nav->g[next] = ng;
                nav->f[next] = ng + hh;
                nav->parent[next] = cell;
                heap_decrease(nav, next, ng + hh, ng);
            } else {
                float hh = octile(nx, ny, p->gx, p->gy) + k;
                nav->g[next] = ng;
                nav->f[next] = ng + (hh > 0.0f ? hh : 0.0f);
                nav->parent[next] = cell;
                nav->mark[next] = seen;
                heap_push(nav, &heap_n, next, nav->f[next], ng);
            }
        }
    }
    if (best_cell < 0) return 0;

    /* The cells, goal end first (every cell between two jump points, which a straight or a
     * diagonal run joins), then reversed behind the start. */
    SteerVec2 *pts = nav->cell_points;
    int n = 0;
    pts[n++] = p->goal;
    for (int32_t c = best_cell; c >= 0; c = nav->parent[c]) {
        int x = c % cols, y = c / cols;
        pts[n++] = cell_centre(map, x, y);
        int32_t up = nav->parent[c];
        if (up < 0) break;
        int ux = up % cols, uy = up / cols, sx = sign_of(ux - x), sy = sign_of(uy - y);
        for (x += sx, y += sy; x != ux || y != uy; x += sx, y += sy) pts[n++] = cell_centre(map, x, y);
    }
    pts[n++] = p->start;
    for (int i = 0, j = n - 1; i < j; i++, j--) {
        SteerVec2 t = pts[i];
        pts[i] = pts[j];
        pts[j] = t;
    }
    /* Pulled taut: from each corner, on to the furthest point it still sees (scanning forward
     * until the sight is lost). Each shortcut is shorter than the cells it replaces. */
    int out = 1, i = 0;
    while (i < n - 1) {
        int j = i + 1;
        /* a relaxed start may stand in blocked cells: its first leg stays the searched one */
        if (!(relaxed_start && i == 0))
            while (j + 1 < n && line_of_sight(p, pts[i], pts[j + 1])) j++;
        pts[out++] = pts[j];
        i = j;
    }
    return out;
}

/* ---- Path queries -------------------------------------------------------------------------- */

SteerPathQueryDef steer_default_path_query_def(void)
{
    SteerPathQueryDef def;
    memset(&def, 0, sizeof def);
    def.cell_size = STEER_NAV_DEFAULT_CELL_SIZE;
    return def;
}

const char *steer_path_status_name(SteerPathStatus status)
{
    static const char *const NAMES[STEER_PATH_STATUS_COUNT] = {"found",
                                                               "unreachable",
                                                               "start inside geometry",
                                                               "goal inside geometry",
                                                               "start outside the map",
                                                               "goal outside the map",
                                                               "unreachable without crossing the wrapping edges",
                                                               "start too near a wrapping edge",
                                                               "goal too near a wrapping edge"};
    if ((int)status < 0 || status >= STEER_PATH_STATUS_COUNT) return NULL;
    return NAMES[status];
}

/// Why a point outside the bounds shrunk by the clearance has no path: in a wrapping world a point
/// of the world near its edge is near a seam paths do not cross.
static SteerPathStatus outside_status(const SteerWorld *world, SteerVec2 q, bool start)
{
    bool in_world = q.x >= 0.0 && q.x <= world->def.width && q.y >= 0.0 && q.y <= world->def.height;
    if (world->def.edges == STEER_EDGES_WRAP && in_world)
        return start ? STEER_PATH_START_AT_WRAPPING_EDGE : STEER_PATH_GOAL_AT_WRAPPING_EDGE;
    return start ? STEER_PATH_START_OUTSIDE : STEER_PATH_GOAL_OUTSIDE;
}

/// Plans on `map` from start to goal into nav->cell_points; returns the status and the count. A
/// navigating vehicle pushed into the clearance (`may_relax`) sets out from a free cell near it
/// that it reaches without crossing a shape.
static SteerPathStatus plan(SteerWorld *world, const SteerNavMap *map, SteerVec2 start, SteerVec2 goal, bool may_relax,
                            int *count)
{
    NavPlan p;
    plan_init(&p, world, world->nav, map, start, goal);
    *count = 0;
    bool relaxed_start = false;
    if (!inside_bounds(&p, start)) {
        if (!may_relax) return outside_status(world, start, true);
        relaxed_start = true;
    } else if (!exact_clear(&p, start, start)) {
        if (!may_relax) return STEER_PATH_START_BLOCKED;
        relaxed_start = true;
    }
    if (!inside_bounds(&p, goal)) return outside_status(world, goal, false);
    if (!exact_clear(&p, goal, goal)) return STEER_PATH_GOAL_BLOCKED;
    if (!relaxed_start && line_of_sight(&p, start, goal)) {
        world->nav->cell_points[0] = start;
        world->nav->cell_points[1] = goal;
        *count = 2;
        return STEER_PATH_FOUND;
    }
    *count = search(&p, relaxed_start);
    if (*count) return STEER_PATH_FOUND;
    return world->def.edges == STEER_EDGES_WRAP ? STEER_PATH_UNREACHABLE_WITHOUT_WRAPPING : STEER_PATH_UNREACHABLE;
}

SteerResult steer_world_find_path(SteerWorld *world, const SteerPathQueryDef *def, SteerVec2 *points, int capacity,
                                  SteerPathResult *out)
{
    STEER_ENTRY(world);
    if (!def) return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "path query definition is NULL");
    TRY(steer_check_point(world, "", "start", def->start));
    TRY(steer_check_point(world, "", "goal", def->goal));
    if (def->cell_size == 0.0)
        return steer_fail_hint(world, steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "cell_size must be > 0 (got 0)"),
                               STEER_ZEROED_DEF_HINT("path_query"));
    SteerNavMap *map;
    TRY(map_for(world, def->radius, def->cell_size, &map, NULL));
    int count;
    SteerPathStatus status = plan(world, map, def->start, def->goal, false, &count);
    double length = 0.0;
    const SteerVec2 *pts = world->nav->cell_points;
    for (int i = 0; i < count; i++) {
        if (points && i < capacity) points[i] = pts[i];
        if (i > 0) length += steer_distance(pts[i - 1], pts[i]);
    }
    if (out) {
        out->status = status;
        out->count = count;
        out->length = length;
    }
    return STEER_OK;
}

int steer_world_nav_map(SteerWorld *world, double radius, double cell_size, unsigned char *blocked, int capacity,
                        int *cols, int *rows)
{
    STEER_ENTRY(world);
    SteerNavMap *map;
    if (map_for(world, radius, cell_size, &map, NULL) != STEER_OK) return -1;
    int cells = map->cols * map->rows;
    if (blocked && capacity > 0) memcpy(blocked, map->blocked, (size_t)(capacity < cells ? capacity : cells));
    if (cols) *cols = map->cols;
    if (rows) *rows = map->rows;
    return cells;
}

/* ---- Flow fields to a goal ----------------------------------------------------------------- */

SteerFlowGoalDef steer_default_flow_goal_def(void)
{
    SteerFlowGoalDef def;
    memset(&def, 0, sizeof def);
    def.cell_size = STEER_NAV_DEFAULT_CELL_SIZE;
    return def;
}

/* The flow fields' Dijkstra keeps its open cells in buckets one cell-length wide: a cell taken
 * from bucket k has its distance in [k, k + 1), and every step costs at least 1, so nothing found
 * from it lands in bucket k again: each bucket's cells are final when it is reached, in any order
 * (exact Dijkstra in linear time: Dial's buckets). A step costs at most √2 and the goal's cells
 * start within 5, so NAV_BUCKETS buckets in a ring are enough. A cell whose distance falls into a
 * lower bucket is appended there and its old entry is skipped when met (its distance no longer
 * lies in that bucket): no lists to unlink. A cell enters a bucket at most once while the bucket
 * is in use, so each bucket holds at most the grid's cells.
 *
 * The grid is padded with a border of one cell (distance -1: never improved), so that a cell's
 * eight neighbours are fixed offsets with no test for the edges and no division for rows. */
#define NAV_BUCKETS 8

/// Cells of a map's grid with its border.
static size_t flow_cells(int cols, int rows) { return (size_t)(cols + 2) * (size_t)(rows + 2); }

/// Grows the flow fields' scratch to a grid of cols x rows; false when memory runs out (nothing
/// changed then).
static bool flow_reserve(SteerWorld *world, SteerNav *nav, int cols, int rows)
{
    size_t n = flow_cells(cols, rows), old = (size_t)nav->flow_capacity;
    if (n <= old) return true;
    const SteerAllocator *a = &world->alloc;
    float *g = steer_realloc(a, NULL, 0, n * sizeof *g);
    int8_t *dir = steer_realloc(a, NULL, 0, n * sizeof *dir);
    uint8_t *blocked = steer_realloc(a, NULL, 0, n);
    int32_t *queue = steer_realloc(a, NULL, 0, NAV_BUCKETS * n * sizeof *queue);
    if (!g || !dir || !blocked || !queue) {
        steer_free(a, g, n * sizeof *g);
        steer_free(a, dir, n * sizeof *dir);
        steer_free(a, blocked, n);
        steer_free(a, queue, NAV_BUCKETS * n * sizeof *queue);
        return false;
    }
    steer_free(a, nav->flow_g, old * sizeof *nav->flow_g);
    steer_free(a, nav->flow_dir, old * sizeof *nav->flow_dir);
    steer_free(a, nav->flow_blocked, old);
    steer_free(a, nav->flow_queue, NAV_BUCKETS * old * sizeof *nav->flow_queue);
    nav->flow_g = g, nav->flow_dir = dir, nav->flow_blocked = blocked, nav->flow_queue = queue;
    nav->flow_capacity = (int)n;
    return true;
}

/// Dijkstra from the goal over the map into gf->distance (units), then each cell's vector: toward
/// the goal itself from the cells that see it, else toward the neighbour it was reached from.
/// Blocked cells are reached too, from any cell, but lead nowhere: their vectors point out of the
/// clearance. Needs nav->flow_capacity >= flow_cells(map's grid).
static void goal_field_compute(SteerWorld *world, SteerNavGoalField *gf, const SteerNavMap *map)
{
    SteerNav *nav = world->nav;
    SteerFlowField *field = steer_pool_get(&world->fields, gf->id.index1, gf->id.generation);
    int cols = map->cols, rows = map->rows, stride = cols + 2;
    double h = map->cell_size;
    size_t padded = flow_cells(cols, rows), capacity = (size_t)nav->flow_capacity;
    float *g = nav->flow_g;
    int8_t *dir = nav->flow_dir;
    uint8_t *bl = nav->flow_blocked;
    int32_t *queue = nav->flow_queue;
    int32_t length[NAV_BUCKETS] = {0};
    long pending = 0;

    /* The padded grid: the map's cells, and a border that is blocked and never improved. */
    for (size_t i = 0; i < padded; i++) g[i] = INFINITY;
    for (int x = 0; x < stride; x++) {
        size_t top = (size_t)x, bottom = (size_t)(rows + 1) * (size_t)stride + (size_t)x;
        g[top] = g[bottom] = -1.0f;
        bl[top] = bl[bottom] = 1;
    }
    for (int y = 0; y < rows; y++) {
        size_t row = (size_t)(y + 1) * (size_t)stride;
        memcpy(bl + row + 1, map->blocked + (size_t)y * (size_t)cols, (size_t)cols);
        g[row] = g[row + (size_t)cols + 1] = -1.0f;
        bl[row] = bl[row + (size_t)cols + 1] = 1;
    }

#define NAV_PUSH(cell, dist)                                                                                           \
    do {                                                                                                               \
        int b_ = (int)(dist) & (NAV_BUCKETS - 1);                                                                      \
        queue[(size_t)b_ * capacity + (size_t)length[b_]++] = (cell);                                                  \
        pending++;                                                                                                     \
    } while (0)

    /* The goal's cells: free cells near it that see it. */
    NavPlan p;
    plan_init(&p, world, nav, map, gf->def.goal, gf->def.goal);
    bool goal_ok = inside_bounds(&p, gf->def.goal) && exact_clear(&p, gf->def.goal, gf->def.goal);
    for (int dy = -STEER_NAV_WINDOW; goal_ok && dy <= STEER_NAV_WINDOW; dy++) {
        for (int dx = -STEER_NAV_WINDOW; dx <= STEER_NAV_WINDOW; dx++) {
            int x = p.gx + dx, y = p.gy + dy;
            if (x < 0 || y < 0 || x >= cols || y >= rows || map->blocked[(size_t)y * (size_t)cols + (size_t)x])
                continue;
            SteerVec2 c = cell_centre(map, x, y);
            if (!line_of_sight(&p, c, gf->def.goal)) continue;
            int32_t cell = (y + 1) * stride + x + 1;
            g[cell] = (float)(steer_distance(c, gf->def.goal) / h);
            dir[cell] = -1; /* sees the goal */
            NAV_PUSH(cell, g[cell]);
        }
    }

    /* Each neighbour by its offset, in the order of NAV_DX / NAV_DY (a diagonal's two orthogonal
     * cells are c + dx and c + dy·stride). A cell is improved only when the new distance is
     * smaller; it moves to a new bucket only when the distance leaves its old one. */
    const int32_t s = stride;
#define NAV_RELAX(d, offset, cost, allowed)                                                                            \
    do {                                                                                                               \
        int32_t n_ = c + (offset);                                                                                     \
        float ng_ = gc + (cost), old_ = g[n_];                                                                         \
        if (ng_ < old_ && (allowed)) {                                                                                 \
            g[n_] = ng_;                                                                                               \
            dir[n_] = (int8_t)(d);                                                                                     \
            if (old_ == INFINITY || (int)ng_ != (int)old_) NAV_PUSH(n_, ng_);                                          \
        }                                                                                                              \
    } while (0)
    for (int k = 0; pending > 0; k++) {
        int r = k & (NAV_BUCKETS - 1);
        const int32_t *bucket = queue + (size_t)r * capacity;
        for (int32_t i = 0; i < length[r]; i++) { /* pushes from here go to buckets k + 1 and k + 2 */
            int32_t c = bucket[i];
            float gc = g[c];
            if ((int)gc != k) continue; /* reached sooner, from a lower bucket: done there */
            if (!bl[c]) { /* free cells from free cells without cutting corners; blocked ones from anywhere */
                NAV_RELAX(0, 1, 1.0f, 1);
                NAV_RELAX(1, -1, 1.0f, 1);
                NAV_RELAX(2, s, 1.0f, 1);
                NAV_RELAX(3, -s, 1.0f, 1);
                NAV_RELAX(4, s + 1, NAV_SQRT2, bl[n_] || !(bl[c + 1] | bl[c + s]));
                NAV_RELAX(5, -s + 1, NAV_SQRT2, bl[n_] || !(bl[c + 1] | bl[c - s]));
                NAV_RELAX(6, s - 1, NAV_SQRT2, bl[n_] || !(bl[c - 1] | bl[c + s]));
                NAV_RELAX(7, -s - 1, NAV_SQRT2, bl[n_] || !(bl[c - 1] | bl[c - s]));
            } else { /* blocked cells lead only to blocked cells */
                NAV_RELAX(0, 1, 1.0f, bl[n_]);
                NAV_RELAX(1, -1, 1.0f, bl[n_]);
                NAV_RELAX(2, s, 1.0f, bl[n_]);
                NAV_RELAX(3, -s, 1.0f, bl[n_]);
                NAV_RELAX(4, s + 1, NAV_SQRT2, bl[n_]);
                NAV_RELAX(5, -s + 1, NAV_SQRT2, bl[n_]);
                NAV_RELAX(6, s - 1, NAV_SQRT2, bl[n_]);
                NAV_RELAX(7, -s - 1, NAV_SQRT2, bl[n_]);
            }
        }
        pending -= length[r];
        length[r] = 0;
    }
#undef NAV_RELAX
#undef NAV_PUSH

    /* Each cell's distance and vector in one pass in row order: a cell reached from a neighbour
     * points at it (one of eight directions, from a table), one that sees the goal at the goal. */
    static const double DIAGONAL = 0.70710678118654752;
    static const SteerVec2 BACK[8] = {{-1.0, 0.0},
                                      {1.0, 0.0},
                                      {0.0, -1.0},
                                      {0.0, 1.0},
                                      {-DIAGONAL, -DIAGONAL},
                                      {-DIAGONAL, DIAGONAL},
                                      {DIAGONAL, -DIAGONAL},
                                      {DIAGONAL, DIAGONAL}};
    float *dist = gf->distance, hf = (float)h;
    SteerVec2 *vectors = field->vectors;
    for (int y = 0, cell = 0; y < rows; y++) {
        const float *grow = g + (size_t)(y + 1) * (size_t)stride + 1;
        const int8_t *drow = dir + (size_t)(y + 1) * (size_t)stride + 1;
        for (int x = 0; x < cols; x++, cell++) {
            float gc = grow[x];
            if (gc == INFINITY) {
                dist[cell] = INFINITY;
                vectors[cell] = steer_vec2(0.0, 0.0);
                continue;
            }
            dist[cell] = gc * hf;
            int d = drow[x];
            if (d >= 0) {
                vectors[cell] = BACK[d];
            } else {
                SteerVec2 offset = steer_sub(gf->def.goal, cell_centre(map, x, y)), v = {0.0, 0.0};
                double len = steer_length(offset);
                if (len > 1e-9) v = steer_scale(offset, 1.0 / len);
                vectors[cell] = v;
            }
        }
    }
    gf->map_revision = map->revision;
}

/// The goal fields whose map changed are computed again; those removed are forgotten.
static void goal_fields_refresh(SteerWorld *world)
{
    SteerNav *nav = world->nav;
    int kept = 0;
    for (int i = 0; i < nav->goal_field_count; i++) {
        SteerNavGoalField *gf = &nav->goal_fields[i];
        if (!steer_pool_get(&world->fields, gf->id.index1, gf->id.generation) || gf->id.world != world->tag) {
            steer_free(&world->alloc, gf->distance, (size_t)gf->cells * sizeof *gf->distance);
            continue;
        }
        int index;
        SteerNavMap *map = map_find(world, gf->def.radius, gf->def.cell_size, &index); /* kept: in use */
        if (map && (index != gf->map_index || map->revision != gf->map_revision) &&
            map->cols * map->rows == gf->cells && flow_cells(map->cols, map->rows) <= (size_t)nav->flow_capacity) {
            gf->map_index = index;
            goal_field_compute(world, gf, map);
        }
        nav->goal_fields[kept++] = *gf;
    }
    nav->goal_field_count = kept;
}

SteerResult steer_world_add_flow_field_to(SteerWorld *world, const SteerFlowGoalDef *def, SteerFlowFieldId *out)
{
    STEER_ENTRY(world);
    if (!def) return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "flow goal definition is NULL");
    TRY(steer_check_point(world, "", "goal", def->goal));
    if (def->cell_size == 0.0)
        return steer_fail_hint(world, steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "cell_size must be > 0 (got 0)"),
                               STEER_ZEROED_DEF_HINT("flow_goal"));
    SteerNavMap *map;
    int index;
    TRY(map_for(world, def->radius, def->cell_size, &map, &index));
    SteerNav *nav = world->nav;
    if (nav->goal_field_count == nav->goal_field_capacity) {
        int capacity = nav->goal_field_capacity ? nav->goal_field_capacity * 2 : 4;
        SteerNavGoalField *grown =
            steer_realloc(&world->alloc, nav->goal_fields, (size_t)nav->goal_field_capacity * sizeof *grown,
                          (size_t)capacity * sizeof *grown);
        if (!grown) return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
        nav->goal_fields = grown;
        nav->goal_field_capacity = capacity;
    }
    int cells = map->cols * map->rows;
    if (!flow_reserve(world, nav, map->cols, map->rows))
        return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
    float *distance = steer_realloc(&world->alloc, NULL, 0, (size_t)cells * sizeof *distance);
    if (!distance) return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
    SteerFlowFieldDef fdef = {steer_vec2(0.0, 0.0), map->cell_size, map->cols, map->rows, NULL};
    SteerFlowFieldId id;
    SteerResult added = steer_world_add_flow_field(world, &fdef, &id);
    world->api = __func__;
    if (added != STEER_OK) {
        steer_free(&world->alloc, distance, (size_t)cells * sizeof *distance);
        return added;
    }
    SteerNavGoalField *gf = &nav->goal_fields[nav->goal_field_count++];
    memset(gf, 0, sizeof *gf);
    gf->id = id;
    gf->def = *def;
    gf->distance = distance;
    gf->cells = cells;
    gf->map_index = index;
    goal_field_compute(world, gf, map);
    if (out) *out = id;
    return STEER_OK;
}

double steer_flow_field_distance(const SteerWorld *world, SteerFlowFieldId id, SteerVec2 point)
{
    const SteerNav *nav = world->nav;
    if (!nav || id.world != world->tag || !steer_pool_get(&world->fields, id.index1, id.generation)) return -1.0;
    for (int i = 0; i < nav->goal_field_count; i++) {
        const SteerNavGoalField *gf = &nav->goal_fields[i];
        if (!steer_flow_field_id_equal(gf->id, id)) continue;
        double h = gf->def.cell_size;
        int cols = (int)ceil(world->def.width / h), rows = (int)ceil(world->def.height / h);
        if (!(point.x >= 0.0 && point.y >= 0.0 && point.x < cols * h && point.y < rows * h)) return -1.0;
        float d = gf->distance[(size_t)cell_of(point.y, h, rows) * (size_t)cols + (size_t)cell_of(point.x, h, cols)];
        return isfinite(d) ? (double)d : -1.0;
    }
    return -1.0;
}

/* ---- Navigating vehicles ------------------------------------------------------------------- */

static SteerBehaviourSlot *navigate_slot(const SteerWorld *world, SteerVehicle *vehicle);

/// The clearance a navigating vehicle keeps, rounded up to a quarter cell: vehicles of nearly the
/// same radius share a map.
static double agent_clearance(const SteerVehicle *vehicle, const SteerNavigateParams *p)
{
    return quantized_clearance(p->radius > 0.0 ? p->radius : vehicle->radius, p->cell_size);
}

SteerResult steer_nav_prepare(SteerWorld *world, SteerVehicle *vehicle, const SteerBehaviourDef *def)
{
    SteerNavMap *map;
    double clearance = agent_clearance(vehicle, &def->navigate);
    TRY(map_make(world, clearance, def->navigate.cell_size, world->nav ? agent_of(world, vehicle) : NULL, &map, NULL));
    SteerNav *nav = world->nav;
    int slot = steer_vehicle_slot(world, vehicle);
    if (slot >= nav->agent_capacity) {
        int capacity = world->vehicles.capacity > slot ? world->vehicles.capacity : slot + 1;
        SteerNavAgent **grown = steer_realloc(&world->alloc, nav->agents, (size_t)nav->agent_capacity * sizeof *grown,
                                              (size_t)capacity * sizeof *grown);
        if (!grown) return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
        for (int i = nav->agent_capacity; i < capacity; i++) grown[i] = NULL;
        nav->agents = grown;
        nav->agent_capacity = capacity;
    }
    if (!nav->agents[slot]) {
        nav->agents[slot] = steer_realloc(&world->alloc, NULL, 0, sizeof **nav->agents);
        if (!nav->agents[slot]) return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
        memset(nav->agents[slot], 0, sizeof **nav->agents);
    }
    SteerNavAgent *agent = nav->agents[slot];
    uint64_t serial = steer_vehicle_cold(world, vehicle)->serial;
    if (agent->serial != serial) {
        memset(agent, 0, sizeof *agent);
        agent->serial = serial;
    }
    /* A new target (past replan_distance from the old), or a new clearance or grid: plan at the
     * next step. The same call again (a brain's every think) keeps the plan. */
    const SteerBehaviourSlot *old = navigate_slot(world, vehicle);
    const SteerNavigateParams *n = &def->navigate;
    bool same = false;
    if (old) {
        const SteerNavigateParams *o = &old->def.navigate;
        same = o->target.kind == n->target.kind && o->radius == n->radius && o->cell_size == n->cell_size &&
               (n->target.kind == STEER_TARGET_VEHICLE
                    ? steer_vehicle_id_equal(o->target.vehicle, n->target.vehicle)
                    : steer_distance(o->target.point, n->target.point) <= n->replan_distance);
    }
    if (!same || agent->clearance != clearance) agent->replan = true;
    agent->clearance = clearance; /* the step plans on this map, which stays while it is in use */
    agent->cell_size = n->cell_size;
    if (agent->state == STEER_NAV_NONE || agent->count == 0) agent->state = STEER_NAV_PLANNING;
    nav->navigators = true;
    return STEER_OK;
}

/// The agent of a vehicle, or NULL when it has none (or only a previous vehicle's of its slot).
static SteerNavAgent *agent_of(const SteerWorld *world, const SteerVehicle *vehicle)
{
    const SteerNav *nav = world->nav;
    int slot = steer_vehicle_slot(world, vehicle);
    if (!nav || slot >= nav->agent_capacity || !nav->agents[slot]) return NULL;
    SteerNavAgent *agent = nav->agents[slot];
    return agent->serial == steer_vehicle_cold(world, vehicle)->serial ? agent : NULL;
}

static SteerBehaviourSlot *navigate_slot(const SteerWorld *world, SteerVehicle *vehicle)
{
    for (int i = 0; i < vehicle->behaviour_count; i++) {
        SteerBehaviourSlot *slot = &vehicle->behaviours[i];
        if (slot->def.type == STEER_NAVIGATE && !slot->lost && !steer_slot_target_lost(world, slot)) return slot;
    }
    return NULL;
}

SteerResult steer_nav_radius_changing(SteerWorld *world, SteerVehicle *vehicle, double radius)
{
    SteerBehaviourSlot *slot = world->nav ? navigate_slot(world, vehicle) : NULL;
    SteerNavAgent *agent = slot ? agent_of(world, vehicle) : NULL;
    const SteerNavigateParams *p = slot ? &slot->def.navigate : NULL;
    if (!agent || p->radius > 0.0) return STEER_OK; /* navigate's own radius: the vehicle's does not count */
    double clearance = quantized_clearance(radius, p->cell_size);
    if (clearance == agent->clearance) return STEER_OK;
    SteerNavMap *map;
    TRY(map_make(world, clearance, p->cell_size, agent, &map, NULL));
    agent->clearance = clearance;
    agent->replan = true;
    return STEER_OK;
}

/// Whether what is left of the agent's path (from the vehicle, through its waypoint on) is still
/// clear on the map.
static bool path_still_clear(SteerWorld *world, const SteerNavMap *map, const SteerNavAgent *agent, SteerVec2 position,
                             int waypoint)
{
    NavPlan p;
    plan_init(&p, world, world->nav, map, position, agent->points[agent->count - 1]);
    SteerVec2 from = position;
    for (int i = waypoint; i < agent->count; i++) {
        /* a vehicle pushed into the clearance only needs to reach its waypoint without crossing */
        bool ok = i == waypoint && !exact_clear(&p, from, from) ? exact_clear_by(&p, from, agent->points[i], 0.0)
                                                                : line_of_sight(&p, from, agent->points[i]);
        if (!ok) return false;
        from = agent->points[i];
    }
    return true;
}

/// Plans (or keeps) one navigating vehicle's path; see steer_nav_before_step.
static void agent_step(SteerWorld *world, SteerVehicle *vehicle, SteerBehaviourSlot *slot)
{
    SteerNavAgent *agent = agent_of(world, vehicle);
    if (!agent) return; /* its storage could not be had: the force asks for nothing */
    const SteerNavigateParams *p = &slot->def.navigate;
    SteerVec2 target, velocity;
    if (!steer_resolve_target(world, vehicle->position, p->target, &target, &velocity)) return;
    int index;
    /* the map navigate or the radius's change made (outside the step) and kept while in use */
    SteerNavMap *map = map_find(world, agent->clearance, agent->cell_size, &index);
    if (!map) {
        agent->state = STEER_NAV_UNREACHABLE;
        agent->count = 0;
        return;
    }
    bool geometry_changed = index != agent->map_index || map->revision != agent->map_revision;
    int waypoint = slot->waypoint < 1 ? 1 : slot->waypoint;
    bool need = agent->replan || agent->state == STEER_NAV_PLANNING;
    if (!need && steer_distance(target, agent->goal) > p->replan_distance) need = true;
    if (!need && geometry_changed) {
        need = agent->state == STEER_NAV_UNREACHABLE || agent->count < 2 ||
               !path_still_clear(world, map, agent, vehicle->position,
                                 waypoint < agent->count ? waypoint : agent->count - 1);
    }
    if (!need && agent->truncated && waypoint >= agent->count - 1 &&
        steer_distance(vehicle->position, agent->points[agent->count - 1]) <= p->waypoint_radius)
        need = true;
    if (need) {
        if (agent->count >= 2) { /* what the replan replaces, for the debug draw */
            memcpy(agent->previous, agent->points, (size_t)agent->count * sizeof *agent->points);
            agent->previous_count = agent->count;
            agent->replanned_at = world->time;
        }
        int count;
        SteerPathStatus status = plan(world, map, vehicle->position, target, true, &count);
        agent->replan = false;
        agent->replans++;
        agent->goal = target;
        agent->map_index = index;
        agent->map_revision = map->revision;
        if (status == STEER_PATH_FOUND) {
            agent->truncated = count > STEER_NAV_AGENT_POINTS;
            agent->count = agent->truncated ? STEER_NAV_AGENT_POINTS : count;
            memcpy(agent->points, world->nav->cell_points, (size_t)agent->count * sizeof *agent->points);
            agent->state = STEER_NAV_FOLLOWING;
        } else {
            agent->count = 0;
            agent->truncated = false;
            agent->state = STEER_NAV_UNREACHABLE;
        }
        slot->waypoint = 1;
    } else if (geometry_changed) {
        agent->map_index = index;
        agent->map_revision = map->revision;
    }
    if (agent->state == STEER_NAV_FOLLOWING || agent->state == STEER_NAV_ARRIVED) {
        bool at_end = !agent->truncated && slot->waypoint >= agent->count - 1;
        agent->state = at_end && steer_distance(vehicle->position, target) <= p->waypoint_radius ? STEER_NAV_ARRIVED
                                                                                                 : STEER_NAV_FOLLOWING;
    }
    /* What the plan is, in the slot fields the checksum sums (navigate has no wander point and no
     * roam state): where it ends, its state and length in points, how many plans it took. */
    slot->wander_local = agent->goal;
    slot->noise_offset = steer_vec2((double)agent->state, (double)agent->count);
    slot->roam_time = (double)agent->replans;
}

void steer_nav_before_step(SteerWorld *world)
{
    SteerNav *nav = world->nav;
    if (!nav) return;
    if (nav->goal_field_count) goal_fields_refresh(world);
    if (!nav->navigators) return;
    for (int i = 0; i < world->order_count; i++) {
        if (world->order[i] < 0) continue;
        SteerVehicle *vehicle = steer_pool_at(&world->vehicles, world->order[i]);
        SteerBehaviourSlot *slot = navigate_slot(world, vehicle);
        if (slot) agent_step(world, vehicle, slot);
    }
}

/* Follows the plan steer_nav_before_step made: seek each corner in turn (a corner counts as passed
 * within waypoint_radius), arrive at the end, which follows the target itself once the vehicle is
 * on the path's last leg. Reads only its own plan: any thread may run it. */
STEER_BEHAVIOUR_FORCE(navigate)
{
    const SteerNavigateParams *p = &slot->def.navigate;
    const SteerNavAgent *agent = agent_of(world, vehicle);
    if (!agent || agent->count < 2 || agent->state == STEER_NAV_UNREACHABLE) {
        slot->state.target = vehicle->position;
        return steer_vec2(0.0, 0.0);
    }
    int last = agent->count - 1;
    int waypoint = slot->waypoint < 1 ? 1 : slot->waypoint > last ? last : slot->waypoint;
    SteerVec2 point = agent->points[waypoint];
    if (waypoint < last && steer_distance_sq(vehicle->position, point) <= p->waypoint_radius * p->waypoint_radius) {
        waypoint++;
        point = agent->points[waypoint];
    }
    bool at_end = waypoint == last && !agent->truncated;
    if (at_end) {
        SteerVec2 target, velocity;
        if (steer_resolve_target(world, vehicle->position, p->target, &target, &velocity)) point = target;
    }
    slot->waypoint = waypoint;
    slot->detail.waypoint = waypoint;
    slot->state.target = point;
    return at_end ? steer_arrive_point(vehicle, point, p->slowing_radius) : steer_seek_point(vehicle, point);
}

const char *steer_nav_state_name(SteerNavState state)
{
    static const char *const NAMES[STEER_NAV_STATE_COUNT] = {"none", "planning", "following", "arrived", "unreachable"};
    if ((int)state < 0 || state >= STEER_NAV_STATE_COUNT) return NULL;
    return NAMES[state];
}

int steer_vehicle_nav_path(const SteerWorld *world, SteerVehicleId id, SteerVec2 *points, int capacity,
                           SteerNavState *state, int *waypoint, int *replans)
{
    if (state) *state = STEER_NAV_NONE;
    if (waypoint) *waypoint = 0;
    if (replans) *replans = 0;
    SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle) return 0;
    SteerBehaviourSlot *slot = navigate_slot(world, vehicle);
    const SteerNavAgent *agent = agent_of(world, vehicle);
    if (!slot || !agent) return 0;
    if (state) *state = agent->state;
    if (waypoint) *waypoint = slot->waypoint;
    if (replans) *replans = agent->replans;
    for (int i = 0; points && i < agent->count && i < capacity; i++) points[i] = agent->points[i];
    return agent->count;
}

/// A navigating vehicle's id and where it is drawn.
static SteerVehicleId drawn_vehicle(const SteerWorld *world, const SteerDebugDraw *draw, int index,
                                    const SteerVehicle *vehicle, SteerVec2 *position)
{
    SteerVehicleId id = {(uint32_t)index + 1, world->tag, vehicle->header.generation};
    SteerVec2 heading = vehicle->heading;
    *position = vehicle->position;
    if (draw->vehicle_pose) draw->vehicle_pose(id, position, &heading, draw->context);
    return id;
}

/// What is left of an agent's path: from `from` (where the vehicle is drawn) through its waypoint
/// on, with a dot at each corner.
static void draw_path_left(const SteerNavAgent *agent, const SteerBehaviourSlot *slot, SteerVec2 from, uint32_t color,
                           SteerDebugLayer layer, const SteerDebugDraw *draw)
{
    int waypoint = slot->waypoint < 1 ? 1 : slot->waypoint;
    for (int k = waypoint; k < agent->count; k++) {
        draw->draw_segment(from, agent->points[k], color, layer, draw->context);
        if (draw->draw_point && k + 1 < agent->count)
            draw->draw_point(agent->points[k], 4.0, color, layer, draw->context);
        from = agent->points[k];
    }
}

void steer_nav_debug_draw(const SteerWorld *world, const SteerDebugDraw *draw)
{
    if (!world->nav || !world->nav->navigators || !draw->draw_segment) return;
    for (int i = 0; i < world->order_count; i++) {
        if (world->order[i] < 0) continue;
        SteerVehicle *vehicle = steer_pool_at(&world->vehicles, world->order[i]);
        const SteerBehaviourSlot *slot = navigate_slot(world, vehicle);
        const SteerNavAgent *agent = slot ? agent_of(world, vehicle) : NULL;
        if (!agent || agent->count < 2) continue;
        SteerVec2 from;
        drawn_vehicle(world, draw, world->order[i], vehicle, &from);
        draw_path_left(agent, slot, from, STEER_DEBUG_COLOR_PATH, STEER_DEBUG_LAYER_TARGETS, draw);
    }
}

/// A map's blocked cells: one rectangle per run of blocked cells along a row (a few hundred for a
/// map of rooms, rather than thousands of cells).
static void draw_map_cells(const SteerNavMap *map, const SteerDebugDraw *draw)
{
    double h = map->cell_size;
    for (int y = 0; y < map->rows; y++) {
        const uint8_t *row = map->blocked + (size_t)y * (size_t)map->cols;
        for (int x = 0; x < map->cols;) {
            if (!row[x]) {
                x++;
                continue;
            }
            int x0 = x;
            while (x < map->cols && row[x]) x++;
            SteerVec2 quad[4] = {{x0 * h, y * h}, {x * h, y * h}, {x * h, (y + 1) * h}, {x0 * h, (y + 1) * h}};
            draw->draw_solid_polygon(quad, 4, STEER_DEBUG_COLOR_NAV_MAP, STEER_DEBUG_LAYER_NAV_MAP, draw->context);
        }
    }
}

/// An agent's path and, just after a replan, the path it replaced (its alpha fading to 0).
static void draw_plan(const SteerWorld *world, const SteerNavAgent *agent, const SteerBehaviourSlot *slot,
                      SteerVec2 from, const SteerDebugDraw *draw)
{
    double age = world->time - agent->replanned_at;
    if (agent->previous_count >= 2 && age >= 0.0 && age < STEER_DEBUG_NAV_GHOST_SECONDS) {
        uint32_t alpha =
            (uint32_t)((STEER_DEBUG_COLOR_NAV_GHOST & 0xffu) * (1.0 - age / STEER_DEBUG_NAV_GHOST_SECONDS));
        uint32_t color = (STEER_DEBUG_COLOR_NAV_GHOST & ~0xffu) | (alpha ? alpha : 1u);
        for (int k = 1; k < agent->previous_count; k++)
            draw->draw_segment(agent->previous[k - 1], agent->previous[k], color, STEER_DEBUG_LAYER_NAV_PATHS,
                               draw->context);
    }
    if (agent->count >= 2) draw_path_left(agent, slot, from, STEER_DEBUG_COLOR_PATH, STEER_DEBUG_LAYER_NAV_PATHS, draw);
}

void steer_nav_debug_draw_maps(const SteerWorld *world, const SteerDebugDraw *draw)
{
    if (!world->nav || !draw->draw_solid_polygon) return;
    for (int i = 0; i < world->nav->map_count; i++) draw_map_cells(&world->nav->maps[i], draw);
}

void steer_nav_debug_draw_plans(const SteerWorld *world, const SteerDebugDraw *draw)
{
    if (!world->nav || !world->nav->navigators || !draw->draw_segment) return;
    for (int i = 0; i < world->order_count; i++) {
        if (world->order[i] < 0) continue;
        SteerVehicle *vehicle = steer_pool_at(&world->vehicles, world->order[i]);
        const SteerBehaviourSlot *slot = navigate_slot(world, vehicle);
        const SteerNavAgent *agent = slot ? agent_of(world, vehicle) : NULL;
        if (!agent) continue;
        SteerVec2 from;
        drawn_vehicle(world, draw, world->order[i], vehicle, &from);
        draw_plan(world, agent, slot, from, draw);
    }
}

void steer_vehicle_debug_draw_navigation(const SteerWorld *world, SteerVehicleId id, const SteerDebugDraw *draw)
{
    SteerVehicle *vehicle = steer_vehicle_lookup(world, id);
    if (!vehicle || !world->nav || !draw->draw_segment) return;
    const SteerBehaviourSlot *slot = navigate_slot(world, vehicle);
    const SteerNavAgent *agent = slot ? agent_of(world, vehicle) : NULL;
    if (!agent) return;
    if ((draw->flags & STEER_DEBUG_DRAW_NAVIGATION) && draw->draw_solid_polygon)
        for (int i = 0; i < world->nav->map_count; i++) {
            const SteerNavMap *map = &world->nav->maps[i];
            if (map->clearance == agent->clearance && map->cell_size == agent->cell_size) draw_map_cells(map, draw);
        }
    SteerVec2 from;
    drawn_vehicle(world, draw, steer_vehicle_slot(world, vehicle), vehicle, &from);
    draw_plan(world, agent, slot, from, draw);
}

/* ---- The end ------------------------------------------------------------------------------- */

void steer_nav_free(SteerWorld *world)
{
    SteerNav *nav = world->nav;
    if (!nav) return;
    const SteerAllocator *a = &world->alloc;
    for (int i = 0; i < nav->map_count; i++)
        steer_free(a, nav->maps[i].blocked, (size_t)nav->maps[i].cols * (size_t)nav->maps[i].rows);
    size_t n = (size_t)nav->scratch_cells;
    steer_free(a, nav->g, n * sizeof *nav->g);
    steer_free(a, nav->f, n * sizeof *nav->f);
    steer_free(a, nav->parent, n * sizeof *nav->parent);
    steer_free(a, nav->heap, n * sizeof *nav->heap);
    steer_free(a, nav->heap_pos, n * sizeof *nav->heap_pos);
    steer_free(a, nav->mark, n * sizeof *nav->mark);
    steer_free(a, nav->cell_points, (n ? n + 2 : 0) * sizeof *nav->cell_points);
    steer_free(a, nav->near, (size_t)nav->near_capacity * sizeof *nav->near);
    size_t flow = (size_t)nav->flow_capacity;
    steer_free(a, nav->flow_g, flow * sizeof *nav->flow_g);
    steer_free(a, nav->flow_dir, flow * sizeof *nav->flow_dir);
    steer_free(a, nav->flow_blocked, flow);
    steer_free(a, nav->flow_queue, NAV_BUCKETS * flow * sizeof *nav->flow_queue);
    for (int i = 0; i < nav->agent_capacity; i++) steer_free(a, nav->agents[i], sizeof *nav->agents[i]);
    steer_free(a, nav->agents, (size_t)nav->agent_capacity * sizeof *nav->agents);
    for (int i = 0; i < nav->goal_field_count; i++)
        steer_free(a, nav->goal_fields[i].distance, (size_t)nav->goal_fields[i].cells * sizeof(float));
    steer_free(a, nav->goal_fields, (size_t)nav->goal_field_capacity * sizeof *nav->goal_fields);
    world->nav = NULL;
    steer_free(a, nav, sizeof *nav);
}
