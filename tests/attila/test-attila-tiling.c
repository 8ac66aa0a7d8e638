/*
 * Unit tests of ATTILA's memory layouts (hw/gpu3d/attila/pixel-mapper.c)
 * and of the DAC that de-tiles them (dac.c): the render-buffer address
 * function against the check values of ATTILA ref. Render Buffer Tiling,
 * one-to-one for every size, sample count and pixel width; the texture tiling
 * against the Morton example of ATTILA ref. Texture Tiling; and the DAC's
 * de-tiling, vertical flip and multisample resolve on a surface written through
 * the address function.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attila/attila-int.h"

static void test_check_values(void)
{
    /* ATTILA ref. Render Buffer Tiling: 128x128, 4-byte pixels, one sample */
    static const struct { uint32_t x, y, addr; } cv[] = {
        { 0, 0, 0x0 }, { 1, 0, 0x4 }, { 2, 0, 0x10 }, { 0, 1, 0x8 },
        { 0, 2, 0x40 }, { 8, 0, 0x100 }, { 16, 0, 0x400 }, { 0, 16, 0x800 },
        { 64, 0, 0x4000 }, { 0, 64, 0x8000 },
    };
    AttilaPixelMapper pm;
    size_t i;

    g_assert_true(attila_pixel_mapper_init(&pm, 128, 128, 1, 4));
    for (i = 0; i < G_N_ELEMENTS(cv); i++) {
        g_assert_cmphex(attila_pixel_address(&pm, cv[i].x, cv[i].y), ==,
                        cv[i].addr);
    }
    /* ceil(xRes / 64) * ceil(yRes / 64) * 4096 * samples * B */
    g_assert_cmpuint(pm.surface, ==, 2 * 2 * 4096 * 4);
    g_assert_true(attila_pixel_mapper_init(&pm, 250, 250, 4, 8));
    g_assert_cmpuint(pm.surface, ==, 4 * 4 * 4096 * 4 * 8);
}

/* every sample of every pixel has its own slot inside the surface */
static void check_one_to_one(uint32_t w, uint32_t h, uint32_t samples,
                             uint32_t bytes)
{
    AttilaPixelMapper pm;
    uint8_t *used;
    uint32_t x, y, s;
    uint64_t slots, hits = 0;

    g_assert_true(attila_pixel_mapper_init(&pm, w, h, samples, bytes));
    slots = pm.surface / bytes;
    used = g_malloc0(slots);
    for (y = 0; y < h; y++) {
        for (x = 0; x < w; x++) {
            uint32_t a = attila_pixel_address(&pm, x, y);
            g_assert_cmpuint(a % (samples * bytes), ==, 0);
            for (s = 0; s < samples; s++) {
                uint64_t slot = a / bytes + s;
                g_assert_cmpuint(slot, <, slots);
                g_assert_cmpuint(used[slot], ==, 0);
                used[slot] = 1;
                hits++;
            }
        }
    }
    g_assert_cmpuint(hits, ==, (uint64_t)w * h * samples);
    /* a whole number of over-scan tiles is exactly covered */
    if (w % 64 == 0 && h % 64 == 0) {
        g_assert_cmpuint(hits, ==, slots);
    }
    g_free(used);
}

static void test_one_to_one(void)
{
    static const uint32_t sizes[][2] = {
        { 128, 128 }, { 250, 250 }, { 632, 446 }, { 640, 480 }, { 1, 1 },
        { 65, 3 }, { 384, 364 },
    };
    static const uint32_t samples[] = { 1, 2, 4, 8 };
    size_t i, k;

    for (i = 0; i < G_N_ELEMENTS(sizes); i++) {
        for (k = 0; k < G_N_ELEMENTS(samples); k++) {
            check_one_to_one(sizes[i][0], sizes[i][1], samples[k], 4);
            check_one_to_one(sizes[i][0], sizes[i][1], samples[k], 8);
        }
    }
}

static void test_bad_geometry(void)
{
    AttilaPixelMapper pm;

    g_assert_false(attila_pixel_mapper_init(&pm, 0, 10, 1, 4));
    g_assert_false(attila_pixel_mapper_init(&pm, 10, 0, 1, 4));
    g_assert_false(attila_pixel_mapper_init(&pm, 4097, 10, 1, 4));
    g_assert_false(attila_pixel_mapper_init(&pm, 10, 10, 3, 4));
    g_assert_false(attila_pixel_mapper_init(&pm, 10, 10, 1, 2));
    g_assert_true(attila_pixel_mapper_init(&pm, 4096, 4096, 8, 8));
    g_assert_cmpuint(pm.surface, ==, 4096ull * 4096 * 8 * 8);
}

static void test_texture_tiling(void)
{
    /* ATTILA ref. Texture Tiling: in a 4x4 block, x bits go to even, y bits to
     * odd bits */
    static const uint32_t block[4][4] = {
        { 0x0, 0x1, 0x4, 0x5 },
        { 0x2, 0x3, 0x6, 0x7 },
        { 0x8, 0x9, 0xC, 0xD },
        { 0xA, 0xB, 0xE, 0xF },
    };
    uint32_t i, j;
    uint8_t *used;

    for (j = 0; j < 4; j++) {
        for (i = 0; i < 4; i++) {
            g_assert_cmpuint(attila_texel_offset(i, j, 2, 4, 8), ==,
                             block[j][i]);
        }
    }
    /* the 256x128 example: 64x64-texel superblocks S0..S7 in row order */
    for (j = 0; j < 2; j++) {
        for (i = 0; i < 4; i++) {
            g_assert_cmpuint(attila_texel_offset(64 * i, 64 * j, 2, 4, 8), ==,
                             (j * 4 + i) * 4096);
        }
    }
    /* blocks inside a superblock in Morton order: block (1,0) then (0,1) */
    g_assert_cmpuint(attila_texel_offset(4, 0, 2, 4, 8), ==, 16);
    g_assert_cmpuint(attila_texel_offset(0, 4, 2, 4, 8), ==, 32);
    g_assert_cmpuint(attila_texel_offset(4, 4, 2, 4, 8), ==, 48);
    /* one-to-one over the 256x128 image, no gaps */
    used = g_malloc0(256 * 128);
    for (j = 0; j < 128; j++) {
        for (i = 0; i < 256; i++) {
            uint32_t o = attila_texel_offset(i, j, 2, 4, 8);
            g_assert_cmpuint(o, <, 256 * 128);
            g_assert_cmpuint(used[o], ==, 0);
            used[o] = 1;
        }
    }
    g_free(used);
    /* a 100-texel-wide level: superblock rows padded to 2 (ceil log2 100 = 7) */
    g_assert_cmpuint(attila_texel_offset(0, 64, 2, 4, 7), ==, 2 * 4096);
    /* smaller than a superblock: one superblock per row */
    g_assert_cmpuint(attila_texel_offset(0, 16, 2, 4, 4), ==,
                     attila_morton(0, 4, 4) << 4);
}

/* bit t of x to bit 2t, of y to 2t + 1, one bit at a time */
static uint32_t morton_bits(uint32_t x, uint32_t y, unsigned bits)
{
    uint32_t m = 0;
    unsigned t;

    for (t = 0; t < bits && t < 16; t++) {
        m |= ((x >> t) & 1) << (2 * t) | ((y >> t) & 1) << (2 * t + 1);
    }
    return m;
}

/*
 * attila_morton's table of 8-bit spreads (inline, as the Texture Unit asks
 * per texel) against the definition, bit by bit: every bit count, random
 * coordinates with bits above the count set, the extremes.
 */
static void test_morton_table(void)
{
    GRand *rng = g_rand_new_with_seed(11);
    unsigned bits;
    int n;

    for (n = 0; n < 200000; n++) {
        uint32_t x = g_rand_int(rng), y = g_rand_int(rng);
        bits = g_rand_int_range(rng, 0, 20);
        if (n < 40) {
            x = n & 1 ? 0xffffffffu : 0;
            y = n & 2 ? 0xffffffffu : 0;
            bits = n / 2;
        }
        g_assert_cmphex(attila_morton(x, y, bits), ==,
                        morton_bits(x, y, bits));
    }
    g_rand_free(rng);
}

/* ---- the DAC ------------------------------------------------------------- */

static void fill(uint8_t *surf, const AttilaPixelMapper *pm,
                 uint32_t x, uint32_t y, uint32_t s, const uint8_t rgba[4])
{
    memcpy(surf + attila_pixel_address(pm, x, y) + s * 4, rgba, 4);
}

static void test_dac_detile(void)
{
    AttilaDisplay d = { .valid = true, .width = 70, .height = 33,
                        .format = ATTILA_FMT_RGBA8888, .samples = 1 };
    AttilaPixelMapper pm;
    uint8_t *surf;
    uint32_t *row = g_new(uint32_t, d.width);
    uint32_t x, y, r;
    int flip;

    g_assert_true(attila_pixel_mapper_init(&pm, d.width, d.height, 1, 4));
    surf = g_malloc0(pm.surface);
    for (y = 0; y < d.height; y++) {
        for (x = 0; x < d.width; x++) {
            uint8_t c[4] = { x, y, x ^ y, 255 };
            fill(surf, &pm, x, y, 0, c);
        }
    }
    for (flip = 0; flip < 2; flip++) {
        /* OpenGL pixel coordinates: memory row 0 is the bottom of the screen */
        d.d3d9_pixel = flip;
        for (r = 0; r < d.height; r++) {
            attila_dac_row(&d, surf, row, r, NULL);
            y = flip ? r : d.height - 1 - r;
            for (x = 0; x < d.width; x++) {
                g_assert_cmphex(row[x], ==, 0xff000000u | x << 16 | y << 8 |
                                (x ^ y));
            }
        }
    }
    g_free(surf);
    g_free(row);
}

static uint8_t resolve_ref(const uint8_t *v, int n)
{
    /* dumpFrame: mean of the samples in linear light (x^2.2), back to ^1/2.2 */
    double sum = 0;
    int s;

    for (s = 0; s < n; s++) {
        sum += pow(v[s] / 255.0, 2.2);
    }
    return (uint8_t)(pow(sum / n, 1 / 2.2) * 255.0);
}

static void test_dac_resolve(void)
{
    AttilaDisplay d = { .valid = true, .width = 16, .height = 16,
                        .format = ATTILA_FMT_RGBA8888, .samples = 4,
                        .d3d9_pixel = true };
    static const uint8_t red[4] = { 255, 0, 0, 255 };
    static const uint8_t mix[4][4] = {
        { 255, 0, 10, 255 }, { 255, 0, 200, 255 },
        { 0, 128, 30, 255 }, { 0, 128, 90, 255 },
    };
    AttilaPixelMapper pm;
    uint8_t *surf;
    uint32_t row[16], s, want;
    uint8_t ch[3][4];
    int k;

    g_assert_true(attila_pixel_mapper_init(&pm, 16, 16, 4, 4));
    surf = g_malloc0(pm.surface);
    for (s = 0; s < 4; s++) {
        fill(surf, &pm, 3, 5, s, red);          /* all samples equal */
        fill(surf, &pm, 4, 5, s, mix[s]);       /* an edge pixel */
    }
    attila_dac_row(&d, surf, row, 5, NULL);
    g_assert_cmphex(row[3], ==, 0xffff0000u);
    for (k = 0; k < 3; k++) {
        for (s = 0; s < 4; s++) {
            ch[k][s] = mix[s][k];
        }
    }
    want = 0xff000000u | resolve_ref(ch[0], 4) << 16 |
           resolve_ref(ch[1], 4) << 8 | resolve_ref(ch[2], 4);
    g_test_message("resolve of an edge pixel: %08x", row[4]);
    /* float vs double rounding of the power may move a channel by one */
    for (k = 0; k < 3; k++) {
        int got = (row[4] >> (16 - 8 * k)) & 0xff;
        int exp = (want >> (16 - 8 * k)) & 0xff;
        g_assert_cmpint(abs(got - exp), <=, 1);
    }
    g_assert_cmphex(row[0], ==, 0xff000000u);       /* cleared = black */
    g_free(surf);
}

/*
 * The DAC's RGBA8888 rows (the words copied for one sample, the samples'
 * bytes compared and the linear values from a table for MSAA) against the
 * general path (g3d_general_path): random surfaces of 1-8 samples, widths
 * and heights that are and are not tile multiples, both pixel origins,
 * samples equal, differing in one channel, random, or each one of two
 * colours (the resolve's averages repeat); every row byte-equal (the
 * resolve's gamma bytes, from steps since branch attila34, are checked
 * float by float in /attila/fast/gamma-byte). Checked to fail when the
 * one-sample rows' SSE2 conversion keeps G's low bit out (0xfe00 for
 * 0xff00), when the samples' compare leaves the blue byte out (0xffff
 * for 0xffffff), when the resolve's cache (before branch attila34) took
 * a valid entry whatever its key, and when it divides by the count less
 * one; in the 4-sample runs' compare (run_rgba8x4), when it
 * leaves the blue byte out, when its pixel steps by 4 bytes for 16, and
 * when it takes G for B in the word it writes.
 */
/*
 * The DAC's rows against the general path, in the AVX instance (where the
 * CPU has it) and without it (g3d_no_avx): the one-sample RGBA8888 run's
 * AVX loop failed with R and B left in place, with the second stamp's
 * words read 8 bytes on instead of 16, and with the run's last pixels
 * (fewer than four) counted as done; the row's address as its y part once
 * plus a run's x part failed with the y part of the even row below an odd
 * one, and with the x part of the column two to the left; the x part from the
 * table (attila_address_table) failed when looked up a stamp column to
 * the right. The 4-sample runs two pixels a 256-bit compare
 * (run_rgba8x4_avx2, where the CPU has AVX2; also run at AVX alone by
 * lowering g3d_simd_max) failed with the second pixel's word taken from
 * the first's lane, with the blue byte left out of the compare, and with
 * the second of two differing pixels resolved from the first; its
 * resolve's instance for 4 samples (resolve_rgba8x4) failed with 3 for 4.
 * The rows whole where the x parts are looked up (row_whole: its one-sample
 * instance row_rgba8_avx and its 4-sample one row_rgba8x4_avx2 at AVX2;
 * the odd rows here; branch attila21) failed with a group's stamp column
 * taken one to the right, with an odd last pixel read from the pixel to
 * its left, with the last pixel left, with the one-sample row's last
 * (fewer than four) pixels left, and with the 4-sample row's odd last
 * pixel read 16 bytes on.
 */
static void test_dac_general_once(void);

static void test_dac_general(void)
{
    g3d_no_avx = false;
    test_dac_general_once();
    if (g3d_use_avx2()) {
        /* AVX without AVX2: the 4-sample runs by run_rgba8x4 alone */
        g3d_simd_max = G3D_SIMD_AVX;
        test_dac_general_once();
        g3d_simd_max = G3D_SIMD_AVX512;
    }
    g3d_no_avx = true;
    test_dac_general_once();
    g3d_no_avx = false;
}

static void test_dac_general_once(void)
{
    static const uint32_t sample_counts[4] = { 1, 2, 4, 8 };
    static const uint8_t palette[2][4] = {
        { 0x20, 0xc0, 0x7f, 0xff }, { 0xf0, 0x31, 0x08, 0x80 },
    };
    GRand *rng = g_rand_new_with_seed(4);
    int n;

    for (n = 0; n < 60; n++) {
        AttilaDisplay d = {
            .valid = true, .format = ATTILA_FMT_RGBA8888,
            .width = g_rand_int_range(rng, 1, 150),
            .height = g_rand_int_range(rng, 1, 70),
            .samples = sample_counts[n % 4],
            .d3d9_pixel = g_rand_boolean(rng),
        };
        AttilaPixelMapper pm;
        AttilaAddressTable tab = { 0 };
        uint8_t *surf;
        uint32_t *fast, *gen, row, x, s, k;

        g_assert_true(attila_pixel_mapper_init(&pm, d.width, d.height,
                                               d.samples, 4));
        attila_address_table(&tab, &pm);
        surf = g_malloc0(pm.surface);
        /* a word past the row: no run may write beyond its pixels */
        fast = g_new(uint32_t, d.width + 1);
        gen = g_new(uint32_t, d.width);
        for (row = 0; row < d.height; row++) {
            for (x = 0; x < d.width; x++) {
                uint8_t px[4];
                uint32_t kind = g_rand_int_range(rng, 0, 4);
                for (k = 0; k < 4; k++) {
                    px[k] = g_rand_int_range(rng, 0, 256);
                }
                for (s = 0; s < d.samples; s++) {
                    if (kind == 1 && s == d.samples - 1) {
                        px[g_rand_int_range(rng, 0, 4)] ^= 1;
                    } else if (kind == 2) {
                        for (k = 0; k < 4; k++) {
                            px[k] = g_rand_int_range(rng, 0, 256);
                        }
                    } else if (kind == 3) {
                        /* an edge between two colours: the same few
                         * averages again and again */
                        memcpy(px, palette[g_rand_int_range(rng, 0, 2)], 4);
                    }
                    fill(surf, &pm, x, row, s, px);
                }
            }
        }
        for (row = 0; row < d.height; row++) {
            /* the x parts computed, and looked up (every other row) */
            fast[d.width] = 0x5a5a5a5au;
            attila_dac_row(&d, surf, fast, row, row & 1 ? &tab : NULL);
            g_assert_cmphex(fast[d.width], ==, 0x5a5a5a5au);
            g3d_general_path = true;
            attila_dac_row(&d, surf, gen, row, NULL);
            g3d_general_path = false;
            g_assert_cmpmem(fast, d.width * 4, gen, d.width * 4);
        }
        g_free(tab.x);
        g_free(surf);
        g_free(fast);
        g_free(gen);
    }
    g_rand_free(rng);
}

/*
 * attila_stamp_run (the clears' and the DAC's runs): every stamp of a run
 * is at the run's first address + k stamps, runs stop inside the surface,
 * and the runs of a stamp row cover each stamp once.
 */
static void test_stamp_runs(void)
{
    static const uint32_t widths[] = { 2, 7, 16, 50, 64, 300, 632, 640, 1023 };
    static const uint32_t samples[] = { 1, 2, 4, 8 };
    size_t w, s;
    uint32_t bytes;

    for (w = 0; w < G_N_ELEMENTS(widths); w++) {
        for (s = 0; s < G_N_ELEMENTS(samples); s++) {
            for (bytes = 4; bytes <= 8; bytes += 4) {
                AttilaPixelMapper pm;
                uint32_t y, x, k, n, covered;
                g_assert_true(attila_pixel_mapper_init(&pm, widths[w], 70,
                                                       samples[s], bytes));
                for (y = 0; y < 70; y += 2) {
                    covered = 0;
                    for (x = 0; x < pm.width; x += 2 * n) {
                        uint32_t a = attila_pixel_address(&pm, x, y);
                        n = attila_stamp_run(&pm, x);
                        g_assert_cmpuint(n, >=, 1);
                        g_assert_cmpuint(x + 2 * (n - 1), <, pm.width);
                        for (k = 0; k < n; k++) {
                            g_assert_cmpuint(attila_pixel_address(&pm, x + 2 * k, y),
                                             ==, a + k * 4 * samples[s] * bytes);
                            g_assert_cmpuint(attila_pixel_address(&pm, x + 2 * k + 1,
                                                                  y + 1), ==,
                                             a + (k * 4 + 3) * samples[s] * bytes);
                        }
                        covered += n;
                    }
                    g_assert_cmpuint(covered, ==, (pm.width + 1) / 2);
                }
            }
        }
    }
}

/*
 * The stamp address tables of the one-sample rasteriser
 * (attila_address_table): for random geometries (1-8 samples, 4- and
 * 8-byte pixels, widths and heights that are and are not tile multiples,
 * up to 4096), x[qx / 2] + y[qy / 2] is attila_pixel_address of every
 * stamp; one table reused across geometries is rebuilt when they differ.
 * Checked to fail when the y table is built from (2, y).
 */
static void test_address_table(void)
{
    static const uint32_t samples[4] = { 1, 2, 4, 8 };
    GRand *rnd = g_rand_new_with_seed(0xADD7);
    AttilaAddressTable tab = { 0 };
    int n;

    for (n = 0; n < 400; n++) {
        AttilaPixelMapper pm;
        uint32_t w = n % 8 == 0 ? g_rand_int_range(rnd, 1, 4097) :
                     g_rand_int_range(rnd, 1, 300);
        uint32_t h = n % 8 == 1 ? g_rand_int_range(rnd, 1, 4097) :
                     g_rand_int_range(rnd, 1, 300);
        uint32_t x, y;

        if (n % 5 == 0) {
            w = 64 * g_rand_int_range(rnd, 1, 6);
        }
        g_assert_true(attila_pixel_mapper_init(&pm, w, h,
                                               samples[n % 4],
                                               4 << g_rand_int_range(rnd, 0, 2)));
        attila_address_table(&tab, &pm);
        for (y = 0; y < h; y += 2) {
            for (x = 0; x < w; x += 2) {
                g_assert_cmpuint(tab.x[x / 2] + tab.y[y / 2], ==,
                                 attila_pixel_address(&pm, x, y));
            }
        }
    }
    g_free(tab.x);
    g_rand_free(rnd);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/attila/tiling/check-values", test_check_values);
    g_test_add_func("/attila/tiling/one-to-one", test_one_to_one);
    g_test_add_func("/attila/tiling/bad-geometry", test_bad_geometry);
    g_test_add_func("/attila/tiling/texture", test_texture_tiling);
    g_test_add_func("/attila/tiling/morton-table", test_morton_table);
    g_test_add_func("/attila/tiling/stamp-runs", test_stamp_runs);
    g_test_add_func("/attila/tiling/address-table", test_address_table);
    g_test_add_func("/attila/dac/detile", test_dac_detile);
    g_test_add_func("/attila/dac/resolve", test_dac_resolve);
    g_test_add_func("/attila/dac/general", test_dac_general);
    return g_test_run();
}
