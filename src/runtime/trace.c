/* SPDX-License-Identifier: MIT */
/* trace.c - the CSV trace of a run. See trace.h; the columns are documented in docs/runtime.md. */
#include "trace.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "steer_lua.h"

/* stdio's buffer: a row of a vehicle with a few behaviours is ~250 bytes, so one write(2) carries a
 * few hundred rows. Made once, with the file. */
#define TRACE_BUFFER_BYTES (256 * 1024)

const char *const TRACE_FIXED_NAMES[TRACE_FIXED_COLUMNS] = {
    "step", "time", "id", "kind", "x", "y", "vx", "vy", "heading", "state", "speed", "force",
};

const char *const TRACE_SENSE_NAMES[TRACE_SENSE_COLUMNS] = {"sensed", "closest_sensed", "remembered", "senses"};

struct Trace {
    FILE *file;
    char *path;
    char *buffer;
    long long every;
    long long rows;
    int error; ///< errno of the first write that failed (0: none)
    bool said; ///< that failure was said on stderr while the run went on (trace_close says nothing more)
    /* scratch of one step, grown with the world only: the vehicles' ids */
    SteerVehicleId *ids;
    int id_capacity;
    /* scratch of one sense's memories, grown to the largest sense's only */
    SteerMemory *memories;
    int memory_capacity;
};

/* A text field (kind, state): as is, or in double quotes with quotes doubled when it holds a comma,
 * a quote or a line break (RFC 4180), so every spreadsheet splits the row where the file does. */
static void put_text(FILE *f, const char *s, size_t len)
{
    if (strcspn(s, ",\"\r\n") >= len) {
        fwrite(s, 1, len, f);
        return;
    }
    putc('"', f);
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '"') putc('"', f);
        putc(s[i], f);
    }
    putc('"', f);
}

Trace *trace_open(const char *path, long long every, char *error, size_t error_size)
{
    Trace *t = calloc(1, sizeof *t);
    char *copy = strdup(path);
    char *buffer = malloc(TRACE_BUFFER_BYTES);
    if (!t || !copy || !buffer) {
        snprintf(error, error_size, "option --trace: cannot write %s: out of memory", path);
        goto fail;
    }
    t->file = fopen(path, "w");
    if (!t->file) {
        snprintf(error, error_size, "option --trace: cannot write %s: %s", path, strerror(errno));
        goto fail;
    }
    setvbuf(t->file, buffer, _IOFBF, TRACE_BUFFER_BYTES);
    t->path = copy;
    t->buffer = buffer;
    t->every = every > 0 ? every : 1;
    for (int i = 0; i < TRACE_FIXED_COLUMNS; i++) fprintf(t->file, "%s%s", i ? "," : "", TRACE_FIXED_NAMES[i]);
    for (int b = 0; b < STEER_BEHAVIOUR_COUNT; b++)
        fprintf(t->file, ",force_%s", steer_behaviour_name((SteerBehaviour)b));
    for (int i = 0; i < TRACE_SENSE_COLUMNS; i++) fprintf(t->file, ",%s", TRACE_SENSE_NAMES[i]);
    putc('\n', t->file);
    if (ferror(t->file)) t->error = errno ? errno : EIO;
    return t;
fail:
    free(buffer);
    free(copy);
    free(t);
    return NULL;
}

long long trace_rows(const Trace *trace) { return trace ? trace->rows : 0; }

static void write_failed(Trace *t)
{
    t->error = errno ? errno : EIO;
    t->said = true;
    fprintf(stderr, "steer: option --trace: cannot write %s: %s (no more rows are written)\n", t->path,
            strerror(t->error));
}

/* Room for `count` memories; false (a failed write, said once) when memory ran out. */
static bool reserve_memories(Trace *t, int count)
{
    if (count <= t->memory_capacity) return true;
    int capacity = t->memory_capacity ? t->memory_capacity : 16;
    while (capacity < count) capacity *= 2;
    SteerMemory *grown = realloc(t->memories, (size_t)capacity * sizeof *grown);
    if (!grown) return false;
    t->memories = grown;
    t->memory_capacity = capacity;
    return true;
}

/* The sense columns of one vehicle: sensed, closest_sensed, remembered, senses (all empty without
 * senses). The closest is the nearest of each sense's closest (ties: the sense added first). */
static bool put_senses(Trace *t, const SteerWorld *world, SteerVehicleId id)
{
    FILE *f = t->file;
    int senses = steer_vehicle_sense_count(world, id);
    if (senses <= 0) {
        fputs(",,,,", f);
        return true;
    }
    int sensed = 0, remembered = 0;
    bool any = false;
    SteerMemory closest = {0};
    for (int s = 0; s < senses; s++) {
        int count = steer_vehicle_get_memories(world, id, s, NULL, 0);
        if (count > 0 && !reserve_memories(t, count)) return false;
        count = steer_vehicle_get_memories(world, id, s, t->memories, count > 0 ? count : 0);
        for (int m = 0; m < count && m < t->memory_capacity; m++) {
            if (!t->memories[m].sensed_now) {
                remembered++;
                continue;
            }
            sensed++;
        }
        SteerMemory near;
        if (steer_vehicle_closest_sensed(world, id, s, &near) && (!any || near.distance < closest.distance)) {
            closest = near;
            any = true;
        }
    }
    fprintf(f, ",%d,", sensed);
    if (any) fprintf(f, "%llu", (unsigned long long)steer_vehicle_serial(world, closest.other));
    fprintf(f, ",%d,", remembered);
    /* name:count>closest;... as one text field (quoted when a name holds a comma or a quote) */
    char detail[STEER_MAX_SENSES * (STEER_MAX_SENSE_NAME + 32)];
    size_t len = 0;
    for (int s = 0; s < senses && len < sizeof detail; s++) {
        SteerSenseDef def;
        if (steer_vehicle_get_sense(world, id, s, &def) != STEER_OK) continue;
        int count = steer_vehicle_get_memories(world, id, s, t->memories, t->memory_capacity), now = 0;
        for (int m = 0; m < count && m < t->memory_capacity; m++) now += t->memories[m].sensed_now;
        SteerMemory near;
        int wrote;
        if (steer_vehicle_closest_sensed(world, id, s, &near))
            wrote = snprintf(detail + len, sizeof detail - len, "%s%s:%d>%llu", len ? ";" : "", def.name, now,
                             (unsigned long long)steer_vehicle_serial(world, near.other));
        else
            wrote = snprintf(detail + len, sizeof detail - len, "%s%s:%d", len ? ";" : "", def.name, now);
        if (wrote < 0) break;
        len += (size_t)wrote;
    }
    if (len >= sizeof detail) len = sizeof detail - 1;
    put_text(f, detail, len);
    return true;
}

void trace_step(Trace *t, lua_State *L, int world_idx, const SteerWorld *world)
{
    if (!t || t->error) return;
    long long step = (long long)steer_world_step_count(world);
    if (step % t->every != 0) return;
    int count = steer_world_vehicle_count(world);
    if (count > t->id_capacity) { /* only when the world grew past every size it had */
        int capacity = t->id_capacity ? t->id_capacity : 256;
        while (capacity < count) capacity *= 2;
        SteerVehicleId *ids = realloc(t->ids, (size_t)capacity * sizeof *ids);
        if (!ids) {
            errno = ENOMEM;
            write_failed(t);
            return;
        }
        t->ids = ids;
        t->id_capacity = capacity;
    }
    count = steer_world_get_vehicles(world, t->ids, count);
    world_idx = lua_absindex(L, world_idx);
    const char *kind_names[STEER_MAX_KINDS] = {0}; /* this step's lookups, by kind number */
    double time = steer_world_time(world);
    FILE *f = t->file;
    for (int i = 0; i < count; i++) {
        SteerVehicleId id = t->ids[i];
        SteerVehicleState v;
        if (steer_vehicle_get(world, id, &v) != STEER_OK) continue;
        const char *kind = NULL;
        if (v.kind < STEER_MAX_KINDS) {
            if (!kind_names[v.kind]) kind_names[v.kind] = steer_lua_kind_name(L, world_idx, v.kind);
            kind = kind_names[v.kind];
        }
        fprintf(f, "%lld,%.17g,%llu,", step, time, (unsigned long long)v.serial);
        if (kind) put_text(f, kind, strlen(kind));
        fprintf(f, ",%.17g,%.17g,%.17g,%.17g,%.17g,", v.position.x, v.position.y, v.velocity.x, v.velocity.y,
                atan2(v.heading.y, v.heading.x));
        size_t state_len = 0;
        const char *state = steer_lua_vehicle_state(L, world_idx, id, &state_len);
        if (state) put_text(f, state, state_len);
        fprintf(f, ",%.17g,%.17g", v.speed, steer_length(v.force));
        /* one column per behaviour: the magnitude of its weighted force, empty while it is off */
        double force[STEER_BEHAVIOUR_COUNT];
        bool on[STEER_BEHAVIOUR_COUNT] = {0};
        SteerBehaviour types[STEER_BEHAVIOUR_COUNT];
        int active = steer_vehicle_get_behaviours(world, id, types, STEER_BEHAVIOUR_COUNT);
        for (int k = 0; k < active && k < STEER_BEHAVIOUR_COUNT; k++) {
            SteerBehaviourState st;
            if (steer_vehicle_get_behaviour(world, id, types[k], NULL, &st) != STEER_OK) continue;
            on[types[k]] = true;
            force[types[k]] = st.evaluated ? steer_length(st.force) : 0.0;
        }
        for (int b = 0; b < STEER_BEHAVIOUR_COUNT; b++) {
            if (on[b])
                fprintf(f, ",%.17g", force[b]);
            else
                putc(',', f);
        }
        if (!put_senses(t, world, id)) {
            errno = ENOMEM;
            write_failed(t);
            return;
        }
        putc('\n', f);
        t->rows++;
    }
    if (ferror(f)) write_failed(t);
}

bool trace_close(Trace *t, char *error, size_t error_size)
{
    if (!t) return true;
    errno = 0;
    if (fflush(t->file) != 0 && !t->error) t->error = errno ? errno : EIO;
    if (fclose(t->file) != 0 && !t->error) t->error = errno ? errno : EIO;
    bool ok = t->error == 0;
    if (!ok && t->said)
        error[0] = '\0'; /* said once, when the first write failed */
    else if (!ok)
        snprintf(error, error_size, "option --trace: cannot write %s: %s", t->path, strerror(t->error));
    free(t->ids);
    free(t->memories);
    free(t->buffer);
    free(t->path);
    free(t);
    return ok;
}
