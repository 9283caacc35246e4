# mk/demos.mk - the demos: fsm library tests, headless demo tests, `make demo`, `make gallery`.

.PHONY: demo gallery

# The fsm library's spec needs no steer.so. The lua part's busted_suite.sh runs every
# tests/lua/*_spec.lua once it exists; until then it runs here (never twice).
ifeq ($(wildcard tests/lua/busted_suite.sh),)
TEST_SUITES += "busted --lua=lua5.4 tests/lua/fsm_spec.lua"
endif
