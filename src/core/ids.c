/* SPDX-License-Identifier: MIT */
/* ids.c - the value helpers every id type shares: packing into 64 bits (for scripting languages and
 * hash keys), the null test and equality. One macro defines them for all five types so that they
 * cannot drift apart; the layout is SteerVehicleId's (index1 in bits 0-31, world tag in 32-47,
 * generation in 48-63), so a packed 0 is the null id of every type. */
#include "world_internal.h"

#define DEFINE_ID_HELPERS(Type, name)                                                                                  \
    uint64_t steer_##name##_id_pack(Type id)                                                                           \
    {                                                                                                                  \
        return (uint64_t)id.index1 | ((uint64_t)id.world << 32) | ((uint64_t)id.generation << 48);                     \
    }                                                                                                                  \
    Type steer_##name##_id_unpack(uint64_t packed)                                                                     \
    {                                                                                                                  \
        return (Type){(uint32_t)packed, (uint16_t)(packed >> 32), (uint16_t)(packed >> 48)};                           \
    }                                                                                                                  \
    /* The core refuses any id whose index1 is 0 before it looks at the rest (pool.c). */                              \
    bool steer_##name##_id_is_null(Type id) { return id.index1 == 0; }                                                 \
    bool steer_##name##_id_equal(Type a, Type b)                                                                       \
    {                                                                                                                  \
        return a.index1 == b.index1 && a.world == b.world && a.generation == b.generation;                             \
    }

DEFINE_ID_HELPERS(SteerVehicleId, vehicle)
DEFINE_ID_HELPERS(SteerObstacleId, obstacle)
DEFINE_ID_HELPERS(SteerWallId, wall)
DEFINE_ID_HELPERS(SteerPathId, path)
DEFINE_ID_HELPERS(SteerFlowFieldId, flow_field)
