/*
 * Glamo core: the 16 KiB register space, the generic block (chip id,
 * interrupts, clocks and resets), the 3D queue and the bounded work loop.
 *
 * The 3D engine is fed through a queue (EGSTATUSA's "3D queue", L2394):
 * writes that start work (EGFIRE, the parser fire, EGEND, EGPASEND) and
 * every 3D register write made while the engine is busy are queued, so the
 * engine sees all writes in the order the host or the command queue made
 * them. glamo_core_work() drains it in bounded steps.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "glamo-int.h"

#include <glib.h>
#include <string.h>


/* ---- helpers ------------------------------------------------------------ */

static void raise_irq(GlamoCore *c, uint16_t source)
{
    c->regs[A_GLAMO_IRQ_STATUS >> 1] |= source & GLAMO_IRQ_ALL;
    if (c->cfg.hooks.irq_update) {
        c->cfg.hooks.irq_update(c->cfg.hooks.opaque);
    }
}

bool glamo_irq_level(GlamoCore *c)
{
    return (c->regs[A_GLAMO_IRQ_STATUS >> 1] &
            c->regs[A_GLAMO_IRQ_ENABLE >> 1] & GLAMO_IRQ_ALL) != 0;
}

static bool clocks_running(const GlamoCore *c)
{
    uint16_t clk = c->regs[A_GLAMO_CLOCK_3D >> 1];

    return (clk & GLAMO_CLOCK_3D_RUN) == GLAMO_CLOCK_3D_RUN &&
           !(clk & (GLAMO_CLOCK_3D_FRONT_RESET | GLAMO_CLOCK_3D_BACK_RESET));
}

/* ---- the 3D engine's registers ----------------------------------------- */

static void reset_3d_regs(GlamoCore *c, bool front, bool back)
{
    uint32_t off;

    for (off = GLAMO_REGOFS_3D; off < GLAMO_REGEND_3D; off += 2) {
        if (glamo_is_front_reg(off) ? front : back) {
            c->regs[off >> 1] = glamo_reg_info(off).reset;
        }
    }
    if (back) {
        memset(c->tx1_palette, 0, sizeof(c->tx1_palette));
    }
    c->rs_dirty = true;
}

/* CLOCK_3D front/back reset: stop the engine's work, registers to reset */
static void reset_3d_engine(GlamoCore *c, bool front, bool back)
{
    glamo_flush(c);
    c->q_count = 0;
    c->q_head = 0;
    glamo_parser_reset(c);
    glamo_assembly_reset(c);
    reset_3d_regs(c, front, back);
    c->last_drawdir = false;
}

/* EGSETFIRE (2052h D[12:8], L2320-L2336): the register whose write fires */
static uint32_t setfire_register(const GlamoCore *c)
{
    static const uint16_t reg[32] = {
        [1] = A_RGPWa, [2] = A_RGPNZa, [3] = A_RGPDIFFa, [4] = A_RGPAa,
        [5] = A_RGPSPECa, [6] = A_RGPSFa, [8] = A_RGPUAa, [9] = A_RGPVAa,
        [10] = A_RGPMAa, [11] = A_RGPNAa, [12] = A_RGPUBa, [13] = A_RGPVBa,
        [14] = A_RGPMBa, [15] = A_RGPNBa, [16] = A_RGPPSIZE,
    };
    return reg[GLAMO_FIELD(c, EGPrim1, EGSETFIRE)];
}

/* a level base of a texture unit, "Reserved for" levels included */
static bool is_texture_base(uint32_t off)
{
    int n;

    for (n = 0; n < 2; n++) {
        uint32_t lbas = GLAMO_TX_BASE(n) + GLAMO_TX_LBAS;
        if (off >= lbas && off < GLAMO_TX_BASE(n) + GLAMO_TX_PITCH) {
            return true;
        }
    }
    return false;
}

/* a write reaching the engine, in order */
static void apply_3d(GlamoCore *c, uint32_t off, uint16_t val)
{
    const GlamoRegInfo ri = glamo_reg_info(off);
    uint32_t fire_reg;

    switch (ri.kind) {
    case GLAMO_RK_TRIGGER:
        c->regs[off >> 1] = val & ri.mask;
        switch (off) {
        case A_EGFIRE:
            glamo_fire_register_vertex(c);
            break;
        case A_MGBufCBMFire:
            glamo_parser_start(c, val & 3);
            break;
        case A_MGBufCMSFire:
            if ((val & 3) == GLAMO_CMS_INDEX || (val & 3) == GLAMO_CMS_PACKET) {
                g3d_unimp("glamo: MGBufCMSFire mode %u (AGP index/packet "
                          "mode) not modelled", val & 3);
            }
            break;
        case A_EGEND:
            /* end of list: both engines run dry (L4544-L4551) */
            glamo_assembly_reset(c);
            glamo_flush(c);
            break;
        default:            /* EGPASEND (23E2h, long form 23E4h) */
            glamo_parser_reset(c);
            glamo_assembly_reset(c);
            break;
        }
        return;
    case GLAMO_RK_RW:
    case GLAMO_RK_WO:
        break;
    default:
        return;
    }

    /* the pitch fields are A10..A1: more than 2046 bytes cannot be set;
     * bits just above them (reserved) are how a guest tries */
    if ((off == A_EGDST0SET || off == A_EGZSET || off == A_EGSTOP) &&
        (val & (off == A_EGSTOP ? 0x8c00 : 0xfc00))) {
        g3d_error(&c->errors, 0, 0,
                  "glamo: pitch 0x%x at 0x%04x above the 2046-byte "
                  "limit, surface disabled", val, off);
        /* an impossible pitch leaves the surface unusable until rewritten */
        c->regs[off >> 1] = val & ri.mask & ~0x03ff;
        c->rs_dirty = true;
        return;
    }
    if (c->raster_pending &&
        (off == A_EGDST0BAS || off == A_EGDST0BAS + 2 || is_texture_base(off))) {
        /* rendered pixels may be read as texels: finish them first */
        glamo_flush(c);
    }
    c->regs[off >> 1] = val & ri.mask;
    if (off >= A_EGEN0) {   /* the render state (and the front end) */
        c->rs_dirty = true;
    }
    fire_reg = setfire_register(c);
    if (fire_reg && off == fire_reg + 2) {
        glamo_fire_register_vertex(c);
    }
}

static void queue_push(GlamoCore *c, uint32_t off, uint16_t val)
{
    unsigned tail = (c->q_head + c->q_count) % GLAMO_QUEUE_SIZE;

    c->queue[tail].off = off;
    c->queue[tail].val = val;
    c->q_count++;
}

static void queue_pop_apply(GlamoCore *c)
{
    GlamoQueueEntry e = c->queue[c->q_head];

    c->q_head = (c->q_head + 1) % GLAMO_QUEUE_SIZE;
    c->q_count--;
    apply_3d(c, e.off, e.val);
}

static void write_3d(GlamoCore *c, uint32_t off, uint16_t val, bool from_cmdq)
{
    const GlamoRegInfo ri = glamo_reg_info(off);

    if (off >= GLAMO_TX1_PALETTE && off < GLAMO_TX1_PALETTE + 0x200) {
        /* host writes here are texture-1 palette writes (reference defect
         * GLAMO-12, docs/references.md) */
        c->tx1_palette[(off - GLAMO_TX1_PALETTE) >> 1] = val;
        c->rs_dirty = true;
        if (ri.kind == GLAMO_RK_RW) {
            c->regs[off >> 1] = val & ri.mask;
        }
        return;
    }
    if (ri.kind == GLAMO_RK_NONE || ri.kind == GLAMO_RK_RO) {
        return;
    }
    if (ri.kind != GLAMO_RK_TRIGGER && glamo_3d_idle(c)) {
        apply_3d(c, off, val);
        return;
    }
    if (glamo_3d_queue_full(c)) {
        /* a full queue holds the host bus until one entry is consumed */
        if (!from_cmdq && clocks_running(c)) {
            if (c->parser.active) {
                while (c->parser.active && !g3d_yield()) {
                    glamo_parser_step(c, 64);
                }
            }
            queue_pop_apply(c);
        } else {
            g3d_error(&c->errors, 0, 0,
                      "glamo: 3D queue full with the engine stopped, "
                      "write 0x%04x to 0x%04x dropped", val, off);
            return;
        }
    }
    queue_push(c, off, val);
}

static uint16_t read_3d(GlamoCore *c, uint32_t off)
{
    const GlamoRegInfo ri = glamo_reg_info(off);
    uint16_t v;

    switch (ri.kind) {
    case GLAMO_RK_NONE:
    case GLAMO_RK_WO:
        return 0;
    case GLAMO_RK_RO:
        break;
    case GLAMO_RK_TRIGGER:
        return 0;           /* EGFIRE reads EGSTATUSC, undefined: 0 */
    default:
        return c->regs[off >> 1];
    }
    switch (off) {
    case A_EGSTATUSA: {
        bool engine_idle = glamo_3d_idle(c);
        bool back_idle = c->raster_pending == 0 && !c->parser.active;
        v = 0;
        v |= engine_idle ? R_EGSTATUSA_EG3DIDLE_MASK |
                           R_EGSTATUSA_EG3dQidle_MASK : 0;
        v |= back_idle ? 0xfc : 0;    /* setup .. post engine */
        v |= c->parser.active ? 0 : R_EGSTATUSA_EGAGPCMIDLE_MASK;
        v |= c->last_drawdir ? R_EGSTATUSA_EGDRAWDIR_MASK : 0;
        return v;
    }
    case A_RGTDWNum:
        return c->parser.active ? (uint16_t)(c->parser.total - c->parser.next)
                                : 0;
    case A_RGTDWNum + 2:
        return c->parser.active ?
               (uint16_t)((c->parser.total - c->parser.next) >> 16) : 0;
    default:
        return 0;
    }
}

/* ---- the generic block -------------------------------------------------- */

static void write_generic(GlamoCore *c, uint32_t off, uint16_t val)
{
    uint16_t *r = &c->regs[off >> 1];

    switch (off) {
    case A_GLAMO_DEVICE_ID:
    case A_GLAMO_REVISION_ID:
    case A_GLAMO_IRQ_STATUS:
        return;
    case A_GLAMO_IRQ_ENABLE:
        *r = val & GLAMO_IRQ_ALL;
        break;
    case A_GLAMO_IRQ_SET:
        c->regs[A_GLAMO_IRQ_STATUS >> 1] |= val & GLAMO_IRQ_ALL;
        break;
    case A_GLAMO_IRQ_CLEAR:
        c->regs[A_GLAMO_IRQ_STATUS >> 1] &= ~val;
        break;
    case A_GLAMO_CLOCK_3D:
        *r = val;
        if (val & (GLAMO_CLOCK_3D_FRONT_RESET | GLAMO_CLOCK_3D_BACK_RESET)) {
            reset_3d_engine(c, val & GLAMO_CLOCK_3D_FRONT_RESET,
                            val & GLAMO_CLOCK_3D_BACK_RESET);
        }
        if (clocks_running(c)) {
            g3d_error_rearm(&c->errors, GLAMO_ONCE_CLOCK_STOPPED);
        }
        return;
    case A_GLAMO_CLOCK_2D:
        *r = val;
        if (val & GLAMO_CLOCK_2D_CQ_RESET) {
            glamo_cmdq_reset(c);
        }
        return;
    case A_GLAMO_CLOCK_LCD:
        *r = val;
        c->lcd_dirty = true;
        if (c->cfg.hooks.display_update) {
            c->cfg.hooks.display_update(c->cfg.hooks.opaque);
        }
        return;
    default:
        *r = val;
        return;
    }
    if (c->cfg.hooks.irq_update) {
        c->cfg.hooks.irq_update(c->cfg.hooks.opaque);
    }
}

static uint16_t read_generic(GlamoCore *c, uint32_t off)
{
    switch (off) {
    case A_GLAMO_DEVICE_ID:
        return GLAMO_CHIP_ID;
    case A_GLAMO_REVISION_ID:
        return GLAMO_CHIP_REVISION;
    case A_GLAMO_IRQ_SET:
    case A_GLAMO_IRQ_CLEAR:
        return 0;
    default:
        return c->regs[off >> 1];
    }
}

/* ---- dispatch ----------------------------------------------------------- */

static bool in_cmdq(uint32_t off)
{
    return off >= GLAMO_REGOFS_CMDQ && off < GLAMO_REGOFS_CMDQ + 0x80;
}

static bool in_lcd(uint32_t off)
{
    return off >= GLAMO_REGOFS_LCD && off < GLAMO_REGOFS_LCD + 0x300;
}

void glamo_write16(GlamoCore *c, uint32_t off, uint16_t val, bool from_cmdq)
{
    if (off < 0x0200) {
        write_generic(c, off, val);
    } else if (glamo_is_3d(off)) {
        write_3d(c, off, val, from_cmdq);
    } else if (in_cmdq(off)) {
        if (from_cmdq) {
            g3d_error(&c->errors, 0, 0,
                      "glamo: command queue packet writes its own "
                      "register 0x%04x, ignored", off);
            return;
        }
        glamo_cmdq_write(c, off, val);
    } else if (in_lcd(off)) {
        c->regs[off >> 1] = val;
        c->lcd_dirty = true;
        if (c->cfg.hooks.display_update) {
            c->cfg.hooks.display_update(c->cfg.hooks.opaque);
        }
    } else {
        /* blocks that are not modelled (host bus, memory, 2D, ...) keep
         * what is written so drivers' read-modify-writes work */
        c->regs[off >> 1] = val;
        if (off == A_GLAMO_2D_COMMAND3) {
            glamo_2d_start(c);
        }
    }
}

static uint16_t read16(GlamoCore *c, uint32_t off)
{
    if (off < 0x0200) {
        return read_generic(c, off);
    } else if (glamo_is_3d(off)) {
        return read_3d(c, off);
    } else if (in_cmdq(off)) {
        return glamo_cmdq_read(c, off);
    }
    return c->regs[off >> 1];
}

uint64_t glamo_reg_read(GlamoCore *c, uint32_t offset, unsigned size)
{
    if (offset >= GLAMO_REG_SIZE || size == 0 || size > 4 ||
        offset + size > GLAMO_REG_SIZE) {
        g3d_guest_error("glamo: read of %u bytes at 0x%x outside the "
                        "register space", size, offset);
        return 0;
    }
    if (size == 1) {
        return (read16(c, offset & ~1u) >> (8 * (offset & 1))) & 0xff;
    }
    if (offset & 1) {
        g3d_guest_error("glamo: unaligned %u-byte read at 0x%x", size, offset);
        return 0;
    }
    if (size == 4) {
        return read16(c, offset) | (uint32_t)read16(c, offset + 2) << 16;
    }
    return read16(c, offset);
}

void glamo_reg_write(GlamoCore *c, uint32_t offset, uint64_t val,
                     unsigned size)
{
    if (offset >= GLAMO_REG_SIZE || size == 0 || size > 4 ||
        offset + size > GLAMO_REG_SIZE) {
        g3d_guest_error("glamo: write of %u bytes at 0x%x outside the "
                        "register space", size, offset);
        return;
    }
    if (size == 1) {
        /* L410: a byte may be written alone; merge with what is stored */
        uint32_t a = offset & ~1u;
        uint16_t cur = c->regs[a >> 1];
        int sh = 8 * (offset & 1);
        cur = (cur & ~(0xff << sh)) | ((val & 0xff) << sh);
        glamo_write16(c, a, cur, false);
        return;
    }
    if (offset & 1) {
        g3d_guest_error("glamo: unaligned %u-byte write at 0x%x", size, offset);
        return;
    }
    glamo_write16(c, offset, (uint16_t)val, false);
    if (size == 4) {
        glamo_write16(c, offset + 2, (uint16_t)(val >> 16), false);
    }
}

/* ---- work loop ---------------------------------------------------------- */

bool glamo_core_work(GlamoCore *c, unsigned budget)
{
    bool run;

    while (budget--) {
        if (g3d_yield()) {
            return false;       /* reset or unplug */
        }
        if (g3d_step_end()) {
            return true;        /* the state is being saved: go on later */
        }
        run = clocks_running(c);
        if (run && c->parser.active) {
            /* a unit is 64 vertices; a run may take the units left */
            unsigned spent = glamo_front_run(c, budget + 1);
            if (spent) {
                budget -= MIN(budget, spent - 1);
            } else {
                glamo_parser_step(c, 64);
            }
            continue;
        }
        if (run && c->q_count) {
            queue_pop_apply(c);
            continue;
        }
        if (glamo_cmdq_pending(c) && glamo_cmdq_step(c, glamo_write16)) {
            continue;
        }
        if (run && c->raster_pending) {
            glamo_flush(c);
            continue;
        }
        break;
    }
    run = clocks_running(c);
    if (!run && !glamo_3d_idle(c) &&
        g3d_error_once(&c->errors, GLAMO_ONCE_CLOCK_STOPPED)) {
        g3d_guest_error("glamo: 3D work pending with the 3D clocks stopped "
                        "or the engine held in reset (CLOCK_3D 0x%04x)",
                        c->regs[A_GLAMO_CLOCK_3D >> 1]);
    }
    /* the command queue raises its interrupt when it runs dry */
    if (c->cmdq.was_busy && !glamo_cmdq_pending(c)) {
        uint16_t ctl = c->regs[A_GLAMO_CMDQ_CONTROL >> 1];
        c->cmdq.was_busy = false;
        if (((ctl >> GLAMO_CMDQ_CONTROL_IRQ_SHIFT) & 7) !=
            GLAMO_CMDQ_CONTROL_NO_IRQ) {
            raise_irq(c, GLAMO_IRQ_CMDQUEUE);
        }
    }
    if (run && !glamo_3d_idle(c)) {
        return true;
    }
    return glamo_cmdq_pending(c) && (run || glamo_3d_idle(c));
}

/* ---- life cycle --------------------------------------------------------- */

GlamoCore *glamo_core_new(const GlamoCoreConfig *cfg)
{
    GlamoCore *c = g_new0(GlamoCore, 1);

    c->cfg = *cfg;
    g3d_error_init(&c->errors, NULL, NULL, NULL);
    c->vram_size = cfg->vram_size ? cfg->vram_size : GLAMO_VRAM_SIZE;
    c->vram = g3d_mem_map(&c->cfg.vram, 0, c->vram_size, true);
    if (!c->vram) {
        g3d_guest_error("glamo: VRAM is not mappable, rendering disabled");
    }
    c->raster = g3d_raster_new(cfg->hooks.threads > 0 ? cfg->hooks.threads : 1);
    glamo_core_reset(c);
    return c;
}

void glamo_core_free(GlamoCore *c)
{
    if (!c) {
        return;
    }
    glamo_flush(c);
    glamo_front_free(c);
    g3d_raster_free(c->raster);
    g_free(c);
}

void glamo_core_reset(GlamoCore *c)
{
    glamo_flush(c);
    memset(c->regs, 0, sizeof(c->regs));
    reset_3d_engine(c, true, true);
    glamo_cmdq_reset(c);
    memset(&c->asmb, 0, sizeof(c->asmb));   /* the line stipple count too */
    g3d_error_rearm(&c->errors, GLAMO_ONCE_CLOCK_STOPPED);
    c->lcd_dirty = true;
    if (c->cfg.hooks.irq_update) {
        c->cfg.hooks.irq_update(c->cfg.hooks.opaque);
    }
}

void glamo_stats(GlamoCore *c, GlamoStats *out)
{
    *out = c->stats;
    out->errors = c->errors.count;
}

const G3DMem *glamo_scanout_mem(GlamoCore *c)
{
    return &c->cfg.vram;
}

bool glamo_scanout(GlamoCore *c, int head, G3DScanout *out)
{
    memset(out, 0, sizeof(*out));
    if (head != 0) {
        return false;
    }
    return glamo_lcd_scanout(c, out);
}
