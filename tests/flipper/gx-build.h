/*
 * Building GX command streams for tests, tools and benchmarks: the bytes a
 * GameCube program writes to the write-gather pipe (big-endian fields).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef FLIPPER_GX_BUILD_H
#define FLIPPER_GX_BUILD_H

#include <glib.h>
#include <stdint.h>

#include "gpu3d/flipper-regs.h"

void gx_u8(GByteArray *b, uint8_t v);
void gx_u16(GByteArray *b, uint16_t v);
void gx_u32(GByteArray *b, uint32_t v);
void gx_f32(GByteArray *b, float v);
uint32_t gx_fbits(float f);

/* 0x61 rr vvvvvv */
void gx_bp(GByteArray *b, uint8_t reg, uint32_t val24);
/* 0x08 rr vvvvvvvv */
void gx_cp(GByteArray *b, uint8_t reg, uint32_t val);
/* 0x10 (n-1):16 addr:16 words... (n <= 16) */
void gx_xf(GByteArray *b, uint16_t addr, unsigned n, const uint32_t *words);
void gx_xf1(GByteArray *b, uint16_t addr, uint32_t word);
void gx_xff(GByteArray *b, uint16_t addr, unsigned n, const float *f);
/* 0x20/0x28/0x30/0x38: XF[addr..addr+n) = array (A-D) element idx */
void gx_xf_indexed(GByteArray *b, int array, uint16_t idx, unsigned n,
                   uint16_t addr);
/* draw header: opcode (GX_DRAW_*) | vat, u16 count */
void gx_draw(GByteArray *b, uint8_t prim, int vat, uint16_t count);
void gx_call_dl(GByteArray *b, uint32_t addr, uint32_t size);
/* NOPs up to a 32-byte boundary */
void gx_pad32(GByteArray *b);
/* texture map `map` (0-7): mode, image in MEM1 (cached: libogc's 32 KB
 * even/odd TMEM regions), TLUT word (SETTLUT) for paletted formats */
void gx_tex_map(GByteArray *b, int map, unsigned fmt, int w, int h,
                uint32_t addr, uint32_t mode0, uint32_t mode1, uint32_t tlut);
/* fgx_begin_frame / fgx_copy_to_xfb of gpu3d/flipper-cmd.h */
void gx_begin_frame(GByteArray *b, uint32_t clear_rgba);
void gx_copy_to_xfb(GByteArray *b, uint32_t xfb);

#endif
