/* SPDX-License-Identifier: MIT */
/* bench_reload.c - 1,000 reloads of a brain module (and 100 failed ones) in a running scene: the
 * Lua heap and the process's resident memory before and after, and the time per reload. */
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../bench_support.h"
#include "guard.h"
#include "script.h"

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fputs(text, f);
    fclose(f);
}

static size_t heap(ScriptHost *host)
{
    lua_gc(script_state(host), LUA_GCCOLLECT);
    return script_memory_used(host);
}

int main(void)
{
    char dir[] = "/tmp/steer_bench_reload_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    char scene[128], brain[128];
    snprintf(scene, sizeof scene, "%s/scene.lua", dir);
    snprintf(brain, sizeof brain, "%s/brain.lua", dir);
    const char *brain_text = "local M = { states = { idle = {} } }\n"
                             "function M.states.idle.think(v) v.data.n = v.data.n + 1 end\n"
                             "function M.think(v, dt) M.states.idle.think(v) v.state = 'idle' end\n"
                             "return M\n";
    write_file(brain, brain_text);
    write_file(scene, "local Brain = require 'brain'\n"
                      "function load(w)\n"
                      "  for i = 1, 1000 do\n"
                      "    local v = w:spawn{ kind = 'a', x = i, y = 10, vx = 5 }\n"
                      "    v.data.n = 0; v.brain = Brain\n"
                      "  end\n"
                      "end\n");
    ScriptConfig config = {0};
    config.scene_path = scene;
    config.run.think_hz = 10;
    config.run.time_budget_ms = 1000;
    config.run.memory_cap = 256u * 1024 * 1024;
    char error[1024];
    ScriptHost *host = script_create(&config, error, sizeof error);
    if (!host) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    /* warm up: every vehicle thinks once (its handle is made then), the first reloads */
    for (int i = 0; i < 50; i++) {
        script_reload_file(host, brain);
        script_think(host);
        steer_world_step(script_world(host));
    }
    size_t heap0 = heap(host);
    long rss0 = bench_rss_kb();
    double t0 = guard_now();
    for (int i = 0; i < 1000; i++) {
        script_reload_file(host, brain);
        script_think(host);
        steer_world_step(script_world(host));
    }
    double per_reload_ms = (guard_now() - t0) * 1000.0 / 1000.0;
    size_t heap1 = heap(host);
    long rss1 = bench_rss_kb();
    write_file(brain, "local M = {}\nfunction M.think(v\nreturn M\n");
    if (!freopen("/dev/null", "w", stderr)) return 1; /* the 100 syntax errors */
    for (int i = 0; i < 100; i++) script_reload_file(host, brain);
    write_file(brain, brain_text);
    script_reload_file(host, brain);
    size_t heap2 = heap(host);
    long rss2 = bench_rss_kb();
    /* 2,000 more: does resident memory keep growing, or was that the allocator settling? */
    for (int i = 0; i < 2000; i++) {
        script_reload_file(host, brain);
        script_think(host);
        steer_world_step(script_world(host));
    }
    size_t heap3 = heap(host);
    long rss3 = bench_rss_kb();
    printf("reload x1000 (1,000 vehicles thinking at 10 Hz): %.3f ms per reload+step\n", per_reload_ms);
    printf("  Lua heap: %zu KiB before, %zu KiB after 1000 reloads, %zu KiB after 100 failed + 1 good\n", heap0 / 1024,
           heap1 / 1024, heap2 / 1024);
    printf("  RSS:      %ld KiB before, %ld KiB after 1000 reloads, %ld KiB after 100 failed + 1 good\n", rss0, rss1,
           rss2);
    printf("  after 2000 more reloads: Lua heap %zu KiB, RSS %ld KiB\n", heap3 / 1024, rss3);
    script_destroy(host);
    unlink(scene);
    unlink(brain);
    rmdir(dir);
    return 0;
}
