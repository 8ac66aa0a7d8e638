/*
 * PICA200 number formats: float1.7.16 (f24), float1.7.23 (f31), float1.5.10
 * (f16), float1.7.12 (f20) and the three-word packing of four f24 values.
 * Vectors: Citra pica_types.h's table (1.0 = 0x3F0000, 2/256 -> 0x38000000, the
 * (1, 2, 3, 4) packing) and an independent encoder written after citro3d's
 * f32tof24 (tests/pica200/pica-test.h) compared over many values.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>

#include "pica-test.h"
#include "pica200/pica200-int.h"
#include "../float-sweep.h"

/* pica_quantize_f24's bit path equals the round trip through the format */
static float quantize_ref(float f)
{
    return pica_f24_to_float(pica_float_to_f24(f));
}

static void test_quantize(void)
{
    float_sweep(pica_quantize_f24, quantize_ref);
}

static void test_f24_vectors(void)
{
    static const struct { float f; uint32_t bits; } v[] = {
        { 1.0f, 0x3F0000 }, { -1.0f, 0xBF0000 }, { 0.5f, 0x3E0000 },
        { 128.0f, 0x460000 }, { 2.0f, 0x400000 }, { 0.0f, 0x000000 },
        { -0.0f, 0x800000 }, { 1.5f, 0x3F8000 }, { 3.0f, 0x408000 },
    };
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(v); i++) {
        g_assert_cmphex(pica_float_to_f24(v[i].f), ==, v[i].bits);
        g_assert_cmpfloat(pica_f24_to_float(v[i].bits), ==, v[i].f);
    }
    /* no denormals: exponent 0 with a mantissa is 2^-63 * 1.m */
    g_assert_cmpfloat(pica_f24_to_float(0x000001), ==,
                      ldexpf(1.0f + ldexpf(1.0f, -16), -63));
    g_assert_cmpfloat(pica_f24_to_float(0x800000), ==, 0.0f);
    g_assert_true(signbit(pica_f24_to_float(0x800000)));
    /* exponent all ones: infinity and NaN */
    g_assert_true(isinf(pica_f24_to_float(0x7F0000)));
    g_assert_true(pica_f24_to_float(0xFF0000) < 0);
    g_assert_true(isnan(pica_f24_to_float(0x7F0001)));
    /* out of range: to infinity and to zero */
    g_assert_cmphex(pica_float_to_f24(1e30f), ==, 0x7F0000);
    g_assert_cmphex(pica_float_to_f24(-1e30f), ==, 0xFF0000);
    g_assert_cmphex(pica_float_to_f24(1e-30f), ==, 0);
    /* the mantissa is truncated, not rounded */
    g_assert_cmphex(pica_float_to_f24(1.0f + ldexpf(1.0f, -17)), ==, 0x3F0000);
    g_assert_cmphex(pica_float_to_f24(1.0f + ldexpf(1.0f, -16)), ==, 0x3F0001);
}

static void test_f24_against_citro3d(void)
{
    GRand *r = g_rand_new_with_seed(24);
    unsigned i, n = 0;

    for (i = 0; i < 200000; i++) {
        uint32_t u = g_rand_int(r);
        float f;
        memcpy(&f, &u, 4);
        if (isnan(f) || isinf(f)) {
            continue;
        }
        g_assert_cmphex(pica_float_to_f24(f), ==, pica_to_f24(f));
        /* what survives is exact: unpacking gives f with 16 mantissa bits */
        if ((u >> 23 & 0xFF) > 64 && (u >> 23 & 0xFF) < 191) {
            uint32_t t = u & ~0x7Fu;
            float ft;
            memcpy(&ft, &t, 4);
            g_assert_cmpfloat(pica_f24_to_float(pica_to_f24(f)), ==, ft);
            n++;
        }
    }
    g_assert_cmpuint(n, >, 1000);
    g_rand_free(r);
}

static void test_f31(void)
{
    /* Citra pica_types.h: 2/256 -> 0x38000000 once shifted into b1-31 */
    g_assert_cmphex(g3d_float_pack(2.0f / 256.0f, &pica_f31) << 1, ==,
                    0x38000000);
    g_assert_cmphex(pica_to_f31(2.0f / 256.0f), ==, 0x38000000);
    g_assert_cmphex(g3d_float_pack(2.0f / 240.0f, &pica_f31) << 1, ==,
                    pica_to_f31(2.0f / 240.0f));
    g_assert_cmpfloat(g3d_float_unpack(0x38000000 >> 1, &pica_f31), ==,
                      2.0f / 256.0f);
    /* the full binary32 mantissa survives */
    g_assert_cmpfloat(g3d_float_unpack(g3d_float_pack(0.1f, &pica_f31),
                                       &pica_f31), ==, 0.1f);
}

static void test_f16_f20(void)
{
    g_assert_cmphex(g3d_float_pack(1.0f, &pica_f16), ==, 0x3C00);
    g_assert_cmphex(g3d_float_pack(-2.0f, &pica_f16), ==, 0xC000);
    g_assert_cmphex(g3d_float_pack(0.5f, &pica_f16), ==, 0x3800);
    g_assert_cmpfloat(g3d_float_unpack(0x3555, &pica_f16), ==,
                      ldexpf(1.0f + 0x155 / 1024.0f, -2));
    /* exponent 0 is normal here too, unlike IEEE binary16 */
    g_assert_cmpfloat(g3d_float_unpack(0x0001, &pica_f16), ==,
                      ldexpf(1.0f + 1.0f / 1024.0f, -15));
    g_assert_true(isinf(g3d_float_unpack(0x7C00, &pica_f16)));
    g_assert_cmphex(g3d_float_pack(1.0f, &pica_f20), ==, 0x3F000);
    g_assert_cmphex(g3d_float_pack(-0.75f, &pica_f20), ==, 0xBE800);
    g_assert_cmpfloat(g3d_float_unpack(0x40800, &pica_f20), ==, 3.0f);
}

static void test_packing(void)
{
    const float v[4] = { 1, 2, 3, 4 };
    uint32_t w[3];
    float out[4];

    /* Citra pica_types.h example */
    pica_pack_f24x4(v, w);
    g_assert_cmphex(w[0], ==, 0x41000040);
    g_assert_cmphex(w[1], ==, 0x80004000);
    g_assert_cmphex(w[2], ==, 0x003F0000);
    pica_unpack_f24x4(w, out);
    g_assert_cmpfloat(out[0], ==, 1);
    g_assert_cmpfloat(out[1], ==, 2);
    g_assert_cmpfloat(out[2], ==, 3);
    g_assert_cmpfloat(out[3], ==, 4);
    /* reference bit tables: DATA0 b8-31 = W, DATA2 b0-23 = X */
    g_assert_cmphex(w[0] >> 8, ==, pica_to_f24(4));
    g_assert_cmphex(w[2] & 0xFFFFFF, ==, pica_to_f24(1));
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/pica200/float/f24-vectors", test_f24_vectors);
    g_test_add_func("/pica200/float/quantize", test_quantize);
    g_test_add_func("/pica200/float/f24-vs-citro3d", test_f24_against_citro3d);
    g_test_add_func("/pica200/float/f31", test_f31);
    g_test_add_func("/pica200/float/f16-f20", test_f16_f20);
    g_test_add_func("/pica200/float/f24x4-packing", test_packing);
    return g_test_run();
}
