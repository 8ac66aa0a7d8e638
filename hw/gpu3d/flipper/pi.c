/*
 * PI: processor interface. Interrupt cause/mask, the CPU side of the GX
 * FIFO and the write-gather pipe (YAGCD §5.4 PI).
 *
 * The gather pipe collects the bytes of every access in big-endian order
 * (a guest writes the numbers a GameCube program writes, docs/architecture.md)
 * and bursts each full 32 bytes to MEM1 at the PI write pointer. In link mode
 * (CP CR bit 4) each burst also advances the CP write pointer and distance.
 *
 * Ring rule, decided (YAGCD §5.1 CP): pointers are 32-byte granular and END
 * names the last block of the ring (libogc END = base + size - 4, masked to
 * 32 bytes), so after writing at p the next pointer is p >= END ? BASE :
 * p + 32 — the same rule Dolphin uses for the CP side.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"


void flipper_pi_reset(FlipperCore *c)
{
    memset(&c->pi, 0, sizeof(c->pi));
}

static void burst(FlipperCore *c)
{
    FlipperPI *pi = &c->pi;

    if (!flipper_mem1_ok(c, pi->fifo_wptr, FLIPPER_WGP_SIZE) ||
        !g3d_mem_write(&c->cfg.vram, pi->fifo_wptr, pi->gather,
                       FLIPPER_WGP_SIZE)) {
        g3d_error(&c->errors, FLIPPER_ERR_GP, 0,
                  "flipper: PI: FIFO write pointer 0x%08x outside MEM1,"
                  " 32-byte burst dropped", pi->fifo_wptr);
        return;
    }
    if (pi->fifo_wptr >= pi->fifo_end) {
        pi->fifo_wptr = pi->fifo_base;
        pi->wrap = true;
    } else {
        pi->fifo_wptr += FLIPPER_WGP_SIZE;
    }
    if (c->cp.cr & R_CP_CR_GP_LINK_ENABLE_MASK) {
        flipper_cp_burst(c);
    }
}

void flipper_pi_gather_write(FlipperCore *c, uint64_t val, unsigned size)
{
    FlipperPI *pi = &c->pi;
    unsigned i;

    if (size == 4 && !(pi->gather_len & 3)) {
        /* GX's writes: a whole word into a word of the burst */
        uint8_t *g = pi->gather + pi->gather_len;

        g[0] = (uint8_t)(val >> 24);
        g[1] = (uint8_t)(val >> 16);
        g[2] = (uint8_t)(val >> 8);
        g[3] = (uint8_t)val;
        pi->gather_len += 4;
        if (pi->gather_len == FLIPPER_WGP_SIZE) {
            burst(c);
            pi->gather_len = 0;
        }
        return;
    }
    for (i = 0; i < size; i++) {
        pi->gather[pi->gather_len++] = (uint8_t)(val >> (8 * (size - 1 - i)));
        if (pi->gather_len == FLIPPER_WGP_SIZE) {
            burst(c);
            pi->gather_len = 0;
        }
    }
}

static uint32_t pi_read32(FlipperCore *c, uint32_t off)
{
    FlipperPI *pi = &c->pi;

    switch (off) {
    case A_PI_INTSR - FLIPPER_PI_BASE:
        return flipper_pi_intsr(c);
    case A_PI_INTMR - FLIPPER_PI_BASE:
        return pi->intmr;
    case A_PI_FIFO_BASE - FLIPPER_PI_BASE:
        return pi->fifo_base;
    case A_PI_FIFO_END - FLIPPER_PI_BASE:
        return pi->fifo_end;
    case A_PI_FIFO_WPTR - FLIPPER_PI_BASE:
        /* libogc: bits 5-28 address, bit 29 wrapped */
        return pi->fifo_wptr | (pi->wrap ? R_PI_FIFO_WPTR_WRAP_MASK : 0);
    case A_PI_RESET_CODE - FLIPPER_PI_BASE:
        return pi->reset_code;
    case A_PI_FLIPPER_REV - FLIPPER_PI_BASE:
        return FLIPPER_REV_C;
    case A_PI_UNKNOWN_30 - FLIPPER_PI_BASE:
        return pi->unk30;
    default:
        return 0;
    }
}

static void pi_write32(FlipperCore *c, uint32_t off, uint32_t val,
                       uint32_t mask)
{
    FlipperPI *pi = &c->pi;
    uint32_t cur = pi_read32(c, off);
    uint32_t v = (cur & ~mask) | (val & mask);

    switch (off) {
    case A_PI_INTSR - FLIPPER_PI_BASE:
        /* w1c for the latched GP error; device causes clear at the device */
        if (val & mask & PI_INT_ERROR) {
            pi->error = 0;
            g3d_error_clear(&c->errors);
        }
        break;
    case A_PI_INTMR - FLIPPER_PI_BASE:
        pi->intmr = v & PI_INT_MASKABLE;
        break;
    case A_PI_FIFO_BASE - FLIPPER_PI_BASE:
        pi->fifo_base = v & FLIPPER_FIFO_PTR_MASK;
        break;
    case A_PI_FIFO_END - FLIPPER_PI_BASE:
        pi->fifo_end = v & FLIPPER_FIFO_PTR_MASK;
        break;
    case A_PI_FIFO_WPTR - FLIPPER_PI_BASE:
        pi->fifo_wptr = v & FLIPPER_FIFO_PTR_MASK;
        pi->wrap = false;
        break;
    case A_PI_FIFO_RESET - FLIPPER_PI_BASE:
        /* GXAbortFrame pulses this: drop a partial burst */
        if (v & 1) {
            pi->gather_len = 0;
        }
        break;
    case A_PI_RESET_CODE - FLIPPER_PI_BASE:
        /* a console hot reset is outside the device: keep the value */
        pi->reset_code = v;
        break;
    case A_PI_UNKNOWN_30 - FLIPPER_PI_BASE:
        pi->unk30 = v;
        break;
    default:
        g3d_unimp("flipper: PI: write 0x%08x to unknown register 0x%02x",
                  val, off);
        break;
    }
}

static const FlipperRegRow pi_regs[] = {
    FLIPPER_REG_ROW(PI_INTSR, 4, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(PI_INTMR, 4, FLIPPER_REG_RW),
    FLIPPER_REG_RANGE(PI_FIFO_BASE, PI_FIFO_RESET, 4, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(PI_RESET_CODE, 4, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(PI_FLIPPER_REV, 4, FLIPPER_REG_RO),
    FLIPPER_REG_ROW(PI_UNKNOWN_30, 4, FLIPPER_REG_RW),
};

const FlipperBlock flipper_pi_block = {
    .name = "PI", .base = FLIPPER_PI_BASE, .span = PI_REG_SPAN,
    FLIPPER_BLOCK_REGS(pi_regs),
    .read32 = pi_read32, .write32 = pi_write32,
};
