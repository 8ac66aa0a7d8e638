/*
 * The pica200-3d engine core: the PICA200 (Nintendo 3DS GPU) register block,
 * command-list processor, shader units, geometry pipeline, rasteriser,
 * per-fragment operations, memory fill, transfer engine and LCD scanout,
 * without QEMU. The QEMU glue (hw/gpu3d/pica200-pci.c) maps BAR0 onto
 * pica200_reg_read/write, calls pica200_core_work on its worker thread and
 * shows pica200_scanout's two heads.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_PICA200_H
#define GPU3D_PICA200_H

#include <stdbool.h>
#include <stdint.h>

#include "common/g3d-core.h"
#include "common/g3d-state.h"
#include "common/scanout.h"

typedef struct Pica200Core Pica200Core;

typedef struct Pica200CoreConfig {
    /*
     * VRAM, addressed by VRAM offset (0 .. vram_size); 3DS physical
     * 0x18000000 + x. The device's BAR2.
     */
    G3DMem vram;
    uint64_t vram_size;        /* 0: PICA200_VRAM_SIZE */
    /*
     * Guest physical memory, addressed by guest physical address; 3DS
     * physical 0x20000000 + x (the guest's RAM plays FCRAM). Optional
     * (read/write NULL: every such address is bad).
     */
    G3DMem sys;
    G3DCoreHooks hooks;   /* render threads, IRQ and display callbacks */
} Pica200CoreConfig;

Pica200Core *pica200_core_new(const Pica200CoreConfig *cfg);
void pica200_core_free(Pica200Core *c);
/* power-on state: stops every list, fill and transfer; clears all registers */
void pica200_core_reset(Pica200Core *c);

/* BAR0 accesses; size 1, 2 or 4 (aligned), 8 is split into two words */
uint64_t pica200_reg_read(Pica200Core *c, uint32_t offset, unsigned size);
void pica200_reg_write(Pica200Core *c, uint32_t offset, uint64_t val,
                       unsigned size);

/*
 * Advance the engines by at most about `budget` units (a unit is one
 * command-list parameter, one vertex, one triangle per 1024 pixels of its
 * bounding box, 4 KiB of memory fill or 1024 transferred pixels).
 * Returns true while work is pending. Everything drawn is in memory when it
 * returns.
 */
bool pica200_core_work(Pica200Core *c, unsigned budget);

/* the PCI INTx level: P3D interrupt status, PSC0/PSC1/PPF finished */
bool pica200_irq_level(Pica200Core *c);

/*
 * What head 0 (top screen, 400x240) or 1 (bottom, 320x240) shows. The
 * description's addr is a 3DS physical address: copy it with
 * g3d_scanout_copy(out, pica200_scanout_mem(c), ...).
 */
bool pica200_scanout(Pica200Core *c, int head, G3DScanout *out);

/* the GPU's view of memory: 3DS physical addresses, translated */
const G3DMem *pica200_scanout_mem(Pica200Core *c);

/*
 * Saved state (savevm, migration; docs/pica200-3d.md says what the stream
 * holds). Save only while the core is quiescent: no pica200_core_work call
 * in progress. Load returns false with in->error saying why, the core then
 * left reset; memory (VRAM, FCRAM) is not part of the stream.
 */
void pica200_state_save(Pica200Core *c, G3DStateOut *o);
bool pica200_state_load(Pica200Core *c, G3DStateIn *in);

/* ---- introspection for tests, tools and the device's documentation ---- */

typedef enum Pica200RegStatus {
    PICA200_REG_UNNAMED,     /* placeholder in the reference: stored only */
    PICA200_REG_STORED,      /* named, value stored and read back, no effect yet */
    PICA200_REG_MODELLED,    /* named and interpreted by the core */
} Pica200RegStatus;

typedef struct Pica200RegInfo {
    const char *name;        /* NULL for placeholders */
    Pica200RegStatus status;
    const char *block;       /* the core file that interprets it, or NULL */
} Pica200RegInfo;

/* internal register `id` (0..0x2FF) */
const Pica200RegInfo *pica200_reg_info(unsigned id);

/* counters since reset */
typedef struct Pica200Stats {
    uint64_t lists;          /* command lists started */
    uint64_t commands;       /* register writes from command lists */
    uint64_t vertices;       /* vertices through the vertex shader */
    uint64_t triangles;      /* triangles handed to the rasteriser */
    uint64_t fragments;      /* fragments shaded */
    uint64_t fragments_filled; /* of those, by a flat triangle's block fill */
    uint64_t shader_faults;  /* shader invocations stopped by a fault */
} Pica200Stats;

void pica200_stats(Pica200Core *c, Pica200Stats *out);
/* runs of a draw's vertices whose front end ran on the render threads */
uint64_t pica200_front_runs(Pica200Core *c);

#endif
