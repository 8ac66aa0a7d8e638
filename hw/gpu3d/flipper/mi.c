/*
 * MI: memory interface, 16-bit registers (YAGCD §5.5 MI).
 *
 * The protection regions, their type and the interrupt mask are stored;
 * the cause register is write-1-to-clear and the timer pairs reset to zero
 * when written. Decision: CPU accesses do not pass through the device, so
 * protection violations never happen and the cause stays 0; setting a
 * protection type is logged as unimplemented.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"

#define REG(c, a) ((c)->mi.regs[((a) - FLIPPER_MI_BASE) / 2])

void flipper_mi_reset(FlipperCore *c)
{
    memset(&c->mi, 0, sizeof(c->mi));
    /* all four channels read/write: no protection */
    REG(c, A_MI_PROT_TYPE) = 0xFF;
}

uint32_t flipper_mi_irq(FlipperCore *c)
{
    uint16_t mask = REG(c, A_MI_INT_MASK), cause = REG(c, A_MI_INT_CAUSE);

    /* mask bit 4 enables all MI interrupts */
    if ((mask & 0x10) ? (cause & 0x1F) : (cause & mask & 0x0F)) {
        return PI_INT_MEM;
    }
    return 0;
}

static uint16_t mi_read16(FlipperCore *c, uint32_t off)
{
    return c->mi.regs[off / 2];
}

static void mi_write16(FlipperCore *c, uint32_t off, uint16_t val)
{
    uint32_t a = off + FLIPPER_MI_BASE;

    if (a == A_MI_INT_CAUSE) {
        REG(c, a) &= ~val;
    } else if (a >= A_MI_TIMER_FIRST && a <= A_MI_TIMER_LAST + 2) {
        REG(c, a) = 0;          /* a write resets the counter */
    } else {
        if (a == A_MI_PROT_TYPE && (val & 0xFF) != 0xFF) {
            g3d_unimp("flipper: MI: memory protection 0x%02x not enforced",
                      val & 0xFF);
        }
        REG(c, a) = val;
    }
}

static const FlipperRegRow mi_regs[] = {
    FLIPPER_REG_RANGE(MI_PROT_REGION0, MI_PROT_REGION3, 4, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(MI_PROT_TYPE, 2, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(MI_INT_MASK, 2, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(MI_INT_CAUSE, 2, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(MI_UNK20, 2, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(MI_ADDR_LO, 2, FLIPPER_REG_RO), /* the failing address */
    FLIPPER_REG_ROW(MI_ADDR_HI, 2, FLIPPER_REG_RO),
    FLIPPER_REG_RANGE(MI_TIMER_FIRST, MI_TIMER_LAST, 2, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(MI_UNK5A, 2, FLIPPER_REG_RW),
};

const FlipperBlock flipper_mi_block = {
    .name = "MI", .base = FLIPPER_MI_BASE, .span = MI_REG_SPAN,
    FLIPPER_BLOCK_REGS(mi_regs),
    .intsr = flipper_mi_irq,
    .read16 = mi_read16, .write16 = mi_write16,
};
