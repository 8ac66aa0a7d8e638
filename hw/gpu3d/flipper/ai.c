/*
 * AI: audio streaming interface, 32-bit registers (YAGCD §5.10 AI).
 *
 * While AICR.PSTAT is set the sample counter AISCNT counts stereo samples
 * at 48 kHz (AFR = 0) or 32 kHz (AFR = 1) of the device clock; AIINT is set
 * when it reaches AIIT (unless AIINTVLD holds it), is write-1-to-clear and
 * reaches PI INTSR bit 5 when AIINTMSK is set. SCRESET zeroes the counter.
 * Decision: no DVD audio is streamed (the drive holds no disc).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"


void flipper_ai_reset(FlipperCore *c)
{
    memset(&c->ai, 0, sizeof(c->ai));
    c->ai.last_ns = c->now_ns;
}

static uint64_t rate(FlipperCore *c)
{
    return (c->ai.cr & R_AI_CR_AFR_MASK) ? 32000 : 48000;
}

void flipper_ai_advance(FlipperCore *c, int64_t now)
{
    FlipperAI *ai = &c->ai;
    uint64_t el, total, inc;

    if (now <= ai->last_ns) {
        return;
    }
    el = (uint64_t)(now - ai->last_ns);
    ai->last_ns = now;
    if (!(ai->cr & R_AI_CR_PSTAT_MASK)) {
        ai->frac = 0;
        return;
    }
    if (el >= 1000ull * NS_PER_S) {
        el = 1000ull * NS_PER_S;    /* bounded: counts stay meaningful */
    }
    total = ai->frac + el * rate(c);
    inc = total / NS_PER_S;
    ai->frac = total % NS_PER_S;
    if (inc && !(ai->cr & R_AI_CR_AIINTVLD_MASK) &&
        (uint32_t)(ai->it - ai->scnt - 1) < inc) {
        ai->cr |= R_AI_CR_AIINT_MASK;
    }
    ai->scnt += (uint32_t)inc;
}

int64_t flipper_ai_next_event(FlipperCore *c)
{
    FlipperAI *ai = &c->ai;
    uint64_t d, ns;

    if (!(ai->cr & R_AI_CR_PSTAT_MASK) || !(ai->cr & R_AI_CR_AIINTMSK_MASK) ||
        (ai->cr & (R_AI_CR_AIINT_MASK | R_AI_CR_AIINTVLD_MASK))) {
        return INT64_MAX;
    }
    d = (uint32_t)(ai->it - ai->scnt);
    if (d == 0) {
        d = 1ull << 32;
    }
    ns = (d * NS_PER_S - ai->frac + rate(c) - 1) / rate(c);
    return ai->last_ns + (int64_t)ns;
}

uint32_t flipper_ai_irq(FlipperCore *c)
{
    uint32_t cr = c->ai.cr;

    return (cr & R_AI_CR_AIINT_MASK) && (cr & R_AI_CR_AIINTMSK_MASK)
           ? PI_INT_AI : 0;
}

static uint32_t ai_read32(FlipperCore *c, uint32_t off)
{
    switch (off + FLIPPER_AI_BASE) {
    case A_AI_CR:   return c->ai.cr;
    case A_AI_VR:   return c->ai.vr;
    case A_AI_SCNT: return c->ai.scnt;
    case A_AI_IT:   return c->ai.it;
    default:        return 0;
    }
}

static void ai_write32(FlipperCore *c, uint32_t off, uint32_t val,
                       uint32_t mask)
{
    FlipperAI *ai = &c->ai;
    uint32_t v = (ai_read32(c, off) & ~mask) | (val & mask);

    switch (off + FLIPPER_AI_BASE) {
    case A_AI_CR:
        ai->cr = (ai->cr & R_AI_CR_AIINT_MASK & ~(val & mask)) |
                 (v & (R_AI_CR_PSTAT_MASK | R_AI_CR_AFR_MASK |
                       R_AI_CR_AIINTMSK_MASK | R_AI_CR_AIINTVLD_MASK |
                       R_AI_CR_DSPRATE_MASK));
        if (v & mask & R_AI_CR_SCRESET_MASK) {
            ai->scnt = 0;
            ai->frac = 0;
        }
        break;
    case A_AI_VR:
        ai->vr = v & 0xFFFF;
        break;
    case A_AI_IT:
        ai->it = v;
        break;
    default:
        g3d_guest_error("flipper: AI: write to unknown register 0x%02x", off);
        break;
    }
}

static const FlipperRegRow ai_regs[] = {
    FLIPPER_REG_ROW(AI_CR, 4, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(AI_VR, 4, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(AI_SCNT, 4, FLIPPER_REG_RO),
    FLIPPER_REG_ROW(AI_IT, 4, FLIPPER_REG_RW),
};

const FlipperBlock flipper_ai_block = {
    .name = "AI", .base = FLIPPER_AI_BASE, .span = AI_REG_SPAN,
    FLIPPER_BLOCK_REGS(ai_regs),
    .intsr = flipper_ai_irq,
    .read32 = ai_read32, .write32 = ai_write32,
};
