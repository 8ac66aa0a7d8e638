/*
 * Compressed textures (ATTILA ref. Texture Registers, TextureCompression;
 * Texture Tiling): the S3TC
 * DXT1/DXT3/DXT5 and LATC1/LATC2 4x4 blocks, decoded as the simulator's
 * Texture Cache expands a compressed line (TextureEmulator::decodeBlock*):
 * each block becomes the 16 texels of one first-level tile (block dimension
 * 2^2) in Morton order, in a plain format the unit then reads like any
 * other texture: RGBA8888 for DXT, LUMINANCE8(_SIGNED) for LATC1,
 * LUMINANCE8_ALPHA8(_SIGNED) for LATC2.
 *
 * The arithmetic is the simulator's: endpoints and palette entries in
 * float, the decoded value stored by truncation (u8(c * 255), s8(c * 127)).
 * The signed LATC variants follow the GL LATC definition where the
 * simulator departs from it (docs/attila-3d.md, decisions): a signed
 * endpoint of -128 is -1.0, codes 6 and 7 of the six-value mode are -1.0
 * and +1.0, and LATC2_SIGNED sign-extends both channels and stores them
 * with the 127 scale of LUMINANCE8_ALPHA8_SIGNED.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"

uint32_t attila_tc_block_bytes(uint32_t compression)
{
    switch (compression) {
    case ATTILA_TC_DXT1_RGB:
    case ATTILA_TC_DXT1_RGBA:
    case ATTILA_TC_LATC1:
    case ATTILA_TC_LATC1_SIGNED:
        return 8;
    case ATTILA_TC_DXT3_RGBA:
    case ATTILA_TC_DXT5_RGBA:
    case ATTILA_TC_LATC2:
    case ATTILA_TC_LATC2_SIGNED:
        return 16;
    default:
        return 0;
    }
}

uint32_t attila_tc_texel_bytes(uint32_t compression)
{
    switch (compression) {
    case ATTILA_TC_LATC1:
    case ATTILA_TC_LATC1_SIGNED:
        return 1;
    case ATTILA_TC_LATC2:
    case ATTILA_TC_LATC2_SIGNED:
        return 2;
    case ATTILA_TC_NONE:
        return 0;
    default:
        return 4;
    }
}

/* a texel's code index (row-major in the block) from its Morton index */
static inline uint32_t code_index(uint32_t m)
{
    uint32_t i = (m & 1) | ((m >> 1) & 2);
    uint32_t j = ((m >> 1) & 1) | ((m >> 2) & 2);
    return j * 4 + i;
}

static inline uint8_t unorm8(float c)
{
    /* the simulator's u8bit(c * 255.0f): truncation; the range is [0, 1] */
    return (uint8_t)(c * 255.0f);
}

static inline uint8_t snorm8(float c)
{
    return (uint8_t)(int8_t)(c * 127.0f);     /* s8bit(c * 127.0f) */
}

static void rgb565(const uint8_t *p, float c[3])
{
    uint32_t v = p[0] | p[1] << 8;

    c[0] = (float)(v >> 11) * (1.0f / 31.0f);
    c[1] = (float)((v >> 5) & 0x3f) * (1.0f / 63.0f);
    c[2] = (float)(v & 0x1f) * (1.0f / 31.0f);
}

/*
 * The colour of code `code` of the S3TC colour block at p (8 bytes):
 * four-colour mode when color0 > color1 (or always, for DXT3/DXT5), else
 * three colours and code 3 black; *transparent says it is that code 3.
 */
static void s3tc_color(const uint8_t *p, uint32_t code, bool four,
                       float o[3], bool *transparent)
{
    uint32_t c0 = p[0] | p[1] << 8, c1 = p[2] | p[3] << 8;
    float a[3], b[3];
    int k;

    rgb565(p, a);
    rgb565(p + 2, b);
    *transparent = false;
    if (four || c0 > c1) {
        for (k = 0; k < 3; k++) {
            switch (code) {
            case 0: o[k] = a[k]; break;
            case 1: o[k] = b[k]; break;
            case 2: o[k] = (2 * a[k] + b[k]) / 3; break;
            default: o[k] = (a[k] + 2 * b[k]) / 3; break;
            }
        }
        return;
    }
    for (k = 0; k < 3; k++) {
        switch (code) {
        case 0: o[k] = a[k]; break;
        case 1: o[k] = b[k]; break;
        case 2: o[k] = (a[k] + b[k]) * 0.5f; break;
        default: o[k] = 0.0f; break;
        }
    }
    *transparent = code == 3;
}

/*
 * The 3-bit interpolated channel of DXT5 alpha and LATC (decodeS3TCAlpha):
 * eight values when e0 > e1, else six plus the two extremes `lo`, `hi`
 * (0 and 1; -1 and 1 for the signed formats).
 */
static float interp8(uint32_t code, float e0, float e1, float lo, float hi)
{
    static const float w8[8][2] = {
        { 1, 0 }, { 0, 1 }, { 6, 1 }, { 5, 2 }, { 4, 3 }, { 3, 4 }, { 2, 5 },
        { 1, 6 },
    };
    static const float w6[6][2] = {
        { 1, 0 }, { 0, 1 }, { 4, 1 }, { 3, 2 }, { 2, 3 }, { 1, 4 },
    };

    if (e0 > e1) {
        if (code < 2) {
            return code ? e1 : e0;
        }
        return (w8[code][0] * e0 + w8[code][1] * e1) / 7.0f;
    }
    if (code < 2) {
        return code ? e1 : e0;
    }
    if (code >= 6) {
        return code == 6 ? lo : hi;
    }
    return (w6[code][0] * e0 + w6[code][1] * e1) / 5.0f;
}

/* the 3-bit code of texel `t` (row-major) from the 6 index bytes at p */
static inline uint32_t code3(const uint8_t *p, uint32_t t)
{
    uint64_t bits = 0;
    int k;

    for (k = 5; k >= 0; k--) {
        bits = bits << 8 | p[k];
    }
    return (uint32_t)(bits >> (3 * t)) & 7;
}

/* an LATC endpoint: unsigned /255, signed /127 with -128 as -1.0 */
static inline float latc_endpoint(uint8_t v, bool sign)
{
    if (!sign) {
        return (float)v * (1.0f / 255.0f);
    }
    return (int8_t)v == -128 ? -1.0f : (float)(int8_t)v * (1.0f / 127.0f);
}

static uint8_t latc_channel(const uint8_t *p, uint32_t t, bool sign)
{
    float e0 = latc_endpoint(p[0], sign), e1 = latc_endpoint(p[1], sign);
    float v = interp8(code3(p + 2, t), e0, e1, sign ? -1.0f : 0.0f, 1.0f);

    return sign ? snorm8(v) : unorm8(v);
}

void attila_tc_decode(uint32_t compression, const uint8_t *block,
                      uint32_t first, uint32_t count, uint8_t *out)
{
    uint32_t m;

    for (m = first; m < first + count && m < 16; m++) {
        uint32_t t = code_index(m);
        uint8_t *o = out + m * attila_tc_texel_bytes(compression);
        const uint8_t *cb = block;
        float c[3], a = 1.0f;
        bool transparent;
        int k;

        switch (compression) {
        case ATTILA_TC_DXT1_RGB:
        case ATTILA_TC_DXT1_RGBA:
            s3tc_color(block, (block[4 + t / 4] >> (2 * (t % 4))) & 3, false,
                       c, &transparent);
            /* the RGB format has no transparency: code 3 is opaque black */
            a = transparent && compression == ATTILA_TC_DXT1_RGBA ? 0.0f : 1.0f;
            break;
        case ATTILA_TC_DXT3_RGBA:
            cb = block + 8;
            s3tc_color(cb, (cb[4 + t / 4] >> (2 * (t % 4))) & 3, true, c,
                       &transparent);
            a = (float)((block[t / 2] >> (4 * (t % 2))) & 15) * (1.0f / 15.0f);
            break;
        case ATTILA_TC_DXT5_RGBA:
            cb = block + 8;
            s3tc_color(cb, (cb[4 + t / 4] >> (2 * (t % 4))) & 3, true, c,
                       &transparent);
            a = interp8(code3(block + 2, t), (float)block[0] * (1.0f / 255.0f),
                        (float)block[1] * (1.0f / 255.0f), 0.0f, 1.0f);
            break;
        case ATTILA_TC_LATC1:
        case ATTILA_TC_LATC1_SIGNED:
            o[0] = latc_channel(block, t, compression == ATTILA_TC_LATC1_SIGNED);
            continue;
        case ATTILA_TC_LATC2:
        case ATTILA_TC_LATC2_SIGNED:
            o[0] = latc_channel(block, t, compression == ATTILA_TC_LATC2_SIGNED);
            o[1] = latc_channel(block + 8, t,
                                compression == ATTILA_TC_LATC2_SIGNED);
            continue;
        default:
            return;
        }
        for (k = 0; k < 3; k++) {
            o[k] = unorm8(c[k]);
        }
        o[3] = unorm8(a);
    }
}
