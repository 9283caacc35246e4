# mk/fuzz.mk - fuzzing: libFuzzer harnesses of the core API (tests/fuzz/fuzz_core.c) and of the Lua
# module (tests/fuzz/fuzz_lua.c), and the replay of their corpora in `make test`.
#   make fuzz [FUZZ_SECONDS=600]   builds each harness with clang -fsanitize=fuzzer,address,undefined
#                                  and runs them one after the other, FUZZ_SECONDS each (needs the
#                                  Debian packages clang and libfuzzer-14-dev: installed as root,
#                                  else the apt-get line is printed). New inputs go to
#                                  $(BUILD)/fuzz/corpus/<harness>/ (seeded from the corpus below),
#                                  crashes to $(BUILD)/fuzz/crash-<harness>-*.
#   make fuzz-core / fuzz-lua      one harness.
# tests/fuzz/corpus/<harness>/ holds a few dozen seeds and every crash found (minimized with
# `-minimize_crash=1`); `make test` replays each file with the project's compiler and sanitizers
# (tests/fuzz/replay.c), so CI needs no clang. A crash found: fix it, copy the input there.

FUZZ_SECONDS ?= 600
FUZZ_CC      ?= clang
FUZZ_FLAGS    = -g -O1 -fsanitize=fuzzer,address,undefined,float-divide-by-zero -fno-sanitize-recover=all
FUZZ_LUA_CFLAGS := $(shell pkg-config --cflags lua5.4 2>/dev/null)
FUZZ_LUA_LIBS   := $(shell pkg-config --libs lua5.4 2>/dev/null)
FUZZ_HDR      = tests/fuzz/fuzz_support.h $(CORE_HDR)
# (mk/lua.mk is read after this file: its lists are not defined yet where rules below need them)
FUZZ_BINDINGS_SRC      = $(wildcard bindings/*.c)
FUZZ_BINDINGS_HDR      = $(wildcard bindings/*.h)
FUZZ_BINDINGS_OBJ_ASAN = $(FUZZ_BINDINGS_SRC:bindings/%.c=$(BUILD)/asan/bindings/%.o)

# The harnesses under libFuzzer: one clang command each, from the sources (the asan objects are gcc's).
$(BUILD)/fuzz/fuzz_core: tests/fuzz/fuzz_core.c $(FUZZ_HDR) $(CORE_SRC)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CSTD) $(WARN) $(FUZZ_FLAGS) $(STEER_INC) -Isrc/core -Itests/fuzz tests/fuzz/fuzz_core.c $(CORE_SRC) -lm -o $@

$(BUILD)/fuzz/fuzz_lua: tests/fuzz/fuzz_lua.c $(FUZZ_HDR) $(CORE_SRC) $(FUZZ_BINDINGS_SRC) $(FUZZ_BINDINGS_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CSTD) $(WARN) $(FUZZ_FLAGS) $(STEER_INC) -Isrc/core -Ibindings -Itests/fuzz $(FUZZ_LUA_CFLAGS) tests/fuzz/fuzz_lua.c \
	    $(FUZZ_BINDINGS_SRC) $(CORE_SRC) $(FUZZ_LUA_LIBS) -lm -o $@

.PHONY: fuzz fuzz-core fuzz-lua fuzz-deps
fuzz-deps:
	@$(MAKE) --no-print-directory check-deps DEBIAN_PACKAGES="clang libfuzzer-14-dev lua5.4 liblua5.4-dev"

# -max_len: the harnesses read a few bytes per call; longer inputs only repeat. Each run prints
# libFuzzer's final stats (executions, cov, ft, corpus) for docs/benchmarks.md.
FUZZ_RUN = mkdir -p $(BUILD)/fuzz/corpus/$(1) && \
    $(BUILD)/fuzz/fuzz_$(1) $(BUILD)/fuzz/corpus/$(1) tests/fuzz/corpus/$(1) -max_total_time=$(FUZZ_SECONDS) \
    -max_len=4096 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz/crash-$(1)-

fuzz-core: fuzz-deps $(BUILD)/fuzz/fuzz_core
	$(call FUZZ_RUN,core)

fuzz-lua: fuzz-deps $(BUILD)/fuzz/fuzz_lua
	$(call FUZZ_RUN,lua)

fuzz: fuzz-core fuzz-lua

# The replay: the same harness functions, gcc-built with the tests' sanitizers, over every file of
# the corpus (one child process per input; cmocka's summary lines).
FUZZ_REPLAY_HDR    = $(FUZZ_HDR) $(FUZZ_BINDINGS_HDR)
FUZZ_REPLAY_CFLAGS = $(STEER_INC) -Isrc/core -Ibindings -Itests/fuzz $(FUZZ_LUA_CFLAGS)
$(eval $(call c_objects_rule,asan,tests/fuzz,fuzz,FUZZ_REPLAY))

$(BUILD)/asan/tests/replay_core: $(BUILD)/asan/fuzz/replay.o $(BUILD)/asan/fuzz/fuzz_core.o $(BUILD)/asan/libsteer.a
	@mkdir -p $(@D)
	$(CC) -O1 -g $(SAN) $^ -lm -o $@

$(BUILD)/asan/tests/replay_lua: $(BUILD)/asan/fuzz/replay.o $(BUILD)/asan/fuzz/fuzz_lua.o $(FUZZ_BINDINGS_OBJ_ASAN) $(BUILD)/asan/libsteer.a
	@mkdir -p $(@D)
	$(CC) -O1 -g $(SAN) $^ $(FUZZ_LUA_LIBS) -lm -o $@

TEST_PREREQS += $(BUILD)/asan/tests/replay_core $(BUILD)/asan/tests/replay_lua
TEST_SUITES  += "$(BUILD)/asan/tests/replay_core tests/fuzz/corpus/core" "$(BUILD)/asan/tests/replay_lua tests/fuzz/corpus/lua"

# tests/c/test_limits.c also feeds the core harness random inputs.
$(BUILD)/asan/tests/test_limits: TEST_CFLAGS = -Itests/fuzz
$(BUILD)/asan/tests/test_limits: TEST_LINK = $(BUILD)/asan/fuzz/fuzz_core.o
$(BUILD)/asan/tests/test_limits: $(BUILD)/asan/fuzz/fuzz_core.o
