/*
 * The TX sampling of tx-lanes.c (r300_tx_lanes_sample) for eight pixels a
 * call with AVX2, inline so that quad-lanes.c's AVX2 span keeps the
 * coordinates and the sums in registers.
 *
 * Per lane the operations are r300_tx_lanes_sample's, which are tx.c's:
 * each 256-bit float instruction is the 128-bit one applied to eight lanes
 * (products, sums, MAXPS/MINPS, compares and conversions rounded and
 * ordered as there; the AVX2 target does not enable FMA, so nothing is
 * contracted), VPMULLD gives the same low 32 bits as tx-lanes.c's mullo32,
 * and the texels are gathered (VPGATHERDD) at the byte offsets tx-lanes.c's
 * load4 reads one by one. Only for a unit whose base level lies wholly in
 * the mapped chain (`base_inside`: every wrapped index is inside it).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPU3D_R300_TX_LANES8_H
#define HW_GPU3D_R300_TX_LANES8_H

#include "r300-int.h"
#include "common/texaddr.h"

/* tx_wrap's mode for the modes r300_tx_lanes_ok lets through */
static inline G3DTexWrap r300_tx_lanes_wrap_mode(unsigned mode)
{
    static const G3DTexWrap modes[4] = {
        [R300_TX_CLAMP_WRAP] = G3D_TEX_REPEAT,
        [R300_TX_CLAMP_MIRROR] = G3D_TEX_MIRROR,
        [R300_TX_CLAMP_CLAMP_LAST] = G3D_TEX_CLAMP,
        [R300_TX_CLAMP_MIRROR_ONCE_LAST] = G3D_TEX_MIRROR_ONCE,
    };

    return modes[mode & 3];
}

#if defined(__SSE2__) && defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define R300_TX_LANES8 1

#define R300_AVX2_INLINE __attribute__((always_inline, target("avx2")))

/*
 * tx-lanes.c's wrap() of eight indices; `pow2_repeat`: the caller knows
 * the mode is REPEAT and n a power of two (the common unit's instances)
 */
static inline R300_AVX2_INLINE __m256i
r300_tx_wrap8(__m256i i, int n, unsigned mode, const bool pow2_repeat)
{
    int32_t v[8] __attribute__((aligned(32)));
    int p;

    if (pow2_repeat ||
        (mode == R300_TX_CLAMP_WRAP && !(n & (n - 1)))) {
        return _mm256_and_si256(i, _mm256_set1_epi32(n - 1));
    }
    _mm256_store_si256((__m256i *)v, i);
    for (p = 0; p < 8; p++) {
        v[p] = g3d_tex_wrap(v[p], n, r300_tx_lanes_wrap_mode(mode));
    }
    return _mm256_load_si256((const __m256i *)v);
}

/* tx-lanes.c's floor_ps */
static inline R300_AVX2_INLINE __m256 r300_tx_floor8(__m256 v)
{
    __m256 t = _mm256_cvtepi32_ps(_mm256_cvttps_epi32(v));

    return _mm256_sub_ps(t, _mm256_and_ps(_mm256_cmp_ps(t, v, _CMP_GT_OS),
                                          _mm256_set1_ps(1.0f)));
}

/* tx-lanes.c's axis */
static inline R300_AVX2_INLINE __m256
r300_tx_axis8(__m256 s, int n, unsigned mode, bool linear, __m256i *i0,
              __m256i *i1, const bool pow2_repeat)
{
    __m256 x = _mm256_mul_ps(_mm256_min_ps(_mm256_max_ps(
                                 s, _mm256_set1_ps(-65536.0f)),
                                 _mm256_set1_ps(65536.0f)),
                             _mm256_set1_ps((float)n));
    __m256 w1;

    if (linear) {
        __m256 xm = _mm256_sub_ps(x, _mm256_set1_ps(0.5f));
        __m256 f = r300_tx_floor8(xm);
        __m256i i = _mm256_cvttps_epi32(f);

        w1 = _mm256_sub_ps(xm, f);
        *i0 = r300_tx_wrap8(i, n, mode, pow2_repeat);
        *i1 = r300_tx_wrap8(_mm256_add_epi32(i, _mm256_set1_epi32(1)), n,
                            mode, pow2_repeat);
    } else {
        *i0 = *i1 = r300_tx_wrap8(_mm256_cvttps_epi32(r300_tx_floor8(x)), n,
                                  mode, pow2_repeat);
        w1 = _mm256_setzero_ps();
    }
    return w1;
}

/*
 * A unit's constants for r300_tx_lanes_sample8, read once a span: a local
 * copy that the span's stores cannot alias, so its loop keeps them in
 * registers instead of reading the unit again for every group
 */
typedef struct R300TxLanes8 {
    const uint8_t *base;        /* the base level's texels */
    float scale[4];             /* tx.c's scale of component k */
    unsigned pitch, w, h;       /* the base level's */
    unsigned clamp[2];          /* TX_FILTER0's CLAMP_S, CLAMP_T */
    bool proj, linear;
    bool ident;                 /* sel is R, G, B, A */
    bool one;                   /* sel takes ONE (the weights' sum) */
    uint8_t sel[4];
} R300TxLanes8;

static inline void
r300_tx_lanes8_setup(R300TxLanes8 *c, const R300TexUnit *u, int inst,
                     const uint8_t sel[4])
{
    unsigned level = u->base_level;
    int k;

    c->proj = inst == R300_US_TEX_PROJ ||
              (inst == R300_US_TEX_LD && u->projected);
    c->linear = u->mag == R300_TX_FILTER_LINEAR;
    c->pitch = u->level_pitch[level];
    c->w = u->level_w[level];
    c->h = u->level_h[level];
    c->base = u->texels + u->level_offset[level];
    c->clamp[0] = u->clamp[0];
    c->clamp[1] = u->clamp[1];
    for (k = 0; k < 4; k++) {
        c->scale[k] = u->scale4[k][0];
        c->sel[k] = sel[k];
    }
    c->ident = sel[0] == 0 && sel[1] == 1 && sel[2] == 2 && sel[3] == 3;
    c->one = sel[0] == 4 || sel[1] == 4 || sel[2] == 4 || sel[3] == 4;
}

/*
 * Whether the unit is the common one that r300_tx_lanes_sample8's
 * `common` instances take: bilinear, unprojected, the identity swizzle,
 * REPEAT of power-of-two sizes on both axes (Mesa's default GL_REPEAT
 * texture), and a pitch below 2^15 bytes, so that a row's offset (index
 * below 4096 times the pitch) is one VPMADDWD of 16-bit halves
 */
static inline bool r300_tx_lanes8_common(const R300TxLanes8 *c)
{
    return c->linear && !c->proj && c->ident &&
           c->clamp[0] == R300_TX_CLAMP_WRAP &&
           c->clamp[1] == R300_TX_CLAMP_WRAP &&
           !(c->w & (c->w - 1)) && !(c->h & (c->h - 1)) && c->pitch < 32768;
}

/*
 * Byte k of each 32-bit lane as the lane's value: (t >> 8k) & 0xFF in
 * one byte shuffle
 */
static inline R300_AVX2_INLINE __m256i r300_tx_byte8(__m256i t, int k)
{
    const int8_t z = -128;

    return _mm256_shuffle_epi8(t, _mm256_setr_epi8(
        k, z, z, z, 4 + k, z, z, z, 8 + k, z, z, z, 12 + k, z, z, z,
        k, z, z, z, 4 + k, z, z, z, 8 + k, z, z, z, 12 + k, z, z, z));
}

/*
 * r300_tx_lanes_sample of eight pixels (coordinate component k in coord[k],
 * pixel p in lane p; out[k] as there) for a unit with `base_inside`, its
 * constants in c (r300_tx_lanes8_setup); `common`: the unit is
 * r300_tx_lanes8_common's, whose tests are then constants.
 *
 * Each sum starts from its first tap's product, not from 0 + product as
 * tx.c's acc does: the product is never -0 (nor NaN), so 0 + p is p.
 * The weights are >= +0 and finite (the coordinate clamped to
 * [-65536, 65536] by MAXPS/MINPS, which give the bound for a NaN, so
 * w1 = xm - floor(xm) lies in [0, 1)), and each component is a byte times
 * tx.c's scale, 1 / 255 for plain32's 8-bit unsigned components: +0 or
 * positive. The ONE sum (the weights') only where the swizzle takes it.
 */
static inline R300_AVX2_INLINE void
r300_tx_lanes_sample8(const R300TxLanes8 *c, const __m256 coord[4],
                      __m256 out[4], const bool common)
{
    const bool proj = !common && c->proj, linear = common || c->linear;
    const bool one_used = !common && c->one;
    __m256 q, wx1, wy1, wx[2], wy[2], acc[4], one = _mm256_setzero_ps();
    __m256i ix[2], iy[2], x4[2];
    int jx, jy, ch, k;

    q = proj ? _mm256_div_ps(_mm256_set1_ps(1.0f), coord[3])
             : _mm256_set1_ps(1.0f);
    /* an unprojected coordinate times 1.0f is itself: no product */
    wx1 = r300_tx_axis8(proj ? _mm256_mul_ps(coord[0], q) : coord[0], c->w,
                        c->clamp[0], linear, &ix[0], &ix[1], common);
    wy1 = r300_tx_axis8(proj ? _mm256_mul_ps(coord[1], q) : coord[1], c->h,
                        c->clamp[1], linear, &iy[0], &iy[1], common);
    wx[0] = _mm256_sub_ps(_mm256_set1_ps(1.0f), wx1);
    wx[1] = wx1;
    wy[0] = _mm256_sub_ps(_mm256_set1_ps(1.0f), wy1);
    wy[1] = wy1;
    x4[0] = _mm256_slli_epi32(ix[0], 2);
    x4[1] = _mm256_slli_epi32(ix[1], 2);
    /* the taps in sample()'s order: (x0, y0), (x1, y0), (x0, y1), (x1, y1) */
    for (jy = 0; jy < 2; jy++) {
        /*
         * the row's byte offset; for the common unit the index (below
         * 4096) and the pitch (below 2^15) are 16-bit halves whose high
         * halves are 0: VPMADDWD's sum of products is the one product
         */
        __m256i row = common
            ? _mm256_madd_epi16(iy[jy], _mm256_set1_epi32((int32_t)c->pitch))
            : _mm256_mullo_epi32(iy[jy], _mm256_set1_epi32((int32_t)c->pitch));

        for (jx = 0; jx < 2; jx++) {
            __m256 wt = _mm256_mul_ps(wy[jy], wx[jx]);
            __m256i t = _mm256_i32gather_epi32(
                (const int *)c->base, _mm256_add_epi32(row, x4[jx]), 1);

            /* tx-lanes.c's unpack and sum_tap */
            for (k = 0; k < 4; k++) {
                __m256 v = _mm256_mul_ps(
                    _mm256_cvtepi32_ps(r300_tx_byte8(t, k)),
                    _mm256_set1_ps(c->scale[k]));
                __m256 p = _mm256_mul_ps(wt, v);

                acc[k] = jx + jy ? _mm256_add_ps(acc[k], p) : p;
            }
            if (one_used) {
                one = jx + jy ? _mm256_add_ps(one, wt) : wt;
            }
        }
    }
    if (common || c->ident) {
        for (ch = 0; ch < 4; ch++) {
            out[ch] = acc[ch];
        }
    } else {
        __m256 v[6] = { acc[0], acc[1], acc[2], acc[3], one,
                        _mm256_setzero_ps() };

        for (ch = 0; ch < 4; ch++) {
            out[ch] = v[c->sel[ch] % 6];
        }
    }
}
#endif

#endif
