/*
 * EXI: external interface, 3 channels of 5 32-bit registers (YAGCD §5.9 EXI).
 *
 * Decision: no devices are attached (no IPL ROM, SRAM/RTC or memory
 * cards): CSR.EXT reads 0, and a transfer (CR.TSTART) completes at once
 * with TCINT set; immediate reads return 0 in DATA, DMA leaves memory
 * untouched. EXIINT, TCINT and EXTINT are write-1-to-clear and reach PI
 * INTSR bit 4 through their masks. ROMDIS (channel 0) stays set until reset.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"

/* a register's offset inside its channel's EXI_CHANNEL_STRIDE bytes */
#define EXI_OFF(reg) (A_EXI_ ## reg - FLIPPER_EXI_BASE)

void flipper_exi_reset(FlipperCore *c)
{
    memset(&c->exi, 0, sizeof(c->exi));
}

uint32_t flipper_exi_irq(FlipperCore *c)
{
    int ch;

    for (ch = 0; ch < EXI_CHANNELS; ch++) {
        uint32_t csr = c->exi.csr[ch];
        if (((csr & R_EXI_CSR_EXIINT_MASK) && (csr & R_EXI_CSR_EXIINTMASK_MASK)) ||
            ((csr & R_EXI_CSR_TCINT_MASK) && (csr & R_EXI_CSR_TCINTMASK_MASK)) ||
            ((csr & R_EXI_CSR_EXTINT_MASK) && (csr & R_EXI_CSR_EXTINTMASK_MASK))) {
            return PI_INT_EXI;
        }
    }
    return 0;
}

static uint32_t exi_read32(FlipperCore *c, uint32_t off)
{
    FlipperEXI *e = &c->exi;
    uint32_t ch = off / EXI_CHANNEL_STRIDE;

    if (ch >= EXI_CHANNELS) {
        return 0;
    }
    switch (off % EXI_CHANNEL_STRIDE) {
    case EXI_OFF(CSR):    return e->csr[ch];
    case EXI_OFF(MAR):    return e->mar[ch];
    case EXI_OFF(LENGTH): return e->len[ch];
    case EXI_OFF(CR):     return e->cr[ch];
    default:              return e->data[ch];
    }
}

static void exi_write32(FlipperCore *c, uint32_t off, uint32_t val,
                        uint32_t mask)
{
    FlipperEXI *e = &c->exi;
    uint32_t ch = off / EXI_CHANNEL_STRIDE;
    uint32_t v = (exi_read32(c, off) & ~mask) | (val & mask);

    if (ch >= EXI_CHANNELS) {
        g3d_guest_error("flipper: EXI: write to unknown register 0x%02x", off);
        return;
    }
    switch (off % EXI_CHANNEL_STRIDE) {
    case EXI_OFF(CSR): {
        const uint32_t w1c = R_EXI_CSR_EXIINT_MASK | R_EXI_CSR_TCINT_MASK |
                             R_EXI_CSR_EXTINT_MASK;
        const uint32_t rw = R_EXI_CSR_EXIINTMASK_MASK |
                            R_EXI_CSR_TCINTMASK_MASK | R_EXI_CSR_CLK_MASK |
                            R_EXI_CSR_CS_MASK | R_EXI_CSR_EXTINTMASK_MASK;
        uint32_t romdis = e->csr[ch] & R_EXI_CSR_ROMDIS_MASK;
        if (ch == 0) {
            romdis |= v & R_EXI_CSR_ROMDIS_MASK;
        }
        e->csr[ch] = (e->csr[ch] & w1c & ~(val & mask)) | (v & rw) | romdis;
        break;
    }
    case EXI_OFF(MAR):
        e->mar[ch] = v & 0x03FFFFE0;
        break;
    case EXI_OFF(LENGTH):
        e->len[ch] = v & 0x03FFFFE0;
        break;
    case EXI_OFF(CR):
        e->cr[ch] = v & 0x3F;
        if (v & mask & R_EXI_CR_TSTART_MASK) {
            bool dma = v & R_EXI_CR_DMA_MASK;
            if (!dma && G3D_FIELD_EX32(v, EXI_CR, RW) != 1) {
                e->data[ch] = 0;        /* nothing answers a read */
            }
            e->cr[ch] &= ~R_EXI_CR_TSTART_MASK;
            e->csr[ch] |= R_EXI_CSR_TCINT_MASK;
        }
        break;
    default:
        e->data[ch] = v;
        break;
    }
}

static const FlipperRegRow exi_regs[] = {
    FLIPPER_REG_ARRAY(EXI_CSR, 4, FLIPPER_REG_RW, EXI_CHANNELS,
                      EXI_CHANNEL_STRIDE),
    FLIPPER_REG_ARRAY(EXI_MAR, 4, FLIPPER_REG_RW, EXI_CHANNELS,
                      EXI_CHANNEL_STRIDE),
    FLIPPER_REG_ARRAY(EXI_LENGTH, 4, FLIPPER_REG_RW, EXI_CHANNELS,
                      EXI_CHANNEL_STRIDE),
    FLIPPER_REG_ARRAY(EXI_CR, 4, FLIPPER_REG_RW, EXI_CHANNELS,
                      EXI_CHANNEL_STRIDE),
    FLIPPER_REG_ARRAY(EXI_DATA, 4, FLIPPER_REG_RW, EXI_CHANNELS,
                      EXI_CHANNEL_STRIDE),
};

const FlipperBlock flipper_exi_block = {
    .name = "EXI", .base = FLIPPER_EXI_BASE, .span = EXI_REG_SPAN,
    FLIPPER_BLOCK_REGS(exi_regs),
    .intsr = flipper_exi_irq,
    .read32 = exi_read32, .write32 = exi_write32,
};
