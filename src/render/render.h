/* SPDX-License-Identifier: MIT */
/* render.h - SDL2 drawing of a steer world: vehicles, obstacles, walls, paths, bounds, the debug
 * overlays, and the screen-space pieces the runtime composes (HUD, inspector, error panel, help).
 * Render reads the world and never changes it. It knows nothing of Lua.
 */
#ifndef STEER_RENDER_H
#define STEER_RENDER_H

#include <stdbool.h>
#include <stdint.h>

#include <SDL.h>

#include "steer/steer.h"

typedef struct SteerRender SteerRender;

/// What part of the world the window shows: the world point at the window's centre and the zoom
/// (pixels per unit). width/height are the output size in pixels.
typedef struct SteerCamera {
    double center_x, center_y;
    double zoom;
    int width, height;
} SteerCamera;

/// A camera that fits a width x height world into a window of win_w x win_h pixels, centred.
SteerCamera steer_camera_fit(double world_w, double world_h, int win_w, int win_h);
/// The same, fitting the world into the window's band between `top` pixels from its top and `bottom`
/// from its bottom (kept for panels drawn there), centred in it. A band under half the window's
/// height is not kept: the whole window is used.
SteerCamera steer_camera_fit_band(double world_w, double world_h, int win_w, int win_h, int top, int bottom);
/// The same, also leaving `right` pixels at the window's right (the inspector's column). A right
/// margin that would leave the world under 40% of the window's width is not kept.
SteerCamera steer_camera_fit_box(double world_w, double world_h, int win_w, int win_h, int top, int right, int bottom);
void steer_camera_to_world(const SteerCamera *cam, double sx, double sy, double *wx, double *wy);
void steer_camera_to_screen(const SteerCamera *cam, double wx, double wy, double *sx, double *sy);
/// Zooms by `factor` keeping the world point under screen point (sx, sy) where it is.
void steer_camera_zoom_at(SteerCamera *cam, double sx, double sy, double factor);

/// Debug overlays. The program toggles each with a key and names it on its command line: both in
/// its key table (src/runtime/keys.c).
typedef enum SteerOverlay {
    STEER_OVERLAY_WANDER = 1u << 0,    ///< wander circles and targets
    STEER_OVERLAY_AVOIDANCE = 1u << 1, ///< obstacle detection boxes and wall feelers
    STEER_OVERLAY_NEIGHBORS = 1u << 2, ///< neighbour radius (and view cone) of each vehicle
    STEER_OVERLAY_FORCES = 1u << 3,    ///< velocity and steering force vectors
    STEER_OVERLAY_STATES = 1u << 4,    ///< each vehicle's state name (from vehicle_label)
    STEER_OVERLAY_PATHS = 1u << 5,     ///< flow fields (paths and their waypoints are always drawn)
    STEER_OVERLAY_GRID = 1u << 6,      ///< a background grid in world units
    /// every vehicle's senses: sight cones, rays to what is in them (clear or blocked), heard sounds,
    /// lines to memories and a ghost where each remembered vehicle was last sensed
    STEER_OVERLAY_SENSES = 1u << 7,
    /// navigation: the blocked cells of the selected navigating vehicle's map (with no such
    /// selection, every map's), and every navigating vehicle's path and the paths replans replaced
    STEER_OVERLAY_NAVIGATION = 1u << 8,
} SteerOverlay;

/// One frame's view of the world.
typedef struct SteerFrame {
    SteerCamera camera;
    double alpha;      ///< 0..1: interpolate between the captured state (0) and the current one (1)
    unsigned overlays; ///< SteerOverlay bits
    /// highlighted vehicle (its senses and planned path are drawn, overlay or not); the null id for none
    SteerVehicleId selected;
    /// the vehicle under the pointer (the null id for none): its state label is laid out right after
    /// the selected one's, so it shows in a crowd
    SteerVehicleId hovered;
    /// Text drawn under a vehicle with STEER_OVERLAY_STATES (its state name); may be NULL, may return NULL.
    const char *(*vehicle_label)(void *ctx, SteerVehicleId id);
    void *label_ctx;
    /// Colour words (0xRRGGBBAA) of vehicles whose own colour word is 0, by kind number: a kind
    /// below kind_color_count gets kind_colors[kind] (the runtime passes steer_render_name_color of
    /// each kind's name); others, or all when NULL, the core's palette by kind number.
    const uint32_t *kind_colors;
    int kind_color_count;
    /// false: the state labels are drawn with the world. true: they wait for steer_render_labels,
    /// which the caller calls after drawing its panels, so that labels keep out of them.
    bool defer_labels;
    /// Draw each vehicle's heading eased over about 0.08 s and held while it moves slower than 4
    /// units/s, so a crowd nearly at rest does not flicker every which way (a display setting: the
    /// simulation's headings are untouched).
    bool smooth_headings;
} SteerFrame;

/// Loads the font (a TTF path; font_px its pixel size). NULL on failure, with SDL_GetError() set.
SteerRender *steer_render_create(SDL_Renderer *sdl, const char *font_path, int font_px);
void steer_render_destroy(SteerRender *render);

/// The surface `render`'s software renderer draws into, for a renderer made with
/// SDL_CreateSoftwareRenderer(surface); NULL forgets it. Opaque vehicles are then filled straight
/// into its rows, with the pixels SDL would draw, instead of as triangles through SDL (several times
/// faster with thousands of vehicles). A software renderer on a window uses the window's surface
/// without being told; other renderers ignore this.
void steer_render_set_surface(SteerRender *render, SDL_Surface *surface);
/// Defined where steer_render_set_surface exists, for code also built against older renderers.
#define STEER_RENDER_SET_SURFACE 1

/// Remembers every vehicle's position and heading: call it just before each physics step, so that
/// frames drawn after the step can interpolate (SteerFrame.alpha). Allocates only when the world grew.
void steer_render_capture(SteerRender *render, const SteerWorld *world);
/// Clears the output and draws the world, its shapes and the overlays. Remembers the camera for the
/// world-space primitives below.
void steer_render_world(SteerRender *render, const SteerWorld *world, const SteerFrame *frame);

/// Colour of vehicles of `kind` whose color word is 0 (a fixed, readable palette).
SDL_Color steer_render_kind_color(uint32_t kind);
/// The colour word (0xRRGGBBAA) of a kind by its name: a bright hue picked by a hash of the name,
/// so a kind looks the same in every scene whatever order kinds were first spawned in.
uint32_t steer_render_name_color(const char *name);
/// A core colour word 0xRRGGBBAA as an SDL colour.
SDL_Color steer_render_color_from_word(uint32_t rgba);

/* World-space primitives (scripts' gfx.line/circle/text), in the last frame's camera. */
void steer_render_line(SteerRender *render, double x1, double y1, double x2, double y2, SDL_Color color);
void steer_render_circle(SteerRender *render, double x, double y, double radius, SDL_Color color, bool fill);
void steer_render_text_at(SteerRender *render, double x, double y, const char *text, SDL_Color color);

/// Draws the state labels of the last steer_render_world whose frame had defer_labels, laid out
/// around the panels drawn since (HUD, inspector, error panel, help, script text): no two overlap and
/// none enters a panel; one with no free place is counted into a near label of the same text
/// (`evade x5`) or left out. The selected vehicle's label is placed first, the hovered one's next.
/// Does nothing otherwise.
void steer_render_labels(SteerRender *render);
/// The screen rectangles of the labels drawn last (up to `max` into `out`); returns how many were drawn.
int steer_render_label_rects(const SteerRender *render, SDL_Rect *out, int max);
/// Text at a world point on a translucent backing panel (a bordered panel for several lines); with
/// `centered` the block is centred on x (its lines left-aligned in it). Labels keep out of it.
void steer_render_text_panel_at(SteerRender *render, double x, double y, const char *text, SDL_Color color,
                                bool centered);

/* Screen-space pieces. Text may hold '\n'. */
void steer_render_text(SteerRender *render, int x, int y, const char *text, SDL_Color color);
int steer_render_line_height(const SteerRender *render);
/// Lines of text on a translucent box at the top left (fps, time, counts, script HUD lines).
void steer_render_hud(SteerRender *render, const char *const *lines, int count);
/// Pixels from the window's top to the bottom of a HUD of `lines` lines.
int steer_render_hud_bottom(const SteerRender *render, int lines);
/// The inspector box for a vehicle at the top right: id, kind (`kind_name` beside its number when
/// not NULL), speed, each active behaviour with its weight and force and whether the combination
/// kept it, its senses (type, name, range, fov) with what each remembers (the other's id, sensed
/// now with its distance or how long ago, where it was), then the caller's extra lines (state,
/// history).
void steer_render_inspector(SteerRender *render, const SteerWorld *world, SteerVehicleId id, const char *kind_name,
                            const char *const *extra_lines, int count);
/// Pixels from the window's right edge to the left of the inspector's column as it usually is (as
/// wide as a behaviour's line, or the plots under it): the program fits the world beside it while a
/// vehicle is selected.
int steer_render_inspector_column(const SteerRender *render);
/// Time series under the inspector, read from rings the caller owns (the runtime's history of the
/// selected vehicle): each series is one small line plot, then the states as a coloured strip, all
/// on one time axis from `now - window` (left) to `now` (right).
enum { STEER_PLOT_MAX_SERIES = 24, STEER_PLOT_NO_STATE = 0xFF };
typedef struct SteerPlotSeries {
    const char *label;   ///< "speed", "force", "seek", ...
    const float *values; ///< a ring of `capacity` (SteerInspectorPlots); NaN = no value (a gap)
    float top;           ///< the value at the plot's top edge (> 0); values above it are clipped
    float limit;         ///< a dashed line at this value (max_speed, max_force); <= 0: none
    SDL_Color color;
} SteerPlotSeries;
typedef struct SteerInspectorPlots {
    const double *times; ///< a ring of `capacity`: each sample's simulated time, s
    int capacity;        ///< ring size
    int first, count;    ///< the samples to draw: `count` of them from index `first`, oldest first
    double now, window;  ///< the right edge's time and the span shown, s
    SteerPlotSeries series[STEER_PLOT_MAX_SERIES];
    int series_count;
    const uint8_t *states;          ///< a ring: index into state_names, or STEER_PLOT_NO_STATE; may be NULL
    const char *const *state_names; ///< the states' names
    const SDL_Color *state_colors;  ///< the colour of each name's stretches
    int state_name_count;
} SteerInspectorPlots;
/// Draws the plots in a panel under the last inspector drawn this frame (right-aligned with it, at
/// least as wide), each series as "label value" and a line; the state strip names each state in its
/// stretch where the name fits. Reads `plots` only. Does nothing when no inspector was drawn.
void steer_render_inspector_plots(SteerRender *render, const SteerInspectorPlots *plots);

/// The rewind timeline along the bottom of the view: the recorded span of steps, the step shown,
/// and markers at steps where something happened. Plain numbers: the runtime owns the recording.
typedef enum SteerTimelineMark {
    STEER_MARK_RELOAD,
    STEER_MARK_ERROR,
    STEER_MARK_BRANCH,
    STEER_MARK_RESTART
} SteerTimelineMark;
typedef struct SteerTimeline {
    long long last;              ///< the last step recorded (the span is 0..last)
    long long current;           ///< the step shown
    const long long *mark_steps; ///< `mark_count` steps in order, each with its kind in mark_kinds
    const unsigned char *mark_kinds;
    int mark_count;
    const char *label; ///< text over the bar's left end ("step 120 of 3600 (2.0 s)"), or NULL
    /// The bar spans 0..span (0: 0..last): a future a branch dropped may reach past the last step.
    long long span;
    /// A future a branch dropped, kept aside: drawn faintly from its branch step to its last step
    /// (future_last 0: none).
    long long future_branch, future_last;
} SteerTimeline;
/// Where the timeline's bar lies in a view of `width` x `height` pixels (for drawing and for
/// hit-testing a click or a drag).
void steer_render_timeline_bar(int width, int height, int *x, int *y, int *w, int *h);
/// The pixel column of step `step` on the bar, for a timeline spanning 0..last (where its mark is).
int steer_render_timeline_column(int width, int height, long long last, long long step);
/// The step under pixel column `x` of the bar, for a timeline spanning 0..last (its span).
long long steer_render_timeline_step(int width, int height, long long last, int x);
/// Draws the timeline: the bar, the recorded part, markers (reload blue, error red, branch
/// yellow, restart green), a dropped future kept aside (faint yellow), the current step as a white
/// handle, and the label. Marks that fall on the same pixels (the same step, or steps closer than
/// the bar shows apart) stack: the first is a tick through the bar, each next one a block above the
/// one before (up to STEER_TIMELINE_MAX_STACK), so none hides another.
void steer_render_timeline(SteerRender *render, const SteerTimeline *timeline);
/// Pixels from the top of a view of `width` x `height` to the top of all the timeline draws (its
/// label over the highest stack of marks included): a panel that ends above it hides none of it.
int steer_render_timeline_top(const SteerRender *render, int width, int height);
/// How many marks stack at one place (more are drawn on the top one).
#define STEER_TIMELINE_MAX_STACK 4
/// Where the `level`-th mark stacked at a place is drawn (level 0: the tick through the bar), as a
/// rectangle, in a view of `width` x `height` pixels, for a mark of kind `kind` at column `x`.
void steer_render_timeline_mark_rect(int width, int height, int x, int level, int kind, int *rx, int *ry, int *rw,
                                     int *rh);

/// A red panel along the bottom showing an error (file:line: message and traceback).
void steer_render_error_panel(SteerRender *render, const char *message);
/// The same panel with its bottom edge `bottom` pixels above the view's, leaving what is drawn
/// there (the rewind timeline) in sight.
void steer_render_error_panel_above(SteerRender *render, const char *message, int bottom);
/// A centred box listing key bindings, one "key  what it does" per line.
void steer_render_help(SteerRender *render, const char *const *lines, int count);

/// Saves what the renderer drew as a PNG (SDL_RenderReadPixels + IMG_SavePNG); 0 on success.
int steer_render_save_png(SDL_Renderer *sdl, const char *path);

#endif
