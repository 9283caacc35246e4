# runtime.mk - the `steer` program (src/runtime): build/steer (-O2) and build/asan/steer (the
# tests run it), its tests and its benchmark. Needs BINDINGS_OBJ[_ASAN] (mk/lua.mk) and
# RENDER_OBJ[_ASAN], SDL_CFLAGS, SDL_LIBS (mk/render.mk).

# RUNTIME_OBJ[_ASAN]: everything but main.o, which the tests and benchmarks replace with their own.
RUNTIME_SRC      = $(filter-out src/runtime/main.c,$(wildcard src/runtime/*.c))
RUNTIME_HDR      = $(wildcard src/runtime/*.h) bindings/steer_lua.h src/render/render.h $(BUILD)/gen/patch_lua.h
RUNTIME_LUA_CFLAGS := $(shell pkg-config --cflags lua5.4 2>/dev/null)
RUNTIME_LUA_LIBS   := $(shell pkg-config --libs lua5.4 2>/dev/null)
RUNTIME_CFLAGS   = $(STEER_INC) -Ibindings -Isrc/render -I$(BUILD)/gen $(RUNTIME_LUA_CFLAGS) $(SDL_CFLAGS)
RUNTIME_LIBS     = $(RUNTIME_LUA_LIBS) $(SDL_LIBS) -lrt -lm
$(eval $(call c_source_tree,RUNTIME,src/runtime,runtime))

# The reload rules (scripts/lib/steer/patch.lua, which steer.hot requires too) go into the program
# as a C string literal, line by line, so that a reload never depends on finding the file. (`?` is
# escaped against trigraphs.)
$(BUILD)/gen/patch_lua.h: scripts/lib/steer/patch.lua
	@mkdir -p $(@D)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@

$(BUILD)/steer: $(BUILD)/runtime/main.o $(RUNTIME_OBJ) $(BINDINGS_OBJ) $(RENDER_OBJ) $(BUILD)/libsteer.a
	$(CC) $(CFLAGS) $^ $(RUNTIME_LIBS) -o $@

$(BUILD)/asan/steer: $(BUILD)/asan/runtime/main.o $(RUNTIME_OBJ_ASAN) $(BINDINGS_OBJ_ASAN) $(RENDER_OBJ_ASAN) $(BUILD)/asan/libsteer.a
	$(CC) -O1 -g $(SAN) $^ $(RUNTIME_LIBS) -o $@

ALL_TARGETS  += $(BUILD)/steer
TEST_PREREQS += $(BUILD)/asan/steer

# make run SCRIPT=scripts/some_scene.lua [ARGS="--overlays all"]
.PHONY: run
run: $(BUILD)/steer
	@test -n "$(SCRIPT)" || { echo "usage: make run SCRIPT=path/to/scene.lua [ARGS=...]"; exit 1; }
	$(BUILD)/steer $(ARGS) $(SCRIPT)

# Tests: the real program on real files (test_runtime_cli, test_runtime_reload, test_runtime_shot)
# and the event path in-process (test_runtime_input); a session through its one door alone
# (test_runtime_session).
RUNTIME_TESTS = test_runtime_cli test_runtime_reload test_runtime_shot test_runtime_input test_runtime_heap test_runtime_trace \
                test_runtime_scene test_runtime_brains test_runtime_errors test_runtime_replay test_runtime_rewind \
                test_runtime_brain_reload test_runtime_session \
                test_runtime_sealed test_runtime_sound
RUNTIME_TEST_BIN = $(RUNTIME_TESTS:%=$(BUILD)/asan/tests/%)
$(RUNTIME_TEST_BIN): TEST_CFLAGS = $(RUNTIME_CFLAGS) -Isrc/runtime -Itests/c -DSTEER_BIN='"$(BUILD)/asan/steer"'
$(RUNTIME_TEST_BIN): TEST_LIBS = $(RUNTIME_LIBS)
$(RUNTIME_TEST_BIN): tests/c/runtime_support.h $(BUILD)/asan/steer
RUNTIME_INPROCESS_TESTS = $(BUILD)/asan/tests/test_runtime_input $(BUILD)/asan/tests/test_runtime_heap \
                          $(BUILD)/asan/tests/test_runtime_scene $(BUILD)/asan/tests/test_runtime_brains \
                          $(BUILD)/asan/tests/test_runtime_errors $(BUILD)/asan/tests/test_runtime_replay \
                          $(BUILD)/asan/tests/test_runtime_rewind $(BUILD)/asan/tests/test_runtime_brain_reload \
                          $(BUILD)/asan/tests/test_runtime_session \
                          $(BUILD)/asan/tests/test_runtime_sealed $(BUILD)/asan/tests/test_runtime_sound
$(RUNTIME_INPROCESS_TESTS): TEST_LINK = $(RUNTIME_OBJ_ASAN) $(BINDINGS_OBJ_ASAN) $(RENDER_OBJ_ASAN)
$(RUNTIME_INPROCESS_TESTS): $(RUNTIME_OBJ_ASAN) $(BINDINGS_OBJ_ASAN) $(RENDER_OBJ_ASAN)

# The decision layer's cost: 10,000 vehicles with a small FSM brain at 10 Hz next to the physics
# step (bench/runtime/run.sh), 1,000 reloads: heap, RSS, time (bench/runtime/bench_reload.c), and
# the edit loop: save to the first think of the new code, in place and by rename, headless and in
# a window, against the old fixed 100 ms debounce in the same run (bench/runtime/bench_edit_loop.c).
.PHONY: bench-runtime
bench-runtime: $(BUILD)/steer $(BUILD)/bench_reload $(BUILD)/bench_edit_loop
	@sh bench/runtime/run.sh $(BUILD)/steer
	$(BUILD)/bench_reload
	$(BUILD)/bench_edit_loop $(BUILD)/steer
BENCH_TARGETS += bench-runtime

# Brains at scale: fsm brains that query and switch at 10 Hz in the program, and one think's world
# calls through the module at 1k/10k/100k vehicles, each against its baseline; then the same scene
# under LuaJIT against a plain-Lua game, and the largest scene at 60 fps (bench/brains/run.sh).
.PHONY: bench-brains
bench-brains: $(BUILD)/steer $(BUILD)/steer.so $(BUILD)/luajit/steer.so
	@sh bench/brains/run.sh $(BUILD)/steer $(BUILD) $(BUILD)/luajit
BENCH_TARGETS += bench-brains

# make bench-senses (with the core's half, which adds its own recipe): the hunter/prey scene of
# bench-brains on senses and events against its polling version in the same run, the physics with
# and without senses, and 100,000 vehicles on 2 threads (bench/senses/run.sh).
.PHONY: bench-senses bench-senses-lua
bench-senses-lua: $(BUILD)/steer $(BUILD)/steer.so
	@sh bench/senses/run.sh $(BUILD)/steer
bench-senses: bench-senses-lua
BENCH_TARGETS += bench-senses

# Unit tests of pieces that need neither the bindings nor the renderer.
$(BUILD)/asan/tests/test_runtime_guard: TEST_CFLAGS = -Isrc/runtime $(RUNTIME_LUA_CFLAGS)
$(BUILD)/asan/tests/test_runtime_guard: TEST_LINK = $(BUILD)/asan/runtime/guard.o
$(BUILD)/asan/tests/test_runtime_guard: TEST_LIBS = $(RUNTIME_LUA_LIBS) -lrt
$(BUILD)/asan/tests/test_runtime_guard: $(BUILD)/asan/runtime/guard.o
$(BUILD)/asan/tests/test_runtime_watch: TEST_CFLAGS = -Isrc/runtime
$(BUILD)/asan/tests/test_runtime_watch: TEST_LINK = $(BUILD)/asan/runtime/reload.o
$(BUILD)/asan/tests/test_runtime_watch: $(BUILD)/asan/runtime/reload.o
# options.o and keys.o (the key table, which --overlays and --help read) with the module's objects
# (its "did you mean"); test_runtime_keys also checks docs/runtime.md's key table against keys.c.
OPTIONS_TEST_OBJ = $(BUILD)/asan/runtime/options.o $(BUILD)/asan/runtime/keys.o $(BUILD)/asan/runtime/same_file.o \
                   $(BUILD)/asan/runtime/regular_file.o $(BINDINGS_OBJ_ASAN)
$(BUILD)/asan/tests/test_runtime_options $(BUILD)/asan/tests/test_runtime_keys: TEST_CFLAGS = -Isrc/runtime $(RUNTIME_CFLAGS)
$(BUILD)/asan/tests/test_runtime_options $(BUILD)/asan/tests/test_runtime_keys: TEST_LINK = $(OPTIONS_TEST_OBJ)
$(BUILD)/asan/tests/test_runtime_options $(BUILD)/asan/tests/test_runtime_keys: TEST_LIBS = $(RUNTIME_LUA_LIBS)
$(BUILD)/asan/tests/test_runtime_options $(BUILD)/asan/tests/test_runtime_keys: $(OPTIONS_TEST_OBJ)
$(BUILD)/asan/tests/test_runtime_shot: TEST_LINK = $(RENDER_OBJ_ASAN)
$(BUILD)/asan/tests/test_runtime_shot: $(RENDER_OBJ_ASAN)

$(BUILD)/bench_reload: bench/runtime/bench_reload.c $(RUNTIME_OBJ) $(BINDINGS_OBJ) $(RENDER_OBJ) $(BUILD)/libsteer.a
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(RUNTIME_CFLAGS) -Isrc/runtime $^ $(RUNTIME_LIBS) -o $@

$(BUILD)/bench_edit_loop: bench/runtime/bench_edit_loop.c bench/bench_support.h
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $< -o $@

# make install PREFIX=... DESTDIR=...: the program in $(PREFIX)/bin; it finds the Lua modules that
# install-lua puts in $(PREFIX)/share/lua/5.4 relative to itself.
.PHONY: install-runtime uninstall-runtime
install-runtime: $(BUILD)/steer
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BUILD)/steer $(DESTDIR)$(PREFIX)/bin/steer
uninstall-runtime:
	rm -f $(DESTDIR)$(PREFIX)/bin/steer
INSTALL_TARGETS   += install-runtime
UNINSTALL_TARGETS += uninstall-runtime

# The inspector's plots' data (history.c): plain C over the core, SDL's headers for its colour type.
$(BUILD)/asan/tests/test_runtime_history: TEST_CFLAGS = -Isrc/runtime -Isrc/render $(SDL_CFLAGS)
$(BUILD)/asan/tests/test_runtime_history: TEST_LINK = $(BUILD)/asan/runtime/history.o
$(BUILD)/asan/tests/test_runtime_history: $(BUILD)/asan/runtime/history.o src/runtime/history.h
# The plots drawn from a real history on SDL's software renderer (no display).
$(BUILD)/asan/tests/test_render_plots: TEST_CFLAGS = -Isrc/runtime -Isrc/render $(SDL_CFLAGS) -DRENDER_FONT='"$(RENDER_FONT)"'
$(BUILD)/asan/tests/test_render_plots: TEST_LINK = $(BUILD)/asan/runtime/history.o $(RENDER_OBJ_ASAN)
$(BUILD)/asan/tests/test_render_plots: TEST_LIBS = $(SDL_LIBS)
$(BUILD)/asan/tests/test_render_plots: $(BUILD)/asan/runtime/history.o $(RENDER_OBJ_ASAN) src/runtime/history.h tests/c/render_support.h

# docs/inspector-plots.png: the hunter/prey demo with hunter #2 selected after it rested, hunted and
# now chases: its inspector and plots (docs/runtime.md, Inspector plots).
.PHONY: inspector-plots
inspector-plots: $(BUILD)/steer
	SDL_VIDEODRIVER=dummy $(BUILD)/steer --headless --seed 4 --steps 1215 --select 2 --overlays forces \
	    --screenshot docs/inspector-plots.png scripts/hunter_prey.lua

# How big a 10-minute hunter/prey recording is (36,000 steps with a player's input), and that it
# replays (bench/replay/record_size.c).
.PHONY: bench-replay
bench-replay: $(BUILD)/steer $(BUILD)/bench_record_size
	$(BUILD)/bench_record_size $(BUILD)/steer
BENCH_TARGETS += bench-replay

$(BUILD)/bench_record_size: bench/replay/record_size.c bench/player_session.h $(RUNTIME_OBJ) $(BINDINGS_OBJ) $(RENDER_OBJ) $(BUILD)/libsteer.a
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(RUNTIME_CFLAGS) -Isrc/runtime $(filter-out %.h,$^) $(RUNTIME_LIBS) -o $@

# Rewind: a 10-minute hunter/prey session recorded in memory as a window does, then jumps to random
# steps: median and worst jump, against the live session's time to get that far (bench/rewind).
.PHONY: bench-rewind
bench-rewind: $(BUILD)/bench_rewind
	$(BUILD)/bench_rewind
BENCH_TARGETS += bench-rewind

$(BUILD)/bench_rewind: bench/rewind/bench_rewind.c bench/player_session.h $(RUNTIME_OBJ) $(BINDINGS_OBJ) $(RENDER_OBJ) $(BUILD)/libsteer.a
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(RUNTIME_CFLAGS) -Isrc/runtime $(filter-out %.h,$^) $(RUNTIME_LIBS) -o $@

# docs/rewind.png: the hunter/prey demo rewound after a reload, a failed save, a branch and a restart,
# a hunter's inspector and plots: the timeline at the bottom (bench/rewind/rewind_shot.c).
.PHONY: rewind-shot
rewind-shot: $(BUILD)/rewind_shot
	SDL_VIDEODRIVER=dummy $(BUILD)/rewind_shot docs/rewind.png

$(BUILD)/rewind_shot: bench/rewind/rewind_shot.c $(RUNTIME_OBJ) $(BINDINGS_OBJ) $(RENDER_OBJ) $(BUILD)/libsteer.a
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(RUNTIME_CFLAGS) -Isrc/runtime $^ $(RUNTIME_LIBS) -o $@

# The scene host under the fuzzer (tests/fuzz/fuzz_scene.c; mk/fuzz.mk has the other harnesses, but
# this one links the program's objects, whose lists are made in this file): make fuzz-scene runs it
# under libFuzzer (clang, from the sources), make test replays tests/fuzz/corpus/scene with the
# tests' compiler and sanitizers.
FUZZ_SCENE_CFLAGS = $(RUNTIME_CFLAGS) -Isrc/runtime -Isrc/core -Itests/fuzz
$(BUILD)/asan/fuzz/fuzz_scene.o: tests/fuzz/fuzz_scene.c $(RUNTIME_HDR) $(CORE_HDR)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(FLAVOUR_FLAGS_asan) $(FUZZ_SCENE_CFLAGS) -c $< -o $@

$(BUILD)/asan/tests/replay_scene: $(BUILD)/asan/fuzz/replay.o $(BUILD)/asan/fuzz/fuzz_scene.o $(RUNTIME_OBJ_ASAN) \
                                  $(BINDINGS_OBJ_ASAN) $(RENDER_OBJ_ASAN) $(BUILD)/asan/libsteer.a
	@mkdir -p $(@D)
	$(CC) -O1 -g $(SAN) $^ $(RUNTIME_LIBS) -o $@

TEST_PREREQS += $(BUILD)/asan/tests/replay_scene
TEST_SUITES  += "$(BUILD)/asan/tests/replay_scene tests/fuzz/corpus/scene"

FUZZ_SCENE_SRC = tests/fuzz/fuzz_scene.c $(RUNTIME_SRC) $(wildcard bindings/*.c) $(RENDER_SRC) $(CORE_SRC)
$(BUILD)/fuzz/fuzz_scene: $(FUZZ_SCENE_SRC) $(RUNTIME_HDR) $(CORE_HDR) $(wildcard bindings/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CSTD) $(WARN) $(FUZZ_FLAGS) $(FUZZ_SCENE_CFLAGS) -Isrc/render $(RENDER_CFLAGS) $(FUZZ_SCENE_SRC) \
	    $(RUNTIME_LIBS) -o $@

.PHONY: fuzz-scene
fuzz-scene: fuzz-deps $(BUILD)/fuzz/fuzz_scene
	$(call FUZZ_RUN,scene)
fuzz: fuzz-scene
