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
#include "gpu3d/pica200-cmd.h"
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

/*
 * The BAR0 accessors of gpu3d/pica200-cmd.h's sequences: a read first lets
 * the core work a step, so polling a status register makes progress.
 */
static inline void pt_bus_wr(void *opaque, uint32_t off, uint32_t val)
{
    pt_w32(opaque, off, val);
}

static inline uint32_t pt_bus_rd(void *opaque, uint32_t off)
{
    pica200_core_work(((PicaTest *)opaque)->core, 4096);
    return pt_r32(opaque, off);
}

static inline PicaBus pt_bus(PicaTest *t)
{
    PicaBus b = { t, pt_bus_wr, pt_bus_rd };
    return b;
}

static inline void pt_seq(PicaTest *t, const PicaRegWrite *w, unsigned n)
{
    PicaBus b = pt_bus(t);
    pica_bus_seq(&b, w, n);
}

/* start memory fill unit `unit` on [start, end) (3DS physical) */
static inline void pt_fill(PicaTest *t, unsigned unit, uint32_t start,
                           uint32_t end, uint32_t value, unsigned width)
{
    PicaRegWrite w[4];

    pt_seq(t, w, pica_seq_fill(w, unit, start, end, value, width));
}

/* start a display transfer (or texture copy, by `flags`) */
static inline void pt_start_transfer(PicaTest *t, uint32_t in_pa,
                                     uint32_t out_pa, uint32_t in_size,
                                     uint32_t out_size, uint32_t flags)
{
    PicaRegWrite w[6];

    pt_seq(t, w, pica_seq_transfer(w, in_pa, out_pa, in_size, out_size, flags));
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

/* ---- command lists, as a guest builds them (gpu3d/pica200-cmd.h) ------ */

typedef PicaCmd CmdBuf;

static inline int cb_grow(PicaCmd *c)
{
    c->cap *= 2;
    c->buf = g_renew(uint32_t, c->buf, c->cap);
    return 1;
}

static inline void cb_init(CmdBuf *b)
{
    memset(b, 0, sizeof(*b));
    b->cap = 1024;
    b->buf = g_new(uint32_t, b->cap);
    b->grow = cb_grow;
}

static inline void cb_free(CmdBuf *b)
{
    g_free(b->buf);
}

/* copy the list to guest RAM at `off` and start it on channel 0 from BAR0 */
static inline void pt_kick(PicaTest *t, const CmdBuf *b, uint32_t off)
{
    g_assert_cmpuint(off + b->n * 4, <=, PT_RAM_SIZE);
    g_assert_false(b->overflow);
    memcpy(t->ram + off, b->buf, b->n * 4);
    pt_wreg(t, GPUREG_CMDBUF_SIZE0, (uint32_t)(b->n * 4) >> 3);
    pt_wreg(t, GPUREG_CMDBUF_ADDR0, (PICA200_PHYS_FCRAM + off) >> 3);
    pt_wreg(t, GPUREG_CMDBUF_JUMP0, 1);
}

/* byte offset of pixel (x, memory row) in an 8x8-tiled surface (the
 * layout gpu3d/pica200-cmd.h writes textures in, 3dbrew's description) */
static inline size_t pt_tiled_offset(unsigned x, unsigned row, unsigned w,
                                     unsigned bpp)
{
    return pica_tiled_offset(x, row, w, bpp);
}

#endif
