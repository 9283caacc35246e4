/* geometry.c - filled shapes as triangles in a batch drawn by one SDL_RenderGeometry call. Lines
 * are quads (a 1-pixel SDL line vanishes on a dark background), circles are fans and rings whose
 * piece count follows their size on screen. */
#include <math.h>
#include <stdlib.h>

#include "render_internal.h"

void render_batch_free(RenderBatch *batch)
{
    free(batch->vertices);
    batch->vertices = NULL;
    batch->count = batch->capacity = 0;
}

bool render_batch_reserve(SteerRender *r, RenderBatch *batch, int n)
{
    if (batch->count + n <= batch->capacity) return true;
    int capacity = batch->capacity ? batch->capacity : 1024;
    while (capacity < batch->count + n) capacity *= 2;
    SDL_Vertex *grown = realloc(batch->vertices, (size_t)capacity * sizeof *grown);
    if (!grown) {
        render_flush(r); /* draw what we have and make room in the same buffer */
        return batch->count + n <= batch->capacity;
    }
    batch->vertices = grown;
    batch->capacity = capacity;
    return true;
}

static inline void put(SDL_Vertex *v, float x, float y, SDL_Color c)
{
    v->position.x = x;
    v->position.y = y;
    v->color = c;
    v->tex_coord.x = 0.0f;
    v->tex_coord.y = 0.0f;
}

void render_triangle(SteerRender *r, float x0, float y0, float x1, float y1, float x2, float y2, SDL_Color c)
{
    if (!render_batch_reserve(r, &r->shapes, 3)) return;
    SDL_Vertex *v = r->shapes.vertices + r->shapes.count;
    put(&v[0], x0, y0, c);
    put(&v[1], x1, y1, c);
    put(&v[2], x2, y2, c);
    r->shapes.count += 3;
}

static void quad(SteerRender *r, float ax, float ay, float bx, float by, float cx, float cy, float dx, float dy, SDL_Color c)
{
    render_triangle(r, ax, ay, bx, by, cx, cy, c);
    render_triangle(r, ax, ay, cx, cy, dx, dy, c);
}

void render_rect_fill(SteerRender *r, float x, float y, float w, float h, SDL_Color c)
{
    quad(r, x, y, x + w, y, x + w, y + h, x, y + h, c);
}

void render_rect_outline(SteerRender *r, float x, float y, float w, float h, float width, SDL_Color c)
{
    render_rect_fill(r, x, y, w, width, c);
    render_rect_fill(r, x, y + h - width, w, width, c);
    render_rect_fill(r, x, y + width, width, h - 2 * width, c);
    render_rect_fill(r, x + w - width, y + width, width, h - 2 * width, c);
}

void render_thick_line(SteerRender *r, float x0, float y0, float x1, float y1, float width, SDL_Color c)
{
    float dx = x1 - x0, dy = y1 - y0;
    float length = sqrtf(dx * dx + dy * dy);
    if (!(length > 1e-4f)) return;
    /* half-width offset across the line */
    float nx = -dy / length * 0.5f * width, ny = dx / length * 0.5f * width;
    quad(r, x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny, c);
}

/// Pieces for a circle of `radius` pixels: smooth when big, cheap when small.
static int pieces_for(float radius)
{
    int n = (int)(radius * 0.75f);
    if (n < 10) n = 10;
    if (n > 72) n = 72;
    return n;
}

void render_disc(SteerRender *r, float cx, float cy, float radius, SDL_Color c)
{
    if (!(radius > 0.0f)) return;
    int n = pieces_for(radius);
    float step = 6.2831853f / (float)n;
    float px = cx + radius, py = cy;
    for (int i = 1; i <= n; i++) {
        float a = step * (float)i;
        float qx = cx + radius * cosf(a), qy = cy + radius * sinf(a);
        render_triangle(r, cx, cy, px, py, qx, qy, c);
        px = qx, py = qy;
    }
}

void render_ring(SteerRender *r, float cx, float cy, float radius, float width, SDL_Color c)
{
    if (!(radius > 0.0f)) return;
    int n = pieces_for(radius);
    float step = 6.2831853f / (float)n;
    float inner = radius - 0.5f * width, outer = radius + 0.5f * width;
    if (inner < 0.0f) inner = 0.0f;
    float ox = cx + outer, oy = cy, ix = cx + inner, iy = cy;
    for (int i = 1; i <= n; i++) {
        float a = step * (float)i;
        float ca = cosf(a), sa = sinf(a);
        float ox2 = cx + outer * ca, oy2 = cy + outer * sa, ix2 = cx + inner * ca, iy2 = cy + inner * sa;
        quad(r, ox, oy, ox2, oy2, ix2, iy2, ix, iy, c);
        ox = ox2, oy = oy2, ix = ix2, iy = iy2;
    }
}

void render_convex(SteerRender *r, const SDL_FPoint *points, int count, SDL_Color c)
{
    for (int i = 1; i + 1 < count; i++)
        render_triangle(r, points[0].x, points[0].y, points[i].x, points[i].y, points[i + 1].x, points[i + 1].y, c);
}

void render_flush(SteerRender *r)
{
    if (r->shapes.count > 0) {
        SDL_RenderGeometry(r->sdl, NULL, r->shapes.vertices, r->shapes.count, NULL, 0);
        r->shapes.count = 0;
    }
    if (r->text.count > 0) {
        SDL_RenderGeometry(r->sdl, r->atlas, r->text.vertices, r->text.count, NULL, 0);
        r->text.count = 0;
    }
}
