/*
 * What every flipper-gx block may use of the core: the PI interrupt cause
 * and line after a block's state changed, and finishing the triangles queued
 * in the rasteriser before anything reads or changes what they use. It calls
 * no block (the blocks' cause bits come through their FlipperBlock.intsr), so
 * the blocks stay above it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"
#include <limits.h>

/*
 * INTSR is level-driven, as Dolphin models it (YAGCD §5.4 PI;
 * docs/flipper-gx.md decisions): each bit is its device's interrupt state,
 * acknowledged at the device. Only the GP error bit is latched here (w1c). Bit
 * 16 reads 1: reset switch not pressed.
 */
uint32_t flipper_pi_intsr(FlipperCore *c)
{
    uint32_t v = c->pi.error | PI_INTSR_RSWST;
    unsigned i;

    for (i = 0; i < c->n_blocks; i++) {
        if (c->blocks[i]->intsr) {
            v |= c->blocks[i]->intsr(c);
        }
    }
    return v;
}

bool flipper_irq_wanted(FlipperCore *c)
{
    return (flipper_pi_intsr(c) & c->pi.intmr & PI_INT_MASKABLE) != 0;
}

void flipper_irq_changed(FlipperCore *c)
{
    bool level = flipper_irq_wanted(c);

    if (level != c->irq_level) {
        c->irq_level = level;
        if (c->cfg.hooks.irq_update) {
            c->cfg.hooks.irq_update(c->cfg.hooks.opaque);
        }
    }
}

void flipper_flush(FlipperCore *c)
{
    int t;

    g3d_raster_flush(c->raster);
    for (t = 0; t < c->threads; t++) {
        FlipperThreadStats *s = &c->tstats[t];

        c->stats.pixels += s->pixels;
        s->pixels = 0;
        if (s->bbox[0] <= s->bbox[1]) {
            int *b = c->pe.bbox;
            b[0] = MIN(b[0], s->bbox[0]);
            b[1] = MAX(b[1], s->bbox[1]);
            b[2] = MIN(b[2], s->bbox[2]);
            b[3] = MAX(b[3], s->bbox[3]);
        }
        s->bbox[0] = s->bbox[2] = INT_MAX;
        s->bbox[1] = s->bbox[3] = INT_MIN;
    }
}
