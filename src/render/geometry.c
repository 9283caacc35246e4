/* SPDX-License-Identifier: MIT */
/* geometry.c - filled shapes as triangles in a batch drawn by one SDL_RenderGeometry call: thick
 * lines are quads, rings are strips of quads whose piece count follows their size on screen, a
 * vehicle is two fans. Thin lines, small dots and discs go to the strokes (strokes.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

void render_flush_shapes(SteerRender *r)
{
    render_raster_drain(r); /* vehicles queued before these shapes are drawn before them */
    if (r->shapes.count == 0) return;
    /* Opaque batches skip blending: the software renderer then fills in place instead of blending
     * a temporary surface per triangle. */
    SDL_SetRenderDrawBlendMode(r->sdl, r->shapes_translucent ? SDL_BLENDMODE_BLEND : SDL_BLENDMODE_NONE);
    SDL_RenderGeometry(r->sdl, NULL, r->shapes.vertices, r->shapes.count, NULL, 0);
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
    r->shapes.count = 0;
    r->shapes_translucent = false;
}

void render_stroke(SteerRender *r, float x0, float y0, float x1, float y1, float width, SDL_Color c)
{
    if (width <= 1.5f)
        render_thin_line(r, x0, y0, x1, y1, c);
    else
        render_thick_line(r, x0, y0, x1, y1, width, c);
}

void render_triangle(SteerRender *r, float x0, float y0, float x1, float y1, float x2, float y2, SDL_Color c)
{
    if (r->lines.layer_count > 0) render_flush_strokes(r);
    if (c.a < 255) r->shapes_translucent = true;
    if (!render_batch_reserve(r, &r->shapes, 3)) return;
    SDL_Vertex *v = r->shapes.vertices + r->shapes.count;
    put(&v[0], x0, y0, c);
    put(&v[1], x1, y1, c);
    put(&v[2], x2, y2, c);
    r->shapes.count += 3;
}

static void quad(SteerRender *r, float ax, float ay, float bx, float by, float cx, float cy, float dx, float dy,
                 SDL_Color c)
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
    if (render_offscreen(r, fminf(x0, x1) - width, fminf(y0, y1) - width, fmaxf(x0, x1) + width, fmaxf(y0, y1) + width))
        return;
    /* half-width offset across the line */
    float nx = -dy / length * 0.5f * width, ny = dx / length * 0.5f * width;
    quad(r, x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny, c);
}

/// Pieces for a circle of `radius` pixels: smooth when big, cheap when small.
static int pieces_for(float radius)
{
    int n = (int)(radius * 0.75f);
    if (n < RENDER_CIRCLE_MIN_PIECES) n = RENDER_CIRCLE_MIN_PIECES;
    if (n > RENDER_CIRCLE_MAX_PIECES) n = RENDER_CIRCLE_MAX_PIECES;
    return n;
}

/// Where circles of n pieces keep their corners' cosines and sines in the tables.
static int circle_first(int n) { return (n - RENDER_CIRCLE_MIN_PIECES) * (n + RENDER_CIRCLE_MIN_PIECES - 1) / 2; }

void render_circle_init(SteerRender *r)
{
    /* Thousands of overlay circles a frame each took a cosine and a sine per corner; the corners
     * of every piece count are computed once here, by the same expressions, so the circles do not
     * move by a bit. */
    for (int n = RENDER_CIRCLE_MIN_PIECES; n <= RENDER_CIRCLE_MAX_PIECES; n++) {
        float step = 6.2831853f / (float)n;
        for (int i = 1; i <= n; i++) {
            float a = step * (float)i;
            r->circle_cos[circle_first(n) + i - 1] = cosf(a);
            r->circle_sin[circle_first(n) + i - 1] = sinf(a);
        }
    }
}

void render_dot(SteerRender *r, float cx, float cy, float radius, SDL_Color c)
{
    if (radius > 4.0f) {
        render_disc(r, cx, cy, radius, c);
        return;
    }
    /* Small dots as a few 1-pixel scanlines: they stay in the stroke batch among the lines they
     * mark (feeler ends, wander targets), so no batch switch per dot. */
    float x = roundf(cx), y = roundf(cy);
    int rows = (int)ceilf(radius);
    if (rows < 1) rows = 1;
    for (int dy = -rows + 1; dy < rows; dy++) {
        float half = sqrtf(radius * radius - (float)(dy * dy));
        if (half < 0.5f) half = 0.5f;
        render_span(r, x - half, x + half, y + (float)dy, c);
    }
}

/// A disc (inner 0) or a ring between two radii as spans: per row of pixels, the runs whose
/// centres lie inside the outer circle and not inside the inner one. A fan or strip of triangles
/// costs the software renderer a test of every pixel in each triangle's bounding box (the shape's
/// area several times over), spans only the pixels drawn. The edges are the true circles', where
/// the triangles' were polygons': they differ by under a pixel.
static void annulus_spans(SteerRender *r, float cx, float cy, float inner, float outer, SDL_Color c)
{
    int top = (int)ceilf(cy - outer - 0.5f), bottom = (int)floorf(cy + outer - 0.5f);
    if (r->view_h > 0.0f) {
        if (top < 0) top = 0;
        if (bottom > (int)r->view_h - 1) bottom = (int)r->view_h - 1;
    }
    for (int y = top; y <= bottom; y++) {
        float dy = (float)y + 0.5f - cy, squared = outer * outer - dy * dy;
        if (squared < 0.0f) continue;
        float half = sqrtf(squared), hole = inner * inner - dy * dy;
        int left = (int)ceilf(cx - half - 0.5f), right = (int)floorf(cx + half - 0.5f);
        /* A lone pixel in the top or bottom row would poke out of the circle like a nub: left out. */
        if (left > right || (left == right && fabsf(dy) > outer - 1.0f)) continue;
        float inside = hole > 0.0f ? sqrtf(hole) : 0.0f;
        int left_end = (int)ceilf(cx - inside - 0.5f) - 1, right_start = (int)floorf(cx + inside - 0.5f) + 1;
        if (hole <= 0.0f || right_start - left_end <= 2) { /* no hole, or a 1-pixel one: the same nub */
            render_span_pixels(r, left, right, y, c);
            continue;
        }
        if (left <= left_end) render_span_pixels(r, left, left_end, y, c);
        if (right_start <= right) render_span_pixels(r, right_start, right, y, c);
    }
}

/// Spans for circles big enough to be worth it and near enough for float rows.
static bool spans_fit(float cx, float cy, float radius)
{
    return radius > 4.0f && fabsf(cx) < 1e6f && fabsf(cy) < 1e6f;
}

void render_disc(SteerRender *r, float cx, float cy, float radius, SDL_Color c)
{
    if (!(radius > 0.0f) || render_offscreen(r, cx - radius, cy - radius, cx + radius, cy + radius)) return;
    if (spans_fit(cx, cy, radius)) {
        annulus_spans(r, cx, cy, 0.0f, radius, c);
        return;
    }
    int n = pieces_for(radius);
    const float *cosine = r->circle_cos + circle_first(n), *sine = r->circle_sin + circle_first(n);
    float px = cx + radius, py = cy;
    for (int i = 1; i <= n; i++) {
        float qx = cx + radius * cosine[i - 1], qy = cy + radius * sine[i - 1];
        render_triangle(r, cx, cy, px, py, qx, qy, c);
        px = qx, py = qy;
    }
}

void render_ring(SteerRender *r, float cx, float cy, float radius, float width, SDL_Color c)
{
    float outside = radius + width;
    if (!(radius > 0.0f) || render_offscreen(r, cx - outside, cy - outside, cx + outside, cy + outside)) return;
    int n = pieces_for(radius);
    const float *cosine = r->circle_cos + circle_first(n), *sine = r->circle_sin + circle_first(n);
    if (width <= 1.5f) {
        float px = cx + radius, py = cy;
        for (int i = 1; i <= n; i++) {
            float qx = cx + radius * cosine[i - 1], qy = cy + radius * sine[i - 1];
            render_thin_line(r, px, py, qx, qy, c);
            px = qx, py = qy;
        }
        return;
    }
    float inner = radius - 0.5f * width, outer = radius + 0.5f * width;
    if (inner < 0.0f) inner = 0.0f;
    if (spans_fit(cx, cy, radius)) {
        annulus_spans(r, cx, cy, inner, outer, c);
        return;
    }
    float ox = cx + outer, oy = cy, ix = cx + inner, iy = cy;
    for (int i = 1; i <= n; i++) {
        float ca = cosine[i - 1], sa = sine[i - 1];
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

/// The convex polygon with every edge moved half a pixel outward (grown) and inward (shrunk): each
/// corner moves to where its two moved edges meet, so the band between the two is the 1-pixel
/// outline along every edge.
static void offset_convex(const SDL_FPoint *points, int count, SDL_FPoint *grown, SDL_FPoint *shrunk)
{
    enum { MAX_POINTS = 8 };
    float area = 0.0f; /* twice the signed area: its sign says which side of each edge is outside */
    for (int i = 0; i < count; i++) {
        SDL_FPoint p = points[i], q = points[(i + 1) % count];
        area += p.x * q.y - q.x * p.y;
    }
    float side = area > 0.0f ? 1.0f : -1.0f;
    float nx[MAX_POINTS], ny[MAX_POINTS]; /* outward unit normal of edge i, from point i to i + 1 */
    for (int i = 0; i < count; i++) {
        SDL_FPoint p = points[i], q = points[(i + 1) % count];
        float ex = q.x - p.x, ey = q.y - p.y, length = sqrtf(ex * ex + ey * ey);
        float inverse = length > 1e-6f ? side / length : 0.0f;
        nx[i] = ey * inverse;
        ny[i] = -ex * inverse;
    }
    for (int i = 0; i < count; i++) {
        int before = (i + count - 1) % count;
        float cosine = nx[before] * nx[i] + ny[before] * ny[i];
        float half = 0.5f / (1.0f + (cosine > -0.8f ? cosine : -0.8f)); /* a bounded mitre */
        float mx = (nx[before] + nx[i]) * half, my = (ny[before] + ny[i]) * half;
        grown[i] = (SDL_FPoint){points[i].x + mx, points[i].y + my};
        shrunk[i] = (SDL_FPoint){points[i].x - mx, points[i].y - my};
    }
}

/// A fan from the first point straight into the batch (room already reserved).
static void fan(SDL_Vertex *v, const SDL_FPoint *points, int count, SDL_Color c)
{
    for (int i = 1; i + 1 < count; i++, v += 3) {
        put(&v[0], points[0].x, points[0].y, c);
        put(&v[1], points[i].x, points[i].y, c);
        put(&v[2], points[i + 1].x, points[i + 1].y, c);
    }
}

void render_outlined_convex(SteerRender *r, const SDL_FPoint *points, int count, SDL_Color fill, SDL_Color rim)
{
    enum { MAX_POINTS = 8 };
    if (count < 3) return;
    if (count > MAX_POINTS) count = MAX_POINTS;
    float x0 = points[0].x, y0 = points[0].y, x1 = x0, y1 = y0;
    for (int i = 1; i < count; i++) {
        x0 = fminf(x0, points[i].x), x1 = fmaxf(x1, points[i].x);
        y0 = fminf(y0, points[i].y), y1 = fmaxf(y1, points[i].y);
    }
    if (render_offscreen(r, x0, y0, x1, y1)) return;
    SDL_FPoint grown[MAX_POINTS], shrunk[MAX_POINTS];
    offset_convex(points, count, grown, shrunk);
    if (render_raster_fits(r, grown, count, fill, rim)) {
        /* what was queued before is drawn before (SDL may hold commands even once they are
         * submitted), then the two fans go straight into the surface */
        if (r->shapes.count > 0 || r->lines.layer_count > 0 || r->text.count > 0) render_flush(r);
        SDL_RenderFlush(r->sdl);
        render_raster_convex(r, grown, count, rim);
        render_raster_convex(r, shrunk, count, fill);
        return;
    }
    if (r->lines.layer_count > 0) render_flush_strokes(r);
    if (fill.a < 255 || rim.a < 255) r->shapes_translucent = true;
    int vertices = 3 * (count - 2);
    if (!render_batch_reserve(r, &r->shapes, 2 * vertices)) return;
    fan(r->shapes.vertices + r->shapes.count, grown, count, rim);
    fan(r->shapes.vertices + r->shapes.count + vertices, shrunk, count, fill);
    r->shapes.count += 2 * vertices;
}

void render_flush(SteerRender *r)
{
    render_flush_shapes(r);
    render_flush_strokes(r);
    render_flush_text(r);
}
