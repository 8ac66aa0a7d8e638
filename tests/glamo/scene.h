/*
 * The reference scene drawn both by the glamo-3d core (through its command
 * queue, parser and T&L) and by Mesa's llvmpipe through OpenGL
 * (tools/glamo-refscene.c): two interpenetrating Gouraud quads and a
 * triangle, perspective projection, 16-bit depth test, RGB565 target.
 * Only data: each side builds its own matrices from these numbers.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GLAMO_TEST_SCENE_H
#define GLAMO_TEST_SCENE_H

#include <stdint.h>

#define SCENE_W 256
#define SCENE_H 192

/* glFrustum(l, r, b, t, n, f), then glTranslatef, glRotatef(Y), glRotatef(X) */
static const double scene_frustum[6] = { -0.8, 0.8, -0.6, 0.6, 2.0, 12.0 };
static const double scene_translate[3] = { 0.0, 0.0, -5.0 };
static const double scene_rot_y = 35.0, scene_rot_x = 20.0;   /* degrees */

static const float scene_pos[][3] = {
    { -1.0f, -1.0f, 0.0f }, { 1.0f, -1.0f, 0.0f },
    { 1.0f, 1.0f, 0.0f }, { -1.0f, 1.0f, 0.0f },           /* quad A */
    { 0.0f, -0.8f, -1.2f }, { 0.0f, -0.8f, 1.2f },
    { 0.0f, 0.8f, 1.2f }, { 0.0f, 0.8f, -1.2f },           /* quad B */
    { -1.3f, -1.1f, 0.6f }, { -0.2f, -1.2f, 0.9f },
    { -0.7f, 0.3f, 0.7f },                                 /* triangle C */
};

static const uint8_t scene_col[][4] = {           /* r g b a */
    { 255, 0, 0, 255 }, { 0, 255, 0, 255 }, { 0, 0, 255, 255 },
    { 255, 255, 255, 255 },
    { 255, 255, 0, 255 }, { 0, 255, 255, 255 }, { 255, 0, 255, 255 },
    { 128, 128, 128, 255 },
    { 255, 128, 0, 255 }, { 40, 200, 90, 255 }, { 90, 40, 200, 255 },
};

static const uint16_t scene_idx[] = {
    0, 1, 2, 0, 2, 3,
    4, 5, 6, 4, 6, 7,
    8, 9, 10,
};

#define SCENE_NVERT (sizeof(scene_pos) / sizeof(scene_pos[0]))
#define SCENE_NIDX (sizeof(scene_idx) / sizeof(scene_idx[0]))

/*
 * The textured variant: quad A only, texture coordinates 0..2 (wrapping),
 * a 16x16 RGB565 texture, bilinear, modulated by a white diffuse colour.
 */
#define SCENE_TEX 16
static const float scene_uv[4][2] = { { 0, 0 }, { 2, 0 }, { 2, 2 }, { 0, 2 } };

static inline uint16_t scene_texel(int x, int y)
{
    unsigned r = (x * 2) & 31, g = (y * 4) & 63, b = ((x ^ y) & 1) ? 31 : 4;
    return (uint16_t)(r << 11 | g << 5 | b);
}

/* background cleared to this RGB565 colour, depth to 0xffff */
#define SCENE_CLEAR_565 0x1082

#endif
