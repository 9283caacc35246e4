/* SPDX-License-Identifier: MIT */
/* same_file.c - see same_file.h. */
#define _DEFAULT_SOURCE /* realpath */
#include "same_file.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The path with its folder resolved (the file itself may not exist yet): false when the folder
 * cannot be resolved either. */
static bool resolved(const char *path, char *out, size_t size)
{
    char dir_copy[PATH_MAX], base_copy[PATH_MAX], dir[PATH_MAX];
    snprintf(dir_copy, sizeof dir_copy, "%s", path);
    snprintf(base_copy, sizeof base_copy, "%s", path);
    if (!realpath(dirname(dir_copy), dir)) return false;
    snprintf(out, size, "%s/%s", dir, basename(base_copy));
    return true;
}

bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    bool has_a = stat(a, &sa) == 0, has_b = stat(b, &sb) == 0;
    if (has_a && has_b) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (has_a != has_b) return false; /* one exists, the other not: two files */
    char ra[PATH_MAX + 256], rb[PATH_MAX + 256];
    if (!resolved(a, ra, sizeof ra) || !resolved(b, rb, sizeof rb)) return strcmp(a, b) == 0;
    return strcmp(ra, rb) == 0;
}
