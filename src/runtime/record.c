/* SPDX-License-Identifier: MIT */
/* record.c - writes a replay file. See record.h and docs/replay.md. */
#define _DEFAULT_SOURCE /* realpath */
#include "record.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lua.h>

/* A string field of a record (TapeValue), from a C string. */
#define STR(text)                                                                                                      \
    {                                                                                                                  \
        .s = (text), .len = strlen(text)                                                                               \
    }
/* A button number as its varint (never negative). */
#define BUTTON(b) ((uint64_t)((b) < 0 ? 0 : (b)))

/* A FILE record written before: a later load of the same path with the same text refers to it. */
typedef struct RecordedFile {
    char *path;
    uint64_t sum;
    size_t len;
    size_t at; ///< where its FILE record starts in the recording (a truncation before it forgets it)
} RecordedFile;

/* A reach outside the run noted once, and where (a truncation before it notes it again). */
typedef struct OutsideNote {
    char *key; ///< "what\twhere"
    size_t at;
} OutsideNote;

struct Recorder {
    FILE *f;           ///< NULL for a recording kept in memory (record_open_memory)
    size_t memory_cap; ///< in memory: records stop once the recording holds this many bytes
    bool full;         ///< in memory: the cap was reached; nothing more is recorded
    char path[4096];
    TapeBuffer buf;
    bool write_failed;
    char write_error[4400];
    ScriptTape tape;
    RecordedFile *files;
    int file_count, file_capacity;
    OutsideNote *outside; ///< reaches already noted (each is noted once)
    int outside_count, outside_capacity;
    SteerVehicleId *ids; ///< scratch for the checksums, grown with the world
    int id_capacity;
    /* The vehicles (serial, kind) of the last checksum record: when the next has the same, it
     * writes only their sums (vehicles come and go far less often than every second). */
    uint64_t *serials, *last_serials;
    unsigned char *kinds, *last_kinds;
    int serial_capacity, last_count;
    size_t last_check_at; ///< where the last checksum record starts (those vehicles are "the same" after it)
    /* The pointer in pixels and the camera as last written (MOTION_SCREEN records build on them). */
    SteerCamera camera;
    bool camera_written;
    int last_sx, last_sy;
};

static void flush(Recorder *r)
{
    if (r->buf.failed && !r->write_failed) {
        r->write_failed = true;
        snprintf(r->write_error, sizeof r->write_error, "out of memory while recording");
    }
    if (!r->f) return; /* in memory: the buffer is the recording */
    if (r->buf.len > 0 && !r->write_failed) {
        if (fwrite(r->buf.data, 1, r->buf.len, r->f) != r->buf.len || fflush(r->f) != 0) {
            r->write_failed = true;
            snprintf(r->write_error, sizeof r->write_error, "cannot write %s: %s", r->path, strerror(errno));
        }
    }
    r->buf.len = 0;
}

static bool grow(void **items, int *capacity, int need, size_t size)
{
    if (need <= *capacity) return true;
    int cap = *capacity ? *capacity * 2 : 16;
    while (cap < need) cap *= 2;
    void *grown = realloc(*items, (size_t)cap * size);
    if (!grown) return false;
    *items = grown;
    *capacity = cap;
    return true;
}

/* Whether records go in: a recording kept in memory stops at its cap, between two records, so
 * what it holds always parses (and the run goes on unrecorded). */
static bool on(Recorder *r)
{
    if (!r || r->full) return false;
    if (!r->f && r->buf.len >= r->memory_cap) r->full = true;
    return !r->full && !r->buf.failed;
}

static void tape_loaded(void *ctx, const char *path, const char *module, const char *text, size_t len)
{
    Recorder *r = ctx;
    if (!on(r)) return;
    uint64_t sum = tape_text_sum(text, len);
    for (int i = 0; i < r->file_count; i++) {
        if (r->files[i].sum == sum && r->files[i].len == len && !strcmp(r->files[i].path, path)) {
            tape_put_record(&r->buf, TAPE_FILE_AGAIN, (TapeValue[]){{.u = (uint64_t)i}});
            return;
        }
    }
    size_t at = r->buf.len;
    tape_put_record(&r->buf, TAPE_FILE, (TapeValue[]){STR(path), STR(module), {.s = text, .len = len}, {.u = sum}});
    char *copy = strdup(path);
    if (copy && grow((void **)&r->files, &r->file_capacity, r->file_count + 1, sizeof *r->files))
        r->files[r->file_count++] = (RecordedFile){copy, sum, len, at};
    else
        free(copy); /* (only the sharing of a later identical text is lost) */
}

static double tape_clock(void *ctx, int which, double value)
{
    Recorder *r = ctx;
    if (!on(r)) return value;
    tape_put_record(&r->buf, TAPE_CLOCK, (TapeValue[]){{.u = (uint64_t)(which & 0xff)}, {.d = value}});
    return value;
}

static void tape_outside(void *ctx, const char *what, const char *where)
{
    Recorder *r = ctx;
    if (!on(r)) return;
    char key[512];
    snprintf(key, sizeof key, "%s\t%s", what, where);
    for (int i = 0; i < r->outside_count; i++)
        if (!strcmp(r->outside[i].key, key)) return;
    char *copy = strdup(key);
    if (!copy || !grow((void **)&r->outside, &r->outside_capacity, r->outside_count + 1, sizeof *r->outside)) {
        free(copy);
        return;
    }
    r->outside[r->outside_count++] = (OutsideNote){copy, r->buf.len};
    tape_put_record(&r->buf, TAPE_OUTSIDE, (TapeValue[]){STR(what), STR(where)});
}

/* ---- What scripts read from the machine: kept whole, given back in a replay --------------------- */

static bool tape_env(void *ctx, const char *name, const char **value, size_t *len)
{
    Recorder *r = ctx;
    if (!on(r)) return true;
    tape_put_byte(&r->buf, TAPE_ENV);
    tape_put_string(&r->buf, name, strlen(name));
    tape_put_byte(&r->buf, *value ? 1 : 0);
    if (*value) tape_put_string(&r->buf, *value, *len);
    return true;
}

static bool tape_file(void *ctx, const char *path, ScriptFileRead *file)
{
    Recorder *r = ctx;
    if (!on(r)) return true;
    tape_put_byte(&r->buf, TAPE_INPUT);
    tape_put_string(&r->buf, path, strlen(path));
    tape_put_byte(&r->buf, (unsigned char)file->outcome);
    if (file->outcome == SCRIPT_FILE_FAILED) {
        tape_put_string(&r->buf, file->message, file->message_len);
        tape_put_varint(&r->buf, (uint64_t)(file->errnum < 0 ? 0 : file->errnum));
    } else if (file->outcome == SCRIPT_FILE_READ) {
        tape_put_string(&r->buf, file->text, file->len);
    }
    return true;
}

static ScriptTape recording_tape(Recorder *r)
{
    return (ScriptTape){.ctx = r,
                        .loaded = tape_loaded,
                        .clock = tape_clock,
                        .outside = tape_outside,
                        .env = tape_env,
                        .file = tape_file};
}

Recorder *record_open(const char *path, const TapeHeader *header, char *error, size_t error_size)
{
    Recorder *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(error, error_size, "option --record: out of memory");
        return NULL;
    }
    r->f = fopen(path, "wb");
    if (!r->f) {
        snprintf(error, error_size, "option --record: cannot create %s: %s", path, strerror(errno));
        free(r);
        return NULL;
    }
    snprintf(r->path, sizeof r->path, "%s", path);
    r->last_count = -1;
    r->tape = recording_tape(r);
    tape_put_header(&r->buf, header);
    flush(r);
    return r;
}

Recorder *record_open_memory(const TapeHeader *header, size_t cap)
{
    Recorder *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    snprintf(r->path, sizeof r->path, "(memory)");
    r->memory_cap = cap;
    r->last_count = -1;
    r->tape = recording_tape(r);
    tape_put_header(&r->buf, header);
    if (r->buf.failed) {
        record_close(r, 0, NULL, 0);
        return NULL;
    }
    return r;
}

const unsigned char *record_bytes(const Recorder *r, size_t *len)
{
    *len = r->buf.len;
    return r->buf.data;
}

bool record_full(const Recorder *r) { return r && r->full; }

void record_truncate(Recorder *r, size_t len)
{
    if (!r || r->f || len > r->buf.len) return;
    r->buf.len = len;
    r->full = false;
    /* what the recorder remembers of records now cut: texts to refer back to, reaches noted, the
     * vehicles of the last checksum (the next one names its vehicles again) */
    while (r->file_count > 0 && r->files[r->file_count - 1].at >= len) free(r->files[--r->file_count].path);
    int kept = 0;
    for (int i = 0; i < r->outside_count; i++) {
        if (r->outside[i].at < len)
            r->outside[kept++] = r->outside[i];
        else
            free(r->outside[i].key);
    }
    r->outside_count = kept;
    if (r->last_check_at >= len) r->last_count = -1;
}

static void *copy_of(const void *from, size_t size)
{
    if (!from || size == 0) return NULL;
    void *to = malloc(size);
    if (to) memcpy(to, from, size);
    return to;
}

Recorder *record_clone(const Recorder *r)
{
    if (!r || r->f) return NULL;
    Recorder *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    *c = *r;
    c->tape.ctx = c;
    c->ids = NULL; /* (scratch, grown again when needed) */
    c->id_capacity = 0;
    c->buf = (TapeBuffer){0};
    tape_put_bytes(&c->buf, r->buf.data, r->buf.len);
    c->files = copy_of(r->files, (size_t)r->file_capacity * sizeof *r->files);
    c->outside = copy_of(r->outside, (size_t)r->outside_capacity * sizeof *r->outside);
    size_t serials = (size_t)r->serial_capacity;
    c->serials = copy_of(r->serials, serials * sizeof *r->serials);
    c->last_serials = copy_of(r->last_serials, serials * sizeof *r->last_serials);
    c->kinds = copy_of(r->kinds, serials + 1);
    c->last_kinds = copy_of(r->last_kinds, serials + 1);
    bool ok = !c->buf.failed && (!r->files || c->files) && (!r->outside || c->outside) && (!r->serials || c->serials) &&
              (!r->last_serials || c->last_serials) && (!r->kinds || c->kinds) && (!r->last_kinds || c->last_kinds);
    int files = 0, outside = 0;
    for (; ok && files < r->file_count; files++)
        if (!(c->files[files].path = strdup(r->files[files].path))) ok = false;
    for (; ok && outside < r->outside_count; outside++)
        if (!(c->outside[outside].key = strdup(r->outside[outside].key))) ok = false;
    c->file_count = files; /* (what was copied: freed below when the copy failed) */
    c->outside_count = outside;
    if (!ok) {
        record_close(c, 0, NULL, 0);
        return NULL;
    }
    return c;
}

void record_swap(Recorder *a, Recorder *b)
{
    Recorder t = *a;
    *a = *b;
    *b = t;
    a->tape.ctx = a;
    b->tape.ctx = b;
}

const ScriptTape *record_tape(Recorder *r) { return r ? &r->tape : NULL; }

void record_step(Recorder *r)
{
    if (on(r)) tape_put_record(&r->buf, TAPE_STEP, NULL);
}

void record_draw(Recorder *r)
{
    if (on(r)) tape_put_record(&r->buf, TAPE_DRAW, NULL);
}

void record_key(Recorder *r, const char *key)
{
    if (on(r)) tape_put_record(&r->buf, TAPE_KEY, (TapeValue[]){STR(key)});
}

void record_key_release(Recorder *r, const char *key)
{
    if (on(r)) tape_put_record(&r->buf, TAPE_KEY_RELEASE, (TapeValue[]){STR(key)});
}

void record_args(Recorder *r, const char *arg0, const char *const *words, int count)
{
    if (!on(r)) return;
    tape_put_byte(&r->buf, TAPE_ARGS);
    tape_put_varint(&r->buf, (uint64_t)count + 1);
    tape_put_string(&r->buf, arg0, strlen(arg0));
    for (int i = 0; i < count; i++) tape_put_string(&r->buf, words[i], strlen(words[i]));
}

void record_pointer(Recorder *r, double x, double y)
{
    if (on(r)) tape_put_record(&r->buf, TAPE_POINTER, (TapeValue[]){{.d = x}, {.d = y}});
}

static bool same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

void record_motion(Recorder *r, const SteerCamera *camera, int sx, int sy, double x, double y)
{
    if (!on(r)) return;
    double wx = 0.0, wy = 0.0;
    if (camera) steer_camera_to_world(camera, sx, sy, &wx, &wy);
    /* in memory, always the point: a pixel delta builds on the last one, which a truncation may cut */
    if (!camera || !r->f || !same_bits(wx, x) || !same_bits(wy, y)) { /* not the camera's point: the point itself */
        tape_put_record(&r->buf, TAPE_MOTION, (TapeValue[]){{.d = x}, {.d = y}});
        return;
    }
    if (!r->camera_written || memcmp(camera, &r->camera, sizeof *camera) != 0) {
        r->camera = *camera;
        r->camera_written = true;
        tape_put_record(&r->buf, TAPE_CAMERA,
                        (TapeValue[]){{.d = camera->center_x},
                                      {.d = camera->center_y},
                                      {.d = camera->zoom},
                                      {.u = (uint64_t)(camera->width < 0 ? 0 : camera->width)},
                                      {.u = (uint64_t)(camera->height < 0 ? 0 : camera->height)}});
    }
    tape_put_record(&r->buf, TAPE_MOTION_SCREEN,
                    (TapeValue[]){{.z = (int64_t)sx - r->last_sx}, {.z = (int64_t)sy - r->last_sy}});
    r->last_sx = sx;
    r->last_sy = sy;
}

void record_press(Recorder *r, double x, double y, int button)
{
    if (on(r)) tape_put_record(&r->buf, TAPE_PRESS, (TapeValue[]){{.d = x}, {.d = y}, {.u = BUTTON(button)}});
}

void record_release(Recorder *r, double x, double y, int button)
{
    if (on(r)) tape_put_record(&r->buf, TAPE_RELEASE, (TapeValue[]){{.d = x}, {.d = y}, {.u = BUTTON(button)}});
}

void record_reload(Recorder *r, const char *path)
{
    if (on(r)) tape_put_record(&r->buf, TAPE_RELOAD, (TapeValue[]){STR(path)});
}

void record_restart(Recorder *r)
{
    if (on(r)) tape_put_record(&r->buf, TAPE_RESTART, NULL);
}

void record_view(Recorder *r, TapeView what, int a, int b)
{
    if (!on(r)) return;
    tape_put_byte(&r->buf, TAPE_VIEW);
    tape_put_byte(&r->buf, (unsigned char)what);
    tape_put_varint(&r->buf, (uint64_t)(a < 0 ? 0 : a));
    if (what == TAPE_VIEW_RESIZE) tape_put_varint(&r->buf, (uint64_t)(b < 0 ? 0 : b));
}

void record_check(Recorder *r, const SteerWorld *world, long long steps)
{
    if (!on(r)) return;
    int count = steer_world_vehicle_count(world);
    if (!grow((void **)&r->ids, &r->id_capacity, count, sizeof *r->ids)) count = 0;
    count = steer_world_get_vehicles(world, r->ids, count);
    int cap = r->serial_capacity;
    if (!grow((void **)&r->serials, &cap, count, sizeof *r->serials) ||
        !grow((void **)&r->last_serials, &r->serial_capacity, count, sizeof *r->serials) ||
        !(r->kinds = realloc(r->kinds, (size_t)r->serial_capacity + 1)) ||
        !(r->last_kinds = realloc(r->last_kinds, (size_t)r->serial_capacity + 1))) {
        r->buf.failed = true; /* reported as out of memory at the next flush */
        return;
    }
    bool same = count == r->last_count;
    for (int i = 0; i < count; i++) {
        SteerVehicleState st;
        steer_vehicle_get(world, r->ids[i], &st);
        r->serials[i] = st.serial;
        r->kinds[i] = (unsigned char)st.kind;
        same = same && r->serials[i] == r->last_serials[i] && r->kinds[i] == r->last_kinds[i];
    }
    r->last_check_at = r->buf.len;
    tape_put_byte(&r->buf, TAPE_CHECK);
    tape_put_varint(&r->buf, (uint64_t)steps);
    tape_put_u64(&r->buf, steer_world_checksum(world));
    tape_put_varint(&r->buf, (uint64_t)count * 2 + (same ? 1 : 0));
    uint64_t previous = 0;
    for (int i = 0; i < count; i++) {
        uint64_t sum = steer_vehicle_checksum(world, r->ids[i]);
        if (!same) {
            tape_put_varint(&r->buf, r->serials[i] - previous); /* creation order: serials only grow */
            tape_put_byte(&r->buf, r->kinds[i]);
        }
        tape_put_u32(&r->buf, (uint32_t)(sum ^ (sum >> 32)));
        previous = r->serials[i];
    }
    uint64_t *swap = r->last_serials;
    r->last_serials = r->serials;
    r->serials = swap;
    unsigned char *swap_kinds = r->last_kinds;
    r->last_kinds = r->kinds;
    r->kinds = swap_kinds;
    r->last_count = count;
    flush(r);
}

bool record_close(Recorder *r, long long steps, char *error, size_t error_size)
{
    if (!r) return true;
    if (r->f) tape_put_record(&r->buf, TAPE_END, (TapeValue[]){{.u = (uint64_t)steps}});
    flush(r);
    bool ok = !r->write_failed;
    if (r->f && fclose(r->f) != 0 && ok) {
        ok = false;
        snprintf(r->write_error, sizeof r->write_error, "cannot write %s: %s", r->path, strerror(errno));
    }
    if (!ok) snprintf(error, error_size, "option --record: %s", r->write_error);
    for (int i = 0; i < r->file_count; i++) free(r->files[i].path);
    for (int i = 0; i < r->outside_count; i++) free(r->outside[i].key);
    free(r->files);
    free(r->outside);
    free(r->ids);
    free(r->serials);
    free(r->last_serials);
    free(r->kinds);
    free(r->last_kinds);
    tape_buffer_free(&r->buf);
    free(r);
    return ok;
}

/* What the recording's header says about the run: the options that shape it. */
static TapeHeader header_of(const AppOptions *opt, const char *scene)
{
    TapeHeader h;
    memset(&h, 0, sizeof h);
    snprintf(h.program, sizeof h.program, "%s", STEER_VERSION);
    snprintf(h.lua, sizeof h.lua, "%s", LUA_RELEASE);
    snprintf(h.scene, sizeof h.scene, "%s", scene);
    h.run = opt->run;
    h.run.keep_failed = options_keep_failed(opt);
    h.width = opt->width;
    h.height = opt->height;
    h.check_interval = TAPE_CHECK_INTERVAL;
    return h;
}

bool record_begin(AppOptions *opt, char *error, size_t error_size)
{
    char scene[PATH_MAX];
    if (!realpath(opt->script, scene)) {
        snprintf(error, error_size, "cannot open scene %s: %s", opt->script,
                 errno == ENOENT ? "no such file" : strerror(errno));
        return false;
    }
    opt->run.has_math_seed = !opt->run.has_seed;
    opt->run.math_seed = ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid();
    TapeHeader header = header_of(opt, scene);
    Recorder *r = record_open(opt->record, &header, error, error_size);
    if (!r) return false;
    record_args(r, opt->arg0 ? opt->arg0 : opt->script, opt->words, opt->word_count);
    opt->recorder = r;
    opt->tape = record_tape(r);
    return true;
}

Recorder *record_begin_memory(AppOptions *opt, size_t cap)
{
    char scene[PATH_MAX]; /* absolute, as the host names it: re-simulated hosts load it by this name */
    if (!realpath(opt->script, scene)) snprintf(scene, sizeof scene, "%s", opt->script);
    opt->run.has_math_seed = !opt->run.has_seed;
    opt->run.math_seed = ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid();
    TapeHeader header = header_of(opt, scene);
    Recorder *r = record_open_memory(&header, cap);
    record_args(r, opt->arg0 ? opt->arg0 : opt->script, opt->words, opt->word_count);
    return r;
}
