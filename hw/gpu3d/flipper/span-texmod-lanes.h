/*
 * flipper-gx: the textured modulate span (span_texmod's one GX_MODULATE
 * stage over a triangle's covered pixels [x0, x1) x [y0, y1), common/
 * raster.h G3DBlockFn) in the lanes of one vector, written once for the
 * wide widths. ras.c includes this file twice: AVX2 (eight pixels a
 * vector) and AVX-512 (sixteen), both taking the map's level8 sampler on
 * a row's coordinates as groups of eight.
 *
 * Every lane does span_texmod's float operations in their order (no FMA
 * is enabled, so no product and sum are contracted: MULPS, ADDPS, DIVPS,
 * CVTTPS2DQ; 1/w's quotient where q is unordered-not-equal to 0), then
 * the same integer ones. A row is three passes: the Z tests and texel
 * coordinates of its groups, its texels in one sampler call, then the
 * colours and stores. The columns' plane terms come from texmod_columns8
 * as groups of eight; a group of sixteen reads two side by side.
 *
 * The includer defines, for its width: TMV (the float vector), TMW (the
 * integer vector), TM_LANES, TM_MASK (a group's lane mask type), TM_ATTR
 * (the function's attributes), TMF(op) (op's float intrinsic), TMP(op)
 * (op's intrinsic by its full suffix), TMI(op) (op's whole-register
 * integer intrinsic), TMN(name) (name with the width appended),
 * TM_COLS(a, g) (group g's columns of the eight-column groups a),
 * TM_BCAST128(x) (a 128-bit constant in every quarter), TM_PROJ(inv_w, qq)
 * (inv_w / qq where qq is unordered-not-equal to 0, else inv_w),
 * TM_MODW(tex_mod, tw, rw) (flipper_tev_mod_words8 of the width),
 * TM_ZTEST(zf, zrow, live, zfunc, zwrite) (the lanes that pass, the
 * passing Z written), TM_STORE(p, w, live) and TM_BOX(box, x, live). The
 * macros are undefined at the end.
 */

/* eight-pixel groups of a TM_LANES group */
#define TM_G8 (TM_LANES / 8)

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
    const TMW lo16 = TMP(set1_epi32)(0xFFFF);
    const TMW lo8 = TMP(set1_epi32)(0xFF);
    const TMV one = TMF(set1)(1.0f), s128 = TMF(set1)(128.0f);
    /* rgb8_words4 with the identity: R << 16 | G << 8 | B */
    const TMW rgb = TM_BCAST128(_mm_setr_epi8(2, 1, 0, -1, 6, 5, 4, -1,
                                              10, 9, 8, -1, 14, 13, 12, -1));
    __m256 zcol[SPAN_GROUPS8], pcol[TM_PLANES][SPAN_GROUPS8];
    SpanBox box = SPAN_BOX_INIT;
    int g, j, y;

    texmod_columns8(sl, &zs, ztest, x0, TM_G8 * n, pcol, zcol);
    for (y = y0; y < y1; y++) {
        uint32_t *crow = &c->efb_color[y * EFB_W + x0];
        uint32_t *zrow = &c->efb_depth[y * EFB_W + x0];
        TMV prow[TM_PLANES], zrowt = TMF(setzero)();
        __m256i st8[2][SPAN_GROUPS8], texel[SPAN_GROUPS8];
        TM_MASK live[SPAN_GROUPS8 / TM_G8];

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
                    /* the sampler still reads the group's coordinates */
                    for (j = 0; j < 2; j++) {
                        TMI(storeu)((void *)&st8[j][TM_G8 * g],
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

                TMI(storeu)((void *)&st8[j][TM_G8 * g],
                            TMP(cvttps_epi32)(TMF(mul)(u, s128)));
            }
        }
        m->level8(m, st8[0], st8[1], (x1 - x0 + 7) / 8, 0, m->mag_linear,
                  texel);
        for (g = 0; g < n; g++) {
            TMW w = TMI(setzero)();

            if (!live[g]) {
                continue;
            }
            /* quad_colour4's operations */
            for (j = 0; j < 4; j++) {
                TMW v = TMI(and)(TMP(cvttps_epi32)(
                                     TMF(add)(TM_COLS(pcol[TM_COL + j], g),
                                              prow[TM_COL + j])), lo16);

                v = TMI(and)(TMI(andnot)(TMP(srli_epi32)(v, 8), v), lo8);
                w = TMI(or)(w, TMP(slli_epi32)(v, 8 * j));
            }
            w = TMP(shuffle_epi8)(TM_MODW(tex_mod, TMI(loadu)(
                                              (const void *)&texel[TM_G8 * g]),
                                          w), rgb);
            TM_STORE(crow + TM_LANES * g, w, live[g]);
            if (ztest) {
                TM_BOX(&box, x0 + TM_LANES * g, live[g]);
            }
        }
        span_box_row(&box, y);
    }
    span_box_end(&box, st, ztest, x0, y0, x1, y1);
}

#undef TM_G8
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
#undef TM_BCAST128
#undef TM_PROJ
#undef TM_MODW
#undef TM_ZTEST
#undef TM_STORE
#undef TM_BOX
