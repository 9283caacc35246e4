/* SPDX-License-Identifier: MIT */
/* tape_format.c - the replay file's encodings. See tape_format.h. */
#include "tape_format.h"

#include "steer_lua.h" /* (STEER_LUA_DEFAULT_THINK_HZ only: the value an unset --think-hz writes) */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t tape_text_sum(const char *text, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)text[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static bool reserve(TapeBuffer *b, size_t more)
{
    if (b->failed) return false;
    if (b->len + more <= b->capacity) return true;
    size_t cap = b->capacity ? b->capacity : 4096;
    while (cap < b->len + more) cap *= 2;
    unsigned char *grown = realloc(b->data, cap);
    if (!grown) {
        b->failed = true;
        return false;
    }
    b->data = grown;
    b->capacity = cap;
    return true;
}

void tape_put_bytes(TapeBuffer *b, const void *bytes, size_t n)
{
    if (n == 0 || !reserve(b, n)) return;
    memcpy(b->data + b->len, bytes, n);
    b->len += n;
}

void tape_put_byte(TapeBuffer *b, unsigned char byte) { tape_put_bytes(b, &byte, 1); }

void tape_put_varint(TapeBuffer *b, uint64_t v)
{
    unsigned char bytes[10];
    size_t n = 0;
    do {
        unsigned char low = (unsigned char)(v & 0x7f);
        v >>= 7;
        bytes[n++] = (unsigned char)(low | (v ? 0x80 : 0));
    } while (v);
    tape_put_bytes(b, bytes, n);
}

void tape_put_zigzag(TapeBuffer *b, int64_t v)
{
    tape_put_varint(b, ((uint64_t)v << 1) ^ (0 - (uint64_t)(v < 0))); /* all ones for a negative v */
}

void tape_put_u64(TapeBuffer *b, uint64_t v)
{
    unsigned char bytes[8];
    for (int i = 0; i < 8; i++) bytes[i] = (unsigned char)(v >> (8 * i));
    tape_put_bytes(b, bytes, 8);
}

void tape_put_u32(TapeBuffer *b, uint32_t v)
{
    unsigned char bytes[4];
    for (int i = 0; i < 4; i++) bytes[i] = (unsigned char)(v >> (8 * i));
    tape_put_bytes(b, bytes, 4);
}

void tape_put_double(TapeBuffer *b, double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    tape_put_u64(b, u);
}

void tape_put_string(TapeBuffer *b, const char *s, size_t len)
{
    tape_put_varint(b, len);
    tape_put_bytes(b, s, len);
}

void tape_buffer_free(TapeBuffer *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

static bool fail(TapeReader *r)
{
    r->bad = true;
    return false;
}

static bool cut_off(TapeReader *r)
{
    r->ended = true;
    return fail(r);
}

bool tape_get_byte(TapeReader *r, unsigned char *out)
{
    if (r->bad) return false;
    if (r->pos >= r->len) return cut_off(r);
    *out = r->data[r->pos++];
    return true;
}

bool tape_get_varint(TapeReader *r, uint64_t *out)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        unsigned char byte;
        if (!tape_get_byte(r, &byte)) return false;
        v |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80)) {
            *out = v;
            return true;
        }
    }
    return fail(r); /* more than ten bytes: not a varint this format writes */
}

bool tape_get_zigzag(TapeReader *r, int64_t *out)
{
    uint64_t u;
    if (!tape_get_varint(r, &u)) return false;
    *out = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
    return true;
}

bool tape_get_u64(TapeReader *r, uint64_t *out)
{
    if (r->bad) return false;
    if (r->len - r->pos < 8) return cut_off(r);
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)r->data[r->pos + (size_t)i] << (8 * i);
    r->pos += 8;
    *out = v;
    return true;
}

bool tape_get_u32(TapeReader *r, uint32_t *out)
{
    if (r->bad) return false;
    if (r->len - r->pos < 4) return cut_off(r);
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)r->data[r->pos + (size_t)i] << (8 * i);
    r->pos += 4;
    *out = v;
    return true;
}

bool tape_get_double(TapeReader *r, double *out)
{
    uint64_t u;
    if (!tape_get_u64(r, &u)) return false;
    memcpy(out, &u, sizeof *out);
    return true;
}

bool tape_get_string(TapeReader *r, const char **out, size_t *len)
{
    uint64_t n;
    if (!tape_get_varint(r, &n)) return false;
    if (n > r->len - r->pos) return cut_off(r);
    *out = (const char *)r->data + r->pos;
    *len = (size_t)n;
    r->pos += (size_t)n;
    return true;
}

/* ---- The records, by the table (TAPE_RECORDS) ------------------------------------------------- */

const char *tape_record_name(int type)
{
    switch (type) {
#define TAPE_RECORD_NAME(id, byte, name, layout)                                                                       \
    case byte: return name;
        TAPE_RECORDS(TAPE_RECORD_NAME)
#undef TAPE_RECORD_NAME
    default: return NULL;
    }
}

const char *tape_record_layout(int type)
{
    switch (type) {
#define TAPE_RECORD_LAYOUT(id, byte, name, layout)                                                                     \
    case byte: return layout;
        TAPE_RECORDS(TAPE_RECORD_LAYOUT)
#undef TAPE_RECORD_LAYOUT
    default: return NULL;
    }
}

void tape_put_record(TapeBuffer *b, TapeRecord type, const TapeValue *v)
{
    const char *layout = tape_record_layout(type);
    tape_put_byte(b, (unsigned char)type);
    for (int i = 0; layout && layout[i] && layout[i] != '*'; i++) {
        switch (layout[i]) {
        case 's': tape_put_string(b, v[i].s, v[i].len); break;
        case 'd': tape_put_double(b, v[i].d); break;
        case 'v': tape_put_varint(b, v[i].u); break;
        case 'z': tape_put_zigzag(b, v[i].z); break;
        case 'b': tape_put_byte(b, (unsigned char)v[i].u); break;
        case 'u': tape_put_u64(b, v[i].u); break;
        case 'w': tape_put_u32(b, (uint32_t)v[i].u); break;
        default: break;
        }
    }
}

bool tape_get_fields(TapeReader *r, const char *layout, TapeValue *v)
{
    for (int i = 0; layout[i]; i++) {
        unsigned char byte = 0;
        uint32_t word = 0;
        bool ok;
        switch (layout[i]) {
        case 's': ok = tape_get_string(r, &v[i].s, &v[i].len); break;
        case 'd': ok = tape_get_double(r, &v[i].d); break;
        case 'v': ok = tape_get_varint(r, &v[i].u); break;
        case 'z': ok = tape_get_zigzag(r, &v[i].z); break;
        case 'b':
            ok = tape_get_byte(r, &byte);
            v[i].u = byte;
            break;
        case 'u': ok = tape_get_u64(r, &v[i].u); break;
        case 'w':
            ok = tape_get_u32(r, &word);
            v[i].u = word;
            break;
        default: ok = false; break; /* ("*": the record's own code reads it) */
        }
        if (!ok) return false;
    }
    return true;
}

void tape_put_header(TapeBuffer *b, const TapeHeader *h)
{
    tape_put_bytes(b, TAPE_MAGIC, TAPE_MAGIC_SIZE);
    tape_put_varint(b, TAPE_VERSION);
    tape_put_string(b, h->program, strlen(h->program));
    tape_put_string(b, h->lua, strlen(h->lua));
    tape_put_string(b, h->scene, strlen(h->scene));
    const RunSettings *run = &h->run;
    /* --think-hz as a flag and a value (the scene's: the flag off, the bindings' default) */
    bool has_think_hz = run->think_hz >= 0.0;
    tape_put_byte(b,
                  (unsigned char)((run->has_seed ? 1 : 0) | (has_think_hz ? 2 : 0) | (run->keep_failed > 0 ? 4 : 0)));
    tape_put_u64(b, run->seed);
    tape_put_u64(b, run->math_seed);
    tape_put_double(b, has_think_hz ? run->think_hz : STEER_LUA_DEFAULT_THINK_HZ);
    tape_put_double(b, run->physics_hz);
    tape_put_varint(b, (uint64_t)run->threads);
    tape_put_double(b, run->time_budget_ms);
    tape_put_varint(b, run->memory_cap);
    tape_put_varint(b, (uint64_t)h->width);
    tape_put_varint(b, (uint64_t)h->height);
    tape_put_varint(b, h->check_interval);
}

static bool get_text(TapeReader *r, char *out, size_t size)
{
    const char *s;
    size_t len;
    if (!tape_get_string(r, &s, &len) || len >= size) return false;
    memcpy(out, s, len);
    out[len] = '\0';
    return true;
}

bool tape_get_header(TapeReader *r, TapeHeader *h, char *error, size_t error_size)
{
    memset(h, 0, sizeof *h);
    if (r->len < TAPE_MAGIC_SIZE || memcmp(r->data, TAPE_MAGIC, TAPE_MAGIC_SIZE) != 0) {
        snprintf(error, error_size, "not a steer replay file (it does not start with %s)", TAPE_MAGIC);
        return false;
    }
    r->pos = TAPE_MAGIC_SIZE;
    uint64_t version;
    if (!tape_get_varint(r, &version)) {
        snprintf(error, error_size, "truncated: the file ends inside its header");
        return false;
    }
    if (version != TAPE_VERSION) {
        snprintf(error, error_size,
                 "format version %llu, but this steer reads version %d only (record it again, or "
                 "replay it with the steer that recorded it)",
                 (unsigned long long)version, TAPE_VERSION);
        return false;
    }
    unsigned char flags = 0;
    uint64_t threads = 0, memory_cap = 0, width = 0, height = 0, interval = 0;
    RunSettings *run = &h->run;
    double think_hz = 0.0;
    bool ok = get_text(r, h->program, sizeof h->program) && get_text(r, h->lua, sizeof h->lua) &&
              get_text(r, h->scene, sizeof h->scene) && tape_get_byte(r, &flags) && tape_get_u64(r, &run->seed) &&
              tape_get_u64(r, &run->math_seed) && tape_get_double(r, &think_hz) &&
              tape_get_double(r, &run->physics_hz) && tape_get_varint(r, &threads) &&
              tape_get_double(r, &run->time_budget_ms) && tape_get_varint(r, &memory_cap) &&
              tape_get_varint(r, &width) && tape_get_varint(r, &height) && tape_get_varint(r, &interval);
    if (!ok) {
        if (r->ended)
            snprintf(error, error_size, "truncated: the file ends inside its header");
        else
            snprintf(error, error_size, "corrupt: the header is malformed (at byte %zu)", r->pos);
        return false;
    }
    run->has_seed = flags & 1;
    run->has_math_seed = !run->has_seed;
    run->think_hz = (flags & 2) ? think_hz : RUN_THINK_HZ_SCENE;
    run->keep_failed = (flags & 4) ? 1 : 0;
    /* Each option within what the command line takes (options.c): a value past it (physics_hz = inf
     * passed a check of >= 0, and the replay then failed as if the scene had) means a corrupt file. */
    char bad[160] = "";
    if (!(isfinite(think_hz) && think_hz >= 0.0))
        snprintf(bad, sizeof bad, "think_hz is %g (a number >= 0 expected)", think_hz);
    else if (!(run->physics_hz == 0.0 || (run->physics_hz >= 1.0 && run->physics_hz <= 1.0 / STEER_MIN_POSITIVE)))
        snprintf(bad, sizeof bad, "physics_hz is %g (0, the scene's, or 1 to %g expected)", run->physics_hz,
                 1.0 / STEER_MIN_POSITIVE);
    else if (!(isfinite(run->time_budget_ms) && run->time_budget_ms >= 1.0))
        snprintf(bad, sizeof bad, "time_budget_ms is %g (a number of milliseconds >= 1 expected)", run->time_budget_ms);
    else if (threads > 64)
        snprintf(bad, sizeof bad, "threads is %llu (0, the scene's, or 1 to 64 expected)", (unsigned long long)threads);
    else if (memory_cap == 0 || memory_cap > (uint64_t)SIZE_MAX / 2)
        snprintf(bad, sizeof bad, "memory_cap is %llu bytes (a positive size expected)",
                 (unsigned long long)memory_cap);
    else if (width < 16 || width > 16384 || height < 16 || height > 16384)
        snprintf(bad, sizeof bad, "view is %llu x %llu pixels (16..16384 each expected)", (unsigned long long)width,
                 (unsigned long long)height);
    else if (interval == 0 || interval > 1000000)
        snprintf(bad, sizeof bad, "checksum interval is %llu steps (1..1000000 expected)",
                 (unsigned long long)interval);
    else if (h->scene[0] != '/')
        snprintf(bad, sizeof bad, "scene path is not absolute");
    if (bad[0]) {
        snprintf(error, error_size, "corrupt: the header's %s", bad);
        return false;
    }
    run->threads = (int)threads;
    run->memory_cap = (size_t)memory_cap;
    h->width = (int)width;
    h->height = (int)height;
    h->check_interval = (uint32_t)interval;
    return true;
}
