/*
 * The framebuffer block (reference "Framebuffer registers" 0x100-0x13F,
 * 3dbrew GPU/Internal Registers 0x100-0x130; Citra): colour and depth/stencil
 * buffers in 8x8-tiled Morton order, rows stored top first (ym = H - 1 - y),
 * and the per-fragment operations in Citra's order: combiners, alpha test,
 * stencil test, depth test (stencil op by result), blend or logic op, channel
 * write mask.
 *
 * Colour channels are reduced to the buffer's bits by truncation and
 * expanded by bit replication (Citra); blending is 8-bit integer,
 * (src * sf + dst * df) / 255, clamped.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "pica200-int.h"
#include "texlanes8.h"

#include <math.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "common/fill.h"
#include "common/formats.h"
#include "common/fragment.h"

/* ---- pixel formats (PICA_PIXFMT_*, also used by the PPF and PDC) -------- */

static const G3DPixFmt pixfmt_g3d[5] = {
    [PICA_PIXFMT_RGBA8] = G3D_FMT_RGBA8888,   /* bytes A, B, G, R */
    [PICA_PIXFMT_RGB8] = G3D_FMT_BGR888_B,    /* bytes B, G, R */
    [PICA_PIXFMT_RGB565] = G3D_FMT_RGB565,
    [PICA_PIXFMT_RGB5A1] = G3D_FMT_RGBA5551,
    [PICA_PIXFMT_RGBA4] = G3D_FMT_RGBA4444,
};

int pica_pixfmt_bpp(unsigned fmt)
{
    return fmt < 5 ? g3d_fmt_bpp(pixfmt_g3d[fmt]) : 0;
}

G3DPixFmt pica_pixfmt_to_g3d(unsigned fmt)
{
    return fmt < 5 ? pixfmt_g3d[fmt] : G3D_FMT_INVALID;
}

void pica_pixel_decode(unsigned fmt, const uint8_t *p, uint8_t rgba[4])
{
    G3DRGBA8 c = g3d_fmt_unpack(pixfmt_g3d[fmt], p);

    rgba[0] = c.r;
    rgba[1] = c.g;
    rgba[2] = c.b;
    rgba[3] = fmt == PICA_PIXFMT_RGB8 || fmt == PICA_PIXFMT_RGB565 ? 255 : c.a;
}

void pica_pixel_encode(unsigned fmt, uint8_t *p, const uint8_t c[4])
{
    uint16_t v;

    switch (fmt) {
    case PICA_PIXFMT_RGBA8:
        p[0] = c[3];
        p[1] = c[2];
        p[2] = c[1];
        p[3] = c[0];
        return;
    case PICA_PIXFMT_RGB8:
        p[0] = c[2];
        p[1] = c[1];
        p[2] = c[0];
        return;
    case PICA_PIXFMT_RGB565:
        v = (c[0] >> 3) << 11 | (c[1] >> 2) << 5 | c[2] >> 3;
        break;
    case PICA_PIXFMT_RGB5A1:
        v = (c[0] >> 3) << 11 | (c[1] >> 3) << 6 | (c[2] >> 3) << 1 | c[3] >> 7;
        break;
    default:
        v = (c[0] >> 4) << 12 | (c[1] >> 4) << 8 | (c[2] >> 4) << 4 | c[3] >> 4;
        break;
    }
    p[0] = v;
    p[1] = v >> 8;
}

/* ---- the render state snapshot ------------------------------------------------ */

/* PICA compare codes (never, always, eq, ne, lt, le, gt, ge) */
static const uint8_t pica_cmp[8] = {
    G3D_CMP_NEVER, G3D_CMP_ALWAYS, G3D_CMP_EQUAL, G3D_CMP_NOTEQUAL,
    G3D_CMP_LESS, G3D_CMP_LEQUAL, G3D_CMP_GREATER, G3D_CMP_GEQUAL,
};

/* reference L1748-1771 logic op order -> g3d_logic_op's GL order */
static const uint8_t pica_logic[16] = {
    0, 1, 2, 3, 15, 12, 5, 10, 14, 7, 8, 6, 9, 4, 11, 13,
};

/* COLORBUFFER_FORMAT b16-18 -> PICA_PIXFMT_* (RGB565 and RGB5A1 swapped) */
static const int8_t colorbuf_pixfmt[8] = {
    PICA_PIXFMT_RGBA8, PICA_PIXFMT_RGB8, PICA_PIXFMT_RGB5A1,
    PICA_PIXFMT_RGB565, PICA_PIXFMT_RGBA4, -1, -1, -1,
};

/* the whole buffer at LOC (paddr >> 3, b0-27), or NULL with a message */
static uint8_t *map_buffer(Pica200Core *c, const PicaRenderState *rs,
                           uint32_t loc, unsigned bpp, const char *what)
{
    uint64_t addr = (uint64_t)(loc & 0x0FFFFFFF) << 3;
    uint64_t size = (uint64_t)rs->width * rs->height * bpp;
    uint8_t *p = pica_mem_map(c, addr, size, true);

    if (!p) {
        g3d_guest_error("pica200: %s buffer 0x%" G_GINT64_MODIFIER "x + 0x%"
                        G_GINT64_MODIFIER "x is outside memory; drawing "
                        "skipped", what, addr, size);
    }
    return p;
}

/* ---- the render-state snapshot, stage by stage ---------------------------- */

/* framebuffer size and the colour buffer */
static bool build_target(Pica200Core *c, PicaRenderState *rs)
{
    const uint32_t *r = c->regs;
    uint32_t dim = r[GPUREG_FRAMEBUFFER_DIM];
    uint32_t cfmt = G3D_FIELD_EX32(r[GPUREG_COLORBUFFER_FORMAT],
                                   GPUREG_COLORBUFFER_FORMAT, FORMAT);

    rs->width = G3D_FIELD_EX32(dim, GPUREG_FRAMEBUFFER_DIM, WIDTH);
    rs->height = G3D_FIELD_EX32(dim, GPUREG_FRAMEBUFFER_DIM, HEIGHT_M1) + 1;
    if (rs->width == 0 || (rs->width & 7) || (rs->height & 7)) {
        g3d_guest_error("pica200: framebuffer %ux%u is not a whole number of "
                        "8x8 tiles; drawing skipped", rs->width, rs->height);
        return false;
    }
    if (r[GPUREG_FRAMEBUFFER_BLOCK32] & 1) {
        g3d_unimp_once(&c->errors, PICA_UNIMP_BLOCK32,
                       "32x32 block framebuffers (drawn as 8x8 tiles) not "
                       "modelled");
    }
    if (colorbuf_pixfmt[cfmt] < 0) {
        g3d_guest_error("pica200: colour buffer format %u is undefined; "
                        "drawing skipped", cfmt);
        return false;
    }
    rs->color_fmt = colorbuf_pixfmt[cfmt];
    rs->color_bpp = pica_pixfmt_bpp(rs->color_fmt);
    rs->color = map_buffer(c, rs, r[GPUREG_COLORBUFFER_LOC], rs->color_bpp,
                           "colour");
    if (!rs->color) {
        return false;
    }
    return true;
}

static void build_scissor(Pica200Core *c, PicaRenderState *rs)
{
    const uint32_t *r = c->regs;

    rs->scissor = (G3DRect){ 0, 0, (int32_t)rs->width, (int32_t)rs->height };
    switch (r[GPUREG_SCISSORTEST_MODE] & 3) {
    case 1:
    case 3: {
        G3DRect box = {
            G3D_FIELD_EX32(r[GPUREG_SCISSORTEST_POS], GPUREG_SCISSORTEST_POS, X1),
            (int32_t)rs->height - 1 -
                (int32_t)G3D_FIELD_EX32(r[GPUREG_SCISSORTEST_DIM], GPUREG_SCISSORTEST_DIM, Y2),
            G3D_FIELD_EX32(r[GPUREG_SCISSORTEST_DIM], GPUREG_SCISSORTEST_DIM, X2) + 1,
            (int32_t)rs->height -
                (int32_t)G3D_FIELD_EX32(r[GPUREG_SCISSORTEST_POS], GPUREG_SCISSORTEST_POS, Y1),
        };
        if ((r[GPUREG_SCISSORTEST_MODE] & 3) == 3) {
            rs->scissor.x0 = MAX(box.x0, 0);
            rs->scissor.y0 = MAX(box.y0, 0);
            rs->scissor.x1 = MIN(box.x1, (int32_t)rs->width);
            rs->scissor.y1 = MIN(box.y1, (int32_t)rs->height);
        } else {
            /* inverted: drop what is inside (tested per fragment) */
            rs->scissor_inverted = true;
            rs->scissor = (G3DRect){ 0, 0, (int32_t)rs->width, (int32_t)rs->height };
            rs->inv_box = box;
        }
        break;
    }
    }
}

/* texture combiners, lighting, texture units and fog */
static void build_textures(Pica200Core *c, PicaRenderState *rs)
{
    pica_texenv_setup(c, &rs->tev);
    if (rs->tev.uses_frag && pica_lighting_on(c)) {
        rs->light = g3d_raster_alloc(c->raster, sizeof(PicaLighting));
        pica_lighting_setup(c, rs->light);
        /* the bump and shadow maps are sampled even if no combiner reads them */
        if (rs->light->bump_mode != PICA_BUMP_NONE) {
            rs->tev.uses_tex |= 1u << rs->light->bump_unit;
        }
        if (rs->light->shadow_on) {
            rs->tev.uses_tex |= 1u << rs->light->shadow_unit;
        }
    }
    if (!rs->tev.passthrough) {
        pica_texunit_setup(c, &rs->tev, &rs->tex);
    }
    pica_fog_setup(c, &rs->fog);
}

/* depth map, alpha, stencil and depth tests, write masks */
static void build_depth(Pica200Core *c, PicaRenderState *rs)
{
    const uint32_t *r = c->regs;
    uint32_t mask = r[GPUREG_DEPTH_COLOR_MASK];
    uint32_t at = r[GPUREG_FRAGOP_ALPHA_TEST], st = r[GPUREG_STENCIL_TEST];
    uint32_t sop = r[GPUREG_STENCIL_OP];

    rs->depth_scale = pica_f24_to_float(r[GPUREG_DEPTHMAP_SCALE]);
    rs->depth_offset = pica_f24_to_float(r[GPUREG_DEPTHMAP_OFFSET]);
    rs->wbuffer = !(r[GPUREG_DEPTHMAP_ENABLE] & 1);

    rs->alpha_test = G3D_FIELD_EX32(at, GPUREG_FRAGOP_ALPHA_TEST, ENABLE);
    rs->alpha_func = pica_cmp[G3D_FIELD_EX32(at, GPUREG_FRAGOP_ALPHA_TEST, FUNC)];
    rs->alpha_ref = G3D_FIELD_EX32(at, GPUREG_FRAGOP_ALPHA_TEST, REF);

    rs->depth_fmt = r[GPUREG_DEPTHBUFFER_FORMAT] & 3;
    rs->stencil_test = G3D_FIELD_EX32(st, GPUREG_STENCIL_TEST, ENABLE) &&
                       rs->depth_fmt == PICA_DEPTH_D24S8;
    rs->stencil_func = pica_cmp[G3D_FIELD_EX32(st, GPUREG_STENCIL_TEST, FUNC)];
    rs->stencil_write_mask = G3D_FIELD_EX32(st, GPUREG_STENCIL_TEST, WRITE_MASK);
    rs->stencil_ref = G3D_FIELD_EX32(st, GPUREG_STENCIL_TEST, REF);
    rs->stencil_mask = G3D_FIELD_EX32(st, GPUREG_STENCIL_TEST, MASK);
    rs->stencil_op[0] = G3D_FIELD_EX32(sop, GPUREG_STENCIL_OP, FAIL);
    rs->stencil_op[1] = G3D_FIELD_EX32(sop, GPUREG_STENCIL_OP, ZFAIL);
    rs->stencil_op[2] = G3D_FIELD_EX32(sop, GPUREG_STENCIL_OP, ZPASS);

    /* "test off" still writes, as function ALWAYS (reference L1799) */
    rs->depth_func = G3D_FIELD_EX32(mask, GPUREG_DEPTH_COLOR_MASK, DEPTH_TEST)
                     ? pica_cmp[G3D_FIELD_EX32(mask, GPUREG_DEPTH_COLOR_MASK, DEPTH_FUNC)]
                     : G3D_CMP_ALWAYS;
    rs->depth_write = G3D_FIELD_EX32(mask, GPUREG_DEPTH_COLOR_MASK, DEPTH_WRITE) &&
                      (r[GPUREG_DEPTHBUFFER_WRITE] & 2);
    if (!(r[GPUREG_DEPTHBUFFER_WRITE] & 1)) {
        rs->stencil_write_mask = 0;
    }
    rs->color_write = (r[GPUREG_COLORBUFFER_WRITE] & 0xF) != 0;
    rs->rgba_mask = G3D_FIELD_EX32(mask, GPUREG_DEPTH_COLOR_MASK, RGBA_WRITE);
}

static void build_blend(Pica200Core *c, PicaRenderState *rs)
{
    const uint32_t *r = c->regs;
    uint32_t bf = r[GPUREG_BLEND_FUNC];
    int i;

    rs->blend = G3D_FIELD_EX32(r[GPUREG_COLOR_OPERATION], GPUREG_COLOR_OPERATION, BLEND);
    rs->eq_rgb = G3D_FIELD_EX32(bf, GPUREG_BLEND_FUNC, EQ_RGB);
    rs->eq_a = G3D_FIELD_EX32(bf, GPUREG_BLEND_FUNC, EQ_ALPHA);
    rs->sf_rgb = G3D_FIELD_EX32(bf, GPUREG_BLEND_FUNC, SRC_RGB);
    rs->df_rgb = G3D_FIELD_EX32(bf, GPUREG_BLEND_FUNC, DST_RGB);
    rs->sf_a = G3D_FIELD_EX32(bf, GPUREG_BLEND_FUNC, SRC_ALPHA);
    rs->df_a = G3D_FIELD_EX32(bf, GPUREG_BLEND_FUNC, DST_ALPHA);
    for (i = 0; i < 4; i++) {
        rs->blend_color[i] = r[GPUREG_BLEND_COLOR] >> (8 * i);
    }
    rs->logic_op = pica_logic[r[GPUREG_LOGIC_OP] & 0xF];
    /* add(src * ONE, dst * ZERO) with every channel written, or logic COPY */
    rs->replace = rs->rgba_mask == 0xF &&
                  (rs->blend ? (rs->eq_rgb == 0 && rs->eq_a == 0 &&
                                rs->sf_rgb == 1 && rs->sf_a == 1 &&
                                rs->df_rgb == 0 && rs->df_a == 0)
                             : rs->logic_op == 3);
}

/* the fragment operation mode; *shadow: shadow rendering, nothing else */
static bool build_fragment_mode(Pica200Core *c, PicaRenderState *rs,
                                bool *shadow)
{
    const uint32_t *r = c->regs;
    uint32_t cfmt = G3D_FIELD_EX32(r[GPUREG_COLORBUFFER_FORMAT],
                                   GPUREG_COLORBUFFER_FORMAT, FORMAT);

    switch (G3D_FIELD_EX32(r[GPUREG_COLOR_OPERATION], GPUREG_COLOR_OPERATION,
                           FRAGMENT_MODE)) {
    case 1:
        g3d_unimp_once(&c->errors, PICA_UNIMP_GAS,
                       "gas fragment mode (drawn as default) not modelled");
        break;
    case 3:
        /* the shadow map is the colour buffer, 32 bits a texel */
        if (rs->color_bpp != 4) {
            g3d_guest_error("pica200: shadow rendering into a colour buffer "
                            "of format %u (not 32-bit); drawing skipped", cfmt);
            return false;
        }
        rs->shadow_mode = true;
        rs->shadow_constant = g3d_float_unpack(r[GPUREG_FRAGOP_SHADOW] & 0xFFFF,
                                               &pica_f16);
        rs->shadow_linear = g3d_float_unpack(r[GPUREG_FRAGOP_SHADOW] >> 16,
                                             &pica_f16);
        /* nothing but the shadow map is read or written */
        *shadow = true;
        return true;
    case 2:
        g3d_guest_error("pica200: fragment operation mode 2 is undefined; "
                        "drawn as the default mode");
        break;
    }
    if ((r[GPUREG_EARLYDEPTH_TEST1] | r[GPUREG_EARLYDEPTH_TEST2]) & 1) {
        /* the normal depth test gives the same picture (3dbrew GPU/Internal
         * Registers 0x061-0x06E) */
        g3d_unimp_once(&c->errors, PICA_UNIMP_EARLYDEPTH,
                       "early depth test (the depth test stands in for it) "
                       "not modelled");
    }
    return true;
}

/* the depth buffer, when a test or a write needs it */
static bool build_depth_buffer(Pica200Core *c, PicaRenderState *rs)
{
    const uint32_t *r = c->regs;
    bool need_depth;

    need_depth = rs->depth_func != G3D_CMP_ALWAYS || rs->depth_write ||
                 rs->stencil_test;
    if (need_depth) {
        static const uint8_t dbpp[4] = { 2, 0, 3, 4 };
        rs->depth_bpp = dbpp[rs->depth_fmt];
        if (!rs->depth_bpp) {
            g3d_guest_error("pica200: depth buffer format 1 is undefined; "
                            "drawing skipped");
            return false;
        }
        rs->depth = map_buffer(c, rs, r[GPUREG_DEPTHBUFFER_LOC],
                               rs->depth_bpp, "depth");
        if (!rs->depth) {
            return false;
        }
    }
    return true;
}

static bool build(Pica200Core *c, PicaRenderState *rs)
{
    bool shadow = false;

    memset(rs, 0, sizeof(*rs));
    if (!build_target(c, rs)) {
        return false;
    }
    build_scissor(c, rs);
    build_textures(c, rs);
    build_depth(c, rs);
    build_blend(c, rs);
    if (!build_fragment_mode(c, rs, &shadow)) {
        return false;
    }
    return shadow || build_depth_buffer(c, rs);
}

static G3DQuadFn *choose_shade(PicaRenderState *rs);
static bool tile_order_shows(const PicaRenderState *rs);

/*
 * Snapshots live in the rasteriser's arena until the next flush; a list
 * that changes state before every triangle (with the lighting LUTs, 24 KiB
 * a snapshot) would grow it without bound, so past this much it flushes.
 */
#define PICA_STATE_BYTES_MAX (8u << 20)

PicaRenderState *pica_render_state(Pica200Core *c)
{
    if (c->rs && !c->rs_dirty) {
        return c->rs;
    }
    if (c->state_bytes > PICA_STATE_BYTES_MAX) {
        pica_raster_flush(c);
    }
    c->rs = g3d_raster_alloc(c->raster, sizeof(PicaRenderState));
    c->rs_dirty = false;
    if (!build(c, c->rs)) {
        c->rs->color = NULL;          /* every triangle of this state is skipped */
    }
    c->rs->shade = choose_shade(c->rs);
    c->rs->serial_tiles = tile_order_shows(c->rs);
    c->state_bytes += sizeof(PicaRenderState) +
                      (c->rs->light ? sizeof(PicaLighting) : 0) +
                      (c->rs->tex.proctex ? sizeof(PicaProcTex) : 0);
    return c->rs;
}

/* ---- per-fragment operations ------------------------------------------------ */

/* blend factor `f` (PICA code) for channel ch (3 = alpha) */
static int blend_factor(unsigned f, int ch, const uint8_t *s, const uint8_t *d,
                        const uint8_t *k)
{
    switch (f) {
    case 0: return 0;
    case 1: return 255;
    case 2: return s[ch];
    case 3: return 255 - s[ch];
    case 4: return d[ch];
    case 5: return 255 - d[ch];
    case 6: return s[3];
    case 7: return 255 - s[3];
    case 8: return d[3];
    case 9: return 255 - d[3];
    case 10: return k[ch];
    case 11: return 255 - k[ch];
    case 12: return k[3];
    case 13: return 255 - k[3];
    case 14: return ch == 3 ? 255 : MIN(s[3], 255 - d[3]);  /* saturate */
    default: return 0;
    }
}

static uint8_t blend_channel(unsigned eq, int s, int sf, int d, int df)
{
    int r;

    switch (eq) {
    case 1: r = (s * sf - d * df) / 255; break;
    case 2: r = (d * df - s * sf) / 255; break;
    case 3: r = MIN(s, d); break;     /* min/max ignore the factors (Citra) */
    case 4: r = MAX(s, d); break;
    default: r = (s * sf + d * df) / 255; break;   /* 0 and 5-7: add */
    }
    return r < 0 ? 0 : r > 255 ? 255 : r;
}

static uint32_t depth_load(const PicaRenderState *rs, const uint8_t *p)
{
    switch (rs->depth_bpp) {
    case 2: return p[0] | p[1] << 8;
    case 3: return p[0] | p[1] << 8 | p[2] << 16;
    default: return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
    }
}

static void depth_store(const PicaRenderState *rs, uint8_t *p, uint32_t v)
{
    p[0] = v;
    p[1] = v >> 8;
    if (rs->depth_bpp >= 3) {
        p[2] = v >> 16;
    }
    if (rs->depth_bpp == 4) {
        p[3] = v >> 24;
    }
}

static void stencil_update(const PicaRenderState *rs, uint8_t *p,
                           uint32_t stored, unsigned op)
{
    uint8_t old = stored >> 24;
    uint8_t nv = g3d_stencil_op((G3DStencilOp)op, old, rs->stencil_ref);
    uint8_t m = rs->stencil_write_mask;

    nv = (old & ~m) | (nv & m);
    p[3] = nv;
}

/* float1.5.10 rounding: the shadow unit computes in it (Citra) */
static inline float q16(float f)
{
    return g3d_float_unpack(g3d_float_pack(f, &pica_f16), &pica_f16);
}

/*
 * Shadow rendering (Citra, sw_framebuffer.cpp DrawShadowMapPixel): a texel
 * holds a 24-bit depth big-endian in bytes 0-2 and an 8-bit intensity in
 * byte 3. A nearer fragment with intensity 0 (the combiner output's green)
 * writes its depth; with intensity s it writes the penumbra value
 * s / (constant + linear * depth / stored depth), in float1.5.10 steps,
 * when that is below the stored intensity.
 */
static void shadow_write(const PicaRenderState *rs, uint8_t *p, float depth,
                         uint8_t s)
{
    uint32_t z = (uint32_t)(depth * (float)0xFFFFFF);
    uint32_t ref_z = (uint32_t)p[0] << 16 | p[1] << 8 | p[2];
    float v;

    if (z >= ref_z) {
        return;
    }
    if (s == 0) {
        p[0] = z >> 16;
        p[1] = z >> 8;
        p[2] = z;
        return;
    }
    v = q16((float)z / (float)ref_z);
    v = q16(s / q16(rs->shadow_constant + q16(rs->shadow_linear * v)));
    v = v > 0.0f ? MIN(v, 255.0f) : 0.0f;   /* NaN to 0 */
    if ((uint8_t)v < p[3]) {
        p[3] = (uint8_t)v;
    }
}

static void fragment(const PicaRenderState *rs, const PicaTri *t,
                     const float lin[3], const float bary[3], int x, int row,
                     const uint8_t (*tex)[4])
{
    uint32_t index = pica_tiled_index(x, row, rs->width);
    uint8_t *cp = rs->color + (size_t)index * rs->color_bpp;
    uint8_t *dp = rs->depth ? rs->depth + (size_t)index * rs->depth_bpp : NULL;
    uint8_t primary[4], src[4], dst[4], res[4];
    float depth = 0.0f;
    int k;

    if (rs->scissor_inverted &&
        x >= rs->inv_box.x0 && x < rs->inv_box.x1 &&
        row >= rs->inv_box.y0 && row < rs->inv_box.y1) {
        return;
    }
    for (k = 0; k < 4; k++) {
        float v = g3d_interp(bary, t->color[0][k], t->color[1][k], t->color[2][k]);
        primary[k] = (uint8_t)(g3d_clampf(v, 0.0f, 1.0f) * 255.0f + 0.5f);
    }
    if (rs->tev.passthrough) {
        memcpy(src, primary, 4);
    } else if (rs->light) {
        float quat[4], view[3];
        uint8_t frag[2][4];

        for (k = 0; k < 4; k++) {
            quat[k] = g3d_interp(bary, t->quat[0][k], t->quat[1][k], t->quat[2][k]);
        }
        for (k = 0; k < 3; k++) {
            view[k] = g3d_interp(bary, t->view[0][k], t->view[1][k], t->view[2][k]);
        }
        pica_lighting_fragment(rs->light, quat, view, tex, frag[0], frag[1]);
        pica_texenv_combine_lit(&rs->tev, primary, (const uint8_t (*)[4])frag,
                                tex, src);
    } else {
        pica_texenv_combine(&rs->tev, primary, tex, src);
    }
    if (dp || rs->fog.enabled || rs->shadow_mode) {
        depth = g3d_interp(lin, t->zw[0], t->zw[1], t->zw[2]) * rs->depth_scale +
                rs->depth_offset;
        if (rs->wbuffer) {
            /* W-buffer: (z/w * scale + offset) * w (Citra) */
            depth /= g3d_interp(lin, t->inv_w[0], t->inv_w[1], t->inv_w[2]);
        }
        depth = g3d_clampf(depth, 0.0f, 1.0f);
    }
    if (rs->shadow_mode) {
        /* no alpha test, fog, depth test or blending */
        shadow_write(rs, cp, depth, src[1]);
        return;
    }
    if (rs->fog.enabled) {
        pica_fog_apply(&rs->fog, depth, src);
    }
    if (rs->alpha_test &&
        !g3d_compare_u((G3DCompare)rs->alpha_func, src[3], rs->alpha_ref)) {
        return;
    }

    if (dp) {
        uint32_t stored = depth_load(rs, dp), z, zmax;

        zmax = rs->depth_bpp == 2 ? 0xFFFF : 0xFFFFFF;
        z = (uint32_t)(depth * (float)zmax);
        if (z > zmax) {
            z = zmax;
        }
        if (rs->stencil_test) {
            uint8_t ref = rs->stencil_ref & rs->stencil_mask;
            uint8_t have = (stored >> 24) & rs->stencil_mask;
            if (!g3d_compare_u((G3DCompare)rs->stencil_func, ref, have)) {
                stencil_update(rs, dp, stored, rs->stencil_op[0]);
                return;
            }
        }
        if (!g3d_compare_u((G3DCompare)rs->depth_func, z, stored & zmax)) {
            if (rs->stencil_test) {
                stencil_update(rs, dp, stored, rs->stencil_op[1]);
            }
            return;
        }
        if (rs->stencil_test) {
            stencil_update(rs, dp, stored, rs->stencil_op[2]);
        }
        if (rs->depth_write) {
            /* keeps the stencil byte of D24S8 */
            uint32_t now = depth_load(rs, dp);
            depth_store(rs, dp, (now & ~zmax) | z);
        }
    }

    if (!rs->color_write) {
        return;
    }
    if (rs->replace) {
        pica_pixel_encode(rs->color_fmt, cp, src);
        return;
    }
    pica_pixel_decode(rs->color_fmt, cp, dst);
    if (rs->blend) {
        const uint8_t *kc = rs->blend_color;
        for (k = 0; k < 3; k++) {
            res[k] = blend_channel(rs->eq_rgb, src[k],
                                   blend_factor(rs->sf_rgb, k, src, dst, kc),
                                   dst[k],
                                   blend_factor(rs->df_rgb, k, src, dst, kc));
        }
        res[3] = blend_channel(rs->eq_a, src[3],
                               blend_factor(rs->sf_a, 3, src, dst, kc), dst[3],
                               blend_factor(rs->df_a, 3, src, dst, kc));
    } else {
        uint32_t s = src[0] | src[1] << 8 | src[2] << 16 | (uint32_t)src[3] << 24;
        uint32_t d = dst[0] | dst[1] << 8 | dst[2] << 16 | (uint32_t)dst[3] << 24;
        uint32_t l = g3d_logic_op(rs->logic_op, s, d);
        for (k = 0; k < 4; k++) {
            res[k] = l >> (8 * k);
        }
    }
    for (k = 0; k < 4; k++) {
        if (!(rs->rgba_mask & (1u << k))) {
            res[k] = dst[k];
        }
    }
    pica_pixel_encode(rs->color_fmt, cp, res);
}

void pica_render_shade(void *user, const G3DQuad *q, int thread)
{
    const PicaTri *t = user;
    uint8_t tex[4][4][4];
    bool textured = t->rs->tex.active != 0;
    int i;

    if (textured) {
        pica_texunit_quad(&t->rs->tex, t, q, tex);
    }
    for (i = 0; i < 4; i++) {
        if (q->mask & (1u << i)) {
            fragment(t->rs, t, q->lin[i], q->bary[i], q->x + (i & 1),
                     q->y + (i >> 1), textured ? (const uint8_t (*)[4])tex[i] : NULL);
        }
    }
}

typedef float PicaV4 __attribute__((vector_size(16)));

/*
 * The fast quad functions below cover states where the combiner's result
 * is tested and changed by nothing (no fog, alpha test, shadow, inverted
 * scissor), replaces an RGBA8 pixel, and depth has no stencil. They do the
 * same operations as fragment(), in the same order where order matters.
 */

/* fragment()'s depth test and write for pixel i of q; false: it fails */
static inline __attribute__((always_inline)) bool
fast_depth(const PicaRenderState *rs, const PicaTri *t, const G3DQuad *q,
           int i, uint32_t index)
{
    const float *lin = q->lin[i];
    uint8_t *dp = rs->depth + (size_t)index * rs->depth_bpp;
    uint32_t stored = depth_load(rs, dp), z;
    uint32_t zmax = rs->depth_bpp == 2 ? 0xFFFF : 0xFFFFFF;
    float depth = g3d_interp(lin, t->zw[0], t->zw[1], t->zw[2]) *
                  rs->depth_scale + rs->depth_offset;

    if (rs->wbuffer) {
        depth /= g3d_interp(lin, t->inv_w[0], t->inv_w[1], t->inv_w[2]);
    }
    depth = g3d_clampf(depth, 0.0f, 1.0f);
    z = (uint32_t)(depth * (float)zmax);
    if (z > zmax) {
        z = zmax;
    }
    if (!g3d_compare_u((G3DCompare)rs->depth_func, z, stored & zmax)) {
        return false;
    }
    if (rs->depth_write) {
        depth_store(rs, dp, (stored & ~zmax) | z);
    }
    return true;
}

/*
 * fragment()'s primary colour for pixel i of q as R | G << 8 | B << 16 |
 * A << 24: interpolated per component (in one vector), clamped (max then
 * min: NaN to 0, as g3d_clampf), scaled and truncated to bytes.
 */
static inline __attribute__((always_inline)) uint32_t
fast_primary(PicaV4 c0, PicaV4 c1, PicaV4 c2, const G3DQuad *q, int i)
{
    PicaV4 v = q->bary[i][0] * c0 + q->bary[i][1] * c1 + q->bary[i][2] * c2;
    uint32_t px;

#ifdef __SSE2__
    __m128 f = _mm_min_ps(_mm_max_ps((__m128)v, _mm_setzero_ps()),
                          _mm_set1_ps(1.0f));
    __m128i u;

    f = _mm_add_ps(_mm_mul_ps(f, _mm_set1_ps(255.0f)), _mm_set1_ps(0.5f));
    u = _mm_cvttps_epi32(f);
    u = _mm_packs_epi32(u, u);
    px = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(u, u));
#else
    int k;

    px = 0;
    for (k = 0; k < 4; k++) {
        px |= (uint32_t)(uint8_t)(g3d_clampf(v[k], 0.0f, 1.0f) * 255.0f +
                                  0.5f) << (8 * k);
    }
#endif
    return px;
}

/* an RGBA8 pixel keeps A, B, G, R in byte order */
static inline void put_rgba8(uint8_t *cp, uint32_t px)
{
    int k;

    for (k = 0; k < 4; k++) {
        cp[k] = px >> (24 - 8 * k);
    }
}

#ifdef __SSE2__
/*
 * ---- the quad's four pixels in SSE2 lanes ----------------------------------
 *
 * A quad is aligned (x and y even), so its pixels (x + (i & 1), y + (i >>
 * 1)) are the four consecutive ones of the Morton order from the index of
 * pixel 0 (pica_morton8's low bits are x & 1 and y & 1). Lane i is pixel
 * i; each lane does fast_depth's and fast_primary's operations. The depth
 * tests of the four pixels come before their colour writes, which the
 * per-pixel order would interleave: choose_shade takes these functions
 * only when the colour and depth buffers do not overlap (or are the same
 * 32-bit pixels, where each pixel touches only its own), so the order
 * cannot show.
 */

/*
 * What lanes_depth reads of the state and the triangle, in a local copy
 * that the pixel stores cannot alias (so a span's loop keeps it in
 * registers instead of reloading it after every store)
 */
typedef struct LanesDepth {
    uint8_t *base;
    unsigned bpp, func;
    bool write, wbuffer;
    __m128 zw[3], inv_w[3], scale, offset, zmaxf;
    __m128i zmax;
} LanesDepth;

static inline __attribute__((always_inline)) void
lanes_depth_setup(const PicaRenderState *rs, const PicaTri *t, LanesDepth *ld)
{
    uint32_t zmax = rs->depth_bpp == 2 ? 0xFFFF : 0xFFFFFF;
    int k;

    ld->base = rs->depth;
    ld->bpp = rs->depth_bpp;
    ld->func = rs->depth_func;
    ld->write = rs->depth_write;
    ld->wbuffer = rs->wbuffer;
    for (k = 0; k < 3; k++) {
        ld->zw[k] = _mm_set1_ps(t->zw[k]);
        ld->inv_w[k] = _mm_set1_ps(t->inv_w[k]);
    }
    ld->scale = _mm_set1_ps(rs->depth_scale);
    ld->offset = _mm_set1_ps(rs->depth_offset);
    ld->zmaxf = _mm_set1_ps((float)zmax);
    ld->zmax = _mm_set1_epi32(zmax);
}

/* g3d_interp at the four pixels: (w0 a0 + w1 a1) + w2 a2 */
static inline __attribute__((always_inline)) __m128
lanes_dot(const __m128 w[3], const __m128 a[3])
{
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(w[0], a[0]),
                                 _mm_mul_ps(w[1], a[1])),
                      _mm_mul_ps(w[2], a[2]));
}

/*
 * fast_depth of the four pixels from index idx, lin[k] the screen-linear
 * weights of vertex k in lanes: the mask of the pixels of `covered` that
 * pass, after writing their depth. The clamp of z to zmax in fragment()
 * cannot act here: depth <= 1, so depth * zmax <= zmax.
 */
static inline __attribute__((always_inline)) unsigned
lanes_depth(const LanesDepth *ld, const __m128 lin[3], uint32_t idx,
            unsigned covered)
{
    unsigned bpp = ld->bpp, pass, i;
    uint8_t *dp = ld->base + (size_t)idx * bpp;
    __m128 d = lanes_dot(lin, ld->zw);
    __m128i z, stored, have, zm = ld->zmax, ok;
    uint32_t v[4] __attribute__((aligned(16)));

    d = _mm_add_ps(_mm_mul_ps(d, ld->scale), ld->offset);
    if (ld->wbuffer) {
        d = _mm_div_ps(d, lanes_dot(lin, ld->inv_w));
    }
    d = _mm_min_ps(_mm_max_ps(d, _mm_setzero_ps()), _mm_set1_ps(1.0f));
    z = _mm_cvttps_epi32(_mm_mul_ps(d, ld->zmaxf));
    if (bpp == 4) {
        stored = _mm_loadu_si128((const __m128i *)dp);
    } else if (bpp == 2) {
        stored = _mm_unpacklo_epi16(_mm_loadl_epi64((const __m128i *)dp),
                                    _mm_setzero_si128());
    } else {
        for (i = 0; i < 4; i++) {
            v[i] = dp[3 * i] | dp[3 * i + 1] << 8 | dp[3 * i + 2] << 16;
        }
        stored = _mm_load_si128((const __m128i *)v);
    }
    /* depths are below 2^24: signed compares order them */
    have = _mm_and_si128(stored, zm);
    switch (ld->func) {
    case G3D_CMP_NEVER:    ok = _mm_setzero_si128(); break;
    case G3D_CMP_LESS:     ok = _mm_cmplt_epi32(z, have); break;
    case G3D_CMP_EQUAL:    ok = _mm_cmpeq_epi32(z, have); break;
    case G3D_CMP_LEQUAL:   ok = _mm_cmpgt_epi32(z, have); break;
    case G3D_CMP_GREATER:  ok = _mm_cmpgt_epi32(z, have); break;
    case G3D_CMP_NOTEQUAL: ok = _mm_cmpeq_epi32(z, have); break;
    case G3D_CMP_GEQUAL:   ok = _mm_cmplt_epi32(z, have); break;
    default:               ok = _mm_set1_epi32(-1); break;
    }
    pass = _mm_movemask_ps(_mm_castsi128_ps(ok));
    if (ld->func == G3D_CMP_LEQUAL || ld->func == G3D_CMP_NOTEQUAL ||
        ld->func == G3D_CMP_GEQUAL) {
        pass ^= 0xF;                /* the negations of GREATER, EQUAL, LESS */
    }
    pass &= covered;
    if (ld->write && pass) {
        /* keeps the stencil byte of D24S8 */
        __m128i now = _mm_or_si128(_mm_andnot_si128(zm, stored), z);

        if (bpp == 4 && pass == 0xF) {
            _mm_storeu_si128((__m128i *)dp, now);
        } else {
            _mm_store_si128((__m128i *)v, now);
            for (i = 0; i < 4; i++) {
                if (pass & (1u << i)) {
                    memcpy(dp + bpp * i, &v[i], bpp);   /* x86: LE */
                }
            }
        }
    }
    return pass;
}

/*
 * a quad's weights w (lin or bary): out[k] vertex k's, pixel i in lane i;
 * the 12 floats loaded as three vectors and transposed
 */
static inline __attribute__((always_inline)) void
lanes_weights(const float (*w)[3], __m128 out[3])
{
    __m128 m0 = _mm_loadu_ps(w[0]);         /* w00 w01 w02 w10 */
    __m128 m1 = _mm_loadu_ps(w[1] + 1);     /* w11 w12 w20 w21 */
    __m128 m2 = _mm_loadu_ps(w[2] + 2);     /* w22 w30 w31 w32 */
    __m128 y = _mm_shuffle_ps(m1, m2, _MM_SHUFFLE(0, 1, 0, 2)); /* 20 11 30 22 */
    __m128 z1 = _mm_shuffle_ps(m0, m1, _MM_SHUFFLE(0, 0, 1, 1)); /* 01 01 11 11 */
    __m128 z2 = _mm_shuffle_ps(m1, m2, _MM_SHUFFLE(2, 2, 3, 3)); /* 21 21 31 31 */
    __m128 v1 = _mm_shuffle_ps(m0, m1, _MM_SHUFFLE(1, 1, 2, 2)); /* 02 02 12 12 */

    out[0] = _mm_shuffle_ps(m0, y, _MM_SHUFFLE(2, 0, 3, 0));   /* 00 10 20 30 */
    out[1] = _mm_shuffle_ps(z1, z2, _MM_SHUFFLE(2, 0, 2, 0));  /* 01 11 21 31 */
    out[2] = _mm_shuffle_ps(v1, m2, _MM_SHUFFLE(3, 0, 2, 0));  /* 02 12 22 32 */
}

/* component k of the triangle's three vertex colours, each in four lanes */
typedef struct LanesColor {
    __m128 c[4][3];
} LanesColor;

static inline __attribute__((always_inline)) void
lanes_color(const PicaTri *t, LanesColor *lc)
{
    __m128 v[3];
    int j;

    for (j = 0; j < 3; j++) {
        v[j] = _mm_loadu_ps(t->color[j]);
    }
    for (j = 0; j < 3; j++) {
        lc->c[0][j] = _mm_shuffle_ps(v[j], v[j], _MM_SHUFFLE(0, 0, 0, 0));
        lc->c[1][j] = _mm_shuffle_ps(v[j], v[j], _MM_SHUFFLE(1, 1, 1, 1));
        lc->c[2][j] = _mm_shuffle_ps(v[j], v[j], _MM_SHUFFLE(2, 2, 2, 2));
        lc->c[3][j] = _mm_shuffle_ps(v[j], v[j], _MM_SHUFFLE(3, 3, 3, 3));
    }
}

/*
 * fast_primary of the four pixels as 16 bytes, pixel 0 first; each pixel's
 * bytes R, G, B, A, or A, B, G, R when `abgr` (the components computed in
 * that order, each as fast_primary computes it).
 */
static inline __attribute__((always_inline)) __m128i
quad_primary(const PicaTri *t, const G3DQuad *q, bool abgr)
{
    __m128 c[3], lo = _mm_setzero_ps(), hi = _mm_set1_ps(1.0f);
    __m128i u[4];
    int i;

    for (i = 0; i < 3; i++) {
        c[i] = _mm_loadu_ps(t->color[i]);
        if (abgr) {
            c[i] = _mm_shuffle_ps(c[i], c[i], _MM_SHUFFLE(0, 1, 2, 3));
        }
    }
    for (i = 0; i < 4; i++) {
        __m128 v = _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_set1_ps(q->bary[i][0]), c[0]),
                                         _mm_mul_ps(_mm_set1_ps(q->bary[i][1]), c[1])),
                              _mm_mul_ps(_mm_set1_ps(q->bary[i][2]), c[2]));

        v = _mm_min_ps(_mm_max_ps(v, lo), hi);
        v = _mm_add_ps(_mm_mul_ps(v, _mm_set1_ps(255.0f)), _mm_set1_ps(0.5f));
        u[i] = _mm_cvttps_epi32(v);
    }
    return _mm_packus_epi16(_mm_packs_epi32(u[0], u[1]),
                            _mm_packs_epi32(u[2], u[3]));
}

/*
 * quad_primary(..., true) with the weights in lanes (bar[k]: vertex k's,
 * pixel i in lane i) and the components apart: each component of each
 * pixel computed as fast_primary does, (b0 c0 + b1 c1) + b2 c2, clamped
 * (NaN to 0), times 255 plus 0.5, truncated to 0..255, and packed A, B, G,
 * R (common/formats.h g3d_unorm8x4_lanes)
 */
static inline __attribute__((always_inline)) __m128i
lanes_primary(const LanesColor *lc, const __m128 bar[3])
{
    __m128 v[4];
    int k;

    /* A, B, G, R: bytes 0..3 */
    for (k = 0; k < 4; k++) {
        v[3 - k] = _mm_add_ps(_mm_add_ps(_mm_mul_ps(bar[0], lc->c[k][0]),
                                         _mm_mul_ps(bar[1], lc->c[k][1])),
                              _mm_mul_ps(bar[2], lc->c[k][2]));
    }
    return g3d_unorm8x4_lanes(v);
}


/*
 * A quad function's depth test and write, where the draw tests depth: the
 * samples of `mask` that pass (all of them without a depth test)
 */
static inline unsigned quad_depth(const PicaRenderState *rs, const PicaTri *t,
                                  const G3DQuad *q, uint32_t idx,
                                  unsigned mask)
{
    LanesDepth ld;
    __m128 w[3];

    if (!rs->depth) {
        return mask;
    }
    lanes_depth_setup(rs, t, &ld);
    lanes_weights(q->lin, w);
    return lanes_depth(&ld, w, idx, mask);
}

/* pica_render_shade for a combiner that passes the primary colour on */
static void shade_replace_rgba8(void *user, const G3DQuad *q, int thread)
{
    const PicaTri *t = user;
    const PicaRenderState *rs = t->rs;
    uint32_t idx = pica_tiled_index(q->x, q->y, rs->width);
    unsigned mask = quad_depth(rs, t, q, idx, q->mask);

    if (!mask) {
        return;
    }
    g3d_store4_masked(rs->color + (size_t)idx * 4, quad_primary(t, q, true), mask);
    (void)thread;
}

/* each pixel's bytes R, G, B, A to A, B, G, R (or back) */
static inline __attribute__((always_inline)) __m128i lanes_bswap(__m128i px)
{
    px = _mm_or_si128(_mm_slli_epi16(px, 8), _mm_srli_epi16(px, 8));
    return _mm_shufflehi_epi16(_mm_shufflelo_epi16(px, _MM_SHUFFLE(2, 3, 0, 1)),
                               _MM_SHUFFLE(2, 3, 0, 1));
}

/* whether shade_tex0_rgba8's stage reads the primary colour */
static inline bool tex0_primary(const PicaRenderState *rs)
{
    return rs->tev1_rgb != PICA_TEV1_TEX0 || rs->tev1_a != PICA_TEV1_TEX0;
}

/*
 * shade_tex0_rgba8's combiner stage at four pixels: tx their texels and
 * prim their primary colour (when tex0_primary), bytes R, G, B, A; the
 * result in the pixel's byte order A, B, G, R
 */
static inline __attribute__((always_inline)) __m128i
tex0_combine(const PicaRenderState *rs, __m128i tx, __m128i prim)
{
    /* the bytes (R, G, B of each pixel; A) that take each PICA_TEV1_* */
    static const uint32_t side[2] = { 0x00FFFFFF, 0xFF000000 };
    uint32_t take[4] = { 0, 0, 0, 0 };
    __m128i px;

    take[rs->tev1_rgb] |= side[0];
    take[rs->tev1_a] |= side[1];
    px = _mm_and_si128(tx, _mm_set1_epi32(take[PICA_TEV1_TEX0]));
    if (take[PICA_TEV1_PRIMARY] | take[PICA_TEV1_MODULATE]) {
        __m128i zero = _mm_setzero_si128(), mul = _mm_set1_epi16((short)0x8081);
        __m128i lo, hi;

        px = _mm_or_si128(px, _mm_and_si128(prim, _mm_set1_epi32(
                                                take[PICA_TEV1_PRIMARY])));
        /* prim * tex / 255: below 2^16, where x / 255 = x * 0x8081 >> 23 */
        lo = _mm_mullo_epi16(_mm_unpacklo_epi8(prim, zero),
                             _mm_unpacklo_epi8(tx, zero));
        hi = _mm_mullo_epi16(_mm_unpackhi_epi8(prim, zero),
                             _mm_unpackhi_epi8(tx, zero));
        lo = _mm_srli_epi16(_mm_mulhi_epu16(lo, mul), 7);
        hi = _mm_srli_epi16(_mm_mulhi_epu16(hi, mul), 7);
        px = _mm_or_si128(px, _mm_and_si128(_mm_packus_epi16(lo, hi),
                                            _mm_set1_epi32(
                                                take[PICA_TEV1_MODULATE])));
    }
    return lanes_bswap(px);
}

/*
 * pica_render_shade for one combiner stage that replaces with texture 0 or
 * modulates it with the primary colour (PICA_TEV1_*), texture 0 sampled by
 * the sampler made for its setup. As pica_render_shade, the quad's texels
 * are all read before any of its pixels is written.
 */
static void shade_tex0_rgba8(void *user, const G3DQuad *q, int thread)
{
    const PicaTri *t = user;
    const PicaRenderState *rs = t->rs;
    uint8_t tex[4][4] __attribute__((aligned(16))) = { { 0 } };
    uint32_t idx = pica_tiled_index(q->x, q->y, rs->width);
    unsigned mask = q->mask;

    rs->tex0(&rs->tex.unit[0], t, q, tex);
    mask = quad_depth(rs, t, q, idx, mask);
    if (!mask) {
        return;
    }
    g3d_store4_masked(rs->color + (size_t)idx * 4,
              tex0_combine(rs, _mm_load_si128((const __m128i *)tex),
                           tex0_primary(rs) ? quad_primary(t, q, false)
                                            : _mm_setzero_si128()),
              mask);
    (void)thread;
}
/*
 * shade_replace_rgba8 for a triangle's covered pixels [x0, x1) x [y0, y1)
 * (common/raster.h G3DBlockFn), walked as the aligned quads that hold them:
 * a quad's weights are the rasteriser's (g3d_weights4 of its four samples'
 * exact edge values, stepped in doubles, which hold them exactly), and its
 * mask is the part of it inside the rectangle, all covered. The quad
 * function's operations follow, so each pixel gets the quad path's bytes
 * without a G3DQuad in memory or the rasteriser's per-quad work.
 * `positive`: g3d_inv_w_positive holds for the triangle. `tex`: the same
 * for shade_tex0_rgba8 (span_tex0), whose texels are read first as there.
 * `avx`: the instance is compiled for AVX and weights the quad's four
 * samples with one vector of doubles (g3d_weights4_avx: the same
 * operations).
 */
static inline __attribute__((always_inline)) void
span_quads(void *user, int x0, int y0, int x1, int y1, bool depth,
           bool positive, bool tex, bool avx)
{
    const PicaTri *t = user;
    const PicaRenderState *rs = t->rs;
    /* copies the stores below cannot alias: kept in registers or the stack */
    const G3DEdges g = t->edges;
    uint8_t *color = rs->color;
    uint32_t width = rs->width;
    int qx0 = x0 & ~1, qx, qy, k;
    uint8_t texels[4][4] __attribute__((aligned(16)));
    LanesColor lc;
    LanesDepth ld;

    lanes_color(t, &lc);
    if (depth) {
        lanes_depth_setup(rs, t, &ld);
    }
    for (qy = y0 & ~1; qy < y1; qy += 2) {
        /* the quad's rows inside the rectangle: samples 0, 1 and 2, 3 */
        unsigned rows = (qy >= y0 ? 0x3u : 0) | (qy + 1 < y1 ? 0xCu : 0);
        G3DWalk4 walk;
        double ev[3][4], sv[3];

        for (k = 0; k < 3; k++) {
            double e = (double)(t->e0[k] + t->ex[k] * qx0 + t->ey[k] * qy);
            double ex = (double)t->ex[k], ey = (double)t->ey[k];

            ev[k][0] = e;
            ev[k][1] = e + ex;
            ev[k][2] = e + ey;
            ev[k][3] = e + ey + ex;
            sv[k] = 2 * ex;
        }
        g3d_walk4_start(&walk, (const double (*)[4])ev, sv, avx);
        /*
         * The quads' Morton indices along the row: from quad (qx, qy) to
         * quad (qx + 2, qy), +4 within a 4x4 block, +12 into the tile's
         * next 4x4 block, +44 into the next tile (64 pixels, minus the 20
         * of the last quad of the row's part of the tile)
         */
        static const uint8_t next[4] = { 4, 12, 4, 44 };
        uint32_t idx = pica_tiled_index(qx0, qy, width);

        for (qx = qx0; qx < x1; idx += next[(qx >> 1) & 3], qx += 2) {
            unsigned mask = rows;
            __m128 lin[3], bar[3];

            if (qx < x0) {
                mask &= 0xA;        /* column x0 - 1 is outside */
            }
            if (qx + 1 >= x1) {
                mask &= 0x5;        /* column x1 is outside */
            }
            g3d_walk4_next(&g, &walk, lin, bar, positive, avx);
            if (tex) {
                rs->tex0_lanes(&rs->tex.unit[0], t, bar, texels);
            }
            if (depth) {
                mask = lanes_depth(&ld, lin, idx, mask);
                if (!mask) {
                    continue;
                }
            }
            g3d_store4_masked(color + (size_t)idx * 4,
                      !tex ? lanes_primary(&lc, bar) :
                      tex0_combine(rs, _mm_load_si128((const __m128i *)texels),
                                   tex0_primary(rs) ?
                                   lanes_bswap(lanes_primary(&lc, bar)) :
                                   _mm_setzero_si128()),
                      mask);
        }
    }
}

/*
 * span_replace and span_tex0 for each depth test setting and weighting,
 * for SSE2 and, where the compiler can target it, for AVX (chosen at run
 * time)
 */
#define SPAN_INSTANCES(M)                                                 \
    M(span_replace, 0, 0, false) M(span_replace, 0, 1, false)            \
    M(span_replace, 1, 0, false) M(span_replace, 1, 1, false)            \
    M(span_tex0, 0, 0, true) M(span_tex0, 0, 1, true)                    \
    M(span_tex0, 1, 0, true) M(span_tex0, 1, 1, true)

#define SPAN_QUADS(name, d, p, tex)                                       \
static void name##_##d##p(void *user, int x0, int y0, int x1, int y1,    \
                          int thread)                                     \
{                                                                         \
    span_quads(user, x0, y0, x1, y1, d, p, tex, false);                   \
    (void)thread;                                                         \
}
SPAN_INSTANCES(SPAN_QUADS)

#ifdef G3D_WEIGHTS_AVX
#define SPAN_QUADS_AVX(name, d, p, tex)                                   \
static __attribute__((target("avx"))) void                               \
name##_avx_##d##p(void *user, int x0, int y0, int x1, int y1,            \
                  int thread)                                             \
{                                                                         \
    span_quads(user, x0, y0, x1, y1, d, p, tex, true);                    \
    (void)thread;                                                         \
}
SPAN_INSTANCES(SPAN_QUADS_AVX)
#endif

#ifdef G3D_WEIGHTS_WIDE
/*
 * span_replace with eight pixels a group, for AVX2 and AVX-512: the two
 * quads (qx, qy) and (qx + 2, qy) from qx a multiple of 4, a 4x2 block
 * whose pixels are eight consecutive ones of the Morton order (the bits
 * x & 1, y & 1, x & 2 of pica_morton8), so lane l is sample l & 3 of quad
 * l >> 2: pixel (qx + (l & 1) + (l >> 1 & 2), qy + (l >> 1 & 1)). Each
 * lane does span_quads's operations (the weights by g3d_walk8_next,
 * raster.h; lanes_primary's colour), the depth test and write of the
 * block's two quads by lanes_depth, one after the other.
 */
#define T8 __attribute__((target("avx2")))

/* LanesDepth's vectors in eight lanes */
typedef struct LanesDepth8 {
    __m256 zw[3], inv_w[3], scale, offset, zmaxf;
    __m256i zmax;
} LanesDepth8;

static inline __attribute__((always_inline)) T8 void
lanes_depth8_setup(const LanesDepth *ld, LanesDepth8 *l8)
{
    int k;

    for (k = 0; k < 3; k++) {
        l8->zw[k] = _mm256_set_m128(ld->zw[k], ld->zw[k]);
        l8->inv_w[k] = _mm256_set_m128(ld->inv_w[k], ld->inv_w[k]);
    }
    l8->scale = _mm256_set_m128(ld->scale, ld->scale);
    l8->offset = _mm256_set_m128(ld->offset, ld->offset);
    l8->zmaxf = _mm256_set_m128(ld->zmaxf, ld->zmaxf);
    l8->zmax = _mm256_set_m128i(ld->zmax, ld->zmax);
}

/* lanes_dot of eight lanes */
static inline __attribute__((always_inline)) T8 __m256
lanes_dot8(const __m256 w[3], const __m256 a[3])
{
    return _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(w[0], a[0]),
                                       _mm256_mul_ps(w[1], a[1])),
                         _mm256_mul_ps(w[2], a[2]));
}

/*
 * lanes_depth of a block's eight pixels from index idx: a 32-bit depth
 * buffer in eight lanes, the others as two quads
 */
static inline __attribute__((always_inline)) T8 unsigned
lanes_depth8(const LanesDepth *ld, const LanesDepth8 *l8,
             const __m256 lin[3], uint32_t idx, unsigned covered)
{
    uint8_t *dp = ld->base + (size_t)idx * 4;
    __m256 d;
    __m256i z, stored, have, ok;
    unsigned pass;

    if (ld->bpp != 4) {
        __m128 lo[3], hi[3];
        int k;

        for (k = 0; k < 3; k++) {
            lo[k] = _mm256_castps256_ps128(lin[k]);
            hi[k] = _mm256_extractf128_ps(lin[k], 1);
        }
        return lanes_depth(ld, lo, idx, covered & 0xF) |
               lanes_depth(ld, hi, idx + 4, covered >> 4) << 4;
    }
    d = _mm256_add_ps(_mm256_mul_ps(lanes_dot8(lin, l8->zw), l8->scale),
                      l8->offset);
    if (ld->wbuffer) {
        d = _mm256_div_ps(d, lanes_dot8(lin, l8->inv_w));
    }
    d = _mm256_min_ps(_mm256_max_ps(d, _mm256_setzero_ps()),
                      _mm256_set1_ps(1.0f));
    z = _mm256_cvttps_epi32(_mm256_mul_ps(d, l8->zmaxf));
    stored = _mm256_loadu_si256((const __m256i *)dp);
    have = _mm256_and_si256(stored, l8->zmax);
    switch (ld->func) {
    case G3D_CMP_NEVER:    ok = _mm256_setzero_si256(); break;
    case G3D_CMP_LESS:     ok = _mm256_cmpgt_epi32(have, z); break;
    case G3D_CMP_EQUAL:    ok = _mm256_cmpeq_epi32(z, have); break;
    case G3D_CMP_LEQUAL:   ok = _mm256_cmpgt_epi32(z, have); break;
    case G3D_CMP_GREATER:  ok = _mm256_cmpgt_epi32(z, have); break;
    case G3D_CMP_NOTEQUAL: ok = _mm256_cmpeq_epi32(z, have); break;
    case G3D_CMP_GEQUAL:   ok = _mm256_cmpgt_epi32(have, z); break;
    default:               ok = _mm256_set1_epi32(-1); break;
    }
    pass = _mm256_movemask_ps(_mm256_castsi256_ps(ok));
    if (ld->func == G3D_CMP_LEQUAL || ld->func == G3D_CMP_NOTEQUAL ||
        ld->func == G3D_CMP_GEQUAL) {
        pass ^= 0xFF;               /* the negations of GREATER, EQUAL, LESS */
    }
    pass &= covered;
    if (ld->write && pass) {
        /* keeps the stencil byte of D24S8 */
        __m256i now = _mm256_or_si256(_mm256_andnot_si256(l8->zmax, stored),
                                      z);

        g3d_store8_masked(dp, now, pass);
    }
    return pass;
}

/*
 * ---- textured blocks: the combiner stage of eight pixels ------------------
 *
 * shade_tex0_rgba8's stage (tex0_combine) of a block's eight pixels with
 * the 128-bit instructions applied to both halves (each works within its
 * 128-bit lane). `abgr`: the texels and the primary colour come in the
 * pixel's byte order A, B, G, R (the RGBA8 samplers inline, their filter
 * leaving the texel's bytes where they are), so the stage takes them as
 * they are and gives the pixel without a byte swap; else R, G, B, A, as
 * rs->tex0_lanes8 returns them. The stage works on each byte alone, so the
 * order changes no byte.
 */
#define AVX2_INLINE __attribute__((always_inline, target("avx2")))

/* which bytes of a pixel each PICA_TEV1_* source gives */
typedef struct Tex0Take {
    __m256i tex, prim, mod;
    bool mul;                       /* PRIMARY or MODULATE on some side */
} Tex0Take;

static inline AVX2_INLINE void tex0_take(const PicaRenderState *rs,
                                         Tex0Take *tk, bool abgr)
{
    /* R, G, B and A: bytes 0-2 and 3, or 1-3 and 0 */
    const uint32_t side[2] = { abgr ? 0xFFFFFF00 : 0x00FFFFFF,
                               abgr ? 0x000000FF : 0xFF000000 };
    uint32_t take[4] = { 0, 0, 0, 0 };

    take[rs->tev1_rgb] |= side[0];
    take[rs->tev1_a] |= side[1];
    tk->tex = _mm256_set1_epi32((int32_t)take[PICA_TEV1_TEX0]);
    tk->prim = _mm256_set1_epi32((int32_t)take[PICA_TEV1_PRIMARY]);
    tk->mod = _mm256_set1_epi32((int32_t)take[PICA_TEV1_MODULATE]);
    tk->mul = take[PICA_TEV1_PRIMARY] | take[PICA_TEV1_MODULATE];
}

/* lanes_bswap of eight pixels */
static inline AVX2_INLINE __m256i lanes8_bswap(__m256i px)
{
    px = _mm256_or_si256(_mm256_slli_epi16(px, 8), _mm256_srli_epi16(px, 8));
    return _mm256_shufflehi_epi16(_mm256_shufflelo_epi16(
                                      px, _MM_SHUFFLE(2, 3, 0, 1)),
                                  _MM_SHUFFLE(2, 3, 0, 1));
}

/* tex0_combine of eight pixels, in the order `abgr` says */
static inline AVX2_INLINE __m256i tex0_combine8(const Tex0Take *tk,
                                                __m256i tx, __m256i prim,
                                                bool abgr)
{
    __m256i px = _mm256_and_si256(tx, tk->tex);

    if (tk->mul) {
        __m256i zero = _mm256_setzero_si256();
        __m256i mul = _mm256_set1_epi16((short)0x8081), lo, hi;

        px = _mm256_or_si256(px, _mm256_and_si256(prim, tk->prim));
        lo = _mm256_mullo_epi16(_mm256_unpacklo_epi8(prim, zero),
                                _mm256_unpacklo_epi8(tx, zero));
        hi = _mm256_mullo_epi16(_mm256_unpackhi_epi8(prim, zero),
                                _mm256_unpackhi_epi8(tx, zero));
        lo = _mm256_srli_epi16(_mm256_mulhi_epu16(lo, mul), 7);
        hi = _mm256_srli_epi16(_mm256_mulhi_epu16(hi, mul), 7);
        px = _mm256_or_si256(px, _mm256_and_si256(_mm256_packus_epi16(lo, hi),
                                                  tk->mod));
    }
    return abgr ? px : lanes8_bswap(px);
}

/*
 * lanes_primary of eight pixels: bytes A, B, G, R with `abgr`, else R, G,
 * B, A (each component computed as fast_primary computes it)
 */
static inline AVX2_INLINE __m256i lanes8_primary(const __m256 lc[4][3],
                                                 const __m256 bar[3],
                                                 bool abgr)
{
    __m256 v[4];
    int k;

    for (k = 0; k < 4; k++) {
        v[abgr ? 3 - k : k] =
            _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(bar[0], lc[k][0]),
                                        _mm256_mul_ps(bar[1], lc[k][1])),
                          _mm256_mul_ps(bar[2], lc[k][2]));
    }
    return g3d_unorm8x8_lanes(v);
}

/*
 * A span's row of blocks from block column qx0 (qx0 and qy as span8_rows
 * takes them): the lanes of the first and last block's columns inside
 * [x0, x1) (`column`: lanes of block columns 0..3), the edge values of
 * span8_rows's eight lanes of block (qx0, qy), ev[k][l], and their step
 * to the next block
 */
static inline __attribute__((always_inline)) void
block_row(const PicaTri *t, int x0, int x1, int qx0, int qy,
          const uint16_t column[4], unsigned *left, unsigned *right,
          double ev[3][8], double sv[3])
{
    int k, l;

    *left = *right = 0;
    for (k = 0; k < 4; k++) {
        *left |= qx0 + k >= x0 ? column[k] : 0;
        *right |= ((x1 - 1) & ~3) + k < x1 ? column[k] : 0;
    }
    for (k = 0; k < 3; k++) {
        double e = (double)(t->e0[k] + t->ex[k] * qx0 + t->ey[k] * qy);
        double ex = (double)t->ex[k], ey = (double)t->ey[k];

        for (l = 0; l < 8; l++) {
            /* integers: exact */
            ev[k][l] = e + ((l & 1) + (l >> 1 & 2)) * ex + (l >> 1 & 1) * ey;
        }
        sv[k] = 4 * ex;
    }
}

/* the lanes of block qx of a row inside [x0, x1): `rows` less the ends' */
static inline unsigned block_mask(int qx, int qx0, int x1, unsigned rows,
                                  unsigned left, unsigned right)
{
    if (qx == qx0) {
        rows &= left;
    }
    if (qx + 4 >= x1) {
        rows &= right;
    }
    return rows;
}

/* how span8 colours a block's pixels */
typedef enum Span8Colour {
    SPAN8_PRIMARY,          /* shade_replace_rgba8: the primary colour */
    SPAN8_TEX_CALL,         /* shade_tex0_rgba8, rs->tex0_lanes8 called */
    SPAN8_TEX_REPEAT,       /* ... RGBA8 with REPEAT, the sampler inline */
    SPAN8_TEX_EDGE,         /* ... RGBA8 with CLAMP_TO_EDGE, inline */
} Span8Colour;

/*
 * span_quads eight pixels a group, for AVX2 and AVX-512 (`avx512`): the
 * two quads (qx, qy) and (qx + 2, qy) from qx a multiple of 4, a 4x2 block
 * whose pixels are eight consecutive ones of the Morton order (the bits
 * x & 1, y & 1, x & 2 of pica_morton8), so lane l is sample l & 3 of quad
 * l >> 2: pixel (qx + (l & 1) + (l >> 1 & 2), qy + (l >> 1 & 1)). Each
 * lane does span_quads's operations: the weights by g3d_walk8_next
 * (raster.h), the depth test and write (lanes_depth8), then the colour
 * (lanes_primary's, or shade_tex0_rgba8's stage of texture 0 sampled at
 * the eight pixels), stored as one masked 32-byte block.
 *
 * Textured blocks sample after the depth test, and only blocks with a
 * pixel left; texels are read after other pixels are written, which
 * cannot show: tex0_overlaps keeps every draw whose texture shares bytes
 * with its colour or depth buffer off the spans. Lanes outside the
 * rectangle (a block's columns left of x0 or from x1 on) are sampled but
 * never written; every coordinate, NaN included, wraps to a texel of the
 * image.
 *
 * `swap`: the triangle's internal vertices 1 and 2 are the caller's 2 and
 * 1 (G3DEdges.perm), a constant here, so that g3d_walk8_next's exchange of
 * the weights is register naming instead of a test a group. The edge
 * values of a row pair's first block are the previous row pair's plus 2
 * ey: integers below 2^50 (exact_double), so each is exactly the value
 * computed from e0, as every edge value the walk steps to.
 */
static inline __attribute__((always_inline)) T8 void
span8_rows(const PicaTri *t, int x0, int y0, int x1, int y1, bool depth,
           int positive, bool avx512, Span8Colour how, bool swap)
{
    /* the lanes of block columns 0..3 */
    static const uint16_t column[4] = { 0x05, 0x0A, 0x50, 0xA0 };
    const PicaRenderState *rs = t->rs;
    const bool tex = how != SPAN8_PRIMARY, abgr = how != SPAN8_TEX_CALL;
    const bool prim = !tex || tex0_primary(rs);
    /*
     * Without a depth test a block's pixels wait for its weights' division
     * (a long latency), so the walk runs a block ahead: 1.3x the Gouraud
     * and textured blocks a second on this machine. With one, the
     * registers it takes cost more than it gains (2x slower in the
     * benchmark's depth case, whose blocks mostly fail)
     */
    const bool ahead = !depth;
    const unsigned wrap = how == SPAN8_TEX_EDGE ? PICA_WRAP_CLAMP_TO_EDGE
                                                : PICA_WRAP_REPEAT;
    /* copies the stores below cannot alias: kept in registers or the stack */
    G3DEdges g = t->edges;
    uint8_t *color = rs->color;
    uint32_t width = rs->width;
    const PicaTexUnit *unit = &rs->tex.unit[0];
    PicaLanes8Unit lunit;
    PicaTexLanes8Fn *fetch8 = rs->tex0_lanes8;
    int qx0 = x0 & ~3, qx, qy = y0 & ~1, k, l;
    unsigned left, right;
    double ev[3][8], sv[3], dy[3];
    __m256 c[4][3];
    Tex0Take tk;
    LanesDepth ld;
    LanesDepth8 ld8;

    g.perm[1] = swap ? 2 : 1;
    if (prim) {
        for (k = 0; k < 4; k++) {
            for (l = 0; l < 3; l++) {
                c[k][l] = _mm256_broadcast_ss(&t->color[l][k]);
            }
        }
    }
    if (tex) {
        tex0_take(rs, &tk, abgr);
        lanes8_unit_setup(unit, wrap, &lunit);
    }
    if (depth) {
        lanes_depth_setup(rs, t, &ld);
        lanes_depth8_setup(&ld, &ld8);
    }
    block_row(t, x0, x1, qx0, qy, column, &left, &right, ev, sv);
    for (k = 0; k < 3; k++) {
        dy[k] = 2 * (double)t->ey[k];
    }
    for (; qy < y1; qy += 2) {
        /* the block's rows inside the rectangle: lanes l with l & 2 clear, set */
        unsigned rows = (qy >= y0 ? 0x33u : 0) | (qy + 1 < y1 ? 0xCCu : 0);
        G3DWalk8 walk;
        uint32_t idx = pica_tiled_index(qx0, qy, width);

        __m256 lin[3], bar[3], nlin[3], nbar[3];

        g3d_walk8_start(&walk, (const double (*)[8])ev, sv, avx512);
        for (k = 0; k < 3; k++) {
            for (l = 0; l < 8; l++) {
                ev[k][l] += dy[k];
            }
        }
        if (ahead) {
            g3d_walk8_next(&g, &walk, nlin, nbar, positive, avx512);
        }
        /*
         * The blocks' Morton indices along the row: from block (qx, qy) to
         * (qx + 4, qy), +16 within the tile (x & 4), +48 into the next
         * tile (64 pixels, minus the 16 of the tile's second block)
         */
        for (qx = qx0; qx < x1; idx += qx & 4 ? 48 : 16, qx += 4) {
            unsigned mask = block_mask(qx, qx0, x1, rows, left, right);
            __m256i px;

            /*
             * `ahead`: the next block's weights before this block's
             * pixels, so that its division runs while they are computed
             * (the row's last block has one past the row weighted, never
             * used)
             */
            if (ahead) {
                for (k = 0; k < 3; k++) {
                    lin[k] = nlin[k];
                    bar[k] = nbar[k];
                }
                g3d_walk8_next(&g, &walk, nlin, nbar, positive, avx512);
            } else {
                g3d_walk8_next(&g, &walk, lin, bar, positive, avx512);
            }
            if (depth) {
                mask = lanes_depth8(&ld, &ld8, lin, idx, mask);
                if (!mask) {
                    continue;
                }
            }
            px = prim ? lanes8_primary(c, bar, abgr) : _mm256_setzero_si256();
            if (tex) {
                px = tex0_combine8(&tk, abgr ? lanes8_linear_order(
                                                   &lunit, t, bar,
                                                   PICA_TEXFMT_RGBA8, wrap,
                                                   PICA_FILTER_KEEP)
                                             : fetch8(unit, t, bar),
                                   px, abgr);
            }
            g3d_store8_masked(color + (size_t)idx * 4, px, mask);
        }
    }
}

static inline __attribute__((always_inline)) T8 void
span8(void *user, int x0, int y0, int x1, int y1, bool depth, int positive,
      bool avx512, Span8Colour how)
{
    const PicaTri *t = user;

    if (t->edges.perm[1] == 2) {
        span8_rows(t, x0, y0, x1, y1, depth, positive, avx512, how, true);
    } else {
        span8_rows(t, x0, y0, x1, y1, depth, positive, avx512, how, false);
    }
}

/*
 * span8 for each colour, depth test setting and weighting, AVX2 and
 * AVX-512 (whose functions keep a * b + c as two roundings:
 * G3D_NO_CONTRACT); the textured ones also for AVX-512VL with 256-bit
 * vectors only (the weights as AVX2 takes them, 32 registers:
 * g3d_simd_textured_wide)
 */
#define SPAN8_AT(level, attrs, wide, c, how, d, p)                        \
static attrs SPAN8_FLAT_##c void                                          \
span8_##level##_##c##d##p(void *user, int x0, int y0, int x1, int y1,     \
                          int thread)                                     \
{                                                                         \
    span8(user, x0, y0, x1, y1, d, p, wide, how);                         \
    (void)thread;                                                         \
}
/*
 * The textured instances flattened: with three levels of them the
 * walk's g3d_weights8_avx2 (inline, not always_inline) met GCC's growth
 * limits and stayed a call in some of them
 */
#define SPAN8_FLAT_p
#define SPAN8_FLAT_x __attribute__((flatten))
#define SPAN8_FLAT_r __attribute__((flatten))
#define SPAN8_FLAT_e __attribute__((flatten))
#define SPAN8_VL_ATTRS                                                    \
    __attribute__((target("avx2,avx512f,avx512vl"))) G3D_NO_CONTRACT
#define SPAN8_AVX2(c, how, d, p) SPAN8_AT(avx2, T8, false, c, how, d, p)
#define SPAN8_AVX512(c, how, d, p)                                        \
    SPAN8_AT(avx512, SPAN8_VL_ATTRS, true, c, how, d, p)
#define SPAN8_VL(c, how, d, p)                                            \
    SPAN8_AT(vl, SPAN8_VL_ATTRS, false, c, how, d, p)
#define SPAN8_4(S, c, how) S(c, how, 0, 0) S(c, how, 0, 1)                \
                           S(c, how, 1, 0) S(c, how, 1, 1)
#define SPAN8_ALL(S)                                                      \
    SPAN8_4(S, p, SPAN8_PRIMARY) SPAN8_4(S, x, SPAN8_TEX_CALL)           \
    SPAN8_4(S, r, SPAN8_TEX_REPEAT) SPAN8_4(S, e, SPAN8_TEX_EDGE)
SPAN8_ALL(SPAN8_AVX2)
SPAN8_ALL(SPAN8_AVX512)
/* the primary colour's with G3D_WEIGHTS_UNIT_W (g3d_inv_w_unit) */
SPAN8_AVX2(p, SPAN8_PRIMARY, 0, 2)
SPAN8_AVX2(p, SPAN8_PRIMARY, 1, 2)
SPAN8_AVX512(p, SPAN8_PRIMARY, 0, 2)
SPAN8_AVX512(p, SPAN8_PRIMARY, 1, 2)
SPAN8_4(SPAN8_VL, x, SPAN8_TEX_CALL)
SPAN8_4(SPAN8_VL, r, SPAN8_TEX_REPEAT)
SPAN8_4(SPAN8_VL, e, SPAN8_TEX_EDGE)
/*
 * the inline RGBA8 samplers' with G3D_WEIGHTS_UNIT_W, at each level: the
 * texture coordinates take the same perspective weights
 */
#define SPAN8_UNIT_TEX(S) S(r, SPAN8_TEX_REPEAT, 0, 2)                   \
    S(r, SPAN8_TEX_REPEAT, 1, 2) S(e, SPAN8_TEX_EDGE, 0, 2)              \
    S(e, SPAN8_TEX_EDGE, 1, 2)
SPAN8_UNIT_TEX(SPAN8_AVX2)
SPAN8_UNIT_TEX(SPAN8_VL)
SPAN8_UNIT_TEX(SPAN8_AVX512)

/*
 * ---- sixteen pixels a block (AVX-512 with BW) ------------------------------
 *
 * span8_rows's primary-colour blocks without a depth test (the Gouraud
 * draws), sixteen pixels a block: the 4x4 block (qx, qy) from qx and qy
 * multiples of 4, whose pixels are sixteen consecutive ones of the Morton
 * order (pica_morton8's bits x & 1, y & 1, x & 2, y & 2), so lane l is
 * lane l & 7 of span8_rows's block (qx, qy + 2 (l >> 3)). Each half's
 * weights by g3d_walk8_next from its own row pair's edge values (the
 * upper's plus 2 ey: integers below 2^50, exact), joined into 512-bit
 * vectors, then lanes8_primary's interpolation and pack of the sixteen at
 * once, each lane's operations in its order, stored as one masked 64-byte
 * block. On Intel cores any 512-bit uop in flight keeps port 1 from
 * vector work (Intel's optimisation manual, Skylake Server), which
 * span8_rows's 256-bit half of the work then pays for; here it is half as
 * many uops. The next block's weights are computed ahead of this block's
 * pixels, as span8_rows does.
 */
#define T16 __attribute__((target("avx2,avx512f,avx512vl,avx512bw")))

/* the perspective weights of a block's two halves, then a step of each */
static inline __attribute__((always_inline)) T16 void
span16_weights(const G3DEdges *g, G3DWalk8 walk[2], __m512 bar[3],
               int positive)
{
    __m256 lin[2][3], b[2][3];
    int h, k;

    for (h = 0; h < 2; h++) {
        g3d_walk8_next(g, &walk[h], lin[h], b[h], positive, true);
    }
    for (k = 0; k < 3; k++) {
        bar[k] = g3d_join16_ps(b[0][k], b[1][k]);
    }
}

static inline __attribute__((always_inline)) T16 void
span16_rows(const PicaTri *t, int x0, int y0, int x1, int y1, int positive,
            bool swap)
{
    /* the lanes of block columns 0..3 and rows 0..3 */
    static const uint16_t column[4] = { 0x0505, 0x0A0A, 0x5050, 0xA0A0 };
    static const uint16_t row[4] = { 0x0033, 0x00CC, 0x3300, 0xCC00 };
    const PicaRenderState *rs = t->rs;
    /* copies the stores below cannot alias: kept in registers or the stack */
    G3DEdges g = t->edges;
    uint8_t *color = rs->color;
    uint32_t width = rs->width;
    int qx0 = x0 & ~3, qx, qy = y0 & ~3, k, l, h;
    unsigned left, right;
    double ev[2][3][8], sv[3], dy[3];
    __m512 c[4][3], bar[3], nbar[3], v[4];

    g.perm[1] = swap ? 2 : 1;
    for (k = 0; k < 4; k++) {
        for (l = 0; l < 3; l++) {
            c[k][l] = _mm512_set1_ps(t->color[l][k]);
        }
    }
    block_row(t, x0, x1, qx0, qy, column, &left, &right, ev[0], sv);
    for (k = 0; k < 3; k++) {
        for (l = 0; l < 8; l++) {
            /* integers: exact */
            ev[1][k][l] = ev[0][k][l] + 2 * (double)t->ey[k];
        }
        dy[k] = 4 * (double)t->ey[k];
    }
    for (; qy < y1; qy += 4) {
        unsigned rows = 0;
        G3DWalk8 walk[2];
        uint32_t idx = pica_tiled_index(qx0, qy, width);

        for (l = 0; l < 4; l++) {
            rows |= qy + l >= y0 && qy + l < y1 ? row[l] : 0;
        }
        for (h = 0; h < 2; h++) {
            g3d_walk8_start(&walk[h], (const double (*)[8])ev[h], sv, true);
            for (k = 0; k < 3; k++) {
                for (l = 0; l < 8; l++) {
                    ev[h][k][l] += dy[k];
                }
            }
        }
        span16_weights(&g, walk, nbar, positive);
        /* the blocks' Morton indices along the row as in span8_rows */
        for (qx = qx0; qx < x1; idx += qx & 4 ? 48 : 16, qx += 4) {
            unsigned mask = block_mask(qx, qx0, x1, rows, left, right);

            for (k = 0; k < 3; k++) {
                bar[k] = nbar[k];
            }
            if (qx + 4 < x1) {
                span16_weights(&g, walk, nbar, positive);
            }
            /* lanes8_primary's components, bytes A, B, G, R */
            for (k = 0; k < 4; k++) {
                v[3 - k] = _mm512_add_ps(
                    _mm512_add_ps(_mm512_mul_ps(bar[0], c[k][0]),
                                  _mm512_mul_ps(bar[1], c[k][1])),
                    _mm512_mul_ps(bar[2], c[k][2]));
            }
            _mm512_mask_storeu_epi32(color + (size_t)idx * 4, mask,
                                     g3d_unorm8x16_lanes(v));
        }
    }
}

/*
 * span16_rows for each weighting (G3D_WEIGHTS_ANY, _POSITIVE, _UNIT_W);
 * G3D_NO_CONTRACT as span8's
 */
#define SPAN16(p)                                                         \
static T16 G3D_NO_CONTRACT void                                          \
span16_##p(void *user, int x0, int y0, int x1, int y1, int thread)       \
{                                                                         \
    const PicaTri *t = user;                                              \
                                                                          \
    if (t->edges.perm[1] == 2) {                                          \
        span16_rows(t, x0, y0, x1, y1, p, true);                          \
    } else {                                                              \
        span16_rows(t, x0, y0, x1, y1, p, false);                         \
    }                                                                     \
    (void)thread;                                                         \
}
SPAN16(0)
SPAN16(1)
SPAN16(2)

#define SPAN8_ROW(level, c)                                               \
    { { span8_##level##_##c##00, span8_##level##_##c##01 },              \
      { span8_##level##_##c##10, span8_##level##_##c##11 } }
#define SPAN8_LEVEL(level)                                                \
    { SPAN8_ROW(level, p), SPAN8_ROW(level, x), SPAN8_ROW(level, r),      \
      SPAN8_ROW(level, e) }
/* the textured ones alone (the Gouraud ones take AVX2's or AVX-512's) */
#define SPAN8_LEVEL_TEX(level)                                            \
    { { { NULL, NULL }, { NULL, NULL } }, SPAN8_ROW(level, x),            \
      SPAN8_ROW(level, r), SPAN8_ROW(level, e) }
#endif

G3DBlockFn *pica_span_choose(const PicaRenderState *rs, PicaTri *tri,
                             const G3DTriangle *t)
{
#ifdef G3D_WEIGHTS_WIDE
    /* [AVX2, AVX-512VL at 256 bits, AVX-512][Span8Colour][depth][positive] */
    static G3DBlockFn *const fn8[3][4][2][2] = {
        SPAN8_LEVEL(avx2), SPAN8_LEVEL_TEX(vl), SPAN8_LEVEL(avx512),
    };
#endif
    /* [avx][tex][depth][positive] */
    static G3DBlockFn *const fn[2][2][2][2] = { { {
        { span_replace_00, span_replace_01 },
        { span_replace_10, span_replace_11 },
    }, {
        { span_tex0_00, span_tex0_01 },
        { span_tex0_10, span_tex0_11 },
    } },
#ifdef G3D_WEIGHTS_AVX
    { {
        { span_replace_avx_00, span_replace_avx_01 },
        { span_replace_avx_10, span_replace_avx_11 },
    }, {
        { span_tex0_avx_00, span_tex0_avx_01 },
        { span_tex0_avx_10, span_tex0_avx_11 },
    } },
#endif
    };
    bool tex = rs->shade == shade_tex0_rgba8 && rs->tex0_lanes;
    G3DSimdLevel level = G3D_SIMD_SSE2;
    bool avx = false;
    int32_t minx = MIN(MIN(t->v[0].x, t->v[1].x), t->v[2].x);
    int32_t maxx = MAX(MAX(t->v[0].x, t->v[1].x), t->v[2].x);
    int k;

    /*
     * Narrow triangles keep their quads: their fills would be row runs of
     * a few pixels, one call each, which cost more than the quads.
     */
    if ((rs->shade != shade_replace_rgba8 && !tex) ||
        maxx - minx < 16 * t->rules->subpixels ||
        !g3d_raster_edges(t, &tri->edges) || !tri->edges.exact_double) {
        return NULL;
    }
    for (k = 0; k < 3; k++) {
        const G3DEdge *e = &tri->edges.e[k];

        tri->e0[k] = e->a * t->rules->sample_x + e->b * t->rules->sample_y +
                     e->c;
        tri->ex[k] = e->a * t->rules->subpixels;
        tri->ey[k] = e->b * t->rules->subpixels;
    }
#ifdef G3D_WEIGHTS_AVX
    level = g3d_simd_level();
    avx = level >= G3D_SIMD_AVX;
#endif
#ifdef G3D_WEIGHTS_WIDE
    /* tex0_lanes8 is there where the CPU has AVX2 (texunit.c) */
    if (level >= G3D_SIMD_AVX2 && (!tex || rs->tex0_lanes8)) {
        const PicaTexUnit *u = &rs->tex.unit[0];
        /* tex0_lanes8 exists: both axes REPEAT or both CLAMP_TO_EDGE */
        Span8Colour how = !tex ? SPAN8_PRIMARY :
                          u->fmt != PICA_TEXFMT_RGBA8 ? SPAN8_TEX_CALL :
                          u->wrap_s == PICA_WRAP_REPEAT ? SPAN8_TEX_REPEAT
                                                        : SPAN8_TEX_EDGE;

        if (how == SPAN8_PRIMARY && !rs->depth &&
            level >= G3D_SIMD_AVX512 && __builtin_cpu_supports("avx512bw")) {
            /* sixteen pixels a block */
            return g3d_inv_w_unit(t->v) ? span16_2 :
                   g3d_inv_w_positive(t->v) ? span16_1 : span16_0;
        }
        if (how == SPAN8_PRIMARY && g3d_inv_w_unit(t->v)) {
            /* [AVX-512][depth] */
            static G3DBlockFn *const unit8[2][2] = {
                { span8_avx2_p02, span8_avx2_p12 },
                { span8_avx512_p02, span8_avx512_p12 },
            };

            return unit8[level >= G3D_SIMD_AVX512][rs->depth != NULL];
        }
        /* textured blocks: as the CPU runs them fastest */
        int row = level >= G3D_SIMD_AVX512 ? 2 : 0;

        if (tex) {
            row = g3d_simd_level_textured() < G3D_SIMD_AVX512 ? 0
                  : 1 + g3d_simd_textured_wide();
        }
        if (how >= SPAN8_TEX_REPEAT && g3d_inv_w_unit(t->v)) {
            /* [AVX2, AVX-512VL at 256 bits, AVX-512][edge][depth] */
#define SPAN8_UNIT_ROW(level)                                             \
    { { span8_##level##_r02, span8_##level##_r12 },                       \
      { span8_##level##_e02, span8_##level##_e12 } }
            static G3DBlockFn *const unit_tex[3][2][2] = {
                SPAN8_UNIT_ROW(avx2), SPAN8_UNIT_ROW(vl),
                SPAN8_UNIT_ROW(avx512),
            };

            return unit_tex[row][how == SPAN8_TEX_EDGE][rs->depth != NULL];
        }
        return fn8[row][how][rs->depth != NULL][g3d_inv_w_positive(t->v)];
    }
#endif
    return fn[avx][tex][rs->depth != NULL][g3d_inv_w_positive(t->v)];
}
#else
/* pica_render_shade for a combiner that passes the primary colour on */
static void shade_replace_rgba8(void *user, const G3DQuad *q, int thread)
{
    const PicaTri *t = user;
    const PicaRenderState *rs = t->rs;
    PicaV4 c0, c1, c2;
    int i;

    memcpy(&c0, t->color[0], sizeof(c0));
    memcpy(&c1, t->color[1], sizeof(c1));
    memcpy(&c2, t->color[2], sizeof(c2));
    for (i = 0; i < 4; i++) {
        uint32_t index;

        if (!(q->mask & (1u << i))) {
            continue;
        }
        index = pica_tiled_index(q->x + (i & 1), q->y + (i >> 1), rs->width);
        if (rs->depth && !fast_depth(rs, t, q, i, index)) {
            continue;
        }
        put_rgba8(rs->color + (size_t)index * 4, fast_primary(c0, c1, c2, q, i));
    }
    (void)thread;
}

G3DBlockFn *pica_span_choose(const PicaRenderState *rs, PicaTri *tri,
                             const G3DTriangle *t)
{
    return NULL;                    /* the quads */
}
#endif

/*
 * Flat triangles. shade_replace_rgba8 writes round(clamp(b0 c0 + b1 c1 +
 * b2 c2) * 255) (fast_primary); with c0 = c1 = c2 = c the weights' sum is 1
 * within a few single-precision steps (each weight is a double rounded to
 * float, three products and two sums each round once), so the value is c
 * within 2^-21 c. When c is in [0, 1] and c * 255 + 0.5 lies at least 1/64
 * from an integer, no such error moves it across one: every pixel gets
 * the same byte, the one computed here with a weight of 1. A colour at a
 * rounding tie (0.5 gives 127.5 + 0.5) is left to the quads, which may
 * round it either way from pixel to pixel. 8-bit colours through the
 * shader's f24 (k / 255 within 2^-17) lie half a step from one.
 */
static bool flat_component(float c)
{
    float y = c * 255.0f + 0.5f, f = y - floorf(y);

    return c >= 0.0f && c <= 1.0f && f >= 1.0f / 64 && f <= 63.0f / 64;
}

bool pica_flat_fill(const PicaRenderState *rs, PicaTri *tri)
{
    static const float one[3] = { 1.0f, 0.0f, 0.0f };
    G3DQuad q;
    PicaV4 c;
    uint32_t px;
    int k;

    if (rs->shade != shade_replace_rgba8 || rs->depth) {
        return false;
    }
    for (k = 0; k < 4; k++) {
        if (tri->color[1][k] != tri->color[0][k] ||
            tri->color[2][k] != tri->color[0][k] ||
            !flat_component(tri->color[0][k])) {
            return false;
        }
    }
    memcpy(q.bary[0], one, sizeof(one));
    memcpy(&c, tri->color[0], sizeof(c));
    px = fast_primary(c, c, c, &q, 0);
    put_rgba8((uint8_t *)&tri->flat, px);
    return true;
}

/*
 * pixels [x0, x1) of row y: pixel x lies (x >> 3) tiles and
 * pica_morton8(x & 7, 0) pixels on from the row's pixel 0, and an even x
 * and x + 1 are adjacent, so two at a time
 */
static inline void fill_row(uint8_t *color, uint32_t width, int x0, int x1,
                            int y, uint32_t word)
{
    static const uint8_t morton_x[8] = { 0, 1, 4, 5, 16, 17, 20, 21 };
    const uint64_t two = (uint64_t)word << 32 | word;
    uint32_t *row = (uint32_t *)color + pica_tiled_index(0, y, width);
    int x = x0;

    if ((x & 1) && x < x1) {
        memcpy(row + (x >> 3) * 64 + morton_x[x & 7], &word, 4);
        x++;
    }
    for (; x + 2 <= x1; x += 2) {
        memcpy(row + (x >> 3) * 64 + morton_x[x & 7], &two, 8);
    }
    if (x < x1) {
        memcpy(row + (x >> 3) * 64 + morton_x[x & 7], &word, 4);
    }
}

/*
 * The covered parts of a flat triangle (G3DBlockFn). In a band of 8 whole
 * rows, the 8x8 tiles between the first and the last multiple of 8 lie one
 * after the other in memory (tile order is row-major).
 */
void pica_fill_rgba8(void *user, int x0, int y0, int x1, int y1, int thread)
{
    const PicaTri *t = user;
    const PicaRenderState *rs = t->rs;
    uint32_t word = t->flat;
    int ax0 = (x0 + 7) & ~7, ax1 = x1 & ~7;
    int y;

    for (y = y0; y < y1;) {
        int end = MIN((y | 7) + 1, y1);

        if (!(y & 7) && end - y == 8 && ax0 < ax1) {
            /* whole tiles: 64 pixels each */
            g3d_fill32(rs->color +
                       (size_t)pica_tiled_index(ax0, y, rs->width) * 4,
                       (size_t)(ax1 - ax0) * 8, word);
            if (x0 == ax0 && x1 == ax1) {
                y = end;
                continue;
            }
            for (; y < end; y++) {
                fill_row(rs->color, rs->width, x0, ax0, y, word);
                fill_row(rs->color, rs->width, ax1, x1, y, word);
            }
            continue;
        }
        for (; y < end; y++) {
            fill_row(rs->color, rs->width, x0, x1, y, word);
        }
    }
    (void)thread;
}

/* one side of a one-stage combiner (texenv.c stage_combine at 1x) */
static inline uint32_t tev1(unsigned mode, uint32_t prim, uint32_t tex)
{
    switch (mode) {
    case PICA_TEV1_TEX0:
        return tex;
    case PICA_TEV1_PRIMARY:
        return prim;
    default:
        return prim * tex / 255;
    }
}

/*
 * pica_render_shade for one combiner stage that replaces with texture 0 or
 * modulates it with the primary colour (PICA_TEV1_*), texture 0 sampled by
 * the sampler made for its setup. As pica_render_shade, the quad's texels
 * are all read before any of its pixels is written.
 */
#ifndef __SSE2__
static void shade_tex0_rgba8(void *user, const G3DQuad *q, int thread)
{
    const PicaTri *t = user;
    const PicaRenderState *rs = t->rs;
    uint8_t tex[4][4];
    PicaV4 c0, c1, c2;
    int i;

    rs->tex0(&rs->tex.unit[0], t, q, tex);
    memcpy(&c0, t->color[0], sizeof(c0));
    memcpy(&c1, t->color[1], sizeof(c1));
    memcpy(&c2, t->color[2], sizeof(c2));
    for (i = 0; i < 4; i++) {
        uint32_t index, prim = 0, px;
        int k;

        if (!(q->mask & (1u << i))) {
            continue;
        }
        index = pica_tiled_index(q->x + (i & 1), q->y + (i >> 1), rs->width);
        if (rs->depth && !fast_depth(rs, t, q, i, index)) {
            continue;
        }
        if (rs->tev1_rgb != PICA_TEV1_TEX0 || rs->tev1_a != PICA_TEV1_TEX0) {
            prim = fast_primary(c0, c1, c2, q, i);
        }
        px = 0;
        for (k = 0; k < 3; k++) {
            px |= tev1(rs->tev1_rgb, prim >> (8 * k) & 0xFF, tex[i][k]) <<
                  (8 * k);
        }
        px |= tev1(rs->tev1_a, prim >> 24, tex[i][3]) << 24;
        put_rgba8(rs->color + (size_t)index * 4, px);
    }
    (void)thread;
}
#endif

/*
 * Colour and depth buffers that share bytes other than each pixel's own
 * (a guest's mistake): the fast functions' order of a quad's depth and
 * colour writes could show there.
 */
static bool buffers_overlap(const PicaRenderState *rs)
{
    size_t n = (size_t)rs->width * rs->height;

    if (!rs->depth || (rs->depth == rs->color && rs->depth_bpp == 4)) {
        return false;
    }
    return rs->depth < rs->color + n * 4 &&
           rs->color < rs->depth + n * rs->depth_bpp;
}

/* whether [p, p + bytes) shares bytes with the colour or depth buffer */
static bool overlaps_buffers(const PicaRenderState *rs, const uint8_t *p,
                             size_t bytes)
{
    size_t n = (size_t)rs->width * rs->height;

    return (rs->color && p < rs->color + n * 4 && rs->color < p + bytes) ||
           (rs->depth && p < rs->depth + n * rs->depth_bpp &&
            rs->depth < p + bytes);
}

#ifdef __SSE2__
/*
 * Texture 0's level 0 shares bytes with the colour or depth buffer: a span
 * draws its quads in another order than the rasteriser hands them out,
 * which could show in what is read back, so such draws keep the quads.
 */
static bool tex0_overlaps(const PicaRenderState *rs)
{
    const PicaTexUnit *u = &rs->tex.unit[0];

    return overlaps_buffers(rs, u->data,
                            (size_t)u->w * u->h * pica_texfmt_bits(u->fmt) / 8);
}
#endif

/*
 * Whether a pixel's value can depend on the order in which the tiles are
 * drawn: a texture (any level or cube face) that shares bytes with the
 * colour or depth buffer, where a texel may be a pixel another tile
 * writes, or buffers that share bytes other than each pixel's own. With
 * several render threads that order changes from run to run, so such a
 * state's batches run on one thread (g3d_raster_serial, rasterizer.c).
 */
static bool tile_order_shows(const PicaRenderState *rs)
{
    unsigned i, f;

    if (buffers_overlap(rs)) {
        return true;
    }
    for (i = 0; i < G_N_ELEMENTS(rs->tex.unit); i++) {
        const PicaTexUnit *u = &rs->tex.unit[i];
        size_t bytes;

        if (!u->data) {
            continue;
        }
        bytes = u->level_offset[u->max_level] +
                pica_tex_level_size(u->fmt, u->w >> u->max_level,
                                    u->h >> u->max_level);
        for (f = 0; f < (u->cube ? 6u : 1u); f++) {
            const uint8_t *p = f ? u->face[f] : u->data;

            if (p && overlaps_buffers(rs, p, bytes)) {
                return true;
            }
        }
    }
    return false;
}

/* The quad function for a state, chosen once per snapshot. */
static G3DQuadFn *choose_shade(PicaRenderState *rs)
{
    unsigned tev1;

#ifdef __SSE2__
    rs->tex0_lanes = NULL;
#endif
#ifdef G3D_WEIGHTS_AVX
    rs->tex0_lanes8 = NULL;
#endif
    if (g3d_general_path || !rs->color || rs->light || rs->shadow_mode ||
        rs->fog.enabled || rs->alpha_test || rs->scissor_inverted ||
        !rs->color_write || !rs->replace ||
        rs->color_fmt != PICA_PIXFMT_RGBA8 || rs->stencil_test ||
        buffers_overlap(rs)) {
        return pica_render_shade;
    }
    if (rs->tev.passthrough) {
        return shade_replace_rgba8;
    }
    tev1 = pica_texenv_one_stage(&rs->tev);
    rs->tev1_rgb = tev1 & 3;
    rs->tev1_a = tev1 >> 2;
    rs->tex0 = pica_texunit_choose_unit0(&rs->tex);
    if (rs->tex0 && rs->tev1_rgb != PICA_TEV1_OTHER &&
        rs->tev1_a != PICA_TEV1_OTHER) {
#ifdef __SSE2__
        if (rs->tex.unit[0].data && !tex0_overlaps(rs)) {
            rs->tex0_lanes = pica_texunit_choose_lanes(&rs->tex);
#ifdef G3D_WEIGHTS_AVX
            rs->tex0_lanes8 = pica_texunit_choose_lanes8(&rs->tex);
#endif
        }
#endif
        return shade_tex0_rgba8;
    }
    return pica_render_shade;
}
