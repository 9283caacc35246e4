/* SPDX-License-Identifier: MIT */
/* steer_alloc.h - the one place the core gets and returns memory.
 *
 * Every allocation of a world goes through the allocator of its SteerWorldDef (`alloc`,
 * `alloc_user`; NULL means the C library's realloc and free). It is a per-world value rather than
 * a process-wide hook (Box2D's b2SetAllocator is global) because the core has no mutable global
 * state: two worlds, or two Lua states each with its own allocator, never see each other's, and a
 * test that fails the Nth allocation of one world needs no special build of the library. Its shape
 * is lua_Alloc's, so that the Lua module gives a world its Lua state's allocator (a memory cap then
 * binds the world too, and a state that fails allocations fails the core's as well).
 *
 * The contract is lua_Alloc's: old_size is the exact size of the block (0 for NULL), new_size 0
 * frees and returns NULL, and shrinking never fails. The core therefore always knows the size of
 * every block it holds, and a growth that fails leaves every block as it was.
 */
#ifndef STEER_ALLOC_H
#define STEER_ALLOC_H

#include <stddef.h>

#include "steer/steer_types.h"

typedef struct SteerAllocator {
    SteerAllocFn fn;
    void *user;
} SteerAllocator;

/// The allocator used when a def names none: realloc, and free for a size of 0.
void *steer_default_alloc(void *user, void *block, size_t old_size, size_t new_size);

/// A block of new_size bytes holding the first min(old_size, new_size) of `block`, or NULL (block
/// is then untouched). new_size must not be 0: use steer_free.
static inline void *steer_realloc(const SteerAllocator *a, void *block, size_t old_size, size_t new_size)
{
    return a->fn(a->user, block, block ? old_size : 0, new_size);
}

static inline void steer_free(const SteerAllocator *a, void *block, size_t size)
{
    if (block) a->fn(a->user, block, size, 0);
}

#endif
