/* SPDX-License-Identifier: MIT */
/* test_runtime_rewind.c - rewinding a run (docs/runtime.md, Rewind). A run records itself in
 * memory (headless here with opt.rewind, as a window always does), its world checksum is kept after
 * every step, then the app is sent back and forth to steps in a random order: the world shown must
 * have the very checksum the run had at that step. Then the keys (Left, Right, with Shift) and the
 * timeline (a press and a drag on its bar), and changing the past: a key for the scene and a saved
 * reload at a past step drop the old future, and replaying the branched recording gives the new
 * run's worlds, not the old ones. The replays print nothing (the run's output is a headless run's,
 * line for line, however many keyframes and jumps); the inspector's plots after any jump are the
 * run's whole 10 s there; F5 is a mark the timeline's count restarts from, and marks on one step
 * stack. Input goes through app_handle_event, the window's own path. */
#include "runtime_support.h"

#include <math.h>

#include <lua.h>

#include "app.h"
#include "record.h"
#include "replay.h"
#include "rewind.h"

#define MAX_STEPS 4096

/* The world checksum after each step of the run as it went live (0 where a frame took two). */
static uint64_t live_sums[MAX_STEPS];

static void event_key(App *app, SDL_Keycode sym, Uint16 mod) { app_feed_key(app, sym, mod); }

static void mouse(App *app, Uint32 type, Uint8 button, int x, int y)
{
    if (type == SDL_MOUSEMOTION)
        app_feed_motion(app, x, y);
    else
        app_feed_button(app, type, button, x, y);
}

static uint64_t world_sum(App *app) { return steer_world_checksum(script_world(app->session.host)); }

/* `n` frames of 1/60 s, noting the checksum after each. */
static void run_noting(App *app, int n)
{
    for (int i = 0; i < n; i++) {
        app_frame(app, 1.0 / 60.0);
        assert_true(app->session.steps < MAX_STEPS);
        live_sums[app->session.steps] = world_sum(app);
    }
}

static void start(App *app, const char *scene, bool watch)
{
    AppOptions opt = options_default();
    opt.headless = true;
    opt.rewind = true;
    opt.steps = MAX_STEPS - 1; /* (a headless run stops at 600 unless told) */
    opt.watch = watch;
    opt.width = 800;
    opt.height = 600;
    opt.run.has_seed = true;
    opt.run.seed = 9;
    opt.run.time_budget_ms = 20000;
    opt.script = scene;
    assert_int_equal(app_init(app, &opt, NULL), 0);
    assert_non_null(app->session.rewind);
    memset(live_sums, 0, sizeof live_sums);
    live_sums[0] = world_sum(app);
}

static void assert_shows(App *app, long long step)
{
    assert_int_equal(app->session.steps, step);
    assert_true(live_sums[step] != 0);
    if (world_sum(app) != live_sums[step])
        fail_msg("step %lld: the rewound world's checksum %016llx is not the run's %016llx", step,
                 (unsigned long long)world_sum(app), (unsigned long long)live_sums[step]);
}

static void jump(App *app, long long step)
{
    char error[2048] = "";
    if (!rewind_jump(app->session.rewind, app, step, error, sizeof error)) fail_msg("jump to %lld: %s", step, error);
}

static void test_a_jump_to_any_step_shows_the_world_the_run_had_there(void **state)
{
    (void)state;
    static App app;
    start(&app, "scripts/hunter_prey.lua", false);
    /* a player: the pointer moving, clicks, the scene's keys, a pause */
    for (int round = 0; round < 12; round++) {
        mouse(&app, SDL_MOUSEMOTION, 0, 200 + 30 * round, 300 - 10 * round);
        run_noting(&app, 40);
        mouse(&app, SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, 150 + 40 * round, 200);
        mouse(&app, SDL_MOUSEBUTTONUP, SDL_BUTTON_LEFT, 150 + 40 * round, 200);
        event_key(&app, "hpd"[round % 3], 0);
        run_noting(&app, 40);
        if (round == 5) {
            event_key(&app, SDLK_SPACE, 0);
            run_noting(&app, 10);
            event_key(&app, SDLK_SPACE, 0);
        }
    }
    long long last = app.session.steps;
    if (last < 900) fail_msg("only %lld steps", last);
    assert_false(rewind_in_past(app.session.rewind));
    srand(7);
    for (int i = 0; i < 8; i++) {
        long long k = rand() % (last + 1);
        jump(&app, k);
        assert_true(rewind_in_past(app.session.rewind));
        assert_true(app.paused);
        assert_shows(&app, k);
        jump(&app, k + 7 <= last ? k + 7 : last); /* forward from the step shown: played on */
        assert_shows(&app, k + 7 <= last ? k + 7 : last);
    }
    jump(&app, 0);
    assert_shows(&app, 0);
    jump(&app, last);
    assert_shows(&app, last);
    /* keyframes (hosts kept at past steps, built in idle time) start later jumps: the same worlds */
    while (rewind_idle(app.session.rewind, &app, 0.01)) {
    }
    assert_true(rewind_keyframes(app.session.rewind) > 0);
    for (int i = 0; i < 8; i++) {
        long long k = rand() % (last + 1);
        jump(&app, k);
        assert_shows(&app, k);
        rewind_idle(app.session.rewind, &app, 0.01);
    }
    assert_int_equal(rewind_last_step(app.session.rewind, &app.session), last); /* looking changed nothing recorded */
    app_shutdown(&app);
}

static void test_left_right_shift_and_the_timeline_show_the_steps_they_name(void **state)
{
    (void)state;
    static App app;
    start(&app, "scripts/flocking.lua", false);
    run_noting(&app, 300);
    event_key(&app, SDLK_LEFT, 0); /* pauses and goes one step back */
    app_frame(&app, 1.0 / 60.0);
    assert_true(app.paused);
    assert_shows(&app, 299);
    event_key(&app, SDLK_LEFT, KMOD_LSHIFT); /* one second: 60 steps */
    app_frame(&app, 1.0 / 60.0);
    assert_shows(&app, 239);
    event_key(&app, SDLK_RIGHT, 0);
    event_key(&app, SDLK_RIGHT, 0); /* two presses in one frame: two steps */
    app_frame(&app, 1.0 / 60.0);
    assert_shows(&app, 241);
    event_key(&app, SDLK_RIGHT, KMOD_RSHIFT);
    app_frame(&app, 1.0 / 60.0);
    assert_shows(&app, 300); /* past the last step recorded: the last one */
    /* the timeline: a press on its bar shows the step under it, a drag follows the pointer */
    int bx, by, bw, bh;
    steer_render_timeline_bar(800, 600, &bx, &by, &bw, &bh);
    mouse(&app, SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, bx + bw / 4, by + bh / 2);
    app_frame(&app, 1.0 / 60.0);
    assert_shows(&app, 75);
    mouse(&app, SDL_MOUSEMOTION, 0, bx + bw / 2, 20); /* off the bar vertically: still dragging */
    app_frame(&app, 1.0 / 60.0);
    assert_shows(&app, 150);
    mouse(&app, SDL_MOUSEBUTTONUP, SDL_BUTTON_LEFT, bx + bw / 2, 20);
    mouse(&app, SDL_MOUSEMOTION, 0, bx, by); /* released: moving no longer scrubs */
    app_frame(&app, 1.0 / 60.0);
    assert_shows(&app, 150);
    assert_int_equal(rewind_last_step(app.session.rewind, &app.session), 300);
    app_shutdown(&app);
}

/* What every vehicle's senses hold, as one number: per sense of each vehicle, in creation order,
 * each memory's other (serial), position, step and whether it is sensed now. The overlay and the
 * inspector read the same queries, so a step whose digest is the run's shows what the run saw. */
static uint64_t senses_digest(App *app, int *sensing)
{
    const SteerWorld *w = script_world(app->session.host);
    SteerVehicleId ids[256];
    int count = steer_world_get_vehicles(w, ids, 256);
    uint64_t h = 1469598103934665603ull;
#define MIX(value) (h = (h ^ (uint64_t)(value)) * 1099511628211ull)
    *sensing = 0;
    for (int i = 0; i < count && i < 256; i++) {
        int senses = steer_vehicle_sense_count(w, ids[i]);
        for (int k = 0; k < senses; k++) {
            SteerMemory memories[64];
            int n = steer_vehicle_get_memories(w, ids[i], k, memories, 64);
            MIX(n);
            for (int m = 0; m < n && m < 64; m++) {
                uint64_t x, y;
                memcpy(&x, &memories[m].position.x, sizeof x);
                memcpy(&y, &memories[m].position.y, sizeof y);
                MIX(steer_vehicle_serial(w, memories[m].other));
                MIX(x);
                MIX(y);
                MIX(memories[m].step);
                MIX(memories[m].sensed_now);
                *sensing += memories[m].sensed_now;
            }
        }
    }
#undef MIX
    return h;
}

static void test_a_rewound_step_shows_what_the_guards_sensed_there(void **state)
{
    (void)state;
    static App app;
    static uint64_t digests[MAX_STEPS];
    start(&app, "scripts/guards.lua", false);
    int sensing;
    digests[0] = senses_digest(&app, &sensing);
    long long seen_steps = 0;
    for (int i = 0; i < 1500; i++) {
        if (i == 400 || i == 900) { /* a click: a noise the guards in earshot go to (recorded input) */
            mouse(&app, SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, 400, 300);
            mouse(&app, SDL_MOUSEBUTTONUP, SDL_BUTTON_LEFT, 400, 300);
        }
        run_noting(&app, 1);
        digests[app.session.steps] = senses_digest(&app, &sensing);
        seen_steps += sensing > 0;
    }
    long long last = app.session.steps;
    /* the run is worth looking back at: something was sensed at many steps */
    if (seen_steps < 100) fail_msg("something was sensed at only %lld steps of %lld", seen_steps, last);
    srand(11);
    for (int i = 0; i < 10; i++) {
        long long k = 1 + rand() % last;
        jump(&app, k);
        assert_shows(&app, k);
        uint64_t d = senses_digest(&app, &sensing);
        if (d != digests[k]) fail_msg("step %lld: the rewound senses differ from the run's", k);
    }
    app_shutdown(&app);
}

static const char *BRANCH_SCENE =
    "world = {width = 400, height = 300, edges = \"wrap\", seed = 3}\n"
    "function load(w)\n"
    "  W = w\n"
    "  for i = 1, 6 do\n"
    "    w:spawn{kind = \"a\", x = w:random(400), y = w:random(300), max_speed = 60}:wander{}\n"
    "  end\n"
    "end\n"
    "function keypressed(k)\n"
    "  if k == \"b\" then W:spawn{kind = \"b\", x = 10, y = 10, max_speed = 50}:wander{} end\n"
    "end\n"
    "function update(w, dt)\n"
    "  if boost then for _, v in ipairs(w:vehicles()) do v.max_speed = 100 end end\n"
    "end\n";

static bool scene_global_set(App *app, const char *name)
{
    script_push_global(app->session.host, name);
    bool set = !lua_isnil(script_state(app->session.host), -1);
    lua_pop(script_state(app->session.host), 1);
    return set;
}

static void test_input_or_a_save_at_a_past_step_goes_on_from_it_and_drops_the_old_future(void **state)
{
    (void)state;
    rt_write("branch.lua", BRANCH_SCENE);
    static App app;
    start(&app, rt_path("branch.lua"), true);
    run_noting(&app, 1500);
    uint64_t old_1200 = live_sums[1200];
    while (rewind_idle(app.session.rewind, &app, 0.01)) { /* keyframes at 750, then 375 and 1125 */
    }
    assert_int_equal(rewind_keyframes(app.session.rewind), 3);
    jump(&app, 1000);
    assert_shows(&app, 1000);
    /* a key the scene hears, at step 1000: the run goes on from there with it */
    event_key(&app, SDLK_b, 0);
    assert_false(rewind_in_past(app.session.rewind));
    assert_int_equal(rewind_last_step(app.session.rewind, &app.session), 1000); /* steps 1001..1500 dropped */
    assert_int_equal(rewind_keyframes(app.session.rewind),
                     1); /* 375 kept; 750 was used; 1125 replayed the old future */
    event_key(&app, SDLK_SPACE, 0);
    run_noting(&app, 300);
    assert_int_equal(app.session.steps, 1300);
    assert_int_equal(steer_world_vehicle_count(script_world(app.session.host)), 7);
    assert_true(live_sums[1200] != old_1200);
    /* the branched recording replays the new past (with the key at step 1000), from the start and
     * from the keyframe kept at 375, whose copy of the recording ended at the branch */
    jump(&app, 1200);
    assert_shows(&app, 1200);
    assert_int_equal(steer_world_vehicle_count(script_world(app.session.host)), 7);
    assert_int_equal(rewind_keyframes(app.session.rewind), 0);
    jump(&app, 500);
    assert_shows(&app, 500);
    assert_int_equal(steer_world_vehicle_count(script_world(app.session.host)), 6);
    /* a save while step 1250 is shown: the new code runs from step 1250 */
    jump(&app, 1250);
    assert_shows(&app, 1250);
    char *text = rt_read(rt_path("branch.lua"));
    size_t len = strlen(text) + 32;
    char *saved = malloc(len);
    snprintf(saved, len, "%sboost = true\n", text);
    rt_write("branch.lua", saved);
    free(saved);
    free(text);
    double end = rt_now() + RT_DEADLINE_S;
    while (!scene_global_set(&app, "boost") && rt_now() < end) {
        app_frame(&app, 1.0 / 60.0);
        rt_sleep(0.02);
    }
    assert_true(scene_global_set(&app, "boost"));
    assert_false(rewind_in_past(app.session.rewind));
    assert_int_equal(app.session.steps, 1250);
    assert_int_equal(rewind_last_step(app.session.rewind, &app.session), 1250);
    uint64_t before_reload_1300 = live_sums[1300];
    event_key(&app, SDLK_SPACE, 0);
    run_noting(&app, 100);
    assert_int_equal(app.session.steps, 1350);
    assert_true(live_sums[1300] != before_reload_1300);
    jump(&app, 1300); /* replayed with the saved text at step 1250, from the recording */
    assert_shows(&app, 1300);
    jump(&app, 1220);
    assert_shows(&app, 1220);
    app_shutdown(&app);
}

/* The pixel at (x, y) of what the app's renderer drew, as 0xRRGGBB. */
static unsigned pixel(App *app, int x, int y)
{
    Uint32 argb = 0;
    SDL_Rect r = {x, y, 1, 1};
    assert_int_equal(SDL_RenderReadPixels(app->sdl, &r, SDL_PIXELFORMAT_ARGB8888, &argb, 4), 0);
    return argb & 0xFFFFFF;
}

static void test_the_timeline_shows_the_step_and_where_the_run_branched(void **state)
{
    (void)state;
    rt_write("branch.lua", BRANCH_SCENE);
    AppOptions opt = options_default();
    opt.headless = true;
    opt.rewind = true;
    opt.steps = MAX_STEPS - 1;
    opt.width = 800;
    opt.height = 600;
    opt.screenshot = rt_path("unused.png"); /* (a headless app draws only when asked for a picture) */
    opt.script = rt_path("branch.lua");
    static App app;
    assert_int_equal(app_init(&app, &opt, NULL), 0);
    assert_non_null(app.render);
    run_noting(&app, 600);
    jump(&app, 300);
    event_key(&app, SDLK_b, 0); /* the run branches at step 300 */
    event_key(&app, SDLK_SPACE, 0);
    run_noting(&app, 300);
    jump(&app, 450);
    app_render(&app, 1.0);
    int bx, by, bw, bh;
    steer_render_timeline_bar(800, 600, &bx, &by, &bw, &bh);
    int middle = by + bh / 2;
    assert_int_equal(pixel(&app, bx + bw * 3 / 4, middle), 0xFFFFFF); /* the handle at 450 of 600 */
    assert_int_equal(pixel(&app, bx + bw / 2, middle), 0xFAD246);     /* the branch mark at 300 */
    assert_true(pixel(&app, bx + bw * 7 / 8, middle) != 0xFFFFFF);    /* nothing at 525 */
    /* the future the branch dropped (steps 300..600, kept): a line under the bar from the branch on */
    int under = by + bh + 2;
    assert_int_equal(pixel(&app, bx + bw / 4, under), pixel(&app, bx + bw / 4, under + 4)); /* none before */
    assert_true(pixel(&app, bx + bw * 5 / 8, under) != pixel(&app, bx + bw * 5 / 8, under + 4));
    assert_true(pixel(&app, bx + bw * 7 / 8, under) != pixel(&app, bx + bw * 7 / 8, under + 4));
    /* after Ctrl+Z the run's future is the old one again and the new one is kept, from 300 too */
    event_key(&app, SDLK_z, KMOD_LCTRL);
    app_render(&app, 1.0);
    assert_int_equal(app.session.steps, 300); /* shown at the branch: the handle there, the mark above it */
    assert_int_equal(pixel(&app, bx + bw / 2, middle), 0xFFFFFF);
    assert_int_equal(pixel(&app, bx + bw / 2, by - 5), 0xFAD246);
    assert_true(pixel(&app, bx + bw * 7 / 8, under) != pixel(&app, bx + bw * 7 / 8, under + 4));
    app_shutdown(&app);
}

/* The ring's samples in order, compared by value (the rings may start at different indexes). */
static void assert_same_history(const History *a, const History *b)
{
    assert_int_equal(a->count, b->count);
    assert_int_equal(a->serial, b->serial);
    for (int i = 0; i < a->count; i++) {
        int ia = (a->first + i) % HISTORY_CAPACITY, ib = (b->first + i) % HISTORY_CAPACITY;
        assert_memory_equal(&a->time[ia], &b->time[ib], sizeof a->time[0]);
        assert_memory_equal(&a->speed[ia], &b->speed[ib], sizeof a->speed[0]);
        assert_memory_equal(&a->force[ia], &b->force[ib], sizeof a->force[0]);
        for (int k = 0; k < STEER_BEHAVIOUR_COUNT; k++)
            assert_memory_equal(&a->behaviour[k][ia], &b->behaviour[k][ib], sizeof a->behaviour[0][0]);
        assert_int_equal(a->state[ia] == STEER_PLOT_NO_STATE, b->state[ib] == STEER_PLOT_NO_STATE);
        if (a->state[ia] != STEER_PLOT_NO_STATE)
            assert_string_equal(a->state_names[a->state[ia]], b->state_names[b->state[ib]]);
    }
}

static void test_the_inspectors_plots_of_a_rewound_step_are_the_ones_the_run_had(void **state)
{
    (void)state;
    AppOptions opt = options_default();
    opt.headless = true;
    opt.rewind = true;
    opt.steps = MAX_STEPS - 1;
    opt.run.has_seed = true;
    opt.run.seed = 4;
    opt.select = 2; /* a hunter: it rests, hunts and chases */
    opt.screenshot = rt_path("unused.png");
    opt.script = "scripts/hunter_prey.lua";
    static App app;
    static History live;
    assert_int_equal(app_init(&app, &opt, NULL), 0);
    assert_non_null(app.history);
    run_noting(&app, 1300);
    live = *app.history;
    assert_true(live.count == HISTORY_CAPACITY); /* (17 s of samples: the ring is full) */
    jump(&app, 1299);                            /* replayed from the start */
    jump(&app, 1300);                            /* played on one step */
    assert_shows(&app, 1300);
    assert_same_history(&live, app.history);
    app_shutdown(&app);
}

/* ---- Replays say nothing ------------------------------------------------------------------------ */

/* What the process writes on stdout and stderr goes to two files while it is captured. */
typedef struct Capture {
    int saved_out, saved_err;
    char out[1024], err[1024];
} Capture;

static void capture_begin(Capture *c, const char *name)
{
    snprintf(c->out, sizeof c->out, "%s.out", rt_path(name));
    snprintf(c->err, sizeof c->err, "%s.err", rt_path(name));
    fflush(stdout);
    fflush(stderr);
    c->saved_out = dup(1);
    c->saved_err = dup(2);
    int fo = open(c->out, O_WRONLY | O_CREAT | O_TRUNC, 0644), fe = open(c->err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fo >= 0 && fe >= 0);
    dup2(fo, 1);
    dup2(fe, 2);
    close(fo);
    close(fe);
}

static void capture_end(Capture *c)
{
    fflush(stdout);
    fflush(stderr);
    dup2(c->saved_out, 1);
    dup2(c->saved_err, 2);
    close(c->saved_out);
    close(c->saved_err);
}

/* Prints on stdout (print, io.write) and stderr (io.stderr:write) every second, reads the
 * environment, fails in update (the same error for ten steps, another later) and in a brain. */
static const char *TALKING_SCENE =
    "world = {width = 400, height = 300, edges = \"wrap\", seed = 3}\n"
    "function load(w)\n"
    "  print(\"load\", os.getenv(\"STEER_REWIND_TEST\"))\n"
    "  for i = 1, 4 do\n"
    "    local v = w:spawn{kind = \"a\", x = w:random(400), y = w:random(300), max_speed = 60}:wander{}\n"
    "    if i == 1 then v.brain = function(v) if v.world.time > 3 then error(\"brain out\") end end end\n"
    "  end\n"
    "end\n"
    "function update(w, dt)\n"
    "  local n = w.step_count\n"
    "  if n % 60 == 0 then\n"
    "    print(\"tick\", n)\n"
    "    io.write(\"written \", n, \"\\n\")\n"
    "    io.stderr:write(\"to stderr \", n, \"\\n\")\n"
    "  end\n"
    "  if n >= 100 and n < 110 then error(\"boom\") end\n"
    "  if n == 400 then error(\"bang\") end\n"
    "end\n";

/* Lines of `text` before the summary line (a headless run's last). */
static char *before_summary(char *text)
{
    char *summary = strstr(text, "summary: ");
    if (summary) *summary = '\0';
    return text;
}

/* A window's rewind replays in the background (keyframes) and to show past steps (jumps, Left,
 * Right, the timeline): none of it may print again what the run printed. The live run's output is
 * the output of a headless run of the same scene and steps, line for line; after keyframes and
 * jumps over the whole run, a reload and more jumps across it, nothing more was printed than the
 * one "reloaded" line; going on from a past step prints the new run's lines only. */
static void test_replays_print_nothing_only_the_run_shown_does(void **state)
{
    (void)state;
    rt_write("talk.lua", TALKING_SCENE);
    setenv("STEER_REWIND_TEST", "here", 1);
    const char *args[] = {"--headless", "--steps", "1500", "--seed", "9", rt_path("talk.lua"), NULL};
    char *headless_out, *headless_err;
    assert_int_equal(rt_run(args, &headless_out, &headless_err), 2); /* (script errors: status 2) */
    assert_int_equal(rt_count(headless_out, "tick"), 25);
    assert_true(rt_count(headless_err, "script error") >= 3);

    static App app;
    Capture live;
    capture_begin(&live, "live");
    start(&app, rt_path("talk.lua"), true);
    run_noting(&app, 1500);
    capture_end(&live);
    char *out = rt_read(live.out), *err = rt_read(live.err);
    assert_string_equal(out, before_summary(headless_out));
    assert_string_equal(err, headless_err);
    free(out);
    free(err);

    /* keyframes and jumps over the whole run, then a reload and the same across it */
    Capture past;
    capture_begin(&past, "past");
    while (rewind_idle(app.session.rewind, &app, 0.01)) {
    }
    srand(11);
    for (int i = 0; i < 6; i++) jump(&app, rand() % 1501);
    jump(&app, 105); /* in the middle of the failing update's steps */
    event_key(&app, SDLK_RIGHT, KMOD_LSHIFT);
    app_frame(&app, 1.0 / 60.0);
    event_key(&app, SDLK_LEFT, 0);
    app_frame(&app, 1.0 / 60.0);
    jump(&app, 1500);
    assert_false(app.paused && !rewind_in_past(app.session.rewind) && app.session.steps != 1500);
    event_key(&app, SDLK_SPACE, 0); /* (at the last step: goes on live, nothing dropped) */
    char *text = rt_read(rt_path("talk.lua"));
    size_t len = strlen(text) + 32;
    char *saved = malloc(len);
    snprintf(saved, len, "%s-- saved again\n", text);
    rt_write("talk.lua", saved);
    free(saved);
    free(text);
    double end = rt_now() + RT_DEADLINE_S;
    while (rt_now() < end) {
        app_frame(&app, 1.0 / 60.0);
        fflush(stderr);
        char *said = rt_read(past.err);
        bool reloaded = strstr(said, "steer: reloaded") != NULL;
        free(said);
        if (reloaded) break;
        rt_sleep(0.02);
    }
    long long reloaded_at = app.session.steps;
    run_noting(&app, 300);
    while (rewind_idle(app.session.rewind, &app, 0.01)) {
    }
    for (int i = 0; i < 6; i++) jump(&app, rand() % (reloaded_at + 301));
    jump(&app, reloaded_at - 1);
    jump(&app, reloaded_at + 1); /* forward over the reload */
    capture_end(&past);
    out = rt_read(past.out);
    err = rt_read(past.err);
    /* only what the run printed live after step 1500: the reload, and its own lines */
    assert_int_equal(rt_count(err, "steer: reloaded"), 1);
    /* the update's errors were long before; the brain, resumed by the good reload, fails anew once */
    if (rt_count(err, "boom") + rt_count(err, "bang") != 0 || rt_count(err, "brain out") != 1)
        fail_msg("errors printed again:\n%s", err);
    assert_int_equal(rt_count(out, "load"), 0);
    int ticks = rt_count(out, "tick");
    if (ticks > 6)
        fail_msg("%d ticks printed after step 1500 (at most 6 in %lld steps):\n%s", ticks, app.session.steps - 1500,
                 out);
    free(out);
    free(err);

    /* going on from a past step: the new run's steps print, once each */
    Capture branch;
    capture_begin(&branch, "branch");
    jump(&app, 700);
    event_key(&app, SDLK_SPACE, 0);
    run_noting(&app, 120);
    capture_end(&branch);
    out = rt_read(branch.out);
    assert_string_equal(out, "tick\t720\nwritten 720\ntick\t780\nwritten 780\n");
    free(out);
    err = rt_read(branch.err);
    /* (and the one line that says the branch kept the future it dropped) */
    assert_string_equal(err, "steer: rewind: the run branched at step 700; the 1101 steps it dropped are kept: Ctrl+Z "
                             "goes back to them\nto stderr 720\nto stderr 780\n");
    free(err);
    app_shutdown(&app);
    unsetenv("STEER_REWIND_TEST");
    free(headless_out);
    free(headless_err);
}

/* The plots' window of two histories: the same samples, bit for bit. */
static void assert_same_window(const History *live, const History *shown, long long step)
{
    SteerInspectorPlots a, b;
    history_view(live, &a);
    history_view(shown, &b);
    if (a.count != b.count || a.now != b.now)
        fail_msg("step %lld: the plots show %d samples up to %.3f s, the run had %d up to %.3f s", step, b.count, b.now,
                 a.count, a.now);
    for (int i = 0; i < a.count; i++) {
        int ia = (a.first + i) % HISTORY_CAPACITY, ib = (b.first + i) % HISTORY_CAPACITY;
        assert_memory_equal(&live->time[ia], &shown->time[ib], sizeof live->time[0]);
        assert_memory_equal(&live->speed[ia], &shown->speed[ib], sizeof live->speed[0]);
        assert_memory_equal(&live->force[ia], &shown->force[ib], sizeof live->force[0]);
    }
    /* the whole window: its oldest sample 10 s (less one step) before the newest, or the first step's */
    double span = a.now - live->time[a.first], whole = fmin(HISTORY_WINDOW_S, a.now) - 2.0 / 60.0;
    if (span < whole) fail_msg("step %lld: the plots span %.3f s", step, span);
}

/* Steps whose plots the test compares after jumping there, by a timeline click (the step under
 * the pointer) and by Left: some just after a keyframe (a replay from there alone would give a
 * fraction of a second), one before every keyframe, one the ring held already. */
enum { PLOT_RUN = 1500, PLOT_TARGETS = 6 };

static void test_after_any_jump_the_plots_show_their_whole_window_as_the_run_had_it(void **state)
{
    (void)state;
    AppOptions opt = options_default();
    opt.headless = true;
    opt.rewind = true;
    opt.steps = MAX_STEPS - 1;
    opt.run.has_seed = true;
    opt.run.seed = 4;
    opt.width = 800;
    opt.height = 600;
    opt.select = 2;
    opt.screenshot = rt_path("unused.png");
    opt.script = "scripts/hunter_prey.lua";
    static App app;
    static History live[PLOT_TARGETS];
    int bx, by, bw, bh;
    steer_render_timeline_bar(800, 600, &bx, &by, &bw, &bh);
    /* clicks at the columns of steps 1400 (the ring holds it), 780, 405 and 1155 (30 steps past the
     * keyframes the idle work builds: 750, 375, 1125), 200; then Left from the last */
    static const long long wanted[PLOT_TARGETS - 1] = {1400, 780, 405, 1155, 200};
    int xs[PLOT_TARGETS - 1];
    long long targets[PLOT_TARGETS];
    for (int i = 0; i < PLOT_TARGETS - 1; i++) {
        xs[i] = bx + (int)((double)wanted[i] / PLOT_RUN * bw + 0.5);
        targets[i] = steer_render_timeline_step(800, 600, PLOT_RUN, xs[i]);
    }
    targets[PLOT_TARGETS - 1] = targets[PLOT_TARGETS - 2] - 1;
    assert_int_equal(app_init(&app, &opt, NULL), 0);
    for (int i = 0; i < PLOT_RUN; i++) {
        run_noting(&app, 1);
        for (int k = 0; k < PLOT_TARGETS; k++)
            if (app.session.steps == targets[k]) live[k] = *app.history;
    }
    while (rewind_idle(app.session.rewind, &app, 0.01)) {
    }
    assert_int_equal(rewind_keyframes(app.session.rewind), 3);
    for (int k = 0; k < PLOT_TARGETS; k++) {
        if (k < PLOT_TARGETS - 1) {
            mouse(&app, SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, xs[k], by + bh / 2);
            mouse(&app, SDL_MOUSEBUTTONUP, SDL_BUTTON_LEFT, xs[k], by + bh / 2);
        } else {
            event_key(&app, SDLK_LEFT, 0);
        }
        app_frame(&app, 1.0 / 60.0);
        assert_shows(&app, targets[k]);
        assert_same_window(&live[k], app.history, targets[k]);
    }
    app_shutdown(&app);
}

/* ---- The timeline's marks and count ------------------------------------------------------------- */

static void save_and_wait(App *app, const char *name, const char *text, int errors_before, bool fails)
{
    rt_write(name, text);
    double end = rt_now() + RT_DEADLINE_S;
    for (;;) {
        app_frame(app, 1.0 / 60.0);
        bool done = fails ? script_error_count(app->session.host) > errors_before : scene_global_set(app, "saved");
        if (done) return;
        if (rt_now() > end) fail_msg("the save of %s was never loaded", name);
        rt_sleep(0.02);
    }
}

/* F5 is a mark on the timeline (green) and the label counts from it, as the HUD's clock does; a
 * failed save's reload and error marks, on one step, are both drawn (the error stacked above the
 * reload's tick), as are F5's branch and restart at a past step. */
static void test_restarts_are_marked_the_count_restarts_with_them_and_marks_stack(void **state)
{
    (void)state;
    rt_write("branch.lua", BRANCH_SCENE);
    AppOptions opt = options_default();
    opt.headless = true;
    opt.rewind = true;
    opt.watch = true;
    opt.steps = MAX_STEPS - 1;
    opt.width = 800;
    opt.height = 600;
    opt.screenshot = rt_path("unused.png");
    opt.script = rt_path("branch.lua");
    static App app;
    assert_int_equal(app_init(&app, &opt, NULL), 0);
    run_noting(&app, 300);
    long long failed_at = app.session.steps; /* the save lands at the step shown when the frame starts */
    save_and_wait(&app, "branch.lua", "world = {\n", script_error_count(app.session.host), true); /* a syntax error */
    failed_at = app.session.steps - 1; /* (that frame stepped once after the reload) */
    char good[2048];
    snprintf(good, sizeof good, "%ssaved = true\n", BRANCH_SCENE);
    run_noting(&app, 30);
    save_and_wait(&app, "branch.lua", good, 0, false);
    run_noting(&app, 400 - (int)app.session.steps);
    event_key(&app, SDLK_F5, 0);
    run_noting(&app, 120);
    assert_int_equal(app.session.steps, 520);
    event_key(&app, SDLK_SPACE, 0);
    app_frame(&app, 1.0 / 60.0);
    SteerTimeline t;
    char label[256];
    rewind_timeline(app.session.rewind, &app, &t, label, sizeof label);
    assert_int_equal(t.last, 520);
    assert_string_equal(label, "step 120 of 120 (2.0 s since the restart)");
    assert_true(fabs(steer_world_time(script_world(app.session.host)) - 2.0) < 1e-9); /* the HUD's clock */
    int restarts = 0, at_failure = 0;
    for (int i = 0; i < t.mark_count; i++) {
        if (t.mark_kinds[i] == STEER_MARK_RESTART) assert_int_equal(t.mark_steps[i], 400), restarts++;
        if (t.mark_steps[i] == failed_at) at_failure |= 1 << t.mark_kinds[i];
    }
    assert_int_equal(restarts, 1);
    assert_int_equal(at_failure, (1 << STEER_MARK_RELOAD) | (1 << STEER_MARK_ERROR));
    app_render(&app, 1.0);
    int x_failed = steer_render_timeline_column(800, 600, 520, failed_at);
    int x_restart = steer_render_timeline_column(800, 600, 520, 400);
    int rx, ry, rw, rh;
    steer_render_timeline_mark_rect(800, 600, x_failed, 0, STEER_MARK_RELOAD, &rx, &ry, &rw, &rh);
    assert_int_equal(pixel(&app, rx, ry + rh / 2), 0x5AAAFF); /* the reload's tick */
    steer_render_timeline_mark_rect(800, 600, x_failed, 1, STEER_MARK_ERROR, &rx, &ry, &rw, &rh);
    assert_int_equal(pixel(&app, rx + 1, ry + 1), 0xEB4646); /* the error above it */
    steer_render_timeline_mark_rect(800, 600, x_restart, 0, STEER_MARK_RESTART, &rx, &ry, &rw, &rh);
    assert_int_equal(pixel(&app, rx, ry + rh / 2), 0x5ADC78); /* the restart */
    /* before the restart the count is the first run's */
    jump(&app, 200);
    rewind_timeline(app.session.rewind, &app, &t, label, sizeof label);
    assert_string_equal(label, "step 200 of 400 (3.3 s)  rewound: Space goes on from here");
    /* F5 at step 200: a branch and a restart there, both drawn */
    event_key(&app, SDLK_F5, 0);
    app_frame(&app, 1.0 / 60.0);
    assert_int_equal(app.session.steps, 200);
    event_key(&app, SDLK_SPACE, 0); /* (the restart left it paused) */
    run_noting(&app, 100);
    event_key(&app, SDLK_SPACE, 0);
    app_frame(&app, 1.0 / 60.0);
    rewind_timeline(app.session.rewind, &app, &t, label, sizeof label);
    assert_string_equal(label, "step 100 of 100 (1.7 s since the restart)   Ctrl+Z: the 320 steps dropped at 200");
    app_render(&app, 1.0);
    /* (the bar spans the future kept aside too) */
    x_restart = steer_render_timeline_column(800, 600, rewind_timeline_span(app.session.rewind, &app.session), 200);
    steer_render_timeline_mark_rect(800, 600, x_restart, 0, STEER_MARK_BRANCH, &rx, &ry, &rw, &rh);
    assert_int_equal(pixel(&app, rx, ry + 1), 0xFAD246); /* the branch's tick (above the bar: no handle) */
    steer_render_timeline_mark_rect(800, 600, x_restart, 1, STEER_MARK_RESTART, &rx, &ry, &rw, &rh);
    assert_int_equal(pixel(&app, rx + 1, ry + 1), 0x5ADC78); /* the restart above it */
    app_shutdown(&app);
}

static void test_the_recording_in_memory_stops_at_its_cap_between_records_and_stays_readable(void **state)
{
    (void)state;
    TapeHeader h;
    memset(&h, 0, sizeof h);
    snprintf(h.program, sizeof h.program, "test");
    snprintf(h.lua, sizeof h.lua, "Lua");
    snprintf(h.scene, sizeof h.scene, "/nowhere/scene.lua");
    h.run.time_budget_ms = 100;
    h.run.memory_cap = 1 << 20;
    h.width = h.height = 100;
    h.check_interval = TAPE_CHECK_INTERVAL;
    Recorder *r = record_open_memory(&h, 300);
    assert_non_null(r);
    size_t header_len, len;
    record_bytes(r, &header_len);
    for (int i = 0; i < 100; i++) {
        record_step(r);
        record_key(r, "space");
        record_pointer(r, i, -i);
    }
    assert_true(record_full(r));
    const unsigned char *bytes = record_bytes(r, &len);
    assert_true(len >= 300 && len < 300 + 17); /* stopped at the first record boundary past the cap */
    char error[512];
    Player *p = replay_open_bytes(bytes, len, 0, error, sizeof error); /* every record whole */
    if (!p) fail_msg("%s", error);
    replay_close(p);
    /* a branch cuts it back: it records again from there */
    record_truncate(r, header_len);
    assert_false(record_full(r));
    record_step(r);
    record_bytes(r, &len);
    assert_int_equal(len, header_len + 1);
    assert_true(record_close(r, 0, error, sizeof error));
}

/* ---- What never branches, and the future a branch keeps ------------------------------------- */

static void key_event(App *app, Uint32 type, SDL_Keycode sym, Uint16 mod)
{
    app_feed_key_event(app, type, sym, mod, false);
}

/* The run at `step` of `last`, looking at the past, with nothing dropped. */
static void assert_still_rewound(App *app, long long step, long long last)
{
    assert_true(rewind_in_past(app->session.rewind));
    assert_shows(app, step);
    assert_int_equal(rewind_last_step(app->session.rewind, &app->session), last);
    assert_int_equal(rewind_dropped_steps(app->session.rewind, NULL), 0);
}

static void test_modifiers_releases_repeats_focus_and_the_timelines_keys_never_branch(void **state)
{
    (void)state;
    rt_write("branch.lua", BRANCH_SCENE);
    static App app;
    start(&app, rt_path("branch.lua"), false);
    key_event(&app, SDL_KEYDOWN, SDLK_b, 0); /* live: the scene holds b */
    run_noting(&app, 479);
    jump(&app, 185);
    /* Shift+Left (one second back): the Shift press, the key, the Shift release */
    key_event(&app, SDL_KEYDOWN, SDLK_LSHIFT, KMOD_LSHIFT);
    key_event(&app, SDL_KEYDOWN, SDLK_LEFT, KMOD_LSHIFT);
    key_event(&app, SDL_KEYUP, SDLK_LEFT, KMOD_LSHIFT);
    key_event(&app, SDL_KEYUP, SDLK_LSHIFT, 0);
    app_frame(&app, 1.0 / 60.0);
    assert_still_rewound(&app, 125, 479);
    /* Alt+Tab to the editor and back: Alt, the focus going and coming, the click that focuses */
    key_event(&app, SDL_KEYDOWN, SDLK_LALT, KMOD_LALT);
    app_feed_window(&app, SDL_WINDOWEVENT_FOCUS_LOST, 0, 0);
    key_event(&app, SDL_KEYUP, SDLK_LALT, 0);
    app_feed_key_event(&app, SDL_KEYDOWN, SDLK_b, 0, true); /* a repeat of the scene's key, held since step 0 */
    key_event(&app, SDL_KEYUP, SDLK_b, 0);                  /* and its release */
    app_feed_window(&app, SDL_WINDOWEVENT_FOCUS_GAINED, 0, 0);
    mouse(&app, SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, 30, 30);
    mouse(&app, SDL_MOUSEBUTTONUP, SDL_BUTTON_LEFT, 30, 30);
    app_frame(&app, 1.0 / 60.0);
    /* Ctrl, Right and Left, an overlay's key, a resize */
    key_event(&app, SDL_KEYDOWN, SDLK_LCTRL, KMOD_LCTRL);
    key_event(&app, SDL_KEYUP, SDLK_LCTRL, 0);
    event_key(&app, SDLK_RIGHT, 0);
    event_key(&app, SDLK_LEFT, 0);
    event_key(&app, SDLK_F2, 0);
    app_feed_window(&app, SDL_WINDOWEVENT_SIZE_CHANGED, 800, 600);
    app_frame(&app, 1.0 / 60.0);
    assert_still_rewound(&app, 125, 479);
    assert_true(script_key_held(app.session.host, "b")); /* the recording held it there */
    /* a key for the scene does change the past: the future is kept, and the scene's b (held in the
     * recording, no longer on the keyboard) is released for it */
    event_key(&app, SDLK_c, 0);
    assert_false(rewind_in_past(app.session.rewind));
    assert_int_equal(rewind_last_step(app.session.rewind, &app.session), 125);
    long long at = 0;
    assert_int_equal(rewind_dropped_steps(app.session.rewind, &at), 354);
    assert_int_equal(at, 125);
    assert_false(script_key_held(app.session.host, "b"));
    assert_non_null(strstr(hud_status_line(&app), "branch at 125: 354 steps kept aside (Ctrl+Z)"));
    app_shutdown(&app);
}

static bool panel_says(App *app, const char *text)
{
    return script_error(app->session.host) && strstr(script_error(app->session.host), text);
}

/* Saves `text` as branch.lua and runs frames until the panel says `expect`. */
static void save_broken_and_wait(App *app, const char *text, const char *expect)
{
    rt_write_rename("branch.lua", text);
    double end = rt_now() + RT_DEADLINE_S;
    while (!panel_says(app, expect) && rt_now() < end) {
        app_frame(app, 1.0 / 60.0);
        rt_sleep(0.02);
    }
    if (!panel_says(app, expect))
        fail_msg("the panel never said '%s': %s", expect,
                 script_error(app->session.host) ? script_error(app->session.host) : "");
}

static void test_a_save_that_fails_at_a_past_step_keeps_the_future(void **state)
{
    (void)state;
    rt_write("branch.lua", BRANCH_SCENE);
    static App app;
    start(&app, rt_path("branch.lua"), true);
    run_noting(&app, 417);
    jump(&app, 125);
    /* a syntax error: nothing ran */
    char broken[4096];
    snprintf(broken, sizeof broken, "%sfunction oops(\n", BRANCH_SCENE);
    save_broken_and_wait(&app, broken, "branch.lua:");
    assert_still_rewound(&app, 125, 417);
    /* an error while the chunk runs, after it changed the world: the host is replayed again */
    snprintf(broken, sizeof broken, "%sW:spawn{kind = \"a\"}\nerror(\"half done\")\n", BRANCH_SCENE);
    save_broken_and_wait(&app, broken, "half done");
    assert_still_rewound(&app, 125, 417);
    assert_true(panel_says(&app, "half done")); /* the panel keeps the file's error */
    jump(&app, 417);                            /* the future is the run's, to its last step */
    assert_shows(&app, 417);
    /* the fix loads: now the past changes (and the future is kept) */
    jump(&app, 125);
    char fixed[4096];
    snprintf(fixed, sizeof fixed, "%sboost = true\n", BRANCH_SCENE);
    rt_write_rename("branch.lua", fixed);
    double end = rt_now() + RT_DEADLINE_S;
    while (!scene_global_set(&app, "boost") && rt_now() < end) {
        app_frame(&app, 1.0 / 60.0);
        rt_sleep(0.02);
    }
    assert_true(scene_global_set(&app, "boost"));
    assert_false(rewind_in_past(app.session.rewind));
    assert_int_equal(rewind_last_step(app.session.rewind, &app.session), 125);
    assert_int_equal(rewind_dropped_steps(app.session.rewind, NULL), 292);
    app_shutdown(&app);
}

static void test_ctrl_z_goes_back_to_the_future_a_branch_dropped_and_back_again(void **state)
{
    (void)state;
    rt_write("branch.lua", BRANCH_SCENE);
    static App app;
    static uint64_t before[MAX_STEPS], after[MAX_STEPS];
    start(&app, rt_path("branch.lua"), false);
    run_noting(&app, 479);
    while (rewind_idle(app.session.rewind, &app, 0.01)) { /* (keyframes: some past the branch, some not) */
    }
    memcpy(before, live_sums, sizeof before);
    jump(&app, 125);
    event_key(&app, SDLK_b, 0); /* a real change of the past */
    assert_int_equal(rewind_dropped_steps(app.session.rewind, NULL), 354);
    event_key(&app, SDLK_SPACE, 0);
    run_noting(&app, 100); /* the new future: 225 steps */
    memcpy(after, live_sums, sizeof after);
    assert_true(after[200] != before[200]);
    /* Ctrl+Z: the dropped future is the run's again, shown at the branch, paused */
    event_key(&app, SDLK_z, KMOD_LCTRL);
    assert_true(rewind_in_past(app.session.rewind));
    assert_true(app.paused);
    assert_int_equal(app.session.steps, 125);
    assert_int_equal(world_sum(&app), before[125]);
    assert_int_equal(rewind_last_step(app.session.rewind, &app.session), 479);
    assert_int_equal(steer_world_vehicle_count(script_world(app.session.host)), 6);
    jump(&app, 479);
    assert_int_equal(world_sum(&app), before[479]); /* the very world the run had before the branch */
    jump(&app, 300);
    assert_int_equal(world_sum(&app), before[300]);
    /* the future left is kept in its turn: Ctrl+Z again goes back to it */
    long long at = 0;
    assert_int_equal(rewind_dropped_steps(app.session.rewind, &at), 100);
    assert_int_equal(at, 125);
    event_key(&app, SDLK_z, KMOD_LCTRL);
    assert_int_equal(app.session.steps, 125);
    assert_int_equal(rewind_last_step(app.session.rewind, &app.session), 225);
    jump(&app, 225);
    assert_int_equal(world_sum(&app), after[225]);
    assert_int_equal(steer_world_vehicle_count(script_world(app.session.host)), 7);
    /* going on from there records on after step 225, the other future still kept */
    event_key(&app, SDLK_SPACE, 0);
    app_frame(&app, 1.0 / 60.0);
    assert_int_equal(app.session.steps, 226);
    assert_int_equal(rewind_dropped_steps(app.session.rewind, NULL), 354);
    app_shutdown(&app);
}

static const char *TURNING_SCENE = "local steer = require 'steer'\n"
                                   "world = {width = 400, height = 300, seed = 3}\n"
                                   "keys = { {'left', 'turn the leader left'}, {'right', 'turn it right'} }\n"
                                   "heard = ''\n"
                                   "function load(w) leader = w:spawn{kind = 'leader', x = 200, y = 150} end\n"
                                   "function keypressed(k) heard = heard .. '+' .. k end\n"
                                   "function keyreleased(k) heard = heard .. '-' .. k end\n"
                                   "function update(w, dt)\n"
                                   "  if steer.keyboard.is_down('left') then turning = (turning or 0) + 1 end\n"
                                   "end\n";

static const char *scene_string(App *app, const char *name)
{
    static char copy[256];
    script_push_global(app->session.host, name);
    const char *s = lua_tostring(script_state(app->session.host), -1);
    snprintf(copy, sizeof copy, "%s", s ? s : "(nil)");
    lua_pop(script_state(app->session.host), 1);
    return copy;
}

static void test_a_scene_that_lists_left_and_right_gets_them_and_brackets_step_the_timeline(void **state)
{
    (void)state;
    rt_write("turning.lua", TURNING_SCENE);
    static App app;
    start(&app, rt_path("turning.lua"), false);
    run_noting(&app, 120);
    key_event(&app, SDL_KEYDOWN, SDLK_LEFT, 0); /* the scene's now: nothing pauses */
    run_noting(&app, 30);
    key_event(&app, SDL_KEYUP, SDLK_LEFT, 0);
    run_noting(&app, 30);
    assert_false(app.paused);
    assert_false(rewind_in_past(app.session.rewind));
    assert_string_equal(scene_string(&app, "heard"), "+left-left");
    assert_string_equal(scene_string(&app, "turning"), "30");
    /* [ and ] do what Left and Right did */
    assert_string_equal(app_action_key(&app, KEY_BACK), "[");
    assert_string_equal(app_action_key(&app, KEY_FORWARD), "]");
    event_key(&app, SDLK_LEFTBRACKET, 0);
    app_frame(&app, 1.0 / 60.0);
    assert_true(app.paused);
    assert_shows(&app, 179);
    event_key(&app, SDLK_LEFTBRACKET, KMOD_LSHIFT);
    app_frame(&app, 1.0 / 60.0);
    assert_shows(&app, 119);
    event_key(&app, SDLK_RIGHTBRACKET, 0);
    app_frame(&app, 1.0 / 60.0);
    assert_shows(&app, 120);
    assert_string_equal(scene_string(&app, "heard"), ""); /* step 120: before any key */
    app_shutdown(&app);
}

int main(void)
{
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_recording_in_memory_stops_at_its_cap_between_records_and_stays_readable),
        cmocka_unit_test(test_a_jump_to_any_step_shows_the_world_the_run_had_there),
        cmocka_unit_test(test_left_right_shift_and_the_timeline_show_the_steps_they_name),
        cmocka_unit_test(test_a_rewound_step_shows_what_the_guards_sensed_there),
        cmocka_unit_test_setup_teardown(test_the_inspectors_plots_of_a_rewound_step_are_the_ones_the_run_had, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_the_timeline_shows_the_step_and_where_the_run_branched, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_input_or_a_save_at_a_past_step_goes_on_from_it_and_drops_the_old_future,
                                        rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_modifiers_releases_repeats_focus_and_the_timelines_keys_never_branch,
                                        rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_save_that_fails_at_a_past_step_keeps_the_future, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_ctrl_z_goes_back_to_the_future_a_branch_dropped_and_back_again, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_a_scene_that_lists_left_and_right_gets_them_and_brackets_step_the_timeline,
                                        rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_replays_print_nothing_only_the_run_shown_does, rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_after_any_jump_the_plots_show_their_whole_window_as_the_run_had_it,
                                        rt_setup, rt_teardown),
        cmocka_unit_test_setup_teardown(test_restarts_are_marked_the_count_restarts_with_them_and_marks_stack, rt_setup,
                                        rt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
