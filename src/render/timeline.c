/* SPDX-License-Identifier: MIT */
/* timeline.c - the rewind timeline at the bottom of the view: a bar spanning the steps recorded,
 * ticks where scripts reloaded, failed, the run branched or restarted (stacked where they meet),
 * and a handle at the step shown. It
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
#define TIMELINE_RESTART ((SDL_Color){90, 220, 120, 255})
/* Marks whose columns are this close stack (a tick is 2 pixels wide, a stacked block 4). */
#define STACK_PX 3
#define BLOCK_PX 4

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

int steer_render_timeline_column(int width, int height, long long last, long long step)
{
    int bx, by, bw, bh;
    steer_render_timeline_bar(width, height, &bx, &by, &bw, &bh);
    return (int)column(bx, bw, last, step);
}

void steer_render_timeline_mark_rect(int width, int height, int x, int level, int kind, int *rx, int *ry, int *rw,
                                     int *rh)
{
    int bx, by, bw, bh;
    steer_render_timeline_bar(width, height, &bx, &by, &bw, &bh);
    if (level <= 0) { /* a tick through the bar; a branch's reaches further */
        int tall = kind == STEER_MARK_BRANCH ? 6 : 3;
        *rx = x - 1;
        *rw = 2;
        *ry = by - tall;
        *rh = bh + 2 * tall;
        return;
    }
    if (level >= STEER_TIMELINE_MAX_STACK) level = STEER_TIMELINE_MAX_STACK - 1;
    *rx = x - BLOCK_PX / 2; /* blocks above the tallest tick, one pixel apart */
    *rw = BLOCK_PX;
    *rh = BLOCK_PX;
    *ry = by - 6 - (BLOCK_PX + 1) * level;
}

static SDL_Color mark_color(int kind)
{
    switch (kind) {
    case STEER_MARK_ERROR: return TIMELINE_ERROR;
    case STEER_MARK_BRANCH: return TIMELINE_BRANCH;
    case STEER_MARK_RESTART: return TIMELINE_RESTART;
    default: return TIMELINE_RELOAD;
    }
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
    /* In step order; a mark at the place of the one before (a failed save: its reload and its
     * error; F5 at a past step: the branch and the restart) goes on top of it, not over it. */
    int stack_x = 0, level = 0, highest = 0;
    for (int i = 0; i < t->mark_count; i++) {
        int x = (int)column(bx, bw, span, t->mark_steps[i]);
        if (i > 0 && x >= stack_x && x - stack_x < STACK_PX) {
            level++;
        } else {
            level = 0;
            stack_x = x;
        }
        if (level > highest) highest = level < STEER_TIMELINE_MAX_STACK ? level : STEER_TIMELINE_MAX_STACK - 1;
        int rx, ry, rw, rh;
        steer_render_timeline_mark_rect(out_w, out_h, x, level, t->mark_kinds[i], &rx, &ry, &rw, &rh);
        render_rect_fill(r, (float)rx, (float)ry, (float)rw, (float)rh, mark_color(t->mark_kinds[i]));
    }
    render_rect_fill(r, now - 2.0f, (float)by - 4.0f, 4.0f, (float)bh + 8.0f, RENDER_SELECTED);
    if (t->label) {
        float lh = (float)r->line_height;
        float above = (float)((BLOCK_PX + 1) * highest); /* (clear of the stacked marks) */
        float lx = (float)bx, ly = (float)by - lh - 6.0f - above,
              lw = (float)render_text_width(r, t->label, (size_t)-1);
        render_rect_fill(r, lx - 3.0f, ly - 1.0f, lw + 6.0f, lh + 2.0f, RENDER_PANEL); /* its backing */
        render_text_line(r, lx, ly, t->label, (size_t)-1, RENDER_TEXT);
        render_note_panel(r, lx - 3.0f, ly - 1.0f, lw + 6.0f, lh + 2.0f);
    }
    render_note_panel(r, (float)bx, (float)by - 4.0f, (float)bw, (float)bh + 8.0f);
    render_flush(r);
}

int steer_render_timeline_top(const SteerRender *r, int width, int height)
{
    int bx, by, bw, bh;
    steer_render_timeline_bar(width, height, &bx, &by, &bw, &bh);
    return by - r->line_height - 7 - (BLOCK_PX + 1) * (STEER_TIMELINE_MAX_STACK - 1);
}
