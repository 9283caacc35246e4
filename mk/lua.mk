# mk/lua.mk - the Lua 5.4 module `steer` (bindings/): build/steer.so for plain lua5.4, its
# sanitized twin build/asan/steer.so for the busted specs, the objects the runtime links
# (BINDINGS_OBJ, BINDINGS_OBJ_ASAN), install and the binding benchmark.

LUA_CFLAGS := $(shell pkg-config --cflags lua5.4 2>/dev/null)
LUA_LIBS   := $(shell pkg-config --libs lua5.4 2>/dev/null)

BINDINGS_HDR    = $(wildcard bindings/*.h)
BINDINGS_CFLAGS = -fPIC -fvisibility=hidden $(STEER_INC) -Ibindings $(LUA_CFLAGS)
$(eval $(call c_source_tree,BINDINGS,bindings,bindings))

# The module does not link liblua: the interpreter that loads it provides the Lua API. It exports
# luaopen_steer and the functions of bindings/steer_lua.h (STEER_LUA_API) only: the bindings are
# compiled with hidden symbols and the core comes from its static library with every symbol kept
# inside the module (--exclude-libs), so a program that loads steer.so and links libsteer.so too
# never has one core's functions bound to the other's.
MODULE_CORE = -Wl,--exclude-libs,ALL
$(BUILD)/steer.so: $(BINDINGS_OBJ) $(BUILD)/libsteer.a
	$(CC) -shared $(CFLAGS) $(BINDINGS_OBJ) $(MODULE_CORE) $(BUILD)/libsteer.a -lm -o $@

$(BUILD)/asan/steer.so: $(BINDINGS_OBJ_ASAN) $(BUILD)/asan/libsteer.a
	$(CC) -shared $(SAN) $(BINDINGS_OBJ_ASAN) $(MODULE_CORE) $(BUILD)/asan/libsteer.a -lm -o $@

ALL_TARGETS  += $(BUILD)/steer.so
TEST_PREREQS += $(BUILD)/asan/steer.so $(BUILD)/steer.so
TEST_SUITES  += "sh tests/lua/busted_suite.sh"

# make install PREFIX=... DESTDIR=...: steer.so where lua5.4 looks for C modules, scripts/lib
# where it looks for Lua modules.
LUA_CMOD_DIR = $(DESTDIR)$(PREFIX)/lib/lua/5.4
LUA_LMOD_DIR = $(DESTDIR)$(PREFIX)/share/lua/5.4
LUA_LIB_SRC  = $(wildcard scripts/lib/*.lua scripts/lib/steer/*.lua)
.PHONY: install-lua uninstall-lua
install-lua: $(BUILD)/steer.so
	install -d $(LUA_CMOD_DIR) $(LUA_LMOD_DIR)/steer
	install -m 755 $(BUILD)/steer.so $(LUA_CMOD_DIR)/steer.so
	for f in $(LUA_LIB_SRC); do install -m 644 $$f $(LUA_LMOD_DIR)/$${f#scripts/lib/}; done
uninstall-lua:
	rm -f $(LUA_CMOD_DIR)/steer.so $(LUA_LIB_SRC:scripts/lib/%=$(LUA_LMOD_DIR)/%)
INSTALL_TARGETS   += install-lua
UNINSTALL_TARGETS += uninstall-lua

# make bench-bindings: ns per toggle, field read and closest query, from Lua and from C.
$(BUILD)/bench_bindings: bench/bench_bindings.c bench/bench_support.h $(BINDINGS_OBJ) $(CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(STEER_INC) -Ibindings $(LUA_CFLAGS) $(filter-out %.h,$^) $(LUA_LIBS) -lm -o $@

.PHONY: bench-bindings
bench-bindings: $(BUILD)/bench_bindings
	$(BUILD)/bench_bindings
BENCH_TARGETS += bench-bindings

# make bench-pairs: steer.pairs and steer.next (the program's pairs and next) against Lua's pairs on
# the same tables of 10, 1,000 and 10,000 keys (bench/pairs/bench_pairs.lua).
.PHONY: bench-pairs
bench-pairs: $(BUILD)/steer.so
	LUA_CPATH="$(BUILD)/?.so;;" lua5.4 bench/pairs/bench_pairs.lua
BENCH_TARGETS += bench-pairs

# tests/c/test_lua_bindings.c: the C side of the module (steer_lua.h) in an embedded Lua.
$(BUILD)/asan/tests/test_lua_bindings: TEST_CFLAGS = -Ibindings $(LUA_CFLAGS)
$(BUILD)/asan/tests/test_lua_bindings: TEST_LINK = $(BINDINGS_OBJ_ASAN)
$(BUILD)/asan/tests/test_lua_bindings: TEST_LIBS = $(LUA_LIBS)
$(BUILD)/asan/tests/test_lua_bindings: $(BINDINGS_OBJ_ASAN) tests/c/lua_support.h

# tests/c/test_behaviour_table.c: the behaviour table against the core, the module and the docs.
$(BUILD)/asan/tests/test_behaviour_table: TEST_CFLAGS = -Ibindings $(LUA_CFLAGS)
$(BUILD)/asan/tests/test_behaviour_table: TEST_LINK = $(BINDINGS_OBJ_ASAN)
$(BUILD)/asan/tests/test_behaviour_table: TEST_LIBS = $(LUA_LIBS)
$(BUILD)/asan/tests/test_behaviour_table: $(BINDINGS_OBJ_ASAN) tests/c/lua_support.h
