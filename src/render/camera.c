/* SPDX-License-Identifier: MIT */
/* camera.c - world <-> screen: the camera's centre sits at the middle of the output, `zoom` pixels
 * per unit, y down in both (the core's units are pixels at zoom 1). */
#include "render.h"

/// Share of the window the fitted world takes, leaving a margin so the bounds stay visible.
#define FIT_MARGIN 0.94

SteerCamera steer_camera_fit(double world_w, double world_h, int win_w, int win_h)
{
    return steer_camera_fit_band(world_w, world_h, win_w, win_h, 0, 0);
}

SteerCamera steer_camera_fit_band(double world_w, double world_h, int win_w, int win_h, int top, int bottom)
{
    return steer_camera_fit_box(world_w, world_h, win_w, win_h, top, 0, bottom);
}

SteerCamera steer_camera_fit_box(double world_w, double world_h, int win_w, int win_h, int top, int right, int bottom)
{
    SteerCamera cam = {0.5 * world_w, 0.5 * world_h, 1.0, win_w, win_h};
    if (top < 0 || bottom < 0 || 2 * (win_h - top - bottom) < win_h) top = bottom = 0;
    if (right < 0 || 5 * (win_w - right) < 2 * win_w) right = 0; /* (an 800-pixel window keeps 396 for the world) */
    int band = win_h - top - bottom, span = win_w - right;
    if (world_w > 0.0 && world_h > 0.0 && span > 0 && band > 0) {
        double zx = span / world_w, zy = band / world_h;
        cam.zoom = FIT_MARGIN * (zx < zy ? zx : zy);
        /* the world's middle at the box's middle, (top - bottom) / 2 pixels below the window's and
         * right / 2 to the left of it */
        cam.center_y -= 0.5 * (top - bottom) / cam.zoom;
        cam.center_x += 0.5 * right / cam.zoom;
    }
    return cam;
}

void steer_camera_to_world(const SteerCamera *cam, double sx, double sy, double *wx, double *wy)
{
    *wx = cam->center_x + (sx - 0.5 * cam->width) / cam->zoom;
    *wy = cam->center_y + (sy - 0.5 * cam->height) / cam->zoom;
}

void steer_camera_to_screen(const SteerCamera *cam, double wx, double wy, double *sx, double *sy)
{
    *sx = (wx - cam->center_x) * cam->zoom + 0.5 * cam->width;
    *sy = (wy - cam->center_y) * cam->zoom + 0.5 * cam->height;
}

/// Zoom stays where floats keep their precision and a world stays findable.
#define MIN_ZOOM 1e-3
#define MAX_ZOOM 1e3

void steer_camera_zoom_at(SteerCamera *cam, double sx, double sy, double factor)
{
    if (!(factor > 0.0) || !isfinite(factor)) return;
    double wx, wy;
    steer_camera_to_world(cam, sx, sy, &wx, &wy);
    double zoom = cam->zoom * factor;
    if (zoom < MIN_ZOOM) zoom = MIN_ZOOM;
    if (zoom > MAX_ZOOM) zoom = MAX_ZOOM;
    cam->zoom = zoom;
    /* move the centre so the same world point lands under (sx, sy) again */
    cam->center_x = wx - (sx - 0.5 * cam->width) / zoom;
    cam->center_y = wy - (sy - 0.5 * cam->height) / zoom;
}
