/*
 * flipper-gx: the Gouraud span (ras_quad_plain for a triangle's covered
 * pixels [x0, x1) x [y0, y1), common/raster.h G3DBlockFn) over the lanes
 * of one vector, written once for both widths. ras.c includes this file
 * twice: SSE2 (four pixels a vector, a tile's width a call) and AVX2
 * (eight, rows of SPAN_WIDE pixels a call).
 *
 * slope_at's value at (x, y) is (f0 + dfdx dx) + dfdy dy with dx a
 * function of x alone and dy of y alone, so the first sum is computed once
 * a fill for each column and the product once a row, and each pixel does
 * the last addition: the same single-precision operations as quad_depth4
 * and quad_colour4, in the same order (no FMA is enabled: MULPS, ADDPS).
 * An EFB row's words are contiguous, so a row is walked a vector at a time
 * from x0; the Z test and write (quad_zplain4's), the RGB8 words
 * (rgb8_words4's), the pixel count and the box grown by whole quads
 * (ras_bbox) are the quads'. The Z function is made a constant once a row.
 *
 * The includer defines, for its width: PLV (the float vector), PLW (the
 * integer vector), PL_LANES, PL_ATTR (the functions' target attribute),
 * PLF(op) (op's float intrinsic), PLP(op) (op's 32-bit-lane intrinsic),
 * PLN(name) (name with the width appended), PL_WIDTH (the pixels of a row
 * a call takes at most), PL_ZERO (an integer zero), PL_OR(a, b),
 * PL_CHANNEL(v, j) (the low byte of channel j's 16-bit truncation v, put
 * where the RGB8 word keeps channel j), PL_ZTEST(zf, zrow, live, zfunc,
 * zwrite) (the lanes that pass, the passing Z written), PL_STORE(p, w,
 * live) and PL_BOX(box, x, live). The macros are undefined at the end.
 */

/* the planes' column terms, a row's terms, the EFB rows */
typedef struct PLN(PlainRow) {
    PLV ccol[3][PL_WIDTH / PL_LANES], zcol[PL_WIDTH / PL_LANES];
    PLV crowt[3], zrowt;
    uint32_t *crow, *zrow;
} PLN(PlainRow);

/* a row from x0 (xr pixels) with zfunc a constant */
static inline __attribute__((always_inline)) PL_ATTR void
PLN(plain_row)(const PLN(PlainRow) *r, int x0, int xr, SpanBox *box,
               const bool ztest, const G3DCompare zfunc, const bool zwrite)
{
    const unsigned all = (1u << PL_LANES) - 1;
    int g, j;

    for (g = 0; PL_LANES * g < xr; g++) {
        unsigned live = xr - PL_LANES * g >= PL_LANES
                        ? all : all >> (PL_LANES - (xr - PL_LANES * g));
        PLW w = PL_ZERO;

        if (ztest) {
            live = PL_ZTEST(PLF(add)(r->zcol[g], r->zrowt),
                            r->zrow + PL_LANES * g, live, zfunc, zwrite);
            if (!live) {
                continue;
            }
        }
        for (j = 0; j < 3; j++) {
            /* v & ~(v >> 8) of v = (uint16_t)f: its low byte */
            w = PL_OR(w, PL_CHANNEL(PLP(cvttps_epi32)(
                                        PLF(add)(r->ccol[j][g],
                                                 r->crowt[j])), j));
        }
        PL_STORE(r->crow + PL_LANES * g, w, live);
        if (ztest) {
            PL_BOX(box, x0 + PL_LANES * g, live);
        }
    }
}

static inline __attribute__((always_inline)) PL_ATTR void
PLN(span_plain)(void *user, int x0, int y0, int x1, int y1, int thread,
                const bool ztest)
{
    const RasTri *t = user;
    FlipperCore *c = t->c;
    FlipperThreadStats *st = &c->tstats[thread];
    const GXSlope *cs = &t->col[t->fast.chan][0];
    const GXSlope zs = t->z;    /* a copy the stores below cannot alias */
    const int ch = t->fast.chan, n = (x1 - x0 + PL_LANES - 1) / PL_LANES;
    const bool zwrite = t->zwrite;
    const G3DCompare zfunc = (G3DCompare)t->zfunc;
    PLN(PlainRow) r;
    float cdy[3], cyoff = cs->yoff;
    int cy0 = cs->y0;
    SpanBox box = SPAN_BOX_INIT;
    int g, j, k, y;

    for (g = 0; g < n; g++) {
        PLW xi = PLP(add_epi32)(PLP(set1_epi32)(x0 + PL_LANES * g),
                                PL_IOTA);
        PLV dx = PLF(add)(PLF(set1)(cs->xoff), PLP(cvtepi32_ps)(
                              PLP(sub_epi32)(xi, PLP(set1_epi32)(cs->x0))));

        for (j = 0; j < 3; j++) {
            k = t->fast.swap[j];
            r.ccol[j][g] = PLF(add)(PLF(set1)(t->cf0[ch][k]),
                                    PLF(mul)(PLF(set1)(t->cdx[ch][k]), dx));
        }
        if (ztest) {
            dx = PLF(add)(PLF(set1)(zs.xoff), PLP(cvtepi32_ps)(
                              PLP(sub_epi32)(xi, PLP(set1_epi32)(zs.x0))));
            r.zcol[g] = PLF(add)(PLF(set1)(zs.f0),
                                 PLF(mul)(PLF(set1)(zs.dfdx), dx));
        }
    }
    for (j = 0; j < 3; j++) {
        cdy[j] = t->cdy[ch][t->fast.swap[j]];
    }
    r.zrowt = PLF(setzero)();
    for (y = y0; y < y1; y++) {
        float dy = cyoff + (float)(y - cy0);

        r.crow = &c->efb_color[y * EFB_W + x0];
        r.zrow = &c->efb_depth[y * EFB_W + x0];
        for (j = 0; j < 3; j++) {
            r.crowt[j] = PLF(set1)(cdy[j] * dy);
        }
        if (!ztest) {
            PLN(plain_row)(&r, x0, x1 - x0, &box, false, G3D_CMP_ALWAYS,
                           false);
            continue;
        }
        r.zrowt = PLF(set1)(zs.dfdy * (zs.yoff + (float)(y - zs.y0)));
        switch (zfunc) {
#define PLAIN_ROW(f)                                                        \
        case f:                                                             \
            if (zwrite) {                                                   \
                PLN(plain_row)(&r, x0, x1 - x0, &box, true, f, true);       \
            } else {                                                        \
                PLN(plain_row)(&r, x0, x1 - x0, &box, true, f, false);      \
            }                                                               \
            break;
        PLAIN_ROW(G3D_CMP_NEVER)
        PLAIN_ROW(G3D_CMP_LESS)
        PLAIN_ROW(G3D_CMP_EQUAL)
        PLAIN_ROW(G3D_CMP_LEQUAL)
        PLAIN_ROW(G3D_CMP_GREATER)
        PLAIN_ROW(G3D_CMP_NOTEQUAL)
        PLAIN_ROW(G3D_CMP_GEQUAL)
        PLAIN_ROW(G3D_CMP_ALWAYS)
#undef PLAIN_ROW
        }
        span_box_row(&box, y);
    }
    span_box_end(&box, st, ztest, x0, y0, x1, y1);
}

#undef PLV
#undef PLW
#undef PL_LANES
#undef PL_ATTR
#undef PLF
#undef PLP
#undef PLN
#undef PL_WIDTH
#undef PL_IOTA
#undef PL_ZERO
#undef PL_OR
#undef PL_CHANNEL
#undef PL_ZTEST
#undef PL_STORE
#undef PL_BOX
