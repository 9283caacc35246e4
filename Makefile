# steer - build, test, benchmark. Everything is built out of tree into build/.
#   make          the core library (build/libsteer.a)
#   make test     every test suite under AddressSanitizer + UBSan; ends with "N passed, N failed"
#   make bench    benchmarks (not part of make test)
#   make fuzz     libFuzzer harnesses of the core and the Lua module, FUZZ_SECONDS each (mk/fuzz.mk)
#   make demo     the hunter/prey demo
#   make install  PREFIX=/usr/local DESTDIR=   (libsteer.a/.so, headers, steer.pc, the Lua module
#                 and libraries, the program, the demos: mk/install.mk)
#   make uninstall PREFIX=/usr/local DESTDIR=  removes what make install put there
#   make clean
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

CORE_SRC = $(wildcard src/core/*.c)
CORE_HDR = $(wildcard src/core/*.h) $(wildcard include/steer/*.h)

# Everything includes the public API as "steer/steer.h" from include/; src/core's private headers
# (world_internal.h, grid.h, ...) are reached only by the core itself and the white-box tests.
STEER_INC = -Iinclude

# Two flavours of every object: plain (release) and asan (the tests).
CORE_OBJ      = $(CORE_SRC:src/core/%.c=$(BUILD)/core/%.o)
CORE_OBJ_ASAN = $(CORE_SRC:src/core/%.c=$(BUILD)/asan/core/%.o)

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

$(BUILD)/core/%.o: src/core/%.c $(CORE_HDR)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(STEER_INC) -fPIC -c $< -o $@

$(BUILD)/asan/core/%.o: src/core/%.c $(CORE_HDR)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -O1 -g $(SAN) $(STEER_INC) -fPIC -DSTEER_DEBUG -c $< -o $@

$(BUILD)/libsteer.a: $(CORE_OBJ)
	ar rcs $@ $^

$(BUILD)/asan/libsteer.a: $(CORE_OBJ_ASAN)
	ar rcs $@ $^

# A test that needs more than the core sets TEST_CFLAGS / TEST_LINK for its binary in its mk file
# (target-specific variables) and adds the extra objects as prerequisites.
$(BUILD)/asan/tests/%: tests/c/%.c tests/c/test_support.h $(BUILD)/asan/libsteer.a
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -Wno-missing-prototypes -O1 -g $(SAN) $(STEER_INC) -Isrc/core $(TEST_CFLAGS) $< $(TEST_LINK) $(BUILD)/asan/libsteer.a $(TEST_LIBS) -lcmocka -lm -o $@

-include $(sort $(wildcard mk/*.mk))

all: $(ALL_TARGETS)

test: check-deps $(C_TEST_BIN) $(TEST_PREREQS)
	@sh tests/run_suites.sh $(C_TEST_BIN) $(TEST_SUITES)

bench: $(BENCH_TARGETS)

install: $(INSTALL_TARGETS)

# After every part's files, the directories that only steer uses, once empty (mk/install.mk).
uninstall: $(UNINSTALL_TARGETS)
	for d in $(STEER_DIRS); do [ ! -d $$d ] || rmdir --ignore-fail-on-non-empty $$d; done

# Installs the missing Debian packages when run as root (as CI is); otherwise says exactly what to
# install, instead of failing later with a compiler error.
DEBIAN_PACKAGES = build-essential pkg-config lua5.4 liblua5.4-dev lua-busted libcmocka-dev \
                  libsdl2-dev libsdl2-ttf-dev libsdl2-image-dev fonts-dejavu-core \
                  luajit libluajit-5.1-dev love xvfb xauth
check-deps:
	@missing=""; \
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
