/* SPDX-License-Identifier: MIT */
/* bench_nav.c - how fast navigation plans (steer_world_find_path, steer_world_add_flow_field_to)
 * on a 256 x 256-cell map about 30 % blocked by obstacles and walls, against a plain-Lua A* on the
 * same grid and the same queries (bench/astar.lua, run by an embedded Lua 5.4 in this process).
 *
 * Times are CPU time of this process, per query: median and 99th percentile over QUERIES random
 * pairs of reachable points. steer's query includes what the Lua one does not do (checking the
 * ends exactly against the shapes, pulling the path taut); the Lua A* only walks the cells. The
 * ratio is Lua's median over steer's, both on the same pairs (the Lua side on the first LUA_QUERIES).
 *
 * usage: bench_nav [path/to/astar.lua]   (default bench/astar.lua)
 */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_support.h"
#include "steer/steer.h"

#define CELLS 256
#define CELL 8.0
#define RADIUS 4.0
#define QUERIES 2000
#define LUA_QUERIES 200
#define FIELDS 15

static uint32_t next_random(uint32_t *seed)
{
    *seed = *seed * 1664525u + 1013904223u;
    return *seed >> 8;
}

static double percentile(double *sorted, int count, double p)
{
    int i = (int)(p * (count - 1) + 0.5);
    return sorted[i];
}

/* The baseline of the flow field: a plain breadth-first search over the same free cells from the
 * goal's cell (four neighbours, a FIFO queue, one hop per step): the least any field over the map
 * can do, with no costs, no diagonals and no vectors. Returns the cells reached. */
static int plain_bfs(const unsigned char *blocked, int start, int *hops, int *queue)
{
    for (int i = 0; i < CELLS * CELLS; i++) hops[i] = -1;
    int head = 0, tail = 0;
    hops[start] = 0;
    queue[tail++] = start;
    while (head < tail) {
        int c = queue[head++], x = c % CELLS, y = c / CELLS;
        int next[4] = {x > 0 ? c - 1 : -1, x + 1 < CELLS ? c + 1 : -1, y > 0 ? c - CELLS : -1,
                       y + 1 < CELLS ? c + CELLS : -1};
        for (int k = 0; k < 4; k++) {
            int n = next[k];
            if (n < 0 || blocked[n] || hops[n] >= 0) continue;
            hops[n] = hops[c] + 1;
            queue[tail++] = n;
        }
    }
    return tail;
}

static void lua_check(lua_State *L, int status)
{
    if (status == LUA_OK) return;
    fprintf(stderr, "bench_nav: lua: %s\n", lua_tostring(L, -1));
    exit(1);
}

int main(int argc, char **argv)
{
    const char *script = argc > 1 ? argv[1] : "bench/astar.lua";
    SteerWorldDef wdef = steer_default_world_def();
    wdef.width = wdef.height = CELLS * CELL;
    wdef.edges = STEER_EDGES_CONTAIN;
    SteerWorld *world = steer_world_create(&wdef);
    uint32_t seed = 2026;

    /* Obstacles and short walls at random until about 30 % of the map's cells are blocked. */
    static unsigned char blocked[CELLS * CELLS];
    int shapes = 0;
    double fraction = 0.0;
    while (fraction < 0.30) {
        for (int k = 0; k < 20; k++, shapes++) {
            double x = next_random(&seed) % 2048, y = next_random(&seed) % 2048;
            if (shapes % 3 == 2) {
                double angle = (next_random(&seed) % 628) / 100.0, length = 40 + next_random(&seed) % 120;
                steer_world_add_wall(world, steer_vec2(x, y),
                                     steer_vec2(x + length * cos(angle) + 0.5, y + length * sin(angle) + 0.5), NULL);
            } else {
                steer_world_add_obstacle(world, steer_vec2(x, y), 6 + next_random(&seed) % 30, NULL);
            }
        }
        int cells = steer_world_nav_map(world, RADIUS, CELL, blocked, CELLS * CELLS, NULL, NULL);
        int n = 0;
        for (int i = 0; i < cells; i++) n += blocked[i];
        fraction = (double)n / cells;
    }

    /* Pairs of free cells' centres that a path joins. */
    static SteerVec2 from[QUERIES], to[QUERIES];
    static double c_times[QUERIES], lua_times[LUA_QUERIES];
    static SteerVec2 points[4096];
    SteerPathQueryDef q = steer_default_path_query_def();
    q.radius = RADIUS;
    q.cell_size = CELL;
    int pairs = 0, tries = 0;
    double path_length = 0.0;
    while (pairs < QUERIES) {
        tries++;
        int a = (int)(next_random(&seed) % (CELLS * CELLS)), b = (int)(next_random(&seed) % (CELLS * CELLS));
        if (blocked[a] || blocked[b]) continue;
        q.start = steer_vec2((a % CELLS + 0.5) * CELL, (a / CELLS + 0.5) * CELL);
        q.goal = steer_vec2((b % CELLS + 0.5) * CELL, (b / CELLS + 0.5) * CELL);
        SteerPathResult r;
        steer_world_find_path(world, &q, points, 4096, &r);
        if (r.status != STEER_PATH_FOUND) continue;
        from[pairs] = q.start;
        to[pairs] = q.goal;
        path_length += r.length;
        pairs++;
    }

    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    lua_check(L, luaL_dofile(L, script));
    int module = lua_gettop(L);
    lua_getfield(L, module, "new");
    lua_pushlstring(L, (const char *)blocked, sizeof blocked);
    lua_pushinteger(L, CELLS);
    lua_pushinteger(L, CELLS);
    lua_check(L, lua_pcall(L, 3, 1, 0));
    int map = lua_gettop(L);
    lua_getfield(L, module, "find");
    int find = lua_gettop(L);

    /* Alternating, on the same pairs: a steer query, and (for the first LUA_QUERIES) a Lua one. */
    int lua_found = 0;
    for (int i = 0; i < QUERIES; i++) {
        q.start = from[i];
        q.goal = to[i];
        SteerPathResult r;
        double t0 = bench_cpu_seconds();
        steer_world_find_path(world, &q, points, 4096, &r);
        c_times[i] = bench_cpu_seconds() - t0;
        if (i < LUA_QUERIES) {
            lua_pushvalue(L, find);
            lua_pushvalue(L, map);
            lua_pushinteger(L, (lua_Integer)(from[i].x / CELL));
            lua_pushinteger(L, (lua_Integer)(from[i].y / CELL));
            lua_pushinteger(L, (lua_Integer)(to[i].x / CELL));
            lua_pushinteger(L, (lua_Integer)(to[i].y / CELL));
            t0 = bench_cpu_seconds();
            lua_check(L, lua_pcall(L, 5, 1, 0));
            lua_times[i] = bench_cpu_seconds() - t0;
            lua_found += !lua_isnil(L, -1);
            lua_pop(L, 1);
            if (i % 20 == 19) lua_gc(L, LUA_GCCOLLECT);
        }
    }
    double c_all[QUERIES];
    memcpy(c_all, c_times, sizeof c_all);
    double c_median = bench_median(c_all, QUERIES);
    double c_p99 = percentile(c_all, QUERIES, 0.99);
    double c_first[LUA_QUERIES];
    memcpy(c_first, c_times, sizeof c_first);
    double c_first_median = bench_median(c_first, LUA_QUERIES);
    double lua_median = bench_median(lua_times, LUA_QUERIES);

    /* Flow fields to a random free cell: made (the field allocated, the integration field and the
     * vectors computed), then kept up to date: an obstacle added far from the goal, and the step
     * that computes the field again. */
    double field_times[FIELDS], refresh_times[FIELDS], bfs_times[FIELDS];
    static int hops[CELLS * CELLS], queue[CELLS * CELLS];
    int bfs_reached = 0;
    for (int i = 0; i < FIELDS; i++) {
        SteerFlowGoalDef fdef = steer_default_flow_goal_def();
        fdef.goal = to[i];
        fdef.radius = RADIUS;
        fdef.cell_size = CELL;
        SteerFlowFieldId field;
        double t0 = bench_cpu_seconds();
        steer_world_add_flow_field_to(world, &fdef, &field);
        field_times[i] = bench_cpu_seconds() - t0;
        SteerObstacleId o;
        steer_world_add_obstacle(world, steer_vec2(5.0 + i, 5.0), 1.0, &o);
        t0 = bench_cpu_seconds();
        steer_world_step(world);
        refresh_times[i] = bench_cpu_seconds() - t0;
        steer_world_remove_obstacle(world, o);
        steer_world_remove_flow_field(world, field);
        int goal_cell = (int)(to[i].y / CELL) * CELLS + (int)(to[i].x / CELL);
        t0 = bench_cpu_seconds();
        bfs_reached = plain_bfs(blocked, goal_cell, hops, queue);
        bfs_times[i] = bench_cpu_seconds() - t0;
    }
    double bfs_median = bench_median(bfs_times, FIELDS);
    double field_median = bench_median(field_times, FIELDS);
    double refresh_median = bench_median(refresh_times, FIELDS);

    printf("navigation: %d x %d cells of %g units, %.0f %% blocked (%d obstacles and walls), radius %g\n", CELLS, CELLS,
           CELL, 100.0 * fraction, shapes, RADIUS);
    printf("  path queries between random reachable points (mean path %.0f units), CPU time per query:\n",
           path_length / QUERIES);
    printf("    steer find_path:  median %7.3f ms, 99th percentile %7.3f ms   (%d queries)\n", 1e3 * c_median,
           1e3 * c_p99, QUERIES);
    printf("    plain-Lua A*:     median %7.3f ms on the first %d (steer: %.3f ms): steer is %.0fx faster\n",
           1e3 * lua_median, LUA_QUERIES, 1e3 * c_first_median, lua_median / c_first_median);
    if (lua_found < LUA_QUERIES)
        printf("      (%d of the Lua queries found no cell path: steer's ends may leave or join the free cells\n"
               "       through cells checked exactly against the shapes, which a cell-only A* cannot)\n",
               LUA_QUERIES - lua_found);
    printf("  flow field to a goal over the whole map: made in %.3f ms, kept up to date (a step after a change) in "
           "%.3f ms (medians of %d)\n",
           1e3 * field_median, 1e3 * refresh_median, FIELDS);
    printf("    baseline, a plain 4-neighbour BFS over the same free cells (no costs, no diagonals, no vectors; %d\n"
           "    cells reached): median %.3f ms; the kept-up-to-date field costs %.1fx that BFS\n",
           bfs_reached, 1e3 * bfs_median, refresh_median / bfs_median);
    printf("  targets: median <= 0.5 ms, p99 <= 3 ms, >= 30x plain Lua, flow field update <= 5 ms: %s\n",
           c_median <= 0.5e-3 && c_p99 <= 3e-3 && lua_median / c_first_median >= 30.0 && refresh_median <= 5e-3
               ? "met"
               : "NOT met");
    (void)tries;
    lua_close(L);
    steer_world_destroy(world);
    return 0;
}
