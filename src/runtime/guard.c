/* guard.c - time budget (timer signal arming a sticky count hook) and memory cap. See guard.h. */
#include "guard.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>

/* The one guard the signal handler may touch. */
static Guard *volatile g_current;
static timer_t g_timer;
static bool g_timer_ok;

double guard_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void *guard_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    Guard *g = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        g->memory_used -= old;
        return NULL;
    }
    if (nsize > old && g->memory_used - old + nsize > g->memory_cap) return NULL;
    void *p = realloc(ptr, nsize);
    if (!p) return NULL;
    g->memory_used = g->memory_used - old + nsize;
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
    if (!g->expired && left > 0) {
        lua_sethook(L, NULL, 0, 0);
        arm_timer(left);
        return;
    }
    if (!g->expired) {
        g->expired = true;
        lua_Debug where;
        char place[200] = "";
        if (lua_getstack(L, 0, &where) && lua_getinfo(L, "Sl", &where) && where.currentline > 0)
            snprintf(place, sizeof place, "%s:%d: ", where.short_src, where.currentline);
        snprintf(g->message, sizeof g->message, "%sscript exceeded its time budget (%.0f ms)", place,
                 g->budget_s * 1000.0);
    }
    /* Sticky: the hook stays on every instruction, so a pcall in the script only delays this. */
    lua_pushstring(L, g->message);
    lua_error(L);
}

static void on_timer(int sig)
{
    (void)sig;
    Guard *g = g_current;
    if (g && g->active && g->L) lua_sethook(g->L, budget_hook, LUA_MASKCOUNT, 1);
}

bool guard_init(Guard *guard, double budget_ms, size_t memory_cap)
{
    memset(guard, 0, sizeof *guard);
    guard->budget_s = budget_ms / 1000.0;
    guard->memory_cap = memory_cap;
    if (!g_timer_ok) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_timer;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        sigaction(SIGALRM, &sa, NULL);
        struct sigevent sev;
        memset(&sev, 0, sizeof sev);
        sev.sigev_notify = SIGEV_SIGNAL;
        sev.sigev_signo = SIGALRM;
        g_timer_ok = timer_create(CLOCK_MONOTONIC, &sev, &g_timer) == 0;
    }
    return g_timer_ok;
}

void guard_attach(Guard *guard, lua_State *L)
{
    guard->L = L;
}

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
}

void guard_mark_call(Guard *guard)
{
    guard->call_start = guard_now();
}

void guard_recover(Guard *guard)
{
    if (guard->L) lua_sethook(guard->L, NULL, 0, 0);
    guard->expired = false;
    guard->call_start = guard_now();
    arm_timer(guard->budget_s);
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
