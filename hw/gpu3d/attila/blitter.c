/*
 * The Blitter (part of the DAC, ATTILA ref. Blitter): GPU_BLIT copies the back
 * buffer rectangle (BLIT_INI_X/Y, BLIT_WIDTH/HEIGHT) into a texture at
 * (BLIT_X/Y_OFFSET), Morton-tiled (GPU_TXBLOCK_TEXTURE, width 2^WIDTH2) or
 * render-tiled (GPU_TXBLOCK_FRAMEBUFFER). As in GPUEmulator::emulateBlitter
 * only RGBA8888 to RGBA8888 is supported, and an MSAA back buffer gives
 * sample 0.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"

#include <glib.h>

void attila_blit(AttilaCore *c)
{
    uint32_t w = attila_rf_u32(c, ATTILA_REG_DISPLAY_X_RES, 0);
    uint32_t h = attila_rf_u32(c, ATTILA_REG_DISPLAY_Y_RES, 0);
    uint32_t src_addr = attila_rf_u32(c, ATTILA_REG_RENDER_TARGET_ADDRESS, 0);
    uint32_t src_fmt = attila_rf_u32(c, ATTILA_REG_RENDER_TARGET_FORMAT, 0);
    uint32_t ix = attila_rf_u32(c, ATTILA_REG_BLIT_INI_X, 0);
    uint32_t iy = attila_rf_u32(c, ATTILA_REG_BLIT_INI_Y, 0);
    uint32_t ox = attila_rf_u32(c, ATTILA_REG_BLIT_X_OFFSET, 0);
    uint32_t oy = attila_rf_u32(c, ATTILA_REG_BLIT_Y_OFFSET, 0);
    uint32_t bw = attila_rf_u32(c, ATTILA_REG_BLIT_WIDTH, 0);
    uint32_t bh = attila_rf_u32(c, ATTILA_REG_BLIT_HEIGHT, 0);
    uint32_t dst = attila_rf_u32(c, ATTILA_REG_BLIT_DST_ADDRESS, 0);
    uint32_t w2 = attila_rf_u32(c, ATTILA_REG_BLIT_DST_TX_WIDTH2, 0);
    uint32_t dfmt = attila_rf_u32(c, ATTILA_REG_BLIT_DST_TX_FORMAT, 0);
    uint32_t block = attila_rf_u32(c, ATTILA_REG_BLIT_DST_TX_BLOCK, 0);
    AttilaPixelMapper spm, dpm;
    const uint8_t *src;
    uint32_t x, y, lost = 0;

    if (src_fmt != ATTILA_FMT_RGBA8888 || dfmt != ATTILA_FMT_RGBA8888) {
        g3d_error(&c->errors, ATTILA_ERR_DRAW, ATTILA_REG_BLIT_DST_TX_FORMAT,
                  "GPU_BLIT: only RGBA8888 to RGBA8888 (source %u, "
                  "destination %u)", src_fmt, dfmt);
        return;
    }
    if (bw > w || bh > h || ix > w - bw || iy > h - bh) {
        g3d_error(&c->errors, ATTILA_ERR_VALUE, ATTILA_REG_BLIT_WIDTH,
                  "GPU_BLIT: rectangle %ux%u at (%u, %u) outside the %ux%u "
                  "back buffer", bw, bh, ix, iy, w, h);
        return;
    }
    if (block == ATTILA_TXBLOCK_FRAMEBUFFER &&
        !attila_pixel_mapper_init(&dpm, MAX(bw, 1), MAX(bh, 1), 1, 4)) {
        g3d_error(&c->errors, ATTILA_ERR_VALUE, ATTILA_REG_BLIT_WIDTH,
                  "GPU_BLIT: destination %ux%u unusable", bw, bh);
        return;
    }
    src = attila_map_render_buffer(c, &spm, src_addr, 4, false,
                                   "GPU_BLIT: back buffer");
    if (!src) {
        return;
    }
    for (y = 0; y < bh && !g3d_yield(); y++) {
        for (x = 0; x < bw; x++) {
            uint32_t tx = x + ox, ty = y + oy, off;
            if (block == ATTILA_TXBLOCK_TEXTURE) {
                off = attila_texel_offset(tx, ty, ATTILA_TEX_BLOCK_DIM,
                                          ATTILA_TEX_SBLOCK_DIM, w2) * 4;
            } else {
                off = attila_pixel_address(&dpm, tx, ty);
            }
            if (!attila_mem_write(c, dst + off,
                                  src + attila_pixel_address(&spm, x + ix,
                                                             y + iy), 4)) {
                lost++;
            }
        }
    }
    if (lost) {
        g3d_error(&c->errors, ATTILA_ERR_ADDRESS, dst,
                  "GPU_BLIT: %u texels outside memory (texture 0x%08x)",
                  lost, dst);
    }
}
