/* SPDX-License-Identifier: MIT */
/* replay.c - runs a libFuzzer harness (LLVMFuzzerTestOneInput, linked in) on every file of the
 * corpus folders given, without libFuzzer: `make test` replays the corpora built by `make fuzz`
 * with the project's own compiler and sanitizers. Each input runs in a child process, so a
 * crash names its file and the others still run. Prints cmocka's summary lines, which
 * tests/run_suites.sh counts: one test per input. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_one(const char *path)
{
    FILE *file = fopen(path, "rb");
    if (!file) {
        fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    rewind(file);
    uint8_t *data = malloc(size > 0 ? (size_t)size : 1);
    size_t got = data ? fread(data, 1, (size_t)size, file) : 0;
    fclose(file);
    if (!data || got != (size_t)size) {
        free(data);
        return 1;
    }
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        LLVMFuzzerTestOneInput(data, (size_t)size);
        free(data);
        _exit(0);
    }
    free(data);
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) < 0) return 1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv)
{
    int run = 0, failed = 0;
    for (int d = 1; d < argc; d++) {
        DIR *dir = opendir(argv[d]);
        if (!dir) {
            fprintf(stderr, "cannot open the corpus %s\n", argv[d]);
            failed++;
            continue;
        }
        char **names = NULL;
        int count = 0;
        for (struct dirent *e; (e = readdir(dir));) {
            if (e->d_name[0] == '.') continue;
            names = realloc(names, (size_t)(count + 1) * sizeof *names);
            names[count++] = strdup(e->d_name);
        }
        closedir(dir);
        qsort(names, (size_t)count, sizeof *names, by_name);
        for (int i = 0; i < count; i++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[d], names[i]);
            run++;
            if (run_one(path) != 0) {
                printf("[  FAILED  ] %s\n", path);
                failed++;
            }
            free(names[i]);
        }
        free(names);
        printf("replayed %d inputs of %s\n", count, argv[d]);
    }
    printf("[==========] %d test(s) run.\n", run);
    printf("[  PASSED  ] %d test(s).\n", run - failed);
    return failed ? 1 : 0;
}
