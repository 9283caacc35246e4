/* SPDX-License-Identifier: MIT */
/* test_runtime_options.c - the command line of `steer`: defaults, every option (--name value or
 * --name=value), clear errors with a hint for a mistyped option. */
#include "test_support.h"

#include "options.h"
#include "render.h"

static OptionsResult parse(AppOptions *o, char *error, const char *const *args)
{
    char *argv[32];
    int argc = 0;
    argv[argc++] = "steer";
    for (; *args; args++) argv[argc++] = (char *)*args;
    *o = options_default();
    return options_parse(o, argc, argv, error, 256);
}

static void test_defaults_match_the_help(void **state)
{
    (void)state;
    char err[256];
    AppOptions o;
    const char *args[] = {"scene.lua", NULL};
    assert_int_equal(parse(&o, err, args), OPTIONS_RUN);
    assert_string_equal(o.script, "scene.lua");
    assert_false(o.headless);
    assert_true(o.run.think_hz == RUN_THINK_HZ_SCENE); /* the scene's w.think_hz */
    assert_near(o.run.time_budget_ms, 100.0, 0);
    assert_int_equal(o.run.memory_cap, 1024u * 1024 * 1024);
    assert_true(o.steps < 0);
    assert_near(o.settle_ms, 0, 0);
}

static void test_every_option_is_read(void **state)
{
    (void)state;
    char err[256];
    AppOptions o;
    const char *args[] = {"--headless",    "--steps",   "120",          "--seed", "7",       "--screenshot",
                          "a.png",         "--at-step", "30",           "--fps",  "30",      "--vsync",
                          "--think-hz",    "0",         "--physics-hz", "120",    "--watch", "--poll",
                          "--time-budget", "20",        "--memory-cap", "64",     "--width", "320",
                          "--height",      "200",       "--settle",     "2.5",    "s.lua",   NULL};
    assert_int_equal(parse(&o, err, args), OPTIONS_RUN);
    assert_true(o.headless && o.vsync && o.watch && o.poll && o.run.has_seed);
    assert_int_equal(o.steps, 120);
    assert_int_equal(o.run.seed, 7);
    assert_string_equal(o.screenshot, "a.png");
    assert_int_equal(o.at_step, 30);
    assert_near(o.fps, 30, 0);
    assert_near(o.run.think_hz, 0, 0);
    assert_near(o.run.physics_hz, 120, 0);
    assert_near(o.run.time_budget_ms, 20, 0);
    assert_int_equal(o.run.memory_cap, 64u * 1024 * 1024);
    assert_int_equal(o.width, 320);
    assert_int_equal(o.height, 200);
    assert_near(o.settle_ms, 2.5, 0);
}

static void test_bad_values_name_the_option_and_what_was_expected(void **state)
{
    (void)state;
    char err[256];
    AppOptions o;
    const char *a1[] = {"--steps", "ten", "s.lua", NULL};
    assert_int_equal(parse(&o, err, a1), OPTIONS_ERROR);
    assert_string_equal(err, "option --steps: a whole number >= 0 expected, got 'ten'");
    const char *a2[] = {"s.lua", "--fps", NULL};
    assert_int_equal(parse(&o, err, a2), OPTIONS_ERROR);
    assert_string_equal(err, "option --fps needs a value");
    const char *a3[] = {"--frobnicate", "s.lua", NULL};
    assert_int_equal(parse(&o, err, a3), OPTIONS_ERROR);
    assert_string_equal(err, "unknown option --frobnicate (see --help)");
    const char *a4[] = {"--headless", NULL};
    assert_int_equal(parse(&o, err, a4), OPTIONS_ERROR);
    assert_string_equal(err, "no SCRIPT given (see --help)");
    const char *a5[] = {"--think-hz", "-1", "s.lua", NULL};
    assert_int_equal(parse(&o, err, a5), OPTIONS_ERROR);
    const char *a7[] = {"--overlays", "forces,wings", "s.lua", NULL};
    assert_int_equal(parse(&o, err, a7), OPTIONS_ERROR);
    assert_non_null(strstr(err, "unknown overlay 'wings'"));
    const char *a9[] = {"--threads", "0", "s.lua", NULL};
    assert_int_equal(parse(&o, err, a9), OPTIONS_ERROR);
    assert_string_equal(err, "option --threads: a whole number from 1 to 64 expected, got '0'");
    const char *a12[] = {"--physics-hz", "1e308", "s.lua", NULL};
    assert_int_equal(parse(&o, err, a12), OPTIONS_ERROR);
    assert_string_equal(err, "option --physics-hz: a number from 1 to 1000000 expected, got '1e308'");
    const char *a11[] = {"--settle", "-5", "s.lua", NULL};
    assert_int_equal(parse(&o, err, a11), OPTIONS_ERROR);
    assert_string_equal(err, "option --settle: a number of milliseconds, 0..60000 expected, got '-5'");
    const char *a10[] = {"--threads", "2", "s.lua", NULL};
    assert_int_equal(parse(&o, err, a10), OPTIONS_RUN);
    assert_int_equal(o.run.threads, 2);
    const char *a8[] = {"--overlays", "wander,forces", "--select", "2", "--show-help", "s.lua", NULL};
    assert_int_equal(parse(&o, err, a8), OPTIONS_RUN);
    assert_int_equal(o.overlays, STEER_OVERLAY_WANDER | STEER_OVERLAY_FORCES);
    assert_int_equal(o.select, 2);
    assert_true(o.show_help);
    const char *a6[] = {"--help", NULL};
    assert_int_equal(parse(&o, err, a6), OPTIONS_HELP);
    const char *version_args[] = {"--version", NULL};
    assert_int_equal(parse(&o, err, version_args), OPTIONS_VERSION);
}

/* --name=value reads as --name value (the form other programs take); a flag refuses a value; a
 * mistyped option is named with the one it most likely meant. */
static void test_values_after_an_equals_sign_and_hints_for_typos(void **state)
{
    (void)state;
    char err[256];
    AppOptions o;
    const char *a1[] = {"--steps=120", "--headless", "--screenshot=a=b.png", "--overlays=wander", "s.lua", NULL};
    assert_int_equal(parse(&o, err, a1), OPTIONS_RUN);
    assert_int_equal(o.steps, 120);
    assert_string_equal(o.screenshot, "a=b.png");
    assert_int_equal(o.overlays, STEER_OVERLAY_WANDER);
    assert_string_equal(o.script, "s.lua");
    const char *a2[] = {"--steps=ten", "s.lua", NULL};
    assert_int_equal(parse(&o, err, a2), OPTIONS_ERROR);
    assert_string_equal(err, "option --steps: a whole number >= 0 expected, got 'ten'");
    const char *a3[] = {"--steps=10", "--steps", "11", "s.lua", NULL};
    assert_int_equal(parse(&o, err, a3), OPTIONS_ERROR);
    assert_string_equal(err, "option --steps given twice, with '10' and '11' (give it once)");
    const char *a4[] = {"--headless=yes", "s.lua", NULL};
    assert_int_equal(parse(&o, err, a4), OPTIONS_ERROR);
    assert_string_equal(err, "option --headless takes no value, got 'yes'");
    const char *a5[] = {"--headles", "s.lua", NULL};
    assert_int_equal(parse(&o, err, a5), OPTIONS_ERROR);
    assert_string_equal(err, "unknown option --headles (did you mean --headless?)");
    const char *a6[] = {"--stepz=4", "s.lua", NULL};
    assert_int_equal(parse(&o, err, a6), OPTIONS_ERROR);
    assert_string_equal(err, "unknown option --stepz=4 (did you mean --steps?)");
    const char *a7[] = {"-overlays", "all", "s.lua", NULL};
    assert_int_equal(parse(&o, err, a7), OPTIONS_ERROR);
    assert_string_equal(err, "unknown option -overlays (did you mean --overlays?)");
    const char *a8[] = {"--time-budget=", "s.lua", NULL};
    assert_int_equal(parse(&o, err, a8), OPTIONS_ERROR);
    assert_string_equal(err, "option --time-budget: a number of milliseconds >= 1 expected, got ''");
}

static void test_version_is_the_library_s(void **state)
{
    (void)state;
    char buf[64] = "";
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    options_print_version(f);
    fclose(f);
    assert_string_equal(buf, "steer " STEER_VERSION "\n");
}

static void test_help_documents_every_option(void **state)
{
    (void)state;
    char buf[8192] = "";
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    options_print_help(f, "steer");
    fclose(f);
    const char *names[] = {
        "--headless", "--steps",       "--seed",   "--screenshot", "--at-step",     "--fps",        "--vsync",
        "--think-hz", "--physics-hz",  "--watch",  "--poll",       "--time-budget", "--memory-cap", "--width",
        "--height",   "--overlays",    "--select", "--show-help",  "--help",        "--threads",    "--version",
        "--trace",    "--trace-every", "--settle", "--record",     "--replay",      "--sound",      "--mute"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strstr(buf, names[i])) fail_msg("--help does not mention %s", names[i]);
}

static void test_what_cannot_be_done_as_asked_is_refused(void **state)
{
    (void)state;
    char err[256];
    AppOptions o;
    const char *replay_threads[] = {"--replay", "r.steer", "--threads", "2", NULL};
    assert_int_equal(parse(&o, err, replay_threads), OPTIONS_ERROR);
    assert_string_equal(err, "option --threads: a --replay runs with the options it was recorded with (give only "
                             "--headless, --fps, --time-budget, --trace and view options)");
    const char *replay_both[] = {"--replay", "r.steer", "--record", "s.steer", NULL};
    assert_int_equal(parse(&o, err, replay_both), OPTIONS_ERROR);
    assert_non_null(strstr(err, "option --record: a --replay runs with the options it was recorded with"));
    const char *replay_view[] = {"--replay", "r.steer", "--headless", "--fps", "30", "--overlays", "all", NULL};
    assert_int_equal(parse(&o, err, replay_view), OPTIONS_RUN);
    assert_string_equal(o.replay, "r.steer");
    const char *twice[] = {"--at-step", "5", "--screenshot", "a.png", "--at-step", "7", "s.lua", NULL};
    assert_int_equal(parse(&o, err, twice), OPTIONS_ERROR);
    assert_string_equal(err, "option --at-step given twice, with '5' and '7' (give it once)");
    const char *same[] = {"--seed", "3", "--seed", "3", "s.lua", NULL};
    assert_int_equal(parse(&o, err, same), OPTIONS_RUN);
    const char *jpg[] = {"--screenshot", "out.jpg", "s.lua", NULL};
    assert_int_equal(parse(&o, err, jpg), OPTIONS_ERROR);
    assert_non_null(strstr(err, "only PNG is written"));
    const char *upper[] = {"--screenshot", "OUT.Png", "s.lua", NULL};
    assert_int_equal(parse(&o, err, upper), OPTIONS_RUN);
    const char *alone[] = {"--at-step", "5", "s.lua", NULL};
    assert_int_equal(parse(&o, err, alone), OPTIONS_ERROR);
    const char *past[] = {"--steps", "100", "--at-step", "101", "--screenshot", "a.png", "s.lua", NULL};
    assert_int_equal(parse(&o, err, past), OPTIONS_ERROR);
    assert_non_null(strstr(err, "step 101 is never reached, the run ends after step 100 (--steps)"));
    const char *last[] = {"--steps", "100", "--at-step", "100", "--screenshot", "a.png", "s.lua", NULL};
    assert_int_equal(parse(&o, err, last), OPTIONS_RUN);
    /* headless without --steps runs OPTIONS_DEFAULT_HEADLESS_STEPS; a window or --watch runs on */
    const char *headless[] = {"--headless", "--at-step", "601", "--screenshot", "a.png", "s.lua", NULL};
    assert_int_equal(parse(&o, err, headless), OPTIONS_ERROR);
    const char *window[] = {"--at-step", "601", "--screenshot", "a.png", "s.lua", NULL};
    assert_int_equal(parse(&o, err, window), OPTIONS_RUN);
    const char *watch[] = {"--headless", "--watch", "--at-step", "601", "--screenshot", "a.png", "s.lua", NULL};
    assert_int_equal(parse(&o, err, watch), OPTIONS_RUN);

    /* the file system: a scene that is a folder, a screenshot's folder that is missing */
    o = options_default();
    o.script = "/tmp";
    assert_false(options_check_paths(&o, err, sizeof err));
    assert_non_null(strstr(err, "/tmp is a directory"));
    o.script = "s.lua"; /* (a missing scene is the loader's to report) */
    o.screenshot = "/nonexistent-folder/a.png";
    assert_false(options_check_paths(&o, err, sizeof err));
    assert_non_null(strstr(err, "no folder /nonexistent-folder"));
    o.screenshot = "/tmp/a.png";
    assert_true(options_check_paths(&o, err, sizeof err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_match_the_help),
        cmocka_unit_test(test_every_option_is_read),
        cmocka_unit_test(test_bad_values_name_the_option_and_what_was_expected),
        cmocka_unit_test(test_values_after_an_equals_sign_and_hints_for_typos),
        cmocka_unit_test(test_help_documents_every_option),
        cmocka_unit_test(test_version_is_the_library_s),
        cmocka_unit_test(test_what_cannot_be_done_as_asked_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
