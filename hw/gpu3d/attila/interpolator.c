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

/*
 * The four fragments of a stamp at once: v[l] are fragment l's edge values
 * (at its pixel, or its sample centroid), zint its window z; each
 * attribute is converted to double once for the four.
 */
void attila_interpolate(const AttilaDrawState *ds, const AttilaTriangle *t,
                        const double *const v[4], const uint32_t zint[4],
                        int32_t qx, int32_t qy, AttilaShaderThread lane[4])
{
    double f[4][3];
    /* the inputs the program reads (fs_inputs), input 0 aside */
    uint32_t left = ds->fs_inputs & ((1u << ATTILA_MAX_FRAGMENT_ATTRIBUTES) - 2);
    int a, c, l;

    for (l = 0; l < 4; l++) {
        double r = 1.0 / (v[l][0] + v[l][1] + v[l][2]);
        f[l][0] = r * v[l][0];
        f[l][1] = r * v[l][1];
        f[l][2] = r * v[l][2];
    }
    for (; left; left &= left - 1) {
        a = __builtin_ctz(left);
        if (!ds->fs_input[a]) {
            for (l = 0; l < 4; l++) {
                memset(&lane[l].in[a], 0, sizeof(lane[l].in[a]));
            }
        } else if (ds->interpolate[a]) {
            for (c = 0; c < 4; c++) {
                double a0 = t->attr[0][a][c], a1 = t->attr[1][a][c];
                double a2 = t->attr[2][a][c];
                for (l = 0; l < 4; l++) {
                    lane[l].in[a].f[c] = (float)(a0 * f[l][0] + a1 * f[l][1] +
                                                 a2 * f[l][2]);
                }
            }
        } else {
            for (l = 0; l < 4; l++) {
                memcpy(lane[l].in[a].f, t->attr[2][a], 16);
            }
        }
    }
    for (l = 0; l < 4; l++) {
        AttilaVec4 *in = lane[l].in;
        in[0].f[0] = (float)(qx + (l & 1));
        in[0].f[1] = (float)(qy + (l >> 1));
        in[0].f[2] = (float)zint[l] / (float)((1 << 24) - 1);
        in[0].f[3] = 0.0f;
        in[FACE_ATTRIBUTE].f[3] = (float)t->area;
    }
}
