/*
 * gpu3d engine cores: what clipping against a plane needs of a vertex.
 *
 * A plane (a, b, c, d) keeps the points with a x + b y + c z + d w >= 0;
 * a new vertex on an edge that crosses it is the linear interpolation of
 * every attribute at t = d0 / (d0 - d1) (Sutherland and Hodgman, "Reentrant
 * polygon clipping", CACM 17(1), 1974). The sums are written out in one
 * order so that every chip's clipper rounds alike.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_COMMON_CLIP_H
#define GPU3D_COMMON_CLIP_H

#include <stddef.h>

/* signed distance of the homogeneous point v from plane p (inside >= 0) */
static inline float g3d_plane_dist(const float p[4], const float v[4])
{
    return p[0] * v[0] + p[1] * v[1] + p[2] * v[2] + p[3] * v[3];
}

/* o = a + (b - a) t over n floats (o may be a or b) */
static inline void g3d_lerp(float *o, const float *a, const float *b, size_t n,
                            float t)
{
    size_t i;

    for (i = 0; i < n; i++) {
        o[i] = a[i] + (b[i] - a[i]) * t;
    }
}

#endif
