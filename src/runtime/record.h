/* SPDX-License-Identifier: MIT */
/* record.h - `steer --record FILE`: writes what a run needs to be replayed exactly (docs/replay.md):
 * the header (options, versions), every script text as it was loaded, every input with its place
 * among the steps and frames, each wall-clock value scripts read, and a checksum of the world (with
 * one per vehicle) every TAPE_CHECK_INTERVAL steps. Records go into a buffer that is written out at
 * each checksum and at the end, so a run that is killed leaves a file that says where it stopped.
 * Every function takes NULL (not recording) and then does nothing. */
#ifndef STEER_RUNTIME_RECORD_H
#define STEER_RUNTIME_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include <lua.h>

#include "options.h"
#include "render.h"
#include "script.h"
#include "tape_format.h"

typedef struct Recorder Recorder;

/// Sets up the recording `opt->record` of the run `opt` describes: picks the seed of Lua's
/// math.random when --seed is not given (Lua would seed it from the clock), writes the header,
/// and points opt->recorder and opt->tape at the recording. False with a one-line reason.
bool record_begin(AppOptions *opt, char *error, size_t error_size);

/// The same for a recording kept in memory of at most `cap` bytes (the window's rewind); returns it
/// (the caller points opt->recorder and opt->tape at it), or NULL when out of memory.
Recorder *record_begin_memory(AppOptions *opt, size_t cap);

/// Creates `path` and writes the header; NULL with a one-line reason in `error`.
Recorder *record_open(const char *path, const TapeHeader *header, char *error, size_t error_size);
/// A recording kept in memory (the window's rewind): the header, then records until it holds `cap`
/// bytes (then nothing more: record_full). Pointer motion is written as world points. NULL when
/// out of memory.
Recorder *record_open_memory(const TapeHeader *header, size_t cap);
/// The bytes of a recording kept in memory so far (header and records, no end record).
const unsigned char *record_bytes(const Recorder *r, size_t *len);
/// True once a recording kept in memory reached its cap.
bool record_full(const Recorder *r);
/// Cuts a recording kept in memory back to its first `len` bytes (a record boundary) and forgets
/// what it knew of the records cut, so what it writes next follows on from there (a branch).
void record_truncate(Recorder *r, size_t len);
/// A copy of a recording kept in memory, with what the recorder knows of it (NULL when out of
/// memory): a branch keeps the future it drops this way (rewind.c).
Recorder *record_clone(const Recorder *r);
/// Exchanges two recordings kept in memory, each staying at its address (hosts hold their tapes).
void record_swap(Recorder *a, Recorder *b);
/// The tape the script host records its loads and clock reads through.
const ScriptTape *record_tape(Recorder *r);

void record_step(Recorder *r);
void record_draw(Recorder *r);
void record_key(Recorder *r, const char *key);
/* Version 2's records (tape_format.h): releases, and the scene's words. */
void record_key_release(Recorder *r, const char *key);
void record_release(Recorder *r, double x, double y, int button);
/// The scene's `arg`: arg[0] and the words after `--` (record_begin and record_begin_memory write it
/// after the header).
void record_args(Recorder *r, const char *arg0, const char *const *words, int count);
void record_pointer(Recorder *r, double x, double y);
/// The pointer moved to pixel (sx, sy), which `camera` puts at world (x, y): written as a pixel
/// delta (and the camera when it changed) when the camera gives exactly (x, y), else (or with no
/// camera) as (x, y).
void record_motion(Recorder *r, const SteerCamera *camera, int sx, int sy, double x, double y);
void record_press(Recorder *r, double x, double y, int button);
void record_reload(Recorder *r, const char *path);
void record_restart(Recorder *r);
void record_view(Recorder *r, TapeView what, int a, int b);
/// The world's checksum after `steps` steps, and each vehicle's (serial, kind, sum), then writes
/// the buffer out.
void record_check(Recorder *r, const SteerWorld *world, long long steps);
/// Writes the end record and closes the file (frees a recording in memory); false (reason in
/// `error`) when any write failed.
bool record_close(Recorder *r, long long steps, char *error, size_t error_size);

#endif
