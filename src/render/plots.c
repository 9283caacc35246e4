/* SPDX-License-Identifier: MIT */
/* plots.c - the inspector's plots: one small line plot per series (speed, force, each behaviour's
 * force) over the last seconds, then the states as a coloured strip naming each state where its
 * name fits, on one time axis that scrolls with simulated time. The data are rings the caller owns
 * (SteerInspectorPlots); nothing here writes them, and nothing is allocated: the shapes, strokes and
 * text go through the renderer's batches like every other panel. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render_internal.h"

#define PAD 8.0f
#define GAP 4.0f /* between the inspector and this panel, and between rows */
#define STRIP_H 18.0f
#define PLOT_BG ((SDL_Color){30, 34, 44, 255})
#define PLOT_TICK ((SDL_Color){50, 56, 70, 255})
#define LIMIT_COLOR ((SDL_Color){150, 158, 172, 255})

/* Where the sample at ring index i goes on the time axis. */
static float time_x(const SteerInspectorPlots *p, double t, float x0, float x1)
{
    double f = (t - (p->now - p->window)) / p->window;
    if (f < 0) f = 0;
    if (f > 1) f = 1;
    return x0 + (float)f * (x1 - x0);
}

static float value_y(float v, float top, float y0, float y1)
{
    float f = v / top;
    if (f < 0) f = 0;
    if (f > 1) f = 1;
    return y1 - f * (y1 - y0);
}

/* The newest value of a series in the window, or NaN. */
static float latest(const SteerInspectorPlots *p, const float *values)
{
    if (p->count <= 0) return NAN;
    return values[(p->first + p->count - 1) % p->capacity];
}

/* Faint vertical lines at each whole simulated second: they move left as time goes on. */
static void second_ticks(SteerRender *r, const SteerInspectorPlots *p, float x0, float x1, float y0, float y1)
{
    for (double t = floor(p->now); t > p->now - p->window; t -= 1.0) {
        float x = floorf(time_x(p, t, x0, x1)) + 0.5f;
        if (x > x0 + 1 && x < x1 - 1) render_thin_line(r, x, y0 + 1, x, y1 - 1, PLOT_TICK);
    }
}

static void plot_series(SteerRender *r, const SteerInspectorPlots *p, const SteerPlotSeries *s, float x0, float x1,
                        float y0, float y1)
{
    render_rect_fill(r, x0, y0, x1 - x0, y1 - y0, PLOT_BG);
    second_ticks(r, p, x0, x1, y0, y1);
    float top = s->top > 0 ? s->top : 1.0f;
    if (s->limit > 0 && s->limit <= top) { /* dashed: max_speed, max_force */
        float y = floorf(value_y(s->limit, top, y0 + 1, y1 - 1)) + 0.5f;
        for (float x = x0 + 2; x < x1 - 2; x += 6) render_span(r, x, fminf(x + 2, x1 - 2), y, LIMIT_COLOR);
    }
    bool pen = false;
    float px = 0, py = 0;
    for (int i = 0; i < p->count; i++) {
        int k = (p->first + i) % p->capacity;
        float v = s->values[k];
        if (isnan(v)) { /* off: a gap */
            pen = false;
            continue;
        }
        float x = time_x(p, p->times[k], x0 + 1, x1 - 1), y = value_y(v, top, y0 + 1, y1 - 1);
        if (pen)
            render_thin_line(r, px, py, x, y, s->color); /* one polyline per stretch that is on */
        else
            render_span(r, x, x, y, s->color); /* a lone sample still shows */
        px = x, py = y, pen = true;
    }
}

/* The states as stretches of colour; each named where its name fits. */
static void state_strip(SteerRender *r, const SteerInspectorPlots *p, float x0, float x1, float y0, float y1)
{
    render_rect_fill(r, x0, y0, x1 - x0, y1 - y0, PLOT_BG);
    int i = 0;
    while (i < p->count) {
        int k = (p->first + i) % p->capacity;
        uint8_t state = p->states[k];
        int j = i + 1;
        while (j < p->count && p->states[(p->first + j) % p->capacity] == state) j++;
        /* the stretch runs from its first sample to the next stretch's first (or now) */
        double t0 = p->times[k], t1 = j < p->count ? p->times[(p->first + j) % p->capacity] : p->now;
        float a = time_x(p, t0, x0, x1), b = time_x(p, t1, x0, x1);
        if (j == p->count) b = x1;
        if (state != STEER_PLOT_NO_STATE && state < p->state_name_count && b > a) {
            const char *name = p->state_names[state];
            SDL_Color c = p->state_colors ? p->state_colors[state] : RENDER_TEXT_DIM;
            /* a little of the plots' background mixed in, computed here: opaque fills need no blend */
            c = (SDL_Color){(Uint8)((c.r * 210 + PLOT_BG.r * 45) / 255), (Uint8)((c.g * 210 + PLOT_BG.g * 45) / 255),
                            (Uint8)((c.b * 210 + PLOT_BG.b * 45) / 255), 255};
            render_rect_fill(r, a, y0 + 1, b - a, y1 - y0 - 2, c);
            float w = (float)render_text_width(r, name, (size_t)-1);
            if (w + 6 <= b - a) {
                float tx = fmaxf(a + 3, fminf(0.5f * (a + b - w), b - w - 3));
                render_text_line(r, tx, 0.5f * (y0 + y1 - (float)r->line_height), name, (size_t)-1,
                                 (SDL_Color){12, 14, 20, 255});
            }
        }
        i = j;
    }
}

static void format_value(char *out, size_t size, float v)
{
    if (isnan(v))
        snprintf(out, size, "off");
    else
        snprintf(out, size, "%.1f", (double)v);
}

void steer_render_inspector_plots(SteerRender *r, const SteerInspectorPlots *p)
{
    if (!p || r->inspector_w <= 0 || p->window <= 0) return;
    int out_w = 0, out_h = 0;
    SDL_GetRendererOutputSize(r->sdl, &out_w, &out_h);
    float lh = (float)r->line_height;
    float w = fmaxf(r->inspector_w, RENDER_PLOTS_MIN_WIDTH);
    float x = r->inspector_x + r->inspector_w - w, y = r->inspector_y + r->inspector_h + GAP;
    char span[32];
    snprintf(span, sizeof span, "last %.0f s", p->window);
    /* the label column: the widest "label", value or the span above them (the left end of the time
     * axis is labelled right after it) */
    float label_w = (float)render_text_width(r, span, (size_t)-1);
    for (int s = 0; s < p->series_count; s++) {
        float lw = (float)render_text_width(r, p->series[s].label, (size_t)-1);
        if (lw > label_w) label_w = lw;
    }
    label_w = fmaxf(label_w, (float)render_text_width(r, "00000.0", (size_t)-1));
    float row_h = 2 * lh + 2;
    bool strip = p->states != NULL;
    /* as many rows as fit above the bottom of the output */
    int rows = p->series_count;
    float fixed = 2 * PAD + lh + GAP + (strip ? STRIP_H + GAP : 0);
    while (rows > 0 && y + fixed + (float)rows * (row_h + GAP) > (float)out_h) rows--;
    float h = fixed + (float)rows * (row_h + GAP);
    /* nearly opaque: the lines must not mix with the world drawn behind them */
    render_panel(r, x, y, w, h, (SDL_Color){RENDER_PANEL.r, RENDER_PANEL.g, RENDER_PANEL.b, 242}, RENDER_PANEL_BORDER);
    render_flush_shapes(r); /* the panel blends; what goes on it is opaque and drawn without blending */
    float px0 = x + PAD + label_w + 8, px1 = x + w - PAD;
    float cy = y + PAD;
    /* the time axis, on top: the span and where now is */
    render_text_line(r, x + PAD, cy, span, (size_t)-1, RENDER_TEXT_DIM);
    char left[32];
    snprintf(left, sizeof left, "-%.0f s", p->window);
    render_text_line(r, px0, cy, left, (size_t)-1, RENDER_TEXT_DIM);
    char now[32];
    snprintf(now, sizeof now, "t %.1f s", p->now);
    render_text_line(r, px1 - (float)render_text_width(r, now, (size_t)-1), cy, now, (size_t)-1, RENDER_TEXT_DIM);
    cy += lh + GAP;
    for (int s = 0; s < rows; s++) {
        const SteerPlotSeries *series = &p->series[s];
        char value[32];
        format_value(value, sizeof value, latest(p, series->values));
        render_text_line(r, x + PAD, cy, series->label, (size_t)-1, series->color);
        render_text_line(r, x + PAD, cy + lh, value, (size_t)-1, RENDER_TEXT_DIM);
        plot_series(r, p, series, px0, px1, cy, cy + row_h);
        cy += row_h + GAP;
    }
    if (strip) {
        render_text_line(r, x + PAD, cy + 0.5f * (STRIP_H - lh), "state", (size_t)-1, RENDER_TEXT);
        state_strip(r, p, px0, px1, cy, cy + STRIP_H);
    }
    render_flush(r);
}
