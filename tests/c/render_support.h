/* SPDX-License-Identifier: MIT */
/* render_support.h - what the renderer's tests share: SDL's software renderer drawing into a plain
 * RGBA surface (SDL_VIDEODRIVER=dummy, no window), a steer renderer with the test font on it, a
 * world the size of the surface seen at zoom 1 (world units are pixels), and a pixel reader. */
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

#endif
