/* SPDX-License-Identifier: MIT */
/* test_render_nav.c - the navigation overlay (STEER_OVERLAY_NAVIGATION, F12) and a navigating
 * vehicle's path and replans. A wall from the top down to y = 170 stands between a vehicle at
 * (60, 60) and its goal at (260, 60): its path goes round the wall's end. The map's blocked cells
 * beside the wall show only with the overlay on; the path shows with the overlay or when the
 * vehicle is selected; after a replan (a new goal) the path it replaced shows, fading, for a
 * second, then is gone. Pixels are read where each must be. */
#include <math.h>

#include "render_support.h"

enum { W = 320, H = 240 };

typedef struct Scene {
    RenderFixture f;
    SteerVehicleId walker;
} Scene;

static void go_to(Scene *s, double x, double y)
{
    SteerBehaviourDef d = steer_default_behaviour_def(STEER_NAVIGATE);
    d.navigate.target = steer_target_point(x, y);
    assert_int_equal(steer_vehicle_set_behaviour(s->f.world, s->walker, &d), STEER_OK);
}

static int setup(void **state)
{
    Scene *s = calloc(1, sizeof *s);
    render_fixture_open(&s->f, W, H);
    SteerWorld *w = s->f.world;
    assert_int_equal(steer_world_add_wall(w, steer_vec2(160, 0), steer_vec2(160, 170), NULL), STEER_OK);
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(60, 60);
    def.radius = 6;
    def.max_speed = 40;
    assert_int_equal(steer_vehicle_create(w, &def, &s->walker), STEER_OK);
    go_to(s, 260, 60);
    steer_world_step(w);
    *state = s;
    return 0;
}

/// The middle of the walker's planned path's last leg (from the wall's end to the goal).
static SteerVec2 last_leg_middle(const Scene *s)
{
    SteerVec2 points[16];
    SteerNavState state;
    int n = steer_vehicle_nav_path(s->f.world, s->walker, points, 16, &state, NULL, NULL);
    assert_int_equal(state, STEER_NAV_FOLLOWING);
    assert_true(n >= 3); /* round the wall's end */
    return steer_scale(steer_add(points[n - 2], points[n - 1]), 0.5);
}

/* beside the wall, 7 units to its left: blocked cells for a vehicle of radius 6, on no path */
static const SteerVec2 BESIDE_WALL = {153, 40};

static void test_the_overlay_shows_the_map_and_paths_only_when_on(void **state)
{
    Scene *s = *state;
    SteerVec2 leg = last_leg_middle(s);
    render_fixture_draw(&s->f, 0, (SteerVehicleId)STEER_NULL_ID);
    render_assert_blank(&s->f, (int)BESIDE_WALL.x, (int)BESIDE_WALL.y, "map cells, overlay off");
    render_assert_blank(&s->f, (int)leg.x, (int)leg.y, "path, overlay off");

    render_fixture_draw(&s->f, STEER_OVERLAY_NAVIGATION, (SteerVehicleId)STEER_NULL_ID);
    SDL_Color cell = render_drawn_around(&s->f, (int)BESIDE_WALL.x, (int)BESIDE_WALL.y);
    if (render_is_background(cell) || cell.r <= cell.b)
        fail_msg("map cells: (%d, %d, %d), a red tint expected", cell.r, cell.g, cell.b);
    render_assert_drawn(&s->f, (int)leg.x, (int)leg.y, "path, overlay on");
}

static void test_the_selected_vehicle_shows_its_path_and_with_the_overlay_its_map(void **state)
{
    Scene *s = *state;
    SteerVec2 leg = last_leg_middle(s);
    render_fixture_draw(&s->f, 0, s->walker);
    render_assert_drawn(&s->f, (int)leg.x, (int)leg.y, "selected: path");
    render_assert_blank(&s->f, (int)BESIDE_WALL.x, (int)BESIDE_WALL.y, "selected, overlay off: map cells");
    render_fixture_draw(&s->f, STEER_OVERLAY_NAVIGATION, s->walker);
    render_assert_drawn(&s->f, (int)BESIDE_WALL.x, (int)BESIDE_WALL.y, "selected, overlay on: its map's cells");
}

static void test_a_replan_shows_the_replaced_path_for_a_second(void **state)
{
    Scene *s = *state;
    SteerVec2 old_leg = last_leg_middle(s);
    int replans_before = 0, replans_after = 0;
    steer_vehicle_nav_path(s->f.world, s->walker, NULL, 0, NULL, NULL, &replans_before);
    go_to(s, 260, 215); /* a new goal, below: the path round the wall's end no longer climbs to (260, 60) */
    steer_world_step(s->f.world);
    steer_vehicle_nav_path(s->f.world, s->walker, NULL, 0, NULL, NULL, &replans_after);
    assert_int_equal(replans_after, replans_before + 1);
    render_fixture_draw(&s->f, 0, s->walker);
    SDL_Color ghost = render_drawn_around(&s->f, (int)old_leg.x, (int)old_leg.y);
    if (render_is_background(ghost) || ghost.r <= ghost.b)
        fail_msg("replaced path: (%d, %d, %d), an orange expected", ghost.r, ghost.g, ghost.b);
    for (int i = 0; i < 70; i++) steer_world_step(s->f.world); /* past a second */
    render_fixture_draw(&s->f, 0, s->walker);
    render_assert_blank(&s->f, (int)old_leg.x, (int)old_leg.y, "replaced path, a second later");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_the_overlay_shows_the_map_and_paths_only_when_on, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_the_selected_vehicle_shows_its_path_and_with_the_overlay_its_map, setup,
                                        render_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_a_replan_shows_the_replaced_path_for_a_second, setup,
                                        render_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
