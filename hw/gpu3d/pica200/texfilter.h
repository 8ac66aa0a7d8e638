/*
 * PICA200 texture units: the linear filter of four pixels in 16-bit lanes.
 *
 * texunit.c's filter of one component (sample_level_fmt) is
 *   top = c00 (256 - ax) + c10 ax,  bot = c01 (256 - ax) + c11 ax,
 *   out = (top (256 - ay) + bot ay + 32768) >> 16
 * with 8-bit components c and 8-bit fractions ax, ay (0-255; the weights
 * are 8-bit fractions, 3dbrew GPU/Internal Registers 0x080-0x0B7; Citra's
 * sampler). The same integer in unsigned 16-bit lanes, eight components a
 * vector:
 *   - top and bot are at most 255 * 256 = 65280, and so is each product,
 *     so PMULLW and PADDW compute them exactly;
 *   - with top = 256 th + tl and bot = 256 bh + bl (th, tl, bh, bl 0-255),
 *     S = top (256 - ay) + bot ay = 256 U + L where U = th (256 - ay) +
 *     bh ay and L = tl (256 - ay) + bl ay, each at most 65280 (exact);
 *   - (S + 32768) >> 16 = floor((256 U + L + 32768) / 256 / 256)
 *     = (U + 128 + (L >> 8)) >> 8 (the floor of a floor divided by an
 *     integer is the floor of the quotient), and U + (L >> 8) <= S / 256
 *     <= 255 * 256, so the sum with 128 stays below 2^16.
 * tests/pica200/test-pica200-texture.c /pica200/texture/filter-lanes
 * compares it with the formula above for every (ax, ay) pair.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPU3D_PICA200_TEXFILTER_H
#define HW_GPU3D_PICA200_TEXFILTER_H

#ifdef __SSE2__
#include <emmintrin.h>

/* lanes 0-3 of a (16-bit values 0-255) as [a0 x4, a1 x4] and [a2 x4, a3 x4] */
static inline __attribute__((always_inline)) void
pica_lanes_spread16(__m128i a, __m128i *lo, __m128i *hi)
{
    __m128i d = _mm_packs_epi32(a, a);

    d = _mm_unpacklo_epi16(d, d);
    *lo = _mm_unpacklo_epi32(d, d);
    *hi = _mm_unpackhi_epi32(d, d);
}

/* one row of two pixels: the eight filtered components of t* at the weights */
static inline __attribute__((always_inline)) __m128i
pica_filter8_half(__m128i c00, __m128i c10, __m128i c01, __m128i c11,
                  __m128i ax, __m128i iax, __m128i ay, __m128i iay)
{
    const __m128i ff = _mm_set1_epi16(0xFF);
    __m128i top = _mm_add_epi16(_mm_mullo_epi16(c00, iax),
                                _mm_mullo_epi16(c10, ax));
    __m128i bot = _mm_add_epi16(_mm_mullo_epi16(c01, iax),
                                _mm_mullo_epi16(c11, ax));
    __m128i u = _mm_add_epi16(_mm_mullo_epi16(_mm_srli_epi16(top, 8), iay),
                              _mm_mullo_epi16(_mm_srli_epi16(bot, 8), ay));
    __m128i l = _mm_add_epi16(_mm_mullo_epi16(_mm_and_si128(top, ff), iay),
                              _mm_mullo_epi16(_mm_and_si128(bot, ff), ay));

    return _mm_srli_epi16(_mm_add_epi16(_mm_add_epi16(u, _mm_set1_epi16(128)),
                                        _mm_srli_epi16(l, 8)), 8);
}

/* how pica_filter8_lanes orders a lane's four results */
typedef enum PicaFilterOrder {
    PICA_FILTER_KEEP,           /* bytes 0-3 as the texels hold them */
    PICA_FILTER_REVERSE,        /* bytes 3, 2, 1, 0 */
    PICA_FILTER_SWAP02,         /* bytes 2, 1, 0, 3 */
} PicaFilterOrder;

/* the four 16-bit results of each of two pixels in the order asked */
static inline __attribute__((always_inline)) __m128i
pica_filter8_order(__m128i v, PicaFilterOrder order)
{
    if (order == PICA_FILTER_REVERSE) {
        return _mm_shufflehi_epi16(_mm_shufflelo_epi16(v, 0x1B), 0x1B);
    }
    if (order == PICA_FILTER_SWAP02) {
        return _mm_shufflehi_epi16(_mm_shufflelo_epi16(v, 0xC6), 0xC6);
    }
    return v;
}

/*
 * The filter of four pixels: t00, t10, t01, t11 hold texels (s0, t0),
 * (s1, t0), (s0, t1), (s1, t1) of pixel p in lane p, 8-bit components;
 * ax, ay the pixels' fractions (0-255) in 32-bit lanes. The result holds
 * pixel p's filtered components in lane p, in the order asked (the filter
 * works on each byte alone, so the order can be fixed after it).
 */
static inline __attribute__((always_inline)) __m128i
pica_filter8_lanes(__m128i t00, __m128i t10, __m128i t01, __m128i t11,
                   __m128i ax, __m128i ay, PicaFilterOrder order)
{
    const __m128i z = _mm_setzero_si128(), k256 = _mm_set1_epi16(256);
    __m128i axl, axh, ayl, ayh, lo, hi;

    pica_lanes_spread16(ax, &axl, &axh);
    pica_lanes_spread16(ay, &ayl, &ayh);
    lo = pica_filter8_half(_mm_unpacklo_epi8(t00, z), _mm_unpacklo_epi8(t10, z),
                           _mm_unpacklo_epi8(t01, z), _mm_unpacklo_epi8(t11, z),
                           axl, _mm_sub_epi16(k256, axl),
                           ayl, _mm_sub_epi16(k256, ayl));
    hi = pica_filter8_half(_mm_unpackhi_epi8(t00, z), _mm_unpackhi_epi8(t10, z),
                           _mm_unpackhi_epi8(t01, z), _mm_unpackhi_epi8(t11, z),
                           axh, _mm_sub_epi16(k256, axh),
                           ayh, _mm_sub_epi16(k256, ayh));
    return _mm_packus_epi16(pica_filter8_order(lo, order),
                            pica_filter8_order(hi, order));
}
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define PICA_FILTER_AVX2 1
/*
 * pica_filter8_lanes of eight pixels (pixel p in 32-bit lane p) for AVX2:
 * every instruction above works within each 128-bit half of a 256-bit
 * register (the unpacks, packs and 16-bit shuffles included), so each half
 * computes exactly what pica_filter8_lanes computes for its four pixels.
 */
static inline __attribute__((always_inline, target("avx2"))) void
pica_lanes8_spread16(__m256i a, __m256i *lo, __m256i *hi)
{
    __m256i d = _mm256_packs_epi32(a, a);

    d = _mm256_unpacklo_epi16(d, d);
    *lo = _mm256_unpacklo_epi32(d, d);
    *hi = _mm256_unpackhi_epi32(d, d);
}

static inline __attribute__((always_inline, target("avx2"))) __m256i
pica_filter16_half(__m256i c00, __m256i c10, __m256i c01, __m256i c11,
                   __m256i ax, __m256i iax, __m256i ay, __m256i iay)
{
    const __m256i ff = _mm256_set1_epi16(0xFF);
    __m256i top = _mm256_add_epi16(_mm256_mullo_epi16(c00, iax),
                                   _mm256_mullo_epi16(c10, ax));
    __m256i bot = _mm256_add_epi16(_mm256_mullo_epi16(c01, iax),
                                   _mm256_mullo_epi16(c11, ax));
    __m256i u = _mm256_add_epi16(
        _mm256_mullo_epi16(_mm256_srli_epi16(top, 8), iay),
        _mm256_mullo_epi16(_mm256_srli_epi16(bot, 8), ay));
    __m256i l = _mm256_add_epi16(
        _mm256_mullo_epi16(_mm256_and_si256(top, ff), iay),
        _mm256_mullo_epi16(_mm256_and_si256(bot, ff), ay));

    return _mm256_srli_epi16(_mm256_add_epi16(
        _mm256_add_epi16(u, _mm256_set1_epi16(128)),
        _mm256_srli_epi16(l, 8)), 8);
}

static inline __attribute__((always_inline, target("avx2"))) __m256i
pica_filter16_order(__m256i v, PicaFilterOrder order)
{
    if (order == PICA_FILTER_REVERSE) {
        return _mm256_shufflehi_epi16(_mm256_shufflelo_epi16(v, 0x1B), 0x1B);
    }
    if (order == PICA_FILTER_SWAP02) {
        return _mm256_shufflehi_epi16(_mm256_shufflelo_epi16(v, 0xC6), 0xC6);
    }
    return v;
}

static inline __attribute__((always_inline, target("avx2"))) __m256i
pica_filter8x2_lanes(__m256i t00, __m256i t10, __m256i t01, __m256i t11,
                     __m256i ax, __m256i ay, PicaFilterOrder order)
{
    const __m256i z = _mm256_setzero_si256(), k256 = _mm256_set1_epi16(256);
    __m256i axl, axh, ayl, ayh, lo, hi;

    pica_lanes8_spread16(ax, &axl, &axh);
    pica_lanes8_spread16(ay, &ayl, &ayh);
    lo = pica_filter16_half(_mm256_unpacklo_epi8(t00, z),
                            _mm256_unpacklo_epi8(t10, z),
                            _mm256_unpacklo_epi8(t01, z),
                            _mm256_unpacklo_epi8(t11, z),
                            axl, _mm256_sub_epi16(k256, axl),
                            ayl, _mm256_sub_epi16(k256, ayl));
    hi = pica_filter16_half(_mm256_unpackhi_epi8(t00, z),
                            _mm256_unpackhi_epi8(t10, z),
                            _mm256_unpackhi_epi8(t01, z),
                            _mm256_unpackhi_epi8(t11, z),
                            axh, _mm256_sub_epi16(k256, axh),
                            ayh, _mm256_sub_epi16(k256, ayh));
    return _mm256_packus_epi16(pica_filter16_order(lo, order),
                               pica_filter16_order(hi, order));
}
#endif
#endif

#endif
