/* SPDX-License-Identifier: MIT */
/* test_runtime_sound.c - steer.sound (docs/lua-api.md#sound): effects synthesised from a few
 * numbers (their length, loudness, pitch and its slide, notes, a fade to silence), checked in
 * process; steer.sound.new's errors; the program playing them only when asked headless (--sound),
 * through SDL's disk writer driver (never a real device), whose file must hold the samples
 * played; a replay silent unless asked; a rewound run's replays silent, the live run heard; and
 * --sound with --mute refused. */
#include "runtime_support.h"

#include <math.h>
#include <stdint.h>

#include "app.h"
#include "rewind.h"
#include "sound.h"

static int count_of(const SoundSpec *spec) { return sound_sample_count(spec); }

/* Upward zero crossings per second over samples [from, to). */
static double pitch(const float *s, int from, int to)
{
    int crossings = 0;
    for (int i = from + 1; i < to; i++)
        if (s[i - 1] < 0.0f && s[i] >= 0.0f) crossings++;
    return crossings * (double)SOUND_RATE / (to - from);
}

static float peak(const float *s, int from, int to)
{
    float p = 0.0f;
    for (int i = from; i < to; i++) p = fmaxf(p, fabsf(s[i]));
    return p;
}

/* A sliding sine: as long as asked, starts near `freq`, ends near `to`, peaks at its volume after
 * the attack and fades to silence at its end. */
static void test_an_effect_slides_from_its_pitch_to_the_next_and_fades_out(void **state)
{
    (void)state;
    SoundSpec spec = {.wave = SOUND_SINE, .freq = 400, .to = 1600, .duration = 0.5, .volume = 0.8, .attack = 0.01};
    int n = count_of(&spec);
    assert_int_equal(n, SOUND_RATE / 2);
    float *s = calloc((size_t)n, sizeof *s);
    sound_synth(&spec, s);
    int tenth = n / 10;
    double start = pitch(s, 0, tenth), end = pitch(s, n - tenth, n);
    assert_true(start > 400 * 0.9 && start < 400 * 1.3); /* (the first tenth already slid a little) */
    assert_true(end > 1600 * 0.75 && end < 1600 * 1.05);
    assert_true(peak(s, 0, n) <= 0.8f + 1e-6f);
    assert_true(peak(s, 0, tenth) > 0.6f);
    assert_true(peak(s, n - 50, n) < 0.02f); /* silent at the end: no click */
    assert_true(fabsf(s[0]) < 0.01f);        /* nor at the start */
    free(s);
}

/* Notes: the effect steps through them in equal parts. */
static void test_an_effect_with_notes_plays_each_in_turn(void **state)
{
    (void)state;
    SoundSpec spec = {.wave = SOUND_SQUARE, .duration = 0.6, .volume = 0.5, .notes = {300, 600, 900}, .note_count = 3};
    int n = count_of(&spec);
    float *s = calloc((size_t)n, sizeof *s);
    sound_synth(&spec, s);
    for (int k = 0; k < 3; k++) {
        double f = pitch(s, k * n / 3 + 200, (k + 1) * n / 3 - 200);
        double want = 300.0 * (k + 1);
        if (fabs(f - want) > want * 0.1) fail_msg("note %d: %.0f Hz, %.0f expected", k + 1, f, want);
    }
    free(s);
}

/* Noise is the same every time it is made with the same seed, and another with another. */
static void test_noise_is_the_same_for_the_same_seed(void **state)
{
    (void)state;
    SoundSpec spec = {.wave = SOUND_NOISE, .freq = 3000, .to = 3000, .duration = 0.1, .volume = 1, .seed = 4};
    int n = count_of(&spec);
    float *a = calloc((size_t)n, sizeof *a), *b = calloc((size_t)n, sizeof *b);
    sound_synth(&spec, a);
    sound_synth(&spec, b);
    assert_memory_equal(a, b, (size_t)n * sizeof *a);
    spec.seed = 5;
    sound_synth(&spec, b);
    assert_memory_not_equal(a, b, (size_t)n * sizeof *a);
    assert_true(peak(a, 0, n) > 0.3f);
    free(a);
    free(b);
}

static const char *SOUND_SCENE =
    "local steer = require 'steer'\n"
    "world = {width = 400, height = 300}\n"
    "local beep = steer.sound.new{wave = 'square', freq = 660, to = 1320, duration = 0.1}\n"
    "local tune = steer.sound.new{wave = 'triangle', notes = {523, 659, 784}, duration = 0.3}\n"
    "function load(w) w:spawn{x = 10, y = 10}; beep:play() end\n"
    "function update(w, dt)\n"
    "  if w.step_count == 30 then steer.sound.play(tune, 0.5) end\n"
    "end\n";

/* Each wrong call of steer.sound is an error naming the function, the option and what it takes. */
static void test_steer_sound_new_checks_its_options(void **state)
{
    (void)state;
    rt_write("bad.lua", "local steer = require 'steer'\n"
                        "local function try(f, ...) local ok, e = pcall(f, ...); print(e) end\n"
                        "try(steer.sound.new, {frq = 300})\n"
                        "try(steer.sound.new, {wave = 'squiggle'})\n"
                        "try(steer.sound.new, {duration = 9})\n"
                        "try(steer.sound.new, {notes = {}})\n"
                        "try(steer.sound.new, {freq = 'high'})\n"
                        "try(steer.sound.new, 'beep')\n"
                        "local s = steer.sound.new{}\n"
                        "try(s.play, s, 2)\n"
                        "try(steer.sound.play, {})\n"
                        "print(s, s:duration())\n");
    const char *args[] = {"--headless", "--steps", "1", rt_path("bad.lua"), NULL};
    char *out, *err;
    assert_int_equal(rt_run(args, &out, &err), 0);
    assert_non_null(strstr(out, "steer.sound.new: unknown option 'frq' (did you mean 'freq'?)"));
    assert_non_null(strstr(out, "steer.sound.new: option 'wave' must be \"sine\", \"square\", \"triangle\", \"saw\" "
                                "or \"noise\" (got squiggle)"));
    assert_non_null(strstr(out, "steer.sound.new: option 'duration' must be from 0.01 to 2 (got 9)"));
    assert_non_null(strstr(out, "steer.sound.new: option 'notes' must list 1 to 8 pitches (got 0)"));
    assert_non_null(strstr(out, "steer.sound.new: option 'freq' must be a number (got string)"));
    assert_non_null(strstr(out, "steer.sound.new: a table of options expected (got string)"));
    assert_non_null(strstr(out, "steer.sound.play: the volume must be a number from 0 to 1 (got 2)"));
    assert_non_null(strstr(out, "steer.sound.play: an effect from steer.sound.new expected (got table)"));
    assert_non_null(strstr(out, "steer.Sound (square, 200 ms)\t0.2"));
    assert_null(strstr(out, "sound:")); /* headless without --sound: nothing opened */
    free(out);
    free(err);
}

/* The 16-bit samples of a raw file the disk driver wrote (mono, SOUND_RATE). */
static int16_t *read_raw(const char *path, long *count)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long bytes = ftell(f);
    fseek(f, 0, SEEK_SET);
    int16_t *s = malloc((size_t)bytes + 2);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)bytes, f), (size_t)bytes);
    fclose(f);
    *count = bytes / 2;
    return s;
}

/* Headless with --sound, SDL's disk writer (never a real device) gets the effects played: the
 * file holds the beep at load and the tune half a second later, whole and as loud as asked. */
static void test_headless_with_sound_queues_what_the_scene_played(void **state)
{
    (void)state;
    rt_write("sound.lua", SOUND_SCENE);
    setenv("SDL_AUDIODRIVER", "disk", 1);
    setenv("SDL_DISKAUDIOFILE", rt_path("out.raw"), 1);
    setenv("SDL_DISKAUDIODELAY", "0", 1);
    const char *args[] = {"--headless", "--sound", "--steps", "60", rt_path("sound.lua"), NULL};
    char *out, *err;
    int status = rt_run(args, &out, &err);
    setenv("SDL_AUDIODRIVER", "dummy", 1);
    unsetenv("SDL_DISKAUDIOFILE");
    unsetenv("SDL_DISKAUDIODELAY");
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "sound: driver=disk plays=2 samples=22050")); /* one second: 60 steps */
    long n;
    int16_t *s = read_raw(rt_path("out.raw"), &n);
    long sounding = 0;
    int loudest = 0;
    for (long i = 0; i < n; i++)
        if (s[i]) {
            sounding++;
            if (abs(s[i]) > loudest) loudest = abs(s[i]);
        }
    /* the beep (0.1 s) and the tune (0.3 s): the driver writes silence whenever the queue is empty,
     * so only the sounding samples count, not where they fall */
    double heard = (double)sounding / SOUND_RATE;
    if (heard < 0.38 || heard > 0.401) fail_msg("%.3f s of sound written, 0.4 expected", heard);
    assert_true(loudest > 9000 && loudest <= 32000); /* the square at 0.5: 0.3 of full scale */
    free(s);
    free(out);
    free(err);
}

/* A replay plays nothing unless asked (--sound); asked, it plays what the run played. */
static void test_a_replay_is_silent_unless_asked(void **state)
{
    (void)state;
    rt_write("sound.lua", SOUND_SCENE);
    const char *rec[] = {"--headless", "--steps", "40", "--record", rt_path("run.rec"), rt_path("sound.lua"), NULL};
    char *out, *err;
    assert_int_equal(rt_run(rec, &out, &err), 0);
    free(out);
    free(err);
    const char *plain[] = {"--headless", "--replay", rt_path("run.rec"), NULL};
    assert_int_equal(rt_run(plain, &out, &err), 0);
    assert_null(strstr(out, "sound:"));
    free(out);
    free(err);
    const char *asked[] = {"--headless", "--sound", "--replay", rt_path("run.rec"), NULL};
    assert_int_equal(rt_run(asked, &out, &err), 0);
    assert_non_null(strstr(out, "sound: driver=dummy plays=2"));
    free(out);
    free(err);
}

static void test_sound_and_mute_together_are_refused(void **state)
{
    (void)state;
    rt_write("sound.lua", SOUND_SCENE);
    const char *args[] = {"--headless", "--sound", "--mute", rt_path("sound.lua"), NULL};
    char *out, *err;
    assert_int_equal(rt_run(args, &out, &err), 1);
    assert_non_null(strstr(err, "options --sound and --mute: give one of them"));
    free(out);
    free(err);
}

/* A run that rewinds: the live run's effects are heard; the replays that show past steps and
 * step through them again are not; going on live from a past step is heard again. The sound key
 * mutes: nothing is played while muted. */
static void test_rewound_steps_are_silent_and_the_key_mutes(void **state)
{
    (void)state;
    rt_write("sound.lua", "local steer = require 'steer'\n"
                          "world = {width = 400, height = 300}\n"
                          "local tick = steer.sound.new{wave = 'sine', duration = 0.02}\n"
                          "function load(w) w:spawn{x = 10, y = 10} end\n"
                          "function update(w, dt) if w.step_count % 10 == 0 then tick:play() end end\n");
    static App app;
    AppOptions opt = options_default();
    opt.headless = true;
    opt.rewind = true;
    opt.sound = 1;
    opt.steps = 1000;
    opt.run.time_budget_ms = 20000;
    opt.script = rt_path("sound.lua");
    assert_int_equal(app_init(&app, &opt, NULL), 0);
    assert_non_null(app.sound);
    for (int i = 0; i < 100; i++) app_frame(&app, 1.0 / 60.0);
    assert_int_equal(sound_plays(app.sound), 10); /* steps 10, 20, ..., 100 */
    char error[2048] = "";
    assert_true(rewind_jump(app.session.rewind, &app, 35, error, sizeof error));
    assert_true(rewind_in_past(app.session.rewind));
    app_feed_key(&app, SDLK_RIGHT, KMOD_LSHIFT); /* a second forward in the recording: steps 36..95 */
    app_frame(&app, 1.0 / 60.0);
    assert_true(app.session.steps > 40);
    assert_int_equal(sound_plays(app.sound), 10);
    app.paused = false; /* going on live from there: heard */
    for (int i = 0; i < 30; i++) app_frame(&app, 1.0 / 60.0);
    assert_false(rewind_in_past(app.session.rewind));
    long long heard = sound_plays(app.sound);
    assert_true(heard >= 12);
    app_feed_key(&app, SDLK_m, KMOD_LCTRL); /* muted */
    assert_true(sound_muted(app.sound));
    for (int i = 0; i < 30; i++) app_frame(&app, 1.0 / 60.0);
    assert_int_equal(sound_plays(app.sound), heard);
    app_feed_key(&app, SDLK_m, KMOD_LCTRL);
    for (int i = 0; i < 30; i++) app_frame(&app, 1.0 / 60.0);
    assert_true(sound_plays(app.sound) > heard);
    app_shutdown(&app);
}

int main(void)
{
    setenv("SDL_AUDIODRIVER", "dummy", 1); /* never a real device */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_an_effect_slides_from_its_pitch_to_the_next_and_fades_out),
        cmocka_unit_test(test_an_effect_with_notes_plays_each_in_turn),
        cmocka_unit_test(test_noise_is_the_same_for_the_same_seed),
        cmocka_unit_test_setup_teardown(test_steer_sound_new_checks_its_options, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_headless_with_sound_queues_what_the_scene_played, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_replay_is_silent_unless_asked, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_sound_and_mute_together_are_refused, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_rewound_steps_are_silent_and_the_key_mutes, rt_setup, rt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
