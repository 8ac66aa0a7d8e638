/*
 * flipper-gx: the RGBA8 sampler over the lanes of one vector, written once
 * for both widths. tx.c includes this file twice: for AVX2 (eight
 * pixels a vector) and AVX-512 (sixteen). Every lane does the SSE2
 * lanes' integer operations (wrap4, row_off4, col_off4, the weights and
 * the pmaddwd blend), so every byte is the scalar sampler's.
 *
 * Texel words are read 32 bits at a time: a pixel whose second column is
 * the next word of its tile row reads both taps of a row as one 32-bit
 * word (gather_pairs4's read); any other pixel reads each tap from the
 * 4-byte-aligned word of its tile that holds it, so no read leaves the
 * tiles sample4_fmt reads.
 *
 * The includer defines, for its width: TXV (the vector type), TXM (a lane
 * mask), TX_TARGET, TXI(op) (the intrinsic prefix), TXS(op) (and the
 * whole-register suffix), TXN(name) (name with the width appended),
 * TX_CMPEQ, TX_CMPGT (lane masks), TX_BLEND(m, a, b) (b where m),
 * TX_NONZERO(v) (all ones in the lanes where v is not 0), TX_ALL(m)
 * (every lane set) and TXN(load_at)(p, off) (the 32-bit words at p + off).
 * The macros are undefined at the end.
 */

static inline __attribute__((always_inline, target(TX_TARGET)))
TXV TXN(wrap)(TXV i, unsigned mode, int n)
{
    TXV nm1 = TXI(set1_epi32)(n - 1);

    switch (mode) {
    case 1:                     /* g3d_tex_repeat_pow2 */
        return TXS(and)(i, nm1);
    case 2:                     /* g3d_tex_mirror_pow2: i ^ -1 where i & n */
        return TXS(and)(TXS(xor)(i, TX_NONZERO(TXS(and)(
                                        i, TXI(set1_epi32)(n)))), nm1);
    default:                    /* g3d_tex_clamp */
        i = TXS(andnot)(TXI(srai_epi32)(i, 31), i);
        return TX_BLEND(TX_CMPGT(i, nm1), i, nm1);
    }
}

/* row_off4 and col_off4 of RGBA8's 4x4 tiles of two-byte words */
static inline __attribute__((always_inline, target(TX_TARGET)))
TXV TXN(row_off)(TXV t, int tile_bytes, int wm1)
{
    TXV tiles = TXI(madd_epi16)(TXI(srli_epi32)(t, 2),
                                TXI(set1_epi32)(((wm1 >> 2) + 1) *
                                                tile_bytes));

    return TXI(add_epi32)(tiles, TXI(slli_epi32)(
                              TXS(and)(t, TXI(set1_epi32)(3)), 3));
}

static inline __attribute__((always_inline, target(TX_TARGET)))
TXV TXN(col_off)(TXV s, int tile_bytes)
{
    return TXI(add_epi32)(TXI(mullo_epi16)(TXI(srli_epi32)(s, 2),
                                           TXI(set1_epi32)(tile_bytes)),
                          TXI(slli_epi32)(TXS(and)(s, TXI(set1_epi32)(3)),
                                          1));
}

/* the raw 16-bit word at p + off (off even) in each lane's low half, from
 * the aligned 32-bit word holding it */
static inline __attribute__((always_inline, target(TX_TARGET)))
TXV TXN(gather_word)(const uint8_t *p, TXV off)
{
    TXV w = TXN(load_at)(p, TXS(andnot)(TXI(set1_epi32)(3), off));
    TXV sh = TXI(slli_epi32)(TXS(and)(off, TXI(set1_epi32)(2)), 3);

    return TXS(and)(TXI(srlv_epi32)(w, sh), TXI(set1_epi32)(0xFFFF));
}

/*
 * Each pixel's taps (s, t), (s + 1, t) of a row as the raw words of its
 * two 16-bit lanes (o0, o1 their offsets from p; `pairs`: the lanes whose
 * second tap follows the first in a tile row), byte-swapped to values
 */
static inline __attribute__((always_inline, target(TX_TARGET)))
TXV TXN(gather_taps)(const uint8_t *p, TXV o0, TXV o1, TXM pairs,
                     bool all_pairs)
{
    const TXV m3 = TXI(set1_epi32)(3), m2 = TXI(set1_epi32)(2);
    TXV v;

    if (all_pairs) {
        v = TXN(load_at)(p, o0);
    } else {
        TXV a = TXN(load_at)(p, TX_BLEND(pairs, TXS(andnot)(m3, o0), o0));
        TXV w0 = TXS(and)(TXI(srlv_epi32)(
                              a, TXI(slli_epi32)(TXS(and)(o0, m2), 3)),
                          TXI(set1_epi32)(0xFFFF));
        /* the second taps of the other lanes alone */
        TXV b = TXN(load_at)(p, TXS(andnot)(m3, o1));
        TXV w1 = TXI(srlv_epi32)(b, TXI(slli_epi32)(TXS(and)(o1, m2), 3));

        v = TXS(or)(w0, TXI(slli_epi32)(w1, 16));
        v = TX_BLEND(pairs, v, a);
    }
    return TXS(or)(TXI(slli_epi16)(v, 8), TXI(srli_epi16)(v, 8));
}

static inline __attribute__((always_inline, target(TX_TARGET)))
TXV TXN(rgba8_sample)(const TxMap *m, TXV s, TXV t, int level, bool linear)
{
    const uint8_t *p = m->src + m->level_off[level];
    const int wm1 = m->wm1 >> level, hm1 = m->hm1 >> level;
    const int tile_bytes = m->src_gb ? 32 : 64;
    /* the GB word 32 bytes on in the tile, or in the odd TMEM half */
    const uint8_t *gbp = m->src_gb ? m->src_gb : p + 32;
    const TXV ff = TXI(set1_epi16)(255);
    TXV c[4];
    int k;

    s = TXI(sra_epi32)(s, _mm_cvtsi32_si128(level));
    t = TXI(sra_epi32)(t, _mm_cvtsi32_si128(level));
    if (linear) {
        const TXV m7 = TXI(set1_epi32)(0x7F);
        const TXV n128 = TXI(set1_epi32)(128);
        const TXV one = TXI(set1_epi32)(1);
        TXV is, it, is1, it1, fs, ft, r0, r1, c0, c1, w01, w23;
        TXV ar[2], gb[2];
        TXM pairs;
        bool all_pairs;
        int r;

        /* half a texel back; the 32-bit adder wraps */
        s = TXI(sub_epi32)(s, TXI(set1_epi32)(64));
        t = TXI(sub_epi32)(t, TXI(set1_epi32)(64));
        is = TXI(srai_epi32)(s, 7);
        it = TXI(srai_epi32)(t, 7);
        fs = TXS(and)(s, m7);
        ft = TXS(and)(t, m7);
        is1 = TXN(wrap)(TXI(add_epi32)(is, one), m->wrap_s, wm1 + 1);
        it1 = TXN(wrap)(TXI(add_epi32)(it, one), m->wrap_t, hm1 + 1);
        is = TXN(wrap)(is, m->wrap_s, wm1 + 1);
        it = TXN(wrap)(it, m->wrap_t, hm1 + 1);
        r0 = TXN(row_off)(it, tile_bytes, wm1);
        r1 = TXN(row_off)(it1, tile_bytes, wm1);
        c0 = TXN(col_off)(is, tile_bytes);
        c1 = TXN(col_off)(is1, tile_bytes);
        /* weights below 2^15: 16-bit products */
        w01 = TXS(or)(
            TXI(mullo_epi16)(TXI(sub_epi32)(n128, fs),
                             TXI(sub_epi32)(n128, ft)),
            TXI(slli_epi32)(TXI(mullo_epi16)(
                                fs, TXI(sub_epi32)(n128, ft)), 16));
        w23 = TXS(or)(
            TXI(mullo_epi16)(TXI(sub_epi32)(n128, fs), ft),
            TXI(slli_epi32)(TXI(mullo_epi16)(fs, ft), 16));
        /* the second column is the next word of the same tile row */
        pairs = TX_CMPEQ(is1, TXI(add_epi32)(is, one)) &
                TX_CMPGT(TXI(set1_epi32)(3), TXS(and)(is, TXI(set1_epi32)(3)));
        all_pairs = TX_ALL(pairs);
        for (r = 0; r < 2; r++) {
            TXV o0 = TXI(add_epi32)(r ? r1 : r0, c0);
            TXV o1 = TXI(add_epi32)(r ? r1 : r0, c1);

            ar[r] = TXN(gather_taps)(p, o0, o1, pairs, all_pairs);
            gb[r] = TXN(gather_taps)(gbp, o0, o1, pairs, all_pairs);
        }
        /* R, G, B, A: each pixel's two taps of a row in its 16-bit lanes */
        for (k = 0; k < 4; k++) {
            TXV v[2];

            for (r = 0; r < 2; r++) {
                v[r] = k == 0 ? TXS(and)(ar[r], ff)
                     : k == 1 ? TXI(srli_epi16)(gb[r], 8)
                     : k == 2 ? TXS(and)(gb[r], ff)
                              : TXI(srli_epi16)(ar[r], 8);
            }
            c[k] = TXI(srli_epi32)(TXI(add_epi32)(
                                       TXI(madd_epi16)(v[0], w01),
                                       TXI(madd_epi16)(v[1], w23)),
                                   14);
        }
    } else {
        TXV is = TXN(wrap)(TXI(srai_epi32)(s, 7), m->wrap_s, wm1 + 1);
        TXV it = TXN(wrap)(TXI(srai_epi32)(t, 7), m->wrap_t, hm1 + 1);
        TXV off = TXI(add_epi32)(TXN(row_off)(it, tile_bytes, wm1),
                                 TXN(col_off)(is, tile_bytes));
        TXV ar = TXN(gather_word)(p, off), gb = TXN(gather_word)(gbp, off);

        /* the big-endian AR and GB words' bytes */
        c[0] = TXI(srli_epi32)(ar, 8);
        c[1] = TXS(and)(gb, TXI(set1_epi32)(255));
        c[2] = TXI(srli_epi32)(gb, 8);
        c[3] = TXS(and)(ar, TXI(set1_epi32)(255));
    }
    return TXS(or)(TXS(or)(c[0], TXI(slli_epi32)(c[1], 8)),
                   TXS(or)(TXI(slli_epi32)(c[2], 16),
                           TXI(slli_epi32)(c[3], 24)));
}

#undef TXV
#undef TXM
#undef TX_TARGET
#undef TXI
#undef TXS
#undef TXN
#undef TX_CMPEQ
#undef TX_CMPGT
#undef TX_BLEND
#undef TX_NONZERO
#undef TX_ALL
