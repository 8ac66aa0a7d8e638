/*
 * Print the r300 register coverage table (see r300-regtable.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>

#include "r300-regtable.h"

int main(void)
{
    char *t = r300_regtable_markdown();

    printf("%s\n%s%s\n", R300_REGTABLE_BEGIN, t, R300_REGTABLE_END);
    g_free(t);
    return 0;
}
