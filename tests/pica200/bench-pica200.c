/*
 * Benchmark of the pica200 core through its command lists: Mpixels/s and
 * Mtriangles/s for fixed scenes (flat fill, Gouraud, blended, depth-tested,
 * small triangles, a long vertex shader, a bilinear-filtered RGBA8 texture),
 * display transfers in frames/s and the command processor in Mcommands/s, at
 * 1 and N render threads, beside a memory-bandwidth baseline (memset /
 * memcpy of the same frame) measured in the same run.
 *
 *   bench-pica200 [seconds-per-case] [threads [scene]]
 *
 * With a scene name only that scene runs (for profiling).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pica-scene.h"
#include "pica200-scene.h"
#include "common/raster.h"
#include "../bench-row.h"
#include "../bench-env.h"

#define FW 512
#define FH 512
#define LIST_OFF 0x10000u
#define VB_OFF 0x400000u
#define RAM_PA(off) (PICA200_PHYS_FCRAM + (off))

static double now(void)
{
    return bench_now();
}

typedef struct Scene {
    const char *name;
    unsigned ntris;          /* per list */
    bool gouraud, blend, depth, small, long_shader, textured, lit;
    bool modulate;           /* textured: texture x primary colour */
} Scene;

#define TEX_OFF (2u * FW * FH * 4)    /* VRAM, after colour and depth */
#define TEX_SIZE 256

/* vertices of one scene, as floats (x, y, z, w, r, g, b, a) */
static unsigned make_vertices(const Scene *s, float *v)
{
    unsigned i, k, n = 0;

    if (s->small) {
        /* a grid of small triangles (about 8 pixels each) */
        for (i = 0; i < s->ntris; i++) {
            float x = (float)(i % 120) * 4.2f + 4, y = (float)((i / 120) % 120) * 4.2f + 4;
            float p[3][2] = { { x, y }, { x + 4, y }, { x, y + 4 } };
            for (k = 0; k < 3; k++, n++) {
                float *o = v + 8 * n;
                o[0] = p[k][0] / (FW / 2.0f) - 1;
                o[1] = p[k][1] / (FH / 2.0f) - 1;
                o[2] = -0.5f;
                o[3] = 1;
                o[4] = (k == 0);
                o[5] = (k == 1);
                o[6] = (k == 2);
                o[7] = 0.75f;
            }
        }
        return n;
    }
    /* full-screen quads as triangle pairs, each a little further away */
    for (i = 0; i < s->ntris / 2; i++) {
        static const float q[6][2] = { { -1, -1 }, { 1, -1 }, { 1, 1 },
                                       { -1, -1 }, { 1, 1 }, { -1, 1 } };
        for (k = 0; k < 6; k++, n++) {
            float *o = v + 8 * n;
            o[0] = q[k][0];
            o[1] = q[k][1];
            o[2] = -0.1f - 0.8f * (float)i / s->ntris;
            o[3] = 1;
            /* flat: 8-bit colours, as a UNSIGNED_BYTE attribute gives */
            o[4] = s->gouraud ? (k % 3 == 0) : 0x40 / 255.0f;
            o[5] = s->gouraud ? (k % 3 == 1) : 0x80 / 255.0f;
            o[6] = s->gouraud ? (k % 3 == 2) : 0xC0 / 255.0f;
            o[7] = 0x80 / 255.0f;
            if (s->textured) {
                /* texture coordinates 0..1.5: magnified, repeating */
                o[4] = (q[k][0] + 1) * 0.75f;
                o[5] = (q[k][1] + 1) * 0.75f;
            }
        }
    }
    return n;
}

/* vertex shader with a 64-iteration loop of four MADs before the output */
static void cb_long_shader(CmdBuf *b)
{
    uint32_t code[] = {
        PICA_SH_FMT1(PICA_SH_MOV, PICA_SH_R(0), PICA_SH_V(0), 0, 0, 0),
        PICA_SH_FMT3(PICA_SH_LOOP, 5, 0, 0),
        PICA_SH_FMT5(PICA_SH_R(1), PICA_SH_R(0), PICA_SH_C(0), PICA_SH_R(0), 0, 0),
        PICA_SH_FMT5(PICA_SH_R(1), PICA_SH_R(1), PICA_SH_C(0), PICA_SH_R(0), 0, 0),
        PICA_SH_FMT5(PICA_SH_R(1), PICA_SH_R(1), PICA_SH_C(0), PICA_SH_R(0), 0, 0),
        PICA_SH_FMT5(PICA_SH_R(2), PICA_SH_R(1), PICA_SH_C(0), PICA_SH_R(0), 0, 0),
        PICA_SH_FMT1(PICA_SH_MOV, PICA_SH_O(0), PICA_SH_V(0), 0, 0, 0),
        PICA_SH_FMT1(PICA_SH_MOV, PICA_SH_O(1), PICA_SH_V(1), 0, 0, 0),
        (uint32_t)PICA_SH_END << 26,
    };

    pica_cmd_reg(b, GPUREG_VSH_CODETRANSFER_INDEX, 0);
    pica_cmd(b, GPUREG_VSH_CODETRANSFER_DATA0, 0xF, false, code, G_N_ELEMENTS(code));
    pica_cmd_reg(b, GPUREG_VSH_INTUNIFORM_I0, 63);
}

typedef struct Result {
    double seconds;
    uint64_t fragments, triangles, vertices;
} Result;

/* not inlined: callgrind --toggle-collect=run_scene counts one case */
static __attribute__((noinline)) Result run_scene(const Scene *s, int threads,
                                                  double secs)
{
    PicaTest t;
    CmdBuf b;
    float *v = g_new(float, 8 * 3 * (s->ntris + 2));
    unsigned nv;
    Result r = { 0 };
    Pica200Stats st;
    double t0;
    int reps = 0;

    pt_init(&t, threads);
    nv = make_vertices(s, v);
    g_assert_cmpuint(nv * 32, <=, PT_RAM_SIZE - VB_OFF);
    pt_put_vertices(&t, VB_OFF, v, nv);
    cb_init(&b);
    pica_cmd_shader_passthrough(&b);
    if (s->long_shader) {
        cb_long_shader(&b);
    }
    pica_cmd_viewport(&b, FW, FH, 0, 0);
    pica_cmd_target(&b, FW, FH, PICA200_PHYS_VRAM, PICA_COLORFMT_RGBA8,
              s->depth ? PICA200_PHYS_VRAM + FW * FH * 4 : 0, PICA_DEPTH_D24S8);
    pica_cmd_fragment(&b, s->depth, PICA_CMP_LESS, s->depth);
    if (s->blend) {
        pica_cmd_reg(&b, GPUREG_BLEND_FUNC, 0x76760000);
    }
    if (s->textured) {
        unsigned i;

        for (i = 0; i < TEX_SIZE * TEX_SIZE * 4; i++) {
            t.vram[TEX_OFF + i] = (uint8_t)(i * 7 + (i >> 9));
        }
        /* o1.xy -> texcoord0; stage 0 = texture 0; linear filters, repeat */
        pica_cmd_reg(&b, GPUREG_SH_OUTMAP_O1, 0x1F1F0D0C);
        pica_cmd_reg(&b, GPUREG_TEXUNIT0_DIM, TEX_SIZE | TEX_SIZE << 16);
        pica_cmd_reg(&b, GPUREG_TEXUNIT0_PARAM, 6 | PICA_WRAP_REPEAT << 8 |
                     PICA_WRAP_REPEAT << 12);
        pica_cmd_reg(&b, GPUREG_TEXUNIT0_LOD, 0);
        pica_cmd_reg(&b, GPUREG_TEXUNIT0_ADDR1, (PICA200_PHYS_VRAM + TEX_OFF) >> 3);
        pica_cmd_reg(&b, GPUREG_TEXUNIT0_TYPE, PICA_TEXFMT_RGBA8);
        pica_cmd_regm(&b, GPUREG_TEXUNIT_CONFIG, 0xB, 0x1001);
        if (s->modulate) {
            pica_cmd_reg(&b, PICA_TEXENV_BASE(0), (PICA_TEVSRC_TEXTURE0 |
                         PICA_TEVSRC_PRIMARY << 4) * 0x10001u);
            pica_cmd_reg(&b, PICA_TEXENV_BASE(0) + 2,
                         PICA_TEVOP_MODULATE * 0x10001u);
        } else {
            pica_cmd_reg(&b, PICA_TEXENV_BASE(0),
                         PICA_TEVSRC_TEXTURE0 * 0x10001u);
        }
        /* stages 1-5 pass stage 0's result on (their reset value reads
         * the primary colour, which would hide the texture) */
        for (i = 1; i < 6; i++) {
            pica_cmd_reg(&b, PICA_TEXENV_BASE(i),
                         PICA_TEVSRC_PREVIOUS * 0x10001u);
        }
    }
    if (s->lit) {
        /* fragment lighting, two positional lights, configuration 7 with
         * every LUT (D0, D1, FR, RR, RG, RB, SP, DA) read; the quaternion and
         * view are unmapped outputs (1.0), which costs the same */
        pica_cmd_reg(&b, GPUREG_LIGHTING_ENABLE0, 1);
        pica_cmd_reg(&b, GPUREG_LIGHTING_ENABLE1, 0);
        pica_cmd_reg(&b, GPUREG_LIGHTING_NUM_LIGHTS, 1);
        pica_cmd_reg(&b, GPUREG_LIGHTING_LIGHT_PERMUTATION, 0x10);
        pica_cmd_reg(&b, GPUREG_LIGHTING_CONFIG0, 8 << 4 | 3 << 2);
        pica_cmd_reg(&b, GPUREG_LIGHTING_CONFIG1, 0);
        pica_cmd_reg(&b, PICA_LIGHT_BASE(0) + PICA_LIGHT_DIFFUSE, 0x0C833C0C);
        pica_cmd_reg(&b, PICA_LIGHT_BASE(1) + PICA_LIGHT_SPECULAR0, 0x0FF3FCFF);
        pica_cmd_reg(&b, PICA_TEXENV_BASE(0), PICA_TEVSRC_FRAG_PRIMARY |
                     PICA_TEVSRC_FRAG_SECONDARY << 4 | PICA_TEVSRC_FRAG_PRIMARY << 16);
        pica_cmd_reg(&b, PICA_TEXENV_BASE(0) + 2, PICA_TEVOP_ADD);
    }
    pica_cmd_attribs(&b, RAM_PA(VB_OFF), PICA_F32X4, PICA_F32X4, 32);
    pica_cmd_draw(&b, PICA_TOPOLOGY_TRIANGLES, nv, 0, false, 0);
    pica_cmd_finalize(&b);
    pt_kick(&t, &b, LIST_OFF);             /* warm-up */
    g_assert_true(pt_run(&t, 1u << 20));
    pica200_core_reset(t.core);
    t0 = now();
    do {
        pt_kick(&t, &b, LIST_OFF);
        g_assert_true(pt_run(&t, 1u << 20));
        pt_wreg(&t, GPUREG_IRQ_ACK0, 0);
        reps++;
    } while (now() - t0 < secs);
    r.seconds = now() - t0;
    pica200_stats(t.core, &st);
    r.fragments = st.fragments;
    r.triangles = st.triangles;
    r.vertices = st.vertices;
    cb_free(&b);
    g_free(v);
    pt_free(&t);
    return r;
}

static void baseline(double secs)
{
    size_t bytes = FW * FH * 4;
    uint8_t *a = g_malloc(bytes), *bb = g_malloc(bytes);
    double t0 = now(), t;
    int n = 0;

    memset(bb, 1, bytes);
    do {
        memset(a, n, bytes);
        n++;
    } while ((t = now() - t0) < secs / 2);
    printf("baseline  memset %dx%d RGBA8 frame: %8.1f Mpixels/s (%5.2f GB/s)\n",
           FW, FH, n * (double)FW * FH / t / 1e6, n * (double)bytes / t / 1e9);
    t0 = now();
    n = 0;
    do {
        memcpy(a, bb, bytes);
        bb[n % bytes]++;
        n++;
    } while ((t = now() - t0) < secs / 2);
    printf("baseline  memcpy %dx%d RGBA8 frame: %8.1f Mpixels/s (%5.2f GB/s)\n",
           FW, FH, n * (double)FW * FH / t / 1e6, n * (double)bytes / t / 1e9);
    g_free(a);
    g_free(bb);
}

/* runs of `once` a second on a fresh core; i counts the runs from 0 */
typedef void BenchOnce(PicaTest *t, int i);

static double rate(double secs, int threads, BenchOnce *once)
{
    PicaTest t;
    double t0, el;
    int n = 0;

    pt_init(&t, threads);
    t0 = now();
    do {
        once(&t, n++);
    } while ((el = now() - t0) < secs);
    pt_free(&t);
    return n / el;
}

static void transfer_once(PicaTest *t, int i)
{
    pt_transfer(t, PICA200_PHYS_VRAM, PICA200_PHYS_VRAM + 0x100000,
                240 | 400 << 16, 240 | 400 << 16,
                PICA_PIXFMT_RGBA8 << 8 | PICA_PIXFMT_RGB8 << 12);
}

static void fill_once(PicaTest *t, int i)
{
    pt_fill(t, 0, PICA200_PHYS_VRAM, PICA200_PHYS_VRAM + FW * FH * 4,
            0x203040FF, 2);
    g_assert_true(pt_run(t, 1000));
    pt_w32(t, A_PSC0_CONTROL, 0);
}

/* the guest demo's top-screen frame: clear, draw the cube scene, transfer */
static void demo_frame_once(PicaTest *t, int i)
{
    PicaBus bus = pt_bus(t);
    PicaCmd c = { (uint32_t *)(t->ram + LIST_OFF), 0, 4096, 0, NULL };
    const uint32_t color = PICA200_PHYS_VRAM + PICA_SCENE_COLOR_VRAM;
    const uint32_t depth = PICA200_PHYS_VRAM + PICA_SCENE_DEPTH_VRAM;

    if (i == 0) {
        scene_vertices((float *)(t->ram + VB_OFF));
    }
    g_assert_cmpint(pica_scene_clear(&bus, 400, 240, color, depth), ==, 0);
    g_assert_cmpint(pica_scene_draw(&bus, &c, RAM_PA(LIST_OFF), i % SCENE_FRAMES,
                                    400, 240, color, depth, RAM_PA(VB_OFF)), ==, 0);
    g_assert_cmpint(pica_scene_show(&bus, 0, i & 1, 400, 240, color,
                                    PICA200_PHYS_VRAM + PICA_SCENE_TOP_VRAM(i & 1)),
                    ==, 0);
}

static void bench_commands(double secs)
{
    PicaTest t;
    CmdBuf b;
    double t0, el;
    unsigned i;
    int n = 0;

    pt_init(&t, 1);
    cb_init(&b);
    for (i = 0; i < 100000; i++) {
        pica_cmd_reg(&b, GPUREG_FOG_COLOR + (i & 1), i);
    }
    pica_cmd_finalize(&b);
    t0 = now();
    do {
        pt_kick(&t, &b, LIST_OFF);
        g_assert_true(pt_run(&t, 1000));
        n++;
    } while ((el = now() - t0) < secs);
    printf("commands  register writes from a list: %8.1f Mcommands/s\n",
           n * 100000.0 / el / 1e6);
    cb_free(&b);
    pt_free(&t);
}

int main(int argc, char **argv)
{
    static const Scene scenes[] = {
        { "flat", 40, false, false, false, false, false },
        { "gouraud", 40, true, false, false, false, false },
        { "blended", 40, true, true, false, false, false },
        { "depth", 40, true, false, true, false, false },
        { "small", 14400, true, false, false, true, false },
        { "long-shader", 14400, true, false, false, true, true },
        { "bilinear", 40, false, false, false, false, false, true },
        { "modulate", 40, false, false, false, false, false, true, false,
          true },
        { "lit", 40, true, false, false, false, false, false, true },
    };
    double secs = argc > 1 ? atof(argv[1]) : 1.0;
    int maxthreads = argc > 2 ? atoi(argv[2]) : g3d_default_threads();
    unsigned i;
    int th;

    /* GPU3D_BENCH_SIMD, GPU3D_BENCH_NO_AVX: the spans' instances */
    bench_simd_from_env();
    if (maxthreads < 1) {
        maxthreads = 1;
    }
    printf("pica200 core benchmark, %.1f s per case, %dx%d RGBA8 target\n",
           secs, FW, FH);
    baseline(secs);
    for (i = 0; i < G_N_ELEMENTS(scenes); i++) {
        if (argc > 3 && strcmp(argv[3], scenes[i].name)) {
            continue;
        }
        for (th = 1; th <= maxthreads; th = th < maxthreads ? MIN(th * 2, maxthreads) : th + 1) {
            Result r = run_scene(&scenes[i], th, secs);
            printf("%-11s %d thread%s: %8.1f Mpixels/s %9.4f Mtriangles/s "
                   "%7.2f Mvertices/s\n", scenes[i].name, th, th > 1 ? "s" : " ",
                   r.fragments / r.seconds / 1e6, r.triangles / r.seconds / 1e6,
                   r.vertices / r.seconds / 1e6);
            bench_row("pica200-3d", scenes[i].name, th,
                      r.fragments / r.seconds / 1e6, "Mpix/s");
        }
    }
    if (argc > 3) {
        return 0;
    }
    printf("fill      PSC0 %dx%d RGBA8 frame:      %8.1f Mpixels/s\n", FW, FH,
           rate(secs, 1, fill_once) * FW * FH / 1e6);
    {
        double r = rate(secs, 1, transfer_once);
        printf("transfer  240x400 tiled RGBA8 -> RGB8: %8.1f frames/s "
               "(%7.1f Mpixels/s)\n", r, r * 96000.0 / 1e6);
    }
    bench_commands(secs);
    for (th = 1; th <= maxthreads; th++) {
        double fps = rate(secs, th, demo_frame_once);
        printf("demo      400x240 cube frame, %d thread%s: %8.1f frames/s\n", th,
               th > 1 ? "s" : " ", fps);
        bench_row("pica200-3d", "frame demo cube", th, fps, "frames/s");
    }
    return 0;
}
