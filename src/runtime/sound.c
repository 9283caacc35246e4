/* SPDX-License-Identifier: MIT */
/* sound.c - effects synthesised from a SoundSpec, and the mixer that queues them to SDL's audio
 * (see sound.h). The device is opened for queued audio (no callback, so no thread of ours and no
 * lock): each frame sound_pump takes the samples due from the ring, clips them and queues them. */
#include "sound.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>

#define PI 3.14159265358979323846
/// The ring of mixed samples not yet queued: a power of two, longer than the longest effect.
#define RING_SIZE 65536u
#define RING_MASK (RING_SIZE - 1u)
/// A window keeps this much queued ahead of the device (a few frames: late enough to never run dry
/// at 30 fps, early enough that a catch is heard with its flash).
#define AHEAD_S 0.06
/// The most one pump queues (a window after a long stall starts again from silence).
#define MAX_PUMP_S 0.25

static const char *const WAVES[] = {"sine", "square", "triangle", "saw", "noise"};

bool sound_wave_from_name(const char *name, SoundWave *out)
{
    for (int i = 0; i < (int)(sizeof WAVES / sizeof WAVES[0]); i++)
        if (!strcmp(name, WAVES[i])) {
            *out = (SoundWave)i;
            return true;
        }
    return false;
}

int sound_sample_count(const SoundSpec *spec) { return (int)lround(spec->duration * SOUND_RATE); }

void sound_synth(const SoundSpec *spec, float *out)
{
    int n = sound_sample_count(spec);
    if (n <= 0) return;
    double attack = spec->attack > 0.002 ? spec->attack : 0.002; /* (no click at the start) */
    int notes = spec->note_count > 0 ? spec->note_count : 1;
    double phase = 0.0, held = 0.0;
    unsigned state = spec->seed * 2654435761u + 1u;
    for (int i = 0; i < n; i++) {
        double progress = (double)i / n;
        int note = (int)(progress * notes);
        if (note >= notes) note = notes - 1;
        double in_note = progress * notes - note; /* 0..1 through the note */
        double f;
        if (spec->note_count > 0)
            f = spec->notes[note];
        else
            f = spec->freq * pow(spec->to / spec->freq, progress);
        phase += f / SOUND_RATE;
        bool wrapped = phase >= 1.0;
        phase -= floor(phase);
        double v;
        switch (spec->wave) {
        case SOUND_SINE: v = sin(2.0 * PI * phase); break;
        case SOUND_SQUARE: v = phase < 0.5 ? 0.6 : -0.6; break; /* (as loud to the ear as a sine) */
        case SOUND_TRIANGLE: v = 1.0 - 4.0 * fabs(phase - 0.5); break;
        case SOUND_SAW: v = 0.7 * (2.0 * phase - 1.0); break;
        default: /* noise: a new random level each period of f, so its pitch colours it */
            if (wrapped || i == 0) {
                state = state * 1664525u + 1013904223u;
                held = (double)(state >> 8) / 8388608.0 - 1.0;
            }
            v = held;
            break;
        }
        /* each note rises over the attack, then fades: to nothing at the end of the last */
        double t_note = in_note * spec->duration / notes, note_len = spec->duration / notes;
        double env = t_note < attack ? t_note / attack : 1.0;
        double fade_from = attack < note_len ? attack : note_len;
        double fade = (t_note - fade_from) / (note_len - fade_from > 1e-9 ? note_len - fade_from : 1e-9);
        if (fade < 0.0) fade = 0.0;
        env *= note == notes - 1 ? 1.0 - fade : 1.0 - 0.6 * fade;
        out[i] = (float)(spec->volume * env * v);
    }
}

struct Sound {
    SDL_AudioDeviceID device;
    bool paced_by_steps, muted;
    double owed;             ///< samples due but not yet queued (a fraction of one), paced by steps
    unsigned long long head; ///< the next sample to queue, counted from the start
    long long plays, queued;
    char driver[32];
    float ring[RING_SIZE];
};

Sound *sound_open(bool paced_by_steps, char *error, size_t error_size)
{
    if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0) {
        snprintf(error, error_size, "no sound: %s", SDL_GetError());
        return NULL;
    }
    SDL_AudioSpec want = {0}, have;
    want.freq = SOUND_RATE;
    want.format = AUDIO_S16SYS;
    want.channels = 1;
    want.samples = 512;
    SDL_AudioDeviceID device = SDL_OpenAudioDevice(NULL, 0, &want, &have, 0); /* (SDL converts to the device's) */
    if (!device) {
        snprintf(error, error_size, "no sound: %s", SDL_GetError());
        SDL_QuitSubSystem(SDL_INIT_AUDIO);
        return NULL;
    }
    Sound *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(error, error_size, "no sound: out of memory");
        SDL_CloseAudioDevice(device);
        SDL_QuitSubSystem(SDL_INIT_AUDIO);
        return NULL;
    }
    s->device = device;
    s->paced_by_steps = paced_by_steps;
    const char *driver = SDL_GetCurrentAudioDriver();
    snprintf(s->driver, sizeof s->driver, "%s", driver ? driver : "?");
    SDL_PauseAudioDevice(device, 0);
    return s;
}

void sound_drain(Sound *s, double max_wait_s)
{
    if (!s) return;
    for (double waited = 0.0; waited < max_wait_s && SDL_GetQueuedAudioSize(s->device) > 0; waited += 0.01)
        SDL_Delay(10);
}

void sound_close(Sound *s)
{
    if (!s) return;
    SDL_CloseAudioDevice(s->device);
    SDL_QuitSubSystem(SDL_INIT_AUDIO);
    free(s);
}

void sound_play(Sound *s, const float *samples, int count, float volume)
{
    if (!s || s->muted || count <= 0) return;
    if (count > (int)RING_SIZE / 2) count = (int)RING_SIZE / 2;
    for (int i = 0; i < count; i++) s->ring[(s->head + (unsigned)i) & RING_MASK] += volume * samples[i];
    s->plays++;
}

void sound_pump(Sound *s, double seconds)
{
    if (!s) return;
    long long due;
    if (s->paced_by_steps) {
        s->owed += seconds * SOUND_RATE;
        due = (long long)s->owed;
        s->owed -= (double)due;
    } else {
        long long queued = (long long)(SDL_GetQueuedAudioSize(s->device) / sizeof(Sint16));
        due = (long long)(AHEAD_S * SOUND_RATE) - queued;
        if (due > (long long)(MAX_PUMP_S * SOUND_RATE)) due = (long long)(MAX_PUMP_S * SOUND_RATE);
    }
    Sint16 chunk[1024];
    while (due > 0) {
        int n = due > 1024 ? 1024 : (int)due;
        for (int i = 0; i < n; i++) {
            float *at = &s->ring[(s->head + (unsigned)i) & RING_MASK];
            float v = *at;
            *at = 0.0f;
            if (v > 1.0f) v = 1.0f; /* several effects at once: clipped, never wrapped round */
            if (v < -1.0f) v = -1.0f;
            chunk[i] = (Sint16)lrintf(v * 32000.0f);
        }
        s->head += (unsigned)n;
        if (SDL_QueueAudio(s->device, chunk, (Uint32)((size_t)n * sizeof chunk[0])) != 0) break;
        s->queued += n;
        due -= n;
    }
}

void sound_set_muted(Sound *s, bool muted)
{
    if (!s) return;
    s->muted = muted;
    if (!muted) return;
    memset(s->ring, 0, sizeof s->ring); /* what was playing stops too */
    SDL_ClearQueuedAudio(s->device);
}

bool sound_muted(const Sound *s) { return !s || s->muted; }
long long sound_plays(const Sound *s) { return s ? s->plays : 0; }
long long sound_samples_queued(const Sound *s) { return s ? s->queued : 0; }
const char *sound_driver(const Sound *s) { return s ? s->driver : ""; }
