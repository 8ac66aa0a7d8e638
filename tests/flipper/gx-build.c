/*
 * GX command stream builder (see gx-build.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "gx-build.h"

#include <string.h>

void gx_u8(GByteArray *b, uint8_t v)
{
    g_byte_array_append(b, &v, 1);
}

void gx_u16(GByteArray *b, uint16_t v)
{
    uint8_t p[2] = { v >> 8, v };
    g_byte_array_append(b, p, 2);
}

void gx_u32(GByteArray *b, uint32_t v)
{
    uint8_t p[4] = { v >> 24, v >> 16, v >> 8, v };
    g_byte_array_append(b, p, 4);
}

uint32_t gx_fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

void gx_f32(GByteArray *b, float v)
{
    gx_u32(b, gx_fbits(v));
}

void gx_bp(GByteArray *b, uint8_t reg, uint32_t val24)
{
    gx_u8(b, GX_LOAD_BP_REG);
    gx_u32(b, (uint32_t)reg << 24 | (val24 & 0xFFFFFF));
}

void gx_cp(GByteArray *b, uint8_t reg, uint32_t val)
{
    gx_u8(b, GX_LOAD_CP_REG);
    gx_u8(b, reg);
    gx_u32(b, val);
}

void gx_xf(GByteArray *b, uint16_t addr, unsigned n, const uint32_t *words)
{
    unsigned i;

    g_assert(n >= 1 && n <= 16);
    gx_u8(b, GX_LOAD_XF_REG);
    gx_u16(b, n - 1);
    gx_u16(b, addr);
    for (i = 0; i < n; i++) {
        gx_u32(b, words[i]);
    }
}

void gx_xf1(GByteArray *b, uint16_t addr, uint32_t word)
{
    gx_xf(b, addr, 1, &word);
}

void gx_xff(GByteArray *b, uint16_t addr, unsigned n, const float *f)
{
    uint32_t w[16];
    unsigned i;

    for (i = 0; i < n; i++) {
        w[i] = gx_fbits(f[i]);
    }
    gx_xf(b, addr, n, w);
}

void gx_xf_indexed(GByteArray *b, int array, uint16_t idx, unsigned n,
                   uint16_t addr)
{
    gx_u8(b, GX_LOAD_INDX_A + 8 * array);
    gx_u32(b, (uint32_t)idx << 16 | (n - 1) << 12 | (addr & 0xFFF));
}

void gx_draw(GByteArray *b, uint8_t prim, int vat, uint16_t count)
{
    gx_u8(b, prim | (vat & 7));
    gx_u16(b, count);
}

void gx_call_dl(GByteArray *b, uint32_t addr, uint32_t size)
{
    gx_u8(b, GX_CALL_DL);
    gx_u32(b, addr);
    gx_u32(b, size);
}

void gx_pad32(GByteArray *b)
{
    while (b->len % 32) {
        gx_u8(b, GX_NOP);
    }
}
