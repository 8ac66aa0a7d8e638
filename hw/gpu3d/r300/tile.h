/*
 * R300 tiled surfaces: where pixel (x, y) of a colour buffer, depth buffer
 * or texture level lives, for the macro/micro tiling that
 * RB3D_COLORPITCH.COLORTILE/COLORMICROTILE, ZB_DEPTHPITCH.DEPTHMACROTILE/
 * DEPTHMICROTILE and TX_OFFSET.MACRO_TILE/MICRO_TILE select.
 *
 * Tile sizes are public (Mesa src/gallium/drivers/r300/r300_texture_desc.c,
 * r300_get_pixel_alignment): a micro tile is 32 bytes (8x4 pixels at 8 bpp,
 * 8x2 at 16, 4x2 at 32, 2x2 at 64, 4x4 "square" at 16; none at 128), a
 * macro tile 2 KiB (256x8, 128x8, 64x8, 32x8, 16x8 pixels of linear micro
 * tiles; 64x32, 64x16, 32x16, 16x16 of tiled ones; 32x32 square). The order
 * inside a tile is not public, so the device picks one and every unit (RB3D,
 * ZB, TX) uses this function:
 * - macro tiles row-major over the surface, each 2 KiB contiguous;
 * - in a macro tile, its micro tiles row-major, each 32 bytes contiguous;
 * - in a micro tile, pixels row-major.
 * Without macro tiling the micro tiles are row-major over the whole pitch;
 * without micro tiling a "micro tile" is 32 bytes of one row, so a surface
 * with neither is linear.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPU3D_R300_TILE_H
#define HW_GPU3D_R300_TILE_H

#include <stdbool.h>
#include <stdint.h>

#define R300_MICROTILE_LINEAR   0
#define R300_MICROTILE_TILED    1
#define R300_MICROTILE_SQUARE   2       /* 16 bpp only */

typedef struct R300Tiling {
    uint32_t bpp;               /* bytes per pixel: 1, 2, 4, 8 or 16 */
    uint32_t pitch;             /* pixels, as the register says */
    uint8_t uw, uh;             /* log2 of the micro tile, pixels */
    uint8_t mw, mh;             /* log2 of the macro tile, pixels */
    uint32_t row_tiles;         /* macro tiles across the pitch */
    bool linear;                /* neither: offset = (y * pitch + x) * bpp */
} R300Tiling;

static inline unsigned r300_tile_log2(uint32_t v)
{
    return v ? 31 - __builtin_clz(v) : 0;
}

/*
 * The layout of a surface; false (and a linear layout) if the combination
 * does not exist on the chip (micro tiling at 128 bpp, square micro tiles
 * at other than 16 bpp, micro mode 3).
 */
static inline bool r300_tile_setup(R300Tiling *t, uint32_t bpp,
                                   uint32_t pitch, bool macro,
                                   unsigned micro)
{
    /* [log2 bpp][micro mode] micro tile sizes, log2 (w, h); 0xFF: none */
    static const uint8_t micro_wh[5][3][2] = {
        { { 5, 0 }, { 3, 2 }, { 0xFF, 0xFF } },
        { { 4, 0 }, { 3, 1 }, { 2, 2 } },
        { { 3, 0 }, { 2, 1 }, { 0xFF, 0xFF } },
        { { 2, 0 }, { 1, 1 }, { 0xFF, 0xFF } },
        { { 1, 0 }, { 0xFF, 0xFF }, { 0xFF, 0xFF } },
    };
    /* macro tiles: 2 KiB of micro tiles, 8 rows of linear ones, and for
     * tiled ones (w, h) with w x h x bpp = 2048 as Mesa's table lists */
    static const uint8_t macro_wh[5][3][2] = {
        { { 8, 3 }, { 6, 5 }, { 0xFF, 0xFF } },
        { { 7, 3 }, { 6, 4 }, { 5, 5 } },
        { { 6, 3 }, { 5, 4 }, { 0xFF, 0xFF } },
        { { 5, 3 }, { 4, 4 }, { 0xFF, 0xFF } },
        { { 4, 3 }, { 0xFF, 0xFF }, { 0xFF, 0xFF } },
    };
    unsigned b = r300_tile_log2(bpp);
    bool ok = b <= 4 && (1u << b) == bpp && micro <= R300_MICROTILE_SQUARE &&
              micro_wh[b][micro][0] != 0xFF;

    t->bpp = bpp;
    t->pitch = pitch;
    if (!ok) {
        micro = R300_MICROTILE_LINEAR;
        macro = false;
        b = b > 4 ? 4 : b;
    }
    t->uw = micro_wh[b][micro][0];
    t->uh = micro_wh[b][micro][1];
    if (macro) {
        t->mw = macro_wh[b][micro][0];
        t->mh = macro_wh[b][micro][1];
        t->row_tiles = (pitch + (1u << t->mw) - 1) >> t->mw;
    } else {
        /* one "macro tile" is a band of micro tiles as wide as the pitch */
        t->mw = 0;
        t->mh = t->uh;
        t->row_tiles = (pitch + (1u << t->uw) - 1) >> t->uw;
    }
    t->linear = !macro && micro == R300_MICROTILE_LINEAR;
    return ok;
}

/* Byte offset of pixel (x, y) from the surface base. */
static inline uint64_t r300_tile_offset(const R300Tiling *t, uint32_t x,
                                        uint32_t y)
{
    uint32_t ux, uy, in_micro;
    uint64_t band;

    if (t->linear) {
        return ((uint64_t)y * t->pitch + x) * t->bpp;
    }
    in_micro = (((y & ((1u << t->uh) - 1)) << t->uw) |
                (x & ((1u << t->uw) - 1))) * t->bpp;
    if (t->mw) {
        /* macro tile, then the micro tile inside it (both row-major) */
        uint32_t tile = (y >> t->mh) * t->row_tiles + (x >> t->mw);
        ux = (x & ((1u << t->mw) - 1)) >> t->uw;
        uy = (y & ((1u << t->mh) - 1)) >> t->uh;
        return (uint64_t)tile * 2048 +
               ((uy << (t->mw - t->uw)) + ux) * 32 + in_micro;
    }
    /* micro tiles row-major over the pitch */
    band = (uint64_t)(y >> t->uh) * t->row_tiles;
    return (band + (x >> t->uw)) * 32 + in_micro;
}

/* Bytes a surface of `rows` rows covers: whole tiles. */
static inline uint64_t r300_tile_bytes(const R300Tiling *t, uint32_t rows)
{
    if (t->linear) {
        return (uint64_t)rows * t->pitch * t->bpp;
    }
    if (t->mw) {
        return (uint64_t)((rows + (1u << t->mh) - 1) >> t->mh) *
               t->row_tiles * 2048;
    }
    return (uint64_t)((rows + (1u << t->uh) - 1) >> t->uh) * t->row_tiles *
           32;
}

/* Pixel width and height of the tile a pitch/height is aligned to. */
static inline uint32_t r300_tile_align_w(const R300Tiling *t)
{
    return 1u << (t->mw ? t->mw : t->uw);
}

static inline uint32_t r300_tile_align_h(const R300Tiling *t)
{
    return 1u << t->mh;
}

#endif
