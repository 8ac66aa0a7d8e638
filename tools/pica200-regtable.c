/*
 * pica200-regtable: print the internal-register coverage table that
 * docs/pica200-3d.md carries (Markdown), from the core's bookkeeping.
 *
 *   pica200-regtable > table.md
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>

#include "pica200-regtable.h"

int main(void)
{
    char *t = pica200_regtable();
    unsigned id, n[3] = { 0, 0, 0 };

    fputs(t, stdout);
    for (id = 0; id < 0x300; id++) {
        n[pica200_reg_info(id)->status]++;
    }
    printf("\n%u modelled, %u not yet (stored), %u placeholders (stored only); "
           "768 in all.\n", n[PICA200_REG_MODELLED], n[PICA200_REG_STORED],
           n[PICA200_REG_UNNAMED]);
    g_free(t);
    return 0;
}
