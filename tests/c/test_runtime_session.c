/* SPDX-License-Identifier: MIT */
/* test_runtime_session.c - a session (session.h) driven through its one door, session_input, and
 * nothing else: no window, no SDL event, no App for the live run and its replay. A session records
 * every input the door lets through and replays to the very worlds; the door drops what is not the
 * scene's (a release of a key never pressed, the user's input during a replay); and while a past
 * step is shown (the rewind, which needs the shell for its view: an App whose inputs still go in
 * through the door), a modifier key, a repeat, a release, the pointer or the click that focused the
 * window change nothing, and a key for the scene goes on live from that step. */
#define _DEFAULT_SOURCE /* realpath */
#include "runtime_support.h"

#include <lua.h>

#include "app.h"
#include "record.h"
#include "replay.h"
#include "rewind.h"
#include "session.h"

#define STEPS 240

/* Each input moves the world in its own way, so that a replay that lost or doubled one differs. */
static const char *SCENE = "local steer = require \"steer\"\n"
                           "world = {width = 400, height = 300, edges = \"wrap\", seed = 3}\n"
                           "function load(w)\n"
                           "  W = w\n"
                           "  for i = 1, 6 do\n"
                           "    w:spawn{kind = \"a\", x = w:random(400), y = w:random(300), max_speed = 60}:wander{}\n"
                           "  end\n"
                           "  heard = {}\n"
                           "end\n"
                           "local function note(what) heard[#heard + 1] = what end\n"
                           "function keypressed(k)\n"
                           "  note(\"press \" .. k)\n"
                           "  if k == \"b\" then W:spawn{kind = \"b\", x = 10, y = 10, max_speed = 50}:wander{} end\n"
                           "end\n"
                           "function keyreleased(k) note(\"release \" .. k) end\n"
                           "function mousepressed(x, y, b)\n"
                           "  note(\"mousepressed \" .. b)\n"
                           "  W:spawn{kind = \"b\", x = x, y = y, max_speed = 40}:wander{}\n"
                           "end\n"
                           "function mousereleased(x, y, b) note(\"mousereleased \" .. b) end\n"
                           "function mousemoved(x, y) note(\"moved\") end\n"
                           "function update(w, dt)\n"
                           "  local mx, my = steer.mouse()\n"
                           "  if mx then for _, v in ipairs(w:vehicles()) do v.max_speed = 40 + (mx % 50) end end\n"
                           "end\n";

/* What the scene heard of the inputs before the restart: each once, in order. */
#define BEFORE_RESTART "press b, release b, moved, mousepressed 1, mousereleased 1"

static uint64_t sum_of(const Session *s) { return steer_world_checksum(script_world(s->host)); }

/* What the scene heard, joined with ", " (from its global `heard`). */
static const char *heard(Session *s)
{
    static char out[2048];
    lua_State *L = script_state(s->host);
    script_push_global(s->host, "heard");
    out[0] = '\0';
    size_t used = 0;
    for (lua_Integer i = 1; lua_istable(L, -1) && lua_geti(L, -1, i) == LUA_TSTRING; i++) {
        used += (size_t)snprintf(out + used, sizeof out - used, "%s%s", i > 1 ? ", " : "", lua_tostring(L, -1));
        lua_pop(L, 1);
        if (used >= sizeof out) break;
    }
    lua_pop(L, 2);
    return out;
}

static bool input(Session *s, SessionInput in) { return session_input(s, &in); }

static void setup_session(Session *s, const char *scene)
{
    memset(s, 0, sizeof *s);
    s->run = run_settings_default();
    s->run.has_seed = true;
    s->run.seed = 5;
    s->run.has_math_seed = false;
    s->run.time_budget_ms = 20000;
    s->run.keep_failed = 0;
    s->scene = scene;
    s->arg0 = scene;
}

static void test_a_session_driven_through_its_door_replays_to_the_same_worlds(void **state)
{
    (void)state;
    rt_write("scene.lua", SCENE);
    char scene[4096];
    assert_non_null(realpath(rt_path("scene.lua"), scene));
    const char *file = rt_path("run.rpl");
    /* the live run: recorded, every input through the door */
    static Session live;
    setup_session(&live, scene);
    TapeHeader h = {.run = live.run, .width = 400, .height = 300, .check_interval = TAPE_CHECK_INTERVAL};
    snprintf(h.program, sizeof h.program, "%s", STEER_VERSION);
    snprintf(h.lua, sizeof h.lua, "%s", LUA_RELEASE);
    snprintf(h.scene, sizeof h.scene, "%s", scene);
    char error[8192];
    live.recorder = record_open(file, &h, error, sizeof error);
    assert_non_null(live.recorder);
    record_args(live.recorder, scene, NULL, 0);
    live.tape = record_tape(live.recorder);
    assert_non_null(session_start(&live, error, sizeof error));
    record_check(live.recorder, script_world(live.host), 0);
    uint64_t sums[STEPS + 1] = {0};
    for (int i = 0; i < STEPS; i++) {
        switch (i) {
        case 10: assert_true(input(&live, (SessionInput){.kind = SESSION_KEY_PRESS, .name = "b"})); break;
        case 11: assert_true(input(&live, (SessionInput){.kind = SESSION_KEY_RELEASE, .name = "b"})); break;
        case 20: /* a release of a key the scene never heard pressed is not the scene's */
            assert_false(input(&live, (SessionInput){.kind = SESSION_KEY_RELEASE, .name = "q"}));
            assert_false(input(&live, (SessionInput){.kind = SESSION_RELEASE, .x = 5, .y = 5, .button = 1}));
            break;
        case 30: assert_true(input(&live, (SessionInput){.kind = SESSION_MOTION, .x = 123.25, .y = 45.5})); break;
        case 40:
            assert_true(input(&live, (SessionInput){.kind = SESSION_POINTER, .x = 200, .y = 150}));
            assert_true(input(&live, (SessionInput){.kind = SESSION_PRESS, .x = 200, .y = 150, .button = 1}));
            break;
        case 45:
            assert_true(input(&live, (SessionInput){.kind = SESSION_RELEASE, .x = 210, .y = 155, .button = 1}));
            break;
        case 50: /* a repeat, when the scene did not ask for repeats: not the scene's */
            assert_false(input(&live, (SessionInput){.kind = SESSION_KEY_PRESS, .name = "b", .repeat = true}));
            break;
        case 90:
            assert_true(input(&live, (SessionInput){.kind = SESSION_VIEW, .view = TAPE_VIEW_PAUSE, .a = 1}));
            break;
        case 120:
            assert_string_equal(heard(&live), BEFORE_RESTART);
            assert_true(input(&live, (SessionInput){.kind = SESSION_RESTART}));
            break;
        case 130: assert_true(input(&live, (SessionInput){.kind = SESSION_KEY_PRESS, .name = "lshift"})); break;
        default: break;
        }
        session_step(&live);
        session_note_draw(&live);
        sums[live.steps] = sum_of(&live);
    }
    assert_string_equal(heard(&live), "press lshift"); /* (after the restart: a fresh scene) */
    record_check(live.recorder, script_world(live.host), live.steps);
    assert_true(record_close(live.recorder, live.steps, error, sizeof error));
    live.recorder = NULL;
    session_stop(&live);

    /* its replay: a session of its own, the recording's inputs delivered through the same door */
    Player *p = replay_open(file, error, sizeof error);
    if (!p) fail_msg("%s", error);
    static Session again;
    setup_session(&again, scene);
    again.run = replay_header(p)->run;
    again.tape = replay_tape(p);
    again.replaying = true;
    again.quiet = true;
    assert_non_null(session_start(&again, error, sizeof error));
    /* the user's input goes nowhere during a replay */
    assert_false(input(&again, (SessionInput){.kind = SESSION_KEY_PRESS, .name = "b"}));
    assert_false(input(&again, (SessionInput){.kind = SESSION_PRESS, .x = 1, .y = 1, .button = 1}));
    for (long long k = 60; k <= STEPS; k += 60) {
        if (!replay_play_to(&again, p, k)) fail_msg("to %lld: %s", k, replay_divergence(p));
        assert_true(sum_of(&again) == sums[k]);
        if (k == 120) assert_string_equal(heard(&again), BEFORE_RESTART); /* (its restart comes next) */
    }
    assert_string_equal(heard(&again), "press lshift");
    session_stop(&again);
    replay_close(p);
}

/* ---- At a past step ------------------------------------------------------------------------------ */

static uint64_t live_sums[1024];

static void start_rewinding(App *app, const char *scene)
{
    AppOptions opt = options_default();
    opt.headless = true;
    opt.rewind = true;
    opt.steps = 1000;
    opt.width = 400;
    opt.height = 300;
    opt.run.has_seed = true;
    opt.run.seed = 9;
    opt.run.time_budget_ms = 20000;
    opt.script = scene;
    assert_int_equal(app_init(app, &opt, NULL), 0);
    assert_non_null(app->session.rewind);
    live_sums[0] = sum_of(&app->session);
}

static void run_noting(App *app, int frames)
{
    for (int i = 0; i < frames; i++) {
        app_frame(app, 1.0 / 60.0);
        live_sums[app->session.steps] = sum_of(&app->session);
    }
}

static void show(App *app, long long step)
{
    char error[2048] = "";
    if (!rewind_jump(app->session.rewind, app, step, error, sizeof error)) fail_msg("jump to %lld: %s", step, error);
    assert_true(session_in_past(&app->session));
    assert_int_equal(app->session.steps, step);
    assert_true(sum_of(&app->session) == live_sums[step]);
}

static void test_what_only_looks_at_a_past_step_does_not_branch_and_a_key_for_the_scene_does(void **state)
{
    (void)state;
    rt_write("scene.lua", SCENE);
    static App app;
    start_rewinding(&app, rt_path("scene.lua"));
    Session *s = &app.session;
    run_noting(&app, 300);
    show(&app, 120);
    /* a modifier key (Shift for Shift+Left, Ctrl, Alt for Alt+Tab): the door says it is no change of the past */
    const char *modifiers[] = {"lshift", "rshift", "lctrl", "rctrl", "lalt", "ralt"};
    for (size_t i = 0; i < sizeof modifiers / sizeof modifiers[0]; i++) {
        assert_false(input(s, (SessionInput){.kind = SESSION_KEY_PRESS, .name = modifiers[i]}));
        assert_true(session_in_past(s));
    }
    /* nor a repeat, a release, the pointer, a resize, the click that focused the window */
    assert_false(input(s, (SessionInput){.kind = SESSION_KEY_PRESS, .name = "b", .repeat = true}));
    assert_false(input(s, (SessionInput){.kind = SESSION_KEY_RELEASE, .name = "b"}));
    assert_false(input(s, (SessionInput){.kind = SESSION_POINTER, .x = 10, .y = 10}));
    assert_false(input(s, (SessionInput){.kind = SESSION_MOTION, .x = 10, .y = 10}));
    assert_false(input(s, (SessionInput){.kind = SESSION_RELEASE, .x = 10, .y = 10, .button = 1}));
    assert_false(input(s, (SessionInput){.kind = SESSION_VIEW, .view = TAPE_VIEW_RESIZE, .a = 500, .b = 400}));
    assert_false(input(s, (SessionInput){.kind = SESSION_PRESS, .x = 10, .y = 10, .button = 1, .focus_click = true}));
    assert_true(session_in_past(s));
    assert_int_equal(rewind_last_step(s->rewind, s), 300); /* nothing dropped */
    assert_int_equal(s->steps, 120);
    assert_true(sum_of(s) == live_sums[120]);
    /* still the past: another step shows the run's world there */
    show(&app, 200);
    /* a key the scene hears: the run goes on live from the step shown, the old future dropped */
    assert_true(input(s, (SessionInput){.kind = SESSION_KEY_PRESS, .name = "b"}));
    assert_false(session_in_past(s));
    assert_int_equal(rewind_last_step(s->rewind, s), 200);
    long long dropped_branch = 0;
    assert_int_equal(rewind_dropped_steps(s->rewind, &dropped_branch), 100);
    assert_int_equal(dropped_branch, 200);
    /* the branch replays to the worlds it went on to */
    app.paused = false;
    run_noting(&app, 100);
    assert_int_equal(s->steps, 300);
    show(&app, 250);
    show(&app, 300);
    show(&app, 150); /* (before the branch: the run's own) */
    app_shutdown(&app);
}

/* The names the window gives the modifier keys are the ones the door knows (one list). */
static void test_the_door_knows_every_modifier_key_by_the_name_the_window_gives_it(void **state)
{
    (void)state;
    const SDL_Keycode keys[] = {SDLK_LSHIFT, SDLK_RSHIFT, SDLK_LCTRL, SDLK_RCTRL,    SDLK_LALT,
                                SDLK_RALT,   SDLK_LGUI,   SDLK_RGUI,  SDLK_CAPSLOCK, SDLK_NUMLOCKCLEAR};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *name = app_key_name(keys[i]);
        assert_non_null(name);
        if (!session_is_modifier(name)) fail_msg("%s is a modifier key the door does not know", name);
    }
    assert_false(session_is_modifier("b"));
    assert_false(session_is_modifier("space"));
    assert_false(session_is_modifier("left"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_a_session_driven_through_its_door_replays_to_the_same_worlds, rt_setup,
                                        rt_teardown),
        cmocka_unit_test_setup_teardown(
            test_what_only_looks_at_a_past_step_does_not_branch_and_a_key_for_the_scene_does, rt_setup, rt_teardown),
        cmocka_unit_test(test_the_door_knows_every_modifier_key_by_the_name_the_window_gives_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
