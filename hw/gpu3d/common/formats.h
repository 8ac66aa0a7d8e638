/*
 * Colour and texel formats shared by the chips.
 *
 * Packed formats are named by their fields from the most significant bit
 * down, as a little-endian integer of 16 or 32 bits: G3D_FMT_ARGB8888 is
 * 0xAARRGGBB (bytes B, G, R, A in memory). Byte formats (_B suffix) are named
 * by their bytes in memory order. Chips with big-endian memory (Flipper) swap
 * before calling these.
 *
 * Expansion to 8 bits replicates the top bits (5 -> 8: v << 3 | v >> 2), as
 * the chips' texture units do; reduction rounds to nearest.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_COMMON_FORMATS_H
#define GPU3D_COMMON_FORMATS_H

#include <stdbool.h>
#include <stdint.h>

typedef enum G3DPixFmt {
    G3D_FMT_INVALID = 0,
    G3D_FMT_ARGB8888,   /* 32: A 31:24 R 23:16 G 15:8 B 7:0 */
    G3D_FMT_ABGR8888,   /* 32: A 31:24 B 23:16 G 15:8 R 7:0 (bytes R,G,B,A) */
    G3D_FMT_RGBA8888,   /* 32: R 31:24 G 23:16 B 15:8 A 7:0 (bytes A,B,G,R) */
    G3D_FMT_XRGB8888,   /* 32: as ARGB8888, alpha reads as 1 */
    G3D_FMT_RGB565,     /* 16: R 15:11 G 10:5 B 4:0 */
    G3D_FMT_ARGB1555,   /* 16: A 15 R 14:10 G 9:5 B 4:0 */
    G3D_FMT_RGBA5551,   /* 16: R 15:11 G 10:6 B 5:1 A 0 */
    G3D_FMT_ARGB4444,   /* 16: A 15:12 R 11:8 G 7:4 B 3:0 */
    G3D_FMT_RGBA4444,   /* 16: R 15:12 G 11:8 B 7:4 A 3:0 */
    G3D_FMT_RGB888_B,   /* 24: bytes R, G, B */
    G3D_FMT_BGR888_B,   /* 24: bytes B, G, R */
    G3D_FMT_L8,         /* 8: luminance */
    G3D_FMT_A8,         /* 8: alpha, colour reads as 0 */
    G3D_FMT_LA88,       /* 16: L 7:0, A 15:8 */
    G3D_FMT_AL88,       /* 16: A 7:0, L 15:8 */
    G3D_FMT_COUNT
} G3DPixFmt;

typedef struct G3DRGBA8 {
    uint8_t r, g, b, a;
} G3DRGBA8;

/* bytes per pixel of a format (0 for G3D_FMT_INVALID) */
int g3d_fmt_bpp(G3DPixFmt fmt);

static inline uint8_t g3d_expand_bits(uint32_t v, int bits)
{
    switch (bits) {
    case 1: return v ? 0xff : 0;
    case 2: return v * 0x55;
    case 3: return (uint8_t)(v << 5 | v << 2 | v >> 1);
    case 4: return (uint8_t)(v << 4 | v);
    case 5: return (uint8_t)(v << 3 | v >> 2);
    case 6: return (uint8_t)(v << 2 | v >> 4);
    default: return (uint8_t)v;
    }
}

/* round-to-nearest reduction of an 8-bit channel to `bits` */
static inline uint32_t g3d_reduce_bits(uint8_t v, int bits)
{
    return ((uint32_t)v * ((1u << bits) - 1) + 127) / 255;
}

G3DRGBA8 g3d_fmt_unpack(G3DPixFmt fmt, const uint8_t *p);
void g3d_fmt_pack(G3DPixFmt fmt, uint8_t *p, G3DRGBA8 c);

/* Convert `n` pixels of `fmt` to ARGB8888 host-order words (for scanout). */
void g3d_fmt_row_to_argb(G3DPixFmt fmt, const uint8_t *src, uint32_t *dst,
                         int n);

#ifdef __SSE2__
#include <emmintrin.h>
/*
 * Four pixels' unorm8 components from floats, c[k] component k of pixel i
 * in lane i: each byte (uint8_t)(clamp(c, 0, 1) * 255 + 0.5), the clamp
 * taking NaN to 0, packed one pixel a word with component k in byte k.
 * Only the upper clamp is a MINPS, min(1, c), which passes a NaN c on (its
 * second operand): c * 255 + 0.5 then truncates to 255 from 1, to 0 or a
 * negative number from any c <= 0 (-0 included), and to INT_MIN from NaN,
 * so the signed and unsigned saturating packs give the clamped bytes.
 */
static inline __attribute__((always_inline)) __m128i
g3d_unorm8x4_lanes(const __m128 c[4])
{
    const __m128 one = _mm_set1_ps(1.0f);
    __m128i u[4], b, t;
    int k;

    for (k = 0; k < 4; k++) {
        u[k] = _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(_mm_min_ps(one, c[k]),
                                                      _mm_set1_ps(255.0f)),
                                           _mm_set1_ps(0.5f)));
    }
    /* bytes: component 0 of pixels 0..3, then 2, 1, 3; transposed */
    b = _mm_packus_epi16(_mm_packs_epi32(u[0], u[2]),
                         _mm_packs_epi32(u[1], u[3]));
    t = _mm_unpacklo_epi8(b, _mm_srli_si128(b, 8));
    return _mm_unpacklo_epi16(t, _mm_srli_si128(t, 8));
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/*
 * g3d_unorm8x4_lanes of eight pixels (pixel i in lane i), for functions
 * built for AVX2: the same operations per lane, and the packs, which work
 * in each 128-bit half, give each half's bytes as there (component 0 of
 * its pixels 0..3, then 2, 1, 3), put in pixel order by one byte shuffle.
 * Pixels 0..3 in the low half, 4..7 in the high.
 */
static inline __attribute__((always_inline, target("avx2"))) __m256i
g3d_unorm8x8_lanes(const __m256 c[4])
{
    const __m256 one = _mm256_set1_ps(1.0f);
    __m256i u[4], b;
    int k;

    for (k = 0; k < 4; k++) {
        u[k] = _mm256_cvttps_epi32(_mm256_add_ps(
                   _mm256_mul_ps(_mm256_min_ps(one, c[k]),
                                 _mm256_set1_ps(255.0f)),
                   _mm256_set1_ps(0.5f)));
    }
    b = _mm256_packus_epi16(_mm256_packs_epi32(u[0], u[2]),
                            _mm256_packs_epi32(u[1], u[3]));
    /* byte 4i + k of a half from component k's run: 0, 8, 4, 12 */
    return _mm256_shuffle_epi8(b, _mm256_setr_epi8(
        0, 8, 4, 12, 1, 9, 5, 13, 2, 10, 6, 14, 3, 11, 7, 15,
        0, 8, 4, 12, 1, 9, 5, 13, 2, 10, 6, 14, 3, 11, 7, 15));
}

/*
 * The same of sixteen pixels (pixel i in lane i), for functions built for
 * AVX-512F and BW: the packs work in each 128-bit quarter as the SSE2 ones
 * do, so one byte shuffle puts every quarter's four pixels in order
 */
static inline __attribute__((always_inline,
                             target("avx2,avx512f,avx512bw,avx512vl"))) __m512i
g3d_unorm8x16_lanes(const __m512 c[4])
{
    __m512i u[4];
    int k;

    for (k = 0; k < 4; k++) {
        u[k] = _mm512_cvttps_epi32(_mm512_add_ps(_mm512_mul_ps(
            _mm512_min_ps(_mm512_set1_ps(1.0f), c[k]),
            _mm512_set1_ps(255.0f)), _mm512_set1_ps(0.5f)));
    }
    return _mm512_shuffle_epi8(
        _mm512_packus_epi16(_mm512_packs_epi32(u[0], u[2]),
                            _mm512_packs_epi32(u[1], u[3])),
        _mm512_broadcast_i32x4(_mm_setr_epi8(0, 8, 4, 12, 1, 9, 5, 13, 2, 10,
                                             6, 14, 3, 11, 7, 15)));
}
#endif
#endif

#endif
