# mk/stress.mk - failing allocations (part of make test) and the soak (make soak, not part of it).
#   tests/c/test_alloc_failure.c       every allocation of the core fails in turn
#   tests/c/test_alloc_failure_lua.c   every allocation of the bindings (Lua's and the core's) fails in turn
#   make soak                          bench/soak: an hour of simulated time at 10,000 vehicles
# (Included after lua.mk and runtime.mk, whose object lists the rules below name.)

# The Lua side links the sanitized bindings, like test_lua_bindings (mk/lua.mk).
$(BUILD)/asan/tests/test_alloc_failure_lua: TEST_CFLAGS = -Ibindings $(LUA_CFLAGS)
$(BUILD)/asan/tests/test_alloc_failure_lua: TEST_LINK = $(BINDINGS_OBJ_ASAN)
$(BUILD)/asan/tests/test_alloc_failure_lua: TEST_LIBS = $(LUA_LIBS)
$(BUILD)/asan/tests/test_alloc_failure_lua: $(BINDINGS_OBJ_ASAN)

# The soak runs the program's script host in-process (-O2), like bench_reload (mk/runtime.mk).
# SOAK_STEPS=n shortens it (216,000 steps = 1 hour at 60 Hz); SOAK_VEHICLES changes the count.
$(BUILD)/soak: bench/soak/soak.c $(RUNTIME_OBJ) $(BINDINGS_OBJ) $(RENDER_OBJ) $(BUILD)/libsteer.a
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(RUNTIME_CFLAGS) -Isrc/runtime $^ $(RUNTIME_LIBS) -o $@

.PHONY: soak
soak: $(BUILD)/soak
	$(BUILD)/soak bench/soak
