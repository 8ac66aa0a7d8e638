/*
 * Helpers for the pica200-3d core tests, benchmark and fuzzer: a core over
 * plain buffers (6 MiB of VRAM, guest RAM as FCRAM), a command-list builder
 * that writes what a guest would, and small shader-building helpers.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef PICA_TEST_H
#define PICA_TEST_H

#include <glib.h>
#include <string.h>

#include "gpu3d/pica200-regs.h"
#include "pica200/pica200.h"

#define PT_RAM_SIZE (16u << 20)

typedef struct PicaTest {
    uint8_t *vram, *ram;
    G3DFlatMem fv, fr;
    Pica200Core *core;
    unsigned irq_calls, display_calls;
} PicaTest;

static void pt_irq(void *opaque)
{
    ((PicaTest *)opaque)->irq_calls++;
}

static void pt_display(void *opaque)
{
    ((PicaTest *)opaque)->display_calls++;
}

static inline void pt_init(PicaTest *t, int threads)
{
    Pica200CoreConfig cfg;

    memset(t, 0, sizeof(*t));
    t->vram = g_malloc0(PICA200_VRAM_SIZE);
    t->ram = g_malloc0(PT_RAM_SIZE);
    memset(&cfg, 0, sizeof(cfg));
    g3d_flat_mem_init(&cfg.vram, &t->fv, t->vram, 0, PICA200_VRAM_SIZE);
    g3d_flat_mem_init(&cfg.fcram, &t->fr, t->ram, 0, PT_RAM_SIZE);
    cfg.vram_size = PICA200_VRAM_SIZE;
    cfg.threads = threads;
    cfg.irq_update = pt_irq;
    cfg.display_update = pt_display;
    cfg.opaque = t;
    t->core = pica200_core_new(&cfg);
}

static inline void pt_free(PicaTest *t)
{
    pica200_core_free(t->core);
    g_free(t->vram);
    g_free(t->ram);
}

/* run the core until it is idle; false if still busy after max_calls */
static inline bool pt_run(PicaTest *t, unsigned max_calls)
{
    while (max_calls--) {
        if (!pica200_core_work(t->core, 4096)) {
            return true;
        }
    }
    return false;
}

static inline void pt_w32(PicaTest *t, uint32_t off, uint32_t v)
{
    pica200_reg_write(t->core, off, v, 4);
}

static inline uint32_t pt_r32(PicaTest *t, uint32_t off)
{
    return (uint32_t)pica200_reg_read(t->core, off, 4);
}

/* internal register through BAR0 */
static inline void pt_wreg(PicaTest *t, uint32_t id, uint32_t v)
{
    pt_w32(t, PICA_INTERNAL_OFFSET(id), v);
}

static inline uint32_t pt_rreg(PicaTest *t, uint32_t id)
{
    return pt_r32(t, PICA_INTERNAL_OFFSET(id));
}

/* start memory fill unit `unit` on [start, end) (3DS physical) */
static inline void pt_fill(PicaTest *t, unsigned unit, uint32_t start,
                           uint32_t end, uint32_t value, unsigned width)
{
    uint32_t base = PICA_PSC_BASE(unit);

    pt_w32(t, base + PICA_PSC_ADDR_START, start >> 3);
    pt_w32(t, base + PICA_PSC_ADDR_END, end >> 3);
    pt_w32(t, base + PICA_PSC_VALUE, value);
    pt_w32(t, base + PICA_PSC_CONTROL, width << 8 | 1);
}

/* start a display transfer (or texture copy, by `flags`) */
static inline void pt_start_transfer(PicaTest *t, uint32_t in_pa,
                                     uint32_t out_pa, uint32_t in_size,
                                     uint32_t out_size, uint32_t flags)
{
    pt_w32(t, A_PPF_INPUT_ADDR, in_pa >> 3);
    pt_w32(t, A_PPF_OUTPUT_ADDR, out_pa >> 3);
    pt_w32(t, A_PPF_INPUT_SIZE, in_size);
    pt_w32(t, A_PPF_OUTPUT_SIZE, out_size);
    pt_w32(t, A_PPF_FLAGS, flags);
    pt_w32(t, A_PPF_CONTROL, 1);
}

/* a whole transfer: start, run, expect "finished", clear it */
static inline void pt_transfer(PicaTest *t, uint32_t in_pa, uint32_t out_pa,
                               uint32_t in_size, uint32_t out_size,
                               uint32_t flags)
{
    pt_start_transfer(t, in_pa, out_pa, in_size, out_size, flags);
    g_assert_true(pt_run(t, 1000));
    g_assert_cmphex(pt_r32(t, A_PPF_CONTROL), ==, R_PPF_CONTROL_FINISHED_MASK);
    pt_w32(t, A_PPF_CONTROL, 0);
}

/* ---- command lists, as a guest builds them ----------------------------- */

typedef struct CmdBuf {
    uint32_t *w;
    size_t n, cap;
} CmdBuf;

static inline void cb_init(CmdBuf *b)
{
    b->cap = 1024;
    b->n = 0;
    b->w = g_new(uint32_t, b->cap);
}

static inline void cb_free(CmdBuf *b)
{
    g_free(b->w);
}

static inline void cb_word(CmdBuf *b, uint32_t v)
{
    if (b->n == b->cap) {
        b->cap *= 2;
        b->w = g_renew(uint32_t, b->w, b->cap);
    }
    b->w[b->n++] = v;
}

/* one command: n >= 1 parameters to id (consecutive: id, id+1, ...) */
static inline void cb_cmd(CmdBuf *b, uint32_t id, uint32_t mask,
                          bool consecutive, const uint32_t *p, unsigned n)
{
    unsigned i;

    cb_word(b, p[0]);
    cb_word(b, PICA_CMD_HEADER(id, mask, n - 1, consecutive));
    for (i = 1; i < n; i++) {
        cb_word(b, p[i]);
    }
    if (b->n & 1) {
        cb_word(b, 0);               /* pad to 8 bytes */
    }
}

static inline void cb_reg(CmdBuf *b, uint32_t id, uint32_t v)
{
    cb_cmd(b, id, 0xF, false, &v, 1);
}

static inline void cb_regm(CmdBuf *b, uint32_t id, uint32_t mask, uint32_t v)
{
    cb_cmd(b, id, mask, false, &v, 1);
}

/* FINALIZE, repeated until the list is a multiple of 16 bytes (libctru) */
static inline void cb_finalize(CmdBuf *b)
{
    cb_reg(b, GPUREG_FINALIZE, 0x12345678);
    if (b->n & 3) {
        cb_reg(b, GPUREG_FINALIZE, 0x12345678);
    }
}

/* copy the list to guest RAM at `off` and start it on channel 0 from BAR0 */
static inline void pt_kick(PicaTest *t, const CmdBuf *b, uint32_t off)
{
    g_assert_cmpuint(off + b->n * 4, <=, PT_RAM_SIZE);
    memcpy(t->ram + off, b->w, b->n * 4);
    pt_wreg(t, GPUREG_CMDBUF_SIZE0, (uint32_t)(b->n * 4) >> 3);
    pt_wreg(t, GPUREG_CMDBUF_ADDR0, (PICA200_PHYS_FCRAM + off) >> 3);
    pt_wreg(t, GPUREG_CMDBUF_JUMP0, 1);
}

/*
 * Byte offset of pixel (x, memory row) in an 8x8-tiled surface `w` pixels
 * wide: tiles row by row, Morton order inside (digest §4.8), written here
 * independently of the core.
 */
static inline size_t pt_tiled_offset(unsigned x, unsigned row, unsigned w,
                                     unsigned bpp)
{
    unsigned m = 0, i;

    for (i = 0; i < 3; i++) {
        m |= ((x >> i) & 1) << (2 * i) | ((row >> i) & 1) << (2 * i + 1);
    }
    return ((size_t)((row / 8) * (w / 8) + x / 8) * 64 + m) * bpp;
}

/* ---- numbers ------------------------------------------------------------- */

/*
 * float -> float1.7.16 the way citro3d's f32tof24 does it: exponent - 64,
 * mantissa truncated (an independent encoder for the tests).
 */
static inline uint32_t pt_f24(float f)
{
    uint32_t u, s, e, m;

    memcpy(&u, &f, 4);
    s = u >> 31;
    if (!(u & 0x7FFFFFFF)) {
        return s << 23;
    }
    e = (u >> 23) & 0xFF;
    m = (u & 0x7FFFFF) >> 7;
    if (e < 64) {
        return s << 23;
    }
    if (e - 64 >= 0x7F) {
        return s << 23 | 0x7F0000;
    }
    return s << 23 | (e - 64) << 16 | m;
}

/* float -> float1.7.23 placed in b1-31 (VIEWPORT_INVW/INVH) */
static inline uint32_t pt_f31(float f)
{
    uint32_t u, s, e, m;

    memcpy(&u, &f, 4);
    s = u >> 31;
    e = (u >> 23) & 0xFF;
    m = u & 0x7FFFFF;
    if (!(u & 0x7FFFFFFF) || e < 64) {
        return s << 31;
    }
    return (s << 30 | (e - 64) << 23 | m) << 1;
}

/* four f24 in three words: W in the top of the first (digest §5) */
static inline void pt_pack_f24x4(const float v[4], uint32_t w[3])
{
    uint32_t x = pt_f24(v[0]), y = pt_f24(v[1]), z = pt_f24(v[2]),
             ww = pt_f24(v[3]);

    w[0] = ww << 8 | z >> 16;
    w[1] = z << 16 | y >> 8;
    w[2] = y << 24 | x;
}

#endif
