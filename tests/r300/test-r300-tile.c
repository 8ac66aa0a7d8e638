/*
 * R300 surface tiling (hw/gpu3d/r300/tile.h) against the tile sizes of
 * Mesa's r300 driver (src/gallium/drivers/r300/r300_texture_desc.c,
 * r300_get_pixel_alignment), written out here as Mesa's table lists them.
 * The order inside a tile is the device's choice; what is checked is what
 * any such order must give: every pixel of a surface has its own bytes,
 * each macro tile is one 2 KiB block, each micro tile one 32-byte block,
 * and a surface with neither is linear.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <string.h>

#include "r300/tile.h"

/* Mesa's table: [macro][log2 bpp][micro: linear, tiled, square][w, h] */
static const unsigned mesa_tile[2][5][3][2] = {
    {
        { { 32, 1 }, { 8, 4 }, { 0, 0 } },
        { { 16, 1 }, { 8, 2 }, { 4, 4 } },
        { { 8, 1 }, { 4, 2 }, { 0, 0 } },
        { { 4, 1 }, { 2, 2 }, { 0, 0 } },
        { { 2, 1 }, { 0, 0 }, { 0, 0 } },
    },
    {
        { { 256, 8 }, { 64, 32 }, { 0, 0 } },
        { { 128, 8 }, { 64, 16 }, { 32, 32 } },
        { { 64, 8 }, { 32, 16 }, { 0, 0 } },
        { { 32, 8 }, { 16, 16 }, { 0, 0 } },
        { { 16, 8 }, { 0, 0 }, { 0, 0 } },
    },
};

/* Every block of bw x bh pixels at block granularity lands in one
 * contiguous, aligned run of `bytes`. */
static void check_blocks(const R300Tiling *t, unsigned w, unsigned h,
                         unsigned bw, unsigned bh, unsigned bytes)
{
    unsigned bx, by, x, y;

    for (by = 0; by < h; by += bh) {
        for (bx = 0; bx < w; bx += bw) {
            uint64_t base = r300_tile_offset(t, bx, by) & ~(uint64_t)(bytes - 1);
            for (y = by; y < by + bh; y++) {
                for (x = bx; x < bx + bw; x++) {
                    uint64_t o = r300_tile_offset(t, x, y);
                    g_assert_cmpuint(o, >=, base);
                    g_assert_cmpuint(o + t->bpp, <=, base + bytes);
                }
            }
        }
    }
}

static void test_sizes(void)
{
    unsigned b, macro, micro;

    for (b = 0; b < 5; b++) {
        unsigned bpp = 1u << b;
        for (macro = 0; macro < 2; macro++) {
            for (micro = 0; micro < 3; micro++) {
                const unsigned *mt = mesa_tile[macro][b][micro];
                const unsigned *ut = mesa_tile[0][b][micro];
                R300Tiling t;
                unsigned w, h, x, y;
                uint64_t bytes;
                uint8_t *seen;

                if (!mt[0]) {
                    /* no such layout on the chip: refused, drawn linear */
                    g_assert_false(r300_tile_setup(&t, bpp, 64, macro, micro));
                    g_assert_true(t.linear);
                    continue;
                }
                /* two tiles across and down, plus a partial third */
                w = 2 * mt[0];
                h = 2 * mt[1] + 1;
                g_assert_true(r300_tile_setup(&t, bpp, w, macro, micro));
                g_assert_cmpuint(r300_tile_align_w(&t), ==,
                                 macro || micro ? mt[0] : 32 / bpp);
                g_assert_cmpuint(r300_tile_align_h(&t), ==, mt[1]);
                bytes = r300_tile_bytes(&t, h);
                g_assert_cmpuint(bytes, ==, (uint64_t)w * bpp *
                                 ((h + mt[1] - 1) / mt[1] * mt[1]));
                /* one pixel per byte range, all inside the surface */
                seen = g_malloc0(bytes);
                for (y = 0; y < h; y++) {
                    for (x = 0; x < w; x++) {
                        uint64_t o = r300_tile_offset(&t, x, y);
                        g_assert_cmpuint(o % bpp, ==, 0);
                        g_assert_cmpuint(o + bpp, <=, bytes);
                        g_assert_cmpuint(seen[o], ==, 0);
                        memset(seen + o, 1, bpp);
                    }
                }
                g_free(seen);
                if (macro) {
                    check_blocks(&t, w, h - 1, mt[0], mt[1], 2048);
                }
                if (micro) {
                    check_blocks(&t, w, h - 1, ut[0], ut[1], 32);
                }
                if (!macro && !micro) {
                    g_assert_true(t.linear);
                    g_assert_cmpuint(r300_tile_offset(&t, 5, 3), ==,
                                     (3ull * w + 5) * bpp);
                }
            }
        }
    }
    /* micro mode 3 does not exist */
    {
        R300Tiling t;
        g_assert_false(r300_tile_setup(&t, 4, 64, true, 3));
        g_assert_true(t.linear);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/r300/tile/sizes", test_sizes);
    return g_test_run();
}
