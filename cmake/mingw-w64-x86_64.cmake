# CMake toolchain file: a Windows x86-64 build with Debian's MinGW-w64 (package mingw-w64), run
# under Wine (packages wine, wine64) by ctest and the checks of tests/cmake/portability_suite.sh:
#
#   cmake -S . -B build-win -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake -DSTEER_BUILD_TESTS=ON \
#         -DSTEER_MINI_CMOCKA=ON && cmake --build build-win && ctest --test-dir build-win
#
# The posix flavour of the compiler (x86_64-w64-mingw32-gcc-posix) ships winpthreads, which the
# core's thread pool uses. Programs link the C runtime's helpers and winpthreads statically, so a
# .exe runs with no MinGW DLL beside it.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "-static")
find_program(STEER_WINE NAMES wine64 wine)
if(STEER_WINE)
    set(CMAKE_CROSSCOMPILING_EMULATOR ${STEER_WINE})
endif()
