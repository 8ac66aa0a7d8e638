/*
 * The demo scene through the core, driven by the same code as the guest
 * demo (guest/pica200-scene.h over BAR0 accessors): memory fills, the
 * command list with the 4x4 matrix shader and depth test, display
 * transfers and both LCDs. The heads' pictures are checked against the
 * independent reference, Mesa's llvmpipe drawing the same scene through
 * OpenGL (tests/pica200/ref/demo-top.png, demo-bottom.png; regenerate with
 *   build/scene-gl-ref tests/pica200/ref/demo-top.png 400 240
 *   build/scene-gl-ref tests/pica200/ref/demo-bottom.png 320 240 0).
 *
 * The tolerance is what the two renderers' different arithmetic leaves
 * (float24 vertex maths, 12.4 snapping and the fill rule on edges, colour
 * interpolation rounding), measured and written at BARS below.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <stdio.h>

#include "image.h"
#include "pica-scene.h"
#include "common/scanout.h"


typedef struct Bars {
    double min_psnr;
    int tolerance;
    long max_beyond;
} Bars;

/*
 * Measured: top 45.93 dB, 715 differing pixels, 6 by more than 2; bottom
 * 43.66 dB, 1917 differing, 9 by more than 2 (those few are edge pixels the
 * two fill rules give to different triangles). The bars leave a margin.
 */
static const Bars BARS = { 41.0, 2, 40 };

static void check_head(PicaTest *t, int head, const char *ref_name)
{
    G3DScanout so;
    G3DImage got = { 0 }, want = { 0 };
    G3DImageDiff d = { .tolerance = BARS.tolerance };
    g_autofree char *ref = g_build_filename(g_getenv("GPU3D_SRCDIR") ?: ".",
                                            "tests", "pica200", "ref",
                                            ref_name, NULL);
    uint32_t *px;

    g_assert_true(pica200_scanout(t->core, head, &so));
    px = g_new(uint32_t, so.width * so.height);
    g_assert_true(g3d_scanout_copy(&so, pica200_scanout_mem(t->core), px, so.width,
                                   "test"));
    g_assert_true(g3d_image_alloc(&got, so.width, so.height));
    g3d_image_from_argb(&got, px, so.width);
    g_assert_true(g3d_image_load(&want, ref));
    g_assert_true(g3d_image_compare(&got, &want, &d));
    printf("# head %d vs %s: PSNR %.2f dB, %ld differing pixels, %ld beyond "
           "%d, max channel delta %d\n", head, ref_name, d.psnr, d.differing,
           d.beyond, d.tolerance, d.max_delta);
    if (g_getenv("PICA200_TEST_PNG")) {
        g_autofree char *name = g_strdup_printf("pica200-scene-%d.png", head);
        g3d_image_save(&got, name);
    }
    g_assert_cmpfloat(d.psnr, >=, BARS.min_psnr);
    g_assert_cmpint(d.beyond, <=, BARS.max_beyond);
    g_free(px);
    g3d_image_free(&got);
    g3d_image_free(&want);
}

static void test_scene(gconstpointer data)
{
    PicaTest t;
    PicaBus bus;

    pt_init(&t, GPOINTER_TO_INT(data));
    bus = pt_bus(&t);
    pt_demo_scene(&t, &bus);
    check_head(&t, 0, "demo-top.png");
    check_head(&t, 1, "demo-bottom.png");
    pt_free(&t);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_data_func("/pica200/scene/cube/1-thread", GINT_TO_POINTER(1),
                         test_scene);
    g_test_add_data_func("/pica200/scene/cube/3-threads", GINT_TO_POINTER(3),
                         test_scene);
    return g_test_run();
}
