/* SPDX-License-Identifier: MIT */
/* test_behaviours_group.c - separation, alignment, cohesion, flocking, leader following, queueing
 * and unaligned collision avoidance: the neighbourhood sums against a brute-force scan, and the
 * behaviours by what they do to trajectories. */
#include "test_support.h"

#include <stdlib.h>

#include "behaviours_internal.h"

static uint64_t test_state = 0x2545f4914f6cdd1dULL;
static double urand(void)
{
    test_state = test_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(test_state >> 11) * (1.0 / 9007199254740992.0);
}

static SteerVehicleId spawn(SteerWorld *world, SteerVehicleDef def)
{
    SteerVehicleId id;
    if (steer_vehicle_create(world, &def, &id) != STEER_OK) fail_msg("create: %s", steer_world_last_error(world));
    return id;
}

static void behave(SteerWorld *world, SteerVehicleId id, SteerBehaviour type)
{
    SteerBehaviourDef def = steer_default_behaviour_def(type);
    turn_on(world, id, &def);
}

static double polarisation(const SteerWorld *world, const SteerVehicleId *ids, int n)
{
    SteerVec2 sum = {0.0, 0.0};
    for (int i = 0; i < n; i++) sum = steer_add(sum, steer_vehicle_heading(world, ids[i]));
    return steer_length(sum) / n;
}

static double min_pair_distance(const SteerWorld *world, const SteerVehicleId *ids, int n)
{
    double best = INFINITY;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++) {
            double d = steer_length(steer_world_offset(world, steer_vehicle_position(world, ids[i]),
                                                       steer_vehicle_position(world, ids[j])));
            if (d < best) best = d;
        }
    return best;
}

/* ---- The neighbourhood kernel against brute force ------------------------------------------ */

/// The documented sums, from the public neighbour query: Σ r/|r|² (r from neighbour to vehicle),
/// Σ headings, Σ offsets; neighbours on the very same point push along ±side by creation order.
static void brute_neighbourhood(SteerWorld *world, SteerVehicleId id, SteerNeighbourhood *out)
{
    static SteerVehicleId found[1024];
    memset(out, 0, sizeof *out);
    SteerVehicleState me;
    steer_vehicle_get(world, id, &me);
    int n = steer_world_query_neighbors(world, id, -1.0, found, 1024);
    for (int i = 0; i < n; i++) {
        SteerVehicleState other;
        steer_vehicle_get(world, found[i], &other);
        SteerVec2 offset = steer_world_offset(world, me.position, other.position);
        double d2 = steer_length_sq(offset);
        if (d2 <= 1e-12) {
            double sign = other.serial > me.serial ? 1.0 : -1.0;
            out->separation = steer_add(out->separation, steer_scale(me.side, sign));
        } else {
            out->separation = steer_sub(out->separation, steer_scale(offset, 1.0 / d2));
            out->offset_sum = steer_add(out->offset_sum, offset);
        }
        out->heading_sum = steer_add(out->heading_sum, other.heading);
        out->count++;
    }
}

/* The fast path sums in single precision (positions good to about 1e-4 units in these worlds):
 * sums agree to 1e-3 of their scale, and a neighbour within 0.01 units of the radius may fall
 * either way. */
static void assert_vec_near(SteerVec2 got, SteerVec2 want, double scale, const char *what)
{
    double tolerance = 1e-3 * (1.0 + scale);
    if (!(steer_distance(got, want) <= tolerance))
        fail_msg("%s: (%.12g, %.12g), brute force (%.12g, %.12g)", what, got.x, got.y, want.x, want.y);
}

static void check_neighbourhoods(SteerEdges edges, bool shared_parameters)
{
    for (int trial = 0; trial < 12; trial++) {
        SteerWorldDef wd = steer_default_world_def();
        wd.width = 100.0 + urand() * 600.0;
        wd.height = 100.0 + urand() * 600.0;
        wd.edges = edges;
        SteerWorld *world = steer_world_create(&wd);
        static SteerVehicleId ids[400];
        int n = 50 + (int)(urand() * 300);
        for (int i = 0; i < n; i++) {
            SteerVehicleDef def = steer_default_vehicle_def();
            def.position =
                steer_vec2(urand() * wd.width * 1.2 - 0.1 * wd.width, urand() * wd.height * 1.2 - 0.1 * wd.height);
            if (i > 0 && urand() < 0.05)
                def.position = steer_vehicle_position(world, ids[(int)(urand() * i)]); /* stacked */
            def.velocity = steer_vec2(urand() * 100.0 - 50.0, urand() * 100.0 - 50.0);
            def.neighbor_radius = shared_parameters ? 40.0 : urand() * 150.0;
            if (!shared_parameters) {
                def.kind = (uint32_t)(urand() * 3);
                def.flock_kinds = urand() < 0.5 ? 0 : (uint64_t)(urand() * 8);
                def.view_angle = urand() < 0.5 ? 2.0 * STEER_PI : 0.2 + urand() * 6.0;
            }
            ids[i] = spawn(world, def);
            behave(world, ids[i], STEER_FLOCK);
        }
        /* Both routes: summed on demand, and the cell-order pre-pass a step uses. */
        for (int pass = 0; pass < 2; pass++) {
            if (pass == 1) steer_prepare_neighbourhoods(world);
            for (int i = 0; i < n; i++) {
                const SteerVehicle *vehicle = steer_vehicle_lookup(world, ids[i]);
                SteerNeighbourhood got, want;
                steer_neighbourhood(world, vehicle, -1, 0.0, 1.0, &got);
                brute_neighbourhood(world, ids[i], &want);
                double radius = vehicle->neighbor_radius;
                int inner = steer_world_query_neighbors(world, ids[i], radius > 0.01 ? radius - 0.01 : 0.0, NULL, 0);
                int outer = steer_world_query_neighbors(world, ids[i], radius + 0.01, NULL, 0);
                if (got.count < inner || got.count > outer)
                    fail_msg("vehicle %d: %d neighbours, brute force %d (%d..%d near the edge)", i, got.count,
                             want.count, inner, outer);
                if (inner != outer) continue; /* someone on the edge: the sums may differ by that one */
                assert_int_equal(got.count, want.count);
                double scale = 0.0;
                for (int k = 0; k < want.count; k++) scale += 1.0; /* headings are unit vectors */
                assert_vec_near(got.heading_sum, want.heading_sum, scale, "heading_sum");
                assert_vec_near(got.offset_sum, want.offset_sum, scale * radius * 1e-3, "offset_sum");
                assert_vec_near(got.separation, want.separation, steer_length(want.separation) + scale, "separation");
            }
        }
        world->hoods_ready = false;
        steer_world_destroy(world);
    }
}

static void test_neighbourhood_matches_brute_force_shared_parameters_wrapping(void **state)
{
    (void)state;
    check_neighbourhoods(STEER_EDGES_WRAP, true);
}

static void test_neighbourhood_matches_brute_force_shared_parameters_unbounded(void **state)
{
    (void)state;
    check_neighbourhoods(STEER_EDGES_NONE, true);
}

static void test_neighbourhood_matches_brute_force_mixed_kinds_cones_radii(void **state)
{
    (void)state;
    check_neighbourhoods(STEER_EDGES_WRAP, false);
    check_neighbourhoods(STEER_EDGES_CONTAIN, false);
}

/* ---- Flocking ------------------------------------------------------------------------------ */

/* 300 vehicles, random headings, a wrapping 500 x 500 square, neighbour radius 50 (about nine
 * neighbours each), default flock weights: polarisation above 0.9 within 10 s of simulated time,
 * and no two closer than 1.5 radii (12 units) once formed. */
static void test_flock_polarises_from_random_headings(void **state)
{
    (void)state;
    SteerWorldDef wd = steer_default_world_def();
    wd.width = wd.height = 500.0;
    wd.edges = STEER_EDGES_WRAP;
    wd.seed = 7;
    SteerWorld *world = steer_world_create(&wd);
    enum { N = 300 };
    SteerVehicleId ids[N];
    for (int i = 0; i < N; i++) {
        SteerVehicleDef def = steer_default_vehicle_def();
        def.position = steer_vec2(urand() * 500.0, urand() * 500.0);
        def.velocity = steer_scale(steer_vec2_from_angle(urand() * 2.0 * STEER_PI), 50.0);
        ids[i] = spawn(world, def);
        behave(world, ids[i], STEER_FLOCK);
    }
    assert_true(polarisation(world, ids, N) < 0.2);
    run_steps(world, 600);
    double p = polarisation(world, ids, N);
    if (!(p > 0.9)) fail_msg("polarisation after 10 s: %.3f", p);
    double closest = INFINITY;
    for (int s = 0; s < 5; s++) {
        run_steps(world, 60);
        double d = min_pair_distance(world, ids, N);
        if (d < closest) closest = d;
    }
    if (!(closest > 12.0)) fail_msg("closest pair in the formed flock: %.2f", closest);

    /* The inspector sees the parts: the target is the neighbours' centre, wander has its point. */
    SteerBehaviourState st;
    assert_int_equal(steer_vehicle_get_behaviour(world, ids[0], STEER_FLOCK, NULL, &st), STEER_OK);
    assert_true(st.evaluated);
    assert_true(steer_vec2_is_finite(st.target) && steer_vec2_is_finite(st.wander_target));
    assert_true(steer_length_sq(st.force) > 0.0);
    steer_world_destroy(world);
}

/* 60 vehicles dropped into a 40 x 40 square with separation only: after 5 s no pair is closer
 * than 2 radii (16 units), where it started far below that. */
static void test_separation_spreads_a_crowd(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 2);
    enum { N = 60 };
    SteerVehicleId ids[N];
    for (int i = 0; i < N; i++) {
        SteerVehicleDef def = steer_default_vehicle_def();
        def.position = steer_vec2(480.0 + urand() * 40.0, 480.0 + urand() * 40.0);
        ids[i] = spawn(world, def);
        behave(world, ids[i], STEER_SEPARATE);
    }
    assert_true(min_pair_distance(world, ids, N) < 5.0);
    run_steps(world, 300);
    double d = min_pair_distance(world, ids, N);
    if (!(d > 16.0)) fail_msg("closest pair after 5 s: %.2f", d);
    steer_world_destroy(world);
}

static void test_comfort_distance_pushes_harder(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId a = spawn_at(world, 100.0, 100.0);
    spawn_at(world, 105.0, 100.0);
    SteerBehaviourDef def = steer_default_behaviour_def(STEER_SEPARATE);
    def.weight = 0.01; /* stay under max_force so the two forces can be compared */
    turn_on(world, a, &def);
    run_steps(world, 1);
    SteerBehaviourState plain, comfort;
    steer_vehicle_get_behaviour(world, a, STEER_SEPARATE, NULL, &plain);
    def.separate.comfort_distance = 10.0;
    def.separate.comfort_multiplier = 3.0;
    turn_on(world, a, &def);
    steer_vehicle_set_position(world, a, steer_vec2(100.0, 100.0));
    run_steps(world, 1);
    steer_vehicle_get_behaviour(world, a, STEER_SEPARATE, NULL, &comfort);
    assert_true(plain.force.x < 0.0); /* away from the neighbour on its right */
    assert_near(comfort.force.x / plain.force.x, 3.0, 0.05);
    steer_world_destroy(world);
}

/* Two (and three) vehicles on the very same point: every group behaviour gives a finite force,
 * and separation splits them. */
static void test_coincident_vehicles_get_finite_forces(void **state)
{
    (void)state;
    SteerBehaviour types[] = {STEER_SEPARATE, STEER_ALIGN, STEER_COHERE,
                              STEER_FLOCK,    STEER_QUEUE, STEER_AVOID_COLLISIONS};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        for (int radius_zero = 0; radius_zero < 2; radius_zero++) {
            SteerWorld *world = make_world(STEER_EDGES_WRAP, 3);
            SteerVehicleId ids[3];
            for (int i = 0; i < 3; i++) {
                SteerVehicleDef def = steer_default_vehicle_def();
                def.position = steer_vec2(300.0, 300.0);
                def.velocity = i == 2 ? steer_vec2(0.0, 0.0) : steer_vec2(10.0, 0.0);
                def.neighbor_radius = radius_zero ? 0.0 : 50.0;
                ids[i] = spawn(world, def);
                behave(world, ids[i], types[t]);
            }
            run_steps(world, 30);
            for (int i = 0; i < 3; i++) {
                SteerVehicleState s;
                steer_vehicle_get(world, ids[i], &s);
                if (!steer_vec2_is_finite(s.position) || !steer_vec2_is_finite(s.velocity) ||
                    !steer_vec2_is_finite(s.force))
                    fail_msg("%s: vehicle %d not finite", steer_behaviour_name(types[t]), i);
            }
            if (types[t] == STEER_SEPARATE || types[t] == STEER_FLOCK)
                assert_true(min_pair_distance(world, ids, 3) > 1.0);
            steer_world_destroy(world);
        }
    }
}

/* Alignment turns a vehicle toward its neighbours' heading; a neighbour of a kind it does not
 * flock with, or behind it outside its view cone, is ignored. */
static void test_alignment_follows_flockmates_only(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(100.0, 100.0);
    def.velocity = steer_vec2(50.0, 0.0);
    SteerVehicleId me = spawn(world, def);
    def.position = steer_vec2(120.0, 100.0);
    def.velocity = steer_vec2(0.0, 50.0); /* heading down the screen */
    def.kind = 1;
    SteerVehicleId other = spawn(world, def);
    behave(world, me, STEER_ALIGN);
    run_steps(world, 1);
    SteerBehaviourState st;
    steer_vehicle_get_behaviour(world, me, STEER_ALIGN, NULL, &st);
    assert_near(steer_length(st.force), 0.0, 1e-12); /* kind 1 is not kind 0 */

    steer_vehicle_set_flock_kinds(world, me, 1ULL << 1);
    run_steps(world, 1);
    steer_vehicle_get_behaviour(world, me, STEER_ALIGN, NULL, &st);
    assert_true(st.force.y > 0.0 && st.force.x < 0.0); /* toward (0, 1) from (1, 0) */

    /* Now it stands behind: a 90° cone ahead does not see it. */
    steer_vehicle_set_position(world, other, steer_vec2(steer_vehicle_position(world, me).x - 20.0, 100.0));
    steer_vehicle_set_view_angle(world, me, 0.5 * STEER_PI);
    run_steps(world, 1);
    steer_vehicle_get_behaviour(world, me, STEER_ALIGN, NULL, &st);
    assert_near(steer_length(st.force), 0.0, 1e-12);
    steer_world_destroy(world);
}

static void test_cohesion_pulls_toward_the_centre(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_WRAP, 1);
    SteerVehicleId me = spawn_at(world, 5.0, 500.0);
    spawn_at(world, 985.0, 490.0); /* across the wrapped edge, 20 to the left */
    spawn_at(world, 985.0, 510.0);
    behave(world, me, STEER_COHERE);
    run_steps(world, 1);
    SteerBehaviourState st;
    steer_vehicle_get_behaviour(world, me, STEER_COHERE, NULL, &st);
    assert_true(st.force.x < 0.0);
    assert_near(st.force.y, 0.0, 1e-9);
    assert_near(st.target.x, -15.0, 1e-9); /* the centre, seen from this side of the edge */
    steer_world_destroy(world);
}

/* ---- Leader following ---------------------------------------------------------------------- */

typedef struct Convoy {
    SteerWorld *world;
    SteerVehicleId leader, followers[5];
    SteerBehaviourDef leader_seek;
} Convoy;

static Convoy convoy(void)
{
    Convoy c;
    SteerWorldDef wd = steer_default_world_def();
    wd.width = wd.height = 2000.0;
    wd.seed = 3;
    c.world = steer_world_create(&wd);
    SteerVehicleDef def = steer_default_vehicle_def();
    def.position = steer_vec2(300.0, 1000.0);
    def.velocity = steer_vec2(50.0, 0.0);
    def.max_speed = 50.0;
    c.leader = spawn(c.world, def);
    c.leader_seek = steer_default_behaviour_def(STEER_SEEK);
    c.leader_seek.seek.target = steer_target_point(1900.0, 1000.0);
    turn_on(c.world, c.leader, &c.leader_seek);
    for (int i = 0; i < 5; i++) {
        SteerVehicleDef f = steer_default_vehicle_def();
        f.position = steer_vec2(100.0 + 30.0 * (i % 3), 950.0 + 25.0 * i);
        f.kind = 1; /* followers flock among themselves; the leader is another kind */
        c.followers[i] = spawn(c.world, f);
        SteerBehaviourDef b = steer_default_behaviour_def(STEER_FOLLOW_LEADER);
        b.follow_leader.target = steer_target_vehicle(c.leader);
        turn_on(c.world, c.followers[i], &b);
    }
    return c;
}

/// Follower i relative to the leader: along its heading (negative = behind) and across it.
static void relative(const Convoy *c, int i, double *along, double *across)
{
    SteerVec2 lp = steer_vehicle_position(c->world, c->leader), lh = steer_vehicle_heading(c->world, c->leader);
    SteerVec2 r = steer_sub(steer_vehicle_position(c->world, c->followers[i]), lp);
    *along = steer_dot(r, lh);
    *across = steer_cross(lh, r);
}

/* Behind the leader, 20 to 100 units from it, from 6 s to 12 s of a straight run. */
static void test_followers_stay_behind_the_leader(void **state)
{
    (void)state;
    Convoy c = convoy();
    run_steps(c.world, 360);
    for (int s = 0; s < 360; s += 10) {
        for (int i = 0; i < 5; i++) {
            double along, across;
            relative(&c, i, &along, &across);
            double distance = hypot(along, across);
            if (!(along < 0.0 && distance > 20.0 && distance < 100.0))
                fail_msg("t=%.1f follower %d at %.1f along, %.1f across", 6.0 + s / 60.0, i, along, across);
        }
        run_steps(c.world, 10);
    }
    SteerBehaviourState st;
    steer_vehicle_get_behaviour(c.world, c.followers[0], STEER_FOLLOW_LEADER, NULL, &st);
    SteerVec2 lp = steer_vehicle_position(c.world, c.leader);
    assert_near(st.target.y, 1000.0, 1e-6); /* the point 30 behind the leader */
    assert_near(st.target.x, lp.x - 30.0, 1.0);
    steer_world_destroy(c.world);
}

/* The leader turns back into its followers: they step out of its path - within a second each is
 * behind it again or at least 20 units to its side - and none ever touches it (16 units). */
static void test_followers_leave_the_path_when_the_leader_turns(void **state)
{
    (void)state;
    Convoy c = convoy();
    run_steps(c.world, 720);
    c.leader_seek.seek.target = steer_target_point(0.0, 1000.0);
    turn_on(c.world, c.leader, &c.leader_seek);
    for (int s = 0; s < 240; s++) {
        steer_world_step(c.world);
        SteerVec2 lp = steer_vehicle_position(c.world, c.leader);
        for (int i = 0; i < 5; i++) {
            double d = steer_distance(steer_vehicle_position(c.world, c.followers[i]), lp);
            if (!(d > 16.0)) fail_msg("t=+%.2f s follower %d touches the leader (%.1f)", s / 60.0, i, d);
            if (s >= 60) {
                double along, across;
                relative(&c, i, &along, &across);
                if (!(along < 0.0 || fabs(across) > 20.0))
                    fail_msg("t=+%.2f s follower %d in the way: %.1f along, %.1f across", s / 60.0, i, along, across);
            }
        }
    }
    steer_world_destroy(c.world);
}

/* ---- Queueing ------------------------------------------------------------------------------ */

/* Twelve vehicles seek a point beyond a wall with a 60-unit gap. With queue (and separation and
 * wall avoidance) none ever overlaps another (a centre distance under the sum of the radii) and
 * all are through within 30 s; without queue the same crowd overlaps at the gap. */
static double run_gap(bool queue, double *through_at)
{
    SteerWorld *world = make_world(STEER_EDGES_NONE, 5);
    steer_world_add_wall(world, steer_vec2(500.0, 0.0), steer_vec2(500.0, 470.0), NULL);
    steer_world_add_wall(world, steer_vec2(500.0, 530.0), steer_vec2(500.0, 1000.0), NULL);
    enum { N = 12 };
    SteerVehicleId ids[N];
    for (int i = 0; i < N; i++) {
        SteerVehicleDef def = steer_default_vehicle_def();
        def.position = steer_vec2(150.0 + 40.0 * (i % 4), 380.0 + 60.0 * (i / 4));
        def.radius = 6.0;
        def.max_speed = 60.0;
        def.neighbor_radius = 40.0;
        def.combine = STEER_COMBINE_PRIORITY;
        ids[i] = spawn(world, def);
        SteerBehaviourDef seek = steer_default_behaviour_def(STEER_SEEK);
        seek.seek.target = steer_target_point(900.0, 500.0);
        turn_on(world, ids[i], &seek);
        behave(world, ids[i], STEER_AVOID_WALLS);
        behave(world, ids[i], STEER_SEPARATE);
        if (queue) behave(world, ids[i], STEER_QUEUE);
    }
    double closest = INFINITY;
    *through_at = -1.0;
    for (int s = 0; s < 30 * 60; s++) {
        steer_world_step(world);
        double d = min_pair_distance(world, ids, N);
        if (d < closest) closest = d;
        int through = 0;
        for (int i = 0; i < N; i++) through += steer_vehicle_position(world, ids[i]).x > 520.0;
        if (through == N && *through_at < 0.0) *through_at = (s + 1) / 60.0;
    }
    steer_world_destroy(world);
    return closest;
}

static void test_queue_passes_a_narrow_gap_without_overlaps(void **state)
{
    (void)state;
    double through_at;
    double closest = run_gap(true, &through_at);
    if (!(closest > 12.0)) fail_msg("with queue: closest pair %.2f (radii sum 12)", closest);
    if (!(through_at > 0.0)) fail_msg("with queue: not all through the gap in 30 s");
    double unqueued = run_gap(false, &through_at);
    if (!(unqueued < 12.0)) fail_msg("without queue the crowd should overlap at the gap (closest %.2f)", unqueued);
}

static void test_queue_brakes_only_behind_a_slower_vehicle(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId me = spawn_moving(world, 100.0, 100.0, 50.0, 0.0);
    SteerVehicleId ahead = spawn_moving(world, 120.0, 100.0, 10.0, 0.0);
    behave(world, me, STEER_QUEUE);
    run_steps(world, 1);
    SteerBehaviourState st;
    steer_vehicle_get_behaviour(world, me, STEER_QUEUE, NULL, &st);
    assert_true(st.force.x < 0.0);
    assert_near(st.force.y, 0.0, 1e-9);
    /* Faster than us: no braking. */
    steer_vehicle_set_velocity(world, ahead, steer_vec2(90.0, 0.0));
    steer_vehicle_set_velocity(world, me, steer_vec2(50.0, 0.0));
    run_steps(world, 1);
    steer_vehicle_get_behaviour(world, me, STEER_QUEUE, NULL, &st);
    assert_near(steer_length(st.force), 0.0, 1e-12);
    steer_world_destroy(world);
}

/* ---- Unaligned collision avoidance --------------------------------------------------------- */

/* Two vehicles cross paths at right angles, timed to meet (exactly, and a little off): with
 * avoid_collisions they pass at more than the sum of their radii; without, they run into each other. */
static double crossing(bool avoid, double offset)
{
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId a = spawn_moving(world, 300.0, 500.0, 80.0, 0.0);
    SteerVehicleId b = spawn_moving(world, 500.0 + offset, 300.0, 0.0, 80.0);
    SteerBehaviourDef seek = steer_default_behaviour_def(STEER_SEEK);
    seek.seek.target = steer_target_point(900.0, 500.0);
    turn_on(world, a, &seek);
    seek.seek.target = steer_target_point(500.0 + offset, 900.0);
    turn_on(world, b, &seek);
    if (avoid) {
        behave(world, a, STEER_AVOID_COLLISIONS);
        behave(world, b, STEER_AVOID_COLLISIONS);
    }
    double closest = INFINITY;
    for (int s = 0; s < 300; s++) {
        steer_world_step(world);
        double d = steer_distance(steer_vehicle_position(world, a), steer_vehicle_position(world, b));
        if (d < closest) closest = d;
    }
    steer_world_destroy(world);
    return closest;
}

static void test_avoid_collisions_steers_clear_of_a_crossing_vehicle(void **state)
{
    (void)state;
    const double offsets[] = {0.0, 6.0, -9.0};
    for (int i = 0; i < 3; i++) {
        double with = crossing(true, offsets[i]), without = crossing(false, offsets[i]);
        if (!(without < 16.0))
            fail_msg("offset %g: they should collide without avoidance (closest %.2f)", offsets[i], without);
        if (!(with > 16.0)) fail_msg("offset %g: with avoidance closest %.2f (radii sum 16)", offsets[i], with);
    }
}

/* ---- Determinism and validation ------------------------------------------------------------ */

static void mixed_group_scene(SteerWorld *world, SteerVehicleId *ids, int n)
{
    uint64_t saved = test_state;
    test_state = 99;
    for (int i = 0; i < n; i++) {
        SteerVehicleDef def = steer_default_vehicle_def();
        def.position = steer_vec2(urand() * 1000.0, urand() * 1000.0);
        def.velocity = steer_vec2(urand() * 60.0 - 30.0, urand() * 60.0 - 30.0);
        def.kind = (uint32_t)(i % 2);
        ids[i] = spawn(world, def);
        if (i % 5 == 4) {
            SteerBehaviourDef b = steer_default_behaviour_def(STEER_FOLLOW_LEADER);
            b.follow_leader.target = steer_target_vehicle(ids[i - 4]);
            turn_on(world, ids[i], &b);
        } else {
            behave(world, ids[i], i % 3 ? STEER_FLOCK : STEER_WANDER);
            behave(world, ids[i], STEER_AVOID_COLLISIONS);
            behave(world, ids[i], STEER_QUEUE);
        }
    }
    test_state = saved;
}

static void test_group_behaviours_are_deterministic(void **state)
{
    (void)state;
    enum { N = 120 };
    SteerVehicleId a_ids[N], b_ids[N];
    SteerWorld *a = make_world(STEER_EDGES_WRAP, 11), *b = make_world(STEER_EDGES_WRAP, 11);
    mixed_group_scene(a, a_ids, N);
    mixed_group_scene(b, b_ids, N);
    run_steps(a, 300);
    run_steps(b, 300);
    for (int i = 0; i < N; i++) {
        SteerVec2 pa = steer_vehicle_position(a, a_ids[i]), pb = steer_vehicle_position(b, b_ids[i]);
        assert_memory_equal(&pa, &pb, sizeof pa);
    }
    steer_world_destroy(a);
    steer_world_destroy(b);
}

static void test_group_parameters_are_checked(void **state)
{
    (void)state;
    SteerWorld *world = make_world(STEER_EDGES_NONE, 1);
    SteerVehicleId me = spawn_at(world, 0.0, 0.0);
    SteerBehaviourDef def = steer_default_behaviour_def(STEER_SEPARATE);
    def.separate.comfort_multiplier = 0.5;
    assert_int_equal(steer_vehicle_set_behaviour(world, me, &def), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "separate: comfort_multiplier");
    def = steer_default_behaviour_def(STEER_FOLLOW_LEADER);
    def.follow_leader.target = steer_target_point(1.0, 2.0);
    assert_int_equal(steer_vehicle_set_behaviour(world, me, &def), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "follow_leader: target must be a vehicle");
    def = steer_default_behaviour_def(STEER_QUEUE);
    def.queue.braking = 1.5;
    assert_int_equal(steer_vehicle_set_behaviour(world, me, &def), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "queue: braking");
    def = steer_default_behaviour_def(STEER_FLOCK);
    def.flock.alignment = NAN;
    assert_int_equal(steer_vehicle_set_behaviour(world, me, &def), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "flock: alignment");
    def = steer_default_behaviour_def(STEER_AVOID_COLLISIONS);
    def.avoid_collisions.horizon = 0.0;
    assert_int_equal(steer_vehicle_set_behaviour(world, me, &def), STEER_ERROR_INVALID_ARGUMENT);
    assert_error_contains(world, "avoid_collisions: horizon");
    assert_int_equal(steer_vehicle_get_behaviours(world, me, NULL, 0), 0);
    steer_world_destroy(world);
}

/* A leader removed mid-run: follow_leader switches itself off, nothing else breaks. */
static void test_follow_leader_switches_off_when_the_leader_goes(void **state)
{
    (void)state;
    Convoy c = convoy();
    run_steps(c.world, 30);
    steer_vehicle_destroy(c.world, c.leader);
    run_steps(c.world, 30);
    for (int i = 0; i < 5; i++) assert_false(steer_vehicle_has_behaviour(c.world, c.followers[i], STEER_FOLLOW_LEADER));
    steer_world_destroy(c.world);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_neighbourhood_matches_brute_force_shared_parameters_wrapping),
        cmocka_unit_test(test_neighbourhood_matches_brute_force_shared_parameters_unbounded),
        cmocka_unit_test(test_neighbourhood_matches_brute_force_mixed_kinds_cones_radii),
        cmocka_unit_test(test_flock_polarises_from_random_headings),
        cmocka_unit_test(test_separation_spreads_a_crowd),
        cmocka_unit_test(test_comfort_distance_pushes_harder),
        cmocka_unit_test(test_coincident_vehicles_get_finite_forces),
        cmocka_unit_test(test_alignment_follows_flockmates_only),
        cmocka_unit_test(test_cohesion_pulls_toward_the_centre),
        cmocka_unit_test(test_followers_stay_behind_the_leader),
        cmocka_unit_test(test_followers_leave_the_path_when_the_leader_turns),
        cmocka_unit_test(test_queue_passes_a_narrow_gap_without_overlaps),
        cmocka_unit_test(test_queue_brakes_only_behind_a_slower_vehicle),
        cmocka_unit_test(test_avoid_collisions_steers_clear_of_a_crossing_vehicle),
        cmocka_unit_test(test_group_behaviours_are_deterministic),
        cmocka_unit_test(test_group_parameters_are_checked),
        cmocka_unit_test(test_follow_leader_switches_off_when_the_leader_goes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
