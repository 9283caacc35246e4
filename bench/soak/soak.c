/* SPDX-License-Identifier: MIT */
/* soak.c - `make soak`: an hour of simulated time (216,000 steps at 60 Hz; SOAK_STEPS changes it)
 * of bench/soak/scene.lua in the program's own script host, as the program runs it each step
 * (brains, update, physics). Every simulated minute it counts the non-finite x, y, vx, vy of every
 * vehicle (the scene's check(w)) and rewrites and reloads brain.lua, one reload in ten broken (a
 * syntax error or an error while the chunk runs, in turn). It reports the non-finite values, the
 * errors (those of the broken reloads and any other), the Lua heap, the state's whole allocation
 * (Lua and the world, which gets its memory from the state) and the RSS after the first simulated
 * minute (capacities grown, every handle made) and at the end, and fails when anything is
 * non-finite, an unexpected error happened, or memory grew by more than 5 %. */
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../bench_support.h"
#include "guard.h"
#include "script.h"

#define STEPS_PER_MINUTE 3600

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) exit(2);
    text[n] = '\0';
    fclose(f);
    return text;
}

static void write_file(const char *path, const char *text)
{
    /* Through a temporary file and a rename, as editors save. */
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0 || rename(tmp, path) != 0) {
        perror(path);
        exit(2);
    }
}

typedef struct Memory {
    double lua_kib;   ///< the Lua heap (collectgarbage "count") after a full collection
    double state_kib; ///< everything the state's allocator holds: Lua and the world
    double rss_kib;
} Memory;

static Memory measure(ScriptHost *host)
{
    lua_State *L = script_state(host);
    lua_gc(L, LUA_GCCOLLECT);
    Memory m;
    m.lua_kib = lua_gc(L, LUA_GCCOUNT) + lua_gc(L, LUA_GCCOUNTB) / 1024.0;
    m.state_kib = (double)script_memory_used(host) / 1024.0;
    m.rss_kib = (double)bench_rss_kb();
    return m;
}

/// The scene's check(w): non-finite values among every vehicle's x, y, vx, vy, and the vehicles.
static long check(ScriptHost *host, long *vehicles)
{
    lua_State *L = script_state(host);
    script_push_env(host);
    lua_getfield(L, -1, "check");
    script_push_world(host);
    if (lua_pcall(L, 1, 2, 0) != LUA_OK) {
        fprintf(stderr, "soak: check failed: %s\n", lua_tostring(L, -1));
        exit(2);
    }
    long bad = (long)lua_tointeger(L, -2);
    *vehicles = (long)lua_tointeger(L, -1);
    lua_pop(L, 3);
    return bad;
}

/// Brain version `minute`: the good text with its version line changed, or one of two breakages.
static char *brain_text(const char *good, int minute, bool broken)
{
    size_t n = strlen(good) + 200;
    char *text = malloc(n);
    const char *line = strstr(good, "M.version = 0");
    if (!text || !line) exit(2);
    int head = (int)(line - good);
    const char *tail = line + strlen("M.version = 0");
    if (!broken)
        snprintf(text, n, "%.*sM.version = %d%s", head, good, minute, tail);
    else if ((minute / 10) % 2 == 0) /* syntax error, then error while the chunk runs, in turn */
        snprintf(text, n, "%.*sM.version = %d\nlocal = broken on purpose\n%s", head, good, minute, tail);
    else
        snprintf(text, n, "%.*sM.version = %d\nerror('soak: broken on purpose')\n%s", head, good, minute, tail);
    return text;
}

static void print_memory(const char *when, Memory m)
{
    printf("soak: %-28s Lua heap %.0f KiB, state (Lua + world) %.0f KiB, RSS %.0f KiB\n", when, m.lua_kib, m.state_kib,
           m.rss_kib);
}

static double growth(double before, double after) { return before > 0 ? 100.0 * (after - before) / before : 0.0; }

int main(int argc, char **argv)
{
    const char *src = argc > 1 ? argv[1] : "bench/soak";
    long steps = getenv("SOAK_STEPS") ? atol(getenv("SOAK_STEPS")) : 216000;
    if (steps < 1) steps = 1;
    char dir[] = "/tmp/steer_soak_XXXXXX";
    if (!mkdtemp(dir)) return 2;
    char path[600], scene[600], brain[600];
    snprintf(path, sizeof path, "%s/scene.lua", src);
    char *scene_text = read_file(path);
    snprintf(path, sizeof path, "%s/brain.lua", src);
    char *good = read_file(path);
    snprintf(scene, sizeof scene, "%s/scene.lua", dir);
    snprintf(brain, sizeof brain, "%s/brain.lua", dir);
    write_file(scene, scene_text);
    write_file(brain, good);

    ScriptConfig config = {0};
    config.scene_path = scene;
    config.run.think_hz = -1;         /* the scene's: 10 */
    config.run.time_budget_ms = 5000; /* generous: the machine is shared; a timeout would count as an error */
    config.run.memory_cap = (size_t)1 << 30;
    char error[2048];
    double t0 = guard_now();
    ScriptHost *host = script_create(&config, error, sizeof error);
    if (!host) {
        fprintf(stderr, "soak: %s\n", error);
        return 2;
    }
    SteerWorld *world = script_world(host);
    double dt = steer_world_dt(world);
    long vehicles = 0;
    long bad = check(host, &vehicles);
    printf("soak: %ld steps (%.1f simulated minutes), %ld vehicles, dt %.6f s\n", steps, (double)steps * dt / 60.0,
           vehicles, dt);
    Memory at_load = measure(host);
    print_memory("after load:", at_load);

    long warm = steps >= 2 * STEPS_PER_MINUTE ? STEPS_PER_MINUTE : steps / 2;
    Memory start = at_load;
    int reloads = 0, broken = 0, reload_failed = 0, good_failed = 0;
    for (long step = 1; step <= steps; step++) {
        script_think(host);
        script_update(host, dt);
        steer_world_step(world);
        if (step == warm) {
            start = measure(host);
            print_memory("start (after warm-up):", start);
        }
        if (step % STEPS_PER_MINUTE == 0) {
            int minute = (int)(step / STEPS_PER_MINUTE);
            bad += check(host, &vehicles);
            bool breaking = minute % 10 == 5; /* minutes 5, 15, ...: six in an hour */
            char *text = brain_text(good, minute, breaking);
            write_file(brain, text);
            free(text);
            ScriptReload r = script_reload_file(host, brain);
            reloads++;
            broken += breaking;
            if (r == SCRIPT_RELOAD_FAILED) reload_failed++;
            if (r != SCRIPT_RELOAD_OK && !breaking) good_failed++;
            printf("soak: minute %d: %ld vehicles, %ld non-finite so far, %d errors, %.0f s wall\n", minute, vehicles,
                   bad, script_error_count(host), guard_now() - t0);
            fflush(stdout);
        }
    }
    bad += check(host, &vehicles);
    Memory end = measure(host);
    print_memory("end:", end);
    int errors = script_error_count(host);
    int unexpected = errors - reload_failed;
    printf("soak: reloads %d (%d broken on purpose, %d failed; %d good ones failed)\n", reloads, broken, reload_failed,
           good_failed);
    printf("soak: errors %d (%d from the broken reloads, %d others), brains paused at the end %d\n", errors,
           reload_failed, unexpected, script_failing_vehicles(host));
    printf("soak: non-finite x, y, vx, vy values: %ld (checked every simulated minute)\n", bad);
    double g_lua = growth(start.lua_kib, end.lua_kib), g_state = growth(start.state_kib, end.state_kib),
           g_rss = growth(start.rss_kib, end.rss_kib);
    printf("soak: growth start -> end: Lua heap %+.2f %%, state %+.2f %%, RSS %+.2f %%\n", g_lua, g_state, g_rss);
    printf("soak: %.0f s wall, %.3f ms per step\n", guard_now() - t0, 1000.0 * (guard_now() - t0) / (double)steps);
    /* Memory is judged from the end of the first minute: a shorter run is still growing its
     * capacities (behaviour slots grow as brains first switch), so its figures are only shown. */
    bool judged = warm == STEPS_PER_MINUTE;
    if (!judged) printf("soak: shorter than two simulated minutes: memory growth not judged\n");
    bool ok = bad == 0 && unexpected == 0 && reload_failed == broken && good_failed == 0 &&
              (!judged || (g_lua <= 5.0 && g_state <= 5.0 && g_rss <= 5.0));
    printf("soak: %s\n", ok ? "PASS" : "FAIL");
    script_destroy(host);
    unlink(brain);
    unlink(scene);
    rmdir(dir);
    free(scene_text);
    free(good);
    return ok ? 0 : 1;
}
