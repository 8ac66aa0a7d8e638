/*
 * pica200-3d core: the core API, BAR0's external registers (GPU busy, PSC,
 * PDC and PPF register storage), the interrupt line's level and the
 * bounded work loop. What the blocks use of the core (memory map, float
 * formats, interrupt update) is in core-services.c, below them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "pica200-int.h"

#include <string.h>

/* ---- interrupts --------------------------------------------------------- */

bool pica200_irq_level(Pica200Core *c)
{
    return c->irq_level;
}

/* ---- life cycle ----------------------------------------------------------- */

Pica200Core *pica200_core_new(const Pica200CoreConfig *cfg)
{
    Pica200Core *c = g_new0(Pica200Core, 1);

    c->cfg = *cfg;
    g3d_error_init(&c->errors, "pica200: ", NULL, NULL);
    if (!c->cfg.vram_size) {
        c->cfg.vram_size = PICA200_VRAM_SIZE;
    }
    pica_phys_init(c);
    c->raster = g3d_raster_new(cfg->hooks.threads < 1 ? 1 : cfg->hooks.threads);
    c->queue = g_array_new(FALSE, FALSE, sizeof(PicaQueuedWrite));
    c->sh[PICA_UNIT_VS].code_words = PICA_VSH_CODE_WORDS;
    c->sh[PICA_UNIT_GS].code_words = PICA_GSH_CODE_WORDS;
    /* no callbacks into the glue while it is still creating the core */
    c->constructing = true;
    pica200_core_reset(c);
    c->constructing = false;
    return c;
}

void pica200_core_free(Pica200Core *c)
{
    if (!c) {
        return;
    }
    g3d_raster_flush(c->raster);
    pica_pipeline_free(c);
    g3d_raster_free(c->raster);
    g_array_free(c->queue, TRUE);
    g_free(c);
}

void pica200_core_reset(Pica200Core *c)
{
    unsigned u;

    /* triangles already queued still point at live state: finish them */
    pica_raster_flush(c);
    memset(c->ext, 0, sizeof(c->ext));
    memset(c->psc, 0, sizeof(c->psc));
    memset(&c->ppf, 0, sizeof(c->ppf));
    c->ppf_control = 0;
    g_array_set_size(c->queue, 0);
    c->queue_head = 0;
    memset(&c->cp, 0, sizeof(c->cp));
    for (u = 0; u < 2; u++) {
        uint32_t words = c->sh[u].code_words;
        memset(&c->sh[u], 0, sizeof(c->sh[u]));
        c->sh[u].code_words = words;
    }
    pica_regs_reset(c);
    pica_pipeline_reset(c);
    g3d_error_reset(&c->errors);
    memset(&c->stats, 0, sizeof(c->stats));
    {
        G3DRasterStats rs;
        g3d_raster_stats(c->raster, &rs);
        c->samples_at_reset = rs.samples;
        c->filled_at_reset = rs.filled;
    }
    if (c->constructing) {
        c->irq_level = false;
        return;
    }
    c->irq_level = true;          /* force a callback to report "low" */
    pica_update_irq(c);
    pica_display_changed(c);
}

void pica200_stats(Pica200Core *c, Pica200Stats *out)
{
    G3DRasterStats rs;

    g3d_raster_stats(c->raster, &rs);
    *out = c->stats;
    out->fragments = rs.samples - c->samples_at_reset;
    out->fragments_filled = rs.filled - c->filled_at_reset;
}

/* ---- BAR0 ------------------------------------------------------------------ */

static uint32_t gpu_busy(Pica200Core *c)
{
    return (c->psc[0].busy ? R_GPU_BUSY_PSC0_MASK : 0) |
           (c->psc[1].busy ? R_GPU_BUSY_PSC1_MASK : 0) |
           (c->ppf.busy ? R_GPU_BUSY_PPF_MASK : 0) |
           (pica_p3d_busy(c) ? (uint32_t)R_GPU_BUSY_P3D_MASK : 0);
}

static uint32_t ext_read(Pica200Core *c, uint32_t off)
{
    unsigned n;

    switch (off) {
    case A_PICA_HW_ID:
        return 0;
    case A_GPU_BUSY:
        return gpu_busy(c);
    case A_PPF_CONTROL:
        return c->ppf_control | (c->ppf.busy ? R_PPF_CONTROL_START_MASK : 0);
    }
    if (off >= PICA_PSC_BASE(0) && off < PICA_PSC_BASE(2)) {
        PicaPsc *p;
        n = (off - PICA_PSC_BASE(0)) / 0x10;
        p = &c->psc[n];
        switch (off & 0xF) {
        case PICA_PSC_ADDR_START: return p->start;
        case PICA_PSC_ADDR_END: return p->end;
        case PICA_PSC_VALUE: return p->value;
        default:
            return p->control | (p->busy ? R_PSC0_CONTROL_START_MASK : 0);
        }
    }
    return c->ext[off / 4];
}

static void ext_write(Pica200Core *c, uint32_t off, uint32_t val, uint32_t mask)
{
    unsigned n;

    if (off >= PICA_PSC_BASE(0) && off < PICA_PSC_BASE(2)) {
        PicaPsc *p;
        n = (off - PICA_PSC_BASE(0)) / 0x10;
        p = &c->psc[n];
        switch (off & 0xF) {
        case PICA_PSC_ADDR_START:
            /* 16-byte aligned (3Beans write mask 0x1FFFFFFE) */
            p->start = (p->start & ~mask) | (val & mask & 0x1FFFFFFE);
            return;
        case PICA_PSC_ADDR_END:
            p->end = (p->end & ~mask) | (val & mask & 0x1FFFFFFE);
            return;
        case PICA_PSC_VALUE:
            p->value = (p->value & ~mask) | (val & mask);
            return;
        default: {
            uint32_t keep = 0x001F0300;   /* width and unknown b16-20 */
            p->control = (p->control & ~(mask & keep)) | (val & mask & keep);
            /* the finished bit can be cleared, not set */
            if ((mask & R_PSC0_CONTROL_FINISHED_MASK) &&
                !(val & R_PSC0_CONTROL_FINISHED_MASK)) {
                p->control &= ~R_PSC0_CONTROL_FINISHED_MASK;
            }
            if (mask & val & R_PSC0_CONTROL_START_MASK) {
                pica_psc_start(c, n);
            }
            pica_update_irq(c);
            return;
        }
        }
    }
    switch (off) {
    case A_PICA_HW_ID:
    case A_GPU_BUSY:
        g3d_guest_error("pica200: write 0x%x to read-only register 0x%x",
                        val, off);
        return;
    case A_PPF_CONTROL:
        if ((mask & R_PPF_CONTROL_FINISHED_MASK) &&
            !(val & R_PPF_CONTROL_FINISHED_MASK)) {
            c->ppf_control &= ~R_PPF_CONTROL_FINISHED_MASK;
        }
        if (mask & val & R_PPF_CONTROL_START_MASK) {
            pica_ppf_start(c);
        }
        pica_update_irq(c);
        return;
    }
    c->ext[off / 4] = (c->ext[off / 4] & ~mask) | (val & mask);
    if (off >= PICA_PDC_BASE(0) && off < PICA_PDC_BASE(2)) {
        pica_display_changed(c);
    }
}

/* internal-register writes that start heavy work wait for pica200_core_work */
static bool heavy_trigger(Pica200Core *c, uint32_t id)
{
    switch (id) {
    case GPUREG_DRAWARRAYS:
    case GPUREG_DRAWELEMENTS:
    case GPUREG_CMDBUF_JUMP0:
    case GPUREG_CMDBUF_JUMP1:
    case GPUREG_FRAMEBUFFER_FLUSH:
    case GPUREG_FRAMEBUFFER_INVALIDATE:
        return true;
    case GPUREG_FIXEDATTRIB_DATA0:
    case GPUREG_FIXEDATTRIB_DATA1:
    case GPUREG_FIXEDATTRIB_DATA2:
        /* immediate-mode data runs the vertex shader and draws */
        return c->fixed_index == PICA_FIXEDATTRIB_IMMEDIATE;
    }
    return false;
}

static void internal_write(Pica200Core *c, uint32_t id, uint32_t val,
                           uint32_t mask)
{
    /*
     * Writes are executed in the order the guest issued them: behind a
     * running list, a draw, or writes already waiting.
     */
    if (pica_p3d_busy(c) || heavy_trigger(c, id)) {
        PicaQueuedWrite w = { id, val, mask };
        if (c->queue->len - c->queue_head >= PICA_QUEUE_MAX) {
            g3d_guest_error("pica200: more than %u register writes waiting "
                            "for the command processor; dropped 0x%03x",
                            PICA_QUEUE_MAX, id);
            return;
        }
        g_array_append_val(c->queue, w);
        return;
    }
    pica_reg_write(c, id, val, mask);
}

static uint32_t access_mask(uint32_t off, unsigned size)
{
    unsigned shift = (off & 3) * 8;

    switch (size) {
    case 1: return 0xFFu << shift;
    case 2: return 0xFFFFu << shift;
    default: return 0xFFFFFFFFu;
    }
}

static uint32_t read32(Pica200Core *c, uint32_t off)
{
    if (off < PICA_INTERNAL_BASE) {
        return ext_read(c, off);
    }
    if (off < PICA_INTERNAL_OFFSET(PICA_INTERNAL_COUNT)) {
        return pica_reg_read(c, (off - PICA_INTERNAL_BASE) / 4);
    }
    return 0;
}

static void write32(Pica200Core *c, uint32_t off, uint32_t val, uint32_t mask)
{
    if (off < PICA_INTERNAL_BASE) {
        ext_write(c, off, val, mask);
    } else if (off < PICA_INTERNAL_OFFSET(PICA_INTERNAL_COUNT)) {
        internal_write(c, (off - PICA_INTERNAL_BASE) / 4, val, mask);
    } else {
        g3d_guest_error("pica200: write 0x%x to unassigned BAR0 offset 0x%x",
                        val, off);
    }
}

static bool access_ok(uint32_t offset, unsigned size)
{
    if ((size != 1 && size != 2 && size != 4 && size != 8) ||
        (offset & (size - 1)) || offset > PICA200_BAR0_SIZE - size) {
        g3d_guest_error("pica200: bad BAR0 access of %u bytes at 0x%x",
                        size, offset);
        return false;
    }
    return true;
}

uint64_t pica200_reg_read(Pica200Core *c, uint32_t offset, unsigned size)
{
    uint32_t v;

    if (!access_ok(offset, size)) {
        return 0;
    }
    if (size == 8) {
        return read32(c, offset) | (uint64_t)read32(c, offset + 4) << 32;
    }
    v = read32(c, offset & ~3u) >> ((offset & 3) * 8);
    return size == 4 ? v : v & (size == 2 ? 0xFFFF : 0xFF);
}

void pica200_reg_write(Pica200Core *c, uint32_t offset, uint64_t val,
                       unsigned size)
{
    if (!access_ok(offset, size)) {
        return;
    }
    if (size == 8) {
        write32(c, offset, (uint32_t)val, 0xFFFFFFFF);
        write32(c, offset + 4, (uint32_t)(val >> 32), 0xFFFFFFFF);
        return;
    }
    write32(c, offset & ~3u, (uint32_t)val << ((offset & 3) * 8),
            access_mask(offset, size));
}

/* ---- work ------------------------------------------------------------------ */

static bool queue_step(Pica200Core *c)
{
    PicaQueuedWrite w;

    if (c->queue_head >= c->queue->len) {
        return false;
    }
    w = g_array_index(c->queue, PicaQueuedWrite, c->queue_head++);
    if (c->queue_head == c->queue->len) {
        g_array_set_size(c->queue, 0);
        c->queue_head = 0;
    }
    pica_reg_write(c, w.id, w.value, w.mask);
    c->budget_used++;
    return true;
}

bool pica200_core_work(Pica200Core *c, unsigned budget)
{
    bool pending;
    unsigned n;

    if (budget == 0) {
        budget = 1;
    }
    c->budget_used = 0;
    for (n = 0; n < 2; n++) {
        if (c->psc[n].busy) {
            pica_psc_step(c, n, budget);
        }
    }
    if (c->ppf.busy && c->budget_used < budget) {
        pica_ppf_step(c, budget);
    }
    while (c->budget_used < budget && !g3d_yield()) {
        if (g3d_step_end()) {
            break;              /* the state is being saved: go on later */
        }
        if (c->draw.active) {
            pica_draw_step(c, budget);
        } else if (c->cp.active) {
            pica_cmdlist_step(c, budget);
        } else if (!queue_step(c)) {
            break;
        }
    }
    /* what was drawn is in memory before anyone looks (scanout, CPU, PPF) */
    pica_raster_flush(c);
    pica_update_irq(c);
    pending = c->psc[0].busy || c->psc[1].busy || c->ppf.busy ||
              pica_p3d_busy(c);
    return pending;
}

bool pica200_scanout(Pica200Core *c, int head, G3DScanout *out)
{
    return pica_pdc_scanout(c, head, out);
}
