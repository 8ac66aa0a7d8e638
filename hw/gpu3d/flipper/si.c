/*
 * SI: serial interface, 32-bit registers (YAGCD §5.8 SI).
 *
 * Decision: no controllers are attached. A communication transfer
 * (SICOMCSR.TSTART) completes at once with no response on its channel:
 * SISR NOREP for the channel, COMERR and TCINT set. Polling finds nothing,
 * so input buffers read 0 and RDST never sets. SISR error bits and TCINT
 * are write-1-to-clear; SISR.WR copies the output buffers at once. The
 * interrupt (PI INTSR bit 3) is TCINT & TCINTMSK or RDSTINT & RDSTINTMSK.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"

void flipper_si_reset(FlipperCore *c)
{
    memset(&c->si, 0, sizeof(c->si));
}

uint32_t flipper_si_irq(FlipperCore *c)
{
    uint32_t csr = c->si.comcsr;

    if (((csr & R_SI_COMCSR_TCINT_MASK) && (csr & R_SI_COMCSR_TCINTMSK_MASK)) ||
        ((csr & R_SI_COMCSR_RDSTINT_MASK) &&
         (csr & R_SI_COMCSR_RDSTINTMSK_MASK))) {
        return PI_INT_SI;
    }
    return 0;
}

static uint32_t si_read32(FlipperCore *c, uint32_t off)
{
    FlipperSI *si = &c->si;
    uint32_t a = off + FLIPPER_SI_BASE;

    if (a < A_SI_POLL) {
        uint32_t ch = off / 12;
        switch (off % 12) {
        case 0: return si->outbuf[ch];
        case 4: return si->inbuf_h[ch];
        default: return si->inbuf_l[ch];
        }
    }
    switch (a) {
    case A_SI_POLL:   return si->poll;
    case A_SI_COMCSR: return si->comcsr;
    case A_SI_SR:     return si->sr;
    case A_SI_EXILK:  return si->exilk;
    default:
        if (a >= A_SI_IOBUF) {
            return be32(si->iobuf + (a - A_SI_IOBUF));
        }
        return 0;
    }
}

static void si_write32(FlipperCore *c, uint32_t off, uint32_t val,
                       uint32_t mask)
{
    FlipperSI *si = &c->si;
    uint32_t a = off + FLIPPER_SI_BASE;
    uint32_t v = (si_read32(c, off) & ~mask) | (val & mask);

    if (a < A_SI_POLL) {
        uint32_t ch = off / 12;
        /* the input buffers are read-only (the core refuses them) */
        si->outbuf[ch] = v & 0x00FFFFFF;
        si->sr |= SI_SR_WRST << (24 - 8 * ch);
        return;
    }
    switch (a) {
    case A_SI_POLL:
        si->poll = v & 0x03FFFFFF;
        break;
    case A_SI_COMCSR: {
        uint32_t keep = si->comcsr & R_SI_COMCSR_TCINT_MASK &
                        ~(val & mask & R_SI_COMCSR_TCINT_MASK);
        si->comcsr = keep | (v & ~(R_SI_COMCSR_TCINT_MASK |
                                   R_SI_COMCSR_RDSTINT_MASK |
                                   R_SI_COMCSR_TSTART_MASK));
        if (v & mask & R_SI_COMCSR_TSTART_MASK) {
            uint32_t ch = G3D_FIELD_EX32(v, SI_COMCSR, CHANNEL);
            si->sr |= SI_SR_NOREP << (24 - 8 * ch);
            si->comcsr |= R_SI_COMCSR_TCINT_MASK | R_SI_COMCSR_COMERR_MASK;
        }
        break;
    }
    case A_SI_SR: {
        /* error bits of every channel: write 1 to clear */
        uint32_t errs = 0x0F0F0F0F & val & mask;
        si->sr &= ~errs;
        if (val & mask & R_SI_SR_WR_MASK) {
            si->sr &= ~0x10101010u;     /* all WRST: copied */
        }
        break;
    }
    case A_SI_EXILK:
        si->exilk = v & 0x80000000;
        break;
    default:
        if (a >= A_SI_IOBUF) {
            uint8_t *p = si->iobuf + (a - A_SI_IOBUF);
            p[0] = v >> 24;
            p[1] = v >> 16;
            p[2] = v >> 8;
            p[3] = v;
        } else {
            g3d_guest_error("flipper: SI: write to unknown register 0x%02x",
                            off);
        }
        break;
    }
}

/* four channels of output and input buffers, 12 bytes apart */
static const FlipperRegRow si_regs[] = {
    FLIPPER_REG_ARRAY(SI_C0OUTBUF, 4, FLIPPER_REG_RW, 4,
                      A_SI_C0INBUFL + 4 - A_SI_C0OUTBUF),
    FLIPPER_REG_ARRAY(SI_C0INBUFH, 4, FLIPPER_REG_RO, 4,
                      A_SI_C0INBUFL + 4 - A_SI_C0OUTBUF),
    FLIPPER_REG_ARRAY(SI_C0INBUFL, 4, FLIPPER_REG_RO, 4,
                      A_SI_C0INBUFL + 4 - A_SI_C0OUTBUF),
    FLIPPER_REG_RANGE(SI_POLL, SI_EXILK, 4, FLIPPER_REG_RW),
    FLIPPER_REG_ARRAY(SI_IOBUF, 4, FLIPPER_REG_RW, 32, 4),
};

const FlipperBlock flipper_si_block = {
    .name = "SI", .base = FLIPPER_SI_BASE, .span = SI_REG_SPAN,
    FLIPPER_BLOCK_REGS(si_regs),
    .intsr = flipper_si_irq,
    .read32 = si_read32, .write32 = si_write32,
};
