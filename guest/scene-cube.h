/*
 * The demo scene: a Gouraud-shaded cube turning in front of a tilted
 * ground quad, with depth test. The guest demos draw it through the chips;
 * the tools <chip>-gl-ref draw it through Mesa's llvmpipe as the independent
 * reference. Both use these functions, so their numbers match exactly.
 * Header-only and freestanding.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_SCENE_CUBE_H
#define GPU3D_SCENE_CUBE_H

/* vertices: x y z w r g b a; 12 cube triangles + 2 ground triangles */
#define SCENE_VERTS (36 + 6)
#define SCENE_FRAMES 24

#include "lib/guest-math.h"

/* out = a * b, row-major 4x4 */
static inline void scene_mul(float *out, const float *a, const float *b)
{
    int i, j, k;

    for (i = 0; i < 4; i++) {
        for (j = 0; j < 4; j++) {
            float s = 0;
            for (k = 0; k < 4; k++) {
                s += a[i * 4 + k] * b[k * 4 + j];
            }
            out[i * 4 + j] = s;
        }
    }
}

/*
 * Eye-space transform of frame `f`: translate(0, 0, -4) * rotate_x(0.5) *
 * rotate_y(angle), row-major 4x4 (for chips that take the model-view and
 * the projection apart).
 */
static inline void scene_modelview(int f, float *m)
{
    float a = 0.3f + 0.2f * (float)f, r[16];
    float cy = guest_cosf(a), sy = guest_sinf(a);
    float cx = guest_cosf(0.5f), sx = guest_sinf(0.5f);
    const float ry[16] = { cy, 0, sy, 0, 0, 1, 0, 0, -sy, 0, cy, 0,
                           0, 0, 0, 1 };
    const float rx[16] = { 1, 0, 0, 0, 0, cx, -sx, 0, 0, sx, cx, 0,
                           0, 0, 0, 1 };
    const float tr[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -4,
                           0, 0, 0, 1 };

    scene_mul(r, rx, ry);
    scene_mul(m, tr, r);
}

/* the perspective: 60 degrees vertical, near 1, far 10 */
#define SCENE_FOVY_COT 1.7320508f           /* 1 / tan(30 degrees) */
#define SCENE_NEAR 1.0f
#define SCENE_FAR 10.0f

/*
 * Clip-space transform of frame `f`: perspective (60 degrees, aspect w/h,
 * near 1, far 10) * scene_modelview(f). Rows are the output x, y, z, w
 * (row-major, v' = M v).
 */
static inline void scene_matrix(int f, float aspect, float *m)
{
    float t[16];
    const float fy = SCENE_FOVY_COT;
    const float n = SCENE_NEAR, fa = SCENE_FAR;
    const float p[16] = {
        fy / aspect, 0, 0, 0,
        0, fy, 0, 0,
        0, 0, (fa + n) / (n - fa), 2 * fa * n / (n - fa),
        0, 0, -1, 0,
    };

    scene_modelview(f, t);
    scene_mul(m, p, t);
}

/* The model: cube corners with a colour each, and a ground quad. */
static inline void scene_vertices(float *v)
{
    static const float corner[8][3] = {
        { -1, -1, -1 }, { 1, -1, -1 }, { 1, 1, -1 }, { -1, 1, -1 },
        { -1, -1, 1 }, { 1, -1, 1 }, { 1, 1, 1 }, { -1, 1, 1 },
    };
    static const float colour[8][3] = {
        { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 }, { 1, 1, 0 },
        { 1, 0, 1 }, { 0, 1, 1 }, { 1, 1, 1 }, { 0.2f, 0.2f, 0.2f },
    };
    /* two triangles per face, counter-clockwise seen from outside */
    static const unsigned char face[36] = {
        0, 2, 1, 0, 3, 2,   4, 5, 6, 4, 6, 7,   0, 1, 5, 0, 5, 4,
        2, 3, 7, 2, 7, 6,   1, 2, 6, 1, 6, 5,   0, 4, 7, 0, 7, 3,
    };
    static const float ground[6][6] = {
        { -3, -1.5f, -3, 0.1f, 0.3f, 0.1f }, { 3, -1.5f, -3, 0.1f, 0.3f, 0.1f },
        { 3, -1.5f, 3, 0.6f, 0.8f, 0.3f }, { -3, -1.5f, -3, 0.1f, 0.3f, 0.1f },
        { 3, -1.5f, 3, 0.6f, 0.8f, 0.3f }, { -3, -1.5f, 3, 0.6f, 0.8f, 0.3f },
    };
    int i, k;

    for (i = 0; i < 36; i++) {
        for (k = 0; k < 3; k++) {
            v[i * 8 + k] = corner[face[i]][k] * 0.9f;
            v[i * 8 + 4 + k] = colour[face[i]][k];
        }
        v[i * 8 + 3] = 1;
        v[i * 8 + 7] = 1;
    }
    for (i = 0; i < 6; i++) {
        for (k = 0; k < 3; k++) {
            v[(36 + i) * 8 + k] = ground[i][k];
            v[(36 + i) * 8 + 4 + k] = ground[i][3 + k];
        }
        v[(36 + i) * 8 + 3] = 1;
        v[(36 + i) * 8 + 7] = 1;
    }
}

/* background colour */
#define SCENE_CLEAR_R 0.05f
#define SCENE_CLEAR_G 0.05f
#define SCENE_CLEAR_B 0.15f

#endif
