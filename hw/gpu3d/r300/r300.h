/*
 * The R300 engine core: what the QEMU device (hw/gpu3d/r300-pci.c), the
 * tests and the tools call. See docs/architecture.md for the contract.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_R300_H
#define GPU3D_R300_H

#include <stdbool.h>
#include <stdint.h>

#include "common/g3d-core.h"
#include "common/scanout.h"
#include "common/g3d-state.h"

typedef struct R300Core R300Core;

#define R300_EDID_SIZE 128

typedef struct R300CoreConfig {
    /*
     * VRAM (BAR0), chip offsets 0 .. vram_size - 1. The memory controller
     * places it in the GPU address space at MC_FB_LOCATION.
     */
    G3DMem vram;
    uint64_t vram_size;
    /* Guest physical memory, reached through the PCI GART (AIC_*). */
    G3DMem sys;
    G3DCoreHooks hooks;   /* render threads, IRQ and display callbacks */
    /* the time in ns, for the CRTC's current line (NULL: line 0) */
    int64_t (*now_ns)(void *opaque);
    /*
     * The EDID of the monitor on the VGA connector (R300_EDID_SIZE bytes),
     * read over I2C on GPIO_VGA_DDC; NULL: no monitor answers there.
     */
    const uint8_t *edid;
    bool vga_monitor;           /* a monitor loads the primary DAC */
} R300CoreConfig;

R300Core *r300_core_new(const R300CoreConfig *cfg);
void r300_core_free(R300Core *c);
void r300_core_reset(R300Core *c);
/*
 * The core's saved state (docs/r300-3d.md, Migration), taken between work()
 * calls: the register file, PLL, CRTC and DDC state, the CP's ring and
 * indirect-buffer position, PVS memory, a VAP port draw in progress, HiZ
 * RAM and the Z-pass counters. A load that fails (in->error) leaves the
 * core reset.
 */
void r300_state_save(R300Core *c, G3DStateOut *o);
bool r300_state_load(R300Core *c, G3DStateIn *in);

/* the opaque of the config's callbacks */
void *r300_core_opaque(R300Core *c);

/* Register BAR accesses (64 KiB, see include/gpu3d/r300-regs.h). */
uint64_t r300_reg_read(R300Core *c, uint32_t offset, unsigned size);
void r300_reg_write(R300Core *c, uint32_t offset, uint64_t val, unsigned size);

/*
 * Advance the command processor by at most `budget` packets (a draw packet
 * counts as one). Returns true while more work is pending.
 */
bool r300_core_work(R300Core *c, unsigned budget);

bool r300_irq_level(R300Core *c);

/* Draws whose front end ran on the render threads (tests, benchmarks). */
uint64_t r300_parallel_draws(R300Core *c);

/*
 * A vertical blank at time now_ns (the glue calls this at the refresh rate):
 * counts the frame, takes a pending page flip, raises the vblank interrupt.
 * Returns the ns to the next one, 0 while the CRTC is off.
 */
uint64_t r300_crtc_vblank(R300Core *c, int64_t now_ns);
/* The frame period of the current mode in ns, 0 while the CRTC is off. */
uint64_t r300_crtc_frame_ns(R300Core *c);

/* The CRTC's picture (head 0 only). */
bool r300_scanout(R300Core *c, int head, G3DScanout *out);

/*
 * The surface registers (SURFACE_CNTL, SURFACEn_*), as the glue sees the
 * guest write them, so that it can route CPU access to the VRAM BAR
 * through r300_surface_translate while a surface is tiled, in order with
 * the guest's register writes.
 */
typedef struct R300Surfaces {
    uint32_t cntl;
    uint32_t lower[8], upper[8], info[8];
    uint32_t mm_index;          /* MM_INDEX, for writes through MM_DATA */
} R300Surfaces;

/* a register write (BAR2 or the I/O BAR) seen: true if it changed them */
bool r300_surfaces_write(R300Surfaces *s, uint32_t offset, uint64_t val,
                         unsigned size);
/* the surfaces as the core holds them (after reset or a state load) */
void r300_surfaces_get(R300Core *c, R300Surfaces *s);
/* the VRAM range [*lo, *hi] that tiled surfaces cover; false if none */
bool r300_surfaces_tiled_range(const R300Surfaces *s, uint64_t *lo,
                               uint64_t *hi);
/* the VRAM offset a CPU access to BAR offset `off` reaches */
uint64_t r300_surface_translate(const R300Surfaces *s, uint64_t off);

/* The GPU address space (MC + GART), for tests and tools. */
const G3DMem *r300_gpu_mem(R300Core *c);
/* VRAM by offset, which the CRTC scans out of. */
const G3DMem *r300_scanout_mem(R300Core *c);

#endif
