/*
 * flipper-gx EFB copies to texture formats (pe-copy.c): a known EFB (stored
 * words written directly, RGBA6, RGB8 and Z24), copied with BP 0x49-0x4D
 * and 0x52 through the GX decoder; every texel of the tiled result in MEM1
 * is checked against the bits computed here from the stored EFB words by
 * the rules of YAGCD §5.11.1 BP registers; Dolphin TextureDecoder_Generic.cpp
 * and Dolphin's software encoder (bit operations on the packed RGBA6 word,
 * written independently of the core's per-channel path). Also the 2x2 box
 * filter (bit 9), the intensity formats (bit 15), the clear after the copy, and
 * bad input (destination past MEM1, reserved formats) logged and skipped.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "flipper/flipper-int.h"
#include "gx-build.h"
#include "rig.h"

#define DEST 0x00300000u
#define SRC_X 6
#define SRC_Y 10

static uint32_t hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* a 640x528 EFB of pseudo-random stored words, in pixel format `pf` */
static void fill_efb(FlipperRig *r, int pf, uint32_t seed)
{
    int i;

    for (i = 0; i < EFB_W * EFB_H; i++) {
        r->core->efb_color[i] = hash(seed + (uint32_t)i) & 0xFFFFFF;
        r->core->efb_depth[i] = hash(~seed ^ (uint32_t)i * 3u) & 0xFFFFFF;
    }
    rig_bp(r, BP_ZCOMPARE, (uint32_t)pf);
    /* the copy filter {0, 0, 21, 22, 21, 0, 0} (libogc's default) changes
     * nothing; a reset device has zero taps, which copy black */
    rig_bp(r, BP_COPYFILTER_A, 21 << 12 | 22 << 18);
    rig_bp(r, BP_COPYFILTER_B, 21);
}

static uint32_t word_at(FlipperRig *r, bool z, int x, int y)
{
    return (z ? r->core->efb_depth : r->core->efb_color)[y * EFB_W + x];
}

static uint32_t e6(uint32_t v) { return (v << 2 | v >> 4) & 0xFF; }

/* 8-bit R, G, B, A of a stored word: RGBA6 expanded, RGB8 opaque; for Z
 * the three Z bytes, high first */
static void channels(int pf, bool z, uint32_t w, uint32_t c[4])
{
    if (z || pf == PE_FMT_RGB8_Z24) {
        c[0] = w >> 16 & 0xFF;
        c[1] = w >> 8 & 0xFF;
        c[2] = w & 0xFF;
        c[3] = 0xFF;
    } else {
        c[0] = e6(w >> 18 & 63);
        c[1] = e6(w >> 12 & 63);
        c[2] = e6(w >> 6 & 63);
        c[3] = e6(w & 63);
    }
}

/* the 2x2 box at (x, y): RGBA6 sums the 6-bit fields, s + (s >> 6) */
static void box(FlipperRig *r, int pf, bool z, int x, int y, uint32_t c[4])
{
    uint32_t s[4] = { 0 };
    bool six = !z && pf == PE_FMT_RGBA6_Z24;
    int i, k;

    for (i = 0; i < 4; i++) {
        uint32_t w = word_at(r, z, x + (i & 1), y + (i >> 1)), t[4];
        if (six) {
            t[0] = w >> 18 & 63;
            t[1] = w >> 12 & 63;
            t[2] = w >> 6 & 63;
            t[3] = w & 63;
        } else {
            channels(pf, z, w, t);
        }
        for (k = 0; k < 4; k++) {
            s[k] += t[k];
        }
    }
    for (k = 0; k < 4; k++) {
        c[k] = six ? s[k] + (s[k] >> 6) : s[k] >> 2;
    }
}

static uint32_t intensity(const uint32_t c[4])
{
    return (4096 + 66 * c[0] + 129 * c[1] + 25 * c[2]) >> 8;
}

typedef struct CopyCase {
    int fmt;            /* real copy format 0-12 */
    int bw, bh, bpt;    /* tile size, bits per texel */
} CopyCase;

static const CopyCase cases[] = {
    { 0, 8, 8, 4 },   { 1, 8, 4, 8 },   { 2, 8, 4, 8 },   { 3, 4, 4, 16 },
    { 4, 4, 4, 16 },  { 5, 4, 4, 16 },  { 6, 4, 4, 32 },  { 7, 8, 4, 8 },
    { 8, 8, 4, 8 },   { 9, 8, 4, 8 },   { 10, 8, 4, 8 },  { 11, 4, 4, 16 },
    { 12, 4, 4, 16 },
};

static uint32_t encode(const CopyCase *cc, bool z, bool intens,
                       const uint32_t c[4]);

/* the expected texel value (4, 8, 16 or 32 bits; RGBA8 as ARGB) */
static uint32_t expect(FlipperRig *r, const CopyCase *cc, int pf, bool z,
                       bool intens, bool half, int s, int t)
{
    int x = SRC_X + (s << half), y = SRC_Y + (t << half);
    uint32_t w = word_at(r, z, x, y), c[4];

    if (half) {
        box(r, pf, z, x, y, c);
    } else {
        channels(pf, z, w, c);
    }
    if (!half && !z && pf == PE_FMT_RGBA6_Z24) {
        /* Dolphin's bit operations on the packed word */
        switch (cc->fmt) {
        case 4:
            return ((w >> 8) & 0xF800) | ((w >> 7) & 0x07E0) |
                   ((w >> 7) & 0x001F);
        case 5:
            if (((w << 9) & 0x7000) == 0x7000) {
                return 0x8000 | ((w >> 9) & 0x7C00) | ((w >> 8) & 0x03E0) |
                       ((w >> 7) & 0x001F);
            }
            return ((w << 9) & 0x7000) | ((w >> 12) & 0x0F00) |
                   ((w >> 10) & 0x00F0) | ((w >> 8) & 0x000F);
        case 2:
            if (!intens) {
                return ((w << 2) & 0xF0) | ((w >> 20) & 0x0F);
            }
            break;
        }
    }
    return encode(cc, z, intens, c);
}

/* the texel of format cc->fmt from 8-bit channels c (Z: high, mid, low) */
static uint32_t encode(const CopyCase *cc, bool z, bool intens,
                       const uint32_t c[4])
{
    uint32_t i = intens ? intensity(c) : c[0];

    switch (cc->fmt) {
    case 0:
        return i >> 4;
    case 1: case 8:
        return i;
    case 2:
        return (c[3] & 0xF0) | i >> 4;
    case 3:
        return z ? c[0] << 8 | c[1] : c[3] << 8 | i;
    case 4:
        return (c[0] >> 3) << 11 | (c[1] >> 2) << 5 | c[2] >> 3;
    case 5:
        if (c[3] >= 224) {
            return 0x8000 | (c[0] >> 3) << 10 | (c[1] >> 3) << 5 | c[2] >> 3;
        }
        return (c[3] >> 5) << 12 | (c[0] >> 4) << 8 | (c[1] >> 4) << 4 |
               c[2] >> 4;
    case 6:
        return c[3] << 24 | c[0] << 16 | c[1] << 8 | c[2];
    case 7:
        return c[3];
    case 9:
        return c[1];
    case 10:
        return c[2];
    case 11:
        return c[1] << 8 | c[0];
    default:
        return c[2] << 8 | c[1];
    }
}

/* texel (s, t) as the texture unit's tiled layouts place it */
static uint32_t texel(const uint8_t *m, const CopyCase *cc, uint32_t stride,
                      int s, int t)
{
    int tile_bytes = cc->bpt == 32 ? 64 : 32;
    const uint8_t *tile = m + (t / cc->bh) * stride +
                          (s / cc->bw) * tile_bytes;
    int i = (t % cc->bh) * cc->bw + s % cc->bw;

    switch (cc->bpt) {
    case 4:
        return (i & 1) ? tile[i / 2] & 15 : tile[i / 2] >> 4;
    case 8:
        return tile[i];
    case 16:
        return (uint32_t)tile[2 * i] << 8 | tile[2 * i + 1];
    default:
        return (uint32_t)tile[2 * i] << 24 | tile[2 * i + 1] << 16 |
               tile[32 + 2 * i] << 8 | tile[33 + 2 * i];
    }
}

/* BP 0x52 with the format rotated into bits 3-6 */
static uint32_t trigger(int fmt, bool intens, bool half, bool clear)
{
    uint32_t v = (uint32_t)((fmt & 7) << 1 | fmt >> 3);

    return v << 3 | (uint32_t)half << 9 | (uint32_t)clear << 11 |
           (uint32_t)intens << 15 | (uint32_t)intens << 16;
}

/* copy a w x h rectangle at (SRC_X, SRC_Y) and check every texel */
static void check_copy(FlipperRig *r, const CopyCase *cc, int pf, bool intens,
                       bool half, int w, int h)
{
    bool z = pf == PE_FMT_Z24;
    int tw = ((w - 1) >> half) + 1, th = ((h - 1) >> half) + 1;
    int tiles_x = (tw + cc->bw - 1) / cc->bw;
    uint32_t stride = (uint32_t)tiles_x * (cc->bpt == 32 ? 64 : 32) + 64;
    unsigned errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    int s, t;

    memset(r->mem1 + DEST, 0xA5, 0x20000);
    rig_bp(r, BP_EFB_TL, SRC_Y << 10 | SRC_X);
    rig_bp(r, BP_EFB_WH, (uint32_t)(h - 1) << 10 | (uint32_t)(w - 1));
    rig_bp(r, BP_EFB_ADDR, DEST >> 5);
    rig_bp(r, BP_MIPMAP_STRIDE, stride >> 5);
    rig_bp(r, BP_TRIGGER_EFB_COPY, trigger(cc->fmt, intens, half, false));
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errors);
    for (t = 0; t < th; t++) {
        for (s = 0; s < tw; s++) {
            uint32_t got = texel(r->mem1 + DEST, cc, stride, s, t);
            uint32_t want = expect(r, cc, pf, z, intens, half, s, t);
            if (got != want) {
                g_test_message("format %d pf %d intensity %d half %d texel "
                               "(%d, %d): 0x%x, expected 0x%x", cc->fmt, pf,
                               intens, half, s, t, got, want);
            }
            g_assert_cmphex(got, ==, want);
        }
    }
    /* the padding between tile rows is not written */
    g_assert_cmpuint(r->mem1[DEST + stride - 1], ==, 0xA5);
}

static void test_color_formats(void)
{
    static const int pfs[] = { PE_FMT_RGBA6_Z24, PE_FMT_RGB8_Z24 };
    FlipperRig *r = rig_new(1);
    unsigned i, p;
    int half;

    for (p = 0; p < G_N_ELEMENTS(pfs); p++) {
        fill_efb(r, pfs[p], 0x1234 + p);
        for (i = 0; i < G_N_ELEMENTS(cases); i++) {
            for (half = 0; half < 2; half++) {
                check_copy(r, &cases[i], pfs[p], false, half, 20, 13);
                if (cases[i].fmt <= 3 || cases[i].fmt == 8) {
                    check_copy(r, &cases[i], pfs[p], true, half, 20, 13);
                }
            }
        }
    }
    rig_free(r);
}

static void test_depth_formats(void)
{
    FlipperRig *r = rig_new(1);
    unsigned i;

    fill_efb(r, PE_FMT_Z24, 0x777);
    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        if (cases[i].fmt == 2 || cases[i].fmt == 4 || cases[i].fmt == 5 ||
            cases[i].fmt == 7) {
            continue;   /* not Z formats */
        }
        check_copy(r, &cases[i], PE_FMT_Z24, false, false, 17, 9);
        check_copy(r, &cases[i], PE_FMT_Z24, false, true, 17, 9);
    }
    rig_free(r);
}

/* the clear (bit 11) follows the copy: the texture holds the old EFB */
static void test_copy_then_clear(void)
{
    FlipperRig *r = rig_new(1);
    int x, y;

    fill_efb(r, PE_FMT_RGB8_Z24, 99);
    rig_bp(r, BP_BLENDMODE, 3 << 3);     /* colour and alpha update */
    rig_bp(r, BP_ZMODE, 1 << 4);         /* Z update */
    rig_bp(r, BP_CLEAR_AR, 0x00FF11);
    rig_bp(r, BP_CLEAR_GB, 0x002233);
    rig_bp(r, BP_CLEAR_Z, 0x445566);
    rig_bp(r, BP_EFB_TL, SRC_Y << 10 | SRC_X);
    rig_bp(r, BP_EFB_WH, 7u << 10 | 7u);
    rig_bp(r, BP_EFB_ADDR, DEST >> 5);
    rig_bp(r, BP_MIPMAP_STRIDE, 2);
    uint32_t before = word_at(r, false, SRC_X + 1, SRC_Y);
    rig_bp(r, BP_TRIGGER_EFB_COPY, trigger(8, false, false, true));
    g_assert_cmpuint(r->mem1[DEST + 1], ==, before >> 16 & 0xFF);
    for (y = SRC_Y; y < SRC_Y + 8; y++) {
        for (x = SRC_X; x < SRC_X + 8; x++) {
            g_assert_cmphex(flipper_efb_color(r->core, x, y) >> 8, ==,
                            0x112233);
            g_assert_cmphex(flipper_efb_depth(r->core, x, y), ==, 0x445566);
        }
    }
    g_assert_cmphex(word_at(r, false, SRC_X + 8, SRC_Y), !=, 0x112233);
    rig_free(r);
}

/*
 * The clear under every pixel format and update mask (BP 0x41 bits 3-4,
 * BP 0x40 bit 4): each stored word is the old word with exactly the
 * enabled fields replaced (RGBA6: colour bits 6-23, alpha 0-5; RGB565: the
 * whole word, colour only; RGB8: the whole word, colour only), and the
 * words outside the rectangle are untouched.
 */
static void test_clear_masks(void)
{
    static const int formats[] = {
        PE_FMT_RGB8_Z24, PE_FMT_RGBA6_Z24, PE_FMT_RGB565_Z16,
    };
    const uint32_t ar = 0x9A3C, gb = 0x5EF1, zc = 0xABCDEF;
    const int x0 = 37, y0 = 11, w = 45, h = 9;
    FlipperRig *r = rig_new(1);
    unsigned f, m;

    for (f = 0; f < G_N_ELEMENTS(formats); f++) {
        for (m = 0; m < 8; m++) {
            bool color = m & 1, alpha = m & 2, zupd = m & 4;
            uint32_t *old_c = g_new(uint32_t, EFB_W * EFB_H);
            uint32_t *old_z = g_new(uint32_t, EFB_W * EFB_H);
            uint32_t rr = ar & 0xFF, gg = gb >> 8, bb = gb & 0xFF,
                     aa = ar >> 8;
            int x, y;

            fill_efb(r, formats[f], 1000 + f * 8 + m);
            memcpy(old_c, r->core->efb_color, sizeof(uint32_t) * EFB_W * EFB_H);
            memcpy(old_z, r->core->efb_depth, sizeof(uint32_t) * EFB_W * EFB_H);
            rig_bp(r, BP_BLENDMODE, (uint32_t)color << 3 | (uint32_t)alpha << 4);
            rig_bp(r, BP_ZMODE, (uint32_t)zupd << 4);
            rig_bp(r, BP_CLEAR_AR, ar);
            rig_bp(r, BP_CLEAR_GB, gb);
            rig_bp(r, BP_CLEAR_Z, zc);
            rig_bp(r, BP_EFB_TL, (uint32_t)y0 << 10 | x0);
            rig_bp(r, BP_EFB_WH, (uint32_t)(h - 1) << 10 | (w - 1));
            rig_bp(r, BP_EFB_ADDR, DEST >> 5);
            rig_bp(r, BP_MIPMAP_STRIDE, 0x3FF);
            rig_bp(r, BP_TRIGGER_EFB_COPY, trigger(8, false, false, true));
            for (y = y0 - 1; y <= y0 + h; y++) {
                for (x = x0 - 1; x <= x0 + w; x++) {
                    bool in = x >= x0 && x < x0 + w && y >= y0 && y < y0 + h;
                    uint32_t c = old_c[y * EFB_W + x], z = old_z[y * EFB_W + x];

                    if (in && formats[f] == PE_FMT_RGBA6_Z24) {
                        if (color) {
                            c = (c & 0x3F) | (rr >> 2) << 18 | (gg >> 2) << 12 |
                                (bb >> 2) << 6;
                        }
                        if (alpha) {
                            c = (c & ~0x3Fu) | aa >> 2;
                        }
                    } else if (in && color &&
                               formats[f] == PE_FMT_RGB565_Z16) {
                        c = (rr >> 3) << 11 | (gg >> 2) << 5 | bb >> 3;
                    } else if (in && color) {
                        c = rr << 16 | gg << 8 | bb;
                    }
                    if (in && zupd) {
                        /* RGB565_Z16 (linear) keeps 16 bits: Dolphin's
                         * Z24ToZ16ToZ24 */
                        z = formats[f] == PE_FMT_RGB565_Z16 ?
                            (zc & 0xFFFF00) | zc >> 16 : zc;
                    }
                    g_assert_cmphex(word_at(r, false, x, y), ==, c);
                    g_assert_cmphex(word_at(r, true, x, y), ==, z);
                }
            }
            g_free(old_c);
            g_free(old_z);
        }
    }
    rig_free(r);
}

/*
 * The vertical filter and gamma on texture copies (Dolphin
 * TextureConverterShaderGen.cpp, hardware-verified): per channel R, G, B
 * the lines above/on/below weigh taps 0-1, 2-4, 5-6; the sum over 64 keeps
 * 9 bits and saturates at 255; alpha is the line's own; clamp bits 0-1
 * hold the lines inside the rectangle; gamma 1.7/2.2 is
 * 255 (v / 255)^(1 / gamma); Z copies filter the three Z bytes; the box
 * filter of bit 9 averages filtered lines.
 */
typedef struct FilterCase {
    uint8_t taps[7];
    int gamma;                  /* bits 7-8 */
    bool clamp_top, clamp_bottom;
} FilterCase;

static const FilterCase filter_cases[] = {
    { { 5, 6, 20, 10, 7, 9, 7 }, 0, false, false },   /* sums to 64 */
    { { 5, 6, 20, 10, 7, 9, 7 }, 0, true, true },
    { { 0, 0, 21, 22, 21, 0, 0 }, 1, false, false },  /* gamma 1.7 */
    { { 8, 8, 10, 12, 10, 8, 8 }, 2, true, false },   /* deflicker, 2.2 */
    { { 63, 63, 63, 63, 63, 63, 63 }, 0, false, true }, /* wraps at 9 bits */
    { { 0, 0, 0, 40, 0, 0, 0 }, 0, false, false },     /* darkens */
};

static uint32_t filtered_channel(const FilterCase *fc, uint32_t above,
                                 uint32_t on, uint32_t below, int k)
{
    int w0 = fc->taps[0] + fc->taps[1];
    int w1 = fc->taps[2] + fc->taps[3] + fc->taps[4];
    int w2 = fc->taps[5] + fc->taps[6];
    uint32_t v = ((above * w0 + on * w1 + below * w2) >> 6) & 0x1FF;
    static const float g[4] = { 1.0f, 1.7f, 2.2f, 2.2f };

    (void)k;
    v = MIN(v, 255u);
    return (uint32_t)(powf((float)v / 255.0f, 1.0f / g[fc->gamma]) * 255.0f);
}

/* the filtered channels of EFB pixel (x, y) of a copy of lines [y0, y1) */
static void filtered(FlipperRig *r, const FilterCase *fc, int pf, bool z,
                     int x, int y, int y0, int y1, uint32_t c[4])
{
    int yp = MAX(fc->clamp_top ? y0 : 0, y - 1);
    int yn = MIN((fc->clamp_bottom ? y1 : EFB_H) - 1, y + 1);
    uint32_t a[4], o[4], b[4];
    int k;

    channels(pf, z, word_at(r, z, x, yp), a);
    channels(pf, z, word_at(r, z, x, y), o);
    channels(pf, z, word_at(r, z, x, yn), b);
    for (k = 0; k < 3; k++) {
        c[k] = filtered_channel(fc, a[k], o[k], b[k], k);
    }
    c[3] = o[3];
}

static void check_filtered_copy(FlipperRig *r, const FilterCase *fc, int pf,
                                const CopyCase *cc, bool half)
{
    const int w = 12, h = 8;
    bool z = pf == PE_FMT_Z24, six = !z && pf == PE_FMT_RGBA6_Z24;
    int tw = ((w - 1) >> half) + 1, th = ((h - 1) >> half) + 1;
    int tiles_x = (tw + cc->bw - 1) / cc->bw;
    uint32_t stride = (uint32_t)tiles_x * (cc->bpt == 32 ? 64 : 32);
    int s, t, k, i;

    rig_bp(r, BP_COPYFILTER_A, fc->taps[0] | fc->taps[1] << 6 |
           fc->taps[2] << 12 | fc->taps[3] << 18);
    rig_bp(r, BP_COPYFILTER_B, fc->taps[4] | fc->taps[5] << 6 |
           fc->taps[6] << 12);
    rig_bp(r, BP_EFB_TL, SRC_Y << 10 | SRC_X);
    rig_bp(r, BP_EFB_WH, (uint32_t)(h - 1) << 10 | (uint32_t)(w - 1));
    rig_bp(r, BP_EFB_ADDR, DEST >> 5);
    rig_bp(r, BP_MIPMAP_STRIDE, stride >> 5);
    rig_bp(r, BP_TRIGGER_EFB_COPY, trigger(cc->fmt, false, half, false) |
           (uint32_t)fc->gamma << 7 | fc->clamp_top | fc->clamp_bottom << 1);
    for (t = 0; t < th; t++) {
        for (s = 0; s < tw; s++) {
            int x = SRC_X + (s << half), y = SRC_Y + (t << half);
            uint32_t c[4] = { 0 }, want, got;

            if (!half) {
                filtered(r, fc, pf, z, x, y, SRC_Y, SRC_Y + h, c);
            } else {
                uint32_t q[4][4], sum;

                for (i = 0; i < 4; i++) {
                    filtered(r, fc, pf, z, x + (i & 1), y + (i >> 1), SRC_Y,
                             SRC_Y + h, q[i]);
                }
                for (k = 0; k < 4; k++) {
                    if (six) {
                        sum = (q[0][k] >> 2) + (q[1][k] >> 2) +
                              (q[2][k] >> 2) + (q[3][k] >> 2);
                        c[k] = sum + (sum >> 6);
                    } else {
                        c[k] = (q[0][k] + q[1][k] + q[2][k] + q[3][k]) >> 2;
                    }
                }
            }
            want = encode(cc, z, false, c);
            got = texel(r->mem1 + DEST, cc, stride, s, t);
            if (got != want) {
                g_test_message("filter %d %d %d %d %d %d %d gamma %d pf %d "
                               "fmt %d half %d texel (%d, %d): 0x%x, "
                               "expected 0x%x", fc->taps[0], fc->taps[1],
                               fc->taps[2], fc->taps[3], fc->taps[4],
                               fc->taps[5], fc->taps[6], fc->gamma, pf,
                               cc->fmt, half, s, t, got, want);
            }
            g_assert_cmphex(got, ==, want);
        }
    }
}

static void test_filter(void)
{
    static const int pfs[] = {
        PE_FMT_RGB8_Z24, PE_FMT_RGBA6_Z24, PE_FMT_Z24,
    };
    /* RGBA8 (every channel) and RG8 (Z: mid, high) */
    const CopyCase *rgba8 = &cases[6], *rg8 = &cases[11];
    FlipperRig *r = rig_new(1);
    unsigned f, p;
    int half;

    for (p = 0; p < G_N_ELEMENTS(pfs); p++) {
        fill_efb(r, pfs[p], 0x5150 + p);
        for (f = 0; f < G_N_ELEMENTS(filter_cases); f++) {
            for (half = 0; half < 2; half++) {
                check_filtered_copy(r, &filter_cases[f], pfs[p], rgba8, half);
                check_filtered_copy(r, &filter_cases[f], pfs[p], rg8, half);
            }
        }
    }
    /* a reset device's zero taps: black, alpha kept */
    fill_efb(r, PE_FMT_RGBA6_Z24, 9);
    rig_bp(r, BP_COPYFILTER_A, 0);
    rig_bp(r, BP_COPYFILTER_B, 0);
    rig_bp(r, BP_EFB_TL, SRC_Y << 10 | SRC_X);
    rig_bp(r, BP_EFB_WH, 3u << 10 | 3u);
    rig_bp(r, BP_EFB_ADDR, DEST >> 5);
    rig_bp(r, BP_MIPMAP_STRIDE, 2);
    rig_bp(r, BP_TRIGGER_EFB_COPY, trigger(6, false, false, false));
    g_assert_cmphex(texel(r->mem1 + DEST, rgba8, 64, 1, 2), ==,
                    e6(word_at(r, false, SRC_X + 1, SRC_Y + 2) & 63) << 24);
    rig_free(r);
}

static void test_bad_copies(void)
{
    FlipperRig *r = rig_new(1);
    unsigned errors;
    int v;

    fill_efb(r, PE_FMT_RGB8_Z24, 5);
    rig_bp(r, BP_EFB_TL, 0);
    rig_bp(r, BP_EFB_WH, 63u << 10 | 63u);
    /* the last tile row past the end of MEM1 */
    errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    rig_bp(r, BP_EFB_ADDR, (FLIPPER_MEM1_SIZE - 0x1000) >> 5);
    rig_bp(r, BP_MIPMAP_STRIDE, 0x3FF);
    rig_bp(r, BP_TRIGGER_EFB_COPY, trigger(6, false, false, false));
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errors + 1);
    g_assert_cmpuint(r->mem1[FLIPPER_MEM1_SIZE - 0x1000], ==, 0);
    /* an address beyond MEM1 altogether */
    rig_bp(r, BP_EFB_ADDR, 0xFFFFFF);
    rig_bp(r, BP_MIPMAP_STRIDE, 8);
    rig_bp(r, BP_TRIGGER_EFB_COPY, trigger(4, false, true, false));
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errors + 2);
    /* reserved formats 13-15 */
    rig_bp(r, BP_EFB_ADDR, DEST >> 5);
    for (v = 13; v <= 15; v++) {
        rig_bp(r, BP_TRIGGER_EFB_COPY, trigger(v, false, false, false));
    }
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errors + 5);
    g_assert_cmpuint(r->mem1[DEST], ==, 0);
    rig_free(r);
}

/* a random copy: the EFB's format and seed, rectangle, filter, trigger */
typedef struct RandomCopy {
    int pf;
    uint32_t seed;
    bool disp, identity;
    int w, h, x, y;
    uint32_t fa, fb, trig, ys;
} RandomCopy;

static void random_copy(GRand *rng, RandomCopy *rc)
{
    int fmt;

    rc->pf = g_rand_int_range(rng, 0, 4);
    rc->seed = g_rand_int(rng);
    rc->disp = g_rand_int_range(rng, 0, 3) == 0;
    rc->identity = false;
    rc->w = g_rand_int_range(rng, 1, 321) * 2;
    rc->h = g_rand_int_range(rng, 1, 529);
    rc->x = g_rand_int_range(rng, 0, (EFB_W - rc->w) / 2 + 1) * 2;
    rc->y = g_rand_int_range(rng, 0, EFB_H - rc->h + 1);
    rc->ys = g_rand_int_range(rng, 128, 512);
    fmt = g_rand_int_range(rng, 0, 13);
    if (g_rand_boolean(rng)) {
        rc->fa = (uint32_t)g_rand_int_range(rng, 0, 64) << 12 |
                 (uint32_t)g_rand_int_range(rng, 0, 64) << 18;
        rc->fb = g_rand_int_range(rng, 0, 64);
    } else {
        rc->fa = g_rand_int(rng) & 0xFFFFFF;
        rc->fb = g_rand_int(rng) & 0x3FFFF;
    }
    rc->trig = (g_rand_int(rng) & 3) |
               (uint32_t)g_rand_int_range(rng, 0, 4) << 7 |
               (uint32_t)(g_rand_int_range(rng, 0, 8) == 0) << 11;
    if (rc->disp) {
        rc->trig |= 1u << 14 | (uint32_t)g_rand_boolean(rng) << 10;
        if (g_rand_int_range(rng, 0, 3) == 0) {
            /* the default filter {0, 0, 21, 22, 21, 0, 0}, gamma 1.0:
             * every byte maps to itself (pe-copy.c split_rgb) */
            rc->fa = 21u << 12 | 22u << 18;
            rc->fb = 21;
            rc->trig &= ~(3u << 7);
            rc->identity = true;
        }
        if (g_rand_int_range(rng, 0, 4) == 0 && rc->w > 2) {
            rc->w--;            /* an odd line: the last pair half written */
        }
    } else {
        rc->trig |= trigger(fmt, g_rand_boolean(rng), g_rand_boolean(rng),
                            false);
    }
}

/* make copy rc on rig r, MEM1 around the destination poisoned first */
static void run_random_copy(FlipperRig *r, const RandomCopy *rc)
{
    fill_efb(r, rc->pf, rc->seed);
    rig_bp(r, BP_COPYFILTER_A, rc->fa);
    rig_bp(r, BP_COPYFILTER_B, rc->fb);
    rig_bp(r, BP_BLENDMODE, 3 << 3);
    rig_bp(r, BP_EFB_TL, (uint32_t)rc->y << 10 | (uint32_t)rc->x);
    rig_bp(r, BP_EFB_WH, (uint32_t)(rc->h - 1) << 10 | (uint32_t)(rc->w - 1));
    rig_bp(r, BP_EFB_ADDR, DEST >> 5);
    /* the line (display) or row of tiles (texture), at most */
    rig_bp(r, BP_MIPMAP_STRIDE,
           (uint32_t)(rc->w * (rc->disp ? 2 : 16) + 31) >> 5);
    rig_bp(r, BP_DISPCOPYYSCALE, rc->ys);
    memset(r->mem1 + DEST, 0xA5, 0x200000);
    rig_bp(r, BP_TRIGGER_EFB_COPY, rc->trig);
}

/* MEM1 around the destination and the EFB of rigs a and b are equal */
static void assert_same_copy(FlipperRig *a, FlipperRig *b)
{
    g_assert_cmpmem(a->mem1 + DEST, 0x200000, b->mem1 + DEST, 0x200000);
    g_assert_cmpmem(a->core->efb_color, EFB_W * EFB_H * 4,
                    b->core->efb_color, EFB_W * EFB_H * 4);
    g_assert_cmpmem(a->core->efb_depth, EFB_W * EFB_H * 4,
                    b->core->efb_depth, EFB_W * EFB_H * 4);
}

/*
 * The fast paths against flipper_force_general on random copies: filters
 * (the default filter at gamma 1.0 among them: the display copy's
 * identity path), gamma, clamps, box filter, intensity, every texture
 * format and the display copy with random Y scales, rectangles (odd widths
 * too) and the clear after. MEM1 around the destination and the EFB must
 * be equal.
 */
static void test_fast_vs_general(void)
{
    FlipperRig *rigs[2] = { rig_new(1), rig_new(1) };
    GRand *rng = g_rand_new_with_seed(42);
    int iter, k, display = 0, texture = 0, identity = 0;
    unsigned errors;
    RandomCopy rc;

    for (iter = 0; iter < 240; iter++) {
        random_copy(rng, &rc);
        display += rc.disp;
        texture += !rc.disp;
        identity += rc.identity;
        for (k = 0; k < 2; k++) {
            errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
            flipper_force_general = k == 1;
            run_random_copy(rigs[k], &rc);
            flipper_force_general = false;
            /* every copy is made, none refused; an odd display line is
             * made and logged */
            g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==,
                             errors + (rc.disp && (rc.w & 1)));
        }
        assert_same_copy(rigs[0], rigs[1]);
    }
    g_assert_cmpint(display, >, 40);
    g_assert_cmpint(identity, >, 10);
    g_assert_cmpint(texture, >, 60);
    g_rand_free(rng);
    rig_free(rigs[0]);
    rig_free(rigs[1]);
}

/*
 * The copies run by bands on the render threads (pe-copy.c copy_run): the
 * same random copies (as above) on cores with 1, 2 and 3 render threads
 * must leave the same MEM1 and EFB, and the bands must produce each output
 * line (display) or row of tiles (texture) and each row of the clear
 * after once: copy_units equals the count computed here from the copy's
 * size and Y scale.
 */
static void test_threads(void)
{
    FlipperRig *rigs[3] = { rig_new(1), rig_new(2), rig_new(3) };
    GRand *rng = g_rand_new_with_seed(7);
    int iter, k, display = 0, texture = 0, many = 0, clears = 0;
    RandomCopy rc;

    for (iter = 0; iter < 150; iter++) {
        uint32_t units;

        random_copy(rng, &rc);
        if (rc.disp) {
            bool up = (rc.trig >> 10) & 1;
            float scale = up ? 256.0f / (float)rc.ys : (float)rc.ys / 256.0f;

            units = MIN(1024u, (uint32_t)(1.0f + (float)(rc.h - 1) * scale));
            display++;
        } else {
            uint32_t v = (rc.trig >> 3) & 15;
            int fmt = (int)(v >> 1 | (v & 1) << 3);
            bool half = (rc.trig >> 9) & 1;
            int th = ((rc.h - 1) >> half) + 1, bh = fmt == 0 ? 8 : 4;

            units = (uint32_t)((th + bh - 1) / bh);
            texture++;
        }
        many += units > 64;
        if ((rc.trig >> 11) & 1) {
            units += (uint32_t)rc.h;            /* the clear's rows */
            clears++;
        }
        for (k = 0; k < 3; k++) {
            rigs[k]->core->copy_units = 0;
            run_random_copy(rigs[k], &rc);
            g_assert_cmpuint(rigs[k]->core->copy_units, ==, units);
        }
        assert_same_copy(rigs[0], rigs[1]);
        assert_same_copy(rigs[0], rigs[2]);
    }
    g_assert_cmpint(display, >, 30);
    g_assert_cmpint(texture, >, 60);
    g_assert_cmpint(many, >, 30);
    g_assert_cmpint(clears, >, 10);
    g_rand_free(rng);
    for (k = 0; k < 3; k++) {
        rig_free(rigs[k]);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/flipper/efbcopy/color-formats", test_color_formats);
    g_test_add_func("/flipper/efbcopy/depth-formats", test_depth_formats);
    g_test_add_func("/flipper/efbcopy/copy-then-clear", test_copy_then_clear);
    g_test_add_func("/flipper/efbcopy/clear-masks", test_clear_masks);
    g_test_add_func("/flipper/efbcopy/filter", test_filter);
    g_test_add_func("/flipper/efbcopy/bad", test_bad_copies);
    g_test_add_func("/flipper/efbcopy/fast-vs-general", test_fast_vs_general);
    g_test_add_func("/flipper/efbcopy/threads", test_threads);
    return g_test_run();
}
