/* SPDX-License-Identifier: MIT */
/* guard.h - keeps scripts from taking the program down: a time budget for every call into Lua and
 * a memory cap on the Lua state.
 *
 * Time: an instruction-count hook slows the Lua VM down as long as it is set (+49 % measured), so
 * it is set only when a budget has expired: a POSIX timer's signal handler calls lua_sethook (as
 * lua.c does for Ctrl-C). The hook then checks the clock; past the budget it raises
 * "file:line: script exceeded its time budget (100 ms)" and stays armed on every instruction
 * ("sticky"), so a script's own pcall cannot swallow the error. Hooks never run inside C
 * functions: a pathological string.find is not stopped at its budget (the memory cap bounds
 * string.rep; the watchdog below ends a call that runs on far past it).
 * A hook belongs to one Lua thread: coroutines resumed through guard_open_coroutines' resume and
 * wrap are tracked so that the timer arms the hook on the running one as well.
 * Only one guarded state may run at a time per process (the signal handler has one slot).
 *
 * Memory: guard_alloc is the state's lua_Alloc; beyond the cap it refuses while a guarded call
 * runs (the host's own pushes between calls always succeed), Lua raises its memory error and the
 * state stays usable.
 */
#ifndef STEER_RUNTIME_GUARD_H
#define STEER_RUNTIME_GUARD_H

#include <stdbool.h>
#include <stddef.h>

#include <lua.h>

typedef struct Guard {
    lua_State *L;
    double budget_s;    ///< seconds one call may run
    size_t memory_cap;  ///< bytes
    size_t memory_used; ///< bytes currently held by the state
    size_t memory_peak;
    volatile int active; ///< inside guard_begin .. guard_end
    double call_start;   ///< monotonic seconds when the current call began
    bool expired;        ///< the current call ran out of time (sticky until guard_end)
    char message[256];   ///< the timeout message with file:line
    /// The coroutines being resumed, innermost first (the hook goes on them too): a chain of nodes
    /// on the C stack of each resume, so that any depth of nesting is covered.
    struct GuardThread *volatile threads;
    /// Where the last allocation the cap refused was asked for ("file:line", "" when no Lua line
    /// ran): Lua reports a memory error without a message handler, so the host adds it.
    char refused_at[200];
} Guard;

/// One coroutine being resumed (guard.c): a node of Guard.threads.
typedef struct GuardThread {
    lua_State *co;
    struct GuardThread *outer;
} GuardThread;

/* The watchdog. Where no hook can run (Lua runs __gc finalizers with hooks off; a C function runs
 * no instructions) a call is not stopped at its budget. A second timer notices a call still running
 * GUARD_HARD_FACTOR budgets after it began (at least GUARD_HARD_MIN_S) and ends the process with
 * "steer: file:line: script exceeded its time budget (100 ms) where it cannot be interrupted ..."
 * and status GUARD_EXIT_HUNG. It also makes SIGINT/SIGTERM end the program within about a second
 * even then (guard_request_exit), and bounds the teardown's finalizers (guard_watch_closing). */
#define GUARD_HARD_FACTOR 10.0
#define GUARD_HARD_MIN_S 5.0
#define GUARD_EXIT_HUNG 4

/// Bytes held by every guarded state of the process together (the live host, rewind's keyframes
/// and the host a jump replays): what one run's --memory-cap bounds (rewind.c builds no keyframe
/// that would pass it).
size_t guard_total_memory(void);

/// The lua_Alloc of a capped state; ud is the Guard.
void *guard_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

/// Prepares the guard (no timer is armed yet). Returns false when no timer can be created.
bool guard_init(Guard *guard, double budget_ms, size_t memory_cap);
void guard_attach(Guard *guard, lua_State *L);
void guard_shutdown(Guard *guard);

/// Starts a guarded stretch: arms the timer for one budget.
void guard_begin(Guard *guard);
/// A new call starts inside the stretch (each brain gets its own budget): just reads the clock.
void guard_mark_call(Guard *guard);
/// After a call of the stretch ran out of time and its error was caught: the next call gets a
/// fresh budget (the hook is put away, the timer re-armed).
void guard_recover(Guard *guard);
/// Ends the stretch: disarms the timer and the hook. Returns true when the budget expired.
bool guard_end(Guard *guard);

/// Replaces the global xpcall with one whose message handler is not run for the budget's error:
/// Lua runs a message handler with hooks off when the error came from a hook, so an endless
/// handler (xpcall(error, function() while true do end end)) escaped the budget.
void guard_open_xpcall(Guard *guard, lua_State *L);

/// For a C function that runs long on its own (w:step(n)): runs the budget's hook if the timer
/// armed it on L, so that the call is stopped at its budget like Lua code (raises the timeout).
void guard_check(lua_State *L);
/// guard_check as a lua_CFunction, for steer_lua.h's STEER_LUA_STEP_CHECK.
int guard_step_check(lua_State *L);

/// Replaces coroutine.resume and coroutine.wrap (the `coroutine` table must be loaded) with
/// versions that tell the guard which coroutine runs, so that an endless loop inside one is
/// stopped too, and that pass a timeout on to the resumer instead of returning it as a value.
void guard_open_coroutines(Guard *guard, lua_State *L);

/// Monotonic seconds.
double guard_now(void);

/// How long a call of this guard may run before the watchdog ends the process (seconds).
double guard_hard_limit_s(const Guard *guard);
/// From a SIGINT/SIGTERM handler (async-signal-safe): the caller's loop is to stop. A call still
/// running half a second later is stopped like a timeout ("script stopped: the program received
/// SIGTERM"), and so is every later call, so that the loop ends cleanly (guard_stopped_by); one no
/// hook reaches still holding the program a second later is ended by the watchdog, status 128 + sig.
void guard_request_exit(int sig);
/// The signal (SIGINT, SIGTERM) that stopped a running script after guard_request_exit, or 0: the
/// run then ends cleanly (its recording finished) with status 128 + that signal, as one the
/// watchdog ends, since a script still held it.
int guard_stopped_by(void);
/// Teardown (closing the Lua state runs every pending finalizer) begins: the watchdog ends the
/// process if it lasts over limit_s. guard_closed when it is done.
void guard_watch_closing(double limit_s);
void guard_closed(void);

#endif
