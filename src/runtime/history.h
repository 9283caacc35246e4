/* SPDX-License-Identifier: MIT */
/* history.h - the inspector's plots' data: a bounded ring of samples of one vehicle (the selected
 * one), taken after each physics step: its speed, steering force, each behaviour's force and its
 * state. The runtime owns it and records into it; the renderer only reads the view it gives
 * (SteerInspectorPlots). Fixed arrays: recording allocates nothing, and only the one vehicle is
 * sampled, so a step of a world of any size costs the same few reads. */
#ifndef STEER_RUNTIME_HISTORY_H
#define STEER_RUNTIME_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "render.h"
#include "steer/steer.h"

#define HISTORY_WINDOW_S 10.0  ///< seconds of simulated time the plots show
#define HISTORY_CAPACITY 1024  ///< samples kept: at most one per HISTORY_WINDOW_S / (HISTORY_CAPACITY - 2) s
#define HISTORY_MAX_STATES 16  ///< distinct state names within one window (more show as no state)
#define HISTORY_STATE_CHARS 32 ///< a state's name is kept up to 31 bytes

/// What one step left: from the world (and v.state from the scripts).
typedef struct HistorySample {
    double time;    ///< simulated time after the step, s
    long long step; ///< the run's step count after the step (app->session.steps): what a rewind trims by
    float speed;    ///< units/s
    float force;    ///< the combined steering force's length, mass·units/s²
    float max_speed, max_force;
    float behaviour[STEER_BEHAVIOUR_COUNT]; ///< each behaviour's weighted force length; NaN = off
    const char *state;                      ///< v.state, NULL = none
    size_t state_len;
} HistorySample;

typedef struct History {
    uint64_t serial;  ///< the vehicle sampled (SteerVehicleState.serial); 0 = none yet
    int first, count; ///< the ring: `count` samples from index `first`, oldest first
    double time[HISTORY_CAPACITY];
    long long step[HISTORY_CAPACITY];
    float speed[HISTORY_CAPACITY], force[HISTORY_CAPACITY];
    float behaviour[STEER_BEHAVIOUR_COUNT][HISTORY_CAPACITY];
    uint8_t state[HISTORY_CAPACITY]; ///< index into state_names, or STEER_PLOT_NO_STATE
    char state_names[HISTORY_MAX_STATES][HISTORY_STATE_CHARS];
    size_t state_lens[HISTORY_MAX_STATES];           ///< each name's full length (it may be cut short above)
    const char *state_name_list[HISTORY_MAX_STATES]; ///< state_names as pointers, for the view
    SDL_Color state_colors[HISTORY_MAX_STATES];      ///< each name's colour (history_state_color)
    int state_name_count;
    float max_speed_at[HISTORY_CAPACITY], max_force_at[HISTORY_CAPACITY];
    float max_speed, max_force; ///< the newest sample's
} History;

/// Empties the ring and makes it the history of vehicle `serial`.
void history_reset(History *h, uint64_t serial);
/// Appends a sample of vehicle `serial`: another vehicle, or a time before the newest sample (a
/// restarted world), starts afresh. A sample closer than HISTORY_WINDOW_S / (HISTORY_CAPACITY - 2)
/// to the newest is skipped (physics faster than ~100 Hz), so the ring always spans the window.
/// Returns whether it was kept.
bool history_record(History *h, uint64_t serial, const HistorySample *s);
/// Drops the samples taken after step `step` (a rewind to a step the ring already holds): the ring
/// is then what it was when the run stood at that step. No-op on samples at or before it.
void history_trim(History *h, long long step);
/// Whether the ring holds this vehicle's samples from `from` (or before) up to `to` (or after):
/// whether a trim to `to` leaves the plots the samples the run had over that stretch.
bool history_covers(const History *h, uint64_t serial, long long from, long long to);
/// The plots of the samples of the last HISTORY_WINDOW_S up to the newest: speed (top: max_speed or
/// the peak, a line at max_speed), force (top: max_force or the peak, a line at max_force), then each
/// behaviour that was on at some time in the window, in SteerBehaviour order, sharing one top (max_force
/// or their peak); and the state strip. Points into `h`: valid until it changes.
void history_view(const History *h, SteerInspectorPlots *out);
/// The colour of a behaviour's plot: a fixed hue per behaviour.
SDL_Color history_behaviour_color(SteerBehaviour type);
/// The colours of the state strip: HISTORY_STATE_PALETTE well-separated colours. A state gets the
/// one its name hashes to, or, when a name in the table has it already, the next one free: so a
/// state keeps its colour from vehicle to vehicle, and the states next to each other in one strip
/// never share one (up to HISTORY_STATE_PALETTE names at once).
#define HISTORY_STATE_PALETTE 10
SDL_Color history_state_palette(int index);

#endif
