/*
 * R300 fragment path of one 2x2 quad, run on the render threads:
 *   RS   interpolate the routed vectors into the US temporaries  [§3.5]
 *   US   the fragment program (us.c), texture fetches (tx.c)    [§3.7]
 *   SC   clip rectangles / rule                                  [§3.6]
 *   FG   fog, alpha test                                         [§3.9]
 *   ZB   depth and stencil                                       [§3.11]
 *   RB3D blend, ROP, channel mask, colour write                  [§3.10]
 * It reads only the draw state (constant while triangles are queued) and
 * writes only the quad's own pixels of the mapped surfaces.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300-int.h"

#include <math.h>
#include <string.h>

#include "common/fpformat.h"
#include "common/fragment.h"

/* ZFUNC / STENCILFUNC codes -> compare [R3xx 3D ref. §1.11 ZB] */
static const G3DCompare zs_func[8] = {
    G3D_CMP_NEVER, G3D_CMP_LESS, G3D_CMP_LEQUAL, G3D_CMP_EQUAL,
    G3D_CMP_GEQUAL, G3D_CMP_GREATER, G3D_CMP_NOTEQUAL, G3D_CMP_ALWAYS,
};

/* AF_FUNC codes [R3xx 3D ref. §1.2 FG]: the GL order */
static const G3DCompare af_func[8] = {
    G3D_CMP_NEVER, G3D_CMP_LESS, G3D_CMP_EQUAL, G3D_CMP_LEQUAL,
    G3D_CMP_GREATER, G3D_CMP_NOTEQUAL, G3D_CMP_GEQUAL, G3D_CMP_ALWAYS,
};

static void sample(void *opaque, int unit, int inst, const float coord[4][4],
                   float out[4][4])
{
    const R300DrawState *ds = opaque;

    r300_tx_sample_quad(&ds->tx[unit & 15], inst, coord, out);
}

/* ---- colour buffer packing: components C0..C3 from the low bits up ---- */

typedef struct Packing {
    uint8_t bits[4];            /* per component; 0: absent */
    uint8_t shift[4];
} Packing;

static bool packing(uint32_t format, Packing *p)
{
    static const Packing argb8888 = { { 8, 8, 8, 8 }, { 0, 8, 16, 24 } };
    static const Packing rgb565 = { { 5, 6, 5, 0 }, { 0, 5, 11, 0 } };
    static const Packing argb1555 = { { 5, 5, 5, 1 }, { 0, 5, 10, 15 } };
    static const Packing argb4444 = { { 4, 4, 4, 4 }, { 0, 4, 8, 12 } };
    static const Packing i8 = { { 8, 0, 0, 0 }, { 0, 0, 0, 0 } };
    static const Packing uv88 = { { 8, 8, 0, 0 }, { 0, 8, 0, 0 } };

    switch (format) {
    case R300_COLOR_FORMAT_ARGB8888: *p = argb8888; return true;
    case R300_COLOR_FORMAT_RGB565:   *p = rgb565;   return true;
    case R300_COLOR_FORMAT_ARGB1555: *p = argb1555; return true;
    case R300_COLOR_FORMAT_ARGB4444: *p = argb4444; return true;
    case R300_COLOR_FORMAT_I8:       *p = i8;       return true;
    case R300_COLOR_FORMAT_UV88:     *p = uv88;     return true;
    default:                         return false;
    }
}

void r300_target_prepare(R300Target *tg, const R300DrawState *ds)
{
    Packing pk;
    int ch;

    tg->packable = packing(tg->format, &pk);
    tg->write_mask = 0;
    if (!tg->packable) {
        return;
    }
    for (ch = 0; ch < 4; ch++) {
        tg->bits[ch] = pk.bits[ch];
        tg->shift[ch] = pk.shift[ch];
        if (pk.bits[ch] && (ds->chan_mask & (1u << ch))) {
            tg->write_mask |= ((1u << pk.bits[ch]) - 1) << pk.shift[ch];
        }
    }
    /* RB3D_DITHER_CTL: truncate or round (the dither LUT is undocumented) */
    tg->round = G3D_FIELD_EX32(ds->dither, RB3D_DITHER_CTL, DITHER_MODE) == 1 ||
                tg->bpp == 4;
    for (ch = 0; ch < 4; ch++) {
        static const uint8_t from_sel[4] = { 3, 0, 1, 2 };   /* A, R, G, B */
        tg->out_sel[ch] = from_sel[(tg->out_fmt >> (8 + 2 * ch)) & 3];
    }
    /*
     * C4_8 quantises to 8 bits before the blender. Unblended into 8-bit
     * fields with rounding that gives the same bits (checked for every
     * float in [0, 1]), so it is skipped there.
     */
    tg->prequantise = G3D_FIELD_EX32(tg->out_fmt, US_OUT_FMT_0, OUT_FMT) ==
                      R300_US_OUT_FMT_C4_8 &&
                      ((ds->blend & R_RB3D_BLENDCNTL_ALPHA_BLEND_ENABLE_MASK) ||
                       !tg->round || tg->format != R300_COLOR_FORMAT_ARGB8888);
}

static uint32_t load_px(const uint8_t *p, unsigned bpp)
{
    switch (bpp) {
    case 1: return p[0];
    case 2: return p[0] | p[1] << 8;
    default: return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
    }
}

static void store_px(uint8_t *p, unsigned bpp, uint32_t v)
{
    p[0] = v;
    if (bpp >= 2) {
        p[1] = v >> 8;
    }
    if (bpp == 4) {
        p[2] = v >> 16;
        p[3] = v >> 24;
    }
}

static float comp_get(uint32_t px, const R300Target *tg, int k)
{
    if (!tg->bits[k]) {
        return k == 3 ? 1.0f : 0.0f;
    }
    return (float)((px >> tg->shift[k]) & ((1u << tg->bits[k]) - 1)) /
           (float)((1u << tg->bits[k]) - 1);
}

static uint32_t comp_put(float v, const R300Target *tg, int k)
{
    float max = (float)((1u << tg->bits[k]) - 1);

    if (!tg->bits[k]) {
        return 0;
    }
    v = g3d_clampf(v, 0.0f, 1.0f) * max;
    return (uint32_t)(tg->round ? v + 0.5f : v) << tg->shift[k];
}

/* the blend factor codes of RB3D_(A)BLENDCNTL [R3xx 3D ref. §1.1 RB3D] */
static float factor(uint32_t code, int ch, const float *s, const float *d,
                    const float *k, bool is_dst, float src_a)
{
    switch (code) {
    case R300_BLEND_D3D_ZERO: case R300_BLEND_GL_ZERO: return 0.0f;
    case R300_BLEND_D3D_ONE: case R300_BLEND_GL_ONE: return 1.0f;
    case R300_BLEND_D3D_SRCCOLOR: case R300_BLEND_GL_SRC_COLOR: return s[ch];
    case R300_BLEND_D3D_INVSRCCOLOR: case R300_BLEND_GL_ONE_MINUS_SRC_COLOR:
        return 1.0f - s[ch];
    case R300_BLEND_D3D_SRCALPHA: case R300_BLEND_GL_SRC_ALPHA: return src_a;
    case R300_BLEND_D3D_INVSRCALPHA: case R300_BLEND_GL_ONE_MINUS_SRC_ALPHA:
        return 1.0f - src_a;
    case R300_BLEND_D3D_DESTALPHA: case R300_BLEND_GL_DST_ALPHA: return d[3];
    case R300_BLEND_D3D_INVDESTALPHA: case R300_BLEND_GL_ONE_MINUS_DST_ALPHA:
        return 1.0f - d[3];
    case R300_BLEND_D3D_DESTCOLOR: case R300_BLEND_GL_DST_COLOR: return d[ch];
    case R300_BLEND_D3D_INVDESTCOLOR: case R300_BLEND_GL_ONE_MINUS_DST_COLOR:
        return 1.0f - d[ch];
    case R300_BLEND_D3D_SRCALPHASAT: case R300_BLEND_GL_SRC_ALPHA_SATURATE:
        return ch == 3 ? 1.0f : fminf(src_a, 1.0f - d[3]);
    case R300_BLEND_D3D_BOTHSRCALPHA:     /* src As, dst 1 - As */
        return is_dst ? 1.0f - src_a : src_a;
    case R300_BLEND_D3D_BOTHINVSRCALPHA:  /* src 1 - As, dst As */
        return is_dst ? src_a : 1.0f - src_a;
    case R300_BLEND_GL_CONST_COLOR: return k[ch];
    case R300_BLEND_GL_ONE_MINUS_CONST_COLOR: return 1.0f - k[ch];
    case R300_BLEND_GL_CONST_ALPHA: return k[3];
    case R300_BLEND_GL_ONE_MINUS_CONST_ALPHA: return 1.0f - k[3];
    default: return 0.0f;
    }
}

static float combine(uint32_t fcn, float s, float d, float sf, float df)
{
    float r;

    switch (fcn) {
    case R300_COMB_MIN: return fminf(s, d);   /* factors forced to ONE */
    case R300_COMB_MAX: return fmaxf(s, d);
    case R300_COMB_SUB_CLAMP: case R300_COMB_SUB_NOCLAMP:
        r = s * sf - d * df;
        break;
    case R300_COMB_RSUB_CLAMP: case R300_COMB_RSUB_NOCLAMP:
        r = d * df - s * sf;
        break;
    default:
        r = s * sf + d * df;
        break;
    }
    return (fcn & 1) ? r : g3d_clampf(r, 0.0f, 1.0f);
}

/* shader RGBA -> components C0..C3 of the target [§3.7] */
static void out_components(const R300Target *tg, const float *rgba, float *c)
{
    int k;

    for (k = 0; k < 4; k++) {
        c[k] = rgba[tg->out_sel[k]];
        if (tg->prequantise) {
            c[k] = floorf(g3d_clampf(c[k], 0.0f, 1.0f) * 255.0f + 0.5f) /
                   255.0f;
        }
    }
}

static void write_colour(const R300DrawState *ds, const R300Target *tg,
                         int x, int y, const float *rgba)
{
    uint8_t *p = tg->base + r300_tile_offset(&tg->tiling, x, y);
    uint32_t dst = load_px(p, tg->bpp), res = 0;
    float s[4], d[4], k[4], o[4];
    int ch;

    if (!tg->packable) {
        return;
    }
    out_components(tg, rgba, s);
    if (ds->blend & R_RB3D_BLENDCNTL_ALPHA_BLEND_ENABLE_MASK) {
        uint32_t disc = G3D_FIELD_EX32(ds->blend, RB3D_BLENDCNTL,
                                       DISCARD_SRC_PIXELS);
        bool a0 = s[3] == 0.0f, a1 = s[3] == 1.0f;
        bool c0 = !s[0] && !s[1] && !s[2];
        bool c1 = s[0] == 1.0f && s[1] == 1.0f && s[2] == 1.0f;
        if ((disc == 1 && a0) || (disc == 2 && c0) || (disc == 3 && a0 && c0) ||
            (disc == 4 && a1) || (disc == 5 && c1) || (disc == 6 && a1 && c1)) {
            return;
        }
        for (ch = 0; ch < 4; ch++) {
            d[ch] = comp_get(dst, tg, ch);
            /* RB3D_CONSTANT_COLOR is B, G, R, A from the low byte: C0..C3 */
            k[ch] = (float)((ds->const_color >> (8 * ch)) & 0xFF) / 255.0f;
        }
        for (ch = 0; ch < 4; ch++) {
            uint32_t cntl = (ch == 3 && (ds->blend &
                             R_RB3D_BLENDCNTL_SEPARATE_ALPHA_ENABLE_MASK))
                            ? ds->ablend : ds->blend;
            uint32_t fcn = G3D_FIELD_EX32(cntl, RB3D_BLENDCNTL, COMB_FCN);
            float sf = factor(G3D_FIELD_EX32(cntl, RB3D_BLENDCNTL, SRCBLEND),
                              ch, s, d, k, false, s[3]);
            float df = factor(G3D_FIELD_EX32(cntl, RB3D_BLENDCNTL, DESTBLEND),
                              ch, s, d, k, true, s[3]);
            o[ch] = combine(fcn, s[ch], d[ch], sf, df);
        }
    } else {
        memcpy(o, s, sizeof(o));
    }
    for (ch = 0; ch < 4; ch++) {
        res |= comp_put(o[ch], tg, ch);
    }
    if (ds->rop & R_RB3D_ROPCNTL_ROP_ENABLE_MASK) {
        /* per bit: result = ROP >> (2 S + D) & 1 [R3xx 3D ref. §1.1 RB3D, EXT
         * Mesa] */
        uint32_t rop = G3D_FIELD_EX32(ds->rop, RB3D_ROPCNTL, ROP), r = 0;
        int b;
        for (b = 0; b < 32; b++) {
            unsigned sb = (res >> b) & 1, db = (dst >> b) & 1;
            r |= ((rop >> (2 * sb + db)) & 1u) << b;
        }
        res = r;
    }
    store_px(p, tg->bpp, (dst & ~tg->write_mask) | (res & tg->write_mask));
}

/* SC_CLIP_RULE: the pixel's 4 inside flags index a 16-bit truth table */
static bool clip_rule_pass(const R300DrawState *ds, int x, int y)
{
    unsigned idx = 0, n;

    for (n = 0; n < 4; n++) {
        const G3DRect *r = &ds->clip[n];
        if (x >= r->x0 && x < r->x1 && y >= r->y0 && y < r->y1) {
            idx |= 1u << n;
        }
    }
    return (ds->clip_rule >> idx) & 1;
}

/* Depth and stencil for one pixel; true if the fragment survives. */
static bool depth_stencil(const R300DrawState *ds, int x, int y, uint32_t z24,
                          bool back)
{
    uint32_t cntl = ds->zb_cntl, zs = ds->zstencil, rm = ds->stencil_refmask;
    uint8_t *p = ds->zbase + r300_tile_offset(&ds->ztiling, x, y);
    bool z24s8 = ds->zformat == R300_DEPTHFORMAT_24BIT_INT_Z_8BIT_STENCIL;
    uint32_t word = load_px(p, ds->zbpp), stored_z, zin;
    uint8_t st = z24s8 ? word & 0xFF : 0;
    bool s_en = (cntl & R_ZB_CNTL_STENCIL_ENABLE_MASK) && z24s8;
    bool z_en = cntl & R_ZB_CNTL_Z_ENABLE_MASK;
    bool bf = back && (cntl & R_ZB_CNTL_STENCIL_FRONT_BACK_MASK);
    uint8_t ref = G3D_FIELD_EX32(rm, ZB_STENCILREFMASK, STENCILREF);
    uint8_t msk = G3D_FIELD_EX32(rm, ZB_STENCILREFMASK, STENCILMASK);
    uint8_t wmask = G3D_FIELD_EX32(rm, ZB_STENCILREFMASK, STENCILWRITEMASK);
    unsigned func = bf ? G3D_FIELD_EX32(zs, ZB_ZSTENCILCNTL, STENCILFUNC_BF)
                       : G3D_FIELD_EX32(zs, ZB_ZSTENCILCNTL, STENCILFUNC);
    unsigned sfail = bf ? G3D_FIELD_EX32(zs, ZB_ZSTENCILCNTL, STENCILFAIL_BF)
                        : G3D_FIELD_EX32(zs, ZB_ZSTENCILCNTL, STENCILFAIL);
    unsigned zpass = bf ? G3D_FIELD_EX32(zs, ZB_ZSTENCILCNTL, STENCILZPASS_BF)
                        : G3D_FIELD_EX32(zs, ZB_ZSTENCILCNTL, STENCILZPASS);
    unsigned zfail = bf ? G3D_FIELD_EX32(zs, ZB_ZSTENCILCNTL, STENCILZFAIL_BF)
                        : G3D_FIELD_EX32(zs, ZB_ZSTENCILCNTL, STENCILZFAIL);
    bool pass;
    uint32_t nword;

    if (z24s8) {
        stored_z = word >> 8;
        zin = z24;
    } else {
        /* a 16-bit Z buffer keeps the top 16 of the 24 bits [R3xx 3D ref. §1.7
         * SU] */
        stored_z = word & 0xFFFF;
        zin = z24 >> 8;
    }
    /* stencil: (ref & mask) FUNC (stored & mask), the GL order (reference
     * defect R300-75, docs/references.md) */
    if (s_en && !g3d_compare_u(zs_func[func], ref & msk, st & msk)) {
        st = (st & ~wmask) | (g3d_stencil_op(sfail, st, ref) & wmask);
        pass = false;
    } else if (z_en &&
               !g3d_compare_u(zs_func[G3D_FIELD_EX32(zs, ZB_ZSTENCILCNTL,
                                                     ZFUNC)],
                              zin, stored_z)) {
        if (s_en) {
            st = (st & ~wmask) | (g3d_stencil_op(zfail, st, ref) & wmask);
        }
        pass = false;
    } else {
        /* ZPASS also applies when Z is disabled [R3xx 3D ref. §1.11 ZB] */
        if (s_en) {
            st = (st & ~wmask) | (g3d_stencil_op(zpass, st, ref) & wmask);
        }
        if (z_en && (cntl & R_ZB_CNTL_ZWRITEENABLE_MASK)) {
            stored_z = zin;
        }
        pass = true;
    }
    if (z24s8) {
        nword = stored_z << 8 | st;
    } else {
        nword = stored_z;
    }
    if (nword != word) {
        store_px(p, ds->zbpp, nword);
    }
    return pass;
}

static float fog_blend(const R300DrawState *ds, float v, float c, int ch)
{
    uint32_t fn = G3D_FIELD_EX32(ds->fog_blend, FG_FOG_BLEND, FN);
    float f;

    /*
     * The reference gives no equations [R3xx 3D ref. §1.2 FG; the OpenGL 2.1
     * specification]; this is the GL model on the scaled fog value: f is the
     * fraction of the fragment kept.
     */
    switch (fn) {
    case R300_FG_FN_LINEAR: f = 1.0f - v; break;
    case R300_FG_FN_EXP: f = expf(-v); break;
    case R300_FG_FN_EXP2: f = expf(-v * v); break;
    default: f = (float)(ds->fog_factor & 0x3FF) / 1023.0f; break;
    }
    f = g3d_clampf(f, 0.0f, 1.0f);
    return f * c + (1.0f - f) * ((float)(ds->fog_color[ch] & 0x3FF) / 1023.0f);
}

void r300_quad(void *opaque, const G3DQuad *q, int thread)
{
    const R300Tri *t = opaque;
    const R300DrawState *ds = t->ds;
    R300USQuad uq;
    const float (*w)[3] = ds->perspective ? q->bary : q->lin;
    unsigned i, k, zpassed = 0;

    /*
     * RS: unwritten temporaries are undefined; zero keeps it repeatable.
     * Only those the program or RS touch: the rest are never read.
     */
    for (i = 0; i < 4; i++) {
        memset(uq.temp[i], 0, ds->quad_temps * sizeof(uq.temp[i][0]));
        for (k = 0; k < ds->nvec; k++) {
            float *d = uq.temp[i][ds->vec_dest[k]];
            int ch;
            for (ch = 0; ch < 4; ch++) {
                d[ch] = g3d_interp(w[i], t->vec[0][k][ch], t->vec[1][k][ch],
                                   t->vec[2][k][ch]);
            }
        }
    }
    uq.live = q->mask;
    uq.kill = 0;
    uq.out_written = 0;
    uq.w_written = false;
    r300_us_exec(&ds->us, &uq, sample, (void *)ds);

    for (i = 0; i < 4; i++) {
        int x = q->x + (i & 1), y = q->y + (i >> 1);
        float z, fog;
        uint32_t z24;
        unsigned tg;

        if (!(q->mask & (1u << i)) || (uq.kill & (1u << i))) {
            continue;
        }
        if (ds->clip_rule != 0xFFFF && !clip_rule_pass(ds, x, y)) {
            continue;
        }
        /* FG: alpha test on target A's alpha, 8-bit [R3xx 3D ref. §1.2 FG] */
        if (ds->alpha_func & R_FG_ALPHA_FUNC_AF_EN_MASK) {
            uint32_t a8 = g3d_f2unorm(uq.out[i][0][3], 8);
            if (!g3d_compare_u(af_func[G3D_FIELD_EX32(ds->alpha_func,
                                                      FG_ALPHA_FUNC, AF_FUNC)],
                               a8, G3D_FIELD_EX32(ds->alpha_func,
                                                  FG_ALPHA_FUNC, AF_VAL))) {
                continue;
            }
        }
        if (ds->zb_cb_clear) {
            /* the ZB's share of a colour clear: the clear value, no test */
            store_px(ds->zbase + r300_tile_offset(&ds->ztiling, x, y),
                     ds->zbpp, ds->zclear);
        } else if (ds->zbase) {
            /* depth: the plane equation, or the shader's W output */
            if (ds->depth_from_shader && uq.w_written) {
                z = uq.w[i] * 16777215.0f;
            } else {
                z = g3d_interp(q->lin[i], t->z[0], t->z[1], t->z[2]);
            }
            z24 = (uint32_t)g3d_clampf(floorf(z + 0.5f), 0.0f, 16777215.0f);
            if (!depth_stencil(ds, x, y, z24, t->back)) {
                continue;
            }
        }
        zpassed++;
        fog = ds->fog_blend & R_FG_FOG_BLEND_ENABLE_MASK
              ? g3d_interp(w[i], t->fog[0], t->fog[1], t->fog[2]) : 0.0f;
        for (tg = 0; tg < ds->ncb; tg++) {
            const R300Target *target = &ds->cb[tg];
            float rgba[4];
            if (!target->base || !(uq.out_written & (1u << tg))) {
                continue;
            }
            memcpy(rgba, uq.out[i][tg], sizeof(rgba));
            if (ds->fog_blend & R_FG_FOG_BLEND_ENABLE_MASK) {
                int ch;
                for (ch = 0; ch < 3; ch++) {
                    rgba[ch] = fog_blend(ds, fog, rgba[ch], ch);
                }
            }
            write_colour(ds, target, x, y, rgba);
        }
    }
    ds->zpass_thread[thread] += zpassed;
}
