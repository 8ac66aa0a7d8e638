/*
 * The shared demo scene (scene-cube.h) as a PICA200 command list, with the
 * 3DS conventions it needs:
 *
 * - the LCDs are mounted rotated, so a screen of sw x sh pixels (as shown)
 *   is drawn into an sh-wide, sw-tall render target: screen x runs down
 *   the target's window y, screen y along its window x. The clip
 *   transform's rows become (y, -x, ...): window NDC (x', y') = (y, -x);
 * - clip-space z runs from 0 at the near plane to -w at the far one
 *   (depth = -z/w with DEPTHMAP SCALE -1): z' = -(z + w) / 2 turns GL's
 *   [-w, w] into it, so the stored depth is GL's window depth (z/w + 1)/2
 *   and the depth test is GL's LESS;
 * - colour buffer RGBA8 and depth buffer D24S8, both 8x8-tiled in VRAM,
 *   cleared by the memory fill units to the scene's clear colour (rounded
 *   to 8 bits as GL does) and to depth 1.0.
 *
 * Used by guest/pica200-demo.c and the core's scene test, which compare the
 * pictures with tools/scene-gl-ref (llvmpipe). Header-only, freestanding.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_PICA200_SCENE_H
#define GPU3D_PICA200_SCENE_H

#include "scene-cube.h"
#include "gpu3d/pica200-cmd.h"

/*
 * VRAM layout of the demo (offsets; 3DS physical 0x18000000 + offset):
 * colour and depth buffers of up to 240x400 pixels, two top-screen and one
 * bottom-screen RGB8 LCD framebuffers.
 */
#define PICA_SCENE_COLOR_VRAM   0x000000u
#define PICA_SCENE_DEPTH_VRAM   0x060000u
#define PICA_SCENE_TOP_VRAM(i)  (0x0C0000u + (i) * 0x50000u)
#define PICA_SCENE_BOTTOM_VRAM  0x160000u

/* the fill values: RGBA8 is R << 24 | G << 16 | B << 8 | A */
static inline uint32_t pica_scene_clear_rgba8(void)
{
    uint32_t r = (uint32_t)(SCENE_CLEAR_R * 255.0f + 0.5f);
    uint32_t g = (uint32_t)(SCENE_CLEAR_G * 255.0f + 0.5f);
    uint32_t b = (uint32_t)(SCENE_CLEAR_B * 255.0f + 0.5f);

    return r << 24 | g << 16 | b << 8 | 0xFF;
}
#define PICA_SCENE_CLEAR_D24S8 0x00FFFFFFu      /* depth 1.0, stencil 0 */

/* frame f's PICA clip transform for a screen of sw x sh pixels (as shown) */
static inline void pica_scene_matrix(int f, unsigned sw, unsigned sh,
                                     float m[16])
{
    float g[16];
    int k;

    scene_matrix(f, (float)sw / (float)sh, g);
    for (k = 0; k < 4; k++) {
        m[0 + k] = g[4 + k];                        /* x' = y */
        m[4 + k] = -g[0 + k];                       /* y' = -x */
        m[8 + k] = -0.5f * (g[8 + k] + g[12 + k]);  /* z' = -(z + w) / 2 */
        m[12 + k] = g[12 + k];                      /* w' = w */
    }
}

/*
 * The list that draws frame f for a screen of sw x sh into the colour and
 * depth buffers at 3DS physical color_pa / depth_pa (sh x sw pixels each,
 * already cleared), from the scene's SCENE_VERTS vertices (8 floats each)
 * at 3DS physical vb_pa; ends with FINALIZE.
 */
static inline void pica_scene_list(PicaCmd *c, int f, unsigned sw,
                                   unsigned sh, uint32_t color_pa,
                                   uint32_t depth_pa, uint32_t vb_pa)
{
    float m[16];

    pica_scene_matrix(f, sw, sh, m);
    pica_cmd_shader_matrix(c, m);
    pica_cmd_viewport(c, sh, sw, 0, 0);
    pica_cmd_target(c, sh, sw, color_pa, PICA_COLORFMT_RGBA8, depth_pa,
                    PICA_DEPTH_D24S8);
    pica_cmd_fragment(c, 1, PICA_CMP_LESS, 1);
    pica_cmd_attribs(c, vb_pa, PICA_F32X4, PICA_F32X4, 32);
    pica_cmd_draw(c, PICA_TOPOLOGY_TRIANGLES, SCENE_VERTS, 0, 0, 0);
    pica_cmd_finalize(c);
}

/* ---- driving the device: what the demo does, and the core's scene test ---- */

#define PICA_SCENE_TRIES 100000000u     /* polls before giving up */

/*
 * Clear the colour and depth buffers (sh x sw) with the two memory fill
 * units at once, wait for both and clear their "finished" bits.
 */
static inline int pica_scene_clear(const PicaBus *b, unsigned sw, unsigned sh,
                                   uint32_t color_pa, uint32_t depth_pa)
{
    PicaRegWrite w[4];
    uint32_t bytes = sw * sh * 4;
    unsigned u;

    pica_bus_seq(b, w, pica_seq_fill(w, 0, color_pa, color_pa + bytes,
                                     pica_scene_clear_rgba8(), 2));
    pica_bus_seq(b, w, pica_seq_fill(w, 1, depth_pa, depth_pa + bytes,
                                     PICA_SCENE_CLEAR_D24S8, 2));
    for (u = 0; u < 2; u++) {
        uint32_t ctl = PICA_PSC_BASE(u) + PICA_PSC_CONTROL;
        if (pica_bus_wait(b, ctl, R_PSC0_CONTROL_START_MASK |
                          R_PSC0_CONTROL_FINISHED_MASK,
                          R_PSC0_CONTROL_FINISHED_MASK, PICA_SCENE_TRIES)) {
            return -1;
        }
        b->wr(b->opaque, ctl, 2u << 8);
    }
    return 0;
}

/*
 * Build frame f's list in c (whose words the GPU sees at 3DS physical
 * list_pa), run it, wait for FINALIZE's interrupt and acknowledge it.
 */
static inline int pica_scene_draw(const PicaBus *b, PicaCmd *c,
                                  uint32_t list_pa, int f, unsigned sw,
                                  unsigned sh, uint32_t color_pa,
                                  uint32_t depth_pa, uint32_t vb_pa)
{
    PicaRegWrite w[4];

    c->n = 0;
    pica_scene_list(c, f, sw, sh, color_pa, depth_pa, vb_pa);
    if (c->overflow) {
        return -1;
    }
    pica_bus_seq(b, w, pica_seq_kick(w, list_pa, c->n * 4));
    if (pica_bus_wait(b, PICA_INTERNAL_OFFSET(GPUREG_IRQ_STAT_LO), 0xF, 0xF,
                      PICA_SCENE_TRIES)) {
        return -1;
    }
    b->wr(b->opaque, PICA_INTERNAL_OFFSET(GPUREG_IRQ_ACK0), 0);
    return 0;
}

/*
 * Display-transfer the colour buffer (sh x sw, tiled RGBA8) to a linear
 * RGB8 LCD framebuffer at out_pa and show it on `head` through address
 * `select` (0 or 1).
 */
static inline int pica_scene_show(const PicaBus *b, unsigned head,
                                  unsigned select, unsigned sw, unsigned sh,
                                  uint32_t color_pa, uint32_t out_pa)
{
    PicaRegWrite w[6];
    uint32_t size = sh | sw << 16;

    pica_bus_seq(b, w, pica_seq_transfer(w, color_pa, out_pa, size, size,
                                         PICA_PIXFMT_RGBA8 << 8 |
                                         PICA_PIXFMT_RGB8 << 12));
    if (pica_bus_wait(b, A_PPF_CONTROL, R_PPF_CONTROL_START_MASK |
                      R_PPF_CONTROL_FINISHED_MASK,
                      R_PPF_CONTROL_FINISHED_MASK, PICA_SCENE_TRIES)) {
        return -1;
    }
    b->wr(b->opaque, A_PPF_CONTROL, 0);
    pica_bus_seq(b, w, pica_seq_lcd(w, head, select, out_pa,
                                    PICA_PIXFMT_RGB8, sh * 3));
    return 0;
}

#endif
