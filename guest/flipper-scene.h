/*
 * The shared cube scene (scene-cube.h) as one flipper-gx frame: the GX
 * stream a GameCube program would write for frame `f`, from the frame
 * set-up to the EFB -> XFB copy. The guest demo writes it through the
 * write-gather pipe; the unit tests' "cube" scene and the Dolphin FIFO log
 * (flipper-dff write cube) are the same bytes, so Dolphin's frame of it is
 * the demo's independent reference. Header-only and freestanding.
 *
 * GX takes the model-view (XF position matrix 0, 3x4) and the projection
 * (XF 0x1020: perspective A = cot/aspect, C = cot, E = -n/(f-n),
 * F = -f*n/(f-n), YAGCD §5.11.4 XF registers) apart; clip z runs -w..0 and the
 * viewport maps it to Z 0..2^24-1.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_FLIPPER_SCENE_H
#define GPU3D_FLIPPER_SCENE_H

#include "gpu3d/flipper-cmd.h"
#include "scene-cube.h"

/* the frame the demo leaves on the screen, and the reference's */
#define FLIPPER_CUBE_FINAL_FRAME (SCENE_FRAMES - 1)

static inline uint32_t flipper_scene_u8(float c)
{
    return (uint32_t)(c * 255.0f + 0.5f);
}

static inline void flipper_cube_frame(FlipperGX *g, int f)
{
    static float v[SCENE_VERTS * 8];
    const float n = SCENE_NEAR, fa = SCENE_FAR;
    float mv[16];
    uint32_t proj[7];
    int i;

    fgx_begin_frame(g, flipper_scene_u8(SCENE_CLEAR_R) << 24 |
                       flipper_scene_u8(SCENE_CLEAR_G) << 16 |
                       flipper_scene_u8(SCENE_CLEAR_B) << 8 | 0xFF);
    scene_modelview(f, mv);
    fgx_xff(g, XF_MEM_POSMTX, 12, mv);           /* rows x, y, z */
    proj[0] = fgx_fbits(SCENE_FOVY_COT * (float)FGX_H / (float)FGX_W);
    proj[1] = 0;
    proj[2] = fgx_fbits(SCENE_FOVY_COT);
    proj[3] = 0;
    proj[4] = fgx_fbits(-n / (fa - n));
    proj[5] = fgx_fbits(-(fa * n) / (fa - n));
    proj[6] = 0;                                 /* perspective */
    fgx_xf(g, XF_REG_PROJECTION, 7, proj);

    scene_vertices(v);
    fgx_draw(g, GX_DRAW_TRIANGLES, 0, SCENE_VERTS);
    for (i = 0; i < SCENE_VERTS; i++) {
        const float *p = v + 8 * i;
        fgx_vtx(g, p[0], p[1], p[2],
                flipper_scene_u8(p[4]) << 24 | flipper_scene_u8(p[5]) << 16 |
                flipper_scene_u8(p[6]) << 8 | flipper_scene_u8(p[7]));
    }
    fgx_copy_to_xfb(g, FGX_XFB_ADDR);
}

#endif
