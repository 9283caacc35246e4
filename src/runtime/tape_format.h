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

/* Every record, once: its name in the enum (TAPE_<id>), its type byte, what messages call it, and
 * the layout of its fields after the type byte, one letter each: s string, d double (f64 bits),
 * v varint, z zigzag varint, b byte, u u64, w u32. The writer (record.c, tape_put_record) and both
 * readers (replay.c: the check of the whole file, then the playing) go by the layout. "*": the
 * fields depend on their own values, read and written by the record's own code (its comment says
 * how). docs/replay.md describes the same. */
#define TAPE_RECORDS(X)                                                                                                \
    X(STEP, 'S', "step", "")                       /* one physics step */                                              \
    X(DRAW, 'D', "draw", "")                       /* one call of the scene's draw (one frame) */                      \
    X(KEY, 'K', "key", "s")                        /* keypressed(key) */                                               \
    X(POINTER, 'P', "pointer", "dd")               /* where steer.mouse() points: x, y (world) */                      \
    X(MOTION, 'M', "mouse motion", "dd")           /* the pointer moved: POINTER then mousemoved(x, y) */              \
    X(MOTION_SCREEN, 'N', "mouse motion (pixels)", /* the pointer moved, in pixels: dx, dy from the last; the */       \
      "zz")                                        /* world point is the last CAMERA's (then as MOTION) */             \
    X(CAMERA, 'W', "camera", "dddvv")              /* the view, for MOTION_SCREEN: centre x, y, zoom, width, height */ \
    X(PRESS, 'B', "mouse press", "ddv")            /* mousepressed(x, y, button) */                                    \
    X(RELOAD, 'R', "reload", "s")                  /* a saved file was reloaded: path (its text follows as a FILE) */  \
    X(RESTART, 'T', "restart", "")                 /* the restart key (or a fixed scene loading) */                    \
    X(FILE, 'F', "script text", "sssu")            /* a script text as loaded: path, module, text, its sum */          \
    X(FILE_AGAIN, 'A', "script text (again)", "v") /* the same path and text as FILE record number v */                \
    X(CLOCK, 'C', "clock", "bd")     /* a script read the wall clock: which (0 os.time, 1 os.clock), value */          \
    X(OUTSIDE, 'O', "outside", "ss") /* a script reached outside the run (a file, the environment): what, where */     \
    X(VIEW, 'V', "view", "*") /* the view changed: u8 what (TapeView), varint value, varint height for a resize */     \
    X(CHECK, 'X', "checksum", "*") /* varint step, u64 sum, varint 2n (+1: the same vehicles as the last), */          \
                                   /* n x (varint serial delta, u8 kind unless the same, u32 sum) */                   \
    X(END, 'E', "end", "v")        /* the recording ended normally: steps */                                           \
    /* Version 2: what a scene needs to be a game's input loop (docs/runtime.md, Scene input). */                      \
    X(KEY_RELEASE, 'k', "key release", "s") /* keyreleased(key) (only after that key's KEY) */                         \
    X(RELEASE, 'u', "mouse release", "ddv") /* the pointer, then mousereleased(x, y, button) */                        \
    X(ARGS, 'w', "scene words", "*")        /* the scene's `arg`, right after the header: varint n, n strings */       \
    /* What scripts read from the machine, given back in a replay (since version 2). */                                \
    X(ENV, 'G', "environment", "*") /* os.getenv(name): str name, u8 set, then str value when set */                   \
    X(INPUT, 'I', "file read", "*") /* a file opened: str path, u8 outcome (ScriptFileOutcome), then */                \
                                    /* 0 failed: str message, varint errno; 1 read: str bytes; 2, 3: nothing */

/// Record types: one byte each, then the record's fields (TAPE_RECORDS).
typedef enum TapeRecord {
#define TAPE_RECORD_ENUM(id, byte, name, layout) TAPE_##id = byte,
    TAPE_RECORDS(TAPE_RECORD_ENUM)
#undef TAPE_RECORD_ENUM
} TapeRecord;

/// The most fields a record of a fixed layout has.
#define TAPE_MAX_FIELDS 5

/// One field's value, by its layout letter: s in s/len, d in d, z in z, the others in u.
typedef struct TapeValue {
    uint64_t u;
    int64_t z;
    double d;
    const char *s; ///< (read: points into the data, not NUL-terminated)
    size_t len;
} TapeValue;

/// What messages call a record of this type ("checksum"); NULL for a type no record has.
const char *tape_record_name(int type);
/// The layout of its fields (TAPE_RECORDS): "" for none, "*" for a record read by its own code;
/// NULL for a type no record has.
const char *tape_record_layout(int type);
/// Writes a record of a fixed layout: its type byte, then values[0..] as its layout says.
void tape_put_record(TapeBuffer *b, TapeRecord type, const TapeValue *values);
/// Reads the fields of a record of a fixed layout (after its type byte) into values[0..]; false
/// when the bytes end first or a field is malformed (TapeReader's bad and ended say which).
bool tape_get_fields(TapeReader *r, const char *layout, TapeValue *values);

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
