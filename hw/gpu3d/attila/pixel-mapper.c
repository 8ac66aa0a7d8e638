/*
 * The Pixel Mapper: where a pixel of a render target, z/stencil buffer or
 * GPU_TXBLOCK_FRAMEBUFFER texture lives in memory (digest 4.4), and the
 * Morton texel order of GPU_TXBLOCK_TEXTURE textures (digest 4.3).
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
#include "attila-internal.h"

enum {
    STAMP = 2,              /* pixels */
    GEN = 4,                /* stamps per generation tile side */
    SCAN = 2,               /* generation tiles per scan tile side */
    OVER = 4,               /* scan tiles per over-scan tile side */
    OVER_PX = OVER * SCAN * GEN * STAMP,    /* 64 */
    SCAN_PX = SCAN * GEN * STAMP,           /* 16 */
};

uint32_t attila_morton(uint32_t x, uint32_t y, unsigned bits)
{
    uint32_t m = 0;
    unsigned b;

    for (b = 0; b < bits; b++) {
        m |= ((x >> b) & 1) << (2 * b) | ((y >> b) & 1) << (2 * b + 1);
    }
    return m;
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
    pm->surface = (uint64_t)pm->over_row * ((height + OVER_PX - 1) / OVER_PX) *
                  OVER_PX * OVER_PX * samples * bytes;
    return true;
}

uint32_t attila_pixel_address(const AttilaPixelMapper *pm, uint32_t x,
                              uint32_t y)
{
    uint32_t gen_px_w = pm->gen_w * STAMP, gen_px_h = pm->gen_h * STAMP;
    uint32_t a;

    a = (y / OVER_PX) * pm->over_row + x / OVER_PX;
    /* scan sub-tile (MSAA): sub-tiles of every scan tile are interleaved */
    a = a * pm->sub_w * pm->sub_h +
        ((y / (SCAN * gen_px_h)) % pm->sub_h) * pm->sub_w +
        (x / (SCAN * gen_px_w)) % pm->sub_w;
    a = a * OVER * OVER + attila_morton((x / SCAN_PX) % OVER,
                                        (y / SCAN_PX) % OVER, 2);
    a = a * SCAN * SCAN + ((y / gen_px_h) % SCAN) * SCAN + (x / gen_px_w) % SCAN;
    a = a * pm->gen_w * pm->gen_h + ((y / STAMP) % pm->gen_h) * pm->gen_w +
        (x / STAMP) % pm->gen_w;
    a = a * STAMP * STAMP + (y % STAMP) * STAMP + x % STAMP;
    return a * pm->samples * pm->bytes;
}

uint32_t attila_texel_offset(uint32_t i, uint32_t j, uint32_t block,
                             uint32_t sblock, uint32_t width_log2)
{
    uint32_t texel = attila_morton(i, j, block);
    uint32_t blk = attila_morton(i >> block, j >> block, sblock);
    int32_t row_l2 = (int32_t)width_log2 - (int32_t)(sblock + block);
    uint32_t sb;

    /* superblock rows are padded to a power of two (digest 4.3) */
    if (row_l2 < 0) {
        row_l2 = 0;
    }
    sb = ((j >> (sblock + block)) << row_l2) + (i >> (sblock + block));
    return (((sb << (2 * sblock)) + blk) << (2 * block)) + texel;
}
