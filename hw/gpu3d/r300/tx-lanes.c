/*
 * The TX sampling of the commonest Mesa texture with the four pixels of a
 * quad in SSE2 lanes, for quad-lanes.c: one 2D level (no mipmapping, the
 * same filter for magnification and minification, so the level of detail
 * cannot change what is read), plain 32-bit texels (tx.c's plain32: four
 * unsigned 8-bit components, untiled, unswapped, no chroma key), no gamma,
 * a wrap mode that never reaches the border colour.
 *
 * Per lane the operations are tx.c's (r300_tx_sample_quad's projection,
 * tx_axis, tx_fetch_plain32, tx_swizzle and tx_sample_level_t's weights and
 * sums) in their order. tx_sample_level_t skips the second texel of an axis
 * whose weight is 0; here it is fetched and added with weight 0, which adds
 * +0 to a sum of non-negative terms, so the result is the same.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300-int.h"
#include "tx-lanes8.h"

#include <string.h>

#if defined(__SSE2__) && defined(__x86_64__) && defined(__GNUC__)
#define R300_TX_LANES_AVX 1
#endif

#ifdef __SSE2__

#define TX_LANES_MAX_SIZE 4096      /* |index| stays far below 2^31 */

bool r300_tx_lanes_ok(const R300TexUnit *u)
{
    unsigned l = u->base_level, k;

    if (!u->enabled || !u->plain32 || u->any_gamma ||
        u->coord_type == R300_TX_COORD_3D ||
        u->coord_type == R300_TX_COORD_CUBE || u->mip != 0 ||
        u->mag != u->min || (u->mag != R300_TX_FILTER_POINT &&
                             u->mag != R300_TX_FILTER_LINEAR) ||
        l >= R300_TX_MAX_LEVELS || u->level_w[l] > TX_LANES_MAX_SIZE ||
        u->level_h[l] > TX_LANES_MAX_SIZE) {
        return false;
    }
    for (k = 0; k < 2; k++) {
        if (u->clamp[k] > R300_TX_CLAMP_MIRROR_ONCE_LAST) {
            return false;       /* the border modes */
        }
    }
    return true;
}

/* tx_wrap for the modes r300_tx_lanes_ok lets through */
static inline __attribute__((always_inline)) __m128i wrap(__m128i i, int n, unsigned mode)
{
    int32_t v[4];
    int p;

    if (mode == R300_TX_CLAMP_WRAP && !(n & (n - 1))) {
        return _mm_and_si128(i, _mm_set1_epi32(n - 1));
    }
    _mm_storeu_si128((__m128i *)v, i);
    for (p = 0; p < 4; p++) {
        v[p] = g3d_tex_wrap(v[p], n, r300_tx_lanes_wrap_mode(mode));
    }
    return _mm_loadu_si128((const __m128i *)v);
}

/* floorf of each lane, exact below 2^31 */
static inline __attribute__((always_inline)) __m128 floor_ps(__m128 v)
{
    __m128 t = _mm_cvtepi32_ps(_mm_cvttps_epi32(v));

    return _mm_sub_ps(t, _mm_and_ps(_mm_cmpgt_ps(t, v), _mm_set1_ps(1.0f)));
}

/* tx_axis: the two wrapped indices and the weight of the second */
static inline __attribute__((always_inline)) __m128 axis(__m128 s, int n, unsigned mode, bool linear,
                          __m128i *i0, __m128i *i1)
{
    /* tx_precl (TX_COORD_LIMIT) for the modes let through: MAXPS then
     * MINPS are g3d_clampf, NaN included */
    __m128 x = _mm_mul_ps(_mm_min_ps(_mm_max_ps(s, _mm_set1_ps(-65536.0f)),
                                     _mm_set1_ps(65536.0f)),
                          _mm_set1_ps((float)n));
    __m128 w1;

    if (linear) {
        __m128 xm = _mm_sub_ps(x, _mm_set1_ps(0.5f)), f = floor_ps(xm);
        __m128i i = _mm_cvttps_epi32(f);

        w1 = _mm_sub_ps(xm, f);
        *i0 = wrap(i, n, mode);
        *i1 = wrap(_mm_add_epi32(i, _mm_set1_epi32(1)), n, mode);
    } else {
        *i0 = *i1 = wrap(_mm_cvttps_epi32(floor_ps(x)), n, mode);
        w1 = _mm_setzero_ps();
    }
    return w1;
}

/* the four texels' components (their own order, before the swizzle) */
static inline __attribute__((always_inline)) void unpack(const R300TexUnit *u, __m128i w, __m128 c[4])
{
    int k;

    for (k = 0; k < 4; k++) {
        c[k] = _mm_mul_ps(_mm_cvtepi32_ps(_mm_and_si128(
                              _mm_srli_epi32(w, 8 * k), _mm_set1_epi32(0xFF))),
                          _mm_load_ps(u->scale4[k]));
    }
}

/* a * b of each 32-bit lane, the low 32 bits (SSE2 has no PMULLD) */
static inline __attribute__((always_inline)) __m128i mullo32(__m128i a, uint32_t b)
{
    const __m128i bb = _mm_set1_epi32((int32_t)b);
    __m128i even = _mm_mul_epu32(a, bb);
    __m128i odd = _mm_mul_epu32(_mm_srli_epi64(a, 32), bb);

    return _mm_unpacklo_epi32(_mm_shuffle_epi32(even, _MM_SHUFFLE(0, 0, 2, 0)),
                              _mm_shuffle_epi32(odd, _MM_SHUFFLE(0, 0, 2, 0)));
}

/* the 32-bit texel at each lane's byte offset, all inside the chain */
static inline __attribute__((always_inline)) __m128i load4(const uint8_t *texels, __m128i off)
{
    uint32_t o[4], v[4];
    int p;

    _mm_storeu_si128((__m128i *)o, off);
    for (p = 0; p < 4; p++) {
        memcpy(&v[p], texels + o[p], 4);
    }
    return _mm_loadu_si128((const __m128i *)v);
}

/*
 * load4 of the texels at off and off + 4 of each lane (the two columns of
 * a row when the second is the first's neighbour): one 64-bit read a lane
 */
static inline __attribute__((always_inline)) void load4_pairs(const uint8_t *texels, __m128i off,
                               __m128i *t0, __m128i *t1)
{
    uint32_t o[4];
    __m128i q[4], lo, hi;
    int p;

    _mm_storeu_si128((__m128i *)o, off);
    for (p = 0; p < 4; p++) {
        q[p] = _mm_loadl_epi64((const __m128i *)(texels + o[p]));
    }
    lo = _mm_unpacklo_epi64(q[0], q[1]);    /* p0 t0, p0 t1, p1 t0, p1 t1 */
    hi = _mm_unpacklo_epi64(q[2], q[3]);
    *t0 = _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(lo),
                                          _mm_castsi128_ps(hi),
                                          _MM_SHUFFLE(2, 0, 2, 0)));
    *t1 = _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(lo),
                                          _mm_castsi128_ps(hi),
                                          _MM_SHUFFLE(3, 1, 3, 1)));
}

/* one tap's terms: acc += wt * c per component, one += wt */
static inline __attribute__((always_inline)) void sum_tap(__m128 wt, const __m128 c[4], __m128 acc[4],
                           __m128 *one)
{
    int ch;

    for (ch = 0; ch < 4; ch++) {
        acc[ch] = _mm_add_ps(acc[ch], _mm_mul_ps(wt, c[ch]));
    }
    *one = _mm_add_ps(*one, wt);
}

/*
 * tx_fetch_plain32 of the texels (x, y) of the four pixels, rows[p] the
 * byte offset of pixel p's row y in the chain and x4[p] of its column x:
 * component k of the texels' own order (before the swizzle) in c[k]
 */
static inline __attribute__((always_inline)) void fetch(const R300TexUnit *u, const uint64_t rows[4],
                         const uint64_t x4[4], __m128 c[4])
{
    uint32_t v[4];
    int p;

    for (p = 0; p < 4; p++) {
        uint64_t off = rows[p] + x4[p];

        v[p] = 0;               /* past the end: zero bytes, as tx_read */
        if (off + 4 <= u->bytes) {
            memcpy(&v[p], u->texels + off, 4);
        }
    }
    unpack(u, _mm_loadu_si128((const __m128i *)v), c);
}

static inline __attribute__((always_inline)) void
sample(const R300TexUnit *u, int inst, const uint8_t sel[4],
       const __m128 coord[4], __m128 out[4])
{
    bool proj = inst == R300_US_TEX_PROJ ||
                (inst == R300_US_TEX_LD && u->projected);
    bool linear = u->mag == R300_TX_FILTER_LINEAR;
    unsigned level = u->base_level, pitch = u->level_pitch[level];
    unsigned w = u->level_w[level], h = u->level_h[level];
    __m128 q = proj ? _mm_div_ps(_mm_set1_ps(1.0f), coord[3])
                    : _mm_set1_ps(1.0f);
    __m128 wx1, wy1, wx[2], wy[2], acc[4], one = _mm_setzero_ps();
    __m128i ix[2], iy[2];
    int jx, jy, ch, p;

    wx1 = axis(_mm_mul_ps(coord[0], q), w, u->clamp[0], linear,
               &ix[0], &ix[1]);
    wy1 = axis(_mm_mul_ps(coord[1], q), h, u->clamp[1], linear,
               &iy[0], &iy[1]);
    wx[0] = _mm_sub_ps(_mm_set1_ps(1.0f), wx1);
    wx[1] = wx1;
    /* tx_sample_level_t's wz * (...) with wz = 1.0f - 0.0f: exact */
    wy[0] = _mm_sub_ps(_mm_set1_ps(1.0f), wy1);
    wy[1] = wy1;
    for (ch = 0; ch < 4; ch++) {
        acc[ch] = _mm_setzero_ps();
    }
    /*
     * The sums in the texels' component order, swizzled once at the end
     * (the unit's swizzle and the caller's in one `sel`): a swizzled
     * channel's sum is its component's, term by term; ONE sums the weights
     * (w * 1.0 is w) in the same order; ZERO sums w * 0 of weights that
     * are >= 0 and finite: +0. Taps in the order (x0, y0), (x1, y0),
     * (x0, y1), (x1, y1) either way.
     */
    if (u->base_inside) {
        /*
         * Wrapped indices stay in the level, all of it mapped in a chain
         * below 2^31 bytes: the offsets in 32-bit lanes and no checks.
         * Every lane's second column the first's neighbour (no wrap; a
         * point sample's columns are one): both in one read.
         */
        const uint8_t *base = u->texels + u->level_offset[level];
        bool pairs = _mm_movemask_epi8(_mm_cmpeq_epi32(
                         ix[1], _mm_add_epi32(ix[0], _mm_set1_epi32(1)))) ==
                     0xFFFF;
        __m128i x4[2] = { _mm_slli_epi32(ix[0], 2), _mm_slli_epi32(ix[1], 2) };

        for (jy = 0; jy < 2; jy++) {
            __m128i row = mullo32(iy[jy], pitch), t[2];
            __m128 c[4];

            if (pairs) {
                load4_pairs(base, _mm_add_epi32(row, x4[0]), &t[0], &t[1]);
            } else {
                t[0] = load4(base, _mm_add_epi32(row, x4[0]));
                t[1] = load4(base, _mm_add_epi32(row, x4[1]));
            }
            for (jx = 0; jx < 2; jx++) {
                unpack(u, t[jx], c);
                sum_tap(_mm_mul_ps(wy[jy], wx[jx]), c, acc, &one);
            }
        }
    } else {
        int32_t xi[2][4], yi[2][4];
        uint64_t rows[2][4], x4[2][4];

        for (jx = 0; jx < 2; jx++) {
            _mm_storeu_si128((__m128i *)xi[jx], ix[jx]);
            _mm_storeu_si128((__m128i *)yi[jx], iy[jx]);
        }
        for (jx = 0; jx < 2; jx++) {
            for (p = 0; p < 4; p++) {
                rows[jx][p] = u->level_offset[level] +
                              (uint64_t)yi[jx][p] * pitch;
                x4[jx][p] = (uint64_t)xi[jx][p] * 4;
            }
        }
        for (jy = 0; jy < 2; jy++) {
            for (jx = 0; jx < 2; jx++) {
                __m128 c[4];

                fetch(u, rows[jy], x4[jx], c);
                sum_tap(_mm_mul_ps(wy[jy], wx[jx]), c, acc, &one);
            }
        }
    }
    if (sel[0] == 0 && sel[1] == 1 && sel[2] == 2 && sel[3] == 3) {
        for (ch = 0; ch < 4; ch++) {
            out[ch] = acc[ch];
        }
    } else {
        __m128 v[6] = { acc[0], acc[1], acc[2], acc[3], one, _mm_setzero_ps() };

        for (ch = 0; ch < 4; ch++) {
            out[ch] = v[sel[ch] % 6];
        }
    }
}

/*
 * The same code twice: for SSE2, and for AVX, whose three-operand (VEX)
 * forms of the same instructions save the register copies. No FMA: the
 * products and sums are the SSE2 ones, rounded one by one.
 */
static void sample_sse2(const R300TexUnit *u, int inst, const uint8_t sel[4],
                        const __m128 coord[4], __m128 out[4])
{
    sample(u, inst, sel, coord, out);
}

#ifdef R300_TX_LANES_AVX
__attribute__((target("avx")))
static void sample_avx(const R300TexUnit *u, int inst, const uint8_t sel[4],
                       const __m128 coord[4], __m128 out[4])
{
    sample(u, inst, sel, coord, out);
}
#endif

void r300_tx_lanes_sample(const R300TexUnit *u, int inst, const uint8_t sel[4],
                          const __m128 coord[4], __m128 out[4])
{
#ifdef R300_TX_LANES_AVX
    if (u->lanes_avx) {
        sample_avx(u, inst, sel, coord, out);
        return;
    }
#endif
    sample_sse2(u, inst, sel, coord, out);
}

#endif
