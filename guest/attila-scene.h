/*
 * The shared demo scene (scene-cube.h) as attila-3d records: what an ATTILA
 * driver sends to draw it.
 *
 * - a vertex program of five instructions: the frame's clip transform
 *   (rows in vertex constants 0..3, DP4 per output component) of input 0,
 *   and output 1 = input 3, the colour (the corpus triangle trace's
 *   attribute layout); a fragment program of one: colour output = input 1;
 * - two streams over the scene's vertices (8 floats: position, colour);
 * - OpenGL conventions (the register reset values): clip z in [-w, w],
 *   depth range 0..1, pixel centres at .5, row 0 of memory at the bottom
 *   (the DAC flips it); depth test LESS on the 24-bit z buffer cleared to
 *   1.0; double buffering through GPU_SWAPBUFFERS.
 *
 * Used by guest/attila-demo.c, the core's scene test and the benchmark; the
 * pictures are compared with tools/scene-gl-ref (llvmpipe). Header-only,
 * freestanding.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_ATTILA_SCENE_H
#define GPU3D_ATTILA_SCENE_H

#include "scene-cube.h"
#include "gpu3d/attila-cmd.h"

/* GPU memory layout: programs, two colour buffers and the z buffer */
#define ATTILA_SCENE_VPROG    0x00010000u
#define ATTILA_SCENE_FPROG    0x00011000u
#define ATTILA_SCENE_FB(i)    (0x01000000u + (i) * 0x00400000u)
#define ATTILA_SCENE_ZB       0x01800000u
#define ATTILA_SCENE_FPROG_PC 8     /* fragment program after the vertex one */
#define ATTILA_SCENE_MAX_DIM  1024  /* a buffer of 4 MiB holds 1024x1024 */

static inline void attila_scene_ins(AttilaShIns *p, int n, uint8_t out[][16])
{
    int i;

    for (i = 0; i < n; i++) {
        attila_sh_encode(&p[i], out[i]);
    }
}

/*
 * The programs: position = the frame's matrix (rows in constants 0..3)
 * times input 0; colour output 1 = input 3 (the triangle trace's
 * attribute layout). The fragment program passes the colour on.
 */
static inline void attila_scene_programs(AttilaRecBuf *b)
{
    uint8_t vp[5][16], fp[1][16];
    const AttilaShSrc in0 = ATTILA_SRC(ATTILA_BANK_IN, 0);
    AttilaShIns v[5] = {
        { .opc = ATTILA_SH_DP4, .rbank = ATTILA_BANK_OUT, .rreg = 0, .mask = 8,
          .s = { ATTILA_SRC(ATTILA_BANK_PARAM, 0), in0 } },
        { .opc = ATTILA_SH_DP4, .rbank = ATTILA_BANK_OUT, .rreg = 0, .mask = 4,
          .s = { ATTILA_SRC(ATTILA_BANK_PARAM, 1), in0 } },
        { .opc = ATTILA_SH_DP4, .rbank = ATTILA_BANK_OUT, .rreg = 0, .mask = 2,
          .s = { ATTILA_SRC(ATTILA_BANK_PARAM, 2), in0 } },
        { .opc = ATTILA_SH_DP4, .rbank = ATTILA_BANK_OUT, .rreg = 0, .mask = 1,
          .s = { ATTILA_SRC(ATTILA_BANK_PARAM, 3), in0 } },
        { .opc = ATTILA_SH_MOV, .end = true, .rbank = ATTILA_BANK_OUT,
          .rreg = 1, .mask = 15, .s = { ATTILA_SRC(ATTILA_BANK_IN, 3) } },
    };
    AttilaShIns f[1] = {
        { .opc = ATTILA_SH_MOV, .end = true, .rbank = ATTILA_BANK_OUT,
          .rreg = 1, .mask = 15, .s = { ATTILA_SRC(ATTILA_BANK_IN, 1) } },
    };

    attila_scene_ins(v, 5, vp);
    attila_scene_ins(f, 1, fp);
    attila_rec_write(b, ATTILA_SCENE_VPROG, vp, sizeof(vp));
    attila_rec_reg_u32(b, ATTILA_REG_VERTEX_PROGRAM, 0, ATTILA_SCENE_VPROG);
    attila_rec_reg_u32(b, ATTILA_REG_VERTEX_PROGRAM_PC, 0, 0);
    attila_rec_reg_u32(b, ATTILA_REG_VERTEX_PROGRAM_SIZE, 0, sizeof(vp));
    attila_rec_reg_u32(b, ATTILA_REG_VERTEX_THREAD_RESOURCES, 0, 1);
    attila_rec_cmd(b, ATTILA_CMD_LOAD_VERTEX_PROGRAM);
    attila_rec_write(b, ATTILA_SCENE_FPROG, fp, sizeof(fp));
    attila_rec_reg_u32(b, ATTILA_REG_FRAGMENT_PROGRAM, 0, ATTILA_SCENE_FPROG);
    attila_rec_reg_u32(b, ATTILA_REG_FRAGMENT_PROGRAM_PC, 0, ATTILA_SCENE_FPROG_PC);
    attila_rec_reg_u32(b, ATTILA_REG_FRAGMENT_PROGRAM_SIZE, 0, sizeof(fp));
    attila_rec_cmd(b, ATTILA_CMD_LOAD_FRAGMENT_PROGRAM);
}

/* everything that stays the same from frame to frame */
static inline void attila_scene_setup(AttilaRecBuf *b, uint32_t w, uint32_t h,
                                      uint32_t verts)
{
    int i;

    attila_rec_reg_u32(b, ATTILA_REG_DISPLAY_X_RES, 0, w);
    attila_rec_reg_u32(b, ATTILA_REG_DISPLAY_Y_RES, 0, h);
    attila_rec_reg_u32(b, ATTILA_REG_VIEWPORT_WIDTH, 0, w);
    attila_rec_reg_u32(b, ATTILA_REG_VIEWPORT_HEIGHT, 0, h);
    attila_rec_reg_u32(b, ATTILA_REG_FRONTBUFFER_ADDR, 0, ATTILA_SCENE_FB(1));
    attila_rec_reg_u32(b, ATTILA_REG_BACKBUFFER_ADDR, 0, ATTILA_SCENE_FB(0));
    attila_rec_reg_u32(b, ATTILA_REG_ZSTENCILBUFFER_ADDR, 0, ATTILA_SCENE_ZB);
    attila_rec_reg_vec4(b, ATTILA_REG_COLOR_BUFFER_CLEAR, 0, SCENE_CLEAR_R,
                        SCENE_CLEAR_G, SCENE_CLEAR_B, 1);
    /* depth test LESS, depth range 0..1, 24-bit z cleared to 1.0 */
    attila_rec_reg_u32(b, ATTILA_REG_DEPTH_TEST, 0, 1);
    attila_rec_reg_u32(b, ATTILA_REG_DEPTH_FUNCTION, 0, ATTILA_CMP_LESS);
    attila_rec_reg_u32(b, ATTILA_REG_Z_BUFFER_CLEAR, 0, 0x00ffffff);
    attila_rec_reg_u32(b, ATTILA_REG_CULLING, 0, ATTILA_CULL_NONE);
    attila_scene_programs(b);
    /* two streams over the vertices (8 floats each): position, colour */
    for (i = 0; i < ATTILA_MAX_VERTEX_ATTRIBUTES; i++) {
        attila_rec_reg_u32(b, ATTILA_REG_VERTEX_OUTPUT_ATTRIBUTE, i, i < 2);
        attila_rec_reg_u32(b, ATTILA_REG_VERTEX_ATTRIBUTE_MAP, i,
                           i == 0 ? 0 : i == 3 ? 1 : ATTILA_ST_INACTIVE_ATTRIBUTE);
    }
    for (i = 0; i < 2; i++) {
        attila_rec_reg_u32(b, ATTILA_REG_STREAM_ADDRESS, i, verts + 16 * i);
        attila_rec_reg_u32(b, ATTILA_REG_STREAM_STRIDE, i, 32);
        attila_rec_reg_u32(b, ATTILA_REG_STREAM_DATA, i, ATTILA_SD_FLOAT32);
        attila_rec_reg_u32(b, ATTILA_REG_STREAM_ELEMENTS, i, 4);
    }
    attila_rec_reg_u32(b, ATTILA_REG_STREAM_START, 0, 0);
    attila_rec_reg_u32(b, ATTILA_REG_STREAM_COUNT, 0, SCENE_VERTS);
    attila_rec_reg_u32(b, ATTILA_REG_INDEX_MODE, 0, 0);
    attila_rec_reg_u32(b, ATTILA_REG_PRIMITIVE, 0, ATTILA_PRIM_TRIANGLE);
    attila_rec_reg_u32(b, ATTILA_REG_FRAGMENT_INPUT_ATTRIBUTES, 1, 1);
}

/* one frame: clear, the frame's matrix, draw, swap */
static inline void attila_scene_frame(AttilaRecBuf *b, int f, uint32_t w,
                                      uint32_t h)
{
    float m[16];
    int r;

    scene_matrix(f, (float)w / h, m);
    for (r = 0; r < 4; r++) {
        attila_rec_reg_vec4(b, ATTILA_REG_VERTEX_CONSTANT, r, m[4 * r],
                            m[4 * r + 1], m[4 * r + 2], m[4 * r + 3]);
    }
    attila_rec_cmd(b, ATTILA_CMD_CLEARCOLORBUFFER);
    attila_rec_cmd(b, ATTILA_CMD_CLEARZSTENCILBUFFER);
    attila_rec_cmd(b, ATTILA_CMD_DRAW);
    attila_rec_cmd(b, ATTILA_CMD_SWAPBUFFERS);
}

#endif
