/*
 * Unit tests of the R300 PVS (programmable vertex shader).
 *
 * Programs are encoded here with their own shifts, taken from the
 * instruction layout of Mesa r300_reg.h, not with the core's decoding
 * macros. Expected values come from the definitions of the API instruction
 * each opcode implements (ARB_vertex_program, D3D9 vs reference code, see
 * the comment at the top of hw/gpu3d/r300/pvs.c), evaluated here in double
 * precision, or from Mesa's pass-through program.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <float.h>
#include <glib.h>
#include <math.h>
#include <string.h>

#include "common/g3d-core.h"
#include "r300/pvs.h"

/* ---- encoding, Mesa r300_reg.h, r3xx_vertprog.c -------------------------- */

enum { T_TEMP = 0, T_A0 = 1, T_OUT = 2, T_OUT_X = 3, T_ALT = 4, T_IN = 5 };
enum { S_TEMP = 0, S_IN = 1, S_CONST = 2, S_ALT = 3 };

enum { VE_NOP, VE_DP4, VE_MUL, VE_ADD, VE_MAD, VE_DST, VE_FRC, VE_MAX, VE_MIN,
       VE_SGE, VE_SLT, VE_M2XADD, VE_MULCLAMP, VE_F2X, VE_F2X_RND };
enum { ME_NOP, ME_EXP_DX, ME_LOG_DX, ME_EXPE_FF, ME_LIT, ME_POW, ME_RCP_DX,
       ME_RCP_FF, ME_RSQ_DX, ME_RSQ_FF, ME_MUL, ME_EX2, ME_LG2, ME_POW_B,
       ME_POW_B1, ME_POW_01, ME_SIN, ME_COS };

#define MATH   (1u << 6)
#define MACRO  (1u << 7)
#define VE_SAT (1u << 24)
#define ME_SAT (1u << 25)
#define WXYZW  0xf

static uint32_t D(unsigned op, unsigned type, unsigned off, unsigned we)
{
    return op | type << 8 | off << 13 | we << 20;
}

/* swizzle string: x y z w, 0 1 (forced), A B (the undefined 6, 7) */
static uint32_t S(unsigned type, unsigned off, const char *swz, unsigned neg)
{
    uint32_t v = type | off << 5 | neg << 25;
    int c;

    for (c = 0; c < 4; c++) {
        unsigned s = strchr("xyzw01AB", swz[c]) - "xyzw01AB";
        v |= s << (13 + 3 * c);
    }
    return v;
}

/* Mesa's zero operand: a constant read with all four swizzles forced to 0 */
#define ZERO S(S_CONST, 0, "0000", 0)

/* ---- harness ----------------------------------------------------------- */

#define REGS (0x10000 / 4)

typedef struct Ctx {
    uint32_t regs[REGS];
    uint32_t vmem[R300_PVS_VECTOR_OCTWORDS][4];
    R300PVSProgram prog;
    float in[R300_PVS_MAX_INPUTS][4];
    float out[R300_PVS_MAX_OUTPUTS][4];
    unsigned n;
} Ctx;

static Ctx *ctx_new(void)
{
    Ctx *c = g_new0(Ctx, 1);
    int i, k;

    c->regs[0x22D4 / 4] = 0xff << 16;           /* all 256 constants */
    for (i = 0; i < R300_PVS_MAX_OUTPUTS; i++) {
        for (k = 0; k < 4; k++) {
            c->out[i][k] = 99.0f;               /* "not written" */
        }
    }
    return c;
}

static void emit(Ctx *c, uint32_t d0, uint32_t s0, uint32_t s1, uint32_t s2)
{
    uint32_t *w = c->vmem[c->n++];
    w[0] = d0;
    w[1] = s0;
    w[2] = s1;
    w[3] = s2;
}

static void set_const(Ctx *c, unsigned k, float x, float y, float z, float w)
{
    float v[4] = { x, y, z, w };
    memcpy(c->vmem[512 + k], v, 16);
}

static void set_in(Ctx *c, unsigned k, float x, float y, float z, float w)
{
    c->in[k][0] = x;
    c->in[k][1] = y;
    c->in[k][2] = z;
    c->in[k][3] = w;
}

/* program = instructions 0 .. n-1 */
static bool load(Ctx *c)
{
    c->regs[0x22D0 / 4] = (c->n - 1) << 20;
    return r300_pvs_load(&c->prog, c->regs, (const uint32_t (*)[4])c->vmem);
}

static void exec_again(Ctx *c);

static void run(Ctx *c)
{
    g_assert_true(load(c));
    exec_again(c);
}

/* another vertex through the loaded program (not inlined: GCC 12 sees a
 * false -Wstringop-overflow through the inlined copies) */
__attribute__((noinline))
static void exec_again(Ctx *c)
{
    r300_pvs_exec(&c->prog, (const float (*)[4])c->in, c->out);
}

static void assert_vec(const float *v, double x, double y, double z, double w)
{
    double e[4] = { x, y, z, w };
    int i;

    for (i = 0; i < 4; i++) {
        double tol = 1e-6 * fmax(1.0, fabs(e[i]));
        if (isinf(e[i]) || fabs(e[i]) == FLT_MAX) {
            g_assert_cmpfloat(v[i], ==, e[i]);
        } else {
            g_assert_cmpfloat_with_epsilon(v[i], e[i], tol);
        }
    }
}

static unsigned errs(void)
{
    return g3d_log_count(G3D_LOG_GUEST_ERROR);
}

/* ---- Mesa's pass-through programs ---------------------------------------- */

/* pass-through: out0 = in0 + 0, out1 = in1 + 0 (Mesa's MOV idiom) */
static void test_passthrough(void)
{
    Ctx *c = ctx_new();
    unsigned e = errs();

    emit(c, 0x00F00203, 0x00D10001, 0x01248002, 0x01248002);
    emit(c, 0x00F02203, 0x00D10021, 0x01248002, 0x01248002);
    c->regs[0x22D4 / 4] = 0;                    /* PVS_CONST_CNTL = 0 */
    c->regs[0x22D8 / 4] = 1;
    set_in(c, 0, -0.5f, 0.25f, 1.0f, 1.0f);
    set_in(c, 1, 1.0f, 0.0f, 0.5f, 0.75f);
    run(c);
    assert_vec(c->out[0], -0.5, 0.25, 1.0, 1.0);
    assert_vec(c->out[1], 1.0, 0.0, 0.5, 0.75);
    assert_vec(c->out[2], 99, 99, 99, 99);      /* unwritten: kept */
    g_assert_cmpuint(errs(), ==, e);
    g_free(c);
}

/*
 * out0 = M * in0 as Mesa's r3xx_vertprog.c emits it: one DOT_PRODUCT per
 * row (c0..c3), the third operand the zero-swizzled second register
 * (ei_vector2); then out1 = in1 through the MOV idiom.
 */
static void test_matrix(void)
{
    Ctx *c = ctx_new();
    static const float m[4][4] = {
        { 0.5f, -1.25f, 2.0f, 0.125f }, { 3.0f, 0.75f, -0.5f, 1.0f },
        { -2.0f, 0.0f, 1.5f, -4.0f }, { 0.0f, 0.25f, 0.0f, 1.0f },
    };
    static const float v[4] = { 1.5f, -2.0f, 0.3f, 1.0f };
    int r;

    for (r = 0; r < 4; r++) {
        set_const(c, r, m[r][0], m[r][1], m[r][2], m[r][3]);
        emit(c, D(VE_DP4, T_OUT, 0, 1 << r), S(S_IN, 0, "xyzw", 0),
             S(S_CONST, r, "xyzw", 0), S(S_CONST, r, "0000", 0));
    }
    emit(c, D(VE_ADD, T_OUT, 1, WXYZW), S(S_IN, 1, "xyzw", 0), ZERO, ZERO);
    set_in(c, 0, v[0], v[1], v[2], v[3]);
    set_in(c, 1, 0.1f, 0.2f, 0.3f, 0.4f);
    run(c);
    for (r = 0; r < 4; r++) {
        double e = 0;
        int k;
        for (k = 0; k < 4; k++) {
            e += (double)m[r][k] * v[k];
        }
        g_assert_cmpfloat_with_epsilon(c->out[0][r], e, 1e-5);
    }
    assert_vec(c->out[1], 0.1f, 0.2f, 0.3f, 0.4f);
    g_free(c);
}

/* ---- vector engine --------------------------------------------------- */

static const double A[4] = { 1.5, -2.25, 3.0, -0.5 };
static const double B[4] = { 2.0, 0.5, -1.0, 4.0 };
static const double C[4] = { 0.25, 1.0, -3.0, 2.0 };

static void ve_run(unsigned op, bool sat, float out[4])
{
    Ctx *c = ctx_new();

    set_in(c, 0, A[0], A[1], A[2], A[3]);
    set_in(c, 1, B[0], B[1], B[2], B[3]);
    set_in(c, 2, C[0], C[1], C[2], C[3]);
    emit(c, D(op, T_OUT, 3, WXYZW) | (sat ? VE_SAT : 0),
         S(S_IN, 0, "xyzw", 0), S(S_IN, 1, "xyzw", 0), S(S_IN, 2, "xyzw", 0));
    run(c);
    memcpy(out, c->out[3], 16);
    g_free(c);
}

static void test_ve_ops(void)
{
    static const unsigned ops[] = {
        VE_NOP, VE_DP4, VE_MUL, VE_ADD, VE_MAD, VE_DST, VE_FRC, VE_MAX,
        VE_MIN, VE_SGE, VE_SLT, VE_M2XADD, VE_MULCLAMP, VE_F2X, VE_F2X_RND,
    };
    unsigned i, k;

    for (i = 0; i < G_N_ELEMENTS(ops); i++) {
        float r[4];
        double e[4];

        ve_run(ops[i], false, r);
        for (k = 0; k < 4; k++) {
            double a = A[k], b = B[k], c = C[k];
            switch (ops[i]) {
            case VE_NOP: e[k] = 0; break;
            case VE_DP4:
                e[k] = A[0] * B[0] + A[1] * B[1] + A[2] * B[2] + A[3] * B[3];
                break;
            case VE_MUL: e[k] = a * b; break;
            case VE_ADD: e[k] = a + b; break;
            case VE_MAD: e[k] = a * b + c; break;
            case VE_DST: /* ARB DST */
                e[k] = k == 0 ? 1 : k == 1 ? A[1] * B[1] : k == 2 ? A[2] : B[3];
                break;
            case VE_FRC: e[k] = a - floor(a); break;
            case VE_MAX: e[k] = fmax(a, b); break;
            case VE_MIN: e[k] = fmin(a, b); break;
            case VE_SGE: e[k] = a >= b; break;
            case VE_SLT: e[k] = a < b; break;
            case VE_M2XADD: e[k] = 2 * a * b + c; break;
            case VE_MULCLAMP: e[k] = fmin(fmax(a * b, 0), 1); break;
            case VE_F2X: e[k] = floor(a); break;        /* ARB ARL */
            default: e[k] = floor(a + 0.5); break;      /* ARR */
            }
        }
        assert_vec(r, e[0], e[1], e[2], e[3]);
    }
    /* SGE/SLT on equal operands */
    {
        Ctx *c = ctx_new();
        set_in(c, 0, 1, 2, 3, 4);
        emit(c, D(VE_SGE, T_OUT, 0, WXYZW), S(S_IN, 0, "xyzw", 0),
             S(S_IN, 0, "xyyw", 0), ZERO);
        emit(c, D(VE_SLT, T_OUT, 1, WXYZW), S(S_IN, 0, "xyzw", 0),
             S(S_IN, 0, "xyww", 0), ZERO);
        run(c);
        assert_vec(c->out[0], 1, 1, 1, 1);
        assert_vec(c->out[1], 0, 0, 1, 0);
        g_free(c);
    }
}

static void test_ve_saturate(void)
{
    float r[4];

    ve_run(VE_MAD, true, r);
    /* A*B+C = (3.25, -0.125, -6, 0) */
    assert_vec(r, 1, 0, 0, 0);
    ve_run(VE_ADD, true, r);
    /* (3.5, -1.75, 2, 3.5) */
    assert_vec(r, 1, 0, 1, 1);
}

/* ---- math engine ------------------------------------------------------ */

/* one ME op on scalars a (first source), b (second) and c (third) */
static void me_run(unsigned op, float a, float b, float cc, bool sat,
                   float out[4])
{
    Ctx *c = ctx_new();

    set_in(c, 0, a, b, cc, 0);
    emit(c, D(op, T_OUT, 0, WXYZW) | MATH | (sat ? ME_SAT : 0),
         S(S_IN, 0, "xxxx", 0), S(S_IN, 0, "yyyy", 0), S(S_IN, 0, "zzzz", 0));
    run(c);
    memcpy(out, c->out[0], 16);
    g_free(c);
}

static void me_check1(unsigned op, float a, double e)
{
    float r[4];

    me_run(op, a, 0.75f, 3.0f, false, r);
    assert_vec(r, e, e, e, e);
}

static void test_me_ops(void)
{
    float r[4];

    /* EXP (vs_1_1 expp / ARB EXP): 2^floor, fraction, 2^a, 1 */
    me_run(ME_EXP_DX, 2.5f, 0, 0, false, r);
    assert_vec(r, 4.0, 0.5, pow(2.0, 2.5), 1.0);
    me_run(ME_EXP_DX, -1.25f, 0, 0, false, r);
    assert_vec(r, 0.25, 0.75, pow(2.0, -1.25), 1.0);
    /* LOG (vs_1_1 logp / ARB LOG) of |a| */
    me_run(ME_LOG_DX, -10.0f, 0, 0, false, r);
    assert_vec(r, 3.0, 1.25, log2(10.0), 1.0);
    me_run(ME_LOG_DX, 0.0f, 0, 0, false, r);
    assert_vec(r, -FLT_MAX, 1.0, -FLT_MAX, 1.0);
    me_check1(ME_EXPE_FF, 1.5f, exp(1.5));
    /* POW: base in the first source, exponent in the third (Mesa ei_pow) */
    me_check1(ME_POW, 2.0f, 8.0);
    me_check1(ME_POW, 0.5f, 0.125);
    me_check1(ME_POW_B, -2.0f, 0.0);       /* base clamped to >= 0 */
    me_check1(ME_POW_B1, 2.0f, 1.0);       /* base clamped to [0,1] */
    me_check1(ME_POW_01, 2.0f, 1.0);       /* result clamped to [0,1] */
    me_check1(ME_POW_01, 0.5f, 0.125);
    /* D3D9 rcp/rsq: 0 gives FLT_MAX; the FF forms give IEEE infinity */
    me_check1(ME_RCP_DX, 4.0f, 0.25);
    me_check1(ME_RCP_DX, 0.0f, FLT_MAX);
    me_check1(ME_RCP_FF, -8.0f, -0.125);
    me_check1(ME_RCP_FF, 0.0f, INFINITY);
    me_check1(ME_RSQ_DX, -4.0f, 0.5);      /* |a| */
    me_check1(ME_RSQ_DX, 0.0f, FLT_MAX);
    me_check1(ME_RSQ_FF, 16.0f, 0.25);
    me_check1(ME_RSQ_FF, 0.0f, INFINITY);
    me_check1(ME_MUL, -2.0f, -2.0 * 0.75);
    me_check1(ME_EX2, -3.0f, 0.125);
    me_check1(ME_LG2, -8.0f, 3.0);
    me_check1(ME_LG2, 0.0f, -FLT_MAX);
    me_check1(ME_SIN, (float)(M_PI / 6), sin((float)(M_PI / 6)));
    me_check1(ME_COS, (float)(M_PI / 3), cos((float)(M_PI / 3)));
    me_check1(ME_NOP, 5.0f, 0.0);
    /* ME saturate */
    me_run(ME_EX2, 3.0f, 0, 0, true, r);
    assert_vec(r, 1, 1, 1, 1);
    /* ME reads W of each source: only W of the first source matters */
    {
        Ctx *c = ctx_new();
        set_in(c, 0, 100.0f, 200.0f, 300.0f, 4.0f);
        emit(c, D(ME_RCP_DX, T_OUT, 0, WXYZW) | MATH,
             S(S_IN, 0, "xyzw", 0), ZERO, ZERO);
        run(c);
        assert_vec(c->out[0], 0.25, 0.25, 0.25, 0.25);
        g_free(c);
    }
}

/*
 * LIT as Mesa's ei_lit encodes it: three permutations of one register
 * (x,w,0,y) (y,w,0,x) (y,x,0,w). Expected: the D3D9 lit reference code.
 */
static void lit_case(float ndotl, float ndoth, float power)
{
    Ctx *c = ctx_new();
    double ey = 0, ez = 0;

    set_in(c, 4, ndotl, ndoth, 7.0f, power);
    emit(c, D(ME_LIT, T_OUT, 2, WXYZW) | MATH, S(S_IN, 4, "xw0y", 0),
         S(S_IN, 4, "yw0x", 0), S(S_IN, 4, "yx0w", 0));
    run(c);
    if (ndotl > 0) {
        ey = ndotl;
        if (ndoth > 0) {
            ez = pow(ndoth, fmin(fmax(power, -127.9961), 127.9961));
        }
    }
    assert_vec(c->out[2], 1.0, ey, ez, 1.0);
    g_free(c);
}

static void test_me_lit(void)
{
    lit_case(0.8f, 0.5f, 4.0f);
    lit_case(-0.2f, 0.5f, 4.0f);
    lit_case(0.6f, -0.5f, 2.0f);
    lit_case(0.9f, 0.9f, 300.0f);       /* power clamped to 127.9961 */
}

/* ---- operands and destinations ----------------------------------------- */

static void test_swizzle_negate_abs(void)
{
    Ctx *c = ctx_new();

    set_in(c, 0, 1, -2, 3, -4);
    /* swizzle with forced 0/1, negate y and w */
    emit(c, D(VE_ADD, T_OUT, 0, WXYZW), S(S_IN, 0, "wz10", 0xa), ZERO, ZERO);
    /* ABS (bit 3) then negate x: -|x| */
    emit(c, D(VE_ADD, T_OUT, 1, WXYZW), S(S_IN, 0, "xyzw", 0x1) | (1u << 3),
         ZERO, ZERO);
    run(c);
    assert_vec(c->out[0], -4, -3, 1, -0.0);
    assert_vec(c->out[1], -1, 2, 3, 4);
    g_free(c);
}

static void test_write_mask_and_files(void)
{
    Ctx *c = ctx_new();
    float in_copy[4];

    set_in(c, 0, 1, 2, 3, 4);
    set_in(c, 1, 10, 20, 30, 40);
    /* t5.xz = in0; alt7 = in1; out0 = t5 + alt7 (t5.yw stay 0) */
    emit(c, D(VE_ADD, T_TEMP, 5, 0x5), S(S_IN, 0, "xyzw", 0), ZERO, ZERO);
    emit(c, D(VE_ADD, T_ALT, 7, WXYZW), S(S_IN, 1, "xyzw", 0), ZERO, ZERO);
    emit(c, D(VE_ADD, T_OUT, 0, WXYZW), S(S_TEMP, 5, "xyzw", 0),
         S(S_ALT, 7, "xyzw", 0), ZERO);
    /* out1.yw = in0 (partial write keeps x, z) */
    emit(c, D(VE_ADD, T_OUT, 1, 0xa), S(S_IN, 0, "xyzw", 0), ZERO, ZERO);
    /* output replicate-X: out2.xyz = in0.w (written lanes get X) */
    emit(c, D(VE_ADD, T_OUT_X, 2, 0x7), S(S_IN, 0, "wyzx", 0), ZERO, ZERO);
    /* write input memory (type 5): the shader sees it, the caller's
     * input array does not change */
    emit(c, D(VE_ADD, T_IN, 0, 0x1), S(S_IN, 1, "xxxx", 0), ZERO, ZERO);
    emit(c, D(VE_ADD, T_OUT, 3, WXYZW), S(S_IN, 0, "xyzw", 0), ZERO, ZERO);
    memcpy(in_copy, c->in[0], 16);
    run(c);
    assert_vec(c->out[0], 11, 20, 33, 40);
    assert_vec(c->out[1], 99, 2, 99, 4);
    assert_vec(c->out[2], 4, 4, 4, 99);
    assert_vec(c->out[3], 10, 2, 3, 4);
    g_assert_cmpmem(c->in[0], 16, in_copy, 16);
    g_free(c);
}

static void test_macro(void)
{
    Ctx *c = ctx_new();

    set_in(c, 0, A[0], A[1], A[2], A[3]);
    set_in(c, 1, B[0], B[1], B[2], B[3]);
    emit(c, D(VE_ADD, T_TEMP, 2, WXYZW), S(S_IN, 0, "xyzw", 0), ZERO, ZERO);
    emit(c, D(VE_ADD, T_TEMP, 3, WXYZW), S(S_IN, 1, "xyzw", 0), ZERO, ZERO);
    emit(c, D(VE_ADD, T_TEMP, 4, WXYZW), S(S_IN, 0, "yzwx", 0), ZERO, ZERO);
    /* MADD and M2X_ADD with three different temporaries (Mesa ei_mad) */
    emit(c, D(0, T_OUT, 0, WXYZW) | MACRO, S(S_TEMP, 2, "xyzw", 0),
         S(S_TEMP, 3, "xyzw", 0), S(S_TEMP, 4, "xyzw", 0));
    emit(c, D(1, T_OUT, 1, WXYZW) | MACRO | VE_SAT, S(S_TEMP, 2, "xyzw", 0),
         S(S_TEMP, 3, "xyzw", 0), S(S_TEMP, 4, "xyzw", 0));
    run(c);
    assert_vec(c->out[0], A[0] * B[0] + A[1], A[1] * B[1] + A[2],
               A[2] * B[2] + A[3], A[3] * B[3] + A[0]);
    assert_vec(c->out[1], 1, 0.75, 0, 0);   /* 2ab+c = 3.75 .75 -6.5 -2.5 */
    g_free(c);
}

/* ---- constants and relative addressing --------------------------------- */

static void test_constants(void)
{
    Ctx *c = ctx_new();
    int k;

    for (k = 0; k < 16; k++) {
        set_const(c, k, k, 10 * k, 100 * k, -k);
    }
    /* PVS_CONST_BASE_OFFSET 2, PVS_MAX_CONST_ADDR 5 */
    c->regs[0x22D4 / 4] = 2 | 5 << 16;
    emit(c, D(VE_ADD, T_OUT, 0, WXYZW), S(S_CONST, 0, "xyzw", 0), ZERO, ZERO);
    emit(c, D(VE_ADD, T_OUT, 1, WXYZW), S(S_CONST, 5, "xyzw", 0), ZERO, ZERO);
    /* outside 0..MAX: (0,0,0,0), not an error [R3xx 3D ref. §1.10 VAP_PVS_*] */
    emit(c, D(VE_ADD, T_OUT, 2, WXYZW), S(S_CONST, 6, "xyzw", 0), ZERO, ZERO);
    emit(c, D(VE_ADD, T_OUT, 3, WXYZW), S(S_CONST, 200, "xyzw", 0), ZERO,
         ZERO);
    set_const(c, 1024 - 512 + 3, 0.5f, -1, 0, 2);  /* user clip plane 3 */
    run(c);
    assert_vec(c->prog.ucp[3], 0.5, -1, 0, 2);
    assert_vec(c->out[0], 2, 20, 200, -2);
    assert_vec(c->out[1], 7, 70, 700, -7);
    assert_vec(c->out[2], 0, 0, 0, 0);
    assert_vec(c->out[3], 0, 0, 0, 0);
    g_free(c);
}

static void test_relative_a0(void)
{
    Ctx *c = ctx_new();
    unsigned e;
    int k;

    for (k = 0; k < 8; k++) {
        set_const(c, k, k, k, k, k);
    }
    c->regs[0x22D4 / 4] = 7 << 16;
    set_in(c, 0, 2.7f, -1.2f, 3.5f, 0);
    /* ARL a0, in0 (floor): a0 = (2, -2, 3, 0) */
    emit(c, D(VE_F2X, T_A0, 0, WXYZW), S(S_IN, 0, "xyzw", 0), ZERO, ZERO);
    /* out0 = c[a0.x + 1] = c3; ADDR_MODE_0 (bit 4), ADDR_SEL x */
    emit(c, D(VE_ADD, T_OUT, 0, WXYZW),
         S(S_CONST, 1, "xyzw", 0) | 1u << 4 | 0u << 29, ZERO, ZERO);
    /* out1 = c[a0.y + 3] = c1 */
    emit(c, D(VE_ADD, T_OUT, 1, WXYZW),
         S(S_CONST, 3, "xyzw", 0) | 1u << 4 | 1u << 29, ZERO, ZERO);
    /* out2 = c[a0.y + 1] = c[-1]: outside 0..MAX, zero, no error */
    emit(c, D(VE_ADD, T_OUT, 2, WXYZW),
         S(S_CONST, 1, "xyzw", 0) | 1u << 4 | 1u << 29, ZERO, ZERO);
    /* out[a0.z + 1] = c[a0.z + 4] = c7: relative destination (dw0 bit 31) */
    emit(c, D(VE_ADD, T_OUT, 1, WXYZW) | 1u << 31 | 2u << 29,
         S(S_CONST, 4, "xyzw", 0) | 1u << 4 | 2u << 29, ZERO, ZERO);
    /* ARR: round to nearest, a0.x = 3 -> out5 = c[3+0] */
    emit(c, D(VE_F2X_RND, T_A0, 0, 0x1), S(S_IN, 0, "xyzw", 0), ZERO, ZERO);
    emit(c, D(VE_ADD, T_OUT, 5, WXYZW),
         S(S_CONST, 0, "xyzw", 0) | 1u << 4, ZERO, ZERO);
    e = errs();
    run(c);
    assert_vec(c->out[0], 3, 3, 3, 3);
    assert_vec(c->out[1], 1, 1, 1, 1);
    assert_vec(c->out[2], 0, 0, 0, 0);
    assert_vec(c->out[4], 7, 7, 7, 7);
    assert_vec(c->out[5], 3, 3, 3, 3);
    g_assert_cmpuint(errs(), ==, e);
    g_free(c);
}

/* ---- flow control ------------------------------------------------------- */

static void set_fc(Ctx *c, unsigned k, unsigned opc, unsigned act,
                   unsigned jmp_cnt, unsigned last, unsigned rtn,
                   unsigned init, int step)
{
    c->regs[0x22DC / 4] |= opc << (2 * k);
    c->regs[(0x2230 + 4 * k) / 4] = act | jmp_cnt << 8 | last << 16 |
                                    rtn << 24;
    c->regs[(0x2290 + 4 * k) / 4] = init | (uint8_t)step << 8;
}

enum { FC_JUMP = 1, FC_LOOP = 2, FC_JSR = 3 };

static void test_jump(void)
{
    Ctx *c = ctx_new();

    set_in(c, 0, 1, 1, 1, 1);
    emit(c, D(VE_ADD, T_OUT, 0, WXYZW), S(S_IN, 0, "xyzw", 0), ZERO, ZERO);
    emit(c, D(VE_ADD, T_OUT, 1, WXYZW), S(S_IN, 0, "xyzw", 0), ZERO, ZERO);
    emit(c, D(VE_ADD, T_OUT, 2, WXYZW), S(S_IN, 0, "xyzw", 0), ZERO, ZERO);
    /* after instruction 0 jump to 2: instruction 1 is skipped */
    set_fc(c, 0, FC_JUMP, 0, 2, 0, 0, 0, 0);
    run(c);
    assert_vec(c->out[0], 1, 1, 1, 1);
    assert_vec(c->out[1], 99, 99, 99, 99);
    assert_vec(c->out[2], 1, 1, 1, 1);
    g_free(c);
}

static void test_loop(void)
{
    Ctx *c = ctx_new();
    int k;

    for (k = 0; k < 16; k++) {
        set_const(c, k, k, 1, 0, 0);
    }
    /*
     * 0: t0 = 0
     * 1: t0 = t0 + c[aL]      } loop: 4 iterations, aL = 1, 3, 5, 7
     * 2: t1 = t1 + c[aL].y    }
     * 3: out0 = t0 ; out1 = t1 (4)
     * Relative through the loop index: ADDR_MODE_1 (bit 31).
     */
    emit(c, D(VE_ADD, T_TEMP, 0, WXYZW), ZERO, ZERO, ZERO);
    emit(c, D(VE_ADD, T_TEMP, 0, WXYZW), S(S_TEMP, 0, "xyzw", 0),
         S(S_CONST, 0, "xyzw", 0) | 1u << 31, ZERO);
    emit(c, D(VE_ADD, T_TEMP, 1, WXYZW), S(S_TEMP, 1, "xyzw", 0),
         S(S_CONST, 0, "yyyy", 0) | 1u << 31, ZERO);
    emit(c, D(VE_ADD, T_OUT, 0, WXYZW), S(S_TEMP, 0, "xyzw", 0), ZERO, ZERO);
    emit(c, D(VE_ADD, T_OUT, 1, WXYZW), S(S_TEMP, 1, "xyzw", 0), ZERO, ZERO);
    /* LOOP after 0: count 4, body 1..2, init 1 step 2 (as Mesa: act, 1st) */
    set_fc(c, 0, FC_LOOP, 0, 4, 2, 1, 1, 2);
    run(c);
    assert_vec(c->out[0], 1 + 3 + 5 + 7, 4, 0, 0);
    assert_vec(c->out[1], 4, 4, 4, 4);
    g_free(c);

    /* nested: outer 3 x inner 2 increments of t0; negative step */
    c = ctx_new();
    set_const(c, 0, 1, 1, 1, 1);
    for (k = 1; k < 12; k++) {
        set_const(c, k, 100 * k, 0, 0, 0);
    }
    emit(c, D(VE_ADD, T_TEMP, 0, WXYZW), ZERO, ZERO, ZERO);     /* 0 */
    emit(c, D(VE_ADD, T_TEMP, 1, WXYZW), S(S_TEMP, 1, "xyzw", 0),
         S(S_CONST, 0, "xyzw", 0) | 1u << 31, ZERO);            /* 1 */
    emit(c, D(VE_ADD, T_TEMP, 0, WXYZW), S(S_TEMP, 0, "xyzw", 0),
         S(S_CONST, 0, "xyzw", 0), ZERO);                       /* 2 inner */
    emit(c, D(VE_ADD, T_OUT, 0, WXYZW), S(S_TEMP, 0, "xyzw", 0),
         S(S_TEMP, 1, "x000", 0), ZERO);                        /* 3 */
    set_fc(c, 0, FC_LOOP, 0, 3, 2, 1, 9, -3);   /* outer: aL 9, 6, 3 */
    set_fc(c, 1, FC_LOOP, 1, 2, 2, 2, 0, 0);    /* inner: 2 x inst 2 */
    run(c);
    /* t0 = 6 (3 x 2 x 1); t1.x = c9 + c6 + c3 = 1800 */
    assert_vec(c->out[0], 6 + 1800, 6, 6, 6);
    g_free(c);
}

static void test_jsr(void)
{
    Ctx *c = ctx_new();

    set_in(c, 0, 1, 2, 3, 4);
    /*
     * 0: t0 = in0
     * 1: out0 = t0           (JSR to 3..4 after 0, return to 1)
     * 2: jump to 5 (skip the subroutine body)
     * 3: t0 = t0 + t0        } subroutine
     * 4: t0 = t0 * t0        }
     * 5: out1 = t0
     */
    emit(c, D(VE_ADD, T_TEMP, 0, WXYZW), S(S_IN, 0, "xyzw", 0), ZERO, ZERO);
    emit(c, D(VE_ADD, T_OUT, 0, WXYZW), S(S_TEMP, 0, "xyzw", 0), ZERO, ZERO);
    emit(c, D(VE_NOP, T_TEMP, 9, 0), ZERO, ZERO, ZERO);
    emit(c, D(VE_ADD, T_TEMP, 0, WXYZW), S(S_TEMP, 0, "xyzw", 0),
         S(S_TEMP, 0, "xyzw", 0), ZERO);
    emit(c, D(VE_MUL, T_TEMP, 0, WXYZW), S(S_TEMP, 0, "xyzw", 0),
         S(S_TEMP, 0, "xyzw", 0), ZERO);
    emit(c, D(VE_ADD, T_OUT, 1, WXYZW), S(S_TEMP, 0, "xyzw", 0), ZERO, ZERO);
    set_fc(c, 0, FC_JSR, 0, 3, 4, 1, 0, 0);
    set_fc(c, 1, FC_JUMP, 2, 5, 0, 0, 0, 0);
    run(c);
    assert_vec(c->out[0], 4, 16, 36, 64);
    assert_vec(c->out[1], 4, 16, 36, 64);
    g_free(c);
}

/* ---- bad input ---------------------------------------------------------- */

static void test_bad_ranges(void)
{
    Ctx *c = ctx_new();
    unsigned e = errs();

    emit(c, D(VE_ADD, T_OUT, 0, WXYZW), ZERO, ZERO, ZERO);
    /* LAST before FIRST */
    c->regs[0x22D0 / 4] = 5 | 2 << 20;
    g_assert_false(r300_pvs_load(&c->prog, c->regs,
                                 (const uint32_t (*)[4])c->vmem));
    g_assert_cmpuint(errs(), >, e);
    /* LAST past the 256-instruction code memory */
    e = errs();
    c->regs[0x22D0 / 4] = 300u << 20;
    g_assert_false(r300_pvs_load(&c->prog, c->regs,
                                 (const uint32_t (*)[4])c->vmem));
    g_assert_cmpuint(errs(), >, e);
    /* flow-control targets outside the program */
    e = errs();
    set_fc(c, 3, FC_JUMP, 0, 200, 0, 0, 0, 0);
    g_assert_false(load(c));
    g_assert_cmpuint(errs(), >, e);
    c->regs[0x22DC / 4] = 0;
    e = errs();
    set_fc(c, 4, FC_LOOP, 0, 2, 9, 1, 0, 0);    /* last 9 > 0 */
    g_assert_false(load(c));
    g_assert_cmpuint(errs(), >, e);
    c->regs[0x22DC / 4] = 0;
    e = errs();
    set_fc(c, 5, FC_JSR, 0, 0, 0, 7, 0, 0);     /* rtn 7 outside */
    g_assert_false(load(c));
    g_assert_cmpuint(errs(), >, e);
    g_free(c);
}

static void test_bad_operands(void)
{
    Ctx *c = ctx_new();
    unsigned e = errs();

    set_in(c, 0, 1, 2, 3, 4);
    emit(c, D(VE_ADD, T_TEMP, 100, WXYZW), S(S_IN, 0, "xyzw", 0), ZERO, ZERO);
    emit(c, D(VE_ADD, T_OUT, 0, WXYZW), S(S_TEMP, 40, "xyzw", 0),
         S(S_IN, 0, "xyzw", 0), ZERO);
    emit(c, D(20, T_OUT, 1, WXYZW), S(S_IN, 0, "xyzw", 0), ZERO, ZERO);
    emit(c, D(VE_ADD, 7, 0, WXYZW), S(S_IN, 0, "xyzw", 0), ZERO, ZERO);
    emit(c, D(VE_ADD, T_OUT, 40, WXYZW), S(S_IN, 0, "xyzw", 0), ZERO, ZERO);
    emit(c, D(ME_SIN + 5, T_OUT, 2, WXYZW) | MATH, ZERO, ZERO, ZERO);
    emit(c, D(VE_ADD, T_OUT, 3, WXYZW), S(S_IN, 0, "xyAB", 0), ZERO, ZERO);
    run(c);
    /*
     * temp 100 and out 40 dropped, temp 40 reads 0, opcodes not run; of the
     * undefined swizzles only 6 is logged: 7 is Mesa's "unused" lane
     */
    g_assert_cmpuint(errs(), ==, e + 7);
    assert_vec(c->out[0], 1, 2, 3, 4);
    assert_vec(c->out[1], 99, 99, 99, 99);
    assert_vec(c->out[2], 99, 99, 99, 99);
    assert_vec(c->out[3], 1, 2, 0, 0);
    g_free(c);
}

/* Mesa's masked lanes (swizzle 7) read 0 and are not a guest error */
static void test_unused_swizzle_silent(void)
{
    Ctx *c = ctx_new();
    unsigned e = errs();

    set_in(c, 0, 1, 2, 3, 4);
    emit(c, D(VE_ADD, T_OUT, 0, WXYZW), S(S_IN, 0, "xBzB", 0), ZERO, ZERO);
    run(c);
    g_assert_cmpuint(errs(), ==, e);
    assert_vec(c->out[0], 1, 0, 3, 0);
    g_free(c);
}

static void test_runtime_faults(void)
{
    Ctx *c = ctx_new();
    unsigned e;

    /* a relative temp index outside the file: read 0, logged once */
    set_in(c, 0, 50, 0, 0, 0);
    emit(c, D(VE_F2X, T_A0, 0, 0x1), S(S_IN, 0, "xyzw", 0), ZERO, ZERO);
    emit(c, D(VE_ADD, T_OUT, 0, WXYZW), S(S_TEMP, 0, "1111", 0) | 1u << 4,
         S(S_TEMP, 0, "xyzw", 0) | 1u << 4, ZERO);
    emit(c, D(VE_ADD, T_OUT, 0, 0x1) | 1u << 31, ZERO, ZERO, ZERO);
    e = errs();
    run(c);
    exec_again(c);
    g_assert_cmpuint(errs(), ==, e + 1);
    assert_vec(c->out[0], 1, 1, 1, 1);
    g_free(c);

    /* a jump to itself: bounded, logged once per load */
    c = ctx_new();
    emit(c, D(VE_ADD, T_TEMP, 0, WXYZW), S(S_TEMP, 0, "xyzw", 0),
         S(S_CONST, 0, "1111", 0), ZERO);
    emit(c, D(VE_ADD, T_OUT, 0, WXYZW), S(S_TEMP, 0, "xyzw", 0), ZERO, ZERO);
    set_fc(c, 0, FC_JUMP, 0, 0, 0, 0, 0, 0);
    e = errs();
    run(c);
    exec_again(c);
    g_assert_cmpuint(errs(), ==, e + 1);
    assert_vec(c->out[0], 99, 99, 99, 99);
    g_free(c);

    /* loops nested deeper than modelled: the extra level is skipped */
    c = ctx_new();
    {
        int k;
        for (k = 0; k < 8; k++) {
            emit(c, D(VE_ADD, T_TEMP, 0, WXYZW), S(S_TEMP, 0, "xyzw", 0),
                 S(S_CONST, 0, "1111", 0), ZERO);
        }
        emit(c, D(VE_ADD, T_OUT, 0, WXYZW), S(S_TEMP, 0, "xyzw", 0), ZERO,
             ZERO);
        for (k = 0; k < 6; k++) {   /* loop k: after k, body k+1..7, x2 */
            set_fc(c, k, FC_LOOP, k, 2, 7, k + 1, 0, 0);
        }
    }
    e = errs();
    run(c);
    g_assert_cmpuint(errs(), ==, e + 1);
    g_assert_cmpfloat(c->out[0][0], >, 8.0f);
    g_free(c);

    /* loop count 0: logged at load, the body runs once */
    c = ctx_new();
    emit(c, D(VE_ADD, T_TEMP, 0, WXYZW), ZERO, ZERO, ZERO);
    emit(c, D(VE_ADD, T_TEMP, 0, WXYZW), S(S_TEMP, 0, "xyzw", 0),
         S(S_CONST, 0, "1111", 0), ZERO);
    emit(c, D(VE_ADD, T_OUT, 0, WXYZW), S(S_TEMP, 0, "xyzw", 0), ZERO, ZERO);
    set_fc(c, 0, FC_LOOP, 0, 0, 1, 1, 0, 0);
    e = errs();
    run(c);
    g_assert_cmpuint(errs(), ==, e + 1);
    assert_vec(c->out[0], 1, 1, 1, 1);
    g_free(c);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/r300/pvs/passthrough", test_passthrough);
    g_test_add_func("/r300/pvs/matrix", test_matrix);
    g_test_add_func("/r300/pvs/ve-ops", test_ve_ops);
    g_test_add_func("/r300/pvs/ve-saturate", test_ve_saturate);
    g_test_add_func("/r300/pvs/me-ops", test_me_ops);
    g_test_add_func("/r300/pvs/me-lit", test_me_lit);
    g_test_add_func("/r300/pvs/swizzle-negate-abs", test_swizzle_negate_abs);
    g_test_add_func("/r300/pvs/write-mask-files", test_write_mask_and_files);
    g_test_add_func("/r300/pvs/macro", test_macro);
    g_test_add_func("/r300/pvs/constants", test_constants);
    g_test_add_func("/r300/pvs/relative-a0", test_relative_a0);
    g_test_add_func("/r300/pvs/jump", test_jump);
    g_test_add_func("/r300/pvs/loop", test_loop);
    g_test_add_func("/r300/pvs/jsr", test_jsr);
    g_test_add_func("/r300/pvs/bad-ranges", test_bad_ranges);
    g_test_add_func("/r300/pvs/bad-operands", test_bad_operands);
    g_test_add_func("/r300/pvs/runtime-faults", test_runtime_faults);
    g_test_add_func("/r300/pvs/unused-swizzle-silent",
                    test_unused_swizzle_silent);
    return g_test_run();
}
