/*
 * The compressed-texture scene (attila-dxt-scene.h) as attila-3d records,
 * built with include/gpu3d/attila-cmd.h: a pass-through vertex program
 * (position, texture coordinate to output 5), a one-instruction fragment
 * program (tex o1, i5, unit 0), and per quad its texture written in
 * ATTILA's tiling as the ATTILA driver places compressed blocks
 * (GPUDriver::getDataInMortonOrder: Morton order of the 8x8 block grid,
 * one superblock), its texture registers, its vertices and a draw. Used by
 * the image test and as a fuzz seed. Header-only.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_TESTS_ATTILA_DXT_RECORDS_H
#define GPU3D_TESTS_ATTILA_DXT_RECORDS_H

#include <stdbool.h>
#include <string.h>

#include "attila-dxt-scene.h"
#include "gpu3d/attila-cmd.h"

/* Morton order of a 16x16 grid: bit t of x -> 2t, of y -> 2t + 1 */
static inline uint32_t dxt_morton4(uint32_t x, uint32_t y)
{
    uint32_t m = 0, t;

    for (t = 0; t < 4; t++) {
        m |= ((x >> t) & 1) << (2 * t) | ((y >> t) & 1) << (2 * t + 1);
    }
    return m;
}

/* GPU memory layout (inside 2 MiB, so the fuzz harness's memory holds it) */
#define DXT_VPROG 0x00010000u
#define DXT_FPROG 0x00011000u
#define DXT_FPROG_PC 8
#define DXT_VERTS 0x00020000u
#define DXT_TEXS 0x00030000u
#define DXT_FB(i) (0x00100000u + (i) * 0x00040000u)    /* 256x256x4 at most */
#define DXT_ZB 0x00180000u

/*
 * lda: the vertex program loads position and texture coordinate with LDA
 * (attributes 0 and 1 by the index in input 0) under
 * GPU_ATTRIBUTE_LOAD_BYPASS, instead of reading inputs 0 and 1.
 */
static inline void dxt_programs(AttilaRecBuf *b, bool lda)
{
    uint8_t vp[2][16], fp[1][16];
    AttilaShIns v[2] = {
        { .opc = ATTILA_SH_MOV, .rbank = ATTILA_BANK_OUT, .rreg = 0, .mask = 15,
          .s = { ATTILA_SRC(ATTILA_BANK_IN, 0) } },
        { .opc = ATTILA_SH_MOV, .end = true, .rbank = ATTILA_BANK_OUT,
          .rreg = 5, .mask = 15, .s = { ATTILA_SRC(ATTILA_BANK_IN, 1) } },
    };
    /* tex o1, i5, texture unit 0 */
    AttilaShIns f[1] = {
        { .opc = ATTILA_SH_TEX, .end = true, .rbank = ATTILA_BANK_OUT,
          .rreg = 1, .mask = 15,
          .s = { ATTILA_SRC(ATTILA_BANK_IN, 5), ATTILA_SRC(ATTILA_BANK_IN, 0) } },
    };
    int i;

    for (i = 0; lda && i < 2; i++) {
        v[i].opc = ATTILA_SH_LDA;
        v[i].s[0] = ATTILA_SRC(ATTILA_BANK_IN, 0);
        v[i].s[1] = ATTILA_SRC(ATTILA_BANK_IN, i);   /* the attribute */
    }
    attila_rec_reg_u32(b, ATTILA_REG_ATTRIBUTE_LOAD_BYPASS, 0, lda);
    for (i = 0; i < 2; i++) {
        attila_sh_encode(&v[i], vp[i]);
    }
    attila_sh_encode(&f[0], fp[0]);
    attila_rec_write(b, DXT_VPROG, vp, sizeof(vp));
    attila_rec_reg_u32(b, ATTILA_REG_VERTEX_PROGRAM, 0, DXT_VPROG);
    attila_rec_reg_u32(b, ATTILA_REG_VERTEX_PROGRAM_PC, 0, 0);
    attila_rec_reg_u32(b, ATTILA_REG_VERTEX_PROGRAM_SIZE, 0, sizeof(vp));
    attila_rec_cmd(b, ATTILA_CMD_LOAD_VERTEX_PROGRAM);
    attila_rec_write(b, DXT_FPROG, fp, sizeof(fp));
    attila_rec_reg_u32(b, ATTILA_REG_FRAGMENT_PROGRAM, 0, DXT_FPROG);
    attila_rec_reg_u32(b, ATTILA_REG_FRAGMENT_PROGRAM_PC, 0, DXT_FPROG_PC);
    attila_rec_reg_u32(b, ATTILA_REG_FRAGMENT_PROGRAM_SIZE, 0, sizeof(fp));
    attila_rec_cmd(b, ATTILA_CMD_LOAD_FRAGMENT_PROGRAM);
}

typedef struct DxtBad {
    int quad;                   /* the quad given bad input, -1 none */
    uint32_t tex_addr;          /* its texture address */
    bool fb_blocking;           /* framebuffer blocking with compression */
    bool wrong_format;          /* LUMINANCE8 with its DXT compression */
} DxtBad;

static inline void dxt_scene_records(AttilaRecBuf *b, const DxtBad *bad,
                                     float clear, bool lda)
{
    static const uint32_t tc[] = {
        [DXT_KIND_DXT1] = ATTILA_TC_DXT1_RGBA,
        [DXT_KIND_DXT3] = ATTILA_TC_DXT3_RGBA,
        [DXT_KIND_DXT5] = ATTILA_TC_DXT5_RGBA,
        [DXT_KIND_LATC1] = ATTILA_TC_LATC1,
        [DXT_KIND_LATC1_SIGNED] = ATTILA_TC_LATC1_SIGNED,
        [DXT_KIND_LATC2] = ATTILA_TC_LATC2,
        [DXT_KIND_LATC2_SIGNED] = ATTILA_TC_LATC2_SIGNED,
    };
    /* ATTILA ref. Texture Registers, TextureCompression: the format each
     * compression goes with */
    static const uint32_t fmt[] = {
        [DXT_KIND_DXT1] = ATTILA_FMT_RGBA8888,
        [DXT_KIND_DXT3] = ATTILA_FMT_RGBA8888,
        [DXT_KIND_DXT5] = ATTILA_FMT_RGBA8888,
        [DXT_KIND_LATC1] = ATTILA_FMT_LUMINANCE8,
        [DXT_KIND_LATC1_SIGNED] = ATTILA_FMT_LUMINANCE8_SIGNED,
        [DXT_KIND_LATC2] = ATTILA_FMT_LUMINANCE8_ALPHA8,
        [DXT_KIND_LATC2_SIGNED] = ATTILA_FMT_LUMINANCE8_ALPHA8_SIGNED,
    };
    uint8_t lin[DXT_BLOCKS * DXT_BLOCKS * 16];
    uint8_t tiled[DXT_BLOCKS * DXT_BLOCKS * 16];
    float v[6 * 8];
    int i, q, bx, by;

    attila_rec_reg_u32(b, ATTILA_REG_DISPLAY_X_RES, 0, DXT_SCENE_W);
    attila_rec_reg_u32(b, ATTILA_REG_DISPLAY_Y_RES, 0, DXT_SCENE_H);
    attila_rec_reg_u32(b, ATTILA_REG_VIEWPORT_WIDTH, 0, DXT_SCENE_W);
    attila_rec_reg_u32(b, ATTILA_REG_VIEWPORT_HEIGHT, 0, DXT_SCENE_H);
    attila_rec_reg_u32(b, ATTILA_REG_FRONTBUFFER_ADDR, 0, DXT_FB(1));
    attila_rec_reg_u32(b, ATTILA_REG_BACKBUFFER_ADDR, 0, DXT_FB(0));
    attila_rec_reg_u32(b, ATTILA_REG_ZSTENCILBUFFER_ADDR, 0, DXT_ZB);
    attila_rec_reg_vec4(b, ATTILA_REG_COLOR_BUFFER_CLEAR, 0, clear, clear,
                        clear, 1);
    attila_rec_reg_u32(b, ATTILA_REG_CULLING, 0, ATTILA_CULL_NONE);
    dxt_programs(b, lda);
    for (i = 0; i < ATTILA_MAX_VERTEX_ATTRIBUTES; i++) {
        attila_rec_reg_u32(b, ATTILA_REG_VERTEX_OUTPUT_ATTRIBUTE, i,
                           i == 0 || i == 5);
        attila_rec_reg_u32(b, ATTILA_REG_VERTEX_ATTRIBUTE_MAP, i,
                           i < 2 ? (uint32_t)i : ATTILA_ST_INACTIVE_ATTRIBUTE);
    }
    attila_rec_reg_u32(b, ATTILA_REG_FRAGMENT_INPUT_ATTRIBUTES, 5, 1);
    for (i = 0; i < 2; i++) {
        attila_rec_reg_u32(b, ATTILA_REG_STREAM_STRIDE, i, 32);
        attila_rec_reg_u32(b, ATTILA_REG_STREAM_DATA, i, ATTILA_SD_FLOAT32);
        attila_rec_reg_u32(b, ATTILA_REG_STREAM_ELEMENTS, i, i ? 2 : 4);
    }
    attila_rec_reg_u32(b, ATTILA_REG_STREAM_START, 0, 0);
    attila_rec_reg_u32(b, ATTILA_REG_STREAM_COUNT, 0, 6);
    attila_rec_reg_u32(b, ATTILA_REG_INDEX_MODE, 0, 0);
    attila_rec_reg_u32(b, ATTILA_REG_PRIMITIVE, 0, ATTILA_PRIM_TRIANGLE);
    attila_rec_cmd(b, ATTILA_CMD_CLEARCOLORBUFFER);

    attila_rec_reg_u32(b, ATTILA_REG_TEXTURE_ENABLE, 0, 1);
    attila_rec_reg_u32(b, ATTILA_REG_TEXTURE_MODE, 0, ATTILA_TEX_2D);
    attila_rec_reg_u32(b, ATTILA_REG_TEXTURE_WIDTH, 0, DXT_TEX);
    attila_rec_reg_u32(b, ATTILA_REG_TEXTURE_HEIGHT, 0, DXT_TEX);
    attila_rec_reg_u32(b, ATTILA_REG_TEXTURE_WIDTH2, 0, 5);
    attila_rec_reg_u32(b, ATTILA_REG_TEXTURE_HEIGHT2, 0, 5);
    attila_rec_reg_u32(b, ATTILA_REG_TEXTURE_MAX_LEVEL, 0, 0);
    attila_rec_reg_u32(b, ATTILA_REG_TEXTURE_WRAP_S, 0, ATTILA_CLAMP_TO_EDGE);
    attila_rec_reg_u32(b, ATTILA_REG_TEXTURE_WRAP_T, 0, ATTILA_CLAMP_TO_EDGE);
    for (q = 0; q < DXT_QUADS; q++) {
        const DxtQuad *dq = &dxt_quads[q];
        int n = dxt_block_bytes(dq->kind);
        uint32_t taddr = DXT_TEXS + 0x1000u * q;
        uint32_t f = dq->linear ? ATTILA_LINEAR : ATTILA_NEAREST;
        bool fbb = bad && bad->quad == q && bad->fb_blocking;

        dxt_texture(dq->kind, lin);
        for (by = 0; by < DXT_BLOCKS; by++) {
            for (bx = 0; bx < DXT_BLOCKS; bx++) {
                memcpy(tiled + n * dxt_morton4(bx, by),
                       lin + n * (by * DXT_BLOCKS + bx), n);
            }
        }
        attila_rec_write(b, taddr, tiled, DXT_BLOCKS * DXT_BLOCKS * n);
        if (bad && bad->quad == q && !fbb && !bad->wrong_format) {
            taddr = bad->tex_addr;
        }
        attila_rec_reg_u32(b, ATTILA_REG_TEXTURE_ADDRESS, 0, taddr);
        attila_rec_reg_u32(b, ATTILA_REG_TEXTURE_COMPRESSION, 0, tc[dq->kind]);
        attila_rec_reg_u32(b, ATTILA_REG_TEXTURE_FORMAT, 0,
                           bad && bad->quad == q && bad->wrong_format ?
                           ATTILA_FMT_LUMINANCE8 : fmt[dq->kind]);
        attila_rec_reg_u32(b, ATTILA_REG_TEXTURE_BLOCKING, 0,
                           fbb ? ATTILA_TXBLOCK_FRAMEBUFFER : ATTILA_TXBLOCK_TEXTURE);
        attila_rec_reg_u32(b, ATTILA_REG_TEXTURE_MIN_FILTER, 0, f);
        attila_rec_reg_u32(b, ATTILA_REG_TEXTURE_MAG_FILTER, 0, f);
        dxt_quad_vertices(dq, v);
        attila_rec_write(b, DXT_VERTS + 256u * q, v, sizeof(v));
        attila_rec_reg_u32(b, ATTILA_REG_STREAM_ADDRESS, 0, DXT_VERTS + 256u * q);
        attila_rec_reg_u32(b, ATTILA_REG_STREAM_ADDRESS, 1, DXT_VERTS + 256u * q + 16);
        attila_rec_cmd(b, ATTILA_CMD_DRAW);
    }
    attila_rec_cmd(b, ATTILA_CMD_SWAPBUFFERS);
}

#endif
