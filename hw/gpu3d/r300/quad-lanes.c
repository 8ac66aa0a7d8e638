/*
 * The R300 quad path of the commonest Mesa draws with the four pixels of a
 * quad in SSE2 lanes: a fragment program that is a move (Mesa's MOV of a
 * colour, or of a texture fetch; us.c r300_us_match_move), one ARGB8888
 * target written plainly or blended, Z24 without stencil tested or not, and
 * no clip rule, alpha test, fog, multisampling, multiwrite, ROP or CMASK.
 *
 * Each lane does the general path's float operations in the general path's
 * order (quad.c: rs_temp's g3d_interp, the move's src * 1 + 0 and clamp,
 * write_colour's out_components, factor, combine and comp_put, quad_tail's
 * depth), one IEEE single-precision operation per lane, no reassociation
 * and no contraction into FMA (none on x86-64 without -mfma), so every byte
 * is the general path's; tests/r300/test-r300-fast.c compares the two.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300-int.h"
#include "tx-lanes8.h"
#include "common/formats.h"

#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>

typedef struct Lanes {
    __m128 v[4];                /* component k of pixels 0..3 */
} Lanes;

/*
 * The quad's weights of vertex k, one pixel a lane (G3DQuad holds them
 * pixel by pixel).
 */
static inline void weights(const float (*w)[3], __m128 wk[3])
{
    /* the 12 floats as a = w00 w01 w02 w10, b = w11 w12 w20 w21,
     * c = w22 w30 w31 w32 */
    __m128 a = _mm_loadu_ps(&w[0][0]), b = _mm_loadu_ps(&w[1][1]);
    __m128 c = _mm_loadu_ps(&w[2][2]);
    __m128 b2c1 = _mm_shuffle_ps(b, c, _MM_SHUFFLE(1, 1, 2, 2));
    __m128 a1b0 = _mm_shuffle_ps(a, b, _MM_SHUFFLE(0, 0, 1, 1));
    __m128 b3c2 = _mm_shuffle_ps(b, c, _MM_SHUFFLE(2, 2, 3, 3));
    __m128 a2b1 = _mm_shuffle_ps(a, b, _MM_SHUFFLE(1, 1, 2, 2));
    __m128 c0c3 = _mm_shuffle_ps(c, c, _MM_SHUFFLE(3, 3, 0, 0));

    wk[0] = _mm_shuffle_ps(a, b2c1, _MM_SHUFFLE(2, 0, 3, 0));
    wk[1] = _mm_shuffle_ps(a1b0, b3c2, _MM_SHUFFLE(2, 0, 2, 0));
    wk[2] = _mm_shuffle_ps(a2b1, c0c3, _MM_SHUFFLE(2, 0, 2, 0));
}

/*
 * g3d_interp(w[i], a0, a1, a2) of pixels 0..3: (w0 a0 + w1 a1) + w2 a2,
 * a[j] the vertex j's value in every lane
 */
static inline __m128 interp(const __m128 wk[3], const float (*a)[4])
{
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(wk[0], _mm_load_ps(a[0])),
                                 _mm_mul_ps(wk[1], _mm_load_ps(a[1]))),
                      _mm_mul_ps(wk[2], _mm_load_ps(a[2])));
}

/* an RS vector at the four pixels from its lanes (R300Lanes) */
static inline void rs_lanes(const float (*a)[3][4], const __m128 wk[3],
                            Lanes *out)
{
    int ch;

    for (ch = 0; ch < 4; ch++) {
        out->v[ch] = interp(wk, a[ch]);
    }
}

/* lanes <-> the sampler's pixel-major [pixel][component] (a transpose) */
static inline void lanes_to_rows(const Lanes *l, float rows[4][4])
{
    __m128 r0 = l->v[0], r1 = l->v[1], r2 = l->v[2], r3 = l->v[3];

    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    _mm_storeu_ps(rows[0], r0);
    _mm_storeu_ps(rows[1], r1);
    _mm_storeu_ps(rows[2], r2);
    _mm_storeu_ps(rows[3], r3);
}

static inline void rows_to_lanes(const float rows[4][4], Lanes *l)
{
    __m128 r0 = _mm_loadu_ps(rows[0]), r1 = _mm_loadu_ps(rows[1]);
    __m128 r2 = _mm_loadu_ps(rows[2]), r3 = _mm_loadu_ps(rows[3]);

    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    l->v[0] = r0;
    l->v[1] = r1;
    l->v[2] = r2;
    l->v[3] = r3;
}

/* clamp01 (quad.c): MAXPS/MINPS are "a > b ? a : b" / "a < b ? a : b" */
static inline __m128 clamp01(__m128 v)
{
    return _mm_min_ps(_mm_max_ps(v, _mm_setzero_ps()), _mm_set1_ps(1.0f));
}

/*
 * Pixel i of the quad is at row (i >> 1), column (i & 1) of rows r[]:
 * quads start at even x and a 32-bit micro tile is 2, 4 or 8 pixels wide
 * (tile.h), so a quad row's two pixels are adjacent. A full quad moves as
 * two 8-byte rows; otherwise only the covered pixels are touched (the
 * others may lie outside the surface).
 */
static inline __attribute__((always_inline)) __m128i
load_quad(uint8_t *const r[2], unsigned mask)
{
    uint32_t v[4] = { 0, 0, 0, 0 };
    unsigned i;

    if (mask == 0xF) {
        return _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)r[0]),
                                  _mm_loadl_epi64((const __m128i *)r[1]));
    }
    for (i = 0; i < 4; i++) {
        if (mask & (1u << i)) {
            memcpy(&v[i], r[i >> 1] + 4 * (i & 1), 4);
        }
    }
    return _mm_loadu_si128((const __m128i *)v);
}

static inline __attribute__((always_inline)) void
store_quad(uint8_t *const r[2], unsigned mask, unsigned full, __m128i val)
{
    uint32_t v[4];
    unsigned i;

    if (full == 0xF) {
        /* every pixel in the surface: unchanged ones rewritten as they are */
        _mm_storel_epi64((__m128i *)r[0], val);
        _mm_storel_epi64((__m128i *)r[1], _mm_unpackhi_epi64(val, val));
        return;
    }
    _mm_storeu_si128((__m128i *)v, val);
    for (i = 0; i < 4; i++) {
        if (mask & (1u << i)) {
            memcpy(r[i >> 1] + 4 * (i & 1), &v[i], 4);
        }
    }
}

static inline __m128i select_i(__m128i m, __m128i a, __m128i b)
{
    return _mm_or_si128(_mm_and_si128(m, a), _mm_andnot_si128(m, b));
}

/* g3d_compare_u(f, in, stored) per lane; both below 2^24 */
static inline __m128i compare(G3DCompare f, __m128i in, __m128i st)
{
    const __m128i ones = _mm_set1_epi32(-1);

    switch (f) {
    case G3D_CMP_NEVER:    return _mm_setzero_si128();
    case G3D_CMP_LESS:     return _mm_cmplt_epi32(in, st);
    case G3D_CMP_EQUAL:    return _mm_cmpeq_epi32(in, st);
    case G3D_CMP_LEQUAL:   return _mm_xor_si128(_mm_cmpgt_epi32(in, st), ones);
    case G3D_CMP_GREATER:  return _mm_cmpgt_epi32(in, st);
    case G3D_CMP_NOTEQUAL: return _mm_xor_si128(_mm_cmpeq_epi32(in, st), ones);
    case G3D_CMP_GEQUAL:   return _mm_xor_si128(_mm_cmplt_epi32(in, st), ones);
    default:               return ones;
    }
}

/* quad.c factor() for component k of four pixels; s, d, c are C0..C3 */
static inline __m128 factor(unsigned code, int k, const Lanes *s,
                            const Lanes *d, const float *c, bool is_dst)
{
    const __m128 one = _mm_set1_ps(1.0f);

    switch (code) {
    case R300_BLEND_D3D_ONE: case R300_BLEND_GL_ONE: return one;
    case R300_BLEND_D3D_SRCCOLOR: case R300_BLEND_GL_SRC_COLOR: return s->v[k];
    case R300_BLEND_D3D_INVSRCCOLOR: case R300_BLEND_GL_ONE_MINUS_SRC_COLOR:
        return _mm_sub_ps(one, s->v[k]);
    case R300_BLEND_D3D_SRCALPHA: case R300_BLEND_GL_SRC_ALPHA: return s->v[3];
    case R300_BLEND_D3D_INVSRCALPHA: case R300_BLEND_GL_ONE_MINUS_SRC_ALPHA:
        return _mm_sub_ps(one, s->v[3]);
    case R300_BLEND_D3D_DESTALPHA: case R300_BLEND_GL_DST_ALPHA: return d->v[3];
    case R300_BLEND_D3D_INVDESTALPHA: case R300_BLEND_GL_ONE_MINUS_DST_ALPHA:
        return _mm_sub_ps(one, d->v[3]);
    case R300_BLEND_D3D_DESTCOLOR: case R300_BLEND_GL_DST_COLOR: return d->v[k];
    case R300_BLEND_D3D_INVDESTCOLOR: case R300_BLEND_GL_ONE_MINUS_DST_COLOR:
        return _mm_sub_ps(one, d->v[k]);
    case R300_BLEND_D3D_SRCALPHASAT: case R300_BLEND_GL_SRC_ALPHA_SATURATE:
        /*
         * fminf(src_a, 1 - dst_a): the second operand is never NaN and the
         * move's source never -0 (x + 0 is +0), so MINPS gives the same
         */
        return k == 3 ? one : _mm_min_ps(s->v[3], _mm_sub_ps(one, d->v[3]));
    case R300_BLEND_D3D_BOTHSRCALPHA:
        return is_dst ? _mm_sub_ps(one, s->v[3]) : s->v[3];
    case R300_BLEND_D3D_BOTHINVSRCALPHA:
        return is_dst ? s->v[3] : _mm_sub_ps(one, s->v[3]);
    case R300_BLEND_GL_CONST_COLOR: return _mm_set1_ps(c[k]);
    case R300_BLEND_GL_ONE_MINUS_CONST_COLOR:
        return _mm_sub_ps(one, _mm_set1_ps(c[k]));
    case R300_BLEND_GL_CONST_ALPHA: return _mm_set1_ps(c[3]);
    case R300_BLEND_GL_ONE_MINUS_CONST_ALPHA:
        return _mm_sub_ps(one, _mm_set1_ps(c[3]));
    default: return _mm_setzero_ps();
    }
}

/* quad.c combine(): MIN/MAX as MINPS/MAXPS (the destination is never NaN) */
static inline __m128 combine(unsigned fcn, __m128 s, __m128 d, __m128 sf,
                             __m128 df)
{
    __m128 r;

    switch (fcn) {
    case R300_COMB_MIN: return _mm_min_ps(s, d);
    case R300_COMB_MAX: return _mm_max_ps(s, d);
    case R300_COMB_SUB_CLAMP: case R300_COMB_SUB_NOCLAMP:
        r = _mm_sub_ps(_mm_mul_ps(s, sf), _mm_mul_ps(d, df));
        break;
    case R300_COMB_RSUB_CLAMP: case R300_COMB_RSUB_NOCLAMP:
        r = _mm_sub_ps(_mm_mul_ps(d, df), _mm_mul_ps(s, sf));
        break;
    default:
        r = _mm_add_ps(_mm_mul_ps(s, sf), _mm_mul_ps(d, df));
        break;
    }
    return (fcn & 1) ? r : clamp01(r);
}

/* the pixels RB3D_BLENDCNTL.DISCARD_SRC_PIXELS drops (quad.c write_colour) */
static inline unsigned discarded(unsigned disc, const Lanes *s)
{
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
    unsigned a0 = _mm_movemask_ps(_mm_cmpeq_ps(s->v[3], zero));
    unsigned a1 = _mm_movemask_ps(_mm_cmpeq_ps(s->v[3], one));
    unsigned c0 = _mm_movemask_ps(_mm_and_ps(
        _mm_and_ps(_mm_cmpeq_ps(s->v[0], zero), _mm_cmpeq_ps(s->v[1], zero)),
        _mm_cmpeq_ps(s->v[2], zero)));
    unsigned c1 = _mm_movemask_ps(_mm_and_ps(
        _mm_and_ps(_mm_cmpeq_ps(s->v[0], one), _mm_cmpeq_ps(s->v[1], one)),
        _mm_cmpeq_ps(s->v[2], one)));

    switch (disc) {
    case 1: return a0;
    case 2: return c0;
    case 3: return a0 & c0;
    case 4: return a1;
    case 5: return c1;
    case 6: return a1 & c1;
    default: return 0;
    }
}

/* comp_put of C0..C3 into ARGB8888 words, rounding: clamp01, * 255 + 0.5 */
static inline __m128i pack8888(const Lanes *o)
{
    return g3d_unorm8x4_lanes(o->v);
}

/*
 * The ARGB8888 colour write of the covered, Z-passed pixels `mask`; s holds
 * the components C0..C3 (US_OUT_FMT's order)
 */
static inline __attribute__((always_inline)) void
colour_lanes(const R300QuadLanes *ql, uint8_t *const r[2], unsigned mask,
             unsigned cover, const Lanes *sc, const bool blend)
{
    const __m128i wm = _mm_set1_epi32((int32_t)ql->write_mask);
    __m128i res, dst = _mm_setzero_si128();
    bool read = ql->read || mask != 0xF;
    Lanes s = *sc;
    int k;

    for (k = 0; k < 4; k++) {
        if (ql->prequantise) {
            /* floorf of a value in [0.5, 255.5] is its truncation */
            s.v[k] = _mm_div_ps(_mm_cvtepi32_ps(_mm_cvttps_epi32(_mm_add_ps(
                         _mm_mul_ps(clamp01(s.v[k]), _mm_set1_ps(255.0f)),
                         _mm_set1_ps(0.5f)))), _mm_set1_ps(255.0f));
        }
    }
    if (read) {
        dst = load_quad(r, cover);
    }
    if (blend) {
        Lanes d, o;

        mask &= ~discarded(ql->discard, &s);
        if (!mask) {
            return;
        }
        for (k = 0; k < 4; k++) {
            d.v[k] = _mm_div_ps(_mm_cvtepi32_ps(_mm_and_si128(
                         _mm_srli_epi32(dst, 8 * k), _mm_set1_epi32(0xFF))),
                         _mm_set1_ps(255.0f));
        }
        for (k = 0; k < 4; k++) {
            o.v[k] = combine(ql->comb[k], s.v[k], d.v[k],
                             factor(ql->src_factor[k], k, &s, &d,
                                    ql->const_color, false),
                             factor(ql->dst_factor[k], k, &s, &d,
                                    ql->const_color, true));
        }
        res = pack8888(&o);
    } else {
        res = pack8888(&s);
    }
    if (read) {
        static const int32_t lane[4][4] = {
            { -1, 0, 0, 0 }, { 0, -1, 0, 0 }, { 0, 0, -1, 0 }, { 0, 0, 0, -1 },
        };
        __m128i m = _mm_setzero_si128();
        unsigned i;

        for (i = 0; i < 4; i++) {
            if (mask & (1u << i)) {
                m = _mm_or_si128(m, _mm_loadu_si128((const __m128i *)lane[i]));
            }
        }
        res = select_i(_mm_and_si128(m, wm), res, dst);
    }
    store_quad(r, mask, cover, res);
}

/* the two rows of quad (x, y) in a 32-bit surface */
static inline void quad_rows(uint8_t *base, const R300Tiling *tl, int x,
                             int y, uint8_t *r[2])
{
    r[0] = base + r300_tile_offset(tl, x, y);
    r[1] = base + r300_tile_offset(tl, x, y + 1);
}

/*
 * quad_tail's depth test and write of the covered pixels `mask`: z24 =
 * clamp(roundf(z0 + w1 dz1 + w2 dz2)), clamped first (NaN: 0), then the
 * integer part and one more where the fraction, exact in float, is at
 * least one half. The pixels that pass.
 */
static inline __attribute__((always_inline)) unsigned
depth_lanes(const R300Lanes *tl, const R300QuadLanes *ql, const __m128 lin[3],
            unsigned mask, uint8_t *const zr[2])
{
    __m128 z, zt;
    __m128i z24, word, ok;
    unsigned pass;

    z = _mm_add_ps(_mm_add_ps(_mm_load_ps(tl->z[0]), _mm_mul_ps(
                       lin[1], _mm_load_ps(tl->z[1]))),
                   _mm_mul_ps(lin[2], _mm_load_ps(tl->z[2])));
    z = _mm_min_ps(_mm_max_ps(z, _mm_setzero_ps()),
                   _mm_set1_ps(16777215.0f));
    z24 = _mm_cvttps_epi32(z);
    zt = _mm_cvtepi32_ps(z24);
    z24 = _mm_sub_epi32(z24, _mm_castps_si128(_mm_cmpge_ps(
              _mm_sub_ps(z, zt), _mm_set1_ps(0.5f))));
    word = load_quad(zr, mask);
    ok = compare(ql->zfunc, z24, _mm_srli_epi32(word, 8));
    pass = mask & _mm_movemask_ps(_mm_castsi128_ps(ok));
    if (ql->zwrite && pass) {
        /* depth_z24: Z over the stencil byte, where the test passed */
        __m128i nw = _mm_or_si128(_mm_slli_epi32(z24, 8), _mm_and_si128(
                                      word, _mm_set1_epi32(0xFF)));
        store_quad(zr, pass, mask, select_i(ok, nw, word));
    }
    return pass;
}

/*
 * The move of sc (C0..C3) and the colour write of the pixels `pass` of the
 * covered ones `cover`: the interpreter's MAD src * 1 + 0, then its clamps
 * (component k is the program's channel sel[k]). clamp01(x * 1 + 0) is
 * clamp01(x) for every x (-0 and NaN give +0), and without blending the
 * write clamps the component before anything else reads it (the
 * pre-quantise or pack8888): there the move changes nothing.
 */
static inline __attribute__((always_inline)) void
move_colour(const R300QuadLanes *ql, uint8_t *const cr[2], unsigned pass,
            unsigned cover, const Lanes *sc, const bool blend)
{
    Lanes src = *sc;
    int ch;

    for (ch = 0; ch < 4 && blend; ch++) {
        if (ql->clamp[ch]) {
            src.v[ch] = clamp01(src.v[ch]);
        } else {
            src.v[ch] = _mm_add_ps(_mm_mul_ps(src.v[ch], _mm_set1_ps(1.0f)),
                                   _mm_setzero_ps());
        }
    }
    colour_lanes(ql, cr, pass, cover, &src, blend);
}

/*
 * The lanes path of four pixels: lin[k] and w[k] the screen-linear and the
 * attributes' weights of the triangle's vertex k (one pixel a lane), `mask`
 * the covered pixels; pixel i's depth and colour words are at zr[i >> 1] +
 * 4 * (i & 1) and cr[...] (a quad's two rows, or a row's four pixels). ql
 * is the draw state's lanes or a span's copy of them, which its stores
 * cannot alias (so the loop need not reload it).
 */
static inline __attribute__((always_inline)) unsigned
shade_lanes(const R300Tri *t, const R300QuadLanes *ql, const __m128 lin[3],
            const __m128 w[3], unsigned mask, uint8_t *const zr[2],
            uint8_t *const cr[2], const bool depth, const bool blend,
            const bool tex)
{
    static const uint8_t count[16] = { 0, 1, 1, 2, 1, 2, 2, 3,
                                       1, 2, 2, 3, 2, 3, 3, 4 };
    const R300DrawState *ds = t->ds;
    const R300Lanes *tl = &t->lanes;
    const R300USMove *m = &ds->move;
    unsigned pass = mask;
    Lanes src;
    int ch;

    if (depth) {
        pass = depth_lanes(tl, ql, lin, mask, zr);
    }
    if (!pass || !ql->colour) {
        return count[pass];
    }
    if (tex) {
        const R300TexUnit *u = &ds->tx[m->tex_op.unit & 15];
        Lanes coord, res;

        rs_lanes(tl->coord, w, &coord);
        if (m->tex_op.dst == m->src && ql->tex_lanes) {
            /* US_OUT_FMT's components straight from the sums */
            r300_tx_lanes_sample(u, m->tex_op.inst, ql->tex_sel, coord.v,
                                 src.v);
        } else {
            if (m->tex_op.dst == m->src) {
                float crow[4][4], res[4][4];

                lanes_to_rows(&coord, crow);
                r300_tx_sample_quad(u, m->tex_op.inst,
                                    (const float (*)[4])crow, res);
                rows_to_lanes((const float (*)[4])res, &src);
            } else {
                src = coord;
            }
            /* US_OUT_FMT's components from the program's R, G, B, A */
            res = src;
            for (ch = 0; ch < 4; ch++) {
                src.v[ch] = res.v[ql->sel[ch]];
            }
        }
    } else {
        /* the moved RS vector, its lanes in C0..C3 order already */
        rs_lanes(tl->src, w, &src);
    }
    move_colour(ql, cr, pass, mask, &src, blend);
    return count[pass];
}

void r300_quad_lanes(void *opaque, const G3DQuad *q, int thread)
{
    const R300Tri *t = opaque;
    const R300DrawState *ds = t->ds;
    const R300QuadLanes *ql = &ds->lanes;
    int x = q->x + t->sample;
    __m128 lin[3], bar[3];
    uint8_t *zr[2] = { NULL, NULL }, *cr[2] = { NULL, NULL };

    weights(q->lin, lin);
    if (ds->perspective) {
        weights(q->bary, bar);
    }
    if (ds->depth) {
        quad_rows(ds->zbase, &ds->ztiling, x, q->y, zr);
    }
    if (ql->colour) {
        const R300Target *tg = &ds->cb[ds->move.target];

        if (ql->same_layout && zr[0]) {
            cr[0] = tg->base + (zr[0] - ds->zbase);
            cr[1] = tg->base + (zr[1] - ds->zbase);
        } else {
            quad_rows(tg->base, &tg->tiling, x, q->y, cr);
        }
    }
    r300_zpass_add(ds, thread, shade_lanes(
        t, ql, lin, ds->perspective ? bar : lin, q->mask & 0xF, zr, cr,
        ds->depth != NULL, ql->blend, ds->move.tex && ql->src_shader_order));
}

/* pixels x .. x + n - 1 inside [x0, x1), pixel x in bit 0 */
static inline unsigned group_mask(int x, int n, int x0, int x1)
{
    unsigned m = (1u << n) - 1;

    if (x < x0) {
        m &= m << (x0 - x);
    }
    if (x + n > x1) {
        m &= m >> (x + n - x1);
    }
    return m;
}

/* the cache lines of the n bytes from p, to be written soon */
static inline void prefetch_run(const uint8_t *p, int n)
{
    int o;

    for (o = 0; o < n; o += 64) {
        __builtin_prefetch(p + o, 1);
    }
}

/*
 * A span's row y (of the rows before y1) from pixel xa: in linear
 * layouts, the depth and colour words of pixel xa (zrow with `depth`,
 * crow with a colour target), and the next row's run [xa, x1) asked
 * for ahead of time (the spans walk runs of up to 128 pixels, each row
 * of a 32-bit surface 4 KiB or so from the last: short streams that
 * the hardware prefetchers pick up late); the edge values of its n
 * samples from xa on, edge k at sample j in ev[k * n + j], and their
 * step to the next n, sv[k] (all integers below 2^53, so exact: the
 * sample's offset j * ex comes from the triangle's table, R300Span.jx,
 * as the same exact double)
 */
static inline __attribute__((always_inline)) void
span_row(const R300Tri *t, const R300QuadLanes *ql, int xa, int x1, int y,
         int y1, bool depth, uint8_t **zrow, uint8_t **crow, int n,
         double *ev, double sv[3])
{
    const R300DrawState *ds = t->ds;
    const R300Span *sp = &t->span;
    const R300Target *tg = &ds->cb[ds->move.target];
    int k, j;

    if (depth && ds->ztiling.linear) {
        *zrow = ds->zbase + r300_tile_offset(&ds->ztiling, xa, y);
        if (y + 1 < y1) {
            prefetch_run(*zrow + ds->ztiling.pitch * 4, (x1 - xa) * 4);
        }
    }
    if (ql->colour && tg->tiling.linear) {
        *crow = tg->base + r300_tile_offset(&tg->tiling, xa, y);
        if (y + 1 < y1) {
            prefetch_run(*crow + tg->tiling.pitch * 4, (x1 - xa) * 4);
        }
    }
    for (k = 0; k < 3; k++) {
        double e = (double)(sp->e0[k] + sp->ex[k] * xa + sp->ey[k] * y);

#pragma GCC unroll 8
        for (j = 0; j < n; j++) {
            ev[k * n + j] = e + sp->jx[k][j];
        }
        sv[k] = n * (double)sp->ex[k];
    }
}

/*
 * The triangle's covered pixels [x0, x1) x [y0, y1) (common/raster.h
 * G3DBlockFn) four of a row at a time, from x0 rounded down to a multiple
 * of 4: each pixel's weights are the quads' (g3d_weights4 of its own exact
 * edge values), and its colour and depth depend on nothing else (no
 * derivatives: a fetch here is r300_tx_lanes_sample's, whose level cannot
 * change), so the bytes are those of r300_quad_lanes. Four such pixels lie
 * in one 32-bit micro tile (4 or 8 pixels wide, tile.h) or a linear row.
 * `avx`: the instance is compiled for AVX and weights the four pixels
 * with one vector of doubles (g3d_weights4_avx: the same operations).
 */
static inline __attribute__((always_inline)) void
span_lanes(void *opaque, int x0, int y0, int x1, int y1, int thread,
           const int persp, const bool depth, const bool blend,
           const bool tex, const bool avx)
{
    const R300Tri *t = opaque;
    const R300DrawState *ds = t->ds;
    const R300QuadLanes qlc = ds->lanes, *ql = &qlc;
    const R300Span *sp = &t->span;
    const R300Target *tg = &ds->cb[ds->move.target];
    /* a copy the stores below cannot alias: kept in registers */
    const G3DEdges g = sp->g;
    const bool zlinear = ds->ztiling.linear, clinear = tg->tiling.linear;
    int xa = x0 & ~3, y, x;
    uint64_t passed = 0;

    for (y = y0; y < y1; y++) {
        G3DWalk4 walk;
        double ev[3][4], sv[3];
        /* linear layouts: the row's first group, then 16 bytes a group */
        uint8_t *zrow = NULL, *crow = NULL;

        span_row(t, ql, xa, x1, y, y1, depth, &zrow, &crow, 4, &ev[0][0],
                 sv);
        g3d_walk4_start(&walk, (const double (*)[4])ev, sv, avx);
        for (x = xa; x < x1; x += 4) {
            unsigned mask = 0xF;
            uint8_t *zr[2] = { NULL, NULL }, *cr[2] = { NULL, NULL };
            __m128 lin[3], bar[3];

            if (__builtin_expect(x < x0 || x + 4 > x1, 0)) {
                mask = group_mask(x, 4, x0, x1);
            }
            g3d_walk4_next(&g, &walk, lin, persp ? bar : NULL, persp == 2,
                           avx);
            if (depth) {
                zr[0] = zlinear ? zrow + 4 * (x - xa) : ds->zbase +
                        r300_tile_offset(&ds->ztiling, x, y);
                zr[1] = zr[0] + 8;
            }
            if (ql->colour) {
                cr[0] = clinear ? crow + 4 * (x - xa)
                        : ql->same_layout && zr[0]
                        ? tg->base + (zr[0] - ds->zbase)
                        : tg->base + r300_tile_offset(&tg->tiling, x, y);
                cr[1] = cr[0] + 8;
            }
            passed += shade_lanes(t, ql, lin, persp ? bar : lin, mask, zr,
                                  cr, depth, blend, tex);
        }
    }
    r300_zpass_add(ds, thread, passed);
}

/*
 * span_lanes instantiated for each weighting (screen-linear, perspective,
 * perspective with every 1/w positive), depth, blend and fetch setting, so
 * that each inner loop holds only its own work; for SSE2 and, where the
 * compiler can target it, for AVX (chosen at run time)
 */
#define SPAN_LANES(p, d, b, x)                                            \
static void span_lanes_##p##d##b##x(void *o, int x0, int y0, int x1,     \
                                    int y1, int thread)                   \
{                                                                         \
    span_lanes(o, x0, y0, x1, y1, thread, p, d, b, x, false);             \
}
/* the eight depth, blend and fetch settings of weighting p */
#define SPAN_LANES_8(S, p)                                                \
    S(p, 0, 0, 0) S(p, 0, 0, 1) S(p, 0, 1, 0) S(p, 0, 1, 1)               \
    S(p, 1, 0, 0) S(p, 1, 0, 1) S(p, 1, 1, 0) S(p, 1, 1, 1)
#define SPAN_LANES_FN_8(f, p)                                             \
    f##p##000, f##p##001, f##p##010, f##p##011,                           \
    f##p##100, f##p##101, f##p##110, f##p##111
SPAN_LANES_8(SPAN_LANES, 0)
SPAN_LANES_8(SPAN_LANES, 1)
SPAN_LANES_8(SPAN_LANES, 2)

#ifdef G3D_WEIGHTS_AVX
#define SPAN_LANES_AVX(p, d, b, x)                                        \
static __attribute__((target("avx"))) void                               \
span_lanes_avx_##p##d##b##x(void *o, int x0, int y0, int x1, int y1,     \
                            int thread)                                   \
{                                                                         \
    span_lanes(o, x0, y0, x1, y1, thread, p, d, b, x, true);              \
}
SPAN_LANES_8(SPAN_LANES_AVX, 0)
SPAN_LANES_8(SPAN_LANES_AVX, 1)
SPAN_LANES_8(SPAN_LANES_AVX, 2)
#endif

static G3DBlockFn *const span_lanes_fn[2][24] = {
    { SPAN_LANES_FN_8(span_lanes_, 0), SPAN_LANES_FN_8(span_lanes_, 1),
      SPAN_LANES_FN_8(span_lanes_, 2) },
#ifdef G3D_WEIGHTS_AVX
    { SPAN_LANES_FN_8(span_lanes_avx_, 0), SPAN_LANES_FN_8(span_lanes_avx_, 1),
      SPAN_LANES_FN_8(span_lanes_avx_, 2) },
#endif
};

#ifdef G3D_WEIGHTS_WIDE
/*
 * ---- eight pixels of a row a group (AVX2, AVX-512) -------------------------
 *
 * span_lanes's unblended, untextured draws with eight pixels of a row in
 * the lanes of 256-bit vectors: the same operations per pixel as
 * shade_lanes (the weights by g3d_walk8_next, raster.h), the Z24 test and
 * write and the colour pack of the eight at once. Eight pixels from a
 * multiple of 8 lie in one 32-bit micro tile 8 wide (the linear ones), or
 * in two 4x2 ones side by side (32 bytes apart, in one macro tile): pixels
 * 4..7 are `half` bytes after pixels 0..3.
 */
#define T8 __attribute__((target("avx2")))

/* the eight pixels' words; only the covered ones are read */
static inline __attribute__((always_inline)) T8 __m256i
load8(uint8_t *p, unsigned half, unsigned cover)
{
    uint8_t *r[2][2] = { { p, p + 8 }, { p + half, p + half + 8 } };

    if (cover == 0xFF) {
        return _mm256_loadu2_m128i((const __m128i *)(p + half),
                                   (const __m128i *)p);
    }
    return _mm256_set_m128i(load_quad(r[1], cover >> 4),
                            load_quad(r[0], cover & 0xF));
}

/*
 * The pixels `mask` of val; with every pixel covered, all eight (the
 * others as they were read)
 */
static inline __attribute__((always_inline)) T8 void
store8(uint8_t *p, unsigned half, unsigned mask, unsigned cover, __m256i val)
{
    uint8_t *r[2][2] = { { p, p + 8 }, { p + half, p + half + 8 } };

    if (cover == 0xFF) {
        _mm256_storeu2_m128i((__m128i *)(p + half), (__m128i *)p, val);
        return;
    }
    store_quad(r[0], mask & 0xF, cover & 0xF, _mm256_castsi256_si128(val));
    store_quad(r[1], mask >> 4, cover >> 4, _mm256_extracti128_si256(val, 1));
}

/* lane i all ones where bit i of m is set */
static inline __attribute__((always_inline)) T8 __m256i lanes_of_mask(unsigned m)
{
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);

    return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(m), bit),
                              bit);
}

/* compare() of eight lanes */
static inline __attribute__((always_inline)) T8 __m256i
compare8(G3DCompare f, __m256i in, __m256i st)
{
    const __m256i ones = _mm256_set1_epi32(-1);

    switch (f) {
    case G3D_CMP_NEVER:    return _mm256_setzero_si256();
    case G3D_CMP_LESS:     return _mm256_cmpgt_epi32(st, in);
    case G3D_CMP_EQUAL:    return _mm256_cmpeq_epi32(in, st);
    case G3D_CMP_LEQUAL:   return _mm256_xor_si256(_mm256_cmpgt_epi32(in, st),
                                                   ones);
    case G3D_CMP_GREATER:  return _mm256_cmpgt_epi32(in, st);
    case G3D_CMP_NOTEQUAL: return _mm256_xor_si256(_mm256_cmpeq_epi32(in, st),
                                                   ones);
    case G3D_CMP_GEQUAL:   return _mm256_xor_si256(_mm256_cmpgt_epi32(st, in),
                                                   ones);
    default:               return ones;
    }
}

/* the triangle's lanes (R300Lanes) in eight */
typedef struct Lanes8Tri {
    __m256 src[4][3], z[3];
} Lanes8Tri;

/* a span8 call's constants, in registers */
typedef struct Span8Const {
    Lanes8Tri l8;
    __m256i wm;                 /* the target's write mask */
    unsigned zhalf, chalf;      /* pixels 4..7 after pixels 0..3 */
    bool zlinear, clinear, colour, read, prequantise;
} Span8Const;

/* the weights of span8's next group, then a step of the walk */
static inline __attribute__((always_inline)) T8 void
span8_weights(const G3DEdges *g, G3DWalk8 *walk, __m256 lin[3],
              __m256 bar[3], const int persp, const bool avx512)
{
    int k;

    /* persp 1, 2, 3: G3D_WEIGHTS_ANY, _POSITIVE, _UNIT_W */
    g3d_walk8_next(g, walk, lin, persp ? bar : NULL, persp ? persp - 1 : 0,
                   avx512);
    if (!persp) {
        for (k = 0; k < 3; k++) {
            bar[k] = lin[k];
        }
    }
}

/*
 * One group of span8 from its weights: the eight pixels from x of row y,
 * `mask` the covered ones; the pixels that passed the depth test
 */
static inline __attribute__((always_inline)) T8 unsigned
span8_shade(const R300Tri *t, const R300QuadLanes *ql, const Span8Const *sc,
            const __m256 lin[3], const __m256 bar[3], int x, int y, int xa,
            uint8_t *zrow, uint8_t *crow, unsigned mask, const bool depth,
            const bool plain)
{
    const R300DrawState *ds = t->ds;
    const R300Target *tg = &ds->cb[ds->move.target];
    const Lanes8Tri *l8 = &sc->l8;
    unsigned pass = mask;
    uint8_t *zp = NULL, *cp;
    __m256 c[4];
    __m256i res;
    int k;

    if (depth) {
        /* shade_lanes's Z24 test and write, eight lanes */
        __m256 z, zt;
        __m256i z24, word, ok;

        zp = sc->zlinear ? zrow + 4 * (x - xa) : ds->zbase +
             r300_tile_offset(&ds->ztiling, x, y);
        z = _mm256_add_ps(_mm256_add_ps(l8->z[0], _mm256_mul_ps(
                              lin[1], l8->z[1])),
                          _mm256_mul_ps(lin[2], l8->z[2]));
        z = _mm256_min_ps(_mm256_max_ps(z, _mm256_setzero_ps()),
                          _mm256_set1_ps(16777215.0f));
        z24 = _mm256_cvttps_epi32(z);
        zt = _mm256_cvtepi32_ps(z24);
        z24 = _mm256_sub_epi32(z24, _mm256_castps_si256(
                  _mm256_cmp_ps(_mm256_sub_ps(z, zt),
                                _mm256_set1_ps(0.5f), _CMP_GE_OQ)));
        word = load8(zp, sc->zhalf, mask);
        ok = compare8(ql->zfunc, z24, _mm256_srli_epi32(word, 8));
        pass &= _mm256_movemask_ps(_mm256_castsi256_ps(ok));
        if (ql->zwrite && pass) {
            __m256i nw = _mm256_or_si256(
                _mm256_slli_epi32(z24, 8),
                _mm256_and_si256(word, _mm256_set1_epi32(0xFF)));

            store8(zp, sc->zhalf, pass, mask,
                   _mm256_blendv_epi8(word, nw, ok));
        }
    }
    if (!pass || !sc->colour) {
        return pass;
    }
    /* colour_lanes without blend: the move changes nothing */
    cp = sc->clinear ? crow + 4 * (x - xa)
         : ql->same_layout && zp ? tg->base + (zp - ds->zbase)
         : tg->base + r300_tile_offset(&tg->tiling, x, y);
    for (k = 0; k < 4; k++) {
        c[k] = _mm256_add_ps(_mm256_add_ps(
                   _mm256_mul_ps(bar[0], l8->src[k][0]),
                   _mm256_mul_ps(bar[1], l8->src[k][1])),
                   _mm256_mul_ps(bar[2], l8->src[k][2]));
        if (sc->prequantise) {
            c[k] = _mm256_div_ps(_mm256_cvtepi32_ps(
                       _mm256_cvttps_epi32(_mm256_add_ps(
                           _mm256_mul_ps(_mm256_min_ps(
                               _mm256_max_ps(c[k], _mm256_setzero_ps()),
                               _mm256_set1_ps(1.0f)),
                               _mm256_set1_ps(255.0f)),
                           _mm256_set1_ps(0.5f)))),
                       _mm256_set1_ps(255.0f));
        }
    }
    res = g3d_unorm8x8_lanes(c);
    if (plain && pass == 0xFF) {
        /* a linear row's eight words are contiguous */
        _mm256_storeu_si256((__m256i *)cp, res);
        return pass;
    }
    if (sc->read || pass != 0xFF) {
        /* the written bits of the passed pixels: select_i */
        __m256i m = _mm256_and_si256(lanes_of_mask(pass), sc->wm);

        res = _mm256_or_si256(_mm256_and_si256(m, res),
                              _mm256_andnot_si256(m, load8(cp, sc->chalf,
                                                           mask)));
    }
    store8(cp, sc->chalf, pass, mask, res);
    return pass;
}

/* an eight-pixel span's row: its first group's rows and edge walk */
static inline __attribute__((always_inline)) T8 void
span8_row(const R300Tri *t, const R300QuadLanes *ql, int xa, int x1, int y,
          int y1, bool depth, uint8_t **zrow, uint8_t **crow, G3DWalk8 *walk,
          bool avx512)
{
    double ev[3][8], sv[3];

    span_row(t, ql, xa, x1, y, y1, depth, zrow, crow, 8, &ev[0][0], sv);
    g3d_walk8_start(walk, (const double (*)[8])ev, sv, avx512);
}

/*
 * span_lanes without blend or fetch, eight pixels a group from x0 rounded
 * down to a multiple of 8; `avx512`: the weights' doubles in one AVX-512
 * vector (g3d_weights8_avx512), else in two AVX ones. `swap`: the
 * triangle's internal vertices 1 and 2 are the caller's 2 and 1
 * (G3DEdges.perm[1] == 2), known to the instance, so that the walk's
 * exchange of the weights costs nothing a group. `plain`: no depth
 * test, and the colour target is linear and written without channel
 * mask, blend or pre-quantise (the loop holds no test of them). Whole
 * groups go two a step: the second group's weights (a long chain of
 * conversions and a division) overlap the first's.
 */
static inline __attribute__((always_inline)) T8 void
span8(void *opaque, int x0, int y0, int x1, int y1, int thread,
      const int persp, const bool depth, const bool avx512, const bool swap,
      const bool plain)
{
    static const uint8_t count[16] = { 0, 1, 1, 2, 1, 2, 2, 3,
                                       1, 2, 2, 3, 2, 3, 3, 4 };
    const R300Tri *t = opaque;
    const R300DrawState *ds = t->ds;
    const R300QuadLanes qlc = ds->lanes, *ql = &qlc;
    const R300Span *sp = &t->span;
    const R300Target *tg = &ds->cb[ds->move.target];
    /* copies the stores below cannot alias: kept in registers */
    G3DEdges g = sp->g;
    Span8Const sc;
    int xa = x0 & ~7, y, x, k, j;
    uint64_t passed = 0;
    unsigned pass;

    sc.zlinear = ds->ztiling.linear;
    sc.clinear = plain || tg->tiling.linear;
    sc.colour = plain || ql->colour;
    sc.read = !plain && ql->read;
    sc.prequantise = !plain && ql->prequantise;
    sc.zhalf = ds->ztiling.uw >= 3 ? 16 : 32;
    sc.chalf = tg->tiling.uw >= 3 ? 16 : 32;
    sc.wm = _mm256_set1_epi32((int32_t)ql->write_mask);
    for (k = 0; k < 4; k++) {
        for (j = 0; j < 3; j++) {
            sc.l8.src[k][j] = _mm256_broadcast_ss(&t->lanes.src[k][j][0]);
        }
    }
    for (j = 0; j < 3; j++) {
        sc.l8.z[j] = _mm256_broadcast_ss(&t->lanes.z[j][0]);
    }
    /* the only use of perm in the walk, now a constant */
    g.perm[1] = swap ? 2 : 1;
    if (!depth) {
        /* every covered pixel passes */
        passed = (uint64_t)(x1 - x0) * (y1 - y0);
    }
    for (y = y0; y < y1; y++) {
        G3DWalk8 walk;
        /* linear layouts: the row's first group, then 32 bytes a group */
        uint8_t *zrow = NULL, *crow = NULL;

        span8_row(t, ql, xa, x1, y, y1, depth, &zrow, &crow, &walk, avx512);
        for (x = xa; x < x1;) {
            __m256 lin[2][3], bar[2][3];
            unsigned mask = 0xFF;

            /* whole groups two at a time, without the mask's tests */
            while (x >= x0 && x + 16 <= x1) {
                span8_weights(&g, &walk, lin[0], bar[0], persp, avx512);
                span8_weights(&g, &walk, lin[1], bar[1], persp, avx512);
                for (k = 0; k < 2; k++) {
                    pass = span8_shade(t, ql, &sc, lin[k], bar[k], x, y, xa,
                                       zrow, crow, 0xFF, depth, plain);
                    if (depth) {
                        passed += count[pass & 0xF] + count[pass >> 4];
                    }
                    x += 8;
                }
            }
            if (x >= x1) {
                break;
            }
            if (x < x0 || x + 8 > x1) {
                mask = group_mask(x, 8, x0, x1);
            }
            span8_weights(&g, &walk, lin[0], bar[0], persp, avx512);
            pass = span8_shade(t, ql, &sc, lin[0], bar[0], x, y, xa, zrow,
                               crow, mask, depth, plain);
            if (depth) {
                passed += count[pass & 0xF] + count[pass >> 4];
            }
            x += 8;
        }
    }
    r300_zpass_add(ds, thread, passed);
}

/*
 * span8 for each weighting (p: 0 screen-linear, 1 perspective, 2 every 1/w
 * positive, 3 and g3d_inv_w_unit), depth setting (m: 0 none, 1 depth, 2
 * none and a plain colour write) and vertex order (s), for AVX2 and
 * AVX-512
 */
#define SPAN8_24(S)                                                       \
    S(0, 0, 0) S(0, 1, 0) S(0, 2, 0) S(1, 0, 0) S(1, 1, 0) S(1, 2, 0)     \
    S(2, 0, 0) S(2, 1, 0) S(2, 2, 0) S(0, 0, 1) S(0, 1, 1) S(0, 2, 1)     \
    S(1, 0, 1) S(1, 1, 1) S(1, 2, 1) S(2, 0, 1) S(2, 1, 1) S(2, 2, 1)     \
    S(3, 0, 0) S(3, 1, 0) S(3, 2, 0) S(3, 0, 1) S(3, 1, 1) S(3, 2, 1)
#define SPAN8_AVX2(p, m, s)                                               \
static T8 void span8_avx2_##p##m##s(void *o, int x0, int y0, int x1,     \
                                    int y1, int thread)                   \
{                                                                         \
    span8(o, x0, y0, x1, y1, thread, p, m == 1, false, s, m == 2);        \
}
#define SPAN8_AVX512(p, m, s)                                             \
static __attribute__((target("avx2,avx512f,avx512vl"))) G3D_NO_CONTRACT \
void span8_avx512_##p##m##s(void *o, int x0, int y0, int x1, int y1,      \
                            int thread)                                   \
{                                                                         \
    span8(o, x0, y0, x1, y1, thread, p, m == 1, true, s, m == 2);         \
}
SPAN8_24(SPAN8_AVX2)
SPAN8_24(SPAN8_AVX512)

#define SPAN8_FN_12(f, s)                                                 \
    { f##00##s, f##01##s, f##02##s, f##10##s, f##11##s, f##12##s,         \
      f##20##s, f##21##s, f##22##s, f##30##s, f##31##s, f##32##s }
/* [AVX-512][swap][weighting * 3 + m] */
static G3DBlockFn *const span8_fn[2][2][12] = {
    { SPAN8_FN_12(span8_avx2_, 0), SPAN8_FN_12(span8_avx2_, 1) },
    { SPAN8_FN_12(span8_avx512_, 0), SPAN8_FN_12(span8_avx512_, 1) },
};

/*
 * ---- sixteen pixels of a row a group (AVX-512 with BW) ---------------------
 *
 * span8's draws into a linear colour target written without channel mask,
 * blend or pre-quantise, with no depth test or a linear Z24 one (Mesa's
 * and the benchmark's Gouraud draws), sixteen pixels of a row a group: the
 * weights of its two groups of eight by g3d_walk8_next (one vector of
 * eight doubles each, span8's operations), joined into 512-bit vectors of
 * floats, then span8_shade's interpolation, Z24 test and write and pack
 * of the sixteen at once, each lane's operations in span8_shade's order.
 * On Intel cores any 512-bit uop in flight closes port 1 to vector work
 * (Intel's optimisation manual, Skylake Server), which span8's 256-bit
 * half of the work then pays for; here it is half as many uops. The
 * covered pixels are a mask register: the depth and colour words are
 * read and written masked (a masked lane is neither read nor written, and
 * cannot fault), so a row's ends need no other code. The next group's
 * weights are computed before this group's pixels, so that their
 * divisions (a long latency) run while the pixels are.
 */
#define T16 __attribute__((target("avx2,popcnt,avx512f,avx512vl,avx512bw")))

/* the weights of span16's next group, then two steps of the walk */
static inline __attribute__((always_inline)) T16 void
span16_weights(const G3DEdges *g, G3DWalk8 *walk, __m512 lin[3],
               __m512 bar[3], const int persp)
{
    __m256 l[2][3], b[2][3];
    int h, k;

    for (h = 0; h < 2; h++) {
        span8_weights(g, walk, l[h], b[h], persp, true);
    }
    for (k = 0; k < 3; k++) {
        lin[k] = g3d_join16_ps(l[0][k], l[1][k]);
        bar[k] = persp ? g3d_join16_ps(b[0][k], b[1][k]) : lin[k];
    }
}

/* the Z24 words' test (compare8's) */
static inline __attribute__((always_inline)) T16 __mmask16
compare16(G3DCompare f, __m512i in, __m512i st)
{
    switch (f) {
    case G3D_CMP_NEVER:    return 0;
    case G3D_CMP_LESS:     return _mm512_cmplt_epi32_mask(in, st);
    case G3D_CMP_EQUAL:    return _mm512_cmpeq_epi32_mask(in, st);
    case G3D_CMP_LEQUAL:   return _mm512_cmple_epi32_mask(in, st);
    case G3D_CMP_GREATER:  return _mm512_cmpgt_epi32_mask(in, st);
    case G3D_CMP_NOTEQUAL: return _mm512_cmpneq_epi32_mask(in, st);
    case G3D_CMP_GEQUAL:   return _mm512_cmpge_epi32_mask(in, st);
    default:               return 0xFFFF;
    }
}

/*
 * span8_shade of sixteen pixels from weights lin and bar: the covered
 * pixels `mask` of the linear rows' words zp (with `depth`) and cp; the
 * pixels that passed
 */
static inline __attribute__((always_inline)) T16 __mmask16
span16_shade(const R300QuadLanes *ql, const __m512 src[4][3],
             const __m512 z[3], const __m512 lin[3], const __m512 bar[3],
             uint8_t *zp, uint8_t *cp, __mmask16 mask, const bool depth)
{
    __mmask16 pass = mask;
    __m512 c[4];
    int k;

    if (depth) {
        __m512 zf, zt;
        __m512i z24, word, nw;

        zf = _mm512_add_ps(_mm512_add_ps(z[0], _mm512_mul_ps(lin[1], z[1])),
                           _mm512_mul_ps(lin[2], z[2]));
        zf = _mm512_min_ps(_mm512_max_ps(zf, _mm512_setzero_ps()),
                           _mm512_set1_ps(16777215.0f));
        z24 = _mm512_cvttps_epi32(zf);
        zt = _mm512_cvtepi32_ps(z24);
        /* one more where the fraction is at least one half */
        z24 = _mm512_mask_add_epi32(
            z24, _mm512_cmp_ps_mask(_mm512_sub_ps(zf, zt),
                                    _mm512_set1_ps(0.5f), _CMP_GE_OQ),
            z24, _mm512_set1_epi32(1));
        word = _mm512_maskz_loadu_epi32(mask, zp);
        pass &= compare16(ql->zfunc, z24, _mm512_srli_epi32(word, 8));
        if (ql->zwrite && pass) {
            /* depth_z24: Z over the stencil byte */
            nw = _mm512_or_si512(_mm512_slli_epi32(z24, 8), _mm512_and_si512(
                                     word, _mm512_set1_epi32(0xFF)));
            _mm512_mask_storeu_epi32(zp, pass, nw);
        }
        if (!pass) {
            return 0;
        }
    }
    for (k = 0; k < 4; k++) {
        c[k] = _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(bar[0], src[k][0]),
                                           _mm512_mul_ps(bar[1], src[k][1])),
                             _mm512_mul_ps(bar[2], src[k][2]));
    }
    _mm512_mask_storeu_epi32(cp, pass, g3d_unorm8x16_lanes(c));
    return pass;
}

static inline __attribute__((always_inline)) T16 void
span16(void *opaque, int x0, int y0, int x1, int y1, int thread,
       const int persp, const bool depth, const bool swap)
{
    const R300Tri *t = opaque;
    const R300DrawState *ds = t->ds;
    /* copies the stores below cannot alias: kept in registers */
    const R300QuadLanes qlc = ds->lanes, *ql = &qlc;
    G3DEdges g = t->span.g;
    __m512 src[4][3], z[3];
    int xa = x0 & ~15, y, x, k, j;
    uint64_t passed = 0;

    for (k = 0; k < 4; k++) {
        for (j = 0; j < 3; j++) {
            src[k][j] = _mm512_set1_ps(t->lanes.src[k][j][0]);
        }
    }
    for (j = 0; j < 3; j++) {
        z[j] = _mm512_set1_ps(t->lanes.z[j][0]);
    }
    /* the only use of perm in the walk, now a constant */
    g.perm[1] = swap ? 2 : 1;
    if (!depth) {
        /* every covered pixel passes */
        passed = (uint64_t)(x1 - x0) * (y1 - y0);
    }
    for (y = y0; y < y1; y++) {
        G3DWalk8 walk;
        __m512 lin[3], bar[3], nlin[3], nbar[3];
        uint8_t *zrow = NULL, *crow = NULL;

        span8_row(t, ql, xa, x1, y, y1, depth, &zrow, &crow, &walk, true);
        span16_weights(&g, &walk, nlin, nbar, persp);
        for (x = xa; x < x1; x += 16) {
            __mmask16 pass;

            for (k = 0; k < 3; k++) {
                lin[k] = nlin[k];
                bar[k] = nbar[k];
            }
            if (x + 16 < x1) {
                span16_weights(&g, &walk, nlin, nbar, persp);
            }
            pass = span16_shade(ql, (const __m512 (*)[3])src, z, lin, bar,
                                depth ? zrow + 4 * (x - xa) : NULL,
                                crow + 4 * (x - xa),
                                group_mask(x, 16, x0, x1), depth);
            if (depth) {
                passed += __builtin_popcount(pass);
            }
        }
    }
    r300_zpass_add(ds, thread, passed);
}

/* span16 for each weighting, depth setting and vertex order */
#define SPAN16(p, d, s)                                                   \
static T16 G3D_NO_CONTRACT void                                          \
span16_##p##d##s(void *o, int x0, int y0, int x1, int y1, int thread)    \
{                                                                         \
    span16(o, x0, y0, x1, y1, thread, p, d, s);                           \
}
#define SPAN16_4(p) SPAN16(p, 0, 0) SPAN16(p, 0, 1) SPAN16(p, 1, 0)       \
                    SPAN16(p, 1, 1)
SPAN16_4(0)
SPAN16_4(1)
SPAN16_4(2)
SPAN16_4(3)
#define SPAN16_FN_4(d, s) { span16_0##d##s, span16_1##d##s, span16_2##d##s, \
                            span16_3##d##s }

/* [depth][swap][weighting] */
static G3DBlockFn *const span16_fn[2][2][4] = {
    { SPAN16_FN_4(0, 0), SPAN16_FN_4(0, 1) },
    { SPAN16_FN_4(1, 0), SPAN16_FN_4(1, 1) },
};
#endif

bool r300_lanes_span16(const R300DrawState *ds)
{
    const R300QuadLanes *ql = &ds->lanes;

    return ql->span && ql->colour && !ql->read && !ql->prequantise &&
           !(ds->move.tex && ql->src_shader_order) &&
           ds->cb[ds->move.target].tiling.linear &&
           (!ds->depth || ds->ztiling.linear);
}

#if defined(G3D_WEIGHTS_WIDE) && defined(R300_TX_LANES8)
#define R300_SPAN_TEX8 1
/*
 * span_lanes of a draw that moves its fetch (r300_tx_lanes_sample) into a
 * colour target, eight pixels a step where the CPU has AVX2: the eight
 * pixels' weights at once (g3d_walk8_next: with AVX2 the two groups of
 * four as span_lanes walks them, with AVX-512 in one vector of doubles,
 * the same operations per lane), the texture coordinate (rs_lanes's
 * (w0 a0 + w1 a1) + w2 a2) and the fetch of the eight pixels at once
 * (tx-lanes8.h r300_tx_lanes_sample8: the same operations per lane; a
 * unit whose base level lies wholly in the mapped chain), then each
 * group's depth test, move and colour write as shade_lanes does them. The
 * second group's texels are read before the first group is written:
 * tex_overlaps keeps every draw whose texture shares bytes with its
 * target or depth buffer off the spans, so the order cannot show.
 */
/* one group of four of span_tex8: its depth test, move and colour write */
static inline R300_AVX2_INLINE unsigned
tex8_group(const R300Tri *t, const R300QuadLanes *ql, const __m128 lin[3],
           unsigned mask, int gx, int y, int xa, uint8_t *zrow, uint8_t *crow,
           const __m256 src8[4], bool hi, const bool depth, const bool blend)
{
    static const uint8_t count[16] = { 0, 1, 1, 2, 1, 2, 2, 3,
                                       1, 2, 2, 3, 2, 3, 3, 4 };
    const R300DrawState *ds = t->ds;
    const R300Target *tg = &ds->cb[ds->move.target];
    uint8_t *zr[2] = { NULL, NULL }, *cr[2];
    unsigned pass = mask;
    Lanes src;
    int ch;

    if (depth) {
        zr[0] = zrow ? zrow + 4 * (gx - xa)
                : ds->zbase + r300_tile_offset(&ds->ztiling, gx, y);
        zr[1] = zr[0] + 8;
        pass = depth_lanes(&t->lanes, ql, lin, pass, zr);
        if (!pass) {
            return 0;
        }
    }
    cr[0] = crow ? crow + 4 * (gx - xa)
            : ql->same_layout && zr[0] ? tg->base + (zr[0] - ds->zbase)
            : tg->base + r300_tile_offset(&tg->tiling, gx, y);
    cr[1] = cr[0] + 8;
    for (ch = 0; ch < 4; ch++) {
        src.v[ch] = hi ? _mm256_extractf128_ps(src8[ch], 1)
                       : _mm256_castps256_ps128(src8[ch]);
    }
    move_colour(ql, cr, pass, mask, &src, blend);
    return count[pass];
}

/*
 * `plain`: no depth test or blend, a linear target written without
 * channel mask or pre-quantise (the loop holds no test of them);
 * `common`: the unit is r300_tx_lanes8_common's (the sampler's tests and
 * scalar wrap loops out of the loop)
 */
static inline R300_AVX2_INLINE void
span_tex8(void *opaque, int x0, int y0, int x1, int y1, int thread,
               const int persp, const bool depth, const bool blend,
               const bool avx512, const bool plain, const bool common)
{
    const R300Tri *t = opaque;
    const R300DrawState *ds = t->ds;
    const R300QuadLanes qlc = ds->lanes, *ql = &qlc;
    const R300Span *sp = &t->span;
    const R300Lanes *tl = &t->lanes;
    const G3DEdges g = sp->g;
    int xa = x0 & ~3, y, x, j, k, ch;
    uint64_t passed = 0;
    R300TxLanes8 tc;
    __m256 a[4][3];

    r300_tx_lanes8_setup(&tc, &ds->tx[ds->move.tex_op.unit & 15],
                         ds->move.tex_op.inst, ql->tex_sel);
    for (ch = 0; ch < 4; ch++) {
        for (j = 0; j < 3; j++) {
            a[ch][j] = _mm256_broadcast_ps((const __m128 *)tl->coord[ch][j]);
        }
    }
    if (!depth) {
        /* every covered pixel passes */
        passed = (uint64_t)(x1 - x0) * (y1 - y0);
    }
    for (y = y0; y < y1; y++) {
        G3DWalk8 walk;
        uint8_t *zrow = NULL, *crow = NULL;

        span8_row(t, ql, xa, x1, y, y1, depth, &zrow, &crow, &walk, avx512);
        x = xa;
        /*
         * A plain write's whole groups two at a time: the second group's
         * weights, coordinates and texels (long chains of conversions, a
         * division and gathers) overlap the first's
         */
        while (plain && x >= x0 && x + 16 <= x1) {
            __m256 lin[2][3], bar[2][3], coord[2][4], src[2][4];
            int h;

            for (h = 0; h < 2; h++) {
                g3d_walk8_next(&g, &walk, lin[h], persp ? bar[h] : NULL,
                               persp ? persp - 1 : 0, avx512);
            }
            for (h = 0; h < 2; h++) {
                const __m256 *wk = persp ? bar[h] : lin[h];

                for (ch = 0; ch < 4; ch++) {
                    coord[h][ch] = _mm256_add_ps(
                        _mm256_add_ps(_mm256_mul_ps(wk[0], a[ch][0]),
                                      _mm256_mul_ps(wk[1], a[ch][1])),
                        _mm256_mul_ps(wk[2], a[ch][2]));
                }
            }
            for (h = 0; h < 2; h++) {
                r300_tx_lanes_sample8(&tc, coord[h], src[h], common);
            }
            for (h = 0; h < 2; h++) {
                _mm256_storeu_si256((__m256i *)(crow + 4 * (x - xa)),
                                    g3d_unorm8x8_lanes(src[h]));
                x += 8;
            }
        }
        for (; x < x1; x += 8) {
            unsigned m0 = 0xF, m1 = 0xF;
            __m256 lin[3], bar[3], coord[4], src8[4];
            const __m256 *wk = persp ? bar : lin;
            __m128 lin0[3], lin1[3];

            /*
             * Both groups' weights, also where the second lies past x1
             * (the row's last step): its lanes are then sampled but not
             * written, as a group's pixels outside [x0, x1) are; every
             * coordinate, NaN included, wraps to a texel of the level
             */
            g3d_walk8_next(&g, &walk, lin, persp ? bar : NULL,
                           persp ? persp - 1 : 0, avx512);
            if (__builtin_expect(x < x0 || x + 8 > x1, 0)) {
                if (x < x0) {
                    m0 &= 0xFu << (x0 - x);
                }
                if (x + 4 > x1) {
                    m0 &= 0xFu >> (x + 4 - x1);
                }
                m1 = x + 4 >= x1 ? 0 : x + 8 > x1 ? 0xFu >> (x + 8 - x1)
                                                  : 0xF;
            }
            for (ch = 0; ch < 4; ch++) {
                coord[ch] = _mm256_add_ps(
                    _mm256_add_ps(_mm256_mul_ps(wk[0], a[ch][0]),
                                  _mm256_mul_ps(wk[1], a[ch][1])),
                    _mm256_mul_ps(wk[2], a[ch][2]));
            }
            r300_tx_lanes_sample8(&tc, coord, src8, common);
            if (plain && (m0 & m1) == 0xF) {
                /*
                 * Two full groups of a linear row written plainly:
                 * colour_lanes's pack8888 and whole-group store, both at
                 * once
                 */
                _mm256_storeu_si256((__m256i *)(crow + 4 * (x - xa)),
                                    g3d_unorm8x8_lanes(src8));
                continue;
            }
            for (k = 0; k < 3; k++) {
                lin0[k] = _mm256_castps256_ps128(lin[k]);
                lin1[k] = _mm256_extractf128_ps(lin[k], 1);
            }
            k = tex8_group(t, ql, lin0, m0, x, y, xa, zrow, crow, src8,
                           false, depth, blend);
            if (m1) {
                k += tex8_group(t, ql, lin1, m1, x + 4, y, xa, zrow, crow,
                                src8, true, depth, blend);
            }
            if (depth) {
                passed += k;
            }
        }
    }
    r300_zpass_add(ds, thread, passed);
}

/*
 * span_tex8 for each weighting (p: 0 screen-linear, 1 perspective, 2
 * every 1/w positive, 3 also one power of two: G3D_WEIGHTS_UNIT_W, for
 * the common unit only), depth and blend setting (m: 0 neither,
 * 1 blend, 2 depth, 3 both, 4 neither and a plain colour write; 5 depth
 * and 6 a plain write for the common unit, r300_tx_lanes8_common): AVX2;
 * AVX-512VL with 256-bit vectors in the loop (the weights as AVX2 takes
 * them: 32 registers, fewer spills, and no 512-bit uop a group to take
 * port 1 from the 256-bit work; g3d_simd_textured_wide); AVX-512 with the
 * weights' doubles in 512-bit vectors
 */
#define SPAN_TEX8_AT(f, attrs, wide, p, m)                                \
static attrs void f##p##m(void *o, int x0, int y0, int x1, int y1,       \
                          int thread)                                     \
{                                                                         \
    span_tex8(o, x0, y0, x1, y1, thread, p, m == 2 || m == 3 || m == 5,   \
              m == 1 || m == 3, wide, m == 4 || m == 6, m >= 5);          \
}
#define TEX8_AVX2 __attribute__((target("avx2"), flatten))
#define TEX8_VL __attribute__((target("avx2,avx512f,avx512vl"), flatten)) \
    G3D_NO_CONTRACT
#define SPAN_TEX8(p, m)                                                   \
    SPAN_TEX8_AT(span_tex8_, TEX8_AVX2, false, p, m)                      \
    SPAN_TEX8_AT(span_tex8_vl_, TEX8_VL, false, p, m)                     \
    SPAN_TEX8_AT(span_tex8_avx512_, TEX8_VL, true, p, m)
#define SPAN_TEX8_7(p)                                                    \
    SPAN_TEX8(p, 0) SPAN_TEX8(p, 1) SPAN_TEX8(p, 2) SPAN_TEX8(p, 3)       \
    SPAN_TEX8(p, 4) SPAN_TEX8(p, 5) SPAN_TEX8(p, 6)
SPAN_TEX8_7(0)
SPAN_TEX8_7(1)
SPAN_TEX8_7(2)
/* the common unit's with G3D_WEIGHTS_UNIT_W (weighting 3, g3d_inv_w_unit) */
SPAN_TEX8(3, 5)
SPAN_TEX8(3, 6)
#define SPAN_TEX8_FN_7(f, p)                                              \
    f##p##0, f##p##1, f##p##2, f##p##3, f##p##4, f##p##5, f##p##6

/* [AVX2, AVX-512VL at 256 bits, AVX-512][weighting * 7 + m] */
static G3DBlockFn *const span_tex8_fn[3][21] = {
    { SPAN_TEX8_FN_7(span_tex8_, 0), SPAN_TEX8_FN_7(span_tex8_, 1),
      SPAN_TEX8_FN_7(span_tex8_, 2) },
    { SPAN_TEX8_FN_7(span_tex8_vl_, 0), SPAN_TEX8_FN_7(span_tex8_vl_, 1),
      SPAN_TEX8_FN_7(span_tex8_vl_, 2) },
    { SPAN_TEX8_FN_7(span_tex8_avx512_, 0),
      SPAN_TEX8_FN_7(span_tex8_avx512_, 1),
      SPAN_TEX8_FN_7(span_tex8_avx512_, 2) },
};
#endif

bool r300_lanes_tex_common(const R300DrawState *ds)
{
#ifdef R300_SPAN_TEX8
    R300TxLanes8 tc;

    if (!ds->lanes.tex_lanes) {
        return false;
    }
    r300_tx_lanes8_setup(&tc, &ds->tx[ds->move.tex_op.unit & 15],
                         ds->move.tex_op.inst, ds->lanes.tex_sel);
    return r300_tx_lanes8_common(&tc);
#else
    return false;
#endif
}

/* a vertex value in the four lanes */
static inline void lanes_of(float v, float out[4])
{
    out[0] = out[1] = out[2] = out[3] = v;
}

/* RS vector `vec` (-1: none, zero) of the triangle, component ch from sel[ch] */
static void lanes_vec(const R300Tri *t, int vec, const uint8_t sel[4],
                      float out[4][3][4])
{
    int ch, j;

    for (ch = 0; ch < 4; ch++) {
        for (j = 0; j < 3; j++) {
            lanes_of(vec < 0 ? 0.0f : t->vec[j][vec][sel[ch]], out[ch][j]);
        }
    }
}

G3DBlockFn *r300_lanes_fill_choose(R300Tri *t, const G3DTriangle *tri)
{
    static const uint8_t ident[4] = { 0, 1, 2, 3 };
    const R300DrawState *ds = t->ds;
    const R300QuadLanes *ql = &ds->lanes;
    R300Span *sp = &t->span;
    G3DSimdLevel level = G3D_SIMD_SSE2;
    bool avx = false, plain;
    int persp, k, j;

    if (ds->shade != r300_quad_lanes) {
        return NULL;
    }
    /* the triangle's constants of shade_lanes, each in four lanes */
    lanes_of(t->z[0], t->lanes.z[0]);
    lanes_of(t->z[1] - t->z[0], t->lanes.z[1]);
    lanes_of(t->z[2] - t->z[0], t->lanes.z[2]);
    if (ql->src_shader_order) {
        lanes_vec(t, ds->move_coord_vec, ident, t->lanes.coord);
    } else {
        lanes_vec(t, ds->move_src_vec, ql->sel, t->lanes.src);
    }

    if (r300_flat_fill_ok(t, tri->v)) {
        return r300_flat_fill;
    }
    if (!ds->lanes.span || !g3d_raster_edges(tri, &sp->g) ||
        !sp->g.exact_double) {
        return NULL;
    }
    for (k = 0; k < 3; k++) {
        const G3DEdge *e = &sp->g.e[k];

        sp->e0[k] = e->a * tri->rules->sample_x +
                    e->b * tri->rules->sample_y + e->c;
        sp->ex[k] = e->a * tri->rules->subpixels;
        sp->ey[k] = e->b * tri->rules->subpixels;
        for (j = 0; j < 8; j++) {
            sp->jx[k][j] = j * (double)sp->ex[k];
        }
    }
#ifdef G3D_WEIGHTS_AVX
    level = g3d_simd_level();
    avx = level >= G3D_SIMD_AVX;
#endif
    persp = ds->perspective ? 1 + g3d_inv_w_positive(tri->v) : 0;
    /*
     * a plain colour write: no depth test, one linear target written
     * without channel mask, blend (ql->read) or pre-quantise
     */
    plain = !ds->depth && ql->colour && !ql->read && !ql->prequantise &&
            ds->cb[ds->move.target].tiling.linear;
#ifdef R300_SPAN_TEX8
    if (ql->colour && ds->move.tex && ql->tex_lanes &&
        ds->move.tex_op.dst == ds->move.src &&
        ds->tx[ds->move.tex_op.unit & 15].base_inside &&
        level >= G3D_SIMD_AVX2) {
        /*
         * span_tex8: the fetch eight pixels a call; its level as the
         * CPU runs textured spans fastest (g3d_simd_level_textured,
         * g3d_simd_textured_wide)
         */
        int m = plain ? 4 : (ds->depth != NULL) * 2 + ql->blend;

        int row = g3d_simd_level_textured() < G3D_SIMD_AVX512 ? 0
                  : 1 + g3d_simd_textured_wide();

        if ((m == 2 || m == 4) && r300_lanes_tex_common(ds)) {
            m = m == 2 ? 5 : 6;
            if (persp == 2 && g3d_inv_w_unit(tri->v)) {
                /* [level][plain] */
                static G3DBlockFn *const unit_tex[3][2] = {
                    { span_tex8_35, span_tex8_36 },
                    { span_tex8_vl_35, span_tex8_vl_36 },
                    { span_tex8_avx512_35, span_tex8_avx512_36 },
                };

                return unit_tex[row][m == 6];
            }
        }
        return span_tex8_fn[row][persp * 7 + m];
    }
#endif
#ifdef G3D_WEIGHTS_WIDE
    /* the eight- and sixteen-pixel spans' weighting: 3 for unit 1/w */
    int wide = persp == 2 && g3d_inv_w_unit(tri->v) ? 3 : persp;

    if (level >= G3D_SIMD_AVX512 && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("popcnt") && r300_lanes_span16(ds)) {
        return span16_fn[ds->depth != NULL][sp->g.perm[1] == 2][wide];
    }
    if (level >= G3D_SIMD_AVX2 && !ql->blend &&
        !(ds->move.tex && ql->src_shader_order)) {
        return span8_fn[level >= G3D_SIMD_AVX512][sp->g.perm[1] == 2]
                       [wide * 3 + (plain ? 2 : ds->depth != NULL)];
    }
#endif
    return span_lanes_fn[avx][persp * 8 +
                              (ds->depth != NULL) * 4 + ql->blend * 2 +
                              (ds->move.tex && ql->src_shader_order)];
}

/* the blend factor and function codes of component k */
static void decode_blend(const R300DrawState *ds, R300QuadLanes *ql, int k)
{
    uint32_t cntl = (k == 3 && (ds->blend &
                                R_RB3D_BLENDCNTL_SEPARATE_ALPHA_ENABLE_MASK))
                    ? ds->ablend : ds->blend;

    ql->src_factor[k] = G3D_FIELD_EX32(cntl, RB3D_BLENDCNTL, SRCBLEND);
    ql->dst_factor[k] = G3D_FIELD_EX32(cntl, RB3D_BLENDCNTL, DESTBLEND);
    ql->comb[k] = G3D_FIELD_EX32(cntl, RB3D_BLENDCNTL, COMB_FCN);
}

/*
 * Whether the draw's texture shares bytes with the colour target or the
 * depth buffer: a span reads and writes its pixels in another order than
 * the quads, so a texel that is also a pixel of the draw could be read
 * before or after the draw writes it; such a draw keeps the quads' order.
 */
static bool tex_overlaps(const R300DrawState *ds, const R300Target *tg,
                         bool colour)
{
    return r300_tex_overlaps(ds, &ds->tx[ds->move.tex_op.unit & 15],
                             colour ? 1u << (tg - ds->cb) : 0);
}

G3DQuadFn *r300_quad_lanes_choose(R300DrawState *ds, bool z24)
{
    R300QuadLanes *ql = &ds->lanes;
    const R300Target *tg;
    int k;

    if (ds->samples != 1 || ds->clip_rule != 0xFFFF || ds->multiwrite ||
        ds->cmask.ram ||
        (ds->alpha_func & R_FG_ALPHA_FUNC_AF_EN_MASK) ||
        (ds->fog_blend & R_FG_FOG_BLEND_ENABLE_MASK) ||
        (ds->depth && !z24)) {
        return NULL;
    }
    memset(ql, 0, sizeof(*ql));
    ql->zfunc = ds->zfunc;
    ql->zwrite = ds->zwrite;
    ql->tex_lanes = ds->move.tex &&
                    r300_tx_lanes_ok(&ds->tx[ds->move.tex_op.unit & 15]);
    tg = &ds->cb[ds->move.target];
    ql->colour = ds->cb_mapped & (1u << ds->move.target);
    if (ql->colour) {
        if (!tg->packable || tg->wide ||
            tg->format != R300_COLOR_FORMAT_ARGB8888 || tg->bpp != 4 ||
            (ds->rop & R_RB3D_ROPCNTL_ROP_ENABLE_MASK) ||
            !tg->round || !tg->round_alpha || tg->out_sign) {
            return NULL;
        }
        for (k = 0; k < 4; k++) {
            ql->sel[k] = tg->out_sel[k];
            decode_blend(ds, ql, k);
            ql->const_color[k] = (float)((ds->const_color >> (8 * k)) & 0xFF) /
                                 255.0f;
        }
        ql->blend = ds->blend & R_RB3D_BLENDCNTL_ALPHA_BLEND_ENABLE_MASK;
        ql->discard = G3D_FIELD_EX32(ds->blend, RB3D_BLENDCNTL,
                                     DISCARD_SRC_PIXELS);
        ql->prequantise = tg->prequantise;
        ql->write_mask = tg->write_mask;
        ql->read = ql->blend || ql->write_mask != 0xFFFFFFFFu;
        for (k = 0; k < 4; k++) {
            unsigned ts = ds->tx[ds->move.tex_op.unit & 15].sel[ql->sel[k]];

            ql->clamp[k] = ql->sel[k] < 3 ? ds->move.rgb_clamp
                                          : ds->move.alpha_clamp;
            /* the unit's swizzle of the program's R, G, B, A, as
             * r300_tx_lanes_sample's sums hold them */
            ql->tex_sel[k] = ts < 4 ? ts : ts == R300_TX_SEL_ONE ? 4 : 5;
        }
        /* the fetch's result or coordinate moved: the program's order */
        ql->src_shader_order = ds->move.tex &&
            (ds->move.tex_op.dst == ds->move.src ||
             ds->move.tex_op.src == ds->move.src);
        ql->same_layout = ds->depth && tg->tiling.bpp == ds->ztiling.bpp &&
            tg->tiling.pitch == ds->ztiling.pitch &&
            tg->tiling.uw == ds->ztiling.uw && tg->tiling.uh == ds->ztiling.uh &&
            tg->tiling.mw == ds->ztiling.mw && tg->tiling.mh == ds->ztiling.mh &&
            tg->tiling.row_tiles == ds->ztiling.row_tiles &&
            tg->tiling.linear == ds->ztiling.linear;
    }
    /*
     * A quad's depth is tested and written before its fetch here, after it
     * in r300_quad (the program runs first): a texture that shares bytes
     * with the depth buffer would show the order, so such a draw takes
     * the general quads
     */
    if (ds->move.tex && tex_overlaps(ds, tg, false)) {
        return NULL;
    }
    /*
     * span_lanes: every pixel's bytes its own (no derivatives), in one
     * 32-bit layout
     */
    ql->span = ds->samples == 1 &&
               (!ds->move.tex || (ql->tex_lanes &&
                                  !tex_overlaps(ds, tg, ql->colour))) &&
               (!ql->colour || tg->tiling.bpp == 4) &&
               (!ds->depth || ds->ztiling.bpp == 4);
    /* fill.c: one colour and depth a triangle, neither read */
    ql->flat = !ds->move.tex && (!ql->colour || (!ql->blend &&
                                                 tg->tiling.bpp == 4)) &&
               (!ds->depth || (ds->zfunc == G3D_CMP_ALWAYS &&
                               ds->ztiling.bpp == 4));
    return r300_quad_lanes;
}

#else

G3DQuadFn *r300_quad_lanes_choose(R300DrawState *ds, bool z24)
{
    return NULL;
}

G3DBlockFn *r300_lanes_fill_choose(R300Tri *t, const G3DTriangle *tri)
{
    return NULL;
}

bool r300_lanes_span16(const R300DrawState *ds)
{
    return false;
}

bool r300_lanes_tex_common(const R300DrawState *ds)
{
    return false;
}

#endif
