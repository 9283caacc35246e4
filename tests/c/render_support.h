/* SPDX-License-Identifier: MIT */
/* render_support.h - what the renderer's tests share: SDL's software renderer drawing into a plain
 * RGBA surface (SDL_VIDEODRIVER=dummy, no window), a steer renderer with the test font on it, a
 * world the size of the surface seen at zoom 1 (world units are pixels), a pixel reader, and the
 * checks that something is (or nothing is) drawn where a test expects it. */
#ifndef RENDER_SUPPORT_H
#define RENDER_SUPPORT_H

#include <stdlib.h>

#include "test_support.h"

#include "render_internal.h"

typedef struct RenderFixture {
    SDL_Surface *surface;
    SDL_Renderer *sdl;
    SteerRender *render;
    SteerWorld *world;
    SteerFrame frame; ///< zoom 1 centred, alpha 1
} RenderFixture;

static void render_fixture_open(RenderFixture *f, int width, int height)
{
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    f->surface = SDL_CreateRGBSurfaceWithFormat(0, width, height, 32, SDL_PIXELFORMAT_RGBA32);
    assert_non_null(f->surface);
    f->sdl = SDL_CreateSoftwareRenderer(f->surface);
    assert_non_null(f->sdl);
    f->render = steer_render_create(f->sdl, RENDER_FONT, 12);
    if (!f->render) fail_msg("steer_render_create: %s", SDL_GetError());
    SteerWorldDef def = steer_default_world_def();
    def.width = width;
    def.height = height;
    f->world = steer_world_create(&def);
    assert_non_null(f->world);
    f->frame.camera = (SteerCamera){0.5 * width, 0.5 * height, 1.0, width, height};
    f->frame.alpha = 1.0;
}

static void render_fixture_close(RenderFixture *f)
{
    steer_world_destroy(f->world);
    steer_render_destroy(f->render);
    SDL_DestroyRenderer(f->sdl);
    SDL_FreeSurface(f->surface);
    SDL_Quit();
}

/// The colour of pixel (x, y) of the surface drawn into.
static SDL_Color render_pixel(const RenderFixture *f, int x, int y)
{
    const Uint8 *p = (const Uint8 *)f->surface->pixels + y * f->surface->pitch + 4 * x;
    SDL_Color c;
    SDL_GetRGBA(*(const Uint32 *)p, f->surface->format, &c.r, &c.g, &c.b, &c.a);
    return c;
}

/// Draws the fixture's world with `overlays` on and `selected` selected.
static inline void render_fixture_draw(RenderFixture *f, unsigned overlays, SteerVehicleId selected)
{
    f->frame.overlays = overlays;
    f->frame.selected = selected;
    steer_render_world(f->render, f->world, &f->frame);
}

/// A RenderFixture of width x height made with calloc and opened: the state of a test that needs no
/// more (its cmocka setup is `*state = render_fixture_new(W, H)`; its teardown render_fixture_teardown).
static inline RenderFixture *render_fixture_new(int width, int height)
{
    RenderFixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    render_fixture_open(f, width, height);
    return f;
}

/// A cmocka teardown for a test state that starts with its RenderFixture (made with calloc).
static inline int render_fixture_teardown(void **state)
{
    RenderFixture *f = *state;
    render_fixture_close(f);
    free(f);
    return 0;
}

static inline bool render_is_background(SDL_Color c)
{
    return c.r == RENDER_BACKGROUND.r && c.g == RENDER_BACKGROUND.g && c.b == RENDER_BACKGROUND.b;
}

/// A pixel of the 3x3 block around (x, y) that is not the background (thin lines land on one
/// pixel or its neighbour), or the background itself when there is none. Pixels of the block
/// outside the surface are not read.
static inline SDL_Color render_drawn_around(const RenderFixture *f, int x, int y)
{
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            if (x + dx < 0 || y + dy < 0 || x + dx >= f->surface->w || y + dy >= f->surface->h) continue;
            SDL_Color c = render_pixel(f, x + dx, y + dy);
            if (!render_is_background(c)) return c;
        }
    return RENDER_BACKGROUND;
}

/// Fails the test (naming `what`) when nothing but the background is drawn around (x, y).
static inline void render_assert_drawn(const RenderFixture *f, int x, int y, const char *what)
{
    if (render_is_background(render_drawn_around(f, x, y))) fail_msg("%s: nothing drawn around (%d, %d)", what, x, y);
}

/// Fails the test (naming `what` and the colour) when anything is drawn around (x, y).
static inline void render_assert_blank(const RenderFixture *f, int x, int y, const char *what)
{
    SDL_Color c = render_drawn_around(f, x, y);
    if (!render_is_background(c)) fail_msg("%s: (%d, %d, %d) drawn around (%d, %d)", what, c.r, c.g, c.b, x, y);
}

#endif
