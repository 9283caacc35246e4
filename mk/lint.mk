# lint.mk - the house style, applied and checked.
#   make format   rewrites every C source and header in place with .clang-format
#   make lint     checks without changing anything: formatting (clang-format), every Lua file of the
#                 repository (luacheck, settings in .luacheckrc) and the C sources (cppcheck);
#                 fails on the first finding. CI runs it before the tests.

FORMAT_SRC = $(sort $(wildcard src/*/*.c src/*/*.h bindings/*.c bindings/*.h include/steer/*.h \
                               tests/*/*.c tests/*/*.h bench/*.c bench/*.h bench/*/*.c examples/*.c))
LUA_LINT_DIRS = scripts tests bench examples types bindings
# cppcheck does not know that luaL_error and its kin never return, nor that an entry of the error
# list owns the key it was given: those three findings are false, file by file.
CPPCHECK_FALSE = --suppress=ctunullpointer:bindings/lvehicle.c \
                 --suppress=nullPointerArithmeticRedundantCheck:bindings/lbrains.c \
                 --suppress=memleak:src/runtime/script_errors.c
CPPCHECK_FLAGS = $(CPPCHECK_FALSE) -q --error-exitcode=1 --enable=warning,portability,performance --std=c11 \
                 --library=posix --library=lua --library=sdl --inline-suppr --suppress=missingIncludeSystem --suppress=toomanyconfigs \
                 -Iinclude -Isrc/core -Isrc/render -Ibindings -I$(BUILD)/gen

.PHONY: format lint lint-format lint-lua lint-c
format:
	clang-format -i $(FORMAT_SRC)

lint: lint-format lint-lua lint-c

lint-format:
	clang-format --dry-run -Werror $(FORMAT_SRC)

lint-lua:
	luacheck -q $(LUA_LINT_DIRS)

# (the generated header script_reload.c includes: without it cppcheck sees an empty initializer)
lint-c: $(BUILD)/gen/patch_lua.h
	cppcheck $(CPPCHECK_FLAGS) src bindings
