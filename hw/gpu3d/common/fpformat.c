/*
 * Parametric small-float packing (see fpformat.h).
 *
 * Unpacking is exact: every format here has at most 23 mantissa bits and an
 * exponent range inside binary32's, so the result is representable.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fpformat.h"

#include <math.h>

const G3DFloatFmt g3d_fp16_ieee = { 5, 10, 15, G3D_FP_DENORM | G3D_FP_INFNAN };

float g3d_unorm_table[9][256];
float g3d_unorm_recip[9][2];

/* filled before main() (and before QEMU creates a device): g3d_unorm2f
 * reads it without a check */
static void __attribute__((constructor)) unorm_table_init(void)
{
    int bits;
    uint32_t v;

    for (bits = 0; bits <= 8; bits++) {
        for (v = 0; v < 256; v++) {
            g3d_unorm_table[bits][v] = (float)v / (float)((1u << bits) - 1);
        }
    }
    /* 1 / max split as hi + lo, hi rounded to 16 significant bits */
    for (bits = 1; bits <= 8; bits++) {
        double r = 1.0 / (double)((1u << bits) - 1), m, hi;
        int e;

        m = frexp(r, &e);
        hi = ldexp(nearbyint(ldexp(m, 16)), e - 16);
        g3d_unorm_recip[bits][0] = (float)hi;
        g3d_unorm_recip[bits][1] = (float)(r - hi);
    }
}

/*
 * ldexpf(v, k) for an integer 1 <= v < 2^24: a multiply by the power of two
 * built from its bits where the product is a normal binary32 (then exact,
 * as ldexpf is), the library call elsewhere (denormal or overflowing
 * results, which no format here produces).
 */
static inline float scale2(float v, int k)
{
    if (k >= -126 && k <= 127 - 24) {
        return v * g3d_u2f((uint32_t)(k + 127) << 23);
    }
    return ldexpf(v, k);
}

float g3d_float_unpack(uint32_t bits, const G3DFloatFmt *fmt)
{
    uint32_t man_mask = (1u << fmt->man_bits) - 1;
    uint32_t exp_max = (1u << fmt->exp_bits) - 1;
    uint32_t sign = (bits >> (fmt->exp_bits + fmt->man_bits)) & 1;
    uint32_t e = (bits >> fmt->man_bits) & exp_max;
    uint32_t m = bits & man_mask;
    float v;

    if (e == 0 && !(m != 0 && (fmt->flags & G3D_FP_EXP0_NORMAL))) {
        if (!(fmt->flags & G3D_FP_DENORM) || m == 0) {
            return sign ? -0.0f : 0.0f;
        }
        v = scale2((float)m, 1 - fmt->bias - fmt->man_bits);
    } else if (e == exp_max && (fmt->flags & G3D_FP_INFNAN)) {
        v = m ? NAN : INFINITY;
    } else {
        v = scale2((float)(m | (man_mask + 1)),
                   (int)e - fmt->bias - fmt->man_bits);
    }
    return sign ? -v : v;
}

uint32_t g3d_float_pack(float f, const G3DFloatFmt *fmt)
{
    uint32_t u = g3d_f2u(f);
    uint32_t sign = u >> 31;
    int32_t e32 = (u >> 23) & 0xff;
    uint32_t m32 = u & 0x7fffff;
    uint32_t exp_max = (1u << fmt->exp_bits) - 1;
    uint32_t top_exp = (fmt->flags & G3D_FP_INFNAN) ? exp_max - 1 : exp_max;
    uint32_t man_mask = (1u << fmt->man_bits) - 1;
    int shift = 23 - fmt->man_bits;
    uint32_t sbit = sign << (fmt->exp_bits + fmt->man_bits);
    int32_t e;
    uint64_t mant;

    if (e32 == 0xff) {
        if (fmt->flags & G3D_FP_INFNAN) {
            return sbit | exp_max << fmt->man_bits | (m32 ? 1u << (fmt->man_bits - 1) : 0);
        }
        /* no inf/NaN in the format: NaN -> 0, inf -> largest */
        return m32 ? 0 : sbit | top_exp << fmt->man_bits | man_mask;
    }
    if (e32 == 0) {
        return sbit; /* binary32 denormals are far below every target's range */
    }
    e = e32 - 127 + fmt->bias;
    mant = (uint64_t)(m32 | 0x800000); /* 1.m with 23 fraction bits */

    if (e == 0 && (fmt->flags & G3D_FP_EXP0_NORMAL) && !(fmt->flags & G3D_FP_ROUND)) {
        /* the lowest binade is normal: keep the truncated mantissa */
        mant >>= shift;
        return (mant & man_mask) ? sbit | ((uint32_t)mant & man_mask) : sbit;
    }
    if (e <= 0) {
        if (!(fmt->flags & G3D_FP_DENORM)) {
            return sbit;
        }
        /* denormal: shift the hidden one down into the mantissa */
        shift += 1 - e;
        if (shift > 40) {
            return sbit;
        }
        e = 0;
    }
    if (fmt->flags & G3D_FP_ROUND) {
        uint64_t half = 1ull << (shift - 1);
        uint64_t rem = mant & ((1ull << shift) - 1);
        uint64_t q = mant >> shift;
        if (rem > half || (rem == half && (q & 1))) {
            q++;
        }
        mant = q;
    } else {
        mant >>= shift;
    }
    /* rounding may carry into the next binade (or out of a denormal) */
    if (e == 0) {
        if (mant > man_mask) {
            e = 1;
        }
        return sbit | (uint32_t)e << fmt->man_bits | ((uint32_t)mant & man_mask);
    }
    if (mant > (man_mask << 1 | 1)) {
        mant >>= 1;
        e++;
    }
    if ((uint32_t)e > top_exp) {
        if (fmt->flags & G3D_FP_INFNAN) {
            return sbit | exp_max << fmt->man_bits;
        }
        return sbit | top_exp << fmt->man_bits | man_mask;
    }
    return sbit | (uint32_t)e << fmt->man_bits | ((uint32_t)mant & man_mask);
}
