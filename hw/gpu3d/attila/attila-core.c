/*
 * The attila-3d core: the device's BAR0 registers (ring, doorbell, status,
 * fences, interrupts, register file window) and the core's life (new, free,
 * reset, scanout). The command processor (command-processor.c) executes
 * what the ring holds.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"

#include <glib.h>

/* ---- errors ------------------------------------------------------------ */

/* The latch's raise hook: the first error sets STATUS.ERROR and INT.ERROR. */
static void error_raise(void *opaque, bool first)
{
    if (first) {
        attila_irq_raise(opaque, R_ATTILA_INT_ERROR_MASK);
    }
}

/* The latch's settle hook: a batch in flight reports its errors first. */
static void error_settle(void *opaque)
{
    AttilaCore *c = opaque;

    if (c->raster) {
        attila_raster_sync(c->raster);
    }
}

void attila_core_idle(AttilaCore *c)
{
    attila_raster_idle(c->raster);
}

/* ---- BAR0 ---------------------------------------------------------------- */

static uint32_t regfile_word(AttilaCore *c, uint32_t id, uint32_t idx,
                             unsigned k)
{
    const AttilaRegInfo *ri;

    if (id >= ATTILA_REG_LAST_REGISTER || k > 3) {
        return 0;
    }
    ri = &attila_reg_info[id];
    if (ri->type == ATTILA_RT_MARKER || idx >= ri->count) {
        return 0;
    }
    if (id == ATTILA_REG_STATUS) {
        return k == 0 ? c->gpu_status : 0;
    }
    return c->rf[id][ri->stored == 1 ? 0 : idx].u[k];
}

uint64_t attila_reg_read(AttilaCore *c, uint32_t offset, unsigned size)
{
    if (size != 4 || (offset & 3) || offset >= ATTILA_BAR0_SIZE) {
        g3d_guest_error("attila-3d: BAR0 read of %u bytes at 0x%x", size,
                        offset);
        return 0;
    }
    if (offset >= ATTILA_REGFILE) {
        uint32_t rel = offset - ATTILA_REGFILE;
        return regfile_word(c, rel / 16, 0, (rel % 16) / 4);
    }
    switch (offset) {
    case A_ATTILA_ID:
        return ATTILA_ID_VALUE;
    case A_ATTILA_VERSION:
        return ATTILA_VERSION_VALUE;
    case A_ATTILA_MEM_SIZE:
        return (uint32_t)MIN(c->cfg.vram_size, 0xffffffffu);
    case A_ATTILA_TILING:
        return ATTILA_TEX_BLOCK_DIM << R_ATTILA_TILING_TEX_BLOCK_SHIFT |
               ATTILA_TEX_SBLOCK_DIM << R_ATTILA_TILING_TEX_SBLOCK_SHIFT |
               2 << R_ATTILA_TILING_STAMP_SHIFT |
               8 << R_ATTILA_TILING_GEN_SHIFT |
               16 << R_ATTILA_TILING_SCAN_SHIFT |
               4u << R_ATTILA_TILING_OVERSCAN_SHIFT;
    case A_ATTILA_MAX_RECORD:
        return c->ring_size ? c->ring_size - 1 : 0;
    case A_ATTILA_STATUS: {
        /* a batch in flight (the pipeline) is work not yet done */
        bool idle = !c->in_record && !attila_raster_busy(c->raster) &&
                    (!c->ring_enable || c->ring_size == 0 ||
                     c->ring_read == c->ring_write);
        return (idle ? R_ATTILA_STATUS_IDLE_MASK : 0) |
               (c->errors.latched ? R_ATTILA_STATUS_ERROR_MASK : 0) |
               (c->ring_enable ? R_ATTILA_STATUS_RING_ON_MASK : 0) |
               c->gpu_status << R_ATTILA_STATUS_GPU_STATE_SHIFT;
    }
    case A_ATTILA_ERROR_COUNT:      return c->errors.count;
    case A_ATTILA_ERROR_CODE:       return c->errors.code;
    case A_ATTILA_ERROR_INFO:       return c->errors.info;
    case A_ATTILA_FRAME:            return c->frame;
    case A_ATTILA_RECORDS:          return c->records;
    case A_ATTILA_RING_BASE:        return c->ring_base;
    case A_ATTILA_RING_SIZE:        return c->ring_size;
    case A_ATTILA_RING_READ:        return c->ring_read;
    case A_ATTILA_RING_WRITE:       return c->ring_write;
    case A_ATTILA_RING_CONTROL:     return c->ring_enable;
    case A_ATTILA_SYSMEM_BASE_LO:   return (uint32_t)c->sysmem_base;
    case A_ATTILA_SYSMEM_BASE_HI:   return (uint32_t)(c->sysmem_base >> 32);
    case A_ATTILA_SYSMEM_SIZE:      return c->sysmem_size;
    case A_ATTILA_EVENT_COUNT:      return c->event_count;
    case A_ATTILA_LAST_EVENT:       return c->last_event;
    case A_ATTILA_FENCE:            return c->fence;
    case A_ATTILA_INT_STATUS:       return c->int_status;
    case A_ATTILA_INT_MASK:         return c->int_mask;
    case A_ATTILA_SCANOUT_ADDR:     return c->display.valid ? c->display.address : 0;
    case A_ATTILA_SCANOUT_SIZE:
        return c->display.valid ?
               (c->display.width | c->display.height << 16) : 0;
    case A_ATTILA_REGFILE_SELECT:   return c->regfile_select;
    case A_ATTILA_REGFILE_DATA0:
    case A_ATTILA_REGFILE_DATA1:
    case A_ATTILA_REGFILE_DATA2:
    case A_ATTILA_REGFILE_DATA3:
        return regfile_word(c,
                            G3D_FIELD_EX32(c->regfile_select, ATTILA_REGFILE_SELECT, ID),
                            G3D_FIELD_EX32(c->regfile_select, ATTILA_REGFILE_SELECT, INDEX),
                            (offset - A_ATTILA_REGFILE_DATA0) / 4);
    default:
        return 0;
    }
}

static void regfile_select(AttilaCore *c, uint32_t v)
{
    uint32_t id = G3D_FIELD_EX32(v, ATTILA_REGFILE_SELECT, ID);
    uint32_t idx = G3D_FIELD_EX32(v, ATTILA_REGFILE_SELECT, INDEX);

    c->regfile_select = v;
    if (id >= ATTILA_REG_LAST_REGISTER ||
        attila_reg_info[id].type == ATTILA_RT_MARKER ||
        idx >= attila_reg_info[id].count) {
        g3d_error(&c->errors, ATTILA_ERR_SUBINDEX, v,
                  "REGFILE_SELECT id %u index %u out of range", id, idx);
    }
}

void attila_reg_write(AttilaCore *c, uint32_t offset, uint64_t val64,
                      unsigned size)
{
    uint32_t val = (uint32_t)val64;

    if (size != 4 || (offset & 3) || offset >= ATTILA_BAR0_SIZE) {
        g3d_guest_error("attila-3d: BAR0 write of %u bytes at 0x%x", size,
                        offset);
        return;
    }
    /* a reset, an error clear, a new ring or memory window: after the
     * draws before it (the glue's writes come between work steps, which
     * end idle; a tool's may come right after a draw) */
    attila_core_idle(c);
    switch (offset) {
    case A_ATTILA_CONTROL:
        if (val & R_ATTILA_CONTROL_RESET_MASK) {
            attila_core_reset(c);
            return;
        }
        if (val & R_ATTILA_CONTROL_ERROR_CLEAR_MASK) {
            g3d_error_clear(&c->errors);
        }
        break;
    case A_ATTILA_RING_BASE:
        c->ring_base = val;
        c->ring_read = c->ring_write = 0;
        break;
    case A_ATTILA_RING_SIZE:
        if (val != 0 && (val < ATTILA_RING_MIN_SIZE || val > ATTILA_RING_MAX_SIZE)) {
            g3d_error(&c->errors, ATTILA_ERR_RING, offset,
                      "RING_SIZE %u out of range (%u .. %u)", val,
                      ATTILA_RING_MIN_SIZE, ATTILA_RING_MAX_SIZE);
            break;
        }
        c->ring_size = val;
        c->ring_read = c->ring_write = 0;
        break;
    case A_ATTILA_RING_WRITE:
        if (val >= c->ring_size) {
            g3d_error(&c->errors, ATTILA_ERR_RING, offset,
                      "RING_WRITE %u outside the %u-byte ring", val,
                      c->ring_size);
            break;
        }
        c->ring_write = val;
        break;
    case A_ATTILA_RING_CONTROL:
        c->ring_enable = val & R_ATTILA_RING_CONTROL_ENABLE_MASK;
        break;
    case A_ATTILA_DOORBELL:
        /* the glue's worker calls attila_core_work(); nothing to latch */
        break;
    case A_ATTILA_SYSMEM_BASE_LO:
        c->sysmem_base = (c->sysmem_base & ~0xffffffffull) | val;
        break;
    case A_ATTILA_SYSMEM_BASE_HI:
        c->sysmem_base = (c->sysmem_base & 0xffffffffull) |
                         (uint64_t)val << 32;
        break;
    case A_ATTILA_SYSMEM_SIZE:
        if (val > 0x80000000u) {
            g3d_error(&c->errors, ATTILA_ERR_VALUE, offset,
                      "SYSMEM_SIZE 0x%x beyond the 2 GiB window", val);
            break;
        }
        c->sysmem_size = val;
        break;
    case A_ATTILA_INT_STATUS: {
        bool old = attila_irq_level(c);
        c->int_status &= ~val;
        if (old != attila_irq_level(c) && c->cfg.hooks.irq_update) {
            c->cfg.hooks.irq_update(c->cfg.hooks.opaque);
        }
        break;
    }
    case A_ATTILA_INT_MASK: {
        bool old = attila_irq_level(c);
        c->int_mask = val & 0x1f;
        if (old != attila_irq_level(c) && c->cfg.hooks.irq_update) {
            c->cfg.hooks.irq_update(c->cfg.hooks.opaque);
        }
        break;
    }
    case A_ATTILA_REGFILE_SELECT:
        regfile_select(c, val);
        break;
    default:
        g3d_guest_error("attila-3d: write 0x%x to read-only or unknown BAR0 "
                        "offset 0x%x", val, offset);
        break;
    }
}

/* ---- lifecycle ------------------------------------------------------------ */

AttilaCore *attila_core_new(const AttilaCoreConfig *cfg)
{
    AttilaCore *c = g_new0(AttilaCore, 1);

    c->cfg = *cfg;
    g3d_error_init(&c->errors, "attila-3d: ", error_raise, c);
    c->errors.settle = error_settle;
    if (c->cfg.hooks.threads < 1) {
        c->cfg.hooks.threads = 1;
    }
    attila_regfile_init(c);
    c->ds[0] = g_new0(AttilaDrawState, 1);
    c->ds[1] = g_new0(AttilaDrawState, 1);
    c->raster = attila_raster_new(c, c->cfg.hooks.threads);
    attila_core_reset(c);
    return c;
}

void attila_core_free(AttilaCore *c)
{
    if (!c) {
        return;
    }
    attila_raster_free(c->raster);      /* after the batch in flight */
    g_free(c->rf_store);
    g_free(c->stage);
    g_free(c->ds[0]);
    g_free(c->ds[1]);
    attila_streamer_free(c);
    g_free(c->tris);
    g_free(c->screen);
    g_free(c->dac_tab.x);
    g_free(c);
}

void attila_core_reset(AttilaCore *c)
{
    bool irq = attila_irq_level(c);
    int i;

    attila_core_idle(c);    /* its constants and programs are cleared */
    g3d_error_reset(&c->errors);
    c->frame = c->records = 0;
    c->ring_base = c->ring_size = c->ring_read = c->ring_write = 0;
    c->in_record = false;
    c->ring_enable = false;
    c->sysmem_base = 0;
    c->sysmem_size = 0;
    c->event_count = c->last_event = c->fence = 0;
    c->int_status = c->int_mask = 0;
    c->regfile_select = 0;
    memset(&c->display, 0, sizeof(c->display));
    memset(c->imem_raw, 0, sizeof(c->imem_raw));
    /* every word is zero: one decoding serves all (4096 took about 1.3
     * million instructions, on the command processor's thread) */
    attila_shader_decode(c->imem_raw[0], &c->imem[0]);
    for (i = 1; i < ATTILA_INSTRUCTION_MEMORY; i++) {
        c->imem[i] = c->imem[0];
    }
    attila_gpu_reset_state(c);
    if (irq && c->cfg.hooks.irq_update) {
        c->cfg.hooks.irq_update(c->cfg.hooks.opaque);
    }
    if (c->cfg.hooks.display_update) {
        c->cfg.hooks.display_update(c->cfg.hooks.opaque);
    }
}

bool attila_scanout(AttilaCore *c, int head, G3DScanout *out)
{
    memset(out, 0, sizeof(*out));
    if (head != 0) {
        return false;
    }
    return attila_dac_scanout(c, out);
}

const G3DMem *attila_scanout_mem(AttilaCore *c)
{
    return &c->screen_mem;
}
