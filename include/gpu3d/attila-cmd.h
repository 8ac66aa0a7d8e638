/*
 * Building attila-3d command streams: AGP transaction records in exactly
 * the trace-file format (ATTILA ref. AGP Transactions; attila-sim
 * AGPTransaction.cpp; the ring of docs/attila-3d.md takes them unchanged), the
 * framing of a record already written (how long it is, whether it is complete),
 * and the 16-byte shader instruction encoding of attila-sim
 * ShaderInstruction.cpp. Header-only and freestanding (no libc), so the guest
 * demo, the qtests and the core's unit tests build records the same way.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_ATTILA_CMD_H
#define GPU3D_ATTILA_CMD_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu3d/attila-regs.h"

/* ---- a buffer of records ------------------------------------------------ */

typedef struct AttilaRecBuf {
    uint8_t *buf;
    uint32_t n, cap;            /* bytes used / available */
    int overflow;               /* a record did not fit (and was not written) */
} AttilaRecBuf;

static inline void attila_put_le32(uint8_t *p, uint32_t v)
{
    p[0] = v;
    p[1] = v >> 8;
    p[2] = v >> 16;
    p[3] = v >> 24;
}

static inline uint32_t attila_get_le32(const uint8_t *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static inline uint32_t attila_f32_bits(float f)
{
    union { float f; uint32_t u; } v = { f };
    return v.u;
}

/* room for `len` bytes, or NULL (and overflow set) */
static inline uint8_t *attila_rec_room(AttilaRecBuf *b, uint32_t len)
{
    uint8_t *p;

    if (b->overflow || len > b->cap - b->n) {
        b->overflow = 1;
        return 0;
    }
    p = b->buf + b->n;
    b->n += len;
    return p;
}

/* AGP_REG_WRITE: register `reg`, element `index`, four 32-bit words */
static inline void attila_rec_reg(AttilaRecBuf *b, uint32_t reg,
                                  uint32_t index, const uint32_t v[4])
{
    uint8_t *p = attila_rec_room(b, ATTILA_REC_REG_WRITE);
    int k;

    if (!p) {
        return;
    }
    attila_put_le32(p, ATTILA_AGP_REG_WRITE);
    attila_put_le32(p + 4, reg);
    attila_put_le32(p + 8, index);
    for (k = 0; k < 4; k++) {
        attila_put_le32(p + 12 + 4 * k, v[k]);
    }
    attila_put_le32(p + 28, 0);         /* md: the simulator's debug id */
}

static inline void attila_rec_reg_u32(AttilaRecBuf *b, uint32_t reg,
                                      uint32_t index, uint32_t v)
{
    const uint32_t w[4] = { v, 0, 0, 0 };
    attila_rec_reg(b, reg, index, w);
}

static inline void attila_rec_reg_f32(AttilaRecBuf *b, uint32_t reg,
                                      uint32_t index, float v)
{
    attila_rec_reg_u32(b, reg, index, attila_f32_bits(v));
}

/* a quadfloat register element (constants, clear colour, default values) */
static inline void attila_rec_reg_vec4(AttilaRecBuf *b, uint32_t reg,
                                       uint32_t index, float x, float y,
                                       float z, float w)
{
    const uint32_t v[4] = { attila_f32_bits(x), attila_f32_bits(y),
                            attila_f32_bits(z), attila_f32_bits(w) };
    attila_rec_reg(b, reg, index, v);
}

/* AGP_COMMAND */
static inline void attila_rec_cmd(AttilaRecBuf *b, uint32_t command)
{
    uint8_t *p = attila_rec_room(b, ATTILA_REC_COMMAND);

    if (p) {
        attila_put_le32(p, ATTILA_AGP_COMMAND);
        attila_put_le32(p + 4, command);
    }
}

/* room for a header of `hdr` bytes followed by a copy of data[0..len) */
static inline uint8_t *attila_rec_with_data(AttilaRecBuf *b, uint32_t hdr,
                                            const void *data, uint32_t len)
{
    const uint8_t *d = data;
    uint8_t *p;
    uint32_t i;

    if (len > 0xffffffffu - hdr) {
        b->overflow = 1;
        return 0;
    }
    p = attila_rec_room(b, hdr + len);
    if (p) {
        for (i = 0; i < len; i++) {
            p[hdr + i] = d[i];
        }
    }
    return p;
}

/* AGP_WRITE of `size` bytes to ATTILA address `addr`, data inline */
static inline void attila_rec_write(AttilaRecBuf *b, uint32_t addr,
                                    const void *data, uint32_t size)
{
    uint8_t *p = attila_rec_with_data(b, ATTILA_REC_WRITE_HDR, data, size);

    if (!p) {
        return;
    }
    attila_put_le32(p, ATTILA_AGP_WRITE);
    attila_put_le32(p + 4, addr);
    attila_put_le32(p + 8, 0);          /* md */
    p[12] = 0;                          /* locked */
    attila_put_le32(p + 13, size);
}

/* AGP_EVENT with a message of `len` bytes */
static inline void attila_rec_event(AttilaRecBuf *b, uint32_t event,
                                    const void *msg, uint32_t len)
{
    uint8_t *p = attila_rec_with_data(b, ATTILA_REC_EVENT_HDR, msg, len);

    if (!p) {
        return;
    }
    attila_put_le32(p, ATTILA_AGP_EVENT);
    attila_put_le32(p + 4, event);
    attila_put_le32(p + 8, len);
}

/* a fence: an unnamed event with a 4-byte message lands in BAR0 FENCE */
static inline void attila_rec_fence(AttilaRecBuf *b, uint32_t value)
{
    uint8_t v[4];

    attila_put_le32(v, value);
    attila_rec_event(b, ATTILA_EVENT_UNNAMED, v, 4);
}

/*
 * The length of the record at p[0..avail): > 0 its byte length (which may
 * exceed avail: the record is not complete yet), 0 when even its length
 * is not readable yet, -1 for a kind that is not in a trace.
 */
static inline int64_t attila_rec_length(const uint8_t *p, uint32_t avail)
{
    if (avail < 4) {
        return 0;
    }
    switch (attila_get_le32(p)) {
    case ATTILA_AGP_WRITE:
    case ATTILA_AGP_PRELOAD:
        return avail < ATTILA_REC_WRITE_HDR ? 0 :
               (int64_t)ATTILA_REC_WRITE_HDR + attila_get_le32(p + 13);
    case ATTILA_AGP_REG_WRITE:
        return ATTILA_REC_REG_WRITE;
    case ATTILA_AGP_COMMAND:
        return ATTILA_REC_COMMAND;
    case ATTILA_AGP_EVENT:
        return avail < ATTILA_REC_EVENT_HDR ? 0 :
               (int64_t)ATTILA_REC_EVENT_HDR + attila_get_le32(p + 8);
    default:
        return -1;
    }
}

/* ---- feeding the ring (docs/attila-3d.md, "The command ring") ------------- */

/*
 * How a driver reaches the device: BAR0 reads and writes, a copy into the
 * ring's memory at a byte offset (never across its end), and a pause while
 * the ring is full. `size` is RING_SIZE, `wp` the driver's RING_WRITE.
 */
typedef struct AttilaRingIo {
    void *opaque;
    uint32_t (*rd)(void *opaque, uint32_t off);
    void (*wr)(void *opaque, uint32_t off, uint32_t val);
    void (*copy)(void *opaque, uint32_t at, const uint8_t *p, uint32_t n);
    void (*pause)(void *opaque);
    uint32_t size, wp;
} AttilaRingIo;

/* bytes the driver may write now (at most RING_SIZE - 1 are pending) */
static inline uint32_t attila_ring_free(AttilaRingIo *r)
{
    uint32_t rp = r->rd(r->opaque, A_ATTILA_RING_READ);
    return r->size - 1 - (r->wp + r->size - rp) % r->size;
}

/*
 * Append n bytes of records (n < size), wrapping at the end; then
 * RING_WRITE and the doorbell. 0 on success; -1 if n does not fit in the
 * ring or the device made no room within `max_pauses` pauses.
 */
static inline int attila_ring_push(AttilaRingIo *r, const uint8_t *p,
                                   uint32_t n, uint32_t max_pauses)
{
    uint32_t first, pauses = 0;

    if (n >= r->size) {
        return -1;
    }
    while (attila_ring_free(r) < n) {
        if (++pauses > max_pauses) {
            return -1;
        }
        r->pause(r->opaque);
    }
    first = n < r->size - r->wp ? n : r->size - r->wp;
    r->copy(r->opaque, r->wp, p, first);
    if (n > first) {
        r->copy(r->opaque, 0, p + first, n - first);
    }
    r->wp = (r->wp + n) % r->size;
    r->wr(r->opaque, A_ATTILA_RING_WRITE, r->wp);
    r->wr(r->opaque, A_ATTILA_DOORBELL, 1);
    return 0;
}

/* ---- shader instructions (attila-sim ShaderInstruction.cpp) -------------- */

typedef struct AttilaShSrc {
    uint8_t bank, reg, swz;     /* ATTILA_BANK_*, register, swizzle */
    bool neg, abs;
} AttilaShSrc;

typedef struct AttilaShIns {
    uint8_t opc;                /* ATTILA_SH_* */
    bool end, pred, inv;        /* end flag; predicated, inverted predicate */
    uint8_t preg;
    AttilaShSrc s[3];
    uint8_t rbank, rreg, mask;  /* result bank, register, write mask xyzw=8421 */
    bool sat;
    bool rel;                   /* relative constant addressing */
    uint8_t areg, acomp;
    int16_t aoff;
    bool has_imm;               /* 32-bit immediate instead of op2/op3 regs */
    uint32_t imm;
} AttilaShIns;

#define ATTILA_SWZ(a, b, c, d) ((a) << 6 | (b) << 4 | (c) << 2 | (d))
/* operand: register `r` of bank `bk`, no swizzle or modifiers */
#define ATTILA_SRC(bk, r) \
    ((AttilaShSrc){ .bank = (bk), .reg = (r), .swz = ATTILA_SWZ_XYZW })

static inline void attila_sh_encode(const AttilaShIns *in, uint8_t out[16])
{
    static const int at[3] = { 17, 22, 27 };
    uint64_t lo = 0, hi = 0;
    int k;

    lo |= in->opc;
    lo |= (uint64_t)in->end << 8;
    lo |= (uint64_t)in->pred << 10 | (uint64_t)in->inv << 11;
    lo |= (uint64_t)(in->preg & 31) << 12;
    for (k = 0; k < 3; k++) {
        lo |= (uint64_t)(in->s[k].bank & 7) << at[k];
        lo |= (uint64_t)in->s[k].neg << (at[k] + 3);
        lo |= (uint64_t)in->s[k].abs << (at[k] + 4);
    }
    lo |= (uint64_t)(in->rbank & 7) << 32;
    lo |= (uint64_t)in->sat << 35;
    lo |= (uint64_t)(in->mask & 15) << 36;
    lo |= (uint64_t)in->rel << 40;
    lo |= (uint64_t)(in->areg & 3) << 41 | (uint64_t)(in->acomp & 3) << 43;
    lo |= (uint64_t)((uint16_t)in->aoff & 0x1ff) << 45;
    hi |= in->s[0].reg | (uint64_t)in->s[0].swz << 8 | (uint64_t)in->rreg << 16;
    if (in->has_imm) {
        hi |= (uint64_t)in->imm << 32;
    } else {
        hi |= (uint64_t)in->s[1].reg << 24 | (uint64_t)in->s[1].swz << 32;
        hi |= (uint64_t)in->s[2].reg << 40 | (uint64_t)in->s[2].swz << 48;
    }
    for (k = 0; k < 8; k++) {
        out[k] = lo >> (8 * k);
        out[8 + k] = hi >> (8 * k);
    }
}

#endif
