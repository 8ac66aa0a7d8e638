/*
 * R300 CRTC: the primary display controller's scanout, from the Radeon
 * CRTC registers [digest §4.8; QEMU's ati.c and Linux radeon for the
 * fields]: CRTC_GEN_CNTL (enable, pixel width), CRTC_H/V_TOTAL_DISP
 * (visible size), CRTC_OFFSET (VRAM byte offset), CRTC_PITCH (8-pixel units).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300-int.h"

#include <string.h>

bool r300_crtc_scanout(R300Core *c, G3DScanout *so)
{
    uint32_t gen = R300_REG(c, A_CRTC_GEN_CNTL);
    uint32_t h = R300_REG(c, A_CRTC_H_TOTAL_DISP);
    uint32_t v = R300_REG(c, A_CRTC_V_TOTAL_DISP);
    uint32_t bpp;

    memset(so, 0, sizeof(*so));
    if (!(gen & R_CRTC_GEN_CNTL_EN_MASK) ||
        !(gen & R_CRTC_GEN_CNTL_EXT_DISP_EN_MASK)) {
        return false;
    }
    switch (G3D_FIELD_EX32(gen, CRTC_GEN_CNTL, PIX_WIDTH)) {
    case R300_CRTC_PIX_WIDTH_15BPP:
        so->format = G3D_FMT_ARGB1555;
        bpp = 2;
        break;
    case R300_CRTC_PIX_WIDTH_16BPP:
        so->format = G3D_FMT_RGB565;
        bpp = 2;
        break;
    case R300_CRTC_PIX_WIDTH_32BPP:
        so->format = G3D_FMT_XRGB8888;
        bpp = 4;
        break;
    default:
        g3d_unimp("r300: CRTC pixel width %u not modelled",
                  G3D_FIELD_EX32(gen, CRTC_GEN_CNTL, PIX_WIDTH));
        return false;
    }
    so->enabled = true;
    so->width = (G3D_FIELD_EX32(h, CRTC_H_TOTAL_DISP, H_DISP) + 1) * 8;
    so->height = G3D_FIELD_EX32(v, CRTC_V_TOTAL_DISP, V_DISP) + 1;
    so->pitch = G3D_FIELD_EX32(R300_REG(c, A_CRTC_PITCH), CRTC_PITCH, PITCH) *
                8 * bpp;
    /* the CRTC reads VRAM directly, at a byte offset */
    so->addr = G3D_FIELD_EX32(R300_REG(c, A_CRTC_OFFSET), CRTC_OFFSET, OFFSET);
    return true;
}

bool r300_scanout(R300Core *c, int head, G3DScanout *out)
{
    if (head != 0) {
        return false;
    }
    /* the caller checks it against VRAM (g3d_scanout_check) */
    return r300_crtc_scanout(c, out);
}

const G3DMem *r300_vram_mem(R300Core *c)
{
    return &c->cfg.vram;
}
