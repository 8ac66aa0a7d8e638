/*
 * Compressed textures (hw/gpu3d/attila/texture-compression.c and the
 * Texture Unit's decoded space, ATTILA ref. Texture Registers,
 * TextureCompression, Texture Tiling). Blocks are built here from the S3TC
 * (EXT_texture_compression_s3tc) and LATC (EXT_texture_compression_latc)
 * definitions and the expected texels are worked out from those definitions in
 * exact arithmetic: the decoder may differ by the one step of its truncating
 * 8-bit store (the simulator's u8(c * 255)), never more. Then the Texture Unit
 * samples a DXT1 texture whose blocks are placed as the ATTILA driver places
 * them (a 4x4 block is one first-level tile of the 4.3 tiling), texel by texel.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "attila/attila-int.h"
#include "same-words.h"

/* the decoded 8-bit value `got` against the exact value `exact` in [0, 1] */
static void check_unorm(uint8_t got, double exact)
{
    double e = exact * 255.0;

    if (!(got <= e + 1e-6 && got >= floor(e + 1e-6) - 1)) {
        g_error("decoded %u, exact %.4f (x255)", got, e);
    }
}

static void check_snorm(uint8_t got, double exact)
{
    double e = exact * 127.0;
    int g = (int8_t)got;

    /* truncation toward zero, one step of slack */
    if (!(fabs((double)g) <= fabs(e) + 1e-6 && fabs(g - e) < 1.0 + 1e-6)) {
        g_error("decoded %d, exact %.4f (x127)", g, e);
    }
}

static uint16_t rgb565(int r, int g, int b)
{
    return (uint16_t)(r << 11 | g << 5 | b);
}

/* a colour block: endpoints c0, c1 and one 2-bit code per texel (row-major) */
static void color_block(uint8_t *p, uint16_t c0, uint16_t c1,
                        const int code[16])
{
    int t;

    p[0] = c0;
    p[1] = c0 >> 8;
    p[2] = c1;
    p[3] = c1 >> 8;
    memset(p + 4, 0, 4);
    for (t = 0; t < 16; t++) {
        p[4 + t / 4] |= code[t] << (2 * (t % 4));
    }
}

/* 3-bit codes of a DXT5 alpha / LATC channel: endpoints e0, e1 */
static void channel_block(uint8_t *p, uint8_t e0, uint8_t e1,
                          const int code[16])
{
    uint64_t bits = 0;
    int t;

    p[0] = e0;
    p[1] = e1;
    for (t = 0; t < 16; t++) {
        bits |= (uint64_t)code[t] << (3 * t);
    }
    for (t = 0; t < 6; t++) {
        p[2 + t] = bits >> (8 * t);
    }
}

/* Morton position of texel (i, j) of a block */
static uint32_t mpos(int i, int j)
{
    return attila_morton(i, j, 2);
}

/* the exact palette of the S3TC definition: 4 or 3 colours (+ black) */
static void palette(uint16_t c0, uint16_t c1, bool four, double pal[4][3])
{
    double a[3] = { (c0 >> 11) / 31.0, ((c0 >> 5) & 63) / 63.0, (c0 & 31) / 31.0 };
    double b[3] = { (c1 >> 11) / 31.0, ((c1 >> 5) & 63) / 63.0, (c1 & 31) / 31.0 };
    int k;

    for (k = 0; k < 3; k++) {
        pal[0][k] = a[k];
        pal[1][k] = b[k];
        if (four) {
            pal[2][k] = (2 * a[k] + b[k]) / 3;
            pal[3][k] = (a[k] + 2 * b[k]) / 3;
        } else {
            pal[2][k] = (a[k] + b[k]) / 2;
            pal[3][k] = 0;
        }
    }
}

static const int codes2[16] = { 0, 1, 2, 3, 3, 2, 1, 0, 1, 1, 2, 2, 0, 3, 0, 3 };
static const int codes3[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 7, 6, 5, 4, 3, 2, 1, 0 };

static void test_dxt1(void)
{
    /* color0 > color1: four colours, opaque; color0 <= color1: three
     * colours, code 3 black (DXT1 RGB) or transparent black (RGBA) */
    static const uint16_t ends[][2] = {
        { 0xf800 | 0x07e0, 0x001f },            /* 4 colours */
        { 0x001f, 0xf800 | 0x07e0 },            /* 3 colours */
        { 0x8410, 0x8410 },                     /* equal: 3 colours */
    };
    uint8_t blk[8], out[64];
    size_t e;
    int t, k, fmt;

    for (e = 0; e < G_N_ELEMENTS(ends); e++) {
        uint16_t c0 = ends[e][0], c1 = ends[e][1];
        bool four = c0 > c1;
        double pal[4][3];

        palette(c0, c1, four, pal);
        color_block(blk, c0, c1, codes2);
        for (fmt = ATTILA_TC_DXT1_RGB; fmt <= ATTILA_TC_DXT1_RGBA; fmt++) {
            memset(out, 0xcc, sizeof(out));
            attila_tc_decode(fmt, blk, 0, 16, out);
            for (t = 0; t < 16; t++) {
                const uint8_t *o = out + 4 * mpos(t % 4, t / 4);
                int c = codes2[t];
                for (k = 0; k < 3; k++) {
                    check_unorm(o[k], pal[c][k]);
                }
                if (!four && c == 3) {
                    /* black, exactly */
                    g_assert_cmpuint(o[0] | o[1] | o[2], ==, 0);
                    g_assert_cmpuint(o[3], ==, fmt == ATTILA_TC_DXT1_RGBA ? 0 : 255);
                } else {
                    g_assert_cmpuint(o[3], ==, 255);
                }
            }
        }
    }
    /* endpoints at the ends of the range decode exactly */
    color_block(blk, 0xffff, 0x0000, codes2);
    attila_tc_decode(ATTILA_TC_DXT1_RGB, blk, 0, 16, out);
    g_assert_cmphex(out[0] | out[1] << 8 | out[2] << 16, ==, 0xffffff);
    g_assert_cmphex(out[4 * mpos(1, 0)] | out[4 * mpos(1, 0) + 1], ==, 0);
    /* a partial decode writes only the texels asked for */
    memset(out, 0xcc, sizeof(out));
    attila_tc_decode(ATTILA_TC_DXT1_RGB, blk, 5, 1, out);
    g_assert_cmpuint(out[4 * 4], ==, 0xcc);
    g_assert_cmpuint(out[4 * 6], ==, 0xcc);
    g_assert_cmpuint(out[4 * 5 + 3], ==, 255);
}

static void test_dxt3(void)
{
    uint8_t blk[16], out[64];
    uint16_t c0 = rgb565(3, 60, 7), c1 = rgb565(28, 2, 30);
    double pal[4][3];
    int t, k;

    /* explicit 4-bit alpha, texel t = 15 - t; colours always 4-colour mode
     * even with color0 <= color1 */
    for (t = 0; t < 16; t += 2) {
        blk[t / 2] = (15 - t) | (15 - (t + 1)) << 4;
    }
    color_block(blk + 8, c0, c1, codes2);
    palette(c0, c1, true, pal);
    attila_tc_decode(ATTILA_TC_DXT3_RGBA, blk, 0, 16, out);
    for (t = 0; t < 16; t++) {
        const uint8_t *o = out + 4 * mpos(t % 4, t / 4);
        for (k = 0; k < 3; k++) {
            check_unorm(o[k], pal[codes2[t]][k]);
        }
        check_unorm(o[3], (15 - t) / 15.0);
    }
    g_assert_cmpuint(out[3], ==, 255);          /* texel 0: alpha 15 */
    g_assert_cmpuint(out[4 * 15 + 3], ==, 0);   /* texel 15: alpha 0 */
}

/* the exact 3-bit channel value of the DXT5 / LATC definition */
static double channel(int code, double e0, double e1, bool sign)
{
    if (code == 0) {
        return e0;
    }
    if (code == 1) {
        return e1;
    }
    if (e0 > e1) {
        return ((8 - code) * e0 + (code - 1) * e1) / 7;
    }
    if (code == 6) {
        return sign ? -1 : 0;
    }
    if (code == 7) {
        return 1;
    }
    return ((6 - code) * e0 + (code - 1) * e1) / 5;
}

static void test_dxt5(void)
{
    static const uint8_t ends[][2] = { { 240, 17 }, { 17, 240 } };
    uint8_t blk[16], out[64];
    uint16_t c0 = rgb565(31, 0, 0), c1 = rgb565(0, 63, 31);
    double pal[4][3];
    size_t e;
    int t, k;

    palette(c0, c1, true, pal);
    for (e = 0; e < G_N_ELEMENTS(ends); e++) {
        channel_block(blk, ends[e][0], ends[e][1], codes3);
        color_block(blk + 8, c0, c1, codes2);
        attila_tc_decode(ATTILA_TC_DXT5_RGBA, blk, 0, 16, out);
        for (t = 0; t < 16; t++) {
            const uint8_t *o = out + 4 * mpos(t % 4, t / 4);
            for (k = 0; k < 3; k++) {
                check_unorm(o[k], pal[codes2[t]][k]);
            }
            check_unorm(o[3], channel(codes3[t], ends[e][0] / 255.0,
                                      ends[e][1] / 255.0, false));
        }
    }
    /* six-value mode: codes 6 and 7 are 0 and 255 exactly */
    g_assert_cmpuint(out[4 * mpos(2, 1) + 3], ==, 0);      /* t = 6 */
    g_assert_cmpuint(out[4 * mpos(3, 1) + 3], ==, 255);    /* t = 7 */
}

static void test_latc(void)
{
    static const uint8_t ends[][2] = {
        { 200, 20 }, { 20, 200 }, { 0x90, 0x70 }, { 0x70, 0x90 }, { 0x80, 0x7f },
    };
    uint8_t blk[16], out[64];
    size_t e;
    int t, sign;

    for (e = 0; e < G_N_ELEMENTS(ends); e++) {
        for (sign = 0; sign < 2; sign++) {
            double e0, e1;
            int fmt1 = sign ? ATTILA_TC_LATC1_SIGNED : ATTILA_TC_LATC1;
            int fmt2 = sign ? ATTILA_TC_LATC2_SIGNED : ATTILA_TC_LATC2;

            if (sign) {
                /* signed endpoints: -128 is -1.0 like -127 */
                e0 = MAX((int8_t)ends[e][0], -127) / 127.0;
                e1 = MAX((int8_t)ends[e][1], -127) / 127.0;
            } else {
                e0 = ends[e][0] / 255.0;
                e1 = ends[e][1] / 255.0;
            }
            channel_block(blk, ends[e][0], ends[e][1], codes3);
            attila_tc_decode(fmt1, blk, 0, 16, out);
            for (t = 0; t < 16; t++) {
                double x = channel(codes3[t], e0, e1, sign);
                uint8_t got = out[mpos(t % 4, t / 4)];
                if (sign) {
                    check_snorm(got, x);
                } else {
                    check_unorm(got, x);
                }
            }
            /* LATC2: luminance block, then alpha block (codes reversed) */
            channel_block(blk + 8, ends[e][1], ends[e][0], codes3);
            attila_tc_decode(fmt2, blk, 0, 16, out);
            for (t = 0; t < 16; t++) {
                const uint8_t *o = out + 2 * mpos(t % 4, t / 4);
                double l = channel(codes3[t], e0, e1, sign);
                double a = channel(codes3[t], e1, e0, sign);
                if (sign) {
                    check_snorm(o[0], l);
                    check_snorm(o[1], a);
                } else {
                    check_unorm(o[0], l);
                    check_unorm(o[1], a);
                }
            }
        }
    }
    /* signed six-value mode: code 6 is -1.0 (-127), code 7 is +1.0 */
    channel_block(blk, 0x10, 0x20, codes3);
    attila_tc_decode(ATTILA_TC_LATC1_SIGNED, blk, 0, 16, out);
    g_assert_cmpint((int8_t)out[mpos(2, 1)], ==, -127);
    g_assert_cmpint((int8_t)out[mpos(3, 1)], ==, 127);
    attila_tc_decode(ATTILA_TC_LATC1, blk, 0, 16, out);
    g_assert_cmpint(out[mpos(2, 1)], ==, 0);
    g_assert_cmpint(out[mpos(3, 1)], ==, 255);
    /* sizes of ATTILA ref. Texture Registers, TextureCompression */
    g_assert_cmpuint(attila_tc_block_bytes(ATTILA_TC_DXT1_RGB), ==, 8);
    g_assert_cmpuint(attila_tc_block_bytes(ATTILA_TC_DXT5_RGBA), ==, 16);
    g_assert_cmpuint(attila_tc_block_bytes(ATTILA_TC_LATC1_SIGNED), ==, 8);
    g_assert_cmpuint(attila_tc_block_bytes(ATTILA_TC_LATC2), ==, 16);
    g_assert_cmpuint(attila_tc_block_bytes(ATTILA_TC_NONE), ==, 0);
}

/*
 * A 32x16 DXT1 texture sampled texel by texel (nearest): block (bx, by)
 * is solid colour index bx + 8 * by, stored where the driver puts it
 * (GPUDriver::getDataInMortonOrder: Morton order of the block grid, the
 * 4.3 tiling with 1x1-block tiles), after a skew of `mis` bytes.
 */
static void test_sample_dxt1(void)
{
    const uint32_t w = 32, h = 16, mis = 0;
    AttilaDrawState *ds = g_new0(AttilaDrawState, 1);
    AttilaRenderCtx ctx = { .ds = ds };
    AttilaTexState *ts = &ds->tex[0];
    uint8_t *mem = g_malloc0(8 * 64);
    uint32_t bx, by, i, j;

    for (by = 0; by < h / 4; by++) {
        for (bx = 0; bx < w / 4; bx++) {
            uint32_t n = bx + 8 * by;
            static const int zero[16];
            color_block(mem + mis + 8 * attila_morton(bx, by, 4),
                        rgb565(n & 31, (n * 7) & 63, 31 - (n & 31)), 0, zero);
        }
    }
    ts->enabled = true;
    ts->mode = ATTILA_TEX_2D;
    ts->format = ATTILA_FMT_RGBA8888;
    ts->compression = ATTILA_TC_DXT1_RGB;
    ts->bytes = 4;
    ts->tc_block = 8;
    ts->tc_texel = 4;
    ts->width = w;
    ts->height = h;
    ts->depth = 1;
    ts->width2 = 5;
    ts->height2 = 4;
    ts->max_lod = 12;
    ts->max_level = 0;
    ts->nlevels = 1;
    ts->min_filter = ts->mag_filter = ATTILA_NEAREST;
    ts->wrap[0] = ts->wrap[1] = ATTILA_CLAMP_TO_EDGE;
    ts->level[0][0] = (AttilaTexLevel){ mem, w, h, 1, 0 };
    for (j = 0; j < h; j++) {
        for (i = 0; i < w; i++) {
            AttilaVec4 c[4], r[4];
            float param[4] = { 0 };
            uint32_t n = i / 4 + 8 * (j / 4);
            int l;

            for (l = 0; l < 4; l++) {
                c[l].f[0] = (i + 0.5f) / w;
                c[l].f[1] = (j + 0.5f) / h;
                c[l].f[2] = 0;
                c[l].f[3] = 1;
            }
            attila_texture_sample(&ctx, ATTILA_TEXOP_READ, 0, c, param, r);
            check_unorm((uint8_t)lrintf(r[0].f[0] * 255), (n & 31) / 31.0);
            check_unorm((uint8_t)lrintf(r[0].f[1] * 255), ((n * 7) & 63) / 63.0);
            check_unorm((uint8_t)lrintf(r[0].f[2] * 255), (31 - (n & 31)) / 31.0);
            g_assert_cmpfloat(r[0].f[3], ==, 1.0f);
        }
    }
    g_free(mem);
    g_free(ds);
}

/*
 * a texture coordinate: mostly in [0, 1], some far out (past 2^23, where
 * a float is whole and the lanes' floor is the value), some not finite,
 * -0 and tiny negatives (whose floors are -0 and -1)
 */
static float random_coord(GRand *rnd)
{
    switch (g_rand_int_range(rnd, 0, 15)) {
    case 0:  return (float)g_rand_double_range(rnd, -40.0, 40.0);
    case 1:  return NAN;
    case 2:  return g_rand_boolean(rnd) ? INFINITY : -INFINITY;
    case 3:  return (float)g_rand_int_range(rnd, -2, 3) * 0.5f;
    case 12: return (float)ldexp(g_rand_double_range(rnd, -2.0, 2.0),
                                 g_rand_int_range(rnd, 22, 40));
    case 13: return g_rand_boolean(rnd) ? -0.0f : -1e-30f;
    case 14: return (float)g_rand_double_range(rnd, -1e-6, 1e-6);
    default: return (float)g_rand_double_range(rnd, -0.2, 1.2);
    }
}

/*
 * The Texture Unit's RGBA8888 Morton path (AttilaTexState.rgba8_morton)
 * against the general one: random 2D and cube textures of 1-256 texels a
 * side (powers of two or not, one or more superblocks) with random mip levels, every wrap mode and
 * filter, LOD bias, clamps and levels, V inversion, the D3D9 swap, reversed
 * order, non-normalised coordinates, quads of random coordinates (some far
 * outside, NaN, infinite), TEX and TXL: the four results byte-equal (a
 * NaN's payload aside).
 * Checked to fail when the path reads texels with the wrong superblock
 * row width, when it skips the D3D9 swap, and when its bilinear footprint
 * (the columns' and rows' offset parts) takes a row part by column or
 * reads the column just past the level's width; and (branch attila11)
 * when the path without LOD samples the level after the base one or also
 * takes NEAREST_MIPMAP_NEAREST both ways, when its filter in lanes weighs
 * texel 2 as texel 1, leaves out the D3D9 swap or reverses B and G in
 * place, or converts the bytes as 7-bit values; and (branch attila12)
 * when the quad in lanes (sample_quad_linear_rgba8) floors without its
 * whole-number blend, clamps NaN to the lower bound, puts the row part on
 * the even bits, compares indices signed, wraps the next index by size +
 * 1, swaps the weights, doubles the superblock row, swaps two fragments'
 * v, keeps an outside texel's word, takes 7-bit channels, multiplies
 * texel 3's weights in the other order, leaves fragment 0 unreversed or
 * reads the texels one word on; and (branch attila17) when its AVX2
 * filter (two channels a vector, filter_avx2, taken at random where the
 * CPU has AVX2) took fragment 1's odd channels from its even bytes,
 * swapped a vector's two channels, multiplied texel 3's weights in the
 * other order, took 1 - a for 1 - b in the upper half, or converted 7-bit
 * bytes; and (branch attila26) when the AVX2 footprints (u and v in one
 * vector, the texels by gathers; the quads given filter_avx2) put v's
 * Morton bits on the even bits, floored by truncation, took u's clamp
 * bounds or index limit for v, REPEAT's fraction in the other half, V
 * inversion of u, read an unmapped level, left out the superblock row's
 * padded width, or kept an outside texel's word; and (branch attila30)
 * when the quad read's state made once a draw (attila_texture_prepare_quad)
 * took v's clamp bounds from u's size or v's index limit from u's wrap,
 * left out the mapping, did not refuse MIRRORED_REPEAT or left out
 * REPEAT's blend beside a clamp, and when the AVX2 filter's byte picks
 * left out the D3D9 swap, reversed only channels 0 and 3, or took
 * channels 2-3 from 0-1's bytes.
 */
static void test_rgba8_vs_general(void)
{
    GRand *rnd = g_rand_new_with_seed(88);
    AttilaDrawState *ds = g_new0(AttilaDrawState, 1);
    AttilaRenderCtx ctx = { .ds = ds };
    AttilaTexState *ts = &ds->tex[0];
    uint8_t *mem[8][ATTILA_CUBEMAP_IMAGES];
    /* up to 256 x 256 texels: 4 x 4 superblocks of 64 x 64 */
    const size_t level_bytes = 256 * 256 * 4;
    uint32_t l, f, quads = 0, quads_avx2 = 0;
    int n, q, k;

    for (l = 0; l < 8; l++) {
        for (f = 0; f < ATTILA_CUBEMAP_IMAGES; f++) {
            mem[l][f] = g_malloc(level_bytes);
            for (k = 0; k < (int)level_bytes; k += 4) {
                uint32_t v = g_rand_int(rnd);
                memcpy(mem[l][f] + k, &v, 4);
            }
        }
    }
    for (n = 0; n < 3000; n++) {
        uint32_t w = g_rand_boolean(rnd) ? 1u << g_rand_int_range(rnd, 0, 9) :
                     (uint32_t)g_rand_int_range(rnd, 1, 257);
        uint32_t h = g_rand_boolean(rnd) ? 1u << g_rand_int_range(rnd, 0, 9) :
                     (uint32_t)g_rand_int_range(rnd, 1, 257);
        bool cube = g_rand_int_range(rnd, 0, 4) == 0;

        memset(ts, 0, sizeof(*ts));
        ts->enabled = true;
        ts->mode = cube ? ATTILA_TEX_CUBEMAP : ATTILA_TEX_2D;
        ts->format = ATTILA_FMT_RGBA8888;
        ts->bytes = 4;
        ts->width = w;
        ts->height = cube ? w : h;
        ts->depth = 1;
        ts->width2 = attila_log2_ceil(w);
        ts->height2 = attila_log2_ceil(ts->height);
        for (k = 0; k < 3; k++) {
            ts->wrap[k] = g_rand_int_range(rnd, ATTILA_CLAMP,
                                           ATTILA_MIRRORED_REPEAT + 1);
        }
        ts->min_filter = g_rand_int_range(rnd, ATTILA_NEAREST,
                                          ATTILA_LINEAR_MIPMAP_LINEAR + 1);
        /* GL's magnification filters, and sometimes a mipmap mode (a
         * guest may write one); a quarter of the textures with one filter
         * both ways (the path's LOD left out for NEAREST and LINEAR) */
        ts->mag_filter = g_rand_int_range(rnd, 0, 8) ?
                         g_rand_int_range(rnd, ATTILA_NEAREST,
                                          ATTILA_LINEAR + 1) :
                         g_rand_int_range(rnd, ATTILA_NEAREST,
                                          ATTILA_LINEAR_MIPMAP_LINEAR + 1);
        if (g_rand_int_range(rnd, 0, 4) == 0) {
            ts->min_filter = ts->mag_filter;
        }
        if (g_rand_int_range(rnd, 0, 4) == 0) {
            /* LINEAR both ways: the quad's four reads in lanes
             * (sample_quad_linear_rgba8) */
            ts->min_filter = ts->mag_filter = ATTILA_LINEAR;
        }
        ts->v_invert = g_rand_int_range(rnd, 0, 4) == 0;
        ts->d3d9_conv = g_rand_int_range(rnd, 0, 4) == 0;
        ts->reverse = g_rand_int_range(rnd, 0, 4) == 0;
        ts->non_normalized = g_rand_int_range(rnd, 0, 8) == 0;
        ts->min_lod = g_rand_boolean(rnd) ? 0.0f :
                      (float)g_rand_double_range(rnd, -2, 3);
        ts->max_lod = g_rand_boolean(rnd) ? 12.0f :
                      (float)g_rand_double_range(rnd, 0, 6);
        ts->lod_bias = g_rand_int_range(rnd, 0, 3) ? 0.0f :
                       (float)g_rand_double_range(rnd, -3, 3);
        ts->min_level = g_rand_int_range(rnd, 0, 2);
        ts->max_level = g_rand_int_range(rnd, ts->min_level, 8);
        ts->nlevels = 8;
        for (l = 0; l < 8; l++) {
            for (f = 0; f < (cube ? ATTILA_CUBEMAP_IMAGES : 1u); f++) {
                AttilaTexLevel *lv = &ts->level[l][f];
                bool in = l >= ts->min_level && l <= ts->max_level;
                lv->ptr = in && g_rand_int_range(rnd, 0, 30) ? mem[l][f] : NULL;
                lv->width = in ? MAX(w >> l, 1u) : 0;
                lv->height = in ? MAX(ts->height >> l, 1u) : 0;
                lv->depth = in;
            }
        }
        for (q = 0; q < 8; q++) {
            AttilaVec4 c[4], got[4], want[4];
            float param[4];
            AttilaTexOp op = g_rand_int_range(rnd, 0, 4) ? ATTILA_TEXOP_READ :
                             ATTILA_TEXOP_READ_LOD;
            for (k = 0; k < 16; k++) {
                c[k / 4].f[k % 4] = random_coord(rnd);
            }
            if (g_rand_boolean(rnd)) {
                /* a quad of neighbouring pixels */
                float du = (float)g_rand_double_range(rnd, -0.1, 0.1);
                float dv = (float)g_rand_double_range(rnd, -0.1, 0.1);
                for (k = 1; k < 4; k++) {
                    c[k] = c[0];
                    c[k].f[0] += (k & 1) * du;
                    c[k].f[1] += (k >> 1) * dv;
                }
            }
            for (k = 0; k < 4; k++) {
                param[k] = g_rand_int_range(rnd, 0, 3) ? 0.0f :
                           (float)g_rand_double_range(rnd, -2, 4);
            }
            /* the LINEAR quads' filter in AVX2 or in SSE2 lanes */
            ts->filter_avx2 = g3d_use_avx2() && g_rand_boolean(rnd);
            ts->rgba8_morton = true;
            /* the quad path's checks and constants, as the draw's build */
            attila_texture_prepare_quad(ts);
            attila_texture_sample(&ctx, op, 0, c, param, got);
            ts->rgba8_morton = false;
            attila_texture_sample(&ctx, op, 0, c, param, want);
            /* NaN payloads aside (same-words.h) */
            g_assert_true(attila_same_words(got, want, sizeof(got)));

            /*
             * the shader's one call with the lanes' registers
             * (attila_texture_sample_quad): registers apart in memory,
             * the general read's result when it takes the quad, nothing
             * written when it does not
             */
            {
                AttilaVec4 reg[4][3];
                const float *cp[4];
                float *rp[4];

                memset(reg, 0x5a, sizeof(reg));
                for (k = 0; k < 4; k++) {
                    reg[k][k % 3] = c[k];
                    cp[k] = reg[k][k % 3].f;
                    rp[k] = reg[k][(k + 1) % 3].f;
                }
                ts->rgba8_morton = true;
                if (attila_texture_sample_quad(&ctx, 0, cp, rp)) {
                    quads++;
                    quads_avx2 += ts->filter_avx2;
                    for (k = 0; k < 4; k++) {
                        g_assert_true(attila_same_words(rp[k], want[k].f,
                                                        sizeof(want[k])));
                    }
                } else {
                    for (k = 0; k < 4; k++) {
                        g_assert_cmphex(reg[k][(k + 1) % 3].u[0], ==,
                                        0x5a5a5a5au);
                    }
                }
                ts->rgba8_morton = false;
            }
        }
    }
    /* the quad path taken often enough to mean something */
    g_test_message("quads by pointers: %u, %u of them filtered in AVX2",
                   quads, quads_avx2);
    g_assert_cmpuint(quads, >, 1000);
    g_assert_true(!g3d_use_avx2() || quads_avx2 > 500);
    for (l = 0; l < 8; l++) {
        for (f = 0; f < ATTILA_CUBEMAP_IMAGES; f++) {
            g_free(mem[l][f]);
        }
    }
    g_free(ds);
    g_rand_free(rnd);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/attila/texture/dxt1", test_dxt1);
    g_test_add_func("/attila/texture/dxt3", test_dxt3);
    g_test_add_func("/attila/texture/dxt5", test_dxt5);
    g_test_add_func("/attila/texture/latc", test_latc);
    g_test_add_func("/attila/texture/sample-dxt1", test_sample_dxt1);
    g_test_add_func("/attila/texture/rgba8-vs-general", test_rgba8_vs_general);
    return g_test_run();
}
