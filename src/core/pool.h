/* SPDX-License-Identifier: MIT */
/* pool.h - a growable array of fixed-size items addressed by (1-based index, generation).
 *
 * Each item starts with a SteerPoolHeader. Freed slots keep their generation and go on a free
 * list; reuse bumps the generation, so an id of the old occupant no longer matches. Growth happens
 * only when an item is added, never during a step.
 */
#ifndef STEER_POOL_H
#define STEER_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "steer_alloc.h"

typedef struct SteerPoolHeader {
    uint16_t generation;
    bool alive;
    int32_t next_free; ///< 0-based index of the next free slot, -1 at the end
} SteerPoolHeader;

typedef struct SteerPool {
    unsigned char *items;
    size_t item_size;
    int count;                   ///< slots ever used (high-water mark)
    int capacity;                ///< slots allocated
    int live;                    ///< slots in use
    int free_head;               ///< -1 when empty
    const SteerAllocator *alloc; ///< the world's
} SteerPool;

void steer_pool_init(SteerPool *pool, size_t item_size, const SteerAllocator *alloc);
void steer_pool_free(SteerPool *pool);
/// Returns the 0-based index of a zeroed, live slot (header filled in), or -1 when out of memory.
int steer_pool_alloc(SteerPool *pool);
void steer_pool_release(SteerPool *pool, int index);
static inline void *steer_pool_at(const SteerPool *pool, int index)
{
    return pool->items + (size_t)index * pool->item_size;
}
/// The live item named by (index1, generation), or NULL.
void *steer_pool_get(const SteerPool *pool, uint32_t index1, uint16_t generation);

#endif
