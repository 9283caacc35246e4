/* main.c - `steer [options] SCRIPT`: parses the command line and runs the program. */
#include <stdio.h>
#include <stdlib.h>

#include "app.h"
#include "guard.h"
#include "options.h"

int main(int argc, char **argv)
{
    AppOptions opt = options_default();
    char error[512];
    switch (options_parse(&opt, argc, argv, error, sizeof error)) {
    case OPTIONS_HELP: options_print_help(stdout, argv[0]); return 0;
    case OPTIONS_VERSION: options_print_version(stdout); return 0;
    case OPTIONS_ERROR: fprintf(stderr, "steer: %s\n", error); return 1;
    case OPTIONS_RUN: break;
    }
    if (!options_check_paths(&opt, error, sizeof error)) {
        fprintf(stderr, "steer: %s\n", error);
        return 1;
    }
    App app;
    if (app_init(&app, &opt, argv[0]) != 0) return 1;
    int status = app_run(&app);
    /* closing the Lua state runs every finalizer left: one that never returns must not hang the exit */
    guard_watch_closing(GUARD_HARD_MIN_S);
    app_shutdown(&app);
    guard_closed();
    return status;
}
