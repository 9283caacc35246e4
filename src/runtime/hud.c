/* SPDX-License-Identifier: MIT */
/* hud.c - the screen-space text the runtime composes: HUD (fps, simulated time, vehicles; where
 * the frame's time goes: physics, Lua, drawing, present, idle, other; time scale, paused, then the
 * script's gfx.hud lines), the inspector of the selected vehicle, and the help overlay listing every
 * key of the table in keys.c and then the keys the scene declares. */
#include "app.h"
#include "keys.h"
#include "rewind.h"

#include <stdio.h>
#include <string.h>

#define HUD_FIXED_LINES 3
/* The key table, a footer, a blank line, the scene's name and its keys. */
#define HELP_MAX_LINES 64

int hud_help_lines(App *app, const char *const **lines)
{
    static char text[HELP_MAX_LINES][160];
    static const char *out[HELP_MAX_LINES];
    int scene_count;
    const ScriptKey *scene = script_scene_keys(app->session.host, &scene_count);
    int width = 0; /* of the key column: the longest key, then two spaces */
    for (int i = 0; i < KEY_COUNT; i++)
        if ((int)strlen(KEYS[i].key) > width) width = (int)strlen(KEYS[i].key);
    for (int i = 0; i < scene_count; i++)
        if ((int)strlen(scene[i].key) > width) width = (int)strlen(scene[i].key);
    width += 2;
    int n = 0;
    for (int i = 0; i < KEY_COUNT && n < HELP_MAX_LINES; i++, n++) {
        if (!app_scene_takes(app, &KEYS[i])) {
            snprintf(text[n], sizeof text[0], "%-*s%s", width, KEYS[i].key, KEYS[i].help);
            continue;
        }
        /* the scene listed the key in its `keys`: the binding moved to its alternative */
        const char *moved = app_action_key(app, KEYS[i].action);
        const char *alt = strstr(KEYS[i].help, " (alt. "); /* (said otherwise here) */
        int help_len = alt ? (int)(alt - KEYS[i].help) : (int)strlen(KEYS[i].help);
        snprintf(text[n], sizeof text[0], "%-*s%.*s  (%s is the scene's%s)", width, moved[0] ? moved : "-", help_len,
                 KEYS[i].help, KEYS[i].key, moved[0] ? "" : "; so is its alternative: no key");
    }
    if (n < HELP_MAX_LINES) snprintf(text[n++], sizeof text[0], "Scripts reload when saved; errors show below.");
    if (scene_count > 0 && n + 2 < HELP_MAX_LINES) {
        text[n++][0] = '\0';
        const char *file = strrchr(script_scene_file(app->session.host), '/');
        snprintf(text[n++], sizeof text[0], "%s:", file ? file + 1 : script_scene_file(app->session.host));
    }
    for (int i = 0; i < scene_count && n < HELP_MAX_LINES; i++, n++) {
        /* a key the runtime owns never reaches the scene: say so rather than let it look dead */
        bool taken = app_key_owned(scene[i].key);
        snprintf(text[n], sizeof text[0], "%-*s%s%s", width, scene[i].key, scene[i].text,
                 taken ? "  (the runtime's key: the scene never gets it)" : "");
    }
    for (int i = 0; i < n; i++) out[i] = text[i];
    *lines = out;
    return n;
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

const char *hud_status_line(App *app)
{
    static char line[256];
    char restart[64] = "";
    if (script_world_options_pending(app->session.host)) /* a window shows no stderr: the change would seem ignored */
        snprintf(restart, sizeof restart, "   world options changed: %s applies them",
                 keys_for_action(KEY_RESTART)->key);
    char branch[96] = ""; /* a branch dropped a future: how much, and the key back to it */
    long long at = 0, dropped = rewind_dropped_steps(app->session.rewind, &at);
    if (dropped > 0)
        snprintf(branch, sizeof branch, "   branch at %lld: %lld steps kept aside (%s)", at, dropped,
                 app_action_key(app, KEY_SWAP_FUTURE));
    snprintf(line, sizeof line, "%s%s   %s help%s%s", scale_text(app_time_scale(app)), app->paused ? "   PAUSED" : "",
             keys_for_action(KEY_HELP)->key, restart, branch);
    return line;
}

const char *hud_frame_line(App *app)
{
    static char line[192];
    double known =
        app->frame_physics_ms + app->frame_lua_ms + app->frame_draw_ms + app->frame_present_ms + app->frame_idle_ms;
    snprintf(line, sizeof line, "frame %.1f ms: physics %.1f Lua %.1f draw %.1f present %.1f idle %.1f other %.1f",
             app->frame_ms, app->frame_physics_ms, app->frame_lua_ms, app->frame_draw_ms, app->frame_present_ms,
             app->frame_idle_ms, app->frame_ms > known ? app->frame_ms - known : 0.0);
    return line;
}

void hud_draw(App *app)
{
    SteerWorld *world = script_world(app->session.host);
    char fixed[HUD_FIXED_LINES][256];
    snprintf(fixed[0], sizeof fixed[0], "%.0f fps   t %.2f s   %d vehicles   step %.2f ms", app->fps,
             steer_world_time(world), steer_world_vehicle_count(world), app->session.step_ms);
    snprintf(fixed[1], sizeof fixed[1], "%s", hud_frame_line(app));
    snprintf(fixed[2], sizeof fixed[2], "%s", hud_status_line(app));
    int extra;
    const char *const *script_lines = script_hud_lines(app->session.host, &extra);
    const char *lines[HUD_FIXED_LINES + 33];
    int n = 0;
    for (int i = 0; i < HUD_FIXED_LINES; i++) lines[n++] = fixed[i];
    /* vehicles the last save could not reach (a window shows no stderr): until the next reload */
    const char *note = script_reload_note(app->session.host);
    char stale[160];
    if (note) {
        const char *cut = strstr(note, " the old code");
        snprintf(stale, sizeof stale, "%.*s the old code (F5 restarts)", cut ? (int)(cut - note) : 120, note);
        lines[n++] = stale;
    }
    for (int i = 0; i < extra && n < (int)(sizeof lines / sizeof lines[0]); i++) lines[n++] = script_lines[i];
    steer_render_hud(app->render, lines, n);

    if (steer_vehicle_is_valid(world, app->selected)) {
        const char **extra_lines;
        int count = script_inspector_lines(app->session.host, app->selected, &extra_lines);
        steer_render_inspector(app->render, world, app->selected, script_kind_name(app->session.host, app->selected),
                               extra_lines, count);
        /* its plots: a vehicle selected since the last step (a click while paused) gets its first
         * sample now, so the plots show at once */
        if (app->history && app->history->serial != steer_vehicle_serial(world, app->selected)) app_record_history(app);
        if (app->history && app->history->serial == steer_vehicle_serial(world, app->selected) &&
            app->history->count > 0) {
            SteerInspectorPlots plots;
            history_view(app->history, &plots);
            steer_render_inspector_plots(app->render, &plots);
        }
    }
    if (app->show_help) {
        const char *const *help;
        int count = hud_help_lines(app, &help);
        steer_render_help(app->render, help, count);
    }
}
