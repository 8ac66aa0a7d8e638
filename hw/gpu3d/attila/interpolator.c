/*
 * The Interpolator: fragment shader inputs from the triangle's vertex
 * outputs (attila-sim GPUEmulator.cpp). Attribute i of a fragment is vertex
 * output i, perspective-correct from the 2D homogeneous edge values
 * (RasterizerEmulator::interpolate: f_k = E_k / (E_0 + E_1 + E_2), in
 * double, rounded to float once), or copied from the triangle's last vertex
 * when GPU_INTERPOLATION[i] is FALSE (what GPUEmulator does; the doc says
 * "first vertex"). Disabled inputs read 0. Input 0 is the window position
 * (x, y, z / (2^24 - 1), 0) and input 15.w the signed triangle area.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"

#define FACE_ATTRIBUTE 15

void attila_interpolate(const AttilaDrawState *ds, const AttilaTriangle *t,
                        const double v[4], uint32_t zint, int32_t x,
                        int32_t y, AttilaVec4 in[ATTILA_SH_IO])
{
    double r = 1.0 / (v[0] + v[1] + v[2]);
    double f0 = r * v[0], f1 = r * v[1], f2 = r * v[2];
    int a, c;

    for (a = 1; a < ATTILA_MAX_FRAGMENT_ATTRIBUTES; a++) {
        if (!(ds->fs_inputs & (1u << a))) {
            continue;       /* the program never reads it (fs_inputs) */
        } else if (!ds->fs_input[a]) {
            memset(&in[a], 0, sizeof(in[a]));
        } else if (ds->interpolate[a]) {
            for (c = 0; c < 4; c++) {
                in[a].f[c] = (float)((double)t->attr[0][a][c] * f0 +
                                     (double)t->attr[1][a][c] * f1 +
                                     (double)t->attr[2][a][c] * f2);
            }
        } else {
            memcpy(in[a].f, t->attr[2][a], 16);
        }
    }
    in[0].f[0] = (float)x;
    in[0].f[1] = (float)y;
    in[0].f[2] = (float)zint / (float)((1 << 24) - 1);
    in[0].f[3] = 0.0f;
    in[FACE_ATTRIBUTE].f[3] = (float)t->area;
}
