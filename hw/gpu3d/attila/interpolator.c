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

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define FACE_ATTRIBUTE 15

/*
 * (float)(a0 f_l0 + a1 f_l1 + a2 f_l2) for the four lanes l; with SSE2
 * (not under g3d_general_path) two lanes an operation, the same products
 * and sums in the same order, and the same rounding to float (CVTPD2PS, as
 * the C conversion).
 */
static inline void weigh4(double a0, double a1, double a2,
                          const double fk[3][4], bool general, float out[4])
{
    int l;

#ifdef __SSE2__
    if (!general) {
        __m128d w0 = _mm_set1_pd(a0), w1 = _mm_set1_pd(a1);
        __m128d w2 = _mm_set1_pd(a2);
        __m128d lo = _mm_add_pd(_mm_add_pd(_mm_mul_pd(w0, _mm_loadu_pd(fk[0])),
                                           _mm_mul_pd(w1, _mm_loadu_pd(fk[1]))),
                                _mm_mul_pd(w2, _mm_loadu_pd(fk[2])));
        __m128d hi = _mm_add_pd(_mm_add_pd(_mm_mul_pd(w0,
                                                      _mm_loadu_pd(fk[0] + 2)),
                                           _mm_mul_pd(w1,
                                                      _mm_loadu_pd(fk[1] + 2))),
                                _mm_mul_pd(w2, _mm_loadu_pd(fk[2] + 2)));

        _mm_storeu_ps(out, _mm_movelh_ps(_mm_cvtpd_ps(lo), _mm_cvtpd_ps(hi)));
        return;
    }
#endif
    for (l = 0; l < 4; l++) {
        out[l] = (float)(a0 * fk[0][l] + a1 * fk[1][l] + a2 * fk[2][l]);
    }
}

/*
 * The four fragments of a stamp at once: v[l] are fragment l's edge values
 * (at its pixel, or its sample centroid), zint its window z; each
 * attribute is converted to double once for the four.
 */
void attila_interpolate(const AttilaDrawState *ds, const AttilaTriangle *t,
                        const double *const v[4], const uint32_t zint[4],
                        int32_t qx, int32_t qy, AttilaShaderThread lane[4])
{
    double f[4][3], fk[3][4];       /* fk: f by weight, lanes adjacent */
    float w[4];
    bool general = g3d_general_path;
    /* the inputs the program reads (fs_inputs), input 0 aside */
    uint32_t left = ds->fs_inputs & ((1u << ATTILA_MAX_FRAGMENT_ATTRIBUTES) - 2);
    int a, c, l;

    for (l = 0; l < 4; l++) {
        double r = 1.0 / (v[l][0] + v[l][1] + v[l][2]);
        f[l][0] = r * v[l][0];
        f[l][1] = r * v[l][1];
        f[l][2] = r * v[l][2];
        fk[0][l] = f[l][0];
        fk[1][l] = f[l][1];
        fk[2][l] = f[l][2];
    }
    for (; left; left &= left - 1) {
        a = __builtin_ctz(left);
        if (!ds->fs_input[a]) {
            for (l = 0; l < 4; l++) {
                memset(&lane[l].in[a], 0, sizeof(lane[l].in[a]));
            }
        } else if (ds->interpolate[a]) {
            for (c = 0; c < 4; c++) {
                weigh4(t->attr[0][a][c], t->attr[1][a][c], t->attr[2][a][c],
                       (const double (*)[4])fk, general, w);
                for (l = 0; l < 4; l++) {
                    lane[l].in[a].f[c] = w[l];
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
