/*
 * Fuzz harness for the R300 shader units: random register files and PVS
 * vector memory through r300_pvs_load/exec, r300_us_load/exec and
 * r300_tx_load/sample_quad. Nothing may crash, hang or read out of bounds.
 *
 * Input: one byte of flags, then 7-byte records {kind, index (16 bits),
 * value (32 bits)} that write a PVS, US or TX register or a word of vector
 * memory. Seeds are well-formed programs (a pass-through and a looping
 * vertex program, a textured fragment program, mip-mapped, DXT and cube
 * textures) for the driver to damage.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "common/g3d-core.h"
#include "r300/pvs.h"
#include "r300/tx.h"
#include "r300/us.h"
#include "r300-nomap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t gpu3d_fuzz_seed(unsigned index, uint8_t *buf, size_t max);

#define REGS (0x10000 / 4)
#define TEXMEM (64u << 10)

enum { K_PVS, K_US, K_TX, K_VMEM };

typedef struct Fuzz {
    uint32_t regs[REGS];
    uint32_t vmem[R300_PVS_VECTOR_OCTWORDS][4];
    uint8_t mem[TEXMEM];
    R300PVSProgram pvs;
    R300USProgram us;
    R300USQuad quad;
    R300TexUnit units[R300_TX_UNITS];
    float in[R300_PVS_MAX_INPUTS][4], out[R300_PVS_MAX_OUTPUTS][4];
} Fuzz;

static uint32_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (uint32_t)*s;
}

/* floats that matter: ordinary, zero, negative, huge, inf, NaN */
static float rng_float(uint64_t *s)
{
    static const float special[] = { 0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1e30f,
                                     -1e30f, INFINITY, -INFINITY, NAN };
    uint32_t r = rng_next(s);

    if (r % 4 == 0) {
        return special[(r >> 8) % G_N_ELEMENTS(special)];
    }
    return ((int32_t)r >> 8) / 65536.0f;
}

static void apply(Fuzz *f, unsigned kind, unsigned idx, uint32_t v)
{
    switch (kind % 4) {
    case K_PVS:     /* VAP_PVS_* and flow control: 0x2200..0x22FC */
        f->regs[(0x2200 / 4) + idx % 64] = v;
        break;
    case K_US:      /* 0x4600..0x4DFC */
        f->regs[(0x4600 / 4) + idx % 512] = v;
        break;
    case K_TX:      /* 0x4100..0x45FC */
        f->regs[(0x4100 / 4) + idx % 320] = v;
        break;
    default:
        f->vmem[(idx / 4) % R300_PVS_VECTOR_OCTWORDS][idx % 4] = v;
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Fuzz *f;
    G3DFlatMem flat;
    G3DMem mem, nomap;
    R300NoMap nm;
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    unsigned flags = size ? data[0] : 0;
    size_t i;
    int u, v, k;

    if (!f) {
        f = g_new0(Fuzz, 1);
    }
    memset(f->regs, 0, sizeof(f->regs));
    memset(f->vmem, 0, sizeof(f->vmem));
    for (i = 0; i < size; i++) {
        seed = (seed ^ data[i]) * 0x100000001b3ull;
    }
    seed |= 1;
    for (i = 0; i < TEXMEM; i += 4) {
        uint32_t r = rng_next(&seed);
        memcpy(f->mem + i, &r, 4);
    }
    for (i = 1; i + 7 <= size; i += 7) {
        apply(f, data[i], data[i + 1] | data[i + 2] << 8,
              data[i + 3] | data[i + 4] << 8 | data[i + 5] << 16 |
              (uint32_t)data[i + 6] << 24);
    }
    g3d_flat_mem_init(&mem, &flat, f->mem, 0, TEXMEM);
    nm = (R300NoMap){ f->mem, TEXMEM };
    nomap = r300_nomap_mem(&nm);

    /* PVS: a couple of vertices */
    if (r300_pvs_load(&f->pvs, f->regs, (const uint32_t (*)[4])f->vmem)) {
        for (v = 0; v < 2; v++) {
            for (u = 0; u < R300_PVS_MAX_INPUTS; u++) {
                for (k = 0; k < 4; k++) {
                    f->in[u][k] = rng_float(&seed);
                }
            }
            r300_pvs_exec(&f->pvs, (const float (*)[4])f->in, f->out);
        }
    }

    /* TX: every unit, through a mappable or a copy-only memory */
    for (u = 0; u < R300_TX_UNITS; u++) {
        r300_tx_load(&f->units[u], f->regs, u, (flags & 1) ? &nomap : &mem);
    }

    /* US: a quad, sampling the units */
    if (r300_us_load(&f->us, f->regs)) {
        for (u = 0; u < 4; u++) {
            for (v = 0; v < R300_US_NUM_TEMPS; v++) {
                for (k = 0; k < 4; k++) {
                    f->quad.temp[u][v][k] = rng_float(&seed);
                }
            }
        }
        f->quad.live = flags >> 4;
        r300_us_exec(&f->us, &f->quad, r300_tx_sampler, f->units);
    }

    /* and the units directly, with every instruction kind */
    for (u = 0; u < R300_TX_UNITS; u++) {
        float coord[4][4], res[4][4];
        for (v = 0; v < 4; v++) {
            for (k = 0; k < 4; k++) {
                coord[v][k] = rng_float(&seed);
            }
        }
        r300_tx_sample_quad(&f->units[u], 1 + u % 4, (const float (*)[4])coord,
                            res);
    }
    for (u = 0; u < R300_TX_UNITS; u++) {
        r300_tx_release(&f->units[u]);
    }
    return 0;
}

/* ---- seeds ---------------------------------------------------------------- */

typedef struct Seed {
    uint8_t *buf;
    size_t n, max;
} Seed;

static void rec(Seed *s, unsigned kind, unsigned idx, uint32_t v)
{
    if (s->n + 7 > s->max) {
        return;
    }
    s->buf[s->n++] = kind;
    s->buf[s->n++] = idx;
    s->buf[s->n++] = idx >> 8;
    s->buf[s->n++] = v;
    s->buf[s->n++] = v >> 8;
    s->buf[s->n++] = v >> 16;
    s->buf[s->n++] = v >> 24;
}

static void reg(Seed *s, uint32_t off, uint32_t v)
{
    if (off >= 0x4600) {
        rec(s, K_US, (off - 0x4600) / 4, v);
    } else if (off >= 0x4100) {
        rec(s, K_TX, (off - 0x4100) / 4, v);
    } else {
        rec(s, K_PVS, (off - 0x2200) / 4, v);
    }
}

static void inst(Seed *s, unsigned pc, uint32_t d, uint32_t a, uint32_t b,
                 uint32_t c)
{
    rec(s, K_VMEM, 4 * pc, d);
    rec(s, K_VMEM, 4 * pc + 1, a);
    rec(s, K_VMEM, 4 * pc + 2, b);
    rec(s, K_VMEM, 4 * pc + 3, c);
}

size_t gpu3d_fuzz_seed(unsigned index, uint8_t *buf, size_t max)
{
    Seed s = { buf, 0, max };
    unsigned fmt = index % 30, k;

    if (index % 4 == 3 || max < 512) {
        return 0;       /* plain random input too */
    }
    buf[s.n++] = index & 0xf1;
    /* PVS: Mesa's pass-through, then a DP4 in a loop over aL */
    inst(&s, 0, 0x00F00203, 0x00D10001, 0x01248002, 0x01248002);
    inst(&s, 1, 0x00F02203, 0x00D10021, 0x01248002, 0x01248002);
    inst(&s, 2, 0x00F04201, 0x00D10001, 0x80D10002, 0x01248002);
    inst(&s, 3, 0x00106041, 0x00D10002, 0x01248002, 0x01248002);
    rec(&s, K_VMEM, 4 * 512, 0x3f800000);
    reg(&s, 0x22D0, 3 << 20 | 2 << 10);
    reg(&s, 0x22D4, 0x3 << 16);
    reg(&s, 0x22DC, 2);
    reg(&s, 0x2230, 1 | 3 << 8 | 2 << 16 | 2 << 24);
    reg(&s, 0x2290, 0 | 1 << 8);
    /* US: TEX t1 = unit (index % 3) at t0, then out = t1 * t0 */
    reg(&s, 0x4600, 1 << 3);
    reg(&s, 0x4604, 3);
    reg(&s, 0x4620, 0 | 1 << 6 | (index % 3) << 11 | (1 + index % 4) << 15);
    reg(&s, 0x461C, 1 << 22);
    reg(&s, 0x46C0, 1 | 0 << 6 | 7u << 26);
    reg(&s, 0x47C0, 1 | 0 << 6 | 1u << 24 | 1u << 27);
    reg(&s, 0x48C0, 0 | 4 << 7 | 20 << 14);
    reg(&s, 0x49C0, 9 | 10 << 7 | 16 << 14);
    reg(&s, 0x4C00, 0x3f0000);
    /* TX: unit 0 mip-mapped 16x16 of a varying format, unit 1 DXT1, unit 2
     * a cube; all linear filters and varying wrap modes */
    reg(&s, 0x4104, 7);
    for (k = 0; k < 3; k++) {
        reg(&s, 0x4400 + 4 * k, (index % 8) * 0x49 | 2 << 9 | 2 << 11 |
                                (1 + index % 2) << 13);
        reg(&s, 0x4540 + 4 * k, 0x1000 * (k + 1));
        reg(&s, 0x45C0 + 4 * k, 0x80ff00ff);
    }
    reg(&s, 0x4480, 15 | 15 << 11 | 4u << 26);
    reg(&s, 0x44C0, fmt | 2 << 12 | 1 << 15 | 0 << 18 | 3 << 9);
    reg(&s, 0x4484, 7 | 7 << 11);
    reg(&s, 0x44C4, R300_TX_FMT_DXT1 | 2 << 12 | 1 << 15 | 3 << 9);
    reg(&s, 0x4488, 3 | 3 << 11 | 2u << 26);
    reg(&s, 0x44C8, R300_TX_FMT_8_8_8_8 | 2u << 25 | 2 << 12 | 1 << 15);
    reg(&s, 0x4440, (index * 37) % 1024 << 3);
    return s.n;
}
