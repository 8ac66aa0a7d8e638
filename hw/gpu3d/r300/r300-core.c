/*
 * R300 engine core: its life cycle and the interrupt line. The register BAR
 * is regs.c, what every block may use of the core core-services.c, the
 * per-draw snapshot draw-state.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300-int.h"

#include <string.h>

R300Core *r300_core_new(const R300CoreConfig *cfg)
{
    R300Core *c = g_new0(R300Core, 1);
    int threads = cfg->hooks.threads > 0 ? cfg->hooks.threads : 1;

    c->cfg = *cfg;
    g3d_error_init(&c->errors, NULL, NULL, NULL);
    c->raster = g3d_raster_new(threads);
    c->zpass_thread = g_new0(uint64_t, threads * R300_COUNTER_STRIDE);
    c->cp_buf = g_new(uint32_t, 1u << 14);
    r300_mc_init(c);
    r300_core_reset(c);
    return c;
}

void r300_core_free(R300Core *c)
{
    if (!c) {
        return;
    }
    r300_vap_free(c);           /* before the raster: it counts the caches */
    g3d_raster_free(c->raster);
    for (; c->ndraws; c->ndraws--) {
        r300_draw_release(c, &c->drawq[c->draw_head], false);
        c->draw_head = (c->draw_head + 1) % R300_DRAW_QUEUE;
    }
    g_free(c->zpass_thread);
    g_free(c->cp_buf);
    g_free(c->port_data);
    g_free(c);
}

void r300_core_reset(R300Core *c)
{
    r300_flush_render(c);
    g3d_error_reset(&c->errors);
    r300_regs_reset(c);
    r300_pll_reset(c);
    r300_crtc_reset(c);
    r300_cp_reset(c);
    memset(c->pvs_vmem, 0, sizeof(c->pvs_vmem));
    memset(c->pvs_loaded, 0, sizeof(c->pvs_loaded));
    memset(c->hiz_ram, 0, sizeof(c->hiz_ram));
    memset(c->zmask_ram, 0, sizeof(c->zmask_ram));
    memset(c->cmask_ram, 0, sizeof(c->cmask_ram));
    c->pvs_upload = 0;
    c->port_need = 0;
    c->zpass[0] = c->zpass[1] = 0;
    r300_update_irq(c);
}

bool r300_core_work(R300Core *c, unsigned budget)
{
    return r300_cp_work(c, budget);
}

bool r300_irq_level(R300Core *c)
{
    return c->irq;
}
