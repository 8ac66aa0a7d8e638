/*
 * flipper-gx CPU access to the EFB (flipper_efb_peek/poke, the window at
 * physical 0x08000000, YAGCD §5.2 PE): the offset encoding x << 2 | y << 12 |
 * type << 22; colour peeks as A << 24 | RGB with the alpha PE_ALPHAREAD
 * selects, in RGB8 and RGBA6; Z peeks; colour pokes through the alpha
 * compare (PE_ALPHAMODE), blending and update masks (PE_ALPHACONF) and the
 * destination alpha (PE_DSTALPHA); Z pokes through PE_ZCONF; bad offsets
 * logged, reading 0 and writing nothing. Expected values are computed
 * here from the stored EFB words.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>

#include "flipper/flipper-int.h"
#include "gx-build.h"
#include "rig.h"

#define COLOR(x, y) FLIPPER_EFB_CPU_ADDR(x, y, 0)
#define ZBUF(x, y)  FLIPPER_EFB_CPU_ADDR(x, y, 1)

static uint32_t e6(uint32_t v) { return (v << 2 | v >> 4) & 0xFF; }

static void test_peek(void)
{
    FlipperRig *r = rig_new(1);
    uint32_t w = 0xA1B2C3;

    r->core->efb_color[37 * EFB_W + 101] = w;
    r->core->efb_depth[37 * EFB_W + 101] = 0x5A6B7C;
    rig_bp(r, BP_ZCOMPARE, PE_FMT_RGB8_Z24);
    rig_w16(r, A_PE_ALPHAREAD, 0);
    g_assert_cmphex(flipper_efb_peek(r->core, COLOR(101, 37)), ==, 0x00A1B2C3);
    rig_w16(r, A_PE_ALPHAREAD, 1);
    g_assert_cmphex(flipper_efb_peek(r->core, COLOR(101, 37)), ==, 0xFFA1B2C3);
    rig_w16(r, A_PE_ALPHAREAD, 2 | 4);
    g_assert_cmphex(flipper_efb_peek(r->core, COLOR(101, 37)), ==, 0xFFA1B2C3);
    g_assert_cmphex(flipper_efb_peek(r->core, ZBUF(101, 37)), ==, 0x5A6B7C);
    /* RGBA6: 6-bit fields expanded, the stored alpha */
    rig_bp(r, BP_ZCOMPARE, PE_FMT_RGBA6_Z24);
    g_assert_cmphex(flipper_efb_peek(r->core, COLOR(101, 37)), ==,
                    e6(w & 63) << 24 | e6(w >> 18 & 63) << 16 |
                    e6(w >> 12 & 63) << 8 | e6(w >> 6 & 63));
    rig_w16(r, A_PE_ALPHAREAD, 0);
    g_assert_cmphex(flipper_efb_peek(r->core, COLOR(101, 37)) >> 24, ==, 0);
    rig_free(r);
}

static void test_poke_color(void)
{
    FlipperRig *r = rig_new(1);
    uint32_t d, s = 0x60C08040, sa, da, k, want;

    rig_bp(r, BP_ZCOMPARE, PE_FMT_RGB8_Z24);
    rig_w16(r, A_PE_ALPHAREAD, 2);
    rig_w16(r, A_PE_ALPHAMODE, 7 << 8);          /* ALWAYS */
    rig_w16(r, A_PE_ALPHACONF, 0x18);            /* colour + alpha update */
    flipper_efb_poke(r->core, COLOR(639, 527), 0x12345678);
    g_assert_cmphex(r->core->efb_color[527 * EFB_W + 639], ==, 0x345678);
    /* colour update off: nothing written */
    rig_w16(r, A_PE_ALPHACONF, 0x10);
    flipper_efb_poke(r->core, COLOR(639, 527), 0x00FFFFFF);
    g_assert_cmphex(r->core->efb_color[527 * EFB_W + 639], ==, 0x345678);
    /* alpha compare GREATER 0x80: 0x60 fails, 0x90 passes */
    rig_w16(r, A_PE_ALPHACONF, 0x18);
    rig_w16(r, A_PE_ALPHAMODE, 4 << 8 | 0x80);
    flipper_efb_poke(r->core, COLOR(5, 6), 0x60111111);
    g_assert_cmphex(r->core->efb_color[6 * EFB_W + 5], ==, 0);
    flipper_efb_poke(r->core, COLOR(5, 6), 0x90111111);
    g_assert_cmphex(r->core->efb_color[6 * EFB_W + 5], ==, 0x111111);
    /* RGBA6 with blending SRCALPHA / INVSRCALPHA and a constant alpha */
    rig_bp(r, BP_ZCOMPARE, PE_FMT_RGBA6_Z24);
    rig_w16(r, A_PE_ALPHAMODE, 7 << 8);
    r->core->efb_color[9 * EFB_W + 8] = 0x3F0A55;
    d = flipper_efb_peek(r->core, COLOR(8, 9));
    rig_w16(r, A_PE_ALPHACONF, 0x18 | 1 | 4 << 8 | 5 << 5);
    rig_w16(r, A_PE_DSTALPHA, 1 << 8 | 0x84);
    flipper_efb_poke(r->core, COLOR(8, 9), s);
    sa = (s >> 24) + (s >> 31);
    da = (255 - (s >> 24)) + ((255 - (s >> 24)) >> 7);
    want = 0x84 >> 2;
    for (k = 0; k < 3; k++) {
        uint32_t sc = s >> (16 - 8 * k) & 0xFF, dc = d >> (16 - 8 * k) & 0xFF;
        uint32_t v = MIN((sc * sa + dc * da) >> 8, 255);
        want |= (v >> 2) << (18 - 6 * k);
    }
    g_assert_cmphex(r->core->efb_color[9 * EFB_W + 8], ==, want);
    rig_free(r);
}

static void test_poke_z(void)
{
    FlipperRig *r = rig_new(1);
    uint32_t *z = &r->core->efb_depth[100 * EFB_W + 200];

    rig_w16(r, A_PE_ZCONF, 0);                   /* no update */
    flipper_efb_poke(r->core, ZBUF(200, 100), 0x123456);
    g_assert_cmphex(*z, ==, 0);
    rig_w16(r, A_PE_ZCONF, 1 << 4);              /* update, no compare */
    flipper_efb_poke(r->core, ZBUF(200, 100), 0xFF800000);
    g_assert_cmphex(*z, ==, 0x800000);
    rig_w16(r, A_PE_ZCONF, 1 | 1 << 1 | 1 << 4); /* LESS, update */
    flipper_efb_poke(r->core, ZBUF(200, 100), 0x900000);
    g_assert_cmphex(*z, ==, 0x800000);
    flipper_efb_poke(r->core, ZBUF(200, 100), 0x700000);
    g_assert_cmphex(*z, ==, 0x700000);
    g_assert_cmphex(flipper_efb_peek(r->core, ZBUF(200, 100)), ==, 0x700000);
    rig_free(r);
}

/*
 * 16-bit Z of RGB565_Z16 (Dolphin VideoCommon.h CompressZ16): linear keeps
 * Z bits 23-8; near/mid/far store the count of leading ones (at most
 * 3/7/12) in 2/3/4 exponent bits, skip the zero that ends them (not when
 * the count reached its maximum) and keep the next 14/13/12 bits. Written
 * here bit by bit from that description.
 */
static uint32_t ref_z16(uint32_t z, int f)
{
    static const int max_ones[4] = { 0, 3, 7, 12 };
    int ebits = f + 1, mbits = 16 - ebits, pos = 23, n = 0, k;
    uint32_t m = 0;

    if (f == 0) {
        return z >> 8;
    }
    while (n < max_ones[f] && (z >> pos & 1)) {
        n++;
        pos--;
    }
    if (n < max_ones[f]) {
        pos--;                              /* the zero after the ones */
    }
    for (k = 0; k < mbits; k++, pos--) {
        m = m << 1 | (pos >= 0 ? z >> pos & 1 : 0);
    }
    return (uint32_t)n << mbits | m;
}

static void test_z16(void)
{
    static const uint32_t zs[] = {
        0, 1, 0xFF, 0x7FFFFF, 0x800000, 0xABCDEF, 0xC00000, 0xDFFFFF,
        0xE00001, 0xF0F0F0, 0xFE0000, 0xFFF000, 0xFFF800, 0xFFFFFE, 0xFFFFFF,
    };
    FlipperRig *r = rig_new(1);
    uint32_t *d = &r->core->efb_depth[7 * EFB_W + 9];
    unsigned i;
    int f;

    /* documented values: linear 0xABCDEF -> 0xABCD; far 0xFFFFFF: 12 ones,
     * then 12 more bits -> 0xCFFF; near 0xC00000: 2 ones -> 0x8000 */
    g_assert_cmphex(ref_z16(0xABCDEF, 0), ==, 0xABCD);
    g_assert_cmphex(ref_z16(0xFFFFFF, 3), ==, 0xCFFF);
    g_assert_cmphex(ref_z16(0xC00000, 1), ==, 0x8000);
    for (f = 0; f < 4; f++) {
        rig_bp(r, BP_ZCOMPARE, PE_FMT_RGB565_Z16 | (uint32_t)f << 3);
        for (i = 0; i < G_N_ELEMENTS(zs); i++) {
            *d = zs[i];
            g_assert_cmphex(flipper_efb_peek(r->core, ZBUF(9, 7)), ==,
                            ref_z16(zs[i], f));
        }
        for (i = 0; i < 20000; i++) {
            uint32_t z = (i * 2654435761u) >> 8;
            *d = z;
            g_assert_cmphex(flipper_efb_peek(r->core, ZBUF(9, 7)), ==,
                            ref_z16(z, f));
        }
    }

    /* far: a stored Z keeps its 16 bits (it peeks the same after a store);
     * LESS compares 16-bit values: a Z below the stored one by less than
     * the format's step is not less */
    rig_bp(r, BP_ZCOMPARE, PE_FMT_RGB565_Z16 | PE_ZFMT_FAR << 3);
    rig_bp(r, BP_ZMODE, 1 | 1 << 1 | 1 << 4);           /* LESS, update */
    *d = 0xFFFFFF;
    g_assert_true(flipper_pe_zcompare(r->core, 9, 7, 0xF12345));
    g_assert_cmphex(flipper_efb_peek(r->core, ZBUF(9, 7)), ==,
                    ref_z16(0xF12345, 3));
    /* 0xF12300: the same 16 bits as 0xF12345 (4 ones, the zero, the next
     * 12 bits agree) */
    g_assert_cmphex(ref_z16(0xF12300, 3), ==, ref_z16(0xF12345, 3));
    g_assert_false(flipper_pe_zcompare(r->core, 9, 7, 0xF12300));
    g_assert_true(flipper_pe_zcompare(r->core, 9, 7, 0xF12000));
    g_assert_cmphex(flipper_efb_peek(r->core, ZBUF(9, 7)), ==,
                    ref_z16(0xF12000, 3));
    /* the same Z under RGB8_Z24 compares all 24 bits */
    rig_bp(r, BP_ZCOMPARE, PE_FMT_RGB8_Z24);
    *d = 0xF12345;
    g_assert_true(flipper_pe_zcompare(r->core, 9, 7, 0xF12300));
    /* linear pokes: compared and stored at 16 bits, the low byte the
     * top byte again (Dolphin's Z24ToZ16ToZ24) */
    rig_bp(r, BP_ZCOMPARE, PE_FMT_RGB565_Z16);
    rig_w16(r, A_PE_ZCONF, 1 | 1 << 1 | 1 << 4);
    *d = 0x1234FF;
    flipper_efb_poke(r->core, ZBUF(9, 7), 0x123400);
    g_assert_cmphex(*d, ==, 0x1234FF);
    flipper_efb_poke(r->core, ZBUF(9, 7), 0x1233FF);
    g_assert_cmphex(*d, ==, 0x123312);
    /* formats 4-7 are logged and taken as 0-3 */
    {
        unsigned errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
        rig_bp(r, BP_ZCOMPARE, PE_FMT_RGB565_Z16 | 7 << 3);
        g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errors + 1);
        *d = 0xFFFFFF;
        g_assert_cmphex(flipper_efb_peek(r->core, ZBUF(9, 7)), ==,
                        ref_z16(0xFFFFFF, 3));
    }
    rig_free(r);
}

static void test_bad_offsets(void)
{
    static const uint32_t bad[] = {
        COLOR(640, 0), COLOR(0, 528), FLIPPER_EFB_CPU_ADDR(1, 1, 2),
        FLIPPER_EFB_CPU_ADDR(1, 1, 3), COLOR(1, 1) | 2, FLIPPER_EFB_CPU_SPAN,
        0xFFFFFFFC,
    };
    FlipperRig *r = rig_new(1);
    unsigned errors = g3d_log_count(G3D_LOG_GUEST_ERROR), i;

    rig_w16(r, A_PE_ALPHAMODE, 7 << 8);
    rig_w16(r, A_PE_ALPHACONF, 0x18);
    rig_w16(r, A_PE_ZCONF, 1 << 4);
    for (i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_assert_cmphex(flipper_efb_peek(r->core, bad[i]), ==, 0);
        flipper_efb_poke(r->core, bad[i], 0xFFFFFFFF);
    }
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==,
                     errors + 2 * G_N_ELEMENTS(bad));
    for (i = 0; i < EFB_W * EFB_H; i++) {
        g_assert_cmphex(r->core->efb_color[i] | r->core->efb_depth[i], ==, 0);
    }
    rig_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/flipper/efbcpu/peek", test_peek);
    g_test_add_func("/flipper/efbcpu/poke-color", test_poke_color);
    g_test_add_func("/flipper/efbcpu/poke-z", test_poke_z);
    g_test_add_func("/flipper/efbcpu/z16", test_z16);
    g_test_add_func("/flipper/efbcpu/bad-offsets", test_bad_offsets);
    return g_test_run();
}
