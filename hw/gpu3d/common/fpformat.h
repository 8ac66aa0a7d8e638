/*
 * Number formats of the chips: small floats (fp16, fp20, fp24, fp31, ...),
 * fixed point, and IEEE bit casts.
 *
 * One parametric packer/unpacker covers every chip's float: sign bit on top,
 * then `exp_bits` of exponent biased by `bias`, then `man_bits` of mantissa
 * with a hidden leading one. The flags say how the chip treats the edges.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_COMMON_FPFORMAT_H
#define GPU3D_COMMON_FPFORMAT_H

#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

enum {
    G3D_FP_DENORM = 1 << 0,  /* exponent 0 holds denormals (else: zero) */
    G3D_FP_INFNAN = 1 << 1,  /* exponent all-ones holds inf/NaN (else: a number) */
    G3D_FP_ROUND  = 1 << 2,  /* pack rounds to nearest even (else: truncates) */
    /*
     * exponent 0 with a non-zero mantissa is a normal number 2^(0-bias) * 1.m
     * (only all-zero magnitude bits are zero): PICA200 floats. Not with DENORM.
     */
    G3D_FP_EXP0_NORMAL = 1 << 3,
};

typedef struct G3DFloatFmt {
    uint8_t exp_bits;
    uint8_t man_bits;
    int16_t bias;
    uint8_t flags;
} G3DFloatFmt;

/* IEEE-754 binary16 (R300 S10E5 "16f", PICA float16 has its own: see chips) */
extern const G3DFloatFmt g3d_fp16_ieee;

float g3d_float_unpack(uint32_t bits, const G3DFloatFmt *fmt);
uint32_t g3d_float_pack(float f, const G3DFloatFmt *fmt);

static inline uint32_t g3d_f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline float g3d_u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* float -> unsigned n-bit normalised integer, round to nearest, clamped */
static inline uint32_t g3d_f2unorm(float f, int bits)
{
    float max = (float)((1u << bits) - 1);
    f = f > 0.0f ? (f < 1.0f ? f : 1.0f) : 0.0f;
    return (uint32_t)(f * max + 0.5f);
}

/*
 * float -> signed n-bit normalised integer (two's complement in the low n
 * bits), nearest (halves away from 0), clamped to [-1, 1]: v * (2^(n-1) - 1) as GL's
 * SNORM conversion (OpenGL 4.5 §2.3.5.1)
 */
static inline uint32_t g3d_f2snorm(float f, int bits)
{
    float max = (float)((1u << (bits - 1)) - 1);
    f = f > -1.0f ? (f < 1.0f ? f : 1.0f) : -1.0f;
    f *= max;
    return (uint32_t)(int32_t)(f + (f < 0.0f ? -0.5f : 0.5f)) &
           ((1u << bits) - 1);
}

/* v / (2^bits - 1) for bits <= 8, v < 256: the same quotients, computed
 * once (fpformat.c), so a texel or pixel unpack does no division */
extern float g3d_unorm_table[9][256];

static inline float g3d_unorm2f(uint32_t v, int bits)
{
    if (bits <= 8 && v < 256) {
        return g3d_unorm_table[bits][v];
    }
    return (float)v / (float)((1u << bits) - 1);
}

/*
 * 1 / (2^bits - 1) for bits 1-8 as hi + lo: hi holds its first 16
 * significant bits, lo the float nearest the rest.
 */
extern float g3d_unorm_recip[9][2];

#ifdef __SSE2__
/*
 * g3d_unorm2f of four integers 0..2^bits-1 (bits 1-8, given as floats)
 * without a division (a DIVPS costs several multiplies' time): v * hi is
 * exact (8 + 16 bits fit a float's 24), and v * lo is within 2^-40 of
 * v / max - v * hi relative to v / max, so the sum is v / max to 2^-40
 * before its one rounding; a fraction of denominator max <= 255 is a float
 * or at least 2^-33 of itself from a midpoint between two, so it rounds to
 * the quotient. /common/unorm-table checks every v.
 */
static inline __m128 g3d_unorm2f_sse2(__m128 v, int bits)
{
    return _mm_add_ps(_mm_mul_ps(v, _mm_set1_ps(g3d_unorm_recip[bits][0])),
                      _mm_mul_ps(v, _mm_set1_ps(g3d_unorm_recip[bits][1])));
}
#endif

#if defined(__x86_64__) && defined(__GNUC__)
/* the same, eight lanes, for code compiled for AVX (no FMA: a product and
 * its sum stay two roundings) */
__attribute__((target("avx")))
static inline __m256 g3d_unorm2f_avx(__m256 v, int bits)
{
    return _mm256_add_ps(
        _mm256_mul_ps(v, _mm256_set1_ps(g3d_unorm_recip[bits][0])),
        _mm256_mul_ps(v, _mm256_set1_ps(g3d_unorm_recip[bits][1])));
}
#endif

/* signed fixed point with `frac` fraction bits in the low `bits` of v */
static inline float g3d_sfixed2f(uint32_t v, int bits, int frac)
{
    int32_t s = (int32_t)(v << (32 - bits)) >> (32 - bits);
    return (float)s / (float)(1u << frac);
}

#endif
