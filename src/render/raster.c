/* SPDX-License-Identifier: MIT */
/* raster.c - opaque triangles filled straight into the rows of the surface a software renderer
 * draws into, with the pixels SDL's own rasteriser would choose.
 *
 * SDL's software renderer fills a triangle by testing every pixel of its bounding box against the
 * three edges, after about 80 ns of queueing and clipping, and a vehicle is two triangles: at 10,000
 * vehicles that is most of a frame. Here each row's run of pixels comes from walking the edges (a
 * quotient and a remainder per edge, moved row by row without a branch) and is written as one run
 * of stores; the rows of the triangles queued next are fetched meanwhile.
 *
 * The pixels are SDL's: like SDL_RenderGeometry on the software renderer, each corner is truncated
 * to whole pixels (a cast to int), a pixel is in when its centre is inside all three edges on the
 * same integer edge functions (in half pixels), and a centre on an edge counts only for a top or a
 * left edge. Opaque colours only, mapped with SDL_MapRGBA for the surface's format: what SDL writes
 * for an opaque triangle, blended or not.
 */
#include <math.h>
#include <stdlib.h>

#include "render_internal.h"

/// Corners beyond this many pixels from the origin go through SDL: the edge functions stay far
/// inside 32 bits, as SDL's own do for such triangles.
#define RASTER_LIMIT 4096.0f

void steer_render_set_surface(SteerRender *r, SDL_Surface *surface)
{
    if (r) r->target = surface;
}

/// The surface the software renderer draws into: the one the caller named, else the window's.
static SDL_Surface *target_surface(const SteerRender *r)
{
    if (r->target) return r->target;
    SDL_Window *window = SDL_RenderGetWindow(r->sdl);
    return window ? SDL_GetWindowSurface(window) : NULL;
}

void render_raster_begin(SteerRender *r)
{
    RenderRaster *raster = &r->raster;
    raster->pixels = NULL;
    SDL_RendererInfo info;
    if (SDL_GetRendererInfo(r->sdl, &info) != 0 || !(info.flags & SDL_RENDERER_SOFTWARE)) return;
    /* Only where SDL would draw at the very coordinates given: no target texture, no scale (nor a
     * logical size, which sets one), a viewport over the whole surface and no clip rectangle. */
    if (SDL_GetRenderTarget(r->sdl) || SDL_RenderIsClipEnabled(r->sdl)) return;
    float sx = 0.0f, sy = 0.0f;
    SDL_RenderGetScale(r->sdl, &sx, &sy);
    if (sx != 1.0f || sy != 1.0f) return;
    SDL_Surface *s = target_surface(r);
    if (!s || !s->pixels || SDL_MUSTLOCK(s) || s->format->BytesPerPixel != 4 || s->pitch % 4 != 0) return;
    SDL_Rect viewport;
    SDL_RenderGetViewport(r->sdl, &viewport);
    int out_w = 0, out_h = 0;
    if (SDL_GetRendererOutputSize(r->sdl, &out_w, &out_h) != 0 || out_w != s->w || out_h != s->h) return;
    if (viewport.x != 0 || viewport.y != 0 || viewport.w != s->w || viewport.h != s->h) return;
    /* SDL clips a triangle to the surface and to the surface's clip rectangle */
    SDL_Rect clip = {0, 0, s->w, s->h};
    SDL_IntersectRect(&clip, &s->clip_rect, &clip);
    raster->pixels = s->pixels;
    raster->pitch = s->pitch / 4;
    raster->format = s->format;
    raster->x0 = clip.x, raster->y0 = clip.y;
    raster->x1 = clip.x + clip.w, raster->y1 = clip.y + clip.h;
    raster->mapped_valid = false;
}

/// SDL_MapRGBA for the surface, remembering the last colour: vehicles come in runs of a colour.
static Uint32 map_color(RenderRaster *raster, SDL_Color c)
{
    if (!raster->mapped_valid || raster->mapped_color.r != c.r || raster->mapped_color.g != c.g ||
        raster->mapped_color.b != c.b || raster->mapped_color.a != c.a) {
        raster->mapped = SDL_MapRGBA(raster->format, c.r, c.g, c.b, c.a);
        raster->mapped_color = c;
        raster->mapped_valid = true;
    }
    return raster->mapped;
}

/// One edge from a to b (corners in half pixels) as the bound it puts on each row. SDL's edge
/// function at the centre of pixel x is f(x) = a_x * (2x + 1) + c, signed so that inside is f >= 0,
/// with SDL's bias of -1 in c for an edge that is neither top nor left; c grows by c_step a row. A
/// left edge (a_x > 0) lets in x >= ceil(-(a_x + c) / 2a_x), a right edge (a_x < 0)
/// x <= floor((a_x + c) / -2a_x), a level one (a_x = 0) whole rows. Either bound is floor(m / d)
/// for an m that grows by the same step every row, so it is kept as a quotient and a remainder and
/// moved row by row without a division or a branch.
typedef struct Edge {
    int a_x, c, c_step;
    int bound, rest;           ///< floor(m / d) and m - bound * d, in [0, d)
    int bound_step, rest_step; ///< the same for m's step
    int d;
} Edge;

/// SDL's top-left rule, with `clockwise` as SDL decides it (a positive cross product).
static bool top_left(SDL_Point a, SDL_Point b, bool clockwise)
{
    if (clockwise) return (a.y == b.y && a.x < b.x) || b.y < a.y;
    return (a.y == b.y && b.x < a.x) || a.y < b.y;
}

static int floor_div(int n, int d) /* d > 0 */
{
    int q = n / d;
    return (n % d != 0 && n < 0) ? q - 1 : q;
}

static Edge edge_of(SDL_Point a, SDL_Point b, bool clockwise, int row)
{
    /* SDL's edge function: (b - a) x (p - a), negated for an anticlockwise triangle */
    int sign = clockwise ? 1 : -1, py = 2 * row + 1;
    Edge e = {0};
    e.a_x = -sign * (b.y - a.y);
    e.c_step = sign * (b.x - a.x) * 2;
    e.c = sign * ((b.x - a.x) * (py - a.y) + (b.y - a.y) * a.x) + (top_left(a, b, clockwise) ? 0 : -1);
    if (e.a_x == 0) return e;
    int m, step;
    if (e.a_x > 0) {
        e.d = 2 * e.a_x;
        m = -(e.a_x + e.c) + e.d - 1; /* ceil(n / d) = floor((n + d - 1) / d) */
        step = -e.c_step;
    } else {
        e.d = -2 * e.a_x;
        m = e.a_x + e.c;
        step = e.c_step;
    }
    e.bound = floor_div(m, e.d);
    e.rest = m - e.bound * e.d;
    if (step >= 0 && step < e.d) /* a steep edge: at most one pixel a row, no division */
        e.bound_step = 0;
    else if (step < 0 && step >= -e.d)
        e.bound_step = -1;
    else
        e.bound_step = floor_div(step, e.d);
    e.rest_step = step - e.bound_step * e.d;
    return e;
}

/// Moves the edge's bound down a row.
static inline void next_row(Edge *e)
{
    e->bound += e->bound_step;
    e->rest += e->rest_step;
    int carry = e->rest >= e->d;
    e->bound += carry;
    e->rest -= carry * e->d;
}

/// The triangle as SDL sees it (corners truncated to whole pixels, then in half pixels); false when
/// SDL draws nothing of it.
static bool prepare(const RenderRaster *raster, SDL_FPoint p0, SDL_FPoint p1, SDL_FPoint p2, Uint32 color,
                    RasterTriangle *t)
{
    SDL_Point *d = t->d;
    d[0] = (SDL_Point){(int)p0.x * 2, (int)p0.y * 2};
    d[1] = (SDL_Point){(int)p1.x * 2, (int)p1.y * 2};
    d[2] = (SDL_Point){(int)p2.x * 2, (int)p2.y * 2};
    int area = (d[1].x - d[0].x) * (d[2].y - d[0].y) - (d[1].y - d[0].y) * (d[2].x - d[0].x);
    if (area == 0) return false; /* SDL draws nothing for a flat triangle */
    t->clockwise = area > 0;
    /* cppcheck-suppress duplicateAssignExpression ; the box starts as the first corner */
    int x_min = d[0].x, x_max = d[0].x, y_min = d[0].y, y_max = d[0].y;
    for (int i = 1; i < 3; i++) {
        x_min = d[i].x < x_min ? d[i].x : x_min, x_max = d[i].x > x_max ? d[i].x : x_max;
        y_min = d[i].y < y_min ? d[i].y : y_min, y_max = d[i].y > y_max ? d[i].y : y_max;
    }
    /* SDL's bounding box, columns x_min/2 .. x_max/2 - 1 and rows y_min/2 .. y_max/2 - 1 (the
     * corners are whole pixels: a centre past the last of them is outside anyway), then clipped */
    t->top = y_min / 2 > raster->y0 ? y_min / 2 : raster->y0;
    t->bottom = y_max / 2 < raster->y1 ? y_max / 2 : raster->y1;
    t->left = x_min / 2 > raster->x0 ? x_min / 2 : raster->x0;
    t->right = x_max / 2 - 1 < raster->x1 - 1 ? x_max / 2 - 1 : raster->x1 - 1;
    t->color = color;
    return t->top < t->bottom && t->left <= t->right;
}

/// Asks for the cache lines the triangle will write, so that they come from memory while the
/// triangles queued before it are filled: vehicles lie anywhere on a frame far bigger than the
/// caches, and filling them in the order they come, each row waited for its line.
static void prefetch(const RenderRaster *raster, const RasterTriangle *t)
{
    const Uint32 *row = raster->pixels + (ptrdiff_t)t->top * raster->pitch;
    for (int y = t->top; y < t->bottom; y++, row += raster->pitch) {
        __builtin_prefetch(row + t->left, 1);
        __builtin_prefetch(row + t->right, 1);
    }
}

/// Fills the triangle with SDL's pixels, row by row between its edges.
static void fill(RenderRaster *raster, const RasterTriangle *t)
{
    Edge lefts[2], rights[2];
    int left_count = 0, right_count = 0, top = t->top, bottom = t->bottom;
    for (int i = 0; i < 3; i++) {
        Edge e = edge_of(t->d[(i + 1) % 3], t->d[(i + 2) % 3], t->clockwise, top);
        if (e.a_x > 0 && left_count < 2)
            lefts[left_count++] = e;
        else if (e.a_x < 0 && right_count < 2)
            rights[right_count++] = e;
        else if (e.a_x == 0) {
            /* a level edge lets in whole rows: those on its inner side */
            while (top < bottom && e.c < 0) top++, e.c += e.c_step;
            int last = e.c + (bottom - 1 - top) * e.c_step;
            while (top < bottom && last < 0) bottom--, last -= e.c_step;
        }
    }
    Uint32 *row = raster->pixels + (ptrdiff_t)top * raster->pitch;
    for (int y = top; y < bottom; y++, row += raster->pitch) {
        int left = t->left, right = t->right;
        for (int i = 0; i < left_count; i++) {
            if (lefts[i].bound > left) left = lefts[i].bound;
            next_row(&lefts[i]);
        }
        for (int i = 0; i < right_count; i++) {
            if (rights[i].bound < right) right = rights[i].bound;
            next_row(&rights[i]);
        }
        for (int x = left; x <= right; x++) row[x] = t->color;
    }
}

bool render_raster_fits(const SteerRender *r, const SDL_FPoint *points, int count, SDL_Color fill, SDL_Color rim)
{
    if (!r->raster.pixels || fill.a != 255 || rim.a != 255) return false;
    for (int i = 0; i < count; i++)
        if (!(fabsf(points[i].x) < RASTER_LIMIT && fabsf(points[i].y) < RASTER_LIMIT)) return false;
    return true;
}

void render_raster_convex(SteerRender *r, const SDL_FPoint *points, int count, SDL_Color c)
{
    RenderRaster *raster = &r->raster;
    Uint32 color = map_color(raster, c);
    raster->filled++;
    for (int i = 1; i + 1 < count; i++) {
        if (raster->queue_count == RENDER_RASTER_AHEAD) {
            fill(raster, &raster->queue[raster->queue_first]);
            raster->queue_first = (raster->queue_first + 1) % RENDER_RASTER_AHEAD;
            raster->queue_count--;
        }
        RasterTriangle *t = &raster->queue[(raster->queue_first + raster->queue_count) % RENDER_RASTER_AHEAD];
        if (!prepare(raster, points[0], points[i], points[i + 1], color, t)) continue;
        prefetch(raster, t);
        raster->queue_count++;
    }
}

void render_raster_drain(SteerRender *r)
{
    RenderRaster *raster = &r->raster;
    for (; raster->queue_count > 0; raster->queue_count--) {
        fill(raster, &raster->queue[raster->queue_first]);
        raster->queue_first = (raster->queue_first + 1) % RENDER_RASTER_AHEAD;
    }
}
