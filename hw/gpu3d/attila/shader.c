/*
 * The ATTILA unified shader: decoder and interpreter for the 16-byte
 * instruction set of attila-sim ShaderInstruction.cpp, with the arithmetic of
 * the simulator's ShaderEmulator/GPUMath (attila-sim ShaderInstruction.cpp,
 * ShaderEmulator.cpp; the [EXT] sources): operands are swizzled, then made
 * absolute, then negated; scalar instructions read the component named by the
 * last swizzle selector; results are saturated, masked and predicated on write.
 *
 * Threads run in lockstep: one for a vertex, four for a fragment quad (so
 * DDX/DDY and texture LOD can look at the neighbours, attila-sim
 * GPUEmulator.cpp).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"

#include <math.h>
#include <stddef.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "common/fpformat.h"
#include "common/g3d-core.h"

/* ---- decoding ------------------------------------------------------------ */

enum { F_RES = 1, F_PRED = 2, F_INT = 4, F_TEX = 8, F_SAMP = 16 };

/* operands read and flags, per opcode; nops 0xff = invalid opcode */
static const struct { uint8_t nops, flags; } optab[ATTILA_SH_OPCODES] = {
    [ATTILA_SH_NOP] = { 0, 0 },
    [ATTILA_SH_ADD] = { 2, F_RES },
    [ATTILA_SH_ADDI] = { 2, F_RES | F_INT },
    [ATTILA_SH_ARL] = { 1, F_RES },
    [ATTILA_SH_ANDP] = { 2, F_RES | F_PRED },
    [0x05] = { 0xff, 0 },                      /* BRA: not in the ISA */
    [0x06] = { 0xff, 0 },                      /* CAL: not in the ISA */
    [ATTILA_SH_COS] = { 1, F_RES },
    [ATTILA_SH_DP3] = { 2, F_RES },
    [ATTILA_SH_DP4] = { 2, F_RES },
    [ATTILA_SH_DPH] = { 2, F_RES },
    [ATTILA_SH_DST] = { 2, F_RES },
    [ATTILA_SH_EX2] = { 1, F_RES },
    [ATTILA_SH_EXP] = { 1, F_RES },
    [ATTILA_SH_FLR] = { 1, F_RES },
    [ATTILA_SH_FRC] = { 1, F_RES },
    [ATTILA_SH_LG2] = { 1, F_RES },
    [ATTILA_SH_LIT] = { 1, F_RES },
    [ATTILA_SH_LOG] = { 1, F_RES },
    [ATTILA_SH_MAD] = { 3, F_RES },
    [ATTILA_SH_MAX] = { 2, F_RES },
    [ATTILA_SH_MIN] = { 2, F_RES },
    [ATTILA_SH_MOV] = { 1, F_RES },
    [ATTILA_SH_MUL] = { 2, F_RES },
    [ATTILA_SH_MULI] = { 2, F_RES | F_INT },
    [ATTILA_SH_RCP] = { 1, F_RES },
    [0x1A] = { 0xff, 0 },                      /* RET: not in the ISA */
    [ATTILA_SH_RSQ] = { 1, F_RES },
    [ATTILA_SH_SETPEQ] = { 2, F_RES | F_PRED },
    [ATTILA_SH_SETPGT] = { 2, F_RES | F_PRED },
    [ATTILA_SH_SGE] = { 2, F_RES },
    [ATTILA_SH_SETPLT] = { 2, F_RES | F_PRED },
    [ATTILA_SH_SIN] = { 1, F_RES },
    [ATTILA_SH_STPEQI] = { 2, F_RES | F_PRED | F_INT },
    [ATTILA_SH_SLT] = { 2, F_RES },
    [ATTILA_SH_STPGTI] = { 2, F_RES | F_PRED | F_INT },
    [ATTILA_SH_STPLTI] = { 2, F_RES | F_PRED | F_INT },
    [ATTILA_SH_TXL] = { 2, F_RES | F_TEX },
    [ATTILA_SH_TEX] = { 2, F_RES | F_TEX },
    [ATTILA_SH_TXB] = { 2, F_RES | F_TEX },
    [ATTILA_SH_TXP] = { 2, F_RES | F_TEX },
    [ATTILA_SH_KIL] = { 1, 0 },
    [ATTILA_SH_KLS] = { 2, F_SAMP },
    [ATTILA_SH_ZXP] = { 1, 0 },
    [ATTILA_SH_ZXS] = { 2, F_SAMP },
    [ATTILA_SH_CMP] = { 3, F_RES },
    [ATTILA_SH_CMPKIL] = { 3, F_RES },
    [ATTILA_SH_CHS] = { 0, 0 },
    [ATTILA_SH_LDA] = { 2, F_RES | F_TEX },
    [ATTILA_SH_FXMUL] = { 2, F_RES },
    [ATTILA_SH_FXMAD] = { 2, F_RES },
    [ATTILA_SH_FXMAD2] = { 3, F_RES },
    [ATTILA_SH_DDX] = { 1, F_RES },
    [ATTILA_SH_DDY] = { 1, F_RES },
    [ATTILA_SH_JMP] = { 1, 0 },
    [ATTILA_SH_END] = { 0, 0 },
};

static inline uint64_t ld64(const uint8_t *p)
{
    uint64_t v = 0;
    int i;

    for (i = 7; i >= 0; i--) {
        v = v << 8 | p[i];
    }
    return v;
}

static inline uint32_t bits(uint64_t v, int lo, int len)
{
    return (uint32_t)((v >> lo) & ((1ull << len) - 1));
}

static bool reg_in_bank(uint8_t bank, uint32_t reg)
{
    switch (bank) {
    case ATTILA_BANK_IN:
    case ATTILA_BANK_OUT:
        return reg < ATTILA_SH_IO;
    case ATTILA_BANK_PARAM:
        return reg < ATTILA_SH_CONSTS;
    case ATTILA_BANK_TEMP:
        return reg < ATTILA_SH_TEMPS;
    case ATTILA_BANK_ADDR:
        return reg < 2;
    default:
        return false;
    }
}

#define NO_OFF 0xffff

/* where a register of a thread bank lives in AttilaShaderThread */
static uint16_t thread_offset(uint8_t bank, uint32_t reg)
{
    switch (bank) {
    case ATTILA_BANK_IN:
        return offsetof(AttilaShaderThread, in) + reg * sizeof(AttilaVec4);
    case ATTILA_BANK_OUT:
        return offsetof(AttilaShaderThread, out) + reg * sizeof(AttilaVec4);
    case ATTILA_BANK_TEMP:
        return offsetof(AttilaShaderThread, temp) + reg * sizeof(AttilaVec4);
    case ATTILA_BANK_ADDR:
        return offsetof(AttilaShaderThread, addr) + reg * sizeof(AttilaVec4);
    default:
        return NO_OFF;
    }
}

/*
 * Decoded once, when the program is loaded: the operands' register
 * addresses and swizzle selectors, and whether run_lanes can execute the
 * instruction (the common float operations, on thread registers and
 * directly addressed constants) for all lanes at once instead of one lane
 * at a time through exec_alu. g3d_general_path (common/g3d-core.h) leaves
 * every instruction to exec_alu, for the tests that compare the two.
 */
static void prepare_lanes(AttilaShInstr *in)
{
    int k, c;

    for (k = 0; k < 3; k++) {
        AttilaShOperand *o = &in->op[k];
        o->off = k < in->nops ? thread_offset(o->bank, o->reg) : NO_OFF;
        for (c = 0; c < 4; c++) {
            o->sel[c] = (o->swz >> (6 - 2 * c)) & 3;
        }
        o->plain = o->swz == ATTILA_SWZ_XYZW && !o->neg && !o->abs;
        o->shape = o->swz == ATTILA_SWZ_XYZW ? 0 :
                   o->swz == 0x00 ? 1 : o->swz == 0x55 ? 2 :
                   o->swz == 0xaa ? 3 : o->swz == 0xff ? 4 : 5;
        /* absolute value and negation are the sign bit's: AND, then XOR */
        o->and_bits = o->abs ? 0x7fffffffu : 0xffffffffu;
        o->xor_bits = o->neg ? 0x80000000u : 0;
    }
    for (c = 0; c < 4; c++) {
        in->wmask[c] = (in->mask & (8 >> c)) ? 0xffffffffu : 0;
    }
    in->res_off = in->has_result ? thread_offset(in->res_bank, in->res_reg)
                                 : NO_OFF;
    in->fast = false;
    /* TEX: its coordinate read and result write as run_lanes's (the
     * texture unit takes the quad in one call either way) */
    in->tex_lanes = in->opcode == ATTILA_SH_TEX && !g3d_general_path &&
                    in->res_off != NO_OFF &&
                    (in->op[0].off != NO_OFF ||
                     (in->op[0].bank == ATTILA_BANK_PARAM && !in->relmode));
    in->tex_quad = in->tex_lanes && in->op[0].off != NO_OFF &&
                   in->op[0].plain && !in->predicated && in->mask == 15 &&
                   !in->sat;
    switch (in->opcode) {
    case ATTILA_SH_ADD: case ATTILA_SH_MUL: case ATTILA_SH_MAD:
    case ATTILA_SH_MOV: case ATTILA_SH_DP3: case ATTILA_SH_DP4:
    case ATTILA_SH_DPH: case ATTILA_SH_MAX: case ATTILA_SH_MIN:
    case ATTILA_SH_SLT: case ATTILA_SH_SGE: case ATTILA_SH_CMP:
    case ATTILA_SH_DST: case ATTILA_SH_LIT: case ATTILA_SH_RCP:
    case ATTILA_SH_RSQ: case ATTILA_SH_EX2: case ATTILA_SH_LG2:
    case ATTILA_SH_SIN: case ATTILA_SH_COS:
        break;
    default:
        return;
    }
    if (g3d_general_path || in->res_off == NO_OFF) {
        return;
    }
    for (k = 0; k < in->nops; k++) {
        if (in->op[k].off == NO_OFF &&
            (in->op[k].bank != ATTILA_BANK_PARAM || in->relmode)) {
            return;
        }
    }
    in->fast = true;
}

bool attila_shader_decode(const uint8_t code[16], AttilaShInstr *in)
{
    uint64_t lo = ld64(code), hi = ld64(code + 8);
    uint32_t opc = bits(lo, 0, 8), flags;
    int k;

    memset(in, 0, sizeof(*in));
    in->opcode = opc;
    if (opc >= ATTILA_SH_OPCODES || optab[opc].nops == 0xff) {
        return false;
    }
    flags = optab[opc].flags;
    in->nops = optab[opc].nops;
    in->has_result = flags & F_RES;
    in->end = bits(lo, 8, 1);
    in->predicated = bits(lo, 10, 1);
    in->invert_pred = bits(lo, 11, 1);
    in->pred_reg = bits(lo, 12, 5);
    in->sat = bits(lo, 35, 1);
    in->mask = bits(lo, 36, 4);
    in->relmode = bits(lo, 40, 1);
    in->rel_reg = bits(lo, 41, 2);
    in->rel_comp = bits(lo, 43, 2);
    in->rel_off = (int16_t)(bits(lo, 45, 9) << 7) >> 7;     /* 9-bit signed */
    in->imm = bits(hi, 32, 32);

    for (k = 0; k < in->nops; k++) {
        static const int bank_at[3] = { 17, 22, 27 };
        static const int reg_at[3] = { 0, 24, 40 };
        AttilaShOperand *o = &in->op[k];
        uint32_t bank = bits(lo, bank_at[k], 3);

        o->reg = bits(hi, reg_at[k], 8);
        o->swz = bits(hi, reg_at[k] + 8, 8);
        o->neg = bits(lo, bank_at[k] + 3, 1);
        o->abs = bits(lo, bank_at[k] + 4, 1);
        if (k == 1 && (flags & (F_TEX | F_SAMP))) {
            /* implicit bank: texture unit / sample number (attila-sim
             * ShaderInstruction.cpp) */
            o->bank = 0xff;
            if (o->reg >= ((flags & F_TEX) ? ATTILA_MAX_TEXTURES : 8)) {
                return false;
            }
            continue;
        }
        if (bank == ATTILA_BANK_PARAM2) {
            bank = ATTILA_BANK_PARAM;
            o->reg += 256;
        }
        o->bank = bank;
        if ((opc == ATTILA_SH_ANDP || opc == ATTILA_SH_JMP) &&
            bank != ATTILA_BANK_PARAM) {
            /* a predicate operand; abs = "use the negate bit as value" */
            if (o->reg >= ATTILA_SH_PREDS) {
                return false;
            }
            o->bank = 0xfe;
            continue;
        }
        if (k == 1 && bank == ATTILA_BANK_IMM && in->nops == 2) {
            in->imm = bits(hi, 32, 32);
            o->swz = ATTILA_SWZ_XYZW;
            continue;
        }
        if (!reg_in_bank(bank, o->reg)) {
            return false;
        }
    }
    if (opc == ATTILA_SH_JMP) {
        in->op[0].swz = bits(hi, 8, 8);
        in->imm = bits(hi, 32, 32);
    }
    if (in->has_result) {
        in->res_reg = bits(hi, 16, 8);
        if (flags & F_PRED) {
            in->res_bank = 0xfe;
            in->mask = 8;
            if (in->res_reg >= ATTILA_SH_PREDS) {
                return false;
            }
        } else {
            in->res_bank = bits(lo, 32, 3);
            if (opc == ATTILA_SH_ARL) {
                if (in->res_bank != ATTILA_BANK_ADDR || in->res_reg >= 2) {
                    return false;
                }
            } else if ((in->res_bank != ATTILA_BANK_OUT &&
                        in->res_bank != ATTILA_BANK_TEMP &&
                        in->res_bank != ATTILA_BANK_ADDR) ||
                       !reg_in_bank(in->res_bank, in->res_reg)) {
                return false;
            }
        }
    }
    if (in->predicated && in->pred_reg >= ATTILA_SH_PREDS) {
        return false;
    }
    if (in->relmode && in->rel_reg >= 2) {
        /* two address registers (attila-sim ShaderEmulator.cpp) */
        return false;
    }
    in->valid = true;
    prepare_lanes(in);
    return true;
}

/* ---- arithmetic helpers (GPUMath) ---------------------------------------- */

/* GPU_CLAMP: a NaN fails both tests and becomes the upper bound */
static inline float clampf(float v, float lo, float hi)
{
    return (lo <= v && v <= hi) ? v : (v < lo ? lo : hi);
}

static inline float log2d(float x)
{
    return (float)(log((double)x) / log(2.0));
}

/* ---- operand access ------------------------------------------------------- */

typedef struct Exec {
    const AttilaShaderEnv *env;
    AttilaShaderThread *t;
    int lanes;
} Exec;

static const AttilaVec4 zero4;

/* the raw register an operand names, for lane l */
static const AttilaVec4 *operand_reg(const Exec *x, const AttilaShInstr *in,
                                     int k, int l)
{
    const AttilaShOperand *o = &in->op[k];
    AttilaShaderThread *t = &x->t[l];

    switch (o->bank) {
    case ATTILA_BANK_IN:
        return &t->in[o->reg];
    case ATTILA_BANK_OUT:
        return &t->out[o->reg];
    case ATTILA_BANK_TEMP:
        return &t->temp[o->reg];
    case ATTILA_BANK_ADDR:
        return &t->addr[o->reg];
    case ATTILA_BANK_PARAM:
        if (in->relmode) {
            /* c[A.comp + offset + reg] (attila-sim ShaderInstruction.cpp),
             * within this target */
            int64_t i = (int64_t)t->addr[in->rel_reg].i[in->rel_comp] +
                        in->rel_off + o->reg;
            if (i < 0 || i >= ATTILA_SH_CONSTS) {
                return &zero4;
            }
            return &x->env->consts[i];
        }
        return &x->env->consts[o->reg];
    default:
        return &zero4;
    }
}

/* the register an operand reads, or the instruction's immediate in *imm */
static const AttilaVec4 *operand_src(const Exec *x, const AttilaShInstr *in,
                                     int k, int l, AttilaVec4 *imm)
{
    if (k == 1 && in->op[k].bank == ATTILA_BANK_IMM) {
        imm->u[0] = imm->u[1] = imm->u[2] = imm->u[3] = in->imm;
        return imm;
    }
    return operand_reg(x, in, k, l);
}

static void read_vec(const Exec *x, const AttilaShInstr *in, int k, int l,
                     float out[4])
{
    const AttilaShOperand *o = &in->op[k];
    AttilaVec4 imm;
    const AttilaVec4 *r = operand_src(x, in, k, l, &imm);
    int c;

    for (c = 0; c < 4; c++) {
        float v = r->f[(o->swz >> (6 - 2 * c)) & 3];
        v = o->abs ? fabsf(v) : v;
        out[c] = o->neg ? -v : v;
    }
}

/* integer operands: the same, with two's complement abs / negate */
static void read_ivec(const Exec *x, const AttilaShInstr *in, int k, int l,
                      int32_t out[4])
{
    const AttilaShOperand *o = &in->op[k];
    AttilaVec4 imm;
    const AttilaVec4 *r = operand_src(x, in, k, l, &imm);
    int c;

    for (c = 0; c < 4; c++) {
        uint32_t v = r->u[(o->swz >> (6 - 2 * c)) & 3];
        v = (o->abs && (int32_t)v < 0) ? 0u - v : v;
        out[c] = (int32_t)(o->neg ? 0u - v : v);
    }
}

/* scalar operand: the component named by the last selector (swz & 3) */
static float read_scalar(const Exec *x, const AttilaShInstr *in, int k, int l)
{
    float v[4];
    const AttilaShOperand *o = &in->op[k];
    AttilaShOperand raw = *o;
    AttilaShInstr tmp = *in;

    raw.swz = (o->swz & 3) * 0x55;      /* replicate the component */
    tmp.op[k] = raw;
    read_vec(x, &tmp, k, l, v);
    return v[0];
}

static int32_t read_iscalar(const Exec *x, const AttilaShInstr *in, int k,
                            int l)
{
    int32_t v[4];
    AttilaShInstr tmp = *in;

    tmp.op[k].swz = (in->op[k].swz & 3) * 0x55;
    read_ivec(x, &tmp, k, l, v);
    return v[0];
}

static bool read_bool(const Exec *x, const AttilaShInstr *in, int k, int l)
{
    const AttilaShOperand *o = &in->op[k];
    bool v;

    if (o->abs) {
        return o->neg;          /* an implicit boolean: the negate bit */
    }
    if (o->bank == ATTILA_BANK_PARAM) {
        v = operand_reg(x, in, k, l)->u[o->swz & 3] != 0;
    } else {
        v = x->t[l].pred[o->reg];
    }
    return o->neg ? !v : v;
}

static bool predicate(const Exec *x, const AttilaShInstr *in, int l)
{
    bool p;

    if (!in->predicated) {
        return true;
    }
    p = x->t[l].pred[in->pred_reg];
    return in->invert_pred ? !p : p;
}

static AttilaVec4 *result_reg(const Exec *x, const AttilaShInstr *in, int l)
{
    AttilaShaderThread *t = &x->t[l];

    switch (in->res_bank) {
    case ATTILA_BANK_OUT:
        return &t->out[in->res_reg];
    case ATTILA_BANK_ADDR:
        return &t->addr[in->res_reg];
    default:
        return &t->temp[in->res_reg];
    }
}

/* predicated, masked write; floats saturate when the instruction says so */
static void write_result(const Exec *x, const AttilaShInstr *in, int l,
                         const AttilaVec4 *v, bool is_float)
{
    AttilaVec4 *r;
    int c;

    if (!predicate(x, in, l)) {
        return;
    }
    r = result_reg(x, in, l);
    for (c = 0; c < 4; c++) {
        if (in->mask & (8 >> c)) {
            if (is_float && in->sat) {
                r->f[c] = clampf(v->f[c], 0.0f, 1.0f);
            } else {
                r->u[c] = v->u[c];
            }
        }
    }
}

static void write_vec(const Exec *x, const AttilaShInstr *in, int l,
                      const float v[4])
{
    AttilaVec4 t;

    memcpy(t.f, v, sizeof(t.f));
    write_result(x, in, l, &t, true);
}

static void write_ivec(const Exec *x, const AttilaShInstr *in, int l,
                       const int32_t v[4])
{
    AttilaVec4 t;

    memcpy(t.i, v, sizeof(t.i));
    write_result(x, in, l, &t, false);
}

static void write_pred(const Exec *x, const AttilaShInstr *in, int l, bool v)
{
    if (!predicate(x, in, l)) {
        return;
    }
    /* the saturate bit negates a predicate result */
    x->t[l].pred[in->res_reg] = in->sat ? !v : v;
}

/* ---- fixed point (FXMUL/FXMAD/FXMAD2, the triangle-setup-on-shader ops) -- */

/*
 * Operands become 16.8 fixed point (SubPixelPrecisionBits = 8 in the
 * corpus configuration), products are exact in 32.16; the accumulator keeps
 * that precision. Values are held in doubles, which represent them exactly.
 */
#define FXP_FRAC 8

static double to_fxp(float v)
{
    double s = ldexp(1.0, FXP_FRAC), q = floor((double)v * s) / s;
    double lim = ldexp(1.0, 15);

    return q < -lim ? -lim : q >= lim ? lim - 1.0 / s : q;
}

/* ---- execution ------------------------------------------------------------ */

/* the scalar operations of one operand (GPUMath) */
static inline float scalar_op(uint8_t opcode, float s)
{
    switch (opcode) {
    case ATTILA_SH_RCP: return 1.0f / s;
    case ATTILA_SH_RSQ: return (float)sqrt((double)(1.0f / fabsf(s)));
    case ATTILA_SH_EX2: return (float)pow(2.0, (double)s);
    case ATTILA_SH_LG2: return log2d(s);
    case ATTILA_SH_SIN: return sinf(s);
    default:            return cosf(s);
    }
}

/* DST: (1, a.y * b.y, a.z, b.w) */
static inline void dst_op(const float a[4], const float b[4], float r[4])
{
    r[0] = 1.0f;
    r[1] = a[1] * b[1];
    r[2] = a[2];
    r[3] = b[3];
}

/*
 * LIT's power (float)pow(y, w). Not under g3d_general_path, for w a whole
 * number from 0 to 128 (the specular exponent, a constant: spaceship's
 * 120, 8lights' 10) it is found without pow: y^0 is 1 for every y (C99
 * F.9.4.4, NaN too); for y = +-0 the products give pow's signed zero; for
 * y from 2^-7 to 2^7 no product of the squarings below under- or
 * overflows, and each y^k carries a relative error below (k - 1) 2^-53
 * (y^i y^j rounded adds one 2^-53 to i - 1 and j - 1 of its factors), so
 * y^w is within 2^-46 of r relative, and pow's double within 2^-52 (0.52
 * units in the last place, glibc e_pow.c). Where r minus and plus r 2^-44
 * round to the same float, every value between them does (rounding is
 * monotone), pow's among them: that float is pow's. Elsewhere, pow.
 */
static inline float lit_power(float y, float w)
{
    uint32_t n = (uint32_t)(w >= 0.0f && w <= 128.0f ? w : 0.5f);
    double b = y, r = 1.0, d;

    if (g3d_general_path || (float)n != w) {
        return (float)pow((double)y, (double)w);
    }
    if (n == 0) {
        return 1.0f;
    }
    if (!(y == 0.0f || (y >= 0x1p-7f && y <= 0x1p7f))) {
        return (float)pow((double)y, (double)w);
    }
    for (;;) {
        if (n & 1) {
            r *= b;
        }
        n >>= 1;
        if (n == 0) {
            break;
        }
        b *= b;
    }
    d = r * 0x1p-44;
    if (y == 0.0f || (float)(r - d) == (float)(r + d)) {
        return (float)r;
    }
    return (float)pow((double)y, (double)w);
}

float attila_shader_lit_power(float y, float w)
{
    return lit_power(y, w);
}

/* LIT: (1, max(x, 0), x > 0 ? max(y, 0)^clamp(w, -128, 128) : 0, 1) */
static inline void lit_op(const float a[4], float r[4])
{
    float lx = a[0] < 0.0f ? 0.0f : a[0];
    float ly = a[1] < 0.0f ? 0.0f : a[1];
    float lw = clampf(a[3], -128.0f, 128.0f);

    r[0] = 1.0f;
    r[1] = lx;
    r[2] = lx > 0.0f ? lit_power(ly, lw) : 0.0f;
    r[3] = 1.0f;
}

static void exec_alu(const Exec *x, const AttilaShInstr *in, int l,
                     double fxacc[ATTILA_SH_BATCH][4])
{
    float a[4], b[4], c[4], r[4];
    int32_t ia[4], ib[4], ir[4];
    int k;

    switch (in->opcode) {
    case ATTILA_SH_ADD:
    case ATTILA_SH_MUL:
    case ATTILA_SH_MAX:
    case ATTILA_SH_MIN:
    case ATTILA_SH_SLT:
    case ATTILA_SH_SGE:
        read_vec(x, in, 0, l, a);
        read_vec(x, in, 1, l, b);
        for (k = 0; k < 4; k++) {
            switch (in->opcode) {
            case ATTILA_SH_ADD: r[k] = a[k] + b[k]; break;
            case ATTILA_SH_MUL: r[k] = a[k] * b[k]; break;
            case ATTILA_SH_MAX: r[k] = a[k] > b[k] ? a[k] : b[k]; break;
            case ATTILA_SH_MIN: r[k] = a[k] < b[k] ? a[k] : b[k]; break;
            case ATTILA_SH_SLT: r[k] = a[k] < b[k] ? 1.0f : 0.0f; break;
            default:            r[k] = a[k] < b[k] ? 0.0f : 1.0f; break;
            }
        }
        write_vec(x, in, l, r);
        break;
    case ATTILA_SH_DP3:
        read_vec(x, in, 0, l, a);
        read_vec(x, in, 1, l, b);
        r[0] = r[1] = r[2] = r[3] = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        write_vec(x, in, l, r);
        break;
    case ATTILA_SH_DP4:
        read_vec(x, in, 0, l, a);
        read_vec(x, in, 1, l, b);
        r[0] = r[1] = r[2] = r[3] =
            a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
        write_vec(x, in, l, r);
        break;
    case ATTILA_SH_DPH:
        read_vec(x, in, 0, l, a);
        read_vec(x, in, 1, l, b);
        r[0] = r[1] = r[2] = r[3] =
            a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + b[3];
        write_vec(x, in, l, r);
        break;
    case ATTILA_SH_DST:
        read_vec(x, in, 0, l, a);
        read_vec(x, in, 1, l, b);
        dst_op(a, b, r);
        write_vec(x, in, l, r);
        break;
    case ATTILA_SH_MAD:
    case ATTILA_SH_CMP:
    case ATTILA_SH_CMPKIL:
        read_vec(x, in, 0, l, a);
        read_vec(x, in, 1, l, b);
        read_vec(x, in, 2, l, c);
        for (k = 0; k < 4; k++) {
            r[k] = in->opcode == ATTILA_SH_MAD ? a[k] * b[k] + c[k] :
                   (a[k] < 0.0f ? b[k] : c[k]);
        }
        write_vec(x, in, l, r);
        if (in->opcode == ATTILA_SH_CMPKIL) {
            for (k = 0; k < 4; k++) {
                if ((in->mask & (8 >> k)) && r[k] < 0.0f) {
                    x->t[l].kill = true;
                }
            }
        }
        break;
    case ATTILA_SH_MOV:
        read_vec(x, in, 0, l, a);
        write_vec(x, in, l, a);
        break;
    case ATTILA_SH_FRC:
    case ATTILA_SH_FLR:
        read_vec(x, in, 0, l, a);
        for (k = 0; k < 4; k++) {
            float f = (float)floor((double)a[k]);
            r[k] = in->opcode == ATTILA_SH_FRC ? a[k] - f : f;
        }
        write_vec(x, in, l, r);
        break;
    case ATTILA_SH_LIT:
        read_vec(x, in, 0, l, a);
        lit_op(a, r);
        write_vec(x, in, l, r);
        break;
    case ATTILA_SH_RCP:
    case ATTILA_SH_RSQ:
    case ATTILA_SH_EX2:
    case ATTILA_SH_LG2:
    case ATTILA_SH_SIN:
    case ATTILA_SH_COS:
        r[0] = r[1] = r[2] = r[3] = scalar_op(in->opcode,
                                              read_scalar(x, in, 0, l));
        write_vec(x, in, l, r);
        break;
    case ATTILA_SH_EXP: {
        float s = read_scalar(x, in, 0, l), f = (float)floor((double)s);
        r[0] = (float)pow(2.0, (double)f);
        r[1] = s - f;
        r[2] = (float)pow(2.0, (double)s);
        r[3] = 1.0f;
        write_vec(x, in, l, r);
        break;
    }
    case ATTILA_SH_LOG: {
        float s = read_scalar(x, in, 0, l);
        double e = floor(log((double)fabsf(s)) / log(2.0));
        r[0] = (float)e;
        r[1] = s / (float)pow(2.0, floor(log((double)s) / log(2.0)));
        r[2] = log2d(s);
        r[3] = 1.0f;
        write_vec(x, in, l, r);
        break;
    }
    case ATTILA_SH_ARL:
        if (predicate(x, in, l)) {
            /* all four components, no write mask (GPUMath::ARL) */
            read_vec(x, in, 0, l, a);
            for (k = 0; k < 4; k++) {
                double f = floor((double)a[k]);
                x->t[l].addr[in->res_reg].i[k] =
                    f >= 2147483647.0 ? INT32_MAX :
                    f <= -2147483648.0 ? INT32_MIN : (int32_t)f;
            }
        }
        break;
    case ATTILA_SH_ADDI:
    case ATTILA_SH_MULI:
        read_ivec(x, in, 0, l, ia);
        read_ivec(x, in, 1, l, ib);
        for (k = 0; k < 4; k++) {
            ir[k] = in->opcode == ATTILA_SH_ADDI ?
                    (int32_t)((uint32_t)ia[k] + (uint32_t)ib[k]) :
                    (int32_t)((uint32_t)ia[k] * (uint32_t)ib[k]);
        }
        write_ivec(x, in, l, ir);
        break;
    case ATTILA_SH_SETPEQ:
    case ATTILA_SH_SETPGT:
    case ATTILA_SH_SETPLT: {
        float p = read_scalar(x, in, 0, l), q = read_scalar(x, in, 1, l);
        write_pred(x, in, l, in->opcode == ATTILA_SH_SETPEQ ? p == q :
                   in->opcode == ATTILA_SH_SETPGT ? p > q : p < q);
        break;
    }
    case ATTILA_SH_STPEQI:
    case ATTILA_SH_STPGTI:
    case ATTILA_SH_STPLTI: {
        int32_t p = read_iscalar(x, in, 0, l), q = read_iscalar(x, in, 1, l);
        /* STPLTI is "less than"; the simulator evaluates EQ (docs) */
        write_pred(x, in, l, in->opcode == ATTILA_SH_STPEQI ? p == q :
                   in->opcode == ATTILA_SH_STPGTI ? p > q : p < q);
        break;
    }
    case ATTILA_SH_ANDP:
        write_pred(x, in, l, read_bool(x, in, 0, l) && read_bool(x, in, 1, l));
        break;
    case ATTILA_SH_KIL:
        read_vec(x, in, 0, l, a);
        if (a[0] < 0.0f || a[1] < 0.0f || a[2] < 0.0f || a[3] < 0.0f) {
            x->t[l].kill = true;
        }
        break;
    case ATTILA_SH_KLS:
        /* one sample per thread is shaded: only sample 0 can be killed */
        read_vec(x, in, 0, l, a);
        if (in->op[1].reg == x->t[l].sample &&
            (a[0] < 0.0f || a[1] < 0.0f || a[2] < 0.0f || a[3] < 0.0f)) {
            x->t[l].kill = true;
        }
        break;
    case ATTILA_SH_ZXP:
    case ATTILA_SH_ZXS:
        read_vec(x, in, 0, l, a);
        x->t[l].zexport = a[0];
        break;
    case ATTILA_SH_CHS:
        x->t[l].sample++;
        break;
    case ATTILA_SH_FXMUL:
    case ATTILA_SH_FXMAD:
    case ATTILA_SH_FXMAD2:
        read_vec(x, in, 0, l, a);
        read_vec(x, in, 1, l, b);
        /*
         * a loop an opcode: c (FXMAD2's third operand) is used only on
         * the path that read it. With the opcode tested again in one
         * loop GCC could not tell (the accumulator's stores may alias
         * the byte in->opcode, for all it knows) and warned that c might
         * be used unread
         */
        if (in->opcode == ATTILA_SH_FXMAD2) {
            read_vec(x, in, 2, l, c);
            for (k = 0; k < 4; k++) {
                fxacc[l][k] = to_fxp(a[k]) * to_fxp(b[k]) + to_fxp(c[k]);
            }
        } else if (in->opcode == ATTILA_SH_FXMAD) {
            for (k = 0; k < 4; k++) {
                r[k] = (float)(to_fxp(a[k]) * to_fxp(b[k]) + fxacc[l][k]);
            }
            write_vec(x, in, l, r);
        } else {
            for (k = 0; k < 4; k++) {
                fxacc[l][k] = to_fxp(a[k]) * to_fxp(b[k]);
            }
        }
        break;
    default:        /* NOP, END */
        break;
    }
}

/* DDX / DDY across the quad (GPUMath::derivX/derivY) */
static void exec_deriv(const Exec *x, const AttilaShInstr *in)
{
    float v[4][4], d[4][4];
    int l, c;

    if (x->lanes < 4) {
        static const float z[4];
        for (l = 0; l < x->lanes; l++) {
            write_vec(x, in, l, z);
        }
        return;
    }
    for (l = 0; l < 4; l++) {
        read_vec(x, in, 0, l, v[l]);
    }
    for (c = 0; c < 4; c++) {
        if (in->opcode == ATTILA_SH_DDX) {
            d[0][c] = d[1][c] = v[1][c] - v[0][c];
            d[2][c] = d[3][c] = v[3][c] - v[2][c];
        } else {
            d[0][c] = d[2][c] = v[2][c] - v[0][c];
            d[1][c] = d[3][c] = v[3][c] - v[1][c];
        }
    }
    for (l = 0; l < 4; l++) {
        write_vec(x, in, l, d[l]);
    }
}

static void exec_texture(const Exec *x, const AttilaShInstr *in)
{
    AttilaVec4 coord[4], res[4];
    float param[4];
    AttilaTexOp op = ATTILA_TEXOP_READ;
    int l;

    for (l = 0; l < 4; l++) {
        int src = l < x->lanes ? l : 0;     /* vertex: replicate lane 0 */
        read_vec(x, in, 0, src, coord[l].f);
        param[l] = 0.0f;
        switch (in->opcode) {
        case ATTILA_SH_TXB:
            param[l] = coord[l].f[3];
            break;
        case ATTILA_SH_TXL:
            param[l] = coord[l].f[3];
            op = ATTILA_TEXOP_READ_LOD;
            break;
        case ATTILA_SH_TXP:
            coord[l].f[0] = coord[l].f[0] / coord[l].f[3];
            coord[l].f[1] = coord[l].f[1] / coord[l].f[3];
            coord[l].f[2] = coord[l].f[2] / coord[l].f[3];
            break;
        case ATTILA_SH_LDA:
            op = ATTILA_TEXOP_ATTRIBUTE;
            break;
        default:
            break;
        }
    }
    if (x->env->tex) {
        x->env->tex(x->env->tex_opaque, op, in->op[1].reg, coord, param, res);
    } else {
        memset(res, 0, sizeof(res));
    }
    /* a quad at most: the batches of more lanes (vertices) run only
     * programs without texture reads (draw-state.c's lanes_apart) */
    for (l = 0; l < x->lanes && l < 4; l++) {
        write_vec(x, in, l, res[l].f);
    }
}

/* JMP: taken when the condition holds for every lane (checkJump) */
static bool jump_taken(const Exec *x, const AttilaShInstr *in)
{
    int l;

    for (l = 0; l < x->lanes; l++) {
        if (!read_bool(x, in, 0, l)) {
            return false;
        }
    }
    return true;
}

/* ---- the common operations over all lanes (prepare_lanes) ---------------- */

/* the operand o of a lane whose register is r */
static inline void lane_read_at(const AttilaVec4 *r, const AttilaShOperand *o,
                                float v[4])
{
    uint32_t u[4];
    int c;

    if (o->plain) {
        memcpy(v, r->f, 4 * sizeof(float));
        return;
    }
    for (c = 0; c < 4; c++) {
        u[c] = (r->u[o->sel[c]] & o->and_bits) ^ o->xor_bits;
    }
    memcpy(v, u, sizeof(u));
}

static inline void lane_read(const Exec *x, const AttilaShaderThread *t,
                             const AttilaShOperand *o, float v[4])
{
    lane_read_at(o->off != NO_OFF ?
                 (const AttilaVec4 *)((const uint8_t *)t + o->off) :
                 &x->env->consts[o->reg], o, v);
}

/*
 * write_result for a lane of a run_lanes instruction (predication tested
 * before): saturated as clampf(v, 0, 1), the masked components written
 */
static inline void lane_write(const AttilaShInstr *in, AttilaShaderThread *t,
                              AttilaVec4 r)
{
    AttilaVec4 *dst = (AttilaVec4 *)((uint8_t *)t + in->res_off);
    int k;

    if (in->mask == 15 && !in->sat) {
        *dst = r;
        return;
    }
    if (in->sat) {
        for (k = 0; k < 4; k++) {
            r.f[k] = clampf(r.f[k], 0.0f, 1.0f);
        }
    }
    for (k = 0; k < 4; k++) {
        dst->u[k] = (dst->u[k] & ~in->wmask[k]) | (r.u[k] & in->wmask[k]);
    }
}

/*
 * exec_texture for TEX (in->tex_lanes): the coordinates read and the
 * results written as run_lanes does, the four lanes' reads one call
 */
static void exec_texture_lanes(const Exec *x, const AttilaShInstr *in)
{
    AttilaVec4 coord[4], res[4];
    static const float param[4];
    int l;

    if (in->tex_quad && x->lanes == 4 && x->env->tex_quad) {
        /* the registers themselves: no copies of the coordinates or the
         * results (a whole unpredicated write is lane_write's store) */
        const float *cp[4];
        float *rp[4];

        for (l = 0; l < 4; l++) {
            cp[l] = (const float *)((const uint8_t *)&x->t[l] + in->op[0].off);
            rp[l] = (float *)((uint8_t *)&x->t[l] + in->res_off);
        }
        if (x->env->tex_quad(x->env->tex_opaque, in->op[1].reg, cp, rp)) {
            return;
        }
    }
    for (l = 0; l < 4; l++) {
        /* vertex: replicate lane 0 */
        lane_read(x, &x->t[l < x->lanes ? l : 0], &in->op[0], coord[l].f);
    }
    if (x->env->tex) {
        x->env->tex(x->env->tex_opaque, ATTILA_TEXOP_READ, in->op[1].reg,
                    coord, param, res);
    } else {
        memset(res, 0, sizeof(res));
    }
    for (l = 0; l < x->lanes; l++) {
        AttilaShaderThread *t = &x->t[l];

        if (!in->predicated || t->pred[in->pred_reg] != in->invert_pred) {
            lane_write(in, t, res[l]);
        }
    }
}

/* ---- the vertex batches' operations, decoded (AttilaSoaProg) ------------- */

/*
 * The by-component registers (shader.c's Soa, below) and the constant slots
 * (AttilaSoaProg.kslot) have one layout: a register is four components of
 * ATTILA_SH_BATCH lanes, an operand's component c at register * SOA_REG +
 * selector * SOA_COMP bytes, a group of lanes at that plus its own
 */
#define SOA_COMP (ATTILA_SH_BATCH * sizeof(float))
#define SOA_REG (4 * SOA_COMP)

/* the instances of run_soa's operations: one for each of the frequent
 * ones, with and without operand modifiers, with and without a
 * saturated or predicated write; 0 the rest */
enum { SOA_KIND_MODS = 1, SOA_KIND_WRITE = 2 };
#define SOA_OWN_LIST(X)                                                     \
    X(0, ATTILA_SH_MAD) X(1, ATTILA_SH_MUL) X(2, ATTILA_SH_ADD)             \
    X(3, ATTILA_SH_MOV) X(4, ATTILA_SH_DP3) X(5, ATTILA_SH_DP4)
#define SOA_KIND_OF(i, o) case (o): return 1 + 4 * (i) + variant;

static uint8_t soa_kind(const AttilaSoaOp *op)
{
    unsigned k, variant = op->sat || op->predicated ? SOA_KIND_WRITE : 0;

    for (k = 0; k < op->nops; k++) {
        if (op->src[k].andm != -1 || op->src[k].xorm != 0) {
            variant |= SOA_KIND_MODS;
        }
    }
    switch (op->opc) {
    SOA_OWN_LIST(SOA_KIND_OF)
    default:
        return 0;
    }
}

/* slot of the constant operand o in its swizzled, modified form: an
 * existing one with the same key, or a new one (filled by soa_fill) up to
 * max; -1 when none is left */
static int soa_slot(AttilaSoaKey *key, uint32_t *nk, uint32_t max,
                    const AttilaShOperand *o)
{
    AttilaSoaKey q = {
        .reg = o->reg, .swz = o->swz,
        .andm = (int32_t)o->and_bits, .xorm = (int32_t)o->xor_bits,
    };
    uint32_t i;

    for (i = 0; i < *nk; i++) {
        if (key[i].reg == q.reg && key[i].swz == q.swz &&
            key[i].andm == q.andm && key[i].xorm == q.xorm) {
            return i;
        }
    }
    if (*nk == max) {
        return -1;
    }
    key[*nk] = q;
    return (*nk)++;
}

/* slot k's components: the constant's, swizzled, AND then XOR of the
 * bits (read_vec's abs then negate), in every lane */
static void soa_fill(float (*slot)[ATTILA_SH_BATCH], const AttilaSoaKey *k,
                     const AttilaVec4 *consts)
{
    int c, l;

    for (c = 0; c < 4; c++) {
        uint32_t u = (consts[k->reg].u[(k->swz >> (6 - 2 * c)) & 3] &
                      (uint32_t)k->andm) ^ (uint32_t)k->xorm;
        float f = g3d_u2f(u);
        for (l = 0; l < ATTILA_SH_BATCH; l++) {
            slot[c][l] = f;
        }
    }
}

/*
 * A run_lanes instruction (in->fast) as one operation: the operands'
 * offsets, a constant in a slot of key (up to max; false when they are
 * full, op then unusable).
 */
static bool soa_decode(const AttilaShInstr *in, AttilaSoaOp *op,
                       AttilaSoaKey *key, uint32_t *nk, uint32_t max)
{
    int k, c;

    memset(op, 0, sizeof(*op));
    op->opc = in->opcode;
    op->nops = in->nops;
    op->mask = in->mask;
    op->sat = in->sat;
    op->predicated = in->predicated;
    op->invert_pred = in->invert_pred;
    op->pred_reg = in->pred_reg;
    op->dst = in->res_off / sizeof(AttilaVec4) * SOA_REG;
    for (k = 0; k < in->nops; k++) {
        const AttilaShOperand *o = &in->op[k];
        AttilaSoaSrc *q = &op->src[k];

        if (o->off != NO_OFF) {
            for (c = 0; c < 4; c++) {
                q->off[c] = o->off / sizeof(AttilaVec4) * SOA_REG +
                            o->sel[c] * SOA_COMP;
            }
            q->andm = (int32_t)o->and_bits;
            q->xorm = (int32_t)o->xor_bits;
        } else {
            /* a directly addressed constant (in->fast): the slot holds the
             * swizzle and the modifiers */
            int s = soa_slot(key, nk, max, o);
            if (s < 0) {
                return false;
            }
            q->konst = true;
            for (c = 0; c < 4; c++) {
                q->off[c] = s * SOA_REG + c * SOA_COMP;
            }
            q->andm = -1;
            q->xorm = 0;
        }
    }
    op->kind = soa_kind(op);
    return true;
}

static inline void soa_mark(uint64_t *m, unsigned r)
{
    m[r >> 6] |= 1ull << (r & 63);
}

static inline bool soa_marked(const uint64_t *m, unsigned r)
{
    return m[r >> 6] >> (r & 63) & 1;
}

void attila_shader_prepare_batches(AttilaSoaProg *p, const AttilaShInstr *imem,
                                   uint32_t pc, const AttilaVec4 *consts)
{
    uint64_t whole[2] = { 0 };
    uint32_t i, n;

    /* the same instructions as last time: the list is kept */
    if (p->imem != imem || p->pc != pc || p->n == 0 ||
        pc + p->n > ATTILA_INSTRUCTION_MEMORY ||
        memcmp(p->code, &imem[pc], p->n * sizeof(*imem))) {
        p->imem = imem;
        p->pc = pc;
        p->n = 0;
        p->nk = 0;
        p->ended = false;
        memset(p->load, 0, sizeof(p->load));
        memset(p->store, 0, sizeof(p->store));
        for (n = 0; n < ATTILA_SOA_OPS && pc + n < ATTILA_INSTRUCTION_MEMORY;
             n++) {
            const AttilaShInstr *in = &imem[pc + n];
            unsigned k, r;

            if (!in->valid || !in->fast ||
                !soa_decode(in, &p->op[n], p->key, &p->nk,
                            ATTILA_SOA_KSLOTS)) {
                break;
            }
            /* the registers read before the run writes them whole are
             * moved in at its start; a masked or predicated write keeps
             * the rest of its register */
            for (k = 0; k < in->nops; k++) {
                r = in->op[k].off / sizeof(AttilaVec4);
                if (in->op[k].off != NO_OFF && !soa_marked(whole, r)) {
                    soa_mark(p->load, r);
                }
            }
            r = in->res_off / sizeof(AttilaVec4);
            if (!soa_marked(whole, r)) {
                if (in->mask != 15 || in->predicated) {
                    soa_mark(p->load, r);
                } else {
                    soa_mark(whole, r);
                }
            }
            soa_mark(p->store, r);
            p->code[n] = *in;
            if (in->end) {
                p->ended = true;
                n++;
                break;
            }
        }
        p->n = n;
    }
    /* the constants, every draw */
    p->consts = consts;
    for (i = 0; i < p->nk; i++) {
        soa_fill(p->kslot[i], &p->key[i], consts);
    }
}

#ifdef __SSE2__
/*
 * run_lanes with a lane's four components in one SSE2 register: the same
 * float operation per component as the C below (no FMA, MAD a multiply
 * then an add), MINPS/MAXPS where they are the C comparisons (MINPS a, b
 * is a < b ? a : b, MAXPS a > b ? a : b, NaN and equal giving b), the
 * saturation MAXPS(0, MINPS(v, 1)), which is clampf(v, 0, 1) with NaN to 1
 * and -0 kept, and the write mask as AND/ANDNOT of the old and new bits.
 */
static inline __m128 lane_read4(const AttilaVec4 *r, const AttilaShOperand *o)
{
    float f[4];
    __m128 v;

    if (o->plain) {
        return _mm_loadu_ps(r->f);
    }
    /*
     * .xyzw as one load, a broadcast of one component as its load to every
     * lane, then lane_read's AND and XOR of every component's bits; other
     * swizzles component by component
     */
    if (o->shape == 0) {
        v = _mm_loadu_ps(r->f);
    } else if (o->shape <= 4) {
        v = _mm_set1_ps(r->f[o->shape - 1]);
    } else {
        lane_read_at(r, o, f);
        return _mm_loadu_ps(f);
    }
    return _mm_castsi128_ps(_mm_xor_si128(
        _mm_and_si128(_mm_castps_si128(v), _mm_set1_epi32((int)o->and_bits)),
        _mm_set1_epi32((int)o->xor_bits)));
}

/*
 * An operand's register in lane 0 and the step to the next lane's: the
 * threads' registers are one AttilaShaderThread apart, a constant is the
 * same for every lane
 */
typedef struct LaneSrc {
    const uint8_t *p;
    size_t step;
} LaneSrc;

static inline LaneSrc lane_src(const Exec *x, const AttilaShOperand *o)
{
    LaneSrc q;

    if (o->off != NO_OFF) {
        q.p = (const uint8_t *)x->t + o->off;
        q.step = sizeof(AttilaShaderThread);
    } else {
        q.p = (const uint8_t *)&x->env->consts[o->reg];
        q.step = 0;
    }
    return q;
}

static inline const AttilaVec4 *lane_at(LaneSrc q, int l)
{
    return (const AttilaVec4 *)(q.p + (size_t)l * q.step);
}

/*
 * The lanes of one instruction; opc is a constant in run_lanes' instances
 * of the common componentwise operations, so that their opcode switch and
 * operand count are decided once for the instruction, not once a lane
 */
static inline __attribute__((always_inline)) void
lanes_op(const Exec *x, const AttilaShInstr *in, uint8_t opc)
{
    const __m128 one = _mm_set1_ps(1.0f), zero = _mm_setzero_ps();
    const __m128i wm = _mm_loadu_si128((const __m128i *)in->wmask);
    int nops = opc == ATTILA_SH_MOV ? 1 : opc == ATTILA_SH_MAD ? 3 :
               opc == ATTILA_SH_ADD || opc == ATTILA_SH_MUL ? 2 : in->nops;
    LaneSrc qa = lane_src(x, &in->op[0]), qb = qa, qc = qa;
    int l;

    if (nops > 1) {
        qb = lane_src(x, &in->op[1]);
    }
    if (nops > 2) {
        qc = lane_src(x, &in->op[2]);
    }
    for (l = 0; l < x->lanes; l++) {
        AttilaShaderThread *t = &x->t[l];
        __m128 a, b = zero, c = zero, r, m;
        float fa[4], fb[4], fr[4];
        uint8_t *dst;

        if (in->predicated && t->pred[in->pred_reg] == in->invert_pred) {
            continue;
        }
        a = lane_read4(lane_at(qa, l), &in->op[0]);
        if (nops > 1) {
            b = lane_read4(lane_at(qb, l), &in->op[1]);
        }
        if (nops > 2) {
            c = lane_read4(lane_at(qc, l), &in->op[2]);
        }
        switch (opc) {
        case ATTILA_SH_ADD:
            r = _mm_add_ps(a, b);
            break;
        case ATTILA_SH_MUL:
            r = _mm_mul_ps(a, b);
            break;
        case ATTILA_SH_MAD:
            r = _mm_add_ps(_mm_mul_ps(a, b), c);
            break;
        case ATTILA_SH_MOV:
            r = a;
            break;
        case ATTILA_SH_DP3:
        case ATTILA_SH_DP4:
        case ATTILA_SH_DPH:
            /* the products at once, their sum in the C order */
            _mm_storeu_ps(fr, _mm_mul_ps(a, b));
            _mm_storeu_ps(fb, b);
            fr[0] = opc == ATTILA_SH_DP3 ? fr[0] + fr[1] + fr[2] :
                    opc == ATTILA_SH_DP4 ?
                    fr[0] + fr[1] + fr[2] + fr[3] :
                    fr[0] + fr[1] + fr[2] + fb[3];
            r = _mm_set1_ps(fr[0]);
            break;
        case ATTILA_SH_MAX:
            r = _mm_max_ps(a, b);
            break;
        case ATTILA_SH_MIN:
            r = _mm_min_ps(a, b);
            break;
        case ATTILA_SH_SLT:
            r = _mm_and_ps(_mm_cmplt_ps(a, b), one);
            break;
        case ATTILA_SH_SGE:
            r = _mm_andnot_ps(_mm_cmplt_ps(a, b), one);
            break;
        case ATTILA_SH_CMP:
            m = _mm_cmplt_ps(a, zero);
            r = _mm_or_ps(_mm_and_ps(m, b), _mm_andnot_ps(m, c));
            break;
        case ATTILA_SH_DST:
            _mm_storeu_ps(fa, a);
            _mm_storeu_ps(fb, b);
            dst_op(fa, fb, fr);
            r = _mm_loadu_ps(fr);
            break;
        case ATTILA_SH_LIT:
            _mm_storeu_ps(fa, a);
            lit_op(fa, fr);
            r = _mm_loadu_ps(fr);
            break;
        default:        /* the scalar operations: of a's last selector */
            _mm_storeu_ps(fa, a);
            r = _mm_set1_ps(scalar_op(opc, fa[3]));
            break;
        }
        if (in->sat) {
            r = _mm_max_ps(zero, _mm_min_ps(r, one));
        }
        dst = (uint8_t *)t + in->res_off;
        if (in->mask != 15) {
            __m128i old = _mm_loadu_si128((const __m128i *)dst);
            r = _mm_castsi128_ps(_mm_or_si128(
                    _mm_and_si128(wm, _mm_castps_si128(r)),
                    _mm_andnot_si128(wm, old)));
        }
        _mm_storeu_ps((float *)dst, r);
    }
}

static void run_lanes(const Exec *x, const AttilaShInstr *in)
{
    /* an instance a common componentwise operation, one for the rest */
    static const uint8_t own[] = {
        ATTILA_SH_ADD, ATTILA_SH_MUL, ATTILA_SH_MAD, ATTILA_SH_MOV,
    };
    uint8_t opc = in->opcode;

    if (opc == own[0]) {
        lanes_op(x, in, own[0]);
    } else if (opc == own[1]) {
        lanes_op(x, in, own[1]);
    } else if (opc == own[2]) {
        lanes_op(x, in, own[2]);
    } else if (opc == own[3]) {
        lanes_op(x, in, own[3]);
    } else {
        lanes_op(x, in, opc);
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
#define QUAD_AVX2_BLOCK 1
/*
 * A fragment quad's run of run_lanes' operations with AVX2 (the CPU's
 * level AVX2 or more): two lanes' registers a 256-bit vector, each
 * 128-bit half a lane's four components, so an instruction is one
 * operation for two lanes and the operand's swizzle one VPERMILPS
 * (variable control, per half) for any shape; abs and negation the same
 * AND and XOR of the sign bit, constants read once for the four lanes.
 * The float operations are lanes_op's, in its order (MAD a multiply then
 * an add, no FMA in this target; MINPS/MAXPS and the compares in the same
 * operand order; a dot product's products summed left to right), so the
 * bits are the same. Operations it has no instance for (DST, LIT, the
 * scalar ones) go to run_lanes.
 */
#define QUAD_INLINE static inline __attribute__((always_inline, target("avx2")))

typedef struct QuadSrc {
    __m256 v[2];        /* lanes 0-1, 2-3 */
} QuadSrc;

/* an operand's value in the lanes 2h, 2h + 1 */
QUAD_INLINE __m256 quad_load2(const uint8_t *p, size_t step, int h)
{
    return _mm256_insertf128_ps(
        _mm256_castps128_ps256(_mm_loadu_ps(
            (const float *)(p + (size_t)(2 * h) * step))),
        _mm_loadu_ps((const float *)(p + (size_t)(2 * h + 1) * step)), 1);
}

QUAD_INLINE __m256 quad_mods(__m256 v, const AttilaShOperand *o)
{
    uint32_t sel;
    __m256i ctl;

    if (o->plain) {
        return v;
    }
    memcpy(&sel, o->sel, 4);
    ctl = _mm256_cvtepu8_epi32(_mm_set1_epi32((int)sel));
    v = _mm256_permutevar_ps(v, ctl);
    return _mm256_castsi256_ps(_mm256_xor_si256(
        _mm256_and_si256(_mm256_castps_si256(v),
                         _mm256_set1_epi32((int)o->and_bits)),
        _mm256_set1_epi32((int)o->xor_bits)));
}

QUAD_INLINE void quad_src(const Exec *x, const AttilaShOperand *o, QuadSrc *q)
{
    if (o->off != NO_OFF) {
        const uint8_t *p = (const uint8_t *)x->t + o->off;
        q->v[0] = quad_mods(quad_load2(p, sizeof(AttilaShaderThread), 0), o);
        q->v[1] = quad_mods(quad_load2(p, sizeof(AttilaShaderThread), 1), o);
    } else {
        /* a constant: the same for every lane, swizzled once */
        q->v[0] = q->v[1] = quad_mods(_mm256_broadcast_ps(
            (const __m128 *)&x->env->consts[o->reg]), o);
    }
}

/* a dot product's sums, left to right, in every component of a lane */
QUAD_INLINE __m256 quad_dot(__m256 p, __m256 b, uint8_t opc)
{
    __m256 s = _mm256_add_ps(_mm256_permute_ps(p, 0x00),
                             _mm256_permute_ps(p, 0x55));

    s = _mm256_add_ps(s, _mm256_permute_ps(p, 0xaa));
    if (opc == ATTILA_SH_DP3) {
        return s;
    }
    return _mm256_add_ps(s, _mm256_permute_ps(opc == ATTILA_SH_DP4 ? p : b,
                                              0xff));
}

/*
 * One instruction over the quad; opc is a constant in each instance, so
 * that the operation and its operand count are decided once for the
 * instruction
 */
QUAD_INLINE void quad_op(const Exec *x, const AttilaShInstr *in, uint8_t opc)
{
    const __m256 one = _mm256_set1_ps(1.0f), zero = _mm256_setzero_ps();
    int nops = opc == ATTILA_SH_MOV ? 1 :
               opc == ATTILA_SH_MAD || opc == ATTILA_SH_CMP ? 3 : 2;
    uint8_t *d = (uint8_t *)x->t + in->res_off;
    const size_t step = sizeof(AttilaShaderThread);
    QuadSrc a, b, c;
    __m256 r[2];
    int h;

    quad_src(x, &in->op[0], &a);
    if (nops > 1) {
        quad_src(x, &in->op[1], &b);
    }
    if (nops > 2) {
        quad_src(x, &in->op[2], &c);
    }
    for (h = 0; h < 2; h++) {
        __m256 m;

        switch (opc) {
        /* GCC's vector operators: VADDPS, VMULPS, and MAD's multiply
         * then add (this target has no FMA to contract them into) */
        case ATTILA_SH_ADD:
            r[h] = a.v[h] + b.v[h];
            break;
        case ATTILA_SH_MUL:
            r[h] = a.v[h] * b.v[h];
            break;
        case ATTILA_SH_MAD:
            r[h] = a.v[h] * b.v[h] + c.v[h];
            break;
        case ATTILA_SH_DP3:
        case ATTILA_SH_DP4:
        case ATTILA_SH_DPH:
            r[h] = quad_dot(_mm256_mul_ps(a.v[h], b.v[h]), b.v[h], opc);
            break;
        case ATTILA_SH_MAX:
            r[h] = _mm256_max_ps(a.v[h], b.v[h]);
            break;
        case ATTILA_SH_MIN:
            r[h] = _mm256_min_ps(a.v[h], b.v[h]);
            break;
        case ATTILA_SH_SLT:
            r[h] = _mm256_and_ps(_mm256_cmp_ps(a.v[h], b.v[h], _CMP_LT_OS),
                                 one);
            break;
        case ATTILA_SH_SGE:
            r[h] = _mm256_andnot_ps(_mm256_cmp_ps(a.v[h], b.v[h],
                                                  _CMP_LT_OS), one);
            break;
        case ATTILA_SH_CMP:
            m = _mm256_cmp_ps(a.v[h], zero, _CMP_LT_OS);
            r[h] = _mm256_or_ps(_mm256_and_ps(m, b.v[h]),
                                _mm256_andnot_ps(m, c.v[h]));
            break;
        default:        /* MOV */
            r[h] = a.v[h];
            break;
        }
    }
    if (in->sat) {
        for (h = 0; h < 2; h++) {
            r[h] = _mm256_max_ps(zero, _mm256_min_ps(r[h], one));
        }
    }
    if (in->mask != 15 || in->predicated) {
        /* the old bits where the mask or the lane's predicate fails */
        __m256i wm[2];

        wm[0] = wm[1] = _mm256_broadcastsi128_si256(
            _mm_loadu_si128((const __m128i *)in->wmask));
        if (in->predicated) {
            for (h = 0; h < 2; h++) {
                const AttilaShaderThread *t = &x->t[2 * h];
                int p0 = -(t[0].pred[in->pred_reg] != in->invert_pred);
                int p1 = -(t[1].pred[in->pred_reg] != in->invert_pred);
                wm[h] = _mm256_and_si256(wm[h], _mm256_setr_epi32(
                    p0, p0, p0, p0, p1, p1, p1, p1));
            }
        }
        for (h = 0; h < 2; h++) {
            r[h] = _mm256_blendv_ps(quad_load2(d, step, h), r[h],
                                    _mm256_castsi256_ps(wm[h]));
        }
    }
    for (h = 0; h < 2; h++) {
        _mm_storeu_ps((float *)(d + (size_t)(2 * h) * step),
                      _mm256_castps256_ps128(r[h]));
        _mm_storeu_ps((float *)(d + (size_t)(2 * h + 1) * step),
                      _mm256_extractf128_ps(r[h], 1));
    }
}

#define QUAD_OWN(opc) case opc: quad_op(x, in, opc); break

/*
 * A run of run_lanes' operations and lane-addressed texture reads
 * (exec_texture_lanes) from *pc over a fragment quad (4 lanes); stops
 * before an instruction it cannot run (the caller's loop runs it), after
 * the end flag or once every lane is killed (true, as run's loop) or after
 * limit instructions. *n: those run. Contraction off all the same: a build
 * for a CPU with FMA would otherwise fuse MAD's multiply and add.
 */
__attribute__((target("avx2"))) G3D_NO_CONTRACT
static bool quad_block_avx2(const Exec *x, uint32_t *pc, unsigned *n,
                            unsigned limit)
{
    const AttilaShInstr *imem = x->env->imem;
    uint32_t p = *pc;
    unsigned k = 0;
    bool ended = false;

    while (k < limit && p < ATTILA_INSTRUCTION_MEMORY) {
        const AttilaShInstr *in = &imem[p];

        if (!in->valid || !(in->fast || in->tex_lanes)) {
            break;
        }
        switch (in->opcode) {
        case ATTILA_SH_TEX:
        case ATTILA_SH_TXB:
        case ATTILA_SH_TXL:
        case ATTILA_SH_TXP:
        case ATTILA_SH_LDA:
            exec_texture_lanes(x, in);
            /* run's loop stops once every lane is killed (an earlier KIL
             * may have killed them) */
            if (x->t[0].kill && x->t[1].kill && x->t[2].kill &&
                x->t[3].kill) {
                k++;
                *pc = p;
                *n = k;
                return true;
            }
            break;
        QUAD_OWN(ATTILA_SH_ADD);
        QUAD_OWN(ATTILA_SH_MUL);
        QUAD_OWN(ATTILA_SH_MAD);
        QUAD_OWN(ATTILA_SH_MOV);
        QUAD_OWN(ATTILA_SH_DP3);
        QUAD_OWN(ATTILA_SH_DP4);
        QUAD_OWN(ATTILA_SH_DPH);
        QUAD_OWN(ATTILA_SH_MAX);
        QUAD_OWN(ATTILA_SH_MIN);
        QUAD_OWN(ATTILA_SH_SLT);
        QUAD_OWN(ATTILA_SH_SGE);
        QUAD_OWN(ATTILA_SH_CMP);
        default:
            run_lanes(x, in);
            break;
        }
        k++;
        if (in->end) {
            ended = true;
            break;
        }
        p++;
    }
    *pc = p;
    *n = k;
    return ended;
}
#endif

/*
 * Several lanes: the registers by component, up to ATTILA_SH_BATCH lanes
 * in groups of SOA_W (the threads' registers are a lane's four
 * components). A register is moved into this form (4x4 transposes) when
 * an instruction first names it, and the ones written are moved back when
 * a run of run_lanes' instructions ends; in between an instruction is one
 * vector operation a component a group (GCC's vector types: one 256-bit
 * operation for eight lanes, two SSE2 ones; the decoding and dispatch,
 * most of an instruction's cost, shared by the batch): the same float
 * operations as exec_alu, each lane's in the
 * same order (a dot product's products summed left to right, MAD a
 * multiply then an add, no FMA), the comparisons as C writes them, the
 * operand's abs/neg as AND/XOR of the sign bit. The libm operations (EX2,
 * LG2, SIN, COS, LIT's power) and RSQ's double square root stay one per
 * lane; RCP is a vector division, the C expression's IEEE operation.
 */
/* the vectors are passed only between inline functions of this file */
#pragma GCC diagnostic ignored "-Wpsabi"
/*
 * soa_op's results are set and stored under the same write mask, which GCC
 * does not follow across the two loops (a zeroed r cost 5 % of 8lights'
 * instructions)
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
/*
 * Eight lanes a vector, the batch's 16 in two groups: 256 bits, one
 * register of AVX and up (two SSE2 ones), so GCC keeps a value in
 * registers; a 16-lane vector without AVX-512 went through the stack
 * (each operand copied there by 16-byte moves)
 */
#define SOA_W 8
#define SOA_GROUPS (ATTILA_SH_BATCH / SOA_W)
typedef float SoaF __attribute__((vector_size(4 * SOA_W)));
typedef int32_t SoaI __attribute__((vector_size(4 * SOA_W)));

/* in, out, temp and addr one after the other: a register is offset / 16 */
#define SOA_NREG (offsetof(AttilaShaderThread, addr) / sizeof(AttilaVec4) + 2)
_Static_assert(offsetof(AttilaShaderThread, out) ==
                  ATTILA_SH_IO * sizeof(AttilaVec4) &&
                  offsetof(AttilaShaderThread, temp) ==
                  2 * ATTILA_SH_IO * sizeof(AttilaVec4) &&
                  offsetof(AttilaShaderThread, addr) ==
                  (2 * ATTILA_SH_IO + ATTILA_SH_TEMPS) * sizeof(AttilaVec4),
               "thread banks one after the other");
_Static_assert(ATTILA_SH_BATCH % SOA_W == 0, "lanes by groups");

/* every piece inlined into each instruction set's soa_block (below) */
#define SOA_INLINE static inline __attribute__((always_inline))

typedef struct Soa {
    /* register, component, group: every lane */
    SoaF r[SOA_NREG][4][SOA_GROUPS];
    /* run_soa's constant slots, AttilaSoaProg.kslot's layout */
    float k[3][4][ATTILA_SH_BATCH];
    uint64_t valid[2], dirty[2];
    /* lanes past x->lanes repeat the last */
    AttilaShaderThread *lane[ATTILA_SH_BATCH];
} Soa;

SOA_INLINE float *soa_reg(AttilaShaderThread *t, unsigned r)
{
    return (float *)((uint8_t *)t + r * sizeof(AttilaVec4));
}

SOA_INLINE SoaF soa_sel(SoaI m, SoaF a, SoaF b)
{
    return (SoaF)((m & (SoaI)a) | (~m & (SoaI)b));
}

/* f in every lane, its bits as they are: a vector-scalar OR is one
 * broadcast (a loop of lane stores was built element by element) */
SOA_INLINE SoaF soa_splat(float f)
{
    const SoaI none = { 0 };

    return (SoaF)(none | (int32_t)g3d_f2u(f));
}

SOA_INLINE void soa_begin(Soa *s, const Exec *x)
{
    int l;

    s->valid[0] = s->valid[1] = s->dirty[0] = s->dirty[1] = 0;
    for (l = 0; l < ATTILA_SH_BATCH; l++) {
        s->lane[l] = &x->t[l < x->lanes ? l : x->lanes - 1];
    }
}

/* register r (thread offset / 16) from the lanes, by component */
SOA_INLINE void soa_load(Soa *s, unsigned r)
{
    int h;

    for (h = 0; h < ATTILA_SH_BATCH; h += 4) {
        __m128 v0 = _mm_loadu_ps(soa_reg(s->lane[h], r));
        __m128 v1 = _mm_loadu_ps(soa_reg(s->lane[h + 1], r));
        __m128 v2 = _mm_loadu_ps(soa_reg(s->lane[h + 2], r));
        __m128 v3 = _mm_loadu_ps(soa_reg(s->lane[h + 3], r));

        _MM_TRANSPOSE4_PS(v0, v1, v2, v3);
        _mm_storeu_ps((float *)&s->r[r][0] + h, v0);
        _mm_storeu_ps((float *)&s->r[r][1] + h, v1);
        _mm_storeu_ps((float *)&s->r[r][2] + h, v2);
        _mm_storeu_ps((float *)&s->r[r][3] + h, v3);
    }
    soa_mark(s->valid, r);
}

/* the registers written back to the lanes; the next run loads afresh.
 * outputs: only the output bank's (the program ended, env->outputs_only) */
SOA_INLINE void soa_end(Soa *s, const Exec *x, bool outputs)
{
    const unsigned out0 = offsetof(AttilaShaderThread, out) /
                          sizeof(AttilaVec4);
    int w, l, h;

    _Static_assert(offsetof(AttilaShaderThread, temp) / sizeof(AttilaVec4) <=
                   64, "the outputs in the first dirty word");
    if (outputs) {
        s->dirty[0] &= ((1ull << ATTILA_SH_IO) - 1) << out0;
        s->dirty[1] = 0;
    }
    for (w = 0; w < 2; w++) {
        while (s->dirty[w]) {
            unsigned r = w * 64 + __builtin_ctzll(s->dirty[w]);

            s->dirty[w] &= s->dirty[w] - 1;
            for (h = 0; h < x->lanes; h += 4) {
                __m128 v[4];
                for (l = 0; l < 4; l++) {
                    v[l] = _mm_loadu_ps((const float *)&s->r[r][l] + h);
                }
                _MM_TRANSPOSE4_PS(v[0], v[1], v[2], v[3]);
                for (l = 0; l < 4 && h + l < x->lanes; l++) {
                    _mm_storeu_ps(soa_reg(&x->t[h + l], r), v[l]);
                }
            }
        }
        s->valid[w] = 0;
    }
}

/* the operand's component c (after the swizzle; with mods its AND and
 * XOR, identities where it has no modifier), group g's lanes; pa its base
 * (the registers or the constant slots) */
SOA_INLINE SoaF soa_read(const uint8_t *pa, const AttilaSoaSrc *q, int c,
                         int g, bool mods)
{
    SoaF v;

    memcpy(&v, pa + q->off[c] + g * sizeof(SoaF), sizeof(v));
    if (mods) {
        v = (SoaF)(((SoaI)v & q->andm) ^ q->xorm);
    }
    return v;
}

/*
 * One operation, each component's groups of lanes together (the opcode's
 * and the write mask's branches taken once for them). opc, mods and write
 * (a saturated or predicated write) are constants in soa_dispatch's
 * instances, as the opcode is in lanes_op. kbase: the constant slots.
 */
SOA_INLINE void soa_op(Soa *s, const uint8_t *kbase, const AttilaSoaOp *op,
                       uint8_t opc, bool mods, bool write, int lanes)
{
    const SoaF one = soa_splat(1.0f), zero = soa_splat(0.0f);
    uint8_t *regs = (uint8_t *)s->r;
    const AttilaSoaSrc *oa = &op->src[0], *ob = &op->src[1],
                       *oc = &op->src[2];
    const uint8_t *pa = oa->konst ? kbase : regs;
    const uint8_t *pb = ob->konst ? kbase : regs;
    const uint8_t *pc = oc->konst ? kbase : regs;
    /* r: only the written components (the mask) are set and read */
    SoaF r[4][SOA_GROUPS], a[4], m = zero, v;
    SoaI pm[SOA_GROUPS] = { { 0 } };
    int c, l, g;

#define SOA_A(c, g) soa_read(pa, oa, (c), (g), mods)
#define SOA_B(c, g) soa_read(pb, ob, (c), (g), mods)
#define SOA_C(c, g) soa_read(pc, oc, (c), (g), mods)
    switch (opc) {
    case ATTILA_SH_ADD: case ATTILA_SH_MUL: case ATTILA_SH_MAD:
    case ATTILA_SH_MOV: case ATTILA_SH_MAX: case ATTILA_SH_MIN:
    case ATTILA_SH_SLT: case ATTILA_SH_SGE: case ATTILA_SH_CMP:
        /* component by component: only the written ones */
        for (c = 0; c < 4; c++) {
            if (!(op->mask & (8 >> c))) {
                continue;
            }
            for (g = 0; g < SOA_GROUPS; g++) {
                SoaF va = SOA_A(c, g), vb;

                switch (opc) {
                case ATTILA_SH_MOV:
                    r[c][g] = va;
                    continue;
                case ATTILA_SH_MAD:
                    r[c][g] = va * SOA_B(c, g) + SOA_C(c, g);
                    continue;
                case ATTILA_SH_CMP:
                    r[c][g] = soa_sel(va < zero, SOA_B(c, g), SOA_C(c, g));
                    continue;
                default:
                    break;
                }
                vb = SOA_B(c, g);
                switch (opc) {
                case ATTILA_SH_ADD: r[c][g] = va + vb; break;
                case ATTILA_SH_MUL: r[c][g] = va * vb; break;
                case ATTILA_SH_MAX: r[c][g] = soa_sel(va > vb, va, vb); break;
                case ATTILA_SH_MIN: r[c][g] = soa_sel(va < vb, va, vb); break;
                case ATTILA_SH_SLT:
                    r[c][g] = soa_sel(va < vb, one, zero);
                    break;
                default:
                    r[c][g] = soa_sel(va < vb, zero, one);
                    break;
                }
            }
        }
        break;
    case ATTILA_SH_DP3:
    case ATTILA_SH_DP4:
    case ATTILA_SH_DPH:
        for (g = 0; g < SOA_GROUPS; g++) {
            /* each lane's products summed left to right, as exec_alu */
            m = SOA_A(0, g) * SOA_B(0, g) + SOA_A(1, g) * SOA_B(1, g) +
                SOA_A(2, g) * SOA_B(2, g);
            if (opc == ATTILA_SH_DP4) {
                m = m + SOA_A(3, g) * SOA_B(3, g);
            } else if (opc == ATTILA_SH_DPH) {
                m = m + SOA_B(3, g);
            }
            r[0][g] = r[1][g] = r[2][g] = r[3][g] = m;
        }
        break;
    case ATTILA_SH_DST:
        for (g = 0; g < SOA_GROUPS; g++) {
            r[0][g] = one;
            r[1][g] = SOA_A(1, g) * SOA_B(1, g);
            r[2][g] = SOA_A(2, g);
            r[3][g] = SOA_B(3, g);
        }
        break;
    case ATTILA_SH_LIT:
        for (g = 0; g < SOA_GROUPS; g++) {
            for (c = 0; c < 4; c++) {
                a[c] = SOA_A(c, g);
            }
            /* x < 0 ? 0 : x (NaN and -0 kept), the power per lane */
            r[0][g] = r[3][g] = one;
            r[1][g] = soa_sel(a[0] < zero, zero, a[0]);
            r[2][g] = zero;
            for (l = 0; l < SOA_W && g * SOA_W + l < lanes; l++) {
                float f[4] = { a[0][l], a[1][l], a[2][l], a[3][l] }, o[4];
                lit_op(f, o);
                r[2][g][l] = o[2];
            }
        }
        break;
    case ATTILA_SH_RCP:
        for (g = 0; g < SOA_GROUPS; g++) {
            m = one / SOA_A(3, g);
            r[0][g] = r[1][g] = r[2][g] = r[3][g] = m;
        }
        break;
    case ATTILA_SH_RSQ:
        for (g = 0; g < SOA_GROUPS; g++) {
            /* (float)sqrt((double)(1.0f / fabsf(s))) */
            v = one / (SoaF)((SoaI)SOA_A(3, g) & 0x7fffffff);
            for (l = 0; l < SOA_W; l++) {
                m[l] = (float)sqrt((double)v[l]);
            }
            r[0][g] = r[1][g] = r[2][g] = r[3][g] = m;
        }
        break;
    default:        /* EX2, LG2, SIN, COS: of the last selector, per lane */
        for (g = 0; g < SOA_GROUPS; g++) {
            v = SOA_A(3, g);
            m = zero;
            for (l = 0; l < SOA_W && g * SOA_W + l < lanes; l++) {
                m[l] = scalar_op(opc, v[l]);
            }
            r[0][g] = r[1][g] = r[2][g] = r[3][g] = m;
        }
        break;
    }
#undef SOA_A
#undef SOA_B
#undef SOA_C
    if (write && op->predicated) {
        /* the lanes whose predicate holds */
        for (l = 0; l < ATTILA_SH_BATCH; l++) {
            pm[l / SOA_W][l % SOA_W] =
                s->lane[l]->pred[op->pred_reg] != op->invert_pred ? -1 : 0;
        }
    }
    for (c = 0; c < 4; c++) {
        uint8_t *d = regs + op->dst + c * SOA_COMP;

        if (!(op->mask & (8 >> c))) {
            continue;
        }
        for (g = 0; g < SOA_GROUPS; g++) {
            v = r[c][g];
            if (write && op->sat) {
                /* clampf(v, 0, 1): v < 1 ? v : 1 (NaN to 1), then 0 > v ?
                 * 0 : v (-0 kept) */
                v = soa_sel(v < one, v, one);
                v = soa_sel(zero > v, zero, v);
            }
            if (write && op->predicated) {
                SoaF old;
                memcpy(&old, d + g * sizeof(SoaF), sizeof(old));
                v = soa_sel(pm[g], v, old);
            }
            memcpy(d + g * sizeof(SoaF), &v, sizeof(v));
        }
    }
}

/* soa_op by op->kind (soa_kind): the frequent opcodes' instances */
#define SOA_CASES(i, o)                                                     \
    case 1 + 4 * (i):                                                       \
        soa_op(s, kbase, op, (o), false, false, lanes);                     \
        break;                                                              \
    case 1 + 4 * (i) + SOA_KIND_MODS:                                       \
        soa_op(s, kbase, op, (o), true, false, lanes);                      \
        break;                                                              \
    case 1 + 4 * (i) + SOA_KIND_WRITE:                                      \
        soa_op(s, kbase, op, (o), false, true, lanes);                      \
        break;                                                              \
    case 1 + 4 * (i) + SOA_KIND_MODS + SOA_KIND_WRITE:                      \
        soa_op(s, kbase, op, (o), true, true, lanes);                       \
        break;

SOA_INLINE void soa_dispatch(Soa *s, const uint8_t *kbase,
                             const AttilaSoaOp *op, int lanes)
{
    switch (op->kind) {
    SOA_OWN_LIST(SOA_CASES)
    default:
        soa_op(s, kbase, op, op->opc, true, true, lanes);
        break;
    }
}

/*
 * One instruction decoded as it comes (a run that is not the draw's
 * list: env->batches NULL or another pc): its constants in the block's
 * own slots, its registers moved in when first named
 */
SOA_INLINE void run_soa(Soa *s, const Exec *x, const AttilaShInstr *in)
{
    unsigned rr = in->res_off / sizeof(AttilaVec4), k;
    AttilaSoaKey key[3];
    AttilaSoaOp op;
    uint32_t nk = 0, i;

    /* three operands: the three slots are never full */
    soa_decode(in, &op, key, &nk, 3);
    for (i = 0; i < nk; i++) {
        soa_fill(s->k[i], &key[i], x->env->consts);
    }
    for (k = 0; k < in->nops; k++) {
        unsigned r = in->op[k].off / sizeof(AttilaVec4);
        if (in->op[k].off != NO_OFF && !soa_marked(s->valid, r)) {
            soa_load(s, r);
        }
    }
    if (!soa_marked(s->valid, rr) && (in->mask != 15 || in->predicated)) {
        soa_load(s, rr);        /* the components or lanes kept */
    }
    soa_dispatch(s, (const uint8_t *)s->k, &op, x->lanes);
    soa_mark(s->valid, rr);
    soa_mark(s->dirty, rr);
}
#else
/* exec_alu's arithmetic and write_result's predication, saturation, mask */
static void run_lanes(const Exec *x, const AttilaShInstr *in)
{
    int l, k;

    for (l = 0; l < x->lanes; l++) {
        AttilaShaderThread *t = &x->t[l];
        AttilaVec4 r;
        float a[4], b[4], c[4] = { 0 };

        if (in->predicated && t->pred[in->pred_reg] == in->invert_pred) {
            continue;
        }
        lane_read(x, t, &in->op[0], a);
        if (in->nops > 1) {
            lane_read(x, t, &in->op[1], b);
        }
        if (in->nops > 2) {
            lane_read(x, t, &in->op[2], c);
        }
        switch (in->opcode) {
        case ATTILA_SH_ADD:
            for (k = 0; k < 4; k++) {
                r.f[k] = a[k] + b[k];
            }
            break;
        case ATTILA_SH_MUL:
            for (k = 0; k < 4; k++) {
                r.f[k] = a[k] * b[k];
            }
            break;
        case ATTILA_SH_MAD:
            for (k = 0; k < 4; k++) {
                r.f[k] = a[k] * b[k] + c[k];
            }
            break;
        case ATTILA_SH_MOV:
            memcpy(r.f, a, sizeof(a));
            break;
        case ATTILA_SH_DP3:
            r.f[0] = r.f[1] = r.f[2] = r.f[3] =
                a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
            break;
        case ATTILA_SH_DP4:
            r.f[0] = r.f[1] = r.f[2] = r.f[3] =
                a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
            break;
        case ATTILA_SH_DPH:
            r.f[0] = r.f[1] = r.f[2] = r.f[3] =
                a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + b[3];
            break;
        case ATTILA_SH_MAX:
            for (k = 0; k < 4; k++) {
                r.f[k] = a[k] > b[k] ? a[k] : b[k];
            }
            break;
        case ATTILA_SH_MIN:
            for (k = 0; k < 4; k++) {
                r.f[k] = a[k] < b[k] ? a[k] : b[k];
            }
            break;
        case ATTILA_SH_SLT:
            for (k = 0; k < 4; k++) {
                r.f[k] = a[k] < b[k] ? 1.0f : 0.0f;
            }
            break;
        case ATTILA_SH_SGE:
            for (k = 0; k < 4; k++) {
                r.f[k] = a[k] < b[k] ? 0.0f : 1.0f;
            }
            break;
        case ATTILA_SH_CMP:
            for (k = 0; k < 4; k++) {
                r.f[k] = a[k] < 0.0f ? b[k] : c[k];
            }
            break;
        case ATTILA_SH_DST:
            dst_op(a, b, r.f);
            break;
        case ATTILA_SH_LIT:
            lit_op(a, r.f);
            break;
        default:        /* the scalar operations: of a's last selector */
            r.f[0] = r.f[1] = r.f[2] = r.f[3] = scalar_op(in->opcode, a[3]);
            break;
        }
        lane_write(in, t, r);
    }
}

/* without SSE2 every lane count takes run_lanes */
typedef struct Soa {
    int unused;
} Soa;

static inline void soa_begin(Soa *s, const Exec *x)
{
}

static inline void soa_end(Soa *s, const Exec *x, bool outputs)
{
}

static inline void run_soa(Soa *s, const Exec *x, const AttilaShInstr *in)
{
    run_lanes(x, in);
}
#endif

void attila_shader_reset_thread(AttilaShaderThread *t)
{
    memset(t, 0, sizeof(*t));
}

/*
 * A run of run_lanes' operations from *pc by component; stops before an
 * instruction it cannot run (the caller's loop reports or runs it), after
 * the end flag (true) or after limit instructions. *n: those run.
 */
static inline __attribute__((always_inline)) bool
soa_run(const Exec *x, uint32_t *pc, unsigned *n, unsigned limit)
{
    const AttilaSoaProg *b = x->env->batches;
    Soa s;
    unsigned k = 0;
    bool ended = false;

    soa_begin(&s, x);
#ifdef __SSE2__
    if (b && b->pc == *pc && b->imem == x->env->imem &&
        b->consts == x->env->consts && b->n && b->n <= limit) {
        /* the draw's list: no decoding, no register's first-use test */
        int w;
        for (w = 0; w < 2; w++) {
            uint64_t m = b->load[w];
            for (; m; m &= m - 1) {
                soa_load(&s, w * 64 + __builtin_ctzll(m));
            }
            s.dirty[w] = b->store[w];
        }
        for (k = 0; k < b->n; k++) {
            soa_dispatch(&s, (const uint8_t *)b->kslot, &b->op[k], x->lanes);
        }
        ended = b->ended;
        *pc += ended ? k - 1 : k;
        limit = 0;
    }
#endif
    while (k < limit && *pc < ATTILA_INSTRUCTION_MEMORY) {
        const AttilaShInstr *in = &x->env->imem[*pc];
        if (!in->valid || !in->fast) {
            break;
        }
        run_soa(&s, x, in);
        k++;
        if (in->end) {
            ended = true;
            break;
        }
        (*pc)++;
    }
    soa_end(&s, x, ended && x->env->outputs_only);
    *n = k;
    return ended;
}

static bool soa_block_sse2(const Exec *x, uint32_t *pc, unsigned *n,
                           unsigned limit)
{
    return soa_run(x, pc, n, limit);
}

#if defined(__x86_64__) && defined(__GNUC__)
/*
 * The same code for AVX2: a group of eight lanes is one 256-bit
 * operation instead of two SSE2 ones (the same IEEE operation on each
 * lane), the 4x4 transposes in VEX form. No FMA in AVX2's target, so
 * nothing to contract.
 */
__attribute__((target("avx2")))
static bool soa_block_avx2(const Exec *x, uint32_t *pc, unsigned *n,
                           unsigned limit)
{
    return soa_run(x, pc, n, limit);
}

/*
 * And for AVX-512VL: the same 256-bit operations with 32 vector
 * registers, the comparisons into mask registers; contraction off, as
 * AVX-512F brings FMA (G3D_NO_CONTRACT)
 */
__attribute__((target("avx2,avx512f,avx512vl"))) G3D_NO_CONTRACT
static bool soa_block_avx512(const Exec *x, uint32_t *pc, unsigned *n,
                             unsigned limit)
{
    return soa_run(x, pc, n, limit);
}
#endif

#ifdef __SSE2__
#pragma GCC diagnostic pop
#endif

/* the instance for the CPU's best level (g3d_simd_level) */
static bool soa_block(const Exec *x, uint32_t *pc, unsigned *n,
                      unsigned limit)
{
#if defined(__x86_64__) && defined(__GNUC__)
    switch (g3d_simd_level()) {
    case G3D_SIMD_AVX512:
        return soa_block_avx512(x, pc, n, limit);
    case G3D_SIMD_AVX2:
        return soa_block_avx2(x, pc, n, limit);
    default:
        break;
    }
#endif
    return soa_block_sse2(x, pc, n, limit);
}

static AttilaShaderResult run(const AttilaShaderEnv *env, uint32_t pc,
                              AttilaShaderThread *t, int lanes,
                              uint32_t *bad_pc, unsigned *nsteps,
                              unsigned start)
{
    Exec x = { env, t, lanes };
    double fxacc[ATTILA_SH_BATCH][4];
    bool fx_clear = false;
    unsigned steps;
    int l;

    for (steps = start; steps < ATTILA_SH_MAX_STEPS; steps++) {
        const AttilaShInstr *in;
        bool all_killed = true;

        if (pc >= ATTILA_INSTRUCTION_MEMORY) {
            *bad_pc = pc;
            *nsteps = steps;
            return ATTILA_SHADER_BAD_PC;
        }
        in = &env->imem[pc];
        if (!in->valid) {
            *bad_pc = pc;
            *nsteps = steps;
            return ATTILA_SHADER_BAD_INSTR;
        }
        if (in->fast) {
            /* no kill, no jump: only the end flag to look at */
            if (env->by_component && lanes > 1) {
                unsigned n;
                if (soa_block(&x, &pc, &n, ATTILA_SH_MAX_STEPS - steps)) {
                    *nsteps = steps + n;
                    return ATTILA_SHADER_OK;
                }
                steps += n - 1;     /* the loop counts the last */
                continue;
            }
#ifdef QUAD_AVX2_BLOCK
            if (lanes == 4 && env->quad_avx2) {
                /* after an instruction the block does not run */
                unsigned n;
                if (quad_block_avx2(&x, &pc, &n,
                                    ATTILA_SH_MAX_STEPS - steps)) {
                    *nsteps = steps + n;
                    return ATTILA_SHADER_OK;
                }
                steps += n - 1;     /* the loop counts the last */
                continue;
            }
#endif
            run_lanes(&x, in);
            if (in->end) {
                *nsteps = steps + 1;
                return ATTILA_SHADER_OK;
            }
            pc++;
            continue;
        }
        switch (in->opcode) {
        case ATTILA_SH_DDX:
        case ATTILA_SH_DDY:
            exec_deriv(&x, in);
            break;
        case ATTILA_SH_TEX:
        case ATTILA_SH_TXB:
        case ATTILA_SH_TXL:
        case ATTILA_SH_TXP:
        case ATTILA_SH_LDA:
            if (in->tex_lanes) {
                exec_texture_lanes(&x, in);
            } else {
                exec_texture(&x, in);
            }
            break;
        case ATTILA_SH_JMP:
            if (jump_taken(&x, in)) {
                pc += in->imm;      /* PC-relative, signed (wraps mod 2^32) */
                if (in->end) {
                    *nsteps = steps + 1;
                    return ATTILA_SHADER_OK;
                }
                continue;
            }
            break;
        default:
            /*
             * the lanes' fixed-point accumulators start at zero each run:
             * cleared when the program first reaches an instruction that
             * exec_alu runs (the FX ones among them), not for every
             * fragment quad of a program that has none
             */
            if (!fx_clear) {
                memset(fxacc, 0, lanes * sizeof(fxacc[0]));
                fx_clear = true;
            }
            for (l = 0; l < lanes; l++) {
                exec_alu(&x, in, l, fxacc);
            }
            break;
        }
        if (in->end || in->opcode == ATTILA_SH_END) {
            *nsteps = steps + 1;
            return ATTILA_SHADER_OK;
        }
        for (l = 0; l < lanes; l++) {
            all_killed = all_killed && t[l].kill;
        }
        if (all_killed) {
            *nsteps = steps + 1;
            return ATTILA_SHADER_OK;
        }
        pc++;
    }
    *bad_pc = pc;
    *nsteps = steps;
    return ATTILA_SHADER_TOO_LONG;
}

AttilaShaderResult attila_shader_run(const AttilaShaderEnv *env, uint32_t pc,
                                     AttilaShaderThread *t, int lanes,
                                     uint32_t *bad_pc)
{
    unsigned n = 0;
    AttilaShaderResult r;

#ifdef QUAD_AVX2_BLOCK
    if (lanes == 4 && env->quad_avx2) {
        /*
         * A fragment quad: its program's first run of the block's
         * instructions (often the whole program) before run, whose loop
         * goes on from where the block stopped with the steps counted
         */
        Exec x = { env, t, lanes };
        if (quad_block_avx2(&x, &pc, &n, ATTILA_SH_MAX_STEPS)) {
            r = ATTILA_SHADER_OK;
        } else {
            r = run(env, pc, t, lanes, bad_pc, &n, n);
        }
    } else
#endif
    {
        r = run(env, pc, t, lanes, bad_pc, &n, 0);
    }

    if (env->steps) {
        *env->steps += n;
    }
    return r;
}
