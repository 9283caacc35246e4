/* SPDX-License-Identifier: MIT */
/* png.c - what the renderer drew, read back and saved as a PNG (screenshots, tests, CI). */
#include <SDL_image.h>

#include "render.h"

int steer_render_save_png(SDL_Renderer *sdl, const char *path)
{
    int w = 0, h = 0;
    if (!sdl || !path || SDL_GetRendererOutputSize(sdl, &w, &h) != 0 || w <= 0 || h <= 0) {
        if (!sdl || !path) SDL_SetError("steer_render_save_png: expected a renderer and a path");
        return -1;
    }
    SDL_Surface *surface = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGBA32);
    if (!surface) return -1;
    int result = SDL_RenderReadPixels(sdl, NULL, SDL_PIXELFORMAT_RGBA32, surface->pixels, surface->pitch);
    if (result == 0) {
        /* the screen is opaque; a PNG with the batch's leftover alpha would look washed out */
        SDL_SetSurfaceBlendMode(surface, SDL_BLENDMODE_NONE);
        Uint8 *row = surface->pixels;
        for (int y = 0; y < h; y++, row += surface->pitch)
            for (int x = 0; x < w; x++) row[4 * x + 3] = 255;
        result = IMG_SavePNG(surface, path);
    }
    SDL_FreeSurface(surface);
    return result == 0 ? 0 : -1;
}
