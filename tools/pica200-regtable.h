/*
 * The internal-register coverage table of docs/pica200-3d.md, made from the
 * core's own bookkeeping (pica200_reg_info): one line per named register,
 * placeholder runs folded into ranges. Used by the pica200-regtable tool and
 * by the test that keeps the document in step with the core.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef PICA200_REGTABLE_H
#define PICA200_REGTABLE_H

#include <glib.h>

#include "pica200/pica200.h"

static inline const char *pica200_status_text(Pica200RegStatus s)
{
    switch (s) {
    case PICA200_REG_MODELLED: return "modelled";
    case PICA200_REG_STORED: return "not yet (stored, read back)";
    default: return "stored only (no known function)";
    }
}

/* the table's lines, each ending in '\n', as one string (g_free it) */
static inline char *pica200_regtable(void)
{
    GString *s = g_string_new("| ID | Register | Status | Block |\n|---|---|---|---|\n");
    unsigned id = 0;

    while (id < 0x300) {
        const Pica200RegInfo *r = pica200_reg_info(id);
        if (r->name) {
            g_string_append_printf(s, "| 0x%03X | %s | %s | %s |\n", id, r->name,
                                   pica200_status_text(r->status),
                                   r->block ? r->block : "");
            id++;
        } else {
            unsigned end = id;
            while (end + 1 < 0x300 && !pica200_reg_info(end + 1)->name) {
                end++;
            }
            if (end == id) {
                g_string_append_printf(s, "| 0x%03X | GPUREG_%04X | %s | |\n", id,
                                       id, pica200_status_text(r->status));
            } else {
                g_string_append_printf(s, "| 0x%03X-0x%03X | GPUREG_%04X-%04X | %s | |\n",
                                       id, end, id, end,
                                       pica200_status_text(r->status));
            }
            id = end + 1;
        }
    }
    return g_string_free(s, FALSE);
}

#endif
