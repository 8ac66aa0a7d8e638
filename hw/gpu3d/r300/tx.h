/*
 * R300 TX: the 16 texture units [R3xx 3D ref. §1.8 TX].
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
#include "r300/tile.h"

#define R300_TX_MAX_LEVELS 12

/* A copy (texels not mappable) larger than this is refused as a guest error */
#define R300_TX_MAX_COPY    (64u << 20)

typedef struct R300TexUnit {
    bool enabled;                   /* TX_ENABLE bit and a valid setup */
    uint32_t filter0, filter1, format0, format1, format2, offset;
    uint32_t border, chroma_key;
    unsigned width, height, depth, levels;
    /* level 0; levels follow [Mesa r300_texture_desc.c] */
    const uint8_t *texels;
    uint64_t bytes;                 /* size of the mapped chain */
    uint8_t *copy;                  /* owned copy when not mappable, or NULL */
    uint64_t level_offset[R300_TX_MAX_LEVELS];
    unsigned level_pitch[R300_TX_MAX_LEVELS]; /* bytes per row */
    R300Tiling level_tiling[R300_TX_MAX_LEVELS]; /* TX_OFFSET tiling */
    bool tiled;                     /* level_tiling is in use */
    /* decoded by r300_tx_load */
    uint64_t copy_size;             /* capacity of `copy` */
    uint64_t level_slice[R300_TX_MAX_LEVELS]; /* bytes per slice or face */
    unsigned level_w[R300_TX_MAX_LEVELS], level_h[R300_TX_MAX_LEVELS];
    unsigned level_d[R300_TX_MAX_LEVELS];
    uint8_t fmt;                    /* TXFORMAT */
    uint8_t kind;                   /* how texels are stored (tx.c) */
    uint8_t bytes_per;              /* per texel, 4x4 block or 2-texel pair */
    uint8_t bits[4];                /* component widths, component 0 first */
    uint8_t signed_comp;            /* SIGNED_COMP, bit k: component k */
    uint8_t shift[4];               /* component k's lowest bit */
    float scale[4];                 /* component k's integer -> [0,1]/[-1,1] */
    bool any_gamma;
    uint8_t coord_type;             /* R300_TX_COORD_* */
    uint8_t clamp[3];               /* CLAMP_S/T/R */
    uint8_t mag, min, mip, vol;     /* filters (reserved/aniso mapped) */
    uint8_t sel[4];                 /* source of R, G, B, A: R300_TX_SEL_* */
    uint8_t gamma[4];               /* linearise R, G, B, A (GAMMA) */
    uint8_t yuv, swap_yuv, projected, endian, chroma_mode;
    unsigned faces;                 /* 6 for cube maps, else 1 */
    unsigned base_level, max_level; /* MAX_MIP_LEVEL .. NUM_LEVELS */
    float lod_bias;                 /* TX_FILTER1.LOD_BIAS */
    float border_rgba[4];           /* TX_BORDER_COLOR after the swizzle */
    /*
     * Chosen per draw: untiled, unswapped 32-bit packed texels without a
     * chroma key or gamma, fetched without the general per-texel decode.
     */
    bool plain32;
    /*
     * For tx-lanes.c, set by r300_tx_load: scale[k] in four lanes, and
     * whether the base level lies wholly in the mapped chain (below 2^31
     * bytes), so that wrapped texel offsets need no bounds check
     */
    float scale4[4][4] __attribute__((aligned(16)));
    bool base_inside;
    bool lanes_avx;                 /* g3d_use_avx() at the load */
} R300TexUnit;

/*
 * Decode unit `unit` from the register file and make its texels reachable.
 * `mem` is the GPU address space. A bad setup (size, format, address outside
 * memory) logs a guest error and leaves the unit disabled, which samples as
 * (0, 0, 0, 1) like a unit whose TX_ENABLE bit is clear.
 * `u` must be zeroed before its first load; loading again reuses its copy
 * buffer. The texels stay valid as long as the memory `mem` mapped does.
 */
bool r300_tx_load(R300TexUnit *u, const uint32_t *regs, int unit,
                  const G3DMem *mem);
void r300_tx_release(R300TexUnit *u);

/* Sample a quad (see R300SampleFn in us.h for the meaning of the args). */
void r300_tx_sample_quad(const R300TexUnit *u, int inst,
                         const float coord[4][4], float out[4][4]);

/*
 * An R300SampleFn over an array of R300_TX_UNITS loaded units: pass the
 * array as `opaque` to r300_us_exec.
 */
void r300_tx_sampler(void *units, int unit, int inst,
                     const float coord[4][4], float out[4][4]);

/*
 * Byte offset (from `texels`) of texel (x, y) of slice or cube face z of
 * `level`: of its 4x4 block for DXT formats, of its 2-texel pair for the
 * 4:2:2 formats. Every texel fetch goes through this function, so the tile
 * order of MACRO_TILE / MICRO_TILE surfaces [Mesa r300_texture_desc.c] plugs in
 * here; today it is the linear layout.
 */
uint64_t r300_tx_texel_address(const R300TexUnit *u, unsigned level,
                               unsigned x, unsigned y, unsigned z);

#endif
