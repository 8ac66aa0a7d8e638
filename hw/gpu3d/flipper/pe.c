/*
 * PE: pixel engine. The EFB (640 x 528), depth compare and update,
 * blending, logic ops, dither, the draw-done and token interrupts, the
 * bounding box, and the PE MMIO registers (YAGCD §5.2 PE, §5.11.1 BP registers;
 * Dolphin Software/EfbInterface.cpp).
 *
 * EFB storage, one 32-bit word per pixel for colour and one for depth:
 *   RGB8_Z24   R8 G8 B8 (alpha reads 255)
 *   RGBA6_Z24  R6 G6 B6 A6, each read back with bit replication
 *   RGB565_Z16 R5 G6 B5, read back with bit replication; Z at 16 bits
 *              in the format of PE_CONTROL bits 3-5 (below), kept in the
 *              depth word as the 24-bit value the 16 bits stand for. The
 *              multisampling of this format is not modelled (logged once).
 *
 * 16-bit Z (Dolphin VideoCommon/VideoCommon.h CompressZ16, from hardware
 * findings, used for its EFB peeks): linear is Z >> 8; near, mid and far
 * are floats with 2, 3 and 4 exponent bits holding the count of leading
 * ones of the 24-bit Z (at most 3, 7 and 12), the zero after them implied
 * and 14, 13 and 12 mantissa bits following; at the largest exponent the
 * next bit is stored, not implied. Z tests in this format compare the
 * 16-bit values. A depth word holds the 24-bit Z its 16 bits stand for:
 * linear repeats its top byte below them (Dolphin's Z24ToZ16ToZ24, which
 * its clears in this format store); near/mid/far have the dropped bits
 * zero. That is what Z copies (made in Z24, as libogc's GX_CopyTex
 * switches to it) and Z24 peeks read.
 * Changing the pixel format reinterprets the stored bits, as the hardware
 * does (RGB8 <-> RGBA6 share the 24-bit layout).
 *
 * Blending: factor f in 0..255 scales as f + (f >> 7) over 256; subtract
 * mode is dst - src with no factors; logic ops apply to all four channels;
 * RGBA6 dithers with the 2x2 Bayer matrix {0 2; 3 1} (Dolphin
 * Software/EfbInterface.cpp).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"

#include "common/fragment.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

enum { R = 0, G = 1, B = 2, A = 3 };

static int pixel_format(FlipperCore *c)
{
    return c->bp[BP_ZCOMPARE] & 7;
}

void flipper_pe_reset(FlipperCore *c)
{
    memset(&c->pe, 0, sizeof(c->pe));
    flipper_pe_bbox_reset(c);
}

void flipper_pe_bbox_reset(FlipperCore *c)
{
    /* an empty box, as libogc's GX_ClearBoundingBox leaves it */
    c->pe.bbox[0] = 0x3FF;
    c->pe.bbox[1] = 0;
    c->pe.bbox[2] = 0x3FF;
    c->pe.bbox[3] = 0;
}

uint32_t flipper_pe_irq(FlipperCore *c)
{
    const FlipperPE *pe = &c->pe;

    return (pe->token_int && pe->token_en ? PI_INT_PE_TOKEN : 0) |
           (pe->finish_int && pe->finish_en ? PI_INT_PE_FINISH : 0);
}

void flipper_pe_draw_done(FlipperCore *c)
{
    flipper_flush(c);           /* "done" must be true when it is signalled */
    c->pe.finish_int = true;
    flipper_irq_changed(c);
}

void flipper_pe_token(FlipperCore *c, uint16_t token, bool interrupt)
{
    flipper_flush(c);
    c->pe.token = token;
    flipper_cp_set_token(c, token);
    if (interrupt) {
        c->pe.token_int = true;
    }
    flipper_irq_changed(c);
}

/* ---- EFB ----------------------------------------------------------------- */

uint32_t flipper_pe_get_color(FlipperCore *c, int x, int y)
{
    uint32_t v = c->efb_color[y * EFB_W + x];

    switch (pixel_format(c)) {
    case PE_FMT_RGBA6_Z24:
        return (uint32_t)g3d_expand_bits((v >> 18) & 63, 6) << 24 |
               (uint32_t)g3d_expand_bits((v >> 12) & 63, 6) << 16 |
               (uint32_t)g3d_expand_bits((v >> 6) & 63, 6) << 8 |
               g3d_expand_bits(v & 63, 6);
    case PE_FMT_RGB565_Z16:
        return (uint32_t)g3d_expand_bits((v >> 11) & 31, 5) << 24 |
               (uint32_t)g3d_expand_bits((v >> 5) & 63, 6) << 16 |
               (uint32_t)g3d_expand_bits(v & 31, 5) << 8 | 0xFF;
    default:
        return (v & 0xFFFFFF) << 8 | 0xFF;
    }
}

static void unpack(uint32_t rgba, uint8_t out[4])
{
    out[R] = rgba >> 24;
    out[G] = rgba >> 16;
    out[B] = rgba >> 8;
    out[A] = rgba;
}

/* an EFB word with colour and/or alpha stored by the pixel format */
static uint32_t store_word(int fmt, uint32_t v, const uint8_t col[4],
                           bool color, bool alpha)
{
    switch (fmt) {
    case PE_FMT_RGBA6_Z24:
        if (color) {
            v = (v & 0x3F) | (uint32_t)(col[R] >> 2) << 18 |
                (uint32_t)(col[G] >> 2) << 12 | (uint32_t)(col[B] >> 2) << 6;
        }
        if (alpha) {
            v = (v & ~0x3Fu) | (col[A] >> 2);
        }
        break;
    case PE_FMT_RGB565_Z16:
        if (color) {
            v = (uint32_t)(col[R] >> 3) << 11 | (uint32_t)(col[G] >> 2) << 5 |
                (col[B] >> 3);
        }
        break;
    default:
        /* RGB8 and the formats without alpha: no alpha is stored */
        if (color) {
            v = (uint32_t)col[R] << 16 | (uint32_t)col[G] << 8 | col[B];
        }
        break;
    }
    return v;
}

static void store(FlipperCore *c, int x, int y, const uint8_t col[4],
                  bool color, bool alpha)
{
    uint32_t *p = &c->efb_color[y * EFB_W + x];

    *p = store_word(pixel_format(c), *p, col, color, alpha);
}

/*
 * What storing one colour under BP 0x41's update masks does to any EFB
 * word, as new = (old & *keep) | *set: every store_word case keeps some
 * bits and replaces the rest, so the stores of 0 and of ~0 give both.
 * A clear then costs one AND and OR a word instead of a format switch.
 */
void flipper_pe_store_masks(FlipperCore *c, const uint8_t rgba[4],
                            uint32_t *keep, uint32_t *set)
{
    uint32_t cm = c->bp[BP_BLENDMODE];
    bool color = (cm >> 3) & 1, alpha = (cm >> 4) & 1;
    int fmt = pixel_format(c);

    *set = store_word(fmt, 0, rgba, color, alpha);
    *keep = store_word(fmt, ~0u, rgba, color, alpha) ^ *set;
}

/* n pixels of row y from x on, as R, G, B, A bytes (flipper_pe_get_color's
 * expansion, the format decided once for the row) */
void flipper_pe_get_row(FlipperCore *c, int x, int y, int n, uint8_t *out)
{
    const uint32_t *p = &c->efb_color[y * EFB_W + x];
    int i;

    switch (pixel_format(c)) {
    case PE_FMT_RGBA6_Z24:
        for (i = 0; i < n; i++) {
            uint32_t v = p[i];
            out[4 * i + R] = g3d_expand_bits((v >> 18) & 63, 6);
            out[4 * i + G] = g3d_expand_bits((v >> 12) & 63, 6);
            out[4 * i + B] = g3d_expand_bits((v >> 6) & 63, 6);
            out[4 * i + A] = g3d_expand_bits(v & 63, 6);
        }
        break;
    case PE_FMT_RGB565_Z16:
        for (i = 0; i < n; i++) {
            uint32_t v = p[i];
            out[4 * i + R] = g3d_expand_bits((v >> 11) & 31, 5);
            out[4 * i + G] = g3d_expand_bits((v >> 5) & 63, 6);
            out[4 * i + B] = g3d_expand_bits(v & 31, 5);
            out[4 * i + A] = 0xFF;
        }
        break;
    default:
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
        if (!flipper_force_general) {
            /* R, G, B, 0xFF in memory order is one little-endian word */
            i = 0;
#ifdef __SSE2__
            /* four words at a time: R from bits 16-23 to 0-7, B to 16-23 */
            for (; i + 4 <= n; i += 4) {
                const __m128i lo = _mm_set1_epi32(0xFF);
                __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
                __m128i w = _mm_or_si128(
                    _mm_or_si128(_mm_and_si128(_mm_srli_epi32(v, 16), lo),
                                 _mm_and_si128(v, _mm_set1_epi32(0xFF00))),
                    _mm_or_si128(_mm_slli_epi32(_mm_and_si128(v, lo), 16),
                                 _mm_set1_epi32((int)0xFF000000u)));
                _mm_storeu_si128((__m128i *)(out + 4 * i), w);
            }
#endif
            for (; i < n; i++) {
                uint32_t w = GUINT32_SWAP_LE_BE(p[i] << 8) | 0xFF000000u;
                memcpy(out + 4 * i, &w, 4);
            }
            break;
        }
#endif
        for (i = 0; i < n; i++) {
            uint32_t v = p[i];
            out[4 * i + R] = v >> 16;
            out[4 * i + G] = v >> 8;
            out[4 * i + B] = v;
            out[4 * i + A] = 0xFF;
        }
        break;
    }
}

void flipper_pe_set_color(FlipperCore *c, int x, int y, const uint8_t rgba[4])
{
    uint32_t cm = c->bp[BP_BLENDMODE];

    store(c, x, y, rgba, (cm >> 3) & 1, (cm >> 4) & 1);
}

static unsigned z16_format(FlipperCore *c)
{
    return (c->bp[BP_ZCOMPARE] >> 3) & 3;       /* 4-7 logged in bp.c */
}

/* leading ones the exponent of 16-bit Z format `f` counts, at most */
static const uint8_t z16_max_exp[4] = { 0, 3, 7, 12 };

uint32_t flipper_z16_compress(uint32_t z, unsigned f)
{
    unsigned max = z16_max_exp[f & 3], mbits = 16 - (f & 3) - 1, e = 0, low;

    z &= 0xFFFFFF;
    if ((f & 3) == PE_ZFMT_LINEAR) {
        return z >> 8;
    }
    while (e < max && (z >> (23 - e)) & 1) {
        e++;
    }
    /* the mantissa follows the ones and, below the maximum, the zero */
    low = 24 - e - mbits - (e < max ? 1 : 0);
    return e << mbits | ((z >> low) & ((1u << mbits) - 1));
}

uint32_t flipper_z16_expand(uint32_t code, unsigned f)
{
    unsigned max = z16_max_exp[f & 3], mbits = 16 - (f & 3) - 1, e;
    uint32_t ones, m;

    code &= 0xFFFF;
    if ((f & 3) == PE_ZFMT_LINEAR) {
        return code << 8 | code >> 8;
    }
    e = MIN(code >> mbits, max);
    m = code & ((1u << mbits) - 1);
    ones = ((1u << e) - 1) << (24 - e);
    return ones | m << (24 - e - mbits - (e < max ? 1 : 0));
}

/* the depth word a Z of the current format stores */
static uint32_t depth_word(FlipperCore *c, uint32_t z)
{
    if (pixel_format(c) == PE_FMT_RGB565_Z16) {
        unsigned f = z16_format(c);
        return flipper_z16_expand(flipper_z16_compress(z, f), f);
    }
    return z & 0xFFFFFF;
}

uint32_t flipper_pe_clear_depth(FlipperCore *c, uint32_t z)
{
    return depth_word(c, z);
}

void flipper_pe_set_depth(FlipperCore *c, int x, int y, uint32_t z)
{
    if ((c->bp[BP_ZMODE] >> 4) & 1) {
        c->efb_depth[y * EFB_W + x] = depth_word(c, z);
    }
}

/* a Z compare (GX code `func`) of the current format; true: passes */
static bool depth_passes(FlipperCore *c, unsigned func, uint32_t z,
                         uint32_t stored)
{
    if (pixel_format(c) == PE_FMT_RGB565_Z16) {
        unsigned f = z16_format(c);
        z = flipper_z16_compress(z, f);
        stored = flipper_z16_compress(stored, f);
    }
    return g3d_compare_u((G3DCompare)(func & 7), z & 0xFFFFFF,
                         stored & 0xFFFFFF);
}

bool flipper_pe_zcompare(FlipperCore *c, int x, int y, uint32_t z)
{
    uint32_t *d = &c->efb_depth[y * EFB_W + x];
    uint32_t zm = c->bp[BP_ZMODE];

    /* the GX compare codes are G3DCompare's order (doc BP 0x40) */
    if (!depth_passes(c, zm >> 1, z, *d)) {
        return false;
    }
    if ((zm >> 4) & 1) {
        *d = depth_word(c, z);
    }
    return true;
}

static uint8_t factor(int code, bool is_src, int ch, const uint8_t s[4],
                      const uint8_t d[4])
{
    switch (code) {
    case 0: return 0;
    case 1: return 255;
    case 2: return is_src ? d[ch] : s[ch];           /* DSTCLR / SRCCLR */
    case 3: return 255 - (is_src ? d[ch] : s[ch]);
    case 4: return s[A];
    case 5: return 255 - s[A];
    case 6: return d[A];
    default: return 255 - d[A];
    }
}

/*
 * Blend, logic op, destination alpha, dither and the update masks: cm has
 * BP 0x41's layout, ca BP 0x42's (the GP's registers, or PE_ALPHACONF and
 * PE_DSTALPHA for CPU pokes).
 */
static void blend_store(FlipperCore *c, int x, int y, const uint8_t src[4],
                        uint32_t cm, uint32_t ca)
{
    uint8_t dst[4], res[4];
    int k;

    /* the destination is read only for a blend or a logic op */
    if (cm & 3) {
        unpack(flipper_pe_get_color(c, x, y), dst);
    }
    if (cm & 1) {
        if ((cm >> 11) & 1) {
            for (k = 0; k < 4; k++) {
                int v = dst[k] - src[k];
                res[k] = v < 0 ? 0 : v;
            }
        } else {
            int sf = (cm >> 8) & 7, df = (cm >> 5) & 7;
            for (k = 0; k < 4; k++) {
                unsigned fs = factor(sf, true, k, src, dst);
                unsigned fd = factor(df, false, k, src, dst);
                unsigned v;
                fs += fs >> 7;
                fd += fd >> 7;
                v = (src[k] * fs + dst[k] * fd) >> 8;
                res[k] = v > 255 ? 255 : v;
            }
        }
    } else if ((cm >> 1) & 1) {
        uint32_t s = (uint32_t)src[R] << 24 | src[G] << 16 | src[B] << 8 | src[A];
        uint32_t d = (uint32_t)dst[R] << 24 | dst[G] << 16 | dst[B] << 8 | dst[A];
        unpack(g3d_logic_op((cm >> 12) & 15, s, d), res);
    } else {
        memcpy(res, src, 4);
    }
    if ((ca >> 8) & 1) {
        res[A] = ca & 0xFF;     /* destination alpha constant */
    }
    if ((cm >> 3) & 1) {
        if (((cm >> 2) & 1) && pixel_format(c) == PE_FMT_RGBA6_Z24) {
            static const uint8_t bayer[2][2] = { { 0, 2 }, { 3, 1 } };
            for (k = R; k <= B; k++) {
                res[k] = ((res[k] - (res[k] >> 6)) + bayer[y & 1][x & 1]) &
                         0xFC;
            }
        }
        store(c, x, y, res, true, (cm >> 4) & 1);
    } else if ((cm >> 4) & 1) {
        store(c, x, y, res, false, true);
    }
}

void flipper_pe_blend(FlipperCore *c, int x, int y, const uint8_t src[4])
{
    blend_store(c, x, y, src, c->bp[BP_BLENDMODE], c->bp[BP_CONSTANTALPHA]);
}

/*
 * True when blend_store of any source under the current BP state stores
 * R << 16 | G << 8 | B and nothing else: RGB8_Z24 (no alpha is stored, so
 * the destination alpha constant cannot matter, and dither is RGBA6's only),
 * no blend or logic op, colour update on. The rasteriser's plain quad
 * stores that word itself.
 */
bool flipper_pe_plain(FlipperCore *c)
{
    uint32_t cm = c->bp[BP_BLENDMODE];

    return pixel_format(c) == PE_FMT_RGB8_Z24 && !(cm & 3) && ((cm >> 3) & 1);
}

/* ---- CPU EFB access ------------------------------------------------------- */

enum { EFB_CPU_COLOR = 0, EFB_CPU_Z = 1 };

/* x, y and type of a window offset; false (logged) if it is not a pixel */
static bool efb_cpu_pixel(uint32_t offset, int *x, int *y, int *type)
{
    *x = (offset >> 2) & 0x3FF;
    *y = (offset >> 12) & 0x3FF;
    *type = (offset >> 22) & 3;
    if ((offset & 3) || offset >= FLIPPER_EFB_CPU_SPAN || *x >= EFB_W ||
        *y >= EFB_H || *type > EFB_CPU_Z) {
        g3d_guest_error("flipper: PE: EFB access at offset 0x%06x is not a "
                        "pixel (x %d, y %d, type %d)", offset, *x, *y, *type);
        return false;
    }
    return true;
}

uint32_t flipper_efb_peek(FlipperCore *c, uint32_t offset)
{
    int x, y, type;
    uint32_t v;

    if (!efb_cpu_pixel(offset, &x, &y, &type)) {
        return 0;
    }
    flipper_flush(c);
    if (type == EFB_CPU_Z) {
        uint32_t z = c->efb_depth[y * EFB_W + x] & 0xFFFFFF;

        /* 16-bit Z peeks as its 16 bits (Dolphin's EFB peek) */
        return pixel_format(c) == PE_FMT_RGB565_Z16 ?
               flipper_z16_compress(z, z16_format(c)) : z;
    }
    v = flipper_pe_get_color(c, x, y);
    v = (v & 0xFF) << 24 | v >> 8;
    /* PE_ALPHAREAD bits 0-1 (Dolphin's ReadMode): 0 reads alpha 0x00,
     * 1 reads 0xFF, 2-3 the EFB's alpha (0xFF in formats without) */
    switch (c->pe.mmio[(A_PE_ALPHAREAD - FLIPPER_PE_BASE) / 2] & 3) {
    case 0:
        return v & 0xFFFFFF;
    case 1:
        return v | 0xFF000000u;
    default:
        return v;
    }
}

void flipper_efb_poke(FlipperCore *c, uint32_t offset, uint32_t val)
{
    const uint16_t *m = c->pe.mmio;
    uint32_t zconf = m[(A_PE_ZCONF - FLIPPER_PE_BASE) / 2];
    uint32_t amode = m[(A_PE_ALPHAMODE - FLIPPER_PE_BASE) / 2];
    int x, y, type;

    if (!efb_cpu_pixel(offset, &x, &y, &type)) {
        return;
    }
    flipper_flush(c);
    if (type == EFB_CPU_Z) {
        uint32_t *d = &c->efb_depth[y * EFB_W + x], z = val & 0xFFFFFF;

        /* PE_ZCONF: BP 0x40's layout (libogc GX_PokeZMode) */
        if ((zconf & 1) && !depth_passes(c, zconf >> 1, z, *d)) {
            return;
        }
        if ((zconf >> 4) & 1) {
            *d = depth_word(c, z);
        }
    } else {
        uint8_t src[4] = { val >> 16, val >> 8, val, val >> 24 };

        /* PE_ALPHAMODE: func << 8 | threshold (libogc GX_PokeAlphaMode),
         * the poked alpha compared with the threshold */
        if (!g3d_compare_u((G3DCompare)((amode >> 8) & 7), src[A],
                           amode & 0xFF)) {
            return;
        }
        blend_store(c, x, y, src, m[(A_PE_ALPHACONF - FLIPPER_PE_BASE) / 2],
                    m[(A_PE_DSTALPHA - FLIPPER_PE_BASE) / 2]);
    }
}

/* ---- MMIO ---------------------------------------------------------------- */

static uint16_t pe_read16(FlipperCore *c, uint32_t off)
{
    FlipperPE *pe = &c->pe;

    switch (off + FLIPPER_PE_BASE) {
    case A_PE_ISR:
        return (pe->token_en ? R_PE_ISR_TOKEN_ENABLE_MASK : 0) |
               (pe->finish_en ? R_PE_ISR_FINISH_ENABLE_MASK : 0) |
               (pe->token_int ? R_PE_ISR_TOKEN_MASK : 0) |
               (pe->finish_int ? R_PE_ISR_FINISH_MASK : 0);
    case A_PE_TOKEN:
        return pe->token;
    case A_PE_BBOX_LEFT:
    case A_PE_BBOX_RIGHT:
    case A_PE_BBOX_TOP:
    case A_PE_BBOX_BOTTOM:
        flipper_flush(c);       /* the box grows as the triangles are drawn */
        return pe->bbox[(off + FLIPPER_PE_BASE - A_PE_BBOX_LEFT) / 2];
    default:
        if (off + FLIPPER_PE_BASE >= A_PE_PERF_FIRST) {
            return 0;       /* performance counters: not modelled */
        }
        return pe->mmio[off / 2];
    }
}

static void pe_write16(FlipperCore *c, uint32_t off, uint16_t val)
{
    FlipperPE *pe = &c->pe;

    switch (off + FLIPPER_PE_BASE) {
    case A_PE_ZCONF:
    case A_PE_ALPHACONF:
    case A_PE_DSTALPHA:
    case A_PE_ALPHAMODE:
    case A_PE_ALPHAREAD:
        /* how CPU EFB peeks and pokes behave (flipper_efb_peek/poke) */
        pe->mmio[off / 2] = val;
        break;
    case A_PE_ISR:
        pe->token_en = val & R_PE_ISR_TOKEN_ENABLE_MASK;
        pe->finish_en = val & R_PE_ISR_FINISH_ENABLE_MASK;
        if (val & R_PE_ISR_TOKEN_MASK) {
            pe->token_int = false;
        }
        if (val & R_PE_ISR_FINISH_MASK) {
            pe->finish_int = false;
        }
        break;
    default:
        if (off + FLIPPER_PE_BASE >= A_PE_PERF_FIRST &&
            off + FLIPPER_PE_BASE <= A_PE_PERF_LAST) {
            return;     /* counters: writes ignored */
        }
        g3d_guest_error("flipper: PE: write 0x%04x to unknown register 0x%02x",
                        val, off);
        break;
    }
}

static const FlipperRegRow pe_regs[] = {
    FLIPPER_REG_RANGE(PE_ZCONF, PE_ISR, 2, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(PE_TOKEN, 2, FLIPPER_REG_RO),
    FLIPPER_REG_RANGE(PE_BBOX_LEFT, PE_BBOX_BOTTOM, 2, FLIPPER_REG_RO),
    FLIPPER_REG_RANGE(PE_PERF_FIRST, PE_PERF_LAST, 2, FLIPPER_REG_COUNTER),
};

const FlipperBlock flipper_pe_block = {
    .name = "PE", .base = FLIPPER_PE_BASE, .span = PE_REG_SPAN,
    FLIPPER_BLOCK_REGS(pe_regs),
    .intsr = flipper_pe_irq,
    .read16 = pe_read16, .write16 = pe_write16,
};
