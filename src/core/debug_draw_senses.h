/* SPDX-License-Identifier: MIT */
/* debug_draw_senses.h - the senses' part of steer_world_debug_draw (debug_draw_senses.c). */
#ifndef STEER_DEBUG_DRAW_SENSES_H
#define STEER_DEBUG_DRAW_SENSES_H

#include "steer/steer.h"

/// Every sensing vehicle's senses as the SENSES and SENSE_RAYS flags of `draw` ask, then the heard
/// sounds (SOUNDS), in creation order.
void steer_debug_draw_world_senses(const SteerWorld *world, const SteerDebugDraw *draw);

#endif
