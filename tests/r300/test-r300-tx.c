/*
 * Unit tests of the R300 texture units.
 *
 * Register words are built with the field positions of the R3xx 3D reference
 * §3.8. Expected texel values are worked out by hand from the format's
 * field layout (R3xx 3D ref. §1.8 TX table: component 0 is the least
 * significant field) and written as fractions; filters and wrap modes follow
 * the OpenGL 2.1 texturing definitions (§3.8.7-3.8.8: texel selection,
 * the REPEAT, MIRRORED_REPEAT, CLAMP and MIRROR_CLAMP families, bilinear
 * weights), cube faces GL 2.1 §3.8.6 table 3.19, S3TC block decoding the
 * EXT_texture_compression_s3tc specification, YUV the ITU-R BT.601 colour
 * bars (Y, Cb, Cr = 81, 90, 240 is red), sRGB IEC 61966-2-1. Mip chain
 * offsets are computed here from Mesa r300_texture_desc.c rules.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "common/g3d-core.h"
#include "r300/tx.h"
#include "r300/us.h"
#include "r300-nomap.h"

#define REGS (0x10000 / 4)
#define MEM (1u << 20)
#define TEXADDR 0x1000u

/* ---- register words, R3xx 3D ref. §1.8 TX -------------------------------- */

enum { WRAP, MIRROR, CLAMP_LAST, MIRROR_ONCE_LAST, CLAMP_HALF, MIRROR_HALF,
       CLAMP_BORDER, MIRROR_BORDER };
enum { POINT = 1, LINEAR = 2 };

static uint32_t F0(unsigned cs, unsigned ct, unsigned cr, unsigned mag,
                   unsigned min, unsigned mip, unsigned vol, unsigned maxmip)
{
    return cs | ct << 3 | cr << 6 | mag << 9 | min << 11 | mip << 13 |
           vol << 15 | maxmip << 17;
}

#define PP F0(0, 0, 0, POINT, POINT, 0, 0, 0)

static uint32_t FMT0(unsigned w, unsigned h, unsigned log2d, unsigned levels)
{
    return (w - 1) | (h - 1) << 11 | log2d << 22 | (levels - 1) << 26;
}

/* sel: R G B A sources (0-3 component, 4 zero, 5 one) */
static uint32_t FMT1(unsigned fmt, unsigned sr, unsigned sg, unsigned sb,
                     unsigned sa)
{
    return fmt | sa << 9 | sr << 12 | sg << 15 | sb << 18;
}

#define IDENT(fmt) FMT1(fmt, 0, 1, 2, 3)
#define ARGB(fmt) FMT1(fmt, 2, 1, 0, 3)     /* B in component 0 */
#define GAMMA (1u << 21)
#define YUV_CLAMP (1u << 22)
#define SWAP_YUV (1u << 24)
#define COORD_3D (1u << 25)
#define COORD_CUBE (2u << 25)

enum { F8, F16, F4_4, F8_8, F16_16, F3_3_2, F5_6_5, F6_5_5, F11_11_10,
       F10_11_11, F4_4_4_4, F1_5_5_5, F8888, F2_10_10_10, F16x4, DXT1, DXT3,
       DXT5, Y8, AVYU, VYUY, YVYU, F16_MPEG, F16_16_MPEG, H16, H16x2, H16x4,
       F32, F32x2, F32x4, W24 };

/* ---- harness ------------------------------------------------------------ */

typedef struct Ctx {
    uint8_t mem[MEM];
    G3DFlatMem flat;
    G3DMem m;
    uint32_t regs[REGS];
    R300TexUnit u[R300_TX_UNITS];
} Ctx;

static Ctx *ctx_new(void)
{
    Ctx *c = g_new0(Ctx, 1);

    g3d_flat_mem_init(&c->m, &c->flat, c->mem, 0, MEM);
    return c;
}

static void ctx_free(Ctx *c)
{
    int i;
    for (i = 0; i < R300_TX_UNITS; i++) {
        r300_tx_release(&c->u[i]);
    }
    g_free(c);
}

/* unit 0 enabled with these words; offset TEXADDR unless given */
static bool setup(Ctx *c, uint32_t f0, uint32_t f1, uint32_t fmt0,
                  uint32_t fmt1, uint32_t border)
{
    c->regs[0x4104 / 4] = 1;
    c->regs[0x4400 / 4] = f0;
    c->regs[0x4440 / 4] = f1;
    c->regs[0x4480 / 4] = fmt0;
    c->regs[0x44C0 / 4] = fmt1;
    c->regs[0x4540 / 4] = c->regs[0x4540 / 4] ? c->regs[0x4540 / 4] : TEXADDR;
    c->regs[0x45C0 / 4] = border;
    return r300_tx_load(&c->u[0], c->regs, 0, &c->m);
}

/* one point, replicated over the quad (no derivatives: magnification) */
static void sample1(Ctx *c, int inst, float s, float t, float r, float q,
                    float out[4])
{
    float coord[4][4], res[4][4];
    int px;

    for (px = 0; px < 4; px++) {
        coord[px][0] = s;
        coord[px][1] = t;
        coord[px][2] = r;
        coord[px][3] = q;
    }
    r300_tx_sample_quad(&c->u[0], inst, (const float (*)[4])coord, res);
    for (px = 1; px < 4; px++) {
        g_assert_cmpmem(res[px], 16, res[0], 16);
    }
    memcpy(out, res[0], 16);
}

static void near4(const float *v, double r, double g, double b, double a,
                  double tol)
{
    g_assert_cmpfloat_with_epsilon(v[0], r, tol);
    g_assert_cmpfloat_with_epsilon(v[1], g, tol);
    g_assert_cmpfloat_with_epsilon(v[2], b, tol);
    g_assert_cmpfloat_with_epsilon(v[3], a, tol);
}

static void put(Ctx *c, uint32_t addr, const void *data, size_t n)
{
    memcpy(c->mem + addr, data, n);
}

static void put32(Ctx *c, uint32_t addr, uint32_t v)
{
    uint8_t b[4] = { v, v >> 8, v >> 16, v >> 24 };
    put(c, addr, b, 4);
}

static unsigned errs(void)
{
    return g3d_log_count(G3D_LOG_GUEST_ERROR);
}

static unsigned unimps(void)
{
    return g3d_log_count(G3D_LOG_UNIMP);
}

/* ---- formats ------------------------------------------------------------- */

typedef struct FmtCase {
    unsigned fmt;
    uint8_t bytes[16];
    unsigned n;
    double c[4];        /* expected components 0..3 */
} FmtCase;

static const FmtCase fmt_cases[] = {
    { F8, { 0xC0 }, 1, { 192 / 255.0 } },
    { F16, { 0x00, 0x80 }, 2, { 32768 / 65535.0 } },
    { F4_4, { 0x5A }, 1, { 10 / 15.0, 5 / 15.0 } },
    { F8_8, { 0x11, 0xEE }, 2, { 17 / 255.0, 238 / 255.0 } },
    { F16_16, { 0x34, 0x12, 0xFF, 0xFF }, 4, { 0x1234 / 65535.0, 1 } },
    /* 0xAB = 101 010 11: c0 = 11, c1 = 010, c2 = 101 */
    { F3_3_2, { 0xAB }, 1, { 1, 2 / 7.0, 5 / 7.0 } },
    /* 0xA3C5 = 10100 011110 00101 */
    { F5_6_5, { 0xC5, 0xA3 }, 2, { 5 / 31.0, 30 / 63.0, 20 / 31.0 } },
    /* 0xA3C5 = 101000 11110 00101 */
    { F6_5_5, { 0xC5, 0xA3 }, 2, { 5 / 31.0, 30 / 31.0, 40 / 63.0 } },
    /* 0xFFEAA955: c0 (10 bits) 0x155, c1 (11) 0x2AA, c2 (11) 0x7FF */
    { F11_11_10, { 0x55, 0xA9, 0xEA, 0xFF }, 4,
      { 341 / 1023.0, 682 / 2047.0, 1 } },
    /* 0xFFC00C00: c0 (11) 0x400, c1 (11) 1, c2 (10) 0x3FF */
    { F10_11_11, { 0x00, 0x0C, 0xC0, 0xFF }, 4,
      { 1024 / 2047.0, 1 / 2047.0, 1 } },
    { F4_4_4_4, { 0x34, 0x12 }, 2, { 4 / 15.0, 3 / 15.0, 2 / 15.0, 1 / 15.0 } },
    /* 1 00011 00111 01001 */
    { F1_5_5_5, { 0xE9, 0x8C }, 2, { 9 / 31.0, 7 / 31.0, 3 / 31.0, 1 } },
    { F8888, { 0x10, 0x40, 0xFF, 0x80 }, 4,
      { 16 / 255.0, 64 / 255.0, 1, 128 / 255.0 } },
    /* 10 0000000001 1000000000 1111111111 = 0x801803FF */
    { F2_10_10_10, { 0xFF, 0x03, 0x18, 0x80 }, 4,
      { 1, 512 / 1023.0, 1 / 1023.0, 2 / 3.0 } },
    { F16x4, { 0, 0, 0xFF, 0xFF, 0, 0x80, 0, 0x40 }, 8,
      { 0, 1, 32768 / 65535.0, 16384 / 65535.0 } },
    /* the MPEG formats read as 16 and 16_16 (decision, tx.c) */
    { F16_MPEG, { 0xFF, 0x7F }, 2, { 32767 / 65535.0 } },
    { F16_16_MPEG, { 0, 0, 0xFF, 0xFF }, 4, { 0, 1 } },
    /* IEEE halves: 1.0, -2.0, 0.5, 65504 */
    { H16, { 0x00, 0x3C }, 2, { 1 } },
    { H16x2, { 0x00, 0xC0, 0x00, 0x38 }, 4, { -2, 0.5 } },
    { H16x4, { 0x00, 0x3C, 0x00, 0xC0, 0x00, 0x38, 0xFF, 0x7B }, 8,
      { 1, -2, 0.5, 65504 } },
    /* IEEE singles: 3.25 (0x40500000), -0.125 (0xBE000000) */
    { F32, { 0, 0, 0x50, 0x40 }, 4, { 3.25 } },
    { F32x2, { 0, 0, 0x50, 0x40, 0, 0, 0, 0xBE }, 8, { 3.25, -0.125 } },
    { F32x4, { 0, 0, 0x50, 0x40, 0, 0, 0, 0xBE, 0, 0, 0x80, 0x3F, 0, 0, 0, 0 },
      16, { 3.25, -0.125, 1, 0 } },
};

static void test_formats(void)
{
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(fmt_cases); i++) {
        const FmtCase *f = &fmt_cases[i];
        Ctx *c = ctx_new();
        float v[4];

        put(c, TEXADDR, f->bytes, f->n);
        g_assert_true(setup(c, F0(0, 0, 0, POINT, POINT, 0, 0, 0), 0,
                            FMT0(1, 1, 0, 1), IDENT(f->fmt), 0));
        sample1(c, 1, 0.5f, 0.5f, 0, 1, v);
        near4(v, f->c[0], f->c[1], f->c[2], f->c[3], 1e-6);
        ctx_free(c);
    }
}

static void test_signed_swizzle_gamma(void)
{
    Ctx *c = ctx_new();
    float v[4];
    double lin = pow((128 / 255.0 + 0.055) / 1.055, 2.4);

    /* SIGNED_COMP: 0x7F 1.0, 0x81 -1.0, 0x80 -1 (clamped), 0 */
    put32(c, TEXADDR, 0x00807F81);
    g_assert_true(setup(c, F0(0, 0, 0, POINT, POINT, 0, 0, 0), 0,
                        FMT0(1, 1, 0, 1), IDENT(F8888) | 0xf << 5, 0));
    sample1(c, 1, 0.5f, 0.5f, 0, 1, v);
    near4(v, -1, 1, -1, 0, 1e-6);
    /* only component 1 signed */
    g_assert_true(setup(c, F0(0, 0, 0, POINT, POINT, 0, 0, 0), 0,
                        FMT0(1, 1, 0, 1), IDENT(F8888) | 0x2 << 5, 0));
    sample1(c, 1, 0.5f, 0.5f, 0, 1, v);
    near4(v, 0x81 / 255.0, 1, 0x80 / 255.0, 0, 1e-6);

    /* swizzle: R = c3, G = c2, B = 0, A = 1 */
    put32(c, TEXADDR, 0x80FF4010);
    g_assert_true(setup(c, F0(0, 0, 0, POINT, POINT, 0, 0, 0), 0,
                        FMT0(1, 1, 0, 1), FMT1(F8888, 3, 2, 4, 5), 0));
    sample1(c, 1, 0.5f, 0.5f, 0, 1, v);
    near4(v, 128 / 255.0, 1, 0, 1, 1e-6);

    /* GAMMA: sRGB -> linear on R, G, B; alpha untouched */
    put32(c, TEXADDR, 0x80808080);
    g_assert_true(setup(c, F0(0, 0, 0, POINT, POINT, 0, 0, 0), 0,
                        FMT0(1, 1, 0, 1), ARGB(F8888) | GAMMA, 0));
    sample1(c, 1, 0.5f, 0.5f, 0, 1, v);
    near4(v, lin, lin, lin, 128 / 255.0, 1e-6);
    /* ... but not on 16-bit components */
    put32(c, TEXADDR, 0x80008000);
    g_assert_true(setup(c, F0(0, 0, 0, POINT, POINT, 0, 0, 0), 0,
                        FMT0(1, 1, 0, 1), IDENT(F16_16) | GAMMA, 0));
    sample1(c, 1, 0.5f, 0.5f, 0, 1, v);
    near4(v, 32768 / 65535.0, 32768 / 65535.0, 0, 0, 1e-6);
    ctx_free(c);
}

/* one 4x4 block, texel i at (i % 4, i / 4), with the swizzle Mesa
 * programs for DXT on R300 (r300_texture.c: red from X, no dxtc_swizzle
 * below R420), so a failure here is a decode in 8_8_8_8's B, G, R order */
static void dxt_sample(Ctx *c, unsigned fmt, const uint8_t *block,
                       unsigned n, unsigned i, float v[4])
{
    put(c, TEXADDR, block, n);
    g_assert_true(setup(c, F0(0, 0, 0, POINT, POINT, 0, 0, 0), 0,
                        FMT0(4, 4, 0, 1), IDENT(fmt), 0));
    sample1(c, 1, (i % 4 + 0.5f) / 4, (i / 4 + 0.5f) / 4, 0, 1, v);
}

static void test_dxt(void)
{
    Ctx *c = ctx_new();
    const double tol = 1.01 / 255;
    /* c0 red 0xF800 > c1 blue 0x001F: 4 colours; texels 0-3 pick 0,1,2,3 */
    const uint8_t b4[8] = { 0x00, 0xF8, 0x1F, 0x00, 0xE4, 0, 0, 0 };
    /* c0 blue < c1 red: 3 colours + transparent black */
    const uint8_t b3[8] = { 0x1F, 0x00, 0x00, 0xF8, 0xE4, 0, 0, 0 };
    uint8_t b16[16];
    float v[4];

    dxt_sample(c, DXT1, b4, 8, 0, v);
    near4(v, 1, 0, 0, 1, tol);
    dxt_sample(c, DXT1, b4, 8, 1, v);
    near4(v, 0, 0, 1, 1, tol);
    dxt_sample(c, DXT1, b4, 8, 2, v);           /* 2/3 c0 + 1/3 c1 */
    near4(v, 2 / 3.0, 0, 1 / 3.0, 1, tol);
    dxt_sample(c, DXT1, b4, 8, 3, v);           /* 1/3 c0 + 2/3 c1 */
    near4(v, 1 / 3.0, 0, 2 / 3.0, 1, tol);
    dxt_sample(c, DXT1, b4, 8, 5, v);           /* index 0 */
    near4(v, 1, 0, 0, 1, tol);
    dxt_sample(c, DXT1, b3, 8, 2, v);           /* 1/2 c0 + 1/2 c1 */
    near4(v, 0.5, 0, 0.5, 1, tol);
    dxt_sample(c, DXT1, b3, 8, 3, v);
    near4(v, 0, 0, 0, 0, tol);

    /* DXT3: explicit 4-bit alpha (texel 0 0xF, texel 1 0x8), colour b3 */
    memset(b16, 0, 16);
    b16[0] = 0x8F;
    memcpy(b16 + 8, b3, 8);
    dxt_sample(c, DXT3, b16, 16, 0, v);
    near4(v, 0, 0, 1, 1, tol);
    dxt_sample(c, DXT3, b16, 16, 1, v);
    near4(v, 1, 0, 0, 0x88 / 255.0, tol);
    dxt_sample(c, DXT3, b16, 16, 3, v);         /* DXT3 colour: 4 colours */
    near4(v, 2 / 3.0, 0, 1 / 3.0, 0, tol);

    /* DXT5: a0 200 > a1 100; texel selects 0, 1, 2, 7 */
    memset(b16, 0, 16);
    b16[0] = 200;
    b16[1] = 100;
    b16[2] = 0 | 1 << 3 | 2 << 6;               /* bits 0-7 */
    b16[3] = 7 << 1;                            /* texel 3 at bits 9-11 */
    memcpy(b16 + 8, b4, 8);
    dxt_sample(c, DXT5, b16, 16, 0, v);
    g_assert_cmpfloat_with_epsilon(v[3], 200 / 255.0, tol);
    dxt_sample(c, DXT5, b16, 16, 1, v);
    g_assert_cmpfloat_with_epsilon(v[3], 100 / 255.0, tol);
    dxt_sample(c, DXT5, b16, 16, 2, v);
    g_assert_cmpfloat_with_epsilon(v[3], (6 * 200 + 100) / 7.0 / 255, tol);
    dxt_sample(c, DXT5, b16, 16, 3, v);
    g_assert_cmpfloat_with_epsilon(v[3], (200 + 6 * 100) / 7.0 / 255, tol);
    /* a0 100 <= a1 200: 6 values, 6 -> 0, 7 -> 255 */
    b16[0] = 100;
    b16[1] = 200;
    b16[2] = 6 | 7 << 3 | 2 << 6;
    b16[3] = 0;
    dxt_sample(c, DXT5, b16, 16, 0, v);
    g_assert_cmpfloat_with_epsilon(v[3], 0, tol);
    dxt_sample(c, DXT5, b16, 16, 1, v);
    g_assert_cmpfloat_with_epsilon(v[3], 1, tol);
    dxt_sample(c, DXT5, b16, 16, 2, v);
    g_assert_cmpfloat_with_epsilon(v[3], (4 * 100 + 200) / 5.0 / 255, tol);
    ctx_free(c);
}

static void test_yuv(void)
{
    Ctx *c = ctx_new();
    float v[4];
    const double tol = 0.01;

    /* AVYU444, memory bytes U Y V A; unconverted (R,G,B,A) = (V,Y,U,A) */
    put32(c, TEXADDR, 0x40F0515A);      /* A 0x40 V 240 Y 81 U 90 */
    g_assert_true(setup(c, F0(0, 0, 0, POINT, POINT, 0, 0, 0), 0,
                        FMT0(1, 1, 0, 1), FMT1(AVYU, 5, 5, 5, 5), 0));
    sample1(c, 1, 0.5f, 0.5f, 0, 1, v);     /* the swizzle is ignored */
    near4(v, 240 / 255.0, 81 / 255.0, 90 / 255.0, 0x40 / 255.0, 1e-6);
    /* BT.601: (81, 90, 240) is red */
    g_assert_true(setup(c, F0(0, 0, 0, POINT, POINT, 0, 0, 0), 0,
                        FMT0(1, 1, 0, 1), IDENT(AVYU) | YUV_CLAMP, 0));
    sample1(c, 1, 0.5f, 0.5f, 0, 1, v);
    near4(v, 1, 0, 0, 0x40 / 255.0, tol);
    /* SWAP_YUV flips the top bit of U and V: 0x00 becomes neutral 0x80 */
    put32(c, TEXADDR, 0xFF00EB00);
    g_assert_true(setup(c, F0(0, 0, 0, POINT, POINT, 0, 0, 0), 0,
                        FMT0(1, 1, 0, 1), IDENT(AVYU) | YUV_CLAMP | SWAP_YUV,
                        0));
    sample1(c, 1, 0.5f, 0.5f, 0, 1, v);
    near4(v, 1, 1, 1, 1, tol);                  /* Y 235 = white */

    /* VYUY422: bytes Y0 U Y1 V; texel 0 white, texel 1 black */
    put32(c, TEXADDR, 0x801080EB);              /* V80 Y1 10 U80 Y0 EB */
    g_assert_true(setup(c, F0(0, 0, 0, POINT, POINT, 0, 0, 0), 0,
                        FMT0(2, 1, 0, 1), IDENT(VYUY) | YUV_CLAMP, 0));
    sample1(c, 1, 0.25f, 0.5f, 0, 1, v);
    near4(v, 1, 1, 1, 1, tol);
    sample1(c, 1, 0.75f, 0.5f, 0, 1, v);
    near4(v, 0, 0, 0, 1, tol);
    /* YVYU422: bytes U Y0 V Y1 */
    put32(c, TEXADDR, 0x10F0515A);              /* Y1 16, V 240, Y0 81, U 90 */
    g_assert_true(setup(c, F0(0, 0, 0, POINT, POINT, 0, 0, 0), 0,
                        FMT0(2, 1, 0, 1), IDENT(YVYU), 0));
    sample1(c, 1, 0.25f, 0.5f, 0, 1, v);
    near4(v, 240 / 255.0, 81 / 255.0, 90 / 255.0, 1, 1e-6);
    sample1(c, 1, 0.75f, 0.5f, 0, 1, v);
    near4(v, 240 / 255.0, 16 / 255.0, 90 / 255.0, 1, 1e-6);
    /* Y8 */
    put32(c, TEXADDR, 0x80);
    g_assert_true(setup(c, F0(0, 0, 0, POINT, POINT, 0, 0, 0), 0,
                        FMT0(1, 1, 0, 1), IDENT(Y8), 0));
    sample1(c, 1, 0.5f, 0.5f, 0, 1, v);
    near4(v, 128 / 255.0, 128 / 255.0, 128 / 255.0, 1, 1e-6);
    ctx_free(c);
}

/* ---- wrap modes, filters ---------------------------------------------------- */

static void test_wrap_modes(void)
{
    /* 4x1 texture 10 20 30 40, border 0xEE; point samples at these s */
    static const float s[6] = { -0.125f, 1.125f, 1.375f, -1.125f, 0.375f,
                                -0.375f };
    /* texel index per mode (OpenGL 2.1 §3.8.8), 9 = border */
    static const int e[8][6] = {
        [WRAP] = { 3, 0, 1, 3, 1, 2 },
        [MIRROR] = { 0, 3, 2, 3, 1, 1 },
        [CLAMP_LAST] = { 0, 3, 3, 0, 1, 0 },
        [MIRROR_ONCE_LAST] = { 0, 3, 3, 3, 1, 1 },
        [CLAMP_HALF] = { 0, 3, 3, 0, 1, 0 },
        [MIRROR_HALF] = { 0, 3, 3, 3, 1, 1 },
        [CLAMP_BORDER] = { 9, 9, 9, 9, 1, 9 },
        [MIRROR_BORDER] = { 0, 9, 9, 9, 1, 1 },
    };
    static const uint8_t tex[4] = { 10, 20, 30, 40 };
    unsigned mode, i;

    for (mode = 0; mode < 8; mode++) {
        Ctx *c = ctx_new();
        put(c, TEXADDR, tex, 4);
        g_assert_true(setup(c, F0(mode, mode, 0, POINT, POINT, 0, 0, 0), 0,
                            FMT0(4, 1, 0, 1), IDENT(F8), 0xEE));
        for (i = 0; i < 6; i++) {
            float v[4];
            int k = e[mode][i];
            sample1(c, 1, s[i], 0.5f, 0, 1, v);
            g_assert_cmpfloat_with_epsilon(v[0], (k == 9 ? 0xEE : tex[k]) /
                                           255.0, 1e-6);
        }
        /* linear at the left edge: GL_CLAMP blends half with the border,
         * clamp-to-edge does not, clamp-to-border at -1/8 is all border */
        if (mode == CLAMP_HALF || mode == CLAMP_LAST ||
            mode == CLAMP_BORDER) {
            float v[4];
            double e0 = mode == CLAMP_HALF ? (0xEE + 10) / 2.0 : 10;
            g_assert_true(setup(c, F0(mode, mode, 0, LINEAR, LINEAR, 0, 0,
                                      0), 0, FMT0(4, 1, 0, 1), IDENT(F8),
                                0xEE));
            sample1(c, 1, mode == CLAMP_BORDER ? -0.125f : 0.0f, 0.5f, 0, 1,
                    v);
            g_assert_cmpfloat_with_epsilon(v[0], (mode == CLAMP_BORDER ?
                                           0xEE : e0) / 255.0, 1e-6);
        }
        ctx_free(c);
    }
}

static void test_bilinear(void)
{
    Ctx *c = ctx_new();
    /* 2x2: rows 32 bytes apart [Mesa r300_texture_desc.c] */
    static const uint8_t t00 = 0, t10 = 102, t01 = 204, t11 = 255;
    double fx = 0.25, fy = 0.75, e;
    float v[4];

    put32(c, TEXADDR, t00);
    put32(c, TEXADDR + 4, t10);
    put32(c, TEXADDR + 32, t01);
    put32(c, TEXADDR + 36, t11);
    g_assert_true(setup(c, F0(CLAMP_LAST, CLAMP_LAST, 0, LINEAR, LINEAR, 0,
                              0, 0), 0, FMT0(2, 2, 0, 1), IDENT(F8888), 0));
    /* texel space x = 0.75, y = 1.25: weights 0.25 and 0.75 */
    sample1(c, 1, 0.375f, 0.625f, 0, 1, v);
    e = ((1 - fx) * (1 - fy) * t00 + fx * (1 - fy) * t10 +
         (1 - fx) * fy * t01 + fx * fy * t11) / 255.0;
    g_assert_cmpfloat_with_epsilon(v[0], e, 1e-6);
    g_assert_cmpfloat_with_epsilon(v[3], 0, 1e-6);
    ctx_free(c);
}

static void test_border_color(void)
{
    Ctx *c = ctx_new();
    float v[4];

    /* ARGB8888 texture: border 0x80FF0000 is red, alpha 0.5 */
    put32(c, TEXADDR, 0xFF00FF00);
    g_assert_true(setup(c, F0(CLAMP_BORDER, CLAMP_BORDER, 0, POINT, POINT,
                              0, 0, 0), 0, FMT0(1, 1, 0, 1), ARGB(F8888),
                        0x80FF0000));
    sample1(c, 1, 1.5f, 0.5f, 0, 1, v);
    near4(v, 1, 0, 0, 128 / 255.0, 1e-6);
    sample1(c, 1, 0.5f, 0.5f, 0, 1, v);
    near4(v, 0, 1, 0, 1, 1e-6);
    /* RGB565 texture: border given as a 565 value (blue) */
    g_assert_true(setup(c, F0(CLAMP_BORDER, CLAMP_BORDER, 0, POINT, POINT,
                              0, 0, 0), 0, FMT0(1, 1, 0, 1),
                        FMT1(F5_6_5, 2, 1, 0, 5), 0x001F));
    sample1(c, 1, 0.5f, -0.5f, 0, 1, v);
    near4(v, 0, 0, 1, 1, 1e-6);
    ctx_free(c);
}

/* ---- mip maps ----------------------------------------------------------- */

/* 8x8 ARGB8888, 4 levels: level L filled with red = 50 (L + 1) */
static void mip_setup(Ctx *c, uint32_t f0, uint32_t f1, unsigned levels)
{
    /* Mesa r300_texture_desc.c: rows padded to 32 bytes: 256, 128, 64, 32
     * bytes */
    static const uint32_t off[4] = { 0, 256, 384, 448 };
    unsigned l, x, y;

    for (l = 0; l < 4; l++) {
        for (y = 0; y < (8u >> l); y++) {
            for (x = 0; x < (8u >> l); x++) {
                put32(c, TEXADDR + off[l] + y * 32 + x * 4,
                      0xFF000000 | (50 * (l + 1)) << 16);
            }
        }
    }
    g_assert_true(setup(c, f0, f1, FMT0(8, 8, 0, levels), ARGB(F8888), 0));
    for (l = 0; l < levels; l++) {
        g_assert_cmpuint(c->u[0].level_offset[l], ==, off[l]);
        g_assert_cmpuint(c->u[0].level_pitch[l], ==, 32);
    }
}

/* red of a quad whose texel footprint is k (ds/dx = dt/dy = k / 8) */
static double mip_red(Ctx *c, int inst, double k, float q)
{
    float coord[4][4], res[4][4];
    int px;

    for (px = 0; px < 4; px++) {
        coord[px][0] = 0.3f + (px & 1) * k / 8;
        coord[px][1] = 0.4f + (px >> 1) * k / 8;
        coord[px][2] = 0;
        coord[px][3] = q;
    }
    r300_tx_sample_quad(&c->u[0], inst, (const float (*)[4])coord, res);
    return res[0][0] * 255.0;
}

static void test_mip_selection(void)
{
    Ctx *c = ctx_new();

    /* MIP point: lod = log2(k) rounded */
    mip_setup(c, F0(0, 0, 0, POINT, POINT, POINT, 0, 0), 0, 4);
    g_assert_cmpfloat_with_epsilon(mip_red(c, 1, 1, 1), 50, 1e-3);
    g_assert_cmpfloat_with_epsilon(mip_red(c, 1, 2, 1), 100, 1e-3);
    g_assert_cmpfloat_with_epsilon(mip_red(c, 1, 4, 1), 150, 1e-3);
    g_assert_cmpfloat_with_epsilon(mip_red(c, 1, 8, 1), 200, 1e-3);
    g_assert_cmpfloat_with_epsilon(mip_red(c, 1, 32, 1), 200, 1e-3);
    g_assert_cmpfloat_with_epsilon(mip_red(c, 1, 2.7, 1), 100, 1e-3);
    g_assert_cmpfloat_with_epsilon(mip_red(c, 1, 2.9, 1), 150, 1e-3);
    /* LODBIAS instruction: q is the bias */
    g_assert_cmpfloat_with_epsilon(mip_red(c, 4, 2, 1.0f), 150, 1e-3);
    g_assert_cmpfloat_with_epsilon(mip_red(c, 4, 8, -2.0f), 100, 1e-3);
    /* MIP none: the base level */
    mip_setup(c, F0(0, 0, 0, POINT, POINT, 0, 0, 0), 0, 4);
    g_assert_cmpfloat_with_epsilon(mip_red(c, 1, 8, 1), 50, 1e-3);
    /* MIP linear: lod 1.5 is half level 1, half level 2 */
    mip_setup(c, F0(0, 0, 0, POINT, POINT, LINEAR, 0, 0), 0, 4);
    g_assert_cmpfloat_with_epsilon(mip_red(c, 1, 2 * M_SQRT2, 1), 125, 1e-2);
    g_assert_cmpfloat_with_epsilon(mip_red(c, 1, pow(2, 2.25), 1), 162.5,
                                   1e-2);
    /* MAX_MIP_LEVEL 2: never finer than level 2, magnified too */
    mip_setup(c, F0(0, 0, 0, POINT, POINT, POINT, 0, 2), 0, 4);
    g_assert_cmpfloat_with_epsilon(mip_red(c, 1, 2, 1), 150, 1e-3);
    g_assert_cmpfloat_with_epsilon(mip_red(c, 1, 0.5, 1), 150, 1e-3);
    /*
     * MIP none ignores MAX_MIP_LEVEL: level 0 minified and magnified (Wine
     * dlls/d3d9/tests/visual.c maxmip_test: "with mipmapping disabled, the
     * max mip level is ignored, only level 0 is used"); Mesa programs
     * GL_TEXTURE_MIN_LOD 2 this way with GL_NEAREST, where GL samples the
     * base level.
     */
    mip_setup(c, F0(0, 0, 0, POINT, POINT, 0, 0, 2), 0, 4);
    g_assert_cmpfloat_with_epsilon(mip_red(c, 1, 8, 1), 50, 1e-3);
    g_assert_cmpfloat_with_epsilon(mip_red(c, 1, 0.5, 1), 50, 1e-3);
    g_assert_cmpfloat_with_epsilon(mip_red(c, 4, 1, 2.0f), 50, 1e-3);
    /* NUM_LEVELS 2: never coarser than level 1 */
    mip_setup(c, F0(0, 0, 0, POINT, POINT, POINT, 0, 0), 0, 2);
    g_assert_cmpfloat_with_epsilon(mip_red(c, 1, 8, 1), 100, 1e-3);
    /* TX_FILTER1.LOD_BIAS s4.5: +1.0 = 32, -1.0 = 0x3E0 */
    mip_setup(c, F0(0, 0, 0, POINT, POINT, POINT, 0, 0), 32 << 3, 4);
    g_assert_cmpfloat_with_epsilon(mip_red(c, 1, 2, 1), 150, 1e-3);
    mip_setup(c, F0(0, 0, 0, POINT, POINT, POINT, 0, 0), 0x3E0 << 3, 4);
    g_assert_cmpfloat_with_epsilon(mip_red(c, 1, 4, 1), 100, 1e-3);
    ctx_free(c);
}

/* non-power-of-two heights of a mipmapped texture round up [§4.6] */
static void test_mip_layout(void)
{
    Ctx *c = ctx_new();

    g_assert_true(setup(c, F0(0, 0, 0, POINT, POINT, POINT, 0, 0), 0,
                        FMT0(8, 6, 0, 3), ARGB(F8888), 0));
    g_assert_cmpuint(c->u[0].level_offset[1], ==, 8 * 32);
    g_assert_cmpuint(c->u[0].level_offset[2], ==, 8 * 32 + 4 * 32);
    g_assert_cmpuint(c->u[0].bytes, ==, 8 * 32 + 4 * 32 + 1 * 32);
    /* single level: no rounding; TXPITCH_EN replaces the pitch */
    c->regs[0x4500 / 4] = 63;
    g_assert_true(setup(c, 0, 0, FMT0(8, 6, 0, 1) | 1u << 31, ARGB(F8888),
                        0));
    g_assert_cmpuint(c->u[0].level_pitch[0], ==, 64 * 4);
    g_assert_cmpuint(c->u[0].bytes, ==, 6 * 64 * 4);
    g_assert_cmpuint(r300_tx_texel_address(&c->u[0], 0, 3, 2, 0), ==,
                     2 * 256 + 3 * 4);
    ctx_free(c);
}

/* ---- cube and volume ---------------------------------------------------- */

static void test_cube(void)
{
    Ctx *c = ctx_new();
    static const float dirs[6][3] = {
        { 1, 0.2f, 0.3f }, { -1, 0.2f, -0.3f }, { 0.1f, 1, -0.2f },
        { 0.1f, -1, 0.2f }, { 0.2f, 0.3f, 1 }, { -0.2f, 0.3f, -1 },
    };
    unsigned f;
    float v[4];

    /* 1x1 faces, 32 bytes apart, +X -X +Y -Y +Z -Z */
    for (f = 0; f < 6; f++) {
        put32(c, TEXADDR + 32 * f, 40 * (f + 1));
    }
    g_assert_true(setup(c, F0(0, 0, 0, POINT, POINT, 0, 0, 0), 0,
                        FMT0(1, 1, 0, 1), IDENT(F8888) | COORD_CUBE, 0));
    for (f = 0; f < 6; f++) {
        sample1(c, 1, dirs[f][0], dirs[f][1], dirs[f][2], 1, v);
        g_assert_cmpfloat_with_epsilon(v[0], 40 * (f + 1) / 255.0, 1e-6);
    }
    /* 2x2 faces (64 bytes each): texel (x, y) = 10 f + 2 y + x */
    for (f = 0; f < 6; f++) {
        unsigned x, y;
        for (y = 0; y < 2; y++) {
            for (x = 0; x < 2; x++) {
                put32(c, TEXADDR + 64 * f + 32 * y + 4 * x,
                      10 * f + 2 * y + x);
            }
        }
    }
    g_assert_true(setup(c, F0(0, 0, 0, POINT, POINT, 0, 0, 0), 0,
                        FMT0(2, 2, 0, 1), IDENT(F8888) | COORD_CUBE, 0));
    /* +Z: sc = x, tc = -y: (0.5, 0.5, 1) -> s 0.75 t 0.25 -> texel (1,0) */
    sample1(c, 1, 0.5f, 0.5f, 1, 1, v);
    g_assert_cmpfloat_with_epsilon(v[0], (10 * 4 + 1) / 255.0, 1e-6);
    /* -X: sc = z, tc = -y: (-1, -0.5, 0.5) -> s 0.75 t 0.75 -> (1,1) */
    sample1(c, 1, -1, -0.5f, 0.5f, 1, v);
    g_assert_cmpfloat_with_epsilon(v[0], (10 * 1 + 3) / 255.0, 1e-6);
    /* +Y: sc = x, tc = z: (-0.5, 1, 0.5) -> s 0.25 t 0.75 -> (0,1) */
    sample1(c, 1, -0.5f, 1, 0.5f, 1, v);
    g_assert_cmpfloat_with_epsilon(v[0], (10 * 2 + 2) / 255.0, 1e-6);
    ctx_free(c);
}

static void test_volume(void)
{
    Ctx *c = ctx_new();
    float v[4];
    unsigned i;

    /* 2x2x2, slice 64 bytes: slice 0 all 0x40, slice 1 all 0xC0 */
    for (i = 0; i < 2; i++) {
        memset(c->mem + TEXADDR + 64 * i, i ? 0xC0 : 0x40, 64);
    }
    g_assert_true(setup(c, F0(CLAMP_LAST, CLAMP_LAST, CLAMP_LAST, POINT,
                              POINT, 0, 0, 0), 0, FMT0(2, 2, 1, 1),
                        IDENT(F8) | COORD_3D, 0));
    sample1(c, 1, 0.5f, 0.5f, 0.25f, 1, v);
    g_assert_cmpfloat_with_epsilon(v[0], 0x40 / 255.0, 1e-6);
    sample1(c, 1, 0.5f, 0.5f, 0.75f, 1, v);
    g_assert_cmpfloat_with_epsilon(v[0], 0xC0 / 255.0, 1e-6);
    /* VOL_FILTER linear between the slices, point in x and y */
    g_assert_true(setup(c, F0(CLAMP_LAST, CLAMP_LAST, CLAMP_LAST, POINT,
                              POINT, 0, LINEAR, 0), 0, FMT0(2, 2, 1, 1),
                        IDENT(F8) | COORD_3D, 0));
    sample1(c, 1, 0.5f, 0.5f, 0.5f, 1, v);
    g_assert_cmpfloat_with_epsilon(v[0], 0x80 / 255.0, 1e-6);
    ctx_free(c);
}

static void test_projection(void)
{
    Ctx *c = ctx_new();
    float v[4];

    put32(c, TEXADDR, 11);
    put32(c, TEXADDR + 4, 22);
    g_assert_true(setup(c, F0(CLAMP_LAST, CLAMP_LAST, 0, POINT, POINT, 0, 0,
                              0), 0, FMT0(2, 1, 0, 1), IDENT(F8888), 0));
    /* PROJ divides by q: s = 1/4 -> texel 0; LD does not: s = 1 -> 1 */
    sample1(c, 3, 1.0f, 0.5f, 0, 4, v);
    g_assert_cmpfloat_with_epsilon(v[0], 11 / 255.0, 1e-6);
    sample1(c, 1, 1.0f, 0.5f, 0, 4, v);
    g_assert_cmpfloat_with_epsilon(v[0], 22 / 255.0, 1e-6);
    /* TX_FORMAT0.PROJECTED makes LD project */
    g_assert_true(setup(c, F0(CLAMP_LAST, CLAMP_LAST, 0, POINT, POINT, 0, 0,
                              0), 0, FMT0(2, 1, 0, 1) | 1u << 30,
                        IDENT(F8888), 0));
    sample1(c, 1, 1.0f, 0.5f, 0, 4, v);
    g_assert_cmpfloat_with_epsilon(v[0], 11 / 255.0, 1e-6);
    ctx_free(c);
}

static void test_endian_chroma(void)
{
    Ctx *c = ctx_new();
    float v[4];

    put32(c, TEXADDR, 0x80FF4010);
    c->regs[0x4540 / 4] = TEXADDR | 2;          /* 32-bit swap */
    g_assert_true(setup(c, 0x200 | 0x800, 0, FMT0(1, 1, 0, 1), IDENT(F8888),
                        0));
    sample1(c, 1, 0.5f, 0.5f, 0, 1, v);
    near4(v, 128 / 255.0, 1, 64 / 255.0, 16 / 255.0, 1e-6);
    /* 16-bit swap of a 565 texel 0xA3C5 stored as C5 A3 -> 0xC5A3 */
    put32(c, TEXADDR, 0xA3C5);
    c->regs[0x4540 / 4] = TEXADDR | 1;
    g_assert_true(setup(c, 0x200 | 0x800, 0, FMT0(1, 1, 0, 1),
                        IDENT(F5_6_5), 0));
    sample1(c, 1, 0.5f, 0.5f, 0, 1, v);
    /* 0xC5A3 = 11000 101101 00011 */
    near4(v, 3 / 31.0, 45 / 63.0, 24 / 31.0, 0, 1e-6);
    c->regs[0x4540 / 4] = TEXADDR;
    /* ChromaKeyBlend: a texel equal to TX_CHROMA_KEY reads 0 */
    put32(c, TEXADDR, 0xFF00FF00);
    put32(c, TEXADDR + 4, 0xFF0000FF);
    c->regs[0x4580 / 4] = 0xFF00FF00;
    g_assert_true(setup(c, 0x200 | 0x800, 2, FMT0(2, 1, 0, 1), ARGB(F8888),
                        0));
    sample1(c, 1, 0.25f, 0.5f, 0, 1, v);
    near4(v, 0, 0, 0, 0, 1e-6);
    sample1(c, 1, 0.75f, 0.5f, 0, 1, v);
    near4(v, 0, 0, 1, 1, 1e-6);
    ctx_free(c);
}

/* ---- a shader and a texture unit together ------------------------------ */

static void test_us_textured(void)
{
    Ctx *c = ctx_new();
    R300USProgram *p = g_new0(R300USProgram, 1);
    R300USQuad q;
    int px;

    memset(&q, 0, sizeof(q));
    put32(c, TEXADDR, 0xFF000010);
    put32(c, TEXADDR + 4, 0xFF000020);
    put32(c, TEXADDR + 32, 0xFF000030);
    put32(c, TEXADDR + 36, 0xFF000040);
    c->regs[0x4104 / 4] = 1u << 2;
    c->regs[(0x4400 + 8) / 4] = F0(0, 0, 0, POINT, POINT, 0, 0, 0);
    c->regs[(0x4480 + 8) / 4] = FMT0(2, 2, 0, 1);
    c->regs[(0x44C0 + 8) / 4] = ARGB(F8888);
    c->regs[(0x4540 + 8) / 4] = TEXADDR;
    for (px = 0; px < R300_TX_UNITS; px++) {
        g_assert_cmpint(r300_tx_load(&c->u[px], c->regs, px, &c->m), ==,
                        px == 2);
    }
    /* TEX t1 = unit 2 at t0; out = t1 (R3xx 3D ref. §1.9 US encodings) */
    c->regs[0x4600 / 4] = 1 << 3;
    c->regs[0x4604 / 4] = 1;
    c->regs[0x4620 / 4] = 0 | 1 << 6 | 2 << 11 | 1 << 15;
    c->regs[0x461C / 4] = 1 << 22;
    c->regs[0x46C0 / 4] = 1 | 7u << 26;
    c->regs[0x47C0 / 4] = 1 | 1u << 24;
    c->regs[0x48C0 / 4] = 0 | 21 << 7 | 20 << 14;
    c->regs[0x49C0 / 4] = 9 | 17 << 7 | 16 << 14;
    g_assert_true(r300_us_load(p, c->regs));
    for (px = 0; px < 4; px++) {
        q.temp[px][0][0] = (px & 1) ? 0.75f : 0.25f;
        q.temp[px][0][1] = (px >> 1) ? 0.75f : 0.25f;
        q.temp[px][0][3] = 1;
    }
    q.live = 0xf;
    r300_us_exec(p, &q, r300_tx_sampler, c->u);
    for (px = 0; px < 4; px++) {
        near4(q.out[px][0], 0, 0, 16 * (px + 1) / 255.0, 1, 1e-6);
    }
    g_free(p);
    ctx_free(c);
}

/* ---- disabled units and bad input ------------------------------------------ */

static void test_disabled(void)
{
    Ctx *c = ctx_new();
    float v[4];
    unsigned e = errs(), ui = unimps();

    put32(c, TEXADDR, 0x12345678);
    g_assert_true(setup(c, PP, 0, FMT0(1, 1, 0, 1), IDENT(F8888), 0));
    c->regs[0x4104 / 4] = 0;                    /* TX_ENABLE clear */
    g_assert_false(r300_tx_load(&c->u[0], c->regs, 0, &c->m));
    sample1(c, 1, 0.5f, 0.5f, 0, 1, v);
    /* A = 1 [R3xx 3D ref. §1.8 TX] */
    near4(v, 0, 0, 0, 1, 1e-9);
    g_assert_cmpuint(errs(), ==, e);
    /* reserved format 31: an error; W24_FP: not modelled */
    g_assert_false(setup(c, PP, 0, FMT0(1, 1, 0, 1), IDENT(31), 0));
    sample1(c, 1, 0.5f, 0.5f, 0, 1, v);
    near4(v, 0, 0, 0, 1, 1e-9);
    g_assert_cmpuint(errs(), ==, e + 1);
    g_assert_false(setup(c, PP, 0, FMT0(1, 1, 0, 1), IDENT(W24), 0));
    g_assert_cmpuint(unimps(), ==, ui + 1);
    ctx_free(c);
}

static void test_bad_input(void)
{
    Ctx *c = ctx_new();
    R300NoMap nm = { c->mem, MEM };
    G3DMem nomap = r300_nomap_mem(&nm);
    unsigned e;
    float v[4];

    /* past the end of memory: mapped fails, copy fails */
    e = errs();
    c->regs[0x4540 / 4] = MEM - 64;
    g_assert_false(setup(c, PP, 0, FMT0(64, 64, 0, 1), IDENT(F8888), 0));
    g_assert_cmpuint(errs(), ==, e + 1);
    g_assert_false(c->u[0].enabled);
    /* not mappable but readable: a copy that samples the same */
    c->regs[0x4540 / 4] = TEXADDR;
    put32(c, TEXADDR + 32, 0x11223344);
    c->regs[0x4104 / 4] = 1;
    c->regs[0x4400 / 4] = PP;
    c->regs[0x4480 / 4] = FMT0(1, 2, 0, 1);
    c->regs[0x44C0 / 4] = IDENT(F8888);
    g_assert_true(r300_tx_load(&c->u[0], c->regs, 0, &nomap));
    g_assert_true(c->u[0].copy != NULL);
    sample1(c, 1, 0.5f, 0.75f, 0, 1, v);
    near4(v, 0x44 / 255.0, 0x33 / 255.0, 0x22 / 255.0, 0x11 / 255.0, 1e-6);
    /* not mappable, too big to copy: 2048x2048 x 16 bytes + a level */
    e = errs();
    c->regs[0x4480 / 4] = FMT0(2048, 2048, 0, 2);
    c->regs[0x44C0 / 4] = IDENT(F32x4);
    g_assert_false(r300_tx_load(&c->u[0], c->regs, 0, &nomap));
    g_assert_cmpuint(errs(), ==, e + 1);
    /* pitch below the width; coordinate type 3; depth 2^12 */
    e = errs();
    c->regs[0x4500 / 4] = 3;
    g_assert_false(setup(c, PP, 0, FMT0(8, 1, 0, 1) | 1u << 31, IDENT(F8),
                         0));
    g_assert_false(setup(c, PP, 0, FMT0(8, 1, 0, 1), IDENT(F8) | 3u << 25,
                         0));
    g_assert_false(setup(c, PP, 0, FMT0(8, 1, 12, 1), IDENT(F8) | COORD_3D,
                         0));
    g_assert_cmpuint(errs(), ==, e + 3);
    /* NUM_LEVELS 13: clamped, logged; filters 0 and 3; MIP/VOL 3 */
    e = errs();
    g_assert_true(setup(c, F0(0, 0, 0, 0, 3, 3, 3, 0), 3, FMT0(8, 8, 0, 14),
                        IDENT(F8), 0));
    g_assert_cmpuint(c->u[0].levels, ==, R300_TX_MAX_LEVELS);
    /* NUM_LEVELS, mag 0, MIP 3, VOL 3, CHROMA_KEY_MODE 3 */
    g_assert_cmpuint(errs(), ==, e + 5);
    sample1(c, 1, 0.5f, 0.5f, 0, 1, v);
    /* tiling a compressed format (Mesa never does; no layout is known):
     * sampled as linear, logged */
    e = errs();
    c->regs[0x4540 / 4] = TEXADDR | 1 << 2 | 1 << 3;
    g_assert_true(setup(c, PP, 0, FMT0(8, 8, 0, 1), IDENT(DXT1), 0));
    g_assert_cmpuint(errs(), ==, e + 1);
    g_assert_false(c->u[0].tiled);
    /* micro tiling at 128 bits per texel does not exist: logged, linear */
    e = errs();
    g_assert_true(setup(c, PP, 0, FMT0(8, 8, 0, 1), IDENT(F32x4), 0));
    g_assert_cmpuint(errs(), ==, e + 1);
    g_assert_false(c->u[0].tiled);
    /* NaN and huge coordinates stay inside the texture */
    {
        float coord[4][4] = {
            { NAN, INFINITY, -INFINITY, 0 }, { 1e30f, -1e30f, NAN, NAN },
            { 3e9f, NAN, 1, 1 }, { -3e9f, 7, NAN, INFINITY },
        }, res[4][4];
        unsigned mode;
        for (mode = 0; mode < 8; mode++) {
            g_assert_true(setup(c, F0(mode, mode, mode, LINEAR, LINEAR,
                                      LINEAR, 0, 0), 0, FMT0(8, 8, 0, 4),
                                IDENT(F8), 0));
            r300_tx_sample_quad(&c->u[0], 4, (const float (*)[4])coord, res);
            r300_tx_sample_quad(&c->u[0], 3, (const float (*)[4])coord, res);
        }
        g_assert_true(setup(c, 0x200 | 0x800, 0, FMT0(8, 8, 0, 1),
                            IDENT(F8) | COORD_CUBE, 0));
        r300_tx_sample_quad(&c->u[0], 1, (const float (*)[4])coord, res);
    }
    ctx_free(c);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/r300/tx/formats", test_formats);
    g_test_add_func("/r300/tx/signed-swizzle-gamma",
                    test_signed_swizzle_gamma);
    g_test_add_func("/r300/tx/dxt", test_dxt);
    g_test_add_func("/r300/tx/yuv", test_yuv);
    g_test_add_func("/r300/tx/wrap-modes", test_wrap_modes);
    g_test_add_func("/r300/tx/bilinear", test_bilinear);
    g_test_add_func("/r300/tx/border-color", test_border_color);
    g_test_add_func("/r300/tx/mip-selection", test_mip_selection);
    g_test_add_func("/r300/tx/mip-layout", test_mip_layout);
    g_test_add_func("/r300/tx/cube", test_cube);
    g_test_add_func("/r300/tx/volume", test_volume);
    g_test_add_func("/r300/tx/projection", test_projection);
    g_test_add_func("/r300/tx/endian-chroma", test_endian_chroma);
    g_test_add_func("/r300/tx/us-textured", test_us_textured);
    g_test_add_func("/r300/tx/disabled", test_disabled);
    g_test_add_func("/r300/tx/bad-input", test_bad_input);
    return g_test_run();
}
