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

/* run a finished list: kick, wait for FINALIZE's interrupt, acknowledge */
static inline int pica_scene_run(const PicaBus *b, const PicaCmd *c,
                                 uint32_t list_pa)
{
    PicaRegWrite w[4];

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
 * Build frame f's list in c (whose words the GPU sees at 3DS physical
 * list_pa), run it, wait for FINALIZE's interrupt and acknowledge it.
 */
static inline int pica_scene_draw(const PicaBus *b, PicaCmd *c,
                                  uint32_t list_pa, int f, unsigned sw,
                                  unsigned sh, uint32_t color_pa,
                                  uint32_t depth_pa, uint32_t vb_pa)
{
    c->n = 0;
    pica_scene_list(c, f, sw, sh, color_pa, depth_pa, vb_pa);
    return pica_scene_run(b, c, list_pa);
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

/* ---- the lit scene: bump-mapped, lit and shadowed ---------------------------- */

/*
 * The bottom screen's second picture (the demo shows it after the cube):
 * a curved surface (the normal turned about y from -0.3 to 0.3 radians
 * across it) lit per fragment by a white directional light with a
 * Blinn-Phong highlight (D0 = (N.H)^16) and a red positional two-sided
 * light (RR = 0.5 + 0.5 N.V), its normals perturbed by a 64x64 normal
 * map in texture unit 1 (bump mode, z rebuilt), shadowed by two
 * rectangles: a first pass renders them into a 64x64 shadow map (COLOR_
 * OPERATION shadow mode), which the lit pass reads in unit 0 as a shadow
 * 2D texture for the lighting's shadow attenuation of primary and
 * secondary colour. Colour = fragment primary + secondary.
 *
 * The colour buffer is PICA_LIT_W x PICA_LIT_H as stored (the 3DS's
 * portrait layout of the 320x240 screen). Texture coordinate s spans
 * 0..0.75 (48 texels over 240 pixels) and t 0..1 (64 texels over 320),
 * 5 pixels a texel both ways, so no pixel centre falls on a texel edge.
 */
#define PICA_LIT_W 240u
#define PICA_LIT_H 320u
#define PICA_LIT_MAP 64u
#define PICA_LIT_SHADOW_VRAM 0x1A0000u      /* 64 x 64 RGBA8 (D24 + intensity) */
#define PICA_LIT_NORMAL_VRAM 0x1A4000u      /* 64 x 64 RGBA8 */
#define PICA_LIT_MAP_BYTES (PICA_LIT_MAP * PICA_LIT_MAP * 4u)
#define PICA_LIT_S_MAX 0.75f
/* the two occluders in shadow-map texels: [x0, x1) x [y0, y1), y up */
static const uint8_t pica_lit_occluders[2][4] = {
    { 6, 22, 10, 38 }, { 26, 42, 40, 52 },
};
#define PICA_LIT_OCC_DEPTH 0.25f            /* the occluders' window depth */
#define PICA_LIT_RECV_DEPTH 0.5f            /* the receiver's, in tc0.w */

/* a receiver vertex: five float4 attributes, 80 bytes */
typedef struct PicaLitVertex {
    float pos[4], quat[4], view[4], tc0[4], tc1[4];
} PicaLitVertex;

/* the receiver (a strip: (-1,-1), (1,-1), (-1,1), (1,1)); every attribute
 * affine in the position, so two triangles interpolate it exactly */
static inline void pica_lit_receiver(PicaLitVertex v[4])
{
    /* sin and cos of 0.15 (half of the 0.3 radians the normal turns) */
    const float sh = 0.149438132f, ch = 0.988771078f;
    int i, k;

    for (i = 0; i < 4; i++) {
        float x = i & 1 ? 1.0f : -1.0f, y = i & 2 ? 1.0f : -1.0f;

        for (k = 0; k < 4; k++) {
            v[i].quat[k] = v[i].tc0[k] = v[i].tc1[k] = 0;
        }
        v[i].pos[0] = x;
        v[i].pos[1] = y;
        v[i].pos[2] = -PICA_LIT_RECV_DEPTH;
        v[i].pos[3] = 1;
        v[i].quat[1] = x * sh;
        v[i].quat[3] = ch;
        v[i].view[0] = -x;
        v[i].view[1] = -y;
        v[i].view[2] = 2;
        v[i].view[3] = 0;
        v[i].tc0[0] = v[i].tc1[0] = i & 1 ? PICA_LIT_S_MAX : 0;
        v[i].tc0[1] = v[i].tc1[1] = i & 2 ? 1.0f : 0;
        v[i].tc0[2] = PICA_LIT_RECV_DEPTH;  /* texcoord0.w: the depth */
    }
}

/* the occluders: two strips of position + colour (black), 8 floats each */
static inline void pica_lit_occluder_vertices(float v[8][8])
{
    int r, i, k;

    for (r = 0; r < 2; r++) {
        for (i = 0; i < 4; i++) {
            float *p = v[4 * r + i];
            const uint8_t *o = pica_lit_occluders[r];

            p[0] = (float)o[i & 1 ? 1 : 0] / 32.0f - 1.0f;
            p[1] = (float)o[i & 2 ? 3 : 2] / 32.0f - 1.0f;
            p[2] = -PICA_LIT_OCC_DEPTH;
            p[3] = 1;
            for (k = 4; k < 7; k++) {
                p[k] = 0;
            }
            p[7] = 1;
        }
    }
}

/* normal-map texel (x, t), t from the bottom: x and y of the normal from
 * triangle waves (period 16 and 12 texels, amplitude 0.45) as
 * (n + 1) * 127.5; z is rebuilt by the GPU */
static inline void pica_lit_normal_texel(unsigned x, unsigned t, uint8_t c[4])
{
    int ax = (int)(x % 16) - 8, at = (int)(t % 12) - 6;
    float nx = 0.45f * (float)((ax < 0 ? -ax : ax) - 4) / 4.0f;
    float ny = 0.45f * (float)((at < 0 ? -at : at) - 3) / 3.0f;

    c[0] = (uint8_t)((nx + 1.0f) * 127.5f + 0.5f);
    c[1] = (uint8_t)((ny + 1.0f) * 127.5f + 0.5f);
    c[2] = 255;
    c[3] = 255;
}

/* the normal map as the GPU reads it: tiled RGBA8 (bytes A, B, G, R),
 * texel row t in memory row 63 - t */
static inline void pica_lit_normal_map(uint8_t *dst)
{
    unsigned x, t, k;
    uint8_t c[4];

    for (t = 0; t < PICA_LIT_MAP; t++) {
        for (x = 0; x < PICA_LIT_MAP; x++) {
            uint8_t *p = dst + pica_tiled_offset(x, PICA_LIT_MAP - 1 - t,
                                                 PICA_LIT_MAP, 4);
            pica_lit_normal_texel(x, t, c);
            for (k = 0; k < 4; k++) {
                p[k] = c[3 - k];
            }
        }
    }
}

/* LUT entries: value / 4095 in b0-11, difference to the next / 2047 in
 * b12-22 (both non-negative here); D0 = max(x, 0)^16 and RR = 0.5 + 0.5 x
 * over the signed input x = i / 128 (i as int8) */
static inline uint32_t pica_lit_lut(int rr, unsigned i)
{
    double x0 = (double)(int8_t)i / 128.0, x1 = x0 + 1.0 / 128.0, v0, v1;
    int k, a, d;

    if (rr) {
        v0 = 0.5 + 0.5 * x0;
        v1 = v0 + 0.5 / 128.0;
    } else {
        v0 = x0 > 0 ? x0 : 0;
        v1 = x1 > 0 ? x1 : 0;
        for (k = 0; k < 4; k++) {
            v0 *= v0;
            v1 *= v1;
        }
    }
    a = (int)(v0 * 4095 + 0.5);
    d = rr ? (int)(0.5 / 128.0 * 2047 + 0.5)
           : (int)(((int)(v1 * 4095 + 0.5) - a) * 2047.0 / 4095 + 0.5);
    return (uint32_t)a | (uint32_t)d << 12;
}

/* the lighting registers of the lit pass (id, value); light vectors from
 * pica_lit_light_vectors */
#define PICA_LIT_CONFIG0                                                    \
    (8u << 4 | 1u | 1u << 16 | 1u << 17 | 0u << 24 |   /* shadow: unit 0 */  \
     (uint32_t)PICA_BUMP_NORMAL << 28 | 1u << 22)      /* bump: unit 1 */
static const struct { uint16_t id; uint32_t v; } pica_lit_regs[] = {
    { GPUREG_LIGHTING_ENABLE0, 1 },
    { GPUREG_LIGHTING_ENABLE1, 0 },
    { GPUREG_LIGHTING_NUM_LIGHTS, 1 },
    { GPUREG_LIGHTING_LIGHT_PERMUTATION, 0x20 },        /* lights 0 and 2 */
    { GPUREG_LIGHTING_AMBIENT, PICA_LIGHT_COLOR(24, 20, 28) },
    { GPUREG_LIGHTING_CONFIG0, PICA_LIT_CONFIG0 },
    /* D0 and RR used; per light shadow on, spot and distance off */
    { GPUREG_LIGHTING_CONFIG1, 0xFFFFFF00u & ~(1u << 16) & ~(1u << 22) },
    { GPUREG_LIGHTING_LUTINPUT_ABS, 0 },
    { GPUREG_LIGHTING_LUTINPUT_SELECT, PICA_LUTIN_NH | PICA_LUTIN_NV << 24 },
    { GPUREG_LIGHTING_LUTINPUT_SCALE, 0 },
    { 0x140 + PICA_LIGHT_SPECULAR0, PICA_LIGHT_COLOR(180, 180, 170) },
    { 0x140 + PICA_LIGHT_DIFFUSE, PICA_LIGHT_COLOR(130, 135, 150) },
    { 0x140 + PICA_LIGHT_AMBIENT, PICA_LIGHT_COLOR(10, 10, 10) },
    { 0x140 + PICA_LIGHT_CONFIG, 1 },                   /* directional */
    { 0x160 + PICA_LIGHT_SPECULAR0, PICA_LIGHT_COLOR(70, 30, 10) },
    { 0x160 + PICA_LIGHT_DIFFUSE, PICA_LIGHT_COLOR(90, 25, 15) },
    { 0x160 + PICA_LIGHT_CONFIG, 2 | 4 },               /* two-sided, geometric */
};
#define PICA_LIT_NREGS (sizeof(pica_lit_regs) / sizeof(pica_lit_regs[0]))

/* light 0 from the upper left, light 2 in front (float1.5.10 pairs) */
static inline void pica_lit_light_vectors(uint32_t v[4])
{
    v[0] = pica_to_f16(-0.5f) | pica_to_f16(0.5f) << 16;   /* 0x144 */
    v[1] = pica_to_f16(0.7f);                              /* 0x145 */
    v[2] = pica_to_f16(0.25f) | pica_to_f16(-0.5f) << 16;  /* 0x164 */
    v[3] = pica_to_f16(1.5f);                              /* 0x165 */
}

/* the receiver's shader: mov o0-o4, v0-v4 (position, quaternion, view,
 * texcoord 0 with texcoord0.w in z, texcoord 1), five float4 attributes at
 * vb_pa */
static inline void pica_lit_shader(PicaCmd *c, uint32_t vb_pa)
{
    static const uint32_t outmap[5] = {
        0x03020100, 0x07060504, 0x1F141312, 0x1F100D0C, 0x1F1F0F0E,
    };

    pica_cmd_shader_mov(c, vb_pa, 5, outmap);
}

/* pass 1: the occluders' depth into the shadow map at map_pa */
static inline void pica_lit_shadow_list(PicaCmd *c, uint32_t map_pa,
                                        uint32_t occ_vb_pa)
{
    pica_cmd_basic_scene(c, PICA_LIT_MAP, PICA_LIT_MAP, map_pa,
                         PICA_COLORFMT_RGBA8, occ_vb_pa);
    pica_cmd_regm(c, GPUREG_COLOR_OPERATION, 0x1, 3);   /* shadow mode */
    pica_cmd_draw(c, PICA_TOPOLOGY_STRIP, 4, 0, 0, 0);
    pica_cmd_draw(c, PICA_TOPOLOGY_STRIP, 4, 4, 0, 0);
    pica_cmd_regm(c, GPUREG_COLOR_OPERATION, 0x1, 0);
    pica_cmd_finalize(c);
}

/* pass 2: the lit receiver into the colour buffer at color_pa */
static inline void pica_lit_list(PicaCmd *c, uint32_t color_pa, uint32_t vb_pa,
                                 uint32_t map_pa, uint32_t normal_pa)
{
    uint32_t lv[4], lut[256];
    unsigned i, k;

    pica_lit_shader(c, vb_pa);
    pica_cmd_viewport(c, PICA_LIT_W, PICA_LIT_H, 0, 0);
    pica_cmd_target(c, PICA_LIT_W, PICA_LIT_H, color_pa, PICA_COLORFMT_RGBA8,
                    0, 0);
    pica_cmd_fragment(c, 0, PICA_CMP_ALWAYS, 0);
    /* unit 0: the shadow map (orthographic, no bias); unit 1: normals */
    pica_cmd_reg(c, PICA_TEXUNIT_BASE(0) + PICA_TEXUNIT_DIM,
                 PICA_LIT_MAP | PICA_LIT_MAP << 16);
    pica_cmd_reg(c, PICA_TEXUNIT_BASE(0) + PICA_TEXUNIT_PARAM,
                 (uint32_t)PICA_TEXTYPE_SHADOW_2D << 28);
    pica_cmd_reg(c, PICA_TEXUNIT_BASE(0) + PICA_TEXUNIT_LOD, 0);
    pica_cmd_reg(c, PICA_TEXUNIT_BASE(0) + PICA_TEXUNIT_ADDR, map_pa >> 3);
    pica_cmd_reg(c, GPUREG_TEXUNIT0_SHADOW, 1);
    pica_cmd_reg(c, PICA_TEXUNIT_TYPE_REG(0), PICA_TEXFMT_RGBA8);
    pica_cmd_reg(c, PICA_TEXUNIT_BASE(1) + PICA_TEXUNIT_DIM,
                 PICA_LIT_MAP | PICA_LIT_MAP << 16);
    pica_cmd_reg(c, PICA_TEXUNIT_BASE(1) + PICA_TEXUNIT_PARAM, 0);
    pica_cmd_reg(c, PICA_TEXUNIT_BASE(1) + PICA_TEXUNIT_LOD, 0);
    pica_cmd_reg(c, PICA_TEXUNIT_BASE(1) + PICA_TEXUNIT_ADDR, normal_pa >> 3);
    pica_cmd_reg(c, PICA_TEXUNIT_TYPE_REG(1), PICA_TEXFMT_RGBA8);
    pica_cmd_regm(c, GPUREG_TEXUNIT_CONFIG, 0xB, 3 | 1u << 12);
    /* stage 0: fragment primary + secondary, alpha primary */
    pica_cmd_reg(c, PICA_TEXENV_BASE(0),
                 PICA_TEVSRC_FRAG_PRIMARY | PICA_TEVSRC_FRAG_SECONDARY << 4 |
                 PICA_TEVSRC_FRAG_PRIMARY << 16);
    pica_cmd_reg(c, PICA_TEXENV_BASE(0) + 2, PICA_TEVOP_ADD);
    for (k = 1; k < 6; k++) {
        pica_cmd_reg(c, PICA_TEXENV_BASE(k), PICA_TEVSRC_PREVIOUS * 0x10001u);
        pica_cmd_reg(c, PICA_TEXENV_BASE(k) + 2, 0);
    }
    for (i = 0; i < PICA_LIT_NREGS; i++) {
        pica_cmd_reg(c, pica_lit_regs[i].id, pica_lit_regs[i].v);
    }
    pica_lit_light_vectors(lv);
    pica_cmd_reg(c, 0x144, lv[0]);
    pica_cmd_reg(c, 0x145, lv[1]);
    pica_cmd_reg(c, 0x164, lv[2]);
    pica_cmd_reg(c, 0x165, lv[3]);
    for (k = 0; k < 2; k++) {
        for (i = 0; i < 256; i++) {
            lut[i] = pica_lit_lut((int)k, i);
        }
        pica_cmd_reg(c, GPUREG_LIGHTING_LUT_INDEX,
                     (k ? PICA_LIGHT_LUT_RR : PICA_LIGHT_LUT_D0) << 8);
        pica_cmd(c, GPUREG_LIGHTING_LUT_DATA0, 0xF, 0, lut, 256);
    }
    pica_cmd_draw(c, PICA_TOPOLOGY_STRIP, 4, 0, 0, 0);
    /* lighting, textures and stage 0 as after reset, for the cube's lists */
    pica_cmd_reg(c, GPUREG_LIGHTING_ENABLE0, 0);
    pica_cmd_regm(c, GPUREG_TEXUNIT_CONFIG, 0xB, 1u << 12);
    pica_cmd_reg(c, PICA_TEXENV_BASE(0), 0);
    pica_cmd_reg(c, PICA_TEXENV_BASE(0) + 2, 0);
    pica_cmd_finalize(c);
}

/*
 * The lit scene: the shadow map filled with 0xFF (depth 1.0, intensity
 * 255) by a memory fill, pass 1, then pass 2 into color_pa. The normal map
 * must already be at normal_pa, the vertices at vb_pa / occ_vb_pa.
 */
static inline int pica_lit_draw(const PicaBus *b, PicaCmd *c, uint32_t list_pa,
                                uint32_t color_pa, uint32_t vb_pa,
                                uint32_t occ_vb_pa, uint32_t map_pa,
                                uint32_t normal_pa)
{
    PicaRegWrite w[4];
    uint32_t ctl = PICA_PSC_BASE(0) + PICA_PSC_CONTROL;

    pica_bus_seq(b, w, pica_seq_fill(w, 0, map_pa, map_pa + PICA_LIT_MAP_BYTES,
                                     0xFFFFFFFFu, 2));
    if (pica_bus_wait(b, ctl, R_PSC0_CONTROL_START_MASK |
                      R_PSC0_CONTROL_FINISHED_MASK,
                      R_PSC0_CONTROL_FINISHED_MASK, PICA_SCENE_TRIES)) {
        return -1;
    }
    b->wr(b->opaque, ctl, 2u << 8);
    c->n = 0;
    pica_lit_shadow_list(c, map_pa, occ_vb_pa);
    if (pica_scene_run(b, c, list_pa)) {
        return -1;
    }
    c->n = 0;
    pica_lit_list(c, color_pa, vb_pa, map_pa, normal_pa);
    return pica_scene_run(b, c, list_pa);
}

#endif
