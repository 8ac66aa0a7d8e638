/*
 * The flipper-gx engine core: the GameCube Flipper's hardware registers
 * (CP, PE, VI, PI, MI, DSP, DI, SI, EXI, AI and the write-gather pipe) and
 * its GX graphics pipeline, QEMU-free. See docs/flipper-gx.md.
 *
 * This is the API every gpu3d core offers its QEMU glue (docs/architecture.md):
 * register accesses at BAR0 offsets, bounded work steps, the INTx level and
 * the scanout. All calls come from one thread at a time.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_FLIPPER_H
#define GPU3D_FLIPPER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/g3d-core.h"
#include "common/g3d-state.h"
#include "common/scanout.h"

typedef struct FlipperCore FlipperCore;

typedef struct FlipperCoreConfig {
    G3DMem vram;             /* MEM1, addressed with GameCube physical addresses */
    uint32_t vram_size;      /* bytes of MEM1; 0 = FLIPPER_MEM1_SIZE (24 MiB) */
    G3DCoreHooks hooks;   /* render threads, IRQ and display callbacks */
    /*
     * Monotonic time in ns for the VI beam and the AI sample counter.
     * NULL: time stands still (the beam never moves), as in unit tests that
     * do not care; tests that do pass a fake clock.
     */
    int64_t (*clock_ns)(void *opaque);
} FlipperCoreConfig;

FlipperCore *flipper_core_new(const FlipperCoreConfig *cfg);
void flipper_core_free(FlipperCore *c);
/* Power-on state of every block; drops all pending work. */
void flipper_core_reset(FlipperCore *c);

/* BAR0 accesses: size 2 or 4 for registers, 1/2/4/8 for the gather pipe. */
uint64_t flipper_reg_read(FlipperCore *c, uint32_t offset, unsigned size);
void flipper_reg_write(FlipperCore *c, uint32_t offset, uint64_t val,
                       unsigned size);

/*
 * Advance the command processor by about `budget` units (one unit = one
 * FIFO command, one vertex, or 2048 pixels of a triangle's box or an EFB
 * copy; a step ends after the unit that spends it). Returns true if more
 * work is pending.
 */
bool flipper_core_work(FlipperCore *c, unsigned budget);
/*
 * The device's step (flipper-pci.c): about two full-screen triangles'
 * pixels, or 1024 small triangles' vertices, which the front end spreads
 * over the render threads (runs of 96 vertices and more).
 */
#define FLIPPER_WORK_BUDGET 1024

bool flipper_irq_level(FlipperCore *c);

/* Head 0 = the VI: the XFB described for g3d_scanout_copy(). */
bool flipper_scanout(FlipperCore *c, int head, G3DScanout *out);

/*
 * The clock time (clock_ns) of the next timed event (a VI display
 * interrupt, an AI sample-counter match), or INT64_MAX when none is armed:
 * the glue arms a timer for it and calls any entry point when it fires.
 */
int64_t flipper_next_event_ns(FlipperCore *c);

/*
 * Execute a complete GX command stream from host memory at once, as the CP
 * would execute it from its FIFO (display lists it calls are read from
 * MEM1). For tools, benchmarks and the decoder's fuzz harness.
 */
void flipper_gx_exec(FlipperCore *c, const uint8_t *cmds, size_t len);
/*
 * The same, stopping once `budget` units (those of flipper_core_work) are
 * spent, display lists included; false when it stopped on the budget.
 */
bool flipper_gx_exec_budget(FlipperCore *c, const uint8_t *cmds, size_t len,
                            unsigned budget);

/* One line of a YUV 4:2:2 XFB (Y0 Cb Y1 Cr pairs) to 0xAARRGGBB, as the VI
 * scanout converts it. */
void flipper_xfb_to_argb(const uint8_t *src, uint32_t *dst, int width);

/*
 * Saved state (savevm, migration; docs/flipper-gx.md says what the stream
 * holds). Save only while the core is quiescent: no flipper_core_work call
 * in progress. Load returns false with in->error saying why, the core then
 * left reset; MEM1 is not part of the stream.
 */
void flipper_state_save(FlipperCore *c, G3DStateOut *o);
bool flipper_state_load(FlipperCore *c, G3DStateIn *in);

typedef struct FlipperStats {
    uint64_t commands;       /* GX commands decoded */
    uint64_t vertices;       /* vertices loaded */
    uint64_t triangles;      /* triangles handed to the rasteriser */
    uint64_t pixels;         /* pixels that reached the TEV */
    uint64_t efb_copies;
} FlipperStats;

void flipper_core_stats(FlipperCore *c, FlipperStats *out);

/*
 * The CPU's EFB window (peek/poke), offset relative to
 * FLIPPER_EFB_CPU_BASE, 32-bit accesses only. Reads return colour as
 * A << 24 | RGB (alpha by PE_ALPHAREAD) or the 24-bit Z; writes go through
 * the PE's CPU-access modes (PE_ZCONF, PE_ALPHACONF, PE_DSTALPHA,
 * PE_ALPHAMODE). Bad offsets are logged: reads return 0, writes are dropped.
 */
uint32_t flipper_efb_peek(FlipperCore *c, uint32_t offset);
void flipper_efb_poke(FlipperCore *c, uint32_t offset, uint32_t val);

/*
 * Read-only views for tests and tools: the GX register files as loaded
 * (BP 256 words, CP-internal 256 words, XF memory 4096 words followed by the
 * XF registers), and an EFB pixel (colour as 0xRRGGBBAA, Z as 24 bits).
 */
const uint32_t *flipper_bp_regs(FlipperCore *c);
const uint32_t *flipper_cp_regs(FlipperCore *c);
const uint32_t *flipper_xf_words(FlipperCore *c);
uint32_t flipper_efb_color(FlipperCore *c, int x, int y);
uint32_t flipper_efb_depth(FlipperCore *c, int x, int y);

#endif
