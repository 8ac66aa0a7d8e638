/*
 * Texture units 0-2: every texel format against texels this test packs from
 * the documented bit layouts (3dbrew GPU/Internal Registers 0x080-0x0B7;
 * Citra), ETC1/ETC1A4 against blocks built field by field from the ETC1
 * specification (OES_compressed_ETC1_RGB8_texture) with the expected colours
 * computed here, wrap modes and the border colour, nearest/linear filters and
 * mipmap level selection; then drawn quads: nearest and linear against Mesa
 * llvmpipe's picture of the same scene (tests/pica200/ref/tex-*.png from
 * tools/pica200-texref.c), the level of detail a quad picks, units 1 and 2 with
 * unit 2's coordinate select, and bad setups (logged, sampling 0).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <stdio.h>

#include "image.h"
#include "pica-scene.h"
#include "pica-texscene.h"
#include "pica200/pica200-int.h"
#include "pica200/texfilter.h"

/* ---- texel packing, from Citra's byte layouts ---------------------------- */

static unsigned ext5(unsigned v) { return v << 3 | v >> 2; }
static unsigned ext6(unsigned v) { return v << 2 | v >> 4; }

/* pack a random texel of `fmt` at (x, ym); *want gets what it decodes to */
static void pack_texel(unsigned fmt, uint8_t *img, unsigned w, unsigned x,
                       unsigned ym, GRand *rnd, uint8_t want[4])
{
    size_t i = pt_tiled_offset(x, ym, w, 1);
    uint32_t r = g_rand_int(rnd);
    uint8_t *p;
    unsigned a, b, c, d;
    uint16_t v;

    switch (fmt) {
    case PICA_TEXFMT_RGBA8:        /* bytes A, B, G, R */
        p = img + i * 4;
        memcpy(p, &r, 4);
        want[0] = p[3]; want[1] = p[2]; want[2] = p[1]; want[3] = p[0];
        return;
    case PICA_TEXFMT_RGB8:         /* bytes B, G, R */
        p = img + i * 3;
        p[0] = r; p[1] = r >> 8; p[2] = r >> 16;
        want[0] = p[2]; want[1] = p[1]; want[2] = p[0]; want[3] = 255;
        return;
    case PICA_TEXFMT_RGBA5551:
        a = r & 31; b = r >> 5 & 31; c = r >> 10 & 31; d = r >> 15 & 1;
        v = a << 11 | b << 6 | c << 1 | d;
        want[0] = ext5(a); want[1] = ext5(b); want[2] = ext5(c);
        want[3] = d ? 255 : 0;
        break;
    case PICA_TEXFMT_RGB565:
        a = r & 31; b = r >> 5 & 63; c = r >> 11 & 31;
        v = a << 11 | b << 5 | c;
        want[0] = ext5(a); want[1] = ext6(b); want[2] = ext5(c); want[3] = 255;
        break;
    case PICA_TEXFMT_RGBA4:
        a = r & 15; b = r >> 4 & 15; c = r >> 8 & 15; d = r >> 12 & 15;
        v = a << 12 | b << 8 | c << 4 | d;
        want[0] = a * 17; want[1] = b * 17; want[2] = c * 17; want[3] = d * 17;
        break;
    case PICA_TEXFMT_IA8:          /* byte 0 A, byte 1 I */
        p = img + i * 2;
        p[0] = r; p[1] = r >> 8;
        want[0] = want[1] = want[2] = p[1]; want[3] = p[0];
        return;
    case PICA_TEXFMT_HILO8:        /* byte 0 G, byte 1 R */
        p = img + i * 2;
        p[0] = r; p[1] = r >> 8;
        want[0] = p[1]; want[1] = p[0]; want[2] = 0; want[3] = 255;
        return;
    case PICA_TEXFMT_I8:
        img[i] = r;
        want[0] = want[1] = want[2] = img[i]; want[3] = 255;
        return;
    case PICA_TEXFMT_A8:
        img[i] = r;
        want[0] = want[1] = want[2] = 0; want[3] = img[i];
        return;
    case PICA_TEXFMT_IA4:          /* I << 4 | A */
        img[i] = r;
        want[0] = want[1] = want[2] = (img[i] >> 4) * 17;
        want[3] = (img[i] & 15) * 17;
        return;
    case PICA_TEXFMT_I4:
    case PICA_TEXFMT_A4:           /* even texel in the low nibble */
        a = r & 15;
        img[i / 2] = (img[i / 2] & (i & 1 ? 0x0F : 0xF0)) | a << (i & 1 ? 4 : 0);
        if (fmt == PICA_TEXFMT_I4) {
            want[0] = want[1] = want[2] = a * 17; want[3] = 255;
        } else {
            want[0] = want[1] = want[2] = 0; want[3] = a * 17;
        }
        return;
    default:
        g_assert_not_reached();
    }
    img[i * 2] = v;
    img[i * 2 + 1] = v >> 8;
}

static void test_formats(void)
{
    const unsigned w = 16, h = 24;       /* not square: width/height swaps show */
    unsigned fmt, x, y;

    for (fmt = 0; fmt < PICA_TEXFMT_ETC1; fmt++) {
        g_autofree uint8_t *img = g_malloc0(w * h * 4);
        g_autofree uint8_t *want = g_malloc0(w * h * 4);
        GRand *rnd = g_rand_new_with_seed(100 + fmt);

        for (y = 0; y < h; y++) {
            for (x = 0; x < w; x++) {
                pack_texel(fmt, img, w, x, y, rnd, want + 4 * (y * w + x));
            }
        }
        for (y = 0; y < h; y++) {
            for (x = 0; x < w; x++) {
                uint8_t got[4];
                pica_texel_decode(fmt, img, w, x, y, got);
                if (memcmp(got, want + 4 * (y * w + x), 4)) {
                    const uint8_t *e = want + 4 * (y * w + x);
                    g_error("format %u texel (%u, %u): got %u %u %u %u, want "
                            "%u %u %u %u", fmt, x, y, got[0], got[1], got[2],
                            got[3], e[0], e[1], e[2], e[3]);
                }
            }
        }
        g_assert_cmpuint(pica_tex_level_size(fmt, w, h), ==,
                         (uint64_t)w * h * (fmt == 0 ? 4 : fmt == 1 ? 3 :
                                            fmt <= 6 ? 2 : 1) / (fmt >= 10 ? 2 : 1));
        g_rand_free(rnd);
    }
}

/* ---- ETC1: blocks built from the specification's fields ---------------------- */

static const int etc1_table[8][2] = {   /* the specification's Table 3.17.2 */
    { 2, 8 }, { 5, 17 }, { 9, 29 }, { 13, 42 },
    { 18, 60 }, { 24, 80 }, { 33, 106 }, { 47, 183 },
};

/* a random block (as the u64 the 3DS stores) and its 16 texels [x][y] */
static uint64_t etc1_block(GRand *rnd, bool diff, bool flip, uint8_t texel[4][4][3])
{
    int base[2][3], t[2], ch, x, y;
    uint64_t blk = 0;

    t[0] = g_rand_int_range(rnd, 0, 8);
    t[1] = g_rand_int_range(rnd, 0, 8);
    for (ch = 0; ch < 3; ch++) {
        int sh = 59 - 8 * ch;
        if (diff) {
            int b = g_rand_int_range(rnd, 0, 32);
            int dlo = MAX(-4, -b), dhi = MIN(3, 31 - b);
            int dd = g_rand_int_range(rnd, dlo, dhi + 1);
            blk |= (uint64_t)b << sh | (uint64_t)(dd & 7) << (sh - 3);
            base[0][ch] = b << 3 | b >> 2;
            base[1][ch] = (b + dd) << 3 | (b + dd) >> 2;
        } else {
            int b1 = g_rand_int_range(rnd, 0, 16), b2 = g_rand_int_range(rnd, 0, 16);
            blk |= (uint64_t)b1 << (sh + 1) | (uint64_t)b2 << (sh - 3);
            base[0][ch] = b1 * 17;
            base[1][ch] = b2 * 17;
        }
    }
    blk |= (uint64_t)t[0] << 37 | (uint64_t)t[1] << 34 |
           (uint64_t)diff << 33 | (uint64_t)flip << 32;
    for (x = 0; x < 4; x++) {
        for (y = 0; y < 4; y++) {
            int k = x * 4 + y, idx = g_rand_int_range(rnd, 0, 4);
            int sub = flip ? y >= 2 : x >= 2;
            /* msb lsb: 00 +a, 01 +b, 10 -a, 11 -b */
            int mod = etc1_table[t[sub]][idx & 1] * (idx & 2 ? -1 : 1);

            blk |= (uint64_t)(idx & 1) << k | (uint64_t)(idx >> 1) << (k + 16);
            for (ch = 0; ch < 3; ch++) {
                int v = base[sub][ch] + mod;
                texel[x][y][ch] = v < 0 ? 0 : v > 255 ? 255 : v;
            }
        }
    }
    return blk;
}

static void put_le64(uint8_t *p, uint64_t v)
{
    int i;

    for (i = 0; i < 8; i++) {
        p[i] = v >> (8 * i);
    }
}

static void test_etc1(gconstpointer data)
{
    const unsigned fmt = GPOINTER_TO_UINT(data);
    const unsigned w = 16, h = 8, bs = fmt == PICA_TEXFMT_ETC1A4 ? 16 : 8;
    uint8_t img[16 * 8];
    uint8_t want[8][16][4];             /* [ym][x] */
    GRand *rnd = g_rand_new_with_seed(7 + fmt);
    unsigned bx, by, x, y, n = 0;

    g_assert_cmpuint(pica_tex_level_size(fmt, w, h), ==, w * h * bs / 16);
    /* tiles left to right; blocks (0,0), (4,0), (0,4), (4,4) in each */
    for (by = 0; by < h / 4; by++) {
        for (bx = 0; bx < w / 4; bx++) {
            unsigned tile = (by / 2) * (w / 8) + bx / 2;
            unsigned blk_i = tile * 4 + (by & 1) * 2 + (bx & 1);
            uint8_t tx[4][4][3];
            uint64_t alpha = g_rand_int(rnd) | (uint64_t)g_rand_int(rnd) << 32;
            uint64_t blk = etc1_block(rnd, n & 1, n & 2, tx);
            uint8_t *p = img + blk_i * bs;

            n++;
            if (bs == 16) {
                put_le64(p, alpha);
                p += 8;
            }
            put_le64(p, blk);
            for (x = 0; x < 4; x++) {
                for (y = 0; y < 4; y++) {
                    uint8_t *e = want[by * 4 + y][bx * 4 + x];
                    memcpy(e, tx[x][y], 3);
                    e[3] = bs == 16 ? ((alpha >> (4 * (4 * x + y))) & 15) * 17 : 255;
                }
            }
        }
    }
    for (y = 0; y < h; y++) {
        for (x = 0; x < w; x++) {
            uint8_t got[4];
            pica_texel_decode(fmt, img, w, x, y, got);
            if (memcmp(got, want[y][x], 4)) {
                g_error("format %u texel (%u, %u): got %u %u %u %u, want %u %u "
                        "%u %u", fmt, x, y, got[0], got[1], got[2], got[3],
                        want[y][x][0], want[y][x][1], want[y][x][2], want[y][x][3]);
            }
        }
    }
    g_rand_free(rnd);
}

/* ---- sampling: wrap, border, filters, mipmaps -------------------------------- */

#define SW 8
#define SH 8

/* texel (s, t) of the sampler tests' image: R = 30 s, G = 30 t */
static void sampler_unit(PicaTexUnit *u, uint8_t *img, unsigned levels)
{
    unsigned s, t, l, off = 0;

    memset(u, 0, sizeof(*u));
    u->w = SW << (levels - 1);
    u->h = SH << (levels - 1);
    u->fmt = PICA_TEXFMT_RGBA8;
    u->max_level = levels - 1;
    u->border[0] = 11; u->border[1] = 22; u->border[2] = 33; u->border[3] = 44;
    for (l = 0; l < levels; l++) {
        unsigned w = u->w >> l, h = u->h >> l;
        u->level_offset[l] = off;
        for (t = 0; t < h; t++) {
            for (s = 0; s < w; s++) {
                /* bytes A, B, G, R; memory row h - 1 - t */
                uint8_t *p = img + off + pt_tiled_offset(s, h - 1 - t, w, 4);
                p[3] = levels > 1 ? (l == 0 ? 255 : 0) : 30 * s;
                p[2] = levels > 1 ? (l == 1 ? 255 : 0) : 30 * t;
                p[1] = levels > 1 ? (l == 2 ? 255 : 0) : 0;
                p[0] = 255;
            }
        }
        off += w * h * 4;
    }
    u->data = img;
}

/*
 * OpenGL 4.6 §8.14.2: the texel a coordinate index i names, -1 for border;
 * codes 4-7 as Citra has them (4/5 edge/border for i >= 0 and
 * repeat below, 6/7 repeat).
 */
static int gl_wrap(int i, int n, unsigned mode)
{
    if (mode >= 4) {
        mode = mode >= 6 || i < 0 ? PICA_WRAP_REPEAT : mode - 4;
    }
    switch (mode) {
    case PICA_WRAP_CLAMP_TO_EDGE: return i < 0 ? 0 : i > n - 1 ? n - 1 : i;
    case PICA_WRAP_CLAMP_TO_BORDER: return i < 0 || i >= n ? -1 : i;
    case PICA_WRAP_REPEAT: return ((i % n) + n) % n;
    default: {
        int m = ((i % (2 * n)) + 2 * n) % (2 * n) - n;   /* (i mod 2n) - n */
        return (n - 1) - (m >= 0 ? m : -(1 + m));
    }
    }
}

static void test_wrap_border(void)
{
    uint8_t img[SW * SH * 4];
    PicaTexUnit u;
    unsigned mode;
    int i;

    sampler_unit(&u, img, 1);
    for (mode = 0; mode < 8; mode++) {
        u.wrap_s = mode;
        u.wrap_t = (mode + 1) & 7;
        for (i = -20; i < 28; i++) {
            float s = (i + 0.5f) / SW, t = (7 - i + 0.5f) / SH;
            int es = gl_wrap(i, SW, u.wrap_s), et = gl_wrap(7 - i, SH, u.wrap_t);
            uint8_t got[4];

            pica_tex_sample(&u, s, t, 0.0f, got);
            if (es < 0 || et < 0) {
                g_assert_cmpmem(got, 4, u.border, 4);
            } else {
                g_assert_cmpint(got[0], ==, 30 * es);
                g_assert_cmpint(got[1], ==, 30 * et);
                g_assert_cmpint(got[3], ==, 255);
            }
        }
    }
}

static void test_linear(void)
{
    uint8_t img[SW * SH * 4];
    PicaTexUnit u;
    unsigned mode;
    int i;

    sampler_unit(&u, img, 1);
    u.mag_linear = u.min_linear = true;
    for (mode = 0; mode < 4; mode++) {
        u.wrap_s = mode;
        u.wrap_t = PICA_WRAP_CLAMP_TO_EDGE;
        for (i = -10; i < 18; i++) {
            /* a quarter of the way from texel i to i + 1, on row 3's centre */
            float s = (i + 0.75f) / SW, t = 3.5f / SH;
            int a = gl_wrap(i, SW, mode), b = gl_wrap(i + 1, SW, mode);
            double ra = a < 0 ? u.border[0] : 30 * a, rb = b < 0 ? u.border[0] : 30 * b;
            double ga = a < 0 ? u.border[1] : 90, gb = b < 0 ? u.border[1] : 90;
            uint8_t got[4];

            pica_tex_sample(&u, s, t, 0.0f, got);
            g_assert_cmpfloat(fabs(got[0] - (0.75 * ra + 0.25 * rb)), <=, 1.0);
            g_assert_cmpfloat(fabs(got[1] - (0.75 * ga + 0.25 * gb)), <=, 1.0);
        }
    }
    /* both axes: the centre of texels (2..3, 4..5) is their average */
    {
        uint8_t got[4];
        pica_tex_sample(&u, 3.0f / SW, 5.0f / SH, 0.0f, got);
        g_assert_cmpint(got[0], ==, 75);
        g_assert_cmpint(got[1], ==, 135);
    }
}

static void test_mipmap_select(void)
{
    /* levels 32x32 red, 16x16 green, 8x8 blue */
    g_autofree uint8_t *img = g_malloc0((32 * 32 + 16 * 16 + 8 * 8) * 4);
    static const struct {
        float lod;
        bool mip_linear;
        int min_level;
        uint8_t r, g, b;
    } cases[] = {
        { -1.0f, false, 0, 255, 0, 0 },
        { 0.4f, false, 0, 255, 0, 0 },
        { 0.6f, false, 0, 0, 255, 0 },       /* nearest level: ceil(lod + .5) - 1 */
        { 1.4f, false, 0, 0, 255, 0 },
        { 1.6f, false, 0, 0, 0, 255 },
        { 9.0f, false, 0, 0, 0, 255 },       /* clamped to the last level */
        { 1.5f, true, 0, 0, 128, 128 },      /* halfway between levels 1 and 2 */
        { 0.25f, true, 0, 191, 64, 0 },
        { -1.0f, false, 1, 0, 255, 0 },      /* min level 1: never level 0 */
    };
    PicaTexUnit u;
    unsigned i;

    sampler_unit(&u, img, 3);
    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        uint8_t got[4];

        u.mip_linear = cases[i].mip_linear;
        u.min_level = cases[i].min_level;
        pica_tex_sample(&u, 0.3f, 0.6f, cases[i].lod, got);
        g_assert_cmpint(abs(got[0] - cases[i].r), <=, 1);
        g_assert_cmpint(abs(got[1] - cases[i].g), <=, 1);
        g_assert_cmpint(abs(got[2] - cases[i].b), <=, 1);
    }
}

/* the combiners read the texture colours they are given */
static void test_tev_textures(void)
{
    static const uint8_t prim[4] = { 1, 2, 3, 4 };
    static const uint8_t tex[4][4] = {
        { 200, 100, 50, 250 }, { 128, 255, 64, 100 }, { 10, 20, 30, 40 }, { 0 },
    };
    PicaTevState t;
    uint8_t out[4];
    int s, ch;

    memset(&t, 0, sizeof(t));
    for (s = 0; s < 6; s++) {
        t.stage[s].src_rgb[0] = t.stage[s].src_a[0] = PICA_TEVSRC_PREVIOUS;
        t.stage[s].scale_rgb = t.stage[s].scale_a = 1;
    }
    /* stage 0: tex0 * tex1; stage 1: previous + tex2 */
    t.stage[0].src_rgb[0] = t.stage[0].src_a[0] = PICA_TEVSRC_TEXTURE0;
    t.stage[0].src_rgb[1] = t.stage[0].src_a[1] = PICA_TEVSRC_TEXTURE0 + 1;
    t.stage[0].comb_rgb = t.stage[0].comb_a = PICA_TEVOP_MODULATE;
    t.stage[1].src_rgb[1] = t.stage[1].src_a[1] = PICA_TEVSRC_TEXTURE0 + 2;
    t.stage[1].comb_rgb = t.stage[1].comb_a = PICA_TEVOP_ADD;
    pica_texenv_prepare(&t);
    pica_texenv_combine(&t, prim, tex, out);
    for (ch = 0; ch < 4; ch++) {
        int v = tex[0][ch] * tex[1][ch] / 255 + tex[2][ch];
        g_assert_cmpint(out[ch], ==, MIN(v, 255));
    }
}

/* ---- drawn quads ------------------------------------------------------------------ */

#define LIST_OFF 0x10000u
#define VB_OFF 0x100000u
#define TEX_OFF 0x100000u                /* in VRAM, after the colour buffer */
#define PA(off) (PICA200_PHYS_VRAM + (off))

typedef struct TexDraw {
    PicaTest t;
    CmdBuf b;
    unsigned w, h;
} TexDraw;

/*
 * A w x h RGBA8 target cleared to (0, 0, 64, 255) and a strip of 4 vertices
 * (x, y, z, w, o1.xyzw); o1 goes to the semantics in `o1map`.
 */
static void td_begin(TexDraw *d, unsigned w, unsigned h, const float v[4][8],
                     uint32_t o1map)
{
    unsigned i;

    pt_init(&d->t, 2);
    d->w = w;
    d->h = h;
    pt_put_vertices(&d->t, VB_OFF, &v[0][0], 4);
    for (i = 0; i < w * h; i++) {
        static const uint8_t clear[4] = { 255, 64, 0, 0 };   /* A, B, G, R */
        memcpy(d->t.vram + 4 * i, clear, 4);
    }
    cb_init(&d->b);
    pica_cmd_basic_scene(&d->b, w, h, PA(0), PICA_COLORFMT_RGBA8,
                         PICA200_PHYS_FCRAM + VB_OFF);
    pica_cmd_reg(&d->b, GPUREG_SH_OUTMAP_O1, o1map);
}

static void td_unit(TexDraw *d, unsigned unit, uint32_t pa, unsigned w,
                    unsigned h, unsigned fmt, uint32_t param, uint32_t lod)
{
    unsigned base = PICA_TEXUNIT_BASE(unit);

    pica_cmd_reg(&d->b, base + PICA_TEXUNIT_BORDER, 0x80402010);
    pica_cmd_reg(&d->b, base + PICA_TEXUNIT_DIM, h | w << 16);
    pica_cmd_reg(&d->b, base + PICA_TEXUNIT_PARAM, param);
    pica_cmd_reg(&d->b, base + PICA_TEXUNIT_LOD, lod);
    pica_cmd_reg(&d->b, base + PICA_TEXUNIT_ADDR, pa >> 3);
    pica_cmd_reg(&d->b, PICA_TEXUNIT_TYPE_REG(unit), fmt);
}

/* TEXUNIT_CONFIG (b12 is fixed 1) and stage 0 = REPLACE with `src` */
static void td_tev(TexDraw *d, uint32_t config, unsigned src)
{
    pica_cmd_regm(&d->b, GPUREG_TEXUNIT_CONFIG, 0xB, config | 1u << 12);
    pica_cmd_reg(&d->b, PICA_TEXENV_BASE(0), src | src << 16);
}

static void td_end(TexDraw *d)
{
    pica_cmd_draw(&d->b, PICA_TOPOLOGY_STRIP, 4, 0, false, 0);
    pica_cmd_finalize(&d->b);
    pt_kick(&d->t, &d->b, LIST_OFF);
    g_assert_true(pt_run(&d->t, 1000));
    pt_wreg(&d->t, GPUREG_IRQ_ACK0, 0);
    cb_free(&d->b);
}

/* pixel (x, row from the top) as R, G, B, A */
static void td_pixel(TexDraw *d, unsigned x, unsigned row, uint8_t out[4])
{
    const uint8_t *p = d->t.vram + pt_tiled_offset(x, row, d->w, 4);

    out[0] = p[3]; out[1] = p[2]; out[2] = p[1]; out[3] = p[0];
}

/* a full-target quad with coordinates (s0..s1, t0..t1) in o1.xy, (u2, v2) in o1.zw */
static void full_quad(float v[4][8], float s0, float s1, float t0, float t1,
                      float u2, float v2)
{
    int i;

    for (i = 0; i < 4; i++) {
        v[i][0] = (i & 1) ? 1 : -1;
        v[i][1] = (i & 2) ? 1 : -1;
        v[i][2] = -0.5f;
        v[i][3] = 1;
        v[i][4] = (i & 1) ? s1 : s0;
        v[i][5] = (i & 2) ? t1 : t0;
        v[i][6] = u2;
        v[i][7] = v2;
    }
}

typedef struct Bars {
    double min_psnr;
    int tolerance;
    long max_beyond;
} Bars;

/* the image tests: filters, bars, reference; mipmapped ones with 4 levels */
typedef struct ImageCase {
    const char *mode;               /* pica200-texref's argument */
    bool linear, mip, cube;
    Bars bars;
} ImageCase;

static const ImageCase image_cases[] = {
    { "nearest", false, false, false, { 37.0, 0, 130 } },
    { "linear", true, false, false, { 54.0, 3, 10 } },
    { "mip-nearest", false, true, false, { 24.0, 0, 350 } },
    { "mip-linear", true, true, false, { 38.0, 8, 20 } },
    { "cube-nearest", false, false, true, { 38.0, 0, 80 } },
    { "cube-linear", true, false, true, { 42.0, 3, 10 } },
};

static void test_image(gconstpointer data)
{
    const ImageCase *ic = data;
    const bool linear = ic->linear, mip = ic->mip, cube = ic->cube;
    const Bars bars = ic->bars;
    const unsigned size = mip ? TEXSCENE_MIP_TEX : TEXSCENE_TEX;
    const float scale = mip ? TEXSCENE_MIP_SCALE : 1.0f;
    g_autofree char *name = g_strdup_printf("tex-%s.png", ic->mode);
    unsigned level, off = TEX_OFF;
    g_autofree char *ref = g_build_filename(g_getenv("GPU3D_SRCDIR") ?: ".",
                                            "tests", "pica200", "ref", name, NULL);
    float v[4][8];
    TexDraw d;
    G3DImage got = { 0 }, want = { 0 };
    G3DImageDiff diff = { .tolerance = bars.tolerance };
    unsigned s, t, x, y, i;

    for (i = 0; i < 4; i++) {
        const float *sv = texscene_verts[i];
        v[i][0] = sv[0]; v[i][1] = sv[1]; v[i][2] = -0.5f * sv[2]; v[i][3] = sv[2];
        v[i][4] = sv[3] * scale; v[i][5] = sv[4] * scale; v[i][6] = 0; v[i][7] = 0;
        if (cube) {
            memcpy(&v[i][4], texscene_cube_dirs[i], 3 * sizeof(float));
        }
    }
    /* o1 = texcoord0 (u, v) and, for the cube, texcoord0.w */
    td_begin(&d, TEXSCENE_W, TEXSCENE_H, (const float (*)[8])v,
             cube ? 0x1F100D0C : 0x1F1F0D0C);
    /* cube faces 0x1000 apart, +X first */
    for (level = 0; cube && level < 6; level++) {
        for (t = 0; t < TEXSCENE_TEX; t++) {
            for (s = 0; s < TEXSCENE_TEX; s++) {
                uint8_t c[4], *p = d.t.vram + TEX_OFF + 0x1000 * level +
                    pt_tiled_offset(s, TEXSCENE_TEX - 1 - t, TEXSCENE_TEX, 4);
                texscene_face_texel(level, s, t, c);
                p[0] = c[3]; p[1] = c[2]; p[2] = c[1]; p[3] = c[0];
            }
        }
    }
    /* levels one after the other, each in 8x8 tiles, rows top first */
    for (level = 0; !cube && level < (mip ? TEXSCENE_MIP_LEVELS : 1u); level++) {
        unsigned n = size >> level;
        for (t = 0; t < n; t++) {
            for (s = 0; s < n; s++) {
                uint8_t c[4], *p = d.t.vram + off + pt_tiled_offset(s, n - 1 - t, n, 4);
                if (mip) {
                    texscene_mip_texel(level, s, t, c);
                } else {
                    texscene_texel(s, t, c);
                }
                p[0] = c[3]; p[1] = c[2]; p[2] = c[1]; p[3] = c[0];
            }
        }
        off += n * n * 4;
    }
    td_unit(&d, 0, PA(TEX_OFF), size, size, PICA_TEXFMT_RGBA8,
            (linear ? 6u : 0u) | (mip && linear ? 1u << 24 : 0) |
            (cube ? (uint32_t)PICA_TEXTYPE_CUBE << 28 :
                    PICA_WRAP_REPEAT << 12 | PICA_WRAP_MIRRORED_REPEAT << 8),
            mip ? (TEXSCENE_MIP_LEVELS - 1) << 16 : 0);
    for (level = 1; cube && level < 6; level++) {
        /* ADDR2-6: b0-21 (the high bits come from ADDR1) */
        pica_cmd_reg(&d.b, GPUREG_TEXUNIT0_ADDR1 + level,
                     (PA(TEX_OFF + 0x1000 * level) >> 3) & 0x3FFFFF);
    }
    td_tev(&d, 1, PICA_TEVSRC_TEXTURE0);
    td_end(&d);

    g_assert_true(g3d_image_alloc(&got, TEXSCENE_W, TEXSCENE_H));
    for (y = 0; y < TEXSCENE_H; y++) {
        for (x = 0; x < TEXSCENE_W; x++) {
            uint8_t c[4];
            td_pixel(&d, x, y, c);
            memcpy(got.rgb + 3 * (y * TEXSCENE_W + x), c, 3);
        }
    }
    if (g_getenv("PICA200_TEST_PNG")) {
        g_autofree char *out = g_strdup_printf("pica200-%s", name);
        g3d_image_save(&got, out);
    }
    g_assert_true(g3d_image_load(&want, ref));
    g_assert_true(g3d_image_compare(&got, &want, &diff));
    printf("# %s textured quad vs llvmpipe (%s): PSNR %.2f dB, %ld differing "
           "pixels, %ld beyond %d, max channel delta %d\n",
           ic->mode, name, diff.psnr, diff.differing,
           diff.beyond, diff.tolerance, diff.max_delta);
    g_assert_cmpfloat(diff.psnr, >=, bars.min_psnr);
    g_assert_cmpint(diff.beyond, <=, bars.max_beyond);
    g3d_image_free(&got);
    g3d_image_free(&want);
    pt_free(&d.t);
}

/* solid mip levels of a 32x32 RGB565 texture: red, green, blue */
static void put_mip_levels(TexDraw *d)
{
    static const uint16_t col[3] = { 0xF800, 0x07E0, 0x001F };
    unsigned l, i, off = TEX_OFF;

    for (l = 0; l < 3; l++) {
        unsigned n = (32 >> l) * (32 >> l);
        for (i = 0; i < n; i++) {
            d->t.vram[off + 2 * i] = col[l];
            d->t.vram[off + 2 * i + 1] = col[l] >> 8;
        }
        off += n * 2;
    }
}

/* the level a quad picks: 32 texels over 8 pixels is lod 2, 16 is lod 1 */
static void test_draw_mipmap(void)
{
    static const struct {
        float s1;
        uint32_t lod;        /* LOD register */
        uint8_t r, g, b;
    } cases[] = {
        { 1.0f, 2 << 16, 0, 0, 255 },
        { 0.5f, 2 << 16, 0, 255, 0 },
        { 0.25f, 2 << 16, 255, 0, 0 },          /* 1:1 is magnification */
        { 0.5f, 2 << 16 | 0x100, 0, 0, 255 },   /* bias +1.0 */
        { 1.0f, 1 << 16, 0, 255, 0 },           /* max level 1 */
        { 1.0f, 0, 255, 0, 0 },                 /* no mipmaps */
    };
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        float v[4][8];
        TexDraw d;
        uint8_t c[4];

        full_quad(v, 0, cases[i].s1, 0, cases[i].s1, 0, 0);
        td_begin(&d, 8, 8, (const float (*)[8])v, 0x1F1F0D0C);
        put_mip_levels(&d);
        td_unit(&d, 0, PA(TEX_OFF), 32, 32, PICA_TEXFMT_RGB565, 0, cases[i].lod);
        td_tev(&d, 1, PICA_TEVSRC_TEXTURE0);
        td_end(&d);
        td_pixel(&d, 3, 4, c);
        g_assert_cmpint(c[0], ==, cases[i].r);
        g_assert_cmpint(c[1], ==, cases[i].g);
        g_assert_cmpint(c[2], ==, cases[i].b);
        pt_free(&d.t);
    }
}

/* units 1 and 2; unit 2 reads texcoord2 or, with TEXUNIT_CONFIG b13, texcoord1 */
static void test_units_1_2(void)
{
    static const struct {
        unsigned unit;
        uint32_t config;
        uint8_t want_r;
    } cases[] = {
        { 1, 1u << 1, 0x11 },                 /* unit 1 at texcoord1 = (0.1, 0.1) */
        { 2, 1u << 2, 0x77 },                 /* unit 2 at texcoord2 = (0.9, 0.1) */
        { 2, 1u << 2 | 1u << 13, 0x00 },      /* unit 2 at texcoord1 */
        { 2, 0, 0x00 },                       /* unit 2 disabled: reads 0 */
    };
    unsigned i, s, t;

    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        float v[4][8];
        TexDraw d;
        uint8_t c[4];

        full_quad(v, 0.1f, 0.1f, 0.1f, 0.1f, 0.9f, 0.1f);
        td_begin(&d, 8, 8, (const float (*)[8])v, 0x17160F0E);
        /* I8 8x8: unit 1's texels 0x11, unit 2's R = 0x11 * s */
        for (t = 0; t < 8; t++) {
            for (s = 0; s < 8; s++) {
                d.t.vram[TEX_OFF + pt_tiled_offset(s, t, 8, 1)] = 0x11;
                d.t.vram[TEX_OFF + 0x1000 + pt_tiled_offset(s, t, 8, 1)] = 0x11 * s;
            }
        }
        td_unit(&d, 1, PA(TEX_OFF), 8, 8, PICA_TEXFMT_I8, 0, 0);
        td_unit(&d, 2, PA(TEX_OFF + 0x1000), 8, 8, PICA_TEXFMT_I8, 0, 0);
        td_tev(&d, cases[i].config, PICA_TEVSRC_TEXTURE0 + cases[i].unit);
        td_end(&d);
        td_pixel(&d, 5, 2, c);
        g_assert_cmpint(c[0], ==, cases[i].want_r);
        g_assert_cmpint(c[3], ==, cases[i].config ? 255 : 0);
        pt_free(&d.t);
    }
}

/* unit 0's projection type divides (u, v) by texcoord0.w */
static void test_projection(void)
{
    static const struct {
        uint32_t type;
        uint8_t want;
    } cases[] = {
        { PICA_TEXTYPE_PROJECTION, 0x77 },   /* (1.8, 0.2) / 2: texel 7 */
        { PICA_TEXTYPE_2D, 0x66 },           /* 1.8 repeats to texel 6 */
    };
    unsigned i, s, t;

    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        float v[4][8];
        TexDraw d;
        uint8_t c[4];

        /* o1 = (texcoord0.u, texcoord0.v, texcoord0.w, -) */
        full_quad(v, 1.8f, 1.8f, 0.2f, 0.2f, 2.0f, 0.0f);
        td_begin(&d, 8, 8, (const float (*)[8])v, 0x1F100D0C);
        for (t = 0; t < 8; t++) {
            for (s = 0; s < 8; s++) {
                d.t.vram[TEX_OFF + pt_tiled_offset(s, t, 8, 1)] = 0x11 * s;
            }
        }
        td_unit(&d, 0, PA(TEX_OFF), 8, 8, PICA_TEXFMT_I8,
                PICA_WRAP_REPEAT << 12 | PICA_WRAP_REPEAT << 8 | cases[i].type << 28, 0);
        td_tev(&d, 1, PICA_TEVSRC_TEXTURE0);
        td_end(&d);
        td_pixel(&d, 4, 4, c);
        g_assert_cmpint(c[0], ==, cases[i].want);
        pt_free(&d.t);
    }
}

/*
 * Shadow 2D (3dbrew GPU/Internal Registers 0x080-0x0B7; Citra): texel s holds
 * depth s * 0x200000 in G, B, A and R = 0x80 + s; the density is R where depth
 * >= min(|w|, 1) * 0xFFFFFF less the bias, else 0, in all four channels.
 */
static void test_shadow(void)
{
    static const struct {
        unsigned s;
        float w;
        uint32_t shadow;     /* TEXUNIT0_SHADOW: b0 orthographic, b1-23 bias */
    } cases[] = {
        { 4, 0.5f, 1 }, { 3, 0.5f, 1 }, { 3, 0.5f, 1 | 0x200000 },
        { 4, 0.5f, 0 }, { 5, -0.75f, 0 }, { 7, 3.0f, 1 },
    };
    unsigned i, s, t;

    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        float v[4][8], u0 = (cases[i].s + 0.5f) / 8, w = cases[i].w;
        bool ortho = cases[i].shadow & 1;
        int64_t z = (int64_t)(MIN(fabsf(w), 1.0f) * 16777215.0f) -
                    (cases[i].shadow & 0xFFFFFE);
        uint8_t want = (int64_t)cases[i].s * 0x200000 >= z ? 0x80 + cases[i].s : 0;
        TexDraw d;
        uint8_t c[4];

        /* o1 = (u, v, w, -); perspective shadow maps divide u, v by w */
        full_quad(v, ortho ? u0 : u0 * w, ortho ? u0 : u0 * w,
                  ortho ? 0.5f : 0.5f * w, ortho ? 0.5f : 0.5f * w, w, 0);
        td_begin(&d, 8, 8, (const float (*)[8])v, 0x1F100D0C);
        for (t = 0; t < 8; t++) {
            for (s = 0; s < 8; s++) {
                uint8_t *p = d.t.vram + TEX_OFF + pt_tiled_offset(s, t, 8, 4);
                uint32_t depth = s * 0x200000;
                /* bytes A, B, G, R: depth high in A, low in G */
                p[0] = depth >> 16; p[1] = depth >> 8; p[2] = depth; p[3] = 0x80 + s;
            }
        }
        td_unit(&d, 0, PA(TEX_OFF), 8, 8, PICA_TEXFMT_RGBA8,
                (uint32_t)PICA_TEXTYPE_SHADOW_2D << 28, 0);
        pica_cmd_reg(&d.b, GPUREG_TEXUNIT0_SHADOW, cases[i].shadow);
        td_tev(&d, 1, PICA_TEVSRC_TEXTURE0);
        td_end(&d);
        td_pixel(&d, 4, 4, c);
        g_assert_cmpint(c[0], ==, want);
        g_assert_cmpint(c[3], ==, want);
        pt_free(&d.t);
    }
}

/*
 * The procedural texture (unit 3) without noise: clamp modes, the U / U^2
 * mapping functions through the RGB and alpha map LUTs, the colour LUT
 * nearest and linear, separate alpha. Expected values from 3dbrew's LUT
 * layouts and Citra's algorithm (3dbrew GPU/Internal Registers 0x080-0x0B7;
 * Citra), written out here; with noise the result only has to differ.
 */
static uint32_t pt_map_entry(int i)
{
    /* value 32 i (b0-11), difference 32 to the next (b12-23) */
    return (uint32_t)(i * 32) | 32u << 12;
}

static double pt_map(double f)
{
    double x = f * 128;
    int i = x < 127 ? (int)x : 127;
    return (i * 32 + (x - i) * 32) / 4095.0;
}

static void pt_color(int i, uint8_t c[4])
{
    c[0] = i; c[1] = 255 - i; c[2] = i / 2; c[3] = 200;
}

/* signed half steps of the colour-difference table: +10, -6, +3, 0 */
#define PT_DIFF (10 | 0xFAu << 8 | 3u << 16)

/* the colour LUT read at `index`: nearest, or linear with the differences */
static void pt_color_at(double index, bool linear, uint8_t c[4])
{
    int j = (int)index, k;

    if (!linear) {
        pt_color((int)lround(index), c);
        return;
    }
    pt_color(j, c);
    for (k = 0; k < 4; k++) {
        int dd = ((int8_t)(PT_DIFF >> (8 * k))) * 2;
        c[k] = (uint8_t)(c[k] + (index - j) * dd);
    }
}

/* the noise and map tables (0, 2, 3), colours (4) and differences (5) */
static void pt_upload_luts(TexDraw *d)
{
    uint32_t map[128], colors[256], diffs[256];
    unsigned i, k;

    for (i = 0; i < 128; i++) {
        map[i] = pt_map_entry(i);
    }
    for (i = 0; i < 256; i++) {
        uint8_t c[4];
        pt_color(i, c);
        colors[i] = c[0] | c[1] << 8 | c[2] << 16 | (uint32_t)c[3] << 24;
        diffs[i] = PT_DIFF;
    }
    for (k = 0; k < 6; k++) {
        const uint32_t *data = k == 4 ? colors : k == 5 ? diffs : map;
        if (k == 1) {
            continue;
        }
        pica_cmd_reg(&d->b, GPUREG_PROCTEX_LUT, k << 8);
        pica_cmd(&d->b, GPUREG_PROCTEX_LUT_DATA0, 0xF, 0, data, k >= 4 ? 256 : 128);
    }
}

static void test_proctex(void)
{
    static const struct {
        float u;
        unsigned clamp, func, filter;
        bool alpha, noise;
    } cases[] = {
        { 0.3f, PICA_PROCTEX_CLAMP_EDGE, 0, 0, false, false },
        { 0.77f, PICA_PROCTEX_CLAMP_EDGE, 1, 0, false, false },
        { 1.3f, PICA_PROCTEX_CLAMP_EDGE, 0, 0, false, false },
        { 1.3f, PICA_PROCTEX_CLAMP_ZERO, 0, 0, false, false },
        { 1.3f, PICA_PROCTEX_CLAMP_SYMMETRIC, 0, 0, false, false },
        { 1.3f, PICA_PROCTEX_CLAMP_MIRRORED, 0, 0, false, false },
        { 0.7f, PICA_PROCTEX_CLAMP_PULSE, 0, 0, false, false },
        { 0.41f, PICA_PROCTEX_CLAMP_EDGE, 0, 1, false, false },
        { 0.41f, PICA_PROCTEX_CLAMP_EDGE, 0, 0, true, false },
        { 0.41f, PICA_PROCTEX_CLAMP_EDGE, 0, 0, false, true },
    };
    unsigned i, k;

    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        float v[4][8], u = cases[i].u;
        double cu, cv = 0.25, cmap, index;
        uint8_t want[4], got[4];
        TexDraw d;

        /* clamp, as 3dbrew's modes say */
        switch (cases[i].clamp) {
        case PICA_PROCTEX_CLAMP_ZERO: cu = u > 1 ? 0 : u; break;
        case PICA_PROCTEX_CLAMP_SYMMETRIC: cu = u - floor(u); break;
        case PICA_PROCTEX_CLAMP_MIRRORED:
            cu = ((int)u % 2) ? 1 - (u - (int)u) : u - (int)u;
            break;
        case PICA_PROCTEX_CLAMP_PULSE: cu = u <= 0.5 ? 0 : 1; break;
        default: cu = u < 1 ? u : 1; break;
        }
        cmap = pt_map(cases[i].func == 1 ? cu * cu : cu);
        index = 16 + cmap * (200 - 1);                 /* offset 16, width 200 */
        pt_color_at(index, cases[i].filter, want);
        if (cases[i].alpha) {
            want[3] = (uint8_t)(pt_map(cu * cu) * 255);   /* alpha function U^2 */
        }

        full_quad(v, u, u, (float)cv, (float)cv, 0, 0);
        td_begin(&d, 8, 8, (const float (*)[8])v, 0x1F1F0D0C);
        pica_cmd_reg(&d.b, GPUREG_TEXUNIT3_PROCTEX0, cases[i].clamp |
                     cases[i].clamp << 3 | cases[i].func << 6 | 1u << 10 |
                     (uint32_t)cases[i].alpha << 14 | (uint32_t)cases[i].noise << 15);
        pica_cmd_reg(&d.b, GPUREG_TEXUNIT3_PROCTEX1, 0x3C00u << 16 | 0x0800);
        pica_cmd_reg(&d.b, GPUREG_TEXUNIT3_PROCTEX2, 0x3800u << 16 | 0x0800);
        pica_cmd_reg(&d.b, GPUREG_TEXUNIT3_PROCTEX3, 0x4000u << 16 | 0x4000);
        pica_cmd_reg(&d.b, GPUREG_TEXUNIT3_PROCTEX4, cases[i].filter | 200u << 11);
        pica_cmd_reg(&d.b, GPUREG_TEXUNIT3_PROCTEX5, 16);
        pt_upload_luts(&d);
        td_tev(&d, 1u << 10, PICA_TEVSRC_TEXTURE3);
        td_end(&d);
        td_pixel(&d, 4, 4, got);
        if (cases[i].noise) {
            g_assert_true(memcmp(got, want, 3) != 0);
        } else {
            for (k = 0; k < 4; k++) {
                g_assert_cmpint(abs(got[k] - want[k]), <=, 1);
            }
        }
        pt_free(&d.t);
    }
    /* coordinate set 3 is undefined: logged, unit 3 reads 0 */
    {
        unsigned errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
        float v[4][8];
        uint8_t got[4];
        TexDraw d;

        full_quad(v, 0.5f, 0.5f, 0.5f, 0.5f, 0, 0);
        td_begin(&d, 8, 8, (const float (*)[8])v, 0x1F1F0D0C);
        pt_upload_luts(&d);
        td_tev(&d, 1u << 10 | 3u << 8, PICA_TEVSRC_TEXTURE3);
        td_end(&d);
        td_pixel(&d, 4, 4, got);
        g_assert_cmpuint(got[0] | got[1] | got[2] | got[3], ==, 0);
        g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), >, errors);
        pt_free(&d.t);
    }
}

/*
 * The procedural texture's colour-LUT mipmaps: u runs 0..0.8 over 8 pixels
 * (0.1 a pixel, v constant), width 128, bias 1.0, so lod = log2(128 * 0.1)
 * = 3.68 (Citra's log2(|width * bias| * (du + dv))); level L is
 * 128 >> L entries at PROCTEX5 byte L, levels 4-7 at 0xF0/F8/FC/FE.
 */
static void test_proctex_mipmap(void)
{
    static const struct {
        unsigned filter, min_lod, max_lod;
        uint16_t bias;                  /* float1.5.10 */
        double level;                   /* expected lod (blend of two levels) */
    } cases[] = {
        { 2, 0, 7, 0x3C00, 4 },         /* nearest level: round(3.68) */
        { 3, 0, 7, 0x3C00, 4 },         /* the same, linear inside the level */
        { 4, 0, 7, 0x3C00, 3.678 },     /* levels 3 and 4 blended */
        { 2, 5, 7, 0x3C00, 5 },         /* min LOD */
        { 2, 0, 2, 0x3C00, 2 },         /* max LOD */
        { 2, 0, 7, 0x4400, 6 },         /* bias 4: log2(51.2) = 5.68 */
        { 2, 0, 7, 0, 0 },              /* bias 0: level 0 */
        { 0, 0, 7, 0x3C00, 0 },         /* no mipmap filter: level 0 */
    };
    static const uint8_t fixed[4] = { 0xF0, 0xF8, 0xFC, 0xFE };
    const uint32_t offsets = 16 | 0x80u << 8 | 0xC0u << 16 | 0xE0u << 24;
    unsigned i, k;

    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        float v[4][8];
        double cmap = pt_map(0.8 * 4.5 / 8), want[4] = { 0 };
        int lvl[2] = { (int)cases[i].level, MIN((int)cases[i].level + 1, 7) };
        double f = cases[i].level - lvl[0];
        bool linear = cases[i].filter == 3;
        uint8_t got[4];
        TexDraw d;
        int j;

        for (j = 0; j < 2; j++) {
            int l = lvl[j], width = 128 >> l;
            int off = l < 4 ? (offsets >> (8 * l)) & 0xFF : fixed[l - 4];
            uint8_t c[4];

            pt_color_at(off + cmap * (width - 1), linear, c);
            for (k = 0; k < 4; k++) {
                want[k] += (j ? f : 1 - f) * c[k];
            }
        }
        full_quad(v, 0.0f, 0.8f, 0.25f, 0.25f, 0, 0);
        td_begin(&d, 8, 8, (const float (*)[8])v, 0x1F1F0D0C);
        pica_cmd_reg(&d.b, GPUREG_TEXUNIT3_PROCTEX0, PICA_PROCTEX_CLAMP_EDGE |
                     PICA_PROCTEX_CLAMP_EDGE << 3 | 1u << 10 |
                     (uint32_t)(cases[i].bias & 0xFF) << 20);
        pica_cmd_reg(&d.b, GPUREG_TEXUNIT3_PROCTEX4, cases[i].filter |
                     cases[i].min_lod << 3 | cases[i].max_lod << 7 | 128u << 11 |
                     (uint32_t)(cases[i].bias >> 8) << 19);
        pica_cmd_reg(&d.b, GPUREG_TEXUNIT3_PROCTEX5, offsets);
        pt_upload_luts(&d);
        td_tev(&d, 1u << 10, PICA_TEVSRC_TEXTURE3);
        td_end(&d);
        td_pixel(&d, 4, 4, got);
        for (k = 0; k < 4; k++) {
            if (abs(got[k] - (int)lround(want[k])) > 2) {
                g_error("case %u channel %u: got %d, want %.2f", i, k, got[k],
                        want[k]);
            }
        }
        pt_free(&d.t);
    }
}

/*
 * Five combiner stages over texture 0 and the primary colour in a draw:
 * modulate, add constant, interpolate by the constant's alpha, subtract the
 * combiner buffer (stage 0's output), scale 2x. Expected values from 3dbrew
 * GPU/Internal Registers 0x0C0-0x0FD; Citra formulas, worked out here.
 */
static void test_draw_combiners(void)
{
    static const uint8_t tx[4] = { 180, 90, 240, 200 };
    static const uint8_t k1[4] = { 30, 200, 5, 20 }, k2[4] = { 0, 0, 0, 96 };
    const uint8_t prim[4] = { 102, 255, 255, 51 };
    int s0[4], s1[4], s2[4], s3[4], want[4], ch;
    unsigned i;
    float v[4][8];
    TexDraw d;
    uint8_t c[4];

    for (ch = 0; ch < 4; ch++) {
        s0[ch] = tx[ch] * prim[ch] / 255;
        s1[ch] = MIN(s0[ch] + k1[ch], 255);
        s2[ch] = (s1[ch] * k2[3] + tx[ch] * (255 - k2[3])) / 255;
        s3[ch] = MAX(s2[ch] - s0[ch], 0);
        want[ch] = ch < 3 ? MIN(s3[ch] * 2, 255) : s3[ch];
    }
    /* o1 = (texcoord0.u, texcoord0.v, colour.r, colour.a); G, B read 1.0 */
    full_quad(v, 0.3f, 0.3f, 0.3f, 0.3f, prim[0] / 255.0f, prim[3] / 255.0f);
    td_begin(&d, 8, 8, (const float (*)[8])v, 0x0B080D0C);
    for (i = 0; i < 64; i++) {
        uint8_t *p = d.t.vram + TEX_OFF + 4 * i;
        p[0] = tx[3]; p[1] = tx[2]; p[2] = tx[1]; p[3] = tx[0];
    }
    td_unit(&d, 0, PA(TEX_OFF), 8, 8, PICA_TEXFMT_RGBA8, 0, 0);
    td_tev(&d, 1, PICA_TEVSRC_TEXTURE0);
    {
        const uint32_t env[5][5] = {
            /* source, operand, combiner, colour, scale */
            { 0x00030003, 0, 0x00010001, 0, 0 },
            { 0x00EF00EF, 0, 0x00020002, k1[0] | k1[1] << 8 | k1[2] << 16 |
              (uint32_t)k1[3] << 24, 0 },
            { 0x0E3F0E3F, 0x200, 0x00040004, (uint32_t)k2[3] << 24, 0 },
            { 0x00DF00DF, 0, 0x00050005, 0, 0 },
            { 0x000F000F, 0, 0, 0, 1 },
        };
        for (i = 0; i < 5; i++) {
            pica_cmd(&d.b, PICA_TEXENV_BASE(i), 0xF, 1, env[i], 5);
        }
        /* stage 0 updates the buffer (RGB b8, alpha b12) */
        pica_cmd_regm(&d.b, GPUREG_TEXENV_UPDATE_BUFFER, 0x2, 1u << 8 | 1u << 12);
    }
    td_end(&d);
    td_pixel(&d, 2, 5, c);
    for (ch = 0; ch < 4; ch++) {
        g_assert_cmpint(c[ch], ==, want[ch]);
    }
    pt_free(&d.t);
}

/*
 * One full-target quad over unit 0 set up as given (ADDR6 too when addr6 is
 * not 0), over a white image and the solid mip levels; pixel (3, 3) in c.
 * The setup must have logged a guest error.
 */
static void draw_logged(uint32_t pa, unsigned w, unsigned h, unsigned fmt,
                        uint32_t param, uint32_t lod, uint32_t addr6, uint8_t c[4])
{
    unsigned errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    float v[4][8];
    TexDraw d;

    full_quad(v, 0, 1, 0, 1, 0, 0);
    td_begin(&d, 8, 8, (const float (*)[8])v, 0x1F100D0C);
    if (fmt == PICA_TEXFMT_RGB565) {
        put_mip_levels(&d);
    } else {
        memset(d.t.vram + TEX_OFF, 0xFF, 8 * 8 * 4);
    }
    td_unit(&d, 0, pa, w, h, fmt, param, lod);
    if (addr6) {
        pica_cmd_reg(&d.b, GPUREG_TEXUNIT0_ADDR6, addr6);
    }
    td_tev(&d, 1, PICA_TEVSRC_TEXTURE0);
    td_end(&d);
    td_pixel(&d, 3, 3, c);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), >, errors);
    pt_free(&d.t);
}

/* bad setups are logged and sample 0 (black, alpha 0), never crash */
static void test_bad_texture(void)
{
    static const struct {
        uint32_t pa;
        unsigned w, h, fmt;
        uint32_t param;
    } cases[] = {
        { PA(PICA200_VRAM_SIZE - 64), 32, 32, PICA_TEXFMT_RGBA8, 0 },  /* past VRAM */
        { 0x0FFFFFF8u, 1024, 1024, PICA_TEXFMT_RGBA8, 0 },            /* nowhere */
        { PA(TEX_OFF), 8, 8, 14, 0 },                                  /* format */
        { PA(TEX_OFF), 4, 8, PICA_TEXFMT_RGBA8, 0 },                   /* size */
        { PA(TEX_OFF), 8, 2040, PICA_TEXFMT_RGBA8, 0 },
        { PA(TEX_OFF), 8, 8, PICA_TEXFMT_RGBA8, 6u << 28 },            /* type */
    };
    unsigned i;
    uint8_t c[4];

    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        draw_logged(cases[i].pa, cases[i].w, cases[i].h, cases[i].fmt,
                    cases[i].param, 0, 0, c);
        g_assert_cmpuint(c[0] | c[1] | c[2] | c[3], ==, 0);
    }
    /* a cube face (-Z, ADDR6) past VRAM: the unit reads 0 */
    draw_logged(PA(TEX_OFF), 8, 8, PICA_TEXFMT_RGBA8,
                (uint32_t)PICA_TEXTYPE_CUBE << 28, 0, 0x3FFFFF, c);
    g_assert_cmpuint(c[0] | c[1] | c[2] | c[3], ==, 0);
    /* too many levels for the size: clamped, still drawn (level 2 is blue) */
    draw_logged(PA(TEX_OFF), 32, 32, PICA_TEXFMT_RGB565, 0, 9u << 16, 0, c);
    g_assert_cmpint(c[2], ==, 255);
}

#ifdef __SSE2__
/* texunit.c's linear filter of one component, as sample_level_fmt has it */
static uint8_t filter8(unsigned c00, unsigned c10, unsigned c01, unsigned c11,
                       unsigned ax, unsigned ay)
{
    unsigned top = c00 * (256 - ax) + c10 * ax;
    unsigned bot = c01 * (256 - ax) + c11 * ax;

    return (top * (256 - ay) + bot * ay + 32768) >> 16;
}

#ifdef PICA_FILTER_AVX2
/* pica_filter8x2_lanes of t[r] (eight pixels' bytes) into got */
__attribute__((target("avx2")))
static void filter8x2(const uint8_t t[4][32], const unsigned ax[8],
                      const unsigned ay[8], PicaFilterOrder order,
                      uint8_t got[32])
{
    __m256i v = pica_filter8x2_lanes(
        _mm256_loadu_si256((const __m256i *)t[0]),
        _mm256_loadu_si256((const __m256i *)t[1]),
        _mm256_loadu_si256((const __m256i *)t[2]),
        _mm256_loadu_si256((const __m256i *)t[3]),
        _mm256_loadu_si256((const __m256i *)ax),
        _mm256_loadu_si256((const __m256i *)ay), order);

    _mm256_storeu_si256((__m256i *)got, v);
}
#endif

/*
 * pica_filter8_lanes (the 16-bit lanes of texunit.c's four-pixel sampler)
 * against the formula, for every pair of 8-bit fractions (ax, ay): each
 * lane p gets its own pair, and for each the sixteen combinations of 0 and
 * 255 at the four texels, then every value 0-255 at each texel position in
 * turn with random values at the other three; and the three orders of the
 * results. With `data` set, the same for pica_filter8x2_lanes (the eight
 * pixels of the AVX2 spans' sampler), lanes 4-7 with the fractions of
 * lanes 0-3 swapped or complemented and texels of their own.
 */
static void test_filter_lanes(gconstpointer data)
{
    static const uint8_t perm[3][4] = {
        [PICA_FILTER_KEEP] = { 0, 1, 2, 3 },
        [PICA_FILTER_REVERSE] = { 3, 2, 1, 0 },
        [PICA_FILTER_SWAP02] = { 2, 1, 0, 3 },
    };
    const bool wide = data != NULL;
    const unsigned px = wide ? 8 : 4;
    uint32_t x = 11;            /* xorshift32: cheaper than GRand here */
    uint8_t t[4][32], got[32];
    unsigned a, b, p, k, r, j, n = 0, order;

#ifdef PICA_FILTER_AVX2
    if (wide && !__builtin_cpu_supports("avx2")) {
        g_test_skip("the CPU has no AVX2");
        return;
    }
#else
    if (wide) {
        g_test_skip("no AVX2 filter in this build");
        return;
    }
#endif
    for (a = 0; a < 256; a++) {
        for (b = 0; b < 256; b++) {
            /* lane p's fractions: (a, b), (b, a), (255 - a, b), (a, 255 - b) */
            unsigned ax[8] = { a, b, 255 - a, a, b, a, 255 - b, 255 - a };
            unsigned ay[8] = { b, a, b, 255 - b, 255 - b, 255 - a, a, b };
            __m128i vax = _mm_setr_epi32(ax[0], ax[1], ax[2], ax[3]);
            __m128i vay = _mm_setr_epi32(ay[0], ay[1], ay[2], ay[3]);

            for (j = 0; j < 65; j++) {
                order = j % 3;
                for (k = 0; k < 4 * px; k++) {
                    for (r = 0; r < 4; r++) {
                        if (j == 0) {
                            t[r][k] = k >> r & 1 ? 255 : 0;
                        } else if ((j - 1) / 16 == r) {
                            t[r][k] = ((j - 1) % 16 * 16 + k) & 0xFF;
                        } else {
                            x ^= x << 13;
                            x ^= x >> 17;
                            x ^= x << 5;
                            t[r][k] = x >> 24;
                        }
                    }
                }
#ifdef PICA_FILTER_AVX2
                if (wide) {
                    filter8x2((const uint8_t (*)[32])t, ax, ay, order, got);
                } else
#endif
                {
                    _mm_storeu_si128((__m128i *)got, pica_filter8_lanes(
                        _mm_loadu_si128((const __m128i *)t[0]),
                        _mm_loadu_si128((const __m128i *)t[1]),
                        _mm_loadu_si128((const __m128i *)t[2]),
                        _mm_loadu_si128((const __m128i *)t[3]), vax, vay,
                        order));
                }
                for (p = 0; p < px; p++) {
                    for (k = 0; k < 4; k++) {
                        unsigned i = 4 * p + perm[order][k];
                        uint8_t want = filter8(t[0][i], t[1][i], t[2][i],
                                               t[3][i], ax[p], ay[p]);

                        if (got[4 * p + k] != want) {
                            g_error("ax %u ay %u texels %u %u %u %u: %u, "
                                    "want %u", ax[p], ay[p], t[0][i], t[1][i],
                                    t[2][i], t[3][i], got[4 * p + k], want);
                        }
                        n++;
                    }
                }
            }
        }
    }
    g_assert_cmpuint(n, ==, 256u * 256 * 65 * 4 * px);
}
#endif

int main(int argc, char **argv)
{
    unsigned i;

    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/pica200/texture/formats", test_formats);
    g_test_add_data_func("/pica200/texture/etc1", GUINT_TO_POINTER(PICA_TEXFMT_ETC1),
                         test_etc1);
    g_test_add_data_func("/pica200/texture/etc1a4", GUINT_TO_POINTER(PICA_TEXFMT_ETC1A4),
                         test_etc1);
    g_test_add_func("/pica200/texture/wrap-border", test_wrap_border);
    g_test_add_func("/pica200/texture/linear", test_linear);
#ifdef __SSE2__
    g_test_add_data_func("/pica200/texture/filter-lanes", NULL,
                         test_filter_lanes);
    g_test_add_data_func("/pica200/texture/filter-lanes-avx2", "wide",
                         test_filter_lanes);
#endif
    g_test_add_func("/pica200/texture/mipmap-select", test_mipmap_select);
    g_test_add_func("/pica200/texture/tev-textures", test_tev_textures);
    for (i = 0; i < G_N_ELEMENTS(image_cases); i++) {
        g_autofree char *path = g_strdup_printf("/pica200/texture/image-%s",
                                                image_cases[i].mode);
        g_test_add_data_func(path, &image_cases[i], test_image);
    }
    g_test_add_func("/pica200/texture/draw-mipmap", test_draw_mipmap);
    g_test_add_func("/pica200/texture/units-1-2", test_units_1_2);
    g_test_add_func("/pica200/texture/projection", test_projection);
    g_test_add_func("/pica200/texture/shadow", test_shadow);
    g_test_add_func("/pica200/texture/proctex", test_proctex);
    g_test_add_func("/pica200/texture/proctex-mipmap", test_proctex_mipmap);
    g_test_add_func("/pica200/texture/draw-combiners", test_draw_combiners);
    g_test_add_func("/pica200/texture/bad-input", test_bad_texture);
    return g_test_run();
}
