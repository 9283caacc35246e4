# mk/rock.mk - steer as a Lua programmer installs it: with luarocks, from steer-*.rockspec.
# tests/rock/rock_suite.sh (make test) builds the rock from a copy of the checkout into temporary
# trees, for Lua 5.4 and for LuaJIT, and runs a program against each with only `luarocks path`. It
# builds with luarocks' own compiler flags, so it needs nothing from the other parts' builds.
TEST_SUITES += "sh tests/rock/rock_suite.sh"

# `luarocks make` in a checkout writes its objects beside the sources and steer.so at the top (the
# builtin backend has no build folder). The Makefile builds nothing there, so make clean takes them
# away: a stray ./steer.so is on LuaJIT's default search path before any installed one.
ROCK_LEFTOVERS = steer.so $(patsubst %.c,%.o,$(wildcard bindings/*.c src/core/*.c))
.PHONY: clean-rock
clean-rock:
	rm -f $(ROCK_LEFTOVERS)
clean: clean-rock
