/* SPDX-License-Identifier: MIT */
/* timeline.c - the rewind timeline at the bottom of the view: a bar spanning the steps recorded,
 * ticks where scripts reloaded, failed or the run branched, and a handle at the step shown. It
 * reads the numbers it is given and nothing else; the runtime maps clicks through the same
 * geometry (steer_render_timeline_bar). */
#include <stdio.h>

#include "render_internal.h"

#define BAR_MARGIN 10
#define BAR_HEIGHT 10
#define BAR_BOTTOM 8 /* pixels under the bar */

#define TIMELINE_TRACK ((SDL_Color){60, 66, 80, 200})
#define TIMELINE_SPAN ((SDL_Color){110, 120, 140, 230})
#define TIMELINE_RELOAD ((SDL_Color){90, 170, 255, 255})
#define TIMELINE_ERROR ((SDL_Color){235, 70, 70, 255})
#define TIMELINE_BRANCH ((SDL_Color){250, 210, 70, 255})
/* a dropped future: faint where nothing else is recorded, a thin line under the bar all along */
#define TIMELINE_FUTURE ((SDL_Color){250, 210, 70, 70})
#define TIMELINE_FUTURE_LINE ((SDL_Color){250, 210, 70, 160})

void steer_render_timeline_bar(int width, int height, int *x, int *y, int *w, int *h)
{
    *x = BAR_MARGIN;
    *w = width - 2 * BAR_MARGIN;
    if (*w < 1) *w = 1;
    *h = BAR_HEIGHT;
    *y = height - BAR_BOTTOM - BAR_HEIGHT;
}

long long steer_render_timeline_step(int width, int height, long long last, int x)
{
    int bx, by, bw, bh;
    steer_render_timeline_bar(width, height, &bx, &by, &bw, &bh);
    double t = (double)(x - bx) / (double)bw;
    if (t < 0.0) t = 0.0;
    if (t > 1.0) t = 1.0;
    return (long long)(t * (double)last + 0.5);
}

static float column(int bx, int bw, long long last, long long step)
{
    return (float)bx + (last > 0 ? (float)((double)step / (double)last) * (float)bw : 0.0f);
}

void steer_render_timeline(SteerRender *r, const SteerTimeline *t)
{
    int out_w = 0, out_h = 0;
    SDL_GetRendererOutputSize(r->sdl, &out_w, &out_h);
    int bx, by, bw, bh;
    steer_render_timeline_bar(out_w, out_h, &bx, &by, &bw, &bh);
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
    long long span = t->span > t->last ? t->span : t->last;
    float end = column(bx, bw, span, t->last);
    render_rect_fill(r, (float)bx, (float)by, end - (float)bx, (float)bh, TIMELINE_TRACK);
    if (t->future_last > t->future_branch) {
        float from = column(bx, bw, span, t->future_branch), to = column(bx, bw, span, t->future_last);
        if (to > end) render_rect_fill(r, end, (float)by, to - end, (float)bh, TIMELINE_FUTURE);
        render_rect_fill(r, from, (float)(by + bh) + 1.0f, to - from, 2.0f, TIMELINE_FUTURE_LINE);
    }
    float now = column(bx, bw, span, t->current);
    render_rect_fill(r, (float)bx, (float)by + 2.0f, now - (float)bx, (float)bh - 4.0f, TIMELINE_SPAN);
    /* reloads, then branches, then errors on top: a failed save and its fix often share a step */
    static const unsigned char order[] = {STEER_MARK_RELOAD, STEER_MARK_BRANCH, STEER_MARK_ERROR};
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < t->mark_count; i++) {
            if (t->mark_kinds[i] != order[pass]) continue;
            SDL_Color c = t->mark_kinds[i] == STEER_MARK_ERROR    ? TIMELINE_ERROR
                          : t->mark_kinds[i] == STEER_MARK_BRANCH ? TIMELINE_BRANCH
                                                                  : TIMELINE_RELOAD;
            float x = column(bx, bw, span, t->mark_steps[i]);
            float tall = t->mark_kinds[i] == STEER_MARK_BRANCH ? 6.0f : 3.0f;
            render_rect_fill(r, x - 1.0f, (float)by - tall, 2.0f, (float)bh + 2.0f * tall, c);
        }
    render_rect_fill(r, now - 2.0f, (float)by - 4.0f, 4.0f, (float)bh + 8.0f, RENDER_SELECTED);
    if (t->label) {
        float lh = (float)r->line_height;
        render_text_line(r, (float)bx, (float)by - lh - 6.0f, t->label, (size_t)-1, RENDER_TEXT);
    }
    render_flush(r);
}
