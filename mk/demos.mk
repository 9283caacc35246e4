# mk/demos.mk - the demos: fsm library tests, headless demo tests, `make demo`, `make gallery`.
#   make demo      build the program and play scripts/hunter_prey.lua
#   make gallery   a screenshot of every demo in docs/gallery/<name>.png (no display needed), and
#                  of the hunter/prey game in play and at its end (hunter_prey_play, hunter_prey_over)

.PHONY: demo gallery

# The fsm library's spec needs no steer.so. The lua part's busted_suite.sh runs every
# tests/lua/*_spec.lua; without it the spec runs here (never twice).
ifeq ($(wildcard tests/lua/busted_suite.sh),)
TEST_SUITES += "busted --lua=lua5.4 tests/lua/fsm_spec.lua"
endif

# The demo specs drive the sanitized program headless (tests/demos/helper.lua).
TEST_SUITES  += "STEER_BIN=$(CURDIR)/$(BUILD)/asan/steer sh tests/demos/run.sh"
TEST_PREREQS += $(BUILD)/asan/steer

demo: check-deps $(BUILD)/steer
	$(BUILD)/steer scripts/hunter_prey.lua

DEMO_SCRIPTS = $(wildcard scripts/*.lua)
GALLERY_STEPS ?= 600

# offscreen renders without a display; the screenshot is taken after GALLERY_STEPS steps (10 s).
# The guards scene is about what its guards sense: its picture has the senses overlay (F11) on; the
# navigation scene's has the navigation maps (F12) and the hunters' states (F7).
gallery: $(BUILD)/steer
	@mkdir -p docs/gallery
	@failed=""; for s in $(DEMO_SCRIPTS); do \
	    name=$$(basename $$s .lua); \
	    extra=""; case $$name in guards) extra="--overlays senses,states";; \
	        navigation) extra="--overlays navigation,states";; esac; \
	    if SDL_VIDEODRIVER=offscreen $(BUILD)/steer --headless --steps $(GALLERY_STEPS) $$extra \
	        --screenshot docs/gallery/$$name.png --at-step $(GALLERY_STEPS) $$s >/dev/null; \
	    then echo "docs/gallery/$$name.png"; else failed="$$failed $$name"; fi; \
	done; \
	for shot in "play 7360" "over 9010"; do set -- $$shot; \
	    if SDL_VIDEODRIVER=offscreen XDG_DATA_HOME=$(CURDIR)/$(BUILD)/no-such-dir $(BUILD)/steer --headless --steps $$2 --seed 1 \
	        --screenshot docs/gallery/hunter_prey_$$1.png --at-step $$2 scripts/hunter_prey.lua -- play >/dev/null; \
	    then echo "docs/gallery/hunter_prey_$$1.png"; else failed="$$failed hunter_prey_$$1"; fi; \
	done; \
	if [ -n "$$failed" ]; then echo "no screenshot for:$$failed"; exit 1; fi

# docs/senses.png: the guards scene with the senses overlay, guard #4 selected while it searches
# where it lost an intruder (its inspector lists its senses and memories), two others chasing.
.PHONY: senses-shot
senses-shot: $(BUILD)/steer
	SDL_VIDEODRIVER=offscreen $(BUILD)/steer --headless --steps 1180 --select 4 --overlays senses,states \
	    --width 1280 --height 800 --screenshot docs/senses.png scripts/guards.lua
