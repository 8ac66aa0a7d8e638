/*
 * R300 TX: the texture units [R3xx 3D ref. §1.8 TX].
 *
 * Sources and decisions (the reference is silent on all of them (reference
 * defect R300-77, docs/references.md)):
 * - texel formats: the TXFORMAT table of R3xx 3D ref. §1.8 TX,
 *   repaired from Mesa r300_reg.h;
 *   component 0 is the least significant field. DXT1/3/5 are the S3TC
 *   blocks (codes 15-17, Mesa); decoded components are R, G, B, A in
 *   component 0-3 (not B, G, R, A as 8_8_8_8 stores them): Mesa's R300
 *   swizzle for DXT1 selects X for red where its ARGB8888 swizzle selects
 *   Z (`r300_texture.c` r300_get_swizzle_combined, dxtc_swizzle off below
 *   R420, whose TX_FILTER1 enables the exchange).
 *   R4xx's R400_DXTC_SWIZZLE_ENABLE, which gives the 8_8_8_8 order, is
 *   not an R300 bit.
 * - YUV formats: the SEL_* swizzle is ignored (reference L1396); the texel
 *   reads (R, G, B, A) = (V, Y, U, A), or the BT.601 limited-range
 *   conversion when YUV_TO_RGB is set. 4:2:2 pairs are named most
 *   significant byte first: VYUY422 = Y0 U Y1 V in memory (YUY2), YVYU422 =
 *   U Y0 V Y1 (UYVY). Y8 reads (Y, Y, Y, 1).
 * - mip chain layout [EXT Mesa r300_texture_desc.c]: levels
 *   consecutive, rows padded to 32 bytes, heights rounded up to a power of
 *   two when the texture has mip levels or is 3D or a cube; cube faces are
 *   6 consecutive images per level in the order +X -X +Y -Y +Z -Z.
 * - cube face selection: the major axis, with the face coordinates of the
 *   OpenGL 2.1 specification §3.8.6 table 3.19 (D3D uses the same faces
 *   and orientation).
 * - LOD: log2 of the longer of the two screen-space footprints of the quad
 *   (texel units, level 0), plus TX_FILTER1.LOD_BIAS and the LODBIAS
 *   instruction's q; clamped to MAX_MIP_LEVEL..NUM_LEVELS (D3D MaxMipLevel
 *   semantics). LOD <= 0 magnifies.
 * - MIP_FILTER none samples level 0 and ignores MAX_MIP_LEVEL, as D3D9 does
 *   with D3DSAMP_MAXMIPLEVEL under D3DTEXF_NONE ("with mipmapping disabled,
 *   the max mip level is ignored, only level 0 is used": Wine
 *   dlls/d3d9/tests/visual.c maxmip_test, run on Windows drivers). Mesa
 *   relies on it: TX_OFFSET points at GL's base level and MAX_MIP_LEVEL
 *   holds GL_TEXTURE_MIN_LOD whatever the mip filter
 *   (r300_state_derived.c r300_merge_textures_and_samplers), and GL samples
 *   the base level when the min filter has no mipmaps.
 * - GAMMA: R, G and B taken from components of 8 bits or fewer are rounded
 *   to 8 bits and linearised with the sRGB curve (IEC 61966-2-1); alpha
 *   never is.
 * - border colour: decoded like a texel of the unit's format when that
 *   format is a packed one of at most 32 bits, else as 8_8_8_8.
 * - 16_MPEG and 16_16_MPEG read as 16 and 16_16; W24_FP is not modelled.
 * - CHROMA_KEY_MODE 1 (kill) cannot reach the US through the sampler: it
 *   acts as mode 2 (the texel reads 0) and is logged as not modelled.
 * - absent components of a format read 0; a 1-bit field is never signed.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300/tx.h"

#include <glib.h>
#include <math.h>
#include <string.h>

#include "common/fpformat.h"
#include "common/texaddr.h"
#include "r300/us.h"

/* how a format stores its texels */
enum {
    TXK_NONE,       /* not decodable: the unit is disabled */
    TXK_PACKED,     /* unsigned/signed normalised fields in 1, 2 or 4 bytes */
    TXK_PACKED64,   /* four 16-bit fields */
    TXK_F16,        /* 1, 2 or 4 IEEE halves */
    TXK_F32,        /* 1, 2 or 4 IEEE singles */
    TXK_DXT1, TXK_DXT3, TXK_DXT5,
    TXK_Y8, TXK_AVYU, TXK_VYUY, TXK_YVYU,
};

typedef struct TxFormat {
    uint8_t kind, bytes, bits[4];
} TxFormat;

static const TxFormat tx_formats[32] = {
    [R300_TX_FMT_8] = { TXK_PACKED, 1, { 8 } },
    [R300_TX_FMT_16] = { TXK_PACKED, 2, { 16 } },
    [R300_TX_FMT_4_4] = { TXK_PACKED, 1, { 4, 4 } },
    [R300_TX_FMT_8_8] = { TXK_PACKED, 2, { 8, 8 } },
    [R300_TX_FMT_16_16] = { TXK_PACKED, 4, { 16, 16 } },
    [R300_TX_FMT_3_3_2] = { TXK_PACKED, 1, { 2, 3, 3 } },
    [R300_TX_FMT_5_6_5] = { TXK_PACKED, 2, { 5, 6, 5 } },
    [R300_TX_FMT_6_5_5] = { TXK_PACKED, 2, { 5, 5, 6 } },
    [R300_TX_FMT_11_11_10] = { TXK_PACKED, 4, { 10, 11, 11 } },
    [R300_TX_FMT_10_11_11] = { TXK_PACKED, 4, { 11, 11, 10 } },
    [R300_TX_FMT_4_4_4_4] = { TXK_PACKED, 2, { 4, 4, 4, 4 } },
    [R300_TX_FMT_1_5_5_5] = { TXK_PACKED, 2, { 5, 5, 5, 1 } },
    [R300_TX_FMT_8_8_8_8] = { TXK_PACKED, 4, { 8, 8, 8, 8 } },
    [R300_TX_FMT_2_10_10_10] = { TXK_PACKED, 4, { 10, 10, 10, 2 } },
    [R300_TX_FMT_16_16_16_16] = { TXK_PACKED64, 8, { 16, 16, 16, 16 } },
    [R300_TX_FMT_DXT1] = { TXK_DXT1, 8, { 8, 8, 8, 8 } },
    [R300_TX_FMT_DXT3] = { TXK_DXT3, 16, { 8, 8, 8, 8 } },
    [R300_TX_FMT_DXT5] = { TXK_DXT5, 16, { 8, 8, 8, 8 } },
    [R300_TX_FMT_Y8] = { TXK_Y8, 1, { 8, 8, 8, 8 } },
    [R300_TX_FMT_AVYU444] = { TXK_AVYU, 4, { 8, 8, 8, 8 } },
    [R300_TX_FMT_VYUY422] = { TXK_VYUY, 4, { 8, 8, 8, 8 } },
    [R300_TX_FMT_YVYU422] = { TXK_YVYU, 4, { 8, 8, 8, 8 } },
    /* MPEG motion-compensation formats: read as plain 16-bit fields */
    [R300_TX_FMT_16_MPEG] = { TXK_PACKED, 2, { 16 } },
    [R300_TX_FMT_16_16_MPEG] = { TXK_PACKED, 4, { 16, 16 } },
    [R300_TX_FMT_16F] = { TXK_F16, 2, { 16 } },
    [R300_TX_FMT_16F_16F] = { TXK_F16, 4, { 16, 16 } },
    [R300_TX_FMT_16F_16F_16F_16F] = { TXK_F16, 8, { 16, 16, 16, 16 } },
    [R300_TX_FMT_32F] = { TXK_F32, 4, { 32 } },
    [R300_TX_FMT_32F_32F] = { TXK_F32, 8, { 32, 32 } },
    [R300_TX_FMT_32F_32F_32F_32F] = { TXK_F32, 16, { 32, 32, 32, 32 } },
};

static bool tx_is_block(unsigned kind)
{
    return kind >= TXK_DXT1 && kind <= TXK_DXT5;
}

static bool tx_is_pair(unsigned kind)
{
    return kind == TXK_VYUY || kind == TXK_YVYU;
}

static bool tx_is_yuv(unsigned kind)
{
    return kind >= TXK_Y8;
}

/* ---- sRGB ------------------------------------------------------------- */

static float tx_srgb_table[256];

static const float *tx_srgb(void)
{
    static gsize once;

    if (g_once_init_enter(&once)) {
        int i;
        for (i = 0; i < 256; i++) {
            double c = i / 255.0;
            tx_srgb_table[i] = c <= 0.04045 ? c / 12.92
                                            : pow((c + 0.055) / 1.055, 2.4);
        }
        g_once_init_leave(&once, 1);
    }
    return tx_srgb_table;
}

/* ---- texel fetch ----------------------------------------------------- */

uint64_t r300_tx_texel_address(const R300TexUnit *u, unsigned level,
                               unsigned x, unsigned y, unsigned z)
{
    uint64_t off = u->level_offset[level] + z * u->level_slice[level];
    unsigned pitch = u->level_pitch[level];

    if (u->tiled) {
        return off + r300_tile_offset(&u->level_tiling[level], x, y);
    }
    if (tx_is_block(u->kind)) {
        return off + (uint64_t)(y / 4) * pitch + (x / 4) * u->bytes_per;
    }
    if (tx_is_pair(u->kind)) {
        return off + (uint64_t)y * pitch + (x / 2) * 4;
    }
    return off + (uint64_t)y * pitch + (uint64_t)x * u->bytes_per;
}

static uint32_t tx_swap32(uint32_t v, unsigned mode)
{
    switch (mode) {
    case 1:     /* 16-bit swap: 0xAABBCCDD -> 0xBBAADDCC */
        return (v & 0xff00ff00u) >> 8 | (v & 0x00ff00ffu) << 8;
    case 2:     /* 32-bit swap */
        return (v >> 24) | (v >> 8 & 0xff00) | (v << 8 & 0xff0000) | v << 24;
    case 3:     /* half-dword swap */
        return v >> 16 | v << 16;
    default:
        return v;
    }
}

/* n (<= 16) bytes at `off`, through TX_OFFSET.ENDIAN_SWAP */
static inline void tx_read(const R300TexUnit *u, uint64_t off, unsigned n,
                           uint8_t *buf)
{
    uint8_t tmp[24];
    uint64_t start, end, i;

    if (!u->endian) {
        if (off + n <= u->bytes) {
            memcpy(buf, u->texels + off, n);
        } else {
            memset(buf, 0, n);
        }
        return;
    }
    /* swaps work on the aligned dwords holding the texel */
    start = off & ~3ull;
    end = (off + n + 3) & ~3ull;
    if (end > u->bytes) {
        memset(buf, 0, n);
        return;
    }
    for (i = start; i < end; i += 4) {
        const uint8_t *s = u->texels + i;
        uint32_t w = tx_swap32(s[0] | s[1] << 8 | s[2] << 16 |
                               (uint32_t)s[3] << 24, u->endian);
        tmp[i - start] = w;
        tmp[i - start + 1] = w >> 8;
        tmp[i - start + 2] = w >> 16;
        tmp[i - start + 3] = w >> 24;
    }
    memcpy(buf, tmp + (off - start), n);
}

static uint64_t tx_le(const uint8_t *b, unsigned n)
{
    uint64_t v = 0;
    unsigned i;

    for (i = 0; i < n; i++) {
        v |= (uint64_t)b[i] << (8 * i);
    }
    return v;
}

/* expand a 5- or 6-bit field to 8 bits by replicating its top bits */
static unsigned tx_expand8(unsigned v, unsigned bits)
{
    return (v << (8 - bits)) | (v >> (2 * bits - 8));
}

/* DXT colour block (8 bytes) texel i: 8-bit R, G, B, A */
static void tx_dxt_color(const uint8_t *b, unsigned i, bool dxt1,
                         unsigned out[4])
{
    unsigned c0 = b[0] | b[1] << 8, c1 = b[2] | b[3] << 8;
    unsigned sel = (b[4 + i / 4] >> (2 * (i % 4))) & 3;
    unsigned e[2][3], k;

    for (k = 0; k < 2; k++) {
        unsigned c = k ? c1 : c0;
        e[k][0] = tx_expand8(c >> 11, 5);           /* R */
        e[k][1] = tx_expand8((c >> 5) & 63, 6);     /* G */
        e[k][2] = tx_expand8(c & 31, 5);            /* B */
    }
    out[3] = 255;
    for (k = 0; k < 3; k++) {
        switch (sel) {
        case 0:
            out[k] = e[0][k];
            break;
        case 1:
            out[k] = e[1][k];
            break;
        case 2:
            out[k] = (!dxt1 || c0 > c1) ? (2 * e[0][k] + e[1][k] + 1) / 3
                                        : (e[0][k] + e[1][k]) / 2;
            break;
        default:
            if (!dxt1 || c0 > c1) {
                out[k] = (e[0][k] + 2 * e[1][k] + 1) / 3;
            } else {
                out[k] = 0;     /* DXT1 3-colour mode: transparent black */
                out[3] = 0;
            }
            break;
        }
    }
}

/* DXT5 interpolated alpha block (8 bytes), texel i */
static unsigned tx_dxt5_alpha(const uint8_t *b, unsigned i)
{
    unsigned a0 = b[0], a1 = b[1];
    uint64_t bits = tx_le(b + 2, 6);
    unsigned s = (bits >> (3 * i)) & 7;

    if (s == 0) {
        return a0;
    }
    if (s == 1) {
        return a1;
    }
    if (a0 > a1) {
        return ((8 - s) * a0 + (s - 1) * a1 + 3) / 7;
    }
    if (s == 6) {
        return 0;
    }
    if (s == 7) {
        return 255;
    }
    return ((6 - s) * a0 + (s - 1) * a1 + 2) / 5;
}

/* BT.601 limited range, 8-bit Y U V in, R G B out */
static void tx_yuv_rgb(const R300TexUnit *u, unsigned y, unsigned cb,
                       unsigned cr, float rgb[3])
{
    float yy = 1.164383f * ((float)y - 16.0f) / 255.0f;
    float uu = ((float)cb - 128.0f) / 255.0f;
    float vv = ((float)cr - 128.0f) / 255.0f;
    int k;

    rgb[0] = yy + 1.596027f * vv;
    rgb[1] = yy - 0.391762f * uu - 0.812968f * vv;
    rgb[2] = yy + 2.017232f * uu;
    if (u->yuv == 1) {
        for (k = 0; k < 3; k++) {
            rgb[k] = g3d_clampf(rgb[k], 0.0f, 1.0f);
        }
    }
}

static void tx_yuv(const R300TexUnit *u, unsigned y, unsigned cb,
                   unsigned cr, unsigned a, float rgba[4])
{
    if (u->swap_yuv) {
        cb ^= 0x80;
        cr ^= 0x80;
    }
    if (u->yuv) {
        tx_yuv_rgb(u, y, cb, cr, rgba);
    } else {
        rgba[0] = cr / 255.0f;
        rgba[1] = y / 255.0f;
        rgba[2] = cb / 255.0f;
    }
    rgba[3] = a / 255.0f;
}

/* the swizzle (and GAMMA) from components to channel ch of R, G, B, A */
static inline float tx_swizzle1(const R300TexUnit *u, const float c[4],
                                int ch)
{
    unsigned s = u->sel[ch];
    float v = s < 4 ? c[s] : s == R300_TX_SEL_ONE ? 1.0f : 0.0f;

    if (u->any_gamma && u->gamma[ch]) {
        v = tx_srgb()[(int)(g3d_clampf(v, 0.0f, 1.0f) * 255.0f + 0.5f)];
    }
    return v;
}

/*
 * Stored as one 16-byte vector: the filter reads the texel back as one, and
 * four scalar stores would stall that load (no store-to-load forwarding).
 */
typedef float TxVec __attribute__((vector_size(16)));

static inline void tx_swizzle(const R300TexUnit *u, const float c[4],
                              float rgba[4])
{
    TxVec v = { tx_swizzle1(u, c, 0), tx_swizzle1(u, c, 1),
                tx_swizzle1(u, c, 2), tx_swizzle1(u, c, 3) };

    memcpy(rgba, &v, sizeof(v));
}

/* components of a packed value of the unit's format */
static inline void tx_unpack(const R300TexUnit *u, uint64_t raw, float c[4])
{
    unsigned k;

    for (k = 0; k < 4; k++) {
        unsigned n = u->bits[k];
        uint32_t v = (uint32_t)(raw >> u->shift[k]) &
                     (uint32_t)((1ull << n) - 1);

        if ((u->signed_comp >> k) & 1 && n >= 2) {
            float f = (float)g3d_sextract32(v, 0, n) * u->scale[k];
            c[k] = f < -1.0f ? -1.0f : f;
        } else {
            c[k] = (float)v * u->scale[k];      /* 0 for absent components */
        }
    }
}

/* the factors tx_unpack uses: 1/(2^n - 1), or 1/(2^(n-1) - 1) if signed */
static void tx_unpack_setup(R300TexUnit *u)
{
    unsigned k, shift = 0;

    for (k = 0; k < 4; k++) {
        unsigned n = u->bits[k];
        u->shift[k] = n ? shift : 0;
        if (n == 0) {
            u->scale[k] = 0.0f;
        } else if ((u->signed_comp >> k) & 1 && n >= 2) {
            u->scale[k] = 1.0f / (float)((1u << (n - 1)) - 1);
        } else {
            u->scale[k] = 1.0f / (float)((1ull << n) - 1);
        }
        shift += n;
    }
}

static inline void tx_fetch(const R300TexUnit *u, unsigned level, unsigned x,
                     unsigned y, unsigned z, float rgba[4])
{
    uint64_t off = r300_tx_texel_address(u, level, x, y, z);
    uint8_t b[16];
    float c[4] = { 0, 0, 0, 0 };
    unsigned k, v[4];
    uint64_t raw;

    switch (u->kind) {
    case TXK_PACKED:
    case TXK_PACKED64:
        if (!u->endian && off + u->bytes_per <= u->bytes) {
            /* the common case, without the byte-swapping copy */
            const uint8_t *t = u->texels + off;
            switch (u->bytes_per) {
            case 1:
                raw = t[0];
                break;
            case 2:
                raw = t[0] | t[1] << 8;
                break;
            case 4:
                raw = t[0] | t[1] << 8 | t[2] << 16 | (uint32_t)t[3] << 24;
                break;
            default:
                raw = tx_le(t, 8);
                break;
            }
        } else {
            tx_read(u, off, u->bytes_per, b);
            raw = tx_le(b, u->bytes_per);
        }
        if (u->chroma_mode && u->bytes_per <= 4 &&
            raw == (u->chroma_key & (uint32_t)((1ull << (8 * u->bytes_per)) - 1))) {
            /* ChromaKeyBlend: a matching texel is 0 [R3xx 3D ref. §1.8 TX] */
            memset(rgba, 0, 4 * sizeof(float));
            return;
        }
        tx_unpack(u, raw, c);
        break;
    case TXK_F16:
        tx_read(u, off, u->bytes_per, b);
        for (k = 0; k < u->bytes_per / 2u; k++) {
            c[k] = g3d_float_unpack(b[2 * k] | b[2 * k + 1] << 8,
                                    &g3d_fp16_ieee);
        }
        break;
    case TXK_F32:
        tx_read(u, off, u->bytes_per, b);
        memcpy(c, b, u->bytes_per);
        break;
    case TXK_DXT1:
    case TXK_DXT3:
    case TXK_DXT5: {
        unsigned i = (y & 3) * 4 + (x & 3);
        tx_read(u, off, u->bytes_per, b);
        if (u->kind == TXK_DXT1) {
            tx_dxt_color(b, i, true, v);
        } else {
            tx_dxt_color(b + 8, i, false, v);
            v[3] = u->kind == TXK_DXT3 ? ((b[i / 2] >> (4 * (i & 1))) & 15) * 17
                                       : tx_dxt5_alpha(b, i);
        }
        for (k = 0; k < 4; k++) {
            c[k] = v[k] / 255.0f;
        }
        break;
    }
    case TXK_Y8:
        tx_read(u, off, 1, b);
        if (u->yuv) {
            tx_yuv(u, b[0], 0x80 ^ (u->swap_yuv ? 0x80 : 0),
                   0x80 ^ (u->swap_yuv ? 0x80 : 0), 255, rgba);
        } else {
            rgba[0] = rgba[1] = rgba[2] = b[0] / 255.0f;
            rgba[3] = 1.0f;
        }
        goto yuv_gamma;
    case TXK_AVYU:
        tx_read(u, off, 4, b);
        tx_yuv(u, b[1], b[0], b[2], b[3], rgba);
        goto yuv_gamma;
    case TXK_VYUY:      /* bytes Y0 U Y1 V */
        tx_read(u, off, 4, b);
        tx_yuv(u, b[(x & 1) ? 2 : 0], b[1], b[3], 255, rgba);
        goto yuv_gamma;
    case TXK_YVYU:      /* bytes U Y0 V Y1 */
        tx_read(u, off, 4, b);
        tx_yuv(u, b[(x & 1) ? 3 : 1], b[0], b[2], 255, rgba);
        goto yuv_gamma;
    default:
        rgba[0] = rgba[1] = rgba[2] = 0.0f;
        rgba[3] = 1.0f;
        return;
    }
    tx_swizzle(u, c, rgba);
    return;

yuv_gamma:
    /* the swizzle is ignored for Y/YUV formats (reference L1396) */
    for (k = 0; k < 3; k++) {
        if (u->gamma[k]) {
            rgba[k] = tx_srgb()[(int)(g3d_clampf(rgba[k], 0, 1) * 255 + .5f)];
        }
    }
}

/* ---- load ------------------------------------------------------------- */

static unsigned tx_pow2_ceil(unsigned v)
{
    unsigned p = 1;

    while (p < v) {
        p <<= 1;
    }
    return p;
}

static uint8_t tx_filter(unsigned f, int unit, const char *what)
{
    if (f == R300_TX_FILTER_ANISO) {
        g3d_unimp("r300 tx%d: anisotropic %s filter sampled as linear",
                  unit, what);
        return R300_TX_FILTER_LINEAR;
    }
    if (f == 0) {
        g3d_guest_error("r300 tx%d: %s filter 0 is reserved; point used",
                        unit, what);
        return R300_TX_FILTER_POINT;
    }
    return f;
}

static void tx_decode_border(R300TexUnit *u)
{
    float c[4];

    if (u->kind == TXK_PACKED && u->bytes_per <= 4) {
        tx_unpack(u, u->border, c);
        tx_swizzle(u, c, u->border_rgba);
        return;
    }
    /* 8_8_8_8: B G R A from the low byte up */
    c[0] = (u->border & 0xff) / 255.0f;
    c[1] = ((u->border >> 8) & 0xff) / 255.0f;
    c[2] = ((u->border >> 16) & 0xff) / 255.0f;
    c[3] = (u->border >> 24) / 255.0f;
    if (tx_is_yuv(u->kind)) {
        u->border_rgba[0] = c[2];
        u->border_rgba[1] = c[1];
        u->border_rgba[2] = c[0];
        u->border_rgba[3] = c[3];
    } else {
        tx_swizzle(u, c, u->border_rgba);
    }
}

/*
 * Level `l` of a tiled texture: macro tiled while both its dimensions
 * exceed the macro tile's (R300; RV350 and later switch at >=, Mesa
 * r300_texture_desc.c r300_texture_macro_switch); its pitch and rows
 * aligned to the tile, as Mesa lays the chain out (r300_setup_miptree).
 */
static void tx_level_tiling(R300TexUnit *u, unsigned l, unsigned w,
                            unsigned *rows, uint64_t *row)
{
    bool macro = G3D_FIELD_EX32(u->offset, TX_OFFSET_0, MACRO_TILE);
    unsigned micro = G3D_FIELD_EX32(u->offset, TX_OFFSET_0, MICRO_TILE);
    R300Tiling *t = &u->level_tiling[l];
    uint32_t aw, ah;

    if (macro) {
        r300_tile_setup(t, u->bytes_per, w, true, micro);
        macro = w > r300_tile_align_w(t) &&
                MAX(1u, u->height >> l) > r300_tile_align_h(t);
    }
    r300_tile_setup(t, u->bytes_per, w, macro, micro);
    aw = r300_tile_align_w(t);
    ah = r300_tile_align_h(t);
    w = (w + aw - 1) & ~(aw - 1);
    r300_tile_setup(t, u->bytes_per, w, macro, micro);
    *rows = (*rows + ah - 1) & ~(ah - 1);
    *row = (uint64_t)w * u->bytes_per;
}

/* the mip chain [Mesa r300_texture_desc.c]; false if the registers make no
 * texture */
static bool tx_layout(R300TexUnit *u, int unit)
{
    bool pow2_rows = u->levels > 1 || u->coord_type != R300_TX_COORD_2D;
    uint64_t total = 0;
    unsigned l;
    R300Tiling probe;

    u->tiled = (G3D_FIELD_EX32(u->offset, TX_OFFSET_0, MACRO_TILE) ||
                G3D_FIELD_EX32(u->offset, TX_OFFSET_0, MICRO_TILE));
    if (u->tiled && (tx_is_block(u->kind) || tx_is_pair(u->kind) ||
                     !r300_tile_setup(&probe, u->bytes_per, 1,
                                      G3D_FIELD_EX32(u->offset, TX_OFFSET_0,
                                                     MACRO_TILE),
                                      G3D_FIELD_EX32(u->offset, TX_OFFSET_0,
                                                     MICRO_TILE)))) {
        /* Mesa tiles plain formats only; the rest has no known layout */
        g3d_guest_error("r300 tx%d: TX_OFFSET 0x%08x tiles a format that "
                        "cannot be tiled; sampled as linear", unit, u->offset);
        u->tiled = false;
    }

    for (l = 0; l < u->levels; l++) {
        unsigned w = MAX(1u, u->width >> l), h = MAX(1u, u->height >> l);
        unsigned d = u->coord_type == R300_TX_COORD_3D ? MAX(1u, u->depth >> l)
                                                       : 1;
        unsigned rows = pow2_rows ? tx_pow2_ceil(h) : h;
        uint64_t row;

        if (tx_is_block(u->kind)) {
            row = (uint64_t)((w + 3) / 4) * u->bytes_per;
            rows = (rows + 3) / 4;
        } else if (tx_is_pair(u->kind)) {
            row = (uint64_t)((w + 1) / 2) * 4;
        } else {
            row = (uint64_t)w * u->bytes_per;
        }
        row = (row + 31) & ~31ull;
        if (u->tiled) {
            tx_level_tiling(u, l, w, &rows, &row);
        }
        if (l == 0 && G3D_FIELD_EX32(u->format0, TX_FORMAT0_0, TXPITCH_EN)) {
            unsigned pt = G3D_FIELD_EX32(u->format2, TX_FORMAT2_0, TXPITCH) + 1;
            uint64_t prow = tx_is_block(u->kind) ? (uint64_t)((pt + 3) / 4) * u->bytes_per
                          : tx_is_pair(u->kind) ? (uint64_t)((pt + 1) / 2) * 4
                          : (uint64_t)pt * u->bytes_per;
            if (pt < w) {
                g3d_guest_error("r300 tx%d: TXPITCH %u texels is below the "
                                "width %u", unit, pt, w);
                return false;
            }
            row = prow;
            if (u->tiled) {
                /* the pitch register gives the tiled surface's pitch */
                r300_tile_setup(&u->level_tiling[0], u->bytes_per, pt,
                                u->level_tiling[0].mw != 0,
                                G3D_FIELD_EX32(u->offset, TX_OFFSET_0,
                                               MICRO_TILE));
            }
        }
        u->level_w[l] = w;
        u->level_h[l] = h;
        u->level_d[l] = d;
        u->level_pitch[l] = row;
        u->level_slice[l] = u->tiled ? r300_tile_bytes(&u->level_tiling[l],
                                                       rows)
                                     : row * rows;
        u->level_offset[l] = total;
        total += u->level_slice[l] * d * u->faces;
    }
    u->bytes = total;
    return true;
}

static bool tx_map(R300TexUnit *u, int unit, const G3DMem *mem)
{
    uint64_t addr = u->offset & R300_TX_OFFSET_MASK;
    const uint8_t *p = g3d_mem_map(mem, addr, u->bytes, false);

    if (p) {
        u->texels = p;
        return true;
    }
    /* not one host block: copy it now, render threads never call `mem` */
    if (u->bytes > R300_TX_MAX_COPY) {
        g3d_guest_error("r300 tx%d: %" G_GUINT64_FORMAT " bytes at 0x%08"
                        G_GINT64_MODIFIER "x are not mappable and too big "
                        "to copy", unit, u->bytes, addr);
        return false;
    }
    if (u->copy_size < u->bytes) {
        g_free(u->copy);
        u->copy = g_try_malloc(u->bytes);
        u->copy_size = u->copy ? u->bytes : 0;
        if (!u->copy) {
            g3d_guest_error("r300 tx%d: no memory for a texture copy", unit);
            return false;
        }
    }
    if (!g3d_mem_read(mem, addr, u->copy, u->bytes)) {
        g3d_guest_error("r300 tx%d: texture at 0x%08" G_GINT64_MODIFIER "x + "
                        "%" G_GUINT64_FORMAT " bytes is outside memory", unit,
                        addr, u->bytes);
        return false;
    }
    u->texels = u->copy;
    return true;
}

bool r300_tx_load(R300TexUnit *u, const uint32_t *regs, int unit,
                  const G3DMem *mem)
{
    const TxFormat *f;
    unsigned k, i, l, nl;

    unit &= R300_TX_UNITS - 1;
    u->enabled = false;
    u->texels = NULL;
    u->bytes = 0;
    u->filter0 = regs[R300_TX_FILTER0(unit) / 4];
    u->filter1 = regs[R300_TX_FILTER1(unit) / 4];
    u->format0 = regs[R300_TX_FORMAT0(unit) / 4];
    u->format1 = regs[R300_TX_FORMAT1(unit) / 4];
    u->format2 = regs[R300_TX_FORMAT2(unit) / 4];
    u->offset = regs[R300_TX_OFFSET(unit) / 4];
    u->border = regs[R300_TX_BORDER_COLOR(unit) / 4];
    u->chroma_key = regs[R300_TX_CHROMA_KEY(unit) / 4];
    if (!((regs[R_TX_ENABLE] >> unit) & 1)) {
        return false;       /* disabled, no error */
    }

    u->fmt = G3D_FIELD_EX32(u->format1, TX_FORMAT1_0, TXFORMAT);
    f = &tx_formats[u->fmt];
    if (f->kind == TXK_NONE) {
        if (u->fmt == R300_TX_FMT_W24_FP) {
            g3d_unimp("r300 tx%d: format W24_FP not modelled", unit);
        } else {
            g3d_guest_error("r300 tx%d: TXFORMAT %u is reserved", unit,
                            u->fmt);
        }
        return false;
    }
    u->kind = f->kind;
    u->bytes_per = f->bytes;
    memcpy(u->bits, f->bits, 4);
    u->signed_comp = tx_is_yuv(u->kind) ? 0 :
        G3D_FIELD_EX32(u->format1, TX_FORMAT1_0, SIGNED_COMP);

    u->width = G3D_FIELD_EX32(u->format0, TX_FORMAT0_0, TXWIDTH) + 1;
    u->height = G3D_FIELD_EX32(u->format0, TX_FORMAT0_0, TXHEIGHT) + 1;
    u->coord_type = G3D_FIELD_EX32(u->format1, TX_FORMAT1_0, TEX_COORD_TYPE);
    u->depth = 1;
    u->faces = 1;
    if (u->coord_type == 3) {
        g3d_guest_error("r300 tx%d: TEX_COORD_TYPE 3 is reserved", unit);
        return false;
    }
    if (u->coord_type == R300_TX_COORD_3D) {
        k = G3D_FIELD_EX32(u->format0, TX_FORMAT0_0, TXDEPTH);
        if (k > 11) {
            g3d_guest_error("r300 tx%d: volume depth 2^%u above 2048", unit,
                            k);
            return false;
        }
        u->depth = 1u << k;
    } else if (u->coord_type == R300_TX_COORD_CUBE) {
        u->faces = 6;
        if (u->width != u->height) {
            g3d_guest_error("r300 tx%d: cube map %ux%u is not square", unit,
                            u->width, u->height);
        }
    }
    nl = G3D_FIELD_EX32(u->format0, TX_FORMAT0_0, NUM_LEVELS);
    if (nl >= R300_TX_MAX_LEVELS) {
        g3d_guest_error("r300 tx%d: NUM_LEVELS %u above %u", unit, nl,
                        R300_TX_MAX_LEVELS - 1);
        nl = R300_TX_MAX_LEVELS - 1;
    }
    u->levels = nl + 1;
    u->max_level = nl;
    u->base_level = MIN(G3D_FIELD_EX32(u->filter0, TX_FILTER0_0,
                                       MAX_MIP_LEVEL), nl);
    u->projected = G3D_FIELD_EX32(u->format0, TX_FORMAT0_0, PROJECTED);

    u->clamp[0] = G3D_FIELD_EX32(u->filter0, TX_FILTER0_0, CLAMP_S);
    u->clamp[1] = G3D_FIELD_EX32(u->filter0, TX_FILTER0_0, CLAMP_T);
    u->clamp[2] = G3D_FIELD_EX32(u->filter0, TX_FILTER0_0, CLAMP_R);
    u->mag = tx_filter(G3D_FIELD_EX32(u->filter0, TX_FILTER0_0, MAG_FILTER),
                       unit, "mag");
    u->min = tx_filter(G3D_FIELD_EX32(u->filter0, TX_FILTER0_0, MIN_FILTER),
                       unit, "min");
    u->mip = G3D_FIELD_EX32(u->filter0, TX_FILTER0_0, MIP_FILTER);
    if (u->mip == 3) {
        g3d_guest_error("r300 tx%d: MIP_FILTER 3 is reserved; none used",
                        unit);
        u->mip = 0;
    }
    u->vol = G3D_FIELD_EX32(u->filter0, TX_FILTER0_0, VOL_FILTER);
    if (u->vol == 3) {
        g3d_guest_error("r300 tx%d: VOL_FILTER 3 is reserved; none used",
                        unit);
        u->vol = 0;
    }
    u->lod_bias = g3d_sfixed2f(G3D_FIELD_EX32(u->filter1, TX_FILTER1_0,
                                              LOD_BIAS), 10, 5);
    u->chroma_mode = G3D_FIELD_EX32(u->filter1, TX_FILTER1_0,
                                    CHROMA_KEY_MODE);
    if (u->chroma_mode == 1) {
        g3d_unimp("r300 tx%d: chroma-key kill; matching texels read 0",
                  unit);
    } else if (u->chroma_mode == 3) {
        g3d_guest_error("r300 tx%d: CHROMA_KEY_MODE 3 is reserved", unit);
        u->chroma_mode = 0;
    }
    if (G3D_FIELD_EX32(u->filter1, TX_FILTER1_0, MC_COORD_TRUNCATE)) {
        g3d_unimp("r300 tx%d: MC_COORD_TRUNCATE not modelled", unit);
    }

    u->sel[0] = G3D_FIELD_EX32(u->format1, TX_FORMAT1_0, SEL_RED);
    u->sel[1] = G3D_FIELD_EX32(u->format1, TX_FORMAT1_0, SEL_GREEN);
    u->sel[2] = G3D_FIELD_EX32(u->format1, TX_FORMAT1_0, SEL_BLUE);
    u->sel[3] = G3D_FIELD_EX32(u->format1, TX_FORMAT1_0, SEL_ALPHA);
    for (k = 0; k < 4; k++) {
        bool g = G3D_FIELD_EX32(u->format1, TX_FORMAT1_0, GAMMA) && k < 3;
        if (u->sel[k] > R300_TX_SEL_ONE && !tx_is_yuv(u->kind)) {
            g3d_guest_error("r300 tx%d: swizzle select %u undefined, reads "
                            "0", unit, u->sel[k]);
            u->sel[k] = R300_TX_SEL_ZERO;
        }
        if (tx_is_yuv(u->kind)) {
            u->gamma[k] = g;
        } else {
            /* "only apply to 8bit or less components" */
            u->gamma[k] = g && u->sel[k] < 4 && u->bits[u->sel[k]] > 0 &&
                          u->bits[u->sel[k]] <= 8 &&
                          !((u->signed_comp >> u->sel[k]) & 1) &&
                          u->kind != TXK_F16 && u->kind != TXK_F32;
        }
    }
    u->any_gamma = u->gamma[0] || u->gamma[1] || u->gamma[2];
    tx_unpack_setup(u);
    u->yuv = G3D_FIELD_EX32(u->format1, TX_FORMAT1_0, YUV_TO_RGB);
    if (u->yuv == 3) {
        g3d_guest_error("r300 tx%d: YUV_TO_RGB 3 is reserved; off", unit);
        u->yuv = 0;
    }
    u->swap_yuv = G3D_FIELD_EX32(u->format1, TX_FORMAT1_0, SWAP_YUV);
    u->endian = G3D_FIELD_EX32(u->offset, TX_OFFSET_0, ENDIAN_SWAP);
    tx_decode_border(u);

    if (!tx_layout(u, unit) || !tx_map(u, unit, mem)) {
        return false;
    }
    u->plain32 = !g3d_general_path && u->kind == TXK_PACKED &&
                 u->bytes_per == 4 && !u->tiled && !u->endian &&
                 !u->chroma_mode && !u->any_gamma && !u->signed_comp &&
                 u->bits[0] == 8 && u->bits[1] == 8 && u->bits[2] == 8 &&
                 u->bits[3] == 8;
    for (k = 0; k < 4; k++) {
        for (i = 0; i < 4; i++) {
            u->scale4[k][i] = u->scale[k];
        }
    }
    l = u->base_level;
    u->base_inside = l < R300_TX_MAX_LEVELS && u->bytes < (1u << 31) &&
                     u->level_offset[l] +
                     (uint64_t)(u->level_h[l] - 1) * u->level_pitch[l] +
                     (uint64_t)u->level_w[l] * 4 <= u->bytes;
    u->lanes_avx = g3d_use_avx();
    u->enabled = true;
    return true;
}

void r300_tx_release(R300TexUnit *u)
{
    g_free(u->copy);
    u->copy = NULL;
    u->copy_size = 0;
    u->texels = NULL;
    u->enabled = false;
}

/* ---- sampling ---------------------------------------------------------- */

/* keeps coordinates in a range where texel indices fit an int; NaN -> lo */
#define TX_COORD_LIMIT 65536.0f

static float tx_precl(float s, unsigned mode)
{
    switch (mode) {
    case R300_TX_CLAMP_CLAMP_HALF_BORDER:
        return g3d_clampf(s, 0.0f, 1.0f);
    case R300_TX_CLAMP_MIRROR_ONCE_HALF_BORDER:
        return g3d_clampf(s, -1.0f, 1.0f);
    default:
        return g3d_clampf(s, -TX_COORD_LIMIT, TX_COORD_LIMIT);
    }
}

/* wrap texel index i of n by the CLAMP mode; -1: the border colour */
static int tx_wrap(int i, int n, unsigned mode)
{
    static const G3DTexWrap modes[8] = {
        [R300_TX_CLAMP_WRAP] = G3D_TEX_REPEAT,
        [R300_TX_CLAMP_MIRROR] = G3D_TEX_MIRROR,
        [R300_TX_CLAMP_CLAMP_LAST] = G3D_TEX_CLAMP,
        [R300_TX_CLAMP_MIRROR_ONCE_LAST] = G3D_TEX_MIRROR_ONCE,
        [R300_TX_CLAMP_CLAMP_HALF_BORDER] = G3D_TEX_BORDER,
        [R300_TX_CLAMP_MIRROR_ONCE_HALF_BORDER] = G3D_TEX_MIRROR_ONCE_BORDER,
        [R300_TX_CLAMP_CLAMP_BORDER] = G3D_TEX_BORDER,
        [R300_TX_CLAMP_MIRROR_ONCE_BORDER] = G3D_TEX_MIRROR_ONCE_BORDER,
    };

    return g3d_tex_wrap(i, n, mode < 8 ? modes[mode]
                                       : G3D_TEX_MIRROR_ONCE_BORDER);
}

typedef struct TxAxis {
    int i[2];           /* wrapped texel indices, -1 border */
    float w1;           /* weight of i[1] (linear), 0 for point */
} TxAxis;

static void tx_axis(TxAxis *a, float s, int n, unsigned mode, bool linear)
{
    float x = tx_precl(s, mode) * (float)n;
    int i0;

    if (linear) {
        float f = floorf(x - 0.5f);
        i0 = (int)f;
        a->w1 = x - 0.5f - f;
        a->i[0] = tx_wrap(i0, n, mode);
        a->i[1] = tx_wrap(i0 + 1, n, mode);
    } else {
        i0 = (int)floorf(x);
        /*
         * The half-way-to-border modes clamp the coordinate to the image
         * (GL_CLAMP): only linear filtering reaches the border; a point
         * sample at exactly 1.0 takes the last texel, as in GL.
         */
        if ((mode == R300_TX_CLAMP_CLAMP_HALF_BORDER ||
             mode == R300_TX_CLAMP_MIRROR_ONCE_HALF_BORDER) && i0 >= n) {
            i0 = n - 1;
        }
        a->w1 = 0.0f;
        a->i[0] = a->i[1] = tx_wrap(i0, n, mode);
    }
}

/*
 * tx_fetch for a plain32 unit (four unsigned 8-bit components, shifts 0, 8,
 * 16, 24): the same address, tx_unpack's products and the swizzle.
 */
static inline void tx_fetch_plain32(const R300TexUnit *u, unsigned level,
                                    unsigned x, unsigned y, unsigned z,
                                    float rgba[4])
{
    uint64_t off = u->level_offset[level] + z * u->level_slice[level] +
                   (uint64_t)y * u->level_pitch[level] + (uint64_t)x * 4;
    float c[4];
    int k;

    if (off + 4 <= u->bytes) {
        const uint8_t *t = u->texels + off;
        for (k = 0; k < 4; k++) {
            c[k] = (float)t[k] * u->scale[k];
        }
    } else {
        /* what tx_read gives past the end: zero bytes */
        for (k = 0; k < 4; k++) {
            c[k] = 0.0f * u->scale[k];
        }
    }
    tx_swizzle(u, c, rgba);
}

/* acc += w * texel (x, y, z) of `level`, or the border colour */
static inline __attribute__((always_inline)) void
tx_texel_acc(const R300TexUnit *u, unsigned level, int x, int y, int z,
             float w, float acc[4], bool plain32)
{
    float t[4];

    if (x < 0 || y < 0 || z < 0) {
        memcpy(t, u->border_rgba, sizeof(t));
    } else if (plain32) {
        tx_fetch_plain32(u, level, x, y, z, t);
    } else {
        tx_fetch(u, level, x, y, z, t);
    }
    acc[0] += w * t[0];
    acc[1] += w * t[1];
    acc[2] += w * t[2];
    acc[3] += w * t[3];
}

/* one level: s, t, r normalised; face selects the cube image */
static inline __attribute__((always_inline)) void
tx_sample_level_t(const R300TexUnit *u, unsigned level, const float str[3],
                  int face, bool linear, float out[4], bool plain32)
{
    bool cube = u->coord_type == R300_TX_COORD_CUBE;
    bool vol = u->coord_type == R300_TX_COORD_3D;
    TxAxis ax, ay, az;
    float acc[4] = { 0, 0, 0, 0 };
    int nx, ny, nz, ix, iy, iz;

    /* cube faces clamp to their edges */
    tx_axis(&ax, str[0], u->level_w[level],
            cube ? R300_TX_CLAMP_CLAMP_LAST : u->clamp[0], linear);
    tx_axis(&ay, str[1], u->level_h[level],
            cube ? R300_TX_CLAMP_CLAMP_LAST : u->clamp[1], linear);
    if (vol) {
        bool lz = u->vol ? u->vol == R300_TX_FILTER_LINEAR : linear;
        tx_axis(&az, str[2], u->level_d[level], u->clamp[2], lz);
    } else {
        az.i[0] = az.i[1] = cube ? face : 0;
        az.w1 = 0.0f;
    }
    nx = ax.w1 != 0.0f ? 2 : 1;
    ny = ay.w1 != 0.0f ? 2 : 1;
    nz = az.w1 != 0.0f ? 2 : 1;
    for (iz = 0; iz < nz; iz++) {
        float wz = iz ? az.w1 : 1.0f - az.w1;
        for (iy = 0; iy < ny; iy++) {
            float wy = wz * (iy ? ay.w1 : 1.0f - ay.w1);
            for (ix = 0; ix < nx; ix++) {
                tx_texel_acc(u, level, ax.i[ix], ay.i[iy], az.i[iz],
                             wy * (ix ? ax.w1 : 1.0f - ax.w1), acc, plain32);
            }
        }
    }
    memcpy(out, acc, sizeof(acc));
}

static void tx_sample_level_plain32(const R300TexUnit *u, unsigned level,
                                    const float str[3], int face, bool linear,
                                    float out[4])
{
    tx_sample_level_t(u, level, str, face, linear, out, true);
}

static void tx_sample_level_any(const R300TexUnit *u, unsigned level,
                                const float str[3], int face, bool linear,
                                float out[4])
{
    tx_sample_level_t(u, level, str, face, linear, out, false);
}

static inline void tx_sample_level(const R300TexUnit *u, unsigned level,
                                   const float str[3], int face, bool linear,
                                   float out[4])
{
    (u->plain32 ? tx_sample_level_plain32 : tx_sample_level_any)
        (u, level, str, face, linear, out);
}

static void tx_sample_lod(const R300TexUnit *u, const float str[3], int face,
                          float lod, float out[4])
{
    bool mag = !(lod > 0.0f);           /* NaN magnifies */
    float l = g3d_clampf(lod, (float)u->base_level, (float)u->max_level);
    unsigned l0;

    if (mag || u->mip == 0) {
        tx_sample_level(u, u->mip == 0 ? 0 : u->base_level, str, face,
                        (mag ? u->mag : u->min) == R300_TX_FILTER_LINEAR, out);
        return;
    }
    if (u->mip == R300_TX_FILTER_POINT) {
        l0 = MIN((unsigned)floorf(l + 0.5f), u->max_level);
        tx_sample_level(u, l0, str, face, u->min == R300_TX_FILTER_LINEAR,
                        out);
        return;
    }
    l0 = (unsigned)floorf(l);
    tx_sample_level(u, l0, str, face, u->min == R300_TX_FILTER_LINEAR, out);
    if (l0 < u->max_level && l > (float)l0) {
        float hi[4], f = l - (float)l0;
        int c;
        tx_sample_level(u, l0 + 1, str, face, u->min == R300_TX_FILTER_LINEAR,
                        hi);
        for (c = 0; c < 4; c++) {
            out[c] += f * (hi[c] - out[c]);
        }
    }
}

/*
 * The cube face of direction v and the face coordinates (OpenGL 2.1
 * §3.8.6 table 3.19): face 0..5 = +X -X +Y -Y +Z -Z.
 */
static int tx_cube_face(const float v[3])
{
    float ax = fabsf(v[0]), ay = fabsf(v[1]), az = fabsf(v[2]);

    if (ax >= ay && ax >= az) {
        return v[0] >= 0.0f ? 0 : 1;
    }
    if (ay >= az) {
        return v[1] >= 0.0f ? 2 : 3;
    }
    return v[2] >= 0.0f ? 4 : 5;
}

static void tx_cube_coords(int face, const float v[3], float st[2])
{
    float sc, tc, ma;

    switch (face) {
    case 0:
        sc = -v[2]; tc = -v[1]; ma = v[0];
        break;
    case 1:
        sc = v[2]; tc = -v[1]; ma = -v[0];
        break;
    case 2:
        sc = v[0]; tc = v[2]; ma = v[1];
        break;
    case 3:
        sc = v[0]; tc = -v[2]; ma = -v[1];
        break;
    case 4:
        sc = v[0]; tc = -v[1]; ma = v[2];
        break;
    default:
        sc = -v[0]; tc = -v[1]; ma = -v[2];
        break;
    }
    st[0] = 0.5f * (sc / ma + 1.0f);
    st[1] = 0.5f * (tc / ma + 1.0f);
}

void r300_tx_sample_quad(const R300TexUnit *u, int inst,
                         const float coord[4][4], float out[4][4])
{
    float str[4][3], lod[2][3], rho, lambda;
    int face[4] = { 0, 0, 0, 0 };
    bool proj = inst == R300_US_TEX_PROJ ||
                (inst == R300_US_TEX_LD && u->projected);
    int px, k;

    if (!u->enabled) {
        /* T(ARGB) = (1,0,0,0) [R3xx 3D ref. §1.8 TX] */
        for (px = 0; px < 4; px++) {
            out[px][0] = out[px][1] = out[px][2] = 0.0f;
            out[px][3] = 1.0f;
        }
        return;
    }
    for (px = 0; px < 4; px++) {
        float q = proj ? 1.0f / coord[px][3] : 1.0f;
        for (k = 0; k < 3; k++) {
            str[px][k] = coord[px][k] * q;
        }
    }
    if (u->coord_type == R300_TX_COORD_CUBE) {
        float v[4][3], d[3][2];
        int f0;

        memcpy(v, str, sizeof(v));
        /* the footprint is measured on the face of pixel 0 */
        f0 = tx_cube_face(v[0]);
        for (px = 0; px < 3; px++) {
            tx_cube_coords(f0, v[px], d[px]);
        }
        for (k = 0; k < 2; k++) {
            float size = k ? u->height : u->width;
            lod[0][k] = (d[1][k] - d[0][k]) * size;
            lod[1][k] = (d[2][k] - d[0][k]) * size;
        }
        lod[0][2] = lod[1][2] = 0.0f;
        for (px = 0; px < 4; px++) {
            face[px] = tx_cube_face(v[px]);
            tx_cube_coords(face[px], v[px], str[px]);
            str[px][2] = 0.0f;
        }
    } else {
        /* quad pixels: 0 (x,y) 1 (x+1,y) 2 (x,y+1) 3 (x+1,y+1) */
        for (k = 0; k < 3; k++) {
            float size = k == 0 ? u->width : k == 1 ? u->height
                       : u->coord_type == R300_TX_COORD_3D ? u->depth : 0;
            lod[0][k] = (str[1][k] - str[0][k]) * size;
            lod[1][k] = (str[2][k] - str[0][k]) * size;
        }
    }
    rho = fmaxf(sqrtf(lod[0][0] * lod[0][0] + lod[0][1] * lod[0][1] +
                      lod[0][2] * lod[0][2]),
                sqrtf(lod[1][0] * lod[1][0] + lod[1][1] * lod[1][1] +
                      lod[1][2] * lod[1][2]));
    lambda = rho > 0.0f ? log2f(rho) : -64.0f;
    lambda = g3d_clampf(lambda, -64.0f, 64.0f) + u->lod_bias;
    for (px = 0; px < 4; px++) {
        float l = lambda;
        if (inst == R300_US_TEX_LODBIAS) {
            l += g3d_clampf(coord[px][3], -64.0f, 64.0f);
        }
        tx_sample_lod(u, str[px], face[px], l, out[px]);
    }
}

void r300_tx_sampler(void *units, int unit, int inst,
                     const float coord[4][4], float out[4][4])
{
    const R300TexUnit *u = units;

    r300_tx_sample_quad(&u[unit & (R300_TX_UNITS - 1)], inst, coord, out);
}
