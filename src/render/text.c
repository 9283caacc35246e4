/* SPDX-License-Identifier: MIT */
/* text.c - SDL2_ttf text through a glyph atlas: every printable ASCII glyph is rasterised once, at
 * creation, into one texture; a line of text is then a row of textured quads in the text batch, so
 * drawing text costs no rasterising and no allocation per frame. Kerning is not applied (the HUD
 * and inspector use a monospaced font, where it does not matter). Bytes outside ASCII draw as '?'
 * once per UTF-8 character. */
#include <math.h>
#include <stdlib.h>

#include "render_internal.h"

/// The smallest rectangle holding every pixel of `glyph` that is not fully transparent; false when
/// there is none.
static bool ink_box(SDL_Surface *glyph, SDL_Rect *ink)
{
    int x0 = glyph->w, y0 = glyph->h, x1 = -1, y1 = -1;
    if (glyph->format->BytesPerPixel != 4 || SDL_LockSurface(glyph) != 0) { /* not expected: keep it whole */
        *ink = (SDL_Rect){0, 0, glyph->w, glyph->h};
        return glyph->w > 0 && glyph->h > 0;
    }
    for (int y = 0; y < glyph->h; y++)
        for (int x = 0; x < glyph->w; x++) {
            Uint32 pixel = *(const Uint32 *)((const Uint8 *)glyph->pixels + y * glyph->pitch + 4 * x);
            Uint8 cr, cg, cb, ca;
            SDL_GetRGBA(pixel, glyph->format, &cr, &cg, &cb, &ca);
            if (ca == 0) continue;
            if (x < x0) x0 = x;
            if (x > x1) x1 = x;
            if (y < y0) y0 = y;
            if (y > y1) y1 = y;
        }
    SDL_UnlockSurface(glyph);
    if (x1 < 0) return false;
    *ink = (SDL_Rect){x0, y0, x1 - x0 + 1, y1 - y0 + 1};
    return true;
}

/// The atlas with its glyphs in colour c (alpha kept): text of the commonest colour is copied from
/// it without colour modulation, which the software renderer blits several times faster (it then
/// skips transparent pixels and copies opaque ones). NULL when it cannot be made: the white atlas,
/// modulated, is used instead.
static SDL_Texture *tinted_copy(SteerRender *r, SDL_Surface *atlas, SDL_Color c)
{
    SDL_Surface *copy = SDL_ConvertSurfaceFormat(atlas, SDL_PIXELFORMAT_RGBA32, 0);
    if (!copy) return NULL;
    for (int y = 0; y < copy->h; y++)
        for (int x = 0; x < copy->w; x++) {
            Uint32 *p = (Uint32 *)((Uint8 *)copy->pixels + y * copy->pitch) + x;
            Uint8 cr, cg, cb, ca;
            SDL_GetRGBA(*p, copy->format, &cr, &cg, &cb, &ca);
            *p = SDL_MapRGBA(copy->format, c.r, c.g, c.b, ca);
        }
    SDL_Texture *texture = SDL_CreateTextureFromSurface(r->sdl, copy);
    SDL_FreeSurface(copy);
    if (texture) SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND);
    return texture;
}

bool render_text_init(SteerRender *r, const char *font_path, int font_px)
{
    r->font = TTF_OpenFont(font_path, font_px);
    if (!r->font) return false;
    r->line_height = TTF_FontLineSkip(r->font);

    SDL_Surface *glyph_surfaces[RENDER_GLYPH_COUNT] = {0};
    const SDL_Color white = {255, 255, 255, 255};
    int width = 0, height = 1;
    for (int i = 0; i < RENDER_GLYPH_COUNT; i++) {
        uint16_t ch = (uint16_t)(RENDER_FIRST_GLYPH + i);
        int minx, maxx, miny, maxy, advance = 0;
        if (TTF_GlyphMetrics(r->font, ch, &minx, &maxx, &miny, &maxy, &advance) != 0) advance = 0;
        r->glyphs[i].advance = advance;
        glyph_surfaces[i] = ch == ' ' ? NULL : TTF_RenderGlyph_Blended(r->font, ch, white);
        SDL_Rect ink;
        if (glyph_surfaces[i] && ink_box(glyph_surfaces[i], &ink)) {
            r->glyphs[i].x = width + ink.x;
            r->glyphs[i].y = ink.y;
            r->glyphs[i].w = ink.w;
            r->glyphs[i].h = ink.h;
            r->glyphs[i].left = ink.x;
            width += glyph_surfaces[i]->w + 1; /* a gap so sampling never bleeds into a neighbour */
            if (glyph_surfaces[i]->h > height) height = glyph_surfaces[i]->h;
        } else {
            SDL_FreeSurface(glyph_surfaces[i]); /* nothing visible: drawn as a gap */
            glyph_surfaces[i] = NULL;
        }
    }
    bool ok = false;
    SDL_Surface *atlas = SDL_CreateRGBSurfaceWithFormat(0, width > 0 ? width : 1, height, 32, SDL_PIXELFORMAT_RGBA32);
    if (atlas) {
        SDL_FillRect(atlas, NULL, SDL_MapRGBA(atlas->format, 255, 255, 255, 0));
        for (int i = 0; i < RENDER_GLYPH_COUNT; i++) {
            if (!glyph_surfaces[i]) continue;
            SDL_SetSurfaceBlendMode(glyph_surfaces[i], SDL_BLENDMODE_NONE); /* copy the coverage as alpha */
            SDL_Rect to = {r->glyphs[i].x - r->glyphs[i].left, 0, glyph_surfaces[i]->w, glyph_surfaces[i]->h};
            SDL_BlitSurface(glyph_surfaces[i], NULL, atlas, &to);
        }
        r->atlas = SDL_CreateTextureFromSurface(r->sdl, atlas);
        if (r->atlas) {
            SDL_SetTextureBlendMode(r->atlas, SDL_BLENDMODE_BLEND);
            r->atlas_w = atlas->w;
            r->atlas_h = atlas->h;
            ok = true;
        }
        r->atlas_tinted = tinted_copy(r, atlas, RENDER_TEXT);
        SDL_FreeSurface(atlas);
    }
    for (int i = 0; i < RENDER_GLYPH_COUNT; i++) SDL_FreeSurface(glyph_surfaces[i]);
    return ok;
}

void render_text_free(SteerRender *r)
{
    if (r->atlas_tinted) SDL_DestroyTexture(r->atlas_tinted);
    r->atlas_tinted = NULL;
    if (r->atlas) SDL_DestroyTexture(r->atlas);
    if (r->font) TTF_CloseFont(r->font);
    r->atlas = NULL;
    r->font = NULL;
}

/// The glyph for the byte at *p, advancing *p past a whole UTF-8 character; NULL at the line's end.
static const RenderGlyph *next_glyph(const SteerRender *r, const char **p, const char *end)
{
    if (*p >= end || **p == '\n' || **p == '\0') return NULL;
    unsigned char c = (unsigned char)**p;
    (*p)++;
    if (c >= 0x80) {
        while (*p < end && ((unsigned char)**p & 0xC0) == 0x80) (*p)++; /* continuation bytes */
        c = '?';
    }
    if (c < RENDER_FIRST_GLYPH || c > RENDER_LAST_GLYPH) c = '?';
    return &r->glyphs[c - RENDER_FIRST_GLYPH];
}

static const char *line_end(const char *text, size_t max_chars)
{
    const char *end = text;
    while ((size_t)(end - text) < max_chars && *end && *end != '\n') end++;
    return end;
}

int render_text_width(const SteerRender *r, const char *text, size_t max_chars)
{
    const char *end = line_end(text, max_chars);
    int width = 0;
    const RenderGlyph *g;
    while ((g = next_glyph(r, &text, end)) != NULL) width += g->advance;
    return width;
}

float render_text_line(SteerRender *r, float x, float y, const char *text, size_t max_chars, SDL_Color c)
{
    if (!r->atlas) return x;
    const char *end = line_end(text, max_chars);
    float pen = roundf(x);
    float top = roundf(y);
    const float u_scale = 1.0f / (float)r->atlas_w, v_scale = 1.0f / (float)r->atlas_h;
    const RenderGlyph *g;
    while ((g = next_glyph(r, &text, end)) != NULL) {
        if (g->w > 0) {
            if (!render_batch_reserve(r, &r->text, 6)) break;
            SDL_Vertex *v = r->text.vertices + r->text.count;
            float x0 = pen + (float)g->left, y0 = top + (float)g->y, x1 = x0 + (float)g->w, y1 = y0 + (float)g->h;
            float u0 = (float)g->x * u_scale, u1 = (float)(g->x + g->w) * u_scale;
            float v0 = (float)g->y * v_scale, v1 = (float)(g->y + g->h) * v_scale;
            v[0] = (SDL_Vertex){{x0, y0}, c, {u0, v0}};
            v[1] = (SDL_Vertex){{x1, y0}, c, {u1, v0}};
            v[2] = (SDL_Vertex){{x1, y1}, c, {u1, v1}};
            v[3] = v[0];
            v[4] = v[2];
            v[5] = (SDL_Vertex){{x0, y1}, c, {u0, v1}};
            r->text.count += 6;
        }
        pen += (float)g->advance;
    }
    return pen;
}

void steer_render_text(SteerRender *r, int x, int y, const char *text, SDL_Color color)
{
    if (!text) return;
    float line_y = (float)y;
    for (const char *line = text;;) {
        render_text_line(r, (float)x, line_y, line, (size_t)-1, color);
        const char *nl = line;
        while (*nl && *nl != '\n') nl++;
        if (!*nl) break;
        line = nl + 1;
        line_y += (float)r->line_height;
    }
    render_flush(r);
}

int steer_render_line_height(const SteerRender *r) { return r->line_height; }

static bool same_color(SDL_Color a, SDL_Color b) { return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a; }

void render_flush_text(SteerRender *r)
{
    render_raster_drain(r); /* vehicles queued before this text are drawn before it */
    if (r->text.count > 0) {
        /* One copy per glyph quad (6 vertices: corners 0 and 2 are opposite). The software
         * renderer blits these directly, where textured triangles would go through a temporary
         * surface each; GPU renderers batch the copies anyway. */
        const float aw = (float)r->atlas_w, ah = (float)r->atlas_h;
        SDL_Color current = {0, 0, 0, 0};
        SDL_Texture *from = r->atlas;
        bool first = true;
        for (int i = 0; i + 5 < r->text.count; i += 6) {
            const SDL_Vertex *v = r->text.vertices + i;
            if (first || !same_color(current, v[0].color)) {
                current = v[0].color;
                from = r->atlas_tinted && same_color(current, RENDER_TEXT) ? r->atlas_tinted : r->atlas;
                if (from == r->atlas) {
                    SDL_SetTextureColorMod(r->atlas, current.r, current.g, current.b);
                    SDL_SetTextureAlphaMod(r->atlas, current.a);
                }
                first = false;
            }
            SDL_Rect src = {(int)lroundf(v[0].tex_coord.x * aw), (int)lroundf(v[0].tex_coord.y * ah),
                            (int)lroundf((v[2].tex_coord.x - v[0].tex_coord.x) * aw),
                            (int)lroundf((v[2].tex_coord.y - v[0].tex_coord.y) * ah)};
            SDL_FRect dst = {v[0].position.x, v[0].position.y, v[2].position.x - v[0].position.x,
                             v[2].position.y - v[0].position.y};
            SDL_RenderCopyF(r->sdl, from, &src, &dst);
        }
        r->text.count = 0;
    }
}
