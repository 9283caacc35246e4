/* SPDX-License-Identifier: MIT */
/* run_settings.h - what shapes a run besides its inputs, in one struct: the command line fills it
 * (options.c), the tape header writes and reads it whole (tape_format.c), the session hands it to
 * the script host (ScriptConfig.run). A setting added here is one field plus its use: the header's
 * encoding is the only other place that names each field. Knows nothing of Lua, SDL or the app. */
#ifndef STEER_RUNTIME_RUN_SETTINGS_H
#define STEER_RUNTIME_RUN_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// think_hz's value for "the scene's world option" (w.think_hz, whose default the bindings own:
/// STEER_LUA_DEFAULT_THINK_HZ).
#define RUN_THINK_HZ_SCENE (-1.0)

typedef struct RunSettings {
    bool has_seed;
    uint64_t seed;      ///< --seed: overrides the scene's world seed and seeds math.random
    bool has_math_seed; ///< seed math.random with math_seed (a recording picks one when --seed is not given)
    uint64_t math_seed;
    double think_hz;       ///< --think-hz, Hz (0 = brains never think); RUN_THINK_HZ_SCENE: the scene's
    double physics_hz;     ///< --physics-hz, Hz; 0 = the scene's dt
    int threads;           ///< --threads; 0 = the scene's world option
    double time_budget_ms; ///< longest one call into Lua may run
    size_t memory_cap;     ///< bytes the Lua state may hold
    /// A scene that fails to load keeps the run going (showing the error until the fix is saved):
    /// -1 as the shell's mode says (options_keep_failed), else 0 or 1 (as a recording says).
    int keep_failed;
} RunSettings;

/// The command line's defaults: every setting the scene's, a 100 ms budget, a 1 GiB cap.
static inline RunSettings run_settings_default(void)
{
    RunSettings s = {0};
    s.think_hz = RUN_THINK_HZ_SCENE;
    s.time_budget_ms = 100.0;
    s.memory_cap = (size_t)1024 * 1024 * 1024;
    s.keep_failed = -1;
    return s;
}

#endif
