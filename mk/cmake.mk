# mk/cmake.mk - the CMake build (CMakeLists.txt) checked against this Makefile's, and portability.
#   make test              runs tests/cmake/cmake_suite.sh (about 2 minutes): CMakeLists.txt's lists
#                          against the checkout, the libraries, the Lua module and the core's C tests
#                          built and run by CMake and ctest, and a consumer project built with
#                          add_subdirectory and with find_package that prints the checksums the
#                          Makefile's libsteer.a gives
#   make test-portability  tests/cmake/portability_suite.sh (about 5 minutes, after make test in
#                          .ci/run): the core's C tests built by clang under ASan + UBSan and by
#                          MinGW-w64 run under Wine, and the same checksums from both (Debian
#                          packages cmake clang mingw-w64 wine wine64, installed as root)

TEST_PREREQS += $(BUILD)/libsteer.a
TEST_SUITES  += "BUILD=$(BUILD) sh tests/cmake/cmake_suite.sh"

PORTABILITY_PACKAGES = cmake clang mingw-w64 wine wine64 libcmocka-dev

.PHONY: test-portability
test-portability: $(BUILD)/libsteer.a
	@$(MAKE) --no-print-directory check-deps DEBIAN_PACKAGES="$(PORTABILITY_PACKAGES)"
	@sh tests/run_suites.sh "BUILD=$(BUILD) sh tests/cmake/portability_suite.sh"
