/*
 * Command lists that set up a pica200 draw the way citro3d/libctru do
 * (digest §7): a pass-through-with-uniforms vertex shader, the output map,
 * viewport, render target, combiners and fragment operations, attribute
 * buffers and draw calls. Shared by the draw tests, the benchmark and the
 * fuzzer's seeds.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef PICA_SCENE_H
#define PICA_SCENE_H

#include "pica-test.h"

/*
 * Vertex shader:  mul r0, c0, v0 ; add o0, c1, r0 ; mul o1, c2, v1 ; end
 * (position = v0 * c0 + c1, colour = v1 * c2), uploaded in two chunks.
 */
static inline void cb_shader(CmdBuf *b, const float c0[4], const float c1[4],
                             const float c2[4])
{
    uint32_t code[4] = {
        PICA_SH_FMT1(PICA_SH_MUL, PICA_SH_R(0), PICA_SH_C(0), PICA_SH_V(0), 0, 0),
        PICA_SH_FMT1(PICA_SH_ADD, PICA_SH_O(0), PICA_SH_C(1), PICA_SH_R(0), 0, 0),
        PICA_SH_FMT1(PICA_SH_MUL, PICA_SH_O(1), PICA_SH_C(2), PICA_SH_V(1), 0, 0),
        (uint32_t)PICA_SH_END << 26,
    };
    uint32_t w[4];

    cb_regm(b, GPUREG_START_DRAW_FUNC0, 0x1, 1);
    cb_regm(b, GPUREG_GEOSTAGE_CONFIG, 0x1, 0);
    cb_regm(b, GPUREG_VSH_COM_MODE, 0x1, 0);
    cb_reg(b, GPUREG_VSH_CODETRANSFER_INDEX, 0);
    cb_cmd(b, GPUREG_VSH_CODETRANSFER_DATA0, 0xF, false, code, 2);
    cb_cmd(b, GPUREG_VSH_CODETRANSFER_DATA0 + 3, 0xF, false, code + 2, 2);
    cb_reg(b, GPUREG_VSH_CODETRANSFER_END, 1);
    cb_reg(b, GPUREG_VSH_OPDESCS_INDEX, 0);
    cb_reg(b, GPUREG_VSH_OPDESCS_DATA0,
           PICA_OPDESC(0xF, 0, PICA_SWZ_XYZW, 0, PICA_SWZ_XYZW, 0, 0));
    /* c0, c1 as float24 (three words each), consecutive from the index */
    {
        uint32_t p[7];
        p[0] = 0;                                   /* index c0, f24 mode */
        pt_pack_f24x4(c0, p + 1);
        pt_pack_f24x4(c1, p + 4);
        cb_cmd(b, GPUREG_VSH_FLOATUNIFORM_INDEX, 0xF, true, p, 7);
    }
    /* c2 as float32: W, Z, Y, X */
    cb_reg(b, GPUREG_VSH_FLOATUNIFORM_INDEX, 2u | 1u << 31);
    memcpy(&w[0], &c2[3], 4);
    memcpy(&w[1], &c2[2], 4);
    memcpy(&w[2], &c2[1], 4);
    memcpy(&w[3], &c2[0], 4);
    cb_cmd(b, GPUREG_VSH_FLOATUNIFORM_DATA0, 0xF, false, w, 4);
    cb_reg(b, GPUREG_VSH_BOOLUNIFORM, 0x7FFF0000);
    cb_reg(b, GPUREG_VSH_ENTRYPOINT, 0x7FFF0000);
    cb_reg(b, GPUREG_VSH_OUTMAP_MASK, 0x3);
    cb_reg(b, GPUREG_VSH_OUTMAP_TOTAL1, 1);
    cb_reg(b, GPUREG_VSH_OUTMAP_TOTAL2, 1);
    cb_regm(b, GPUREG_PRIMITIVE_CONFIG, 0x1, 1);
    {
        uint32_t p[8] = { 2, 0x03020100, 0x0B0A0908, 0x1F1F1F1F, 0x1F1F1F1F,
                          0x1F1F1F1F, 0x1F1F1F1F, 0x1F1F1F1F };
        cb_cmd(b, GPUREG_SH_OUTMAP_TOTAL, 0xF, true, p, 8);
    }
    cb_reg(b, GPUREG_SH_OUTATTR_MODE, 0);
    cb_reg(b, GPUREG_SH_OUTATTR_CLOCK, 3);
    cb_reg(b, GPUREG_VSH_INPUTBUFFER_CONFIG, 0xA0000001);
    cb_reg(b, GPUREG_VSH_NUM_ATTR, 1);
    cb_reg(b, GPUREG_VSH_ATTRIBUTES_PERMUTATION_LOW, 0x10);
    cb_reg(b, GPUREG_VSH_ATTRIBUTES_PERMUTATION_HIGH, 0);
}

static inline void cb_shader_passthrough(CmdBuf *b)
{
    static const float one[4] = { 1, 1, 1, 1 }, zero[4] = { 0, 0, 0, 0 };
    cb_shader(b, one, zero, one);
}

/* viewport covering a w x h target, origin (x, y) */
static inline void cb_viewport(CmdBuf *b, unsigned w, unsigned h, int x, int y)
{
    uint32_t p[4] = { pt_f24(w / 2.0f), pt_f31(2.0f / w), pt_f24(h / 2.0f),
                      pt_f31(2.0f / h) };

    cb_reg(b, GPUREG_FACECULLING_CONFIG, 0);
    cb_cmd(b, GPUREG_VIEWPORT_WIDTH, 0xF, true, p, 4);
    cb_reg(b, GPUREG_VIEWPORT_XY, ((uint32_t)x & 0x3FF) | ((uint32_t)y & 0x3FF) << 16);
    cb_reg(b, GPUREG_DEPTHMAP_ENABLE, 1);
    {
        uint32_t d[2] = { pt_f24(-1.0f), 0 };
        cb_cmd(b, GPUREG_DEPTHMAP_SCALE, 0xF, true, d, 2);
    }
    cb_reg(b, GPUREG_FRAGOP_CLIP, 0);
    cb_reg(b, GPUREG_SCISSORTEST_MODE, 0);
}

/* colour buffer (COLORBUFFER_FORMAT code) and optional depth buffer */
static inline void cb_target(CmdBuf *b, unsigned w, unsigned h,
                             uint32_t color_paddr, unsigned colorfmt,
                             uint32_t depth_paddr, unsigned depthfmt)
{
    static const uint8_t size[5] = { 2, 1, 0, 0, 0 };
    uint32_t dim = w | (h - 1) << 12 | 1u << 24;
    uint32_t p[3] = { depth_paddr >> 3, color_paddr >> 3, dim };

    cb_reg(b, GPUREG_FRAMEBUFFER_INVALIDATE, 1);
    cb_cmd(b, GPUREG_DEPTHBUFFER_LOC, 0xF, true, p, 3);
    cb_reg(b, GPUREG_RENDERBUF_DIM, dim);
    cb_reg(b, GPUREG_DEPTHBUFFER_FORMAT, depthfmt);
    cb_reg(b, GPUREG_COLORBUFFER_FORMAT, colorfmt << 16 | size[colorfmt]);
    cb_reg(b, GPUREG_FRAMEBUFFER_BLOCK32, 0);
    {
        uint32_t rw[4] = { 0xF, 0xF, depth_paddr ? 3 : 0, depth_paddr ? 3 : 0 };
        cb_cmd(b, GPUREG_COLORBUFFER_READ, 0xF, true, rw, 4);
    }
}

/* stage 0 passes the primary colour; blend ONE/ZERO; depth test `func` */
static inline void cb_fragment(CmdBuf *b, bool depth_test, unsigned func,
                               bool depth_write)
{
    unsigned s;
    uint32_t env0[5] = { 0, 0, 0, 0, 0 };

    cb_reg(b, GPUREG_COLOR_OPERATION, 0x00E40100);
    cb_reg(b, GPUREG_BLEND_FUNC, 0x01010000);
    cb_reg(b, GPUREG_FRAGOP_ALPHA_TEST, 0);
    {
        uint32_t p[3] = { 0, 0, (uint32_t)depth_test | func << 4 | 0xF00 |
                                (uint32_t)depth_write << 12 };
        cb_cmd(b, GPUREG_STENCIL_TEST, 0xF, true, p, 3);
    }
    cb_regm(b, GPUREG_TEXUNIT_CONFIG, 0xB, 0x00001000);
    cb_reg(b, GPUREG_LIGHTING_ENABLE0, 0);
    cb_reg(b, GPUREG_LIGHTING_ENABLE1, 1);
    cb_regm(b, GPUREG_TEXENV_UPDATE_BUFFER, 0x7, 0);
    cb_cmd(b, PICA_TEXENV_BASE(0), 0xF, true, env0, 5);
    for (s = 1; s < 6; s++) {
        uint32_t env[5] = { 0x000F000F, 0, 0, 0, 0 };
        cb_cmd(b, PICA_TEXENV_BASE(s), 0xF, true, env, 5);
    }
}

/* one attribute buffer: attr0 (position) and attr1 (colour), both with
 * format nibble fmt0 / fmt1, interleaved with `stride` bytes per vertex */
static inline void cb_attribs(CmdBuf *b, uint32_t base_paddr, unsigned fmt0,
                              unsigned fmt1, unsigned stride)
{
    unsigned i;
    uint32_t buf0[3] = { 0, 0x10, (uint32_t)stride << 16 | 2u << 28 };

    cb_reg(b, GPUREG_ATTRIBBUFFERS_LOC, base_paddr >> 3);
    cb_reg(b, GPUREG_ATTRIBBUFFERS_FORMAT_LOW, fmt0 | fmt1 << 4);
    cb_reg(b, GPUREG_ATTRIBBUFFERS_FORMAT_HIGH, 0x0FFCu << 16 | 1u << 28);
    cb_cmd(b, PICA_ATTRIBBUFFER_OFFSET(0), 0xF, true, buf0, 3);
    for (i = 1; i < 12; i++) {
        cb_reg(b, PICA_ATTRIBBUFFER_CONFIG2(i), 0);
    }
}

static inline void cb_draw(CmdBuf *b, unsigned topology, unsigned count,
                           unsigned first, bool indexed, uint32_t index_cfg)
{
    cb_regm(b, GPUREG_PRIMITIVE_CONFIG, 0x2, topology << 8);
    cb_reg(b, GPUREG_RESTART_PRIMITIVE, 1);
    cb_reg(b, GPUREG_INDEXBUFFER_CONFIG, indexed ? index_cfg : 0x80000000);
    cb_reg(b, GPUREG_NUMVERTICES, count);
    cb_reg(b, GPUREG_VERTEX_OFFSET, first);
    cb_regm(b, GPUREG_GEOSTAGE_CONFIG2, 0x1, indexed ? 0 : 1);
    cb_regm(b, GPUREG_START_DRAW_FUNC0, 0x1, 0);
    cb_reg(b, indexed ? GPUREG_DRAWELEMENTS : GPUREG_DRAWARRAYS, 1);
    cb_regm(b, GPUREG_START_DRAW_FUNC0, 0x1, 1);
    cb_regm(b, GPUREG_GEOSTAGE_CONFIG2, 0x1, 0);
    cb_reg(b, GPUREG_VTX_FUNC, 1);
    cb_reg(b, GPUREG_FRAMEBUFFER_FLUSH, 1);
}

/*
 * the usual scene: pass-through shader, a w x h viewport and RGBA8 (or
 * `colorfmt`) target without depth, colour = primary, blend ONE/ZERO, and
 * float4 position + colour vertices at `vb_pa`
 */
static inline void cb_basic_scene(CmdBuf *b, unsigned w, unsigned h,
                                  uint32_t color_pa, unsigned colorfmt,
                                  uint32_t vb_pa)
{
    cb_shader_passthrough(b);
    cb_viewport(b, w, h, 0, 0);
    cb_target(b, w, h, color_pa, colorfmt, 0, 0);
    cb_fragment(b, false, PICA_CMP_ALWAYS, false);
    cb_attribs(b, vb_pa, PICA_ATTRIB_FORMAT(PICA_ATTR_F32, 4),
               PICA_ATTRIB_FORMAT(PICA_ATTR_F32, 4), 32);
}

/* vertices as (x, y, z, w, r, g, b, a) floats, little-endian, in guest RAM */
static inline void pt_put_vertices(PicaTest *t, uint32_t off, const float *v,
                                   unsigned n)
{
    memcpy(t->ram + off, v, n * 8 * sizeof(float));
}

#define PT_F32X4 PICA_ATTRIB_FORMAT(PICA_ATTR_F32, 4)

#endif
