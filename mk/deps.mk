# mk/deps.mk - what each target needs from the system, asked only by the targets that need it, so
# that the core builds, installs and tests anywhere a C11 compiler is (no dpkg, no Lua, no SDL).
#   make            the core library always; the Lua module, the program and the render example
#                   only when pkg-config finds their libraries, else one line names what is missing
#                   and they are skipped
#   make test-core  the core's C tests (cmocka) and its fuzz corpus, under the sanitizers: needs
#                   cmocka and nothing else (checked by compiling against it, not by dpkg)
#   check-deps      (make test, demo, test-tsan, fuzz) the Debian packages, with dpkg-query, in the
#                   Makefile; where there is no dpkg-query it says so and checks nothing
# tests/install/no_dpkg_suite.sh (make test) runs make, make test-core and make install-lib with no
# dpkg, dpkg-query or apt-get on the PATH and no Lua or SDL for pkg-config.

# pkg-config's module for each library and the Debian package that has it.
DEPS_DEBIAN_lua5.4     = liblua5.4-dev
DEPS_DEBIAN_sdl2       = libsdl2-dev
DEPS_DEBIAN_SDL2_ttf   = libsdl2-ttf-dev
DEPS_DEBIAN_SDL2_image = libsdl2-image-dev
DEPS_MISSING_LUA := $(shell pkg-config --exists lua5.4 2>/dev/null || echo lua5.4)
DEPS_MISSING_SDL := $(shell for m in sdl2 SDL2_ttf SDL2_image; do pkg-config --exists $$m 2>/dev/null || echo $$m; done)
DEPS_MISSING      = $(strip $(DEPS_MISSING_LUA) $(DEPS_MISSING_SDL))

# What `make` leaves out here, and why (the Makefile's `all` filters them out of ALL_TARGETS).
ALL_SKIPPED = $(if $(DEPS_MISSING_LUA),$(BUILD)/steer.so) $(if $(DEPS_MISSING),$(BUILD)/steer) \
              $(if $(DEPS_MISSING_SDL),$(BUILD)/render_scene)
all:
	@$(if $(DEPS_MISSING),echo "steer: built the core library; skipped $(strip $(ALL_SKIPPED)):" \
	    "pkg-config finds no $(DEPS_MISSING) (Debian: $(foreach m,$(DEPS_MISSING),$(DEPS_DEBIAN_$(m))))",:)

# The core's tests: every tests/c binary but those of the module, the renderer and the program.
CORE_TEST_EXCLUDE = test_runtime_% test_render% test_lua_% test_alloc_failure_lua test_behaviour_table
CORE_TEST_BIN     = $(filter-out $(CORE_TEST_EXCLUDE:%=$(BUILD)/asan/tests/%),$(C_TEST_BIN))

.PHONY: test-core check-core-deps
test-core: check-core-deps $(CORE_TEST_BIN) $(BUILD)/asan/tests/replay_core
	@sh tests/run_suites.sh $(CORE_TEST_BIN) "$(BUILD)/asan/tests/replay_core tests/fuzz/corpus/core"

# A program that includes and links cmocka, then one built with the sanitizers: the two things the
# core's tests need beyond the compiler, asked of the compiler itself.
DEPS_CMOCKA_PROBE = '\#include <stdarg.h>\n\#include <stddef.h>\n\#include <setjmp.h>\n\#include <stdint.h>\n\#include <cmocka.h>\nint main(void) { return 0; }\n'
check-core-deps:
	@printf $(DEPS_CMOCKA_PROBE) | $(CC) -x c - -lcmocka -o /dev/null 2>/dev/null || \
	    { echo "make test-core needs cmocka: cmocka.h and -lcmocka (Debian: libcmocka-dev)"; exit 1; }
	@printf 'int main(void) { return 0; }\n' | $(CC) -x c - $(SAN) -o /dev/null 2>/dev/null || \
	    { echo "make test-core needs $(CC) with AddressSanitizer and UBSan ($(SAN))"; exit 1; }

TEST_SUITES += "sh tests/install/no_dpkg_suite.sh"
