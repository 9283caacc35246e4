/* SPDX-License-Identifier: MIT */
/* replay.c - plays a replay file back and checks it. See replay.h and docs/replay.md. */
#include "replay.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lua.h>

#include "guard.h"
#include "regular_file.h"
#include "steer_lua.h"

/* A FILE record: its strings copied out (NUL-terminated), the text left in the file's bytes. */
typedef struct TapeFile {
    char *path, *module;
    const char *text;
    size_t len;
} TapeFile;

struct Player {
    unsigned char *data;
    size_t len;
    char name[4096];
    TapeHeader header;
    TapeFile *files;
    int file_count;
    TapeReader r;            ///< the playing cursor
    long long steps_seen;    ///< STEP records played
    int checks;              ///< checksums compared
    int files_played;        ///< FILE records the cursor has passed
    uint64_t check_vehicles; ///< vehicles in the last checksum record read (records may refer to it)
    uint64_t *serials;       ///< the last checksum record's vehicles, as the playing cursor read them
    unsigned char *kinds;
    uint64_t serial_count;
    bool camera_seen;          ///< (while checking) a CAMERA record came before
    SteerCamera camera;        ///< the recording's camera (CAMERA records), for its MOTION_SCREEN records
    int64_t sx, sy;            ///< the recording's pointer in pixels
    size_t bytes_by_type[256]; ///< what each kind of record takes in the file
    char *diverged;            ///< why the replay stopped early, or NULL
    char first_outside[512];   ///< the recording's first reach outside the run, for the message
    char **warned;             ///< the replay's own reaches outside the run, warned once each
    int warned_count;
    bool quiet; ///< a rewind's replay of the recording in memory: warns of nothing (the live run did)
    SteerVehicleId *ids;
    int id_capacity;
    ScriptTape tape;
    char **args; ///< the recording's `arg` (TAPE_ARGS): arg[0], then the words; NULL when it has none
    int arg_count;
    /// A recording that ends without its end record (a run that crashed, was killed or filled its
    /// disk): bytes up to its last complete step and their steps, for replay_open to replay those.
    size_t cut_len;
    long long cut_steps;
};

static const char *record_name(int type) { return tape_record_name(type); }

/* Checks a record of a fixed layout whose fields `v` were read: what its values must be. */
static bool check_fields(Player *p, TapeReader *r, int type, const TapeValue *v, size_t at, bool collect, char *error,
                         size_t error_size)
{
    switch (type) {
    case TAPE_CAMERA: /* a camera the player divides by: a positive zoom, finite numbers */
        if (!isfinite(v[0].d) || !isfinite(v[1].d) || !(v[2].d > 0.0 && v[2].d < 1e12) || v[3].u > 16384 ||
            v[4].u > 16384) {
            r->bad = true;
            return false;
        }
        p->camera_seen = true;
        return true;
    case TAPE_FILE_AGAIN:
        if (v[0].u >= (uint64_t)p->file_count) {
            snprintf(error, error_size, "corrupt: a script text record refers to text %llu of %d",
                     (unsigned long long)v[0].u, p->file_count);
            return false;
        }
        return true;
    case TAPE_FILE: {
        if (tape_text_sum(v[2].s, v[2].len) != v[3].u) {
            snprintf(error, error_size, "corrupt: the recorded text of %.*s (at byte %zu) does not match its checksum",
                     (int)(v[0].len > 300 ? 300 : v[0].len), v[0].s, at);
            return false;
        }
        if (!collect) return true;
        TapeFile *grown = realloc(p->files, (size_t)(p->file_count + 1) * sizeof *grown);
        if (!grown) {
            snprintf(error, error_size, "out of memory");
            return false;
        }
        p->files = grown;
        TapeFile *f = &p->files[p->file_count++];
        f->path = strndup(v[0].s, v[0].len);
        f->module = strndup(v[1].s, v[1].len);
        f->text = v[2].s;
        f->len = v[2].len;
        if (!f->path || !f->module) {
            snprintf(error, error_size, "out of memory");
            return false;
        }
        return true;
    }
    default: return true;
    }
}

/* Skips (checks) one record's fields after its type byte; files are collected on the first pass.
 * A record of a fixed layout is read by its layout (TAPE_RECORDS); the others by their own code. */
static bool skip_fields(Player *p, TapeReader *r, int type, bool collect, char *error, size_t error_size)
{
    const char *s;
    size_t n;
    uint64_t v;
    unsigned char byte;
    const char *layout = tape_record_layout(type);
    if (!layout) return false;
    if (layout[0] != '*') {
        if (type == TAPE_MOTION_SCREEN && !p->camera_seen) { /* the recorder writes the camera first */
            snprintf(error, error_size, "corrupt: a pointer motion in pixels before any camera record");
            return false;
        }
        size_t at = r->pos;
        TapeValue fields[TAPE_MAX_FIELDS];
        return tape_get_fields(r, layout, fields) && check_fields(p, r, type, fields, at, collect, error, error_size);
    }
    switch (type) {
    case TAPE_ARGS: {
        uint64_t count;
        if (!tape_get_varint(r, &count)) return false;
        if (count == 0 || count > r->len - r->pos) { /* arg[0] at least; each word takes a byte or more */
            r->bad = true;
            r->ended = count > r->len - r->pos;
            return false;
        }
        if (collect && p->args) {
            snprintf(error, error_size, "corrupt: a second record of the scene's words");
            return false;
        }
        if (collect && !(p->args = calloc((size_t)count, sizeof *p->args))) {
            snprintf(error, error_size, "out of memory");
            return false;
        }
        for (uint64_t i = 0; i < count; i++) {
            if (!tape_get_string(r, &s, &n)) return false;
            if (collect && !(p->args[p->arg_count++] = strndup(s, n))) {
                snprintf(error, error_size, "out of memory");
                return false;
            }
        }
        return true;
    }
    case TAPE_VIEW:
        if (!tape_get_byte(r, &byte) || !tape_get_varint(r, &v)) return false;
        return byte != TAPE_VIEW_RESIZE || tape_get_varint(r, &v);
    case TAPE_ENV:
        if (!tape_get_string(r, &s, &n) || !tape_get_byte(r, &byte)) return false;
        if (byte > 1) break; /* malformed */
        return byte == 0 || tape_get_string(r, &s, &n);
    case TAPE_INPUT:
        if (!tape_get_string(r, &s, &n) || !tape_get_byte(r, &byte)) return false;
        switch (byte) {
        case SCRIPT_FILE_FAILED: return tape_get_string(r, &s, &n) && tape_get_varint(r, &v);
        case SCRIPT_FILE_READ: return tape_get_string(r, &s, &n);
        case SCRIPT_FILE_UNCAPTURED:
        case SCRIPT_FILE_WRITTEN: return true;
        default: break; /* malformed */
        }
        break;
    case TAPE_CHECK: {
        uint64_t count, sum;
        if (!tape_get_varint(r, &v) || !tape_get_u64(r, &sum) || !tape_get_varint(r, &count)) return false;
        bool same = count & 1; /* the same vehicles as the last checksum record: only their sums */
        count >>= 1;
        if (same && count != p->check_vehicles) {
            snprintf(error, error_size, "corrupt: a checksum record of %llu vehicles refers to the previous one's %llu",
                     (unsigned long long)count, (unsigned long long)p->check_vehicles);
            return false;
        }
        if (count > r->len - r->pos) { /* each vehicle takes at least four bytes */
            r->ended = true;
            r->bad = true;
            return false;
        }
        for (uint64_t i = 0; i < count; i++) {
            uint32_t vehicle_sum;
            if (!same && (!tape_get_varint(r, &v) || !tape_get_byte(r, &byte))) return false;
            if (!tape_get_u32(r, &vehicle_sum)) return false;
        }
        p->check_vehicles = count;
        return true;
    }
    default: return false;
    }
    r->bad = true; /* (the cases that break: a field out of its range) */
    return false;
}

/* The first pass: every record whole and known, every text matching its sum, the end record last. */
static bool check_records(Player *p, char *error, size_t error_size)
{
    TapeReader r = p->r;
    long long steps = 0;
    p->cut_len = 0;
    size_t complete = r.pos; /* the end of the last complete step (or of the header) */
    while (r.pos < r.len) {
        size_t at = r.pos;
        unsigned char type;
        tape_get_byte(&r, &type);
        if (!record_name(type)) {
            snprintf(error, error_size, "corrupt: unknown record type 0x%02x at byte %zu (after step %lld)", type, at,
                     steps);
            return false;
        }
        error[0] = '\0';
        if (!skip_fields(p, &r, type, true, error, error_size)) {
            if (error[0]) return false;
            snprintf(error, error_size, "%s: the %s record at byte %zu %s (after step %lld)",
                     r.ended ? "truncated" : "corrupt", record_name(type), at,
                     r.ended ? "is cut off: the file ends inside it" : "is malformed", steps);
            if (r.ended) p->cut_len = complete, p->cut_steps = steps;
            return false;
        }
        p->bytes_by_type[type] += r.pos - at;
        if (type == TAPE_STEP) {
            steps++;
            complete = r.pos;
        }
        if (type == TAPE_END) {
            if (r.pos != r.len) {
                snprintf(error, error_size, "corrupt: %zu bytes after the end record (at byte %zu)", r.len - r.pos, at);
                return false;
            }
            return true;
        }
    }
    snprintf(error, error_size,
             "truncated: the file ends after step %lld without its end record (the recording was "
             "cut off)",
             steps);
    p->cut_len = complete;
    p->cut_steps = steps;
    return false;
}

/* ---- The tape the script host reads through --------------------------------------------------- */

static void diverge(Player *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void diverge(Player *p, const char *fmt, ...)
{
    if (p->diverged) return; /* the first difference is the one that matters */
    char text[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    p->diverged = strdup(text);
    if (!p->diverged) p->diverged = strdup("the replay diverged");
}

/* The FILE or FILE_AGAIN record at the cursor, without moving it; NULL when the next is another. */
static const TapeFile *peek_file(Player *p, size_t *after)
{
    TapeReader r = p->r;
    unsigned char type;
    if (!tape_get_byte(&r, &type)) return NULL;
    uint64_t index;
    if (type == TAPE_FILE_AGAIN) {
        if (!tape_get_varint(&r, &index)) return NULL;
    } else if (type == TAPE_FILE) {
        char err[64];
        index = (uint64_t)p->files_played; /* FILE records are numbered in their order */
        if (!skip_fields(p, &r, type, false, err, sizeof err)) return NULL;
    } else {
        return NULL;
    }
    if (index >= (uint64_t)p->file_count) return NULL;
    *after = r.pos;
    return &p->files[index];
}

static bool tape_read(void *ctx, const char *path, const char **text, size_t *len)
{
    Player *p = ctx;
    size_t after;
    const TapeFile *f = peek_file(p, &after);
    if (!f || strcmp(f->path, path) != 0) {
        diverge(p, "at step %lld the scripts loaded %s, where the recording %s%s", p->steps_seen, path,
                f ? "loaded " : "loaded no file", f ? f->path : "");
        return false;
    }
    if (p->data[p->r.pos] == TAPE_FILE) p->files_played++;
    p->r.pos = after;
    *text = f->text;
    *len = f->len;
    return true;
}

static const char *tape_find(void *ctx, const char *module)
{
    Player *p = ctx;
    size_t after;
    const TapeFile *f = peek_file(p, &after);
    return f && !strcmp(f->module, module) ? f->path : NULL;
}

static const char *const CLOCK_NAMES[] = {"os.time", "os.clock"};

static double tape_clock(void *ctx, int which, double value)
{
    Player *p = ctx;
    TapeReader r = p->r;
    unsigned char type = 0, recorded = 0;
    double v;
    if (tape_get_byte(&r, &type) && type == TAPE_CLOCK && tape_get_byte(&r, &recorded) && recorded == which &&
        tape_get_double(&r, &v)) {
        p->r.pos = r.pos;
        return v;
    }
    diverge(p, "at step %lld a script read the wall clock (%s) where the recording did not", p->steps_seen,
            CLOCK_NAMES[which & 1]);
    return value;
}

/// Whether `key` (a warning and its place) is new to this replay, which then remembers it: each
/// warning is said once (with no memory to remember it, it may go unsaid or be said again).
static bool first_warning(Player *p, const char *key)
{
    for (int i = 0; i < p->warned_count; i++)
        if (!strcmp(p->warned[i], key)) return false;
    char **grown = realloc(p->warned, (size_t)(p->warned_count + 1) * sizeof *grown);
    if (!grown) return false;
    p->warned = grown;
    p->warned[p->warned_count] = strdup(key);
    if (p->warned[p->warned_count]) p->warned_count++;
    return true;
}

static void tape_outside(void *ctx, const char *what, const char *where)
{
    Player *p = ctx;
    char key[512];
    snprintf(key, sizeof key, "%s\t%s", what, where);
    if (!first_warning(p, key)) return;
    if (!p->quiet)
        fprintf(stderr,
                "steer: replay: %s%s at step %lld reads outside the recording (a file or the environment): the "
                "replay may diverge\n",
                where, what, p->steps_seen);
}

/* A recorded script acts on this machine (os.execute, os.remove, ...): a recording is a program.
 * Said once per function and place, unless quiet (the rewind's replays: the run is the user's). */
static void tape_acts(void *ctx, const char *what, const char *where)
{
    Player *p = ctx;
    if (p->quiet) return;
    char key[512];
    snprintf(key, sizeof key, "acts\t%s\t%s", what, where);
    if (!first_warning(p, key)) return;
    size_t where_len = strlen(where);
    while (where_len > 0 && (where[where_len - 1] == ' ' || where[where_len - 1] == ':')) where_len--;
    fprintf(stderr,
            "steer: warning: the recorded scripts run %s (%.*s, step %lld) on this machine: a recording runs "
            "the code it holds; replay only files from someone you trust\n",
            what, (int)where_len, where, p->steps_seen);
}

/* The record at the cursor when it is a `type` record whose first field is the string `name`:
 * true with a reader just past that string (the cursor itself does not move). */
static bool peek_named(const Player *p, TapeRecord type, const char *name, TapeReader *r)
{
    *r = p->r;
    unsigned char t;
    const char *s;
    size_t n;
    return tape_get_byte(r, &t) && t == type && tape_get_string(r, &s, &n) && n == strlen(name) &&
           memcmp(s, name, n) == 0;
}

static bool tape_env(void *ctx, const char *name, const char **value, size_t *len)
{
    Player *p = ctx;
    TapeReader r;
    unsigned char set;
    if (!peek_named(p, TAPE_ENV, name, &r) || !tape_get_byte(&r, &set) || (set && !tape_get_string(&r, value, len))) {
        diverge(p, "at step %lld a script read the environment (os.getenv \"%s\") where the recording did not",
                p->steps_seen, name);
        return false;
    }
    if (!set) *value = NULL;
    p->r.pos = r.pos;
    return true;
}

static bool tape_file(void *ctx, const char *path, ScriptFileRead *file)
{
    Player *p = ctx;
    TapeReader r;
    unsigned char outcome;
    bool ok = peek_named(p, TAPE_INPUT, path, &r) && tape_get_byte(&r, &outcome);
    memset(file, 0, sizeof *file);
    if (ok && outcome == SCRIPT_FILE_FAILED) {
        uint64_t errnum = 0; /* (read only when the message was) */
        ok = tape_get_string(&r, &file->message, &file->message_len) && tape_get_varint(&r, &errnum);
        file->errnum = (int)(errnum & 0x7fffffff);
    } else if (ok && outcome == SCRIPT_FILE_READ) {
        ok = tape_get_string(&r, &file->text, &file->len);
    }
    if (!ok) {
        diverge(p, "at step %lld a script opened %s where the recording did not", p->steps_seen, path);
        return false;
    }
    file->outcome = (ScriptFileOutcome)outcome;
    p->r.pos = r.pos;
    return true;
}

/* ---- Opening ------------------------------------------------------------------------------------ */

/* (defined below) */
static bool start(Player *p, char *why, size_t why_size);

Player *replay_reopen(const Player *old, const unsigned char *data, size_t len, long long steps, char *error,
                      size_t error_size)
{
    if (old->diverged || old->r.pos > len) {
        snprintf(error, error_size, "the replay cannot go on over this recording");
        return NULL;
    }
    Player *p = replay_open_bytes(data, len, steps, error, error_size);
    if (!p) return NULL;
    /* the cursor and what playing up to it learnt: the same records lie before it */
    p->r.pos = old->r.pos;
    p->steps_seen = old->steps_seen;
    p->checks = old->checks;
    p->files_played = old->files_played;
    p->camera = old->camera;
    p->sx = old->sx;
    p->sy = old->sy;
    memcpy(p->first_outside, old->first_outside, sizeof p->first_outside);
    if (old->serial_count > 0 || old->serials) {
        p->serials = malloc((size_t)(old->serial_count + 1) * sizeof *p->serials);
        p->kinds = malloc((size_t)old->serial_count + 1);
        if (!p->serials || !p->kinds) {
            snprintf(error, error_size, "out of memory");
            replay_close(p);
            return NULL;
        }
        memcpy(p->serials, old->serials, (size_t)old->serial_count * sizeof *p->serials);
        memcpy(p->kinds, old->kinds, (size_t)old->serial_count);
        p->serial_count = old->serial_count;
    }
    return p;
}

/* Reads the header, checks every record and sets the tape up over p->data. */
static bool start(Player *p, char *why, size_t why_size)
{
    p->r = (TapeReader){.data = p->data, .len = p->len};
    if (!tape_get_header(&p->r, &p->header, why, why_size) || !check_records(p, why, why_size)) return false;
    p->camera_seen = false;                                      /* (the check's; playing reads the cameras again) */
    if (p->r.pos < p->r.len && p->data[p->r.pos] == TAPE_ARGS) { /* read by the check: replay_args */
        char unused[64];
        p->r.pos++;
        skip_fields(p, &p->r, TAPE_ARGS, false, unused, sizeof unused);
    }
    p->tape = (ScriptTape){.ctx = p,
                           .read = tape_read,
                           .find = tape_find,
                           .clock = tape_clock,
                           .outside = tape_outside,
                           .acts = tape_acts,
                           .env = tape_env,
                           .file = tape_file};
    return true;
}

/* The recording of a run that crashed, was killed or filled its disk ends without its end record,
 * perhaps inside a record: the run one most wants to replay. `p` failed to start with `why`: a
 * player over its bytes up to the last complete step, with the end record a finished run has, and
 * a warning that says where it ends. */
static Player *replay_open_cut(Player *p, const char *why, char *error, size_t error_size)
{
    char name[sizeof p->name];
    snprintf(name, sizeof name, "%s", p->name);
    size_t len = p->cut_len;
    long long steps = p->cut_steps;
    TapeBuffer b = {0};
    tape_put_bytes(&b, p->data, len);
    tape_put_byte(&b, TAPE_END);
    tape_put_varint(&b, (uint64_t)steps);
    replay_close(p);
    p = b.failed ? NULL : calloc(1, sizeof *p);
    if (!p) {
        tape_buffer_free(&b);
        snprintf(error, error_size, "option --replay: %s: out of memory", name);
        return NULL;
    }
    snprintf(p->name, sizeof p->name, "%s", name);
    p->data = b.data;
    p->len = b.len;
    char again[1024];
    if (!start(p, again, sizeof again)) { /* (what came before the cut was checked already) */
        snprintf(error, error_size, "option --replay: %s: %s", name, why);
        replay_close(p);
        return NULL;
    }
    fprintf(stderr,
            "steer: warning: %s was cut off (%s): a run that crashed, was killed or filled its disk; it replays up to "
            "step %lld, its last complete step\n",
            name, why, steps);
    return p;
}

Player *replay_open(const char *path, char *error, size_t error_size)
{
    char why[1024];
    Player *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(error, error_size, "option --replay: cannot open %s: out of memory", path);
        return NULL;
    }
    snprintf(p->name, sizeof p->name, "%s", path);
    char *data = regular_file_read(path, REGULAR_FILE_RECORDING_MAX, &p->len, why, sizeof why);
    if (!data) {
        snprintf(error, error_size, "option --replay: cannot open %s: %s", path, why);
        replay_close(p);
        return NULL;
    }
    p->data = (unsigned char *)data;
    if (!start(p, why, sizeof why)) {
        if (p->cut_steps > 0) return replay_open_cut(p, why, error, error_size);
        snprintf(error, error_size, "option --replay: %s: %s", path, why);
        replay_close(p);
        return NULL;
    }
    return p;
}

Player *replay_open_bytes(const unsigned char *data, size_t len, long long steps, char *error, size_t error_size)
{
    Player *p = calloc(1, sizeof *p);
    TapeBuffer b = {0};
    tape_put_bytes(&b, data, len);
    tape_put_byte(&b, TAPE_END);
    tape_put_varint(&b, (uint64_t)(steps < 0 ? 0 : steps));
    if (!p || b.failed) {
        snprintf(error, error_size, "out of memory");
        free(p);
        tape_buffer_free(&b);
        return NULL;
    }
    snprintf(p->name, sizeof p->name, "(the recording in memory)");
    p->quiet = true;
    p->data = b.data;
    p->len = b.len;
    if (!start(p, error, error_size)) {
        replay_close(p);
        return NULL;
    }
    return p;
}

void replay_close(Player *p)
{
    if (!p) return;
    for (int i = 0; i < p->file_count; i++) {
        free(p->files[i].path);
        free(p->files[i].module);
    }
    for (int i = 0; i < p->warned_count; i++) free(p->warned[i]);
    free(p->warned);
    for (int i = 0; i < p->arg_count; i++) free(p->args[i]);
    free(p->args);
    free(p->files);
    free(p->ids);
    free(p->serials);
    free(p->kinds);
    free(p->diverged);
    free(p->data);
    free(p);
}

const TapeHeader *replay_header(const Player *p) { return &p->header; }

int replay_args(const Player *p, const char *const **args)
{
    *args = (const char *const *)p->args;
    return p->arg_count;
}

size_t replay_bytes_of(const Player *p, TapeRecord type) { return p->bytes_by_type[(unsigned char)type]; }

const char *replay_record_name(TapeRecord type) { return record_name((int)type); }

const ScriptTape *replay_tape(Player *p) { return &p->tape; }

/* ---- Playing ------------------------------------------------------------------------------------ */

/* "vehicle #12 (prey)": the kind's name as the scene's world knows it. */
static void vehicle_name(Session *s, uint64_t serial, uint32_t kind, char *out, size_t size)
{
    lua_State *L = script_state(s->host);
    script_push_world(s->host);
    const char *name = steer_lua_kind_name(L, -1, kind);
    snprintf(out, size, "vehicle #%llu (%s)", (unsigned long long)serial, name ? name : "?");
    lua_pop(L, 1);
}

/* Compares the CHECK record at the reader (after its type byte) with the world now. */
static void compare_check(Session *s, Player *p, TapeReader *r)
{
    uint64_t step, sum, count;
    tape_get_varint(r, &step);
    tape_get_u64(r, &sum);
    tape_get_varint(r, &count);
    SteerWorld *world = script_world(s->host);
    int live = steer_world_vehicle_count(world);
    if (live > p->id_capacity) {
        SteerVehicleId *grown = realloc(p->ids, (size_t)live * sizeof *grown);
        if (grown) {
            p->ids = grown;
            p->id_capacity = live;
        }
    }
    live = steer_world_get_vehicles(world, p->ids, live < p->id_capacity ? live : p->id_capacity);
    uint64_t now_sum = steer_world_checksum(world);
    char first[256] = "";
    bool same = count & 1;
    count >>= 1;
    if (!same) { /* this record names its vehicles: keep them for the records that say "the same" */
        uint64_t *serials = realloc(p->serials, (size_t)(count + 1) * sizeof *serials);
        unsigned char *kinds = serials ? realloc(p->kinds, (size_t)count + 1) : NULL;
        if (serials) p->serials = serials;
        if (kinds) p->kinds = kinds;
        if (!serials || !kinds) {
            diverge(p, "out of memory at step %lld", s->steps);
            return;
        }
        p->serial_count = count;
    }
    uint64_t serial = 0;
    int k = 0;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t delta;
        unsigned char kind;
        uint32_t recorded;
        if (!same) {
            tape_get_varint(r, &delta);
            tape_get_byte(r, &kind);
            serial += delta;
            p->serials[i] = serial;
            p->kinds[i] = kind;
        }
        serial = p->serials[i];
        kind = p->kinds[i];
        tape_get_u32(r, &recorded);
        if (first[0]) continue; /* read the rest of the record, the first difference is named */
        SteerVehicleState st = {0};
        if (k < live) steer_vehicle_get(world, p->ids[k], &st);
        char name[128];
        if (k < live && st.serial < serial) { /* one the recording did not have */
            vehicle_name(s, st.serial, st.kind, name, sizeof name);
            snprintf(first, sizeof first, "%s is in the replay but was not in the recording", name);
        } else if (k >= live || st.serial > serial) {
            vehicle_name(s, serial, kind, name, sizeof name);
            snprintf(first, sizeof first, "%s was in the recording but is not in the replay", name);
        } else {
            uint64_t sum_now = steer_vehicle_checksum(world, p->ids[k]);
            if ((uint32_t)(sum_now ^ (sum_now >> 32)) != recorded) {
                vehicle_name(s, serial, st.kind, name, sizeof name);
                snprintf(first, sizeof first, "%s differs (its position is now %.17g, %.17g)", name, st.position.x,
                         st.position.y);
            }
            k++;
        }
    }
    if (!first[0] && k < live) {
        SteerVehicleState st = {0};
        steer_vehicle_get(world, p->ids[k], &st);
        char name[128];
        vehicle_name(s, st.serial, st.kind, name, sizeof name);
        snprintf(first, sizeof first, "%s is in the replay but was not in the recording", name);
    }
    if ((long long)step != s->steps) {
        diverge(p, "the recording's checksum of step %llu came after step %lld of the replay", (unsigned long long)step,
                s->steps);
    } else if (now_sum != sum || first[0]) {
        diverge(p, "at step %lld the world differs from the recording: %s (world checksum %016llx, recorded %016llx)",
                s->steps, first[0] ? first : "every vehicle matches; the random numbers, time or shapes differ",
                (unsigned long long)now_sum, (unsigned long long)sum);
    }
    p->checks++;
}

/* A windowed replay paces itself: each step takes dt of real time (x the viewer's time scale), a
 * frame without steps (the recording was paused) 1/60 s; the viewer may pause and look around. */
static void present(App *app, double *due)
{
    SDL_Event ev;
    while (SDL_PollEvent(&ev)) app_handle_event(app, &ev);
    app_render(app, 1.0);
    SDL_RenderPresent(app->sdl);
    for (;;) {
        while (SDL_PollEvent(&ev)) app_handle_event(app, &ev);
        if (app->quit) return;
        double left = *due - guard_now();
        if (!app->paused && left <= 0) break;
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
        if (app->paused) {
            *due = guard_now();
            app_render(app, 1.0);
            SDL_RenderPresent(app->sdl);
        }
    }
}

/* Where a windowed replay is in its pacing (present). */
typedef struct Pace {
    double due, dt;
    bool stepped;
    App *app; ///< the shell that shows the replay (its window, its time scale); NULL: headless, no shell
} Pace;

/* Plays the record at the cursor; false when there is none left or the end record was played. */
static bool play_record(Session *s, Player *p, Pace *pace)
{
    TapeReader *r = &p->r;
    size_t at = r->pos;
    unsigned char type;
    if (!tape_get_byte(r, &type)) return false;
    /* the fields of a record of a fixed layout, by its layout (checked whole when the file was opened) */
    const char *layout = tape_record_layout(type);
    TapeValue f[TAPE_MAX_FIELDS] = {{0}};
    if (layout && layout[0] != '*') tape_get_fields(r, layout, f);
    uint64_t v;
    unsigned char byte;
    SessionInput in = {.from_tape = true}; /* through the session's door, as live input is */
    switch (type) {
    case TAPE_STEP:
        p->steps_seen++;
        session_step(s);
        if (pace->app) pace->due += pace->dt / app_time_scale(pace->app);
        pace->stepped = true;
        break;
    case TAPE_DRAW:
        if (pace->app && pace->app->window) {
            if (!pace->stepped) pace->due += 1.0 / 60.0;
            present(pace->app, &pace->due);
            pace->dt = steer_world_dt(script_world(s->host));
        } else {
            script_draw(s->host, NULL, pace->app ? pace->app->overlays : 0);
        }
        pace->stepped = false;
        break;
    case TAPE_KEY:
    case TAPE_KEY_RELEASE: {
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(f[0].len < 63 ? f[0].len : 63), f[0].s);
        in.kind = type == TAPE_KEY ? SESSION_KEY_PRESS : SESSION_KEY_RELEASE;
        in.name = key;
        session_input(s, &in);
        break;
    }
    case TAPE_POINTER:
    case TAPE_MOTION:
    case TAPE_PRESS:
    case TAPE_RELEASE:
        in.x = f[0].d;
        in.y = f[1].d;
        in.button = (int)f[2].u; /* (PRESS, RELEASE) */
        in.kind = type == TAPE_POINTER  ? SESSION_POINTER
                  : type == TAPE_MOTION ? SESSION_MOTION
                  : type == TAPE_PRESS  ? SESSION_PRESS
                                        : SESSION_RELEASE;
        session_input(s, &in);
        break;
    case TAPE_CAMERA:
        p->camera.center_x = f[0].d;
        p->camera.center_y = f[1].d;
        p->camera.zoom = f[2].d;
        p->camera.width = (int)f[3].u;
        p->camera.height = (int)f[4].u;
        break;
    case TAPE_MOTION_SCREEN: {
        int64_t dx = f[0].z, dy = f[1].z;
        p->sx = (int64_t)((uint64_t)p->sx + (uint64_t)dx); /* (wraps on a damaged file, never overflows) */
        p->sy = (int64_t)((uint64_t)p->sy + (uint64_t)dy);
        steer_camera_to_world(&p->camera, (double)(int)p->sx, (double)(int)p->sy, &in.x, &in.y);
        in.kind = SESSION_MOTION;
        session_input(s, &in);
        break;
    }
    case TAPE_ARGS: { /* read before the run began (replay_args) */
        char unused[64];
        r->pos = at + 1;
        skip_fields(p, r, type, false, unused, sizeof unused);
        break;
    }
    case TAPE_RELOAD: {
        char *path = strndup(f[0].s, f[0].len);
        in.kind = SESSION_RELOAD;
        in.name = path;
        session_input(s, &in); /* (nothing without memory for the path) */
        free(path);
        break;
    }
    case TAPE_RESTART:
        in.kind = SESSION_RESTART;
        session_input(s, &in);
        break;
    case TAPE_FILE:
    case TAPE_FILE_AGAIN:
        r->pos = at;
        {
            size_t after;
            const TapeFile *file = peek_file(p, &after);
            diverge(p, "at step %lld the recording loaded %s, where the replay loaded nothing", p->steps_seen,
                    file ? file->path : "a script");
        }
        break;
    case TAPE_CLOCK:
        diverge(p, "at step %lld the recording read the wall clock (%s), where the replay did not", p->steps_seen,
                CLOCK_NAMES[f[0].u & 1]);
        break;
    case TAPE_ENV:
    case TAPE_INPUT: {
        const char *str;
        size_t n;
        tape_get_string(r, &str, &n);
        diverge(p, "at step %lld the recording read %s %.*s, where the replay did not", p->steps_seen,
                type == TAPE_ENV ? "the environment variable" : "the file", (int)(n > 300 ? 300 : n), str);
    } break;
    case TAPE_OUTSIDE: /* what, where */
        if (!p->first_outside[0])
            snprintf(p->first_outside, sizeof p->first_outside, "%.*s%.*s at step %lld", (int)f[1].len, f[1].s,
                     (int)f[0].len, f[0].s, p->steps_seen);
        break;
    case TAPE_VIEW:
        tape_get_byte(r, &byte);
        tape_get_varint(r, &v);
        if (byte == TAPE_VIEW_RESIZE) tape_get_varint(r, &v);
        break;
    case TAPE_CHECK: compare_check(s, p, r); break;
    case TAPE_END:
        if ((long long)f[0].u != s->steps)
            diverge(p, "the recording ended after step %llu, the replay after step %lld", (unsigned long long)f[0].u,
                    s->steps);
        return false;
    default: diverge(p, "unknown record at byte %zu", at); break;
    }
    return true;
}

bool replay_play_to(Session *s, Player *p, long long step)
{
    Pace pace = {0};
    while (!p->diverged && s->steps < step && play_record(s, p, &pace)) {
    }
    /* the checksum of the step reached, when the recording has one there */
    if (!p->diverged && s->steps == step && p->r.pos < p->r.len && p->data[p->r.pos] == TAPE_CHECK)
        play_record(s, p, &pace);
    return !p->diverged && s->steps == step;
}

size_t replay_position(const Player *p) { return p->r.pos; }

const char *replay_divergence(const Player *p) { return p->diverged; }

int replay_run(App *app, Player *p)
{
    Pace pace = {.due = guard_now(), .dt = steer_world_dt(script_world(app->session.host)), .app = app};
    bool ended = false;
    while (!p->diverged && !app->quit) {
        size_t at = p->r.pos;
        if (!play_record(&app->session, p, &pace)) {
            ended = at < p->r.len && p->data[at] == TAPE_END;
            break;
        }
    }
    if (p->diverged) {
        fprintf(stderr, "steer: replay of %s diverged: %s\n", p->name, p->diverged);
        if (p->first_outside[0])
            fprintf(stderr,
                    "steer: the recorded scripts read outside the run (files or the environment), which a replay "
                    "cannot repeat: first %s\n",
                    p->first_outside);
        return REPLAY_DIVERGED_STATUS;
    }
    if (ended)
        fprintf(stderr, "steer: replay of %s: %lld steps, %d checksums matched\n", p->name, app->session.steps,
                p->checks);
    return 0;
}
