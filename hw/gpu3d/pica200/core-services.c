/*
 * What every PICA200 block may use of the core: the float formats of its
 * registers (Citra pica_types.h), the 3DS physical address map through
 * which every block reads and writes memory (3dbrew "Memory layout": VRAM
 * at 0x18000000, FCRAM at 0x20000000), the interrupt line and the display
 * notification. It calls no block, so the blocks stay below it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "pica200-int.h"

/* Citra pica_types.h: sign, exponent (bias 2^(E-1)-1), mantissa; no
 * denormals */
const G3DFloatFmt pica_f24 = { 7, 16, 63, G3D_FP_INFNAN | G3D_FP_EXP0_NORMAL };
const G3DFloatFmt pica_f31 = { 7, 23, 63, G3D_FP_INFNAN | G3D_FP_EXP0_NORMAL };
const G3DFloatFmt pica_f20 = { 7, 12, 63, G3D_FP_INFNAN | G3D_FP_EXP0_NORMAL };
const G3DFloatFmt pica_f16 = { 5, 10, 15, G3D_FP_INFNAN | G3D_FP_EXP0_NORMAL };

/* ---- the 3DS physical address map ------------------------------------- */

/*
 * 0x18000000 + x is VRAM offset x; 0x20000000 + x is guest physical x.
 * A range must lie inside one of them (and below 4 GiB: every address the
 * GPU's registers can hold is 32-bit).
 */
static const G3DMem *phys_route(Pica200Core *c, uint64_t addr, uint64_t len,
                                uint64_t *off)
{
    if (len > 0x100000000ull || addr > 0x100000000ull - len) {
        return NULL;
    }
    if (g3d_range_ok(addr, len, PICA200_PHYS_VRAM, c->cfg.vram_size)) {
        *off = addr - PICA200_PHYS_VRAM;
        return &c->cfg.vram;
    }
    if (addr >= PICA200_PHYS_FCRAM && c->cfg.sys.read) {
        *off = addr - PICA200_PHYS_FCRAM;
        return &c->cfg.sys;
    }
    return NULL;
}

static void *phys_map(void *opaque, uint64_t addr, uint64_t len, bool is_write)
{
    uint64_t off;
    const G3DMem *m = phys_route(opaque, addr, len, &off);

    return m ? g3d_mem_map(m, off, len, is_write) : NULL;
}

static bool phys_read(void *opaque, uint64_t addr, void *buf, uint64_t len)
{
    uint64_t off;
    const G3DMem *m = phys_route(opaque, addr, len, &off);

    return m && g3d_mem_read(m, off, buf, len);
}

static bool phys_write(void *opaque, uint64_t addr, const void *buf,
                       uint64_t len)
{
    uint64_t off;
    const G3DMem *m = phys_route(opaque, addr, len, &off);

    return m && m->write && g3d_mem_write(m, off, buf, len);
}

void pica_phys_init(Pica200Core *c)
{
    c->phys.opaque = c;
    c->phys.map = phys_map;
    c->phys.read = phys_read;
    c->phys.write = phys_write;
}

const G3DMem *pica200_scanout_mem(Pica200Core *c)
{
    return &c->phys;
}

bool pica_mem_read(Pica200Core *c, uint64_t addr, void *buf, uint64_t len)
{
    return g3d_mem_read(&c->phys, addr, buf, len);
}

void *pica_mem_map(Pica200Core *c, uint64_t addr, uint64_t len, bool write)
{
    return g3d_mem_map(&c->phys, addr, len, write);
}

/* ---- interrupts and display --------------------------------------------- */

bool pica_irq_wanted(Pica200Core *c)
{
    return c->irq_stat != 0 ||
           (c->psc[0].control & R_PSC0_CONTROL_FINISHED_MASK) ||
           (c->psc[1].control & R_PSC0_CONTROL_FINISHED_MASK) ||
           (c->ppf_control & R_PPF_CONTROL_FINISHED_MASK);
}

void pica_update_irq(Pica200Core *c)
{
    bool level = pica_irq_wanted(c);

    if (level != c->irq_level) {
        c->irq_level = level;
        if (c->cfg.hooks.irq_update) {
            c->cfg.hooks.irq_update(c->cfg.hooks.opaque);
        }
    }
}

void pica_display_changed(Pica200Core *c)
{
    if (c->cfg.hooks.display_update) {
        c->cfg.hooks.display_update(c->cfg.hooks.opaque);
    }
}

/* ---- the rasteriser's queue ----------------------------------------------- */

/* finish the queued triangles before anything changes what they read */
void pica_raster_flush(Pica200Core *c)
{
    g3d_raster_flush(c->raster);
    c->queued_tris = 0;
    c->state_bytes = 0;
    /* the snapshot lived in the rasteriser's arena: build a new one next time */
    c->rs = NULL;
}

/* ---- the command list's control ------------------------------------------- */

/*
 * A write to GPUREG_CMDBUF_JUMPn (regs.c) starts channel n's buffer, a
 * matching IRQ request with AUTOSTOP stops the list (3dbrew GPU/Internal
 * Registers); cmdlist.c runs it and stops it on a bad word.
 */
void pica_cmdlist_jump(Pica200Core *c, unsigned channel)
{
    PicaCmdProc *cp = &c->cp;
    uint64_t size = c->regs[GPUREG_CMDBUF_SIZE0 + channel] & 0x1FFFFF;
    uint64_t addr = c->regs[GPUREG_CMDBUF_ADDR0 + channel] & 0x1FFFFFFF;
    uint64_t start = addr << 3, end = start + ((size << 3) & ~(uint64_t)0xF);

    if (!cp->active) {
        cp->self_jump_logged = false;       /* a kick from BAR0 */
    } else if (start == cp->start && end == cp->end &&
               !cp->self_jump_logged) {
        /*
         * The GPU would run this list forever. So does the model, in
         * bounded steps: BAR0 stays usable and a reset stops it.
         */
        g3d_guest_error("pica200: command list at 0x%" G_GINT64_MODIFIER
                        "x jumps to itself; it runs until reset", start);
        cp->self_jump_logged = true;
    }
    cp->in_cmd = false;
    cp->finalized = false;
    cp->start = cp->pc = start;
    cp->end = end;
    cp->active = cp->end > cp->pc;
    if (!cp->active) {
        g3d_guest_error("pica200: command buffer %u is empty (size 0x%x)",
                        channel, (unsigned)size);
        return;
    }
    c->stats.lists++;
}

void pica_cmdlist_stop(Pica200Core *c)
{
    c->cp.active = false;
    c->cp.in_cmd = false;
}
