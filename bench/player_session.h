/* SPDX-License-Identifier: MIT */
/* player_session.h - the input a player gives during the 10-minute hunter/prey session that
 * bench-replay records (bench/replay/record_size.c) and bench-rewind jumps around in
 * (bench/rewind/bench_rewind.c), frame by frame, through the window's event path: the pointer
 * moving every frame in a slow figure eight, a click every 5 s, a key every 20 s, pauses of 2 s, a
 * stretch at x2 and a restart. One session, so that both benchmarks measure the same run. */
#ifndef PLAYER_SESSION_H
#define PLAYER_SESSION_H

#include <math.h>

#include "app.h"

/// Feeds the events of frame `frame` (0, 1, ...) of the session to `app`, before its app_frame.
static inline void player_session_frame(App *app, long long frame)
{
    int x = 512 + (int)(400 * sin((double)frame * 0.01)), y = 384 + (int)(300 * sin((double)frame * 0.02));
    app_feed_motion(app, x, y);
    if (frame % 300 == 150) { /* a click: an obstacle where the pointer is, or a selection */
        app_feed_button(app, SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, x, y);
        app_feed_button(app, SDL_MOUSEBUTTONUP, SDL_BUTTON_LEFT, x, y);
    }
    if (frame % 1200 == 600) app_feed_key(app, "hpdce"[(frame / 1200) % 5], 0);
    if (frame % 6000 == 3000) app_feed_key(app, SDLK_SPACE, 0); /* a pause of 2 s */
    if (frame % 6000 == 3120) app_feed_key(app, SDLK_SPACE, 0);
    if (frame == 9000) app_feed_key(app, SDLK_EQUALS, 0); /* x2 for a while */
    if (frame == 12000) app_feed_key(app, SDLK_MINUS, 0);
    if (frame == 20000) app_feed_key(app, SDLK_F5, 0); /* a restart */
}

#endif
