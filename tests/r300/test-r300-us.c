/*
 * Unit tests of the R300 US (fragment shader).
 *
 * Instruction words are built here with the bit positions of R3xx 3D ref. §1.9
 * US (written out, not the core's macros). Expected values are the reference's
 * definitions of each operation and operand select, evaluated here; the
 * operand-select tables below are its lists as text.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "common/g3d-core.h"
#include "r300/us.h"

#define REGS (0x10000 / 4)

/* ---- encoding, R3xx 3D ref. §1.9 US -------------------------------------- */

static uint32_t RA(unsigned a0, unsigned a1, unsigned a2, unsigned dst,
                   unsigned wmask, unsigned omask, unsigned target)
{
    return a0 | a1 << 6 | a2 << 12 | dst << 18 | wmask << 23 | omask << 26 |
           target << 29;
}

static uint32_t AA(unsigned a0, unsigned a1, unsigned a2, unsigned dst,
                   unsigned wmask, unsigned omask, unsigned target,
                   unsigned omask_w)
{
    return a0 | a1 << 6 | a2 << 12 | dst << 18 | wmask << 23 | omask << 24 |
           target << 25 | omask_w << 27;
}

/* RGB and alpha instruction words share their layout */
static uint32_t INST(unsigned sa, unsigned ma, unsigned sb, unsigned mb,
                     unsigned sc, unsigned mc, unsigned srcp, unsigned op,
                     unsigned omod, unsigned clamp)
{
    return sa | ma << 5 | sb << 7 | mb << 12 | sc << 14 | mc << 19 |
           srcp << 21 | op << 23 | omod << 27 | clamp << 30;
}

static uint32_t TEX(unsigned src, unsigned dst, unsigned id, unsigned inst)
{
    return src | dst << 6 | id << 11 | inst << 15;
}

enum { MAD, DP3, DP4, D2A, MIN, MAX, CND = 7, CMP, FRC, SOP };
enum { A_MAD, A_DP, A_MIN, A_MAX, A_CND = 5, A_CMP, A_FRC, A_EX2, A_LN2,
       A_RCP, A_RSQ };
enum { T_NOP, T_LD, T_KILL, T_PROJ, T_LODBIAS };
/* selects used for "x * 1 + 0" */
enum { R_ZERO = 20, R_ONE = 21, R_HALF = 22, R_SRC0 = 0, R_SRC1 = 4,
       R_SRC2 = 8, R_SRCP = 15 };
enum { AL_ZERO = 16, AL_ONE = 17, AL_SRC0 = 9, AL_SRC1 = 10, AL_SRC2 = 11,
       AL_SRCP = 15 };

/* out.rgb = A, out.a = A: the usual "MOV" pair */
#define MOV_RGB(sel) INST(sel, 0, R_ONE, 0, R_ZERO, 0, 0, MAD, 0, 0)
#define MOV_A(sel) INST(sel, 0, AL_ONE, 0, AL_ZERO, 0, 0, A_MAD, 0, 0)

/* fp24 [R3xx 3D ref. §1.9 US; Mesa r300_emit.c pack_float24]: sign 23, exponent
 * 22:16 bias 63, mantissa */
static uint32_t fp24(int sign, int exp2, unsigned mant16)
{
    return (unsigned)sign << 23 | (unsigned)(exp2 + 63) << 16 | mant16;
}

/* ---- harness ------------------------------------------------------------ */

typedef struct Ctx {
    uint32_t regs[REGS];
    R300USProgram prog;
    R300USQuad q;
    /* sampler stub */
    unsigned calls;
    int units[8], insts[8];
    float coords[8][4][4];
} Ctx;

static Ctx *ctx_new(void)
{
    Ctx *c = g_new0(Ctx, 1);

    c->regs[0x4604 / 4] = 31;       /* US_PIXSIZE: every temporary */
    c->q.live = 0xf;
    return c;
}

static void reg(Ctx *c, unsigned off, uint32_t v)
{
    c->regs[off / 4] = v;
}

static void alu(Ctx *c, unsigned i, uint32_t ra, uint32_t aa, uint32_t ri,
                uint32_t ai)
{
    reg(c, 0x46C0 + 4 * i, ra);
    reg(c, 0x47C0 + 4 * i, aa);
    reg(c, 0x48C0 + 4 * i, ri);
    reg(c, 0x49C0 + 4 * i, ai);
}

/* one node (level 3) of `n` ALU instructions from 0, no TEX */
static void single(Ctx *c, unsigned n)
{
    reg(c, 0x4600, 0);
    reg(c, 0x4608, (n - 1) << 6);
    reg(c, 0x461C, (n - 1) << 6 | 1 << 22);
}

/* sampler stub: records the call; returns coord * 10 + unit */
static void stub(void *opaque, int unit, int inst, const float coord[4][4],
                 float out[4][4])
{
    Ctx *c = opaque;
    int px, k;

    if (c->calls < 8) {
        c->units[c->calls] = unit;
        c->insts[c->calls] = inst;
        memcpy(c->coords[c->calls], coord, sizeof(c->coords[0]));
    }
    c->calls++;
    for (px = 0; px < 4; px++) {
        for (k = 0; k < 4; k++) {
            out[px][k] = coord[px][k] * 10.0f + unit;
        }
    }
}

static void set_t(Ctx *c, int px, unsigned t, float r, float g, float b,
                  float a)
{
    c->q.temp[px][t][0] = r;
    c->q.temp[px][t][1] = g;
    c->q.temp[px][t][2] = b;
    c->q.temp[px][t][3] = a;
}

/* the same temporary in all four pixels */
static void set_t4(Ctx *c, unsigned t, float r, float g, float b, float a)
{
    int px;
    for (px = 0; px < 4; px++) {
        set_t(c, px, t, r, g, b, a);
    }
}

static void run(Ctx *c)
{
    g_assert_true(r300_us_load(&c->prog, c->regs));
    r300_us_exec(&c->prog, &c->q, stub, c);
}

static void assert_near(float v, double e)
{
    g_assert_cmpfloat_with_epsilon(v, e, 1e-6 * fmax(1.0, fabs(e)));
}

static void assert_vec(const float *v, double r, double g, double b, double a)
{
    assert_near(v[0], r);
    assert_near(v[1], g);
    assert_near(v[2], b);
    assert_near(v[3], a);
}

static unsigned errs(void)
{
    return g3d_log_count(G3D_LOG_GUEST_ERROR);
}

/* ---- Mesa's pass-through program ----------------------------------------- */

/* Mesa's pass-through: out.rgba = t0 * 1 + 0, clamped, to target A */
static void test_passthrough_program(void)
{
    Ctx *c = ctx_new();
    unsigned e = errs();

    reg(c, 0x4600, 0);
    reg(c, 0x4604, 0);
    reg(c, 0x4608, 0);
    reg(c, 0x461C, 0x00400000);
    alu(c, 0, 0x1C000000, 0x01000000, 0x40050A80, 0x40040889);
    reg(c, 0x46A4, 0x00001B00);
    reg(c, 0x46A8, 0xF);
    reg(c, 0x46AC, 0xF);
    reg(c, 0x46B0, 0xF);
    set_t(c, 0, 0, 0.25f, 0.5f, 0.75f, 1.0f);
    set_t(c, 1, 0, 1.5f, -1.0f, 0.0f, 0.5f);
    set_t(c, 2, 0, 0.1f, 0.2f, 0.3f, 0.4f);
    set_t(c, 3, 0, 0.0f, 0.0f, 2.0f, -3.0f);
    run(c);
    assert_vec(c->q.out[0][0], 0.25, 0.5, 0.75, 1.0);
    assert_vec(c->q.out[1][0], 1.0, 0.0, 0.0, 0.5);    /* clamped */
    assert_vec(c->q.out[2][0], 0.1f, 0.2f, 0.3f, 0.4f);
    assert_vec(c->q.out[3][0], 0.0, 0.0, 1.0, 0.0);
    g_assert_cmphex(c->q.out_written, ==, 1);
    g_assert_false(c->q.w_written);
    g_assert_cmphex(c->prog.out_fmt[0], ==, 0x1B00);
    g_assert_cmpuint(c->calls, ==, 0);
    g_assert_cmpuint(errs(), ==, e);
    g_free(c);
}

/* ---- ALU operations -------------------------------------------------------- */

static const float T1[4] = { 0.5f, -1.5f, 2.0f, 0.25f };
static const float T2[4] = { 3.0f, 0.5f, -0.25f, -2.0f };
static const float T3[4] = { 0.75f, 0.25f, -1.0f, 0.6f };

/* rgb: A = t1.rgb, B = t2.rgb, C = t3.rgb; alpha: t1.a, t2.a, t3.a */
static void op_run(Ctx *c, unsigned rgb_op, unsigned alpha_op, unsigned modc)
{
    single(c, 1);
    set_t4(c, 1, T1[0], T1[1], T1[2], T1[3]);
    set_t4(c, 2, T2[0], T2[1], T2[2], T2[3]);
    set_t4(c, 3, T3[0], T3[1], T3[2], T3[3]);
    alu(c, 0, RA(1, 2, 3, 0, 0, 7, 0), AA(1, 2, 3, 0, 0, 1, 0, 0),
        INST(R_SRC0, 0, R_SRC1, 0, R_SRC2, modc, 0, rgb_op, 0, 0),
        INST(AL_SRC0, 0, AL_SRC1, 0, AL_SRC2, modc, 0, alpha_op, 0, 0));
    run(c);
}

static void test_rgb_ops(void)
{
    static const unsigned ops[] = { MAD, DP3, DP4, D2A, MIN, MAX, CND, CMP,
                                    FRC, SOP };
    unsigned i, k, neg;

    for (neg = 0; neg < 2; neg++) {
        for (i = 0; i < G_N_ELEMENTS(ops); i++) {
            Ctx *c = ctx_new();
            double e[3], C[3];

            for (k = 0; k < 3; k++) {
                C[k] = neg ? -T3[k] : T3[k];
            }
            /* SOP shows the alpha unit's scalar: pair it with EX2 */
            op_run(c, ops[i], ops[i] == SOP ? A_EX2 : A_MAD, neg);
            for (k = 0; k < 3; k++) {
                double a = T1[k], b = T2[k];
                double dp3 = T1[0] * T2[0] + T1[1] * T2[1] + T1[2] * T2[2];
                switch (ops[i]) {
                case MAD: e[k] = a * b + C[k]; break;
                case DP3: e[k] = dp3; break;
                case DP4: e[k] = dp3 + T1[3] * T2[3]; break;
                case D2A: e[k] = T1[0] * T2[0] + T1[1] * T2[1] + C[2]; break;
                case MIN: e[k] = fmin(a, b); break;
                case MAX: e[k] = fmax(a, b); break;
                case CND: e[k] = C[k] > 0.5 ? a : b; break;
                case CMP: e[k] = C[k] >= 0.0 ? a : b; break;
                case FRC: e[k] = a - floor(a); break;
                default: e[k] = exp2(T1[3]); break;
                }
            }
            for (k = 0; k < 3; k++) {
                assert_near(c->q.out[2][0][k], e[k]);
            }
            g_free(c);
        }
    }
}

static void test_alpha_ops(void)
{
    static const unsigned ops[] = { A_MAD, A_DP, A_MIN, A_MAX, A_CND, A_CMP,
                                    A_FRC, A_EX2, A_LN2, A_RCP, A_RSQ };
    unsigned i, neg;
    const double a = T1[3], b = T2[3];
    const double dp3 = T1[0] * T2[0] + T1[1] * T2[1] + T1[2] * T2[2];

    for (neg = 0; neg < 2; neg++) {
        double cc = neg ? -T3[3] : T3[3];
        for (i = 0; i < G_N_ELEMENTS(ops); i++) {
            Ctx *c = ctx_new();
            double e;

            /* DP alone pairs with the RGB op: DP4 here, DP3 below */
            op_run(c, ops[i] == A_DP ? DP4 : MAD, ops[i], neg);
            switch (ops[i]) {
            case A_MAD: e = a * b + cc; break;
            case A_DP: e = dp3 + a * b; break;
            case A_MIN: e = fmin(a, b); break;
            case A_MAX: e = fmax(a, b); break;
            case A_CND: e = cc > 0.5 ? a : b; break;
            case A_CMP: e = cc >= 0 ? a : b; break;
            case A_FRC: e = a - floor(a); break;
            case A_EX2: e = exp2(a); break;
            case A_LN2: e = log2(a); break;
            case A_RCP: e = 1.0 / a; break;
            default: e = 1.0 / sqrt(a); break;
            }
            assert_near(c->q.out[1][0][3], e);
            g_free(c);
        }
    }
    {
        Ctx *c = ctx_new();
        op_run(c, DP3, A_DP, 0);
        assert_near(c->q.out[0][0][3], dp3);
        assert_near(c->q.out[0][0][0], dp3);
        g_free(c);
    }
}

/* ---- operand selects -------------------------------------------------------- */

/* R3xx 3D ref. §1.9 US, in order: source (0 1 2, p = srcp, c = constant),
 * swizzle */
static const char *const rgb_sels[32] = {
    "0rgb", "0rrr", "0ggg", "0bbb", "1rgb", "1rrr", "1ggg", "1bbb",
    "2rgb", "2rrr", "2ggg", "2bbb", "0aaa", "1aaa", "2aaa", "prgb",
    "prrr", "pggg", "pbbb", "paaa", "c000", "c111", "chhh", "0gbr",
    "1gbr", "2gbr", "0brg", "1brg", "2brg", "0abg", "1abg", "2abg",
};
static const char *const alpha_sels[19] = {
    "0r", "0g", "0b", "1r", "1g", "1b", "2r", "2g", "2b", "0a", "1a", "2a",
    "pr", "pg", "pb", "pa", "c0", "c1", "ch",
};

/*
 * RGB sources are t1 t2 t3, alpha sources t4 t5 t6; the 9s (the alpha of
 * t1..t3, the rgb of t4..t6) must never be read. srcp = src1 - src0
 * (SRCP_OP 1) in both halves.
 */
static const float sel_temps[7][4] = {
    { 0 }, { 0.1f, 0.2f, 0.3f, 9.0f }, { 1.5f, 1.25f, 1.75f, 9.0f },
    { -2.5f, -2.25f, -2.75f, 9.0f }, { 9.0f, 9.0f, 9.0f, 0.125f },
    { 9.0f, 9.0f, 9.0f, 0.625f }, { 9.0f, 9.0f, 9.0f, -0.875f },
};

static double sel_value(char src, char comp)
{
    const float (*t)[4] = sel_temps;
    int k;

    if (src == 'c') {
        return comp == '0' ? 0.0 : comp == '1' ? 1.0 : 0.5;
    }
    k = comp == 'a' ? 3 : (int)(strchr("rgb", comp) - "rgb");
    if (src == 'p') {
        return k == 3 ? (double)t[5][3] - t[4][3] : (double)t[2][k] - t[1][k];
    }
    return t[(src - '0') + (k == 3 ? 4 : 1)][k];
}

static void sel_setup(Ctx *c)
{
    int t;

    single(c, 1);
    for (t = 1; t <= 6; t++) {
        set_t4(c, t, sel_temps[t][0], sel_temps[t][1], sel_temps[t][2],
               sel_temps[t][3]);
    }
}

/* out.rgb = RGB select rgb_sel, out.a = alpha select alpha_sel */
static Ctx *sel_run(unsigned rgb_sel, unsigned alpha_sel)
{
    Ctx *c = ctx_new();

    sel_setup(c);
    alu(c, 0, RA(1, 2, 3, 0, 0, 7, 0), AA(4, 5, 6, 0, 0, 1, 0, 0),
        INST(rgb_sel, 0, R_ONE, 0, R_ZERO, 0, 1, MAD, 0, 0),
        INST(alpha_sel, 0, AL_ONE, 0, AL_ZERO, 0, 1, A_MAD, 0, 0));
    run(c);
    return c;
}

static void test_rgb_selects(void)
{
    unsigned s, k;

    for (s = 0; s < 32; s++) {
        Ctx *c = sel_run(s, AL_ONE);
        for (k = 0; k < 3; k++) {
            const char *d = rgb_sels[s];
            assert_near(c->q.out[3][0][k], sel_value(d[0], d[1 + k]));
        }
        g_free(c);
    }
}

static void test_alpha_selects(void)
{
    unsigned s;

    for (s = 0; s < 19; s++) {
        Ctx *c = sel_run(R_ONE, s);
        assert_near(c->q.out[2][0][3],
                    sel_value(alpha_sels[s][0], alpha_sels[s][1]));
        g_free(c);
    }
}

/* ---- modifiers, srcp, omod, clamp, constants --------------------------------- */

static void test_modifiers(void)
{
    unsigned mod;

    for (mod = 0; mod < 4; mod++) {
        Ctx *c = ctx_new();
        /* one modifier on each of A, B and C: A*B+C with B = 1, C = 0.5 */
        double v[3] = { -0.5, 2.0, 0.25 }, va = -3.0, e[3], ea = 0;
        unsigned k;

        single(c, 1);
        set_t4(c, 1, v[0], v[1], v[2], va);
        set_t4(c, 2, 1.0f, 1.0f, 1.0f, 1.0f);
        set_t4(c, 3, -0.5f, -0.5f, -0.5f, -0.5f);
        alu(c, 0, RA(1, 2, 3, 0, 0, 7, 0), AA(1, 2, 3, 0, 0, 1, 0, 0),
            INST(R_SRC0, mod, R_SRC1, mod, R_SRC2, mod, 0, MAD, 0, 0),
            INST(AL_SRC0, mod, AL_SRC1, mod, AL_SRC2, mod, 0, A_MAD, 0, 0));
        run(c);
        for (k = 0; k < 4; k++) {
            double x = k < 3 ? v[k] : va, one = 1.0, cc = -0.5;
            switch (mod) {
            case 1: x = -x; one = -one; cc = -cc; break;
            case 2: x = fabs(x); one = fabs(one); cc = fabs(cc); break;
            case 3: x = -fabs(x); one = -fabs(one); cc = -fabs(cc); break;
            }
            if (k < 3) {
                e[k] = x * one + cc;
            } else {
                ea = x * one + cc;
            }
        }
        assert_vec(c->q.out[0][0], e[0], e[1], e[2], ea);
        g_free(c);
    }
}

static void test_presubtract(void)
{
    unsigned op;

    for (op = 0; op < 4; op++) {
        Ctx *c = ctx_new();
        const double s0[4] = { 0.25, -0.5, 2.0, 0.75 };
        const double s1[4] = { 1.0, 0.5, -1.5, -0.25 };
        double e[4];
        int k;

        single(c, 1);
        set_t4(c, 1, s0[0], s0[1], s0[2], s0[3]);
        set_t4(c, 2, s1[0], s1[1], s1[2], s1[3]);
        alu(c, 0, RA(1, 2, 0, 0, 0, 7, 1), AA(1, 2, 0, 0, 0, 1, 1, 0),
            INST(R_SRCP, 0, R_ONE, 0, R_ZERO, 0, op, MAD, 0, 0),
            INST(AL_SRCP, 0, AL_ONE, 0, AL_ZERO, 0, op, A_MAD, 0, 0));
        run(c);
        for (k = 0; k < 4; k++) {
            switch (op) {
            case 0: e[k] = 1.0 - 2.0 * s0[k]; break;
            case 1: e[k] = s1[k] - s0[k]; break;
            case 2: e[k] = s1[k] + s0[k]; break;
            default: e[k] = 1.0 - s0[k]; break;
            }
        }
        assert_vec(c->q.out[1][1], e[0], e[1], e[2], e[3]);
        g_free(c);
    }
}

static void test_omod_clamp(void)
{
    static const double scale[7] = { 1, 2, 4, 8, 0.5, 0.25, 0.125 };
    unsigned omod, clamp;

    for (clamp = 0; clamp < 2; clamp++) {
        for (omod = 0; omod < 7; omod++) {
            Ctx *c = ctx_new();
            double e = 0.375 * scale[omod], en = -0.375 * scale[omod];

            single(c, 1);
            set_t4(c, 1, 0.375f, -0.375f, 0.375f, 0.375f);
            alu(c, 0, RA(1, 0, 0, 0, 0, 7, 0), AA(1, 0, 0, 0, 0, 1, 0, 0),
                MOV_RGB(R_SRC0) | omod << 27 | clamp << 30,
                MOV_A(AL_SRC0) | omod << 27 | clamp << 30);
            run(c);
            if (clamp) {    /* clamp after the output modifier */
                e = fmin(e, 1.0);
                en = 0.0;
            }
            assert_vec(c->q.out[0][0], e, en, e, e);
            g_free(c);
        }
    }
}

static void test_constants(void)
{
    Ctx *c = ctx_new();

    single(c, 1);
    /* const 5 = (1.5, -0.375, 6, 0), const 7.a = 0.75 */
    reg(c, 0x4C00 + 16 * 5, fp24(0, 0, 0x8000));
    reg(c, 0x4C04 + 16 * 5, fp24(1, -2, 0x8000));
    reg(c, 0x4C08 + 16 * 5, fp24(0, 2, 0x8000));
    reg(c, 0x4C0C + 16 * 5, 0);
    reg(c, 0x4C0C + 16 * 7, fp24(0, -1, 0x8000));
    set_t4(c, 5, 100, 100, 100, 100);   /* temp 5 must not be read */
    alu(c, 0, RA(32 + 5, 0, 0, 0, 0, 7, 0), AA(32 + 7, 0, 0, 0, 0, 1, 0, 0),
        MOV_RGB(R_SRC0), MOV_A(AL_SRC0));
    run(c);
    assert_vec(c->q.out[0][0], 1.5, -0.375, 6.0, 0.75);
    g_free(c);
}

/* ---- destinations and outputs --------------------------------------------- */

static void test_write_masks_and_targets(void)
{
    Ctx *c = ctx_new();
    unsigned t;
    int px;

    single(c, 2);
    set_t4(c, 1, 0.1f, 0.2f, 0.3f, 0.4f);
    set_t4(c, 7, 5, 6, 7, 8);
    /* t7.rb = t1.rgb, t7.a = t1.a; out C.rg; out D.a; W = t1.a */
    alu(c, 0, RA(1, 0, 0, 7, 5, 3, 2), AA(1, 0, 0, 7, 1, 1, 3, 1),
        MOV_RGB(R_SRC0), MOV_A(AL_SRC0));
    /* second instruction: alpha to t9 only, no outputs */
    alu(c, 1, RA(1, 0, 0, 9, 0, 0, 0), AA(7, 0, 0, 9, 1, 0, 0, 0),
        MOV_RGB(R_SRC0), MOV_A(AL_SRC0));
    run(c);
    for (px = 0; px < 4; px++) {
        assert_vec(c->q.temp[px][7], 0.1f, 6, 0.3f, 0.4f);
        assert_vec(c->q.out[px][2], 0.1f, 0.2f, 0, 0);
        assert_vec(c->q.out[px][3], 0, 0, 0, 0.4f);
        assert_near(c->q.w[px], 0.4f);
        assert_near(c->q.temp[px][9][3], 0.4f);
        assert_near(c->q.temp[px][9][0], 0);
    }
    g_assert_cmphex(c->q.out_written, ==, 0xc);
    g_assert_true(c->q.w_written);
    g_free(c);

    for (t = 0; t < 4; t++) {
        c = ctx_new();
        single(c, 1);
        set_t4(c, 1, 0.1f * t, 0.2f, 0.3f, 0.4f);
        alu(c, 0, RA(1, 0, 0, 0, 0, 7, t), AA(1, 0, 0, 0, 0, 1, t, 0),
            MOV_RGB(R_SRC0), MOV_A(AL_SRC0));
        run(c);
        assert_vec(c->q.out[1][t], 0.1f * t, 0.2f, 0.3f, 0.4f);
        g_assert_cmphex(c->q.out_written, ==, 1u << t);
        g_assert_false(c->q.w_written);
        g_free(c);
    }
}

/* helper pixels (not live) are computed too: derivatives need them */
static void test_helper_pixels(void)
{
    Ctx *c = ctx_new();
    int px;

    c->q.live = 0x1;
    single(c, 1);
    for (px = 0; px < 4; px++) {
        set_t(c, px, 0, px, px * 0.5f, 0, 1);
    }
    alu(c, 0, RA(0, 0, 0, 0, 0, 7, 0), AA(0, 0, 0, 0, 0, 1, 0, 0),
        MOV_RGB(R_SRC0), MOV_A(AL_SRC0));
    run(c);
    for (px = 0; px < 4; px++) {
        assert_vec(c->q.out[px][0], px, px * 0.5, 0, 1);
    }
    g_assert_cmphex(c->q.live, ==, 1);
    g_free(c);
}

/* ---- nodes and TEX ---------------------------------------------------------- */

/*
 * Two nodes (NLEVEL 1: levels 2 and 3): node 0 computes t1 = 2 * t0,
 * node 1 reads texture 3 at t1 (a dependent read) and writes it out.
 * Levels 0 and 1 hold garbage that must be ignored.
 */
static void test_dependent_read(void)
{
    Ctx *c = ctx_new();
    int px, k;

    reg(c, 0x4600, 1);                          /* NLEVEL 1, no FIRST_TEX */
    reg(c, 0x4608, 1 << 6);                     /* 2 ALU, 1 TEX */
    reg(c, 0x4610, 0xffffffff);
    reg(c, 0x4614, 0xffffffff);
    reg(c, 0x4618, 0 | 0 << 6 | 5 << 12 | 3 << 17);  /* TEX ignored here */
    reg(c, 0x461C, 1 | 0 << 6 | 0 << 12 | 0 << 17 | 1 << 22);
    alu(c, 0, RA(0, 0, 0, 1, 7, 0, 0), AA(0, 0, 0, 1, 1, 0, 0, 0),
        MOV_RGB(R_SRC0) | 1 << 27, MOV_A(AL_SRC0) | 1 << 27);
    reg(c, 0x4620, TEX(1, 2, 3, T_LD));
    alu(c, 1, RA(2, 0, 0, 0, 0, 7, 0), AA(2, 0, 0, 0, 0, 1, 0, 0),
        MOV_RGB(R_SRC0), MOV_A(AL_SRC0));
    for (px = 0; px < 4; px++) {
        set_t(c, px, 0, 0.1f * px, 0.2f, 0.3f, 0.4f);
    }
    run(c);
    g_assert_cmpuint(c->calls, ==, 1);
    g_assert_cmpint(c->units[0], ==, 3);
    g_assert_cmpint(c->insts[0], ==, T_LD);
    for (px = 0; px < 4; px++) {
        for (k = 0; k < 4; k++) {
            float t0 = c->q.temp[px][0][k];
            assert_near(c->coords[0][px][k], 2 * t0);
            assert_near(c->q.out[px][0][k], 2 * t0 * 10 + 3);
        }
    }
    g_free(c);
}

/* four nodes, each TEX reads unit n at t_n into t_n+1 (sampler adds) */
static void test_four_nodes(void)
{
    Ctx *c = ctx_new();
    unsigned n;

    reg(c, 0x4600, 3 | 1 << 3);                 /* NLEVEL 3, FIRST_TEX */
    reg(c, 0x4608, 3 << 6 | 3 << 18);
    for (n = 0; n < 4; n++) {
        reg(c, 0x4610 + 4 * n, n | 0 << 6 | n << 12 | 0 << 17);
        reg(c, 0x4620 + 4 * n, TEX(n, n + 1, n, T_LD));
        /* t_n+1 = t_n+1 * 0.1 (OMOD /8 * 0.8 would do too) */
        alu(c, n, RA(n + 1, 32, 0, n + 1, 7, n == 3 ? 7 : 0, 0),
            AA(n + 1, 32, 0, n + 1, 1, n == 3, 0, 0),
            INST(R_SRC0, 0, R_SRC1, 0, R_ZERO, 0, 0, MAD, 0, 0),
            INST(AL_SRC0, 0, AL_SRC1, 0, AL_ZERO, 0, 0, A_MAD, 0, 0));
    }
    /* constant 0 = 0.1 in every component (fp24 of 0.1 truncates) */
    for (n = 0; n < 4; n++) {
        reg(c, 0x4C00 + 4 * n, fp24(0, -4, 0x9999));
    }
    set_t4(c, 0, 1, 2, 3, 4);
    run(c);
    g_assert_cmpuint(c->calls, ==, 4);
    for (n = 0; n < 4; n++) {
        g_assert_cmpint(c->units[n], ==, (int)n);
    }
    {
        /* each node: x -> (10x + n) * k, k = fp24(0.1) */
        double k = (1.0 + 0x9999 / 65536.0) / 16.0, x = 1.0;
        for (n = 0; n < 4; n++) {
            x = (10 * x + n) * k;
        }
        assert_near(c->q.out[2][0][0], x);
    }
    g_free(c);

    /* FIRST_TEX clear: node 0's TEX does not run */
    c = ctx_new();
    reg(c, 0x4600, 0);
    reg(c, 0x4608, 0);
    reg(c, 0x461C, 0 | 0 << 12 | 0 << 17);
    reg(c, 0x4620, TEX(0, 1, 0, T_LD));
    alu(c, 0, RA(0, 0, 0, 0, 0, 7, 0), AA(0, 0, 0, 0, 0, 1, 0, 0),
        MOV_RGB(R_SRC0), MOV_A(AL_SRC0));
    run(c);
    g_assert_cmpuint(c->calls, ==, 0);
    reg(c, 0x4600, 1 << 3);
    run(c);
    g_assert_cmpuint(c->calls, ==, 1);
    g_free(c);
}

static void test_tex_kinds(void)
{
    Ctx *c = ctx_new();

    /* KIL, PROJ, LODBIAS, NOP in one TEX segment */
    reg(c, 0x4600, 1 << 3);
    reg(c, 0x4608, 3 << 18);
    reg(c, 0x461C, 0 | 0 << 12 | 3 << 17);
    reg(c, 0x4620, TEX(4, 0, 0, T_KILL));
    reg(c, 0x4624, TEX(1, 2, 5, T_PROJ));
    reg(c, 0x4628, TEX(1, 3, 6, T_LODBIAS));
    reg(c, 0x462C, TEX(1, 3, 7, T_NOP));
    alu(c, 0, RA(0, 0, 0, 0, 0, 0, 0), AA(0, 0, 0, 0, 0, 0, 0, 0),
        MOV_RGB(R_SRC0), MOV_A(AL_SRC0));
    set_t4(c, 1, 1, 2, 3, 4);
    /* kill if any component < 0: pixels 1 (y) and 3 (w) */
    set_t(c, 0, 4, 0, 0, 0, 0);
    set_t(c, 1, 4, 1, -0.001f, 1, 1);
    set_t(c, 2, 4, 1, 1, 1, 1);
    set_t(c, 3, 4, 1, 1, 1, -1);
    run(c);
    g_assert_cmphex(c->q.kill, ==, 0xa);
    g_assert_cmpuint(c->calls, ==, 2);
    g_assert_cmpint(c->insts[0], ==, T_PROJ);
    g_assert_cmpint(c->units[0], ==, 5);
    g_assert_cmpint(c->insts[1], ==, T_LODBIAS);
    g_assert_cmpint(c->units[1], ==, 6);
    assert_vec(c->q.temp[2][2], 15, 25, 35, 45);
    assert_vec(c->q.temp[2][3], 16, 26, 36, 46);
    g_assert_cmphex(c->prog.units_used, ==, 0x60);
    g_free(c);
}

/* ---- bad input ------------------------------------------------------------- */

static void test_bad_ranges(void)
{
    Ctx *c = ctx_new();
    unsigned e;

    single(c, 1);
    /* NLEVEL 4..7 */
    e = errs();
    reg(c, 0x4600, 5);
    g_assert_false(r300_us_load(&c->prog, c->regs));
    g_assert_cmpuint(errs(), ==, e + 1);
    /* ALU past the 64-instruction store (offset 40 + start 20 + 8) */
    e = errs();
    reg(c, 0x4600, 0);
    reg(c, 0x4608, 40 | 63 << 6);
    reg(c, 0x461C, 20 | 7 << 6);
    g_assert_false(r300_us_load(&c->prog, c->regs));
    g_assert_cmpuint(errs(), ==, e + 1);
    /* ALU past US_CODE_OFFSET's total */
    e = errs();
    reg(c, 0x4608, 3 << 6);
    reg(c, 0x461C, 2 | 3 << 6);
    g_assert_false(r300_us_load(&c->prog, c->regs));
    g_assert_cmpuint(errs(), ==, e + 1);
    /* TEX past the 32-instruction store */
    e = errs();
    reg(c, 0x4600, 1 << 3);
    reg(c, 0x4608, 0 | 16 << 13 | 31 << 18);
    reg(c, 0x461C, 0 | 10 << 12 | 15 << 17);
    g_assert_false(r300_us_load(&c->prog, c->regs));
    g_assert_cmpuint(errs(), ==, e + 1);
    g_free(c);
}

static void test_bad_fields(void)
{
    Ctx *c = ctx_new();
    unsigned e = errs();

    reg(c, 0x4600, 1 << 3);
    reg(c, 0x4604, 3);                  /* temporaries 0..3 */
    reg(c, 0x4608, 1 << 6 | 1 << 18);
    reg(c, 0x461C, 1 << 6 | 1 << 17);
    reg(c, 0x4620, TEX(0, 1, 0, 6));    /* TEX instruction 6 */
    reg(c, 0x4624, TEX(0, 1, 0, T_NOP));
    /* RGB op 6, alpha op 4, alpha select 25, OMOD 7, temp 9 > PIXSIZE */
    alu(c, 0, RA(0, 0, 0, 0, 0, 7, 0), AA(0, 0, 0, 0, 0, 1, 0, 0),
        INST(R_ONE, 0, R_ONE, 0, R_ONE, 0, 0, 6, 7, 0),
        INST(25, 0, AL_ONE, 0, AL_ONE, 0, 0, 4, 0, 0));
    alu(c, 1, RA(9, 0, 0, 0, 0, 0, 0), AA(0, 0, 0, 0, 0, 0, 0, 0),
        MOV_RGB(R_SRC0), MOV_A(AL_SRC0));
    reg(c, 0x46A4, 14);                 /* OUT_FMT 14 reserved */
    reg(c, 0x46B4, 3);                  /* W_FMT 3 reserved */
    set_t4(c, 0, 0.5f, 0.5f, 0.5f, 0.5f);
    run(c);
    /* TEX, RGB op, alpha op, alpha select, OMOD, PIXSIZE, OUT_FMT, W_FMT */
    g_assert_cmpuint(errs(), ==, e + 8);
    assert_vec(c->q.out[0][0], 0, 0, 0, 0);
    g_assert_cmpuint(c->calls, ==, 0);
    g_free(c);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/r300/us/passthrough-program", test_passthrough_program);
    g_test_add_func("/r300/us/rgb-ops", test_rgb_ops);
    g_test_add_func("/r300/us/alpha-ops", test_alpha_ops);
    g_test_add_func("/r300/us/rgb-selects", test_rgb_selects);
    g_test_add_func("/r300/us/alpha-selects", test_alpha_selects);
    g_test_add_func("/r300/us/modifiers", test_modifiers);
    g_test_add_func("/r300/us/presubtract", test_presubtract);
    g_test_add_func("/r300/us/omod-clamp", test_omod_clamp);
    g_test_add_func("/r300/us/constants", test_constants);
    g_test_add_func("/r300/us/outputs", test_write_masks_and_targets);
    g_test_add_func("/r300/us/helper-pixels", test_helper_pixels);
    g_test_add_func("/r300/us/dependent-read", test_dependent_read);
    g_test_add_func("/r300/us/four-nodes", test_four_nodes);
    g_test_add_func("/r300/us/tex-kinds", test_tex_kinds);
    g_test_add_func("/r300/us/bad-ranges", test_bad_ranges);
    g_test_add_func("/r300/us/bad-fields", test_bad_fields);
    return g_test_run();
}
