/*
 * The shared triangle rasteriser.
 *
 * A chip's setup stage snaps its three window-space vertices to its own
 * sub-pixel grid and hands them here with its edge rule and clip rectangle.
 * The rasteriser finds the covered samples with exact integer edge functions,
 * groups them in aligned 2x2 quads (so the chip can take derivatives for LOD,
 * and keeps helper pixels for that), and calls the chip's per-quad function
 * with screen-linear and perspective-correct barycentric weights.
 *
 * Work is split over `threads` threads by screen tile: a tile belongs to one
 * thread for the life of the rasteriser. A batch's queued triangles are
 * appended to the bin of every tile they may cover (by the render threads,
 * a slice of the batch each, at the start of its raster job); each thread
 * walks only its own tiles' bins, each in submission order, so every pixel
 * sees the same triangles in the same order whatever the thread count: the
 * image is bit-identical.
 *
 * Coordinates: x grows right, y grows down, pixel (x, y) covers
 * [x, x+1) x [y, y+1); chips with other conventions convert in setup.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_COMMON_RASTER_H
#define GPU3D_COMMON_RASTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Edges, classified by where the triangle lies relative to them. */
enum {
    G3D_EDGE_LEFT   = 1 << 0, /* triangle to the right of the edge */
    G3D_EDGE_RIGHT  = 1 << 1, /* triangle to the left */
    G3D_EDGE_TOP    = 1 << 2, /* triangle below */
    G3D_EDGE_BOTTOM = 1 << 3, /* triangle above */
};

typedef struct G3DRasterRules {
    int32_t subpixels;        /* grid steps per pixel (12, 16, 128, ...) */
    int32_t sample_x;         /* sample position inside the pixel, in */
    int32_t sample_y;         /*   grid steps (subpixels / 2 = centre) */
    /*
     * Which edges own the samples lying exactly on them (G3D_EDGE_*).
     * Top-left rule: G3D_EDGE_TOP | G3D_EDGE_LEFT.
     */
    uint8_t edge_in;
    /*
     * How an edge is classified. false: horizontal edges are TOP/BOTTOM and
     * every other edge LEFT/RIGHT (D3D/GL). true: vertical edges are
     * LEFT/RIGHT and every other edge TOP/BOTTOM (R300 SC_EDGERULE >= 16).
     */
    bool vertical_first;
} G3DRasterRules;

/* The top-left rule with pixel-centre sampling on a 1/16 grid. */
extern const G3DRasterRules g3d_rules_top_left_16;

typedef struct G3DRasterVertex {
    int32_t x, y;   /* position in grid steps (pixel * subpixels) */
    float inv_w;    /* 1/w for perspective correction; 1.0f: screen-linear */
} G3DRasterVertex;

typedef struct G3DRect {
    int32_t x0, y0, x1, y1; /* pixels; half-open: x0 <= x < x1 */
} G3DRect;

/*
 * One 2x2 quad. Sample i (0..3) is pixel (x + (i & 1), y + (i >> 1)).
 * Weights are given for all four samples, covered or not, so a chip can
 * difference them for derivatives; `mask` says which are covered.
 * lin[i][k]:  screen-linear weight of vertex k at sample i (for depth);
 * bary[i][k]: perspective-correct weight (for attributes).
 * Both sum to 1 and reproduce vertex k exactly at vertex k.
 */
typedef struct G3DQuad {
    int32_t x, y;
    uint32_t mask;
    float lin[4][3];
    float bary[4][3];
} G3DQuad;

/*
 * Called for every quad with at least one covered sample, on the one thread
 * that draws the quad's tile in this batch (any of them; the same one for
 * every triangle of the tile). `thread` (0 .. threads-1) indexes per-thread
 * scratch or counters. It may only touch the quad's own pixels in shared buffers.
 */
typedef void G3DQuadFn(void *user, const G3DQuad *q, int thread);

/*
 * Optional, for a triangle whose fragments depend on nothing but their own
 * position (no derivatives or helper pixels): a constant colour, planes
 * evaluated per pixel without LOD, or values the chip interpolates from
 * the triangle's edges (g3d_raster_edges, g3d_weights4): called instead
 * of the quad function with pixels [x0, x1) x [y0, y1), all covered and
 * inside one tile (G3D_TILE_SIZE): the tile's part of the triangle's box
 * where all of it is inside; else, in each band of 8 rows (aligned to 8),
 * the whole aligned 8x8 blocks that every row of the band covers as one
 * rectangle, and each row's covered pixels beside them as a one-row run.
 * With G3DTriangle.fill_wide, the rectangles and runs may span up to eight
 * tiles of one tile row instead (raster.c wide_run). The covered pixels
 * and the statistics are the quad path's. Same thread and ownership rules
 * as G3DQuadFn.
 */
typedef void G3DBlockFn(void *user, int x0, int y0, int x1, int y1,
                        int thread);

typedef struct G3DTriangle {
    G3DRasterVertex v[3];
    G3DRect clip;                   /* scissor already met with the target */
    const G3DRasterRules *rules;
    G3DQuadFn *shade;
    G3DBlockFn *fill;               /* optional, NULL: quads only */
    bool fill_wide;                 /* fill takes rectangles of many tiles */
    void *user;                     /* must live until g3d_raster_flush() */
    bool no_weights;                /* the chip interpolates itself */
} G3DTriangle;

typedef struct G3DRaster G3DRaster;

/*
 * A triangle's edge functions as the rasteriser sets them up, for a fill
 * function that interpolates by itself with the quads' weights. Internal
 * vertex k is the caller's vertex perm[k] (the order made counter-clockwise
 * so that inside is E >= 0); edge k is opposite internal vertex k, and
 * E_k at a sample (sx, sy) in grid steps is a sx + b sy + c, exact. A
 * sample is covered when E_k + bias >= 0 for every k.
 */
typedef struct G3DEdge {
    int64_t a, b, c;
    int64_t bias;               /* 0 if samples on the edge are in, -1 if out */
} G3DEdge;

typedef struct G3DEdges {
    G3DEdge e[3];
    int64_t area;               /* E_k at internal vertex k, > 0 */
    double inv_area;
    float inv_w[3];             /* of internal vertex k */
    uint8_t perm[3];
    /*
     * Every |vertex coordinate| < 2^23 and at most 2^16 grid steps a pixel:
     * E at any sample within a few pixels of the triangle is an integer
     * below 2^50, so doubles hold it and sums of it exactly.
     */
    bool exact_double;
} G3DEdges;

/* The edges of t's vertices; false for a degenerate or too large one. */
bool g3d_raster_edges(const G3DTriangle *t, G3DEdges *out);

/*
 * Every 1/w in [2^-40, 2^40]: at a covered sample the perspective weights
 * are >= 0 and computed without underflow (p = lin / w is 0 or at least
 * 2^-97, the largest at least 2^-42), so their sum is positive and
 * g3d_weights4 may take `positive` there.
 */
static inline bool g3d_inv_w_positive(const G3DRasterVertex v[3])
{
    int k;

    for (k = 0; k < 3; k++) {
        if (!(v[k].inv_w >= 0x1p-40f && v[k].inv_w <= 0x1p40f)) {
            return false;
        }
    }
    return true;
}

/*
 * g3d_inv_w_positive, and the three 1/w the same power of two (all 1 when
 * every w is 1: 2D and orthographic draws). At a covered sample p = lin *
 * inv_w is then lin scaled exactly (no underflow: see above), and the
 * scale cancels in p * (1 / (p0 + p1 + p2)) (power-of-two scalings of the
 * doubles round nowhere), so the weights may skip the product: the
 * `positive` setting G3D_WEIGHTS_UNIT_W of g3d_weights8_avx512 and
 * g3d_weights4_avx.
 */
static inline bool g3d_inv_w_unit(const G3DRasterVertex v[3])
{
    union { float f; uint32_t u; } w = { v[0].inv_w };

    return g3d_inv_w_positive(v) && v[1].inv_w == w.f &&
           v[2].inv_w == w.f && (w.u & 0x7FFFFF) == 0;
}

/* the `positive` settings of the weights: any sums, positive ones, ... */
enum { G3D_WEIGHTS_ANY, G3D_WEIGHTS_POSITIVE,
       /* ... positive and g3d_inv_w_unit: p = lin (no product) */
       G3D_WEIGHTS_UNIT_W };

#ifdef __SSE2__
#include <emmintrin.h>
/*
 * The weights of four samples from their edge values (e01[k]: edge k at
 * samples 0 and 1, e23[k] at 2 and 3), per internal vertex k, sample i in
 * lane i: lin (screen-linear), and with bar non-NULL the perspective-correct
 * ones. `positive`: the caller knows p0 + p1 + p2 > 0 at the samples it
 * uses (every 1/w positive and not tiny), so r is never 0 there. G3DQuad's weights are these; the operations per lane: the edge
 * value times 1/area in double rounded to float; p = lin * inv_w in float;
 * r = 1 / (p0 + p1 + p2) in double (0 if the sum is 0); p * r in double
 * rounded to float, or lin where r is 0. A product within an ulp of 1.0
 * (or exactly 0) rounds to exactly 1.0f (0.0f), so a vertex weighs exactly
 * 1 at itself and 0 at the others.
 */
static inline void g3d_weights4(const G3DEdges *g, const __m128d e01[3],
                                const __m128d e23[3], __m128 lin[3],
                                __m128 bar[3], bool positive)
{
    const __m128d zero = _mm_setzero_pd(), ia = _mm_set1_pd(g->inv_area);
    __m128d p01[3], p23[3], s01, s23, r01, r23;
    __m128 use;
    int k;

    for (k = 0; k < 3; k++) {
        lin[k] = _mm_movelh_ps(_mm_cvtpd_ps(_mm_mul_pd(e01[k], ia)),
                               _mm_cvtpd_ps(_mm_mul_pd(e23[k], ia)));
    }
    if (!bar) {
        return;
    }
    for (k = 0; k < 3; k++) {
        __m128 p = _mm_mul_ps(lin[k], _mm_set1_ps(g->inv_w[k]));

        p01[k] = _mm_cvtps_pd(p);
        p23[k] = _mm_cvtps_pd(_mm_movehl_ps(p, p));
    }
    s01 = _mm_add_pd(_mm_add_pd(p01[0], p01[1]), p01[2]);
    s23 = _mm_add_pd(_mm_add_pd(p23[0], p23[1]), p23[2]);
    if (positive) {
        r01 = _mm_div_pd(_mm_set1_pd(1.0), s01);
        r23 = _mm_div_pd(_mm_set1_pd(1.0), s23);
        for (k = 0; k < 3; k++) {
            bar[k] = _mm_movelh_ps(_mm_cvtpd_ps(_mm_mul_pd(p01[k], r01)),
                                   _mm_cvtpd_ps(_mm_mul_pd(p23[k], r23)));
        }
        return;
    }
    /* r = s != 0 ? 1 / s : 0 (NaN != 0, as in C) */
    r01 = _mm_and_pd(_mm_cmpneq_pd(s01, zero),
                     _mm_div_pd(_mm_set1_pd(1.0), s01));
    r23 = _mm_and_pd(_mm_cmpneq_pd(s23, zero),
                     _mm_div_pd(_mm_set1_pd(1.0), s23));
    /* r != 0 ? p * r : lin; the low halves of the two masks as four */
    use = _mm_shuffle_ps(_mm_castpd_ps(_mm_cmpneq_pd(r01, zero)),
                         _mm_castpd_ps(_mm_cmpneq_pd(r23, zero)),
                         _MM_SHUFFLE(2, 0, 2, 0));
    for (k = 0; k < 3; k++) {
        __m128 pr = _mm_movelh_ps(_mm_cvtpd_ps(_mm_mul_pd(p01[k], r01)),
                                  _mm_cvtpd_ps(_mm_mul_pd(p23[k], r23)));
        bar[k] = _mm_or_ps(_mm_and_ps(use, pr), _mm_andnot_ps(use, lin[k]));
    }
}

/*
 * For a walk along rows: g3d_weights4 of the samples whose edge values
 * are e01 and e23, in the caller's vertex order (internal vertices 1 and 2
 * are the caller's 2 and 1 when perm[1] == 2), then the edge values
 * stepped by `step` to the next group of samples.
 */
static inline void g3d_weights4_next(const G3DEdges *g, __m128d e01[3],
                                     __m128d e23[3], const __m128d step[3],
                                     __m128 lin[3], __m128 bar[3],
                                     bool positive)
{
    __m128 t;
    int k;

    g3d_weights4(g, e01, e23, lin, bar, positive);
    for (k = 0; k < 3; k++) {
        e01[k] = _mm_add_pd(e01[k], step[k]);
        e23[k] = _mm_add_pd(e23[k], step[k]);
    }
    if (g->perm[1] == 2) {
        t = lin[1], lin[1] = lin[2], lin[2] = t;
        if (bar) {
            t = bar[1], bar[1] = bar[2], bar[2] = t;
        }
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define G3D_WEIGHTS_AVX 1
/*
 * g3d_weights4 with the four samples' doubles in one AVX vector (e[k]:
 * edge k at samples 0..3), for span functions compiled for AVX
 * (__attribute__((target("avx"))), chosen at run time by g3d_use_avx(), common/g3d-core.h).
 * The operations per lane are g3d_weights4's, in the same order and
 * precision: VEX-encoded IEEE multiplies, additions, divisions and
 * conversions, and no FMA (the target does not enable it), so the weights
 * are bit for bit the SSE2 ones, with half the double instructions.
 * Not always_inline: a span body shared by an SSE2 and an AVX instance
 * may hold a call to it that only the AVX instance keeps (and inlines).
 */
static inline __attribute__((target("avx"))) void
g3d_weights4_avx(const G3DEdges *g, const __m256d e[3], __m128 lin[3],
                 __m128 bar[3], int positive)
{
    const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
    const __m256d ia = _mm256_set1_pd(g->inv_area);
    __m256d p[3], s, r;
    __m256 m;
    __m128 use;
    int k;

    for (k = 0; k < 3; k++) {
        lin[k] = _mm256_cvtpd_ps(_mm256_mul_pd(e[k], ia));
    }
    if (!bar) {
        return;
    }
    for (k = 0; k < 3; k++) {
        p[k] = _mm256_cvtps_pd(positive == G3D_WEIGHTS_UNIT_W ? lin[k] :
                               _mm_mul_ps(lin[k], _mm_set1_ps(g->inv_w[k])));
    }
    s = _mm256_add_pd(_mm256_add_pd(p[0], p[1]), p[2]);
    r = _mm256_div_pd(one, s);
    if (positive) {
        for (k = 0; k < 3; k++) {
            bar[k] = _mm256_cvtpd_ps(_mm256_mul_pd(p[k], r));
        }
        return;
    }
    /* r = s != 0 ? 1 / s : 0 (NaN != 0, as in C) */
    r = _mm256_and_pd(_mm256_cmp_pd(s, zero, _CMP_NEQ_UQ), r);
    /* r != 0 ? p * r : lin; the low halves of the four 64-bit masks */
    m = _mm256_castpd_ps(_mm256_cmp_pd(r, zero, _CMP_NEQ_UQ));
    use = _mm_shuffle_ps(_mm256_castps256_ps128(m), _mm256_extractf128_ps(m, 1),
                         _MM_SHUFFLE(2, 0, 2, 0));
    for (k = 0; k < 3; k++) {
        __m128 pr = _mm256_cvtpd_ps(_mm256_mul_pd(p[k], r));

        bar[k] = _mm_or_ps(_mm_and_ps(use, pr), _mm_andnot_ps(use, lin[k]));
    }
}

/* e[k] = v[k][0..3] (edge k at four samples), step[k] = s[k] in each lane */
static inline __attribute__((target("avx"))) void
g3d_edges4_avx(__m256d e[3], __m256d step[3], const double v[3][4],
               const double s[3])
{
    int k;

    for (k = 0; k < 3; k++) {
        e[k] = _mm256_loadu_pd(v[k]);
        step[k] = _mm256_set1_pd(s[k]);
    }
}

/*
 * g3d_weights4_next for g3d_weights4_avx: the weights of the samples whose
 * edge values are e, in the caller's vertex order, then e stepped by step.
 */
static inline __attribute__((target("avx"))) void
g3d_weights4_next_avx(const G3DEdges *g, __m256d e[3], const __m256d step[3],
                      __m128 lin[3], __m128 bar[3], bool positive)
{
    __m128 t;
    int k;

    g3d_weights4_avx(g, e, lin, bar, positive);
    for (k = 0; k < 3; k++) {
        e[k] = _mm256_add_pd(e[k], step[k]);
    }
    if (g->perm[1] == 2) {
        t = lin[1], lin[1] = lin[2], lin[2] = t;
        if (bar) {
            t = bar[1], bar[1] = bar[2], bar[2] = t;
        }
    }
}

#define G3D_WEIGHTS_WIDE 1
/*
 * Eight samples a group, for span functions compiled for AVX2 or AVX-512
 * (g3d_simd_level(), common/g3d-core.h): lin and bar as in g3d_weights4,
 * sample i in lane i of one 256-bit vector. AVX2: the samples' doubles in
 * two vectors of four (e[h][k]: edge k at samples 4h..4h+3), each weighted
 * by g3d_weights4_avx.
 */
static inline __attribute__((target("avx2"))) void
g3d_weights8_avx2(const G3DEdges *g, const __m256d e[2][3], __m256 lin[3],
                  __m256 bar[3], int positive)
{
    __m128 l[2][3], b[2][3];
    int k;

    g3d_weights4_avx(g, e[0], l[0], bar ? b[0] : NULL, positive);
    g3d_weights4_avx(g, e[1], l[1], bar ? b[1] : NULL, positive);
    for (k = 0; k < 3; k++) {
        lin[k] = _mm256_set_m128(l[1][k], l[0][k]);
        if (bar) {
            bar[k] = _mm256_set_m128(b[1][k], b[0][k]);
        }
    }
}

/*
 * AVX-512: the eight samples' doubles in one vector (e[k]: edge k), each
 * lane with g3d_weights4's operations in its order (multiply, round to
 * float, multiply by 1/w, widen, two additions, one division, multiply,
 * round). The zero-sum select with mask registers: r is the division's
 * result where s != 0 (NaN included) and +0 elsewhere, as the AND of the
 * SSE2 code. The caller's function must keep contraction off (AVX-512F
 * has FMA): see G3D_NO_CONTRACT.
 */
/*
 * _mm512_cvtpd_ps and _mm512_cvtps_pd, all lanes converted: GCC's own
 * start from an "undefined" vector that -Wmaybe-uninitialized takes for
 * an uninitialised one
 */
#define cvt8(x) _mm512_maskz_cvtpd_ps((__mmask8)0xFF, (x))
#define widen8(x) _mm512_maskz_cvtps_pd((__mmask8)0xFF, (x))

static inline __attribute__((target("avx2,avx512f,avx512vl"))) void
g3d_weights8_avx512(const G3DEdges *g, const __m512d e[3], __m256 lin[3],
                    __m256 bar[3], int positive)
{
    const __m512d zero = _mm512_setzero_pd(), one = _mm512_set1_pd(1.0);
    const __m512d ia = _mm512_set1_pd(g->inv_area);
    __m512d p[3], s, r;
    __mmask8 use;
    int k;

    for (k = 0; k < 3; k++) {
        lin[k] = cvt8(_mm512_mul_pd(e[k], ia));
    }
    if (!bar) {
        return;
    }
    for (k = 0; k < 3; k++) {
        /* G3D_WEIGHTS_UNIT_W: the scale cancels (g3d_inv_w_unit) */
        p[k] = widen8(positive == G3D_WEIGHTS_UNIT_W ? lin[k] :
                      _mm256_mul_ps(lin[k], _mm256_set1_ps(g->inv_w[k])));
    }
    s = _mm512_add_pd(_mm512_add_pd(p[0], p[1]), p[2]);
    r = _mm512_div_pd(one, s);
    if (positive) {
        for (k = 0; k < 3; k++) {
            bar[k] = cvt8(_mm512_mul_pd(p[k], r));
        }
        return;
    }
    /* r = s != 0 ? 1 / s : 0 (NaN != 0, as in C); r != 0 ? p * r : lin */
    r = _mm512_maskz_mov_pd(_mm512_cmp_pd_mask(s, zero, _CMP_NEQ_UQ), r);
    use = _mm512_cmp_pd_mask(r, zero, _CMP_NEQ_UQ);
    for (k = 0; k < 3; k++) {
        bar[k] = _mm256_mask_blend_ps(use, lin[k],
                                      cvt8(_mm512_mul_pd(p[k], r)));
    }
}
#undef cvt8
#undef widen8

/*
 * Functions built for AVX-512 keep a * b + c as two roundings: GCC's FMA
 * patterns come with AVX-512F, and GCC contracts by default (across
 * statements and inlined intrinsics). Clang contracts only within one
 * source expression, which the intrinsics never are, and has no such
 * attribute.
 */
#ifdef __clang__
#define G3D_NO_CONTRACT
#else
#define G3D_NO_CONTRACT __attribute__((optimize("fp-contract=off")))
#endif

/*
 * A span's walk along a row, eight samples a group: their edge values and
 * steps for g3d_weights8_avx2 or, with `avx512`, g3d_weights8_avx512
 */
typedef struct G3DWalk8 {
    __m512d e8[3], step8[3];
    __m256d e[2][3], step[3];
} G3DWalk8;

/*
 * The AVX-512 parts of the walk, not always_inline: an always_inline body
 * built for AVX2 may hold calls to them that only its AVX-512 instance
 * keeps (and inlines)
 */
static inline __attribute__((target("avx2,avx512f,avx512vl"))) void
g3d_walk8_start_avx512(G3DWalk8 *w, const double v[3][8], const double s[3])
{
    int k;

    for (k = 0; k < 3; k++) {
        w->e8[k] = _mm512_loadu_pd(v[k]);
        w->step8[k] = _mm512_set1_pd(s[k]);
    }
}

static inline __attribute__((target("avx2,avx512f,avx512vl"))) void
g3d_walk8_next_avx512(const G3DEdges *g, G3DWalk8 *w, __m256 lin[3],
                      __m256 bar[3], int positive)
{
    int k;

    g3d_weights8_avx512(g, w->e8, lin, bar, positive);
    for (k = 0; k < 3; k++) {
        w->e8[k] = _mm512_add_pd(w->e8[k], w->step8[k]);
    }
}

/* the walk's edge values (tests) */
static inline __attribute__((target("avx2,avx512f,avx512vl"))) void
g3d_walk8_store_avx512(const G3DWalk8 *w, double v[3][8])
{
    int k;

    for (k = 0; k < 3; k++) {
        _mm512_storeu_pd(v[k], w->e8[k]);
    }
}

/*
 * Sixteen lanes from two groups of eight (lanes 0..7 from lo, 8..15 from
 * hi), for spans that weight two groups and shade them at once
 */
static inline __attribute__((always_inline,
                             target("avx2,avx512f,avx512vl"))) __m512
g3d_join16_ps(__m256 lo, __m256 hi)
{
    return _mm512_castpd_ps(_mm512_insertf64x4(
        _mm512_castpd256_pd512(_mm256_castps_pd(lo)), _mm256_castps_pd(hi),
        1));
}

/* the walk from edge values v[k][0..7] at the first group, steps s[k] */
static inline __attribute__((always_inline, target("avx2"))) void
g3d_walk8_start(G3DWalk8 *w, const double v[3][8], const double s[3],
                const bool avx512)
{
    int k;

    if (avx512) {
        g3d_walk8_start_avx512(w, v, s);
        return;
    }
    for (k = 0; k < 3; k++) {
        w->e[0][k] = _mm256_loadu_pd(&v[k][0]);
        w->e[1][k] = _mm256_loadu_pd(&v[k][4]);
        w->step[k] = _mm256_set1_pd(s[k]);
    }
}

/*
 * The weights of the walk's group in the caller's vertex order (as
 * g3d_weights4_next), then a step to the next group
 */
static inline __attribute__((always_inline, target("avx2"))) void
g3d_walk8_next(const G3DEdges *g, G3DWalk8 *w, __m256 lin[3], __m256 bar[3],
               int positive, const bool avx512)
{
    __m256 t;
    int k;

    if (avx512) {
        g3d_walk8_next_avx512(g, w, lin, bar, positive);
    } else {
        g3d_weights8_avx2(g, (const __m256d (*)[3])w->e, lin, bar, positive);
        for (k = 0; k < 3; k++) {
            w->e[0][k] = _mm256_add_pd(w->e[0][k], w->step[k]);
            w->e[1][k] = _mm256_add_pd(w->e[1][k], w->step[k]);
        }
    }
    if (g->perm[1] == 2) {
        t = lin[1], lin[1] = lin[2], lin[2] = t;
        if (bar) {
            t = bar[1], bar[1] = bar[2], bar[2] = t;
        }
    }
}
#endif

/*
 * A span's walk along a row, four samples a group: their edge values and
 * steps for g3d_weights4_next or, in a span instance compiled for AVX
 * (`avx` true), for g3d_weights4_next_avx
 */
typedef struct G3DWalk4 {
    __m128d e01[3], e23[3], step[3];
#ifdef G3D_WEIGHTS_AVX
    __m256d e[3], step4[3];
#endif
} G3DWalk4;

/* the walk from edge values v[k][0..3] at the first group, steps s[k] */
static inline __attribute__((always_inline)) void
g3d_walk4_start(G3DWalk4 *w, const double v[3][4], const double s[3],
                const bool avx)
{
    int k;

#ifdef G3D_WEIGHTS_AVX
    if (avx) {
        g3d_edges4_avx(w->e, w->step4, v, s);
        return;
    }
#endif
    for (k = 0; k < 3; k++) {
        w->e01[k] = _mm_loadu_pd(&v[k][0]);
        w->e23[k] = _mm_loadu_pd(&v[k][2]);
        w->step[k] = _mm_set1_pd(s[k]);
    }
}

/* g3d_weights4_next (or its AVX twin) of the walk's group, then a step */
static inline __attribute__((always_inline)) void
g3d_walk4_next(const G3DEdges *g, G3DWalk4 *w, __m128 lin[3],
               __m128 bar[3], bool positive, const bool avx)
{
#ifdef G3D_WEIGHTS_AVX
    if (avx) {
        g3d_weights4_next_avx(g, w->e, w->step4, lin, bar, positive);
        return;
    }
#endif
    g3d_weights4_next(g, w->e01, w->e23, w->step, lin, bar, positive);
}
#endif

#define G3D_TILE_SIZE 32            /* pixels; even, so quads stay inside */

G3DRaster *g3d_raster_new(int threads);
void g3d_raster_free(G3DRaster *r);
int g3d_raster_threads(const G3DRaster *r);

/*
 * Queue a triangle. Degenerate or fully clipped triangles are dropped here;
 * returns false for those. The queue is flushed by itself when it is full.
 */
bool g3d_raster_triangle(G3DRaster *r, const G3DTriangle *t);

/*
 * Storage that lives until the next flush (for the `user` data of queued
 * triangles: vertex attributes, a snapshot of the draw state). 16-aligned.
 */
void *g3d_raster_alloc(G3DRaster *r, size_t size);

/*
 * Staged triangles: a chip may run a draw's front end (vertex fetch and
 * programs, clipping, setup) on the render threads, in chunks of its
 * primitives. A thread that has entered a stage queues its triangles there
 * (g3d_raster_triangle sets them up and returns as usual, but bins nothing)
 * and allocates their user data from it (g3d_raster_alloc; it lives until
 * the raster's next flush, like a queued triangle's, or a later one while
 * the stage holds triangles not yet committed). The thread that drives the
 * raster then commits the stages in the primitives' order: the bins, hence
 * the image, are those of the serial front end. A commit adds the stage's
 * triangles to the batch by address, with their tiles and pixels counted
 * on the staging thread.
 */
typedef struct G3DRasterStage G3DRasterStage;

/* the raster's i-th stage (i < 256), made on first use, in order */
G3DRasterStage *g3d_raster_stage(G3DRaster *r, unsigned i);
/* the calling thread queues into s until it leaves */
void g3d_raster_stage_enter(G3DRasterStage *s);
void g3d_raster_stage_leave(void);
/* is the calling thread queuing into a stage? */
bool g3d_raster_staging(void);
/*
 * The batch queued so far, and what is queued until the next flush, runs
 * on one thread, its tiles in the order one thread takes them: for a draw
 * whose pixels depend on the order of the tiles (it samples a texture that
 * shares bytes with its own target), which would otherwise differ with the
 * thread count and from run to run. Call on the driving thread.
 */
void g3d_raster_serial(G3DRaster *r);
/* queue s's triangles, in order, as g3d_raster_triangle would; how many */
size_t g3d_raster_stage_commit(G3DRaster *r, G3DRasterStage *s);
/* forget s's triangles (the front end runs the draw again serially) */
void g3d_raster_stage_drop(G3DRasterStage *s);
/*
 * A run of n vertices cut into at most `max` chunks for the stages: chunk
 * u is [at[u], at[u + 1]), the first ending at off + per, the others per
 * long, the last taking the rest. Returns how many chunks.
 */
unsigned g3d_raster_chunks(uint32_t *at, unsigned max, uint32_t off,
                           uint32_t per, uint32_t n);

/* Rasterise everything queued, on all threads; returns when all are done. */
void g3d_raster_flush(G3DRaster *r);

/* The triangles queued and the sum of their boxes' pixels. */
void g3d_raster_queued(const G3DRaster *r, size_t *tris, uint64_t *pixels);

/*
 * How many (triangle, tile) entries the per-tile bins hold before the
 * queued triangles are drawn by themselves (their `user` data stays valid
 * until g3d_raster_flush()), counted as the tiles of the triangles' boxes
 * when they are queued (binning, later, may leave some out); a triangle
 * whose tiles do not fit is split there. Tests lower it to exercise that
 * path.
 */
extern uint32_t g3d_raster_bin_entries_max;

/* Counters since creation, for benchmarks and tests. */
typedef struct G3DRasterStats {
    uint64_t triangles;   /* triangles queued (after the degenerate test) */
    uint64_t quads;       /* quads shaded */
    uint64_t samples;     /* samples covered */
    uint64_t flushes;
    uint64_t filled;      /* samples of `samples` written by a G3DBlockFn */
} G3DRasterStats;

void g3d_raster_stats(G3DRaster *r, G3DRasterStats *out);

/* Weighted sum helper for attributes. */
static inline float g3d_interp(const float w[3], float a0, float a1, float a2)
{
    return w[0] * a0 + w[1] * a1 + w[2] * a2;
}

/* ---- the thread pool behind the rasteriser, usable on its own -------- */

typedef struct G3DThreadPool G3DThreadPool;
typedef void G3DJobFn(void *arg, int thread);

/*
 * Microseconds a helper polls for the next job, and the caller for the
 * helpers' end, before sleeping (0: sleep at once); tiles.c says why.
 */
extern unsigned g3d_pool_spin_us;

/*
 * A helper's pace between jobs (tiles.c says why): how long it polls for
 * the next job after one (us), and how it saw the next: public for the
 * tests, which drive it through every sequence.
 */
typedef enum G3DPoolNotice {
    G3D_POOL_UNPOLLED,          /* it slept, or the job came before it polled */
    G3D_POOL_PUNCTUAL,          /* seen while polling, soon after its post */
    G3D_POOL_LATE,              /* seen while polling, long after its post */
} G3DPoolNotice;

typedef struct G3DPoolPace {
    unsigned late_row;          /* late notices since the last punctual one */
    unsigned sleep_jobs;        /* jobs left to sleep between, not polling */
    unsigned period;            /* the next such sleep's jobs (0: the least) */
} G3DPoolPace;

unsigned g3d_pool_pace_spin(const G3DPoolPace *pc);
void g3d_pool_pace_note(G3DPoolPace *pc, G3DPoolNotice n);

/* `threads` >= 1; thread 0 is always the caller of g3d_pool_run(). */
G3DThreadPool *g3d_pool_new(int threads);
void g3d_pool_free(G3DThreadPool *p);
int g3d_pool_threads(const G3DThreadPool *p);
/* Run fn(arg, t) for every t in 0..threads-1 in parallel; wait for all. */
void g3d_pool_run(G3DThreadPool *p, G3DJobFn *fn, void *arg);
/*
 * For a job whose units any thread may take (fn claims them atomically
 * until none is left): fn(arg, 0) on the caller, and fn(arg, t) on each
 * helper t that wakes before the caller's fn has returned; the caller then
 * waits only for the helpers that have begun. A helper that is slow to
 * wake costs nothing: the caller takes its units.
 */
void g3d_pool_run_shared(G3DThreadPool *p, G3DJobFn *fn, void *arg);
/*
 * A shared job whose caller does not wait for the helpers: fn(arg, 0) on
 * the caller, and the helpers that wake before it returns join as with
 * g3d_pool_run_shared, but the caller returns at once, the helpers that
 * joined (the count returned) perhaps still running. The pool's next job
 * and g3d_pool_wait wait for them first. For a pipeline: the caller goes
 * on with work that touches nothing the helpers use, and waits before
 * anything that does. -1: the operation is being cancelled (g3d_yield),
 * nothing was run.
 */
int g3d_pool_post_shared(G3DThreadPool *p, G3DJobFn *fn, void *arg);
/* Wait for the helpers of a g3d_pool_post_shared job (if any). */
void g3d_pool_wait(G3DThreadPool *p);
/*
 * In a shared job's fn on the caller: how many helpers have joined it (a
 * helper that has joined runs fn to its end, so it takes any unit the
 * caller leaves). busy: some helper of the last job still runs.
 */
int g3d_pool_joined(G3DThreadPool *p);
bool g3d_pool_busy(G3DThreadPool *p);
/*
 * Units 0..n-1 of a shared job cut into one run per thread: thread
 * `thread` of `threads` claims its own run's units first, from the run's
 * front, then what is left of the others' runs, from their backs. A thread
 * thus works on the same part of the screen from job to job, in its own
 * core's cache, while a thread that is slow to come leaves its units to
 * the others; one that takes another's units takes them as far from the
 * owner's as they can be, so that the two share the memory (a linear
 * target's pages) of at most the one place where they meet. `next` holds
 * the runs' counters, G3D_CLAIM_STRIDE apart (a cache line), zero before
 * the job: a run's units taken from its front in the low 32 bits, from its
 * back in the high, one 64-bit fetch-and-add for either, so that the two
 * ends never cross (a unit is claimed only while the sum is below the
 * run's length). Run s is units g3d_claim_run_start(n, threads, s) up to
 * the next run's start. `*k` starts at 0. True with *unit claimed; false
 * once none is left.
 */
#define G3D_CLAIM_STRIDE 8
#define G3D_CLAIM_BACK ((uint64_t)1 << 32)

static inline uint32_t g3d_claim_run_start(uint32_t n, int threads, int s)
{
    return (uint32_t)((uint64_t)n * s / threads);
}

static inline bool g3d_claim(uint64_t *next, uint32_t n, int threads,
                             int thread, int *k, uint32_t *unit)
{
    for (; *k < threads; (*k)++) {
        int s = (thread + *k) % threads;
        uint32_t lo = g3d_claim_run_start(n, threads, s);
        uint32_t hi = g3d_claim_run_start(n, threads, s + 1);
        uint64_t got = __atomic_fetch_add(&next[s * G3D_CLAIM_STRIDE],
                                          *k ? G3D_CLAIM_BACK : 1,
                                          __ATOMIC_RELAXED);
        /* each sum at most n + threads: the 32-bit halves never carry */
        uint32_t front = (uint32_t)got, back = (uint32_t)(got >> 32);

        if ((uint64_t)front + back < hi - lo) {
            *unit = *k ? hi - 1 - back : lo + front;
            return true;
        }
    }
    return false;
}

/* the units of g3d_claim's runs that no thread has claimed yet */
static inline uint32_t g3d_claim_left(const uint64_t *next, uint32_t n,
                                      int threads)
{
    uint32_t left = 0;
    int s;

    for (s = 0; s < threads; s++) {
        uint32_t run = g3d_claim_run_start(n, threads, s + 1) -
                       g3d_claim_run_start(n, threads, s);
        uint64_t got = __atomic_load_n(&next[s * G3D_CLAIM_STRIDE],
                                       __ATOMIC_RELAXED);
        uint64_t taken = (uint64_t)(uint32_t)got + (uint32_t)(got >> 32);

        left += taken < run ? run - (uint32_t)taken : 0;
    }
    return left;
}

/*
 * A block of `size` bytes of render thread `thread`'s own, zeroed when
 * made (a front end's per-thread vertex cache): *blocks is NULL until the
 * first call. Make every thread's before a job in which they look for
 * theirs; on the driving thread.
 */
void *g3d_raster_thread_block(G3DRaster *r, void ***blocks, int thread,
                              size_t size);
void g3d_raster_thread_blocks_free(G3DRaster *r, void ***blocks);

/* g3d_pool_run_shared on the raster's render threads (between flushes) */
void g3d_raster_run_shared(G3DRaster *r, G3DJobFn *fn, void *arg);
/*
 * For a thread other than the one that drives the pool, while that one
 * cannot start a job (it waits for the caller's lock, or is parked at a
 * g3d_yield): g3d_pool_run_shared, or false, having run nothing, when the
 * pool is in the middle of a job (its driver parked inside it). The job
 * must not call g3d_yield.
 */
bool g3d_pool_try_run_shared(G3DThreadPool *p, G3DJobFn *fn, void *arg);
bool g3d_raster_try_run_shared(G3DRaster *r, G3DJobFn *fn, void *arg);

/*
 * Which of `threads` render threads owns screen tile (tx, ty): a
 * checkerboard for two threads; for any count, each run of `threads` tiles
 * along a row has one tile of every thread, so all share a wide triangle.
 */
static inline int g3d_tile_owner(int tx, int ty, int threads)
{
    return (int)(((unsigned)tx + (unsigned)ty * 5u) % (unsigned)threads);
}

/* Default thread count for a device: the host's CPUs, at least 1. */
int g3d_default_threads(void);

#endif
