/*
 * TEV: texture environment. The colour/alpha combiner stages, konstants,
 * swap tables, alpha test and fog (doc 5.11.1 0xC0-0xFD, YAGCD §5.11.1 BP
 * registers; Dolphin Software/Tev.cpp).
 *
 * Per stage (BP 0xC0 + 2n colour, + 1 alpha):
 *   regular: out = (D + bias) * scale +- ((A * (256 - C') + B * C') >> 8),
 *            C' = C + (C >> 7), with the rounding and scale shifts below;
 *   compare (bias = 3): out = D + (A cmp B ? C : 0) over R8/GR16/BGR24/RGB8.
 * A, B, C are 8-bit, D signed 11-bit; results clamp to 0..255 (CLAMP) or
 * -1024..1023. The rounding follows the hardware-derived formulas Dolphin
 * uses (hwtests tev.cpp); the alpha combiner negates before its shift. The last
 * stage's destination registers give the pixel colour.
 *
 * A stage that enables a texture takes the texel the rasteriser sampled
 * for it (tx.c) through its TSWAP table; TEXC/TEXA keep the last texel of
 * the pixel in stages without one (0 before the first).
 *
 * Indirect texturing (flipper_tev_indirect, YAGCD §5.11.1 BP registers
 * IND_CMD/IND_MTX, the arithmetic of Dolphin's software renderer): the indirect
 * texel's A, B, G give (s, t, u) offsets of 8/5/4/3 bits (FMT), biased by -128
 * (8-bit) or +1 per BIAS bit; a static matrix (S0.10 elements, result >> 3)
 * or a dynamic one (s or t times the offset / 256) scaled by 2^(scale-17)
 * gives the offset added to the stage's coordinate, wrapped per SW/TW;
 * FB adds the previous stage's coordinate. The bump alpha (BS) is the
 * selected offset's low bits masked or shifted by the format, and feeds
 * colour channels 5/6.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <math.h>

enum { R = 0, G = 1, B = 2, A = 3 };

static const int16_t fixed_konst[8] = { 255, 223, 191, 159, 128, 96, 64, 32 };
static const int bias_lut[4] = { 0, 128, -128, 0 };
static const int lshift_lut[4] = { 0, 1, 2, 0 };
static const int rshift_lut[4] = { 0, 0, 0, 1 };

static int16_t sext11(uint32_t v)
{
    return (int16_t)((int32_t)(v << 21) >> 21);
}

/* BP 0xE0-0xE7 written (0xFF: reload all): colour or konst registers */
void flipper_tev_reg_write(FlipperCore *c, uint8_t reg)
{
    int n, first = reg == 0xFF ? 0 : (reg - BP_TEV_REGISTERL0) >> 1;
    int last = reg == 0xFF ? 3 : first;

    for (n = first; n <= last; n++) {
        uint32_t l = c->bp[BP_TEV_REGISTERL0 + 2 * n];
        uint32_t h = c->bp[BP_TEV_REGISTERL0 + 2 * n + 1];

        if (reg == 0xFF || !(reg & 1)) {
            int16_t *d = (l >> 23) & 1 ? c->tev_konst[n] : c->tev_reg[n];
            d[R] = sext11(l);
            d[A] = sext11(l >> 12);
        }
        if (reg == 0xFF || (reg & 1)) {
            int16_t *d = (h >> 23) & 1 ? c->tev_konst[n] : c->tev_reg[n];
            d[B] = sext11(h);
            d[G] = sext11(h >> 12);
        }
    }
}

static int16_t konst(FlipperCore *c, unsigned sel, int comp)
{
    if (sel < 8) {
        return fixed_konst[sel];
    }
    if (sel < 12) {
        return 0;               /* invalid selections read zero */
    }
    if (sel < 16) {
        return comp == A ? 0 : c->tev_konst[sel - 12][comp];
    }
    return c->tev_konst[sel & 3][(sel - 16) >> 2];
}

/* swap table n: BP 0xF6 + 2n (R, G sources) and 0xF7 + 2n (B, A) */
static void swap_sel(FlipperCore *c, int table, uint8_t sel[4])
{
    uint32_t k0 = c->bp[BP_TEV_KSEL0 + 2 * table];
    uint32_t k1 = c->bp[BP_TEV_KSEL0 + 2 * table + 1];

    sel[R] = k0 & 3;
    sel[G] = (k0 >> 2) & 3;
    sel[B] = k1 & 3;
    sel[A] = (k1 >> 2) & 3;
}

typedef struct TevInput {
    unsigned a, b, c;           /* 8-bit */
    int d;                      /* signed 11-bit */
} TevInput;

static void set_input(TevInput *in, int16_t a, int16_t b, int16_t cc, int16_t d)
{
    in->a = (uint8_t)a;
    in->b = (uint8_t)b;
    in->c = (uint8_t)cc;
    in->d = sext11((uint16_t)d);
}

/*
 * A pixel's TEV operands, one array the stages index: the four colour
 * registers (PREV, C0-C2; RGBA each), the texel, the rasterised colour,
 * the stage's konstant, then the constants one, half and zero. Which
 * element each input of a stage reads is decided once per triangle
 * (flipper_tev_prepare), so a pixel's stage is loads and arithmetic.
 */
enum {
    OP_REG = 0, OP_TEX = 16, OP_RAS = 20, OP_KON = 24, OP_ONE = 28,
    OP_HALF = 29, OP_ZERO = 30, OP_COUNT = 32,
};

/*
 * The colour inputs (low 4 bits of `sel`): 0-7 PREV, C0-C2 (colour, alpha),
 * 8/9 texture colour/alpha, 10/11 rasterised colour/alpha, 12 one, 13 half,
 * 14 konst, 15 zero; component k of the colour, or the alpha.
 */
static uint8_t color_op(uint32_t sel, int k)
{
    sel &= 15;
    if (sel < 8) {
        return OP_REG + 4 * (sel >> 1) + ((sel & 1) ? 3 : k);
    }
    switch (sel) {
    case 8: return OP_TEX + k;
    case 9: return OP_TEX + 3;
    case 10: return OP_RAS + k;
    case 11: return OP_RAS + 3;
    case 12: return OP_ONE;
    case 13: return OP_HALF;
    case 14: return OP_KON + k;
    default: return OP_ZERO;
    }
}

/* the alpha inputs (low 3 bits): PREV, A0-A2, texture, rasterised, konst,
 * zero */
static uint8_t alpha_op(uint32_t sel)
{
    sel &= 7;
    if (sel < 4) {
        return OP_REG + 4 * sel + 3;
    }
    switch (sel) {
    case 4: return OP_TEX + 3;
    case 5: return OP_RAS + 3;
    case 6: return OP_KON + 3;
    default: return OP_ZERO;
    }
}

/* the combiner fields of a colour or alpha environment word */
static void combiner_decode(uint32_t env, TevCombiner *m)
{
    int bias = (env >> 16) & 3, scale = (env >> 20) & 3;

    m->sub = (env >> 18) & 1;
    m->clamp = (env >> 19) & 1;
    m->bias = bias_lut[bias];
    m->lshift = lshift_lut[scale];
    m->rshift = rshift_lut[scale];
    m->round = scale == 3 ? 0 : m->sub ? 127 : 128;
    m->compare = bias == 3;
    m->cmp_eq = m->sub;         /* bit 18 in compare mode */
    m->cmp_mode = scale;        /* bits 20-21 in compare mode */
}

static int combine_color(const TevInput *in, const TevCombiner *m)
{
    unsigned cc = in->c + (in->c >> 7);
    int t = (int)(in->a * (256 - cc) + in->b * cc);
    int r;

    t <<= m->lshift;
    t += m->round;
    t >>= 8;
    if (m->sub) {
        t = -t;
    }
    r = ((in->d + m->bias) * (1 << m->lshift)) + t;
    return r >> m->rshift;
}

static int combine_alpha(const TevInput *in, const TevCombiner *m)
{
    unsigned cc = in->c + (in->c >> 7);
    int t = (int)(in->a * (256 - cc) + in->b * cc);
    int r;

    t <<= m->lshift;
    /* rounded as the colour combiner, except when dividing by two: what
     * the reference renders (a 4-stage scene's alpha, shown as colour,
     * measured 1 lower without the +128) */
    t += m->round;
    t = m->sub ? (-t >> 8) : (t >> 8);
    r = ((in->d + m->bias) * (1 << m->lshift)) + t;
    return r >> m->rshift;
}

/* compare mode value of the R8/GR16/BGR24 forms */
static uint32_t cmp_value(const TevInput in[4], int mode, bool use_a)
{
    uint32_t r = use_a ? in[R].a : in[R].b, g = use_a ? in[G].a : in[G].b;
    uint32_t b = use_a ? in[B].a : in[B].b;

    switch (mode) {
    case 0:  return r;
    case 1:  return g << 8 | r;
    default: return b << 16 | g << 8 | r;
    }
}

static bool alpha_compare(int alpha, int ref, int op)
{
    switch (op) {
    case 0: return false;
    case 1: return alpha < ref;
    case 2: return alpha == ref;
    case 3: return alpha <= ref;
    case 4: return alpha > ref;
    case 5: return alpha != ref;
    case 6: return alpha >= ref;
    default: return true;
    }
}

static bool alpha_test(FlipperCore *c, int alpha)
{
    uint32_t v = c->bp[BP_ALPHACOMPARE];
    bool a = alpha_compare(alpha, v & 0xFF, (v >> 16) & 7);
    bool b = alpha_compare(alpha, (v >> 8) & 0xFF, (v >> 19) & 7);

    switch ((v >> 22) & 3) {
    case 0:  return a && b;
    case 1:  return a || b;
    case 2:  return a != b;
    default: return a == b;
    }
}

void flipper_tev_ind_prepare(FlipperCore *c, TevIndirect *ind)
{
    int m, k;

    for (m = 0; m < 3; m++) {
        int scale = 0;
        for (k = 0; k < 3; k++) {
            uint32_t w = c->bp[BP_IND_MTXA0 + 3 * m + k];
            ind->mtx[m][2 * k] = sext11(w);
            ind->mtx[m][2 * k + 1] = sext11(w >> 11);
            scale |= (int)((w >> 22) & 3) << (2 * k);
        }
        ind->shift[m] = 17 - scale;
    }
}

static int32_t ind_wrap(int32_t coord, unsigned mode)
{
    static const int32_t mask[6] = { 0, 256 * 128 - 1, 128 * 128 - 1,
                                     64 * 128 - 1, 32 * 128 - 1, 16 * 128 - 1 };

    if (mode == 0) {
        return coord;
    }
    return mode < 6 ? coord & mask[mode] : 0;
}

/* a shift by `shift` (left when negative), as x86 does it on 32 bits */
static int32_t ind_scale(int64_t v, int shift)
{
    uint32_t u = (uint32_t)(int32_t)v;

    if (shift >= 0) {
        return (int32_t)u >> (shift & 31);
    }
    return (int32_t)(u << ((-shift) & 31));
}

/* an IND_CMD's fields, decoded once for the pixels it steps */
typedef struct IndStep {
    int fmt_shift, biasval, bump_shift;
    unsigned fmt, bias, bs, sw, tw, kind;   /* kind: mtx >> 2 */
    bool fb;
    const int32_t *m;           /* the matrix; NULL: no translation */
    int shift;
} IndStep;

static inline __attribute__((always_inline))
void ind_decode(const TevIndirect *ind, uint32_t cmd, IndStep *d)
{
    static const int fmt_shift[4] = { 0, 3, 4, 5 };
    unsigned mtx = (cmd >> 9) & 15;

    d->fmt = (cmd >> 2) & 3;
    d->bias = (cmd >> 4) & 7;
    d->bs = (cmd >> 7) & 3;
    d->sw = (cmd >> 13) & 7;
    d->tw = (cmd >> 16) & 7;
    d->fb = (cmd >> 20) & 1;
    d->fmt_shift = fmt_shift[d->fmt];
    d->biasval = d->fmt == 0 ? -128 : 1;
    d->kind = mtx >> 2;
    d->m = (mtx & 3) != 0 && (mtx >> 2) < 3 ? ind->mtx[(mtx & 3) - 1] : NULL;
    d->shift = d->m ? ind->shift[(mtx & 3) - 1] : 0;
}

static inline __attribute__((always_inline))
uint8_t ind_step(const IndStep *d, int32_t s, int32_t t,
                 const uint8_t indtex[4], int32_t tc[2])
{
    int32_t off[3];
    int64_t trans[2] = { 0, 0 };
    uint8_t bump;
    int k;

    /* (s, t, u) from the texel's A, B, G */
    off[0] = indtex[A] >> d->fmt_shift;
    off[1] = indtex[B] >> d->fmt_shift;
    off[2] = indtex[G] >> d->fmt_shift;
    bump = d->bs == 0 ? 0 : indtex[d->bs == 1 ? A : d->bs == 2 ? B : G];
    bump = d->fmt == 0 ? (uint8_t)(bump & 0xF8)
                       : (uint8_t)(bump << (8 - d->fmt_shift));
    for (k = 0; k < 3; k++) {
        off[k] += (d->bias >> k) & 1 ? d->biasval : 0;
    }
    if (d->m) {
        const int32_t *m = d->m;
        switch (d->kind) {
        case 0:     /* static: S0.10 elements, S17.7 result */
            trans[0] = ((int64_t)m[0] * off[0] + (int64_t)m[2] * off[1] +
                        (int64_t)m[4] * off[2]) >> 3;
            trans[1] = ((int64_t)m[1] * off[0] + (int64_t)m[3] * off[1] +
                        (int64_t)m[5] * off[2]) >> 3;
            break;
        case 1:     /* dynamic S */
            trans[0] = (int64_t)s * off[0] / 256;
            trans[1] = (int64_t)t * off[0] / 256;
            break;
        default:    /* dynamic T */
            trans[0] = (int64_t)s * off[1] / 256;
            trans[1] = (int64_t)t * off[1] / 256;
            break;
        }
        trans[0] = ind_scale(trans[0], d->shift);
        trans[1] = ind_scale(trans[1], d->shift);
    }
    if (d->fb) {
        tc[0] = (int32_t)((uint32_t)tc[0] + (uint32_t)ind_wrap(s, d->sw) +
                          (uint32_t)trans[0]);
        tc[1] = (int32_t)((uint32_t)tc[1] + (uint32_t)ind_wrap(t, d->tw) +
                          (uint32_t)trans[1]);
    } else {
        tc[0] = (int32_t)((uint32_t)ind_wrap(s, d->sw) + (uint32_t)trans[0]);
        tc[1] = (int32_t)((uint32_t)ind_wrap(t, d->tw) + (uint32_t)trans[1]);
    }
    return bump;
}

uint8_t flipper_tev_indirect(const TevIndirect *ind, uint32_t cmd, int32_t s,
                             int32_t t, const uint8_t indtex[4],
                             int32_t tc[2])
{
    IndStep d;

    ind_decode(ind, cmd, &d);
    return ind_step(&d, s, t, indtex, tc);
}

void flipper_tev_indirect4(const TevIndirect *ind, uint32_t cmd,
                           unsigned mask, const int32_t s[4],
                           const int32_t t[4], const uint8_t indtex[4][4][4],
                           int32_t tc[2][4], uint8_t bump[4][16], int stage)
{
    IndStep d;
    int i;

    /* the command's fields decoded once a quad */
    ind_decode(ind, cmd, &d);
    for (i = 0; i < 4; i++) {
        if (mask & (1u << i)) {
            int32_t p[2] = { tc[0][i], tc[1][i] };

            bump[i][stage] = ind_step(&d, s[i], t[i], indtex[i][cmd & 3], p);
            tc[0][i] = p[0];
            tc[1][i] = p[1];
        }
    }
}

static float fog_float(uint32_t v)
{
    /* sign 19, exponent 11-18, 11-bit mantissa: the top of an f32 */
    return u2f(((v >> 19) & 1) << 31 | ((v >> 11) & 0xFF) << 23 |
               (v & 0x7FF) << 12);
}

static void fog(FlipperCore *c, int x, uint32_t z, uint8_t out[4])
{
    uint32_t p3 = c->bp[BP_FOGPARAM3], range = c->bp[BP_FOGRANGE];
    uint32_t col = c->bp[BP_FOGCOLOR];
    int fsel = (p3 >> 21) & 7;
    float a = fog_float(c->bp[BP_FOGPARAM0]), ze, f;
    uint32_t fi, inv;

    if (!((p3 >> 20) & 1)) {
        int32_t denom = (int32_t)(c->bp[BP_FOGBMAGNITUDE] & 0xFFFFFF) -
                        (int32_t)(z >> (c->bp[BP_FOGBEXPONENT] & 31));
        ze = (a * 16777215.0f) / (float)denom;
    } else {
        ze = a * ((float)z / 16777215.0f);
    }
    if ((range >> 10) & 1) {
        /* range adjustment by distance from the viewport centre */
        float wd = xf_f(c, XF_REG_VIEWPORT);
        float off = (x - ((int)(range & 0x3FF) - FLIPPER_SCREEN_OFFSET)) / wd;
        float fidx = g3d_clampf(9.0f - fabsf(off) * 9.0f, 0.0f, 9.0f);
        int lo = (int)fidx, hi = lo + 1;
        uint32_t klo = c->bp[BP_FOGRANGE + 1 + lo / 2];
        uint32_t khi = c->bp[BP_FOGRANGE + 1 + MIN(hi, 9) / 2];
        float kl = ((lo & 1 ? klo : klo >> 12) & 0xFFF) / 256.0f * 4.0f;
        float kh = ((hi & 1 ? khi : khi >> 12) & 0xFFF) / 256.0f * 4.0f;
        float fac = hi - fidx, k = kl * fac + kh * (1.0f - fac);
        ze *= sqrtf(off * off + k * k) / k;
    }
    ze -= fog_float(p3);
    f = g3d_clampf(ze, 0.0f, 1.0f);
    switch (fsel) {
    case 4: f = 1.0f - powf(2.0f, -8.0f * f); break;
    case 5: f = 1.0f - powf(2.0f, -8.0f * f * f); break;
    case 6: f = 1.0f - f; f = powf(2.0f, -8.0f * f); break;
    case 7: f = 1.0f - f; f = powf(2.0f, -8.0f * f * f); break;
    default: break;
    }
    fi = (uint32_t)(f * 256);
    inv = 256 - fi;
    out[R] = (out[R] * inv + fi * ((col >> 16) & 0xFF)) >> 8;
    out[G] = (out[G] * inv + fi * ((col >> 8) & 0xFF)) >> 8;
    out[B] = (out[B] * inv + fi * (col & 0xFF)) >> 8;
}

const FlipperTevFast *flipper_tev_fast(FlipperCore *c)
{
    FlipperTevFast *f = &c->tev_fast;
    uint32_t gen = c->bp[BP_GENMODE];
    uint32_t cenv = c->bp[BP_TEV_COLOR_ENV0] & 0xFFFFFF;
    uint32_t aenv = c->bp[BP_TEV_COLOR_ENV0 + 1] & 0xFFFFFF;
    uint32_t order = c->bp[BP_TREF0];
    int a;

    if (!c->tev_fast_dirty) {
        return f;
    }
    c->tev_fast_dirty = false;
    f->on = false;
    f->chan = (order >> 7) & 7;
    /* one stage; colour: A, B, C zero, D RASC, no bias/sub-scale (bits
     * 16-21 but SUB, which cannot matter with A = B = C = 0) */
    if (G3D_FIELD_EX32(gen, BP_GENMODE_R, NTEV) != 0 || ((order >> 6) & 1) ||
        f->chan > 1 || (cenv & 0xFFFF) != 0xFFFA || (cenv & 0x330000) ||
        (aenv & 0xFFF0) != 0xFFD0 || (aenv & 0x330000) ||
        ((c->bp[BP_FOGPARAM3] >> 21) & 7) != 0 ||
        ((c->bp[BP_ZTEX2] >> 2) & 3)) {
        return f;
    }
    for (a = 0; a < 256; a++) {
        if (!alpha_test(c, a)) {
            return f;
        }
    }
    swap_sel(c, aenv & 3, f->swap);
    f->on = true;
    return f;
}

bool flipper_force_general;

/*
 * Stage kinds: the general combiner, or the two forms games use most, whose
 * regular formula (bias 0, no subtract, scale 1) reduces exactly to
 *   replace:  A = B = zero:  out = D  (the rounding term (0 + 128) >> 8 = 0)
 *   modulate: A = zero:      out = D + ((B * C' + 128) >> 8)
 * (GX_REPLACE/GX_PASSCLR and GX_MODULATE of libogc's GX_SetTevOp, and a
 * modulate added to a previous stage's result), then CLAMP as usual
 * (TEV_KIND_*, flipper-int.h). a, b: the operands of inputs A, B for n
 * components.
 */
static uint8_t stage_kind(uint32_t env, const uint8_t *a, const uint8_t *b,
                          int n)
{
    bool a0 = true, b0 = true;
    int k;

    if (flipper_force_general || (env & 0x370000)) {
        return TEV_KIND_GENERAL;        /* bias, subtract or scale in use */
    }
    for (k = 0; k < n; k++) {
        a0 &= a[k] == OP_ZERO;
        b0 &= b[k] == OP_ZERO;
    }
    return a0 && b0 ? TEV_KIND_REPLACE : a0 ? TEV_KIND_MODULATE
                                            : TEV_KIND_GENERAL;
}

/*
 * TEV_MOD_*: whether the program is one stage that multiplies the texel by
 * the rasterised colour (or the other way round) per component with D zero
 * and both swap tables the identity (libogc GX_SetTevOp(GX_MODULATE)), so
 * flipper_tev_shade4 can run all sixteen components in 16-bit lanes.
 */
static uint8_t tex_mod(const TevProgram *prog)
{
    const TevStage *st = &prog->st[0];
    uint8_t b, cc;
    int k;

    if (prog->nstages != 1 || !prog->quad || prog->ztex_op || !st->tex ||
        (st->chan != 0 && st->chan != 1) ||
        st->ckind != TEV_KIND_MODULATE || st->akind != TEV_KIND_MODULATE) {
        return TEV_MOD_NONE;
    }
    for (k = 0; k < 4; k++) {
        if (st->tex_swap[k] != k || st->ras_swap[k] != k) {
            return TEV_MOD_NONE;
        }
    }
    b = st->cin[1][0];
    if (b != OP_TEX && b != OP_RAS) {
        return TEV_MOD_NONE;
    }
    cc = b == OP_TEX ? OP_RAS : OP_TEX;
    for (k = 0; k < 4; k++) {
        uint8_t ob = k < 3 ? st->cin[1][k] : st->ain[1];
        uint8_t oc = k < 3 ? st->cin[2][k] : st->ain[2];
        uint8_t od = k < 3 ? st->cin[3][k] : st->ain[3];

        if (ob != b + k || oc != cc + k || od != OP_ZERO) {
            return TEV_MOD_NONE;
        }
    }
    return b == OP_TEX ? TEV_MOD_TEX_RAS : TEV_MOD_RAS_TEX;
}

void flipper_tev_prepare(FlipperCore *c, TevProgram *prog)
{
    uint32_t gen = c->bp[BP_GENMODE];
    int s, a;

    prog->nstages = G3D_FIELD_EX32(gen, BP_GENMODE_R, NTEV) + 1;
    for (s = 0; s < prog->nstages; s++) {
        TevStage *st = &prog->st[s];
        uint32_t order = c->bp[BP_TREF0 + s / 2] >> (12 * (s & 1));
        uint32_t ksel = c->bp[BP_TEV_KSEL0 + s / 2] >> (10 * (s & 1));

        st->cenv = c->bp[BP_TEV_COLOR_ENV0 + 2 * s];
        st->aenv = c->bp[BP_TEV_COLOR_ENV0 + 2 * s + 1];
        st->tex = (order >> 6) & 1;
        st->chan = (order >> 7) & 7;
        st->kon[R] = konst(c, (ksel >> 4) & 31, R);
        st->kon[G] = konst(c, (ksel >> 4) & 31, G);
        st->kon[B] = konst(c, (ksel >> 4) & 31, B);
        st->kon[A] = konst(c, (ksel >> 9) & 31, A);
        swap_sel(c, st->aenv & 3, st->ras_swap);
        swap_sel(c, (st->aenv >> 2) & 3, st->tex_swap);
        /* inputs A, B, C, D: colour selects at bits 12, 8, 4, 0, alpha
         * selects at bits 13, 10, 7, 4 */
        for (a = 0; a < 4; a++) {
            int k;
            for (k = 0; k < 3; k++) {
                st->cin[a][k] = color_op(st->cenv >> (12 - 4 * a), k);
            }
            st->ain[a] = alpha_op(st->aenv >> (13 - 3 * a));
        }
        st->reads_ras = st->reads_kon = false;
        for (a = 0; a < 4; a++) {
            int k;
            for (k = 0; k < 4; k++) {
                uint8_t o = k < 3 ? st->cin[a][k] : st->ain[a];
                st->reads_ras |= o >= OP_RAS && o < OP_RAS + 4;
                st->reads_kon |= o >= OP_KON && o < OP_KON + 4;
            }
        }
        for (a = 0; a < 16; a++) {
            st->kon4[a / 4][a % 4] = st->kon[a / 4];
        }
        combiner_decode(st->cenv, &st->ccomb);
        combiner_decode(st->aenv, &st->acomb);
        st->ckind = stage_kind(st->cenv, st->cin[0], st->cin[1], 3);
        st->akind = stage_kind(st->aenv, &st->ain[0], &st->ain[1], 1);
    }
    for (a = 0; a < 64; a++) {
        prog->reg4[a / 4][a % 4] = c->tev_reg[a / 16][(a / 4) % 4];
    }
    prog->alpha_all = true;
    for (a = 0; a < 256; a++) {
        prog->alpha_pass[a] = alpha_test(c, a);
        prog->alpha_all &= prog->alpha_pass[a];
    }
    prog->fog = ((c->bp[BP_FOGPARAM3] >> 21) & 7) != 0;
    prog->ztex_op = (c->bp[BP_ZTEX2] >> 2) & 3;
    prog->ztex_type = c->bp[BP_ZTEX2] & 3;
    prog->ztex_bias = c->bp[BP_BIAS] & 0xFFFFFF;
#ifdef __SSE2__
    prog->quad = !flipper_force_general;
#else
    prog->quad = false;
#endif
    if (prog->ztex_op == 3 || (prog->ztex_op && prog->ztex_type == 3)) {
        g3d_guest_error("flipper: TEV: Z texture op %u type %u",
                        prog->ztex_op, prog->ztex_type);
        prog->ztex_op = 0;
    }
    prog->tex_mod = tex_mod(prog);
}

/*
 * Z texture (TEV_Z_ENV_0/1): the last texel (after its swap) as u8 (A),
 * u16 (A:R) or u24 (R:G:B) plus the bias replaces or is added to the
 * pixel's Z, after the alpha test and before fog and the late Z test.
 */
static uint32_t ztex(const TevProgram *prog, const int16_t tex[4], uint32_t z)
{
    uint32_t v = prog->ztex_bias;

    switch (prog->ztex_type) {
    case 0:  v += (uint8_t)tex[A]; break;
    case 1:  v += (uint32_t)(uint8_t)tex[A] << 8 | (uint8_t)tex[R]; break;
    default: v += (uint32_t)(uint8_t)tex[R] << 16 |
                  (uint32_t)(uint8_t)tex[G] << 8 | (uint8_t)tex[B]; break;
    }
    if (prog->ztex_op == 1) {
        v += z;
    }
    return v & 0xFFFFFF;
}

static int16_t clamp_result(int v, const TevCombiner *m)
{
    return m->clamp ? g3d_clampi(v, 0, 255) : g3d_clampi(v, -1024, 1023);
}

/*
 * One result of a replace or modulate stage (TEV_KIND_*) from the operands
 * of inputs B, C, D; a general stage's results come from color_general /
 * alpha_general instead.
 */
static inline int16_t stage_value(uint8_t kind, const TevCombiner *m,
                                  const int16_t *op, uint8_t b, uint8_t c,
                                  uint8_t d)
{
    /* D is signed 11-bit */
    int v = sext11((uint16_t)op[d]);

    if (kind == TEV_KIND_MODULATE) {
        unsigned vb = (uint8_t)op[b], vc = (uint8_t)op[c];
        v += (int)((vb * (vc + (vc >> 7)) + 128) >> 8);
    }
    return clamp_result(v, m);
}

/* a general stage's colour: the regular combiner or a comparison */
static void color_general(const TevInput in[4], const TevCombiner *m,
                          int16_t res[3])
{
    int k;

    if (!m->compare) {
        for (k = 0; k < 3; k++) {
            res[k] = clamp_result(combine_color(&in[k], m), m);
        }
    } else {
        for (k = 0; k < 3; k++) {
            uint32_t a = m->cmp_mode == 3 ? in[k].a
                                          : cmp_value(in, m->cmp_mode, true);
            uint32_t b = m->cmp_mode == 3 ? in[k].b
                                          : cmp_value(in, m->cmp_mode, false);
            bool pass = m->cmp_eq ? a == b : a > b;
            res[k] = clamp_result(in[k].d + (pass ? (int)in[k].c : 0), m);
        }
    }
}

static int16_t alpha_general(const TevInput in[4], const TevCombiner *m)
{
    if (!m->compare) {
        return clamp_result(combine_alpha(&in[A], m), m);
    } else {
        uint32_t a = m->cmp_mode == 3 ? in[A].a
                                      : cmp_value(in, m->cmp_mode, true);
        uint32_t b = m->cmp_mode == 3 ? in[A].b
                                      : cmp_value(in, m->cmp_mode, false);
        bool pass = m->cmp_eq ? a == b : a > b;
        return clamp_result(in[A].d + (pass ? (int)in[A].c : 0), m);
    }
}

/*
 * The general combiner for a stage whose colour or alpha (or both) is not a
 * replace or modulate: every input is read before a result is written (a
 * compare-mode alpha reads the colour inputs too).
 */
static void stage_general(const TevStage *st, const int16_t *op,
                          int16_t cres[3], int16_t *ares)
{
    TevInput in[4];
    int k;

    for (k = 0; k < 3; k++) {
        set_input(&in[k], op[st->cin[0][k]], op[st->cin[1][k]],
                  op[st->cin[2][k]], op[st->cin[3][k]]);
    }
    set_input(&in[A], op[st->ain[0]], op[st->ain[1]], op[st->ain[2]],
              op[st->ain[3]]);
    if (st->ckind == TEV_KIND_GENERAL) {
        color_general(in, &st->ccomb, cres);
    }
    if (st->akind == TEV_KIND_GENERAL) {
        *ares = alpha_general(in, &st->acomb);
    }
}

bool flipper_tev_shade(FlipperCore *c, const TevProgram *prog, TevPixel *p,
                       uint8_t out[4])
{
    int16_t op[OP_COUNT] = { 0 }, (*reg)[4] = (int16_t (*)[4])&op[OP_REG];
    int16_t *tex = &op[OP_TEX], *ras = &op[OP_RAS];
    int s, k, cdest = 0, adest = 0;

    memcpy(&op[OP_REG], c->tev_reg, sizeof(c->tev_reg));
    op[OP_ONE] = 255;
    op[OP_HALF] = 128;
    for (s = 0; s < prog->nstages; s++) {
        const TevStage *st = &prog->st[s];
        uint32_t cenv = st->cenv, aenv = st->aenv;
        int16_t cres[3], ares = 0;

        if (st->tex) {
            for (k = 0; k < 4; k++) {
                tex[k] = p->tex[s][st->tex_swap[k]];
            }
        }
        if (st->chan == 0 || st->chan == 1) {
            for (k = 0; k < 4; k++) {
                ras[k] = p->col[st->chan][st->ras_swap[k]];
            }
        } else if (st->chan == 5 || st->chan == 6) {
            /* the indirect bump alpha, 6: normalised (top bits repeated) */
            uint8_t b = p->bump[s];
            b = st->chan == 6 ? (uint8_t)(b | b >> 5) : b;
            ras[R] = ras[G] = ras[B] = ras[A] = b;
        } else {
            /* 7 zero, others (reserved) zero */
            memset(ras, 0, 4 * sizeof(*ras));
        }
        memcpy(&op[OP_KON], st->kon, sizeof(st->kon));

        if (st->ckind == TEV_KIND_GENERAL || st->akind == TEV_KIND_GENERAL) {
            stage_general(st, op, cres, &ares);
        }
        if (st->ckind != TEV_KIND_GENERAL) {
            for (k = 0; k < 3; k++) {
                cres[k] = stage_value(st->ckind, &st->ccomb, op, st->cin[1][k],
                                      st->cin[2][k], st->cin[3][k]);
            }
        }
        if (st->akind != TEV_KIND_GENERAL) {
            ares = stage_value(st->akind, &st->acomb, op, st->ain[1], st->ain[2],
                               st->ain[3]);
        }
        cdest = (cenv >> 22) & 3;
        adest = (aenv >> 22) & 3;
        for (k = 0; k < 3; k++) {
            reg[cdest][k] = cres[k];
        }
        reg[adest][A] = ares;
    }

    out[R] = (uint8_t)reg[cdest][R];
    out[G] = (uint8_t)reg[cdest][G];
    out[B] = (uint8_t)reg[cdest][B];
    out[A] = (uint8_t)reg[adest][A];

    if (!prog->alpha_pass[out[A]]) {
        return false;
    }
    if (prog->ztex_op) {
        p->z = ztex(prog, tex, p->z);
    }
    if (prog->fog) {
        fog(c, p->x, p->z, out);
    }
    return true;
}

/* ---- four pixels at once --------------------------------------------------- */

#ifdef __SSE2__
/*
 * The quad's pixels in the four 32-bit lanes of a vector: every operand of
 * flipper_tev_shade's array is a vector here, and each stage does the scalar
 * combiner's integer operations lane by lane (products by pmaddwd of 16-bit
 * pairs, which are exact for 8- and 9-bit factors; shifts, compares and the
 * clamp as in combine_color/alpha, stage_value, color/alpha_general), so
 * each lane holds exactly the scalar pixel's values.
 */
typedef struct TevIn4 {
    __m128i a, b, c, d;         /* a, b, c 8-bit; d signed 11-bit */
} TevIn4;

static inline __m128i lo8(__m128i v)
{
    return _mm_and_si128(v, _mm_set1_epi32(0xFF));
}

static inline __m128i sext11_4(__m128i v)
{
    return _mm_srai_epi32(_mm_slli_epi32(v, 21), 21);
}

/* byte `byte` of each lane's 32-bit word, zero-extended */
static inline __m128i byte4(__m128i w, int byte)
{
    return lo8(_mm_srl_epi32(w, _mm_cvtsi32_si128(8 * byte)));
}

static inline void in4(TevIn4 *in, const __m128i *op, uint8_t a, uint8_t b,
                       uint8_t cc, uint8_t d)
{
    in->a = lo8(op[a]);
    in->b = lo8(op[b]);
    in->c = lo8(op[cc]);
    in->d = sext11_4(op[d]);
}

/* clamp_result for four lanes (the values fit in 16 bits) */
static inline __m128i clamp4(__m128i v, const TevCombiner *m)
{
    __m128i p = _mm_packs_epi32(v, v);

    p = m->clamp ? _mm_max_epi16(_mm_min_epi16(p, _mm_set1_epi16(255)),
                                 _mm_setzero_si128())
                 : _mm_max_epi16(_mm_min_epi16(p, _mm_set1_epi16(1023)),
                                 _mm_set1_epi16(-1024));
    return _mm_srai_epi32(_mm_unpacklo_epi16(p, p), 16);
}

/* cc = C + (C >> 7); A * (256 - cc) + B * cc, shifted left by lshift */
static inline __m128i lerp4(const TevIn4 *in, int lshift)
{
    __m128i cc = _mm_add_epi32(in->c, _mm_srli_epi32(in->c, 7));
    __m128i w = _mm_or_si128(_mm_sub_epi32(_mm_set1_epi32(256), cc),
                             _mm_slli_epi32(cc, 16));
    __m128i ab = _mm_or_si128(in->a, _mm_slli_epi32(in->b, 16));

    /* (256 - cc) << 2 and cc << 2 stay within their 16-bit halves */
    return _mm_madd_epi16(ab, _mm_sll_epi32(w, _mm_cvtsi32_si128(lshift)));
}

static inline __m128i neg4(__m128i v, bool sub)
{
    return sub ? _mm_sub_epi32(_mm_setzero_si128(), v) : v;
}

/* (D + bias) * 2^lshift + t, >> rshift, clamped */
static inline __m128i finish4(const TevIn4 *in, const TevCombiner *m,
                              __m128i t)
{
    __m128i r = _mm_sll_epi32(_mm_add_epi32(in->d, _mm_set1_epi32(m->bias)),
                              _mm_cvtsi32_si128(m->lshift));

    r = _mm_add_epi32(r, t);
    return clamp4(_mm_sra_epi32(r, _mm_cvtsi32_si128(m->rshift)), m);
}

/* combine_color, clamped */
static inline __m128i color4(const TevIn4 *in, const TevCombiner *m)
{
    __m128i t = _mm_add_epi32(lerp4(in, m->lshift), _mm_set1_epi32(m->round));

    return finish4(in, m, neg4(_mm_srai_epi32(t, 8), m->sub));
}

/* combine_alpha, clamped: negated before the shift */
static inline __m128i alpha4(const TevIn4 *in, const TevCombiner *m)
{
    __m128i t = _mm_add_epi32(lerp4(in, m->lshift), _mm_set1_epi32(m->round));

    return finish4(in, m, _mm_srai_epi32(neg4(t, m->sub), 8));
}

/* cmp_value: the R8/GR16/BGR24 value of the colour inputs' A or B */
static inline __m128i cmp_value4(const TevIn4 in[4], int mode, bool use_a)
{
    __m128i r = use_a ? in[R].a : in[R].b, g = use_a ? in[G].a : in[G].b;
    __m128i b = use_a ? in[B].a : in[B].b;

    switch (mode) {
    case 0:
        return r;
    case 1:
        return _mm_or_si128(_mm_slli_epi32(g, 8), r);
    default:
        return _mm_or_si128(_mm_or_si128(_mm_slli_epi32(b, 16),
                                         _mm_slli_epi32(g, 8)), r);
    }
}

/* a compare-mode result for input k: D + (A cmp B ? C : 0), clamped (the
 * values are below 2^24, so the signed compare is the unsigned one) */
static inline __m128i compare4(const TevIn4 in[4], int k,
                               const TevCombiner *m)
{
    __m128i a = m->cmp_mode == 3 ? in[k].a : cmp_value4(in, m->cmp_mode, true);
    __m128i b = m->cmp_mode == 3 ? in[k].b : cmp_value4(in, m->cmp_mode, false);
    __m128i pass = m->cmp_eq ? _mm_cmpeq_epi32(a, b) : _mm_cmpgt_epi32(a, b);

    return clamp4(_mm_add_epi32(in[k].d, _mm_and_si128(pass, in[k].c)), m);
}

/* stage_value for four lanes: replace or modulate */
static inline __m128i kind4(uint8_t kind, const TevCombiner *m,
                            const __m128i *op, uint8_t b, uint8_t c,
                            uint8_t d)
{
    __m128i v = sext11_4(op[d]);

    if (kind == TEV_KIND_MODULATE) {
        __m128i vc = lo8(op[c]);
        /* B * C' < 2^16: pmaddwd of the low halves (the high ones are 0) */
        __m128i t = _mm_madd_epi16(lo8(op[b]),
                                   _mm_add_epi32(vc, _mm_srli_epi32(vc, 7)));
        t = _mm_srli_epi32(_mm_add_epi32(t, _mm_set1_epi32(128)), 8);
        v = _mm_add_epi32(v, t);
    }
    return clamp4(v, m);
}

/* the four pixels' words of a per-pixel RGBA byte array (stride bytes) */
static inline __m128i words4(const uint8_t *p, size_t stride)
{
    uint32_t w[4];

    memcpy(&w[0], p, 4);
    memcpy(&w[1], p + stride, 4);
    memcpy(&w[2], p + 2 * stride, 4);
    memcpy(&w[3], p + 3 * stride, 4);
    return _mm_loadu_si128((const __m128i *)w);
}

/* prog->tex_mod: the stage's modulate of every component of the four
 * pixels (flipper_tev_mod_words) */
static void tex_mod4(const TevProgram *prog, const TevQuad *q,
                     uint8_t out[4][4])
{
    _mm_storeu_si128((__m128i *)out, flipper_tev_mod_words(
        prog->tex_mod, words4(q->tex[0][0], sizeof(q->tex[0])),
        _mm_loadu_si128((const __m128i *)q->col[prog->st[0].chan])));
}

unsigned flipper_tev_shade4(FlipperCore *c, const TevProgram *prog,
                            TevQuad *q, uint8_t out[4][4])
{
    __m128i op[OP_COUNT], *reg = &op[OP_REG], *tex = &op[OP_TEX];
    __m128i *ras = &op[OP_RAS];
    unsigned pass = 0;
    int s, k, i, cdest = 0, adest = 0;

    if (prog->tex_mod) {
        tex_mod4(prog, q, out);
        goto per_pixel;
    }
    for (k = 0; k < 16; k++) {
        reg[k] = _mm_loadu_si128((const __m128i *)prog->reg4[k]);
    }
    for (k = 0; k < 4; k++) {
        tex[k] = _mm_setzero_si128();
    }
    op[OP_ONE] = _mm_set1_epi32(255);
    op[OP_HALF] = _mm_set1_epi32(128);
    op[OP_ZERO] = _mm_setzero_si128();
    for (s = 0; s < prog->nstages; s++) {
        const TevStage *st = &prog->st[s];
        __m128i cres[3], ares = _mm_setzero_si128();

        if (st->tex) {
            __m128i w = words4(q->tex[0][s], sizeof(q->tex[0]));
            for (k = 0; k < 4; k++) {
                tex[k] = byte4(w, st->tex_swap[k]);
            }
        }
        /* the rasterised colour and the konstant are the stage's own:
         * set only when it reads them */
        if (!st->reads_ras) {
            /* nothing */
        } else if (st->chan == 0 || st->chan == 1) {
            __m128i w = words4(q->col[st->chan][0], 4);
            for (k = 0; k < 4; k++) {
                ras[k] = byte4(w, st->ras_swap[k]);
            }
        } else if (st->chan == 5 || st->chan == 6) {
            __m128i b = _mm_setr_epi32(q->bump[0][s], q->bump[1][s],
                                       q->bump[2][s], q->bump[3][s]);
            if (st->chan == 6) {
                b = _mm_or_si128(b, _mm_srli_epi32(b, 5));
            }
            ras[R] = ras[G] = ras[B] = ras[A] = b;
        } else {
            ras[R] = ras[G] = ras[B] = ras[A] = _mm_setzero_si128();
        }
        for (k = 0; k < 4 && st->reads_kon; k++) {
            op[OP_KON + k] = _mm_loadu_si128((const __m128i *)st->kon4[k]);
        }

        if (st->ckind == TEV_KIND_GENERAL || st->akind == TEV_KIND_GENERAL) {
            TevIn4 in[4];
            for (k = 0; k < 3; k++) {
                in4(&in[k], op, st->cin[0][k], st->cin[1][k], st->cin[2][k],
                    st->cin[3][k]);
            }
            in4(&in[A], op, st->ain[0], st->ain[1], st->ain[2], st->ain[3]);
            if (st->ckind == TEV_KIND_GENERAL) {
                for (k = 0; k < 3; k++) {
                    cres[k] = st->ccomb.compare ? compare4(in, k, &st->ccomb)
                                                : color4(&in[k], &st->ccomb);
                }
            }
            if (st->akind == TEV_KIND_GENERAL) {
                ares = st->acomb.compare ? compare4(in, A, &st->acomb)
                                         : alpha4(&in[A], &st->acomb);
            }
        }
        if (st->ckind != TEV_KIND_GENERAL) {
            for (k = 0; k < 3; k++) {
                cres[k] = kind4(st->ckind, &st->ccomb, op, st->cin[1][k],
                                st->cin[2][k], st->cin[3][k]);
            }
        }
        if (st->akind != TEV_KIND_GENERAL) {
            ares = kind4(st->akind, &st->acomb, op, st->ain[1], st->ain[2],
                         st->ain[3]);
        }
        cdest = (st->cenv >> 22) & 3;
        adest = (st->aenv >> 22) & 3;
        for (k = 0; k < 3; k++) {
            reg[4 * cdest + k] = cres[k];
        }
        reg[4 * adest + A] = ares;
    }

    /* each pixel's low bytes of R, G, B, A as one word */
    _mm_storeu_si128((__m128i *)out, _mm_or_si128(
        _mm_or_si128(lo8(reg[4 * cdest + R]),
                     _mm_slli_epi32(lo8(reg[4 * cdest + G]), 8)),
        _mm_or_si128(_mm_slli_epi32(lo8(reg[4 * cdest + B]), 16),
                     _mm_slli_epi32(reg[4 * adest + A], 24))));
per_pixel:
    if (prog->alpha_all && !prog->ztex_op && !prog->fog) {
        return q->live & 15;    /* nothing to do per pixel */
    }
    for (i = 0; i < 4; i++) {
        if (!((q->live >> i) & 1)) {
            continue;
        }
        if (!prog->alpha_pass[out[i][A]]) {
            continue;
        }
        if (prog->ztex_op) {
            int16_t tx[4];
            int32_t v[4];
            for (k = 0; k < 4; k++) {
                _mm_storeu_si128((__m128i *)v, tex[k]);
                tx[k] = (int16_t)v[i];
            }
            q->z[i] = ztex(prog, tx, q->z[i]);
        }
        if (prog->fog) {
            fog(c, q->x + (i & 1), q->z[i], out[i]);
        }
        pass |= 1u << i;
    }
    return pass;
}
#else
unsigned flipper_tev_shade4(FlipperCore *c, const TevProgram *prog,
                            TevQuad *q, uint8_t out[4][4])
{
    unsigned pass = 0;
    int i;

    for (i = 0; i < 4; i++) {
        TevPixel p = {
            .x = q->x + (i & 1), .y = q->y + (i >> 1), .z = q->z[i],
            .tex = q->tex[i], .bump = q->bump[i],
        };
        if (!((q->live >> i) & 1)) {
            continue;
        }
        memcpy(p.col[0], q->col[0][i], 4);
        memcpy(p.col[1], q->col[1][i], 4);
        if (flipper_tev_shade(c, prog, &p, out[i])) {
            pass |= 1u << i;
        }
        q->z[i] = p.z;
    }
    return pass;
}
#endif
