/* SPDX-License-Identifier: MIT */
/* trace.h - `steer --trace out.csv`: one CSV row per vehicle after every physics step (or every
 * K-th, --trace-every K): step, time, id, kind, position, velocity, heading, state, speed, the
 * combined force, one column per behaviour (the magnitude of its force, empty when it is off) and
 * what its senses sense (counts, the closest id, one text column per vehicle naming each sense).
 * The columns and their units are in docs/runtime.md (*Trace export*). Numbers are written with
 * %.17g, so a double read back is the double the world held. Rows go through one buffer made when
 * the file is opened: a step's rows allocate nothing. */
#ifndef STEER_RUNTIME_TRACE_H
#define STEER_RUNTIME_TRACE_H

#include <stdbool.h>
#include <stddef.h>

#include <lua.h>

#include "steer/steer.h"

typedef struct Trace Trace;

/// The columns before the behaviours' (TRACE_FIXED_COLUMNS of them), then "force_<behaviour>" for
/// each behaviour in SteerBehaviour order: the header's words.
#define TRACE_FIXED_COLUMNS 12
extern const char *const TRACE_FIXED_NAMES[TRACE_FIXED_COLUMNS];
/// The columns after the behaviours': what the vehicle's senses sense (docs/runtime.md): how many
/// vehicles they sense now, the id of the closest, how many they remember without sensing now, and
/// per sense `name:count` (with `>id` of its closest), `;` between senses. Empty for a vehicle
/// without senses.
#define TRACE_SENSE_COLUMNS 4
extern const char *const TRACE_SENSE_NAMES[TRACE_SENSE_COLUMNS];

/// Creates (or truncates) `path` and writes the header line; `every` >= 1. NULL with a one-line
/// reason naming --trace in `error` when the file cannot be written.
Trace *trace_open(const char *path, long long every, char *error, size_t error_size);
/// After a physics step of `world` (the steer.World userdata at world_idx of L, whose kind names and
/// v.state it reads without running Lua): when its step count is a multiple of `every`, one row per
/// vehicle in creation order. A write that fails is reported once on stderr; later rows are skipped.
void trace_step(Trace *trace, lua_State *L, int world_idx, const SteerWorld *world);
/// Rows written so far.
long long trace_rows(const Trace *trace);
/// Flushes and closes (NULL is fine). False when any row could not be written, with the reason in
/// `error`, or "" when the reason was said on stderr already (a write that failed during the run:
/// the failure is said once).
bool trace_close(Trace *trace, char *error, size_t error_size);

#endif
