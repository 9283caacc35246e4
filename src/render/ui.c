/* SPDX-License-Identifier: MIT */
/* ui.c - the screen-space pieces the runtime composes over the world: HUD (top left), inspector
 * (top right), error panel (bottom), help (centre). Each is a translucent panel with text, sized
 * to its text, and formats into fixed buffers: nothing is allocated per frame. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render_internal.h"

#define PAD 8.0f
#define MARGIN 10.0f

void render_panel(SteerRender *r, float x, float y, float w, float h, SDL_Color fill, SDL_Color border)
{
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
    render_rect_fill(r, x, y, w, h, fill);
    render_rect_outline(r, x, y, w, h, 1.0f, border);
    render_note_panel(r, x, y, w, h);
}

/// Widest of `count` lines, in pixels.
static int widest(const SteerRender *r, const char *const *lines, int count)
{
    int width = 0;
    for (int i = 0; i < count; i++) {
        int w = lines[i] ? render_text_width(r, lines[i], (size_t)-1) : 0;
        if (w > width) width = w;
    }
    return width;
}

/// A panel holding `count` lines at (x, y); first_color for line 0, color for the rest.
static void text_box(SteerRender *r, float x, float y, const char *const *lines, int count, SDL_Color first_color,
                     SDL_Color color)
{
    float lh = (float)r->line_height;
    float w = (float)widest(r, lines, count) + 2 * PAD, h = lh * (float)count + 2 * PAD;
    render_panel(r, x, y, w, h, RENDER_PANEL, RENDER_PANEL_BORDER);
    for (int i = 0; i < count; i++)
        if (lines[i])
            render_text_line(r, x + PAD, y + PAD + lh * (float)i, lines[i], (size_t)-1, i == 0 ? first_color : color);
    render_flush(r);
}

void steer_render_hud(SteerRender *r, const char *const *lines, int count)
{
    if (count <= 0 || !lines) return;
    text_box(r, MARGIN, MARGIN, lines, count, RENDER_TEXT, RENDER_TEXT);
}

int steer_render_hud_bottom(const SteerRender *r, int lines)
{
    return (int)ceilf(MARGIN + (float)r->line_height * (float)lines + 2 * PAD);
}

enum { INSPECTOR_LINES = 64, INSPECTOR_WIDTH = 96 };
/// One active behaviour's line, the inspector's widest as a rule (its name padded to the longest).
#define BEHAVIOUR_LINE "%-16s w %4.2f  |F| %6.1f  kept %3.0f%%"

int steer_render_inspector_column(const SteerRender *r)
{
    char sample[INSPECTOR_WIDTH];
    snprintf(sample, sizeof sample, BEHAVIOUR_LINE, "avoid_collisions", 1.0, 1000.0, 100.0);
    float w = fmaxf((float)render_text_width(r, sample, (size_t)-1) + 2 * PAD, RENDER_PLOTS_MIN_WIDTH);
    return (int)ceilf(w + 2 * MARGIN); /* its margin to the window's edge, and as much beside the world */
}

bool render_orca_line(const SteerWorld *world, SteerVehicleId id, char *line, int width)
{
    SteerOrcaConstraint c;
    if (width <= 0 || steer_vehicle_orca_constraint(world, id, &c) != STEER_OK) return false;
    size_t size = (size_t)width;
    switch (c.bound) {
    case STEER_ORCA_SPEED: snprintf(line, size, "  orca: free (max speed)"); break;
    case STEER_ORCA_VEHICLE:
        if (steer_vehicle_is_valid(world, c.vehicle))
            snprintf(line, size, "  orca: giving way to #%llu",
                     (unsigned long long)steer_vehicle_serial(world, c.vehicle));
        else
            snprintf(line, size, "  orca: giving way to a vehicle");
        break;
    case STEER_ORCA_OBSTACLE: snprintf(line, size, "  orca: obstacle"); break;
    case STEER_ORCA_WALL: snprintf(line, size, "  orca: wall"); break;
    case STEER_ORCA_CROWDED: snprintf(line, size, "  orca: crowded (least in the way)"); break;
    default: snprintf(line, size, "  orca: free"); break;
    }
    return true;
}

void steer_render_inspector(SteerRender *r, const SteerWorld *world, SteerVehicleId id, const char *kind_name,
                            const char *const *extra_lines, int count)
{
    SteerVehicleState v;
    if (steer_vehicle_get(world, id, &v) != STEER_OK) return;
    static const char *const combine_names[] = {"weighted sum", "priority", "dither"};
    char text[INSPECTOR_LINES][INSPECTOR_WIDTH];
    const char *lines[INSPECTOR_LINES];
    int n = 0;
#define LINE(...) (n < INSPECTOR_LINES ? (snprintf(text[n], INSPECTOR_WIDTH, __VA_ARGS__), lines[n] = text[n], n++) : 0)
    LINE("vehicle #%llu  (slot %u)", (unsigned long long)v.serial, (unsigned)id.index1);
    if (kind_name)
        LINE("kind %.40s (%u)  mass %.3g  radius %.3g", kind_name, (unsigned)v.kind, v.mass, v.radius);
    else
        LINE("kind %u  mass %.3g  radius %.3g", (unsigned)v.kind, v.mass, v.radius);
    LINE("speed %6.1f / %.0f", v.speed, v.max_speed);
    LINE("force %6.1f / %.0f", steer_length(v.force), v.max_force);
    LINE("pos (%.1f, %.1f)", v.position.x, v.position.y);
    LINE("combine: %s", combine_names[v.combine <= STEER_COMBINE_DITHER ? v.combine : 0]);
    SteerBehaviour types[STEER_BEHAVIOUR_COUNT];
    int active = steer_vehicle_get_behaviours(world, id, types, STEER_BEHAVIOUR_COUNT);
    if (active == 0) LINE("no behaviours");
    for (int i = 0; i < active && i < STEER_BEHAVIOUR_COUNT; i++) {
        SteerBehaviourDef def;
        SteerBehaviourState st;
        if (steer_vehicle_get_behaviour(world, id, types[i], &def, &st) != STEER_OK) continue;
        if (!st.evaluated)
            LINE("%-16s w %4.2f  (not reached)", steer_behaviour_name(types[i]), def.weight);
        else
            LINE(BEHAVIOUR_LINE, steer_behaviour_name(types[i]), def.weight, steer_length(st.force), 100.0 * st.kept);
        if (types[i] == STEER_ORCA && n < INSPECTOR_LINES && render_orca_line(world, id, text[n], INSPECTOR_WIDTH)) {
            lines[n] = text[n];
            n++;
        }
    }
    SteerNavState nav;
    int waypoint, replans;
    int path_points = steer_vehicle_nav_path(world, id, NULL, 0, &nav, &waypoint, &replans);
    if (nav != STEER_NAV_NONE)
        LINE("navigate: %s, point %d of %d, %d plans", steer_nav_state_name(nav), path_points ? waypoint + 1 : 0,
             path_points, replans);
    /* its senses and what they remember (nothing for a vehicle without senses), then the caller's */
    if (n < INSPECTOR_LINES) {
        int senses = render_sense_lines(r, world, id, text[n], INSPECTOR_WIDTH, INSPECTOR_LINES - n);
        for (int i = 0; i < senses; i++, n++) lines[n] = text[n];
    }
    for (int i = 0; i < count && extra_lines; i++)
        if (extra_lines[i]) LINE("%s", extra_lines[i]);
#undef LINE
    float w = (float)widest(r, lines, n) + 2 * PAD;
    int out_w = 0, out_h = 0;
    SDL_GetRendererOutputSize(r->sdl, &out_w, &out_h);
    text_box(r, (float)out_w - w - MARGIN, MARGIN, lines, n, RENDER_SELECTED, RENDER_TEXT);
    r->inspector_x = (float)out_w - w - MARGIN;
    r->inspector_y = MARGIN;
    r->inspector_w = w;
    r->inspector_h = (float)r->line_height * (float)n + 2 * PAD;
}

enum { ERROR_LINES = 24, ERROR_COLUMNS = 160 };

void steer_render_error_panel(SteerRender *r, const char *message) { steer_render_error_panel_above(r, message, 0); }

void steer_render_error_panel_above(SteerRender *r, const char *message, int bottom)
{
    if (!message) return;
    int out_w = 0, out_h = 0;
    SDL_GetRendererOutputSize(r->sdl, &out_w, &out_h);
    if (bottom > 0 && bottom < out_h / 2) out_h -= bottom; /* (never leaving the panel no room) */
    float lh = (float)r->line_height;
    float inner = (float)out_w - 2 * PAD;
    /* How many lines fit in at most 40% of the screen. */
    int max_lines = (int)((0.4f * (float)out_h - 2 * PAD) / lh);
    if (max_lines < 2) max_lines = 2;
    if (max_lines > ERROR_LINES) max_lines = ERROR_LINES;

    /* Wrap each line of the message at the panel's width, by bytes (tracebacks are ASCII). */
    const char *starts[ERROR_LINES];
    size_t lengths[ERROR_LINES];
    int n = 0;
    const char *p = message;
    while (*p && n < max_lines) {
        size_t len = 0;
        int width = 0;
        while (p[len] && p[len] != '\n' && len < ERROR_COLUMNS) {
            width += render_text_width(r, p + len, 1);
            if (width > (int)inner) break;
            len++;
        }
        if (len == 0 && p[0] != '\n') len = 1; /* never stall on a glyph wider than the panel */
        starts[n] = p;
        lengths[n] = len;
        n++;
        p += len;
        if (*p == '\n') p++;
    }
    float h = lh * (float)n + 2 * PAD;
    float y = (float)out_h - h;
    render_panel(r, 0, y, (float)out_w, h, RENDER_ERROR_PANEL, RENDER_ERROR_BORDER);
    for (int i = 0; i < n; i++) render_text_line(r, PAD, y + PAD + lh * (float)i, starts[i], lengths[i], RENDER_TEXT);
    render_flush(r);
}

void steer_render_help(SteerRender *r, const char *const *lines, int count)
{
    if (count <= 0 || !lines) return;
    int out_w = 0, out_h = 0;
    SDL_GetRendererOutputSize(r->sdl, &out_w, &out_h);
    float w = (float)widest(r, lines, count) + 2 * PAD, h = (float)r->line_height * (float)count + 2 * PAD;
    text_box(r, 0.5f * ((float)out_w - w), 0.5f * ((float)out_h - h), lines, count, RENDER_SELECTED, RENDER_TEXT);
}
