/*
 * Building PICA200 command lists and BAR0 register sequences the way a 3DS
 * program does (citro3d/libctru order): commands, float24/31
 * encoders, shader upload, viewport, render target, combiners and fragment
 * operations, attribute buffers, draw calls, FINALIZE; and the external
 * register writes that kick a list, fill memory, transfer a picture and set
 * up an LCD. Header-only and freestanding, so the guest demo, the qtests and
 * the core's unit tests all drive the chip the same way.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_PICA200_CMD_H
#define GPU3D_PICA200_CMD_H

#include <stdint.h>

#include "gpu3d/pica200-regs.h"

/* ---- the list ------------------------------------------------------------ */

typedef struct PicaCmd PicaCmd;
struct PicaCmd {
    uint32_t *buf;
    uint32_t n, cap;            /* words used / available */
    int overflow;               /* a word did not fit */
    /* optional: make room (enlarge buf/cap); returns 0 when it cannot */
    int (*grow)(PicaCmd *c);
};

static inline void pica_cmd_word(PicaCmd *c, uint32_t v)
{
    if (c->n == c->cap && !(c->grow && c->grow(c) && c->n < c->cap)) {
        c->overflow = 1;
        return;
    }
    c->buf[c->n++] = v;
}

/* one command: n >= 1 parameters to id (consecutive: id, id+1, ...) */
static inline void pica_cmd(PicaCmd *c, uint32_t id, uint32_t mask,
                            int consecutive, const uint32_t *p, unsigned n)
{
    unsigned i;

    pica_cmd_word(c, p[0]);
    pica_cmd_word(c, PICA_CMD_HEADER(id, mask, n - 1, consecutive));
    for (i = 1; i < n; i++) {
        pica_cmd_word(c, p[i]);
    }
    if (c->n & 1) {
        pica_cmd_word(c, 0);            /* pad to 8 bytes */
    }
}

static inline void pica_cmd_reg(PicaCmd *c, uint32_t id, uint32_t v)
{
    pica_cmd(c, id, 0xF, 0, &v, 1);
}

static inline void pica_cmd_regm(PicaCmd *c, uint32_t id, uint32_t mask,
                                 uint32_t v)
{
    pica_cmd(c, id, mask, 0, &v, 1);
}

/*
 * FINALIZE with the value the GSP compares (IRQ_CMP0), repeated until the
 * list is a multiple of 16 bytes (libctru GPUCMD_Finalize).
 */
#define PICA_FINALIZE_VALUE 0x12345678u
static inline void pica_cmd_finalize(PicaCmd *c)
{
    pica_cmd_reg(c, GPUREG_FINALIZE, PICA_FINALIZE_VALUE);
    if (c->n & 3) {
        pica_cmd_reg(c, GPUREG_FINALIZE, PICA_FINALIZE_VALUE);
    }
}

/* ---- numbers (Citra pica_types.h) ---------------------------------------- */

static inline uint32_t pica_f2u(float f)
{
    union { float f; uint32_t u; } x = { f };
    return x.u;
}

/* float -> float1.7.16 as citro3d's f32tof24: exponent - 64, mantissa truncated */
static inline uint32_t pica_to_f24(float f)
{
    uint32_t u = pica_f2u(f), s = u >> 31, e = (u >> 23) & 0xFF;
    uint32_t m = (u & 0x7FFFFF) >> 7;

    if (!(u & 0x7FFFFFFF) || e < 64) {
        return s << 23;
    }
    if (e - 64 >= 0x7F) {
        return s << 23 | 0x7F0000;
    }
    return s << 23 | (e - 64) << 16 | m;
}

/* float -> float1.5.10 (light vectors), mantissa rounded; normal values */
static inline uint32_t pica_to_f16(float f)
{
    uint32_t u = pica_f2u(f), s = u >> 31, e = (u >> 23) & 0xFF;
    uint32_t m = ((u & 0x7FFFFF) + (1u << 12)) >> 13;

    if (!(u & 0x7FFFFFFF) || e < 127 - 14) {
        return s << 15;
    }
    if (m == 1024) {
        m = 0;
        e++;
    }
    return s << 15 | (e - 127 + 15) << 10 | m;
}

/*
 * Byte offset of pixel (x, memory row) in an 8x8-tiled surface `w` pixels
 * wide, `bpp` bytes a pixel: tiles row by row, Morton order inside
 * (3dbrew GPU/Internal Registers 0x080-0x0B7).
 */
static inline uint32_t pica_tiled_offset(unsigned x, unsigned row, unsigned w,
                                         unsigned bpp)
{
    unsigned m = 0, i;

    for (i = 0; i < 3; i++) {
        m |= ((x >> i) & 1) << (2 * i) | ((row >> i) & 1) << (2 * i + 1);
    }
    return ((uint32_t)((row / 8) * (w / 8) + x / 8) * 64 + m) * bpp;
}

/* float -> float1.7.23 placed in b1-31 (VIEWPORT_INVW/INVH) */
static inline uint32_t pica_to_f31(float f)
{
    uint32_t u = pica_f2u(f), s = u >> 31, e = (u >> 23) & 0xFF;
    uint32_t m = u & 0x7FFFFF;

    if (!(u & 0x7FFFFFFF) || e < 64) {
        return s << 31;
    }
    return (s << 30 | (e - 64) << 23 | m) << 1;
}

/* four float24 in three words: W in the top of the first (Citra
 * pica_types.h) */
static inline void pica_pack_f24x4(const float v[4], uint32_t w[3])
{
    uint32_t x = pica_to_f24(v[0]), y = pica_to_f24(v[1]), z = pica_to_f24(v[2]),
             ww = pica_to_f24(v[3]);

    w[0] = ww << 8 | z >> 16;
    w[1] = z << 16 | y >> 8;
    w[2] = y << 24 | x;
}

/* ---- the vertex shader -------------------------------------------------------- */

/* configuration mode, no geometry shader, code upload from word 0 */
static inline void pica_cmd_shader_begin(PicaCmd *c)
{
    pica_cmd_regm(c, GPUREG_START_DRAW_FUNC0, 0x1, 1);
    pica_cmd_regm(c, GPUREG_GEOSTAGE_CONFIG, 0x1, 0);
    pica_cmd_regm(c, GPUREG_VSH_COM_MODE, 0x1, 0);
    pica_cmd_reg(c, GPUREG_VSH_CODETRANSFER_INDEX, 0);
}

/* n code words through data port alias `alias` (0-7), at most 256 a command */
static inline void pica_cmd_shader_code(PicaCmd *c, unsigned alias,
                                        const uint32_t *code, unsigned n)
{
    while (n) {
        unsigned k = n > 256 ? 256 : n;
        pica_cmd(c, GPUREG_VSH_CODETRANSFER_DATA0 + (alias & 7), 0xF, 0,
                 code, k);
        code += k;
        n -= k;
    }
}

/*
 * End the code upload, load the operand descriptors, and set up the shader
 * for two input attributes (v0, v1) and two outputs: o0 = position,
 * o1 = colour (SH_OUTMAP, 3dbrew GPU/Internal Registers, VSH_OUTMAP_*).
 */
static inline void pica_cmd_shader_end(PicaCmd *c, const uint32_t *opdescs,
                                       unsigned n)
{
    static const uint32_t outmap[8] = { 2, 0x03020100, 0x0B0A0908,
                                        0x1F1F1F1F, 0x1F1F1F1F, 0x1F1F1F1F,
                                        0x1F1F1F1F, 0x1F1F1F1F };

    pica_cmd_reg(c, GPUREG_VSH_CODETRANSFER_END, 1);
    pica_cmd_reg(c, GPUREG_VSH_OPDESCS_INDEX, 0);
    pica_cmd(c, GPUREG_VSH_OPDESCS_DATA0, 0xF, 0, opdescs, n);
    pica_cmd_reg(c, GPUREG_VSH_BOOLUNIFORM, 0x7FFF0000);
    pica_cmd_reg(c, GPUREG_VSH_ENTRYPOINT, 0x7FFF0000);
    pica_cmd_reg(c, GPUREG_VSH_OUTMAP_MASK, 0x3);
    pica_cmd_reg(c, GPUREG_VSH_OUTMAP_TOTAL1, 1);
    pica_cmd_reg(c, GPUREG_VSH_OUTMAP_TOTAL2, 1);
    pica_cmd_regm(c, GPUREG_PRIMITIVE_CONFIG, 0x1, 1);
    pica_cmd(c, GPUREG_SH_OUTMAP_TOTAL, 0xF, 1, outmap, 8);
    pica_cmd_reg(c, GPUREG_SH_OUTATTR_MODE, 0);
    pica_cmd_reg(c, GPUREG_SH_OUTATTR_CLOCK, 3);
    pica_cmd_reg(c, GPUREG_VSH_INPUTBUFFER_CONFIG, 0xA0000001);
    pica_cmd_reg(c, GPUREG_VSH_NUM_ATTR, 1);
    pica_cmd_reg(c, GPUREG_VSH_ATTRIBUTES_PERMUTATION_LOW, 0x10);
    pica_cmd_reg(c, GPUREG_VSH_ATTRIBUTES_PERMUTATION_HIGH, 0);
}

/* float uniforms c[index..index+n) as float1.7.16, three words each */
static inline void pica_cmd_uniforms_f24(PicaCmd *c, unsigned index,
                                         const float (*v)[4], unsigned n)
{
    uint32_t p[1 + 3 * 2];
    unsigned i;

    while (n) {
        /* two vectors fill six of the port's eight aliases */
        unsigned k = n > 2 ? 2 : n;
        p[0] = index;                           /* float24 mode */
        for (i = 0; i < k; i++) {
            pica_pack_f24x4(v[i], p + 1 + 3 * i);
        }
        /* consecutive from the index register into the data port aliases */
        pica_cmd(c, GPUREG_VSH_FLOATUNIFORM_INDEX, 0xF, 1, p, 1 + 3 * k);
        index += k;
        v += k;
        n -= k;
    }
}

/* float uniforms c[index..index+n) as float32 words: W, Z, Y, X */
static inline void pica_cmd_uniforms_f32(PicaCmd *c, unsigned index,
                                         const float (*v)[4], unsigned n)
{
    uint32_t p[4 * 16];
    unsigned i, j;

    while (n) {
        unsigned k = n > 16 ? 16 : n;
        pica_cmd_reg(c, GPUREG_VSH_FLOATUNIFORM_INDEX, index | 1u << 31);
        for (i = 0; i < k; i++) {
            for (j = 0; j < 4; j++) {
                p[4 * i + j] = pica_f2u(v[i][3 - j]);
            }
        }
        pica_cmd(c, GPUREG_VSH_FLOATUNIFORM_DATA0, 0xF, 0, p, 4 * k);
        index += k;
        v += k;
        n -= k;
    }
}

/*
 * mul r0, c0, v0 ; add o0, c1, r0 ; mul o1, c2, v1 ; end
 * (position = v0 * c0 + c1, colour = v1 * c2). The code goes up in two
 * chunks through two data port aliases, c0/c1 as float24 and c2 as float32,
 * as the unit tests want every upload path used.
 */
static inline void pica_cmd_shader(PicaCmd *c, const float c0[4],
                                   const float c1[4], const float c2[4])
{
    const uint32_t code[4] = {
        PICA_SH_FMT1(PICA_SH_MUL, PICA_SH_R(0), PICA_SH_C(0), PICA_SH_V(0), 0, 0),
        PICA_SH_FMT1(PICA_SH_ADD, PICA_SH_O(0), PICA_SH_C(1), PICA_SH_R(0), 0, 0),
        PICA_SH_FMT1(PICA_SH_MUL, PICA_SH_O(1), PICA_SH_C(2), PICA_SH_V(1), 0, 0),
        (uint32_t)PICA_SH_END << 26,
    };
    const uint32_t desc = PICA_OPDESC(0xF, 0, PICA_SWZ_XYZW, 0, PICA_SWZ_XYZW,
                                      0, 0);
    float u01[2][4], u2[1][4];
    unsigned i;

    for (i = 0; i < 4; i++) {
        u01[0][i] = c0[i];
        u01[1][i] = c1[i];
        u2[0][i] = c2[i];
    }
    pica_cmd_shader_begin(c);
    pica_cmd_shader_code(c, 0, code, 2);
    pica_cmd_shader_code(c, 3, code + 2, 2);
    pica_cmd_shader_end(c, &desc, 1);
    pica_cmd_uniforms_f24(c, 0, (const float (*)[4])u01, 2);
    pica_cmd_uniforms_f32(c, 2, (const float (*)[4])u2, 1);
}

static inline void pica_cmd_shader_passthrough(PicaCmd *c)
{
    static const float one[4] = { 1, 1, 1, 1 }, zero[4] = { 0, 0, 0, 0 };
    pica_cmd_shader(c, one, zero, one);
}

/*
 * dp4 o0.x, c0, v0 ; dp4 o0.y, c1, v0 ; dp4 o0.z, c2, v0 ; dp4 o0.w, c3, v0 ;
 * mov o1, v1 ; end: position = M v0 with the rows of M (row-major) in
 * c0-c3, colour = v1.
 */
static inline void pica_cmd_shader_matrix(PicaCmd *c, const float m[16])
{
    uint32_t code[6], desc[5];
    float rows[4][4];
    unsigned i, j;

    for (i = 0; i < 4; i++) {
        /* operand descriptor i writes component i only (b3 = x .. b0 = w) */
        desc[i] = PICA_OPDESC(8u >> i, 0, PICA_SWZ_XYZW, 0, PICA_SWZ_XYZW, 0, 0);
        code[i] = PICA_SH_FMT1(PICA_SH_DP4, PICA_SH_O(0), PICA_SH_C(i),
                               PICA_SH_V(0), 0, i);
        for (j = 0; j < 4; j++) {
            rows[i][j] = m[i * 4 + j];
        }
    }
    desc[4] = PICA_OPDESC(0xF, 0, PICA_SWZ_XYZW, 0, PICA_SWZ_XYZW, 0, 0);
    code[4] = PICA_SH_FMT1(PICA_SH_MOV, PICA_SH_O(1), PICA_SH_V(1), 0, 0, 4);
    code[5] = (uint32_t)PICA_SH_END << 26;
    pica_cmd_shader_begin(c);
    pica_cmd_shader_code(c, 0, code, 6);
    pica_cmd_shader_end(c, desc, 5);
    pica_cmd_uniforms_f32(c, 0, (const float (*)[4])rows, 4);
}

/*
 * mov o0, v0 ... mov o(n-1), v(n-1); end: n (at most 7) float4 attributes
 * from one buffer at vb_pa, 16 n bytes a vertex, output i mapped to the
 * semantics of outmap[i] (SH_OUTMAP_Oi).
 */
static inline void pica_cmd_shader_mov(PicaCmd *c, uint32_t vb_pa, unsigned n,
                                       const uint32_t *outmap)
{
    uint32_t code[8], map[8], desc = PICA_OPDESC(0xF, 0, PICA_SWZ_XYZW, 0,
                                                  PICA_SWZ_XYZW, 0, 0);
    uint32_t buf0[3] = { 0, 0, 16u * n << 16 | (uint32_t)n << 28 };
    uint32_t fmt = PICA_ATTRIB_FORMAT(PICA_ATTR_F32, 4), fmts = 0;
    unsigned i;

    map[0] = n;
    for (i = 0; i < 7; i++) {
        map[i + 1] = i < n ? outmap[i] : 0x1F1F1F1F;
    }
    for (i = 0; i < n; i++) {
        code[i] = PICA_SH_FMT1(PICA_SH_MOV, PICA_SH_O(i), PICA_SH_V(i), 0, 0, 0);
        buf0[1] |= i << (4 * i);
        fmts |= fmt << (4 * i);
    }
    code[n] = (uint32_t)PICA_SH_END << 26;
    pica_cmd_shader_begin(c);
    pica_cmd_shader_code(c, 0, code, n + 1);
    pica_cmd_shader_end(c, &desc, 1);
    pica_cmd_reg(c, GPUREG_VSH_OUTMAP_MASK, (1u << n) - 1);
    pica_cmd_reg(c, GPUREG_VSH_OUTMAP_TOTAL1, n - 1);
    pica_cmd_reg(c, GPUREG_VSH_OUTMAP_TOTAL2, n - 1);
    pica_cmd(c, GPUREG_SH_OUTMAP_TOTAL, 0xF, 1, map, 8);
    pica_cmd_reg(c, GPUREG_VSH_INPUTBUFFER_CONFIG, 0xA0000000u | (n - 1));
    pica_cmd_reg(c, GPUREG_VSH_NUM_ATTR, n - 1);
    pica_cmd_reg(c, GPUREG_VSH_ATTRIBUTES_PERMUTATION_LOW, buf0[1]);
    pica_cmd_reg(c, GPUREG_ATTRIBBUFFERS_LOC, vb_pa >> 3);
    pica_cmd_reg(c, GPUREG_ATTRIBBUFFERS_FORMAT_LOW, fmts);
    /* attributes n-11 fixed, n - 1 in the top bits */
    pica_cmd_reg(c, GPUREG_ATTRIBBUFFERS_FORMAT_HIGH,
                 (0xFFFu << n & 0xFFFu) << 16 | (uint32_t)(n - 1) << 28);
    pica_cmd(c, PICA_ATTRIBBUFFER_OFFSET(0), 0xF, 1, buf0, 3);
    for (i = 1; i < 12; i++) {
        pica_cmd_reg(c, PICA_ATTRIBBUFFER_CONFIG2(i), 0);
    }
}

/* ---- rasteriser, render target, fragment operations ---------------------- */

/*
 * Viewport covering a w x h target from (x, y); depth = -z/w (DEPTHMAP
 * SCALE -1, OFFSET 0: clip-space z runs from 0 at the near plane to -w at
 * the far one, citro3d's command order); no culling, user clip plane or
 * scissor.
 */
static inline void pica_cmd_viewport(PicaCmd *c, unsigned w, unsigned h,
                                     int x, int y)
{
    uint32_t p[4] = { pica_to_f24(w / 2.0f), pica_to_f31(2.0f / w),
                      pica_to_f24(h / 2.0f), pica_to_f31(2.0f / h) };
    uint32_t d[2] = { pica_to_f24(-1.0f), 0 };

    pica_cmd_reg(c, GPUREG_FACECULLING_CONFIG, 0);
    pica_cmd(c, GPUREG_VIEWPORT_WIDTH, 0xF, 1, p, 4);
    pica_cmd_reg(c, GPUREG_VIEWPORT_XY,
                 ((uint32_t)x & 0x3FF) | ((uint32_t)y & 0x3FF) << 16);
    pica_cmd_reg(c, GPUREG_DEPTHMAP_ENABLE, 1);
    pica_cmd(c, GPUREG_DEPTHMAP_SCALE, 0xF, 1, d, 2);
    pica_cmd_reg(c, GPUREG_FRAGOP_CLIP, 0);
    pica_cmd_reg(c, GPUREG_SCISSORTEST_MODE, 0);
}

/*
 * A w x h colour buffer (PICA_COLORFMT_*) at 3DS physical color_pa and an
 * optional depth buffer (PICA_DEPTH_*) at depth_pa (0: none), 8x8 tiles.
 */
static inline void pica_cmd_target(PicaCmd *c, unsigned w, unsigned h,
                                   uint32_t color_pa, unsigned colorfmt,
                                   uint32_t depth_pa, unsigned depthfmt)
{
    static const uint8_t pixel_size[5] = { 2, 1, 0, 0, 0 };
    uint32_t dim = w | (h - 1) << 12 | 1u << 24;
    uint32_t p[3] = { depth_pa >> 3, color_pa >> 3, dim };
    uint32_t rw[4] = { 0xF, 0xF, depth_pa ? 3u : 0u, depth_pa ? 3u : 0u };

    pica_cmd_reg(c, GPUREG_FRAMEBUFFER_INVALIDATE, 1);
    pica_cmd(c, GPUREG_DEPTHBUFFER_LOC, 0xF, 1, p, 3);
    pica_cmd_reg(c, GPUREG_RENDERBUF_DIM, dim);
    pica_cmd_reg(c, GPUREG_DEPTHBUFFER_FORMAT, depthfmt);
    pica_cmd_reg(c, GPUREG_COLORBUFFER_FORMAT,
                 colorfmt << 16 | pixel_size[colorfmt % 5]);
    pica_cmd_reg(c, GPUREG_FRAMEBUFFER_BLOCK32, 0);
    pica_cmd(c, GPUREG_COLORBUFFER_READ, 0xF, 1, rw, 4);
}

/*
 * Stage 0 passes the primary colour, stages 1-5 the previous one; blend
 * ONE/ZERO; no alpha or stencil test; depth test `func` (PICA_CMP_*) when
 * depth_test, depth writes when depth_write; textures and lighting off.
 */
static inline void pica_cmd_fragment(PicaCmd *c, int depth_test,
                                     unsigned func, int depth_write)
{
    static const uint32_t env0[5] = { 0, 0, 0, 0, 0 };
    static const uint32_t envn[5] = { 0x000F000F, 0, 0, 0, 0 };
    uint32_t p[3] = { 0, 0, (uint32_t)!!depth_test | func << 4 | 0xF00 |
                            (uint32_t)!!depth_write << 12 };
    unsigned s;

    pica_cmd_reg(c, GPUREG_COLOR_OPERATION, 0x00E40100);
    pica_cmd_reg(c, GPUREG_BLEND_FUNC, 0x01010000);
    pica_cmd_reg(c, GPUREG_FRAGOP_ALPHA_TEST, 0);
    pica_cmd(c, GPUREG_STENCIL_TEST, 0xF, 1, p, 3);
    pica_cmd_regm(c, GPUREG_TEXUNIT_CONFIG, 0xB, 0x00001000);
    pica_cmd_reg(c, GPUREG_LIGHTING_ENABLE0, 0);
    pica_cmd_reg(c, GPUREG_LIGHTING_ENABLE1, 1);
    pica_cmd_regm(c, GPUREG_TEXENV_UPDATE_BUFFER, 0x7, 0);
    pica_cmd(c, PICA_TEXENV_BASE(0), 0xF, 1, env0, 5);
    for (s = 1; s < 6; s++) {
        pica_cmd(c, PICA_TEXENV_BASE(s), 0xF, 1, envn, 5);
    }
}

/* ---- vertices and draws ------------------------------------------------------- */

/*
 * One attribute buffer at 3DS physical base_pa: attr0 (position) and attr1
 * (colour) with format nibbles fmt0 / fmt1 (PICA_ATTRIB_FORMAT),
 * interleaved, `stride` bytes per vertex; buffers 1-11 empty.
 */
static inline void pica_cmd_attribs(PicaCmd *c, uint32_t base_pa,
                                    unsigned fmt0, unsigned fmt1,
                                    unsigned stride)
{
    uint32_t buf0[3] = { 0, 0x10, (uint32_t)stride << 16 | 2u << 28 };
    unsigned i;

    pica_cmd_reg(c, GPUREG_ATTRIBBUFFERS_LOC, base_pa >> 3);
    pica_cmd_reg(c, GPUREG_ATTRIBBUFFERS_FORMAT_LOW, fmt0 | fmt1 << 4);
    pica_cmd_reg(c, GPUREG_ATTRIBBUFFERS_FORMAT_HIGH, 0x0FFCu << 16 | 1u << 28);
    pica_cmd(c, PICA_ATTRIBBUFFER_OFFSET(0), 0xF, 1, buf0, 3);
    for (i = 1; i < 12; i++) {
        pica_cmd_reg(c, PICA_ATTRIBBUFFER_CONFIG2(i), 0);
    }
}

/* float4 position + float4 colour, 32 bytes a vertex */
#define PICA_F32X4 PICA_ATTRIB_FORMAT(PICA_ATTR_F32, 4)

/*
 * DRAWARRAYS of `count` vertices from `first`, or DRAWELEMENTS with
 * INDEXBUFFER_CONFIG index_cfg; then flush the framebuffer.
 */
static inline void pica_cmd_draw(PicaCmd *c, unsigned topology,
                                 unsigned count, unsigned first, int indexed,
                                 uint32_t index_cfg)
{
    pica_cmd_regm(c, GPUREG_PRIMITIVE_CONFIG, 0x2, topology << 8);
    pica_cmd_reg(c, GPUREG_RESTART_PRIMITIVE, 1);
    pica_cmd_reg(c, GPUREG_INDEXBUFFER_CONFIG, indexed ? index_cfg : 0x80000000);
    pica_cmd_reg(c, GPUREG_NUMVERTICES, count);
    pica_cmd_reg(c, GPUREG_VERTEX_OFFSET, first);
    pica_cmd_regm(c, GPUREG_GEOSTAGE_CONFIG2, 0x1, indexed ? 0 : 1);
    pica_cmd_regm(c, GPUREG_START_DRAW_FUNC0, 0x1, 0);
    pica_cmd_reg(c, indexed ? GPUREG_DRAWELEMENTS : GPUREG_DRAWARRAYS, 1);
    pica_cmd_regm(c, GPUREG_START_DRAW_FUNC0, 0x1, 1);
    pica_cmd_regm(c, GPUREG_GEOSTAGE_CONFIG2, 0x1, 0);
    pica_cmd_reg(c, GPUREG_VTX_FUNC, 1);
    pica_cmd_reg(c, GPUREG_FRAMEBUFFER_FLUSH, 1);
}

/*
 * The usual scene: pass-through shader, a w x h viewport and target without
 * depth, colour = primary, blend ONE/ZERO, float4 position + colour
 * vertices at vb_pa.
 */
static inline void pica_cmd_basic_scene(PicaCmd *c, unsigned w, unsigned h,
                                        uint32_t color_pa, unsigned colorfmt,
                                        uint32_t vb_pa)
{
    pica_cmd_shader_passthrough(c);
    pica_cmd_viewport(c, w, h, 0, 0);
    pica_cmd_target(c, w, h, color_pa, colorfmt, 0, 0);
    pica_cmd_fragment(c, 0, PICA_CMP_ALWAYS, 0);
    pica_cmd_attribs(c, vb_pa, PICA_F32X4, PICA_F32X4, 32);
}

/* ---- BAR0 register sequences ----------------------------------------------- */

/* one BAR0 write: the caller applies them in order with its own accessor */
typedef struct PicaRegWrite {
    uint32_t off, val;
} PicaRegWrite;

/*
 * What the GSP writes once at GPU init (3dbrew External Registers): FINALIZE
 * (IRQ_REQ0) with 0x12345678 requests interrupts 0-3, which stops the list.
 */
static inline unsigned pica_seq_irq_init(PicaRegWrite *w)
{
    w[0] = (PicaRegWrite){ PICA_INTERNAL_OFFSET(GPUREG_IRQ_CMP0), PICA_FINALIZE_VALUE };
    w[1] = (PicaRegWrite){ PICA_INTERNAL_OFFSET(GPUREG_IRQ_MASK_LO), 0xFFFFFFF0 };
    w[2] = (PicaRegWrite){ PICA_INTERNAL_OFFSET(GPUREG_IRQ_MASK_HI), 0xFFFFFFFF };
    w[3] = (PicaRegWrite){ PICA_INTERNAL_OFFSET(GPUREG_IRQ_AUTOSTOP), 1 };
    return 4;
}

/* run the list of `bytes` at 3DS physical pa on channel 0 (GX command 1) */
static inline unsigned pica_seq_kick(PicaRegWrite *w, uint32_t pa,
                                     uint32_t bytes)
{
    w[0] = (PicaRegWrite){ PICA_INTERNAL_OFFSET(GPUREG_IRQ_ACK0), 0 };
    w[1] = (PicaRegWrite){ PICA_INTERNAL_OFFSET(GPUREG_CMDBUF_SIZE0), bytes >> 3 };
    w[2] = (PicaRegWrite){ PICA_INTERNAL_OFFSET(GPUREG_CMDBUF_ADDR0), pa >> 3 };
    w[3] = (PicaRegWrite){ PICA_INTERNAL_OFFSET(GPUREG_CMDBUF_JUMP0), 1 };
    return 4;
}

/* memory fill unit `unit` over [start, end) (3DS physical), width 0-3 */
static inline unsigned pica_seq_fill(PicaRegWrite *w, unsigned unit,
                                     uint32_t start, uint32_t end,
                                     uint32_t value, unsigned width)
{
    uint32_t base = PICA_PSC_BASE(unit);

    w[0] = (PicaRegWrite){ base + PICA_PSC_ADDR_START, start >> 3 };
    w[1] = (PicaRegWrite){ base + PICA_PSC_ADDR_END, end >> 3 };
    w[2] = (PicaRegWrite){ base + PICA_PSC_VALUE, value };
    w[3] = (PicaRegWrite){ base + PICA_PSC_CONTROL, width << 8 | 1 };
    return 4;
}

/* display transfer (or texture copy, by flags): sizes are width | height << 16 */
static inline unsigned pica_seq_transfer(PicaRegWrite *w, uint32_t in_pa,
                                         uint32_t out_pa, uint32_t in_size,
                                         uint32_t out_size, uint32_t flags)
{
    w[0] = (PicaRegWrite){ A_PPF_INPUT_ADDR, in_pa >> 3 };
    w[1] = (PicaRegWrite){ A_PPF_OUTPUT_ADDR, out_pa >> 3 };
    w[2] = (PicaRegWrite){ A_PPF_INPUT_SIZE, in_size };
    w[3] = (PicaRegWrite){ A_PPF_OUTPUT_SIZE, out_size };
    w[4] = (PicaRegWrite){ A_PPF_FLAGS, flags };
    w[5] = (PicaRegWrite){ A_PPF_CONTROL, 1 };
    return 6;
}

/*
 * LCD `head` (0 top, 1 bottom) showing the framebuffer at 3DS physical pa
 * as its first (select 0) or second (select 1) address, in PICA_PIXFMT_*
 * with `stride` bytes from one stored line (a screen column) to the next.
 */
static inline unsigned pica_seq_lcd(PicaRegWrite *w, unsigned head,
                                    unsigned select, uint32_t pa,
                                    unsigned pixfmt, uint32_t stride)
{
    uint32_t base = PICA_PDC_BASE(head);

    w[0] = (PicaRegWrite){ base + (select ? PICA_PDC_FRAMEBUF_A2
                                          : PICA_PDC_FRAMEBUF_A1), pa };
    w[1] = (PicaRegWrite){ base + PICA_PDC_FRAMEBUF_FORMAT, pixfmt };
    w[2] = (PicaRegWrite){ base + PICA_PDC_FRAMEBUF_STRIDE, stride };
    w[3] = (PicaRegWrite){ base + PICA_PDC_FRAMEBUF_SELECT, select };
    w[4] = (PicaRegWrite){ base + PICA_PDC_CONTROL, 1 };
    return 5;
}

/* ---- applying sequences and waiting, through the caller's BAR0 accessors -- */

typedef struct PicaBus {
    void *opaque;
    void (*wr)(void *opaque, uint32_t off, uint32_t val);
    uint32_t (*rd)(void *opaque, uint32_t off);
} PicaBus;

static inline void pica_bus_seq(const PicaBus *b, const PicaRegWrite *w,
                                unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        b->wr(b->opaque, w[i].off, w[i].val);
    }
}

/* poll until (BAR0[off] & mask) == want, at most `tries` reads; 0 = done */
static inline int pica_bus_wait(const PicaBus *b, uint32_t off, uint32_t mask,
                                uint32_t want, uint32_t tries)
{
    while (tries--) {
        if ((b->rd(b->opaque, off) & mask) == want) {
            return 0;
        }
    }
    return -1;
}

#endif
