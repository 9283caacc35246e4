/* test_runtime_rewind.c - rewinding a run (docs/runtime.md, Rewind). A run records itself in
 * memory (headless here with opt.rewind, as a window always does), its world checksum is kept after
 * every step, then the app is sent back and forth to steps in a random order: the world shown must
 * have the very checksum the run had at that step. Then the keys (Left, Right, with Shift) and the
 * timeline (a press and a drag on its bar), and changing the past: a key for the scene and a saved
 * reload at a past step drop the old future, and replaying the branched recording gives the new
 * run's worlds, not the old ones. Input goes through app_handle_event, the window's own path. */
#include "runtime_support.h"

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

static uint64_t world_sum(App *app) { return steer_world_checksum(script_world(app->script)); }

/* `n` frames of 1/60 s, noting the checksum after each. */
static void run_noting(App *app, int n)
{
    for (int i = 0; i < n; i++) {
        app_frame(app, 1.0 / 60.0);
        assert_true(app->steps < MAX_STEPS);
        live_sums[app->steps] = world_sum(app);
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
    opt.has_seed = true;
    opt.seed = 9;
    opt.time_budget_ms = 20000;
    opt.script = scene;
    assert_int_equal(app_init(app, &opt, NULL), 0);
    assert_non_null(app->rewind);
    memset(live_sums, 0, sizeof live_sums);
    live_sums[0] = world_sum(app);
}

static void assert_shows(App *app, long long step)
{
    assert_int_equal(app->steps, step);
    assert_true(live_sums[step] != 0);
    if (world_sum(app) != live_sums[step])
        fail_msg("step %lld: the rewound world's checksum %016llx is not the run's %016llx", step,
                 (unsigned long long)world_sum(app), (unsigned long long)live_sums[step]);
}

static void jump(App *app, long long step)
{
    char error[2048] = "";
    if (!rewind_jump(app->rewind, app, step, error, sizeof error)) fail_msg("jump to %lld: %s", step, error);
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
    long long last = app.steps;
    if (last < 900) fail_msg("only %lld steps", last);
    assert_false(rewind_in_past(app.rewind));
    srand(7);
    for (int i = 0; i < 8; i++) {
        long long k = rand() % (last + 1);
        jump(&app, k);
        assert_true(rewind_in_past(app.rewind));
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
    while (rewind_idle(app.rewind, &app, 0.01)) {
    }
    assert_true(rewind_keyframes(app.rewind) > 0);
    for (int i = 0; i < 8; i++) {
        long long k = rand() % (last + 1);
        jump(&app, k);
        assert_shows(&app, k);
        rewind_idle(app.rewind, &app, 0.01);
    }
    assert_int_equal(rewind_last_step(app.rewind, &app), last); /* looking changed nothing recorded */
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
    assert_int_equal(rewind_last_step(app.rewind, &app), 300);
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
    script_push_global(app->script, name);
    bool set = !lua_isnil(script_state(app->script), -1);
    lua_pop(script_state(app->script), 1);
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
    while (rewind_idle(app.rewind, &app, 0.01)) { /* keyframes at 750, then 375 and 1125 */
    }
    assert_int_equal(rewind_keyframes(app.rewind), 3);
    jump(&app, 1000);
    assert_shows(&app, 1000);
    /* a key the scene hears, at step 1000: the run goes on from there with it */
    event_key(&app, SDLK_b, 0);
    assert_false(rewind_in_past(app.rewind));
    assert_int_equal(rewind_last_step(app.rewind, &app), 1000); /* steps 1001..1500 dropped */
    assert_int_equal(rewind_keyframes(app.rewind), 1); /* 375 kept; 750 was used; 1125 replayed the old future */
    event_key(&app, SDLK_SPACE, 0);
    run_noting(&app, 300);
    assert_int_equal(app.steps, 1300);
    assert_int_equal(steer_world_vehicle_count(script_world(app.script)), 7);
    assert_true(live_sums[1200] != old_1200);
    /* the branched recording replays the new past (with the key at step 1000), from the start and
     * from the keyframe kept at 375, whose copy of the recording ended at the branch */
    jump(&app, 1200);
    assert_shows(&app, 1200);
    assert_int_equal(steer_world_vehicle_count(script_world(app.script)), 7);
    assert_int_equal(rewind_keyframes(app.rewind), 0);
    jump(&app, 500);
    assert_shows(&app, 500);
    assert_int_equal(steer_world_vehicle_count(script_world(app.script)), 6);
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
    assert_false(rewind_in_past(app.rewind));
    assert_int_equal(app.steps, 1250);
    assert_int_equal(rewind_last_step(app.rewind, &app), 1250);
    uint64_t before_reload_1300 = live_sums[1300];
    event_key(&app, SDLK_SPACE, 0);
    run_noting(&app, 100);
    assert_int_equal(app.steps, 1350);
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
    opt.has_seed = true;
    opt.seed = 4;
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

static void test_the_recording_in_memory_stops_at_its_cap_between_records_and_stays_readable(void **state)
{
    (void)state;
    TapeHeader h;
    memset(&h, 0, sizeof h);
    snprintf(h.program, sizeof h.program, "test");
    snprintf(h.lua, sizeof h.lua, "Lua");
    snprintf(h.scene, sizeof h.scene, "/nowhere/scene.lua");
    h.time_budget_ms = 100;
    h.memory_cap = 1 << 20;
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

int main(void)
{
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_recording_in_memory_stops_at_its_cap_between_records_and_stays_readable),
        cmocka_unit_test(test_a_jump_to_any_step_shows_the_world_the_run_had_there),
        cmocka_unit_test(test_left_right_shift_and_the_timeline_show_the_steps_they_name),
        cmocka_unit_test_setup_teardown(test_the_inspectors_plots_of_a_rewound_step_are_the_ones_the_run_had, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_the_timeline_shows_the_step_and_where_the_run_branched, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(test_input_or_a_save_at_a_past_step_goes_on_from_it_and_drops_the_old_future,
                                        rt_setup, rt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
