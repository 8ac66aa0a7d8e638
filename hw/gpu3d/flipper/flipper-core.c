/*
 * flipper-gx core: the API of docs/architecture.md, BAR0 dispatch to the
 * register blocks, the core's life, time. What the blocks need of the core
 * (the interrupt line, finishing queued triangles) is core-services.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"
#include <limits.h>

static const FlipperBlock *const blocks[] = {
    &flipper_cp_block, &flipper_pe_block, &flipper_vi_block, &flipper_pi_block,
    &flipper_mi_block, &flipper_dsp_block, &flipper_di_block, &flipper_si_block,
    &flipper_exi_block, &flipper_ai_block,
};

static const FlipperBlock *find_block(uint32_t offset)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(blocks); i++) {
        if (offset >= blocks[i]->base &&
            offset - blocks[i]->base < blocks[i]->span) {
            return blocks[i];
        }
    }
    return NULL;
}

const FlipperRegRow *flipper_reg_row(uint32_t addr, const FlipperBlock **block)
{
    const FlipperBlock *b = find_block(addr);
    unsigned i;

    if (block) {
        *block = b;
    }
    for (i = 0; b && i < b->n_regs; i++) {
        const FlipperRegRow *r = &b->regs[i];
        uint32_t d = addr - r->addr;

        if (addr >= r->addr && d / r->stride < r->count &&
            d % r->stride < r->size) {
            return r;
        }
    }
    return NULL;
}

/* true (logged) if the register at addr is read-only */
static bool write_refused(uint32_t addr, uint64_t val)
{
    const FlipperBlock *b;
    const FlipperRegRow *r = flipper_reg_row(addr, &b);

    if (r && (r->flags & FLIPPER_REG_RO)) {
        g3d_guest_error("flipper: %s: write 0x%" G_GINT64_MODIFIER "x to "
                        "read-only %s", b->name, val, r->name);
        return true;
    }
    return false;
}

/* ---- time ---------------------------------------------------------------- */

void flipper_sync_time(FlipperCore *c)
{
    int64_t now;

    if (!c->cfg.clock_ns) {
        return;
    }
    now = c->cfg.clock_ns(c->cfg.hooks.opaque);
    if (now <= c->now_ns) {
        return;
    }
    c->now_ns = now;
    flipper_vi_advance(c, now);
    flipper_ai_advance(c, now);
    flipper_irq_changed(c);
}

int64_t flipper_next_event_ns(FlipperCore *c)
{
    int64_t vi, ai;

    flipper_sync_time(c);
    vi = flipper_vi_next_event(c);
    ai = flipper_ai_next_event(c);
    return vi < ai ? vi : ai;
}

/* ---- interrupts ---------------------------------------------------------- */

bool flipper_irq_level(FlipperCore *c)
{
    flipper_sync_time(c);
    return c->irq_level;
}

/*
 * The error latch's raise hook: a GP runtime error (bad FIFO data or
 * pointers) sets PI INTSR bit 0 every time, until the guest acknowledges it.
 */
static void gp_error_raise(void *opaque, bool first)
{
    FlipperCore *c = opaque;

    c->pi.error = PI_INT_ERROR;
    flipper_irq_changed(c);
}

/* ---- register access ----------------------------------------------------- */

static uint16_t block_read16(FlipperCore *c, const FlipperBlock *b,
                             uint32_t off)
{
    if (b->read16) {
        return b->read16(c, off);
    }
    return (uint16_t)(b->read32(c, off & ~3u) >> ((off & 2) ? 0 : 16));
}

static void block_write16(FlipperCore *c, const FlipperBlock *b, uint32_t off,
                          uint16_t val)
{
    if (write_refused(b->base + (b->write16 ? off : off & ~3u), val)) {
        return;
    }
    if (b->write16) {
        b->write16(c, off, val);
    } else if (off & 2) {
        b->write32(c, off & ~3u, val, 0x0000FFFF);
    } else {
        b->write32(c, off, (uint32_t)val << 16, 0xFFFF0000);
    }
}

uint64_t flipper_reg_read(FlipperCore *c, uint32_t offset, unsigned size)
{
    const FlipperBlock *b;
    uint32_t off;

    flipper_sync_time(c);
    if (offset >= FLIPPER_WGP_BASE &&
        offset - FLIPPER_WGP_BASE < FLIPPER_WGP_SIZE) {
        return 0;               /* the gather pipe is write-only */
    }
    b = find_block(offset);
    if (!b) {
        g3d_guest_error("flipper: read at unmapped BAR0 offset 0x%x", offset);
        return 0;
    }
    off = offset - b->base;
    if ((size != 2 && size != 4) || (off & (size - 1))) {
        g3d_guest_error("flipper: %s: %u-byte read at 0x%x not supported",
                        b->name, size, offset);
        return 0;
    }
    if (size == 2) {
        return block_read16(c, b, off);
    }
    if (b->read32) {
        return b->read32(c, off);
    }
    /* a 32-bit access to two 16-bit registers: big-endian bus order */
    return (uint32_t)b->read16(c, off) << 16 | b->read16(c, off + 2);
}

void flipper_reg_write(FlipperCore *c, uint32_t offset, uint64_t val,
                       unsigned size)
{
    const FlipperBlock *b;
    uint32_t off;

    if (offset >= FLIPPER_WGP_BASE &&
        offset - FLIPPER_WGP_BASE < FLIPPER_WGP_SIZE) {
        /*
         * a FIFO write reads no timed state (the VI and AI advance on the
         * next register access or timer): no clock read per word
         */
        if (size == 1 || size == 2 || size == 4 || size == 8) {
            flipper_pi_gather_write(c, val, size);
        } else {
            g3d_guest_error("flipper: %u-byte gather pipe write", size);
        }
        return;
    }
    flipper_sync_time(c);
    b = find_block(offset);
    if (!b) {
        g3d_guest_error("flipper: write 0x%" G_GINT64_MODIFIER
                        "x at unmapped BAR0 offset 0x%x", val, offset);
        return;
    }
    off = offset - b->base;
    if ((size != 2 && size != 4) || (off & (size - 1))) {
        g3d_guest_error("flipper: %s: %u-byte write at 0x%x not supported",
                        b->name, size, offset);
        return;
    }
    if (size == 2) {
        block_write16(c, b, off, (uint16_t)val);
    } else if (b->write32) {
        if (!write_refused(offset, val)) {
            b->write32(c, off, (uint32_t)val, 0xFFFFFFFF);
        }
    } else {
        block_write16(c, b, off, (uint16_t)(val >> 16));
        block_write16(c, b, off + 2, (uint16_t)val);
    }
    flipper_irq_changed(c);
}

/* ---- lifecycle ----------------------------------------------------------- */

FlipperCore *flipper_core_new(const FlipperCoreConfig *cfg)
{
    FlipperCore *c = g_new0(FlipperCore, 1);

    c->cfg = *cfg;
    c->blocks = blocks;
    c->n_blocks = G_N_ELEMENTS(blocks);
    g3d_error_init(&c->errors, NULL, gp_error_raise, c);
    c->mem1_size = cfg->vram_size ? cfg->vram_size : FLIPPER_MEM1_SIZE;
    c->threads = cfg->hooks.threads < 1 ? 1 : cfg->hooks.threads;
    c->raster = g3d_raster_new(c->threads);
    c->threads = g3d_raster_threads(c->raster);
    c->tstats = g_new0(FlipperThreadStats, c->threads);
    c->efb_color = g_new0(uint32_t, EFB_W * EFB_H);
    c->efb_depth = g_new0(uint32_t, EFB_W * EFB_H);
    flipper_core_reset(c);
    return c;
}

void flipper_core_free(FlipperCore *c)
{
    if (!c) {
        return;
    }
    g3d_raster_free(c->raster);
    flipper_dsp_free(c);
    g_free(c->tstats);
    g_free(c->efb_color);
    g_free(c->efb_depth);
    g_free(c);
}

void flipper_core_reset(FlipperCore *c)
{
    int t;

    /* drop queued triangles: they were drawn by the state being reset */
    flipper_flush(c);
    if (c->cfg.clock_ns) {
        c->now_ns = c->cfg.clock_ns(c->cfg.hooks.opaque);
    }
    flipper_gx_reset_regs(c);
    flipper_cp_reset(c);
    flipper_pi_reset(c);
    flipper_pe_reset(c);
    flipper_vi_reset(c);
    flipper_mi_reset(c);
    flipper_dsp_reset(c);
    flipper_di_reset(c);
    flipper_si_reset(c);
    flipper_exi_reset(c);
    flipper_ai_reset(c);
    memset(&c->su, 0, sizeof(c->su));
    /* ZFREEZE before any triangle: a flat plane at 1.0 (Dolphin's guess) */
    memset(&c->zfreeze, 0, sizeof(c->zfreeze));
    c->work_px = 0;
    c->zfreeze.f0 = 1.0f;
    memset(c->efb_color, 0, sizeof(uint32_t) * EFB_W * EFB_H);
    memset(c->efb_depth, 0, sizeof(uint32_t) * EFB_W * EFB_H);
    for (t = 0; t < c->threads; t++) {
        memset(&c->tstats[t], 0, sizeof(c->tstats[t]));
    }
    memset(c->tmem, 0, sizeof(c->tmem));
    g3d_error_reset(&c->errors);
    c->irq_level = false;
    flipper_irq_changed(c);
    if (c->cfg.hooks.display_update) {
        c->cfg.hooks.display_update(c->cfg.hooks.opaque);
    }
}

/* ---- work ---------------------------------------------------------------- */

/*
 * Whether a step that ends with the CP's work not done (its budget spent)
 * may leave its raster batch queued for the next step: a long draw of small
 * triangles is then rasterised in batches large enough to share between
 * the render threads (common/raster.c draws a batch of fewer than 4096
 * pixels on one thread), where a flush a step gave each a few hundred
 * triangles. What reads the drawn picture flushes first: a BP write (the
 * state the queued triangles use, EFB copies, tokens), EFB peeks and pokes,
 * the PE's bounding box, saving the state, reset, and the step that ends
 * the CP's work. A step then holds the core lock for at most the
 * FLIPPER_DEFER_* batch more than its own budget.
 */
#define FLIPPER_DEFER_TRIS 2048
#define FLIPPER_DEFER_PX (64 * 1024)

static bool flipper_defer_flush(FlipperCore *c)
{
    size_t tris;
    uint64_t px;

    g3d_raster_queued(c->raster, &tris, &px);
    return g3d_raster_threads(c->raster) > 1 && tris < FLIPPER_DEFER_TRIS &&
           px < FLIPPER_DEFER_PX;
}

bool flipper_core_work(FlipperCore *c, unsigned budget)
{
    bool more;

    flipper_sync_time(c);
    more = flipper_cp_work(c, &budget);
    if (!more || !flipper_defer_flush(c)) {
        flipper_flush(c);
    }
    flipper_irq_changed(c);
    return more;
}

bool flipper_gx_exec_budget(FlipperCore *c, const uint8_t *cmds, size_t len,
                            unsigned budget)
{
    GXDecoder d = { 0 };
    size_t pos = 0;

    while (pos < len && budget) {
        pos += flipper_gx_decode(c, &d, cmds + pos, len - pos, &budget,
                                 true, false);
        /* a CALL_DL stops decoding: run the list to its end */
        while (c->cp.dl_active && budget) {
            flipper_cp_dl_work(c, &budget);
        }
    }
    flipper_flush(c);
    flipper_irq_changed(c);
    return budget != 0;
}

void flipper_gx_exec(FlipperCore *c, const uint8_t *cmds, size_t len)
{
    flipper_gx_exec_budget(c, cmds, len, UINT_MAX);
}

bool flipper_scanout(FlipperCore *c, int head, G3DScanout *out)
{
    memset(out, 0, sizeof(*out));
    if (head != 0) {
        return false;
    }
    flipper_sync_time(c);
    return flipper_vi_scanout(c, out);
}

void flipper_core_stats(FlipperCore *c, FlipperStats *out)
{
    flipper_flush(c);           /* the pixels are counted when drawn */
    *out = c->stats;
}

const uint32_t *flipper_bp_regs(FlipperCore *c)
{
    return c->bp;
}

const uint32_t *flipper_cp_regs(FlipperCore *c)
{
    return c->cpr;
}

const uint32_t *flipper_xf_words(FlipperCore *c)
{
    return c->xf;
}

uint32_t flipper_efb_color(FlipperCore *c, int x, int y)
{
    if (x < 0 || y < 0 || x >= EFB_W || y >= EFB_H) {
        return 0;
    }
    return flipper_pe_get_color(c, x, y);
}

uint32_t flipper_efb_depth(FlipperCore *c, int x, int y)
{
    if (x < 0 || y < 0 || x >= EFB_W || y >= EFB_H) {
        return 0;
    }
    return c->efb_depth[y * EFB_W + x] & 0xFFFFFF;
}
