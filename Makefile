# steer - build, test, benchmark. Everything is built out of tree into build/.
#   make          the core library (build/libsteer.a, libsteer.so), and the Lua module and the
#                 program where pkg-config finds their libraries (mk/deps.mk)
#   make test     every test suite under AddressSanitizer + UBSan; ends with "N passed, N failed"
#   make test-core  the core's C tests only (no Lua, no SDL, no dpkg: mk/deps.mk)
#   make bench    benchmarks (not part of make test)
#   make fuzz     libFuzzer harnesses of the core and the Lua module, FUZZ_SECONDS each (mk/fuzz.mk)
#   make demo     the hunter/prey demo
#   make install  PREFIX=/usr/local DESTDIR=   (libsteer.a/.so, headers, steer.pc, the Lua module
#                 and libraries, the program, the demos: mk/install.mk)
#   make uninstall PREFIX=/usr/local DESTDIR=  removes what make install put there
#   make clean
#
# A folder of C sources is built by one line, $(eval $(call c_source_tree,NAME,DIR,OUT)) (defined
# below): its objects in both flavours, plain and asan, from one compile command.
#
# Each part of the project adds its own rules in mk/<part>.mk and plugs into the shared targets
# through four lists: TEST_SUITES (commands run by `make test`, each printing cmocka's or busted's
# summary), TEST_PREREQS (what they need built), BENCH_TARGETS (phony targets `make bench` runs in
# turn) and INSTALL_TARGETS with UNINSTALL_TARGETS (each part removes the files its install target
# puts in place, listed from the same variables).

CC      ?= cc
BUILD   ?= build
CSTD     = -std=c11 -D_POSIX_C_SOURCE=200809L
WARN     = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS  ?= -O2 -g
SAN      = -fsanitize=address,undefined,float-divide-by-zero -fno-sanitize-recover=all -fno-omit-frame-pointer

# Everything includes the public API as "steer/steer.h" from include/; src/core's private headers
# (world_internal.h, grid.h, ...) are reached only by the core itself and the white-box tests.
STEER_INC = -Iinclude

# Objects come in flavours, each in its own folder: plain (release: build/...), asan (what the
# tests run: build/asan/...) and tsan (the threading tests: build/tsan/..., the core only, in
# mk/threads.mk). One compile command for all of them, below.
FLAVOUR_DIR_plain   = $(BUILD)
FLAVOUR_DIR_asan    = $(BUILD)/asan
FLAVOUR_DIR_tsan    = $(BUILD)/tsan
FLAVOUR_FLAGS_plain = $(CFLAGS)
FLAVOUR_FLAGS_asan  = -O1 -g $(SAN) -DSTEER_DEBUG
FLAVOUR_FLAGS_tsan  = -O1 -g $(TSAN) -DSTEER_DEBUG

# $(call c_objects_rule,FLAVOUR,DIR,OUT,NAME): compiles DIR/x.c into $(FLAVOUR_DIR_FLAVOUR)/OUT/x.o
# with $(NAME_CFLAGS), rebuilt when $(NAME_HDR) or the public API changes.
define c_objects_rule
$$(FLAVOUR_DIR_$(1))/$(3)/%.o: $(2)/%.c $$($(4)_HDR) $$(CORE_HDR)
	@mkdir -p $$(@D)
	$$(CC) $$(CSTD) $$(WARN) $$(FLAVOUR_FLAGS_$(1)) $$($(4)_CFLAGS) -c $$< -o $$@
endef

# $(eval $(call c_source_tree,NAME,DIR,OUT)): a source folder in both flavours, plain and asan:
# NAME_OBJ (in $(BUILD)/OUT) and NAME_OBJ_ASAN (in $(BUILD)/asan/OUT) from NAME_SRC (all of DIR/*.c
# unless set before), and their rules. A new folder of C sources is one such line (with its
# NAME_CFLAGS and NAME_HDR).
define c_source_tree
$(1)_SRC      ?= $$(wildcard $(2)/*.c)
$(1)_OBJ       = $$($(1)_SRC:$(2)/%.c=$$(FLAVOUR_DIR_plain)/$(3)/%.o)
$(1)_OBJ_ASAN  = $$($(1)_SRC:$(2)/%.c=$$(FLAVOUR_DIR_asan)/$(3)/%.o)
$(call c_objects_rule,plain,$(2),$(3),$(1))
$(call c_objects_rule,asan,$(2),$(3),$(1))
endef

CORE_HDR    = $(wildcard src/core/*.h) $(wildcard include/steer/*.h)
CORE_CFLAGS = $(STEER_INC) -fPIC
$(eval $(call c_source_tree,CORE,src/core,core))

C_TEST_SRC  = $(wildcard tests/c/test_*.c)
C_TEST_BIN  = $(C_TEST_SRC:tests/c/%.c=$(BUILD)/asan/tests/%)

.PHONY: all test test-c bench install uninstall clean check-deps
all: $(BUILD)/libsteer.a

TEST_SUITES     =
TEST_PREREQS    =
BENCH_TARGETS   =
INSTALL_TARGETS =
UNINSTALL_TARGETS =
ALL_TARGETS     =
PREFIX  ?= /usr/local
DESTDIR ?=

# $(call core_library_rule,FLAVOUR): the core as a static library of that flavour's objects.
define core_library_rule
$$(FLAVOUR_DIR_$(1))/libsteer.a: $$(CORE_SRC:src/core/%.c=$$(FLAVOUR_DIR_$(1))/core/%.o)
	ar rcs $$@ $$^
endef

# $(call c_tests_rule,FLAVOUR): tests/c/x.c into the test binary $(FLAVOUR_DIR_FLAVOUR)/tests/x,
# linked with that flavour's core (asan: make test; tsan: make test-tsan, mk/threads.mk). A test
# that needs more than the core sets TEST_CFLAGS / TEST_LINK / TEST_LIBS for its binary in its mk
# file (target-specific variables) and adds the extra objects as prerequisites.
define c_tests_rule
$$(FLAVOUR_DIR_$(1))/tests/%: tests/c/%.c tests/c/test_support.h $$(FLAVOUR_DIR_$(1))/libsteer.a
	@mkdir -p $$(@D)
	$$(CC) $$(CSTD) $$(WARN) -Wno-missing-prototypes $$(FLAVOUR_FLAGS_$(1)) $$(STEER_INC) -Isrc/core $$(TEST_CFLAGS) $$< \
	    $$(TEST_LINK) $$(FLAVOUR_DIR_$(1))/libsteer.a $$(TEST_LIBS) -lcmocka -lm -o $$@
endef

$(eval $(call core_library_rule,plain))
$(eval $(call core_library_rule,asan))
$(eval $(call c_tests_rule,asan))

-include $(sort $(wildcard mk/*.mk))

all: $(filter-out $(ALL_SKIPPED),$(ALL_TARGETS))

test: check-deps $(C_TEST_BIN) $(TEST_PREREQS)
	@sh tests/run_suites.sh $(C_TEST_BIN) $(TEST_SUITES)

bench: $(BENCH_TARGETS)

install: $(INSTALL_TARGETS)

# After every part's files, the directories that only steer uses, once empty (mk/install.mk).
uninstall: $(UNINSTALL_TARGETS)
	for d in $(STEER_DIRS); do [ ! -d $$d ] || rmdir --ignore-fail-on-non-empty $$d; done

# Installs the missing Debian packages when run as root (as CI is); otherwise says exactly what to
# install, instead of failing later with a compiler error. Without dpkg-query (not Debian) it says
# that it checks nothing and lets the build go on.
DEBIAN_PACKAGES = build-essential pkg-config lua5.4 liblua5.4-dev lua-busted libcmocka-dev \
                  libsdl2-dev libsdl2-ttf-dev libsdl2-image-dev fonts-dejavu-core \
                  luajit libluajit-5.1-dev love xvfb xauth luarocks lua-check cmake
check-deps:
	@if ! command -v dpkg-query >/dev/null; then \
	    echo "steer: no dpkg-query here, so the Debian packages are not checked:$(foreach p,$(DEBIAN_PACKAGES), $(p))"; exit 0; \
	fi; \
	missing=""; \
	for p in $(DEBIAN_PACKAGES); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing the Debian packages steer needs:$$missing"; \
	    export DEBIAN_FRONTEND=noninteractive; \
	    apt-get update -qq && apt-get install -y -qq --no-install-recommends $$missing || exit 1; \
	elif [ -n "$$missing" ]; then \
	    echo "steer needs these Debian packages:$$missing"; \
	    echo "install them with: sudo apt-get install$$missing"; exit 1; \
	fi

clean:
	rm -rf $(BUILD)
