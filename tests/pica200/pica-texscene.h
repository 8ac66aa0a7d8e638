/*
 * The textured-quad scene both the core test (test-pica200-texture.c) and
 * its independent reference (tools/pica200-texref.c, Mesa llvmpipe through
 * OSMesa) draw: a 32x32 RGBA texture with hard edges and gradients on a
 * perspective quad whose coordinates run from -0.25 to 1.25 (S repeats, T
 * mirrors), into a 128x128 target.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef PICA_TEXSCENE_H
#define PICA_TEXSCENE_H

#include <stdint.h>

#define TEXSCENE_W 128
#define TEXSCENE_H 128
#define TEXSCENE_TEX 32

/* texel (s, t) of the image; t counts up from the bottom row as in OpenGL */
static inline void texscene_texel(unsigned s, unsigned t, uint8_t rgba[4])
{
    rgba[0] = (uint8_t)(s * 8);
    rgba[1] = (uint8_t)(255 - t * 8);
    rgba[2] = ((s / 4 + t / 4) & 1) ? 230 : 20;
    rgba[3] = (uint8_t)(128 + ((s * 7 + t * 3) & 127));
}

/* strip order: clip-space x, y, w (z is each API's mid-depth), then s, t */
static const float texscene_verts[4][5] = {
    { -0.8f, -0.9f, 1.0f, -0.25f, -0.25f },
    { 0.8f, -0.9f, 1.0f, 1.25f, -0.25f },
    { -1.0f, 1.4f, 2.0f, -0.25f, 1.25f },
    { 1.0f, 1.4f, 2.0f, 1.25f, 1.25f },
};

#endif
