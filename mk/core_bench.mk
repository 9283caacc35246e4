# core_bench.mk - the core's benchmarks, both in `make bench`:
#   bench-flocking  the flocking step at 1,000 to 1,000,000 vehicles, on 1 and 2 threads (then again
#                   beside a spinning process of its own, pinned to the second core); links the
#                   plain -O2 core (build/libsteer.a) and an embedded Lua 5.4 that runs the same
#                   flocking in plain Lua (bench/flocking.lua) in the same process, for the ratio
#   bench-walls     avoid_walls through the wall grid against the full scan of every wall
#   bench-mixed     the hunter/prey step (prey flock with prey only, pursue, evade) against a one-kind
#                   flock at the same neighbour count
#   bench-senses    line of sight and the step with senses against their baselines (issue #28)
#   bench-nav       path queries and flow fields on a 256 x 256 map against a plain-Lua A*

BENCH_FLOCKING   = $(BUILD)/bench/bench_flocking
CORE_BENCH_LUA_CFLAGS = $(shell pkg-config --cflags lua5.4)
CORE_BENCH_LUA_LIBS   = $(shell pkg-config --libs lua5.4)

$(BENCH_FLOCKING): bench/bench_flocking.c bench/bench_support.h bench/memory_probe.h $(BUILD)/libsteer.a $(CORE_HDR)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -O2 -g -pthread $(STEER_INC) $(CORE_BENCH_LUA_CFLAGS) $< $(BUILD)/libsteer.a $(CORE_BENCH_LUA_LIBS) -lm -o $@

.PHONY: bench-flocking
bench-flocking: $(BENCH_FLOCKING)
	$(BENCH_FLOCKING) bench/flocking.lua

BENCH_TARGETS += bench-flocking

# make bench-walls: avoid_walls with the wall grid against the full scan of every wall, same process.
BENCH_WALLS = $(BUILD)/bench/bench_walls
$(BENCH_WALLS): bench/bench_walls.c bench/bench_support.h $(BUILD)/libsteer.a $(CORE_HDR)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -O2 -g $(STEER_INC) -Isrc/core $< $(BUILD)/libsteer.a -lm -o $@

.PHONY: bench-walls
bench-walls: $(BENCH_WALLS)
	$(BENCH_WALLS)

BENCH_TARGETS += bench-walls

# make bench-senses: what senses cost in the core - a line of sight among 10,000 vehicles, 1,000
# obstacles and 500 walls against a scan of every shape, and the step with senses against the same
# scene without, at 10,000 and 100,000 vehicles (bench/bench_senses.c). The Lua half of the
# issue's figures (brains woken by events) sits beside it.
BENCH_SENSES = $(BUILD)/bench/bench_senses
$(BENCH_SENSES): bench/bench_senses.c bench/bench_support.h $(BUILD)/libsteer.a $(CORE_HDR)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -O2 -g -pthread $(STEER_INC) -Isrc/core $< $(BUILD)/libsteer.a -lm -o $@

.PHONY: bench-senses
bench-senses: $(BENCH_SENSES)
	$(BENCH_SENSES)

BENCH_TARGETS += bench-senses
# make bench-nav (also bench-navigation, the issue's name): path queries and a flow field on a
# 256 x 256-cell map about 30 % blocked, against a plain-Lua A* (bench/astar.lua) in the same process.
BENCH_NAV = $(BUILD)/bench/bench_nav
$(BENCH_NAV): bench/bench_nav.c bench/bench_support.h $(BUILD)/libsteer.a $(CORE_HDR)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -O2 -g $(STEER_INC) $(CORE_BENCH_LUA_CFLAGS) $< $(BUILD)/libsteer.a $(CORE_BENCH_LUA_LIBS) -lm -o $@

.PHONY: bench-nav bench-navigation
bench-nav: $(BENCH_NAV)
	$(BENCH_NAV) bench/astar.lua
bench-navigation: bench-nav

BENCH_TARGETS += bench-nav

# make bench-mixed: the hunter/prey scene's step (prey flock with prey only, pursue and evade
# targets) against a one-kind flock at the same neighbour count, alternating in one process, at
# 10,000 on one thread and at 100,000 on 2 threads (bench/bench_mixed.c).
BENCH_MIXED = $(BUILD)/bench/bench_mixed
$(BENCH_MIXED): bench/bench_mixed.c bench/bench_support.h $(BUILD)/libsteer.a $(CORE_HDR)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -O2 -g $(STEER_INC) $< $(BUILD)/libsteer.a -lm -o $@

.PHONY: bench-mixed
bench-mixed: $(BENCH_MIXED)
	$(BENCH_MIXED)

BENCH_TARGETS += bench-mixed
