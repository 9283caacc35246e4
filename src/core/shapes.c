/* SPDX-License-Identifier: MIT */
/* shapes.c - the static world: circle obstacles, wall segments, paths and flow fields. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nav_internal.h"
#include "world_internal.h"

static SteerResult check_point(const SteerWorld *world, const char *name, SteerVec2 point)
{
    return steer_check_point(world, "", name, point);
}

/* The id types are distinct structs of the same layout; these helpers work on their fields. */
static void *lookup(const SteerWorld *world, const SteerPool *pool, uint32_t index1, uint16_t tag, uint16_t generation)
{
    if (tag != world->tag) return NULL;
    return steer_pool_get(pool, index1, generation);
}

static int list_ids(const SteerWorld *world, const SteerPool *pool, void *out, int capacity)
{
    /* All shape ids share one layout: write them as SteerObstacleId. */
    SteerObstacleId *ids = out;
    int n = 0;
    for (int i = 0; i < pool->count; i++) {
        const SteerPoolHeader *header = steer_pool_at(pool, i);
        if (!header->alive) continue;
        if (ids && n < capacity) ids[n] = (SteerObstacleId){(uint32_t)i + 1, world->tag, header->generation};
        n++;
    }
    return n;
}

/* ---- Obstacles ----------------------------------------------------------------------------- */

SteerResult steer_world_add_obstacle(SteerWorld *world, SteerVec2 center, double radius, SteerObstacleId *out)
{
    STEER_ENTRY(world);
    TRY(check_point(world, "center", center));
    TRY(steer_check_range(world, "obstacle ", "radius", radius, STEER_MIN_POSITIVE, STEER_MAX_LENGTH));
    int index = steer_pool_alloc(&world->obstacles);
    if (index < 0) return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
    SteerObstacle *obstacle = steer_pool_at(&world->obstacles, index);
    obstacle->center = center;
    obstacle->radius = radius;
    world->obstacles_stale = true;
    steer_nav_shape_changed(world, steer_sub(center, steer_vec2(radius, radius)),
                            steer_add(center, steer_vec2(radius, radius)));
    if (out) *out = (SteerObstacleId){(uint32_t)index + 1, world->tag, obstacle->header.generation};
    return STEER_OK;
}

SteerResult steer_world_remove_obstacle(SteerWorld *world, SteerObstacleId id)
{
    STEER_ENTRY(world);
    const SteerObstacle *obstacle = lookup(world, &world->obstacles, id.index1, id.world, id.generation);
    if (!obstacle)
        return steer_fail(world, STEER_ERROR_INVALID_ID, "obstacle id names nothing (%s)",
                          steer_why_no_object(world, id.index1, id.world));
    SteerVec2 reach = steer_vec2(obstacle->radius, obstacle->radius);
    steer_nav_shape_changed(world, steer_sub(obstacle->center, reach), steer_add(obstacle->center, reach));
    steer_pool_release(&world->obstacles, (int)id.index1 - 1);
    world->obstacles_stale = true;
    return STEER_OK;
}

bool steer_obstacle_get(const SteerWorld *world, SteerObstacleId id, SteerVec2 *center, double *radius)
{
    const SteerObstacle *obstacle = lookup(world, &world->obstacles, id.index1, id.world, id.generation);
    if (!obstacle) return false;
    if (center) *center = obstacle->center;
    if (radius) *radius = obstacle->radius;
    return true;
}

int steer_world_get_obstacles(const SteerWorld *world, SteerObstacleId *out, int capacity)
{
    return list_ids(world, &world->obstacles, out, capacity);
}

/* ---- Walls --------------------------------------------------------------------------------- */

SteerResult steer_world_add_wall(SteerWorld *world, SteerVec2 a, SteerVec2 b, SteerWallId *out)
{
    STEER_ENTRY(world);
    TRY(check_point(world, "a", a));
    TRY(check_point(world, "b", b));
    if (steer_distance_sq(a, b) < 1e-12)
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "wall ends must differ (both at %g, %g)", a.x, a.y);
    int index = steer_pool_alloc(&world->walls);
    if (index < 0) return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
    SteerWall *wall = steer_pool_at(&world->walls, index);
    wall->a = a;
    wall->b = b;
    wall->normal = steer_perp(steer_normalize(steer_sub(b, a)));
    world->walls_stale = true;
    steer_nav_shape_changed(world, steer_vec2(fmin(a.x, b.x), fmin(a.y, b.y)),
                            steer_vec2(fmax(a.x, b.x), fmax(a.y, b.y)));
    if (out) *out = (SteerWallId){(uint32_t)index + 1, world->tag, wall->header.generation};
    return STEER_OK;
}

SteerResult steer_world_remove_wall(SteerWorld *world, SteerWallId id)
{
    STEER_ENTRY(world);
    const SteerWall *wall = lookup(world, &world->walls, id.index1, id.world, id.generation);
    if (!wall)
        return steer_fail(world, STEER_ERROR_INVALID_ID, "wall id names nothing (%s)",
                          steer_why_no_object(world, id.index1, id.world));
    steer_nav_shape_changed(world, steer_vec2(fmin(wall->a.x, wall->b.x), fmin(wall->a.y, wall->b.y)),
                            steer_vec2(fmax(wall->a.x, wall->b.x), fmax(wall->a.y, wall->b.y)));
    steer_pool_release(&world->walls, (int)id.index1 - 1);
    world->walls_stale = true;
    return STEER_OK;
}

bool steer_wall_get(const SteerWorld *world, SteerWallId id, SteerVec2 *a, SteerVec2 *b, SteerVec2 *normal)
{
    const SteerWall *wall = lookup(world, &world->walls, id.index1, id.world, id.generation);
    if (!wall) return false;
    if (a) *a = wall->a;
    if (b) *b = wall->b;
    if (normal) *normal = wall->normal;
    return true;
}

int steer_world_get_walls(const SteerWorld *world, SteerWallId *out, int capacity)
{
    return list_ids(world, &world->walls, out, capacity);
}

/* ---- Paths --------------------------------------------------------------------------------- */

SteerResult steer_world_add_path(SteerWorld *world, const SteerVec2 *points, int count, bool loop, SteerPathId *out)
{
    STEER_ENTRY(world);
    if (!points || count < 1) return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "a path needs at least one point");
    for (int i = 0; i < count; i++) {
        char name[32];
        snprintf(name, sizeof name, "point %d", i + 1);
        TRY(steer_check_point(world, "path ", name, points[i]));
    }
    SteerVec2 *copy = steer_realloc(&world->alloc, NULL, 0, (size_t)count * sizeof *copy);
    if (!copy) return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
    int index = steer_pool_alloc(&world->paths);
    if (index < 0) {
        steer_free(&world->alloc, copy, (size_t)count * sizeof *copy);
        return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    memcpy(copy, points, (size_t)count * sizeof *copy);
    SteerPath *path = steer_pool_at(&world->paths, index);
    path->points = copy;
    path->count = count;
    path->loop = loop;
    if (out) *out = (SteerPathId){(uint32_t)index + 1, world->tag, path->header.generation};
    return STEER_OK;
}

SteerResult steer_world_remove_path(SteerWorld *world, SteerPathId id)
{
    STEER_ENTRY(world);
    SteerPath *path = lookup(world, &world->paths, id.index1, id.world, id.generation);
    if (!path)
        return steer_fail(world, STEER_ERROR_INVALID_ID, "path id names nothing (%s)",
                          steer_why_no_object(world, id.index1, id.world));
    steer_free(&world->alloc, path->points, (size_t)path->count * sizeof *path->points);
    path->points = NULL;
    steer_pool_release(&world->paths, (int)id.index1 - 1);
    world->target_removals++; /* the next step looks for behaviours that followed it */
    return STEER_OK;
}

int steer_path_get(const SteerWorld *world, SteerPathId id, SteerVec2 *points, int capacity, bool *loop)
{
    const SteerPath *path = lookup(world, &world->paths, id.index1, id.world, id.generation);
    if (!path) return 0;
    for (int i = 0; points && i < path->count && i < capacity; i++) points[i] = path->points[i];
    if (loop) *loop = path->loop;
    return path->count;
}

/* ---- Flow fields --------------------------------------------------------------------------- */

SteerResult steer_world_add_flow_field(SteerWorld *world, const SteerFlowFieldDef *def, SteerFlowFieldId *out)
{
    STEER_ENTRY(world);
    if (!def) return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "flow field definition is NULL");
    TRY(check_point(world, "origin", def->origin));
    TRY(steer_check_range(world, "", "cell_size", def->cell_size, STEER_MIN_POSITIVE, STEER_MAX_LENGTH));
    if (def->cols < 1 || def->rows < 1 || def->cols > 1 << 14 || def->rows > 1 << 14)
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "cols and rows must be in 1..16384 (got %d x %d)",
                          def->cols, def->rows);
    size_t cells = (size_t)def->cols * (size_t)def->rows;
    if (def->vectors) {
        /* Directions, but any length is kept (follow_flow truncates to 1): bounded like lengths, so
         * that interpolating between them cannot overflow. */
        for (size_t i = 0; i < cells; i++) {
            char name[40];
            snprintf(name, sizeof name, "flow vector %zu", i + 1);
            TRY(steer_check_vector(world, "", name, def->vectors[i], STEER_MAX_LENGTH));
        }
    }
    SteerVec2 *vectors = steer_realloc(&world->alloc, NULL, 0, cells * sizeof *vectors);
    if (!vectors) return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
    int index = steer_pool_alloc(&world->fields);
    if (index < 0) {
        steer_free(&world->alloc, vectors, cells * sizeof *vectors);
        return steer_fail(world, STEER_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    if (def->vectors)
        memcpy(vectors, def->vectors, cells * sizeof *vectors);
    else
        memset(vectors, 0, cells * sizeof *vectors);
    SteerFlowField *field = steer_pool_at(&world->fields, index);
    field->origin = def->origin;
    field->cell_size = def->cell_size;
    field->cols = def->cols;
    field->rows = def->rows;
    field->vectors = vectors;
    if (out) *out = (SteerFlowFieldId){(uint32_t)index + 1, world->tag, field->header.generation};
    return STEER_OK;
}

SteerResult steer_world_remove_flow_field(SteerWorld *world, SteerFlowFieldId id)
{
    STEER_ENTRY(world);
    SteerFlowField *field = lookup(world, &world->fields, id.index1, id.world, id.generation);
    if (!field)
        return steer_fail(world, STEER_ERROR_INVALID_ID, "flow field id names nothing (%s)",
                          steer_why_no_object(world, id.index1, id.world));
    steer_free(&world->alloc, field->vectors, (size_t)field->cols * (size_t)field->rows * sizeof *field->vectors);
    field->vectors = NULL;
    steer_pool_release(&world->fields, (int)id.index1 - 1);
    world->target_removals++; /* the next step looks for behaviours that followed it */
    return STEER_OK;
}

SteerResult steer_flow_field_set(SteerWorld *world, SteerFlowFieldId id, int col, int row, SteerVec2 direction)
{
    STEER_ENTRY(world);
    SteerFlowField *field = lookup(world, &world->fields, id.index1, id.world, id.generation);
    if (!field)
        return steer_fail(world, STEER_ERROR_INVALID_ID, "flow field id names nothing (%s)",
                          steer_why_no_object(world, id.index1, id.world));
    if (col < 0 || col >= field->cols || row < 0 || row >= field->rows)
        return steer_fail(world, STEER_ERROR_INVALID_ARGUMENT, "cell (%d, %d) is outside the %d x %d field", col, row,
                          field->cols, field->rows);
    TRY(steer_check_vector(world, "", "direction", direction, STEER_MAX_LENGTH));
    field->vectors[(size_t)row * (size_t)field->cols + (size_t)col] = direction;
    return STEER_OK;
}

bool steer_flow_field_get(const SteerWorld *world, SteerFlowFieldId id, SteerFlowFieldDef *out)
{
    const SteerFlowField *field = lookup(world, &world->fields, id.index1, id.world, id.generation);
    if (!field) return false;
    if (out) {
        out->origin = field->origin;
        out->cell_size = field->cell_size;
        out->cols = field->cols;
        out->rows = field->rows;
        out->vectors = field->vectors;
    }
    return true;
}

SteerVec2 steer_flow_field_sample(const SteerWorld *world, SteerFlowFieldId id, SteerVec2 point)
{
    const SteerFlowField *field = lookup(world, &world->fields, id.index1, id.world, id.generation);
    if (!field) return steer_vec2(0.0, 0.0);
    /* Cell centres carry the vectors; interpolate between the four around the point, clamping to
     * the border cells so the field's edge extends half a cell. */
    double gx = (point.x - field->origin.x) / field->cell_size - 0.5;
    double gy = (point.y - field->origin.y) / field->cell_size - 0.5;
    if (gx < -0.5 || gy < -0.5 || gx > field->cols - 0.5 || gy > field->rows - 0.5) return steer_vec2(0.0, 0.0);
    double fx = floor(gx), fy = floor(gy);
    double tx = gx - fx, ty = gy - fy;
    int x0 = (int)fx, y0 = (int)fy;
    int x1 = x0 + 1, y1 = y0 + 1;
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > field->cols - 1) x1 = field->cols - 1;
    if (y1 > field->rows - 1) y1 = field->rows - 1;
    const SteerVec2 *v = field->vectors;
    size_t cols = (size_t)field->cols;
    SteerVec2 a = v[(size_t)y0 * cols + (size_t)x0], b = v[(size_t)y0 * cols + (size_t)x1];
    SteerVec2 c = v[(size_t)y1 * cols + (size_t)x0], d = v[(size_t)y1 * cols + (size_t)x1];
    SteerVec2 top = steer_add(steer_scale(a, 1.0 - tx), steer_scale(b, tx));
    SteerVec2 bottom = steer_add(steer_scale(c, 1.0 - tx), steer_scale(d, tx));
    return steer_add(steer_scale(top, 1.0 - ty), steer_scale(bottom, ty));
}
