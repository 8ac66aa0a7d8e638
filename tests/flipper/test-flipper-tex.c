/*
 * flipper-gx texture unit (tx.c): every texture format decoded from texel
 * bits placed in the documented tiled layouts (Dolphin
 * TextureDecoder_Generic.cpp, tex-build.c), with the expected colours computed
 * here from the documented expansions; TLUT loads in the three TLUT formats;
 * wrap modes; bilinear weights; mipmap level selection and blending; the LOD;
 * TMEM preloads (RGBA8 split into its AR and GB halves); and bad input
 * (textures, TLUT loads and preloads outside MEM1 or TMEM, unknown formats)
 * logged and read as zero. The maps are programmed with BP commands through the
 * GX decoder.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "flipper/flipper-int.h"
#include "gx-build.h"
#include "rig.h"
#include "tex-build.h"

#define TEX_ADDR  0x00300000u
#define TLUT_ADDR 0x00380000u

static void set_map(FlipperRig *r, int map, unsigned fmt, int w, int h,
                    uint32_t addr, uint32_t mode0, uint32_t mode1,
                    uint32_t tlut)
{
    GByteArray *b = g_byte_array_new();

    gx_tex_map(b, map, fmt, w, h, addr, mode0, mode1, tlut);
    flipper_gx_exec(r->core, b->data, b->len);
    g_byte_array_unref(b);
}

/* texel (x, y) of level 0, nearest */
static void texel_at(const TxMap *m, int x, int y, uint8_t out[4])
{
    flipper_tx_sample(m, x * 128 + 64, y * 128 + 64, 0, false, out);
}

static uint32_t rgba(const uint8_t c[4])
{
    return (uint32_t)c[0] << 24 | c[1] << 16 | c[2] << 8 | c[3];
}

/* the documented bit expansions (Dolphin TextureDecoder_Generic.cpp) */
static uint32_t e4(uint32_t v) { return v * 17; }
static uint32_t e5(uint32_t v) { return v << 3 | v >> 2; }
static uint32_t e6(uint32_t v) { return v << 2 | v >> 4; }
static uint32_t e3(uint32_t v) { return v << 5 | v << 2 | v >> 1; }

static uint32_t pack(uint32_t r, uint32_t g, uint32_t b, uint32_t a)
{
    return r << 24 | g << 16 | b << 8 | a;
}

static uint32_t exp_565(uint32_t v)
{
    return pack(e5(v >> 11), e6((v >> 5) & 63), e5(v & 31), 255);
}

static uint32_t exp_5a3(uint32_t v)
{
    if (v & 0x8000) {
        return pack(e5((v >> 10) & 31), e5((v >> 5) & 31), e5(v & 31), 255);
    }
    return pack(e4((v >> 8) & 15), e4((v >> 4) & 15), e4(v & 15),
                e3((v >> 12) & 7));
}

static uint32_t exp_ia8(uint32_t v)
{
    return pack(v & 255, v & 255, v & 255, v >> 8);
}

static uint32_t expect(unsigned fmt, uint32_t raw)
{
    switch (fmt) {
    case TX_FMT_I4:     return pack(e4(raw), e4(raw), e4(raw), e4(raw));
    case TX_FMT_I8:     return pack(raw, raw, raw, raw);
    case TX_FMT_IA4:    return pack(e4(raw & 15), e4(raw & 15), e4(raw & 15),
                                    e4(raw >> 4));
    case TX_FMT_IA8:    return exp_ia8(raw);
    case TX_FMT_RGB565: return exp_565(raw);
    case TX_FMT_RGB5A3: return exp_5a3(raw);
    default:            /* RGBA8: 0xAARRGGBB */
        return raw << 8 | raw >> 24;
    }
}

static uint32_t raw_bits(unsigned fmt)
{
    switch (fmt) {
    case TX_FMT_I4: case TX_FMT_C4: return 4;
    case TX_FMT_I8: case TX_FMT_IA4: case TX_FMT_C8: return 8;
    case TX_FMT_RGBA8: return 32;
    default: return 16;
    }
}

static void test_direct_formats(void)
{
    static const unsigned fmts[] = {
        TX_FMT_I4, TX_FMT_I8, TX_FMT_IA4, TX_FMT_IA8, TX_FMT_RGB565,
        TX_FMT_RGB5A3, TX_FMT_RGBA8,
    };
    FlipperRig *r = rig_new(1);
    GRand *rnd = g_rand_new_with_seed(1);
    const int w = 24, h = 12;       /* not whole tiles in every format */
    size_t i;
    int x, y;

    for (i = 0; i < G_N_ELEMENTS(fmts); i++) {
        uint32_t raws[12][24], bits = raw_bits(fmts[i]);
        TxMap m;

        memset(r->mem1 + TEX_ADDR, 0, 0x10000);
        for (y = 0; y < h; y++) {
            for (x = 0; x < w; x++) {
                raws[y][x] = g_rand_int(rnd) &
                             (bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1);
                tex_put(fmts[i], r->mem1 + TEX_ADDR, w, x, y, raws[y][x]);
            }
        }
        set_map(r, 5, fmts[i], w, h, TEX_ADDR, 0, 0, 0);
        g_assert_true(flipper_tx_setup(r->core, 5, &m));
        for (y = 0; y < h; y++) {
            for (x = 0; x < w; x++) {
                uint8_t t[4];
                texel_at(&m, x, y, t);
                if (rgba(t) != expect(fmts[i], raws[y][x])) {
                    g_error("format %u texel (%d, %d) raw 0x%x: 0x%08x, "
                            "expected 0x%08x", fmts[i], x, y, raws[y][x],
                            rgba(t), expect(fmts[i], raws[y][x]));
                }
            }
        }
    }
    g_rand_free(rnd);
    rig_free(r);
}

/* CMPR: colours 2 and 3 as 3/8 blends when c0 > c1, else the average and
 * the average with alpha 0 */
static void test_cmpr(void)
{
    FlipperRig *r = rig_new(1);
    GRand *rnd = g_rand_new_with_seed(2);
    const int w = 16, h = 16;
    uint16_t c[4][4][2];
    uint32_t idx[4][4];
    TxMap m;
    int bx, by, x, y;

    for (by = 0; by < 4; by++) {
        for (bx = 0; bx < 4; bx++) {
            c[by][bx][0] = (uint16_t)g_rand_int(rnd);
            c[by][bx][1] = (uint16_t)g_rand_int(rnd);
            idx[by][bx] = g_rand_int(rnd);
            tex_put_cmpr(r->mem1 + TEX_ADDR, w, bx, by, c[by][bx][0],
                         c[by][bx][1], idx[by][bx]);
        }
    }
    set_map(r, 0, TX_FMT_CMPR, w, h, TEX_ADDR, 0, 0, 0);
    g_assert_true(flipper_tx_setup(r->core, 0, &m));
    for (y = 0; y < h; y++) {
        for (x = 0; x < w; x++) {
            uint16_t c0 = c[y / 4][x / 4][0], c1 = c[y / 4][x / 4][1];
            uint32_t p0 = exp_565(c0), p1 = exp_565(c1), want;
            unsigned sel = idx[y / 4][x / 4] >> (30 - 2 * (4 * (y & 3) + (x & 3))) & 3;
            uint32_t ch[2][3] = {
                { p0 >> 24, (p0 >> 16) & 255, (p0 >> 8) & 255 },
                { p1 >> 24, (p1 >> 16) & 255, (p1 >> 8) & 255 },
            };
            uint8_t t[4];
            int k;

            if (sel < 2) {
                want = sel ? p1 : p0;
            } else {
                uint32_t v[3];
                for (k = 0; k < 3; k++) {
                    if (c0 > c1) {
                        v[k] = sel == 2 ? (3 * ch[1][k] + 5 * ch[0][k]) / 8
                                        : (3 * ch[0][k] + 5 * ch[1][k]) / 8;
                    } else {
                        v[k] = (ch[0][k] + ch[1][k]) / 2;
                    }
                }
                want = pack(v[0], v[1], v[2],
                            c0 <= c1 && sel == 3 ? 0 : 255);
            }
            texel_at(&m, x, y, t);
            g_assert_cmphex(rgba(t), ==, want);
        }
    }
    g_rand_free(rnd);
    rig_free(r);
}

/* C4/C8/C14X2 through a TLUT of each format, loaded with LOADTLUT0/1 */
static void test_paletted(void)
{
    static const unsigned fmts[] = { TX_FMT_C4, TX_FMT_C8, TX_FMT_C14X2 };
    FlipperRig *r = rig_new(1);
    GRand *rnd = g_rand_new_with_seed(3);
    const uint32_t tmem = 0x300;        /* libogc's 0xE0000 */
    uint16_t tlut[1024];
    size_t f;
    int k, tf, x, y;

    for (k = 0; k < 1024; k++) {
        tlut[k] = (uint16_t)g_rand_int(rnd);
        r->mem1[TLUT_ADDR + 2 * k] = tlut[k] >> 8;
        r->mem1[TLUT_ADDR + 2 * k + 1] = (uint8_t)tlut[k];
    }
    rig_bp(r, BP_LOADTLUT0, TLUT_ADDR >> 5);
    rig_bp(r, BP_LOADTLUT1, tmem | 64 << 10);          /* 64 x 16 entries */
    for (f = 0; f < G_N_ELEMENTS(fmts); f++) {
        uint32_t raws[8][8], bits = raw_bits(fmts[f]);
        for (y = 0; y < 8; y++) {
            for (x = 0; x < 8; x++) {
                /* C14X2: indices below 1024 with the top 2 bits set (ignored) */
                raws[y][x] = g_rand_int(rnd) &
                             (bits == 16 ? 0xC3FFu : (1u << bits) - 1);
                tex_put(fmts[f], r->mem1 + TEX_ADDR, 8, x, y, raws[y][x]);
            }
        }
        for (tf = TLUT_FMT_IA8; tf <= TLUT_FMT_RGB5A3; tf++) {
            TxMap m;
            set_map(r, 6, fmts[f], 8, 8, TEX_ADDR, 0, 0,
                    tmem | (uint32_t)tf << 10);
            g_assert_true(flipper_tx_setup(r->core, 6, &m));
            for (y = 0; y < 8; y++) {
                for (x = 0; x < 8; x++) {
                    uint16_t e = tlut[raws[y][x] & 0x3FFF];
                    uint32_t want = tf == TLUT_FMT_IA8 ? exp_ia8(e) :
                                    tf == TLUT_FMT_RGB565 ? exp_565(e) :
                                    exp_5a3(e);
                    uint8_t t[4];
                    texel_at(&m, x, y, t);
                    g_assert_cmphex(rgba(t), ==, want);
                }
            }
        }
    }
    g_rand_free(rnd);
    rig_free(r);
}

/* clamp, repeat (AND size-1) and mirror on an 8x8 I8 texture */
static void test_wrap(void)
{
    static const struct {
        int coord;
        int clamp, repeat, mirror;
    } c[] = {
        { -1, 0, 7, 0 }, { -9, 0, 7, 7 }, { 8, 7, 0, 7 }, { 9, 7, 1, 6 },
        { 17, 7, 1, 1 }, { 3, 3, 3, 3 },
    };
    FlipperRig *r = rig_new(1);
    size_t i;
    int x, mode;

    for (x = 0; x < 8; x++) {
        tex_put(TX_FMT_I8, r->mem1 + TEX_ADDR, 8, x, 0, (uint32_t)(10 + x));
    }
    for (mode = 0; mode < 3; mode++) {
        TxMap m;
        set_map(r, 2, TX_FMT_I8, 8, 8, TEX_ADDR, (uint32_t)mode, 0, 0);
        g_assert_true(flipper_tx_setup(r->core, 2, &m));
        for (i = 0; i < G_N_ELEMENTS(c); i++) {
            int want = mode == 0 ? c[i].clamp : mode == 1 ? c[i].repeat
                                                          : c[i].mirror;
            uint8_t t[4];
            texel_at(&m, c[i].coord, 0, t);
            g_assert_cmpint(t[0], ==, 10 + want);
        }
    }
    rig_free(r);
}

/* bilinear: 7-bit fractions after a half-texel offset, >> 14 */
static void test_bilinear(void)
{
    FlipperRig *r = rig_new(1);
    TxMap m;
    uint8_t t[4];
    int x, y;

    for (y = 0; y < 4; y++) {
        for (x = 0; x < 8; x++) {
            tex_put(TX_FMT_I8, r->mem1 + TEX_ADDR, 8, x, y,
                    (uint32_t)(x == 1 ? 200 : y == 1 ? 100 : 0));
        }
    }
    set_map(r, 0, TX_FMT_I8, 8, 4, TEX_ADDR, 1 << 4, 0, 0);
    g_assert_true(flipper_tx_setup(r->core, 0, &m));
    /* at a texel centre: that texel */
    flipper_tx_sample(&m, 1 * 128 + 64, 0 * 128 + 64, 0, true, t);
    g_assert_cmpint(t[0], ==, 200);
    /* halfway between texels 0 and 1 of row 0: (0 + 200) / 2 */
    flipper_tx_sample(&m, 128, 64, 0, true, t);
    g_assert_cmpint(t[0], ==, 100);
    /* a quarter of the way from texel 1 to 2 on row 0: 200 * 96/128 */
    flipper_tx_sample(&m, 128 + 64 + 32, 64, 0, true, t);
    g_assert_cmpint(t[0], ==, 150);
    /* a quarter of the way from (2,0) to (2,1): 100 * 32/128 = 25 */
    flipper_tx_sample(&m, 2 * 128 + 64, 64 + 32, 0, true, t);
    g_assert_cmpint(t[0], ==, 25);
    /* between four texels (2,0),(3,0),(2,1),(3,1) = 0,0,100,100 at
     * fractions 1/4, 3/4: 100 * 96 * 128 >> 14 = 75 */
    flipper_tx_sample(&m, 2 * 128 + 64 + 32, 64 + 96, 0, true, t);
    g_assert_cmpint(t[0], ==, 75);
    rig_free(r);
}

/* mip levels follow level 0's tiles; nearest-mip rounds the LOD, linear
 * blends by the 4-bit fraction */
static void test_mipmap(void)
{
    FlipperRig *r = rig_new(1);
    uint32_t l1 = TEX_ADDR + tex_level_offset(TX_FMT_I8, 16, 16, 1);
    uint32_t l2 = TEX_ADDR + tex_level_offset(TX_FMT_I8, 16, 16, 2);
    TxMap m;
    uint8_t t[4];
    int x, y;

    g_assert_cmpuint(l1 - TEX_ADDR, ==, 256);
    for (y = 0; y < 16; y++) {
        for (x = 0; x < 16; x++) {
            tex_put(TX_FMT_I8, r->mem1 + TEX_ADDR, 16, x, y, 10);
            if (x < 8 && y < 8) {
                tex_put(TX_FMT_I8, r->mem1 + l1, 8, x, y, 200);
            }
            if (x < 4 && y < 4) {
                tex_put(TX_FMT_I8, r->mem1 + l2, 4, x, y, 90);
            }
        }
    }
    /* nearest mip (MIN_FILTER 1), MAX_LOD 2.0 */
    set_map(r, 1, TX_FMT_I8, 16, 16, TEX_ADDR, 1 << 5, 32 << 8, 0);
    g_assert_true(flipper_tx_setup(r->core, 1, &m));
    flipper_tx_sample(&m, 5 * 128, 5 * 128, 7, false, t);
    g_assert_cmpint(t[0], ==, 10);
    flipper_tx_sample(&m, 5 * 128, 5 * 128, 8, false, t);
    g_assert_cmpint(t[0], ==, 200);
    flipper_tx_sample(&m, 5 * 128, 5 * 128, 32, false, t);
    g_assert_cmpint(t[0], ==, 90);
    /* linear mip (MIN_FILTER 2): (10 * 12 + 200 * 4) >> 4 = 57 */
    set_map(r, 1, TX_FMT_I8, 16, 16, TEX_ADDR, 2 << 5, 32 << 8, 0);
    g_assert_true(flipper_tx_setup(r->core, 1, &m));
    flipper_tx_sample(&m, 5 * 128, 5 * 128, 4, false, t);
    g_assert_cmpint(t[0], ==, 57);
    /* no mip mode: level 0 whatever the LOD */
    set_map(r, 1, TX_FMT_I8, 16, 16, TEX_ADDR, 0, 32 << 8, 0);
    g_assert_true(flipper_tx_setup(r->core, 1, &m));
    flipper_tx_sample(&m, 5 * 128, 5 * 128, 32, false, t);
    g_assert_cmpint(t[0], ==, 10);
    rig_free(r);
}

/* LOD: log2 of the largest texel step (s28.4) + bias / 2, then clamped */
static void test_lod(void)
{
    FlipperRig *r = rig_new(1);
    const float o[2] = { 0, 0 }, one[2] = { 1, 0 }, two[2] = { 0, 2 };
    const float three[2] = { 3, 0 }, half[2] = { 0.5f, 0 };
    const float twos[2] = { 2, 0 };
    TxMap m;
    int lod;
    bool linear;

    /* MIN linear, MAG nearest, MAX_LOD 15.9375 */
    set_map(r, 0, TX_FMT_I8, 16, 16, TEX_ADDR, 4 << 5, 0xFF << 8, 0);
    g_assert_true(flipper_tx_setup(r->core, 0, &m));
    flipper_tx_lod(&m, o, one, o, &lod, &linear);
    g_assert_cmpint(lod, ==, 0);
    g_assert_false(linear);                 /* LOD 0 magnifies */
    flipper_tx_lod(&m, o, o, two, &lod, &linear);
    g_assert_cmpint(lod, ==, 16);
    g_assert_true(linear);
    flipper_tx_lod(&m, o, three, o, &lod, &linear);
    g_assert_cmpint(lod, ==, 16 + 8);       /* log2(3) ~ 1 + 8/16 */
    flipper_tx_lod(&m, o, half, o, &lod, &linear);
    g_assert_cmpint(lod, ==, 0);            /* clamped at MIN_LOD 0 */
    /* edge LOD takes the larger step (2), diagonal sums them: 1 + 2 = 3 */
    flipper_tx_lod(&m, o, one, twos, &lod, &linear);
    g_assert_cmpint(lod, ==, 16);
    set_map(r, 0, TX_FMT_I8, 16, 16, TEX_ADDR, 1 << 8, 0xFF << 8, 0);
    g_assert_true(flipper_tx_setup(r->core, 0, &m));
    flipper_tx_lod(&m, o, one, twos, &lod, &linear);
    g_assert_cmpint(lod, ==, 24);
    /* bias -1.0 (s2.5 = -32), MIN_LOD 0.5: 16 - 16 -> 8 */
    set_map(r, 0, TX_FMT_I8, 16, 16, TEX_ADDR, 0xE0u << 9, 8 | 0xFF << 8, 0);
    g_assert_true(flipper_tx_setup(r->core, 0, &m));
    flipper_tx_lod(&m, o, o, two, &lod, &linear);
    g_assert_cmpint(lod, ==, 8);
    /* MAX_LOD 1.0 */
    set_map(r, 0, TX_FMT_I8, 16, 16, TEX_ADDR, 0, 16 << 8, 0);
    g_assert_true(flipper_tx_setup(r->core, 0, &m));
    flipper_tx_lod(&m, o, three, o, &lod, &linear);
    g_assert_cmpint(lod, ==, 16);
    rig_free(r);
}

/* indirect step: offsets from A, B, G with the format's bias, a static
 * matrix (S0.10, >> 3, scale), wrap, FB accumulation, bump alpha */
static void test_indirect(void)
{
    FlipperRig *r = rig_new(1);
    const uint8_t indtex[4] = { 11, 50, 100, 200 };     /* R, G, B, A */
    TevIndirect ind;
    int32_t tc[2] = { 0, 0 };
    uint8_t bump;

    /* matrix 0: MA = MD = 0.5, the rest 0, scale exponent 17 (x1) */
    rig_bp(r, BP_IND_MTXA0, 512 | 1u << 22);                /* s0 = 1 */
    rig_bp(r, BP_IND_MTXA0 + 1, 512u << 11 | 0u << 22);
    rig_bp(r, BP_IND_MTXA0 + 2, 1u << 22);                  /* s2 = 1: 1 + 16 */
    /* matrix 1: MA = -1.0 (0x400), scale exponent 19 (x4) */
    rig_bp(r, BP_IND_MTXA0 + 3, 0x400 | 3u << 22);
    rig_bp(r, BP_IND_MTXA0 + 4, 0);
    rig_bp(r, BP_IND_MTXA0 + 5, 1u << 22);
    flipper_tev_ind_prepare(r->core, &ind);
    g_assert_cmpint(ind.shift[0], ==, 0);
    g_assert_cmpint(ind.shift[1], ==, -2);
    g_assert_cmpint(ind.mtx[1][0], ==, -1024);

    /* ITF_8, bias S T U (-128), bump S, ITM_0: offsets (72, -28, -78) */
    bump = flipper_tev_indirect(&ind, 7 << 4 | 1 << 7 | 1 << 9, 1000, 2000,
                                indtex, tc);
    g_assert_cmpint(tc[0], ==, 1000 + (512 * 72 >> 3));
    g_assert_cmpint(tc[1], ==, 2000 + (512 * -28 >> 3));
    g_assert_cmpint(bump, ==, 200 & 0xF8);
    /* the same added to the previous coordinate (FB), s wrapped at 64 */
    bump = flipper_tev_indirect(&ind, 7 << 4 | 1 << 9 | 3 << 13 | 1 << 20,
                                10000, 2000, indtex, tc);
    g_assert_cmpint(tc[0], ==, 1000 + 4608 + (10000 & 8191) + 4608);
    g_assert_cmpint(tc[1], ==, 2000 - 1792 + 2000 - 1792);
    g_assert_cmpint(bump, ==, 0);
    /* ITF_5 (A >> 3 = 25, +1 bias on S), ITM_1 x4, bump T << 5 */
    bump = flipper_tev_indirect(&ind, 1 << 2 | 1 << 4 | 2 << 7 | 2 << 9, 0, 0,
                                indtex, tc);
    g_assert_cmpint(tc[0], ==, (-1024 * 26 >> 3) * 4);
    g_assert_cmpint(tc[1], ==, 0);
    g_assert_cmpint(bump, ==, (uint8_t)(100 << 5));
    /* dynamic T matrix (ITM_T0 = 9): s, t * (B >> 4) / 256, ITF_4 */
    bump = flipper_tev_indirect(&ind, 2 << 2 | 9 << 9, 2560, -2560, indtex,
                                tc);
    g_assert_cmpint(tc[0], ==, 2560 + 2560 * 6 / 256);
    g_assert_cmpint(tc[1], ==, -2560 + -2560 * 6 / 256);
    rig_free(r);
}

/* ---- bad input ----------------------------------------------------------- */

static unsigned errors(void)
{
    return g3d_log_count(G3D_LOG_GUEST_ERROR);
}

static void test_bad_maps(void)
{
    FlipperRig *r = rig_new(1);
    TxMap m;
    uint8_t t[4];
    unsigned e;

    memset(r->mem1 + TEX_ADDR, 0x77, 0x1000);
    /* a texture running past the end of MEM1 */
    e = errors();
    set_map(r, 3, TX_FMT_RGBA8, 64, 64, FLIPPER_MEM1_SIZE - 0x1000, 0, 0, 0);
    g_assert_false(flipper_tx_setup(r->core, 3, &m));
    g_assert_cmpuint(errors(), >, e);
    texel_at(&m, 1, 1, t);
    g_assert_cmphex(rgba(t), ==, 0);
    /* its mip chain past MEM1 (level 0 fits) */
    e = errors();
    set_map(r, 3, TX_FMT_I8, 64, 64, FLIPPER_MEM1_SIZE - 4096, 1 << 5,
            0xFF << 8, 0);
    g_assert_false(flipper_tx_setup(r->core, 3, &m));
    g_assert_cmpuint(errors(), >, e);
    /* an address the 24-bit IMAGE_BASE reaches far beyond MEM1 */
    e = errors();
    set_map(r, 3, TX_FMT_I8, 8, 8, 0x1FFFFFE0u, 0, 0, 0);
    g_assert_false(flipper_tx_setup(r->core, 3, &m));
    g_assert_cmpuint(errors(), >, e);
    /* formats 7, 11-13, 15 */
    e = errors();
    set_map(r, 3, 7, 8, 8, TEX_ADDR, 0, 0, 0);
    g_assert_false(flipper_tx_setup(r->core, 3, &m));
    set_map(r, 3, 15, 8, 8, TEX_ADDR, 0, 0, 0);
    g_assert_false(flipper_tx_setup(r->core, 3, &m));
    g_assert_cmpuint(errors(), >=, e + 2);
    /* TLUT format 3 */
    e = errors();
    set_map(r, 3, TX_FMT_C8, 8, 8, TEX_ADDR, 0, 0, 3 << 10);
    g_assert_false(flipper_tx_setup(r->core, 3, &m));
    g_assert_cmpuint(errors(), >, e);
    /* a TLUT at the end of the bank: entries past it read 0 */
    set_map(r, 3, TX_FMT_C14X2, 8, 8, TEX_ADDR, 0, 0, 0x3FF);
    g_assert_true(flipper_tx_setup(r->core, 3, &m));
    texel_at(&m, 0, 0, t);                  /* index 0x3777 > 256 entries */
    g_assert_cmphex(rgba(t), ==, 0);
    /* a preloaded texture running past the end of TMEM */
    e = errors();
    set_map(r, 3, TX_FMT_I8, 8, 8, TEX_ADDR, 0, 0, 0);
    rig_bp(r, BP_TX_REG(BP_TX_SETIMAGE1, 3), 1 << 21 | 0x7FFF);
    g_assert_false(flipper_tx_setup(r->core, 3, &m));
    g_assert_cmpuint(errors(), >, e);
    rig_free(r);
}

/* TMEM preloads: lines to the even address; RGBA8 (type 3) AR halves to
 * the even and GB halves to the odd address; maps read them back */
static void test_preload(void)
{
    FlipperRig *r = rig_new(1);
    GRand *rnd = g_rand_new_with_seed(4);
    uint32_t raw565[8][8], raw8888[8][8];
    uint8_t before[256];
    TxMap m;
    unsigned e;
    int x, y;

    for (y = 0; y < 8; y++) {
        for (x = 0; x < 8; x++) {
            raw565[y][x] = g_rand_int(rnd) & 0xFFFF;
            raw8888[y][x] = g_rand_int(rnd);
            tex_put(TX_FMT_RGB565, r->mem1 + TEX_ADDR, 8, x, y, raw565[y][x]);
            tex_put(TX_FMT_RGBA8, r->mem1 + TEX_ADDR + 0x1000, 8, x, y,
                    raw8888[y][x]);
        }
    }
    /* RGB565 8x8: 4 lines to TMEM line 0x100 */
    rig_bp(r, BP_PRELOAD_ADDR, TEX_ADDR >> 5);
    rig_bp(r, BP_PRELOAD_TMEMEVEN, 0x100);
    rig_bp(r, BP_PRELOAD_MODE, 4);
    /* RGBA8 8x8: 4 tiles, AR to line 0x200, GB to line 0x5000 */
    rig_bp(r, BP_PRELOAD_ADDR, (TEX_ADDR + 0x1000) >> 5);
    rig_bp(r, BP_PRELOAD_TMEMEVEN, 0x200);
    rig_bp(r, BP_PRELOAD_TMEMODD, 0x5000);
    rig_bp(r, BP_PRELOAD_MODE, 4 | 3 << 15);
    rig_bp(r, BP_PRELOAD_MODE, 0);                  /* GX_TexModeSync: nothing */

    set_map(r, 4, TX_FMT_RGB565, 8, 8, 0, 0, 0, 0);
    rig_bp(r, BP_TX_REG(BP_TX_SETIMAGE1, 4), 1 << 21 | 0x100);
    g_assert_true(flipper_tx_setup(r->core, 4, &m));
    for (y = 0; y < 8; y++) {
        for (x = 0; x < 8; x++) {
            uint8_t t[4];
            texel_at(&m, x, y, t);
            g_assert_cmphex(rgba(t), ==, exp_565(raw565[y][x]));
        }
    }
    set_map(r, 4, TX_FMT_RGBA8, 8, 8, 0, 0, 0, 0);
    rig_bp(r, BP_TX_REG(BP_TX_SETIMAGE1, 4), 1 << 21 | 0x200);
    rig_bp(r, BP_TX_REG(BP_TX_SETIMAGE2, 4), 0x5000);
    g_assert_true(flipper_tx_setup(r->core, 4, &m));
    for (y = 0; y < 8; y++) {
        for (x = 0; x < 8; x++) {
            uint8_t t[4];
            texel_at(&m, x, y, t);
            g_assert_cmphex(rgba(t), ==, expect(TX_FMT_RGBA8, raw8888[y][x]));
        }
    }

    /* bad: from outside MEM1 (TMEM unchanged), past the end of TMEM */
    memcpy(before, r->core->tmem + 0x2000, sizeof(before));
    e = errors();
    rig_bp(r, BP_PRELOAD_ADDR, (FLIPPER_MEM1_SIZE - 64) >> 5);
    rig_bp(r, BP_PRELOAD_TMEMEVEN, 0x100);
    rig_bp(r, BP_PRELOAD_MODE, 8);
    g_assert_cmpuint(errors(), >, e);
    g_assert_cmpmem(before, sizeof(before), r->core->tmem + 0x2000,
                    sizeof(before));
    e = errors();
    rig_bp(r, BP_PRELOAD_ADDR, TEX_ADDR >> 5);
    rig_bp(r, BP_PRELOAD_TMEMEVEN, 0x7FFE);         /* 2 lines fit */
    rig_bp(r, BP_PRELOAD_MODE, 8);
    g_assert_cmpuint(errors(), >, e);
    e = errors();
    rig_bp(r, BP_PRELOAD_TMEMODD, 0xFFFFFF);
    rig_bp(r, BP_PRELOAD_MODE, 2 | 3 << 15);
    g_assert_cmpuint(errors(), >, e);
    g_rand_free(rnd);
    rig_free(r);
}

static void test_bad_tlut_loads(void)
{
    FlipperRig *r = rig_new(1);
    uint8_t before[FLIPPER_TMEM_TLUT_SIZE / 64];
    unsigned e;

    memset(r->mem1 + TLUT_ADDR, 0x5A, 0x10000);
    memcpy(before, (r->core->tmem + FLIPPER_TMEM_TLUT_BASE), sizeof(before));
    /* source past MEM1 */
    e = errors();
    rig_bp(r, BP_LOADTLUT0, (FLIPPER_MEM1_SIZE - 64) >> 5);
    rig_bp(r, BP_LOADTLUT1, 0 | 16 << 10);
    g_assert_cmpuint(errors(), >, e);
    g_assert_cmpmem(before, sizeof(before), (r->core->tmem + FLIPPER_TMEM_TLUT_BASE), sizeof(before));
    /* destination past the high bank: offset 0x3FF, 64 blocks */
    e = errors();
    rig_bp(r, BP_LOADTLUT0, TLUT_ADDR >> 5);
    rig_bp(r, BP_LOADTLUT1, 0x3FF | 64 << 10);
    g_assert_cmpuint(errors(), >, e);
    g_assert_cmpuint((r->core->tmem + FLIPPER_TMEM_TLUT_BASE)[FLIPPER_TMEM_TLUT_SIZE - 1], ==, 0);
    /* the largest count at offset 0 fits and loads */
    e = errors();
    rig_bp(r, BP_LOADTLUT1, 0 | 0x7FF << 10);
    g_assert_cmpuint(errors(), ==, e);
    g_assert_cmpuint((r->core->tmem + FLIPPER_TMEM_TLUT_BASE)[0], ==, 0x5A);
    rig_free(r);
}

/* a textured draw whose texture is outside MEM1, whose texgen reads an
 * invalid source row and whose Z texture op is the reserved 3: logged
 * (once per vertex, map and triangle), drawn with zero texels, no crash */
static void test_bad_draw(void)
{
    FlipperRig *r = rig_new(2);
    GByteArray *b = g_byte_array_new();
    unsigned e = errors();
    int i;

    gx_begin_frame(b, 0x804020FF);
    gx_cp(b, CPR_VCD_HI, VCD_DIRECT);
    gx_cp(b, CPR_VAT_A, 0x40016009 | 1u << 21 | VTX_F32 << 22);
    gx_xf1(b, XF_REG_NUMTEX, 1);
    gx_xf1(b, XF_REG_INVTXSPEC, 1 | 1 << 4);
    gx_xf1(b, XF_REG_TEXGEN0, 15 << 7);                /* no such row */
    gx_bp(b, BP_GENMODE, 1 | 1 << 4);
    gx_bp(b, BP_TX_SETIMAGE0, 255 | 255 << 10 | TX_FMT_RGBA8 << 20);
    gx_bp(b, BP_TX_SETIMAGE3, 0xFFFFFF);
    gx_bp(b, BP_TREF0, 0x380040);
    gx_bp(b, BP_TEV_COLOR_ENV0, 0x08FFF8);             /* D = TEXC */
    gx_bp(b, BP_ZTEX2, 3 << 2);
    gx_draw(b, GX_DRAW_TRIANGLES, 0, 3);
    for (i = 0; i < 3; i++) {
        gx_f32(b, i == 1 ? 0.8f : -0.5f);
        gx_f32(b, i == 2 ? 0.8f : -0.5f);
        gx_f32(b, -0.5f);
        gx_u32(b, 0xFFFFFFFF);
        gx_f32(b, 1e30f);
        gx_f32(b, -1e30f);
    }
    flipper_gx_exec(r->core, b->data, b->len);
    flipper_flush(r->core);
    g_assert_cmpuint(errors(), >=, e + 5);
    g_assert_cmphex(flipper_pe_get_color(r->core, 200, 300) >> 8, ==, 0);
    g_byte_array_unref(b);
    rig_free(r);
}

/*
 * The per-format texel fetch (tx.c flipper_tx_choose) against the general
 * one that decodes the format per texel: random maps of every format
 * (sizes, wrap modes, TLUT format and length, preloaded RGBA8, mipmap
 * modes) over random bytes, sampled at random coordinates, LODs and
 * filters both ways; every sample must give the same bytes. The same for
 * quads through flipper_tx_sample4 (four pixels at once, near each other or
 * not, some left out), sizes that are not powers of two included.
 */
static void test_fetch_specialised(void)
{
    static const uint8_t fmts[] = {
        TX_FMT_I4, TX_FMT_I8, TX_FMT_IA4, TX_FMT_IA8, TX_FMT_RGB565,
        TX_FMT_RGB5A3, TX_FMT_RGBA8, TX_FMT_C4, TX_FMT_C8, TX_FMT_C14X2,
        TX_FMT_CMPR,
    };
    enum { SIZE = 64 * 64 * 4 };
    GRand *rng = g_rand_new_with_seed(11);
    uint8_t *mem = g_malloc(3 * SIZE);
    long samples = 0, bad = 0, samples4 = 0, bad4 = 0;
    int i, map, l, quad_formats = 0;

    for (i = 0; i < 3 * SIZE; i++) {
        mem[i] = g_rand_int(rng);
    }
    for (map = 0; map < 2000; map++) {
        TxMap fast = { 0 }, general;

        fast.fmt = fmts[map % G_N_ELEMENTS(fmts)];
        fast.src = mem;
        fast.src_gb = g_rand_boolean(rng) ? mem + SIZE : NULL;
        fast.tlut = mem + 2 * SIZE;
        fast.tlut_len = g_rand_int_range(rng, 0, SIZE + 1);   /* in mem */
        fast.tlut_fmt = g_rand_int_range(rng, 0, 3);
        fast.wrap_s = g_rand_int_range(rng, 0, 3);
        fast.wrap_t = g_rand_int_range(rng, 0, 3);
        fast.mip = g_rand_int_range(rng, 0, 3);
        fast.wm1 = (1 << g_rand_int_range(rng, 0, 7)) - 1;
        fast.hm1 = (1 << g_rand_int_range(rng, 0, 7)) - 1;
        if (g_rand_int_range(rng, 0, 3) == 0) {
            /* sizes that are not powers of two: the masks wrap oddly */
            fast.wm1 = g_rand_int_range(rng, 0, 64);
            fast.hm1 = g_rand_int_range(rng, 0, 64);
        }
        /* every level inside the 64x64 texels at mem */
        for (l = 0; l < TX_MAX_LEVELS; l++) {
            fast.level_off[l] = g_rand_int_range(rng, 0, 64) * 32;
        }
        general = fast;
        flipper_force_general = false;
        flipper_tx_choose(&fast);
        flipper_force_general = true;
        flipper_tx_choose(&general);
        flipper_force_general = false;
        g_assert_true(fast.level != general.level);
        for (i = 0; i < 200; i++) {
            int32_t s = g_rand_int_range(rng, -20000, 20000);
            int32_t t = g_rand_int_range(rng, -20000, 20000);
            int lod = g_rand_int_range(rng, -16, 7 * 16);
            bool linear = g_rand_boolean(rng);
            uint8_t a[4], b[4];

            flipper_tx_sample(&fast, s, t, lod, linear, a);
            flipper_tx_sample(&general, s, t, lod, linear, b);
            bad += memcmp(a, b, 4) != 0;
            samples++;
        }
        /* four pixels at once (flipper_tx_sample4): a quad's coordinates
         * near each other, or anywhere; random pixels left out */
        g_assert_null(general.level4);
        /* I8, IA4, IA8, RGB565, RGB5A3, RGBA8 take the four-pixel fetch */
        g_assert_true((fast.level4 != NULL) ==
                      (fast.fmt == TX_FMT_I8 || fast.fmt == TX_FMT_IA4 ||
                       fast.fmt == TX_FMT_IA8 || fast.fmt == TX_FMT_RGB565 ||
                       fast.fmt == TX_FMT_RGB5A3 || fast.fmt == TX_FMT_RGBA8));
        quad_formats += fast.level4 != NULL;
        for (i = 0; i < 50; i++) {
            int32_t s[4], t[4];
            int lod = g_rand_int_range(rng, -16, 7 * 16);
            bool linear = g_rand_boolean(rng), near = g_rand_boolean(rng);
            unsigned mask = g_rand_int_range(rng, 0, 3) ? 15
                            : g_rand_int_range(rng, 0, 16);
            uint8_t a[4][8], b[4];
            int p;

            for (p = 0; p < 4; p++) {
                s[p] = near && p ? s[0] + g_rand_int_range(rng, -300, 300)
                                 : g_rand_int_range(rng, -20000, 20000);
                t[p] = near && p ? t[0] + g_rand_int_range(rng, -300, 300)
                                 : g_rand_int_range(rng, -20000, 20000);
            }
            memset(a, 0xA5, sizeof(a));
            flipper_tx_sample4(&fast, s, t, lod, linear, mask, a[0], 8);
            for (p = 0; p < 4; p++) {
                if (mask & (1u << p)) {
                    flipper_tx_sample(&general, s[p], t[p], lod, linear, b);
                    bad4 += memcmp(a[p], b, 4) != 0;
                    samples4++;
                }
                /* nothing written between the pixels' texels */
                bad4 += a[p][4] != 0xA5 || a[p][7] != 0xA5;
            }
        }
    }
    printf("# per-format texel fetch vs general: %ld of %ld samples "
           "differ; four at once: %ld of %ld differ\n", bad, samples, bad4,
           samples4);
    g_assert_cmpint(bad, ==, 0);
    g_assert_cmpint(bad4, ==, 0);
    g_assert_cmpint(quad_formats, >, 1000);
    g_free(mem);
    g_rand_free(rng);
}

#ifdef FLIPPER_HAVE_AVX2
/*
 * The eight-pixel RGBA8 sampler (tx.c level8, AVX2) against the map's
 * per-pixel one (level): random RGBA8 maps (sizes, powers of two or not,
 * every wrap mode, preloaded or not, level offsets) over random bytes;
 * eight coordinates a call stepping along a row by 0-3 texels a pixel
 * (pixels whose two columns share a tile row and pixels whose second
 * column is the next tile's or wrapped, in one call), or anywhere, one to
 * three groups a call, at random levels, both filters; every pixel's
 * bytes equal, nothing written past the groups. With g3d_no_avx
 * set the map has no level8. Odd maps at most AVX2 (the AVX2 sampler),
 * even ones at the CPU's best (tx.c sample8_rgba8_avx512 where it has
 * AVX-512 BW).
 */
static void test_fetch_eight(void)
{
    enum { SIZE = 64 * 64 * 4 };
    GRand *rng = g_rand_new_with_seed(23);
    uint8_t *mem = g_malloc(3 * SIZE);
    long samples = 0, bad = 0, pairs = 0;
    int i, map, l;

    if (!__builtin_cpu_supports("avx2")) {
        g_test_skip("the CPU has no AVX2");
        g_free(mem);
        g_rand_free(rng);
        return;
    }
    for (i = 0; i < 3 * SIZE; i++) {
        mem[i] = g_rand_int(rng);
    }
    for (map = 0; map < 3000; map++) {
        TxMap m = { 0 };

        m.fmt = TX_FMT_RGBA8;
        m.src = mem;
        m.src_gb = g_rand_boolean(rng) ? mem + SIZE : NULL;
        m.wrap_s = g_rand_int_range(rng, 0, 4);
        m.wrap_t = g_rand_int_range(rng, 0, 4);
        m.wm1 = (1 << g_rand_int_range(rng, 0, 7)) - 1;
        m.hm1 = (1 << g_rand_int_range(rng, 0, 7)) - 1;
        if (g_rand_int_range(rng, 0, 3) == 0) {
            m.wm1 = g_rand_int_range(rng, 0, 64);
            m.hm1 = g_rand_int_range(rng, 0, 64);
        }
        for (l = 0; l < TX_MAX_LEVELS; l++) {
            m.level_off[l] = g_rand_int_range(rng, 0, 64) * 32;
        }
        g3d_no_avx = true;
        flipper_tx_choose(&m);
        g_assert_null(m.level8);
        g3d_no_avx = false;
        /* the AVX2 sampler, then the CPU's best (AVX-512's, where it has
         * AVX-512 BW) */
        g3d_simd_max = map & 1 ? G3D_SIMD_AVX2 : G3D_SIMD_AVX512;
        flipper_tx_choose(&m);
        g3d_simd_max = G3D_SIMD_AVX512;
        g_assert_nonnull(m.level8);
        for (i = 0; i < 40; i++) {
            int32_t s[24] __attribute__((aligned(32)));
            int32_t t[24] __attribute__((aligned(32)));
            uint32_t out[32] __attribute__((aligned(32)));
            int level = g_rand_int_range(rng, 0, 4), p;
            int n = g_rand_int_range(rng, 1, 4);     /* groups of eight */
            bool linear = g_rand_int_range(rng, 0, 4) != 0;
            bool row = g_rand_int_range(rng, 0, 4) != 0;
            int step = g_rand_int_range(rng, 0, 3 * 128 + 1);

            s[0] = g_rand_int_range(rng, -20000, 20000);
            t[0] = g_rand_int_range(rng, -20000, 20000);
            for (p = 1; p < 8 * n; p++) {
                s[p] = row ? s[p - 1] + step
                           : g_rand_int_range(rng, -20000, 20000);
                t[p] = row ? t[0] + g_rand_int_range(rng, -8, 9)
                           : g_rand_int_range(rng, -20000, 20000);
            }
            memset(out, 0xA5, sizeof(out));
            m.level8(&m, (const __m256i *)s, (const __m256i *)t, n, level,
                     linear, (__m256i *)out);
            for (p = 0; p < 8 * n; p++) {
                uint8_t b[4];
                int is = ((s[p] >> level) - 64) >> 7;

                m.level(&m, s[p], t[p], level, linear, b);
                bad += memcmp(&out[p], b, 4) != 0;
                pairs += linear && (is & 3) != 3;
                samples++;
            }
            /* nothing past the n groups */
            for (p = 8 * n; p < 32; p++) {
                bad += out[p] != 0xA5A5A5A5u;
            }
        }
    }
    printf("# eight-pixel RGBA8 sampler vs per pixel: %ld of %ld samples "
           "differ (%ld with both columns in a tile row)\n", bad, samples,
           pairs);
    g_assert_cmpint(bad, ==, 0);
    g_assert_cmpint(pairs, >, samples / 4);
    g_free(mem);
    g_rand_free(rng);
}
#endif

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/flipper/tex/direct-formats", test_direct_formats);
    g_test_add_func("/flipper/tex/cmpr", test_cmpr);
    g_test_add_func("/flipper/tex/paletted", test_paletted);
    g_test_add_func("/flipper/tex/wrap", test_wrap);
    g_test_add_func("/flipper/tex/bilinear", test_bilinear);
    g_test_add_func("/flipper/tex/fetch-specialised", test_fetch_specialised);
#ifdef FLIPPER_HAVE_AVX2
    g_test_add_func("/flipper/tex/fetch-eight", test_fetch_eight);
#endif
    g_test_add_func("/flipper/tex/mipmap", test_mipmap);
    g_test_add_func("/flipper/tex/lod", test_lod);
    g_test_add_func("/flipper/tex/preload", test_preload);
    g_test_add_func("/flipper/tex/indirect", test_indirect);
    g_test_add_func("/flipper/tex/bad-maps", test_bad_maps);
    g_test_add_func("/flipper/tex/bad-tlut-loads", test_bad_tlut_loads);
    g_test_add_func("/flipper/tex/bad-draw", test_bad_draw);
    return g_test_run();
}
