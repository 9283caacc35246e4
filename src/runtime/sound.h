/* SPDX-License-Identifier: MIT */
/* sound.h - the program's sound: short effects synthesised from a few numbers (a wave, a pitch
 * that may slide or step through notes, an attack and a fade), mixed and queued to SDL's audio.
 * The synthesis knows nothing of SDL; the mixer opens the audio subsystem only when sound is on
 * (the shell decides: app.c). Effects are mixed as they are played into a ring of samples ahead of
 * what was queued, so nothing refers to a scene's data after the call. */
#ifndef STEER_RUNTIME_SOUND_H
#define STEER_RUNTIME_SOUND_H

#include <stdbool.h>
#include <stddef.h>

/// Samples per second of every effect and of the device.
#define SOUND_RATE 22050
/// The longest effect, seconds.
#define SOUND_MAX_SECONDS 2.0
/// The most notes one effect steps through.
#define SOUND_MAX_NOTES 8

typedef enum SoundWave { SOUND_SINE, SOUND_SQUARE, SOUND_TRIANGLE, SOUND_SAW, SOUND_NOISE } SoundWave;

/// What an effect is made of (steer.sound.new's options: docs/lua-api.md#sound).
typedef struct SoundSpec {
    SoundWave wave;
    double freq;                   ///< Hz at the start (of each note, with notes)
    double to;                     ///< Hz at the end: the pitch slides there (exponentially); = freq for none
    double duration;               ///< seconds
    double volume;                 ///< 0..1
    double attack;                 ///< seconds to full volume; then it fades out linearly to the end
    double notes[SOUND_MAX_NOTES]; ///< note_count > 0: the effect steps through these pitches (Hz), in equal parts
    int note_count;
    unsigned seed; ///< noise's own generator, so an effect is the same every time it is made
} SoundSpec;

/// The wave's name ("sine", "square", "triangle", "saw", "noise"); false when unknown.
bool sound_wave_from_name(const char *name, SoundWave *out);
/// Samples of an effect: duration * SOUND_RATE, rounded.
int sound_sample_count(const SoundSpec *spec);
/// Writes the effect's sound_sample_count samples, each in -1..1, into `out`.
void sound_synth(const SoundSpec *spec, float *out);

typedef struct Sound Sound;

/// Opens SDL's audio subsystem and its default device (SDL_AUDIODRIVER chooses: the tests ask for
/// dummy or disk). `paced_by_steps`: the samples are queued as simulated time passes (headless),
/// not kept a few frames ahead of the device (a window). NULL with `error` filled when it cannot.
Sound *sound_open(bool paced_by_steps, char *error, size_t error_size);
/// Waits (at most `max_wait_s`) for what was queued to be played (a headless run's end: the disk
/// writer then has it all). NULL is fine.
void sound_drain(Sound *sound, double max_wait_s);
/// Closes the device and the subsystem, dropping what was queued. NULL is fine.
void sound_close(Sound *sound);
/// Mixes `count` samples in at the next sample to be queued, times `volume`. Nothing while muted.
void sound_play(Sound *sound, const float *samples, int count, float volume);
/// Queues what is due: `seconds` of samples when paced by steps, else enough to keep about 60 ms
/// ahead of the device.
void sound_pump(Sound *sound, double seconds);
void sound_set_muted(Sound *sound, bool muted);
bool sound_muted(const Sound *sound);
/// Effects played (while not muted) and samples queued so far, and the driver's name.
long long sound_plays(const Sound *sound);
long long sound_samples_queued(const Sound *sound);
const char *sound_driver(const Sound *sound);

#endif
