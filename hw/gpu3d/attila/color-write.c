/*
 * The Color Write unit: render-target formats (ATTILA ref. Render Buffer
 * Formats), blending (ATTILA ref. Color/Blend Registers: BlendEquation,
 * BlendFactor), the sRGB round trip, the logic operation (LogicOperation,
 * RT0 and RGBA8888 only), the color masks, and the color clear.
 *
 * Arithmetic follows GPUEmulator::emulateColorWrite: an RGBA8888 target
 * clamps the incoming color to [0, 1] (a NaN becomes 1), the buffer is read
 * back as float (x * (1/255)), blended in float, and stored truncated
 * (u8(255 * clamp(c))).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"

#include "common/fpformat.h"
#include "common/fill.h"
#include "common/fragment.h"
#include "common/g3d-core.h"

#include <glib.h>
#include <math.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_AVX_PATH 1
#endif

uint32_t attila_rt_bytes(uint32_t fmt)
{
    switch (fmt) {
    case ATTILA_FMT_RGBA8888:
    case ATTILA_FMT_RG16F:
    case ATTILA_FMT_R32F:
        return 4;
    case ATTILA_FMT_RGBA16:
    case ATTILA_FMT_RGBA16F:
        return 8;
    default:
        return 0;
    }
}

/* GPU_CLAMP(v, 0, 1): NaN fails both tests and becomes 1 */
static inline float clamp01(float v)
{
    return (0.0f <= v && v <= 1.0f) ? v : (v < 0.0f ? 0.0f : 1.0f);
}

static inline uint16_t ld16(const uint8_t *p)
{
    return p[0] | p[1] << 8;
}

static inline void st16(uint8_t *p, uint16_t v)
{
    p[0] = v;
    p[1] = v >> 8;
}

void attila_color_read(uint32_t format, const uint8_t *px, float out[4])
{
    int c;

    switch (format) {
    case ATTILA_FMT_RGBA8888:
        for (c = 0; c < 4; c++) {
            out[c] = (float)px[c] * (1.0f / 255.0f);
        }
        break;
    case ATTILA_FMT_RG16F:
        out[0] = g3d_float_unpack(ld16(px), &g3d_fp16_ieee);
        out[1] = g3d_float_unpack(ld16(px + 2), &g3d_fp16_ieee);
        out[2] = 0.0f;
        out[3] = 1.0f;
        break;
    case ATTILA_FMT_R32F:
        memcpy(&out[0], px, 4);
        out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
        break;
    case ATTILA_FMT_RGBA16:
        for (c = 0; c < 4; c++) {
            out[c] = (float)ld16(px + 2 * c) * (1.0f / 65535.0f);
        }
        break;
    case ATTILA_FMT_RGBA16F:
        for (c = 0; c < 4; c++) {
            out[c] = g3d_float_unpack(ld16(px + 2 * c), &g3d_fp16_ieee);
        }
        break;
    default:
        out[0] = out[1] = out[2] = out[3] = 0.0f;
        break;
    }
}

void attila_color_pack(uint32_t format, const float in[4], uint8_t *px)
{
    int c;

    switch (format) {
    case ATTILA_FMT_RGBA8888:
        for (c = 0; c < 4; c++) {
            px[c] = (uint8_t)(255.0f * clamp01(in[c]));
        }
        break;
    case ATTILA_FMT_RG16F:
        st16(px, g3d_float_pack(in[0], &g3d_fp16_ieee));
        st16(px + 2, g3d_float_pack(in[1], &g3d_fp16_ieee));
        break;
    case ATTILA_FMT_R32F:
        memcpy(px, &in[0], 4);
        break;
    case ATTILA_FMT_RGBA16:
        for (c = 0; c < 4; c++) {
            st16(px + 2 * c, (uint16_t)(65535.0f * clamp01(in[c])));
        }
        break;
    case ATTILA_FMT_RGBA16F:
        for (c = 0; c < 4; c++) {
            st16(px + 2 * c, g3d_float_pack(in[c], &g3d_fp16_ieee));
        }
        break;
    default:
        break;
    }
}

/* sRGB as the simulator does it: a 2.2 power, alpha untouched */
static void srgb_to_linear(float c[4])
{
    int k;

    for (k = 0; k < 3; k++) {
        c[k] = (float)pow((double)c[k], (double)2.2f);
    }
}

static void linear_to_srgb(float c[4])
{
    int k;

    for (k = 0; k < 3; k++) {
        c[k] = (float)pow((double)c[k], (double)(1.0f / 2.2f));
    }
}

/* BlendFunction (ATTILA ref. Color/Blend Registers, BlendFactor) to the shared
 * blend factors */
static const G3DBlendFactor bf_map[15] = {
    G3D_BF_ZERO, G3D_BF_ONE, G3D_BF_SRC_COLOR, G3D_BF_INV_SRC_COLOR,
    G3D_BF_DST_COLOR, G3D_BF_INV_DST_COLOR, G3D_BF_SRC_ALPHA,
    G3D_BF_INV_SRC_ALPHA, G3D_BF_DST_ALPHA, G3D_BF_INV_DST_ALPHA,
    G3D_BF_CONST_COLOR, G3D_BF_INV_CONST_COLOR, G3D_BF_CONST_ALPHA,
    G3D_BF_INV_CONST_ALPHA, G3D_BF_SRC_ALPHA_SAT,
};

static const G3DBlendEq beq_map[5] = {
    G3D_BEQ_ADD, G3D_BEQ_SUB, G3D_BEQ_REV_SUB, G3D_BEQ_MIN, G3D_BEQ_MAX,
};

/* byte write masks per format and channel mask */
static void write_masked(uint32_t format, const bool mask[4], uint8_t *dst,
                         const uint8_t *src)
{
    int c;

    switch (format) {
    case ATTILA_FMT_RGBA8888:
        for (c = 0; c < 4; c++) {
            if (mask[c]) {
                dst[c] = src[c];
            }
        }
        break;
    case ATTILA_FMT_RG16F:
        for (c = 0; c < 2; c++) {
            if (mask[c]) {
                memcpy(dst + 2 * c, src + 2 * c, 2);
            }
        }
        break;
    case ATTILA_FMT_R32F:
        if (mask[0]) {
            memcpy(dst, src, 4);
        }
        break;
    default:        /* RGBA16, RGBA16F */
        for (c = 0; c < 4; c++) {
            if (mask[c]) {
                memcpy(dst + 2 * c, src + 2 * c, 2);
            }
        }
        break;
    }
}

void attila_color_choose(const AttilaDrawState *ds, AttilaRenderTarget *rt,
                         int rt_index)
{
    static const uint8_t code[15] = {
        [ATTILA_BF_ZERO] = ATTILA_FAC_ZERO, [ATTILA_BF_ONE] = ATTILA_FAC_ONE,
        [ATTILA_BF_SRC_COLOR] = ATTILA_FAC_OTHER,
        [ATTILA_BF_ONE_MINUS_SRC_COLOR] = ATTILA_FAC_OTHER,
        [ATTILA_BF_DST_COLOR] = ATTILA_FAC_OTHER,
        [ATTILA_BF_ONE_MINUS_DST_COLOR] = ATTILA_FAC_OTHER,
        [ATTILA_BF_SRC_ALPHA] = ATTILA_FAC_SRC_ALPHA,
        [ATTILA_BF_ONE_MINUS_SRC_ALPHA] = ATTILA_FAC_INV_SRC_ALPHA,
        [ATTILA_BF_DST_ALPHA ... ATTILA_BF_SRC_ALPHA_SATURATE] =
            ATTILA_FAC_OTHER,
    };
    /* the factors 0, 1, As, 1 - As as base + slope * As (attila_color_write4) */
    static const float base[4] = { 0.0f, 1.0f, 0.0f, 1.0f };
    static const float slope[4] = { 0.0f, 0.0f, 1.0f, -1.0f };
    const uint32_t f[4] = { rt->src_rgb, rt->dst_rgb, rt->src_a, rt->dst_a };
    int k;

    rt->path = ATTILA_CW_GENERAL;
    rt->chan = 0;
    for (k = 0; k < 4; k++) {
        rt->chan |= rt->mask[k] ? 0xffu << (8 * k) : 0;
    }
    if (g3d_general_path || rt->format != ATTILA_FMT_RGBA8888 ||
        ds->srgb_write || (rt_index == 0 && ds->logic_op)) {
        return;
    }
    if (!rt->blend) {
        rt->path = ATTILA_CW_RGBA8;
        return;
    }
    if (rt->equation != ATTILA_BLEND_ADD) {
        return;
    }
    for (k = 0; k < 4; k++) {
        if (f[k] >= 15 || code[f[k]] == ATTILA_FAC_OTHER) {
            return;
        }
        rt->factor[k] = code[f[k]];
    }
    for (k = 0; k < 4; k++) {
        /* source rgb, rgb, rgb, alpha; destination likewise */
        int sf = rt->factor[k < 3 ? 0 : 2], df = rt->factor[k < 3 ? 1 : 3];
        rt->fbase[0][k] = base[sf];
        rt->fslope[0][k] = slope[sf];
        rt->fbase[1][k] = base[df];
        rt->fslope[1][k] = slope[df];
    }
    rt->path = ATTILA_CW_RGBA8_BLEND;
}

/*
 * attila_color_write for the RGBA8888 paths: the general path's clamp,
 * read-back (x * (1/255)), blend (s * sf + d * df, g3d_blend_float's ADD
 * with the factors g3d_blend_factor gives) and pack, in the same float
 * operations, without the per-pixel decisions.
 */
static void write_rgba8(const AttilaRenderTarget *rt, uint8_t *px,
                        const float color[4])
{
#ifdef __SSE2__
    /*
     * The four channels at once. MINPS then MAXPS is clamp01 per lane (a
     * NaN becomes 1) except that -0 becomes +0, which gives the same byte
     * here: the products and sums it reaches are zeros, truncated to 0.
     */
    const __m128 one = _mm_set1_ps(1.0f), zero = _mm_setzero_ps();
    __m128 s = _mm_max_ps(_mm_min_ps(_mm_loadu_ps(color), one), zero);
    __m128i u;
    uint32_t res;
    int c;

    if (rt->path == ATTILA_CW_RGBA8_BLEND) {
        uint32_t w;
        __m128i di;
        __m128 d, sf, df;
        float sa = _mm_cvtss_f32(_mm_shuffle_ps(s, s, _MM_SHUFFLE(3, 3, 3, 3)));
        float fac[4] = { 0.0f, 1.0f, sa, 1.0f - sa };

        memcpy(&w, px, 4);
        di = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)w), _mm_setzero_si128());
        di = _mm_unpacklo_epi16(di, _mm_setzero_si128());
        d = _mm_mul_ps(_mm_cvtepi32_ps(di), _mm_set1_ps(1.0f / 255.0f));
        sf = _mm_setr_ps(fac[rt->factor[0]], fac[rt->factor[0]],
                         fac[rt->factor[0]], fac[rt->factor[2]]);
        df = _mm_setr_ps(fac[rt->factor[1]], fac[rt->factor[1]],
                         fac[rt->factor[1]], fac[rt->factor[3]]);
        s = _mm_add_ps(_mm_mul_ps(s, sf), _mm_mul_ps(d, df));
        s = _mm_max_ps(_mm_min_ps(s, one), zero);
    }
    u = _mm_cvttps_epi32(_mm_mul_ps(s, _mm_set1_ps(255.0f)));
    u = _mm_packs_epi32(u, u);
    res = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(u, u));
    if (rt->mask[0] && rt->mask[1] && rt->mask[2] && rt->mask[3]) {
        memcpy(px, &res, 4);
        return;
    }
    for (c = 0; c < 4; c++) {
        if (rt->mask[c]) {
            px[c] = res >> (8 * c);
        }
    }
#else
    float s[4], b[4];
    int c;

    for (c = 0; c < 4; c++) {
        s[c] = clamp01(color[c]);
    }
    if (rt->path == ATTILA_CW_RGBA8_BLEND) {
        float d[4], fac[4] = { 0.0f, 1.0f, s[3], 1.0f - s[3] };
        for (c = 0; c < 4; c++) {
            d[c] = (float)px[c] * (1.0f / 255.0f);
        }
        for (c = 0; c < 3; c++) {
            b[c] = s[c] * fac[rt->factor[0]] + d[c] * fac[rt->factor[1]];
        }
        b[3] = s[3] * fac[rt->factor[2]] + d[3] * fac[rt->factor[3]];
    } else {
        memcpy(b, s, sizeof(b));
    }
    for (c = 0; c < 4; c++) {
        if (rt->mask[c]) {
            px[c] = (uint8_t)(255.0f * clamp01(b[c]));
        }
    }
#endif
}

#ifdef __SSE2__
/* slot j's byte mask: bit j of the index */
const uint32_t attila_slot_masks[16][4] __attribute__((aligned(16))) = {
#define S(m) { (m) & 1 ? ~0u : 0, (m) & 2 ? ~0u : 0, (m) & 4 ? ~0u : 0, \
               (m) & 8 ? ~0u : 0 }
    S(0), S(1), S(2), S(3), S(4), S(5), S(6), S(7),
    S(8), S(9), S(10), S(11), S(12), S(13), S(14), S(15),
};

/* two pixels' slots (a 4-sample stamp's pair): bits 0-3 the first's, 4-7
 * the second's */
const uint32_t attila_slot_masks2[256][2][4] __attribute__((aligned(32))) = {
#define P(m) { S((m) & 15), S((m) >> 4) }
#define P4(m) P(m), P((m) + 1), P((m) + 2), P((m) + 3)
#define P16(m) P4(m), P4((m) + 4), P4((m) + 8), P4((m) + 12)
#define P64(m) P16(m), P16((m) + 16), P16((m) + 32), P16((m) + 48)
    P64(0), P64(64), P64(128), P64(192),
#undef P64
#undef P16
#undef P4
#undef P
#undef S
};

/*
 * Four consecutive 4-byte slots of an RGBA8888 target on its chosen path
 * (a stamp's four pixels, or a pixel's samples: ATTILA ref. Render Buffer
 * Tiling keeps both consecutive), the colours by channel: lane j of ch[c]
 * is slot j's channel c, and slot j is written where bit j of `mask` is
 * set. The four are read, blended, packed and stored as one 16-byte
 * vector; each slot's channel takes write_rgba8's float operations (the
 * same ones whatever lane it is in), and the factors 0, 1, As, 1 - As are
 * b + m * As with (b, m) = (0, 0), (1, 0), (0, 1), (1, -1), which gives
 * exactly those values for the clamped As in [+0, 1] (1 + -As is 1 - As).
 * The clamped, scaled channels are whole numbers 0..255, so shifts and ORs
 * pack them. Slots not in the mask and masked channels keep their bytes.
 */
void attila_color_write4_soa(const AttilaRenderTarget *rt, uint8_t *px,
                             const __m128 ch[4], unsigned mask)
{
    const __m128 one = _mm_set1_ps(1.0f), zero = _mm_setzero_ps();
    const __m128 k255 = _mm_set1_ps(255.0f);
    __m128i old = _mm_loadu_si128((const __m128i *)px), res, wm, u[4];
    __m128 s[4];
    int c;

    for (c = 0; c < 4; c++) {
        s[c] = _mm_max_ps(_mm_min_ps(ch[c], one), zero);
    }
    if (rt->path == ATTILA_CW_RGBA8_BLEND) {
        const __m128i byte = _mm_set1_epi32(0xff);
        const __m128 inv = _mm_set1_ps(1.0f / 255.0f), sa = s[3];
        __m128 d[4], sf[2], df[2];

        /* the destination bytes by channel */
        d[0] = _mm_cvtepi32_ps(_mm_and_si128(old, byte));
        d[1] = _mm_cvtepi32_ps(_mm_and_si128(_mm_srli_epi32(old, 8), byte));
        d[2] = _mm_cvtepi32_ps(_mm_and_si128(_mm_srli_epi32(old, 16), byte));
        d[3] = _mm_cvtepi32_ps(_mm_srli_epi32(old, 24));
        /* red, green and blue share their factors (attila_color_choose) */
        for (c = 0; c < 2; c++) {
            sf[c] = _mm_add_ps(_mm_set1_ps(rt->fbase[0][3 * c]),
                               _mm_mul_ps(_mm_set1_ps(rt->fslope[0][3 * c]), sa));
            df[c] = _mm_add_ps(_mm_set1_ps(rt->fbase[1][3 * c]),
                               _mm_mul_ps(_mm_set1_ps(rt->fslope[1][3 * c]), sa));
        }
        for (c = 0; c < 4; c++) {
            s[c] = _mm_add_ps(_mm_mul_ps(s[c], sf[c == 3]),
                              _mm_mul_ps(_mm_mul_ps(d[c], inv), df[c == 3]));
            s[c] = _mm_max_ps(_mm_min_ps(s[c], one), zero);
        }
    }
    for (c = 0; c < 4; c++) {
        u[c] = _mm_cvttps_epi32(_mm_mul_ps(s[c], k255));
    }
    res = _mm_or_si128(_mm_or_si128(u[0], _mm_slli_epi32(u[1], 8)),
                       _mm_or_si128(_mm_slli_epi32(u[2], 16),
                                    _mm_slli_epi32(u[3], 24)));
    wm = _mm_and_si128(_mm_load_si128((const __m128i *)
                                      attila_slot_masks[mask & 15]),
                       _mm_set1_epi32((int)rt->chan));
    res = _mm_or_si128(_mm_and_si128(wm, res), _mm_andnot_si128(wm, old));
    _mm_storeu_si128((__m128i *)px, res);
}
#endif

#ifdef HAVE_AVX_PATH
/* attila_color_write_pair_avx for the row's stamps k and k + 1; an odd
 * last stamp is computed twice and stored once */
__attribute__((target("avx"), always_inline))
static inline void color_write_row(const AttilaRowWrite *w, uint8_t *line,
                                   const uint32_t *rtx,
                                   const AttilaRowStamp *row, unsigned m,
                                   const __m128 (*ch)[4], unsigned kind)
{
    unsigned k;

    for (k = 0; k < m; k += 2) {
        unsigned k1 = k + 1 < m ? k + 1 : k;

        attila_color_write_pair_avx(w, line + rtx[row[k].qx >> 1],
                                    line + rtx[row[k1].qx >> 1], ch[k],
                                    ch[k1], row[k].cov, row[k1].cov,
                                    k1 != k, false, kind);
    }
}

/* by the blend's kind, as rasterizer.c's copy walk writes */
__attribute__((target("avx")))
void attila_color_write_row_avx(const AttilaRenderTarget *rt, uint8_t *line,
                                const uint32_t *rtx, const AttilaRowStamp *row,
                                unsigned m, const __m128 (*ch)[4])
{
    AttilaRowWrite w;

    attila_row_write_init_avx(rt, &w);
#define ROW_KIND(kind) color_write_row(&w, line, rtx, row, m, ch, kind)
    ATTILA_BY_BLEND_KIND(rt, ROW_KIND);
#undef ROW_KIND
}

__attribute__((target("avx")))
void attila_color_write_stamp4_avx(const AttilaRenderTarget *rt, uint8_t *px,
                                   const __m128 ch[4], unsigned cover)
{
    attila_color_write_stamp4_lanes(rt, px, ch, cover, false);
}

__attribute__((target("avx2")))
void attila_color_write_stamp4_avx2(const AttilaRenderTarget *rt, uint8_t *px,
                                    const __m128 ch[4], unsigned cover)
{
    attila_color_write_stamp4_lanes(rt, px, ch, cover, true);
}
#endif

/* attila_color_write4_soa with slot j's colour color[j] */
#ifndef __SSE2__
void attila_color_write4(const AttilaRenderTarget *rt, uint8_t *px,
                         const float *const color[4], unsigned mask)
{
    int j;

    for (j = 0; j < 4; j++) {
        if ((mask >> j) & 1) {
            write_rgba8(rt, px + 4 * j, color[j]);
        }
    }
}
#endif

void attila_color_write(const AttilaDrawState *ds, const AttilaRenderTarget *rt,
                        uint8_t *px, const float color[4], int rt_index)
{
    float src[4], dst[4], blended[4];
    uint8_t out[8];
    int c;

    if (rt->path != ATTILA_CW_GENERAL) {
        write_rgba8(rt, px, color);
        return;
    }

    for (c = 0; c < 4; c++) {
        src[c] = rt->format == ATTILA_FMT_RGBA8888 ? clamp01(color[c]) :
                 color[c];
    }
    if (rt->blend) {
        attila_color_read(rt->format, px, dst);
        if (ds->srgb_write) {
            srgb_to_linear(dst);
        }
        g3d_blend_float(blended, src, dst, rt->blend_color,
                        beq_map[rt->equation], bf_map[rt->src_rgb],
                        bf_map[rt->dst_rgb], beq_map[rt->equation],
                        bf_map[rt->src_a], bf_map[rt->dst_a]);
        memcpy(src, blended, sizeof(src));
    }
    if (ds->srgb_write) {
        linear_to_srgb(src);
    }
    if (rt_index == 0 && ds->logic_op && rt->format == ATTILA_FMT_RGBA8888) {
        attila_color_pack(ATTILA_FMT_RGBA8888, src, out);
        for (c = 0; c < 4; c++) {
            out[c] = (uint8_t)g3d_logic_op(ds->logic_func, out[c], px[c]);
        }
    } else {
        attila_color_pack(rt->format, src, out);
    }
    write_masked(rt->format, rt->mask, px, out);
}

/* attila_clear_color's runs of 4- and 8-byte slots of the value */
static void clear_run32(uint8_t *p, uint32_t slots, const void *value)
{
    uint32_t v;

    memcpy(&v, value, 4);
    g3d_fill32(p, slots, v);
}

static void clear_run64(uint8_t *p, uint32_t slots, const void *value)
{
    uint32_t s;

    for (s = 0; s < slots; s++) {
        memcpy(p + s * 8, value, 8);
    }
}

bool attila_clear_color_target(AttilaCore *c, AttilaClear *cl)
{
    uint32_t addr = attila_rf_u32(c, ATTILA_REG_RENDER_TARGET_ADDRESS, 0);
    uint32_t fmt = attila_rf_u32(c, ATTILA_REG_RENDER_TARGET_FORMAT, 0);
    uint32_t bytes = attila_rt_bytes(fmt);

    cl->base = attila_map_render_buffer(c, &cl->pm, addr, bytes, true,
                                        "color clear");
    if (!cl->base) {
        return false;
    }
    /* the clear value converted to the RT0 format (clearColorBuffer) */
    attila_color_pack(fmt, attila_rf_qf(c, ATTILA_REG_COLOR_BUFFER_CLEAR, 0),
                      (uint8_t *)cl->value);
    /* whole stamps: their 4 pixels x samples are consecutive, and so are
     * the stamps of a run and an over-scan tile (attila_surface_runs) */
    cl->fn = bytes == 4 ? clear_run32 : clear_run64;
    return true;
}
