/* SPDX-License-Identifier: MIT */
/* render_internal.h - the renderer's private layout, shared by the src/render sources and white-box tests.
 *
 * Everything is drawn through two batches of triangles: one untextured (shapes) and one textured
 * with the glyph atlas (text). Each public drawing call appends to them and flushes (shapes first,
 * then text) before it returns, so the caller never sees a half-drawn frame and a frame costs a
 * handful of SDL_RenderGeometry calls whatever it holds. Buffers grow, never shrink: a warm frame
 * allocates nothing.
 */
#ifndef STEER_RENDER_INTERNAL_H
#define STEER_RENDER_INTERNAL_H

#include <SDL_ttf.h>

#include "render.h"

/// A growable array of triangle vertices for one SDL_RenderGeometry call.
typedef struct RenderBatch {
    SDL_Vertex *vertices;
    int count, capacity;
} RenderBatch;

/// Thin strokes, kept by colour: each layer holds the polylines of one colour, drawn with one
/// SDL_RenderDrawLinesF call per polyline, and the 1-pixel-high spans of small dots, drawn with one
/// SDL_RenderFillRectsF call. On the software renderer a 1-pixel line costs a few pixels, while a
/// thin quad costs a blend over its whole bounding box, so overlays (thousands of strokes) go here.
/// Between two batches of shapes the strokes are drawn band by band down the screen and, in each
/// band, layer by layer in the order each colour first came (see draw_layers_by_band): a frame costs
/// a call per polyline and a colour change per band and layer instead of one per colour change.
typedef struct RenderLineRun {
    int first, count; ///< points[first .. first + count)
} RenderLineRun;

typedef struct RenderLayer {
    SDL_Color color;
    SDL_FPoint *points;
    int point_count, point_capacity;
    RenderLineRun *runs;
    int run_count, run_capacity;
    SDL_FRect *spans; ///< whole pixels: what SDL draws for a horizontal line from x to x + w - 1
    int span_count, span_capacity;
} RenderLayer;

/// More colours than this between two shape batches draw the layers so far and start again.
enum { RENDER_MAX_LAYERS = 24 };

typedef struct RenderLines {
    RenderLayer layers[RENDER_MAX_LAYERS];
    int layer_count;
    int last; ///< the layer used last: strokes come in runs of one colour
    /* Scratch lists for drawing the strokes band by band down the screen (geometry.c) */
    int *run_first, *span_first; ///< per (band, layer): where its items start in the sorted lists
    int run_first_capacity, span_first_capacity;
    RenderLineRun *sorted_runs;
    int sorted_run_capacity;
    SDL_FRect *sorted_spans;
    int sorted_span_capacity;
} RenderLines;

/// Where one printable ASCII character's ink sits in the atlas and how far it moves the pen. Only
/// the ink's box is copied: the glyph's transparent margins (half of a line's height for most
/// lowercase letters) would cost a blend per pixel and change nothing.
typedef struct RenderGlyph {
    int x, y, w, h; ///< atlas rectangle of the ink; (x, y) is also its offset in the glyph's cell
    int left;       ///< the ink's left edge from the pen, pixels
    int advance;    ///< pixels
} RenderGlyph;

enum {
    RENDER_FIRST_GLYPH = 32,
    RENDER_LAST_GLYPH = 126,
    RENDER_GLYPH_COUNT = RENDER_LAST_GLYPH - RENDER_FIRST_GLYPH + 1
};

/// Circles are polygons of 10 to 72 pieces; the corners of all of them, 10 + 11 + ... + 72.
enum {
    RENDER_CIRCLE_MIN_PIECES = 10,
    RENDER_CIRCLE_MAX_PIECES = 72,
    RENDER_CIRCLE_CORNERS = (RENDER_CIRCLE_MAX_PIECES - RENDER_CIRCLE_MIN_PIECES + 1) *
                            (RENDER_CIRCLE_MIN_PIECES + RENDER_CIRCLE_MAX_PIECES) / 2,
};

/// Every vehicle's pose at the last capture, by slot (id.index1 - 1).
typedef struct RenderSnapshot {
    SteerVec2 *position, *heading;
    uint16_t *generation;
    bool *valid;
    int capacity;
} RenderSnapshot;

/// The heading each vehicle is drawn with when SteerFrame.smooth_headings is on (snapshot.c), by
/// slot: eased toward the real one, and held while the vehicle is nearly still.
typedef struct RenderShownHeadings {
    SteerVec2 *heading;
    uint16_t *generation;
    unsigned *frame; ///< the frame it was last brought up to date in (0: never)
    int capacity;
    unsigned frame_count; ///< frames drawn with smoothing, from 1
    double time, dt;      ///< the world's time at this frame, and since the last such frame (s)
} RenderShownHeadings;

/// A triangle queued to be filled straight into the surface (raster.c): the pixels it covers, as
/// SDL's software renderer would choose them.
typedef struct RasterTriangle {
    SDL_Point d[3]; ///< corners in half pixels, as SDL holds them
    bool clockwise;
    int top, bottom, left, right; ///< SDL's bounding box, clipped: rows [top, bottom), columns [left, right]
    Uint32 color;
} RasterTriangle;

/// Triangles queued before the first of them is filled: each one's rows are fetched from memory
/// while those before it are filled.
enum { RENDER_RASTER_AHEAD = 16 };

/// Where opaque vehicles are filled straight into the software renderer's surface (raster.c) during
/// one steer_render_world; pixels is NULL when they go through SDL instead.
typedef struct RenderRaster {
    Uint32 *pixels;
    int pitch;          ///< in pixels
    int x0, y0, x1, y1; ///< the rows and columns SDL would draw in: [x0, x1) x [y0, y1)
    const SDL_PixelFormat *format;
    SDL_Color mapped_color; ///< the last colour mapped, and its pixel value
    Uint32 mapped;
    bool mapped_valid;
    unsigned long filled;                      ///< polygons filled straight into the surface so far (for tests)
    RasterTriangle queue[RENDER_RASTER_AHEAD]; ///< a ring: queue_count from queue_first
    int queue_first, queue_count;
} RenderRaster;

/// A vehicle's state label (labels.c): where its vehicle is drawn, and where the layout put it.
typedef struct RenderLabel {
    SteerVehicleId id;
    float x, y;      ///< the vehicle's centre on screen, pixels
    float below;     ///< pixels from the centre to clear the vehicle
    int rank;        ///< 2 the selected vehicle's, 1 the hovered one's: laid out before every other
    bool placed;     ///< the layout found it a free place
    int side;        ///< 0 below, 1 above, 2 right, 3 left of its vehicle
    int count;       ///< labels of the same text counted into it (1: itself)
    SDL_FRect box;   ///< its room (text and a count)
    SDL_FRect drawn; ///< the backing panel drawn
    char text[40];
} RenderLabel;

/// Panels drawn in a frame that labels keep out of (more are not kept out of).
enum { RENDER_MAX_PANELS = 32 };

struct SteerRender {
    SDL_Renderer *sdl;
    SDL_Surface *target; ///< the surface the software renderer draws into, when the caller said (may be NULL)
    RenderRaster raster;
    TTF_Font *font;
    SDL_Texture *atlas;        ///< white glyphs, modulated to each text's colour
    SDL_Texture *atlas_tinted; ///< the same in RENDER_TEXT, drawn unmodulated (may be NULL)
    int atlas_w, atlas_h;
    RenderGlyph glyphs[RENDER_GLYPH_COUNT];
    int line_height;

    RenderBatch shapes, text;
    bool shapes_translucent; ///< some shape has alpha < 255: the batch needs blending
    RenderLines lines;
    SteerCamera camera;   ///< of the last steer_render_world
    float view_w, view_h; ///< output size in pixels: what lies wholly outside is not queued (0: unknown)
    RenderSnapshot snapshot;
    RenderShownHeadings shown; ///< headings as drawn, for SteerFrame.smooth_headings
    bool smooth_headings;      ///< of the frame being drawn
    const SteerWorld *world;   ///< being drawn (for the pose callback)
    double alpha;
    const uint32_t *kind_colors; ///< of the frame being drawn (SteerFrame.kind_colors)
    int kind_color_count;

    /// Corners of circles of every piece count, n from RENDER_CIRCLE_MIN_PIECES up (geometry.c)
    float circle_cos[RENDER_CIRCLE_CORNERS], circle_sin[RENDER_CIRCLE_CORNERS];
    SDL_FPoint *sweep; ///< the polyline that clears the output (render.c), grown with it
    int sweep_capacity;
    SteerVehicleId *ids; ///< scratch list of vehicle ids, grown with the world
    int id_capacity;
    SteerMemory *memories; ///< scratch for one sense's memories (senses.c), grown to the largest sense's
    int memory_capacity;
    /// The inspector box drawn last this frame (ui.c), under which steer_render_inspector_plots
    /// draws; inspector_w is 0 when none was drawn since steer_render_world began the frame.
    float inspector_x, inspector_y, inspector_w, inspector_h;
    /// Screen rectangles of the panels drawn since steer_render_world began the frame (render_panel,
    /// script text): state labels keep out of them.
    SDL_FRect panels[RENDER_MAX_PANELS];
    int panel_count;
    /// The frame's state labels (labels.c): collected by steer_render_world, laid out and drawn
    /// there or at steer_render_labels; after drawing, the placed ones, in the order placed.
    RenderLabel *labels;
    int label_count, label_capacity;
    bool labels_pending; ///< collected, not drawn yet
};

/* strokes.c: 1-pixel lines and spans, kept by colour in render->lines (pixels, float). */
/// True when the box from (x0, y0) to (x1, y1) (any corner order) lies wholly outside the output:
/// such a shape is not queued.
bool render_offscreen(const SteerRender *r, float x0, float y0, float x1, float y1);
/// A 1-pixel line; continues its colour's last polyline when it starts where that one ended.
void render_thin_line(SteerRender *r, float x0, float y0, float x1, float y1, SDL_Color c);
/// What SDL draws for a 1-pixel horizontal line from x0 to x1 (x0 <= x1) at y, as a rectangle: the
/// software renderer truncates each end to a whole pixel and draws both ends, so the same pixels go
/// in one SDL_RenderFillRectsF call per colour instead of one line call per row.
void render_span(SteerRender *r, float x0, float x1, float y, SDL_Color c);
/// The pixels left..right (inclusive) of row y.
void render_span_pixels(SteerRender *r, int left, int right, int y, SDL_Color c);
/// Draws the strokes queued since the last shape and empties the layers.
void render_flush_strokes(SteerRender *r);
void render_lines_free(RenderLines *lines);

/* geometry.c: screen-space shapes appended to render->shapes (pixels, float). */
/// Draws the shapes queued since the last stroke and empties the batch.
void render_flush_shapes(SteerRender *r);
void render_batch_free(RenderBatch *batch);
/// Room for `n` more vertices; false (and the shape is dropped) only when memory runs out.
bool render_batch_reserve(SteerRender *r, RenderBatch *batch, int n);
void render_triangle(SteerRender *r, float x0, float y0, float x1, float y1, float x2, float y2, SDL_Color c);
void render_rect_fill(SteerRender *r, float x, float y, float w, float h, SDL_Color c);
void render_rect_outline(SteerRender *r, float x, float y, float w, float h, float width, SDL_Color c);
/// A stroke: a 1-pixel line when width <= 1.5 (see RenderLines), else a quad.
void render_stroke(SteerRender *r, float x0, float y0, float x1, float y1, float width, SDL_Color c);
/// A line `width` pixels thick, always as a quad.
void render_thick_line(SteerRender *r, float x0, float y0, float x1, float y1, float width, SDL_Color c);
/// Fills the circle tables (at creation).
void render_circle_init(SteerRender *r);
void render_disc(SteerRender *r, float cx, float cy, float radius, SDL_Color c);
/// A small filled dot (radius <= 4 pixels drawn as scanlines in the stroke batch; bigger: a disc).
void render_dot(SteerRender *r, float cx, float cy, float radius, SDL_Color c);
void render_ring(SteerRender *r, float cx, float cy, float radius, float width, SDL_Color c);
/// A filled convex polygon (a fan from the first point).
void render_convex(SteerRender *r, const SDL_FPoint *points, int count, SDL_Color c);
/// A filled convex polygon (up to 8 points) with a 1-pixel outline of colour `rim` along its edges,
/// as two fans: the rim colour grown half a pixel, the fill shrunk half a pixel over it. (An outline
/// of thin quads costs its triangles' bounding boxes, three times the fill's on the software renderer.)
void render_outlined_convex(SteerRender *r, const SDL_FPoint *points, int count, SDL_Color fill, SDL_Color rim);
/// Draws the shapes batch, then the text batch, and empties both.
void render_flush(SteerRender *r);

/* raster.c */
/// Decides, for the frame about to be drawn, whether opaque vehicles can be filled straight into the
/// surface: a software renderer, drawing into a 4-byte-per-pixel surface the caller named
/// (steer_render_set_surface) or its window's, with no target texture, scale, viewport offset or clip.
void render_raster_begin(SteerRender *r);
/// True when this convex polygon (rim and fill) can be filled straight into the surface this frame.
bool render_raster_fits(const SteerRender *r, const SDL_FPoint *points, int count, SDL_Color fill, SDL_Color rim);
/// Fills the convex polygon (a fan from its first point, like render_convex) with the pixels SDL
/// would draw for it. Its triangles are queued (a few at most) and filled in order as more come or
/// at render_raster_drain: whatever SDL draws after them must drain the queue first.
void render_raster_convex(SteerRender *r, const SDL_FPoint *points, int count, SDL_Color c);
/// Fills every triangle queued. Called before anything else is drawn through SDL.
void render_raster_drain(SteerRender *r);

/* text.c */
bool render_text_init(SteerRender *r, const char *font_path, int font_px);
void render_text_free(SteerRender *r);
/// Appends `text` (one line: stops at '\n' or after max_chars bytes) at pixel (x, y) = top left.
/// Returns the pen's x after it.
float render_text_line(SteerRender *r, float x, float y, const char *text, size_t max_chars, SDL_Color c);
/// Draws the glyphs queued and empties the text batch.
void render_flush_text(SteerRender *r);
/// Width in pixels of a line of text (up to '\n' or max_chars bytes).
int render_text_width(const SteerRender *r, const char *text, size_t max_chars);

/* snapshot.c */
void render_snapshot_free(RenderSnapshot *snapshot);
/// The vehicle's pose `alpha` of the way from its captured pose to its current one; false when it
/// was not captured (new vehicle) or crossed a wrapping edge (drawn where it is instead).
bool render_snapshot_pose(const RenderSnapshot *snapshot, const SteerWorld *world, SteerVehicleId id, double alpha,
                          SteerVec2 *position, SteerVec2 *heading);
/// Starts a frame of smoothed headings at the world's time `time`.
void render_shown_begin(RenderShownHeadings *shown, double time);
/// The heading to draw vehicle `id` with, given its real (interpolated) heading this frame: eased
/// toward it over about a tenth of a second, and held while the vehicle moves slower than
/// RENDER_HOLD_SPEED (a vehicle nearly at rest turns every which way on tiny forces).
SteerVec2 render_shown_heading(RenderShownHeadings *shown, const SteerWorld *world, SteerVehicleId id,
                               SteerVec2 heading);
void render_shown_free(RenderShownHeadings *shown);
#define RENDER_HOLD_SPEED 4.0
/// Fills render->ids with the world's vehicles (growing it when the world grew); returns the count.
int render_vehicle_ids(SteerRender *r, const SteerWorld *world);

/* senses.c: the senses overlay's ghosts and the inspector's lines about senses */
/// Ghost marks where the senses of vehicle `id` remember vehicles they do not sense now: the
/// remembered vehicle's dart as an outline, facing its velocity then, fading as the memory ages (a
/// cross for what hearing remembers). Reads the core's sense queries only.
void render_sense_ghosts(SteerRender *r, SteerVehicleId id);
/// Ghosts for every vehicle that has senses (render_sense_ghosts of each).
void render_all_sense_ghosts(SteerRender *r);
/// An arc of the circle of `radius` (world units) around `center`, from angle `from` to `to`
/// (radians), as a 1-pixel polyline of as many pieces as its length on screen needs.
void render_arc(SteerRender *r, SteerVec2 center, double radius, double from, double to, SDL_Color c, float width);
/// Writes the inspector's lines about vehicle `id`'s senses into text[0 .. max) (each `width`
/// bytes): one per sense (type, name, range, fov), one with its memory's size and forget time,
/// then one per memory (the other's id, sensed now with its distance or how long ago, where it
/// was), at most RENDER_MEMORY_LINES a sense. Returns the lines written (0: no senses).
int render_sense_lines(SteerRender *r, const SteerWorld *world, SteerVehicleId id, char *text, int width, int max);
/// The inspector's line under orca's: what bound the vehicle's velocity in the last step ("  orca:
/// giving way to #12", "wall", "obstacle", "free", ...); false for an invalid id.
bool render_orca_line(const SteerWorld *world, SteerVehicleId id, char *line, int width);
/// Memories listed per sense in the inspector; more are counted on one line.
enum { RENDER_MEMORY_LINES = 5 };
/* labels.c */
/// Keeps state labels out of this screen rectangle for the rest of the frame.
void render_note_panel(SteerRender *r, float x, float y, float w, float h);
/// Forgets the last frame's labels.
void render_labels_begin(SteerRender *r);
/// Collects a vehicle's label: its centre (x, y) on screen, `below` pixels to clear it.
void render_label_add(SteerRender *r, SteerVehicleId id, float x, float y, float below, const char *text, int rank);
/// Lays out and draws the collected labels now.
void render_labels_draw_now(SteerRender *r);

/* ui.c */
/// A translucent panel with a border (labels keep out of it: render_note_panel).
void render_panel(SteerRender *r, float x, float y, float w, float h, SDL_Color fill, SDL_Color border);

/// Colours shared by the pieces.
/// The inspector's plots are at least this wide (plots.c), whatever its own lines.
#define RENDER_PLOTS_MIN_WIDTH 340.0f
#define RENDER_BACKGROUND ((SDL_Color){20, 22, 28, 255})
#define RENDER_GRID ((SDL_Color){38, 42, 52, 255})
#define RENDER_TEXT ((SDL_Color){229, 233, 240, 255})
#define RENDER_TEXT_DIM ((SDL_Color){150, 158, 172, 255})
#define RENDER_PANEL ((SDL_Color){14, 16, 22, 215})
#define RENDER_PANEL_BORDER ((SDL_Color){76, 86, 106, 255})
#define RENDER_SELECTED ((SDL_Color){255, 255, 255, 255})
#define RENDER_ERROR_PANEL ((SDL_Color){150, 28, 36, 240})
#define RENDER_ERROR_BORDER ((SDL_Color){235, 90, 90, 255})

#endif
