/*
 * The Rasterizer's fragment side: triangle traversal (fragment generation
 * in 2x2 stamps), and for each stamp the rest of the pipeline: MSAA
 * coverage, interpolation, early or late z/stencil, fragment shading on the
 * unified shader, color write.
 *
 * Work is spread over the gpu3d tile thread pool (g3d_pool_*): every thread
 * owns a fixed set of 16x16 scan tiles and walks the draw's triangles in
 * order, so each pixel sees the same triangles in the same order whatever
 * the thread count, and the image is bit-identical for any count.
 *
 * The coverage test and the interpolation weights are ATTILA's own 2D
 * homogeneous edge equations in double precision (triangle-setup.c), not
 * the shared integer rasteriser: the simulator evaluates them without a
 * sub-pixel grid, with its own tie rule, and its frames can only be met by
 * the same arithmetic (docs/attila-3d.md, "Rasterisation").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"

#include <glib.h>
#include <float.h>
#include <math.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_AVX_PATH 1
#endif

#define TILE 16
/* a raster batch's units: RASTER_CLASSES classes of each render thread's
 * tiles, by blocks of 1 << RASTER_BLOCK_SHIFT tiles a side, or of
 * 1 << RASTER_FINE_SHIFT for a one-sample batch of under
 * RASTER_FINE_PIXELS pixels of boxes (raster_job) */
#define RASTER_CLASSES 8
#define RASTER_BLOCK_SHIFT 3
#define RASTER_FINE_SHIFT 1
#define RASTER_FINE_PIXELS 16384
#define RASTER_ROW_STEP 3
/* the work units (attila_raster_draw's estimate) of a batch worth the
 * helpers whatever its pixels: a unit took 100-300 instructions in
 * simplefog and 8lights, so some 15-50 us, against a hand-over's few */
#define RASTER_SHARED_WORK 512
#define MSAA_SUBPIXEL 128.0     /* MSAA_SUBPIXEL_PRECISSION */

struct AttilaRaster {
    AttilaCore *core;
    G3DThreadPool *pool;
    int threads;
    AttilaRenderCtx *ctx;
    const AttilaDrawState *ds;
    const AttilaTriangle *tris;
    size_t n;
    /* the chosen paths: box tests, one-comparison edge tests, the stamp
     * memo (not under g3d_general_path) */
    bool skip_boxes;
    /* one sample and every mapped target on a chosen write path: stamp1;
     * tables: every buffer covers the display, the stamps' addresses are
     * looked up (not under g3d_general_path) */
    bool one_sample;
    bool tables;
    /* where one_sample: the row walk's AVX or SSE2 instance (NULL: stamp
     * by stamp, a build without SSE2) */
    AttilaStampRowFn *rows;
    /* stamp4's samples in AVX lanes (msaa_cover4_avx): g3d_use_avx() */
    bool lanes4;
    /* the address tables (AttilaRenderCtx.zx): the z buffer's, then each target's */
    AttilaAddressTable tab[1 + ATTILA_MAX_RENDER_TARGETS];
    /* the draws' counts since the core was made (attila_raster_stats):
     * covered stamps, fragments, work (stamps and program steps) */
    uint64_t quads, fragments, work;
    /* the last batch's work (stamps and fragment program steps) per
     * pixel of its triangles' boxes, in 1/16: the next batch's estimate */
    uint64_t work_px16;
    /* the batch begun (attila_raster_batch_begin): its pixels of boxes,
     * the render threads' work before it, whether its tiles are units
     * of a shared job (else one thread walks them) */
    uint64_t pixels, work_before;
    bool shared;
    /*
     * The pipeline (attila_raster_post_shared): a batch whose helpers may
     * still be drawing, its end (attila_raster_batch_end) not yet taken;
     * a draw begun (attila_raster_begin) whose work counters are cleared
     * at the next attila_raster_sync, since the batch in flight counts its
     * work in them; attila_raster_sync running.
     */
    bool in_flight;
    bool fresh;
    bool syncing;
    /*
     * The batch is in a posted job (attila_raster_post_shared): the
     * caller leaves the last `leave` raster units to a helper that has
     * joined, to go on with the next records meanwhile. `leave` follows
     * the helpers: one more where they had finished by the next sync
     * (they waited for work), one fewer where the caller waited for them.
     */
    bool posted;
    uint32_t leave;
    /*
     * The chain (attila_raster_post_shared): a posted job's helpers, done
     * with its draw, wait a while for the next small draw's job (a link)
     * in the same pool job, instead of returning to the pool and being
     * handed the next as a new one. `chain`: CHAIN_CLOSED, the link's
     * number (CHAIN_SEQ), the helpers waiting for the next link
     * (CHAIN_WAITING) and those done with this one (CHAIN_DONE); the
     * link's job is link_fn/link_arg, run by link_joined
     * helpers (-1: the pool's first link, g3d_pool_joined); `chained`: a
     * chain job is in the pool (closed by CHAIN_CLOSED and chain_close).
     */
    bool chained;
    uint64_t chain;
    G3DJobFn *link_fn;
    void *link_arg;
    int link_joined;
    uint64_t *clear_next;       /* raster_clear's g3d_claim counters */
    uint64_t *raster_next;      /* raster_job's */
    /* the batch's triangles that meet each class's blocks, in order:
     * class c's are class_tri[c * class_cap ...], class_n[c] of them */
    uint32_t *class_tri;
    size_t class_cap;
    uint32_t class_n[RASTER_CLASSES];
    int block_shift;            /* the batch's blocks: 1 << it tiles a side */
};

/* Sample positions in 1/128 pixel from the pixel corner (RasterizerEmulator) */
static const double msaa2[2][2] = { { 8, 120 }, { 120, 8 } };
static const double msaa4[4][2] = {
    { 12, 44 }, { 44, 108 }, { 76, 12 }, { 108, 76 },
};
static const double msaa8[8][2] = {
    { 8, 56 }, { 24, 104 }, { 40, 24 }, { 56, 88 },
    { 72, 40 }, { 88, 120 }, { 104, 72 }, { 120, 8 },
};

const double (*attila_msaa_pattern(uint32_t samples))[2]
{
    switch (samples) {
    case 2:  return msaa2;
    case 4:  return msaa4;
    case 8:  return msaa8;
    default: return NULL;
    }
}

/* the centroid of the samples in m, from the pixel corner, in pixels */
void attila_centroid_offset(const double (*pat)[2], uint32_t ns,
                                   uint32_t m, double *ox, double *oy)
{
    double x = 0, y = 0;
    int nc = 0;
    uint32_t s;

    for (s = 0; s < ns; s++) {
        if ((m >> s) & 1) {
            x += pat[s][0];
            y += pat[s][1];
            nc++;
        }
    }
    *ox = x / (MSAA_SUBPIXEL * nc);
    *oy = y / (MSAA_SUBPIXEL * nc);
}

/* attila_color_write4 inline: a stamp's call of it cost more than the
 * transposition */
static inline __attribute__((always_inline)) void
color_write4(const AttilaRenderTarget *rt, uint8_t *px,
             const float *const color[4], unsigned mask)
{
#ifdef __SSE2__
    __m128 ch[4];

    attila_channels4(color, ch);
    attila_color_write4_soa(rt, px, ch, mask);
#else
    attila_color_write4(rt, px, color, mask);
#endif
}

/* a stamp's four pixels' edge and z values (triangle-setup.c) */
static inline __attribute__((always_inline)) void
eval_stamp(const AttilaTriangle *t, const double tile[4], int32_t qx,
           int32_t qy, AttilaStampMemo *memo, double v[4][4])
{
    if (!attila_triangle_eval_stamp_memo(t, tile, qx, qy, memo, v)) {
        attila_triangle_eval_stamp_add(t, tile, qx, qy, memo, v);
    }
}

/*
 * attila_centroid_offset of every sample mask of the 2-, 4- and 8-sample
 * patterns, computed once (attila_raster_new): the MSAA stamp looks a
 * partly covered pixel's centroid up (not under g3d_general_path)
 */
static double centroids[4 + 16 + 256][2];

/*
 * The 4-sample pattern's centroids of two pixels' masks (bits 0-3 the
 * first pixel's, 4-7 the second's): x of the first, x of the second, y
 * of the first, y of the second; a pixel without a covered sample takes
 * all four's (copy4_tile writes no sample of it). Two loads a stamp
 * instead of four masks' tests and eight look-ups.
 */
static double centroid4_pairs[256][4];

static void centroids_init(void)
{
    static gsize done;
    uint32_t ns, m, at = 0;

    if (g_once_init_enter(&done)) {
        for (ns = 2; ns <= 8; ns *= 2) {
            for (m = 0; m < 1u << ns; m++) {
                centroids[at + m][0] = centroids[at + m][1] = 0.0;
                if (m) {
                    attila_centroid_offset(attila_msaa_pattern(ns), ns, m,
                                           &centroids[at + m][0],
                                           &centroids[at + m][1]);
                }
            }
            at += 1u << ns;
        }
        for (m = 0; m < 256; m++) {
            const double *c0 = centroids[4 + (m & 15 ? m & 15 : 15)];
            const double *c1 = centroids[4 + (m >> 4 ? m >> 4 : 15)];

            centroid4_pairs[m][0] = c0[0];
            centroid4_pairs[m][1] = c1[0];
            centroid4_pairs[m][2] = c0[1];
            centroid4_pairs[m][3] = c1[1];
        }
        g_once_init_leave(&done, 1);
    }
}

/* the table of the ns-sample pattern's masks */
static inline const double (*centroid_table(uint32_t ns))[2]
{
    return centroids + (ns == 2 ? 0 : ns == 4 ? 4 : 4 + 16);
}

void attila_sample_steps(const AttilaTriangle *t, const double (*pat)[2],
                         uint32_t ns, AttilaSampleSteps *st)
{
    double ox, oy, px[8], py[8];
    uint32_t s;
    int k;

    attila_centroid_offset(pat, ns, (1u << ns) - 1, &ox, &oy);
    /* the samples' offsets in pixels once, not again for each value (the
     * stores to st could alias pat, so GCC would redo the divisions);
     * the same quotients */
    for (s = 0; s < ns && s < 8; s++) {
        px[s] = pat[s][0] / MSAA_SUBPIXEL;
        py[s] = pat[s][1] / MSAA_SUBPIXEL;
    }
    for (k = 0; k < 4; k++) {
        const double *e = k < 3 ? t->e[k] : t->zeq;
        for (s = 0; s < ns && s < 8; s++) {
            st->x[s][k] = e[0] * px[s];
            st->y[s][k] = e[1] * py[s];
        }
        st->cx[k] = e[0] * ox;
        st->cy[k] = e[1] * oy;
    }
}

AttilaRaster *attila_raster_new(AttilaCore *c, int threads)
{
    AttilaRaster *r = g_new0(AttilaRaster, 1);

    attila_interpolate_init();
    centroids_init();

    r->core = c;
    r->threads = threads < 1 ? 1 : threads;
    r->pool = g3d_pool_new(r->threads);
    r->threads = g3d_pool_threads(r->pool);
    r->ctx = g_new0(AttilaRenderCtx, r->threads);
    r->work_px16 = 4;
    r->clear_next = g_new0(uint64_t, G3D_CLAIM_STRIDE * r->threads);
    r->raster_next = g_new0(uint64_t, G3D_CLAIM_STRIDE * r->threads);
    return r;
}

void attila_raster_free(AttilaRaster *r)
{
    int t;

    if (!r) {
        return;
    }
    attila_raster_idle(r);
    g3d_pool_free(r->pool);
    for (t = 0; t <= ATTILA_MAX_RENDER_TARGETS; t++) {
        g_free(r->tab[t].x);
    }
    g_free(r->ctx);
    g_free(r->clear_next);
    g_free(r->raster_next);
    g_free(r->class_tri);
    g_free(r);
}

void attila_raster_stats(AttilaRaster *r, uint64_t *quads,
                         uint64_t *fragments, uint64_t *work)
{
    attila_raster_sync(r);
    *quads = r->quads;
    *fragments = r->fragments;
    *work = r->work;
}

/*
 * The MSAA samples of one pixel inside the triangle (and the near/far
 * planes), with their window z where want_z; v is at the pixel corner.
 * st: the per-triangle steps (not under g3d_general_path).
 */
static inline __attribute__((always_inline)) uint32_t
msaa_cover(const AttilaDrawState *ds, const AttilaTriangle *t,
                           const AttilaSampleSteps *st,
                           const double (*pat)[2], uint32_t ns,
                           const double v[4], bool inside, bool general,
                           bool want_z, uint32_t zs[8])
{
    uint32_t cover = 0;
    int s, k;

    if (want_z && st) {
        /* the samples outside too: the depth test reads them four at a
         * time (and leaves them out) */
        memset(zs, 0, 8 * sizeof(zs[0]));
    }
    for (s = 0; s < (int)ns && st; s++) {
        double sv[4];
        attila_sample_values(v, st, s, !inside, sv);
        if (!(inside ? attila_inside_depth(sv[3], ds->d3d9_depth) :
              attila_triangle_inside_lo(t, sv, ds->d3d9_depth))) {
            continue;
        }
        cover |= 1u << s;
        if (want_z) {
            zs[s] = attila_convert_z(ds, sv[3]);
        }
    }
    for (s = 0; s < (int)ns && !st; s++) {
        double sx = pat[s][0] / MSAA_SUBPIXEL, sy = pat[s][1] / MSAA_SUBPIXEL;
        double sv[4];
        sv[3] = v[3] + t->zeq[0] * sx + t->zeq[1] * sy;
        if (inside) {
            if (!attila_inside_depth(sv[3], ds->d3d9_depth)) {
                continue;
            }
        } else {
            for (k = 0; k < 3; k++) {
                sv[k] = v[k] + t->e[k][0] * sx + t->e[k][1] * sy;
            }
            if (!(general ? attila_triangle_inside(t, sv, ds->d3d9_depth) :
                  attila_triangle_inside_lo(t, sv, ds->d3d9_depth))) {
                continue;
            }
        }
        cover |= 1u << s;
        if (want_z) {
            zs[s] = attila_convert_z(ds, sv[3]);
        }
    }
    return cover;
}

/*
 * A 4-sample draw's per-triangle sample steps with the samples in lanes
 * (x[k][s] = AttilaSampleSteps.x[s][k]), for msaa_cover4_avx; the bounds
 * of a covered sample's values are attila_row_steps'.
 */
typedef struct SampleLanes {
    double x[4][4], y[4][4];
    AttilaRowSteps bounds;
    /* x[k][s] and y[k][s] in four lanes, for copy4_tile_avx's stamps to add
     * from memory (rows are short: a row's set-up would cost more) */
    double sx[4][4][4], sy[4][4][4];
} SampleLanes;

#ifdef HAVE_AVX_PATH
/*
 * msaa_cover of a 4-sample pixel with the four samples in AVX lanes (not
 * under g3d_general_path): each sample's values are the same two
 * additions (v + a sx, + b sy) of the same products; the edge and near/far
 * tests are the bounds of attila_row_steps (the exact tests: see the row
 * walk); window z is attila_convert_z in lanes (the same product, sum
 * and product, then 0 unless zc > 0, the truncation of min(zc, 2^24 - 1)).
 * Only additions, products and compares, and this target has no FMA, so
 * nothing is contracted.
 */
__attribute__((target("avx")))
static uint32_t msaa_cover4_avx(const AttilaDrawState *ds,
                                const SampleLanes *sl, const double v[4],
                                bool inside, bool want_z, uint32_t zs[8])
{
    const AttilaRowSteps *b = &sl->bounds;
    __m256d z = _mm256_add_pd(_mm256_add_pd(_mm256_broadcast_sd(&v[3]),
                                            _mm256_loadu_pd(sl->x[3])),
                              _mm256_loadu_pd(sl->y[3]));
    __m256d m = _mm256_and_pd(
        _mm256_cmp_pd(z, _mm256_broadcast_sd(&b->lo[3]), _CMP_GT_OQ),
        _mm256_cmp_pd(z, _mm256_broadcast_sd(&b->hi[3]), _CMP_LE_OQ));
    uint32_t cover;
    int k;

    for (k = 0; k < 3 && !inside; k++) {
        __m256d e = _mm256_add_pd(_mm256_add_pd(_mm256_broadcast_sd(&v[k]),
                                                _mm256_loadu_pd(sl->x[k])),
                                  _mm256_loadu_pd(sl->y[k]));
        m = _mm256_and_pd(m, _mm256_cmp_pd(e, _mm256_broadcast_sd(&b->lo[k]),
                                           _CMP_GT_OQ));
    }
    cover = (uint32_t)_mm256_movemask_pd(m);
    if (want_z) {
        const __m256d top = _mm256_set1_pd(16777215.0);
        __m256d zw = _mm256_add_pd(
            _mm256_mul_pd(_mm256_set1_pd(ds->z_scale), z),
            _mm256_set1_pd(ds->z_offset));
        __m256d zc = _mm256_mul_pd(zw, top);
        /* the samples outside and those with !(zc > 0) read 0 */
        __m256d keep = _mm256_and_pd(m, _mm256_cmp_pd(zc, _mm256_setzero_pd(),
                                                      _CMP_GT_OQ));
        __m128i w = _mm256_cvttpd_epi32(_mm256_and_pd(_mm256_min_pd(zc, top),
                                                      keep));
        _mm_storeu_si128((__m128i *)zs, w);
        memset(zs + 4, 0, 4 * sizeof(zs[0]));
    }
    return cover;
}
#endif

uint32_t attila_msaa_cover4(const AttilaDrawState *ds,
                            const AttilaTriangle *t, const double v[4],
                            bool inside, bool lanes, uint32_t zs[8])
{
    AttilaSampleSteps st;
    SampleLanes sl;
    int s, k;

    attila_sample_steps(t, msaa4, 4, &st);
#ifdef HAVE_AVX_PATH
    if (lanes && g3d_use_avx()) {
        for (k = 0; k < 4; k++) {
            for (s = 0; s < 4; s++) {
                sl.x[k][s] = st.x[s][k];
                sl.y[k][s] = st.y[s][k];
            }
        }
        attila_row_steps(t, ds->d3d9_depth, &sl.bounds);
        return msaa_cover4_avx(ds, &sl, v, inside, true, zs);
    }
#endif
    (void)sl;
    (void)s;
    (void)k;
    return msaa_cover(ds, t, &st, msaa4, 4, v, inside, false, true, zs);
}

/*
 * The fragment program on the stamp's four threads; false after a shader
 * error (kept for the draw's report; the stamp is dropped). Always inline:
 * as a call, or merely inline, the MSAA stamp costs 1.5 % more.
 */
static inline __attribute__((always_inline)) bool
shade_stamp(AttilaRenderCtx *ctx)
{
    const AttilaDrawState *ds = ctx->ds;
    int i;

    if (ds->fs_copy) {
        /*
         * The program's one MOV, as run_lanes does it (a 16-byte copy),
         * counted as its one step. The threads were reset at the draw's
         * start; the copy writes nothing else, so they stay as a reset
         * leaves them (attila_raster_draw).
         */
        for (i = 0; i < 4; i++) {
            ctx->lane[i].out[ds->fs_copy_out] = ctx->lane[i].in[ds->fs_copy_in];
        }
        ctx->work++;
    } else {
        uint32_t bad_pc = 0;
        AttilaShaderResult r = attila_shader_run(&ctx->fs_env, ds->fs_pc,
                                                 ctx->lane, 4, &bad_pc);
        if (r != ATTILA_SHADER_OK) {
            if (!ctx->shader_error) {
                ctx->shader_error = r;
                ctx->shader_error_pc = bad_pc;
            }
            return false;
        }
    }
    return true;
}

/*
 * A fragment thread's reset before a stamp's program: whole under
 * g3d_general_path, else only what the draw state says the program can
 * see (attila_raster_batch_begin reset the threads whole)
 */
static inline void reset_lane(const AttilaDrawState *ds,
                              AttilaShaderThread *t)
{
    if (ds->fs_reset_whole) {
        attila_shader_reset_bounded(t, ds->fs_temps, ds->fs_outs);
    } else {
        attila_shader_reset_stamp(t, ds->fs_reset_temps, ds->fs_reset_outs,
                                  ds->fs_reset_tail);
    }
}

/*
 * One 2x2 stamp of one triangle. inside: every pixel and sample of the
 * stamp is inside the three edges by far more than rounding (box_inside),
 * so only the near/far planes are left to test. general: the edge tests as
 * the simulator writes them (attila_inside_edge), else as one comparison
 * each (attila_inside_lo).
 */
static inline __attribute__((always_inline)) void
stamp_ns(AttilaRenderCtx *ctx, const AttilaTriangle *t, const double tile[4],
         AttilaStampMemo *memo, const AttilaSampleSteps *st, int32_t qx,
         int32_t qy, bool inside, bool general, uint32_t fixed_ns,
         const SampleLanes *sl)
{
    const AttilaDrawState *ds = ctx->ds;
    const double (*pat)[2] = fixed_ns ? attila_msaa_pattern(fixed_ns) :
                             ds->msaa ? attila_msaa_pattern(ds->samples) : NULL;
    uint32_t ns = fixed_ns ? fixed_ns : pat ? ds->samples : 1;
    double v[4][4], centroid[4][4];
    const double *lane_v[4];
    uint32_t zs[4][8], lane_z[4];
    uint32_t cover[4];          /* sample coverage bits per fragment */
    uint8_t *zaddr[4] = { 0 };
    bool any = false, early, zany, z4 = false;
    int i, s, k, n;

    /* the stamp's four pixels inside the triangle's box: none to skip */
    bool boxed = qx >= t->x0 && qx + 1 <= t->x1 && qy >= t->y0 &&
                 qy + 1 <= t->y1;
    /* window z is read by the z/stencil test and by input 0 (below) */
    bool want_z = (ds->zptr && (ds->depth_test || ds->stencil_test)) ||
                  (!pat && (ds->fs_inputs & 1));

    eval_stamp(t, tile, qx, qy, memo, v);
    for (i = 0; i < 4; i++) {
        int32_t x = qx + (i & 1), y = qy + (i >> 1);

        cover[i] = 0;
        if (!boxed && (x < t->x0 || x > t->x1 || y < t->y0 || y > t->y1)) {
            continue;
        }
        if (!pat) {
            if (inside ? attila_inside_depth(v[i][3], ds->d3d9_depth) :
                general ? attila_triangle_inside(t, v[i], ds->d3d9_depth) :
                attila_triangle_inside_lo(t, v[i], ds->d3d9_depth)) {
                cover[i] = 1;
                if (want_z) {
                    zs[i][0] = attila_convert_z(ds, v[i][3]);
                }
            }
        } else {
            /* v is at the pixel corner; samples are offsets from it */
#ifdef HAVE_AVX_PATH
            if (fixed_ns == 4 && sl) {
                cover[i] = msaa_cover4_avx(ds, sl, v[i], inside, want_z,
                                           zs[i]);
                any = any || cover[i];
                continue;
            }
#endif
            cover[i] = msaa_cover(ds, t, st, pat, ns, v[i], inside, general,
                                  want_z, zs[i]);
        }
        any = any || cover[i];
    }
    if (!any) {
        return;
    }
    ctx->quads++;

    /* z/stencil words of the covered pixels */
    if (ds->zptr && (ds->depth_test || ds->stencil_test)) {
        /* a stamp's four pixels are consecutive (ATTILA ref. Render Buffer
         * Tiling, level 5) */
        uint8_t *z0 = ds->zptr + (ctx->tables ?
                                  ctx->zx[qx >> 1] + ctx->zy[qy >> 1] :
                                  attila_pixel_address(&ds->zpm, qx, qy));
        for (i = 0; i < 4; i++) {
            if (cover[i]) {
                zaddr[i] = z0 + i * 4 * ds->zpm.samples;
            }
        }
    }
    zany = zaddr[0] || zaddr[1] || zaddr[2] || zaddr[3];
#ifdef __SSE2__
    /* the depth test of a pixel's samples four at a time */
    z4 = st && ds->depth_only && ns % 4 == 0 && ds->zpm.samples == ns;
#endif
    early = ds->early_z && !ds->modify_depth && !ds->fs_kills;
    if (early && zany) {
        bool left = false;
        for (i = 0; i < 4; i++) {
#ifdef __SSE2__
            /* a pixel's samples four at a time (not under
             * g3d_general_path: st set) */
            for (s = 0; s < (int)ns && zaddr[i] && z4; s += 4) {
                unsigned m = (cover[i] >> s) & 15;
                if (m) {
                    m = attila_depth_only_test4(
                        ds, _mm_loadu_si128((const __m128i *)&zs[i][s]),
                        zaddr[i] + 4 * s, m);
                    cover[i] = (cover[i] & ~(15u << s)) | m << s;
                }
            }
#endif
            for (s = 0; s < (int)ns && zaddr[i] && !z4; s++) {
                if ((cover[i] >> s) & 1) {
                    uint32_t w;
                    memcpy(&w, zaddr[i] + 4 * s, 4);
                    if (!attila_zs_test(ds, zs[i][s], &w)) {
                        cover[i] &= ~(1u << s);
                    }
                    memcpy(zaddr[i] + 4 * s, &w, 4);
                }
            }
            left = left || cover[i];
        }
        if (!left) {
            return;
        }
    }

    /* fragment shading: all four, the uncovered ones as helpers */
    for (i = 0; i < 4; i++) {
        double *cv = centroid[i];
        const double *iv = v[i];

        if (ds->fs_reset_any) {
            reset_lane(ds, &ctx->lane[i]);
        }
        if (pat) {
            /*
             * Attributes at the centroid of the covered samples (of all
             * samples for a helper fragment): the torus reference frame
             * matches this and neither the pixel centre nor sample 0.
             */
            uint32_t m = cover[i] ? cover[i] : (1u << ns) - 1;
            double ox, oy;
            if (st && m == (1u << ns) - 1) {
                attila_centroid_values(v[i], st, cv);
            } else {
                if (st) {
                    ox = centroid_table(ns)[m][0];
                    oy = centroid_table(ns)[m][1];
                } else {
                    attila_centroid_offset(pat, ns, m, &ox, &oy);
                }
                for (k = 0; k < 3; k++) {
                    cv[k] = v[i][k] + t->e[k][0] * ox + t->e[k][1] * oy;
                }
                cv[3] = v[i][3] + t->zeq[0] * ox + t->zeq[1] * oy;
            }
            iv = cv;
        }
        lane_v[i] = iv;
        /* input 0's z, when the program reads input 0 (fs_inputs) */
        lane_z[i] = !(ds->fs_inputs & 1) ? 0 :
                    pat ? attila_convert_z(ds, iv[3]) :
                    (cover[i] ? zs[i][0] : attila_convert_z(ds, iv[3]));
    }
    attila_interpolate(ds, t, lane_v, lane_z, qx, qy, ctx->lane);
    if (!shade_stamp(ctx)) {
        return;
    }
    for (i = 0; i < 4; i++) {
        if (ctx->lane[i].kill) {
            cover[i] = 0;
        }
    }

    if (!early && zany) {
        for (i = 0; i < 4; i++) {
            uint32_t zin = 0;
            if (!zaddr[i] || !cover[i]) {
                continue;
            }
            if (ds->modify_depth) {
                /* depth from o0.w, clamped (GPUEmulator::emulateZStencilTest) */
                float d = ctx->lane[i].out[0].f[3];
                d = (0.0f <= d && d <= 1.0f) ? d : (d < 0.0f ? 0.0f : 1.0f);
                zin = attila_convert_z(ds, (double)d);
            }
#ifdef __SSE2__
            for (s = 0; s < (int)ns && z4; s += 4) {
                unsigned m = (cover[i] >> s) & 15;
                if (m) {
                    m = attila_depth_only_test4(
                        ds, ds->modify_depth ? _mm_set1_epi32((int)zin) :
                        _mm_loadu_si128((const __m128i *)&zs[i][s]),
                        zaddr[i] + 4 * s, m);
                    cover[i] = (cover[i] & ~(15u << s)) | m << s;
                }
            }
#endif
            for (s = 0; s < (int)ns && !z4; s++) {
                if ((cover[i] >> s) & 1) {
                    uint32_t w;
                    memcpy(&w, zaddr[i] + 4 * s, 4);
                    if (!attila_zs_test(ds, ds->modify_depth ? zin :
                                              zs[i][s], &w)) {
                        cover[i] &= ~(1u << s);
                    }
                    memcpy(zaddr[i] + 4 * s, &w, 4);
                }
            }
        }
    }

    /* color write, every mapped render target from output 1 + rt */
    for (n = 0; n < ctx->rt_count; n++) {
        const AttilaRenderTarget *rt;
        uint8_t *p0;

        k = ctx->rt_list[n];
        rt = &ds->rt[k];
        p0 = rt->ptr + (ctx->tables ? ctx->rtx[n][qx >> 1] + ctx->rty[n][qy >> 1] :
                        attila_pixel_address(&rt->pm, qx, qy));
        if (rt->path != ATTILA_CW_GENERAL && rt->pm.samples == ns) {
            /* the stamp's 4 x ns slots are consecutive: four at a time,
             * in address order */
            const float *col[4];
            if (ns <= 2) {
                /* four pixels, or two pixels' two samples */
                for (i = 0; i < 4; i += 4 / ns) {
                    uint32_t bits = ns == 1 ?
                        cover[0] | cover[1] << 1 | cover[2] << 2 | cover[3] << 3 :
                        cover[i] | cover[i + 1] << 2;
                    for (s = 0; s < 4; s++) {
                        col[s] = ctx->lane[i + s / ns].out[1 + k].f;
                    }
                    if (bits) {
                        color_write4(rt, p0 + 4 * ns * i, col, bits);
                    }
                }
                continue;
            }
            for (i = 0; i < 4; i++) {
                /* a pixel's samples, four at a time */
#ifdef __SSE2__
                /* its colour's channels broadcast, once for its samples */
                __m128 ch[4];
                for (s = 0; s < 4; s++) {
                    ch[s] = _mm_set1_ps(ctx->lane[i].out[1 + k].f[s]);
                }
                for (s = 0; s < (int)ns && cover[i]; s += 4) {
                    if ((cover[i] >> s) & 15) {
                        attila_color_write4_soa(rt, p0 + 4 * (i * ns + s), ch,
                                                (cover[i] >> s) & 15);
                    }
                }
#else
                col[0] = col[1] = col[2] = col[3] = ctx->lane[i].out[1 + k].f;
                for (s = 0; s < (int)ns && cover[i]; s += 4) {
                    if ((cover[i] >> s) & 15) {
                        attila_color_write4(rt, p0 + 4 * (i * ns + s), col,
                                            (cover[i] >> s) & 15);
                    }
                }
#endif
            }
            continue;
        }
        for (i = 0; i < 4; i++) {
            uint8_t *px;
            if (!cover[i]) {
                continue;
            }
            px = p0 + i * rt->pm.samples * rt->bytes;
            for (s = 0; s < (int)ns; s++) {
                if ((cover[i] >> s) & 1) {
                    attila_color_write(ds, rt, px + s * rt->bytes,
                                       ctx->lane[i].out[1 + k].f, k);
                }
            }
        }
    }
    for (i = 0; i < 4; i++) {
        ctx->fragments += cover[i] != 0;
    }
}

static void stamp(AttilaRenderCtx *ctx, const AttilaTriangle *t,
                  const double tile[4], AttilaStampMemo *memo,
                  const AttilaSampleSteps *st, int32_t qx, int32_t qy,
                  bool inside, bool general)
{
    stamp_ns(ctx, t, tile, memo, st, qx, qy, inside, general, 0, NULL);
}

/*
 * stamp() of a 4-sample draw (not under g3d_general_path): the samples'
 * loops of a known length, unrolled by the compiler; sl: the pixels'
 * samples in AVX lanes (msaa_cover4_avx), NULL: one by one.
 */
static void stamp4(AttilaRenderCtx *ctx, const AttilaTriangle *t,
                   const double tile[4], AttilaStampMemo *memo,
                   const AttilaSampleSteps *st, int32_t qx, int32_t qy,
                   bool inside, const SampleLanes *sl)
{
    stamp_ns(ctx, t, tile, memo, st, qx, qy, inside, false, 4, sl);
}

/*
 * The coverage of a one-sample stamp as a 4-bit mask (bit i: pixel i) from
 * its four pixels' edge and z values v; inside: stamp1's box test found the
 * stamp far inside the three edges, only near/far are tested.
 */
static inline unsigned stamp1_cover(const AttilaDrawState *ds,
                                    const AttilaTriangle *t,
                                    const double v[4][4], int32_t qx,
                                    int32_t qy, bool inside)
{
    bool d3d9 = ds->d3d9_depth;
    unsigned cov = 0, i;

    for (i = 0; i < 4; i++) {
        bool in = inside ? attila_inside_depth(v[i][3], d3d9) :
                  attila_triangle_inside_lo(t, v[i], d3d9);
        cov |= (unsigned)in << i;
    }
    if (!(qx >= t->x0 && qx + 1 <= t->x1 && qy >= t->y0 && qy + 1 <= t->y1)) {
        /* the pixels outside the triangle's box (columns 0/1, rows 0/1) */
        if (qx < t->x0 || qx > t->x1) {
            cov &= ~5u;
        }
        if (qx + 1 < t->x0 || qx + 1 > t->x1) {
            cov &= ~10u;
        }
        if (qy < t->y0 || qy > t->y1) {
            cov &= ~3u;
        }
        if (qy + 1 < t->y0 || qy + 1 > t->y1) {
            cov &= ~12u;
        }
    }
    return cov;
}

/*
 * One stamp of a one-sample draw whose mapped targets all have a chosen
 * write path (AttilaRaster.one_sample, not under g3d_general_path): the
 * steps of stamp() for one sample, with the coverage cov (non-zero) as a
 * 4-bit mask and no per-sample loops. The same tests, float operations and
 * z/stencil and colour accesses in the same order; v are the four pixels'
 * edge values. Inlined into stamp1_tile_avx (a call a stamp cost more than
 * the walk's own steps), called as stamp1 by the other walks.
 */
static inline __attribute__((always_inline)) void
stamp1_steps(AttilaRenderCtx *ctx, const AttilaTriangle *t,
             const double v[4][4], int32_t qx, int32_t qy, unsigned cov)
{
    const AttilaDrawState *ds = ctx->ds;
    bool early;
    const double *lane_v[4] = { v[0], v[1], v[2], v[3] };
    uint32_t zs[4] = { 0 }, lane_z[4] = { 0 };
    uint8_t *z0 = NULL;
    unsigned i, n;
    bool cov_write_done = false, scalar_early;
#ifdef __SSE2__
    __m128 ch[4];
#endif

    ctx->quads++;

    early = scalar_early = ctx->early;
    if (ctx->ztest) {
        /* a stamp's four pixels are consecutive (ATTILA ref. Render
         * Buffer Tiling, level 5) */
        z0 = ds->zptr + ctx->zx[qx >> 1] + ctx->zy[qy >> 1];
        /* the four pixels' z (an uncovered pixel's is not used) */
        attila_convert_z4(ds, v, zs);
#ifdef __SSE2__
        if (early && ds->depth_only) {
            /* the four consecutive z words by one test */
            cov = attila_depth_only_test4(ds, _mm_loadu_si128((__m128i *)zs),
                                          z0, cov);
            scalar_early = false;
        }
#endif
        for (i = 0; i < 4 && scalar_early; i++) {
            if ((cov >> i) & 1) {
                uint32_t w;
                memcpy(&w, z0 + 4 * i, 4);
                if (!attila_zs_test(ds, zs[i], &w)) {
                    cov &= ~(1u << i);
                }
                memcpy(z0 + 4 * i, &w, 4);
            }
        }
        if (!cov) {
            return;
        }
    }

#ifdef __SSE2__
    if (ctx->copy_soa) {
        /* the copied input by channel, the program's one step counted
         * (shade_stamp); the threads are left as the draw's reset left
         * them, so o0 (the depth when modify_depth) is as before */
        ctx->interpolate_soa(t, v, ds->fs_copy_in, ch);
        ctx->work++;
    } else
#endif
    {
        for (i = 0; i < 4 && ds->fs_reset_any; i++) {
            reset_lane(ds, &ctx->lane[i]);
        }
        /* input 0's z (converted above when the draw tests z) */
        if (ds->fs_inputs & 1) {
            if (ctx->ztest) {
                memcpy(lane_z, zs, sizeof(zs));
            } else {
                attila_convert_z4(ds, v, lane_z);
            }
        }
        attila_interpolate(ds, t, lane_v, lane_z, qx, qy, ctx->lane);
        if (!shade_stamp(ctx)) {
            return;
        }
        for (i = 0; i < 4; i++) {
            if (ctx->lane[i].kill) {
                cov &= ~(1u << i);
            }
        }
    }

    if (!early && z0) {
        for (i = 0; i < 4; i++) {
            uint32_t zin = zs[i], w;
            if (!((cov >> i) & 1)) {
                continue;
            }
            if (ds->modify_depth) {
                /* depth from o0.w, clamped (GPUEmulator::emulateZStencilTest) */
                float d = ctx->lane[i].out[0].f[3];
                d = (0.0f <= d && d <= 1.0f) ? d : (d < 0.0f ? 0.0f : 1.0f);
                zin = attila_convert_z(ds, (double)d);
            }
            memcpy(&w, z0 + 4 * i, 4);
            if (!attila_zs_test(ds, zin, &w)) {
                cov &= ~(1u << i);
            }
            memcpy(z0 + 4 * i, &w, 4);
        }
    }

    /* color write, every mapped render target from output 1 + rt: the
     * stamp's four pixels are four consecutive slots */
#ifdef __SSE2__
    if (ctx->copy_soa && cov) {
        attila_color_write4_soa(&ds->rt[ctx->rt_list[0]], ds->rt[ctx->rt_list[0]].ptr +
                                ctx->rtx[0][qx >> 1] + ctx->rty[0][qy >> 1],
                                ch, cov);
        cov_write_done = true;
    }
#endif
    for (n = 0; n < ctx->rt_count && cov && !cov_write_done; n++) {
        int k = ctx->rt_list[n];
        const AttilaRenderTarget *rt = &ds->rt[k];
        const float *col[4] = {
            ctx->lane[0].out[1 + k].f, ctx->lane[1].out[1 + k].f,
            ctx->lane[2].out[1 + k].f, ctx->lane[3].out[1 + k].f,
        };
        color_write4(rt, rt->ptr + ctx->rtx[n][qx >> 1] +
                     ctx->rty[n][qy >> 1], col, cov);
    }
    ctx->fragments += (0x4332322132212110ull >> (4 * cov)) & 15;
}

static __attribute__((noinline)) void
stamp1(AttilaRenderCtx *ctx, const AttilaTriangle *t, const double v[4][4],
       int32_t qx, int32_t qy, unsigned cov)
{
    stamp1_steps(ctx, t, v, qx, qy, cov);
}

#ifdef __SSE2__
/*
 * stamp1 of a row's covered stamps (raster_job's row walk) where the
 * program is the copy taken by channel (copy_soa) and no z/stencil test
 * reads the buffer: the same steps (the input interpolated by channel,
 * the program's one step counted, the write by channel), without
 * stamp1's decisions per stamp.
 */
static void copy_stamps(AttilaRenderCtx *ctx, const AttilaTriangle *t,
                        const AttilaRowStamp *row, unsigned m, int32_t qy)
{
    const AttilaDrawState *ds = ctx->ds;
    const AttilaRenderTarget *rt = &ds->rt[ctx->rt_list[0]];
    const uint32_t *rtx = ctx->rtx[0];
    uint8_t *line = rt->ptr + ctx->rty[0][qy >> 1];
    unsigned k, in = ds->fs_copy_in;

    for (k = 0; k < m; k++) {
        __m128 ch[4];

        ctx->interpolate_soa(t, row[k].v, in, ch);
        attila_color_write4_soa(rt, line + rtx[row[k].qx >> 1], ch,
                                row[k].cov);
        ctx->fragments += (0x4332322132212110ull >> (4 * row[k].cov)) & 15;
    }
    ctx->quads += m;
    ctx->work += m;
}
#endif

/*
 * Boxes of a tile far outside one of the triangle's edges, or far inside
 * all three. The edge values are linear in the pixel offset (dx, dy) from
 * the tile origin, where they are tv; the exact ones
 * (eval_stamp's additions, a sample's offset) differ
 * from that line by a few ulps of its terms, and the slack is a millionth
 * of the largest terms in the tile. So a box found outside holds no pixel
 * or sample that attila_triangle_inside would accept, and skipping it
 * changes nothing; in a box found inside, every pixel's and sample's edge
 * values are above the slack (1e-9 or more), far from the ATTILA_MIN_BIAS
 * tie band, and attila_inside_edge accepts them all. A NaN or an infinity
 * is neither: such a box takes the exact path.
 */
typedef struct TileEdges {
    /* edges 0-2 (a fourth lane for tile_edges_avx's stores) */
    double a[4], b[4];
    double lim[4];          /* a box is outside edge k if a dx + b dy < lim */
    double hi[4];           /* inside edge k if a dx + b dy > hi */
} TileEdges;

/*
 * for boxes [dx, dx + w] x [dy, dy + w] with offsets up to `span`; true
 * when the box [0, wt] x [0, wt] is outside an edge (box_outside at (0, 0)
 * of these bounds with w = wt: the slack depends on span alone, so the
 * whole tile's test shares it)
 */
static bool tile_edges_scalar(const AttilaTriangle *t, const double tv[4],
                              double w, double wt, double span, TileEdges *te)
{
    bool outside = false;
    int k;

    for (k = 0; k < 3; k++) {
        double a = t->e[k][0], b = t->e[k][1];
        double slack = 1e-6 * (fabs(tv[k]) + (fabs(a) + fabs(b)) * span) +
                       1e-9;
        double limt = -slack - tv[k] - (a > 0.0 ? a * wt : 0.0) -
                      (b > 0.0 ? b * wt : 0.0);

        outside |= a * 0.0 + b * 0.0 < limt;
        te->a[k] = a;
        te->b[k] = b;
        /* the box's largest value is at dx (+ w where a > 0), likewise dy */
        te->lim[k] = -slack - tv[k] - (a > 0.0 ? a * w : 0.0) -
                     (b > 0.0 ? b * w : 0.0);
        /* its smallest at dx (+ w where a < 0), likewise dy */
        te->hi[k] = slack - tv[k] - (a < 0.0 ? a * w : 0.0) -
                    (b < 0.0 ? b * w : 0.0);
        if (!(isfinite(te->hi[k]) && isfinite(slack))) {
            te->hi[k] = INFINITY;
        }
    }
    /* lane 3 edge 2 again, as tile_edges_avx leaves it (row_run_avx) */
    te->a[3] = te->a[2];
    te->b[3] = te->b[2];
    te->lim[3] = te->lim[2];
    te->hi[3] = te->hi[2];
    return outside;
}

#ifdef HAVE_AVX_PATH
/*
 * tile_edges_scalar's operations for the three edges in one AVX operation
 * (lane k edge k; lane 3 takes edge 2 again, its results unused), lane by
 * lane the same: fabs as the sign cleared, -slack as the sign flipped,
 * (a > 0.0 ? a w : 0.0) as a w ANDed with the compare's mask (+0.0 where
 * it fails, NaN included), isfinite as |x| <= DBL_MAX (false for a NaN);
 * no FMA in this target
 */
__attribute__((target("avx")))
static bool tile_edges_avx(const AttilaTriangle *t, const double tv[4],
                           double w, double wt, double span, TileEdges *te)
{
    const __m256d sign = _mm256_set1_pd(-0.0), zero = _mm256_setzero_pd();
    const __m256d vw = _mm256_set1_pd(w), vwt = _mm256_set1_pd(wt);
    const __m256d big = _mm256_set1_pd(DBL_MAX);
    const __m256d a = _mm256_setr_pd(t->e[0][0], t->e[1][0], t->e[2][0],
                                     t->e[2][0]);
    const __m256d b = _mm256_setr_pd(t->e[0][1], t->e[1][1], t->e[2][1],
                                     t->e[2][1]);
    const __m256d v = _mm256_setr_pd(tv[0], tv[1], tv[2], tv[2]);
    const __m256d slack = _mm256_add_pd(
        _mm256_mul_pd(_mm256_set1_pd(1e-6),
                      _mm256_add_pd(_mm256_andnot_pd(sign, v),
                                    _mm256_mul_pd(
                                        _mm256_add_pd(_mm256_andnot_pd(sign, a),
                                                      _mm256_andnot_pd(sign, b)),
                                        _mm256_set1_pd(span)))),
        _mm256_set1_pd(1e-9));
    const __m256d apos = _mm256_cmp_pd(a, zero, _CMP_GT_OQ);
    const __m256d bpos = _mm256_cmp_pd(b, zero, _CMP_GT_OQ);
    const __m256d aneg = _mm256_cmp_pd(a, zero, _CMP_LT_OQ);
    const __m256d bneg = _mm256_cmp_pd(b, zero, _CMP_LT_OQ);
    /* -slack - tv[k] */
    const __m256d base = _mm256_sub_pd(_mm256_xor_pd(slack, sign), v);
    const __m256d limt = _mm256_sub_pd(
        _mm256_sub_pd(base, _mm256_and_pd(apos, _mm256_mul_pd(a, vwt))),
        _mm256_and_pd(bpos, _mm256_mul_pd(b, vwt)));
    const __m256d hi = _mm256_sub_pd(
        _mm256_sub_pd(_mm256_sub_pd(slack, v),
                      _mm256_and_pd(aneg, _mm256_mul_pd(a, vw))),
        _mm256_and_pd(bneg, _mm256_mul_pd(b, vw)));
    const __m256d fin = _mm256_and_pd(
        _mm256_cmp_pd(_mm256_andnot_pd(sign, hi), big, _CMP_LE_OQ),
        _mm256_cmp_pd(_mm256_andnot_pd(sign, slack), big, _CMP_LE_OQ));

    _mm256_storeu_pd(te->a, a);
    _mm256_storeu_pd(te->b, b);
    _mm256_storeu_pd(te->lim, _mm256_sub_pd(
        _mm256_sub_pd(base, _mm256_and_pd(apos, _mm256_mul_pd(a, vw))),
        _mm256_and_pd(bpos, _mm256_mul_pd(b, vw))));
    _mm256_storeu_pd(te->hi, _mm256_blendv_pd(_mm256_set1_pd(INFINITY), hi,
                                              fin));
    return (_mm256_movemask_pd(_mm256_cmp_pd(
        _mm256_add_pd(_mm256_mul_pd(a, zero), _mm256_mul_pd(b, zero)), limt,
        _CMP_LT_OQ)) & 7) != 0;
}
#endif

/* tile_edges_scalar, or by AVX lanes where `avx` (not under
 * g3d_general_path: raster_tiles' skip_boxes) */
static inline bool tile_edges(const AttilaTriangle *t, const double tv[4], double w,
                       double wt, double span, bool avx, TileEdges *te)
{
#ifdef HAVE_AVX_PATH
    if (avx) {
        return tile_edges_avx(t, tv, w, wt, span, te);
    }
#endif
    return tile_edges_scalar(t, tv, w, wt, span, te);
}

bool attila_tile_edges(const AttilaTriangle *t, const double tv[4], double w,
                       double wt, double span, double out[12])
{
    TileEdges te;
    bool outside = tile_edges(t, tv, w, wt, span,
                              !g3d_general_path && g3d_use_avx(), &te);

    memcpy(out, te.a, 3 * sizeof(double));
    memcpy(out + 3, te.b, 3 * sizeof(double));
    memcpy(out + 6, te.lim, 3 * sizeof(double));
    memcpy(out + 9, te.hi, 3 * sizeof(double));
    return outside;
}

static inline bool box_outside(const TileEdges *te, double dx, double dy)
{
    return te->a[0] * dx + te->b[0] * dy < te->lim[0] ||
           te->a[1] * dx + te->b[1] * dy < te->lim[1] ||
           te->a[2] * dx + te->b[2] * dy < te->lim[2];
}

static inline bool box_inside(const TileEdges *te, double dx, double dy)
{
    return te->a[0] * dx + te->b[0] * dy > te->hi[0] &&
           te->a[1] * dx + te->b[1] * dy > te->hi[1] &&
           te->a[2] * dx + te->b[2] * dy > te->hi[2];
}

/*
 * The stamps of row qy of the tile at (ox, oy), columns x0..x1, between
 * the first and the last the box test admits (they are a run: each edge's
 * a dx + b dy is monotonic in dx); none when *lo > *hi
 */
static inline void row_run(const TileEdges *te, int32_t ox, int32_t oy,
                           int32_t qy, int32_t x0, int32_t x1, int32_t *lo,
                           int32_t *hi)
{
    double dy = qy - oy;

    *lo = x0;
    *hi = x1 & ~1;
    while (*lo <= *hi && box_outside(te, *lo - ox, dy)) {
        *lo += 2;
    }
    while (*hi > *lo && box_outside(te, *hi - ox, dy)) {
        *hi -= 2;
    }
}

#ifdef HAVE_AVX_PATH
/* row_run_avx's signs of the edges' a, once a tile: bit k a > 0, bit 4 + k
 * a < 0 (a NaN neither) */
__attribute__((target("avx"), always_inline))
static inline unsigned edge_signs_avx(const TileEdges *te)
{
    const __m256d a = _mm256_loadu_pd(te->a), zero = _mm256_setzero_pd();

    return (unsigned)_mm256_movemask_pd(_mm256_cmp_pd(a, zero, _CMP_GT_OQ)) |
           (unsigned)_mm256_movemask_pd(_mm256_cmp_pd(a, zero,
                                                      _CMP_LT_OQ)) << 4;
}

/*
 * row_run with box_outside's three edges in one AVX operation (lane k edge
 * k, lane 3 edge 2 again): the same products and sum a dx + b dy lane by
 * lane, the same compare (a NaN fails it in both); b dy once a row. For
 * the copy walks, whose rows are short (torus 1.9 stamps a row, 93k rows
 * a replay), so that the scans' tests were a tenth of the walk. An edge
 * with a < 0 that the first stamp is outside of has every later stamp
 * outside too, and one with a > 0 that the last stamp is outside of every
 * earlier one: a dx (dx >= 0) and the sum with b dy are rounded monotonic
 * in dx, and a value below lim is not a NaN, so neither are the later
 * ones (an infinite a dx takes b dy's infinity of the other sign only
 * where the first value is a NaN or +inf, outside of nothing). Such a
 * row is empty without its scan (a third of torus's rows: a thin
 * triangle's rows in the scan tiles beside its run).
 */
__attribute__((target("avx"), always_inline))
static inline void row_run_avx(const TileEdges *te, unsigned signs,
                               int32_t ox, int32_t oy,
                               int32_t qy, int32_t x0, int32_t x1,
                               int32_t *lo, int32_t *hi)
{
    const __m256d a = _mm256_loadu_pd(te->a), lim = _mm256_loadu_pd(te->lim);
    const __m256d by = _mm256_mul_pd(_mm256_loadu_pd(te->b),
                                     _mm256_set1_pd((double)(qy - oy)));
    int32_t l = x0, h = x1 & ~1;

#define ROW_OUTSIDE(x) ((unsigned)_mm256_movemask_pd(_mm256_cmp_pd(          \
        _mm256_add_pd(_mm256_mul_pd(a, _mm256_set1_pd((double)((x) - ox))), \
                      by), lim, _CMP_LT_OQ)))
    if (l <= h) {
        unsigned out = ROW_OUTSIDE(l), outh;

        if (out) {
            if (out & signs >> 4) {
                goto empty;     /* every stamp outside that edge */
            }
            outh = ROW_OUTSIDE(h);
            if (outh & signs & 15) {
                goto empty;
            }
            do {
                l += 2;
            } while (l <= h && ROW_OUTSIDE(l));
            /* the scan from h below, its first test made */
            if (!(h > l && outh)) {
                *lo = l;
                *hi = h;
                return;
            }
            h -= 2;
        }
    }
    while (h > l && ROW_OUTSIDE(h)) {
        h -= 2;
    }
#undef ROW_OUTSIDE
    *lo = l;
    *hi = h;
    return;
empty:
    *lo = h + 2;
    *hi = h;
}
#endif

/*
 * The one-sample path's walk of a row of stamps (not under
 * g3d_general_path). A stamp's edge and z values are the memo's sums
 * (attila_triangle_eval_stamp_memo): the scan tile's value, then for the
 * levels 4, 3, 2 (8x8, 4x4, stamp) a 2^(l-1) where dx has the bit and
 * b 2^(l-1) where dy has it, the same products added in the same order;
 * along a row the 8x8 and 4x4 nodes are redone only when dx leaves them.
 * A pixel is covered when all four of its values (e0 e1 e2 z) lie in
 * (lo, hi]: the edges' attila_triangle_inside_lo limits, and the near/far
 * test of attila_inside_depth as bounds on z (|z| <= c is
 * -c <= z <= c, i.e. z above the double below -c). A NaN fails every
 * bound, as it fails the scalar tests. That is the exact test, so the
 * stamps stamp1_cover would take by the box test as inside get the same
 * coverage. The stamps of the row between the first and the last the box
 * test admits are visited (raster_job); one with no pixel covered is
 * skipped as stamp1 would skip it.
 */
void attila_row_steps(const AttilaTriangle *t, bool d3d9_depth,
                      AttilaRowSteps *rs)
{
    int l, k;

    for (k = 0; k < 4; k++) {
        for (l = 0; l < 3; l++) {
            double s = (double)(8u >> l);
            rs->a[l][k] = t->ea[k] * s;
            rs->b[l][k] = t->eb[k] * s;
        }
        rs->a[3][k] = t->ea[k];
        rs->b[3][k] = t->eb[k];
        rs->lo[k] = k < 3 ? t->inside_lo[k] : d3d9_depth ? -ATTILA_MIN_BIAS :
                    nextafter(-(1.0 + ATTILA_MIN_BIAS), -INFINITY);
        rs->hi[k] = k < 3 ? INFINITY : 1.0 + ATTILA_MIN_BIAS;
    }
}

/* the pixels of stamp (qx, qy) inside the box's columns x0..x1 (rows:
 * its rows' bits), as cov bits */
static inline unsigned box_cols_bits(int32_t x0, int32_t x1, int32_t qx,
                                     unsigned rows)
{
    unsigned cols = (qx >= x0 && qx <= x1 ? 5u : 0u) |
                    (qx + 1 >= x0 && qx + 1 <= x1 ? 10u : 0u);
    return cols & rows;
}

/* the pixels of stamp (qx, qy) inside the triangle's box, as cov bits */
static inline unsigned box_bits(const AttilaTriangle *t, int32_t qx,
                                unsigned rows)
{
    return box_cols_bits(t->x0, t->x1, qx, rows);
}

static inline unsigned row_bits(const AttilaTriangle *t, int32_t qy)
{
    return (qy >= t->y0 && qy <= t->y1 ? 3u : 0u) |
           (qy + 1 >= t->y0 && qy + 1 <= t->y1 ? 12u : 0u);
}

#ifdef __SSE2__
/* the row walk with a pixel's values two an SSE2 operation (e0 e1, e2 z) */
static unsigned stamp_row_sse2(const AttilaTriangle *t,
                                const double tv[4], const AttilaRowSteps *rs,
                                int32_t qy, int32_t qx0, int32_t qx1,
                                AttilaRowStamp *out)
{
    unsigned n = 0;
    uint32_t dy = (uint32_t)(qy - t->start_y), key4 = ~0u, key3 = ~0u;
    const __m128d lo01 = _mm_loadu_pd(rs->lo), lo2z = _mm_loadu_pd(rs->lo + 2);
    const __m128d hi2z = _mm_loadu_pd(rs->hi + 2);
    const __m128d a01 = _mm_loadu_pd(rs->a[3]), a2z = _mm_loadu_pd(rs->a[3] + 2);
    const __m128d b01 = _mm_loadu_pd(rs->b[3]), b2z = _mm_loadu_pd(rs->b[3] + 2);
    __m128d n4[2] = { _mm_setzero_pd(), _mm_setzero_pd() };
    __m128d n3[2] = { _mm_setzero_pd(), _mm_setzero_pd() };
    unsigned rows = row_bits(t, qy);
    int32_t qx;

    for (qx = qx0; qx <= qx1; qx += 2) {
        uint32_t dx = (uint32_t)(qx - t->start_x);
        __m128d p[4][2];
        unsigned cov = 0, i;

        if ((dx >> 3 & 1) != key4) {
            key4 = dx >> 3 & 1;
            n4[0] = _mm_loadu_pd(tv);
            n4[1] = _mm_loadu_pd(tv + 2);
            if (dx & 8) {
                n4[0] = _mm_add_pd(n4[0], _mm_loadu_pd(rs->a[0]));
                n4[1] = _mm_add_pd(n4[1], _mm_loadu_pd(rs->a[0] + 2));
            }
            if (dy & 8) {
                n4[0] = _mm_add_pd(n4[0], _mm_loadu_pd(rs->b[0]));
                n4[1] = _mm_add_pd(n4[1], _mm_loadu_pd(rs->b[0] + 2));
            }
        }
        if ((dx >> 2 & 3) != key3) {
            key3 = dx >> 2 & 3;
            n3[0] = n4[0];
            n3[1] = n4[1];
            if (dx & 4) {
                n3[0] = _mm_add_pd(n3[0], _mm_loadu_pd(rs->a[1]));
                n3[1] = _mm_add_pd(n3[1], _mm_loadu_pd(rs->a[1] + 2));
            }
            if (dy & 4) {
                n3[0] = _mm_add_pd(n3[0], _mm_loadu_pd(rs->b[1]));
                n3[1] = _mm_add_pd(n3[1], _mm_loadu_pd(rs->b[1] + 2));
            }
        }
        p[0][0] = n3[0];
        p[0][1] = n3[1];
        if (dx & 2) {
            p[0][0] = _mm_add_pd(p[0][0], _mm_loadu_pd(rs->a[2]));
            p[0][1] = _mm_add_pd(p[0][1], _mm_loadu_pd(rs->a[2] + 2));
        }
        if (dy & 2) {
            p[0][0] = _mm_add_pd(p[0][0], _mm_loadu_pd(rs->b[2]));
            p[0][1] = _mm_add_pd(p[0][1], _mm_loadu_pd(rs->b[2] + 2));
        }
        /* v1 = v0 + a, v2 = v0 + b, v3 = v1 + b */
        p[1][0] = _mm_add_pd(p[0][0], a01);
        p[1][1] = _mm_add_pd(p[0][1], a2z);
        p[2][0] = _mm_add_pd(p[0][0], b01);
        p[2][1] = _mm_add_pd(p[0][1], b2z);
        p[3][0] = _mm_add_pd(p[1][0], b01);
        p[3][1] = _mm_add_pd(p[1][1], b2z);
        for (i = 0; i < 4; i++) {
            /* lane 0: e0 and e2, lane 1: e1 and z */
            __m128d m = _mm_and_pd(_mm_and_pd(_mm_cmpgt_pd(p[i][0], lo01),
                                              _mm_cmpgt_pd(p[i][1], lo2z)),
                                   _mm_cmple_pd(p[i][1], hi2z));
            cov |= (unsigned)(_mm_movemask_pd(m) == 3) << i;
        }
        cov &= rows;
        if ((uint32_t)(qx - t->x0) >= (uint32_t)(t->x1 - t->x0)) {
            /* a column outside the triangle's box */
            cov &= box_bits(t, qx, rows);
        }
        if (cov) {
            for (i = 0; i < 4; i++) {
                _mm_storeu_pd(out[n].v[i], p[i][0]);
                _mm_storeu_pd(out[n].v[i] + 2, p[i][1]);
            }
            out[n].qx = qx;
            out[n++].cov = cov;
        }
    }
    return n;
}
#endif

#ifdef HAVE_AVX_PATH
/*
 * A row walk's nodes (the 8x8 and 4x4 levels' sums, redone only when dx
 * leaves them) and its stamps' values: p[i] pixel i's e0 e1 e2 z, e[k]
 * value k of the four pixels (lane i pixel i), the memo's sums (see
 * attila_row_steps); only additions, so nothing GCC could contract.
 */
/* a scan tile's origin and the columns and rows its walk takes */
typedef struct TileRows {
    int32_t tile_x, tile_y, x0, x1, y0, y1;
} TileRows;

typedef struct RowNodes {
    __m256d n4, n3;
    uint32_t key4, key3;
} RowNodes;

__attribute__((target("avx"), always_inline))
static inline void row_stamp_avx(const double tv[4], const AttilaRowSteps *rs,
                                 uint32_t dx, uint32_t dy, RowNodes *nd,
                                 __m256d p[4], __m256d e[4])
{
    const __m256d a = _mm256_loadu_pd(rs->a[3]), b = _mm256_loadu_pd(rs->b[3]);

    if ((dx >> 3 & 1) != nd->key4) {
        nd->key4 = dx >> 3 & 1;
        nd->n4 = _mm256_loadu_pd(tv);
        if (dx & 8) {
            nd->n4 = _mm256_add_pd(nd->n4, _mm256_loadu_pd(rs->a[0]));
        }
        if (dy & 8) {
            nd->n4 = _mm256_add_pd(nd->n4, _mm256_loadu_pd(rs->b[0]));
        }
    }
    if ((dx >> 2 & 3) != nd->key3) {
        nd->key3 = dx >> 2 & 3;
        nd->n3 = nd->n4;
        if (dx & 4) {
            nd->n3 = _mm256_add_pd(nd->n3, _mm256_loadu_pd(rs->a[1]));
        }
        if (dy & 4) {
            nd->n3 = _mm256_add_pd(nd->n3, _mm256_loadu_pd(rs->b[1]));
        }
    }
    p[0] = nd->n3;
    if (dx & 2) {
        p[0] = _mm256_add_pd(p[0], _mm256_loadu_pd(rs->a[2]));
    }
    if (dy & 2) {
        p[0] = _mm256_add_pd(p[0], _mm256_loadu_pd(rs->b[2]));
    }
    /* v1 = v0 + a, v2 = v0 + b, v3 = v1 + b */
    p[1] = _mm256_add_pd(p[0], a);
    p[2] = _mm256_add_pd(p[0], b);
    p[3] = _mm256_add_pd(p[1], b);
    /* the four pixels' e0, e1, e2 and z each in one vector */
    __m256d t0 = _mm256_unpacklo_pd(p[0], p[1]);
    __m256d t1 = _mm256_unpackhi_pd(p[0], p[1]);
    __m256d t2 = _mm256_unpacklo_pd(p[2], p[3]);
    __m256d t3 = _mm256_unpackhi_pd(p[2], p[3]);
    e[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
    e[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
    e[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    e[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
}

/*
 * Stamp qx of a row (dy from the triangle's start, rows its row_bits,
 * nd the row's nodes): p[i] pixel i's values and e[k] value k of the four
 * pixels (row_stamp_avx), and the pixels' coverage, bit i pixel i: all
 * four values in (lo, hi] (see attila_row_steps), the row's and the
 * triangle's box bits. Only additions and compares, so nothing GCC could
 * contract.
 */
/* the triangle's start column and box columns, in locals of the walks:
 * the colour stores go through byte pointers, which could alias *t, so
 * GCC would load them again after each store */
typedef struct StampCols {
    int32_t sx, x0, x1;
} StampCols;

/* the coverage's bounds (attila_row_steps' lo and hi) broadcast, once a
 * row for stamp_row_avx, whose stores could alias *rs */
typedef struct RowBounds {
    __m256d lo0, lo1, lo2, lo3, hi3;
} RowBounds;

__attribute__((target("avx"), always_inline))
static inline void row_bounds_avx(const AttilaRowSteps *rs, RowBounds *rb)
{
    rb->lo0 = _mm256_broadcast_sd(&rs->lo[0]);
    rb->lo1 = _mm256_broadcast_sd(&rs->lo[1]);
    rb->lo2 = _mm256_broadcast_sd(&rs->lo[2]);
    rb->lo3 = _mm256_broadcast_sd(&rs->lo[3]);
    rb->hi3 = _mm256_broadcast_sd(&rs->hi[3]);
}

/* rb: the bounds in locals, or NULL for broadcasts from rs at each stamp
 * (the copy walk: fewer instructions there, by GCC's register choice) */
__attribute__((target("avx"), always_inline))
static inline unsigned stamp_cover_avx(const StampCols *sc,
                                       const double tv[4],
                                       const AttilaRowSteps *rs,
                                       const RowBounds *rb, int32_t qx,
                                       uint32_t dy, unsigned rows,
                                       RowNodes *nd, __m256d p[4],
                                       __m256d e[4])
{
    RowBounds b;
    unsigned cov;

    if (rb) {
        b = *rb;
    } else {
        row_bounds_avx(rs, &b);
    }

    row_stamp_avx(tv, rs, (uint32_t)(qx - sc->sx), dy, nd, p, e);
    /* lane i pixel i: its coverage is bit i of one mask */
    cov = (unsigned)_mm256_movemask_pd(_mm256_and_pd(
        _mm256_and_pd(_mm256_cmp_pd(e[0], b.lo0, _CMP_GT_OQ),
                      _mm256_cmp_pd(e[1], b.lo1, _CMP_GT_OQ)),
        _mm256_and_pd(_mm256_cmp_pd(e[2], b.lo2, _CMP_GT_OQ),
                      _mm256_and_pd(_mm256_cmp_pd(e[3], b.lo3, _CMP_GT_OQ),
                                    _mm256_cmp_pd(e[3], b.hi3,
                                                  _CMP_LE_OQ)))))
        & rows;
    if ((uint32_t)(qx - sc->x0) >= (uint32_t)(sc->x1 - sc->x0)) {
        /* a column outside the triangle's box */
        cov &= box_cols_bits(sc->x0, sc->x1, qx, rows);
    }
    return cov;
}

/* the row walk with a pixel's four values one AVX operation, the covered
 * stamps' values to out[n] */
__attribute__((target("avx")))
static unsigned stamp_row_avx(const AttilaTriangle *t,
                              const double tv[4], const AttilaRowSteps *rs,
                              int32_t qy, int32_t qx0, int32_t qx1,
                              AttilaRowStamp *out)
{
    const uint32_t dy = (uint32_t)(qy - t->start_y);
    const unsigned rows = row_bits(t, qy);
    RowNodes nd = { _mm256_setzero_pd(), _mm256_setzero_pd(), ~0u, ~0u };
    unsigned n = 0, i;
    int32_t qx;
    const StampCols sc = { t->start_x, t->x0, t->x1 };
    RowBounds rb;

    row_bounds_avx(rs, &rb);

    for (qx = qx0; qx <= qx1; qx += 2) {
        __m256d p[4], e[4];
        unsigned cov = stamp_cover_avx(&sc, tv, rs, &rb, qx, dy, rows, &nd,
                                       p, e);

        if (cov) {
            for (i = 0; i < 4; i++) {
                _mm256_storeu_pd(out[n].v[i], p[i]);
            }
            out[n].qx = qx;
            out[n++].cov = cov;
        }
    }
    return n;
}

/* the pixels a stamp's cov bits cover (a load and an add where the
 * shifted constant took four instructions) */
static const uint8_t cov_pixels[16] = {
    0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4
};

/*
 * Where the one-sample copy's walk of a scan tile is (copy_tile): the
 * next stamp's column qx and the end of its row's run, the row (qy; dy
 * from the triangle's start, its row_bits, its line of the target and
 * its nodes), raster_job's counts
 */
typedef struct CopyWalk {
    StampCols sc;
    int32_t qx, hi, qy;
    uint32_t dy;
    unsigned rows;
    RowNodes nd;
    uint8_t *line;
    /* the target and its address tables, in locals: the colour stores
     * could alias ctx, so GCC loaded them again at each stamp */
    uint8_t *base;
    const uint32_t *rtx, *rty;
    uint64_t work, quads, fragments;
    unsigned signs;             /* edge_signs_avx */
    bool done;
} CopyWalk;

/*
 * The tile's next covered stamp in row order (its pixels' edge values in
 * e[0..2], its address and coverage), false when there is none: each row's
 * run found as raster_job finds it (row_run), the row's work counted and
 * the draw's limit tested before it as raster_job does (done false: the
 * draw is stopped), a covered stamp counted with the program's step.
 */
__attribute__((target("avx"), always_inline))
static inline bool copy_next(AttilaRenderCtx *ctx, const AttilaTriangle *t,
                             const double tv[4], const AttilaRowSteps *rs,
                             const TileEdges *te, const TileRows *tr,
                             CopyWalk *wk, __m256d e[3], uint8_t **px,
                             unsigned *cov)
{
    for (;;) {
        int32_t qx = wk->qx;
        __m256d p[4], ev[4];
        unsigned c;

        if (qx > wk->hi) {
            int32_t qy = wk->qy;

            if (qy > tr->y1) {
                return false;
            }
            if (wk->work > ATTILA_DRAW_WORK_LIMIT) {
                wk->done = false;       /* the draw is stopped (reported) */
                wk->qy = tr->y1 + 2;
                return false;
            }
            row_run_avx(te, wk->signs, tr->tile_x, tr->tile_y, qy, tr->x0,
                        tr->x1, &wk->qx, &wk->hi);
            /* raster_job's count of the row */
            wk->work += (uint64_t)(tr->x1 - tr->x0) / 2 + 1;
            wk->dy = (uint32_t)(qy - t->start_y);
            wk->rows = row_bits(t, qy);
            wk->line = wk->base + wk->rty[qy >> 1];
            wk->nd.key4 = wk->nd.key3 = ~0u;
            wk->qy = qy + 2;
            continue;
        }
        wk->qx = qx + 2;
        c = stamp_cover_avx(&wk->sc, tv, rs, NULL, qx, wk->dy, wk->rows,
                            &wk->nd, p, ev);
        if (c) {
            e[0] = ev[0];
            e[1] = ev[1];
            e[2] = ev[2];
            *px = wk->line + wk->rtx[qx >> 1];
            *cov = c;
            wk->work++;         /* the program's step */
            wk->quads++;
            wk->fragments += cov_pixels[c];
            return true;
        }
    }
}

/*
 * The copied input's components in double, broadcast (attila_interp_comps_avx),
 * converted once a triangle
 */
__attribute__((target("avx"), always_inline))
static inline void copy_consts_avx(AttilaRenderCtx *ctx,
                                   const AttilaTriangle *t, __m256d ad[3][4])
{
    int c, l;

    if (ctx->copy_tri != t) {
        ctx->copy_tri = t;
        for (l = 0; l < 3; l++) {
            _mm256_storeu_pd(ctx->copy_attr[l], _mm256_cvtps_pd(
                _mm_loadu_ps(t->attr[l][ctx->ds->fs_copy_in])));
        }
    }
    for (l = 0; l < 3; l++) {
        for (c = 0; c < 4; c++) {
            ad[l][c] = _mm256_broadcast_sd(&ctx->copy_attr[l][c]);
        }
    }
}

/*
 * copy_stamps' AVX instance with the walk, for the rows y0..y1 of a scan
 * tile (at tile_x, tile_y; columns x0..x1) in one call (a row's call and
 * set-up cost more than a short row's walk): the tile's covered stamps
 * in row order (copy_next), their input by component
 * (attila_interp_weights_avx and _comps_avx, from the transposed edge
 * values the coverage used) written two at a time as they are found
 * (attila_color_write_pair_avx; two stamps of a tile never share a slot,
 * also from two rows), an odd last stamp alone; the colours do not depend
 * on the target, so writing them as they come changes no pixel. False:
 * the draw is stopped. `wide`: the AVX2 instance (copy_tile_avx2), whose
 * writes take 256-bit integer operations.
 */
__attribute__((target("avx"), always_inline))
static inline bool copy_tile(AttilaRenderCtx *ctx, const AttilaTriangle *t,
                             const double tv[4], const AttilaRowSteps *rs,
                             const TileEdges *te, const TileRows *tr,
                             bool wide, unsigned kind)
{
    const AttilaRenderTarget *rt = &ctx->ds->rt[ctx->rt_list[0]];
    __m256d ad[3][4], e[3], f[3];
    __m128 ch[2][4];
    uint8_t *px[2];
    unsigned cov[2];
    AttilaRowWrite w;
    CopyWalk wk = {
        .sc = { t->start_x, t->x0, t->x1 },
        .qx = 0, .hi = -1, .qy = tr->y0,
        .nd = { _mm256_setzero_pd(), _mm256_setzero_pd(), ~0u, ~0u },
        .base = rt->ptr, .rtx = ctx->rtx[0], .rty = ctx->rty[0],
        .work = ctx->work, .signs = edge_signs_avx(te), .done = true,
    };

    copy_consts_avx(ctx, t, ad);
    attila_row_write_init_avx(rt, &w);
    while (copy_next(ctx, t, tv, rs, te, tr, &wk, e, &px[0], &cov[0])) {
        attila_interp_weights_avx(e[0], e[1], e[2], f);
        attila_interp_comps_avx((const __m256d (*)[4])ad, f, ch[0]);
        if (!copy_next(ctx, t, tv, rs, te, tr, &wk, e, &px[1], &cov[1])) {
            /* the last stamp alone */
            attila_color_write_pair_avx(&w, px[0], px[0], ch[0], ch[0],
                                        cov[0], cov[0], false, wide, kind);
            break;
        }
        attila_interp_weights_avx(e[0], e[1], e[2], f);
        attila_interp_comps_avx((const __m256d (*)[4])ad, f, ch[1]);
        attila_color_write_pair_avx(&w, px[0], px[1], ch[0], ch[1], cov[0],
                                    cov[1], true, wide, kind);
    }
    ctx->quads += wk.quads;
    ctx->work = wk.work;
    ctx->fragments += wk.fragments;
    return wk.done;
}

/* copy_tile with the blend's factors constants where the target's are
 * one of ATTILA_BY_BLEND_KIND's kinds (the blend's products by 1 and its
 * factors' arithmetic left out) */
__attribute__((target("avx"), always_inline))
static inline bool copy_tile_kinds(AttilaRenderCtx *ctx,
                                   const AttilaTriangle *t,
                                   const double tv[4],
                                   const AttilaRowSteps *rs,
                                   const TileEdges *te, const TileRows *tr,
                                   bool wide)
{
#define COPY_KIND(kind) return copy_tile(ctx, t, tv, rs, te, tr, wide, kind)
    ATTILA_BY_BLEND_KIND(&ctx->ds->rt[ctx->rt_list[0]], COPY_KIND);
#undef COPY_KIND
    return false;
}

__attribute__((target("avx")))
static bool copy_tile_avx(AttilaRenderCtx *ctx, const AttilaTriangle *t,
                          const double tv[4], const AttilaRowSteps *rs,
                          const TileEdges *te, const TileRows *tr)
{
    return copy_tile_kinds(ctx, t, tv, rs, te, tr, false);
}

__attribute__((target("avx2")))
static bool copy_tile_avx2(AttilaRenderCtx *ctx, const AttilaTriangle *t,
                           const double tv[4], const AttilaRowSteps *rs,
                           const TileEdges *te, const TileRows *tr)
{
    return copy_tile_kinds(ctx, t, tv, rs, te, tr, true);
}

/*
 * The AVX2 instance's code at AVX-512VL: the same 256-bit operations
 * (512-bit ones measured slower on the Intel host, branch attila19), with
 * 32 vector registers instead of 16, so the walk's constants, the write's
 * factors and the waiting stamp stay in registers; contraction off, as
 * AVX-512F brings FMA (G3D_NO_CONTRACT)
 */
__attribute__((target("avx2,avx512f,avx512vl"), flatten)) G3D_NO_CONTRACT
static bool copy_tile_avx512(AttilaRenderCtx *ctx, const AttilaTriangle *t,
                             const double tv[4], const AttilaRowSteps *rs,
                             const TileEdges *te, const TileRows *tr)
{
    return copy_tile_kinds(ctx, t, tv, rs, te, tr, true);
}

/*
 * row_run of every row of a scan tile by mask: the tile's TILE / 2 stamp
 * columns x0, x0 + 2, ... in two vectors of four, a dx of each edge once
 * a tile (ax, edge k at ax[k]), so that a row's test of all its columns is
 * per edge two additions of b dy and two compares, the same products, sum
 * and compare as box_outside's. The run's ends are the first and the last
 * column not outside: what row_run's two scans stop at (the second scan
 * stops at the first at least), none when every column is outside.
 */
typedef struct RowRuns {
    __m256d ax[3][2], lim[3];
    double b[3];
    int32_t x0, oy;
    unsigned cols;          /* bit j: column x0 + 2 j is in the tile */
} RowRuns;

G_STATIC_ASSERT(TILE / 2 <= 8);

__attribute__((target("avx"), always_inline))
static inline void row_runs_init_avx(const TileEdges *te, const TileRows *tr,
                                     RowRuns *rr)
{
    const double d = (double)(tr->x0 - tr->tile_x);
    const __m256d d0 = _mm256_add_pd(_mm256_set1_pd(d),
                                     _mm256_setr_pd(0.0, 2.0, 4.0, 6.0));
    const __m256d d1 = _mm256_add_pd(_mm256_set1_pd(d),
                                     _mm256_setr_pd(8.0, 10.0, 12.0, 14.0));
    int k;

    for (k = 0; k < 3; k++) {
        __m256d a = _mm256_broadcast_sd(&te->a[k]);

        rr->ax[k][0] = _mm256_mul_pd(a, d0);
        rr->ax[k][1] = _mm256_mul_pd(a, d1);
        rr->lim[k] = _mm256_broadcast_sd(&te->lim[k]);
        rr->b[k] = te->b[k];
    }
    rr->x0 = tr->x0;
    rr->oy = tr->tile_y;
    /* none where the triangle's box is empty (x1 < x0) */
    rr->cols = tr->x0 <= (tr->x1 & ~1) ?
               (2u << (((tr->x1 & ~1) - tr->x0) / 2)) - 1 : 0;
}

/* row qy's run lo..hi (none when *lo > *hi) */
__attribute__((target("avx"), always_inline))
static inline void row_runs_avx(const RowRuns *rr, int32_t qy, int32_t *lo,
                                int32_t *hi)
{
    const double dy = (double)(qy - rr->oy);
    __m256d out[2];
    unsigned in;
    int h, k;

    for (h = 0; h < 2; h++) {
        out[h] = _mm256_setzero_pd();
        for (k = 0; k < 3; k++) {
            out[h] = _mm256_or_pd(out[h], _mm256_cmp_pd(
                _mm256_add_pd(rr->ax[k][h], _mm256_set1_pd(rr->b[k] * dy)),
                rr->lim[k], _CMP_LT_OQ));
        }
    }
    in = ~((unsigned)_mm256_movemask_pd(out[0]) |
           (unsigned)_mm256_movemask_pd(out[1]) << 4) & rr->cols;
    if (!in) {
        *lo = 1;
        *hi = 0;
        return;
    }
    *lo = rr->x0 + 2 * __builtin_ctz(in);
    *hi = rr->x0 + 2 * (31 - __builtin_clz(in));
}

/*
 * raster_job's one-sample walk of a scan tile's rows y0..y1 where the
 * program runs (stamp1), in one AVX call: each row's run as row_run finds
 * it (row_runs_avx), its covered stamps (stamp_cover_avx, as stamp_row_avx
 * finds them) shaded as they are found, the row's work counted after them
 * and the draw's limit tested before it, as raster_job does. A stamp's
 * coverage does not read the buffers, so shading it before the row's next
 * is found changes no pixel. False: the draw is stopped.
 */
__attribute__((target("avx")))
static bool stamp1_tile_avx(AttilaRenderCtx *ctx, const AttilaTriangle *t,
                            const double tv[4], const AttilaRowSteps *rs,
                            const TileEdges *te, const TileRows *tr)
{
    const StampCols sc = { t->start_x, t->x0, t->x1 };
    const uint64_t row_work = (uint64_t)(tr->x1 - tr->x0) / 2 + 1;
    int32_t qy, qx, lo, hi;
    RowBounds rb;
    RowRuns rr;

    row_bounds_avx(rs, &rb);
    row_runs_init_avx(te, tr, &rr);
    for (qy = tr->y0; qy <= tr->y1; qy += 2) {
        const uint32_t dy = (uint32_t)(qy - t->start_y);
        const unsigned rows = row_bits(t, qy);
        RowNodes nd = { _mm256_setzero_pd(), _mm256_setzero_pd(), ~0u, ~0u };

        if (ctx->work > ATTILA_DRAW_WORK_LIMIT) {
            return false;       /* the draw is stopped (reported) */
        }
        row_runs_avx(&rr, qy, &lo, &hi);
        for (qx = lo; qx <= hi; qx += 2) {
            __m256d p[4], e[4];
            double v[4][4];
            unsigned cov = stamp_cover_avx(&sc, tv, rs, &rb, qx, dy, rows,
                                           &nd, p, e), i;

            if (cov) {
                for (i = 0; i < 4; i++) {
                    _mm256_storeu_pd(v[i], p[i]);
                }
                stamp1_steps(ctx, t, (const double (*)[4])v, qx, qy, cov);
            }
        }
        ctx->work += row_work;
    }
    return true;
}

/*
 * The invariants of depth_stamp4_avx2 (the 24 depth bits' mask, the
 * shift's 30, the draw's table), made once a tile's walk (copy4_tile)
 */
typedef struct Depth4Consts {
    __m256i low, k30, tab;
} Depth4Consts;

/*
 * The early depth test of a 4-sample stamp's 16 z words (depth_only):
 * attila_depth_test4_table of its four pixels, two pixels' eight words
 * in each 256-bit operation (AVX2 integers). a: samples 0 and 1's window
 * z of the four pixels (lanes 0-3 sample 0, lane i pixel i; 4-7 sample
 * 1), b: samples 2 and 3's, as copy4_tile converts them (below 2^24: the
 * truncation of min(zc, 2^24 - 1), or 0); zbuf: pixel 0's
 * first word (pixel i's four at 16 i bytes, ATTILA ref.
 * Render Buffer Tiling); bit 4 i + s of cover: sample s of pixel i
 * covered. The pass bit is the table's bit of less, equal or greater
 * (attila_depth_only_test: bit (zin >= z) + (zin > z)), here moved to
 * the lane's sign by a shift of 30 + (zin > z) - (zin < z) (compare
 * masks are -1); the sign is what the blend and the mask read. The words
 * of samples not covered are written back as they were read (the stamp's
 * 64 bytes lie in this thread's tile). Returns the covered samples that
 * pass, bit for bit as cover. less: the table is 1 (LESS, the draw's
 * depth function fixed for the draw), the pass that one compare.
 */
__attribute__((target("avx2")))
static inline unsigned depth_stamp4_avx2(const Depth4Consts *dk, bool write,
                                         bool less, __m256i a, __m256i b,
                                         uint8_t *zbuf, unsigned cover)
{
    const __m256i bits[2] = {
        _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128),
        _mm256_setr_epi32(1 << 8, 1 << 9, 1 << 10, 1 << 11, 1 << 12, 1 << 13,
                          1 << 14, 1 << 15),
    };
    /* lanes (p0 s0 p0 s2 p1 s0 p1 s2 | p0 s1 p0 s3 p1 s1 p1 s3) of the
     * unpacks to pixel order */
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const __m256i zp[2] = {
        _mm256_permutevar8x32_epi32(_mm256_unpacklo_epi32(a, b), order),
        _mm256_permutevar8x32_epi32(_mm256_unpackhi_epi32(a, b), order),
    };
    const __m256i cv = _mm256_set1_epi32((int)cover);
    unsigned pass = 0, h;

    for (h = 0; h < 2; h++) {
        __m256i *p = (__m256i *)(zbuf + 32 * h);
        __m256i z = zp[h];
        __m256i w = _mm256_loadu_si256(p);
        __m256i depth = _mm256_and_si256(w, dk->low);
        __m256i cov = _mm256_cmpeq_epi32(_mm256_and_si256(cv, bits[h]),
                                         bits[h]);
        __m256 ok;

        if (less) {
            /* the table 1 (LESS): the pass is z < depth, one compare */
            ok = _mm256_castsi256_ps(
                _mm256_and_si256(cov, _mm256_cmpgt_epi32(depth, z)));
        } else {
            __m256i sh = _mm256_sub_epi32(
                _mm256_add_epi32(dk->k30, _mm256_cmpgt_epi32(z, depth)),
                _mm256_cmpgt_epi32(depth, z));

            ok = _mm256_castsi256_ps(
                _mm256_and_si256(cov, _mm256_sllv_epi32(dk->tab, sh)));
        }

        if (write) {
            /* w with its depth bits cleared (w ^ depth), then z's */
            __m256i neww = _mm256_or_si256(_mm256_xor_si256(w, depth), z);
            _mm256_storeu_si256(p, _mm256_castps_si256(_mm256_blendv_ps(
                _mm256_castsi256_ps(w), _mm256_castsi256_ps(neww), ok)));
        }
        pass |= (unsigned)_mm256_movemask_ps(ok) << 8 * h;
    }
    return pass;
}

/* bit i of m to bit 4 i */
static const uint16_t spread4[16] = {
    0x0000, 0x0001, 0x0010, 0x0011, 0x0100, 0x0101, 0x0110, 0x0111,
    0x1000, 0x1001, 0x1010, 0x1011, 0x1100, 0x1101, 0x1110, 0x1111,
};

/*
 * copy4_tile's coverage and window z of a stamp's 16 samples at AVX-512,
 * by AVX-512VL's 256-bit forms (512-bit ones measured slower on the Intel
 * host: their floating point lowers the core's clock): sample s of the
 * four pixels in one vector (lane i pixel i, v the pixels' corner
 * values), each lane the AVX walk's additions in its order and its
 * compares, which go to mask registers and are ANDed there instead of
 * ANDs of compare masks and a MOVMSKPD a sample (lo, hi3: the bounds
 * broadcast, as copy4_tile keeps them). Returns the coverage as the AVX
 * walk's `left` (bit 4 i + s), box (bit i pixel i) applied. With
 * want_z and a covered sample, zw[0] samples 0 and 1's window z (lanes
 * 0-3, 4-7) and zw[1] samples 2 and 3's, as the AVX walk converts them
 * (the same product, sum and product, the truncation of min(zc,
 * 2^24 - 1); 0 where not covered or unless zc > 0, which NaN fails).
 * Products, sums and compares: no FMA (the callers keep contraction off,
 * G3D_NO_CONTRACT: AVX-512F brings FMA).
 */
__attribute__((target("avx2,avx512f,avx512vl"))) G3D_NO_CONTRACT
static inline unsigned cover4_avx512(const SampleLanes *sl,
                                     const __m256d v[4], const __m256d lo[4],
                                     __m256d hi3, unsigned box, bool want_z,
                                     __m256d zscale, __m256d zoffset,
                                     __m256i zw[2])
{
    __m256d z[4];
    __mmask8 km[4];
    unsigned x;
    int s, k;

    for (s = 0; s < 4; s++) {
        __mmask8 m;

        z[s] = _mm256_add_pd(_mm256_add_pd(v[3],
                                           _mm256_loadu_pd(sl->sx[3][s])),
                             _mm256_loadu_pd(sl->sy[3][s]));
        m = _mm256_mask_cmp_pd_mask((__mmask8)box, z[s], lo[3], _CMP_GT_OQ);
        m = _mm256_mask_cmp_pd_mask(m, z[s], hi3, _CMP_LE_OQ);
        for (k = 0; k < 3; k++) {
            __m256d e = _mm256_add_pd(
                _mm256_add_pd(v[k], _mm256_loadu_pd(sl->sx[k][s])),
                _mm256_loadu_pd(sl->sy[k][s]));
            m = _mm256_mask_cmp_pd_mask(m, e, lo[k], _CMP_GT_OQ);
        }
        km[s] = m;
    }
    /* sample s of pixel i: bit i of km[s] to bit 4 i + s (the spread
     * masks, as the AVX walk) */
    x = spread4[km[0]] | spread4[km[1]] << 1 | spread4[km[2]] << 2 |
        spread4[km[3]] << 3;
    if (x && want_z) {
        const __m256d top = _mm256_set1_pd(16777215.0);
        __m128i w[4];

        for (s = 0; s < 4; s++) {
            __m256d zc = _mm256_mul_pd(
                _mm256_add_pd(_mm256_mul_pd(zscale, z[s]), zoffset), top);
            __mmask8 keep = _mm256_mask_cmp_pd_mask(
                km[s], zc, _mm256_setzero_pd(), _CMP_GT_OQ);

            w[s] = _mm256_maskz_cvttpd_epi32(keep, _mm256_min_pd(zc, top));
        }
        zw[0] = _mm256_set_m128i(w[1], w[0]);
        zw[1] = _mm256_set_m128i(w[3], w[2]);
    }
    return x;
}

/*
 * The rows y0..y1 of a scan tile (at tile_x, tile_y; columns x0..x1) of a
 * 4-sample draw whose program is the copy (copy4, not under
 * g3d_general_path), the draw's and triangle's constants read once for the
 * tile's rows (rows are 2.8 stamps on average: a call a row cost about a
 * tenth of the walk); each row's work counted and the draw's limit tested as
 * raster_job does (false: the draw is stopped). For the stamps of a row's
 * run, stamp4's steps with the stamp's 16 samples in four AVX operations a
 * value (sample s of the four pixels in one vector, lane i pixel i). The
 * pixels' corner values are the row walk's (the memo's sums, row_stamp_avx);
 * sample s's values the same two additions of the same products as
 * msaa_cover4_avx ((v + a sx) + b sy), tested against the same exact bounds,
 * its window z the same conversion; the early depth test (where depth_only,
 * at AVX2 a stamp's 16 samples at once: depth_stamp4_avx2; below, a pixel's
 * four at a time); the centroid of the covered samples (all of them where
 * none is) as (v + a ox) + b oy, attila_centroid_values' and the centroid
 * table's sums; the copied input from the centroids' edge values by channel
 * (attila_interp_weights_avx, _comps_avx: attila_interpolate's operations),
 * the program's one step counted, and each pixel's colour written to its
 * samples' slots (attila_color_write_stamp4_lanes, inlined). The run is
 * raster_job's (row_run), the stamps the box test admits; the bounds are
 * the exact tests, so a stamp stamp4 would have taken as far inside
 * (edges not tested) gets the same coverage. Additions, products, one division and compares; no FMA
 * in this target. `level`: 1 the AVX instance (copy4_tile_avx), whose
 * depth test goes by pixels; 2 the AVX2 one (copy4_tile_avx2), 3 the
 * AVX-512 one (copy4_tile_avx512), whose depth test is depth_stamp4_avx2
 * inlined (by flatten: no call a covered stamp, the window z kept in
 * registers) and whose colour write is the AVX2 one; at 3 the coverage
 * and window z take mask registers (cover4_avx512). `less`: the draw's
 * depth test is LESS alone (depth_stamp4_avx2's one compare).
 */
__attribute__((target("avx"), always_inline))
static inline bool copy4_tile(AttilaRenderCtx *ctx, const AttilaTriangle *t,
                              const double tv[4], const SampleLanes *sl,
                              const TileEdges *te, const TileRows *tr,
                              const int level, const bool less)
{
    const bool w512 = level >= 3;
    const int32_t x0 = tr->x0, x1 = tr->x1, y0 = tr->y0, y1 = tr->y1;
    const AttilaDrawState *ds = ctx->ds;
    const AttilaRowSteps *rs = &sl->bounds;
    const AttilaRenderTarget *rt = &ds->rt[ctx->rt_list[0]];
    const unsigned signs = edge_signs_avx(te);
    const uint32_t *rtx = ctx->rtx[0];
    /* the draw's fields in locals: the z and colour stores go through
     * byte pointers, which could alias ds and ctx, so GCC would load the
     * fields again after each store */
    const bool ztest = ctx->ztest, depth_only = ds->depth_only;
    const bool zwrite = ds->depth_mask;
    const uint8_t ztable = ds->depth_table;
    /* the depth test of the stamp by 256-bit integer operations */
    const bool z8 = level >= 2;
    const uint32_t *const zx = ctx->zx;
    const __m256d zscale = _mm256_set1_pd(ds->z_scale);
    const __m256d zoffset = _mm256_set1_pd(ds->z_offset);
    Depth4Consts dk = {
        _mm256_set1_epi32(0x00ffffff), _mm256_set1_epi32(30),
        _mm256_set1_epi32(ztable),
    };
    uint64_t quads = 0, work = ctx->work, fragments = 0;
    __m256d lo[4], hi3, ea[3], eb[3], ad[3][4];
    int32_t qx, qy, qx0, qx1;
    bool done = true;
    int k;

    /* opaque to GCC, which would otherwise make the constants again from
     * immediates at each stamp (three instructions each) rather than read
     * them as an operand from the stack */
    __asm__("" : "+x"(dk.low), "+x"(dk.k30));
    for (k = 0; k < 4; k++) {
        lo[k] = _mm256_broadcast_sd(&rs->lo[k]);
    }
    hi3 = _mm256_broadcast_sd(&rs->hi[3]);
    for (k = 0; k < 3; k++) {
        ea[k] = _mm256_broadcast_sd(&t->e[k][0]);
        eb[k] = _mm256_broadcast_sd(&t->e[k][1]);
    }
    copy_consts_avx(ctx, t, ad);

    for (qy = y0; qy <= y1; qy += 2) {
        uint8_t *line = rt->ptr + ctx->rty[0][qy >> 1];
        uint32_t dy = (uint32_t)(qy - t->start_y);
        RowNodes nd = { _mm256_setzero_pd(), _mm256_setzero_pd(), ~0u, ~0u };
        unsigned rows = row_bits(t, qy);
        uint8_t *const zrow = ztest ? ds->zptr + ctx->zy[qy >> 1] : NULL;
        /* a stamp's window z (samples 0 and 1, 2 and 3), read only where
         * ztest set them, which GCC cannot tell: set once a row rather
         * than warned about */
        __m256i zw[2] = { _mm256_setzero_si256(), _mm256_setzero_si256() };

        if (work > ATTILA_DRAW_WORK_LIMIT) {
            done = false;       /* the draw is stopped (reported) */
            break;
        }
        row_run_avx(te, signs, tr->tile_x, tr->tile_y, qy, x0, x1, &qx0,
                    &qx1);
        for (qx = qx0; qx <= qx1; qx += 2) {
            uint32_t dx = (uint32_t)(qx - t->start_x);
            __m256d p[4], v[4], zsv[4], msk[4];
            unsigned mask[4], box = rows, left, i, s;

            row_stamp_avx(tv, rs, dx, dy, &nd, p, v);
            if ((uint32_t)(qx - t->x0) >= (uint32_t)(t->x1 - t->x0)) {
                /* a column outside the triangle's box */
                box &= box_bits(t, qx, rows);
            }
            if (w512) {
                left = cover4_avx512(sl, v, lo, hi3, box, ztest, zscale,
                                     zoffset, zw);
            } else {
                for (s = 0; s < 4; s++) {
                    __m256d z = _mm256_add_pd(
                        _mm256_add_pd(v[3], _mm256_loadu_pd(sl->sx[3][s])),
                        _mm256_loadu_pd(sl->sy[3][s]));
                    __m256d m = _mm256_and_pd(
                        _mm256_cmp_pd(z, lo[3], _CMP_GT_OQ),
                        _mm256_cmp_pd(z, hi3, _CMP_LE_OQ));
                    for (k = 0; k < 3; k++) {
                        __m256d e = _mm256_add_pd(
                            _mm256_add_pd(v[k],
                                          _mm256_loadu_pd(sl->sx[k][s])),
                            _mm256_loadu_pd(sl->sy[k][s]));
                        m = _mm256_and_pd(m, _mm256_cmp_pd(e, lo[k],
                                                           _CMP_GT_OQ));
                    }
                    zsv[s] = z;
                    msk[s] = m;
                    mask[s] = (unsigned)_mm256_movemask_pd(m) & box;
                }
                /* sample s of pixel i: bit i of mask[s] to bit 4 i + s of
                 * left (the spread masks), the stamp's coverage as the
                 * depth test and the write take it */
                left = spread4[mask[0]] | spread4[mask[1]] << 1 |
                       spread4[mask[2]] << 2 | spread4[mask[3]] << 3;
                if (ztest && left) {
                    /* attila_convert_z of the covered samples (0 elsewhere
                     * and unless zc > 0), samples 0 and 1 in zw[0], 2 and
                     * 3 in zw[1] */
                    const __m256d top = _mm256_set1_pd(16777215.0);
                    __m128i w[4];

                    for (s = 0; s < 4; s++) {
                        __m256d zc = _mm256_mul_pd(
                            _mm256_add_pd(_mm256_mul_pd(zscale, zsv[s]),
                                          zoffset), top);
                        __m256d keep = _mm256_and_pd(
                            msk[s], _mm256_cmp_pd(zc, _mm256_setzero_pd(),
                                                  _CMP_GT_OQ));
                        w[s] = _mm256_cvttpd_epi32(
                            _mm256_and_pd(_mm256_min_pd(zc, top), keep));
                    }
                    zw[0] = _mm256_set_m128i(w[1], w[0]);
                    zw[1] = _mm256_set_m128i(w[3], w[2]);
                }
            }
            if (!left) {
                continue;
            }
            quads++;

            if (ztest) {
                /* each pixel's four words */
                uint8_t *z0 = zrow + zx[qx >> 1];
                __m128 w[4];
                uint32_t zs[4][4];

                if (depth_only && z8) {
                    left = depth_stamp4_avx2(&dk, zwrite, less, zw[0],
                                             zw[1], z0, left);
                } else {
                    const unsigned in = left;

                    w[0] = _mm_castsi128_ps(_mm256_castsi256_si128(zw[0]));
                    w[1] = _mm_castsi128_ps(
                        _mm256_extractf128_si256(zw[0], 1));
                    w[2] = _mm_castsi128_ps(_mm256_castsi256_si128(zw[1]));
                    w[3] = _mm_castsi128_ps(
                        _mm256_extractf128_si256(zw[1], 1));
                    _MM_TRANSPOSE4_PS(w[0], w[1], w[2], w[3]);
                    left = 0;
                    for (i = 0; i < 4; i++) {
                        uint8_t *za = z0 + 16 * i;
                        unsigned cover = in >> 4 * i & 15;

                        if (!cover) {
                            continue;
                        }
                        if (depth_only) {
                            cover = attila_depth_test4_table(
                                ztable, zwrite, _mm_castps_si128(w[i]), za,
                                cover);
                        } else {
                            _mm_storeu_ps((float *)zs[i], w[i]);
                            for (s = 0; s < 4; s++) {
                                if ((cover >> s) & 1) {
                                    uint32_t word;
                                    memcpy(&word, za + 4 * s, 4);
                                    if (!attila_zs_test(ds, zs[i][s], &word)) {
                                        cover &= ~(1u << s);
                                    }
                                    memcpy(za + 4 * s, &word, 4);
                                }
                            }
                        }
                        left |= cover << 4 * i;
                    }
                }
                if (!left) {
                    continue;
                }
            }

            /* the centroids' edge values, the copied input there (pixel
             * i's covered samples are bits 4 i to 4 i + 3 of left) */
            {
                /* a bit at 4 i where pixel i has a covered sample */
                unsigned any = (left | left >> 1) & 0x5555;
                const __m256d c01 = _mm256_loadu_pd(
                    centroid4_pairs[left & 0xff]);
                const __m256d c23 = _mm256_loadu_pd(
                    centroid4_pairs[left >> 8]);
                __m256d ox = _mm256_permute2f128_pd(c01, c23, 0x20);
                __m256d oy = _mm256_permute2f128_pd(c01, c23, 0x31);
                __m256d c[3], f[3];
                __m128 ch[4];
                uint8_t *p0 = line + rtx[qx >> 1];

                for (k = 0; k < 3; k++) {
                    c[k] = _mm256_add_pd(
                        _mm256_add_pd(v[k], _mm256_mul_pd(ea[k], ox)),
                        _mm256_mul_pd(eb[k], oy));
                }
                attila_interp_weights_avx(c[0], c[1], c[2], f);
                attila_interp_comps_avx((const __m256d (*)[4])ad, f, ch);
                work++;
                /* each pixel's colour on its covered samples */
                attila_color_write_stamp4_lanes(rt, p0, ch, left, z8);
                /* the pixels with a covered sample: the 0x1111 product
                 * sums the bits at 0, 4, 8 and 12 into bits 12-14 */
                any = (any | any >> 2) & 0x1111;
                fragments += (any * 0x1111u) >> 12 & 7;
            }
        }
        /* raster_job's count of the row's stamps */
        work += (uint64_t)(x1 - x0) / 2 + 1;
    }
    ctx->quads += quads;
    ctx->work = work;
    ctx->fragments += fragments;
    return done;
}

__attribute__((target("avx")))
static bool copy4_tile_avx(AttilaRenderCtx *ctx, const AttilaTriangle *t,
                           const double tv[4], const SampleLanes *sl,
                           const TileEdges *te, const TileRows *tr)
{
    return copy4_tile(ctx, t, tv, sl, te, tr, 1, false);
}

/* depth_stamp4_avx2 inlined (flatten, as GCC would not inline it into a
 * function it sees as large); `_less` the instances of a draw whose early
 * depth test is LESS (ds->depth_table 1), chosen once a tile */
__attribute__((target("avx2"), flatten))
static bool copy4_tile_avx2(AttilaRenderCtx *ctx, const AttilaTriangle *t,
                            const double tv[4], const SampleLanes *sl,
                            const TileEdges *te, const TileRows *tr)
{
    return copy4_tile(ctx, t, tv, sl, te, tr, 2, false);
}

__attribute__((target("avx2"), flatten))
static bool copy4_tile_avx2_less(AttilaRenderCtx *ctx,
                                 const AttilaTriangle *t, const double tv[4],
                                 const SampleLanes *sl, const TileEdges *te,
                                 const TileRows *tr)
{
    return copy4_tile(ctx, t, tv, sl, te, tr, 2, true);
}

/* cover4_avx512 inlined (flatten: GCC would not inline it into a
 * function it sees as large); contraction off, as AVX-512F brings FMA
 * (G3D_NO_CONTRACT) */
__attribute__((target("avx2,avx512f,avx512vl"), flatten)) G3D_NO_CONTRACT
static bool copy4_tile_avx512(AttilaRenderCtx *ctx, const AttilaTriangle *t,
                              const double tv[4], const SampleLanes *sl,
                              const TileEdges *te, const TileRows *tr)
{
    return copy4_tile(ctx, t, tv, sl, te, tr, 3, false);
}

__attribute__((target("avx2,avx512f,avx512vl"), flatten)) G3D_NO_CONTRACT
static bool copy4_tile_avx512_less(AttilaRenderCtx *ctx,
                                   const AttilaTriangle *t,
                                   const double tv[4], const SampleLanes *sl,
                                   const TileEdges *te, const TileRows *tr)
{
    return copy4_tile(ctx, t, tv, sl, te, tr, 3, true);
}
#endif

AttilaStampRowFn *attila_stamp_row_fn(void)
{
#ifdef HAVE_AVX_PATH
    return g3d_use_avx() ? stamp_row_avx : stamp_row_sse2;
#elif defined(__SSE2__)
    return stamp_row_sse2;
#else
    return NULL;
#endif
}

/*
 * A batch's tiles cut into units that any render thread may take
 * (g3d_claim): RASTER_CLASSES classes of each thread's tiles
 * (g3d_tile_owner), the class a tile's block's (r->block_shift). A
 * thread's own run of units is exactly the tiles it owned before, so with
 * every helper on time each writes the same part of the screen
 * from batch to batch, while a helper that the host schedules late (5-100
 * us a job on the Intel host, branch thr14) leaves its classes to the
 * others instead of holding the caller. A small triangle lies in one block,
 * so it is prepared once a thread as before (a triangle is prepared once a
 * class it meets: blocks of 4x4 tiles cost torus 3M instructions a replay
 * at two threads, blocks of 8x8 half that). A one-sample batch, whose
 * triangles cost little to prepare (the row steps), is cut finer, into
 * blocks of 2x2 tiles: simplefog's and 8lights's batches of a few dozen
 * tiles had up to half their work in one unit of 4 classes of 8x8 blocks
 * (the units' own work counted, branch thr18), so that even with no
 * hand-over cost two threads drew them only 1.77x as fast as one. A
 * multisampled batch (torus) keeps 8x8 blocks, and so does a large one
 * (spaceship, spheremap, blendedcubes: 16700 to 662000 pixels of boxes,
 * against simplefog's and 8lights's 1200 to 6700), whose units are even
 * either way and whose triangles would be prepared in more classes (2 %
 * more instructions at two threads). Each tile is one class's and a
 * class takes the batch's triangles in order, so the image does not depend
 * on who takes it, as with the fixed owners (a draw whose image shows the
 * tiles' order is drawn by one thread: draw-state.c tile_order_shows).
 */
bool attila_raster_caller_only;
unsigned attila_raster_delay_us;
/* tests: no draw's job handed over in the chain; the links handed so far */
bool attila_raster_chain_off;
uint64_t attila_raster_chain_links;

/*
 * which of RASTER_CLASSES a tile's block is: neighbouring blocks differ, a
 * row's classes follow one another, and a block row down is RASTER_ROW_STEP
 * classes on, so that the blocks about any block differ too; the classes
 * repeat every RASTER_CLASSES blocks across and down
 */
static inline int tile_class(int tx, int ty, int shift)
{
    return (int)((((unsigned)tx >> shift) +
                  RASTER_ROW_STEP * ((unsigned)ty >> shift)) % RASTER_CLASSES);
}

/* the classes whose blocks a triangle's box meets, a bit each */
static unsigned triangle_classes(const AttilaTriangle *t, int shift)
{
    /* boxes start at 0 or more (triangle-setup.c: the scissor's origin) */
    int bx0 = (t->x0 / TILE) >> shift, bx1 = (t->x1 / TILE) >> shift;
    int by0 = (t->y0 / TILE) >> shift, by1 = (t->y1 / TILE) >> shift;
    const unsigned all = (1u << RASTER_CLASSES) - 1;
    unsigned mask = 0, run, first;
    int by;

    if (bx1 - bx0 >= RASTER_CLASSES - 1) {
        return all;
    }
    /* a block row's classes are bx1 - bx0 + 1 in a row from its first
     * block's, cyclically; the rows repeat every RASTER_CLASSES */
    run = (1u << (bx1 - bx0 + 1)) - 1;
    for (by = by0; by <= MIN(by1, by0 + RASTER_CLASSES - 1) && mask != all;
         by++) {
        first = tile_class(bx0 << shift, by << shift, shift);
        mask |= ((run << first) | (run >> (RASTER_CLASSES - first))) & all;
    }
    return mask;
}

/* each class's triangles (class_tri), so that a unit visits only those */
static void class_lists(AttilaRaster *r)
{
    size_t k;
    int c;

    if (r->n > r->class_cap) {
        r->class_cap = r->n;
        g_free(r->class_tri);
        r->class_tri = g_new(uint32_t, RASTER_CLASSES * r->class_cap);
    }
    memset(r->class_n, 0, sizeof(r->class_n));
    for (k = 0; k < r->n; k++) {
        unsigned mask = triangle_classes(&r->tris[k], r->block_shift);
        for (c = 0; c < RASTER_CLASSES; c++) {
            if (mask & (1u << c)) {
                r->class_tri[c * r->class_cap + r->class_n[c]++] = k;
            }
        }
    }
}

/*
 * The batch's triangles, in order, over the tiles of thread `owner`
 * (g3d_tile_owner) in class `cls` (every class if `all`); false if the
 * draw is stopped or abandoned.
 */
static bool raster_tiles(AttilaRaster *r, AttilaRenderCtx *ctx, int owner,
                         int cls, bool all)
{
    AttilaStampRowFn *rows = r->one_sample ? r->rows : NULL;
    AttilaRowSteps rsteps;
    AttilaRowStamp row[TILE / 2];
    unsigned m, k;
    /* the row's stamps by copy_stamps */
    bool copy_rows = rows && ctx->copy_soa && !ctx->ztest;
    /* a 4-sample draw's samples in AVX lanes */
    bool lanes4 = r->lanes4 && r->ds->msaa && r->ds->samples == 4;
    /* its rows by copy4_tile_avx */
    bool copy4 = lanes4 && ctx->copy4;
    /* rows of stamps: one-sample draws, copy4 */
    bool walk = rows || copy4;
    /* the tiles' box-test bounds by tile_edges_avx */
    bool edges_avx = false;
#ifdef HAVE_AVX_PATH
    /* the tile's rows by copy_tile_avx */
    bool copy_avx = copy_rows && ctx->row_avx;

    /* the other one-sample draws' tiles by stamp1_tile_avx */
    bool stamp1_avx = rows && !copy_rows && ctx->row_avx;

    edges_avx = ctx->row_avx && r->skip_boxes;
#endif
    SampleLanes lanes;
    /* a stamp's box: its pixels' corners are 0 and 1 past its origin, an
     * MSAA pixel's samples up to pat / 128 past its corner */
    double wbox = 1.0;
    size_t i;
    uint32_t s;

    for (s = 0; r->ds->msaa && attila_msaa_pattern(r->ds->samples) &&
                s < r->ds->samples; s++) {
        const double *ps = attila_msaa_pattern(r->ds->samples)[s];
        wbox = MAX(wbox, 1.0 + MAX(ps[0], ps[1]) / MSAA_SUBPIXEL);
    }
    for (i = 0; i < (all ? r->n : r->class_n[cls]); i++) {
        const AttilaTriangle *t =
            &r->tris[all ? i : r->class_tri[cls * r->class_cap + i]];
        const double (*pat)[2] = r->ds->msaa ? attila_msaa_pattern(r->ds->samples) :
                                 NULL;
        AttilaSampleSteps steps;
        int tx0 = t->x0 / TILE, tx1 = t->x1 / TILE;
        int ty0 = t->y0 / TILE, ty1 = t->y1 / TILE;
        int tx, ty;
        /* the triangle's steps, made at its first tile this thread owns:
         * with several threads most small triangles have none */
        bool prepared = false;

        for (ty = ty0; ty <= ty1; ty++) {
            for (tx = tx0; tx <= tx1; tx++) {
                int32_t x0, y0, x1, y1, qx, qy;
                double tv[4];
                TileEdges stamps;
                AttilaStampMemo memo = { 0 };
                bool outside;
                unsigned cov;
                int cl = all ? cls : tile_class(tx, ty, r->block_shift);

                if (cl != cls) {
                    /* on to the row's next block of the class */
                    tx = (((tx >> r->block_shift) +
                           (cls - cl + RASTER_CLASSES) % RASTER_CLASSES)
                          << r->block_shift) - 1;
                    continue;
                }
                if (g3d_tile_owner(tx, ty, r->threads) != owner) {
                    continue;
                }
                if (!prepared) {
                    prepared = true;
                    if (pat && r->skip_boxes) {
                        attila_sample_steps(t, pat, r->ds->samples, &steps);
                    }
                    if (lanes4) {
                        int s, k, l;
                        for (k = 0; k < 4; k++) {
                            for (s = 0; s < 4; s++) {
                                lanes.x[k][s] = steps.x[s][k];
                                lanes.y[k][s] = steps.y[s][k];
                                for (l = 0; l < 4 && copy4; l++) {
                                    lanes.sx[k][s][l] = steps.x[s][k];
                                    lanes.sy[k][s][l] = steps.y[s][k];
                                }
                            }
                        }
                        attila_row_steps(t, r->ds->d3d9_depth, &lanes.bounds);
                    }
                    if (rows) {
                        attila_row_steps(t, r->ds->d3d9_depth, &rsteps);
                    }
                }
                if (g3d_yield()) {
                    return false;   /* reset or unplug: the draw is abandoned */
                }
                attila_triangle_eval_tile(t, tx * TILE, ty * TILE, tv);
                x0 = MAX(t->x0, tx * TILE) & ~1;
                y0 = MAX(t->y0, ty * TILE) & ~1;
                x1 = MIN(t->x1, tx * TILE + TILE - 1);
                y1 = MIN(t->y1, ty * TILE + TILE - 1);
                outside = tile_edges(t, tv, wbox, TILE + 2, TILE + 2,
                                     edges_avx, &stamps) && r->skip_boxes;
#ifdef HAVE_AVX_PATH
                if ((copy_avx || copy4 || stamp1_avx) && !outside) {
                    /* the tile's rows walked, written and counted with
                     * the copy (one sample or four), or shaded */
                    const TileRows tr = { tx * TILE, ty * TILE, x0, x1, y0,
                                          y1 };
                    bool go = stamp1_avx ?
                        stamp1_tile_avx(ctx, t, tv, &rsteps, &stamps, &tr) :
                        copy_avx ?
                        (ctx->avx512 ? copy_tile_avx512 :
                         ctx->avx2 ? copy_tile_avx2 : copy_tile_avx)(
                            ctx, t, tv, &rsteps, &stamps, &tr) :
                        (ctx->avx512 ? (ctx->copy4_less ?
                                        copy4_tile_avx512_less :
                                        copy4_tile_avx512) :
                         ctx->avx2 ? (ctx->copy4_less ? copy4_tile_avx2_less :
                                      copy4_tile_avx2) : copy4_tile_avx)(
                            ctx, t, tv, &lanes, &stamps, &tr);
                    if (!go) {
                        return false;   /* the draw is stopped (reported) */
                    }
                    continue;
                }
#endif
                for (qy = y0; qy <= y1; qy += 2) {
                    if (ctx->work > ATTILA_DRAW_WORK_LIMIT) {
                        return false;   /* the draw is stopped (reported) */
                    }
                    if (walk && !outside) {
                        int32_t lo, hi;

                        row_run(&stamps, tx * TILE, ty * TILE, qy, x0, x1,
                                &lo, &hi);
                        m = lo <= hi ? rows(t, tv, &rsteps, qy, lo, hi, row) :
                            0;
#ifdef __SSE2__
                        if (copy_rows && m) {
                            copy_stamps(ctx, t, row, m, qy);
                            m = 0;
                        }
#endif
                        for (k = 0; k < m; k++) {
                            stamp1(ctx, t, (const double (*)[4])row[k].v,
                                   row[k].qx, qy, row[k].cov);
                        }
                    }
                    for (qx = x0; qx <= x1 && !outside && !walk; qx += 2) {
                        double dx = qx - tx * TILE, dy = qy - ty * TILE;
                        if (!r->skip_boxes) {
                            stamp(ctx, t, tv, NULL, NULL, qx, qy, false,
                                  true);
                        } else if (r->one_sample) {
                            double v[4][4];
                            if (box_outside(&stamps, dx, dy)) {
                                continue;
                            }
                            eval_stamp(t, tv, qx, qy, &memo, v);
                            cov = stamp1_cover(r->ds, t,
                                               (const double (*)[4])v, qx, qy,
                                               box_inside(&stamps, dx, dy));
                            if (cov) {
                                stamp1(ctx, t, (const double (*)[4])v, qx,
                                       qy, cov);
                            }
                        } else if (box_outside(&stamps, dx, dy)) {
                            continue;
                        } else if (pat && r->ds->samples == 4) {
                            stamp4(ctx, t, tv, &memo, &steps, qx, qy,
                                   box_inside(&stamps, dx, dy),
                                   lanes4 ? &lanes : NULL);
                        } else {
                            stamp(ctx, t, tv, &memo, pat ? &steps : NULL,
                                  qx, qy, box_inside(&stamps, dx, dy), false);
                        }
                    }
                    ctx->work += (uint64_t)(x1 - x0) / 2 + 1;
                }
            }
        }
    }
    return true;
}

/*
 * The caller of a posted batch leaves the units still unclaimed to the
 * helpers once they are `leave` or fewer and a helper has joined (which
 * then takes them: raster_job claims while any is left). Which thread
 * draws a tile does not change its pixels (each tile is one class's).
 */
static bool caller_leaves(AttilaRaster *r)
{
    if (!r->leave || attila_raster_caller_only) {
        return false;
    }
    return g3d_claim_left(r->raster_next, r->threads * RASTER_CLASSES,
                          r->threads) <= r->leave &&
           (r->link_joined < 0 ? g3d_pool_joined(r->pool) :
            r->link_joined) > 0;
}

static void raster_job(void *arg, int thread)
{
    AttilaRaster *r = arg;
    int at = 0;
    uint32_t unit;

    if (r->threads == 1) {
        raster_tiles(r, &r->ctx[0], 0, 0, true);
        return;
    }
    /* unit u of thread t's run: its tiles of class u mod RASTER_CLASSES */
    while ((thread || !r->posted || !caller_leaves(r)) &&
           g3d_claim(r->raster_next, r->threads * RASTER_CLASSES, r->threads,
                     thread, &at, &unit)) {
        if (attila_raster_delay_us && thread) {
            g_usleep(attila_raster_delay_us);
        }
        if (!raster_tiles(r, &r->ctx[thread], unit / RASTER_CLASSES,
                          unit % RASTER_CLASSES, false)) {
            return;
        }
    }
}

int attila_raster_threads(const AttilaRaster *r)
{
    return r->threads;
}

void attila_raster_run_shared(AttilaRaster *r, G3DJobFn *fn, void *arg)
{
    attila_raster_idle(r);
    r->posted = false;
    g3d_pool_run_shared(r->pool, fn, arg);
}

/*
 * The chain: consecutive small draws' jobs (branch thr15's shading, set-up
 * and raster batch, posted by the pipeline) handed to the helpers in one
 * pool job. A helper done with a link waits for the next for as long as
 * the pool's helpers poll for a job (g3d_pool_spin_us), then leaves; the
 * caller hands a draw's job to the helpers waiting (attila_raster_post_shared)
 * once every helper that ran the last link is done with it, and the batch's
 * end is taken (attila_raster_sync), so a link starts where a new pool job
 * would: the ordering is the pipeline's (branch thr17). simplefog's 80 draws
 * a replay were 80 pool jobs, each a wake of the helper that went to sleep
 * on a busy host. Every other job, and attila_raster_idle, closes the chain
 * and waits for the helpers to return to the pool.
 */
#define CHAIN_CLOSED (1ull << 63)
#define CHAIN_SEQ(w) ((uint32_t)((w) >> 32) & 0x7fffffffu)
#define CHAIN_WAITING(w) ((uint32_t)((w) >> 16) & 0xffffu)
#define CHAIN_DONE(w) ((uint32_t)(w) & 0xffffu)
#define CHAIN_ONE_WAITING (1ull << 16)

/* a helper's part of the chain's pool job: the links while any comes */
static void chain_job(void *arg, int thread)
{
    AttilaRaster *r = arg;
    uint64_t w = __atomic_load_n(&r->chain, __ATOMIC_ACQUIRE);
    G3DJobFn *fn = r->link_fn;
    void *link = r->link_arg;
    uint32_t seq = CHAIN_SEQ(w);
    G3DPoll poll;

    if (thread == 0) {
        fn(link, 0);        /* the caller's part of the first link */
        return;
    }
    for (;;) {
        fn(link, thread);
        /* release: the caller then takes the batch's end */
        w = __atomic_add_fetch(&r->chain, CHAIN_ONE_WAITING + 1,
                               __ATOMIC_ACQ_REL);
        poll = g3d_poll_begin(g3d_pool_spin_us);
        while (!(w & CHAIN_CLOSED) && CHAIN_SEQ(w) == seq) {
            /* time up: leave unless a link came meanwhile (w reloaded) */
            if (!g3d_poll_step(&poll) &&
                __atomic_compare_exchange_n(&r->chain, &w,
                                            w - CHAIN_ONE_WAITING, false,
                                            __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE)) {
                return;     /* no link came: back to the pool */
            }
            w = __atomic_load_n(&r->chain, __ATOMIC_ACQUIRE);
        }
        if (w & CHAIN_CLOSED) {
            return;
        }
        /* the link published with the new number (release) */
        seq = CHAIN_SEQ(w);
        fn = r->link_fn;
        link = r->link_arg;
    }
}

/* the chain closed and its helpers back in the pool */
static void chain_close(AttilaRaster *r)
{
    if (r->chained) {
        __atomic_or_fetch(&r->chain, CHAIN_CLOSED, __ATOMIC_RELEASE);
        g3d_pool_wait(r->pool);
        r->chained = false;
    }
}

/* every helper that ran the chain's link is done with it */
static bool chain_linked_done(AttilaRaster *r)
{
    return CHAIN_DONE(__atomic_load_n(&r->chain, __ATOMIC_ACQUIRE)) ==
           (uint32_t)r->link_joined;
}

/*
 * Every helper that ran the chain's link is done with it, waited for as
 * long as the helpers poll; *drawing: some was not at first
 */
static bool chain_done(AttilaRaster *r, bool *drawing)
{
    G3DPoll poll;

    if (chain_linked_done(r)) {
        return true;
    }
    *drawing = true;
    poll = g3d_poll_begin(g3d_pool_spin_us);
    while (!chain_linked_done(r)) {
        if (!g3d_poll_step(&poll)) {
            return false;
        }
    }
    return true;
}

/* the link `fn` handed to the helpers waiting in the chain: how many, or
 * 0 if none is (nothing handed) */
static int chain_link(AttilaRaster *r, G3DJobFn *fn, void *arg)
{
    uint64_t w = __atomic_load_n(&r->chain, __ATOMIC_ACQUIRE);

    r->link_fn = fn;
    r->link_arg = arg;
    while (CHAIN_WAITING(w) > 0 &&
           !__atomic_compare_exchange_n(&r->chain, &w,
                                        (uint64_t)((CHAIN_SEQ(w) + 1) &
                                                   0x7fffffffu) << 32,
                                        false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
        /* a helper left meanwhile: w reloaded */
    }
    return CHAIN_WAITING(w);
}

int attila_raster_post_shared(AttilaRaster *r, G3DJobFn *fn, void *arg)
{
    int joined;

    attila_raster_sync(r);      /* keeps the chain where its helpers wait */
    r->posted = true;
    /* (an operation already cancelled: the pool's post runs nothing) */
    if (r->chained && !attila_raster_chain_off && !g3d_yield()) {
        r->link_joined = chain_link(r, fn, arg);
        if (r->link_joined > 0) {
            attila_raster_chain_links++;
            fn(arg, 0);
            return r->link_joined;
        }
    }
    chain_close(r);
    r->link_fn = fn;
    r->link_arg = arg;
    r->link_joined = -1;
    /* a new number, nothing done: published by the pool's post */
    r->chain = (uint64_t)((CHAIN_SEQ(r->chain) + 1) & 0x7fffffffu) << 32;
    joined = g3d_pool_post_shared(r->pool, chain_job, r);
    r->chained = joined >= 0;   /* (a cancelled job ran nothing) */
    r->link_joined = MAX(joined, 0);
    return joined;
}

void attila_raster_detach(AttilaRaster *r)
{
    r->in_flight = r->threads > 1;
    if (!r->in_flight) {
        attila_raster_batch_end(r);
    }
}

const AttilaDrawState *attila_raster_busy(const AttilaRaster *r)
{
    return r->in_flight ? r->ds : NULL;
}

/*
 * The batch in flight finished and its end taken (its counts, its errors
 * in the order one thread gives: before anything the command processor
 * reports after the draw), then a begun draw's counters cleared
 */
void attila_raster_sync(AttilaRaster *r)
{
    bool drawing = false;
    int t;

    if (r->syncing) {
        return;     /* the batch's end reports an error: settled already */
    }
    r->syncing = true;
    if (r->chained) {
        /* the helpers done with the link may stay for the next */
        if (!chain_done(r, &drawing)) {
            chain_close(r);
        }
    } else if (r->in_flight) {
        drawing = g3d_pool_busy(r->pool);
        g3d_pool_wait(r->pool);
    }
    if (r->in_flight) {
        if (drawing) {
            r->leave -= r->leave > 0;
        } else if (r->leave < (uint32_t)r->threads * RASTER_CLASSES / 2) {
            r->leave++;
        }
        r->in_flight = false;
        attila_raster_batch_end(r);
    }
    if (r->fresh) {
        r->fresh = false;
        for (t = 0; t < r->threads; t++) {
            r->ctx[t].work = 0;
        }
    }
    r->syncing = false;
}

void attila_raster_idle(AttilaRaster *r)
{
    attila_raster_sync(r);
    chain_close(r);
}

bool attila_raster_helpers_busy(AttilaRaster *r)
{
    return g3d_pool_busy(r->pool);
}

/* ---- the clears --------------------------------------------------------- */

/* a clear's over-scan tiles that the render threads take (g3d_claim) */
typedef struct ClearJob {
    const AttilaClear *cl;
    uint32_t tiles;
    int threads;
    uint64_t *next;
} ClearJob;

static void clear_job(void *arg, int thread)
{
    ClearJob *j = arg;
    uint32_t tile;
    int at = 0;

    while (g3d_claim(j->next, j->tiles, j->threads, thread, &at, &tile)) {
        if (g3d_yield()) {
            return;     /* reset or unplug */
        }
        attila_surface_runs(j->cl, tile);
    }
}

/*
 * A clear's tiles on every render thread: each tile is its own memory
 * (an over-scan tile is one block of the surface), so which thread writes
 * it does not matter; two threads write memory about 1.8 times as fast
 * as one (the bench's memset). A surface of few tiles is not worth the
 * hand-over.
 */
static void raster_clear(AttilaRaster *r, const AttilaClear *cl)
{
    uint32_t tiles = attila_surface_tiles(&cl->pm);
    ClearJob j = { .cl = cl, .tiles = tiles, .threads = r->threads,
                   .next = r->clear_next };

    attila_raster_sync(r);      /* the targets a batch in flight writes */
    if (r->threads == 1 || tiles < 8) {
        j.threads = 1;
        j.next = r->clear_next;
        memset(j.next, 0, sizeof(*j.next) * G3D_CLAIM_STRIDE);
        clear_job(&j, 0);
        return;
    }
    memset(j.next, 0, sizeof(*j.next) * G3D_CLAIM_STRIDE * r->threads);
    attila_raster_run_shared(r, clear_job, &j);
}

void attila_clear_color(AttilaCore *c)
{
    AttilaClear cl;

    if (attila_clear_color_target(c, &cl)) {
        raster_clear(c->raster, &cl);
    }
}

void attila_clear_zstencil(AttilaCore *c, bool clear_z, bool clear_stencil)
{
    AttilaClear cl;

    if (attila_clear_zstencil_target(c, clear_z, clear_stencil, &cl)) {
        raster_clear(c->raster, &cl);
    }
}

void attila_raster_begin(AttilaRaster *r)
{
    /* cleared at the draw's first job (attila_raster_sync): a batch of
     * the draw before may still count its work */
    r->fresh = true;
}

/* the draw has used up its work on some render thread */
static bool raster_over(const AttilaRaster *r)
{
    int t;

    for (t = 0; t < r->threads; t++) {
        if (r->ctx[t].work > ATTILA_DRAW_WORK_LIMIT) {
            return true;
        }
    }
    return false;
}

bool attila_raster_batch_begin(AttilaRaster *r, const AttilaDrawState *ds,
                               const AttilaTriangle *tris, size_t n)
{
    int t;
    uint64_t pixels = 0, work = 0;
    size_t k;
    bool copy;

    if (raster_over(r) || n == 0) {
        return false;
    }
    r->ds = ds;
    r->tris = tris;
    r->n = n;
    r->skip_boxes = !g3d_general_path;
    /* address tables where every buffer covers the display (the pixels
     * a draw can reach) */
    r->tables = r->skip_boxes &&
                (!ds->zptr || (ds->zpm.width >= ds->disp_w &&
                               ds->zpm.height >= ds->disp_h));
    r->one_sample = !(ds->msaa && attila_msaa_pattern(ds->samples)) &&
                    (!ds->zptr || ds->zpm.samples == 1);
    for (k = 0; k < ATTILA_MAX_RENDER_TARGETS; k++) {
        const AttilaRenderTarget *rt = &ds->rt[k];
        if (rt->ptr && (rt->pm.width < ds->disp_w ||
                        rt->pm.height < ds->disp_h)) {
            r->tables = false;
        }
        if (rt->ptr && (rt->path == ATTILA_CW_GENERAL || rt->pm.samples != 1)) {
            r->one_sample = false;
        }
    }
    r->one_sample = r->one_sample && r->tables;
    r->rows = attila_stamp_row_fn();
#ifdef HAVE_AVX_PATH
    r->lanes4 = r->skip_boxes && g3d_use_avx();
#else
    r->lanes4 = false;
#endif
    if (r->tables && ds->zptr) {
        attila_address_table(&r->tab[0], &ds->zpm);
    }
    for (k = 0; k < ATTILA_MAX_RENDER_TARGETS && r->tables; k++) {
        if (ds->rt[k].ptr) {
            attila_address_table(&r->tab[1 + k], &ds->rt[k].pm);
        }
    }
    for (t = 0; t < r->threads; t++) {
        AttilaRenderCtx *ctx = &r->ctx[t];
        ctx->core = r->core;
        ctx->ds = ds;
        ctx->fs_env.imem = r->core->imem;
        ctx->fs_env.consts = r->core->fconst;
        ctx->fs_env.tex = attila_texture_sample;
        ctx->fs_env.tex_quad = attila_texture_sample_quad;
        ctx->fs_env.quad_avx2 = g3d_simd_level() >= G3D_SIMD_AVX2;
        ctx->fs_env.tex_opaque = ctx;
        ctx->fs_env.steps = &ctx->work;
        ctx->shader_error = 0;
        ctx->quads = ctx->fragments = 0;
        ctx->rt_count = 0;
        /* whole, so that a stamp's reset (reset_lane) need zero only
         * what the program writes; the copy's threads stay so */
        for (k = 0; k < 4; k++) {
            attila_shader_reset_bounded(&ctx->lane[k], ds->fs_temps,
                                         ds->fs_outs);
        }
        for (k = 0; k < ATTILA_MAX_RENDER_TARGETS; k++) {
            if (ds->rt[k].ptr) {
                ctx->rtx[ctx->rt_count] = r->tab[1 + k].x;
                ctx->rty[ctx->rt_count] = r->tab[1 + k].y;
                ctx->rt_list[ctx->rt_count++] = k;
            }
        }
        ctx->zx = r->tab[0].x;
        ctx->zy = r->tab[0].y;
        ctx->tables = r->tables;
        ctx->ztest = ds->zptr && (ds->depth_test || ds->stencil_test);
        ctx->early = ds->early_z && !ds->modify_depth && !ds->fs_kills;
        /* the program copies input 1-14 to the one mapped target's
         * output and reads no other input */
        copy = ds->fs_copy && ds->fs_copy_in >= 1 && ds->fs_copy_in <= 14 &&
               ds->fs_inputs == 1u << ds->fs_copy_in &&
               ds->fs_input[ds->fs_copy_in] &&
               ds->interpolate[ds->fs_copy_in] &&
               ctx->rt_count == 1 && ds->fs_copy_out == 1 + ctx->rt_list[0];
        ctx->copy_soa = r->one_sample && copy;
        /* the 4-sample stamp's rows: its target's slots and z words four
         * a pixel, the z/stencil test (if any) early */
        ctx->copy4 = r->lanes4 && r->tables && copy && ds->msaa &&
                     ds->samples == 4 &&
                     ds->rt[ctx->rt_list[0]].path != ATTILA_CW_GENERAL &&
                     ds->rt[ctx->rt_list[0]].pm.samples == 4 &&
                     (!ctx->ztest || (ctx->early && ds->zpm.samples == 4));
        /* its depth test LESS alone: one compare (depth_stamp4_avx2) */
        ctx->copy4_less = ctx->ztest && ds->depth_only &&
                          ds->depth_table == 1;
#ifdef __SSE2__
        ctx->interpolate_soa = attila_interpolate_soa_lanes();
#ifdef HAVE_AVX_PATH
        ctx->row_avx = g3d_use_avx();
        ctx->avx2 = g3d_use_avx2();
        ctx->avx512 = g3d_simd_level() >= G3D_SIMD_AVX512;
        ctx->copy_tri = NULL;
#endif
#else
        ctx->copy_soa = false;
#endif
    }
    for (k = 0; k < n; k++) {
        /* empty slots (attila_triangle_empty) count nothing */
        if (tris[k].x1 >= tris[k].x0 && tris[k].y1 >= tris[k].y0) {
            pixels += (uint64_t)(tris[k].x1 - tris[k].x0 + 1) *
                      (tris[k].y1 - tris[k].y0 + 1);
        }
    }
    for (t = 0; t < r->threads; t++) {
        work += r->ctx[t].work;
    }
    /*
     * Small batches are not worth waking the helpers: under 4096 pixels of
     * boxes, unless the last batch's work per pixel says that these take
     * RASTER_SHARED_WORK or more (a fragment program of many steps:
     * simplefog's and 8lights's draws of 1000-4000 pixels took 200-300
     * thousand instructions each). Same image either way, but for a draw
     * whose image depends on the tiles' order.
     */
    r->pixels = pixels;
    r->work_before = work;
    r->shared = !(r->threads == 1 || ds->serial_tiles ||
                  (pixels < 4096 &&
                   pixels * r->work_px16 < RASTER_SHARED_WORK * 16));
    if (r->shared) {
        r->block_shift = r->one_sample && pixels < RASTER_FINE_PIXELS ?
                         RASTER_FINE_SHIFT : RASTER_BLOCK_SHIFT;
        memset(r->raster_next, 0,
               sizeof(*r->raster_next) * G3D_CLAIM_STRIDE * r->threads);
        class_lists(r);
    }
    return true;
}

/* the begun batch's tiles on one thread */
static void raster_one(AttilaRaster *r)
{
    AttilaRaster one = *r;

    one.threads = 1;
    raster_job(&one, 0);
}

void attila_raster_batch_job(AttilaRaster *r, int thread, bool first)
{
    if (!r->shared) {
        if (first) {
            if (attila_raster_delay_us && thread) {
                g_usleep(attila_raster_delay_us);
            }
            raster_one(r);
        }
    } else if (!attila_raster_caller_only || thread == 0) {
        raster_job(r, thread);
    }
}

bool attila_raster_batch_end(AttilaRaster *r)
{
    uint64_t work_after = 0;
    bool over = false;
    int t;

    for (t = 0; t < r->threads; t++) {
        AttilaRenderCtx *ctx = &r->ctx[t];
        r->quads += ctx->quads;
        r->fragments += ctx->fragments;
        if (ctx->shader_error) {
            g3d_error(&r->core->errors, ATTILA_ERR_SHADER, ctx->shader_error_pc,
                      "fragment program: %s at pc %u",
                      ctx->shader_error == ATTILA_SHADER_BAD_INSTR ?
                      "invalid instruction" :
                      ctx->shader_error == ATTILA_SHADER_BAD_PC ?
                      "ran off the instruction memory" :
                      "too many steps", ctx->shader_error_pc);
        }
        over = over || ctx->work > ATTILA_DRAW_WORK_LIMIT;
        work_after += ctx->work;
    }
    r->work += work_after - r->work_before;
    r->work_px16 = (work_after - r->work_before) * 16 / MAX(r->pixels, 1);
    if (over) {
        g3d_error(&r->core->errors, ATTILA_ERR_DRAW, ATTILA_REG_STREAM_COUNT,
                  "draw: more than %llu stamps and fragment shader "
                  "instructions per render thread; draw stopped",
                  (unsigned long long)ATTILA_DRAW_WORK_LIMIT);
    }
    return !over;
}

bool attila_raster_draw(AttilaRaster *r, const AttilaDrawState *ds,
                        const AttilaTriangle *tris, size_t n)
{
    attila_raster_sync(r);
    if (raster_over(r)) {
        return false;
    }
    if (!attila_raster_batch_begin(r, ds, tris, n)) {
        return true;        /* no triangle */
    }
    if (!r->shared) {
        raster_one(r);
    } else if (attila_raster_caller_only) {
        raster_job(r, 0);
    } else {
        attila_raster_run_shared(r, raster_job, r);
    }
    return attila_raster_batch_end(r);
}
