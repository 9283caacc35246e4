/* SPDX-License-Identifier: MIT */
/* options.c - parses the command line of `steer`. Every option is documented in --help. */
#include "options.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "keys.h"
#include "regular_file.h"
#include "same_file.h"
#include "steer_lua.h"

/* The overlay names are those of the key table (keys.c), plus "all". */
#define OVERLAYS_MAX 32

bool options_parse_overlays(const char *list, unsigned *bits, char *bad, size_t bad_size)
{
    *bits = 0;
    const char *p = list;
    while (*p) {
        size_t len = strcspn(p, ",");
        bool found = len == 3 && !strncmp(p, "all", 3);
        if (found) *bits = ~0u;
        const KeyBinding *b = found ? NULL : keys_for_overlay_name(p, len);
        if (b) {
            *bits |= b->overlay;
            found = true;
        }
        if (!found) {
            snprintf(bad, bad_size, "%.*s", (int)len, p);
            return false;
        }
        p += len;
        if (*p == ',') p++;
    }
    return true;
}

AppOptions options_default(void)
{
    AppOptions o = {0};
    o.steps = -1;
    o.at_step = -1;
    o.fps = 0.0;
    o.run = run_settings_default();
    o.width = 1024;
    o.height = 768;
    o.sound = -1;
    return o;
}

bool options_keep_failed(const AppOptions *opt)
{
    if (opt->run.keep_failed >= 0) return opt->run.keep_failed;
    return !opt->headless && opt->steps < 0;
}

void options_print_version(FILE *out) { fprintf(out, "steer %s\n", STEER_VERSION); }

void options_overlay_error(const char *bad, char *error, size_t error_size)
{
    const char *names[OVERLAYS_MAX + 1] = {"all"};
    int count = 1 + keys_overlay_names(names + 1, OVERLAYS_MAX);
    if (count > OVERLAYS_MAX + 1) count = OVERLAYS_MAX + 1;
    const char *hint = steer_lua_suggest(bad, names, count);
    if (hint) {
        snprintf(error, error_size, "option --overlays: unknown overlay '%s' (did you mean '%s'?)", bad, hint);
        return;
    }
    char known[512] = "";
    for (int i = 0, used = 0; i < count && used < (int)sizeof known; i++)
        used += snprintf(known + used, sizeof known - (size_t)used, "%s%s", i ? ", " : "", names[i]);
    snprintf(error, error_size, "option --overlays: unknown overlay '%s' (known: %s)", bad, known);
}

/* The overlays --overlays names, with their keys, wrapped under the option's text. */
static void overlay_list(char *out, size_t size)
{
    const char *indent = "                      ";
    size_t line = 0, used = (size_t)snprintf(out, size, "%s", indent); /* line: where the line starts */
    for (int i = 0; i < KEY_COUNT && used < size; i++) {
        if (!KEYS[i].cli) continue;
        char item[64];
        int n = snprintf(item, sizeof item, "%s (%s)", KEYS[i].cli, KEYS[i].key);
        bool first = used == line + strlen(indent);
        if (!first && used - line + 2 + (size_t)n > 92) { /* the other lines of --help are as wide */
            used += (size_t)snprintf(out + used, size - used, ",\n");
            line = used;
            used += (size_t)snprintf(out + used, size - used, "%s", indent);
            first = true;
        }
        if (used < size) used += (size_t)snprintf(out + used, size - used, "%s%s", first ? "" : ", ", item);
    }
    if (used < size) snprintf(out + used, size - used, "\n");
}

void options_print_help(FILE *out, const char *program)
{
    char overlays[1024];
    overlay_list(overlays, sizeof overlays);
    const char *help_key = keys_for_action(KEY_HELP)->key;
    fprintf(out,
            "usage: %s [options] SCRIPT [-- WORDS...]\n"
            "Runs the scene SCRIPT (a Lua file) in a window, or headless. An option's value\n"
            "follows it or an '=': --steps 600 or --steps=600. Words after -- are the scene's\n"
            "`arg` table (arg[0] the SCRIPT, arg[1] the first word), recorded with the run.\n"
            "\n"
            "  --headless          run without a window; print a summary at the end\n"
            "  --steps N           stop after N physics steps (default: run until closed; headless\n"
            "                      600, or until SIGTERM/SIGINT with --watch)\n"
            "  --seed S            seed of the world's random numbers (overrides the scene's) and\n"
            "                      of Lua's math.random, so a run replays\n"
            "  --screenshot F.png  save a PNG of the view (works headless; the name must end in .png)\n"
            "  --at-step N         take the screenshot after step N (default: at the end; needs\n"
            "                      --screenshot and a run that reaches step N)\n"
            "  --fps N             frame cap in a window, at most 1000 (default 120; none with\n"
            "                      --vsync); headless: the virtual frame rate (default 60), which\n"
            "                      never changes what the simulation computes\n"
            "  --vsync             wait for the display's vertical sync\n"
            "  --think-hz H        how often each brain's think(v, dt) runs (default: the scene's\n"
            "                      world think_hz, 10 unless set; 0 = never)\n"
            "  --physics-hz H      physics steps per simulated second, 1..1000000 (default 60 or the\n"
            "                      scene's dt)\n"
            "  --threads N         threads the world's step runs on, 1..64 (default: the scene's world\n"
            "                      threads, 1 unless set); the same result whatever N\n"
            "  --watch             reload changed scripts while running (always on in a window);\n"
            "                      headless, it runs in real time\n"
            "  --poll              watch files by polling (every 15 ms) instead of inotify\n"
            "  --settle MS         load a saved file only once it has been left alone MS ms\n"
            "                      (default 0: a save loads as soon as the file is closed or\n"
            "                      renamed into place), for tools that save in several rounds\n"
            "  --record FILE       record the run into FILE: options, script texts, inputs, reloads\n"
            "                      and world checksums (docs/replay.md)\n"
            "  --replay FILE       play a recorded run back (no SCRIPT) and check every checksum;\n"
            "                      the first difference stops it, naming the step and the vehicle;\n"
            "                      a recording runs the code it holds: replay only files from\n"
            "                      someone you trust\n"
            "  --overlays LIST     overlays on at start: all, or names separated by commas (the key\n"
            "                      in brackets toggles each in the window):\n"
            "%s"
            "  --trace F.csv       write one CSV row per vehicle after every physics step: step, time,\n"
            "                      id, kind, x, y, vx, vy, heading, state, speed, force, and each\n"
            "                      behaviour's force (empty while it is off); see docs/runtime.md\n"
            "  --trace-every K     write the trace after every K-th step only (default 1)\n"
            "  --select N          select the N-th vehicle (creation order) at start: its inspector\n"
            "  --show-help         show the key help overlay at start (%s)\n"
            "  --sound             play the scene's sound effects (steer.sound) even headless or in a\n"
            "                      --replay (SDL_AUDIODRIVER picks the device; default: a window plays\n"
            "                      them, except a replay's)\n"
            "  --mute              no sound at start (the sound key turns it on)\n"
            "  --time-budget MS    longest one call into Lua may run before it is stopped (default 100)\n"
            "  --memory-cap MB     memory the scripts may use (default 1024)\n"
            "  --width W           window width in pixels (default 1024)\n"
            "  --height H          window height in pixels (default 768)\n"
            "  --help              this text\n"
            "  --version           print the version and exit\n"
            "  --luacheckrc        print a luacheck configuration for scenes and exit:\n"
            "                      steer --luacheckrc > .luacheckrc in your scenes' folder\n"
            "\n"
            "Exit status: 0 ok; 1 a bad command line, or the scene failed to load (headless or\n"
            "with --steps; a window without --steps waits for the fix); 2 a script error\n"
            "happened in a headless run or one with --steps; 3 the screenshot could not be written or its\n"
            "step was never reached, or the --trace could not be written to the end; 4 a script\n"
            "could not be stopped (a __gc finalizer or a long C function ran ten budgets, at\n"
            "least 5 s: the watchdog ended the run); 6 a --replay diverged from its recording;\n"
            "128 + N signal N arrived while a script held the program (else SIGINT/SIGTERM end\n"
            "the run normally).\n"
            "\n"
            "Keys in the window (%s lists them there, with the scene's own):\n",
            program, overlays, help_key, help_key);
    int width = 0;
    for (int i = 0; i < KEY_COUNT; i++)
        if ((int)strlen(KEYS[i].key) > width) width = (int)strlen(KEYS[i].key);
    for (int i = 0; i < KEY_COUNT; i++) fprintf(out, "  %-*s%s\n", width + 2, KEYS[i].key, KEYS[i].help);
}

static bool parse_ll(const char *s, long long min, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < min) return false;
    *out = v;
    return true;
}

static bool parse_double(const char *s, double min, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < min) return false;
    *out = v;
    return true;
}

/* The values given so far, by option: a second --at-step (or any valued option) would silently
 * replace the first, so one that differs is an error; the same value twice is harmless. */
typedef struct Given {
    char name[32]; /* a copy: an --option=value's name is cut out of its argument */
    const char *value;
} Given;

static bool given_once(Given *given, int *count, int max, const char *name, const char *value, char *error,
                       size_t error_size)
{
    for (int k = 0; k < *count; k++) {
        if (strcmp(given[k].name, name) != 0) continue;
        if (strcmp(given[k].value, value) == 0) return true;
        snprintf(error, error_size, "option %s given twice, with '%s' and '%s' (give it once)", name, given[k].value,
                 value);
        return false;
    }
    if (*count < max) {
        snprintf(given[*count].name, sizeof given[*count].name, "%s", name);
        given[(*count)++].value = value;
    }
    return true;
}

/* Every option, for the hint after a mistyped one. */
static const char *const OPTION_NAMES[] = {
    "--help",       "--version",   "--luacheckrc", "--headless",   "--vsync",      "--watch",
    "--poll",       "--show-help", "--overlays",   "--select",     "--trace",      "--trace-every",
    "--record",     "--replay",    "--steps",      "--seed",       "--screenshot", "--at-step",
    "--fps",        "--think-hz",  "--threads",    "--physics-hz", "--settle",     "--time-budget",
    "--memory-cap", "--width",     "--height",     "--sound",      "--mute"};

/* `arg` as given; `name` its part before any '='. */
static void unknown_option_error(const char *arg, const char *name, char *error, size_t error_size)
{
    const char *hint = steer_lua_suggest(name, OPTION_NAMES, (int)(sizeof OPTION_NAMES / sizeof OPTION_NAMES[0]));
    if (hint)
        snprintf(error, error_size, "unknown option %s (did you mean %s?)", arg, hint);
    else
        snprintf(error, error_size, "unknown option %s (see --help)", arg);
}

static bool ends_with_png(const char *path)
{
    size_t n = strlen(path);
    return n > 4 && strcasecmp(path + n - 4, ".png") == 0;
}

/* A replay runs with the options it was recorded with: those that shape the run are refused. */
static bool replay_options_fit(const AppOptions *opt, char *error, size_t error_size)
{
    const AppOptions d = options_default();
    const char *clash = opt->record                               ? "--record"
                        : opt->run.has_seed                       ? "--seed"
                        : opt->run.think_hz >= 0.0                ? "--think-hz"
                        : opt->run.physics_hz != 0.0              ? "--physics-hz"
                        : opt->run.threads != 0                   ? "--threads"
                        : opt->run.memory_cap != d.run.memory_cap ? "--memory-cap"
                        : opt->steps >= 0                         ? "--steps"
                        : opt->watch                              ? "--watch"
                        : opt->poll                               ? "--poll"
                        : opt->screenshot                         ? "--screenshot"
                                                                  : NULL;
    if (!clash) return true;
    snprintf(error, error_size,
             "option %s: a --replay runs with the options it was recorded with (give only "
             "--headless, --fps, --time-budget, --trace and view options)",
             clash);
    return false;
}

/* Checks between options, once all are read. */
static bool options_consistent(const AppOptions *opt, char *error, size_t error_size)
{
    if (opt->screenshot && !ends_with_png(opt->screenshot)) {
        /* the picture is always PNG: PNG bytes under another extension would mislead */
        snprintf(error, error_size,
                 "option --screenshot: only PNG is written, a file name ending in .png expected, got '%s'",
                 opt->screenshot);
        return false;
    }
    if (opt->trace_every > 0 && !opt->trace) {
        snprintf(error, error_size,
                 "option --trace-every: says how often to write the --trace, but none was asked for");
        return false;
    }
    if (opt->at_step >= 0 && !opt->screenshot) {
        snprintf(error, error_size, "option --at-step: says when to take the --screenshot, but none was asked for");
        return false;
    }
    long long last =
        opt->steps >= 0 ? opt->steps : (opt->headless && !opt->watch ? OPTIONS_DEFAULT_HEADLESS_STEPS : -1);
    if (opt->at_step >= 0 && last >= 0 && opt->at_step > last) {
        snprintf(error, error_size, "option --at-step: step %lld is never reached, the run ends after step %lld%s",
                 opt->at_step, last, opt->steps >= 0 ? " (--steps)" : " (headless default; give --steps)");
        return false;
    }
    return true;
}

/* An output option that names an input would write over it before (or while) it is read: `--record
 * s.lua s.lua` overwrote the scene. Refused before anything is written. */
static bool outputs_spare_inputs(const AppOptions *opt, char *error, size_t error_size)
{
    const struct {
        const char *option, *path, *what;
    } outputs[] = {{"--record", opt->record, "recording"},
                   {"--trace", opt->trace, "trace"},
                   {"--screenshot", opt->screenshot, "screenshot"}},
      inputs[] = {{"the scene", opt->script, "scene"}, {"--replay", opt->replay, "recording"}};
    for (size_t o = 0; o < sizeof outputs / sizeof *outputs; o++)
        for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
            if (!outputs[o].path || !inputs[i].path || !same_file(outputs[o].path, inputs[i].path)) continue;
            snprintf(error, error_size, "option %s: %s is also %s%s: writing the %s there would destroy the %s",
                     outputs[o].option, outputs[o].path, inputs[i].option[0] == '-' ? "the file of " : "",
                     inputs[i].option, outputs[o].what, inputs[i].what);
            return false;
        }
    return true;
}

/* A path longer than the system takes: said so, rather than read as a missing file later. */
static bool paths_fit(const AppOptions *opt, char *error, size_t error_size)
{
    const struct {
        const char *option, *path;
    } paths[] = {{"the scene", opt->script},
                 {"--replay", opt->replay},
                 {"--record", opt->record},
                 {"--trace", opt->trace},
                 {"--screenshot", opt->screenshot}};
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
        char why[128], shown[128];
        if (!paths[i].path || !path_too_long(paths[i].path, why, sizeof why, shown, sizeof shown)) continue;
        if (i == 0)
            snprintf(error, error_size, "cannot open scene %s: %s", shown, why);
        else
            snprintf(error, error_size, "option %s: %s: %s", paths[i].option, shown, why);
        return false;
    }
    return true;
}

bool options_check_paths(const AppOptions *opt, char *error, size_t error_size)
{
    struct stat st;
    if (!paths_fit(opt, error, error_size)) return false;
    if (!outputs_spare_inputs(opt, error, error_size)) return false;
    if (opt->script && stat(opt->script, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(error, error_size, "%s is a directory; a scene is a Lua file", opt->script);
        return false;
    }
    if (opt->screenshot) {
        char copy[4096];
        snprintf(copy, sizeof copy, "%s", opt->screenshot);
        const char *dir = dirname(copy);
        if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            snprintf(error, error_size, "cannot write the screenshot %s: no folder %s", opt->screenshot, dir);
            return false;
        }
        if (access(dir, W_OK | X_OK) != 0) {
            snprintf(error, error_size, "cannot write the screenshot %s: folder %s is not writable", opt->screenshot,
                     dir);
            return false;
        }
        if (stat(opt->screenshot, &st) == 0 && S_ISDIR(st.st_mode)) {
            snprintf(error, error_size, "cannot write the screenshot %s: it is a directory", opt->screenshot);
            return false;
        }
    }
    return true;
}

OptionsResult options_parse(AppOptions *opt, int argc, char **argv, char *error, size_t error_size)
{
    Given given[32];
    int given_count = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *value = (i + 1 < argc) ? argv[i + 1] : NULL;
        long long n;
        double d;
        /* --steps=600 as well as --steps 600: the form many other programs take */
        char name[32];
        const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
        if (eq) {
            snprintf(name, sizeof name, "%.*s", (int)(eq - a < 31 ? eq - a : 31), a);
            a = name;
            value = eq + 1;
        }
#define NEED_VALUE()                                                                                                   \
    do {                                                                                                               \
        if (!value) {                                                                                                  \
            snprintf(error, error_size, "option %s needs a value", a);                                                 \
            return OPTIONS_ERROR;                                                                                      \
        }                                                                                                              \
        if (!given_once(given, &given_count, 32, a, value, error, error_size)) return OPTIONS_ERROR;                   \
        if (!eq) i++;                                                                                                  \
    } while (0)
#define NO_VALUE()                                                                                                     \
    do {                                                                                                               \
        if (eq) {                                                                                                      \
            snprintf(error, error_size, "option %s takes no value, got '%s'", a, value);                               \
            return OPTIONS_ERROR;                                                                                      \
        }                                                                                                              \
    } while (0)
#define BAD(what)                                                                                                      \
    do {                                                                                                               \
        snprintf(error, error_size, "option %s: %s expected, got '%s'", a, what, value);                               \
        return OPTIONS_ERROR;                                                                                          \
    } while (0)
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            NO_VALUE();
            return OPTIONS_HELP;
        } else if (!strcmp(a, "--version")) {
            NO_VALUE();
            return OPTIONS_VERSION;
        } else if (!strcmp(a, "--luacheckrc")) {
            NO_VALUE();
            return OPTIONS_LUACHECKRC;
        } else if (!strcmp(a, "--headless")) {
            NO_VALUE();
            opt->headless = true;
        } else if (!strcmp(a, "--vsync")) {
            NO_VALUE();
            opt->vsync = true;
        } else if (!strcmp(a, "--watch")) {
            NO_VALUE();
            opt->watch = true;
        } else if (!strcmp(a, "--poll")) {
            NO_VALUE();
            opt->poll = true;
        } else if (!strcmp(a, "--show-help")) {
            NO_VALUE();
            opt->show_help = true;
        } else if (!strcmp(a, "--sound") || !strcmp(a, "--mute")) {
            NO_VALUE();
            int sound = !strcmp(a, "--sound");
            if (opt->sound >= 0 && opt->sound != sound) {
                snprintf(error, error_size, "options --sound and --mute: give one of them");
                return OPTIONS_ERROR;
            }
            opt->sound = sound;
        } else if (!strcmp(a, "--overlays")) {
            NEED_VALUE();
            char bad[64];
            if (!options_parse_overlays(value, &opt->overlays, bad, sizeof bad)) {
                options_overlay_error(bad, error, error_size);
                return OPTIONS_ERROR;
            }
        } else if (!strcmp(a, "--select")) {
            NEED_VALUE();
            if (!parse_ll(value, 1, &n) || n > 1000000000) BAD("a vehicle number >= 1");
            opt->select = (int)n;
        } else if (!strcmp(a, "--trace")) {
            NEED_VALUE();
            if (!*value) BAD("a file name");
            opt->trace = value;
        } else if (!strcmp(a, "--trace-every")) {
            NEED_VALUE();
            if (!parse_ll(value, 1, &opt->trace_every)) BAD("a whole number of steps >= 1");
        } else if (!strcmp(a, "--record")) {
            NEED_VALUE();
            opt->record = value;
        } else if (!strcmp(a, "--replay")) {
            NEED_VALUE();
            opt->replay = value;
        } else if (!strcmp(a, "--steps")) {
            NEED_VALUE();
            if (!parse_ll(value, 0, &opt->steps)) BAD("a whole number >= 0");
        } else if (!strcmp(a, "--seed")) {
            NEED_VALUE();
            if (!parse_ll(value, 0, &n)) BAD("a whole number >= 0");
            opt->run.has_seed = true;
            opt->run.seed = (uint64_t)n;
        } else if (!strcmp(a, "--screenshot")) {
            NEED_VALUE();
            opt->screenshot = value;
        } else if (!strcmp(a, "--at-step")) {
            NEED_VALUE();
            if (!parse_ll(value, 0, &opt->at_step)) BAD("a whole number >= 0");
        } else if (!strcmp(a, "--fps")) {
            NEED_VALUE();
            /* (bounded: at --fps 1e9 a headless frame advanced a billionth of a second, and a run
             * spent its time on frames without a step) */
            if (!parse_double(value, 0.0, &opt->fps) || opt->fps > APP_MAX_FPS) BAD("a number from 0 to 1000");
        } else if (!strcmp(a, "--think-hz")) {
            NEED_VALUE();
            if (!parse_double(value, 0.0, &opt->run.think_hz)) BAD("a number >= 0");
        } else if (!strcmp(a, "--threads")) {
            NEED_VALUE();
            if (!parse_ll(value, 1, &n) || n > 64) BAD("a whole number from 1 to 64");
            opt->run.threads = (int)n;
        } else if (!strcmp(a, "--physics-hz")) {
            NEED_VALUE();
            /* (the world's dt is at least STEER_MIN_POSITIVE seconds) */
            if (!parse_double(value, 1.0, &d) || d > 1.0 / STEER_MIN_POSITIVE) BAD("a number from 1 to 1000000");
            opt->run.physics_hz = d;
        } else if (!strcmp(a, "--settle")) {
            NEED_VALUE();
            if (!parse_double(value, 0.0, &opt->settle_ms) || opt->settle_ms > 60000)
                BAD("a number of milliseconds, 0..60000");
        } else if (!strcmp(a, "--time-budget")) {
            NEED_VALUE();
            if (!parse_double(value, 1.0, &opt->run.time_budget_ms)) BAD("a number of milliseconds >= 1");
        } else if (!strcmp(a, "--memory-cap")) {
            NEED_VALUE();
            if (!parse_ll(value, 1, &n)) BAD("a number of megabytes >= 1");
            opt->run.memory_cap = (size_t)n * 1024 * 1024;
        } else if (!strcmp(a, "--width") || !strcmp(a, "--height")) {
            NEED_VALUE();
            if (!parse_ll(value, 16, &n) || n > 16384) BAD("a size in pixels, 16..16384");
            if (a[2] == 'w')
                opt->width = (int)n;
            else
                opt->height = (int)n;
        } else if (!strcmp(a, "--") && !eq) { /* the rest is the scene's: its `arg` table */
            opt->words = (const char *const *)&argv[i + 1];
            opt->word_count = argc - i - 1;
            break;
        } else if (a[0] == '-' && a[1]) {
            unknown_option_error(argv[i], a, error, error_size);
            return OPTIONS_ERROR;
        } else if (opt->script) {
            snprintf(error, error_size,
                     "one SCRIPT expected, got '%s' and '%s' (words for the scene's `arg` go after --: %s -- %s)",
                     opt->script, a, opt->script, a);
            return OPTIONS_ERROR;
        } else {
            opt->script = a;
        }
#undef NEED_VALUE
#undef NO_VALUE
#undef BAD
    }
    if (opt->replay && opt->script) {
        snprintf(error, error_size, "option --replay: plays the scene the file recorded; give no SCRIPT (got '%s')",
                 opt->script);
        return OPTIONS_ERROR;
    }
    if (opt->replay && opt->word_count > 0) {
        snprintf(error, error_size,
                 "option --replay: the scene's words (`arg`) come from the recording; give none "
                 "after --");
        return OPTIONS_ERROR;
    }
    if (opt->replay && !replay_options_fit(opt, error, error_size)) return OPTIONS_ERROR;
    if (!opt->script && !opt->replay) {
        snprintf(error, error_size, "no SCRIPT given (see --help)");
        return OPTIONS_ERROR;
    }
    if (!options_consistent(opt, error, error_size)) return OPTIONS_ERROR;
    return OPTIONS_RUN;
}
