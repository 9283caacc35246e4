/* hud.c - the screen-space text the runtime composes: HUD (fps, simulated time, vehicles, ms per
 * step, ms in Lua, time scale, paused, then the script's gfx.hud lines), the inspector of the
 * selected vehicle, and the help overlay listing every key. */
#include "app.h"

#include <stdio.h>

#define HUD_FIXED_LINES 3

static const char *const HELP[] = {
    "Space       pause / resume",
    ".           one physics step (pauses)",
    "-  =        slower / faster (x1/4 .. x8)",
    "F1          this help",
    "F2          wander circles and targets",
    "F3          detection boxes and wall feelers",
    "F4          neighbour radius",
    "F5          restart the scene (fresh world, load again)",
    "F6          velocity and steering force vectors",
    "F7          state names",
    "F8          paths and flow fields",
    "F9          grid",
    "wheel       zoom at the cursor",
    "right-drag  pan",
    "left click  select a vehicle (inspector)",
    "Ctrl+Q      quit",
    "Scripts reload when saved; errors show below.",
};

int hud_help_lines(const char *const **lines)
{
    *lines = HELP;
    return (int)(sizeof HELP / sizeof HELP[0]);
}

static const char *scale_text(double scale)
{
    if (scale == 0.25) return "x1/4";
    if (scale == 0.5) return "x1/2";
    if (scale == 1.0) return "x1";
    if (scale == 2.0) return "x2";
    if (scale == 4.0) return "x4";
    return "x8";
}

void hud_draw(App *app)
{
    SteerWorld *world = script_world(app->script);
    char fixed[HUD_FIXED_LINES][160];
    snprintf(fixed[0], sizeof fixed[0], "%.0f fps   t %.2f s   %d vehicles", app->fps, steer_world_time(world),
             steer_world_vehicle_count(world));
    snprintf(fixed[1], sizeof fixed[1], "step %.2f ms   Lua %.2f ms/frame", app->step_ms, app->lua_ms);
    snprintf(fixed[2], sizeof fixed[2], "%s%s   F1 help", scale_text(app_time_scale(app)),
             app->paused ? "   PAUSED" : "");
    int extra;
    const char *const *script_lines = script_hud_lines(app->script, &extra);
    const char *lines[HUD_FIXED_LINES + 32];
    int n = 0;
    for (int i = 0; i < HUD_FIXED_LINES; i++) lines[n++] = fixed[i];
    for (int i = 0; i < extra && n < (int)(sizeof lines / sizeof lines[0]); i++) lines[n++] = script_lines[i];
    steer_render_hud(app->render, lines, n);

    if (steer_vehicle_is_valid(world, app->selected)) {
        const char **extra_lines;
        int count = script_inspector_lines(app->script, app->selected, &extra_lines);
        steer_render_inspector(app->render, world, app->selected, extra_lines, count);
    }
    if (app->show_help) {
        const char *const *help;
        int count = hud_help_lines(&help);
        steer_render_help(app->render, help, count);
    }
}
