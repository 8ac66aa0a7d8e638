/*
 * GX command stream builder (see gx-build.h): GByteArray front ends of the
 * freestanding builder include/gpu3d/flipper-cmd.h, which the guest demo and
 * the qtests use, so every stream of the project is encoded by one piece of
 * code.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "gx-build.h"

#include <string.h>

#include "gpu3d/flipper-cmd.h"

/* run one fgx_* call into a stack buffer of `max` bytes, then append it */
#define GX_EMIT(b, max, call)                                   \
    do {                                                        \
        uint8_t t_[max];                                        \
        FlipperGX g_ = { t_, 0, max };                          \
        FlipperGX *g = &g_;                                     \
        call;                                                   \
        g_assert(g_.len <= (max));                              \
        g_byte_array_append(b, t_, g_.len);                     \
    } while (0)

void gx_u8(GByteArray *b, uint8_t v)
{
    GX_EMIT(b, 1, fgx_u8(g, v));
}

void gx_u16(GByteArray *b, uint16_t v)
{
    GX_EMIT(b, 2, fgx_u16(g, v));
}

void gx_u32(GByteArray *b, uint32_t v)
{
    GX_EMIT(b, 4, fgx_u32(g, v));
}

uint32_t gx_fbits(float f)
{
    return fgx_fbits(f);
}

void gx_f32(GByteArray *b, float v)
{
    GX_EMIT(b, 4, fgx_f32(g, v));
}

void gx_bp(GByteArray *b, uint8_t reg, uint32_t val24)
{
    GX_EMIT(b, 5, fgx_bp(g, reg, val24));
}

void gx_cp(GByteArray *b, uint8_t reg, uint32_t val)
{
    GX_EMIT(b, 6, fgx_cp(g, reg, val));
}

void gx_xf(GByteArray *b, uint16_t addr, unsigned n, const uint32_t *words)
{
    g_assert(n >= 1 && n <= 16);
    GX_EMIT(b, 5 + 4 * 16, fgx_xf(g, addr, n, words));
}

void gx_xf1(GByteArray *b, uint16_t addr, uint32_t word)
{
    gx_xf(b, addr, 1, &word);
}

void gx_xff(GByteArray *b, uint16_t addr, unsigned n, const float *f)
{
    g_assert(n >= 1 && n <= 16);
    GX_EMIT(b, 5 + 4 * 16, fgx_xff(g, addr, n, f));
}

void gx_xf_indexed(GByteArray *b, int array, uint16_t idx, unsigned n,
                   uint16_t addr)
{
    GX_EMIT(b, 5, fgx_xf_indexed(g, array, idx, n, addr));
}

void gx_draw(GByteArray *b, uint8_t prim, int vat, uint16_t count)
{
    GX_EMIT(b, 3, fgx_draw(g, prim, vat & 7, count));
}

void gx_call_dl(GByteArray *b, uint32_t addr, uint32_t size)
{
    GX_EMIT(b, 9, fgx_call_dl(g, addr, size));
}

void gx_pad32(GByteArray *b)
{
    while (b->len % 32) {
        gx_u8(b, GX_NOP);
    }
}

void gx_tex_map(GByteArray *b, int map, unsigned fmt, int w, int h,
                uint32_t addr, uint32_t mode0, uint32_t mode1, uint32_t tlut)
{
    gx_bp(b, BP_TX_REG(BP_TX_SETMODE0, map), mode0);
    gx_bp(b, BP_TX_REG(BP_TX_SETMODE1, map), mode1);
    gx_bp(b, BP_TX_REG(BP_TX_SETIMAGE0, map),
          (uint32_t)(w - 1) | (uint32_t)(h - 1) << 10 | fmt << 20);
    gx_bp(b, BP_TX_REG(BP_TX_SETIMAGE1, map), 3 << 15 | 3 << 18);
    gx_bp(b, BP_TX_REG(BP_TX_SETIMAGE2, map), 3 << 15 | 3 << 18 | 0x4000);
    gx_bp(b, BP_TX_REG(BP_TX_SETIMAGE3, map), addr >> 5);
    gx_bp(b, BP_TX_REG(BP_TX_SETTLUT, map), tlut);
}

void gx_begin_frame(GByteArray *b, uint32_t clear_rgba)
{
    GX_EMIT(b, 1024, fgx_begin_frame(g, clear_rgba));
}

void gx_copy_to_xfb(GByteArray *b, uint32_t xfb)
{
    GX_EMIT(b, 64, fgx_copy_to_xfb(g, xfb));
}
