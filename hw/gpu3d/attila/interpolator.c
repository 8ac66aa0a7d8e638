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

#include <glib.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_AVX_PATH 1
#endif

#define FACE_ATTRIBUTE 15

bool attila_interpolate_avx;

#ifdef HAVE_AVX_PATH
/*
 * The AVX lanes (attila_interp_weights_avx, attila_interp_comps_avx),
 * selected at run time (attila_interpolate_init), not under
 * g3d_general_path: the four fragments' weights and each component's sum
 * one 4-double operation each.
 */
__attribute__((target("avx"), always_inline))
static inline void avx_weights(const double *const v[4], __m256d f[3])
{
    attila_interp_weights_avx(_mm256_setr_pd(v[0][0], v[1][0], v[2][0], v[3][0]),
                              _mm256_setr_pd(v[0][1], v[1][1], v[2][1], v[3][1]),
                              _mm256_setr_pd(v[0][2], v[1][2], v[2][2], v[3][2]),
                              f);
}

/* interpolated attribute a of the four fragments: comp[c] has component c */
__attribute__((target("avx"), always_inline))
static inline void avx_components(const AttilaTriangle *t, int a,
                                  const __m256d f[3], __m128 comp[4])
{
    double d[3][4] __attribute__((aligned(32)));
    __m256d ad[3][4];
    int c, l;

    /* each vertex's four components converted by one VCVTPS2PD */
    for (l = 0; l < 3; l++) {
        _mm256_store_pd(d[l], _mm256_cvtps_pd(_mm_loadu_ps(t->attr[l][a])));
        for (c = 0; c < 4; c++) {
            ad[l][c] = _mm256_broadcast_sd(&d[l][c]);
        }
    }
    attila_interp_comps_avx(ad, f, comp);
}

/* the inputs in `left` into the four threads */
__attribute__((target("avx")))
static void interpolate_avx(const AttilaDrawState *ds, const AttilaTriangle *t,
                            const double *const v[4], uint32_t left,
                            AttilaShaderThread lane[4])
{
    __m256d f[3];
    int a, l;

    avx_weights(v, f);
    for (; left; left &= left - 1) {
        __m128 comp[4];

        a = __builtin_ctz(left);
        if (!ds->fs_input[a]) {
            for (l = 0; l < 4; l++) {
                memset(&lane[l].in[a], 0, sizeof(lane[l].in[a]));
            }
            continue;
        }
        if (!ds->interpolate[a]) {
            for (l = 0; l < 4; l++) {
                memcpy(lane[l].in[a].f, t->attr[2][a], 16);
            }
            continue;
        }
        avx_components(t, a, f, comp);
        /* components by lane to lanes by component */
        _MM_TRANSPOSE4_PS(comp[0], comp[1], comp[2], comp[3]);
        for (l = 0; l < 4; l++) {
            _mm_storeu_ps(lane[l].in[a].f, comp[l]);
        }
    }
}

/* attila_interpolate_soa's interpolated attribute with AVX */
__attribute__((target("avx")))
static void interpolate_soa_avx(const AttilaTriangle *t, const double v[4][4],
                                unsigned a, __m128 ch[4])
{
    const double *const p[4] = { v[0], v[1], v[2], v[3] };
    __m256d f[3];

    avx_weights(p, f);
    avx_components(t, a, f, ch);
}
#endif

void attila_interpolate_init(void)
{
#ifdef HAVE_AVX_PATH
    /* once: cores made on several threads must not race on the flag */
    static gsize done;

    if (g_once_init_enter(&done)) {
        __builtin_cpu_init();
        attila_interpolate_avx = __builtin_cpu_supports("avx");
        g_once_init_leave(&done, 1);
    }
#endif
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
    double f[4][3];
    /* the inputs the program reads (fs_inputs), input 0 aside */
    uint32_t left = ds->fs_inputs & ((1u << ATTILA_MAX_FRAGMENT_ATTRIBUTES) - 2);
    int a, c, l;
#ifdef __SSE2__
    __m128d fw[4][3];
#endif

#ifdef HAVE_AVX_PATH
    if (attila_interpolate_avx && !g3d_general_path) {
        interpolate_avx(ds, t, v, left, lane);
        left = 0;
    }
#endif

    for (l = 0; l < 4 && left; l++) {
        double r = 1.0 / (v[l][0] + v[l][1] + v[l][2]);
        f[l][0] = r * v[l][0];
        f[l][1] = r * v[l][1];
        f[l][2] = r * v[l][2];
#ifdef __SSE2__
        fw[l][0] = _mm_set1_pd(f[l][0]);
        fw[l][1] = _mm_set1_pd(f[l][1]);
        fw[l][2] = _mm_set1_pd(f[l][2]);
#endif
    }
    for (; left; left &= left - 1) {
        a = __builtin_ctz(left);
        if (!ds->fs_input[a]) {
            for (l = 0; l < 4; l++) {
                memset(&lane[l].in[a], 0, sizeof(lane[l].in[a]));
            }
        } else if (ds->interpolate[a]) {
#ifdef __SSE2__
            if (!g3d_general_path) {
                /*
                 * Not under g3d_general_path: a lane's four components
                 * two an operation, the same products and sums in the
                 * same order as below, rounded to float by CVTPD2PS (as
                 * the C conversion).
                 */
                __m128 a0 = _mm_loadu_ps(t->attr[0][a]);
                __m128 a1 = _mm_loadu_ps(t->attr[1][a]);
                __m128 a2 = _mm_loadu_ps(t->attr[2][a]);
                __m128d a0l = _mm_cvtps_pd(a0), a0h = _mm_cvtps_pd(_mm_movehl_ps(a0, a0));
                __m128d a1l = _mm_cvtps_pd(a1), a1h = _mm_cvtps_pd(_mm_movehl_ps(a1, a1));
                __m128d a2l = _mm_cvtps_pd(a2), a2h = _mm_cvtps_pd(_mm_movehl_ps(a2, a2));

                for (l = 0; l < 4; l++) {
                    __m128d lo = _mm_add_pd(_mm_add_pd(_mm_mul_pd(a0l, fw[l][0]),
                                                       _mm_mul_pd(a1l, fw[l][1])),
                                            _mm_mul_pd(a2l, fw[l][2]));
                    __m128d hi = _mm_add_pd(_mm_add_pd(_mm_mul_pd(a0h, fw[l][0]),
                                                       _mm_mul_pd(a1h, fw[l][1])),
                                            _mm_mul_pd(a2h, fw[l][2]));
                    _mm_storeu_ps(lane[l].in[a].f,
                                  _mm_movelh_ps(_mm_cvtpd_ps(lo),
                                                _mm_cvtpd_ps(hi)));
                }
                continue;
            }
#endif
            for (l = 0; l < 4; l++) {
                for (c = 0; c < 4; c++) {
                    lane[l].in[a].f[c] =
                        (float)(t->attr[0][a][c] * f[l][0] +
                                t->attr[1][a][c] * f[l][1] +
                                t->attr[2][a][c] * f[l][2]);
                }
            }
        } else {
            for (l = 0; l < 4; l++) {
                memcpy(lane[l].in[a].f, t->attr[2][a], 16);
            }
        }
    }
    /* input 0 and the face attribute where the program reads them */
    for (l = 0; l < 4 && (ds->fs_inputs & 1); l++) {
        AttilaVec4 *in = lane[l].in;
        in[0].f[0] = (float)(qx + (l & 1));
        in[0].f[1] = (float)(qy + (l >> 1));
        in[0].f[2] = (float)zint[l] / (float)((1 << 24) - 1);
        in[0].f[3] = 0.0f;
    }
    for (l = 0; l < 4 && (ds->fs_inputs & 1u << FACE_ATTRIBUTE); l++) {
        lane[l].in[FACE_ATTRIBUTE].f[3] = (float)t->area;
    }
}

#ifdef __SSE2__
/*
 * attila_interpolate_soa's interpolated attribute with SSE2: fragments
 * 0-1 and 2-3 two an operation with the scalar path's operations in its
 * order, as the AVX lanes do four.
 */
static void interpolate_soa_sse2(const AttilaTriangle *t, const double v[4][4],
                                 unsigned a, __m128 ch[4])
{
    __m128d f[2][3];
    int c, h, k;

    for (h = 0; h < 2; h++) {
        const double *v0 = v[2 * h], *v1 = v[2 * h + 1];
        __m128d e[3], r;
        for (k = 0; k < 3; k++) {
            e[k] = _mm_setr_pd(v0[k], v1[k]);
        }
        r = _mm_div_pd(_mm_set1_pd(1.0),
                       _mm_add_pd(_mm_add_pd(e[0], e[1]), e[2]));
        for (k = 0; k < 3; k++) {
            f[h][k] = _mm_mul_pd(r, e[k]);
        }
    }
    for (c = 0; c < 4; c++) {
        __m128d a0 = _mm_set1_pd(t->attr[0][a][c]);
        __m128d a1 = _mm_set1_pd(t->attr[1][a][c]);
        __m128d a2 = _mm_set1_pd(t->attr[2][a][c]);
        __m128 half[2];
        for (h = 0; h < 2; h++) {
            half[h] = _mm_cvtpd_ps(_mm_add_pd(
                _mm_add_pd(_mm_mul_pd(a0, f[h][0]), _mm_mul_pd(a1, f[h][1])),
                _mm_mul_pd(a2, f[h][2])));
        }
        ch[c] = _mm_movelh_ps(half[0], half[1]);
    }
}

AttilaInterpolateSoa attila_interpolate_soa_lanes(void)
{
#ifdef HAVE_AVX_PATH
    if (attila_interpolate_avx) {
        return interpolate_soa_avx;
    }
#endif
    return interpolate_soa_sse2;
}

/*
 * Input a of the four fragments by component, for the rasteriser's copy
 * of a one-MOV program (not under g3d_general_path): the values
 * attila_interpolate writes to the threads' input a, without the threads.
 */
void attila_interpolate_soa(const AttilaDrawState *ds, const AttilaTriangle *t,
                            const double v[4][4], unsigned a, __m128 ch[4])
{
    int c;

    if (!ds->fs_input[a]) {
        ch[0] = ch[1] = ch[2] = ch[3] = _mm_setzero_ps();
    } else if (!ds->interpolate[a]) {
        for (c = 0; c < 4; c++) {
            ch[c] = _mm_set1_ps(t->attr[2][a][c]);
        }
    } else {
        attila_interpolate_soa_lanes()(t, v, a, ch);
    }
}
#endif
