/* SPDX-License-Identifier: MIT */
/* test_runtime_history.c - the inspector's plots' data (src/runtime/history.c): the ring of the
 * selected vehicle's samples, what the view of the last 10 s holds (which samples, which series in
 * which order, their scales), a state's name kept by index and recycled, the skip of samples at
 * physics rates above ~100 Hz, and a fresh start for another vehicle or a restarted world. */
#include <stdlib.h>

#include "test_support.h"

#include "history.h"

static HistorySample sample(double time, float speed)
{
    HistorySample s;
    memset(&s, 0, sizeof s);
    s.time = time;
    s.speed = speed;
    s.force = 2 * speed;
    s.max_speed = 100;
    s.max_force = 300;
    for (int b = 0; b < STEER_BEHAVIOUR_COUNT; b++) s.behaviour[b] = NAN;
    return s;
}

static History *new_history(void)
{
    History *h = calloc(1, sizeof *h);
    assert_non_null(h);
    return h;
}

static double view_time(const SteerInspectorPlots *p, int i) { return p->times[(p->first + i) % p->capacity]; }

static float view_value(const SteerInspectorPlots *p, int series, int i)
{
    return p->series[series].values[(p->first + i) % p->capacity];
}

static void test_the_view_holds_the_last_ten_seconds_oldest_first(void **state)
{
    (void)state;
    History *h = new_history();
    history_reset(h, 7);
    for (int i = 1; i <= 900; i++) { /* 15 s at 60 Hz: every step kept */
        HistorySample s = sample(i / 60.0, (float)i);
        assert_true(history_record(h, 7, &s));
    }
    assert_int_equal(h->count, 900);
    SteerInspectorPlots p;
    history_view(h, &p);
    assert_true(p.now == 15.0);
    assert_true(p.window == HISTORY_WINDOW_S);
    assert_int_equal(p.count, 601); /* t = 5.0 .. 15.0 */
    assert_near(view_time(&p, 0), 5.0, 1e-12);
    for (int i = 0; i < p.count; i++) {
        assert_near(view_time(&p, i), 5.0 + i / 60.0, 1e-9);
        assert_true(view_value(&p, 0, i) == (float)(300 + i));       /* speed */
        assert_true(view_value(&p, 1, i) == (float)(2 * (300 + i))); /* force */
    }
    free(h);
}

static void test_the_ring_wraps_keeping_the_newest_samples(void **state)
{
    (void)state;
    History *h = new_history();
    history_reset(h, 1);
    for (int i = 1; i <= 3000; i++) {
        HistorySample s = sample(i / 60.0, (float)i);
        history_record(h, 1, &s);
    }
    assert_int_equal(h->count, HISTORY_CAPACITY);
    SteerInspectorPlots p;
    history_view(h, &p);
    assert_int_equal(p.count, 601);
    assert_true(view_value(&p, 0, p.count - 1) == 3000.0f);
    assert_true(view_value(&p, 0, 0) == 2400.0f);
    /* oldest first all along, across the ring's end */
    for (int i = 1; i < p.count; i++) assert_true(view_time(&p, i) > view_time(&p, i - 1));
    free(h);
}

static void test_fast_physics_is_sampled_so_the_ring_spans_the_window(void **state)
{
    (void)state;
    History *h = new_history();
    history_reset(h, 1);
    int kept = 0;
    for (int i = 1; i <= 20000; i++) { /* 20 s at 1 kHz */
        HistorySample s = sample(i / 1000.0, 1.0f);
        kept += history_record(h, 1, &s);
    }
    assert_true(kept < 2100 && kept > 1900); /* one in ~10 steps */
    SteerInspectorPlots p;
    history_view(h, &p);
    assert_true(p.now > 20.0 - 0.011);                                 /* the newest sample kept */
    assert_true(view_time(&p, 0) <= p.now - HISTORY_WINDOW_S + 0.011); /* the whole window is there */
    assert_true(p.count <= HISTORY_CAPACITY && p.count > 1000);
    /* at 60 Hz nothing is skipped (checked above); at 120 Hz every other step */
    history_reset(h, 1);
    kept = 0;
    for (int i = 1; i <= 1200; i++) {
        HistorySample s = sample(i / 120.0, 1.0f);
        kept += history_record(h, 1, &s);
    }
    assert_int_equal(kept, 600);
    free(h);
}

static void test_another_vehicle_or_an_earlier_time_starts_afresh(void **state)
{
    (void)state;
    History *h = new_history();
    history_reset(h, 1);
    for (int i = 1; i <= 100; i++) {
        HistorySample s = sample(i / 60.0, 1.0f);
        history_record(h, 1, &s);
    }
    HistorySample s = sample(101 / 60.0, 5.0f);
    assert_true(history_record(h, 2, &s)); /* selected another vehicle */
    assert_int_equal(h->count, 1);
    assert_true(h->serial == 2);
    s = sample(0.5, 6.0f);
    assert_true(history_record(h, 2, &s)); /* F5: the new world's time starts again */
    assert_int_equal(h->count, 1);
    SteerInspectorPlots p;
    history_view(h, &p);
    assert_true(p.now == 0.5);
    assert_int_equal(p.count, 1);
    assert_true(view_value(&p, 0, 0) == 6.0f);
    /* an empty history gives an empty view */
    history_reset(h, 3);
    history_view(h, &p);
    assert_int_equal(p.count, 0);
    assert_int_equal(p.series_count, 0);
    free(h);
}

static void test_series_are_speed_force_then_each_behaviour_on_in_the_window(void **state)
{
    (void)state;
    History *h = new_history();
    history_reset(h, 1);
    for (int i = 1; i <= 1200; i++) { /* 20 s */
        HistorySample s = sample(i / 60.0, 50.0f);
        if (i <= 300) s.behaviour[STEER_FLEE] = 100;             /* only more than 10 s ago: not listed */
        if (i > 600 && i <= 900) s.behaviour[STEER_WANDER] = 80; /* on, then off: a gap after */
        s.behaviour[STEER_SEEK] = i == 1200 ? 450.0f : 120.0f;   /* its peak passes max_force */
        if (i > 1000) s.behaviour[STEER_AVOID_WALLS] = 0;        /* on, giving nothing */
        history_record(h, 1, &s);
    }
    SteerInspectorPlots p;
    history_view(h, &p);
    assert_int_equal(p.series_count, 5);
    assert_string_equal(p.series[0].label, "speed");
    assert_string_equal(p.series[1].label, "force");
    assert_string_equal(p.series[2].label, "seek");
    assert_string_equal(p.series[3].label, "wander");
    assert_string_equal(p.series[4].label, "avoid_walls");
    /* scales: speed and force up to their limits (or a higher peak), drawn as lines; behaviours share one */
    assert_true(p.series[0].top == 100.0f && p.series[0].limit == 100.0f);
    assert_true(p.series[1].top == 300.0f && p.series[1].limit == 300.0f);
    for (int s = 2; s < 5; s++) {
        assert_true(p.series[s].top == 450.0f);
        assert_true(p.series[s].limit == 0.0f);
    }
    /* wander: values while on (steps 601-900), a gap (NaN) after */
    int on = 0, off = 0;
    for (int i = 0; i < p.count; i++) {
        float v = view_value(&p, 3, i);
        if (isnan(v))
            off++;
        else
            on++, assert_true(v == 80.0f);
    }
    assert_int_equal(on, 300);
    assert_int_equal(off, p.count - 300);
    /* each behaviour has its own colour */
    SDL_Color a = history_behaviour_color(STEER_SEEK), b = history_behaviour_color(STEER_FLEE);
    assert_true(a.r != b.r || a.g != b.g || a.b != b.b);
    free(h);
}

static void test_states_are_kept_by_index_and_names_recycled(void **state)
{
    (void)state;
    History *h = new_history();
    history_reset(h, 1);
    /* 40 states of 1 s each, then none: never more than 11 within a window */
    char names[40][16];
    for (int i = 0; i < 2460; i++) {
        HistorySample s = sample((i + 1) / 60.0, 1.0f);
        int k = i / 60;
        if (k < 40) {
            snprintf(names[k], sizeof names[k], "state%02d", k);
            s.state = names[k];
            s.state_len = strlen(names[k]);
        }
        history_record(h, 1, &s);
        /* the view names each sample's state right */
        if (i % 97 != 0 && i != 2459) continue;
        SteerInspectorPlots p;
        history_view(h, &p);
        assert_true(p.state_name_count <= HISTORY_MAX_STATES);
        for (int j = 0; j < p.count; j++) {
            uint8_t idx = p.states[(p.first + j) % p.capacity];
            int step = (int)lround(view_time(&p, j) * 60.0) - 1;
            if (step / 60 >= 40) {
                assert_int_equal(idx, STEER_PLOT_NO_STATE);
                continue;
            }
            assert_true(idx < p.state_name_count);
            assert_string_equal(p.state_names[idx], names[step / 60]);
        }
    }
    /* a name longer than the table keeps is cut, and still found again */
    history_reset(h, 1);
    const char *long_name = "a_state_name_far_longer_than_thirty_one_bytes";
    for (int i = 1; i <= 3; i++) {
        HistorySample s = sample(i / 60.0, 1.0f);
        s.state = long_name;
        s.state_len = strlen(long_name);
        history_record(h, 1, &s);
    }
    assert_int_equal(h->state_name_count, 1);
    assert_int_equal(strlen(h->state_names[0]), HISTORY_STATE_CHARS - 1);
    assert_memory_equal(h->state_names[0], long_name, HISTORY_STATE_CHARS - 1);
    /* more distinct states within one window than the table holds: the extra ones show as none */
    history_reset(h, 1);
    char many[20][16];
    for (int i = 0; i < 20; i++) {
        HistorySample s = sample((i + 1) / 60.0, 1.0f);
        snprintf(many[i], sizeof many[i], "s%d", i);
        s.state = many[i];
        s.state_len = strlen(many[i]);
        history_record(h, 1, &s);
    }
    SteerInspectorPlots p;
    history_view(h, &p);
    for (int j = 0; j < p.count; j++) {
        uint8_t idx = p.states[(p.first + j) % p.capacity];
        if (j < HISTORY_MAX_STATES)
            assert_string_equal(p.state_names[idx], many[j]);
        else
            assert_int_equal(idx, STEER_PLOT_NO_STATE);
    }
    free(h);
}

static void record_state(History *h, uint64_t serial, double time, const char *name)
{
    HistorySample s = sample(time, 1.0f);
    s.state = name;
    s.state_len = strlen(name);
    history_record(h, serial, &s);
}

static bool same_color(SDL_Color a, SDL_Color b) { return a.r == b.r && a.g == b.g && a.b == b.b; }

static void test_state_colours_differ_within_a_strip_and_follow_the_name(void **state)
{
    (void)state;
    History *h = new_history(), *other = new_history();
    history_reset(h, 1);
    char names[HISTORY_STATE_PALETTE][16];
    for (int i = 0; i < HISTORY_STATE_PALETTE; i++) {
        snprintf(names[i], sizeof names[i], "st%d", i);
        record_state(h, 1, (i + 1) / 60.0, names[i]);
    }
    for (int i = 0; i < HISTORY_STATE_PALETTE; i++)
        for (int j = 0; j < i; j++)
            if (same_color(h->state_colors[i], h->state_colors[j]))
                fail_msg("%s and %s share a colour", names[i], names[j]);
    /* a state alone in another vehicle's strip has the colour its name hashes to; so do the first
     * names of a strip that did not collide */
    history_reset(other, 2);
    record_state(other, 2, 1 / 60.0, "st0");
    assert_true(same_color(other->state_colors[0], h->state_colors[0]));
    free(h);
    free(other);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_view_holds_the_last_ten_seconds_oldest_first),
        cmocka_unit_test(test_the_ring_wraps_keeping_the_newest_samples),
        cmocka_unit_test(test_fast_physics_is_sampled_so_the_ring_spans_the_window),
        cmocka_unit_test(test_another_vehicle_or_an_earlier_time_starts_afresh),
        cmocka_unit_test(test_series_are_speed_force_then_each_behaviour_on_in_the_window),
        cmocka_unit_test(test_states_are_kept_by_index_and_names_recycled),
        cmocka_unit_test(test_state_colours_differ_within_a_strip_and_follow_the_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
