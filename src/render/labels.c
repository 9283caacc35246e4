/* SPDX-License-Identifier: MIT */
/* labels.c - state labels that stay readable in a crowd, and text on panels for scripts.
 *
 * steer_render_world collects one label per vehicle (its state name, from the frame's
 * vehicle_label); they are laid out and drawn at once, or - when the frame says defer_labels - at
 * steer_render_labels, after the caller has drawn its panels (HUD, inspector, error panel, ...),
 * which every label keeps out of. Layout is greedy and deterministic: the selected vehicle's label
 * first, the hovered one's next, then in id order; each tries below, above, right and left of its
 * vehicle and takes the first place that is on screen, clear of every panel and of every label
 * placed before. A label with no free place is counted into the nearest placed label of the same
 * text (drawn `evade x5`) or, with none near, left out: no two labels ever overlap. Every label
 * sits on a small backing panel. Each placed rectangle is room for the text and a " x99" count, so
 * a count never pushes a label into another. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_internal.h"

#define LABEL_PAD_X 3.0f
#define LABEL_PAD_Y 1.0f
/// A label counted into another is of a vehicle this close (pixels) to that label's vehicle.
#define LABEL_MERGE_DISTANCE 90.0f
#define LABEL_BACKING ((SDL_Color){14, 16, 22, 170})

void render_note_panel(SteerRender *r, float x, float y, float w, float h)
{
    if (r->panel_count >= RENDER_MAX_PANELS) return;
    r->panels[r->panel_count++] = (SDL_FRect){x, y, w, h};
}

static bool overlaps(SDL_FRect a, SDL_FRect b)
{
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

void render_labels_begin(SteerRender *r)
{
    r->label_count = 0;
    r->labels_pending = false;
}

void render_label_add(SteerRender *r, SteerVehicleId id, float x, float y, float below, const char *text, int rank)
{
    if (!text || !*text) return;
    if (r->label_count >= r->label_capacity) {
        int capacity = r->label_capacity ? 2 * r->label_capacity : 256;
        RenderLabel *grown = realloc(r->labels, (size_t)capacity * sizeof *grown);
        if (!grown) return; /* fewer labels, never a crash */
        r->labels = grown;
        r->label_capacity = capacity;
    }
    RenderLabel *l = &r->labels[r->label_count++];
    memset(l, 0, sizeof *l);
    l->id = id;
    l->x = x;
    l->y = y;
    l->below = below;
    l->rank = rank;
    snprintf(l->text, sizeof l->text, "%s", text);
    r->labels_pending = true;
}

/// Room for a label's text and a count: where it would sit at candidate place `k` (0 below, 1 above,
/// 2 right, 3 left of its vehicle).
static SDL_FRect place(const SteerRender *r, const RenderLabel *l, int k, float text_w)
{
    float room = text_w + (float)render_text_width(r, " x99", (size_t)-1) + 2 * LABEL_PAD_X;
    float h = (float)r->line_height + 2 * LABEL_PAD_Y;
    SDL_FRect box;
    switch (k) {
    case 0: box = (SDL_FRect){l->x - 0.5f * room, l->y + l->below, room, h}; break;
    case 1: box = (SDL_FRect){l->x - 0.5f * room, l->y - l->below - h, room, h}; break;
    case 2: box = (SDL_FRect){l->x + l->below, l->y - 0.5f * h, room, h}; break;
    default: box = (SDL_FRect){l->x - l->below - room, l->y - 0.5f * h, room, h}; break;
    }
    /* whole pixels, so that boxes that only touch never share a pixel row or column when drawn */
    box.x = floorf(box.x);
    box.y = floorf(box.y);
    box.w = ceilf(box.w);
    box.h = ceilf(box.h);
    return box;
}

static bool free_place(const SteerRender *r, SDL_FRect box, int placed_until)
{
    if (box.x < 0.0f || box.y < 0.0f || box.x + box.w > (float)r->camera.width ||
        box.y + box.h > (float)r->camera.height)
        return false;
    for (int i = 0; i < r->panel_count; i++)
        if (overlaps(box, r->panels[i])) return false;
    for (int i = 0; i < placed_until; i++)
        if (r->labels[i].placed && overlaps(box, r->labels[i].box)) return false;
    return true;
}

/// Lays the collected labels out (see the file's comment). Placed labels move to the front of the
/// array in the order they were placed; returns how many were placed.
static int layout(SteerRender *r)
{
    /* the hovered vehicle's label, then the selected one's, moved to the front (stably): the selected
     * one ends first, the hovered one second */
    for (int rank = 1; rank <= 2; rank++)
        for (int i = 0; i < r->label_count; i++) {
            if (r->labels[i].rank != rank) continue;
            if (i == 0) break;
            RenderLabel keep = r->labels[i];
            memmove(r->labels + 1, r->labels, (size_t)i * sizeof *r->labels);
            r->labels[0] = keep;
            break;
        }
    int placed = 0;
    for (int i = 0; i < r->label_count; i++) {
        RenderLabel l = r->labels[i];
        l.placed = false;
        l.count = 1;
        float text_w = (float)render_text_width(r, l.text, (size_t)-1);
        if (l.x < -200.0f || l.y < -50.0f || l.x > (float)r->camera.width + 200.0f ||
            l.y > (float)r->camera.height + 50.0f)
            continue; /* far off screen */
        for (int k = 0; k < 4 && !l.placed; k++) {
            SDL_FRect box = place(r, &l, k, text_w);
            if (free_place(r, box, placed)) {
                l.box = box;
                l.side = k;
                l.placed = true;
            }
        }
        if (l.placed) {
            r->labels[placed++] = l;
            continue;
        }
        /* no room: counted into the nearest placed label that says the same */
        int best = -1;
        float best_d2 = LABEL_MERGE_DISTANCE * LABEL_MERGE_DISTANCE;
        for (int j = 0; j < placed; j++) {
            if (strcmp(r->labels[j].text, l.text) != 0) continue;
            float dx = r->labels[j].x - l.x, dy = r->labels[j].y - l.y, d2 = dx * dx + dy * dy;
            if (d2 <= best_d2) {
                best_d2 = d2;
                best = j;
            }
        }
        if (best >= 0) r->labels[best].count++;
    }
    return placed;
}

static void draw_labels_now(SteerRender *r)
{
    int placed = layout(r);
    r->label_count = placed;
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
    for (int i = 0; i < placed; i++) {
        RenderLabel *l = &r->labels[i];
        char text[sizeof l->text + 8];
        if (l->count > 1)
            snprintf(text, sizeof text, "%s x%d", l->text, l->count > 99 ? 99 : l->count);
        else
            snprintf(text, sizeof text, "%s", l->text);
        float w = (float)render_text_width(r, text, (size_t)-1) + 2 * LABEL_PAD_X;
        /* the drawn panel: the text's own width, centred under or over the vehicle, against its side */
        w = ceilf(w);
        float x = l->box.x;
        if (l->side <= 1) x = roundf(l->x - 0.5f * w);
        if (l->side == 3) x = l->box.x + l->box.w - w;
        if (x + w > l->box.x + l->box.w) x = l->box.x + l->box.w - w; /* (always inside its room) */
        if (x < l->box.x) x = l->box.x;
        l->drawn = (SDL_FRect){x, l->box.y, w, l->box.h};
        render_rect_fill(r, l->drawn.x, l->drawn.y, l->drawn.w, l->drawn.h, LABEL_BACKING);
        render_text_line(r, x + LABEL_PAD_X, l->box.y + LABEL_PAD_Y, text, (size_t)-1, RENDER_TEXT);
    }
    render_flush(r);
    r->labels_pending = false;
}

void render_labels_draw_now(SteerRender *r) { draw_labels_now(r); }

void steer_render_labels(SteerRender *r)
{
    if (!r || !r->labels_pending) return;
    draw_labels_now(r);
}

int steer_render_label_rects(const SteerRender *r, SDL_Rect *out, int max)
{
    int n = 0;
    for (int i = 0; i < r->label_count && n < max; i++, n++) {
        SDL_FRect b = r->labels[i].drawn;
        out[n] = (SDL_Rect){(int)floorf(b.x), (int)floorf(b.y), (int)ceilf(b.x + b.w) - (int)floorf(b.x),
                            (int)ceilf(b.y + b.h) - (int)floorf(b.y)};
    }
    return r->label_count;
}

void steer_render_text_panel_at(SteerRender *r, double x, double y, const char *text, SDL_Color color, bool centered)
{
    if (!text) return;
    double sx, sy;
    steer_camera_to_screen(&r->camera, x, y, &sx, &sy);
    int lines = 0, width = 0;
    for (const char *line = text;;) {
        int w = render_text_width(r, line, (size_t)-1);
        if (w > width) width = w;
        lines++;
        const char *nl = strchr(line, '\n');
        if (!nl) break;
        line = nl + 1;
    }
    float w = (float)width, h = (float)(lines * r->line_height);
    float left = roundf(centered ? (float)sx - 0.5f * w : (float)sx), top = roundf((float)sy);
    /* the backing fades with the text: a fading pop leaves no dark box behind */
    SDL_Color fill = RENDER_PANEL;
    fill.a = (Uint8)(fill.a * color.a / 255);
    float pad = lines > 1 ? 8.0f : 3.0f;
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
    if (lines > 1 && color.a == 255) {
        render_panel(r, left - pad, top - pad, w + 2 * pad, h + 2 * pad, fill, RENDER_PANEL_BORDER);
    } else {
        render_rect_fill(r, left - pad, top - 1.0f, w + 2 * pad, h + 2.0f, fill);
        render_note_panel(r, left - pad, top - 1.0f, w + 2 * pad, h + 2.0f);
    }
    steer_render_text(r, (int)left, (int)top, text, color);
}
