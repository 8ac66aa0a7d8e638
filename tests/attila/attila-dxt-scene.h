/*
 * The compressed-texture scene shared by the core's image test
 * (test-attila-dxt.c) and its independent reference (tools/attila-dxtref.c,
 * Mesa llvmpipe through OSMesa): eight 64x64-pixel quads on a 256x128
 * screen, each textured with a 32x32 compressed texture made of
 * pseudo-random blocks.
 *
 *   top row     DXT1 RGBA nearest (3-colour blocks: transparent black),
 *               DXT3 nearest, DXT5 nearest, DXT1 RGBA bilinear
 *   bottom row  LATC1, LATC1_SIGNED, LATC2 (luminance shown),
 *               LATC2_SIGNED bilinear (negative values show as black)
 *
 * The blocks are given in the order of the S3TC definition (row of blocks
 * after row of blocks); the ATTILA side places them in its tiling.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_TESTS_ATTILA_DXT_SCENE_H
#define GPU3D_TESTS_ATTILA_DXT_SCENE_H

#include <stdint.h>

#define DXT_SCENE_W 256
#define DXT_SCENE_H 128
#define DXT_TEX 32                      /* texture width and height */
#define DXT_BLOCKS (DXT_TEX / 4)        /* blocks per row and column */
#define DXT_QUADS 8
#define DXT_QUAD_PX 64                  /* quad size in pixels */

enum {
    DXT_KIND_DXT1, DXT_KIND_DXT3, DXT_KIND_DXT5, DXT_KIND_LATC1,
    DXT_KIND_LATC1_SIGNED, DXT_KIND_LATC2, DXT_KIND_LATC2_SIGNED,
};

typedef struct DxtQuad {
    int kind;
    int linear;
    float x0, y0;               /* clip-space lower left; 0.5 x 1 in size */
} DxtQuad;

static const DxtQuad dxt_quads[DXT_QUADS] = {
    { DXT_KIND_DXT1, 0, -1.0f, 0.0f },
    { DXT_KIND_DXT3, 0, -0.5f, 0.0f },
    { DXT_KIND_DXT5, 0, 0.0f, 0.0f },
    { DXT_KIND_DXT1, 1, 0.5f, 0.0f },
    { DXT_KIND_LATC1, 0, -1.0f, -1.0f },
    { DXT_KIND_LATC1_SIGNED, 0, -0.5f, -1.0f },
    { DXT_KIND_LATC2, 0, 0.0f, -1.0f },
    { DXT_KIND_LATC2_SIGNED, 1, 0.5f, -1.0f },
};

static inline uint32_t dxt_rand(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static inline int dxt_block_bytes(int kind)
{
    return kind == DXT_KIND_DXT1 || kind == DXT_KIND_LATC1 ||
           kind == DXT_KIND_LATC1_SIGNED ? 8 : 16;
}

/*
 * The texture of `kind`: DXT_BLOCKS^2 blocks in row order into out.
 * Smooth endpoints (a gradient over the blocks) with random codes; every
 * third DXT1 block is in the 3-colour mode (color0 <= color1).
 */
static inline void dxt_texture(int kind, uint8_t *out)
{
    uint32_t s = 12345u + (uint32_t)kind;
    int bx, by, k, n = dxt_block_bytes(kind);

    for (by = 0; by < DXT_BLOCKS; by++) {
        for (bx = 0; bx < DXT_BLOCKS; bx++) {
            uint8_t *b = out + (by * DXT_BLOCKS + bx) * n;
            uint8_t *cb = kind == DXT_KIND_DXT1 ? b : b + 8;

            if (kind >= DXT_KIND_LATC1) {
                /* LATC: 8-byte channel blocks (luminance, then alpha),
                 * random endpoints (both orders: both modes) and codes */
                for (k = 0; k < n; k++) {
                    b[k] = dxt_rand(&s);
                }
                continue;
            }
            uint32_t r = bx * 31 / (DXT_BLOCKS - 1);
            uint32_t g = by * 63 / (DXT_BLOCKS - 1);
            uint16_t c0 = (uint16_t)(r << 11 | g << 5 | (dxt_rand(&s) & 31));
            uint16_t c1 = (uint16_t)((31 - r) << 11 | (63 - g) << 5 |
                                     (dxt_rand(&s) & 31));

            if (kind == DXT_KIND_DXT1 && ((bx + by * DXT_BLOCKS) % 3 == 0) ==
                (c0 > c1)) {
                uint16_t t = c0;        /* choose the mode */
                c0 = c1;
                c1 = t;
            }
            cb[0] = c0;
            cb[1] = c0 >> 8;
            cb[2] = c1;
            cb[3] = c1 >> 8;
            for (k = 4; k < 8; k++) {
                cb[k] = dxt_rand(&s);
            }
            if (kind == DXT_KIND_DXT3) {
                for (k = 0; k < 8; k++) {
                    b[k] = dxt_rand(&s);
                }
            } else if (kind == DXT_KIND_DXT5) {
                b[0] = dxt_rand(&s);
                b[1] = dxt_rand(&s);
                for (k = 2; k < 8; k++) {
                    b[k] = dxt_rand(&s);
                }
            }
        }
    }
}

/* the quad's two triangles: 6 vertices of (x, y, z, w, s, t, 0, 0) */
static inline void dxt_quad_vertices(const DxtQuad *q, float *v)
{
    static const float c[6][2] = {
        { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 0 }, { 1, 1 }, { 0, 1 },
    };
    int i;

    for (i = 0; i < 6; i++) {
        float *p = v + 8 * i;
        p[0] = q->x0 + 0.5f * c[i][0];
        p[1] = q->y0 + c[i][1];
        p[2] = 0.5f;
        p[3] = 1.0f;
        /* t = 0 (the first row of blocks) at the top of the quad */
        p[4] = c[i][0];
        p[5] = 1.0f - c[i][1];
        p[6] = 0.0f;
        p[7] = 1.0f;
    }
}

#endif
