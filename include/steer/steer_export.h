/* SPDX-License-Identifier: MIT */
/* steer_export.h - STEER_API, the mark on every public function of the core: the library is built
 * with its symbols hidden by default (-fvisibility=hidden), so exactly the functions so marked are
 * what libsteer.so (or steer.dll) exports, and nothing of the core's inside can be linked against.
 *
 * ELF and Mach-O (GCC, Clang): default visibility, whatever the build. Windows: a DLL build of the
 * library defines STEER_BUILD_DLL (dllexport); a program that links that DLL defines STEER_DLL
 * (dllimport); neither, the static library (nothing to mark).
 */
#ifndef STEER_EXPORT_H
#define STEER_EXPORT_H

#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(STEER_BUILD_DLL)
#define STEER_API __declspec(dllexport)
#elif defined(STEER_DLL)
#define STEER_API __declspec(dllimport)
#else
#define STEER_API
#endif
#elif defined(__GNUC__) && __GNUC__ >= 4
#define STEER_API __attribute__((visibility("default")))
#else
#define STEER_API
#endif

#endif
