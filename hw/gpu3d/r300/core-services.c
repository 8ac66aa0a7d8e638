/*
 * What every R300 block may use of the core: the interrupt state after a
 * GEN_INT_STATUS or GEN_INT_CNTL change, and finishing the triangles queued
 * in the rasteriser before anything changes what they read. It calls no
 * block, so the blocks stay below it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300-int.h"

void r300_update_irq(R300Core *c)
{
    bool level = R300_REG(c, A_GEN_INT_STATUS) & R300_REG(c, A_GEN_INT_CNTL) &
                 R300_GEN_INT_SOURCES;

    if (level != c->irq) {
        c->irq = level;
        if (c->cfg.hooks.irq_update) {
            c->cfg.hooks.irq_update(c->cfg.hooks.opaque);
        }
    }
}

void *r300_core_opaque(R300Core *c)
{
    return c->cfg.hooks.opaque;
}

void r300_flush_render(R300Core *c)
{
    if (c->draw_pending) {
        g3d_raster_flush(c->raster);
        c->draw_pending = false;
    }
}
