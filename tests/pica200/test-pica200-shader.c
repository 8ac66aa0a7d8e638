/*
 * The shader-unit interpreter, instruction by instruction.
 *
 * Vectors marked [Citra] are the Citra/Azahar shader test vectors
 * (src/tests/video_core/shader.cpp: ADD, CALL, DP3, DP4, DPH, LG2, EX2, MUL,
 * SGE, SLT, FLR, MAX, MIN, RCP, RSQ, Uniform Read, Address Register Offset,
 * Dest Mask, MAD, Nested Loop, Source Swizzle). The others check the
 * semantics documented on 3dbrew's shader instruction page / nihstro's
 * instruction reference (flow control, CMP, DST, LITP, EMIT) with values
 * worked out by hand in the test.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>

#include "pica-test.h"
#include "pica200/pica200-int.h"
#include "common/g3d-core.h"

typedef struct Sh {
    PicaShaderSetup setup;
    PicaShaderConfig cfg;
    PicaShaderState st;
    unsigned n;
} Sh;

#define IDENT PICA_OPDESC(0xF, 0, PICA_SWZ_XYZW, 0, PICA_SWZ_XYZW, 0, PICA_SWZ_XYZW)
#define END_ ((uint32_t)PICA_SH_END << 26)
#define NOP_ ((uint32_t)PICA_SH_NOP << 26)
#define V(n) PICA_SH_V(n)
#define O(n) PICA_SH_O(n)
#define R(n) PICA_SH_R(n)
#define C(n) PICA_SH_C(n)

static Sh *sh_new(void)
{
    Sh *s = g_new0(Sh, 1);

    s->setup.code_words = PICA_VSH_CODE_WORDS;
    s->setup.opdesc[0] = IDENT;
    s->cfg.setup = &s->setup;
    return s;
}

static void emit(Sh *s, uint32_t instr)
{
    s->setup.code[s->n++] = instr;
}

/* op dst, src1, src2 with operand descriptor 0 */
static uint32_t op2(unsigned op, unsigned dst, unsigned a, unsigned b)
{
    return PICA_SH_FMT1(op, dst, a, b, 0, 0);
}

/* run with inputs v0..v(n-1); returns o0 */
static const float *run(Sh *s, unsigned expect_fault, unsigned n, ...)
{
    va_list ap;
    unsigned i, k;

    memset(s->st.in, 0, sizeof(s->st.in));
    va_start(ap, n);
    for (i = 0; i < n; i++) {
        const float *v = va_arg(ap, const float *);
        for (k = 0; k < 4; k++) {
            s->st.in[i][k] = v[k];
        }
    }
    va_end(ap);
    g_assert_cmpuint(pica_shader_run(&s->cfg, &s->st), ==, expect_fault);
    return s->st.out[0];
}

static const float *run1(Sh *s, float a)
{
    const float v[4] = { a, 0, 0, 0 };
    return run(s, PICA_SHADER_OK, 1, v);
}

static const float *run2(Sh *s, float a, float b)
{
    const float va[4] = { a, 0, 0, 0 }, vb[4] = { b, 0, 0, 0 };
    return run(s, PICA_SHADER_OK, 2, va, vb);
}

static const float inf4[4] = { INFINITY, INFINITY, INFINITY, INFINITY };
static const float nan4[4] = { NAN, NAN, NAN, NAN };
static const float one4[4] = { 1, 1, 1, 1 };
static const float zero4[4] = { 0, 0, 0, 0 };
static const float iota[4] = { 1, 2, 3, 4 };

static void approx(float got, float want, float margin)
{
    if (!(fabsf(got - want) <= margin)) {
        g_error("got %.9g, want %.9g +- %g", got, want, margin);
    }
}

static Sh *binop(unsigned op)
{
    Sh *s = sh_new();
    emit(s, op2(op, O(0), V(0), V(1)));
    emit(s, END_);
    return s;
}

static Sh *unop(unsigned op)
{
    Sh *s = sh_new();
    emit(s, op2(op, O(0), V(0), 0));
    emit(s, END_);
    return s;
}

/* ---- arithmetic ---------------------------------------------------------- */

static void test_add(void)
{
    Sh *s = binop(PICA_SH_ADD);

    /* [Citra] */
    g_assert_cmpfloat(run2(s, 1, -1)[0], ==, 0.0f);
    g_assert_cmpfloat(run2(s, 0.0f, -0.0f)[0], ==, 0.0f);
    g_assert_true(isnan(run2(s, INFINITY, -INFINITY)[0]));
    g_assert_true(isinf(run2(s, INFINITY, 1)[0]));
    g_assert_true(isinf(run2(s, INFINITY, -1)[0]));
    g_free(s);
}

static void test_mul(void)
{
    Sh *s = binop(PICA_SH_MUL);

    /* [Citra] the PICA gives 0 for 0 * inf */
    g_assert_cmpfloat(run2(s, 1, -1)[0], ==, -1);
    g_assert_cmpfloat(run2(s, -1, 1)[0], ==, -1);
    g_assert_cmpfloat(run2(s, INFINITY, 0)[0], ==, 0);
    g_assert_true(isnan(run2(s, NAN, 0)[0]));
    g_assert_cmpfloat(run2(s, INFINITY, INFINITY)[0], ==, INFINITY);
    g_assert_cmpfloat(run2(s, INFINITY, -INFINITY)[0], ==, -INFINITY);
    g_free(s);
}

static void test_dp(void)
{
    Sh *s3 = binop(PICA_SH_DP3), *s4 = binop(PICA_SH_DP4),
       *sh = binop(PICA_SH_DPH);

    /* [Citra] */
    g_assert_cmpfloat(run(s3, 0, 2, inf4, zero4)[0], ==, 0);
    g_assert_true(isnan(run(s3, 0, 2, nan4, zero4)[0]));
    g_assert_cmpfloat(run(s3, 0, 2, one4, one4)[0], ==, 3);
    g_assert_cmpfloat(run(s4, 0, 2, inf4, zero4)[0], ==, 0);
    g_assert_true(isnan(run(s4, 0, 2, nan4, zero4)[0]));
    g_assert_cmpfloat(run(s4, 0, 2, one4, one4)[0], ==, 4);
    g_assert_cmpfloat(run(sh, 0, 2, inf4, zero4)[0], ==, 0);
    g_assert_true(isnan(run(sh, 0, 2, nan4, zero4)[0]));
    g_assert_cmpfloat(run(sh, 0, 2, one4, one4)[0], ==, 4);
    g_assert_cmpfloat(run(sh, 0, 2, zero4, one4)[0], ==, 1);
    /* the dot product goes to every enabled component */
    g_assert_cmpfloat(run(s4, 0, 2, iota, iota)[3], ==, 30);
    g_free(s3);
    g_free(s4);
    g_free(sh);
}

static void test_dphi_inverted(void)
{
    /* dphi o0, v0, c4[a0.x]: src2 is the 7-bit, indexed operand */
    Sh *s = sh_new();
    const float a[4] = { 2, 0, 0, 0 }, b[4] = { 1, 2, 3, 100 };

    memcpy(s->setup.f[6], (float[4]){ 1, 10, 100, 1000 }, 16);
    emit(s, op2(PICA_SH_MOVA, 0, V(0), 0));
    emit(s, PICA_SH_FMT1I(PICA_SH_DPHI, O(0), V(1), C(4), PICA_SH_IDX_A0X, 0));
    emit(s, END_);
    /* a0.x = 2: c6 . (1, 2, 3, 1) = 1 + 20 + 300 + 1000 */
    g_assert_cmpfloat(run(s, 0, 2, a, b)[0], ==, 1321);
    g_free(s);
}

static void test_dst(void)
{
    Sh *s = binop(PICA_SH_DST), *si = sh_new();
    const float a[4] = { 5, 2, 3, 7 }, b[4] = { 11, 4, 13, 6 };
    const float *o;

    /* (1, a.y * b.y, a.z, b.w) */
    o = run(s, 0, 2, a, b);
    g_assert_cmpfloat(o[0], ==, 1);
    g_assert_cmpfloat(o[1], ==, 8);
    g_assert_cmpfloat(o[2], ==, 3);
    g_assert_cmpfloat(o[3], ==, 6);
    emit(si, PICA_SH_FMT1I(PICA_SH_DSTI, O(0), V(0), V(1), 0, 0));
    emit(si, END_);
    o = run(si, 0, 2, a, b);
    g_assert_cmpfloat(o[1], ==, 8);
    g_assert_cmpfloat(o[3], ==, 6);
    g_free(s);
    g_free(si);
}

static void test_ex2_lg2(void)
{
    Sh *e = unop(PICA_SH_EX2), *l = unop(PICA_SH_LG2);

    /* [Citra] */
    g_assert_true(isnan(run1(l, NAN)[0]));
    g_assert_true(isnan(run1(l, -1)[0]));
    g_assert_true(isinf(run1(l, 0)[0]));
    approx(run1(l, 4)[0], 2, 1e-6f);
    approx(run1(l, 64)[0], 6, 1e-6f);
    approx(run1(l, 1e24f)[0], 79.7262742773f, 79.73f * 1.2e-5f);
    g_assert_true(isnan(run1(e, NAN)[0]));
    approx(run1(e, -800)[0], 0, 1e-6f);
    approx(run1(e, 0)[0], 1, 1e-6f);
    approx(run1(e, 2)[0], 4, 1e-5f);
    approx(run1(e, 6)[0], 64, 1e-4f);
    approx(run1(e, 79.7262742773f)[0], 1e24f, 1e24f * 1.2e-5f);
    g_assert_true(isinf(run1(e, 800)[0]));
    /* scalar: x only, written to all components */
    g_assert_cmpfloat(run(e, 0, 1, iota)[3], ==, 2);
    g_free(e);
    g_free(l);
}

static void test_sge_slt(void)
{
    static const struct { float a, b, sge, slt; } v[] = {   /* [Citra] */
        { INFINITY, 0, 1, 0 }, { 0, INFINITY, 0, 1 }, { NAN, 0, 0, 0 },
        { 0, NAN, 0, 0 }, { INFINITY, INFINITY, 1, 0 },
        { INFINITY, -INFINITY, 1, 0 }, { -INFINITY, INFINITY, 0, 1 },
        { 1, -1, 1, 0 }, { -1, 1, 0, 1 },
    };
    Sh *ge = binop(PICA_SH_SGE), *lt = binop(PICA_SH_SLT);
    Sh *gei = sh_new(), *lti = sh_new();
    unsigned i;

    emit(gei, PICA_SH_FMT1I(PICA_SH_SGEI, O(0), V(0), V(1), 0, 0));
    emit(gei, END_);
    emit(lti, PICA_SH_FMT1I(PICA_SH_SLTI, O(0), V(0), V(1), 0, 0));
    emit(lti, END_);
    for (i = 0; i < G_N_ELEMENTS(v); i++) {
        g_assert_cmpfloat(run2(ge, v[i].a, v[i].b)[0], ==, v[i].sge);
        g_assert_cmpfloat(run2(lt, v[i].a, v[i].b)[0], ==, v[i].slt);
        g_assert_cmpfloat(run2(gei, v[i].a, v[i].b)[0], ==, v[i].sge);
        g_assert_cmpfloat(run2(lti, v[i].a, v[i].b)[0], ==, v[i].slt);
    }
    g_free(ge);
    g_free(lt);
    g_free(gei);
    g_free(lti);
}

static void test_flr(void)
{
    Sh *s = unop(PICA_SH_FLR);

    /* [Citra] */
    g_assert_cmpfloat(run1(s, 0.5f)[0], ==, 0);
    g_assert_cmpfloat(run1(s, -0.5f)[0], ==, -1);
    g_assert_cmpfloat(run1(s, 1.5f)[0], ==, 1);
    g_assert_cmpfloat(run1(s, -1.5f)[0], ==, -2);
    g_assert_true(isnan(run1(s, NAN)[0]));
    g_assert_true(isinf(run1(s, INFINITY)[0]));
    g_free(s);
}

static void test_max_min(void)
{
    Sh *mx = binop(PICA_SH_MAX), *mn = binop(PICA_SH_MIN);

    /* [Citra], including the hardware's NaN asymmetry */
    g_assert_cmpfloat(run2(mx, 1, 0)[0], ==, 1);
    g_assert_cmpfloat(run2(mx, 0, 1)[0], ==, 1);
    g_assert_cmpfloat(run2(mx, 0, INFINITY)[0], ==, INFINITY);
    g_assert_true(isnan(run2(mx, 0, NAN)[0]));
    g_assert_cmpfloat(run2(mx, NAN, 0)[0], ==, 0);
    g_assert_cmpfloat(run2(mx, -INFINITY, INFINITY)[0], ==, INFINITY);
    g_assert_cmpfloat(run2(mn, 1, 0)[0], ==, 0);
    g_assert_cmpfloat(run2(mn, 0, 1)[0], ==, 0);
    g_assert_cmpfloat(run2(mn, 0, INFINITY)[0], ==, 0);
    g_assert_cmpfloat(run2(mn, 0, -INFINITY)[0], ==, -INFINITY);
    g_assert_true(isnan(run2(mn, 0, NAN)[0]));
    g_assert_cmpfloat(run2(mn, NAN, 0)[0], ==, 0);
    g_assert_cmpfloat(run2(mn, -INFINITY, INFINITY)[0], ==, -INFINITY);
    g_free(mx);
    g_free(mn);
}

static void test_rcp_rsq(void)
{
    Sh *rc = unop(PICA_SH_RCP), *rs = unop(PICA_SH_RSQ);
    float x;

    /* [Citra] */
    g_assert_cmpfloat(run1(rc, 0)[0], ==, INFINITY);
    g_assert_cmpfloat(run1(rc, INFINITY)[0], ==, 0);
    g_assert_true(isnan(run1(rc, NAN)[0]));
    for (x = 0.0625f; x <= 16; x *= 2) {
        approx(run1(rc, x)[0], 1 / x, 0.004f);
        approx(run1(rs, x)[0], 1 / sqrtf(x), 0.004f);
    }
    g_assert_true(isnan(run1(rs, -2)[0]));
    g_assert_cmpfloat(run1(rs, INFINITY)[0], ==, 0);
    g_assert_true(isnan(run1(rs, -INFINITY)[0]));
    g_assert_true(isnan(run1(rs, NAN)[0]));
    g_free(rc);
    g_free(rs);
}

static void test_mov_mask_swizzle_negate(void)
{
    static const struct { unsigned mask; } masks[] = {
        { 8 }, { 4 }, { 2 }, { 1 }, { 12 }, { 10 }, { 9 }, { 6 }, { 5 },
        { 3 }, { 14 }, { 13 }, { 11 }, { 7 }, { 15 },
    };
    Sh *s = sh_new();
    unsigned i, k, swz;
    const float *o;

    emit(s, op2(PICA_SH_MOV, O(0), V(0), 0));
    emit(s, END_);
    /* [Citra] Dest Mask: untouched components keep the reset value 0 */
    for (i = 0; i < G_N_ELEMENTS(masks); i++) {
        s->setup.opdesc[0] = PICA_OPDESC(masks[i].mask, 0, PICA_SWZ_XYZW, 0, 0, 0, 0);
        o = run(s, 0, 1, iota);
        for (k = 0; k < 4; k++) {
            g_assert_cmpfloat(o[k], ==, masks[i].mask & (8 >> k) ? iota[k] : 0);
        }
    }
    /* [Citra] Source Swizzle, all 256 selector patterns */
    for (swz = 0; swz < 256; swz++) {
        s->setup.opdesc[0] = PICA_OPDESC(0xF, 0, swz, 0, 0, 0, 0);
        o = run(s, 0, 1, iota);
        for (k = 0; k < 4; k++) {
            g_assert_cmpfloat(o[k], ==, iota[(swz >> (6 - 2 * k)) & 3]);
        }
    }
    /* negation of source 1 (wzyx, negated) */
    s->setup.opdesc[0] = PICA_OPDESC(0xF, 1, PICA_SWZ(3, 2, 1, 0), 0, 0, 0, 0);
    o = run(s, 0, 1, iota);
    g_assert_cmpfloat(o[0], ==, -4);
    g_assert_cmpfloat(o[3], ==, -1);
    g_free(s);
}

static void test_negate_src2(void)
{
    Sh *s = binop(PICA_SH_ADD);

    s->setup.opdesc[0] = PICA_OPDESC(0xF, 0, PICA_SWZ_XYZW, 1, PICA_SWZ_XYZW, 0, 0);
    g_assert_cmpfloat(run2(s, 5, 3)[0], ==, 2);
    g_free(s);
}

static void setup_uniforms(Sh *s, bool inverted)
{
    unsigned i;

    for (i = 0; i < 96; i++) {
        unsigned base = inverted ? 0x60 - i : i;
        float c = pica_quantize_f24(base * 2.0f / 255.0f);
        s->setup.f[i][0] = s->setup.f[i][1] = s->setup.f[i][2] = c;
        s->setup.f[i][3] = 1;
    }
}

static void check_vec(const float *o, const float *want)
{
    unsigned k;

    for (k = 0; k < 4; k++) {
        g_assert_cmpfloat(o[k], ==, want[k]);
    }
}

static void test_uniform_read(void)
{
    Sh *s = sh_new();
    unsigned i;

    /* [Citra] mova a0.x, v0.x ; mov o0, c0[a0.x] */
    emit(s, PICA_SH_FMT1(PICA_SH_MOVA, 0, V(0), 0, 0, 0));
    emit(s, PICA_SH_FMT1(PICA_SH_MOV, O(0), C(0), 0, PICA_SH_IDX_A0X, 0));
    emit(s, END_);
    setup_uniforms(s, false);
    for (i = 0; i < 96; i++) {
        /* fractions check the float -> integer truncation */
        check_vec(run1(s, i + (i % 17) / 17.0f), s->setup.f[i]);
    }
    g_free(s);
}

static void test_address_register_offset(void)
{
    static const struct { float in; int want; } v[] = {   /* [Citra] */
        { 0, 40 }, { 13, 53 }, { 50, 90 }, { 60, -1 }, { 74, -1 },
        { 87, -1 }, { 88, 0 }, { 128, 40 }, { -40, 0 }, { -42, -1 },
        { -70, -1 }, { -73, 95 }, { -127, 41 }, { -129, 40 },
    };
    Sh *s = sh_new();
    unsigned i;

    emit(s, PICA_SH_FMT1(PICA_SH_MOVA, 0, V(0), 0, 0, 0));
    emit(s, PICA_SH_FMT1(PICA_SH_MOV, O(0), C(40), 0, PICA_SH_IDX_A0X, 0));
    emit(s, END_);
    setup_uniforms(s, true);
    for (i = 0; i < G_N_ELEMENTS(v); i++) {
        check_vec(run1(s, v[i].in), v[i].want < 0 ? one4 : s->setup.f[v[i].want]);
    }
    g_free(s);
}

static void test_mova_y_and_al(void)
{
    Sh *s = sh_new();
    const float in[4] = { 0, 3, 0, 0 };

    setup_uniforms(s, false);
    /* mova a0.y only (mask y), then c10[a0.y] */
    s->setup.opdesc[1] = PICA_OPDESC(4, 0, PICA_SWZ_XYZW, 0, 0, 0, 0);
    emit(s, PICA_SH_FMT1(PICA_SH_MOVA, 0, V(0), 0, 0, 1));
    emit(s, PICA_SH_FMT1(PICA_SH_MOV, O(0), C(10), 0, PICA_SH_IDX_A0Y, 0));
    emit(s, END_);
    check_vec(run(s, 0, 1, in), s->setup.f[13]);
    g_assert_cmpint(s->st.a0[0], ==, 0);
    g_assert_cmpint(s->st.a0[1], ==, 3);
    g_free(s);
}

static void test_cmp(void)
{
    static const struct { unsigned op; float a, b; bool r; } v[] = {
        { PICA_SH_CMP_EQ, 1, 1, true }, { PICA_SH_CMP_EQ, 1, 2, false },
        { PICA_SH_CMP_NE, 1, 2, true }, { PICA_SH_CMP_NE, 2, 2, false },
        { PICA_SH_CMP_LT, 1, 2, true }, { PICA_SH_CMP_LT, 2, 2, false },
        { PICA_SH_CMP_LE, 2, 2, true }, { PICA_SH_CMP_LE, 3, 2, false },
        { PICA_SH_CMP_GT, 3, 2, true }, { PICA_SH_CMP_GT, 2, 2, false },
        { PICA_SH_CMP_GE, 2, 2, true }, { PICA_SH_CMP_GE, 1, 2, false },
        { PICA_SH_CMP_LT, NAN, 2, false }, { PICA_SH_CMP_NE, NAN, NAN, true },
    };
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(v); i++) {
        Sh *s = sh_new();
        const float a[4] = { v[i].a, 0, 0, 0 }, b[4] = { v[i].b, 5, 0, 0 };
        /* x compares with op, y with EQ (0 == 5: false) -- the opcode's
         * low bit carries bit 2 of the x op */
        emit(s, PICA_SH_FMT1C(v[i].op, PICA_SH_CMP_EQ, V(0), V(1), 0, 0));
        emit(s, END_);
        run(s, 0, 2, a, b);
        g_assert_cmpint(s->st.cc[0], ==, v[i].r);
        g_assert_false(s->st.cc[1]);
        g_free(s);
    }
}

static void test_litp(void)
{
    Sh *s = unop(PICA_SH_LITP);
    const float a[4] = { -2, 300, 7, 5 }, b[4] = { 3, -0.5f, 7, -1 };
    const float *o;

    o = run(s, 0, 1, a);
    g_assert_cmpfloat(o[0], ==, 0);
    g_assert_cmpfloat(o[1], ==, 127.99609375f);
    g_assert_cmpfloat(o[2], ==, 0);
    g_assert_cmpfloat(o[3], ==, 5);
    g_assert_false(s->st.cc[0]);
    g_assert_true(s->st.cc[1]);
    o = run(s, 0, 1, b);
    g_assert_cmpfloat(o[0], ==, 3);
    g_assert_cmpfloat(o[1], ==, -0.5f);
    g_assert_cmpfloat(o[3], ==, 0);
    g_assert_true(s->st.cc[0]);
    g_assert_false(s->st.cc[1]);
    g_free(s);
}

static void test_mad_madi(void)
{
    Sh *s = sh_new(), *si = sh_new();
    const float two4[4] = { 2, 2, 2, 2 }, a[4] = { 2, 3, 4, 5 },
                b[4] = { 10, 10, 10, 10 }, c[4] = { 1, 2, 3, 4 };
    const float *o;

    emit(s, PICA_SH_FMT5(O(0), V(0), V(1), V(2), 0, 0));
    emit(s, END_);
    /* [Citra] */
    check_vec(run(s, 0, 3, zero4, zero4, zero4), zero4);
    check_vec(run(s, 0, 3, one4, one4, one4), two4);
    check_vec(run(s, 0, 3, inf4, zero4, zero4), zero4);
    g_assert_true(isnan(run(s, 0, 3, nan4, zero4, zero4)[0]));
    /* MADI: src3 is the indexed 7-bit operand */
    memcpy(si->setup.f[7], c, 16);
    emit(si, PICA_SH_FMT5I(O(0), V(0), V(1), C(7), 0, 0));
    emit(si, END_);
    o = run(si, 0, 2, a, b);
    g_assert_cmpfloat(o[0], ==, 21);
    g_assert_cmpfloat(o[3], ==, 54);
    g_free(s);
    g_free(si);
}

/* ---- flow control ------------------------------------------------------------- */

static void test_call(void)
{
    Sh *s = sh_new();

    /* [Citra] call foo; end; foo: call ex2; end; ex2: ex2 o0, v0; end */
    emit(s, PICA_SH_FMT3(PICA_SH_CALL, 2, 1, 0));
    emit(s, END_);
    emit(s, PICA_SH_FMT3(PICA_SH_CALL, 4, 1, 0));
    emit(s, END_);
    emit(s, op2(PICA_SH_EX2, O(0), V(0), 0));
    emit(s, END_);
    approx(run1(s, 0)[0], 1, 1e-6f);
    g_free(s);
}

static void test_callc_callu(void)
{
    Sh *s = sh_new();

    /* cmp v0.x == 0; callc cc.x -> o0 = 1 (at 5); callu b3 -> o1 = 1 (at 6) */
    s->setup.f[0][0] = s->setup.f[0][1] = s->setup.f[0][2] = s->setup.f[0][3] = 1;
    emit(s, PICA_SH_FMT1C(PICA_SH_CMP_EQ, PICA_SH_CMP_EQ, V(0), V(1), 0, 0));
    emit(s, PICA_SH_FMT2(PICA_SH_CALLC, 5, 1, PICA_SH_COND_X, 1, 0));
    emit(s, PICA_SH_FMT3(PICA_SH_CALLU, 6, 1, 3));
    emit(s, END_);
    emit(s, END_);
    emit(s, op2(PICA_SH_MOV, O(0), C(0), 0));
    emit(s, op2(PICA_SH_MOV, O(1), C(0), 0));
    s->cfg.bools = 1 << 3;
    run2(s, 0, 0);
    g_assert_cmpfloat(s->st.out[0][0], ==, 1);
    g_assert_cmpfloat(s->st.out[1][0], ==, 1);
    s->cfg.bools = 0;
    run2(s, 1, 0);
    g_assert_cmpfloat(s->st.out[0][0], ==, 0);
    g_assert_cmpfloat(s->st.out[1][0], ==, 0);
    g_free(s);
}

static void test_if(void)
{
    Sh *s = sh_new();

    /*
     * 0 ifu b0 (then 1..2, else 3..4)
     * 1 mov o0, c0      2 mov o1, c0
     * 3 mov o2, c0      4 mov o3, c0
     * 5 end
     */
    s->setup.f[0][0] = 7;
    emit(s, PICA_SH_FMT3(PICA_SH_IFU, 3, 2, 0));
    emit(s, op2(PICA_SH_MOV, O(0), C(0), 0));
    emit(s, op2(PICA_SH_MOV, O(1), C(0), 0));
    emit(s, op2(PICA_SH_MOV, O(2), C(0), 0));
    emit(s, op2(PICA_SH_MOV, O(3), C(0), 0));
    emit(s, END_);
    s->cfg.bools = 1;
    run1(s, 0);
    g_assert_cmpfloat(s->st.out[0][0], ==, 7);
    g_assert_cmpfloat(s->st.out[1][0], ==, 7);
    g_assert_cmpfloat(s->st.out[2][0], ==, 0);
    g_assert_cmpfloat(s->st.out[3][0], ==, 0);
    s->cfg.bools = 0;
    run1(s, 0);
    g_assert_cmpfloat(s->st.out[0][0], ==, 0);
    g_assert_cmpfloat(s->st.out[1][0], ==, 0);
    g_assert_cmpfloat(s->st.out[2][0], ==, 7);
    g_assert_cmpfloat(s->st.out[3][0], ==, 7);
    /* IFC on the conditional codes: cc.x && cc.y with refs (1, 0) */
    s->setup.code[0] = PICA_SH_FMT2(PICA_SH_IFC, 3, 2, PICA_SH_COND_AND, 1, 0);
    s->st.cc[0] = s->st.cc[1] = false;
    run1(s, 0);                       /* cc reset to false: x fails */
    g_assert_cmpfloat(s->st.out[2][0], ==, 7);
    g_free(s);
}

static void test_nested_loop(void)
{
    static const uint8_t x0[2] = { 4, 9 }, z0[2] = { 1, 2 }, x1[2] = { 4, 7 };
    unsigned a, b, c;

    /* [Citra] mov r0, v0; loop i0 { loop i1 { add r0, r0, v0 } }; mov o0, r0 */
    for (a = 0; a < 2; a++) {
        for (b = 0; b < 2; b++) {
            for (c = 0; c < 2; c++) {
                Sh *s = sh_new();
                float want;
                emit(s, op2(PICA_SH_MOV, R(0), V(0), 0));
                emit(s, PICA_SH_FMT3(PICA_SH_LOOP, 3, 0, 0));
                emit(s, PICA_SH_FMT3(PICA_SH_LOOP, 3, 0, 1));
                emit(s, op2(PICA_SH_ADD, R(0), R(0), V(0)));
                emit(s, op2(PICA_SH_MOV, O(0), R(0), 0));
                emit(s, END_);
                s->cfg.ints[0][0] = x0[a];
                s->cfg.ints[0][1] = 0;
                s->cfg.ints[0][2] = z0[b];
                s->cfg.ints[1][0] = x1[c];
                s->cfg.ints[1][2] = 1;
                want = (x0[a] + 1) * (x1[c] + 1) * 1.0f + 1.0f;
                approx(run1(s, 1)[0], want, 1e-4f);
                g_assert_cmpint(s->st.al, ==, 0 + (x0[a] + 1) * z0[b]);
                g_free(s);
            }
        }
    }
}

static void test_loop_al_indexing(void)
{
    Sh *s = sh_new();
    unsigned i;

    /* sum c[aL] for aL = 2, 5, 8, 11 (i0 = (3, 2, 3)) */
    for (i = 0; i < 96; i++) {
        s->setup.f[i][0] = i;
    }
    emit(s, PICA_SH_FMT3(PICA_SH_LOOP, 1, 0, 0));
    emit(s, PICA_SH_FMT1(PICA_SH_ADD, R(0), C(0), R(0), PICA_SH_IDX_AL, 0));
    emit(s, op2(PICA_SH_MOV, O(0), R(0), 0));
    emit(s, END_);
    s->cfg.ints[0][0] = 3;
    s->cfg.ints[0][1] = 2;
    s->cfg.ints[0][2] = 3;
    g_assert_cmpfloat(run1(s, 0)[0], ==, 2 + 5 + 8 + 11);
    g_free(s);
}

static void test_break(void)
{
    Sh *s = sh_new();

    /*
     * 0 loop i0 (body 1..3)      x = 9: 10 iterations
     * 1   add r0, r0, v0
     * 2   cmp r0 >= v1 ...       cc.x = (r0.x == v1.x)
     * 3   breakc cc.x
     * 4 mov o0, r0 ; 5 end
     */
    emit(s, PICA_SH_FMT3(PICA_SH_LOOP, 3, 0, 0));
    emit(s, op2(PICA_SH_ADD, R(0), R(0), V(0)));
    emit(s, PICA_SH_FMT1C(PICA_SH_CMP_EQ, PICA_SH_CMP_EQ, R(0), V(1), 0, 0));
    emit(s, PICA_SH_FMT2(PICA_SH_BREAKC, 0, 0, PICA_SH_COND_X, 1, 0));
    emit(s, op2(PICA_SH_MOV, O(0), R(0), 0));
    emit(s, END_);
    s->cfg.ints[0][0] = 9;
    g_assert_cmpfloat(run2(s, 1, 4)[0], ==, 4);      /* broke after 4 */
    g_assert_cmpfloat(run2(s, 1, 100)[0], ==, 10);   /* ran all 10 */
    /* unconditional BREAK on the first pass */
    s->setup.code[3] = (uint32_t)PICA_SH_BREAK << 26;
    g_assert_cmpfloat(run2(s, 1, 100)[0], ==, 1);
    g_free(s);
}

static void test_jmp(void)
{
    Sh *s = sh_new();

    /*
     * 0 jmpu b2 -> 3 (num b0 = 0: jump when b2 is true)
     * 1 mov o0, c0 ; 2 end ; 3 mov o1, c0 ; 4 jmpc !cc.y -> 6 ; 5 mov o2, c0 ; 6 end
     */
    s->setup.f[0][0] = 1;
    emit(s, PICA_SH_FMT3(PICA_SH_JMPU, 3, 0, 2));
    emit(s, op2(PICA_SH_MOV, O(0), C(0), 0));
    emit(s, END_);
    emit(s, op2(PICA_SH_MOV, O(1), C(0), 0));
    emit(s, PICA_SH_FMT2(PICA_SH_JMPC, 6, 0, PICA_SH_COND_Y, 0, 0));
    emit(s, op2(PICA_SH_MOV, O(2), C(0), 0));
    emit(s, END_);
    s->cfg.bools = 1 << 2;
    run1(s, 0);
    g_assert_cmpfloat(s->st.out[0][0], ==, 0);
    g_assert_cmpfloat(s->st.out[1][0], ==, 1);
    g_assert_cmpfloat(s->st.out[2][0], ==, 0);   /* cc.y == 0: jumped */
    s->cfg.bools = 0;
    run1(s, 0);
    g_assert_cmpfloat(s->st.out[0][0], ==, 1);
    g_assert_cmpfloat(s->st.out[1][0], ==, 0);
    /* num b0 = 1 inverts JMPU: jump when the bool is false */
    s->setup.code[0] = PICA_SH_FMT3(PICA_SH_JMPU, 3, 1, 2);
    run1(s, 0);
    g_assert_cmpfloat(s->st.out[1][0], ==, 1);
    g_free(s);
}

typedef struct EmitLog {
    float v[8][3][4];
    bool winding[8];
    unsigned n;
} EmitLog;

static void emit_cb(void *opaque, float (*v[3])[4], bool winding)
{
    EmitLog *l = opaque;
    unsigned i;

    g_assert_cmpuint(l->n, <, 8);
    for (i = 0; i < 3; i++) {
        memcpy(l->v[l->n][i], v[i][0], 16);
    }
    l->winding[l->n++] = winding;
}

static void test_emit(void)
{
    Sh *s = sh_new();
    PicaEmitter em;
    EmitLog log;
    unsigned i;

    memset(&em, 0, sizeof(em));
    memset(&log, 0, sizeof(log));
    em.emit = emit_cb;
    em.opaque = &log;
    s->setup.code_words = PICA_GSH_CODE_WORDS;
    for (i = 0; i < 4; i++) {
        s->setup.f[i][0] = 10 + i;
    }
    /* three vertices o0 = c0, c1, c2: the third emits a primitive, winding */
    emit(s, PICA_SH_FMT4(0, 0, 0));
    emit(s, op2(PICA_SH_MOV, O(0), C(0), 0));
    emit(s, (uint32_t)PICA_SH_EMIT << 26);
    emit(s, PICA_SH_FMT4(1, 0, 0));
    emit(s, op2(PICA_SH_MOV, O(0), C(1), 0));
    emit(s, (uint32_t)PICA_SH_EMIT << 26);
    emit(s, PICA_SH_FMT4(2, 1, 1));
    emit(s, op2(PICA_SH_MOV, O(0), C(2), 0));
    emit(s, (uint32_t)PICA_SH_EMIT << 26);
    /* a second primitive reusing slots 0 and 1, no winding */
    emit(s, PICA_SH_FMT4(2, 1, 0));
    emit(s, op2(PICA_SH_MOV, O(0), C(3), 0));
    emit(s, (uint32_t)PICA_SH_EMIT << 26);
    emit(s, END_);
    s->st.emitter = &em;
    run1(s, 0);
    g_assert_cmpuint(log.n, ==, 2);
    g_assert_cmpfloat(log.v[0][0][0], ==, 10);
    g_assert_cmpfloat(log.v[0][1][0], ==, 11);
    g_assert_cmpfloat(log.v[0][2][0], ==, 12);
    g_assert_true(log.winding[0]);
    g_assert_cmpfloat(log.v[1][2][0], ==, 13);
    g_assert_false(log.winding[1]);
    /* EMIT in a vertex shader (no emitter) is a fault */
    s->st.emitter = NULL;
    run(s, PICA_SHADER_FAULT_OPCODE, 0);
    g_free(s);
}

/* ---- bad programs -------------------------------------------------------------- */

static void test_faults(void)
{
    Sh *s = sh_new();
    unsigned i;

    /* jump beyond the 512-word VS code memory */
    emit(s, PICA_SH_FMT3(PICA_SH_JMPU, 600, 1, 0));
    run(s, PICA_SHADER_FAULT_PC, 0);
    g_assert_cmpuint(s->st.fault_pc, ==, 600);
    /* running off the end */
    memset(s->setup.code, 0, sizeof(s->setup.code));
    for (i = 0; i < 512; i++) {
        s->setup.code[i] = NOP_;
    }
    run(s, PICA_SHADER_FAULT_PC, 0);
    /* a jump to itself */
    s->setup.code[0] = PICA_SH_FMT2(PICA_SH_JMPC, 0, 0, PICA_SH_COND_X, 0, 0);
    run(s, PICA_SHADER_FAULT_STEPS, 0);
    /* calls nested five deep: the call stack holds four */
    for (i = 0; i < 5; i++) {
        s->setup.code[i] = PICA_SH_FMT3(PICA_SH_CALL, i + 1, 1, 0);
    }
    s->setup.code[5] = END_;
    run(s, PICA_SHADER_FAULT_STACK, 0);
    g_assert_cmpuint(s->st.fault_pc, ==, 4);
    s->setup.code[4] = NOP_;          /* four deep is fine */
    run(s, PICA_SHADER_OK, 0);
    /* ifs nested nine deep: the if stack holds eight */
    for (i = 0; i < 9; i++) {
        s->setup.code[i] = PICA_SH_FMT3(PICA_SH_IFU, 20, 0, 0);
    }
    s->setup.code[9] = END_;
    s->cfg.bools = 1;
    run(s, PICA_SHADER_FAULT_STACK, 0);
    s->setup.code[8] = NOP_;
    run(s, PICA_SHADER_OK, 0);
    /* loops nested five deep */
    for (i = 0; i < 5; i++) {
        s->setup.code[i] = PICA_SH_FMT3(PICA_SH_LOOP, 20, 0, 0);
    }
    run(s, PICA_SHADER_FAULT_STACK, 0);
    /* undefined opcodes */
    s->setup.code[0] = 0x10u << 26;
    run(s, PICA_SHADER_FAULT_OPCODE, 0);
    s->setup.code[0] = 0x1Du << 26;
    run(s, PICA_SHADER_FAULT_OPCODE, 0);
    /* BREAK outside a loop */
    s->setup.code[0] = (uint32_t)PICA_SH_BREAK << 26;
    run(s, PICA_SHADER_FAULT_STACK, 0);
    /* a bad entry point */
    s->cfg.entry = 0x7000;
    run(s, PICA_SHADER_FAULT_PC, 0);
    g_free(s);
}

/* ---- the upload registers ------------------------------------------------------ */

static void test_uploads(void)
{
    PicaTest t;
    const PicaShaderSetup *vs, *gs;
    const float a[4] = { 1.5f, -2, 0.25f, 1000 }, b[4] = { -0.5f, 3, 7, 1 };
    uint32_t w[3], f32[4];
    unsigned errors, i;

    pt_init(&t, 1);
    vs = &t.core->sh[PICA_UNIT_VS];
    gs = &t.core->sh[PICA_UNIT_GS];
    pt_wreg(&t, GPUREG_VSH_COM_MODE, 1);         /* GS keeps its own */
    /* float24 packing: c5 = a, c6 = b (the index advances), through aliases */
    pt_wreg(&t, GPUREG_VSH_FLOATUNIFORM_INDEX, 5);
    pica_pack_f24x4(a, w);
    for (i = 0; i < 3; i++) {
        pt_wreg(&t, GPUREG_VSH_FLOATUNIFORM_DATA0 + i, w[i]);
    }
    pica_pack_f24x4(b, w);
    for (i = 0; i < 3; i++) {
        pt_wreg(&t, GPUREG_VSH_FLOATUNIFORM_DATA0 + 7, w[i]);
    }
    /* float32 packing: W, Z, Y, X; the value is held as float24 */
    pt_wreg(&t, GPUREG_VSH_FLOATUNIFORM_INDEX, 95u | 1u << 31);
    for (i = 0; i < 4; i++) {
        float v = i == 3 ? 0.1f : (float)i;
        memcpy(&f32[i], &v, 4);
        pt_wreg(&t, GPUREG_VSH_FLOATUNIFORM_DATA0, f32[i]);
    }
    for (i = 0; i < 4; i++) {
        g_assert_cmpfloat(vs->f[5][i], ==, a[i]);
        g_assert_cmpfloat(vs->f[6][i], ==, b[i]);
    }
    g_assert_cmpfloat(vs->f[95][3], ==, 0);      /* W came first */
    g_assert_cmpfloat(vs->f[95][2], ==, 1);
    g_assert_cmpfloat(vs->f[95][0], ==, pica_f24_to_float(pica_to_f24(0.1f)));
    g_assert_cmpfloat(vs->f[95][0], !=, 0.1f);
    g_assert_cmpfloat(gs->f[5][0], ==, 0);        /* not mirrored */
    /* past c95 (still float32 mode: four words): dropped, logged */
    errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    for (i = 0; i < 4; i++) {
        pt_wreg(&t, GPUREG_VSH_FLOATUNIFORM_DATA0, 0x3F0000);
    }
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errors + 1);

    /* code and operand descriptors, with auto-increment over aliases */
    pt_wreg(&t, GPUREG_VSH_CODETRANSFER_INDEX, 510);
    pt_wreg(&t, GPUREG_VSH_CODETRANSFER_DATA0 + 3, 0x11111111);
    pt_wreg(&t, GPUREG_VSH_CODETRANSFER_DATA0 + 5, 0x22222222);
    errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    pt_wreg(&t, GPUREG_VSH_CODETRANSFER_DATA0, 0x33333333);   /* word 512 */
    pt_wreg(&t, GPUREG_VSH_CODETRANSFER_DATA0, 0x44444444);   /* one message */
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errors + 1);
    g_assert_cmphex(vs->code[510], ==, 0x11111111);
    g_assert_cmphex(vs->code[511], ==, 0x22222222);
    pt_wreg(&t, GPUREG_GSH_CODETRANSFER_INDEX, 4000);        /* GS: 4096 words */
    pt_wreg(&t, GPUREG_GSH_CODETRANSFER_DATA0, 0x55555555);
    g_assert_cmphex(gs->code[4000], ==, 0x55555555);
    pt_wreg(&t, GPUREG_VSH_OPDESCS_INDEX, 127);
    pt_wreg(&t, GPUREG_VSH_OPDESCS_DATA0 + 1, 0x1234);
    errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    pt_wreg(&t, GPUREG_VSH_OPDESCS_DATA0 + 1, 0x5678);        /* 128: dropped */
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errors + 1);
    g_assert_cmphex(vs->opdesc[127], ==, 0x1234);

    /* VSH_COM_MODE 0: VS uploads reach the GS unit too (Citra) */
    pt_wreg(&t, GPUREG_VSH_COM_MODE, 0);
    pt_wreg(&t, GPUREG_VSH_CODETRANSFER_INDEX, 7);
    pt_wreg(&t, GPUREG_VSH_CODETRANSFER_DATA0, 0x66666666);
    g_assert_cmphex(vs->code[7], ==, 0x66666666);
    g_assert_cmphex(gs->code[7], ==, 0x66666666);
    pt_free(&t);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/pica200/shader/add", test_add);
    g_test_add_func("/pica200/shader/mul", test_mul);
    g_test_add_func("/pica200/shader/dp3-dp4-dph", test_dp);
    g_test_add_func("/pica200/shader/dphi-inverted", test_dphi_inverted);
    g_test_add_func("/pica200/shader/dst-dsti", test_dst);
    g_test_add_func("/pica200/shader/ex2-lg2", test_ex2_lg2);
    g_test_add_func("/pica200/shader/sge-slt-sgei-slti", test_sge_slt);
    g_test_add_func("/pica200/shader/flr", test_flr);
    g_test_add_func("/pica200/shader/max-min", test_max_min);
    g_test_add_func("/pica200/shader/rcp-rsq", test_rcp_rsq);
    g_test_add_func("/pica200/shader/mov-mask-swizzle", test_mov_mask_swizzle_negate);
    g_test_add_func("/pica200/shader/negate-src2", test_negate_src2);
    g_test_add_func("/pica200/shader/uniform-read", test_uniform_read);
    g_test_add_func("/pica200/shader/address-register-offset",
                    test_address_register_offset);
    g_test_add_func("/pica200/shader/mova-y", test_mova_y_and_al);
    g_test_add_func("/pica200/shader/cmp", test_cmp);
    g_test_add_func("/pica200/shader/litp", test_litp);
    g_test_add_func("/pica200/shader/mad-madi", test_mad_madi);
    g_test_add_func("/pica200/shader/call", test_call);
    g_test_add_func("/pica200/shader/callc-callu", test_callc_callu);
    g_test_add_func("/pica200/shader/ifu-ifc", test_if);
    g_test_add_func("/pica200/shader/nested-loop", test_nested_loop);
    g_test_add_func("/pica200/shader/loop-al-indexing", test_loop_al_indexing);
    g_test_add_func("/pica200/shader/break-breakc", test_break);
    g_test_add_func("/pica200/shader/jmpc-jmpu", test_jmp);
    g_test_add_func("/pica200/shader/setemit-emit", test_emit);
    g_test_add_func("/pica200/shader/faults", test_faults);
    g_test_add_func("/pica200/shader/uploads", test_uploads);
    return g_test_run();
}
