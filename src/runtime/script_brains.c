/* SPDX-License-Identifier: MIT */
/* script_brains.c - the program's side of the brains: runs the bindings' scheduler (the one behind
 * w:think(), so the program and a plain Lua loop think alike) under the time budget, reports each
 * failing vehicle (once per distinct error, with a count) and resumes them after a good reload;
 * and reads what the brains leave behind (v.state, the state history) for overlays and the
 * inspector. */
#include "script_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "steer_lua.h"

/* A brain's error, once per distinct message: the panel and stderr name the first vehicle that
 * failed with it and count the others. */
static BrainFailure *find_failure(ScriptHost *host, const char *message, size_t len)
{
    for (int i = 0; i < host->brain_failure_count; i++) {
        BrainFailure *f = &host->brain_failures[i];
        if (strlen(f->message) == len && memcmp(f->message, message, len) == 0) return f;
    }
    return NULL;
}

static void clear_failures(ScriptHost *host)
{
    for (int i = 0; i < host->brain_failure_count; i++) {
        free(host->brain_failures[i].message);
        free(host->brain_failures[i].first);
        free(host->brain_failures[i].traceback);
    }
    host->brain_failure_count = 0;
    host->brain_failures_other = 0;
}

void script_brains_free(ScriptHost *host)
{
    clear_failures(host);
    free(host->panel);
    host->panel = NULL;
}

void script_brains_forgive(ScriptHost *host)
{
    script_push_world(host);
    steer_lua_resume_brains(host->L, -1);
    lua_pop(host->L, 1);
    clear_failures(host);
}

int script_failing_vehicles(ScriptHost *host)
{
    script_push_world(host);
    int n = steer_lua_paused_brains(host->L, -1);
    lua_pop(host->L, 1);
    return n;
}

/* Each brain gets its own time budget. */
static void before_think(void *ctx)
{
    ScriptHost *host = ctx;
    guard_mark_call(&host->guard);
}

/* The scheduler paused the vehicle at v_idx; its error is on the top. A timeout is reported where
 * the guard struck (the sticky hook may have re-raised it elsewhere), then the next brain gets a
 * fresh budget. The failure is counted and recorded; print_failures tells stderr at the pass's end. */
static void brain_failed(void *ctx, lua_State *L, int v_idx)
{
    ScriptHost *host = ctx;
    if (host->guard.expired) {
        const char *msg = lua_tostring(L, -1);
        const char *tb = strstr(msg ? msg : "", "\nstack traceback:");
        lua_pushfstring(L, "%s%s", host->guard.message, tb ? tb : "");
        lua_replace(L, -2);
        guard_recover(&host->guard);
    }
    host->error_count++;
    const char *msg = lua_tostring(L, -1);
    if (!msg) msg = "(error without a message)";
    const char *tb = strstr(msg, "\nstack traceback:");
    size_t len = tb ? (size_t)(tb - msg) : strlen(msg);
    BrainFailure *f = find_failure(host, msg, len);
    if (f) {
        f->count++;
        return;
    }
    if (host->brain_failure_count == SCRIPT_MAX_BRAIN_FAILURES) {
        host->brain_failures_other++;
        return;
    }
    f = &host->brain_failures[host->brain_failure_count];
    steer_lua_push_vehicle_label(L, v_idx);
    f->first = strdup(lua_tostring(L, -1));
    lua_pop(L, 1);
    f->message = strndup(msg, len);
    f->traceback = strdup(tb ? tb + 1 : "");
    if (!f->first || !f->message || !f->traceback) {
        free(f->first);
        free(f->message);
        free(f->traceback);
        host->brain_failures_other++;
        return;
    }
    /* Tracebacks indent with tabs, which the panel's font has no glyph for. */
    for (char *p = f->traceback; *p; p++)
        if (*p == '\t') *p = ' ';
    f->count = 1;
    f->printed = 0;
    host->brain_failure_count++;
}

/* stderr hears of each distinct error once in full, then once per pass in which more vehicles
 * failed with it (at most k passes for a brain shared by everyone: one per stagger slot). */
static void print_failures(ScriptHost *host)
{
    for (int i = 0; i < host->brain_failure_count; i++) {
        BrainFailure *f = &host->brain_failures[i];
        if (f->count == f->printed) continue;
        if (host->config.quiet) { /* a replay's: the live run printed it (said, as far as the host goes) */
            f->printed = f->count;
            continue;
        }
        char count[48] = "";
        if (f->count > 1) snprintf(count, sizeof count, " (x%d)", f->count);
        if (f->printed == 0)
            fprintf(stderr, "steer: script error: %s: %s%s\n%s\n", f->first, f->message, count, f->traceback);
        else
            fprintf(stderr, "steer: script error: %s and %d more: %s%s\n", f->first, f->count - 1, f->message, count);
        f->printed = f->count;
    }
    fflush(stderr);
}

const char *script_brains_panel(ScriptHost *host, const char *other)
{
    if (host->brain_failure_count == 0 && host->brain_failures_other == 0) return other;
    size_t cap = 256 + (other ? strlen(other) : 0);
    for (int i = 0; i < host->brain_failure_count; i++)
        cap += strlen(host->brain_failures[i].first) + strlen(host->brain_failures[i].message) + 32;
    if (!other && host->brain_failure_count > 0) cap += strlen(host->brain_failures[0].traceback);
    char *text = realloc(host->panel, cap);
    if (!text) return other;
    host->panel = text;
    size_t n = 0;
    int paused = script_failing_vehicles(host);
    n += (size_t)snprintf(text + n, cap - n, "%d vehicle%s paused by brain errors (save the fixed file to resume):\n",
                          paused, paused == 1 ? "" : "s");
    for (int i = 0; i < host->brain_failure_count; i++) {
        const BrainFailure *f = &host->brain_failures[i];
        n += (size_t)snprintf(text + n, cap - n, "%s: %s", f->first, f->message);
        if (f->count > 1) n += (size_t)snprintf(text + n, cap - n, " (x%d)", f->count);
        n += (size_t)snprintf(text + n, cap - n, "\n");
    }
    if (host->brain_failures_other > 0)
        n += (size_t)snprintf(text + n, cap - n, "... and %d more failures\n", host->brain_failures_other);
    if (other)
        snprintf(text + n, cap - n, "\n%s", other);
    else if (host->brain_failure_count > 0)
        snprintf(text + n, cap - n, "\n%s", host->brain_failures[0].traceback);
    return text;
}

int script_think_pass(lua_State *L)
{
    ScriptHost *host = lua_touserdata(L, lua_upvalueindex(1));
    lua_settop(L, 0);
    script_push_world(host);
    SteerLuaThinkHooks hooks = {.ctx = host, .before = before_think, .failed = brain_failed};
    steer_lua_think(L, 1, &hooks);
    print_failures(host);
    return 0;
}

/* Reads v.<field> of vehicle id in protected mode: pushes it (or nil). */
static int read_field(lua_State *L)
{
    ScriptHost *host = lua_touserdata(L, 1);
    SteerVehicleId *id = lua_touserdata(L, 2);
    const char *field = lua_tostring(L, 3);
    script_push_world(host);
    steer_lua_push_vehicle(L, -1, *id);
    if (lua_isnil(L, -1)) return 1;
    lua_getfield(L, -1, field);
    return 1;
}

static bool push_field(ScriptHost *host, SteerVehicleId id, const char *field)
{
    lua_State *L = host->L;
    lua_pushcfunction(L, read_field);
    lua_pushlightuserdata(L, host);
    lua_pushlightuserdata(L, &id);
    lua_pushstring(L, field);
    if (lua_pcall(L, 3, 1, 0) != LUA_OK) {
        lua_pop(L, 1);
        return false;
    }
    return true;
}

const char *script_vehicle_state(ScriptHost *host, SteerVehicleId id)
{
    if (!push_field(host, id, "state")) return NULL;
    const char *s = lua_type(host->L, -1) == LUA_TSTRING ? lua_tostring(host->L, -1) : NULL;
    if (s) snprintf(host->label, sizeof host->label, "%s", s);
    lua_pop(host->L, 1);
    return s ? host->label : NULL;
}

static void add_line(ScriptHost *host, const char *fmt, const char *a)
{
    if (host->inspector_count >= (int)(sizeof host->inspector / sizeof host->inspector[0])) return;
    char buf[256];
    snprintf(buf, sizeof buf, fmt, a);
    char *copy = strdup(buf);
    if (copy) host->inspector[host->inspector_count++] = copy;
}

const char *script_kind_name(ScriptHost *host, SteerVehicleId id)
{
    SteerVehicleState st;
    if (steer_vehicle_get(host->world, id, &st) != STEER_OK) return NULL;
    script_push_world(host);
    /* (the name is interned in the world's kind table, which keeps it alive) */
    const char *kind = steer_lua_kind_name(host->L, lua_gettop(host->L), st.kind);
    lua_pop(host->L, 1);
    return kind;
}

int script_inspector_lines(ScriptHost *host, SteerVehicleId id, const char ***lines)
{
    lua_State *L = host->L;
    for (int i = 0; i < host->inspector_count; i++) free(host->inspector[i]);
    host->inspector_count = 0;
    *lines = (const char **)host->inspector;
    if (!steer_vehicle_is_valid(host->world, id)) return 0;
    const char *state = script_vehicle_state(host, id);
    add_line(host, "state: %s", state ? state : "(none)");
    if (push_field(host, id, "brain_error")) { /* a paused brain says why */
        if (lua_type(L, -1) == LUA_TSTRING) add_line(host, "brain paused: %s", lua_tostring(L, -1));
        lua_pop(L, 1);
    }
    /* The fsm library keeps the last few state names in v.data.history (oldest first). */
    int top = lua_gettop(L);
    if (push_field(host, id, "data")) {
        /* raw: v.data is the script's table, and an __index of it would run script code outside
         * any budget, between frames (an error there ended the program, a loop hung it) */
        lua_pushliteral(L, "history");
        if (lua_istable(L, -2) && lua_rawget(L, -2) == LUA_TTABLE) {
            char buf[200] = "";
            size_t len = 0;
            lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
            for (lua_Integer i = n > 5 ? n - 4 : 1; i <= n; i++) {
                lua_rawgeti(L, -1, i);
                const char *s = lua_tostring(L, -1);
                if (s && len < sizeof buf)
                    len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", len ? " > " : "", s);
                lua_pop(L, 1);
            }
            add_line(host, "history: %s", buf);
        }
    }
    lua_settop(L, top);
    return host->inspector_count;
}
