/*
 * Triangle Setup: ATTILA's 2D homogeneous rasterisation (attila-sim
 * RasterizerEmulator.cpp). The three edge equations are the adjoint of the [x y
 * w] vertex matrix in clip space (no geometric clipping: w <= 0 is handled by
 * the algorithm), scaled to the viewport and offset to the pixel centre; the
 * z/w equation comes from the same matrix. Face culling uses the sign of the
 * matrix determinant, after GPU_FACEMODE and the D3D9 y flip.
 *
 * Every step is done in the simulator's order and precision (doubles from
 * the float vertex data, GPUMath::setupMatrix/viewport/boundingBox), so the
 * covered pixels and the interpolation weights are the simulator's.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"

#include <glib.h>
#include <math.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/*
 * The set-up's pieces are inlined into each of its instances
 * (attila_triangle_setup): the SSE2 build and the AVX one
 */
#define SETUP_INLINE __attribute__((always_inline))

/* four doubles: 256-bit lanes in setup_avx, two SSE2 halves otherwise */
typedef double SetupV4d __attribute__((vector_size(32)));

/* ---- bounding box (GPUMath::boundingBox, Blinn's screen coverage) ------- */

static inline SETUP_INLINE uint32_t
outcode(const float *v, int c, uint32_t lo, uint32_t hi)
{
    /* BOUNDCODES: c - (-1) w < 0 -> lo, -c + (1) w < 0 -> hi */
    return ((v[c] - -1.0f * v[3]) < 0.0f ? lo : 0) |
           ((-v[c] + 1.0f * v[3]) < 0.0f ? hi : 0);
}

#ifdef __SSE2__
/*
 * The three outcodes of a vertex's x, y, z at once (not under
 * g3d_general_path): c - -1 w is c + w and -c + 1 w is w - c, the same
 * roundings (-1 w and 1 w are exact, x - -y is x + y), compared with 0
 * as outcode does; lane j's two bits go to bits 2j and 2j + 1
 */
static inline SETUP_INLINE uint32_t outcodes_sse2(const float *v)
{
    static const uint8_t spread[8] = { 0, 1, 4, 5, 16, 17, 20, 21 };
    __m128 p = _mm_loadu_ps(v), w = _mm_shuffle_ps(p, p, 0xff);
    __m128 zero = _mm_setzero_ps();
    unsigned lo = _mm_movemask_ps(_mm_cmplt_ps(_mm_add_ps(p, w), zero)) & 7;
    unsigned hi = _mm_movemask_ps(_mm_cmplt_ps(_mm_sub_ps(w, p), zero)) & 7;

    return spread[lo] | (uint32_t)spread[hi] << 1;
}
#endif

static inline SETUP_INLINE void
bound_range(uint32_t oc, uint32_t mask, float c, float w, float *min,
            float *max, bool *vis)
{
    if ((oc & mask) == 0) {
        *vis = true;
        if ((c - *min * w) < 0.0f) {
            *min = c / w;
        }
        if ((c - *max * w) > 0.0f) {
            *max = c / w;
        }
    }
}

static inline SETUP_INLINE void
bound_range2(uint32_t oc, uint32_t m0, uint32_t m1, float c, float w,
             float *min, float *max)
{
    if ((oc & m0) && (c - *min * w) < 0.0f) {
        *min = -1.0f;
    }
    if ((oc & m1) && (c - *max * w) > 0.0f) {
        *max = 1.0f;
    }
}

static inline SETUP_INLINE void
bounding_box(const float *p[3], int32_t x0, int32_t y0, uint32_t w,
             uint32_t h, int32_t *xmin, int32_t *xmax, int32_t *ymin,
             int32_t *ymax)
{
    uint32_t oc[3], accept;
    float mn[2] = { 1.0f, 1.0f }, mx[2] = { -1.0f, -1.0f };
    bool vis[2] = { false, false };
    int i, a;

    for (i = 0; i < 3; i++) {
#ifdef __SSE2__
        if (!g3d_general_path) {
            oc[i] = outcodes_sse2(p[i]);
            continue;
        }
#endif
        oc[i] = outcode(p[i], 0, 0x01, 0x02) | outcode(p[i], 1, 0x04, 0x08) |
                outcode(p[i], 2, 0x10, 0x20);
    }
    accept = oc[0] | oc[1] | oc[2];
    for (a = 0; a < 2; a++) {
        uint32_t m = a ? 0x0c : 0x03;
        for (i = 0; i < 3; i++) {
            bound_range(oc[i], m, p[i][a], p[i][3], &mn[a], &mx[a], &vis[a]);
        }
    }
    if (accept != 0) {
        for (a = 0; a < 2; a++) {
            if (!vis[a]) {
                mn[a] = -1.0f;
                mx[a] = 1.0f;
                continue;
            }
            for (i = 0; i < 3; i++) {
                bound_range2(oc[i], a ? 0x04 : 0x01, a ? 0x08 : 0x02,
                             p[i][a], p[i][3], &mn[a], &mx[a]);
            }
        }
    }
    /* to viewport pixels, one pixel of margin, clamped to the viewport */
    {
        float hw = (float)w * 0.5f, hh = (float)h * 0.5f;
        int32_t v;

        v = (int32_t)floor((double)(mn[0] * hw + (float)x0 + hw)) - 1;
        *xmin = v > x0 ? v : x0;
        v = (int32_t)floor((double)(mx[0] * hw + (float)x0 + hw)) + 1;
        *xmax = v < x0 + (int32_t)w ? v : x0 + (int32_t)w;
        v = (int32_t)floor((double)(mn[1] * hh + (float)y0 + hh)) - 1;
        *ymin = v > y0 ? v : y0;
        v = (int32_t)floor((double)(mx[1] * hh + (float)y0 + hh)) + 1;
        *ymax = v < y0 + (int32_t)h ? v : y0 + (int32_t)h;
    }
}

/* ---- setup --------------------------------------------------------------- */

/*
 * The simulator's box above is loose: a triangle wholly outside the
 * frustum (with frustum clipping off) gets the whole viewport. When every
 * w is positive the triangle lies inside the box of its projected vertices,
 * so only the pixels of that box (two pixels of margin) can be covered:
 * traversal is narrowed to it. The edge equations, the top tile and its
 * start values stay the simulator's, so the coverage is unchanged.
 */
static inline SETUP_INLINE void
projected_box(const float *p[3], const AttilaDrawState *ds, AttilaTriangle *t)
{
    double mn[2] = { INFINITY, INFINITY }, mx[2] = { -INFINITY, -INFINITY };
    double org[2] = { ds->vp_x, ds->vp_y }, size[2] = { ds->vp_w, ds->vp_h };
    int32_t lo[2], hi[2];
    int i, a;

    if (!g3d_general_path) {
        /*
         * the six quotients in two 4-lane divisions (one AVX VDIVPD each
         * in setup_avx, two DIVPD in the SSE2 build), the same
         * correctly rounded ones; the w test first, as a division has
         * no effect to keep; lane 3 of the second divides 1 by 1
         */
        SetupV4d n0, d0, n1, d1, q0, q1;
        double c[3][2];

        if (!(p[0][3] > 0.0f && p[1][3] > 0.0f && p[2][3] > 0.0f)) {
            return;             /* behind the eye or NaN: keep the box */
        }
        n0 = (SetupV4d){ p[0][0], p[0][1], p[1][0], p[1][1] };
        d0 = (SetupV4d){ p[0][3], p[0][3], p[1][3], p[1][3] };
        n1 = (SetupV4d){ p[2][0], p[2][1], 1.0, 1.0 };
        d1 = (SetupV4d){ p[2][3], p[2][3], 1.0, 1.0 };
        q0 = n0 / d0;
        q1 = n1 / d1;
        c[0][0] = q0[0];
        c[0][1] = q0[1];
        c[1][0] = q0[2];
        c[1][1] = q0[3];
        c[2][0] = q1[0];
        c[2][1] = q1[1];
        for (i = 0; i < 3; i++) {
            for (a = 0; a < 2; a++) {
                mn[a] = MIN(mn[a], c[i][a]);
                mx[a] = MAX(mx[a], c[i][a]);
            }
        }
    }
    for (i = 0; i < 3 && g3d_general_path; i++) {
        if (!(p[i][3] > 0.0f)) {
            return;             /* behind the eye or NaN: keep the box */
        }
        for (a = 0; a < 2; a++) {
            double c = (double)p[i][a] / (double)p[i][3];
            mn[a] = MIN(mn[a], c);
            mx[a] = MAX(mx[a], c);
        }
    }
    for (a = 0; a < 2; a++) {
        double l = (mn[a] * 0.5 + 0.5) * size[a] + org[a] - 2.0;
        double h = (mx[a] * 0.5 + 0.5) * size[a] + org[a] + 2.0;
        if (!(l <= h)) {
            return;
        }
        lo[a] = (int32_t)MAX(MIN(floor(l), 1e9), -1e9);
        hi[a] = (int32_t)MAX(MIN(ceil(h), 1e9), -1e9);
    }
    t->x0 = MAX(t->x0, lo[0]);
    t->x1 = MIN(t->x1, hi[0]);
    t->y0 = MAX(t->y0, lo[1]);
    t->y1 = MIN(t->y1, hi[1]);
}

static inline SETUP_INLINE double log2_ceil(double n)
{
    double l = log(n) / log(2.0);       /* GPU_LOG2 */
    double f = floor(l);

    return l - f > 0 ? f + 1 : f;       /* GPU_CEIL2 */
}

/*
 * The top tile's level for a box n pixels on its longer side: the
 * simulator's MAX(GPU_CEIL2(GPU_LOG2(n)), 4) (log2_ceil). For n from 1 to
 * 2^28 that is the integer ceil(log2 n), at least 4: the quotient of the
 * two logarithms is within a few units in the last place of log2 n,
 * which is an integer only at powers of two (where it comes out exact up
 * to 2^28; 2^29 and 2^31 give one more) and is elsewhere more than 2^-28
 * from one. So the integer count is taken there (not under
 * g3d_general_path), the two calls of log a triangle saved; larger and
 * non-positive n take the formula.
 */
static inline SETUP_INLINE uint32_t top_level(int64_t n)
{
    if (n >= 1 && n <= (1 << 28) && !g3d_general_path) {
        return n <= 16 ? 4 : 32 - (uint32_t)__builtin_clz((uint32_t)n - 1);
    }
    return (uint32_t)MAX(log2_ceil((double)n), 4.0);
}

uint32_t attila_triangle_top_level(int64_t n)
{
    return top_level(n);
}

static inline SETUP_INLINE bool
setup_body(const AttilaDrawState *ds, const AttilaVertex *v0,
           const AttilaVertex *v1, const AttilaVertex *v2, AttilaTriangle *t)
{
    const AttilaVertex *vx[3] = { v0, v1, v2 };
    float pos[3][4];
    const float *p[3] = { pos[0], pos[1], pos[2] };
    double e[3][3], zeq[3], area, sx, sy, off;
    int32_t xmin, xmax, ymin, ymax, scx0, scy0, scx1, scy1;
    uint32_t m;
    int i, k;
    bool back;

    for (i = 0; i < 3; i++) {
        memcpy(pos[i], vx[i]->out[0], sizeof(pos[i]));
        if (ds->d3d9_pixel) {
            pos[i][1] = -pos[i][1];     /* D3D9: (0,0) is the top left */
        }
    }

    /* edge equations: the adjoint of the [x y w] matrix (setupMatrix) */
    for (i = 0; i < 3; i++) {
        const float *a = p[(i + 1) % 3], *b = p[(i + 2) % 3];
        e[i][0] = (double)a[1] * (double)b[3] - (double)b[1] * (double)a[3];
        e[i][1] = (double)b[0] * (double)a[3] - (double)a[0] * (double)b[3];
        e[i][2] = (double)a[0] * (double)b[1] - (double)b[0] * (double)a[1];
    }
    if ((ds->face_mode == ATTILA_FACE_CW) != ds->d3d9_pixel) {
        /* the y flip changes the vertex order, too */
        for (i = 0; i < 3; i++) {
            for (k = 0; k < 3; k++) {
                e[i][k] = -e[i][k];
            }
        }
    }
    for (k = 0; k < 3; k++) {
        zeq[k] = e[0][k] * (double)p[0][2] + e[1][k] * (double)p[1][2] +
                 e[2][k] * (double)p[2][2];
    }

    /* to the viewport (GPUMath::viewport) */
    area = e[0][2] * (double)p[0][3] + e[1][2] * (double)p[1][3] +
           e[2][2] * (double)p[2][3];
    sx = ((double)ds->vp_x * 2.0) / (double)ds->vp_w + 1.0;
    sy = ((double)ds->vp_y * 2.0) / (double)ds->vp_h + 1.0;
    for (i = 0; i < 4; i++) {
        double *q = i < 3 ? e[i] : zeq;
        q[2] = q[2] - q[0] * sx - q[1] * sy;
        q[0] = q[0] * 2.0 / (double)ds->vp_w;
        q[1] = q[1] * 2.0 / (double)ds->vp_h;
    }
    for (k = 0; k < 3; k++) {
        zeq[k] = zeq[k] / area;
    }
    /*
     * OpenGL samples at the pixel centre (x + 0.5, y + 0.5); D3D9 rules
     * sample at the integer pixel coordinate (RasterizerEmulator::setup;
     * the d3d-triangle reference frame confirms it, ATTILA ref.
     * GPU_D3D9_RASTERIZATION_RULES).
     */
    if (!ds->d3d9_rules) {
        for (i = 0; i < 4; i++) {
            double *q = i < 3 ? e[i] : zeq;
            q[2] += q[0] * 0.5 + q[1] * 0.5;
        }
    }

    /* face culling (TriangleSetup::cullFaceTest) */
    if (!(area != 0.0)) {
        return false;               /* zero area (or NaN): nothing to draw */
    }
    back = area < 0;
    switch (ds->cull) {
    case ATTILA_CULL_FRONT:
        if (!back) {
            return false;
        }
        break;
    case ATTILA_CULL_BACK:
        if (back) {
            return false;
        }
        break;
    case ATTILA_CULL_FRONT_AND_BACK:
        return false;
    default:
        break;
    }
    if (back) {
        /* every rasterised triangle keeps its inside on E >= 0 */
        for (i = 0; i < 3; i++) {
            for (k = 0; k < 3; k++) {
                e[i][k] = -e[i][k];
            }
        }
    }
    memcpy(t->e, e, sizeof(e));
    memcpy(t->zeq, zeq, sizeof(zeq));
    for (i = 0; i < 3; i++) {
        t->inside_lo[i] = attila_inside_lo(e[i][0], e[i][1]);
    }
    attila_triangle_pairs(t);
    t->area = area;
    /* the outputs the fragment side reads (setup_attrs), not all 16 */
    for (m = ds->setup_attrs; m; m &= m - 1) {
        uint32_t a = __builtin_ctz(m), o = a;

        if (ds->two_sided && back && (a == 1 || a == 2)) {
            /* back colours are outputs 3 and 4 (ATTILA ref. Registers,
             * TWOSIDED) */
            o = a + 2;
        }
        for (i = 0; i < 3; i++) {
            memcpy(t->attr[i][a], vx[i]->out[o], 16);
        }
    }

    /* the pixels to visit: bounding box, scissor (or window), viewport */
    bounding_box(p, ds->vp_x, ds->vp_y, ds->vp_w, ds->vp_h,
                 &xmin, &xmax, &ymin, &ymax);
    if (ds->scissor) {
        scx0 = ds->sc_x > 0 ? ds->sc_x : 0;
        scy0 = ds->sc_y > 0 ? ds->sc_y : 0;
        scx1 = scx0 + (int32_t)MIN(ds->sc_w, ds->disp_w -
                                   (uint32_t)MIN(scx0, (int32_t)ds->disp_w));
        scy1 = scy0 + (int32_t)MIN(ds->sc_h, ds->disp_h -
                                   (uint32_t)MIN(scy0, (int32_t)ds->disp_h));
    } else {
        scx0 = scy0 = 0;
        scx1 = ds->disp_w;
        scy1 = ds->disp_h;
    }
    xmin = MIN(MAX(xmin, scx0), scx1);
    xmax = MAX(MIN(xmax, scx1), scx0);
    ymin = MIN(MAX(ymin, scy0), scy1);
    ymax = MAX(MIN(ymax, scy1), scy0);

    /* the top tile of the recursive rasteriser (topLevelTile) */
    t->start_x = xmin - xmin % 16;
    t->start_y = ymin - ymin % 16;
    t->level = top_level(MAX((int64_t)xmax - t->start_x + 1,
                             (int64_t)ymax - t->start_y + 1));
    off = ds->msaa ? -0.5 : 0.0;
    for (i = 0; i < 4; i++) {
        const double *q = i < 3 ? e[i] : zeq;
        t->start[i] = q[0] * ((double)t->start_x + off) +
                      q[1] * ((double)t->start_y + off) + q[2];
    }

    /* fragments outside the display, viewport or scissor are culled */
    t->x0 = MAX(xmin, MAX(ds->vp_x, scx0));
    t->y0 = MAX(ymin, MAX(ds->vp_y, scy0));
    t->x1 = MIN(xmax, MIN(ds->vp_x + (int32_t)ds->vp_w, scx1) - 1);
    t->y1 = MIN(ymax, MIN(ds->vp_y + (int32_t)ds->vp_h, scy1) - 1);
    t->x1 = MIN(t->x1, (int32_t)ds->disp_w - 1);
    t->y1 = MIN(t->y1, (int32_t)ds->disp_h - 1);
    projected_box(p, ds, t);
    return t->x0 <= t->x1 && t->y0 <= t->y1 && t->level < 32;
}

static bool setup_sse2(const AttilaDrawState *ds, const AttilaVertex *v0,
                       const AttilaVertex *v1, const AttilaVertex *v2,
                       AttilaTriangle *t)
{
    return setup_body(ds, v0, v1, v2, t);
}

#if defined(__x86_64__) && defined(__GNUC__)
/*
 * The same body built for AVX (ds->setup_avx): floor and ceil one
 * ROUNDSD each instead of SSE2's sequences, the three-operand forms; no
 * FMA (not in the target, and contraction off), so the same operations
 * in the same order and the same bytes
 */
__attribute__((target("avx"))) G3D_NO_CONTRACT
static bool setup_avx(const AttilaDrawState *ds, const AttilaVertex *v0,
                      const AttilaVertex *v1, const AttilaVertex *v2,
                      AttilaTriangle *t)
{
    return setup_body(ds, v0, v1, v2, t);
}
#endif

bool attila_triangle_setup(const AttilaDrawState *ds, const AttilaVertex *v0,
                           const AttilaVertex *v1, const AttilaVertex *v2,
                           AttilaTriangle *t)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (ds->setup_avx) {
        return setup_avx(ds, v0, v1, v2, t);
    }
#endif
    return setup_sse2(ds, v0, v1, v2, t);
}

/*
 * The simulator's recursive tile walk, as additions: from the top tile's
 * start, level l (from t->level down) moves to the sub-tile holding
 * (dx, dy) by a * 2^(l-1) then b * 2^(l-1). Levels from..to, onto v.
 */
static void add_levels(const AttilaTriangle *t, uint32_t dx, uint32_t dy,
                       int from, int to, double v[4])
{
    int l, k;

    for (l = from; l >= to; l--) {
        uint32_t half = 1u << (l - 1);
        double s = (double)half;
        if (dx & half) {
            for (k = 0; k < 3; k++) {
                v[k] += t->e[k][0] * s;
            }
            v[3] += t->zeq[0] * s;
        }
        if (dy & half) {
            for (k = 0; k < 3; k++) {
                v[k] += t->e[k][1] * s;
            }
            v[3] += t->zeq[1] * s;
        }
    }
}

void attila_triangle_eval_tile(const AttilaTriangle *t, int32_t x0,
                               int32_t y0, double v[4])
{
    memcpy(v, t->start, 4 * sizeof(double));
    /* the levels above the 16x16 scan tile: sub-tiles of 16 and more */
    add_levels(t, (uint32_t)(x0 - t->start_x), (uint32_t)(y0 - t->start_y),
               (int)t->level, 5, v);
}

/* a stamp's values where attila_triangle_eval_stamp_memo's path is not taken */
void attila_triangle_eval_stamp_add(const AttilaTriangle *t,
                                    const double tile[4], int32_t qx,
                                    int32_t qy, AttilaStampMemo *memo,
                                    double v[4][4])
{
    uint32_t dx = (uint32_t)(qx - t->start_x), dy = (uint32_t)(qy - t->start_y);
    int k;

    if (!memo || t->level < 4) {
        memcpy(v[0], tile, 4 * sizeof(double));
        add_levels(t, dx, dy, MIN((int)t->level, 4), 2, v[0]);
    } else {
        /* the 8x8 and 4x4 sub-tiles' sums, redone when the stamp leaves
         * them: the same additions in the same order */
        uint32_t k4 = (dx >> 3 & 1) | (dy >> 3 & 1) << 1;
        uint32_t k3 = (dx >> 2 & 3) | (dy >> 2 & 3) << 2;

        if (memo->have < 1 || memo->key[0] != k4) {
            memcpy(memo->node[0], tile, 4 * sizeof(double));
            add_levels(t, dx, dy, 4, 4, memo->node[0]);
            memo->key[0] = k4;
            memo->have = 1;
        }
        if (memo->have < 2 || memo->key[1] != k3) {
            memcpy(memo->node[1], memo->node[0], 4 * sizeof(double));
            add_levels(t, dx, dy, 3, 3, memo->node[1]);
            memo->key[1] = k3;
            memo->have = 2;
        }
        memcpy(v[0], memo->node[1], 4 * sizeof(double));
        add_levels(t, dx, dy, 2, 2, v[0]);
    }
    for (k = 0; k < 3; k++) {
        v[1][k] = v[0][k] + t->e[k][0];
        v[2][k] = v[0][k] + t->e[k][1];
        v[3][k] = v[1][k] + t->e[k][1];
    }
    v[1][3] = v[0][3] + t->zeq[0];
    v[2][3] = v[0][3] + t->zeq[1];
    v[3][3] = v[1][3] + t->zeq[1];
}
