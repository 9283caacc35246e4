/* SPDX-License-Identifier: MIT */
/* strokes.c - thin lines, 1-pixel spans (small dots, discs) and their layers: one per colour,
 * drawn when the next shape comes or at the flush, band by band down the screen (see RenderLines
 * in render_internal.h). On the software renderer a 1-pixel line costs a few pixels where a thin
 * quad costs a test of its whole bounding box. */
#include <stdlib.h>
#include <string.h>

#include "render_internal.h"

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

/// Spans in the colour set, blended even when opaque (the same pixels): the software renderer fills
/// an unblended rectangle wider than 15 pixels with non-temporal stores, which push those rows out
/// of the cache the strokes drawn next read from.
static void fill_spans(SteerRender *r, const SDL_FRect *spans, int count)
{
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
    SDL_RenderFillRectsF(r->sdl, spans, count);
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
        if (layer->span_count > 0) fill_spans(r, layer->spans, layer->span_count);
    }
}

/// The strokes band by band down the screen, each band's layer by layer. A blended stroke costs a
/// read of every pixel it crosses, and in the world's order (creation order) consecutive strokes
/// lie anywhere on the frame, so nearly every pixel was a cache miss; band by band, the rows being
/// drawn stay in cache. Strokes of one colour blend the same in any order, so only where two
/// colours cross can the one on top differ from the order the strokes were queued in.
static void draw_layers_by_band(SteerRender *r)
{
    RenderLines *l = &r->lines;
    int bands = r->view_h > 0.0f ? (int)(r->view_h / (float)BAND_ROWS) + 3 : 0;
    int keys = bands * l->layer_count, runs = 0, spans = 0;
    for (int i = 0; i < l->layer_count; i++) runs += l->layers[i].run_count, spans += l->layers[i].span_count;
    if (keys == 0 || !grow((void **)&l->run_first, 0, &l->run_first_capacity, keys + 1, sizeof *l->run_first, 256) ||
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
        if (span < span_end) {
            fill_spans(r, l->sorted_spans + span, span_end - span);
            current = -1; /* the blend mode changed */
        }
        span = span_end;
    }
}

void render_flush_strokes(SteerRender *r)
{
    render_raster_drain(r); /* vehicles queued before these strokes are drawn before them */
    RenderLines *l = &r->lines;
    if (l->layer_count == 0) return;
    draw_layers_by_band(r);
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
    for (int i = 0; i < l->layer_count; i++)
        l->layers[i].point_count = l->layers[i].run_count = l->layers[i].span_count = 0;
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

static bool same_color(SDL_Color a, SDL_Color b) { return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a; }

/// The layer of colour c, opened when new (drawing the others first when all are taken).
static RenderLayer *layer_for(SteerRender *r, SDL_Color c)
{
    render_flush_shapes(r); /* keep the painter's order: what was queued before is drawn before */
    RenderLines *l = &r->lines;
    if (l->layer_count > 0 && same_color(l->layers[l->last].color, c)) return &l->layers[l->last];
    for (int i = 0; i < l->layer_count; i++)
        if (same_color(l->layers[i].color, c)) {
            l->last = i;
            return &l->layers[i];
        }
    if (l->layer_count == RENDER_MAX_LAYERS) render_flush_strokes(r);
    l->last = l->layer_count++;
    l->layers[l->last].color = c;
    return &l->layers[l->last];
}

bool render_offscreen(const SteerRender *r, float x0, float y0, float x1, float y1)
{
    if (r->view_w <= 0.0f) return false;
    const float margin = 2.0f; /* strokes' widths and SDL's rounding */
    return (x0 < -margin && x1 < -margin) || (y0 < -margin && y1 < -margin) ||
           (x0 > r->view_w + margin && x1 > r->view_w + margin) || (y0 > r->view_h + margin && y1 > r->view_h + margin);
}

void render_thin_line(SteerRender *r, float x0, float y0, float x1, float y1, SDL_Color c)
{
    if (render_offscreen(r, x0, y0, x1, y1)) return;
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

void render_span(SteerRender *r, float x0, float x1, float y, SDL_Color c)
{
    if (render_offscreen(r, x0, y, x1, y)) return;
    RenderLayer *layer = layer_for(r, c);
    if (!grow((void **)&layer->spans, layer->span_count, &layer->span_capacity, 1, sizeof *layer->spans, 256)) return;
    float left = (float)(int)x0, right = (float)(int)x1;
    layer->spans[layer->span_count++] = (SDL_FRect){left, (float)(int)y, right - left + 1.0f, 1.0f};
}

void render_span_pixels(SteerRender *r, int left, int right, int y, SDL_Color c)
{
    RenderLayer *layer = layer_for(r, c);
    if (!grow((void **)&layer->spans, layer->span_count, &layer->span_capacity, 1, sizeof *layer->spans, 256)) return;
    layer->spans[layer->span_count++] = (SDL_FRect){(float)left, (float)y, (float)(right - left + 1), 1.0f};
}
