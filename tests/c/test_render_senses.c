/* SPDX-License-Identifier: MIT */
/* test_render_senses.c - the senses overlay (STEER_OVERLAY_SENSES, F11) and the inspector's lines
 * about senses. A guard at (60, 120) looks east with a 90-degree cone of 200 units; an intruder
 * straight ahead is in plain sight (its ray is clear), one behind a wall is in the cone but hidden
 * (its ray is blocked), one that was seen and has gone leaves a ghost where it was last seen, and
 * a sound shows as a ring. Pixels are read where each must be, with the overlay on and off. */
#include <math.h>

#include "render_support.h"

enum { W = 320, H = 240 };

typedef struct Scene {
    RenderFixture f;
    SteerVehicleId guard, seen, hidden, gone;
} Scene;

static SteerVehicleId vehicle(Scene *s, double x, double y, uint32_t kind)
{
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(x, y);
    def.radius = 10;
    def.kind = kind;
    SteerVehicleId id;
    assert_int_equal(steer_vehicle_create(s->f.world, &def, &id), STEER_OK);
    return id;
}

static int setup(void **state)
{
    Scene *s = calloc(1, sizeof *s);
    render_fixture_open(&s->f, W, H);
    SteerWorld *w = s->f.world;
    s->guard = vehicle(s, 60, 120, 0);
    s->seen = vehicle(s, 200, 120, 1);
    s->hidden = vehicle(s, 200, 160, 1);
    s->gone = vehicle(s, 180, 90, 1);
    /* the wall between the guard and `hidden`: the segment guard-hidden crosses x = 130 at y = 140 */
    assert_int_equal(steer_world_add_wall(w, steer_vec2(130, 130), steer_vec2(130, 200), NULL), STEER_OK);
    SteerSenseDef eyes = steer_default_sense_def(STEER_SENSE_SIGHT);
    eyes.name = "eyes";
    eyes.range = 200;
    eyes.fov = 0.5 * STEER_PI;
    eyes.kinds = 1u << 1;
    eyes.forget_after = 10;
    assert_int_equal(steer_vehicle_add_sense(w, s->guard, &eyes, NULL), STEER_OK);
    SteerSenseDef ears = steer_default_sense_def(STEER_SENSE_HEARING);
    ears.name = "ears";
    assert_int_equal(steer_vehicle_add_sense(w, s->guard, &ears, NULL), STEER_OK);
    steer_world_step(w); /* it sees `seen` and `gone` */
    /* `gone` leaves the cone and the range: remembered where it was, at (180, 90) */
    assert_int_equal(steer_vehicle_set_position(w, s->gone, steer_vec2(300, 230)), STEER_OK);
    SteerSoundDef sound = steer_default_sound_def();
    sound.position = steer_vec2(250, 200);
    sound.radius = 30;
    assert_int_equal(steer_world_emit(w, &sound), STEER_OK);
    steer_world_step(w);
    *state = s;
    return 0;
}

/* Where each piece must show (world units are pixels: zoom 1, centred). */
#define CONE_EDGE_X 131 /* 100 units along the cone's upper edge, at -45 degrees */
#define CONE_EDGE_Y 49
#define ARC_X 260 /* the cone's arc straight ahead, at its range */
#define ARC_Y 120
#define CLEAR_X 130 /* on the ray to `seen`, half way */
#define CLEAR_Y 120
#define BLOCKED_X 95 /* on the ray to `hidden`, before the wall: y = 120 + 40 * 35 / 140 */
#define BLOCKED_Y 130
#define GHOST_X 184 /* on the ghost dart's side past (180, 90), where no line to the memory reaches */
#define GHOST_Y 94
#define SOUND_X 280 /* on the ring of the sound at (250, 200), radius 30 */
#define SOUND_Y 200

static void test_the_senses_overlay_draws_cone_rays_ghost_and_sound_only_when_on(void **state)
{
    Scene *s = *state;
    render_fixture_draw(&s->f, 0, (SteerVehicleId)STEER_NULL_ID);
    render_assert_blank(&s->f, CONE_EDGE_X, CONE_EDGE_Y, "cone edge, overlay off");
    render_assert_blank(&s->f, ARC_X, ARC_Y, "cone arc, overlay off");
    render_assert_blank(&s->f, CLEAR_X, CLEAR_Y, "clear ray, overlay off");
    render_assert_blank(&s->f, BLOCKED_X, BLOCKED_Y, "blocked ray, overlay off");
    render_assert_blank(&s->f, GHOST_X, GHOST_Y, "ghost, overlay off");
    render_assert_blank(&s->f, SOUND_X, SOUND_Y, "sound, overlay off");

    render_fixture_draw(&s->f, STEER_OVERLAY_SENSES, (SteerVehicleId)STEER_NULL_ID);
    render_assert_drawn(&s->f, CONE_EDGE_X, CONE_EDGE_Y, "cone edge");
    render_assert_drawn(&s->f, ARC_X, ARC_Y, "cone arc");
    render_assert_drawn(&s->f, GHOST_X, GHOST_Y, "ghost of the vehicle gone");
    render_assert_drawn(&s->f, SOUND_X, SOUND_Y, "sound ring");
    /* the ray to what it sees is the sensed line's yellow over the clear ray's green; the ray to
     * what the wall hides is red */
    SDL_Color clear = render_drawn_around(&s->f, CLEAR_X, CLEAR_Y),
              blocked = render_drawn_around(&s->f, BLOCKED_X, BLOCKED_Y);
    if (render_is_background(clear) || clear.g < 0.8 * clear.r)
        fail_msg("clear ray: (%d, %d, %d), a yellow-green expected", clear.r, clear.g, clear.b);
    if (render_is_background(blocked) || blocked.r < 1.5 * blocked.g)
        fail_msg("blocked ray: (%d, %d, %d), a red expected", blocked.r, blocked.g, blocked.b);
    /* nothing of the overlay beyond the wall along the blocked ray's far side of the cone */
    render_assert_blank(&s->f, 60, 200, "below the guard, out of the cone");
}

static void test_the_selected_vehicle_shows_its_senses_with_the_overlay_off(void **state)
{
    Scene *s = *state;
    render_fixture_draw(&s->f, 0, s->guard);
    render_assert_drawn(&s->f, CONE_EDGE_X, CONE_EDGE_Y, "selected: cone edge");
    render_assert_drawn(&s->f, BLOCKED_X, BLOCKED_Y, "selected: blocked ray");
    render_assert_drawn(&s->f, GHOST_X, GHOST_Y, "selected: ghost");
    render_fixture_draw(&s->f, 0, s->seen); /* a vehicle without senses: nothing of the guard's */
    render_assert_blank(&s->f, CONE_EDGE_X, CONE_EDGE_Y, "another selected: cone edge");
    render_assert_blank(&s->f, GHOST_X, GHOST_Y, "another selected: ghost");
}

static void test_the_inspector_lists_senses_and_memories(void **state)
{
    Scene *s = *state;
    enum { WIDTH = 96, MAX = 16 };
    char text[MAX][WIDTH];
    int n = render_sense_lines(s->f.render, s->f.world, s->guard, &text[0][0], WIDTH, MAX);
    /* sight: its line, its memory's summary, `seen` (#2) now and `gone` (#4) a step ago; hearing */
    assert_int_equal(n, 6);
    assert_non_null(strstr(text[0], "sight"));
    assert_non_null(strstr(text[0], "eyes"));
    assert_non_null(strstr(text[0], "r 200"));
    assert_non_null(strstr(text[0], "fov 90 deg"));
    assert_non_null(strstr(text[1], "1 now, 2/16 kept"));
    assert_non_null(strstr(text[2], "#2"));
    assert_non_null(strstr(text[2], "now"));
    assert_non_null(strstr(text[2], "d 140.0"));
    assert_non_null(strstr(text[3], "#4"));
    assert_non_null(strstr(text[3], "s ago"));
    assert_non_null(strstr(text[3], "(180.0, 90.0)"));
    assert_non_null(strstr(text[4], "hearing"));
    assert_non_null(strstr(text[4], "ears"));
    assert_non_null(strstr(text[4], "r any"));
    assert_int_equal(render_sense_lines(s->f.render, s->f.world, s->seen, &text[0][0], WIDTH, MAX), 0);
    /* the inspector itself grows by those lines */
    steer_render_inspector(s->f.render, s->f.world, s->seen, NULL, NULL, 0);
    float plain = s->f.render->inspector_h;
    steer_render_inspector(s->f.render, s->f.world, s->guard, NULL, NULL, 0);
    assert_true(s->f.render->inspector_h >= plain + 6 * (float)steer_render_line_height(s->f.render) - 0.5f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_the_senses_overlay_draws_cone_rays_ghost_and_sound_only_when_on, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_the_selected_vehicle_shows_its_senses_with_the_overlay_off, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_the_inspector_lists_senses_and_memories, setup, render_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
