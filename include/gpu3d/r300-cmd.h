/*
 * Building R300 command streams: PM4 packets and the register state of a
 * simple programmable pipeline (PVS transform, Gouraud colour, depth test,
 * one colour buffer). Header-only and freestanding, so the guest demos, the
 * qtests and the core's unit tests all drive the chip the same way.
 *
 * The state follows the register order of Mesa's r300 driver (r300_emit.c),
 * with a 4x4 matrix transform in the vertex program instead of a pass-through.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_R300_CMD_H
#define GPU3D_R300_CMD_H

#include <stdint.h>

#include "gpu3d/r300-regs.h"

typedef struct R300Cmd {
    uint32_t *buf;
    uint32_t n, cap;        /* dwords used / available */
    int overflow;
} R300Cmd;

/*
 * Starting the CP ring: bus-mastered primary and indirect queues, the ring's
 * base, its size (log2 of quad-words) with the read pointer writable while
 * both pointers go to 0, then the read-pointer write-back address. Fills
 * `seq` with the (register, value) pairs to write in order; every guest,
 * qtest and unit test writes them through its own register access.
 */
enum { R300_RING_START_WRITES = 7 };

static inline void r300_ring_start(uint32_t seq[R300_RING_START_WRITES][2],
                                   uint32_t base, uint32_t bufsz,
                                   uint32_t rptr_addr)
{
    const uint32_t w[R300_RING_START_WRITES][2] = {
        { A_CP_CSQ_CNTL, (uint32_t)R300_CSQ_PRIBM_INDBM << 28 },
        { A_CP_RB_BASE, base },
        { A_CP_RB_CNTL, bufsz | R_CP_RB_CNTL_RB_RPTR_WR_ENA_MASK },
        { A_CP_RB_RPTR_WR, 0 },
        { A_CP_RB_WPTR, 0 },
        { A_CP_RB_CNTL, bufsz },
        { A_CP_RB_RPTR_ADDR, rptr_addr },
    };
    unsigned i;

    for (i = 0; i < R300_RING_START_WRITES; i++) {
        seq[i][0] = w[i][0];
        seq[i][1] = w[i][1];
    }
}

static inline void r300_cmd_dw(R300Cmd *c, uint32_t v)
{
    if (c->n < c->cap) {
        c->buf[c->n++] = v;
    } else {
        c->overflow = 1;
    }
}

static inline uint32_t r300_f2u(float f)
{
    union { float f; uint32_t u; } x = { f };
    return x.u;
}

/* one register: a type-0 packet of one dword */
static inline void r300_cmd_reg(R300Cmd *c, uint32_t reg, uint32_t val)
{
    r300_cmd_dw(c, R300_PACKET0(reg, 0));
    r300_cmd_dw(c, val);
}

static inline void r300_cmd_regf(R300Cmd *c, uint32_t reg, float val)
{
    r300_cmd_reg(c, reg, r300_f2u(val));
}

/* GA_SOLID-style S3.12 is not needed here; US constants are fp24 */
static inline uint32_t r300_fp24(float f)
{
    uint32_t u = r300_f2u(f), e = (u >> 23) & 0xFF;

    if (e < 64) {
        return 0;               /* below fp24's range: zero */
    }
    if (e > 127 + 63) {
        e = 127 + 63;           /* clamp to the largest exponent */
    }
    /* sign, exponent rebiased from 127 to 63, top 16 mantissa bits */
    return (u >> 31) << 23 | (e - 64) << 16 | ((u >> 7) & 0xFFFF);
}

typedef struct R300Surface {
    uint32_t addr;          /* GPU address */
    uint32_t pitch;         /* pixels */
    uint32_t format;        /* R300_COLOR_FORMAT_* or R300_DEPTHFORMAT_* */
    uint32_t tiling;        /* colour: RB3D_COLORPITCH tile bits; 0 linear */
} R300Surface;

/* PVS instructions 0..3: output 0 = the matrix in constants 0..3 (rows)
 * times input 0, one DOT_PRODUCT per component */
static inline void r300_pvs_transform(uint32_t prog[4][4])
{
    unsigned i;

    for (i = 0; i < 4; i++) {
        prog[i][0] = R300_PVS_DST(R300_VE_DOT_PRODUCT, 0, R300_PVS_DST_REG_OUT,
                                  0, 1u << i);
        prog[i][1] = R300_PVS_SRC_XYZW(R300_PVS_SRC_REG_INPUT, 0);
        prog[i][2] = R300_PVS_SRC_XYZW(R300_PVS_SRC_REG_CONSTANT, i);
        prog[i][3] = R300_PVS_SRC_ZERO;
    }
}

/*
 * The pipeline state: vertices of 8 floats (x y z w r g b a) transformed by
 * the matrix in PVS constants 0..3 (rows), colour passed through, Gouraud,
 * into `cb` (width x height); depth test LESS with writes into `zb` when
 * zb->pitch is not 0.
 */
static inline void r300_cmd_pipeline(R300Cmd *c, const R300Surface *cb,
                                     const R300Surface *zb, unsigned width,
                                     unsigned height)
{
    static const uint32_t tail_regs[][2] = {
        { A_GB_SELECT, 0 }, { A_GB_ENABLE, 0 }, { A_GB_AA_CONFIG, 0 },
        { A_GB_MSPOS0, 0x66666666 }, { A_GB_MSPOS1, 0x06666666 },
        { A_VAP_CNTL_STATUS, 0 }, { A_VAP_PVS_VTX_TIMEOUT_REG, 0xFFFF },
        { A_VAP_CLIP_CNTL, 0 },
        { A_VAP_PSC_SGN_NORM_CNTL, 0xAAAAAAAA },
        /* e0: FLOAT_4 -> in0; e1: FLOAT_4 -> in1, LAST_VEC */
        { A_VAP_PROG_STREAM_CNTL_0, 0x21030003 },
        { A_VAP_PROG_STREAM_CNTL_EXT_0, 0xF688F688 },
        { A_VAP_VTX_STATE_CNTL, 0x5555 }, { A_VAP_VSM_VTX_ASSM, 5 },
        { A_VAP_OUT_VTX_FMT_0, 3 }, { A_VAP_OUT_VTX_FMT_1, 0 },
        { A_VAP_VTX_SIZE, 8 },
        /* Gouraud on all colours, provoking vertex last */
        { A_GA_COLOR_CONTROL, 0x3AAAA }, { A_GA_POLY_MODE, 0 },
        { A_GA_OFFSET, 0 }, { A_GA_ROUND_MODE, 1 },
        { A_SU_CULL_MODE, 0 }, { A_SU_POLY_OFFSET_ENABLE, 0 },
        { A_SU_TEX_WRAP, 0 }, { A_SU_DEPTH_OFFSET, 0 }, { A_SU_REG_DEST, 0xF },
        { A_SC_CLIP_RULE, 0xFFFF }, { A_SC_EDGERULE, 0x2DA49525 },
        { A_SC_SCREENDOOR, 0xFFFFFF }, { A_SC_HYPERZ_EN, 0 },
        /* RS: colour 0 into temporary 0 */
        { A_RS_COUNT, 0x00040080 }, { A_RS_INST_COUNT, 0 },
        { A_RS_IP_0, 0 }, { A_RS_INST_0, 0x00004000 },
        /* US: out = t0 (one ALU instruction in node 3) */
        { A_US_CONFIG, 0 }, { A_US_PIXSIZE, 0 }, { A_US_CODE_OFFSET, 0 },
        { A_US_CODE_ADDR_0, 0 }, { A_US_CODE_ADDR_0 + 4, 0 },
        { A_US_CODE_ADDR_0 + 8, 0 }, { A_US_CODE_ADDR_0 + 12, 0x00400000 },
        { A_US_ALU_RGB_ADDR_0, 0x1C000000 }, { A_US_ALU_ALPHA_ADDR_0, 0x01000000 },
        { A_US_ALU_RGB_INST_0, 0x40050A80 }, { A_US_ALU_ALPHA_INST_0, 0x40040889 },
        { A_US_OUT_FMT_0, 0x00001B00 }, { A_US_OUT_FMT_0 + 4, 15 },
        { A_US_OUT_FMT_0 + 8, 15 }, { A_US_OUT_FMT_0 + 12, 15 },
        { A_US_W_FMT, 0 }, { A_TX_ENABLE, 0 },
        { A_FG_FOG_BLEND, 0 }, { A_FG_ALPHA_FUNC, 0 }, { A_FG_DEPTH_SRC, 0 },
        { A_RB3D_CCTL, 0 }, { A_RB3D_BLENDCNTL, 0 }, { A_RB3D_ABLENDCNTL, 0 },
        { A_RB3D_ROPCNTL, 0 }, { A_RB3D_COLOR_CHANNEL_MASK, 0xF },
        { A_RB3D_DITHER_CTL, 0 }, { A_RB3D_AARESOLVE_CTL, 0 },
        { A_ZB_ZTOP, 0 }, { A_ZB_BW_CNTL, 0 },
        { A_ZB_ZSTENCILCNTL, R300_ZS_LESS },
    };
    /* out[k] = dp4(in0, const k) for k = x..w; out1 = in1 + 0 */
    uint32_t prog[5][4];
    unsigned i;

    r300_pvs_transform(prog);
    prog[4][0] = R300_PVS_DST(R300_VE_ADD, 0, R300_PVS_DST_REG_OUT, 1, 0xF);
    prog[4][1] = R300_PVS_SRC_XYZW(R300_PVS_SRC_REG_INPUT, 1);
    prog[4][2] = R300_PVS_SRC_ZERO;
    prog[4][3] = R300_PVS_SRC_ZERO;

    r300_cmd_reg(c, A_GB_FIFO_SIZE, 0);     /* "must be the first one written" */
    r300_cmd_reg(c, A_GB_TILE_CONFIG, 0x11); /* 1 pipe, 16px tiles, 1/12 grid */
    for (i = 0; i < sizeof(tail_regs) / sizeof(tail_regs[0]); i++) {
        r300_cmd_reg(c, tail_regs[i][0], tail_regs[i][1]);
    }
    r300_cmd_reg(c, A_VAP_CNTL, 0x0030045A);
    r300_cmd_regf(c, A_VAP_GB_VERT_CLIP_ADJ, 1.0f);
    r300_cmd_regf(c, A_VAP_GB_VERT_DISC_ADJ, 1.0f);
    r300_cmd_regf(c, A_VAP_GB_HORZ_CLIP_ADJ, 1.0f);
    r300_cmd_regf(c, A_VAP_GB_HORZ_DISC_ADJ, 1.0f);

    /* the vertex program, uploaded through the 128-bit data port */
    r300_cmd_reg(c, A_VAP_PVS_STATE_FLUSH_REG, 0);
    r300_cmd_reg(c, A_VAP_PVS_VECTOR_INDX_REG, R300_PVS_CODE_START);
    r300_cmd_dw(c, R300_PACKET0_ONE(A_VAP_PVS_VECTOR_DATA_REG_128, 5 * 4 - 1));
    for (i = 0; i < 5 * 4; i++) {
        r300_cmd_dw(c, prog[i / 4][i % 4]);
    }
    r300_cmd_reg(c, A_VAP_PVS_CODE_CNTL_0, 4u << 20 | 3u << 10);
    r300_cmd_reg(c, A_VAP_PVS_CODE_CNTL_1, 4);
    r300_cmd_reg(c, A_VAP_PVS_CONST_CNTL, 0x00FF0000);
    r300_cmd_reg(c, A_VAP_PVS_FLOW_CNTL_OPC, 0);

    /* viewport: y down, depth 0..1 */
    r300_cmd_regf(c, A_VAP_VPORT_XSCALE, width / 2.0f);
    r300_cmd_regf(c, A_VAP_VPORT_XOFFSET, width / 2.0f);
    r300_cmd_regf(c, A_VAP_VPORT_YSCALE, -(height / 2.0f));
    r300_cmd_regf(c, A_VAP_VPORT_YOFFSET, height / 2.0f);
    r300_cmd_regf(c, A_VAP_VPORT_ZSCALE, 0.5f);
    r300_cmd_regf(c, A_VAP_VPORT_ZOFFSET, 0.5f);
    r300_cmd_reg(c, A_VAP_VTE_CNTL, 0x43F);
    r300_cmd_regf(c, A_SU_DEPTH_SCALE, 16777215.0f);

    r300_cmd_reg(c, A_SC_SCISSOR0, R300_SC_XY(R300_SC_ORIGIN, R300_SC_ORIGIN));
    r300_cmd_reg(c, A_SC_SCISSOR1, R300_SC_XY(R300_SC_ORIGIN + width - 1,
                                              R300_SC_ORIGIN + height - 1));
    r300_cmd_reg(c, A_SC_CLIP_0_A, R300_SC_XY(R300_SC_ORIGIN, R300_SC_ORIGIN));
    r300_cmd_reg(c, A_SC_CLIP_0_B, R300_SC_XY(R300_SC_ORIGIN + width - 1,
                                              R300_SC_ORIGIN + height - 1));

    r300_cmd_reg(c, R300_RB3D_COLOROFFSET(0), cb->addr);
    r300_cmd_reg(c, R300_RB3D_COLORPITCH(0),
                 cb->pitch | cb->tiling |
                 cb->format << R_RB3D_COLORPITCH_0_COLORFORMAT_SHIFT);
    if (zb && zb->pitch) {
        r300_cmd_reg(c, A_ZB_FORMAT, zb->format);
        r300_cmd_reg(c, A_ZB_DEPTHOFFSET, zb->addr);
        r300_cmd_reg(c, A_ZB_DEPTHPITCH, zb->pitch);
        r300_cmd_reg(c, A_ZB_CNTL, R_ZB_CNTL_Z_ENABLE_MASK |
                                   R_ZB_CNTL_ZWRITEENABLE_MASK);
    } else {
        r300_cmd_reg(c, A_ZB_CNTL, 0);
    }
}

/* The matrix (row-major, rows = output x, y, z, w) into PVS constants 0..3. */
static inline void r300_cmd_matrix(R300Cmd *c, const float m[16])
{
    unsigned i;

    r300_cmd_reg(c, A_VAP_PVS_VECTOR_INDX_REG, R300_PVS_CONST_START);
    r300_cmd_dw(c, R300_PACKET0_ONE(A_VAP_PVS_VECTOR_DATA_REG_128, 15));
    for (i = 0; i < 16; i++) {
        r300_cmd_dw(c, r300_f2u(m[i]));
    }
}

/* Depth test on/off and its function (R300_ZS_*), writes on. */
static inline void r300_cmd_depth(R300Cmd *c, int enable, uint32_t func)
{
    r300_cmd_reg(c, A_ZB_ZSTENCILCNTL, func);
    r300_cmd_reg(c, A_ZB_CNTL, enable ? R_ZB_CNTL_Z_ENABLE_MASK |
                                        R_ZB_CNTL_ZWRITEENABLE_MASK : 0);
}

/* 3D_DRAW_IMMD_2 of `n` vertices of 8 floats. */
static inline void r300_cmd_draw(R300Cmd *c, uint32_t prim, const float *v,
                                 unsigned n)
{
    unsigned i;

    r300_cmd_reg(c, A_VAP_VF_MAX_VTX_INDX, n - 1);
    r300_cmd_reg(c, A_VAP_VF_MIN_VTX_INDX, 0);
    r300_cmd_dw(c, R300_PACKET3(R300_PKT3_3D_DRAW_IMMD_2, n * 8));
    r300_cmd_dw(c, prim | R300_PRIM_WALK_RING << R_VAP_VF_CNTL_PRIM_WALK_SHIFT |
                   n << R_VAP_VF_CNTL_NUM_VERTICES_SHIFT);
    for (i = 0; i < n * 8; i++) {
        r300_cmd_dw(c, r300_f2u(v[i]));
    }
}

/*
 * Clear colour and depth by drawing a screen-sized rectangle at the far
 * plane with the depth test ALWAYS (as drivers without fast clears do).
 * Leaves an identity matrix loaded and the depth function LESS.
 */
static inline void r300_cmd_clear(R300Cmd *c, float r, float g, float b,
                                  float a)
{
    static const float identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                                        0, 0, 0, 1 };
    const float v[6 * 8] = {
        -1, -1, 1, 1, r, g, b, a,   1, -1, 1, 1, r, g, b, a,
         1,  1, 1, 1, r, g, b, a,  -1, -1, 1, 1, r, g, b, a,
         1,  1, 1, 1, r, g, b, a,  -1,  1, 1, 1, r, g, b, a,
    };

    r300_cmd_matrix(c, identity);
    r300_cmd_reg(c, A_ZB_ZSTENCILCNTL, R300_ZS_ALWAYS);
    r300_cmd_draw(c, R300_PRIM_TRIANGLES, v, 6);
    r300_cmd_reg(c, A_ZB_ZSTENCILCNTL, R300_ZS_LESS);
}

/*
 * Texture unit 0: a size x size ARGB8888 image at `addr`, untiled, with
 * TX_FILTER0 `filter0` (filters and wrap modes), RGBA swizzle, enabled.
 */
static inline void r300_cmd_tex0_argb8888(R300Cmd *c, unsigned size,
                                          uint32_t addr, uint32_t filter0)
{
    r300_cmd_reg(c, R300_TX_FILTER0(0), filter0);
    r300_cmd_reg(c, R300_TX_FILTER1(0), 0);
    r300_cmd_reg(c, R300_TX_FORMAT0(0), (size - 1) | (size - 1) << 11);
    r300_cmd_reg(c, R300_TX_FORMAT1(0), 12 | 3u << 9 | 2u << 12 | 1u << 15);
    r300_cmd_reg(c, R300_TX_FORMAT2(0), size - 1);
    r300_cmd_reg(c, R300_TX_OFFSET(0), addr);
    r300_cmd_reg(c, A_TX_ENABLE, 1);
}

/* Flush the caches and wait for idle, as a driver ends a frame. */
static inline void r300_cmd_finish(R300Cmd *c)
{
    r300_cmd_reg(c, A_RB3D_DSTCACHE_CTLSTAT, 0xA);
    r300_cmd_reg(c, A_ZB_ZCACHE_CTLSTAT, 3);
    r300_cmd_reg(c, A_WAIT_UNTIL, R_WAIT_UNTIL_WAIT_3D_IDLECLEAN_MASK);
}

#endif
