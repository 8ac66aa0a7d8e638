/*
 * Unit tests of the ATTILA unified shader (hw/gpu3d/attila/shader.c): the
 * 16-byte encoding of attila-sim ShaderInstruction.cpp and every opcode of the
 * ISA, with operand modifiers (swizzle, negate, absolute), result modifiers
 * (saturate, write mask), predication, relative addressing, the texture
 * instructions, kills, depth export, jumps and bad programs. Expected values
 * are worked out by hand from the instruction definitions (attila-sim
 * ShaderEmulator.cpp, GPUMath), not taken from the interpreter.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "attila/attila-int.h"
#include "same-words.h"
#include "common/g3d-core.h"
#include "gpu3d/attila-cmd.h"

/* ---- the encoding of attila-sim ShaderInstruction.cpp
 * (include/gpu3d/attila-cmd.h) */

typedef AttilaShSrc Src;
typedef AttilaShIns Ins;

#define XYZW ATTILA_SWZ_XYZW
#define SWZ ATTILA_SWZ
#define T(n) ((Src){ ATTILA_BANK_TEMP, (n), XYZW })
#define I(n) ((Src){ ATTILA_BANK_IN, (n), XYZW })
#define C(n) ((Src){ ATTILA_BANK_PARAM, (n), XYZW })
#define encode attila_sh_encode

/* ---- a machine to run programs on ---------------------------------------- */

typedef struct TexCall {
    int calls;
    AttilaTexOp op;
    uint32_t unit;
    AttilaVec4 coord[4];
    float param[4];
} TexCall;

typedef struct Machine {
    AttilaShInstr *imem;
    AttilaVec4 consts[ATTILA_SH_CONSTS];
    AttilaShaderThread t[ATTILA_SH_BATCH];
    AttilaShaderEnv env;
    TexCall tex;
    uint32_t bad_pc;
} Machine;

/* the fake texture unit: returns 2 * coordinate, remembers the request */
static void fake_tex(void *opaque, AttilaTexOp op, uint32_t unit,
                     const AttilaVec4 coord[4], const float param[4],
                     AttilaVec4 result[4])
{
    TexCall *tc = opaque;
    int l, k;

    tc->calls++;
    tc->op = op;
    tc->unit = unit;
    memcpy(tc->coord, coord, sizeof(tc->coord));
    memcpy(tc->param, param, sizeof(tc->param));
    for (l = 0; l < 4; l++) {
        for (k = 0; k < 4; k++) {
            result[l].f[k] = 2.0f * coord[l].f[k];
        }
    }
}

/*
 * fake_tex by the lanes' registers (AttilaTexQuadFn): the same request
 * remembered and the same results, for the odd units; the even ones are
 * left to fake_tex (false, nothing written)
 */
static unsigned fake_quads;

static bool fake_tex_quad(void *opaque, uint32_t unit,
                          const float *const coord[4], float *const result[4])
{
    static const float param[4];
    AttilaVec4 c[4], r[4];
    int l;

    if (!(unit & 1)) {
        return false;
    }
    for (l = 0; l < 4; l++) {
        memcpy(c[l].f, coord[l], sizeof(c[l].f));
    }
    fake_tex(opaque, ATTILA_TEXOP_READ, unit, c, param, r);
    for (l = 0; l < 4; l++) {
        memcpy(result[l], r[l].f, sizeof(r[l].f));
    }
    fake_quads++;
    return true;
}

static Machine *machine_new(void)
{
    Machine *m = g_new0(Machine, 1);
    int l;

    m->imem = g_new0(AttilaShInstr, ATTILA_INSTRUCTION_MEMORY);
    m->env.imem = m->imem;
    m->env.consts = m->consts;
    m->env.tex = fake_tex;
    m->env.tex_opaque = &m->tex;
    for (l = 0; l < 4; l++) {
        attila_shader_reset_thread(&m->t[l]);
    }
    return m;
}

static void machine_free(Machine *m)
{
    g_free(m->imem);
    g_free(m);
}

/* load n instructions at pc; the last one gets the end flag */
static void load(Machine *m, uint32_t pc, Ins *prog, int n)
{
    int i;

    for (i = 0; i < n; i++) {
        prog[i].end = i == n - 1;
    }
    for (i = 0; i < n; i++) {
        uint8_t code[16];
        encode(&prog[i], code);
        g_assert_true(attila_shader_decode(code, &m->imem[pc + i]));
    }
}

static AttilaShaderResult run(Machine *m, int lanes)
{
    return attila_shader_run(&m->env, 0, m->t, lanes, &m->bad_pc);
}

static void set4(AttilaVec4 *v, float x, float y, float z, float w)
{
    v->f[0] = x;
    v->f[1] = y;
    v->f[2] = z;
    v->f[3] = w;
}

static void seti4(AttilaVec4 *v, int32_t x, int32_t y, int32_t z, int32_t w)
{
    v->i[0] = x;
    v->i[1] = y;
    v->i[2] = z;
    v->i[3] = w;
}

/* eps 0: exact (the glib macro's test is "difference < epsilon") */
#define ASSERT_VEC(v, x, y, z, w, eps) do {                         \
        g_assert_cmpfloat_with_epsilon((v).f[0], (x), (eps) + 1e-30);   \
        g_assert_cmpfloat_with_epsilon((v).f[1], (y), (eps) + 1e-30);   \
        g_assert_cmpfloat_with_epsilon((v).f[2], (z), (eps) + 1e-30);   \
        g_assert_cmpfloat_with_epsilon((v).f[3], (w), (eps) + 1e-30);   \
    } while (0)

/* "op t3, t0[, t1[, t2]]" on one thread, result in t3 */
static AttilaVec4 alu(uint8_t opc, const float a[4], const float b[4],
                      const float c[4])
{
    Machine *m = machine_new();
    Ins p[1] = { { .opc = opc, .s = { T(0), T(1), T(2) },
                   .rbank = ATTILA_BANK_TEMP, .rreg = 3, .mask = 0xF } };
    AttilaVec4 r;

    memcpy(m->t[0].temp[0].f, a, 16);
    if (b) {
        memcpy(m->t[0].temp[1].f, b, 16);
    }
    if (c) {
        memcpy(m->t[0].temp[2].f, c, 16);
    }
    load(m, 0, p, 1);
    g_assert_cmpint(run(m, 1), ==, ATTILA_SHADER_OK);
    r = m->t[0].temp[3];
    machine_free(m);
    return r;
}

#define V(...) ((const float[4]){ __VA_ARGS__ })

/* ---- encoding ------------------------------------------------------------ */

static void test_encoding(void)
{
    /* attila-sim's encoding example: "mov o0, i0" with the end flag */
    static const uint8_t mov_o0_i0[16] = {
        0x16, 0x01, 0x00, 0x00, 0xF1, 0x00, 0x00, 0x00,
        0x00, 0x1B, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    };
    Ins mov = { .opc = ATTILA_SH_MOV, .end = true, .s = { I(0) },
                .rbank = ATTILA_BANK_OUT, .rreg = 0, .mask = 0xF };
    uint8_t code[16];
    AttilaShInstr in;
    int opc;

    encode(&mov, code);
    g_assert_cmpmem(code, 16, mov_o0_i0, 16);
    g_assert_true(attila_shader_decode(mov_o0_i0, &in));
    g_assert_cmpint(in.opcode, ==, ATTILA_SH_MOV);
    g_assert_true(in.end);
    g_assert_cmpint(in.op[0].bank, ==, ATTILA_BANK_IN);
    g_assert_cmpint(in.op[0].swz, ==, XYZW);
    g_assert_cmpint(in.res_bank, ==, ATTILA_BANK_OUT);
    g_assert_cmpint(in.mask, ==, 0xF);

    /* 05 BRA, 06 CAL, 1A RET and 38..FF are not instructions */
    for (opc = 0; opc < 256; opc++) {
        bool valid = opc < 0x38 && opc != 0x05 && opc != 0x06 && opc != 0x1A;
        Ins x = { .opc = opc, .s = { T(0), T(1), T(2) },
                  .rbank = opc == ATTILA_SH_ARL ? ATTILA_BANK_ADDR :
                           ATTILA_BANK_TEMP, .mask = 0xF };
        encode(&x, code);
        g_assert_cmpint(attila_shader_decode(code, &in), ==, valid);
        g_assert_cmpint(in.valid, ==, valid);
    }
}

static void test_bad_operands(void)
{
    uint8_t code[16];
    AttilaShInstr in;
    Ins x = { .opc = ATTILA_SH_ADD, .s = { T(0), T(1) },
              .rbank = ATTILA_BANK_TEMP, .mask = 0xF };

    encode(&x, code);
    g_assert_true(attila_shader_decode(code, &in));
    x.s[0].reg = 32;                    /* 32 temporaries */
    encode(&x, code);
    g_assert_false(attila_shader_decode(code, &in));
    x.s[0] = I(16);                     /* 16 inputs */
    encode(&x, code);
    g_assert_false(attila_shader_decode(code, &in));
    x.s[0] = T(0);
    x.s[1].bank = 7;                    /* bank 7 is invalid */
    encode(&x, code);
    g_assert_false(attila_shader_decode(code, &in));
    x.s[1] = T(1);
    x.rbank = ATTILA_BANK_IN;           /* inputs cannot be written */
    encode(&x, code);
    g_assert_false(attila_shader_decode(code, &in));
    x.rbank = ATTILA_BANK_PARAM;        /* nor constants */
    encode(&x, code);
    g_assert_false(attila_shader_decode(code, &in));
    x.rbank = ATTILA_BANK_TEMP;
    x.rel = true;                       /* address registers a0, a1 only */
    x.areg = 1;
    encode(&x, code);
    g_assert_true(attila_shader_decode(code, &in));
    x.areg = 2;
    encode(&x, code);
    g_assert_false(attila_shader_decode(code, &in));
    x.rel = false;
    x.opc = ATTILA_SH_TEX;
    x.s[1].reg = ATTILA_MAX_TEXTURES;   /* texture unit out of range */
    encode(&x, code);
    g_assert_false(attila_shader_decode(code, &in));
}

/* ---- float ALU ----------------------------------------------------------- */

static void test_arith(void)
{
    AttilaVec4 r;

    r = alu(ATTILA_SH_ADD, V(1, 2, 3, 4), V(0.5f, -2, 1, 10), NULL);
    ASSERT_VEC(r, 1.5, 0, 4, 14, 0);
    r = alu(ATTILA_SH_MUL, V(1, 2, 3, 4), V(0.5f, -2, 1, 10), NULL);
    ASSERT_VEC(r, 0.5, -4, 3, 40, 0);
    r = alu(ATTILA_SH_MAD, V(1, 2, 3, 4), V(0.5f, -2, 1, 10), V(1, 1, 1, -40));
    ASSERT_VEC(r, 1.5, -3, 4, 0, 0);
    r = alu(ATTILA_SH_MAX, V(1, -2, 3, -4), V(0, 0, 5, -5), NULL);
    ASSERT_VEC(r, 1, 0, 5, -4, 0);
    r = alu(ATTILA_SH_MIN, V(1, -2, 3, -4), V(0, 0, 5, -5), NULL);
    ASSERT_VEC(r, 0, -2, 3, -5, 0);
    r = alu(ATTILA_SH_SLT, V(1, 2, 3, 4), V(2, 2, 2, 5), NULL);
    ASSERT_VEC(r, 1, 0, 0, 1, 0);
    r = alu(ATTILA_SH_SGE, V(1, 2, 3, 4), V(2, 2, 2, 5), NULL);
    ASSERT_VEC(r, 0, 1, 1, 0, 0);
    r = alu(ATTILA_SH_MOV, V(1, -2, 3.5f, 1e30f), NULL, NULL);
    ASSERT_VEC(r, 1, -2, 3.5, 1e30f, 0);
    r = alu(ATTILA_SH_CMP, V(-1, 0, 2, -0.5f), V(10, 20, 30, 40), V(5, 6, 7, 8));
    ASSERT_VEC(r, 10, 6, 7, 40, 0);
}

static void test_dot(void)
{
    AttilaVec4 r;

    r = alu(ATTILA_SH_DP3, V(1, 2, 3, 4), V(4, 5, 6, 7), NULL);
    ASSERT_VEC(r, 32, 32, 32, 32, 0);
    r = alu(ATTILA_SH_DP4, V(1, 2, 3, 4), V(4, 5, 6, 7), NULL);
    ASSERT_VEC(r, 60, 60, 60, 60, 0);
    r = alu(ATTILA_SH_DPH, V(1, 2, 3, 4), V(4, 5, 6, 7), NULL);
    ASSERT_VEC(r, 39, 39, 39, 39, 0);
    /* DST: (1, a.y * b.y, a.z, b.w) */
    r = alu(ATTILA_SH_DST, V(9, 2, 3, 9), V(9, 4, 9, 5), NULL);
    ASSERT_VEC(r, 1, 8, 3, 5, 0);
}

static void test_floor_frac(void)
{
    AttilaVec4 r;

    r = alu(ATTILA_SH_FRC, V(1.25f, -1.25f, 3, -0.5f), NULL, NULL);
    ASSERT_VEC(r, 0.25, 0.75, 0, 0.5, 0);
    r = alu(ATTILA_SH_FLR, V(1.25f, -1.25f, 3, -0.5f), NULL, NULL);
    ASSERT_VEC(r, 1, -2, 3, -1, 0);
}

static void test_lit(void)
{
    AttilaVec4 r;

    /* (1, max(x, 0), x > 0 ? max(y, 0)^clamp(w, +-128) : 0, 1) */
    r = alu(ATTILA_SH_LIT, V(0.5f, 0.25f, 0, 2), NULL, NULL);
    ASSERT_VEC(r, 1, 0.5, 0.0625, 1, 1e-7);
    r = alu(ATTILA_SH_LIT, V(-0.5f, 0.25f, 0, 2), NULL, NULL);
    ASSERT_VEC(r, 1, 0, 0, 1, 0);
    r = alu(ATTILA_SH_LIT, V(0.5f, 0.5f, 0, 200), NULL, NULL);
    g_assert_cmpfloat_with_epsilon(r.f[2], ldexp(1.0, -128), 1e-45);
}

/* scalar instructions read the component of the last swizzle selector */
static AttilaVec4 scalar(uint8_t opc, float v, uint8_t comp)
{
    Machine *m = machine_new();
    Ins p[1] = { { .opc = opc, .s = { { ATTILA_BANK_TEMP, 0, SWZ(3, 3, 0, comp) } },
                   .rbank = ATTILA_BANK_TEMP, .rreg = 3, .mask = 0xF } };
    AttilaVec4 r;

    set4(&m->t[0].temp[0], 99, 99, 99, 99);
    m->t[0].temp[0].f[comp] = v;
    load(m, 0, p, 1);
    g_assert_cmpint(run(m, 1), ==, ATTILA_SHADER_OK);
    r = m->t[0].temp[3];
    machine_free(m);
    return r;
}

static void test_scalar(void)
{
    AttilaVec4 r;

    r = scalar(ATTILA_SH_RCP, 4, 2);
    ASSERT_VEC(r, 0.25, 0.25, 0.25, 0.25, 0);
    r = scalar(ATTILA_SH_RCP, 0, 1);
    g_assert_true(isinf(r.f[0]) && r.f[0] > 0);
    r = scalar(ATTILA_SH_RSQ, 16, 0);
    ASSERT_VEC(r, 0.25, 0.25, 0.25, 0.25, 0);
    r = scalar(ATTILA_SH_RSQ, -16, 3);          /* of |x| */
    ASSERT_VEC(r, 0.25, 0.25, 0.25, 0.25, 0);
    r = scalar(ATTILA_SH_EX2, 3, 1);
    ASSERT_VEC(r, 8, 8, 8, 8, 0);
    r = scalar(ATTILA_SH_EX2, -1, 1);
    ASSERT_VEC(r, 0.5, 0.5, 0.5, 0.5, 0);
    r = scalar(ATTILA_SH_LG2, 8, 0);
    ASSERT_VEC(r, 3, 3, 3, 3, 1e-6);
    r = scalar(ATTILA_SH_SIN, (float)(M_PI / 2), 0);
    ASSERT_VEC(r, 1, 1, 1, 1, 1e-6);
    r = scalar(ATTILA_SH_COS, 0, 2);
    ASSERT_VEC(r, 1, 1, 1, 1, 0);
    r = scalar(ATTILA_SH_COS, (float)M_PI, 2);
    ASSERT_VEC(r, -1, -1, -1, -1, 1e-6);
    /* EXP: (2^floor(x), x - floor(x), 2^x, 1) */
    r = scalar(ATTILA_SH_EXP, 2.5f, 3);
    ASSERT_VEC(r, 4, 0.5, 5.656854, 1, 1e-5);
    /* LOG: (floor(log2|x|), x / 2^floor(log2 x), log2 x, 1) */
    r = scalar(ATTILA_SH_LOG, 10, 1);
    ASSERT_VEC(r, 3, 1.25, 3.321928, 1, 1e-5);
}

/* ---- integer ALU and the address registers -------------------------------- */

static void test_integer(void)
{
    Machine *m = machine_new();
    Ins p[2] = {
        { .opc = ATTILA_SH_ADDI, .s = { T(0), T(1) },
          .rbank = ATTILA_BANK_TEMP, .rreg = 3, .mask = 0xF },
        { .opc = ATTILA_SH_MULI, .s = { T(0), T(2) },
          .rbank = ATTILA_BANK_TEMP, .rreg = 4, .mask = 0xF },
    };

    seti4(&m->t[0].temp[0], 1, 2, -3, INT32_MAX);
    seti4(&m->t[0].temp[1], 5, -7, 3, 1);
    seti4(&m->t[0].temp[2], 7, 7, -2, 0x10000);
    load(m, 0, p, 2);
    g_assert_cmpint(run(m, 1), ==, ATTILA_SHADER_OK);
    g_assert_cmpint(m->t[0].temp[3].i[0], ==, 6);
    g_assert_cmpint(m->t[0].temp[3].i[1], ==, -5);
    g_assert_cmpint(m->t[0].temp[3].i[2], ==, 0);
    g_assert_cmpint(m->t[0].temp[3].i[3], ==, INT32_MIN);     /* wraps */
    g_assert_cmpint(m->t[0].temp[4].i[0], ==, 7);
    g_assert_cmpint(m->t[0].temp[4].i[1], ==, 14);
    g_assert_cmpint(m->t[0].temp[4].i[2], ==, 6);
    g_assert_cmpint(m->t[0].temp[4].i[3], ==, -65536);       /* wraps */
    machine_free(m);
}

static void test_arl_relative(void)
{
    Machine *m = machine_new();
    Ins p[3] = {
        /* a0 = floor(t0) on all four components */
        { .opc = ATTILA_SH_ARL, .s = { T(0) }, .rbank = ATTILA_BANK_ADDR,
          .rreg = 0, .mask = 0xF },
        /* t3 = c[a0.y + 2 + 10] */
        { .opc = ATTILA_SH_MOV, .s = { C(10) }, .rbank = ATTILA_BANK_TEMP,
          .rreg = 3, .mask = 0xF, .rel = true, .areg = 0, .acomp = 1,
          .aoff = 2 },
        /* t4 = c[a0.w - 1 + 0] = c[-3]: outside the bank, reads 0 */
        { .opc = ATTILA_SH_MOV, .s = { C(0) }, .rbank = ATTILA_BANK_TEMP,
          .rreg = 4, .mask = 0xF, .rel = true, .areg = 0, .acomp = 3,
          .aoff = -1 },
    };
    int k;

    for (k = 0; k < ATTILA_SH_CONSTS; k++) {
        set4(&m->consts[k], k, -k, 0, 1);
    }
    set4(&m->t[0].temp[0], 1.7f, 3.2f, -0.5f, -2.0f);
    set4(&m->t[0].temp[4], 7, 7, 7, 7);
    load(m, 0, p, 3);
    g_assert_cmpint(run(m, 1), ==, ATTILA_SHADER_OK);
    g_assert_cmpint(m->t[0].addr[0].i[0], ==, 1);
    g_assert_cmpint(m->t[0].addr[0].i[1], ==, 3);
    g_assert_cmpint(m->t[0].addr[0].i[2], ==, -1);
    g_assert_cmpint(m->t[0].addr[0].i[3], ==, -2);
    ASSERT_VEC(m->t[0].temp[3], 15, -15, 0, 1, 0);
    ASSERT_VEC(m->t[0].temp[4], 0, 0, 0, 0, 0);
    machine_free(m);
}

/* ---- operand and result modifiers ----------------------------------------- */

static void test_modifiers(void)
{
    Machine *m = machine_new();
    Ins p[6] = {
        /* swizzle .wzyx */
        { .opc = ATTILA_SH_MOV, .s = { { ATTILA_BANK_TEMP, 0, SWZ(3, 2, 1, 0) } },
          .rbank = ATTILA_BANK_TEMP, .rreg = 1, .mask = 0xF },
        /* -|t0| (absolute first, then negate) */
        { .opc = ATTILA_SH_MOV,
          .s = { { ATTILA_BANK_TEMP, 0, XYZW, .neg = true, .abs = true } },
          .rbank = ATTILA_BANK_TEMP, .rreg = 2, .mask = 0xF },
        /* saturate, write x and z only */
        { .opc = ATTILA_SH_MOV, .s = { T(0) }, .rbank = ATTILA_BANK_TEMP,
          .rreg = 3, .mask = 0xA, .sat = true },
        /* -t0 into an output */
        { .opc = ATTILA_SH_MOV, .s = { { ATTILA_BANK_TEMP, 0, XYZW, .neg = true } },
          .rbank = ATTILA_BANK_OUT, .rreg = 5, .mask = 0xF },
        /* PARAM2: constant 256 + 4 */
        { .opc = ATTILA_SH_MOV, .s = { { ATTILA_BANK_PARAM2, 4, XYZW } },
          .rbank = ATTILA_BANK_TEMP, .rreg = 4, .mask = 0xF },
        /* immediate second operand: t5 = t0 + imm (1.0f) on every component */
        { .opc = ATTILA_SH_ADD, .s = { T(0), { ATTILA_BANK_IMM } },
          .rbank = ATTILA_BANK_TEMP, .rreg = 5, .mask = 0xF,
          .has_imm = true, .imm = 0x3f800000u },
    };

    set4(&m->t[0].temp[0], -1.5f, 0.25f, 2, -0.0f);
    set4(&m->t[0].temp[3], 9, 9, 9, 9);
    set4(&m->consts[260], 1, 2, 3, 4);
    load(m, 0, p, 6);
    g_assert_cmpint(run(m, 1), ==, ATTILA_SHADER_OK);
    ASSERT_VEC(m->t[0].temp[1], -0.0, 2, 0.25, -1.5, 0);
    ASSERT_VEC(m->t[0].temp[2], -1.5, -0.25, -2, 0, 0);
    ASSERT_VEC(m->t[0].temp[3], 0, 9, 1, 9, 0);
    ASSERT_VEC(m->t[0].out[5], 1.5, -0.25, -2, 0, 0);
    ASSERT_VEC(m->t[0].temp[4], 1, 2, 3, 4, 0);
    ASSERT_VEC(m->t[0].temp[5], -0.5, 1.25, 3, 1, 0);
    machine_free(m);
}

/* ---- predicates ----------------------------------------------------------- */

static void test_predicates(void)
{
    Machine *m = machine_new();
    Ins p[] = {
        /* p0 = t0.x == t1.x (2 == 2), p1 = t0.y > t1.y (1 > 5), p2 = t0.z < t1.z */
        { .opc = ATTILA_SH_SETPEQ, .s = { { ATTILA_BANK_TEMP, 0, 0x00 },
                                         { ATTILA_BANK_TEMP, 1, 0x00 } }, .rreg = 0 },
        { .opc = ATTILA_SH_SETPGT, .s = { { ATTILA_BANK_TEMP, 0, 0x55 },
                                         { ATTILA_BANK_TEMP, 1, 0x55 } }, .rreg = 1 },
        { .opc = ATTILA_SH_SETPLT, .s = { { ATTILA_BANK_TEMP, 0, 0xAA },
                                         { ATTILA_BANK_TEMP, 1, 0xAA } }, .rreg = 2 },
        /* integer forms on t2 vs t3: 7 == 7, -1 > 4, -1 < 4 */
        { .opc = ATTILA_SH_STPEQI, .s = { { ATTILA_BANK_TEMP, 2, 0x00 },
                                         { ATTILA_BANK_TEMP, 3, 0x00 } }, .rreg = 3 },
        { .opc = ATTILA_SH_STPGTI, .s = { { ATTILA_BANK_TEMP, 2, 0x55 },
                                         { ATTILA_BANK_TEMP, 3, 0x55 } }, .rreg = 4 },
        { .opc = ATTILA_SH_STPLTI, .s = { { ATTILA_BANK_TEMP, 2, 0x55 },
                                         { ATTILA_BANK_TEMP, 3, 0x55 } }, .rreg = 5 },
        /* the saturate bit negates a predicate result: p6 = !(2 == 2) */
        { .opc = ATTILA_SH_SETPEQ, .s = { { ATTILA_BANK_TEMP, 0, 0x00 },
                                         { ATTILA_BANK_TEMP, 1, 0x00 } }, .rreg = 6,
          .sat = true },
        /* ANDP: p7 = p0 && p2, p8 = p0 && !p1 (operand negate) */
        { .opc = ATTILA_SH_ANDP, .s = { { 0, 0 }, { 0, 2 } }, .rreg = 7 },
        { .opc = ATTILA_SH_ANDP, .s = { { 0, 0 }, { 0, 1, .neg = true } }, .rreg = 8 },
        /* predicated writes: t4 = 1 if p0; t5 = 1 if !p0 (not written) */
        { .opc = ATTILA_SH_MOV, .s = { C(0) }, .rbank = ATTILA_BANK_TEMP,
          .rreg = 4, .mask = 0xF, .pred = true, .preg = 0 },
        { .opc = ATTILA_SH_MOV, .s = { C(0) }, .rbank = ATTILA_BANK_TEMP,
          .rreg = 5, .mask = 0xF, .pred = true, .inv = true, .preg = 0 },
    };
    int n = G_N_ELEMENTS(p);

    set4(&m->t[0].temp[0], 2, 1, 3, 0);
    set4(&m->t[0].temp[1], 2, 5, 4, 0);
    seti4(&m->t[0].temp[2], 7, -1, 0, 0);
    seti4(&m->t[0].temp[3], 7, 4, 0, 0);
    set4(&m->t[0].temp[5], -8, -8, -8, -8);
    set4(&m->consts[0], 1, 1, 1, 1);
    load(m, 0, p, n);
    g_assert_cmpint(run(m, 1), ==, ATTILA_SHADER_OK);
    g_assert_true(m->t[0].pred[0]);
    g_assert_false(m->t[0].pred[1]);
    g_assert_true(m->t[0].pred[2]);
    g_assert_true(m->t[0].pred[3]);
    g_assert_false(m->t[0].pred[4]);
    g_assert_true(m->t[0].pred[5]);
    g_assert_false(m->t[0].pred[6]);
    g_assert_true(m->t[0].pred[7]);
    g_assert_true(m->t[0].pred[8]);
    ASSERT_VEC(m->t[0].temp[4], 1, 1, 1, 1, 0);
    ASSERT_VEC(m->t[0].temp[5], -8, -8, -8, -8, 0);
    machine_free(m);
}

/* ---- fragment-only instructions (a quad of four threads) ------------------ */

static void test_kill(void)
{
    Machine *m = machine_new();
    Ins p[] = {
        { .opc = ATTILA_SH_KIL, .s = { T(0) } },
        /* CMPKIL: t3 = t1 < 0 ? t2 : t1, kill where a written result < 0 */
        { .opc = ATTILA_SH_CMPKIL, .s = { T(1), T(2), T(1) },
          .rbank = ATTILA_BANK_TEMP, .rreg = 3, .mask = 0x8 },
        { .opc = ATTILA_SH_MOV, .s = { C(0) }, .rbank = ATTILA_BANK_OUT,
          .rreg = 1, .mask = 0xF },
    };
    int l;

    for (l = 0; l < 4; l++) {
        set4(&m->t[l].temp[0], 1, 1, 1, 1);
        set4(&m->t[l].temp[1], 1, 1, 1, 1);
        set4(&m->t[l].temp[2], 1, 1, 1, -1);
    }
    m->t[1].temp[0].f[2] = -0.5f;           /* lane 1: KIL */
    m->t[2].temp[1].f[0] = -1.0f;           /* lane 2: CMPKIL picks t2.x = 1 */
    m->t[3].temp[1].f[0] = -1.0f;           /* lane 3: CMPKIL picks t2.x < 0 */
    m->t[3].temp[2].f[0] = -2.0f;
    m->t[0].temp[1].f[3] = -1.0f;           /* lane 0: w < 0, but masked out */
    set4(&m->consts[0], 0.5f, 0.5f, 0.5f, 0.5f);
    load(m, 0, p, G_N_ELEMENTS(p));
    g_assert_cmpint(run(m, 4), ==, ATTILA_SHADER_OK);
    g_assert_false(m->t[0].kill);
    g_assert_true(m->t[1].kill);
    g_assert_false(m->t[2].kill);
    g_assert_true(m->t[3].kill);
    ASSERT_VEC(m->t[0].out[1], 0.5, 0.5, 0.5, 0.5, 0);
    machine_free(m);
}

static void test_samples_depth(void)
{
    Machine *m = machine_new();
    Ins p[] = {
        /* ZXP: depth export from op1.x */
        { .opc = ATTILA_SH_ZXP, .s = { { ATTILA_BANK_TEMP, 0, SWZ(2, 1, 0, 3) } } },
        /* KLS on sample 0 kills when the operand has a component < 0 */
        { .opc = ATTILA_SH_KLS, .s = { T(1), { 0, 0 } } },
        /* CHS moves to the next sample; KLS for sample 1 now applies */
        { .opc = ATTILA_SH_CHS },
        { .opc = ATTILA_SH_KLS, .s = { T(2), { 0, 1 } } },
        /* ZXS: depth export too */
        { .opc = ATTILA_SH_ZXS, .s = { T(3), { 0, 1 } } },
    };
    int l;

    for (l = 0; l < 4; l++) {
        set4(&m->t[l].temp[0], 0.1f, 0.2f, 0.75f, 0.4f);
        set4(&m->t[l].temp[1], 1, 1, 1, 1);
        set4(&m->t[l].temp[2], 1, 1, 1, 1);
        set4(&m->t[l].temp[3], 0.25f, 0, 0, 0);
    }
    m->t[1].temp[1].f[1] = -1;              /* lane 1: killed on sample 0 */
    m->t[2].temp[2].f[3] = -1;              /* lane 2: killed on sample 1 */
    load(m, 0, p, 3);                       /* ZXP, KLS, CHS first */
    g_assert_cmpint(run(m, 4), ==, ATTILA_SHADER_OK);
    for (l = 0; l < 4; l++) {
        g_assert_cmpfloat(m->t[l].zexport, ==, 0.75f);
        g_assert_cmpuint(m->t[l].sample, ==, 1);
    }
    g_assert_true(m->t[1].kill);
    g_assert_false(m->t[0].kill || m->t[2].kill || m->t[3].kill);

    for (l = 0; l < 4; l++) {
        attila_shader_reset_thread(&m->t[l]);
        set4(&m->t[l].temp[1], 1, 1, 1, 1);
        set4(&m->t[l].temp[2], 1, 1, 1, 1);
        set4(&m->t[l].temp[3], 0.25f, 0, 0, 0);
    }
    m->t[2].temp[2].f[3] = -1;
    load(m, 0, p, G_N_ELEMENTS(p));
    g_assert_cmpint(run(m, 4), ==, ATTILA_SHADER_OK);
    g_assert_true(m->t[2].kill);
    g_assert_false(m->t[0].kill || m->t[1].kill || m->t[3].kill);
    g_assert_cmpfloat(m->t[0].zexport, ==, 0.25f);
    machine_free(m);
}

static void test_derivatives(void)
{
    Machine *m = machine_new();
    Ins p[] = {
        { .opc = ATTILA_SH_DDX, .s = { I(1) }, .rbank = ATTILA_BANK_TEMP,
          .rreg = 0, .mask = 0xF },
        { .opc = ATTILA_SH_DDY, .s = { I(1) }, .rbank = ATTILA_BANK_TEMP,
          .rreg = 1, .mask = 0xF },
    };
    /* lanes: 0 = (x, y), 1 = (x+1, y), 2 = (x, y+1), 3 = (x+1, y+1) */
    static const float v[4] = { 1, 3, 10, 17 };
    int l;

    for (l = 0; l < 4; l++) {
        set4(&m->t[l].in[1], v[l], 2 * v[l], 0, 1);
    }
    load(m, 0, p, 2);
    g_assert_cmpint(run(m, 4), ==, ATTILA_SHADER_OK);
    /* ddx: top pair 3 - 1, bottom pair 17 - 10; ddy: left 10 - 1, right 17 - 3 */
    ASSERT_VEC(m->t[0].temp[0], 2, 4, 0, 0, 0);
    ASSERT_VEC(m->t[1].temp[0], 2, 4, 0, 0, 0);
    ASSERT_VEC(m->t[2].temp[0], 7, 14, 0, 0, 0);
    ASSERT_VEC(m->t[3].temp[0], 7, 14, 0, 0, 0);
    ASSERT_VEC(m->t[0].temp[1], 9, 18, 0, 0, 0);
    ASSERT_VEC(m->t[2].temp[1], 9, 18, 0, 0, 0);
    ASSERT_VEC(m->t[1].temp[1], 14, 28, 0, 0, 0);
    ASSERT_VEC(m->t[3].temp[1], 14, 28, 0, 0, 0);
    machine_free(m);
}

/* ---- texture instructions ------------------------------------------------- */

static void tex_one(uint8_t opc, uint32_t unit, AttilaTexOp want_op,
                    const float coord[4], const float want_coord[4],
                    float want_param)
{
    Machine *m = machine_new();
    Ins p[1] = { { .opc = opc, .s = { T(0), { 0, unit } },
                   .rbank = ATTILA_BANK_TEMP, .rreg = 2, .mask = 0xF } };
    int l;

    for (l = 0; l < 4; l++) {
        memcpy(m->t[l].temp[0].f, coord, 16);
        m->t[l].temp[0].f[0] += l;          /* lanes differ */
    }
    load(m, 0, p, 1);
    g_assert_cmpint(run(m, 4), ==, ATTILA_SHADER_OK);
    g_assert_cmpint(m->tex.calls, ==, 1);       /* one request per quad */
    g_assert_cmpint(m->tex.op, ==, want_op);
    g_assert_cmpuint(m->tex.unit, ==, unit);
    for (l = 0; l < 4; l++) {
        float wx = opc == ATTILA_SH_TXP ? (coord[0] + l) / coord[3] :
                   want_coord[0] + l;
        g_assert_cmpfloat_with_epsilon(m->tex.coord[l].f[0], wx, 1e-6);
        g_assert_cmpfloat_with_epsilon(m->tex.coord[l].f[1], want_coord[1], 1e-6);
        g_assert_cmpfloat_with_epsilon(m->tex.coord[l].f[2], want_coord[2], 1e-6);
        g_assert_cmpfloat(m->tex.param[l], ==, want_param);
        /* the fake unit returns 2 * coordinate into the result register */
        g_assert_cmpfloat_with_epsilon(m->t[l].temp[2].f[0], 2 * wx, 1e-6);
    }
    machine_free(m);
}

static void test_texture(void)
{
    tex_one(ATTILA_SH_TEX, 3, ATTILA_TEXOP_READ, V(0.5f, 0.25f, 0, 2),
            V(0.5f, 0.25f, 0, 2), 0);
    /* TXB: LOD bias in .w */
    tex_one(ATTILA_SH_TXB, 15, ATTILA_TEXOP_READ, V(0.5f, 0.25f, 0, 2),
            V(0.5f, 0.25f, 0, 2), 2);
    /* TXL: explicit LOD in .w */
    tex_one(ATTILA_SH_TXL, 0, ATTILA_TEXOP_READ_LOD, V(0.5f, 0.25f, 0, 3),
            V(0.5f, 0.25f, 0, 3), 3);
    /* TXP: projective, x/w y/w z/w */
    tex_one(ATTILA_SH_TXP, 1, ATTILA_TEXOP_READ, V(1, 0.5f, 4, 2),
            V(0.5f, 0.25f, 2, 2), 0);
    /* LDA: attribute load through the texture unit */
    tex_one(ATTILA_SH_LDA, 2, ATTILA_TEXOP_ATTRIBUTE, V(7, 0, 0, 0),
            V(7, 0, 0, 0), 0);
}

/* ---- fixed point (triangle setup on the shader) --------------------------- */

static void test_fixed_point(void)
{
    Machine *m = machine_new();
    Ins p[] = {
        /* acc = fx(1/3) * fx(3) = 85/256 * 3 */
        { .opc = ATTILA_SH_FXMUL, .s = { T(0), T(1) },
          .rbank = ATTILA_BANK_TEMP, .rreg = 5, .mask = 0xF },
        /* t2 = fx(0.5) * fx(0.5) + acc */
        { .opc = ATTILA_SH_FXMAD, .s = { T(3), T(3) },
          .rbank = ATTILA_BANK_TEMP, .rreg = 2, .mask = 0xF },
        /* acc = 2 * 2 + 1; t4 = 0 * 0 + acc */
        { .opc = ATTILA_SH_FXMAD2, .s = { T(1), T(6), T(7) },
          .rbank = ATTILA_BANK_TEMP, .rreg = 5, .mask = 0xF },
        { .opc = ATTILA_SH_FXMAD, .s = { T(8), T(8) },
          .rbank = ATTILA_BANK_TEMP, .rreg = 4, .mask = 0xF },
    };

    set4(&m->t[0].temp[0], 1.0f / 3, 1.0f / 3, 1.0f / 3, 1.0f / 3);
    set4(&m->t[0].temp[1], 3, 3, 3, 3);
    set4(&m->t[0].temp[3], 0.5f, 0.5f, 0.5f, 0.5f);
    set4(&m->t[0].temp[6], 2.0f / 3, 2.0f / 3, 2.0f / 3, 2.0f / 3);
    set4(&m->t[0].temp[7], 1, 1, 1, 1);
    load(m, 0, p, G_N_ELEMENTS(p));
    g_assert_cmpint(run(m, 1), ==, ATTILA_SHADER_OK);
    /* 85 * 3 / 256 + 0.25: the 8 fraction bits truncate 1/3 */
    ASSERT_VEC(m->t[0].temp[2], 255.0 / 256 + 0.25, 255.0 / 256 + 0.25,
               255.0 / 256 + 0.25, 255.0 / 256 + 0.25, 0);
    /* fx(2/3) = 170/256; * 3 = 510/256; + 1 */
    ASSERT_VEC(m->t[0].temp[4], 510.0 / 256 + 1, 510.0 / 256 + 1,
               510.0 / 256 + 1, 510.0 / 256 + 1, 0);

    /*
     * every run starts with the accumulators at zero (run clears them
     * when the program first needs exec_alu): a run that leaves them at
     * 3 * 3, then one that reads them first, in every lane
     */
    {
        Ins acc9[] = {
            { .opc = ATTILA_SH_FXMUL, .s = { T(1), T(1) },
              .rbank = ATTILA_BANK_TEMP, .rreg = 5, .mask = 0xF },
        };
        Ins read[] = {
            { .opc = ATTILA_SH_FXMAD, .s = { T(3), T(3) },
              .rbank = ATTILA_BANK_TEMP, .rreg = 2, .mask = 0xF },
        };
        int l;

        for (l = 0; l < 4; l++) {
            set4(&m->t[l].temp[1], 3, 3, 3, 3);
            set4(&m->t[l].temp[3], 0.5f, 0.5f, 0.5f, 0.5f);
        }
        load(m, 0, acc9, G_N_ELEMENTS(acc9));
        g_assert_cmpint(run(m, 4), ==, ATTILA_SHADER_OK);
        load(m, 0, read, G_N_ELEMENTS(read));
        g_assert_cmpint(run(m, 4), ==, ATTILA_SHADER_OK);
        for (l = 0; l < 4; l++) {
            ASSERT_VEC(m->t[l].temp[2], 0.25, 0.25, 0.25, 0.25, 0);
        }
    }
    machine_free(m);
}

/* ---- flow: NOP, END, JMP, bad programs ------------------------------------ */

static void test_flow(void)
{
    Machine *m = machine_new();
    Ins p[] = {
        { .opc = ATTILA_SH_NOP },
        /* p0 = (t0.x == t0.x); jump over the next instruction if p0 */
        { .opc = ATTILA_SH_SETPEQ, .s = { { ATTILA_BANK_TEMP, 0, 0 },
                                         { ATTILA_BANK_TEMP, 0, 0 } }, .rreg = 0 },
        { .opc = ATTILA_SH_JMP, .s = { { 0, 0 } }, .has_imm = true, .imm = 2 },
        { .opc = ATTILA_SH_MOV, .s = { C(0) }, .rbank = ATTILA_BANK_TEMP,
          .rreg = 1, .mask = 0xF },
        { .opc = ATTILA_SH_MOV, .s = { C(1) }, .rbank = ATTILA_BANK_TEMP,
          .rreg = 2, .mask = 0xF },
        /* END ends the program before the last instruction */
        { .opc = ATTILA_SH_END },
        { .opc = ATTILA_SH_MOV, .s = { C(0) }, .rbank = ATTILA_BANK_TEMP,
          .rreg = 3, .mask = 0xF },
    };

    set4(&m->consts[0], 5, 5, 5, 5);
    set4(&m->consts[1], 6, 6, 6, 6);
    load(m, 0, p, G_N_ELEMENTS(p));
    g_assert_cmpint(run(m, 1), ==, ATTILA_SHADER_OK);
    ASSERT_VEC(m->t[0].temp[1], 0, 0, 0, 0, 0);     /* jumped over */
    ASSERT_VEC(m->t[0].temp[2], 6, 6, 6, 6, 0);
    ASSERT_VEC(m->t[0].temp[3], 0, 0, 0, 0, 0);     /* after END */
    machine_free(m);

    /* a JMP is taken only when its condition holds on every lane */
    m = machine_new();
    {
        Ins q[] = {
            { .opc = ATTILA_SH_SETPGT, .s = { { ATTILA_BANK_TEMP, 0, 0 },
                                             { ATTILA_BANK_PARAM, 0, 0 } }, .rreg = 0 },
            { .opc = ATTILA_SH_JMP, .s = { { 0, 0 } }, .has_imm = true, .imm = 2 },
            { .opc = ATTILA_SH_MOV, .s = { C(1) }, .rbank = ATTILA_BANK_TEMP,
              .rreg = 1, .mask = 0xF },
            { .opc = ATTILA_SH_NOP },
        };
        int l;
        for (l = 0; l < 4; l++) {
            set4(&m->t[l].temp[0], l == 2 ? -1 : 1, 0, 0, 0);
        }
        set4(&m->consts[1], 6, 6, 6, 6);
        load(m, 0, q, G_N_ELEMENTS(q));
        g_assert_cmpint(run(m, 4), ==, ATTILA_SHADER_OK);
        for (l = 0; l < 4; l++) {
            ASSERT_VEC(m->t[l].temp[1], 6, 6, 6, 6, 0);
        }
    }
    machine_free(m);
}

static void test_bad_programs(void)
{
    Machine *m = machine_new();
    Ins loop[1] = { { .opc = ATTILA_SH_JMP, .s = { { 0, 0, .neg = true, .abs = true } },
                      .has_imm = true, .imm = 0 } };
    Ins ok[1] = { { .opc = ATTILA_SH_NOP } };

    /* "jmp always" to itself: stopped after ATTILA_SH_MAX_STEPS */
    load(m, 0, loop, 1);
    m->imem[0].end = false;
    g_assert_cmpint(run(m, 1), ==, ATTILA_SHADER_TOO_LONG);

    /* an invalid instruction (never decoded: valid == false) */
    memset(m->imem, 0, sizeof(AttilaShInstr) * 2);
    g_assert_cmpint(run(m, 1), ==, ATTILA_SHADER_BAD_INSTR);
    g_assert_cmpuint(m->bad_pc, ==, 0);

    /* running off the end of instruction memory */
    load(m, ATTILA_INSTRUCTION_MEMORY - 1, ok, 1);
    m->imem[ATTILA_INSTRUCTION_MEMORY - 1].end = false;
    g_assert_cmpint(attila_shader_run(&m->env, ATTILA_INSTRUCTION_MEMORY - 1,
                                      m->t, 1, &m->bad_pc), ==,
                    ATTILA_SHADER_BAD_PC);
    g_assert_cmpuint(m->bad_pc, ==, ATTILA_INSTRUCTION_MEMORY);
    machine_free(m);
}

/*
 * The operations prepare_lanes gives to run_lanes (shader.c) against the
 * per-lane interpreter (g3d_general_path): random straight-line programs
 * of those operations mixed with others (scalar, predicate, kill, address,
 * texture, derivative), random operand banks, swizzles, modifiers, masks,
 * saturation, predication and relative addressing, over random registers
 * that include NaN, infinities, -0 and denormals. Every thread's bytes,
 * the result, the step count and the texture requests must be the same.
 * Checked to fail when run_lanes broadcasts the wrong component; and
 * (branch attila12) when TEX's lane write (exec_texture_lanes) ignores
 * the predicate, the write mask or saturation, or reads lane 1's
 * coordinate for lane 0 of a vertex (one-lane) run.
 * Programs run at 1-4 lanes, mostly with env.by_component (run_soa: the
 * registers by component, as the vertex batches run), a quarter of them
 * of run_lanes' operations only (long runs by component), those also at
 * 5-ATTILA_SH_BATCH lanes; every thread is compared; checked to fail
 * when run_soa's DP4 adds the last three products first, when RSQ leaves
 * out the absolute value (its square root in float instead of double is
 * no perturbation: a float's square root rounded through double is the
 * float one), when a predicated write keeps the new value in a lane whose
 * predicate fails, when a partial write mask does not load the register
 * first, when the registers are not written back before an instruction
 * run_soa cannot run, when lanes past the eighth are not written back,
 * and when saturation takes 0 >= v (-0 to +0).
 * Each program runs soa_block's instances in turn (branch attila22): the
 * CPU's best level, AVX2 (g3d_simd_max), SSE2 (g3d_no_avx); checked to
 * fail when one instance flips a bit of a lane after its run, when the
 * second group of eight lanes reads the first's operand or predicate,
 * when DP4 runs as DP3, and (outputs_only, a third of the by-component
 * programs, only the outputs compared) when an output is not moved back
 * or the outputs alone are moved back before the program's end.
 * Half the 4-lane programs run as fragment quads (not by component:
 * quad_block_avx2 where the level has AVX2, branch attila26); checked to
 * fail when every operand is read as .xyzw, lane 1's predicate is lane
 * 0's, DPH adds the product's w, MAD leaves out its third operand,
 * saturation or the write mask is left out, lanes 2-3 read lanes 0-1's
 * registers, or SGE runs as SLT.
 */
static float random_float(GRand *rnd)
{
    static const uint32_t special[] = {
        0x7fc00000u, 0xffc00001u, 0x7f800000u, 0xff800000u, 0x80000000u,
        0x00000000u, 0x00000001u, 0x807fffffu, 0x3f800000u, 0xbf800000u,
        0x7f7fffffu,
    };
    union { uint32_t u; float f; } v;

    switch (g_rand_int_range(rnd, 0, 8)) {
    case 0:
        v.u = special[g_rand_int_range(rnd, 0, G_N_ELEMENTS(special))];
        return v.f;
    case 1:
        v.u = g_rand_int(rnd);
        return v.f;
    case 2:
        return (float)g_rand_int_range(rnd, -4, 5);
    default:
        return (float)g_rand_double_range(rnd, -2.0, 2.0);
    }
}

static void random_source(GRand *rnd, AttilaShSrc *src)
{
    static const uint8_t banks[] = {
        ATTILA_BANK_IN, ATTILA_BANK_OUT, ATTILA_BANK_PARAM, ATTILA_BANK_TEMP,
        ATTILA_BANK_TEMP, ATTILA_BANK_ADDR, ATTILA_BANK_PARAM2,
    };

    src->bank = banks[g_rand_int_range(rnd, 0, G_N_ELEMENTS(banks))];
    src->reg = g_rand_int_range(rnd, 0, src->bank == ATTILA_BANK_ADDR ? 2 :
                                src->bank == ATTILA_BANK_TEMP ? 8 : 4);
    /* a third of the others broadcast one component (run_lanes shuffles
     * those) */
    src->swz = !g_rand_int_range(rnd, 0, 4) ? XYZW :
               g_rand_int_range(rnd, 0, 3) ? g_rand_int_range(rnd, 0, 256) :
               0x55 * g_rand_int_range(rnd, 0, 4);
    src->neg = g_rand_int_range(rnd, 0, 4) == 0;
    src->abs = g_rand_int_range(rnd, 0, 4) == 0;
}

static void random_instruction(GRand *rnd, Ins *in, bool lanes_only)
{
    static const uint8_t ops[] = {
        /* run_lanes' operations, twice as likely */
        ATTILA_SH_ADD, ATTILA_SH_MUL, ATTILA_SH_MAD, ATTILA_SH_MOV,
        ATTILA_SH_DP3, ATTILA_SH_DP4, ATTILA_SH_DPH, ATTILA_SH_MAX,
        ATTILA_SH_MIN, ATTILA_SH_SLT, ATTILA_SH_SGE, ATTILA_SH_CMP,
        ATTILA_SH_ADD, ATTILA_SH_MUL, ATTILA_SH_MAD, ATTILA_SH_MOV,
        ATTILA_SH_DP3, ATTILA_SH_DP4, ATTILA_SH_DPH, ATTILA_SH_MAX,
        ATTILA_SH_MIN, ATTILA_SH_SLT, ATTILA_SH_SGE, ATTILA_SH_CMP,
        ATTILA_SH_DST, ATTILA_SH_LIT, ATTILA_SH_RCP, ATTILA_SH_RSQ,
        ATTILA_SH_EX2, ATTILA_SH_LG2, ATTILA_SH_SIN, ATTILA_SH_COS,
        /* the per-lane interpreter's */
        ATTILA_SH_FRC, ATTILA_SH_SETPGT, ATTILA_SH_ARL,
        ATTILA_SH_KIL, ATTILA_SH_CMPKIL, ATTILA_SH_TEX, ATTILA_SH_DDX,
        ATTILA_SH_ADDI, ATTILA_SH_NOP,
    };
    int k;

    memset(in, 0, sizeof(*in));
    /* the first 32 are run_lanes' */
    in->opc = ops[g_rand_int_range(rnd, 0, lanes_only ? 32 :
                                   G_N_ELEMENTS(ops))];
    for (k = 0; k < 3; k++) {
        random_source(rnd, &in->s[k]);
    }
    if (in->opc == ATTILA_SH_TEX) {
        in->s[1].reg = g_rand_int_range(rnd, 0, 4);     /* texture unit */
    }
    if (in->opc == ATTILA_SH_ADDI) {
        /*
         * An integer operation reads the bits of a NaN: which operand's
         * payload a float operation passed on is not fixed by C (see
         * attila_same_words), so a NaN in a float register may differ
         * between the paths and an integer sum of it would show that.
         * Integer operands from the address registers, which hold integers.
         */
        for (k = 0; k < 2; k++) {
            in->s[k].bank = ATTILA_BANK_ADDR;
            in->s[k].reg = g_rand_int_range(rnd, 0, 2);
        }
    }
    if (in->opc == ATTILA_SH_ADD && g_rand_int_range(rnd, 0, 8) == 0) {
        in->s[1].bank = ATTILA_BANK_IMM;
        in->has_imm = true;
        in->imm = g_rand_int(rnd);
    }
    in->rbank = in->opc == ATTILA_SH_ARL ? ATTILA_BANK_ADDR :
                g_rand_int_range(rnd, 0, 3) ? ATTILA_BANK_TEMP : ATTILA_BANK_OUT;
    in->rreg = g_rand_int_range(rnd, 0, in->rbank == ATTILA_BANK_ADDR ? 2 : 8);
    if (in->opc == ATTILA_SH_SETPGT) {
        in->rreg = g_rand_int_range(rnd, 0, 4);
    }
    in->mask = g_rand_int_range(rnd, 0, 3) ? 15 : g_rand_int_range(rnd, 0, 16);
    in->sat = g_rand_int_range(rnd, 0, 4) == 0;
    in->pred = g_rand_int_range(rnd, 0, 5) == 0;
    in->inv = g_rand_boolean(rnd);
    in->preg = g_rand_int_range(rnd, 0, 4);
    in->rel = g_rand_int_range(rnd, 0, 6) == 0;
    in->areg = g_rand_int_range(rnd, 0, 2);
    in->acomp = g_rand_int_range(rnd, 0, 4);
    in->aoff = g_rand_int_range(rnd, -4, 5);
    if (in->opc == ATTILA_SH_TEX && g_rand_boolean(rnd)) {
        /* half the TEX a thread register read and written whole, without
         * predicate or saturation (tex_quad: the registers by pointers),
         * but for one of those conditions left out now and then */
        int keep = g_rand_int_range(rnd, 0, 6);
        if (in->s[0].bank == ATTILA_BANK_PARAM ||
            in->s[0].bank == ATTILA_BANK_PARAM2) {
            in->s[0].bank = ATTILA_BANK_TEMP;
        }
        if (keep != 0) {
            in->s[0].swz = XYZW;
            in->s[0].neg = in->s[0].abs = false;
        }
        in->mask = keep == 1 ? in->mask : 15;
        in->sat = keep == 2 ? in->sat : false;
        in->pred = keep == 3 ? in->pred : false;
    }
}

static void test_lanes_vs_general(void)
{
    GRand *rnd = g_rand_new_with_seed(0xA771A);
    Machine *fast = machine_new(), *gen = machine_new();
    AttilaSoaProg *batches = g_new0(AttilaSoaProg, 1);
    unsigned fast_ops = 0, ops = 0, tex_lanes = 0, quads = 0;
    unsigned listed = 0, kept = 0, list_ended = 0, list_cut = 0;
    int prog, n = 0;
    /* a long program: more instructions than the list holds */
    enum { LONG = ATTILA_SOA_OPS + 88 };
    Ins *code = g_new0(Ins, LONG);

    /* TEX's quads by the registers themselves where the decoding allows */
    fast->env.tex_quad = fake_tex_quad;
    fake_quads = 0;

    for (prog = 0; prog < 3000; prog++) {
        int i, l, lanes, level;
        AttilaShaderThread gen0[ATTILA_SH_BATCH];
        AttilaShaderResult rf, rg;
        uint64_t sf = 0, sg = 0;
        /*
         * A fifth of the by-component programs keep the last one's code
         * with new constants (the batches' list kept, its constant slots
         * filled again); one in 150 is longer than the list: of many
         * constants (the slots run out first) or of one (the list's
         * operations do)
         */
#define AGAIN(p) ((p) % 4 == 3 && (p) % 5 == 4)
        bool again = AGAIN(prog);
        bool long_prog = prog % 150 == 7 || prog % 150 == 11;
        /* the batches' programs (no texture read or derivative), and the
         * one before a program that keeps its code */
        bool lanes_only = prog % 4 == 3 || long_prog || AGAIN(prog + 1);

        if (!again) {
            n = long_prog ? LONG : g_rand_int_range(rnd, 1, 25);
        }
        for (i = 0; i < n && !again; i++) {
            uint8_t raw[16];
            AttilaShInstr probe;

            g3d_general_path = false;
            do {
                random_instruction(rnd, &code[i], lanes_only);
                if (prog % 150 == 11) {
                    for (l = 0; l < 3; l++) {
                        if (code[i].s[l].bank == ATTILA_BANK_PARAM ||
                            code[i].s[l].bank == ATTILA_BANK_PARAM2) {
                            code[i].s[l] = C(0);
                        }
                    }
                }
                code[i].end = i == n - 1;
                encode(&code[i], raw);
            } while (!attila_shader_decode(raw, &probe) ||
                     (long_prog && !probe.fast));
            g3d_general_path = false;
            g_assert_true(attila_shader_decode(raw, &fast->imem[i]));
            g3d_general_path = true;
            g_assert_true(attila_shader_decode(raw, &gen->imem[i]));
            g_assert_false(gen->imem[i].fast);
            g_assert_false(gen->imem[i].tex_lanes);
            fast_ops += fast->imem[i].fast;
            tex_lanes += fast->imem[i].tex_lanes;
            ops++;
        }
        g3d_general_path = false;
        for (i = 0; i < ATTILA_SH_CONSTS; i++) {
            for (l = 0; l < 4; l++) {
                fast->consts[i].f[l] = random_float(rnd);
            }
        }
        memcpy(gen->consts, fast->consts, sizeof(fast->consts));
        for (l = 0; l < ATTILA_SH_BATCH; l++) {
            AttilaShaderThread *t = &fast->t[l];
            attila_shader_reset_thread(t);
            for (i = 0; i < 4 * ATTILA_SH_IO; i++) {
                t->in[i / 4].f[i % 4] = random_float(rnd);
                t->out[i / 4].f[i % 4] = random_float(rnd);
            }
            for (i = 0; i < 4 * 8; i++) {
                t->temp[i / 4].f[i % 4] = random_float(rnd);
            }
            for (i = 0; i < 8; i++) {
                t->addr[i / 4].i[i % 4] = g_rand_int_range(rnd, -3, 6);
            }
            for (i = 0; i < 4; i++) {
                t->pred[i] = g_rand_boolean(rnd);
            }
        }
        memcpy(gen->t, fast->t, sizeof(fast->t));
        memcpy(gen0, fast->t, sizeof(fast->t));
        memset(&gen->tex, 0, sizeof(gen->tex));
        gen->env.steps = &sg;
        /*
         * 1-4 lanes, and up to a whole vertex batch for the programs
         * without texture reads or derivatives (the streamer's batches);
         * by component (the vertex batches' way) or by lane
         */
        lanes = prog % 5 == 0 ? 1 : prog % 5 == 1 ? 2 : prog % 5 == 2 ? 3 : 4;
        if ((prog % 4 == 3 && prog % 5 >= 3) || long_prog) {
            lanes = g_rand_int_range(rnd, 5, ATTILA_SH_BATCH + 1);
        }
        /* a fragment quad (4 lanes, not by component) half the time at
         * 4 lanes: quad_block_avx2 where the level has AVX2 */
        fast->env.by_component = long_prog ||
                                 (prog % 7 != 0 &&
                                  !(lanes == 4 && prog % 2 == 0));
        quads += lanes == 4 && !fast->env.by_component;
        /* a third of those as the vertex batches run: only the outputs
         * compared (the temporaries of a block that ends the program are
         * not moved back) */
        fast->env.outputs_only = fast->env.by_component && prog % 3 == 0;
        /*
         * two thirds of them with the program decoded for the batches
         * (attila_shader_prepare_batches, as a draw does), the rest
         * decoded an instruction at a time (run_soa)
         */
        fast->env.batches = NULL;
        if (fast->env.by_component && (prog % 3 != 1 || long_prog)) {
            attila_shader_prepare_batches(batches, fast->imem, 0,
                                          fast->consts);
            fast->env.batches = batches;
            kept += again && batches->n > 0;
            listed += batches->n > 0;
            list_ended += batches->ended;
            list_cut += long_prog && !batches->ended && batches->n > 0;
            g_assert_true(batches->n <= ATTILA_SOA_OPS);
            g_assert_true(batches->nk <= ATTILA_SOA_KSLOTS);
        }
        rg = run(gen, lanes);
        /* soa_block's instances: the CPU's best level, then AVX2 below it
         * (g3d_simd_max), then SSE2 (g3d_no_avx), each from the same
         * registers */
        for (level = 0; level < 3; level++) {
            memcpy(fast->t, gen0, sizeof(fast->t));
            memset(&fast->tex, 0, sizeof(fast->tex));
            sf = 0;
            fast->env.steps = &sf;
            g3d_simd_max = level == 1 ? G3D_SIMD_AVX2 : G3D_SIMD_AVX512;
            g3d_no_avx = level == 2;
            /* as the rasteriser sets it a batch */
            fast->env.quad_avx2 = g3d_simd_level() >= G3D_SIMD_AVX2;
            rf = run(fast, lanes);
            g3d_simd_max = G3D_SIMD_AVX512;
            g3d_no_avx = false;
            g_assert_cmpint(rf, ==, rg);
            g_assert_cmpuint(sf, ==, sg);
            g_assert_cmpint(fast->tex.calls, ==, gen->tex.calls);
            g_assert_true(attila_same_words(fast->tex.coord, gen->tex.coord,
                                     sizeof(fast->tex.coord)));
            g_assert_cmpint(fast->tex.op, ==, gen->tex.op);
            g_assert_cmpuint(fast->tex.unit, ==, gen->tex.unit);
            g_assert_true(attila_same_words(fast->tex.param, gen->tex.param,
                                     sizeof(fast->tex.param)));
            for (l = 0; l < ATTILA_SH_BATCH; l++) {
                if (fast->env.outputs_only ?
                    !attila_same_words(fast->t[l].out, gen->t[l].out,
                                       sizeof(fast->t[l].out)) :
                    !attila_same_words(&fast->t[l], &gen->t[l],
                                       sizeof(fast->t[l]))) {
                    g_test_message("program %d lane %d differs at level %d",
                                   prog, l, level);
                    g_assert_not_reached();
                }
            }
        }
    }
    /* most instructions took run_lanes, and the test saw the others too */
    g_assert_cmpuint(fast_ops, >, ops / 2);
    g_assert_cmpuint(fast_ops, <, ops * 9 / 10);
    /* and TEX's lane reads and writes (exec_texture_lanes), some of them
     * by the registers (tex_quad) */
    g_assert_cmpuint(tex_lanes, >, 200);
    g_test_message("TEX quads by the registers: %u", fake_quads);
    /* and fragment quads' programs (quad_block_avx2 at AVX2 and up) */
    g_test_message("fragment quads: %u", quads);
    g_assert_cmpuint(quads, >, 300);
    g_assert_cmpuint(fake_quads, >, 20);
    /* the batches' lists: kept for the same code, whole programs, and
     * long ones cut (by the slots or by the operations) */
    g_test_message("batches' lists: %u (%u kept, %u to the end, %u cut)",
                   listed, kept, list_ended, list_cut);
    g_assert_cmpuint(kept, >, 30);
    g_assert_cmpuint(list_ended, >, 200);
    g_assert_cmpuint(list_cut, >=, 30);
    fast->env.steps = gen->env.steps = NULL;
    fast->env.by_component = fast->env.outputs_only = false;
    fast->env.quad_avx2 = false;
    fast->env.batches = NULL;
    machine_free(fast);
    machine_free(gen);
    g_free(batches);
    g_free(code);
    g_rand_free(rnd);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/attila/shader/encoding", test_encoding);
    g_test_add_func("/attila/shader/bad-operands", test_bad_operands);
    g_test_add_func("/attila/shader/arith", test_arith);
    g_test_add_func("/attila/shader/dot", test_dot);
    g_test_add_func("/attila/shader/floor-frac", test_floor_frac);
    g_test_add_func("/attila/shader/lit", test_lit);
    g_test_add_func("/attila/shader/scalar", test_scalar);
    g_test_add_func("/attila/shader/integer", test_integer);
    g_test_add_func("/attila/shader/arl-relative", test_arl_relative);
    g_test_add_func("/attila/shader/modifiers", test_modifiers);
    g_test_add_func("/attila/shader/predicates", test_predicates);
    g_test_add_func("/attila/shader/kill", test_kill);
    g_test_add_func("/attila/shader/samples-depth", test_samples_depth);
    g_test_add_func("/attila/shader/derivatives", test_derivatives);
    g_test_add_func("/attila/shader/texture", test_texture);
    g_test_add_func("/attila/shader/fixed-point", test_fixed_point);
    g_test_add_func("/attila/shader/flow", test_flow);
    g_test_add_func("/attila/shader/bad-programs", test_bad_programs);
    g_test_add_func("/attila/shader/lanes-vs-general", test_lanes_vs_general);
    return g_test_run();
}
