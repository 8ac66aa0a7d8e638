/*
 * DI: DVD interface, 32-bit registers (YAGCD §5.7 DI).
 *
 * Decision: the drive holds no disc. DISR/DICVR interrupt status bits are
 * write-1-to-clear and reach PI INTSR bit 2 through their masks; a break
 * request completes at once (BRKINT). A command (DICR.TSTART) completes
 * at once:
 * - 0x12 inquiry DMAs the 32-byte drive info (revision 2, device code
 *   0x0020, date 0x20020402) and raises TCINT;
 * - 0xE0 request error returns 0x03023A00 (no disc / medium not present)
 *   in DIIMMBUF and raises TCINT;
 * - 0xE3 stop motor and 0xE4 audio enable/disable raise TCINT;
 * - anything else (reads, seeks, ...) fails with DEINT.
 * The cover reads closed.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"

#define REG(c, a) ((c)->di.regs[((a) - FLIPPER_DI_BASE) / 4])

void flipper_di_reset(FlipperCore *c)
{
    memset(&c->di, 0, sizeof(c->di));
}

uint32_t flipper_di_irq(FlipperCore *c)
{
    uint32_t sr = REG(c, A_DI_SR), cvr = REG(c, A_DI_CVR);

    if (((sr & R_DI_SR_DEINT_MASK) && (sr & R_DI_SR_DEINTMASK_MASK)) ||
        ((sr & R_DI_SR_TCINT_MASK) && (sr & R_DI_SR_TCINTMASK_MASK)) ||
        ((sr & R_DI_SR_BRKINT_MASK) && (sr & R_DI_SR_BRKINTMASK_MASK)) ||
        ((cvr & R_DI_CVR_CVRINT_MASK) && (cvr & R_DI_CVR_CVRINTMASK_MASK))) {
        return PI_INT_DI;
    }
    return 0;
}

static void di_command(FlipperCore *c)
{
    uint32_t cmd = REG(c, A_DI_CMDBUF0) >> 24;
    uint32_t mar = REG(c, A_DI_MAR) & 0x03FFFFE0;
    uint32_t len = REG(c, A_DI_LENGTH) & 0x03FFFFE0;
    uint32_t result = R_DI_SR_TCINT_MASK;

    switch (cmd) {
    case 0x12: {
        uint8_t info[32] = { 0x00, 0x02, 0x00, 0x20, 0x20, 0x02, 0x04, 0x02 };
        if (!(REG(c, A_DI_CR) & R_DI_CR_DMA_MASK) || len < 32 ||
            !flipper_mem1_ok(c, mar, 32)) {
            g3d_guest_error("flipper: DI: inquiry DMA to 0x%08x + 0x%x invalid",
                            mar, len);
            result = R_DI_SR_DEINT_MASK;
            break;
        }
        g3d_mem_write(&c->cfg.vram, mar, info, sizeof(info));
        REG(c, A_DI_LENGTH) = len - 32;
        break;
    }
    case 0xE0:
        REG(c, A_DI_IMMBUF) = 0x03023A00;
        break;
    case 0xE3:
    case 0xE4:
        break;
    default:
        result = R_DI_SR_DEINT_MASK;    /* no disc in the drive */
        break;
    }
    REG(c, A_DI_SR) |= result;
    REG(c, A_DI_CR) &= ~R_DI_CR_TSTART_MASK;
}

static uint32_t di_read32(FlipperCore *c, uint32_t off)
{
    return c->di.regs[off / 4];
}

static void di_write32(FlipperCore *c, uint32_t off, uint32_t val,
                       uint32_t mask)
{
    uint32_t a = off + FLIPPER_DI_BASE, *r = &c->di.regs[off / 4];
    uint32_t v = (*r & ~mask) | (val & mask);
    const uint32_t sr_w1c = R_DI_SR_DEINT_MASK | R_DI_SR_TCINT_MASK |
                            R_DI_SR_BRKINT_MASK;

    switch (a) {
    case A_DI_SR:
        *r = (*r & sr_w1c & ~(val & mask)) | (v & 0x2A);
        if (v & mask & R_DI_SR_BRK_MASK) {
            *r |= R_DI_SR_BRKINT_MASK;  /* nothing to interrupt: done */
        }
        break;
    case A_DI_CVR:
        *r = (*r & R_DI_CVR_CVRINT_MASK & ~(val & mask)) |
             (v & R_DI_CVR_CVRINTMASK_MASK);
        break;
    case A_DI_CR:
        *r = v & 7;
        if (v & mask & R_DI_CR_TSTART_MASK) {
            di_command(c);
        }
        break;
    default:
        if (a > A_DI_CFG) {
            g3d_guest_error("flipper: DI: write to unknown register 0x%02x",
                            off);
            break;
        }
        *r = v;
        break;
    }
}

static const FlipperRegRow di_regs[] = {
    FLIPPER_REG_RANGE(DI_SR, DI_IMMBUF, 4, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(DI_CFG, 4, FLIPPER_REG_RO),
};

const FlipperBlock flipper_di_block = {
    .name = "DI", .base = FLIPPER_DI_BASE, .span = DI_REG_SPAN,
    FLIPPER_BLOCK_REGS(di_regs),
    .intsr = flipper_di_irq,
    .read32 = di_read32, .write32 = di_write32,
};
