/*
 * Benchmark of the glamo-3d core: Mpixels/s and Mtriangles/s for fixed
 * scenes drawn from a vertex buffer through the parser (buffer mode,
 * screen-space float vertices, ubyte colours) into a 480x320 RGB565
 * target, at 1 and 2 render threads, beside a memory-bandwidth baseline
 * (memset / memcpy of the same frame) measured in the same run.
 *
 *   bench-glamo [seconds-per-case [case-name [threads]]]
 *
 * A negative seconds-per-case -N runs each case exactly N submissions (for
 * instruction counts under callgrind); a case name runs that case only,
 * and a thread count (1 or 2) only that count (a thread's instructions
 * under callgrind --separate-threads).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rig.h"
#include "../bench-row.h"
#include "../bench-env.h"

#define W 480
#define H 320
#define FB 0x000000
#define ZB 0x080000
#define VB 0x100000
#define UV 0x400000
#define TEX 0x700000

typedef struct Case {
    const char *name;
    int cell;          /* grid cell in pixels (two triangles per cell) */
    int layers;        /* overdraw per submission */
    bool gouraud, depth, blend, texture;
} Case;

static const Case cases[] = {
    { "flat fill",          W, 8, false, false, false },
    { "gouraud",            W, 8, true,  false, false },
    { "gouraud + Z16",      W, 8, true,  true,  false },
    { "gouraud + blend",    W, 8, true,  false, true },
    { "bilinear textured",  W, 8, true,  false, false, true },
    { "small tris (8x8)",   8, 1, true,  true,  false },
    { "tiny tris (4x4)",    4, 1, true,  false, false },
};

/* the wall clock, or with GPU3D_BENCH_CPU_CLOCK=1 the process's CPU time
 * (bench-env.h: one render thread only) */
static double now(void)
{
    return bench_now();
}

static void put_uv(GlamoRig *r, uint32_t n, float x, float y)
{
    float uv[2] = { x / W * 4, y / H * 4 };
    memcpy(r->vram + UV + 8 * n, uv, 8);
}

static void put_vertex(uint8_t *p, float x, float y, float z, uint32_t argb)
{
    memcpy(p, &x, 4);
    memcpy(p + 4, &y, 4);
    memcpy(p + 8, &z, 4);
    memcpy(p + 12, &argb, 4);
}

/* writes the vertex buffer; returns the number of vertices */
static uint32_t build(GlamoRig *r, const Case *c)
{
    uint32_t n = 0;
    int l, x, y;

    for (l = 0; l < c->layers; l++) {
        float z = 1.0f - (l + 1) / (float)(c->layers + 1);
        for (y = 0; y < H; y += (c->cell < H ? c->cell : H)) {
            int ch = c->cell < H ? c->cell : H;
            for (x = 0; x < W; x += c->cell) {
                float x0 = x, y0 = y, x1 = x + c->cell, y1 = y + ch;
                uint32_t c0 = 0x80ff0000u + l * 0x1020, c1 = 0x8000ff00u,
                         c2 = 0x800000ffu, c3 = 0x80ffffffu;
                uint8_t *p = r->vram + VB + n * 16;
                if (!c->gouraud) {
                    c1 = c2 = c3 = c0;
                }
                put_vertex(p, x0, y0, z, c0);
                put_vertex(p + 16, x1, y0, z, c1);
                put_vertex(p + 32, x0, y1, z, c2);
                put_vertex(p + 48, x1, y0, z, c1);
                put_vertex(p + 64, x1, y1, z, c3);
                put_vertex(p + 80, x0, y1, z, c2);
                put_uv(r, n, x0, y0);
                put_uv(r, n + 1, x1, y0);
                put_uv(r, n + 2, x0, y1);
                put_uv(r, n + 3, x1, y0);
                put_uv(r, n + 4, x1, y1);
                put_uv(r, n + 5, x0, y1);
                n += 6;
            }
        }
    }
    return n;
}

static void program(GlamoRig *r, const Case *c, uint32_t nv)
{
    rig_enable_3d(r);
    rig_target(r, rig_direct32, FB, W * 2, W, H, c->depth ? ZB : 0);
    if (c->blend) {
        rig_w32(r, A_EGEN0, R_EGEN0_EGenBLEND_MASK);
        rig_w32(r, A_EGBLSET, GLAMO_BLEQ_ADD << 24 | 4 << 4 | 5);
    }
    if (!c->gouraud) {
        rig_w32(r, A_RGXFEN3, GLAMO_SHADE_FLAT_A << 11);
    }
    if (c->texture) {
        int i;
        for (i = 0; i < 64 * 64; i++) {
            uint16_t t = (uint16_t)(i * 2654435761u >> 16);
            memcpy(r->vram + TEX + 2 * i, &t, 2);
        }
        rig_w32(r, A_EGTX0SET, 0x61u << 24 | (GLAMO_TXADDR_WRAP << 3 |
                GLAMO_TXADDR_WRAP) << 16);
        rig_w32(r, A_EGTX0FILT, 1 << 18 | 1 << 15);
        rig_w32(r, A_EGTX0SIZE, 64 << 12 | 64);
        rig_w32(r, A_EGTX0L0BAS, TEX);
        rig_w32(r, A_EGTX0L01PITCH, 128);
        rig_w32(r, A_EGEN0, R_EGEN0_EGenTXMP_MASK | R_EGEN0_EGenTXPP_MASK |
                1 << 12);
    }
    rig_w32(r, A_MGVStreamActive, 7);
    rig_w32(r, GLAMO_MGVSTRM_DESC(2), 8 << 16 | 1 << 8 |
            GLAMO_VTYPE_FLOAT << 4 | GLAMO_VARRAY_TEXA);
    rig_w32(r, GLAMO_MGVSTRM_BAS(2), UV);
    rig_w32(r, A_MGVStrmCtl, 2 << 8);
    rig_w32(r, GLAMO_MGVSTRM_DESC(0), 16 << 16 | 2 << 8 |
            GLAMO_VTYPE_FLOAT << 4 | GLAMO_VARRAY_POSITION);
    rig_w32(r, GLAMO_MGVSTRM_BAS(0), VB);
    rig_w32(r, GLAMO_MGVSTRM_DESC(1), 16 << 16 | 3 << 8 |
            GLAMO_VTYPE_UBYTE << 4 | GLAMO_VARRAY_DIFFUSE);
    rig_w32(r, GLAMO_MGVSTRM_BAS(1), VB + 12);
    rig_w32(r, A_RGPDV, nv);
    rig_w16(r, A_EGPrim1, GLAMO_PRIM_TRIANGLES);
}

static void run_case(const Case *c, int threads, double secs)
{
    GlamoRig r;
    uint32_t nv;
    double t0, t;
    uint64_t frames = 0;

    rig_init(&r, threads);
    nv = build(&r, c);
    program(&r, c, nv);
    t0 = now();
    do {
        if (c->depth) {
            memset(r.vram + ZB, 0xff, W * H * 2);
        }
        rig_w16(&r, A_MGBufCBMFire, GLAMO_CBM_BUFFER);
        rig_w16(&r, A_EGEND, 0);
        rig_run(&r);
        frames++;
        t = now() - t0;
    } while (secs < 0 ? frames < -secs : t < secs);
    printf("%-20s %d thr  %8.1f Mpixels/s  %7.3f Mtriangles/s  %7.1f "
           "submissions/s\n", c->name, threads,
           frames * (double)W * H * c->layers / t / 1e6,
           frames * (double)(nv / 3) / t / 1e6, frames / t);
    bench_row("glamo-3d", c->name, threads,
              frames * (double)W * H * c->layers / t / 1e6, "Mpix/s");
    rig_free(&r);
}

static void baseline(double secs)
{
    uint16_t *a = g_new0(uint16_t, W * H), *b = g_new0(uint16_t, W * H);
    double t0 = now(), t;
    uint64_t n = 0;

    do {
        memset(a, (int)n, W * H * 2);
        n++;
        t = now() - t0;
    } while (t < secs);
    printf("%-20s        %8.1f Mpixels/s  (memset of a %dx%d RGB565 frame)\n",
           "baseline memset", n * (double)W * H / t / 1e6, W, H);
    t0 = now();
    n = 0;
    do {
        memcpy(b, a, W * H * 2);
        a[n % (W * H)] ^= 1;
        n++;
        t = now() - t0;
    } while (t < secs);
    printf("%-20s        %8.1f Mpixels/s  (memcpy)\n", "baseline memcpy",
           n * (double)W * H / t / 1e6);
    g_free(a);
    g_free(b);
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 0.5;
    int only = argc > 3 ? atoi(argv[3]) : 0;
    size_t i;

    /* GPU3D_BENCH_SIMD, GPU3D_BENCH_SPIN_US (bench-env.h) */
    bench_simd_from_env();

    baseline(secs);
    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        if (argc > 2 && strcmp(argv[2], cases[i].name) != 0) {
            continue;
        }
        if (only != 2) {
            run_case(&cases[i], 1, secs);
        }
        if (only != 1) {
            run_case(&cases[i], 2, secs);
        }
    }
    return 0;
}
