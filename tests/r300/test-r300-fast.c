/*
 * The R300 fast paths chosen per draw (quad.c r300_draw_specialise) against
 * the general path: randomised states (colour format, tiling, channel mask,
 * dither modes, blend, ROP, depth format (Z24S8, Z16, 13E3) and stencil,
 * alpha test, fog, output swizzle, clamp, perspective, textured or not, a
 * move program or a longer one), each drawn twice from
 * the same random colour and depth contents, once as chosen and once with
 * g3d_general_path set; the colour and depth bytes must be equal. The test
 * also checks that both paths were taken often enough to mean something.
 * The row spans (quad-lanes.c span_lanes, span8) have SSE2, AVX, AVX2 and
 * AVX-512 instances (chosen by the CPU), and those that move a fetch AVX2
 * and AVX-512 ones sampling eight pixels a call (span_tex8); span8 and
 * span_tex8 have instances for a plain colour write and span8 for each
 * vertex order: the lanes cases run at each level (g3d_simd_max, and
 * g3d_simd_textured_max: the textured spans at that level too), so that
 * every level the CPU has is compared, and the plain ones lean towards
 * the plain instances. At AVX-512 the textured spans have two instances,
 * 256-bit vectors only (AVX-512VL) or the weights in 512-bit ones
 * (g3d_simd_textured_zmm): the `-wide` cases run the latter.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <string.h>

#include "r300-rig.h"
#include "r300/r300-int.h"

#define VRAM_SIZE   (4u << 20)
#define RING_BUFSZ  13
#define TEX_ADDR    0x00100000u     /* 32x32 ARGB8888 */
#define CB_ADDR     0x00200000u
#define ZB_ADDR     0x00300000u
/* where the states put the depth buffer: ZB_ADDR, or in the colour
 * buffer for test_buffer_overlap_threads */
static uint32_t zb_offset = ZB_ADDR;
#define W 64
#define H 48
#define TEX 32
#define SURF_BYTES  (W * H * 4)

static uint32_t cmdbuf[8192];

/*
 * threads, whether the states lean towards r300_quad_lanes', whether they
 * lean towards its one-colour triangles drawn as fills (fill.c), and
 * whether r300_tx_lanes_sample runs its SSE2 instance where the CPU has
 * AVX too
 */
typedef struct Variant {
    int threads;
    bool lanes;
    bool flat;
    G3DSimdLevel simd;          /* the chosen path at most at this level */
    /*
     * lanes states leaning towards the spans' plain colour write (span8's
     * and span_tex8's whole-group store): unblended, mostly without a
     * depth test and into a linear target; textured, or with `gouraud`
     * mostly not
     */
    bool plain;
    bool gouraud;
    /*
     * plain states mostly with a depth test, linear depth buffers leaning
     * towards Z24 (span16's depth-tested instances)
     */
    bool depth;
    /*
     * at AVX-512, the textured spans' weights in 512-bit vectors
     * (g3d_simd_textured_zmm; else the AVX-512VL instances of 256 bits)
     */
    bool wide;
} Variant;

static bool plain_cases, gouraud_cases, depth_cases;
/* the random choices added since the seeds below were named (run()) */
static GRand *extra;
/* triangles drawn with one w at their three vertices (run, lanes cases) */
static unsigned same_w_tris;

/* which quad function a case's draw took */
typedef enum Path {
    PATH_GENERAL, PATH_FAST, PATH_LANES, PATH_LANES_BLEND, PATH_N
} Path;

/*
 * A random RB3D_BLENDCNTL-style word: every factor code (the invalid ones
 * too), every function, a discard mode now and then.
 */
static uint32_t random_blend(GRand *r)
{
    return (uint32_t)g_rand_int_range(r, 0, 8) << R_RB3D_BLENDCNTL_COMB_FCN_SHIFT |
           (uint32_t)g_rand_int_range(r, 0, 48) << R_RB3D_BLENDCNTL_SRCBLEND_SHIFT |
           (uint32_t)g_rand_int_range(r, 0, 48) << R_RB3D_BLENDCNTL_DESTBLEND_SHIFT;
}

/*
 * A random state; `lanes` draws most cases from the states r300_quad_lanes
 * takes (a move into ARGB8888, Z24S8 or no Z test, no alpha test or fog),
 * with any blend.
 */
static void state(R300Cmd *c, GRand *r, bool lanes, bool *textured)
{
    static const uint32_t formats[] = {
        R300_COLOR_FORMAT_ARGB8888, R300_COLOR_FORMAT_ARGB8888,
        R300_COLOR_FORMAT_ARGB8888, R300_COLOR_FORMAT_RGB565,
    };
    uint32_t fmt = formats[g_rand_int_range(r, 0, lanes ? 3 : 4)];
    uint32_t pitch = W | fmt << R_RB3D_COLORPITCH_0_COLORFORMAT_SHIFT;
    static const uint32_t zformats[] = {
        R300_DEPTHFORMAT_24BIT_INT_Z_8BIT_STENCIL,
        R300_DEPTHFORMAT_24BIT_INT_Z_8BIT_STENCIL,
        R300_DEPTHFORMAT_16BIT_INT_Z, R300_DEPTHFORMAT_16BIT_13E3,
    };
    uint32_t zformat = zformats[g_rand_int_range(r, 0, lanes ? 2 : 4)];
    uint32_t out_fmt, zcntl = 0, rgb_inst = 0x40050A80u, alpha_inst = 0x40040889u;
    unsigned k;
    bool common;

    if (g_rand_int_range(r, 0, plain_cases ? 8 : 4) == 0) {
        pitch |= R_RB3D_COLORPITCH_0_COLORTILE_MASK;
    }
    if (g_rand_int_range(r, 0, plain_cases ? 8 : 4) == 0) {
        pitch |= 1u << R_RB3D_COLORPITCH_0_COLORMICROTILE_SHIFT;
    }
    r300_cmd_reg(c, R300_RB3D_COLORPITCH(0), pitch);
    r300_cmd_reg(c, A_RB3D_COLOR_CHANNEL_MASK,
                 g_rand_int_range(r, 0, plain_cases ? 8 : 3) ? 0xF
                 : g_rand_int_range(r, 0, 16));
    if (lanes && (plain_cases ? g_rand_int_range(r, 0, 12) == 0
                              : g_rand_int_range(r, 0, 3) != 0)) {
        /* any blend, alpha apart or not, any constant colour */
        r300_cmd_reg(c, A_RB3D_BLENDCNTL,
                     R_RB3D_BLENDCNTL_ALPHA_BLEND_ENABLE_MASK |
                     (g_rand_boolean(r)
                      ? R_RB3D_BLENDCNTL_SEPARATE_ALPHA_ENABLE_MASK : 0) |
                     (g_rand_int_range(r, 0, 4) ? 0 :
                      (uint32_t)g_rand_int_range(r, 0, 8)
                      << R_RB3D_BLENDCNTL_DISCARD_SRC_PIXELS_SHIFT) |
                     random_blend(r));
        r300_cmd_reg(c, A_RB3D_ABLENDCNTL, random_blend(r));
        r300_cmd_reg(c, A_RB3D_CONSTANT_COLOR, g_rand_int(r));
    } else if (g_rand_int_range(r, 0, 4) == 0) {
        r300_cmd_reg(c, A_RB3D_BLENDCNTL,
                     R_RB3D_BLENDCNTL_ALPHA_BLEND_ENABLE_MASK |
                     R300_COMB_ADD_CLAMP << R_RB3D_BLENDCNTL_COMB_FCN_SHIFT |
                     R300_BLEND_GL_SRC_ALPHA << R_RB3D_BLENDCNTL_SRCBLEND_SHIFT |
                     R300_BLEND_GL_ONE_MINUS_SRC_ALPHA <<
                     R_RB3D_BLENDCNTL_DESTBLEND_SHIFT);
    }
    if (g_rand_int_range(r, 0, lanes ? 32 : 8) == 0) {
        r300_cmd_reg(c, A_RB3D_ROPCNTL, R_RB3D_ROPCNTL_ROP_ENABLE_MASK |
                     (uint32_t)g_rand_int_range(r, 0, 16) << R_RB3D_ROPCNTL_ROP_SHIFT);
    }
    /* US_OUT_FMT C4_8 with a random component order, sometimes signed */
    out_fmt = g_rand_int_range(r, 0, lanes ? 6 : 3) ? 0x00001B00
              : (g_rand_int(r) & 0xFF00);
    if (g_rand_int_range(r, 0, 8) == 0) {
        out_fmt |= (g_rand_int(r) & 0xF) << R_US_OUT_FMT_0_OUT_SIGN_SHIFT;
    }
    r300_cmd_reg(c, A_US_OUT_FMT_0, out_fmt);
    if (g_rand_boolean(r)) {
        zcntl |= R_ZB_CNTL_Z_ENABLE_MASK;
    }
    if (g_rand_boolean(r)) {
        zcntl |= R_ZB_CNTL_ZWRITEENABLE_MASK;
    }
    if (g_rand_int_range(r, 0, lanes ? 16 : 4) == 0) {
        zcntl |= R_ZB_CNTL_STENCIL_ENABLE_MASK;
    }
    if (depth_cases) {
        zcntl |= R_ZB_CNTL_Z_ENABLE_MASK;
    }
    if (g_rand_int_range(r, 0, plain_cases ? 3 : 5) < (plain_cases ? 2 : 1) &&
        (!depth_cases || g_rand_int_range(r, 0, 4) == 0)) {
        zcntl = 0;
    }
    /* 13E3 also with INVERT */
    r300_cmd_reg(c, A_ZB_FORMAT, zformat | (zformat == R300_DEPTHFORMAT_16BIT_13E3
                                            && g_rand_boolean(r)
                                            ? R_ZB_FORMAT_INVERT_MASK : 0));
    /* colour and alpha: truncate or round */
    r300_cmd_reg(c, A_RB3D_DITHER_CTL, g_rand_int_range(r, 0, 2) |
                 g_rand_int_range(r, 0, 2) << 2);
    r300_cmd_reg(c, A_ZB_DEPTHOFFSET, zb_offset);
    /* any tiling now and then (the spans' depth in 4x2 micro tiles too) */
    r300_cmd_reg(c, A_ZB_DEPTHPITCH, W |
                 (g_rand_int_range(r, 0, depth_cases ? 8 : 4) ? 0 :
                  R_ZB_DEPTHPITCH_DEPTHMACROTILE_MASK) |
                 (g_rand_int_range(r, 0, depth_cases ? 8 : 4) ? 0 :
                  1u << R_ZB_DEPTHPITCH_DEPTHMICROTILE_SHIFT));
    r300_cmd_reg(c, A_ZB_CNTL, zcntl);
    /* ZFUNC, stencil functions and ops: every field random */
    r300_cmd_reg(c, A_ZB_ZSTENCILCNTL, g_rand_int(r));
    r300_cmd_reg(c, A_ZB_STENCILREFMASK, g_rand_int(r) & 0xFFFFFF);
    if (g_rand_int_range(r, 0, lanes ? 16 : 4) == 0) {
        r300_cmd_reg(c, A_FG_ALPHA_FUNC, R_FG_ALPHA_FUNC_AF_EN_MASK |
                     g_rand_int_range(r, 0, 8) << 8 |
                     g_rand_int_range(r, 0, 256));
    }
    /* fog from the window z: it sees the move's unclamped colours */
    r300_cmd_reg(c, A_GB_SELECT, (g_rand_boolean(r)
                                  ? R_GB_SELECT_W_SELECT_MASK : 0) | 5);
    if (g_rand_int_range(r, 0, lanes ? 16 : 3) == 0) {
        r300_cmd_reg(c, A_FG_FOG_BLEND, R_FG_FOG_BLEND_ENABLE_MASK |
                     g_rand_int_range(r, 0, 4) << R_FG_FOG_BLEND_FN_SHIFT);
        r300_cmd_regf(c, A_GA_FOG_SCALE, 1.0f / 16777215.0f);
        r300_cmd_reg(c, A_FG_FOG_FACTOR, g_rand_int_range(r, 0, 1024));
        for (k = 0; k < 3; k++) {
            r300_cmd_reg(c, A_FG_FOG_COLOR_R + 4 * k,
                         g_rand_int_range(r, 0, 1024));
        }
    }
    /* the move's clamps, or a move that scales by 2 (no longer a move) */
    if (g_rand_boolean(r)) {
        rgb_inst &= ~R_US_ALU_RGB_INST_0_CLAMP_MASK;
    }
    if (g_rand_boolean(r)) {
        alpha_inst &= ~R_US_ALU_ALPHA_INST_0_CLAMP_MASK;
    }
    if (g_rand_int_range(r, 0, lanes ? 16 : 5) == 0) {
        rgb_inst |= 1u << R_US_ALU_RGB_INST_0_OMOD_SHIFT;
    }
    r300_cmd_reg(c, A_US_ALU_RGB_INST_0, rgb_inst);
    r300_cmd_reg(c, A_US_ALU_ALPHA_INST_0, alpha_inst);

    *textured = gouraud_cases ? g_rand_int_range(r, 0, 4) == 0
                : plain_cases || g_rand_boolean(r);
    if (*textured) {
        /* PVS output 1 is texcoord 0 (no colour), routed to t1 */
        r300_cmd_reg(c, A_VAP_OUT_VTX_FMT_0,
                     R_VAP_OUT_VTX_FMT_0_VTX_POS_PRESENT_MASK);
        r300_cmd_reg(c, A_VAP_OUT_VTX_FMT_1, 4);
        r300_cmd_reg(c, A_RS_COUNT, 4 | R_RS_COUNT_HIRES_EN_MASK);
        r300_cmd_reg(c, A_RS_IP_0, 0u << 13 | 1u << 16 | 2u << 19 | 3u << 22);
        r300_cmd_reg(c, A_RS_INST_0, R_RS_INST_0_TEX_CN_MASK |
                     1u << R_RS_INST_0_TEX_ADDR_SHIFT);
        /* point or bilinear, wrap, mirror or clamp */
        r300_cmd_tex0_argb8888(c, TEX, TEX_ADDR,
                               (g_rand_boolean(r) ? 2u : 1u) << 9 |
                               (g_rand_boolean(r) ? 2u : 1u) << 11 |
                               g_rand_int_range(r, 0, 3) |
                               g_rand_int_range(r, 0, 3) << 3);
        if (lanes) {
            /* any size up to TEX (not powers of two too), any wrap mode
             * (the border ones too), projected now and then, any swizzle */
            unsigned sz = g_rand_int_range(r, 1, TEX + 1), ax;
            uint32_t f0 = (g_rand_boolean(r) ? 2u : 1u) << 9;
            f0 |= (g_rand_int_range(r, 0, 4) ? 2u : 1u) << 11;
            for (ax = 0; ax < 2; ax++) {    /* S, T: the border modes less */
                unsigned modes = g_rand_int_range(r, 0, 4) ? 4 : 8;
                f0 |= (uint32_t)g_rand_int_range(r, 0, modes) << (3 * ax);
            }
            r300_cmd_reg(c, R300_TX_FILTER0(0), f0);
            r300_cmd_reg(c, R300_TX_FORMAT0(0), (sz - 1) | (sz - 1) << 11 |
                         (g_rand_int_range(r, 0, 4) ? 0 :
                          R_TX_FORMAT0_0_PROJECTED_MASK));
            r300_cmd_reg(c, R300_TX_FORMAT2(0), sz - 1);
            if (g_rand_boolean(r)) {
                uint32_t f1 = 12;           /* ARGB8888 */
                unsigned ch;
                for (ch = 0; ch < 4; ch++) {  /* C0..C3, ZERO or ONE */
                    f1 |= (uint32_t)g_rand_int_range(r, 0, 6) << (9 + 3 * ch);
                }
                r300_cmd_reg(c, R300_TX_FORMAT1(0), f1);
            }
            /*
             * now and then the colour or depth buffer itself: its texels
             * are pixels the draw writes, so spans would read them in
             * another order than the quads (quad-lanes.c tex_overlaps)
             */
            if (g_rand_int_range(r, 0, 8) == 0) {
                r300_cmd_reg(c, R300_TX_OFFSET(0),
                             g_rand_boolean(r) ? CB_ADDR : ZB_ADDR);
            }
        }
        /*
         * now and then the common unit (quad-lanes.c
         * r300_lanes_tex_common): bilinear, REPEAT, a power-of-two size,
         * no projection or swizzle, the pitch now and then more than the
         * width; its choices from another stream, so that every other
         * case (and the seeds named below) stays as it was
         */
        common = lanes && g_rand_boolean(extra);
        if (common) {
            /* now and then all but one of its properties */
            unsigned sz = 1u << g_rand_int_range(extra, 0, 6);
            unsigned miss = g_rand_int_range(extra, 0, 12);

            if (miss == 2) {
                sz = sz == TEX ? sz - 1 : sz + 1;   /* not a power of two */
            }
            r300_cmd_reg(c, R300_TX_FILTER0(0), (miss == 3 ? 1u : 2u) << 9 |
                         (miss == 3 ? 1u : 2u) << 11 |
                         (miss == 4 ? g_rand_int_range(extra, 1, 4) : 0) |
                         (miss == 5 ? g_rand_int_range(extra, 1, 4) << 3 : 0));
            r300_cmd_reg(c, R300_TX_FORMAT0(0), (sz - 1) | (sz - 1) << 11 |
                         (miss == 0 ? R_TX_FORMAT0_0_PROJECTED_MASK : 0));
            /* ARGB8888 with r300_cmd_tex0_argb8888's swizzle */
            r300_cmd_reg(c, R300_TX_FORMAT1(0),
                         12 | 3u << 9 | 2u << 12 | 1u << 15 |
                         (miss == 6 ? 5u << 18 : 0));    /* A: ONE */
            r300_cmd_reg(c, R300_TX_FORMAT2(0), sz - 1 +
                         (g_rand_int_range(extra, 0, 4) ? 0
                          : g_rand_int_range(extra, 0, TEX - sz + 1)));
            common = miss != 1;     /* else TEX_PROJ as it comes */
        }
        /* node 3: TEX (LD or PROJ) t<dst> <- tex0(t1), then out = t<src> */
        /* move the coordinate t1, t0 (nothing routed: 0) or the fetch t2 */
        k = g_rand_int_range(r, 0, 3);
        if (lanes && g_rand_boolean(r)) {
            k = 2;
        }
        r300_cmd_reg(c, A_US_CONFIG, R_US_CONFIG_FIRST_TEX_MASK);
        r300_cmd_reg(c, A_US_PIXSIZE, 2);
        r300_cmd_reg(c, R300_US_CODE_ADDR(3), R_US_CODE_ADDR_0_RGBA_OUT_MASK);
        r300_cmd_reg(c, R300_US_TEX_INST(0),
                     1u | 2u << 6 | 0u << 11 |
                     (g_rand_boolean(r) || common ? R300_US_TEX_LD
                                                  : R300_US_TEX_PROJ) << 15);
        r300_cmd_reg(c, A_US_ALU_RGB_ADDR_0,
                     0x1C000000u | (k == 0 ? 1 : k == 1 ? 0 : 2));
        r300_cmd_reg(c, A_US_ALU_ALPHA_ADDR_0,
                     0x01000000u | (k == 0 ? 1 : k == 1 ? 0 : 2));
    }
}

/*
 * A random state for one-colour triangles: ARGB8888 in any tiling, any
 * channel mask and component order, rounding or truncating, blending now
 * and then; no depth test, Z ALWAYS written or not, or another function;
 * the move's clamps; perspective or not.
 */
static void state_flat(R300Cmd *c, GRand *r)
{
    uint32_t pitch = W | R300_COLOR_FORMAT_ARGB8888
                         << R_RB3D_COLORPITCH_0_COLORFORMAT_SHIFT;
    uint32_t rgb_inst = 0x40050A80u, alpha_inst = 0x40040889u;
    static const uint32_t zcntl[] = {
        0, R_ZB_CNTL_Z_ENABLE_MASK,
        R_ZB_CNTL_Z_ENABLE_MASK | R_ZB_CNTL_ZWRITEENABLE_MASK,
        R_ZB_CNTL_Z_ENABLE_MASK | R_ZB_CNTL_ZWRITEENABLE_MASK,
    };

    if (g_rand_boolean(r)) {
        pitch |= R_RB3D_COLORPITCH_0_COLORTILE_MASK;
    }
    if (g_rand_boolean(r)) {
        pitch |= 1u << R_RB3D_COLORPITCH_0_COLORMICROTILE_SHIFT;
    }
    r300_cmd_reg(c, R300_RB3D_COLORPITCH(0), pitch);
    r300_cmd_reg(c, A_RB3D_COLOR_CHANNEL_MASK,
                 g_rand_int_range(r, 0, plain_cases ? 8 : 3) ? 0xF
                 : g_rand_int_range(r, 0, 16));
    if (g_rand_int_range(r, 0, 8) == 0) {
        r300_cmd_reg(c, A_RB3D_BLENDCNTL,
                     R_RB3D_BLENDCNTL_ALPHA_BLEND_ENABLE_MASK |
                     random_blend(r));
    }
    r300_cmd_reg(c, A_US_OUT_FMT_0, g_rand_int_range(r, 0, 3) ? 0x00001B00
                                    : (g_rand_int(r) & 0xFF00));
    r300_cmd_reg(c, A_RB3D_DITHER_CTL, g_rand_int_range(r, 0, 8) ? 5 :
                 g_rand_int_range(r, 0, 2) | g_rand_int_range(r, 0, 2) << 2);
    r300_cmd_reg(c, A_ZB_FORMAT, R300_DEPTHFORMAT_24BIT_INT_Z_8BIT_STENCIL);
    r300_cmd_reg(c, A_ZB_DEPTHOFFSET, zb_offset);
    r300_cmd_reg(c, A_ZB_DEPTHPITCH, W |
                 (g_rand_boolean(r) ? R_ZB_DEPTHPITCH_DEPTHMACROTILE_MASK : 0) |
                 (g_rand_boolean(r)
                  ? 1u << R_ZB_DEPTHPITCH_DEPTHMICROTILE_SHIFT : 0));
    r300_cmd_reg(c, A_ZB_CNTL, zcntl[g_rand_int_range(r, 0, 4)]);
    r300_cmd_reg(c, A_ZB_ZSTENCILCNTL, g_rand_int_range(r, 0, 4)
                 ? R300_ZS_ALWAYS : (g_rand_int(r) & 7));
    r300_cmd_reg(c, A_GB_SELECT, (g_rand_boolean(r)
                                  ? R_GB_SELECT_W_SELECT_MASK : 0) | 5);
    if (g_rand_boolean(r)) {
        rgb_inst &= ~R_US_ALU_RGB_INST_0_CLAMP_MASK;
    }
    if (g_rand_boolean(r)) {
        alpha_inst &= ~R_US_ALU_ALPHA_INST_0_CLAMP_MASK;
    }
    r300_cmd_reg(c, A_US_ALU_RGB_INST_0, rgb_inst);
    r300_cmd_reg(c, A_US_ALU_ALPHA_INST_0, alpha_inst);
}

/*
 * A colour component for a one-colour triangle: an 8-bit value, a rounding
 * tie, 0, -0, 1, out of [0, 1], or any value.
 */
static float flat_component(GRand *r)
{
    switch (g_rand_int_range(r, 0, 8)) {
    case 0: case 1: case 2: return g_rand_int_range(r, 0, 256) / 255.0f;
    case 3: return (g_rand_int_range(r, 0, 255) + 0.5f) / 255.0f;
    case 4: return g_rand_boolean(r) ? -0.0f : 0.0f;
    case 5: return g_rand_boolean(r) ? 1.0f : 1.5f;
    case 6: return -(float)g_rand_double_range(r, 0, 2);
    default: return (float)g_rand_double_range(r, -0.2, 1.2);
    }
}

/*
 * Triangles of one colour (now and then not), large or the whole target,
 * at one depth (now and then not), with one w at the three vertices or
 * not.
 */
static void draw_flat(R300Cmd *c, GRand *r)
{
    unsigned i, k, n;

    for (i = 0; i < 6; i++) {
        float v[6 * 8], col[4], z = (float)g_rand_double_range(r, -0.2, 1.0);
        float w = g_rand_boolean(r) ? 1.0f
                  : (float)g_rand_double_range(r, 0.5, 2.0);
        bool whole = g_rand_int_range(r, 0, 4) == 0;

        if (g_rand_int_range(r, 0, 8) == 0) {
            w = 0x1p42f;        /* 1/w below what fills and spans assume */
        }

        for (k = 0; k < 4; k++) {
            col[k] = flat_component(r);
        }
        n = whole ? 6 : 3;
        for (k = 0; k < n; k++) {
            static const float corner[6][2] = {
                { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, -1 }, { 1, 1 }, { -1, 1 },
            };
            float *p = &v[8 * k];
            unsigned ch;

            if (g_rand_int_range(r, 0, 8) == 0) {
                w = (float)g_rand_double_range(r, 0.5, 2.0);
            }
            if (whole) {
                p[0] = corner[k][0] * w;
                p[1] = corner[k][1] * w;
            } else {
                p[0] = (float)g_rand_double_range(r, -1.5, 1.5) * w;
                p[1] = (float)g_rand_double_range(r, -1.5, 1.5) * w;
            }
            p[2] = (g_rand_int_range(r, 0, 6) ? z
                    : (float)g_rand_double_range(r, -0.2, 1.0)) * w;
            p[3] = w;
            for (ch = 0; ch < 4; ch++) {
                p[4 + ch] = g_rand_int_range(r, 0, 12) ? col[ch]
                            : flat_component(r);
            }
        }
        r300_cmd_draw(c, R300_PRIM_TRIANGLES, v, n);
    }
}

/*
 * Draw the case's triangles with the path chosen or the general one;
 * *plain: the draw's spans write their colour plainly (quad-lanes.c
 * r300_lanes_fill_choose: no depth test, one linear target without channel
 * mask, blend or pre-quantise); *wide: its spans may take sixteen pixels a
 * group (r300_lanes_span16), with *wide_depth a depth test
 */
static void run(R300Rig *d, uint32_t seed, const Variant *var, bool general,
                uint8_t *cb, uint8_t *zb, Path *path, bool *tex_lanes,
                bool *plain, bool *wide, bool *wide_depth, bool *tex_common,
                bool *neg_w)
{
    bool lanes = var->lanes;
    R300Surface cbs = { CB_ADDR, W, R300_COLOR_FORMAT_ARGB8888 };
    R300Surface zbs = { 0, 0, 0 };
    GRand *r = g_rand_new_with_seed(seed);
    R300Cmd c;
    bool textured, unclipped = false;

    extra = g_rand_new_with_seed(seed ^ 0xe7a20000u);
    unsigned i, k;

    /* the same random starting picture, depth and texture every time */
    for (i = 0; i < SURF_BYTES; i++) {
        d->vram[CB_ADDR + i] = g_rand_int(r);
        d->vram[ZB_ADDR + i] = g_rand_int(r);
    }
    for (i = 0; i < TEX * TEX * 4; i++) {
        d->vram[TEX_ADDR + i] = g_rand_int(r);
    }
    r300_rig_cmd_begin(&c, cmdbuf, G_N_ELEMENTS(cmdbuf));
    r300_cmd_pipeline(&c, &cbs, &zbs, W, H);
    r300_cmd_matrix(&c, (const float[16]){ 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                                           0, 0, 0, 1 });
    if (var->flat) {
        state_flat(&c, r);
        draw_flat(&c, r);
    } else {
        state(&c, r, lanes, &textured);
        /*
         * now and then no clipping, so that vertices with w < 0 (and
         * 1/w below 2^-40) reach the rasteriser: triangles with a
         * 1/w <= 0 (the spans' `persp` 1 instances)
         */
        unclipped = lanes && g_rand_int_range(extra, 0, 4) == 0;
        if (unclipped) {
            r300_cmd_reg(&c, A_VAP_CLIP_CNTL,
                         R_VAP_CLIP_CNTL_CLIP_DISABLE_MASK);
        }
    }
    *neg_w = false;
    for (i = 0; i < (var->flat ? 0 : 6); i++) {
        /*
         * spans: a third of the triangles with one w at the three
         * vertices, mostly a power of two (g3d_inv_w_unit: the weights'
         * unit 1/w instances; 1.5 is not), others with w 1 or not at
         * each vertex
         */
        static const float same_w[5] = { 1.0f, 0.5f, 2.0f, 0.25f, 1.5f };
        float v[3 * 8], tw = lanes && g_rand_int_range(extra, 0, 3) == 0
                             ? same_w[g_rand_int_range(extra, 0, 5)] : 0.0f;

        same_w_tris += tw != 0.0f && !general;
        for (k = 0; k < 3; k++) {
            /* drawn from r as before tw was, so the named seeds hold */
            float w = g_rand_boolean(r) ? 1.0f
                      : (float)g_rand_double_range(r, 0.5, 2.0);

            w = tw != 0.0f ? tw : w;
            if (unclipped && g_rand_int_range(extra, 0, 3) == 0) {
                w = g_rand_int_range(extra, 0, 4) ? -w : 0x1p42f;
                *neg_w = true;
            }
            float *p = &v[8 * k];
            p[0] = (float)g_rand_double_range(r, -1.2, 1.2) * w;
            p[1] = (float)g_rand_double_range(r, -1.2, 1.2) * w;
            p[2] = (float)g_rand_double_range(r, -0.2, 1.0) * w;
            p[3] = w;
            /* colours (texcoords when textured) a little outside [0, 1] */
            p[4] = (float)g_rand_double_range(r, -0.2, 1.2);
            p[5] = (float)g_rand_double_range(r, -0.2, 1.2);
            p[6] = (float)g_rand_double_range(r, -0.2, 1.2);
            p[7] = (float)g_rand_double_range(r, -0.2, 1.2);
        }
        r300_cmd_draw(&c, R300_PRIM_TRIANGLES, v, 3);
        if (lanes && g_rand_boolean(r)) {
            /* again, meeting its own depth: EQUAL, LEQUAL, GEQUAL differ */
            r300_cmd_draw(&c, R300_PRIM_TRIANGLES, v, 3);
        }
    }
    r300_cmd_finish(&c);
    g_assert_false(c.overflow);
    g_rand_free(r);
    g_rand_free(extra);

    g3d_general_path = general;
    /* exactly that level, the textured spans too (whatever the CPU) */
    g3d_simd_max = general ? G3D_SIMD_SSE2 : var->simd;
    g3d_simd_textured_max = (int)var->simd;
    g3d_simd_textured_zmm = var->wide;
    r300_rig_ring_run(d, cmdbuf, c.n);
    g3d_general_path = false;
    g3d_simd_max = G3D_SIMD_AVX512;
    g3d_simd_textured_max = -1;
    g3d_simd_textured_zmm = -1;
    *path = d->core->draw->shade == r300_quad ? PATH_GENERAL : PATH_FAST;
    *tex_lanes = *plain = *wide = *wide_depth = *tex_common = false;
#ifdef __SSE2__
    if (d->core->draw->shade == r300_quad_lanes) {
        const R300DrawState *ds = d->core->draw;

        *path = ds->lanes.blend ? PATH_LANES_BLEND : PATH_LANES;
        *tex_lanes = ds->lanes.tex_lanes &&
                     ds->move.tex_op.dst == ds->move.src;
        *plain = ds->lanes.span && !ds->depth && ds->lanes.colour &&
                 !ds->lanes.read && !ds->lanes.prequantise &&
                 ds->cb[ds->move.target].tiling.linear;
        *wide = r300_lanes_span16(ds);
        *wide_depth = *wide && ds->depth;
        /* span_tex8's instances of the common unit (depth or plain) */
        *tex_common = *tex_lanes && r300_lanes_tex_common(ds) &&
                      !ds->lanes.blend && ds->lanes.span && ds->lanes.colour;
        *neg_w = *neg_w && *tex_lanes && ds->perspective;
    }
#endif
    memcpy(cb, d->vram + CB_ADDR, SURF_BYTES);
    memcpy(zb, d->vram + ZB_ADDR, SURF_BYTES);
}

/* the CPU runs quad-lanes.c span16 where the level is AVX-512 */
static bool span16_cpu(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    return __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("popcnt");
#else
    return false;
#endif
}

static void test_fast_equals_general(gconstpointer data)
{
    const Variant *v = data;
    R300Rig *d = r300_rig_new(v->threads, VRAM_SIZE, RING_BUFSZ);
    uint8_t *cb[2], *zb[2];
    unsigned n, errors, taken[PATH_N] = { 0 }, lanes, tex_lanes = 0;
    unsigned plain = 0, wide = 0, wide_depth = 0, tex_common = 0, neg_w = 0;
    const unsigned cases = 300;
    G3DRasterStats st0, st1;
    unsigned filled = 0;

    for (n = 0; n < 2; n++) {
        cb[n] = g_malloc(SURF_BYTES);
        zb[n] = g_malloc(SURF_BYTES);
    }
    r300_rig_ring_init(d);
    plain_cases = v->plain;
    gouraud_cases = v->gouraud;
    depth_cases = v->depth;
    errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    for (n = 0; n < cases; n++) {
        uint32_t seed = (v->flat ? 0xf1a70000u :
                         v->depth ? 0xde970000u :
                         v->gouraud ? 0x60a10000u :
                         v->plain ? 0x91a10000u :
                         v->lanes ? 0x1a4e0000u
                         : 0x5eed0000u) + n;
        Path fp, gp;
        bool ft, gt, fplain, gplain, fwide, gwide, fwide_depth, gwide_depth;
        bool fcommon, gcommon, fneg, gneg;

        uint32_t zpass[3];

        zpass[0] = d->core->zpass[0];
        g3d_raster_stats(d->core->raster, &st0);
        run(d, seed, v, false, cb[0], zb[0], &fp, &ft, &fplain, &fwide,
            &fwide_depth, &fcommon, &fneg);
        g3d_raster_stats(d->core->raster, &st1);
        filled += st1.filled != st0.filled;
        zpass[1] = d->core->zpass[0];
        run(d, seed, v, true, cb[1], zb[1], &gp, &gt, &gplain, &gwide,
            &gwide_depth, &gcommon, &gneg);
        zpass[2] = d->core->zpass[0];
        /* the samples that passed Z (occlusion queries) */
        g_assert_cmpuint(zpass[1] - zpass[0], ==, zpass[2] - zpass[1]);
        g_assert_cmpint(gp, ==, PATH_GENERAL);
        if (memcmp(cb[0], cb[1], SURF_BYTES) ||
            memcmp(zb[0], zb[1], SURF_BYTES)) {
            g_error("seed %#x: the fast path's bytes differ from the general "
                    "path's (colour %s, depth %s)", seed,
                    memcmp(cb[0], cb[1], SURF_BYTES) ? "differs" : "same",
                    memcmp(zb[0], zb[1], SURF_BYTES) ? "differs" : "same");
        }
        taken[fp]++;
        tex_lanes += ft;
        plain += fplain;
        wide += fwide;
        wide_depth += fwide_depth;
        tex_common += fcommon;
        neg_w += fneg;
    }
    /* the draws were well-formed, and each kind of quad function ran */
    lanes = taken[PATH_LANES] + taken[PATH_LANES_BLEND];
    g_test_message("general %u, fast %u, lanes %u (blended %u, lanes "
                   "sampler %u, common unit %u, a 1/w <= 0 %u, plain colour "
                   "write %u, span16 states %u, with depth %u, fills %u; "
                   "triangles of one w at its three vertices %u)",
                   taken[PATH_GENERAL], taken[PATH_FAST], lanes,
                   taken[PATH_LANES_BLEND], tex_lanes, tex_common, neg_w,
                   plain, wide, wide_depth, filled, same_w_tris);
    same_w_tris = 0;
    g3d_simd_max = v->simd;
    g3d_simd_textured_max = (int)v->simd;
    g3d_simd_textured_zmm = v->wide;
    g_test_message("spans: %s, textured %s", (const char *[]){
                       "SSE2", "AVX", "AVX2, 8 pixels",
                       span16_cpu() ? "AVX-512, 8 pixels, 16 where linear"
                                    : "AVX-512, 8 pixels" }[g3d_simd_level()],
                   g3d_simd_level_textured() < G3D_SIMD_AVX512 ?
                   (const char *[]){ "SSE2", "AVX", "AVX2" }
                   [g3d_simd_level_textured()] :
                   g3d_simd_textured_wide() ? "AVX-512, 512-bit weights"
                   : "AVX-512VL, 256 bits");
    g3d_simd_max = G3D_SIMD_AVX512;
    g3d_simd_textured_max = -1;
    g3d_simd_textured_zmm = -1;
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errors);
    g_assert_cmpuint(taken[PATH_FAST] + lanes, >=, cases / 4);
    if (v->flat) {
#ifdef __SSE2__
        g_assert_cmpuint(filled, >=, cases / 4);
#endif
        goto done;
    }
    g_assert_cmpuint(taken[PATH_GENERAL], >=, v->lanes ? cases / 32 : cases / 8);
#ifdef __SSE2__
    g_assert_cmpuint(lanes, >=, v->lanes ? cases / 2 : cases / 20);
    g_assert_cmpuint(taken[PATH_LANES_BLEND], >=,
                     v->lanes && !v->plain ? cases / 4 : 1);
    g_assert_cmpuint(tex_lanes, >=,
                     v->lanes && !v->gouraud ? cases / 16 : 1);
    g_assert_cmpuint(plain, >=, v->plain && !v->depth ? cases / 10 : 0);
    g_assert_cmpuint(wide_depth, >=, v->depth ? cases / 10 : 0);
    /* the common unit's instances and the textured 1/w <= 0 ones ran */
    g_assert_cmpuint(tex_common, >=, v->lanes && !v->gouraud ? 2 : 0);
    g_assert_cmpuint(neg_w, >=, v->lanes && !v->gouraud ? 2 : 0);
#endif
done:
    plain_cases = gouraud_cases = depth_cases = false;
    for (n = 0; n < 2; n++) {
        g_free(cb[n]);
        g_free(zb[n]);
    }
    r300_rig_free(d);
}

/*
 * A draw whose texture shares bytes with its own colour target (seed
 * 0x60a1002c of the Gouraud cases: its random texture registers reach into
 * the colour buffer): a texel may be a pixel the draw writes, so the image
 * depends on the order in which the tiles are drawn. Such a draw's batches
 * run on one thread (g3d_raster_serial), so at 2 and 3 threads the fast and
 * the general path give the one-thread image on every run. Without that, 2
 * threads gave two different images in 40 runs of either path.
 */
static void test_tex_feedback_threads(void)
{
    const uint32_t seed = 0x60a1002cu;
    uint8_t *ref = g_malloc(SURF_BYTES), *cb = g_malloc(SURF_BYTES);
    uint8_t *zb = g_malloc(SURF_BYTES);
    int threads, rep, general;

    plain_cases = gouraud_cases = true;
    for (threads = 1; threads <= 3; threads++) {
        const Variant v = { threads, true, false, G3D_SIMD_AVX512, true, true };
        R300Rig *d = r300_rig_new(threads, VRAM_SIZE, RING_BUFSZ);

        r300_rig_ring_init(d);
        for (rep = 0; rep < (threads == 1 ? 1 : 20); rep++) {
            for (general = 0; general < 2; general++) {
                Path path;
                bool tex, plain, wide, wide_depth, common, neg_w;

                run(d, seed, &v, general, threads == 1 && !rep && !general
                    ? ref : cb, zb, &path, &tex, &plain, &wide, &wide_depth,
                    &common, &neg_w);
                /* the case still samples its own target */
                g_assert_true(d->core->draw->serial_tiles);
                if (threads > 1 || rep || general) {
                    g_assert_true(memcmp(ref, cb, SURF_BYTES) == 0);
                }
            }
        }
        r300_rig_free(d);
    }
    plain_cases = gouraud_cases = false;
    g_free(ref);
    g_free(cb);
    g_free(zb);
}

/*
 * Random states whose depth buffer starts eight rows and four pixels into
 * the colour buffer: a pixel's depth is another pixel's colour, perhaps in
 * a tile another render thread draws, so the image depends on the order of
 * the tiles; such a draw (as one whose colour and depth buffers have the
 * same base but another tiling) runs its batches on one thread. Every seed
 * whose last draw maps a depth buffer is drawn at one thread, then at two and three
 * threads five times each, fast and general: the colour buffer must be the
 * one-thread image. It failed without the one-thread batches (and with such
 * draws queued together: a batch of draws is drawn tile by tile), and with
 * such a draw given the fast paths (whose spans and lanes read and write in
 * another order than the general quads).
 */
static void test_buffer_overlap_threads(void)
{
    uint8_t *ref = g_malloc(SURF_BYTES), *cb = g_malloc(SURF_BYTES);
    uint8_t *zb = g_malloc(SURF_BYTES);
    uint32_t overlapping = 0;
    int i, threads, rep, general;

    plain_cases = gouraud_cases = true;
    zb_offset = CB_ADDR + 8 * W * 4 + 16;
    for (i = 0; i < 96; i++) {
        uint32_t seed = 0x60a30000u + i;

        /* a fresh core for every run: the registers a state leaves alone
         * are the same each time */
        for (threads = 1; threads <= 3; threads++) {
            const Variant v = { threads, true, false, G3D_SIMD_AVX512, true,
                                true };

            for (rep = 0; rep < (threads == 1 ? 1 : 5); rep++) {
                for (general = 0; general < (threads == 1 ? 1 : 2);
                     general++) {
                    R300Rig *d = r300_rig_new(threads, VRAM_SIZE, RING_BUFSZ);
                    Path path;
                    bool tex, plain, serial, wide, wide_depth, common, neg_w;

                    r300_rig_ring_init(d);
                    run(d, seed, &v, general, threads == 1 ? ref : cb, zb,
                        &path, &tex, &plain, &wide, &wide_depth, &common,
                        &neg_w);
                    serial = d->core->draw->serial_tiles;
                    r300_rig_free(d);
                    if (threads == 1) {
                        overlapping += serial;
                        if (!serial) {
                            goto next;      /* no depth buffer mapped */
                        }
                        continue;
                    }
                    g_assert_true(serial);
                    if (memcmp(ref, cb, SURF_BYTES)) {
                        g_error("seed %#x, %d threads, run %d, %s path: not "
                                "the one-thread image", seed, threads, rep,
                                general ? "general" : "chosen");
                    }
                }
            }
        }
next:;
    }
    g_test_message("%u of 96 states draw depth over their colour buffer",
                   overlapping);
    g_assert_cmpuint(overlapping, >=, 8);
    zb_offset = ZB_ADDR;
    plain_cases = gouraud_cases = false;
    g_free(ref);
    g_free(cb);
    g_free(zb);
}

int main(int argc, char **argv)
{
    static const Variant v[] = {
        { 1, false, false, G3D_SIMD_AVX512 },
        { 2, false, false, G3D_SIMD_AVX512 },
        { 1, true, false, G3D_SIMD_AVX512 }, { 2, true, false, G3D_SIMD_AVX512 },
        { 1, true, true, G3D_SIMD_AVX512 }, { 2, true, true, G3D_SIMD_AVX512 },
        { 1, true, false, G3D_SIMD_SSE2 }, { 2, true, false, G3D_SIMD_SSE2 },
        { 1, true, false, G3D_SIMD_AVX }, { 2, true, false, G3D_SIMD_AVX },
        { 1, true, false, G3D_SIMD_AVX2 }, { 2, true, false, G3D_SIMD_AVX2 },
        { 1, true, false, G3D_SIMD_AVX512, true },
        { 1, true, false, G3D_SIMD_AVX512, true, true },
        { 1, true, false, G3D_SIMD_AVX2, true, true },
        { 1, true, false, G3D_SIMD_AVX2, true },
        { 2, true, false, G3D_SIMD_AVX512, true, true },
        { 1, true, false, G3D_SIMD_AVX512, true, true, true },
        { 2, true, false, G3D_SIMD_AVX512, true, true, true },
        { 1, true, false, G3D_SIMD_AVX2, true, true, true },
        { 1, true, false, G3D_SIMD_AVX512, false, false, false, true },
        { 1, true, false, G3D_SIMD_AVX512, true, false, false, true },
    };

    g_test_init(&argc, &argv, NULL);
    g_test_add_data_func("/r300/fast-path/equals-general/1-thread", &v[0],
                         test_fast_equals_general);
    g_test_add_data_func("/r300/fast-path/equals-general/2-threads", &v[1],
                         test_fast_equals_general);
    g_test_add_data_func("/r300/fast-path/lanes-equal-general/1-thread", &v[2],
                         test_fast_equals_general);
    g_test_add_data_func("/r300/fast-path/lanes-equal-general/2-threads",
                         &v[3], test_fast_equals_general);
    g_test_add_data_func("/r300/fast-path/flat-fill-equals-general/1-thread",
                         &v[4], test_fast_equals_general);
    g_test_add_data_func("/r300/fast-path/flat-fill-equals-general/2-threads",
                         &v[5], test_fast_equals_general);
    g_test_add_data_func("/r300/fast-path/lanes-equal-general-sse2/1-thread",
                         &v[6], test_fast_equals_general);
    g_test_add_data_func("/r300/fast-path/lanes-equal-general-sse2/2-threads",
                         &v[7], test_fast_equals_general);
    g_test_add_data_func("/r300/fast-path/lanes-equal-general-avx/1-thread",
                         &v[8], test_fast_equals_general);
    g_test_add_data_func("/r300/fast-path/lanes-equal-general-avx/2-threads",
                         &v[9], test_fast_equals_general);
    g_test_add_data_func("/r300/fast-path/lanes-equal-general-avx2/1-thread",
                         &v[10], test_fast_equals_general);
    g_test_add_data_func("/r300/fast-path/lanes-equal-general-avx2/2-threads",
                         &v[11], test_fast_equals_general);
    g_test_add_data_func("/r300/fast-path/lanes-plain-textured/1-thread",
                         &v[12], test_fast_equals_general);
    g_test_add_data_func("/r300/fast-path/lanes-plain-gouraud/1-thread",
                         &v[13], test_fast_equals_general);
    g_test_add_data_func("/r300/fast-path/lanes-plain-gouraud/2-threads",
                         &v[16], test_fast_equals_general);
    g_test_add_data_func("/r300/fast-path/lanes-plain-gouraud-avx2/1-thread",
                         &v[14], test_fast_equals_general);
    g_test_add_data_func("/r300/fast-path/lanes-plain-textured-avx2/1-thread",
                         &v[15], test_fast_equals_general);
    g_test_add_data_func("/r300/fast-path/lanes-depth-gouraud/1-thread",
                         &v[17], test_fast_equals_general);
    g_test_add_data_func("/r300/fast-path/lanes-depth-gouraud/2-threads",
                         &v[18], test_fast_equals_general);
    g_test_add_data_func("/r300/fast-path/lanes-depth-gouraud-avx2/1-thread",
                         &v[19], test_fast_equals_general);
    g_test_add_data_func("/r300/fast-path/lanes-equal-general-wide/1-thread",
                         &v[20], test_fast_equals_general);
    g_test_add_data_func("/r300/fast-path/lanes-plain-textured-wide/1-thread",
                         &v[21], test_fast_equals_general);
    g_test_add_func("/r300/fast-path/texture-feedback/threads",
                    test_tex_feedback_threads);
    g_test_add_func("/r300/fast-path/buffer-overlap/threads",
                    test_buffer_overlap_threads);
    return g_test_run();
}
