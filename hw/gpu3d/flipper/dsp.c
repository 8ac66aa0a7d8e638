/*
 * DSP interface, 16-bit registers: mailboxes, the control/status register,
 * ARAM DMA and the AI DMA registers (YAGCD §5.6 DSP).
 *
 * Decisions (no DSP core is modelled yet):
 * - Mail to the DSP stays pending (bit 15 of the high half stays set);
 *   the DSP-to-CPU mailbox is empty.
 * - CSR: AIDINT, ARINT and DSPINT are write-1-to-clear status bits, gated
 *   into PI INTSR bit 6 by their masks; RES (bit 0) reads back 0 and
 *   resets the interface's status; HALT, PIINT and bit 11 are stored.
 * - ARAM DMA (16 MiB of ARAM) completes when CNT_L is written: the data is
 *   copied at once, the count reads 0 and ARINT is raised.
 * - AI DMA: registers stored; no audio is consumed, so the block count reads
 *   back as programmed and AIDINT is never raised.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"

#define REG(c, a) ((c)->dsp.regs[((a) - FLIPPER_DSP_BASE) / 2])
#define ADDR_MASK 0x03FFFFE0u

void flipper_dsp_reset(FlipperCore *c)
{
    uint8_t *aram = c->dsp.aram;

    memset(&c->dsp, 0, sizeof(c->dsp));
    c->dsp.aram = aram;
    if (aram) {
        memset(aram, 0, FLIPPER_ARAM_SIZE);
    }
}

void flipper_dsp_free(FlipperCore *c)
{
    g_free(c->dsp.aram);
    c->dsp.aram = NULL;
}

uint32_t flipper_dsp_irq(FlipperCore *c)
{
    uint16_t csr = c->dsp.csr;

    if (((csr & R_DSP_CSR_AIDINT_MASK) && (csr & R_DSP_CSR_AIDINTMASK_MASK)) ||
        ((csr & R_DSP_CSR_ARINT_MASK) && (csr & R_DSP_CSR_ARINTMASK_MASK)) ||
        ((csr & R_DSP_CSR_DSPINT_MASK) && (csr & R_DSP_CSR_DSPINTMASK_MASK))) {
        return PI_INT_DSP;
    }
    return 0;
}

static void aram_dma(FlipperCore *c)
{
    uint32_t mm = ((uint32_t)REG(c, A_AR_DMA_MMADDR_H) << 16 |
                   REG(c, A_AR_DMA_MMADDR_L)) & ADDR_MASK;
    uint32_t ar = ((uint32_t)REG(c, A_AR_DMA_ARADDR_H) << 16 |
                   REG(c, A_AR_DMA_ARADDR_L)) & ADDR_MASK;
    uint32_t hi = REG(c, A_AR_DMA_CNT_H);
    uint32_t len = ((hi & 0x7FFF) << 16 | REG(c, A_AR_DMA_CNT_L)) & ~31u;
    bool to_mem = hi & 0x8000;

    if (!flipper_mem1_ok(c, mm, len) ||
        !g3d_range_ok(ar, len, 0, FLIPPER_ARAM_SIZE)) {
        g3d_guest_error("flipper: DSP: ARAM DMA MEM1 0x%08x ARAM 0x%08x "
                        "length 0x%x out of range", mm, ar, len);
    } else if (len) {
        if (!c->dsp.aram) {
            c->dsp.aram = g_malloc0(FLIPPER_ARAM_SIZE);
        }
        if (to_mem) {
            g3d_mem_write(&c->cfg.vram, mm, c->dsp.aram + ar, len);
        } else {
            g3d_mem_read(&c->cfg.vram, mm, c->dsp.aram + ar, len);
        }
    }
    REG(c, A_AR_DMA_CNT_H) &= 0x8000;
    REG(c, A_AR_DMA_CNT_L) = 0;
    c->dsp.csr |= R_DSP_CSR_ARINT_MASK;
}

static uint16_t dsp_read16(FlipperCore *c, uint32_t off)
{
    uint32_t a = off + FLIPPER_DSP_BASE;

    switch (a) {
    case A_DSP_CSR:
        return c->dsp.csr;
    case A_DSP_CPU_MAILBOX_HI:
    case A_DSP_CPU_MAILBOX_LO:
        return 0;               /* no mail from the DSP */
    case A_AI_DMA_LEFT:
        return (REG(c, A_AI_DMA_CTRL) & 0x8000) ? REG(c, A_AI_DMA_CTRL) & 0x7FFF
                                                : 0;
    default:
        return c->dsp.regs[off / 2];
    }
}

static void dsp_write16(FlipperCore *c, uint32_t off, uint16_t val)
{
    uint32_t a = off + FLIPPER_DSP_BASE;
    const uint16_t w1c = R_DSP_CSR_AIDINT_MASK | R_DSP_CSR_ARINT_MASK |
                         R_DSP_CSR_DSPINT_MASK;

    switch (a) {
    case A_DSP_CSR:
        if (val & R_DSP_CSR_RES_MASK) {
            c->dsp.csr &= ~(w1c | R_DSP_CSR_PIINT_MASK);
        }
        c->dsp.csr = (c->dsp.csr & w1c & ~val) |
                     (val & ~(w1c | R_DSP_CSR_RES_MASK) & 0x0FFF);
        break;
    case A_AR_DMA_CNT_L:
        REG(c, a) = val;
        aram_dma(c);
        break;
    default:
        c->dsp.regs[off / 2] = val;
        break;
    }
}

static const FlipperRegRow dsp_regs[] = {
    FLIPPER_REG_ROW(DSP_MAILBOX_HI, 2, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(DSP_MAILBOX_LO, 2, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(DSP_CPU_MAILBOX_HI, 2, FLIPPER_REG_RO),
    FLIPPER_REG_ROW(DSP_CPU_MAILBOX_LO, 2, FLIPPER_REG_RO),
    FLIPPER_REG_ROW(DSP_CSR, 2, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(AR_SIZE, 2, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(AR_MODE, 2, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(AR_REFRESH, 2, FLIPPER_REG_RW),
    FLIPPER_REG_RANGE(AR_DMA_MMADDR_H, AR_DMA_CNT_L, 2, FLIPPER_REG_RW),
    FLIPPER_REG_RANGE(AI_DMA_START_H, AI_DMA_START_L, 2, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(AI_DMA_CTRL, 2, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(AI_DMA_LEFT, 2, FLIPPER_REG_RO),
};

const FlipperBlock flipper_dsp_block = {
    .name = "DSP", .base = FLIPPER_DSP_BASE, .span = DSP_REG_SPAN,
    FLIPPER_BLOCK_REGS(dsp_regs),
    .intsr = flipper_dsp_irq,
    .read16 = dsp_read16, .write16 = dsp_write16,
};
