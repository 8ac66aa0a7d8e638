/*
 * The command queue (CMDQ, 1600h): a ring of 16-bit words in VRAM that the
 * chip reads from READ_ADDR up to WRITE_ADDR and turns into register
 * writes, as the Linux glamo driver programs it ([EXT] glamo-cmdq.c):
 *   BASE_ADDRL/H   ring base, A22..A1;  LEN  ring size in KiB - 1
 *   WRITE_ADDRH/L  byte offset the host has filled up to (L commits)
 *   READ_ADDRL/H   byte offset the chip has consumed up to
 *   STATUS         bits 1:0 = 11 queue empty and idle, bit 2 all idle,
 *                  bit 5 3D engine busy (the driver's wait masks)
 * Packets: "reg, value" or "0x8000 | reg, count, values, [pad]", each a
 * multiple of 32 bits.
 *
 * A bad ring (past VRAM), a bad write pointer or a malformed packet is
 * logged, sets STATUS bit 15 and is skipped; the rest of the ring up to the
 * write pointer is discarded so that the queue always drains.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "glamo-int.h"

#define BURST_CHUNK 64     /* words of a burst per work unit */

void glamo_cmdq_reset(GlamoCore *c)
{
    GlamoCmdq *q = &c->cmdq;
    uint32_t off;

    for (off = GLAMO_REGOFS_CMDQ; off < GLAMO_REGOFS_CMDQ + 0x80; off += 2) {
        c->regs[off >> 1] = 0;
    }
    *q = (GlamoCmdq){ 0 };
}

static uint16_t reg(const GlamoCore *c, uint32_t off)
{
    return c->regs[off >> 1];
}

static void fail(GlamoCore *c, const char *why, uint32_t at)
{
    GlamoCmdq *q = &c->cmdq;

    g3d_error(&c->errors, 0, 0,
              "glamo cmdq: %s at ring offset 0x%x; ring skipped to "
              "the write pointer 0x%x", why, at, q->wptr);
    q->error = true;
    q->burst_left = 0;
    q->burst_pad = false;
    q->rptr = q->wptr;
}

/* WRITE_ADDRL written: decode the ring and commit the new write pointer */
static void commit_write_pointer(GlamoCore *c)
{
    GlamoCmdq *q = &c->cmdq;
    uint32_t base = (uint32_t)(reg(c, A_GLAMO_CMDQ_BASE_ADDRH) &
                               GLAMO_CMDQ_ADDRH_MASK) << 16 |
                    (reg(c, A_GLAMO_CMDQ_BASE_ADDRL) & 0xfffe);
    uint32_t size = ((reg(c, A_GLAMO_CMDQ_LEN) & GLAMO_CMDQ_LEN_MASK) + 1)
                    * 1024;
    uint32_t wptr = (uint32_t)(reg(c, A_GLAMO_CMDQ_WRITE_ADDRH) &
                               GLAMO_CMDQ_ADDRH_MASK) << 16 |
                    reg(c, A_GLAMO_CMDQ_WRITE_ADDRL);

    if (!c->vram || !g3d_range_ok(base, size, 0, c->vram_size)) {
        g3d_error(&c->errors, 0, 0,
                  "glamo cmdq: ring 0x%x + %u bytes lies outside the "
                  "%u bytes of VRAM, queue stopped", base, size,
                  c->vram_size);
        q->error = true;
        q->valid = false;
        return;
    }
    if (wptr >= size || (wptr & 1)) {
        g3d_error(&c->errors, 0, 0,
                  "glamo cmdq: write pointer 0x%x outside the %u-byte "
                  "ring, ignored", wptr, size);
        q->error = true;
        return;
    }
    if (!q->valid || q->base != base || q->size != size) {
        if (q->rptr >= size) {
            q->rptr = 0;
        }
    }
    q->base = base;
    q->size = size;
    q->valid = true;
    q->wptr = wptr;
    if (q->rptr != q->wptr) {
        q->was_busy = true;
    }
}

void glamo_cmdq_write(GlamoCore *c, uint32_t off, uint16_t val)
{
    GlamoCmdq *q = &c->cmdq;

    switch (off) {
    case A_GLAMO_CMDQ_STATUS:
        return;
    case A_GLAMO_CMDQ_WRITE_ADDRL:
        c->regs[off >> 1] = val & 0xfffe;
        commit_write_pointer(c);
        return;
    case A_GLAMO_CMDQ_READ_ADDRL:
    case A_GLAMO_CMDQ_READ_ADDRH:
        /* the driver zeroes the read pointer at init */
        c->regs[off >> 1] = val;
        q->rptr = ((uint32_t)(reg(c, A_GLAMO_CMDQ_READ_ADDRH) &
                              GLAMO_CMDQ_ADDRH_MASK) << 16 |
                   reg(c, A_GLAMO_CMDQ_READ_ADDRL)) & ~1u;
        if (q->size && q->rptr >= q->size) {
            g3d_error(&c->errors, 0, 0,
                      "glamo cmdq: read pointer 0x%x outside the ring",
                      q->rptr);
            q->rptr = 0;
        }
        q->burst_left = 0;
        q->burst_pad = false;
        return;
    case A_GLAMO_CMDQ_BASE_ADDRH:
    case A_GLAMO_CMDQ_WRITE_ADDRH:
        c->regs[off >> 1] = val & GLAMO_CMDQ_ADDRH_MASK;
        return;
    case A_GLAMO_CMDQ_LEN:
        c->regs[off >> 1] = val & GLAMO_CMDQ_LEN_MASK;
        return;
    default:
        c->regs[off >> 1] = val;
        return;
    }
}

uint16_t glamo_cmdq_read(GlamoCore *c, uint32_t off)
{
    GlamoCmdq *q = &c->cmdq;
    uint16_t st;

    switch (off) {
    case A_GLAMO_CMDQ_READ_ADDRL:
        return (uint16_t)q->rptr;
    case A_GLAMO_CMDQ_READ_ADDRH:
        return (uint16_t)(q->rptr >> 16);
    case A_GLAMO_CMDQ_STATUS:
        st = 0;
        if (!glamo_cmdq_pending(c)) {
            st |= GLAMO_CMDQ_STATUS_EMPTY | GLAMO_CMDQ_STATUS_IDLE;
            if (glamo_3d_idle(c)) {
                st |= GLAMO_CMDQ_STATUS_ALL_IDLE;
            }
        }
        if (!glamo_3d_idle(c)) {
            st |= GLAMO_CMDQ_STATUS_3D_BUSY;
        }
        if (q->error) {
            st |= GLAMO_CMDQ_STATUS_ERROR;
        }
        return st;
    default:
        return c->regs[off >> 1];
    }
}

bool glamo_cmdq_pending(const GlamoCore *c)
{
    const GlamoCmdq *q = &c->cmdq;

    return q->valid && (q->rptr != q->wptr || q->burst_left);
}

static uint32_t words_available(const GlamoCmdq *q)
{
    return ((q->wptr + q->size - q->rptr) % q->size) / 2;
}

static uint16_t fetch(GlamoCore *c)
{
    GlamoCmdq *q = &c->cmdq;
    const uint8_t *p;
    uint16_t w;

    if (!q->valid || !q->size) {
        return 0;
    }
    p = c->vram + q->base + q->rptr;
    w = p[0] | p[1] << 8;

    q->rptr = (q->rptr + 2) % q->size;
    return w;
}

/* may a write to `off` go now? (order: other blocks wait for the 3D engine) */
static bool can_write(const GlamoCore *c, uint32_t off)
{
    if (glamo_is_3d(off)) {
        return !glamo_3d_queue_full(c);
    }
    return glamo_3d_idle(c);
}

static void write_reg(GlamoCore *c, GlamoRegWriteFn *write, uint32_t off,
                      uint16_t val, uint32_t at)
{
    if (off >= GLAMO_REG_SIZE) {
        g3d_error(&c->errors, 0, 0,
                  "glamo cmdq: register 0x%x outside the register "
                  "space at ring offset 0x%x, skipped", off, at);
        c->cmdq.error = true;
        return;
    }
    write(c, off, val, true);
}

/*
 * One packet, or one chunk of a burst; false if nothing could be done.
 * The queue is a bus master: it writes registers through `write`, the
 * core's register dispatch, as the host would.
 */
bool glamo_cmdq_step(GlamoCore *c, GlamoRegWriteFn *write)
{
    GlamoCmdq *q = &c->cmdq;
    uint16_t ctl2d = reg(c, A_GLAMO_CLOCK_2D);
    uint32_t at = q->rptr, avail;
    uint16_t w0, w1;
    unsigned n;

    if (!glamo_cmdq_pending(c) || !c->vram ||
        !(ctl2d & GLAMO_CLOCK_2D_EN_M6CLK)) {
        /* the queue runs on the 2D block's M6 clock (glamo-cmdq.c) */
        return false;
    }
    if (q->burst_left) {
        for (n = 0; n < BURST_CHUNK && q->burst_left; n++) {
            if (!can_write(c, q->burst_reg)) {
                return n > 0;
            }
            {
                uint16_t v = fetch(c);
                uint32_t reg = q->burst_reg;
                q->burst_reg += 2;
                q->burst_left--;
                write_reg(c, write, reg, v, at);
            }
            if (!q->valid) {
                return true;     /* the packet reset the queue (CQ_RESET) */
            }
        }
        if (!q->burst_left && q->burst_pad) {
            fetch(c);
            q->burst_pad = false;
        }
        c->stats.cmdq_packets += !q->burst_left;
        return true;
    }

    avail = words_available(q);
    if (avail < 2) {
        fail(c, "packet cut by the write pointer", at);
        return true;
    }
    /* peek: a register write that must wait leaves the ring untouched */
    {
        const uint8_t *p = c->vram + q->base + q->rptr;
        w0 = p[0] | p[1] << 8;
    }
    if (!(w0 & GLAMO_CMDQ_BURST)) {
        if (w0 < GLAMO_REG_SIZE && !can_write(c, w0 & ~1u)) {
            return false;
        }
        fetch(c);
        w1 = fetch(c);
        if (w0 & 1) {
            g3d_error(&c->errors, 0, 0,
                      "glamo cmdq: odd register address 0x%x at ring "
                      "offset 0x%x, skipped", w0, at);
            q->error = true;
        } else {
            write_reg(c, write, w0, w1, at);
        }
        c->stats.cmdq_packets++;
        return true;
    }
    fetch(c);
    w1 = fetch(c);
    /* burst: its data must lie before the write pointer */
    if (w1 == 0 || w1 > avail - 2) {
        fail(c, w1 ? "burst count overruns the queued words"
                   : "burst of zero words", at);
        return true;
    }
    if ((w0 & 1) || (uint32_t)(w0 & 0x7ffe) + 2u * w1 > GLAMO_REG_SIZE) {
        fail(c, "burst runs past the register space", at);
        return true;
    }
    q->burst_reg = w0 & 0x7ffe;
    q->burst_left = w1;
    q->burst_pad = (w1 & 1) != 0;   /* 2 + count words, padded to 32 bits */
    if (q->burst_pad && w1 + 1 > avail - 2) {
        q->burst_pad = false;       /* tolerate a missing final pad word */
    }
    return true;
}
