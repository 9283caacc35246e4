# crowd_bench.mk - make bench-crowd (part of make bench): the circle test (N vehicles crossing to
# the antipode) with reciprocal avoidance (orca) and the older steering as the same-run baseline,
# and orca's cost in a dense crowd of 10,000 on 1 and 2 threads (bench/bench_crowd.c).
# `make bench-crowd BENCH_CROWD_ARGS=quick` skips the 1,000-vehicle crossing.

BENCH_CROWD = $(BUILD)/bench/bench_crowd
BENCH_CROWD_ARGS ?=

$(BENCH_CROWD): bench/bench_crowd.c bench/bench_support.h tests/c/crowd_scene.h $(BUILD)/libsteer.a $(CORE_HDR)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -O2 -g -pthread $(STEER_INC) $< $(BUILD)/libsteer.a -lm -o $@

.PHONY: bench-crowd
bench-crowd: $(BENCH_CROWD)
	$(BENCH_CROWD) $(BENCH_CROWD_ARGS)

BENCH_TARGETS += bench-crowd
