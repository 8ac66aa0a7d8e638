/*
 * GameCube texture layouts for tests (see tex-build.h, Dolphin
 * TextureDecoder_Generic.cpp): 32-byte tiles in row-major tile order, texels
 * row-major inside a tile; 8x8 tiles for 4-bit formats, 8x4 for 8-bit, 4x4 for
 * 16-bit, 4x4 in two 32-byte halves (AR then GB) for RGBA8; CMPR 8x8 tiles of
 * four 8-byte 4x4 blocks.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tex-build.h"

static void shape(unsigned fmt, int *tw, int *th, int *bytes)
{
    *bytes = 32;
    switch (fmt) {
    case TX_FMT_I4: case TX_FMT_C4: case TX_FMT_CMPR:
        *tw = 8; *th = 8;
        break;
    case TX_FMT_I8: case TX_FMT_IA4: case TX_FMT_C8:
        *tw = 8; *th = 4;
        break;
    case TX_FMT_RGBA8:
        *tw = 4; *th = 4; *bytes = 64;
        break;
    default:
        *tw = 4; *th = 4;
        break;
    }
}

uint32_t tex_size(unsigned fmt, int w, int h)
{
    int tw, th, bytes;

    shape(fmt, &tw, &th, &bytes);
    return (uint32_t)((w + tw - 1) / tw) * (uint32_t)((h + th - 1) / th) *
           (uint32_t)bytes;
}

uint32_t tex_level_offset(unsigned fmt, int w, int h, int level)
{
    uint32_t off = 0;
    int l;

    for (l = 0; l < level; l++) {
        off += tex_size(fmt, MAX(w >> l, 1), MAX(h >> l, 1));
    }
    return off;
}

void tex_put(unsigned fmt, uint8_t *data, int w, int x, int y, uint32_t raw)
{
    int tw, th, bytes;
    uint32_t tile, in;
    uint8_t *p;

    shape(fmt, &tw, &th, &bytes);
    tile = ((uint32_t)(y / th) * (uint32_t)((w + tw - 1) / tw) +
            (uint32_t)(x / tw)) * (uint32_t)bytes;
    in = (uint32_t)((y % th) * tw + (x % tw));     /* texel in the tile */
    switch (fmt) {
    case TX_FMT_I4: case TX_FMT_C4:
        p = data + tile + in / 2;
        if (in & 1) {
            *p = (uint8_t)((*p & 0xF0) | (raw & 15));
        } else {
            *p = (uint8_t)((*p & 0x0F) | (raw & 15) << 4);
        }
        break;
    case TX_FMT_I8: case TX_FMT_IA4: case TX_FMT_C8:
        data[tile + in] = (uint8_t)raw;
        break;
    case TX_FMT_RGBA8:
        p = data + tile + 2 * in;
        p[0] = (uint8_t)(raw >> 24);        /* A */
        p[1] = (uint8_t)(raw >> 16);        /* R */
        p[32] = (uint8_t)(raw >> 8);        /* G */
        p[33] = (uint8_t)raw;               /* B */
        break;
    default:
        p = data + tile + 2 * in;
        p[0] = (uint8_t)(raw >> 8);
        p[1] = (uint8_t)raw;
        break;
    }
}

void tex_put_cmpr(uint8_t *data, int w, int bx, int by, uint16_t c0,
                  uint16_t c1, uint32_t indices)
{
    uint32_t tile = ((uint32_t)(by / 2) * (uint32_t)((w + 7) / 8) +
                     (uint32_t)(bx / 2)) * 32;
    uint8_t *p = data + tile + 8 * ((by & 1) * 2 + (bx & 1));

    p[0] = (uint8_t)(c0 >> 8);
    p[1] = (uint8_t)c0;
    p[2] = (uint8_t)(c1 >> 8);
    p[3] = (uint8_t)c1;
    p[4] = (uint8_t)(indices >> 24);
    p[5] = (uint8_t)(indices >> 16);
    p[6] = (uint8_t)(indices >> 8);
    p[7] = (uint8_t)indices;
}
