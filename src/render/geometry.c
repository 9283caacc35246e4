/* geometry.c - filled shapes as triangles in a batch drawn by one SDL_RenderGeometry call. Lines
 * are quads (a 1-pixel SDL line vanishes on a dark background), circles are fans and rings whose
 * piece count follows their size on screen. */
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

static void flush_shapes(SteerRender *r)
{
    if (r->shapes.count == 0) return;
    /* Opaque batches skip blending: the software renderer then fills in place instead of blending
     * a temporary surface per triangle. */
    SDL_SetRenderDrawBlendMode(r->sdl, r->shapes_translucent ? SDL_BLENDMODE_BLEND : SDL_BLENDMODE_NONE);
    SDL_RenderGeometry(r->sdl, NULL, r->shapes.vertices, r->shapes.count, NULL, 0);
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
    r->shapes.count = 0;
    r->shapes_translucent = false;
}

static void flush_lines(SteerRender *r)
{
    RenderLines *l = &r->lines;
    if (l->run_count == 0) return;
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
    for (int i = 0; i < l->run_count; i++) {
        const RenderLineRun *run = &l->runs[i];
        SDL_SetRenderDrawColor(r->sdl, run->color.r, run->color.g, run->color.b, run->color.a);
        SDL_RenderDrawLinesF(r->sdl, l->points + run->first, run->count);
    }
    l->run_count = 0;
    l->point_count = 0;
}

void render_lines_free(RenderLines *lines)
{
    free(lines->points);
    free(lines->runs);
    memset(lines, 0, sizeof *lines);
}

static bool lines_reserve(RenderLines *l, int points)
{
    if (l->point_count + points > l->point_capacity) {
        int capacity = l->point_capacity ? l->point_capacity : 4096;
        while (capacity < l->point_count + points) capacity *= 2;
        SDL_FPoint *grown = realloc(l->points, (size_t)capacity * sizeof *grown);
        if (!grown) return false;
        l->points = grown;
        l->point_capacity = capacity;
    }
    if (l->run_count + 1 > l->run_capacity) {
        int capacity = l->run_capacity ? 2 * l->run_capacity : 1024;
        RenderLineRun *grown = realloc(l->runs, (size_t)capacity * sizeof *grown);
        if (!grown) return false;
        l->runs = grown;
        l->run_capacity = capacity;
    }
    return true;
}

static bool same_color(SDL_Color a, SDL_Color b)
{
    return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a;
}

/// A 1-pixel line; continues the last polyline when it starts where that one ended, in its colour.
static void thin_line(SteerRender *r, float x0, float y0, float x1, float y1, SDL_Color c)
{
    flush_shapes(r); /* keep the painter's order: what was queued before is drawn before */
    RenderLines *l = &r->lines;
    if (!lines_reserve(l, 2)) return;
    if (l->run_count > 0) {
        RenderLineRun *last = &l->runs[l->run_count - 1];
        SDL_FPoint end = l->points[last->first + last->count - 1];
        if (same_color(last->color, c) && end.x == x0 && end.y == y0) {
            l->points[l->point_count++] = (SDL_FPoint){x1, y1};
            last->count++;
            return;
        }
    }
    l->runs[l->run_count++] = (RenderLineRun){l->point_count, 2, c};
    l->points[l->point_count++] = (SDL_FPoint){x0, y0};
    l->points[l->point_count++] = (SDL_FPoint){x1, y1};
}

void render_stroke(SteerRender *r, float x0, float y0, float x1, float y1, float width, SDL_Color c)
{
    if (width <= 1.5f)
        thin_line(r, x0, y0, x1, y1, c);
    else
        render_thick_line(r, x0, y0, x1, y1, width, c);
}

void render_triangle(SteerRender *r, float x0, float y0, float x1, float y1, float x2, float y2, SDL_Color c)
{
    flush_lines(r);
    if (c.a < 255) r->shapes_translucent = true;
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
        thin_line(r, x - half, y + (float)dy, x + half, y + (float)dy, c);
    }
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
    if (width <= 1.5f) {
        float px = cx + radius, py = cy;
        for (int i = 1; i <= n; i++) {
            float a = step * (float)i;
            float qx = cx + radius * cosf(a), qy = cy + radius * sinf(a);
            thin_line(r, px, py, qx, qy, c);
            px = qx, py = qy;
        }
        return;
    }
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
    flush_shapes(r);
    flush_lines(r);
    if (r->text.count > 0) {
        /* One copy per glyph quad (6 vertices: corners 0 and 2 are opposite). The software
         * renderer blits these directly, where textured triangles would go through a temporary
         * surface each; GPU renderers batch the copies anyway. */
        const float aw = (float)r->atlas_w, ah = (float)r->atlas_h;
        SDL_Color current = {0, 0, 0, 0};
        bool first = true;
        for (int i = 0; i + 5 < r->text.count; i += 6) {
            const SDL_Vertex *v = r->text.vertices + i;
            if (first || !same_color(current, v[0].color)) {
                current = v[0].color;
                SDL_SetTextureColorMod(r->atlas, current.r, current.g, current.b);
                SDL_SetTextureAlphaMod(r->atlas, current.a);
                first = false;
            }
            SDL_Rect src = {(int)lroundf(v[0].tex_coord.x * aw), (int)lroundf(v[0].tex_coord.y * ah),
                            (int)lroundf((v[2].tex_coord.x - v[0].tex_coord.x) * aw),
                            (int)lroundf((v[2].tex_coord.y - v[0].tex_coord.y) * ah)};
            SDL_FRect dst = {v[0].position.x, v[0].position.y, v[2].position.x - v[0].position.x,
                             v[2].position.y - v[0].position.y};
            SDL_RenderCopyF(r->sdl, r->atlas, &src, &dst);
        }
        r->text.count = 0;
    }
}
