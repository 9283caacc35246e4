/* SPDX-License-Identifier: MIT */
/* render.c - a frame of the world: background, optional grid, then everything the core's debug
 * draw emits (bounds, paths, obstacles, walls, overlays, vehicles) turned from world units into
 * batched triangles, then the selection ring and state labels. */
#include <math.h>
#include <stdlib.h>

#include "render_internal.h"

/// Line widths in pixels: world outlines, overlays.
#define LINE_WIDTH 2.0f
#define OVERLAY_WIDTH 1.5f

SDL_Color steer_render_color_from_word(uint32_t rgba)
{
    SDL_Color c = {(Uint8)(rgba >> 24), (Uint8)(rgba >> 16), (Uint8)(rgba >> 8), (Uint8)rgba};
    return c;
}

SDL_Color steer_render_kind_color(uint32_t kind) { return steer_render_color_from_word(steer_debug_kind_color(kind)); }

uint32_t steer_render_name_color(const char *name)
{
    /* FNV-1a, then murmur3's finaliser: names that differ in one letter land far apart. */
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) h = (h ^ *p) * 16777619u;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    /* HSL with saturation 0.75 and lightness 0.62: bright enough for the dark background. The hues
     * are turned so that "hunter", the examples' favourite, comes out red. */
    double hue = (double)((h % 360u + 168u) % 360u) / 60.0, s = 0.75, l = 0.62;
    double c = (1.0 - fabs(2.0 * l - 1.0)) * s, x = c * (1.0 - fabs(fmod(hue, 2.0) - 1.0)), m = l - c / 2.0;
    double rgb[6][3] = {{c, x, 0}, {x, c, 0}, {0, c, x}, {0, x, c}, {x, 0, c}, {c, 0, x}};
    const double *t = rgb[(int)hue % 6];
    uint32_t r = (uint32_t)lround((t[0] + m) * 255.0), g = (uint32_t)lround((t[1] + m) * 255.0),
             b = (uint32_t)lround((t[2] + m) * 255.0);
    return r << 24 | g << 16 | b << 8 | 0xffu;
}

static uint32_t dd_kind_color(uint32_t kind, void *ctx)
{
    const SteerRender *r = ctx;
    if (kind < (uint32_t)r->kind_color_count) return r->kind_colors[kind];
    return steer_debug_kind_color(kind);
}

SteerRender *steer_render_create(SDL_Renderer *sdl, const char *font_path, int font_px)
{
    if (!sdl || !font_path || font_px <= 0) {
        SDL_SetError("steer_render_create: expected a renderer, a font path and a positive font size");
        return NULL;
    }
    if (TTF_Init() != 0) return NULL;
    SteerRender *r = calloc(1, sizeof *r);
    if (!r) {
        TTF_Quit();
        SDL_OutOfMemory();
        return NULL;
    }
    r->sdl = sdl;
    r->alpha = 1.0;
    render_circle_init(r);
    if (!render_text_init(r, font_path, font_px)) {
        steer_render_destroy(r); /* keeps SDL_GetError() from the failed call */
        return NULL;
    }
    return r;
}

void steer_render_destroy(SteerRender *r)
{
    if (!r) return;
    render_text_free(r);
    render_batch_free(&r->shapes);
    render_batch_free(&r->text);
    render_lines_free(&r->lines);
    render_snapshot_free(&r->snapshot);
    free(r->sweep);
    free(r->ids);
    free(r->memories);
    free(r->labels);
    render_shown_free(&r->shown);
    free(r);
    TTF_Quit();
}

/// steer_camera_to_screen's arithmetic, in line: the debug draw calls this for every point of every
/// shape (three per vehicle and more per overlay), where a call into camera.c cost more than the sums.
static inline SDL_FPoint to_screen(const SteerRender *r, SteerVec2 p)
{
    const SteerCamera *cam = &r->camera;
    double sx = (p.x - cam->center_x) * cam->zoom + 0.5 * cam->width;
    double sy = (p.y - cam->center_y) * cam->zoom + 0.5 * cam->height;
    return (SDL_FPoint){(float)sx, (float)sy};
}

/* ---- SteerDebugDraw callbacks: world units in, screen triangles out ---------------------- */

/// Outline width of each layer the core draws: the world's content (walls, paths, obstacle rims,
/// bounds) thicker than the overlays, which are 1-pixel strokes. The core says which layer each
/// shape belongs to; colours are only colours.
static float layer_width(SteerDebugLayer layer)
{
    switch (layer) {
    case STEER_DEBUG_LAYER_WALLS: return 3.0f;
    case STEER_DEBUG_LAYER_NAV_PATHS:
    case STEER_DEBUG_LAYER_PATHS:
    case STEER_DEBUG_LAYER_OBSTACLES:
    case STEER_DEBUG_LAYER_BOUNDS: return LINE_WIDTH;
    default: return OVERLAY_WIDTH;
    }
}

static void dd_segment(SteerVec2 a, SteerVec2 b, uint32_t color, SteerDebugLayer layer, void *ctx)
{
    SteerRender *r = ctx;
    SDL_FPoint p = to_screen(r, a), q = to_screen(r, b);
    render_stroke(r, p.x, p.y, q.x, q.y, layer_width(layer), steer_render_color_from_word(color));
}

static void dd_circle(SteerVec2 center, double radius, uint32_t color, SteerDebugLayer layer, void *ctx)
{
    SteerRender *r = ctx;
    SDL_FPoint c = to_screen(r, center);
    render_ring(r, c.x, c.y, (float)(radius * r->camera.zoom), layer_width(layer), steer_render_color_from_word(color));
}

static void dd_solid_circle(SteerVec2 center, double radius, uint32_t color, SteerDebugLayer layer, void *ctx)
{
    (void)layer;
    SteerRender *r = ctx;
    /* An obstacle's disc and rim are spans, batched by colour until drawn: drawing the ones before
     * first keeps an obstacle over the rim of one it overlaps. */
    render_flush_strokes(r);
    SDL_FPoint c = to_screen(r, center);
    render_disc(r, c.x, c.y, (float)(radius * r->camera.zoom), steer_render_color_from_word(color));
}

static void dd_polygon(const SteerVec2 *points, int count, uint32_t color, SteerDebugLayer layer, void *ctx)
{
    SteerRender *r = ctx;
    SDL_Color c = steer_render_color_from_word(color);
    float width = layer_width(layer);
    for (int i = 0; i < count; i++) {
        SDL_FPoint p = to_screen(r, points[i]), q = to_screen(r, points[(i + 1) % count]);
        render_stroke(r, p.x, p.y, q.x, q.y, width, c);
    }
}

/// Vehicles: a slim arrow with a darker rim and a lighter nose, at least VEHICLE_MIN_PX long on
/// screen whatever the zoom, so a zoomed-out crowd still shows which way each one faces.
#define VEHICLE_MIN_PX 14.0f
/// Half the arrow's width over its length (the core's dart is 0.36: slimmer reads better in a crowd).
#define VEHICLE_SLIM 0.27f
static void dd_solid_polygon(const SteerVec2 *points, int count, uint32_t color, SteerDebugLayer layer, void *ctx)
{
    SteerRender *r = ctx;
    enum { MAX_POINTS = 8 };
    if (count < 3) return; /* not a polygon: nothing to fill */
    if (count > MAX_POINTS) count = MAX_POINTS;
    SDL_FPoint screen[MAX_POINTS];
    for (int i = 0; i < count; i++) screen[i] = to_screen(r, points[i]);
    SDL_Color fill = steer_render_color_from_word(color);
    if (layer == STEER_DEBUG_LAYER_NAV_MAP) { /* runs of a map's blocked cells: filled, no rim */
        float x0 = screen[0].x, y0 = screen[0].y, x1 = x0, y1 = y0;
        for (int i = 1; i < count; i++) {
            x0 = fminf(x0, screen[i].x), x1 = fmaxf(x1, screen[i].x);
            y0 = fminf(y0, screen[i].y), y1 = fmaxf(y1, screen[i].y);
        }
        if (render_offscreen(r, x0, y0, x1, y1)) return;
        if (r->lines.layer_count > 0) render_flush_strokes(r);
        if (fill.a < 255) r->shapes_translucent = true;
        for (int i = 1; i + 1 < count; i++)
            render_triangle(r, screen[0].x, screen[0].y, screen[i].x, screen[i].y, screen[i + 1].x, screen[i + 1].y,
                            fill);
        return;
    }
    SDL_Color rim = {(Uint8)(fill.r / 3), (Uint8)(fill.g / 3), (Uint8)(fill.b / 3), fill.a};
    if (layer != STEER_DEBUG_LAYER_VEHICLES || count != 3) {
        render_outlined_convex(r, screen, count, fill, rim);
        return;
    }
    /* the core's dart: nose, then the two back corners */
    SDL_FPoint nose = screen[0], back = {0.5f * (screen[1].x + screen[2].x), 0.5f * (screen[1].y + screen[2].y)};
    float ax = nose.x - back.x, ay = nose.y - back.y, length = sqrtf(ax * ax + ay * ay);
    if (length <= 0.0f) return;
    float ux = ax / length, uy = ay / length;
    /* where the vehicle is: 0.6 of the way from the nose (1.5 radii ahead of it, one behind) */
    float cx = nose.x - 0.6f * ax, cy = nose.y - 0.6f * ay;
    float drawn = length < VEHICLE_MIN_PX ? VEHICLE_MIN_PX : length, half = VEHICLE_SLIM * drawn;
    SDL_FPoint arrow[3] = {
        {cx + 0.6f * drawn * ux, cy + 0.6f * drawn * uy},
        {cx - 0.4f * drawn * ux - half * uy, cy - 0.4f * drawn * uy + half * ux},
        {cx - 0.4f * drawn * ux + half * uy, cy - 0.4f * drawn * uy - half * ux},
    };
    float x0 = fminf(arrow[0].x, fminf(arrow[1].x, arrow[2].x)), x1 = fmaxf(arrow[0].x, fmaxf(arrow[1].x, arrow[2].x));
    float y0 = fminf(arrow[0].y, fminf(arrow[1].y, arrow[2].y)), y1 = fmaxf(arrow[0].y, fmaxf(arrow[1].y, arrow[2].y));
    if (render_offscreen(r, x0, y0, x1, y1)) return; /* nothing queued for what the view does not show */
    render_outlined_convex(r, arrow, 3, fill, rim);
    /* the nose, lighter: the front third, inside the rim */
    SDL_Color light = {(Uint8)(fill.r + (255 - fill.r) / 2), (Uint8)(fill.g + (255 - fill.g) / 2),
                       (Uint8)(fill.b + (255 - fill.b) / 2), fill.a};
    float t = 0.36f;
    SDL_FPoint tip[3] = {
        {arrow[0].x - 1.2f * ux, arrow[0].y - 1.2f * uy},
        {arrow[0].x + t * (arrow[1].x - arrow[0].x), arrow[0].y + t * (arrow[1].y - arrow[0].y)},
        {arrow[0].x + t * (arrow[2].x - arrow[0].x), arrow[0].y + t * (arrow[2].y - arrow[0].y)},
    };
    /* pulled in from the sides, so the rim stays whole round the nose */
    tip[1].x += 0.8f * uy, tip[1].y -= 0.8f * ux;
    tip[2].x -= 0.8f * uy, tip[2].y += 0.8f * ux;
    if (render_raster_fits(r, tip, 3, light, light)) {
        render_raster_convex(r, tip, 3, light);
    } else {
        if (r->lines.layer_count > 0) render_flush_strokes(r);
        if (light.a < 255) r->shapes_translucent = true;
        render_triangle(r, tip[0].x, tip[0].y, tip[1].x, tip[1].y, tip[2].x, tip[2].y, light);
    }
}

static void dd_point(SteerVec2 p, double size, uint32_t color, SteerDebugLayer layer, void *ctx)
{
    (void)layer;
    SteerRender *r = ctx;
    SDL_FPoint c = to_screen(r, p);
    render_dot(r, c.x, c.y, (float)(0.5 * size), steer_render_color_from_word(color));
}

static void dd_arc(SteerVec2 center, double radius, double from, double to, uint32_t color, SteerDebugLayer layer,
                   void *ctx)
{
    render_arc(ctx, center, radius, from, to, steer_render_color_from_word(color), layer_width(layer));
}

static bool dd_pose(SteerVehicleId id, SteerVec2 *position, SteerVec2 *heading, void *ctx)
{
    SteerRender *r = ctx;
    bool moved = render_snapshot_pose(&r->snapshot, r->world, id, r->alpha, position, heading);
    if (!r->smooth_headings) return moved;
    if (!moved) {
        *position = steer_vehicle_position(r->world, id);
        *heading = steer_vehicle_heading(r->world, id);
    }
    *heading = render_shown_heading(&r->shown, r->world, id, *heading);
    return true;
}

/// What the senses overlay asks of the core: cones and lines to memories, rays, heard sounds.
#define SENSE_FLAGS (STEER_DEBUG_DRAW_SENSES | STEER_DEBUG_DRAW_SENSE_RAYS | STEER_DEBUG_DRAW_SOUNDS)

/// The core's debug-draw flags for a frame's overlay bits.
static unsigned debug_flags(unsigned overlays)
{
    unsigned flags = STEER_DEBUG_DRAW_WORLD;
    if (overlays & STEER_OVERLAY_WANDER) flags |= STEER_DEBUG_DRAW_WANDER;
    if (overlays & STEER_OVERLAY_AVOIDANCE) flags |= STEER_DEBUG_DRAW_AVOIDANCE;
    if (overlays & STEER_OVERLAY_NEIGHBORS) flags |= STEER_DEBUG_DRAW_NEIGHBORS;
    if (overlays & STEER_OVERLAY_FORCES) flags |= STEER_DEBUG_DRAW_FORCES | STEER_DEBUG_DRAW_TARGETS;
    if (overlays & STEER_OVERLAY_PATHS) flags |= STEER_DEBUG_DRAW_FLOW_FIELDS;
    if (overlays & STEER_OVERLAY_SENSES) flags |= SENSE_FLAGS;
    if (overlays & STEER_OVERLAY_NAVIGATION) flags |= STEER_DEBUG_DRAW_NAVIGATION;
    return flags;
}

/// World-unit grid lines at a round spacing (1, 2 or 5 × 10^k) at least 32 pixels apart.
static void draw_grid(SteerRender *r)
{
    double spacing = 1.0;
    while (spacing * r->camera.zoom < 32.0) {
        double next = spacing * 2.0;
        if (next * r->camera.zoom >= 32.0) {
            spacing = next;
            break;
        }
        next = spacing * 5.0;
        if (next * r->camera.zoom >= 32.0) {
            spacing = next;
            break;
        }
        spacing *= 10.0;
    }
    double x0, y0, x1, y1;
    steer_camera_to_world(&r->camera, 0, 0, &x0, &y0);
    steer_camera_to_world(&r->camera, r->camera.width, r->camera.height, &x1, &y1);
    /* 1-pixel lines over whole pixels: the same pixels as 1-pixel-wide rectangles, in one layer */
    float bottom = (float)r->camera.height - 1.0f, right = (float)r->camera.width - 1.0f;
    for (double x = floor(x0 / spacing) * spacing; x <= x1; x += spacing) {
        float px = roundf(to_screen(r, steer_vec2(x, 0)).x);
        render_stroke(r, px, 0.0f, px, bottom, 1.0f, RENDER_GRID);
    }
    for (double y = floor(y0 / spacing) * spacing; y <= y1; y += spacing) {
        float py = roundf(to_screen(r, steer_vec2(0, y)).y);
        render_stroke(r, 0.0f, py, right, py, 1.0f, RENDER_GRID);
    }
}

/// Where a vehicle is drawn this frame (interpolated like the debug draw does).
static SteerVec2 drawn_position(SteerRender *r, SteerVehicleId id)
{
    SteerVec2 position, heading;
    if (render_snapshot_pose(&r->snapshot, r->world, id, r->alpha, &position, &heading)) return position;
    return steer_vehicle_position(r->world, id);
}

static void draw_selection(SteerRender *r, SteerVehicleId id)
{
    SteerVehicleState v;
    if (steer_vehicle_get(r->world, id, &v) != STEER_OK) return;
    SDL_FPoint c = to_screen(r, drawn_position(r, id));
    float radius = (float)(v.radius * 2.0 * r->camera.zoom);
    if (radius < 10.0f) radius = 10.0f;
    render_ring(r, c.x, c.y, radius, 2.0f, RENDER_SELECTED);
}

/// Collects each vehicle's state label where its vehicle is drawn (labels.c lays them out).
static void collect_labels(SteerRender *r, const SteerFrame *frame)
{
    int count = render_vehicle_ids(r, r->world);
    if (count > r->id_capacity) count = r->id_capacity;
    for (int i = 0; i < count; i++) {
        const char *label = frame->vehicle_label(frame->label_ctx, r->ids[i]);
        if (!label || !*label) continue;
        SteerVehicleState v;
        if (steer_vehicle_get(r->world, r->ids[i], &v) != STEER_OK) continue;
        SDL_FPoint c = to_screen(r, drawn_position(r, r->ids[i]));
        float below = fmaxf((float)(v.radius * 1.6 * r->camera.zoom), 8.0f) + 3.0f;
        int rank = steer_vehicle_id_equal(r->ids[i], frame->selected)  ? 2
                   : steer_vehicle_id_equal(r->ids[i], frame->hovered) ? 1
                                                                       : 0;
        render_label_add(r, r->ids[i], c.x, c.y, below, label, rank);
    }
}

/// Fills the output with the background. The software renderer clears with non-temporal stores,
/// which leave none of the frame in cache: every pixel a blended stroke then reads came from main
/// memory (at 1,000 vehicles with every overlay, over a millisecond of waiting). One unblended
/// polyline running along every row in turn (left to right, down a pixel, right to left, ...)
/// fills the same pixels with ordinary stores, in about half a clear's time, and the frame stays
/// in the caches for what follows. Other renderers clear as usual.
static void clear(SteerRender *r)
{
    SDL_RendererInfo info;
    bool software = SDL_GetRendererInfo(r->sdl, &info) == 0 && (info.flags & SDL_RENDERER_SOFTWARE);
    int columns = 0, rows = 0;
    if (SDL_GetRendererOutputSize(r->sdl, &columns, &rows) != 0 || columns <= 0) rows = 0;
    int points = 2 * rows;
    SDL_SetRenderDrawColor(r->sdl, RENDER_BACKGROUND.r, RENDER_BACKGROUND.g, RENDER_BACKGROUND.b, 255);
    if (software && rows > 0 && points > r->sweep_capacity) {
        SDL_FPoint *grown = realloc(r->sweep, (size_t)points * sizeof *grown);
        if (grown) {
            r->sweep = grown;
            r->sweep_capacity = points;
        }
    }
    if (!software || rows <= 0 || points > r->sweep_capacity) {
        SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
        SDL_RenderClear(r->sdl);
        return;
    }
    float right = (float)columns - 1.0f;
    for (int y = 0; y < rows; y++) {
        float from = (y % 2) ? right : 0.0f, to = (y % 2) ? 0.0f : right;
        r->sweep[2 * y] = (SDL_FPoint){from, (float)y};
        r->sweep[2 * y + 1] = (SDL_FPoint){to, (float)y};
    }
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_NONE);
    SDL_RenderDrawLinesF(r->sdl, r->sweep, points);
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
}

void steer_render_world(SteerRender *r, const SteerWorld *world, const SteerFrame *frame)
{
    r->camera = frame->camera;
    r->world = world;
    /* What is culled lies outside both the output and the camera's frame (they are the same size
     * unless the caller draws at another scale: culling then errs on the side of drawing). */
    int out_w = 0, out_h = 0;
    if (SDL_GetRendererOutputSize(r->sdl, &out_w, &out_h) != 0) out_w = out_h = 0;
    r->view_w = (float)(out_w > frame->camera.width ? out_w : frame->camera.width);
    r->view_h = (float)(out_h > frame->camera.height ? out_h : frame->camera.height);
    if (out_w <= 0 || out_h <= 0) r->view_w = r->view_h = 0.0f; /* unknown output: no culling */
    r->alpha = frame->alpha;
    r->smooth_headings = frame->smooth_headings;
    if (r->smooth_headings) render_shown_begin(&r->shown, steer_world_time(world));
    r->inspector_w = 0.0f; /* a new frame: no inspector yet */
    r->panel_count = 0;    /* nor panels for labels to keep out of */
    render_labels_begin(r);

    clear(r);
    render_raster_begin(r);
    if (frame->overlays & STEER_OVERLAY_GRID) draw_grid(r);

    SteerDebugDraw draw = steer_default_debug_draw();
    draw.draw_segment = dd_segment;
    draw.draw_circle = dd_circle;
    draw.draw_solid_circle = dd_solid_circle;
    draw.draw_polygon = dd_polygon;
    draw.draw_solid_polygon = dd_solid_polygon;
    draw.draw_point = dd_point;
    draw.vehicle_pose = dd_pose;
    r->kind_colors = frame->kind_colors;
    r->kind_color_count = frame->kind_colors ? frame->kind_color_count : 0;
    draw.kind_color = dd_kind_color;
    draw.draw_arc = dd_arc;
    draw.flags = debug_flags(frame->overlays);
    draw.context = r;
    /* The selected vehicle's senses show with the senses overlay off too (the inspector lists them):
     * drawn with the other overlays, under the vehicles (the world without them, its senses, then
     * the vehicles alone). */
    bool selected_senses = !(frame->overlays & STEER_OVERLAY_SENSES) &&
                           steer_vehicle_is_valid(world, frame->selected) &&
                           steer_vehicle_sense_count(world, frame->selected) > 0;
    /* The selected navigating vehicle's path and replans show with the overlay off too; with it on,
     * the map drawn is the one it plans on (its clearance) rather than every map. */
    SteerNavState nav_state = STEER_NAV_NONE;
    if (steer_vehicle_is_valid(world, frame->selected))
        steer_vehicle_nav_path(world, frame->selected, NULL, 0, &nav_state, NULL, NULL);
    bool selected_nav = nav_state != STEER_NAV_NONE;
    if (selected_senses || selected_nav) {
        unsigned flags = draw.flags;
        draw.flags = flags & ~(unsigned)STEER_DEBUG_DRAW_VEHICLES;
        if (selected_nav) draw.flags &= ~(unsigned)STEER_DEBUG_DRAW_NAVIGATION;
        steer_world_debug_draw(world, &draw);
        if (selected_senses) {
            draw.flags = flags | SENSE_FLAGS;
            steer_vehicle_debug_draw_senses(world, frame->selected, &draw);
        }
        if (selected_nav) {
            draw.flags = flags;
            steer_vehicle_debug_draw_navigation(world, frame->selected, &draw);
        }
        draw.flags = flags & (unsigned)STEER_DEBUG_DRAW_VEHICLES;
    }
    steer_world_debug_draw(world, &draw);
    /* ghosts of what senses remember, over the vehicles: an outline never hides one */
    if (frame->overlays & STEER_OVERLAY_SENSES)
        render_all_sense_ghosts(r);
    else if (selected_senses)
        render_sense_ghosts(r, frame->selected);

    if (steer_vehicle_is_valid(world, frame->selected)) {
        /* its orca velocity constraints, when the world keeps them (steer_world_watch_orca) */
        steer_vehicle_debug_draw_orca(world, frame->selected, &draw);
        draw_selection(r, frame->selected);
    }
    render_flush(r);
    if ((frame->overlays & STEER_OVERLAY_STATES) && frame->vehicle_label) {
        collect_labels(r, frame);
        if (!frame->defer_labels) render_labels_draw_now(r);
    }
    r->raster.pixels = NULL; /* the surface may be gone or resized by the next frame */
}

/* ---- World-space primitives for scripts, in the last frame's camera ---------------------- */

void steer_render_line(SteerRender *r, double x1, double y1, double x2, double y2, SDL_Color color)
{
    SDL_FPoint p = to_screen(r, steer_vec2(x1, y1)), q = to_screen(r, steer_vec2(x2, y2));
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
    render_stroke(r, p.x, p.y, q.x, q.y, OVERLAY_WIDTH, color);
    render_flush(r);
}

void steer_render_circle(SteerRender *r, double x, double y, double radius, SDL_Color color, bool fill)
{
    SDL_FPoint c = to_screen(r, steer_vec2(x, y));
    float pixels = (float)(radius * r->camera.zoom);
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
    if (fill)
        render_disc(r, c.x, c.y, pixels, color);
    else
        render_ring(r, c.x, c.y, pixels, OVERLAY_WIDTH, color);
    render_flush(r);
}

void steer_render_text_at(SteerRender *r, double x, double y, const char *text, SDL_Color color)
{
    steer_render_text_panel_at(r, x, y, text, color, false); /* every text on a backing panel */
}
