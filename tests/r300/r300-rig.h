/*
 * A host-side R300 for tests and benchmarks: the core over a flat VRAM
 * array, its ring at GPU address 0 with the read-pointer write-back right
 * after it, driven as a driver drives it (append to the ring, move WPTR,
 * let the CP run until idle).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_R300_RIG_H
#define TESTS_R300_RIG_H

#include "r300/r300.h"
#include "gpu3d/r300-cmd.h"

typedef struct R300Rig {
    uint8_t *vram;
    uint32_t vram_size;
    unsigned ring_bufsz;            /* CP_RB_CNTL.RB_BUFSZ */
    G3DFlatMem flat, sysflat;
    uint8_t sysram[16384];          /* system memory behind the PCI GART */
    R300Core *core;
    int irqs;                       /* r300_irq_level() seen high */
    int64_t now_ns;                 /* the core's clock (cfg.now_ns) */
} R300Rig;

/* ring of 8 << ring_bufsz bytes at 0, write-back right after it */
R300Rig *r300_rig_new(int threads, uint32_t vram_size, unsigned ring_bufsz);
void r300_rig_free(R300Rig *d);
uint32_t r300_rig_ring_size(const R300Rig *d);
uint32_t r300_rig_wb_addr(const R300Rig *d);

void r300_rig_wr(R300Rig *d, uint32_t reg, uint32_t v);
uint32_t r300_rig_rd(R300Rig *d, uint32_t reg);

/* CP_RB_* for the ring (write-back of the read pointer on) */
void r300_rig_ring_init(R300Rig *d);
/* append dwords at WPTR, kick, run the CP until it is idle */
void r300_rig_ring_run(R300Rig *d, const uint32_t *dw, uint32_t n);

void r300_rig_cmd_begin(R300Cmd *c, uint32_t *buf, uint32_t cap);

#endif
