/* SPDX-License-Identifier: MIT */
/* pool.c - slots with generations; see pool.h. */
#include "pool.h"

#include <string.h>

void steer_pool_init(SteerPool *pool, size_t item_size, const SteerAllocator *alloc)
{
    memset(pool, 0, sizeof *pool);
    pool->item_size = item_size;
    pool->free_head = -1;
    pool->alloc = alloc;
}

void steer_pool_free(SteerPool *pool)
{
    steer_free(pool->alloc, pool->items, (size_t)pool->capacity * pool->item_size);
    steer_pool_init(pool, pool->item_size, pool->alloc);
}

int steer_pool_alloc(SteerPool *pool)
{
    int index;
    uint16_t generation;
    if (pool->free_head >= 0) {
        index = pool->free_head;
        SteerPoolHeader *old = steer_pool_at(pool, index);
        pool->free_head = old->next_free;
        /* Skip 0 so a zeroed id never matches a live slot by accident. */
        generation = (uint16_t)(old->generation + 1);
        if (generation == 0) generation = 1;
    } else {
        if (pool->count == pool->capacity) {
            int capacity = pool->capacity ? pool->capacity * 2 : 16;
            unsigned char *items = steer_realloc(pool->alloc, pool->items, (size_t)pool->capacity * pool->item_size,
                                                 (size_t)capacity * pool->item_size);
            if (!items) return -1;
            pool->items = items;
            pool->capacity = capacity;
        }
        index = pool->count++;
        generation = 1;
    }
    SteerPoolHeader *header = steer_pool_at(pool, index);
    memset(header, 0, pool->item_size);
    header->generation = generation;
    header->alive = true;
    header->next_free = -1;
    pool->live++;
    return index;
}

void steer_pool_release(SteerPool *pool, int index)
{
    SteerPoolHeader *header = steer_pool_at(pool, index);
    header->alive = false;
    header->next_free = pool->free_head;
    pool->free_head = index;
    pool->live--;
}

void *steer_pool_get(const SteerPool *pool, uint32_t index1, uint16_t generation)
{
    if (index1 == 0 || index1 > (uint32_t)pool->count) return NULL;
    SteerPoolHeader *header = steer_pool_at(pool, (int)index1 - 1);
    if (!header->alive || header->generation != generation) return NULL;
    return header;
}
