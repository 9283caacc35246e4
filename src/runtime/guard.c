/* SPDX-License-Identifier: MIT */
/* guard.c - time budget (timer signal arming a sticky count hook), memory cap, and the watchdog
 * that ends the program when a script cannot be stopped. See guard.h. */
#define _GNU_SOURCE /* SIGEV_THREAD_ID and gettid: the timers' signals go to the thread running Lua */
#include "guard.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lauxlib.h>

/* The one guard the signal handlers may touch. */
static Guard *volatile g_current;
static timer_t g_timer;
static bool g_timer_ok;

/* The watchdog: a second timer whose handler runs no Lua (hooks are what cannot run), only looks at
 * the clock and, when it must, reads where the script is and ends the process. */
static timer_t g_watchdog;
static bool g_watchdog_ok;
static volatile sig_atomic_t g_stop_signal; ///< SIGINT/SIGTERM received (guard_request_exit)
static int g_stopped_by;                    ///< the signal that stopped a script (guard_stopped_by)
static volatile double g_stop_since;        ///< when it was received
static volatile sig_atomic_t g_stopping;    ///< a call still ran half a second after it: calls are stopped
static volatile double g_closing_since;     ///< guard_watch_closing: when teardown began; 0 = not closing
static volatile double g_closing_limit;
#define GUARD_WATCHDOG_SIGNAL (SIGRTMIN + 2) /* a signal of its own: SIGALRM is the budget's */

double guard_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static size_t g_total_used; ///< every guard's memory_used (guard_total_memory)

size_t guard_total_memory(void) { return g_total_used; }

/* Notes where the refused allocation was asked for: the innermost Lua line of the running thread.
 * lua_getstack and lua_getinfo("Sl") only read the call stack, so they may run inside the allocator. */
static void note_refusal(Guard *g)
{
    g->refused_at[0] = '\0';
    if (!g->L) return;
    GuardThread *inner = g->threads;
    lua_State *T = inner ? inner->co : g->L;
    lua_Debug ar;
    for (int level = 0; level < 8 && lua_getstack(T, level, &ar); level++) {
        if (lua_getinfo(T, "Sl", &ar) && ar.currentline > 0) {
            snprintf(g->refused_at, sizeof g->refused_at, "%s:%d", ar.short_src, ar.currentline);
            return;
        }
    }
}

void *guard_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    Guard *g = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        g->memory_used -= old;
        g_total_used -= old;
        return NULL;
    }
    /* The cap binds scripts: the host's own small pushes between calls must never fail (an
     * error there would be outside any protected call). */
    if (nsize > old && g->active && g->memory_used - old + nsize > g->memory_cap) {
        note_refusal(g);
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (!p) return NULL;
    g->memory_used = g->memory_used - old + nsize;
    g_total_used = g_total_used - old + nsize;
    if (g->memory_used > g->memory_peak) g->memory_peak = g->memory_used;
    return p;
}

static void arm_timer(double seconds)
{
    if (!g_timer_ok) return;
    if (seconds < 1e-4) seconds = 1e-4;
    struct itimerspec its = {0};
    its.it_value.tv_sec = (time_t)seconds;
    its.it_value.tv_nsec = (long)((seconds - (double)its.it_value.tv_sec) * 1e9);
    timer_settime(g_timer, 0, &its, NULL);
}

static void disarm_timer(void)
{
    if (!g_timer_ok) return;
    struct itimerspec its = {0};
    timer_settime(g_timer, 0, &its, NULL);
}

static void arm_watchdog(double seconds)
{
    if (!g_watchdog_ok) return;
    if (seconds < 1e-3) seconds = 1e-3;
    struct itimerspec its = {0};
    its.it_value.tv_sec = (time_t)seconds;
    its.it_value.tv_nsec = (long)((seconds - (double)its.it_value.tv_sec) * 1e9);
    timer_settime(g_watchdog, 0, &its, NULL);
}

double guard_hard_limit_s(const Guard *guard)
{
    double hard = GUARD_HARD_FACTOR * guard->budget_s;
    return hard > GUARD_HARD_MIN_S ? hard : GUARD_HARD_MIN_S;
}

/* Runs on every instruction once armed. Before the budget is over (the timer covers a whole
 * stretch, a call may have begun later) it puts the hook away and re-arms the timer for the rest. */
static void budget_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    Guard *g = g_current;
    if (!g || !g->active) {
        lua_sethook(L, NULL, 0, 0);
        return;
    }
    double left = g->call_start + g->budget_s - guard_now();
    int stop = g_stopping ? g_stop_signal : 0;
    if (!g->expired && left > 0 && !stop) {
        lua_sethook(L, NULL, 0, 0);
        arm_timer(left);
        return;
    }
    if (!g->expired) {
        g->expired = true;
        lua_Debug where;
        char place[200] = "";
        /* the innermost Lua line: level 0 is a C function when guard_check runs the hook */
        for (int level = 0; level < 8 && !place[0] && lua_getstack(L, level, &where); level++)
            if (lua_getinfo(L, "Sl", &where) && where.currentline > 0)
                snprintf(place, sizeof place, "%s:%d: ", where.short_src, where.currentline);
        if (stop) g_stopped_by = stop;
        if (stop) /* SIGINT/SIGTERM: the run ends now, the way a timeout ends a call */
            snprintf(g->message, sizeof g->message, "%sscript stopped: the program received %s", place,
                     stop == SIGINT ? "SIGINT" : "SIGTERM");
        else
            snprintf(g->message, sizeof g->message, "%sscript exceeded its time budget (%.0f ms)", place,
                     g->budget_s * 1000.0);
    }
    /* Sticky: the hook stays on every instruction, so a pcall in the script only delays this. */
    lua_pushstring(L, g->message);
    lua_error(L);
}

/* Arms the budget's hook on the guarded state and its coroutines (from a signal handler too). */
static void arm_hooks(Guard *g)
{
    lua_sethook(g->L, budget_hook, LUA_MASKCOUNT, 1);
    for (GuardThread *t = g->threads; t; t = t->outer) lua_sethook(t->co, budget_hook, LUA_MASKCOUNT, 1);
}

static void on_timer(int sig)
{
    (void)sig;
    Guard *g = g_current;
    if (!g || !g->active || !g->L) return;
    arm_hooks(g);
    /* The hook stops the call at its next instruction, unless none comes: Lua runs finalizers
     * with hooks off, and a C function runs no instructions. The watchdog covers those. */
    if (!g_stop_signal) arm_watchdog(g->call_start + guard_hard_limit_s(g) - guard_now());
}

/* ---- The watchdog ------------------------------------------------------------------------ */

/* Writes "file:line" of the innermost Lua function running in the guarded state (the running
 * coroutine first), or nothing. It runs in a signal handler on the thread that runs Lua, while
 * that thread is stuck in a finalizer or a C function: lua_getstack and lua_getinfo("Sl") only
 * read the call stack (no allocation), and with the budget's hook armed Lua saves the current
 * instruction at every step, so the line is the current one. */
static void where(Guard *g, char *out, size_t size)
{
    out[0] = '\0';
    if (!g || !g->L) return;
    GuardThread *inner = g->threads;
    lua_State *T = inner ? inner->co : g->L;
    lua_Debug ar;
    for (int level = 0; level < 8 && lua_getstack(T, level, &ar); level++) {
        if (lua_getinfo(T, "Sl", &ar) && ar.currentline > 0) {
            snprintf(out, size, "%s:%d", ar.short_src, ar.currentline);
            return;
        }
    }
}

/* Ends the process from the watchdog's handler: one line on stderr, then _exit (nothing else is
 * safe while the main thread is stuck inside Lua). */
static void die(const char *line, int status)
{
    size_t len = strlen(line);
    ssize_t ignored = write(STDERR_FILENO, line, len);
    (void)ignored;
    _exit(status);
}

/* Does nothing, but while any hook is set Lua saves the current instruction at every step, even
 * where it calls no hook (finalizers), so that where() reads the current line. */
static void line_hook(lua_State *L, lua_Debug *ar)
{
    (void)L;
    (void)ar;
}

static void on_watchdog(int sig)
{
    (void)sig;
    static char line[768];
    char place[400];
    double now = guard_now();
    Guard *g = g_current;
    bool busy = g && g->active;
    double running = busy ? now - g->call_start : 0.0;
    double closing = g_closing_since > 0.0 ? now - g_closing_since : -1.0;
    int stop = g_stop_signal;
    if (stop) {
        /* After SIGINT/SIGTERM the loop ends at its next step unless a script holds it: a guarded
         * call that has run half a second (a frame's calls take milliseconds, even on a busy
         * machine) is stopped like a timeout, at its next instruction, and so is every call after
         * it, so that the run ends cleanly. A second after the signal, one that is still running
         * (where no hook reaches: a finalizer, a C function) or finalizers while closing for a
         * second end the process. Otherwise the program is finishing its own work: look again. */
        static bool marking;
        if (busy && running >= 0.5 && !g_stopping && g->L) {
            g_stopping = 1;
            arm_hooks(g);
            arm_watchdog(0.1);
            return;
        }
        if (now - g_stop_since >= 1.0 && ((busy && running >= 0.5) || closing >= 1.0)) {
            if (busy && !marking && !g->expired) { /* first make the line current (line_hook), then tell */
                marking = true;
                lua_sethook(g->L, line_hook, LUA_MASKCOUNT, 1);
                for (GuardThread *t = g->threads; t; t = t->outer) lua_sethook(t->co, line_hook, LUA_MASKCOUNT, 1);
                arm_watchdog(0.05);
                return;
            }
            where(busy ? g : NULL, place, sizeof place);
            snprintf(line, sizeof line, "steer: %s: a script still held the program a second later%s%s%s: ending now\n",
                     stop == SIGINT ? "SIGINT" : "SIGTERM", place[0] ? " (at " : "", place, place[0] ? ")" : "");
            die(line, 128 + stop);
        }
        arm_watchdog(0.1);
        return;
    }
    if (busy) {
        double hard = guard_hard_limit_s(g);
        if (running >= hard) {
            where(g, place, sizeof place);
            snprintf(line, sizeof line,
                     "steer: %s%sscript exceeded its time budget (%.0f ms) where it cannot be interrupted (a __gc "
                     "finalizer or one long C function) and was still running after %.0f s: ending the run\n",
                     place, place[0] ? ": " : "", g->budget_s * 1000.0, hard);
            die(line, GUARD_EXIT_HUNG);
        }
        arm_watchdog(g->call_start + hard - now);
        return;
    }
    if (closing >= 0.0) {
        if (closing >= g_closing_limit) {
            snprintf(line, sizeof line,
                     "steer: closing the scripts took over %.0f s (a __gc finalizer that never returns?): ending now\n",
                     g_closing_limit);
            die(line, GUARD_EXIT_HUNG);
        }
        arm_watchdog(g_closing_limit - closing);
    }
}

void guard_request_exit(int sig)
{
    g_stop_since = guard_now();
    g_stop_signal = sig;
    arm_watchdog(0.1); /* (on_watchdog: a script that holds the loop is stopped, then the run ends) */
}

int guard_stopped_by(void) { return g_stopped_by; }

void guard_watch_closing(double limit_s)
{
    g_closing_limit = limit_s;
    g_closing_since = guard_now();
    if (!g_stop_signal) arm_watchdog(limit_s);
}

void guard_closed(void)
{
    g_closing_since = 0.0;
    if (!g_stop_signal && g_watchdog_ok) {
        struct itimerspec its = {0};
        timer_settime(g_watchdog, 0, &its, NULL);
    }
}

bool guard_init(Guard *guard, double budget_ms, size_t memory_cap)
{
    memset(guard, 0, sizeof *guard);
    guard->budget_s = budget_ms / 1000.0;
    guard->memory_cap = memory_cap;
    if (!g_timer_ok) {
        /* Both timers signal the thread that sets the guard up, the one that runs Lua (SDL may
         * have threads of its own, and the handlers touch this thread's Lua state). */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_timer;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        sigaction(SIGALRM, &sa, NULL);
        struct sigevent sev;
        memset(&sev, 0, sizeof sev);
        sev.sigev_notify = SIGEV_THREAD_ID;
        sev._sigev_un._tid = gettid();
        sev.sigev_signo = SIGALRM;
        g_timer_ok = timer_create(CLOCK_MONOTONIC, &sev, &g_timer) == 0;

        sa.sa_handler = on_watchdog;
        sigaction(GUARD_WATCHDOG_SIGNAL, &sa, NULL);
        sev.sigev_signo = GUARD_WATCHDOG_SIGNAL;
        g_watchdog_ok = timer_create(CLOCK_MONOTONIC, &sev, &g_watchdog) == 0;
    }
    return g_timer_ok;
}

void guard_attach(Guard *guard, lua_State *L) { guard->L = L; }

void guard_shutdown(Guard *guard)
{
    if (g_current == guard) {
        disarm_timer();
        g_current = NULL;
    }
    guard->L = NULL;
}

void guard_begin(Guard *guard)
{
    guard->expired = false;
    guard->message[0] = '\0';
    guard->call_start = guard_now();
    g_current = guard;
    guard->active = 1;
    arm_timer(guard->budget_s);
    if (g_stopping && guard->L) arm_hooks(guard); /* the program is ending: no new call runs */
}

void guard_mark_call(Guard *guard)
{
    guard->call_start = guard_now();
    if (g_stopping && guard->L && guard->active) arm_hooks(guard);
}

void guard_recover(Guard *guard)
{
    if (guard->L) lua_sethook(guard->L, NULL, 0, 0);
    guard->expired = false;
    guard->call_start = guard_now();
    arm_timer(guard->budget_s);
    if (g_stopping && guard->L) arm_hooks(guard);
}

bool guard_end(Guard *guard)
{
    guard->active = 0;
    disarm_timer();
    if (guard->L) lua_sethook(guard->L, NULL, 0, 0);
    bool expired = guard->expired;
    guard->expired = false;
    return expired;
}

/* ---- Coroutines under the guard ---------------------------------------------------------- */

/* Resumes `co` with narg arguments from L; moves its results (or its error, returning -1) to L,
 * as Lua's own coroutine library does, while the guard knows `co` is running. */
static int resume_tracked(Guard *g, lua_State *L, lua_State *co, int narg)
{
    if (!lua_checkstack(co, narg)) {
        lua_pushliteral(L, "too many arguments to resume");
        return -1;
    }
    lua_xmove(L, co, narg);
    GuardThread node = {co, g->threads};
    g->threads = &node; /* (the signal handlers read the chain: the node is whole before it is linked) */
    if (g->expired) lua_sethook(co, budget_hook, LUA_MASKCOUNT, 1);
    int nres = 0;
    int status = lua_resume(co, L, narg, &nres);
    g->threads = node.outer;
    if (g->active && g->expired) {
        /* Out of time inside the coroutine: the resumer must not carry on as if it had failed. */
        lua_pushstring(L, g->message);
        lua_error(L);
    }
    if (status == LUA_OK || status == LUA_YIELD) {
        if (!lua_checkstack(L, nres + 1)) {
            lua_pop(co, nres);
            lua_pushliteral(L, "too many results to resume");
            return -1;
        }
        lua_xmove(co, L, nres);
        return nres;
    }
    lua_xmove(co, L, 1);
    return -1;
}

static int guarded_resume(lua_State *L)
{
    Guard *g = lua_touserdata(L, lua_upvalueindex(1));
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co, 1, "coroutine");
    int r = resume_tracked(g, L, co, lua_gettop(L) - 1);
    if (r < 0) {
        lua_pushboolean(L, 0);
        lua_insert(L, -2);
        return 2;
    }
    lua_pushboolean(L, 1);
    lua_insert(L, -(r + 1));
    return r + 1;
}

static int guarded_wrap_call(lua_State *L)
{
    Guard *g = lua_touserdata(L, lua_upvalueindex(1));
    lua_State *co = lua_tothread(L, lua_upvalueindex(2));
    int r = resume_tracked(g, L, co, lua_gettop(L));
    if (r < 0) {
        if (lua_type(L, -1) == LUA_TSTRING) { /* where the call to the wrapped function was */
            luaL_where(L, 1);
            lua_insert(L, -2);
            lua_concat(L, 2);
        }
        return lua_error(L);
    }
    return r;
}

static int guarded_wrap(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_State *co = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);
    lua_pushcclosure(L, guarded_wrap_call, 2);
    return 1;
}

/* ---- xpcall under the guard -------------------------------------------------------------- */

/* The message handler xpcall gets: the script's (upvalue 2) unless the budget is what failed. */
static int guarded_handler(lua_State *L)
{
    Guard *g = lua_touserdata(L, lua_upvalueindex(1));
    if (g->active && g->expired) return 1; /* the timeout as it is: the script's handler would run hookless */
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int xpcall_done(lua_State *L, int status, lua_KContext ctx)
{
    (void)status;
    (void)ctx;
    return lua_gettop(L);
}

static int guarded_xpcall(lua_State *L)
{
    luaL_checktype(L, 2, LUA_TFUNCTION);   /* as Lua's xpcall: the handler must be a function */
    lua_pushvalue(L, lua_upvalueindex(1)); /* xpcall */
    lua_pushvalue(L, 1);
    lua_pushvalue(L, lua_upvalueindex(2)); /* the guard */
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, guarded_handler, 2);
    lua_rotate(L, 3, 3); /* xpcall, f, handler before the arguments */
    lua_remove(L, 1);
    lua_remove(L, 1);
    lua_callk(L, lua_gettop(L) - 1, LUA_MULTRET, 0, xpcall_done); /* (a coroutine may yield inside) */
    return lua_gettop(L);
}

void guard_open_xpcall(Guard *guard, lua_State *L)
{
    lua_getglobal(L, "xpcall");
    lua_pushlightuserdata(L, guard);
    lua_pushcclosure(L, guarded_xpcall, 2);
    lua_setglobal(L, "xpcall");
}

void guard_check(lua_State *L)
{
    if (!(lua_gethookmask(L) & LUA_MASKCOUNT)) return;
    lua_Hook hook = lua_gethook(L);
    if (hook != budget_hook) return;
    lua_Debug ar;
    memset(&ar, 0, sizeof ar);
    ar.event = LUA_HOOKCOUNT;
    hook(L, &ar);
}

int guard_step_check(lua_State *L)
{
    guard_check(L);
    return 0;
}

void guard_open_coroutines(Guard *guard, lua_State *L)
{
    lua_getglobal(L, "coroutine");
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    lua_pushlightuserdata(L, guard);
    lua_pushcclosure(L, guarded_resume, 1);
    lua_setfield(L, -2, "resume");
    lua_pushlightuserdata(L, guard);
    lua_pushcclosure(L, guarded_wrap, 1);
    lua_setfield(L, -2, "wrap");
    lua_pop(L, 1);
}
