/*
 * flipper-gx: the textured modulate span (one GX_MODULATE stage over a
 * triangle's covered pixels [x0, x1) x [y0, y1), common/raster.h
 * G3DBlockFn) in the lanes of one vector, written once for every width.
 * ras.c includes this file three times: SSE2 (four pixels a vector, the
 * map's four-pixel sampler a group, any format), AVX2 (eight, the map's
 * level8 sampler on a row's coordinates as groups of eight: RGBA8) and
 * AVX-512 (sixteen, the same sampler).
 *
 * Every lane does the quads' float operations in their order (no FMA
 * is enabled, so no product and sum are contracted: MULPS, ADDPS, DIVPS,
 * CVTTPS2DQ; 1/w's quotient where q is unordered-not-equal to 0), then
 * the same integer ones. A row of the wide widths is three passes: the Z
 * tests and texel coordinates of its groups, its texels in one sampler
 * call (TM_SAMPLE_ROW), then the colours and stores; the four-pixel width
 * samples and stores a group as soon as it has its coordinates
 * (TM_SAMPLE_GROUP: one pass). The columns' plane terms are computed once
 * a span (TMN(texmod_columns)), in TM_COLW-lane vectors; a group reads
 * TM_LANES / TM_COLW side by side.
 *
 * The includer defines, for its width: TMV (the float vector), TMW (the
 * integer vector), TM_LANES, TM_MASK (a group's lane mask type), TM_ATTR
 * (the function's attributes), TMF(op) (op's float intrinsic), TMP(op)
 * (op's intrinsic by its full suffix), TMI(op) (op's whole-register
 * integer intrinsic), TMN(name) (name with the width appended),
 * TM_COLV and TM_COLW (the column terms' vector and its lanes),
 * TM_COLUMNS (the function computing them: TMN(texmod_columns), defined
 * here where the includer defines TM_OWN_COLUMNS and TM_IOTA, the lanes'
 * offsets 0, 1, ...), TM_COLS(a, g) (group g's columns), TM_PROJ(inv_w,
 * qq) (inv_w / qq where qq is unordered-not-equal to 0, else inv_w),
 * TM_SAMPLE_ROW(m, s, t, texel, x0, x1) (the row's texels from its
 * coordinates) or TM_SAMPLE_GROUP(m, s, t, texel, g) (group g's),
 * TM_MODW(tex_mod, tw, rw) (flipper_tev_mod_words of the width), TM_RGB(w)
 * (the RGB8 EFB words of RGBA byte quadruples), TM_ZTEST(zf, zrow, live,
 * zfunc, zwrite) (the lanes that pass, the passing Z written),
 * TM_STORE(p, w, live) and TM_BOX(box, x, live). The macros are undefined
 * at the end.
 */

/* column groups in a group of TM_LANES */
#define TM_GC (TM_LANES / TM_COLW)
/* column groups in a tile's width */
#define TM_COLGROUPS (G3D_TILE_SIZE / TM_COLW)

#ifdef TM_OWN_COLUMNS
/*
 * The planes' column terms, TM_COLW columns a vector from x0 on, `groups`
 * groups: f0 + dfdx (xoff + (x - x0)) in quad_uv's order; the z plane's
 * too where ztest.
 */
static inline __attribute__((always_inline)) TM_ATTR void
TMN(texmod_columns)(const GXSlope *const sl[TM_PLANES], const GXSlope *zs,
                    bool ztest, int x0, int groups,
                    TM_COLV pcol[TM_PLANES][TM_COLGROUPS],
                    TM_COLV zcol[TM_COLGROUPS])
{
    int g, j;

    for (g = 0; g < groups; g++) {
        TMW xi = TMP(add_epi32)(TMP(set1_epi32)(x0 + TM_COLW * g), TM_IOTA);

        for (j = 0; j < TM_PLANES; j++) {
            TMW xd = TMP(sub_epi32)(xi, TMP(set1_epi32)(sl[j]->x0));
            TMV dx = TMF(add)(TMF(set1)(sl[j]->xoff), TMP(cvtepi32_ps)(xd));

            pcol[j][g] = TMF(add)(TMF(set1)(sl[j]->f0),
                                  TMF(mul)(TMF(set1)(sl[j]->dfdx), dx));
        }
        if (ztest) {
            TMV dx = TMF(add)(TMF(set1)(zs->xoff), TMP(cvtepi32_ps)(
                                  TMP(sub_epi32)(xi,
                                                 TMP(set1_epi32)(zs->x0))));

            zcol[g] = TMF(add)(TMF(set1)(zs->f0),
                               TMF(mul)(TMF(set1)(zs->dfdx), dx));
        }
    }
}
#endif

/*
 * Group g of a row: its colours (quad_colour4's operations) modulated by
 * its texels, the RGB8 words stored in its live lanes; the box grown where
 * box is not NULL (Z tested)
 */
static inline __attribute__((always_inline)) TM_ATTR void
TMN(texmod_colour)(const TM_COLV pcol[TM_PLANES][TM_COLGROUPS],
                   const TMV prow[TM_PLANES], int g, const uint32_t *texel,
                   uint8_t tex_mod, uint32_t *crow, TM_MASK live,
                   SpanBox *box, int x0)
{
    const TMW lo16 = TMP(set1_epi32)(0xFFFF);
    const TMW lo8 = TMP(set1_epi32)(0xFF);
    TMW w = TMI(setzero)();
    int j;

    for (j = 0; j < 4; j++) {
        TMW v = TMI(and)(TMP(cvttps_epi32)(
                             TMF(add)(TM_COLS(pcol[TM_COL + j], g),
                                      prow[TM_COL + j])), lo16);

        v = TMI(and)(TMI(andnot)(TMP(srli_epi32)(v, 8), v), lo8);
        w = TMI(or)(w, TMP(slli_epi32)(v, 8 * j));
    }
    w = TM_RGB(TM_MODW(tex_mod, TMI(loadu)((const void *)&texel[TM_LANES * g]),
                       w));
    TM_STORE(crow + TM_LANES * g, w, live);
    if (box) {
        TM_BOX(box, x0 + TM_LANES * g, live);
    }
}

static inline __attribute__((always_inline)) TM_ATTR void
TMN(span_texmod)(void *user, int x0, int y0, int x1, int y1, int thread,
                 const bool ztest)
{
    const RasTri *t = user;
    FlipperCore *c = t->c;
    FlipperThreadStats *st = &c->tstats[thread];
    const GXSlope *sl[TM_PLANES];
    const TxMap *m = texmod_planes(t, sl);
    const int n = (x1 - x0 + TM_LANES - 1) / TM_LANES;
    const GXSlope zs = t->z;    /* a copy the stores below cannot alias */
    const bool zwrite = t->zwrite;
    const G3DCompare zfunc = (G3DCompare)t->zfunc;
    const uint8_t tex_mod = t->tev->tex_mod;
    const TMV one = TMF(set1)(1.0f), s128 = TMF(set1)(128.0f);
    TM_COLV zcol[TM_COLGROUPS], pcol[TM_PLANES][TM_COLGROUPS];
    SpanBox box = SPAN_BOX_INIT;
    int g, j, y;

    TM_COLUMNS(sl, &zs, ztest, x0, TM_GC * n, pcol, zcol);
    for (y = y0; y < y1; y++) {
        uint32_t *crow = &c->efb_color[y * EFB_W + x0];
        uint32_t *zrow = &c->efb_depth[y * EFB_W + x0];
        TMV prow[TM_PLANES], zrowt = TMF(setzero)();
        int32_t st4[2][G3D_TILE_SIZE] __attribute__((aligned(64)));
        uint32_t texel[G3D_TILE_SIZE] __attribute__((aligned(64)));
        TM_MASK live[G3D_TILE_SIZE / TM_LANES];

        for (j = 0; j < TM_PLANES; j++) {
            prow[j] = TMF(set1)(sl[j]->dfdy *
                                (sl[j]->yoff + (float)(y - sl[j]->y0)));
        }
        if (ztest) {
            zrowt = TMF(set1)(zs.dfdy * (zs.yoff + (float)(y - zs.y0)));
        }
        for (g = 0; g < n; g++) {
            int rest = x1 - x0 - TM_LANES * g;
            TMV inv_w, qq, proj;

            live[g] = rest >= TM_LANES ? (TM_MASK)((1u << TM_LANES) - 1)
                                       : (TM_MASK)((1u << rest) - 1);
            if (ztest) {
                live[g] = TM_ZTEST(TMF(add)(TM_COLS(zcol, g), zrowt),
                                   zrow + TM_LANES * g, live[g], zfunc,
                                   zwrite);
                if (!live[g]) {
                    /* a row's sampler may still read the coordinates */
                    for (j = 0; j < 2; j++) {
                        TMI(storeu)((void *)&st4[j][TM_LANES * g],
                                    TMI(setzero)());
                    }
                    continue;
                }
            }
            /* quad_uv's operations */
            inv_w = TMF(div)(one, TMF(add)(TM_COLS(pcol[TM_W], g),
                                           prow[TM_W]));
            qq = TMF(mul)(TMF(add)(TM_COLS(pcol[TM_Q], g), prow[TM_Q]),
                          inv_w);
            proj = TM_PROJ(inv_w, qq);
            for (j = 0; j < 2; j++) {
                TMV u = TMF(mul)(TMF(add)(TM_COLS(pcol[TM_S + j], g),
                                          prow[TM_S + j]), proj);

                TMI(storeu)((void *)&st4[j][TM_LANES * g],
                            TMP(cvttps_epi32)(TMF(mul)(u, s128)));
            }
#ifdef TM_SAMPLE_GROUP
            TM_SAMPLE_GROUP(m, st4[0], st4[1], texel, g);
            TMN(texmod_colour)(pcol, prow, g, texel, tex_mod, crow, live[g],
                               ztest ? &box : NULL, x0);
#endif
        }
#ifdef TM_SAMPLE_ROW
        TM_SAMPLE_ROW(m, st4[0], st4[1], texel, x0, x1);
        for (g = 0; g < n; g++) {
            if (live[g]) {
                TMN(texmod_colour)(pcol, prow, g, texel, tex_mod, crow,
                                   live[g], ztest ? &box : NULL, x0);
            }
        }
#endif
        span_box_row(&box, y);
    }
    span_box_end(&box, st, ztest, x0, y0, x1, y1);
}

#undef TM_GC
#undef TM_COLGROUPS
#undef TM_COLV
#undef TM_COLW
#undef TM_COLUMNS
#undef TM_OWN_COLUMNS
#undef TM_IOTA
#undef TM_SAMPLE_ROW
#undef TM_SAMPLE_GROUP
#undef TM_RGB
#undef TMV
#undef TMW
#undef TM_LANES
#undef TM_MASK
#undef TM_ATTR
#undef TMF
#undef TMP
#undef TMI
#undef TMN
#undef TM_COLS
#undef TM_PROJ
#undef TM_MODW
#undef TM_ZTEST
#undef TM_STORE
#undef TM_BOX
