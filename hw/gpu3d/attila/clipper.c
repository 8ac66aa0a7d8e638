/*
 * The Clipper: trivial reject only (attila-sim ClipperEmulator.cpp,
 * ClipperEmulator): a triangle whose three vertices are outside the same
 * clip-space plane is dropped. There is no geometric clipping; partially
 * visible triangles are rasterised whole by the 2D homogeneous rasteriser. The
 * z range of the clip volume is [-w, w] for OpenGL and [0, w] for D3D9
 * (reference defect ATTILA-9, docs/references.md).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"

static uint32_t outcodes(const float *p, bool d3d9_depth)
{
    float w = p[3];

    return (p[0] < -w) << 0 | (p[0] > w) << 1 |
           (p[1] < -w) << 2 | (p[1] > w) << 3 |
           (p[2] < (d3d9_depth ? 0.0f : -w)) << 4 | (p[2] > w) << 5;
}

bool attila_clipper_trivial_reject(const float *p0, const float *p1,
                                   const float *p2, bool d3d9_depth)
{
    return (outcodes(p0, d3d9_depth) & outcodes(p1, d3d9_depth) &
            outcodes(p2, d3d9_depth)) != 0;
}
