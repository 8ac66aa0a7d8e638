/*
 * The Pixel Mapper: where a pixel of a render target, z/stencil buffer or
 * GPU_TXBLOCK_FRAMEBUFFER texture lives in memory (ATTILA ref. Render Buffer
 * Tiling), and the Morton texel order of GPU_TXBLOCK_TEXTURE textures (ATTILA
 * ref. Texture Tiling).
 *
 * Render-buffer tiling, outer to inner: over-scan tiles (4x4 scan tiles,
 * row order), scan sub-tiles (MSAA / 8-byte pixels), scan tiles inside the
 * over-scan tile (Morton order), generation tiles (row order), stamps
 * (row order), pixels (2x2, row order), samples, bytes. Tile sizes are the
 * corpus configuration's (stamp 2x2, gen 8x8, scan 16x16, over-scan 4x4
 * scan tiles), which this device fixes (BAR0 TILING).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"

enum {
    STAMP = 2,              /* pixels */
    GEN = 4,                /* stamps per generation tile side */
    SCAN = 2,               /* generation tiles per scan tile side */
    OVER = 4,               /* scan tiles per over-scan tile side */
    OVER_PX = OVER * SCAN * GEN * STAMP,    /* 64 */
    SCAN_PX = SCAN * GEN * STAMP,           /* 16 */
};

/* spread the low 16 bits of v to the even bit positions */
static inline uint32_t spread(uint32_t v)
{
    v &= 0xffff;
    v = (v | v << 8) & 0x00ff00ffu;
    v = (v | v << 4) & 0x0f0f0f0fu;
    v = (v | v << 2) & 0x33333333u;
    v = (v | v << 1) & 0x55555555u;
    return v;
}

uint32_t attila_morton(uint32_t x, uint32_t y, unsigned bits)
{
    uint32_t mask = bits >= 16 ? 0xffffu : (1u << bits) - 1;

    return spread(x & mask) | spread(y & mask) << 1;
}

bool attila_pixel_mapper_init(AttilaPixelMapper *pm, uint32_t width,
                              uint32_t height, uint32_t samples,
                              uint32_t bytes)
{
    memset(pm, 0, sizeof(*pm));
    if (width == 0 || height == 0 || width > ATTILA_MAX_DISPLAY_RES ||
        height > ATTILA_MAX_DISPLAY_RES || (bytes != 4 && bytes != 8)) {
        return false;
    }
    pm->width = width;
    pm->height = height;
    pm->samples = samples;
    pm->bytes = bytes;
    pm->over_row = (width + OVER_PX - 1) / OVER_PX;
    pm->sub_w = pm->sub_h = 1;
    pm->gen_w = pm->gen_h = GEN;
    /* PixelMapper::setupDisplay: split the scan tile per sample */
    switch (samples) {
    case 1:
        break;
    case 2:
        pm->sub_w = 2;
        pm->gen_w /= 2;
        break;
    case 4:
        pm->sub_w = pm->sub_h = 2;
        pm->gen_w /= 2;
        pm->gen_h /= 2;
        break;
    case 8:
        pm->sub_w = 4;
        pm->sub_h = 2;
        pm->gen_w /= 4;
        pm->gen_h /= 2;
        break;
    default:
        return false;
    }
    if (bytes == 8) {
        pm->sub_h *= 2;
        pm->gen_h /= 2;
    }
    pm->sub_w_l2 = attila_log2_ceil(pm->sub_w);
    pm->sub_h_l2 = attila_log2_ceil(pm->sub_h);
    pm->gen_w_l2 = attila_log2_ceil(pm->gen_w);
    pm->gen_h_l2 = attila_log2_ceil(pm->gen_h);
    pm->surface = (uint64_t)pm->over_row * ((height + OVER_PX - 1) / OVER_PX) *
                  OVER_PX * OVER_PX * samples * bytes;
    return true;
}

uint32_t attila_texel_offset(uint32_t i, uint32_t j, uint32_t block,
                             uint32_t sblock, uint32_t width_log2)
{
    uint32_t texel = attila_morton(i, j, block);
    uint32_t blk = attila_morton(i >> block, j >> block, sblock);
    int32_t row_l2 = (int32_t)width_log2 - (int32_t)(sblock + block);
    uint32_t sb;

    /* superblock rows are padded to a power of two (ATTILA ref. Texture
     * Tiling) */
    if (row_l2 < 0) {
        row_l2 = 0;
    }
    sb = ((j >> (sblock + block)) << row_l2) + (i >> (sblock + block));
    return (((sb << (2 * sblock)) + blk) << (2 * block)) + texel;
}
