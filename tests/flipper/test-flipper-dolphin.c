/*
 * flipper-gx against Dolphin: every scene of scenes.c is rendered by the
 * core the way a guest drives the device (command stream through the
 * write-gather pipe into a linked FIFO, EFB -> XFB copy, VI scanout of the
 * YUV 4:2:2 XFB) and compared with tests/flipper/ref/SCENE.png.
 *
 * The references are independent: Debian's dolphin-emu 5.0-17995, software
 * renderer, playing the same scene written as a Dolphin FIFO log by
 * flipper-dff; its frame dump has been through the same YUYV XFB (digest
 * Appendix D.1). Regenerate with: scripts/flipper-dolphin-ref.sh --regen
 *
 * Measured: every scene matches Dolphin exactly (0 differing pixels), so
 * the test requires that; the gouraud and depth scenes are the two the
 * project requires to match. Each case prints its PSNR and differing pixels.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <stdio.h>

#include "rig.h"

static void render_scene(const char *name, int threads, G3DImage *img)
{
    FlipperScene *s = flipper_scene_build(name);
    FlipperRig *r = rig_new(threads);

    g_assert_nonnull(s);
    rig_fifo_init(r, RIG_FIFO_BASE, RIG_FIFO_SIZE);
    rig_vi_init(r, SCENE_XFB_ADDR);
    rig_run_scene(r, s);
    g_assert_true(rig_scanout(r, img));
    g_assert_cmpint(img->width, ==, s->width);
    g_assert_cmpint(img->height, ==, s->height);
    rig_free(r);
    flipper_scene_free(s);
}

static void test_scene(gconstpointer data)
{
    const char *name = data;
    char *file = g_strdup_printf("ref/%s.png", name);
    char *path = rig_src_path(file);
    G3DImage ref, img, img4;
    G3DImageDiff d, d4;

    g_assert_true(g3d_image_load(&ref, path));
    render_scene(name, 1, &img);
    g_assert_true(g3d_image_compare(&img, &ref, &d));
    printf("# %-12s vs Dolphin: PSNR %.2f dB, %ld differing pixels "
           "(max channel delta %d)\n", name, d.psnr, d.differing, d.max_delta);
    g_assert_cmpint(d.differing, ==, 0);

    /* the picture does not depend on the number of render threads */
    render_scene(name, 4, &img4);
    g_assert_true(g3d_image_compare(&img4, &img, &d4));
    g_assert_cmpint(d4.differing, ==, 0);

    g3d_image_free(&ref);
    g3d_image_free(&img);
    g3d_image_free(&img4);
    g_free(path);
    g_free(file);
}

int main(int argc, char **argv)
{
    const char *const *n;

    g_test_init(&argc, &argv, NULL);
    for (n = flipper_scene_names(); *n; n++) {
        char *p = g_strdup_printf("/flipper/dolphin/%s", *n);
        g_test_add_data_func(p, *n, test_scene);
        g_free(p);
    }
    return g_test_run();
}
