/* SPDX-License-Identifier: MIT */
/* tape_format.h - the replay file's bytes (docs/replay.md): the magic, the format version, the
 * record types, and a byte buffer with the few encodings every record uses: unsigned LEB128
 * varints, little-endian 64-bit words (doubles by their bits), length-prefixed strings. Writing
 * appends to a growable buffer; reading checks every length against what is left, so a truncated
 * or corrupt file is an error, never a read past the end. Knows nothing of Lua, SDL or the app. */
#ifndef STEER_RUNTIME_TAPE_FORMAT_H
#define STEER_RUNTIME_TAPE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run_settings.h"

#define TAPE_MAGIC "STEERRPL"
#define TAPE_MAGIC_SIZE 8
/// Version 2: docs/replay.md (version 1 had no key or button releases, no scene words and no reads
/// from the machine). A reader refuses any other version (it cannot know the records).
#define TAPE_VERSION 2
/// Steps between two world checksums.
#define TAPE_CHECK_INTERVAL 60

/// Record types: one byte each, then the record's fields (docs/replay.md lists them).
typedef enum TapeRecord {
    TAPE_STEP = 'S',          ///< one physics step
    TAPE_DRAW = 'D',          ///< one call of the scene's draw (one frame)
    TAPE_KEY = 'K',           ///< keypressed(key): string
    TAPE_POINTER = 'P',       ///< where steer.mouse() points: x, y (world)
    TAPE_MOTION = 'M',        ///< the pointer moved: POINTER then mousemoved(x, y)
    TAPE_MOTION_SCREEN = 'N', ///< the pointer moved, in pixels: zigzag varint dx, dy from the last; the
                              ///< world point is the last CAMERA's (then POINTER + mousemoved as MOTION)
    TAPE_CAMERA = 'W',        ///< the view's camera, for MOTION_SCREEN: f64 centre x, y, zoom, varint width, height
    TAPE_PRESS = 'B',         ///< mousepressed(x, y, button): x, y, varint button
    TAPE_RELOAD = 'R',        ///< a saved file was reloaded: string path (its text follows as a FILE)
    TAPE_RESTART = 'T',       ///< the restart key (or a fixed scene loading): a fresh world and scene
    TAPE_FILE = 'F',          ///< a script text as loaded: path, module, text, 64-bit sum of the text
    TAPE_FILE_AGAIN = 'A',    ///< the same path and text as FILE record number varint
    TAPE_CLOCK = 'C',         ///< a script read the wall clock: u8 which (0 os.time, 1 os.clock), double value
    TAPE_OUTSIDE = 'O',       ///< a script reached outside the run (a file, the environment): what, where
    TAPE_VIEW = 'V',          ///< the view changed: u8 what (TapeView), varint values
    TAPE_CHECK = 'X', ///< world checksum: varint step, u64 sum, varint n, n x (varint serial delta, u8 kind, u32 sum)
    TAPE_END = 'E',   ///< the recording ended normally: varint steps
    /* Version 2: what a scene needs to be a game's input loop (docs/runtime.md, Scene input). */
    TAPE_KEY_RELEASE = 'k', ///< keyreleased(key): string (only after that key's KEY)
    TAPE_RELEASE = 'u',     ///< the pointer, then mousereleased(x, y, button): x, y, varint button
    TAPE_ARGS = 'w',        ///< the scene's command-line words (`arg`), right after the header: varint n, n strings

    /* What scripts read from the machine, given back in a replay (since version 2). */
    TAPE_ENV = 'G',   ///< os.getenv(name): str name, u8 set, then str value when set
    TAPE_INPUT = 'I', ///< a file opened to read or write: str path, u8 outcome (ScriptFileOutcome), then 0
                      ///< failed: str message, varint errno; 1 read: str bytes; 2 not kept, 3 opened to write: nothing
} TapeRecord;

typedef enum TapeView { TAPE_VIEW_PAUSE = 0, TAPE_VIEW_SCALE = 1, TAPE_VIEW_RESIZE = 2 } TapeView;

/// 64-bit FNV-1a of a text: the sum each FILE record carries.
uint64_t tape_text_sum(const char *text, size_t len);

typedef struct TapeBuffer {
    unsigned char *data;
    size_t len, capacity;
    bool failed; ///< out of memory: everything appended after is lost
} TapeBuffer;

void tape_put_byte(TapeBuffer *b, unsigned char byte);
void tape_put_bytes(TapeBuffer *b, const void *bytes, size_t n);
void tape_put_varint(TapeBuffer *b, uint64_t v);
/// A signed value as a zigzag varint (0, -1, 1, -2, ... as 0, 1, 2, 3, ...): small either way.
void tape_put_zigzag(TapeBuffer *b, int64_t v);
void tape_put_u64(TapeBuffer *b, uint64_t v);
void tape_put_u32(TapeBuffer *b, uint32_t v);
void tape_put_double(TapeBuffer *b, double d);
void tape_put_string(TapeBuffer *b, const char *s, size_t len);
void tape_buffer_free(TapeBuffer *b);

/// A cursor over bytes read from a file. Every get returns false (and sets `bad`) when the bytes
/// end first or a varint is malformed; the caller names what it was reading.
typedef struct TapeReader {
    const unsigned char *data;
    size_t len, pos;
    bool bad;
    bool ended; ///< the bytes ended inside what was read (a truncated file), rather than being malformed
} TapeReader;

bool tape_get_byte(TapeReader *r, unsigned char *out);
bool tape_get_varint(TapeReader *r, uint64_t *out);
bool tape_get_zigzag(TapeReader *r, int64_t *out);
bool tape_get_u64(TapeReader *r, uint64_t *out);
bool tape_get_u32(TapeReader *r, uint32_t *out);
bool tape_get_double(TapeReader *r, double *out);
/// A string: points into the data (not NUL-terminated), `len` bytes.
bool tape_get_string(TapeReader *r, const char **out, size_t *len);

/// What the file says before its records: everything that shapes the run besides its inputs.
typedef struct TapeHeader {
    char program[32]; ///< STEER_VERSION of the program that recorded
    char lua[32];     ///< LUA_RELEASE it ran scripts on
    char scene[4096]; ///< the scene's absolute path when recorded (the replay never opens it)
    /// The run's settings, whole (keep_failed 0 or 1: as the recorded run decided). math_seed is
    /// what math.random was seeded with when has_seed is false.
    RunSettings run;
    int width, height;       ///< the view, pixels
    uint32_t check_interval; ///< steps between checksums
} TapeHeader;

/// Magic, version and the header's fields.
void tape_put_header(TapeBuffer *b, const TapeHeader *h);
/// Reads and checks them; false with a one-line reason (not a replay file, another version, cut
/// short) in `error`.
bool tape_get_header(TapeReader *r, TapeHeader *h, char *error, size_t error_size);

#endif
