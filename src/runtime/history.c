/* SPDX-License-Identifier: MIT */
/* history.c - the selected vehicle's ring of samples for the inspector's plots. See history.h. */
#include "history.h"

#include <math.h>
#include <string.h>

#define SPEED_COLOR ((SDL_Color){110, 200, 255, 255})
#define FORCE_COLOR ((SDL_Color){235, 235, 240, 255})

static const double MIN_INTERVAL = HISTORY_WINDOW_S / (HISTORY_CAPACITY - 2);

void history_reset(History *h, uint64_t serial)
{
    h->serial = serial;
    h->first = h->count = 0;
    h->state_name_count = 0;
}

static int newest(const History *h) { return (h->first + h->count - 1) % HISTORY_CAPACITY; }

/* Whether name index k is used by a sample the plots may still show: one of the last window (the
 * window only moves forward; older samples stay in the ring but are never drawn again). */
static bool state_in_use(const History *h, int k, double now)
{
    for (int i = h->count - 1; i >= 0; i--) {
        int at = (h->first + i) % HISTORY_CAPACITY;
        if (h->time[at] < now - HISTORY_WINDOW_S) break;
        if (h->state[at] == k) return true;
    }
    return false;
}

/* The index of a state's name: found, added, or put in the place of a name no sample uses any more
 * (a scan of the ring, only when a new name comes and the table is full). */
static uint8_t intern_state(History *h, const char *s, size_t len, double now)
{
    if (!s) return STEER_PLOT_NO_STATE;
    size_t kept = len < HISTORY_STATE_CHARS - 1 ? len : HISTORY_STATE_CHARS - 1;
    for (int k = 0; k < h->state_name_count; k++)
        if (h->state_lens[k] == len && memcmp(h->state_names[k], s, kept) == 0) return (uint8_t)k;
    int k = h->state_name_count;
    if (k == HISTORY_MAX_STATES) {
        for (k = 0; k < HISTORY_MAX_STATES && state_in_use(h, k, now); k++) {
        }
        if (k == HISTORY_MAX_STATES) return STEER_PLOT_NO_STATE;
    } else {
        h->state_name_count++;
    }
    memcpy(h->state_names[k], s, kept);
    h->state_names[k][kept] = '\0';
    h->state_lens[k] = len;
    h->state_name_list[k] = h->state_names[k];
    /* its colour: the palette slot its name hashes to, or the next that no other name holds */
    uint32_t hash = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < len; i++) hash = (hash ^ (uint8_t)s[i]) * 16777619u;
    int slot = (int)(hash % HISTORY_STATE_PALETTE);
    for (int tries = 0; tries < HISTORY_STATE_PALETTE; tries++, slot = (slot + 1) % HISTORY_STATE_PALETTE) {
        bool taken = false;
        for (int j = 0; j < h->state_name_count && !taken; j++) {
            SDL_Color c = history_state_palette(slot);
            taken = j != k && h->state_colors[j].r == c.r && h->state_colors[j].g == c.g && h->state_colors[j].b == c.b;
        }
        if (!taken) break;
    }
    h->state_colors[k] = history_state_palette(slot);
    return (uint8_t)k;
}

bool history_record(History *h, uint64_t serial, const HistorySample *s)
{
    if (serial != h->serial || (h->count > 0 && s->time < h->time[newest(h)])) history_reset(h, serial);
    if (h->count > 0 && s->time - h->time[newest(h)] < MIN_INTERVAL * (1.0 - 1e-9)) return false;
    int at;
    if (h->count < HISTORY_CAPACITY) {
        at = (h->first + h->count) % HISTORY_CAPACITY;
        h->count++;
    } else {
        at = h->first;
        h->first = (h->first + 1) % HISTORY_CAPACITY;
    }
    h->time[at] = s->time;
    h->step[at] = s->step;
    h->max_speed_at[at] = s->max_speed;
    h->max_force_at[at] = s->max_force;
    h->speed[at] = s->speed;
    h->force[at] = s->force;
    for (int b = 0; b < STEER_BEHAVIOUR_COUNT; b++) h->behaviour[b][at] = s->behaviour[b];
    h->state[at] = STEER_PLOT_NO_STATE; /* not counted as in use while its name is interned */
    h->state[at] = intern_state(h, s->state, s->state_len, s->time);
    h->max_speed = s->max_speed;
    h->max_force = s->max_force;
    return true;
}

void history_trim(History *h, long long step)
{
    while (h->count > 0 && h->step[newest(h)] > step) h->count--;
    if (h->count == 0) return;
    h->max_speed = h->max_speed_at[newest(h)];
    h->max_force = h->max_force_at[newest(h)];
}

bool history_covers(const History *h, uint64_t serial, long long from, long long to)
{
    if (h->count == 0 || h->serial != serial) return false;
    return h->step[h->first] <= from && h->step[newest(h)] >= to;
}

SDL_Color history_behaviour_color(SteerBehaviour type)
{
    /* hues a golden angle apart, so behaviours next to each other in the enum (seek, flee, arrive)
     * differ most; saturated enough to read on the dark panel */
    double hue = fmod((double)type * 137.508 + 20.0, 360.0) / 60.0;
    double x = 1.0 - fabs(fmod(hue, 2.0) - 1.0);
    double r = 0, g = 0, b = 0;
    switch ((int)hue) {
    case 0: r = 1, g = x; break;
    case 1: r = x, g = 1; break;
    case 2: g = 1, b = x; break;
    case 3: g = x, b = 1; break;
    case 4: r = x, b = 1; break;
    default: r = 1, b = x; break;
    }
    const double low = 90.0, span = 255.0 - low; /* lifted: no dark blue on a dark panel */
    return (SDL_Color){(Uint8)(low + span * r), (Uint8)(low + span * g), (Uint8)(low + span * b), 255};
}

SDL_Color history_state_palette(int index)
{
    static const SDL_Color PALETTE[HISTORY_STATE_PALETTE] = {
        {86, 156, 255, 255}, {255, 159, 67, 255}, {88, 214, 141, 255},  {255, 105, 135, 255}, {180, 142, 255, 255},
        {255, 216, 80, 255}, {64, 224, 208, 255}, {240, 128, 205, 255}, {170, 210, 90, 255},  {205, 175, 140, 255},
    };
    return PALETTE[((index % HISTORY_STATE_PALETTE) + HISTORY_STATE_PALETTE) % HISTORY_STATE_PALETTE];
}

static float peak(const float *values, int first, int count)
{
    float top = 0.0f;
    for (int i = 0; i < count; i++) {
        float v = values[(first + i) % HISTORY_CAPACITY];
        if (v > top) top = v; /* NaN compares false */
    }
    return top;
}

void history_view(const History *h, SteerInspectorPlots *out)
{
    memset(out, 0, sizeof *out);
    out->times = h->time;
    out->capacity = HISTORY_CAPACITY;
    out->window = HISTORY_WINDOW_S;
    out->states = h->state;
    out->state_names = h->state_name_list;
    out->state_colors = h->state_colors;
    out->state_name_count = h->state_name_count;
    if (h->count == 0) return;
    out->now = h->time[newest(h)];
    /* the samples of the window: from the oldest not before now - window */
    int skip = 0;
    while (skip < h->count && h->time[(h->first + skip) % HISTORY_CAPACITY] < out->now - HISTORY_WINDOW_S) skip++;
    int first = (h->first + skip) % HISTORY_CAPACITY, count = h->count - skip;
    out->first = first;
    out->count = count;

    float speed_top = fmaxf(h->max_speed, peak(h->speed, first, count));
    out->series[out->series_count++] =
        (SteerPlotSeries){"speed", h->speed, speed_top > 0 ? speed_top : 1.0f, h->max_speed, SPEED_COLOR};
    float force_top = fmaxf(h->max_force, peak(h->force, first, count));
    out->series[out->series_count++] =
        (SteerPlotSeries){"force", h->force, force_top > 0 ? force_top : 1.0f, h->max_force, FORCE_COLOR};
    float shared = h->max_force;
    int on[STEER_BEHAVIOUR_COUNT], n = 0;
    for (int b = 0; b < STEER_BEHAVIOUR_COUNT; b++) {
        bool seen = false;
        for (int i = 0; i < count && !seen; i++) seen = !isnan(h->behaviour[b][(first + i) % HISTORY_CAPACITY]);
        if (!seen) continue;
        on[n++] = b;
        shared = fmaxf(shared, peak(h->behaviour[b], first, count));
    }
    for (int i = 0; i < n && out->series_count < STEER_PLOT_MAX_SERIES; i++)
        out->series[out->series_count++] =
            (SteerPlotSeries){steer_behaviour_name((SteerBehaviour)on[i]), h->behaviour[on[i]],
                              shared > 0 ? shared : 1.0f, 0.0f, history_behaviour_color((SteerBehaviour)on[i])};
}
