/*
 * docs/pica200-3d.md carries the register coverage table exactly as the core
 * describes itself (tools/pica200-regtable.h); this keeps the two in step.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>

#include "pica200-regtable.h"

static void test_doc_table(void)
{
    const char *src = g_getenv("GPU3D_SRCDIR");
    char *path, *doc = NULL, *table = pica200_regtable();
    gchar **lines;
    unsigned i, n = 0;

    if (!src) {
        g_test_skip("GPU3D_SRCDIR not set");
        g_free(table);
        return;
    }
    path = g_build_filename(src, "docs", "pica200-3d.md", NULL);
    g_assert_true(g_file_get_contents(path, &doc, NULL, NULL));
    lines = g_strsplit(table, "\n", -1);
    for (i = 0; lines[i]; i++) {
        if (!*lines[i]) {
            continue;
        }
        if (!strstr(doc, lines[i])) {
            g_error("docs/pica200-3d.md lacks the table line \"%s\" "
                    "(regenerate it with build/pica200-regtable)", lines[i]);
        }
        n++;
    }
    g_assert_cmpuint(n, >, 400);
    g_strfreev(lines);
    g_free(table);
    g_free(doc);
    g_free(path);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/pica200/doc/register-table", test_doc_table);
    return g_test_run();
}
