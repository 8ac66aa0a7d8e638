/*
 * glamo-3d: the parts of the RGB565 bilinear fetch (fetch4_rgb565's
 * operations) that are the same for eight pixels a vector (AVX2) and
 * sixteen (AVX-512): the coordinates' floor, fraction and wrapped columns
 * and rows, and the four texels' unpacking and blend. texture.c includes
 * this file once a width; only the texel reads differ between the widths.
 *
 * The includer defines, for its width: TXF (the float vector), TXV (the
 * integer vector), TX_TARGET, TX_ATTR (attributes every function takes),
 * TXI(op) (the intrinsic prefix), TXS(op) (with the whole-register
 * suffix), TXN(name) (name with the width appended),
 * TX_ZERO_NONFINITE(f, c) (f, with 0 in the lanes where c is infinite or
 * NaN), TX_FLOOR_FIX(fl, f) (fl - 1 where the
 * truncation fl is above f) and TX_UNORM2F(v, bits). They are undefined
 * at the end.
 */

/*
 * u and v scaled to texels, half a texel back, floored: the fractions,
 * their complements and the wrapped columns (axis 0) and rows (axis 1) of
 * the two taps. Every lane's operations are the SSE2 ones (MAXPS/MINPS,
 * CVTTPS2DQ, the ordered greater-than): no FMA can contract them.
 */
static inline __attribute__((always_inline, target(TX_TARGET))) TX_ATTR
void TXN(rgb565_axes)(const uint32_t size[2], TXF u, TXF v, TXF frac[2],
                      TXF nfrac[2], TXV i0[2], TXV i1[2])
{
    const TXF lim = TXI(set1_ps)(16777216.0f);
    const TXF half = TXI(set1_ps)(0.5f), one = TXI(set1_ps)(1.0f);
    TXF c[2];
    int a;

    c[0] = TXI(mul_ps)(u, TXI(set1_ps)((float)(int)size[0]));
    c[1] = TXI(mul_ps)(v, TXI(set1_ps)((float)(int)size[1]));
    for (a = 0; a < 2; a++) {
        TXV size1 = TXI(set1_epi32)((int)size[a] - 1);
        TXF f = TXI(min_ps)(TXI(max_ps)(c[a], TXI(sub_ps)(
                                            TXI(setzero_ps)(), lim)), lim);
        TXV fl;

        f = TX_ZERO_NONFINITE(f, c[a]);
        f = TXI(sub_ps)(f, half);
        fl = TX_FLOOR_FIX(TXI(cvttps_epi32)(f), f);
        frac[a] = TXI(sub_ps)(f, TXI(cvtepi32_ps)(fl));
        nfrac[a] = TXI(sub_ps)(one, frac[a]);
        i0[a] = TXS(and)(fl, size1);
        i1[a] = TXS(and)(TXI(add_epi32)(fl, TXI(set1_epi32)(1)), size1);
    }
}

/*
 * raw[0] and raw[1]: each pixel's texels of the first and the second row,
 * the left one in the low 16 bits; unpacked to R, G, B in [0, 1] and
 * blended by the fractions, rows first, as fetch4_rgb565
 */
static inline __attribute__((always_inline, target(TX_TARGET))) TX_ATTR
void TXN(rgb565_blend)(const TXV raw[2], const TXF frac[2],
                       const TXF nfrac[2], TXF out[3])
{
    const TXV low = TXI(set1_epi32)(0xffff);
    TXF texel[4][3];
    TXV f16[2][3];
    int a, k, i;

    for (a = 0; a < 2; a++) {
        f16[a][0] = TXI(srli_epi16)(raw[a], 11);
        f16[a][1] = TXS(and)(TXI(srli_epi16)(raw[a], 5),
                             TXI(set1_epi16)(63));
        f16[a][2] = TXS(and)(raw[a], TXI(set1_epi16)(31));
    }
    for (k = 0; k < 4; k++) {
        for (i = 0; i < 3; i++) {
            TXV f = f16[k >> 1][i];
            TXV w = k & 1 ? TXI(srli_epi32)(f, 16) : TXS(and)(f, low);

            texel[k][i] = TX_UNORM2F(TXI(cvtepi32_ps)(w), i == 1 ? 6 : 5);
        }
    }
    for (k = 0; k < 3; k++) {
        TXF top = TXI(add_ps)(TXI(mul_ps)(texel[0][k], nfrac[0]),
                              TXI(mul_ps)(texel[1][k], frac[0]));
        TXF bot = TXI(add_ps)(TXI(mul_ps)(texel[2][k], nfrac[0]),
                              TXI(mul_ps)(texel[3][k], frac[0]));

        out[k] = TXI(add_ps)(TXI(mul_ps)(top, nfrac[1]),
                             TXI(mul_ps)(bot, frac[1]));
    }
}

#undef TXF
#undef TXV
#undef TX_TARGET
#undef TX_ATTR
#undef TXI
#undef TXS
#undef TXN
#undef TX_ZERO_NONFINITE
#undef TX_FLOOR_FIX
#undef TX_UNORM2F
