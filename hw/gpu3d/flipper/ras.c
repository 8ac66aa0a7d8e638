/*
 * RAS: rasteriser. Scissor, sub-pixel snapping, attribute slopes and the
 * per-pixel path into the TEV and the PE (Dolphin Software/Rasterizer.cpp;
 * Dolphin's FIFO player).
 *
 * GX window coordinates carry +342 (the viewport and scissor registers both
 * include it). The scissor offset (BP 0x59, in units of 2 pixels) moves
 * the EFB origin: a vertex at window x is rasterised at x - 2 * XO.
 * Coverage is tested on GX's 1/16-pixel grid: vertices are snapped to
 * 1/16 pixel (round half up, towards zero for negatives, as Dolphin does)
 * and pixel (x, y) is sampled at (x + 9/16, y + 9/16) with a top-left fill
 * rule, which is how Dolphin's software renderer matches the hardware;
 * the shared rasteriser does the walk with exactly these parameters.
 * Attributes are evaluated as Dolphin evaluates them: planes through the
 * three vertices (float), referenced to the first vertex and sampled near
 * the pixel centre (+0.495); colours are truncated to integers with
 * negatives clamped to zero, depth is clamped to 24 bits.
 *
 * Texture coordinates are interpolated as Dolphin does it: planes of s/w,
 * t/w, q/w and 1/w, per pixel (s, t) = (s/w, t/w) * (1/w)^-1 / q', with
 * q' = (q/w) / (1/w) (when not 0), computed for all four pixels of the 2x2
 * quad (covered or not) so that the quad gives each textured stage its LOD;
 * the TEV receives them as s17.7 (truncated). A stage whose texture
 * coordinate number is not below GEN_MODE.NTEX uses coordinate 0 (the
 * hardware quirk Dolphin models); with NTEX = 0 textures read 0. The
 * indirect stages (GEN_MODE.NBMP, RAS1_IREF, RAS1_SS0/1) are sampled for
 * the quad too, and each TEV stage's IND_CMD step (tev.c) moves its
 * coordinate before its sample and gives its bump alpha.
 *
 * Scissor: BP 0x20/0x21 are inclusive corners with +342. The rectangle is
 * tried at the offset and at offsets 1024 pixels apart (the coordinates
 * wrap), giving up to a few rectangles; each is drawn, the one overlapping
 * the viewport most last (Dolphin's ScissorResult).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <math.h>
#include "common/fill.h"
#include "common/fragment.h"

const G3DRasterRules flipper_raster_rules = {
    .subpixels = 16, .sample_x = 9, .sample_y = 9,
    .edge_in = G3D_EDGE_TOP | G3D_EDGE_LEFT,
};

typedef struct RasTri {
    FlipperCore *c;
    GXSlope z;
    GXSlope col[2][4];
    /* the colour planes again, component-wise, for the per-pixel loop:
     * value = f0 + dfdx * dx + dfdy * dy, as slope_at() */
    float cf0[2][4], cdx[2][4], cdy[2][4];
    int ncol;
    FlipperTevFast fast;        /* the TEV state when the triangle was set up */
    const TevProgram *tev;      /* the general path's state (NULL: fast.on) */
    const struct RasTex *tx;    /* NULL: no stage samples a texture */
    /* decided per triangle (plain_state): the PE store is the RGB8 word
     * alone (flipper_pe_plain), Z a plain 24-bit test (func) and write */
    bool pe_plain, zplain, ztest, zwrite;
    uint8_t zfunc;
    uint32_t flat;              /* ras_fill_plain's word */
} RasTri;

/* a textured triangle: 1/w and (s, t, q) / w planes, the sampling stages */
typedef struct RasTex {
    int ntex, nstages;
    uint16_t tex_stages;        /* bit n: stage n samples a texture */
    uint8_t stage_map[16], stage_coord[16];
    uint32_t ind_cmd[16];       /* IND_CMD per stage (0: no indirect step) */
    int nind;                   /* indirect stages (GEN_MODE.NBMP) */
    uint8_t ind_map[4], ind_coord[4], ind_ss[4], ind_ts[4];
    TevIndirect ind;
    bool quad;                  /* quad_uv: four pixels at once */
    bool direct;                /* no stage has an IND_CMD step */
    GXSlope w, tex[8][3];
    TxMap map[8];
} RasTex;

int flipper_iround(float x)
{
    int t = (int)x;

    if (x - (float)t >= 0.5f) {
        return t + 1;
    }
    return t;
}

/* float -> int as x86 cvttss2si does it (out of range and NaN: INT32_MIN) */
static inline int32_t f2i_trunc(float v)
{
    if (!(v > -2147483648.0f && v < 2147483648.0f)) {
        return INT32_MIN;
    }
    return (int32_t)v;
}

static inline float slope_at(const GXSlope *s, int x, int y)
{
    float dx = s->xoff + (float)(x - s->x0);
    float dy = s->yoff + (float)(y - s->y0);

    return s->f0 + s->dfdx * dx + s->dfdy * dy;
}

typedef struct SlopeCtx {
    int32_t x0, y0;
    float xoff, yoff;
    float dx10, dx20, dy10, dy20;
} SlopeCtx;

static void slope_init(GXSlope *s, const SlopeCtx *ctx, float f0, float f1,
                       float f2)
{
    float d20 = f2 - f0, d10 = f1 - f0;
    float a = d20 * ctx->dy10 - d10 * ctx->dy20;
    float b = ctx->dx20 * d10 - ctx->dx10 * d20;
    float c = ctx->dx20 * ctx->dy10 - ctx->dx10 * ctx->dy20;

    s->f0 = f0;
    s->dfdx = a / c;
    s->dfdy = b / c;
    s->x0 = ctx->x0;
    s->y0 = ctx->y0;
    s->xoff = ctx->xoff;
    s->yoff = ctx->yoff;
}

/* ---- per pixel ------------------------------------------------------------ */

#ifdef __SSE2__
/* slope_at's dx and dy for the quad's four pixels (x, y), (x + 1, y),
 * (x, y + 1), (x + 1, y + 1): the same int -> float conversions */
static inline void quad_d4(const GXSlope *s, const G3DQuad *q, __m128 *dx,
                           __m128 *dy)
{
    __m128i xi = _mm_add_epi32(_mm_set1_epi32(q->x - s->x0),
                               _mm_setr_epi32(0, 1, 0, 1));
    __m128i yi = _mm_add_epi32(_mm_set1_epi32(q->y - s->y0),
                               _mm_setr_epi32(0, 0, 1, 1));

    *dx = _mm_add_ps(_mm_set1_ps(s->xoff), _mm_cvtepi32_ps(xi));
    *dy = _mm_add_ps(_mm_set1_ps(s->yoff), _mm_cvtepi32_ps(yi));
}

/* slope_at for the four pixels: the same single-precision operations */
static inline __m128 slope4(const GXSlope *s, __m128 dx, __m128 dy)
{
    return _mm_add_ps(_mm_add_ps(_mm_set1_ps(s->f0),
                                 _mm_mul_ps(_mm_set1_ps(s->dfdx), dx)),
                      _mm_mul_ps(_mm_set1_ps(s->dfdy), dy));
}
#endif

/*
 * The texture coordinates of the quad's four pixels, in texels (pixel i's
 * coordinate n is (uv[n][0][i], uv[n][1][i])) and as s17.7 (st, truncated).
 * t->quad: the four pixels at once, each lane the scalar pixel's float
 * operations (the planes of a triangle share their reference point);
 * cvttps2dq gives INT32_MIN out of range as f2i_trunc.
 */
static void quad_uv(const RasTex *t, const G3DQuad *q, float uv[8][2][4],
                    int32_t st[8][2][4])
{
    int i, n, k;

#ifdef __SSE2__
    if (t->quad) {
        __m128 dx, dy, inv_w;

        quad_d4(&t->w, q, &dx, &dy);
        inv_w = _mm_div_ps(_mm_set1_ps(1.0f), slope4(&t->w, dx, dy));
        for (n = 0; n < t->ntex; n++) {
            __m128 qq = _mm_mul_ps(slope4(&t->tex[n][2], dx, dy), inv_w);
            __m128 nz = _mm_cmpneq_ps(qq, _mm_setzero_ps());   /* NaN too */
            __m128 proj = _mm_or_ps(_mm_and_ps(nz, _mm_div_ps(inv_w, qq)),
                                    _mm_andnot_ps(nz, inv_w));
            for (k = 0; k < 2; k++) {
                __m128 u = _mm_mul_ps(slope4(&t->tex[n][k], dx, dy), proj);
                _mm_storeu_ps(uv[n][k], u);
                _mm_storeu_si128((__m128i *)st[n][k],
                                 _mm_cvttps_epi32(_mm_mul_ps(
                                     u, _mm_set1_ps(128.0f))));
            }
        }
        return;
    }
#endif
    for (i = 0; i < 4; i++) {
        int x = q->x + (i & 1), y = q->y + (i >> 1);
        float inv_w = 1.0f / slope_at(&t->w, x, y);

        for (n = 0; n < t->ntex; n++) {
            float proj = inv_w;
            float qq = slope_at(&t->tex[n][2], x, y) * inv_w;
            if (qq != 0.0f) {
                proj = inv_w / qq;
            }
            for (k = 0; k < 2; k++) {
                uv[n][k][i] = slope_at(&t->tex[n][k], x, y) * proj;
                st[n][k][i] = f2i_trunc(uv[n][k][i] * 128.0f);
            }
        }
    }
}

/* the LOD and filter of map m for the quad from coordinate uv (quad_uv) */
static void quad_lod(const TxMap *m, const float uv[2][4], int *lod,
                     bool *linear)
{
    const float uv00[2] = { uv[0][0], uv[1][0] };
    const float uv10[2] = { uv[0][1], uv[1][1] };
    const float uv01[2] = { uv[0][2], uv[1][2] };

    if (m->lod_fixed) {
        *lod = 0;
        *linear = m->mag_linear;
        return;
    }
    flipper_tx_lod(m, uv00, uv10, uv01, lod, linear);
}

/*
 * Every textured stage's texel, and every stage's bump alpha, for the
 * covered pixels of the quad: the indirect stages' texels first (at their
 * coordinates scaled down by RAS1_SS), then per TEV stage the indirect step
 * (which may move the coordinate) and the sample.
 */
static void quad_texels(const RasTex *t, const G3DQuad *q,
                        uint8_t texel[4][16][4], uint8_t bump[4][16])
{
    float uv[8][2][4];
    int32_t st[8][2][4], tc[2][4];
    uint8_t ind[4][4][4];
    int s, i, n;

    memset(bump, 0, sizeof(uint8_t) * 4 * 16);
    if (t->ntex == 0) {
        memset(texel, 0, sizeof(uint8_t) * 4 * 16 * 4);
        return;
    }
    quad_uv(t, q, uv, st);
    if (t->direct) {
        /* no indirect step: each stage samples its own coordinate */
        for (s = 0; s < t->nstages; s++) {
            const TxMap *m = &t->map[t->stage_map[s]];
            int c = t->stage_coord[s], lod;
            bool linear;

            if (!((t->tex_stages >> s) & 1)) {
                continue;
            }
            if (m->lod_fixed && m->level4 && m->src) {
                /* flipper_tx_sample4 at LOD 0 */
                m->level4(m, st[c][0], st[c][1], 0, m->mag_linear,
                          texel[0][s], sizeof(texel[0]));
            } else {
                quad_lod(m, uv[c], &lod, &linear);
                flipper_tx_sample4(m, st[c][0], st[c][1], lod, linear,
                                   q->mask, texel[0][s], sizeof(texel[0]));
            }
        }
        return;
    }
    memset(ind, 0, sizeof(ind));
    for (n = 0; n < t->nind; n++) {
        const TxMap *m = &t->map[t->ind_map[n]];
        int ic = t->ind_coord[n], lod;
        bool linear;

        quad_lod(m, uv[ic], &lod, &linear);
        if (!t->quad) {
            /* the general path (flipper_force_general): pixel by pixel */
            for (i = 0; i < 4; i++) {
                if (q->mask & (1u << i)) {
                    flipper_tx_sample(m, st[ic][0][i] >> t->ind_ss[n],
                                      st[ic][1][i] >> t->ind_ts[n], lod,
                                      linear, ind[i][n]);
                }
            }
            continue;
        }
        for (i = 0; i < 4; i++) {
            tc[0][i] = st[ic][0][i] >> t->ind_ss[n];
            tc[1][i] = st[ic][1][i] >> t->ind_ts[n];
        }
        /* the quad's four at once where the map has a four-pixel sampler
         * (an uncovered pixel's texel is never read) */
        flipper_tx_sample4(m, tc[0], tc[1], lod, linear, q->mask, ind[0][n],
                           sizeof(ind[0]));
    }
    memset(tc, 0, sizeof(tc));
    for (s = 0; s < t->nstages; s++) {
        const TxMap *m = &t->map[t->stage_map[s]];
        int c = t->stage_coord[s], lod;
        uint32_t cmd = t->ind_cmd[s];
        bool linear;

        if (!cmd) {
            /* every lane: an uncovered pixel's texel is never read */
            memcpy(tc[0], st[c][0], sizeof(tc[0]));
            memcpy(tc[1], st[c][1], sizeof(tc[1]));
        }
        if (cmd && t->quad) {
            flipper_tev_indirect4(&t->ind, cmd, q->mask, st[c][0], st[c][1],
                                  (const uint8_t (*)[4][4])ind, tc, bump, s);
        }
        for (i = 0; i < 4 && cmd && !t->quad; i++) {
            /* the general path (flipper_force_general): a call a pixel */
            if (!(q->mask & (1u << i))) {
                continue;
            }
            {
                int32_t p[2] = { tc[0][i], tc[1][i] };

                bump[i][s] = flipper_tev_indirect(&t->ind, cmd, st[c][0][i],
                                                  st[c][1][i],
                                                  ind[i][cmd & 3], p);
                tc[0][i] = p[0];
                tc[1][i] = p[1];
            }
        }
        if (!((t->tex_stages >> s) & 1)) {
            continue;
        }
        /* the LOD comes from the coordinate before the indirect step */
        quad_lod(m, uv[c], &lod, &linear);
        flipper_tx_sample4(m, tc[0], tc[1], lod, linear, q->mask, texel[0][s],
                           sizeof(texel[0]));
    }
}

/*
 * Colour channel ch at pixel (x, y), as slope_at() per component: the same
 * single-precision operations (four at a time with SSE2, whose conversion
 * gives INT32_MIN out of range, as f2i_trunc); negative values come out 0.
 */
static inline void ras_colour(const RasTri *t, int ch, int x, int y,
                              uint8_t out[4])
{
    float dx = t->col[ch][0].xoff + (float)(x - t->col[ch][0].x0);
    float dy = t->col[ch][0].yoff + (float)(y - t->col[ch][0].y0);
    int32_t iv[4];
    int k;

#ifdef __SSE2__
    __m128 f = _mm_add_ps(
        _mm_add_ps(_mm_loadu_ps(t->cf0[ch]),
                   _mm_mul_ps(_mm_loadu_ps(t->cdx[ch]), _mm_set1_ps(dx))),
        _mm_mul_ps(_mm_loadu_ps(t->cdy[ch]), _mm_set1_ps(dy)));
    _mm_storeu_si128((__m128i *)iv, _mm_cvttps_epi32(f));
#else
    for (k = 0; k < 4; k++) {
        iv[k] = f2i_trunc(t->cf0[ch][k] + t->cdx[ch][k] * dx +
                          t->cdy[ch][k] * dy);
    }
#endif
    for (k = 0; k < 4; k++) {
        uint16_t v = (uint16_t)iv[k];
        out[k] = (uint8_t)(v & (uint16_t)~(v >> 8));
    }
}

/* depth at pixel (x, y): the plane clamped to 24 bits, truncated */
static inline uint32_t ras_depth(const RasTri *t, int x, int y)
{
    float zf = slope_at(&t->z, x, y);

    zf = zf < 0.0f ? 0.0f : zf > 16777215.0f ? 16777215.0f : zf;
    return (uint32_t)f2i_trunc(zf);
}

/* the Z test and write of pixel (x, y) when t->zplain (flipper_pe_zcompare
 * of a 24-bit format, its fields decided per triangle) */
static inline bool ras_zplain(const RasTri *t, int x, int y, uint32_t z)
{
    uint32_t *d = &t->c->efb_depth[y * EFB_W + x];

    z &= 0xFFFFFF;              /* a Z texture may have set the top bits */
    if (!g3d_compare_u((G3DCompare)t->zfunc, z, *d & 0xFFFFFF)) {
        return false;
    }
    if (t->zwrite) {
        *d = z;
    }
    return true;
}

static inline bool ras_zcompare(const RasTri *t, int x, int y, uint32_t z)
{
    return t->zplain ? ras_zplain(t, x, y, z)
                     : flipper_pe_zcompare(t->c, x, y, z);
}

/* the PE store of pixel (x, y): the RGB8 word when t->pe_plain */
static inline void ras_store(const RasTri *t, int x, int y,
                             const uint8_t rgba[4])
{
    if (t->pe_plain) {
        t->c->efb_color[y * EFB_W + x] = (uint32_t)rgba[0] << 16 |
                                         (uint32_t)rgba[1] << 8 | rgba[2];
    } else {
        flipper_pe_blend(t->c, x, y, rgba);
    }
}

/* the bounding box grows by whole 2x2 quads (Dolphin) */
static inline void ras_bbox(FlipperThreadStats *st, int x, int y)
{
    st->bbox[0] = MIN(st->bbox[0], x & ~1);
    st->bbox[1] = MAX(st->bbox[1], x | 1);
    st->bbox[2] = MIN(st->bbox[2], y & ~1);
    st->bbox[3] = MAX(st->bbox[3], y | 1);
}

#ifdef __SSE2__
/* ras_depth of the quad's four pixels, the same float operations */
static inline void quad_depth4(const RasTri *t, const G3DQuad *q,
                               uint32_t z[4])
{
    const __m128 max = _mm_set1_ps(16777215.0f);
    __m128 dx, dy, zf, lt, gt;

    quad_d4(&t->z, q, &dx, &dy);
    zf = slope4(&t->z, dx, dy);
    lt = _mm_cmplt_ps(zf, _mm_setzero_ps());
    gt = _mm_cmpgt_ps(zf, max);
    zf = _mm_andnot_ps(lt, zf);
    zf = _mm_or_ps(_mm_and_ps(gt, max), _mm_andnot_ps(gt, zf));
    _mm_storeu_si128((__m128i *)z, _mm_cvttps_epi32(zf));
}

/* ras_colour of channel ch for the quad's four pixels (pixel i's RGBA to
 * out[i]), the same float operations and truncation */
static inline void quad_colour4(const RasTri *t, int ch, const G3DQuad *q,
                                uint8_t out[4][4])
{
    __m128 dx, dy;
    __m128i w = _mm_setzero_si128();
    int k;

    quad_d4(&t->col[ch][0], q, &dx, &dy);
    for (k = 0; k < 4; k++) {
        __m128 f = _mm_add_ps(_mm_add_ps(_mm_set1_ps(t->cf0[ch][k]),
                                         _mm_mul_ps(_mm_set1_ps(t->cdx[ch][k]),
                                                    dx)),
                              _mm_mul_ps(_mm_set1_ps(t->cdy[ch][k]), dy));
        /* v = (uint16_t)f; v & ~(v >> 8), the low byte */
        __m128i v = _mm_and_si128(_mm_cvttps_epi32(f), _mm_set1_epi32(0xFFFF));
        v = _mm_and_si128(_mm_andnot_si128(_mm_srli_epi32(v, 8), v),
                          _mm_set1_epi32(0xFF));
        w = _mm_or_si128(w, _mm_slli_epi32(v, 8 * k));
    }
    _mm_storeu_si128((__m128i *)out, w);
}

/*
 * An EFB plane's words of the quad's four pixels (rows y and y + 1 at p):
 * quads start at even (x, y) and the EFB's sides are even, so all four
 * words lie inside the plane even when the quad covers fewer pixels.
 */
static inline __m128i efb_load4(const uint32_t *p)
{
    return _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)p),
                              _mm_loadl_epi64((const __m128i *)(p + EFB_W)));
}

/* the lanes of v whose bit is set in `mask` to the quad's words at p */
static inline void efb_store4(uint32_t *p, __m128i v, unsigned mask)
{
    uint32_t w[4];
    int i;

    if (mask == 15) {
        _mm_storel_epi64((__m128i *)p, v);
        _mm_storel_epi64((__m128i *)(p + EFB_W), _mm_srli_si128(v, 8));
        return;
    }
    _mm_storeu_si128((__m128i *)w, v);
    for (i = 0; i < 4; i++) {
        if (mask & (1u << i)) {
            p[(i >> 1) * EFB_W + (i & 1)] = w[i];
        }
    }
}

/* ras_zplain of the quad's pixels in `live` (bit i: pixel i): the pixels
 * that pass; each lane compares and writes as ras_zplain (24-bit values,
 * so the signed compares are the unsigned ones) */
static inline unsigned quad_zplain4(const RasTri *t, const G3DQuad *q,
                                    const uint32_t z4[4], unsigned live)
{
    uint32_t *d = &t->c->efb_depth[q->y * EFB_W + q->x];
    const __m128i m = _mm_set1_epi32(0xFFFFFF), ones = _mm_set1_epi32(-1);
    __m128i z = _mm_and_si128(_mm_loadu_si128((const __m128i *)z4), m);
    __m128i dz = _mm_and_si128(efb_load4(d), m);
    __m128i lt = _mm_cmplt_epi32(z, dz), eq = _mm_cmpeq_epi32(z, dz), pass;

    switch ((G3DCompare)t->zfunc) {
    case G3D_CMP_NEVER:    pass = _mm_setzero_si128(); break;
    case G3D_CMP_LESS:     pass = lt; break;
    case G3D_CMP_EQUAL:    pass = eq; break;
    case G3D_CMP_LEQUAL:   pass = _mm_or_si128(lt, eq); break;
    case G3D_CMP_GREATER:  pass = _mm_xor_si128(_mm_or_si128(lt, eq), ones);
                           break;
    case G3D_CMP_NOTEQUAL: pass = _mm_xor_si128(eq, ones); break;
    case G3D_CMP_GEQUAL:   pass = _mm_xor_si128(lt, ones); break;
    default:               pass = ones; break;
    }
    live &= (unsigned)_mm_movemask_ps(_mm_castsi128_ps(pass));
    if (t->zwrite && live) {
        efb_store4(d, z, live);
    }
    return live;
}

/* the pixels of a quad's 4-bit mask (without -mpopcnt, __builtin_popcount
 * is a library call): nibble m of the constant is the bit count of m */
static inline unsigned quad_pixels(unsigned mask)
{
    return (unsigned)(0x4332322132212110ull >> (4 * (mask & 15))) & 15;
}

/* RGB8 EFB words of four RGBA byte quadruples w (R in the low byte),
 * components swapped by sel: sel[0] << 16 | sel[1] << 8 | sel[2] */
static inline __m128i rgb8_words4(__m128i w, const uint8_t sel[3])
{
    const __m128i lo = _mm_set1_epi32(0xFF);
    __m128i r = _mm_and_si128(_mm_srl_epi32(w, _mm_cvtsi32_si128(8 * sel[0])),
                              lo);
    __m128i g = _mm_and_si128(_mm_srl_epi32(w, _mm_cvtsi32_si128(8 * sel[1])),
                              lo);
    __m128i b = _mm_and_si128(_mm_srl_epi32(w, _mm_cvtsi32_si128(8 * sel[2])),
                              lo);

    return _mm_or_si128(_mm_or_si128(_mm_slli_epi32(r, 16),
                                     _mm_slli_epi32(g, 8)), b);
}

/* the RGB8 words (rgb8_words4) of the quad's pixels in `pass` stored, the
 * box grown and the pixels counted */
static inline void quad_store_rgb8(const RasTri *t, FlipperThreadStats *st,
                                   const G3DQuad *q, const uint8_t rgba[4][4],
                                   const uint8_t sel[3], unsigned pass)
{
    if (!pass) {
        return;
    }
    efb_store4(&t->c->efb_color[q->y * EFB_W + q->x],
               rgb8_words4(_mm_loadu_si128((const __m128i *)rgba), sel), pass);
    /* quads start at even (x, y): every pixel grows the box alike */
    ras_bbox(st, q->x, q->y);
    st->pixels += quad_pixels(pass);
}
#endif

/*
 * ras_quad for a general TEV program shaded four pixels at once
 * (flipper_tev_shade4): the early Z tests first, then the TEV, then per
 * pixel the late Z test and the store, each as ras_quad does it.
 */
static void ras_quad_tev4(const RasTri *t, const G3DQuad *q, int thread)
{
    FlipperCore *c = t->c;
    FlipperThreadStats *st = &c->tstats[thread];
    bool ztest = c->bp[BP_ZMODE] & 1;
    bool early = (c->bp[BP_ZCOMPARE] >> 6) & 1;
    static const uint8_t no_bump[4][16];
    uint8_t texel[4][16][4], bump[4][16], out[4][4];
    TevQuad tq;
    unsigned pass, stored = 0;
    int i, ch;

    tq.x = q->x;
    tq.y = q->y;
    tq.live = q->mask & 15;
#ifdef __SSE2__
    quad_depth4(t, q, tq.z);
#endif
#ifdef __SSE2__
    if (early && ztest && t->zplain) {
        tq.live = quad_zplain4(t, q, tq.z, tq.live);
    } else
#endif
    for (i = 0; i < 4; i++) {
        int x = q->x + (i & 1), y = q->y + (i >> 1);

        if (!(tq.live & (1u << i))) {
            continue;
        }
#ifndef __SSE2__
        tq.z[i] = ras_depth(t, x, y);
#endif
        if (early && ztest && !ras_zcompare(t, x, y, tq.z[i])) {
            tq.live &= ~(1u << i);
        }
    }
    if (!tq.live) {
        return;
    }
    memset(tq.col, 0, sizeof(tq.col));
    for (ch = 0; ch < t->ncol; ch++) {
#ifdef __SSE2__
        /* every lane: the pixels not shaded are not read */
        quad_colour4(t, ch, q, tq.col[ch]);
#else
        for (i = 0; i < 4; i++) {
            if (tq.live & (1u << i)) {
                ras_colour(t, ch, q->x + (i & 1), q->y + (i >> 1),
                           tq.col[ch][i]);
            }
        }
#endif
    }
    if (t->tx) {
        if (tq.live != 15) {
            /* the lanes of pixels not shaded read defined bytes */
            memset(texel, 0, sizeof(texel));
        }
        quad_texels(t->tx, q, texel, bump);
        tq.tex = texel;
        tq.bump = bump;
    } else {
        tq.tex = texel;         /* no stage reads a texel */
        tq.bump = no_bump;
    }
    pass = flipper_tev_shade4(c, t->tev, &tq, out);
#ifdef __SSE2__
    if (t->pe_plain && (!ztest || early || t->zplain)) {
        /* the late Z test and the RGB8 words of the quad at once */
        static const uint8_t rgb[3] = { 0, 1, 2 };

        if (!early && ztest) {
            pass = quad_zplain4(t, q, tq.z, pass);
        }
        quad_store_rgb8(t, st, q, out, rgb, pass);
        return;
    }
#endif
    for (i = 0; i < 4; i++) {
        int x = q->x + (i & 1), y = q->y + (i >> 1);

        if (!(pass & (1u << i))) {
            continue;
        }
        if (!early && ztest && !ras_zcompare(t, x, y, tq.z[i])) {
            continue;
        }
        ras_store(t, x, y, out[i]);
        stored++;
    }
    if (stored) {
        /* quads start at even (x, y): every pixel grows the box alike */
        ras_bbox(st, q->x, q->y);
        st->pixels += stored;
    }
}

static void ras_quad(void *user, const G3DQuad *q, int thread)
{
    const RasTri *t = user;
    FlipperCore *c = t->c;
    FlipperThreadStats *st = &c->tstats[thread];
    bool ztest = c->bp[BP_ZMODE] & 1;
    bool early = (c->bp[BP_ZCOMPARE] >> 6) & 1;
    static const uint8_t no_bump[16];
    uint8_t texel[4][16][4], bump[4][16];
    int i, ch, k;

    if (t->tev && t->tev->quad) {
        ras_quad_tev4(t, q, thread);
        return;
    }
    if (t->tx) {
        quad_texels(t->tx, q, texel, bump);
    }

    for (i = 0; i < 4; i++) {
        TevPixel px;
        uint8_t out[4];

        if (!(q->mask & (1u << i))) {
            continue;
        }
        px.x = q->x + (i & 1);
        px.y = q->y + (i >> 1);
        px.tex = texel[i];
        px.bump = t->tx ? bump[i] : no_bump;
        px.z = ras_depth(t, px.x, px.y);
        if (early && ztest && !ras_zcompare(t, px.x, px.y, px.z)) {
            continue;
        }
        memset(px.col, 0, sizeof(px.col));
        for (ch = 0; ch < t->ncol; ch++) {
            if (t->fast.on && ch != t->fast.chan) {
                continue;       /* the pass-through TEV reads one channel */
            }
            ras_colour(t, ch, px.x, px.y, px.col[ch]);
        }
        if (t->fast.on) {
            const uint8_t *col = px.col[t->fast.chan];
            for (k = 0; k < 4; k++) {
                out[k] = col[t->fast.swap[k]];
            }
        } else if (!flipper_tev_shade(c, t->tev, &px, out)) {
            continue;
        }
        if (!early && ztest && !ras_zcompare(t, px.x, px.y, px.z)) {
            continue;
        }
        ras_bbox(st, px.x, px.y);
        ras_store(t, px.x, px.y, out);
        st->pixels++;
    }
}

/*
 * The common state's quad (chosen per triangle by plain_state): the
 * pass-through TEV (one channel, swapped), no texture, and a PE store that
 * is the RGB8 word alone (flipper_pe_plain); Z, if tested, a plain 24-bit
 * compare. What ras_quad does for it, with nothing decided per pixel: the
 * TEV cannot discard, so early and late Z are the same test.
 */
static void ras_quad_plain(void *user, const G3DQuad *q, int thread)
{
    const RasTri *t = user;
    FlipperCore *c = t->c;
    FlipperThreadStats *st = &c->tstats[thread];
    const uint8_t *swap = t->fast.swap;
    int i;

#ifdef __SSE2__
    {
        /* the quad's Z tests, colours and words at once (quad_depth4 and
         * quad_colour4 are ras_depth and ras_colour in lanes) */
        unsigned live = q->mask & 15;
        uint8_t col4[4][4];

        if (t->ztest) {
            uint32_t z[4];

            quad_depth4(t, q, z);
            live = quad_zplain4(t, q, z, live);
        }
        if (live) {
            quad_colour4(t, t->fast.chan, q, col4);
            quad_store_rgb8(t, st, q, col4, swap, live);
        }
        return;
    }
#endif
    for (i = 0; i < 4; i++) {
        int x = q->x + (i & 1), y = q->y + (i >> 1);
        uint8_t col[4];

        if (!(q->mask & (1u << i))) {
            continue;
        }
        if (t->ztest && !ras_zplain(t, x, y, ras_depth(t, x, y))) {
            continue;
        }
        ras_colour(t, t->fast.chan, x, y, col);
        ras_bbox(st, x, y);
        c->efb_color[y * EFB_W + x] = (uint32_t)col[swap[0]] << 16 |
                                      (uint32_t)col[swap[1]] << 8 |
                                      col[swap[2]];
        st->pixels++;
    }
}

#ifdef __SSE2__

/* the words from p of the lanes in `mask`, the others 0: no read past
 * the lanes (the last row's last group would leave the plane) */
static inline __m128i efb_load_row4(const uint32_t *p, unsigned mask)
{
    uint32_t w[4] = { 0, 0, 0, 0 };
    int i;

    if (mask == 15) {
        return _mm_loadu_si128((const __m128i *)p);
    }
    for (i = 0; i < 4; i++) {
        if (mask & (1u << i)) {
            w[i] = p[i];
        }
    }
    return _mm_loadu_si128((const __m128i *)w);
}

/*
 * The Z test and write of a row's four pixels from zrow on (those of
 * `live`) with Z values zf (the planes' floats): ras_depth's clamp (NaN
 * stays NaN: INT32_MIN) and truncation, quad_zplain4's compare and write.
 * Returns the pixels that pass.
 */
static inline unsigned span_z4(__m128 zf, uint32_t *zrow, unsigned live,
                               G3DCompare zfunc, bool zwrite)
{
    const __m128i m24 = _mm_set1_epi32(0xFFFFFF), ones = _mm_set1_epi32(-1);
    const __m128 zmax = _mm_set1_ps(16777215.0f);
    __m128 lt = _mm_cmplt_ps(zf, _mm_setzero_ps());
    __m128 gt = _mm_cmpgt_ps(zf, zmax);
    __m128i z, dz, zlt, zeq, pass;

    zf = _mm_andnot_ps(lt, zf);
    zf = _mm_or_ps(_mm_and_ps(gt, zmax), _mm_andnot_ps(gt, zf));
    z = _mm_and_si128(_mm_cvttps_epi32(zf), m24);
    dz = _mm_and_si128(efb_load_row4(zrow, live), m24);
    zlt = _mm_cmplt_epi32(z, dz);
    zeq = _mm_cmpeq_epi32(z, dz);
    switch (zfunc) {
    case G3D_CMP_NEVER:    pass = _mm_setzero_si128(); break;
    case G3D_CMP_LESS:     pass = zlt; break;
    case G3D_CMP_EQUAL:    pass = zeq; break;
    case G3D_CMP_LEQUAL:   pass = _mm_or_si128(zlt, zeq); break;
    case G3D_CMP_GREATER:  pass = _mm_xor_si128(_mm_or_si128(zlt, zeq), ones);
                           break;
    case G3D_CMP_NOTEQUAL: pass = _mm_xor_si128(zeq, ones); break;
    case G3D_CMP_GEQUAL:   pass = _mm_xor_si128(zlt, ones); break;
    default:               pass = ones; break;
    }
    live &= (unsigned)_mm_movemask_ps(_mm_castsi128_ps(pass));
    if (zwrite && live) {
        g3d_store4_masked(zrow, z, live);
    }
    return live;
}

/*
 * What a span stored, for the box and the pixel count: the extreme
 * pixels' columns and rows and the count (a span with a Z test adds each
 * group's passing pixels; without one, the whole rectangle is stored).
 */
typedef struct SpanBox {
    int bx0, bx1, by0, by1;
    uint64_t pixels;
    bool row_any;               /* a pixel of the current row stored */
} SpanBox;

#define SPAN_BOX_INIT { INT_MAX, -1, -1, -1, 0, false }

/* the group of four pixels from xl whose `live` pixels were stored */
static inline void span_box_group(SpanBox *b, int xl, unsigned live)
{
    b->bx0 = MIN(b->bx0, xl + __builtin_ctz(live));
    b->bx1 = MAX(b->bx1, xl + 31 - __builtin_clz(live));
    b->pixels += quad_pixels(live);
    b->row_any = true;
}

/* the end of row y */
static inline void span_box_row(SpanBox *b, int y)
{
    if (b->row_any) {
        b->by0 = b->by0 < 0 ? y : b->by0;
        b->by1 = y;
        b->row_any = false;
    }
}

/* the end of the span [x0, x1) x [y0, y1): the box and count to st */
static inline void span_box_end(SpanBox *b, FlipperThreadStats *st,
                                bool ztest, int x0, int y0, int x1, int y1)
{
    if (!ztest) {
        b->bx0 = x0, b->bx1 = x1 - 1, b->by0 = y0, b->by1 = y1 - 1;
        b->pixels = (uint64_t)(x1 - x0) * (y1 - y0);
    }
    if (b->pixels) {
        /* the pixels' quads: ras_bbox of the extreme pixels */
        ras_bbox(st, b->bx0, b->by0);
        ras_bbox(st, b->bx1, b->by1);
        st->pixels += b->pixels;
    }
}

/* a span function f (column terms for `width` pixels) over wider fills,
 * by parts: name and name_z (with the Z test), with the function
 * attributes that follow width */
#define SPAN_BY_PARTS(name, f, width, ...)                                  \
__VA_ARGS__                                                                 \
static void name(void *user, int x0, int y0, int x1, int y1, int thread)    \
{                                                                           \
    for (; x0 < x1; x0 += (width)) {                                        \
        f(user, x0, y0, MIN(x1, x0 + (width)), y1, thread, false);          \
    }                                                                       \
}                                                                           \
__VA_ARGS__                                                                 \
static void name##_z(void *user, int x0, int y0, int x1, int y1,            \
                     int thread)                                            \
{                                                                           \
    for (; x0 < x1; x0 += (width)) {                                        \
        f(user, x0, y0, MIN(x1, x0 + (width)), y1, thread, true);           \
    }                                                                       \
}

/* span-plain-lanes.h's channel j for four pixels: the low byte of
 * v & ~(v >> 8), v = (uint16_t)f, shifted to its byte of the RGB8 word */
static inline __m128i plain_channel4(__m128i v, int j)
{
    v = _mm_and_si128(v, _mm_set1_epi32(0xFFFF));
    v = _mm_and_si128(_mm_andnot_si128(_mm_srli_epi32(v, 8), v),
                      _mm_set1_epi32(0xFF));
    return _mm_slli_epi32(v, 16 - 8 * j);
}

/* span_plain4: the Gouraud span four pixels a vector (SSE2) */
#define PLV __m128
#define PLW __m128i
#define PL_LANES 4
#define PL_ATTR
#define PLF(op) _mm_##op##_ps
#define PLP(op) _mm_##op
#define PLN(name) name##4
#define PL_WIDTH G3D_TILE_SIZE
#define PL_IOTA _mm_setr_epi32(0, 1, 2, 3)
#define PL_ZERO _mm_setzero_si128()
#define PL_OR(a, b) _mm_or_si128(a, b)
#define PL_CHANNEL(v, j) plain_channel4(v, j)
#define PL_ZTEST(zf, zrow, live, zfunc, zwrite) \
        span_z4(zf, zrow, live, zfunc, zwrite)
#define PL_STORE(p, w, live) g3d_store4_masked(p, w, live)
#define PL_BOX(box, x, live) span_box_group(box, x, live)
#include "span-plain-lanes.h"

/*
 * The same for a triangle ras_quad_tev4 draws as one texture stage times
 * the rasterised colour (texmod_span): per group of four pixels of a row,
 * quad_uv's coordinate (1/w, q, the projection, s17.7 by truncation),
 * the map's four-pixel sampler at LOD 0 (the map's LOD changes nothing),
 * quad_colour4's colour, the TEV's modulate (flipper_tev_mod_words) and
 * quad_store_rgb8's words. Every plane's column term is computed once a
 * fill and its row term once a row, as span_plain4's: the same float
 * operations as the quads'. The alpha test passes every alpha and the
 * TEV has no Z texture or fog, so early and late Z are the same test.
 */
enum { TM_COL = 0, TM_W = 4, TM_S, TM_T, TM_Q, TM_PLANES };

/* the planes a texmod span interpolates (TM_*) into sl; its map */
static inline const TxMap *texmod_planes(const RasTri *t,
                                         const GXSlope *sl[TM_PLANES])
{
    const RasTex *tx = t->tx;
    const int ch = t->tev->st[0].chan, tc = tx->stage_coord[0];
    int k;

    for (k = 0; k < 4; k++) {
        sl[TM_COL + k] = &t->col[ch][k];
    }
    sl[TM_W] = &tx->w;
    sl[TM_S] = &tx->tex[tc][0];
    sl[TM_T] = &tx->tex[tc][1];
    sl[TM_Q] = &tx->tex[tc][2];
    return &tx->map[tx->stage_map[0]];
}

/* the RGB8 words of the texmod span's RGBA quadruples: R << 16 | G << 8 | B */
static const uint8_t texmod_rgb[3] = { 0, 1, 2 };

/* span_texmod4: span-texmod-lanes.h with four pixels a vector (SSE2), the
 * map's four-pixel sampler a live group, as soon as it has its coordinates */
#define TMV __m128
#define TMW __m128i
#define TM_LANES 4
#define TM_MASK unsigned
#define TM_ATTR
#define TMF(op) _mm_##op##_ps
#define TMP(op) _mm_##op
#define TMI(op) _mm_##op##_si128
#define TMN(name) name##4
#define TM_COLV __m128
#define TM_COLW 4
#define TM_OWN_COLUMNS
#define TM_IOTA _mm_setr_epi32(0, 1, 2, 3)
#define TM_COLUMNS texmod_columns4
#define TM_COLS(a, g) ((a)[g])
#define TM_PROJ(inv_w, qq) \
        _mm_or_ps(_mm_and_ps(_mm_cmpneq_ps(qq, _mm_setzero_ps()), \
                             _mm_div_ps(inv_w, qq)), \
                  _mm_andnot_ps(_mm_cmpneq_ps(qq, _mm_setzero_ps()), inv_w))
#define TM_SAMPLE_GROUP(m, s, t, texel, g) \
        (m)->level4(m, &(s)[4 * (g)], &(t)[4 * (g)], 0, (m)->mag_linear, \
                    (uint8_t *)&(texel)[4 * (g)], sizeof((texel)[0]))
#define TM_MODW(tex_mod, tw, rw) flipper_tev_mod_words(tex_mod, tw, rw)
#define TM_RGB(w) rgb8_words4(w, texmod_rgb)
#define TM_ZTEST(zf, zrow, live, zfunc, zwrite) \
        span_z4(zf, zrow, live, zfunc, zwrite)
#define TM_STORE(p, w, live) g3d_store4_masked(p, w, live)
#define TM_BOX(box, x, live) span_box_group(box, x, live)
#include "span-texmod-lanes.h"

SPAN_BY_PARTS(ras_span_plain, span_plain4, G3D_TILE_SIZE)
SPAN_BY_PARTS(ras_span_texmod, span_texmod4, G3D_TILE_SIZE)
#endif

#ifdef FLIPPER_HAVE_AVX2
/*
 * The part of a wide fill (G3DTriangle.fill_wide: rows of up to
 * raster.c's GROUP_TILES tiles) that span_plain8 walks row by row: a row
 * of 128 pixels is 512 bytes of each plane, where a tile's row is two
 * cache lines 2560 bytes from the next row's
 */
#define SPAN_WIDE (4 * G3D_TILE_SIZE)

/* efb_load_row4 of eight words: VPMASKMOVD reads no masked lane (and
 * faults on none) */
static inline __attribute__((always_inline, target("avx2"))) __m256i
efb_load_row8(const uint32_t *p, unsigned mask)
{
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);

    if (mask == 255) {
        return _mm256_loadu_si256((const __m256i *)p);
    }
    return _mm256_maskload_epi32((const int *)p, _mm256_cmpeq_epi32(
        _mm256_and_si256(_mm256_set1_epi32(mask), bit), bit));
}

/* the lanes of eight 24-bit Z values z that pass zfunc against the EFB's
 * dz, as quad_zplain4 (signed compares of 24-bit values are the unsigned
 * ones); with zfunc a constant, one or two instructions */
static inline __attribute__((always_inline, target("avx2"))) __m256i
z_pass8(__m256i z, __m256i dz, G3DCompare zfunc)
{
    const __m256i ones = _mm256_set1_epi32(-1);

    switch (zfunc) {
    case G3D_CMP_NEVER:    return _mm256_setzero_si256();
    case G3D_CMP_LESS:     return _mm256_cmpgt_epi32(dz, z);
    case G3D_CMP_EQUAL:    return _mm256_cmpeq_epi32(z, dz);
    case G3D_CMP_LEQUAL:   return _mm256_xor_si256(_mm256_cmpgt_epi32(z, dz),
                                                   ones);
    case G3D_CMP_GREATER:  return _mm256_cmpgt_epi32(z, dz);
    case G3D_CMP_NOTEQUAL: return _mm256_xor_si256(_mm256_cmpeq_epi32(z, dz),
                                                   ones);
    case G3D_CMP_GEQUAL:   return _mm256_xor_si256(_mm256_cmpgt_epi32(dz, z),
                                                   ones);
    default:               return ones;
    }
}

/*
 * span_z4 of eight pixels. ras_depth's clamp is one VMAXPS against 0 and
 * one VMINPS against 2^24 - 1: each returns its second operand (the
 * plane's value) unless the first is greater (smaller), so NaN stays NaN
 * and -0 stays -0, as span_z4's selects keep them.
 */
static inline __attribute__((always_inline, target("avx2"))) unsigned
span_z8(__m256 zf, uint32_t *zrow, unsigned live, G3DCompare zfunc,
        bool zwrite)
{
    const __m256i m24 = _mm256_set1_epi32(0xFFFFFF);
    __m256i z, dz;

    zf = _mm256_min_ps(_mm256_set1_ps(16777215.0f),
                       _mm256_max_ps(_mm256_setzero_ps(), zf));
    z = _mm256_and_si256(_mm256_cvttps_epi32(zf), m24);
    dz = _mm256_and_si256(efb_load_row8(zrow, live), m24);
    live &= (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(
                                             z_pass8(z, dz, zfunc)));
    if (zwrite && live) {
        g3d_store8_masked(zrow, z, live);
    }
    return live;
}

/* span_box_group of a group of eight */
static inline __attribute__((always_inline, target("avx2,popcnt"))) void
span_box_group8(SpanBox *b, int xl, unsigned live)
{
    b->bx0 = MIN(b->bx0, xl + __builtin_ctz(live));
    b->bx1 = MAX(b->bx1, xl + 31 - __builtin_clz(live));
    b->pixels += (unsigned)__builtin_popcount(live);
    b->row_any = true;
}

/* span_box_group of a group of sixteen */
static inline __attribute__((always_inline, target("avx2,popcnt"))) void
span_box_group16(SpanBox *b, int xl, unsigned live)
{
    span_box_group8(b, xl, live);
}

/* plain_channel4 for eight pixels: bits 8-15 of v are those of the 32-bit
 * truncation, and the byte is put in place by one VPSHUFB */
static inline __attribute__((always_inline, target("avx2"))) __m256i
plain_channel8(__m256i v, int j)
{
    /* byte 0 of each lane to byte 2, 1 (G) and 0 (B) of the RGB8 word */
    const __m256i to[3] = {
        _mm256_setr_epi8(-1, -1, 0, -1, -1, -1, 4, -1, -1, -1, 8, -1,
                         -1, -1, 12, -1, -1, -1, 0, -1, -1, -1, 4, -1,
                         -1, -1, 8, -1, -1, -1, 12, -1),
        _mm256_setr_epi8(-1, 0, -1, -1, -1, 4, -1, -1, -1, 8, -1, -1,
                         -1, 12, -1, -1, -1, 0, -1, -1, -1, 4, -1, -1,
                         -1, 8, -1, -1, -1, 12, -1, -1),
        _mm256_setr_epi8(0, -1, -1, -1, 4, -1, -1, -1, 8, -1, -1, -1,
                         12, -1, -1, -1, 0, -1, -1, -1, 4, -1, -1, -1,
                         8, -1, -1, -1, 12, -1, -1, -1),
    };

    v = _mm256_andnot_si256(_mm256_srli_epi32(v, 8), v);
    return _mm256_shuffle_epi8(v, to[j]);
}

/* span_plain8: eight pixels a vector (AVX2) over up to SPAN_WIDE pixels a
 * row, the Z test by span_z8 */
#define PLV __m256
#define PLW __m256i
#define PL_LANES 8
#define PL_ATTR __attribute__((target("avx2,popcnt")))
#define PLF(op) _mm256_##op##_ps
#define PLP(op) _mm256_##op
#define PLN(name) name##8
#define PL_WIDTH SPAN_WIDE
#define PL_IOTA _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
#define PL_ZERO _mm256_setzero_si256()
#define PL_OR(a, b) _mm256_or_si256(a, b)
#define PL_CHANNEL(v, j) plain_channel8(v, j)
#define PL_ZTEST(zf, zrow, live, zfunc, zwrite) \
        span_z8(zf, zrow, live, zfunc, zwrite)
#define PL_STORE(p, w, live) g3d_store8_masked(p, w, live)
#define PL_BOX(box, x, live) span_box_group8(box, x, live)
#include "span-plain-lanes.h"

SPAN_BY_PARTS(ras_span_plain8, span_plain8, SPAN_WIDE,
              __attribute__((target("avx2,popcnt"))))

/* the texels of a row of the wide texmod spans: the map's eight-pixel
 * sampler on every group of eight from x0 (the dead groups' coordinates 0) */
static inline __attribute__((always_inline, target("avx2"))) void
texmod_level8(const TxMap *m, const int32_t *s, const int32_t *t,
              uint32_t *texel, int x0, int x1)
{
    m->level8(m, (const __m256i *)s, (const __m256i *)t, (x1 - x0 + 7) / 8,
              0, m->mag_linear, (__m256i *)texel);
}

/* span_texmod8: span-texmod-lanes.h with eight pixels a vector (AVX2) */
#define TMV __m256
#define TMW __m256i
#define TM_LANES 8
#define TM_MASK unsigned
#define TM_ATTR __attribute__((target("avx2,popcnt"))) G3D_NO_CONTRACT
#define TMF(op) _mm256_##op##_ps
#define TMP(op) _mm256_##op
#define TMI(op) _mm256_##op##_si256
#define TMN(name) name##8
#define TM_COLV __m256
#define TM_COLW 8
#define TM_OWN_COLUMNS
#define TM_IOTA _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
#define TM_COLUMNS texmod_columns8
#define TM_COLS(a, g) ((a)[g])
#define TM_SAMPLE_ROW(m, s, t, texel, x0, x1) \
        texmod_level8(m, s, t, texel, x0, x1)
#define TM_RGB(w) _mm256_shuffle_epi8(w, _mm256_broadcastsi128_si256( \
        _mm_setr_epi8(2, 1, 0, -1, 6, 5, 4, -1, 10, 9, 8, -1, 14, 13, 12, -1)))
#define TM_PROJ(inv_w, qq) \
        _mm256_blendv_ps(inv_w, _mm256_div_ps(inv_w, qq), \
                         _mm256_cmp_ps(qq, _mm256_setzero_ps(), _CMP_NEQ_UQ))
#define TM_MODW(tex_mod, tw, rw) flipper_tev_mod_words8(tex_mod, tw, rw)
#define TM_ZTEST(zf, zrow, live, zfunc, zwrite) \
        span_z8(zf, zrow, live, zfunc, zwrite)
#define TM_STORE(p, w, live) g3d_store8_masked(p, w, live)
#define TM_BOX(box, x, live) span_box_group8(box, x, live)
#include "span-texmod-lanes.h"

SPAN_BY_PARTS(ras_span_texmod8, span_texmod8, G3D_TILE_SIZE,
              __attribute__((target("avx2,popcnt"))) G3D_NO_CONTRACT)

#define RAS_AVX512 "avx2,popcnt,avx512f,avx512bw,avx512vl"

/* span_z8 of sixteen pixels (AVX-512: the compare to a mask, masked moves
 * at a row's end) */
static inline __attribute__((always_inline, target(RAS_AVX512))) __mmask16
span_z16(__m512 zf, uint32_t *zrow, __mmask16 live, G3DCompare zfunc,
         bool zwrite)
{
    const __m512i m24 = _mm512_set1_epi32(0xFFFFFF);
    __m512i z, dz;
    __mmask16 pass;

    zf = _mm512_min_ps(_mm512_set1_ps(16777215.0f),
                       _mm512_max_ps(_mm512_setzero_ps(), zf));
    z = _mm512_and_si512(_mm512_cvttps_epi32(zf), m24);
    dz = _mm512_and_si512(_mm512_maskz_loadu_epi32(live, zrow), m24);
    switch (zfunc) {
    case G3D_CMP_NEVER:    pass = 0; break;
    case G3D_CMP_LESS:     pass = _mm512_cmplt_epi32_mask(z, dz); break;
    case G3D_CMP_EQUAL:    pass = _mm512_cmpeq_epi32_mask(z, dz); break;
    case G3D_CMP_LEQUAL:   pass = _mm512_cmple_epi32_mask(z, dz); break;
    case G3D_CMP_GREATER:  pass = _mm512_cmpgt_epi32_mask(z, dz); break;
    case G3D_CMP_NOTEQUAL: pass = _mm512_cmpneq_epi32_mask(z, dz); break;
    case G3D_CMP_GEQUAL:   pass = _mm512_cmpge_epi32_mask(z, dz); break;
    default:               pass = 0xFFFF; break;
    }
    live &= pass;
    if (zwrite && live) {
        _mm512_mask_storeu_epi32(zrow, live, z);
    }
    return live;
}

/* flipper_tev_mod_words8 for sixteen pixels: its unpacks, products and
 * pack stay within 128-bit quarters, so each half is its eight pixels' */
static inline __attribute__((always_inline, target(RAS_AVX512))) __m512i
tev_mod_words16(uint8_t tex_mod, __m512i tw, __m512i rw)
{
    __m256i lo = flipper_tev_mod_words8(tex_mod, _mm512_castsi512_si256(tw),
                                        _mm512_castsi512_si256(rw));
    __m256i hi = flipper_tev_mod_words8(tex_mod,
                                        _mm512_extracti64x4_epi64(tw, 1),
                                        _mm512_extracti64x4_epi64(rw, 1));

    return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}

/* span_texmod16: span-texmod-lanes.h with sixteen pixels a vector
 * (AVX-512: Z by span_z16, 1/w's quotient by a masked division, the
 * stores masked) */
#define TMV __m512
#define TMW __m512i
#define TM_LANES 16
#define TM_MASK __mmask16
#define TM_ATTR __attribute__((target(RAS_AVX512))) G3D_NO_CONTRACT
#define TMF(op) _mm512_##op##_ps
#define TMP(op) _mm512_##op
#define TMI(op) _mm512_##op##_si512
#define TMN(name) name##16
/* the column terms as span_texmod8's: a group reads two side by side */
#define TM_COLV __m256
#define TM_COLW 8
#define TM_COLUMNS texmod_columns8
#define TM_COLS(a, g) _mm512_loadu_ps((const float *)&(a)[2 * (g)])
#define TM_SAMPLE_ROW(m, s, t, texel, x0, x1) \
        texmod_level8(m, s, t, texel, x0, x1)
#define TM_RGB(w) _mm512_shuffle_epi8(w, _mm512_broadcast_i32x4( \
        _mm_setr_epi8(2, 1, 0, -1, 6, 5, 4, -1, 10, 9, 8, -1, 14, 13, 12, -1)))
#define TM_PROJ(inv_w, qq) \
        _mm512_mask_div_ps(inv_w, _mm512_cmp_ps_mask(qq, _mm512_setzero_ps(), \
                                                     _CMP_NEQ_UQ), inv_w, qq)
#define TM_MODW(tex_mod, tw, rw) tev_mod_words16(tex_mod, tw, rw)
#define TM_ZTEST(zf, zrow, live, zfunc, zwrite) \
        span_z16(zf, zrow, live, zfunc, zwrite)
#define TM_STORE(p, w, live) _mm512_mask_storeu_epi32(p, live, w)
#define TM_BOX(box, x, live) span_box_group16(box, x, live)
#include "span-texmod-lanes.h"

SPAN_BY_PARTS(ras_span_texmod16, span_texmod16, G3D_TILE_SIZE,
              __attribute__((target(RAS_AVX512))) G3D_NO_CONTRACT)
#endif

/*
 * A triangle ras_quad_plain draws without a Z test, whose colour planes in
 * the channel it reads are flat (flat_plain), as a fill (common/raster.h
 * G3DBlockFn): every pixel's RGB8 word is t->flat.
 */
static void ras_fill_plain(void *user, int x0, int y0, int x1, int y1,
                           int thread)
{
    const RasTri *t = user;
    FlipperThreadStats *st = &t->c->tstats[thread];
    uint32_t *row = &t->c->efb_color[y0 * EFB_W + x0];
    int y;

    for (y = y0; y < y1; y++, row += EFB_W) {
        g3d_fill32(row, x1 - x0, t->flat);
    }
    /* what ras_bbox of every pixel gives */
    ras_bbox(st, x0, y0);
    ras_bbox(st, x1 - 1, y1 - 1);
    st->pixels += (uint64_t)(x1 - x0) * (y1 - y0);
}

/*
 * Whether ras_quad_plain would store one word at every pixel of t: no Z
 * test, and in the channel the TEV passes every component's dfdx and dfdy
 * exactly 0 (not NaN) with finite offsets, so ras_colour's f0 + dfdx * dx
 * + dfdy * dy is f0 (but a zero's sign, which the truncation drops) at
 * every pixel. Then t->flat is that word, from ras_colour at any pixel.
 */
static bool flat_plain(RasTri *t)
{
    const int ch = t->fast.chan;
    const uint8_t *swap = t->fast.swap;
    uint8_t col[4];
    int k;

    if (t->ztest || !isfinite(t->col[ch][0].xoff) ||
        !isfinite(t->col[ch][0].yoff)) {
        return false;
    }
    for (k = 0; k < 4; k++) {
        if (t->cdx[ch][k] != 0.0f || t->cdy[ch][k] != 0.0f) {
            return false;
        }
    }
    ras_colour(t, ch, t->col[ch][0].x0, t->col[ch][0].y0, col);
    t->flat = (uint32_t)col[swap[0]] << 16 | (uint32_t)col[swap[1]] << 8 |
              col[swap[2]];
    return true;
}

#ifdef __SSE2__
/*
 * Whether span_texmod may draw t (after plain_state): ras_quad_tev4 with
 * one stage modulating the texture and the rasterised colour (TEV_MOD_*),
 * every alpha passing, no Z texture or fog; its texture sampled without an
 * indirect step through a four-pixel sampler whose LOD changes nothing;
 * the RGB8 word stored alone; Z none or a plain 24-bit test.
 */
static bool texmod_span(const RasTri *t)
{
    const TevProgram *p = t->tev;
    const RasTex *tx = t->tx;
    const TxMap *m;

    if (!p || !p->tex_mod || !p->alpha_all || p->ztex_op || p->fog ||
        !tx || !tx->quad || !tx->direct || !tx->ntex ||
        !(tx->tex_stages & 1) || p->st[0].chan >= t->ncol ||
        !t->pe_plain || (t->ztest && !t->zplain)) {
        return false;
    }
    m = &tx->map[tx->stage_map[0]];
    return m->lod_fixed && m->level4 && m->src;
}
#endif

/*
 * The per-triangle PE and Z decisions (t->pe_plain, zplain and their
 * fields; none under flipper_force_general); true if ras_quad_plain draws
 * t, false: ras_quad.
 */
static bool plain_state(FlipperCore *c, RasTri *t)
{
    uint32_t zm = c->bp[BP_ZMODE];

    t->ztest = zm & 1;
    t->zfunc = (zm >> 1) & 7;
    t->zwrite = (zm >> 4) & 1;
    t->pe_plain = !flipper_force_general && flipper_pe_plain(c);
    /* a 24-bit Z format: RGB565_Z16 compresses (pe.c depth_passes) */
    t->zplain = !flipper_force_general &&
                (c->bp[BP_ZCOMPARE] & 7) != PE_FMT_RGB565_Z16;
    return t->pe_plain && t->fast.on && !t->tx && t->fast.chan < t->ncol;
}

/* ---- scissor ------------------------------------------------------------- */

typedef struct ScissorRect {
    int x_off, y_off;
    G3DRect r;
} ScissorRect;

typedef struct Range {
    int off, start, end;
} Range;

static int scissor_ranges(int start, int end, int offset, int dim,
                          Range *out)
{
    int n = 0, extra;

    for (extra = -4096; extra <= 4096; extra += 1024) {
        int off = offset + extra;
        int s = g3d_clampi(start - off, 0, dim);
        int e = g3d_clampi(end - off + 1, 0, dim);
        if (s < e) {
            out[n].off = off;
            out[n].start = s;
            out[n].end = e;
            n++;
        }
    }
    return n;
}

static int viewport_area(const ScissorRect *s, const float vp[4])
{
    int x0 = g3d_clampi(s->r.x0 + s->x_off, (int)vp[0], (int)vp[1]);
    int x1 = g3d_clampi(s->r.x1 + s->x_off, (int)vp[0], (int)vp[1]);
    int y0 = g3d_clampi(s->r.y0 + s->y_off, (int)vp[2], (int)vp[3]);
    int y1 = g3d_clampi(s->r.y1 + s->y_off, (int)vp[2], (int)vp[3]);

    return (x1 - x0) * (y1 - y0);
}

static bool rect_worse(const ScissorRect *a, const ScissorRect *b,
                       const float vp[4])
{
    int aa = viewport_area(a, vp), ba = viewport_area(b, vp);

    if (aa != ba) {
        return aa < ba;
    }
    return (a->r.x1 - a->r.x0) * (a->r.y1 - a->r.y0) <
           (b->r.x1 - b->r.x0) * (b->r.y1 - b->r.y0);
}

/* the scissor rectangles in drawing order (best last); returns how many */
static int scissor_rects(FlipperCore *c, ScissorRect *out)
{
    uint32_t tl = c->bp[BP_SCISSOR_TL], br = c->bp[BP_SCISSOR_BR];
    uint32_t off = c->bp[BP_SCISSOR_OFFSET];
    int left = (tl >> 12) & 0x7FF, top = tl & 0x7FF;
    int right = (br >> 12) & 0x7FF, bottom = br & 0x7FF;
    Range xr[9], yr[9];
    int nx, ny, i, j, n = 0;
    float wd = xf_f(c, XF_REG_VIEWPORT), ht = xf_f(c, XF_REG_VIEWPORT + 1);
    float xo = xf_f(c, XF_REG_VIEWPORT + 3), yo = xf_f(c, XF_REG_VIEWPORT + 4);
    float vp[4] = { MIN(xo - wd, xo + wd), MAX(xo - wd, xo + wd),
                    MIN(yo - ht, yo + ht), MAX(yo - ht, yo + ht) };

    if (left > right || top > bottom) {
        return 0;
    }
    nx = scissor_ranges(left, right, (int)(off & 0x1FF) << 1, EFB_W, xr);
    ny = scissor_ranges(top, bottom, (int)((off >> 10) & 0x1FF) << 1, EFB_H,
                        yr);
    for (i = 0; i < nx; i++) {
        for (j = 0; j < ny; j++) {
            ScissorRect s = {
                .x_off = xr[i].off, .y_off = yr[j].off,
                .r = { xr[i].start, yr[j].start, xr[i].end, yr[j].end },
            };
            int k = n++;
            /* insertion sort, worst first */
            while (k > 0 && rect_worse(&s, &out[k - 1], vp)) {
                out[k] = out[k - 1];
                k--;
            }
            out[k] = s;
        }
    }
    return n;
}

/* ---- triangles ----------------------------------------------------------- */

#define SNAP_LIMIT (1 << 26)        /* 1/16-pixel units */

static bool snap(float v, int off, int32_t *out)
{
    float s = 16.0f * (v - (float)off);

    if (!(fabsf(s) < (float)SNAP_LIMIT)) {
        return false;
    }
    *out = flipper_iround(s);
    return true;
}

/*
 * Which stages sample which maps, the maps' state and the coordinate
 * planes, for a triangle; NULL if no stage samples a texture.
 */
static const RasTex *setup_textures(FlipperCore *c, const SlopeCtx *ctx,
                                    const GXVertex *v[3])
{
    uint32_t gen = c->bp[BP_GENMODE];
    int nstages = G3D_FIELD_EX32(gen, BP_GENMODE_R, NTEV) + 1;
    uint8_t mapped = 0;
    RasTex *t;
    int s, k, j;

    for (s = 0; s < nstages; s++) {
        if (((c->bp[BP_TREF0 + s / 2] >> (12 * (s & 1) + 6)) & 1) ||
            (c->bp[BP_IND_CMD0 + s] & 0xFFFFFF)) {
            break;
        }
    }
    if (s == nstages) {
        return NULL;
    }
    t = g3d_raster_alloc(c->raster, sizeof(*t));
    t->ntex = G3D_FIELD_EX32(gen, BP_GENMODE_R, NTEX);
    t->nstages = nstages;
#ifdef __SSE2__
    t->quad = !flipper_force_general;
#else
    t->quad = false;
#endif
    t->tex_stages = 0;
    if (t->ntex > 8) {
        g3d_guest_error("flipper: GEN_MODE: %d texture coordinates", t->ntex);
        t->ntex = 8;
    }
    t->nind = G3D_FIELD_EX32(gen, BP_GENMODE_R, NBMP);
    if (t->nind > 4) {
        g3d_guest_error("flipper: GEN_MODE: %d indirect stages", t->nind);
        t->nind = 4;
    }
    for (s = 0; s < t->nind; s++) {
        uint32_t iref = c->bp[BP_IREF] >> (6 * s);
        uint32_t ss = c->bp[BP_RAS1_SS0 + s / 2] >> (8 * (s & 1));
        int tc = (iref >> 3) & 7;

        t->ind_map[s] = iref & 7;
        t->ind_coord[s] = tc < t->ntex ? tc : 0;
        t->ind_ss[s] = ss & 15;
        t->ind_ts[s] = (ss >> 4) & 15;
        if (t->ntex && !(mapped & (1u << t->ind_map[s]))) {
            flipper_tx_setup(c, t->ind_map[s], &t->map[t->ind_map[s]]);
            mapped |= 1u << t->ind_map[s];
        }
    }
    flipper_tev_ind_prepare(c, &t->ind);
    for (s = 0; s < t->nstages; s++) {
        uint32_t order = c->bp[BP_TREF0 + s / 2] >> (12 * (s & 1));
        int map = G3D_FIELD_EX32(order, BP_TREF_R, TI);
        int tc = G3D_FIELD_EX32(order, BP_TREF_R, TC);

        t->ind_cmd[s] = c->bp[BP_IND_CMD0 + s] & 0xFFFFFF;
        t->stage_map[s] = map;
        t->stage_coord[s] = tc < t->ntex ? tc : 0;
        if (!G3D_FIELD_EX32(order, BP_TREF_R, TE)) {
            continue;
        }
        t->tex_stages |= 1u << s;
        if (t->ntex && !(mapped & (1u << map))) {
            flipper_tx_setup(c, map, &t->map[map]);
            mapped |= 1u << map;
        }
    }
    /* the indirect stages' texels are read by IND_CMD steps alone */
    t->direct = !flipper_force_general;
    for (s = 0; s < t->nstages; s++) {
        t->direct &= !t->ind_cmd[s];
    }
    if (t->ntex) {
        float w[3] = { 1.0f / v[0]->proj[3], 1.0f / v[1]->proj[3],
                       1.0f / v[2]->proj[3] };
        slope_init(&t->w, ctx, w[0], w[1], w[2]);
        for (k = 0; k < t->ntex; k++) {
            for (j = 0; j < 3; j++) {
                slope_init(&t->tex[k][j], ctx, v[0]->tex[k][j] * w[0],
                           v[1]->tex[k][j] * w[1], v[2]->tex[k][j] * w[2]);
            }
        }
    }
    return t;
}

#ifdef FLIPPER_HAVE_AVX2
/* whether span_texmod16 may run: AVX-512 F, BW and VL, at the level the
 * tests allow (g3d_simd_level) */
static bool flipper_ras_avx512(void)
{
    return g3d_simd_level() >= G3D_SIMD_AVX512 &&
           __builtin_cpu_supports("avx512bw");
}
#endif

static __thread FlipperRasOut *ras_out;

/* the pixels of a triangle's box within its clip rectangle: its work */
static uint64_t box_px(const G3DTriangle *t)
{
    int32_t x0 = MIN(MIN(t->v[0].x, t->v[1].x), t->v[2].x) >> 4;
    int32_t x1 = (MAX(MAX(t->v[0].x, t->v[1].x), t->v[2].x) + 15) >> 4;
    int32_t y0 = MIN(MIN(t->v[0].y, t->v[1].y), t->v[2].y) >> 4;
    int32_t y1 = (MAX(MAX(t->v[0].y, t->v[1].y), t->v[2].y) + 15) >> 4;

    x0 = MAX(x0, t->clip.x0);
    y0 = MAX(y0, t->clip.y0);
    x1 = MIN(x1, t->clip.x1);
    y1 = MIN(y1, t->clip.y1);
    return x1 > x0 && y1 > y0 ? (uint64_t)(x1 - x0) * (uint64_t)(y1 - y0) : 0;
}

void flipper_ras_out(FlipperRasOut *o)
{
    ras_out = o;
}

void flipper_ras_triangle(FlipperCore *c, const GXVertex *v0,
                          const GXVertex *v1, const GXVertex *v2)
{
    const GXVertex *v[3] = { v0, v1, v2 };
    ScissorRect rects[81];
    int nrect = scissor_rects(c, rects), r, k, ch;
    int ncol = G3D_FIELD_EX32(c->bp[BP_GENMODE], BP_GENMODE_R, NCOL);

    if (ncol > 2) {
        g3d_guest_error("flipper: GEN_MODE: %d colour channels", ncol);
        ncol = 2;
    }
    for (r = 0; r < nrect; r++) {
        const ScissorRect *s = &rects[r];
        G3DTriangle tri = {
            .clip = s->r,
            .rules = &flipper_raster_rules,
            .shade = ras_quad,
            .no_weights = true,
        };
        SlopeCtx ctx;
        RasTri *t;
        bool ok = true, wide;

        for (k = 0; k < 3; k++) {
            ok &= snap(v[k]->screen[0], s->x_off, &tri.v[k].x);
            ok &= snap(v[k]->screen[1], s->y_off, &tri.v[k].y);
            tri.v[k].inv_w = 1.0f;
        }
        if (!ok) {
            g3d_guest_error("flipper: RAS: vertex outside the coordinate "
                            "range, triangle dropped");
            return;
        }
        /* Dolphin's slope reference: the pixel of vertex 0's snapped position */
        ctx.x0 = (tri.v[0].x - 9 + 15) >> 4;
        ctx.y0 = (tri.v[0].y - 9 + 15) >> 4;
        ctx.xoff = ((float)ctx.x0 - (v0->screen[0] - (float)s->x_off)) + 0.495f;
        ctx.yoff = ((float)ctx.y0 - (v0->screen[1] - (float)s->y_off)) + 0.495f;
        ctx.dx10 = v1->screen[0] - v0->screen[0];
        ctx.dx20 = v2->screen[0] - v0->screen[0];
        ctx.dy10 = v1->screen[1] - v0->screen[1];
        ctx.dy20 = v2->screen[1] - v0->screen[1];

        t = g3d_raster_alloc(c->raster, sizeof(*t));
        t->c = c;
        t->ncol = ncol;
        t->fast = *flipper_tev_fast(c);
        t->tev = NULL;
        if (!t->fast.on) {
            TevProgram *prog = g3d_raster_alloc(c->raster, sizeof(*prog));
            flipper_tev_prepare(c, prog);
            t->tev = prog;
        }
        t->tx = setup_textures(c, &ctx, v);
        if (G3D_FIELD_EX32(c->bp[BP_GENMODE], BP_GENMODE_R, ZFREEZE)) {
            /* Z frozen: keep the plane of the last triangle drawn without */
            t->z = c->zfreeze;
        } else {
            slope_init(&t->z, &ctx, v0->screen[2], v1->screen[2],
                       v2->screen[2]);
            if (ras_out) {
                ras_out->zfreeze = t->z;
                ras_out->zfreeze_set = true;
            } else {
                c->zfreeze = t->z;
            }
        }
        for (ch = 0; ch < ncol; ch++) {
            for (k = 0; k < 4; k++) {
                slope_init(&t->col[ch][k], &ctx, v0->col[ch][k],
                           v1->col[ch][k], v2->col[ch][k]);
                t->cf0[ch][k] = t->col[ch][k].f0;
                t->cdx[ch][k] = t->col[ch][k].dfdx;
                t->cdy[ch][k] = t->col[ch][k].dfdy;
            }
        }
        /*
         * Spans for triangles at least 16 pixels wide: a narrower one's
         * fills would be row runs of a few pixels, a call each
         */
        wide = MAX(MAX(tri.v[0].x, tri.v[1].x), tri.v[2].x) -
               MIN(MIN(tri.v[0].x, tri.v[1].x), tri.v[2].x) >= 16 * 16;
        if (plain_state(c, t)) {
            tri.shade = ras_quad_plain;
            if (flat_plain(t)) {
                tri.fill = ras_fill_plain;
                tri.fill_wide = true;
            }
#ifdef __SSE2__
            else if (wide) {
                tri.fill = t->ztest ? ras_span_plain_z : ras_span_plain;
#ifdef FLIPPER_HAVE_AVX2
                /* eight pixels a vector, rows of several tiles */
                if (g3d_use_avx2()) {
                    tri.fill = t->ztest ? ras_span_plain8_z : ras_span_plain8;
                    tri.fill_wide = true;
                }
#endif
            }
#endif
        }
#ifdef __SSE2__
        else if (wide && texmod_span(t)) {
            tri.fill = t->ztest ? ras_span_texmod_z : ras_span_texmod;
#ifdef FLIPPER_HAVE_AVX2
            /* the map's eight-pixel sampler, where the CPU has AVX2 */
            if (t->tx->map[t->tx->stage_map[0]].level8) {
                tri.fill = t->ztest ? ras_span_texmod8_z : ras_span_texmod8;
                /* sixteen pixels a vector where the CPU has AVX-512 */
                if (flipper_ras_avx512()) {
                    tri.fill = t->ztest ? ras_span_texmod16_z
                                        : ras_span_texmod16;
                }
            }
#endif
        }
#endif
        tri.user = t;
        if (g3d_raster_triangle(c->raster, &tri)) {
            uint64_t px = box_px(&tri);

            if (ras_out) {
                ras_out->triangles++;
                ras_out->px += px;
            } else {
                c->stats.triangles++;
                c->work_px += px;
            }
        }
    }
}
