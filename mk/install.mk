# mk/install.mk - the C library as a product: build/libsteer.so (with its soname), steer.pc, the
# headers, the demos, and `make install` / `make uninstall` of everything the parts install.
#   make install   PREFIX=/usr/local DESTDIR=   every INSTALL_TARGETS (this file's and the parts')
#   make uninstall PREFIX=/usr/local DESTDIR=   every UNINSTALL_TARGETS: removes exactly the same
#                  files, each part listing them from the same variables its install uses, then
#                  the directories that are left empty
# tests/install/install_suite.sh (in make test) installs into a temporary prefix, builds
# examples/arrive.c against it with pkg-config, runs it on the static and the shared library (and
# builds it as C++), builds and runs examples/flock_ascii.c, and uninstalls.

# The core is compiled with its symbols hidden: libsteer.so exports exactly the functions the
# public headers mark STEER_API (include/steer/steer_export.h), nothing of its inside; the static
# library and the project's own programs and tests link the same objects.
CORE_CFLAGS += -fvisibility=hidden

# The version lives in include/steer/steer.h (STEER_VERSION) and nowhere else.
STEER_VERSION   := $(shell sed -n 's/^\#define STEER_VERSION "\([^"]*\)".*/\1/p' include/steer/steer.h)
STEER_SOVERSION := $(firstword $(subst ., ,$(STEER_VERSION)))
STEER_SHARED     = $(BUILD)/libsteer.so.$(STEER_VERSION)

$(STEER_SHARED): $(CORE_OBJ)
	$(CC) -shared $(CFLAGS) -Wl,-soname,libsteer.so.$(STEER_SOVERSION) $^ -lm -pthread -o $@

# -lm in Libs, not only Libs.private: steer_math.h's inline functions call sqrt and friends in the
# user's own code.
$(BUILD)/steer.pc: include/steer/steer.h mk/install.mk
	@mkdir -p $(@D)
	printf '%s\n' '# SPDX-License-Identifier: MIT' 'prefix=$(PREFIX)' 'exec_prefix=$${prefix}' 'libdir=$${exec_prefix}/lib' \
	    'includedir=$${prefix}/include' '' 'Name: steer' \
	    'Description: Reynolds-style steering behaviours for 2D games and simulations' \
	    'Version: $(STEER_VERSION)' 'License: MIT' 'Libs: -L$${libdir} -lsteer -lm' 'Libs.private: -pthread' \
	    'Cflags: -I$${includedir}' >$@

# Rebuilt on every install: the prefix is part of its text.
.PHONY: $(BUILD)/steer.pc

ALL_TARGETS += $(STEER_SHARED)

LIB_DIR   = $(DESTDIR)$(PREFIX)/lib
INC_DIR   = $(DESTDIR)$(PREFIX)/include/steer
PC_DIR    = $(LIB_DIR)/pkgconfig
DEMO_DIR  = $(DESTDIR)$(PREFIX)/share/steer
LIB_FILES = $(LIB_DIR)/libsteer.a $(LIB_DIR)/libsteer.so.$(STEER_VERSION) $(LIB_DIR)/libsteer.so.$(STEER_SOVERSION) \
            $(LIB_DIR)/libsteer.so $(PC_DIR)/steer.pc
PUBLIC_HDR = $(wildcard include/steer/*.h)
DEMO_SRC   = $(wildcard scripts/*.lua scripts/hunter_prey/*.lua)

.PHONY: install-lib uninstall-lib install-demos uninstall-demos
install-lib: $(BUILD)/libsteer.a $(STEER_SHARED) $(BUILD)/steer.pc
	install -d $(LIB_DIR) $(INC_DIR) $(PC_DIR)
	install -m 644 $(BUILD)/libsteer.a $(LIB_DIR)/libsteer.a
	install -m 755 $(STEER_SHARED) $(LIB_DIR)/libsteer.so.$(STEER_VERSION)
	ln -sf libsteer.so.$(STEER_VERSION) $(LIB_DIR)/libsteer.so.$(STEER_SOVERSION)
	ln -sf libsteer.so.$(STEER_SOVERSION) $(LIB_DIR)/libsteer.so
	install -m 644 $(PUBLIC_HDR) $(INC_DIR)/
	install -m 644 $(BUILD)/steer.pc $(PC_DIR)/steer.pc

uninstall-lib:
	rm -f $(LIB_FILES) $(PUBLIC_HDR:include/steer/%=$(INC_DIR)/%)

install-demos:
	install -d $(DEMO_DIR)/hunter_prey
	for f in $(DEMO_SRC); do install -m 644 $$f $(DEMO_DIR)/$${f#scripts/}; done

uninstall-demos:
	rm -f $(DEMO_SRC:scripts/%=$(DEMO_DIR)/%)

INSTALL_TARGETS   += install-lib install-demos
UNINSTALL_TARGETS += uninstall-lib uninstall-demos

# The directories only steer puts files in, deepest first: `make uninstall` removes them once
# empty. Shared ones ($(PREFIX)/lib, lib/pkgconfig, share/lua/5.4, ...) stay even when empty, since
# they may have been there before.
STEER_DIRS = $(DEMO_DIR)/hunter_prey $(DEMO_DIR) $(INC_DIR) $(LUA_LMOD_DIR)/steer

# The install test: the release builds it installs are built before the suites run.
TEST_PREREQS += $(BUILD)/libsteer.a $(STEER_SHARED) $(BUILD)/steer $(BUILD)/steer.so
TEST_SUITES  += "BUILD=$(BUILD) sh tests/install/install_suite.sh"
