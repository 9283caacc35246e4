# mk/render.mk - src/render (SDL2 drawing of a world), its test, the render_scene example and the
# render benchmark. The runtime links RENDER_OBJ / RENDER_OBJ_ASAN with SDL_LIBS.

SDL_CFLAGS := $(shell pkg-config --cflags sdl2 SDL2_ttf SDL2_image 2>/dev/null)
SDL_LIBS   := $(shell pkg-config --libs sdl2 SDL2_ttf SDL2_image 2>/dev/null)

RENDER_HDR    = $(wildcard src/render/*.h)
RENDER_CFLAGS = -fPIC $(STEER_INC) -Isrc/render $(SDL_CFLAGS)
$(eval $(call c_source_tree,RENDER,src/render,render))

# The font the example, the benchmark and the tests use (Debian's fonts-dejavu-core).
RENDER_FONT ?= /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf

$(BUILD)/asan/tests/test_render: TEST_CFLAGS = -Isrc/render $(SDL_CFLAGS) -DRENDER_FONT='"$(RENDER_FONT)"'
$(BUILD)/asan/tests/test_render: TEST_LINK = $(RENDER_OBJ_ASAN)
$(BUILD)/asan/tests/test_render: TEST_LIBS = $(SDL_LIBS)
$(BUILD)/asan/tests/test_render: $(RENDER_OBJ_ASAN) tests/c/render_support.h
$(BUILD)/asan/tests/test_render_labels: TEST_CFLAGS = -Isrc/render $(SDL_CFLAGS) -DRENDER_FONT='"$(RENDER_FONT)"'
$(BUILD)/asan/tests/test_render_labels: TEST_LINK = $(RENDER_OBJ_ASAN)
$(BUILD)/asan/tests/test_render_labels: TEST_LIBS = $(SDL_LIBS)
$(BUILD)/asan/tests/test_render_labels: $(RENDER_OBJ_ASAN) tests/c/render_support.h

# SDL's dummy video driver needs no display; LSan ignores the one leak D-Bus keeps by design when
# a display (Xvfb) is used. A test that asks for sound (--sound) gets the dummy audio driver, or
# the disk writer it names itself: never a real device.
test: export SDL_VIDEODRIVER = dummy
test: export SDL_AUDIODRIVER = dummy
test: export LSAN_OPTIONS = suppressions=$(CURDIR)/tests/lsan.supp

# examples/render_scene.c: build a scene with the core, step it, render offscreen, save a PNG.
$(BUILD)/render_scene: examples/render_scene.c $(RENDER_OBJ) $(BUILD)/libsteer.a
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(RENDER_CFLAGS) -DRENDER_FONT='"$(RENDER_FONT)"' $< $(RENDER_OBJ) $(BUILD)/libsteer.a $(SDL_LIBS) -lm -o $@

$(BUILD)/bench_render: bench/bench_render.c bench/bench_support.h $(RENDER_OBJ) $(BUILD)/libsteer.a
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(RENDER_CFLAGS) -DRENDER_FONT='"$(RENDER_FONT)"' $< $(RENDER_OBJ) $(BUILD)/libsteer.a $(SDL_LIBS) -lm -o $@

.PHONY: bench-render screenshot
bench-render: $(BUILD)/bench_render
	SDL_VIDEODRIVER=dummy $(BUILD)/bench_render

# docs/screenshot.png, from the example scene.
screenshot: $(BUILD)/render_scene
	SDL_VIDEODRIVER=dummy $(BUILD)/render_scene docs/screenshot.png

ALL_TARGETS   += $(BUILD)/render_scene
BENCH_TARGETS += bench-render

# make bench-render-baseline RENDER_BASELINE=<commit>: the same benchmark program against src/render
# as it was at that commit (taken with git archive, built apart in $(BUILD)/render-baseline), so that
# before/after figures come from one benchmark on one machine. (-Iinclude/steer: a src/render older
# than include/steer/ includes "steer.h" by its bare name.)
RENDER_BASELINE ?= HEAD
RENDER_BASE_DIR  = $(BUILD)/render-baseline
.PHONY: bench-render-baseline
bench-render-baseline: bench/bench_render.c bench/bench_support.h $(BUILD)/libsteer.a
	rm -rf $(RENDER_BASE_DIR) && mkdir -p $(RENDER_BASE_DIR)
	git archive $(RENDER_BASELINE) src/render | tar -x -C $(RENDER_BASE_DIR)
	$(CC) $(CSTD) $(CFLAGS) $(STEER_INC) -Iinclude/steer -I$(RENDER_BASE_DIR)/src/render $(SDL_CFLAGS) -DRENDER_FONT='"$(RENDER_FONT)"' \
	    bench/bench_render.c $(RENDER_BASE_DIR)/src/render/*.c $(BUILD)/libsteer.a $(SDL_LIBS) -lm -o $(RENDER_BASE_DIR)/bench_render
	SDL_VIDEODRIVER=dummy $(RENDER_BASE_DIR)/bench_render

# The senses overlay and the inspector's sense lines (tests/c/test_render_senses.c).
$(BUILD)/asan/tests/test_render_senses: TEST_CFLAGS = -Isrc/render $(SDL_CFLAGS) -DRENDER_FONT='"$(RENDER_FONT)"'
$(BUILD)/asan/tests/test_render_senses: TEST_LINK = $(RENDER_OBJ_ASAN)
$(BUILD)/asan/tests/test_render_senses: TEST_LIBS = $(SDL_LIBS)
$(BUILD)/asan/tests/test_render_senses: $(RENDER_OBJ_ASAN) tests/c/render_support.h

# The navigation overlay, paths and replans (tests/c/test_render_nav.c).
$(BUILD)/asan/tests/test_render_nav: TEST_CFLAGS = -Isrc/render $(SDL_CFLAGS) -DRENDER_FONT='"$(RENDER_FONT)"'
$(BUILD)/asan/tests/test_render_nav: TEST_LINK = $(RENDER_OBJ_ASAN)
$(BUILD)/asan/tests/test_render_nav: TEST_LIBS = $(SDL_LIBS)
$(BUILD)/asan/tests/test_render_nav: $(RENDER_OBJ_ASAN) tests/c/render_support.h
# The selected vehicle's orca half-planes and the inspector's orca line (tests/c/test_render_orca.c).
$(BUILD)/asan/tests/test_render_orca: TEST_CFLAGS = -Isrc/render $(SDL_CFLAGS) -DRENDER_FONT='"$(RENDER_FONT)"'
$(BUILD)/asan/tests/test_render_orca: TEST_LINK = $(RENDER_OBJ_ASAN)
$(BUILD)/asan/tests/test_render_orca: TEST_LIBS = $(SDL_LIBS)
$(BUILD)/asan/tests/test_render_orca: $(RENDER_OBJ_ASAN) tests/c/render_support.h
