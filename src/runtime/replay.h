/* SPDX-License-Identifier: MIT */
/* replay.h - `steer --replay FILE`: reads a recording whole, checks its shape (magic, version,
 * every record complete, every script text against its sum, the end record there), then plays it
 * back: the scene and modules from the recorded texts (none of the original files is opened), the
 * inputs, reloads and restarts at the recorded steps and frames, the recorded wall-clock values,
 * and at every checksum record compares the world's sums with the recording's. The first
 * difference stops the replay with the step and the first vehicle that differs. docs/replay.md. */
#ifndef STEER_RUNTIME_REPLAY_H
#define STEER_RUNTIME_REPLAY_H

#include <stddef.h>

#include "app.h"
#include "tape_format.h"

typedef struct Player Player;

/// Exit status of a replay that diverged from its recording.
#define REPLAY_DIVERGED_STATUS 6

/// Reads and checks `path`; NULL with a one-line reason (cannot read it, not a replay file,
/// another format version, truncated, corrupt) in `error`.
Player *replay_open(const char *path, char *error, size_t error_size);
void replay_close(Player *p);
const TapeHeader *replay_header(const Player *p);
/// The scene's `arg` as recorded: args[0] is arg[0], then the words; 0 when the recording has none.
int replay_args(const Player *p, const char *const **args);
/// Bytes the records of `type` take in the file (for the size figures); its name ("checksum").
size_t replay_bytes_of(const Player *p, TapeRecord type);
const char *replay_record_name(TapeRecord type);
/// The tape the script host loads texts and reads the clock through.
const ScriptTape *replay_tape(Player *p);

/// A player over a recording kept in memory (`len` bytes from its header on, no end record; it
/// holds `steps` steps): copies them, checks them as replay_open does. NULL with the reason. It
/// warns of nothing on stderr: it replays, for the rewind, what the live run said once already.
Player *replay_open_bytes(const unsigned char *data, size_t len, long long steps, char *error, size_t error_size);
/// A player over a longer copy of the recording `old` plays (the same bytes up to its cursor, then
/// more), with its cursor where old's is: the host playing through old goes on through it (give
/// the host the new tape). NULL with the reason.
Player *replay_reopen(const Player *old, const unsigned char *data, size_t len, long long steps, char *error,
                      size_t error_size);
/// Plays records into the session `s`, headless (draws call the scene's draw with nothing to draw
/// on; inputs go through its door, session_input), until s->steps reaches `step`, then that step's
/// checksum record when it comes next; every checksum on the way is compared. True when the step
/// was reached with every checksum matching.
bool replay_play_to(Session *s, Player *p, long long step);
/// Where the cursor is: the byte after the last record played.
size_t replay_position(const Player *p);
/// Why the replay diverged, or NULL.
const char *replay_divergence(const Player *p);

/// Plays the records into an app made with replay_tape and the header's options (main.c). Returns
/// 0 when every checksum matched to the end, REPLAY_DIVERGED_STATUS at the first difference (the
/// message on stderr).
int replay_run(App *app, Player *p);

#endif
