/*
 * The attila-3d paths chosen per draw against the general ones
 * (g3d_general_path): the color write (attila_color_choose,
 * color-write.c) over random render-target states and pixels. The
 * shader's all-lanes operations have their comparison in
 * test-attila-shader.c (/attila/shader/lanes-vs-general), the whole
 * pipeline's is the corpus replayed both ways (test-attila-corpus.c,
 * /attila/general/).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "attila/attila-int.h"
#include "common/g3d-core.h"

static float random_float(GRand *rnd)
{
    static const uint32_t special[] = {
        0x7fc00000u, 0xffc00001u, 0x7f800000u, 0xff800000u, 0x80000000u,
        0x00000000u, 0x00000001u, 0x3f800000u, 0x3f7fffffu, 0x3f800001u,
    };
    union { uint32_t u; float f; } v;

    switch (g_rand_int_range(rnd, 0, 8)) {
    case 0:
        v.u = special[g_rand_int_range(rnd, 0, G_N_ELEMENTS(special))];
        return v.f;
    case 1:
        return (float)g_rand_int_range(rnd, 0, 256) / 255.0f;
    default:
        return (float)g_rand_double_range(rnd, -0.25, 1.25);
    }
}

static uint32_t random_factor(GRand *rnd)
{
    static const uint32_t common[] = {
        ATTILA_BF_ZERO, ATTILA_BF_ONE, ATTILA_BF_SRC_ALPHA,
        ATTILA_BF_ONE_MINUS_SRC_ALPHA,
    };

    return g_rand_int_range(rnd, 0, 6) ?
           common[g_rand_int_range(rnd, 0, G_N_ELEMENTS(common))] :
           (uint32_t)g_rand_int_range(rnd, 0, 15);
}

static void test_color_write(void)
{
    static const uint32_t formats[] = {
        ATTILA_FMT_RGBA8888, ATTILA_FMT_RGBA8888, ATTILA_FMT_RGBA8888,
        ATTILA_FMT_RGBA8888, ATTILA_FMT_RG16F, ATTILA_FMT_R32F,
        ATTILA_FMT_RGBA16, ATTILA_FMT_RGBA16F,
    };
    GRand *rnd = g_rand_new_with_seed(0xC0105);
    AttilaDrawState *ds = g_new0(AttilaDrawState, 1);
    unsigned taken[3] = { 0, 0, 0 };
    int n, c;

    for (n = 0; n < 200000; n++) {
        AttilaRenderTarget rt = { 0 };
        uint8_t fast[8], gen[8];
        float color[4];
        int index = g_rand_int_range(rnd, 0, 4) == 0;

        rt.format = formats[g_rand_int_range(rnd, 0, G_N_ELEMENTS(formats))];
        rt.bytes = attila_rt_bytes(rt.format);
        rt.blend = g_rand_int_range(rnd, 0, 3) != 0;
        rt.equation = g_rand_int_range(rnd, 0, 4) ? ATTILA_BLEND_ADD :
                      (uint32_t)g_rand_int_range(rnd, 0, 5);
        rt.src_rgb = random_factor(rnd);
        rt.dst_rgb = random_factor(rnd);
        rt.src_a = random_factor(rnd);
        rt.dst_a = random_factor(rnd);
        for (c = 0; c < 4; c++) {
            rt.blend_color[c] = random_float(rnd);
            rt.mask[c] = g_rand_int_range(rnd, 0, 4) != 0;
            color[c] = random_float(rnd);
        }
        ds->srgb_write = g_rand_int_range(rnd, 0, 10) == 0;
        ds->logic_op = g_rand_int_range(rnd, 0, 8) == 0;
        ds->logic_func = g_rand_int_range(rnd, 0, 16);
        for (c = 0; c < 8; c++) {
            fast[c] = gen[c] = g_rand_int(rnd);
        }
        g3d_general_path = true;
        attila_color_choose(ds, &rt, index);
        g_assert_cmpuint(rt.path, ==, ATTILA_CW_GENERAL);
        attila_color_write(ds, &rt, gen, color, index);
        g3d_general_path = false;
        attila_color_choose(ds, &rt, index);
        taken[rt.path]++;
        attila_color_write(ds, &rt, fast, color, index);
        if (memcmp(fast, gen, sizeof(fast))) {
            g_test_message("case %d: path %u format %u blend %d eq %u "
                           "factors %u %u %u %u", n, rt.path, rt.format,
                           rt.blend, rt.equation, rt.src_rgb, rt.dst_rgb,
                           rt.src_a, rt.dst_a);
            g_assert_not_reached();
        }
    }
    g_test_message("general %u, RGBA8 %u, RGBA8 blend %u", taken[0], taken[1],
                   taken[2]);
    for (c = 0; c < 3; c++) {
        g_assert_cmpuint(taken[c], >, 200000 / 10);
    }
    g_free(ds);
    g_rand_free(rnd);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/attila/fast/color-write", test_color_write);
    return g_test_run();
}
