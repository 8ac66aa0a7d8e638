/*
 * What every R300 block may use of the core: the interrupt state after a
 * GEN_INT_STATUS or GEN_INT_CNTL change, and finishing the triangles queued
 * in the rasteriser, with the draws they belong to, before anything changes
 * what they read. It calls no block but the texture unit's release, so the
 * blocks stay below it.
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

void r300_draw_release(R300Core *c, R300DrawState *ds, bool write_back)
{
    unsigned i;

    for (i = 0; i < ds->nshadow; i++) {
        if (write_back &&
            !g3d_mem_write(&c->gpu, ds->shadow[i].addr, ds->shadow[i].buf,
                           ds->shadow[i].len)) {
            g3d_error(&c->errors, 0, 0,
                      "r300: surface 0x%08" G_GINT64_MODIFIER "x "
                      "left memory during the draw",
                      ds->shadow[i].addr);
        }
        g_free(ds->shadow[i].buf);
    }
    ds->nshadow = 0;
    for (i = 0; i < R300_TX_UNITS; i++) {
        r300_tx_release(&ds->tx[i]);
    }
}

void r300_flush_render(R300Core *c)
{
    int t, threads = g3d_raster_threads(c->raster);
    uint64_t passed = 0;

    if (c->draw_pending) {
        g3d_raster_flush(c->raster);
        c->draw_pending = false;
    }
    /* every queued draw is finished but one still taking triangles */
    while (c->ndraws > (c->draw_open ? 1u : 0u)) {
        r300_draw_release(c, &c->drawq[c->draw_head], true);
        c->draw_head = (c->draw_head + 1) % R300_DRAW_QUEUE;
        c->ndraws--;
    }
    for (t = 0; t < threads; t++) {
        passed += c->zpass_thread[t * R300_COUNTER_STRIDE];
        c->zpass_thread[t * R300_COUNTER_STRIDE] = 0;
    }
    /* all samples are counted by pipe 0 [R3xx 3D ref. §1.11 ZB, EXT note] */
    c->zpass[0] += (uint32_t)passed;
}
