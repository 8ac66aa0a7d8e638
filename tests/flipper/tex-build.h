/*
 * Building GameCube textures for tests and scenes: raw texel values placed
 * in the tiled big-endian layouts of Dolphin TextureDecoder_Generic.cpp
 * (written from the layout description, independently of the core's decoder).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef FLIPPER_TEX_BUILD_H
#define FLIPPER_TEX_BUILD_H

#include <glib.h>
#include <stdint.h>

#include "gpu3d/flipper-regs.h"

/* bytes of a w x h texture of format fmt (whole tiles) */
uint32_t tex_size(unsigned fmt, int w, int h);
/*
 * Store the raw texel value at (x, y): 4 bits (I4, C4), 8 bits (I8, IA4
 * as A:I nibbles, C8), 16 bits (IA8 as A:I bytes, RGB565, RGB5A3, C14X2),
 * 32 bits 0xAARRGGBB (RGBA8). Not for CMPR.
 */
void tex_put(unsigned fmt, uint8_t *data, int w, int x, int y, uint32_t raw);
/* CMPR: the 4x4 block at block coordinates (bx, by): colours c0, c1
 * (RGB565) and 16 2-bit indices, row-major, texel (0,0) in bits 31-30 */
void tex_put_cmpr(uint8_t *data, int w, int bx, int by, uint16_t c0,
                  uint16_t c1, uint32_t indices);
/* a mipmapped texture: the byte offset of level `level` */
uint32_t tex_level_offset(unsigned fmt, int w, int h, int level);

#endif
