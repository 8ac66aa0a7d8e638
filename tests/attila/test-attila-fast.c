/*
 * The attila-3d paths chosen per draw against the general ones
 * (g3d_general_path): the color write (attila_color_choose,
 * color-write.c) over random render-target states and pixels; the
 * rasteriser's stamps found far inside or outside the edges
 * (rasterizer.c box_inside, box_outside) over random triangles. The
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
#include "attila-scene-run.h"

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

/*
 * A vertex for the random triangles: a pixel position on a grid of 1/2,
 * 1/4 or any fraction (so that edges run exactly through pixel centres and
 * sample positions and the tie rule decides), to clip space with a random
 * w (sometimes negative), z around the near/far planes, random colour.
 */
static void random_vertex(GRand *rnd, uint32_t w, uint32_t h, float *v)
{
    static const double grid[3] = { 2.0, 4.0, 0.0 };
    double g = grid[g_rand_int_range(rnd, 0, 3)];
    double px = g_rand_double_range(rnd, -0.3 * w, 1.3 * w);
    double py = g_rand_double_range(rnd, -0.3 * h, 1.3 * h);
    double cw = g_rand_int_range(rnd, 0, 3) == 0 ? 1.0 :
                g_rand_double_range(rnd, -0.5, 3.0);
    int k;

    if (g != 0.0) {
        px = floor(px * g) / g;
        py = floor(py * g) / g;
    }
    v[0] = (float)((2.0 * px / w - 1.0) * cw);
    v[1] = (float)((2.0 * py / h - 1.0) * cw);
    v[2] = (float)(g_rand_double_range(rnd, -1.3, 1.3) * cw);
    v[3] = (float)cw;
    for (k = 4; k < 8; k++) {
        v[k] = (float)g_rand_double(rnd);
    }
}

/*
 * Random triangles (some sharing edges, some huge, some thin) drawn with
 * the stamps' box tests (fast) and without (g3d_general_path): MSAA off
 * and 2, 4, 8 samples, OpenGL and D3D9 rules and depth ranges; the color
 * and z buffers byte-equal. Checked to fail when box_inside's box is half
 * as wide as the stamp's, and when a stamp found inside skips the near/far
 * test.
 */
static void test_raster(void)
{
    static const uint32_t samples[4] = { 1, 2, 4, 8 };
    GRand *rnd = g_rand_new_with_seed(7);
    uint8_t *buf = g_malloc(65536), *img[2][2] = { { 0 } };
    uint64_t drawn = 0;
    int n, pass;

    for (n = 0; n < 48; n++) {
        uint32_t w = g_rand_int_range(rnd, 8, 120);
        uint32_t h = g_rand_int_range(rnd, 8, 90);
        uint32_t ns = samples[n % 4];
        bool d3d9 = g_rand_boolean(rnd), d3d9_depth = g_rand_boolean(rnd);
        float verts[SCENE_VERTS][8];
        AttilaPixelMapper pm;
        int v, k;

        for (v = 0; v < SCENE_VERTS; v++) {
            if (v % 3 != 2 && v >= 3 && g_rand_int_range(rnd, 0, 3) == 0) {
                /* a shared edge: the previous triangle's last two */
                memcpy(verts[v], verts[v - 2 + (v % 3)], sizeof(verts[v]));
            } else {
                random_vertex(rnd, w, h, verts[v]);
            }
        }
        g_assert_true(attila_pixel_mapper_init(&pm, w, h, ns, 4));
        for (pass = 0; pass < 2; pass++) {
            AttilaRun *run = attila_scene_run_new(w, h, 1);
            AttilaRecBuf b = { buf, 0, 65536, 0 };

            memcpy(run->sys, verts, sizeof(verts));
            for (k = 0; k < 4; k++) {
                attila_rec_reg_vec4(&b, ATTILA_REG_VERTEX_CONSTANT, k,
                                    k == 0, k == 1, k == 2, k == 3);
            }
            attila_rec_reg_u32(&b, ATTILA_REG_MULTISAMPLING, 0, ns > 1);
            attila_rec_reg_u32(&b, ATTILA_REG_MSAA_SAMPLES, 0, ns > 1 ? ns : 2);
            attila_rec_reg_u32(&b, ATTILA_REG_D3D9_RASTERIZATION_RULES, 0,
                               d3d9);
            attila_rec_reg_u32(&b, ATTILA_REG_D3D9_PIXEL_COORDINATES, 0,
                               d3d9);
            attila_rec_reg_u32(&b, ATTILA_REG_D3D9_DEPTH_RANGE, 0, d3d9_depth);
            attila_rec_cmd(&b, ATTILA_CMD_CLEARCOLORBUFFER);
            attila_rec_cmd(&b, ATTILA_CMD_CLEARZSTENCILBUFFER);
            attila_rec_cmd(&b, ATTILA_CMD_DRAW);
            g_assert_false(b.overflow);
            g3d_general_path = pass == 1;
            g_assert_true(attila_run_records(run, b.buf, b.n));
            g3d_general_path = false;
            g_assert_cmpuint(attila_reg_read(run->core, A_ATTILA_ERROR_COUNT,
                                             4), ==, 0);
            img[pass][0] = g_memdup2(run->gpu + ATTILA_SCENE_FB(0), pm.surface);
            img[pass][1] = g_memdup2(run->gpu + ATTILA_SCENE_ZB, pm.surface);
            attila_run_free(run);
        }
        for (k = 0; k < (int)pm.surface; k += 4) {
            uint32_t z;
            memcpy(&z, img[0][1] + k, 4);
            drawn += (z & 0xffffff) != 0xffffff;
        }
        for (k = 0; k < 2; k++) {
            g_assert_cmpmem(img[0][k], pm.surface, img[1][k], pm.surface);
            g_free(img[0][k]);
            g_free(img[1][k]);
        }
    }
    /* samples whose depth was written: the triangles reach the buffers */
    g_test_message("%" G_GUINT64_FORMAT " samples drawn", drawn);
    g_assert_cmpuint(drawn, >, 10000);
    g_free(buf);
    g_rand_free(rnd);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/attila/fast/color-write", test_color_write);
    g_test_add_func("/attila/fast/raster", test_raster);
    return g_test_run();
}
