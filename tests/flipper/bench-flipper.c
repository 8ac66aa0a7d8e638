/*
 * Benchmark of the flipper-gx core: Mpixels/s and Mtriangles/s for fixed
 * GX streams (flat fill, Gouraud, depth-tested, blended, small triangles
 * executed at once and sent through the FIFO in the device's steps),
 * frames/s of every image-test scene the way a guest drives the device
 * (gather pipe -> FIFO -> GP -> EFB copy -> VI scanout of the XFB), at 1
 * and N render threads, beside a memory-bandwidth baseline (memset / memcpy
 * of an EFB-sized frame) measured in the same run. The bilinear case
 * draws the Gouraud quads modulated by a 256x256 RGBA8 texture, bilinear,
 * repeated, about 1.5 texels a pixel.
 *
 *   bench-flipper [seconds-per-case] [threads] [only: cases/scenes whose
 *                 name contains this, or =NAME: the one so named]
 *
 * A negative seconds-per-case -N runs every case and frame exactly N times
 * instead: for instruction counts under callgrind, which are stable where
 * wall-clock time on a shared machine is not.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gx-build.h"
#include "rig.h"
#include "tex-build.h"
#include "../bench-row.h"
#include "../bench-env.h"

#define BENCH_TEX_ADDR 0x00600000u

/* the wall clock, or with GPU3D_BENCH_CPU_CLOCK=1 the process's CPU time
 * (bench-env.h: one render thread only) */
static double now(void)
{
    return bench_now();
}

typedef struct Case {
    const char *name;
    uint32_t zmode, blendmode;
    bool gouraud, small, textured;
    bool fifo;      /* through the gather pipe and FIFO, in the device's steps */
} Case;

static const Case cases[] = {
    { "flat fill", 0x00, 0x18, false, false },
    { "gouraud", 0x00, 0x18, true, false },
    { "depth-tested", 0x17, 0x18, true, false },
    { "blended", 0x00, 0x18 | 1 | 5 << 5 | 4 << 8, true, false },
    { "small triangles", 0x17, 0x18, true, true },
    { "small triangles, FIFO", 0x17, 0x18, true, true, false, true },
    { "bilinear tex", 0x00, 0x18, true, false, true },
};

/* texture map 0: 256x256 RGBA8 at BENCH_TEX_ADDR, bilinear, repeat;
 * the scenes' texturing state (VAT 6), stage 0 = TEXC * RASC */
static void tex_state(GByteArray *b)
{
    scene_tex_begin(b, 1, 1);
    gx_bp(b, BP_SU_SSIZE0, 255);
    gx_bp(b, BP_SU_SSIZE0 + 1, 255);
    gx_tex_map(b, 0, TX_FMT_RGBA8, 256, 256, BENCH_TEX_ADDR,
               0x05 | 1 << 4 | 4 << 5, 0, 0);
    gx_bp(b, BP_TREF0, 0x380040);
    gx_bp(b, BP_TEV_COLOR_ENV0, 0x08F8AF);
    gx_bp(b, BP_TEV_COLOR_ENV0 + 1, 0x08F2F0);
}

/* one batch of a case: full-screen quads, or a grid of ~8-pixel triangles */
static GByteArray *case_stream(const Case *k)
{
    GByteArray *b = g_byte_array_new();
    int i, j;

    gx_bp(b, BP_ZMODE, k->zmode);
    gx_bp(b, BP_BLENDMODE, k->blendmode);
    if (k->small) {
        /* 150 x 110 cells of 4x4 pixels, one triangle each */
        gx_draw(b, GX_DRAW_TRIANGLES, 0, 150 * 110 * 3);
        for (j = 0; j < 110; j++) {
            for (i = 0; i < 150; i++) {
                float x = -1.0f + i * (2.0f / 160), y = 1.0f - j * (2.0f / 120);
                scene_vtx(b, x, y, -0.5f, 0xFF0000C0);
                scene_vtx(b, x + 2.0f / 160, y, -0.5f, 0x00FF00C0);
                scene_vtx(b, x, y - 2.0f / 120, -0.5f, 0x0000FFC0);
            }
        }
        return b;
    }
    if (k->textured) {
        tex_state(b);
        gx_draw(b, GX_DRAW_QUADS, 6, 8 * 4);
        for (i = 0; i < 8; i++) {
            scene_tex_vtx(b, -1, 1, -0.5f, 0xFF0000FF, 0.0f, 0.0f);
            scene_tex_vtx(b, 1, 1, -0.5f, 0x00FF00FF, 3.7f, 0.1f);
            scene_tex_vtx(b, 1, -1, -0.5f, 0x0000FFFF, 3.6f, 2.9f);
            scene_tex_vtx(b, -1, -1, -0.5f, 0xFFFFFFFF, -0.1f, 2.8f);
        }
        return b;
    }
    gx_draw(b, GX_DRAW_QUADS, 0, 8 * 4);
    for (i = 0; i < 8; i++) {
        float z = (i & 1) ? -0.25f : -0.75f;
        scene_vtx(b, -1, 1, z, k->gouraud ? 0xFF000080 : 0x80808080);
        scene_vtx(b, 1, 1, z, k->gouraud ? 0x00FF0080 : 0x80808080);
        scene_vtx(b, 1, -1, z, k->gouraud ? 0x0000FF80 : 0x80808080);
        scene_vtx(b, -1, -1, z, k->gouraud ? 0xFFFFFF80 : 0x80808080);
    }
    return b;
}

static void run_case(const Case *k, double secs, int threads)
{
    FlipperRig *r = rig_new(threads);
    FlipperScene *s = flipper_scene_build("gouraud");
    GByteArray *pro = flipper_scene_prologue(s), *b = case_stream(k);
    FlipperStats st0, st1;
    double t0, t;
    unsigned n = 0;

    if (k->textured) {
        int x, y;
        for (y = 0; y < 256; y++) {
            for (x = 0; x < 256; x++) {
                tex_put(TX_FMT_RGBA8, r->mem1 + BENCH_TEX_ADDR, 256, x, y,
                        0xFF000000u | (uint32_t)(x ^ y) << 16 |
                        (uint32_t)x << 8 | (uint32_t)y);
            }
        }
    }
    /* the scene's state (viewport, TEV, formats), then the case's draws */
    flipper_gx_exec(r->core, pro->data, pro->len);
    flipper_gx_exec(r->core, s->fifo->data, s->fifo->len);
    if (k->fifo) {
        rig_fifo_init(r, RIG_FIFO_BASE, RIG_FIFO_SIZE);
    }
    flipper_core_stats(r->core, &st0);
    t0 = now();
    do {
        if (k->fifo) {
            rig_submit(r, b->data, b->len);
        } else {
            flipper_gx_exec(r->core, b->data, b->len);
        }
        n++;
        t = now() - t0;
    } while (secs < 0 ? n < -secs : t < secs);
    flipper_core_stats(r->core, &st1);
    printf("%-16s %d thr: %8.1f Mpixels/s %7.2f Mtriangles/s "
           "(%u batches, %.1f Mpixels)\n", k->name, threads,
           (st1.pixels - st0.pixels) / t / 1e6,
           (st1.triangles - st0.triangles) / t / 1e6, n,
           (st1.pixels - st0.pixels) / 1e6);
    bench_row("flipper-gx", k->name, threads,
              (st1.pixels - st0.pixels) / t / 1e6, "Mpix/s");
    g_byte_array_unref(b);
    g_byte_array_unref(pro);
    flipper_scene_free(s);
    rig_free(r);
}

/*
 * A whole frame as a guest makes it, scanned out of the XFB into an ARGB
 * surface as the glue does into its console's (not converted further to
 * the rig's RGB image, which is for comparing with PNGs)
 */
static void run_frame(const char *name, double secs, int threads)
{
    FlipperRig *r = rig_new(threads);
    FlipperScene *s = flipper_scene_build(name);
    uint32_t w, h;
    double t0, t;
    unsigned n = 0;

    rig_fifo_init(r, RIG_FIFO_BASE, RIG_FIFO_SIZE);
    rig_vi_init(r, SCENE_XFB_ADDR);
    t0 = now();
    do {
        rig_run_scene(r, s);
        g_assert(rig_scanout_argb(r, &w, &h));
        n++;
        t = now() - t0;
    } while (secs < 0 ? n < -secs : t < secs);
    printf("frame %-12s %d thr: %8.1f frames/s\n", name, threads, n / t);
    {
        g_autofree char *what = g_strdup_printf("frame %s", name);
        bench_row("flipper-gx", what, threads, n / t, "frames/s");
    }
    flipper_scene_free(s);
    rig_free(r);
}

/* EFB copies to texture formats of the whole 640x528 EFB (source pixels) */
static void run_copies(double secs)
{
    static const struct {
        const char *name;
        uint32_t v;         /* BP 0x52 bits 3-6 (rotated format) */
        bool intens, half, z;
        int tile_bytes_per_4;   /* bytes of a 4-texel-wide tile column */
    } k[] = {
        { "RGBA8", 12, false, false, false, 64 },
        { "RGB565", 8, false, false, false, 32 },
        { "I8", 2, true, false, false, 16 },
        { "RGBA8 box", 12, false, true, false, 64 },
        { "Z24X8", 12, false, false, true, 64 },
    };
    FlipperRig *r = rig_new(1);
    size_t i;

    rig_bp(r, BP_EFB_TL, 0);
    rig_bp(r, BP_EFB_WH, (FLIPPER_EFB_HEIGHT - 1) << 10 |
                         (FLIPPER_EFB_WIDTH - 1));
    rig_bp(r, BP_EFB_ADDR, 0x00400000u >> 5);
    for (i = 0; i < G_N_ELEMENTS(k); i++) {
        int w = FLIPPER_EFB_WIDTH >> k[i].half;
        double t0 = now(), t;
        unsigned n = 0;

        rig_bp(r, BP_ZCOMPARE, k[i].z ? PE_FMT_Z24 : PE_FMT_RGBA6_Z24);
        rig_bp(r, BP_MIPMAP_STRIDE, (uint32_t)(w / 4 * k[i].tile_bytes_per_4) >> 5);
        do {
            rig_bp(r, BP_TRIGGER_EFB_COPY, k[i].v << 3 | (uint32_t)k[i].half << 9 |
                   (uint32_t)k[i].intens << 15);
            n++;
            t = now() - t0;
        } while (secs < 0 ? n < -secs : t < secs);
        printf("texture copy %-10s %8.1f Mpixels/s\n", k[i].name,
               (double)n * FLIPPER_EFB_WIDTH * FLIPPER_EFB_HEIGHT / t / 1e6);
        {
            g_autofree char *what = g_strdup_printf("texture copy %s",
                                                    k[i].name);
            bench_row("flipper-gx", what, 1, (double)n * FLIPPER_EFB_WIDTH *
                      FLIPPER_EFB_HEIGHT / t / 1e6, "Mpix/s");
        }
    }
    rig_free(r);
}

/* whether case or scene `name` is among those `only` asks for */
static bool wanted(const char *name, const char *only)
{
    return only[0] == '=' ? !strcmp(name, only + 1) : !!strstr(name, only);
}

static void baseline(double secs)
{
    size_t px = FLIPPER_EFB_WIDTH * FLIPPER_EFB_HEIGHT;
    uint32_t *a = g_new0(uint32_t, px), *b = g_new0(uint32_t, px);
    double t0 = now(), t;
    unsigned n = 0, m = 0;

    do {
        memset(a, n & 0xFF, px * 4);
        n++;
        t = now() - t0;
    } while (t < secs / 2);
    t0 = now();
    do {
        memcpy(b, a, px * 4);
        a[m % px] = m;
        m++;
    } while (now() - t0 < secs / 2);
    printf("baseline: memset %.0f Mpixels/s, memcpy %.0f Mpixels/s "
           "(32-bit pixels, %dx%d frame)\n", n * px / t / 1e6,
           m * px / (now() - t0) / 1e6, FLIPPER_EFB_WIDTH, FLIPPER_EFB_HEIGHT);
    g_free(a);
    g_free(b);
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 0.5;
    int nthr = argc > 2 ? atoi(argv[2]) : (int)g_get_num_processors();
    const char *only = argc > 3 ? argv[3] : "";
    const char *const *sc;
    size_t i;

    /* GPU3D_BENCH_SIMD, GPU3D_BENCH_SPIN_US (bench-env.h) */
    bench_simd_from_env();

    if (secs == 0) {
        secs = 0.5;
    }
    baseline(secs);
    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        if (!wanted(cases[i].name, only)) {
            continue;
        }
        run_case(&cases[i], secs, 1);
        if (nthr > 1) {
            run_case(&cases[i], secs, nthr);
        }
    }
    if (strstr("copy", only)) {
        run_copies(secs);
    }
    for (sc = flipper_scene_names(); *sc; sc++) {
        if (!wanted(*sc, only)) {
            continue;
        }
        run_frame(*sc, secs, 1);
        if (nthr > 1) {
            run_frame(*sc, secs, nthr);
        }
    }
    return 0;
}
