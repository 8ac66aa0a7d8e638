/*
 * R300 TX: the 16 texture units [digest §3.8].
 *
 * A unit is decoded once per draw (r300_tx_load): format, size, pitch, mip
 * chain, filters, wrap modes, swizzle, border. Its texel memory is made
 * addressable from the host then (a VRAM pointer, or a copy for system
 * memory), so sampling on the render threads only reads host memory and
 * never calls back into the memory interface.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_R300_TX_H
#define GPU3D_R300_TX_H

#include <stdbool.h>
#include <stdint.h>

#include "common/g3d-core.h"
#include "gpu3d/r300-regs.h"

#define R300_TX_MAX_LEVELS 12

typedef struct R300TexUnit {
    bool enabled;                   /* TX_ENABLE bit and a valid setup */
    uint32_t filter0, filter1, format0, format1, format2, offset;
    uint32_t border, chroma_key;
    unsigned width, height, depth, levels;
    const uint8_t *texels;          /* level 0; levels follow [digest §4.6] */
    uint64_t bytes;                 /* size of the mapped chain */
    uint8_t *copy;                  /* owned copy when not mappable, or NULL */
    uint64_t level_offset[R300_TX_MAX_LEVELS];
    unsigned level_pitch[R300_TX_MAX_LEVELS]; /* bytes per row */
} R300TexUnit;

/*
 * Decode unit `unit` from the register file and make its texels reachable.
 * `mem` is the GPU address space. A bad setup (size, format, address outside
 * memory) logs a guest error and leaves the unit disabled, which samples as
 * (0, 0, 0, 1) like a unit whose TX_ENABLE bit is clear.
 */
bool r300_tx_load(R300TexUnit *u, const uint32_t *regs, int unit,
                  const G3DMem *mem);
void r300_tx_release(R300TexUnit *u);

/* Sample a quad (see R300SampleFn in us.h for the meaning of the args). */
void r300_tx_sample_quad(const R300TexUnit *u, int inst,
                         const float coord[4][4], float out[4][4]);

#endif
