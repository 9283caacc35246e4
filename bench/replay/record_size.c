/* SPDX-License-Identifier: MIT */
/* record_size.c - how big a recording of a 10-minute hunter/prey session is: 36,000 steps of
 * scripts/hunter_prey.lua headless at 60 frames per second, with the input a player gives (the
 * pointer moving every frame, a click every 5 s, a key every 20 s, pauses, a time-scale change, a
 * restart), fed through the window's event path; then the file's size, what each kind of record
 * takes, and a replay of it in this process's program (argv[1]) checking every checksum. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app.h"
#include "record.h"
#include "replay.h"

#include "../player_session.h"

#define STEPS 36000
#define TARGET_BYTES (1024 * 1024)

int main(int argc, char **argv)
{
    const char *program = argc > 1 ? argv[1] : "build/steer";
    const char *file = "/tmp/steer_bench_hunter_prey.steer";
    AppOptions opt = options_default();
    opt.headless = true;
    opt.script = "scripts/hunter_prey.lua";
    opt.record = file;
    opt.run.has_seed = true;
    opt.run.seed = 4;
    opt.steps = STEPS;
    char error[512];
    if (!record_begin(&opt, error, sizeof error)) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    static App app;
    if (app_init(&app, &opt, program) != 0) return 1;
    record_check(opt.recorder, script_world(app.session.host), 0);
    long long frame = 0;
    while (app.session.steps < STEPS) {
        player_session_frame(&app, frame);
        app_frame(&app, 1.0 / 60.0);
        frame++;
    }
    long long steps = app.session.steps;
    record_check(opt.recorder, script_world(app.session.host), steps);
    app_shutdown(&app);
    if (!record_close(opt.recorder, steps, error, sizeof error)) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    struct stat st;
    stat(file, &st);
    printf("hunter/prey, %lld steps (%.1f simulated minutes), %lld frames, the pointer moving every frame:\n", steps,
           steps / 3600.0, frame);
    printf("  recording %s: %lld bytes (%.1f KiB; target under 1 MiB: %s)\n", file, (long long)st.st_size,
           st.st_size / 1024.0, st.st_size < TARGET_BYTES ? "met" : "NOT met");
    Player *player = replay_open(file, error, sizeof error);
    if (!player) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    static const TapeRecord types[] = {TAPE_CHECK, TAPE_MOTION_SCREEN, TAPE_CAMERA,     TAPE_MOTION, TAPE_STEP,
                                       TAPE_DRAW,  TAPE_FILE,          TAPE_FILE_AGAIN, TAPE_PRESS,  TAPE_POINTER,
                                       TAPE_KEY,   TAPE_VIEW,          TAPE_RESTART,    TAPE_END};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        printf("    %-20s %9zu bytes\n", replay_record_name(types[i]), replay_bytes_of(player, types[i]));
    replay_close(player);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s --headless --replay %s", program, file);
    printf("  %s:\n", cmd);
    fflush(stdout);
    int status = system(cmd);
    return status == 0 && st.st_size < TARGET_BYTES ? 0 : 1;
}
