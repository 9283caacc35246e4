/* SPDX-License-Identifier: MIT */
/* test_runtime_keys.c - the key table (src/runtime/keys.c) is the one list of the program's keys:
 * its rows hold together (each overlay once, no key twice, short help), input finds every row by
 * its keys, --overlays and --help come from it, and the documentation's key tables (docs/runtime.md,
 * and any other file with the marker line) say the same thing row for row: key, what it does and
 * the --overlays name. Run from the repository's root (make test does). */
#include "test_support.h"

#include <stdlib.h>

#include "keys.h"
#include "options.h"

/* The line before a documented key table; the header and separator rows follow it. */
#define KEY_TABLE_MARKER "<!-- key table:"
/* Files that must hold a key table; and files that may (checked when they do). */
static const char *const REQUIRED_DOCS[] = {"docs/runtime.md"};
static const char *const OTHER_DOCS[] = {"README.md", "docs/demos.md", "docs/rendering.md", "docs/lua-api.md"};

enum { MAX_ROWS = 64, CELL = 256 };

typedef struct DocRow {
    char cells[3][CELL]; /* key, what it does, --overlays name (empty when the table has no such column) */
    int line;
} DocRow;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

/* One markdown cell, trimmed, with its code spans' backticks removed (`.` is the key "."). */
static void clean_cell(const char *from, size_t len, char *out)
{
    while (len > 0 && (*from == ' ' || *from == '\t')) from++, len--;
    while (len > 0 && (from[len - 1] == ' ' || from[len - 1] == '\t')) len--;
    size_t n = 0;
    for (size_t i = 0; i < len && n + 1 < CELL; i++)
        if (from[i] != '`') out[n++] = from[i];
    out[n] = '\0';
}

/* The rows of the key table after the marker in `text`; -1 when there is no marker. */
static int doc_rows(const char *path, const char *text, DocRow *rows, int max)
{
    const char *marker = strstr(text, KEY_TABLE_MARKER);
    if (!marker) return -1;
    int line = 1;
    for (const char *p = text; p < marker; p++) line += *p == '\n';
    const char *p = strchr(marker, '\n');
    int n = 0, seen = 0; /* rows seen, the header and separator included */
    while (p && p[1] == '|') {
        p++;
        line++;
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (seen++ >= 2) { /* past the header and the |---| row */
            assert_true(n < max);
            DocRow *r = &rows[n++];
            memset(r, 0, sizeof *r);
            r->line = line;
            const char *cell = p + 1; /* after the leading | */
            for (int c = 0; c < 3; c++) {
                const char *bar = memchr(cell, '|', len - (size_t)(cell - p));
                if (!bar) break;
                clean_cell(cell, (size_t)(bar - cell), r->cells[c]);
                cell = bar + 1;
            }
        }
        p = end;
    }
    if (seen < 3) fail_msg("%s:%d: the key table after the marker has no rows", path, line);
    return n;
}

/* Every row of the key table in `path` against keys.c; `required`: the file must have one. */
static void check_doc(const char *path, bool required)
{
    char *text = slurp(path);
    if (!text) fail_msg("cannot read %s (run from the repository's root)", path);
    static DocRow rows[MAX_ROWS];
    int n = doc_rows(path, text, rows, MAX_ROWS);
    free(text);
    if (n < 0) {
        if (required) fail_msg("%s has no key table (a line starting with '%s' before it)", path, KEY_TABLE_MARKER);
        return;
    }
    for (int i = 0; i < n || i < KEY_COUNT; i++) {
        if (i >= n) fail_msg("%s: the key table stops before %s (%s): add its row", path, KEYS[i].key, KEYS[i].help);
        const DocRow *r = &rows[i];
        if (i >= KEY_COUNT)
            fail_msg("%s:%d: the key table has a row for '%s' that src/runtime/keys.c does not", path, r->line,
                     r->cells[0]);
        const char *cli = KEYS[i].cli ? KEYS[i].cli : "";
        if (strcmp(r->cells[0], KEYS[i].key) != 0 || strcmp(r->cells[1], KEYS[i].help) != 0 ||
            strcmp(r->cells[2], cli) != 0)
            fail_msg("%s:%d: the key table says | %s | %s | %s |, src/runtime/keys.c row %d says | %s | %s | %s |",
                     path, r->line, r->cells[0], r->cells[1], r->cells[2], i + 1, KEYS[i].key, KEYS[i].help, cli);
    }
}

static void test_docs_key_tables_match_the_code_row_for_row(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof REQUIRED_DOCS / sizeof REQUIRED_DOCS[0]; i++) check_doc(REQUIRED_DOCS[i], true);
    for (size_t i = 0; i < sizeof OTHER_DOCS / sizeof OTHER_DOCS[0]; i++) check_doc(OTHER_DOCS[i], false);
}

static void test_docs_overlays_option_lists_the_table_names(void **state)
{
    (void)state;
    char expect[256] = "";
    for (int i = 0; i < KEY_COUNT; i++) {
        if (!KEYS[i].cli) continue;
        if (expect[0]) strcat(expect, ",");
        strcat(expect, KEYS[i].cli);
    }
    char *text = slurp("docs/runtime.md");
    assert_non_null(text);
    const char *row = strstr(text, "| `--overlays LIST` |");
    assert_non_null(row);
    const char *end = strchr(row, '\n');
    char line[512];
    snprintf(line, sizeof line, "%.*s", (int)(end - row), row);
    free(text);
    if (!strstr(line, expect)) fail_msg("docs/runtime.md's --overlays row should list `%s`: %s", expect, line);
}

static void test_rows_hold_together(void **state)
{
    (void)state;
    unsigned bits = 0;
    for (int i = 0; i < KEY_COUNT; i++) {
        const KeyBinding *b = &KEYS[i];
        assert_non_null(b->key);
        assert_non_null(b->help);
        assert_true(b->key[0] && b->help[0]);
        /* one short line each: the help box sits in the middle of a 1024-pixel window */
        if (strlen(b->key) > 12 || strlen(b->help) > 60) fail_msg("row %s: key or help too long for F1", b->key);
        bool overlay = b->action == KEY_OVERLAY;
        assert_int_equal(overlay, b->cli != NULL);
        assert_int_equal(overlay, b->overlay != 0);
        if (overlay) {
            assert_int_equal(b->overlay & (b->overlay - 1), 0); /* one bit */
            assert_int_equal(bits & b->overlay, 0);             /* each overlay once */
            bits |= b->overlay;
        }
        for (int j = 0; j < i; j++) {
            assert_true(strcmp(KEYS[j].key, b->key) != 0);
            if (overlay && KEYS[j].cli) assert_true(strcmp(KEYS[j].cli, b->cli) != 0);
            for (int k = 0; k < KEY_MAX_SYMS && b->sym[k]; k++)
                for (int m = 0; m < KEY_MAX_SYMS && KEYS[j].sym[m]; m++) assert_true(KEYS[j].sym[m] != b->sym[k]);
        }
    }
    /* every overlay render.h defines has its key */
    assert_int_equal(bits, STEER_OVERLAY_WANDER | STEER_OVERLAY_AVOIDANCE | STEER_OVERLAY_NEIGHBORS |
                               STEER_OVERLAY_FORCES | STEER_OVERLAY_STATES | STEER_OVERLAY_PATHS | STEER_OVERLAY_GRID |
                               STEER_OVERLAY_SENSES | STEER_OVERLAY_NAVIGATION);
    assert_non_null(keys_for_action(KEY_HELP));
}

static void test_input_finds_each_row_by_its_keys(void **state)
{
    (void)state;
    for (int i = 0; i < KEY_COUNT; i++)
        for (int k = 0; k < KEY_MAX_SYMS && KEYS[i].sym[k]; k++)
            assert_ptr_equal(keys_for_keycode(KEYS[i].sym[k], KEYS[i].ctrl), &KEYS[i]);
    assert_null(keys_for_keycode(SDLK_q, false)); /* without Ctrl, q is the scene's */
    assert_ptr_equal(keys_for_keycode(SDLK_SPACE, true), keys_for_action(KEY_PAUSE)); /* Ctrl does not matter */
    assert_null(keys_for_keycode(SDLK_a, false));
    assert_null(keys_for_keycode(SDLK_F10, false));
    assert_null(keys_for_keycode(0, false));
    assert_true(keys_for_action(KEY_STEP)->repeats); /* '.' held down steps on */
    assert_false(keys_for_action(KEY_PAUSE)->repeats);
}

static void test_overlays_option_reads_the_table_and_suggests(void **state)
{
    (void)state;
    char bad[64];
    unsigned bits;
    for (int i = 0; i < KEY_COUNT; i++) {
        if (!KEYS[i].cli) continue;
        assert_true(options_parse_overlays(KEYS[i].cli, &bits, bad, sizeof bad));
        assert_int_equal(bits, KEYS[i].overlay);
    }
    assert_true(options_parse_overlays("all", &bits, bad, sizeof bad));
    assert_int_equal(bits, ~0u);
    assert_false(options_parse_overlays("wander,neighbours", &bits, bad, sizeof bad));
    assert_string_equal(bad, "neighbours");
    char err[512];
    options_overlay_error("neighbours", err, sizeof err);
    assert_string_equal(err, "option --overlays: unknown overlay 'neighbours' (did you mean 'neighbors'?)");
    options_overlay_error("gird", err, sizeof err);
    assert_string_equal(err, "option --overlays: unknown overlay 'gird' (did you mean 'grid'?)");
    options_overlay_error("wings", err, sizeof err);
    assert_non_null(strstr(err, "unknown overlay 'wings' (known: all, "));
    for (int i = 0; i < KEY_COUNT; i++)
        if (KEYS[i].cli && !strstr(err, KEYS[i].cli)) fail_msg("'%s' missing from: %s", KEYS[i].cli, err);
}

static void test_help_lists_every_key_and_overlay_name(void **state)
{
    (void)state;
    char buf[16384] = "";
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    assert_non_null(f);
    options_print_help(f, "steer");
    fclose(f);
    for (int i = 0; i < KEY_COUNT; i++) {
        char row[256];
        snprintf(row, sizeof row, "%s", KEYS[i].key);
        const char *at = strstr(buf, "Keys in the window");
        assert_non_null(at);
        at = strstr(at, row);
        if (!at || !strstr(at, KEYS[i].help)) fail_msg("--help does not list %s (%s)", KEYS[i].key, KEYS[i].help);
        if (KEYS[i].cli) {
            snprintf(row, sizeof row, "%s (%s)", KEYS[i].cli, KEYS[i].key);
            if (!strstr(buf, row)) fail_msg("--help does not name the overlay %s", row);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_docs_key_tables_match_the_code_row_for_row),
        cmocka_unit_test(test_docs_overlays_option_lists_the_table_names),
        cmocka_unit_test(test_rows_hold_together),
        cmocka_unit_test(test_input_finds_each_row_by_its_keys),
        cmocka_unit_test(test_overlays_option_reads_the_table_and_suggests),
        cmocka_unit_test(test_help_lists_every_key_and_overlay_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
