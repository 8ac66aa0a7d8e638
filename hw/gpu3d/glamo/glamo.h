/*
 * SMedia Glamo336x 3D engine core: the API the QEMU glue, the tests, the
 * benchmark and the fuzzer use (docs/architecture.md, "The core API").
 *
 * BAR0 is the chip's 16 KiB register space of 16-bit registers (offsets are
 * the chip's register addresses, see include/gpu3d/glamo-regs.h); BAR2 is
 * the 8 MiB VRAM, addressed by the chip with its VRAM offsets.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_GLAMO_H
#define GPU3D_GLAMO_H

#include <stdbool.h>
#include <stdint.h>

#include "common/g3d-core.h"
#include "common/scanout.h"
#include "common/g3d-state.h"

typedef struct GlamoCore GlamoCore;

typedef struct GlamoCoreConfig {
    G3DMem vram;           /* VRAM: chip addresses 0 .. vram_size-1 */
    uint32_t vram_size;    /* 0: GLAMO_VRAM_SIZE */
    G3DCoreHooks hooks;   /* render threads, IRQ and display callbacks */
} GlamoCoreConfig;

GlamoCore *glamo_core_new(const GlamoCoreConfig *cfg);
void glamo_core_free(GlamoCore *c);
void glamo_core_reset(GlamoCore *c);

/*
 * The core's saved state (docs/glamo-3d.md, Migration), taken between
 * work() calls: the register file, TX1 palette, the 3D queue, the command
 * queue's position and a burst in progress, the parser's list and the
 * primitive assembly's kept vertices. Triangles waiting in the rasteriser
 * are drawn first (save flushes them), so none is in the stream. A load
 * that fails (in->error) leaves the core reset.
 */
void glamo_state_save(GlamoCore *c, G3DStateOut *o);
bool glamo_state_load(GlamoCore *c, G3DStateIn *in);

/* BAR0 access; size 1, 2 or 4 (a 4-byte access is two 16-bit ones, low
 * half first). */
uint64_t glamo_reg_read(GlamoCore *c, uint32_t offset, unsigned size);
void glamo_reg_write(GlamoCore *c, uint32_t offset, uint64_t val,
                     unsigned size);

/*
 * Advance by at most `budget` units: one 3D-queue entry, one command-queue
 * packet (or 64 words of a burst), 64 parser vertices, or one rasteriser
 * flush. Returns true while work is pending.
 */
bool glamo_core_work(GlamoCore *c, unsigned budget);

bool glamo_irq_level(GlamoCore *c);

/* Head 0: the LCD controller. false: blank. */
bool glamo_scanout(GlamoCore *c, int head, G3DScanout *out);
/* the memory scan-out addresses refer to: the VRAM */
const G3DMem *glamo_scanout_mem(GlamoCore *c);

/* Number formats of the chip (docs/glamo-3d.md, "Number formats"). */
uint32_t glamo_f24_from_float(float f);      /* s[7].16 */
float glamo_f24_to_float(uint32_t bits);
float glamo_f24_round(float f);              /* float -> s[7].16 -> float */
float glamo_f18_to_float(uint32_t bits);     /* s[7].10 */
uint32_t glamo_f18_from_float(float f);

/* Counters for tests and the benchmark. */
typedef struct GlamoStats {
    uint64_t vertices;       /* vertices that reached primitive assembly */
    uint64_t primitives;     /* triangles handed to the rasteriser */
    uint64_t fast_primitives;    /* of which drawn by a per-draw fast path */
    uint64_t span_primitives;    /* of which given to the rasteriser with spans */
    uint64_t flat_primitives;    /* of which filled with one colour */
    uint64_t culled;         /* removed by culling or clipping */
    uint64_t cmdq_packets;
    uint64_t errors;         /* bad guest input skipped */
    uint64_t front_runs;     /* runs of a list set up on the render threads */
} GlamoStats;

void glamo_stats(GlamoCore *c, GlamoStats *out);

#endif
