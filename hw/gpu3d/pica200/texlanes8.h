/*
 * PICA200 texture units: the texel words of texture 0's bilinear samplers
 * in lanes, and the sampler of eight pixels a call (AVX2) that texunit.c
 * instantiates per format and framebuffer.c's textured spans inline for
 * RGBA8 (no call, the weights and constants in registers).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPU3D_PICA200_TEXLANES8_H
#define HW_GPU3D_PICA200_TEXLANES8_H

#include <string.h>

#include "pica200-int.h"
#include "texfilter.h"

#ifdef __SSE2__
/* the texel word at index i of a format, its bytes in memory order */
static inline __attribute__((always_inline)) uint32_t
lanes_word(const uint8_t *data, unsigned fmt, uint32_t i)
{
    uint32_t v;

    switch (fmt) {
    case PICA_TEXFMT_RGBA8:
        memcpy(&v, data + (size_t)i * 4, 4);
        return GUINT32_FROM_LE(v);
    case PICA_TEXFMT_RGB8:          /* never past the image's last byte */
        data += (size_t)i * 3;
        return data[0] | data[1] << 8 | (uint32_t)data[2] << 16;
    default:                        /* 16-bit formats */
        data += (size_t)i * 2;
        return data[0] | data[1] << 8;
    }
}

/* how pica_filter8_lanes orders a format's components */
static inline __attribute__((always_inline)) PicaFilterOrder
lanes_order(unsigned fmt)
{
    return fmt == PICA_TEXFMT_RGBA8 ? PICA_FILTER_REVERSE :
           fmt == PICA_TEXFMT_RGB8 ? PICA_FILTER_SWAP02 : PICA_FILTER_KEEP;
}

#if defined(G3D_WEIGHTS_AVX) && defined(PICA_FILTER_AVX2)
#define PICA_TEXLANES8 1
/*
 * ---- the bilinear sampler of spans, eight pixels a vector (AVX2) ---------
 *
 * texunit.c lanes_linear's operations for eight pixels, pixel p in lane p: each
 * 256-bit instruction below is the 128-bit one there applied to two
 * groups of four (the float products, sums, MAXPS/MINPS, conversions and
 * compares rounded and ordered as there; no FMA is enabled for this
 * target), and the filter is pica_filter8x2_lanes, two pica_filter8_lanes
 * side by side. RGBA8 texels are gathered (VPGATHERDD of the 32 words a
 * call); the other formats' 2- and 3-byte texels are read one by one, as
 * a 4-byte gather of the image's last texel could read past its end.
 */
#define PICA_AVX2_INLINE __attribute__((always_inline, target("avx2")))

static inline PICA_AVX2_INLINE __m256 lanes8_to_texel(__m256 f, __m256i *i)
{
    __m256 c = _mm256_min_ps(_mm256_max_ps(f, _mm256_set1_ps(-1048576.0f)),
                             _mm256_set1_ps(1048576.0f));
    __m256i t = _mm256_cvttps_epi32(c);
    __m256 ft = _mm256_cvtepi32_ps(t), below = _mm256_cmp_ps(c, ft, _CMP_LT_OS);

    *i = _mm256_add_epi32(t, _mm256_castps_si256(below));
    return _mm256_sub_ps(ft, _mm256_and_ps(below, _mm256_set1_ps(1.0f)));
}

static inline PICA_AVX2_INLINE __m256i lanes8_weight(__m256 f)
{
    __m256 in = _mm256_and_ps(_mm256_cmp_ps(f, _mm256_setzero_ps(), _CMP_GE_OS),
                              _mm256_cmp_ps(f, _mm256_set1_ps(1.0f),
                                            _CMP_LT_OS));
    __m256i a = _mm256_cvttps_epi32(_mm256_mul_ps(f, _mm256_set1_ps(256.0f)));

    return _mm256_and_si256(a, _mm256_castps_si256(in));
}

/* lanes_wrap of REPEAT or CLAMP_TO_EDGE */
static inline PICA_AVX2_INLINE __m256i
lanes8_wrap(__m256 i, int n, unsigned mode)
{
    __m256 nf = _mm256_set1_ps((float)n), m, q;
    __m256i qi;

    if (mode == PICA_WRAP_CLAMP_TO_EDGE) {
        m = _mm256_min_ps(_mm256_max_ps(i, _mm256_setzero_ps()),
                          _mm256_set1_ps((float)(n - 1)));
        return _mm256_cvttps_epi32(m);
    }
    if (!(n & (n - 1))) {
        return _mm256_and_si256(_mm256_cvttps_epi32(i),
                                _mm256_set1_epi32(n - 1));
    }
    q = lanes8_to_texel(_mm256_div_ps(i, nf), &qi);
    m = _mm256_sub_ps(i, _mm256_mul_ps(q, nf));
    return _mm256_cvttps_epi32(m);
}

static inline PICA_AVX2_INLINE __m256i lanes8_tiled_x(__m256i x)
{
    __m256i one = _mm256_set1_epi32(1);

    return _mm256_or_si256(
        _mm256_or_si256(_mm256_slli_epi32(_mm256_srli_epi32(x, 3), 6),
                        _mm256_and_si256(x, one)),
        _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi32(x, 1),
                                         _mm256_set1_epi32(4)),
                        _mm256_and_si256(_mm256_slli_epi32(x, 2),
                                         _mm256_set1_epi32(16))));
}

static inline PICA_AVX2_INLINE __m256i lanes8_tiled_row(__m256i row, int w)
{
    __m256i tiles = _mm256_madd_epi16(_mm256_srli_epi32(row, 3),
                                      _mm256_set1_epi32(w * 8));

    return _mm256_or_si256(
        _mm256_or_si256(tiles, _mm256_and_si256(_mm256_slli_epi32(row, 1),
                                                _mm256_set1_epi32(2))),
        _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi32(row, 2),
                                         _mm256_set1_epi32(8)),
                        _mm256_and_si256(_mm256_slli_epi32(row, 3),
                                         _mm256_set1_epi32(32))));
}

/* lanes_decode of eight texel words */
static inline PICA_AVX2_INLINE __m256i lanes8_decode(__m256i v, unsigned fmt)
{
    __m256i r, g, b, a;

    switch (fmt) {
    case PICA_TEXFMT_RGBA8:
    case PICA_TEXFMT_RGB8:
        return v;
    case PICA_TEXFMT_RGB565:
        r = _mm256_srli_epi32(v, 11);
        r = _mm256_or_si256(_mm256_slli_epi32(r, 3), _mm256_srli_epi32(r, 2));
        g = _mm256_and_si256(_mm256_srli_epi32(v, 5), _mm256_set1_epi32(63));
        g = _mm256_or_si256(_mm256_slli_epi32(g, 2), _mm256_srli_epi32(g, 4));
        b = _mm256_and_si256(v, _mm256_set1_epi32(31));
        b = _mm256_or_si256(_mm256_slli_epi32(b, 3), _mm256_srli_epi32(b, 2));
        return _mm256_or_si256(_mm256_or_si256(r, _mm256_slli_epi32(g, 8)),
                               _mm256_slli_epi32(b, 16));
    default:
        r = _mm256_srli_epi32(v, 12);
        g = _mm256_and_si256(_mm256_srli_epi32(v, 8), _mm256_set1_epi32(15));
        b = _mm256_and_si256(_mm256_srli_epi32(v, 4), _mm256_set1_epi32(15));
        a = _mm256_and_si256(v, _mm256_set1_epi32(15));
        v = _mm256_or_si256(_mm256_or_si256(r, _mm256_slli_epi32(g, 8)),
                            _mm256_or_si256(_mm256_slli_epi32(b, 16),
                                            _mm256_slli_epi32(a, 24)));
        return _mm256_or_si256(v, _mm256_slli_epi32(v, 4));
    }
}

/* the eight texel words at indices idx */
static inline PICA_AVX2_INLINE __m256i lanes8_words(const uint8_t *data,
                                               unsigned fmt, __m256i idx)
{
    uint32_t i[8] __attribute__((aligned(32)));
    int p;

    if (fmt == PICA_TEXFMT_RGBA8) {
        return _mm256_i32gather_epi32((const int *)data, idx, 4);
    }
    _mm256_store_si256((__m256i *)i, idx);
    for (p = 0; p < 8; p++) {
        i[p] = lanes_word(data, fmt, i[p]);
    }
    return _mm256_load_si256((const __m256i *)i);
}

/*
 * A unit's constants for lanes8_linear_order, made once a span (or a
 * call): `pow2` REPEAT of sizes powers of two with w >= 8, where a
 * texel's index is the OR of its column's bits (0, 2, 4, then 6 on: the
 * 8x8 tiles along a row; xm those of column w - 1) and its memory row's
 * (1, 3, 5, then log2(8 w) on; ym those of row h - 1)
 */
typedef struct PicaLanes8Unit {
    const uint8_t *data;
    int w, h;
    bool pow2;
    __m256 wf, hf;
    __m256i xm, ym;
} PicaLanes8Unit;

static inline PICA_AVX2_INLINE void
lanes8_unit_setup(const PicaTexUnit *u, unsigned wrap, PicaLanes8Unit *lu)
{
    const int w = u->w, h = u->h;

    lu->data = u->data;
    lu->w = w;
    lu->h = h;
    lu->pow2 = wrap == PICA_WRAP_REPEAT && w >= 8 && !(w & (w - 1)) &&
               !(h & (h - 1));
    lu->wf = _mm256_set1_ps((float)w);
    lu->hf = _mm256_set1_ps((float)h);
    lu->xm = lanes8_tiled_x(_mm256_set1_epi32(w - 1));
    lu->ym = lanes8_tiled_row(_mm256_set1_epi32(h - 1), w);
}

/*
 * lanes8_wrap of columns (or rows) f0 and f0 + 1 from lanes8_to_texel's
 * integer i0 of f0: f0 is integral and |f0| <= 2^20, so f0 + 1 is exact
 * and the truncations of f0 and f0 + 1 are i0 and i0 + 1. CLAMP_TO_EDGE's
 * MAXPS/MINPS order those integral floats as VPMAXSD/VPMINSD order the
 * integers. Other modes keep lanes8_wrap.
 */
static inline PICA_AVX2_INLINE void
lanes8_wrap2(__m256 f0, __m256i i0, int n, unsigned mode, __m256i *c0,
             __m256i *c1)
{
    if (mode == PICA_WRAP_CLAMP_TO_EDGE) {
        __m256i i1 = _mm256_sub_epi32(i0, _mm256_set1_epi32(-1));
        __m256i nm1 = _mm256_set1_epi32(n - 1), zero = _mm256_setzero_si256();

        *c0 = _mm256_min_epi32(_mm256_max_epi32(i0, zero), nm1);
        *c1 = _mm256_min_epi32(_mm256_max_epi32(i1, zero), nm1);
        return;
    }
    *c0 = lanes8_wrap(f0, n, mode);
    *c1 = lanes8_wrap(_mm256_add_ps(f0, _mm256_set1_ps(1.0f)), n, mode);
}

/*
 * The linear filter of unit 0's level 0 at eight pixels (REPEAT or
 * CLAMP_TO_EDGE on both axes: never the border colour): bar[k] vertex k's
 * weights, pixel p in lane p; each pixel's four bytes in the order asked
 * (lanes_order(fmt): R, G, B, A; PICA_FILTER_KEEP for RGBA8: the texel's
 * bytes A, B, G, R as in memory)
 */
static inline PICA_AVX2_INLINE __m256i
lanes8_linear_order(const PicaLanes8Unit *u, const PicaTri *tri,
                    const __m256 bar[3], unsigned fmt, unsigned wrap,
                    PicaFilterOrder order)
{
    const int w = u->w, h = u->h;
    __m256 s = _mm256_add_ps(
        _mm256_add_ps(_mm256_mul_ps(bar[0], _mm256_set1_ps(tri->tc[0][0])),
                      _mm256_mul_ps(bar[1], _mm256_set1_ps(tri->tc[1][0]))),
        _mm256_mul_ps(bar[2], _mm256_set1_ps(tri->tc[2][0])));
    __m256 t = _mm256_add_ps(
        _mm256_add_ps(_mm256_mul_ps(bar[0], _mm256_set1_ps(tri->tc[0][1])),
                      _mm256_mul_ps(bar[1], _mm256_set1_ps(tri->tc[1][1]))),
        _mm256_mul_ps(bar[2], _mm256_set1_ps(tri->tc[2][1])));
    __m256 x = _mm256_sub_ps(_mm256_mul_ps(s, u->wf), _mm256_set1_ps(0.5f));
    __m256 y = _mm256_sub_ps(_mm256_mul_ps(t, u->hf), _mm256_set1_ps(0.5f));
    __m256i i0, j0, x0, x1, r0, r1, c[4], v;
    __m256 fi0 = lanes8_to_texel(x, &i0), fj0 = lanes8_to_texel(y, &j0);
    __m256i ax = lanes8_weight(_mm256_sub_ps(x, fi0));
    __m256i ay = lanes8_weight(_mm256_sub_ps(y, fj0));
    __m256i hm1 = _mm256_set1_epi32(h - 1), c0, c1;

    /* texel row t is memory row h - 1 - t */
    if (u->pow2) {
        /*
         * lanes8_wrap's truncation of fi0 is i0 (above), wrapped by the
         * same AND; column i0 + 1 mod w is then x0's increment carried
         * across the row's bits (dilated-integer addition), and memory row
         * h - 1 - (t + 1 mod h) = (h - 1 - t) - 1 mod h r0's decrement by
         * the row's lowest bit (2)
         */
        __m256i ones = _mm256_set1_epi32(-1);

        x0 = lanes8_tiled_x(_mm256_and_si256(i0, _mm256_set1_epi32(w - 1)));
        r0 = lanes8_tiled_row(_mm256_andnot_si256(j0, hm1), w);
        x1 = _mm256_or_si256(x0, _mm256_xor_si256(u->xm, ones));
        x1 = _mm256_and_si256(_mm256_sub_epi32(x1, ones), u->xm);
        r1 = _mm256_and_si256(_mm256_sub_epi32(r0, _mm256_set1_epi32(2)),
                              u->ym);
    } else {
        lanes8_wrap2(fi0, i0, w, wrap, &c0, &c1);
        x0 = lanes8_tiled_x(c0);
        x1 = lanes8_tiled_x(c1);
        lanes8_wrap2(fj0, j0, h, wrap, &c0, &c1);
        r0 = lanes8_tiled_row(_mm256_sub_epi32(hm1, c0), w);
        r1 = lanes8_tiled_row(_mm256_sub_epi32(hm1, c1), w);
    }
    c[0] = lanes8_decode(lanes8_words(u->data, fmt, _mm256_add_epi32(x0, r0)),
                         fmt);
    c[1] = lanes8_decode(lanes8_words(u->data, fmt, _mm256_add_epi32(x1, r0)),
                         fmt);
    c[2] = lanes8_decode(lanes8_words(u->data, fmt, _mm256_add_epi32(x0, r1)),
                         fmt);
    c[3] = lanes8_decode(lanes8_words(u->data, fmt, _mm256_add_epi32(x1, r1)),
                         fmt);
    v = pica_filter8x2_lanes(c[0], c[1], c[2], c[3], ax, ay, order);
    if (fmt != PICA_TEXFMT_RGBA8 && fmt != PICA_TEXFMT_RGBA4) {
        v = _mm256_or_si256(v, _mm256_set1_epi32((int32_t)0xFF000000u));
    }
    return v;
}

/* the same, the texels R, G, B, A, pixel 0 first */
static inline PICA_AVX2_INLINE __m256i
lanes8_linear(const PicaTexUnit *u, const PicaTri *tri, const __m256 bar[3],
              unsigned fmt, unsigned wrap)
{
    PicaLanes8Unit lu;

    lanes8_unit_setup(u, wrap, &lu);
    return lanes8_linear_order(&lu, tri, bar, fmt, wrap, lanes_order(fmt));
}
#endif
#endif

#endif
