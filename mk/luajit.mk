# mk/luajit.mk - the same module `steer` for LuaJIT 2.1 (LÖVE's Lua): build/luajit/steer.so from
# the same bindings/ sources, the 5.1 API bridged by bindings/lsteer_compat.h. Its sanitized twin
# build/luajit/asan/steer.so runs the busted specs under luajit in make test, and the LÖVE
# example (examples/love) runs in the real LÖVE under Xvfb.

LUAJIT_CFLAGS := $(shell pkg-config --cflags luajit 2>/dev/null)

# The bindings' sources again, with LuaJIT's headers: objects in $(BUILD)/luajit/bindings and
# $(BUILD)/asan/luajit/bindings.
LUAJIT_BINDINGS_HDR    = $(BINDINGS_HDR)
LUAJIT_BINDINGS_CFLAGS = -fPIC -fvisibility=hidden $(STEER_INC) -Ibindings $(LUAJIT_CFLAGS)
$(eval $(call c_source_tree,LUAJIT_BINDINGS,bindings,luajit/bindings))

# Like build/steer.so, it does not link the interpreter's library (luajit or love provides it) and
# exports only what steer_lua.h marks.
$(BUILD)/luajit/steer.so: $(LUAJIT_BINDINGS_OBJ) $(BUILD)/libsteer.a
	$(CC) -shared $(CFLAGS) $(LUAJIT_BINDINGS_OBJ) $(MODULE_CORE) $(BUILD)/libsteer.a -lm -o $@

$(BUILD)/luajit/asan/steer.so: $(LUAJIT_BINDINGS_OBJ_ASAN) $(BUILD)/asan/libsteer.a
	@mkdir -p $(@D)
	$(CC) -shared $(SAN) $(LUAJIT_BINDINGS_OBJ_ASAN) $(MODULE_CORE) $(BUILD)/asan/libsteer.a -lm -o $@

.PHONY: luajit
luajit: $(BUILD)/luajit/steer.so

TEST_PREREQS += $(BUILD)/luajit/asan/steer.so $(BUILD)/luajit/steer.so
TEST_SUITES  += "LUA=luajit sh tests/lua/busted_suite.sh"

# The LÖVE example in the real LÖVE under Xvfb (tests/love/love_suite.sh): needs the plain
# build/luajit/steer.so (LÖVE is not built with the sanitizers).
TEST_SUITES  += "sh tests/love/love_suite.sh"

# The FFI layer (bindings/lffi.lua, run by luaopen_steer under LuaJIT: bindings/lffi.c) goes into
# the module as a C string. The header is committed (CMake and luarocks build without make) and
# remade here when the Lua file changes; tests/lua/ffi_spec.lua checks that the two agree.
bindings/lffi_lua.h: bindings/lffi.lua bindings/embed_lua.sh
	sh bindings/embed_lua.sh LSTEER_FFI_LUA bindings/lffi.lua $@
