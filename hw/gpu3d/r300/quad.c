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
#ifdef __SSE2__
#include <emmintrin.h>
#endif

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
    /*
     * "COLORFORMAT_I8 stores the Z component (C2)", "COLORFORMAT_UV88
     * stores ZX (C2 and C0)" (Mesa r300_texture.c r300_translate_out_fmt,
     * which routes R8/L8/I8 to C2 and R8G8 as C2 = R, C0 = G, the X and Y
     * that TX_FMT_8 and TX_FMT_8_8 read back): C2 in the low byte, C0 in
     * UV88's high byte.
     */
    static const Packing i8 = { { 0, 0, 8, 0 }, { 0, 0, 0, 0 } };
    static const Packing uv88 = { { 8, 0, 8, 0 }, { 8, 0, 0, 0 } };

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

/*
 * 64- and 128-bit targets (ARGB16161616, ARGB32323232): the COLORFORMAT
 * gives the size only; US_OUT_FMT says what the bits are, as Mesa programs
 * them (r300_texture.c: r300_translate_colorformat and
 * r300_translate_out_fmt, which put RGBA16, RGBA16F and RG32F in
 * ARGB16161616 and RGBA32F in ARGB32323232). Components C0..C3 from the
 * lowest address up: the order TX reads 16_16_16_16, 16F_16F_16F_16F and
 * 32F_32F(_32F_32F) in. The same holds for 16- and 32-bit targets with
 * 16- or 32-bit components: Mesa puts R16/L16/A16 (C_16, C_16_FP) in
 * UV88 and RG16/LA16 (C2_16, C2_16_FP) and R32F (C_32_FP) in ARGB8888,
 * "these formats work fine with ARGB8888 if US_OUT_FMT is set correctly",
 * read back as TX_FMT_16, 16_16, 16F, 16F_16F and 32F.
 */
enum {
    R300_WIDE_NONE,
    R300_WIDE_UNORM16x4,        /* C4_16 */
    R300_WIDE_FP16x4,           /* C4_16_FP */
    R300_WIDE_FP32x2,           /* C2_32_FP */
    R300_WIDE_FP32x4,           /* C4_32_FP */
    R300_WIDE_UNORM16x1,        /* C_16 */
    R300_WIDE_UNORM16x2,        /* C2_16 */
    R300_WIDE_FP16x1,           /* C_16_FP */
    R300_WIDE_FP16x2,           /* C2_16_FP */
    R300_WIDE_FP32x1,           /* C_32_FP */
};

/* the number of components of a wide kind */
static unsigned wide_comps(unsigned wide)
{
    static const uint8_t n[] = {
        [R300_WIDE_UNORM16x4] = 4, [R300_WIDE_FP16x4] = 4,
        [R300_WIDE_FP32x2] = 2, [R300_WIDE_FP32x4] = 4,
        [R300_WIDE_UNORM16x1] = 1, [R300_WIDE_UNORM16x2] = 2,
        [R300_WIDE_FP16x1] = 1, [R300_WIDE_FP16x2] = 2,
        [R300_WIDE_FP32x1] = 1,
    };

    return wide < G_N_ELEMENTS(n) ? n[wide] : 0;
}

static unsigned wide_kind(uint32_t format, uint32_t out_fmt)
{
    unsigned of = G3D_FIELD_EX32(out_fmt, US_OUT_FMT_0, OUT_FMT);

    if (format == R300_COLOR_FORMAT_ARGB16161616) {
        switch (of) {
        case R300_US_OUT_FMT_C4_16: return R300_WIDE_UNORM16x4;
        case R300_US_OUT_FMT_C4_16_FP: return R300_WIDE_FP16x4;
        case R300_US_OUT_FMT_C2_32_FP: return R300_WIDE_FP32x2;
        }
    } else if (format == R300_COLOR_FORMAT_ARGB32323232 &&
               of == R300_US_OUT_FMT_C4_32_FP) {
        return R300_WIDE_FP32x4;
    } else if (format == R300_COLOR_FORMAT_ARGB8888) {
        switch (of) {
        case R300_US_OUT_FMT_C2_16: return R300_WIDE_UNORM16x2;
        case R300_US_OUT_FMT_C2_16_FP: return R300_WIDE_FP16x2;
        case R300_US_OUT_FMT_C_32_FP: return R300_WIDE_FP32x1;
        }
    } else if (format == R300_COLOR_FORMAT_UV88) {
        switch (of) {
        case R300_US_OUT_FMT_C_16: return R300_WIDE_UNORM16x1;
        case R300_US_OUT_FMT_C_16_FP: return R300_WIDE_FP16x1;
        }
    }
    return R300_WIDE_NONE;
}

/*
 * A DITHER_MODE or ALPHA_DITHER_MODE: true to round, false to truncate.
 * LUT dither (2) has no public contents: the reference gives no LUT
 * registers or values [R3xx 3D ref. §1.1 RB3D_DITHER_CTL], Linux's
 * radeon headers define none, and Mesa never enables it (r300_state.c:
 * "Neither fglrx nor classic r300 ever set this"); it rounds, logged.
 */
static bool dither_rounds(unsigned mode)
{
    if (mode == 2) {
        g3d_unimp("r300: RB3D_DITHER_CTL LUT dither (no public LUT); "
                  "rounded instead");
    } else if (mode == 3) {
        g3d_guest_error("r300: RB3D_DITHER_CTL mode 3 is reserved; "
                        "truncated");
    }
    return mode == 1 || mode == 2;
}

void r300_target_prepare(R300Target *tg, const R300DrawState *ds)
{
    Packing pk;
    int ch;

    tg->packable = packing(tg->format, &pk);
    tg->write_mask = 0;
    tg->wide = R300_WIDE_NONE;
    for (ch = 0; ch < 4; ch++) {
        static const uint8_t from_sel[4] = { 3, 0, 1, 2 };   /* A, R, G, B */
        tg->out_sel[ch] = from_sel[(tg->out_fmt >> (8 + 2 * ch)) & 3];
    }
    /*
     * "whether components C3, C2, C1 and C0 are signed (C4_8, C_16, C2_16
     * and C4_16 formats only)" [R3xx 3D ref. US_OUT_FMT]: Mesa sets it for
     * SNORM targets (r300_translate_out_fmt)
     */
    switch (G3D_FIELD_EX32(tg->out_fmt, US_OUT_FMT_0, OUT_FMT)) {
    case R300_US_OUT_FMT_C4_8:
    case R300_US_OUT_FMT_C_16:
    case R300_US_OUT_FMT_C2_16:
    case R300_US_OUT_FMT_C4_16:
        tg->out_sign = G3D_FIELD_EX32(tg->out_fmt, US_OUT_FMT_0, OUT_SIGN);
        break;
    default:
        tg->out_sign = 0;
        break;
    }
    tg->wide = wide_kind(tg->format, tg->out_fmt);
    if (tg->wide || tg->format == R300_COLOR_FORMAT_ARGB16161616 ||
        tg->format == R300_COLOR_FORMAT_ARGB32323232) {
        if (tg->wide == R300_WIDE_NONE) {
            g3d_unimp("r300: colour format %u with US_OUT_FMT %u not "
                      "modelled; not written", tg->format,
                      G3D_FIELD_EX32(tg->out_fmt, US_OUT_FMT_0, OUT_FMT));
            return;
        }
        /* R300 blends 8-10 bit unsigned normalised targets only (Mesa
         * r300_screen.c r300_is_blending_supported: RGBA16F is R500's) */
        if (ds->blend & R_RB3D_BLENDCNTL_ALPHA_BLEND_ENABLE_MASK) {
            g3d_guest_error("r300: blending on 16/32-bit components (a "
                            "%u-bit colour buffer, US_OUT_FMT %u); written "
                            "unblended", tg->bpp * 8,
                            G3D_FIELD_EX32(tg->out_fmt, US_OUT_FMT_0,
                                           OUT_FMT));
        }
        if (ds->rop & R_RB3D_ROPCNTL_ROP_ENABLE_MASK) {
            g3d_guest_error("r300: ROP on 16/32-bit components (a %u-bit "
                            "colour buffer); ignored", tg->bpp * 8);
        }
        tg->wide_mask = ds->chan_mask & 0xF;
        return;
    }
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
    /* RB3D_DITHER_CTL: truncate or round, colour and alpha apart */
    tg->round = dither_rounds(G3D_FIELD_EX32(ds->dither, RB3D_DITHER_CTL,
                                             DITHER_MODE)) || tg->bpp == 4;
    tg->round_alpha = dither_rounds(G3D_FIELD_EX32(ds->dither, RB3D_DITHER_CTL,
                                                   ALPHA_DITHER_MODE)) ||
                      tg->bpp == 4;
    /*
     * C4_8 quantises to 8 bits before the blender. Unblended into 8-bit
     * fields with rounding that gives the same bits (checked for every
     * float in [0, 1]), so it is skipped there.
     */
    tg->prequantise = G3D_FIELD_EX32(tg->out_fmt, US_OUT_FMT_0, OUT_FMT) ==
                      R300_US_OUT_FMT_C4_8 && !tg->out_sign &&
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
    uint32_t v;

    if (!tg->bits[k]) {
        return k == 3 ? 1.0f : 0.0f;
    }
    v = (px >> tg->shift[k]) & ((1u << tg->bits[k]) - 1);
    if ((tg->out_sign >> k) & 1) {
        float f = (float)g3d_sextract32(v, 0, tg->bits[k]) /
                  (float)((1u << (tg->bits[k] - 1)) - 1);
        return f < -1.0f ? -1.0f : f;
    }
    return (float)v / (float)((1u << tg->bits[k]) - 1);
}

static uint32_t comp_put(float v, const R300Target *tg, int k)
{
    float max = (float)((1u << tg->bits[k]) - 1);

    if (!tg->bits[k]) {
        return 0;
    }
    if ((tg->out_sign >> k) & 1) {
        return g3d_f2snorm(v, tg->bits[k]) << tg->shift[k];
    }
    v = g3d_clampf(v, 0.0f, 1.0f) * max;
    return (uint32_t)((k == 3 ? tg->round_alpha : tg->round) ? v + 0.5f : v)
           << tg->shift[k];
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

/* a pixel of 16- or 32-bit components: stored whole, masked per component */
static void write_wide(const R300Target *tg, uint8_t *p, const float *rgba)
{
    unsigned ncomp = wide_comps(tg->wide);
    unsigned size = tg->bpp / ncomp, k;

    for (k = 0; k < ncomp; k++) {
        float v = rgba[tg->out_sel[k]];
        uint32_t bits;

        if (!(tg->wide_mask & (1u << k))) {
            continue;
        }
        switch (tg->wide) {
        case R300_WIDE_UNORM16x4:
        case R300_WIDE_UNORM16x2:
        case R300_WIDE_UNORM16x1:
            bits = (tg->out_sign >> k) & 1 ? g3d_f2snorm(v, 16)
                                           : g3d_f2unorm(v, 16);
            break;
        case R300_WIDE_FP16x4:
        case R300_WIDE_FP16x2:
        case R300_WIDE_FP16x1:
            bits = g3d_float_pack(v, &g3d_fp16_ieee);
            break;
        default:
            bits = g3d_f2u(v);
            break;
        }
        store_px(p + k * size, size, bits);
    }
}

static void write_colour(const R300DrawState *ds, const R300Target *tg,
                         int x, int y, const float *rgba)
{
    uint8_t *p = tg->base + r300_tile_offset(&tg->tiling, x, y);
    uint32_t dst, res = 0;
    float s[4], d[4], k[4], o[4];
    int ch;

    if (tg->wide) {
        write_wide(tg, p, rgba);
        return;
    }
    if (!tg->packable) {
        return;
    }
    dst = load_px(p, tg->bpp);
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

/*
 * g3d_clampf(v, 0, 1) as max then min: the same result for every float
 * (NaN and -0 give +0), and one maxss/minss (maxps/minps) each.
 */
static inline float clamp01(float v)
{
    v = v > 0.0f ? v : 0.0f;
    return v < 1.0f ? v : 1.0f;
}

/*
 * write_colour for ARGB8888 without blending or ROP: the same operations as
 * comp_put for 8-bit fields with rounding (the only mode at 32 bpp), and the
 * destination read only when the channel mask keeps some of its bits.
 */
static void write_argb8888(const R300DrawState *ds, const R300Target *tg,
                           int x, int y, const float *rgba)
{
    uint8_t *p = tg->base + r300_tile_offset(&tg->tiling, x, y);
    uint32_t res;
#ifdef __SSE2__
    /* MAXPS/MINPS are "a > b ? a : b" / "a < b ? a : b": clamp01 per lane */
    __m128 v = _mm_setr_ps(rgba[tg->out_sel[0]], rgba[tg->out_sel[1]],
                           rgba[tg->out_sel[2]], rgba[tg->out_sel[3]]);
    __m128i u;

    v = _mm_min_ps(_mm_max_ps(v, _mm_setzero_ps()), _mm_set1_ps(1.0f));
    v = _mm_add_ps(_mm_mul_ps(v, _mm_set1_ps(255.0f)), _mm_set1_ps(0.5f));
    u = _mm_cvttps_epi32(v);
    u = _mm_packs_epi32(u, u);
    res = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(u, u));
#else
    res = (uint32_t)(clamp01(rgba[tg->out_sel[0]]) * 255.0f + 0.5f) |
          (uint32_t)(clamp01(rgba[tg->out_sel[1]]) * 255.0f + 0.5f) << 8 |
          (uint32_t)(clamp01(rgba[tg->out_sel[2]]) * 255.0f + 0.5f) << 16 |
          (uint32_t)(clamp01(rgba[tg->out_sel[3]]) * 255.0f + 0.5f) << 24;
#endif
    if (tg->write_mask != 0xFFFFFFFFu) {
        res = (load_px(p, 4) & ~tg->write_mask) | (res & tg->write_mask);
    }
    store_px(p, 4, res);
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

/*
 * 13E3: 16-bit floating Z [R3xx 3D ref. §1.11 ZB_FORMAT]. The reference
 * names the format and its INVERT bit only ("count leading 0's" / "count
 * leading 1's"); the layout is the device's choice: the 3-bit exponent
 * counts the leading zeros of the 24-bit Z (E = 7 - zeros, E = 0 for 7 or
 * more, with no implicit 1), the 13 bits after the leading 1 are the
 * mantissa. Codes rise with Z, so the compare works on codes. INVERT
 * encodes 2^24-1 - Z the same way and inverts the code: the precision goes
 * to Z near 1 (a reversed depth range) and codes still rise with Z.
 */
static uint32_t z13e3_of(uint32_t z24)
{
    int lead = z24 ? 23 - (31 - __builtin_clz(z24)) : 24;

    if (lead >= 7) {
        return (z24 >> 4) & 0x1FFF;
    }
    return (uint32_t)(7 - lead) << 13 | ((z24 >> (10 - lead)) & 0x1FFF);
}

static uint32_t z13e3_encode(uint32_t z24, bool invert)
{
    return invert ? 0xFFFF - z13e3_of(0xFFFFFF - z24) : z13e3_of(z24);
}

/* Depth and stencil for one pixel; true if the fragment survives. */
static bool depth_stencil(const R300DrawState *ds, int x, int y, uint32_t z24,
                          bool back)
{
    uint32_t cntl = ds->zb_cntl, zs = ds->zstencil, rm = ds->stencil_refmask;
    uint8_t *p = ds->zbase + r300_tile_offset(&ds->ztiling, x, y);
    bool z24s8 = ds->zformat == R300_DEPTHFORMAT_24BIT_INT_Z_8BIT_STENCIL;
    uint32_t word, stored_z, zin;
    uint8_t st;
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
        zin = z24;
    } else if (ds->zformat == R300_DEPTHFORMAT_16BIT_13E3) {
        zin = z13e3_encode(z24, ds->zinvert);
    } else {
        /* a 16-bit Z buffer keeps the top 16 of the 24 bits [R3xx 3D ref. §1.7
         * SU] */
        zin = z24 >> 8;
    }
    if (ds->hz.on) {
        if (r300_zb_hiz_reject(ds, x, y, zin)) {
            return false;
        }
        r300_zb_fetch(ds, x, y);
    }
    word = load_px(p, ds->zbpp);
    st = z24s8 ? word & 0xFF : 0;
    stored_z = z24s8 ? word >> 8 : word & 0xFFFF;
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
        if (ds->hz.on) {
            r300_zb_written(ds, x, y);
        }
    }
    return pass;
}

/*
 * depth_stencil without a stencil test (disabled, or no stencil in the
 * format): the compare and the write decided per draw.
 */
static bool depth_z24(const R300DrawState *ds, int x, int y, uint32_t z24,
                      bool back)
{
    uint8_t *p = ds->zbase + r300_tile_offset(&ds->ztiling, x, y);
    uint32_t word = load_px(p, 4), nword;

    if (!g3d_compare_u(ds->zfunc, z24, word >> 8)) {
        return false;
    }
    nword = z24 << 8 | (word & 0xFF);
    if (ds->zwrite && nword != word) {
        store_px(p, 4, nword);
    }
    return true;
}

static bool depth_z16(const R300DrawState *ds, int x, int y, uint32_t z24,
                      bool back)
{
    uint8_t *p = ds->zbase + r300_tile_offset(&ds->ztiling, x, y);
    uint32_t word = load_px(p, 2);

    if (!g3d_compare_u(ds->zfunc, z24 >> 8, word)) {
        return false;
    }
    if (ds->zwrite && z24 >> 8 != word) {
        store_px(p, 2, z24 >> 8);
    }
    return true;
}

/*
 * ZB_BW_CNTL.ZB_CB_CLEAR: the ZB's share of a colour clear writes
 * ZB_DEPTHCLEARVALUE, no test [R3xx 3D ref. ZB_BW_CNTL; Mesa r300_blit.c
 * CBZB clear]
 */
static bool depth_cb_clear(const R300DrawState *ds, int x, int y,
                           uint32_t z24, bool back)
{
    store_px(ds->zbase + r300_tile_offset(&ds->ztiling, x, y), ds->zbpp,
             ds->zclear);
    return true;
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

/*
 * AA resolve of one pixel: target 0's samples averaged into the resolve
 * target [R3xx 3D ref. §1.1 RB3D_AARESOLVE_CTL]. The fragment's colour is
 * not used: Mesa resolves by drawing a rectangle whose colour is undefined
 * (r300_blit.c r300_simple_msaa_resolve). AARESOLVE_GAMMA 2.2 linearises
 * the samples (c^2.2) before the mean and re-encodes it (^1/2.2) after;
 * alpha is never gamma-corrected, and is sample 0's unless
 * AARESOLVE_ALPHA averages it (Mesa r300_reg.h).
 */
static void resolve_pixel(const R300DrawState *ds, int x, int y)
{
    const R300Target *src = &ds->cb[0], *dst = &ds->resolve;
    uint8_t *p = dst->base + r300_tile_offset(&dst->tiling, x, y);
    uint32_t px[R300_MAX_SAMPLES], res = 0;
    unsigned n = ds->samples, s, k;

    for (s = 0; s < n; s++) {
        if (ds->cmask.ram) {
            r300_mask_fetch(&ds->cmask, x * n + s, y);  /* zb.c */
        }
        px[s] = load_px(src->base + r300_tile_offset(&src->tiling, x * n + s,
                                                     y), src->bpp);
    }
    for (k = 0; k < 4; k++) {
        uint32_t max = (1u << src->bits[k]) - 1, v;
        double sum = 0;

        if (!src->bits[k]) {
            continue;
        }
        if (k == 3 && !ds->resolve_alpha_avg) {
            v = (px[0] >> src->shift[k]) & max;
        } else if (k != 3 && ds->resolve_gamma) {
            for (s = 0; s < n; s++) {
                sum += pow(((px[s] >> src->shift[k]) & max) / (double)max, 2.2);
            }
            v = (uint32_t)floor(pow(sum / n, 1 / 2.2) * max + 0.5);
        } else {
            uint32_t isum = 0;
            for (s = 0; s < n; s++) {
                isum += (px[s] >> src->shift[k]) & max;
            }
            v = (isum + n / 2) / n;
        }
        res |= MIN(v, max) << src->shift[k];
    }
    store_px(p, dst->bpp, (load_px(p, dst->bpp) & ~dst->write_mask) |
                          (res & dst->write_mask));
}

/*
 * After the US: clip rule, alpha test, depth/stencil, fog and the colour
 * writes of the quad's pixels, from the program's outputs in *uq.
 */
static inline __attribute__((always_inline)) void
quad_tail(const R300Tri *t, const G3DQuad *q, const float (*w)[3],
          const R300USQuad *uq, int thread)
{
    const R300DrawState *ds = t->ds;
    unsigned i, zpassed = 0;

    for (i = 0; i < 4; i++) {
        int x = q->x + (i & 1), y = q->y + (i >> 1);
        /* the surfaces' column: sample t->sample of pixel x */
        int sx = x * ds->samples + t->sample;
        float z, fog;
        uint32_t z24, targets;
        unsigned tg;

        if (!(q->mask & (1u << i)) || (uq->kill & (1u << i))) {
            continue;
        }
        if (ds->clip_rule != 0xFFFF && !clip_rule_pass(ds, x, y)) {
            continue;
        }
        /* FG: alpha test on target A's alpha, 8-bit [R3xx 3D ref. §1.2 FG] */
        if (ds->alpha_func & R_FG_ALPHA_FUNC_AF_EN_MASK) {
            uint32_t a8 = g3d_f2unorm(uq->out[i][0][3], 8);
            if (!g3d_compare_u(af_func[G3D_FIELD_EX32(ds->alpha_func,
                                                      FG_ALPHA_FUNC, AF_FUNC)],
                               a8, G3D_FIELD_EX32(ds->alpha_func,
                                                  FG_ALPHA_FUNC, AF_VAL))) {
                continue;
            }
        }
        if (ds->depth) {
            /* depth: the plane equation, or the shader's W output */
            if (ds->depth_from_shader && uq->w_written) {
                z = uq->w[i] * 16777215.0f;
            } else {
                /*
                 * the plane form z0 + dz: a polygon of one depth gets that
                 * depth at every pixel, as the SU's plane equation gives
                 * (a weighted sum of three equal 24-bit values can round
                 * one step off, a slope a face-on polygon does not have)
                 */
                z = t->z[0] + q->lin[i][1] * (t->z[1] - t->z[0]) +
                    q->lin[i][2] * (t->z[2] - t->z[0]);
            }
            /* to nearest: roundf, since above 2^23 a float's step is 1 and
             * floorf(z + 0.5f) would round every odd depth up one step */
            z24 = (uint32_t)g3d_clampf(roundf(z), 0.0f, 16777215.0f);
            if (!ds->depth(ds, sx, y, z24, t->back)) {
                continue;
            }
        }
        zpassed++;
        fog = ds->fog_blend & R_FG_FOG_BLEND_ENABLE_MASK
              ? g3d_interp(w[i], t->fog[0], t->fog[1], t->fog[2]) : 0.0f;
        /* the targets with a surface that the program wrote, in order;
         * with NUM_MULTIWRITES output 0 goes to targets 0..multiwrite */
        targets = uq->out_written;
        if (ds->multiwrite) {
            targets = targets & 1 ? (2u << ds->multiwrite) - 1 : 0;
        }
        for (targets &= ds->cb_mapped; targets; targets &= targets - 1) {
            const R300Target *target;
            float rgba[4];

            tg = __builtin_ctz(targets);
            target = &ds->cb[tg];
            if (tg == 0 && ds->cmask.ram) {
                r300_mask_fetch(&ds->cmask, sx, y);     /* zb.c */
            }
            memcpy(rgba, uq->out[i][ds->multiwrite ? 0 : tg], sizeof(rgba));
            if (ds->fog_blend & R_FG_FOG_BLEND_ENABLE_MASK) {
                int ch;
                for (ch = 0; ch < 3; ch++) {
                    rgba[ch] = fog_blend(ds, fog, rgba[ch], ch);
                }
            }
            target->write(ds, target, sx, y, rgba);
        }
    }
    r300_zpass_add(ds, thread, zpassed);
}

void r300_quad(void *opaque, const G3DQuad *q, int thread)
{
    const R300Tri *t = opaque;
    const R300DrawState *ds = t->ds;
    R300USQuad uq;
    const float (*w)[3] = ds->perspective ? q->bary : q->lin;
    unsigned i, k;

    if (ds->resolving) {
        for (i = 0; i < 4; i++) {
            if (q->mask & (1u << i)) {
                resolve_pixel(ds, q->x + (i & 1), q->y + (i >> 1));
            }
        }
        return;
    }

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
    quad_tail(t, q, w, &uq, thread);
}

typedef float V4F __attribute__((vector_size(16)));

/*
 * RS vector `vec` at the quad's 4 pixels (-1: none, zero): g3d_interp's
 * operations, the 4 components in one vector.
 */
static inline void rs_temp(const R300Tri *t, const float (*w)[3], int vec,
                           float out[4][4])
{
    V4F a0, a1, a2, r;
    int i;

    if (vec < 0) {
        memset(out, 0, 4 * sizeof(out[0]));
        return;
    }
    memcpy(&a0, t->vec[0][vec], sizeof(a0));
    memcpy(&a1, t->vec[1][vec], sizeof(a1));
    memcpy(&a2, t->vec[2][vec], sizeof(a2));
    for (i = 0; i < 4; i++) {
        r = w[i][0] * a0 + w[i][1] * a1 + w[i][2] * a2;
        memcpy(out[i], &r, sizeof(r));
    }
}

/*
 * r300_quad for a program r300_us_match_move recognised: only the RS
 * vectors the move and its fetch read are interpolated, and the move is the
 * interpreter's MAD src * 1 + 0 and clamp, per pixel.
 */
static void quad_move(void *opaque, const G3DQuad *q, int thread)
{
    const R300Tri *t = opaque;
    const R300DrawState *ds = t->ds;
    const R300USMove *m = &ds->move;
    const float (*w)[3] = ds->perspective ? q->bary : q->lin;
    float src[4][4];
    R300USQuad uq;
    int i, ch;

    if (m->tex) {
        float coord[4][4], res[4][4];

        rs_temp(t, w, ds->move_coord_vec, coord);
        sample((void *)ds, m->tex_op.unit, m->tex_op.inst,
               (const float (*)[4])coord, res);
        if (m->tex_op.dst == m->src) {
            memcpy(src, res, sizeof(src));
        } else if (m->tex_op.src == m->src) {
            memcpy(src, coord, sizeof(src));
        } else {
            rs_temp(t, w, ds->move_src_vec, src);
        }
    } else {
        rs_temp(t, w, ds->move_src_vec, src);
    }
    for (i = 0; i < 4; i++) {
        float *o = uq.out[i][m->target];
        for (ch = 0; ch < 4; ch++) {
            o[ch] = src[i][ch] * 1.0f + 0.0f;
            if (ch < 3 ? m->rgb_clamp : m->alpha_clamp) {
                o[ch] = clamp01(o[ch]);
            }
        }
    }
    uq.kill = 0;
    uq.out_written = 1u << m->target;
    uq.w_written = false;
    quad_tail(t, q, w, &uq, thread);
}

/* the last RS vector written to temporary `temp` (RS order), or -1 */
static int rs_vec_of(const R300DrawState *ds, unsigned temp)
{
    int k, found = -1;

    for (k = 0; k < (int)ds->nvec; k++) {
        if (ds->vec_dest[k] == temp) {
            found = k;
        }
    }
    return found;
}

void r300_draw_specialise(R300DrawState *ds)
{
    uint32_t cntl = ds->zb_cntl;
    bool z_en = cntl & R_ZB_CNTL_Z_ENABLE_MASK;
    bool s_en = (cntl & R_ZB_CNTL_STENCIL_ENABLE_MASK) &&
                ds->zformat == R300_DEPTHFORMAT_24BIT_INT_Z_8BIT_STENCIL;
    unsigned t;

    ds->shade = r300_quad;
    ds->depth = ds->zbase ? depth_stencil : NULL;
    ds->zfunc = z_en ? zs_func[G3D_FIELD_EX32(ds->zstencil, ZB_ZSTENCILCNTL,
                                              ZFUNC)]
                     : G3D_CMP_ALWAYS;
    ds->zwrite = z_en && (cntl & R_ZB_CNTL_ZWRITEENABLE_MASK);
    ds->cb_mapped = 0;
    for (t = 0; t < 4; t++) {
        ds->cb[t].write = write_colour;
        if (t < ds->ncb && ds->cb[t].base) {
            ds->cb_mapped |= 1u << t;
        }
    }
    if (ds->zb_cb_clear) {
        ds->depth = depth_cb_clear;
    }
    ds->lanes.flat = ds->lanes.span = false;
    if (g3d_general_path || ds->buffers_overlap) {
        return;
    }
    if (!ds->resolving && r300_us_match_move(&ds->us, &ds->move)) {
        ds->shade = quad_move;
        ds->move_src_vec = rs_vec_of(ds, ds->move.src);
        ds->move_coord_vec = ds->move.tex ? rs_vec_of(ds, ds->move.tex_op.src)
                                          : -1;
    }
    if (ds->zb_cb_clear || ds->hz.on) {
        /* depth_cb_clear, chosen above; HyperZ: depth_stencil */
    } else if (ds->zbase && !s_en && !z_en) {
        /* neither test can fail nor write: no depth read at all */
        ds->depth = NULL;
    } else if (ds->zbase && !s_en &&
               ds->zformat == R300_DEPTHFORMAT_24BIT_INT_Z_8BIT_STENCIL) {
        ds->depth = depth_z24;
    } else if (ds->zbase && ds->zformat == R300_DEPTHFORMAT_16BIT_INT_Z) {
        ds->depth = depth_z16;          /* no stencil in the format */
    }
    for (t = 0; t < ds->ncb; t++) {
        R300Target *tg = &ds->cb[t];
        if (tg->packable && !tg->wide &&
            tg->format == R300_COLOR_FORMAT_ARGB8888 &&
            !(ds->blend & R_RB3D_BLENDCNTL_ALPHA_BLEND_ENABLE_MASK) &&
            !(ds->rop & R_RB3D_ROPCNTL_ROP_ENABLE_MASK) &&
            tg->round && tg->round_alpha && !tg->prequantise &&
            !tg->out_sign) {
            tg->write = write_argb8888;
        }
    }
    if (ds->shade == quad_move) {
        G3DQuadFn *lanes = r300_quad_lanes_choose(ds, ds->depth == depth_z24);
        if (lanes) {
            ds->shade = lanes;
        }
    }
}
