# mk/stress.mk - failing allocations (part of make test) and the soak (make soak, not part of it).
#   tests/c/test_alloc_failure.c       every allocation of the core fails in turn
#   tests/c/test_alloc_failure_lua.c   every allocation of the bindings (Lua's and the core's) fails in turn
#   make soak                          the soak (bench/soak)
# (Included after lua.mk and runtime.mk, whose object lists the rules below name.)

# The Lua side links the sanitized bindings, like test_lua_bindings (mk/lua.mk).
$(BUILD)/asan/tests/test_alloc_failure_lua: TEST_CFLAGS = -Ibindings $(LUA_CFLAGS)
$(BUILD)/asan/tests/test_alloc_failure_lua: TEST_LINK = $(BINDINGS_OBJ_ASAN)
$(BUILD)/asan/tests/test_alloc_failure_lua: TEST_LIBS = $(LUA_LIBS)
$(BUILD)/asan/tests/test_alloc_failure_lua: $(BINDINGS_OBJ_ASAN)

