/*
 * docs/r300-3d.md carries the register coverage table the core's register
 * table produces: regenerate it with build/r300-regtable when this fails.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <string.h>

#include "r300-regtable.h"

static void test_doc_table(void)
{
    const char *src = g_getenv("GPU3D_SRCDIR");
    g_autofree char *path = g_build_filename(src ? src : ".", "docs",
                                             "r300-3d.md", NULL);
    g_autofree char *doc = NULL, *table = r300_regtable_markdown();
    const char *b, *e;

    g_assert_true(g_file_get_contents(path, &doc, NULL, NULL));
    b = strstr(doc, R300_REGTABLE_BEGIN);
    g_assert_nonnull(b);
    b += strlen(R300_REGTABLE_BEGIN) + 1;
    e = strstr(b, R300_REGTABLE_END);
    g_assert_nonnull(e);
    g_assert_cmpint(e - b, ==, strlen(table));
    g_assert_true(!memcmp(b, table, e - b));
    /* every register of the reference is in the table: 207 entries, with
     * VAP_VTX_AOS_ADDR split into its even and odd halves */
    g_assert_cmpuint(r300_reg_info_count, ==, 208);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/r300/doc/register-table", test_doc_table);
    return g_test_run();
}
