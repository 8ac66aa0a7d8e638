/*
 * Benchmark of the R300 shader units on one thread: vertices per second
 * through the PVS, pixels per second through the US (with and without
 * texturing) and texture samples per second, with a memory-bandwidth
 * baseline from the same run.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "common/g3d-core.h"
#include "r300/pvs.h"
#include "r300/tx.h"
#include "r300/us.h"

#define REGS (0x10000 / 4)
#define TEXMEM (4u << 20)

static uint32_t regs[REGS];
static uint32_t vmem[R300_PVS_VECTOR_OCTWORDS][4];
static uint8_t mem[TEXMEM];
static volatile float sink;

static double now(void)
{
    return g_get_monotonic_time() / 1e6;
}

static void report(const char *what, double n, double secs, const char *unit)
{
    printf("%-44s %9.2f %s\n", what, n / secs / 1e6, unit);
}

static void bench_bandwidth(void)
{
    size_t n = 64u << 20;
    uint8_t *a = g_malloc(n), *b = g_malloc(n);
    double t;
    int i;

    memset(a, 1, n);
    memset(b, 2, n);
    t = now();
    for (i = 0; i < 4; i++) {
        memcpy(i & 1 ? a : b, i & 1 ? b : a, n);
    }
    t = now() - t;
    printf("%-44s %9.2f GB/s\n", "baseline: memcpy", 4.0 * n / t / 1e9);
    sink = a[n / 2] + b[n / 3];
    g_free(a);
    g_free(b);
}

/* ---- PVS ------------------------------------------------------------------ */

static uint32_t S(unsigned type, unsigned off, unsigned swz)
{
    return type | off << 5 | swz << 13;
}

#define XYZW (0 | 1 << 3 | 2 << 6 | 3 << 9)
#define ZERO (4 | 4 << 3 | 4 << 6 | 4 << 9)

static void bench_pvs(const char *what, unsigned extra)
{
    R300PVSProgram *p = g_new0(R300PVSProgram, 1);
    float in[R300_PVS_MAX_INPUTS][4] = { { 0 } };
    float out[R300_PVS_MAX_OUTPUTS][4];
    unsigned n = 0, r, i, verts = 400000;
    double t;

    memset(vmem, 0, sizeof(vmem));
    /* Mesa's transform: 4 DP4 rows, then colour through the MOV idiom */
    for (r = 0; r < 4; r++) {
        uint32_t *w = vmem[n++];
        w[0] = 1 | 2 << 8 | 0 << 13 | (1u << r) << 20;
        w[1] = S(1, 0, XYZW);
        w[2] = S(2, r, XYZW);
        w[3] = S(2, r, ZERO);
    }
    /* extra work: MAD chains on temporaries (a lighting-sized body) */
    for (i = 0; i < extra; i++) {
        uint32_t *w = vmem[n++];
        w[0] = 4 | 0 << 8 | (i % 8) << 13 | 0xfu << 20;
        w[1] = S(0, (i + 1) % 8, XYZW);
        w[2] = S(2, 4 + i % 8, XYZW);
        w[3] = S(1, 1, XYZW);
    }
    {
        uint32_t *w = vmem[n++];
        w[0] = 3 | 2 << 8 | 1 << 13 | 0xfu << 20;
        w[1] = S(extra ? 0 : 1, extra ? 0 : 1, XYZW);
        w[2] = S(2, 0, ZERO);
        w[3] = S(2, 0, ZERO);
    }
    for (i = 0; i < 16; i++) {
        float c[4] = { 0.5f + i, 0.25f, -0.125f, 1.0f };
        memcpy(vmem[512 + i], c, 16);
    }
    memset(regs, 0, sizeof(regs));
    regs[0x22D0 / 4] = (n - 1) << 20;
    regs[0x22D4 / 4] = 15 << 16;
    if (!r300_pvs_load(p, regs, (const uint32_t (*)[4])vmem)) {
        g_error("pvs program did not load");
    }
    t = now();
    for (i = 0; i < verts; i++) {
        in[0][0] = i * 0.001f;
        r300_pvs_exec(p, (const float (*)[4])in, out);
    }
    t = now() - t;
    sink = out[0][0];
    {
        char name[96];
        snprintf(name, sizeof(name), "pvs: %s (%u instructions)", what, n);
        report(name, verts, t, "Mvertices/s");
    }
    g_free(p);
}

/* ---- TX and US ------------------------------------------------------------ */

static R300TexUnit units[R300_TX_UNITS];

/* unit 0: 256x256 ARGB8888 (or DXT1) with a full mip chain */
static void tx_setup(G3DMem *m, unsigned fmt, unsigned mip)
{
    unsigned i;

    for (i = 0; i < TEXMEM; i++) {
        mem[i] = (uint8_t)(i * 2654435761u >> 13);
    }
    memset(regs, 0, sizeof(regs));
    regs[0x4104 / 4] = 1;
    regs[0x4400 / 4] = 2 << 9 | 2 << 11 | mip << 13;
    regs[0x4480 / 4] = 255 | 255 << 11 | 8u << 26;
    regs[0x44C0 / 4] = fmt | 2 << 12 | 1 << 15 | 0 << 18 | 3 << 9;
    regs[0x4540 / 4] = 0;
    if (!r300_tx_load(&units[0], regs, 0, m)) {
        g_error("texture did not load");
    }
}

static void bench_tx(G3DMem *m, const char *what, unsigned fmt, unsigned mip,
                     float scale)
{
    float coord[4][4], res[4][4];
    unsigned i, quads = 1000000;
    double t;
    int px;

    tx_setup(m, fmt, mip);
    t = now();
    for (i = 0; i < quads; i++) {
        float s = (i % 1000) * 0.001f * scale, tt = (i / 1000) * 0.001f;
        for (px = 0; px < 4; px++) {
            coord[px][0] = s + (px & 1) * scale / 256;
            coord[px][1] = tt + (px >> 1) * scale / 256;
            coord[px][2] = 0;
            coord[px][3] = 1;
        }
        r300_tx_sample_quad(&units[0], 1, (const float (*)[4])coord, res);
    }
    t = now() - t;
    sink = res[0][0];
    report(what, 4.0 * quads, t, "Msamples/s");
}

/* US: ALU instructions i = t0 * t1 + t(i) chained, out = result */
static void bench_us(G3DMem *m, const char *what, unsigned nalu, bool tex)
{
    R300USProgram *p = g_new0(R300USProgram, 1);
    R300USQuad q;
    unsigned i, quads = 500000;
    double t;
    int px;

    if (tex) {
        tx_setup(m, R300_TX_FMT_8_8_8_8, 0);
    } else {
        memset(regs, 0, sizeof(regs));
    }
    regs[0x4600 / 4] = tex ? 1 << 3 : 0;
    regs[0x4604 / 4] = 7;
    regs[0x4608 / 4] = (nalu - 1) << 6;
    regs[0x461C / 4] = (nalu - 1) << 6 | 1 << 22;
    regs[0x4620 / 4] = 0 | 1 << 6 | 0 << 11 | 1 << 15;
    for (i = 0; i < nalu; i++) {
        bool last = i == nalu - 1;
        regs[(0x46C0 + 4 * i) / 4] = 1 | 2 << 6 | 3 << 12 | 3 << 18 |
                                     7 << 23 | (last ? 7u << 26 : 0);
        regs[(0x47C0 + 4 * i) / 4] = 1 | 2 << 6 | 3 << 12 | 3 << 18 |
                                     1 << 23 | (last ? 1u << 24 : 0);
        regs[(0x48C0 + 4 * i) / 4] = 0 | 4 << 7 | 8 << 14 | 1u << 30;
        regs[(0x49C0 + 4 * i) / 4] = 9 | 10 << 7 | 11 << 14 | 1u << 30;
    }
    if (!r300_us_load(p, regs)) {
        g_error("us program did not load");
    }
    memset(&q, 0, sizeof(q));
    q.live = 0xf;
    t = now();
    for (i = 0; i < quads; i++) {
        for (px = 0; px < 4; px++) {
            q.temp[px][0][0] = (i % 997) / 997.0f + px / 512.0f;
            q.temp[px][0][1] = (i % 991) / 991.0f;
            q.temp[px][2][0] = 0.5f;
        }
        r300_us_exec(p, &q, r300_tx_sampler, units);
    }
    t = now() - t;
    sink = q.out[0][0][0];
    {
        char name[96];
        snprintf(name, sizeof(name), "us: %s (%u ALU%s)", what, nalu,
                 tex ? " + 1 TEX" : "");
        report(name, 4.0 * quads, t, "Mpixels/s");
    }
    g_free(p);
}

int main(void)
{
    G3DFlatMem flat;
    G3DMem m;

    g3d_flat_mem_init(&m, &flat, mem, 0, TEXMEM);
    bench_bandwidth();
    bench_pvs("transform + colour", 0);
    bench_pvs("transform + 24 MAD", 24);
    bench_tx(&m, "tx: bilinear ARGB8888, magnified", R300_TX_FMT_8_8_8_8, 0,
             0.5f);
    bench_tx(&m, "tx: trilinear ARGB8888, minified", R300_TX_FMT_8_8_8_8, 2,
             3.0f);
    bench_tx(&m, "tx: bilinear DXT1", R300_TX_FMT_DXT1, 0, 1.0f);
    bench_us(&m, "flat", 1, false);
    bench_us(&m, "long", 16, false);
    bench_us(&m, "textured", 1, true);
    r300_tx_release(&units[0]);
    return 0;
}
