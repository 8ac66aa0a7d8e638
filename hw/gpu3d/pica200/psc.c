/*
 * The memory fill units "PSC0" and "PSC1" (3dbrew GPU/External Registers,
 * 3dbrew GPU/External Registers): fill [start, end) (8-byte units, 16-byte
 * aligned) with a 16-, 24- or 32-bit pattern, little-endian, in bounded chunks.
 * Setting CONTROL b0 starts a fill (restarting one in progress); when it is
 * done b0 clears, b1 (finished) sets and the interrupt line rises until the
 * guest clears b1.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "pica200-int.h"

#include <string.h>

#define PSC_CHUNK 4096u              /* bytes per budget unit */

static void finish(Pica200Core *c, PicaPsc *p)
{
    p->busy = false;
    p->control |= R_PSC0_CONTROL_FINISHED_MASK;
    pica_update_irq(c);
    pica_display_changed(c);
}

void pica_psc_start(Pica200Core *c, unsigned n)
{
    PicaPsc *p = &c->psc[n];

    p->pos = (uint64_t)p->start << 3;
    p->stop = (uint64_t)p->end << 3;
    p->busy = true;
    if (p->stop < p->pos) {
        g3d_guest_error("pica200: PSC%u fill end 0x%" G_GINT64_MODIFIER "x is "
                        "below its start 0x%" G_GINT64_MODIFIER "x; skipped",
                        n, p->stop, p->pos);
        finish(c, p);
        return;
    }
    if (p->stop > p->pos && !pica_mem_map(c, p->pos, p->stop - p->pos, true)) {
        g3d_guest_error("pica200: PSC%u fill 0x%" G_GINT64_MODIFIER "x-0x%"
                        G_GINT64_MODIFIER "x is outside memory; skipped", n,
                        p->pos, p->stop);
        finish(c, p);
    }
}

bool pica_psc_step(Pica200Core *c, unsigned n, unsigned budget)
{
    PicaPsc *p = &c->psc[n];
    unsigned width = G3D_FIELD_EX32(p->control, PSC0_CONTROL, WIDTH);
    unsigned psize = width == 2 ? 4 : width == 0 ? 2 : 3;
    uint64_t start = (uint64_t)p->start << 3;
    uint8_t pattern[4] = {
        p->value, p->value >> 8, p->value >> 16, p->value >> 24,
    };

    while (p->busy && c->budget_used < budget) {
        uint64_t len = MIN(p->stop - p->pos, PSC_CHUNK), i, done, k;
        uint8_t *dst;

        if (len == 0) {
            finish(c, p);
            break;
        }
        dst = pica_mem_map(c, p->pos, len, true);
        if (!dst) {
            g3d_guest_error("pica200: PSC%u fill lost its memory at 0x%"
                            G_GINT64_MODIFIER "x; stopped", n, p->pos);
            finish(c, p);
            break;
        }
        /*
         * One 12-byte period (a multiple of every pattern size) at the
         * right phase, then doubled: memcpy speed instead of a byte loop.
         */
        for (i = 0; i < MIN(len, 12); i++) {
            dst[i] = pattern[(p->pos - start + i) % psize];
        }
        for (done = i; done < len; done += k) {
            k = MIN(done, len - done);
            memcpy(dst + done, dst, k);
        }
        p->pos += len;
        c->budget_used++;
    }
    return p->busy;
}
