/* SPDX-License-Identifier: MIT */
/* session.c - a session's host and steps. The door (session_input) is in session_input.c. See
 * session.h. */
#include "session.h"

#include <stdio.h>
#include <string.h>

#include "guard.h"
#include "record.h"
#include "rewind.h"

ScriptConfig session_config(const Session *s)
{
    ScriptConfig c = {0};
    c.scene_path = s->scene;
    c.exe_path = s->exe;
    c.run = s->run;
    c.tape = s->tape;
    c.arg0 = s->arg0 ? s->arg0 : s->scene;
    c.words = s->words;
    c.word_count = s->word_count;
    c.key_known = s->hooks.key_known;
    c.program_key = s->hooks.program_key;
    c.sound = s->hooks.sound;
    c.sound_ctx = s->hooks.sound_ctx;
    c.quiet = s->quiet;
    return c;
}

ScriptHost *session_start(Session *s, char *error, size_t error_size)
{
    ScriptConfig config = session_config(s);
    s->host = script_create(&config, error, error_size);
    if (s->host) rewind_started(s->rewind, s); /* the recording's first checksum (step 0) */
    return s->host;
}

/* Closing a state runs its finalizers, which hooks cannot interrupt: bounded as at exit. */
static void destroy_host(ScriptHost *host)
{
    if (!host) return;
    guard_watch_closing(GUARD_HARD_MIN_S);
    script_destroy(host);
    guard_closed();
}

void session_stop(Session *s)
{
    script_destroy(s->host);
    s->host = NULL;
    rewind_destroy(s->rewind); /* after the host, which records through it */
    s->rewind = NULL;
}

void session_init(Session *s, AppOptions *opt, const char *exe, bool rewind, const SessionHooks *hooks)
{
    memset(s, 0, sizeof *s);
    if (rewind && !opt->recorder && !opt->replaying && opt->script) {
        s->rewind = rewind_begin(opt);
        if (!s->rewind) fprintf(stderr, "steer: out of memory for the rewind's recording: rewind is off\n");
    }
    s->run = opt->run;
    s->run.keep_failed = options_keep_failed(opt);
    s->scene = opt->script;
    s->exe = exe;
    s->arg0 = opt->arg0;
    s->words = opt->words;
    s->word_count = opt->word_count;
    s->tape = opt->tape;
    s->recorder = opt->recorder;
    s->replaying = opt->replaying;
    s->quiet = opt->quiet;
    if (hooks) s->hooks = *hooks;
}

void session_init_replayer(Session *s, const Session *live, const char *scene, const ScriptTape *tape, ScriptHost *host,
                           long long steps)
{
    memset(s, 0, sizeof *s);
    s->run = live->run;
    s->scene = scene;
    s->exe = live->exe;
    s->arg0 = live->arg0 ? live->arg0 : live->scene;
    s->words = live->words;
    s->word_count = live->word_count;
    s->hooks.key_known = live->hooks.key_known;
    s->hooks.program_key = live->hooks.program_key;
    s->hooks.sound = live->hooks.sound;
    s->hooks.sound_ctx = live->hooks.sound_ctx;
    s->tape = tape;
    s->replaying = true;
    s->quiet = true;
    s->host = host;
    s->steps = steps;
}

void session_show(Session *s, ScriptHost *host, long long steps)
{
    s->host = host;
    s->steps = steps;
}

bool session_in_past(const Session *s) { return rewind_in_past(s->rewind); }

bool session_speaks(const Session *s) { return !s->quiet; }

void session_go_live(Session *s)
{
    if (rewind_branch(s->rewind, s) && s->hooks.settle) s->hooks.settle(s->hooks.ctx);
}

void session_step(Session *s)
{
    SteerWorld *world = script_world(s->host);
    if (s->hooks.before_step) s->hooks.before_step(s->hooks.ctx);
    record_step(s->recorder);
    script_think(s->host);
    script_update(s->host, steer_world_dt(world));
    double t0 = guard_now();
    steer_world_step(world);
    double ms = (guard_now() - t0) * 1000.0;
    script_collect_events(s->host); /* the step's sense events, for the next pass */
    s->step_ms_total += ms;
    s->step_ms = s->steps == 0 ? ms : s->step_ms * 0.95 + ms * 0.05;
    s->steps++;
    if (s->recorder && s->steps % TAPE_CHECK_INTERVAL == 0) record_check(s->recorder, world, s->steps);
    if (s->hooks.after_step) s->hooks.after_step(s->hooks.ctx);
}

void session_note_draw(Session *s) { rewind_note_draw(s->rewind, s); }

/* A fresh world and a fresh run of the scene; the old one stays when the new fails to load and the
 * old did load (the panel shows why until it loads cleanly). */
void session_restart(Session *s)
{
    record_restart(s->recorder);
    char error[8192];
    ScriptConfig config = session_config(s);
    ScriptHost *fresh = script_create(&config, error, sizeof error);
    bool was_failed = script_failed(s->host);
    if (!fresh || (script_failed(fresh) && !was_failed)) {
        script_report_file_error(s->host, script_scene_file(s->host), error);
        script_destroy(fresh);
        return;
    }
    destroy_host(s->host);
    s->host = fresh;
    if (s->hooks.restarted) s->hooks.restarted(s->hooks.ctx, was_failed);
    rewind_mark(s->rewind, s->steps, STEER_MARK_RESTART); /* the timeline counts from here */
    if (s->quiet) return;
    if (script_failed(fresh))
        fprintf(stderr, "steer: the scene still fails to load: %s\n", error);
    else
        fprintf(stderr, "steer: %s %s\n", was_failed ? "loaded" : "restarted", s->scene);
}
