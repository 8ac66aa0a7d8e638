/*
 * A host-side R300 for tests and benchmarks (r300-rig.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <string.h>

#include "r300-rig.h"

static void irq_update(void *opaque)
{
    R300Rig *d = opaque;
    d->irqs += r300_irq_level(d->core);
}

static int64_t rig_now(void *opaque)
{
    return ((R300Rig *)opaque)->now_ns;
}

R300Rig *r300_rig_new(int threads, uint32_t vram_size, unsigned ring_bufsz)
{
    R300Rig *d = g_new0(R300Rig, 1);
    R300CoreConfig cfg = { .vram_size = vram_size, .hooks.threads = threads,
                           .hooks.irq_update = irq_update, .now_ns = rig_now,
                           .hooks.opaque = d, .vga_monitor = true };

    d->vram = g_malloc0(vram_size);
    d->vram_size = vram_size;
    d->ring_bufsz = ring_bufsz;
    g3d_flat_mem_init(&cfg.vram, &d->flat, d->vram, 0, vram_size);
    g3d_flat_mem_init(&cfg.sys, &d->sysflat, d->sysram, 0, sizeof(d->sysram));
    d->core = r300_core_new(&cfg);
    return d;
}

void r300_rig_free(R300Rig *d)
{
    r300_core_free(d->core);
    g_free(d->vram);
    g_free(d);
}

uint32_t r300_rig_ring_size(const R300Rig *d)
{
    return 8u << d->ring_bufsz;
}

uint32_t r300_rig_wb_addr(const R300Rig *d)
{
    return r300_rig_ring_size(d);
}

void r300_rig_wr(R300Rig *d, uint32_t reg, uint32_t v)
{
    r300_reg_write(d->core, reg, v, 4);
}

uint32_t r300_rig_rd(R300Rig *d, uint32_t reg)
{
    return (uint32_t)r300_reg_read(d->core, reg, 4);
}

void r300_rig_ring_init(R300Rig *d)
{
    uint32_t seq[R300_RING_START_WRITES][2];
    unsigned i;

    r300_ring_start(seq, 0, d->ring_bufsz, r300_rig_wb_addr(d));
    for (i = 0; i < R300_RING_START_WRITES; i++) {
        r300_rig_wr(d, seq[i][0], seq[i][1]);
    }
}

void r300_rig_ring_run(R300Rig *d, const uint32_t *dw, uint32_t n)
{
    uint32_t dwords = r300_rig_ring_size(d) / 4;
    uint32_t wptr = r300_rig_rd(d, A_CP_RB_WPTR), i;
    bool busy = true;
    int guard;

    g_assert(n < dwords);
    for (i = 0; i < n; i++) {
        memcpy(d->vram + 4 * ((wptr + i) & (dwords - 1)), &dw[i], 4);
    }
    r300_rig_wr(d, A_CP_RB_WPTR, (wptr + n) & (dwords - 1));
    /* bounded: a test fails rather than hangs if the CP never goes idle */
    for (guard = 0; guard < 1000000 && busy; guard++) {
        busy = r300_core_work(d->core, 1024);
    }
    g_assert_false(busy);
}

void r300_rig_cmd_begin(R300Cmd *c, uint32_t *buf, uint32_t cap)
{
    c->buf = buf;
    c->n = 0;
    c->cap = cap;
    c->overflow = 0;
}
