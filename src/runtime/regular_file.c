/* SPDX-License-Identifier: MIT */
/* regular_file.c - see regular_file.h. The file is opened with O_NONBLOCK, so that a FIFO with no
 * writer does not block the open, and fstat then says what was opened (stat first, then open,
 * would leave a moment in which the path could become a FIFO). */
#include "regular_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *what_it_is(mode_t mode)
{
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a FIFO (a named pipe)";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

char *regular_file_read(const char *path, size_t limit, size_t *len, char *why, size_t why_size)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, why_size, "%s", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(why, why_size, "%s", strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, why_size, "it is %s, not a file", what_it_is(st.st_mode));
        close(fd);
        return NULL;
    }
    /* read at most limit + 1 bytes whatever st_size said: the file may grow while it is read */
    size_t cap = (size_t)st.st_size < limit ? (size_t)st.st_size + 1 : limit + 1, n = 0;
    char *data = malloc(cap + 1);
    if (!data) {
        snprintf(why, why_size, "out of memory");
        close(fd);
        return NULL;
    }
    for (;;) {
        if (n == cap) {
            if (cap == limit + 1) break; /* over the limit: refused below */
            size_t grown_cap = cap * 2 < limit + 1 ? cap * 2 : limit + 1;
            char *grown = realloc(data, grown_cap + 1);
            if (!grown) {
                snprintf(why, why_size, "out of memory");
                free(data);
                close(fd);
                return NULL;
            }
            data = grown;
            cap = grown_cap;
        }
        ssize_t got = read(fd, data + n, cap - n);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            snprintf(why, why_size, "%s", strerror(errno));
            free(data);
            close(fd);
            return NULL;
        }
        if (got == 0) break;
        n += (size_t)got;
    }
    close(fd);
    if (n > limit) {
        snprintf(why, why_size, "it is larger than %zu MiB, the most the program reads", limit >> 20);
        free(data);
        return NULL;
    }
    data[n] = '\0';
    *len = n;
    return data;
}

bool path_too_long(const char *path, char *why, size_t why_size, char *shown, size_t shown_size)
{
    size_t len = strlen(path), longest = 0;
    for (const char *name = path; *name;) {
        size_t n = strcspn(name, "/");
        if (n > longest) longest = n;
        name += n;
        name += strspn(name, "/");
    }
    if (len < PATH_MAX && longest <= NAME_MAX) return false;
    if (len < PATH_MAX)
        snprintf(why, why_size, "a name in the path is too long: %zu bytes, the system takes at most %d", longest,
                 NAME_MAX);
    else
        snprintf(why, why_size, "the path is too long: %zu bytes, the system takes at most %d", len, PATH_MAX - 1);
    if (len <= 120)
        snprintf(shown, shown_size, "%s", path);
    else
        snprintf(shown, shown_size, "%.60s...%s", path, path + len - 40);
    return true;
}
