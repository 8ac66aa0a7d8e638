/*
 * Benchmark of the whole R300 pipeline, driven as a driver drives it: PM4
 * packets through the CP ring into VAP/PVS, GA/SU/RS, US, TX, ZB and RB3D,
 * at 1024x768 ARGB8888 with a D24S8 depth buffer. Mpixels/s for full-screen
 * passes (one colour, Gouraud, depth-tested, blended, bilinear-textured, a
 * 64-instruction fragment program) and Mtriangles/s for small triangles, at
 * 1..N threads,
 * beside a memset of the same frame from the same run.
 *
 *   bench-r300 [-t max-threads] [-s seconds-per-case] [-k case-substring]
 *
 * Each case checks that it drew (a probe pixel changed, no guest error was
 * logged) so a broken state cannot report a fast empty pass.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "r300-rig.h"
#include "common/raster.h"
#include "../bench-row.h"
#include "../bench-env.h"

#define VRAM_SIZE   (32u << 20)
#define RING_BUFSZ  17              /* 8 << 17 = 1 MiB ring at 0 */
#define TEX_ADDR    0x00200000u     /* 256x256 ARGB8888 */
#define CB_ADDR     0x00400000u
#define ZB_ADDR     0x00800000u
#define W 1024
#define H 768
#define TEX 256
#define CHUNK 60000                 /* dwords per ring submission */

typedef R300Rig Dev;

static uint32_t cmdbuf[CHUNK + 4096];


static void cmd_submit(Dev *d, R300Cmd *c)
{
    g_assert_false(c->overflow);
    r300_rig_ring_run(d, c->buf, c->n);
    r300_rig_cmd_begin(c, cmdbuf, G_N_ELEMENTS(cmdbuf));
}

static uint32_t px(Dev *d, int x, int y)
{
    uint32_t v;
    memcpy(&v, d->vram + CB_ADDR + 4 * (y * W + x), 4);
    return v;
}

/* ---- states on top of r300_cmd_pipeline ---------------------------------- */

typedef enum Kind {
    FLAT, GOURAUD, DEPTH, BLEND, TEXTURED, LONG_US, SMALL,
} Kind;

/* ALU words of out = t0 (the pipeline's own program) */
#define US_RGB_ADDR_MOV     0x1C000000u
#define US_ALPHA_ADDR_MOV   0x01000000u
#define US_RGB_INST_MOV     0x40050A80u
#define US_ALPHA_INST_MOV   0x40040889u
/* t0 = t0 * 1 + 0, written to t0 and not output [R3xx 3D ref. §1.9 US] */
#define US_RGB_ADDR_KEEP    (7u << 23)        /* WMASK rgb, ADDR0 = t0 */
#define US_ALPHA_ADDR_KEEP  (1u << 23)        /* WMASK */

static void state_textured(R300Cmd *c)
{
    /* PVS output 1 becomes texcoord 0 (4 components), no colour */
    r300_cmd_reg(c, A_VAP_OUT_VTX_FMT_0, R_VAP_OUT_VTX_FMT_0_VTX_POS_PRESENT_MASK);
    r300_cmd_reg(c, A_VAP_OUT_VTX_FMT_1, 4);
    /* RS: texcoord 0 S T R Q into temporary 0 */
    r300_cmd_reg(c, A_RS_COUNT, 4 | R_RS_COUNT_HIRES_EN_MASK);
    r300_cmd_reg(c, A_RS_IP_0, 0u << 13 | 1u << 16 | 2u << 19 | 3u << 22);
    r300_cmd_reg(c, A_RS_INST_0, R_RS_INST_0_TEX_CN_MASK);
    /* TX unit 0: 256x256 ARGB8888, bilinear, wrap */
    r300_cmd_tex0_argb8888(c, TEX, TEX_ADDR, 2u << 9 | 2u << 11);
    /* US: node 3 = TEX LD t0 <- tex0(t0), then out = t0 */
    r300_cmd_reg(c, A_US_CONFIG, R_US_CONFIG_FIRST_TEX_MASK);
    r300_cmd_reg(c, R300_US_CODE_ADDR(3), R_US_CODE_ADDR_0_RGBA_OUT_MASK);
    r300_cmd_reg(c, R300_US_TEX_INST(0), 0 | 0 << 6 | 0 << 11 | 1u << 15);
}

static void state_long_us(R300Cmd *c, unsigned n)
{
    unsigned i;

    r300_cmd_reg(c, A_US_CODE_OFFSET, (n - 1) << 6);
    r300_cmd_reg(c, R300_US_CODE_ADDR(3), (n - 1) << 6 |
                 R_US_CODE_ADDR_0_RGBA_OUT_MASK);
    for (i = 0; i < n - 1; i++) {
        r300_cmd_reg(c, A_US_ALU_RGB_ADDR_0 + 4 * i, US_RGB_ADDR_KEEP);
        r300_cmd_reg(c, A_US_ALU_ALPHA_ADDR_0 + 4 * i, US_ALPHA_ADDR_KEEP);
        /* MAD src0 * 1.0 + 0.0, as the pipeline's MOV but kept in t0 */
        r300_cmd_reg(c, A_US_ALU_RGB_INST_0 + 4 * i,
                     US_RGB_INST_MOV & ~(3u << 30));
        r300_cmd_reg(c, A_US_ALU_ALPHA_INST_0 + 4 * i,
                     US_ALPHA_INST_MOV & ~(3u << 30));
    }
    r300_cmd_reg(c, A_US_ALU_RGB_ADDR_0 + 4 * i, US_RGB_ADDR_MOV);
    r300_cmd_reg(c, A_US_ALU_ALPHA_ADDR_0 + 4 * i, US_ALPHA_ADDR_MOV);
    r300_cmd_reg(c, A_US_ALU_RGB_INST_0 + 4 * i, US_RGB_INST_MOV);
    r300_cmd_reg(c, A_US_ALU_ALPHA_INST_0 + 4 * i, US_ALPHA_INST_MOV);
}

static void setup(Dev *d, Kind kind)
{
    static const float identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                                        0, 0, 0, 1 };
    R300Surface cb = { CB_ADDR, W, R300_COLOR_FORMAT_ARGB8888 };
    R300Surface zb = { ZB_ADDR, W, R300_DEPTHFORMAT_24BIT_INT_Z_8BIT_STENCIL };
    R300Cmd c;

    r300_rig_cmd_begin(&c, cmdbuf, G_N_ELEMENTS(cmdbuf));
    r300_cmd_pipeline(&c, &cb, &zb, W, H);
    r300_cmd_matrix(&c, identity);
    r300_cmd_clear(&c, 0, 0, 0, 0);
    if (kind != DEPTH) {
        r300_cmd_depth(&c, 0, R300_ZS_ALWAYS);
    }
    if (kind == BLEND) {
        r300_cmd_reg(&c, A_RB3D_BLENDCNTL,
                     R_RB3D_BLENDCNTL_ALPHA_BLEND_ENABLE_MASK |
                     R_RB3D_BLENDCNTL_READ_ENABLE_MASK |
                     R300_COMB_ADD_CLAMP << R_RB3D_BLENDCNTL_COMB_FCN_SHIFT |
                     R300_BLEND_GL_SRC_ALPHA << R_RB3D_BLENDCNTL_SRCBLEND_SHIFT |
                     R300_BLEND_GL_ONE_MINUS_SRC_ALPHA <<
                     R_RB3D_BLENDCNTL_DESTBLEND_SHIFT);
    }
    if (kind == TEXTURED) {
        state_textured(&c);
    }
    if (kind == LONG_US) {
        state_long_us(&c, 64);
    }
    cmd_submit(d, &c);
}

/* A full-screen rectangle, colour varying across it, at depth z. */
static void draw_fullscreen(R300Cmd *c, float z, float alpha)
{
    const float v[6 * 8] = {
        -1, -1, z, 1, 1, 0, 0, alpha,   1, -1, z, 1, 0, 1, 0, alpha,
         1,  1, z, 1, 0, 0, 1, alpha,  -1, -1, z, 1, 1, 0, 0, alpha,
         1,  1, z, 1, 0, 0, 1, alpha,  -1,  1, z, 1, 1, 1, 1, alpha,
    };

    r300_cmd_draw(c, R300_PRIM_TRIANGLES, v, 6);
}

/*
 * A full-screen rectangle of one colour: 8-bit values, as an unsigned-byte
 * colour attribute gives them (a clear or a flat-shaded quad).
 */
static void draw_flat(R300Cmd *c)
{
    const float r = 0x40 / 255.0f, g = 0x80 / 255.0f, b = 0xC0 / 255.0f;
    const float a = 0x80 / 255.0f;
    const float v[6 * 8] = {
        -1, -1, 0.5f, 1, r, g, b, a,   1, -1, 0.5f, 1, r, g, b, a,
         1,  1, 0.5f, 1, r, g, b, a,  -1, -1, 0.5f, 1, r, g, b, a,
         1,  1, 0.5f, 1, r, g, b, a,  -1,  1, 0.5f, 1, r, g, b, a,
    };

    r300_cmd_draw(c, R300_PRIM_TRIANGLES, v, 6);
}

/* Rows of right triangles with 8-pixel legs covering the screen, a row per
 * draw packet as a driver batches them. */
static unsigned draw_small(Dev *d, R300Cmd *c)
{
    static float v[W / 8 * 3 * 8];
    const float sx = 2.0f / W * 8, sy = 2.0f / H * 8;
    unsigned x, y, n = 0;

    for (y = 0; y < H / 8; y++) {
        for (x = 0; x < W / 8; x++) {
            float x0 = -1 + x * sx, y0 = -1 + y * sy;
            const float t[3 * 8] = {
                x0, y0, 0.5f, 1, 1, 0, 0, 1,
                x0 + sx, y0, 0.5f, 1, 0, 1, 0, 1,
                x0, y0 + sy, 0.5f, 1, 0, 0, 1, 1,
            };
            memcpy(&v[x * 3 * 8], t, sizeof(t));
        }
        r300_cmd_draw(c, R300_PRIM_TRIANGLES, v, W / 8 * 3);
        n += W / 8;
        if (c->n > CHUNK) {
            cmd_submit(d, c);
        }
    }
    return n;
}

/* One pass: pixels or triangles drawn. */
static double pass(Dev *d, Kind kind, unsigned i)
{
    R300Cmd c;
    double n;

    r300_rig_cmd_begin(&c, cmdbuf, G_N_ELEMENTS(cmdbuf));
    if (kind == SMALL) {
        n = draw_small(d, &c);
    } else if (kind == FLAT) {
        draw_flat(&c);
        n = (double)W * H;
    } else {
        /* nearer each pass so the depth test passes and writes */
        draw_fullscreen(&c, kind == DEPTH ? 0.9f - (i % 1000) * 0.0008f : 0.5f,
                        0.5f);
        n = (double)W * H;
    }
    r300_cmd_finish(&c);
    cmd_submit(d, &c);
    return n;
}

static double now(void)
{
    return bench_now();
}

/* not inlined: callgrind --toggle-collect=run_case counts one case */
static __attribute__((noinline)) double run_case(Kind kind, int threads,
                                                 double secs)
{
    Dev *d = r300_rig_new(threads, VRAM_SIZE, RING_BUFSZ);
    unsigned errors = g3d_log_count(G3D_LOG_GUEST_ERROR), i;
    uint32_t *tex = (uint32_t *)(d->vram + TEX_ADDR);
    double t, n = 0;

    for (i = 0; i < TEX * TEX; i++) {
        tex[i] = 0xff000000u | (i * 2654435761u >> 8);
    }
    r300_rig_ring_init(d);
    setup(d, kind);
    pass(d, kind, 0);           /* warm up */
    memset(d->vram + CB_ADDR, 0, (size_t)W * H * 4);
    t = now();
    for (i = 1; now() - t < secs || i < 3; i++) {
        n += pass(d, kind, i);
    }
    t = now() - t;
    if (px(d, W / 2 + 1, H / 2 + 5) == 0 ||
        g3d_log_count(G3D_LOG_GUEST_ERROR) != errors) {
        fprintf(stderr, "bench-r300: case %d drew nothing or logged an error\n",
                kind);
        exit(1);
    }
    r300_rig_free(d);
    return n / t / 1e6;
}

int main(int argc, char **argv)
{
    static const struct {
        Kind kind;
        const char *name, *unit;
    } cases[] = {
        { FLAT, "flat, no blend or depth", "Mpixels/s" },
        { GOURAUD, "Gouraud, full screen", "Mpixels/s" },
        { DEPTH, "Gouraud, depth test + write", "Mpixels/s" },
        { BLEND, "Gouraud, alpha blended", "Mpixels/s" },
        { TEXTURED, "bilinear textured (256x256 ARGB8888)", "Mpixels/s" },
        { LONG_US, "64-instruction fragment program", "Mpixels/s" },
        { SMALL, "small triangles (32 pixels)", "Mtriangles/s" },
    };
    const char *only = NULL;
    int max_threads = 2, opt, threads;
    double secs = 1.0, t;
    unsigned i, reps = 0;
    uint8_t *frame = g_malloc((size_t)W * H * 4);

    /* GPU3D_BENCH_SIMD, GPU3D_BENCH_NO_AVX: the spans' instances */
    bench_simd_from_env();
    while ((opt = getopt(argc, argv, "t:s:k:")) != -1) {
        if (opt == 't') {
            max_threads = MAX(1, atoi(optarg));
        } else if (opt == 's') {
            secs = atof(optarg);
        } else if (opt == 'k') {
            only = optarg;
        } else {
            fprintf(stderr, "usage: %s [-t max-threads] [-s seconds-per-case] "
                    "[-k case-substring]\n", argv[0]);
            return 2;
        }
    }

    t = now();
    while (now() - t < secs) {
        memset(frame, reps++, (size_t)W * H * 4);
    }
    t = now() - t;
    printf("r300 pipeline at %dx%d ARGB8888 + D24S8, PM4 through the CP\n", W, H);
    printf("%-40s %10.1f Mpixels/s\n", "baseline: memset of the frame",
           reps * (double)W * H / t / 1e6);
    g_free(frame);

    printf("%-40s", "case");
    for (threads = 1; threads <= max_threads; threads *= 2) {
        printf(" %8s%-2d", "threads=", threads);
    }
    printf("\n");
    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        if (only && !strstr(cases[i].name, only)) {
            continue;
        }
        double v[8];
        int n = 0;

        printf("%-40s", cases[i].name);
        for (threads = 1; threads <= max_threads; threads *= 2) {
            v[n] = run_case(cases[i].kind, threads, secs);
            printf(" %10.2f", v[n]);
            n = MIN(n + 1, 7);
            fflush(stdout);
        }
        printf("  %s\n", cases[i].unit);
        /* after the line: rows are lines of their own */
        for (threads = 1, n = 0; threads <= max_threads; threads *= 2) {
            bench_row("r300-3d", cases[i].name, threads, v[n],
                      strcmp(cases[i].unit, "Mpixels/s") ? "Mtri/s" : "Mpix/s");
            n = MIN(n + 1, 7);
        }
    }
    return 0;
}
