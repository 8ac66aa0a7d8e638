/*
 * A check of a fast float function against its reference: every binary32
 * exponent and sign, with every mantissa at the binade's edges and 4096
 * random ones a binade; NaN results need only both be NaN.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_TESTS_FLOAT_SWEEP_H
#define GPU3D_TESTS_FLOAT_SWEEP_H

#include <glib.h>
#include <math.h>

#include "common/fpformat.h"

static inline void float_sweep(float (*fast)(float), float (*ref)(float))
{
    uint32_t e, sign, i, x = 0x2545F491u;

    for (sign = 0; sign < 2; sign++) {
        for (e = 0; e < 256; e++) {
            for (i = 0; i < 4096 + 256; i++) {
                uint32_t m = i < 128 ? i : i < 256 ? 0x7FFFFFu - (i - 128) :
                             (x = x * 1664525u + 1013904223u) >> 9;
                float f = g3d_u2f(sign << 31 | e << 23 | m);
                float a = fast(f), b = ref(f);

                if (isnan(b)) {
                    g_assert_true(isnan(a));
                } else {
                    g_assert_cmphex(g3d_f2u(a), ==, g3d_f2u(b));
                }
            }
        }
    }
}

#endif
