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

#include <glib.h>

enum {
    STAMP = 2,              /* pixels */
    GEN = 4,                /* stamps per generation tile side */
    SCAN = 2,               /* generation tiles per scan tile side */
    OVER = 4,               /* scan tiles per over-scan tile side */
    OVER_PX = OVER * SCAN * GEN * STAMP,    /* 64 */
    SCAN_PX = SCAN * GEN * STAMP,           /* 16 */
};

/* v's bits at the even positions: bit t -> 2t (attila_morton's table) */
#define SPREAD2(v)  (((v) & 1) | ((v) & 2) << 1)
#define SPREAD4(v)  (SPREAD2(v) | SPREAD2((v) >> 2) << 4)
#define SPREAD8(v)  (SPREAD4(v) | SPREAD4((v) >> 4) << 8)
#define ROW4(v)     SPREAD8(v), SPREAD8((v) + 1), SPREAD8((v) + 2), \
                    SPREAD8((v) + 3)
#define ROW16(v)    ROW4(v), ROW4((v) + 4), ROW4((v) + 8), ROW4((v) + 12)
#define ROW64(v)    ROW16(v), ROW16((v) + 16), ROW16((v) + 32), \
                    ROW16((v) + 48)

const uint16_t attila_spread8[256] = {
    ROW64(0), ROW64(64), ROW64(128), ROW64(192),
};

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

void attila_address_table(AttilaAddressTable *tab, const AttilaPixelMapper *pm)
{
    uint32_t k;

    if (tab->width == pm->width && tab->height == pm->height &&
        tab->samples == pm->samples && tab->bytes == pm->bytes) {
        return;
    }
    g_free(tab->x);
    tab->x = g_new(uint32_t, (pm->width + 1) / 2 + (pm->height + 1) / 2);
    tab->y = tab->x + (pm->width + 1) / 2;
    for (k = 0; 2 * k < pm->width; k++) {
        tab->x[k] = attila_pixel_address(pm, 2 * k, 0);
    }
    for (k = 0; 2 * k < pm->height; k++) {
        tab->y[k] = attila_pixel_address(pm, 0, 2 * k);
    }
    tab->width = pm->width;
    tab->height = pm->height;
    tab->samples = pm->samples;
    tab->bytes = pm->bytes;
}
