/*
 * The textured-quad scene both the core test (test-pica200-texture.c) and
 * its independent reference (tools/pica200-texref.c, Mesa llvmpipe through
 * OSMesa) draw: a 32x32 RGBA texture with hard edges and gradients on a
 * perspective quad whose coordinates run from -0.25 to 1.25 (S repeats, T
 * mirrors), into a 128x128 target. The mipmapped variant has a 64x64
 * texture with four levels, each tinted its own colour so the level chosen
 * shows, and coordinates three times as large (minified, lod about 1-3).
 * The cube-map variant gives each corner a direction (u, v, w) instead, so
 * the quad crosses several of six 32x32 faces, each tinted its own colour.
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

#define TEXSCENE_MIP_TEX 64
#define TEXSCENE_MIP_LEVELS 4
#define TEXSCENE_MIP_SCALE 3.0f

/* texel (s, t) of mip level `level` (64 >> level texels square) */
static inline void texscene_mip_texel(unsigned level, unsigned s, unsigned t,
                                      uint8_t rgba[4])
{
    static const uint8_t tint[TEXSCENE_MIP_LEVELS][3] = {
        { 255, 0, 0 }, { 0, 255, 0 }, { 0, 0, 255 }, { 255, 255, 255 },
    };
    int k;

    texscene_texel((s << level) & 31, (t << level) & 31, rgba);
    for (k = 0; k < 3; k++) {
        rgba[k] = (uint8_t)((rgba[k] + tint[level][k]) / 2);
    }
}

/* texel (s, t) of cube face `face` (+X, -X, +Y, -Y, +Z, -Z) */
static inline void texscene_face_texel(unsigned face, unsigned s, unsigned t,
                                       uint8_t rgba[4])
{
    static const uint8_t tint[6][3] = {
        { 255, 0, 0 }, { 0, 255, 255 }, { 0, 255, 0 },
        { 255, 0, 255 }, { 0, 0, 255 }, { 255, 255, 0 },
    };
    int k;

    texscene_texel(s, t, rgba);
    for (k = 0; k < 3; k++) {
        rgba[k] = (uint8_t)((rgba[k] + tint[face][k]) / 2);
    }
}

/* the cube-map quad's directions (u, v, w), in strip order */
static const float texscene_cube_dirs[4][3] = {
    { -1.5f, -1.2f, 1.0f },
    { 1.2f, -1.0f, 0.4f },
    { -1.0f, 1.4f, 0.8f },
    { 1.3f, 1.1f, -0.5f },
};

/* strip order: clip-space x, y, w (z is each API's mid-depth), then s, t */
static const float texscene_verts[4][5] = {
    { -0.8f, -0.9f, 1.0f, -0.25f, -0.25f },
    { 0.8f, -0.9f, 1.0f, 1.25f, -0.25f },
    { -1.0f, 1.4f, 2.0f, -0.25f, 1.25f },
    { 1.0f, 1.4f, 2.0f, 1.25f, 1.25f },
};

#endif
