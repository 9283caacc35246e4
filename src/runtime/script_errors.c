/* SPDX-License-Identifier: MIT */
/* script_errors.c - what the error panel shows and stderr says. Two kinds of script errors:
 *   - a file that fails to load (a syntax error, an error while its chunk runs, in reload(world)
 *     after it, or the scene failing as a whole): one entry per file, kept until that file loads
 *     cleanly, so a good save of another file does not hide it;
 *   - an error while the scene runs (a callback): the latest one, which a callback still failing
 *     reports again at its next call, cleared by any good reload.
 * Brains that fail are reported per vehicle by script_brains.c, above these in the panel. */
#include "script_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The panel's font has no glyph for the tabs tracebacks indent with. */
static char *panel_copy(const char *message)
{
    char *copy = strdup(message);
    for (char *p = copy; p && *p; p++)
        if (*p == '\t') *p = ' ';
    return copy;
}

static int find_file_error(const ScriptHost *host, const char *file)
{
    for (int i = 0; i < host->file_error_count; i++)
        if (!strcmp(host->file_errors[i].file, file)) return i;
    return -1;
}

static void forget_file_error(ScriptHost *host, int i)
{
    free(host->file_errors[i].file);
    free(host->file_errors[i].text);
    host->file_error_count--;
    memmove(host->file_errors + i, host->file_errors + i + 1,
            (size_t)(host->file_error_count - i) * sizeof *host->file_errors); /* the panel keeps their order */
}

/* Files the message under `file`, replacing what that file said before. */
static void set_file_error(ScriptHost *host, const char *file, char *text)
{
    int i = find_file_error(host, file);
    if (i >= 0) {
        free(host->file_errors[i].text);
        host->file_errors[i].text = text;
        host->file_errors[i].serial = ++host->error_serial;
        return;
    }
    if (host->file_error_count == host->file_error_capacity) {
        int cap = host->file_error_capacity ? host->file_error_capacity * 2 : 4;
        ScriptFileError *grown = realloc(host->file_errors, (size_t)cap * sizeof *grown);
        if (!grown) {
            free(text);
            return;
        }
        host->file_errors = grown;
        host->file_error_capacity = cap;
    }
    char *key = strdup(file);
    if (!key) {
        free(text);
        return;
    }
    host->file_errors[host->file_error_count++] = (ScriptFileError){key, text, ++host->error_serial};
}

void script_report_error(ScriptHost *host, const char *message)
{
    host->error_count++;
    char *text = panel_copy(message);
    if (host->failing_file) {
        if (text) set_file_error(host, host->failing_file, text);
    } else {
        free(host->error);
        host->error = text;
        host->error_serial_runtime = ++host->error_serial;
    }
    /* A callback failing every step would flood stderr: print each distinct message once in a row.
     * While the scene loads, the caller reports the failure itself. */
    if (!host->loading && (!host->last_printed || strcmp(host->last_printed, message) != 0)) {
        if (!host->config.quiet) { /* (a quiet replay's repeat of the live run's: remembered, not printed) */
            fprintf(stderr, "steer: script error: %s\n", message);
            fflush(stderr);
        }
        free(host->last_printed);
        host->last_printed = strdup(message);
    }
}

void script_report_top(ScriptHost *host)
{
    const char *msg = lua_tostring(host->L, -1);
    script_report_error(host, msg ? msg : "(error without a message)");
    lua_pop(host->L, 1);
}

void script_report_file_error(ScriptHost *host, const char *path, const char *message)
{
    char file[4096];
    script_files_chunk_name(host, path, file, sizeof file);
    const char *outer = host->failing_file;
    host->failing_file = file;
    script_report_error(host, message);
    host->failing_file = outer;
}

char *script_file_error_text(ScriptHost *host, const char *path)
{
    char file[4096];
    script_files_chunk_name(host, path, file, sizeof file);
    int i = find_file_error(host, file);
    return i >= 0 && host->file_errors[i].text ? strdup(host->file_errors[i].text) : NULL;
}

void script_keep_file_error(ScriptHost *host, const char *path, const char *text)
{
    char file[4096];
    script_files_chunk_name(host, path, file, sizeof file);
    char *copy = panel_copy(text);
    if (copy) set_file_error(host, file, copy); /* (said on stderr and counted when it happened) */
}

void script_file_loaded(ScriptHost *host, const char *path)
{
    char file[4096];
    script_files_chunk_name(host, path, file, sizeof file);
    int i = find_file_error(host, file);
    if (i >= 0) forget_file_error(host, i);
    free(host->error);
    host->error = NULL;
    free(host->last_printed);
    host->last_printed = NULL;
}

static size_t first_line_length(const char *text)
{
    const char *nl = strchr(text, '\n');
    return nl ? (size_t)(nl - text) : strlen(text);
}

/* One error: as it was reported. Several: the first line of each (files that fail to load first,
 * then the latest runtime error), then the newest in full, traceback included. A scene that did
 * not load says so first. */
static const char *compose(ScriptHost *host)
{
    static const char FAILED[] = "the scene did not load: save the fix and it loads\n";
    int entries = host->file_error_count + (host->error ? 1 : 0);
    if (entries == 0) return NULL;
    if (entries == 1 && !host->failed) return host->error ? host->error : host->file_errors[0].text;
    const char *newest = host->error;
    int newest_serial = host->error ? host->error_serial_runtime : -1;
    size_t cap = sizeof FAILED + 2 + (host->error ? strlen(host->error) * 2 : 0);
    for (int i = 0; i < host->file_error_count; i++) {
        cap += strlen(host->file_errors[i].text) * 2 + 1;
        if (host->file_errors[i].serial > newest_serial) {
            newest_serial = host->file_errors[i].serial;
            newest = host->file_errors[i].text;
        }
    }
    char *text = realloc(host->error_panel, cap);
    if (!text) return newest;
    host->error_panel = text;
    size_t n = 0;
    if (host->failed) n += (size_t)snprintf(text + n, cap - n, "%s", FAILED);
    if (entries > 1) {
        for (int i = 0; i < host->file_error_count; i++) {
            const char *t = host->file_errors[i].text;
            n += (size_t)snprintf(text + n, cap - n, "%.*s\n", (int)first_line_length(t), t);
        }
        if (host->error)
            n += (size_t)snprintf(text + n, cap - n, "%.*s\n", (int)first_line_length(host->error), host->error);
        n += (size_t)snprintf(text + n, cap - n, "\n");
    }
    snprintf(text + n, cap - n, "%s", newest);
    return text;
}

const char *script_error(ScriptHost *host) { return script_brains_panel(host, compose(host)); }

int script_error_count(ScriptHost *host) { return host->error_count; }

void script_errors_free(ScriptHost *host)
{
    while (host->file_error_count > 0) forget_file_error(host, 0);
    free(host->file_errors);
    host->file_errors = NULL;
    host->file_error_capacity = 0;
    free(host->error);
    host->error = NULL;
    free(host->last_printed);
    host->last_printed = NULL;
    free(host->error_panel);
    host->error_panel = NULL;
}
