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

static bool grow(void **items, int count, int *capacity, int n, size_t size, int first_capacity);

/// Rows per band when the strokes are sorted down the screen: the rows a band's strokes reach stay
/// in cache while the band is drawn.
enum { BAND_ROWS = 16 };

/// The band of rows a stroke starting at y belongs to: 0 above the output, bands - 1 below it.
static int band_of(const SteerRender *r, float y, int bands)
{
    if (!(y >= 0.0f)) return 0;
    if (y >= r->view_h) return bands - 1;
    return 1 + (int)(y / (float)BAND_ROWS);
}

/// Sets the colour of the strokes that follow. An opaque colour is drawn without blending: the same
/// pixels (blending at alpha 255 gives the colour itself), written without reading the frame first.
static void use_color(SteerRender *r, SDL_Color c)
{
    SDL_SetRenderDrawBlendMode(r->sdl, c.a == 255 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(r->sdl, c.r, c.g, c.b, c.a);
}

/// Every layer's strokes, in the order they were queued (layer by layer), when the scratch lists
/// cannot grow or the output size is unknown.
static void draw_layers_in_order(SteerRender *r)
{
    RenderLines *l = &r->lines;
    for (int i = 0; i < l->layer_count; i++) {
        RenderLayer *layer = &l->layers[i];
        use_color(r, layer->color);
        for (int k = 0; k < layer->run_count; k++)
            SDL_RenderDrawLinesF(r->sdl, layer->points + layer->runs[k].first, layer->runs[k].count);
        if (layer->span_count > 0) SDL_RenderFillRectsF(r->sdl, layer->spans, layer->span_count);
    }
}

/// The strokes band by band down the screen, each band's layer by layer. A blended stroke costs a
/// read of every pixel it crosses, and in the world's order (creation order) consecutive strokes
/// lie anywhere on the frame, so nearly every pixel was a cache miss; band by band, the rows being
/// drawn stay in cache. Strokes of one colour blend the same in any order, so only where two
/// colours cross can the one on top change, as it did when the layers were first grouped.
static void draw_layers_by_band(SteerRender *r)
{
    RenderLines *l = &r->lines;
    int bands = r->view_h > 0.0f ? (int)(r->view_h / (float)BAND_ROWS) + 3 : 0;
    int keys = bands * l->layer_count, runs = 0, spans = 0;
    for (int i = 0; i < l->layer_count; i++) runs += l->layers[i].run_count, spans += l->layers[i].span_count;
    if (keys == 0 ||
        !grow((void **)&l->run_first, 0, &l->run_first_capacity, keys + 1, sizeof *l->run_first, 256) ||
        !grow((void **)&l->span_first, 0, &l->span_first_capacity, keys + 1, sizeof *l->span_first, 256) ||
        !grow((void **)&l->sorted_runs, 0, &l->sorted_run_capacity, runs, sizeof *l->sorted_runs, 1024) ||
        !grow((void **)&l->sorted_spans, 0, &l->sorted_span_capacity, spans, sizeof *l->sorted_spans, 1024)) {
        draw_layers_in_order(r);
        return;
    }
    /* counting sort by key = band * layer_count + layer */
    memset(l->run_first, 0, (size_t)(keys + 1) * sizeof *l->run_first);
    memset(l->span_first, 0, (size_t)(keys + 1) * sizeof *l->span_first);
    for (int i = 0; i < l->layer_count; i++) {
        const RenderLayer *layer = &l->layers[i];
        for (int k = 0; k < layer->run_count; k++)
            l->run_first[band_of(r, layer->points[layer->runs[k].first].y, bands) * l->layer_count + i + 1]++;
        for (int k = 0; k < layer->span_count; k++)
            l->span_first[band_of(r, layer->spans[k].y, bands) * l->layer_count + i + 1]++;
    }
    for (int key = 0; key < keys; key++) {
        l->run_first[key + 1] += l->run_first[key];
        l->span_first[key + 1] += l->span_first[key];
    }
    for (int i = 0; i < l->layer_count; i++) {
        const RenderLayer *layer = &l->layers[i];
        for (int k = 0; k < layer->run_count; k++) {
            int key = band_of(r, layer->points[layer->runs[k].first].y, bands) * l->layer_count + i;
            l->sorted_runs[l->run_first[key]++] = layer->runs[k];
        }
        for (int k = 0; k < layer->span_count; k++) {
            int key = band_of(r, layer->spans[k].y, bands) * l->layer_count + i;
            l->sorted_spans[l->span_first[key]++] = layer->spans[k];
        }
    }
    /* each key's items now end at its *_first entry and start at the previous key's */
    int run = 0, span = 0, current = -1;
    for (int key = 0; key < keys; key++) {
        int run_end = l->run_first[key], span_end = l->span_first[key];
        if (run == run_end && span == span_end) continue;
        int i = key % l->layer_count;
        const RenderLayer *layer = &l->layers[i];
        if (i != current) {
            use_color(r, layer->color);
            current = i;
        }
        for (; run < run_end; run++)
            SDL_RenderDrawLinesF(r->sdl, layer->points + l->sorted_runs[run].first, l->sorted_runs[run].count);
        if (span < span_end) SDL_RenderFillRectsF(r->sdl, l->sorted_spans + span, span_end - span);
        span = span_end;
    }
}

static void flush_lines(SteerRender *r)
{
    RenderLines *l = &r->lines;
    if (l->layer_count == 0) return;
    draw_layers_by_band(r);
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
    for (int i = 0; i < l->layer_count; i++) l->layers[i].point_count = l->layers[i].run_count = l->layers[i].span_count = 0;
    l->layer_count = 0;
    l->last = 0;
}

void render_lines_free(RenderLines *lines)
{
    for (int i = 0; i < RENDER_MAX_LAYERS; i++) {
        free(lines->layers[i].points);
        free(lines->layers[i].runs);
        free(lines->layers[i].spans);
    }
    free(lines->run_first);
    free(lines->span_first);
    free(lines->sorted_runs);
    free(lines->sorted_spans);
    memset(lines, 0, sizeof *lines);
}

/// Room for n more items of `size` bytes in *items (count used, *capacity allocated).
static bool grow(void **items, int count, int *capacity, int n, size_t size, int first_capacity)
{
    if (count + n <= *capacity) return true;
    int capacity_now = *capacity ? *capacity : first_capacity;
    while (capacity_now < count + n) capacity_now *= 2;
    void *grown = realloc(*items, (size_t)capacity_now * size);
    if (!grown) return false;
    *items = grown;
    *capacity = capacity_now;
    return true;
}

static bool same_color(SDL_Color a, SDL_Color b)
{
    return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a;
}

/// The layer of colour c, opened when new (drawing the others first when all are taken).
static RenderLayer *layer_for(SteerRender *r, SDL_Color c)
{
    flush_shapes(r); /* keep the painter's order: what was queued before is drawn before */
    RenderLines *l = &r->lines;
    if (l->layer_count > 0 && same_color(l->layers[l->last].color, c)) return &l->layers[l->last];
    for (int i = 0; i < l->layer_count; i++)
        if (same_color(l->layers[i].color, c)) {
            l->last = i;
            return &l->layers[i];
        }
    if (l->layer_count == RENDER_MAX_LAYERS) flush_lines(r);
    l->last = l->layer_count++;
    l->layers[l->last].color = c;
    return &l->layers[l->last];
}

/// True when the box from (x0, y0) to (x1, y1) (any corner order) lies wholly outside the output.
static bool offscreen(const SteerRender *r, float x0, float y0, float x1, float y1)
{
    if (r->view_w <= 0.0f) return false;
    const float margin = 2.0f; /* strokes' widths and SDL's rounding */
    return (x0 < -margin && x1 < -margin) || (y0 < -margin && y1 < -margin) ||
           (x0 > r->view_w + margin && x1 > r->view_w + margin) || (y0 > r->view_h + margin && y1 > r->view_h + margin);
}

/// A 1-pixel line; continues its colour's last polyline when it starts where that one ended.
static void thin_line(SteerRender *r, float x0, float y0, float x1, float y1, SDL_Color c)
{
    if (offscreen(r, x0, y0, x1, y1)) return;
    RenderLayer *layer = layer_for(r, c);
    if (!grow((void **)&layer->points, layer->point_count, &layer->point_capacity, 2, sizeof *layer->points, 1024) ||
        !grow((void **)&layer->runs, layer->run_count, &layer->run_capacity, 1, sizeof *layer->runs, 256))
        return;
    if (layer->run_count > 0) {
        RenderLineRun *last = &layer->runs[layer->run_count - 1];
        SDL_FPoint end = layer->points[last->first + last->count - 1];
        if (end.x == x0 && end.y == y0 && last->first + last->count == layer->point_count) {
            layer->points[layer->point_count++] = (SDL_FPoint){x1, y1};
            last->count++;
            return;
        }
    }
    layer->runs[layer->run_count++] = (RenderLineRun){layer->point_count, 2};
    layer->points[layer->point_count++] = (SDL_FPoint){x0, y0};
    layer->points[layer->point_count++] = (SDL_FPoint){x1, y1};
}

/// What SDL draws for a 1-pixel horizontal line from x0 to x1 (x0 <= x1) at y, as a rectangle: the
/// software renderer truncates each end to a whole pixel and draws both ends, so the same pixels
/// go in one SDL_RenderFillRectsF call per colour instead of one line call per row.
static void span(SteerRender *r, float x0, float x1, float y, SDL_Color c)
{
    if (offscreen(r, x0, y, x1, y)) return;
    RenderLayer *layer = layer_for(r, c);
    if (!grow((void **)&layer->spans, layer->span_count, &layer->span_capacity, 1, sizeof *layer->spans, 256)) return;
    float left = (float)(int)x0, right = (float)(int)x1;
    layer->spans[layer->span_count++] = (SDL_FRect){left, (float)(int)y, right - left + 1.0f, 1.0f};
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
    if (r->lines.layer_count > 0) flush_lines(r);
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
    if (offscreen(r, fminf(x0, x1) - width, fminf(y0, y1) - width, fmaxf(x0, x1) + width, fmaxf(y0, y1) + width)) return;
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
        span(r, x - half, x + half, y + (float)dy, c);
    }
}

/// A disc as one span per row of pixels whose centres lie inside it: a fan of triangles costs
/// the software renderer a test of every pixel in each triangle's bounding box (a disc's area
/// several times over), spans only the pixels drawn. Its edge is the true circle's, where a fan's
/// was a polygon's: they differ by under a pixel.
static void disc_spans(SteerRender *r, float cx, float cy, float radius, SDL_Color c)
{
    int top = (int)ceilf(cy - radius - 0.5f), bottom = (int)floorf(cy + radius - 0.5f);
    if (r->view_h > 0.0f) {
        if (top < 0) top = 0;
        if (bottom > (int)r->view_h - 1) bottom = (int)r->view_h - 1;
    }
    for (int y = top; y <= bottom; y++) {
        float dy = (float)y + 0.5f - cy, squared = radius * radius - dy * dy;
        if (squared < 0.0f) continue;
        float half = sqrtf(squared);
        int left = (int)ceilf(cx - half - 0.5f), right = (int)floorf(cx + half - 0.5f);
        if (left > right) continue;
        RenderLayer *layer = layer_for(r, c);
        if (!grow((void **)&layer->spans, layer->span_count, &layer->span_capacity, 1, sizeof *layer->spans, 256)) return;
        layer->spans[layer->span_count++] = (SDL_FRect){(float)left, (float)y, (float)(right - left + 1), 1.0f};
    }
}

void render_disc(SteerRender *r, float cx, float cy, float radius, SDL_Color c)
{
    if (!(radius > 0.0f) || offscreen(r, cx - radius, cy - radius, cx + radius, cy + radius)) return;
    if (radius > 4.0f && fabsf(cx) < 1e6f && fabsf(cy) < 1e6f) {
        disc_spans(r, cx, cy, radius, c);
        return;
    }
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
    float outside = radius + width;
    if (!(radius > 0.0f) || offscreen(r, cx - outside, cy - outside, cx + outside, cy + outside)) return;
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

/// The convex polygon with every edge moved `distance` pixels outward (inward when negative): each
/// corner goes where its two moved edges meet, so the band between the polygon grown and shrunk by
/// half a pixel is the 1-pixel outline along every edge.
static void offset_convex(const SDL_FPoint *points, int count, float distance, SDL_FPoint *out)
{
    float area = 0.0f; /* twice the signed area: its sign says which side of each edge is outside */
    for (int i = 0; i < count; i++) {
        SDL_FPoint p = points[i], q = points[(i + 1) % count];
        area += p.x * q.y - q.x * p.y;
    }
    float side = area > 0.0f ? 1.0f : -1.0f;
    for (int i = 0; i < count; i++) {
        SDL_FPoint prev = points[(i + count - 1) % count], p = points[i], next = points[(i + 1) % count];
        float ax = p.x - prev.x, ay = p.y - prev.y, bx = next.x - p.x, by = next.y - p.y;
        float la = sqrtf(ax * ax + ay * ay), lb = sqrtf(bx * bx + by * by);
        if (!(la > 1e-6f) || !(lb > 1e-6f)) {
            out[i] = p;
            continue;
        }
        /* outward unit normals of the edges into and out of this corner */
        float n1x = side * ay / la, n1y = -side * ax / la, n2x = side * by / lb, n2y = -side * bx / lb;
        float cosine = n1x * n2x + n1y * n2y;
        float scale = distance / (1.0f + (cosine > -0.8f ? cosine : -0.8f)); /* a bounded mitre */
        out[i] = (SDL_FPoint){p.x + (n1x + n2x) * scale, p.y + (n1y + n2y) * scale};
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
    if (offscreen(r, x0, y0, x1, y1)) return;
    SDL_FPoint grown[MAX_POINTS], shrunk[MAX_POINTS];
    offset_convex(points, count, 0.5f, grown);
    offset_convex(points, count, -0.5f, shrunk);
    render_convex(r, grown, count, rim);
    render_convex(r, shrunk, count, fill);
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
